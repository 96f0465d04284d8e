"""The orders template proposes only what ``check`` accepts: its skeleton stands as it is, and the
attacks it offers are the ones the rules allow (8.4: against an enemy stack the side sees, a leader or
a unit on top; 8.42: a force in enemy ZOC checks against a stack exerting it), read from the rules'
own functions on the side's view."""
from __future__ import annotations

from pathlib import Path

import pytest

from hxref.systems.heartland.impulse_check import standing_attack_checks
from tests.cases import book

BID = [{"decision": "bid", "orders": {"union": {"bid": 3}, "confederate": {"bid": 1}},
        "dice": {"weather (2d6)": [3, 3]}}]
#: Lassiter's army marched off from Corliss (1413): its depot cd1 stays there alone, no stack (8.4)
CORLISS_LEFT = {f"leaders.{lid}.hex": "1716" for lid in ("lassiter", "tiller", "quarles")}


def position(state: dict):
    case = book.Case("heartland", Path("template.yaml"), 0,
                     {"rule": "x", "title": "template", "scenario": "river-line", "state": state, "before": BID,
                      "decision": "x"})
    system, st = book.position(case)
    return system, st, book.awaited(system, st, "orders")


@pytest.mark.parametrize("mode", ["open", "umpired"])
@pytest.mark.parametrize("state", [{"leaders.dorsey.hex": "1412", **CORLISS_LEFT}, {"leaders.dorsey.hex": "1412"}],
                         ids=["next-to-a-depot-alone", "next-to-lassiters-army"])
def test_the_skeleton_is_accepted_and_attacks_only_where_the_rules_ask(state, mode):
    system, st, decision = position(state)
    template = system.template(system.view(st, "union", mode), decision, "union")
    assert book.side_problems(system, st, decision, "union", dict(template.choice)) == []
    attacks = [{"force": m["force"], "attack": m["attack"]} for m in template.choice["moves"] if "attack" in m]
    assert attacks == standing_attack_checks(st, system.charts.map(st["map"]), "union")


def test_a_depot_alone_is_no_stack_to_attack_in_the_notes():
    system, st, decision = position({"leaders.dorsey.hex": "1412", **CORLISS_LEFT})
    notes = "\n".join(system.template(system.view(st, "union", "open"), decision, "union").notes)
    assert "dorsey: 1412" in notes and "1413: attack" not in notes and "next to enemy stacks in 1413" not in notes
    system, st, decision = position({"leaders.dorsey.hex": "1412"})
    notes = "\n".join(system.template(system.view(st, "union", "open"), decision, "union").notes)
    assert "next to enemy stacks in 1413: attack one (8.41)" in notes
