"""KGP CG-II played by e-mail to the end: the shipped umpired campaign in orders/kgp/cg-ii/ --
4 CG Dates from the players' signed order files, resolved by the umpire's key -- replayed through
the engine, with

* the secrets checked after every resolution: no report of a side, in any format (rich, text,
  Markdown, HTML, JSON), shows the other side's purchases (RG ids with their names), its secret
  drs, its sealed values before they are opened, or its CPP; the public report shows none of them;
* the campaign as played: the set-up secrets, the scenario-time rolls, the re-report after a
  disagreement, the Refit Phases with purchases, CPP replenishment and chits, the Idle Date, and
  the victory determination after 21PM; `hxref audit` passing;
* the limits hxref enforces on the way (the German's one Attack chit, no Sniper selection dr on
  the Ch map group), refused through the command line;
* `hxref demo --system kgp` printing it all.

The shipped game is made by `python tools/make_demo_orders.py kgp` (scripted players).
"""
from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.paths import orders_dir
from hxref.report import turn
from hxref.crypto.signing import load_private_key
from tests.demo_sweep import leaks, report_formats

DEMO = orders_dir() / "kgp" / "cg-ii"
SIDES = ("us", "german")
NAMES = {"us": "US", "german": "German"}
FORMATS = ("rich", "text", "md", "html", "json")
#: the values the scripted players sealed with `hxref kgp seal` (kept in their private files, not shipped)
SEALED = {"us": {"objective-ob-us-I2-1": "ChW8", "objective-ob-us-I2-2": "ChV7", "objective-ob-us-I2-3": "ChY10",
                 "objective-I2-1": "ChLL9"},
          "german": {"objective-ob-german-I2-1": "ChMM8", "objective-ob-german-I2-2": "ChLL7",
                     "objective-ob-german-HW2-1": "ChOO5", "objective-HW2-1": "ChPP3"}}
#: the decisions resolved, in order (the dice come from the shipped join files and the umpire's key)
def resolutions_for(turns: dict[str, int]) -> list[str]:
    """The decisions of the demo CG, each scenario played to its ``turns[date]``: how many turns a
    scenario lasts is the Game End drs', which follow the game's identity (its pinned charts)."""
    return (["d20PM.setup"] + [f"d20PM.t{t}" for t in range(1, turns["20PM"] + 1)]
            + ["d20PM.report", "d20PM.report.2", "d20N.refit"] + [f"d20N.t{t}" for t in range(1, turns["20N"] + 1)]
            + ["d20N.report", "d21AM.refit", "d21PM.refit"] + [f"d21PM.t{t}" for t in range(1, turns["21PM"] + 1)]
            + ["d21PM.report"])


def played_turns(resolutions: list[str]) -> dict[str, int]:
    return {d: sum(1 for r in resolutions if r.startswith(f"d{d}.t")) for d in ("20PM", "20N", "21PM")}


def shipped_files() -> list[str]:
    return [n for s in yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))["steps"] for n in s.get("submit", [])]


def _other(side: str) -> str:
    return "german" if side == "us" else "us"


_reports = report_formats


def _secrets(eng, side: str) -> list[str]:
    """What ``side`` keeps from the other side now: its purchases, secret drs, unopened sealed values
    and ids, its CPP record, and every rules event or die told to it alone."""
    st = eng.state
    out = []
    for p in st["purchases"][side]:
        out += [f"{p['rg']} {p['name']}", p["name"], f"bought {p['rg']}"]
    for r in st["secret_rolls"][side]:
        out += [f"secret dr: {r['purpose']}", f"{NAMES[side]}'s secret dr", f"secret dr {r['date']}"]
    for x in st["sealed"][side]:
        if not x.get("opened"):
            out += [SEALED[side][x["id"]], x["id"]]
            if x["date"] != "20PM":     # sealed with a purchase: even that it was sealed is the side's own
                out.append(x["commitment"][:12])
    out.append(f"{NAMES[side]} side")                           # the section with its CPP
    for e in eng.gf.log:
        d = e["data"]
        if e["kind"] in ("rules", "die") and d.get("visible_to") == [side]:
            out.append(d.get("text") or d["purpose"])
    return sorted(set(out))


