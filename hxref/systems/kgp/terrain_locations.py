"""KGP Locations the village and stream terrain adds: the steeple above a church (5.2, 5.21), the
single-hex two-story house (5.3) and the culvert under a stream hex (4.2-4.22).

* :func:`building_levels` -- how many building Locations a hex has, its steeple included;
* :func:`check_location` -- refuses a Location the hex does not have (a level above the steeple,
  the 2nd level of the two-story house, a culvert where none is drawn);
* :func:`location_facts` -- what the rules say of a Location (``hxref kgp loc``): its kind, its
  stacking limit, whether it may be Fortified, has a rooftop, gets the stone-rubble drm, may
  hold a Gun or a set-up unit, and how it is reached.

The number of building Locations of a terrain type is its ``rules.levels`` in
``games/kgp/terrain.yaml`` (ASL B23 prints them; stand-ins); a type without it is not a
building the calculators know the levels of, and its levels are not checked.

Readings (games/kgp/readings.md; tests: tests/kgp/test_village_terrain.py and games/kgp/cases/village_terrain.yaml):

* a steeple does not raise its hex's LOS obstacle height (the seed says nothing; a spire covers
  little of the hex): it adds a Location from which a unit sees, not an obstacle;
* a steeple on a hex that is no building of known levels is a map error (5.2: the steeple is
  above the highest building Location).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...base.errors import InvalidInput
from ...geometry.hex import Hex
from .terrain import CULVERT, STEEPLE, STREAM, LocationLike, TerrainChart, _label, _loc, mf_text


@dataclass(frozen=True)
class Fact:
    """One thing the rules say of a Location."""

    name: str
    value: Any
    text: str
    rule: str


@dataclass(frozen=True)
class LocationFacts:
    """What the rules say of one Location (:func:`location_facts`)."""

    hex: str
    level: int
    culvert: bool
    kind: str
    facts: tuple[Fact, ...]
    rule: str
    why: str

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([self.rule] + [f.rule for f in self.facts]))


def _declared_levels(hexmap, h: Hex) -> int | None:
    tt = hexmap.terrain(h)
    levels = (tt.rules or {}).get("levels") if isinstance(tt.rules, dict) else None
    if levels is None:
        return None
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise InvalidInput(f"terrain type {tt.name!r}: rules.levels must be a whole number of building Locations, "
                           f"1 or more, not {levels!r}", file=hexmap.path or None, path=f"{tt.name}.rules.levels")
    return levels


def steeple_level(hexmap, h: Hex) -> int | None:
    """The level of the hex's steeple Location (above its highest building Location, 5.2), or None."""
    if STEEPLE not in hexmap.features(h):
        return None
    levels = _declared_levels(hexmap, h)
    if levels is None:
        raise InvalidInput(f"{_label(hexmap, h)}: a steeple stands above a building's highest Location, and "
                           f"{hexmap.terrain(h).label} is no building of known levels (5.2)",
                           file=hexmap.path or None, rule="5.2")
    return levels


def building_levels(hexmap, h: Hex) -> int | None:
    """The building Locations of the hex, ground level and steeple included; None when not known."""
    levels = _declared_levels(hexmap, h)
    steeple = steeple_level(hexmap, h)
    return None if levels is None else levels + (1 if steeple is not None else 0)


def _house(hexmap, h: Hex) -> bool:
    return (hexmap.terrain(h).rules or {}).get("rule") == "5.3"


def check_location(hexmap, loc: LocationLike) -> None:
    """Refuse a Location the hex does not have, naming the rule (4.2, 5.2, 5.3)."""
    x = _loc(loc)
    h = hexmap.parse(x.hex)
    lab = _label(hexmap, h)
    if x.culvert:
        if CULVERT not in hexmap.features(h):
            raise InvalidInput(f"{lab} has no culvert (4.2)", rule="4.2")
        if x.level:
            raise InvalidInput(f"{lab}: a culvert is underground, not at building level {x.level} (4.2)", rule="4.2")
        if x.crest:
            raise InvalidInput(f"{lab}: a unit in a culvert cannot be in crest status (4.22)", rule="4.22")
        return
    levels = building_levels(hexmap, h)
    if levels is None or x.level < levels:
        return
    tt = hexmap.terrain(h)
    if _house(hexmap, h):
        why = f"{lab} is a single-hex two-story house: ground and 1st level, no rooftop (5.3)"
        rule = "5.3"
    elif steeple_level(hexmap, h) is not None:
        why = f"{lab}'s highest Location is its steeple at level {levels - 1}, which has no rooftop (5.2)"
        rule = "5.2"
    else:
        why = f"{lab} ({tt.label}) has building levels 0 to {levels - 1} (ASL B23; stand-in levels)"
        rule = "ASL B23"
    raise InvalidInput(f"{lab} has no building level {x.level}: {why}", rule=rule)


