"""The order page's rules for an impulse (:mod:`hxref.systems.heartland.map_orders`), through the real
``check`` at every impulse of the shipped demo: a force's one-step path to a hex ``reach`` lights
passes the check (8.21), and one to an adjacent hex it does not light is refused by the rule of
movement that bars it -- 8.2 (off the map), 8.24 (prohibited terrain), 8.26 (enemy units), 3.61
(enemy ZOC) or 8.22 (beyond any IMC roll)."""
from __future__ import annotations

import pytest

from hxref.systems.heartland import model, wagons
from hxref.systems.heartland.map_orders import route

from tests.conformance.map_moments import item_problems, moments, one_item

#: the rules a step to a hex the reach leaves out is refused by
MOVEMENT_RULES = {"8.2", "8.24", "8.26", "3.61", "8.22"}


@pytest.fixture(scope="module")
def impulses(tmp_path_factory):
    found = moments("heartland", tmp_path_factory.mktemp("heartland-map"))
    assert found, "the demo has impulses"
    return found


def test_the_impulse_moves_are_the_one_map_list(impulses):
    for m in impulses:
        assert [(ml.key, ml.piece, ml.path, ml.target, ml.rule) for ml in m.lists] == [
            ("moves", "force", "path", "attack", "8.21")]
        mine = set(model.forces(m.state, m.side))
        assert {p.id for p in m.lists[0].pieces} <= mine | set(wagons.lone_movers(m.state, m.side))
        assert all(p.hex == model.force_hex(m.state, p.id) for p in m.lists[0].pieces if p.id in mine)


def test_8_21_the_path_to_a_reached_hex_passes_the_check_and_a_step_elsewhere_is_refused(impulses):
    """For every force at every impulse: the cheapest path the reach found to each adjacent hex it
    lights (a step, or the way round to a bridge) and to its dearest hex passes; a step to an
    adjacent hex it leaves dark is refused by a rule of movement."""
    passed = refused = 0
    for m in impulses:
        hm = m.system.charts.map(m.state["map"])
        own = model.occupied_hexes(m.state, m.side)
        base = m.system.stand_fast(m.state, m.decision, m.side)      # the level declared, where it is (5.15)
        for piece in m.lists[0].pieces:
            reach = m.system.reach(m.state, m.decision, m.side, base, "moves", piece.id)
            assert piece.hex not in reach and all(c > 0 for c in reach.values())
            near = [hm.label(n) for n in hm.parse(piece.hex).neighbours() if n in hm.grid]
            far = max((h for h in reach if h not in own), key=reach.__getitem__, default=None)
            for label in [*near, *([far] if far else [])]:
                if label in reach and label not in own:
                    path = route(m.state, m.decision, m.side, base, piece.id, label, charts=m.system.charts)
                    assert path and path[-1] == label
                    choice, i = one_item(m, m.lists[0], piece.id, path=path)
                    assert item_problems(m, choice, "moves", i) == [], (m.decision.id, piece, path)
                    passed += 1
                elif label not in reach:
                    choice, i = one_item(m, m.lists[0], piece.id, path=[label])
                    found = item_problems(m, choice, "moves", i)
                    assert found and found[0].rule in MOVEMENT_RULES, (m.decision.id, piece, label, found)
                    refused += 1
    assert passed and refused


def test_8_22_the_cheapest_reached_hexes_cost_what_the_check_counts(impulses):
    # the allowance: a reached hex costs at most the best IMC roll, which refuses one more MP (8.22)
    m = impulses[0]
    piece = m.lists[0].pieces[0]
    reach = m.system.reach(m.state, m.decision, m.side, {}, "moves", piece.id)
    from hxref.systems.heartland.impulse_check import most_mp

    level = m.state["current"]["active_impulse"].get("level") or m.state["current"]["remaining"][m.side]
    assert max(reach.values()) <= most_mp(m.state, piece.id, level, charts=m.system.charts)[0]


def test_the_reach_of_a_piece_not_offered_or_another_list_is_empty(impulses):
    m = impulses[0]
    enemy = model.forces(m.state, model.other_side(m.side))
    assert enemy and m.system.reach(m.state, m.decision, m.side, {}, "moves", enemy[0]) == {}
    assert m.system.reach(m.state, m.decision, m.side, {}, "combat", m.lists[0].pieces[0].id) == {}
