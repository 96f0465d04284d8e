"""The Reorganization Segment's first step, destruction: rules 13.1, 13.11, 13.12 and 13.13.

The active OC of a stack spends 1 AP per attempt to burn a bridge (13.11:
cavalry in a hex at either end), a town (13.12) or a Union Naval Landing;
only a 6 burns; burning brigades for WEP (13.13).  The step's orders, the
readings and the order of the segment are in :mod:`.reorganization`.
"""
from __future__ import annotations

from typing import Mapping, cast

from .state_types import FullGameState
from ..base import Problem
from .forced_march import Work
from .reorg_step import (
    Action, StepResult, _AP, _spend_ap, _label_of_side, _leader_problems, _mark, _must_be_oc, _refused,
    _summary, _wep_change, brigades_in, hex_units, landing_hexes, marked, reorg,
    turn_of)

BURN_ON = 6                      # 13.11, 13.12: only a 6
BRIGADES_PER_WEP = 2             # 13.13
MAJOR_RIVER, BRIDGE, TOWN, MAJOR_CITY, VILLAGE = "major_river", "bridge", "town", "major_city", "village"


# --------------------------------------------------------------------------
# 13.1 destruction


TARGETS = ("bridge", "town", "landing")


def check_destruction(state: FullGameState, side: str, orders: Mapping | None, hexmap) -> list[Problem]:
    """13.1-13.13: everything wrong with a side's destruction orders (no dice)."""
    return _destruction_plan(state, side, orders, hexmap)[1]


def _target_kind(o, path: list) -> str | Problem:
    """13.1: each order is a mapping naming exactly one target: a bridge, a town or a landing."""
    if not isinstance(o, Mapping):
        return Problem("each destruction order is a mapping {leader, bridge|town|landing, attempts}", "13.1", path)
    kinds = [k for k in TARGETS if k in o]
    if len(kinds) != 1:
        return Problem("name exactly one target: bridge (a hexside), town or landing (a hex)", "13.1", path)
    return kinds[0]


def _attempts(o: Mapping, kind: str, path: list) -> tuple[int, Problem | None]:
    """13.1, 13.13: the attempts at 1 AP each (a raid is one attempt)."""
    attempts = 1 if kind == "landing" else o.get("attempts", 1)
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        return 0, Problem("attempts is a whole number, at least 1", "13.1", path + ["attempts"])
    return attempts, None


def _bridge(state: FullGameState, side: str, hexmap, lid: str, here: str, target, burned, path: list
            ) -> tuple[str, Problem | None]:
    """13.11: a bridge over a major river, not yet burned, at either end of which the OC stands with
    a cavalry unit."""
    s, label = _label_of_side(hexmap, target)
    if s is None:
        return target, Problem(f"{target!r} is not a hexside of this map: {label}", "13.11", path + ["bridge"])
    feats = set(hexmap.side_features(s, effective=False))
    if not {MAJOR_RIVER, BRIDGE} <= feats:
        return target, Problem(f"{label} has no bridge over a major river", "13.11", path + ["bridge"])
    if label in burned:
        return target, Problem(f"the bridge at {label} is already burned", "13.11", path + ["bridge"])
    if hexmap.parse(here) not in s.hexes:
        return target, Problem(f"{lid} in {here} is not at either end of the bridge {label}", "13.11",
                               path + ["leader"])
    if not any(state["units"][u]["arm"] == "cavalry" for u in hex_units(state, here, side)):
        return target, Problem(f"the stack in {here} has no cavalry unit: burning a bridge needs one", "13.11", path)
    return label, None


def _town(hexmap, lid: str, here: str, target: str, devastated, path: list) -> Problem | None:
    """13.12: the OC in a town (not a major city or village, not yet devastated) burns it."""
    try:
        h = hexmap.parse(target)
    except Exception:
        return Problem(f"{target!r} is not a hex of this map", "13.12", path + ["town"])
    feats = set(hexmap.features(h))
    if target != here:
        return Problem(f"{lid} is in {here}, not in the town {target}: the OC in the town burns it",
                       "13.12", path + ["town"])
    if TOWN not in feats or target in devastated:
        why = ("major cities cannot be burned" if MAJOR_CITY in feats else
               "villages cannot be burned" if VILLAGE in feats else
               "it is already devastated" if target in devastated else "there is no town there")
        return Problem(f"{target}: {why}", "13.12", path + ["town"])
    return None


