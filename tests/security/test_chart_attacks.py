"""Attacks on the charts a game pins (hxref.kit.data), run the way a cheater runs them: with a
game file he makes or forks, his own key and his own copy of hxref's data folder.

1. The creator of a game runs ``hxref new`` with a doctored ``games/`` folder (every Weather
   Table cell Clear), so the rigged chart is pinned and covered by the victim's join signature.
   The victim's ``hxref join`` compares the pinned charts with his own hxref's and refuses to
   sign (E507), naming each chart, unless he accepts them after reading them; the receiving
   side, ``status`` and the report say the game is played with charts that differ.
2. The creator crafts the pinned texts themselves (he makes the game, so no signature breaks):
   alias bombs, non-mappings, tags, duplicate keys, huge texts, too many charts, names that are
   no chart's.  Each is refused with one line and the game file is left as it was.
3. One long process over many games: caches are by content and bounded.

The Weather Table (5.2) is games/heartland/charts/weather.yaml; the game is Heartland's
bidding-demo in open mode, Alice (union) its creator and the cheater, Bob (confederate) his victim.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from hxref.base import paths
from hxref.base import yamlio
from hxref.base.canon import sha256_hex
from hxref.gamefile.game import GameFile, event_hash
from hxref.kit import data
from hxref.referee import pinning

from tests.security.attacker import sha

WEATHER = "charts/weather.yaml"


def all_clear(text: str) -> str:
    """Every cell of the Weather Table Clear: the cheater's favourite weather."""
    return re.sub(r"^(\s+\d+:\s+)\[.*\]$", lambda m: f"{m.group(1)}[Clear, Clear, Clear]", text, flags=re.M)


