"""``hxref kgp mf|tem|los|wire``: the KGP terrain calculators through the command line.

The digest's worked examples (rules/kgp.md section 12) replayed through the
CLI on the shipped sample map, and on two small maps written here: one after
the 2.3 figure (squad B in I14, squad E in K14), one where the +3/4 Up-Slope
level lets a unit see over woods.  The calculators themselves are tested in
tests/kgp/test_terrain.py.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "games" / "kgp" / "maps" / "sample.yaml")
TERRAIN = ROOT / "games" / "kgp" / "terrain.yaml"

# After the 2.3 figure (not in the seed), as in test_terrain.py: a level-3 hilltop;
# B in I14 goes down into J13; E's hex K14 has two non-connected Down-Slope hexsides.
FIGURE = """
map: kgp-figure-2-3-cli
title: After the KGP 2.3 figure (reconstructed for tests)
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [F, M], rows: [7, 16], terrain: open_ground, elevation: 3}}
terrain: {terrain}
hexsides:
  StI15-J14: {{features: [slope, barbed_wire], drawn_in: StI15}}
  StI14-J13: {{features: [slope], drawn_in: StJ13}}
  StK13-K14: {{features: [slope], drawn_in: StK14}}
  StJ14-K14: {{features: [slope], drawn_in: StK14}}
  StK13-L13: {{features: [slope], drawn_in: StL13}}
"""

# G10 (level 1) is Up-Slope across G10-G11 (drawn in G11); woods (1 level) in G11.
# Down the column to G14 the sight line is at 1 3/4 - 1 3/4 x 1/4 = 1 5/16 over G11:
# above the woods; without the +3/4 it would be 3/4 there, and the woods would block.
OVER_WOODS = """
map: kgp-over-woods
title: Seeing over lower terrain from Up-Slope (KGP 2.3; for tests)
system: kgp
kind: hex
grid: {{labels: asl, board: St, parity: even, columns: [F, I], rows: [8, 14], terrain: open_ground, elevation: 0}}
terrain: {terrain}
hexes:
  StG10: {{terrain: open_ground, elevation: 1}}
  StG11: woods
hexsides:
  StG10-G11: {{features: [slope], drawn_in: StG11}}
