"""The Heartland supply case book: rules 7.1-7.35, 3.61 and the 8.31a distance DRM (H-9, H-21).

Maps are ASCII art with the stand-in TEC of ``games/heartland/terrain.yaml``
(clear 1 MP, road and rail 0.5); states are plain dicts in the layout of
:mod:`hxref.systems.heartland.model`, built by :class:`Game`.
"""
from __future__ import annotations

import json

import pytest

from hxref.base.paths import games_dir
from hxref.systems.heartland import supply as sp
from hxref.systems.heartland.supply import Supply, distance_drm, supply_status
from hxref.systems.heartland.zoc import zoc_hexes
from tests.heartland.factory import art_map

U, C = "union", "confederate"
TERRAIN = games_dir() / "heartland" / "terrain.yaml"

def strip(tmp_path, n: int, **kw):
    """A one-row map of ``n`` clear hexes, 0101 ... 0n01: each step 1 MP in Clear weather."""
    return art_map(tmp_path, " ".join("." * n), **kw)


def at(col: int, row: int = 1) -> str:
    return f"{col:02d}{row:02d}"


class Game:
    """A small state factory in the layout of model.py."""

    def __init__(self, weather: str = "Clear"):
        self.state = {"map": "art", "year": 1862, "weather": {"result": weather},
                      "leaders": {}, "units": {}, "logistics": {}, "sources": {U: [], C: []}}
        self._n = 0

    def _uid(self) -> str:
        self._n += 1
        return f"u{self._n}"

    def source(self, side: str, hex: str) -> "Game":
        self.state["sources"][side].append(hex)
        return self

    def leader(self, lid: str, side: str, hex: str, *, active: bool = True, mr: int = 3, asp: int = 2,
               superior: str | None = None, units: int = 1) -> "Game":
        self.state["leaders"][lid] = {
            "side": side, "name": lid, "stars": 2, "brevet": 0, "hq": False, "active": active,
            "ratings": {"active": {"ar": 2, "br": 2, "mr": mr}, "inactive": {"ar": 1, "br": 1, "mr": mr}},
            "ml": 3, "ap": 2, "artillery": 1, "asp": asp, "hex": hex, "superior": superior, "pool": False}
        for _ in range(units):
            self.unit(side, leader=lid)
        return self

    def unit(self, side: str, *, leader: str | None = None, hex: str | None = None, arm: str = "infantry",
             n: int = 1) -> "Game":
        for _ in range(n):
            self.state["units"][self._uid()] = {
                "side": side, "name": "brigade", "arm": arm, "size": "brigade", "cf": [4, 2], "ml": [2, 3],
                "steps": 2, "leader": leader, "hex": hex}
        return self

    def supply_unit(self, lid: str, side: str, hex: str | None, *, kind: str = "wagon", capacity: int = 2,
                    leader: str | None = None) -> "Game":
        self.state["logistics"][lid] = {"side": side, "kind": kind, "capacity": capacity, "cf": 0, "ml": 3,
                                        "hex": hex, "leader": leader}
        return self


# --------------------------------------------------------------------------
# 7.11 / 7.34 full supply within 20 MP of a source


def test_7_11_full_supply_at_20_mp_not_at_21(tmp_path):
    m = strip(tmp_path, 23)
    g = Game().source(U, at(1)).leader("near", U, at(21)).leader("far", U, at(22))
    s = supply_status(g.state, U, m)
    assert s["near"].state is Supply.FULL and s["near"].in_communication
    assert (s["near"].via, s["near"].distance) == ("source@0101", 20)
    assert s["far"].state is Supply.COMBAT and not s["far"].in_communication   # 7.31, 7.33 (it has ASP)
    assert s["far"].nearest is None and s["far"].distance_drm == 4              # 8.31a: no line of 20 MP
    assert "7.31" in s["far"].reason and "7.33" in s["far"].reason


