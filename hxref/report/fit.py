"""Tables laid out to the room they are printed in, without cutting a word.

rich shrinks a table that is too wide by levelling its widest columns, whatever their words: at 80
columns a column of names ends up 10 characters wide, one word a line, names cut with an ellipsis
or broken in the middle.  A :class:`FitTable` measures its cells and chooses the widths itself, when
it is printed and knows the width:

1. every column as wide as its longest line, when the table fits;
2. else each column its longest word, and the room left shared by what each needs more (a cell
   wraps at spaces);
3. else the columns marked ``optional`` left out, the last first;
4. else a long token breaks after a ``/`` or a ``-`` (a file path, a hyphenated name);
5. only a token with no such place (a hash) is folded, never cut short.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

_TOKEN = re.compile(r"\S+")
#: where a token too long for its column may break, in the order tried: after a slash (a file
#: path), then after a hyphen as well (a hyphenated name)
_BREAKS = (re.compile(r"(?<=/)"), re.compile(r"(?<=[/-])"))


@dataclass
class Col:
    """A column: its header, and how it may give way."""
    header: str
    style: str | None = None
    justify: Any = "left"
    no_wrap: bool = False         # its cells stay on one line each (short fixed tokens: a turn, a status)
    optional: bool = False        # left out when the table cannot fit otherwise


def _plain(cell: str | Text) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def _longest_line(text: str) -> int:
    return max((cell_len(line) for line in text.split("\n")), default=0)


def _longest_word(text: str, breaks: re.Pattern | None = None) -> int:
    words = _TOKEN.findall(text)
    if breaks is not None:
        words = [p for w in words for p in breaks.split(w) if p]
    return max((cell_len(w) for w in words), default=0)


def _shrink(widths: list[int], floor: list[int], excess: int) -> int:
    """Narrow the widest column above its floor, one character at a time; the excess left."""
    while excess > 0:
        room = [i for i, w in enumerate(widths) if w > floor[i]]
        if not room:
            break
        i = max(room, key=lambda k: (widths[k], k))
        widths[i] -= 1
        excess -= 1
    return excess


def _share(mins: list[int], maxs: list[int], avail: int) -> list[int]:
    """Each column its longest word, and the room left shared in proportion to what each needs
    more to hold its longest line (as a browser lays out a table): a column of long text gets the
    most, and a column that needs only a little gets all of it first."""
    widths = list(mins)
    spare = avail - sum(mins)
    for i in sorted(range(len(mins)), key=lambda k: maxs[k] - mins[k]):     # the small wants first
        want = maxs[i] - mins[i]
        if want <= spare and want * len(mins) <= max(spare, 1) * 2:
            widths[i], spare = maxs[i], spare - want
    wants = [maxs[i] - widths[i] for i in range(len(mins))]
    total = sum(wants)
    if total:
        give = [spare * w // total for w in wants]
        for i, g in enumerate(give):
            widths[i] += g
        for i in sorted(range(len(mins)), key=lambda k: -wants[k])[:spare - sum(give)]:
            widths[i] += 1
    return widths


def _break_long(cell: Text, width: int, breaks: re.Pattern) -> Text:
    """``cell`` with a newline at a place ``breaks`` allows inside each token wider than ``width``."""
    cuts: list[int] = []
    for m in _TOKEN.finditer(cell.plain):
        if cell_len(m.group()) <= width:
            continue
        start, line = m.start(), 0
        for piece in (p for p in breaks.split(m.group()) if p):
            if line and line + cell_len(piece) > width:
                cuts.append(start)
                line = 0
            line += cell_len(piece)
            start += len(piece)
    if not cuts:
        return cell
    return Text("\n").join(cell.divide(cuts))


class FitTable:
    """A rich table of ``columns`` and ``rows`` laid out to the width it is printed at (see the
    module's docstring); ``table`` holds the :class:`rich.table.Table` options (box, padding...)."""

    def __init__(self, columns: list[Col], rows: list[list[str | Text]], **table: Any) -> None:
        self.columns = columns
        self.rows = [[c if isinstance(c, Text) else Text(c) for c in r] for r in rows]
        self.table = table

    def _overhead(self, n: int) -> int:
        """The characters a table of ``n`` columns spends on borders and padding."""
        _, right, _, left = Padding.unpack(self.table.get("padding", (0, 1)))
        inner = max(0, left - right) if self.table.get("collapse_padding") else left     # as rich pads
        pad = left + right + (inner + right) * (n - 1)
        if not self.table.get("pad_edge", True):
            pad -= left + right
        box = self.table.get("box", "default") is not None
        edges = 2 if box and self.table.get("show_edge", True) else 0
        return pad + (n - 1 if box else 0) + edges

    def _cells(self, i: int) -> list[str]:
        return [self.columns[i].header] + [_plain(r[i]) for r in self.rows]

    def _measure(self, keep: list[int], breaks: re.Pattern | None = None) -> tuple[list[int], list[int]]:
        maxs = [max(_longest_line(t) for t in self._cells(i)) for i in keep]
        mins = [m if self.columns[i].no_wrap else max(_longest_word(t, breaks) for t in self._cells(i))
                for i, m in zip(keep, maxs)]
        return mins, maxs

    def _kept(self, room: int) -> list[int]:
        """The columns shown: all, unless the table fits only without its optional ones (the last
        left out first)."""
        keep = list(range(len(self.columns)))
        while any(self.columns[i].optional for i in keep):
            mins, maxs = self._measure(keep)
            avail = room - self._overhead(len(keep))
            if sum(maxs) <= avail or sum(mins) <= avail:
                break
            keep.remove(max(i for i in keep if self.columns[i].optional))
        return keep

    def layout(self, room: int) -> tuple[list[int], list[int] | None, re.Pattern | None]:
        """The columns shown, their widths (None: their natural widths) and where long tokens
        break (None: they need not)."""
        keep = self._kept(room)
        mins, maxs = self._measure(keep)
        avail = room - self._overhead(len(keep))
        if sum(maxs) <= avail:
            return keep, None, None
        if sum(mins) <= avail:
            return keep, _share(mins, maxs, avail), None
        for breaks in _BREAKS:
            pieces, _ = self._measure(keep, breaks)
            if sum(pieces) <= avail:
                return keep, _share(pieces, maxs, avail), breaks
        _shrink(pieces, [1] * len(pieces), sum(pieces) - avail)      # a hash: folded, never cut
        return keep, pieces, breaks

    def build(self, room: int) -> Table:
        keep, widths, breaks = self.layout(room)
        t = Table(**self.table)
        for n, i in enumerate(keep):
            c = self.columns[i]
            t.add_column(Text(c.header), style=c.style, justify=c.justify, overflow="fold",
                         no_wrap=c.no_wrap and widths is None, width=None if widths is None else widths[n])
        for r in self.rows:
            cells = [r[i] for i in keep]
            if breaks is not None and widths is not None:
                cells = [_break_long(cell, w, breaks) for cell, w in zip(cells, widths)]
            t.add_row(*cells)
        return t

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.build(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        n = len(self.columns)
        mins, maxs = self._measure(list(range(n)))
        return Measurement(sum(mins) + self._overhead(n), sum(maxs) + self._overhead(n)).with_maximum(
            options.max_width)


class FitPanel:
    """A :class:`rich.panel.Panel` whose title sits in its top border when the border has room for
    it, and above the panel otherwise: a title is never cut short."""

    def __init__(self, body: Any, title: Text, **panel: Any) -> None:
        self.body, self.title, self.panel = body, title, panel

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.panel import Panel

        if self.title.cell_len + 6 <= options.max_width:        # the corners and a space each side
            yield Panel(self.body, title=self.title, **self.panel)
        else:
            yield self.title
            yield Panel(self.body, **self.panel)
