"""Salem Church played by e-mail to the end: the shipped umpired game in
orders/salem_church/salem-church/ -- 14 turns from the players' signed order files, resolved by
the umpire's key --, with

* line-of-sight fog checked after every resolution, the game replayed through the engine: no
  report of a side, in any format (rich, text, Markdown, HTML, JSON, the SVG map), names an enemy
  unit that side does not see (:func:`hxref.systems.salem_church.views.seen_units`); the public
  report names no unit its enemy does not see.  The sweep is :data:`SWEEP_PARTS` tests, each
  replaying the game and checking the reports after its share of the resolutions;
* the victory determination after turn 14, the same as :func:`victory.determine` on the final
  state, and `hxref audit` passing, on the game `hxref demo --system salem-church --keep` played
  for the test run (tests/played.py), with what that command printed;
* `hxref map show GAME --side union --svg`.

The shipped game is made by `python tools/make_demo_orders.py salem-church` (scripted players).
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.paths import orders_dir
from hxref.report import turn
from hxref.report.mapsvg import render_svg
from hxref.systems.salem_church import victory
from hxref.kit.charts import Charts
from hxref.systems.salem_church.board import hexmap
from hxref.systems.salem_church.views import seen_units
from tests.demo_sweep import leaks, report_formats
from tests.played import replay_folder

DEMO = orders_dir() / "salem_church" / "salem-church"
SIDES = ("union", "confederate")
FORMATS = ("rich", "text", "md", "html", "json", "svg")
#: what the shipped game comes to (the dice come from the shipped join files and the umpire's key)
RESULT = "union marginal victory"
WINNER = "union"


def _other(side: str) -> str:
    return "confederate" if side == "union" else "union"


_SEEN: dict = {}


def _seen(state: dict, side: str) -> set[str]:
    """:func:`views.seen_units`, once per side and placing of the units (the reports ask again)."""
    key = (side, tuple(sorted((uid, u.get("hex"), (u.get("steps") or 0) > 0) for uid, u in state["units"].items())))
    if key not in _SEEN:
        _SEEN[key] = seen_units(state, hexmap(Charts.today("salem-church"), state), side)
    return set(_SEEN[key])


def _unseen(state: dict, side: str) -> list[str]:
    """The ids and names of the enemy units ``side`` does not see now."""
    seen = _seen(state, side)
    out = []
    for uid, u in state["units"].items():
        if u["side"] != side and uid not in seen:
            out += [uid, u["name"]]
    return out


_leaks = leaks


@functools.lru_cache(maxsize=None)
def _map(path):
    from hxref.geometry.mapfile import load_map

    return load_map(path)


def _reports(eng, audience, since: int | None = None) -> dict[str, str]:
    """The report of ``audience`` in every format; rich, text and html from one recording console,
    as :func:`hxref.report.turn.to_text` and ``to_html`` make them.  ``since``: the story of the
    resolutions after that event (a reader who read every report), so a unit out of sight now is
    named by no part of it; what a reader who skipped reports is told of earlier resolutions is
    checked by tests/core/test_report_story.py (only events visible to him)."""
    rep = turn.build(eng, audience, since)
    out = report_formats(eng, audience, rep)
    mv = eng.system.map_view(rep.facts["view"])
    path, units = mv.map_path, mv.units                          # the map `hxref report --format html` ends with
    out["svg"] = render_svg(_map(path), units)
    return out


#: the fog sweep is cut into this many parts, each a test: part k checks the reports after the
#: k-th resolution, the (k + SWEEP_PARTS)-th, ... so that the parts together check every one once
SWEEP_PARTS = 3


@pytest.fixture(scope="module")
def game(played):
    """The shipped game played to its end, as `hxref demo --keep` left it for the run (tests/played.py):
    its game file and the engine on it (read only)."""
    path = played.folder("salem-church") / "game.yaml"
    return path, Engine.load(path)


@dataclass
class Sweep:
    resolutions: list[str]          # every resolution of the game, in order
    mine: list[int]                 # the indexes of those after which this part checked the reports
    checks: int                     # the reports checked (an audience's report in one format)
    leaks: list


@pytest.fixture(scope="module", params=range(SWEEP_PARTS), ids=[f"{k + 1}of{SWEEP_PARTS}" for k in range(SWEEP_PARTS)])
def sweep(request, tmp_path_factory) -> Sweep:
    """The shipped game replayed resolution by resolution (:func:`tests.played.replay_folder`), every
    report checked after this part's share of the resolutions."""
    from hxref.systems.salem_church import views

    part = request.param
    patch = pytest.MonkeyPatch()
    patch.setattr(views, "seen_units", lambda state, hm, side, **kw: _seen(state, side) if not kw
                  else seen_units(state, hm, side, **kw))
    checks, resolutions, mine, leaks = 0, [], [], []
    before = 0
    try:
        for what, names, eng in replay_folder(DEMO, tmp_path_factory.mktemp("salem")):
            if what != "resolve":
                before = len(eng.gf.log)
                continue
            for name in names:
                resolutions.append(name)
            if (len(resolutions) - 1) % SWEEP_PARTS != part:
                before = len(eng.gf.log)
                continue
            mine.append(len(resolutions) - 1)
            secrets = {side: _unseen(eng.state, side) for side in SIDES}
            for side in SIDES:
                for fmt, text in _reports(eng, side, before).items():
                    found = _leaks(text, secrets[side])
                    if found:
                        leaks.append((resolutions[-1], side, fmt, found))
                    checks += 1
            # the public report: a unit only when its enemy sees it
            for fmt, text in _reports(eng, None, before).items():
                found = _leaks(text, secrets["union"] + secrets["confederate"])
                if found:
                    leaks.append((resolutions[-1], "public", fmt, found))
                checks += 1
            before = len(eng.gf.log)
    finally:
        patch.undo()
    return Sweep(resolutions, mine, checks, leaks)