def test_7_12c_weather_lengthens_the_line(tmp_path):
    m = strip(tmp_path, 12)
    g = Game().source(U, at(1)).leader("grant", U, at(12))
    assert supply_status(g.state, U, m)["grant"].distance == 11
    rain = supply_status(g.state, U, m, weather="Rain")["grant"]               # 11 steps x 2 MP
    assert not rain.in_communication
    g.state["weather"] = {"result": "Rain"}                                    # read from the state too
    assert not supply_status(g.state, U, m)["grant"].in_communication


# --------------------------------------------------------------------------
# 7.12a wagons (10 MP) and depots (20 MP), chained back to a source


def test_7_12a_wagon_at_10_mp_not_at_11(tmp_path):
    m = strip(tmp_path, 33)
    g = (Game().source(U, at(1)).supply_unit("w1", U, at(21))       # 20 MP from the source: in supply
         .leader("near", U, at(31)).leader("far", U, at(32)))
    s = supply_status(g.state, U, m)
    assert s.units["w1"].in_supply
    assert (s["near"].state, s["near"].via, s["near"].distance) == (Supply.FULL, "w1", 10)
    assert not s["far"].in_communication
    assert (s["far"].via, s["far"].nearest, s["far"].distance_drm) == ("w1", 11, 2)


def test_7_12a_depot_chain(tmp_path):
    m = art_map(tmp_path, " ".join("." * 20 + "t" + "." * 32))
    g = (Game().source(U, at(1)).supply_unit("d1", U, at(21), kind="depot")
         .supply_unit("w1", U, at(41)).leader("sherman", U, at(51)))
    s = supply_status(g.state, U, m)
    assert s.units["d1"].in_supply and "source 0101" in s.units["d1"].link
    assert s.units["w1"].in_supply and "depot d1" in s.units["w1"].link
    assert (s["sherman"].state, s["sherman"].via, s["sherman"].distance) == (Supply.FULL, "w1", 10)
    # without the depot the wagon is out of reach, and an out-of-supply wagon supplies nobody (7.34)
    del g.state["logistics"]["d1"]
    s = supply_status(g.state, U, m)
    assert not s.units["w1"].in_supply
    assert not s["sherman"].in_communication
    assert s["sherman"].nearest is None


def test_7_12a_depot_reaches_20_mp(tmp_path):
    m = strip(tmp_path, 45)
    g = Game().source(U, at(1)).supply_unit("d1", U, at(21), kind="depot").leader("a", U, at(41)).leader("b", U, at(42))
    s = supply_status(g.state, U, m)
    assert (s["a"].via, s["a"].distance, s["a"].in_communication) == ("d1", 20, True)
    assert not s["b"].in_communication


def test_7_21_wagon_moving_with_a_field_command(tmp_path):
    m = strip(tmp_path, 25)
    g = Game().source(U, at(1)).supply_unit("w1", U, at(15)).leader("thomas", U, at(25))
    g.supply_unit("w2", U, None, leader="thomas")        # in Thomas' box: in his hex (7.21)
    g.supply_unit("w3", U, at(12))
    s = supply_status(g.state, U, m)
    assert s.units["w2"].hex == at(25) and s.units["w2"].in_supply      # 10 MP from w1
    assert (s["thomas"].via, s["thomas"].distance) == ("w2", 0)


# --------------------------------------------------------------------------
# 8.31a item 1, H-9: the forced-march distance DRM


@pytest.mark.parametrize("mp,drm", [(0, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3), (18, 3),
                                    (20, 3), (21, 4), (40, 4), (None, 4), (5.5, 1)])
def test_8_31a_distance_drm_table_h9(mp, drm):
    assert distance_drm(mp) == drm


def test_h9_wagon_18_mp_away_gives_plus_3(tmp_path):
    m = strip(tmp_path, 40)
    g = Game().source(U, at(1)).supply_unit("w1", U, at(21)).leader("rosecrans", U, at(39))
    r = supply_status(g.state, U, m)["rosecrans"]
    assert not r.in_communication                       # 18 > 10 MP: out of communication
    assert (r.via, r.nearest, r.distance_drm) == ("w1", 18, 3)


# --------------------------------------------------------------------------
# 7.12b / 3.61 blocking


