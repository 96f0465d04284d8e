"""KGP line of sight by obstacles and blind hexes (2.3) and hillside walls and hedges (6.1, 6.2):
hxref/systems/kgp/sight.py, through the library and ``hxref kgp los``.

The 2.3 example is replayed on the shipped map of its position,
games/kgp/maps/figure_2_3.yaml (rebuilt from the example's text; stand-in
where the text is silent).  The hillside walls, and the questions the seed
cannot answer (ASL A6.4, B10.23, B9.21), on small maps written here: one
column of hexes, G1 at the top, so that every LOS runs straight down it.
"""
from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.base.errors import InvalidInput
from hxref.geometry.mapfile import load_map
from hxref.systems.kgp.sight import line_of_sight
from hxref.systems.kgp.slopes import los_height
from hxref.systems.kgp.terrain import Location, NotCovered, TerrainChart

CHART = TerrainChart.load(Charts.today("kgp"))     # today's chart: no game's

ROOT = Path(__file__).resolve().parents[2]
FIGURE = ROOT / "games" / "kgp" / "maps" / "figure_2_3.yaml"
TERRAIN = ROOT / "games" / "kgp" / "terrain.yaml"

# One column G1..G8 (G1 at the top); the other columns only frame it.
COLUMN = """
map: kgp-column
title: One column of hexes (KGP 2.3, 6.2; for tests)
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [F, H], rows: [1, 8], terrain: open_ground, elevation: 0}}
terrain: {terrain}
hexes:
{hexes}
hexsides:
{sides}
"""


@pytest.fixture(scope="module")
def figure():
    return load_map(FIGURE)


@pytest.fixture
def column(tmp_path):
    def make(hexes: dict[str, str], sides: dict[str, str] | None = None, name: str = "column"):
        text = COLUMN.format(terrain=TERRAIN, hexes="\n".join(f"  {h}: {v}" for h, v in hexes.items()),
                             sides="\n".join(f"  {s}: {v}" for s, v in (sides or {}).items()) or "  {}")
        p = tmp_path / f"{name}.yaml"
        p.write_text(text.replace("hexsides:\n  {}", "hexsides: {}"))
        return load_map(p)
    return make


# --------------------------------------------------------------------------
# 2.3 example: B (Up-Slope, level 3 3/4) and the 3 1/2-level building J11-K12


def test_2_3_B_is_at_level_3_three_quarters_toward_K11_and_L10(figure):
    for t in ("StK11", "StL10"):
        h = los_height(figure, "StI14", t, chart=CHART)
        assert h.height == F(15, 4) and h.up_slope


def test_2_3_example_B_cannot_see_K11_a_blind_hex(figure):
    s = line_of_sight(figure, "StI14", "StK11", chart=CHART)
    assert not s.visible
    assert s.blocking.where == "StK12/StJ11" and s.blocking.effect == "blind" and s.blocking.top == F(7, 2)
    assert s.blocking.rule == "2.3 example" and "right behind" in s.why


def test_2_3_example_B_sees_L10_over_the_building(figure):
    s = line_of_sight(figure, "StI14", "StL10", chart=CHART)
    assert s.visible and s.blocking is None
    over = {o.where: o for o in s.obstacles}
    assert over["StK12"].effect == "over" and over["StK12"].top == F(7, 2)
    assert over["StJ13"].effect == "over" and over["StJ13"].rule == "2.3"      # B's own crest, seen over


def test_2_3_reciprocity_A6_5(figure):
    assert line_of_sight(figure, "StL10", "StI14", chart=CHART).visible
    assert not line_of_sight(figure, "StK11", "StI14", chart=CHART).visible


def test_2_3_without_the_slope_B_would_not_see_over_the_building(figure, tmp_path):
    text = FIGURE.read_text().replace("terrain: ../terrain.yaml", f"terrain: {TERRAIN}")
    flat = text.replace("  StI14-J13: {features: [slope], drawn_in: StJ13}", "")
    p = tmp_path / "flat.yaml"
    p.write_text(flat)
    s = line_of_sight(load_map(p), "StI14", "StL10", chart=CHART)
    assert not s.visible and s.blocking.effect == "blocks"     # level 3: its own hilltop blocks (as for A)


