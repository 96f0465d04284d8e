"""KGP terrain calculators (the digest's terrain rules, sections 1-5): hxref/systems/kgp/terrain.py, terrain_costs.py,
slopes.py and narrow_streets.py.

Every worked example of the KGP special rules on terrain (digest
rules/kgp.md, sections 1-5 and 12) is a test here, named by its rule; each
rule also has a legal and an illegal or edge case.

The rules' figures are not in the seed, so the examples are replayed on
small maps built below, each saying which figure it stands in for, and on the
shipped sample map (games/kgp/maps/sample.yaml).
"""
from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.base.errors import InvalidInput
from hxref.geometry.mapfile import load_map
from hxref.systems.kgp.narrow_streets import bypass_minefields, mines_must_be_revealed, street_hexes
from hxref.systems.kgp.slopes import down_slope_hexsides, is_up_slope, los_height, sight_adjustments, slope_tem
from hxref.systems.kgp.terrain import Location, NotCovered, TerrainChart, Unit, mf_text
from hxref.systems.kgp.terrain_costs import mf_cost, temporary_breach, vehicle_entry, wire_drms

CHARTS = Charts.today("kgp")     # the data folder's files as they are today: no game's
CHART = TerrainChart.load(CHARTS)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "games" / "kgp" / "maps" / "sample.yaml"

# Terrain types for the test maps: the sample's types plus those the examples need
# (graveyard, brush, orchard, streams, narrow streets).  COT as in games/kgp/terrain.yaml.
TERRAIN = """
terrain:
  hex:
    open_ground:    {colour: "#e3dcae", label: Open ground, move: 1}
    woods:          {colour: "#a9c98a", label: Woods, move: 2, height: 1}
    pine_woods:     {colour: "#3f7a3a", label: Pine woods, move: {default: 1.5, cavalry: 3}, height: 2}
    brush:          {colour: "#b9c98a", label: Brush, move: 2}
    orchard:        {colour: "#cfe0a0", label: Orchard, move: 1}
    graveyard:      {colour: "#c0c0b0", label: Graveyard, move: 2}
    stone_building: {colour: "#9a8f86", label: Stone building, move: 2, height: 1.5}
  features:
    stream:         {colour: "#3a78c8", label: Stream, move: 0}
  hexside:
    slope:          {colour: "#8a5a2a", label: Slope, move: 0, move_out: 0.5, move_in: 0}
    crest_slope:    {colour: "#6b3f14", label: Crest-line slope, move: 0, move_out: 0.5, move_in: 0}
    barbed_wire:    {colour: "#444444", label: Barbed-wire fence, move: 1}
    wall:           {colour: "#5f5f5f", label: Wall, move: 1, height: 0.5}
    stream:         {colour: "#3a78c8", label: Stream, move: 0}
    narrow_street:  {colour: "#a0784a", label: Narrow street (paved), move: 0}
    narrow_street_unpaved: {colour: "#b0885a", label: Narrow street (unpaved), move: 0}
  lines:
    road:           {colour: "#a0784a", label: Road, move: 1}
"""

# Stands in for the 2.3 figure (not in the seed).  Everything is on a level-3
# hilltop, as squads A and B are.  Squad A moves from I15; B is in I14, E in
# K14, F in L13.  The slope hexsides are chosen so that the printed examples
# hold: B goes down into J13; E's hex K14 has two non-connected Down-Slope
# hexsides (K13-K14, J14-K14) that fire from B, J12 and H14 crosses and fire
# from H12 and I12 does not; K13-L13 makes F Down-Slope.
FIGURE_2_3 = """
map: kgp-figure-2-3
title: After the KGP 2.3 figure (reconstructed for tests)
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [F, M], rows: [7, 16], terrain: open_ground, elevation: 3}}
{terrain}
hexes:
  StH14: graveyard
  StJ14: {{terrain: open_ground, elevation: {j14}}}
{hexes}
hexsides:
  StI15-J14: {{features: [slope, barbed_wire], drawn_in: StI15}}
  StI15-H14: {{features: [slope], drawn_in: StI15}}
  StI14-J13: {{features: [slope], drawn_in: StJ13}}
  StK13-K14: {{features: [slope], drawn_in: StK14}}
  StJ14-K14: {{features: [slope], drawn_in: StK14}}
  StK13-L13: {{features: [slope], drawn_in: StL13}}
  StH12-I13: {{features: [slope], drawn_in: StI13}}
  StL10-L11: {{features: [slope], drawn_in: StL11}}
  {l11}
  StM8-M9:   {{features: [crest_slope], drawn_in: StM9}}
"""

