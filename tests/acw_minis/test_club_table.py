"""A club plays on its own table: a scenario file of the club's own names its own table file
(``map: my-table.yaml``, beside the scenario), ``hxref new`` pins it in the game's first event, and
the game is played, drawn and audited on that table, whatever becomes of the file afterwards."""
from __future__ import annotations

import re
from pathlib import Path

from hxref.referee.audit import audit
from hxref.base.canon import sha256_hex
from hxref.gamefile.game import GameFile
from hxref.kit import data

PUBLISHED = data.folder("acw-minis")
#: a lake the club put across the Valley Road, just north of Pruett's Brigade (us-3 at (34, 4))
CLUB_POND = ("  - terrain: lake\n    name: Club Pond\n    polygon: [[30, 7], [38, 7], [38, 12], [30, 12]]\n")
MOVE = "{moves: [{unit: us-3, advance: 6}], shots: []}"


def club_files(folder: Path = Path("."), table: str = "my-table.yaml", pond: bool = True) -> Path:
    """The club's scenario (the published one, on its own table) and its table (the published one
    with a pond across us-3's way north), written into ``folder``; returns the scenario file."""
    text = (PUBLISHED / "maps" / "mercers-mill.yaml").read_text(encoding="utf-8")
    if pond:
        text = text.replace("areas:\n", "areas:\n" + CLUB_POND, 1)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / table).write_text(text, encoding="utf-8")
    scen = (PUBLISHED / "scenarios" / "mercers-mill.yaml").read_text(encoding="utf-8")
    scen, n = re.subn(r"(?m)^map: .*$", f"map: {table}", scen)
    assert n == 1
    (folder / "my-scenario.yaml").write_text(scen, encoding="utf-8")
    return folder / "my-scenario.yaml"


def test_the_published_scenario_refused_before_is_now_a_club_game(cli):
    """The finding: a scenario naming its own table file was refused as 'a crafted scenario'
    (E500) when its game started.  Now the table is pinned at `hxref new` and played on."""
    club_files()
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "my-scenario.yaml", "--mode", "solo")
    created = GameFile.load("g.yaml").log[0]["data"]
    pinned = created["charts"]["club-maps/my-table.yaml"]
    assert pinned["sha256"] == sha256_hex(Path("my-table.yaml").read_bytes())
    assert "maps/mercers-mill.yaml" not in created["charts"]           # only the table it is played on
    err = cli.fails("play", "g.yaml", "--choice", MOVE)
    assert "Club Pond" in err and "A3" in err                          # the club's table, not the published one
    out = cli("play", "g.yaml", "--choice", "{moves: [{unit: us-4, advance: 6}], shots: []}").output
    assert "resolved t1.union" in out
    assert audit("g.yaml").ok


def test_a_club_scenario_in_a_folder_of_its_own_with_a_yml_table(cli):
    club_files(Path("club"), table="our-table.yml")
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "club/my-scenario.yaml", "--mode", "solo")
    assert "club-maps/our-table.yaml" in GameFile.load("g.yaml").log[0]["data"]["charts"]
    assert "Club Pond" in cli.fails("play", "g.yaml", "--choice", MOVE)


def test_the_club_table_is_drawn_from_the_game(cli, tmp_path):
    club_files()
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "my-scenario.yaml", "--mode", "solo")
    Path("my-table.yaml").unlink()                              # drawn from the game, not the club's disk
    cli("map", "show", "g.yaml", "--svg", "t.svg")
    assert "Club Pond" in Path("t.svg").read_text(encoding="utf-8")


def test_a_club_table_with_its_own_terrain_types_inline(cli):
    club_files()
    table = Path("my-table.yaml").read_text(encoding="utf-8")
    inline = (PUBLISHED / "terrain.yaml").read_text(encoding="utf-8")
    inline = "terrain:\n" + "".join(f"  {line}\n" if line.strip() else "\n" for line in inline.splitlines()
                                    if not line.startswith("#"))
    Path("my-table.yaml").write_text(re.sub(r"(?m)^terrain: .*$", lambda _: inline.rstrip("\n"), table),
                                     encoding="utf-8")
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "my-scenario.yaml", "--mode", "solo")
    assert "Club Pond" in cli.fails("play", "g.yaml", "--choice", MOVE)


def test_a_bad_club_table_is_refused_at_new_naming_the_table(cli):
    club_files()
    Path("my-table.yaml").write_text(Path("my-table.yaml").read_text().replace("terrain: lake", "terrain: lave"))
    err = cli.fails("new", "g.yaml", "--system", "acw-minis", "--scenario", "my-scenario.yaml", "--mode", "solo")
    assert err.startswith("hxref: error: my-table.yaml:") and "lave" in err and not Path("g.yaml").exists()


def test_a_scenario_naming_no_map_of_the_system_is_refused_at_new(cli):
    club_files(table="my-table")         # no .yaml: a published map's name, and there is none of it
    err = cli.fails("new", "g.yaml", "--system", "acw-minis", "--scenario", "my-scenario.yaml", "--mode", "solo")
    assert "[E503]" in err and "my-scenario.yaml" in err and "map: my-table.yaml" in err
    assert not Path("g.yaml").exists()


def test_an_umpired_players_home_check_on_a_club_table_leaves_the_rules_to_the_umpire(tmp_path):
    """A view carries no pinned files: the player's check at home says so, and the umpire's hxref,
    which holds the game and its table, checks the rules (the pond refuses the move)."""
    from tests.mail.test_side_view import Table, _literal

    class ClubTable(Table):
        def run(self, who, *args, **kw):        # the umpire reads the club's files, and accepts them
            extra = ("--accept-charts",) if who == "umpire" and args[0] == "join" else ()
            return super().run(who, *args, *extra, **kw)

    scenario = club_files(tmp_path / "club")
    t = ClubTable(tmp_path / "t", "acw-minis", str(scenario.resolve()))
    got = t.mail("union", "m1")
    text = re.sub(r"(?ms)^choice:.*", "choice: " + MOVE + "\n", got["template"].read_text())
    got["template"].write_text(text)
    out = t.run("union", *_literal(got["template"], t.key("union"))).output
    assert "club's own map (my-table.yaml)" in out and "the umpire's hxref checks them" in out
    res = t.run("umpire", "check", t.game, got["template"].parent / "union-t1.union.yaml", code=2)
    assert "Club Pond" in res.output
