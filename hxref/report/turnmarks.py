"""The turn drawn on a hex map: what :class:`~hxref.kit.protocol.MapMark` records say happened.

Drawn above the counters (:mod:`.mapsvg` calls :func:`hex_marks`):

* a ``move``, ``advance`` or ``retreat`` is an arrow along its path, hex centre to hex centre (a
  ring on each hex passed: a path is not a river), stopping short of the last counter: the reader's own side solid, another side dashed; a
  retreat in a dark red, dotted;
* an ``attack`` is a red arrow from each attacking hex to the target, and the ``result`` a
  label at the top of the target hex, above its counters;
* an ``eliminated`` unit is a ghost counter (a dashed outline, crossed) in its hex, and a
  ``killed`` leader a crossed ring left of the hex with his name before it, the next one below.

Every mark names what it shows in its tooltip (``<title>``).  A mark naming a hex the map has
not is left out (the marks come from the events: a unit that left the map names no hex of it).
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from ..base.errors import InvalidInput
from ..kit.protocol import MapMark

ATTACK = "#c0392b"
RETREAT = "#8b1a1a"
PATH_KINDS = ("move", "advance", "retreat")
#: the order marks are drawn in, bottom to top: paths, attacks, losses, then the results, which nothing covers
LAYER = {"move": 0, "advance": 0, "retreat": 0, "attack": 1, "shot": 1, "eliminated": 2, "killed": 2, "result": 3}


def _fmt(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _esc(text: str) -> str:
    import html

    return html.escape(str(text), quote=True)


def _hexes(m: Any, labels: Sequence[str]) -> list | None:
    """The hexes of ``labels``; None when one is not on the map."""
    try:
        return [m.parse(x) for x in labels]
    except InvalidInput:
        return None


def _shorten(a: tuple[float, float], b: tuple[float, float], start: float, end: float
             ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The segment a-b with ``start`` px cut from its start and ``end`` px from its end."""
    d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _marker(mid: str, colour: str) -> str:
    return (f'<marker id="{mid}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="9" markerHeight="9" '
            f'orient="auto" markerUnits="userSpaceOnUse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')


