"""hxref is laid out in packages by role, and the code keeps it so: nothing loose at the top, the
kit a system uses imports nothing of the referee above it, no package imports back up the
graph, and ARCHITECTURE.md draws the graph the code has (``tools/package_graph.py``)."""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HXREF = ROOT / "hxref"

_spec = importlib.util.spec_from_file_location("package_graph", ROOT / "tools" / "package_graph.py")
assert _spec is not None and _spec.loader is not None
graph_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(graph_tool)
_spec = importlib.util.spec_from_file_location("measure_code", ROOT / "tools" / "measure_code.py")
assert _spec is not None and _spec.loader is not None
measure_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measure_tool)

PACKAGES = sorted(p.name for p in HXREF.iterdir() if p.is_dir() and (p / "__init__.py").exists())
#: what each package may import of hxref's other packages: the layers, lowest first
MAY_IMPORT = {
    "base": set(),
    "crypto": {"base"},
    "gamefile": {"base"},
    "geometry": {"base"},
    "kit": {"base", "crypto", "geometry"},
    "referee": {"base", "crypto", "gamefile", "geometry", "kit"},
    "report": {"base", "crypto", "gamefile", "geometry", "kit", "referee"},
    "mail": {"base", "crypto", "gamefile", "geometry", "kit", "referee", "report"},
    "batch": {"base", "crypto", "gamefile", "geometry", "kit", "referee", "report", "mail"},
    "desk": {"base", "crypto", "gamefile", "geometry", "kit", "referee", "report", "mail", "batch"},
    "cli": {"base", "crypto", "gamefile", "geometry", "kit", "referee", "report", "mail", "batch", "desk"},
    "systems": {"base", "crypto", "geometry", "kit"},
}


def _modules(package: str) -> list[Path]:
    return sorted((HXREF / package).rglob("*.py"))


def test_nothing_is_loose_at_the_top_of_hxref():
    assert sorted(p.name for p in HXREF.glob("*.py")) == ["__init__.py"]


def test_every_package_is_one_of_the_layers():
    assert set(PACKAGES) == set(MAY_IMPORT)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_says_what_it_is(package):
    init = HXREF / package / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 8, f"{package}/__init__.py has no docstring saying what the package is"


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_imports_only_the_layers_below_it(package):
    """The kit imports nothing of the referee, the game file or the commands above it; the base
    imports nothing of hxref's; a system's rules import the kit, the geometry, crypto and the base
    only (its own command group, ``systems/<x>/cli.py``, may use the command line's options and a
    report's width, as every command does)."""
    allowed = MAY_IMPORT[package] | {package}
    wrong = []
    for path in _modules(package):
        command_group = package == "systems" and path.name == "cli.py"
        for name in sorted(graph_tool.imports(path)):
            other = graph_tool.package_of(name)
            if other is None or other in allowed or (command_group and other in ("cli", "report")):
                continue
            wrong.append(f"{path.relative_to(HXREF)} imports {name}")
    assert wrong == []


def test_the_package_graph_has_no_cycle():
    g = graph_tool.graph()
    for name in g:
        assert name not in graph_tool.reached(g, name), f"{name} imports itself back through another package"


def test_architecture_draws_the_package_graph_the_code_has():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert graph_tool.render() in text, "ARCHITECTURE.md's package table is stale: python tools/package_graph.py"


def test_no_module_reads_a_context_variable():
    """What a function reads comes in as its arguments: the charts a game plays with are a value
    (hxref.kit.charts), not a context set around the call."""
    users = [p.relative_to(HXREF).as_posix() for p in HXREF.rglob("*.py")
             if "contextvars" in {a.name for n in ast.walk(graph_tool.parsed(p))
                                  if isinstance(n, (ast.Import, ast.ImportFrom))
                                  for a in ([ast.alias(n.module or "")] if isinstance(n, ast.ImportFrom) else n.names)}]
    assert users == []


#: the only modules that import each other when the code runs (imports read only by the type
#: checker do not count), and why: the engine proves a game file it did not write with the audit's
#: replay, which drives the engine (one referee); a system's default charts are the data folder's
#: files, found by the system's name in the registry, whose entries are systems
MODULE_CYCLES = [
    ["hxref.kit.charts", "hxref.kit.data", "hxref.kit.protocol", "hxref.kit.registry"],
    ["hxref.referee.audit", "hxref.referee.engine"],
]


def test_modules_import_each_other_only_where_the_design_says_why():
    """No module calls back into one that calls it, but for :data:`MODULE_CYCLES`: the strongly
    connected groups of the module graph, as ``tools/measure_code.py`` reads it."""
    every, _top = measure_tool.import_graph(ROOT)
    assert measure_tool.cycles(every) == MODULE_CYCLES
