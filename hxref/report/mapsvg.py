"""SVG pictures of maps: hex maps and miniatures tables, with units as counters.

:func:`render_svg` takes a loaded map (:class:`~hxref.geometry.mapfile.HexMap` or
:class:`~hxref.geometry.mapfile.TableMap`) and the units to show, as plain dicts::

    {"id": "u1", "side": "union", "label": "1/Sheridan", "kind": "infantry",
     "hex": "0305"}                                     # on a hex map
    {"id": "a", "side": "csa", "label": "Inf A", "kind": "infantry",
     "x": 12, "y": 6, "facing": 0, "frontage": 6, "depth": 1}   # on a table

and, where the side's view tells them, what a counter shows of the unit:
``"strength"`` (its combat strength or ratings, as text), ``"steps"``, ``"state"``
(active, inactive, disrupted, ...), ``"stack"`` (how many counters stand there),
``"hits"`` (a table unit's hits carried) and ``"viewer": True`` for the side's
own units.  A key the view does not give is simply not drawn.

A side's view is drawn by passing only the units that side may see (the game
engine filters them); the picture shows exactly what it is given.  The output
is deterministic (fixed precision, fixed order), so it can be a golden file.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..base.errors import InvalidInput
from ..geometry.hex import Hex, hex_corners, hex_to_pixel, hexside_ends
from ..geometry.table import Base
from ..kit.protocol import MapMark
from . import turnmarks

HEX_SIZE = 30.0  # centre to corner, px
INCH = 16.0  # px per inch on table pictures
MARGIN = 24.0
TITLE_H = 30.0
MIN_WIDTH = 560.0
LEGEND_COL = 150.0

#: Colours for sides the shipped games use; other sides take the palette in order.
SIDE_COLOURS = {
    "union": "#2f4f9f",
    "us": "#2f4f9f",
    "usa": "#2f4f9f",
    "north": "#2f4f9f",
    "confederate": "#7a7a7a",
    "csa": "#7a7a7a",
    "cs": "#7a7a7a",
    "south": "#7a7a7a",
    "german": "#4d5d53",
    "germans": "#4d5d53",
    "american": "#6b8e23",
    "americans": "#6b8e23",
    "allied": "#6b8e23",
}
PALETTE = ("#b03a2e", "#1f6f8b", "#8e44ad", "#d68910", "#117a65", "#5d6d7e")


def side_colours(units: Iterable[dict]) -> dict[str, str]:
    """A colour for every side among ``units`` (known names first, then the palette)."""
    out: dict[str, str] = {}
    k = 0
    for side in sorted({str(u.get("side", "")) for u in units}):
        if side.lower() in SIDE_COLOURS:
            out[side] = SIDE_COLOURS[side.lower()]
        else:
            out[side] = PALETTE[k % len(PALETTE)]
            k += 1
    return out


@dataclass(frozen=True)
class PlacedUnit:
    """A unit dict checked against the map: its hex, or its base on the table."""

    id: str
    side: str
    label: str
    kind: str
    hex: Hex | None = None
    base: Base | None = None
    colour: str | None = None
    #: what the counter shows of the unit, as far as the view tells it (module text)
    strength: str = ""
    steps: int | None = None
    state: str = ""
    stack: int = 1
    hits: int | None = None
    viewer: bool = False

    def details(self) -> list[str]:
        """The counter's lines under the name: strength, steps, state, stack size, hits carried."""
        out = []
        if self.strength:
            out.append(self.strength)
        if self.steps is not None:
            out.append(plural(self.steps, "step"))
        if self.state:
            out.append(self.state)
        if self.stack > 1:
            out.append(f"stack of {self.stack}")
        if self.hits is not None:
            out.append(plural(self.hits, "hit"))
        return out

    def in_hex(self) -> Hex:
        """The unit's hex: every unit on a hex map has one (:func:`place_units`)."""
        if self.hex is None:
            raise ValueError(f"unit {self.id} stands on a table, not in a hex")
        return self.hex

    def on_table(self) -> Base:
        """The unit's base: every unit on a table has one (:func:`place_units`)."""
        if self.base is None:
            raise ValueError(f"unit {self.id} stands in a hex, not on a table")
        return self.base


