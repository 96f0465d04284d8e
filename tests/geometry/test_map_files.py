"""Map files: the shipped maps load and check clean; bad maps name every problem with its line."""
from __future__ import annotations

from pathlib import Path

import pytest

from hxref.base.errors import InvalidInput
from hxref.geometry.hex import HexSide
from hxref.geometry.mapfile import HexMap, TableMap, check_map, is_map_file, load_map

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent / "maps"
SHIPPED = sorted((ROOT / "games").glob("*/maps/*.yaml"))


def test_the_three_sample_maps_are_shipped():
    names = {p.relative_to(ROOT / "games").as_posix() for p in SHIPPED}
    assert {"heartland/maps/sample.yaml", "kgp/maps/sample.yaml", "acw_minis/maps/sample-table.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[p.relative_to(ROOT / "games").as_posix() for p in SHIPPED])
def test_shipped_maps_check_clean(path):
    assert [p.render() for p in check_map(path)] == []
    m = load_map(path)
    assert isinstance(m, (HexMap, TableMap)) and m.system == path.parts[-3]
    assert is_map_file(path)


def test_heartland_sample_contents():
    m = load_map(ROOT / "games/heartland/maps/sample.yaml")
    assert m.stand_in and "original" in m.note
    assert len(m.grid) == 120 and m.grid.label(next(iter(m.grid.hexes()))) == "0101"
    p = m.parse
    assert m.terrain(p("0101")).name == "clear" and m.terrain(p("1201")).name == "mountain"
    assert m.features(p("0303")) == ("town",) and m.place("Riverton") == p("0705")
    bridge = m.grid.parse_hexside("0705/0604")
    assert m.side_features(bridge, effective=False) == ("major_river", "bridge")
    assert m.side_features(bridge) == ("bridge",)  # the bridge replaces the river
    assert m.lines_between(p("0604"), p("0705")) == {"road"}
    assert m.lines_between(p("0609"), p("0709")) == {"rail"}
    assert {ln.type for ln in m.lines} == {"road", "rail"}
    assert {f for s in m.sides.values() for f in s.features} >= {"major_river", "minor_river", "bridge", "ford"}
    with pytest.raises(InvalidInput, match="did you mean 'Riverton'"):
        m.place("Rivertown")


def test_kgp_sample_contents():
    m = load_map(ROOT / "games/kgp/maps/sample.yaml")
    p = m.parse
    assert m.label(p("J14")) == "StJ14"
    assert m.elevation(p("StI11")) == 2 and m.terrain(p("StJ11")).name == "pine_woods"
    slope = m.grid.parse_hexside("StG9-F8")
    assert m.drawn_in(slope) == p("StF8") and m.side_features(slope) == ("slope",)
    assert m.terrain(p("StL10")).height == 1.5


def test_acw_sample_table_contents():
    m = load_map(ROOT / "games/acw_minis/maps/sample-table.yaml")
    t = m.table
    assert (m.width, m.height) == (36, 36)
    assert {a.terrain for a in t.areas} == {"woods", "town", "marsh"}
    assert [c.terrain for c in t.rivers[0].crossings] == ["bridge", "ford"]
    # straight up the Plank Road over the bridge: on the road, and across the river legally
    assert t.on_road([(18, 10), (18, 30)]) and t.river_crossings_ok([(18, 10), (18, 30)])
    assert not t.river_crossings_ok([(30, 20), (30, 28)])
    assert t.terrain_at((9, 12)) == {"town"}
    assert m.type_of("marsh").rules == {"impassable": True}


def lines_of(path):
    return [(p.where.line, p.message) for p in check_map(path)]


def test_bad_map_names_every_problem_with_its_line():
    path = HERE / "bad.yaml"
    got = lines_of(path)
    assert got == [
        (18, "unknown terrain type 'wods'"),
        (20, "hex '0202' is given twice (first at line 19)"),
        (21, "hexes: '0909' is not on this map; its hexes run from 0101 to 0504"),
        (23, "hex 0303 is given twice (first at line 22)"),
        (25, "hexsides: '0101/0103' is not a hexside: 0101 and 0103 are not adjacent"),
        (26, "unknown hexside feature 'rivver'"),
        (29, "road jumps from 0201 to 0401: they are not adjacent"),
    ]
    rendered = [p.render() for p in check_map(path)]
    assert rendered[0] == f"{path}:18: unknown terrain type 'wods'; did you mean 'woods'? [E112]"
    assert all(r.startswith(f"{path}:") for r in rendered)


def test_load_map_raises_the_first_problem(tmp_path):
    with pytest.raises(InvalidInput) as exc:
        load_map(HERE / "bad.yaml")
    assert exc.value.where.file == str(HERE / "bad.yaml") and exc.value.where.line


def test_a_remembered_map_is_the_same_map_and_a_bad_one_still_names_its_line(tmp_path, monkeypatch):
    """load_map keeps the YAML reader's answer under HXREF_HOME (a tenth of a second a map on every
    command); read again, the map is the same, and a map with a problem still names its line."""
    from hxref.base import yamlio

    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "home"))
    path = ROOT / "games/heartland/maps/demo.yaml"
    first = load_map(path)
    assert len(list((tmp_path / "home" / "yaml").glob("*.json"))) == 2          # the map and its terrain file
    reads = []
    import hxref.geometry.mapfile as maps_mod

    monkeypatch.setattr(maps_mod, "remembered_yaml",
                        lambda text, parse, real=yamlio.remembered_yaml: reads.append(real(text, parse)[1])
                        or real(text, parse))
    again = load_map(path)
    assert reads and all(reads)                                                  # both from the memo
    assert again == first and again is not first
    for _ in range(2):                  # the second time its YAML is remembered: the line is still named
        with pytest.raises(InvalidInput) as exc:
            load_map(HERE / "bad.yaml")
        assert exc.value.where.file == str(HERE / "bad.yaml") and exc.value.where.line


