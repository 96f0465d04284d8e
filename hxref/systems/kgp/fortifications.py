"""KGP fortification purchase (8.621): fortifications bought with FPP, costed from the stand-in
chart ``games/kgp/charts/fortifications.yaml`` and kept in the buying side's own record.

A purchase is a list of ``{fortification, count}``; it is refused when a fortification is not on
the chart, when an Initial-Scenario SSR forbids it (CG-I I.4: no US trenches; CG-III III.3: no
roadblocks), or when it costs more FPP than the side has.  The Initial Scenario's purchase goes
with its set-up orders (8.5: it starts at 8.618, before 8.621).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Problem
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

RULE = "8.621"


def chart(charts: Charts) -> dict:
    """The fortification chart's data (the chart ``fortifications`` of ``charts``); read-only."""
    return charts.chart("fortifications")


def cost_of(charts: Charts, items: list) -> int:
    forts = chart(charts)["fortifications"]
    return sum(int(forts[x["fortification"]]["fpp"]) * int(x.get("count", 1)) for x in items)


def fpp_problems(charts: Charts, state: KgpState, side: str, items: list, *, initial: bool) -> list[Problem]:
    c = chart(charts)
    forts = c["fortifications"]
    for i, x in enumerate(items):
        f = x["fortification"]
        if f not in forts:
            return [Problem(f"no fortification {f!r} on the chart; one of {', '.join(forts)}", RULE,
                            ["fpp", i, "fortification"])]
        for p in c.get("prohibited", []):
            if p["cg"] == state["cg"] and p["side"] == side and p["fortification"] == f and (initial or not p["initial"]):
                return [Problem(f"{p['text']} ({p['cg'].upper()} Initial Scenario)", p["rule"],
                                ["fpp", i, "fortification"])]
    cost = cost_of(charts, items)
    if cost > state["fpp"][side]:
        return [Problem(f"the fortifications cost {cost} FPP; {SIDE_ADJECTIVES[side]} have {state['fpp'][side]}",
                        RULE, ["fpp"])]
    return []


def buy(charts: Charts, state: KgpState, side: str, items: list, events: list[Event], dice) -> None:
    """Pay the FPP and record the fortifications in ``side``'s own record; the Dummy minefields
    their Known Minefields bring (7.2)."""
    if not items:
        return
    forts = chart(charts)["fortifications"]
    cost = cost_of(charts, items)
    state["fpp"][side] -= cost
    mine = state.setdefault("fortifications", {"us": [], "german": []})[side]
    for x in items:
        f = forts[x["fortification"]]
        mine.append({"date": state["date"], "fortification": x["fortification"], "name": f["name"],
                     "count": int(x.get("count", 1)), "fpp": int(f["fpp"]) * int(x.get("count", 1))})
    bought = ", ".join(f"{int(x.get('count', 1))} x {forts[x['fortification']]['name']}" for x in items)
    events.append(event("refit.fortifications",
                        f"{SIDE_ADJECTIVES[side]} buy {bought} for {cost} FPP (stand-in costs); FPP left "
                        f"{state['fpp'][side]}", RULE, side=side, visible_to=[side]))
    known = sum(int(forts[x["fortification"]].get("known_fp", 0)) * int(x.get("count", 1)) for x in items)
    dummies(charts, state, side, known, events, dice)


def dummies(charts: Charts, state: KgpState, side: str, known_fp: int, events: list[Event], dice) -> None:
    """7.2: 1 Dummy minefield per full 24 FP of Known Minefield received; with at least 1, a
    secret dr halved (FRD) more.  The dr and the count are the owner's alone."""
    per = int(chart(charts)["dummy_minefields"]["per_fp"])
    base = known_fp // per
    if base < 1:
        if known_fp:
            events.append(event("dummy_minefields",
                                f"{SIDE_ADJECTIVES[side]}: {known_fp} FP of Known Minefield, less than {per}: no "
                                "Dummy minefield, so no secret dr", "7.2", side=side, visible_to=[side]))
        return
    dr = dice.d6(f"secret dr: 7.2 Dummy minefields ({side})", by=side, visible_to=[side])
    extra = dr // 2                                     # the dr halved, fractions rounded down
    state.setdefault("dummy_minefields", {"us": [], "german": []})[side].append(
        {"date": state["date"], "known_fp": known_fp, "base": base, "dr": dr, "extra": extra, "total": base + extra})
    events.append(event("dummy_minefields",
                        f"{SIDE_ADJECTIVES[side]} Dummy minefields: {known_fp} FP of Known Minefield gives {base} "
                        f"(1 a full {per} FP); secret dr {dr} halved (FRD) gives {extra} more: {base + extra} "
                        "Dummies", "7.2", side=side, visible_to=[side]))
