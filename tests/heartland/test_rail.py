"""8.63 cutting rail lines; 8.7-8.74 rail movement; 5.28/5.29 no trains in Snow or Blizzard (H-28)."""
from pathlib import Path

import pytest

from hxref.geometry.mapfile import load_map
from hxref.base.paths import games_dir
from hxref.systems.heartland import rail
from tests.heartland.factory import TODAY, C, U, World

# demo map: stations 0410 (Brandtville), 1010 (Ransom Station), 2010 (Dalby), 2710 (Sumnerton)
DEMO = "0410"


@pytest.fixture(scope="module")
def demo():
    return load_map(games_dir() / "heartland" / "maps" / "demo.yaml")


@pytest.fixture(scope="module")
def line_map(tmp_path_factory):
    """A 20-column strip: a railroad along row 2 with a town on every odd column (10 stations)."""
    terrain = (games_dir() / "heartland" / "terrain.yaml").resolve()
    hexes = "\n".join(f'  "{c:02d}02": {{terrain: clear, features: [town]}}' for c in range(1, 21, 2))
    rail_hexes = ", ".join(f'"{c:02d}02"' for c in range(1, 21))
    text = f"""map: strip
title: strip
system: heartland
kind: hex
grid:
  labels: four-digit
  parity: even
  columns: [1, 20]
  rows: [1, 4]
  terrain: clear
  elevation: 0
terrain: {terrain}
hexes:
{hexes}
lines:
  - type: rail
    name: Strip Railroad
    hexes: [{rail_hexes}]
"""
    p = Path(tmp_path_factory.mktemp("maps")) / "strip.yaml"
    p.write_text(text)
    return load_map(p)


def world(hex=DEMO, side=U, trains=None, **kw):
    w = World()
    w.state["map"] = "demo"
    w.state["turn"] = 3
    w.state["current"] = {"weather": {"result": kw.pop("weather", "Clear")},
                          "active_impulse": {"n": 2, "side": side, "mp": {}}}
    w.state["wep"] = {U: 50, C: 50}
    w.state["trains"] = trains if trains is not None else {"t1": {"side": side, "hex": hex}}
    w.leader("grant", side, hex, stars=3, **kw)
    w.unit("d1", side, leader="grant")
    return w


# --- 8.63 -----------------------------------------------------------------------------------

def test_8_63_cavalry_cut_costs_terrain_plus_3_automatic_h28(demo):
    w = world()
    w.leader("stuart", C, "1010", stars=1)
    w.unit("cav", C, leader="stuart", arm="cavalry", size="brigade")
    cut = rail.cut_rail(w.state, demo, "stuart", "1010")
    assert cut.legal and cut.mp == 0 + 1 + 3      # clear 1 + town 0, + 3 (stand-in TEC)
    rail.apply_cut_rail(w.state, cut)
    assert w.state["rail_cuts"] == ["1010"]
    again = rail.cut_rail(w.state, demo, "stuart", "1010")
    assert not again.legal and "already cut" in again.why


def test_8_63_cut_while_entering_pays_the_step_cost_plus_3(demo):
    w = world()
    w.leader("stuart", C, "0511", stars=1)
    w.unit("cav", C, leader="stuart", arm="cavalry", size="brigade")
    cut = rail.cut_rail(w.state, demo, "stuart", "0611", entered_from="0511")
    assert cut.legal
    from hxref.systems.heartland.terrain import step_cost
    base = step_cost(demo, weather="Clear", side=C)(demo.parse("0511"), demo.parse("0611"))
    assert cut.mp == base + 3


def test_8_63_only_cavalry_and_only_rail_hexes(demo):
    w = world()
    inf = rail.cut_rail(w.state, demo, "grant", DEMO)
    assert not inf.legal and inf.problems[0].rule == "8.63"
    w.leader("stuart", C, "0101", stars=1)
    w.unit("cav", C, leader="stuart", arm="cavalry", size="brigade")
    off = rail.cut_rail(w.state, demo, "stuart", "0101")
    assert not off.legal and "not on a rail line" in off.why


def test_8_1_inactive_leader_cannot_cut(demo):
    w = world()
    w.leader("stuart", C, "1010", stars=1, active=False)
    w.unit("cav", C, leader="stuart", arm="cavalry", size="brigade")
    assert any(p.rule == "8.1" for p in rail.cut_rail(w.state, demo, "stuart", "1010").problems)


