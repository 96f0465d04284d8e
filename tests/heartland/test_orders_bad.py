"""Bad orders for a Heartland impulse (issue: Heartland part 1, "Bad input"): each file is refused
with its rule, exit 2, and the game file is byte-identical afterwards."""
import json
from pathlib import Path


from hxref.systems import get
from hxref.systems.heartland import impulse, model
from hxref.systems.heartland.impulse_moves import _recon
from hxref.systems.heartland.movement import path_problems, walk
from tests.heartland.factory import TODAY


def refuse(cli, game, choice: str, rule: str, words: str) -> str:
    Path("o.yaml").write_text("hxref: 1\ngame: hd-test\ndecision: t1.i1.orders\nside: confederate\n"
                              "kind: answer\nchoice:\n" + choice)
    cli("sign", "o.yaml", "--key", "bob", "--game", game, "--side", "confederate")
    before = Path(game).read_bytes()
    err = cli.fails("submit", game, "o.yaml")
    assert Path(game).read_bytes() == before
    assert f"[rule {rule}]" in err and words in err, err
    assert "o.yaml:" in err
    return err


def test_a_good_order_is_accepted_and_moves(cli, hgame):
    Path("o.yaml").write_text('hxref: 1\ngame: hd-test\ndecision: t1.i1.orders\nside: confederate\nkind: answer\n'
                              'choice:\n  moves:\n    - {force: calloway, path: ["1910", "1810"]}\n')
    cli("sign", "o.yaml", "--key", "bob", "--game", hgame, "--side", "confederate")
    cli("submit", hgame, "o.yaml")
    # open mode: the dice of a decision answered by one side need the other side's link too
    assert "needs the dice link of union" in cli.fails("resolve", hgame)
    cli("roll", hgame, "--side", "union", "--key", "alice")
    cli("submit", hgame, "union-t1.i1.orders-roll.yaml")
    out = cli("resolve", hgame).stdout
    # the IMC roll (and the weather) decide how far he gets: along the ordered path, never off it
    assert "Lucius M. Calloway: level 5, MR 4" in out
    view = json.loads(cli("report", hgame, "--side", "confederate", "--format", "json").stdout)["view"]
    assert view["leaders"]["calloway"]["hex"] in ("2010", "1910", "1810")
    if view["leaders"]["calloway"]["hex"] != "2010":
        assert "Lucius M. Calloway moves 2010 > 1910" in out


def test_moving_a_force_twice(cli, hgame):
    refuse(cli, hgame, '  moves:\n    - {force: calloway, path: ["1910"]}\n    - {force: calloway, path: ["1810"]}\n',
           "8.21", "moves once per impulse")


def test_an_order_for_an_enemy_force(cli, hgame):
    refuse(cli, hgame, '  moves:\n    - {force: whitcomb, path: ["1110"]}\n', "8.21", "not one of your forces")


def test_a_path_that_jumps(cli, hgame):
    refuse(cli, hgame, '  moves:\n    - {force: calloway, path: ["1810"]}\n', "8.2", "not adjacent")


def test_exceeding_the_mp_any_roll_could_give(cli, hgame):
    # Strother (MR 3) from 1904 west along row 04 and south down column 03: far more than 21 MP,
    # the best any roll at level 5 gives him on the stand-in IMC
    path = json.dumps([f"{c:02d}04" for c in range(18, 2, -1)] + [f"03{r:02d}" for r in range(5, 20)])
    refuse(cli, hgame, f"  moves:\n    - {{force: strother, path: {path}}}\n", "8.22", "can roll at most")


def test_a_stack_over_its_limit(cli, hgame):
    # Duvall (1 star) may not end in Strother's hex (1 star): same rank and no army HQ there (3.22a)
    path = json.dumps(["1912", "1911", "1910", "1909", "1908", "1907", "1906", "1905", "1904"])
    refuse(cli, hgame, f"  moves:\n    - {{force: duvall, path: {path}}}\n", "3.22a", "stack over its limits")


def test_detaching_a_piece_that_is_not_his(cli, hgame):
    refuse(cli, hgame, '  moves:\n    - {force: strother, detach: [gaskins], path: ["1804"]}\n', "8.25b",
           "not a leader or unit of strother's force")


def test_unknown_keys_and_bad_shapes(cli, hgame):
    err = refuse(cli, hgame, '  moves:\n    - {force: calloway, path: ["1910"], teleport: 1}\n', "8.21",
                 "unknown key `teleport` in moves[0] (allowed: attack,")
    assert "(at choice.moves[0].teleport)" in err and err.endswith("[E110]"), err
    err = refuse(cli, hgame, '  moves:\n    - {force: calloway, path: "1910"}\n', "8.2",
                 "`moves[0].path` must be a list: hex labels in quotes")
    assert err.endswith("[E112]"), err
    # the path's rule, at the line of the bad item inside it
    err = refuse(cli, hgame, '  moves:\n    - force: calloway\n      path:\n      - "1910"\n      - 1810\n', "8.2",
                 "`moves[0].path[1]` must be a text")
    assert "o.yaml:11:" in err and "(at choice.moves[0].path[1])" in err, err


