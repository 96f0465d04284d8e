"""14.51 (missing; read from the 10.7 example and 3.22/3.32b): a leader with a brevet marker keeps
his printed ratings on the counter, and every rating the rules read is 1 lower -- AR, BR and MR,
on both faces -- however many stars the marker adds.  The state holds the printed ratings and the
``brevet`` stars; the -1 is worked out at each reading, so a brevet given in play counts at once.
The case book's ``combat.yaml`` (14.51, 10.12a) plays H-1 through check and resolve."""
from pathlib import Path

import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.kit import registry
from hxref.systems.heartland import attack as at
from hxref.systems.heartland import combat as cb
from hxref.systems.heartland import imc, model
from hxref.systems.heartland.administration import end_of_turn
from hxref.systems.heartland.forced_march import apply_changes
from hxref.base.yamlio import load_data

M = sample_map()
CHART = imc.IMCChart.load(TODAY)


@pytest.mark.parametrize("brevet,wound,br", [(0, 0, 4), (1, 0, 3), (2, 0, 3), (1, 1, 2), (1, 4, 0)])
def test_14_51_every_reading_is_printed_less_1_under_a_brevet_marker(brevet, wound, br):
    w = World()
    w.leader("a", U, ar=3, br=4, mr=4, iar=2, ibr=2, imr=2, brevet=brevet, wound=wound)
    ld = w.state["leaders"]["a"]
    assert model.current_rating(ld, "br") == br
    less = (1 if brevet else 0) + wound
    assert model.current_rating(ld, "ar") == max(0, 3 - less)
    assert model.current_rating(ld, "mr") == max(0, 4 - less)
    assert model.current_rating(ld, "ar", "inactive") == max(0, 2 - less)
    assert ld["ratings"]["active"] == {"ar": 3, "br": 4, "mr": 4}           # the counter keeps its print
    assert model.rank(ld) == 2 + brevet                                        # and the marker its stars


def test_14_51_a_brevet_given_in_play_counts_at_once():
    w = World()
    w.leader("sherman", U, "0403", stars=2, br=3, mr=4, ap=2, ml=4)
    w.unit("s1", U, leader="sherman", cf=(12, 6))
    w.leader("hardee", C, "0303", stars=2)
    w.units("h", 2, C, leader="hardee", size="brigade", cf=(4, 2))
    assert at.attack_check(w.state, M, "sherman", "0303", FixedDice([3])).passed
    w.state["leaders"]["sherman"]["brevet"] = 1          # e.g. 3.23b or 3.32b, in the middle of a turn
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([3]))
    assert r.rating == 2 and not r.passed and "brevet marker, 14.51" in r.why
    assert imc.imc_roll(w.state, "sherman", 3, FixedDice([2]), chart=CHART).mr == 3
    st = cb.stack_strength(w.state, ["sherman"], role="attacker")
    assert [(d.rule, d.amount) for d in cb.fire_drms(w.state, st, ["hardee"])][0] == ("10.41", 2)


def test_14_51_the_turn_end_resets_ap_to_the_ar_less_the_brevet():
    w = World()
    w.state["current"] = {"turn": 1}
    w.leader("a", U, ar=3, ap=0, brevet=1)
    w.leader("b", U, "0101", ar=3, ap=0)
    res = end_of_turn(w.state)
    apply_changes(w.state, res.changes)
    assert (w.state["leaders"]["a"]["ap"], w.state["leaders"]["b"]["ap"]) == (2, 3)


def test_14_51_setup_gives_a_brevetted_leader_his_ar_less_1_as_ap():
    system = registry.get("heartland")
    scenario = system.load_scenario("heartland-demo")
    ld = scenario["leaders"]["whitcomb"]
    ld["brevet"] = 1
    ld.pop("ap", None)
    state = system.setup(scenario)
    assert state["leaders"]["whitcomb"]["ap"] == ld["ratings"]["active"]["ar"] - 1


def test_14_51_no_shipped_scenario_types_a_brevet():
    # the shipped scenarios give printed ratings and no brevet marker: nothing to convert
    root = Path(__file__).resolve().parents[2]
    for p in sorted((root / "games" / "heartland" / "scenarios").glob("*.yaml")):
        for lid, ld in (load_data(p).get("leaders") or {}).items():
            if isinstance(ld, dict):             # bidding-demo gives only a count of leaders a side (4.25)
                assert not ld.get("brevet"), (p.name, lid)


def test_14_51_the_own_display_shows_the_ratings_the_rules_read_and_why():
    """The Army Organization Display prints what the rules use (printed less brevet and wound), not the
    counter's printed figures, and says why they differ."""
    from hxref.systems.heartland import report, views

    w = World()
    w.leader("sheridan", U, ar=3, br=4, mr=4, brevet=1)
    w.leader("thomas", U, hex="0304", ar=3, br=3, mr=2, brevet=1, wound=1)
    w.leader("rosecrans", U, hex="0305", ar=2, br=2, mr=2)
    for lid in ("sheridan", "thomas", "rosecrans"):
        w.unit(f"{lid}-div", U, leader=lid)
    sections = report.army_sections({**views.army_view(w.state, U, "umpired"), "viewer": U})  # as system.view gives it
    aod = next(s for s in sections if s.title.startswith("Army Organization Display"))
    rows = {r[0].strip().split(" (")[0]: r for r in aod.rows if r[2]}      # the leaders' rows: a rank
    text = {name: " ".join(r) for name, r in rows.items()}
    name = {lid: w.state["leaders"][lid]["name"] for lid in ("sheridan", "thomas", "rosecrans")}
    assert "2-3-3 (brevet)" in text[name["sheridan"]]
    assert "1-1-0 (brevet, wound 1)" in text[name["thomas"]]
    assert "2-2-2" in text[name["rosecrans"]] and "brevet" not in text[name["rosecrans"]]


def test_14_51_the_orders_template_gives_the_ratings_and_the_imc_range_the_rules_read():
    """The owner's orders template lists his forces with the AR-BR-MR the rules read and the IMC's MP
    range for that MR: under a brevet given in play, printed less 1 (not the counter's print)."""
    from tests.cases import book

    system = registry.get("heartland")
    state = system.setup(system.load_scenario("heartland-demo"))
    bid = book.awaited(system, state, "bid")
    state, _, _ = book.play(system, state, bid, {"union": {"bid": 3}, "confederate": {"bid": 1}},
                            {"weather (2d6)": [3, 3]})
    orders = book.awaited(system, state, "orders")

    def line() -> str:
        tpl = system.template(system.view(state, "union", "umpired"), orders, "union")
        return next(n for n in tpl.notes if n.strip().startswith("whitcomb:"))

    assert state["leaders"]["whitcomb"]["ratings"]["active"] == {"ar": 3, "br": 2, "mr": 3}
    level = state["current"]["active_impulse"]["level"]

    def mp(mr: int) -> str:
        return f"IMC at level {level}: {CHART.lookup(level, mr, max(CHART.rows))}-{CHART.lookup(level, mr, min(CHART.rows))} MP"

    assert "AR-BR-MR 3-2-3," in line() and mp(3) in line()
    state["leaders"]["whitcomb"]["brevet"] = 1                   # given in play (3.32b)
    assert "AR-BR-MR 2-1-2 (brevet)," in line() and mp(2) in line() and mp(2) != mp(3)
