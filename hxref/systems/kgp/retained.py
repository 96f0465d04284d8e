"""Where a side's Retained units go between CG scenarios: 8.606 Escape and 8.613 Shift.

* A side's scenario report lists its own units left on the map or in a Holding Box (``units``:
  unit, hex or box, kind), and for a unit that must leave where it stands, where it tries to
  Escape to (``escape_to``).  After 8.605 has set the areas, 8.606 rolls each attempt.
* A side's sealed Refit orders ask for Shifts (``shift``: unit, to); 8.613 rolls each one.

8.2 Escape: units try to leave Isolated areas, No Man's Land, enemy setup areas, or Uncontrolled
Territory they cannot stay in, to reach a friendly setup area or an Eligible Entry Area.  8.2
Shift: Retained units try to leave their setup/entry area for another friendly setup area or an
Eligible Entry Area.  8.2 Retained: a unit ending a scenario in friendly setup area X starts the
next one there, unless it Shifted.  SSR CG: vehicles may not use the Railroad-Bridge Entry Area.

Readings (the bodies of 8.606 and 8.613 are lost; games/kgp/readings.md): a unit in No Man's
Land, an enemy setup area or Uncontrolled Territory must Escape or is eliminated (a Retained on-map
unit sets up in a friendly setup area, 8.6055), one in an Isolated setup area may try; the attempt
is one dr on the stand-in table of ``games/kgp/charts/areas.yaml`` (failure: eliminated), along a
path of Enterable hexes that enters no enemy-controlled Strategic Location; a Shift is one dr on its stand-in table
(failure: the unit stays).  A side's units, and so its Escapes and Shifts, are its own (8.15).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...base.errors import InvalidInput
from ..base import Problem
from .areas import Areas, areas_chart, hex_of
from .campaign import Campaign
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

ESCAPE = "8.606"
SHIFT = "8.613"


def _destination(areas: Areas, side: str, label: str, kind: str, *, rule: str) -> tuple[dict, frozenset] | str:
    """Where ``label`` takes a unit: ``({box: centre} | {hex: label}, goal hexes)``, or why it cannot."""
    try:
        ea = areas.entry_area(side, label)
        h = hex_of(areas.grid, areas.cg, label)
    except InvalidInput as exc:         # not a hex of the map group: a refusal, not a raise from check
        return exc.message
    if ea is not None:
        if kind == "vehicle" and not ea[0].vehicles:
            return f"vehicles may not use the {ea[0].name or ea[0].centre} Entry Area (SSR CG Railroad-Bridge " \
                   "Entry Area)"
        return {"box": ea[0].centre}, ea[1]
    place = areas.place(side, h)
    if place.kind != "setup":
        return f"{label} is in {place.words()}, neither a friendly setup area nor an Eligible " \
               f"{SIDE_ADJECTIVES[side]} Entry Area (8.2 {'Escape' if rule == ESCAPE else 'Shift'})"
    if place.isolated:
        return f"{label} is in an Isolated setup area (8.2 Isolated)"
    return {"hex": areas.label(h)}, areas.setup[side][(place.area or 1) - 1]


def unit_problems(areas: Areas, side: str, units: list) -> list[Problem]:
    """A report's own units: on the map group or in one of the CG's Holding Boxes, and each
    ``escape_to`` a unit that needs or may try Escape, to a place it can reach (8.606)."""
    names: set[str] = set()
    for i, u in enumerate(units):
        where = ["units", i]
        if u["unit"] in names:
            return [Problem(f"{u['unit']} is listed twice", ESCAPE, [*where, "unit"])]
        names.add(u["unit"])
        if bool(u.get("hex")) == bool(u.get("box")):
            return [Problem(f"{u['unit']}: give its hex on the map or the Holding Box (an Entry Area's arrow hex) "
                            "it is in, one of the two", ESCAPE, where)]
        if u.get("box"):
            if not any(ea.centre == _full(areas.cg, u["box"]) for ea in areas.cg.entry_areas if side in ea.sides):
                return [Problem(f"{u['box']} is no {SIDE_ADJECTIVES[side]} Entry Area of {areas.cg.id.upper()} "
                                "(8.15 Holding Box)", ESCAPE, [*where, "box"])]
            if u.get("escape_to"):
                return [Problem(f"{u['unit']} is in a Holding Box: it has nothing to Escape from", ESCAPE,
                                [*where, "escape_to"])]
            continue
        try:
            h = hex_of(areas.grid, areas.cg, u["hex"])
        except InvalidInput as exc:
            return [Problem(str(exc), "0.3", [*where, "hex"])]
        place = areas.place(side, h)
        if not u.get("escape_to"):
            continue
        if place.kind == "setup" and not place.isolated:
            return [Problem(f"{u['unit']} in {u['hex']} is in {place.words()}: it has nothing to Escape from "
                            "(8.2 Escape)", ESCAPE, [*where, "escape_to"])]
        dest = _destination(areas, side, u["escape_to"], u.get("kind", "infantry"), rule=ESCAPE)
        if isinstance(dest, str):
            return [Problem(f"{u['unit']} cannot Escape to {u['escape_to']}: {dest}", ESCAPE, [*where, "escape_to"])]
        if not areas.path(side, h, dest[1]):
            return [Problem(f"{u['unit']} cannot Escape from {u['hex']} to {u['escape_to']}: no path of Enterable "
                            "hexes reaches it without entering an enemy-controlled Strategic Location", ESCAPE, [*where, "escape_to"])]
    return []


def _full(cg: Campaign, label: str) -> str | None:
    try:
        return cg.hex(label)
    except InvalidInput:
        return None


def roll_escapes(charts: Charts, state: KgpState, areas: Areas, side: str, units: list, dice,
                 events: list[Event]) -> list[str]:
    """8.606 for ``side``'s reported units: who stays, who must Escape, each attempt rolled; the
    Retained positions kept in ``state['retained']``.  Returns the checklist's lines (public)."""
    table = areas_chart(charts)["escape"]
    kept: list[dict] = []
    lines: list[str] = []
    who = SIDE_ADJECTIVES[side]
    for u in units:
        kind = u.get("kind", "infantry")
        if u.get("box"):
            kept.append({"unit": u["unit"], "box": _full(areas.cg, u["box"]), "kind": kind})
            continue
        h = hex_of(areas.grid, areas.cg, u["hex"])
        place = areas.place(side, h)
        label = areas.label(h)
        if place.kind == "setup" and (not place.isolated or not u.get("escape_to")):
            kept.append({"unit": u["unit"], "hex": label, "kind": kind})
            if place.isolated:
                lines.append(f"{who} {u['unit']} stays Isolated in {label} (8.2 Isolated, SSR CG17)")
            continue
        if not u.get("escape_to"):
            lines.append(f"{who} {u['unit']} in {label} ({place.words()}) does not Escape: eliminated")
            _say(events, f"{who} {u['unit']} in {label} is in {place.words()} and does not try to Escape: "
                         "eliminated (8.2 Escape)", side)
            continue
        dest = _destination(areas, side, u["escape_to"], kind, rule=ESCAPE)
        if isinstance(dest, str) or not areas.path(side, h, dest[1]):     # the agreed report's areas decide
            lines.append(f"{who} {u['unit']} in {label} cannot reach {u['escape_to']}: eliminated")
            _say(events, f"{who} {u['unit']} in {label} cannot Escape to {u['escape_to']}: eliminated", side)
            continue
        why = "isolated" if place.kind == "setup" else place.kind
        drm = int(table["drm"].get(why, 0)) + (int(table["drm"]["to_entry_area"]) if "box" in dest[0] else 0)
        dr = dice.d6(f"Escape dr: {who} {u['unit']} from {label} ({ESCAPE})", by=side, visible_to=[side])
        ok = dr + drm <= int(table["escapes_at_most"])
        to = dest[0].get("hex") or f"the {dest[0]['box']} Holding Box"
        text = f"{who} {u['unit']} Escapes from {label} ({place.words()}) to {to}: dr {dr}" \
               + (f" {drm:+d}" if drm else "") + f" {'<=' if ok else '>'} {table['escapes_at_most']}: " \
               + ("it Escapes" if ok else "eliminated") + (" (stand-in table)" if table.get("stand_in") else "")
        _say(events, text, side)
        lines.append(f"{who}: one Escape dr")
        if ok:
            kept.append({"unit": u["unit"], **dest[0], "kind": kind})
    state.setdefault("retained", {})[side] = kept
    return lines