# Stands in for the 5.141 illustration (village with narrow streets).
VILLAGE = """
map: kgp-village
title: After the KGP 5.141 illustration (reconstructed for tests)
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [M, P], rows: [15, 20], terrain: open_ground, elevation: 0}}
{terrain}
hexes:
  StO17: {o17}
  StO18: {o18}
  StO19: stone_building
  StM16: woods
hexsides:
  StN17-O17: [narrow_street]
  StN17-O18: [narrow_street]
  StO17-O18: [narrow_street]
  StO18-N18: [narrow_street_unpaved]
lines:
  - {{type: road, name: the street N17-O17 as a road, hexes: [StN17, StO17]}}
  - {{type: road, name: woods road, hexes: [StM15, StM16]}}
"""

# Stream-hex terrain (4.1): a stream down column M; mixed stream hexes M5-M8.
STREAMS = """
map: kgp-streams
title: Stream-hex terrain (KGP 4.1; for tests)
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [K, N], rows: [3, 10], terrain: open_ground, elevation: 0}}
{terrain}
hexes:
  StM5: {{terrain: pine_woods, features: [stream]}}
  StM6: {{terrain: woods, features: [stream]}}
  StM7: {{terrain: brush, features: [stream]}}
  StM8: {{terrain: orchard, features: [stream]}}
  StM9: {{terrain: open_ground, features: [stream]}}
hexsides:
  StM4-M5: [stream]
  StM5-M6: [stream]
  StM6-M7: [stream]
  StM7-M8: [stream]
  StM8-M9: [stream]
"""


def _write(tmp_path, name, text):
    p = tmp_path / f"{name}.yaml"
    p.write_text(text)
    return load_map(p)


@pytest.fixture
def figure(tmp_path):
    def make(j14=3, hexes="", l11="StK11-L11: {features: [slope], drawn_in: StL11}"):
        return _write(tmp_path, f"figure-{j14}-{abs(hash((hexes, l11)))}", FIGURE_2_3.format(
            terrain=TERRAIN, j14=j14, hexes=hexes, l11=l11))
    return make


@pytest.fixture
def village(tmp_path):
    def make(o17="stone_building", o18="open_ground"):
        return _write(tmp_path, f"village-{abs(hash((o17, o18)))}", VILLAGE.format(terrain=TERRAIN, o17=o17, o18=o18))
    return make


@pytest.fixture(scope="module")
def sample():
    return load_map(SAMPLE)


@pytest.fixture
def streams(tmp_path):
    return _write(tmp_path, "streams", STREAMS.format(terrain=TERRAIN))


def parts(cost):
    return [(p.value, p.rule) for p in cost.parts]


# --------------------------------------------------------------------------
# 2.51 MF cost: the printed example (2.3 figure) and the sample map


def test_2_51_squad_A_enters_J14_over_wire_and_up_a_slope_2_half_MF(figure):
    c = mf_cost(figure(), "squad", "StI15", "StJ14", chart=CHART)
    assert c.legal and c.total == F(5, 2)
    assert parts(c) == [(1, "ASL B, not in the seed"), (1, "3.2"), (F(1, 2), "2.51")]
    assert c.why.startswith("StI15 -> StJ14: 2 1/2 MF = 1 Open ground COT")
    assert "1 barbed wire" in c.why and "1/2 climbing a slope" in c.why
    assert {"2.51", "3.2"} <= set(c.rules)


def test_2_51_the_same_move_crossing_a_crest_line_too_3_half_MF(figure):
    c = mf_cost(figure(j14=4), "squad", "StI15", "StJ14", chart=CHART)
    assert c.total == F(7, 2)
    assert [p.value for p in c.parts] == [2, 1, F(1, 2)]   # 2 [Open Ground COT x2] + 1 [wire] + 1/2 [slope]
    assert "x2" in c.parts[0].reason and "2.51 example (ASL B10.4)" in c.parts[0].rule