def _state_at_orders():
    sysobj = get("heartland")
    st = sysobj.setup(sysobj.load_scenario("heartland-demo"))
    st["phase"], st["current"]["remaining"] = "impulse", {"union": 2, "confederate": 2}
    impulse.start(st, TODAY.map(st["map"]), {"side": "confederate", "level": 3, "fixed": True, "rule": "5.11"}, [])
    return st


def test_detaching_without_ap():
    st = _state_at_orders()
    st["leaders"]["calloway"]["ap"] = 0
    probs = impulse.check_orders(st, "confederate", {"moves": [{"force": "calloway", "detach": ["gaskins"],
                                                                "path": ["1910"]}]}, charts=TODAY)
    # 8.25c: the detach costs the OC 1 AP (3.24: he must have it)
    assert probs and probs[0].rule == "3.24" and "must pay 1 AP but has 0" in probs[0].message


def test_inactive_leader_may_not_enter_enemy_zoc():
    # 3.61: put Whitcomb next to an inactive Strother's path
    st = _state_at_orders()
    st["leaders"]["strother"]["active"] = False
    for lid in model.force_leaders(st, "whitcomb"):
        st["leaders"][lid]["hex"] = "1705"
    probs = impulse.check_orders(st, "confederate", {"moves": [{"force": "strother", "path": ["1804"]}]}, charts=TODAY)
    assert probs and probs[0].rule == "3.61" and "inactive" in probs[0].message


def test_zoc_to_zoc_and_stop_on_entering_zoc():
    st = _state_at_orders()
    for lid in model.force_leaders(st, "whitcomb"):
        st["leaders"][lid]["hex"] = "1705"
    hm = TODAY.map(st["map"])
    cost = impulse.cost_fn(st, hm, "confederate")
    zoc = impulse.enemy_zoc(st, hm, "confederate")
    assert {"1604", "1605", "1704", "1706", "1804", "1805"} <= zoc and "1803" not in zoc
    # 8.26: the path may not go on after a hex in enemy ZOC
    p = path_problems(["1903", "1803", "1704", "1703"], start="1904", hexmap=hm, cost=cost, enemy_zoc=zoc,
                      enemy_occupied={"1705"}, active=True)
    assert p and p[0].rule == "8.26"
    # 3.61: ZOC to ZOC
    p = path_problems(["1604"], start="1704", hexmap=hm, cost=cost, enemy_zoc=zoc, enemy_occupied={"1705"},
                      active=True)
    assert p and p[0].rule == "3.61" and "ZOC to ZOC" in p[0].message
    # walking stops in the first ZOC hex, and an order ending there is legal
    w = walk(["1903", "1803", "1704"], start="1904", mp=20, hexmap=hm, cost=cost, enemy_zoc=zoc)
    assert w.end == "1704" and w.in_enemy_zoc and w.rule == "3.61"


def test_walk_stops_when_the_mp_run_out():
    st = _state_at_orders()
    hm = TODAY.map(st["map"])
    cost = impulse.cost_fn(st, hm, "confederate")
    w = walk(["1910", "1810", "1710"], start="2010", mp=1, hexmap=hm, cost=cost, enemy_zoc=set())
    assert w.spent <= 1 and "out of movement points" in w.stopped
    w0 = walk(["1910"], start="2010", mp=0, hexmap=hm, cost=cost, enemy_zoc=set())
    assert w0.end == "2010" and w0.stopped == "no movement points"


def test_a_force_starting_in_enemy_zoc_must_leave_or_attack():
    st = _state_at_orders()
    for lid in model.force_leaders(st, "whitcomb"):
        st["leaders"][lid]["hex"] = "1905"
    probs = impulse.check_must_attack(st, TODAY.map(st["map"]), "confederate", [])
    assert probs and probs[0].rule == "8.42" and "strother" in probs[0].message


def _play(cli, game, choice: str) -> str:
    Path("o.yaml").write_text("hxref: 1\ngame: hd-test\ndecision: t1.i1.orders\nside: confederate\n"
                              "kind: answer\nchoice:\n" + choice)
    cli("sign", "o.yaml", "--key", "bob", "--game", game, "--side", "confederate")
    cli("submit", game, "o.yaml")
    cli("roll", game, "--side", "union", "--key", "alice")
    cli("submit", game, "union-t1.i1.orders-roll.yaml")
    return cli("resolve", game).stdout


