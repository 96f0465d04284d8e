"""Stand-fast (a late side's answer under a signed claim) in the Heartland impulse: the forces
stand where they are, but one that starts in enemy ZOC may not simply stand (8.42a): its default
is an attack check against an enemy stack exerting that ZOC, an answer ``check`` accepts."""
from __future__ import annotations

from pathlib import Path

from tests.cases import book

BID = [{"decision": "bid", "orders": {"union": {"bid": 1}, "confederate": {"bid": 3}},
        "dice": {"weather (2d6)": [3, 3]}}]


def _position(state: dict):
    case = book.Case("heartland", Path("stand_fast.yaml"), 0, {"rule": "8.42a", "title": "stand fast",
                                                               "scenario": "heartland-demo", "state": state,
                                                               "before": BID, "decision": "orders"})
    return book.position(case)


def test_a_force_in_enemy_zoc_stands_fast_by_checking_to_attack():
    system, state = _position({"leaders.whitcomb.hex": "1910"})       # beside Calloway's force in 2010
    decision = book.awaited(system, state, "orders")
    assert decision.sides == ("confederate",)
    default = system.stand_fast(state, decision, "confederate")
    assert {"force": "calloway", "attack": "1910"} in default["moves"], default
    assert system.check(state, decision, "confederate", default) == []
    # without it the default is refused by 8.42a: the force may not simply stand in enemy ZOC
    bare = {**default, "moves": []}
    assert any(p.rule == "8.42" for p in system.check(state, decision, "confederate", bare))


def test_forces_out_of_enemy_zoc_stand_where_they_are():
    system, state = _position({})
    decision = book.awaited(system, state, "orders")
    assert system.stand_fast(state, decision, "confederate")["moves"] == []