def test_8_63_with_cuts_adds_3_mp(demo):
    cost = rail.with_cuts(lambda a, b: 1.0, ["0611"], demo)
    assert cost(demo.parse("0511"), demo.parse("0611")) == 4.0
    assert cost(demo.parse("0511"), demo.parse("0510")) == 1.0


# --- 8.72 -----------------------------------------------------------------------------------

def test_8_72_one_union_division_by_train_1_wep_h28(demo):
    w = world()
    m = rail.rail_move(w.state, demo, "grant", ["0410", "1010", "2010"])
    assert m.legal, m.why
    assert m.wep == 1 and m.end == "2010" and m.counted == ["1010", "2010"]
    rail.apply_rail_move(w.state, m)
    assert w.state["leaders"]["grant"]["hex"] == "2010"
    assert w.state["trains"]["t1"]["hex"] == "2010"
    assert w.state["wep"][U] == 49
    again = rail.rail_move(w.state, demo, "grant", ["2010", "2710"])
    assert not again.legal                              # 8.72: no other movement this impulse
    assert any("already moved by rail" in p.message for p in again.problems)


def test_8_72_relay_forbidden_after_normal_move(demo):
    w = world()
    w.state["current"]["active_impulse"]["mp"]["grant"] = {"rolled": 5, "spent": 2}
    m = rail.rail_move(w.state, demo, "grant", ["0410", "1010"])
    assert not m.legal and "relay" in m.why


def test_8_72_capacity_union_one_division_confederate_four_brigades(demo):
    w = world()
    w.unit("d2", U, leader="grant")
    assert any("division" in p.message for p in rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).problems)
    c = World()
    c.state.update(map="demo", turn=1, wep={C: 5}, trains={"ct": {"side": C, "hex": "2710"}},
                   current={"weather": {"result": "Clear"}, "active_impulse": {"n": 1, "side": C, "mp": {}}})
    c.leader("bragg", C, "2710", stars=3)
    c.units("b", 4, C, leader="bragg", size="brigade")
    assert rail.rail_move(c.state, demo, "bragg", ["2710", "2010"]).legal
    c.unit("b5", C, leader="bragg", size="brigade")
    assert not rail.rail_move(c.state, demo, "bragg", ["2710", "2010"]).legal


def test_8_72_up_to_six_stations_h28(line_map):
    w = world(hex="0102")
    ok = rail.rail_move(w.state, line_map, "grant", ["0102", "1302"])
    assert ok.legal and len(ok.counted) == 6
    far = rail.rail_move(w.state, line_map, "grant", ["0102", "1502"])
    assert not far.legal and "at most 6" in far.why


def test_8_72_second_force_rides_the_running_train_without_paying(line_map):
    w = world(hex="0102")
    w.leader("sherman", U, "0502", stars=2)
    w.unit("d9", U, leader="sherman", size="brigade")
    w.state["units"]["d1"]["size"] = "brigade"
    m1 = rail.rail_move(w.state, line_map, "grant", ["0102", "0902"])
    rail.apply_rail_move(w.state, m1)
    m2 = rail.rail_move(w.state, line_map, "sherman", ["0502", "0902"])
    assert m2.legal and m2.wep == 0, m2.why
    rail.apply_rail_move(w.state, m2)
    assert w.state["wep"][U] == 49


def test_8_72_leaders_ride_free_and_wagons_cannot_board(demo):
    w = world()
    w.leader("sherman", U, superior="grant", stars=2)
    assert rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).legal
    w.wagon("w1", U, "0410", leader="grant")
    assert any(p.rule == "8.73" for p in rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).problems)


def test_8_73_inactive_leader_cannot_board(demo):
    w = world(active=False)
    assert not rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).legal


@pytest.mark.parametrize("weather", ["Snow", "Blizzard"])
def test_5_28_5_29_no_rail_movement(demo, weather):
    w = world(weather=weather)
    m = rail.rail_move(w.state, demo, "grant", ["0410", "1010"])
    assert not m.legal and m.problems[0].rule == "8.73"


@pytest.mark.parametrize("weather", ["Mud", "Light Snow", "Rain"])
def test_8_73_other_weather_does_not_stop_trains(demo, weather):
    assert rail.rail_move(world(weather=weather).state, demo, "grant", ["0410", "1010"]).legal


def test_8_72_must_board_and_leave_at_stations(demo):
    w = world()
    assert not rail.rail_move(w.state, demo, "grant", ["0410", "0611"]).legal


def test_8_73_enemy_block_stops_at_the_station_before(demo):
    w = world()
    w.unit("rebs", C, hex="1410")
    m = rail.rail_move(w.state, demo, "grant", ["0410", "2010"])
    assert m.legal and m.end == "1010" and "station before" in m.stopped
    assert rail.rail_move_problems(w.state, demo, "grant", ["0410", "2010"])    # flagged at order time


