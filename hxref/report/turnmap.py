"""A side's map with the turn drawn on it, for its mail and its report: :func:`side_map`.

The picture is the audience's own: its view (never the full state) gives the counters and the
fog (:meth:`~hxref.kit.protocol.GameSystem.map_view`), and the events it may see since it last
read give the marks (:meth:`~hxref.kit.protocol.GameSystem.map_marks`).  The SVG shows the whole
map; the PNG is cropped to the action -- the hexes the marks name and the reader's own units,
with a margin -- so that its text stays legible at a phone's width.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.errors import InvalidInput
from ..geometry.hex import distance
from ..kit.events import shown
from ..kit.protocol import MapMark, MapView
from . import mappng, mapsvg, turnmarks

UMPIRE = "umpire"
#: the reader's units within this many hexes of a marked hex are in the PNG's crop
NEAR = 2


@dataclass(frozen=True)
class SideMap:
    """A side's map: the whole map as SVG, the PNG cropped to the action, and the file name both
    take (``union-t3-map``: add ``.svg`` / ``.png``)."""

    svg: str
    png: bytes
    name: str
    marks: tuple[MapMark, ...] = ()


def side_map(engine, audience: str | None, since: int | None = None) -> SideMap | None:
    """``audience``'s map (a side, ``"umpire"``, or None: the public) with the turn it has not read
    drawn on it: the events after event ``since`` (default: what it has provably seen,
    :func:`hxref.report.story.default_since`).  None for a game (or system) without a map."""
    found = _pictures(engine, audience, since)
    if found is None:
        return None
    svg, cropped, name, marks = found
    whole = cropped == svg          # nothing to crop to: the PNG is an overview, the SVG attached zooms in
    return SideMap(svg, mappng.to_png(cropped, max_width=mappng.OVERVIEW_WIDTH if whole else mappng.MAX_WIDTH),
                   name, tuple(marks))


def side_svg(engine, audience: str | None, since: int | None = None) -> str | None:
    """The SVG of :func:`side_map` alone (no PNG drawn): the map a report embeds or writes."""
    found = _pictures(engine, audience, since)
    return None if found is None else found[0]


def _pictures(engine, audience: str | None, since: int | None) -> tuple[str, str, str, list[MapMark]] | None:
    """The whole map's SVG, the SVG cropped to the action, the file name and the marks."""
    from . import story

    found = _view(engine, audience)
    if found is None:
        return None
    view, mv = found
    mode = engine.h["meta"]["mode"]
    start = story.default_since(engine, audience) if since is None else since
    told, _ = story.since_resolutions(engine.gf.log, start)
    events = [ev["data"] for r in told for ev in r.events[1:]
              if ev.get("kind") == "rules" and shown(ev["data"], audience, mode)]
    marks = list(engine.system.map_marks(events, view, audience))
    side = audience if audience in engine.sides() else None
    m = mv.hexmap
    title = f"{m.title or m.id}, turn {view.get('turn', '?')}: " + (
        f"what {audience} sees" if audience and audience != UMPIRE else "the umpire's map" if audience else "public view")
    args: dict[str, Any] = {"title": title, "shots": mv.shots, "marks": marks, "fog": mv.fog, "viewer": side}
    svg = mapsvg.render_svg(m, mv.units, **args)
    cropped = mapsvg.render_svg(m, mv.units, focus=_focus(m, mv, marks, side), **args)
    return svg, cropped, f"{audience or 'public'}-t{view.get('turn', 0)}-map", marks


def _view(engine, audience: str | None) -> tuple[dict, MapView] | None:
    """The audience's view and its map picture's content, the map read as the game pins it; None
    before the setup ends or for a game without a map.  E500 for a scenario naming a map outside its
    system's folder (a crafted game file)."""
    from dataclasses import replace

    from ..kit import data

    h = engine.h
    if h.get("phase") == "setup":
        return None
    full = audience == UMPIRE
    view = engine.system.view(engine.state, None if full else audience, "open" if full else engine.view_mode)
    mv = engine.system.map_view(view)
    if mv is None:
        return None
    system = h["meta"]["system"]
    folder = data.folder(system).resolve()
    if folder not in Path(mv.map_path).resolve().parents:
        raise InvalidInput("the scenario names no map of its system: a crafted game file", code="E500",
                           file=str(engine.gf.path))
    return view, replace(mv, hexmap=engine.system.charts.map_at(mv.map_path))


def _focus(m: Any, mv: MapView, marks: list[MapMark], side: str | None) -> list[str] | None:
    """What the PNG is cropped to: the places the marks name and the reader's own units near them
    (every own unit when nothing is marked; every unit for a reader with none: the public, the
    umpire); when that spreads wider than :data:`SPAN`, the combats alone, and then the first
    combat's hexes; with nothing marked, the reader's units nearest the enemy (:func:`_front`).  None
    (the whole map) when there is nothing to crop to."""
    own = [u for u in mv.units if u.get("viewer") or (side is not None and u.get("side") == side)] or list(mv.units)
    key = "hex" if m.kind == "hex" else "id"
    places = [str(u[key]) for u in own if u.get(key) is not None]
    if m.kind != "hex":
        return (turnmarks.focus_of(marks) + places) or None
    fights = [k for k in marks if k.kind in ("attack", "result", "eliminated", "killed")]
    tries = [marks, fights, [k for k in fights if k.at[-1] == fights[0].at[-1]] if fights else []]
    for chosen in tries:
        spots = turnmarks.focus_of(chosen)
        if not spots:
            continue
        marked = mapsvg.hex_focus(m, spots)
        near = [p for p in places if min(distance(m.parse(p), x) for x in marked) <= NEAR]
        spots += [p for p in near if p not in spots]
        if _span(m, spots) or chosen is tries[-1]:
            return spots
    return _front(m, mv, places, own) or None


def _front(m: Any, mv: MapView, places: list[str], own: list[dict]) -> list[str]:
    """The reader's units that fit in :data:`SPAN` around the one nearest an enemy unit (all of them
    when they fit): with nothing marked, the PNG shows the front rather than the whole army."""
    if _span(m, places):
        return places
    enemy = [m.parse(str(u["hex"])) for u in mv.units if u not in own and u.get("hex") is not None]
    ours = mapsvg.hex_focus(m, places)
    if not ours:
        return places
    near = sorted(zip(ours, places), key=lambda hp: (min((distance(hp[0], e) for e in enemy), default=0), hp[1]))
    chosen: list[str] = []
    for _, place in near:
        if _span(m, chosen + [place]):
            chosen.append(place)
    return chosen


#: the widest and highest spread of hexes (px of the SVG, hex size 30) a PNG is cropped to
SPAN = (240.0, 300.0)


def _span(m: Any, spots: list[str]) -> bool:
    """Do the hexes ``spots`` fit in :data:`SPAN`?"""
    from ..geometry.hex import hex_to_pixel

    pts = [hex_to_pixel(h, mapsvg.HEX_SIZE) for h in mapsvg.hex_focus(m, spots)]
    return not pts or (max(p[0] for p in pts) - min(p[0] for p in pts) <= SPAN[0]
                       and max(p[1] for p in pts) - min(p[1] for p in pts) <= SPAN[1])
