"""What one copy of a game with hidden armies knew at the last head this machine wrote or proved,
kept so the next command need not replay the whole log to know it again.

A copy's :class:`~hxref.referee.shadow.Knowledge` (every side's boxes, the journal, the boxes after
each block) is made by replaying the log (:func:`hxref.referee.proof.replay_known`), which grows
with the game.  This record keeps it, plain data, under ``$HXREF_HOME/fog/``: one per game file
(by real path) and copy (a side, or the public copy), holding the head and the sha256 of the game
file it is the knowledge of, that file's header, the side's fog seed and sealed answers it was made
with (as a digest), and the knowledge.  It is believed only when the game file is byte for byte the
one the kept head record vouches for (:func:`hxref.gamefile.heads.vouches`), its log extends the
record's head, and the side's own file still holds the same seed and the same sealed answers to
the decisions the log had resolved there: then a file that is the record's own is not replayed at
all, and one that grew since (the blocks another copy of this machine's wrote, the public copy's
at every ``submit``) is replayed from the record's head only; anything else from the start.  It holds a side's secrets (its true boxes and what
it alone saw): like the side's own file it is this user's only (0600, in a folder only this user
may write), never mailed, and removing it loses nothing but time.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base.canon import canonical_json, sha256_hex
from ..base.home import home, read_record, write_record
from ..gamefile import heads
from .shadow import Knowledge, Secrets

if TYPE_CHECKING:
    from .engine import Engine

#: the largest record read: a whole Heartland game's boxes after every block are a few megabytes
LIMIT = 64 << 20


def _record(path: str | Path, side: str | None) -> Path:
    real = os.path.realpath(path)
    key = hashlib.sha256(canonical_json([real, side]).decode("utf-8").encode("utf-8")).hexdigest()[:32]
    return home() / "fog" / f"{key}.json"


def _secrets_digest(known: dict[str, Secrets], decisions: list[str]) -> str:
    """What the knowledge depends on of the copy's secrets: each known side's seed and its sealed
    answers to ``decisions`` (a store only grows: answers to later decisions do not count)."""
    return sha256_hex(canonical_json({s: {"seed": k.seed.hex(), "sealed": {d: k.sealed.get(d) for d in decisions}}
                                      for s, k in sorted(known.items())}))


def kept(path: str | Path, digest: str, side: str | None, known: dict[str, Secrets],
         log: Sequence[Mapping[str, Any]]) -> tuple[int, dict | None, Knowledge] | None:
    """What the copy of ``side`` (None: the public copy) of the game file at ``path`` (sha256
    ``digest``, its log ``log``) knew when this machine last kept it: (head, header, knowledge);
    the header is None when the record was made from this very file (nothing is left to replay).
    None when there is none to believe: the file is not the one the head record vouches for, or
    the record is of another copy, of a history the log does not extend, or of other secrets."""
    if not heads.vouches(path, digest):
        return None
    data = read_record(_record(path, side), LIMIT)
    if not isinstance(data, dict) or data.get("side") != side:
        return None
    seq, decisions = data.get("seq"), data.get("decisions")
    if not isinstance(seq, int) or not 0 < seq <= len(log) or log[seq - 1].get("hash") != data.get("head") \
            or not isinstance(decisions, list) or data.get("secrets") != _secrets_digest(known, decisions):
        return None
    try:
        knowledge = Knowledge(known=dict(known), boxes=data["boxes"], journal=data["journal"],
                              history=[(int(at), boxes) for at, boxes in data["history"]])
    except (KeyError, TypeError, ValueError):
        return None
    if data.get("file") == digest:
        return seq, None, knowledge
    return (seq, data["header"], knowledge) if isinstance(data.get("header"), dict) else None


def keep(path: str | Path, digest: str, side: str | None, eng: Engine) -> None:
    """Keep what the copy ``eng`` of ``side`` knows as the copy's at the game file at ``path``
    (sha256 ``digest``, ``eng``'s log and header its own).  Best effort, like every record."""
    k, log = eng.knowledge, eng.gf.log
    data: dict[str, Any] = {
        "path": os.path.realpath(path), "side": side, "file": digest, "seq": len(log),
        "head": log[-1]["hash"] if log else None, "header": eng.h,
        "decisions": list(eng.h["resolved"]), "secrets": _secrets_digest(k.known, list(eng.h["resolved"])),
        "boxes": k.boxes, "journal": k.journal, "history": [[at, boxes] for at, boxes in k.history]}
    write_record(_record(path, side), data)
