"""The Salem Church Combat Results Table (CRT), as data (digest ``rules/salem-church.md`` section B).

``games/salem_church/charts/crt.yaml`` holds the digest's reconstruction of the
scrambled table (B4), cell for cell, with the CRT key (B2) as data and the two
uncertain cells listed.  This module reads and checks it and answers:

* which column a strength differential falls in (:meth:`Crt.column_for`):
  below -5 reads ``<=-5``, above +10 reads ``>=+10`` (B1);
* what the cell of a differential and a die says (:meth:`Crt.lookup`,
  :meth:`Crt.read` with the uncertainty note for reports);
* what a result code means (:meth:`Result.parse`): whom it acts on, what it
  does, the bracketed result, and whether the cell also carries ``Leader``.

:meth:`Crt.load` builds the chart the game's :class:`~hxref.kit.charts.Charts` hold (its
pinned copy in play), once per content.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ...base.errors import InvalidInput

if TYPE_CHECKING:
    from ...kit.charts import Charts

DIE_FACES = (1, 2, 3, 4, 5, 6)
LEADER = "Leader"
_LEADER_SUFFIX = re.compile(r"^(?P<code>.+?)\s*\+\s*Leader$")
_CODE = re.compile(r"^(?P<letters>[A-Za-z]+)(?:\((?P<bracket>[^()]*)\))?$")
_BAND = re.compile(r"^(?:<=(?P<le>[+-]?\d+)|>=(?P<ge>[+-]?\d+)|(?P<lo>[+-]?\d+)\.\.(?P<hi>[+-]?\d+))$")


class Affects(str, Enum):
    """Whose units a code acts on: A = the attacker's, D = the defender's (B2)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    BOTH = "both"            # Ex: both sides lose a step; Leader: every leader of both sides
    NONE = "none"            # NE


class Kind(str, Enum):
    """What a code does (B2, the CRT key)."""

    RETREAT = "retreat"                  #: Ar/Dr: all units disrupted, or all retreat 1-3 hexes
    RETREAT_CHECK = "retreat_check"      #: Ac(x)/Dc(x): MC; fail Ar/Dr, pass apply x
    RETREAT_OR_LOSS = "retreat_or_loss"  #: Ax/Dx: MC; pass may take a step loss, else disrupted and retreat 1-3
    ROUT_CHECK = "rout_check"            #: Dm(x): MC; fail rout, pass apply x
    EXCHANGE = "exchange"                #: Ex/EX: both sides lose a step
    NO_EFFECT = "no_effect"              #: NE
    LEADER = "leader"                    #: Leader: 1d6 per leader of both sides, 5-6 kills


# letters -> (affects, kind, takes a bracket); the grammar of B2
_GRAMMAR: dict[str, tuple[Affects, Kind, bool]] = {
    "Ar": (Affects.ATTACKER, Kind.RETREAT, False),
    "Dr": (Affects.DEFENDER, Kind.RETREAT, False),
    "Ac": (Affects.ATTACKER, Kind.RETREAT_CHECK, True),
    "Dc": (Affects.DEFENDER, Kind.RETREAT_CHECK, True),
    "Ax": (Affects.ATTACKER, Kind.RETREAT_OR_LOSS, False),
    "Dx": (Affects.DEFENDER, Kind.RETREAT_OR_LOSS, False),
    "Dm": (Affects.DEFENDER, Kind.ROUT_CHECK, True),
    "Ex": (Affects.BOTH, Kind.EXCHANGE, False),
    "EX": (Affects.BOTH, Kind.EXCHANGE, False),
    "NE": (Affects.NONE, Kind.NO_EFFECT, False),
    LEADER: (Affects.BOTH, Kind.LEADER, False),
}
_MC_KINDS = (Kind.RETREAT_CHECK, Kind.RETREAT_OR_LOSS, Kind.ROUT_CHECK)


