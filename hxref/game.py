"""The saved game file: one file, the single source of truth (design section 3).

Layout: a YAML stream of two documents (the header is written as JSON, which YAML reads too).

1. The *header*: ``hxref`` (file format), ``meta``, ``participants``,
   ``state`` (the game system's state), ``awaiting`` (the open decisions and
   who has answered), ``pending`` (answers not yet resolved) and ``head`` (the
   last event's number and hash).  It is a snapshot: ``hxref audit`` checks
   that it equals the replay of the log.  JSON, because it is read by every
   command: ``json.loads`` reads it some 40 times faster than a YAML reader.
   A header written as YAML by an earlier hxref is still read.
2. The *log*: one event per line, written as ``- {canonical JSON}``.  Each
   event is ``{seq, kind, by, data, prev, hash}`` where ``prev`` is the hash of
   the event before and ``hash = sha256(canonical JSON of the event without
   hash)``, a hash chain.  Any YAML reader reads the whole file; hxref parses
   an event only when it is asked for, and writes the lines it read back as
   they were (:mod:`hxref.eventlog`), so a command's cost does not grow with
   the length of the game.

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
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Iterator, TypedDict

from .canon import canonical_json, sha256_hex
from .eventlog import EventLog
from .errors import HxrefError, InvalidInput, Locked, cannot_write, os_reason

FORMAT = 2
LOG_MARKER = "--- # log: one event per line (canonical JSON, hash-chained); never edit by hand"
LOG_SEPARATOR = ("\n" + LOG_MARKER + "\n").encode("utf-8")
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


class GameFile:
    """A game file in memory: the header snapshot and the event log (read lazily, written back as
    it was read: :class:`hxref.eventlog.EventLog`)."""

    def __init__(self, path: Path, header: dict, log: Iterable[Event] | None = None) -> None:
        self.path = path
        self.header = header
        self.log = log if log is not None else EventLog()

    @property
    def log(self) -> EventLog:
        return self._log

    @log.setter
    def log(self, events: Iterable[Event]) -> None:
        self._log = events if isinstance(events, EventLog) else EventLog(events)

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
            with open(p, "rb") as fh:
                # the header, then the log read straight into its own bytes (no copy of a long log)
                head_bytes, log_start = read_head(fh, p)
                fh.seek(log_start)
                log_bytes = fh.read()
        except FileNotFoundError:
            raise InvalidInput("no such game file", code="E100", file=str(p),
                               hint="create one with `hxref new`") from None
        except OSError as exc:
            raise InvalidInput(f"cannot read the game file: {os_reason(exc)}", code="E100",
                               file=str(p)) from None
        return cls._from_parts(head_bytes, log_bytes, p)

    @classmethod
    def parse(cls, text: str, path: Path) -> "GameFile":
        return cls.parse_bytes(text.encode("utf-8"), path)

    @classmethod
    def parse_bytes(cls, data: bytes, path: Path) -> "GameFile":
        head_bytes, sep, log_bytes = data.partition(LOG_SEPARATOR)
        if not sep:
            raise damaged(path, "this is not an hxref game file (no log section)")
        return cls._from_parts(head_bytes, log_bytes, path)

    @classmethod
    def _from_parts(cls, head_bytes: bytes, log_bytes: bytes, path: Path) -> "GameFile":
        try:
            head_text = head_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"cannot read the game file: {exc}", code="E100", file=str(path)) from None
        header = parse_header(head_text, path)
        first_line = head_text.count("\n") + 3

        def damage(message: str, line: int | None) -> HxrefError:
            return damaged(path, message, line)

        return cls(path, header, EventLog.from_section(log_bytes, first_line=first_line, damaged=damage))

    # --- writing -------------------------------------------------------------------------
    def dump_bytes(self) -> bytes:
        """The file: two comment lines, the header as JSON (which any YAML reader reads too), the
        log marker, then the log (its stored lines as read, new events appended)."""
        return b"".join(self._dump_parts())

    def _dump_parts(self) -> list[bytes | memoryview]:
        head = _json_lines(self.header)
        top = "\n".join([
            "# hxref game file. The header is a snapshot of the game; the log below is the truth.",
            "# Check it with `hxref audit`. Never edit by hand: every event is hash-chained.",
            head,
            LOG_MARKER,
        ]) + "\n"
        return [top.encode("utf-8"), *self.log.dump_parts()]

    def dumps(self) -> str:
        return self.dump_bytes().decode("utf-8")

    def save(self) -> None:
        atomic_write(self.path, self._dump_parts(), backup=True)


def _json_lines(value: Any, depth: int = 2, indent: str = "") -> str:
    """JSON with the keys of the first ``depth`` levels one a line, the rest compact: readable, and
    written by the C encoder (``json.dumps`` with ``indent`` takes the slow pure-Python one)."""
    if not isinstance(value, dict) or not value or depth == 0:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))
    inner = indent + " "
    return "{\n" + ",\n".join(f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_json_lines(v, depth - 1, inner)}"
                               for k, v in value.items()) + "\n" + indent + "}"


def read_head(fh: BinaryIO, path: Path) -> tuple[bytes, int]:
    """The bytes of a game file before its log marker, and the offset where its log starts; the
    log itself is not read."""
    buf = b""
    while True:
        chunk = fh.read(65536)
        if not chunk:
            raise damaged(path, "this is not an hxref game file (no log section)")
        scan = max(0, len(buf) - len(LOG_SEPARATOR))
        buf += chunk
        i = buf.find(LOG_SEPARATOR, scan)
        if i >= 0:
            return buf[:i], i + len(LOG_SEPARATOR)


def header_body(head_text: str) -> str:
    """The header's text below the comment lines above it: JSON when it starts with ``{``."""
    body = head_text.lstrip("\ufeff").lstrip()
    while body.startswith("#"):
        body = body.partition("\n")[2].lstrip()
    return body


def parse_header(head_text: str, path: Path) -> dict:
    """The header of a game file: JSON (as hxref writes it) or YAML (as earlier versions did).
    Damage, and files of another format, are refused with one line."""
    from . import yamlio

    body = header_body(head_text)
    try:
        if body.startswith("{"):
            header = json.loads(body)
        else:
            header = yamlio.fast_load(head_text)
    except RecursionError:
        raise damaged(path, "the header is nested too deeply") from None
    except ValueError as exc:
        line = head_text[:len(head_text) - len(body)].count("\n") + getattr(exc, "lineno", 0) or None
        raise damaged(path, "the header is not valid JSON", line) from None
    except Exception as exc:  # any YAML problem in our own header means damage
        mark = getattr(exc, "problem_mark", None)
        raise damaged(path, "the header is not valid YAML", mark.line + 1 if mark else None) from None
    if isinstance(header, dict) and header.get("hxref") == 1:
        raise InvalidInput("this game file was made by hxref 0.1, whose protocol this hxref no longer "
                           "trusts; replay its order files into a new game, or use hxref 0.1",
                           code="E505", file=str(path))
    if not isinstance(header, dict) or header.get("hxref") != FORMAT:
        raise damaged(path, f"unknown game file format (expected `hxref: {FORMAT}`)")
    return header


def atomic_write(path: Path, data: bytes | list[bytes | memoryview], *, backup: bool = False,
                 private: bool = False) -> None:
    """Write ``data`` (bytes, or pieces written one after another) to ``path`` so that a crash
    leaves the old or the new file, never a mix.

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
            fh.writelines([data] if isinstance(data, bytes) else data)
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
