"""The Heartland impulse played by e-mail (issue: Heartland part 1): the shipped umpired demo,
fog of war in every report after every resolution, and bad orders refused with their rule."""
import json
import re
import shutil

import pytest

from hxref.base import yamlio
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.paths import orders_dir
from hxref.report import turn
from hxref.report.mapsvg import render_svg

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


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Replay the shipped demo step by step, checking every side's reports after every resolution."""
    import os

    from hxref.crypto.signing import load_private_key

    work = tmp_path_factory.mktemp("hd")
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    for f in DEMO.glob("*.yaml"):
        shutil.copy(f, work / f.name)
    old = os.environ.get("HXREF_NOW")
    os.environ["HXREF_NOW"] = man["created"]
    try:
        from hxref.crypto.signing import load_public_key

        eng = Engine.create(work / "game.yaml", system="heartland", scenario=man["scenario"], mode="umpired",
                            sides={s: load_public_key(DEMO / k) for s, k in man["keys"].items()},
                            umpire=load_public_key(DEMO / man["umpire"]), game_id=man["game_id"],
                            created=man["created"], nonce=man.get("nonce"), policy=man.get("policy"))
        ump = load_private_key(DEMO / man["umpire_key"])
        checks = 0
        for step in man["steps"]:
            for name in step.get("submit", []):
                eng.submit((work / name).read_text(), name)
            if "resolve" in step:
                eng.resolve(ump)
                for side in SIDES:
                    enemy = SIDES[1] if side == "union" else SIDES[0]
                    secrets = _secrets_of(eng.state, enemy)
                    for fmt, text in _reports(eng, side).items():
                        assert not _leaks(text, secrets), (side, fmt, _leaks(text, secrets))
                        checks += 1
                for fmt, text in _reports(eng, None).items():
                    assert not _leaks(text, _secrets_of(eng.state, "union") + _secrets_of(eng.state, "confederate"))
        eng.save()
    finally:
        if old is None:
            os.environ.pop("HXREF_NOW", None)
        else:
            os.environ["HXREF_NOW"] = old
    return work / "game.yaml", eng, checks


def test_demo_plays_three_turns_and_audits(played):
    path, eng, checks = played
    hist = eng.state["history"]
    assert [h["turn"] for h in hist] == [1, 2, 3] and eng.finished
    assert checks >= 50
    res = audit(path)
    assert res.ok, res.problems
    assert res.dice > 10 and res.signatures > 20


def test_demo_had_moves_attack_checks_and_assaults(played):
    _, eng, _ = played
    kinds = [e["data"].get("type") for e in eng.gf.log if e["kind"] == "rules"]
    for t in ("supply", "imc", "move", "attack.check", "combat", "impulse"):
        assert t in kinds, t
    # the IMC dice are private to the side that rolled them (3.71)
    imc = [e["data"] for e in eng.gf.log if e["kind"] == "die" and e["data"]["purpose"].startswith("IMC")]
    assert imc and all(d.get("visible_to") == [d["by"]] for d in imc)


def test_each_side_sees_its_own_display_and_only_top_counters_of_the_enemy(played):
    _, eng, _ = played
    union = json.loads(turn.render(turn.build(eng, "union"), "json"))["view"]
    assert {u["side"] for u in union["units"].values()} == {"union"}
    assert all(ld["side"] == "union" for ld in union["leaders"].values())
    seen = union["seen"]["confederate"]
    assert seen and all(set(e) == {"side", "top", "under"} for e in seen.values())
    assert "hidden (3.71)" in turn.render(turn.build(eng, "union"), "text")
    umpire = json.loads(turn.render(turn.build(eng, "umpire"), "json"))["view"]
    assert {u["side"] for u in umpire["units"].values()} == {"union", "confederate"}


def test_standing_orders_and_per_side_records_stay_with_their_side(played):
    _, eng, _ = played
    assert set(eng.state.get("standing", {})) == {"union", "confederate"}
    for side in SIDES:
        view = json.loads(turn.render(turn.build(eng, side), "json"))["view"]
        assert set(view.get("standing", {})) <= {side}
        enemy_units = {u for u, x in eng.state["units"].items() if x["side"] != side}
        assert not set(view.get("initial_steps", {})) & enemy_units
