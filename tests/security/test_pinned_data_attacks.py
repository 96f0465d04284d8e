"""Attacks on the data a game pins besides its charts (its map, the terrain file the map names,
its scenario), run as the game's creator runs them: he makes the game, so he writes its game file
and its first event before anyone else signs it, and sends the file to his victim.

1. The header of a game file is a snapshot that commands trust, and a game starts from the
   header's scenario when its last join comes in.  Alice leaves the published scenario in
   ``game.created`` (what every join signs and the join check compares) and writes a doctored
   order of battle into the header: Bob's ``hxref join`` must replay the file before he signs.
2. A pinned map's ``terrain:`` line names a file outside what the game pins (``/etc/passwd``,
   ``../../../etc/passwd``, another system's terrain, a scenario, another map): every copy would
   read its own disk.  Refused with one line (E500) wherever the game is read.
3. The scenario is compared with the published one of its name: a name that is a path, or a
   scenario that differs only in the type of a value (3.0 for 3, false for 0), must be named.
4. Crafted first events (its ``meta`` no mapping, no system, nested 100,000 deep) must give one
   line, never a traceback, in ``join``, ``status``, ``audit`` and ``new --charts-from``.
5. What holds: two games on different pinned maps in one process each read their own; a game
   pinning no map is named; a game made ``--charts-from`` a rigged source game is refused at
   join and named by the audit; a doctored ``pinned-data.yaml`` unmakes the shipped demo.

6. A crafted header meta, a log line nested thousands deep: one line, never an internal error;
   and the audit names a scenario that is not the published one (a notice, as for charts).

Alice (union) is the creator and the cheater, Bob (confederate) her victim; the game is
Heartland's heartland-demo in open mode.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hxref.base import paths
from hxref.referee.audit import audit
from hxref.base.canon import sha256_hex
from hxref.cli import main
from hxref.referee.engine import Engine, map_view
from hxref.gamefile.game import GameFile, event_hash
from hxref.kit.charts import Charts

from tests.security.attacker import rehash, sha

MAP = "maps/demo.yaml"


def new_game(cli, name: str = "h.yaml") -> str:
    cli("new", name, "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open",
        "--game-id", "rigged", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    return name


def craft(game: str, edit, out: str = "bob-h.yaml") -> str:
    """Alice rewrites her game's first event (``edit`` changes it in place) and rehashes the chain
    and the header to match: a consistent game with an identity of its own, sent to Bob."""
    gf = GameFile.load(game)
    created = gf.log[0]["data"]
    edit(created)
    rehash(gf)
    for key in ("meta", "participants", "scenario"):
        if key in created:
            gf.header[key] = created[key]
    gf.path = Path(out)
    gf.save()
    return out


def run(cli, *args: str):
    return cli.runner.invoke(main, list(args))


def one_line_error(res) -> str:
    """The command failed with exit 2 and one error line (no traceback, no internal error)."""
    err = res.stderr.strip()
    assert res.exit_code == 2 and err.startswith("hxref: error: ") and "\n" not in err, res.output
    assert "Traceback" not in res.output and "internal error" not in res.output, res.output
    return err


# --- 1. a doctored scenario in the header snapshot ------------------------------------------------


def tenfold_ammunition(scenario: dict) -> None:
    for leader in scenario["leaders"].values():
        leader["asp"] = leader.get("asp", 0) * 10


def test_a_doctored_scenario_in_the_header_snapshot_is_refused_before_the_victim_signs(cli):
    game = new_game(cli)
    cli("join", game, "--side", "union", "--key", "alice")
    cli("submit", game, "union-join.yaml")
    gf = GameFile.load(game)            # the log (and so the identity) untouched: only the snapshot
    published = {n: ld["asp"] for n, ld in gf.log[0]["data"]["scenario"]["leaders"].items()}
    tenfold_ammunition(gf.header["scenario"])
    gf.save()
    before = sha(game)
    err = one_line_error(run(cli, "join", game, "--side", "confederate", "--key", "bob"))
    assert "[E500]" in err and "the header's scenario differs from the replayed game" in err
    assert not Path("confederate-join.yaml").exists() and sha(game) == before
    assert "[E500]" in one_line_error(run(cli, "join", game, "--side", "confederate", "--key", "bob",
                                          "--show-charts"))
    # accepting different charts is no way around it
    assert "[E500]" in one_line_error(run(cli, "join", game, "--side", "confederate", "--key", "bob",
                                          "--accept-charts"))
    assert not Path("confederate-join.yaml").exists()
    # the honest game, joined by both, starts with the published order of battle
    honest = new_game(cli, "honest.yaml")
    Path("honest").mkdir()
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("join", honest, "--side", side, "--key", key, "--dir", "honest")
        cli("submit", honest, f"honest/{side}-join.yaml")
    assert {n: ld["asp"] for n, ld in Engine.load(honest).state["leaders"].items()} == published


def test_a_doctored_scenario_in_a_snapshot_that_says_the_game_began_is_refused(cli):
    """The same, with the header's phase set to 'playing': the check does not take its word."""
    game = new_game(cli)
    gf = GameFile.load(game)
    tenfold_ammunition(gf.header["scenario"])
    gf.header["phase"] = "playing"
    gf.save()
    err = one_line_error(run(cli, "join", game, "--side", "confederate", "--key", "bob"))
    assert "[E500]" in err and not Path("confederate-join.yaml").exists()


