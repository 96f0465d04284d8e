"""Map pictures: golden SVG and terminal output for a small hex map and a small table.

Regenerate the golden files with ``HXREF_REGEN_GOLDEN=1 pytest tests/geometry``
and look at the SVGs (convert to PNG with rsvg-convert) before committing them.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from hxref.base.errors import InvalidInput
from hxref.geometry.mapfile import load_map
from hxref.report.mapsvg import render_svg, side_colours
from hxref.report.mapterm import render_terminal

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
ROOT = HERE.parents[1]

HEX_UNITS = [
    {"id": "u1", "side": "union", "label": "1/Sheridan", "kind": "infantry", "hex": "0402"},
    {"id": "u2", "side": "union", "label": "2/Wood", "kind": "infantry", "hex": "0402"},
    {"id": "c1", "side": "confederate", "label": "Cleburne", "kind": "division", "hex": "0202"},
]
TABLE_UNITS = [
    {"id": "a", "side": "union", "label": "1st Minn", "kind": "infantry", "x": 12, "y": 4, "facing": 0, "frontage": 6, "depth": 1},
    {"id": "b", "side": "csa", "label": "Battery", "kind": "artillery", "x": 19, "y": 10.5, "facing": 225, "frontage": 2, "depth": 1},
]


def as_text(renderable) -> str:
    console = Console(width=100, record=True, color_system=None, force_terminal=False, file=open(os.devnull, "w"))
    console.print(renderable)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("HXREF_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; look at it, then regenerate with HXREF_REGEN_GOLDEN=1"


@pytest.mark.parametrize(
    "map_name, units, stem",
    [("small.yaml", HEX_UNITS, "small"), ("small-table.yaml", TABLE_UNITS, "small-table")],
)
def test_golden_pictures(map_name, units, stem):
    m = load_map(HERE / "maps" / map_name)
    svg = render_svg(m, units)
    ET.fromstring(svg)  # well-formed
    golden(f"{stem}.svg", svg)
    golden(f"{stem}.txt", as_text(render_terminal(m, units)))


def test_svg_has_every_part():
    m = load_map(HERE / "maps" / "small.yaml")
    root = ET.fromstring(render_svg(m, HEX_UNITS, title="Union view"))
    ns = {"s": "http://www.w3.org/2000/svg"}
    groups = {g.get("id") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id")}
    assert {"hexes", "lines", "hexsides", "features", "labels", "places", "units", "legend"} <= groups
    assert len(root.findall(".//s:g[@id='hexes']/s:g/s:use", ns)) == 20      # one hex drawn, used for each
    assert [u.get("data-id") for u in root.findall(".//s:g[@class='unit']", ns)] == ["c1", "u1", "u2"]
    assert root.find("s:title", ns).text == "Union view"


def test_a_sides_view_shows_only_its_units():
    m = load_map(HERE / "maps" / "small.yaml")
    union_only = [u for u in HEX_UNITS if u["side"] == "union"]
    svg = render_svg(m, union_only)
    assert "Cleburne" not in svg and "1/Sheridan" in svg
    assert "Cleburne" not in as_text(render_terminal(m, union_only))


def test_units_off_the_map_are_refused():
    m = load_map(HERE / "maps" / "small.yaml")
    with pytest.raises(InvalidInput, match="unit x9: '0909' is not on this map"):
        render_svg(m, [{"id": "x9", "side": "union", "hex": "0909"}])
    t = load_map(HERE / "maps" / "small-table.yaml")
    with pytest.raises(InvalidInput, match="unit a needs x and y"):
        render_terminal(t, [{"id": "a", "side": "union", "hex": "0101"}])


def test_side_colours_are_stable():
    assert side_colours([{"side": "union"}, {"side": "csa"}, {"side": "red"}, {"side": "blue"}]) == {
        "blue": "#b03a2e", "csa": "#7a7a7a", "red": "#1f6f8b", "union": "#2f4f9f"}


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*/maps/*.yaml")), ids=lambda p: p.name)
def test_shipped_maps_draw(path):
    m = load_map(path)
    ET.fromstring(render_svg(m))
    assert m.title in as_text(render_terminal(m))


def test_table_picture_draws_the_last_shots_field_of_fire_and_line():
    # the table picture shows each of the last shots: the shooter's field of fire and the line to
    # its target
    from hxref.report.mapsvg import render_svg

    from hxref.base.paths import games_dir

    m = load_map(games_dir() / "acw_minis" / "maps" / "sample-table.yaml")
    units = [{"id": "a", "side": "union", "x": 20, "y": 20, "facing": 0, "frontage": 5, "label": "1st Minn"},
             {"id": "b", "side": "confederate", "x": 24, "y": 29, "facing": 180, "frontage": 5, "label": "4th Ala"}]
    svg = render_svg(m, units, "t", shots=[{"from": "a", "to": "b", "range": 12, "arc": 45, "label": "4 hits"}])
    shots = svg[svg.index('<g id="shots"'):svg.index('<g id="units"')]
    assert 'field of fire, 12" range' in shots and "<line" in shots and ">4 hits<" in shots
    assert render_svg(m, units, "t").count('id="shots"') == 0


def test_golden_turn_marks_and_fog():
    # a turn drawn on the small map: a move (the reader's, solid) and an enemy move (dashed), an attack
    # with its result, a retreat, an eliminated unit and a fallen leader; two hexes out of sight
    from hxref.kit.protocol import MapMark

    m = load_map(HERE / "maps" / "small.yaml")
    marks = [MapMark("move", ("0104", "0103", "0202"), "confederate", "Cleburne"),
             MapMark("move", ("0502", "0402"), "union", "2/Wood"),
             MapMark("attack", ("0202", "0402"), "confederate", "attack on 0402"),
             MapMark("result", ("0402",), "confederate", "A-0 D-1, D retreats"),
             MapMark("retreat", ("0402", "0501"), "union", "1/Sheridan"),
             MapMark("eliminated", ("0302",), "union", "3/Davis"),
             MapMark("killed", ("0402",), None, "Wood")]
    svg = render_svg(m, HEX_UNITS, "turn", marks=marks, fog={"0504", "0404"}, viewer="confederate")
    root = ET.fromstring(svg)
    assert root.find(".//{http://www.w3.org/2000/svg}g[@id='turn']") is not None
    assert svg.count('stroke-dasharray="7 4"') == 1          # the enemy's move only
    golden("small-turn.svg", svg)
    cropped = render_svg(m, HEX_UNITS, "turn", marks=marks, viewer="confederate", focus=["0402"])
    assert 'viewBox="0 0' not in cropped.splitlines()[0]
    golden("small-turn-cropped.svg", cropped)
