"""`hxref audit --rerun`: replay a game's log with the rules code of today and
say every place where the outcome would now differ, so an umpire can decide to patch a game."""
import json
from pathlib import Path

import pytest

from hxref.referee.audit import rerun
from hxref.referee.engine import Engine


@pytest.fixture
def acw(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="rerun")
    eng.answer_solo("union", None, {"moves": [{"unit": "us-3", "advance": 6}], "shots": []})
    eng.resolve()
    eng.answer_solo("confederate", None, {"moves": [], "shots": [{"shooter": "cs-4", "target": "us-3"}]})
    eng.resolve()
    eng.save()
    return tmp_path / "g.yaml"


def test_rerun_with_unchanged_rules_finds_no_difference(acw):
    res = rerun(acw)
    assert res.ok and res.differences == [] and res.decisions == 2


def test_rerun_after_a_rules_change_lists_each_decision_that_differs(acw, monkeypatch):
    from hxref.systems.acw_minis import units as rules

    monkeypatch.setitem(rules.MODIFIER, "artillery", 0)        # a "rules fix": no -2 for artillery
    res = rerun(acw)
    assert not res.ok and [d["decision"] for d in res.differences] == ["t1.confederate"]
    d = res.differences[0]
    assert "-2 (artillery)" in d["before"] and "-2 (artillery)" not in d["after"]
    assert "state" in res.state_differs


def test_cli_audit_rerun_prints_the_differences_and_exits_1(acw, monkeypatch):
    from click.testing import CliRunner

    from hxref.cli import main
    from hxref.systems.acw_minis import units as rules

    ok = CliRunner().invoke(main, ["audit", str(acw), "--rerun"])
    assert ok.exit_code == 0 and "rerun: the rules of today give the same result" in ok.output
    monkeypatch.setitem(rules.MODIFIER, "artillery", 0)
    res = CliRunner().invoke(main, ["audit", str(acw), "--rerun", "--json"])
    assert res.exit_code == 1 and json.loads(res.output)["differences"][0]["decision"] == "t1.confederate"
    assert Path(acw).read_bytes() == Path(acw).read_bytes()        # the game file is never changed
