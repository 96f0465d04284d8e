"""Code-quality figures for a checkout of hxref, so "before" and "after" can be compared.

    python tools/measure_code.py                 # this checkout
    python tools/measure_code.py /tmp/before     # an extracted older commit
    python tools/measure_code.py --json out.json # the figures as JSON too

It prints module sizes, radon cyclomatic complexity, mypy and ruff counts, the import cycles
between hxref modules and the number of work-item references left in comments. It needs radon,
mypy and ruff in the environment (the `test` extras install mypy and ruff; `pip install radon`).

mypy and ruff run with the project's configuration switched off (`--config-file=` and
`--isolated`), so the figures count the whole package by the tools' defaults and do not shrink
when the gate's configuration leaves a module out.  Then mypy runs once more with the gate's
options (pyproject.toml [tool.mypy]) to count the errors of each module the gate does not check
yet, so the list of those can shrink as they come clean.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import subprocess
import sys
import tempfile
import tokenize
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

LIMIT = 800          # the style guide's upper bound for a module, in lines
CLASSIC = "E4,E7,E9,F"

#: how work items (not game rules) are named in this repository's text: the word issue, task, ticket
#: or PR followed by a number, or a number after a hash sign
WORK_ITEM = re.compile(r"\b(?:issue|task|ticket|PR)\s*#?\s*\d+|(?<![\w&#])#\d+\b", re.IGNORECASE)


def modules(root: Path) -> list[Path]:
    return sorted(p for p in (root / "hxref").rglob("*.py") if "__pycache__" not in p.parts)


def rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


# --- sizes ---------------------------------------------------------------------------------------

def sizes(root: Path) -> dict:
    lines = {rel(root, p): len(p.read_text(encoding="utf-8").splitlines()) for p in modules(root)}
    over = sorted(((n, f) for f, n in lines.items() if n > LIMIT), reverse=True)
    return {"modules": len(lines), "lines": sum(lines.values()),
            "over_limit": [{"module": f, "lines": n} for n, f in over]}


# --- radon ---------------------------------------------------------------------------------------

def complexity(root: Path, worst: int = 15) -> dict:
    from radon.complexity import cc_rank, cc_visit

    funcs = []
    for p in modules(root):
        for block in cc_visit(p.read_text(encoding="utf-8")):
            if type(block).__name__ == "Class":
                continue
            name = f"{block.classname}.{block.name}" if block.classname else block.name
            funcs.append({"where": f"{rel(root, p)}:{block.lineno}", "name": name,
                          "cc": block.complexity, "lines": block.endline - block.lineno + 1,
                          "rank": cc_rank(block.complexity)})
    funcs.sort(key=lambda f: (-f["cc"], f["where"]))
    ranks = Counter(f["rank"] for f in funcs)
    return {"functions": len(funcs), "ranks": dict(sorted(ranks.items())),
            "rank_F": ranks.get("F", 0), "cc_over_25": sum(f["cc"] > 25 for f in funcs),
            "worst": funcs[:worst]}


# --- mypy ----------------------------------------------------------------------------------------

def area(module: str) -> str:
    """The part of the package a file belongs to: core, geometry, report, kit, or the system's name."""
    parts = module.split("/")
    if len(parts) == 2:
        return "core"
    if parts[1] == "systems":
        return f"systems/{parts[2]}" if len(parts) > 3 else "systems (shared)"
    return parts[1]


def mypy_counts(root: Path) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "hxref", "--ignore-missing-imports", "--config-file=",
             "--cache-dir", cache, "--no-error-summary", "--hide-error-context"],
            cwd=root, capture_output=True, text=True)
    errors = [ln for ln in run.stdout.splitlines() if ": error:" in ln]
    per_area = Counter(area(ln.split(":", 1)[0]) for ln in errors)
    per_file = Counter(ln.split(":", 1)[0] for ln in errors)
    codes = Counter(m.group(1) for ln in errors if (m := re.search(r"\[([\w-]+)\]$", ln)))
    return {"errors": len(errors), "files": len(per_file), "per_area": dict(per_area.most_common()),
            "per_file": dict(per_file.most_common()), "codes": dict(codes.most_common(8))}


