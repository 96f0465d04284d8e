"""Salem Church's fast sight (:func:`hxref.systems.salem_church.views.seen_units`) gives the answer
the full computation gives: every hex of the map tested from every observer
(:func:`~hxref.systems.salem_church.views.visible_hexes`, the TEC's line of sight and contact).

The fast path asks only the hexes that hold enemy units, and remembers each line of sight per map:
line of sight turns on the terrain alone (TEC: hills, heavy woods; light woods only for artillery
fire, never asked here), so the units on the map never change an answer.  The checks are on the
shipped map: a random sample of hex pairs against a fresh ``line_of_sight``, and many random
placings of the scenario's units against the full computation.
"""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from hxref.systems.salem_church import views as vw

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "salem_church"


@pytest.fixture(scope="module")
def full_sight(m):
    """The full computation's sight from a sample of hexes: every hex of the map, by contact or by
    the TEC's line of sight (what :func:`visible_hexes` adds for one observer)."""
    rng = random.Random(1863)
    hexes = m.hexes()
    sample = rng.sample(hexes, 24)
    return {m.label(o): frozenset(m.label(h) for h in hexes
                                  if vw.distance(o, h) <= 1 or vw.line_of_sight(m, o, h).visible)
            for o in sample}


def placing(scenario, rng: random.Random, eyes: list[str], hexes: list[str], *, stray: bool = True) -> dict:
    """The scenario's units at random: the Union's on hexes of ``eyes``, the Confederates'
    anywhere on the map; some off the map (None), some eliminated (0 steps), and with ``stray``
    one Confederate unit in a hex off the map's grid (never seen: not a hex of the map)."""
    units = {}
    for uid, u in scenario["units"].items():
        roll = rng.random()
        label = None if roll < 0.15 else rng.choice(eyes if u["side"] == "union" else hexes)
        units[uid] = {"side": u["side"], "type": u["type"], "name": u["name"], "hex": label,
                      "steps": 0 if 0.15 <= roll < 0.2 else u["steps"]}
    if stray:
        units[next(uid for uid, u in units.items() if u["side"] == "confederate")]["hex"] = "9999"
    return {"turn": 3, "units": units}


def old_seen(state: dict, side: str, seen_hexes: set[str]) -> set[str]:
    """The full computation's answer: the enemy units on the map in a hex the side sees."""
    return {uid for uid, u in state["units"].items() if u["side"] != side and vw._on_map(u)
            and str(u["hex"]) in seen_hexes}


def test_remembered_line_of_sight_is_the_fresh_one_for_a_sample_of_pairs(m):
    fresh_map = copy.deepcopy(m)            # its own memo, empty
    rng = random.Random(7)
    hexes = fresh_map.hexes()
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(3000)]
    pairs += [(h, h) for h in hexes[:20]]
    want = [vw.line_of_sight(fresh_map, o, t).visible for o, t in pairs]
    assert [vw._sees(fresh_map, o, t) for o, t in pairs] == want         # worked out
    assert [vw._sees(fresh_map, o, t) for o, t in pairs] == want         # remembered
    assert 0 < sum(want) < len(want)                                     # the sample holds both answers


def test_seen_units_matches_the_full_computation_on_random_placings(m, scenario, full_sight):
    rng = random.Random(2)
    hexes = [m.label(h) for h in m.hexes()]
    eyes = sorted(full_sight)
    seen = unseen = 0
    for _ in range(150):
        state = placing(scenario, rng, eyes, hexes)
        union_sees = set().union(*(full_sight[h] for h in vw.observers(state, "union")))
        got = vw.seen_units(state, m, "union")
        assert got == old_seen(state, "union", union_sees)
        seen += len(got)
        unseen += sum(1 for u in state["units"].values() if u["side"] == "confederate" and vw._on_map(u)) - len(got)
    assert seen > 100 and unseen > 100          # the placings test both answers, many times


def test_seen_units_matches_visible_hexes_itself_both_sides_and_without_contact(m, scenario):
    rng = random.Random(5)
    hexes = [m.label(h) for h in m.hexes()]
    for _ in range(3):
        state = placing(scenario, rng, rng.sample(hexes, 6), hexes, stray=False)
        for u in state["units"].values():          # thin out both sides: the full computation is slow
            if rng.random() < 0.6:
                u["hex"] = None
        for side in vw.SIDES:
            for contact in (True, False):
                full = vw.visible_hexes(state, m, side, contact=contact)
                assert vw.seen_units(state, m, side, contact=contact) == old_seen(state, side, full)


def test_seen_units_asks_only_enemy_held_hexes_once_per_map(m, scenario, monkeypatch):
    fresh_map = copy.deepcopy(m)
    calls: list[tuple] = []
    real = vw.line_of_sight

    def counted(hm, o, t, **kw):
        calls.append((o, t))
        return real(hm, o, t, **kw)

    monkeypatch.setattr(vw, "line_of_sight", counted)
    rng = random.Random(11)
    hexes = [m.label(h) for h in m.hexes()]
    state = placing(scenario, rng, hexes, hexes)
    eyes = vw.observers(state, "union")
    targets = {u["hex"] for u in state["units"].values() if u["side"] == "confederate" and vw._on_map(u)}
    first = vw.seen_units(state, fresh_map, "union")
    assert 0 < len(calls) <= len(eyes) * len(targets)
    assert len(set(calls)) == len(calls)            # no pair asked twice
    asked = len(calls)
    assert vw.seen_units(state, fresh_map, "union") == first and len(calls) == asked   # the second report: none


def test_seen_units_without_enemy_or_observers(m, scenario):
    state = placing(scenario, random.Random(3), [m.label(m.hexes()[0])], [m.label(m.hexes()[1])])
    for u in state["units"].values():
        if u["side"] == "union":
            u["hex"] = None
    assert vw.seen_units(state, m, "union") == set()
    assert vw.seen_units({"units": {}}, m, "confederate") == set()
    with pytest.raises(vw.InvalidInput):
        vw.seen_units(state, m, "umpire")
