"""The Heartland rules read the game's charts and map only from the charts they are given (a
:class:`hxref.kit.charts.Charts`, or the map and chart tables read from it), never from a context:
read from the package's own imports, as written."""
from __future__ import annotations

import ast
from pathlib import Path

import hxref.systems.heartland as package

PACKAGE = package.__name__
FOLDER = Path(package.__file__).parent
#: the modules through which charts were once read from a context the engine set
CONTEXT = {"hxref.kit.data", "hxref.kit.pins"}
#: the map reader of a file named on the command line; the game's map is read through its charts
MAP_READER = "hxref.geometry.mapfile"


def modules() -> list[tuple[str, ast.Module]]:
    return [(p.name, ast.parse(p.read_text(encoding="utf-8"), str(p))) for p in sorted(FOLDER.glob("*.py"))]


def imported(tree: ast.Module) -> list[tuple[str, str | None]]:
    """Every import of ``tree`` as (module, name): ``from ...kit import data`` is ("hxref.kit", "data"),
    ``import hxref.kit.data`` is ("hxref.kit.data", None); relative imports resolved in the package."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = PACKAGE.split(".")[:len(PACKAGE.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out += [(module, a.name) for a in node.names]
    return out


def test_no_module_imports_the_charts_context():
    found = [(name, module, what) for name, tree in modules() for module, what in imported(tree)
             if module in CONTEXT or f"{module}.{what}" in CONTEXT]
    assert found == []


def test_only_the_command_line_reads_a_map_file():
    found = [(name, module, what) for name, tree in modules() if name != "cli.py"
             for module, what in imported(tree) if module == MAP_READER or f"{module}.{what}" == MAP_READER]
    calls = [(name, node.lineno) for name, tree in modules() if name != "cli.py" for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "load_map"]
    assert found == [] and calls == []


def test_the_reader_finds_what_it_looks_for():
    """The two rules above would pass on a reader that finds nothing: it finds the imports they forbid."""
    tree = ast.parse("from ...kit import data\nfrom ...kit.pins import ACTIVE\nimport hxref.geometry.mapfile\n"
                     "from ...geometry.mapfile import load_map\n")
    assert imported(tree) == [("hxref.kit", "data"), ("hxref.kit.pins", "ACTIVE"), ("hxref.geometry.mapfile", None),
                              ("hxref.geometry.mapfile", "load_map")]
