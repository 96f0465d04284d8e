"""Commit-reveal for simultaneous secret choices (design section 5).

A side first sends a signed *commitment* to a decision's choice, bound to the game, the
decision and the side (so a commitment copied from the other side, or replayed from another
decision or game, cannot be opened by the copier)::

    sha256("hxref-commit/2" || identity || decision || side || canonical JSON of the choice || salt)

Choices sealed inside the rules (KGP secrets, plotted hexes) use the unbound form,
``sha256("hxref-commit/1" || canonical JSON || salt)``, with the binding in the choice itself.

and, once every side's commitment is recorded, a signed *reveal* with the
choice and the salt.  The engine (:mod:`hxref.referee.engine`) refuses a reveal that
does not match, a reveal before all commitments are in, a second commitment
for the same decision, and a commitment seen before anywhere in the game
(replayed, or copied from the other side to force a tie).
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any

from ..base.canon import canonical_json, is_hex

COMMIT_DOMAIN = b"hxref-commit/1"
BOUND_DOMAIN = b"hxref-commit/2"
SALT_BYTES = 32


def new_salt() -> str:
    """A fresh random salt (hex); salts are secrets, never dice."""
    return secrets.token_hex(SALT_BYTES)


def commitment(choice: Any, salt_hex: str, bound: tuple[str, str, str] | None = None) -> str:
    """The commitment (hex) to ``choice`` under ``salt_hex``; ``bound`` = (identity, decision,
    side) binds it to one side's answer to one decision of one game."""
    if not is_hex(salt_hex, SALT_BYTES):
        raise ValueError("the salt must be 32 bytes written as 64 lower-case hex digits")
    if bound is None:
        data = COMMIT_DOMAIN + canonical_json(choice) + bytes.fromhex(salt_hex)
    else:
        data = BOUND_DOMAIN + b"".join(part.encode("utf-8") + b"\x00" for part in bound) \
            + canonical_json(choice) + bytes.fromhex(salt_hex)
    return hashlib.sha256(data).hexdigest()


def matches(commitment_hex: str, choice: Any, salt_hex: str, bound: tuple[str, str, str] | None = None) -> bool:
    """True when ``choice`` and ``salt_hex`` open ``commitment_hex`` (under the same binding)."""
    try:
        return secrets.compare_digest(commitment(choice, salt_hex, bound), commitment_hex)
    except (ValueError, TypeError):
        return False
