"""Cavalry recon and screens (8.6, 8.61, 8.62; H-22; D rows 6-9).  Readings: ``hxref/systems/heartland/cavalry.py``.

Sample map, north-west: Union cavalry in 0403; Confederates in 0303 (adjacent).
Distances from 0403: 0603 is 2, 0703 is 3, 0803 is 4.
"""
import pytest

from factory import C, U, FixedDice, World, sample_map
from hxref.crypto import commit
from hxref.systems.heartland import cavalry as cv
from hxref.systems.heartland import corps as cc
from hxref.systems.heartland import views

M = sample_map()
SALT = "ab" * 32


def cav_stack(n=2, corps=False, at="0403", **kw):
    w = World()
    w.leader("stuart", U, at, stars=2, cavalry_corps=corps, **kw)
    w.units("cav", n, U, leader="stuart", arm="cavalry", size="brigade")
    w.leader("hardee", C, "0303", stars=2)
    w.units("inf", 3, C, leader="hardee")
    return w


# --- 8.61 recon by cavalry units; H-22 first case ----------------------------------------------

def test_h22_two_cavalry_units_make_two_attempts_each_plus_1():
    w = cav_stack(2)
    r1 = cv.recon(w.state, M, "stuart", FixedDice([4, 2]), target="0303", units=["cav1"])
    assert not r1.problems
    assert (r1.bonus, r1.total, r1.enemy_total, r1.success) == (1, 5, 2, True)
    assert r1.count == 3 and r1.report() == {"to": U, "rule": "8.61a", "by": "stuart", "target": "0303",
                                             "search": False, "success": True, "units": 3}
    cv.apply_recon(w.state, r1)
    r2 = cv.recon(w.state, M, "stuart", FixedDice([3, 5]), target="0303", units=["cav2"])
    assert not r2.problems and not r2.success and "count" not in str(r2.report())
    cv.apply_recon(w.state, r2)
    r3 = cv.recon(w.state, M, "stuart", FixedDice([6, 1]), target="0303", units=["cav1"])
    assert r3.problems and r3.problems[0].rule == "8.61"        # one attempt per unit per impulse
    assert r3.roll is None


def test_8_61a_tie_fails_and_gives_nothing():
    w = cav_stack(1)
    r = cv.recon(w.state, M, "stuart", FixedDice([3, 4]), target="0303", units=["cav1"])
    assert r.total == r.enemy_total == 4 and not r.success and "tie" in r.why
    assert r.report()["success"] is False and "units" not in r.report()


def test_8_61a_bonus_is_the_number_of_units_trying_together():
    w = cav_stack(2)
    r = cv.recon(w.state, M, "stuart", FixedDice([1, 3]), target="0303", units=["cav1", "cav2"])
    assert r.bonus == 2 and r.total == 3 and not r.success


def test_8_61_only_cavalry_of_the_force_and_only_adjacent_hexes():
    w = cav_stack(1)
    w.unit("foot", U, leader="stuart")
    assert cv.recon(w.state, M, "stuart", FixedDice([]), target="0303", units=["foot"]).problems[0].rule == "8.61"
    assert cv.recon(w.state, M, "stuart", FixedDice([]), target="0303", units=["inf1"]).problems
    far = cv.recon(w.state, M, "stuart", FixedDice([]), target="0603", units=["cav1"])
    assert far.problems and "adjacent" in far.problems[0].message
    assert cv.recon(w.state, M, "stuart", FixedDice([]), target="0603", search=True,
                    units=["cav1"]).problems[0].rule == "8.61c"


def test_8_1_an_inactive_leader_s_cavalry_may_not_recon():
    w = cav_stack(1, active=False)
    r = cv.recon(w.state, M, "stuart", FixedDice([]), target="0303", units=["cav1"])
    assert r.problems[0].rule == "8.1"


def test_8_61a_empty_hex_success_reports_none():
    w = cav_stack(1)
    r = cv.recon(w.state, M, "stuart", FixedDice([5, 1]), target="0503", units=["cav1"])
    assert r.success and r.count == 0 and r.report()["units"] == "none"


def test_8_61a_defender_adds_its_screening_cavalry():
    w = cav_stack(1)
    w.unit("jeb", C, leader="hardee", arm="cavalry", size="brigade")
    w.state["units"]["jeb"]["screening"] = True
    r = cv.recon(w.state, M, "stuart", FixedDice([4, 4]), target="0303", units=["cav1"])
    assert r.enemy_bonus == 1 and r.total == r.enemy_total == 5 and not r.success
    assert r.count is None