@dataclass(frozen=True)
class Result:
    """One CRT result as printed, e.g. ``Dc(Ex)``; ``leader``: the cell also carries ``Leader``.

    ``code`` is the code without the Leader line; ``bracket`` the bracketed result
    (Ac/Dc/Dm only; brackets hold a result code, never a number)."""

    code: str
    affects: Affects
    kind: Kind
    bracket: "Result | None" = None
    leader: bool = False

    @property
    def letters(self) -> str:
        """The code's letters without the bracket (``Dc`` of ``Dc(Ex)``): the key of the CRT key."""
        return "Ex" if self.code == "EX" else self.code.split("(", 1)[0]

    @property
    def needs_mc(self) -> bool:
        """The code asks for a morale check of the first unit (Ac/Dc, Ax/Dx, Dm)."""
        return self.kind in _MC_KINDS

    @property
    def text(self) -> str:
        """The cell as written in crt.yaml: ``Dr`` or ``Dr + Leader``."""
        return f"{self.code} + {LEADER}" if self.leader and self.kind is not Kind.LEADER else self.code

    def without_leader(self) -> "Result":
        return Result(self.code, self.affects, self.kind, self.bracket, self.kind is Kind.LEADER)

    @classmethod
    def parse(cls, text: Any) -> "Result":
        """Read a code (B2): ``Ar``, ``Dc(Ex)``, ``Dm(Dx)``, ``Ex``/``EX``, ``NE``, ``Leader``,
        or a cell with the Leader line, ``Ar + Leader``.  A malformed code raises ValueError."""
        raw = str(text).strip()
        leader = False
        m = _LEADER_SUFFIX.match(raw)
        if m:
            raw, leader = m.group("code").strip(), True
        result = cls._parse_code(raw, str(text), nested=False)
        if leader:
            if result.kind is Kind.LEADER:
                raise ValueError(f"CRT code {text!r}: 'Leader' is written once")
            result = Result(result.code, result.affects, result.kind, result.bracket, True)
        return result

    @classmethod
    def _parse_code(cls, raw: str, original: str, nested: bool) -> "Result":
        m = _CODE.match(raw)
        known = ", ".join(k for k in _GRAMMAR if k != "EX")
        if not m or m.group("letters") not in _GRAMMAR:
            raise ValueError(f"CRT code {original!r}: not a result code; known: {known}, "
                             "with a bracket for Ac, Dc, Dm (e.g. Dc(Ex)), optionally '+ Leader'")
        letters, inner = m.group("letters"), m.group("bracket")
        affects, kind, takes = _GRAMMAR[letters]
        if takes and inner is None:
            raise ValueError(f"CRT code {original!r}: {letters} needs a bracketed result, e.g. {letters}(NE)")
        if not takes and inner is not None:
            raise ValueError(f"CRT code {original!r}: {letters} takes no bracket")
        bracket = None
        if inner is not None:
            if nested:
                raise ValueError(f"CRT code {original!r}: a bracketed result cannot carry another bracket")
            if not inner.strip():
                raise ValueError(f"CRT code {original!r}: the bracket is empty")
            bracket = cls._parse_code(inner.strip(), original, nested=True)
            if bracket.kind is Kind.LEADER:
                raise ValueError(f"CRT code {original!r}: Leader is not a bracketed result")
        return cls(raw, affects, kind, bracket, kind is Kind.LEADER)


@dataclass(frozen=True)
class Column:
    """A differential band, e.g. ``-4..-3``; ``low``/``high`` None = open-ended."""

    label: str
    low: int | None
    high: int | None

    def holds(self, differential: int) -> bool:
        return (self.low is None or differential >= self.low) and (self.high is None or differential <= self.high)


@dataclass(frozen=True)
class Uncertain:
    """A cell the reconstruction is not sure of (B4 ``?``): the value in the table and the other reading."""

    row: int
    column: str
    printed: str
    alternative: str
    note: str

    @property
    def text(self) -> str:
        return (f"uncertain cell (die {self.row}, {self.column}): {self.printed} as reconstructed, "
                f"or {self.alternative} (B4, B5.6)")


