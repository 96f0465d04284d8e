"""Map pictures of played games: the terminal map fits its width and is centred on the side's forces,
every unit has its own symbol and legend line, and the SVG counters show what the side's view tells
of each unit -- its own units' strength and steps, an enemy's only what the view gives.

The games are the shipped demos, replayed (tests/conformance/harness.py)."""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from hxref.cli.map import map_group
from hxref.referee.engine import Engine, map_view
from hxref.base.errors import HxrefError
from hxref.geometry.mapfile import load_map
from hxref.base.paths import games_dir
from hxref.report.mapsvg import place_units, plural, render_svg
from hxref.report.mapterm import hex_window, render_terminal, unit_codes
from tests.conformance.harness import replay_demo

SVG = "{http://www.w3.org/2000/svg}"


class _Games(dict):
    """The demo games of the systems with maps, each replayed to its end on first use: system -> game
    file.  A demo that no longer replays (its rules changed since it was signed; the demos are rebuilt
    with tools/make_demo_orders.py) skips the tests that need it, saying so."""

    def __init__(self, factory) -> None:
        super().__init__()
        self.factory = factory

    def __missing__(self, system: str):
        from hxref.base.errors import HxrefError

        work = self.factory.mktemp(system)
        try:
            for _ in replay_demo(system, work):
                pass
        except HxrefError as exc:
            pytest.skip(f"the {system} demo no longer replays: {exc.render()}")
        self[system] = work / "game.yaml"
        return self[system]


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    return _Games(tmp_path_factory)


def lines_of(renderable, width: int = 300) -> list[str]:
    console = Console(width=width, record=True, color_system=None, force_terminal=False, file=open(os.devnull, "w"))
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_heartland_demo_map_fits_80_columns_centred_on_the_sides_forces(games):
    mv = map_view(str(games["heartland"]), "union")
    m = mv.load()
    assert cell_len("x" * 5 * (m.grid.columns[1] - m.grid.columns[0] + 1)) > 80      # the whole map does not fit
    out = lines_of(render_terminal(m, mv.units, max_width=80))
    assert max(cell_len(line) for line in out) <= 80
    placed = place_units(m, mv.units)
    own = [m.grid.labels.to_offset(u.in_hex())[0] for u in placed if u.viewer]
    assert own, "the union view marks its own units"
    w = hex_window(m, placed, 80, None, None)
    assert w.partial and w.cols[1] - w.cols[0] + 1 == 16
    middle = round(sum(own) / len(own))
    assert abs((w.cols[0] + w.cols[1]) / 2 - middle) <= 1 or w.cols[0] == m.grid.columns[0] or w.cols[1] == m.grid.columns[1]
    for u in placed:                                     # every union stack is in the window
        if u.viewer:
            col, row = m.grid.labels.to_offset(u.in_hex())
            assert w.cols[0] <= col <= w.cols[1] and w.rows[0] <= row <= w.rows[1]
    assert any(line.startswith("part of the map:") for line in out)


def test_around_moves_the_window(games):
    mv = map_view(str(games["heartland"]), "union")
    m = mv.load()
    placed = place_units(m, mv.units)
    here = hex_window(m, placed, 80, None, None)
    there = hex_window(m, placed, 80, None, "2810")
    assert there.cols != here.cols and there.cols[0] <= 28 <= there.cols[1]
    res = CliRunner().invoke(map_group, ["show", str(games["heartland"]), "--side", "union", "--width", "80",
                                         "--around", "2810"])
    assert res.exit_code == 0, res.output
    assert max(cell_len(line) for line in res.output.splitlines()) <= 80
    assert "2810" in res.output and "0101" not in res.output
    bad = CliRunner().invoke(map_group, ["show", str(games["heartland"]), "--around", "9999"])
    assert isinstance(bad.exception, HxrefError) and bad.exception.code == "E504"
    assert "--around 9999: '9999' is not on this map" in bad.exception.render()


def test_window_with_a_height_keeps_to_it(games):
    mv = map_view(str(games["heartland"]), "union")
    m = mv.load()
    w = hex_window(m, place_units(m, mv.units), 80, 21, None)
    assert w.rows[1] - w.rows[0] + 1 == 10


def test_every_unit_has_its_own_symbol_and_a_legend_line(games):
    for system, side in (("heartland", "union"), ("heartland", "confederate"), ("salem-church", "union")):
        mv = map_view(str(games[system]), side)
        m = mv.load()
        placed = place_units(m, mv.units)
        codes = unit_codes(m, placed)
        assert len(set(codes.values())) == len(placed)
        out = lines_of(render_terminal(m, mv.units, max_width=300))
        head = next(i for i, line in enumerate(out) if line.startswith("sym  unit"))
        legend = out[head + 1:]
        for u in placed:
            assert sum(1 for line in legend if line.split()[:1] == [codes[u.id]]) == 1, (system, u.id)


def test_symbols_tell_apart_names_that_begin_alike():
    m = load_map(games_dir() / "heartland" / "maps" / "demo.yaml")
    units = [{"id": "a", "side": "union", "label": "Dunning", "hex": "1404"},
             {"id": "b", "side": "confederate", "label": "Duvall", "hex": "1614"},
             {"id": "c", "side": "union", "label": "Pruett", "hex": "1510"},
             {"id": "d", "side": "confederate", "label": "Pegues", "hex": "1610"}]
    codes = unit_codes(m, place_units(m, units))
    assert len(set(codes.values())) == 4 and codes["a"][0] == codes["b"][0] == "D"


