"""Salem Church artillery bombardment, a labelled stand-in (hxref/systems/salem_church/bombardment.py;
games/salem_church/charts/bombardment.yaml).  The rule cases (range, sight, once a turn, night,
17.3) are in games/salem_church/cases/bombardment.yaml; these pin the chart and the purity of
:func:`resolve`."""
from __future__ import annotations

import copy

import pytest

from hxref.base.errors import IllegalOrder, InvalidInput
from hxref.kit import registry
from hxref.kit.charts import Charts
from hxref.systems.salem_church import bombardment as bo
from hxref.systems.salem_church.board import hexmap

#: the charts as the data folder holds them today
TODAY = Charts.today("salem-church")
CHART = bo.BombardmentChart.load(TODAY)


def test_the_chart_is_a_labelled_stand_in_with_a_result_for_every_face():
    chart = bo.BombardmentChart.load(TODAY)
    assert chart.stand_in is True and chart.note
    assert sorted(chart.results) == [1, 2, 3, 4, 5, 6]
    assert set(chart.results.values()) <= set(bo.RESULTS)
    assert chart.min_range == 1


@pytest.mark.parametrize("data, says", [
    ({"results": {1: "none"}}, "each face 1-6"),
    ({"results": {i: "boom" for i in range(1, 7)}}, "unknown results boom"),
    ({"results": {i: "none" for i in range(1, 7)}, "min_range": 0}, "min_range"),
])
def test_a_malformed_chart_is_refused(data, says):
    with pytest.raises(InvalidInput, match=says):
        bo.BombardmentChart.from_data(data)


def _state():
    system = registry.get("salem-church")
    state = system.setup(system.load_scenario("salem-church"))
    state["stage"], state["turn"], state["phasing"] = "play", 2, "union"
    state["units"]["art-1"]["hex"] = "1310"
    state["units"]["wilcox-m"]["hex"] = "1010"
    return state


def test_resolve_rolls_one_die_on_the_chart_and_changes_nothing():
    state = _state()
    before = copy.deepcopy(state)
    asked: list[str] = []

    def roll(purpose: str) -> int:
        asked.append(purpose)
        return 6

    b = bo.resolve(state, hexmap(TODAY, state), "union", {"unit": "art-1", "target": "1010"}, roll, chart=CHART)
    assert (b.distance, b.range, b.die, b.result, b.hits) == (3, 3, 6, "step", ("wilcox-m",))
    assert asked == ["bombardment art-1 at 1010"]
    assert state == before
    assert b.explanation()["stand_in"] is True


def test_resolve_refuses_what_the_check_refuses():
    state = _state()
    with pytest.raises(IllegalOrder, match="once a player turn"):
        bo.resolve(state, hexmap(TODAY, state), "union", {"unit": "art-1", "target": "1010"}, lambda p: 1,
                   fired={"art-1"}, chart=CHART)
    with pytest.raises(IllegalOrder, match="only artillery bombards"):
        bo.resolve(state, hexmap(TODAY, state), "union", {"unit": "first-1", "target": "1010"}, lambda p: 1, chart=CHART)