def test_all_fourteen_turns_are_played_from_the_shipped_order_files(game):
    path, eng = game
    resolutions = [e["data"]["decision"] for e in eng.gf.log if e["kind"] == "resolve"]
    expected = ["t0.setup"] + [f"t{t}.{side}" for t in range(1, 15) for side in SIDES]
    assert resolutions == ["join"] + expected           # the joins resolved as they came in
    assert eng.finished and eng.awaiting == []
    assert eng.state["stage"] == "over" and eng.state["turn"] == 14
    # every order file the manifest submits is shipped and was signed by its side's key
    files = [n for s in yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))["steps"] for n in s.get("submit", [])]
    assert len(files) == 3 + 1 + 28 and all((DEMO / n).is_file() for n in files)


def test_the_game_ends_in_the_victory_determination(game):
    _, eng = game
    v = eng.state["victory_result"]
    assert v["final"] and v["checked_at"] == "end of turn 14"
    assert v["result"] == RESULT and v["rule"] == "14.3" and v["winner"] == WINNER
    # the same as the rules give on the final state
    again = victory.determine(eng.state, eng.state["rules"], end_of_turn=14)
    assert again.to_dict() == v
    # 14.3: neither major victory; the wagon train escaped by 1204 (16.0), so no capture either
    assert eng.state["wagon"] == {"exited": "escape", "captured": False, "hex": "1204",
                                  "seen_by": ["confederate", "union"]}
    # 14.3 stand-in: enemy steps lost (the batteries bombard, 17.3): the Union leads by 5, a marginal victory
    assert v["score"]["points"] == {"union": 10, "confederate": 5}
    # 1204 is the Union's; 1302, 2114 and 2407 the Confederates' (14.1, 14.2): one short of 14.2
    assert {h: eng.state["control"].get(h) for h in ("1204", "1302", "2114", "2407")} == {
        "1204": "union", "1302": "confederate", "2114": "confederate", "2407": "confederate"}
    events = [e["data"] for e in eng.gf.log if e["kind"] == "rules"]
    assert events[-1]["type"] == "victory" and events[-1]["decision"] == "t14.confederate"


def test_audit_replays_the_whole_game(game):
    path, _ = game
    res = audit(path)
    assert res.ok, res.problems
    assert res.signatures == 32 and res.dice > 50