def test_bad_table_map():
    assert lines_of(HERE / "bad-table.yaml") == [
        (13, "unknown area terrain 'forest'"),
        (14, "area woods: the polygon crosses itself or has no area"),
        (15, "area woods: point (30, 2) is off the 24 x 12 inch table"),
        (20, "river river: the bridge at (12, 3) is not on the river"),
    ]


def write(tmp_path, text, name="m.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


GRID = """\
map: t
kind: hex
grid: {labels: four-digit, parity: even, columns: [1, 3], rows: [1, 3]}
"""


@pytest.mark.parametrize(
    "body, line, words",
    [
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}}\nhexes: {'0101': {terrain: clear, elevation: high}}\n", 5, "elevation must be a number"),
        ("terrain: {hex: {clear: {colour: red, move: 1}}}\n", 4, 'needs a colour like "#6a9a4a"'),
        ("terrain: {hex: {clear: {colour: '#fff'}}}\n", 4, "needs a move cost"),
        ("terrain: {hex: {clear: {colour: '#fff', move: -1}}}\n", 4, "must be a number >= 0"),
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}}\nroads: []\n", 5, "unknown key 'roads' in a hex map"),
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}, hexside: {slope: {colour: '#000', move: 0, move_out: 1}}}\nhexsides: {'0101/0102': [slope]}\n", 5, "say which hex it is drawn in"),
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}, hexside: {slope: {colour: '#000', move: 0}}}\nhexsides: {'0101/0102': {features: [slope], drawn_in: '0301'}}\n", 5, "is not one of its two hexes"),
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}, lines: {road: {colour: '#000', move: 1}}}\nlines: [{type: road, hexes: ['0101']}]\n", 5, "at least two adjacent hexes"),
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}}\nplaces: {Town: '0909'}\n", 5, "place Town: '0909' is not on this map"),
        ("terrain: {hex: {clear: {colour: '#fff', move: 1}}, hexside: {river: {colour: '#00f', move: 1}}}\nhexsides: {'0101/0102': [river], '0102/0101': [river]}\n", 5, "hexside 0101/0102 is given twice"),
    ],
)
def test_single_problems(tmp_path, body, line, words):
    probs = check_map(write(tmp_path, GRID + body))
    assert any(p.where.line == line and words in p.message for p in probs), [p.render() for p in probs]