def test_a_scenario_reordered_in_the_header_snapshot_is_not_what_the_game_starts_from(cli):
    """The same order of battle with its leaders and units in another order: equal as mappings, so
    equal to the audit, but the rules walk them in that order (who is found first, who takes a
    loss); an honest game walks them in the log's canonical order (keys sorted).  A file this
    machine did not write is proved, and every command starts from the replay's header, in the
    log's order: the reordered snapshot is never read, and never vouched for."""
    game = new_game(cli)
    gf = GameFile.load(game)
    sc = gf.header["scenario"]
    for key in ("leaders", "units"):
        sc[key] = dict(reversed(list(sc[key].items())))
    gf.save()
    assert GameFile.load(game).header["scenario"] == GameFile.load(game).log[0]["data"]["scenario"]
    canonical = {key: list(GameFile.load(game).log[0]["data"]["scenario"][key]) for key in ("leaders", "units")}
    assert all(list(sc[key]) != canonical[key] for key in canonical)
    for _ in range(2):          # and again: the reordered file is proved anew, not believed
        eng = Engine.load(game)
        assert {key: list(eng.h["scenario"][key]) for key in canonical} == canonical
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("join", game, "--side", side, "--key", key)
        cli("submit", game, f"{side}-join.yaml")
    leaders = Engine.load(game).state["leaders"]
    assert list(leaders) == [n for n in canonical["leaders"] if n in leaders]


def test_a_doctored_deadline_in_the_header_snapshot_is_refused(cli):
    """The join decision opened years ago in the snapshot: a claim against the victim would pass."""
    game = new_game(cli)
    gf = GameFile.load(game)
    gf.header["awaiting"][0]["opened"]["at"] = "2020-01-01T00:00:00Z"
    gf.save()
    err = one_line_error(run(cli, "join", game, "--side", "confederate", "--key", "bob"))
    assert "[E500]" in err and not Path("confederate-join.yaml").exists()


# --- 2. a pinned map naming a terrain file the game does not pin -----------------------------------


@pytest.mark.parametrize("ref", ["/etc/passwd", "../../../../../../../../etc/passwd", "../../kgp/terrain.yaml",
                                 "../../heartland/terrain.yaml", "../scenarios/heartland-demo.yaml",
                                 "sample.yaml"])
