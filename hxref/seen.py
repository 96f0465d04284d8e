"""The game files this machine has checked, known again by their place on the disk.

Every command checks the log of the game file it loads (:func:`hxref.inputs.check_loaded`: no
unsigned input, ``game.created`` first and once), and that check reads every line of the log.  A
file this machine wrote itself, or checked whole once, and that nobody has written since, need not
be read again: git knows its index the same way (``core.checkStat``).  So after a save, and after a
load that read and checked the whole log, the file's identity on the disk is kept here, with where
its log starts, how many events it holds and its head.  The next command that opens the file and
finds every one of these unchanged reads only the header and the lines it asks for
(:class:`hxref.eventlog.StoredLines`).

What makes a file "unchanged": the same device and inode, size, modification time and change time,
to the nanosecond, and the header's head equal to the kept one.  Writing the file in any way (in
place, by a new file renamed over it, by a copy, by ``touch -d`` to set its times back) gives it a
new change time, which only the kernel sets: so a game file that arrives by mail, is copied from a
backup or edited by hand is checked whole by the first command that opens it.  The records live in
this user's ``$HXREF_HOME/seen/`` (beside the kept heads of :mod:`hxref.heads`), outside the game's
folder, so whoever holds the game file cannot forge one for another machine; a record that is not
well formed, or that another account wrote or could have written, is no record
(:func:`hxref.heads.read_record`).  Only a log in hxref's own form is recorded (one canonical line
per event), so what the next command reads through the record is what a whole read gives; and a
file written in place while a command reads or copies it (its size or modification time changed)
is refused, E500, not saved.  On a network file system the server, not this kernel, reports the
times: ``HXREF_SEEN=off`` turns the records off.  A file that another account may write (group or world writable, or
not this user's) is never taken as unchanged: it could be written in place within the clock tick of
a save and keep its times.  ``hxref audit`` never uses the records: it reads and checks everything.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from .heads import home, private, read_record, write_record

#: what a file's stat must give again for the file to count as unchanged
STAT_FIELDS = ("st_dev", "st_ino", "st_size", "st_mtime_ns", "st_ctime_ns")


def _record(path: str | Path) -> Path:
    real = os.path.realpath(path)
    return home() / "seen" / f"{hashlib.sha256(real.encode('utf-8')).hexdigest()[:32]}.json"


def identity(st: os.stat_result) -> list[int]:
    """A file's identity on the disk, as :data:`STAT_FIELDS` lists it."""
    return [int(getattr(st, f)) for f in STAT_FIELDS]


def enabled() -> bool:
    """Whether this user lets hxref know files again by their stat: not with ``HXREF_SEEN=off``
    (for a game file on a network file system whose server, not this kernel, reports the times)."""
    return os.environ.get("HXREF_SEEN", "").lower() not in ("off", "0", "no")


def own(st: os.stat_result) -> bool:
    """Whether only this user can write the file: one that another account may write in place
    could be changed under a save in the same clock tick, keeping its times; it is always read."""
    return private(st)


def checked(path: str | Path, st: os.stat_result) -> dict[str, Any] | None:
    """The record of the game file at ``path`` if the file open with stat ``st`` is the one this
    machine checked: ``{"log_at", "events", "seq", "hash"}``; else None."""
    if not own(st) or not enabled():
        return None
    data = read_record(_record(path))
    if not isinstance(data, dict) or data.get("path") != os.path.realpath(path) \
            or data.get("stat") != identity(st):
        return None
    if not all(isinstance(data.get(k), int) and not isinstance(data.get(k), bool) and 0 <= data[k] < st.st_size
               for k in ("log_at", "events", "seq")) or not isinstance(data.get("hash"), str):
        return None
    return data


def remember(path: str | Path, st: os.stat_result, log_at: int, events: int, seq: int, hash_hex: str) -> None:
    """Keep the game file at ``path`` (stat ``st``, its log from byte ``log_at``, ``events``
    lines, head ``hash_hex@seq``) as checked.  Best effort: without the record the next command
    only reads the whole log again."""
    if not own(st) or not enabled():
        return
    data = {"path": os.path.realpath(path), "stat": identity(st), "log_at": log_at, "events": events,
            "seq": seq, "hash": hash_hex}
    write_record(_record(path), data)