def _counters(svg: str) -> dict[str, tuple[str, list[str]]]:
    """Each counter of a hex map: its side and the text lines under its name."""
    root = ET.fromstring(svg)
    return {g.get("data-id"): (g.get("data-side"), [t.text or "" for t in g.findall(f"{SVG}text[@class='detail']")])
            for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}


def _union_map(path: str):
    """The union's view of the game in ``path``, its map view, and the counters of its SVG."""
    eng = Engine.load(path)
    mv = map_view(path, "union")
    return eng.system.view(eng.state, "union", eng.mode), mv, _counters(render_svg(mv.load(), mv.units))


def test_counters_show_own_strength_and_only_the_views_enemy_detail(games):
    path = str(games["heartland"])
    view, mv, counters = _union_map(path)
    own = {k: v for k, v in counters.items() if v[0] == "union"}
    enemy = {k: v for k, v in counters.items() if v[0] == "confederate"}
    assert own and enemy
    assert any(t.startswith("CF ") for _, lines in own.values() for t in lines)
    assert any(re.fullmatch(r"\d+ steps?", t) for _, lines in own.values() for t in lines)
    for uid, (_, lines) in enemy.items():
        entry = view["seen"]["confederate"][uid.split("@")[1]]
        top = entry["top"]
        allowed = {top.get("ratings", ""), "active" if top.get("active") else "inactive",
                   f"stack of {1 + entry['under']}", top.get("kind", "")}
        assert set(lines) <= allowed, (uid, lines)
        assert not any(t.startswith("CF ") or "step" in t for t in lines)
    # the confederates' own map shows their strength; none of it reaches the union's
    theirs = _counters(render_svg(mv.load(), map_view(path, "confederate").units))
    hidden = {(k, t) for k, (side, lines) in theirs.items() if side == "confederate" for t in lines
              if t.startswith("CF ") or "step" in t}
    assert hidden, "the confederate view shows its own strength"
    assert not hidden & {(k, t) for k, (_, lines) in enemy.items() for t in lines}


def test_salem_enemy_counters_come_from_the_view(games):
    path = str(games["salem-church"])
    view, mv, counters = _union_map(path)
    for uid, (side, lines) in counters.items():
        assert uid in view["units"]
        u = view["units"][uid]
        if "cf" not in u:
            assert not any(t.startswith("CF ") for t in lines)
        if u.get("type") in ("leader", "wagon_train"):     # no CF, no steps to lose: "CF 0 / 1 step" misled
            assert lines[0] in ("wagons", "leader") or re.fullmatch(r"leader [+-]\d", lines[0]), lines
            assert not any("step" in t or t.startswith("CF ") for t in lines)
        elif u.get("steps") is not None:
            assert plural(int(u["steps"]), "step") in lines or len(lines) == 2


def test_a_ford_is_drawn_above_the_labels_and_under_the_counters_and_place_names():
    # a ford is drawn over the hex labels, the counters over it (a bar across a hexside must not cut a
    # counter's name), and the place names last, so that no counter covers them
    m = load_map(games_dir() / "heartland" / "maps" / "demo.yaml")
    fords = [s for s, info in m.sides.items() if any("ford" in f for f in info.features)]
    assert fords
    svg = render_svg(m)
    labels = svg.index('<g id="labels"')
    places = svg.index('<g id="places"')
    ford = svg.index('data-type="ford"')
    assert labels < ford < svg.index('<g id="units"') < places


def test_salem_hills_are_shaded_hexes():
    m = load_map(games_dir() / "salem_church" / "maps" / "salem-church.yaml")
    hills = [h for h in m.hexes() if "hill" in m.features(h)]
    root = ET.fromstring(render_svg(m))
    ground = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "ground"]
    assert len(ground) == len(hills) > 0
    for p in ground:
        assert len(p.get("points").split()) == 6 and p.get("fill") and float(p.get("fill-opacity")) > 0
    assert not any("Hill" in (r.findtext(f"{SVG}title") or "") for r in root.iter(f"{SVG}rect"))


def test_hits_carried_are_drawn_on_the_base_in_good_english():
    m = load_map(games_dir() / "acw_minis" / "maps" / "sample-table.yaml")
    units = [{"id": "a", "side": "union", "x": 20, "y": 20, "facing": 0, "frontage": 5, "label": "1st Minn", "hits": 1},
             {"id": "b", "side": "confederate", "x": 40, "y": 30, "facing": 180, "frontage": 5, "label": "4th Ala", "hits": 2},
             {"id": "c", "side": "confederate", "x": 50, "y": 10, "facing": 180, "frontage": 5, "label": "5th Ala", "hits": 0}]
    root = ET.fromstring(render_svg(m, units))
    details = {g.get("data-id"): [t.text for t in g.findall(f"{SVG}text[@class='detail']")]
               for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    assert details == {"a": ["1 hit"], "b": ["2 hits"], "c": ["0 hits"]}


def test_acw_demo_shots_say_hit_and_hits(games):
    mv = map_view(str(games["acw-minis"]), "union")
    labels = [s["label"] for s in mv.shots if s.get("label")]
    assert labels and not any(re.match(r"1 hits\b", t) for t in labels)
    assert all(re.match(r"(1 hit|\d+ hits) ", t) for t in labels)
