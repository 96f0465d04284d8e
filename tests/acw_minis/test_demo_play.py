"""The ACW miniatures demo game played to its end: the shipped open game in
orders/acw_minis/mercers-mill/ -- every player turn of The Fight for Mercer's Mill from the
players' signed order files (the phasing player's orders, the other player's dice link) --
replayed through the command line, with

* the exact result, and the scenario's victory rule (4 of 6 enemy units eliminated at once, else
  the town holder at the end of turn 15, else a draw) worked out again from the state after
  every resolution;
* every shot of the log with its range, field of fire, die and hits, each checked against the
  rules module on the state it was shot in and against the verifiable dice;
* `hxref audit` passing, `hxref demo --system acw-minis` printing it all, and the table picture
  of the final position drawing the last shots.

The shipped game is made by `python tools/make_demo_orders.py acw-minis` (scripted players).
"""
from __future__ import annotations

import copy
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.paths import orders_dir
from hxref.systems.acw_minis import sequence, shooting
from hxref.systems.acw_minis.units import ELIMINATION_HITS, TOLERANCE
from hxref.systems.acw_minis.system import SYSTEM, _units

DEMO = orders_dir() / "acw_minis" / "mercers-mill"
SIDES = ("union", "confederate")
#: what the shipped game comes to (the dice come from the shipped join, answer and roll files)
WINNER, LOSER = "union", "confederate"
WHY = ("union has eliminated 4 enemy units (Ransome's Tigers, Cosby's Brigade, Tatum's Brigade, Pegues' Horse): "
       "it wins at once")
#: the units it names, by their ids in the scenario
ELIMINATED = ["cs-2", "cs-3", "cs-5", "cs-6"]
LAST = "t8.union"
PLAYER_TURNS = [f"t{t}.{s}" for t in range(1, 9) for s in SIDES][:-1]   # t1.union .. t8.union


def _cli(*args: str) -> str:
    res = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert res.exit_code == 0, f"hxref {' '.join(args)}:\n{res.output}"
    return res.output