def _matches(module: str, pattern: str) -> bool:
    return module == pattern or (pattern.endswith(".*") and (module + ".").startswith(pattern[:-1]))


def gate_status(root: Path) -> dict:
    """The errors of each module the gate leaves out (pyproject's ``ignore_errors`` overrides),
    counted with the gate's own options: a module with none can come off the list."""
    config = root / "pyproject.toml"
    mypy_conf = tomllib.loads(config.read_text(encoding="utf-8")).get("tool", {}).get("mypy") if config.is_file() else None
    if not mypy_conf:
        return {}
    flags = [f"--{k.replace('_', '-')}" for k, v in mypy_conf.items() if v is True]
    left_out = [p for o in mypy_conf.get("overrides", []) if o.get("ignore_errors")
                for p in ([o["module"]] if isinstance(o["module"], str) else o["module"])]
    put_back = [p for o in mypy_conf.get("overrides", []) if o.get("ignore_errors") is False
                for p in ([o["module"]] if isinstance(o["module"], str) else o["module"])]
    with tempfile.TemporaryDirectory() as cache:
        run = subprocess.run([sys.executable, "-m", "mypy", "hxref", "--config-file=", "--cache-dir", cache,
                              "--no-error-summary", "--hide-error-context", *flags],
                             cwd=root, capture_output=True, text=True)
    per_module: Counter = Counter()
    for ln in run.stdout.splitlines():
        if ": error:" in ln:
            per_module[module_name(root, root / ln.split(":", 1)[0])] += 1
    out: dict[str, int] = {}
    for p in modules(root):
        name = module_name(root, p)
        if any(_matches(name, pat) for pat in left_out) and not any(_matches(name, pat) for pat in put_back):
            out[name] = per_module.get(name, 0)
    gated = {m: n for m, n in per_module.items() if m not in out}
    return {"flags": flags, "not yet gated": out, "errors in gated modules": gated}


# --- ruff ----------------------------------------------------------------------------------------

def ruff_count(root: Path, paths: list[str], select: str | None) -> dict:
    cmd = [sys.executable, "-m", "ruff", "check", "--isolated", "--output-format", "json", *paths]
    if select:
        cmd[5:5] = ["--select", select]
    run = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    found = json.loads(run.stdout or "[]")
    return {"findings": len(found), "top": dict(Counter(f["code"] for f in found).most_common(6))}


def ruff_counts(root: Path) -> dict:
    tests = ["tests"] if (root / "tests").is_dir() else []
    return {"classic hxref": ruff_count(root, ["hxref"], CLASSIC),
            "classic hxref+tests": ruff_count(root, ["hxref", *tests], CLASSIC),
            "default hxref": ruff_count(root, ["hxref"], None),
            "default hxref+tests": ruff_count(root, ["hxref", *tests], None)}


# --- import cycles -------------------------------------------------------------------------------

def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import statement a module runs, function-level ones too, with whether it is at the top
    of the module; those under ``if TYPE_CHECKING:`` (either branch) are read only by the type checker."""
    todo: list[tuple[ast.AST, bool]] = [(n, True) for n in tree.body]
    while todo:
        node, top = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, top
        elif not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            todo.extend((child, False) for child in ast.iter_child_nodes(node)
                        if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)))


def import_graph(root: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Two graphs of hxref modules: every runtime import (function-level too), and top-level only."""
    paths = {module_name(root, p): p for p in modules(root)}
    known = set(paths)
    every: dict[str, set[str]] = {m: set() for m in known}
    top: dict[str, set[str]] = {m: set() for m in known}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, at_top in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = ".".join(x for x in (base if node.level else "", node.module or "") if x)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            hits = {t for t in targets if t in known and t != name}
            every[name] |= hits
            if at_top:
                top[name] |= hits
    return every, top


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def import_cycles(root: Path) -> dict:
    every, top = import_graph(root)
    return {"all imports": cycles(every), "top-level imports": cycles(top)}


