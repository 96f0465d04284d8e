"""The map a side reads with its turn: the terminal map's unit codes in their own hexes, the marks
each system draws from a played turn's events, the PNG the mail carries, and what fog hides."""
from __future__ import annotations

import os

from rich.console import Console

from hxref.maps import load_map
from hxref.paths import games_dir
from hxref.report.mapterm import render_terminal


def as_text(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None, force_terminal=False, file=open(os.devnull, "w"))
    console.print(renderable)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


HEARTLAND = [
    {"id": "dunning", "side": "union", "label": "Dunning", "kind": "leader", "hex": "1006"},
    {"id": "calloway", "side": "confederate", "label": "Calloway", "kind": "leader", "hex": "2010", "viewer": True},
    {"id": "duvall", "side": "confederate", "label": "Duvall", "kind": "leader", "hex": "1913", "viewer": True},
]


def test_a_unit_code_is_drawn_in_its_own_hex_not_beside_the_next_columns_label():
    # the review's case: Dunning at 1006 read as "0907 .+Dn", Calloway at 2010 as "1911 .tCa"
    m = load_map(games_dir() / "heartland" / "maps" / "demo.yaml")
    text = as_text(render_terminal(m, HEARTLAND, max_width=160), 160)
    assert "0907 .+Dn" not in text and "1911 .tCa" not in text
    lines = text.splitlines()
    for code, label in (("Dn", "1006"), ("Ca", "2010"), ("Du", "1913")):
        row = next(i for i, ln in enumerate(lines) if code + label[2:] in ln)
        col = lines[row].index(code + label[2:])
        header = lines[1]               # the column numbers, above the hexes
        assert header[col:col + 4].strip() == label[:2], (code, header[col:col + 4])


def test_the_unit_legend_says_which_units_are_outside_the_window():
    m = load_map(games_dir() / "heartland" / "maps" / "demo.yaml")
    text = as_text(render_terminal(m, HEARTLAND, max_width=80, around="2010"))
    assert "part of the map" in text
    legend = text[text.index("where"):]
    assert "Dunning" not in legend.split("outside")[0]
    assert "outside this window: Dn Dunning (1006)" in " ".join(text.split())
