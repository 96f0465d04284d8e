"""8.64 capture (7.21 wagons, 7.22 depots, 8.73 trains, 8.64a landings / H-29, 8.81a pontoons)."""
import pytest

from hxref.systems.heartland import capture as cap
from tests.heartland.factory import C, U, World


def world():
    w = World()
    w.state.update(turn=2, wep={U: 20, C: 10}, current={"active_impulse": {"n": 1, "side": C}})
    w.leader("bragg", C, "0505", stars=3)
    w.unit("b1", C, leader="bragg", size="brigade")
    return w


def test_7_21_lone_wagon_is_captured_and_changes_side():
    w = world()
    w.wagon("w1", U, "0505")
    [c] = cap.captures_on_entry(w.state, "bragg", "0505")
    assert c.kind == "wagon" and c.legal
    cap.apply_capture(w.state, c)
    assert w.state["logistics"]["w1"]["side"] == C


def test_7_21_escorted_wagon_is_not_captured():
    w = world()
    w.wagon("w1", U, "0505")
    w.unit("esc", U, hex="0505", arm="detachment", size="regiment", cf=(1, 1))
    assert cap.captures_on_entry(w.state, "bragg", "0505") == []


def test_8_64_depot_and_train_and_chief_engineer():
    w = world()
    w.wagon("d1", U, "0505", kind="depot", capacity=3, cf=3)
    w.state["trains"] = {"t1": {"side": U, "hex": "0505"}}
    got = {c.kind: c for c in cap.captures_on_entry(w.state, "bragg", "0505")}
    assert set(got) == {"depot", "train"}
    for c in got.values():
        cap.apply_capture(w.state, c)
    assert "d1" not in w.state["logistics"] and w.state["trains"]["t1"]["side"] == C
    u = World()
    u.leader("grant", U, "0707", stars=3)
    u.unit("d", U, leader="grant")
    u.state["chief_engineer"] = {"hex": "0707"}
    [ce] = cap.captures_on_entry(u.state, "grant", "0707")
    cap.apply_capture(u.state, ce)
    assert u.state["chief_engineer"]["removed"]


def test_8_1_inactive_leader_does_not_capture():
    w = world()
    w.state["leaders"]["bragg"]["active"] = False
    w.wagon("w1", U, "0505")
    [c] = cap.captures_on_entry(w.state, "bragg", "0505")
    assert not c.legal and c.problems[0].rule == "8.1"


def test_8_64a_landing_capture_h29():
    w = world()
    w.wagon("cw", C, "0505", capacity=3, leader="bragg")
    w.state["landings"] = {"L1": {"hex": "0505"}}
    [c] = cap.captures_on_entry(w.state, "bragg", "0505")
    assert c.kind == "landing" and not c.automatic and c.legal and c.wep == 3
    cap.apply_capture(w.state, c)
    assert w.state["wep"] == {U: 17, C: 13}
    assert w.state["leaders"]["bragg"]["ap"] == 2
    assert cap.captures_on_entry(w.state, "bragg", "0505") == []     # once only


def test_8_64a_landing_needs_a_wagon_and_ap():
    w = world()
    w.state["landings"] = ["0505"]
    [c] = cap.captures_on_entry(w.state, "bragg", "0505")
    assert not c.legal and "wagon" in c.why
    w.wagon("cw", C, "0505", capacity=3)
    w.state["leaders"]["bragg"]["ap"] = 0
    assert any(p.rule == "3.24" for p in cap.landing_capture(w.state, "bragg", "landing@0505").problems)


def test_8_64a_union_may_exhaust_only_after_capture():
    w = world()
    w.wagon("cw", C, "0505", capacity=3)
    w.state["landings"] = {"L1": {"hex": "0505"}}
    assert cap.exhaust_landing_problems(w.state, "L1")
    cap.apply_capture(w.state, cap.landing_capture(w.state, "bragg", "L1"))
    assert cap.exhaust_landing_problems(w.state, "L1") == []
    cap.apply_exhaust_landing(w.state, "L1")
    assert w.state["landings"]["L1"]["exhausted"]


def test_8_64b_depot_forced_to_retreat_becomes_captor_wagon():
    w = world()
    w.wagon("d1", U, "0505", kind="depot", capacity=3, cf=3)
    c = cap.depot_forced_retreat(w.state, "d1", C, 2)
    cap.apply_depot_retreat(w.state, c)
    assert w.state["logistics"]["d1"]["kind"] == "wagon" and w.state["logistics"]["d1"]["capacity"] == 2
    assert w.state["logistics"]["d1"]["side"] == C


def test_8_81a_lone_unbridged_pontoon_is_removed():
    w = world()
    w.state["pontoons"] = [{"id": "p1", "side": U, "hex": "0505", "hexside": None, "status": "unbridged"}]
    [c] = cap.captures_on_entry(w.state, "bragg", "0505")
    assert c.kind == "pontoon"
    cap.apply_capture(w.state, c)
    assert w.state["pontoons"] == []


def test_7_21_7_22_voluntary_removal_in_own_impulse_only():
    w = world()
    w.wagon("cw", C, "0606")
    assert cap.voluntary_removal(w.state, C, "cw").problems == []
    w.wagon("uw", U, "0707")
    assert cap.voluntary_removal(w.state, U, "uw").problems          # not the Union's impulse
    r = cap.voluntary_removal(w.state, C, "cw")
    cap.apply_removal(w.state, r)
    assert "cw" not in w.state["logistics"]
    with pytest.raises(ValueError):
        cap.apply_removal(w.state, cap.voluntary_removal(w.state, U, "uw"))