_leaks = leaks


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Replay the shipped game resolution by resolution, checking every report after each one."""
    from hxref.crypto.signing import load_private_key, load_public_key

    work = tmp_path_factory.mktemp("kgp")
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    for f in DEMO.glob("*.yaml"):
        shutil.copy(f, work / f.name)
    shutil.copytree(DEMO / "keys", work / "keys")
    old = os.environ.get("HXREF_NOW")
    os.environ["HXREF_NOW"] = man["created"]
    checks, resolutions, leaks, own = 0, [], [], []
    try:
        eng = Engine.create(work / "game.yaml", system="kgp", scenario=man["scenario"], mode="umpired",
                            sides={s: load_public_key(DEMO / k) for s, k in man["keys"].items()},
                            umpire=load_public_key(DEMO / man["umpire"]), game_id=man["game_id"],
                            created=man["created"], nonce=man.get("nonce"), policy=man.get("policy"))
        ump = load_private_key(DEMO / man["umpire_key"])
        for step in man["steps"]:
            for name in step.get("submit", []):
                eng.submit((work / name).read_text(), name)
            if "resolve" not in step:
                continue
            resolutions += [r.decision for r in eng.resolve(ump)]
            if resolutions[-1] == "d21AM.refit":          # the German's one Attack chit is used: keep this moment
                eng.save()
                shutil.copy(work / "game.yaml", work / "at-21PM-refit.yaml")
            if eng.state["stage"] == "play" and eng.state["turn"] == 6 and not (work / "at-turn-6.yaml").exists():
                eng.save()                            # the first Turn 6: the Game End dr may be asked for
                shutil.copy(work / "game.yaml", work / "at-turn-6.yaml")
            if resolutions[-1] == "d21PM.t1":
                eng.save()
                shutil.copy(work / "game.yaml", work / "at-21PM-t2.yaml")
            secrets = {side: _secrets(eng, side) for side in SIDES}
            for side in SIDES:
                for fmt, text in _reports(eng, side).items():
                    found = _leaks(text, secrets[_other(side)])
                    if found:
                        leaks.append((resolutions[-1], side, fmt, found))
                    own.append((side, fmt, len(_leaks(text, secrets[side]))))
                    checks += 1
                view = json.loads(turn.render(turn.build(eng, side), "json"))["view"]
                assert set(view["cpp"]) == set(view["purchases"]) == set(view["secret_rolls"]) == {side}
                for x in view["sealed"][_other(side)]:
                    assert "commitment" not in x and ("id" not in x or x.get("opened"))
            for fmt, text in _reports(eng, None).items():
                found = _leaks(text, secrets["us"] + secrets["german"])
                if found:
                    leaks.append((resolutions[-1], "public", fmt, found))
                checks += 1
        eng.save()
    finally:
        if old is None:
            os.environ.pop("HXREF_NOW", None)
        else:
            os.environ["HXREF_NOW"] = old
    return work, eng, checks, resolutions, leaks, own


def test_the_campaign_is_played_from_the_shipped_order_files(played):
    work, eng, _, resolutions, _, _ = played
    turns = played_turns(resolutions)
    assert min(turns.values()) >= 6                    # no Game End dr before Turn 6
    assert resolutions == resolutions_for(turns)
    assert eng.finished and eng.awaiting == [] and eng.state["stage"] == "over"
    files = shipped_files()
    assert all((DEMO / n).is_file() for n in files) and len(files) == len(set(files))
    # the private files of `hxref kgp seal` are never shipped
    assert not list(DEMO.glob("*secrets*"))


def test_the_victory_determination_after_21pm(played):
    _, eng, _, _, _, _ = played
    st = eng.state
    r = st["result"]
    assert r["winner"] == "us" and r["rule"] == "8.52"
    assert r["why"].startswith("The US win CG-II [8.52]: at CG End the US controls 10 or more LVP hexes")
    checks = {c["id"]: c for c in r["checks"]}
    assert checks["lvp_hexes"]["met"]
    assert checks["lvp_hexes"]["detail"] == "The US: 10 LVP hexes (ChNN6 counts 5) >= 10"
    assert checks["bridge"]["checked"] and not checks["bridge"]["met"]          # the Germans never blew it
    assert st["roster"] == [
        {"date": "20PM", "scenario": True, "lvp": {"us": 4, "german": 8}, "cg_lvp": {"us": 4, "german": 8},
         "winner": "us"},
        {"date": "20N", "scenario": True, "lvp": {"us": 5, "german": 9}, "cg_lvp": {"us": 9, "german": 17},
         "winner": "german"},
        {"date": "21AM", "scenario": False, "lvp": None, "cg_lvp": {"us": 9, "german": 17}, "winner": None,
         "idle": True},
        {"date": "21PM", "scenario": True, "lvp": {"us": 11, "german": 2}, "cg_lvp": {"us": 20, "german": 19},
         "winner": "us"},
    ]
    events = [e["data"] for e in eng.gf.log if e["kind"] == "rules"]
    assert events[-1]["type"] == "victory" and events[-1]["decision"] == "d21PM.report"
    assert any(e["text"].startswith("20PM CG Roster") and "The US win the Initial Scenario [8.52]" in e["text"]
               for e in events)


def test_chits_purchases_and_cpp(played):
    _, eng, _, _, _, _ = played
    st = eng.state
    assert st["chits"] == {"us": 1, "german": 1} and st["chit_limits"] == {"us": 3, "german": 1}
    init = [e["data"]["text"] for e in eng.gf.log if e["kind"] == "rules" and e["data"]["type"] == "initiative"]
    assert [t.split(":")[0] + ": " + t.split(": ")[1].split(" (")[0] for t in init] == [
        "20N: US idle, German attack", "21AM: US idle, German idle", "21PM: US attack, German idle"]
    assert [(p["date"], p["rg"], p["name"], p["cpp"]) for p in st["purchases"]["us"]] == [
        ("20N", "I2", "Paratroop Infantry Platoon", 5), ("21AM", "V5", "Armored Car Section", 3),
        ("21PM", "O1", "60mm MTR OBA", 3)]
    assert [(p["date"], p["rg"], p["name"]) for p in st["purchases"]["german"]] == [
        ("20N", "V4", "AA HT Section II"), ("21PM", "HW2", "SS MG Platoon")]
    # 24 + 4 + 3 + 3 replenished - 5 - 3 - 3 bought; 35 + 2 + 2 + 2 - 5 - 5
    assert st["cpp"] == {"us": 23, "german": 31}
    # the I and HW RGs bought came with their sealed Objective Hexes (8.2), still secret at the end
    sealed = {s: [(x["id"], x["kind"], x["date"], bool(x.get("opened"))) for x in st["sealed"][s]] for s in SIDES}
    assert sealed == {"us": [("objective-ob-us-I2-1", "objective_hex", "20PM", True),
                             ("objective-ob-us-I2-2", "objective_hex", "20PM", False),
                             ("objective-ob-us-I2-3", "objective_hex", "20PM", False),
                             ("objective-I2-1", "objective_hex", "20N", False)],
                      "german": [("objective-ob-german-I2-1", "objective_hex", "20PM", False),
                                 ("objective-ob-german-I2-2", "objective_hex", "20PM", False),
                                 ("objective-ob-german-HW2-1", "objective_hex", "20PM", False),
                                 ("objective-HW2-1", "objective_hex", "21PM", False)]}
    assert st["opened"]["us"] == [{"id": "objective-ob-us-I2-1", "kind": "objective_hex", "value": "ChW8"}]


def test_the_scenario_rolls_and_the_set_up_secrets(played):
    _, eng, _, _, _, _ = played
    st = eng.state
    rolls = [(r["date"], r["turn"], r["roll"], r["side"]) for r in st["rolls"]]
    assert ("20N", 2, "reinforcement", "us") in rolls                  # CG5: the Night Scenario Defender
    assert all(t >= 6 for _, t, name, _ in rolls if name == "game_end")
    assert not [r for r in rolls if r[2] == "sniper_selection"]       # Ch: 1 Sniper counter, no dr
    ends = [r for r in st["rolls"] if r["roll"] == "game_end" and "ends at once" in r["why"]]
    assert [r["date"] for r in ends] == ["20PM", "20N", "21PM"]       # each scenario ended on a Game End dr
    assert any("+1 (Night)" in r["why"] for r in st["rolls"] if r["date"] == "20N")
    assert [(r["date"], r["purpose"]) for r in st["secret_rolls"]["german"]] == [("20PM", "7.2 dummy minefields")]
    assert st["secret_rolls"]["us"] == []
    texts = [e["data"]["text"] for e in eng.gf.log if e["kind"] == "rules"]
    # the one disagreement (d20PM.report), settled by the second round of reports (d20PM.report.2)
    disagree = [e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"]["type"] == "report.disagree"]
    assert [d["decision"] for d in disagree] == ["d20PM.report"]
    assert disagree[0]["text"].startswith("the two reports disagree on lvp: both sides report again")
    assert any(t.startswith("US open objective_hex objective-ob-us-I2-1: ChW8") for t in texts)
    refit = {(r["date"], r["step"]): r["status"] for r in st["refit"]}
    assert refit[("20N", "8.608")] == "recorded" and refit[("21AM", "8.608")] == "skipped"      # prisoners
    assert refit[("21PM", "8.612")] == "computed"                     # the Idle Date's "*" steps


def test_audit_replays_the_whole_campaign(played):
    work, _, _, _, _, _ = played
    res = audit(work / "game.yaml")
    assert res.ok, res.problems
    assert res.signatures == len(shipped_files()) and res.commitments == 6


def test_no_report_shows_the_other_sides_secrets(played):
    _, _, checks, resolutions, leaks, own = played
    assert checks == len(resolutions) * 3 * len(FORMATS)
    assert leaks == []
    # the check looks at something: each side's own report shows its own secrets
    for side in SIDES:
        assert all(n > 0 for s, fmt, n in own[-2 * len(FORMATS):] if s == side)


def test_the_german_cannot_play_a_second_attack_chit(played):
    work, _, _, _, _, _ = played
    res = CliRunner().invoke(main, ["commit", str(work / "at-21PM-refit.yaml"), "--side", "german", "--key",
                                    str(work / "keys" / "german"), "--choice", "chit: attack",
                                    "--dir", str(work / "tries")])
    assert res.exit_code == 2
    assert "German have used all 1 Attack chits CG-II allows: choose idle" in res.output
    assert "8.52 Attack Chit limits" in res.output


def test_no_sniper_selection_dr_on_the_cheneux_map_group(played):
    work, _, _, _, _, _ = played
    res = CliRunner().invoke(main, ["answer", str(work / "at-21PM-t2.yaml"), "--side", "us", "--key",
                                    str(work / "keys" / "us"), "--choice", "rolls: [{roll: sniper_selection}]",
                                    "--dir", str(work / "tries")])
    assert res.exit_code == 2
    assert "with 1 Sniper counter (the Ch map group) no selection dr is made" in res.output
    res = CliRunner().invoke(main, ["answer", str(work / "at-21PM-t2.yaml"), "--side", "us", "--key",
                                    str(work / "keys" / "us"), "--choice", "rolls: [{roll: game_end}]",
                                    "--dir", str(work / "tries")])
    assert res.exit_code == 2 and "no Game End dr before Turn 6 (this is Turn 2)" in res.output


def test_a_second_game_end_dr_in_one_players_orders_is_refused(played):
    """The attack: the US, moving first, wants two chances to end a scenario he is winning on Turn 6
    and asks for his Game End dr twice in the turn's orders (CG Game End: one per Player Turn, by
    the phasing player).  Before: accepted, and both drs were rolled.  Refused by his own `answer`
    and, signed by hand past it, by the umpire's `submit`; the game file is unchanged."""
    from tests.security import attacker

    work, _, _, _, _, _ = played
    game = work / "at-turn-6.yaml"
    twice = "rolls: [{roll: game_end, side: us}, {roll: game_end, side: us}]"
    (work / "tries").mkdir(exist_ok=True)
    before = attacker.sha(game)
    res = CliRunner().invoke(main, ["answer", str(game), "--side", "us", "--key", str(work / "keys" / "us"),
                                    "--choice", twice, "--dir", str(work / "tries")])
    assert res.exit_code == 2
    assert "one Game End dr per Player Turn" in res.output and "CG Game End" in res.output
    eng = Engine.load(game)
    dec = eng.awaiting[0]
    assert dec.id.endswith(".t6") and dec.sides == ("us",)
    forged = attacker.signed_file(game, "us", str(work / "keys" / "us"), work / "twice.yaml", {
        "decision": dec.id, "kind": "answer", "choice": {"rolls": [{"roll": "game_end", "side": "us"}] * 2},
        "link": eng.next_link("us", load_private_key(work / "keys" / "us"), dec)})
    res = CliRunner().invoke(main, ["submit", str(game), str(forged)])
    assert res.exit_code == 2, res.output
    assert "one Game End dr per Player Turn" in res.output and "Traceback" not in res.output
    assert attacker.sha(game) == before
    # the honest turn: each phasing player's own dr, the US then the German
    res = CliRunner().invoke(main, ["answer", str(game), "--side", "us", "--key", str(work / "keys" / "us"),
                                    "--choice", "rolls: [{roll: game_end, side: us}, {roll: game_end, side: german}]",
                                    "--dir", str(work / "tries")])
    assert res.exit_code == 0, res.output


