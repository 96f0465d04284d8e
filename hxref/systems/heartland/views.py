"""What each side may see of the armies (3.71 fog of war).

A side sees its own Army Organization Display in full: leaders with their
ratings, ML, AP, artillery and ammunition, the units in each box with their
strength, its wagons and depots, its WEP.  Of the enemy it sees only what is
on the map: in each hex the top counter -- the Overall Commander of the hex
(3.22), or for a stack without leaders its first unit or supply counter --
and how many counters lie under it, never what they are.

The views are built here, from the state, for one side; reports and map
pictures are rendered from views only.
"""
from __future__ import annotations

import copy

from . import model

ARMY_KEYS = ("leaders", "units", "logistics", "sources")


def _oc(state: dict, label: str, side: str) -> str | None:
    from .forces import overall_commander   # the rules of 3.22

    leaders = model.leaders_in_hex(state, label, side)
    return overall_commander(state, leaders) if leaders else None


def top_counters(state: dict, side: str) -> dict[str, dict]:
    """For each hex ``side`` occupies: what an enemy sees there (3.71)."""
    out: dict[str, dict] = {}
    hexes = set(model.occupied_hexes(state, side))
    hexes |= {s["hex"] for s in state.get("logistics", {}).values()
              if s["side"] == side and s.get("hex") and not s.get("leader")}
    for label in sorted(hexes):
        leaders = model.leaders_in_hex(state, label, side)
        units = [u for u in state["units"].values() if u["side"] == side and u["steps"] > 0 and (
            (u.get("leader") in leaders) or (u.get("leader") is None and u.get("hex") == label))]
        logi = [s for s in state.get("logistics", {}).values() if s["side"] == side and s.get("hex") == label]
        # only counters that stand on the map count (3.1): leaders not inside an army commander's
        # box, unled units, wagons and depots -- never the units kept on the AOD
        in_boxes = {lid for lid in leaders if state["leaders"][lid].get("superior")
                    and state["leaders"].get(state["leaders"][lid]["superior"], {}).get("hq")}
        loose = [u for u in units if u.get("leader") is None]
        count = len(leaders) - len(in_boxes) + len(loose) + len(logi)
        oc = _oc(state, label, side)
        if oc:
            ld = state["leaders"][oc]
            r = model.leader_ratings(ld)
            top = {"kind": "leader", "id": oc, "name": ld["name"], "stars": ld["stars"],
                   "active": ld["active"], "ratings": f"{r['ar']}-{r['br']}-{r['mr']}"}
        elif units:
            u = units[0]
            top = {"kind": "unit", "arm": u["arm"], "size": u["size"]}
        else:
            s = logi[0]
            top = {"kind": s["kind"]}
        out[label] = {"side": side, "top": top, "under": count - 1}
    return out


def army_view(state: dict, side: str | None, mode: str) -> dict:
    """The state as ``side`` may see it (None: the public)."""
    v = copy.deepcopy({k: v for k, v in state.items() if k not in ARMY_KEYS})
    if "leaders" not in state or not isinstance(state["leaders"], dict):
        return v
    sides = ("union", "confederate")
    if mode != "umpired":
        v.update(copy.deepcopy({k: state[k] for k in ARMY_KEYS if k in state}))
        v["seen"] = {s: top_counters(state, s) for s in sides}
        return v
    mine = side if side in sides else None
    v["leaders"] = {k: copy.deepcopy(ld) for k, ld in state["leaders"].items() if ld["side"] == mine}
    v["units"] = {k: copy.deepcopy(u) for k, u in state["units"].items() if u["side"] == mine}
    v["logistics"] = {k: copy.deepcopy(s) for k, s in state.get("logistics", {}).items() if s["side"] == mine}
    v["sources"] = {mine: list(state.get("sources", {}).get(mine, []))} if mine else {}
    v["seen"] = {s: top_counters(state, s) for s in sides}
    # per-side records kept in the shared state: only the viewer's own part (3.71)
    for key in ("standing", "replacements", "hq_pool"):
        if isinstance(v.get(key), dict):
            v[key] = {s: x for s, x in v[key].items() if s == mine}
    if isinstance(v.get("off_map"), list):      # 8.74: where each force went is its side's to know
        v["off_map"] = [x for x in v["off_map"] if x.get("side") == mine]
    nv = v.get("naval")
    if isinstance(nv, dict) and mine:        # 3.17: the Naval Assault Display is on the Union AOD
        for gid, gb in list((nv.get("gunboats") or {}).items()):
            if gb.get("side") != mine:
                if gb.get("box"):
                    del nv["gunboats"][gid]          # off the map, on the enemy's display
                else:
                    gb.pop("cargo", None)
        active = (state.get("current") or {}).get("active_impulse") or {}
        if active.get("side") != mine:
            nv.pop("current", None)                  # the phasing side's gunboat missions this impulse
    if "initial_steps" in v:
        v["initial_steps"] = {u: n for u, n in v["initial_steps"].items() if state["units"].get(u, {}).get("side") == mine}
    cur = v.get("current", {})
    for key in ("wdo", "wdo_used"):
        if isinstance(cur.get(key), dict):
            cur[key] = {s: x for s, x in cur[key].items() if s == mine}
    reorg = cur.get("reorganization")
    if isinstance(reorg, dict):
        cur["reorganization"] = {k: ({s: x for s, x in r.items() if s == mine} if isinstance(r, dict) and set(r) <= {
            "union", "confederate"} else r) for k, r in reorg.items()}
    if state.get("options", {}).get("dense_fog"):       # 3.72 (optional): strengths and markers hidden
        from .dense_fog import redact

        v = redact(v, mine, state.get("options"))
        cur = v.get("current", {})
    imp = cur.get("active_impulse")
    if imp and mine != imp.get("side"):
        # the enemy's supply states, MP and plans are its own secrets
        for key in ("supply", "mp", "combat", "forced_march", "mp_from_reactivation"):
            imp.pop(key, None)
    if mine:     # 8.62a/c: forces hidden under the enemy's cavalry screen are off this side's map
        from .cavalry import concealment, redact_view

        hidden = concealment(state, "confederate" if mine == "union" else "union")
        if hidden.hidden or hidden.masked:
            v = redact_view(v, hidden)
    return v