# --- 8.61b corps recon; H-22 second case ------------------------------------------------------

def test_h22_corps_of_3_range_3_three_attempts_plus_3():
    w = cav_stack(3, corps=True)
    assert cv.corps_size(w.state, "stuart") == 3
    w.leader("polk", C, "0703")
    w.units("p", 2, C, leader="polk")
    r = cv.recon(w.state, M, "stuart", FixedDice([1, 3]), target="0703")
    assert (r.corps, r.bonus, r.total, r.success, r.count, r.rule) == (True, 3, 4, True, 2, "8.61b")
    for faces in ([1, 1], [1, 1]):
        cv.apply_recon(w.state, r)
        r = cv.recon(w.state, M, "stuart", FixedDice(faces), target="0303")
        assert not r.problems
    cv.apply_recon(w.state, r)
    fourth = cv.recon(w.state, M, "stuart", FixedDice([6, 1]), target="0303")
    assert fourth.problems[0].rule == "8.61b"


def test_8_61b_corps_range_is_its_size():
    w = cav_stack(3, corps=True)
    r = cv.recon(w.state, M, "stuart", FixedDice([]), target="0803")
    assert r.problems and "range is 3" in r.problems[0].message


def test_8_62b_corps_resists_recon_with_its_size():
    w = World()
    w.leader("sheridan", U, "0403")
    w.unit("c1", U, leader="sheridan", arm="cavalry")
    w.leader("forrest", C, "0303", cavalry_corps=True)
    w.units("fc", 3, C, leader="forrest", arm="cavalry")
    r = cv.recon(w.state, M, "sheridan", FixedDice([6, 4]), target="0303", units=["c1"])
    assert r.enemy_bonus == 3 and r.total == r.enemy_total == 7 and not r.success


def test_3_12_corps_only_cavalry_and_limits():
    w = cav_stack(2, corps=True)
    w.unit("foot", U, leader="stuart")
    assert not cv.is_corps(w.state, "stuart")
    chk = cc.corps_check(w.state, U)
    assert chk.problems[0].rule == "3.12"
    w2 = World()
    for i in range(3):
        w2.leader(f"k{i}", U, f"010{i + 1}", cavalry_corps=True, artillery=3 if i == 0 else 0)
        w2.unit(f"c{i}", U, leader=f"k{i}", arm="cavalry")
    msgs = [p.message for p in cc.corps_check(w2.state, U).problems]
    assert any("at most 2 artillery" in m or "at most 2" in m for m in msgs) and len(msgs) == 2


def test_3_12_a_scenario_with_a_third_cavalry_corps_is_refused_at_set_up():
    from hxref.base.errors import InvalidInput
    from hxref.kit import registry

    system = registry.get("heartland")
    scenario = system.load_scenario("river-line")
    system.setup(scenario)                      # its one corps (kerr) is legal
    flagged = [lid for lid, ld in scenario["leaders"].items() if ld["side"] == U and not ld.get("cavalry_corps")]
    for lid in flagged[:2]:                     # two more flags: not cavalry-only forces, and three corps
        scenario["leaders"][lid]["cavalry_corps"] = True
    with pytest.raises(InvalidInput, match=r"cavalry corps.*\(3\.12\)"):
        system.setup(scenario)


# --- 8.6 recon and screen exclude each other ----------------------------------------------------

def test_8_6_screening_corps_cannot_recon_unless_it_ends_the_screen():
    w = cav_stack(3, corps=True)
    cv.apply_screen(w.state, cv.screen(w.state, "stuart"))
    assert cv.recon(w.state, M, "stuart", FixedDice([]), target="0303").problems[0].rule == "8.6"
    r = cv.recon(w.state, M, "stuart", FixedDice([2, 2]), target="0303", end_screen=True)
    cv.apply_recon(w.state, r)
    assert not w.state["leaders"]["stuart"].get("screen")
    again = cv.screen(w.state, "stuart")
    assert again.problems and again.problems[0].rule == "8.6"
    cv.reset_recon(w.state)
    assert not cv.screen(w.state, "stuart").problems


