"""A combat results table read from a chart: columns by odds or by differential, a row per die
face, and in each cell a result code.

The chart, a pinned file of the system's data folder (``charts/<name>.yaml``, read through
``self.charts``)::

    rule: "H5"                      # the rule the table belongs to, cited by every resolution
    stand_in: true                  # the numbers are not the printed game's (with a note)
    by: odds                        # odds: columns "1:2", "1:1", "3:1" (attack : defence)
                                    # differential: columns "-2", "0", "+3" (attack - defence)
    columns: ["1:2", "1:1", "2:1", "3:1"]
    die: 6                          # the die rolled: one row per face, 1 to 6
    rows:
      1: [AE, AR, NE, DR]
      ...
    results:                        # what each code means (every cell's code must be here)
      AE: the attackers are eliminated

A combat falls in the last column whose odds (or differential) it reaches; below the first it is
read on the first, above the last on the last.  A shift (terrain, a leader) moves it that many
columns, right for the attacker, and stops at the table's edges.  :meth:`ResultsTable.resolve`
returns an :class:`Outcome` that explains itself: strengths, column, shift, die, cell.

A table that cannot be read names its file and line (E111 a missing key, E112 a wrong value).

>>> t = ResultsTable("demo", "X1", "odds", ("1:1", "2:1"), 6, {f: ("NE", "DE") for f in range(1, 7)},
...                  {"NE": "no effect", "DE": "the defender is eliminated"})
>>> o = t.resolve(5, 2, die=3)
>>> o.column, o.cell, o.means
('2:1', 'DE', 'the defender is eliminated')
>>> t.resolve(5, 2, die=3, shift=-1).column
'1:1'
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..base.errors import InvalidInput
from .data import Source

#: how a table's columns are read: attack : defence, or attack - defence
BY = ("odds", "differential")
_ODDS = re.compile(r"(\d+):(\d+)")
_DIFF = re.compile(r"[+-]?\d+")
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9/+-]{0,15}")


@dataclass(frozen=True)
class Outcome:
    """One combat read on the table: what a report tells to answer "why"."""

    attack: int
    defence: int
    column: str
    shift: int
    die: int
    cell: str
    means: str
    rule: str
    stand_in: bool = False

    def explain(self) -> dict[str, Any]:
        """The outcome as an event's plain data."""
        return {"attack": self.attack, "defence": self.defence, "column": self.column, "shift": self.shift,
                "die": self.die, "cell": self.cell, "rule": self.rule, "stand_in": self.stand_in}


@dataclass(frozen=True)
class ResultsTable:
    """A results table (see the module text).  ``rows`` maps each die face to one code per column."""

    name: str
    rule: str
    by: str
    columns: tuple[str, ...]
    die: int
    rows: Mapping[int, tuple[str, ...]]
    results: Mapping[str, str]
    stand_in: bool = False
    file: str = field(default="", compare=False)

    @classmethod
    def read(cls, source: Source) -> ResultsTable:
        """The table in the chart ``source``; InvalidInput naming its file and line when it is not one."""
        root = source.rt()

        def bad(message: str, node: Any = None, key: Any = None, code: str = "E112") -> InvalidInput:
            return InvalidInput(f"results table: {message}", code=code, file=source.file, line=_line(node, key))

        for key in ("rule", "by", "columns", "die", "rows", "results"):
            if key not in root:
                raise bad(f"lacks `{key}`", root, None, "E111")
        by = root["by"]
        if by not in BY:
            raise bad(f"`by` is {by!r}, not one of {', '.join(BY)}", root, "by")
        columns = root["columns"]
        pattern = _ODDS if by == "odds" else _DIFF
        if not isinstance(columns, list) or not columns or \
                not all(isinstance(c, str) and pattern.fullmatch(c) for c in columns):
            want = '"1:1", "2:1"' if by == "odds" else '"-1", "0", "+2"'
            raise bad(f"`columns` is a list of quoted {by} like {want}", root, "columns")
        keys = [_value(by, c) for c in columns]
        if keys != sorted(set(keys)):
            raise bad("`columns` go from the lowest to the highest, each once", root, "columns")
        die = root["die"]
        if not isinstance(die, int) or isinstance(die, bool) or not 2 <= die <= 100:
            raise bad("`die` is the number of faces of the die rolled (2 to 100)", root, "die")
        results = root["results"]
        if not isinstance(results, Mapping) or not all(isinstance(k, str) and _CODE.fullmatch(k) and isinstance(v, str)
                                                       for k, v in results.items()):
            raise bad("`results` maps each result code to what it means", root, "results")
        rows = root["rows"]
        if not isinstance(rows, Mapping) or sorted(rows) != list(range(1, die + 1)):
            raise bad(f"`rows` has one row for each face of the d{die}, 1 to {die}", root, "rows")
        out: dict[int, tuple[str, ...]] = {}
        for face, row in rows.items():
            if not isinstance(row, list) or len(row) != len(columns):
                raise bad(f"row {face} has {len(row) if isinstance(row, list) else 'no'} cells for "
                          f"{len(columns)} columns", rows, face)
            unknown = [c for c in row if c not in results]
            if unknown:
                raise bad(f"row {face}: the code {unknown[0]!r} is not in `results`", rows, face)
            out[int(face)] = tuple(str(c) for c in row)
        return cls(source.path, str(root["rule"]), str(by), tuple(str(c) for c in columns), int(die), out,
                   {str(k): str(v) for k, v in results.items()}, bool(root.get("stand_in")), source.file)

    def column(self, attack: int, defence: int) -> int:
        """The index of the column the strengths fall in (clamped to the table)."""
        if self.by == "odds":
            ratio = Fraction(attack, defence) if defence > 0 else Fraction(10 ** 6)
            reached = [i for i, c in enumerate(self.columns) if ratio >= _value("odds", c)]
        else:
            reached = [i for i, c in enumerate(self.columns) if attack - defence >= _value("differential", c)]
        return reached[-1] if reached else 0

    def resolve(self, attack: int, defence: int, die: int, shift: int = 0) -> Outcome:
        """The cell of ``attack`` against ``defence``, shifted ``shift`` columns (right favours the
        attacker), on the row of ``die``."""
        if die not in self.rows:
            raise ValueError(f"a d{self.die} shows no {die}")
        at = min(max(self.column(attack, defence) + shift, 0), len(self.columns) - 1)
        cell = self.rows[die][at]
        return Outcome(attack, defence, self.columns[at], shift, die, cell, self.results[cell], self.rule,
                       self.stand_in)


def _value(by: str, label: str) -> Fraction:
    if by == "odds":
        a, b = (int(x) for x in label.split(":"))
        return Fraction(a, b) if b else Fraction(10 ** 6)
    return Fraction(int(label))


def _line(node: Any, key: Any) -> int | None:
    """The 1-based line of ``key`` in the ruamel mapping ``node`` (of the node itself without a key)."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        return int(lc.key(key)[0]) + 1 if key is not None else int(lc.line) + 1
    except (KeyError, TypeError, AttributeError):
        return int(lc.line) + 1
