"""PNG pictures of the SVG maps, for a mail's inline image (a mail client shows a PNG; many drop an
inline SVG).  Rendered in Python by resvg (the ``resvg-py`` wheel, no system library), with the
system's fonts: the maps name "DejaVu Sans, Arial, sans-serif"."""
from __future__ import annotations

import struct

#: a map's PNG is drawn at twice the SVG's size: a counter's smallest text (4.5) is 9 px
ZOOM = 2.0
#: the widest PNG drawn (px): a larger picture is drawn smaller, to keep the mail small
MAX_WIDTH = 1100
#: the widest PNG of a whole map (px): an overview, whose text no phone shows legibly anyway (the SVG
#: attached zooms in); drawn wider, a whole map with its fog would be most of the mail
OVERVIEW_WIDTH = 640
#: the most pixels a PNG has (about 60-100 KB of map): a larger picture is drawn smaller, so that the
#: mail stays small whatever the crop.  A crop of the action (:mod:`.turnmap`) stays under it, drawn at
#: :data:`ZOOM`; a mail shows the PNG at its own size (:mod:`.html`), so its least text is 9 px even on a
#: phone, which scrolls it sideways
MAX_PIXELS = 800_000


def to_png(svg: str, zoom: float = ZOOM, max_width: int = MAX_WIDTH) -> bytes:
    """The PNG of ``svg`` at ``zoom`` times its size, at most ``max_width`` pixels wide and
    :data:`MAX_PIXELS` pixels in all."""
    import math

    import resvg_py

    width, height = svg_size(svg)
    zoom = min(zoom, max_width / width, math.sqrt(MAX_PIXELS / (width * height)))
    # crisp shapes: flat colours without anti-aliased edges compress to half the size; text stays smooth
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, background="#fbfaf5", shape_rendering="crisp_edges"))


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height an SVG picture of :mod:`.mapsvg` declares on its root element."""
    import re

    head = svg[: svg.index(">")]
    w = re.search(r'\bwidth="([\d.]+)"', head)
    h = re.search(r'\bheight="([\d.]+)"', head)
    if not w or not h:
        raise ValueError("an SVG picture without its width and height")
    return float(w.group(1)), float(h.group(1))


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height from its IHDR chunk; ValueError when ``png`` is not a PNG."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG picture")
    w, h = struct.unpack(">II", png[16:24])
    return int(w), int(h)