def test_missing_and_wrong_kind(tmp_path):
    assert "kind: hex or kind: table" in check_map(write(tmp_path, "map: x\n"))[0].message
    assert "kind must be 'hex' or 'table'" in check_map(write(tmp_path, "map: x\nkind: hexes\n"))[0].message
    assert check_map(write(tmp_path, "- a\n- b\n"))[0].message.startswith("a map file is a mapping")
    assert check_map(tmp_path / "missing.yaml")[0].code == "E100"
    probs = check_map(write(tmp_path, "kind: hex\ngrid: {labels: hexagon, columns: [1, 2], rows: [1, 2]}\nterrain: {hex: {}}\n"))
    assert any("unknown label format 'hexagon'" in p.message and p.where.line == 2 for p in probs)


def test_terrain_file_problems_name_the_terrain_file(tmp_path):
    write(tmp_path, "hex:\n  clear: {colour: '#fff', move: 1, colur: x}\n", "terrain.yaml")
    probs = check_map(write(tmp_path, GRID + "terrain: terrain.yaml\n"))
    assert [(Path(p.where.file).name, p.where.line) for p in probs] == [("terrain.yaml", 2)]
    assert "did you mean 'colour'" in probs[0].render()
    probs = check_map(write(tmp_path, GRID + "terrain: nowhere.yaml\n"))
    assert probs[0].where.line == 4 and "cannot use terrain file 'nowhere.yaml'" in probs[0].message


def test_asl_grid_with_letter_columns(tmp_path):
    text = "map: t\nkind: hex\ngrid: {labels: asl, board: Ch, columns: [A, C], rows: [0, 2]}\nterrain: {hex: {open: {colour: '#eee', move: 1}}}\n"
    probs = check_map(write(tmp_path, text))
    assert [(p.where.line, p.message) for p in probs] == [(3, "unknown terrain type 'clear'")]  # the default terrain
    m = load_map(write(tmp_path, text.replace("rows: [0, 2]}", "rows: [0, 2], terrain: open}")))
    assert [m.label(h) for h in m.hexes()][:4] == ["ChA0", "ChA1", "ChA2", "ChB0"]


def test_data_step_cost_on_a_written_map(tmp_path):
    text = GRID + (
        "terrain:\n"
        "  hex: {clear: {colour: '#fff', move: 1}, woods: {colour: '#0f0', move: {default: 2, cavalry: 3}}}\n"
        "  hexside: {river: {colour: '#00f', move: 2, line_move: 1}, slope: {colour: '#000', move: 0, move_out: 0.5}}\n"
        "  lines: {road: {colour: '#000', move: 0.5}}\n"
        "hexes: {'0102': woods}\n"
        "hexsides: {'0101/0102': [river], '0102/0103': {features: [slope], drawn_in: '0102'}}\n"
        "lines: [{type: road, hexes: ['0102', '0103']}]\n"
    )
    m = load_map(write(tmp_path, text))
    p = m.parse
    cost = m.step_cost()
    assert cost(p("0101"), p("0102")) == 4  # woods 2 + river 2
    assert m.step_cost("cavalry")(p("0101"), p("0102")) == 5
    assert cost(p("0102"), p("0103")) == 1  # along the road 0.5, climbing the slope 0.5
    assert cost(p("0103"), p("0102")) == 0.5  # along the road, down the slope
    assert m.step_cost(lines=[])(p("0102"), p("0103")) == 1.5
    lines_ok = m.step_cost()
    river_on_road = load_map(write(tmp_path, text.replace("hexes: ['0102', '0103']", "hexes: ['0101', '0102', '0103']"), "r.yaml"))
    assert river_on_road.step_cost()(p("0101"), p("0102")) == 1.5  # road 0.5 + river along a road 1 (line_move)
    assert lines_ok(p("0101"), p("0102")) == 4
    off = cost(p("0103"), m.grid.labels.parse("0104"))
    assert "off the map" in off.reason
    assert HexSide(p("0101"), p("0102")) in m.sides
