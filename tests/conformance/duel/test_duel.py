"""Dice Duel through the real command line: `hxref demo` finds its demo through its SystemInfo
(root=), the result is the rules' own, and its declared secret is what the views hide."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.kit import registry

from tests.conformance.conftest import registered


@pytest.fixture(autouse=True)
def _duel():
    with registered():
        yield


def test_hxref_demo_plays_the_duel_to_its_result(tmp_path):
    res = CliRunner().invoke(main, ["demo", "--system", "dice-duel", "--keep", str(tmp_path / "k"), "--format", "text"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "audit OK" in res.output
    eng = Engine.load(tmp_path / "k" / "game.yaml")
    result = eng.system.result(eng.state)
    hits = eng.state["hits"]
    assert eng.finished and result is not None and result.margin == abs(hits["red"] - hits["blue"])
    assert result.how in res.output


def test_a_duel_has_no_map_to_show(tmp_path):
    CliRunner().invoke(main, ["demo", "--system", "dice-duel", "--keep", str(tmp_path / "k")], catch_exceptions=False)
    res = CliRunner().invoke(main, ["map", "show", str(tmp_path / "k" / "game.yaml"), "--side", "red"])
    assert res.exit_code == 2 and "has no map to show" in res.stderr


def test_the_champion_is_the_declared_secret_and_only_its_side_sees_it():
    system = registry.get("dice-duel")
    state = system.setup(system.load_scenario("duel"))
    state["champions"] = {"red": "Sir Roland", "blue": "Sir Kay"}
    assert system.secrets(state, "red") == {"Sir Roland"}
    assert system.view(state, "blue", "umpired")["champions"] == {"blue": "Sir Kay"}
    assert system.view(state, None, "umpired")["champions"] == {}
    assert system.view(state, "umpire", "open")["champions"] == state["champions"]
