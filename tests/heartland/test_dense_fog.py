"""Dense fog of war, optional (3.72; D rows 10, 17).  Readings: ``hxref/systems/heartland/dense_fog.py``."""
from factory import C, U, World
from hxref.systems.heartland import dense_fog as df
from hxref.systems.heartland import views

ON = {"dense_fog": True}


def world():
    w = World()
    w.leader("grant", U, "0303", stars=3, artillery=2, brevet=1, wound=2)
    w.units("u", 2, U, leader="grant", cf=(12, 6))
    w.leader("bragg", C, "0603", stars=3, brevet=1, wound=1, artillery=1)
    w.unit("c1", C, leader="bragg", cf=(8, 4))
    return w


def test_3_72_off_changes_nothing():
    v = views.army_view(world().state, None, "open")
    assert df.redact(v, C, {}) == v and df.redact(v, C, None) == v


def test_3_72_1_enemy_unit_strengths_hidden_own_kept():
    v = df.redact(views.army_view(world().state, None, "open"), C, ON)
    assert v["units"]["u1"]["cf"] is None and v["units"]["u1"]["steps"] is None
    assert v["units"]["u1"]["arm"] == "infantry" and v["units"]["u1"]["strength_hidden"] == "3.72(1)"
    assert v["units"]["c1"]["cf"] == [8, 4]
    assert v["leaders"]["grant"]["artillery"] is None and v["leaders"]["bragg"]["artillery"] == 1


def test_3_72_3_enemy_wound_and_brevet_stay_on_the_aod():
    v = df.redact(views.army_view(world().state, None, "open"), C, ON)
    assert "wound" not in v["leaders"]["grant"] and "brevet" not in v["leaders"]["grant"]
    assert v["leaders"]["bragg"]["wound"] == 1 and v["leaders"]["bragg"]["brevet"] == 1


def test_3_72_public_view_loses_both_sides_secrets():
    v = df.redact(views.army_view(world().state, None, "open"), None, ON)
    assert v["units"]["u1"]["cf"] is None and v["units"]["c1"]["cf"] is None


def test_3_72_umpired_view_still_shows_own_and_top_counters():
    w = world()
    v = df.redact(views.army_view(w.state, C, "umpired"), C, ON)
    assert set(v["units"]) == {"c1"} and v["units"]["c1"]["cf"] == [8, 4]
    assert v["seen"][U]["0303"]["top"]["id"] == "grant"


def test_3_72_2_enemy_attrition_faces_hidden_own_kept():
    rolls = [{"purpose": "attrition grant", "sides": 6, "faces": [5], "by": U, "visible_to": [U]},
             {"purpose": "attrition bragg", "sides": 6, "faces": [2], "by": C, "visible_to": [C]},
             {"purpose": "IMC grant", "sides": 6, "faces": [3], "by": U}]
    out = df.redact_rolls(rolls, C, ON)
    assert out[0]["faces"] is None and out[1]["faces"] == [2] and out[2]["faces"] == [3]
    assert df.redact_rolls(rolls, C, {})[0]["faces"] == [5]
    v = df.redact({"rolls": rolls}, C, ON)
    assert v["rolls"][0]["faces"] is None


def test_3_72_1_strengths_disclosed_at_combat_resolution():
    w = world()
    w.state["units"]["u2"]["steps"] = 1
    d = df.combat_disclosure(w.state, ["u1", "u2", "c1"])
    assert d["u1"]["cf"] == 12 and d["u2"]["cf"] == 6 and d["c1"]["cf"] == 8 and d["u1"]["rule"] == "3.72(1)"


def test_3_72_4_deferred_to_the_reorganization_segment():
    events = [{"type": "move", "side": U},
              {"type": "river_transport", "side": U},
              {"type": "pontoon.laid", "side": U},
              {"type": "train.new", "side": C},
              {"type": "engineer_brigade.new", "side": U},
              {"type": "engineer_brigade.new", "side": C},
              {"type": "reorganization.training", "side": U},
              {"type": "anything", "announce": "reorganization"}]
    now, later = df.deferred_announcements(events)
    assert [e["type"] for e in later] == ["river_transport", "pontoon.laid", "train.new",
                                           "engineer_brigade.new", "anything"]
    assert [e["type"] for e in now] == ["move", "engineer_brigade.new", "reorganization.training"]
    assert now[1]["side"] == C                      # only Union engineer brigades are named
    assert df.deferred_announcements(events, {}) == (events, [])


def test_3_72_4_kinds():
    assert df.deferred_kind({"type": "river.transport"}) == "river_transport"
    assert df.deferred_kind({"type": "pontoon.picked_up"}) is None
    assert df.deferred_kind({"type": "train.captured"}) is None


def test_3_72_4_a_laid_pontoon_is_off_the_enemy_map_until_its_announcement():
    w = world()
    w.state["options"] = dict(ON)
    w.state["pontoons"] = [{"id": "p1", "side": U, "hex": "0303", "hexside": None, "status": "unbridged"}]
    lay = {"type": "pontoon.work", "side": U, "rule": "8.81a", "pontoon": "p1", "announce": "reorganization",
           "text": "the pontoon is laid across 0303/0403 next impulse"}
    other = {"type": "move", "side": U, "rule": "8.22", "text": "grant moves"}
    out = df.defer(w.state, [other, lay])
    assert out[0] is other and out[1]["visible_to"] == [U] and out[1]["rule"] == "8.81a, 3.72(4)"
    assert [p["id"] for p in df.redact({"pontoons": w.state["pontoons"]}, C, ON)["pontoons"]] == []
    assert [p["id"] for p in df.redact({"pontoons": w.state["pontoons"]}, U, ON)["pontoons"]] == ["p1"]
    start = {"type": "reorganization.start", "rule": "4.3, 12.0", "text": "the Reorganization Segment"}
    out = df.defer(w.state, [start])
    assert out[0] is start and out[1]["type"] == "announcement" and "visible_to" not in out[1]
    assert "laid across 0303/0403" in out[1]["text"] and "announcements" not in w.state
    assert [p["id"] for p in df.redact({"pontoons": w.state["pontoons"]}, C, ON)["pontoons"]] == ["p1"]


def test_3_72_4_without_dense_fog_nothing_waits():
    w = world()
    lay = {"type": "pontoon.work", "side": U, "rule": "8.81a", "announce": "reorganization", "text": "laid"}
    assert df.defer(w.state, [lay]) == [lay] and "visible_to" not in lay and "announcements" not in w.state


def test_3_72_2_attrition_die_open_without_dense_fog_secret_with_it():
    from types import SimpleNamespace as NS
    r = NS(side=U, checks=[NS(force="grant", roll=6), NS(force="unrolled", roll=None)])
    off = df.attrition_events({"options": {}}, r)
    assert len(off) == 1 and "visible_to" not in off[0] and off[0]["rule"] == "4.31"
    assert off[0]["force"] == "grant" and off[0]["roll"] == 6 and "rolled 6" in off[0]["text"]
    on = df.attrition_events({"options": ON}, r)
    assert on[0]["visible_to"] == [U] and "3.72(2)" in on[0]["rule"]
