"""The campaign map's areas: the 8.2 definitions a KG CG needs, worked out at RePh step 8.605.

From the Strategic Locations each side controls at the end of a CG scenario (8.3), as both
sides' agreed reports give them, and the hexes that are not Enterable (8.2: Terrain Blaze):

* **Setup Area** (8.2): each controlled Strategic Location, plus each non-Strategic Location
  within 2 hexes of it that is not within 2 hexes of an enemy-controlled Strategic Location and
  that infantry can enter from a Strategic Location of the area; areas that touch or overlap
  are one area;
* **No Man's Land** (8.2, 8.6051): non-Strategic Locations within 2 hexes of controlled
  Strategic Locations of both sides;
* **Uncontrolled Territory** (8.2): every other hex (the hexes 3 or more from all controlled
  Strategic Locations, and those infantry cannot reach);
* **Isolated** (8.2, SSR CG17): a friendly setup area from which no path of contiguous
  Enterable hexes of Uncontrolled Territory or friendly setup area reaches an Eligible friendly
  Entry Area (SSR CG6c), or for the Germans on the Lg map the HQ hex.

Readings (games/kgp/readings.md): hxref works hex by hex (a hex's Locations share its area);
the KG map sheets are not in the seed, so a map group is the stand-in rectangle of
``games/kgp/charts/areas.yaml`` in which every hex is Enterable but the reported Blaze hexes; an
Entry Area is its arrow hex and the board-edge hexes within 4 of it; the Germans control an Entry
Area's centre (SSR CG6c) unless it lies in a US setup area or No Man's Land.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ...base.errors import InvalidInput
from ...geometry.hex import AslLabels, Hex, HexGrid, column_number
from .campaign import Campaign, EntryArea
from .sides import SIDES, other

if TYPE_CHECKING:
    from ...kit.charts import Charts

RULE = "8.605"


def areas_chart(charts: Charts) -> dict:
    """The areas chart's data (the chart ``areas`` of ``charts``); read-only."""
    return charts.chart("areas")


@cache
def _grid(group: str, columns: tuple[str, str], rows: tuple[int, int]) -> HexGrid:
    return HexGrid(AslLabels(board_prefix=group), (column_number(columns[0]), column_number(columns[1])), rows)


def map_grid(charts: Charts, cg: Campaign) -> HexGrid:
    """The printed rectangle of the CG's map group (a stand-in: the map sheets are not in the seed)."""
    g = areas_chart(charts)["map_groups"][cg.map_group]
    return _grid(cg.map_group, (str(g["columns"][0]), str(g["columns"][1])), (int(g["rows"][0]), int(g["rows"][1])))


def hex_of(grid: HexGrid, cg: Campaign, label: str) -> Hex:
    """``label`` (``StJ14`` or ``J14``) as a hex of the CG's map group, whose printed rectangle is
    ``grid`` (:func:`map_grid`); InvalidInput naming 0.3 if not."""
    full = cg.hex(label)
    try:
        return grid.parse(full)
    except InvalidInput as exc:
        raise InvalidInput(f"{label!r} is not on the {cg.map_group} map group: {exc}", rule="0.3") from None


@dataclass(frozen=True)
class Place:
    """Where a hex lies for one side after 8.605."""

    kind: str                   # setup | enemy_setup | no_mans_land | uncontrolled
    area: int | None = None     # the friendly setup area's number (setup)
    isolated: bool = False      # the friendly setup area is Isolated (setup)

    def words(self) -> str:
        if self.kind == "setup":
            return f"friendly setup area {self.area}" + (" (Isolated)" if self.isolated else "")
        return {"enemy_setup": "an enemy setup area", "no_mans_land": "No Man's Land",
                "uncontrolled": "Uncontrolled Territory"}[self.kind]