def shift_problems(state: Mapping, areas: Areas, side: str, shifts: list) -> list[Problem]:
    """8.613: a Shift names a Retained unit of the side and another friendly setup area or an
    Eligible Entry Area (for a vehicle, not the Railroad-Bridge one)."""
    mine = {u["unit"]: u for u in (state.get("retained") or {}).get(side, [])}
    done: set[str] = set()
    for i, s in enumerate(shifts):
        where = ["shift", i]
        u = mine.get(s["unit"])
        if u is None:
            return [Problem(f"{s['unit']} is none of your Retained units (your last report's units, after 8.606)",
                            SHIFT, [*where, "unit"])]
        if s["unit"] in done:
            return [Problem(f"{s['unit']} Shifts once a Refit Phase", SHIFT, [*where, "unit"])]
        done.add(s["unit"])
        dest = _destination(areas, side, s["to"], u.get("kind", "infantry"), rule=SHIFT)
        if isinstance(dest, str):
            return [Problem(f"{s['unit']} cannot Shift to {s['to']}: {dest}", SHIFT, [*where, "to"])]
        if u.get("box") and dest[0].get("box") == u["box"]:
            return [Problem(f"{s['unit']} is already in the {u['box']} Holding Box: a Shift leaves its area",
                            SHIFT, [*where, "to"])]
        if u.get("hex") and "hex" in dest[0] and hex_of(areas.grid, areas.cg, u["hex"]) in dest[1]:
            return [Problem(f"{s['unit']} is already in that setup area: a Shift leaves its setup area for another",
                            SHIFT, [*where, "to"])]
    return []


