"""``hxref dice``: dice statistics over a whole game, counted from the real log of the Salem Church
demo (an umpired game with dice rolled in secret for one side), the chi-square p-value against
known values, and the command line."""
from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from hxref.report import dice_stats
from hxref.referee.engine import Engine
from hxref.base.errors import InvalidInput

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def salem(tmp_path_factory, played) -> Path:
    """The game file of the Salem Church demo, played to its end."""
    return played.copy("salem-church", tmp_path_factory.mktemp("salem") / "play") / "game.yaml"


@pytest.fixture(scope="module")
def log(salem) -> list[dict]:
    eng = Engine.load(salem)
    assert eng.mode == "umpired"
    return eng.gf.log


def sees(data: dict, audience: str | None) -> bool:
    """Who reads a die in an umpired game, written out here from the rule, not taken from hxref."""
    return audience == "umpire" or "visible_to" not in data or (audience is not None and audience in data["visible_to"])


def faces_seen(log: list[dict], audience: str | None) -> Counter:
    """(side who rolled or "-", purpose, sides, face) -> how often, over the dice ``audience`` reads."""
    out: Counter = Counter()
    for ev in log:
        if ev["kind"] == "die" and sees(ev["data"], audience):
            d = ev["data"]
            for f in d["faces"]:
                out[(d.get("by") or "-", d["purpose"], d["sides"], f)] += 1
    return out


def secret_dice(log: list[dict]) -> list[dict]:
    return [ev["data"] for ev in log if ev["kind"] == "die" and "visible_to" in ev["data"]]


# --- the counts, from the game's own log ------------------------------------------------------

@pytest.mark.parametrize("audience", [None, "union", "confederate", "umpire"])
def test_counts_are_the_logs_dice_the_audience_sees(log, audience):
    want = faces_seen(log, audience)
    st = dice_stats.game_stats(log, audience, "umpired")
    got: Counter = Counter()
    for g in st.groups:
        for i, c in enumerate(g.counts):
            if c:
                got[(g.by, g.purpose, g.sides, i + 1)] = c
    assert got == want
    assert st.dice == sum(want.values()) > 0
    for t in st.totals:                                     # "all d6": every side and purpose together
        assert t.counts == [sum(c for (_, _, s, f), c in want.items() if s == t.sides and f == face)
                            for face in range(1, t.sides + 1)]
    for s in st.sides:
        assert s.n == sum(c for (by, _, sides, _), c in want.items() if by == s.by and sides == s.sides)


def test_figures_of_a_group(log):
    st = dice_stats.game_stats(log, "umpire", "umpired")
    t = st.totals[0]
    faces = [f for ev in log if ev["kind"] == "die" and ev["data"]["sides"] == t.sides for f in ev["data"]["faces"]]
    assert t.mean == pytest.approx(sum(faces) / len(faces))
    assert t.expected_mean == (t.sides + 1) / 2
    e = len(faces) / t.sides
    assert t.chi2 == pytest.approx(sum((faces.count(f) - e) ** 2 / e for f in range(1, t.sides + 1)))
    assert t.df == t.sides - 1
    assert 0 < t.p <= 1


def test_a_side_does_not_count_the_other_sides_secret_dice(log):
    secret = secret_dice(log)
    assert secret and all(d["visible_to"] == ["union"] for d in secret)     # union's initiative checks
    n_secret = sum(len(d["faces"]) for d in secret)
    hidden = {d["purpose"] for d in secret}
    umpire = dice_stats.game_stats(log, "umpire", "umpired")
    for audience in ("confederate", None):
        st = dice_stats.game_stats(log, audience, "umpired")
        assert st.dice == umpire.dice - n_secret
        assert not hidden & {g.purpose for g in st.groups}
    assert dice_stats.game_stats(log, "union", "umpired").dice == umpire.dice
    assert hidden <= {g.purpose for g in dice_stats.game_stats(log, "union", "umpired").groups}


def test_open_and_solo_games_hide_no_die():
    log = [{"seq": 1, "kind": "die", "by": "union",
            "data": {"purpose": "IMC", "sides": 6, "faces": [4, 4], "by": "union", "visible_to": ["union"]}}]
    for mode in ("open", "solo"):
        assert dice_stats.game_stats(log, "confederate", mode).totals[0].counts == [0, 0, 0, 2, 0, 0]
    assert dice_stats.game_stats(log, "confederate", "umpired").totals == []


def test_a_face_outside_the_die_is_refused():
    log = [{"seq": 7, "kind": "die", "data": {"purpose": "CRT", "sides": 6, "faces": [7]}}]
    with pytest.raises(InvalidInput, match="die event 7"):
        dice_stats.game_stats(log, None, "open")


def test_purpose_filter_is_a_substring_ignoring_case(log):
    st = dice_stats.game_stats(log, "umpire", "umpired", purposes=["crt", "LEADER"])
    assert {g.purpose for g in st.groups} == {"CRT", "leader casualty"}
    want = faces_seen(log, "umpire")
    assert st.dice == sum(c for (_, p, _, _), c in want.items() if p in ("CRT", "leader casualty"))


# --- the chi-square test ----------------------------------------------------------------------

@pytest.mark.parametrize("chi2, df, p", [(11.07, 5, 0.05), (3.84, 1, 0.05), (18.307, 10, 0.05),
                                         (15.086, 5, 0.01), (1.145, 5, 0.95), (0.0, 5, 1.0)])
def test_p_value_against_tables(chi2, df, p):
    assert dice_stats.chi2_p(chi2, df) == pytest.approx(p, abs=5e-4)


