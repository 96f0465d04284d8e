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

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.report import turn

OUT = {"force": "dorsey", "rail": ["1204", "1301"], "off_map": "leave"}
BACK = {"force": "dorsey", "rail": ["1301", "1204"], "off_map": "enter"}


def _orders(eng, dec, side, extra_moves=()):
    choice: dict = {"moves": list(extra_moves)}
    if "level" in dec.schema:
        choice["level"] = eng.state["current"]["remaining"][side]
    return choice


def play(eng, plan, reorg=None, orders=None):
    """Answer every decision until the game ends; ``plan(eng, dec, side)`` gives the moves of the
    first impulse of a side in a turn (or ()); ``reorg(eng, dec, side)`` a Reorganization choice;
    ``orders(eng, dec, side, choice)`` may add to any impulse's orders."""
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
                if orders is not None:
                    choice = orders(eng, dec, side, choice)
            elif dec.kind == "reorg" and reorg is not None:
                choice = reorg(eng, dec, side)
            else:                       # defence, reorg: nothing special
                choice = {}
            eng.answer_solo(side, dec.id, choice)
        eng.resolve()
    raise AssertionError("the game did not end in 200 decisions")


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    # a fixed solo seed: the weather of turns 1 and 3 must let trains run (5.28, 5.29)
    monkeypatch.setattr("hxref.referee.engine.random_hex", lambda n=32: "5e" * n)
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


def test_river_line_naval_assault_by_orders(game, tmp_path):
    """8.92 by orders: gb1 steams to Halbrook's river hexside, Dorsey's division rides the railroad
    to Halbrook (1309) and embarks (8.92a, private: 3.17); the display advances in the Naval
    Sequences, the Union announces a possible assault in turn 2's (public notice, 8.92a(5)); in
    turn 3 the division lands at Keel's Landing (0909) across the Keel's Ferry hexside (8.92b/c)."""
    eng = game

    def orders(eng, dec, side, c):
        t, n = eng.state["turn"], eng.state["current"]["active_impulse"]["n"]
        gb = eng.state["naval"]["gunboats"]["gb1"]
        if side == "union":
            if (t, n) == (1, 1):
                c["gunboats"] = [{"gunboat": "gb1", "to": "1309/1310"}]
                c["moves"] = [{"force": "dorsey", "rail": ["1204", "1309"]}]
            elif t == 1 and gb.get("hexside") and not gb.get("cargo"):
                c["naval"] = [{"embark": {"gunboat": "gb1", "port": "1309", "units": ["u11"], "leaders": ["dorsey"]}}]
            elif gb.get("box") == "available" and gb.get("cargo"):
                c["naval"] = [{"assault": {"gunboat": "gb1", "target": "0909", "hexside": "0909/0910"}}]
        return c

    def reorg(eng, dec, side):
        return {"naval": {"announce": True}} if side == "union" and eng.state["turn"] == 2 else {}

    play(eng, lambda *a: (), reorg=reorg, orders=orders)
    st = eng.state
    assert st["leaders"]["dorsey"]["hex"] == "0909" and st["naval"]["gunboats"]["gb1"]["hexside"] == "0909/0910"
    rules = [e["data"] for e in eng.gf.log if e["kind"] == "rules"]
    embark = [d for d in rules if "embark on gb1 in 1309" in d.get("text", "")]
    assert embark and embark[0]["visible_to"] == ["union"] and embark[0]["side"] == "union"   # 3.17
    assert any(d.get("type") == "naval.notice" and "visible_to" not in d for d in rules)   # 8.92a(5)
    landing = [d for d in rules if "land in 0909" in d.get("text", "")]
    assert landing and "visible_to" not in landing[0]                                      # the landing reveals them
    eng.save()
    assert audit(tmp_path / "r.yaml").ok
