"""The game file's log, read only as far as it is asked for and written back as it was read.

A game file's log only grows: every command adds a few events at its end and changes none.  So
the log is kept as the bytes read from the file, and an event is parsed (``json.loads`` of its
line) the first time someone asks for it; ``hxref status`` asks for none, a submission for the
first (the pinned charts) and the last few.  Saving writes the lines read back byte for byte and
serialises only the events added since, so a command costs the same on the 20,000th event as on
the 100th (``bench/bench_scaling.py``).  A log of a file this machine checked and nobody wrote
since (:mod:`hxref.seen`) is not even read: its lines stay on the disk (:mod:`hxref.stored`) until
an event is asked for, and a save copies them into the new file.

Nothing is trusted for being old: an event handed out may have been changed in place (a test's
attacker does exactly that), so each event that was parsed is compared with its stored line when
the log is written, and written anew if it differs; a log changed other than at its end
(``insert``, ``del``, item assignment) is parsed whole and written anew.  A line that is not an
event is damage found at load; a line that is not valid JSON is found when its event is read, and
by ``hxref audit``, which also refuses a line that is not exactly its event's canonical JSON (what
reads lines by their bytes relies on it): E500 with the line's number.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, MutableSequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, overload

from .canon import canonical_json
from .stored import StoredLines

#: how many events at the end :meth:`EventLog.select` reads one by one, rather than searching the log
TAIL_READ = 2000
#: every stored line of the log: ``- `` then the event's canonical JSON
LINE_START = b"- {"
#: the end of a stored line: in canonical JSON (keys sorted) an event ends with its kind, the hash
#: of the event before it and its number.  ``"seq":N}`` before the newline is a member of the outermost object
#: (its closing brace is the line's last), so the two members before it are too: the kind read here
#: is the one ``json.loads`` reads, even of a line with a key twice (the last wins in both).  The
#: comma before it is outside any string (a quote after it is unescaped), so a key that merely ends
#: in an escaped quote and ``kind`` is not taken for it; a kind is plain ASCII, as hxref writes it.
_TAIL = re.compile(rb',"kind":"([a-z][a-z0-9._-]*)","prev":"[0-9a-f]{64}","seq":([0-9]+)\}\n')


class EventLog(MutableSequence):
    """The events of a game (``Event`` dicts), parsed lazily from the file's log section."""

    def __init__(self, events: Iterable[Any] = (), *, raw: bytes | None = None, first_line: int = 1,
                 damaged: Callable[[str, int | None], Exception] | None = None, lines: int | None = None,
                 stored: StoredLines | None = None, checked: bool = False) -> None:
        # the stored lines, each "- {json}\n"; or None, read from where they lie when first needed
        self._bytes: bytes | None = raw if raw is not None or stored is not None else b""
        self._on_disk = stored                           # the same bytes in the file they were read from
        self._first_line = first_line                    # the file's line number of the first
        self._damaged = damaged or (lambda message, line: ValueError(f"{message} (line {line})"))
        self._starts: list[int] | None = None            # where each stored line starts, when needed
        n = (raw or b"").count(b"\n") if lines is None else lines
        self._stored = n                                 # events 0..n-1 are the stored lines
        self._items: list[Any] = [None] * n              # None: not parsed yet
        self._items.extend(events)
        # a log read from a file this machine checked, unchanged since (:mod:`hxref.seen`): written
        # by hxref, so every line is canonical and holds only the kinds the load check allows
        self.checked = checked
        self._all_canonical: bool | None = True if checked else None
        self._seen: set[int] = set()                     # stored events parsed so far

    @classmethod
    def on_disk(cls, stored: StoredLines, *, lines: int, first_line: int,
                damaged: Callable[[str, int | None], Exception]) -> "EventLog":
        """The ``lines`` stored lines of a checked game file's log, read only as far as asked."""
        return cls(first_line=first_line, damaged=damaged, lines=lines, stored=stored, checked=True)

    @property
    def _raw(self) -> bytes:
        if self._bytes is None:
            assert self._on_disk is not None
            self._bytes = self._on_disk.read()
        return self._bytes

    @classmethod
    def from_section(cls, raw: bytes, *, first_line: int, damaged: Callable[[str, int | None], Exception],
                     stored: StoredLines | None = None) -> "EventLog":
        """The log section of a game file (the bytes after the log marker).  A section of well-formed
        lines is kept as it is; one with blank lines is read line by line, as before, and written
        back without them; a line that is not an event is damage."""
        if not raw:
            return cls(first_line=first_line, damaged=damaged)
        lines = raw.count(b"\n")
        if raw.startswith(LINE_START) and raw.endswith(b"\n") and lines == raw.count(b"\n" + LINE_START) + 1:
            return cls(raw=raw, first_line=first_line, damaged=damaged, lines=lines, stored=stored)
        events = []
        for offset, line in enumerate(raw.split(b"\n")):
            if not line.strip():
                continue
            events.append(_parse(line, first_line + offset, damaged))
        return cls(events, first_line=first_line, damaged=damaged)

    # --- reading ----------------------------------------------------------------------------------
    def _line(self, i: int) -> bytes:
        """The stored line of event ``i`` (without its newline)."""
        if self._bytes is None and self._on_disk is not None:
            # the first events (the pinned charts, the joins) and the last (the head): read
            # without the rest, unless they are too many
            line = self._on_disk.line(i, self._stored)
            if line is not None:
                return line
        raw = self._raw
        if i == 0:
            return raw[:raw.index(b"\n")]
        if i == self._stored - 1:
            return raw[raw.rindex(b"\n", 0, len(raw) - 1) + 1:-1]
        starts = self._line_starts()
        return raw[starts[i]:starts[i + 1] - 1]

    def _line_starts(self) -> list[int]:
        """Where each stored line starts, and the end of the last: found once, when first needed."""
        if self._starts is None:
            raw = self._raw
            starts, find, pos = [0], raw.find, raw.find(b"\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = find(b"\n", pos + 1)
            self._starts = starts
        return self._starts

    def _get(self, i: int) -> Any:
        item = self._items[i]
        if item is None:
            item = self._items[i] = _parse(self._line(i), self._first_line + i, self._damaged)
            self._seen.add(i)
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

    def __reversed__(self) -> Iterator[Any]:
        for i in range(len(self._items) - 1, -1, -1):
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

    def recordable(self, as_read: bool) -> bool:
        """Whether the section on the disk is what a record of :mod:`hxref.seen` promises the next
        command: one line per event, each ending as canonical JSON does.  As read, every event must
        be a stored line (a section with blank lines, or without its last newline, is read line by
        line); after a save the events added are canonical, so only the stored lines count."""
        return (not as_read or self._stored == len(self._items)) and self._canonical()

    def _canonical(self) -> bool:
        """Whether every stored line ends as canonical JSON does (each holds one :data:`_TAIL`):
        then a line's kind may be read from its end.  Found once."""
        if self._all_canonical is None:
            self._all_canonical = len(_TAIL.findall(self._raw)) == self._stored if self._stored else True
        return self._all_canonical

    def kind_counts(self) -> Counter:
        """How many events of each kind the log holds, read from the stored lines' ends without
        parsing them when every stored line ends as canonical JSON does, else from the events."""
        stored, items = self._stored, self._items
        found = _TAIL.findall(self._raw) if stored else []
        self._all_canonical = len(found) == stored
        if not self._all_canonical:     # a line not written by hxref: the exact reading, line by line
            return Counter(_key(ev.get("kind")) for ev in self)
        counts = Counter({kind.decode("ascii"): n for kind, n in Counter(map(itemgetter(0), found)).items()})
        for i in self._seen:            # parsed, and so perhaps changed in memory since
            counts[found[i][0].decode("ascii")] -= 1
            counts[_key(items[i].get("kind"))] += 1
        counts.update(_key(ev.get("kind")) for ev in items[stored:])
        return +counts

    def select(self, kinds: Iterable[str], needles: tuple[bytes, ...] = (), after: int = 0) -> list[Any]:
        """The events of ``kinds``, in order, parsing no other: with ``needles``, only those whose
        stored line holds one of them (a quick sieve: the caller still tests what it wants of each
        event, since a line not written by hxref is read whole and every event of the kinds kept).
        With ``after``, only the events after the first ``after``: a few at the end are read one
        by one, without the rest of the log."""
        wanted = set(kinds)
        if after >= len(self._items):
            return []
        if after and len(self._items) - after <= TAIL_READ:
            return [ev for ev in map(self._get, range(after, len(self._items))) if ev.get("kind") in wanted]
        if after:
            return [ev for i, ev in self._select(wanted, needles) if i >= after]
        return [ev for _, ev in self._select(wanted, needles)]

    def _select(self, wanted: set[str], needles: tuple[bytes, ...]) -> list[tuple[int, Any]]:
        """(index, event) of each event of the ``wanted`` kinds, as :meth:`select` finds them."""
        stored, raw, items = self._stored, self._raw, self._items
        if stored and not self._canonical():
            return [(i, ev) for i, ev in enumerate(self) if ev.get("kind") in wanted]
        picked: dict[int, Any] = {}
        if stored:
            starts = self._line_starts()
            for start, end in self._spans(wanted, needles):
                i = bisect_right(starts, start) - 1
                if items[i] is None:
                    items[i] = _parse(raw[start:end - 1], self._first_line + i, self._damaged)
                    self._seen.add(i)
                if items[i].get("kind") in wanted:       # what the event says, not only its line's end
                    picked[i] = items[i]
            for i in self._seen:        # parsed, and so perhaps changed in memory since
                if items[i].get("kind") in wanted:
                    picked[i] = items[i]
                else:
                    picked.pop(i, None)
        out = [(i, picked[i]) for i in sorted(picked)]
        out.extend((i, ev) for i, ev in enumerate(items[stored:], stored) if ev.get("kind") in wanted)
        return out

    def first_not_canonical(self) -> int | None:
        """The index of the first stored line that is not ``- `` and its event's canonical JSON: the
        audit's check, since whatever reads the log by its lines' ends, and two copies that must
        hold the same bytes, rely on every line being written as hxref writes it."""
        for i in range(self._stored):
            if b"- " + canonical_json(self._get(i)) != self._line(i):
                return i
        return None

    def _spans(self, wanted: set[str], needles: tuple[bytes, ...]) -> Iterator[tuple[int, int]]:
        """(start, end) of each stored line of the ``wanted`` kinds (holding one of ``needles``):
        found by the needles when there are some (they are rare), else by the lines' ends."""
        raw = self._raw
        if not needles:
            for m in _tail_of(tuple(sorted(wanted))).finditer(raw):
                yield raw.rfind(b"\n", 0, m.start()) + 1, m.end()
            return
        spans: set[tuple[int, int]] = set()
        escaped: set[tuple[int, int]] = set()
        for needle in (*needles, b"\\u"):
            pos = raw.find(needle)
            while pos != -1:
                end = raw.find(b"\n", pos) + 1
                (escaped if needle == b"\\u" else spans).add((raw.rfind(b"\n", 0, pos) + 1, end))
                pos = raw.find(needle, end)
        for start, end in sorted(spans | escaped):
            tail = _TAIL.search(raw, start, end)
            if tail is None or tail.end() != end or tail.group(1).decode("ascii") not in wanted:
                continue
            if (start, end) in spans:
                yield start, end
            else:   # a \u escape may spell a needle in other bytes: the event's canonical form says
                at = self._first_line + bisect_right(self._line_starts(), start) - 1
                event = _parse(raw[start:end - 1], at, self._damaged)
                if any(needle in canonical_json(event) for needle in needles):
                    yield start, end

    # --- changing ---------------------------------------------------------------------------------
    def append(self, value: Any) -> None:
        self._items.append(value)

    def _rewrite(self) -> None:
        """A change other than at the end: parse every stored event and write all anew."""
        if self._stored:
            for i in range(self._stored):
                self._get(i)
            self._bytes, self._on_disk, self._stored, self._starts, self._all_canonical = b"", None, 0, None, None
            self._seen, self.checked = set(), False

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

    # --- writing ----------------------------------------------------------------------------------
    def dump(self) -> bytes:
        """The log section: each stored line as it was read unless its event was parsed and differs
        from it now, then each later event's canonical JSON."""
        return b"".join(p.read() if isinstance(p, StoredLines) else p for p in self.dump_parts())

    def dump_parts(self) -> list[bytes | memoryview | StoredLines]:
        """:meth:`dump` in pieces, the stored lines not copied: a long log is written as it lies."""
        items, stored = self._items, self._stored
        changed = [i for i in sorted(self._seen) if canonical_json(items[i]) != self._line(i)[2:]]
        parts: list[bytes | memoryview | StoredLines] = []
        if not changed:
            # lines never read are copied from the file they lie in, without passing through here
            parts.append(self._on_disk if self._on_disk is not None else self._raw)
        else:
            starts, view, at = self._line_starts(), memoryview(self._raw), 0
            for i in changed:
                parts.append(view[at:starts[i]])
                parts.append(b"- " + canonical_json(items[i]) + b"\n")
                at = starts[i + 1]
            parts.append(view[at:])
        parts.extend(b"- " + canonical_json(ev) + b"\n" for ev in items[stored:])
        return parts


@lru_cache(maxsize=32)
def _tail_of(kinds: tuple[str, ...]) -> re.Pattern:
    """:data:`_TAIL` for these kinds only: the regex engine skips every other line's end."""
    names = b"|".join(re.escape(k.encode("utf-8")) for k in kinds) or b"(?!)"
    return re.compile(rb',"kind":"(?:' + names + rb')","prev":"[0-9a-f]{64}","seq":[0-9]+\}\n')


def _key(kind: Any) -> Any:
    """An event's kind as a counting key (a crafted kind may be a list)."""
    return kind if isinstance(kind, (str, type(None))) else repr(kind)


def _parse(line: bytes, number: int, damaged: Callable[[str, int | None], Exception]) -> Any:
    if not line.startswith(LINE_START):
        raise damaged("a log line does not hold an event", number)
    try:
        event = json.loads(line[2:])
    except ValueError:
        raise damaged("a log line is not valid JSON", number) from None
    except RecursionError:      # a crafted line nested thousands deep
        raise damaged("a log line is nested too deeply", number) from None
    if not isinstance(event, dict):
        raise damaged("a log line does not hold an event", number)
    return event


def events_of(log: Iterable[Any], kinds: Iterable[str], needles: tuple[bytes, ...] = (),
              after: int = 0) -> list[Any]:
    """The events of ``kinds`` in ``log`` (an :class:`EventLog`, parsed only as far as needed, or
    any list of events) after its first ``after``; ``needles`` as in :meth:`EventLog.select`."""
    if isinstance(log, EventLog):
        return log.select(kinds, needles, after)
    wanted = set(kinds)
    return [ev for ev in list(log)[after:] if ev.get("kind") in wanted]
