"""The fog probe (tests/heartland/fog_probe.py) on decisions whose answer the rules make certain:
what a side is told depends on the enemy's hidden facts where a rule reads them (a tie broken by
WEP, 5.12; a combat's strengths, 10.x), and nowhere else (a bid without a tie, 5.11)."""
from __future__ import annotations

import hashlib
import random

import pytest

from hxref.systems.heartland.model import copy_state
from tests.heartland import fog_probe as fp

SEED = hashlib.sha256(b"fog probe test dice").digest()


@pytest.fixture
def game(tmp_path):
    """A new solo game of the heartland-demo scenario at its first bid."""
    eng = fp.new_game(tmp_path, "heartland-demo", random.Random("fog probe test"))
    dec = next(d for d in eng.awaiting if d.id != "join")
    assert dec.kind == "bid"
    return eng, dec


def test_a_bid_without_a_tie_tells_nothing_of_either_side_s_wep(game):
    # 5.11: the higher bid wins; the WEP on each side's hidden Number Track (3.16) decides nothing
    eng, dec = game
    tally = fp.probe(eng.system, eng.state, dec, {"union": {"bid": 3}, "confederate": {"bid": 1}}, SEED,
                     "test", facts=("wep",))
    assert tally.kept == 4 and tally.visible == 0      # each side's WEP, one up and one down: hidden
    assert tally.findings == []


def test_a_third_tie_is_broken_by_wep_which_the_other_side_then_learns(game):
    # 5.12: tied three times, the side with more WEP goes first; with equal WEP a roll-off decides, so
    # one of each side's changes (one WEP more, one less) gives the initiative to the other side
    eng, _ = game
    state = copy_state(eng.state)
    state["wep"] = {"union": 40, "confederate": 40}
    state["current"]["bid_round"] = 3
    dec = eng.system.decisions(state)[0]
    tally = fp.probe(eng.system, state, dec, {"union": {"bid": 2}, "confederate": {"bid": 2}}, SEED,
                     "test", facts=("wep",))
    assert tally.kept == 4
    assert {f.side for f in tally.findings} == {"union", "confederate"}
    assert {f.rule for f in tally.findings} == {"5.12"}
    assert all(f.category == fp.OWNER for f in tally.findings)     # both sides bid: both act


def test_a_perturbation_the_other_side_sees_is_never_kept(game):
    # 3.71: a unit led off into the unled stack is a counter on the map: the enemy's view counts it.
    # Moved between two boxes of one hex it stays under the same top counter: hidden
    eng, dec = game
    moves = list(fp.perturbations(eng.state, "union", ("box",)))
    to_map = [p for p in moves if "unled stack" in p.what]
    assert to_map and len(to_map) < len(moves)
    tally = fp.probe(eng.system, eng.state, dec, {"union": {"bid": 3}, "confederate": {"bid": 1}}, SEED,
                     "test", facts=("box",), sides=("union",))
    assert tally.visible == len(to_map)
    assert tally.kept == len(moves) - len(to_map)


def test_at_a_combat_the_defender_s_steps_are_revealed_to_the_attacker():
    # 10.x: the combat tells both sides the forces and strengths engaged, so a step more or less in
    # a defending unit changes what the attacker is told, by a combat event (10.x) it may read
    tally = fp.play("heartland-demo", 3, 12, facts=("steps",), want=lambda dec: dec.kind == "defence", probes=1)
    assert tally.decisions == 1 and tally.kinds["defence"] == 1
    revealed = [f for f in tally.findings if f.side in f.answering]
    assert revealed, "no step of the defender changed what the attacker was told"
    assert all(f.category == fp.CONTACT and f.rule.split(".")[0] == "10" for f in revealed)
