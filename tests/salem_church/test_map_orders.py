"""The order page's rules for a Salem Church player turn (:mod:`hxref.systems.salem_church.map_orders`),
through the real ``check`` at every player turn of the shipped demo: the cheapest path the reach found
to a hex it lights passes the check (D3), a step to an adjacent hex it leaves dark is refused by a
rule of movement (D3 enemy units, the MP or the stacking; D2 going on from enemy ZOC; TEC terrain;
16.0 the wagon train; 18.0 night), and a battery's lit targets pass while a hex in its range + 1 it
leaves dark is refused (the bombardment stand-in: range, no enemy combat unit; the TEC's line of
sight for fire; 16.0 the train is never attacked)."""
from __future__ import annotations

import pytest

from hxref.geometry.hex import distance, hex_range
from hxref.systems.salem_church.board import hexmap as map_of
from hxref.systems.salem_church.orders_check import moved
from hxref.systems.salem_church.path_walk import cheapest_paths

from tests.conformance.map_moments import item_problems, moments, one_item

MOVEMENT_RULES = {"D3", "D2", "TEC", "16.0", "18.0", "17.2"}
BOMBARD_RULES = {"bombardment", "TEC", "16.0", "18.0"}


@pytest.fixture(scope="module")
def turns(tmp_path_factory):
    found = moments("salem-church", tmp_path_factory.mktemp("salem-map"))
    assert found, "the demo has player turns"
    return found


def test_the_moves_and_bombardments_are_the_map_lists(turns):
    for m in turns:
        lists = {ml.key: ml for ml in m.lists}
        assert "moves" in lists and (lists["moves"].piece, lists["moves"].path, lists["moves"].rule) == ("unit", "path", "D3")
        for ml in m.lists:
            for p in ml.pieces:
                u = m.state["units"][p.id]
                assert u["side"] == m.side and str(u["hex"]) == p.hex and p.label == u["name"]
        if "bombard" in lists:
            assert lists["bombard"].target == "target" and lists["bombard"].path == ""
            assert all(m.state["units"][p.id]["type"] == "artillery" for p in lists["bombard"].pieces)


#: the player turns are tried in this many shards, each a test: shard k takes turns k, k + SHARDS, ...
SHARDS = 6


@pytest.mark.parametrize("shard", range(SHARDS))
def test_d3_the_path_to_a_reached_hex_passes_and_a_step_elsewhere_is_refused(turns, shard):
    """Every piece of every player turn, the turns dealt out over :data:`SHARDS` tests."""
    passed = refused = 0
    for m in turns[shard::SHARDS]:
        hm = map_of(m.system.charts, m.state)
        ml = next((x for x in m.lists if x.key == "moves"), None)
        if ml is None:
            continue
        base = m.system.stand_fast(m.state, m.decision, m.side)
        work = moved(m.state, hm, m.side, base)
        for piece in ml.pieces:
            reach = m.system.reach(m.state, m.decision, m.side, base, "moves", piece.id)
            assert piece.hex not in reach and all(c > 0 for c in reach.values())
            near = [hm.label(n) for n in hm.parse(piece.hex).neighbours() if n in hm.grid]
            far = max(reach, key=reach.__getitem__, default=None)
            paths = cheapest_paths(work, hm, piece.id)
            for label in [*near, *([far] if far else [])]:
                if label in reach:
                    path = paths.get(label)
                    assert path and path[-1] == label
                    choice, i = one_item(m, ml, piece.id, path=path)
                    assert item_problems(m, choice, "moves", i) == [], (m.decision.id, piece, path)
                    passed += 1
                else:
                    choice, i = one_item(m, ml, piece.id, path=[label])
                    found = item_problems(m, choice, "moves", i)
                    assert found and found[0].rule in MOVEMENT_RULES, (m.decision.id, piece, label, found)
                    refused += 1
    assert passed and refused


def test_a_battery_fires_at_the_hexes_it_reaches_and_no_other(turns):
    passed = refused = 0
    for m in turns:
        ml = next((x for x in m.lists if x.key == "bombard"), None)
        if ml is None:
            continue
        hm = map_of(m.system.charts, m.state)
        base = m.system.stand_fast(m.state, m.decision, m.side)
        for piece in ml.pieces:
            reach = m.system.reach(m.state, m.decision, m.side, base, "bombard", piece.id)
            here = hm.parse(piece.hex)
            for h in hex_range(here, int(m.state["units"][piece.id].get("range") or 0) + 1):
                if h not in hm.grid:
                    continue
                label = hm.label(h)
                choice, i = one_item(m, ml, piece.id, target=label)
                found = item_problems(m, choice, "bombard", i)
                if label in reach:
                    assert found == [] and reach[label] == distance(here, h), (m.decision.id, piece, label, found)
                    passed += 1
                else:
                    assert found and found[0].rule.split()[0] in BOMBARD_RULES, (m.decision.id, piece, label, found)
                    refused += 1
    assert passed and refused


def test_no_bombardment_at_night(turns):
    night = [m for m in turns if m.state["turn"] in m.state["rules"]["night"]["turns"]]
    assert night and all([ml.key for ml in m.lists] == ["moves"] for m in night)
