"""Attacks through a club's own table (``hxref new --scenario my-scenario.yaml`` whose scenario says
``map: my-table.yaml``): the table is read once, at ``hxref new``, from a file beside the scenario,
pinned in the game's first event, and from then on read from the game only.

1. A scenario someone sent (the club's organiser runs ``hxref new`` on it) names as its map a file
   elsewhere on the organiser's disk: ``../x.yaml``, an absolute path, a sub-folder, or a table file
   that is a symbolic link to another file.  ``hxref new`` would pin that file's text into a game
   the organiser then mails to his opponent.  Each is refused at ``new`` (E503, one line naming the
   scenario or the link), and no game file is written.
2. The table swapped after ``new``: the creator edits his table file (the game goes on with the
   pinned one, and the audit passes); he edits the pinned text in the game file (refused, E500);
   he rewrites text and digest and rehashes the log after his victim joined (the audit refuses:
   the victim's join signs the first event he was shown).
3. The joining player is shown a club's own map with the sha256 of the text the game pins (not of
   a file of that name on his own disk), and reads it with ``--show-charts``; a crafted game
   naming a club's map it does not pin, or a path as its club map, reads nothing from his disk.

Alice (union) is the club's organiser and, where it says so, the cheater; Bob (confederate) joins.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.referee.audit import audit
from hxref.base.canon import sha256_hex
from hxref.base.errors import InvalidInput
from hxref.gamefile.game import GameFile
from hxref.kit import data

from tests.acw_minis.test_club_table import MOVE, club_files
from tests.security.attacker import rehash, sha

SECRET = "secret: the club's bank password\n"


def new(cli, scenario: str = "my-scenario.yaml", mode: str = "open", name: str = "g.yaml"):
    args = ["new", name, "--system", "acw-minis", "--scenario", scenario, "--mode", mode, "--game-id", "club"]
    if mode == "open":
        args += ["--side", "union=alice.pub", "--side", "confederate=bob.pub"]
    return args


def name_the_map(scenario: Path, name: str) -> None:
    text = re.sub(r"(?m)^map: .*$", lambda _: f"map: {name!r}", scenario.read_text(encoding="utf-8"))
    scenario.write_text(text, encoding="utf-8")


def a_valid_table_elsewhere(where: Path, club: Path = Path(".")) -> str:
    """A file the attacker wants pinned: a valid table (so nothing but the path check stops it),
    carrying a secret of the organiser's in its note."""
    where.parent.mkdir(parents=True, exist_ok=True)
    text = (club / "my-table.yaml").read_text(encoding="utf-8").replace("areas:\n", f"note: {SECRET}areas:\n", 1)
    where.write_text(text, encoding="utf-8")
    return str(where)


# --- 1. a scenario naming a file elsewhere on the organiser's disk -------------------------------

@pytest.mark.parametrize("name", ["../secret-table.yaml", "../../secret-table.yaml", "sub/secret-table.yaml",
                                  "./secret-table.yaml", "..\\secret-table.yaml", "../secret-table"])
def test_a_path_as_the_club_map_pins_nothing(cli, tmp_path, name):
    club = tmp_path / "a" / "club"
    scenario = club_files(club)
    for where in (tmp_path / "a" / "secret-table.yaml", tmp_path / "secret-table.yaml",
                  club / "sub" / "secret-table.yaml", club / "secret-table.yaml"):
        a_valid_table_elsewhere(where, club)
    name_the_map(scenario, name)
    err = cli.fails(*new(cli, "a/club/my-scenario.yaml"))
    assert "[E503]" in err and "a/club/my-scenario.yaml" in err and "map: my-table.yaml" in err
    assert not Path("g.yaml").exists() and "bank password" not in err


def test_an_absolute_path_as_the_club_map_pins_nothing(cli, tmp_path):
    scenario = club_files()
    secret = a_valid_table_elsewhere(tmp_path / "elsewhere" / "secret-table.yaml")
    assert os.path.isabs(secret)
    name_the_map(scenario, secret)
    err = cli.fails(*new(cli))
    assert "[E503]" in err and "my-scenario.yaml" in err and not Path("g.yaml").exists()


def test_a_club_map_that_is_a_symbolic_link_pins_nothing(cli, tmp_path):
    """The organiser unpacked the club's archive: its my-table.yaml is a link to another file."""
    club_files()
    a_valid_table_elsewhere(tmp_path / "elsewhere" / "secret-table.yaml")
    Path("my-table.yaml").unlink()
    Path("my-table.yaml").symlink_to(tmp_path / "elsewhere" / "secret-table.yaml")
    err = cli.fails(*new(cli))
    assert "[E503]" in err and "symbolic link" in err and err.startswith("hxref: error: my-table.yaml:")
    assert not Path("g.yaml").exists()


