"""The Fire Exchange Results Table (FERT) and the terrain column shifts, as data.

``games/heartland/charts/fert.yaml`` holds a STAND-IN table (the seed prints
no chart; the file says which parts come from the rules).  This module reads
and checks it and answers the three questions combat asks of it:

* which column a strength falls in, and where shifts move it
  (:meth:`Fert.column_for`, :meth:`Fert.shift`): shifts that run off either
  end read the end column, a strength below the first band reads the first;
* which row a modified roll reads (:meth:`Fert.row_for`): beyond the first
  or last row, that row;
* what the cell says (:class:`Cell`: step losses, retreat count, asterisk).

:meth:`TerrainShifts.for_fire` gives the 10.32 terrain shifts of one fire,
keyed by the names of ``games/heartland/terrain.yaml``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Collection, Mapping, TYPE_CHECKING

from ...geometry.hex import HexSide

if TYPE_CHECKING:
    from ...kit.charts import Charts

_CELL = re.compile(r"^(\d+)/(\d+)(\*?)$")
_BAND = re.compile(r"^(\d+)(?:-(\d+)|(\+))$")


@dataclass(frozen=True)
class Shift:
    """One column shift: ``amount`` > 0 is right (good for the firer), < 0 left (10.3)."""

    amount: int
    reason: str
    rule: str

    def text(self) -> str:
        side = "right" if self.amount > 0 else "left"
        return f"{abs(self.amount)} {side} ({self.reason}, {self.rule})"


@dataclass(frozen=True)
class Cell:
    """A FERT cell: step losses and retreat count for the stack fired on; ``morale`` = asterisk (10.65)."""

    losses: int
    retreat: int
    morale: bool

    @property
    def text(self) -> str:
        if not (self.losses or self.retreat or self.morale):
            return "-"
        return f"{self.losses}/{self.retreat}" + ("*" if self.morale else "")

    @classmethod
    def parse(cls, text: str) -> "Cell":
        text = str(text).strip()
        if text == "-":
            return cls(0, 0, False)
        m = _CELL.match(text)
        if not m:
            raise ValueError(f"FERT cell {text!r}: use 'L/R', 'L/R*' or '-'")
        return cls(int(m.group(1)), int(m.group(2)), bool(m.group(3)))


@dataclass(frozen=True)
class Column:
    """A strength band, e.g. ``21-28`` or ``141+`` (``high`` None)."""

    label: str
    low: int
    high: int | None

    def holds(self, strength: int) -> bool:
        return strength >= self.low and (self.high is None or strength <= self.high)


@dataclass(frozen=True)
class TerrainShifts:
    """10.32: left shifts from the terrain of the stack fired on and the hexside crossed."""

    hex: Mapping[str, int]
    features: Mapping[str, int]
    entrenchment: Mapping[int, int]
    hexside: Mapping[str, int]
    doctrine_no_shift: frozenset[str] = frozenset()
    doctrine_attacker_only: frozenset[str] = frozenset()

    def hexside_keys(self, hexmap, a: str, b: str, without: Collection[str] = ()) -> list[str]:
        """The table keys of the hexside between ``a`` and ``b``: a river replaced by a bridge or
        ford reads ``river+crossing``; a crossing with no river to replace, or any other feature,
        reads its own name.  Features in ``without`` are gone (a burned bridge)."""
        raw = [f for f in hexmap.side_features(HexSide(hexmap.parse(a), hexmap.parse(b)), effective=False)
               if f not in without]
        types = hexmap.types["hexside"]
        keys: list[str] = []
        used: set[str] = set()
        for f in raw:
            by = [g for g in raw if f in types[g].replaces]
            if by:
                keys.append(f"{f}+{by[0]}")
                used.add(by[0])
        for f in raw:
            if f in used or any(f in types[g].replaces for g in raw):
                continue
            keys.append(f)
        return keys

    def for_fire(self, hexmap, fired_on: str, firer: str, *, firer_attacks: bool, entrenchment: int = 0,
                 doctrine: bool = False, without: Collection[str] = ()) -> list[Shift]:
        """The terrain shifts (each a left shift) of fire from ``firer``'s hex into ``fired_on``'s.

        The hex, its features and its entrenchment are those of the stack fired on; the hexside
        between the two hexes shifts both fires, except that under the optional tactical doctrine
        (10.32a) towns and major cities give nothing and the crossings it names shift only the
        attacker's fire.  Map features named in ``without`` are gone (a devastated town, a burned
        bridge)."""
        out: list[Shift] = []
        h = hexmap.parse(fired_on)
        tt = hexmap.terrain(h).name
        n = self._get(self.hex, tt, "hex")
        if n:
            out.append(Shift(-n, f"{tt} in {fired_on}", "10.32"))
        for f in hexmap.features(h):
            if f in without or (doctrine and f in self.doctrine_no_shift):
                continue
            n = self._get(self.features, f, "features")
            if n:
                out.append(Shift(-n, f"{f} in {fired_on}", "10.32"))
        if entrenchment:
            n = self._get(self.entrenchment, int(entrenchment), "entrenchment")
            if n:
                out.append(Shift(-n, f"entrenchment level {entrenchment} in {fired_on}", "10.32"))
        for key in self.hexside_keys(hexmap, fired_on, firer, without):
            if doctrine and not firer_attacks and key in self.doctrine_attacker_only:
                continue
            n = self._get(self.hexside, key, "hexside")
            if n:
                out.append(Shift(-n, f"across {key} between {firer} and {fired_on}",
                                 "10.32a" if doctrine and key in self.doctrine_attacker_only else "10.32"))
        return out

    @staticmethod
    def _get(table: Mapping, key, group: str) -> int:
        if key not in table:
            raise ValueError(f"fert.yaml terrain_shifts.{group} has no entry for {key!r}; "
                             f"known: {', '.join(str(k) for k in table)}")
        return int(table[key])


@dataclass(frozen=True)
class Fert:
    """The FERT: strength columns low to high, rows of modified rolls, cells; and the terrain shifts."""

    columns: tuple[Column, ...]
    first_row: int
    last_row: int
    cells: Mapping[int, tuple[Cell, ...]]
    terrain: TerrainShifts
    stand_in: bool = True
    note: str = ""
    path: str = ""
    labels: tuple[str, ...] = field(default=())

    # --- columns -----------------------------------------------------------------------
    def column_for(self, strength: int) -> int:
        """The index of the band holding ``strength``; below the first band, the first."""
        for i, c in enumerate(self.columns):
            if c.holds(strength):
                return i
        return 0 if strength < self.columns[0].low else len(self.columns) - 1

    def shift(self, index: int, net: int) -> tuple[int, bool]:
        """Move ``net`` columns (right positive); off either end the end column is read.

        Returns the final index and whether the table's end stopped the shift."""
        target = index + net
        final = min(max(target, 0), len(self.columns) - 1)
        return final, final != target

    def label(self, index: int) -> str:
        return self.columns[index].label

    # --- rows and cells ----------------------------------------------------------------
    def row_for(self, modified: int) -> tuple[int, bool]:
        """The row a modified roll reads, and whether it was beyond the table (then the end row)."""
        row = min(max(modified, self.first_row), self.last_row)
        return row, row != modified

    def cell(self, index: int, row: int) -> Cell:
        return self.cells[row][index]

    # --- loading -----------------------------------------------------------------------
    @classmethod
    def from_data(cls, data: dict, path: str = "") -> "Fert":
        where = path or "fert.yaml"
        cols = _columns(data["columns"], where)
        first, last = int(data["rows"]["first"]), int(data["rows"]["last"])
        cells = _cells(data["table"], first, last, len(cols), where)
        return cls(tuple(cols), first, last, cells, _terrain_shifts(data.get("terrain_shifts") or {}),
                   bool(data.get("stand_in", False)), str(data.get("note", "")), path, tuple(c.label for c in cols))

    @classmethod
    def load(cls, charts: Charts, path: str | Path | None = None) -> "Fert":
        """The game's chart ``charts/fert.yaml`` (of ``charts``), or another file of its shape."""
        return _build(charts.chart_source("fert", str(path) if path else None))


