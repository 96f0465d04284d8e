"""8.2 Objective Hex validity, checked when a sealed hex is opened, through the commands a player runs
(`hxref kgp seal`, `hxref kgp open`, `hxref answer`).

The attack: a side designates as its Objective Hex a hex that is already a Strategic Location (the
CG-II NN6 bridge), which 8.2 forbids; the designation is sealed, so nobody can see it until it is
opened.  Before, the opening was checked only against the commitment and accepted.  Now the opening
is refused naming the rule, and the game file is left as it was."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.systems.kgp.purchase import ob_objective_ids
from tests.security.attacker import sha


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "cg.yaml", system="kgp", scenario="cg-ii", mode="solo",
                        sides={"us": None, "german": None}, game_id="kgp-objective")
    eng.save()
    return tmp_path / "cg.yaml", eng


def _cli(*args: str):
    return CliRunner().invoke(main, list(args))


def _seal(path, side: str, item_id: str, value: str) -> dict:
    res = _cli("kgp", "seal", str(path), "--side", side, "--id", item_id, "--kind", "objective_hex", "--value", value)
    assert res.exit_code == 0, res.output
    return json.loads(res.output.strip().splitlines()[-1])


def _set_up(path, eng, us_values: dict[str, str]) -> None:
    for side in ("us", "german"):
        ids = ob_objective_ids(eng.system.charts, eng.state["cg"], side)
        seals = [_seal(path, side, i, us_values.get(i, "ChW8") if side == "us" else "ChMM8") for i in ids]
        eng.answer_solo(side, eng.awaiting[0].id, {"purchase": [], "seal": seals})
    eng.resolve()
    eng.save()


def test_an_objective_hex_on_the_bridge_is_refused_when_opened(game):
    path, eng = game
    bad = ob_objective_ids(eng.system.charts, "cg-ii", "us")[0]
    _set_up(path, eng, {bad: "ChNN6"})
    res = _cli("kgp", "open", str(path), "--side", "us", "--id", bad)
    assert res.exit_code == 2 and "say which condition ChNN6 meets with --meets" in res.output
    res = _cli("kgp", "open", str(path), "--side", "us", "--id", bad, "--meets", "hexsides")
    assert res.exit_code == 0, res.output
    entry = json.loads(res.output.strip().splitlines()[-1])
    assert entry["meets"] == "hexsides" and entry["value"] == "ChNN6"
    before = sha(path)
    res = _cli("answer", str(path), "--side", "us", "--choice", json.dumps({"reveal": [entry]}))
    assert res.exit_code == 2, res.output
    assert "ChNN6 was already a Strategic Location when it was designated on 20PM (a bridge Location)" in res.output
    assert "8.2 Objective Hex" in res.output and "Traceback" not in res.output
    assert sha(path) == before


def test_a_valid_objective_hex_opens_and_says_what_it_meets(game):
    path, eng = game
    good = ob_objective_ids(eng.system.charts, "cg-ii", "us")[0]
    _set_up(path, eng, {})
    res = _cli("kgp", "open", str(path), "--side", "us", "--id", good, "--meets", "ford")
    entry = json.loads(res.output.strip().splitlines()[-1])
    res = _cli("answer", str(path), "--side", "us", "--choice", json.dumps({"reveal": [entry]}))
    assert res.exit_code == 0, res.output
    eng = Engine.load(path)
    eng.resolve()
    said = [e["data"]["text"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "objective.valid"]
    assert said == ["ChW8 is a valid Objective Hex: no Strategic Location hxref knows of when designated; it meets a "
                    "ford Location (the opener's word: check it on the map sheet); from now on a Strategic Location"]
