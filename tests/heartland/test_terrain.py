"""Heartland step costs: weather (5.22-5.29), fords, pontoons, mountains (8.24), ferries (8.24a), supply lines (7.12).

The costs are the stand-in TEC of ``games/heartland/terrain.yaml`` (clear 1,
woods 2, road 0.5, minor river +1, ford +2, bridge 0, mountain road only);
the maps are small ASCII art written to a map file that uses that terrain.
"""
from __future__ import annotations

import pytest

from hxref.geometry.paths import Prohibited
from hxref.kit.walk import WalkRules, walk
from hxref.geometry.mapfile import load_map
from hxref.base.paths import games_dir
from hxref.systems.heartland.terrain import WEATHERS, step_cost
from tests.heartland.factory import art_map

TERRAIN = games_dir() / "heartland" / "terrain.yaml"


def cost(m, a: str, b: str, weather: str = "Clear", side: str = "confederate", **kw):
    return step_cost(m, weather=weather, side=side, **kw)(m.parse(a), m.parse(b))


def refused(c, *words: str) -> bool:
    return isinstance(c, Prohibited) and all(w in c.reason for w in words)


# --------------------------------------------------------------------------
# 5.21-5.29: weather on every terrain, off road

OFF_ROAD = {  # weather: (enter clear, enter woods)
    "Clear": (1, 2),          # 5.21 no effect
    "Cold": (1, 2),           # 5.26 no movement effect
    "Light Rain": (2, 3),     # 5.22 +1 all terrain
    "Rain": (2, 3),           # 5.23 +1
    "Mud": (2, 3),            # 5.24 as Rain
    "Thaw": (2, 3),           # 5.25 +1
    "Light Snow": (2, 3),     # 5.27 +1
    "Snow": (2, 3),           # 5.28 non-road terrain +1
    "Blizzard": (2, 4),       # 5.29 off road doubled
}


@pytest.mark.parametrize("weather", WEATHERS)
def test_5_2x_weather_off_road(tmp_path, weather):
    m = art_map(tmp_path, ". w .")
    assert (cost(m, "0201", "0101", weather), cost(m, "0101", "0201", weather)) == OFF_ROAD[weather]


ALONG_ROAD = {  # weather: (road into clear, road into woods)
    "Clear": (0.5, 0.5),
    "Cold": (0.5, 0.5),
    "Light Rain": (1.5, 1.5),   # 5.22 "all terrain" includes roads
    "Rain": (1.5, 1.5),
    "Mud": (1.5, 1.5),
    "Thaw": (1.5, 1.5),
    "Light Snow": (1.5, 1.5),
    "Snow": (1, 2),             # 5.28 roads pay the terrain's own cost (no +1)
    "Blizzard": (1, 2),         # 5.29 roads pay the terrain's own cost (not doubled)
}


@pytest.mark.parametrize("line", ["road", "rail"])
@pytest.mark.parametrize("weather", WEATHERS)
def test_5_2x_weather_along_road_and_rail(tmp_path, weather, line):
    m = art_map(tmp_path, ". w .", lines=[(line, ["0101", "0201", "0301"])])
    assert (cost(m, "0201", "0301", weather), cost(m, "0101", "0201", weather)) == ALONG_ROAD[weather]


def test_5_28_snow_road_cheaper_than_off_road(tmp_path):
    m = art_map(tmp_path, ". w .", lines=[("road", ["0101", "0201"])])
    assert cost(m, "0101", "0201", "Snow") == 2           # along the road: woods' own cost
    assert cost(m, "0201", "0301", "Snow") == 2           # no road: clear 1 + 1


@pytest.mark.parametrize("weather,into_woods,into_clear", [
    ("Clear", 3, 2), ("Rain", 4, 3), ("Snow", 4, 3),
    ("Blizzard", 4, 2),        # 5.29: minor river frozen, the hex doubled
])
def test_5_29_minor_river_frozen_in_blizzard(tmp_path, weather, into_woods, into_clear):
    m = art_map(tmp_path, ". w", hexsides={"0101/0201": ["minor_river"]})
    assert cost(m, "0101", "0201", weather) == into_woods
    assert cost(m, "0201", "0101", weather) == into_clear


