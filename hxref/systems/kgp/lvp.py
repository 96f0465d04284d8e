"""KGP Location Victory Points of a building, counted from its Locations (8.2 LVP).

Every existing non-rooftop, non-cellar Location of an LVP building has the value printed in the
building's red circle, rubbled or not; rubble made by Falling Rubble has none; a rubbled LVP
building keeps its value, but its total falls as its playable Locations fall (8.2 EXC).  So a
building's LVP is its value times its existing Locations: a rubbled hex is one rubble Location
(the 8.2 example: the St. Edouard Sanatorium, 10 Locations x 2 = 20 LVP; its two ground-level
Locations rubbled, 8 Locations, 16 LVP).

The buildings are map data (``games/kgp/charts/lvp.yaml``, by map group).  A scenario report
names the LVP buildings a side holds (``lvp_buildings: {sanatorium: {side: us, rubbled: [...],
held: N}}``); hxref counts each one's LVP, refuses a report whose Current LVP Total for that
side is below what its buildings give, and lowers the LVP existing on the map group by the
Locations rubble removed (:func:`report_problems`, :func:`counted`).

Readings (games/kgp/readings.md): ``held`` is the Locations of the building the side
controls, all its existing ones when left out; a building is named once, by its id or any of
its hexes; the Current LVP Total still comes from the report, which may count LVP Locations the
chart does not list.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...base.errors import InvalidInput
from ..base import Problem
from .chart_reader import Reader
from .sides import SIDE_NAMES, SIDES

if TYPE_CHECKING:
    from ...kit.charts import Charts

RULE = "8.2 LVP"
MAP_GROUPS = ("St", "Ch", "Lg")


@dataclass(frozen=True)
class LvpBuilding:
    """An LVP building: ``value`` VP for each of its existing non-rooftop, non-cellar Locations."""

    id: str
    name: str
    value: int
    hexes: Mapping[str, int]                # hex -> its Locations, unrubbled
    stand_in: bool

    @property
    def locations(self) -> int:
        return sum(self.hexes.values())

    @property
    def label(self) -> str:
        return f"{self.name} ({next(iter(self.hexes))})"


@dataclass(frozen=True)
class Held:
    """What one side holds of one LVP building at the end of a scenario (8.2 LVP)."""

    building: LvpBuilding
    side: str
    rubbled: tuple[str, ...]
    existing: int                           # the building/rubble Locations left
    held: int                               # those the side controls
    lvp: int
    why: str


def load_lvp_chart(charts: Charts, path: str | Path | None = None) -> Mapping[str, tuple[LvpBuilding, ...]]:
    """The LVP buildings of each map group (the chart ``lvp`` of ``charts``), or another file of that shape."""
    return _load(charts.chart_source("lvp", path))


@cache
def _load(src) -> Mapping[str, tuple[LvpBuilding, ...]]:
    r = Reader(src.rt(), src.file)
    root = r.mapping(r.root, [], ("rule", "map_groups"), ("stand_in", "note"))
    groups = r.mapping(root["map_groups"], ["map_groups"], (), MAP_GROUPS)
    out: dict[str, tuple[LvpBuilding, ...]] = {}
    for g in MAP_GROUPS:
        found = []
        for i, b in enumerate(r.seq(groups.get(g) or [], ["map_groups", g], empty=True)):
            p = ["map_groups", g, i]
            r.mapping(b, p, ("id", "name", "value", "locations", "hexes"), ("stand_in", "note"))
            hexes = b["hexes"]
            if not isinstance(hexes, dict) or not hexes:
                raise r.error("an LVP building's hexes: a mapping hex -> its Locations, at least one", p + ["hexes"], rule=RULE)
            counts = {}
            for h, n in hexes.items():
                if not (isinstance(h, str) and h.startswith(g)):
                    raise r.error(f"{h!r} is not a hex of the {g} map group", p + ["hexes", h], rule=RULE)
                counts[h] = r.int(n, p + ["hexes", h], 1)
            total = r.int(b["locations"], p + ["locations"], 1)
            if sum(counts.values()) != total:
                raise r.error(f"the hexes hold {sum(counts.values())} Locations, not the {total} given",
                              p + ["locations"], rule=RULE)
            found.append(LvpBuilding(r.str(b["id"], p + ["id"]), r.str(b["name"], p + ["name"]),
                                     r.int(b["value"], p + ["value"], 1), counts,
                                     r.bool(b.get("stand_in", False), p + ["stand_in"])))
        out[g] = tuple(found)
    return out


def building(charts: Charts, map_group: str, name: str) -> LvpBuilding | None:
    """The LVP building called ``name`` (its id, or any of its hexes with or without the prefix)."""
    for b in load_lvp_chart(charts).get(map_group, ()):
        if name == b.id or name in b.hexes or f"{map_group}{name}" in b.hexes:
            return b
    return None


def held(b: LvpBuilding, side: str, rubbled: list[str], count: int | None) -> Held:
    """``side`` holding ``count`` Locations (None: all) of ``b``, whose ``rubbled`` hexes are rubble:
    a rubbled hex is one rubble Location that keeps the building's value (8.2 EXC)."""
    gone = set(rubbled)
    existing = sum(1 if h in gone else n for h, n in b.hexes.items())
    k = existing if count is None else count
    lvp = k * b.value
    part = f"{k} Locations" if k == existing else f"{k} of its {existing} Locations"
    note = f" ({', '.join(sorted(gone))} rubbled: {existing} of {b.locations} Locations left)" if gone else ""
    who = SIDE_NAMES[side]
    why = f"{who[:1].upper()}{who[1:]} hold {b.label}: {part} x {b.value} = {lvp} LVP{note}"
    return Held(b, side, tuple(sorted(gone)), existing, k, lvp, why)