def hex_marks(m: Any, marks: Sequence[MapMark], fr: Any, viewer: str | None, colours: dict[str, str]) -> list[str]:
    """The SVG of ``marks`` on hex map ``m`` drawn in frame ``fr`` (:class:`.mapsvg._Frame`);
    ``viewer`` the reader's side (its moves solid), ``colours`` each side's colour."""
    if not marks:
        return []
    s = fr.s
    heads: dict[str, str] = {}

    def head(colour: str) -> str:
        if colour not in heads:
            heads[colour] = f"head-{len(heads) + 1}"
        return heads[colour]

    body: list[str] = []
    losses: dict[str, int] = {}         # hex -> the losses marked there so far (each drawn below the last)
    for k in sorted(marks, key=lambda k: LAYER.get(k.kind, 1)):
        hexes = _hexes(m, k.at)
        if not hexes:
            continue
        pts = [fr.at(h) for h in hexes]
        what = _esc(k.label or k.kind)
        if k.kind in PATH_KINDS and len(pts) >= 2:
            colour = RETREAT if k.kind == "retreat" else colours.get(k.side or "", "#333")
            a, _ = _shorten(pts[0], pts[1], s * 0.3, 0)
            _, b = _shorten(pts[-2], pts[-1], 0, s * 0.6)
            line = [a] + pts[1:-1] + [b]
            dash = (' stroke-dasharray="5 3"' if k.kind == "retreat"
                    else "" if viewer is None or k.side == viewer else ' stroke-dasharray="7 4"')
            body.append(f'<polyline class="mark {k.kind}" points="{" ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in line)}" '
                        f'fill="none" stroke="{colour}" stroke-width="3.5" stroke-linejoin="round" stroke-linecap="round"'
                        f'{dash} marker-end="url(#{head(colour)})"><title>{what}: {_esc(" > ".join(k.at))}</title></polyline>'
                        + "".join(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="2.6" fill="#fbfaf5" stroke="{colour}" '
                                  'stroke-width="1.5"/>' for x, y in pts[1:-1]))
        elif k.kind == "attack" and len(pts) >= 2:
            target = pts[-1]
            for src in pts[:-1]:
                a, b = _shorten(src, target, s * 0.55, s * 0.62)
                body.append(f'<line class="mark attack" x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" '
                            f'y2="{_fmt(b[1])}" stroke="{ATTACK}" stroke-width="4" marker-end="url(#{head(ATTACK)})">'
                            f'<title>attack on {_esc(k.at[-1])}{": " + what if k.label else ""}</title></line>')
        elif k.kind == "result":
            x, y = pts[-1]
            w = 6 + 5.6 * len(k.label)
            x0, y0 = x - w / 2, y - s * 0.98
            body.append(f'<g class="mark result"><title>combat result in {_esc(k.at[-1])}: {what}</title>'
                        f'<rect x="{_fmt(x0)}" y="{_fmt(y0)}" width="{_fmt(w)}" height="13" rx="2" fill="#fff" '
                        f'stroke="{ATTACK}" stroke-width="1.4"/><text x="{_fmt(x0 + w / 2)}" y="{_fmt(y0 + 10)}" '
                        f'font-size="9.5" font-weight="bold" fill="{ATTACK}" text-anchor="middle">{what}</text></g>')
        elif k.kind == "eliminated":
            x, y = pts[0]
            g = s * 0.5
            body.append(f'<g class="mark eliminated"><title>{what} eliminated in {_esc(k.at[0])}</title>'
                        f'<rect x="{_fmt(x - g)}" y="{_fmt(y - g)}" width="{_fmt(2 * g)}" height="{_fmt(2 * g)}" rx="2" '
                        f'fill="#fbfaf5" fill-opacity="0.35" stroke="#333" stroke-width="1.4" stroke-dasharray="3 2"/>'
                        f'<path d="M{_fmt(x - g)},{_fmt(y - g)} L{_fmt(x + g)},{_fmt(y + g)} M{_fmt(x + g)},{_fmt(y - g)} '
                        f'L{_fmt(x - g)},{_fmt(y + g)}" stroke="#333" stroke-width="1.6"/></g>')
        elif k.kind == "killed":
            x, y = pts[0]
            i = losses[k.at[0]] = losses.get(k.at[0], -1) + 1
            cx, cy, r = x - s * 0.62, y - s * 0.35 + 15 * i, 6.0
            body.append(f'<g class="mark killed"><title>{what} killed in {_esc(k.at[0])}</title>'
                        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r)}" fill="#fff" stroke="#111" stroke-width="1.5"/>'
                        f'<path d="M{_fmt(cx - 3.5)},{_fmt(cy - 3.5)} L{_fmt(cx + 3.5)},{_fmt(cy + 3.5)} '
                        f'M{_fmt(cx + 3.5)},{_fmt(cy - 3.5)} L{_fmt(cx - 3.5)},{_fmt(cy + 3.5)}" stroke="#111" '
                        f'stroke-width="1.8"/>'
                        f'<text x="{_fmt(cx - 8)}" y="{_fmt(cy + 3)}" font-size="8" font-weight="bold" text-anchor="end" '
                        f'fill="#fbfaf5" stroke="#fbfaf5" stroke-width="3">{what}</text>'
                        f'<text x="{_fmt(cx - 8)}" y="{_fmt(cy + 3)}" font-size="8" font-weight="bold" text-anchor="end" '
                        f'fill="#111">{what}</text></g>')
    if not body:
        return []
    defs = "<defs>" + "".join(_marker(mid, colour) for colour, mid in heads.items()) + "</defs>"
    return [defs, '<g id="turn">'] + body + ["</g>"]


def focus_of(marks: Sequence[MapMark]) -> list[str]:
    """The places the marks name (hexes, or units on a table), in order, each once."""
    out: list[str] = []
    for k in marks:
        for x in k.at:
            if x not in out:
                out.append(x)
    return out
