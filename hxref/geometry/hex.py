"""Hex grid geometry: axial/cube coordinates inside, printed labels at the edges.

Every hex map hxref knows has **flat-topped hexes in vertical columns** (the
columns of a wargame map run top to bottom, and every other column sits half a
hex lower).  Inside hxref a hex is an axial coordinate :class:`Hex` ``(q, r)``;
the third cube coordinate is ``s = -q - r``.  ``q`` is the column; ``r`` runs
down the column, slanting so that the six neighbours are always the same six
vectors.  Screen/map "north" is up.

The labels printed on real maps are only for input and output, through a
label format object:

* :class:`FourDigit` -- ``2114`` = column 21, row 14 (Musket & Sabre, Heartland).
* :class:`AslLabels` -- ``J14``, ``AA15``, ``GG1``, with an optional board
  prefix: ``StJ14``, ``ChLL7``, ``LgI20`` (ASL, Kampfgruppe Peiper).

Both take a ``parity``: which *printed* columns sit half a hex lower than their
neighbours, ``"even"`` or ``"odd"``.  (On ASL boards, and on the KGP maps, the
even-lettered columns B, D, F ... are the low ones: F8 touches G8 and G9.)

A :class:`HexSide` is its own type: the unordered pair of two adjacent hexes,
so ``2114/2115`` and ``2115/2114`` are the same hexside.

:func:`line_steps` draws the hex line between two hex centres in exact integer
arithmetic.  Where the line runs exactly along a hexside, the step holds *both*
hexes on either side of it; the line-of-sight rules then decide (a line along a
hexside is blocked only if both sides block).  Nothing is left to float
rounding.

>>> fmt = FourDigit(parity="even")
>>> a, b = fmt.parse("2114"), fmt.parse("2115")
>>> distance(a, b), fmt.format(a)
(1, '2114')
>>> fmt.parse_hexside("2114/2115") == fmt.parse_hexside("2115/2114")
True
"""
from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Iterator, NamedTuple, Protocol

from ..base.errors import InvalidInput

SQRT3 = math.sqrt(3.0)


# --------------------------------------------------------------------------
# coordinates


class Hex(NamedTuple):
    """One hex in axial coordinates; ``s`` is the third cube coordinate.

    ``+`` and ``-`` are vector addition and subtraction (not tuple joining).
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: "Hex") -> "Hex":  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, k: int) -> "Hex":
        """This vector times ``k``."""
        return Hex(self.q * k, self.r * k)

    def neighbour(self, direction: "Direction | int | str") -> "Hex":
        """The adjacent hex in ``direction`` (a :class:`Direction`, 0-5 or a name like ``"NE"``)."""
        d = Direction.of(direction)
        dq, dr = _VECTORS[d]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple["Hex", ...]:
        """The six adjacent hexes, clockwise from north."""
        q, r = self.q, self.r
        return tuple(Hex(q + dq, r + dr) for dq, dr in _VECTORS)

    def distance(self, other: "Hex") -> int:
        """Hexes between the two, counting the last one (adjacent hexes are 1 apart)."""
        return distance(self, other)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


class Direction(IntEnum):
    """The six hexside directions of a flat-topped hex, clockwise from north."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def vector(self) -> Hex:
        """The step one hex this way, as an axial vector."""
        return Hex(*_VECTORS[self])

    @property
    def opposite(self) -> "Direction":
        """The direction straight back."""
        return Direction((self + 3) % 6)

    @classmethod
    def of(cls, value: "Direction | int | str") -> "Direction":
        """A direction from itself, an index 0-5 or a name (``"ne"`` too)."""
        if isinstance(value, str):
            try:
                return cls[value.strip().upper()]
            except KeyError:
                raise ValueError(f"unknown direction {value!r}; use one of N, NE, SE, S, SW, NW") from None
        return cls(int(value))


#: (dq, dr) per :class:`Direction`, clockwise from north.
_VECTORS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS: tuple[Hex, ...] = tuple(Hex(dq, dr) for dq, dr in _VECTORS)