def test_a_pinned_map_naming_a_terrain_file_outside_the_game_is_refused(cli, ref):
    game = new_game(cli)

    def terrain_elsewhere(created):
        text = re.sub(r"^terrain: .*$", f"terrain: {ref}", created["charts"][MAP]["text"], flags=re.M)
        created["charts"][MAP] = {"sha256": sha256_hex(text.encode("utf-8")), "text": text}

    bob = craft(game, terrain_elsewhere)
    before = sha(bob)
    for args in (("join", bob, "--side", "confederate", "--key", "bob"),
                 ("join", bob, "--side", "confederate", "--key", "bob", "--accept-charts"),
                 ("status", bob)):
        err = one_line_error(run(cli, *args))
        assert "[E500]" in err and "does not pin" in err, (args, err)
    assert not Path("confederate-join.yaml").exists() and sha(bob) == before
    res = audit(bob)
    assert not res.ok and any("does not pin" in p for p in res.problems), res.problems


def test_a_map_naming_the_published_terrain_is_still_played(cli):
    game = new_game(cli)
    pinned = GameFile.load(game).log[0]["data"]["charts"]
    assert re.search(r"^terrain: \.\./terrain\.yaml", pinned[MAP]["text"], flags=re.M)
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("join", game, "--side", side, "--key", key)
        cli("submit", game, f"{side}-join.yaml")
    assert audit(game).ok
    cli("map", "show", game, "--side", "union", "--svg", "m.svg")
    assert "<svg" in Path("m.svg").read_text()


def _cheaper_swamps_and_a_new_title(created):
    charts = created["charts"]
    for rel, edit in ((MAP, lambda t: t.replace("title: ", "title: Doctored ", 1)),
                      ("terrain.yaml", lambda t: re.sub(r"(swamp:\s+\{[^}]*move: )3", r"\g<1>1", t))):
        text = edit(charts[rel]["text"])
        assert text != charts[rel]["text"]
        charts[rel] = {"sha256": sha256_hex(text.encode("utf-8")), "text": text}


def test_two_games_in_one_process_each_read_their_own_pinned_map(cli):
    """The map cache is by content: the doctored game's map and terrain never serve the honest
    one, nor the other way round, whatever order one process reads them in (a mail batch)."""
    honest = new_game(cli, "honest.yaml")
    rigged = craft(new_game(cli, "r.yaml"), _cheaper_swamps_and_a_new_title, out="rigged.yaml")
    for game, folder in ((honest, "h"), (rigged, "r")):
        Path(folder).mkdir()
        for side, key in (("union", "alice"), ("confederate", "bob")):
            cli("join", game, "--side", side, "--key", key, "--dir", folder, "--accept-charts")
            cli("submit", game, f"{folder}/{side}-join.yaml")
    for _ in range(2):
        a, b = map_view(honest, "union").hexmap, map_view(rigged, "union").hexmap
        assert not a.title.startswith("Doctored") and b.title.startswith("Doctored")
        assert (a.types["hex"]["swamp"].move, b.types["hex"]["swamp"].move) == (3, 1)
        assert Engine.load(rigged).system.charts.map("demo").types["hex"]["swamp"].move == 1
        assert Engine.load(honest).system.charts.map("demo").types["hex"]["swamp"].move == 3
        assert Charts.today("heartland").map("demo").types["hex"]["swamp"].move == 3     # no game: the disk


def test_a_game_that_pins_no_map_is_named_to_the_joining_player(cli):
    game = new_game(cli)
    bob = craft(game, lambda c: c["charts"].pop(MAP))
    err = one_line_error(run(cli, "join", bob, "--side", "confederate", "--key", "bob"))
    assert "[E507]" in err and f"{MAP} is not pinned (each copy would read its own file)" in err


@pytest.mark.parametrize("name", ["m" * 5000, "de\x00mo", "../maps/demo"])
def test_a_scenario_naming_a_crafted_map_name_is_named_in_one_line(cli, name):
    game = new_game(cli)
    bob = craft(game, lambda c: c["scenario"].__setitem__("map", name))
    err = one_line_error(run(cli, "join", bob, "--side", "confederate", "--key", "bob"))
    assert "[E507]" in err and "the scenario heartland-demo differs from the published one" in err