def roll_shifts(charts: Charts, state: KgpState, areas: Areas, side: str, shifts: list, dice, events: list[Event]) -> None:
    """8.613: one dr per Shift, shown to its owner alone; a success moves the Retained unit."""
    table = areas_chart(charts)["shift"]
    who = SIDE_ADJECTIVES[side]
    for s in shifts:
        u = next(x for x in state["retained"][side] if x["unit"] == s["unit"])
        dest = _destination(areas, side, s["to"], u.get("kind", "infantry"), rule=SHIFT)
        if isinstance(dest, str):               # shift_problems refused it when the orders came
            continue
        drm = (int(table["drm"]["from_entry_area"]) if u.get("box") else 0) + \
            (int(table["drm"]["to_entry_area"]) if "box" in dest[0] else 0)
        dr = dice.d6(f"Shift dr: {who} {s['unit']} ({SHIFT})", by=side, visible_to=[side])
        ok = dr + drm <= int(table["shifts_at_most"])
        here = u.get("hex") or f"the {u.get('box')} Holding Box"
        to = dest[0].get("hex") or f"the {dest[0]['box']} Holding Box"
        if ok:
            u.pop("hex", None)
            u.pop("box", None)
            u.update(dest[0])
        events.append(event("refit.shift",
                            f"{who} {s['unit']} Shifts from {here} to {to}: dr {dr}" + (f" {drm:+d}" if drm else "")
                            + f" {'<=' if ok else '>'} {table['shifts_at_most']}: "
                            + ("it Shifts" if ok else "it stays") + (" (stand-in table)" if table.get("stand_in")
                                                                     else ""), SHIFT, side=side, visible_to=[side]))


def _say(events: list[Event], text: str, side: str) -> None:
    events.append(event("refit.escape", text, ESCAPE, side=side, visible_to=[side]))