def test_5_29_road_across_unbridged_minor_river(tmp_path):
    m = art_map(tmp_path, ". w", hexsides={"0101/0201": ["minor_river"]}, lines=[("road", ["0101", "0201"])])
    assert cost(m, "0101", "0201", "Clear") == 1.5
    assert cost(m, "0101", "0201", "Blizzard") == 2        # woods' own cost, the river frozen


# --------------------------------------------------------------------------
# fords: 5.23 / 5.24 closed in Rain and Mud, 5.25 doubled in Thaw

MAJOR_FORD = {
    "Clear": 3, "Cold": 3, "Light Rain": 4, "Light Snow": 4, "Snow": 4,
    "Thaw": 6,                  # 5.25: (1 + 1) + ford 2 x 2
    "Blizzard": 6,              # 5.29: (1 + 2) x 2
}


@pytest.mark.parametrize("weather", WEATHERS)
def test_fords_on_a_major_river(tmp_path, weather):
    m = art_map(tmp_path, ". .", hexsides={"0101/0201": ["major_river", "ford"]})
    c = cost(m, "0101", "0201", weather)
    if weather in ("Rain", "Mud"):
        assert refused(c, "8.24", "ford cannot be used in " + weather, "5.23")
    else:
        assert c == MAJOR_FORD[weather]


def test_5_23_ford_on_minor_river_closed_in_rain_cross_as_river(tmp_path):
    m = art_map(tmp_path, ". .", hexsides={"0101/0201": ["minor_river", "ford"]})
    assert cost(m, "0101", "0201", "Light Rain") == 4      # (1 + ford 2) + 1
    assert cost(m, "0101", "0201", "Rain") == 3            # ford closed: (1 + minor river 1) + 1


@pytest.mark.parametrize("weather,expected", [("Clear", 3), ("Thaw", 6), ("Rain", None), ("Mud", None)])
def test_7_12c_supply_lines_through_fords(tmp_path, weather, expected):
    m = art_map(tmp_path, ". .", hexsides={"0101/0201": ["major_river", "ford"]})
    c = cost(m, "0101", "0201", weather, for_supply=True)
    if expected is None:
        assert refused(c, "7.12c", "5.23")
    else:
        assert c == expected


# --------------------------------------------------------------------------
# 8.24 major rivers: bridge, pontoon or ford only; 8.81 pontoon = ford cost


@pytest.mark.parametrize("weather", WEATHERS)
def test_8_24_major_river_without_crossing_is_prohibited(tmp_path, weather):
    m = art_map(tmp_path, ". .", hexsides={"0101/0201": ["major_river"]})
    for side in ("union", "confederate"):
        assert refused(cost(m, "0101", "0201", weather, side=side), "major river", "8.24")


def test_8_24_bridge_and_5_25_no_thaw_penalty_on_bridges(tmp_path):
    m = art_map(tmp_path, ". .", hexsides={"0101/0201": ["major_river", "bridge"]})
    assert cost(m, "0101", "0201", "Clear") == 1
    assert cost(m, "0101", "0201", "Thaw") == 2            # only the +1 on all terrain


@pytest.mark.parametrize("weather,expected", [("Clear", 3), ("Rain", 4), ("Thaw", 4), ("Blizzard", 6)])
def test_8_81_pontoon_costs_as_a_ford(tmp_path, weather, expected):
    m = art_map(tmp_path, ". .", hexsides={"0101/0201": ["major_river"]})
    assert cost(m, "0101", "0201", weather, side="union", pontoons=["0101/0201"]) == expected
    assert cost(m, "0101", "0201", weather, side="union", pontoons=["0101/0201"], for_supply=True) == expected


# --------------------------------------------------------------------------
# 8.24 mountains: only along a road or rail line


