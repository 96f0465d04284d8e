"""Hex Duel through its case book and the real command line: the rules' cases (movement, zones
of control, the results table, objectives, victory, hidden units) played through the real check and
resolve; `hxref demo` finds its demo through its SystemInfo (root=); the game pins its own table
and reads it through its charts; its declared secret is what the views hide."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.base.canon import sha256_hex
from hxref.base.yamlio import load_data, to_plain
from hxref.cli import main
from hxref.kit import registry
from hxref.kit.charts import Charts
from hxref.kit.data import Source
from hxref.referee.engine import Engine

from tests.cases import book
from tests.conformance.conftest import registered

CASES = Path(__file__).parent / "games" / "cases" / "skirmish.yaml"
_BOOK = [book.Case("hex-duel", CASES, i, data) for i, data in enumerate(to_plain(load_data(CASES))["cases"])]


@pytest.fixture(autouse=True)
def _duel():
    with registered():
        yield


@pytest.mark.parametrize("case", _BOOK, ids=[c.id for c in _BOOK])
def test_case(case: book.Case) -> None:
    book.run(case)


def test_the_case_book_covers_every_rule_area() -> None:
    assert {c.rule for c in _BOOK} >= {"H3", "H4", "H5", "H6", "H7", "H8"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    with registered():
        where = tmp_path_factory.mktemp("hex-duel") / "k"
        res = CliRunner().invoke(main, ["demo", "--system", "hex-duel", "--keep", str(where), "--format", "text"],
                                 catch_exceptions=False)
    return res, where


def test_hxref_demo_plays_the_skirmish_to_its_result(demo):
    res, where = demo
    assert res.exit_code == 0, res.output
    assert "audit OK" in res.output
    eng = Engine.load(where / "game.yaml")
    result = eng.system.result(eng.state)
    assert eng.finished and result is not None and result.how in res.output
    assert any(e["data"].get("type") == "combat" for e in eng.gf.log if e["kind"] == "rules"), "the demo fights no combat"


def test_the_game_pins_its_table_and_reads_it_from_the_game(demo, tmp_path):
    _, where = demo
    eng = Engine.load(where / "game.yaml")
    pinned = eng.gf.log[0]["data"]["charts"]
    assert set(pinned) == {"charts/crt.yaml", "terrain.yaml", "maps/crossing.yaml"}
    rules = eng.system
    assert rules.charts.pinned["charts/crt.yaml"].pinned and rules.table().columns[0] == "1:2"


def test_the_rules_read_the_table_they_are_bound_to():
    system = registry.get("hex-duel")
    text = (system.info.games_path() / "charts" / "crt.yaml").read_text().replace('"1:2", ', '"1:3", ')
    game = Source("hex-duel", "charts/crt.yaml", "game.yaml", sha256_hex(text.encode()), True, text)
    bound = system.bind(Charts("hex-duel", {"charts/crt.yaml": game}))
    assert bound.table().columns[0] == "1:3" and system.table().columns[0] == "1:2"


def test_a_sides_map_shows_its_own_units_by_name_and_the_enemy_as_counters(demo):
    _, where = demo
    res = CliRunner().invoke(main, ["map", "show", str(where / "game.yaml"), "--side", "red"])
    assert res.exit_code == 0, res.output
    assert "what red sees" in res.output and "1st Foot" in res.output
    assert not [name for name in ("Grenadiers", "Fusiliers", "Blue Hussars") if name in res.output]


def test_the_names_are_the_declared_secret_and_only_their_side_reads_them():
    system = registry.get("hex-duel")
    scenario = system.load_scenario("skirmish")
    scenario["table_mode"] = "umpired"
    state = system.setup(scenario)
    assert system.secrets(state, "red") == {"1st Foot", "2nd Foot", "Red Lancers"}
    blue = system.view(state, "blue", "umpired")
    assert set(blue["units"]) == {"b1", "b2", "b3"} and blue["seen"] == []
    assert system.view(state, None, "umpired")["units"] == {}
    assert set(system.view(state, "blue", "open")["units"]) == set(state["units"])


def test_a_side_sees_an_enemy_counter_only_next_to_its_own():
    system = registry.get("hex-duel")
    scenario = system.load_scenario("skirmish")
    scenario["table_mode"] = "umpired"
    state = system.setup(scenario)
    state["units"]["b1"]["hex"] = "0203"           # next to 2nd Foot in 0104
    seen = system.view(state, "red", "umpired")["seen"]
    assert seen == [{"hex": "0203", "side": "blue", "arm": "foot", "strength": 4}]
    picture = system.map_view(system.view(state, "red", "umpired"))
    assert picture is not None and "0203" not in picture.fog and "0803" in picture.fog
