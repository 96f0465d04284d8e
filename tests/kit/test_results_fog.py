"""The kit's results table (a chart read as columns, die rows and cells, with file:line errors) and
its fog (which units a side sees, which hexes it cannot)."""
from __future__ import annotations

import doctest

import pytest

import hxref.kit.fog
import hxref.kit.results
from hxref.base.canon import sha256_hex
from hxref.base.errors import InvalidInput
from hxref.geometry.hex import Hex
from hxref.kit.data import Source
from hxref.kit.fog import sighted, unseen
from hxref.kit.results import ResultsTable

ODDS = """rule: X5
stand_in: true
by: odds
columns: ["1:2", "1:1", "3:2", "2:1"]
die: 2
rows:
  1: [AE, NE, DR, DE]
  2: [NE, DR, DE, DE]
results: {AE: attackers eliminated, NE: no effect, DR: defender retreats, DE: defender eliminated}
"""


def _table(text: str, by_text: str | None = None) -> ResultsTable:
    if by_text is not None:
        text = text.replace("by: odds", by_text)
    return ResultsTable.read(Source("test", "charts/crt.yaml", "crt.yaml", sha256_hex(text.encode()), False, text))


def test_odds_fall_in_the_last_column_they_reach_and_clamp_at_the_edges():
    t = _table(ODDS)
    assert [t.columns[t.column(a, d)] for a, d in ((7, 3), (6, 4), (5, 4), (1, 9), (30, 1))] == \
        ["2:1", "3:2", "1:1", "1:2", "2:1"]
    o = t.resolve(6, 4, die=1, shift=-1)
    assert (o.column, o.cell, o.means, o.rule, o.stand_in) == ("1:1", "NE", "no effect", "X5", True)
    assert t.resolve(6, 4, die=2, shift=5).column == "2:1"
    assert o.explain() == {"attack": 6, "defence": 4, "column": "1:1", "shift": -1, "die": 1, "cell": "NE",
                           "rule": "X5", "stand_in": True}


def test_differential_columns():
    text = ODDS.replace('["1:2", "1:1", "3:2", "2:1"]', '["-2", "0", "+1", "+3"]')
    t = _table(text, "by: differential")
    assert [t.columns[t.column(a, d)] for a, d in ((3, 3), (4, 3), (9, 3), (1, 9))] == ["0", "+1", "+3", "-2"]


@pytest.mark.parametrize("change, says, line", [
    (("die: 2", "die: 3"), "one row for each face of the d3", 6),
    (("  2: [NE, DR, DE, DE]", "  2: [NE, DR, DE]"), "row 2 has 3 cells for 4 columns", 8),
    (("  2: [NE, DR, DE, DE]", "  2: [NE, DR, DE, XX]"), "the code 'XX' is not in `results`", 8),
    (('["1:2", "1:1", "3:2", "2:1"]', '["1:1", "1:2"]'), "from the lowest to the highest", 4),
    (("by: odds", "by: ratio"), "not one of odds, differential", 3),
    (("rule: X5\n", ""), "lacks `rule`", 1),
])
def test_a_table_that_cannot_be_read_names_its_file_and_line(change, says, line):
    with pytest.raises(InvalidInput) as err:
        _table(ODDS.replace(*change))
    assert says in str(err.value) and err.value.where.file == "crt.yaml" and err.value.where.line == line


def test_a_side_sees_its_own_and_the_enemy_within_reach_and_sight():
    units = {"a": ("red", Hex(0, 0)), "b": ("blue", Hex(1, 0)), "c": ("blue", Hex(2, 0)), "d": ("blue", None)}
    side, where = (lambda u: u[0]), (lambda u: u[1])
    assert sighted(units, "red", side_of=side, hex_of=where) == {"a", "b"}
    assert sighted(units, "red", side_of=side, hex_of=where, reach=2) == {"a", "b", "c"}
    assert sighted(units, "red", side_of=side, hex_of=where, reach=2, sees=lambda e, t: t != Hex(1, 0)) == {"a", "c"}
    assert sighted(units, "blue", side_of=side, hex_of=where) == {"a", "b", "c"}


def test_unseen_hexes_are_the_fog():
    hexes = [Hex(q, 0) for q in range(4)]
    assert unseen(hexes, [Hex(0, 0)]) == {Hex(2, 0), Hex(3, 0)}
    assert unseen(hexes, []) == set(hexes)


def test_module_examples():
    for mod in (hxref.kit.results, hxref.kit.fog):
        assert doctest.testmod(mod).failed == 0
