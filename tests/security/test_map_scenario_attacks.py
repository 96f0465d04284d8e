"""Attacks through the data a game is made with besides its charts: its map, the terrain types
(the terrain effects chart the map names) and the scenario, run as a cheater runs them, with a
doctored copy of hxref's data folder on his own machine, his key and the game file.

Alice makes a Heartland game on the heartland-demo map with a doctored ``games/``: a bridge over
the Sallow where the map has none, cheaper swamps, or twice the ammunition in her order of battle.
``game.created`` holds what she made it with, and Bob's join would sign it.  His ``hxref join``
compares the game's map, terrain types and scenario with his own hxref's and refuses to sign
(E507), naming each file, until he has read them (``--show-charts``) and accepts them
(``--accept-charts``).  An honest game says nothing, and goes on with the map it was made with
when the map file changes (the owner publishes a corrected map): the audit says so as a notice.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.base import paths
from hxref.referee.audit import audit
from hxref.referee.engine import Engine, map_view
from hxref.gamefile.game import GameFile

from tests.security.attacker import sha

MAP = "maps/demo.yaml"
TERRAIN = "terrain.yaml"


def new_game(cli, name: str = "h.yaml") -> str:
    cli("new", name, "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open",
        "--game-id", "rigged", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    return name


def cheaper_swamps(text: str) -> str:
    return re.sub(r"(swamp:\s+\{[^}]*move: )3", r"\g<1>1", text)


def more_ammunition(text: str) -> str:
    """Every leader's artillery supply points (ASP) doubled in the scenario's order of battle."""
    return re.sub(r"(\basp: )(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) * 2}", text)


DOCTORINGS = {
    "map": (Path("heartland") / MAP, lambda t: t.replace("title:", "title: Doctored", 1) + "\n", MAP),
    "terrain": (Path("heartland") / TERRAIN, cheaper_swamps, TERRAIN),
    "scenario": (Path("heartland") / "scenarios" / "heartland-demo.yaml", more_ammunition, "the scenario heartland-demo"),
}


@pytest.fixture(params=sorted(DOCTORINGS))
def rigged(request, cli, tmp_path, monkeypatch):
    """A game Alice made with one doctored file, and joined herself; then the data folder is
    Bob's again.  Returns (game, the name the refusal must give)."""
    rel, edit, named = DOCTORINGS[request.param]
    doctored = tmp_path / "doctored-games"
    shutil.copytree(paths.games_dir(), doctored)
    path = doctored / rel
    text = path.read_text()
    assert edit(text) != text, "the doctoring changes nothing"
    path.write_text(edit(text))
    with monkeypatch.context() as m:
        m.setattr(paths, "games_dir", lambda: doctored)
        game = new_game(cli)
        cli("join", game, "--side", "union", "--key", "alice")       # her own files: nothing to say
        cli("submit", game, "union-join.yaml")
    return game, named


def test_the_victim_is_refused_a_join_to_a_game_made_with_doctored_data(cli, rigged):
    game, named = rigged
    before = sha(game)
    err = cli.fails("join", game, "--side", "confederate", "--key", "bob")
    assert "[E507]" in err and "not signed" in err and named in err
    assert not Path("confederate-join.yaml").exists() and sha(game) == before


def test_the_victim_reads_what_was_doctored_before_he_accepts(cli, rigged):
    game, named = rigged
    out = cli("join", game, "--side", "confederate", "--key", "bob", "--show-charts").stdout
    assert re.search(r"^\+\+\+ game/", out, flags=re.M) and re.search(r"^-", out, flags=re.M)
    assert f"differs: {named}" in out
    assert not Path("confederate-join.yaml").exists()


def test_a_join_accepted_knowingly_is_named_in_status_and_report(cli, rigged):
    game, named = rigged
    cli("join", game, "--side", "confederate", "--key", "bob", "--accept-charts")
    cli("submit", game, "confederate-join.yaml")
    st = json.loads(cli("status", game, "--json").stdout)
    assert any(named in line for line in st["charts_differ"]), st["charts_differ"]
    assert named in cli("report", game, "--format", "text").stdout


def test_an_honest_game_pins_its_map_and_terrain_and_says_nothing(cli):
    game = new_game(cli)
    pinned = GameFile.load(game).log[0]["data"]["charts"]
    assert MAP in pinned and TERRAIN in pinned
    assert not any(k.startswith("maps/") and k != MAP for k in pinned)      # only the scenario's own map
    assert pinned[MAP]["text"] == (paths.games_dir() / "heartland" / MAP).read_text()
    cli("join", game, "--side", "union", "--key", "alice")
    cli("join", game, "--side", "confederate", "--key", "bob")
    res = cli("submit", game, "union-join.yaml", "confederate-join.yaml")
    assert "warning" not in res.stderr
    assert json.loads(cli("status", game, "--json").stdout)["charts_differ"] == []