@dataclass(frozen=True)
class Areas:
    """8.605: both sides' setup areas, No Man's Land and what is Isolated, on one map group."""

    cg: Campaign
    date: str
    grid: HexGrid
    strategic: Mapping[str, frozenset[Hex]]
    blocked: frozenset[Hex]
    setup: Mapping[str, tuple[frozenset[Hex], ...]]      # each side's setup areas, merged (8.2)
    isolated: Mapping[str, tuple[bool, ...]]             # per setup area (8.2 Isolated)
    no_mans_land: frozenset[Hex]
    entry: Mapping[str, tuple[tuple[EntryArea, frozenset[Hex]], ...]]   # the side's Eligible Entry Areas

    def label(self, h: Hex) -> str:
        return self.grid.label(h)

    def place(self, side: str, h: Hex) -> Place:
        for i, area in enumerate(self.setup[side]):
            if h in area:
                return Place("setup", i + 1, self.isolated[side][i])
        if any(h in a for a in self.setup[other(side)]):
            return Place("enemy_setup")
        if h in self.no_mans_land:
            return Place("no_mans_land")
        return Place("uncontrolled")

    def entry_area(self, side: str, label: str) -> tuple[EntryArea, frozenset[Hex]] | None:
        """The side's Eligible Entry Area whose arrow (centre) hex is ``label``."""
        full = self.cg.hex(label)
        return next((x for x in self.entry[side] if x[0].centre == full), None)

    def path(self, side: str, start: Hex, goal: frozenset[Hex]) -> bool:
        """A path of contiguous Enterable hexes from ``start`` to ``goal`` that enters no enemy-controlled
        Strategic Location (8.606 reading: an escaping unit may not pass through what the enemy holds)."""
        enemy = self.strategic[other(side)]
        return _reach([start], lambda h: h not in self.blocked and h not in enemy, self.grid, goal)

    def summary(self, side: str) -> str:
        areas = self.setup[side]
        if not areas:
            return "no setup area (no Strategic Location controlled)"
        parts = [f"{len(a)} hexes around {', '.join(sorted(self.label(h) for h in a & self.strategic[side]))}"
                 + (", Isolated" if iso else "") for a, iso in zip(areas, self.isolated[side])]
        return f"{len(areas)} setup area(s): " + "; ".join(f"{i + 1}) {p}" for i, p in enumerate(parts))


def _reach(starts: Iterable[Hex], passable, grid: HexGrid, goal: frozenset[Hex]) -> bool:
    seen = set(starts)
    todo = deque(seen)
    while todo:
        h = todo.popleft()
        if h in goal:
            return True
        for n in grid.neighbours(h):
            if n not in seen and passable(n):
                seen.add(n)
                todo.append(n)
    return False


def _within(grid: HexGrid, sources: Iterable[Hex], reach: int) -> frozenset[Hex]:
    """The hexes of the grid within ``reach`` hexes of any source (geometric distance)."""
    found = set(sources)
    ring = set(found)
    for _ in range(reach):
        ring = {n for h in ring for n in grid.neighbours(h)} - found
        found |= ring
    return frozenset(found)


def _components(hexes: frozenset[Hex], grid: HexGrid) -> tuple[frozenset[Hex], ...]:
    """8.2 Setup Area: friendly setup areas that touch or overlap form one (contiguous hexes)."""
    left, out = set(hexes), []
    for h in sorted(hexes):
        if h not in left:
            continue
        part, todo = {h}, [h]
        left.discard(h)
        while todo:
            for n in grid.neighbours(todo.pop()):
                if n in left:
                    left.discard(n)
                    part.add(n)
                    todo.append(n)
        out.append(frozenset(part))
    return tuple(sorted(out, key=lambda a: min(grid.labels.to_offset(h) for h in a)))


def _entry_hexes(grid: HexGrid, centre: Hex, half: int) -> frozenset[Hex]:
    """8.2 Entry Area: the arrow hex and the board-edge hexes within ``half`` hexes of it."""
    edge = {h for h in _within(grid, [centre], half) if len(grid.neighbours(h)) < 6}
    return frozenset(edge | {centre})


def determine(charts: Charts, cg: Campaign, date: str, strategic: Mapping[str, Iterable[str]],
              blazes: Iterable[str] = ()) -> Areas:
    """8.605: the areas of both sides from the Strategic Locations each controls (8.3)."""
    chart = areas_chart(charts)
    grid = map_grid(charts, cg)
    reach = int(chart["reach"])
    sl = {s: frozenset(hex_of(grid, cg, x) for x in strategic.get(s, ())) for s in SIDES}
    blocked = frozenset(hex_of(grid, cg, x) for x in blazes)
    every_sl = sl[SIDES[0]] | sl[SIDES[1]]
    near = {s: _within(grid, sl[s], reach) for s in SIDES}
    nml = frozenset((near[SIDES[0]] & near[SIDES[1]]) - every_sl)
    setup: dict[str, tuple[frozenset[Hex], ...]] = {}
    for s in SIDES:
        # non-Strategic Locations within 2 of a friendly one, not No Man's Land, Enterable by infantry
        # from a friendly Strategic Location (through hexes of the area)
        candidates = (near[s] - near[other(s)] - every_sl - blocked) | sl[s]
        reached = set(sl[s])
        todo = deque(sl[s])
        while todo:
            for n in grid.neighbours(todo.popleft()):
                if n in candidates and n not in reached:
                    reached.add(n)
                    todo.append(n)
        setup[s] = _components(frozenset(reached), grid)
    half = int(chart["entry_half_width"])
    entry: dict[str, tuple[tuple[EntryArea, frozenset[Hex]], ...]] = {}
    for s in SIDES:
        found = []
        for ea in cg.entry_areas:
            centre = hex_of(grid, cg, ea.centre)
            us_held = any(centre in a for a in setup["us"]) or centre in nml
            if cg.eligible(ea, s, date, controls_centre=not us_held):
                found.append((ea, _entry_hexes(grid, centre, half)))
        entry[s] = tuple(found)
    isolated: dict[str, tuple[bool, ...]] = {}
    for s in SIDES:
        friendly = frozenset().union(*setup[s]) if setup[s] else frozenset()
        enemy = frozenset().union(*setup[other(s)]) if setup[other(s)] else frozenset()
        goal = frozenset().union(*(h for _, h in entry[s])) if entry[s] else frozenset()
        if s == "german" and cg.hq_hex:
            goal = goal | {hex_of(grid, cg, cg.hq_hex)}

        def passable(h: Hex, friendly=friendly, enemy=enemy) -> bool:
            return h not in blocked and (h in friendly or (h not in enemy and h not in nml))
        isolated[s] = tuple(not _reach(a, passable, grid, goal) for a in setup[s])
    return Areas(cg, date, grid, sl, blocked, setup, isolated, nml, entry)


