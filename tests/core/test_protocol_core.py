"""The core calls a game system only through the declared protocol (hxref.kit.protocol).

The engine, the game file, the command line, batch, demo, mail, play and the reports never name a
system and never look a system's hook up by name: what they know of a system is its
``SystemInfo`` (its ``info.py``) and the ``GameSystem`` methods, so a new system is its package
and one line of the registry.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.kit import registry
from hxref.kit.protocol import GameSystem, SystemInfo

PACKAGE = Path(__file__).resolve().parents[2] / "hxref"
#: the core: every module of the package but the systems' own (under systems/)
CORE = sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] != "systems")
SYSTEM_NAME = re.compile(r"heartland|salem|kgp|acw", re.I)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (documentation may give an example command; code may not)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _registry_lines(path: Path, tree: ast.AST) -> set[int]:
    """The lines of the registry's REGISTRY table: the one place the core names the systems."""
    if path != PACKAGE / "kit" / "registry.py":
        return set()
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "REGISTRY":
            return set(range(node.lineno, node.end_lineno + 1))
    raise AssertionError("registry.py has no REGISTRY table")


def _code_names(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every name, attribute, import and string literal of the module's code."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip, allowed = _docstrings(tree), _registry_lines(path, tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or getattr(node, "lineno", None) in allowed:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [(node.lineno, a.name) for a in node.names]
            if isinstance(node, ast.ImportFrom) and node.module:
                found.append((node.lineno, node.module))
    return found


def test_the_core_list_is_the_core():
    names = {p.relative_to(PACKAGE).as_posix() for p in CORE}
    assert {"referee/engine.py", "gamefile/game.py", "cli/root.py", "batch/standings.py", "batch/scan.py",
            "cli/demo.py", "mail/outbox.py", "cli/solo.py", "report/turn.py", "kit/registry.py",
            "kit/protocol.py", "geometry/mapfile.py"} <= names
    assert not any(n.startswith("systems/") for n in names)


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_the_core_names_no_system(path):
    named = [f"{path.name}:{line}: {text!r}" for line, text in _code_names(path) if SYSTEM_NAME.search(text)]
    assert named == []


def _hook_lookups(path: Path) -> list[str]:
    """``getattr``/``hasattr`` calls on a system object.  A proxy's ``__getattr__`` that forwards
    whatever attribute its caller asked for (the game's pinned-charts wrapper) looks up no hook."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    forwarded = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "__getattr__"
                 for n in ast.walk(f)}
    return [f"{path.name}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and id(node) not in forwarded
            and node.func.id in ("getattr", "hasattr") and node.args
            and re.search(r"system|sysobj", ast.unparse(node.args[0]), re.I)]


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_the_core_looks_up_no_system_hook_by_name(path):
    assert _hook_lookups(path) == []


def test_the_check_finds_a_system_name_and_a_hook_lookup(tmp_path):
    # the two checks above are not vacuous: they see a system named in code, and not in a docstring
    bad = tmp_path / "bad.py"
    bad.write_text('"""heartland in a docstring is documentation."""\nX = {"kgp": 1}\n'
                   'def f(eng):\n    return getattr(eng.system, "map_view", None)\n')
    assert [t for _, t in _code_names(bad) if SYSTEM_NAME.search(t)] == ["kgp"]
    assert _hook_lookups(bad) == ["bad.py:4: getattr(eng.system, 'map_view', None)"]


@pytest.mark.parametrize("name", registry.names())
def test_each_system_is_its_info(name):
    info, system = registry.info(name), registry.get(name)
    assert isinstance(info, SystemInfo) and isinstance(system, GameSystem)
    assert system.info is info
    assert (system.name, system.title, system.sides) == (info.name, info.title, info.sides) and system.name == name
    assert dict(system.optional_rules) == dict(info.optional_rules)
    assert system.scenarios(), f"{name} ships no scenario"
    assert info.demo is None or (info.orders_path() / info.demo / "demo.yaml").is_file()


def test_the_registry_refuses_a_system_that_is_no_game_system(tmp_path, monkeypatch):
    pkg = tmp_path / "notasystem"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "info.py").write_text("from hxref.kit.protocol import SystemInfo\n"
                                 "INFO = SystemInfo(name='odd', title='Odd', sides=('a', 'b'), data_folder='odd')\n")
    (pkg / "system.py").write_text("class Odd:\n    name = 'odd'\nSYSTEM = Odd()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register("odd", "notasystem")
    try:
        assert registry.info("odd").title == "Odd"
        with pytest.raises(TypeError, match="not a GameSystem"):
            registry.get("odd")
    finally:
        registry.unregister("odd")


def _help(*args: str) -> str:
    res = CliRunner().invoke(main, [*args, "--help"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())          # the help is wrapped: compare without the line breaks


def test_new_help_lists_every_system_its_scenarios_and_options():
    text = _help("new")
    section = text.split("--system TEXT", 1)[1].split("--side", 1)[0]
    for name in registry.names():
        assert name in section
    for name in registry.names():
        for scenario in registry.get(name).scenarios():
            assert scenario.replace("-", "- ") in text or scenario in text, (name, scenario)
        for rule in registry.info(name).optional_rules:
            assert rule in text, (name, rule)


def test_demo_help_lists_every_system_and_its_demo():
    text = _help("demo")
    section = text.split("--system TEXT", 1)[1].split("--keep", 1)[0]
    for name in registry.names():
        assert name in section
    assert f"(default: {registry.default()})" in section
    for info in registry.infos():
        if info.demo:
            assert info.demo in text or info.demo.replace("-", "- ") in text, info.name


def test_system_groups_are_mounted_from_their_info():
    groups = {i.name: i.cli for i in registry.infos() if i.cli}
    assert groups, "no system has a command group"
    listed = _help()
    for name in groups:
        assert f" {name} " in listed
    assert "Calculators" in _help("kgp") or "calculators" in _help("kgp")
    plot = _help("heartland", "plot")
    assert "--force" in plot and "--reveal" in plot and "hxref heartland plot" in plot
    res = CliRunner().invoke(main, ["plot", "--help"])
    assert res.exit_code == 2 and "No such command 'plot'" in res.output
