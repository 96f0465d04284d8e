"""Terminal pictures of maps (rich): hex maps as offset columns, tables as a character grid.

:func:`render_terminal` returns a rich renderable; print it with a
``rich.console.Console``.  Without colour (a golden file, a mail client) the
characters alone still read: every hex shows its printed label, a terrain
symbol, a feature or road symbol and a two-character unit marker.

Hex layout: a header line of column numbers, then each hex two lines by four
characters -- the label (where units stand: the top unit's code and the label's row
part, ``Dn06``), then ``[terrain][feature]`` and ``+N`` for N more units -- and the
low columns sit one line lower, as on the printed map.  The character between two columns is the hexside
between the two hexes beside it: a river, a bridge, a slope (its symbol in
its colour).  A hexside feature on the south side of a hex underlines that
hex's second line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from rich.console import Group
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text

from ..geometry.hex import Hex, HexSide
from .mapsvg import PlacedUnit, _text_colour, place_units, side_colours

CELL = 4
ARROWS = "↑↗→↘↓↙←↖"


def _blend(colour: str, towards: str, k: float) -> str:
    def rgb(c: str) -> tuple[int, ...]:
        c = c.lstrip("#")
        if len(c) == 3:
            c = "".join(x * 2 for x in c)
        return tuple(int(c[i : i + 2], 16) for i in (0, 2, 4))

    a, b = rgb(colour), rgb(towards)
    return "#" + "".join(f"{round(x + (y - x) * k):02x}" for x, y in zip(a, b))


def render_terminal(m: Any, units: Sequence[dict] = (), max_width: int = 100, title: str | None = None,
                    around: str | None = None, max_height: int | None = None) -> Group:
    """A rich picture of the map with ``units`` (unit dicts as for :func:`~hxref.report.mapsvg.render_svg`).

    A hex map wider than ``max_width`` characters (or taller than ``max_height`` lines) is shown as
    a window of it: centred on the hex ``around`` when given, else on the units of the side the
    picture is for (``viewer``, else all units), else on the map's middle."""
    placed = place_units(m, units)
    codes = unit_codes(m, placed)
    window = None
    if m.kind == "hex":
        window = hex_window(m, placed, max_width, max_height, around)
        picture = _hex_picture(m, placed, codes, window)
    else:
        picture = _table_picture(m, placed, max_width, codes)
    parts: list[Any] = [Text(title or m.title or m.id, style="bold"), picture]
    if window is not None and window.partial:
        parts.append(Text(window.describe(m), style="dim"))
    parts.append(_legend(m))
    shown = placed if window is None else [u for u in placed if window.holds(m, u.in_hex())]
    if shown:
        parts.append(_unit_table(m, shown, codes))
    outside = [u for u in placed if u not in shown]
    if outside:
        parts.append(Text("outside this window: " + ", ".join(
            f"{codes[u.id]} {u.label} ({m.label(u.in_hex())})" for u in sorted(outside, key=lambda u: (u.side, u.id))),
            style="dim"))
    return Group(*parts)


@dataclass(frozen=True)
class HexWindow:
    """The part of a hex map a terminal picture shows: columns ``cols`` and rows ``rows`` (inclusive,
    in the map's printed numbering), and whether that is less than the whole map."""

    cols: tuple[int, int]
    rows: tuple[int, int]
    partial: bool

    def holds(self, m: Any, h: Hex) -> bool:
        """Is hex ``h`` in the window?"""
        col, row = m.grid.labels.to_offset(h)
        return self.cols[0] <= col <= self.cols[1] and self.rows[0] <= row <= self.rows[1]

    def describe(self, m: Any) -> str:
        """One line saying which part of the map is shown and how to move the window."""
        fmt = m.grid.labels
        first = m.label(fmt.to_hex(self.cols[0], self.rows[0]))
        last = m.label(fmt.to_hex(self.cols[1], self.rows[1]))
        return f"part of the map: {first} to {last} (--around HEX moves the window, --width widens it)"


