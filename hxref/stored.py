"""A game file's log section as it lies on the disk, read only where it is asked for.

A command on a long game asks for a few events: the first (the pinned charts), the next few (the
joins, the start), the last (the head) and a few before it (the story since its reader last read).
So the section is read in two windows, one from its start and one from its end, each grown as far
as asked (doubling, up to :data:`WINDOW`); a command that asks for more reads it whole.  It is read
from a descriptor of the file that was opened and checked, so a later save by another process,
which renames a new file into place, changes nothing read here; and a save copies the section
into its new file inside the kernel (``os.copy_file_range``), not through Python.
"""
from __future__ import annotations

import os
from collections.abc import Callable

#: how far each window may grow before a command reads the whole section instead
WINDOW = 1 << 20
#: the first read at each end
FIRST = 1 << 14


class StoredLines:
    """The ``length`` bytes at ``offset`` of the file open at ``fd``: whole lines, each ending in a
    newline.  ``changed`` is the error for a file that turns out shorter, or written in place since
    it was checked (``identity``: its size and modification time then)."""

    def __init__(self, fd: int, offset: int, length: int, changed: Callable[[], Exception],
                 identity: tuple[int, int] | None = None) -> None:
        self.fd, self.offset, self.length = fd, offset, length
        self._identity = identity           # the file's (size, modification time) when it was checked
        self._changed = changed
        self._head = b""                    # the section's first bytes read so far
        self._head_starts = [0]             # where each whole line in them starts, and the end of the last
        self._tail = b""                    # its last bytes read so far
        self._tail_starts: list[int] = []   # where each whole line in them starts, the last first

    def _pread(self, size: int, at: int) -> bytes:
        data = os.pread(self.fd, size, at)
        while len(data) < size:             # a short read: go on, or the file shrank
            more = os.pread(self.fd, size - len(data), at + len(data))
            if not more:
                raise self._changed()
            data += more
        self.unchanged()
        return data

    def read(self) -> bytes:
        """The whole section."""
        return self._pread(self.length, self.offset)

    def line(self, i: int, lines: int) -> bytes | None:
        """Line ``i`` of the ``lines`` lines, without its newline, when it lies within a window;
        None when reading to it would grow the window past :data:`WINDOW`."""
        back = lines - 1 - i
        while True:
            if i < len(self._head_starts) - 1:
                return self._head[self._head_starts[i]:self._head_starts[i + 1] - 1]
            if back < len(self._tail_starts):
                start = self._tail_starts[back]
                end = self._tail_starts[back - 1] if back else len(self._tail)
                return self._tail[start:end - 1]
            if not self._grow(at_start=i <= back):
                return None

    def _grow(self, at_start: bool) -> bool:
        """Read more at one end: False when the window would pass :data:`WINDOW`."""
        if at_start:
            size = min(max(FIRST, 2 * len(self._head)), self.length)
            if len(self._head) >= min(WINDOW, self.length):
                return False
            self._head += self._pread(size - len(self._head), self.offset + len(self._head))
            starts, find = self._head_starts, self._head.find
            pos = find(b"\n", starts[-1])
            while pos != -1:
                starts.append(pos + 1)
                pos = find(b"\n", pos + 1)
            return True
        size = min(max(FIRST, 2 * len(self._tail)), self.length)
        if len(self._tail) >= min(WINDOW, self.length):
            return False
        added = size - len(self._tail)
        self._tail = self._pread(added, self.offset + self.length - size) + self._tail
        if not self._tail.endswith(b"\n"):
            raise self._changed()
        # line starts, the last first: after each newline in the new part (not the final one)
        # and at the section's start when the window reaches it
        starts, rfind = [s + added for s in self._tail_starts], self._tail.rfind
        limit = self._tail_starts[-1] + added - 1 if self._tail_starts else len(self._tail) - 1
        found = []
        pos = rfind(b"\n", 0, limit)
        while pos != -1:
            found.append(pos + 1)
            pos = rfind(b"\n", 0, pos)
        if size == self.length:
            found.append(0)
        self._tail_starts = starts + found
        return True

    def unchanged(self) -> None:
        """Refuse a file written in place since it was checked: what lies there now is not what
        was checked (its size or modification time differ).  Not its change time: a link, a
        rename over it and this process's own backup change that, not the bytes; and only the
        file's owner may set its modification time back."""
        if self._identity is not None:
            st = os.fstat(self.fd)
            if (st.st_size, st.st_mtime_ns) != self._identity:
                raise self._changed()

    def write_to(self, out: int) -> None:
        """Append the section to the file open at ``out``, at its current offset."""
        at, left = self.offset, self.length
        copy = getattr(os, "copy_file_range", None)
        while left:
            n = 0
            if copy is not None:
                try:
                    n = copy(self.fd, out, left, at)
                except OSError:         # another file system, or a kernel without it: by hand
                    copy = None
            if not n:
                chunk = self._pread(min(left, 1 << 24), at)
                view = memoryview(chunk)
                while view:
                    view = view[os.write(out, view):]
                n = len(chunk)
            at, left = at + n, left - n
        self.unchanged()        # written in place during the copy: not the section checked
