"""What a game system's package imports, read with :mod:`ast`: the rules read their charts and map
only from the :class:`~hxref.kit.charts.Charts` they are bound to, never from a context
(:mod:`hxref.kit.data`, :mod:`hxref.kit.pins`) nor by reading a map file themselves."""
from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

#: the modules that ask a context for the game's files: the rules never import them
CONTEXT = ("hxref.kit.data", "hxref.kit.pins")


def imported(source: str, module: str) -> list[tuple[str, int]]:
    """Every name ``module``'s ``source`` imports, in full (``hxref.kit.data``,
    ``hxref.geometry.mapfile.load_map``), with its line; relative imports resolved."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = module.rsplit(".", node.level)[0] if node.level else ""
            mod = ".".join(p for p in (base, node.module or "") if p)
            out += [(mod, node.lineno)] + [(f"{mod}.{a.name}", node.lineno) for a in node.names]
    return out


def modules(package: ModuleType) -> list[tuple[Path, str]]:
    """The package's modules: (file, dotted name)."""
    folder = Path(str(package.__file__)).parent
    return [(p, f"{package.__name__}.{p.stem}") for p in sorted(folder.glob("*.py"))]


def context_imports(source: str, module: str) -> list[str]:
    """Where ``source`` imports a module that reads a context."""
    return [f"{name} (line {line})" for name, line in imported(source, module)
            if any(name == c or name.startswith(c + ".") for c in CONTEXT)]


def map_file_reads(source: str, module: str) -> list[str]:
    """Where ``source`` reads a map file itself (:func:`hxref.geometry.mapfile.load_map`)."""
    named = [f"import of {name} (line {line})" for name, line in imported(source, module)
             if name.endswith(".load_map") and "mapfile" in name]
    called = [f"mapfile.load_map (line {n.lineno})" for n in ast.walk(ast.parse(source))
              if isinstance(n, ast.Attribute) and n.attr == "load_map"]
    return named + called


def context_readers(package: ModuleType) -> dict[str, list[str]]:
    """The package's modules that import a context reader, with where."""
    return {p.name: bad for p, m in modules(package) if (bad := context_imports(p.read_text(encoding="utf-8"), m))}


def map_readers(package: ModuleType) -> dict[str, list[str]]:
    """The package's modules, but its ``cli.py`` (a command reading a map file the user names), that
    read a map file themselves, with where."""
    return {p.name: bad for p, m in modules(package) if p.name != "cli.py"
            and (bad := map_file_reads(p.read_text(encoding="utf-8"), m))}