def plural(n: int, word: str) -> str:
    """``1 hit``, ``2 hits``, ``0 hits``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _shown(u: dict) -> dict[str, Any]:
    """The counter details a unit dict gives (module text); the others keep their defaults."""
    out: dict[str, Any] = {"viewer": bool(u.get("viewer"))}
    if u.get("strength") not in (None, ""):
        out["strength"] = str(u["strength"])
    if u.get("state"):
        out["state"] = str(u["state"])
    for key in ("steps", "hits"):
        if u.get(key) is not None:
            out[key] = int(u[key])
    if u.get("stack"):
        out["stack"] = int(u["stack"])
    return out


def place_units(m: Any, units: Iterable[dict]) -> list[PlacedUnit]:
    """Check unit dicts against the map; InvalidInput naming the unit if one is off the map."""
    out = []
    for u in units:
        uid = str(u.get("id", "?"))
        side, label, kind, colour = str(u.get("side", "")), str(u.get("label", uid)), str(u.get("kind", "")), u.get("colour")
        shown = _shown(u)
        if m.kind == "hex":
            if "hex" not in u:
                raise InvalidInput(f"unit {uid} has no hex to be drawn in")
            try:
                h = m.parse(u["hex"])
            except InvalidInput as exc:
                raise InvalidInput(f"unit {uid}: {exc.message}") from None
            out.append(PlacedUnit(uid, side, label, kind, hex=h, colour=colour, **shown))
        else:
            try:
                base = Base(float(u["x"]), float(u["y"]), float(u.get("facing", 0)), float(u.get("frontage", 4)), float(u.get("depth", 1)))
            except (KeyError, TypeError, ValueError):
                raise InvalidInput(f"unit {uid} needs x and y in inches (and facing, frontage, depth) to be drawn on a table") from None
            out.append(PlacedUnit(uid, side, label, kind, base=base, colour=colour, **shown))
    return out


def _f(v: float) -> str:
    """A coordinate or size to a tenth of a unit (a twentieth of a pixel in a PNG drawn at twice the
    size): finer digits would only make the mail bigger."""
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


LABEL_FIT = 7          # characters a counter shows at the normal 7-point size
LABEL_MAX = 12         # a longer label is cut here (the full name is in the counter's tooltip)
MIN_FONT = 4.5         # the least counter text: 9 px in a picture drawn at twice the size (:mod:`.mappng`)


def _fit(label: str) -> str:
    """A smaller font for a long counter label, so the whole name fits the counter."""
    n = min(len(label), LABEL_MAX)
    return "" if n <= LABEL_FIT else f' font-size="{_f(max(MIN_FONT, 7 * LABEL_FIT / n))}"'


def _text_colour(bg: str) -> str:
    """Black or white, whichever reads better on ``bg`` (#rgb or #rrggbb)."""
    h = bg.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _svg_open(width: float, height: float, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{_esc(title)}</title>",
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="#fbfaf5"/>',
        f'<text x="{_f(MARGIN)}" y="{_f(MARGIN)}" font-size="16" font-weight="bold" fill="#222">{_esc(title)}</text>',
    ]


def render_svg(m: Any, units: Sequence[dict] = (), title: str | None = None, shots: Sequence[dict] = (),
               marks: Sequence[MapMark] = (), fog: Iterable[str] = (), viewer: str | None = None,
               focus: Sequence[str] | None = None) -> str:
    """An SVG picture of the map with ``units`` drawn as counters (see the module text).

    ``shots`` (tables only): the last shots to draw, each ``{"from": unit id, "to": unit id,
    "range": inches, "arc": degrees either side of the front, "label": text}``: the shooter's
    field of fire out to its range, and an arrow to the target with the label; when ``marks``
    hold shots, only those shooters' fields are drawn.  ``marks``: what happened in the turn
    (:class:`~hxref.kit.protocol.MapMark`, :mod:`.turnmarks`), ``viewer``'s own moves solid and the
    enemy's dashed.  ``fog``: the hexes the reader cannot see, shaded.  ``focus``: hexes (unit
    ids on a table) the picture is cropped to, with a margin; None draws the whole map."""
    placed = place_units(m, units)
    title = title or m.title or m.id
    if m.kind == "hex":
        return _hex_svg(m, placed, title, marks, set(fog), viewer, focus)
    return _table_svg(m, placed, title, shots, marks, focus)


def hex_centres(m: Any) -> tuple[float, dict[str, tuple[float, float]]]:
    """Where :func:`render_svg` draws each hex of the whole map ``m`` (no ``focus``): the hex size
    (centre to corner) and every hex's centre by its label, in the picture's own coordinates, read
    from the very frame the picture is drawn with (the order page finds the hex under a click
    from them); none for a measured table."""
    if m.kind != "hex":
        return 0.0, {}
    fr = _hex_frame(m)[0]
    return fr.s, {m.label(h): tuple(round(v, 2) for v in fr.at(h)) for h in m.hexes()}  # type: ignore[misc]


# --------------------------------------------------------------------------
# hex maps


@dataclass(frozen=True)
class _Frame:
    """Where a hex map sits in its picture: the hex size and the offset added to every point."""

    s: float
    ox: float
    oy: float

    def at(self, h: Hex) -> tuple[float, float]:
        """The centre of hex ``h`` in the picture."""
        x, y = hex_to_pixel(h, self.s)
        return x + self.ox, y + self.oy

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The corners of hex ``h`` in the picture."""
        return [(x + self.ox, y + self.oy) for x, y in hex_corners(h, self.s)]


def _hex_frame(m: Any) -> tuple[_Frame, float, float, float]:
    """Where the whole map sits in its picture: the frame, the picture's width and height, and the
    legend's height."""
    s = HEX_SIZE
    hexes = m.hexes()
    xs = [x for h in hexes for x, _ in hex_corners(h, s)]
    ys = [y for h in hexes for _, y in hex_corners(h, s)]
    width = max(max(xs) - min(xs) + 2 * MARGIN, MIN_WIDTH)
    fr = _Frame(s, (width - (max(xs) - min(xs))) / 2 - min(xs), MARGIN + TITLE_H - min(ys))
    legend_h = _legend_height(_used_types(m), width)
    height = max(ys) - min(ys) + 2 * MARGIN + TITLE_H + legend_h
    return fr, width, height, legend_h


#: how much map a cropped picture keeps around the hexes it is cropped to, in hexes
FOCUS_MARGIN = 1.1
#: the least width of a cropped picture (px of the picture), so that a lone unit is shown in its place
FOCUS_MIN_WIDTH = 330.0


def _focus_box(points: list[tuple[float, float]], pad: float, bounds: tuple[float, float, float, float],
               min_width: float = FOCUS_MIN_WIDTH) -> tuple[float, float, float, float]:
    """The box (x, y, w, h) around ``points`` with ``pad`` on every side, at least ``min_width`` wide
    and three quarters as high, kept inside ``bounds``."""
    x0, x1 = min(p[0] for p in points) - pad, max(p[0] for p in points) + pad
    y0, y1 = min(p[1] for p in points) - pad, max(p[1] for p in points) + pad
    bx, by, bw, bh = bounds
    if x1 - x0 < min_width:
        c = (x0 + x1) / 2
        x0, x1 = c - min_width / 2, c + min_width / 2
    if y1 - y0 < (x1 - x0) * 0.75:
        c = (y0 + y1) / 2
        y0, y1 = c - (x1 - x0) * 0.375, c + (x1 - x0) * 0.375
    x0, y0 = max(x0, bx), max(y0, by)
    x1, y1 = min(x1, bx + bw), min(y1, by + bh)
    return x0, y0, x1 - x0, y1 - y0


def _cropped(out: list[str], box: tuple[float, float, float, float], title: str) -> list[str]:
    """The picture in ``out`` cropped to ``box``: its size and view box changed, the title written
    again at the box's top left over a pale band (the whole picture's title is outside it), smaller
    where it would not fit."""
    x, y, w, h = box
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(w)}" height="{_f(h)}" '
            f'viewBox="{_f(x)} {_f(y)} {_f(w)} {_f(h)}" font-family="DejaVu Sans, Arial, sans-serif">')
    band = (f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="18" fill="#fbfaf5" fill-opacity="0.85"/>'
            f'<text x="{_f(x + 4)}" y="{_f(y + 13)}" font-size="{_f(min(11.0, (w - 8) / (0.62 * max(len(title), 1))))}" '
            f'font-weight="bold" fill="#222">{_esc(title)}</text>')
    return [head] + out[1:-1] + [band, out[-1]]


