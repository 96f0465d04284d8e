"""The counters on the map as the enemy sees them (3.1, 3.22, 3.71 fog of war).

Of the enemy a side sees only what stands on the map: in each hex the top
counter -- the Overall Commander of the hex (3.22), or for a stack without
leaders its first unit or supply counter -- and how many counters lie under
it, never what they are.  The views (:mod:`.views`) show it, and a cavalry
screen (:mod:`.cavalry`, 8.62a) recomputes it with the hidden forces off the
map; both build on this module, which builds on neither.
"""
from __future__ import annotations

from typing import cast

from .state_types import FullGameState, Leader, Logistics, Unit
from . import model
from .forces import overall_commander  # the rules of 3.22


def _top(state: FullGameState, leaders: list[str], units: list[Unit], logi: list[Logistics]) -> dict:
    """3.22, 3.71: the counter on top of the hex: its OC (name, stars, ratings), else its first
    unit (arm and size), else its first wagon or depot."""
    oc = overall_commander(state, leaders) if leaders else None
    if oc:
        ld = state["leaders"][oc]
        r = model.leader_ratings(ld)
        return {"kind": "leader", "id": oc, "name": ld["name"], "stars": ld["stars"],
                "active": ld["active"], "ratings": f"{r['ar']}-{r['br']}-{r['mr']}"}
    if units:
        u = units[0]
        return {"kind": "unit", "arm": u["arm"], "size": u["size"]}
    return {"kind": logi[0]["kind"]}


def top_counters(state: FullGameState, side: str) -> dict[str, dict]:
    """For each hex ``side`` occupies: what an enemy sees there (3.71)."""
    out: dict[str, dict] = {}
    hexes = set(model.occupied_hexes(state, side))
    hexes |= cast(set[str], {s["hex"] for s in state.get("logistics", {}).values()
                             if s["side"] == side and s.get("hex") and not s.get("leader")})
    # the side's leaders, living units (with their leader, or unled in their hex) and supply
    # counters, hex by hex, each in the state's order
    leaders_at: dict[str, list[str]] = {}
    for lid, ld in model.on_map_leaders(state, side):
        if ld["hex"] is not None:       # a leader on the map stands in a hex
            leaders_at.setdefault(ld["hex"], []).append(lid)
    where = {lid: label for label, lids in leaders_at.items() for lid in lids}
    units_at: dict[str, list[Unit]] = {}
    for u in state["units"].values():
        if u["side"] == side and u["steps"] > 0:
            boss = u.get("leader")
            at = where.get(boss) if boss is not None else u.get("hex")
            if at is not None:
                units_at.setdefault(at, []).append(u)
    logi_at: dict[str, list[Logistics]] = {}
    for s in state.get("logistics", {}).values():
        at = s.get("hex")
        if s["side"] == side and at is not None:
            logi_at.setdefault(at, []).append(s)
    for label in sorted(hexes):
        leaders = leaders_at.get(label, [])
        units = units_at.get(label, [])
        logi = logi_at.get(label, [])
        # only counters that stand on the map count (3.1): leaders not inside an army commander's
        # box, unled units, wagons and depots -- never the units kept on the AOD
        in_boxes = {lid for lid in leaders if state["leaders"][lid].get("superior")
                    and state["leaders"].get(cast(str, state["leaders"][lid]["superior"]), cast(Leader, {})).get("hq")}
        loose = [u for u in units if u.get("leader") is None]
        count = len(leaders) - len(in_boxes) + len(loose) + len(logi)
        out[label] = {"side": side, "top": _top(state, leaders, units, logi), "under": count - 1}
    return out
