"""KGP Fire Lanes across slopes (2.31, 2.42): hxref/systems/kgp/fire_lanes.py, through the library and
``hxref kgp tem --fire-lane``.

The 2.42 example is replayed on the shipped map of the 2.3 figure's position,
games/kgp/maps/figure_2_3.yaml: squads A (I15) and B (I14) have MGs; B is
Up-Slope across I14-J13 and I13-I14.  One deviation, said in the map: there
B's LOS to L13 crosses I14-J13, so L13 would qualify where the seed says it
does not; L14 and the Snap Shot on L13-L14 come out as printed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.base.errors import InvalidInput
from hxref.geometry.mapfile import load_map
from hxref.systems.kgp.fire_lanes import fire_lane_drm
from hxref.systems.kgp.slopes import slope_tem
from hxref.systems.kgp.terrain import TerrainChart

CHART = TerrainChart.load(Charts.today("kgp"))     # today's chart: no game's

ROOT = Path(__file__).resolve().parents[2]
FIGURE = ROOT / "games" / "kgp" / "maps" / "figure_2_3.yaml"


@pytest.fixture(scope="module")
def m():
    return load_map(FIGURE)


def test_2_42_the_DRM_is_chart_data():
    c = CHART
    assert c.value("fire_lane.slope_drm") == 1 and c.entry("fire_lane.slope_drm").rule == "2.42"
    assert c.value("fire_lane.slope_levels") == c.value("slope.up_slope_levels")


@pytest.mark.parametrize("target", ["StI13", "StJ13", "StK13", "StJ14", "StK14"])
def test_2_42_example_1_A_is_not_up_slope(m, target):
    r = fire_lane_drm(m, "StI15", target, chart=CHART)
    assert not r.eligible and r.drm == 0 and not r.no_effect
    assert any(not c.ok and "not Up-Slope" in c.text for c in r.checks)


@pytest.mark.parametrize("target", ["StJ13", "StJ14"])
def test_2_42_example_2_adjacent_to_B_no_DRM(m, target):
    r = fire_lane_drm(m, "StI14", target, chart=CHART)
    assert not r.eligible and any(not c.ok and "adjacent" in c.text for c in r.checks)


def test_2_42_example_2_K14_claims_both_slope_TEM_and_DRM(m):
    r = fire_lane_drm(m, "StI14", "StK14", chart=CHART)
    assert r.eligible and r.drm == 1 and r.rule == "2.42" and r.targets == ("StK14",)
    assert slope_tem(m, "StK14", "StI14", chart=CHART).eligible


def test_2_42_example_3_L14_and_the_snap_shot_on_L13_L14_no_DRM(m):
    r = fire_lane_drm(m, "StI14", "StL14", chart=CHART)
    assert not r.eligible and any(not c.ok and "not Up-Slope" in c.text for c in r.checks)
    snap = fire_lane_drm(m, "StI14", snap_shot="StL13-L14", chart=CHART)
    assert not snap.eligible and snap.drm == 0 and snap.snap_shot == "StL13-L14"
    assert snap.targets == ("StL13", "StL14") and "A9.221" in snap.checks[-1].text
    assert fire_lane_drm(m, "StI14", "StL13", chart=CHART).eligible             # the map's deviation: one hex alone qualifies


def test_2_42_example_4_the_lane_to_I12_only_I12(m):
    assert fire_lane_drm(m, "StI14", "StI12", chart=CHART).eligible
    assert not fire_lane_drm(m, "StI14", "StI13", chart=CHART).eligible         # adjacent


def test_2_42_a_snap_shot_where_both_hexes_qualify(m):
    r = fire_lane_drm(m, "StI14", snap_shot="StI11-I12", chart=CHART)
    assert r.eligible and r.drm == 1
    assert not fire_lane_drm(m, "StI14", snap_shot="StI12-I13", chart=CHART).eligible     # I13 is adjacent


def test_2_31_2_42_no_effect_at_another_base_level(m):
    r = fire_lane_drm(m, "StI14", "StK11", chart=CHART)                          # K11 is at base level 2; the LOF crosses I14-J13
    assert r.no_effect and not r.eligible and r.drm == 0 and "2.31" in r.why


def test_2_42_only_infantry(m):
    assert not fire_lane_drm(m, "StI14", "StK14", target_unit="vehicle", chart=CHART).eligible


def test_2_42_bad_questions(m):
    with pytest.raises(InvalidInput, match="not both"):
        fire_lane_drm(m, "StI14", "StK14", snap_shot="StL13-L14", chart=CHART)
    with pytest.raises(InvalidInput, match="firer's hex"):
        fire_lane_drm(m, "StI14", snap_shot="StI14-J13", chart=CHART)


# --------------------------------------------------------------------------
# hxref kgp tem --fire-lane


def test_cli_tem_fire_lane_K14(cli):
    out = cli("kgp", "tem", str(FIGURE), "StK14", "StI14", "--fire-lane").output
    assert out.startswith("StK14 fired on from StI14: +1 Slope TEM (2.41)\n")
    assert "StK14, Fire Lane from StI14: +1 Fire-Lane Slope DRM (2.42)\n" in out
    d = json.loads(cli("kgp", "tem", str(FIGURE), "StK14", "StI14", "--fire-lane", "--json").output)
    assert d["slope_tem"]["eligible"] and d["fire_lane"]["eligible"] and d["fire_lane"]["drm"] == 1


def test_cli_tem_fire_lane_snap_shot_and_no_effect(cli):
    out = cli("kgp", "tem", str(FIGURE), "StL13-L14", "StI14", "--fire-lane").output
    assert out.startswith("Snap Shot on StL13-L14, Fire Lane from StI14: no Fire-Lane Slope DRM (2.42)\n")
    d = json.loads(cli("kgp", "tem", str(FIGURE), "StK11", "StI14", "--fire-lane", "--json").output)
    assert d["fire_lane"]["no_effect"] and not d["fire_lane"]["eligible"]


def test_cli_tem_fire_lane_has_one_firer(cli):
    err = cli.fails("kgp", "tem", str(FIGURE), "StK14", "StI14", "StH12", "--fire-lane")
    assert "one firer" in err and "2.42" in err and "figure_2_3.yaml" in err


def test_cli_help_names_the_seed_terms(cli):
    mf = cli("kgp", "mf", "--help").output
    assert "渇水" in mf and "low" in mf and "乾燥" in mf
    tem = cli("kgp", "tem", "--help").output
    assert "火線" in tem and "斜面上方" in tem
    assert "丘陵斜面" in cli("kgp", "los", "--help").output
