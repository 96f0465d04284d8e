"""The saved game file: one file, the single source of truth (design section 3).

Layout: a YAML stream of two documents.

1. The *header*: ``hxref`` (file format), ``meta``, ``participants``,
   ``state`` (the game system's state), ``awaiting`` (the open decisions and
   who has answered), ``pending`` (answers not yet resolved) and ``head`` (the
   last event's number and hash).  It is a snapshot: ``hxref audit`` checks
   that it equals the replay of the log.
2. The *log*: one event per line, written as ``- {canonical JSON}``.  Each
   event is ``{seq, kind, by, data, prev, hash}`` where ``prev`` is the hash of
   the event before and ``hash = sha256(canonical JSON of the event without
   hash)``, a hash chain.  Any YAML reader reads the whole file; hxref reads the
   log line by line as JSON, so a long game loads in milliseconds.

Writes are atomic (temporary file, fsync, rename, fsync of the folder) and
keep the previous version as ``GAME.bak``; :func:`locked` stops two hxref
processes writing the same game at once.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import stat
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, TypedDict, cast

from .canon import canonical_json, sha256_hex
from .errors import HxrefError, InvalidInput, Locked, cannot_write, os_reason

FORMAT = 2
LOG_MARKER = "--- # log: one event per line (canonical JSON, hash-chained); never edit by hand"
GENESIS = "0" * 64


class Event(TypedDict):
    """One event of the log, as saved: its number, kind, author (None for the rules), data, the
    hash of the event before it and its own hash."""

    seq: int
    kind: str
    by: str | None
    data: dict[str, Any]
    prev: str
    hash: str


def event_hash(event: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of an event without its ``hash`` field."""
    body = {k: v for k, v in event.items() if k != "hash"}
    return sha256_hex(canonical_json(body))


def damaged(path: Path | str, message: str, line: int | None = None) -> HxrefError:
    return InvalidInput(
        message,
        code="E500",
        file=str(path),
        line=line,
        hint="restore GAME.bak or a copy you trust, then run `hxref audit`",
    )


@dataclass
class GameFile:
    """A game file in memory: the header snapshot and the event log."""

    path: Path
    header: dict
    log: list[Event] = field(default_factory=list)

    # --- the log -------------------------------------------------------------------------
    @property
    def head(self) -> str:
        # a damaged last event may lack its hash: `hxref audit` says so, rather than fail here
        return str(self.log[-1].get("hash", "")) if self.log else GENESIS

    def append(self, kind: str, by: str | None, data: dict, known_hash: str | None = None) -> Event:
        """Add an event at the end of the hash chain and return it.

        ``known_hash`` is for the audit's replay of an input event whose stored
        copy was already checked to hash to exactly this (same seq, prev and data).
        """
        event: Event = {"seq": len(self.log) + 1, "kind": kind, "by": by, "data": data, "prev": self.head,
                        "hash": ""}
        event["hash"] = known_hash or event_hash(event)
        self.log.append(event)
        self.header["head"] = {"seq": event["seq"], "hash": event["hash"]}
        return event

    # --- reading -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "GameFile":
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InvalidInput("no such game file", code="E100", file=str(p),
                               hint="create one with `hxref new`") from None
        except OSError as exc:
            raise InvalidInput(f"cannot read the game file: {os_reason(exc)}", code="E100",
                               file=str(p)) from None
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"cannot read the game file: {exc}", code="E100", file=str(p)) from None
        return cls.parse(text, p)

    @classmethod
    def parse(cls, text: str, path: Path) -> "GameFile":
        from . import yamlio

        head_text, sep, log_text = text.partition("\n" + LOG_MARKER + "\n")
        if not sep:
            raise damaged(path, "this is not an hxref game file (no log section)")
        try:
            header = yamlio.fast_load(head_text)
        except Exception as exc:  # any YAML problem in our own header means damage
            mark = getattr(exc, "problem_mark", None)
            raise damaged(path, "the header is not valid YAML", mark.line + 1 if mark else None) from None
        if isinstance(header, dict) and header.get("hxref") == 1:
            raise InvalidInput("this game file was made by hxref 0.1, whose protocol this hxref no longer "
                               "trusts; replay its order files into a new game, or use hxref 0.1",
                               code="E505", file=str(path))
        if not isinstance(header, dict) or header.get("hxref") != FORMAT:
            raise damaged(path, f"unknown game file format (expected `hxref: {FORMAT}`)")
        first_line = head_text.count("\n") + 3
        log: list[Event] = []
        for offset, line in enumerate(log_text.splitlines()):
            if not line.strip():
                continue
            if not line.startswith("- {"):
                raise damaged(path, "a log line does not hold an event", first_line + offset)
            try:
                event = json.loads(line[2:])
            except ValueError:
                raise damaged(path, "a log line is not valid JSON", first_line + offset) from None
            except RecursionError:      # a crafted line nested thousands deep
                raise damaged(path, "a log line is nested too deeply", first_line + offset) from None
            if not isinstance(event, dict):
                raise damaged(path, "a log line does not hold an event", first_line + offset)
            log.append(cast(Event, event))      # its fields: checked by `hxref audit` (hxref.audit)
        return cls(path=path, header=header, log=log)

    # --- writing -------------------------------------------------------------------------
    def dumps(self) -> str:
        from . import yamlio

        head = yamlio.dump_fast(self.header)
        lines = [
            "# hxref game file. The header is a snapshot of the game; the log below is the truth.",
            "# Check it with `hxref audit`. Never edit by hand: every event is hash-chained.",
            head.rstrip("\n"),
            LOG_MARKER,
        ]
        lines.extend("- " + canonical_json(ev).decode("utf-8") for ev in self.log)
        return "\n".join(lines) + "\n"

    def save(self) -> None:
        atomic_write(self.path, self.dumps().encode("utf-8"), backup=True)