def _columns(raw: list, where: str) -> list[Column]:
    """The strength bands, low to high, without gap or overlap; the last open-ended."""
    cols: list[Column] = []
    for text in raw:
        m = _BAND.match(str(text))
        if not m:
            raise ValueError(f"{where}: column {text!r}: use 'low-high' or 'low+'")
        low = int(m.group(1))
        high = None if m.group(3) else int(m.group(2))
        if high is not None and high < low:
            raise ValueError(f"{where}: column {text!r} ends before it starts")
        if cols and (cols[-1].high is None or low != cols[-1].high + 1):
            raise ValueError(f"{where}: column {text!r} does not follow {cols[-1].label} without gap or overlap")
        cols.append(Column(str(text), low, high))
    if cols[-1].high is not None:
        raise ValueError(f"{where}: the last column must be open-ended ('low+')")
    return cols


def _cells(raw: dict, first: int, last: int, width: int, where: str) -> dict[int, tuple[Cell, ...]]:
    """The rows ``first``..``last`` without gaps, each a cell per column."""
    table = {int(k): v for k, v in raw.items()}
    if sorted(table) != list(range(first, last + 1)):
        raise ValueError(f"{where}: table rows must run {first}..{last} without gaps")
    cells: dict[int, tuple[Cell, ...]] = {}
    for r, row in table.items():
        if len(row) != width:
            raise ValueError(f"{where}: row {r} has {len(row)} cells for {width} columns")
        try:
            cells[r] = tuple(Cell.parse(x) for x in row)
        except ValueError as e:
            raise ValueError(f"{where}: row {r}: {e}") from None
    return cells


