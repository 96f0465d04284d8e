"""KGP village and stream terrain (4.13, 4.2-4.24, 5.11, 5.12, 5.2, 5.21, 5.3): what the case book
(games/kgp/cases/village_terrain.yaml) cannot say -- the shipped files carry the terrain, a crafted map
is refused with one line and never a traceback, and the text a player reads.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.geometry.mapfile import load_map
from hxref.systems.kgp.narrow_streets import tca_change, turn_around, vehicle_bypass
from hxref.systems.kgp.terrain import Location, TerrainChart
from hxref.systems.kgp.terrain_locations import building_levels, check_location
from hxref.systems.kgp.terrain_streams import stream_bottom_tem

CHART = TerrainChart.load(Charts.today("kgp"))     # today's chart: no game's

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = str(ROOT / "games" / "kgp" / "maps" / "village.yaml")
TERRAIN = ROOT / "games" / "kgp" / "terrain.yaml"


@pytest.fixture(scope="module")
def village():
    return load_map(VILLAGE)


def test_the_shipped_terrain_types_carry_streams_streets_steeples_culverts_and_the_house(village):
    types = village.types
    assert {"stream", "culvert", "steeple"} <= set(types["features"])
    assert {"stream", "narrow_street", "narrow_street_unpaved"} <= set(types["hexside"])
    assert types["hex"]["two_story_house"].height == 1.5


def test_building_levels_count_the_steeple(village):
    assert building_levels(village, village.parse("StJ19")) == 3      # ground, 1st, steeple
    assert building_levels(village, village.parse("StM15")) == 2      # ground, steeple (as ChAA10)
    assert building_levels(village, village.parse("StK20")) == 2      # the two-story house
    assert building_levels(village, village.parse("StO17")) == 2
    assert building_levels(village, village.parse("StN15")) is None   # open ground: not a building


def test_a_level_the_hex_does_not_have_is_refused_naming_its_rule(village):
    from hxref.base.errors import InvalidInput

    with pytest.raises(InvalidInput, match=r"no building level 2.*\(5\.3\)"):
        check_location(village, Location("StK20", 2))
    with pytest.raises(InvalidInput, match=r"no culvert \(4\.2\)"):
        check_location(village, Location("StQ16", culvert=True))
    check_location(village, Location("StJ19", 2))


def test_the_vbm_and_turn_functions_refuse_what_is_no_vehicle(village):
    from hxref.base.errors import InvalidInput

    with pytest.raises(InvalidInput, match="VBM is for vehicles"):
        vehicle_bypass(village, "squad", "StN17", "StO17", "StN17-O17", chart=CHART)
    with pytest.raises(InvalidInput, match="has no VCA"):
        turn_around(village, "squad", "StN17-O17", 4, chart=CHART)
    with pytest.raises(InvalidInput, match="not a hexside of StO18"):
        vehicle_bypass(village, "vehicle", "StN17", "StO18", "StN17-O17", chart=CHART)


def test_a_tca_change_within_the_vca_needs_no_dr(village):
    assert not tca_change(village, "StN17-O17", 75, outside_vca=False, chart=CHART).dr_needed
    ll_bu = tca_change(village, "StN17-O17", 88, barrel="LL", buttoned_up=True, chart=CHART)
    assert ll_bu.drm == 3 and ll_bu.highest_dr == 0        # a final 3 cannot be made


def test_a_fire_group_puts_the_bottom_in_open_ground_only_when_every_lof_does(village):
    along = stream_bottom_tem(village, "StQ16", ["StQ14"], chart=CHART)
    mixed = stream_bottom_tem(village, "StQ16", ["StQ14", "StP17"], chart=CHART)
    assert along.open_ground and not mixed.open_ground and mixed.tem == 1


# --- the command line: text, and crafted maps -------------------------------------------------

CRAFTED = """
map: kgp-crafted
title: crafted
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [A, D], rows: [1, 4], terrain: open_ground, elevation: 0}}
terrain:
  hex:
    open_ground: {{colour: "#e3dcae", label: Open ground, move: 1}}
    tower: {{colour: "#9a8f86", label: Tower, move: 2, height: 1.5, rules: {{levels: {levels}}}}}
  features:
    steeple: {{colour: "#ffffff", label: Steeple, move: 0}}
  hexside: {{}}
  lines: {{}}
hexes:
  StB2: {{terrain: tower}}
  StC2: {{terrain: open_ground, features: [steeple]}}
"""


@pytest.mark.parametrize("levels", ['"two"', "-1", "true", "1.5", "[1, 2]"])
def test_a_crafted_building_level_count_is_one_line_naming_the_map(cli, levels):
    (cli.folder / "crafted.yaml").write_text(CRAFTED.format(levels=levels))
    err = cli.fails("kgp", "loc", "crafted.yaml", "StB2", "--level", "1")
    assert "crafted.yaml" in err and "rules.levels" in err


def test_a_steeple_on_no_building_is_refused_naming_5_2(cli):
    (cli.folder / "crafted.yaml").write_text(CRAFTED.format(levels=2))
    err = cli.fails("kgp", "los", "crafted.yaml", "StC2", "StA1", "--from-level", "1")
    assert "crafted.yaml" in err and "(5.2)" in err


@pytest.mark.parametrize("args, says", [
    (("turn", VILLAGE, "StN17-O17", "--unit", "motorcycle", "--printed-mp", "nan"), "--printed-mp nan"),
    (("turn", VILLAGE, "StN17-O17", "--unit", "motorcycle", "--printed-mp", "0"), "more than 0"),
    (("turret", VILLAGE, "StN17-O17", "--ma", "75", "--dr", "7"), "a dr is 1 to 6"),
    (("mf", VILLAGE, "StN17", "StO17", "--unit", "squad", "--bypass", "StN17-O17", "--vca-changes", "1"),
     "has no VCA"),
    (("mf", VILLAGE, "StN17", "StO17", "--unit", "vehicle", "--vca-changes", "1"), "--bypass"),
    (("tem", VILLAGE, "StQ14", "StQ15", "--stream-bottom"), "4.13"),
    (("tem", VILLAGE, "StP17", "StN15", "--culvert"), "no culvert"),
    (("loc", VILLAGE, "StJ19", "--level", "3"), "steeple"),
])
def test_bad_questions_exit_2_with_one_line(cli, args, says):
    assert says in cli.fails("kgp", *args)


def test_the_steeple_line_of_sight_reads_as_a_player_reads_it(cli):
    out = cli("kgp", "los", VILLAGE, "StJ19", "StM21", "--from-level", "2").output
    assert out.splitlines()[0] == "StJ19 -> StM21: LOS clear (2.3)"
    assert "2 steeple, above the building's highest level (5.2)" in out
    blocked = cli("kgp", "los", VILLAGE, "StJ19", "StM21", "--from-level", "1").output
    assert blocked.startswith("StJ19 -> StM21: LOS blocked by StK20") and "(2.3; 5.3)" in blocked


def test_the_narrow_street_answers_read_as_a_player_reads_them(cli):
    out = cli("kgp", "mf", VILLAGE, "StN17", "StO17", "--unit", "vehicle", "--bypass", "StN17-O17",
              "--vca-changes", "1").output
    assert out.splitlines()[0] == "StN17 -> StO17 (vehicle, VBM along StN17-O17): 2 MP"
    assert "1 VCA change (D2.33), not halved (5.11)" in out
    turret = cli("kgp", "turret", VILLAGE, "StN17-O17", "--ma", "88", "--barrel", "LL", "--bu").output
    assert turret.startswith("StN17-O17: TCA-change impossible (final dr 3 or less, drm +3) (5.12)")
