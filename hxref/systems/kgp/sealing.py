"""KGP sealed secrets: what a commitment seals, whether an opening matches it, and the checks
of a list of sealed items (9: secret and simultaneous information).

A side seals a secret (an objective hex, HIP units, dummy minefields...) as
``{id, kind, commitment}`` (``hxref kgp seal``) and later opens it with the value
and the salt; an id names one secret of its side for the whole CG.

An Objective Hex is checked when it is opened (8.2 Objective Hex "Validity"): a hex of the
map group, not a hex hxref knows was already a Strategic Location when it was designated (a
building or bridge of the CG's data, an LVP building's hex, an Objective Hex opened on an
earlier CG Date), and meeting one of the three terrain conditions, which the opener names
(``meets``; the map sheets are not data hxref holds: the claim is logged for the other side
to check on the sheet).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...crypto import commit
from ...base.errors import InvalidInput
from ..base import Problem
from .campaign import load_campaign
from .lvp import load_lvp_chart
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState, SealedItem

if TYPE_CHECKING:
    from ...kit.charts import Charts

SEAL_KINDS = ("objective_hex", "hip", "minefield", "dummy_minefields", "reserve", "other")
OBJECTIVE_RULE = "8.2 Objective Hex"
#: 8.2 Objective Hex: it must meet at least one of these (the opener names which)
OBJECTIVE_TERRAIN = {
    "tem": "an in-hex TEM of +1 or more",
    "hexsides": "3 or more crest-line, slope, wall, hedge or road hexsides",
    "ford": "a ford Location",
}


def seal_choice(item_id: str, kind: str, value) -> dict:
    """What a sealed secret commits to (``hxref kgp seal``)."""
    return {"id": item_id, "kind": kind, "value": value}


def opens(item: SealedItem, value: object, salt: str) -> bool:
    """Does (``value``, ``salt``) open the sealed ``item``?"""
    try:
        return commit.matches(item["commitment"], seal_choice(item["id"], item["kind"], value), salt)
    except ValueError:
        return False


def seal_problems(items: list, where: str = "seal") -> list[Problem]:
    """9: each sealed item's commitment and id (its shape is the decision's schema)."""
    ids = set()
    for i, s in enumerate(items):
        c = s["commitment"]
        if not (len(c) == 64 and all(x in "0123456789abcdef" for x in c)):
            return [Problem("a commitment is 64 lower-case hex digits", "9", [where, i, "commitment"])]
        if s["id"] in ids:
            return [Problem(f"sealed item {s['id']!r} given twice", "9", [where, i, "id"])]
        ids.add(s["id"])
    return []


def seal_id_problems(state: KgpState, side: str, items: list) -> list[Problem]:
    """A sealed item's id names one secret for the whole CG (``reveal`` opens it by id)."""
    used = {x["id"] for x in state["sealed"][side]}
    for i, s in enumerate(items):
        if s["id"] in used:
            return [Problem(f"{SIDE_ADJECTIVES[side]} already sealed a secret called {s['id']!r} on "
                            f"{next(x['date'] for x in state['sealed'][side] if x['id'] == s['id'])}: "
                            "give this one another id", "9", ["seal", i, "id"])]
    return []


def strategic_hexes(charts: Charts, state: KgpState, before: str) -> dict[str, str]:
    """The hexes hxref knows were Strategic Locations before the CG Date ``before`` (8.2 Strategic
    Location: every building, rubble and bridge Location, every Objective Hex revealed), each with
    the reason: the CG's victory buildings and bridge, the LVP buildings of its map group, and the
    Objective Hexes opened on an earlier CG Date."""
    cg = load_campaign(charts, state["cg"])
    out: dict[str, str] = {}
    for c in (*cg.victory.conditions, *cg.initial.victory.conditions):
        for b in c.buildings:
            if b.hex:
                out[b.hex] = f"a hex of {b.name}, a building Location"
        if c.test == "bridge_destroyed_by" and c.hex:
            out[c.hex] = "a bridge Location"
    for lb in load_lvp_chart(charts).get(cg.map_group, ()):
        for h in lb.hexes:
            out.setdefault(h, f"a hex of {lb.name}, a building Location")
    first = cg.date(before)
    for side, items in state["sealed"].items():
        for x in items:
            # a side's view holds the other side's items without their kind and opening: its home
            # check knows only its own, and the umpire's check (on the whole state) decides
            o = x.get("opened")
            if x.get("kind") == "objective_hex" and isinstance(o, dict) and cg.date(o["date"]) < first:
                try:
                    out.setdefault(cg.hex(str(o["value"])), f"the {SIDE_ADJECTIVES[side]} Objective Hex revealed on "
                                                            f"{o['date']}")
                except InvalidInput:
                    continue
    return out


def objective_problems(charts: Charts, state: KgpState, item: SealedItem, value: object,
                       meets: object) -> list[Problem]:
    """8.2 Objective Hex validity, checked when the sealed hex is opened."""
    cg = load_campaign(charts, state["cg"])
    try:
        if not isinstance(value, str):
            raise InvalidInput("not a hex")
        hx = cg.hex(value)
    except InvalidInput:
        return [Problem(f"{item['id']}: {value!r} is not a hex of the {cg.map_group} map group: no Objective Hex",
                        OBJECTIVE_RULE, ["value"])]
    why = strategic_hexes(charts, state, item["date"]).get(hx)
    if why:
        return [Problem(f"{item['id']}: {hx} was already a Strategic Location when it was designated on "
                        f"{item['date']} ({why}): an Objective Hex may not be one", OBJECTIVE_RULE, ["value"])]
    if meets not in OBJECTIVE_TERRAIN:
        return [Problem(f"{item['id']}: say which condition {hx} meets as an Objective Hex (`meets`): "
                        + "; ".join(f"{k}: {v}" for k, v in OBJECTIVE_TERRAIN.items()), OBJECTIVE_RULE, ["meets"])]
    return []