def _terrain_shifts(ts: dict) -> TerrainShifts:
    doc = ts.get("doctrine") or {}
    return TerrainShifts(
        hex={str(k): int(v) for k, v in (ts.get("hex") or {}).items()},
        features={str(k): int(v) for k, v in (ts.get("features") or {}).items()},
        entrenchment={int(k): int(v) for k, v in (ts.get("entrenchment") or {}).items()},
        hexside={str(k): int(v) for k, v in (ts.get("hexside") or {}).items()},
        doctrine_no_shift=frozenset(doc.get("no_shift") or ()),
        doctrine_attacker_only=frozenset(doc.get("attacker_only") or ()),
    )


@cache
def _build(src) -> Fert:
    """Once per chart content (the game's pinned chart, or the disk's).  The game's chart must
    never favour the fired-on stack for a stronger fire or a higher roll (0, 10.3: + and right
    are good for the firer): a chart that does is refused at its first such cell."""
    fert = Fert.from_data(src.data(), src.file)
    wrong = monotonic_problems(fert)
    if wrong:
        raise ValueError(f"{src.file or 'fert.yaml'}: {wrong[0]}: a stronger fire or a higher roll may not "
                         f"give fewer losses, a smaller retreat or drop the asterisk (0, 10.3)"
                         + (f"; {len(wrong) - 1} more such cells" if len(wrong) > 1 else ""))
    return fert


def monotonic_problems(fert: Fert) -> list[str]:
    """Where the table gives fewer losses, a smaller retreat or loses an asterisk moving right or up."""
    out = []
    rows = range(fert.first_row, fert.last_row + 1)
    for r in rows:
        for i in range(len(fert.columns)):
            c = fert.cell(i, r)
            for name, other in (("right", fert.cell(i + 1, r) if i + 1 < len(fert.columns) else None),
                                ("up", fert.cell(i, r + 1) if r + 1 <= fert.last_row else None)):
                if other is None:
                    continue
                if other.losses < c.losses or other.retreat < c.retreat or (c.morale and not other.morale):
                    out.append(f"row {r}, column {fert.label(i)}: {c.text} -> {other.text} going {name}")
    return out