def hex_focus(m: Any, labels: Iterable[str]) -> list[Hex]:
    """The hexes of ``labels`` that are on the map (a label not on it is left out)."""
    out = []
    for label in labels:
        try:
            out.append(m.parse(label))
        except InvalidInput:
            continue
    return out


def _hex_svg(m: Any, units: list[PlacedUnit], title: str, marks: Sequence[MapMark] = (),
             fog: set[str] | None = None, viewer: str | None = None, focus: Sequence[str] | None = None) -> str:
    """A hex map as SVG, layer over layer: terrain and elevation, lines, hexsides, features in hexes,
    hex labels, the crossings, the fog, the counters, the turn's marks, the place names (last, so that
    nothing covers them), then the legend below."""
    fr, width, height, legend_h = _hex_frame(m)
    if fog:                                  # a line more in the legend: the hatch of unseen hexes
        height, legend_h = height + 22, legend_h + 22
    hexes = m.hexes()
    out = _svg_open(width, height, title)
    out += _terrain_layer(m, hexes, fr)
    out += _lines_layer(m, fr)
    out.append('<g id="hexsides" stroke-linecap="round">')
    for side in sorted(m.sides):
        out += _hexside_features(m, side, fr)
    out.append("</g>")
    out += _features_layer(m, hexes, fr)
    out += _labels_layer(m, hexes, fr)
    out += _crossings_layer(m, fr)
    out += _fog_layer(m, fog or set(), fr)
    out += _counters_layer(m, units, fr)
    out += turnmarks.hex_marks(m, marks, fr, viewer, side_colours([{"side": u.side} for u in units]
                                                                  + [{"side": k.side} for k in marks if k.side]))
    out += _places_layer(m, fr, {u.in_hex() for u in units})
    out.extend(_legend(_used_types(m), MARGIN, height - legend_h + 4, width))
    if fog:
        out.append(_fog_key(MARGIN, height - 10))
    out.append("</svg>")
    if focus is not None:
        spots = hex_focus(m, focus)
        if spots:
            pts = [fr.at(h) for h in spots]
            box = _focus_box(pts, HEX_SIZE * (1 + FOCUS_MARGIN), (0, MARGIN + TITLE_H - 4, width,
                                                                   height - legend_h - MARGIN - TITLE_H + 4))
            out = _cropped(out, box, title)
    return "\n".join(out) + "\n"


def _fog_layer(m: Any, fog: set[str], fr: _Frame) -> list[str]:
    """The hexes the reader cannot see, under a grey hatch: an empty hex and an unseen one differ."""
    if not fog:
        return []
    # level lines, not slanted ones: a PNG of them is a few rows repeated, which compresses to little
    out = ['<defs><pattern id="fog-hatch" width="6" height="6" patternUnits="userSpaceOnUse">'
           '<rect width="6" height="6" fill="#8c8c8c" fill-opacity="0.35"/>'
           '<line x1="0" y1="0.6" x2="6" y2="0.6" stroke="#555" stroke-width="1.2" stroke-opacity="0.45"/></pattern></defs>',
           '<g id="fog" stroke="none" fill="url(#fog-hatch)">']
    for h in hex_focus(m, sorted(fog)):
        x, y = fr.at(h)
        out.append(f'<use href="#hex" x="{_f(x)}" y="{_f(y)}"/>')       # the hex of the terrain layer
    out.append("</g>")
    return out


