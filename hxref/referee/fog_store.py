"""A side's own file in a game played with hidden armies: what it alone knows and must keep.

Beside the game file ``GAME.yaml`` each side keeps ``GAME.SIDE.own.yaml`` (``game.union.own.yaml``):
never mailed, never in an outbox, written atomically and readable by its owner only (0600 from its
first byte).  It holds the game's identity, the side, its fog seed (:func:`hxref.crypto.fog.fog_seed`,
whose commitment its join published) and its *sealed answers*: for each decision it answered, the
whole choice and the salt of the commitment its file carries (the file carries only the public
part).  Nothing derivable is kept: the side's boxes come from replaying the public log with these
answers (:mod:`hxref.referee.shadow`).

A lost store is a side that cannot prove its game, so it is backed up like the game (``.bak``),
hxref refuses to sign an answer it could not store first, and a store is never written with less
than it held.  A store whose identity, side or seed is not the game's is refused (E500), as is one
that is not a regular file of this user's (E206).
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.canon import is_hex
from ..base.errors import InvalidInput

SUFFIX = ".own.yaml"
#: the largest store read: a whole campaign's sealed answers are a few hundred kilobytes
LIMIT = 16 << 20


def store_path(game: str | Path, side: str) -> Path:
    """Where ``side``'s own file of the game at ``game`` lies: beside it, ``<stem>.<side>.own.yaml``."""
    game = Path(game)
    return game.with_name(f"{game.stem}.{side}{SUFFIX}")


@dataclass
class OwnStore:
    """One side's own file: the identity, the side, the fog seed and the sealed answers
    (``{decision id: {"choice": ..., "salt": ...}}``)."""

    path: Path
    identity: str
    side: str
    seed: bytes
    sealed: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {"hxref-own": 1, "identity": self.identity, "side": self.side, "seed": self.seed.hex(),
                "sealed": self.sealed}

    def seal(self, decision: str, choice: dict, salt: str) -> None:
        """Keep ``side``'s whole answer to ``decision`` and write the store (before the file is signed)."""
        known = self.sealed.get(decision)
        if known is not None and (known["choice"] != choice or known["salt"] != salt):
            raise InvalidInput(f"{self.side} has sealed another answer to {decision} already; it is kept",
                               code="E303", file=str(self.path))
        self.sealed[decision] = {"choice": choice, "salt": salt}
        self.save()

    def save(self) -> None:
        """Write the store atomically, 0600, keeping the last version as ``.bak``; never with less
        than the file holds now (a sealed answer is never dropped or changed)."""
        from ..base import yamlio
        from ..base.files import atomic_write

        if os.path.lexists(self.path):
            old = read(self.path, self.identity, self.side, None)
            if old.seed != self.seed or any(self.sealed.get(k) != v for k, v in old.sealed.items()):
                raise InvalidInput("this would write the side's own file with less than it holds (another seed, "
                                   "or a sealed answer dropped or changed): refused", code="E500",
                                   file=str(self.path))
        text = "# hxref: this side's own file of a game with hidden armies. SECRET: never send it;\n" \
               "# back it up with the game: without it the side cannot prove its game.\n" + \
               yamlio.dump_fast(self.to_data(), width=1_000_000)
        atomic_write(self.path, text.encode("utf-8"), backup=os.path.lexists(self.path), private=True)


def create(game: str | Path, identity: str, side: str, seed: bytes) -> OwnStore:
    """A new store beside ``game`` (E502 when one is there already: a side joins a game once)."""
    path = store_path(game, side)
    if os.path.lexists(path):
        raise InvalidInput("the side's own file exists already: this side has joined this game", code="E502",
                           file=str(path))
    store = OwnStore(path, identity, side, seed)
    store.save()
    return store


def read(path: Path, identity: str, side: str, seed_commitment: str | None) -> OwnStore:
    """The store at ``path``, for the game ``identity`` and ``side``: a regular file of this user's
    that no other may write (E206), readable (E100), and naming this game, this side and, when
    ``seed_commitment`` is given, the seed its join committed to (E500)."""
    from ..base import yamlio
    from ..crypto import fog

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        raise InvalidInput(f"no own file of {side} beside the game: a game with hidden armies is played from "
                           "the side's own file, which `hxref join` wrote", code="E100", file=str(path)) from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
            raise InvalidInput("a side's own file must be a regular file of this user's that nobody else may "
                               "read or write (0600)", code="E206", file=str(path))
        raw = fh.read(LIMIT + 1)
    if len(raw) > LIMIT:
        raise InvalidInput(f"the side's own file is larger than {LIMIT:,} bytes", code="E103", file=str(path))
    text = yamlio.decode(raw, str(path))
    data = yamlio.check_two_readers(text, yamlio.load_rt(text, str(path), yamlio.DATA_LIMITS), str(path))

    def bad(what: str) -> InvalidInput:
        return InvalidInput(f"this is not {side}'s own file of this game: {what}", code="E500", file=str(path))

    if not isinstance(data, dict) or data.get("hxref-own") != 1 or set(data) != {"hxref-own", "identity", "side",
                                                                                   "seed", "sealed"}:
        raise bad("it is not a file `hxref join` writes")
    if data["identity"] != identity:
        raise bad(f"it is of the game {str(data['identity'])[:16]}")
    if data["side"] != side:
        raise bad(f"it is {data['side']}'s")
    if not is_hex(data["seed"], 32) or not isinstance(data["sealed"], dict):
        raise bad("its seed or its sealed answers are damaged")
    seed = bytes.fromhex(data["seed"])
    if seed_commitment is not None and fog.seed_commitment(seed) != seed_commitment:
        raise bad("its seed is not the one the side's join committed to")
    for decision, entry in data["sealed"].items():
        if not isinstance(entry, dict) or set(entry) != {"choice", "salt"} or not isinstance(entry["choice"], dict) \
                or not is_hex(entry["salt"], 32):
            raise bad(f"its sealed answer to {decision} is damaged")
    return OwnStore(path, identity, side, seed, dict(data["sealed"]))
