"""Red-team attacks on the rules of round 3: a club's own table, Heartland's unled stacks, wagons
and voluntary deactivation, KGP's once-per-turn drs and LVP buildings, Salem Church's attacks.

The attacker holds only his own key, the other's public key and the files he gets; the creator of
a game also writes its scenario and its club map.  Orders go through the engine API the command
line uses (``system.check`` on the side's choice, then ``system.resolve`` with real dice), and club
maps through the real command line (click's CliRunner, in-process, so the worktree's hxref runs).

An attack that still works is marked ``xfail(strict=True)`` with what it buys; an attack that is
defeated asserts the refusal."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from hxref.crypto.dice import Dice
from hxref.gamefile.game import GameFile

from tests.acw_minis.test_club_table import MOVE, club_files
from tests.cases import book

# --- the engine's path: check, then resolve with real dice ------------------------------------

HL_BID = [{"decision": "bid", "orders": {"union": {"bid": 1}, "confederate": {"bid": 3}},
           "dice": {"weather (2d6)": [3, 3]}}]
#: Tate's Brigade (c9) without its leader in Greyfield (1904): an unled stack (8.22b)
UNLED = {"units.c9.leader": None, "units.c9.hex": "1904"}


def position(system: str, scenario: str, state: dict | None = None, before: list | None = None):
    case = book.Case(system, Path("attack.yaml"), 0, {"rule": "x", "title": "attack", "scenario": scenario,
                                                      "state": state or {}, "before": before or [],
                                                      "decision": "x"})
    return book.position(case)


def check_then_resolve(system, state: dict, wanted: str, answers: dict, seeds=range(6)):
    """What the referee does with ``answers``: the problems ``check`` finds, or (none found) the
    events of ``resolve`` under several real dice seeds.  A raise here is a traceback for a player."""
    decision = book.awaited(system, state, wanted)
    problems = {s: p for s, p in book.all_problems(system, state, decision, answers).items() if p}
    if problems:
        return problems, None
    events = []
    for seed in seeds:
        _, events = system.resolve(copy.deepcopy(state), decision, copy.deepcopy(answers), Dice(seed=bytes([seed]) * 32))
    return None, events


def heartland(state: dict | None = None):
    return position("heartland", "heartland-demo", state, HL_BID)


# --- Heartland: unled stacks (8.22b) ------------------------------------------------------------

@pytest.mark.parametrize("order", [{"detach": ["c9"]}, {"detachments": [{"unit": "c9", "by": "removal"}]}],
                         ids=["detach", "detachments"])
def test_an_unled_stack_that_detaches_is_refused_or_resolved_not_a_traceback(order):
    system, state = heartland(UNLED)
    move = {"force": "unled@1904", "path": ["2004"], **order}
    try:
        problems, _ = check_then_resolve(system, state, "orders", {"confederate": {"moves": [move]}})
    except Exception as exc:       # noqa: BLE001 - any raise is what the attack buys
        pytest.fail(f"resolve raised {exc!r} on orders check accepted")
    assert problems and "a leader's order" in str(problems["confederate"])    # 8.22b: refused by check


@pytest.mark.parametrize("order", [{"ml_reduction": 1}, {"lend_mr": ["c10"]}, {"merge": "calloway"},
                                   {"reactivate": "ap"}], ids=["ml_reduction", "lend_mr", "merge", "reactivate"])
def test_an_unled_stack_giving_a_leaders_order_is_refused_by_check(order):
    """`ml_reduction` (3.54: only an OC lowers his ML), `lend_mr`, `merge`, `reactivate`: a leader's
    orders, refused by check rather than voided or ignored by resolve after the impulse."""
    system, state = heartland(UNLED)
    move = {"force": "unled@1904", "path": ["2004"], **order}
    problems, events = check_then_resolve(system, state, "orders", {"confederate": {"moves": [move]}})
    assert problems and "a leader's order" in str(problems["confederate"]), events


def test_an_unled_stack_ordered_twice_is_refused():
    system, state = heartland(UNLED)
    move = {"force": "unled@1904", "path": ["2004"]}
    problems, _ = check_then_resolve(system, state, "orders", {"confederate": {"moves": [move, dict(move)]}})
    assert problems and "8.21" in str(problems["confederate"])


def test_an_unled_stack_moving_where_another_starts_resolves_each_by_its_own_start():
    """8.22b's lookup by `unled@<hex>`: c9 moves into 2004, from which the unled c10 is then ordered
    out; both moves are carried out, no raise, each stack where its own path ends."""
    system, state = heartland({**UNLED, "units.c10.leader": None, "units.c10.hex": "2004"})
    moves = [{"force": "unled@1904", "path": ["2004"]}, {"force": "unled@2004", "path": ["2104"]}]
    problems, events = check_then_resolve(system, state, "orders", {"confederate": {"moves": moves}})
    assert problems is None
    assert [e["path"] for e in events if e.get("type") == "move"][:2] == [["1904", "2004"], ["2004", "2104"]]


# --- Heartland: wagons alone (7.21, 8.32), depots (8.5), deactivation (8.12a) -------------------

@pytest.mark.parametrize("extra,rule", [({"forced_march": True}, "8.32"), ({"attack": "2008"}, "7.21"),
                                        ({"detachments": [{"unit": "c9", "by": "step_loss"}]}, "7.21"),
                                        ({"reactivate": True}, "7.21")],
                         ids=["forced-march", "attack", "detachments", "reactivate"])
def test_a_wagon_alone_gives_no_leader_orders(extra, rule):
    system, state = heartland()
    problems, _ = check_then_resolve(system, state, "orders",
                                     {"confederate": {"moves": [{"force": "cw1", "path": ["2009"], **extra}]}})
    assert problems and rule in str(problems["confederate"])


def test_a_wagon_moved_twice_or_made_a_depot_and_moved_is_refused():
    system, state = heartland()
    twice = {"moves": [{"force": "cw1", "path": ["2009"]}, {"force": "cw1", "path": ["2008"]}]}
    assert check_then_resolve(system, state, "orders", {"confederate": twice})[0]
    an_old_depot = {"moves": [{"force": "cd1", "path": ["2009"]}]}
    assert check_then_resolve(system, state, "orders", {"confederate": an_old_depot})[0]


@pytest.mark.parametrize("names", [["calloway", "calloway"], [1, None], "calloway", ["whitcomb"]],
                         ids=["twice", "not-text", "not-a-list", "the-enemys"])
def test_odd_deactivations_are_refused_by_rule(names):
    system, state = heartland()
    problems, _ = check_then_resolve(system, state, "orders", {"confederate": {"deactivate": names, "moves": []}})
    assert problems and "8.12a" in str(problems["confederate"])


def test_a_pending_deactivation_is_not_in_the_enemys_events():
    """3.71: a deactivation ordered is the phasing side's own until it happens; the detail line (its
    AP) is his alone."""
    system, state = heartland()
    _, events = check_then_resolve(system, state, "orders", {"confederate": {"deactivate": ["calloway"], "moves": []}})
    details = [e for e in events if e.get("type") == "deactivated.detail"]
    assert details and all(e.get("visible_to") == ["confederate"] for e in details)


# --- KGP: one dr per Player Turn / RPh ----------------------------------------------------------

def kgp_turn(scenario: str, turn: int):
    return position("kgp", scenario, {"stage": "play", "turn": turn})


def test_a_second_game_end_dr_hidden_behind_the_default_side_is_refused():
    """The German asks once with `side` left out (his own by default) and once naming himself."""
    system, state = kgp_turn("cg-i", 7)
    rolls = [{"roll": "game_end"}, {"roll": "game_end", "side": "german"}]
    problems, _ = check_then_resolve(system, state, "turn", {"german": {"rolls": rolls}})
    assert problems and "one Game End dr per Player Turn" in str(problems)


@pytest.mark.parametrize("rg", ["i3", " I3", "I3 ", 3], ids=["lower", "lead-space", "trail-space", "int"])
def test_a_second_iii5_dr_for_one_rg_spelt_otherwise_is_refused(rg):
    """III.5: one dr per RPh and RG; the same RG spelt another way is not a second RG."""
    system, state = kgp_turn("cg-iii", 3)
    rolls = [{"roll": "reinforcement_iii5", "side": "us", "rg": "I3"},
             {"roll": "reinforcement_iii5", "side": "us", "rg": rg}]
    problems, _ = check_then_resolve(system, state, "turn", {"us": {"rolls": rolls}})
    assert problems and "III.5" in str(problems)


@pytest.mark.parametrize("building", [{"side": "us", "held": -4}, {"side": "us", "held": "all"},
                                      {"side": "nobody"}, None,
                                      {"side": "us", "rubbled": ["StZ15", "Z15", "StZ15"]}],
                         ids=["held-negative", "held-text", "no-side", "null", "rubble-twice"])
def test_odd_lvp_buildings_are_refused_not_a_traceback(building):
    """8.2 LVP from Locations: a report's odd building entry (both reports alike) is refused by
    check, never raised in resolve; one hex rubbled twice is counted once (9 Locations, not 8)."""
    system, state = position("kgp", "cg-i", {"stage": "report", "turn": 8})
    report = {"lvp": {"us": 16, "german": 6}, "cvp": {"us": 10, "german": 30},
              "lvp_buildings": {"sanatorium": building}}
    problems, _ = check_then_resolve(system, state, "report", {"us": report, "german": copy.deepcopy(report)})
    assert problems and "8.2" in str(problems)


def test_a_sides_units_and_escapes_in_an_open_games_report_are_sealed():
    case = book.Case("kgp", Path("attack.yaml"), 0, {"rule": "x", "title": "attack", "scenario": "cg-i",
                                                     "state": {"stage": "report", "turn": 8}, "decision": "x",
                                                     "mode": "open"})
    system, state = book.position(case)
    report = book.awaited(system, state, "report")
    assert "units" in report.schema and len(report.sides) == 2
    assert report.secret, "the report is answered in the open: the first answer's `units` is in the game file"


def test_a_shift_of_a_unit_not_retained_or_twice_is_refused():
    """8.613: only the side's own Retained units (its last report's), once a Refit Phase."""
    base = {"lvp": {"us": 4, "german": 2}, "cvp": {"us": 0, "german": 0},
            "strategic": [{"hex": "StAA15", "side": "us", "kind": "building"},
                          {"hex": "StAA18", "side": "german", "kind": "building"}]}
    before = [{"decision": "turn", "orders": {"german": {"rolls": [{"roll": "game_end"}]}}, "dice": {"Game End*": [1]}},
              {"decision": "report", "orders": {"us": {**base, "units": [{"unit": "667-c", "hex": "StAA14"}]},
                                                "german": {**base, "units": [{"unit": "ge-1", "hex": "StAA19"}]}}}]
    system, state = position("kgp", "cg-i", {"stage": "play", "turn": 6}, before)
    for shift, why in (([{"unit": "ge-1", "to": "StHH0"}], "none of your Retained units"),
                       ([{"unit": "667-c", "to": "StHH0"}] * 2, "Shifts once a Refit Phase"),
                       ([{"unit": "667-c", "to": "StAA18"}], "enemy setup area"),
                       ([{"unit": "667-c", "to": "zz"}], "not a hex of the St map group"),      # a Problem, no raise
                       ([{"unit": "667-c", "to": ""}], "not a hex of the St map group")):
        problems, _ = check_then_resolve(system, state, "refit", {"us": {"chit": "idle", "shift": shift},
                                                                   "german": {"chit": "idle"}})
        assert problems and why in str(problems["us"]), (shift, problems)


# --- Salem Church: one attack per brigade (B1) --------------------------------------------------

SALEM = {"turn": 2, "phasing": "union", "units.first-1.hex": "1110", "units.second-1.hex": "1110",
         "units.kershaw-m.hex": "1109", "units.semmes-m.hex": "0101", "units.wofford-m.hex": "0102",
         "units.mclaws-m.hex": "0102"}


@pytest.mark.parametrize("attack", [{"attackers": [], "target": "1010"},
                                    {"attackers": ["wilcox-m"], "target": "1010"},
                                    {"attackers": ["nobody"], "target": "1010"},
                                    {"attackers": ["first-1"], "target": "zz"}],
                         ids=["nobody", "the-enemys", "unknown", "off-map"])
def test_odd_salem_attacks_are_refused(attack):
    system, state = position("salem-church", "salem-church", None,
                             [{"decision": "setup", "orders": {"confederate": {"place": {"wilcox-m": "1010"}}},
                               "state": SALEM}])
    problems, _ = check_then_resolve(system, state, "orders", {"union": {"moves": [], "attacks": [attack]}})
    assert problems and "B1" in str(problems)


# --- a club's own table: a malformed map, through the command line ------------------------------

NEW = ("new", "g.yaml", "--system", "acw-minis", "--scenario", "my-scenario.yaml", "--mode", "solo")
GANTT = "polygon: [[8, 12], [18, 10], [22, 16], [16, 21], [9, 19]]"


def crafted_table(change) -> None:
    club_files()
    table = Path("my-table.yaml")
    table.write_text(change(table.read_text(encoding="utf-8")), encoding="utf-8")


def refused_at_new(cli) -> str:
    res = cli.runner.invoke(__import__("hxref.cli", fromlist=["main"]).main, list(NEW), catch_exceptions=False)
    assert res.exit_code == 2 and "Traceback" not in res.output, f"exit {res.exit_code}: {res.output}"
    assert not Path("g.yaml").exists()
    return res.output


def test_a_club_map_polygon_with_nan_is_refused_at_new(cli):
    crafted_table(lambda t: t.replace(GANTT, "polygon: [[.nan, 12], [18, 10], [22, 16]]"))
    assert "[E112]" in refused_at_new(cli)


def test_a_club_map_river_of_nan_width_is_refused_at_new(cli):
    crafted_table(lambda t: t.replace("width: 2\n", "width: .nan\n", 1))
    assert "[E112]" in refused_at_new(cli)


def test_a_club_map_road_of_nan_width_is_refused_at_new_not_at_every_move(cli):
    crafted_table(lambda t: t.replace("width: 1\n", "width: .nan\n", 1))
    from hxref.cli import main
    res = cli.runner.invoke(main, list(NEW), catch_exceptions=False)
    if res.exit_code == 0:
        played = cli.runner.invoke(main, ["play", "g.yaml", "--choice", MOVE], catch_exceptions=False)
        assert played.exit_code in (0, 2), f"play exit {played.exit_code}: {played.output}"
        reported = cli.runner.invoke(main, ["report", "g.yaml", "--side", "union", "--format", "html", "-o", "u.html"],
                                     catch_exceptions=False)
        assert reported.exit_code == 0, f"report exit {reported.exit_code}: {reported.output}"
    else:
        assert res.exit_code == 2 and "[E112]" in res.output


@pytest.mark.parametrize("change", [
    lambda t: t.replace(GANTT, "polygon: [[0, 0], [72, 48], [72, 0], [0, 48]]"),
    lambda t: t.replace("rect: [37, 20, 47, 28]", "rect: [37, 20, .inf, 28]"),
    lambda t: t.replace("points: [[24, 48], [28, 38], [33, 28], [33, 20], [28, 10], [24, 0]]",
                        "points: [[24, 48], [.nan, 38], [24, 0]]"),
    lambda t: t.replace("at: [33, 24]", "at: [.nan, 24]"),
    lambda t: t.replace("terrain: ../terrain.yaml", "terrain: ../../../../etc/hostname"),
    lambda t: "a: " + "[" * 5000 + "]" * 5000 + "\n",
    lambda t: "a: &a [x, x]\nb: [*a, *a]\n",
], ids=["bowtie", "rect-inf", "river-nan", "bridge-nan", "terrain-path", "deep", "anchor"])
def test_malformed_club_maps_are_refused_at_new_in_one_line(cli, change):
    crafted_table(change)
    out = refused_at_new(cli)
    assert re.search(r"\[E1\d\d\]|\[E503\]", out), out


def test_html_in_a_club_maps_names_is_escaped_in_the_report_and_map(cli):
    """The creator names an area, a river and a place with markup; the other side's html report
    (and its inline svg map) shows it as text."""
    crafted_table(lambda t: t.replace("name: Gantt's Wood", 'name: "<script>alert(1)</script>"')
                  .replace("name: Tolley Creek", 'name: "</text><svg onload=alert(3)>"')
                  .replace("Stone Bridge: [33, 24]", '"<b>x</b>": [33, 24]'))
    cli(*NEW)
    cli("report", "g.yaml", "--side", "confederate", "--format", "html", "-o", "c.html")
    html = Path("c.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)" in html
    assert "<script>alert" not in html and "<svg onload" not in html and "<b>x</b>" not in html
    assert "club-maps/my-table.yaml" in GameFile.load("g.yaml").log[0]["data"]["charts"]
