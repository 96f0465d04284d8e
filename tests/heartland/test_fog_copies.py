"""Two copies of a game with hidden armies, each knowing only its own army and what the rules reveal,
agree with each other and with the true game on everything public (tests/heartland/fog_copies.py)."""
from __future__ import annotations

import copy

import pytest

from hxref.base.canon import canonical_json
from hxref.kit import registry
from hxref.kit.protocol import Decision
from hxref.systems.heartland import fog_play, model
from tests.heartland import fog_copies as fc

@pytest.mark.parametrize("scenario,seed", [("heartland-demo", 1), ("heartland-demo", 2), ("river-line", 1),
                                           ("river-line", 3)])
def test_both_copies_tell_every_side_what_the_true_game_tells_it(scenario, seed):
    run = fc.play(scenario, seed, 30)
    assert run.decisions >= 12 and not run.stuck
    assert run.kinds.get("defence", 0) >= 2          # combats were fought: boxes opened at contact (10.6)
    assert run.opened > 0 and run.claimed > 0
    assert run.swept >= 5                             # orders played again on every face of the move dice
    assert run.mismatches == []


def test_an_imc_rolled_for_the_mover_alone_moves_him_elsewhere_in_the_enemy_s_copy():
    # 3.71, 8.22: the IMC die is the mover's secret where an umpire rolls it; were it so without one,
    # the enemy's copy would roll a stand-in and move the force by other movement points, so the moves
    # it tells would differ from the true game's: in a game with hidden armies it is rolled in the open
    run = fc.play("heartland-demo", 1, 12, table_mode="umpired")
    moved = [m for m in run.mismatches if m.what == "events" and "(orders)" in m.decision]
    assert any("move" in m.detail for m in moved)


def _dec(kind: str) -> Decision:
    return Decision(id=f"t1.{kind}", sides=("union",), kind=kind, prompt="", rule="")


def test_the_reorganization_answer_shows_what_changes_the_map_and_seals_the_administration():
    choice = {"foraging": ["bragg"], "attrition": {"emergency": []},
              "administration": {"ammo": [{"leader": "bragg", "asp": 1}], "entrench": ["bragg"]}}
    system = registry.get("heartland")
    told = system.public_answer({}, _dec("reorg"), "union", choice)
    assert told == {"foraging": ["bragg"], "administration": {"entrench": ["bragg"]}}
    orders = {"moves": [{"force": "bragg", "path": ["0101"]}], "standing": {"defence": {"react": []}}}
    assert system.public_answer({}, _dec("orders"), "union", orders) == {"moves": orders["moves"]}


def test_a_third_tie_opens_the_number_track_and_a_won_bid_does_not():
    tie = [{"type": "initiative", "rule": "5.12", "side": "union"}]
    assert fog_play.reveals({"full": False}, "bid", "union", {"bid": 2}, tie) == ["track"]
    assert fog_play.reveals({"full": False}, "bid", "union", {"bid": 2},
                            [{"type": "initiative", "rule": "5.11", "side": "union"}]) == []


def _demo() -> tuple:
    system = registry.get("heartland")
    data = system.load_scenario("heartland-demo")
    data["table_mode"] = "fog"
    return system, system.setup(data)


def _claimed_units(claims: dict) -> list[dict]:
    return [u for part in claims.values() for u in (part.get("units") or {}).values()]


def test_a_led_force_claims_its_units_arms_and_sizes_never_their_strengths_or_steps():
    # 8.22: the IMC reads which units move and their arms; 3.23 the stacking their sizes; an attack
    # check of a led force names no unit (8.41a): no unit's CF, ML or steps is claimed, attacking or not
    system, state = _demo()
    for force in model.forces(state, "union"):
        here = model.force_hex(state, force)
        for mv in ({"force": force, "path": [here]}, {"force": force, "attack": here}):
            claims = system.claims(state, _dec("orders"), "union", {"moves": [mv]})
            units = _claimed_units(claims)
            assert units and all(set(u) == set(fog_play.UNIT_ALWAYS) for u in units)
            assert set(claims[f"leader:{force}"]["leader"]) <= {"active", "ap", "ml"}


def test_an_unled_stack_claims_its_units_ml_and_steps_only_when_it_may_check_to_attack():
    # 3.52b: each unled unit checks for itself against its own ML, told with its name and roll
    system, state = _demo()
    force = model.forces(state, "union")[0]
    here = model.force_hex(state, force)
    for uid in model.units_of(state, force):
        state["units"][uid].update(leader=None, hex=here)
    unled = f"unled@{here}"
    away = system.claims(state, _dec("orders"), "union", {"moves": [{"force": unled, "path": [here]}]})
    attacking = system.claims(state, _dec("orders"), "union", {"moves": [{"force": unled, "attack": here}]})
    assert _claimed_units(away) and all(not {"cf", "ml", "steps"} & set(u) for u in _claimed_units(away))
    assert all({"ml", "steps", "name"} <= set(u) and "cf" not in u for u in _claimed_units(attacking))


def _at_war(state: dict, force: str) -> tuple[dict, int]:
    """A move of ``force`` ordered to attack its own hex (8.41: its check pays an AP), and the AP it reads."""
    from hxref.systems.heartland.attack import CHECK_AP

    return {"force": force, "attack": model.force_hex(state, force)}, CHECK_AP


