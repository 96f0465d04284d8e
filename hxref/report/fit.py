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

Where the output is not a terminal (a pipe, a file, a mail script), :func:`show` prints the same
text without importing rich: the layout above, and the wrapping, padding and trailing spaces rich
gives a table with no box and a line of text, without colour (:meth:`FitTable.plain`,
:func:`plain_text`).  What that rendering does not follow (a box, a title, a tab, a character
that is not printable ASCII) is left to rich, so the text is the same either way.
"""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.measure import Measurement
    from rich.text import Text

_TOKEN = re.compile(r"\S+")
#: where a token too long for its column may break, in the order tried: after a slash (a file
#: path), then after a hyphen as well (a hyphenated name)
_BREAKS = (re.compile(r"(?<=/)"), re.compile(r"(?<=[/-])"))
#: a word as rich wraps a line: the spaces before it (at the start of the line), it, the spaces after
_WORD = re.compile(r"\s*\S+\s*")
#: the table options :meth:`FitTable.plain` follows (with ``box`` None): any other is left to rich
_PLAIN_OPTIONS = frozenset({"box", "show_edge", "padding", "pad_edge", "collapse_padding", "style",
                            "header_style", "border_style"})


@dataclass
class Col:
    """A column: its header, and how it may give way."""
    header: str
    style: str | None = None
    justify: Any = "left"
    no_wrap: bool = False         # its cells stay on one line each (short fixed tokens: a turn, a status)
    optional: bool = False        # left out when the table cannot fit otherwise


#: a cell: a text, or a rich Text (its styles shown on a terminal)
Cell = Union[str, "Text"]
#: a line of :func:`show`: a text, or its pieces each with a rich style (None: none), as
#: ``(("name", "bold"), (" -- the rest", None))``
Line = Union[str, tuple[tuple[str, Union[str, None]], ...]]


def _plain(cell: Cell) -> str:
    return cell if isinstance(cell, str) else cell.plain


def _printable(text: str) -> bool:
    """Printable ASCII (newlines allowed): a character a cell, what the plain rendering lays out."""
    return text.isascii() and text.replace("\n", "").isprintable()


def cell_len(text: str) -> int:
    """The cells ``text`` takes on a terminal: its length when it is printable ASCII, else as rich
    counts them (imported only then)."""
    if text.isascii() and text.isprintable():
        return len(text)
    from rich.cells import cell_len as rich_cell_len

    return rich_cell_len(text)


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


def _cuts(text: str, width: int, breaks: re.Pattern) -> list[int]:
    """Where a newline goes in ``text``: at a place ``breaks`` allows inside each token wider than
    ``width``."""
    cuts: list[int] = []
    for m in _TOKEN.finditer(text):
        if cell_len(m.group()) <= width:
            continue
        start, line = m.start(), 0
        for piece in (p for p in breaks.split(m.group()) if p):
            if line and line + cell_len(piece) > width:
                cuts.append(start)
                line = 0
            line += cell_len(piece)
            start += len(piece)
    return cuts


def _break_long(cell: Text, width: int, breaks: re.Pattern) -> Text:
    """``cell`` with a newline at a place ``breaks`` allows inside each token wider than ``width``."""
    from rich.text import Text

    cuts = _cuts(cell.plain, width, breaks)
    return Text("\n").join(cell.divide(cuts)) if cuts else cell


def _break_long_plain(text: str, width: int, breaks: re.Pattern) -> str:
    cuts = _cuts(text, width, breaks)
    return "\n".join(text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)]))


def _unpack(padding: Any) -> tuple[int, int, int, int]:
    """(top, right, bottom, left) of a padding given as rich takes it: 1, 2 or 4 numbers."""
    if isinstance(padding, int):
        return padding, padding, padding, padding
    if len(padding) == 1:
        return (padding[0],) * 4
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    if len(padding) == 4:
        return padding[0], padding[1], padding[2], padding[3]
    raise ValueError(f"1, 2 or 4 integers required for padding; {len(padding)} given")


# --- the plain rendering: what rich prints without colour, for printable ASCII ---------------------

def _divide(line: str, width: int) -> list[str]:
    """``line`` wrapped at ``width`` as rich wraps it (rich._wrap.divide_line, folding a word wider
    than the line), the spaces after each piece's last word kept: the caller cuts each at ``width``
    as rich does (rich's trimming of those spaces to the width and its cut come to the same)."""
    offsets: list[int] = []
    used = 0
    m = _WORD.match(line)
    while m is not None:
        start, word = m.start(), m.group()
        size = len(word.rstrip())
        if width - used >= size:
            used += len(word)
        elif size > width:          # folded over as many lines as it takes
            chunks = [word[k:k + width] for k in range(0, len(word), width)]
            for n, chunk in enumerate(chunks):
                if start:
                    offsets.append(start)
                if n == len(chunks) - 1:
                    used = len(chunk)
                else:
                    start += len(chunk)
        elif used and start:
            offsets.append(start)
            used = len(word)
        m = _WORD.match(line, m.end())
    return [line[a:b] for a, b in zip([0, *offsets], [*offsets, len(line)])]


def plain_text(text: str, width: int) -> list[str] | None:
    """The lines of ``text`` as rich prints it at ``width`` columns (``Console.print(Text(text))``)
    without colour; None when it is not printable ASCII (rich must lay it out)."""
    if not _printable(text) or width < 1:
        return None
    return [piece[:width] for line in text.split("\n") for piece in _divide(line, width)]


def _cell_lines(text: str, width: int, justify: str, no_wrap: bool) -> list[str]:
    """A cell's lines, each ``width`` wide, as rich renders a Text in a table's column."""
    out = []
    for line in text.split("\n"):
        for piece in [line] if no_wrap else _divide(line, width):
            if justify == "left":
                out.append(piece[:width].ljust(width))
            else:               # right or center: the trailing spaces go first
                piece = piece.rstrip()[:width]
                pad = width - len(piece)
                out.append((" " * (pad if justify == "right" else pad // 2) + piece).ljust(width))
    return out


def console_width(width: int | None) -> int:
    """The width rich's ``Console(width=width)`` lays out to: ``width``, else ``COLUMNS``, else the
    terminal's (of stdin, stdout or stderr), else 80."""
    if width is not None:
        return width
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    found = 0
    for fd in (0, 1, 2):
        try:
            found = os.get_terminal_size(fd)[0]
        except (AttributeError, ValueError, OSError):
            continue
        break
    return found or 80


def is_terminal(file: IO[str]) -> bool:
    """Whether rich would write to ``file`` as to a terminal (with colours): ``TTY_COMPATIBLE`` 1 or
    0, a ``FORCE_COLOR`` set (not empty), else whether it is one."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    try:
        return file.isatty()
    except (AttributeError, ValueError):
        return False


class FitTable:
    """A rich table of ``columns`` and ``rows`` laid out to the width it is printed at (see the
    module's docstring); ``table`` holds the :class:`rich.table.Table` options (box, padding...).
    A cell given as a str is shown as it is (never read as rich markup)."""

    def __init__(self, columns: list[Col], rows: list[list[Cell]], **table: Any) -> None:
        self.columns = columns
        self.rows = [list(r) for r in rows]
        self.table = table

    def _overhead(self, n: int) -> int:
        """The characters a table of ``n`` columns spends on borders and padding."""
        _, right, _, left = _unpack(self.table.get("padding", (0, 1)))
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

    def build(self, room: int):
        """The :class:`rich.table.Table` laid out to ``room`` columns."""
        from rich.table import Table
        from rich.text import Text

        keep, widths, breaks = self.layout(room)
        t = Table(**self.table)
        for n, i in enumerate(keep):
            c = self.columns[i]
            t.add_column(Text(c.header), style=c.style, justify=c.justify, overflow="fold",
                         no_wrap=c.no_wrap and widths is None, width=None if widths is None else widths[n])
        for r in self.rows:
            cells = [Text(cell) if isinstance(cell, str) else cell for cell in (r[i] for i in keep)]
            if breaks is not None and widths is not None:
                cells = [_break_long(cell, w, breaks) for cell, w in zip(cells, widths)]
            t.add_row(*cells)
        return t

    def plain(self, room: int) -> list[str] | None:
        """The table's lines as rich prints it at ``room`` columns without colour (the same widths,
        wrapping, padding and trailing spaces), without rich; None when it needs rich: a box, an
        option or a justification this rendering does not follow, a cell that is not a printable
        ASCII str, or too little room."""
        if not self._plain_enough():
            return None
        top, right, bottom, left = _unpack(self.table.get("padding", (0, 1)))
        keep, widths, breaks = self.layout(room)
        if top or bottom or not keep:
            return None
        last, edge = len(keep) - 1, self.table.get("pad_edge", True)
        pads = [(left if edge or n else 0, right if edge or n < last else 0) for n in range(len(keep))]
        inner = widths or [max(_longest_line(x) for x in self._cells(i)) for i in keep]
        if min(w + a + b for w, (a, b) in zip(inner, pads)) < 1 or sum(inner) + sum(map(sum, pads)) > room:
            return None
        header: list[Cell] = [c.header for c in self.columns]
        out: list[str] = []
        for r, row in enumerate([header, *self.rows]):
            out += self._plain_row(row, keep, inner, pads, widths, breaks, header=not r)
        return out

    def _plain_enough(self) -> bool:
        """Whether :meth:`plain` follows everything this table asks for (else rich draws it)."""
        t = self.table
        if t.get("box", "default") is not None or t.get("collapse_padding") or not _PLAIN_OPTIONS.issuperset(t):
            return False
        return all(c.justify in ("left", "center", "right") and _printable(c.header) for c in self.columns) \
            and all(isinstance(cell, str) and _printable(cell) for r in self.rows for cell in r)

    def _plain_row(self, row: Sequence[Cell], keep: list[int], inner: list[int], pads: list[tuple[int, int]],
                   widths: list[int] | None, breaks: re.Pattern | None, header: bool) -> list[str]:
        """One row's lines: each kept cell wrapped to its column and padded; the header at the foot
        of its row, a cell at the top.  ``widths``: the layout's (None when every column has its
        longest line); ``breaks``: where a long token breaks, in a cell, not in the header."""
        cells = []
        for n, i in enumerate(keep):
            text = _plain(row[i])
            if breaks is not None and widths is not None and not header:
                text = _break_long_plain(text, widths[n], breaks)
            col = self.columns[i]
            lines = _cell_lines(text, inner[n], col.justify, col.no_wrap and widths is None)
            a, b = pads[n]
            cells.append([" " * a + line + " " * b for line in lines])
        height = max(map(len, cells))
        for n, lines in enumerate(cells):
            blank = [" " * (inner[n] + sum(pads[n]))] * (height - len(lines))
            cells[n] = blank + lines if header else lines + blank
        return ["".join(lines[k] for lines in cells) for k in range(height)]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.build(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        n = len(self.columns)
        mins, maxs = self._measure(list(range(n)))
        return Measurement(sum(mins) + self._overhead(n), sum(maxs) + self._overhead(n)).with_maximum(
            options.max_width)


def plain_lines(parts: Sequence[Line | FitTable], width: int) -> list[str] | None:
    """The lines rich prints for ``parts`` at ``width`` columns, without colour, or None when one
    of them needs rich."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, FitTable):
            lines = part.plain(width)
        else:
            lines = plain_text(part if isinstance(part, str) else "".join(text for text, _ in part), width)
        if lines is None:
            return None
        out += lines
    return out


def show(parts: Sequence[Line | FitTable], width: int | None = None, file: IO[str] | None = None) -> None:
    """Print ``parts`` one under another, laid out to ``width`` columns (None: the terminal's, or
    ``COLUMNS``): with rich and its colours on a terminal; elsewhere as plain text, the same
    layout, rich not imported (unless a part needs it).  A text is never read as rich markup."""
    out = file or sys.stdout
    if not is_terminal(out):
        room = console_width(width)
        lines = plain_lines(parts, room) if room >= 1 else None
        if lines is not None:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            return
    from rich.console import Console
    from rich.markup import escape

    c = Console(width=width, file=file)
    for part in parts:
        if isinstance(part, FitTable):
            c.print(part)
        elif isinstance(part, str):
            c.print(part, markup=False, emoji=False)
        else:
            c.print("".join(f"[{style}]{escape(text)}[/]" if style else escape(text) for text, style in part),
                    emoji=False)


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
