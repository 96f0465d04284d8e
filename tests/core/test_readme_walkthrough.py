"""The README is a contract: the "A game by e-mail" walkthrough runs as written, command by
command, in a fresh folder (the way python-chess doctests its README)."""
import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from hxref.cli import main

README = Path(__file__).resolve().parent.parent.parent / "README.md"


def walkthrough() -> list[list[str]]:
    """The commands of the first code block under "## A game by e-mail", continuation lines
    joined and comments dropped."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## A game by e-mail", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    block = block.replace("\\\n", " ")
    commands = []
    for line in block.splitlines():
        line = line.split("   #")[0].strip() if not line.lstrip().startswith("#") else ""
        if line.startswith("hxref "):
            commands.append(shlex.split(line, comments=True)[1:])
    return commands


def test_the_walkthrough_has_the_commands_a_game_needs():
    names = [c[0] for c in walkthrough()]
    for needed in ("keygen", "new", "join", "submit", "commit", "resolve", "answer", "report", "audit"):
        assert needed in names, needed


def test_the_walkthrough_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    outputs = []
    for args in walkthrough():
        res = runner.invoke(main, args, catch_exceptions=False)
        assert res.exit_code == 0, f"README command failed: hxref {' '.join(args)}\n{res.output}"
        outputs.append(res.output)
    assert outputs[-1].startswith("audit OK")
    assert Path("public.md").read_text().startswith("# ")