def test_8_51_detachments_from_the_chart(cli, hgame):
    # a Confederate infantry brigade broken down by a step loss yields 1 detachment (stand-in chart), 1 AP
    out = _play(cli, hgame, '  moves:\n    - {force: strother, detachments: [{unit: c10, by: step_loss}]}\n')
    assert "breaks" in out and "into 1 detachment(s): c10-d1" in out
    view = json.loads(cli("report", hgame, "--side", "confederate", "--format", "json").stdout)["view"]
    assert view["units"]["c10"]["steps"] == 1 and view["units"]["c10-d1"]["arm"] == "detachment"
    assert view["leaders"]["strother"]["ap"] == 0


def test_8_51_refusals(cli, hgame):
    refuse(cli, hgame, '  moves:\n    - {force: strother, detachments: [{unit: c1, by: step_loss}]}\n', "8.51",
           "c1 is not one of strother's units: c10, c9")
    err = refuse(cli, hgame, '  moves:\n    - {force: strother, detachments: [{unit: c9, by: magic}]}\n', "8.51",
                 "`moves[0].detachments[0].by` must be one of step_loss, removal (got 'magic')")
    assert err.endswith("[E112]"), err
    refuse(cli, hgame, '  moves:\n    - {force: strother, detachments: [{unit: c9, by: step_loss}, '
                       '{unit: c10, by: step_loss}]}\n', "8.51", "each detachment order costs 1 AP")


def test_7_35_emergency_supply_refused_when_in_communication(cli, hgame):
    refuse(cli, hgame, '  emergency: {calloway: cw1}\n  moves: []\n', "7.35", "")


def test_8_25a_merge_at_the_end_of_a_move(cli, hgame):
    # Calloway (army commander) marches onto Strother at 1904 and takes him along (1 AP)
    path = json.dumps(["2009", "2008", "2007", "1907", "1906", "1905", "1904"])
    out = _play(cli, hgame, f"  moves:\n    - {{force: calloway, path: {path}, merge: strother}}\n")
    view = json.loads(cli("report", hgame, "--side", "confederate", "--format", "json").stdout)["view"]
    if view["leaders"]["calloway"]["hex"] == "1904":      # the IMC roll was enough to get there
        assert view["leaders"]["strother"]["superior"] == "calloway", out
    else:
        assert view["leaders"]["strother"]["superior"] is None


def test_8_3_forced_march_order(cli, hgame):
    # Strother force-marches west along the road: the Forced March Table is rolled after the IMC (stand-in)
    out = _play(cli, hgame, '  moves:\n    - {force: strother, forced_march: true, path: ["1804", "1704"]}\n')
    assert "IMC strother" in out and "forced march" in out.lower()



def test_special_orders_are_checked_before_any_die():
    st = _state_at_orders()
    # 8.91: a gunboat order for a gunboat the side does not have
    p = impulse.check_orders(st, "confederate", {"moves": [], "gunboats": [{"gunboat": "g9", "to": "1510/1610"}]}, charts=TODAY)
    assert p and p[0].rule == "8.91"
    # 8.62: a screen by a leader that is no cavalry corps
    p = impulse.check_orders(st, "confederate", {"moves": [], "screen": [{"who": "strother", "on": True}]}, charts=TODAY)
    assert p and p[0].rule.startswith("8.62") or p[0].rule in ("3.12", "8.6")
    # 8.81: engineer work by a unit that is no engineer
    p = impulse.check_orders(st, "confederate", {"moves": [], "engineers": [
        {"engineer": "c9", "lay": "p1", "hexside": "1510/1610"}]}, charts=TODAY)
    assert p and p[0].rule.startswith("8.8")
    # unknown keys in a special order: refused by the orders' schema, before the rules are asked
    from hxref.kit import schema

    p = schema.check(impulse.orders_decision(st).schema, {"moves": [], "gunboats": [{"gunboat": "g9", "speed": 3}]})
    assert [(x.message, x.rule, x.path, x.code) for x in p] == [
        ("unknown key `speed` in gunboats[0] (allowed: gunboat, to)", "8.6", ["gunboats", 0, "speed"], "E110")]


def test_recon_move_reports_only_to_the_reconning_side():
    from hxref.crypto.dice import FixedDice

    st = _state_at_orders()
    hm = TODAY.map(st["map"])
    next_to_royce = next(hm.label(n) for n in hm.parse("1113").neighbours()
                         if hm.label(n) not in model.occupied_hexes(st, "union"))
    st["leaders"]["duvall"]["hex"] = next_to_royce          # Duvall's cavalry stands next to Royce
    events: list = []
    _recon(st, hm, "confederate", "duvall", {"target": "1113"}, FixedDice([6, 6, 1, 1]), events)
    public = [e for e in events if "visible_to" not in e]
    private = [e for e in events if "visible_to" in e]
    assert [e["type"] for e in public] == ["recon"] and "1113" in public[0]["text"]
    assert private and private[0]["type"] == "recon.report" and private[0]["visible_to"] == ["confederate"]
    assert not any(ch.isdigit() for ch in public[0]["text"].replace("1113", ""))   # no count in public