# --- work-item references ------------------------------------------------------------------------

def work_items(root: Path, folder: str = "hxref") -> dict:
    """References to work items in comments and docstrings (the house style names rules, not issues)."""
    hits: list[str] = []
    for p in sorted((root / folder).rglob("*.py")):
        source = p.read_text(encoding="utf-8")
        texts: list[tuple[int, str]] = []
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                texts.append((tok.start[0], tok.string))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc and node.body:
                    texts.append((node.body[0].lineno, doc))
        for line, text in texts:
            hits += [f"{rel(root, p)}:{line}: {m.group(0)}" for m in WORK_ITEM.finditer(text)]
    return {"count": len(hits), "hits": hits}


# --- report --------------------------------------------------------------------------------------

def measure(root: Path, slow: bool = True) -> dict:
    figures = {"sizes": sizes(root), "complexity": complexity(root),
               "import cycles": import_cycles(root),
               "work items": {f: work_items(root, f) for f in ("hxref", "tests", "tools")
                              if (root / f).is_dir()}}
    if slow:
        figures["ruff"] = ruff_counts(root)
        figures["mypy"] = mypy_counts(root)
        figures["gate"] = gate_status(root)
    return figures


def show(figures: dict) -> None:
    s = figures["sizes"]
    print(f"modules: {s['modules']}, {s['lines']} lines; over {LIMIT} lines: {len(s['over_limit'])}")
    for m in s["over_limit"]:
        print(f"  {m['lines']:5}  {m['module']}")
    c = figures["complexity"]
    print(f"\nfunctions: {c['functions']}; ranks {c['ranks']}; F: {c['rank_F']}; CC > 25: {c['cc_over_25']}")
    for f in c["worst"]:
        print(f"  {f['cc']:3} {f['lines']:4} lines  {f['where']} {f['name']}")
    if "mypy" in figures:
        m = figures["mypy"]
        print(f"\nmypy (defaults, --ignore-missing-imports): {m['errors']} errors in {m['files']} files")
        for a, n in m["per_area"].items():
            print(f"  {n:4}  {a}")
        print(f"  codes: {m['codes']}")
    if figures.get("gate"):
        g = figures["gate"]
        print(f"\nmypy gate ({' '.join(g['flags'])}): errors in gated modules: {sum(g['errors in gated modules'].values())}")
        for m, n in g["errors in gated modules"].items():
            print(f"  {n:4}  {m}")
        groups: dict[str, list[int]] = {}
        for m, n in g["not yet gated"].items():
            group = ".".join(m.split(".")[:3]) if m.startswith("hxref.systems.") else m
            groups.setdefault(group, []).append(n)
        print(f"  not yet gated: {len(g['not yet gated'])} modules, {sum(g['not yet gated'].values())} errors")
        for group, counts in groups.items():
            clean = sum(n == 0 for n in counts)
            print(f"  {sum(counts):4}  {group}" + (f"  ({clean} of {len(counts)} modules pass)" if len(counts) > 1 else ""))
    if "ruff" in figures:
        print("\nruff (--isolated):")
        for k, r in figures["ruff"].items():
            print(f"  {k:22} {r['findings']:4}  {r['top']}")
    for kind, found in figures["import cycles"].items():
        print(f"\nimport cycles, {kind}: {len(found)}")
        for comp in found:
            print(f"  ({len(comp)}) " + ", ".join(comp))
    print("\nwork-item references in comments and docstrings:")
    for folder, w in figures["work items"].items():
        print(f"  {folder}: {w['count']}")
        for h in w["hits"][:40] if folder == "hxref" else []:
            print(f"    {h}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--fast", action="store_true", help="skip mypy and ruff")
    args = parser.parse_args(argv)
    figures = measure(args.root.resolve(), slow=not args.fast)
    show(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
