"""Nested choice schemas (hxref.kit.schema), their storage in the game file
(Decision.to_dict/from_dict) and their one check in hxref.referee.orders, with lines and data paths."""
from __future__ import annotations

import pytest

from hxref.referee import orders
from hxref.base import yamlio
from hxref.base.errors import HxrefError
from hxref.kit import schema
from hxref.kit.protocol import Decision, Field

MOVE = Field("dict", "a move", rule="8.21", fields={
    "unit": Field("str"),
    "facing": Field("number", "degrees", optional=True, nullable=True),
    "path": Field("list", optional=True, rule="8.2", items=Field("str", "a hex label")),
    "by": Field("str", optional=True, choices=("step_loss", "removal"))})
SCHEMA = {"moves": Field("list", items=MOVE),
          "level": Field("int", optional=True, minimum=1, maximum=6, rule="5.15"),
          "lvp": Field("dict", optional=True, values=Field("int", minimum=0))}


def found(choice, rule="A2"):
    return [(p.code, p.rule, p.path, p.message) for p in schema.check(SCHEMA, choice, rule)]


def test_a_choice_that_fits_has_no_problem():
    assert found({"moves": [{"unit": "a", "facing": 90.5, "path": ["0101"], "by": "removal"}],
                  "level": 6, "lvp": {"us": 0, "german": 3}}) == []
    assert found({"moves": [{"unit": "a", "facing": None}]}) == []          # nullable


def test_an_unknown_key_deep_inside_names_its_path_and_the_allowed_keys():
    assert found({"moves": [{"unit": "a"}, {"unit": "b"}, {"unit": "c", "facnig": 3}]}) == [
        ("E110", "8.21", ["moves", 2, "facnig"],
         "unknown key `facnig` in moves[2] (allowed: by, facing, path, unit)")]
    assert found({"moves": [], "teleport": 1}) == [
        ("E110", "A2", ["teleport"], "unknown key `teleport` (allowed: level, lvp, moves)")]


def test_missing_wrong_type_out_of_range_and_not_a_choice():
    assert found({}) == [("E111", "A2", [], "missing key `moves`")]
    assert found({"moves": [{"facing": 1}]}) == [("E111", "8.21", ["moves", 0], "missing key `unit` in moves[0]")]
    assert found({"moves": [{"unit": "a", "path": ["0101", 102]}]}) == [
        ("E112", "8.2", ["moves", 0, "path", 1], "`moves[0].path[1]` must be a text: a hex label (got 102)")]
    assert found({"moves": [{"unit": "a", "by": "magic"}]}) == [
        ("E112", "8.21", ["moves", 0, "by"], "`moves[0].by` must be one of step_loss, removal (got 'magic')")]
    assert found({"moves": [], "level": 0})[0][1:] == (
        "5.15", ["level"], "`level` must be 1 or more (got 0)")
    assert found({"moves": [], "level": 7})[0][3] == "`level` must be 6 or less (got 7)"
    assert found({"moves": [], "level": True})[0][3] == "`level` must be a whole number (got True)"
    assert found({"moves": [], "lvp": {"us": -1}})[0][2:] == (["lvp", "us"], "`lvp.us` must be 0 or more (got -1)")
    assert found({"moves": {"unit": "a"}})[0][2] == ["moves"]
    assert found({"moves": [{"unit": "a", "facing": float("nan")}]})[0][3].startswith("`moves[0].facing` must be a number")


def test_every_problem_is_listed_at_once_in_the_order_of_the_keys():
    got = found({"moves": [{"unit": 1, "x": 0}, {"y": 2}], "z": 3})
    assert [(c, p) for c, _, p, _ in got] == [("E110", ["z"]), ("E110", ["moves", 0, "x"]), ("E112", ["moves", 0, "unit"]),
                                           ("E110", ["moves", 1, "y"]), ("E111", ["moves", 1])]