def _landing(state: FullGameState, side: str, lid: str, here: str, target: str, raided: set, path: list) -> Problem | None:
    """13.13: a Confederate OC in a Union Naval Landing's hex raids it, once a turn."""
    if side != "confederate":
        return Problem("only the Confederates raid Union Naval Landings", "13.13", path)
    if target not in landing_hexes(state):
        return Problem(f"there is no Union Naval Landing in {target}", "13.13", path + ["landing"])
    if target != here:
        return Problem(f"{lid} is in {here}, not in the landing hex {target}", "13.13", path + ["landing"])
    if target in raided:
        return Problem(f"the landing in {target} has already been raided this turn", "13.13", path + ["landing"])
    return None


def _destruction_plan(state: FullGameState, side: str, orders: Mapping | None, hexmap):
    items = list((orders or {}).get("destruction") or [])
    plan: list[dict] = []
    problems: list[Problem] = []
    ap = _AP(state)
    burned = marked(state, "burned_bridges")
    devastated = marked(state, "devastated")
    raided = set(reorg(state).get("raided") or {})
    for i, o in enumerate(items):
        path = ["destruction", i]
        kind = _target_kind(o, path)
        if isinstance(kind, Problem):
            problems.append(kind)
            continue
        lid = o.get("leader")
        ps = _leader_problems(state, side, lid, path + ["leader"], "13.1", active=True) \
            or _must_be_oc(state, side, lid, path + ["leader"], "13.1")
        if ps:
            problems += ps
            continue
        here = state["leaders"][lid]["hex"]
        attempts, bad = _attempts(o, kind, path)
        if bad is None:
            target = o[kind]
            if kind == "bridge":
                target, bad = _bridge(state, side, hexmap, lid, cast(str, here), target, burned, path)
            elif kind == "town":
                target = str(target)
                bad = _town(hexmap, lid, cast(str, here), target, devastated, path)
            else:
                target = str(target)
                bad = _landing(state, side, lid, cast(str, here), target, raided, path)
                if bad is None:
                    raided.add(target)
        if bad is not None:
            problems.append(bad)
            continue
        rule = {"bridge": "13.11", "town": "13.12", "landing": "13.13"}[kind]
        ps = ap.take(lid, attempts, path + ["attempts"], rule, f"{attempts} attempt(s) at 1 AP each")
        if ps:
            problems += ps
            continue
        plan.append({"kind": kind, "leader": lid, "target": target, "attempts": attempts, "rule": rule, "hex": here})
    return plan, problems


def destruction(state: FullGameState, side: str, orders: Mapping | None, dice, hexmap) -> StepResult:
    """13.1-13.13 (H-29): burn bridges and towns (1 AP per attempt, 6 only), raid Union landings."""
    plan, problems = _destruction_plan(state, side, orders, hexmap)
    if problems:
        return _refused("destruction", side, problems, "13.1")
    work = Work(state)
    actions: list[Action] = []
    for p in plan:
        lid, target, kind = p["leader"], p["target"], p["kind"]
        if kind == "landing":
            n = len(brigades_in(work.state, target, side))
            loss = n // BRIGADES_PER_WEP
            _spend_ap(work, lid, 1)
            got = _wep_change(work, "union", -loss)
            work.set(("current", "reorganization", "raided", target), n)
            actions.append(Action("raid", side, lid, target, 1, got, "union", [], True, "13.13",
                                  f"{lid} raids the Union landing in {target} (1 AP): {n} Confederate brigade(s), "
                                  f"1 WEP per {BRIGADES_PER_WEP}: Union WEP {got:+d}; the Confederates gain nothing"))
            continue
        rolls = []
        success = False
        for _ in range(p["attempts"]):
            _spend_ap(work, lid, 1)
            r = dice.d6(f"burn {kind} {target} ({lid})", by=side)
            rolls.append(r)
            if r == BURN_ON:
                success = True
                break
        if success:
            key = "burned_bridges" if kind == "bridge" else "devastated"
            _mark(work, key, target, {"side": side, "turn": turn_of(state)})
        what = "the bridge at" if kind == "bridge" else "the town of"
        actions.append(Action(f"burn_{kind}", side, lid, target, len(rolls), 0, None, rolls, success, p["rule"],
                              f"{lid} tries to burn {what} {target}: rolled {', '.join(map(str, rolls))} "
                              f"({len(rolls)} AP): " + ("a 6, burned" + (" (Bridge Burned marker)" if kind == "bridge"
                                                                          else " (Devastation marker)")
                                                        if success else "no 6, still standing")))
    return StepResult("destruction", side, actions, [], work.changes, "13.1",
                      _summary(actions, "no destruction ordered"))

