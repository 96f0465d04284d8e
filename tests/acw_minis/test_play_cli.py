"""`hxref play`: solo games answer and resolve in one command (open games send signed files instead)."""
from pathlib import Path


def test_play_answers_and_resolves_a_solo_player_turn(cli):
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo")
    out = cli("play", "g.yaml", "--choice", "{moves: [{unit: us-3, advance: 6}], shots: []}").output
    assert "resolved t1.union" in out and "now at (34.0, 10.0)" in out and "t1.confederate" in out
    before = Path("g.yaml").read_bytes()
    err = cli.fails("play", "g.yaml", "--choice", "{moves: [{unit: cs-6, advance: 13}]}")
    assert "Cavalry may not enter Hollins Wood" in err and "A3" in err
    assert Path("g.yaml").read_bytes() == before


def test_play_is_for_solo_games_only(cli, game):
    err = cli.fails("play", game, "--choice", "bid: 1")
    assert "solo games" in err and "[E504]" in err


def test_template_lists_units_with_allowances_and_a_skeleton(cli):
    cli("new", "t.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo")
    out = cli("template", "t.yaml", "--side", "union").output
    assert all(len(line) <= 72 for line in out.splitlines())          # pasted into a mail, it stays whole
    joined = " ".join(line.lstrip("# ").strip() for line in out.splitlines())
    assert "us-6 Lyle's Cavalry: cavalry at (62.0, 4.0) facing 0, 0 hits; moves up to 12\"" in joined
    assert "Enemy units:" in out and "cs-4" in out and "unit: us-1" in out