def test_2_51_the_H14_graveyard_2_half_MF(figure):
    c = mf_cost(figure(), "squad", "StI15", "StH14", chart=CHART)
    assert c.total == F(5, 2)
    assert [p.value for p in c.parts] == [2, F(1, 2)]      # graveyard COT 2 (stand-in) + climbing 1/2
    assert c.parts[0].stand_in and not c.parts[1].stand_in


def test_2_51_squad_B_goes_down_into_J13_1_MF(figure):
    c = mf_cost(figure(), "squad", "StI14", "StJ13", chart=CHART)
    assert c.total == 1 and parts(c) == [(1, "ASL B, not in the seed")]
    assert any("going down a slope costs nothing extra (2.51)" in n for n in c.notes)


def test_2_51_replayed_on_the_sample_map(sample):
    # J14 behind wire and a slope drawn in J15: the printed 2 1/2 MF
    assert mf_cost(sample, "squad", "J15", "J14", chart=CHART).total == F(5, 2)
    # the crest-line variant placed at G10-H10 (H10 is one level higher): 3 1/2 MF
    assert mf_cost(sample, "squad", "StG10", "StH10", chart=CHART).total == F(7, 2)
    # back out of J14: the wire again, but going down the slope is free
    assert mf_cost(sample, "squad", "J14", "J15", chart=CHART).total == 2


def test_2_1_the_StG9_F8_slope(sample):
    # hachures drawn in F8: F8 -> G9 climbs the slope and a level (G9 is level 1)
    up = mf_cost(sample, "squad", "StF8", "StG9", chart=CHART)
    assert up.total == F(5, 2) and [p.value for p in up.parts] == [2, F(1, 2)]
    down = mf_cost(sample, "squad", "StG9", "StF8", chart=CHART)
    assert down.total == 1


def test_2_51_cavalry_and_wagons_pay_the_half_too(figure):
    assert mf_cost(figure(), "cavalry", "StI15", "StH14", chart=CHART).total == F(5, 2)
    assert mf_cost(figure(), "wagon", "StI15", "StH14", chart=CHART).total == F(5, 2)


def test_2_51_skis_get_a_half_MF_bonus_per_slope_hexside_descended(figure):
    skier = Unit("squad", skis=True)
    down = mf_cost(figure(), skier, "StI14", "StJ13", chart=CHART)
    assert down.total == 1 and down.bonus == F(1, 2) and "+1/2 MF bonus" in down.why
    up = mf_cost(figure(), skier, "StI15", "StH14", chart=CHART)
    assert up.bonus == 0 and up.total == F(5, 2)


def test_2_52_units_expending_MP_pay_1_MP_to_climb(sample):
    v = vehicle_entry(sample, Unit("vehicle"), "StF8", "StG9", chart=CHART)
    assert v.legal and v.extra_mp == 1 and [(p.value, p.rule) for p in v.parts] == [(1, "2.52")]
    assert vehicle_entry(sample, Unit("vehicle"), "StG9", "StF8", chart=CHART).extra_mp == 0
    assert "not in the seed" in v.why        # the vehicle COT itself is ASL


def test_2_53_crest_line_slopes_bar_vehicles_and_cavalry_charges(sample):
    # K11 (level 1) - K12 (level 0) is a crest-line slope drawn in K12
    assert mf_cost(sample, "squad", "K12", "K11", chart=CHART).total == F(5, 2)      # 2 x 1 + 1/2
    assert mf_cost(sample, "cavalry", "K12", "K11", chart=CHART).legal
    charge = mf_cost(sample, "cavalry", "K12", "K11", charging=True, chart=CHART)
    assert not charge.legal and charge.total is None and charge.rule == "2.53"
    v = vehicle_entry(sample, Unit("vehicle"), "K11", "K12", chart=CHART)
    assert not v.legal and v.rule == "2.53" and "crest-line slope" in v.why


def test_road_rate_and_crossing_a_slope_along_a_road(sample):
    # the Stoumont road F9-G9 climbs a level: the road rate doubled (B3.4 and B10.4 are ASL, stand-ins)
    c = mf_cost(sample, "squad", "StF9", "StG9", chart=CHART)
    assert c.total == 2 and "road" in c.parts[0].reason


# --------------------------------------------------------------------------
# 1.3 Pine Woods


