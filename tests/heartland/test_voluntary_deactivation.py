"""8.12a voluntary deactivation and 9.21 by year, seen by the players: what each side's view and
order template tell them while the impulse waits for the defender's answer."""
import json

from tests.cases import book

DEMO_BID = {"decision": "bid", "orders": {"union": {"bid": 3}, "confederate": {"bid": 1}},
            "dice": {"weather (2d6)": [3, 3]}}


def _assault_waiting(year: int, deactivate: list[str]):
    """Dunning (1804) has passed his attack check on Strother in 1904: the Confederates' defence is awaited."""
    union = {"moves": [{"force": "dunning", "path": [], "attack": "1904"}]}
    if deactivate:
        union["deactivate"] = deactivate
    case = book.Case("heartland", book.Path("test.yaml"), 0, {
        "rule": "8.12a", "title": "t", "scenario": "heartland-demo",
        "setup": {"calendar": [{"turn": 1, "year": year, "month": 9}]},
        "state": {"leaders.dunning.hex": "1804"},
        "before": [DEMO_BID, {"decision": "orders", "orders": {"union": union},
                              "dice": {"attack check dunning*": [1]}}]})
    system, state = book.position(case)
    return system, state, book.awaited(system, state, "defence")


def test_the_defender_does_not_learn_of_a_deactivation_the_attacker_has_ordered():
    # the attack: the Confederates, holding only their own view, read the Union's pending
    # orders to learn that Whitcomb will be inactive (no reaction, no pre-combat retreat, 10.21)
    # in their coming impulse.  The order is the Union's own until the impulse's end.
    system, state, decision = _assault_waiting(1862, ["whitcomb"])
    assert state["current"]["active_impulse"]["deactivate"] == ["whitcomb"]
    enemy = system.view(state, "confederate", "umpired")
    assert "deactivate" not in json.dumps(enemy["current"])
    notes = system.template(enemy, decision, "confederate").notes
    assert not any("whitcomb" in n.lower() and "deactiv" in n.lower() for n in notes)
    assert system.view(state, "union", "umpired")["current"]["active_impulse"]["deactivate"] == ["whitcomb"]
    assert state["leaders"]["whitcomb"]["active"]
    # the defender stands; the impulse ends, and only now is Whitcomb deactivated, seen by both
    dice = {"FERT*": [3, 3]}
    new, events, _ = book.play(system, state, decision, {"confederate": {}}, dice)
    assert not new["leaders"]["whitcomb"]["active"]
    flip = next(e for e in events if e["type"] == "deactivated")
    assert flip["leader"] == "whitcomb" and "visible_to" not in flip
    combat = [i for i, e in enumerate(events) if e["type"] == "combat"]
    assert combat and combat[0] < events.index(flip)        # after the impulse's combat


def test_the_defence_template_tells_the_year_s_rule():
    system, state, decision = _assault_waiting(1861, [])
    notes = system.template(system.view(state, "confederate", "umpired"), decision, "confederate").notes
    assert "In 1861 neither side may retreat before combat (9.21)." in notes
    system, state, decision = _assault_waiting(1863, [])
    notes = system.template(system.view(state, "confederate", "umpired"), decision, "confederate").notes
    assert any(n.startswith("In 1863 you are not held to conditions 3 and 4") for n in notes)
    union_notes = system.template(system.view(state, "union", "umpired"), decision, "union").notes
    assert not any("1863" in n for n in union_notes)
