"""Finding the game files of a folder and reading their headers fast, for :mod:`hxref.batch`.

:func:`find_games` -- every game file under a folder, recursively.  A game file is a ``.yaml``/
``.yml`` file that starts the way :meth:`hxref.gamefile.game.GameFile.dumps` writes one (``# hxref game
file``, or ``hxref: 1`` followed by ``meta:``); backups (``.bak``), lock files, hidden and temporary
files, order files and every other YAML file are skipped.

:func:`read_header` reads a game file's header as every command reads it
(:meth:`hxref.referee.engine.Engine.load`: the header its log proves, or that of the very file this machine
wrote or proved), by default with its ``state`` cut to the scalars the game's system names in its
:attr:`~hxref.kit.protocol.SystemInfo.dashboard` (``turn``, ``stage``, ``date``, ...).  The last
activity it reports is the latest signed time of the files the game holds (those kept for its open
decisions, else those of the last block of the log, else its creation), else the file's
modification time.
"""
from __future__ import annotations

import datetime as _dt
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.errors import InvalidInput
from ..kit.protocol import SystemInfo

#: the first bytes of every game file hxref writes
SNIFF = b"# hxref game file"
_SNIFF_HEADER = re.compile(rb"^hxref: 1\r?\nmeta:", re.M)
GAME_SUFFIXES = (".yaml", ".yml")
#: the scalars of the state a dashboard shows of a game whose system is not registered
_STATE_KEYS: tuple[str, ...] = SystemInfo.dashboard


def state_keys(system: object) -> tuple[str, ...]:
    """The scalars of the state a dashboard shows for ``system`` (its ``SystemInfo.dashboard``)."""
    from ..kit import registry

    try:
        return registry.info(system).dashboard if isinstance(system, str) else _STATE_KEYS
    except InvalidInput:
        return _STATE_KEYS


# --- finding and reading game files ------------------------------------------------------------

def find_games(folder: str | Path) -> list[Path]:
    """Every game file under ``folder`` (recursively, in sorted order)."""
    root = Path(folder)
    if not root.is_dir():
        raise InvalidInput("not a folder", code="E100", file=str(root))
    found: list[Path] = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(GAME_SUFFIXES):
                continue
            path = Path(here) / name
            if is_game_file(path):
                found.append(path)
    return found


def is_game_file(path: str | Path) -> bool:
    """A cheap look at the first bytes: True when the file is (or claims to be) an hxref game file."""
    from ..base.files import read_regular

    try:
        start = read_regular(Path(path), 4096)
    except OSError:
        return False
    if start.startswith(b"\xef\xbb\xbf"):
        start = start[3:]
    return start.startswith(SNIFF) or bool(_SNIFF_HEADER.search(start))


@dataclass
class Peek:
    """What a dashboard needs from one game file, read without parsing its log."""

    header: dict               # the header; its ``state`` holds only the state_keys() unless read in full
    last_activity: str         # ISO 8601 UTC
    #: "pending" (the latest signed time of the files kept for the open decisions), "log" (of the
    #: last block's files, or the creation), or "mtime"
    activity_from: str


def read_header(path: str | Path, *, full_state: bool = False) -> Peek:
    """The header of a game file as every command reads it (and its last activity): E500 when the
    file does not check out, as for any command."""
    from ..referee.engine import Engine

    p = Path(path)
    eng = Engine.load(p)
    header = dict(eng.h)
    if not full_state and isinstance(header.get("state"), dict):
        keys = state_keys((header.get("meta") or {}).get("system"))
        header["state"] = {k: v for k, v in header["state"].items() if k in keys}
    at = _log_time(eng.gf.log)
    kept = _pending_time(header)
    if kept is not None and (at is None or _sort_time(kept) >= _sort_time(at)):
        return Peek(header, kept, "pending")
    if at is None:
        try:
            mtime = os.stat(p).st_mtime
        except OSError as exc:
            raise InvalidInput(f"cannot read the game file: {exc.strerror or exc}", code="E100", file=str(p)) from None
        stamp = _dt.datetime.fromtimestamp(mtime, _dt.timezone.utc).replace(microsecond=0).isoformat()
        return Peek(header, stamp.replace("+00:00", "Z"), "mtime")
    return Peek(header, at, "log")


def _log_time(log: Any) -> str | None:
    """The latest signed time of the last block of the log that records one (its files' ``at``),
    or the time the game was created; read from the end of the log."""
    latest = None
    in_block = False
    for ev in reversed(log):
        kind = ev.get("kind")
        if in_block and kind != "submission":
            return latest            # the files of the last block with a time are all read
        if kind == "game.created":
            return _later(latest, _event_time(ev))
        t = _event_time(ev) if kind == "submission" else None
        if t:
            latest = _later(latest, t)
            in_block = True
    return latest


#: the signed time in the text of an order file (``at: '2026-11-29T12:00:00Z'``)
_FILE_AT = re.compile(r"^at: *['\"]?([^'\"\n#]+?)['\"]? *$", re.M)


def _event_time(ev: Any) -> str | None:
    """The time an event records: the creation time, or the signed ``at`` of a block's file."""
    if not isinstance(ev, dict) or not isinstance(ev.get("data"), dict):
        return None
    data = ev["data"]
    if ev.get("kind") == "game.created":
        t = (data.get("meta") or {}).get("created")
    elif ev.get("kind") == "submission":
        t = _file_time(data.get("file"))
    else:
        t = None
    return t if isinstance(t, str) and parse_time(t) is not None else None


def _file_time(text: Any) -> str | None:
    """The signed ``at`` of an order file's text (None: it has none that reads as a time)."""
    if not isinstance(text, str):
        return None
    m = _FILE_AT.search(text)
    return m.group(1).strip() if m and parse_time(m.group(1).strip()) is not None else None


def _pending_time(header: dict) -> str | None:
    """The latest signed time of the files kept for the open decisions (outside the log)."""
    latest = None
    pending = header.get("pending")
    for entry in (pending.values() if isinstance(pending, dict) else ()):
        files = entry.get("files") if isinstance(entry, dict) else None
        for f in files if isinstance(files, list) else ():
            latest = _later(latest, _file_time(f.get("file")) if isinstance(f, dict) else None)
    return latest


def _later(a: str | None, b: str | None) -> str | None:
    if a is None or b is None:
        return a or b
    return a if _sort_time(a) >= _sort_time(b) else b


def _rel(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


def parse_time(text: str) -> _dt.datetime | None:
    """An ISO 8601 time as an aware UTC datetime (a time without a zone is taken as UTC)."""
    try:
        t = _dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return t.replace(tzinfo=_dt.timezone.utc) if t.tzinfo is None else t.astimezone(_dt.timezone.utc)


def _sort_time(text: str) -> _dt.datetime:
    return parse_time(text) or _dt.datetime.max.replace(tzinfo=_dt.timezone.utc)