def location_facts(hexmap, loc: LocationLike, chart: TerrainChart) -> LocationFacts:
    """What the KGP rules say of the Location ``loc`` (4.2, 4.21, 5.2, 5.21, 5.3)."""
    x = _loc(loc)
    check_location(hexmap, x)
    h = hexmap.parse(x.hex)
    lab = _label(hexmap, h)
    if x.culvert:
        return _culvert(hexmap, h, lab, chart)
    steeple = steeple_level(hexmap, h)
    if steeple is not None and x.level == steeple:
        e = chart.entry("locations.steeple_stacking")
        facts: tuple[Fact, ...] = (
            Fact("stacking", float(e.value), f"stacking limit {_squads(e.value)} (1 HS-equivalent)", e.rule),
            Fact("guns", False, "Guns may not set up in a steeple", "5.21"),
            Fact("fortify", False, "a steeple cannot be Fortified", "5.2"),
            Fact("rooftop", False, "a steeple has no rooftop Location", "5.2"),
            Fact("stone_rubble_drm", False, "no +1 drm for stone-building rubbling (B24.11)", "5.2"),
            Fact("stairway", "own", "its own inherent stairway links every level from the ground to the steeple",
                 "5.2"),
        )
        return LocationFacts(lab, x.level, False, "steeple", facts, "5.2",
                             f"{lab} level {x.level} is a steeple: " + "; ".join(f.text for f in facts) + " (5.2, 5.21)")
    if _house(hexmap, h):
        facts = (
            Fact("levels", 2, "ground and 1st level, linked by an inherent stairway", "5.3"),
            Fact("obstacle", float(hexmap.terrain(h).height), "a 1 1/2-level LOS obstacle", "5.3"),
            Fact("rooftop", False, "no rooftop Location, as a one-story building (B23.21)", "5.3"),
        )
        what = "ground level" if x.level == 0 else f"level {x.level}"
        return LocationFacts(lab, x.level, False, "two_story_house", facts, "5.3",
                             f"{lab} {what} is in a single-hex two-story house: " + "; ".join(f.text for f in facts)
                             + "; otherwise a normal building (5.3)")
    facts_l: list[Fact] = []
    if steeple is not None:
        facts_l.append(Fact("steeple", steeple, f"the steeple above it is level {steeple}; the Locations below it are "
                                                 "normal in every respect", "5.2"))
    what = "ground level" if x.level == 0 else f"building level {x.level}"
    why = f"{lab} {what}: " + ("; ".join(f.text for f in facts_l) if facts_l else
                               "no KGP rule changes this Location (ASL B, not in the seed)")
    return LocationFacts(lab, x.level, False, "building" if x.level else "ground", tuple(facts_l),
                         "5.2" if steeple is not None else "4-5", why + (" (5.2)" if facts_l else ""))


def _culvert(hexmap, h: Hex, lab: str, chart: TerrainChart) -> LocationFacts:
    e = chart.entry("locations.culvert_stacking")
    streams = [_label(hexmap, n) for n in hexmap.grid.neighbours(h)
               if STREAM in hexmap.features(n) or CULVERT in hexmap.features(n)]
    facts = (
        Fact("open_ground", True, "units in it are under a Culvert counter and in Open Ground", "4.2"),
        Fact("sight", streams, f"LOS only to the adjacent stream or culvert: {', '.join(streams) or 'none'}", "4.2"),
        Fact("stacking", float(e.value), f"stacking limit {_squads(e.value)}", e.rule),
        Fact("set_up", False, "no unit, equipment or fortification may set up in it", "4.21"),
        Fact("entry", streams, "Infantry enters it as any stream, only from the adjacent stream or culvert, and not "
                               "while the stream is Flooded; 5/8\" vehicles and Guns cannot", "4.21"),
        Fact("crest", False, "no crest status in it, nor across its culvert-to-stream hexsides", "4.22"),
        Fact("frigid", True, "Infantry in it at the end of a Player Turn is treated as having entered frigid water "
                             "(B20.7)", "4.23"),
        Fact("attacks", "none", "no attack affects the culvert; Indirect Fire and air attacks do not affect units "
                                "in it; they are not Sniper targets", "4.24"),
    )
    return LocationFacts(lab, 0, True, "culvert", facts, "4.2",
                         f"the culvert under {lab}: " + "; ".join(f.text for f in facts) + " (4.2-4.24)")


def _squads(v) -> str:
    return f"{mf_text(v)} squad-equivalent"
