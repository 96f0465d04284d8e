"""The reader's map of a turn, for a mail or a report: the SVG picture and a PNG of it.

:func:`side_map` draws what ``audience`` may see (the system's ``map_view`` of that audience's
view, never of the full state) with :mod:`hxref.report.mapsvg`, and renders it to PNG in Python
with resvg (the ``resvg-py`` wheel: nothing to install from the system), so that a mail can show it
inline as an image (mail clients drop inline SVG) and attach the SVG for zooming.
"""
from __future__ import annotations

from dataclasses import dataclass

#: the PNG's width in pixels: a wide mail window's text column; a phone scales it down
PNG_WIDTH = 900


@dataclass(frozen=True)
class SideMap:
    """A reader's map: the SVG picture, its PNG rendering, and the file name both go by (no suffix)."""

    svg: str
    png: bytes
    name: str


def side_map(engine, audience: str | None, since: int | None = None) -> SideMap | None:
    """The map of what ``audience`` (None: the public, ``umpire``: everything) sees now; None when
    the game has no map (a system played off the map, or a game still being set up).  ``since``:
    the event after which the turn the map tells began."""
    from ..errors import InvalidInput
    from .mapsvg import render_svg
    from ..engine import map_view

    try:
        mv = map_view(engine.gf.path, audience)
    except InvalidInput:
        return None
    hexmap = mv.load()
    title = f"{hexmap.title or hexmap.id}: " + (f"what {audience} sees" if audience else "public view")
    svg = render_svg(hexmap, mv.units, title=title, shots=mv.shots)
    stem = f"{engine.meta['game']}-{audience or 'public'}-map"
    return SideMap(svg=svg, png=png_of(svg), name=stem)


def png_of(svg: str, width: int = PNG_WIDTH) -> bytes:
    """``svg`` as a PNG ``width`` pixels wide, on white; crisp edges and unsmoothed text keep a map
    in few colours, so the file stays small (a third of the smoothed one's size)."""
    import resvg_py

    data = resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff", shape_rendering="crisp_edges",
                                text_rendering="optimize_speed")
    return bytes(data)          # a list of ints from older releases, bytes from newer ones