def test_1_3_pine_woods_infantry_1_half_cavalry_3(sample):
    c = mf_cost(sample, "squad", "StK16", "StK15", chart=CHART)
    assert c.total == F(3, 2) and parts(c) == [(F(3, 2), "1.3")] and not c.parts[0].stand_in
    assert mf_cost(sample, "cavalry", "StK16", "StK15", chart=CHART).total == 3
    assert mf_cost(sample, "crew", "StG14", "StG13", chart=CHART).total == F(3, 2)


def test_1_3_pine_woods_up_a_level_doubles(sample):
    # J12 (level 1) -> J11 (pine woods, level 2)
    assert mf_cost(sample, "squad", "StJ12", "StJ11", chart=CHART).total == 3


def test_the_sample_terrain_agrees_with_the_rules(sample):
    pine = sample.types["hex"]["pine_woods"]
    assert pine.cost("infantry") == 1.5 and pine.cost("cavalry") == 3          # 1.3
    chart = CHART
    assert sample.types["hexside"]["slope"].cost(None, "move_out") == chart.value("slope.climb_mf")     # 2.51
    assert sample.types["hexside"]["barbed_wire"].cost(None) == chart.value("barbed_wire.infantry_mf")  # 3.2


# --------------------------------------------------------------------------
# 3.2 barbed wire: MF


@pytest.mark.parametrize("unit, kw, total", [
    ("squad", {}, 2),                                   # 1 MF + COT
    ("half_squad", {}, 2),
    ("cavalry", {}, 3),                                 # 2 MF + COT
    ("squad", {"armored_assault": True}, 1),            # COT only
    ("squad", {"in_trench": True}, 1),                  # COT only
    ("squad", {"night": True}, 3),                      # +2 at night
    ("cavalry", {"night": True}, 5),                    # +4 at night
])
def test_3_2_crossing_barbed_wire(sample, unit, kw, total):
    assert mf_cost(sample, unit, "StJ14", "StJ15", **kw, chart=CHART).total == total


@pytest.mark.parametrize("unit, words", [
    (Unit("wagon"), "wagons"),
    (Unit("bicycle"), "ridden bicycles"),
    (Unit("horse"), "horses"),
    (Unit("squad", skis=True), "Infantry on skis"),
    (Unit("squad", cx=True), "CX Infantry"),
    (Unit("cavalry", cx=True), "CX cavalry"),
])
def test_3_2_who_cannot_cross_barbed_wire(sample, unit, words):
    c = mf_cost(sample, unit, "StJ14", "StJ15", chart=CHART)
    assert not c.legal and c.total is None and c.rule == "3.2"
    assert words in c.why and not c.task_impossible


def test_3_2_a_straying_unit_that_cannot_cross_becomes_TI(sample):
    c = mf_cost(sample, Unit("squad", cx=True, straying=True), "StJ14", "StJ15", chart=CHART)
    assert not c.legal and c.task_impossible and "TI" in c.why


def test_3_3_motorcycles_cannot_cross_wire_other_vehicles_bog(sample):
    moto = vehicle_entry(sample, Unit("motorcycle", fully_tracked=False), "StJ14", "StJ15", chart=CHART)
    assert not moto.legal and moto.rule == "3.3"
    ht = vehicle_entry(sample, Unit("vehicle", fully_tracked=False), "StJ14", "StJ15", chart=CHART)
    assert ht.legal and ht.extra_mp == 0 and ht.wire_bog and ht.bog.total == 1    # no MP, a Bog DR
    tank = vehicle_entry(sample, Unit("vehicle"), "StJ15", "StJ14", chart=CHART)
    assert tank.extra_mp == 1 and tank.wire_bog and tank.bog.total == 0           # and the slope's 1 MP


# --------------------------------------------------------------------------
# 3.21 Temporary Breach


def test_3_21_a_breach_costs_half_and_is_hazardous(sample):
    c = mf_cost(sample, "squad", "StJ14", "StJ15", breaches=["StJ14-J15"], chart=CHART)
    assert c.total == F(3, 2) and c.hazardous and parts(c)[-1] == (F(1, 2), "3.21")
    assert mf_cost(sample, "squad", "StJ14", "StJ15", breaches=["StJ14-J15"], night=True, chart=CHART).total == 2
    # a breach elsewhere does nothing here
    assert mf_cost(sample, "squad", "StJ14", "StJ15", breaches=["StL11-M11"], chart=CHART).total == 2


