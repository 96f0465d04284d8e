"""The Heartland impulse played by e-mail (issue: Heartland part 1): the shipped umpired demo,
fog of war in every report after every resolution (the demo replayed, the sweep in
:data:`SWEEP_PARTS` tests), and the finished game as `hxref demo --keep` played it for the test run
(tests/played.py)."""
import json
import re

import pytest

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.paths import orders_dir
from hxref.report import turn
from hxref.report.mapsvg import render_svg
from tests.played import replay_folder

DEMO = orders_dir() / "heartland" / "heartland-demo"
SIDES = ("union", "confederate")


def _secrets_of(state: dict, side: str) -> list[str]:
    """What must never reach the other side: unit ids and names, with their strengths, and supply ids."""
    out = []
    for uid, u in state["units"].items():
        if u["side"] == side:
            out += [uid, u["name"]]
    out += [sid for sid, s in state["logistics"].items() if s["side"] == side and s.get("leader")]
    return out


def _reports(eng, audience) -> dict[str, str]:
    rep = turn.build(eng, audience)
    out = {fmt: turn.render(rep, fmt) for fmt in ("text", "md", "html", "json")}
    mv = eng.system.map_view(eng.system.view(eng.state, audience, eng.mode))
    path, units = mv.map_path, mv.units
    from hxref.geometry.mapfile import load_map

    out["svg"] = render_svg(load_map(path), units)
    return out


def _leaks(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if re.search(r"(?<![\w'])" + re.escape(s) + r"(?![\w'])", text)]


#: the fog sweep is cut into this many parts, each a test: part k checks the reports after the k-th
#: resolution, the (k + SWEEP_PARTS)-th, ... so that the parts together check every one once
SWEEP_PARTS = 3


@pytest.fixture(scope="module")
def game(played):
    """The shipped demo played to its end, as `hxref demo --keep` left it for the run (tests/played.py):
    its game file and the engine on it (read only)."""
    path = played.folder("heartland", "heartland-demo") / "game.yaml"
    return path, Engine.load(path)


@pytest.fixture(scope="module", params=range(SWEEP_PARTS), ids=[f"{k + 1}of{SWEEP_PARTS}" for k in range(SWEEP_PARTS)])
def sweep(request, tmp_path_factory) -> tuple[list[int], int, int]:
    """The shipped demo replayed step by step (:func:`tests.played.replay_folder`), every side's and
    the public report checked after this part's share of the resolutions: the indexes of those
    resolutions, the resolutions in all and the side reports checked."""
    part, resolved, mine, checks = request.param, 0, [], 0
    for what, _, eng in replay_folder(DEMO, tmp_path_factory.mktemp("hd")):
        if what != "resolve":
            continue
        resolved += 1
        if (resolved - 1) % SWEEP_PARTS != part:
            continue
        mine.append(resolved - 1)
        for side in SIDES:
            enemy = SIDES[1] if side == "union" else SIDES[0]
            secrets = _secrets_of(eng.state, enemy)
            for fmt, text in _reports(eng, side).items():
                assert not _leaks(text, secrets), (side, fmt, _leaks(text, secrets))
                checks += 1
        for fmt, text in _reports(eng, None).items():
            assert not _leaks(text, _secrets_of(eng.state, "union") + _secrets_of(eng.state, "confederate"))
    return mine, resolved, checks


def test_no_report_shows_the_other_side_s_units(sweep):
    """After this part's share of the resolutions (:data:`SWEEP_PARTS`), every side's report in every
    format, and the public one, names no unit of the other side (the sweep asserts it)."""
    mine, resolved, checks = sweep
    assert mine == list(range(mine[0], resolved, SWEEP_PARTS)) and mine[0] < SWEEP_PARTS
    assert checks == len(mine) * len(SIDES) * 5
    assert resolved * len(SIDES) * 5 >= 50             # the side reports the parts check together


def test_demo_plays_three_turns_and_audits(game):
    path, eng = game
    hist = eng.state["history"]
    assert [h["turn"] for h in hist] == [1, 2, 3] and eng.finished
    res = audit(path)
    assert res.ok, res.problems
    assert res.dice > 10 and res.signatures > 20


def test_demo_had_moves_attack_checks_and_assaults(game):
    _, eng = game
    kinds = [e["data"].get("type") for e in eng.gf.log if e["kind"] == "rules"]
    for t in ("supply", "imc", "move", "attack.check", "combat", "impulse"):
        assert t in kinds, t
    # the IMC dice are private to the side that rolled them (3.71)
    imc = [e["data"] for e in eng.gf.log if e["kind"] == "die" and e["data"]["purpose"].startswith("IMC")]
    assert imc and all(d.get("visible_to") == [d["by"]] for d in imc)


def test_each_side_sees_its_own_display_and_only_top_counters_of_the_enemy(game):
    _, eng = game
    union = json.loads(turn.render(turn.build(eng, "union"), "json"))["view"]
    assert {u["side"] for u in union["units"].values()} == {"union"}
    assert all(ld["side"] == "union" for ld in union["leaders"].values())
    seen = union["seen"]["confederate"]
    assert seen and all(set(e) == {"side", "top", "under"} for e in seen.values())
    assert "hidden (3.71)" in turn.render(turn.build(eng, "union"), "text")
    umpire = json.loads(turn.render(turn.build(eng, "umpire"), "json"))["view"]
    assert {u["side"] for u in umpire["units"].values()} == {"union", "confederate"}


def test_standing_orders_and_per_side_records_stay_with_their_side(game):
    _, eng = game
    assert set(eng.state.get("standing", {})) == {"union", "confederate"}
    for side in SIDES:
        view = json.loads(turn.render(turn.build(eng, side), "json"))["view"]
        assert set(view.get("standing", {})) <= {side}
        enemy_units = {u for u, x in eng.state["units"].items() if x["side"] != side}
        assert not set(view.get("initial_steps", {})) & enemy_units