def test_the_game_goes_on_with_its_pinned_map_when_the_file_changes(cli, tmp_path, monkeypatch):
    copy = tmp_path / "games-now"
    shutil.copytree(paths.games_dir(), copy)
    monkeypatch.setattr(paths, "games_dir", lambda: copy)
    game = new_game(cli)
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("join", game, "--side", side, "--key", key)
        cli("submit", game, f"{side}-join.yaml")
    before = map_view(game, "union").hexmap
    mapfile = copy / "heartland" / MAP
    mapfile.write_text(mapfile.read_text().replace("title:", "title: Corrected", 1))
    (copy / "heartland" / TERRAIN).write_text(cheaper_swamps((copy / "heartland" / TERRAIN).read_text()))
    now = map_view(game, "union").hexmap
    assert now.title == before.title and "Corrected" not in now.title
    swamp = now.types["hex"]["swamp"]
    assert swamp.move == 3                                     # the pinned terrain types, not today's 1
    svg = cli("map", "show", game, "--side", "union", "--svg", "m.svg")
    assert svg.exit_code == 0 and "Corrected" not in Path("m.svg").read_text()
    res = audit(game)
    assert res.ok, res.problems
    assert sorted(c["chart"] for c in res.charts_changed) == [MAP, TERRAIN]
    assert all(n.startswith("NOTICE: ") for n in res.notes)
    # a game made today is made with today's files
    cli("new", "today.yaml", "--system", "heartland", "--scenario", "heartland-demo", "--mode", "solo",
        "--side", "union", "--side", "confederate")
    assert "Corrected" in Engine.load("today.yaml").gf.log[0]["data"]["charts"][MAP]["text"]


def test_a_club_scenario_file_is_named_to_the_joining_player(cli):
    shutil.copy(paths.games_dir() / "heartland" / "scenarios" / "heartland-demo.yaml", "club.yaml")
    cli("new", "c.yaml", "--system", "heartland", "--scenario", "club.yaml", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    err = cli.fails("join", "c.yaml", "--side", "confederate", "--key", "bob")
    assert "[E507]" in err and "the creator's own file club.yaml" in err
    cli("join", "c.yaml", "--side", "confederate", "--key", "bob", "--accept-charts")
    assert Path("confederate-join.yaml").exists()


def test_an_honest_game_with_optional_rules_is_joined_without_a_word(cli):
    cli("new", "o.yaml", "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open",
        "--option", "sickness", "--option", "dense_fog", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "o.yaml", "--side", "confederate", "--key", "bob")
    assert Path("confederate-join.yaml").exists()


def test_an_option_the_system_does_not_have_slipped_into_the_scenario_is_named(cli):
    from tests.security.test_chart_attacks import craft

    game = new_game(cli)

    gf = GameFile.load(game)
    crafted = dict(gf.log[0]["data"]["scenario"], options={"double_supply": True, "sickness": True})
    crafted = dict(sorted(crafted.items()))                  # in the log's canonical order, as hxref writes it
    gf.log[0]["data"]["scenario"] = gf.header["scenario"] = crafted        # the log and its snapshot
    gf.save()
    game = craft(game, lambda charts: charts)       # rehashed: a consistent game of its own identity
    err = cli.fails("join", game, "--side", "confederate", "--key", "bob")
    # refused before the comparison: the game's first event holds an option its system lacks
    assert "[E500]" in err and "heartland has no optional rule double_supply" in err


@pytest.mark.parametrize("name", ["../../kgp/maps/sample", "../scenarios/heartland-demo", "/etc/passwd"])
def test_a_scenario_naming_a_map_outside_the_maps_folder_reads_nothing(cli, name):
    """The creator's scenario names a file elsewhere on every player's disk as its map."""
    from tests.security.test_chart_attacks import craft

    game = new_game(cli)
    gf = GameFile.load(game)
    crafted = dict(gf.log[0]["data"]["scenario"], map=name)
    gf.log[0]["data"]["scenario"] = gf.header["scenario"] = crafted
    gf.save()
    game = craft(game, lambda charts: charts)
    err = cli.fails("join", game, "--side", "confederate", "--key", "bob")
    assert "[E507]" in err and "the scenario heartland-demo differs" in err
    from hxref.base.errors import InvalidInput

    with pytest.raises(InvalidInput) as exc:
        Charts.today("heartland").map(name)
    assert exc.value.code == "E500" and "no map name" in exc.value.message