def test_7_13_8_71_a_rail_cut_breaks_the_line(demo):
    w = world()
    w.state["rail_cuts"] = ["1410"]
    m = rail.rail_move(w.state, demo, "grant", ["0410", "2010"])
    assert not m.legal and "unbroken" in m.why
    assert rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).legal


def test_8_73_enemy_zoc_blocks(demo):
    w = world()
    w.unit("rebs", C, hex="0711")
    m = rail.rail_move(w.state, demo, "grant", ["0410", "1010"])
    assert not m.legal and m.problems[0].rule == "8.73"


def test_8_72_no_wep_no_train(demo):
    w = world()
    w.state["wep"][U] = 0
    assert not rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).legal


def test_8_72_idle_train_runs_empty_to_the_force(demo):
    w = world(trains={"t1": {"side": U, "hex": "0410"}}, hex="1010")
    m = rail.rail_move(w.state, demo, "grant", ["1010", "2010"])
    assert m.legal and m.counted == ["1010", "2010"] and m.route == rail.rail_path(demo, "1010", "2010")


def test_8_71_open_track_checked_when_tracked(demo):
    w = world()
    w.state["rail_open"] = {U: rail.rail_path(demo, "0410", "1010")}
    assert rail.rail_move(w.state, demo, "grant", ["0410", "1010"]).legal
    assert any(p.rule == "8.71" for p in rail.rail_move(w.state, demo, "grant", ["0410", "2010"]).problems)


def test_8_72_one_extra_train(demo):
    w = world()
    t = rail.buy_train(w.state, demo, U, "0410", price=5)
    assert t.problems == []
    rail.apply_buy_train(w.state, t)
    assert w.state["wep"][U] == 45
    assert rail.buy_train(w.state, demo, U, "0410", price=5).problems


def test_8_72_the_train_price_is_the_scenario_s_else_the_stand_in_chart(demo):
    """14.14's price list is missing: the extra train costs the scenario's `prices.train`, else the
    stand-in price chart's (games/heartland/charts/prices.yaml, `stand_in: true`), never a number
    in the code; the event says which."""
    chart = TODAY.chart("prices")
    assert chart["stand_in"] is True and chart["rule"] == "14.14"
    w = world()
    bought = rail.buy_train(w.state, demo, U, "0410", price=rail.wep_price(w.state, "train", TODAY))
    assert bought.wep == chart["train"] and "stand-in price chart" in bought.why
    w.state["prices"] = {"train": 9}
    bought = rail.buy_train(w.state, demo, U, "0410", price=rail.wep_price(w.state, "train", TODAY))
    assert bought.wep == 9 and "the scenario's price" in bought.why
    assert rail.wep_price({"prices": {"asp": 3}}, "asp", TODAY) == 3 and rail.wep_price({}, "asp", TODAY) == chart["asp"]


def test_8_74_off_map_is_optional_and_waits_two_or_three_turns():
    w = world()
    w.state["off_map"] = [{"force": "grant", "side": U, "edge": "north", "left_turn": 3}]
    assert rail.off_map_return(w.state, "grant", "north").problems
    w.state["options"] = {"off_map_rail": True}
    assert rail.off_map_return(w.state, "grant", "north").turn == 5
    assert rail.off_map_return(w.state, "grant", "west").turn == 6


# --- 8.74 off-map rail movement, end to end through rail_move -------------------------------
# The strip's railroad runs along row 2 from 0102 (west edge, a town) to 2002 (east edge,
# no town); odd columns are towns.

def off_map_world(side=C, turn=3, **kw):
    w = world(hex="1702", side=side, **kw)
    w.state["turn"] = turn
    w.state["options"] = {"off_map_rail": True}
    return w


def test_8_74_map_edges_of_a_hex(line_map):
    assert rail.map_edges(line_map, "0102") == {"west"}
    assert rail.map_edges(line_map, "2002") == {"east"}
    assert rail.map_edges(line_map, "0101") == {"west", "north"}
    assert rail.map_edges(line_map, "0903") == set()


def test_8_74_north_is_union_west_east_south_confederate():
    w = off_map_world()
    assert rail.friendly_edges(w.state, U) == {"north"}
    assert rail.friendly_edges(w.state, C) == {"west", "east", "south"}


