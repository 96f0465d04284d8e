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


def _oc(state: FullGameState, label: str, side: str) -> str | None:
    leaders = model.leaders_in_hex(state, label, side)
    return overall_commander(state, leaders) if leaders else None


def _top(state: FullGameState, label: str, side: str, units: list[Unit], logi: list[Logistics]) -> dict:
    """3.22, 3.71: the counter on top of the hex: its OC (name, stars, ratings), else its first
    unit (arm and size), else its first wagon or depot."""
    oc = _oc(state, label, side)
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
    for label in sorted(hexes):
        leaders = model.leaders_in_hex(state, label, side)
        units = [u for u in state["units"].values() if u["side"] == side and u["steps"] > 0 and (
            (u.get("leader") in leaders) or (u.get("leader") is None and u.get("hex") == label))]
        logi = [s for s in state.get("logistics", {}).values() if s["side"] == side and s.get("hex") == label]
        # only counters that stand on the map count (3.1): leaders not inside an army commander's
        # box, unled units, wagons and depots -- never the units kept on the AOD
        in_boxes = {lid for lid in leaders if state["leaders"][lid].get("superior")
                    and state["leaders"].get(cast(str, state["leaders"][lid]["superior"]), cast(Leader, {})).get("hq")}
        loose = [u for u in units if u.get("leader") is None]
        count = len(leaders) - len(in_boxes) + len(loose) + len(logi)
        out[label] = {"side": side, "top": _top(state, label, side, units, logi), "under": count - 1}
    return out