def test_a_first_event_without_its_scenario_is_refused_at_join(cli):
    """The comparison skips a scenario the first event lacks; the game would start from the header's."""
    game = new_game(cli)
    scenario = GameFile.load(game).header["scenario"]
    bob = craft(game, lambda c: c.pop("scenario"))
    gf = GameFile.load(bob)
    gf.header["scenario"] = scenario
    gf.save()
    assert "[E500]" in one_line_error(run(cli, "join", bob, "--side", "confederate", "--key", "bob"))


WEATHER = "charts/weather.yaml"


def all_clear(created):
    """The Weather Table (5.2) all Clear in the pinned copy: the cheater's favourite weather."""
    old = created["charts"][WEATHER]["text"]
    text = re.sub(r"^(\s+\d+:\s+)\[.*\]$", lambda m: f"{m.group(1)}[Clear, Clear, Clear]", old, flags=re.M)
    assert text != old
    created["charts"][WEATHER] = {"sha256": sha256_hex(text.encode("utf-8")), "text": text}


def test_a_game_made_from_a_rigged_source_game_is_caught_by_the_joiner(cli):
    """Alice crafts a source game (nobody ever signs it) and makes the real one ``--charts-from`` it."""
    source = craft(new_game(cli, "s.yaml"), all_clear, out="source.yaml")
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", "--charts-from", source)
    err = one_line_error(run(cli, "join", "g.yaml", "--side", "confederate", "--key", "bob"))
    assert "[E507]" in err and f"{WEATHER} differs from" in err
    res = audit("g.yaml")
    assert res.ok and [c["chart"] for c in res.charts_changed] == [WEATHER]


def test_a_season_game_made_from_a_game_on_another_map_says_nothing_to_the_joiner(cli):
    """An honest ``--charts-from`` must not pin a map the new scenario does not name: the joiner
    would be refused for it, and learn to pass ``--accept-charts`` by habit."""
    first = new_game(cli, "first.yaml")
    assert MAP in GameFile.load(first).log[0]["data"]["charts"]
    cli("new", "next.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", "--charts-from", first)
    pinned = GameFile.load("next.yaml").log[0]["data"]["charts"]
    assert not any(rel.startswith("maps/") for rel in pinned)
    cli("join", "next.yaml", "--side", "confederate", "--key", "bob")
    assert Path("confederate-join.yaml").exists()


def test_a_doctored_pinned_data_file_unmakes_the_shipped_demo(cli, tmp_path, monkeypatch):
    """The demo's signed files name the identity its pinned data gives: a Weather Table doctored in
    ``pinned-data.yaml`` makes another game, whose first signed file is refused; nothing says OK."""
    orders = tmp_path / "orders-copy"
    shutil.copytree(paths.orders_dir(), orders)
    pinned = orders / "heartland" / "bidding-demo" / "pinned-data.yaml"
    gf = GameFile.load(pinned)
    all_clear(gf.log[0]["data"])
    gf.log[0]["hash"] = event_hash(gf.log[0])
    gf.header["identity"] = gf.header["head"]["hash"] = gf.log[0]["hash"]
    gf.save()
    monkeypatch.setattr(paths, "orders_dir", lambda: orders)
    res = cli.runner.invoke(main, ["demo", "--scenario", "bidding-demo", "--keep", str(tmp_path / "play"),
                                   "--format", "text"])
    assert res.exit_code != 0 and "demo step failed" in res.output and "E300" in res.output, res.output[-800:]
    assert "audit OK" not in res.output


# --- 3. the scenario's name and the types of its values ---------------------------------------------


@pytest.mark.parametrize("name", ["../scenarios/heartland-demo", "./heartland-demo",
                                  str(paths.games_dir() / "heartland" / "scenarios" / "heartland-demo")])
