"""8.4: an attack ordered on a hex with no enemy stack the side can see is refused when the file is
checked, with the same words whether the hex is empty or holds a force the side cannot see (3.71);
and a target found empty at resolution is told as such, not as "not adjacent" (seen in a solo
game: a force ordered to attack an empty hex next to it was told it was not adjacent)."""
from __future__ import annotations

from pathlib import Path

from tests.cases import book

MOVE = {"force": "calloway", "path": ["2011"], "attack": "2112"}


def _position(**state):
    """heartland-demo, the Confederates' first impulse (level 3), Dunning put in 2112 next to 2011."""
    case = book.Case("heartland", Path("games/heartland/cases/attack.yaml"), 0, {
        "rule": "8.4", "title": "attack target", "scenario": "heartland-demo",
        "state": {"leaders.dunning.hex": "2112", **state},
        "before": [{"decision": "bid", "orders": {"union": {"bid": 1}, "confederate": {"bid": 3}},
                    "dice": {"weather (2d6)": [3, 3]}}]})
    system, st = book.position(case)
    return system, st, book.awaited(system, st, "orders")


def test_an_enemy_the_side_cannot_see_is_refused_as_an_empty_hex_is():
    system, st, dec = _position(**{"leaders.dunning.hidden": True})
    hidden = book.side_problems(system, st, dec, "confederate", {"moves": [MOVE]})
    system, st, dec = _position(**{"leaders.dunning.hex": "2114"})
    empty = book.side_problems(system, st, dec, "confederate", {"moves": [MOVE]})
    assert hidden == empty == [("8.4", "the hex to attack holds no enemy stack that you can see: an attack check "
                                       "is made against an adjacent enemy stack")]


def test_a_target_found_empty_at_resolution_is_told_as_empty_not_as_not_adjacent():
    system, st, dec = _position()
    answers = {"confederate": {"moves": [MOVE]}}
    assert book.all_problems(system, st, dec, answers) == {"confederate": []}     # Dunning is there
    st["leaders"]["dunning"]["hex"] = "2114"                                       # and then is not
    _, events, _ = book.play(system, st, dec, answers, {"IMC calloway*": [1]})
    void = [e for e in events if e["type"] == "attack.void"]
    assert [e["text"] for e in void] == ["Lucius M. Calloway ends in 2011, no enemy stack is in 2112 any more: "
                                         "no attack"]
    assert void[0]["rule"] == "8.4"


def test_the_check_on_the_sides_view_reads_the_target_as_the_umpires_check_on_the_state_does():
    """An umpired player checks his orders at home on his side's view (no enemy army in it, only
    the counters he sees): an attack on a stack he sees passes there as at the umpire, and an empty
    hex and a hidden force are refused in the same words in both places (seen: every attack was
    refused at home, so an honest player could not send one)."""
    for state, refused in (({}, False), ({"leaders.dunning.hidden": True}, True),
                           ({"leaders.dunning.hex": "2114"}, True)):
        system, st, dec = _position(**state)
        assert st["mode"] == "umpired"
        at_umpire = book.side_problems(system, st, dec, "confederate", {"moves": [MOVE]})
        view = system.view(st, "confederate", "umpired")
        at_home = book.side_problems(system, view, dec, "confederate", {"moves": [MOVE]})
        assert at_home == at_umpire
        assert bool(at_umpire) is refused, (state, at_umpire)
