"""``hxref map check|show``, invoked on the click group directly."""
from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli.map import map_group
from hxref.base.errors import HxrefError, InvalidInput
from hxref.kit.protocol import MapView

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SAMPLE = str(ROOT / "games/heartland/maps/sample.yaml")


def run(*args, code=0):
    res = CliRunner().invoke(map_group, list(args), catch_exceptions=False)
    assert res.exit_code == code, res.output
    return res


def test_check_good_map():
    res = run("check", SAMPLE)
    assert res.stdout == f"{SAMPLE}: OK (hex map, 120 hexes, 31 hexsides with features, 2 roads/railroads; stand-in map)\n"
    table = str(ROOT / "games/acw_minis/maps/sample-table.yaml")
    assert "table 36 x 36 inches, 4 areas, 1 rivers, 2 roads" in run("check", table).stdout


def test_check_bad_map_lists_every_problem_and_exits_2():
    bad = str(HERE / "maps/bad.yaml")
    res = run("check", bad, code=2)
    lines = res.stderr.splitlines()
    assert lines[-1] == f"hxref: {bad}: 7 problems"
    assert [line.split(":")[1] for line in lines[:-1]] == ["18", "20", "21", "23", "25", "26", "29"]
    assert all(line.startswith(f"{bad}:") and line.endswith("]") for line in lines[:-1])
    for words in ("unknown terrain type 'wods'", "not adjacent", "jumps from 0201 to 0401", "given twice", "is not on this map"):
        assert words in res.stderr
    assert res.stdout == ""


def test_check_missing_file():
    res = run("check", "no/such/map.yaml", code=2)
    assert "no/such/map.yaml: cannot read the file" in res.stderr


def test_show_in_the_terminal():
    res = run("show", SAMPLE)
    assert "Heartland sample map (stand-in)" in res.stdout and "0705" in res.stdout and "Major river" in res.stdout


def test_show_svg(tmp_path):
    out = tmp_path / "map.svg"
    res = run("show", str(ROOT / "games/kgp/maps/sample.yaml"), "--svg", str(out))
    assert res.stdout == f"wrote {out}\n"
    svg = out.read_text()
    assert svg.startswith("<svg") and ">J14<" in svg  # short labels on the picture
    assert "<title>StJ14: Open ground</title>" in svg  # full labels in the tooltips


def test_side_is_for_games_only():
    with pytest.raises(InvalidInput, match="--side is for game files"):
        run("show", SAMPLE, "--side", "union")


def test_show_a_game_uses_map_view(tmp_path, monkeypatch):
    game = tmp_path / "game.yaml"
    game.write_text("meta: {game: g1}\nstate: {}\n")
    calls = []

    def map_view(path, side):
        calls.append((path, side))
        units = [{"id": "u1", "side": "union", "label": "Rosecrans", "kind": "army", "hex": "0705"}]
        return MapView(Path(SAMPLE), units if side == "union" else [])

    fake = types.ModuleType("hxref.referee.engine")
    fake.map_view = map_view
    monkeypatch.setitem(sys.modules, "hxref.referee.engine", fake)
    out = tmp_path / "union.svg"
    run("show", str(game), "--side", "union", "--svg", str(out))
    assert calls == [(str(game), "union")]
    svg = out.read_text()
    assert "Rosecrans" in svg and "what union sees" in svg
    res = run("show", str(game), "--side", "confederate")
    assert "Rosecrans" not in res.stdout and "what confederate sees" in res.stdout


def test_show_a_game_without_map_view(tmp_path, monkeypatch):
    game = tmp_path / "game.yaml"
    game.write_text("meta: {game: g1}\n")
    monkeypatch.setitem(sys.modules, "hxref.referee.engine", types.ModuleType("hxref.referee.engine"))
    with pytest.raises(HxrefError) as exc:
        run("show", str(game))
    assert "needs hxref.referee.engine.map_view" in exc.value.render() and exc.value.code == "E504"


def test_every_command_has_help_with_an_example():
    for name, cmd in map_group.commands.items():
        assert cmd.help and "Example" in cmd.help, name
        assert "Example" in run(name, "--help").stdout


def test_show_png_of_a_map_file(tmp_path):
    # the PNG is rendered in Python (resvg): a PNG signature and the picture's size at twice the SVG's
    from hxref.report.mappng import png_size

    out = tmp_path / "map.png"
    res = run("show", SAMPLE, "--png", str(out))
    assert res.stdout == f"wrote {out}\n"
    png = out.read_bytes()
    w, h = png_size(png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and 500 <= w <= 1100 and h > 300