def test_a_link_put_in_place_of_the_table_is_not_followed(cli, tmp_path):
    """The name is opened without following a link: no window between the look and the read."""
    from hxref.base import yamlio

    club_files()
    a_valid_table_elsewhere(tmp_path / "elsewhere" / "secret-table.yaml")
    Path("link.yaml").symlink_to(tmp_path / "elsewhere" / "secret-table.yaml")
    with pytest.raises(InvalidInput) as exc:
        yamlio.read_text("link.yaml", yamlio.DATA_LIMITS, follow=False)
    assert exc.value.code == "E100"


def test_a_club_map_naming_a_terrain_file_elsewhere_is_refused(cli, tmp_path):
    club_files()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "terrain.yaml").write_text((data.folder("acw-minis") / "terrain.yaml").read_text())
    for ref in (str(tmp_path / "elsewhere" / "terrain.yaml"), "../elsewhere/terrain.yaml", "terrain.yaml"):
        text = re.sub(r"(?m)^terrain: .*$", f"terrain: {ref}", Path("my-table.yaml").read_text())
        Path("my-table.yaml").write_text(text)
        err = cli.fails(*new(cli))
        assert "[E503]" in err and "terrain: ../terrain.yaml" in err and not Path("g.yaml").exists()


# --- 2. the table swapped after `hxref new` --------------------------------------------------------

def joined(cli) -> str:
    club_files()
    cli(*new(cli))
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("join", "g.yaml", "--side", side, "--key", key, "--accept-charts")
        cli("submit", "g.yaml", f"{side}-join.yaml")
    return "g.yaml"


def test_the_club_file_edited_after_new_changes_nothing(cli):
    """Alice drains the pond in her file after the game is made: the game is played on the table
    it pinned, and the audit agrees."""
    club_files()
    cli(*new(cli, mode="solo"))
    drained = Path("my-table.yaml").read_text().replace("terrain: lake\n    name: Club", "terrain: town\n    name: Club")
    Path("my-table.yaml").write_text(drained)
    assert "Club Pond" in cli.fails("play", "g.yaml", "--choice", MOVE)
    res = audit("g.yaml")
    assert res.ok and any("club's own map" in n for n in res.notes)


def test_the_pinned_table_edited_in_the_game_file_is_refused(cli):
    game = joined(cli)
    gf = GameFile.load(game)
    entry = gf.log[0]["data"]["charts"]["club-maps/my-table.yaml"]
    entry["text"] = entry["text"].replace("terrain: lake\n    name: Club", "terrain: town\n    name: Club")
    gf.save()
    res = audit(game)
    assert not res.ok
    err = cli.fails("status", game)
    assert "[E500]" in err


def test_the_pinned_table_rewritten_and_rehashed_after_the_join_fails_the_audit(cli):
    """Alice rewrites the table and its digest, and rehashes the whole log: a consistent file, but
    Bob's join signed the identity of the game he was shown, and the audit says so."""
    game = joined(cli)
    gf = GameFile.load(game)
    entry = gf.log[0]["data"]["charts"]["club-maps/my-table.yaml"]
    entry["text"] = entry["text"].replace("terrain: lake\n    name: Club", "terrain: town\n    name: Club")
    entry["sha256"] = sha256_hex(entry["text"].encode("utf-8"))
    rehash(gf)
    gf.save()
    res = audit(game)
    assert not res.ok and res.problems


# --- 3. what the joining player is shown -----------------------------------------------------------

def test_the_joiner_is_shown_a_clubs_own_map_with_the_digest_the_game_pins(cli):
    """Alice mails Bob a pond-less my-table.yaml but makes the game with the pond: the digest Bob is
    shown is the pinned text's, not his file's, and --show-charts shows him the pond."""
    club_files()
    cli(*new(cli))
    pinned = GameFile.load("g.yaml").log[0]["data"]["charts"]["club-maps/my-table.yaml"]["sha256"]
    club_files(Path("bobs"), pond=False)             # what Alice mailed Bob
    Path("my-table.yaml").write_text(Path("bobs/my-table.yaml").read_text())   # and his cwd's copy
    before = sha("g.yaml")
    err = cli.fails("join", "g.yaml", "--side", "confederate", "--key", "bob")
    assert "[E507]" in err and "the map is a club's own, the creator's file my-table.yaml" in err
    assert f"sha256 {pinned[:16]}" in err and sha256_hex(Path("bobs/my-table.yaml").read_bytes())[:16] not in err
    assert sha("g.yaml") == before
    shown = cli("join", "g.yaml", "--side", "confederate", "--key", "bob", "--show-charts").output
    assert "+++ game/club-maps/my-table.yaml" in shown and "+    name: Club Pond" in shown
    signed = cli("join", "g.yaml", "--side", "confederate", "--key", "bob", "--accept-charts").output
    assert f"  map: a club's own, my-table.yaml, sha256 {pinned}" in signed