@dataclass(frozen=True)
class CodeMeaning:
    """One entry of the CRT key (B2)."""

    code: str
    affects: Affects
    kind: Kind
    name: str
    ja: str
    meaning: str
    bracket: bool = False


@dataclass(frozen=True)
class Reading:
    """One look-up, for reports: the differential, the column, the die, the cell and its result."""

    differential: int
    column: str
    clamped: bool             # the differential lies beyond the printed numbers of an end column
    die: int
    cell: str
    result: Result
    uncertain: Uncertain | None

    @property
    def why(self) -> str:
        out = f"differential {self.differential:+d}: column {self.column}; die {self.die}: {self.cell}"
        if self.uncertain:
            out += f" ({self.uncertain.text})"
        return out


@dataclass(frozen=True)
class Crt:
    """The CRT: nine differential columns, rows for die faces 1-6, and the key."""

    columns: tuple[Column, ...]
    rows: Mapping[int, tuple[Result, ...]]
    codes: Mapping[str, CodeMeaning]
    uncertain: tuple[Uncertain, ...]
    leader_kills: frozenset[int]
    stand_in: bool = True
    source: str = ""
    note: str = ""
    notes: tuple[str, ...] = ()
    terms: Mapping[str, Any] | None = None
    path: str = ""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.columns)

    # --- columns ---------------------------------------------------------------------------
    def column_index(self, differential: int) -> int:
        if isinstance(differential, bool) or not isinstance(differential, int):
            raise TypeError(f"a CRT differential is a whole number of CF, not {differential!r}")
        for i, c in enumerate(self.columns):
            if c.holds(differential):
                return i
        raise AssertionError("the columns cover every integer (checked on loading)")

    def column_for(self, differential: int) -> str:
        """B1: the column label of an attacker-minus-defender differential (ends open)."""
        return self.columns[self.column_index(differential)].label

    # --- cells -----------------------------------------------------------------------------
    def _index(self, label: str) -> int:
        try:
            return self.labels.index(label)
        except ValueError:
            raise KeyError(f"no CRT column {label!r}; columns: {', '.join(self.labels)}") from None

    def cell(self, column: str, die: int) -> Result:
        """The cell of column ``column`` (a label) and die face ``die``."""
        return self.rows[_face(die)][self._index(column)]

    def lookup(self, differential: int, die: int) -> Result:
        """B1: the result of a differential and an unmodified 1d6."""
        return self.rows[_face(die)][self.column_index(differential)]

    def uncertain_at(self, column: str, die: int) -> Uncertain | None:
        return next((u for u in self.uncertain if u.row == die and u.column == column), None)

    def read(self, differential: int, die: int) -> Reading:
        """:meth:`lookup` with everything a report needs to say why."""
        i = self.column_index(differential)
        col = self.columns[i]
        result = self.rows[_face(die)][i]
        # a column has at most one open end (:meth:`CrtLoader.column`)
        clamped = ((col.low is None and col.high is not None and differential < col.high)
                   or (col.high is None and col.low is not None and differential > col.low))
        return Reading(differential, col.label, clamped, die, result.text, result,
                       self.uncertain_at(col.label, die))

    # --- loading ---------------------------------------------------------------------------
    @classmethod
    def from_data(cls, data: Any, path: str = "") -> "Crt":
        """Check and build the chart; a problem raises :class:`InvalidInput` naming the file and key.

        The chart is read in the order of the digest: the differential columns (B1), a row of cells
        per die face (B4), the key of its codes (B2), the cells the reconstruction is unsure of,
        and the Leader line."""
        chart = _Chart(path or "crt.yaml")
        columns = chart.columns(data)
        rows = chart.rows(data, columns)
        codes = chart.codes(data, rows)
        uncertain = chart.uncertain(data, rows, columns)
        kills = chart.leader_kills(data)
        return cls(tuple(columns), rows, codes, tuple(uncertain), frozenset(kills),
                   bool(data.get("stand_in", False)), str(data.get("source", "")).strip(),
                   str(data.get("note", "")).strip(), tuple(str(n) for n in data.get("notes") or ()),
                   dict(data.get("terms") or {}), chart.where)

    @classmethod
    def load(cls, charts: Charts, path: str | Path | None = None) -> "Crt":
        """The chart ``charts/crt.yaml`` of ``charts`` (a game's pinned copy, or today's file), or
        with ``path`` another file of its shape."""
        return _build(charts.chart_source("crt", str(path) if path else None))