def _fog_key(x: float, y: float) -> str:
    return (f'<g id="fog-key" font-size="9" fill="#222"><rect x="{_f(x)}" y="{_f(y - 10)}" width="16" height="12" '
            f'fill="url(#fog-hatch)" stroke="#555" stroke-width="0.6"/><text x="{_f(x + 21)}" y="{_f(y)}">'
            "out of sight: what stands there is not shown</text></g>")


def _terrain_layer(m: Any, hexes: list[Hex], fr: _Frame) -> list[str]:
    """Each hex in its terrain's colour (one hex drawn once and used everywhere, the hexes of a terrain in
    one group: the terrain's name is the group's tooltip, and a hex whose label is longer than the one
    drawn on it has its own), then the hexes above level 0 shaded darker the higher they are."""
    corners = [(fr.s * math.cos(math.radians(60 * k)), fr.s * math.sin(math.radians(60 * k))) for k in range(6)]
    out = [f'<defs><polygon id="hex" points="{_pts(corners)}"/></defs>',
           '<g id="hexes" stroke="#6b6b5a" stroke-width="0.8">']
    short = getattr(m.grid.labels, "format_short", m.label)
    by_terrain: dict[tuple[str, str], list[Hex]] = {}
    for h in hexes:
        by_terrain.setdefault((m.terrain(h).label, m.terrain(h).colour), []).append(h)
    for group in by_terrain.values():
        tt = m.terrain(group[0])
        out.append(f'<g fill="{tt.colour}"><title>{_esc(tt.label)}</title>')
        for h in group:
            x, y = fr.at(h)
            use = f'<use href="#hex" x="{_f(x)}" y="{_f(y)}"'
            full = m.label(h)       # a tooltip of its own where the hex shows a shorter label than its name
            out.append(f"{use}><title>{_esc(full)}: {_esc(tt.label)}</title></use>" if full != short(h) else f"{use}/>")
        out.append("</g>")
    out.append("</g>")
    levels = [(h, m.elevation(h)) for h in hexes if m.elevation(h) > 0]
    if levels:
        out.append('<g id="elevation" stroke="none">')
        for h, lv in levels:
            op = min(0.12 * lv, 0.5)
            out.append(f'<polygon points="{_pts(fr.corners(h))}" fill="#7a4b1e" fill-opacity="{_f(op)}"/>')
        out.append("</g>")
    return out


def _lines_layer(m: Any, fr: _Frame) -> list[str]:
    """Lines (roads, railroads) from hex centre to hex centre; a railroad with its ties."""
    out = ['<g id="lines" fill="none" stroke-linecap="round" stroke-linejoin="round">']
    for ln in m.lines:
        tt = m.types["lines"][ln.type]
        pts = _pts(fr.at(h) for h in ln.hexes)
        if ln.type.startswith("rail"):
            out.append(f'<polyline points="{pts}" stroke="{tt.colour}" stroke-width="2"/>')
            out.append(f'<polyline points="{pts}" stroke="{tt.colour}" stroke-width="6" stroke-dasharray="1.5 5" stroke-linecap="butt"/>')
        else:
            out.append(f'<polyline points="{pts}" stroke="{tt.colour}" stroke-width="3.5"/>')
    out.append("</g>")
    return out


def _hexside_features(m: Any, side: Any, fr: _Frame) -> list[str]:
    """One hexside's features along the side (a directed one with ticks towards the hex it is drawn
    in); its crossings are drawn later, above the labels (:func:`_crossings_layer`)."""
    s = fr.s
    info = m.sides[side]
    types = m.types["hexside"]
    (x1, y1), (x2, y2) = hexside_ends(side, s)
    x1, y1, x2, y2 = x1 + fr.ox, y1 + fr.oy, x2 + fr.ox, y2 + fr.oy
    out = []
    for f in sorted(info.features):
        tt = types[f]
        if tt.replaces:
            continue
        out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" stroke="{tt.colour}" stroke-width="{5 if "river" in f else 3}"/>')
        if tt.directed and info.drawn_in is not None:
            cx, cy = fr.at(info.drawn_in)
            for k in (0.2, 0.4, 0.6, 0.8):
                px, py = x1 + (x2 - x1) * k, y1 + (y2 - y1) * k
                out.append(f'<line x1="{_f(px)}" y1="{_f(py)}" x2="{_f(px + (cx - px) * 0.18)}" y2="{_f(py + (cy - py) * 0.18)}" stroke="{tt.colour}" stroke-width="1.5"/>')
    return out