@pytest.mark.parametrize("x", [0.01, 0.7, 2.0, 5.0, 11.0, 40.0])
def test_p_value_against_closed_forms(x):
    # df 1: erfc(sqrt(x / 2)); df 2: exp(-x / 2); both branches (series, continued fraction) are met
    assert dice_stats.chi2_p(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
    assert dice_stats.chi2_p(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)


def test_a_group_says_when_it_has_too_few_dice():
    fair = dice_stats.Group("union", "CRT", 6, [5] * 6)
    assert (fair.chi2, fair.p, fair.few) == (0.0, 1.0, False)
    assert dice_stats.Group("union", "CRT", 6, [5, 5, 5, 5, 5, 4]).few      # 29 dice: 4.83 a face
    lopsided = dice_stats.Group("union", "CRT", 6, [0, 0, 0, 0, 0, 30])
    assert lopsided.mean == 6 and lopsided.chi2 == pytest.approx(150) and lopsided.p < 1e-20
    text = dice_stats.render_text(dice_stats.compute([dice_stats.Roll(1, "union", "CRT", 6, (1, 2))]))
    crt = [line for line in text.splitlines() if line.startswith("  CRT ")]
    assert len(crt) == 1 and crt[0].endswith(" few")
    assert text.rstrip().endswith("too few for the test to mean much")
    assert "few" not in dice_stats.render_text(dice_stats.compute([dice_stats.Roll(1, "-", "CRT", 2, (1, 2) * 5)]))


# --- the report's line ------------------------------------------------------------------------

def test_summary_line(log):
    line = dice_stats.summary_line(log, "confederate", "umpired", "game.yaml")
    st = dice_stats.game_stats(log, "confederate", "umpired")
    t = st.totals[0]
    assert line.startswith(f"Dice this game: {t.n} d6, mean {t.mean:.2f} (expected 3.50), chi-square p = ")
    assert line.endswith("`hxref dice game.yaml --side confederate` for the breakdown")
    only_union = [ev for ev in log if ev["kind"] != "die" or ev["data"].get("visible_to") == ["union"]]
    assert dice_stats.summary_line(only_union, "confederate", "umpired", "game.yaml") is None
    assert dice_stats.summary_line(only_union, "union", "umpired", "game.yaml").startswith(
        f"Dice this game: {sum(len(d['faces']) for d in secret_dice(log))} d6, ")
    assert dice_stats.summary_line([], None, "open", "g.yaml") is None


# --- the command line -------------------------------------------------------------------------

def test_cli_text(cli, salem, log):
    out = cli("dice", str(salem)).stdout
    n = sum(faces_seen(log, None).values())
    assert out.startswith("Dice of game.yaml: the public dice (umpired game)\n")
    assert f"{n} dice in " in out
    assert any(line.startswith("  all d6") and f" {n} " in line for line in out.splitlines())
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "initiative check (17.2)" not in out                 # union's secret rolls


def test_cli_json_side_and_purpose(cli, salem, log):
    doc = json.loads(cli("dice", str(salem), "--json", "--side", "union").stdout)
    want = faces_seen(log, "union")
    assert doc["audience"] == "union" and doc["mode"] == "umpired"
    assert doc["totals"][0]["counts"] == [sum(c for k, c in want.items() if k[3] == f) for f in range(1, 7)]
    assert "initiative check (17.2)" in {g["purpose"] for g in doc["groups"]}
    crt = json.loads(cli("dice", str(salem), "--json", "--purpose", "CRT").stdout)
    assert crt["purposes"] == ["CRT"] and {g["purpose"] for g in crt["groups"]} == {"CRT"}
    assert crt["dice"] == sum(c for k, c in faces_seen(log, None).items() if k[1] == "CRT")


def test_cli_svg(cli, salem, tmp_path):
    out = tmp_path / "dice.svg"
    res = cli("dice", str(salem), "--side", "confederate", "--svg", str(out))
    assert res.stdout.rstrip().endswith(f"wrote {out}")
    root = ET.parse(out).getroot()
    doc = json.loads(cli("dice", str(salem), "--side", "confederate", "--json", "--svg", str(out)).stdout)
    assert f"wrote {out}" in cli("dice", str(salem), "--json", "--svg", str(out)).stderr
    groups = root.findall(f"{SVG}g")
    assert len(groups) == len(doc["totals"]) + len(doc["sides"]) + len(doc["groups"])
    bars = groups[0].findall(f"{SVG}rect")
    assert [int(b.find(f"{SVG}title").text.split(": ")[1]) for b in bars] == doc["totals"][0]["counts"]
    assert all(g.find(f"{SVG}line[@class='expected']") is not None for g in groups)


def test_cli_svg_escapes_labels(tmp_path):
    st = dice_stats.compute([dice_stats.Roll(1, "union", "<a & b>", 6, (1, 6))], game="x&y.yaml")
    root = ET.fromstring(dice_stats.render_svg(st))
    assert "union: <a & b> (d6)" in [t.text for t in root.iter(f"{SVG}text")]


def test_cli_errors(cli, salem, tmp_path):
    assert "no side 'nobody'" in cli.fails("dice", str(salem), "--side", "nobody")
    err = cli.fails("dice", str(salem), "--side", "confederate", "--purpose", "check (17")
    assert "no die visible to confederate" in err and "initiative check" not in err   # names no secret roll
    assert "no die visible to the public" in cli.fails("dice", str(salem), "--purpose", "no such roll")
    bad = tmp_path / "bad.yaml"
    bad.write_text("not: a game\n")
    cli.fails("dice", str(bad))
    assert cli("dice", str(salem), "--side", "umpire", "--purpose", "check (17").stdout.count("initiative check") == 1
