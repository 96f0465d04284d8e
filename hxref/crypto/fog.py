"""A side's secrets in a game played with hidden armies: one seed, and what is derived from it.

Each side of such a game keeps its Army Organization Display on its own machine.  Everything it
must later prove comes from one 32-byte *fog seed*, made from its key, the game's identity and the
nonce of its own join (like its dice chain, :func:`hxref.crypto.dice.chain_seed`), so nothing but
the key has to be kept to make it again.  Its join publishes :func:`seed_commitment`; the seed
itself is revealed only by the side's proof, and then every salt and secret die it made can be
checked against that commitment:

- the salts of each commitment to its boxes (:func:`box_salts`: per box, per commitment label);
- its secret dice (:func:`secret_dice`): a roll only this side may see (a roll whose
  ``visible_to`` names it alone) comes from the decision's public dice seed, which holds the other
  sides' bound links, and this side's secret for the decision.  The other sides cannot compute it
  without the seed; this side cannot steer it, since its seed was fixed at its join and the other
  links are bound and unknown to it until they are sent.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from . import merkle

FOG_DOMAIN = b"hxref-fog/1"
COMMITMENT_DOMAIN = b"hxref-fog-seed/1"
SALTS_DOMAIN = b"hxref-fog-salts/1"
SECRET_DICE_DOMAIN = b"hxref-fog-dice/1"


def fog_seed(key, identity: str, join_nonce: str) -> bytes:
    """The side's fog seed for one game: derived from its key, the game's identity and the nonce
    of its join file (64 hex digits)."""
    return key.derive_secret(FOG_DOMAIN + b"\x00" + identity.encode("utf-8") + b"\x00" + bytes.fromhex(join_nonce))


def seed_commitment(seed: bytes) -> str:
    """What the side's join publishes of its fog seed (hex)."""
    return hashlib.sha256(COMMITMENT_DOMAIN + b"\x00" + seed).hexdigest()


def box_salts(seed: bytes, label: str, names: Iterable[str]) -> dict[str, str]:
    """The salt of each box of the side's commitment named ``label`` (the head it is made at)."""
    return merkle.salts(hmac.new(seed, SALTS_DOMAIN, hashlib.sha256).digest(), label, names)


def secret_dice(seed: bytes, identity: str, decision_id: str) -> bytes:
    """The side's secret for the dice of ``decision_id`` only it may see."""
    message = SECRET_DICE_DOMAIN + b"\x00" + identity.encode("utf-8") + b"\x00" + decision_id.encode("utf-8")
    return hmac.new(seed, message, hashlib.sha256).digest()