def _crossings_layer(m: Any, fr: _Frame) -> list[str]:
    """The crossings (bridges, fords, ferries) across hexsides, drawn above the hex labels so that no
    label hides the one crossing a player needs (and under the counters, which it must not cut): a bar across the hexside from hex
    centre to hex centre, with a white casing, a ford's dashed."""
    types = m.types["hexside"]
    out = ['<g id="crossings" stroke-linecap="butt">']
    for side in sorted(m.sides):
        for f in sorted(m.sides[side].features):
            tt = types[f]
            if not tt.replaces:
                continue
            (ax, ay), (bx, by) = fr.at(side.a), fr.at(side.b)
            ends = (f'x1="{_f(ax + (bx - ax) * 0.3)}" y1="{_f(ay + (by - ay) * 0.3)}" '
                    f'x2="{_f(ax + (bx - ax) * 0.7)}" y2="{_f(ay + (by - ay) * 0.7)}"')
            dash = ' stroke-dasharray="3 2"' if "ford" in f else ""
            out.append(f'<g class="crossing" data-type="{_esc(f)}"><title>{_esc(tt.label)}: {_esc(m.label(side.a))}/'
                       f'{_esc(m.label(side.b))}</title><line {ends} stroke="#fbfaf5" stroke-width="9"/>'
                       f'<line {ends} stroke="{tt.colour}" stroke-width="6"{dash}/></g>')
    out.append("</g>")
    return out


def _haloed(x: float, y: float, text: str) -> str:
    """A label with a pale halo under it, so it reads over roads and rivers: the halo is a second text
    drawn first (every SVG renderer draws it; not all know ``paint-order``)."""
    at = f'x="{_f(x)}" y="{_f(y)}"'
    return (f'<text {at} fill="#fbfaf5" stroke="#fbfaf5" stroke-width="3" stroke-linejoin="round">{_esc(text)}</text>'
            f'<text {at}>{_esc(text)}</text>')


def _covers_hex(tt: Any) -> bool:
    """A feature that is ground rather than a place (a hill: it gives the hex its elevation in the
    rules) is drawn over the whole hex, not as a mark at its centre."""
    return isinstance(tt.rules, dict) and "elevation" in tt.rules


def _features_layer(m: Any, hexes: list[Hex], fr: _Frame) -> list[str]:
    """The features in hexes (towns, buildings), side by side about the hex centre."""
    out = ['<g id="ground" stroke="none">']
    for h in hexes:
        for f in m.features(h):
            tt = m.types["features"][f]
            if _covers_hex(tt):
                out.append(f'<polygon class="ground" data-type="{_esc(f)}" points="{_pts(fr.corners(h))}" fill="{tt.colour}" '
                           f'fill-opacity="0.45"><title>{_esc(m.label(h))}: {_esc(tt.label)}</title></polygon>')
    out.append("</g>")
    out.append('<g id="features" stroke="#222" stroke-width="0.8">')
    for h in hexes:
        feats = [f for f in m.features(h) if not _covers_hex(m.types["features"][f])]
        for k, f in enumerate(feats):
            tt = m.types["features"][f]
            x, y = fr.at(h)
            x += (k - (len(feats) - 1) / 2) * 10
            out.append(f'<rect x="{_f(x - 4.5)}" y="{_f(y - 4.5)}" width="9" height="9" fill="{tt.colour}"><title>{_esc(tt.label)}</title></rect>')
    out.append("</g>")
    return out


def _labels_layer(m: Any, hexes: list[Hex], fr: _Frame) -> list[str]:
    """Each hex's short label and elevation level, then the place names."""
    s = fr.s
    out = ['<g id="labels" font-size="7" fill="#333" text-anchor="middle">']
    short = getattr(m.grid.labels, "format_short", m.label)
    for h in hexes:
        x, y = fr.at(h)
        out.append(f'<text x="{_f(x)}" y="{_f(y - s * 0.6)}">{_esc(short(h))}</text>')
        lv = m.elevation(h)
        if lv:
            out.append(f'<text x="{_f(x - s * 0.55)}" y="{_f(y + 2.5)}" font-size="6.5" fill="#5a3410">L{_esc(_f(lv))}</text>')
    out.append("</g>")
    return out


#: where a place name may go, as a share of the hex size below its hex's centre, in order of preference
PLACE_SPOTS = (0.62, 0.98, -0.22, 1.3)


def _places_layer(m: Any, fr: _Frame, occupied: set[Hex]) -> list[str]:
    """The place names, drawn last with a halo so that nothing covers them: in the hex's lower part,
    or where the name would cover a counter (in its hex or the next), the first spot of
    :data:`PLACE_SPOTS` where it covers none."""
    s = fr.s
    half = s * 1.05 / 2 + 2                       # a counter's half width, with its fan
    boxes = [(x - half, y - half, x + half, y + half) for x, y in (fr.at(h) for h in occupied)]
    out = ['<g id="places" font-size="9" font-weight="bold" fill="#1b1b1b" text-anchor="middle" stroke="none">']
    for name, h in sorted(m.places.items(), key=lambda kv: (kv[1], kv[0])):
        x, y = fr.at(h)
        w = 5.6 * len(name) / 2
        spot = next((k for k in PLACE_SPOTS
                     if not any(x - w < bx1 and bx0 < x + w and y + s * k - 8 < by1 and by0 < y + s * k + 2
                                for bx0, by0, bx1, by1 in boxes)), PLACE_SPOTS[1])
        out.append(_haloed(x, y + s * spot, name))
    out.append("</g>")
    return out


