"""Print hxref's package graph, as read from the code: which package imports which.

Every import counts, at the top of a module or inside a function, and those read only by the type
checker (``if TYPE_CHECKING:``) too.  A package is a folder under ``hxref/``; each system under
``hxref/systems/`` counts as the one package ``systems``.  ARCHITECTURE.md holds this tool's
output, and a test keeps it the same (tests/core/test_layout.py).

usage: python tools/package_graph.py
"""
from __future__ import annotations

import ast
import functools
import sys
from collections import defaultdict
from pathlib import Path

HXREF = Path(__file__).resolve().parents[1] / "hxref"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(HXREF.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the module at ``path``, read once (the files do not change while the tool runs)."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imports(path: Path) -> set[str]:
    """The absolute names of the hxref modules (or packages) that ``path`` imports."""
    tree = parsed(path)
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "hxref"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] == "hxref":
                out.add(mod)
                out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def package_of(module: str) -> str | None:
    """The package a module belongs to (``referee`` for ``hxref.referee.engine``), None for the
    top of hxref itself."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    candidate = HXREF / parts[1]
    return parts[1] if candidate.is_dir() else None


def graph() -> dict[str, set[str]]:
    """package -> the other packages it imports."""
    out: dict[str, set[str]] = defaultdict(set)
    for path in sorted(HXREF.rglob("*.py")):
        me = package_of(module_name(path))
        if me is None:
            continue
        out[me]
        for name in imports(path):
            other = package_of(name)
            if other is not None and other != me:
                out[me].add(other)
    return dict(out)


def render() -> str:
    """The graph as a Markdown table: each package and the packages it imports, lowest first."""
    g = graph()
    rows = ["| package | imports |", "|---|---|"]
    for name in sorted(g, key=lambda n: (len(reached(g, n)), n)):
        rows.append(f"| `{name}/` | {', '.join(f'`{o}`' for o in sorted(g[name])) or '—'} |")
    return "\n".join(rows) + "\n"


def reached(g: dict[str, set[str]], name: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """Every package ``name`` reaches by imports (cycles stop at the first repeat)."""
    out: set[str] = set()
    for other in g.get(name, ()):
        if other not in seen:
            out |= {other} | reached(g, other, seen | {name})
    return out


if __name__ == "__main__":
    sys.stdout.write(render())