@pytest.mark.parametrize("unit, kw", [
    (Unit("squad", status="broken"), {}),
    (Unit("squad", status="berserk"), {}),
    (Unit("squad"), {"manhandling": True}),
    (Unit("squad"), {"human_wave": True}),
])
def test_3_21_who_cannot_use_a_breach(sample, unit, kw):
    c = mf_cost(sample, unit, "StJ14", "StJ15", breaches=["StJ14-J15"], **kw, chart=CHART)
    assert c.total == 2 and not c.hazardous and any("3.21" in n for n in c.notes)


def test_3_21_a_breach_is_for_infantry_not_cavalry_or_vehicles(sample):
    assert mf_cost(sample, "cavalry", "StJ14", "StJ15", breaches=["StJ14-J15"], chart=CHART).total == 3
    v = vehicle_entry(sample, Unit("vehicle"), "StJ14", "StJ15", breaches=["StJ14-J15"], chart=CHART)
    assert v.wire_bog and "gives vehicles nothing" in v.why


def test_3_21_creating_a_breach():
    ok = temporary_breach("squad", chart=CHART)
    assert ok.legal and ok.mf == 2 and ok.task_impossible and ok.concealment_loss and ok.rule == "3.21"
    for unit, kw, words in [
        (Unit("squad", straying=True), {}, "non-Straying"),
        (Unit("squad", status="broken"), {}, "Good Order"),
        (Unit("squad", status="pinned"), {}, "unpinned"),
        (Unit("smc"), {}, "MMC"),
        (Unit("cavalry"), {}, "MMC"),
        (Unit("squad"), {"in_entrenchment": True}, "entrenchment"),
        (Unit("squad"), {"in_pillbox": True}, "pillbox"),
        (Unit("squad"), {"in_wire_location": True}, "Wire Location"),
        (Unit("squad"), {"gully_bottom": True}, "gully"),
    ]:
        res = temporary_breach(unit, **kw, chart=CHART)
        assert not res.legal and res.mf is None and words in res.why, (unit, kw)


# --------------------------------------------------------------------------
# 3.3 barbed-wire Bog DRMs (signs lost in the seed: read as +1 / +2, not added)


def test_3_3_wire_bog_drms():
    assert wire_drms(Unit("vehicle"), chart=CHART).total == 0
    half = wire_drms(Unit("vehicle", fully_tracked=False), chart=CHART)
    assert half.total == 1 and half.rule == "3.3" and half.stand_in
    truck = wire_drms(Unit("vehicle", fully_tracked=False, truck_mp=True), chart=CHART)
    assert truck.total == 2 and "+2" in truck.why
    with pytest.raises(InvalidInput, match="vehicles"):
        wire_drms(Unit("squad"), chart=CHART)


# --------------------------------------------------------------------------
# 4.11 / 4.12 stream-hex terrain


@pytest.mark.parametrize("start, end, depth, total", [
    ("StL6", "StM6", "shallow", 5),          # Shallow stream-woods: 3 + 2
    ("StL7", "StM7", "shallow", 5),          # Shallow stream-brush
    ("StL5", "StM5", "shallow", F(9, 2)),    # Shallow stream-pine: 4 1/2
    ("StL8", "StM8", "shallow", 4),          # Shallow stream-orchard
    ("StL6", "StM6", "dry", 4),              # Dry stream-woods
])
def test_4_11_entering_across_a_non_stream_hexside_is_cumulative(streams, start, end, depth, total):
    c = mf_cost(streams, "squad", start, end, stream_depth=depth, chart=CHART)
    assert c.total == total and "4.11" in c.rules


def test_4_11_entering_across_a_stream_hexside_pays_the_stream_only(streams):
    assert mf_cost(streams, "squad", "StM5", "StM6", stream_depth="shallow", chart=CHART).total == 3
    assert mf_cost(streams, "squad", "StM5", "StM6", stream_depth="dry", chart=CHART).total == 2


@pytest.mark.parametrize("end, total", [("StM6", 3), ("StM7", 3), ("StM5", F(5, 2)), ("StM8", 2)])
def test_4_12_entering_into_crest_status(streams, end, total):
    start = "StL" + end[3:]
    for depth in ("shallow", "dry"):
        c = mf_cost(streams, "squad", start, Location(end, crest=True), stream_depth=depth, chart=CHART)
        assert c.total == total and parts(c) == [(total, "4.12")]