def new_game(cli, name: str = "g.yaml") -> str:
    cli("new", name, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "rigged", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    return name


@pytest.fixture
def rigged(cli, tmp_path, monkeypatch) -> str:
    """The game Alice made with her doctored copy of games/ (the Weather Table all Clear) and
    joined herself; then her machine's data folder is put back: from here on it is Bob's machine."""
    doctored = tmp_path / "doctored-games"
    shutil.copytree(paths.games_dir(), doctored)
    path = doctored / "heartland" / WEATHER
    path.write_text(all_clear(path.read_text()))
    with monkeypatch.context() as m:
        m.setattr(paths, "games_dir", lambda: doctored)
        new_game(cli)
        cli("join", "g.yaml", "--side", "union", "--key", "alice")     # her own charts: nothing to say
        cli("submit", "g.yaml", "union-join.yaml")
    pinned = GameFile.load("g.yaml").log[0]["data"]["charts"][WEATHER]["text"]
    assert "[Clear, Clear, Clear]" in pinned and pinned != (paths.games_dir() / "heartland" / WEATHER).read_text()
    return "g.yaml"


def craft(game: str, edit) -> str:
    """The creator rewrites his game's first event before anyone else signed it (``edit`` changes
    its ``charts``), and rehashes the chain: a consistent game, with an identity of its own, which
    he sends to his victim (written to ``bob-g.yaml``, the victim's copy)."""
    gf = GameFile.load(game)
    created = gf.log[0]["data"]
    created["charts"] = edit(created["charts"])
    if created["charts"] is None:
        del created["charts"]
    prev = gf.log[0]["prev"]
    for ev in gf.log:
        ev["prev"] = prev
        ev["hash"] = prev = event_hash(ev)
    gf.header["identity"] = gf.log[0]["hash"]
    gf.header["head"] = {"seq": len(gf.log), "hash": gf.head}
    gf.path = Path("bob-g.yaml")
    gf.save()
    return str(gf.path)


def pinned_text(text: str) -> dict:
    return {"sha256": sha256_hex(text.encode("utf-8")), "text": text}


def with_weather(text: str):
    return lambda charts: {**charts, WEATHER: pinned_text(text)}


# --- 1. a rigged chart pinned by the game's creator -----------------------------------------------


def test_the_victim_is_refused_a_join_to_a_game_with_a_rigged_chart(cli, rigged):
    before = sha(rigged)
    err = cli.fails("join", rigged, "--side", "confederate", "--key", "bob")
    assert "[E507]" in err and "not signed" in err and WEATHER in err and "differs from" in err
    assert "--accept-charts" in err and "--show-charts" in err
    assert not Path("confederate-join.yaml").exists() and sha(rigged) == before


def test_the_victim_reads_the_rigged_cells_before_he_accepts(cli, rigged):
    out = cli("join", rigged, "--side", "confederate", "--key", "bob", "--show-charts").stdout
    assert f"--- published/{WEATHER}" in out and f"+++ game/{WEATHER}" in out
    assert re.search(r"^\+\s+\d+:\s+\[Clear, Clear, Clear\]$", out, flags=re.M)
    assert re.search(r"^-\s+\d+:\s+\[.*(Mud|Snow|Rain).*\]$", out, flags=re.M)
    assert f"differs: {WEATHER} differs from" in out and not Path("confederate-join.yaml").exists()


def test_a_join_accepted_knowingly_is_named_everywhere(cli, rigged):
    out = cli("join", rigged, "--side", "confederate", "--key", "bob", "--accept-charts").stdout
    assert "accepted charts that differ from the published ones" in out and WEATHER in out
    res = cli("submit", rigged, "confederate-join.yaml")
    assert "hxref: warning: this game is played with charts that differ from the published ones" in res.stderr
    assert WEATHER in res.stderr
    st = json.loads(cli("status", rigged, "--json").stdout)
    assert len(st["charts_differ"]) == 1 and st["charts_differ"][0].startswith(f"{WEATHER} differs from")
    assert "played with charts that differ from the published ones" in cli("status", rigged).stdout
    rep = cli("report", rigged, "--format", "text").stdout
    assert re.search(r"charts.*played with charts that differ from the published ones: " + re.escape(WEATHER), rep)
    assert f"NOTICE: the game was played with its pinned {WEATHER}" in cli("audit", rigged).stdout


def test_an_honest_game_says_nothing_about_charts(cli):
    game = new_game(cli)
    cli("join", game, "--side", "union", "--key", "alice")
    res = cli("submit", game, "union-join.yaml")
    assert "warning" not in res.stderr
    assert json.loads(cli("status", game, "--json").stdout)["charts_differ"] == []
    assert "charts" not in cli("report", game, "--format", "text").stdout.split("To verify this report")[0]


@pytest.mark.parametrize("edit, named", [
    (lambda charts: None, "the game pins no charts"),
    (lambda charts: {k: v for k, v in charts.items() if k != WEATHER}, f"{WEATHER} is not pinned"),
    (lambda charts: {**charts, "charts/house_rules.yaml": pinned_text("crt: {1: DE}\n")},
     "charts/house_rules.yaml is not one of the published charts"),
], ids=["no-charts", "weather-left-out", "unknown-chart"])
def test_a_game_that_pins_other_charts_than_the_published_ones_is_refused_at_join(cli, edit, named):
    """Leaving a chart out makes each copy read its own file: the creator's doctored one on his."""
    game = craft(new_game(cli), edit)
    before = sha(game)
    err = cli.fails("join", game, "--side", "confederate", "--key", "bob")
    assert "[E507]" in err and named in err and sha(game) == before


def test_a_template_join_cannot_accept_charts_it_cannot_see(cli):
    game = new_game(cli)
    Path("t.yaml").write_text("hxref: 2\n")
    err = cli.fails("join", "--template", "t.yaml", "--key", "bob", "--accept-charts")
    assert "[E504]" in err and "template holds no charts" in err and Path(game).exists()


# --- 2. crafted chart texts in a game file --------------------------------------------------------

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))   # 10^9 when expanded