def test_the_game_used_the_rules(game):
    """Moves, arrivals, combats and counter-attacks, replacements, night, initiative, the wagon train."""
    _, eng = game
    kinds = {e["data"].get("type") for e in eng.gf.log if e["kind"] == "rules"}
    for k in ("setup", "move", "combat", "replacement", "recover", "night", "initiative", "wagon.exit", "control",
              "turn.end", "victory"):
        assert k in kinds, k
    combats = [e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "combat"]
    assert any(c["rule"] == "7.2" for c in combats) and any(c["rule"] == "B1" for c in combats)
    # 15.0 shows in the explanation of an attack on Salem Church
    assert any(m["rule"] == "15.0" for c in combats for m in (c.get("explain") or {}).get("modifiers", []))


def test_no_report_names_an_enemy_unit_out_of_sight(sweep):
    """After this part's share of the resolutions (:data:`SWEEP_PARTS`), every side's and the public
    report in every format."""
    assert len(sweep.resolutions) == 1 + 14 * 2
    assert sweep.mine == list(range(sweep.mine[0], len(sweep.resolutions), SWEEP_PARTS)) and sweep.mine[0] < SWEEP_PARTS
    assert sweep.checks == len(sweep.mine) * 3 * len(FORMATS)
    assert sweep.leaks == []


def test_fog_hides_enemies_and_events_but_keeps_the_turn_summary(game):
    """The fog is real: at the end each side sees only part of the enemy army, the umpire all; each
    side's report still lists every combat of the turn, the unseen units not named."""
    _, eng = game
    for side in SIDES:
        view = json.loads(turn.render(turn.build(eng, side), "json"))["view"]
        enemy_on_map = {u for u, x in eng.state["units"].items() if x["side"] != side and x.get("hex")}
        shown = {u for u, x in view["units"].items() if x["side"] != side}
        assert shown == seen_units(eng.state, hexmap(eng.system.charts, eng.state), side) and shown <= enemy_on_map
        assert len(view["combats"]) == len(eng.state["combats"]) > 0
    umpire = json.loads(turn.render(turn.build(eng, "umpire"), "json"))["view"]
    assert set(umpire["units"]) == set(eng.state["units"])
    # some events were told to one side only, or again without the unseen units' names
    rules = [e["data"] for e in eng.gf.log if e["kind"] == "rules"]
    told = [d for d in rules if "visible_to" in d]
    assert told and any("an unseen " in json.dumps(d) for d in told)


def test_the_turn_summary_table_is_in_every_report(game):
    _, eng = game
    for side in SIDES:
        md = turn.render(turn.build(eng, side), "md")
        assert "## Turn summary: the combats of turn 14" in md
        assert "| turn | by | attackers | target | A-D | column | die | result | effects |" in md


def test_map_show_draws_what_the_union_sees(game, tmp_path):
    path, eng = game
    svg = tmp_path / "union.svg"
    res = CliRunner().invoke(main, ["map", "show", str(path), "--side", "union", "--svg", str(svg)],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    text = svg.read_text()
    assert text.startswith("<svg") or "<svg" in text[:200]
    mine = [u["name"].split("/")[0] for u in eng.state["units"].values()
            if u["side"] == "union" and u.get("hex") and u["steps"] > 0]
    assert mine and all(label in text for label in mine)
    seen = seen_units(eng.state, hexmap(eng.system.charts, eng.state), "union")
    unseen = [u["name"].split("/")[0] for uid, u in eng.state["units"].items()
              if u["side"] == "confederate" and uid not in seen]
    assert unseen and not [label for label in unseen if re.search(r"\b" + re.escape(label) + r"\b", text)]


def test_hxref_demo_plays_the_salem_church_game(played):
    """`hxref demo --system salem-church --keep FOLDER --format md`, as played for the run (tests/played.py)."""
    folder = played.folder("salem-church")
    out = played.output("salem-church")
    assert "$ hxref submit game.yaml union-t14.union.yaml" in out
    assert "$ hxref resolve game.yaml --key keys/umpire" in out
    assert f"## Victory (14.0): {RESULT.upper()} (14.3)" in out
    assert re.search(r"audit OK: \d+ events replayed; 32 signatures verified", out)
    assert out.index("Victory (14.0)") < out.index("audit OK")
    for who in ("public", "union", "confederate"):
        assert (folder / f"report-{who}.html").stat().st_size > 1000