def test_4_12_crest_entry_edges(streams):
    broken = mf_cost(streams, Unit("squad", status="broken"), "StL6", Location("StM6", crest=True), stream_depth="shallow", chart=CHART)
    assert not broken.legal and broken.rule == "4.12"
    far = mf_cost(streams, "squad", "StL6", Location("StM6", crest=True), stream_depth="shallow", assault_move_possible=False, chart=CHART)
    assert not far.legal and "Assault Move" in far.why
    with pytest.raises(NotCovered, match="B20.91"):
        mf_cost(streams, "squad", "StM5", Location("StM6", crest=True), stream_depth="shallow", chart=CHART)   # across the stream
    with pytest.raises(NotCovered, match="B20.91"):
        mf_cost(streams, "squad", "StL9", Location("StM9", crest=True), stream_depth="shallow", chart=CHART)   # a plain stream
    with pytest.raises(InvalidInput, match="crest status"):
        mf_cost(streams, "squad", "StK6", Location("StL6", crest=True), chart=CHART)                          # no stream there


def test_4_1_stream_depth_must_be_given_and_known(streams):
    with pytest.raises(InvalidInput, match="stream_depth"):
        mf_cost(streams, "squad", "StL6", "StM6", chart=CHART)
    with pytest.raises(NotCovered, match="deep"):
        mf_cost(streams, "squad", "StL6", "StM6", stream_depth="deep", chart=CHART)


# --------------------------------------------------------------------------
# 5.11 / 5.141 narrow streets


def test_5_11_from_the_street_into_a_building_pays_the_building(village):
    m = village()
    # G bypasses along O18-N18, then enters the O19 building: the normal 2 MF
    c = mf_cost(m, "squad", Location("StO18", bypass="StO18-N18"), "StO19", chart=CHART)
    assert c.total == 2
    # N17 into the O17 building across the street, which is also drawn as a road: no road rate
    c = mf_cost(m, "squad", "StN17", "StO17", chart=CHART)
    assert c.total == 2 and any("5.11" in n for n in c.notes)
    # elsewhere a road into woods pays the road rate (B3.4, a stand-in)
    assert mf_cost(m, "squad", "StM15", "StM16", chart=CHART).total == 1


def test_5_11_bypassing_along_a_narrow_street(village):
    m = village()
    c = mf_cost(m, "squad", "StN17", Location("StO18", bypass="StO18-N18"), chart=CHART)
    assert c.total == 1 and c.parts[0].stand_in and c.parts[0].rule == "5.11 (ASL A4.3)"
    with pytest.raises(NotCovered, match="A4.3"):
        mf_cost(m, "squad", "StN16", Location("StO17", bypass="StO16-O17"), chart=CHART)
    with pytest.raises(InvalidInput, match="not a hexside of StO18"):
        mf_cost(m, "squad", "StN17", Location("StO18", bypass="StN17-O17"), chart=CHART)


def test_5_141_crossing_the_roadblock_costs_1_more(village):
    # G bypasses directly into vertex O17-O18-P17: 1 more MF ("pays 2 MF at the same time")
    c = mf_cost(village(), "squad", "StN17", Location("StO18", bypass="StO17-O18"), crosses_roadblock=True, chart=CHART)
    assert c.total == 2 and parts(c)[-1] == (1, "5.141 example")


def test_5_11_no_dash_along_or_across_a_narrow_street(village):
    c = mf_cost(village(), "squad", "StN17", "StO18", dash=True, chart=CHART)
    assert not c.legal and c.rule == "5.11"
    assert mf_cost(village(), "squad", "StM17", "StN17", dash=True, chart=CHART).legal


def test_5_11_5_13_which_hexes_of_a_street_count(village):
    assert street_hexes(village(), "StN17-O17").hexes == ("StN17", "StO17")
    crest = street_hexes(village(o17="{terrain: stone_building, elevation: 1}"), "StN17-O17")
    assert crest.hexes == ("StN17",) and "lower" in crest.why
    with pytest.raises(InvalidInput, match="not a narrow street"):
        street_hexes(village(), "StM17-N17")


MINES = {"StN17": [("A-P", 6)], "StO18": [("A-P", 8)], "StN18": [("A-P", 12)]}