def test_7_12b_line_cut_by_an_enemy_unit(tmp_path):
    m = strip(tmp_path, 12)
    g = Game().source(U, at(1)).leader("grant", U, at(11))
    assert supply_status(g.state, U, m)["grant"].in_communication
    g.unit(C, hex=at(6), arm="detachment")              # no ZOC (3.6): the unit itself cuts the line
    assert zoc_hexes(g.state, C, m) == {}
    r = supply_status(g.state, U, m)["grant"]
    assert not r.in_communication and r.nearest is None and r.distance_drm == 4


def corridor(tmp_path):
    """Mountains in row 1, a clear corridor in row 2 (0102 ... 1202)."""
    return art_map(tmp_path, " ".join("M" * 12) + "\n" + " ".join("." * 12))


def test_7_12b_line_cut_by_enemy_zoc_and_restored_by_a_friendly_unit(tmp_path):
    m = corridor(tmp_path)
    g = Game().source(U, at(1, 2)).leader("grant", U, at(12, 2))
    assert supply_status(g.state, U, m)["grant"].distance == 11
    g.unit(C, hex=at(6, 1))                             # on the mountain: its ZOC covers the corridor
    zoc_in_corridor = sorted(h for h in zoc_hexes(g.state, C, m) if h.endswith("02"))
    assert zoc_in_corridor
    r = supply_status(g.state, U, m)["grant"]
    assert not r.in_communication and r.state is Supply.COMBAT
    for h in zoc_in_corridor:                           # 3.61: a friendly unit cancels the ZOC for supply
        g.unit(U, hex=h)
    r = supply_status(g.state, U, m)["grant"]
    assert r.in_communication and r.distance == 11


def test_7_12b_source_held_by_the_enemy_is_cut(tmp_path):
    m = strip(tmp_path, 5)
    g = Game().source(U, at(1)).leader("grant", U, at(5)).unit(C, hex=at(1), arm="detachment")
    s = supply_status(g.state, U, m)
    assert not s.units["source@0101"].in_supply
    assert not s["grant"].in_communication


def test_7_12c_no_supply_line_across_an_unbridged_major_river(tmp_path):
    m = strip(tmp_path, 6, hexsides={"0301/0401": ["major_river"]})
    g = Game().source(C, at(1)).leader("bragg", C, at(6))
    assert not supply_status(g.state, C, m)["bragg"].in_communication
    m = strip(tmp_path, 6, hexsides={"0301/0401": ["major_river", "ford"]})
    assert supply_status(g.state, C, m)["bragg"].distance == 7          # 5 + ford 2
    assert not supply_status(g.state, C, m, weather="Mud")["bragg"].in_communication   # 5.24


def test_7_12c_no_supply_line_by_ferry(tmp_path):
    m = art_map(tmp_path, ". t t .", hexsides={"0201/0301": ["major_river", "ferry"]})
    g = Game().source(C, at(1)).leader("bragg", C, at(4))
    assert not supply_status(g.state, C, m)["bragg"].in_communication


# --------------------------------------------------------------------------
# 7.13 rail supply


def test_7_13_railroad_depot_at_any_rail_distance(tmp_path):
    n = 45                                               # 44 rail hexes x 0.5 = 22 MP: too far by MP
    m = art_map(tmp_path, " ".join("." * (n - 1) + "t"), lines=[("rail", [at(c) for c in range(1, n + 1)])])
    g = Game().source(U, at(1)).supply_unit("d1", U, at(n), kind="depot").leader("buell", U, at(n))
    s = supply_status(g.state, U, m)
    assert s.units["d1"].in_supply and "7.13" in s.units["d1"].link
    assert (s["buell"].via, s["buell"].in_communication) == ("d1", True)
    # a Rail Line Cut marker, or an enemy unit on the line, breaks the relay
    assert not supply_status(g.state, U, m, rail_cuts={at(20)})["buell"].in_communication
    g.unit(C, hex=at(20), arm="detachment")
    assert not supply_status(g.state, U, m).units["d1"].in_supply


# --------------------------------------------------------------------------
# 7.21-7.23 capacity


