"""Two copies of a game with hidden armies, each knowing only its own army and what the rules reveal,
agree with each other and with the true game on everything public (tests/heartland/fog_copies.py)."""
from __future__ import annotations

import pytest

from hxref.kit import registry
from hxref.kit.protocol import Decision
from hxref.systems.heartland import fog_play, model
from tests.heartland import fog_copies as fc

#: left: the turn's victory count (3.16) reads steps the enemy lost to attrition on its own display
#: (4.31), which no claim can state before the dice; the proof checks it
LEFT = "3.16"


def _left(m: fc.Mismatch) -> bool:
    return (m.what == "events" and f"[{LEFT}] victory" in m.detail) or (
        m.what == "public" and m.detail.startswith("/result/"))


@pytest.mark.parametrize("scenario,seed", [("heartland-demo", 1), ("heartland-demo", 2), ("river-line", 1),
                                           ("river-line", 3)])
def test_both_copies_tell_every_side_what_the_true_game_tells_it(scenario, seed):
    run = fc.play(scenario, seed, 30)
    assert run.decisions >= 12 and not run.stuck
    assert run.kinds.get("defence", 0) >= 2          # combats were fought: boxes opened at contact (10.6)
    assert run.opened > 0 and run.claimed > 0
    assert run.swept >= 5                             # orders played again on every face of the move dice
    assert [m for m in run.mismatches if not _left(m)] == []


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
