"""KGP RG purchases: the Initial Scenario's purchase with the initial CPP (8.5, 8.2 Initial
Scenario) and each Refit Phase's (8.619), checked and paid for the same way.

A purchase is a list of RG ids of the side's RG chart (``games/kgp/charts/rg.yaml``).  It is
refused when an RG is not on the chart, not available in the CG, bought more often than its
CG-Max allows over the whole CG, marked in the "CG Max" column and bought for the Initial
Scenario (8.2 Initial Scenario), when the RGs cost more CPP than the side has, or when an RG
whose id begins with I or HW has no secret Objective Hex sealed with it (8.2 Objective Hex:
``objective-<RG>-<n>``, the n-th of that RG bought in the CG).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Problem
from .campaign import load_campaign
from .rg_chart import load_rg_chart
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState

if TYPE_CHECKING:
    from ...kit.charts import Charts

INITIAL_RULE = "8.2 Initial Scenario"


def objective_id(rg_id: str, n: int) -> str:
    """The id of the Objective Hex sealed with the ``n``-th RG ``rg_id`` a side buys (8.2 Objective Hex)."""
    return f"objective-{rg_id}-{n}"


def ob_objective_id(side: str, rg_id: str, n: int) -> str:
    """The id of the Objective Hex of the ``n``-th RG ``rg_id`` of ``side``'s Initial OB (8.2); it
    names the side, as both OBs may hold the same RG ids and a side's unopened ids are its secrets."""
    return f"objective-ob-{side}-{rg_id}-{n}"


def ob_objective_ids(charts: Charts, cg_id: str, side: str) -> list[str]:
    """8.2 Objective Hex: every RG of the Initial OB whose id begins with I or HW gets one."""
    from .campaign import load_campaign

    chart = load_rg_chart(charts)
    out = []
    for item in load_campaign(charts, cg_id).initial.sides[side].ob:
        if item.kind == "rg" and chart.get(side, item.ref).objective_hex:
            out += [ob_objective_id(side, item.ref, n) for n in range(1, item.count + 1)]
    return out


def ob_objective_problems(charts: Charts, state: KgpState, side: str, seals: list) -> list[Problem]:
    """8.2 Objective Hex: the set-up orders seal the secret Objective Hex of each I or HW RG of the
    side's Initial OB, as ``objective-ob-<side>-<RG>-<n>`` of kind objective_hex."""
    have = {x["id"] for x in seals if x["kind"] == "objective_hex"}
    missing = [i for i in ob_objective_ids(charts, state["cg"], side) if i not in have]
    if missing:
        return [Problem(f"the {SIDE_ADJECTIVES[side]} Initial OB's I and HW RGs each need a secret Objective Hex: "
                        f"seal {', '.join(missing)} (kind objective_hex)", "8.2 Objective Hex", ["seal"])]
    return []


def purchase_problems(charts: Charts, state: KgpState, side: str, bought: list, sealed_ids: set[str], cpp: int, *,
                      initial: bool) -> list[Problem]:
    """The problems of ``side`` buying ``bought`` with ``cpp`` CPP (8.619; 8.5 and 8.2 when ``initial``)."""
    cg = load_campaign(charts, state["cg"])
    chart = load_rg_chart(charts)
    rule = "8.5" if initial else "8.619"
    cost = 0
    for i, rg_id in enumerate(bought):
        try:
            rg = chart.get(side, str(rg_id))
        except Exception as exc:
            return [Problem(str(exc), "8.619", ["purchase", i])]
        limit = rg.cg_max.get(cg.id)
        if limit is None:
            return [Problem(f"RG {rg_id} is not available in {cg.id.upper()}", "8.619", ["purchase", i])]
        if initial and not rg.initial:
            return [Problem(f"RG {rg_id} ({rg.name}) is marked in the CG Max column: it may not be bought for "
                            f"the {cg.id.upper()} Initial Scenario", INITIAL_RULE, ["purchase", i])]
        done = sum(1 for x in state["purchases"][side] if x["rg"] == rg_id) + bought[:i].count(rg_id)
        if done >= limit:
            return [Problem(f"RG {rg_id} may be bought {limit} time(s) in {cg.id.upper()} (CG-Max)", "8.619",
                            ["purchase", i])]
        if rg.objective_hex and objective_id(rg_id, done + 1) not in sealed_ids:
            return [Problem(f"RG {rg_id} needs a secret Objective Hex: seal `{objective_id(rg_id, done + 1)}` "
                            "(kind objective_hex) in the same orders", "8.2 Objective Hex", ["seal"])]
        cost += rg.cpp
    if cost > cpp:
        where = "the initial CPP of the Initial Scenario" if initial else "CPP"
        return [Problem(f"the RGs cost {cost} CPP; {SIDE_ADJECTIVES[side]} have {cpp} ({where})", rule,
                        ["purchase"])]
    return []


def pay(charts: Charts, state: KgpState, side: str, bought: list[str]) -> int:
    """Record ``side``'s RGs bought on the current CG Date and pay their CPP; the CPP they cost."""
    chart = load_rg_chart(charts)
    cost = 0
    for rg_id in bought:
        rg = chart.get(side, rg_id)
        state["cpp"][side] -= rg.cpp
        cost += rg.cpp
        state["purchases"][side].append({"rg": rg_id, "date": state["date"], "cpp": rg.cpp, "name": rg.name})
    return cost