def distance(a: Hex, b: Hex) -> int:
    """Hex distance (cube metric): the number of steps from ``a`` to ``b``."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def are_adjacent(a: Hex, b: Hex) -> bool:
    """True when the two hexes share a hexside."""
    return distance(a, b) == 1


def direction_to(a: Hex, b: Hex) -> Direction:
    """The direction from ``a`` to the adjacent hex ``b`` (ValueError if not adjacent)."""
    try:
        return Direction(_VECTORS.index((b[0] - a[0], b[1] - a[1])))
    except ValueError:
        raise ValueError(f"{b!r} is not adjacent to {a!r}") from None


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` away, clockwise from the one straight north."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = center + DIRECTIONS[Direction.N].scaled(radius)
    for d in range(6):
        step = DIRECTIONS[(d + 2) % 6]
        for _ in range(radius):
            out.append(h)
            h = h + step
    return out


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` (the center first, then ring by ring)."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


# --------------------------------------------------------------------------
# hexsides


class _Pair(NamedTuple):
    a: Hex
    b: Hex


class HexSide(_Pair):
    """The side shared by two adjacent hexes; the order given does not matter.

    ``HexSide(x, y) == HexSide(y, x)``.  Raises ValueError if the two hexes
    are not adjacent.
    """

    __slots__ = ()

    def __new__(cls, x: Hex, y: Hex) -> "HexSide":
        x, y = Hex(*x), Hex(*y)
        if distance(x, y) != 1:
            raise ValueError(f"{x!r} and {y!r} are not adjacent, so they share no hexside")
        if y < x:
            x, y = y, x
        return super().__new__(cls, x, y)

    @classmethod
    def _adjacent(cls, x: Hex, y: Hex) -> "HexSide":
        """Fast constructor for two hexes already known to be adjacent (no check)."""
        return tuple.__new__(cls, (x, y) if x < y else (y, x))

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes, in axial order."""
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex on the far side from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h!r} is not on hexside {self!r}")

    def direction_from(self, h: Hex) -> Direction:
        """Which side of ``h`` this is."""
        return direction_to(h, self.other(h))

    def __repr__(self) -> str:
        return f"HexSide({self.a!r}, {self.b!r})"


def hexsides_of(h: Hex) -> list[HexSide]:
    """The six hexsides of ``h``, clockwise from north."""
    return [HexSide(h, n) for n in h.neighbours()]


# --------------------------------------------------------------------------
# lines