def test_8_74_memphis_and_knoxville_taken_close_the_west_and_east_edges():
    w = off_map_world()
    w.state["off_map_rail"] = {"lost_edges": {"west": "0303", "east": "0903"}}   # Memphis, Knoxville
    w.leader("sherman", U, "0303", stars=2)
    w.unit("s1", U, leader="sherman")
    assert rail.friendly_edges(w.state, C) == {"east", "south"}
    w.state["control_vp"] = {"0903": U}          # held by the last side through it
    assert rail.friendly_edges(w.state, C) == {"south"}


def test_8_74_a_force_leaves_by_train_at_a_friendly_edge_rail_hex(line_map):
    w = off_map_world()
    m = rail.rail_move(w.state, line_map, "grant", ["1702", "2002"], off_map=True)
    assert m.legal, m.why
    assert m.end == "2002" and m.wep == 1 and "leaves the map at the east edge" in m.why
    rail.apply_rail_move(w.state, m)
    assert w.state["leaders"]["grant"]["hex"] is None
    assert w.state["off_map"] == [{"force": "grant", "side": C, "edge": "east", "left_turn": 3}]
    assert w.state["trains"]["t1"]["hex"] == "2002"          # the train stays at the edge
    assert "grant" not in rail.model.forces(w.state, C)


def test_8_74_leaving_needs_the_option_an_edge_hex_and_a_friendly_edge(line_map):
    w = off_map_world()
    w.state["options"] = {}
    assert any(p.rule == "8.74" for p in rail.rail_move(w.state, line_map, "grant", ["1702", "2002"],
                                                        off_map=True).problems)
    w = off_map_world()
    inner = rail.rail_move(w.state, line_map, "grant", ["1702", "1902"], off_map=True)
    assert not inner.legal and "map edge" in inner.why
    u = off_map_world(side=U)
    east = rail.rail_move(u.state, line_map, "grant", ["1702", "2002"], off_map=True)
    assert not east.legal and "not a union edge" in east.why


def test_8_74_re_entry_two_turns_later_at_the_same_edge_rides_in_by_train(line_map):
    w = off_map_world()
    rail.apply_rail_move(w.state, rail.rail_move(w.state, line_map, "grant", ["1702", "2002"], off_map=True))
    w.state["turn"] = 4
    w.state["current"]["active_impulse"] = {"n": 1, "side": C, "mp": {}}
    early = rail.rail_move(w.state, line_map, "grant", ["2002", "1702"], entering=True)
    assert not early.legal and "turn 5" in early.why
    w.state["turn"] = 5
    m = rail.rail_move(w.state, line_map, "grant", ["2002", "1702"], entering=True)
    assert m.legal, m.why
    rail.apply_rail_move(w.state, m)
    assert w.state["leaders"]["grant"]["hex"] == "1702" and w.state["off_map"] == []
    assert "grant" in rail.model.forces(w.state, C)


def test_8_74_another_edge_waits_three_turns(line_map):
    w = off_map_world()
    rail.apply_rail_move(w.state, rail.rail_move(w.state, line_map, "grant", ["1702", "2002"], off_map=True))
    w.state["turn"] = 5
    w.state["current"]["active_impulse"] = {"n": 1, "side": C, "mp": {}}
    west = rail.rail_move(w.state, line_map, "grant", ["0102", "0302"], entering=True)
    assert not west.legal and "turn 6" in west.why
    w.state["turn"] = 6
    far = rail.rail_move(w.state, line_map, "grant", ["0102", "0302"], entering=True)
    assert "11 stations" in far.why          # 8.72: t1 would run empty from 2002 to the west edge
    w.state["trains"]["t2"] = {"side": C, "hex": "0102"}
    m = rail.rail_move(w.state, line_map, "grant", ["0102", "0302"], entering=True)
    assert m.legal and m.train == "t2" and "west edge" in m.why


def test_8_74_re_entry_refused_into_enemy_zoc_and_for_a_force_still_on_the_map(line_map):
    w = off_map_world()
    assert not rail.rail_move(w.state, line_map, "grant", ["2002", "1702"], entering=True).legal
    rail.apply_rail_move(w.state, rail.rail_move(w.state, line_map, "grant", ["1702", "2002"], off_map=True))
    w.state["turn"] = 5
    w.state["current"]["active_impulse"] = {"n": 1, "side": C, "mp": {}}
    w.leader("sherman", U, "1903", stars=2)               # ZOC over 2002
    w.unit("s1", U, leader="sherman")
    blocked = rail.rail_move(w.state, line_map, "grant", ["2002", "1702"], entering=True)
    assert not blocked.legal and blocked.problems[0].rule == "8.73"
