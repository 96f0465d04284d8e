"""Deadlines and missed orders (issue 9 item 4): a game made with a deadline gives every awaited
decision one; after it `hxref resolve` applies the game's NMR policy, logged as an input event
with the policy that applied (so `audit` replays it); `forfeit` ends the game after N misses."""
import pytest

from hxref.engine import Engine, audit

T0 = "2026-11-29T12:00:00Z"


def make(tmp_path, monkeypatch, **policy):
    monkeypatch.setenv("HXREF_NOW", T0)
    return Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                         sides={"union": None, "confederate": None}, game_id="nmr", policy=policy)


def test_each_awaited_decision_gets_its_deadline(tmp_path, monkeypatch):
    eng = make(tmp_path, monkeypatch, deadline_hours=48, nmr="hold")
    assert eng.awaiting[0].deadline == "2026-12-01T12:00:00Z"
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T09:30:00Z")
    eng.answer_solo("union", None, {"moves": [], "shots": []})
    eng.resolve()
    assert eng.awaiting[0].id == "t1.confederate" and eng.awaiting[0].deadline == "2026-12-02T09:30:00Z"
    assert "time left 48h" in eng.waiting_text()


def test_no_policy_no_deadline(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", T0)
    eng = Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="plain")
    assert eng.awaiting[0].deadline is None and eng.apply_nmr("2030-01-01T00:00:00Z") == []


def test_hold_reports_the_late_side_and_changes_nothing(tmp_path, monkeypatch):
    eng = make(tmp_path, monkeypatch, deadline_hours=24, nmr="hold")
    assert eng.apply_nmr("2026-11-30T11:59:59Z") == []                 # not late yet
    late = eng.apply_nmr("2026-11-30T12:00:01Z")
    assert late == [{"decision": "t1.union", "side": "union", "policy": "hold", "applied": False}]
    assert eng.awaiting[0].id == "t1.union" and not eng.ready()


def test_stand_fast_answers_for_the_late_side_and_is_replayed_by_audit(tmp_path, monkeypatch):
    eng = make(tmp_path, monkeypatch, deadline_hours=24, nmr="stand-fast")
    applied = eng.apply_nmr("2026-11-30T13:00:00Z")
    assert applied[0]["applied"] and applied[0]["choice"] == {"moves": [], "shots": []}
    eng.resolve()
    assert eng.awaiting[0].id == "t1.confederate" and eng.h["missed"] == {"union": 1}
    nmr = [e for e in eng.gf.log if e["kind"] == "nmr"]
    assert nmr and nmr[0]["data"]["policy"] == "stand-fast" and nmr[0]["data"]["at"] == "2026-11-30T13:00:00Z"
    eng.save()
    assert audit(tmp_path / "g.yaml").ok


def test_forfeit_after_n_missed_decisions_ends_the_game(tmp_path, monkeypatch):
    eng = make(tmp_path, monkeypatch, deadline_hours=1, nmr="stand-fast", forfeit_after=2)
    eng.apply_nmr("2026-11-29T14:00:00Z")                              # union misses t1.union
    eng.resolve()
    eng.answer_solo("confederate", None, {"moves": [], "shots": []})
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T15:00:00Z")
    eng.resolve()                                                      # t2.union is due at 16:00
    out = eng.apply_nmr("2026-11-29T17:00:00Z")                        # union misses again: forfeit
    assert out[0]["forfeit"] and eng.finished and eng.h["forfeit"] == {"side": "union", "missed": 2}
    assert "forfeit" in eng.waiting_text()


def test_cli_new_with_a_deadline_and_resolve_applies_the_policy(cli, monkeypatch):
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo",
        "--deadline-hours", "24", "--nmr", "stand-fast")
    assert "deadline 2026-11-30T12:00:00Z" in cli("status", "g.yaml").output
    monkeypatch.setenv("HXREF_NOW", "2026-12-01T00:00:00Z")
    out = cli("resolve", "g.yaml").output
    assert "missed t1.union: union stands fast (NMR policy stand-fast)" in out and "resolved t1.union" in out
    bad = cli.fails("new", "h.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo",
                    "--nmr", "stand-fast")
    assert "--deadline-hours" in bad


def test_grace_period_delays_the_policy(tmp_path, monkeypatch):
    eng = make(tmp_path, monkeypatch, deadline_hours=24, nmr="stand-fast", grace_hours=6)
    assert eng.apply_nmr("2026-11-30T17:59:00Z") == []                 # late, but within the grace period
    assert eng.apply_nmr("2026-11-30T18:00:01Z")[0]["applied"]