def test_5_143_minefields_and_a_bypassing_unit(village):
    m = village()
    assert bypass_minefields(m, "StN17-O17", MINES).attacks == (("StN17", "A-P", 6),)
    assert bypass_minefields(m, "StN17-O18", MINES).attacks == (("StO18", "A-P", 8),)
    both = bypass_minefields(m, "StN17-O18", {"StN17": [("A-T", 6)], "StO18": [("A-P", 8)]})
    assert both.attacks == (("StN17", "A-T", 6), ("StO18", "A-P", 8))
    # a crest line: only the lower hex's mines
    high = village(o18="{terrain: open_ground, elevation: 1}")
    assert bypass_minefields(high, "StN17-O18", MINES).attacks == (("StN17", "A-P", 6),)


def test_5_143_mines_in_a_paved_street_hex_are_revealed(village):
    m = village()
    assert mines_must_be_revealed(m, "StN17").required
    assert mines_must_be_revealed(m, "StO18").required
    n18 = mines_must_be_revealed(m, "StN18")
    assert not n18.required and "HIP" in n18.why                 # unpaved: HIP allowed
    assert not mines_must_be_revealed(m, "StM15").required        # no narrow street at all
    # every narrow street of O17 is a crest line down to a lower level: no need to reveal
    hill = village(o17="{terrain: stone_building, elevation: 1}")
    assert not mines_must_be_revealed(hill, "StO17").required
    assert mines_must_be_revealed(hill, "StN17").required         # N17 is the lower hex


# --------------------------------------------------------------------------
# 2.2 Up-/Down-Slope and 2.3 the +3/4 level


def test_2_2_down_slope_hexsides_and_up_slope(figure):
    m = figure()
    assert down_slope_hexsides(m, "StK14") == ("StK13-K14", "StJ14-K14")
    assert is_up_slope(m, "StI14", "StK14")         # B: the LOS leaves I14 at a vertex of I14-J13
    assert not is_up_slope(m, "StJ13", "StI14")     # J13 holds the hachures: Down-Slope
    assert not is_up_slope(m, "StI14", "StI12")     # this LOS crosses no slope


def test_2_3_B_up_slope_is_at_level_3_three_quarters(figure):
    h = los_height(figure(), "StI14", "StK14", chart=CHART)
    assert h.height == F(15, 4) and h.up_slope and "3 3/4" in h.why and "2.3" in h.rules
    assert los_height(figure(), "StI14", "StI12", chart=CHART).height == 3
    assert los_height(figure(), Location("StJ13", level=1), "StI14", chart=CHART).height == 4     # a building level, Down-Slope


def test_2_3_the_StG9_F8_slope_for_LOS(sample):
    assert los_height(sample, "StG9", "StF8", chart=CHART).height == F(7, 4)
    assert los_height(sample, "StF8", "StG9", chart=CHART).height == 0


def test_2_3_the_bonus_feeds_the_LOS_engine(sample):
    from hxref.geometry.los import line_of_sight

    t = sample.sight_terrain()
    res = line_of_sight(t, sample.parse("StG9"), sample.parse("StF8"), adjustments=sight_adjustments(sample, chart=CHART))
    assert res.visible and res.line.observer_height == F(7, 4)


# --------------------------------------------------------------------------
# 2.41 Slope TEM (E in K14, Small Arms fire)


@pytest.mark.parametrize("firer, ok", [
    ("StI14", True),     # squad B
    ("StJ12", True),
    ("StH14", True),
    ("StH12", False),    # does not cross K14's slope hexside
    ("StI12", False),
    ("StL13", False),    # squad F: adjacent
])
def test_2_41_E_in_K14(figure, firer, ok):
    t = slope_tem(figure(), "StK14", firer, chart=CHART)
    assert t.eligible is ok and t.tem == (1 if ok else 0) and t.rule == "2.41"


def test_2_41_a_fire_group_per_A5_and_no_flamethrowers(figure):
    m = figure()
    assert slope_tem(m, "StK14", ["StH12", "StI14"], chart=CHART).eligible            # A.5
    assert not slope_tem(m, "StK14", ["StH12", "StI12"], chart=CHART).eligible
    ft = slope_tem(m, "StK14", "StI14", flamethrower=True, chart=CHART)
    assert not ft.eligible and "FT" in ft.why


