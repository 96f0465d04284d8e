"""8.8, 8.81 Union pontoon bridges (sample map: the Duck River, major, between columns 06 and 07)."""
from hxref.systems.heartland import engineers as en
from hxref.systems.heartland.terrain import step_cost
from tests.heartland.factory import C, U, World, sample_map


def world():
    w = World()
    w.state.update(turn=2, current={"active_impulse": {"n": 1, "side": U}})
    w.leader("grant", U, "0603", stars=3, hq=True, mr=3)
    w.unit("eng", U, leader="grant", arm="engineer", size="brigade")
    w.state["pontoons"] = [{"id": "p1", "side": U, "hex": "0603", "hexside": None, "status": "unbridged",
                            "laid_turn": None}]
    return w


def next_impulse(w, n):
    w.state["current"]["active_impulse"] = {"n": n, "side": U}


def test_8_81a_lay_costs_1_ap_and_is_done_next_impulse():
    w, hm = world(), sample_map()
    order = en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant")
    assert order.legal, order.why
    en.apply_pontoon_work(w.state, order)
    assert w.state["leaders"]["grant"]["ap"] == 2 and w.state["units"]["eng"]["at_work"]
    assert en.pontoon_hexsides(w.state, U) == []            # not yet laid
    assert en.finish_work(w.state) == []                     # same impulse: nothing
    next_impulse(w, 3)
    done = en.finish_work(w.state)
    assert done[0].status == "bridged" and not w.state["units"]["eng"]["at_work"]
    assert en.pontoon_hexsides(w.state, U) == ["0603/0703"]
    assert en.pontoon_hexsides(w.state, C) == []


def test_8_81_laid_pontoon_crosses_at_the_ford_cost():
    w, hm = world(), sample_map()
    a, b = hm.parse("0603"), hm.parse("0703")
    assert not isinstance(step_cost(hm, weather="Clear", side=U)(a, b), (int, float))
    en.apply_pontoon_work(w.state, en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant"))
    next_impulse(w, 2)
    en.finish_work(w.state)
    cost = step_cost(hm, weather="Clear", side=U, pontoons=en.pontoon_hexsides(w.state, U))(a, b)
    ford = step_cost(hm, weather="Clear", side=U)(hm.parse("0602"), hm.parse("0702"))
    assert cost == ford


def test_8_8_only_union_engineers_and_major_rivers():
    w, hm = world(), sample_map()
    w.state["units"]["eng"]["arm"] = "infantry"
    assert en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant").problems[0].rule == "8.8"
    w2 = world()
    assert any("major-river" in p.message for p in en.lay_pontoon(w2.state, hm, "eng", "p1", "0603/0604",
                                                                   "grant").problems)


def test_8_81a_needs_an_army_commander_with_ap_and_a_stack():
    w, hm = world(), sample_map()
    w.state["leaders"]["grant"]["ap"] = 0
    assert any(p.rule == "3.24" for p in en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant").problems)
    w2 = world()
    w2.state["pontoons"][0]["hex"] = "0503"
    assert any("stacked" in p.message for p in en.lay_pontoon(w2.state, hm, "eng", "p1", "0503/0603",
                                                               "grant").problems)
    w3 = world()
    w3.state["leaders"]["grant"]["hq"] = False
    assert en.lay_pontoon(w3.state, hm, "eng", "p1", "0603/0703", "grant").problems


def test_8_81a_not_into_unoccupied_enemy_zoc_nor_controlled_hexsides():
    w, hm = world(), sample_map()
    w.unit("rebs", C, hex="0704")          # ZOC into 0703
    assert any("ZOC" in p.message for p in en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant").problems)
    w2 = world()
    r = en.lay_pontoon(w2.state, hm, "eng", "p1", "0603/0703", "grant", controlled=["0603/0703"])
    assert any("gunboats" in p.message for p in r.problems)


def test_8_81a_enemy_on_a_bank_removes_the_bridge():
    w, hm = world(), sample_map()
    en.apply_pontoon_work(w.state, en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant"))
    next_impulse(w, 2)
    en.finish_work(w.state)
    assert en.pontoon_losses(w.state, hm) == []
    w.unit("rebs", C, hex="0703")
    losses = en.pontoon_losses(w.state, hm)
    assert [x.pontoon for x in losses] == ["p1"]
    en.apply_pontoon_losses(w.state, losses)
    assert w.state["pontoons"] == []


def test_8_81b_take_up_1_ap_next_impulse():
    w, hm = world(), sample_map()
    en.apply_pontoon_work(w.state, en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant"))
    next_impulse(w, 2)
    en.finish_work(w.state)
    up = en.take_up_pontoon(w.state, hm, "eng", "p1", "grant")
    assert up.legal, up.why
    en.apply_pontoon_work(w.state, up)
    assert en.pontoon_hexsides(w.state, U) == ["0603/0703"]     # usable until the work is done
    next_impulse(w, 3)
    en.finish_work(w.state)
    assert w.state["pontoons"][0]["status"] == "unbridged" and en.pontoon_hexsides(w.state, U) == []


def test_8_93_blockaded_pontoon_closed():
    w, hm = world(), sample_map()
    en.apply_pontoon_work(w.state, en.lay_pontoon(w.state, hm, "eng", "p1", "0603/0703", "grant"))
    next_impulse(w, 2)
    en.finish_work(w.state)
    assert en.pontoon_hexsides(w.state, U, blockaded=["0603/0703"]) == []