def hex_window(m: Any, units: Sequence[PlacedUnit], max_width: int, max_height: int | None,
               around: str | None) -> HexWindow:
    """The columns and rows that fit ``max_width`` characters (and ``max_height`` lines), centred as
    :func:`render_terminal` says.  ``around`` not on the map: InvalidInput naming it."""
    (c0, c1), (r0, r1) = m.grid.columns, m.grid.rows
    ncols = max(1, min(c1 - c0 + 1, (max_width + 1) // (CELL + 1)))
    nrows = r1 - r0 + 1 if max_height is None else max(1, min(r1 - r0 + 1, (max_height - 1) // 2))
    if around is not None:
        centre = m.grid.labels.to_offset(m.parse(around))
    else:
        mine = [u for u in units if u.viewer] or list(units)
        if mine:
            cr = [m.grid.labels.to_offset(u.in_hex()) for u in mine]
            centre = (round(sum(c for c, _ in cr) / len(cr)), round(sum(r for _, r in cr) / len(cr)))
        else:
            centre = ((c0 + c1) // 2, (r0 + r1) // 2)

    def span(mid: int, n: int, lo: int, hi: int) -> tuple[int, int]:
        start = min(max(lo, mid - n // 2), hi - n + 1)
        return start, start + n - 1

    cols, rows = span(centre[0], ncols, c0, c1), span(centre[1], nrows, r0, r1)
    return HexWindow(cols, rows, (cols, rows) != ((c0, c1), (r0, r1)))


def unit_codes(m: Any, units: Sequence[PlacedUnit]) -> dict[str, str]:
    """A two-character code for every unit, different for every unit (and from every terrain or
    feature symbol the map uses): its label's first letter and the first later letter not taken,
    else a digit."""
    from .mapsvg import _used_types

    taken = {tt.symbol for tt in _used_types(m)}
    out: dict[str, str] = {}
    for u in sorted(units, key=lambda u: (u.side, u.id)):
        name = "".join(ch for ch in (u.label or u.id) if ch.isalnum()) or "u"
        head = name[0].upper()
        tails = [ch.lower() for ch in name[1:]] + list("23456789abcdefghijklmnopqrstuvwxyz")
        code = next((head + t for t in tails if head + t not in taken), None)
        if code is None:
            code = next(a + b for a in "ABCDEFGHJKLMNPQRSTUVWXYZ" for b in "23456789" if a + b not in taken)
        taken.add(code)
        out[u.id] = code
    return out


class _Canvas:
    """A grid of characters, each with its style, written cell by cell and read out as rich text."""

    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]

    def put(self, line: int, x: int, text: str, style: Style | None) -> None:
        """Write ``text`` on ``line`` from column ``x`` on, every character in ``style``."""
        for k, ch in enumerate(text):
            self.chars[line][x + k] = ch
            self.styles[line][x + k] = style

    def text(self) -> Text:
        """The grid as rich text, line by line, trailing space trimmed."""
        text = Text()
        for chars, styles in zip(self.chars, self.styles):
            for ch, st in zip(chars, styles):
                text.append(ch, st)
            text.append("\n")
        text.rstrip()
        return text


def _hex_picture(m: Any, units: list[PlacedUnit], codes: dict[str, str], window: HexWindow) -> Text:
    """A hex map as offset columns: each hex two lines (label; terrain, feature or line, unit marker),
    the low columns one line lower, then the hexside symbols between the columns."""
    grid = m.grid
    fmt = grid.labels
    (c0, c1), (r0, r1) = window.cols, window.rows
    ncols, nrows = c1 - c0 + 1, r1 - r0 + 1
    height = 2 * nrows + 2                  # a header line of column numbers, then the hexes
    canvas = _Canvas(ncols * (CELL + 1), height)
    where: dict[tuple[int, int], Hex] = {}  # (column index, line) -> hex
    colours = side_colours([{"side": u.side} for u in units])
    stacks: dict[Hex, list[PlacedUnit]] = {}
    for u in sorted(units, key=lambda u: (u.side, u.id)):
        stacks.setdefault(u.in_hex(), []).append(u)
    short = getattr(fmt, "format_short", fmt.format)
    line_symbol = _line_symbols(m)
    for ci, col in enumerate(range(c0, c1 + 1)):
        low = fmt.is_low(col)
        labels = [short(fmt.to_hex(col, row)) for row in range(r0, r1 + 1)]
        head = _column_prefix(labels)
        canvas.put(0, ci * (CELL + 1), head.center(CELL), Style(bold=True))
        for ri, row in enumerate(range(r0, r1 + 1)):
            h = fmt.to_hex(col, row)
            top = 1 + 2 * ri + (1 if low else 0)
            where[(ci, top)] = where[(ci, top + 1)] = h
            _draw_hex(canvas, m, h, ci * (CELL + 1), top, labels[ri], line_symbol.get(h, " "), stacks.get(h, []),
                      colours, codes, len(head))
    _draw_hexsides(canvas, m, where, ncols, height)
    return canvas.text()


def _column_prefix(labels: list[str]) -> str:
    """What every hex label of a column begins with (``10`` of 1006, 1007, ...), at most two
    characters: the column's number, printed above it."""
    first = labels[0] if labels else ""
    n = 0
    while n < min(2, len(first)) and all(len(x) > n and x[n] == first[n] for x in labels):
        n += 1
    return first[:n]


def _line_symbols(m: Any) -> dict[Hex, str]:
    """The symbol of the line (road, railroad) through each hex; a railroad's wins over a road's."""
    line_symbol = {}
    for ln in m.lines:
        for h in ln.hexes:
            sym = m.types["lines"][ln.type].symbol
            if ln.type.startswith("rail") or h not in line_symbol:
                line_symbol[h] = sym
    return line_symbol


def _south_feature(m: Any, h: Hex) -> Any:
    """The first feature along the south hexside of ``h`` (not a crossing), which underlines the hex."""
    s = HexSide(h, h.neighbour("S"))
    for f in m.side_features(s, effective=False):
        tt = m.types["hexside"][f]
        if not tt.replaces:
            return tt
    return None


def _draw_hex(canvas: _Canvas, m: Any, h: Hex, x: int, top: int, label: str, line_sym: str,
              us: list[PlacedUnit], colours: dict, codes: dict[str, str], head: int = 0) -> None:
    """One hex: its label on the top line, or where units stand the top unit's code before the label's
    part after the column number (``Dn06`` in column 10: a code is read with its own hex's number,
    never beside the next column's label); its terrain and feature (else line) below, in the terrain's
    colour darkened with elevation, underlined by a south hexside feature."""
    tt = m.terrain(h)
    bg = _blend(tt.colour, "#5a3410", min(0.15 * m.elevation(h), 0.6)) if m.elevation(h) > 0 else tt.colour
    base = Style(color=_text_colour(bg), bgcolor=bg)
    feats = m.features(h)
    second = tt.symbol + (m.types["features"][feats[0]].symbol if feats else line_sym)
    sf = _south_feature(m, h)
    low_style = base + Style(underline=True, color=sf.colour, bold=True) if sf is not None else base
    canvas.put(top, x, label[:CELL].ljust(CELL), base)
    canvas.put(top + 1, x, second + ("+" + str(len(us) - 1) if len(us) > 1 else "  ")[:2], low_style)
    if us:
        uc = us[0].colour or colours[us[0].side]
        ust = Style(color=_text_colour(uc), bgcolor=uc, bold=True)
        rest = label[head:] if head else label[-2:]
        canvas.put(top, x, codes[us[0].id], ust)
        canvas.put(top, x + 2, rest[-(CELL - 2):].ljust(CELL - 2), base)


def _draw_hexsides(canvas: _Canvas, m: Any, where: dict[tuple[int, int], Hex], ncols: int, height: int) -> None:
    """The character between two columns: the hexside between the two adjacent hexes beside it, a
    crossing (bridge, ford) shown before a feature along the side."""
    types = m.types
    for ci in range(ncols - 1):
        gx = ci * (CELL + 1) + CELL
        for line in range(height):
            a, b = where.get((ci, line)), where.get((ci + 1, line))
            if a is None or b is None or a.distance(b) != 1:
                continue
            feats = m.side_features(HexSide(a, b), effective=False)
            if not feats:
                continue
            ordered = sorted(feats, key=lambda f: 0 if types["hexside"][f].replaces else 1)
            tt = types["hexside"][ordered[0]]
            canvas.chars[line][gx] = tt.symbol          # one cell, whatever the symbol
            canvas.styles[line][gx] = Style(color=tt.colour, bold=True)


def _table_picture(m: Any, units: list[PlacedUnit], max_width: int, codes: dict[str, str]) -> Text:
    """A table as a character grid: terrain symbols, each unit's base filled with its code (``LyLy``),
    its front marked by an arrow."""
    import numpy as np
    import shapely

    t = m.table
    per_col = max(0.5, t.width / max(10, max_width - 6))
    per_line = 2 * per_col
    ncols = int(math.ceil(t.width / per_col))
    nlines = int(math.ceil(t.height / per_line))
    xs = np.array([(i + 0.5) * per_col + 1e-6 for i in range(ncols)] * nlines)
    # sample each cell's centre, nudged off the whole- and half-inch lines edges tend to lie on
    ys = np.array([t.height - (j + 0.5) * per_line + 1e-6 for j in range(nlines) for _ in range(ncols)])
    layers: list[tuple[Any, Any]] = []  # (geometry, type) bottom to top
    for a in t.areas:
        layers.append((a.polygon, m.types["areas"][a.terrain]))
    for r in t.roads:
        layers.append((r.area, m.types["roads"][r.terrain]))
    for r in t.rivers:
        layers.append((r.area, m.types["rivers"][r.terrain]))
        for c in r.crossings:
            layers.append((r.crossing_area(c), m.types["crossings"][c.terrain]))
    cell_char = ["."] * (ncols * nlines)
    cell_style: list[Style] = [Style(color="#8a8470", bgcolor="#e6e2c8")] * (ncols * nlines)
    for geom, tt in layers:
        inside = shapely.contains_xy(geom, xs, ys)
        st = Style(color=_text_colour(tt.colour), bgcolor=tt.colour)
        for i in np.nonzero(inside)[0]:
            cell_char[i] = tt.symbol
            cell_style[i] = st
    colours = side_colours([{"side": u.side} for u in units])
    for u in sorted(units, key=lambda u: (u.side, u.id)):
        fill = u.colour or colours[u.side]
        st = Style(color=_text_colour(fill), bgcolor=fill, bold=True)
        b = u.on_table()
        inside = shapely.contains_xy(b.polygon, xs, ys)
        code = codes[u.id]
        for i in np.nonzero(inside)[0]:
            cell_char[i] = code[(i % ncols) % 2]
            cell_style[i] = st
        ci = min(max(int(b.x / per_col), 0), ncols - 1)
        li = min(max(int((t.height - b.y) / per_line), 0), nlines - 1)
        cell_char[li * ncols + ci] = ARROWS[int(((b.facing % 360) + 22.5) // 45) % 8]
        cell_style[li * ncols + ci] = st
    text = Text()
    ruler = [" "] * ncols
    for inch in range(0, int(t.width) + 1, 6):
        label = f"{inch}"
        pos = min(int(inch / per_col), ncols - len(label))
        for k, ch in enumerate(label):
            ruler[pos + k] = ch
    text.append("".join(ruler) + "\n", Style(color="#777777"))
    for j in range(nlines):
        for c in range(ncols):
            text.append(cell_char[j * ncols + c], cell_style[j * ncols + c])
        text.append("\n")
    text.append(f"1 character = {per_col:g}\" across, {per_line:g}\" down; north is up", Style(dim=True))
    return text


def _legend(m: Any) -> RichTable:
    from .mapsvg import _used_types

    tab = RichTable(title=None, show_header=True, header_style="bold", box=None, pad_edge=False)
    tab.add_column("sym")
    tab.add_column("terrain")
    tab.add_column("kind")
    for tt in _used_types(m):
        tab.add_row(Text(tt.symbol, Style(color=_text_colour(tt.colour), bgcolor=tt.colour)), tt.label, tt.group)
    return tab


def _unit_table(m: Any, units: list[PlacedUnit], codes: dict[str, str]) -> RichTable:
    """The units' legend: one line a unit, its code on the map, side, kind, and where it stands (a
    hex's later units are drawn under its first, so their line names the unit on top)."""
    colours = side_colours([{"side": u.side} for u in units])
    tab = RichTable(show_header=True, header_style="bold", box=None, pad_edge=False)
    first: dict[Any, PlacedUnit] = {}
    for u in sorted(units, key=lambda u: (u.side, u.id)):
        if u.hex is not None:
            first.setdefault(u.hex, u)
    for c in ("sym", "unit", "side", "kind", "where"):
        tab.add_column(c)
    for u in sorted(units, key=lambda u: (u.side, u.id)):
        fill = u.colour or colours[u.side]
        if u.hex is not None:
            where = m.label(u.hex)
            if first[u.hex] is not u:
                where += f", under {codes[first[u.hex].id]}"
        else:
            b = u.on_table()
            where = f"({b.x:g}, {b.y:g}) facing {b.facing:g}, {b.frontage:g}\"x{b.depth:g}\""
        ink = Style(color=_text_colour(fill), bgcolor=fill, bold=True)
        tab.add_row(Text(codes[u.id], ink), Text(u.label, ink), u.side, u.kind, where)
    return tab
