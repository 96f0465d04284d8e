"""KGP's rules read their data only from the charts they are given (hxref.kit.charts.Charts).

* the package imports nothing of the pinned-data context (``hxref.kit.data``, ``hxref.kit.pins``),
  and reads no map file itself but in the command line's calculators, whose user names the file;
* the system bound to a game's files (``SYSTEM.bind(charts)``) plays with them, not with today's:
  a campaign file and a chart, pinned with other numbers than the data folder's, are the ones the
  rules read; and a game made before the data folder changed goes on with the files it pinned.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hxref.systems.kgp
from hxref.base import paths
from hxref.base.canon import sha256_hex
from hxref.kit.charts import Charts
from hxref.kit.data import Source
from hxref.referee.engine import Engine
from hxref.systems.kgp.purchase import ob_objective_ids
from hxref.systems.kgp.system import SYSTEM

PACKAGE = Path(hxref.systems.kgp.__file__).parent
#: the modules a system reads its pinned files through no longer
CONTEXT = ("hxref.kit.data", "hxref.kit.pins")
US_CPP = "cpp: 24               # 8.52 US Initial OB: 24 CPP"


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, and every name it imports from one, as dotted names."""
    here = ["hxref", "systems", "kgp"]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else str(node.module)
            found |= {base} | {f"{base}.{a.name}" for a in node.names}
    return found


def test_no_module_of_the_package_imports_the_pinned_data_context():
    bad = {p.name: sorted(m for m in _imports(p) if m.startswith(CONTEXT)) for p in sorted(PACKAGE.glob("*.py"))}
    assert {k: v for k, v in bad.items() if v} == {}
    assert "hxref.kit.charts.Charts" in _imports(PACKAGE / "flow.py")       # the walk sees relative imports


def test_no_module_but_the_command_line_reads_a_map_file():
    def names(path: Path) -> set[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} \
            | {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} \
            | {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}

    readers = sorted(p.name for p in PACKAGE.glob("*.py") if "load_map" in names(p))
    assert readers == ["cli.py"]


def _pinned(rel: str, text: str) -> Source:
    """``text`` as a game's pinned copy of the data file ``rel``."""
    return Source("kgp", rel, f"games/kgp/{rel} (pinned)", sha256_hex(text.encode("utf-8")), True, text)


def _today(rel: str) -> str:
    return (paths.games_dir() / "kgp" / rel).read_text(encoding="utf-8")


def test_the_bound_system_sets_up_from_its_campaign_file_not_todays():
    rel = "campaigns/cg-ii.yaml"
    text = _today(rel)
    assert US_CPP in text
    bound = SYSTEM.bind(Charts("kgp", {rel: _pinned(rel, text.replace(US_CPP, "cpp: 30"))}))
    scenario = SYSTEM.load_scenario("cg-ii")
    assert bound.setup(scenario)["cpp"]["us"] == 30
    assert SYSTEM.setup(scenario)["cpp"]["us"] == 24


def _g1_costs(text: str, cpp: int) -> str:
    """The RG chart with the US G1's cost ``cpp`` (4 CPP today)."""
    german, us = text.split("\nus:\n", 1)
    head, tail = us.split("  - id: G1\n", 1)
    assert "    cpp: 4\n" in tail.split("  - id:", 1)[0]
    return german + "\nus:\n" + head + "  - id: G1\n" + tail.replace("    cpp: 4\n", f"    cpp: {cpp}\n", 1)


def _setup_choice(charts: Charts) -> dict:
    seals = [{"id": i, "kind": "objective_hex", "commitment": "1" * 64} for i in ob_objective_ids(charts, "cg-ii", "us")]
    return {"purchase": ["G1"], "seal": seals}


def test_the_bound_system_checks_a_purchase_on_its_rg_chart_not_todays():
    rel = "charts/rg.yaml"
    bound = SYSTEM.bind(Charts("kgp", {rel: _pinned(rel, _g1_costs(_today(rel), 40))}))
    state = SYSTEM.setup(SYSTEM.load_scenario("cg-ii"))
    dec = SYSTEM.decisions(state)[0]
    assert SYSTEM.check(state, dec, "us", _setup_choice(SYSTEM.charts)) == []
    found = bound.check(state, dec, "us", _setup_choice(bound.charts))
    assert [p.message for p in found] == ["the RGs cost 40 CPP; US have 24 (the initial CPP of the Initial Scenario)"]


@pytest.fixture
def games(games_copy, monkeypatch) -> Path:
    """A copy of games/ the data folders point to (tests/conftest.py), and a fixed game nonce."""
    monkeypatch.setattr("hxref.referee.engine.random_hex", lambda n=32: "4b" * n)
    return games_copy


def test_a_game_goes_on_with_the_rg_chart_it_pinned(games, tmp_path):
    path = tmp_path / "cg.yaml"
    Engine.create(path, system="kgp", scenario="cg-ii", mode="solo", sides={"us": None, "german": None},
                  game_id="kgp-pinned").save()
    chart = games / "kgp" / "charts" / "rg.yaml"
    chart.write_text(_g1_costs(chart.read_text(encoding="utf-8"), 40), encoding="utf-8")
    eng = Engine.load(path)
    dec = eng.awaiting[0]
    today = SYSTEM.check(eng.state, dec, "us", _setup_choice(SYSTEM.charts))
    assert [p.message for p in today] == ["the RGs cost 40 CPP; US have 24 (the initial CPP of the Initial Scenario)"]
    eng.answer_solo("us", dec.id, _setup_choice(eng.system.charts))        # the game's chart: G1 costs 4
    assert eng.system.charts.source("charts/rg.yaml").pinned
