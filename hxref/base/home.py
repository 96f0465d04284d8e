"""The records hxref keeps for this user under ``$HXREF_HOME`` (default ``~/.local/state/hxref``).

Every store is one folder of small JSON records, each written atomically in a folder only this
user may write, and read only when this user wrote it (:func:`read_record`):

- ``heads/``: the last head of every game file seen here, so a rollback is refused
  (:mod:`hxref.gamefile.heads`);
- ``keys/``: what each of this user's keys has signed for, so a key never signs two different
  things for one decision (:mod:`hxref.referee.key_record`);
- ``history/``: the lines typed at ``hxref play``'s prompt (:mod:`hxref.cli.solo`);
- ``fog/``: what a copy of a game with hidden armies knew at the file last written or proved,
  so a command need not replay the log to know it again (:mod:`hxref.referee.fog_memo`);
- ``inbox/``: the mails ``hxref inbox`` has already read (:mod:`hxref.mail.inbox`);
- ``scenarios/``, ``tallies/`` and ``yaml/``: answers remembered between commands, each keyed by
  everything it depends on (the published-data comparison, :mod:`hxref.referee.scenario_memo`; a
  report's dice and claim tallies, :mod:`hxref.report.tallies`; a map's parsed YAML,
  :func:`hxref.base.yamlio.remembered_yaml`), so a stale one is never read.  Removing them
  loses nothing but time.
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any


def home() -> Path:
    return Path(os.environ.get("HXREF_HOME") or Path.home() / ".local" / "state" / "hxref")


#: the largest record read (a head or a checked file is a few hundred bytes, a report's tallies a
#: few kilobytes; more is not one of ours)
RECORD_LIMIT = 1 << 20


def private(st: os.stat_result) -> bool:
    """Owned by this user, and neither group nor world writable."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_record(path: Path, limit: int = RECORD_LIMIT) -> Any:
    """This user's record at ``path`` (JSON), or None: a record another account wrote, or could
    have (a file or folder it may write, a link, not a regular file), is no record; nor is one
    that is not JSON, longer than ``limit`` bytes or nested too deeply."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            st = os.fstat(fd)
            if not (stat.S_ISREG(st.st_mode) and private(st) and private(os.stat(path.parent))):
                return None
            return json.loads(os.read(fd, limit)) if st.st_size <= limit else None
        finally:
            os.close(fd)
    except (OSError, ValueError, RecursionError):
        return None


def write_record(path: Path, data: Any) -> None:
    """Write this user's record at ``path`` atomically, in a folder only this user may write
    (best effort: a machine where it cannot be written still plays, it only keeps no record)."""
    with contextlib.suppress(OSError, TypeError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder = os.stat(path.parent)
        if folder.st_uid == os.getuid() and not private(folder):   # made by an earlier hxref under umask 002
            os.chmod(path.parent, 0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(data, sort_keys=True))   # dumps: the C encoder; dump is pure Python
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
