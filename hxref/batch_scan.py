"""Finding the game files of a folder and reading their headers fast, for :mod:`hxref.batch`.

:func:`find_games` -- every game file under a folder, recursively.  A game file is a ``.yaml``/
``.yml`` file that starts the way :meth:`hxref.game.GameFile.dumps` writes one (``# hxref game
file``, or ``hxref: 1`` followed by ``meta:``); backups (``.bak``), lock files, hidden and temporary
files, order files and every other YAML file are skipped.

:func:`read_header` reads a game file's *header* only: the log is not parsed, and even the
header's ``state`` block (the bulk of it) is skipped except for the scalars the game's system
names in its :attr:`~hxref.kit.protocol.SystemInfo.dashboard` (``turn``, ``stage``, ``date``, ...: read
from its ``info.py``, without loading its rules), so a folder of hundreds of games is read in a
fraction of a second.  The last activity
it reports is the latest signed time of the files the game holds (those kept for its open
decisions, else those of the last block of the log, else its creation), else the file's
modification time.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import InvalidInput
from .game import FORMAT, damaged, read_head
from .kit.protocol import SystemInfo

#: the first bytes of every game file hxref writes
SNIFF = b"# hxref game file"
_SNIFF_HEADER = re.compile(rb"^hxref: 1\r?\nmeta:", re.M)
GAME_SUFFIXES = (".yaml", ".yml")
#: a top-level key of the header (PyYAML block style: keys at column 0, everything else indented)
_TOP_KEY = re.compile(r"^([A-Za-z_][\w.-]*):", re.M)
#: the scalars of the state a dashboard shows of a game whose system is not registered
_STATE_KEYS: tuple[str, ...] = SystemInfo.dashboard


def state_keys(system: object) -> tuple[str, ...]:
    """The scalars of the state a dashboard shows for ``system`` (its ``SystemInfo.dashboard``)."""
    from .kit import registry

    try:
        return registry.info(system).dashboard if isinstance(system, str) else _STATE_KEYS
    except InvalidInput:
        return _STATE_KEYS


@lru_cache(maxsize=None)
def _state_scalar(keys: tuple[str, ...]) -> re.Pattern:
    """The lines of ``keys`` among the direct children of ``state:`` (PyYAML block style: indented two spaces)."""
    return re.compile(r"^  (" + "|".join(map(re.escape, keys)) + r"): (.*)$", re.M)


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
    try:
        with open(path, "rb") as fh:
            start = fh.read(4096)
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
    """The header of a game file (and its last activity), reading the log only from its end.

    Raises the same E500 error as :meth:`GameFile.load` when the header is damaged.
    """
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            head, head_end = read_head(fh, p)
            size = os.fstat(fh.fileno()).st_size
            at = _last_event_time(fh, head_end, size)
            mtime = os.fstat(fh.fileno()).st_mtime
    except FileNotFoundError:
        raise InvalidInput("no such game file", code="E100", file=str(p)) from None
    except OSError as exc:
        raise InvalidInput(f"cannot read the game file: {exc.strerror or exc}", code="E100", file=str(p)) from None
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        raise damaged(p, "the header is not UTF-8 text") from None
    header = _parse_header(text, p, full_state)
    kept = _pending_time(header)
    if kept is not None and (at is None or _sort_time(kept) >= _sort_time(at)):
        return Peek(header, kept, "pending")
    if at is None:
        at = _dt.datetime.fromtimestamp(mtime, _dt.timezone.utc).replace(microsecond=0).isoformat()
        return Peek(header, at.replace("+00:00", "Z"), "mtime")
    return Peek(header, at, "log")


def _parse_header(text: str, path: Path, full_state: bool) -> dict:
    from . import yamlio
    from .game import header_body, parse_header

    if header_body(text).startswith("{"):
        # the JSON header hxref writes: read whole (json.loads reads it faster than any skipping)
        found = parse_header(text, path)
        if not full_state and isinstance(found.get("state"), dict):
            keys = state_keys((found.get("meta") or {}).get("system"))
            found["state"] = {k: v for k, v in found["state"].items() if k in keys}
        return _checked(found, path)
    header = None
    if not full_state:
        # every top-level block but `state`, parsed; of `state` only a few scalars
        starts = [m.start() for m in _TOP_KEY.finditer(text)]
        blocks = {text[a:text.index(":", a)]: text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])}
        if "state" in blocks and "meta" in blocks:
            state_text = blocks.pop("state")
            try:
                header = yamlio.fast_load("".join(blocks.values()))
                meta = header.get("meta") if isinstance(header, dict) else None
                wanted = _state_scalar(state_keys(meta.get("system") if isinstance(meta, dict) else None))
                state = yamlio.fast_load("\n".join(m.group(0)[2:] for m in wanted.finditer(state_text)))
                if isinstance(header, dict):
                    header["state"] = state if isinstance(state, dict) else {}
            except Exception:
                header = None            # let the full parse below find and report the damage
    if header is None:
        try:
            header = yamlio.fast_load(text)
        except Exception as exc:  # any YAML problem in our own header means damage
            mark = getattr(exc, "problem_mark", None)
            raise damaged(path, "the header is not valid YAML", mark.line + 1 if mark else None) from None
    if not isinstance(header, dict) or header.get("hxref") != FORMAT:
        raise damaged(path, f"unknown game file format (expected `hxref: {FORMAT}`)")
    return _checked(header, path)


def _checked(header: dict, path: Path) -> dict:
    for key in ("meta", "participants", "awaiting", "pending", "head"):
        if not isinstance(header.get(key), (dict, list)):
            raise damaged(path, f"the header lacks `{key}`")
    return header


#: the signed time in the text of an order file (``at: '2026-11-29T12:00:00Z'``)
_FILE_AT = re.compile(r"^at: *['\"]?([^'\"\n#]+?)['\"]? *$", re.M)
#: a log line that may record a time: a signed file of a block, or the game's creation
_TIMED = (b'"kind":"submission"', b'"kind":"game.created"')
#: how much of the end of the log is read for the last activity, first and at most
_WINDOWS = (16 * 1024, 1024 * 1024)


def _last_event_time(fh, head_end: int, size: int) -> str | None:
    """The latest signed time of the last block of the log that records one (its files' ``at``),
    or the time the game was created; read from the end of the log."""
    for window in _WINDOWS:
        start = max(head_end, size - window)
        fh.seek(start)
        lines = fh.read(size - start).split(b"\n")
        if start > head_end:
            lines = lines[1:]            # the first line may be cut
        latest = None
        in_block = False
        for line in reversed(lines):
            if not line.startswith(b"- {"):
                continue
            timed = any(k in line for k in _TIMED)
            if in_block and b'"kind":"submission"' not in line:
                return latest            # the files of the last block with a time are all read
            if not timed:
                continue
            try:
                ev = json.loads(line[2:])
            except ValueError:
                continue                 # damage is the audit's business, not the dashboard's
            t = _event_time(ev)
            if ev.get("kind") == "game.created":
                return _later(latest, t)
            if t:
                latest = _later(latest, t)
                in_block = True
        if start == head_end or window == _WINDOWS[-1]:
            return latest                # (a block longer than the last window: the times of its end)
    return None


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
