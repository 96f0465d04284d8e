"""The order page's rules in every registered system (``GameSystem.map_orders``, ``reach``): at every
decision of the system's demo where a side orders on the map, the lists read from the side's own view
(all the page has in an umpired game) are those read from the game's state -- the side's own pieces --
and the reach read from the view lights hexes of the map, not the piece's own, at a cost above
nothing.  (The reach on the state may differ from the view's where the side cannot see the enemy, as
``check`` does: hxref.report.side_view.)  A system without map lists in its demo is let be."""
from __future__ import annotations

from tests.conformance.map_moments import moments


def test_the_map_lists_and_reach_read_from_the_view_are_those_of_the_state(system, tmp_path):
    for m in moments(system, tmp_path):
        assert m.system.map_orders(m.view, m.decision, m.side) == m.lists, m.decision.id
        hexmap = m.system.map_view(m.view)
        hm = hexmap.load() if hexmap is not None else None
        for ml in m.lists:
            assert ml.pieces and len({p.id for p in ml.pieces}) == len(ml.pieces)
            for piece in ml.pieces[:2]:
                reach = m.system.reach(m.view, m.decision, m.side, {}, ml.key, piece.id)
                assert piece.hex not in reach and all(c > 0 for c in reach.values())
                if hm is not None:
                    assert all(hm.parse(h) in hm.grid for h in reach)
