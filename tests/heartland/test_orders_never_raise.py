"""Every field of a Heartland impulse's orders and of a defence, missing or of a wrong type or value,
is a problem ``check`` reports with its rule, never a raise (a raise is a traceback, or a wrong error
code, for the player).  The fields are walked from the decisions' own schemas (:mod:`.order_schema`),
so a field added there is tried here too."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from hxref.kit.protocol import Field
from hxref.systems.heartland import model
from tests.cases import book

#: values of every type, and texts that are no hex or id of the game
ODD = [None, True, 0, -1, 2.5, "", "zz", "9999", [], [None], ["zz"], {}, {"zz": 1}]
#: the Heartland demo after the bid: the Confederate owes the orders of turn 1, impulse 1
BID = [{"decision": "bid", "orders": {"union": {"bid": 1}, "confederate": {"bid": 3}},
        "dice": {"weather (2d6)": [3, 3]}}]
#: a sound value of each field, where a made-up one would stop the check before the field is read
#: (``force``: the answering side's first force)
SOUND = {"path": ["1910"], "wagon": "cw1", "detachment": "c9", "unit": "c9", "by": "step_loss"}
#: the case book's position where the Confederates defend against an assault (9.0)
DEFENCE_CASE = ("combat.yaml", "the 10.7 wave attack on Longstreet")


def position(state: dict | None = None):
    case = book.Case("heartland", Path("odd-orders.yaml"), 0,
                     {"rule": "x", "title": "odd orders", "scenario": "heartland-demo", "state": state or {},
                      "before": BID, "decision": "x"})
    system, st = book.position(case)
    return system, st, book.awaited(system, st, "orders")


def defence_position():
    case = next(c for c in book.load_cases() if c.system == "heartland" and c.file.name == DEFENCE_CASE[0]
                and c.data["title"].startswith(DEFENCE_CASE[1]))
    system, st = book.position(case)
    return system, st, book.awaited(system, st, "defence")


def sample(key: str, spec: Field, force: str):
    """A value of the shape ``spec`` declares, with only the keys a mapping must have."""
    if key == "force":
        return force
    if key in SOUND:
        return copy.deepcopy(SOUND[key])
    if spec.type == "dict":
        return {k: sample(k, f, force) for k, f in (spec.fields or {}).items() if not f.optional}
    if spec.type == "list":
        return [sample(key, spec.items, force)] if spec.items is not None else []
    return {"int": 1, "number": 1, "bool": True, "str": "zz"}.get(spec.type, "zz")


def places(schema: dict) -> list[list[tuple[object, Field]]]:
    """Every field of the orders, as the steps of its path (a key or an index) with their fields."""
    out: list[list[tuple[object, Field]]] = []

    def walk(spec: Field, path: list) -> None:
        out.append(path)
        if spec.type == "dict":
            for k, f in (spec.fields or {}).items():
                walk(f, [*path, (k, f)])
        elif spec.type == "list" and spec.items is not None:
            walk(spec.items, [*path, (0, spec.items)])

    for key, spec in schema.items():
        walk(spec, [(key, spec)])
    return out


def orders_with(schema: dict, path: list[tuple[object, Field]], value, force: str) -> dict:
    """A sound answer (naming ``force`` where a force is named) whose field at ``path`` is ``value``
    (KeyError: missing); the mappings and lists on the way hold what they must and the field."""
    choice = {k: sample(k, f, force) for k, f in schema.items() if not f.optional}
    here: Any = choice
    for depth, (step, spec) in enumerate(path):
        name = next((str(k) for k, _ in reversed(path[:depth + 1]) if isinstance(k, str)), "")
        if depth == len(path) - 1:
            if value is KeyError:
                if isinstance(here, dict):
                    here.pop(step, None)
                else:
                    del here[step]
            else:
                here[step] = value
        else:
            if isinstance(here, dict) and step not in here:
                here[step] = sample(name, spec, force)
            elif isinstance(here, list) and not here:
                here.append(sample(name, spec, force))
            here = here[step]
    return choice


def tried(system, st: dict, decision):
    side = decision.sides[0]
    # the side's first force, one in an assaulted hex first (a defence's retreat is its own)
    assaulted = {a["target"] for a in (st["current"].get("active_impulse") or {}).get("assaults") or []}
    force = min(model.forces(st, side), key=lambda f: (model.force_hex(st, f) not in assaulted, f))
    schema = dict(decision.schema)
    for path in places(schema):
        for value in [KeyError, *ODD]:
            yield side, orders_with(schema, path, value, force)


@pytest.mark.parametrize("where", ["orders", "orders-calloway-off-the-map", "defence"])
def test_every_field_missing_or_odd_is_a_problem_never_a_raise(where):
    system, st, decision = (defence_position() if where == "defence"
                            else position({"leaders.calloway.hex": None} if "off-the-map" in where else {}))
    raised = []
    for side, choice in tried(system, st, decision):
        try:
            book.side_problems(system, st, decision, side, choice)
        except Exception as e:       # noqa: BLE001 - every raise is the defect looked for
            raised.append(f"{choice}: {type(e).__name__}: {e}")
    assert not raised, "\n".join(raised[:10]) + f"\n({len(raised)} in all)"


def test_a_depot_of_a_wagon_whose_leader_is_off_the_map_is_refused_by_rule():
    """8.5, 7.21: the wagon rides in Calloway's field command; with him off the map it is on no hex,
    so it is no wagon of the side's on the map that could become a depot."""
    system, st, decision = position({"leaders.calloway.hex": None})
    found = book.side_problems(system, st, decision, "confederate",
                               {"moves": [], "depots": [{"wagon": "cw1", "detachment": "c9"}]})
    assert found == [("8.5", "`cw1` is not one of your wagons on the map")]


def test_a_field_of_the_wrong_shape_is_one_line_naming_the_file_its_line_and_rule(cli, hgame):
    from tests.heartland.test_orders_bad import refuse

    err = refuse(cli, hgame, "  moves: []\n  engineers:\n    - {engineer: [c9]}\n", "8.6",
                 "`engineers[0].engineer` must be a text")
    assert err.startswith("hxref: error: o.yaml:9: ") and "\n" not in err.strip() and err.rstrip().endswith("[E112]")
