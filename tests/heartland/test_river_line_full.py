"""The river-line scenario played through the engine to its end (3 turns, solo mode), with the
optional off-map rail rule (8.74) switched on at `hxref new --option off_map_rail`:

* turn 1, the Union's first impulse: Dorsey's railroad reserve rides the train from Dunmore
  (1204) off the north edge at 1301;
* turn 2: he is off the map, and an order to bring him back is refused (two turns, 8.74);
* turn 3, the Union's first impulse: he rides back in at 1301 to Dunmore;
* everyone else holds, gunboats patrol; each turn ends with the Reorganization Segment;
* after turn 3 the game is over and the victory determination is printed; `audit` replays it.
"""
import json

import pytest

from hxref.engine import Engine, audit
from hxref.report import turn

OUT = {"force": "dorsey", "rail": ["1204", "1301"], "off_map": "leave"}
BACK = {"force": "dorsey", "rail": ["1301", "1204"], "off_map": "enter"}


def _orders(eng, dec, side, extra_moves=()):
    choice: dict = {"moves": list(extra_moves)}
    if "level" in dec.schema:
        choice["level"] = eng.state["current"]["remaining"][side]
    return choice


def play(eng, plan):
    """Answer every decision until the game ends; ``plan(eng, dec, side)`` gives the moves of the
    first impulse of a side in a turn (or ())."""
    seen_first: set[tuple[int, str]] = set()
    for _ in range(200):
        decs = eng.awaiting
        if not decs:
            return
        dec = decs[0]
        for side in dec.sides:
            if dec.kind == "bid":
                choice = {"bid": 2}
            elif dec.kind == "level":
                choice = {"level": 1}
            elif dec.kind == "orders":
                key = (eng.state["turn"], side)
                moves = () if key in seen_first else plan(eng, dec, side)
                seen_first.add(key)
                choice = _orders(eng, dec, side, moves)
            else:                       # defence, reorg: nothing special
                choice = {}
            eng.answer_solo(side, dec.id, choice)
        eng.resolve()
    raise AssertionError("the game did not end in 200 decisions")


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    # a fixed solo seed: the weather of turns 1 and 3 must let trains run (5.28, 5.29)
    monkeypatch.setattr("hxref.engine._secrets.token_hex", lambda n=32: "5e" * n)
    return Engine.create(tmp_path / "r.yaml", system="heartland", scenario="river-line", mode="solo",
                         sides={"union": None, "confederate": None}, game_id="river-full",
                         options=["off_map_rail"])


def test_river_line_to_the_end_with_off_map_rail(game, tmp_path):
    eng = game
    assert eng.state["options"] == {"off_map_rail": True}
    log: list[tuple[int, str]] = []

    def plan(eng, dec, side):
        t = eng.state["turn"]
        if side != "union":
            return ()
        if t == 1:
            log.append((t, "leave"))
            return (OUT,)
        if t == 2:
            # 8.74: back at the same edge only two turns later, in turn 3
            found = eng.system.check(eng.state, dec, "union", {**_orders(eng, dec, "union"), "moves": [BACK]})
            assert [p.rule for p in found] == ["8.74"] and "turn 3" in found[0].message
            report = turn.render(turn.build(eng, "union"), "md")
            assert "off map (north edge, back from turn 3)" in report
            log.append((t, "refused"))
            return ()
        if t == 3:
            log.append((t, "enter"))
            return (BACK,)
        return ()

    play(eng, plan)
    assert [x[1] for x in log] == ["leave", "refused", "enter"]
    st = eng.state
    assert st["leaders"]["dorsey"]["hex"] == "1204" and st.get("off_map") == []
    texts = [e["data"].get("text", "") for e in eng.gf.log if e["kind"] == "rules"]
    assert any("leaves the map by rail from 1204 at the north edge (8.74)" in x for x in texts)
    assert any("comes back onto the map by rail at 1301 and rides to 1204 (8.74)" in x for x in texts)
    # the game is over after turn 3, with the victory determination
    assert not eng.awaiting
    final = [e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "victory"]
    assert final and ("victory for the" in final[-1]["text"] or "a draw" in final[-1]["text"])
    eng.save()
    res = audit(tmp_path / "r.yaml")
    assert res.ok, res.problems
    for who in (None, "union", "confederate"):
        json.loads(turn.render(turn.build(eng, who), "json"))
