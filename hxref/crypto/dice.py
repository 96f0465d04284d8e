"""Verifiable dice: the only source of chance in hxref.

Protocol (design section 5):

* Every participant commits at the start of a game to the *tip* of a private
  hash chain, ``tip = H^N(s)``.  The secret ``s`` is derived from the
  participant's own key, the game's identity and the fresh random nonce of
  its own join file (:func:`chain_seed`), so nothing secret has to be kept
  besides the key, and a game re-made with an old identity (by hand: the
  identity is the hash of a first event anyone can copy) never yields a chain
  its players used before: their new joins draw new nonces.
* Each dice decision takes one link of each dice party, bound to the decision
  (:meth:`hxref.referee.engine.Engine.link_index`): ``link_k`` with ``H(link_k) ==
  link_(k-1)``.  Links are fixed in advance, so nobody can grind them; a link
  is revealed only once every choice it affects is fixed.
* The dice for a decision come from
  ``sha256("hxref-dice/1" || identity || decision id || the links, in party order)``
  expanded by a counter-mode generator (sha256 of seed || counter), with
  rejection sampling: no modulo bias, no floats.
* Solo games have no keys: their dice come from a seed recorded at creation.

Rules code never imports :mod:`random`; it receives a :class:`Dice` object and
asks for rolls by purpose ("weather", "IMC Grant"), and every roll is recorded
so the log can show it and ``hxref audit`` can re-derive it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Iterable

CHAIN_LENGTH = 4096
DICE_DOMAIN = b"hxref-dice/1"
SOLO_DOMAIN = b"hxref-solo/1"
PURPOSE_DOMAIN = b"hxref-dice-purpose/1"
SECRET_DOMAIN = b"hxref-dice-secret/1"
CHAIN_DOMAIN = b"hxref-chain/2"


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# --- hash chains ---------------------------------------------------------------------------

def chain_seed(key, game_id: str, join_nonce: str) -> bytes:
    """The secret start of a participant's chain for one game: derived from its key, the game's
    identity and the nonce of its join file (64 hex digits, drawn by ``hxref join``)."""
    return key.derive_secret(CHAIN_DOMAIN + b"\x00" + game_id.encode("utf-8") + b"\x00" + bytes.fromhex(join_nonce))


def chain_link(seed: bytes, index: int, length: int = CHAIN_LENGTH) -> str:
    """Link ``index`` of the chain (hex); index 0 is the tip, index ``length`` the seed's hash."""
    if not 0 <= index <= length:
        raise ValueError(f"link index {index} outside the chain 0..{length}")
    value = _h(seed)
    for _ in range(length - index):
        value = _h(value)
    return value.hex()


def index_of(seed: bytes, link_hex: str, length: int = CHAIN_LENGTH) -> int | None:
    """The index of ``link_hex`` in the chain of ``seed``, or None when it is no link of it."""
    value = _h(seed)
    for index in range(length, -1, -1):
        if value.hex() == link_hex:
            return index
        value = _h(value)
    return None


def chain_tip(seed: bytes, length: int = CHAIN_LENGTH) -> str:
    return chain_link(seed, 0, length)


def link_follows(link_hex: str, previous_hex: str) -> bool:
    """True when ``H(link) == previous``: ``link`` is the next link after ``previous``."""
    try:
        return _h(bytes.fromhex(link_hex)).hex() == previous_hex
    except ValueError:
        return False


# --- seeds ---------------------------------------------------------------------------------

def dice_seed(game_id: str, decision_id: str, links: Iterable[tuple[str, str]]) -> bytes:
    """The seed of a decision's dice from its links, given in party order (never arrival order)."""
    h = hashlib.sha256()
    h.update(DICE_DOMAIN)
    for part in (game_id, decision_id):
        h.update(b"\x00" + part.encode("utf-8"))
    for who, link in links:
        h.update(b"\x00" + who.encode("utf-8") + b"\x00" + bytes.fromhex(link))
    return h.digest()


def solo_seed(recorded_seed_hex: str, game_id: str, decision_id: str) -> bytes:
    """The seed of a decision's dice in a solo game."""
    h = hashlib.sha256()
    h.update(SOLO_DOMAIN)
    h.update(bytes.fromhex(recorded_seed_hex))
    for part in (game_id, decision_id):
        h.update(b"\x00" + part.encode("utf-8"))
    return h.digest()


# --- rolling -------------------------------------------------------------------------------

