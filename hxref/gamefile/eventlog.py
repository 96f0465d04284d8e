"""The game file's log: its lines as read, an event parsed from its line when first asked for, and
written back as read.

A game file's log only grows: every command adds a few events at its end and changes none.  So the
log keeps the section read from the file (one ``- {canonical JSON}`` line per event), parses an
event (``json.loads`` of its line) the first time it is asked for (the section is cut into lines
when a middle event is first read: the first and the last are found without), and a save writes
the section read back byte for byte and serialises only the events added since.  Whether the lines are what the game's hash chain and its
replay say is not this module's business: every command reads a game through
:meth:`hxref.referee.engine.Engine.load`, which takes a file only when it is byte for byte one that this
machine wrote or proved, or proves it (:func:`hxref.referee.audit.prove`: every line is its event's
canonical JSON, the chain holds, the replay gives the header).

An event handed out may be changed in memory (a test's attacker does exactly that), so each parsed
event is compared with its line when the log is written, and written anew if it differs; a log
changed other than at its end (``insert``, ``del``, item assignment) is parsed whole and written
anew.  A line
that is not an event is damage: E500 with the line's number.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from typing import Any, overload

from ..base.canon import canonical_json

#: every stored line of the log: ``- `` then the event's canonical JSON
LINE_START = b"- {"


class EventLog(MutableSequence):
    """The events of a game (``Event`` dicts): the stored lines, parsed when first read, then the
    events appended since."""

    def __init__(self, events: Iterable[Any] = (), *, lines: Sequence[bytes] = (), first_line: int = 1,
                 numbers: Sequence[int] | None = None, raw: bytes | None = None,
                 damaged: Callable[[str, int | None], Exception] | None = None) -> None:
        # the stored lines, each "- {json}" (no newline): given, or ``raw``, the section read, when it
        # is exactly one event's line after another (cut into lines when a middle one is first read)
        self._raw = raw
        self._lines: list[bytes] | None = None if raw is not None else list(lines)
        self._stored = raw.count(b"\n") if raw is not None else len(lines)
        self._first_line = first_line                    # the file's line number of the first
        self._numbers = list(numbers) if numbers is not None else None   # of each, when not in a row
        self._damaged = damaged or (lambda message, line: ValueError(f"{message} (line {line})"))
        self._items: list[Any] = [None] * self._stored  # None: not parsed yet
        self._items.extend(events)

    @classmethod
    def from_section(cls, raw: bytes, *, first_line: int,
                     damaged: Callable[[str, int | None], Exception]) -> "EventLog":
        """The log section of a game file (the bytes after the log marker): one event a line; blank
        lines are skipped (and not written back); a line that is not an event is damage."""
        n = raw.count(b"\n")
        if n and raw.startswith(LINE_START) and raw.endswith(b"\n") and raw.count(b"\n" + LINE_START) == n - 1:
            return cls(raw=raw, first_line=first_line, damaged=damaged)   # every line an event's: kept as read
        kept, numbers = [], []
        for offset, line in enumerate(raw.split(b"\n")):
            if not line.strip():
                continue
            if not line.startswith(LINE_START):
                raise damaged("a log line does not hold an event", first_line + offset)
            kept.append(line)
            numbers.append(first_line + offset)
        return cls(lines=kept, first_line=first_line, numbers=numbers, damaged=damaged)

    @property
    def stored(self) -> int:
        """How many events are stored lines (the rest were appended since the file was read)."""
        return self._stored

    def line(self, i: int) -> bytes:
        """The stored line of event ``i``, as read (without its newline): the first and the last
        are found without cutting the section into lines."""
        if self._lines is None:
            raw = self._raw
            assert raw is not None
            if i == 0:
                return raw[:raw.index(b"\n")]
            if i == self._stored - 1:
                return raw[raw.rindex(b"\n", 0, len(raw) - 1) + 1:-1]
            self._lines = raw[:-1].split(b"\n")
        return self._lines[i]

    def _get(self, i: int) -> Any:
        item = self._items[i]
        if item is None:
            number = self._numbers[i] if self._numbers is not None else self._first_line + i
            item = self._items[i] = _parse(self.line(i), number, self._damaged)
        return item

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self._items)))]
        n = len(self._items)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("event index out of range")
        return self._get(i)

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self._items)):
            yield self._get(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]     # mutable, like a list

    def __add__(self, other: Iterable[Any]) -> list:
        return [*self, *other]

    def __radd__(self, other: Iterable[Any]) -> list:
        return [*other, *self]

    def copy(self) -> list:
        return list(self)

    def __repr__(self) -> str:
        return f"EventLog({len(self)} events, {self._stored} stored)"

    def append(self, value: Any) -> None:
        self._items.append(value)

    def _rewrite(self) -> None:
        """A change other than at the end (``insert``, ``del``, item assignment): every event is
        parsed, and all are written anew."""
        self._items, self._lines, self._stored, self._numbers, self._raw = list(self), [], 0, None, None

    def __setitem__(self, index: Any, value: Any) -> None:
        self._rewrite()
        self._items[index] = value

    def __delitem__(self, index: Any) -> None:
        self._rewrite()
        del self._items[index]

    def insert(self, index: int, value: Any) -> None:
        if index >= len(self._items):
            self._items.append(value)
            return
        self._rewrite()
        self._items.insert(index, value)

    def dump(self) -> list[bytes]:
        """The log section, in pieces: each stored line as it was read, unless its event was parsed
        and differs from it now, then each later event's canonical JSON; one line each."""
        n = self._stored
        changed = {i for i, item in enumerate(self._items[:n])
                   if item is not None and canonical_json(item) != self.line(i)[2:]}
        new = b"".join(b"- " + canonical_json(ev) + b"\n" for ev in self._items[n:])
        if not changed and self._raw is not None:
            return [self._raw, new]
        out = [b"- " + canonical_json(self._items[i]) if i in changed else self.line(i) for i in range(n)]
        return [b"\n".join(out) + b"\n" if out else b"", new]


def _parse(line: bytes, number: int | None, damaged: Callable[[str, int | None], Exception]) -> Any:
    try:
        event = json.loads(line[2:])
    except ValueError:
        raise damaged("a log line is not valid JSON", number) from None
    except RecursionError:      # a crafted line nested thousands deep
        raise damaged("a log line is nested too deeply", number) from None
    if not isinstance(event, dict):
        raise damaged("a log line does not hold an event", number)
    return event