def test_8_24_mountain_hex_by_road_or_rail_only(tmp_path):
    m = art_map(tmp_path, ". M .\n. . .", lines=[("road", ["0101", "0201"]), ("rail", ["0201", "0301"])])
    assert refused(cost(m, "0102", "0201"), "Mountain hex 0201", "road or rail", "8.24")
    assert cost(m, "0101", "0201") == 0.5
    assert cost(m, "0301", "0201") == 0.5                   # along the rail line
    assert cost(m, "0101", "0201", "Rain") == 1.5
    # 5.28/5.29: the road pays the terrain's own cost: the stand-in rules.own_cost of terrain.yaml
    assert cost(m, "0101", "0201", "Snow") == 3
    assert cost(m, "0101", "0201", "Blizzard") == 3
    assert refused(cost(m, "0102", "0201", "Snow"), "8.24")


def test_8_24_mountain_hexside_by_road_only(tmp_path):
    m = art_map(tmp_path, ". . .", hexsides={"0101/0201": ["mountain_hexside"], "0201/0301": ["mountain_hexside"]},
                lines=[("road", ["0101", "0201"])])
    assert cost(m, "0101", "0201") == 0.5
    assert refused(cost(m, "0201", "0301"), "Mountain hexside", "road or rail", "8.24")


def test_8_24_mountain_walk_names_the_rule(tmp_path):
    m = art_map(tmp_path, ". M .")
    verdict = walk([m.parse("0201")], step_cost(m, weather="Clear", side="union"), start=m.parse("0101"),
                   rules=WalkRules(move="8.21"), hex_of=lambda h: h, name=m.label)
    assert not verdict and "8.24" in verdict.why


# --------------------------------------------------------------------------
# 8.24a Confederate ferries

FERRY = {"0101/0201": ["major_river", "ferry"]}


@pytest.mark.parametrize("weather,expected", [
    ("Clear", 4),       # 1 + 3
    ("Thaw", 8),        # (1 + 1) + 6
    ("Rain", 5),        # (1 + 1) + 3
    ("Blizzard", 5),    # 1 x 2 + 3: the fare is not doubled
])
def test_8_24a_ferry_allowed(tmp_path, weather, expected):
    m = art_map(tmp_path, "t C", hexsides=FERRY)
    assert cost(m, "0101", "0201", weather) == expected
    assert cost(m, "0201", "0101", weather) == expected


def test_8_24a_ferry_refused_to_the_union(tmp_path):
    m = art_map(tmp_path, "t t", hexsides=FERRY)
    assert refused(cost(m, "0101", "0201", side="union"), "8.24", "confederate forces only", "8.24a")


def test_8_24a_ferry_needs_a_town_or_city_on_both_banks(tmp_path):
    m = art_map(tmp_path, "t .", hexsides=FERRY)
    assert refused(cost(m, "0101", "0201"), "bank 0201 holds no town or major city", "8.24a")


def test_8_24a_no_ferry_where_the_map_does_not_mark_one(tmp_path):
    # two towns across a major river, but not a ferry hexside (e.g. in Kentucky)
    m = art_map(tmp_path, "t t", hexsides={"0101/0201": ["major_river"]})
    assert refused(cost(m, "0101", "0201"), "8.24")


@pytest.mark.parametrize("kw,words", [
    ({"enemy_occupied": {"0201"}}, ("enemy units in 0201", "8.24a")),
    ({"enemy_occupied": {"0101"}}, ("enemy units in 0101", "8.24a")),
    ({"enemy_zoc": {"0101"}}, ("0101 is in enemy ZOC", "8.24a")),
    ({"enemy_zoc": {"0201"}}, ("0201 is in enemy ZOC", "8.24a")),
    ({"blockaded": ["0101/0201"]}, ("blockade", "8.93")),
    ({"for_supply": True}, ("supply lines cannot cross", "7.12c")),
])
def test_8_24a_ferry_closed(tmp_path, kw, words):
    m = art_map(tmp_path, "t t", hexsides=FERRY)
    assert refused(cost(m, "0101", "0201", **kw), *words)