def test_2_41_a_higher_firer_needs_a_level_difference_below_the_range(figure):
    m = figure(hexes="  StG14: {terrain: open_ground, elevation: 5}\n  StJ12: {terrain: open_ground, elevation: 5}")
    assert slope_tem(m, "StK14", "StG14", chart=CHART).eligible           # 2 levels up, range 4 (the LOS meets J14-K14)
    far = slope_tem(m, "StK14", "StJ12", chart=CHART)                      # 2 levels up, range 2
    assert not far.eligible and "less than the range" in far.why


def test_2_41_which_hexes_qualify(figure):
    # L11 has two CONNECTED Down-Slope hexsides (L10-L11 and K11-L11): no TEM
    assert not slope_tem(figure(), "StL11", "StL8", chart=CHART).eligible
    # with K12-L11 instead the two are not connected: TEM
    m = figure(l11="StK12-L11: {features: [slope], drawn_in: StL11}")
    assert slope_tem(m, "StL11", "StL8", chart=CHART).eligible
    # three, connected or not
    m3 = figure(l11="StK11-L11: {features: [slope], drawn_in: StL11}\n  StM11-L11: {features: [slope], drawn_in: StL11}")
    assert slope_tem(m3, "StL11", "StL8", chart=CHART).eligible


def test_2_41_only_infantry_at_ground_level(figure):
    m = figure()
    assert not slope_tem(m, Location("StK14", level=1), "StI14", chart=CHART).eligible
    assert not slope_tem(m, "StK14", "StI14", target_unit="vehicle", chart=CHART).eligible


def test_2_41_not_cumulative_with_other_positive_TEM(figure):
    m = figure()
    assert slope_tem(m, "StK14", "StI14", other_tem=1, chart=CHART).combined_tem == 1
    assert slope_tem(m, "StK14", "StI14", other_tem=0, chart=CHART).combined_tem == 1
    assert slope_tem(m, "StK14", "StI14", other_tem=1, mud_or_deep_snow_tem=1, chart=CHART).combined_tem == 2   # EXC
    assert slope_tem(m, "StK14", "StH12", other_tem=1, chart=CHART).combined_tem == 1


# --------------------------------------------------------------------------
# inputs, chart, formatting


def test_bad_inputs(sample):
    with pytest.raises(InvalidInput, match="not adjacent"):
        mf_cost(sample, "squad", "StJ14", "StJ16", chart=CHART)
    with pytest.raises(InvalidInput, match="unknown unit kind 'tank'"):
        mf_cost(sample, "tank", "StJ14", "StJ15", chart=CHART)
    with pytest.raises(InvalidInput, match="expends MP, not MF"):
        mf_cost(sample, "vehicle", "StJ14", "StJ15", chart=CHART)
    with pytest.raises(InvalidInput, match="only cavalry charges"):
        mf_cost(sample, "squad", "K12", "K11", charging=True, chart=CHART)
    with pytest.raises(InvalidInput, match="vehicle_entry is for vehicles"):
        vehicle_entry(sample, "squad", "StJ14", "StJ15", chart=CHART)
    with pytest.raises(NotCovered, match="B23"):
        mf_cost(sample, "squad", "StL11", Location("StL10", level=1), chart=CHART)
    with pytest.raises(InvalidInput):
        mf_cost(sample, "squad", "StZ99", "StJ15", chart=CHART)


def test_the_chart_marks_its_stand_ins():
    chart = CHART
    assert chart.stand_in
    assert not chart.entry("slope.climb_mf").stand_in and chart.entry("slope.climb_mf").rule == "2.51"
    assert chart.value("slope.up_slope_levels") == F(3, 4)
    assert chart.entry("barbed_wire.bog_drm.not_fully_tracked").stand_in
    assert chart.entry("narrow_street.bypass_mf").stand_in
    assert chart.value("stream.crest_entry_mf.pine_woods") == F(5, 2)


def test_a_chart_missing_an_entry_is_refused(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text("stand_in: true\nslope: {climb_mf: {value: 0.5, rule: '2.51'}}\n")
    with pytest.raises(InvalidInput, match="slope.climb_mp"):
        TerrainChart.load(CHARTS, p)


@pytest.mark.parametrize("value, text", [(F(5, 2), "2 1/2"), (F(1, 2), "1/2"), (3, "3"), (F(15, 4), "3 3/4"), (0, "0")])
def test_mf_text(value, text):
    assert mf_text(value) == text
