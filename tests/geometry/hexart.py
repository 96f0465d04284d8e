"""Small ASCII-art hex maps for the geometry tests.

A map is written one printed row per text line, one character per printed
column (columns 1, 2, 3 ... left to right, rows 1, 2, ... top to bottom)::

    . . w .      <- row 1: 0101 clear, 0201 clear, 0301 woods, 0401 clear
    . ~ w X      <- row 2

and read with the four-digit labels (parity ``even`` unless told), so the
tests can name hexes as ``"0302"``.  Characters mean what the test says they
mean (a cost table).
"""
from __future__ import annotations

from hxref.geometry.hex import FourDigit, Hex, HexGrid


def parse_art(art: str, parity: str = "even") -> tuple[HexGrid, dict[Hex, str]]:
    """The grid and each hex's character."""
    rows = [line.split() for line in art.strip("\n").splitlines() if line.strip()]
    fmt = FourDigit(parity=parity)
    grid = HexGrid(fmt, (1, len(rows[0])), (1, len(rows)))
    cells = {}
    for r, row in enumerate(rows, start=1):
        assert len(row) == len(rows[0]), "ragged art"
        for c, ch in enumerate(row, start=1):
            cells[fmt.to_hex(c, r)] = ch
    return grid, cells


def cost_from(cells: dict[Hex, str], table: dict[str, float | None]):
    """A step cost: the cost of the character entered (None = prohibited, or off the art)."""

    def step(a: Hex, b: Hex):
        ch = cells.get(b)
        return None if ch is None else table[ch]

    return step
