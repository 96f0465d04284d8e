"""The saved game file: one file, the single source of truth (design section 3).

Layout: a YAML stream of two documents (the header is written as JSON, which YAML reads too).

1. The *header*: ``hxref`` (file format), ``meta``, ``participants``,
   ``state`` (the game system's state), ``awaiting`` (the open decisions and
   who has answered), ``pending`` (answers not yet resolved) and ``head`` (the
   last event's number and hash).  It is a snapshot: ``hxref audit`` checks
   that it equals the replay of the log.  JSON, because it is read by every
   command: ``json.loads`` reads it some 40 times faster than a YAML reader.
   A header written as YAML by an earlier hxref is still read.  Its lists that
   only grow are written again from their text as read (:mod:`hxref.header`).
2. The *log*: one event per line, written as ``- {canonical JSON}``.  Each
   event is ``{seq, kind, by, data, prev, hash}`` where ``prev`` is the hash of
   the event before and ``hash = sha256(canonical JSON of the event without
   hash)``, a hash chain.  Any YAML reader reads the whole file; hxref parses
   an event only when it is asked for, and writes the lines it read back as
   they were (:mod:`hxref.eventlog`), so a command's cost does not grow with
   the length of the game; a file this machine checked and nobody wrote since
   has its log left on the disk until asked for (:mod:`hxref.seen`).

Writes are atomic (temporary file, fsync, rename, fsync of the folder) and
keep the previous version as ``GAME.bak``; :func:`locked` stops two hxref
processes writing the same game at once.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
import time
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Iterator, TypedDict

from . import seen
from .canon import canonical_json, random_hex, sha256_hex
from .errors import HxrefError, InvalidInput, Locked, cannot_write, os_reason
from .eventlog import EventLog
from .header import FORMAT, damaged, grown, header_body, json_lines, kept_lines, parse_header  # noqa: F401
from .header import dumps as _dumps
from .stored import StoredLines

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


def changed_under(path: Path | str) -> HxrefError:
    """The game file was written in place while a command read it: not hxref's way of writing (it
    renames a new file into place), so another program or account, or a damaged disk."""
    return InvalidInput("the game file changed while hxref was reading it; nothing was saved", code="E500",
                        file=str(path), hint="run the command again; if this comes back, find what writes "
                                             "the file and run `hxref audit` on a copy you trust")


class GameFile:
    """A game file in memory: the header snapshot and the event log (read lazily, written back as
    it was read: :class:`hxref.eventlog.EventLog`)."""

    def __init__(self, path: Path, header: dict, log: Iterable[Event] | None = None) -> None:
        self.path = path
        self.header = header
        self.log = log if log is not None else EventLog()
        self.stat: os.stat_result | None = None     # the file as read or last written, and
        self.log_at = 0                             # where its log starts (for :mod:`hxref.seen`)
        #: the header's lists that only grow (paths from the top), each written again from its
        #: text as read with only its new items serialised (:mod:`hxref.header`); set by the engine
        self.append_only: frozenset[tuple[str, ...]] = frozenset()
        self._kept: dict[tuple[str, ...], tuple[str, tuple]] = {}

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
    def load(cls, path: str | Path, *, trust_seen: bool = False) -> "GameFile":
        """The game file at ``path``.  With ``trust_seen``, a file this machine checked and nobody
        has written since (:mod:`hxref.seen`) has only its header read here, its log when asked
        for; else the whole file is read."""
        p = Path(path)
        try:
            with open(p, "rb") as fh:
                st = os.fstat(fh.fileno())
                # the header, then the log read straight into its own bytes (no copy of a long log)
                head_bytes, log_start = read_head(fh, p)
                record = seen.checked(p, st) if trust_seen else None
                if record is not None and record["log_at"] == log_start:
                    gf = cls._from_parts(head_bytes, None, p, seen_here=record, fd=fh.fileno(), st=st)
                    if gf is not None:
                        gf.stat, gf.log_at = st, log_start
                        return gf
                fh.seek(log_start)
                log_bytes = fh.read()
                if len(log_bytes) != st.st_size - log_start:    # written to as we read
                    raise changed_under(p)
                # copied from the file when saved, unless another account may write it meanwhile
                stored = cls._stored(p, fh.fileno(), log_start, len(log_bytes), st) if seen.own(st) else None
        except FileNotFoundError:
            raise InvalidInput("no such game file", code="E100", file=str(p),
                               hint="create one with `hxref new`") from None
        except OSError as exc:
            raise InvalidInput(f"cannot read the game file: {os_reason(exc)}", code="E100",
                               file=str(p)) from None
        gf = cls._from_parts(head_bytes, log_bytes, p, stored=stored)
        assert gf is not None
        gf.stat, gf.log_at = st, log_start
        return gf

    @staticmethod
    def _stored(path: Path, fd: int, offset: int, length: int, st: os.stat_result) -> StoredLines:
        """The log section in the file open at ``fd`` (whose stat was ``st`` when it was checked),
        through a descriptor of its own."""
        own = os.dup(fd)
        stored = StoredLines(own, offset, length,
                             lambda: changed_under(path),
                             (st.st_size, st.st_mtime_ns))
        weakref.finalize(stored, os.close, own)
        return stored

    @classmethod
    def parse(cls, text: str, path: Path) -> "GameFile":
        return cls.parse_bytes(text.encode("utf-8"), path)

    @classmethod
    def parse_bytes(cls, data: bytes, path: Path) -> "GameFile":
        head_bytes, sep, log_bytes = data.partition(LOG_SEPARATOR)
        if not sep:
            raise damaged(path, "this is not an hxref game file (no log section)")
        gf = cls._from_parts(head_bytes, log_bytes, path)
        assert gf is not None
        return gf

    @classmethod
    def _from_parts(cls, head_bytes: bytes, log_bytes: bytes | None, path: Path, *,
                    seen_here: dict | None = None, fd: int = -1, st: os.stat_result | None = None,
                    stored: StoredLines | None = None) -> "GameFile | None":
        """The game from its header's bytes and its log's (or, with ``seen_here``, the record of
        the checked file open at ``fd``, whose log is left on the disk: None if the header's head
        is not the recorded one)."""
        try:
            head_text = head_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"cannot read the game file: {exc}", code="E100", file=str(path)) from None
        header = parse_header(head_text, path)
        first_line = head_text.count("\n") + 3
        kept = kept_lines(header_body(head_text), header)

        def damage(message: str, line: int | None) -> HxrefError:
            return damaged(path, message, line)

        if log_bytes is not None:
            gf = cls(path, header, EventLog.from_section(log_bytes, first_line=first_line, damaged=damage,
                                                         stored=stored))
        else:
            assert seen_here is not None and st is not None
            at, n, size = seen_here["log_at"], seen_here["events"], st.st_size
            if header.get("head") != {"seq": seen_here["seq"], "hash": seen_here["hash"]} \
                    or seen_here["seq"] != n or not n or size <= at:
                return None
            gf = cls(path, header, EventLog.on_disk(cls._stored(path, fd, at, size - at, st), lines=n,
                                                    first_line=first_line, damaged=damage))
        gf._kept = kept
        return gf

    # --- writing -------------------------------------------------------------------------
    def dump_bytes(self) -> bytes:
        """The file: two comment lines, the header as JSON (which any YAML reader reads too), the
        log marker, then the log (its stored lines as read, new events appended)."""
        return b"".join(p.read() if isinstance(p, StoredLines) else p for p in self._dump_parts())

    def _dump_parts(self) -> list[bytes | memoryview | StoredLines]:
        written: dict[tuple[str, ...], tuple[str, tuple]] = {}

        def reuse(path: tuple[str, ...], value: Any) -> str | None:
            """An append-only list: its text as read, and only its new items serialised."""
            if path not in self.append_only or not isinstance(value, list):
                return None
            kept = self._kept.get(path)
            text = (grown(kept, value) if kept else None) or _dumps(value)
            written[path] = (text, tuple(value))
            return text

        head = json_lines(self.header, reuse=reuse)
        self._kept.update(written)
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
        parts = self._dump_parts()
        written = atomic_write(self.path, parts, backup=True)
        top = parts[0]
        assert isinstance(top, bytes)       # the comment lines, the header and the log marker
        self.log_at = len(top)
        try:
            st: os.stat_result | None = os.stat(self.path)
        except OSError:
            st = None
        # the file this save put in place, not one another process renamed there since
        self.stat = st if st is not None and (st.st_dev, st.st_ino) == written else None

    def remember_checked(self, *, as_read: bool = False) -> None:
        """Keep this file, as read (``as_read``) or last written, and checked, in :mod:`hxref.seen`:
        only a log in hxref's own form, which the next command may read line by line."""
        head = self.header.get("head")
        if self.stat is not None and self.log and isinstance(head, dict) and self.log.recordable(as_read):
            seen.remember(self.path, self.stat, self.log_at, len(self.log), len(self.log), self.head)