@dataclass
class Roll:
    """One recorded roll: what it was for, the die size and the faces."""

    purpose: str
    sides: int
    faces: list[int]
    by: str | None = None
    #: the sides that may see the roll (and the umpire); None: everyone (hxref.kit.events)
    visible_to: list[str] | None = None
    #: False for a roll of another side's own that this copy cannot know (:class:`PurposeDice`)
    known: bool = True

    def to_dict(self) -> dict:
        out: dict = {"purpose": self.purpose, "sides": self.sides, "faces": list(self.faces)}
        if self.by:
            out["by"] = self.by
        if self.visible_to is not None:
            out["visible_to"] = sorted(set(self.visible_to))
        return out

    @property
    def total(self) -> int:
        return sum(self.faces)


@dataclass
class Dice:
    """Counter-mode dice from a 32-byte seed, with rejection sampling."""

    seed: bytes
    rolls: list[Roll] = field(default_factory=list)
    _counter: int = 0
    _buffer: bytes = b""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._buffer += _h(self.seed + self._counter.to_bytes(8, "big"))
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def _face(self, sides: int) -> int:
        nbytes = max(1, (sides - 1).bit_length() + 7 >> 3)
        space = 256**nbytes
        limit = space - space % sides
        while True:
            value = int.from_bytes(self._take(nbytes), "big")
            if value < limit:
                return value % sides + 1

    def roll(self, purpose: str, *, sides: int = 6, count: int = 1, by: str | None = None,
             visible_to: list[str] | None = None) -> list[int]:
        """Roll ``count`` dice of ``sides`` faces for ``purpose``; recorded (``visible_to``: the sides
        that may see it, None for everyone)."""
        if sides < 2 or count < 1:
            raise ValueError("a roll needs at least one die of at least two sides")
        faces = [self._face(sides) for _ in range(count)]
        self.rolls.append(Roll(purpose, sides, faces, by, None if visible_to is None else list(visible_to)))
        return faces

    def d6(self, purpose: str, *, by: str | None = None, visible_to: list[str] | None = None) -> int:
        return self.roll(purpose, by=by, visible_to=visible_to)[0]


@dataclass
class PurposeDice(Dice):
    """Dice of a game played with hidden armies: a stream for each purpose, and for a roll one side
    alone may see, a stream of that side's own.

    Each copy of such a game resolves a decision on its own knowledge: one copy rolls attrition for
    the three units it holds, the other for the two it believes in.  With one stream for the whole
    decision every later roll would then differ between the copies.  Here the faces of a purpose
    depend only on the seed, the purpose and how often that purpose was rolled before, so every
    roll both copies make has the same faces in both, whatever else each asked for.

    A roll whose ``visible_to`` names one side alone comes from that side's secret for the decision
    (:func:`hxref.crypto.fog.secret_dice`, given in ``secrets``) mixed with the public seed.  A copy
    that lacks it (``secrets[side]`` is None) rolls from a stand-in stream and records the roll as
    unknown: the faces are a placeholder for a result of the other side's own, never shown."""

    secrets: dict[str, bytes | None] = field(default_factory=dict)
    _streams: dict[bytes, "Dice"] = field(default_factory=dict)

    def _stream(self, purpose: str, visible_to: list[str] | None) -> tuple["Dice", bool]:
        seed, known = self.seed, True
        if visible_to is not None and len(set(visible_to)) == 1:
            owner = visible_to[0]
            secret = self.secrets.get(owner)
            known = secret is not None
            seed = _h(SECRET_DOMAIN + b"\x00" + self.seed + (secret if secret is not None else
                                                               b"unknown\x00" + owner.encode("utf-8")))
        key = _h(PURPOSE_DOMAIN + b"\x00" + seed + b"\x00" + purpose.encode("utf-8"))
        if key not in self._streams:
            self._streams[key] = Dice(key)
        return self._streams[key], known

    def roll(self, purpose: str, *, sides: int = 6, count: int = 1, by: str | None = None,
             visible_to: list[str] | None = None) -> list[int]:
        if sides < 2 or count < 1:
            raise ValueError("a roll needs at least one die of at least two sides")
        stream, known = self._stream(purpose, visible_to)
        faces = [stream._face(sides) for _ in range(count)]
        self.rolls.append(Roll(purpose, sides, faces, by, None if visible_to is None else list(visible_to),
                               known=known))
        return faces


class FixedDice(Dice):
    """Dice that return given faces in order: for rule tests and worked examples."""

    def __init__(self, faces: Iterable[int]):
        super().__init__(seed=b"\x00" * 32)
        self._faces = list(faces)

    def _face(self, sides: int) -> int:
        if not self._faces:
            raise AssertionError("FixedDice ran out of faces")
        face = self._faces.pop(0)
        if not 1 <= face <= sides:
            raise AssertionError(f"face {face} impossible on a d{sides}")
        return face

    @property
    def unused(self) -> list[int]:
        return list(self._faces)