def test_hxref_demo_plays_the_kgp_campaign(tmp_path):
    folder = tmp_path / "play"
    res = CliRunner().invoke(main, ["demo", "--system", "kgp", "--keep", str(folder), "--format", "md"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "hxref demo: kgp -- cg-ii" in out
    assert "$ hxref submit game.yaml us-d20PM.t3.yaml" in out
    assert "$ hxref submit game.yaml us-d20N.refit-commit.yaml" in out
    assert "$ hxref resolve game.yaml --key keys/umpire" in out
    assert out.count("$ hxref report game.yaml") == 15
    assert "## Campaign result: US (8.52)" in out
    assert "| 21AM | Idle Date | - | - | 9 | 17 | - |" in out
    assert re.search(rf"audit OK: \d+ events replayed; {len(shipped_files())} signatures verified", out)
    assert out.rindex("Campaign result") < out.index("audit OK")
    for who in ("public", "us", "german"):
        assert (folder / f"report-{who}.html").stat().st_size > 1000


# --- the fixes made while building the shipped game (solo games through the engine) ---------------

@pytest.fixture
def solo(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    monkeypatch.setattr("hxref.referee.engine.random_hex", lambda n=32: "4b" * n)
    return Engine.create(tmp_path / "cg.yaml", system="kgp", scenario="cg-ii", mode="solo",
                         sides={"us": None, "german": None}, game_id="kgp-play-fixes")


def _answer(eng, choices: dict):
    from tests.kgp.test_flow import with_ob_seals

    dec = eng.awaiting[0]
    for side in dec.sides:
        choice = choices.get(side, {})
        eng.answer_solo(side, dec.id, with_ob_seals(eng, side, choice) if dec.kind == "setup" else choice)
    eng.resolve()


def _problems(eng, side, choice):
    """The problems the engine finds: the schema's (hxref.referee.orders) first, then the rules'."""
    from hxref.kit import schema

    dec = eng.awaiting[0]
    found = schema.check(dec.schema, choice, dec.rule) or eng.system.check(eng.state, dec, side, choice)
    return [p.message for p in found]


def _play_turns(eng):
    """The scenario's turns until a Game End dr ends it (CG Game End: from Turn 6, no fixed length)."""
    for _ in range(60):
        if not eng.awaiting or eng.awaiting[0].kind != "turn":
            return
        rolls = [{"roll": "game_end", "side": s} for s in ("us", "german")] if eng.state["turn"] >= 6 else []
        _answer(eng, {"us": {"rolls": rolls} if rolls else {}})
    raise AssertionError("no Game End dr ended the scenario in 60 turns")


def _to_report(eng):
    _answer(eng, {})
    _play_turns(eng)


REP = {"lvp": {"us": 4, "german": 8}, "cvp": {"us": 1, "german": 2}}


def test_a_report_naming_no_hex_of_the_map_group_is_refused_when_sent(solo):
    """Before: accepted, then every resolution failed and the game was stuck with both answers in."""
    _to_report(solo)
    assert _problems(solo, "us", {**REP, "hexes": {"us": ["Zz99"]}}) == ["'Zz99' is not a hex of the Ch map group"]
    assert _problems(solo, "us", {**REP, "hexes": ["ChNN6"]})[0].startswith("`hexes` must be a mapping: the LVP hexes each side holds")
    assert _problems(solo, "us", {**REP, "bridge_destroyed_by": "nobody"}) \
        == ["`bridge_destroyed_by` must be one of us, german (got 'nobody')"]
    assert _problems(solo, "us", {**REP, "hexes": {"us": ["NN6"]}}) == []          # the prefix is optional


def test_refit_orders_need_a_whole_replenishment_and_a_fresh_seal_id(solo):
    from hxref.crypto import commit
    from hxref.systems.kgp.sealing import seal_choice

    def sealed(item_id, value):
        c = commit.commitment(seal_choice(item_id, "objective_hex", value), "ab" * 32)
        return {"id": item_id, "kind": "objective_hex", "commitment": c}

    _answer(solo, {"us": {"seal": [sealed("objective-I2-1", "ChW8")]}})
    _play_turns(solo)
    _answer(solo, {"us": REP, "german": REP})
    assert solo.awaiting[0].id == "d20N.refit"
    assert _problems(solo, "us", {"chit": "idle", "cpp_replenishment": -5}) \
        == ["`cpp_replenishment` must be 0 or more (got -5)"]
    assert _problems(solo, "us", {"chit": "idle", "purchase": [2]}) == ["`purchase[0]` must be a text (got 2)"]
    # the set-up secret took the id the I2 purchase's Objective Hex would have: refused, not shadowed
    assert _problems(solo, "us", {"chit": "idle", "purchase": ["I2"], "seal": [sealed("objective-I2-1", "ChLL9")]}) \
        == ["US already sealed a secret called 'objective-I2-1' on 20PM: give this one another id"]


def test_no_roll_after_the_game_end_dr_that_ends_the_scenario(solo):
    _answer(solo, {})
    while solo.state["turn"] < 6:
        _answer(solo, {"us": {}})
    both = {"rolls": [{"roll": "game_end", "side": "us"}, {"roll": "game_end", "side": "german"}]}
    while solo.state["stage"] == "play":
        _answer(solo, {"us": both})
    last = [r for r in solo.state["rolls"] if r["turn"] == solo.state["turn"]]
    texts = [e["data"]["text"] for e in solo.gf.log if e["kind"] == "rules"]
    # with this game's solo seed the US dr of Turn 7 ends it: the German's is not made
    assert [(r["turn"], r["side"]) for r in solo.state["rolls"]] == [(6, "us"), (6, "german"), (7, "us")]
    assert "ends at once" in last[0]["why"] and "the scenario has ended: not made: game_end (German)" in texts


def test_cg5_reinforcement_dr_is_the_night_defenders_until_they_enter(solo):
    _to_report(solo)
    _answer(solo, {"us": REP, "german": REP})
    _answer(solo, {"us": {"chit": "idle"}, "german": {"chit": "attack"}})            # 20N: the German attacks
    assert solo.state["scenario"]["defender"] == "us" and solo.awaiting[0].sides == ("german",)
    assert "made by the phasing player (the US)" in _problems(solo, "german", {"rolls": [
        {"roll": "reinforcement", "side": "german"}]})[0]
    for _ in range(6):
        if any(r.get("enters") for r in solo.state["rolls"]):
            break
        _answer(solo, {"german": {"rolls": [{"roll": "reinforcement", "side": "us"}]}})
    assert any(r.get("enters") for r in solo.state["rolls"])
    assert _problems(solo, "german", {"rolls": [{"roll": "reinforcement", "side": "us"}]}) == [
        "these reinforcements may already enter: no further dr"]
