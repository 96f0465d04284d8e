"""The Salem Church map and terrain data (games/salem_church/maps/salem-church.yaml, ../terrain.yaml).

Expected values are copied from the scenario rules (digest rules/salem-church.md
13.x-16.0 and C, the Terrain Effects Chart; the seed's TEC wins where they
differ).  The map's terrain away from the named hexes is a stand-in; the
tests check what the rules fix (the named hexes, their meaning, the TEC
numbers) and that the stand-in map keeps the scenario playable (roads joining
the entry and exit hexes, 16.0).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from hxref.geometry.los import line_of_sight
from hxref.geometry.paths import MoveGraph, MoveRules, Prohibited
from hxref.geometry.mapfile import check_map, load_map
from hxref.base.yamlio import load_data, to_plain

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "salem_church"
MAP = GAME / "maps" / "salem-church.yaml"
TERRAIN = GAME / "terrain.yaml"

# every hex the scenario names, with its meaning (rule)
NAMED = {
    "2114": "13.2 Union entry; 13.3 Formation E entry; 14.1/14.2 victory hex",
    "0107": "13.3 Formation M/A entry; 16.0 wagon exit for victory",
    "0903": "13.3 Formation A entry; 16.0 wagon exit for victory",
    "0213": "13.3 Formation E entry",
    "1013": "13.3 Formation E entry",
    "1204": "14.1/14.2 victory hex; 16.0 wagon escape",
    "1302": "14.2 victory hex; 16.0 wagon escape",
    "2407": "14.2 victory hex",
    "0609": "15.0 Salem Church, defensive position",
    "0610": "15.0 the Schoolhouse, defensive position",
}
ENTRY_HEXES = ("2114", "0107", "0903", "0213", "1013")       # 13.2, 13.3
WAGON_EXITS = ("0107", "0903", "1204", "1302")               # 16.0


@pytest.fixture(scope="module")
def m():
    return load_map(MAP)


@pytest.fixture(scope="module")
def terrain():
    return to_plain(load_data(TERRAIN))


def hexes_with(m, feature):
    return {m.label(h) for h in m.hexes() if feature in m.features(h)}


def road_graph(m):
    """Hex to hex along roads only, at the road rate: the wagon train's movement (16.0)."""
    step = m.step_cost("wagon_train", lines=["road"])

    def cost(a, b):
        if "road" not in m.lines_between(a, b):
            return Prohibited("off the road")
        return step(a, b)

    return MoveGraph(m.hexes(), MoveRules(cost))


# --------------------------------------------------------------------------
# the file


def test_map_loads_with_hxrefs_loader_and_checks_clean(m):
    assert [p.render() for p in check_map(MAP)] == []
    assert m.kind == "hex" and m.system == "salem_church" and m.id == "salem-church"
    assert m.grid.labels.name == "four-digit"


def test_map_is_marked_stand_in_and_says_what_is_from_the_scenario(m):
    assert m.stand_in is True
    note = m.note.lower()
    for word in ("scenario", "stand-in", "invented", "0609", "0610", "2114"):
        assert word in note, word


def test_map_size_holds_every_named_hex(m):
    # columns 01-24 and rows 01-14: the highest labels the scenario names are 2407 and 2114
    assert tuple(m.grid.columns) == (1, 24) and tuple(m.grid.rows) == (1, 14)


# --------------------------------------------------------------------------
# the hexes the scenario names


@pytest.mark.parametrize("label", sorted(NAMED))
def test_every_named_hex_is_on_the_map_and_is_a_named_place(m, label):
    h = m.parse(label)
    assert h in m, f"{label}: {NAMED[label]}"
    assert h in m.places.values(), f"{label} ({NAMED[label]}) has a name under places:"


def test_15_0_salem_church_0609_and_schoolhouse_0610_are_defensive_positions(m):
    # 15.0 and TEC "Defensive position": exactly these two hexes
    assert m.places["Salem Church"] == m.parse("0609")
    assert m.places["Schoolhouse"] == m.parse("0610")
    assert hexes_with(m, "defensive_position") == {"0609", "0610"}


def test_13_3_column_16_and_the_wilcox_area_west_of_it(m):
    # 13.3 Wilcox/M sets up in any hex west of the 16xx column: columns 01-15 exist, and column 16 does
    cols = {m.grid.labels.to_offset(h)[0] for h in m.hexes()}
    assert set(range(1, 17)) <= cols
    assert {m.label(h) for h in m.hexes() if m.label(h).startswith("16")} == {f"16{r:02d}" for r in range(1, 15)}


