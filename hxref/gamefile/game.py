"""The saved game file: one file, the single source of truth (design section 3).

Layout: a YAML stream of two documents (the header is written as JSON, which YAML reads too).

1. The *header*: ``hxref`` (file format), ``meta``, ``participants``,
   ``state`` (the game system's state), ``awaiting`` (the open decisions and
   who has answered), ``pending`` (answers not yet resolved) and ``head`` (the
   last event's number and hash).  It is a snapshot of what the log gives, outside
   the hash chain: a command starts from it only when the file is byte for byte
   one this machine wrote or proved; any other file is proved first by the
   audit's replay, which must give this very header (:meth:`hxref.referee.engine.Engine.load`).
   JSON, because ``json.loads`` reads it some 40 times faster than a YAML reader.
   A header written as YAML by an earlier hxref is still read.
2. The *log*: one event per line, written as ``- {canonical JSON}``.  Each
   event is ``{seq, kind, by, data, prev, hash}`` where ``prev`` is the hash of
   the event before and ``hash = sha256(canonical JSON of the event without
   hash)``, a hash chain (:func:`chain_problems` checks it).  Any YAML reader reads
   the whole file; hxref reads it whole, keeps each line as read, parses an event
   when it is first asked for, and writes the lines back as they were
   (:mod:`hxref.gamefile.eventlog`).

Writes are atomic (temporary file, fsync, rename, fsync of the folder) and
keep the previous version as ``GAME.bak``; :func:`locked` stops two hxref
processes writing the same game at once.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Iterator, TypedDict

from ..base.canon import canonical_json, sha256_hex
from ..base.errors import HxrefError, InvalidInput, Locked, cannot_write, os_reason
from ..base.files import atomic_write, read_regular
from .eventlog import EventLog
from .header import FORMAT, damaged, json_lines, parse_header  # noqa: F401

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


class GameFile:
    """A game file in memory: the header snapshot and the event log (its lines as read, each event
    parsed when first read: :class:`hxref.gamefile.eventlog.EventLog`)."""

    def __init__(self, path: Path, header: dict, log: Iterable[Event] | None = None) -> None:
        self.path = path
        self.header = header
        self.log = log if log is not None else EventLog()
        #: the bytes before the log (comment lines, header, log marker) as read, and the sha256 of
        #: the whole file as read or last written (what :mod:`hxref.gamefile.heads` keeps of a proved file)
        self.top = b""
        self.digest = ""

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
        # the data as every copy reads it back from the file (its canonical JSON: keys in order, tuples as
        # lists), not the caller's objects: what this process tells of the event (a report, the demo's
        # story) is then what a copy that loads the file tells, and no later change to the caller's
        # objects reaches the log
        data = json.loads(canonical_json(data))
        event: Event = {"seq": len(self.log) + 1, "kind": kind, "by": by, "data": data, "prev": self.head,
                        "hash": ""}
        event["hash"] = known_hash or event_hash(event)
        self.log.append(event)
        self.header["head"] = {"seq": event["seq"], "hash": event["hash"]}
        return event

    # --- reading -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "GameFile":
        """The game file at ``path``, read whole: its header parsed, its log kept as its lines.
        Whether it checks out is :func:`chain_problems` and the audit's replay
        (:meth:`hxref.referee.engine.Engine.load` runs them on every file this machine did not write or
        prove)."""
        p = Path(path)
        try:
            data = read_regular(p)
        except FileNotFoundError:
            raise InvalidInput("no such game file", code="E100", file=str(p),
                               hint="create one with `hxref new`") from None
        except OSError as exc:
            raise InvalidInput(f"cannot read the game file: {os_reason(exc)}", code="E100",
                               file=str(p)) from None
        return cls.parse_bytes(data, p)

    @classmethod
    def parse(cls, text: str, path: Path) -> "GameFile":
        return cls.parse_bytes(text.encode("utf-8"), path)

    @classmethod
    def parse_bytes(cls, data: bytes, path: Path) -> "GameFile":
        head_bytes, sep, log_bytes = data.partition(LOG_SEPARATOR)
        if not sep:
            raise damaged(path, "this is not an hxref game file (no log section)")
        try:
            head_text = head_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"cannot read the game file: {exc}", code="E100", file=str(path)) from None
        header = parse_header(head_text, path)

        def damage(message: str, line: int | None) -> HxrefError:
            return damaged(path, message, line)

        log = EventLog.from_section(log_bytes, first_line=head_text.count("\n") + 3, damaged=damage)
        gf = cls(path, header, log)
        gf.top = head_bytes + LOG_SEPARATOR
        gf.digest = sha256_hex(data)
        return gf

    # --- writing -------------------------------------------------------------------------
    def top_bytes(self) -> bytes:
        """What a save writes before the log: two comment lines, the header as JSON (which any
        YAML reader reads too) and the log marker."""
        return "\n".join([
            "# hxref game file. The header is a snapshot of the game; the log below is the truth.",
            "# Check it with `hxref audit`. Never edit by hand: every event is hash-chained.",
            json_lines(self.header),
            LOG_MARKER,
        ]).encode("utf-8") + b"\n"

    def dump_bytes(self) -> bytes:
        """The file: :meth:`top_bytes`, then the log (its stored lines as read, new events appended)."""
        return b"".join(self._parts())

    def _parts(self) -> list[bytes]:
        return [self.top_bytes(), *self.log.dump()]

    def dumps(self) -> str:
        return self.dump_bytes().decode("utf-8")

    def save(self) -> None:
        parts = self._parts()           # written one after another: a long log is not copied again
        atomic_write(self.path, parts, backup=True)
        digest = hashlib.sha256()
        for part in parts:
            digest.update(part)
        self.top, self.digest = parts[0], digest.hexdigest()


def chain_problems(gf: GameFile) -> list[str]:
    """What is wrong with a game file's hash chain (nothing: an empty list): every event well formed
    and in sequence, each ``prev`` the hash before, each ``hash`` right, each line its event's
    canonical JSON (the one byte form two copies of a game hold), the header's head the last hash,
    and ``game.created`` first.  The first problem only, naming its event."""
    prev = GENESIS
    log = gf.log
    for i, ev in enumerate(log, 1):
        if set(ev) != {"seq", "kind", "by", "data", "prev", "hash"} or ev.get("seq") != i:
            return [f"event {i}: not a well-formed event or out of sequence"]
        if ev["prev"] != prev:
            return [f"event {i}: does not follow event {i - 1} (events removed, added or reordered)"]
        if event_hash(ev) != ev["hash"]:
            return [f"event {i}: its content does not match its hash (edited)"]
        if i <= log.stored and canonical_json(ev) != log.line(i - 1)[2:]:
            return [f"event {i}: its line is not the event's canonical JSON (written by hand)"]
        prev = ev["hash"]
    head = gf.header.get("head")
    if not isinstance(head, dict) or head.get("hash") != gf.head:
        return ["the header's head hash is not the last event's hash"]
    if not log or log[0]["kind"] != "game.created":
        return ["the log does not start with game.created"]
    return []


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
