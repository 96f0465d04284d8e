"""The report's "Turns played" table in a long campaign: the last turns, and where the rest are."""
from __future__ import annotations

from hxref.systems.heartland.system import TURNS_SHOWN, Heartland


def _turn(n: int) -> dict:
    return {"turn": n, "month": f"month {n}", "bids": [{"union": 1, "confederate": 2}], "outcome": "won",
            "initiative": "confederate", "weather": {"result": "Clear"}, "impulses": [{"side": "confederate", "level": 2}]}


def test_a_long_campaign_shows_its_last_turns_and_says_where_the_rest_are():
    s = Heartland._history_section([_turn(n) for n in range(1, 31)])
    assert [r[0] for r in s.rows] == [str(n) for n in range(31 - TURNS_SHOWN, 31)]
    assert s.lines == [f"The last {TURNS_SHOWN} turns; turns 1-{30 - TURNS_SHOWN} are in the JSON report "
                       "(--format json: view.history)."]
    short = Heartland._history_section([_turn(n) for n in range(1, 4)])
    assert [r[0] for r in short.rows] == ["1", "2", "3"] and not short.lines