@pytest.mark.parametrize("label", ENTRY_HEXES + ("1204", "1302", "2407"))
def test_entry_exit_and_victory_hexes_are_on_roads(m, label):
    # stand-in map choice: every entry hex (13.2, 13.3) and wagon exit (16.0) lies on a road
    h = m.parse(label)
    assert any(h in ln.hexes for ln in m.lines if ln.type == "road"), label


def test_wagon_exits_are_not_heavy_woods_and_no_road_runs_through_heavy_woods(m):
    # TEC: heavy woods is infantry only; a road through it would need standard rule 4.3 (missing):
    # the stand-in map keeps roads out of heavy woods so the wagon train (roads only, 16.0) is never in question
    for ln in m.lines:
        for h in ln.hexes:
            assert m.terrain(h).name != "heavy_woods", (ln.name, m.label(h))


@pytest.mark.parametrize("exit_hex", WAGON_EXITS)
def test_16_0_roads_connect_2114_to_every_wagon_exit(m, exit_hex):
    # 16.0 the train moves only along roads; it exits at 0107/0903 (victory) or 1204/1302 (escape); it enters at 2114 (13.2)
    g = road_graph(m)
    reach = g.search(m.parse("2114"))
    path = reach.path_to(m.parse(exit_hex))
    assert path is not None, f"no road from 2114 to {exit_hex}"
    assert all(m.terrain(h).name != "heavy_woods" for h in path)


def test_roads_connect_2114_to_0107_and_0903_along_the_turnpike_through_salem_church(m):
    # the Plank Road / Turnpike runs east-west from 2114 (Fredericksburg side) through Salem Church (0609) to 0107
    pike = [ln for ln in m.lines if ln.type == "road" and "Turnpike" in ln.name]
    assert len(pike) == 1
    labels = [m.label(h) for h in pike[0].hexes]
    assert {labels[0], labels[-1]} == {"2114", "0107"}
    assert "0609" in labels
    g = road_graph(m)
    for end in ("0107", "0903"):
        assert g.search(m.parse("2114")).cost(m.parse(end)) is not None, end


@pytest.mark.parametrize("label", ("0213", "1013", "2114"))
def test_13_3_formation_e_entries_reach_salem_church_by_road(m, label):
    g = road_graph(m)
    assert g.search(m.parse(label)).cost(m.parse("0609")) is not None


# --------------------------------------------------------------------------
# the Terrain Effects Chart (digest C; seed 地形効果表)


def test_tec_every_type_present_and_nothing_the_tec_does_not_list(m):
    # TEC rows: clear, hill, road, defensive position, historic site, light woods, heavy woods -- no streams or rivers
    assert set(m.types["hex"]) == {"clear", "light_woods", "heavy_woods"}
    assert set(m.types["features"]) == {"hill", "defensive_position", "historic_site"}
    assert set(m.types["lines"]) == {"road"}
    assert m.types["hexside"] == {}


def test_tec_every_type_has_its_rule_reference(m):
    for group in ("hex", "features", "lines"):
        for name, tt in m.types[group].items():
            assert str(tt.rules.get("rule", "")).startswith(("TEC", "15.0")), name


def test_tec_clear_1_mp_no_combat_effect(m):
    c = m.types["hex"]["clear"]
    assert c.cost("infantry") == c.cost("artillery") == c.cost("leader") == c.cost("wagon_train") == 1
    assert c.rules["combat"] == "none"


def test_tec_light_woods_1_mp_attacker_from_clear_halved_blocks_artillery_los(m):
    lw = m.types["hex"]["light_woods"]
    assert lw.cost("infantry") == lw.cost("artillery") == 1
    assert lw.rules["attacker_cf"] == {"halved": True, "when": "attacking from a clear hex", "rounding": {"value": "down", "stand_in": True}}
    assert lw.rules["los"] == {"blocks": ["artillery"], "unless": "the artillery is on a hill"}
    assert lw.height == 0, "it blocks only artillery: the rules module decides, not the height"


def test_tec_heavy_woods_infantry_only_stop_no_zoc_halved_blocks_los(m):
    hw = m.types["hex"]["heavy_woods"]
    assert hw.cost("infantry") == 1
    for cls in ("artillery", "leader", "wagon_train"):
        assert hw.cost(cls) is None, cls
    r = hw.rules
    assert r["stop_on_entry"] is True
    assert r["attack_into"] == ["infantry"]
    assert r["cf_halved"] == {"attacking_into": True, "attacking_out_of": True, "rounding": {"value": "down", "stand_in": True}}
    assert r["zoc"] == {"extends_out_of": False, "extends_into": False}
    assert r["los"] == {"blocks_into": True, "blocks_through": True}
    assert r["entry_cost"]["stand_in"] is True, "the TEC gives no MP figure for heavy woods"