def test_2_3_example_A_at_level_3_does_not_see_level_2_but_B_does(figure):
    a = line_of_sight(figure, "StI15", "StJ12", chart=CHART)                 # A is not Up-Slope: the level-3 crest blocks
    assert not a.visible and a.blocking.where == "StI14" and a.blocking.kind == "hill"
    assert line_of_sight(figure, "StI14", "StJ12", chart=CHART).visible       # B sees down across its Up-Slope hexside


@pytest.mark.parametrize("a, b", [("StI14", "StK14"), ("StI14", "StL13"), ("StI14", "StI15"),   # B sees E, F, A
                                  ("StK14", "StI15"), ("StK14", "StL13"), ("StL13", "StI15")])  # E sees A, F; F A
def test_2_3_example_the_hilltop_squads_see_each_other(figure, a, b):
    assert line_of_sight(figure, a, b, chart=CHART).visible and line_of_sight(figure, b, a, chart=CHART).visible


def test_2_3_the_blind_hex_count_comes_from_the_chart():
    c = CHART
    assert c.value("los.blind_hexes") == 1 and not c.entry("los.blind_hexes").stand_in
    assert c.value("los.blind_max_advantage") == 1 and c.entry("los.blind_max_advantage").stand_in
    assert c.entry("los.blind_max_range").stand_in and c.value("los.blind_max_range") == 3
    assert c.entry("los.blind_max_above").stand_in


def test_2_3_same_level_obstacle_blocks_and_lower_is_seen_over(column):
    m = column({"StG1": "{terrain: open_ground, elevation: 1}", "StG2": "woods", "StG4": "{terrain: open_ground, "
                "elevation: 1}"})
    blocked = line_of_sight(m, "StG1", "StG4", chart=CHART)                   # woods top 1 = both units' level
    assert not blocked.visible and blocked.blocking.where == "StG2"
    up = line_of_sight(m, Location("StG1"), "StG3", chart=CHART)              # level 1 over woods to the hex right behind
    assert not up.visible and up.blocking.effect in ("blocks", "blind")
    plateau = column({"StG1": "{terrain: open_ground, elevation: 2}", "StG2": "{terrain: open_ground, elevation: 2}",
                      "StG3": "{terrain: open_ground, elevation: 2}"}, name="plateau")
    assert line_of_sight(plateau, "StG1", "StG3", chart=CHART).visible        # ground at the level of both


# --------------------------------------------------------------------------
# what the seed cannot answer: ASL A6.4, B10.23, B9.21


def test_2_3_more_blind_hexes_need_A6_4(column):
    # G1 at level 2 over woods (top 1) at G2: G3 right behind is blind; G4 needs the A6.4 count (a full level over)
    m = column({"StG1": "{terrain: open_ground, elevation: 2}", "StG2": "woods"})
    assert line_of_sight(m, "StG1", "StG3", chart=CHART).blocking.effect == "blind"
    with pytest.raises(NotCovered, match="A6.4"):
        line_of_sight(m, "StG1", "StG4", chart=CHART)


def test_2_3_beyond_the_example_range_needs_A6_4(column):
    # Up-Slope G1 (1 3/4) over woods five hexes away: the example's bounds are 3 hexes
    m = column({"StG1": "{terrain: open_ground, elevation: 1}", "StG6": "woods"},
               {"StG1-G2": "{features: [slope], drawn_in: StG2}"})
    with pytest.raises(NotCovered, match="A6.4"):
        line_of_sight(m, "StG1", "StG8", chart=CHART)
    near = column({"StG1": "{terrain: open_ground, elevation: 1}", "StG3": "woods"},
                  {"StG1-G2": "{features: [slope], drawn_in: StG2}"}, name="near")
    assert line_of_sight(near, "StG1", "StG5", chart=CHART).visible            # range 2, 3/4 over: one blind hex (G4)
    assert not line_of_sight(near, "StG1", "StG4", chart=CHART).visible


def test_2_3_behind_a_hill_crest_needs_B10_23(column):
    m = column({"StG1": "{terrain: open_ground, elevation: 2}", "StG2": "{terrain: open_ground, elevation: 1}"})
    with pytest.raises(NotCovered, match="B10.23"):
        line_of_sight(m, "StG1", "StG3", chart=CHART)


# --------------------------------------------------------------------------
# 6.1, 6.2 hillside walls and hedges

HILL = {"StG1": "{terrain: stone_building, elevation: 3}", "StG2": "{terrain: open_ground, elevation: 3}",
        "StG3": "{terrain: open_ground, elevation: 2}", "StG4": "{terrain: stone_building, elevation: 2}"}


