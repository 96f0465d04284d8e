"""hxref play GAME without --choice: the interactive solo/hotseat loop, driven by a script (a menu
of legal values, a refused answer asked again, q quits without saving a half answer)."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.cli.solo import menu_for, play_loop


def _script(*lines: str):
    """An input_fn that answers each prompt with the next line; EOF when the script runs out."""
    it = iter(lines)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    input_fn.prompts = prompts      # type: ignore[attr-defined]
    return input_fn


def _console() -> Console:
    return Console(file=io.StringIO(), width=160, record=True, color_system=None, highlight=False)


def _new(cli, name: str, system: str, scenario: str) -> str:
    cli("new", name, "--system", system, "--scenario", scenario, "--mode", "solo",
        "--side", "union", "--side", "confederate", "--game-id", "play-test")
    return str(cli.folder / name)


def _resolved(path: str) -> list[str]:
    return list(Engine.load(path).h["resolved"])


def test_acw_minis_bad_answer_refused_then_good_one(cli):
    path = _new(cli, "g.yaml", "acw-minis", "mercers-mill")
    con = _console()
    inp = _script("?",
                  "moves: [{unit: nope, advance: 3}]", "",          # refused by the rules (A3)
                  "moves: [{unit: us-1, advance: 3", "",             # bad YAML: refused too
                  "moves: [{unit: us-1, advance: 3}]", "shots: []", "",
                  "q")
    assert play_loop(path, console=con, input_fn=inp) == 1
    out = con.export_text()
    assert "t1.union -- union to play" in out
    assert "what union sees" in out                                  # the map in the terminal
    assert "us-1 Harlan's Brigade: infantry at (10.0, 4.0)" in out                           # the unit ids orders name
    assert "help" in out and "moves (list)" in out
    assert "refused:" in out and "`nope` is not a unit on the table" in out and "[rule A3]" in out
    assert "--choice" not in out
    assert out.count("refused:") == 2
    assert "resolved t1.union" in out and 'advance 3.0"' in out
    assert "t1.confederate -- confederate to play" in out
    assert "quit;" in out
    assert _resolved(path) == ["t1.union"]
    assert audit(path).ok


def test_heartland_bids_by_menu_for_both_sides_then_quit(cli):
    path = _new(cli, "g.yaml", "heartland", "bidding-demo")
    dec = Engine.load(path).awaiting[0]
    assert dec.id == "t1.bid" and menu_for(dec) is not None
    con = _console()
    inp = _script("9",          # not legal for union (its maximum is 4): the menu refuses it
                  "3", "2",      # union bids 3, confederate 2 (hotseat)
                  "r",           # the last report
                  "1",           # union's level for impulse 3
                  "q")
    assert play_loop(path, console=con, input_fn=inp) == 2
    out = con.export_text()
    assert "union: bid [0/1/2/3/4/?/m/r/q]" in out
    assert "confederate: bid [0/1/2/3/4/5/?/m/r/q]" in out
    assert "union to play (confederate next)" in out
    assert "pass the keyboard to confederate" in out
    assert "bids revealed: union 3, confederate 2" in out
    assert "die: weather (2d6)" in out
    assert "Last resolution: t1.bid" in out                          # the report, from `r`
    assert "resolved t1.i3.level" in out
    assert _resolved(path) == ["t1.bid", "t1.i3.level"]
    eng = Engine.load(path)
    assert eng.awaiting[0].id == "t1.i4.level" and not eng.h["pending"].get("t1.i4.level")
    assert audit(path).ok


def test_quit_half_way_through_a_hotseat_decision_stores_nothing(cli):
    path = _new(cli, "g.yaml", "heartland", "bidding-demo")
    before = (cli.folder / "g.yaml").read_bytes()
    con = _console()
    assert play_loop(path, console=con, input_fn=_script("3", "q")) == 0     # union bid, then quit
    assert (cli.folder / "g.yaml").read_bytes() == before
    # the end of input is a quit as well
    assert play_loop(path, console=_console(), input_fn=_script("2")) == 0
    assert (cli.folder / "g.yaml").read_bytes() == before
    assert audit(path).ok


def test_resume_after_quit_and_play_on(cli):
    path = _new(cli, "g.yaml", "heartland", "bidding-demo")
    play_loop(path, console=_console(), input_fn=_script("3", "2", "q"))
    con = _console()
    assert play_loop(path, console=con, input_fn=_script("1", "q")) == 1
    assert "t1.i3.level -- union to play" in con.export_text()
    assert _resolved(path) == ["t1.bid", "t1.i3.level"]
    assert audit(path).ok


def test_open_games_are_refused(cli):
    from hxref.base.errors import HxrefError

    cli("new", "o.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    with pytest.raises(HxrefError, match="solo games"):
        play_loop(str(cli.folder / "o.yaml"), console=_console(), input_fn=_script("q"))


def test_the_example_answer_is_shown_whole_at_80_columns(cli):
    """The skeleton of a long order (six brigades) is wrapped to the width, never cut off; a
    scripted keyboard (not a terminal) neither edits lines nor keeps a history."""
    import json

    from hxref.base.home import home
    from hxref.cli.solo import Session, _wrapped

    path = _new(cli, "g.yaml", "acw-minis", "mercers-mill")
    con = Console(file=io.StringIO(), width=80, record=True, color_system=None, highlight=False)
    session = Session(path, console=con, input_fn=_script("q"))
    assert not session.keys.editing
    eng = Engine.load(path)
    skeleton = session.notes_and_skeleton(eng, eng.awaiting[0], "union")[1]
    assert session.run() == 0
    lines = con.export_text().splitlines()
    start = next(i for i, line in enumerate(lines) if "e.g. " in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("> "))
    assert all(len(line) <= 80 for line in lines[start:end])
    shown = " ".join(line.strip() for line in lines[start:end]).split("e.g. ", 1)[1]
    assert json.loads(shown) == skeleton and len(shown) > 200
    assert not (home() / "history" / eng.meta["game"]).exists()
    # a word longer than the width is split, not lost
    long = "x" * 50
    assert _wrapped("e.g. " + long, 30).replace("\n", "").replace(" ", "") == "e.g." + long


def test_the_result_comes_last_above_the_next_prompt_and_the_key_reference_waits_for_help(cli):
    """After an answer, what it did is printed after the next decision's box, map and notes, just
    above its prompt; the reference of an answer's keys (`choice.` lines) is shown under `?` only."""
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "heartland-demo", "--mode", "solo",
        "--side", "union", "--side", "confederate")
    con = _console()
    assert play_loop(str(cli.folder / "g.yaml"), console=con, input_fn=_script("2", "5", "?", "q")) == 1
    out = con.export_text()
    box = out.index("t1.i1.orders -- confederate to play")
    result = out.index("resolved t1.bid")
    prompt = out.index("confederate: your answer as YAML")
    assert box < out.index("what confederate sees", box) < out.index("Enemy stacks you see", box) < result < prompt
    assert "choice.moves[].force" not in out[:prompt]
    assert "choice.moves[].force" in out[prompt:]                   # under `?`