def _counters_layer(m: Any, units: list[PlacedUnit], fr: _Frame) -> list[str]:
    """The units as counters in their sides' colours, a stack's counters each offset a little: the
    name, then what the view tells of the unit (strength, steps, state, stack size), else its kind.
    A side's own counters have a gold edge."""
    s = fr.s
    colours = side_colours([{"side": u.side} for u in units])
    stacks: dict[Hex, int] = {}
    sizes: dict[Hex, int] = {}
    for u in units:
        sizes[u.in_hex()] = sizes.get(u.in_hex(), 0) + 1
    out = ['<g id="units" font-size="7" text-anchor="middle">']
    for u in sorted(units, key=lambda u: (u.hex, u.side, u.id)):
        h = u.in_hex()
        k = stacks.get(h, 0)
        stacks[h] = k + 1
        x, y = fr.at(h)
        dx, dy = _fanned(k, sizes[h], s)
        x, y = x + dx, y + dy
        w = s * 1.05
        fill = u.colour or colours[u.side]
        ink = _text_colour(fill)
        details = u.details()
        lines = details[:2] if details else [u.kind[:10]]
        edge = ' stroke="#e0b000" stroke-width="1.6"' if u.viewer else ' stroke="#111" stroke-width="1"'
        about = "; ".join([u.kind] + details) if u.kind else "; ".join(details)
        body = "".join(
            f'<text class="detail" x="{_f(x)}" y="{_f(y + 3.5 + 6.5 * i)}" fill="{ink}"{_fit_small(t)}>'
            f'{_esc(t[:LABEL_MAX])}</text>' for i, t in enumerate(lines))
        out.append(
            f'<g class="unit" data-id="{_esc(u.id)}" data-side="{_esc(u.side)}"><title>{_esc(u.label)} ({_esc(u.side)}'
            f'{", " + _esc(about) if about else ""}) in {_esc(m.label(u.hex))}</title>'
            f'<rect x="{_f(x - w / 2)}" y="{_f(y - w / 2)}" width="{_f(w)}" height="{_f(w)}" rx="2" fill="{fill}"{edge}/>'
            f'<text x="{_f(x)}" y="{_f(y - 5)}" fill="{ink}" font-weight="bold"{_fit(u.label)}>'
            f'{_esc(u.label[:LABEL_MAX])}</text>{body}</g>'
        )
    out.append("</g>")
    return out


#: how far a stack's counters are fanned in all, as a share of the hex size: the stack stays in its hex
FAN_SPREAD = 0.4


def _fanned(k: int, n: int, s: float) -> tuple[float, float]:
    """Where the ``k``-th of ``n`` counters in a hex sits from the hex centre: fanned up and to the
    right, 3 px apart or closer, the whole fan centred so that no counter leaves the hex."""
    if n <= 1:
        return 0.0, 0.0
    step = min(3.0, s * FAN_SPREAD / (n - 1))
    off = (k - (n - 1) / 2) * step
    return off, -off


def _fit_small(text: str) -> str:
    """A detail line's font: 5.5 points, which fit about nine characters; smaller for a longer line
    (one font-size attribute: an SVG element with two is not XML)."""
    n = min(len(text), LABEL_MAX)
    return f' font-size="{_f(5.5 if n <= 9 else max(MIN_FONT, 5.5 * 9 / n))}"'


def _used_types(m: Any) -> list[Any]:
    used: list[Any] = []
    seen: set[tuple[str, str]] = set()

    def add(tt: Any) -> None:
        if (tt.group, tt.name) not in seen:
            seen.add((tt.group, tt.name))
            used.append(tt)

    if m.kind == "hex":
        for h in m.hexes():
            add(m.terrain(h))
            for f in m.features(h):
                add(m.types["features"][f])
        for info in m.sides.values():
            for f in sorted(info.features):         # a set: sorted, so that two copies draw the same legend
                add(m.types["hexside"][f])
        for ln in m.lines:
            add(m.types["lines"][ln.type])
    else:
        for a in m.table.areas:
            add(m.types["areas"][a.terrain])
        for r in m.table.rivers:
            add(m.types["rivers"][r.terrain])
            for c in r.crossings:
                add(m.types["crossings"][c.terrain])
        for r in m.table.roads:
            add(m.types["roads"][r.terrain])
    return used