def test_tec_hill_same_as_the_hex_terrain_blocks_los_unless_both_on_hills(m):
    hill = m.types["features"]["hill"]
    assert hill.cost("infantry") == 0 and hill.rules["combat"] == "as the hex's terrain"
    assert hill.rules["los"] == {"blocks": True, "unless": "observer and target both on hills"}
    # hills are elevation 1, everything else elevation 0, so hxref's LOS framework applies the rule
    for h in m.hexes():
        assert m.elevation(h) == (1 if "hill" in m.features(h) else 0), m.label(h)


def test_tec_road_1_mp_along_the_road_rule_4_3(m):
    road = m.types["lines"]["road"]
    assert road.cost("infantry") == road.cost("wagon_train") == 1
    assert "4.3" in road.rules["rule"]
    assert road.rules["combat"] == "none; use the hex's other terrain"
    assert road.rules["march_movement"]["stand_in"] is True


def test_15_0_defensive_position_plus_2_infantry_defending(m):
    dp = m.types["features"]["defensive_position"]
    assert dp.cost("infantry") == 0
    assert dp.rules["defence_cf_add"] == 2
    assert dp.rules["unit_types"] == ["infantry"]
    assert dp.rules["when"] == "defending"


def test_tec_historic_site_no_effect(m):
    hs = m.types["features"]["historic_site"]
    assert hs.cost("infantry") == 0 and hs.rules["effect"] == "none"


def test_terrain_file_marks_what_the_tec_does_not_give(terrain):
    # every stand-in in the TEC data sits in a mapping with stand_in: true
    found = []

    def walk(node, path):
        if isinstance(node, dict):
            if node.get("stand_in") is True:
                found.append("/".join(path))
            for k, v in node.items():
                walk(v, path + [str(k)])

    walk(terrain, [])
    assert "hex/heavy_woods/rules/entry_cost" in found
    assert "lines/road/rules/march_movement" in found
    assert "hex/heavy_woods/rules/cf_halved/rounding" in found


def test_data_step_costs(m):
    cost = m.step_cost("infantry")
    art = m.step_cost("artillery")
    # a road step costs 1 (TEC Road); entering clear or light woods costs 1; heavy woods: infantry only
    a, b = m.parse("1209"), m.parse("1109")
    assert "road" in m.lines_between(a, b) and cost(a, b) == 1
    # off-road: 1105 (hill) -> 1005 (light woods) 1; 0509 -> 0508 (light woods, hill) 1; 1204 -> 1104 (heavy woods)
    assert cost(m.parse("1105"), m.parse("1005")) == 1 and m.terrain(m.parse("1005")).name == "light_woods"
    assert cost(m.parse("0509"), m.parse("0508")) == 1
    assert cost(m.parse("1204"), m.parse("1104")) == 1
    assert isinstance(art(m.parse("1204"), m.parse("1104")), Prohibited)
    assert isinstance(m.step_cost("leader")(m.parse("1204"), m.parse("1104")), Prohibited)


# --------------------------------------------------------------------------
# LOS with hxref's framework: hills (elevation 1) and heavy woods (height 2) as the TEC says


def los(m, a, b):
    return line_of_sight(m.sight_terrain(), m.parse(a), m.parse(b)).visible


def test_tec_hill_blocks_los_between_low_hexes(m):
    # 0606 -> 0612 straight down column 06 crosses the Salem Church ridge (0608-0611, hills)
    for x in ("0606", "0612"):
        assert "hill" not in m.features(m.parse(x))
    assert {"0608", "0609", "0610", "0611"} <= hexes_with(m, "hill")
    assert not los(m, "0606", "0612")
    assert los(m, "0606", "0607"), "light woods (0607) is no obstacle to the height-based framework"


def test_tec_hill_does_not_block_when_both_on_hills(m):
    # 0508 -> 0510 across 0509: all three on the ridge
    for x in ("0508", "0509", "0510"):
        assert "hill" in m.features(m.parse(x))
    assert los(m, "0508", "0510")


def test_tec_heavy_woods_blocks_los_through_even_between_hills(m):
    # 1103 -> 1105 across 1104, a heavy-woods ravine on the Banks' Ford heights
    a, mid, b = "1103", "1104", "1105"
    assert "hill" in m.features(m.parse(a)) and "hill" in m.features(m.parse(b))
    assert m.terrain(m.parse(mid)).name == "heavy_woods"
    assert not los(m, a, b)
