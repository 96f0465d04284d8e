"""The map a side reads with its turn: the terminal map's unit codes in their own hexes, the marks
each system draws from a played turn's events, the PNG the mail carries, and what fog hides."""
from __future__ import annotations

import os

from rich.console import Console

from hxref.geometry.mapfile import load_map
from hxref.base.paths import games_dir
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


# --- the turn drawn from a played game's events -------------------------------------------------

import re  # noqa: E402
import xml.etree.ElementTree as ET  # noqa: E402

import pytest  # noqa: E402

from hxref.kit.events import shown  # noqa: E402
from hxref.report.mappng import png_size  # noqa: E402
from hxref.report.turnmap import side_map  # noqa: E402
from tests.conformance.harness import replay_demo  # noqa: E402

#: a map's PNG in a mail stays under this many bytes (the whole mail: under 250 KB)
PNG_LIMIT = 150_000


def _played(system: str, work, stop):
    """Replay ``system``'s demo through its real check and resolve until ``stop(marks_by_side)`` holds
    for the marks of one resolution; return the engine there, the event count before that resolution,
    and the marks each side reads of it."""
    n = 0
    for what, _names, eng in replay_demo(system, work):
        if what == "submit":
            n = len(eng.gf.log)
            continue
        marks = {side: _marks(eng, side, n) for side in eng.sides()}
        if stop(marks):
            return eng, n, marks
        n = len(eng.gf.log)
    pytest.fail(f"no resolution of the {system} demo drew what the test looks for")


def _marks(eng, side, since):
    mode = eng.h["meta"]["mode"]
    view = eng.system.view(eng.state, side, mode)
    events = [ev["data"] for ev in eng.gf.log[since:] if ev.get("kind") == "rules" and shown(ev["data"], side, mode)]
    return eng.system.map_marks(events, view, side)


def _kinds(marks):
    return {k.kind for k in marks}


def _check_png(png: bytes, name: str, tmp_path) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = png_size(png)
    assert 300 <= w <= 1100 and 200 <= h <= 1400, (w, h)
    assert len(png) < PNG_LIMIT, f"{name}: {len(png)} bytes"
    (tmp_path / f"{name}.png").write_bytes(png)
    return w, h


def test_heartland_combat_is_drawn_attack_result_and_retreat(tmp_path):
    # t1.i4: Royce attacks Duvall at 1614 from 1514 and retreats to 1513 (10.61d)
    eng, since, marks = _played("heartland", tmp_path, lambda ms: any(k.kind == "retreat" for k in ms["union"]))
    union = marks["union"]
    attack = next(k for k in union if k.kind == "attack")
    result = next(k for k in union if k.kind == "result")
    retreat = next(k for k in union if k.kind == "retreat")
    assert attack.at[-1] == result.at[0] and len(attack.at) >= 2
    assert re.fullmatch(r"A-\d+ D-\d+(, [AD] retreats)?", result.label)
    assert retreat.at[0] != retreat.at[-1] and retreat.side == "union"
    moves = [ev["data"] for ev in eng.gf.log[since:] if ev["data"].get("type") == "move"]
    assert {tuple(ev["path"]) for ev in moves} == {k.at for k in union if k.kind == "move"}
    # the confederate reads the same public combat
    assert [k for k in marks["confederate"] if k.kind in ("attack", "result", "retreat")] == \
        [k for k in union if k.kind in ("attack", "result", "retreat")]
    sm = side_map(eng, "union", since)
    svg = ET.fromstring(sm.svg)
    assert sm.name.startswith("union-t")
    turn = svg.find(".//{http://www.w3.org/2000/svg}g[@id='turn']")
    assert turn is not None and len(turn) >= 3
    assert 'marker-end="url(#head-' in sm.svg and "A-" in sm.svg
    _check_png(sm.png, "heartland-union", tmp_path)


