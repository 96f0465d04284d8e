"""What a report tells of the whole game, carried from one report to the next.

Two parts of a turn report cover the whole game, not only what happened since its reader last
read: the signed claims and withdrawals (each side must be able to see and dispute them, however
old) and the dice line (how often each face came up, the dice its reader may see).  Counting them
anew reads every event of the log, so a report on the 20,000th event would cost far more than on
the 100th.  So they are kept, per game, reader and mode, under ``$HXREF_HOME/tallies/``, with
the event they were counted to (its number and hash); the next report counts only the events
after it.  A kept tally whose event is not in the history of the file read (another history, a
rollback, a file of another game) is counted anew, from the start; so is one that is not well
formed, or that another account wrote or could have written (:func:`hxref.base.home.read_record`).
They are this user's own record, like the kept heads (:mod:`hxref.gamefile.heads`), and only spare work:
a report with them says what one without them says (``tests/core/test_seen.py``).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .dice_stats import face_counts, visible_rolls
from ..base.home import home, read_record, write_record

#: what a tally holds changes with this number (a kept one of another is counted anew)
VERSION = 1


def _record(identity: str, audience: str | None, mode: str) -> Path:
    key = json.dumps([VERSION, identity, audience, mode])
    return home() / "tallies" / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.json"


def _kept(path: Path, log: Any) -> tuple[int, dict[int, list[int]], list[list]] | None:
    """(events counted, face counts, claims) of the kept tally, if its last event is this log's."""
    data = read_record(path)
    try:
        seq, faces, claims = data["seq"], data["faces"], data["claims"]
        if not (isinstance(seq, int) and 0 < seq <= len(log) and log[seq - 1].get("hash") == data["hash"]):
            return None
        counts = {int(k): [int(c) for c in row] for k, row in faces.items()}
        if any(len(row) != k for k, row in counts.items()) \
                or not all(isinstance(c, list) and len(c) == 2 for c in claims):
            return None
        return seq, counts, claims
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def whole_game(engine: Any, audience: str | None) -> tuple[dict[int, list[int]], list[tuple[int, str]]]:
    """The face counts of every die ``audience`` may see, by die size, and every signed claim
    and withdrawal (event number, text), over the whole game."""
    log, mode = engine.gf.log, engine.h["meta"]["mode"]
    path = _record(engine.identity, audience, mode)
    start, counts, claims = _kept(path, log) or (0, {}, [])
    face_counts(visible_rolls(log, audience, mode, after=start), counts)
    for ev in log[start:]:
        if ev.get("kind") == "rules" and (ev["data"].get("nmr") or ev["data"].get("withdrawn")):
            claims.append([ev["seq"], ev["data"]["text"]])
    if log and len(log) > start:
        write_record(path, {"seq": len(log), "hash": log[-1].get("hash"), "faces": counts, "claims": claims})
    return counts, [(int(seq), str(text)) for seq, text in claims]