def counted(charts: Charts, map_group: str, report: Mapping[str, Any]) -> list[Held]:
    """Each LVP building a report names, counted (the report is one :func:`report_problems` passed)."""
    out = []
    for name, x in (report.get("lvp_buildings") or {}).items():
        b = building(charts, map_group, str(name))
        if b is None:
            raise InvalidInput(f"{name!r} is not an LVP building", rule=RULE, path=f"lvp_buildings.{name}")
        rubbled = [h if h in b.hexes else f"{map_group}{h}" for h in x.get("rubbled") or []]
        out.append(held(b, x["side"], rubbled, x.get("held")))
    return out


def lost_lvp(items: list[Held]) -> int:
    """The LVP no longer existing on the map group: the Locations rubble removed from the buildings named."""
    return sum((i.building.locations - i.existing) * i.building.value for i in items)


def report_problems(charts: Charts, map_group: str, lvp_total: int, report: Mapping[str, Any]) -> list[Problem]:
    """8.2 LVP: the buildings a report names, and the Current LVP Totals against what they give."""
    raw = report.get("lvp_buildings")
    if not raw:
        return []
    seen: set[str] = set()
    for name, x in raw.items():
        where = ["lvp_buildings", name]
        b = building(charts, map_group, str(name))
        if b is None:
            known = ", ".join(f"{c.id} ({next(iter(c.hexes))})" for c in load_lvp_chart(charts).get(map_group, ()))
            return [Problem(f"{name!r} is not an LVP building of the {map_group} map group (games/kgp/charts/lvp.yaml"
                            f"{': ' + known if known else ': none listed'})", RULE, where)]
        if b.id in seen:
            return [Problem(f"{b.label} is named twice", RULE, where)]
        seen.add(b.id)
        if not isinstance(x, dict) or x.get("side") not in SIDES or set(x) - {"side", "rubbled", "held"}:
            return [Problem(f"{name}: give {{side: us|german, rubbled: [hexes], held: Locations}} (rubbled and held "
                            "optional)", RULE, where)]
        rubbled = x.get("rubbled") or []
        if not isinstance(rubbled, list):
            return [Problem(f"{name}.rubbled is a list of the building's hexes", RULE, where + ["rubbled"])]
        for h in rubbled:
            if not isinstance(h, str) or (h not in b.hexes and f"{map_group}{h}" not in b.hexes):
                return [Problem(f"{h!r} is not a hex of {b.label} ({', '.join(b.hexes)}); rubble Falling Rubble "
                                "makes outside it has no VP value", RULE, where + ["rubbled"])]
        count = x.get("held")
        existing = held(b, x["side"], [h if h in b.hexes else f"{map_group}{h}" for h in rubbled], None).existing
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= existing):
            return [Problem(f"{b.label} has {existing} Locations now; a side cannot hold {count!r} of them", RULE,
                            where + ["held"])]
    items = counted(charts, map_group, report)
    for s in SIDES:
        mine = [i for i in items if i.side == s]
        need = sum(i.lvp for i in mine)
        have = report["lvp"][s]
        if have < need:
            return [Problem(f"the Current LVP Total of {SIDE_NAMES[s]} is {have}, less than the {need} LVP of the "
                            "LVP buildings they hold: " + "; ".join(i.why for i in mine), RULE, ["lvp", s])]
    existing = lvp_total - lost_lvp(items)
    if sum(report["lvp"].values()) > existing:
        return [Problem(f"the Current LVP Totals add up to {sum(report['lvp'].values())}, more than the {existing} "
                        f"LVP still existing on the {map_group} map group ({lvp_total}, less "
                        f"{lvp_total - existing} in Locations rubble removed)", RULE, ["lvp"])]
    return []
