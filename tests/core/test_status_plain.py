"""``hxref status GAME`` piped prints rich's text without importing rich (hxref.report.fit.show):
the same widths, wrapping, padding and trailing spaces as rich without colour, for real games and
for tables of long commands, paths, hashes and an empty column, at every width."""
from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from rich.text import Text

from hxref.cli import main
from hxref.report import fit
from hxref.report.fit import Col, FitTable

WIDTHS = (40, 80, 160)
HASH = "f1ccc762e3f0d7b5dd1e83e7e4922e0bcb0dc0b22ce1e7d27d600d6953314124"
LONG_PATH = "campaign-spring-2027/tournament-round-three/heartland-bidding-demo-with-a-long-name.yaml"


def _rich(renderable, width: int) -> list[str]:
    """What rich prints for ``renderable`` at ``width`` columns, not to a terminal (no colour)."""
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=False, no_color=True).print(renderable)
    return out.getvalue().split("\n")[:-1]


def _status(*args: str, width: int, rich: bool, monkeypatch) -> str:
    """``hxref status`` piped (not a terminal) at ``width``: as shown, or by rich (plain rendering off)."""
    with monkeypatch.context() as m:
        for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS"):
            m.delenv(name, raising=False)
        if rich:
            m.setattr(fit, "plain_lines", lambda parts, width: None)
        res = CliRunner().invoke(main, ["status", *args, "--width", str(width)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture
def games(cli, game) -> list[str]:
    """Games in every state status shows: awaiting joins (deadlines: a due column), awaiting
    commits, without deadlines (an empty due column), solo, and one at a long path with a long label."""
    cli("new", "joins.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--game-id", "joins",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("new", "free.yaml", "--system", "heartland", "--scenario", "heartland-demo", "--no-deadlines",
        "--game-id", "free", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("new", "solo.yaml", "--system", "salem-church", "--scenario", "salem-church", "--mode", "solo",
        "--side", "union", "--side", "confederate")
    Path(LONG_PATH).parent.mkdir(parents=True)
    cli("new", LONG_PATH, "--system", "heartland", "--scenario", "river-line", "--no-deadlines",
        "--game-id", "a-very-long-game-label-for-the-spring-tournament-of-2027-round-three",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    return [game, "joins.yaml", "free.yaml", "solo.yaml", LONG_PATH]


@pytest.mark.parametrize("width", WIDTHS)
def test_status_piped_is_richs_text_without_colour(games, width, monkeypatch):
    for g in games:
        plain = _status(g, width=width, rich=False, monkeypatch=monkeypatch)
        assert plain == _status(g, width=width, rich=True, monkeypatch=monkeypatch), g
        assert "\x1b" not in plain and all(len(line) <= width for line in plain.splitlines())


def test_the_width_comes_from_columns_as_richs_does(games, monkeypatch):
    monkeypatch.setenv("COLUMNS", "57")
    res = CliRunner().invoke(main, ["status", LONG_PATH], catch_exceptions=False)
    assert max(len(line) for line in res.output.splitlines()) == 57
    assert res.output == _status(LONG_PATH, width=57, rich=True, monkeypatch=monkeypatch)


# --- tables and lines, against rich ------------------------------------------------------------------

def _commands_table(due: bool, **options) -> FitTable:
    rows = [["t1.join", "confederate", "join", f"hxref join {LONG_PATH} --side confederate --key KEY",
             "2026-12-06T12:00:00Z (6 d 23 h left)" if due else ""],
            ["t8.i3.level", "union", "answer", "hxref answer g.yaml --side union --key KEY --choice ...",
             ""],
            ["t1.bid", "umpire", "commit", f"hxref audit g.yaml --head {HASH}@160", ""]]
    cols = [Col(c, optional=c == "due" and not due) for c in ("decision", "party", "owes", "command", "due")]
    return FitTable(cols, rows, **options)


TABLES = {
    "status": lambda: _commands_table(True, show_edge=False, box=None, padding=(0, 2)),
    "empty due": lambda: _commands_table(False, show_edge=False, box=None, padding=(0, 2)),
    "dashboard-like": lambda: _commands_table(False, show_edge=False, box=None, padding=(0, 1), pad_edge=False,
                                              header_style="bold"),
    "hashes": lambda: FitTable([Col("head"), Col("file", no_wrap=True), Col("n", justify="right")],
                               [[HASH, "g.yaml", "160"], [HASH[:16] + " " + HASH, LONG_PATH, "7"]],
                               box=None, padding=(0, 1), pad_edge=False),
    "lines and justify": lambda: FitTable([Col("a", justify="center"), Col("notes"), Col("b", justify="right")],
                                          [["x", "first line\nsecond  line with  double  spaces\n", "10"],
                                           ["  leading", "a-hyphenated-name-that-is-long and more words", ""]],
                                          box=None, padding=(0, 1, 0, 3)),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_a_table_prints_as_rich_prints_it(name):
    for width in (14, 20, 30, *WIDTHS, 50, 60, 100, 200):
        t = TABLES[name]()
        plain = t.plain(width)
        if plain is None:       # too narrow for the layout (a long no_wrap cell): rich shrinks it
            keep, widths, _ = t.layout(width)
            assert widths is not None and sum(widths) + t._overhead(len(keep)) > width, (name, width)
            continue
        assert plain == _rich(TABLES[name](), width), (name, width)


def test_random_tables_and_lines_print_as_rich_prints_them():
    rng = random.Random(1862)
    words = ["a", "to", "the", "Union", "confederate", "t1.i2.orders", "--side", "hxref", HASH[:40], HASH,
             "games/heartland/scenarios/river-line.yaml", "well-known-hyphenated-word", "", " ", "x" * 23]

    def text() -> str:
        return rng.choice([" ", "  ", "\n"]).join(rng.choice(words) for _ in range(rng.randint(0, 9)))

    for _ in range(300):
        width = rng.randint(20, 120)
        line = text()
        assert fit.plain_text(line, width) == _rich(Text(line), width), (line, width)
        n = rng.randint(1, 5)
        cols = [Col(text().replace("\n", " ") or "h", justify=rng.choice(["left", "right", "center"]),
                    no_wrap=rng.random() < 0.2, optional=rng.random() < 0.3) for _ in range(n)]
        rows = [[text() for _ in range(n)] for _ in range(rng.randint(0, 4))]
        options = {"box": None, "padding": rng.choice([(0, 1), (0, 2), (0, 3, 0, 1), (0, 1, 0, 0)]),
                   "pad_edge": rng.random() < 0.5, "show_edge": False}
        plain = FitTable(cols, rows, **options).plain(width)
        if plain is not None:
            assert plain == _rich(FitTable(cols, rows, **options), width), (cols, rows, options, width)


def test_what_the_plain_rendering_does_not_follow_is_left_to_rich():
    assert fit.plain_text("été", 80) is None and fit.plain_text("a\tb", 80) is None
    assert _commands_table(True).plain(80) is None                            # a box
    assert FitTable([Col("a")], [[Text("styled", style="bold")]], box=None).plain(80) is None
    parts = ["caf\u00e9 [bold]not markup[/] :smile:", ((f"[red]{HASH}\\", "bold"), (" -- [x] :smile:", None)),
             _commands_table(True, box=None)]
    out = io.StringIO()
    fit.show(parts, 40, file=out)       # not to a terminal, a part rich must lay out: rich prints, no markup
    expected = _rich(Text(parts[0]), 40) + _rich(Text(f"[red]{HASH}\\ -- [x] :smile:"), 40) + _rich(parts[2], 40)
    assert out.getvalue() == "\n".join(expected) + "\n"


# --- rich is not imported ------------------------------------------------------------------------------

def test_status_piped_does_not_import_rich(cli, game):
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    code = ("import sys\nfrom hxref.cli import main\n"
            "try:\n    main(sys.argv[1:], standalone_mode=False)\n"
            "finally:\n    print('RICH', sorted(m for m in sys.modules if m.split('.')[0] == 'rich'), file=sys.stderr)\n")
    res = subprocess.run([sys.executable, "-c", code, "status", game], capture_output=True, text=True, env=env,
                         cwd=cli.folder, check=True)
    assert "RICH []" in res.stderr and "awaits" in res.stdout, res.stderr
    res = subprocess.run([sys.executable, "-c", code, "status", game], capture_output=True, text=True,
                         env={**env, "FORCE_COLOR": "1"}, cwd=cli.folder, check=True)
    assert "RICH []" not in res.stderr and "\x1b[" in res.stdout         # colours asked for: rich prints


# --- one deadline, whole tokens at 80 columns ----------------------------------------------------------

def test_status_shows_one_deadline_with_the_grace_in_words(game, monkeypatch):
    """The awaited decision's deadline, said once with its grace in words; never the deadline plus the
    grace as a second date (a player read two dates for one deadline).  --json keeps both times."""
    import json

    from hxref.referee.engine import Engine

    w = Engine.load(game).waiting_for()[0]
    assert w["deadline"] and w["due"] and w["due"] != w["deadline"]
    out = _status(game, width=80, rich=False, monkeypatch=monkeypatch)
    assert w["deadline"] == "2026-12-06T12:00:00Z"
    assert any(line.startswith("t1.bid due Sun 06 Dec 12:00 UTC (grace 2 days; ") for line in out.splitlines())
    for stamp in (w["due"], w["deadline"], w["due"][:10], "Tue 08 Dec"):      # no other date for it
        assert stamp not in out
    facts = json.loads(CliRunner().invoke(main, ["status", game, "--json"]).output)["awaiting"][0]
    assert (facts["deadline"], facts["due"]) == (w["deadline"], w["due"])


def _tokens_whole(out: str, tokens: list[str]) -> None:
    for token in tokens:
        assert any(token in line.split() for line in out.splitlines()), (token, out)


def test_at_80_columns_dates_and_game_ids_stay_whole(cli, monkeypatch):
    """`hxref status GAME` and `hxref status DIR` at 80 columns: the table gives way (the dashboard's
    head and last activity first) before a game id, a date or a command word is broken."""
    Path("club").mkdir()
    Path("joins").mkdir()
    for name, gid, scenario in (("club/g.yaml", "hear-2026-12-06-cb4200", "heartland-demo"),
                                ("club/free.yaml", "club-spring-2027-bidding", "bidding-demo")):
        cli("new", name, "--system", "heartland", "--scenario", scenario, "--game-id", gid,
            "--side", "union=alice.pub", "--side", "confederate=bob.pub")
        for side, key in (("union", "alice"), ("confederate", "bob")):
            cli("join", name, "--side", side, "--key", key, "--dir", "joins")
            cli("submit", name, f"joins/{side}-join.yaml")
            Path(f"joins/{side}-join.yaml").unlink()
    out = _status("club", width=80, rich=False, monkeypatch=monkeypatch)
    assert all(len(line) <= 80 for line in out.splitlines())
    _tokens_whole(out, ["hear-2026-12-06-cb4200", "club-spring-2027-bidding", "2026-12-06", "12:00Z"])
    assert "head" not in out.splitlines()[0] and "activity" not in out.splitlines()[0]
    wide = _status("club", width=160, rich=False, monkeypatch=monkeypatch)
    assert "last activity" in wide and "head" in wide.splitlines()[0]
    single = _status("club/g.yaml", width=80, rich=False, monkeypatch=monkeypatch)
    _tokens_whole(single, ["hear-2026-12-06-cb4200", "t1.bid", "confederate", "--choice", "06", "12:00"])
    assert all(len(line) <= 80 for line in single.splitlines())