def test_known_drops_the_unknown_keys_at_every_depth():
    choice = {"moves": [{"unit": "a", "fly": 1, "path": ["0101"]}], "teleport": 2, "lvp": {"us": 1}}
    assert schema.known(SCHEMA, choice) == {"moves": [{"unit": "a", "path": ["0101"]}], "lvp": {"us": 1}}
    assert found(schema.known(SCHEMA, choice)) == []


def test_a_nested_schema_survives_the_game_file_and_the_old_form_is_still_read():
    dec = Decision(id="t1.orders", sides=("union",), kind="orders", prompt="p", rule="A2", schema=SCHEMA)
    data = yamlio.to_plain(yamlio.load_rt(yamlio.dump_fast(dec.to_dict()), "g.yaml"))   # as stored, as read back
    assert data["schema"]["moves"]["items"]["fields"]["path"] == {"type": "list", "optional": True, "rule": "8.2",
                                                                   "items": {"type": "str", "help": "a hex label"}}
    back = Decision.from_dict(data)
    assert back == dec and back.schema["moves"].items.fields["by"].choices == ("step_loss", "removal")
    # a game file written before fields nested: one level, no fields/items/values/rule
    old = {"id": "t1.bid", "sides": ["union"], "kind": "bid", "prompt": "p", "rule": "5.1", "secret": True,
           "simultaneous": False, "dice": False, "example": {}, "deadline": None,
           "schema": {"bid": {"type": "int", "help": "levels", "minimum": 0}, "x": {"type": "list", "optional": True}}}
    d = Decision.from_dict(old)
    assert d.schema == {"bid": Field("int", "levels", minimum=0), "x": Field("list", optional=True)}
    assert d.to_dict()["schema"] == old["schema"]


TEXT = """\
choice:
  moves:
  - unit: a
    path: ["0101"]
  - unit: b
    facnig: 90
    path:
    - "0102"
    - 103
  teleport: 1
"""


def _order(text: str) -> orders.Order:
    root = yamlio.load_rt(text, "o.yaml")
    return orders.Order(source="o.yaml", text=text, body=text, armored=None, data=yamlio.to_plain(root), root=root)


def test_the_orders_check_gives_each_problem_its_line_path_rule_and_code():
    dec = Decision(id="t1.orders", sides=("union",), kind="orders", prompt="p", rule="A2", schema=SCHEMA)
    with pytest.raises(HxrefError) as exc:
        orders.check_choice(_order(TEXT), dec)
    lines = exc.value.lines()
    assert lines == [
        "o.yaml:6: unknown key `facnig` in moves[1] (allowed: by, facing, path, unit) (at choice.moves[1].facnig) "
        "[rule 8.21] [E110]",
        "o.yaml:9: `moves[1].path[1]` must be a text: a hex label (got 103) (at choice.moves[1].path[1]) "
        "[rule 8.2] [E112]",
        "o.yaml:10: unknown key `teleport` (allowed: level, lvp, moves) (at choice.teleport) [rule A2] [E110]"]


def test_the_rules_are_asked_of_the_known_part_when_only_keys_are_unknown():
    dec = Decision(id="t1.orders", sides=("union",), kind="orders", prompt="p", rule="A2", schema=SCHEMA)
    text = "choice:\n  moves:\n  - unit: a\n    fly: 1\n"
    seen = []
    with pytest.raises(HxrefError) as exc:
        orders.check_choice(_order(text), dec, lambda c: seen.append(c) or [])
    assert seen == [{"moves": [{"unit": "a"}]}] and exc.value.code == "E110"
    seen.clear()
    with pytest.raises(HxrefError):
        orders.check_choice(_order("choice:\n  moves: [{unit: 3, fly: 1}]\n"), dec, lambda c: seen.append(c) or [])
    assert seen == []                                   # a wrong type: the rules are not asked
    orders.check_choice(_order("choice:\n  moves: [{unit: a}]\n"), dec)     # a good choice: nothing raised