def determine_from_state(charts: Charts, cg: Campaign, state: Mapping, date: str) -> Areas:
    """The areas the last agreed report set (8.605), for the Eligible Entry Areas of ``date``."""
    return determine(charts, cg, date, strategic_hexes(state.get("strategic") or []), state.get("blazes") or [])


def strategic_hexes(items: Iterable[Mapping]) -> dict[str, list[str]]:
    """The reported Strategic Locations as each side's hexes."""
    out: dict[str, list[str]] = {s: [] for s in SIDES}
    for x in items:
        out[x["side"]].append(x["hex"])
    return out


def strategic_problems(charts: Charts, state: Mapping, cg: Campaign, items: list, blazes: list) -> list:
    """8.2 Strategic Location: what a report claims must be one, on the map group, held by one side."""
    from ..base import Problem

    kinds = areas_chart(charts)["strategic_kinds"]
    grid = map_grid(charts, cg)
    seen: dict[Hex, str] = {}
    for i, x in enumerate(items):
        where = ["strategic", i]
        try:
            h = hex_of(grid, cg, x["hex"])
        except InvalidInput as exc:
            return [Problem(str(exc), "0.3", [*where, "hex"])]
        side, kind = x["side"], x["kind"]
        if kind == "vehicle":
            if not x.get("immobile") or x.get("abandoned"):
                return [Problem(f"a vehicle in {x['hex']} is a Strategic Location only when Immobile and not "
                                "Abandoned (immobile: true)", "8.2 Strategic Location", where)]
            ma = int(x.get("ma_mm") or 0)
            if not x.get("ft") and ma < int(kinds["vehicle"]["min_ma_mm"]):
                return [Problem(f"a vehicle in {x['hex']} with a {ma}mm MA is no Strategic Location: it needs a "
                                f"functioning MA of {kinds['vehicle']['min_ma_mm']}mm or more, or a functioning FT MA",
                                "8.2 Strategic Location", [*where, "ma_mm"])]
        if kind == "gun" and (x.get("hooked") or x.get("malfunctioned")):
            return [Problem(f"a Gun in {x['hex']} is a Strategic Location only when unhooked and not malfunctioned",
                            "8.2 Strategic Location", where)]
        if kind == "objective":
            mine = [o for o in (state.get("opened") or {}).get(side, []) if o.get("kind") == "objective_hex"]
            if not any(_same_hex(cg, o.get("value"), x["hex"]) for o in mine):
                return [Problem(f"{x['hex']} is no revealed {side} Objective Hex: an Objective Hex not yet occupied "
                                "(opened) by the designating side is no Strategic Location", "8.2 Strategic Location",
                                where)]
        if h in seen and seen[h] != side:
            return [Problem(f"{x['hex']} is claimed by both sides: a Strategic Location is controlled by one",
                            "8.2 Strategic Location", where)]
        seen[h] = side
    for i, b in enumerate(blazes):
        try:
            hex_of(grid, cg, b)
        except InvalidInput as exc:
            return [Problem(str(exc), "0.3", ["blazes", i])]
    return []


def _same_hex(cg: Campaign, value: object, label: str) -> bool:
    try:
        return isinstance(value, str) and cg.hex(value) == cg.hex(label)
    except InvalidInput:
        return False
