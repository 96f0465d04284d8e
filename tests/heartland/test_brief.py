"""The turn in brief, through the rules: a Heartland combat played by ``check`` and ``resolve``
(the case book's 14.51 position: Grant attacks Longstreet and falls), and its brief read by each
audience from the events it may see."""
from __future__ import annotations

import copy

from hxref.kit.events import visible
from tests.cases import book


def _grant_falls():
    """Play the case's bid, Grant's attack order and the defence that kills him; the events of
    the defence, and the state after it."""
    case = next(c for c in book.load_cases() if c.system == "heartland" and c.rule == "14.51"
                and "brevet given in play" in str(c.data.get("title")))
    data = copy.deepcopy(case.data)
    steps = data.pop("before")
    data["before"] = []
    system, state = book.position(book.Case(case.system, case.file, case.index, data))
    events: list[dict] = []
    for step in steps[:3]:
        decision = book.awaited(system, state, step["decision"])
        problems = {s: p for s, p in book.all_problems(system, state, decision, step["orders"]).items() if p}
        assert not problems
        state, events, _ = book.play(system, state, decision, step["orders"], step.get("dice"))
    return system, state, [{"decision": "t1.i1", **e} for e in events]


def _brief(system, state, events, audience):
    view = system.view(state, audience if audience != "umpire" else None, "umpired" if audience != "umpire" else "open")
    return system.brief([e for e in events if visible(e, audience)], view, audience)


def test_the_brief_tells_the_combat_its_result_the_loss_by_name_and_the_leader_killed():
    system, state, events = _grant_falls()
    lines = _brief(system, state, events, "union")
    assert 3 >= len(lines) >= 1
    combat = lines[0]
    assert combat.startswith("Assault on 0515: U. S. Grant vs J. Longstreet")
    assert "Grant killed, Rosecrans takes command" in combat
    loss = next(e for e in events if e["type"] == "combat.losses" and e["side"] == "confederate")
    assert loss["units"] == {"L1 (Longstreet)": 1, "L2 (Longstreet)": 1}    # by name, never lb1
    assert ", fire 2/1, return fire 1/1 -- G1 (Rosecrans) loses 1 step; confederate loses 2 steps;" in combat
    mine = _brief(system, state, events, "confederate")[0]      # the Union is not told which units
    assert "L1 (Longstreet) loses 1 step; L2 (Longstreet) loses 1 step; union loses 1 step" in mine
    assert not any("lb1" in str(e.get("text")) or "gd1" in str(e.get("text")) for e in events)


def test_a_sides_brief_names_nothing_of_the_other_sides_secrets():
    """The attacker's way in: he reads his own brief looking for the enemy's WEP, its hidden units
    and its own step losses, which only the enemy's display shows (3.71)."""
    system, state, events = _grant_falls()
    for side, other in (("union", "confederate"), ("confederate", "union")):
        text = "\n".join(_brief(system, state, events, side))
        secrets = system.secrets(state, other)
        assert secrets
        assert not [s for s in secrets if len(s) > 3 and s in text]


def test_a_killed_leaders_counter_reads_as_his_replacement_on_the_display():
    system, state, events = _grant_falls()
    view = system.view(state, "union", "umpired")
    rows = [r[0] for s in system.report(view) for r in s.rows if s.title.startswith("Army Organization")]
    assert any(r.startswith("replacement for Grant (inactive, 1-2-2)") for r in rows), rows
    assert not any(r.startswith("U. S. Grant") for r in rows)