def crafted(edit) -> str:
    gf = GameFile.load("g.yaml")
    edit(gf.log[0]["data"])
    gf.header["scenario"] = gf.log[0]["data"]["scenario"]
    rehash(gf)
    gf.path = Path("bob-g.yaml")
    gf.save()
    return "bob-g.yaml"


def test_a_club_map_the_game_does_not_pin_is_never_read_from_the_disk(cli):
    """Alice's game names my-table.yaml and pins none: Bob's copy would read his own file of that
    name (in his folder, or planted in his data folder) -- it reads nothing, and says so."""
    club_files()
    cli(*new(cli))
    game = crafted(lambda created: created["charts"].pop("club-maps/my-table.yaml"))
    planted = data.folder("acw-minis") / "club-maps"
    assert not planted.exists()
    cli("join", game, "--side", "union", "--key", "alice", "--accept-charts")
    cli("submit", game, "union-join.yaml")
    cli("join", game, "--side", "confederate", "--key", "bob", "--accept-charts")
    err = cli.fails("submit", game, "confederate-join.yaml")
    assert "[E500]" in err and "does not pin" in err
    with pytest.raises(InvalidInput) as exc:
        Charts.today("acw-minis").map("my-table.yaml")
    assert exc.value.code == "E500"


@pytest.mark.parametrize("name", ["../../secret.yaml", "/etc/passwd.yaml", "sub/x.yaml", "My-Table.yaml"])
def test_a_path_as_a_crafted_games_club_map_reads_nothing(cli, name):
    with pytest.raises(InvalidInput) as exc:
        data.map_key("acw-minis", name)
    assert exc.value.code == "E500" and "crafted scenario" in exc.value.message
    with pytest.raises(InvalidInput):
        Charts.today("acw-minis").map(name)


# --- 4. what holds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("system, folder, scenario", [("heartland", "heartland", "heartland-demo"),
                                                      ("salem-church", "salem_church", "salem-church")])
def test_every_system_with_a_map_plays_on_a_clubs_own(cli, system, folder, scenario):
    games = data.folder(system).parent
    text = (games / folder / "scenarios" / f"{scenario}.yaml").read_text(encoding="utf-8")
    published = re.search(r"(?m)^map: ([a-z0-9-]+)", text).group(1)
    Path("club-map.yaml").write_text((games / folder / "maps" / f"{published}.yaml").read_text(encoding="utf-8"))
    Path("s.yaml").write_text(re.sub(r"(?m)^map: .*$", "map: club-map.yaml", text), encoding="utf-8")
    cli("new", "g.yaml", "--system", system, "--scenario", "s.yaml", "--mode", "solo")
    charts = GameFile.load("g.yaml").log[0]["data"]["charts"]
    assert "club-maps/club-map.yaml" in charts and not any(k.startswith("maps/") for k in charts)
    Path("club-map.yaml").unlink()
    cli("map", "show", "g.yaml", "--svg", "m.svg")
    res = audit("g.yaml")
    assert res.ok and any("club-maps/club-map.yaml" in n for n in res.notes)


def test_a_season_on_one_set_of_charts_takes_the_clubs_table_of_each_scenario(cli):
    """--charts-from an earlier game keeps its charts, but the club's table is the file the new
    scenario names now; a published scenario made from a club game gets the published map."""
    club_files()
    cli(*new(cli, mode="solo", name="first.yaml"))
    Path("my-table.yaml").write_text(Path("my-table.yaml").read_text().replace("name: Club Pond", "name: Club Lake"))
    cli(*new(cli, mode="solo", name="second.yaml"), "--charts-from", "first.yaml")
    charts = GameFile.load("second.yaml").log[0]["data"]["charts"]
    assert "Club Lake" in charts["club-maps/my-table.yaml"]["text"]
    assert sorted(k for k in charts if not k.startswith("club-maps/")) == \
        sorted(k for k in GameFile.load("first.yaml").log[0]["data"]["charts"] if not k.startswith("club-maps/"))
    cli("new", "third.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo",
        "--charts-from", "second.yaml")
    charts = GameFile.load("third.yaml").log[0]["data"]["charts"]
    assert "maps/mercers-mill.yaml" in charts and not any(k.startswith("club-maps/") for k in charts)
