"""What one copy of a game with hidden armies knew at the last head this machine wrote or proved,
kept so the next command need not replay the whole log to know it again.

A copy's :class:`~hxref.referee.shadow.Knowledge` (every side's boxes, the journal, the boxes after
each block) is made by replaying the log (:func:`hxref.referee.proof.replay_known`), which grows
with the game.  This record keeps it, plain data, under ``$HXREF_HOME/fog/``: one per game file
(by real path) and copy (a side, or the public copy), holding the sha256 of the game file it is
the knowledge of, the side's fog seed and sealed answers it was made with (as a digest), and the
knowledge.  It is believed only when the game file is byte for byte the one the kept head record
vouches for (:func:`hxref.gamefile.heads.vouches`) and the one the record was made from, and the
side's own file still holds the same seed and the same sealed answers to the decisions the log
resolved; anything else is replayed as before.  It holds a side's secrets (its true boxes and what
it alone saw): like the side's own file it is this user's only (0600, in a folder only this user
may write), never mailed, and removing it loses nothing but time.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from ..base.canon import canonical_json, sha256_hex
from ..base.home import home, read_record, write_record
from ..gamefile import heads
from .shadow import Knowledge, Secrets

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


def kept(path: str | Path, digest: str, side: str | None, known: dict[str, Secrets]) -> Knowledge | None:
    """The knowledge kept for the copy of ``side`` (None: the public copy) of the game file at
    ``path`` whose bytes have the sha256 ``digest``, or None when there is none to believe."""
    if not heads.vouches(path, digest):
        return None
    data = read_record(_record(path, side), LIMIT)
    if not isinstance(data, dict) or data.get("file") != digest or data.get("side") != side:
        return None
    decisions = data.get("decisions")
    if not isinstance(decisions, list) or data.get("secrets") != _secrets_digest(known, decisions):
        return None
    try:
        return Knowledge(known=dict(known), boxes=data["boxes"], journal=data["journal"],
                         history=[(int(at), boxes) for at, boxes in data["history"]])
    except (KeyError, TypeError, ValueError):
        return None


def keep(path: str | Path, digest: str, side: str | None, resolved: list[str], knowledge: Knowledge) -> None:
    """Keep ``knowledge`` as the copy of ``side``'s at the game file at ``path`` (sha256 ``digest``;
    ``resolved``: the decisions its log resolved).  Best effort, like every record."""
    data: dict[str, Any] = {
        "path": os.path.realpath(path), "side": side, "file": digest, "decisions": list(resolved),
        "secrets": _secrets_digest(knowledge.known, list(resolved)),
        "boxes": knowledge.boxes, "journal": knowledge.journal,
        "history": [[at, boxes] for at, boxes in knowledge.history]}
    write_record(_record(path, side), data)
