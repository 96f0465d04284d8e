"""The shipped demo game, golden reports, and the command-line documentation."""
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo") / "play"
    res = CliRunner().invoke(main, ["demo", "--scenario", "bidding-demo", "--keep", str(folder), "--format", "text"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return folder, res.output


def test_demo_plays_the_whole_game(demo_run):
    folder, out = demo_run
    assert "$ hxref submit game.yaml union-t1.bid-commit.yaml" in out
    assert re.search(r"audit OK: 71 events replayed; 21 signatures verified, 8 commitments opened", out)
    assert "Game over after turn 3" in out
    for who in ("public", "union", "confederate"):
        for ext in ("md", "html"):
            assert (folder / f"report-{who}.{ext}").stat().st_size > 500


def test_demo_outcome(demo_run):
    import json

    folder, _ = demo_run
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        res = CliRunner().invoke(main, ["report", "game.yaml", "--format", "json"], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    hist = json.loads(res.output)["view"]["history"]
    # turn 1: tie at 3, then 2-4: Confederates first; C4 U2, then C1 U1 U1 (5.15, 5.17)
    assert [(b["union"], b["confederate"]) for b in hist[0]["bids"]] == [(3, 3), (2, 4)]
    assert [(i["side"][0], i["level"]) for i in hist[0]["impulses"]] == [
        ("c", 4), ("u", 2), ("c", 1), ("u", 1), ("u", 1)]
    # turn 2: Union full bid (5.14): U4, then C2 and C3 in a row
    assert [(i["side"][0], i["level"]) for i in hist[1]["impulses"]] == [("u", 4), ("c", 2), ("c", 3)]
    # turn 3: June, Union passes, Confederates 4 of 5 -> monopoly 3 + 2 (5.13a), Clear without a roll (5.2)
    assert hist[2]["outcome"] == "monopoly" and hist[2]["weather"] == {"result": "Clear", "roll": None,
                                                                      "stand_in": False}
    assert [(i["side"][0], i["level"]) for i in hist[2]["impulses"]] == [("c", 3), ("c", 2)]


@pytest.mark.parametrize("who", ["public", "union"])
def test_golden_reports(demo_run, who):
    folder, _ = demo_run
    text = (folder / f"report-{who}.md").read_text()
    golden = GOLDEN / f"heartland-bidding-demo-{who}.md"
    if os.environ.get("HXREF_REGEN_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


def test_unknown_demo_system_is_a_clear_error():
    res = CliRunner().invoke(main, ["demo", "--system", "nosuch"])
    assert res.exit_code == 2 and "no demo game is shipped for 'nosuch' yet" in res.stderr
    assert "heartland" in res.stderr and "kgp" in res.stderr and "salem-church" in res.stderr


def test_every_command_has_help_with_an_example():
    import click

    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        cmds = [cmd] if not hasattr(cmd, "commands") else list(cmd.commands.values())
        for c in cmds:
            assert c.help and "Example" in c.help, f"{name} {c.name}: help without an example"


def test_readme_quick_start_has_exactly_two_set_up_commands():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    quick = readme.split("## Quick start")[1].split("\n## ")[0]
    blocks = re.findall(r"```\n(.*?)```", quick, re.S)
    assert blocks == ["pip install -e . && hxref demo\n", "pip install -e '.[test]' && pytest\n"]
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
    assert "pip install -e '.[test]' && pytest" in ci


def test_version_starts_without_heavy_imports():
    import subprocess
    import sys

    code = ("import sys; from hxref.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit: pass\n"
            "heavy = [m for m in ('ruamel.yaml', 'cryptography', 'rich', 'shapely', 'yaml') if m in sys.modules]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]"), out


def test_rich_text_keeps_rule_tags_and_never_parses_markup(demo_run):
    folder, _ = demo_run
    text = (folder / "report-public.md").read_text()
    assert "[rule 5.13a]" in text
    from hxref.referee.engine import Engine
    from hxref.report import turn

    rep = turn.build(Engine.load(folder / "game.yaml"), None)
    rep.sections[0].lines.append("[bold red]not markup[/]")
    out = turn.to_text(rep)
    assert "[rule 5.13a]" in out and "[bold red]not markup[/]" in out