def test_8_24a_ferry_with_a_bridge_takes_the_bridge(tmp_path):
    m = art_map(tmp_path, "t t", hexsides={"0101/0201": ["major_river", "bridge", "ferry"]})
    assert cost(m, "0101", "0201") == 1
    assert cost(m, "0101", "0201", side="union") == 1


def test_8_24a_ford_or_ferry_whichever_is_cheaper(tmp_path):
    m = art_map(tmp_path, "t t", hexsides={"0101/0201": ["major_river", "ford", "ferry"]})
    assert cost(m, "0101", "0201") == 3                     # the ford (2) beats the fare (3)
    assert cost(m, "0101", "0201", "Rain") == 5             # 5.23 ford closed: the ferry, (1 + 1) + 3
    assert refused(cost(m, "0101", "0201", "Rain", side="union"), "5.23", "8.24a")


# --------------------------------------------------------------------------
# 7.12b supply lines: enemy units and enemy ZOC, with the friendly-unit exception (3.61)


def test_7_12b_supply_line_blocking(tmp_path):
    m = art_map(tmp_path, ". . .")
    assert cost(m, "0101", "0201", for_supply=True) == 1
    assert refused(cost(m, "0101", "0201", for_supply=True, enemy_occupied={"0201"}), "enemy combat units", "7.12b")
    assert refused(cost(m, "0101", "0201", for_supply=True, enemy_zoc={"0201"}), "enemy ZOC", "3.61")
    assert cost(m, "0101", "0201", for_supply=True, enemy_zoc={"0201"}, friendly_occupied={"0201"}) == 1
    # movement itself is not blocked by these (the movement rules stop a force instead)
    assert cost(m, "0101", "0201", enemy_zoc={"0201"}) == 1


# --------------------------------------------------------------------------
# the data and the edges


def test_clear_weather_equals_the_data_cost_on_the_sample_map():
    m = load_map(games_dir() / "heartland" / "maps" / "sample.yaml")
    ours = step_cost(m, weather="Clear", side="union")
    data = m.step_cost()
    n = 0
    for h in m.hexes():
        for nb in m.grid.neighbours(h):
            a, b = ours(h, nb), data(h, nb)
            assert isinstance(a, Prohibited) == isinstance(b, Prohibited), (m.label(h), m.label(nb))
            if not isinstance(a, Prohibited):
                assert a == b
            n += 1
    assert n > 500


def test_off_the_map_is_prohibited(tmp_path):
    m = art_map(tmp_path, ". .")
    c = step_cost(m, weather="Clear", side="union")(m.parse("0101"), m.parse("0101").neighbour("N"))
    assert refused(c, "off the map")


def test_unknown_weather_and_side_are_refused(tmp_path):
    m = art_map(tmp_path, ". .")
    with pytest.raises(ValueError, match="unknown weather 'Sunny'"):
        step_cost(m, weather="Sunny", side="union")
    with pytest.raises(ValueError, match="unknown side"):
        step_cost(m, weather="Clear", side="rebels")


def test_a_misspelt_weather_in_the_data_is_an_error(tmp_path):
    bad = tmp_path / "terrain.yaml"
    bad.write_text(TERRAIN.read_text().replace("times: {Thaw: 2}", "times: {Thaw: 2, Blizard: 2}"))
    m = art_map(tmp_path, ". .", terrain=bad)
    with pytest.raises(ValueError, match="'Blizard'.*did you mean 'Blizzard'"):
        step_cost(m, weather="Clear", side="union")


def test_the_shipped_terrain_file_still_loads_and_has_the_weather_tables():
    m = load_map(games_dir() / "heartland" / "maps" / "sample.yaml")
    assert m.types["hexside"]["ford"].rules["weather"]["closed_in"] == ["Rain", "Mud"]
    assert m.types["hexside"]["ferry"].rules["cost"] == {"default": 3, "Thaw": 6}
    for name in m.types["hex"]:
        assert m.types["hex"][name].rules["weather"]["add"]["Rain"] == 1