@pytest.mark.parametrize("edit, why", [
    (with_weather(BOMB), "uses an anchor (&a)"),
    (with_weather("table: *t\n"), "uses an alias (*t)"),
    (with_weather("- Clear\n- Clear\n"), "is not a mapping"),
    (with_weather("Clear\n"), "is not a mapping"),
    (with_weather(""), "is empty"),
    (with_weather("table: !!python/object/apply:os.system [id]\n"), "uses a YAML tag"),
    (with_weather("rule: '5.2'\nrule: '5.3'\n"), "has the key 'rule' twice"),
    (with_weather("a: 1\n---\nb: 2\n"), "holds more than one YAML document"),
    (with_weather("a: " + "[" * 80 + "]" * 80 + "\n"), "is nested deeper than 64 levels"),
    (with_weather("table: [\n"), "is not valid YAML"),
    (lambda charts: {**charts, "charts/Weather.yaml": charts[WEATHER]}, "'charts/Weather.yaml' is damaged"),
    (lambda charts: {**charts, "charts/../../x.yaml": charts[WEATHER]}, "is damaged"),
    (lambda charts: {**charts, **{f"charts/c{i}.yaml": pinned_text("a: 1\n") for i in range(70)}},
     "pinned charts, at most 64"),
], ids=["alias-bomb", "alias", "list", "scalar", "empty", "tag", "duplicate-key", "two-documents", "deep",
        "syntax", "case-collision", "outside-charts", "too-many"])
def test_a_crafted_pinned_chart_is_refused_with_one_line(cli, edit, why):
    game = craft(new_game(cli), edit)
    before = sha(game)
    for args in (("join", game, "--side", "confederate", "--key", "bob"), ("status", game),
                 ("report", game, "--format", "text")):
        err = cli.fails(*args)
        assert "[E500]" in err and why in err, (args, err)
    assert sha(game) == before and not Path("confederate-join.yaml").exists()


def test_a_huge_pinned_chart_is_refused(cli, monkeypatch):
    """The data limits, made small here so the test file stays small: the same check as 16 MB."""
    monkeypatch.setattr(yamlio, "DATA_LIMITS", yamlio.Limits(max_bytes=32_768, max_depth=64, max_nodes=50_000,
                                                             max_string=65_536))
    game = craft(new_game(cli), with_weather("note: " + "x" * 40_000 + "\n"))
    err = cli.fails("join", game, "--side", "confederate", "--key", "bob")
    assert "[E500]" in err and f"{WEATHER} is larger than 32,768 bytes" in err


def test_a_doctored_data_folder_that_cannot_be_pinned_makes_no_game(cli, tmp_path, monkeypatch):
    doctored = tmp_path / "doctored-games"
    shutil.copytree(paths.games_dir(), doctored)
    (doctored / "heartland" / WEATHER).write_text(BOMB)
    monkeypatch.setattr(paths, "games_dir", lambda: doctored)
    err = cli.fails("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
                    "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    assert "[E102]" in err and "uses an anchor" in err and "weather.yaml" in err and not Path("g.yaml").exists()


def test_the_audit_of_a_crafted_chart_fails_without_a_traceback(cli):
    game = craft(new_game(cli), with_weather(BOMB))
    res = cli("audit", game, code=1)
    assert "uses an anchor (&a)" in res.output and "Traceback" not in res.output


# --- 3. one long process over many games ----------------------------------------------------------


def test_the_read_charts_are_cached_by_content_and_bounded():
    """A batch over many forks, each with its own crafted chart, keeps at most 256 of them."""
    data._plain.cache_clear()
    for i in range(300):
        src = pinning.prepare("heartland", {WEATHER: pinned_text(f"rule: '5.2'\nnote: fork {i}\n")})[WEATHER]
        assert src.data() == {"rule": "5.2", "note": f"fork {i}"}
    assert data._plain.cache_info().currsize <= 256