def test_a_scenario_named_by_a_path_is_not_a_published_one(cli, name):
    game = new_game(cli)
    bob = craft(game, lambda c: c["meta"].__setitem__("scenario", name))
    err = one_line_error(run(cli, "join", bob, "--side", "confederate", "--key", "bob"))
    assert "[E507]" in err and "is not one of the published ones" in err
    assert not Path("confederate-join.yaml").exists()


@pytest.mark.parametrize("edit", ["float", "bool"])
def test_a_scenario_that_differs_only_in_the_type_of_a_value_is_named(cli, edit):
    game = new_game(cli)
    published = GameFile.load(game).log[0]["data"]["scenario"]["leaders"]["calloway"]
    assert published["asp"] == 3 and published["brevet"] == 0

    def retype(created):
        ld = created["scenario"]["leaders"]["calloway"]
        if edit == "float":
            ld["asp"] = 3.0         # == 3 in Python, another value in the log and to the rules
        else:
            ld["brevet"] = False    # == 0 in Python

    bob = craft(game, retype)
    err = one_line_error(run(cli, "join", bob, "--side", "confederate", "--key", "bob"))
    assert "[E507]" in err and "the scenario heartland-demo differs from the published one" in err
    shown = run(cli, "join", bob, "--side", "confederate", "--key", "bob", "--show-charts").stdout
    assert re.search(r"^\+.*(asp: 3\.0|brevet: false)", shown, flags=re.M), shown


# --- 4. crafted first events: one line, never a traceback -------------------------------------------


def test_a_first_event_whose_meta_is_no_mapping_gives_one_line_at_join(cli):
    """Alice's first event holds a list for its meta, her header the published meta: Bob's join,
    which replays the file, gets one line."""
    game = new_game(cli)
    meta = GameFile.load(game).header["meta"]
    bob = craft(game, lambda c: c.__setitem__("meta", [1]))
    gf = GameFile.load(bob)
    gf.header["meta"] = meta
    gf.save()
    assert "[E500]" in one_line_error(run(cli, "join", bob, "--side", "confederate", "--key", "bob"))
    assert "[E500]" in one_line_error(run(cli, "status", bob))


def test_charts_from_a_game_whose_meta_is_no_mapping_gives_one_line(cli):
    game = new_game(cli)
    src = craft(game, lambda c: c.__setitem__("meta", [1]), out="source.yaml")
    err = one_line_error(run(cli, "new", "n.yaml", "--system", "heartland", "--scenario", "heartland-demo",
                             "--mode", "solo", "--side", "union", "--side", "confederate", "--charts-from", src))
    assert "[E504]" in err and not Path("n.yaml").exists()


@pytest.mark.parametrize("edit", ["meta_list", "no_system"])
def test_a_crafted_meta_gives_one_line_in_every_command(cli, edit):
    game = new_game(cli)
    bob = craft(game, (lambda c: c.__setitem__("meta", [1])) if edit == "meta_list"
                else (lambda c: c["meta"].pop("system")))
    for args in (("join", bob, "--side", "confederate", "--key", "bob"), ("status", bob), ("audit", bob)):
        res = run(cli, *args)
        assert res.exit_code in (1, 2) and "internal error" not in res.output, (args, res.output)


def test_a_deeply_nested_first_event_gives_one_line(cli):
    game = new_game(cli)
    text = Path(game).read_text()
    deep = "[" * 100_000 + "]" * 100_000
    Path(game).write_text(text.replace('"scenario":{', f'"deep":{deep},"scenario":{{', 1))
    res = run(cli, "join", game, "--side", "confederate", "--key", "bob")
    assert res.exit_code == 2 and "internal error" not in res.output, res.output


def test_the_audit_names_a_doctored_scenario(cli):
    """A third party (a tournament director) audits a game made on a doctored order of battle."""
    game = new_game(cli)
    bob = craft(game, lambda c: tenfold_ammunition(c["scenario"]))
    res = audit(bob)
    assert res.ok
    assert any("scenario" in n for n in res.notes), res.notes