"""


@pytest.fixture
def kgp(cli):
    """The runner; maps written into its folder."""
    (cli.folder / "figure.yaml").write_text(FIGURE.format(terrain=TERRAIN))
    (cli.folder / "over-woods.yaml").write_text(OVER_WOODS.format(terrain=TERRAIN))
    return cli


def js(res):
    return json.loads(res.output)


# --------------------------------------------------------------------------
# mf: 2.51 and friends


def test_mf_squad_A_into_J14_is_2_half_MF(kgp):
    out = kgp("kgp", "mf", SAMPLE, "StJ15", "StJ14").output
    lines = out.splitlines()
    assert lines[0] == "StJ15 -> StJ14 (squad): 2 1/2 MF"
    assert "1  Open ground COT (ASL B, not in the seed; stand-in)" in lines[1]
    assert "1  barbed wire (3.2)" in lines[2]
    assert "1/2  climbing a slope (2.51)" in lines[3]
    assert lines[4].strip() == "total  2 1/2 MF"
    assert "stand-in" in out and "terrain_costs.yaml" in out


def test_mf_the_same_move_crossing_a_crest_line_is_3_half_MF(kgp):
    out = kgp("kgp", "mf", SAMPLE, "StG10", "StH10").output
    assert out.startswith("StG10 -> StH10 (squad): 3 1/2 MF\n")
    assert "2  Open ground COT x2 (moving to a higher elevation)" in out and "total  3 1/2 MF" in out


def test_mf_the_StG9_F8_slope_2_half_up_1_down(kgp):
    up = kgp("kgp", "mf", SAMPLE, "StF8", "StG9").output
    assert up.startswith("StF8 -> StG9 (squad): 2 1/2 MF\n") and "climbing a slope (2.51)" in up
    down = kgp("kgp", "mf", SAMPLE, "StG9", "StF8").output
    assert down.startswith("StG9 -> StF8 (squad): 1 MF\n")
    assert "note: going down a slope costs nothing extra (2.51)" in down


def test_mf_on_the_figure_map_and_hex_labels_without_the_board(kgp):
    assert kgp("kgp", "mf", "figure.yaml", "I15", "J14").output.startswith("StI15 -> StJ14 (squad): 2 1/2 MF")
    assert kgp("kgp", "mf", "figure.yaml", "StI14", "StJ13").output.startswith("StI14 -> StJ13 (squad): 1 MF")


def test_mf_json(kgp):
    d = js(kgp("kgp", "mf", SAMPLE, "StJ15", "StJ14", "--json"))
    assert d["legal"] and d["total"] == 2.5 and d["total_text"] == "2 1/2" and d["cost"] == "MF"
    assert [(p["value"], p["rule"]) for p in d["parts"]] == [(1, "ASL B, not in the seed"), (1, "3.2"), (0.5, "2.51")]
    assert d["parts"][0]["stand_in"] and not d["parts"][2]["stand_in"]
    assert {"2.51", "3.2"} <= set(d["rules"]) and d["why"].startswith("StJ15 -> StJ14: 2 1/2 MF")


@pytest.mark.parametrize("args, total", [
    ((), "2"),                                              # 1 COT + 1 wire; down the slope
    (("--night",), "3"),                                    # wire doubled at night (3.2)
    (("--unit", "cavalry"), "3"),                           # cavalry: +2
    (("--armored-assault",), "1"),                          # COT only
    (("--breach", "StJ14-J15"), "1 1/2"),                   # Temporary Breach: +1/2 (3.21)
])
def test_mf_barbed_wire_options(kgp, args, total):
    out = kgp("kgp", "mf", SAMPLE, "StJ14", "StJ15", *args).output
    assert out.splitlines()[0].endswith(f": {total} MF"), out


def test_mf_pine_woods_1_3(kgp):
    assert kgp("kgp", "mf", SAMPLE, "StK16", "StK15").output.startswith("StK16 -> StK15 (squad): 1 1/2 MF")
    assert kgp("kgp", "mf", SAMPLE, "StK16", "StK15", "--unit", "cavalry").output.startswith(
        "StK16 -> StK15 (cavalry): 3 MF")


def test_mf_a_barred_move_is_an_answer_not_an_error(kgp):
    out = kgp("kgp", "mf", SAMPLE, "StK12", "StK11", "--unit", "cavalry", "--charging").output
    assert out == "StK12 -> StK11 (cavalry): not allowed: a cavalry charge cannot cross the crest-line slope " \
                  "StK11-K12 (2.53)\n"
    d = js(kgp("kgp", "mf", SAMPLE, "StJ14", "StJ15", "--unit", "squad", "--cx", "--straying", "--json"))
    assert not d["legal"] and d["total"] is None and d["rule"] == "3.2" and d["task_impossible"]


def test_mf_vehicles_get_what_KGP_adds_in_MP(kgp):
    out = kgp("kgp", "mf", SAMPLE, "StJ15", "StJ14", "--unit", "vehicle", "--not-fully-tracked").output
    assert out.startswith("StJ15 -> StJ14 (vehicle): +1 MP on top of the ASL COT in MP (not in the seed)\n")
    assert "MP climbing a slope (2.52)" in out and "Bog DRM +1  not fully tracked (3.3; stand-in)" in out
    d = js(kgp("kgp", "mf", SAMPLE, "StK11", "StK12", "--unit", "vehicle", "--json"))
    assert not d["legal"] and d["rule"] == "2.53" and d["cost"] == "MP"
    moto = kgp("kgp", "mf", SAMPLE, "StJ14", "StJ15", "--unit", "motorcycle").output
    assert "not allowed" in moto and "(3.3)" in moto


# --------------------------------------------------------------------------
# tem: 2.41


@pytest.mark.parametrize("firer, ok", [("StI14", True), ("StH12", False), ("StL13", False)])
def test_tem_E_in_K14(kgp, firer, ok):
    out = kgp("kgp", "tem", "figure.yaml", "StK14", firer).output
    head = out.splitlines()[0]
    assert head == f"StK14 fired on from {firer}: " + ("+1 Slope TEM (2.41)" if ok else "no Slope TEM (2.41)")
    assert "yes  StK14 has 2 non-connected Down-Slope hexsides (2.41)" in out
    if firer == "StL13":
        assert "no   StL13 is adjacent (2.41)" in out


def test_tem_fire_group_A5_and_json(kgp):
    d = js(kgp("kgp", "tem", "figure.yaml", "StK14", "StH12", "StI14", "--other-tem", "1", "--json"))
    assert d["eligible"] and d["tem"] == 1 and d["combined_tem"] == 1 and d["rule"] == "2.41"
    assert [f["hex"] for f in d["firers"]] == ["StH12", "StI14"]
    assert any("Fire Group" in c["text"] and c["ok"] for c in d["checks"])
    ft = kgp("kgp", "tem", "figure.yaml", "StK14", "StI14", "--flamethrower").output
    assert "no Slope TEM" in ft and "no   FT fire gets no Slope TEM" in ft


def test_tem_on_the_sample_map_one_down_slope_hexside_is_not_enough(kgp):
    out = kgp("kgp", "tem", SAMPLE, "StF8", "StI10").output
    assert out.startswith("StF8 fired on from StI10: no Slope TEM (2.41)\n")
    assert "no   StF8 has 1 Down-Slope hexside: it needs 3, or 2 non-connected (2.41)" in out


def test_tem_a_firer_at_a_building_level(kgp):
    d = js(kgp("kgp", "tem", "figure.yaml", "StK14", "StI14:2", "--json"))
    assert d["firers"] == [{"hex": "StI14", "level": 2}]
    assert not d["eligible"] and any("2 levels higher at range 2" in c["text"] for c in d["checks"])


# --------------------------------------------------------------------------
# los: 2.3


def test_los_the_StG9_F8_slope_up_slope_is_3_quarters_higher(kgp):
    out = kgp("kgp", "los", SAMPLE, "StG9", "StF8").output
    assert out.splitlines() == [
        "StG9 -> StF8: LOS clear (2.3)",
        "  StG9: level 1 3/4 = 1 base level (2.3) + 3/4 Up-Slope for this LOS (2.3); no height advantage, no HD (2.3)",
        "  StF8: level 0 = 0 base level (2.3); not Up-Slope for this LOS (2.2)",
        "  hindrances (A6.7) are not computed",
    ]


def test_los_B_up_slope_at_level_3_three_quarters_json(kgp):
    d = js(kgp("kgp", "los", "figure.yaml", "StI14", "StK14", "--json"))
    assert d["from"]["hex"] == "StI14" and d["from"]["height"] == 3.75 and d["from"]["text"] == "3 3/4"
    assert d["from"]["up_slope"] and not d["to"]["up_slope"] and d["to"]["height"] == 3
    assert d["visible"] and d["blocking"] is None and "2.3" in d["from"]["rules"]


def test_los_up_slope_sees_over_lower_woods(kgp):
    out = kgp("kgp", "los", "over-woods.yaml", "StG10", "StG14").output
    assert out.startswith("StG10 -> StG14: LOS clear (2.3)\n") and "StG10: level 1 3/4" in out
    assert kgp("kgp", "los", "over-woods.yaml", "StG14", "StG10").output.startswith(
        "StG14 -> StG10: LOS clear (2.3)\n")                                     # reciprocity (A6.5)
    # G12 is the hex right behind the woods G10 sees over: a blind hex (2.3 example: K11)
    assert kgp("kgp", "los", "over-woods.yaml", "StG10", "StG12").output.startswith(
        "StG10 -> StG12: LOS blocked by StG11: the higher unit sees over level 1, but StG12 is the hex right behind "
        "it: a blind hex (as K11 in the 2.3 example) (2.3 example)\n")
    # without the slope hexside G10 is at level 1 and the woods block the view to G14
    flat = OVER_WOODS.format(terrain=TERRAIN).split("hexsides:")[0]
    (kgp.folder / "flat.yaml").write_text(flat)
    d = js(kgp("kgp", "los", "flat.yaml", "StG10", "StG14", "--json"))
    assert not d["visible"] and d["blocking"] == "StG11" and d["from"]["height"] == 1 and not d["from"]["up_slope"]


def test_los_blocked_names_the_obstacle(kgp):
    out = kgp("kgp", "los", SAMPLE, "StG9", "StF13").output
    assert out.startswith("StG9 -> StF13: LOS blocked by StF12: the obstacle at level 1 is not lower than the higher "
                          "unit (level 1) (2.3)\n")
    d = js(kgp("kgp", "los", SAMPLE, "StG9", "StF13", "--json"))
    assert not d["visible"] and d["blocking"] == "StF12"
    assert [o["effect"] for o in d["obstacles"]] == ["none", "none", "none", "blocks"]
    along = kgp("kgp", "los", SAMPLE, "StF11", "StJ10").output         # along H10-H11: hill and woods both block
    assert along.startswith("StF11 -> StJ10: LOS blocked by StH11/StH10: the ground at level 1 is not lower than the "
                            "higher unit (level 0) (2.3)")


# --------------------------------------------------------------------------
# wire: 3.21, 3.3


def test_wire_bog_drms(kgp):
    out = kgp("kgp", "wire", "--unit", "vehicle", "--not-fully-tracked").output
    assert out.startswith("vehicle (not fully tracked): barbed-wire Bog DRM +1 (3.3)\n")
    assert "+1  not fully tracked (3.3; stand-in)" in out and "signs are lost" in out
    d = js(kgp("kgp", "wire", "--unit", "vehicle", "--not-fully-tracked", "--truck-mp", "--json"))
    assert d["can_cross"] and d["bog"]["total"] == 2 and d["bog"]["stand_in"]          # the larger only
    assert js(kgp("kgp", "wire", "--unit", "vehicle", "--json"))["bog"]["total"] == 0
    d = js(kgp("kgp", "wire", "--unit", "motorcycle", "--json"))
    assert not d["can_cross"] and d["bog"] is None and d["rule"] == "3.3"


def test_wire_temporary_breach(kgp):
    out = kgp("kgp", "wire").output
    assert out.startswith("squad: may create a Temporary Breach in one barbed-wire hexside for 2 more MF (3.21)\n")
    assert "marked TI" in out and "+1/2 MF instead of +1" in out
    d = js(kgp("kgp", "wire", "--unit", "squad", "--status", "pinned", "--json"))
    assert not d["breach"]["legal"] and d["breach"]["mf"] is None and "unpinned" in d["breach"]["why"]
    assert "only an Infantry MMC" in kgp("kgp", "wire", "--unit", "cavalry").output


# --------------------------------------------------------------------------
# errors: exit 2, one line naming the argument or file and the rule


@pytest.mark.parametrize("args, words", [
    (("mf", SAMPLE, "StZ99", "StJ15"), ["sample.yaml: FROM StZ99: 'StZ99' is not on this map"]),
    (("mf", SAMPLE, "StJ15", "nonsense"), ["TO nonsense", "not a hex label"]),
    (("mf", SAMPLE, "StJ14", "StJ16"), ["FROM StJ14 and TO StJ16 are not adjacent"]),
    (("mf", SAMPLE, "StJ15", "StJ14", "--unit", "tank"), ["--unit tank: unknown unit kind 'tank'"]),
    (("mf", SAMPLE, "StJ15", "StJ14", "--status", "happy"), ["--status happy: unknown unit status"]),
    (("mf", SAMPLE, "StL11", "StL10", "--level", "1"), ["sample.yaml:", "ASL B23", "not in the seed"]),
    (("mf", SAMPLE, "StL11", "StL10", "--level", "x"), ["--level x: a building level is a whole number"]),
    (("mf", SAMPLE, "StJ15", "StJ14", "--unit", "vehicle", "--crest"), ["--crest is for units expending MF"]),
    (("mf", SAMPLE, "StJ15", "StJ14", "--breach", "StJ15-J99"), ["--breach StJ15-J99"]),
    (("mf", SAMPLE, "StJ14", "StJ15", "--unit", "squad", "--charging"), ["only cavalry charges", "(2.53)"]),
    (("mf", SAMPLE, "StJ15", "StJ14", "--bypass", "StJ14-K14"), ["sample.yaml:", "A4.3", "5.11"]),
    (("mf", SAMPLE, "StJ15", "StJ14", "--stream-depth", "dry"), ["--stream-depth dry: TO StJ14 is no stream hex"]),
    (("mf", "missing.yaml", "StJ15", "StJ14"), ["missing.yaml: no such file"]),
    (("tem", SAMPLE, "StK14", "StQ1"), ["FIRER StQ1"]),
    (("tem", SAMPLE, "StK14", "StI14:up"), ["FIRER StI14:up: a building level is a whole number"]),
    (("tem", SAMPLE, "StK14", "StI14", "--unit", "tank"), ["--unit tank"]),
    (("los", SAMPLE, "StJ14", "StJ14"), ["FROM and TO are the same hex StJ14"]),
    (("los", SAMPLE, "StJ14", "J0"), ["TO J0"]),
    (("wire", "--unit", "panzer"), ["--unit panzer: unknown unit kind"]),
])
def test_errors_are_one_line_exit_2(kgp, args, words):
    err = kgp.fails("kgp", *args)
    for w in words:
        assert w in err, err


def test_a_map_of_another_system_or_not_a_map_is_refused(kgp):
    heartland = str(ROOT / "games" / "heartland" / "maps" / "sample.yaml")
    err = kgp.fails("kgp", "mf", heartland, "0101", "0102")
    assert "heartland map" in err and "system: kgp" in err
    (kgp.folder / "junk.yaml").write_text("just: words\n")
    assert "junk.yaml" in kgp.fails("kgp", "los", "junk.yaml", "StJ14", "StJ15")


def test_help_lists_the_verbs_with_examples(kgp):
    out = kgp("kgp", "--help").output
    for verb in ("mf", "tem", "los", "wire"):
        assert verb in out
        assert "Example" in kgp("kgp", verb, "--help").output
    assert "kgp" in kgp("--help").output