def test_a_commander_with_more_ap_than_the_move_reads_claims_at_least_what_it_reads_never_his_ap():
    # 3.24, 8.41: the other copy reads only whether he can pay the check; the file it gets says "at
    # least" and no byte of his AP
    system, state = _demo()
    force = model.forces(state, "union")[0]
    mv, least = _at_war(state, force)
    state["leaders"][force]["ap"] = 7
    claims = system.claims(state, _dec("orders"), "union", {"moves": [mv]})
    leader = claims[f"leader:{force}"]["leader"]
    assert leader["ap"] == {fog_play.AT_LEAST: least}
    sent = canonical_json(claims)
    assert b'"at_least"' in sent and b'"ap":7' not in sent
    believed = system.believed("union", {"leader": {"ap": 2, "ml": 4}}, claims[f"leader:{force}"])
    assert believed["leader"]["ap"] == least and believed["leader"]["ml"] == 4


def test_a_commander_short_of_what_the_move_reads_claims_his_exact_ap():
    # 8.41: with no AP left a compelled check is a hasty attack: the result depends on the value itself
    system, state = _demo()
    force = model.forces(state, "union")[0]
    mv, _ = _at_war(state, force)
    state["leaders"][force]["ap"] = 0
    claims = system.claims(state, _dec("orders"), "union", {"moves": [mv]})
    assert claims[f"leader:{force}"]["leader"]["ap"] == 0


def test_the_ml_given_up_with_the_imc_is_claimed_as_at_least_that_much():
    # 3.54: he gives up no more ML than he has; that is all the IMC reads of it
    system, state = _demo()
    force = model.forces(state, "union")[0]
    state["leaders"][force]["ml"] = 5
    mv = {"force": force, "path": [model.force_hex(state, force)], "ml_reduction": 2}
    assert system.claims(state, _dec("orders"), "union", {"moves": [mv]})[f"leader:{force}"]["leader"]["ml"] == {
        fog_play.AT_LEAST: 2}
    state["leaders"][force]["ml"] = 1
    assert system.claims(state, _dec("orders"), "union", {"moves": [mv]})[f"leader:{force}"]["leader"]["ml"] == 1


def test_the_ap_a_move_reads_is_its_orders_bill_and_its_check():
    # 3.24, 8.25a, 8.41: the merge and the check are paid; each read from the rules' costs
    from hxref.systems.heartland.forces import MERGE_AP
    from hxref.systems.heartland.impulse_check import move_ap_bill

    system, state = _demo()
    force, other = model.forces(state, "union")[:2]
    mv = {"force": force, "attack": model.force_hex(state, force), "merge": other}
    detachment = system.charts.chart("detachment")
    due, bill = move_ap_bill(state, force, mv, detachment)
    assert due == MERGE_AP and bill
    assert fog_play.ap_read(state, mv, force, None, detachment) == due + _at_war(state, force)[1]
    assert fog_play.ap_read(state, {"force": force, "path": []}, force, set(), detachment) == 0


def test_a_force_in_enemy_zoc_with_more_ap_than_its_check_reads_resolves_alike_on_every_face():
    # 8.41-8.42: the union's first orders of heartland-demo send a force in the confederate's ZOC to
    # attack; its commander has more AP than the check reads and claims only "at least" that; the
    # confederate's copy, believing the bound (and every fact it was not told changed), tells both sides
    # what the true game tells on every face of the dice
    system = registry.get("heartland")
    game = fc.Game(system, "heartland-demo", 1)
    while not (system.decisions(game.truth)[0].kind == "orders" and "union" in system.decisions(game.truth)[0].sides):
        assert game.step()
    dec, truth = system.decisions(game.truth)[0], game.truth
    orders = dict(system.template(system.view(truth, "union", "umpired"), dec, "union").choice)
    assert not system.check(truth, dec, "union", orders)
    hexmap = system.charts.map(truth["map"])
    zoc = fog_play._enemy_zoc(truth, "union", hexmap)
    checking = [mv["force"] for mv in orders["moves"] if fog_play._may_check(truth, mv, mv["force"], zoc)]
    claims = system.claims(truth, dec, "union", orders)
    bounded = {f: claims[f"leader:{f}"]["leader"]["ap"] for f in checking}
    assert bounded and all(ap == {fog_play.AT_LEAST: fog_play.ap_read(truth, mv, mv["force"], zoc,
                                                                      system.charts.chart("detachment"))}
                           and ap[fog_play.AT_LEAST] < truth["leaders"][mv["force"]]["ap"]
                           for mv in orders["moves"] if (ap := bounded.get(mv["force"])) is not None)
    checks = {face: [e for e in game._resolve(truth, dec, {"union": orders}, None, None, face)[1]
                     if e.get("type") == "attack.check"] for face in fc.FACES}
    assert all(checks.values())                        # the check is made on every face
    answer = game.answer
    game.answer = lambda d, side: copy.deepcopy(orders) if side == "union" else answer(d, side)
    swept = game.run.swept
    assert game.step()
    assert game.run.swept == swept + 1 and game.run.mismatches == []
