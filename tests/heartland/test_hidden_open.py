"""Hidden movement in OPEN games (8.62a, 8.61c): plotted hexes as commitments, reveals checked
against them and against the records, breaches named; ``audit`` replays every reveal.
Readings: ``hxref/systems/heartland/hidden_open.py``.

The end-to-end game is river-line in open mode through the command line: Kerr's cavalry corps
(2 brigades, screen range 2) stands in 1407, two hexes from Halbrook (1309), where Harrow's army
hides; Alice plays the Union, Bob the Confederates.
"""
import json
from pathlib import Path

import pytest

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.report import turn
from hxref.systems.heartland import hidden_open as ho
from hxref.systems.heartland.cavalry import plot_choice, plot_commitment
from hxref.systems.heartland.terrain import step_cost
from tests.heartland.factory import TODAY

KEYS = {"union": "alice", "confederate": "bob"}
M = TODAY.map("river-line")
SALT = "cd" * 32


def _awaiting(game):
    return Engine.load(game).awaiting


def step(cli, game, orders: dict):
    """Answer every decision awaited now: bids and reorganisations sealed by both sides, orders
    (``orders[side]`` or {}) answered by one side with the other's dice link; then resolve."""
    dec = _awaiting(game)[0]
    if dec.kind in ("bid", "reorg"):
        for side, key in KEYS.items():
            choice = "bid: 2" if dec.kind == "bid" else "{}"
            cli("commit", game, "--side", side, "--key", key, "--choice", choice)
        cli("submit", game, *[f"{s}-{dec.id}-commit.yaml" for s in KEYS])
        cli("submit", game, *[f"{s}-{dec.id}-reveal.yaml" for s in KEYS])
    else:
        side = dec.sides[0]
        other = "confederate" if side == "union" else "union"
        choice = dict(orders.get(side, {}))
        if dec.kind == "orders":
            choice.setdefault("moves", [])
            if "level" in dec.schema:
                choice.setdefault("level", 1)
        if dec.kind == "level":
            choice = {"level": 1}
        cli("answer", game, "--side", side, "--key", KEYS[side], "--choice", json.dumps(choice))
        cli("submit", game, f"{side}-{dec.id}.yaml")
        if dec.dice:        # the other side's link follows the answer
            cli("roll", game, "--side", other, "--key", KEYS[other])
            cli("submit", game, f"{other}-{dec.id}-roll.yaml")
    cli("resolve", game)
    return dec


def union_orders_decision(cli, game, orders_for_others=None):
    """Play on until the Union is to send impulse orders."""
    for _ in range(40):
        dec = _awaiting(game)[0]
        if dec.kind == "orders" and dec.sides == ("union",):
            return dec
        step(cli, game, orders_for_others or {})
    raise AssertionError("no Union impulse came")


@pytest.fixture
def open_game(cli):
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "open",
        "--game-id", "hidden-open", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    for side, key in KEYS.items():
        cli("join", "g.yaml", "--side", side, "--key", key)
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    return "g.yaml"