def test_6_2_a_hillside_wall_is_ignored_a_full_level_apart(column):
    m = column(HILL, {"StG2-G3": "[hillside_wall]"})
    s = line_of_sight(m, Location("StG1", 1), Location("StG4", 1), chart=CHART)          # level 4 and level 3
    assert s.visible and {o.where: o.effect for o in s.obstacles}["StG2-G3"] == "ignored"
    assert "6.2" in s.rules


def test_6_2_a_hillside_wall_blocks_less_than_a_full_level_apart(column):
    m = column(HILL, {"StG2-G3": "[hillside_hedge]"})
    s = line_of_sight(m, "StG1", Location("StG4", 1), chart=CHART)                       # level 3 and level 3
    assert not s.visible and s.blocking.where == "StG2-G3" and s.blocking.rule == "6.2"
    # 3/4 apart (G1 Up-Slope) is not a full level: the hedge stands, and what it hides is A6.4
    up = column({**HILL, "StG1": "{terrain: open_ground, elevation: 3}"},
                {"StG2-G3": "[hillside_hedge]", "StG1-G2": "{features: [slope], drawn_in: StG2}"}, name="up")
    with pytest.raises(NotCovered, match="A6.4"):
        line_of_sight(up, "StG1", Location("StG4", 1), chart=CHART)


def test_6_2_an_ordinary_wall_is_not_ignored(column):
    m = column(HILL, {"StG2-G3": "[wall]"})
    with pytest.raises(NotCovered, match="A6.4"):                            # seen over: blind hexes are A6.4
        line_of_sight(m, Location("StG1", 1), Location("StG4", 1), chart=CHART)


def test_6_1_a_hillside_wall_lies_between_different_base_levels(column):
    m = column({"StG5": "{terrain: open_ground, elevation: 2}", "StG6": "{terrain: open_ground, elevation: 2}"},
               {"StG5-G6": "[hillside_wall]"})
    with pytest.raises(InvalidInput, match=r"6\.1") as exc:
        line_of_sight(m, "StG4", "StG7", chart=CHART)
    assert "column.yaml" in exc.value.render() and exc.value.rule == "6.1"


def test_6_2_an_entrenched_unit_behind_a_wall_needs_B9_21(column):
    m = column(HILL, {"StG2-G3": "[hillside_wall]"})
    with pytest.raises(NotCovered, match="B9.21"):
        line_of_sight(m, "StG3", "StG1", viewer_entrenched=True, chart=CHART)
    line_of_sight(m, "StG3", "StG5", viewer_entrenched=True, chart=CHART)                # this LOS leaves G3 away from the wall


# --------------------------------------------------------------------------
# hxref kgp los


def test_cli_los_the_2_3_example(cli):
    out = cli("kgp", "los", str(FIGURE), "StI14", "StL10").output
    assert out.startswith("StI14 -> StL10: LOS clear (2.3)\n")
    assert "StK12: over:" in out and "StJ12-J13: ignored:" in out and "(6.2)" in out
    blind = cli("kgp", "los", str(FIGURE), "StI14", "StK11", "--json")
    d = json.loads(blind.output)
    assert not d["visible"] and d["blocking"] == "StK12/StJ11" and d["from"]["height"] == 3.75
    assert [o["effect"] for o in d["obstacles"]][-1] == "blind"


def test_cli_los_says_what_the_seed_lacks(cli, tmp_path):
    p = tmp_path / "m.yaml"
    p.write_text(COLUMN.format(terrain=TERRAIN, hexes="  StG1: {terrain: open_ground, elevation: 2}\n  StG2: woods",
                               sides="").replace("hexsides:\n", "hexsides: {}\n"))
    err = cli.fails("kgp", "los", str(p), "StG1", "StG4")
    assert "A6.4" in err and "m.yaml" in err


def test_2_3_a_LOS_along_a_wall_hexside_needs_B9(tmp_path):
    text = FIGURE.read_text().replace("terrain: ../terrain.yaml", f"terrain: {TERRAIN}")
    p = tmp_path / "wall.yaml"
    p.write_text(text.replace("hexsides:\n", "hexsides:\n  StI13-J13: [wall]\n", 1))
    with pytest.raises(NotCovered, match="B9"):
        line_of_sight(load_map(p), "StI14", "StJ12", chart=CHART)          # the LOS runs along I13-J13
    assert line_of_sight(load_map(FIGURE), "StI14", "StJ12", chart=CHART).visible