def test_8_62_basic_screen_one_unit_on_one_leader_hides_his_ratings():
    w = cav_stack(2)
    cv.apply_screen(w.state, cv.screen(w.state, "cav1"))
    assert cv.screen(w.state, "cav2").problems                      # one unit on one leader
    assert cv.recon(w.state, M, "stuart", FixedDice([]), target="0303", units=["cav1"]).problems[0].rule == "8.6"
    # the enemy's view already applies the screen (8.62c): the name shows, the ratings do not
    enemy_view = views.army_view(w.state, C, "umpired")
    top = enemy_view["seen"][U]["0403"]["top"]
    assert top["ratings"] is None and top["screened"] and top["name"] == "Stuart"
    # redact_view is idempotent, and the owner still sees his own ratings
    red = cv.redact_view(enemy_view, cv.concealment(w.state, U))
    assert red["seen"][U]["0403"]["top"]["ratings"] is None
    assert views.army_view(w.state, U, "umpired")["seen"][U]["0403"]["top"]["ratings"] == "3-2-3"


def test_8_62c_entrenchment_hides_ratings():
    w = cav_stack(1)
    w.state["entrenchments"] = {"0303": {"side": C, "level": 1}}
    red = cv.redact_view(views.army_view(w.state, U, "umpired"), cv.concealment(w.state, C))
    assert red["seen"][C]["0303"]["top"]["ratings"] is None


# --- 8.62a hidden movement --------------------------------------------------------------------

def screened_world():
    """A Union corps of 3 screening in 0403; Thomas (infantry) in 0305 (2 hexes); Buell in 0308 (5)."""
    w = World()
    w.leader("stuart", U, "0403", cavalry_corps=True, screen=True)
    w.units("cav", 3, U, leader="stuart", arm="cavalry", size="brigade")
    w.leader("thomas", U, "0305")
    w.units("t", 2, U, leader="thomas")
    w.leader("buell", U, "0308")
    w.unit("b1", U, leader="buell")
    w.leader("bragg", C, "0803")
    w.unit("x1", C, leader="bragg")
    return w


def test_8_62a_screened_forces_within_range_not_the_corps():
    w = screened_world()
    assert cv.screened_forces(w.state, M, U) == {"thomas"}
    assert cv.hide(w.state, M, "stuart").problems[0].message.endswith("never hidden")
    assert cv.hide(w.state, M, "buell").problems
    w.state["leaders"]["stuart"]["screen"] = False
    assert cv.screened_forces(w.state, M, U) == set()


def test_8_62a_hidden_force_vanishes_from_the_enemy_view_only():
    w = screened_world()
    cv.apply_hide(w.state, cv.hide(w.state, M, "thomas"))
    assert cv.hidden_forces(w.state, U) == {"thomas"}
    enemy = cv.redact_view(views.army_view(w.state, C, "umpired"), cv.concealment(w.state, U))
    assert "0305" not in enemy["seen"][U] and "0403" in enemy["seen"][U]
    assert "thomas" not in str(enemy["seen"])
    own = views.army_view(w.state, U, "umpired")
    assert own["leaders"]["thomas"]["hex"] == "0305"


def test_8_62a_hidden_force_sharing_a_hex_leaves_only_the_visible_counter():
    w = screened_world()
    w.leader("rosecrans", U, "0403", stars=3)
    w.unit("r1", U, leader="rosecrans")
    assert "rosecrans" in cv.screened_forces(w.state, M, U)          # range 0 counts
    cv.apply_hide(w.state, cv.hide(w.state, M, "rosecrans"))
    assert "rosecrans" in cv.hidden_forces(w.state, U)
    enemy = cv.redact_view(views.army_view(w.state, C, "umpired"), cv.concealment(w.state, U))
    assert enemy["seen"][U]["0403"]["top"]["id"] == "stuart" and enemy["seen"][U]["0403"]["under"] == 0


def test_8_62a_reveal_on_leaving_the_screen_range():
    w = screened_world()
    cv.apply_hide(w.state, cv.hide(w.state, M, "thomas"))
    assert cv.must_reveal(w.state, M, "thomas") is None
    assert cv.must_reveal(w.state, M, "thomas", at="0306") is None           # distance 3: still in range
    r = cv.must_reveal(w.state, M, "thomas", at="0307")
    assert r.reason == "left screen" and r.units == 2 and r.rule == "8.62a"
    cv.apply_reveal(w.state, r)
    assert cv.hidden_forces(w.state, U) == set()


def test_8_62a_reveal_on_entering_enemy_zoc_translator_note():
    w = screened_world()
    cv.apply_hide(w.state, cv.hide(w.state, M, "thomas"))
    w.leader("hood", C, "0304")
    w.unit("h1", C, leader="hood")
    r = cv.must_reveal(w.state, M, "thomas")
    assert r.reason == "enemy zoc"