def test_8_62a_open_game_hide_plot_reveal_and_audit(cli, open_game):
    game = open_game
    assert Engine.load(game).state["mode"] == "open"
    union_orders_decision(cli, game)
    # the corps turns to its Screen side; Harrow's army vanishes where it stands (public: 1309)
    step(cli, game, {"union": {"screen": [{"who": "kerr", "on": True}], "moves": [{"force": "harrow", "hide": True}]}})
    st = Engine.load(game).state
    assert set(st["plots"]) == {"harrow"} and st["plots"]["harrow"]["from"] == "1309"
    assert st["leaders"]["harrow"]["hex"] is None and st["leaders"]["pell"]["hex"] is None
    assert "harrow" not in json.dumps(turn.build(Engine.load(game), "confederate").facts["view"].get("seen", {}))

    # next Union impulse: plot Harrow (staying in 1309, always within his MP) with `hxref heartland plot`
    dec = union_orders_decision(cli, game)
    out = cli("heartland", "plot", game, "--side", "union", "--force", "harrow", "--hex", "1309").output
    plot_line = out.strip().splitlines()[-1]
    assert plot_line.startswith("plot: ")
    plots = json.loads(plot_line[len("plot: "):])
    private = Path("g-union-plots.yaml")
    assert private.exists() and oct(private.stat().st_mode & 0o777) == "0o600"
    step(cli, game, {"union": {"plot": plots}})
    log_text = Path(game).read_text()
    assert '"1309"' not in log_text.split(plots[0]["commitment"])[1][:400]   # the hex is not in the game file
    entry = Engine.load(game).state["plots"]["harrow"]["entries"][0]
    assert entry["commitment"] == plots[0]["commitment"] and entry["screens"] == [["1407", 2]]

    # Harrow stays hidden through the Reorganization Segment into turn 2
    while not (Engine.load(game).state["turn"] == 2 and _awaiting(game)[0].kind == "orders"
               and _awaiting(game)[0].sides == ("union",)):
        step(cli, game, {})
    assert Engine.load(game).state["plots"]["harrow"]["checks"]        # every impulse end recorded
    # a reveal with a wrong salt is refused and changes nothing
    dec = union_orders_decision(cli, game)
    bad = {"reveal": [{"force": "harrow", "plots": [{"hex": "1309", "salt": SALT}]}]}
    before = Path(game).read_bytes()
    err = cli.fails("answer", game, "--side", "union", "--key", "alice", "--choice",
                    json.dumps({**bad, "moves": [], **({"level": 1} if "level" in dec.schema else {})}))
    assert "does not open the commitment" in err and "8.62a" in err and Path(game).read_bytes() == before
    # the real reveal: Harrow appears in 1309 and moves on in the same orders
    out = cli("heartland", "plot", game, "--side", "union", "--reveal", "harrow").output
    reveal = json.loads(out.strip()[len("reveal: "):])
    step(cli, game, {"union": {"reveal": reveal}})
    eng = Engine.load(game)
    assert eng.state["leaders"]["harrow"]["hex"] == "1309" and not eng.state.get("plots")
    texts = [e["data"].get("text", "") for e in eng.gf.log if e["kind"] == "rules"]
    assert any("appears in 1309" in x and "every plot within the rules" in x for x in texts)
    assert not any(x.startswith("BREACH") for x in texts)
    # the game plays on to its end; audit replays every commitment, plot and reveal
    while _awaiting(game):
        step(cli, game, {})
    eng = Engine.load(game)
    assert any(e["data"].get("type") == "victory" for e in eng.gf.log if e["kind"] == "rules")
    res = audit(game)
    assert res.ok, res.problems


