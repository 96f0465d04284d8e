"""Voluntary deactivation of a leader (8.12a) and the pay it saves (11.0).

"A player may deactivate his own leaders at any time" (8.12a).  The phasing side names them in
its impulse's orders, ``deactivate: [leader, ...]``; they flip to their inactive side at the end
of the impulse, after its combat and just before the leaders are paid (4.25).  That is the
moment the choice matters: 11.0 pays 1 WEP for every active leader and for every leader
deactivated against his will during the impulse, but not for one who deactivated voluntarily
(games/heartland/readings.md: the reading of "at any time").  The flip is 8.11's: his AP
fall to the inactive-side AR.  Until it happens the order is the phasing side's own (3.71: the
enemy's view of the impulse does not hold it); the flip itself is seen by all, as 8.11's is.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..base import Problem
from . import forces as fc
from .imc import apply_deactivation, deactivation
from .names import surname
from .state_types import FullGameState
from ...kit.events import Event, event

RULE = "8.12a"


def order_problems(state: FullGameState, side: str, names: Any, moves: Iterable[dict]) -> list[Problem]:
    """8.12a: each leader named is one of the side's own, on the map or in a box, named once, and
    active (or reactivated by his own move in these orders, 8.12)."""
    if not isinstance(names, list):
        return [Problem("`deactivate` is a list of your leaders", RULE, ["deactivate"])]
    reactivating = {mv.get("force") for mv in moves if isinstance(mv, dict) and mv.get("reactivate")}
    seen: set[str] = set()
    for i, lid in enumerate(names):
        ld = state["leaders"].get(lid) if isinstance(lid, str) else None
        if ld is None or ld["side"] != side:
            # 3.71: one answer for any id, the enemy's or none
            return [Problem(f"`{lid}` is not one of your leaders", RULE, ["deactivate", i])]
        if ld.get("killed") or ld.get("removed") or not fc.in_service(ld) or ld.get("cos_of"):
            return [Problem(f"{lid} is not on the map or in a box: only a leader there deactivates", RULE,
                            ["deactivate", i])]
        if lid in seen:
            return [Problem(f"{lid} is named twice", RULE, ["deactivate", i])]
        seen.add(lid)
        if not ld.get("active") and lid not in reactivating:
            return [Problem(f"{lid} is already inactive", RULE, ["deactivate", i])]
    return []


def deactivate_at_impulse_end(state: FullGameState, side: str, names: Iterable[str],
                              events: list[Event]) -> list[str]:
    """8.12a: flip the named leaders who are still active and in service; the leaders deactivated."""
    done: list[str] = []
    for lid in names:
        ld, name = state["leaders"][lid], surname(state["leaders"], lid)
        if ld.get("killed") or ld.get("removed") or not fc.in_service(ld):
            events.append(event("deactivate.void", f"{name} is no longer on the map: no voluntary deactivation", RULE,
                                side=side, visible_to=[side]))
            continue
        if not ld.get("active"):
            events.append(event("deactivate.void", f"{name} is already inactive: no voluntary deactivation", RULE,
                                side=side, visible_to=[side]))
            continue
        d = deactivation(state, lid, voluntary=True)
        apply_deactivation(state, d)
        done.append(lid)
        events.append(event("deactivated", f"{name} is deactivated voluntarily at the end of the impulse (8.12a)",
                            RULE, side=side, leader=lid, voluntary=True))
        events.append(event("deactivated.detail",
                            f"{name}'s AP {d.ap_before} -> {d.ap_after} (his inactive AR, 8.11); "
                            "not paid this impulse (11.0)", RULE, side=side, visible_to=[side]))
    return done