def read_head(fh: BinaryIO, path: Path) -> tuple[bytes, int]:
    """The bytes of a game file before its log marker, and the offset where its log starts; the
    log itself is not read."""
    buf, size = bytearray(), 1 << 16
    while True:
        chunk = fh.read(size)
        if not chunk:
            raise damaged(path, "this is not an hxref game file (no log section)")
        scan = max(0, len(buf) - len(LOG_SEPARATOR))
        buf += chunk
        i = buf.find(LOG_SEPARATOR, scan)
        if i >= 0:
            return bytes(memoryview(buf)[:i]), i + len(LOG_SEPARATOR)
        size = min(size * 2, 1 << 24)       # a long header: fewer, larger reads


def atomic_write(path: Path, data: bytes | list[bytes | memoryview | StoredLines], *, backup: bool = False,
                 private: bool = False) -> tuple[int, int]:
    """Write ``data`` (bytes, or pieces written one after another) to ``path`` so that a crash
    leaves the old or the new file, never a mix.

    With ``backup`` the previous version is kept as ``path.bak`` (itself
    replaced atomically).  A symlinked ``path`` stays a link and its target
    gets the new data.  The temporary file is made by ``mkstemp`` in the same
    folder (a random name, ``O_EXCL``, mode 0600), so a symlink planted in a
    shared folder is never followed.  The file keeps the mode of the one it
    replaces (0644, less the umask, for a new one); a ``private`` one stays
    0600 from its first byte.  An OSError (disk full, no permission) becomes
    one line, E510, naming the file.  Returns the device and inode of the file
    written (what a caller that stats ``path`` afterwards must find there).
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
            for part in [data] if isinstance(data, bytes) else data:
                if isinstance(part, StoredLines):   # copied from the file read, in the kernel
                    fh.flush()
                    part.write_to(fh.fileno())
                else:
                    fh.write(part)
            fh.flush()
            os.fsync(fh.fileno())
            written = os.fstat(fh.fileno())
        if backup and path.exists():
            # a random name again; os.link never follows or overwrites what is there
            bak_tmp = str(folder / f".{path.name}.{random_hex(8)}.bak.tmp")
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
    return written.st_dev, written.st_ino


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