def _rule_result(state: dict) -> dict | None:
    """The scenario's victory rule, worked out again from the units on the table (not from the
    system's own bookkeeping): after the player turn just played."""
    rule = state["victory_rule"]
    need = int(rule["elimination"]["enemy_units"])
    played = state["last"]["side"]
    out = {s: sorted(u for u, x in state["units"].items() if x["side"] == s and x.get("eliminated")) for s in SIDES}
    for s in SIDES:
        assert all(state["units"][u]["hits"] >= ELIMINATION_HITS for u in out[s])
        assert all(x["hits"] < ELIMINATION_HITS for x in state["units"].values() if not x.get("eliminated"))
    enemy = "confederate" if played == "union" else "union"
    if len(out[enemy]) >= need:
        return {"winner": played, "eliminated": out[enemy]}
    if len(out[played]) >= need:            # only the phasing side eliminates units (A5)
        raise AssertionError("the side that did not shoot lost its 4th unit")
    if state["last"]["turn"] >= int(rule["town"]["at_end_of_turn"]) and played == state["order"][1]:
        town = next(a for a in SYSTEM.table(state).table.areas if a.name == rule["town"]["area"])
        inside = {x["side"] for x in state["units"].values() if not x.get("eliminated")
                  and town.contains_point((x["x"], x["y"]))}
        return {"winner": inside.pop() if len(inside) == 1 else None, "eliminated": None}
    return None


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Replay the manifest's steps through the CLI (new, submit, resolve), keeping the state before
    every resolution for the checks below."""
    work = tmp_path_factory.mktemp("acw")
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    for f in DEMO.glob("*.yaml"):
        if f.name != "demo.yaml":
            shutil.copy(f, work / f.name)
    shutil.copytree(DEMO / "keys", work / "keys", ignore=lambda d, names: [n for n in names if not n.endswith(".pub")])
    old_cwd, old_now = os.getcwd(), os.environ.get("HXREF_NOW")
    os.chdir(work)
    os.environ["HXREF_NOW"] = man["created"]
    before: dict[str, dict] = {}
    outputs: list[str] = []
    try:
        _cli("new", "game.yaml", "--system", man["system"], "--scenario", man["scenario"], "--mode", man["mode"],
             "--game-id", man["game_id"], "--created", man["created"], "--nonce", man["nonce"],
             "--charts-from", man["charts_from"],
             *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in man["policy"].items()), []),
             *sum((["--side", f"{s}={k}"] for s, k in man["keys"].items()), []))
        for step in man["steps"]:
            if "submit" in step:
                outputs.append(_cli("submit", "game.yaml", *step["submit"]))
            elif "resolve" in step:
                eng = Engine.load("game.yaml")
                before[eng.awaiting[0].id] = copy.deepcopy(eng.state)
                outputs.append(_cli("resolve", "game.yaml"))
    finally:
        os.chdir(old_cwd)
        if old_now is None:
            os.environ.pop("HXREF_NOW", None)
        else:
            os.environ["HXREF_NOW"] = old_now
    return work / "game.yaml", Engine.load(work / "game.yaml"), before, man


def _events(eng, decision: str, kind: str | None = None) -> list[dict]:
    return [e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("decision") == decision
            and (kind is None or e["data"].get("type") == kind)]


def test_every_player_turn_is_played_from_the_shipped_order_files(played):
    path, eng, before, man = played
    assert list(before) == PLAYER_TURNS
    assert eng.finished and eng.awaiting == [] and eng.mode == "open"
    # each player turn: the phasing side's signed orders and the other side's dice link
    files = [n for s in man["steps"] for n in s.get("submit", [])]
    assert len(files) == 2 + 2 * len(PLAYER_TURNS) and all((DEMO / n).is_file() for n in files)
    for dec in PLAYER_TURNS:
        side = dec.split(".")[1]
        other = "confederate" if side == "union" else "union"
        assert f"{side}-{dec}.yaml" in files and f"{other}-{dec}-roll.yaml" in files
        assert yamlio.fast_load((DEMO / f"{side}-{dec}.yaml").read_text())["kind"] == "answer"


def test_the_game_ends_with_the_exact_result_of_the_scenario_rule(played):
    _, eng, before, _ = played
    st = eng.state
    assert st["result"] == {"winner": WINNER, "why": WHY}
    assert f"t{st['turn']}.{st['last']['side']}" == LAST
    again = _rule_result(st)
    named = re.search(r"\(([^)]*)\)", WHY).group(1).split(", ")       # the units the result names
    assert sorted(named) == sorted(st["units"][u]["name"] for u in ELIMINATED)
    assert again == {"winner": WINNER, "eliminated": ELIMINATED}
    assert sorted(st["eliminated"][LOSER]) == again["eliminated"]
    assert len(st["eliminated"][WINNER]) < 4                  # the winner had not lost his first
    # before the last player turn the rule gave nothing: no side had 4, and turn 15 was not reached
    decs = list(before)
    for prev, dec in zip(decs, decs[1:]):
        state = before[dec]
        assert state["result"] is None and _rule_result(state) is None, prev
    events = _events(eng, LAST)
    assert events[-1] == {"decision": LAST, "type": "victory", "rule": "scenario", "text": WHY}


def test_every_shot_has_its_range_arc_die_and_hits(played):
    _, eng, before, _ = played
    dice = [e["data"] for e in eng.gf.log if e["kind"] == "die"]
    n = 0
    for dec, state in before.items():
        side = dec.split(".")[1]
        tm = SYSTEM.table(state)
        units = sequence.start_player_turn(_units(state), side)
        shots = _events(eng, dec, "shot")
        rolled = {d["purpose"]: d for d in dice if d["decision"] == dec}
        after = next(h for h in eng.state["history"] if f"t{h['turn']}.{h['side']}" == dec)
        assert len(shots) == len(rolled) == len(after["shots"])
        for ev, rec in zip(shots, after["shots"]):
            shooter, target = rec["from"], rec["to"]
            names = state["units"][shooter]["name"], state["units"][target]["name"]
            assert ev["text"].startswith(f"{names[0]} shoots at {names[1]}: ") and ev["side"] == side
            # the rules, on the state it was shot in (the shooter did not move; the target is the enemy's)
            chk = shooting.check_shot(tm, units, shooter, target, phasing=side)
            assert chk.ok, chk.problems
            arc = f"all round (in {chk.why.split('all round (in ')[1].split(')')[0]})" \
                if chk.all_round else "within 45° of the front"
            assert arc in ev["text"]
            assert f'range {chk.range:.1f}" of {chk.max_range}"' in ev["text"]
            assert rec["distance"] == round(chk.range, 1) and rec["range"] == chk.max_range
            assert chk.range <= chk.max_range + TOLERANCE
            assert rec["cover"] == chk.target_in_cover
            # the die: the verifiable roll, by the phasing side
            roll = rolled[f"shot {shooter} at {target} (A4)"]
            assert roll["by"] == side and roll["faces"] == [rec["die"]]
            hit = shooting.hits(units[shooter], chk.target_in_cover, rec["die"])
            assert hit.hits == rec["hits"] and ev["text"].endswith(hit.why)
            assert re.search(r"d6 \d( [+-]\d \(\w+\))? = -?\d+(, floored at 0)?(, halved for cover \(rounded up\))?: "
                             r"\d+ hits?$", ev["text"])
            n += 1
    assert n > 40


def test_the_game_used_the_rules(played):
    """Moves with pivots, the town's cover, the modifiers and the 0 floor, shooting across the creek."""
    _, eng, _, _ = played
    texts = [e["data"]["text"] for e in eng.gf.log if e["kind"] == "rules"]
    kinds = {e["data"]["type"] for e in eng.gf.log if e["kind"] == "rules"}
    assert {"move", "shot", "eliminate", "victory"} <= kinds
    assert any("end pivot" in t for t in texts) and any("start pivot" in t for t in texts)
    assert any("halved for cover" in t for t in texts)
    assert any("+2 (zouaves)" in t for t in texts) and any("-2 (cavalry)" in t for t in texts)
    assert any("-2 (artillery)" in t for t in texts) and any("floored at 0" in t for t in texts)


