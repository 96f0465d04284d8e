"""kit.walk: a move order walked hex by hex (the move-order cases of the movement case book,
tests/geometry/movement_cases.yaml), and kit.zoc."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hxref.geometry.hex import Hex, HexSide
from hxref.geometry.paths import MoveRules, Prohibited
from hxref.kit.walk import End, Refusal, Rule, WalkRules, walk
from hxref.kit.zoc import zoc
from hxref.geometry.mapfile import load_map
from tests.geometry.hexart import cost_from, parse_art

ROOT = Path(__file__).resolve().parents[2]
CASES = [c for c in yaml.safe_load((ROOT / "tests/geometry/movement_cases.yaml").read_text(encoding="utf-8"))["cases"]
         if "order" in c]
#: the case book's messages (the generic texts, as the geometry move check had them)
BOOK = WalkRules(move="M", not_a_hex=Rule("", "{to} is not on the map"))


def walk_order(rules: MoveRules, order: list[Hex], *, mp=None, on_map=None, name=repr):
    """An order given start first, as the case book writes it."""
    return walk(order[1:], rules.cost, start=order[0], rules=BOOK, name=name, mp=mp, stops=rules.stop_reason,
                hex_of=lambda h: h if on_map is None or on_map(h) else None)


def _setup(case):
    if "art" in case:
        grid, cells = parse_art(case["art"])
        return grid.label, grid.parse, cost_from(cells, case["costs"])
    m = load_map(ROOT / case["map"])
    return m.label, m.parse, m.step_cost(case.get("unit"), case.get("lines"))


@pytest.mark.parametrize("case", CASES, ids=[c["id"].split()[0] for c in CASES])
def test_move_order_case_book(case):
    label, parse, step = _setup(case)
    zoc_hexes = {parse(x) for x in case.get("zoc", [])}
    rules = MoveRules(step, stops=(lambda h: "enemy ZOC" if h in zoc_hexes else False), zoc=zoc_hexes.__contains__)
    res = walk_order(rules, [parse(x) for x in case["order"]], mp=case.get("mp"), name=label)
    assert res.legal == case["legal"], f"{case['id']}: {res.why}"
    if "cost" in case:
        assert res.spent == case["cost"]
    if "bad_index" in case:
        assert res.at + 1 == case["bad_index"]      # the book counts the start hex as 0
    if "reason" in case:
        assert case["reason"] in res.why


def test_prohibited_reasons_and_off_map():
    grid, cells = parse_art(". .\n. .")
    rules = MoveRules(lambda a, b: Prohibited("the river is in flood") if grid.label(b) == "0201" else 1)
    res = walk_order(rules, [grid.parse("0101"), grid.parse("0201")], name=grid.label)
    assert not res and res.why == "0101 to 0201: the river is in flood" and res.at == 0 and res.end is End.REFUSED
    res = walk_order(MoveRules(lambda a, b: 1), [grid.parse("0202"), grid.labels.parse("0302")],
                     on_map=grid.contains, name=grid.label)
    assert res.why == "0302 is not on the map" and res.here == grid.parse("0202")
    assert walk_order(MoveRules(lambda a, b: 1), [Hex(0, 0)]).end is End.PATH


def test_stop_hex_at_start_does_not_stop():
    rules = MoveRules(lambda a, b: 1, stops=lambda h: h == Hex(0, 0))
    assert walk_order(rules, [Hex(0, 0), Hex(1, 0), Hex(2, 0)]).legal
    res = walk_order(rules, [Hex(1, 0), Hex(0, 0), Hex(-1, 0)])
    assert not res and res.halt.at == Hex(0, 0) and "must stop" in res.why and res.at == 1


def test_steps_carry_their_cost_total_and_rule():
    rules = WalkRules(move="8.21", zoc_stop=Rule("3.61", "entered enemy ZOC in {to}"))
    res = walk([Hex(1, 0), Hex(2, 0)], lambda a, b: 1.5, start=Hex(0, 0), rules=rules, hex_of=lambda h: h,
               zoc={Hex(2, 0)}.__contains__, mp=4, name=lambda h: f"{h.q}/{h.r}")
    assert [(s.cost, s.total, s.rule) for s in res.steps] == [(1.5, 1.5, "8.21"), (1.5, 3, "3.61")]
    assert res.end is End.HALT and res.rule == "3.61" and res.why == "entered enemy ZOC in 2/0"
    assert res.spent == 3 and res.hexes == [Hex(0, 0), Hex(1, 0), Hex(2, 0)]


def test_zoc_rules_and_the_systems_own_refusals():
    z = {"b", "c"}.__contains__
    hexes = {"a": Hex(0, 0), "b": Hex(1, 0), "c": Hex(2, 0), "d": Hex(3, 0)}
    base = WalkRules(move="M", zoc_stop=Rule("Z", "stop in {to}"))
    kw = dict(start="a", hex_of=hexes.get, zoc=z)
    # without a ZOC-to-ZOC rule the unit stops in b, and going on is refused by go_on
    res = walk(["b", "c"], lambda a, b: 1, rules=base, **kw)
    assert res.end is End.REFUSED and res.at == 1 and res.halt.at == "b" and "must stop in b" in res.why
    # starting in ZOC: b -> c is ZOC to ZOC
    ztz = WalkRules(move="M", zoc_to_zoc=Rule("Z2", "{frm} to {to}: ZOC to ZOC"))
    res = walk(["c"], lambda a, b: 1, rules=ztz, start="b", hex_of=hexes.get, zoc=z)
    assert (res.end, res.rule, res.why, res.at) == (End.REFUSED, "Z2", "b to c: ZOC to ZOC", 0)
    no_entry = WalkRules(move="M", zoc_entry=Rule("Z3", "may not enter {to}"))
    assert walk(["b"], lambda a, b: 1, rules=no_entry, **kw).rule == "Z3"
    res = walk(["b"], lambda a, b: 1, rules=base, enters=lambda i, h: Refusal(f"{h} is full", "S"), **kw)
    assert (res.why, res.rule, res.steps) == ("b is full", "S", ())
    # a Prohibited with a rule of its own keeps it; the MP limit names the numbers
    class Ruled(Prohibited):
        rule = "TEC"

    assert walk(["b"], lambda a, b: Ruled("woods"), rules=base, **kw).rule == "TEC"
    res = walk(["b"], lambda a, b: 1.5, rules=base, mp=1, **kw)
    assert res.end is End.MP and res.why == "entering b costs 1.5 MP but only 1 of 1 MP are left" and res.rule == "M"


def test_zoc_spreads_to_the_adjacent_hexes_less_blocked_sides():
    units = {"a": Hex(0, 0), "b": Hex(0, 0), "x": None}
    z = zoc(units, lambda h: h, on_map=lambda h: h != Hex(0, 1),
            blocks=lambda a, b: HexSide(a, b) == HexSide(Hex(0, 0), Hex(1, 0)))
    assert set(z) == set(Hex(0, 0).neighbours()) - {Hex(0, 1), Hex(1, 0)}
    assert all(v == {"a", "b"} for v in z.values())
    own = zoc(units, lambda h: h, on_map=lambda h: True, own_hex=True)
    assert own[Hex(0, 0)] == {"a", "b"} and len(own) == 7


def test_module_examples():
    import doctest

    import hxref.kit.walk
    import hxref.kit.zoc

    for mod in (hxref.kit.walk, hxref.kit.zoc):
        assert doctest.testmod(mod).failed == 0