def h21(tmp_path):
    """H-21: a wagon of capacity 2; in its range a field command with 5 SLs, 2 inactive commanders, 4 unled brigades."""
    m = art_map(tmp_path, " ".join("." * 27 + "C" + "." * 4))
    g = Game().source(C, at(1)).supply_unit("w1", C, at(21), capacity=2)
    g.leader("bragg", C, at(25))
    for i in range(5):
        g.leader(f"sl{i}", C, at(25), superior="bragg")
    g.leader("polk", C, at(26), active=False).leader("hardee", C, at(27), active=False)
    g.unit(C, hex=at(28), n=4)
    return m, g


def test_7_23_h21_capacity_example(tmp_path):
    m, g = h21(tmp_path)
    s = supply_status(g.state, C, m)
    assert set(s.forces) == {"bragg", "polk", "hardee", "unled@2801"}
    assert all(r.state is Supply.FULL and r.via == "w1" for r in s.forces.values())
    assert s.units["w1"].used_by == (at(25),)           # 1 used, 1 spare
    assert [f for f, r in s.forces.items() if r.uses_capacity] == ["bragg"]
    assert "7.23" in s["polk"].reason and "7.23" in s["unled@2801"].reason


def test_7_21_capacity_exceeded_out_of_communication(tmp_path):
    m, g = h21(tmp_path)
    g.leader("forrest", C, at(29)).leader("wheeler", C, at(30), asp=0)
    s = supply_status(g.state, C, m)
    assert s.units["w1"].used_by == (at(25), at(29))
    w = s["wheeler"]
    assert not w.in_communication and w.state is Supply.OUT      # 7.31 capacity; 7.32 no ASP
    assert "capacity" in w.reason and "7.31" in w.reason and w.distance == 9
    # the player may say who comes first
    s = supply_status(g.state, C, m, priority=["wheeler"])
    assert s["wheeler"].state is Supply.FULL
    assert sum(not r.in_communication for r in s.forces.values()) == 1


def test_7_21_a_stack_counts_as_one_force(tmp_path):
    m, g = h21(tmp_path)
    g.leader("forrest", C, at(29)).leader("wheeler", C, at(29)).leader("morgan", C, at(30))
    s = supply_status(g.state, C, m)
    assert s.units["w1"].used_by == (at(25), at(29))
    assert {f for f, r in s.forces.items() if not r.in_communication} == {"morgan"}


def test_7_23_inactive_commander_stacked_with_an_unsupplied_field_command(tmp_path):
    m, g = h21(tmp_path)
    g.leader("forrest", C, at(29)).leader("wheeler", C, at(30)).leader("polk2", C, at(30), active=False)
    s = supply_status(g.state, C, m)
    assert not s["wheeler"].in_communication             # capacity: bragg and forrest hold it
    assert s["polk2"].state is Supply.FULL               # but an inactive commander needs only a line


def test_7_12b_a_cut_source_is_not_relinked_by_another_source(tmp_path):
    m = strip(tmp_path, 8)
    g = Game().source(U, at(1)).source(U, at(3)).leader("grant", U, at(8)).unit(C, hex=at(3), arm="detachment")
    s = supply_status(g.state, U, m)
    assert s.units["source@0101"].in_supply and not s.units["source@0301"].in_supply


def test_7_21_capacity_is_shared_out_to_supply_the_most(tmp_path):
    # w1 reaches both a and b; w2 reaches only a: a must take w2 so that b gets w1
    m = strip(tmp_path, 40)
    g = (Game().source(U, at(1)).supply_unit("w1", U, at(21), capacity=1).supply_unit("w2", U, at(18), capacity=1)
         .leader("a", U, at(24)).leader("b", U, at(31)))
    s = supply_status(g.state, U, m, priority=["a", "b"])
    assert (s["a"].via, s["b"].via) == ("w2", "w1")
    assert all(r.in_communication for r in s.forces.values())


def test_7_11_a_line_straight_to_a_source_uses_no_capacity(tmp_path):
    m = strip(tmp_path, 10)
    g = Game().source(U, at(1)).supply_unit("w1", U, at(5), capacity=0).leader("a", U, at(8)).leader("b", U, at(10))
    s = supply_status(g.state, U, m)
    assert [s[f].via for f in ("a", "b")] == ["source@0101", "source@0101"]
    assert s.units["w1"].used_by == ()