def _legend_columns(width: float) -> int:
    return max(1, int((width - 2 * MARGIN) // LEGEND_COL))


def _legend_height(types: list[Any], width: float) -> float:
    n = _legend_columns(width)
    return 22.0 * ((len(types) + n - 1) // n) + 16


def _legend(types: list[Any], x0: float, y0: float, width: float) -> list[str]:
    out = ['<g id="legend" font-size="9" fill="#222">']
    n = _legend_columns(width)
    for i, tt in enumerate(types):
        x = x0 + (i % n) * LEGEND_COL
        y = y0 + (i // n) * 22
        if tt.group in ("hexside", "lines", "rivers", "roads") and not tt.replaces:
            out.append(f'<line x1="{_f(x)}" y1="{_f(y + 7)}" x2="{_f(x + 16)}" y2="{_f(y + 7)}" stroke="{tt.colour}" stroke-width="4"/>')
        else:
            out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="16" height="14" fill="{tt.colour}" stroke="#555" stroke-width="0.6"/>')
        out.append(f'<text x="{_f(x + 21)}" y="{_f(y + 11)}">{_esc(tt.label)}</text>')
    out.append("</g>")
    return out


# --------------------------------------------------------------------------
# tables


def _table_svg(m: Any, units: list[PlacedUnit], title: str, shots: Sequence[dict] = (),
               marks: Sequence[MapMark] = (), focus: Sequence[str] | None = None) -> str:
    t = m.table
    k = INCH
    legend_types = _used_types(m)
    width = max(t.width * k + 2 * MARGIN + 14, MIN_WIDTH)
    ox, oy = (width - t.width * k) / 2 + 7, MARGIN + TITLE_H
    legend_h = _legend_height(legend_types, width)
    height = t.height * k + 2 * MARGIN + TITLE_H + 14 + legend_h

    def p(x: float, y: float) -> tuple[float, float]:
        return ox + x * k, oy + (t.height - y) * k

    def poly(geom: Any) -> list[str]:
        geoms = getattr(geom, "geoms", [geom])
        return [_pts(p(x, y) for x, y in g.exterior.coords[:-1]) for g in geoms if not g.is_empty and hasattr(g, "exterior")]

    out = _svg_open(width, height, title)
    out.append(f'<rect x="{_f(ox)}" y="{_f(oy)}" width="{_f(t.width * k)}" height="{_f(t.height * k)}" fill="#e6e2c8" stroke="#444" stroke-width="1.5"/>')
    out.append('<g id="grid" stroke="#cfc9a8" stroke-width="0.6" font-size="8" fill="#777">')
    step = 6
    for i in range(0, int(t.width) + 1, step):
        x0, y0 = p(i, 0)
        x1, y1 = p(i, t.height)
        out.append(f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}"/>')
        out.append(f'<text x="{_f(x0)}" y="{_f(y0 + 11)}" text-anchor="middle" stroke="none">{i}"</text>')
    for j in range(0, int(t.height) + 1, step):
        x0, y0 = p(0, j)
        x1, y1 = p(t.width, j)
        out.append(f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}"/>')
        out.append(f'<text x="{_f(x0 - 3)}" y="{_f(y0 + 3)}" text-anchor="end" stroke="none">{j}"</text>')
    out.append("</g>")
    out.append('<g id="areas" stroke-width="1">')
    for a in t.areas:
        tt = m.types["areas"][a.terrain]
        for pts in poly(a.polygon):
            out.append(f'<polygon points="{pts}" fill="{tt.colour}" fill-opacity="0.9" stroke="#3d3d2d"><title>{_esc(a.name or tt.label)}</title></polygon>')
    out.append("</g>")
    out.append('<g id="watercourses" stroke="none">')
    for r in t.roads:
        tt = m.types["roads"][r.terrain]
        for pts in poly(r.area):
            out.append(f'<polygon points="{pts}" fill="{tt.colour}"><title>{_esc(r.name or tt.label)}</title></polygon>')
    for r in t.rivers:
        tt = m.types["rivers"][r.terrain]
        for pts in poly(r.area):
            out.append(f'<polygon points="{pts}" fill="{tt.colour}"><title>{_esc(r.name or tt.label)}</title></polygon>')
        for c in r.crossings:
            ct = m.types["crossings"][c.terrain]
            dash = ' stroke-dasharray="3 2"' if "ford" in c.terrain else ""
            for pts in poly(r.crossing_area(c)):
                out.append(f'<polygon points="{pts}" fill="{ct.colour}" stroke="#222" stroke-width="0.8"{dash}><title>{_esc(ct.label)}</title></polygon>')
    out.append("</g>")
    out.append('<g id="labels" font-size="10" font-weight="bold" fill="#1b1b1b" text-anchor="middle" stroke="none">')
    for a in t.areas:
        if a.name:
            c = a.polygon.representative_point()
            x, y = p(c.x, c.y)
            out.append(_haloed(x, y, a.name))
    for name, (x, y) in sorted(m.places.items()):
        px, py = p(x, y)
        out.append(f'<circle cx="{_f(px)}" cy="{_f(py)}" r="2.5" fill="#1b1b1b" stroke="none"/>' + _haloed(px, py - 5, name))
    out.append("</g>")
    colours = side_colours([{"side": u.side} for u in units])
    fired = [k for k in marks if k.kind == "shot" and len(k.at) == 2]
    if fired:       # this turn's shooters only, each with the label its mark gives
        told = {(k.at[0], k.at[1]): k.label for k in fired}
        shots = [dict(sh, label=told[pair]) for sh in shots
                 if (pair := (str(sh.get("from")), str(sh.get("to")))) in told]
    out.extend(_shots_svg(t, {u.id: u for u in units}, shots, colours, p, poly))
    out.append('<g id="units" font-size="8" text-anchor="middle">')
    for u in sorted(units, key=lambda u: (u.side, u.id)):
        b = u.on_table()
        fill = u.colour or colours[u.side]
        corners = [p(x, y) for x, y in b.corners()]
        (fx0, fy0), (fx1, fy1) = corners[0], corners[1]
        cx, cy = p(b.x, b.y)
        ink = _text_colour(fill)
        out.append(
            f'<g class="unit" data-id="{_esc(u.id)}" data-side="{_esc(u.side)}"><title>{_esc(u.label)} ({_esc(u.side)}'
            f'{", " + _esc(u.kind) if u.kind else ""}) at ({_f(b.x)}, {_f(b.y)}) facing {_f(b.facing)}</title>'
            f'<polygon points="{_pts(corners)}" fill="{fill}" stroke="#111" stroke-width="1"/>'
            f'<line x1="{_f(fx0)}" y1="{_f(fy0)}" x2="{_f(fx1)}" y2="{_f(fy1)}" stroke="#f1c40f" stroke-width="2.5"/>'
            f'<text x="{_f(cx)}" y="{_f(cy + 3)}" fill="{ink}" font-weight="bold" transform="rotate({_f(_upright(b.facing))} {_f(cx)} {_f(cy)})">{_esc(u.label[:10])}</text>'
            + _base_details(u, cx, cy, ink) + "</g>"
        )
    out.append("</g>")
    out.extend(_legend(legend_types, MARGIN, height - legend_h + 4, width))
    out.append("</svg>")
    spots = [u.on_table() for u in units if focus is not None and u.id in focus]
    if spots:
        corners = [p(x, y) for b in spots for x, y in b.corners()]
        out = _cropped(out, _focus_box(corners, 6 * k, (ox - 14, oy - 4, t.width * k + 18, t.height * k + 18)), title)
    return "\n".join(out) + "\n"


def _shots_svg(table: Any, by_id: dict, shots: Sequence[dict], colours: dict, p, poly) -> list[str]:
    """The shots: each shooter's field of fire clipped to its range, as an outline, and an arrow from
    the shooter to its target, labelled where no unit covers the label."""
    if not shots:
        return []
    from ..geometry.table import fire_zone

    out = ['<defs><marker id="shot-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto" markerUnits="userSpaceOnUse"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>',
           '<g id="shots" font-size="9" font-weight="bold" text-anchor="middle">']
    board = table.edge
    bases = [u.base.polygon for u in by_id.values() if u.base is not None]
    for s in shots:
        a, b = by_id.get(s.get("from")), by_id.get(s.get("to"))
        if a is None or a.base is None:
            continue
        reach = float(s.get("range", 12))
        zone = fire_zone(a.base, reach, float(s.get("arc", 45))).intersection(a.base.polygon.buffer(reach))
        if board is not None:
            zone = zone.intersection(board)
        ink = colours.get(a.side, "#333")
        for pts in poly(zone):
            out.append(f'<polygon points="{pts}" fill="none" stroke="{ink}" stroke-opacity="0.7" '
                       f'stroke-dasharray="4 3" stroke-width="1.2"><title>{_esc(a.label)}: field of fire, {_f(reach)}" '
                       'range</title></polygon>')
        if b is not None and b.base is not None:
            (x0, y0), (x1, y1) = p(a.base.x, a.base.y), p(*_edge_of(a.base, b.base))
            out.append(f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}" stroke="#c0392b" '
                       'stroke-width="2" marker-end="url(#shot-head)"><title>'
                       f'{_esc(a.label)} shoots at {_esc(b.label)}</title></line>')
            if s.get("label"):
                lx, ly = _label_spot(a.base, b.base, bases, p)
                out.append('<g fill="#c0392b">' + _haloed(lx, ly, str(s["label"])) + "</g>")
    out.append("</g>")
    return out


def _edge_of(a: Base, b: Base) -> tuple[float, float]:
    """Where the line from ``a``'s centre to ``b``'s meets ``b``'s base (inches): the shot's arrowhead
    stops there, not under the target's base."""
    from shapely.geometry import LineString

    outside = LineString([(a.x, a.y), (b.x, b.y)]).difference(b.polygon)
    parts = list(getattr(outside, "geoms", [outside]))
    ends = [pt for g in parts if not g.is_empty for pt in g.coords]
    if not ends:
        return b.x, b.y
    return min(ends, key=lambda pt: (pt[0] - b.x) ** 2 + (pt[1] - b.y) ** 2)


def _label_spot(a: Base, b: Base, bases: list, p) -> tuple[float, float]:
    """Where a shot's label goes: the first point along the shot, from its middle outwards, whose
    label would cover no unit's base (else the middle)."""
    from shapely.geometry import box

    for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
        x, y = a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t
        spot = box(x - 3.2, y - 0.2, x + 3.2, y + 1.0)      # the label's extent, in inches
        if not any(spot.intersects(g) for g in bases):
            px, py = p(x, y)
            return px, py - 3
    px, py = p((a.x + b.x) / 2, (a.y + b.y) / 2)
    return px, py - 3


def _base_details(u: PlacedUnit, cx: float, cy: float, ink: str) -> str:
    """What the view tells of a table unit (hits carried, state), written on its base under its name."""
    details = u.details()
    if not details or u.base is None:
        return ""
    text = ", ".join(details)
    return (f'<text class="detail" x="{_f(cx)}" y="{_f(cy + 9)}" fill="{ink}" font-size="6" '
            f'transform="rotate({_f(_upright(u.base.facing))} {_f(cx)} {_f(cy)})">{_esc(text)}</text>')


def _upright(facing: float) -> float:
    """Text rotation along a unit's front edge that never reads upside down."""
    f = facing % 360.0
    return f if f <= 90 or f >= 270 else f - 180