def _round_scaled(x: int, y: int, z: int, den: int) -> tuple[int, int]:
    """Cube-round the point (x/den, y/den, z/den); exact integer arithmetic."""
    rx = (2 * x + den) // (2 * den)
    ry = (2 * y + den) // (2 * den)
    rz = (2 * z + den) // (2 * den)
    dx = abs(rx * den - x)
    dy = abs(ry * den - y)
    dz = abs(rz * den - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return rx, ry


#: Infinitesimal nudge (scaled by 1/(8n)); not parallel to any hexside.
_NUDGE = (1, 2, -3)


def line_steps(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The hex line from ``a`` to ``b``: ``distance + 1`` steps, one per sample point.

    Each step is a 1-tuple (the line is inside that hex there) or a 2-tuple
    (the line runs exactly along the hexside between those two hexes; the
    first is the hex on the "plus-nudge" side).  The sample points are the
    ``n + 1`` points at ``i/n`` of the way from centre to centre; they never
    fall on a vertex, only on hexsides, and the tie is detected exactly.
    """
    n = distance(a, b)
    if n == 0:
        return [(a,)]
    ax, ay, az = a[0], a[1], -a[0] - a[1]
    bx, by, bz = b[0], b[1], -b[0] - b[1]
    den = 8 * n
    ex, ey, ez = _NUDGE
    out: list[tuple[Hex, ...]] = [(a,)]
    for i in range(1, n):
        j = n - i
        x = 8 * (ax * j + bx * i)
        y = 8 * (ay * j + by * i)
        z = 8 * (az * j + bz * i)
        p = _round_scaled(x + ex, y + ey, z + ez, den)
        m = _round_scaled(x - ex, y - ey, z - ez, den)
        out.append((Hex(*p),) if p == m else (Hex(*p), Hex(*m)))
    out.append((b,))
    return out


def hex_line(a: Hex, b: Hex, side: int = 0) -> list[Hex]:
    """One hex per step of :func:`line_steps`; along a hexside take ``side`` (0 or 1)."""
    return [s[0] if len(s) == 1 else s[side] for s in line_steps(a, b)]


# --------------------------------------------------------------------------
# drawing


def hex_to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of ``h`` on a picture where ``size`` is the centre-to-corner distance (y down)."""
    return size * 1.5 * h[0], size * SQRT3 * (h[1] + h[0] / 2.0)


def hex_corners(h: Hex, size: float) -> list[tuple[float, float]]:
    """The six corners of ``h`` (east corner first, then clockwise on screen)."""
    cx, cy = hex_to_pixel(h, size)
    return [
        (cx + size * math.cos(math.radians(60 * k)), cy + size * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


def hexside_ends(side: HexSide, size: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corner points at the ends of a hexside, on the same picture as :func:`hex_to_pixel`."""
    d = side.direction_from(side.a)
    corners = hex_corners(side.a, size)
    return corners[(d + 4) % 6], corners[(d + 5) % 6]


# --------------------------------------------------------------------------
# printed labels


class LabelFormat(Protocol):
    """How a map prints hex numbers.  ``parse`` and ``format`` are inverses."""

    parity: str

    def parse(self, label: str) -> Hex: ...

    def format(self, h: Hex) -> str: ...


class _OffsetLabels(ABC):
    """Shared part of the label formats: printed column/row <-> axial."""

    parity: str = "even"
    name = "offset"

    def _check_parity(self) -> None:
        if self.parity not in ("even", "odd"):
            raise ValueError(f"parity must be 'even' or 'odd' (the printed columns that sit lower), not {self.parity!r}")

    def to_hex(self, col: int, row: int) -> Hex:
        """The hex printed at column ``col``, row ``row``."""
        if self.parity == "even":
            return Hex(col, row - (col + (col & 1)) // 2)
        return Hex(col, row - (col - (col & 1)) // 2)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """Printed (column, row) of ``h``."""
        col = h[0]
        if self.parity == "even":
            return col, h[1] + (col + (col & 1)) // 2
        return col, h[1] + (col - (col & 1)) // 2

    def is_low(self, col: int) -> bool:
        """True when printed column ``col`` sits half a hex lower."""
        return (col % 2 == 0) == (self.parity == "even")

    @abstractmethod
    def parse(self, label: str) -> Hex:
        """The hex a printed label names (each format reads its own labels)."""

    @abstractmethod
    def format(self, h: Hex) -> str:
        """The printed label of ``h``."""

    # hexsides: "2114/2115", "2114-2115", "StG9-F8"
    def parse_hexside(self, text: str) -> HexSide:
        """A hexside written as two labels joined by ``/`` or ``-`` (in either order)."""
        raw = str(text).strip()
        parts = re.split(r"\s*[/-]\s*", raw)
        if len(parts) != 2 or not all(parts):
            raise InvalidInput(
                f"{raw!r} is not a hexside; write two adjacent hexes joined by '/', like {self.example_hexside()!r}"
            )
        x = self.parse(parts[0])
        y = self._parse_second(parts[0], parts[1])
        if distance(x, y) != 1:
            raise InvalidInput(f"{raw!r} is not a hexside: {parts[0]} and {parts[1]} are not adjacent")
        return HexSide(x, y)

    def _parse_second(self, first: str, second: str) -> Hex:
        return self.parse(second)

    def format_hexside(self, side: HexSide) -> str:
        """``a/b`` with the two labels in map order (column, then row)."""
        x, y = sorted(side.hexes, key=self.to_offset)
        return f"{self.format(x)}/{self.format(y)}"

    def example(self) -> str:
        return self.format(self.to_hex(2, 3))

    def example_hexside(self) -> str:
        return self.format_hexside(HexSide(self.to_hex(2, 3), self.to_hex(2, 4)))


@dataclass(frozen=True)
class FourDigit(_OffsetLabels):
    """Column-row numbers, two digits each: ``2114`` is column 21, row 14.

    ``parity`` names the printed columns that sit half a hex lower.  YAML
    reads an unquoted ``0305`` as the number 305; integers are accepted and
    zero-padded.
    """

    parity: str = "even"
    col_digits: int = 2
    row_digits: int = 2
    name = "four-digit"

    def __post_init__(self) -> None:
        self._check_parity()

    def parse(self, label: str | int) -> Hex:
        """The hex printed as ``label``; InvalidInput quoting the label if it is not one."""
        width = self.col_digits + self.row_digits
        text = f"{label:0{width}d}" if isinstance(label, int) and not isinstance(label, bool) and label >= 0 else str(label).strip()
        if len(text) != width or not text.isascii() or not text.isdigit():
            raise InvalidInput(
                f"{str(label)!r} is not a hex number; this map writes hexes as {width} digits, "
                f"column then row, like {self.example()!r}"
            )
        return self.to_hex(int(text[: self.col_digits]), int(text[self.col_digits :]))

    def format(self, h: Hex) -> str:
        """The printed label of ``h``."""
        col, row = self.to_offset(h)
        if not (0 <= col < 10**self.col_digits and 0 <= row < 10**self.row_digits):
            raise ValueError(f"{h!r} (column {col}, row {row}) has no {self.name} label")
        return f"{col:0{self.col_digits}d}{row:0{self.row_digits}d}"


_ASL = re.compile(r"([A-Za-z]+)(\d+)")


def column_letters(col: int) -> str:
    """ASL column letters: 1 -> A ... 26 -> Z, 27 -> AA ... 33 -> GG, 53 -> AAA."""
    if col < 1:
        raise ValueError(f"column {col} has no letters")
    return chr(ord("A") + (col - 1) % 26) * ((col - 1) // 26 + 1)


def column_number(letters: str) -> int:
    """Inverse of :func:`column_letters` (ValueError for mixed letters like ``AB``)."""
    if not letters or not letters.isascii() or not letters.isalpha() or not letters.isupper() or len(set(letters)) != 1:
        raise ValueError(letters)
    return (len(letters) - 1) * 26 + ord(letters[0]) - ord("A") + 1


@dataclass(frozen=True)
class AslLabels(_OffsetLabels):
    """ASL hex labels: column letters then row number, ``J14``, ``AA15``, ``GG1``.

    ``board_prefix`` (``St``, ``Ch``, ``Lg`` on the KGP maps) is written in
    front: ``StJ14``.  A label without the prefix is accepted; one with a
    different prefix is not.  The row may be 0 (the half hexes at a board
    edge).  By default the even-lettered columns (B, D, ...) are the low ones.
    """

    board_prefix: str = ""
    parity: str = "even"
    name = "asl"

    def __post_init__(self) -> None:
        self._check_parity()

    def parse(self, label: str) -> Hex:
        """The hex printed as ``label``; InvalidInput quoting the label if it is not one."""
        text = str(label).strip()
        rest = text
        if self.board_prefix and text.startswith(self.board_prefix):
            rest = text[len(self.board_prefix) :]
        m = _ASL.fullmatch(rest)
        if m is None:
            raise InvalidInput(f"{text!r} is not a hex label; write column letters then the row, like {self.example()!r}")
        letters, digits = m.groups()
        board = re.fullmatch(r"([A-Za-z]*[a-z])([A-Z]+)", letters)
        if board is not None:  # a prefix this map does not use, like "ChJ14" on a St map
            mine = f"board {self.board_prefix!r}" if self.board_prefix else "no board prefix"
            raise InvalidInput(f"{text!r} is on board {board.group(1)!r}; this map has {mine}")
        try:
            col = column_number(letters)
        except ValueError:
            hint = " (column letters are capitals)" if letters.isalpha() and not letters.isupper() else ""
            raise InvalidInput(
                f"{text!r} is not a hex label: {letters!r} is not a column{hint}; "
                f"columns are A..Z then AA, BB, ..., like {self.example()!r}"
            ) from None
        return self.to_hex(col, int(digits))

    def format(self, h: Hex) -> str:
        """The printed label of ``h``, with the board prefix."""
        col, row = self.to_offset(h)
        if col < 1 or row < 0:
            raise ValueError(f"{h!r} (column {col}, row {row}) has no ASL label")
        return f"{self.board_prefix}{column_letters(col)}{row}"

    def format_short(self, h: Hex) -> str:
        """The label without the board prefix (for small pictures)."""
        col, row = self.to_offset(h)
        return f"{column_letters(col)}{row}"

    def _parse_second(self, first: str, second: str) -> Hex:
        return self.parse(second)

    def format_hexside(self, side: HexSide) -> str:
        """``StG9-F8``: the prefix once, the labels joined by ``-`` as KGP prints them."""
        x, y = sorted(side.hexes, key=self.to_offset)
        return f"{self.format(x)}-{self.format_short(y)}"


def label_format(name: str, parity: str = "even", board_prefix: str = "") -> FourDigit | AslLabels:
    """A label format by its map-file name: ``four-digit`` or ``asl``."""
    if name == "four-digit":
        if board_prefix:
            raise ValueError("four-digit labels take no board prefix")
        return FourDigit(parity=parity)
    if name == "asl":
        return AslLabels(board_prefix=board_prefix, parity=parity)
    raise ValueError(f"unknown label format {name!r}; use 'four-digit' or 'asl'")


# --------------------------------------------------------------------------
# the printed rectangle


@dataclass(frozen=True)
class HexGrid:
    """The hexes a map prints: a label format and the first/last printed column and row."""

    labels: FourDigit | AslLabels
    columns: tuple[int, int]
    rows: tuple[int, int]

    def contains(self, h: Hex) -> bool:
        """True when ``h`` is printed on the map."""
        col, row = self.labels.to_offset(h)
        return self.columns[0] <= col <= self.columns[1] and self.rows[0] <= row <= self.rows[1]

    __contains__ = contains

    def hexes(self) -> Iterator[Hex]:
        """Every hex on the map, column by column, top to bottom."""
        to_hex = self.labels.to_hex
        for col in range(self.columns[0], self.columns[1] + 1):
            for row in range(self.rows[0], self.rows[1] + 1):
                yield to_hex(col, row)

    def __len__(self) -> int:
        return (self.columns[1] - self.columns[0] + 1) * (self.rows[1] - self.rows[0] + 1)

    def parse(self, label: str) -> Hex:
        """The hex printed as ``label``; InvalidInput if the label is bad or off the map."""
        h = self.labels.parse(label)
        if not self.contains(h):
            raise InvalidInput(
                f"{str(label)!r} is not on this map; its hexes run from "
                f"{self.labels.format(self.labels.to_hex(self.columns[0], self.rows[0]))} to "
                f"{self.labels.format(self.labels.to_hex(self.columns[1], self.rows[1]))}"
            )
        return h

    def parse_hexside(self, text: str) -> HexSide:
        """A hexside with both hexes on the map."""
        side = self.labels.parse_hexside(text)
        for h in side.hexes:
            if not self.contains(h):
                raise InvalidInput(f"{text!r}: hex {self.labels.format(h)} is not on this map")
        return side

    def label(self, h: Hex) -> str:
        """The printed label of ``h``."""
        return self.labels.format(h)

    def side_label(self, side: HexSide) -> str:
        """The printed form of a hexside."""
        return self.labels.format_hexside(side)

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes that are on the map."""
        return [n for n in h.neighbours() if self.contains(n)]


def labels_of(hexes: Iterable[Hex], fmt: LabelFormat) -> list[str]:
    """Printed labels for several hexes (handy in messages and tests)."""
    return [fmt.format(h) for h in hexes]