# --------------------------------------------------------------------------
# 7.31-7.33 the states and their effects (B5)


def test_7_32_7_33_ooc_with_and_without_asp(tmp_path):
    m = strip(tmp_path, 5)
    g = Game().leader("with", U, at(1), asp=1).leader("without", U, at(3), asp=0)
    g.leader("sl", U, at(3), superior="without", asp=0)
    s = supply_status(g.state, U, m)                     # no sources at all
    assert s["with"].state is Supply.COMBAT
    assert (s["with"].mp_halved, s["with"].cf_halved, s["with"].artillery) == (True, False, True)
    assert s["without"].state is Supply.OUT
    assert (s["without"].mp_halved, s["without"].cf_halved, s["without"].artillery) == (True, True, False)
    assert "7.32" in s["without"].reason


def test_7_33_asp_of_a_subordinate_counts_for_the_force(tmp_path):
    m = strip(tmp_path, 5)
    g = Game().leader("oc", U, at(3), asp=0).leader("sl", U, at(3), superior="oc", asp=2)
    assert supply_status(g.state, U, m)["oc"].state is Supply.COMBAT


def test_7_33_unled_units_are_always_at_least_in_combat_supply(tmp_path):
    m = strip(tmp_path, 5)
    g = Game().unit(C, hex=at(3), n=2)
    r = supply_status(g.state, C, m)["unled@0301"]
    assert r.state is Supply.COMBAT and "7.33" in r.reason and not r.uses_capacity


def test_7_34_full_supply_effects(tmp_path):
    m = strip(tmp_path, 3)
    r = supply_status(Game().source(U, at(1)).leader("a", U, at(3), asp=0).state, U, m)["a"]
    assert r.state is Supply.FULL                        # 7.34: no ASP needed for full supply
    assert (r.mp_halved, r.cf_halved, r.artillery, r.distance_drm) == (False, False, True, 0)


# --------------------------------------------------------------------------
# 7.35 emergency supply and 7.35a Own Use


def test_7_35_emergency_supply_within_the_oc_mr(tmp_path):
    m = strip(tmp_path, 12)
    g = Game().leader("grant", U, at(5), mr=3, asp=0).supply_unit("w1", U, at(8)).supply_unit("w2", U, at(9))
    s = supply_status(g.state, U, m)
    assert s["grant"].state is Supply.OUT and s["grant"].emergency_options == ("w1",)   # w2 is 4 hexes away
    s = supply_status(g.state, U, m, emergency={"grant": "w1"})
    r = s["grant"]
    assert (r.state, r.emergency, r.via, r.in_communication) == (Supply.FULL, "w1", "w1", False)
    assert s.consumed == ("w1",) and "w1" not in s.units and not s.problems
    assert "7.35" in r.reason


def test_7_35_emergency_supply_out_of_mr_is_refused(tmp_path):
    m = strip(tmp_path, 12)
    g = Game().leader("grant", U, at(5), mr=3, asp=0).supply_unit("w2", U, at(9))
    s = supply_status(g.state, U, m, emergency={"grant": "w2"})
    assert s["grant"].state is Supply.OUT and s.consumed == ()
    assert [p.rule for p in s.problems] == ["7.35"] and "MR (3 hexes)" in s.problems[0].message


def test_7_35_inactive_oc_uses_his_inactive_mr(tmp_path):
    m = strip(tmp_path, 12)
    g = Game().leader("grant", U, at(5), mr=3, active=False).supply_unit("w1", U, at(7))
    g.state["leaders"]["grant"]["ratings"]["inactive"]["mr"] = 1
    s = supply_status(g.state, U, m, emergency={"grant": "w1"})
    assert s.problems and s["grant"].state is Supply.COMBAT


