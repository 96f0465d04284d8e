"""`hxref check` and `hxref submit` list every problem of a file at once (schema and rules), one
line each with its line, path, rule and code; a single problem reads exactly as before; and a
YAML syntax error comes with a hint drawn from the line (newcomer review, points 10 and 11)."""
import re
from pathlib import Path

import pytest

from tests.conftest import envelope

#: one problem line: FILE:LINE: message [(at PATH)] [rule R] [CODE]
LINE = re.compile(r"^hxref: error: o\.yaml:(\d+): .+ \[E\d{3}\]$")


def orders_file(cli, game: str, choice: str) -> str:
    Path("o.yaml").write_text("hxref: 2\ngame: hd-test\ndecision: t1.i1.orders\nside: confederate\n"
                              "kind: answer\nchoice:\n" + choice)
    cli("sign", "o.yaml", "--key", "bob", "--game", game, "--side", "confederate")
    return "o.yaml"


def problem_lines(cli, *args) -> list[str]:
    """Run a command that must fail with several problems: its stderr lines, checked for shape."""
    res = cli(*args, code=2)
    assert "Traceback" not in res.output and not res.stdout.strip(), res.output
    lines = res.stderr.strip().split("\n")
    for line in lines:
        assert LINE.match(line), line
    return lines


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


DUVALL = '["1912", "1911", "1910", "1909", "1908", "1907", "1906", "1905", "1904"]'
BAD_MOVES = ('  moves:\n'
             '    - {force: calloway, path: ["1810"]}\n'       # a path that jumps (8.2)
             f'    - {{force: duvall, path: {DUVALL}}}\n'      # a stack over its limit (3.22a)
             '    - {force: strother, path: ["1804"]}\n'       # a good one
             '    - {force: whitcomb, path: ["1110"]}\n')      # an enemy force (8.21)


def test_check_and_submit_list_every_rules_problem(cli, hgame):
    f = orders_file(cli, hgame, BAD_MOVES)
    text = Path(f).read_text()
    before = Path(hgame).read_bytes()
    for cmd in ("check", "submit"):
        lines = problem_lines(cli, cmd, hgame, f)
        assert len(lines) == 3, lines
        assert all("[E400]" in line and "[rule " in line for line in lines), lines
        assert "more problem(s)" not in " ".join(lines)
        # each at its own line of the file and its own path, in the file's order
        numbers = [int(LINE.match(line).group(1)) for line in lines]
        assert numbers == [line_of(text, "calloway"), line_of(text, "duvall"), line_of(text, "whitcomb")]
        assert "(at choice.moves[0]" in lines[0] and "(at choice.moves[1]" in lines[1]
        assert "(at choice.moves[3].force)" in lines[2]
        assert "not adjacent" in lines[0] and "[rule 8.2]" in lines[0]
        assert "stack over its limits" in lines[1] and "[rule 3.22a]" in lines[1]
        assert "not one of your forces" in lines[2] and "[rule 8.21]" in lines[2]
        assert Path(hgame).read_bytes() == before            # the game unchanged


def test_schema_and_rules_problems_together(cli, hgame):
    # unknown keys do not stop the rules check of the rest; each problem has its line and code
    f = orders_file(cli, hgame, BAD_MOVES + "  teleport: 1\n  fly: 2\n")
    text = Path(f).read_text()
    before = Path(hgame).read_bytes()
    lines = problem_lines(cli, "submit", hgame, f)
    assert len(lines) == 5, lines
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["[E110]", "[E110]", "[E400]", "[E400]", "[E400]"]
    assert f"o.yaml:{line_of(text, 'teleport')}: unknown key `teleport`" in lines[0]
    assert "(at choice.teleport)" in lines[0] and "(at choice.fly)" in lines[1]
    assert Path(hgame).read_bytes() == before


def test_several_schema_problems_without_the_rules(cli, hgame):
    # a choice of the wrong shape is not given to the rules: only its schema problems are listed
    f = orders_file(cli, hgame, "  moves: 5\n  shots: nope\n  teleport: 1\n")
    lines = problem_lines(cli, "check", hgame, f)
    assert len(lines) >= 2 and any("[E110]" in line for line in lines), lines
    assert any("`moves` must be a list" in line and "[E112]" in line for line in lines), lines
    assert not any("[E400]" in line for line in lines), lines


def test_one_problem_reads_as_before(cli, hgame):
    f = orders_file(cli, hgame, '  moves:\n    - {force: whitcomb, path: ["1110"]}\n')
    for cmd in ("check", "submit"):
        err = cli.fails(cmd, hgame, f)                     # one line
        assert re.fullmatch(r"hxref: error: o\.yaml:\d+: `whitcomb` is not one of your forces on the map; "
                            r"your forces: .+ \(at choice\.moves\[0\]\.force\) \[rule 8\.21\] \[E400\]", err), err


def test_a_good_file_still_passes(cli, hgame):
    f = orders_file(cli, hgame, '  moves:\n    - {force: calloway, path: ["1910", "1810"]}\n')
    assert "would be accepted" in cli("check", hgame, f).stdout
    cli("submit", hgame, f)


def test_the_error_object_carries_every_problem(cli, hgame):
    from hxref.referee.engine import Engine
    from hxref.base.errors import IllegalOrder, Problems

    f = orders_file(cli, hgame, BAD_MOVES)
    with pytest.raises(IllegalOrder) as info:             # still an IllegalOrder, for code that catches one
        Engine.load(hgame).check(Path(f).read_text(), f)
    exc = info.value
    assert isinstance(exc, Problems) and len(exc.problems) == 3 and exc.code == "E400"
    assert exc.lines() == [p.render() for p in exc.problems]
    assert "\n" not in exc.render() and exc.render().count("[E400]") == 3   # one line for mail and dashboards


# --- YAML syntax errors get a hint drawn from the line ------------------------------------------

def yaml_error(cli, game: str, tail: str) -> str:
    Path("y.yaml").write_text(envelope(game, "union", "t1.bid", "commit") + tail)
    before = Path(game).read_bytes()
    err = cli.fails("check", game, "y.yaml")
    assert Path(game).read_bytes() == before and "[E101]" in err, err
    return err


@pytest.mark.parametrize("tail, words", [
    ("commitment: abc\n  salt: x\n", "indentation: this line is indented deeper than the key above it"),
    ("choice:\n\tbid: 4\n", "YAML does not allow tabs: indent with spaces"),
    ("choice: {bid: 4\nsalt: x\n", "a `{` opened on line 9 is not closed"),
    ("choice: [4, 5\nsalt: x\n", "a `[` opened on line 9 is not closed"),
    ("commitment: 'abc\nsalt: x\n", "a quote opened on line 9 is not closed"),
    ("salt:x\ncommitment: y\n", "put a space after the colon on line 9"),
    ("commitment: a: b\n", "a value that holds `: ` must be quoted"),
    ("choice:\n  moves:\n    - a: 1\n  - b: 2\n", "the items of one list start in the same column"),
])
def test_a_yaml_syntax_error_comes_with_a_hint(cli, game, tail, words):
    err = yaml_error(cli, game, tail)
    assert "YAML error: " in err and words in err, err


def test_the_review_s_indentation_mistake(cli, game):
    # newcomer review, point 11: `mapping values are not allowed here` alone helped no one
    err = yaml_error(cli, game, "commitment: abc\n   bid: 4\n")
    assert re.search(r"y\.yaml:10:\d+: YAML error: mapping values are not allowed here; indentation: this line "
                     r"is indented deeper than the key above it \(line 9\)", err), err