def test_audit_replays_the_whole_game(played):
    path, _, before, _ = played
    res = audit(path)
    assert res.ok, res.problems
    assert res.signatures == 2 + 2 * len(before) and res.dice > 40
    out = _cli("audit", str(path))
    assert out.startswith("audit OK")


def test_the_final_table_picture_draws_the_last_shots(played, tmp_path):
    path, eng, _, _ = played
    svg = tmp_path / "union.svg"
    _cli("map", "show", str(path), "--side", "union", "--svg", str(svg))
    text = svg.read_text()
    assert "<svg" in text[:200]
    import xml.etree.ElementTree as ET

    shots = next(g for g in ET.fromstring(text).iter("{http://www.w3.org/2000/svg}g") if g.get("id") == "shots")
    group = ET.tostring(shots, encoding="unicode")     # the group with the groups inside it (label halos)
    last = eng.state["last"]["shots"]
    units = eng.state["units"]
    assert last and {units[s["from"]]["side"] for s in last} == {WINNER}       # the turn that won the game
    killed = sorted({s["to"] for s in last if units[s["to"]].get("eliminated")})
    assert killed                                    # these shots eliminated the winner's 4th unit
    names = {uid: (u.get("name") or uid).split("'")[0] for uid, u in eng.state["units"].items()}
    for s in last:
        # the shooter's field of fire out to its range, and the line to the target with the hits and die
        assert f'{names[s["from"]]}: field of fire, {s["range"]}" range' in group
        assert f'{s["hits"]} hit{"" if s["hits"] == 1 else "s"} (d6 {s["die"]})' in group
    assert len(shots.findall("{http://www.w3.org/2000/svg}line")) == len(last)
    # the units still on the table, and (greyed) those these shots eliminated, where they stood
    drawn = re.findall(r'class="unit" data-id="([^"]+)"', text)
    assert sorted(drawn) == sorted([u for u, x in units.items() if not x.get("eliminated")] + killed)
    for uid in killed:
        assert f"{units[uid]['type']}, eliminated" in text


def test_hxref_demo_plays_the_acw_game(tmp_path):
    folder = tmp_path / "play"
    res = CliRunner().invoke(main, ["demo", "--system", "acw-minis", "--keep", str(folder), "--format", "md"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    out = res.output
    # the roll follows the answer it sees (a link shown before the orders would let them be chosen by it)
    assert "$ hxref submit game.yaml union-t1.union.yaml\n" in out
    assert "$ hxref submit game.yaml confederate-t1.union-roll.yaml\n" in out
    assert "$ hxref resolve game.yaml\n" in out
    # a report after every player turn but the last, then the final public and players' reports
    assert out.count("$ hxref report game.yaml") == len(PLAYER_TURNS) - 1 + 3
    assert out.count("## Shots of the ") >= len(PLAYER_TURNS)
    assert f"- Result: {WINNER.upper()} -- {WHY}" in out
    signed = 2 + 2 * len(PLAYER_TURNS)          # the joins, then each turn's orders and dice link
    assert re.search(rf"audit OK: \d+ events replayed; {signed} signatures verified", out)
    assert out.index("- Result: ") < out.index("audit OK")
    for who in ("public", "union", "confederate"):
        assert '<g id="shots"' in (folder / f"report-{who}.html").read_text()
    assert Path(folder / "game.yaml").is_file()