def atomic_write(path: Path, data: bytes, *, backup: bool = False, private: bool = False) -> None:
    """Write ``data`` to ``path`` so that a crash leaves the old or the new file, never a mix.

    With ``backup`` the previous version is kept as ``path.bak`` (itself
    replaced atomically).  A symlinked ``path`` stays a link and its target
    gets the new data.  The temporary file is made by ``mkstemp`` in the same
    folder (a random name, ``O_EXCL``, mode 0600), so a symlink planted in a
    shared folder is never followed.  The file keeps the mode of the one it
    replaces (0644, less the umask, for a new one); a ``private`` one stays
    0600 from its first byte.  An OSError (disk full, no permission) becomes
    one line, E510, naming the file.
    """
    shown = path
    path = Path(os.path.realpath(path))
    folder = path.parent
    made: list[str] = []        # temporary names still to remove if we stop half-way
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        made.append(tmp)
        with os.fdopen(fd, "wb") as fh:
            if not private:
                os.fchmod(fh.fileno(), _public_mode(path))
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if backup and path.exists():
            # a random name again; os.link never follows or overwrites what is there
            bak_tmp = str(folder / f".{path.name}.{secrets.token_hex(8)}.bak.tmp")
            os.link(path, bak_tmp)
            made.append(bak_tmp)
            os.replace(bak_tmp, folder / (path.name + ".bak"))
            made.remove(bak_tmp)
        os.replace(tmp, path)
        made.remove(tmp)
    except OSError as exc:
        raise cannot_write(shown, exc) from None
    finally:
        for name in made:
            with contextlib.suppress(OSError):
                os.unlink(name)
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError as exc:
        raise cannot_write(shown, exc, "the new file is in place but may not survive a power cut",
                           what="make the save durable") from None


def _public_mode(path: Path) -> int:
    """The mode for a file that is not private: that of the file it replaces, else 0644 less the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o644 & ~umask


@contextlib.contextmanager
def locked(path: str | Path, wait: float = 3.0) -> Iterator[None]:
    """Hold the game's lock (``GAME.lock``, an advisory flock) for the block.

    The kernel drops the lock when the process dies, so a crash never leaves a
    stale lock.  After ``wait`` seconds the call gives up with :class:`Locked`.
    """
    # one lock per real file: a symlinked game path and its target are one game
    lock_path = Path(os.path.realpath(path) + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise cannot_write(lock_path, exc, "nothing was changed", what="lock the game") from None
    deadline = time.monotonic() + wait
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() >= deadline:
                    raise Locked("game is locked by another hxref process, try again",
                                 file=str(path)) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)


def new_header(meta: dict, participants: dict) -> dict[str, Any]:
    return {
        "hxref": FORMAT,
        "meta": meta,
        "participants": participants,
        "state": {},
        "awaiting": [],
        "pending": {},
        "head": {"seq": 0, "hash": GENESIS},
    }
