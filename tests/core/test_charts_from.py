"""``hxref new --charts-from GAME``: a new game played with the data files an earlier game pinned
(a club's season on one set of charts while hxref publishes new ones; the shipped demos, which
must keep their identity, so their signed order files stay valid, whatever charts come later)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.engine import Engine
from hxref.game import GameFile

from tests.core import test_pinned_charts as pinned
from tests.security.attacker import rehash
from tests.core.test_pinned_charts import WEATHER, set_weather, to_weather

games = pinned.games            # the fixture: a copy of games/ the data folders point to

NEW = ["--system", "heartland", "--scenario", "bidding-demo", "--mode", "solo"]


def new(tmp_path, name: str, *extra: str):
    return CliRunner().invoke(main, ["new", str(tmp_path / name), *NEW, "--game-id", name[:-5], *extra])


def test_a_new_game_plays_with_the_charts_of_an_earlier_one(games, tmp_path):
    set_weather(games, "Rain")
    assert new(tmp_path, "first.yaml").exit_code == 0
    set_weather(games, "Snow")                      # hxref publishes a new Weather Table
    out = new(tmp_path, "second.yaml", "--charts-from", str(tmp_path / "first.yaml"))
    assert out.exit_code == 0, out.output
    first, second = (GameFile.load(tmp_path / n).log[0]["data"]["charts"] for n in ("first.yaml", "second.yaml"))
    assert second == first
    assert to_weather(Engine.load(tmp_path / "second.yaml")).endswith(": Rain")
    # without the option, today's charts
    assert new(tmp_path, "third.yaml").exit_code == 0
    assert to_weather(Engine.load(tmp_path / "third.yaml")).endswith(": Snow")


def test_the_same_game_made_twice_from_the_same_charts_has_the_same_identity(games, tmp_path):
    args = ["--nonce", "ab" * 32, "--created", "2026-11-29T12:00:00Z"]
    assert new(tmp_path, "a.yaml", *args).exit_code == 0
    set_weather(games, "Blizzard")
    for name in ("b.yaml", "c.yaml"):
        (tmp_path / name).unlink(missing_ok=True)
    assert new(tmp_path, "b.yaml", *args, "--charts-from", str(tmp_path / "a.yaml")).exit_code == 0
    a, b = (GameFile.load(tmp_path / n).log[0]["data"] for n in ("a.yaml", "b.yaml"))
    assert a["charts"] == b["charts"] and a["nonce"] == b["nonce"]


@pytest.mark.parametrize("what, code, text", [
    ("missing", "E100", "no such game file"),
    ("kgp", "E504", "no heartland game file"),
    ("unpinned", "E504", "pins no charts"),
    ("damaged", "E500", "does not match its sha256"),
])
def test_a_bad_charts_from_game_is_refused_with_one_line(games, tmp_path, what, code, text):
    src = tmp_path / "src.yaml"
    if what == "kgp":
        CliRunner().invoke(main, ["new", str(src), "--system", "kgp", "--scenario", "cg-ii", "--mode", "solo"])
    elif what != "missing":
        assert new(tmp_path, "src.yaml").exit_code == 0
        gf = GameFile.load(src)
        if what == "unpinned":
            del gf.log[0]["data"]["charts"]
        else:
            gf.log[0]["data"]["charts"][WEATHER]["text"] += "# edited\n"
        _rehash(gf)
    out = new(tmp_path, "g.yaml", "--charts-from", str(src))
    assert out.exit_code == 2, out.output
    assert out.output.count("\n") == 1 and code in out.output and text in out.output and "src.yaml" in out.output
    assert not (tmp_path / "g.yaml").exists()


def _rehash(gf: GameFile) -> None:
    """A consistent game file with an edited first event (as its creator could make one)."""
    rehash(gf)
    gf.save()