def test_8_62a_screen_ends_hidden_forces_appear():
    w = screened_world()
    cv.apply_hide(w.state, cv.hide(w.state, M, "thomas"))
    cv.apply_screen(w.state, cv.screen(w.state, "stuart", on=False))
    assert [r.force for r in cv.reveals_now(w.state, M, U)] == ["thomas"]


def test_8_61c_corps_search_reveals_hidden_location_and_count():
    w = screened_world()
    cv.apply_hide(w.state, cv.hide(w.state, M, "thomas"))
    w.leader("forrest", C, "0306", cavalry_corps=True)
    w.units("fc", 2, C, leader="forrest", arm="cavalry")
    r = cv.recon(w.state, M, "forrest", FixedDice([4, 3]), search=True)
    assert r.enemy_bonus == 3 and not r.success                          # 4+2 against 3+3
    w.state["current"] = {}
    r = cv.recon(w.state, M, "forrest", FixedDice([5, 3]), search=True)
    assert r.success and r.rule == "8.61c" and r.report()["found"] == [{"hex": "0305", "units": 2}]
    assert cv.must_reveal(w.state, M, "thomas", recon=r).reason == "recon"
    cv.apply_recon(w.state, r)
    assert cv.hidden_forces(w.state, U) == set()


def test_8_61c_search_with_nothing_hidden_reports_none():
    w = screened_world()
    w.leader("forrest", C, "0306", cavalry_corps=True)
    w.units("fc", 2, C, leader="forrest", arm="cavalry")
    r = cv.recon(w.state, M, "forrest", FixedDice([6, 1]), search=True)
    assert r.success and r.report()["found"] == "none"


def test_8_61a_adjacent_recon_finds_a_hidden_force_in_the_target_hex():
    w = screened_world()
    cv.apply_hide(w.state, cv.hide(w.state, M, "thomas"))
    w.leader("wheeler", C, "0306")
    w.unit("wc", C, leader="wheeler", arm="cavalry")
    r = cv.recon(w.state, M, "wheeler", FixedDice([6, 1]), target="0305", units=["wc"])
    assert r.success and r.count == 2 and [x.force for x in r.reveals] == ["thomas"]


# --- 8.61 / 3.61 the ZOC exception ------------------------------------------------------------

def test_8_61_cavalry_recon_ignores_zoc_stop_and_attack_check():
    w = cav_stack(2)
    z = cv.zoc_on_entry(w.state, "stuart", recons=True)
    assert (z.stop, z.attack_check, z.rule) == (False, False, "8.61")
    w.unit("foot", U, leader="stuart")
    z = cv.zoc_on_entry(w.state, "stuart", recons=True)
    assert (z.stop, z.attack_check, z.rule) == (True, True, "3.61")


def test_h22_recon_path_may_go_on_but_never_zoc_to_zoc():
    cost = M.step_cost()
    zoc = {"0303", "0403", "0304", "0402", "0202", "0203", "0204"}
    # start 0503 (free), enter 0403 (ZOC) to recon, then on to 0504 (free): legal
    assert cv.recon_path_problems(["0403", "0504"], start="0503", hexmap=M, cost=cost, enemy_zoc=zoc,
                                  enemy_occupied={"0303"}, active=True, recon_at=[0]) == []
    # without the recon it must stop in 0403
    p = cv.recon_path_problems(["0403", "0504"], start="0503", hexmap=M, cost=cost, enemy_zoc=zoc,
                               enemy_occupied={"0303"}, active=True)
    assert p[0].rule == "8.26"
    # ZOC to ZOC is illegal even when reconning
    p = cv.recon_path_problems(["0403", "0304"], start="0503", hexmap=M, cost=cost, enemy_zoc=zoc,
                               enemy_occupied={"0303"}, active=True, recon_at=[0, 1])
    assert p[0].rule == "8.61" and "ZOC to ZOC" in p[0].message
    p = cv.recon_path_problems(["0403"], start="0503", hexmap=M, cost=cost, enemy_zoc=zoc,
                               enemy_occupied={"0303"}, active=False, recon_at=[0])
    assert p[0].rule == "3.61"


# --- open games: plotted hexes as commitments (D row 8) -----------------------------------------

def test_8_62a_plot_commitment_is_a_hxref_commitment():
    ch = cv.plot_choice("thomas", "0305", 3)
    assert cv.plot_commitment(ch, SALT) == commit.commitment(ch, SALT)
    with pytest.raises(ValueError):
        cv.plot_commitment({"hex": "0305"}, SALT)