def test_8_62a_plot_and_reveal_are_open_game_orders_only(cli):
    cli("new", "s.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "solo")
    eng = Engine.load("s.yaml")
    from hxref.systems.heartland.impulse import check_orders

    eng.state["current"]["active_impulse"] = {"n": 1, "side": "union", "level": 1}
    found = check_orders(eng.state, "union", {"plot": [{"force": "harrow", "commitment": "ab" * 32}]},
                         charts=eng.system.charts)
    assert found[0].rule == "8.62a" and "open games" in found[0].message


# --- the reveal checks, on a record made by hand -------------------------------------------------

def record(entries, checks=(), searches=(), start="1309"):
    state = {"plots": {"harrow": {"side": "union", "from": start, "hidden_at": 101, "entries": list(entries),
                                  "checks": list(checks), "searches": list(searches)}},
             "leaders": {}, "units": {}}
    return state


def entry(impulse, label, mp=6, screens=(("1407", 2),), blocked=(), salt=SALT, weather="Clear"):
    return {"impulse": impulse, "commitment": plot_commitment(plot_choice("harrow", label, impulse), salt),
            "mp": mp, "weather": weather, "screens": [list(s) for s in screens], "blocked": list(blocked)}


def cost(w):
    return step_cost(M, weather=w, side="union")


def test_8_62a_lawful_plots_open_without_breach():
    st = record([entry(103, "1308"), entry(201, "1408")])
    r = ho.check_reveal(st, M, "harrow", [{"hex": "1308", "salt": SALT}, {"hex": "1408", "salt": SALT}], cost)
    assert not r.problems and not r.breaches and r.end == "1408" and r.hexes == ["1308", "1408"]


def test_8_62a_a_plot_that_does_not_open_is_an_input_error():
    st = record([entry(103, "1308")])
    r = ho.check_reveal(st, M, "harrow", [{"hex": "1408", "salt": SALT}], cost)
    assert r.problems and "does not open" in r.problems[0].message
    r = ho.check_reveal(st, M, "harrow", [], cost)
    assert "1 plots to open, not 0" in r.problems[0].message


def test_8_62a_a_plot_outside_the_screen_is_a_breach():
    # 1310 is 3 hexes from Kerr in 1407 (range 2)
    st = record([entry(103, "1310")])
    r = ho.check_reveal(st, M, "harrow", [{"hex": "1310", "salt": SALT}], cost)
    assert not r.problems and r.breaches and r.breaches[0].rule == "8.62a" and "inside the screen" in r.breaches[0].message
    assert r.end == "1310"                       # it still appears where it was plotted


def test_8_62a_a_plot_beyond_the_mp_is_a_breach():
    st = record([entry(103, "1408", mp=0)])
    r = ho.check_reveal(st, M, "harrow", [{"hex": "1408", "salt": SALT}], cost)
    assert r.breaches and "with 0 MP" in r.breaches[0].message


def test_8_62a_a_plot_through_enemy_zoc_is_a_breach():
    st = record([entry(103, "1408", blocked=["1408"])])
    r = ho.check_reveal(st, M, "harrow", [{"hex": "1408", "salt": SALT}], cost)
    assert r.breaches and "enemy units and ZOC" in r.breaches[0].message


def test_8_62a_must_appear_in_the_next_own_orders_after_contact():
    contact = {"impulse": 104, "own": False, "screens": [["1407", 2]], "blocked": ["1309"]}
    later_own = {"impulse": 105, "own": True, "screens": [["1407", 2]], "blocked": ["1309"]}
    on_time = record([], checks=[contact])
    assert not ho.check_reveal(on_time, M, "harrow", [], cost).breaches
    late = record([], checks=[contact, later_own])
    r = ho.check_reveal(late, M, "harrow", [], cost)
    assert r.breaches and "should have appeared" in r.breaches[0].message and "after impulse 104" in r.breaches[0].message


def test_8_62a_the_screen_moving_away_obliges_it_to_appear():
    gone = {"impulse": 104, "own": True, "screens": [["2010", 2]], "blocked": []}
    after = {"impulse": 106, "own": True, "screens": [["2010", 2]], "blocked": []}
    r = ho.check_reveal(record([], checks=[gone, after]), M, "harrow", [], cost)
    assert r.breaches and "outside every screen" in r.breaches[0].message


def test_8_61c_not_found_while_within_the_search_range_is_a_breach():
    near = {"id": "s104-1", "impulse": 104, "center": "1509", "range": 2}
    far = {"id": "s104-2", "impulse": 104, "center": "2015", "range": 2}
    assert not ho.check_reveal(record([], searches=[far]), M, "harrow", [], cost).breaches
    r = ho.check_reveal(record([], searches=[near]), M, "harrow", [], cost)
    assert r.breaches and r.breaches[0].rule == "8.61c"


def test_8_61c_a_search_must_be_answered_and_found_forces_revealed():
    st = record([])
    st["pending_searches"] = {"union": [{"id": "s104-1", "impulse": 104, "center": "1509", "range": 2, "by": "swain"}]}
    assert ho.search_answer_problems(st, "union", {})[0].rule == "8.61c"
    found = ho.search_answer_problems(st, "union", {"searched": [{"search": "s104-1", "found": ["harrow"]}]})
    assert "reveal it in the same orders" in found[0].message
    ok = {"searched": [{"search": "s104-1", "found": []}]}
    assert ho.search_answer_problems(st, "union", ok) == []
    ho.apply_search_answers(st, "union", ok)
    assert st["plots"]["harrow"]["searches"] == [{"id": "s104-1", "impulse": 104, "center": "1509", "range": 2}]
    assert st["pending_searches"]["union"] == []


def test_8_62a_appearing_in_a_hex_the_enemy_entered_moves_it_to_the_nearest_free_hex():
    assert ho.nearest_free_hex(M, "1309", {"1309"}) in {"1208", "1209", "1308", "1310", "1408", "1409"}


def test_8_62a_open_game_unled_units_are_not_plotted():
    from hxref.systems.heartland.impulse_moves import _hide
    from tests.heartland.factory import U, World

    w = World()
    w.state["map"] = "sample"
    w.state["mode"] = "open"
    w.leader("stuart", U, "0403", stars=2, cavalry_corps=True, screen=True)
    w.units("cav", 2, U, leader="stuart", arm="cavalry", size="brigade")
    w.unit("lone", U, hex="0404")
    events: list = []
    _hide(w.state, TODAY.map("sample"), U, "unled@0404", events)
    assert events[0]["type"] == "hide.void" and "8.62a" in events[0]["text"]
    assert not w.state.get("plots") and w.state["units"]["lone"]["hex"] == "0404"