def test_salem_combat_with_fallen_leaders_drawn_for_each_side_as_it_was_told(tmp_path):
    # t3.union: First/1, Second/1 and Art/1 attack Wilcox at 0609; Brooks/1 and McLaws/M fall (17.3)
    eng, since, marks = _played("salem-church", tmp_path,
                                lambda ms: sum(k.kind == "killed" for k in ms["union"]) >= 2)
    union, csa = marks["union"], marks["confederate"]
    attack = next(k for k in union if k.kind == "attack")
    assert attack.at[-1] == "0609" and len(attack.at) >= 3 and attack.side == "union"
    assert any(k.kind == "result" and k.label for k in union)
    killed = {k.label for k in union if k.kind == "killed"}
    assert "Brooks/1" in killed and "McLaws/M" not in killed       # McLaws is out of the union's sight
    assert "McLaws/M" in {k.label for k in csa if k.kind == "killed"}
    sm = side_map(eng, "union", since)
    assert "Brooks/1 killed" in sm.svg
    w, _ = _check_png(sm.png, "salem-union", tmp_path)
    assert w <= 1100
    # the leaders and the wagon train show no CF or steps on their counters
    assert not re.search(r'data-id="[a-z]+-[a-z0-9]+"[^>]*data-side[^<]*<title>[^<]*leader[^<]*CF 0', sm.svg)
    assert "CF 0" not in sm.svg


def test_salem_unseen_hexes_are_shaded_in_line_of_sight_play(tmp_path):
    eng, since, _ = _played("salem-church", tmp_path, lambda ms: any(k.kind == "attack" for k in ms["union"]))
    sm = side_map(eng, "union", since)
    assert 'id="fog"' in sm.svg and "out of sight: what stands there is not shown" in sm.svg
    view = eng.system.view(eng.state, "union", "umpired")
    fog = eng.system.map_view(view).fog
    own = {u["hex"] for u in view["units"].values() if u.get("side") == "union" and u.get("hex")}
    assert fog and not (fog & own)


def test_acw_shots_have_arrowheads_and_only_this_turns_fields_of_fire(tmp_path):
    eng, since, marks = _played("acw-minis", tmp_path, lambda ms: sum(k.kind == "shot" for k in ms["union"]) >= 1)
    shots = [k for k in marks["union"] if k.kind == "shot"]
    assert all(re.fullmatch(r"\d+ hits?", k.label) for k in shots)
    sm = side_map(eng, "union", since)
    part = sm.svg[sm.svg.index('<g id="shots"'):sm.svg.index('<g id="units"')]
    assert part.count('marker-end="url(#shot-head)"') == len({k.at for k in shots})
    assert part.count("field of fire") == len({k.at for k in shots})
    assert 'fill-opacity="0.10"' not in part                         # outlines, not filled wedges
    _check_png(sm.png, "acw-union", tmp_path)


def test_a_sides_marks_name_nothing_the_other_side_keeps_secret(tmp_path):
    # umpired Salem Church with line of sight: at every resolution, what each side's map marks name
    # (units, hexes) holds none of the other side's secrets (the units it does not see, where they are)
    n = checked = leaky = 0
    for what, _names, eng in replay_demo("salem-church", tmp_path):
        if what == "resolve":
            for side in eng.sides():
                other = next(s for s in eng.sides() if s != side)
                secrets = eng.system.secrets(eng.state, other)
                names = {s for s in secrets if not re.search(r"\d{4}", s)}
                hexes = {h for s in secrets for h in re.findall(r"\d{4}", s)}
                for k in _marks(eng, side, n):
                    assert not _names_secret(k, names, hexes), (side, k, hexes)
                    checked += 1
                # the same marks drawn from every event, as the umpire reads them, would name them
                view = eng.system.view(eng.state, side, "umpired")
                told_all = eng.system.map_marks([ev["data"] for ev in eng.gf.log[n:] if ev.get("kind") == "rules"],
                                                view, side)
                leaky += sum(_names_secret(k, names, hexes) for k in told_all)
        n = len(eng.gf.log)
    assert checked > 20
    assert leaky > 0, "the check would catch marks drawn from events the side may not see"


def _names_secret(k, names: set[str], hexes: set[str]) -> bool:
    return k.label in names or any(x in k.label for x in names if len(x) > 3) or bool(set(k.at) & hexes)
