"""The turn's brief tells a Union attack cancelled at Low Initiative (17.3) as it tells a combat fought:
the hex, the units, and "cancelled (17.3)" -- never "Attack on None: None vs None"."""
from hxref.kit import registry
from tests.cases import book


def test_a_cancelled_attack_is_told_with_its_hex_and_units() -> None:
    case = book.Case("salem-church", book.Path("brief.yaml"), 0, {
        "rule": "17.3", "title": "cancelled", "scenario": "salem-church",
        "before": [{"decision": "setup", "orders": {"confederate": {"place": {"wilcox-m": "1010"}}},
                    "state": {"units.first-1.hex": "1110", "turn": 7, "phasing": "union", "initiative": "low",
                              "initiative_turn": 7}}]})
    system, state = book.position(case)
    decision = book.awaited(system, state, "orders")
    orders = {"union": {"moves": [], "attacks": [{"attackers": ["first-1"], "target": "1010"}]}}
    new, events, _ = book.play(system, state, decision, orders, {"low initiative MC*": [5]})
    view = registry.get("salem-church").view(new, "union", "umpired")
    told = system.brief(events, view, "union")
    assert [t for t in told if t.startswith("Attack")] == ["Attack on 1010: First/1 vs Wilcox/M, 5-5 = +0 -- "
                                                           "cancelled (17.3)."]
