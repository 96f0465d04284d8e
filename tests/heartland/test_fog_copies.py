"""Two copies of a game with hidden armies, each knowing only its own army and what the rules reveal,
agree with each other and with the true game on everything public (tests/heartland/fog_copies.py)."""
from __future__ import annotations

import pytest

from hxref.kit import registry
from hxref.kit.protocol import Decision
from hxref.systems.heartland import fog_play
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