@dataclass(frozen=True)
class _Chart:
    """Reads the parts of a CRT file (:meth:`Crt.from_data`); each problem raises
    :class:`InvalidInput` naming the file (``where``) and the key, under rule B."""

    where: str

    def bad(self, message: str, key: str, code: str = "E112") -> InvalidInput:
        return InvalidInput(message, code=code, file=self.where, path=key, rule="B")

    def need(self, mapping: Any, key: str, at: str) -> Any:
        """``mapping[key]``; ``at`` is where the mapping is (``""``: the top of the file)."""
        if not isinstance(mapping, dict):
            raise self.bad(f"{at or 'the chart'} must be a mapping", at or "(top)")
        if key not in mapping:
            raise self.bad(f"missing key `{key}`", f"{at}.{key}" if at else key, "E111")
        return mapping[key]

    def columns(self, data: Any) -> list[Column]:
        """B1: the differential bands, open at both ends, each following the one before."""
        labels = self.need(data, "columns", "")
        if not isinstance(labels, list) or len(labels) < 2:
            raise self.bad("`columns` must be a list of at least two differential bands", "columns")
        columns: list[Column] = []
        for i, text in enumerate(labels):
            key = f"columns[{i}]"
            col = self.column(text, key)
            first, last = i == 0, i == len(labels) - 1
            if (col.low is None) != first or (col.high is None) != last:
                raise self.bad(f"column {text!r}: only the first column is '<=N' and only the last is '>=N'", key)
            prev = columns[-1].high if columns else None      # only the last column is open above
            if columns and (prev is None or col.low != prev + 1):
                raise self.bad(f"column {text!r} does not follow {columns[-1].label} without gap or overlap", key)
            columns.append(col)
        return columns

    def column(self, text: Any, key: str) -> Column:
        """One band: ``<=N``, ``N..M`` or ``>=N``."""
        m = _BAND.match(str(text))
        if not m:
            raise self.bad(f"column {text!r}: write '<=N', 'N..M' or '>=N' (e.g. '-4..-3', '+2..+3')", key)
        if m.group("le") is not None:
            return Column(str(text), None, int(m.group("le")))
        if m.group("ge") is not None:
            return Column(str(text), int(m.group("ge")), None)
        low, high = int(m.group("lo")), int(m.group("hi"))
        col = Column(str(text), low, high)
        if high < low:
            raise self.bad(f"column {text!r} ends before it starts", key)
        return col

    def rows(self, data: Any, columns: list[Column]) -> dict[int, tuple[Result, ...]]:
        """B4: one row per die face, a result cell per column."""
        rows_in = self.need(data, "rows", "")
        if not isinstance(rows_in, dict) or sorted(rows_in) != list(DIE_FACES):
            got = sorted(rows_in) if isinstance(rows_in, dict) else rows_in
            raise self.bad(f"`rows` must have one row per die face 1-6, got {got!r}", "rows")
        rows: dict[int, tuple[Result, ...]] = {}
        for die in DIE_FACES:
            row = rows_in[die]
            if not isinstance(row, list) or len(row) != len(columns):
                n = len(row) if isinstance(row, list) else "no list of"
                raise self.bad(f"row {die} has {n} cells for {len(columns)} columns", f"rows.{die}")
            rows[die] = tuple(self.result(text, f"rows.{die}[{i}]") for i, text in enumerate(row))
        return rows

    def result(self, text: Any, key: str) -> Result:
        try:
            return Result.parse(text)
        except ValueError as e:
            raise self.bad(str(e), key) from None

    def codes(self, data: Any, rows: Mapping[int, tuple[Result, ...]]) -> dict[str, CodeMeaning]:
        """B2, the key: every code the table uses, read as its letters say (the grammar of B2)."""
        codes_in = self.need(data, "codes", "")
        if not isinstance(codes_in, dict):
            raise self.bad("`codes` must map each code to its meaning", "codes")
        codes = {code: self.code(code, entry) for code, entry in codes_in.items()}
        used = {LEADER} if any(r.leader for row in rows.values() for r in row) else set()
        for row in rows.values():
            for cell in row:
                r: Result | None = cell
                while r is not None:
                    used.add(r.letters)
                    r = r.bracket
        missing = sorted(used - set(codes))
        if missing:
            raise self.bad(f"codes used in the table have no meaning in `codes`: {', '.join(missing)}", "codes", "E111")
        return codes

    def code(self, code: Any, entry: Any) -> CodeMeaning:
        at = f"codes.{code}"
        if code not in _GRAMMAR or code == "EX":
            raise self.bad(f"unknown code {code!r} in the key", at, "E110")
        affects, kind, takes = _GRAMMAR[code]
        for field, want in (("affects", affects.value), ("kind", kind.value)):
            if self.need(entry, field, at) != want:
                raise self.bad(f"{code}: {field} is {entry[field]!r}, but the code reads as {want!r} (B2)",
                               f"{at}.{field}")
        if bool(entry.get("bracket", False)) != takes:
            raise self.bad(f"{code}: bracket must be {str(takes).lower()}", f"{at}.bracket")
        return CodeMeaning(code, affects, kind, str(self.need(entry, "name", at)), str(self.need(entry, "ja", at)),
                           str(self.need(entry, "meaning", at)), takes)

    def uncertain(self, data: Any, rows: Mapping[int, tuple[Result, ...]], columns: list[Column]) -> list[Uncertain]:
        """The cells the reconstruction is unsure of: each names what the table prints there."""
        labels = [c.label for c in columns]
        out: list[Uncertain] = []
        for i, u in enumerate(data.get("uncertain") or []):
            at = f"uncertain[{i}]"
            row, column = self.need(u, "row", at), str(self.need(u, "column", at))
            if row not in rows:
                raise self.bad(f"no row {row!r}", f"{at}.row")
            if column not in labels:
                raise self.bad(f"no column {column!r}", f"{at}.column")
            printed = str(self.need(u, "printed", at))
            actual = rows[row][labels.index(column)]
            if printed != actual.code:
                raise self.bad(f"the table has {actual.code!r} at (die {row}, {column}), not {printed!r}",
                               f"{at}.printed")
            alternative = str(self.need(u, "alternative", at))
            self.result(alternative, f"{at}.alternative")
            out.append(Uncertain(row, column, printed, alternative, str(self.need(u, "note", at)).strip()))
        return out

    def leader_kills(self, data: Any) -> list[int]:
        """The Leader line: the die faces that kill a leader."""
        lc = self.need(data, "leader_casualty", "")
        kills = self.need(lc, "killed_on", "leader_casualty")
        if not isinstance(kills, list) or not kills or any(k not in DIE_FACES for k in kills):
            raise self.bad(f"killed_on must list die faces 1-6, got {kills!r}", "leader_casualty.killed_on")
        return kills


def _face(die: int) -> int:
    if isinstance(die, bool) or die not in DIE_FACES:
        raise ValueError(f"a CRT die is one face of 1d6 (1-6), not {die!r}")
    return die


@cache
def _build(src) -> Crt:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return Crt.from_data(src.data(), src.file)