def test_7_35_leaderless_force_needs_the_unit_stacked(tmp_path):
    m = strip(tmp_path, 6)
    g = Game().unit(C, hex=at(3), n=2).supply_unit("w1", C, at(4)).supply_unit("d1", C, at(3), kind="depot")
    s = supply_status(g.state, C, m, emergency={"unled@0301": "w1"})
    assert s.problems and "stacked" in s.problems[0].message and s["unled@0301"].state is Supply.COMBAT
    assert s["unled@0301"].emergency_options == ("d1",)
    s = supply_status(g.state, C, m, emergency={"unled@0301": "d1"})
    assert s["unled@0301"].state is Supply.FULL and s.consumed == ("d1",)


def test_7_35_not_for_a_force_in_communication_and_one_unit_one_stack(tmp_path):
    m = strip(tmp_path, 30)
    g = (Game().source(U, at(1)).leader("home", U, at(3))
         .leader("a", U, at(25)).leader("b", U, at(27)).supply_unit("w1", U, at(26)))
    s = supply_status(g.state, U, m, emergency={"home": "w1", "a": "w1", "b": "w1"})
    assert [p.path for p in s.problems] == [["emergency", "home"], ["emergency", "b"]]
    assert s["a"].state is Supply.FULL and s["b"].state is Supply.COMBAT and s.consumed == ("w1",)


def test_7_35_consuming_a_wagon_cuts_those_it_supplied(tmp_path):
    # w1 (in supply, 20 MP from the source) supplies "fed"; "cut_off" is 3 hexes from w1 across an unbridged river
    m = strip(tmp_path, 30, hexsides={"2301/2401": ["major_river"]})
    g = (Game().source(U, at(1)).supply_unit("w1", U, at(21)).leader("fed", U, at(22))
         .leader("cut_off", U, at(24), mr=3, asp=0))
    s = supply_status(g.state, U, m)
    assert s["fed"].via == "w1" and s["cut_off"].state is Supply.OUT and s["cut_off"].emergency_options == ("w1",)
    s = supply_status(g.state, U, m, emergency={"cut_off": "w1"})
    assert s["cut_off"].state is Supply.FULL and s.consumed == ("w1",)
    assert not s["fed"].in_communication                  # w1 is consumed before supply is traced


def test_7_35a_own_use_marker(tmp_path):
    m = strip(tmp_path, 5)
    g = Game().leader("grant", U, at(3), asp=0)
    r = supply_status(g.state, U, m, own_use={"grant"})["grant"]
    assert (r.state, r.via, r.distance_drm) == (Supply.FULL, "own use", 0)   # 8.31a: Own Use cancels the DRM


# --------------------------------------------------------------------------
# the report


def test_summary_and_lines_for_a_report(tmp_path):
    m, g = h21(tmp_path)
    g.leader("wheeler", C, at(12), asp=0)
    g.state["sources"][C] = []
    s = supply_status(g.state, C, m)
    summary = s.summary()
    assert summary["counts"] == {"full": 0, "combat": 4, "out": 1, "in_communication": 0}
    assert summary["forces"]["out"] == ["wheeler"]
    assert summary["units"]["w1"] == {"kind": "wagon", "hex": at(21), "in_supply": False, "capacity": 2, "used": 0}
    text = "\n".join(s.lines())
    assert "wheeler in 1201: out of communication" in text and "wagon w1 in 2101: not in supply" in text
    json.dumps([r.to_dict() for r in s.forces.values()] + [u.to_dict() for u in s.units.values()] + [summary])


def test_one_search_per_in_supply_node_not_per_force(tmp_path, monkeypatch):
    m = strip(tmp_path, 35)
    g = Game().source(U, at(1)).supply_unit("w1", U, at(21)).supply_unit("w9", U, at(35))
    for c in range(2, 35, 2):
        g.leader(f"l{c}", U, at(c))
    calls = []
    real = sp.MoveGraph.search

    def counting(self, *a, **kw):
        calls.append(a[0])
        return real(self, *a, **kw)

    monkeypatch.setattr(sp.MoveGraph, "search", counting)
    s = supply_status(g.state, U, m)
    assert len(calls) == 2                                # the source and w1; w9 (14 MP from w1) is not in supply
    assert not s.units["w9"].in_supply


def test_the_module_examples_run():
    import doctest

    assert doctest.testmod(sp).failed == 0
