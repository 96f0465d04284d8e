"""Every event a system's rules return is made by the kit's one constructor
(:func:`hxref.kit.events.event`): read with ``ast``, no system's package writes an event as a dict
display (one with a ``"type"`` and a ``"rule"`` key).  Over every registered system and the
systems shipped with the tests; and the constructor's event is stored as the dict it replaced."""
from __future__ import annotations

import ast
from importlib.util import find_spec
from pathlib import Path

import pytest

from hxref.base.canon import canonical_json
from hxref.kit import registry
from hxref.kit.events import event

from tests.conformance.conftest import EXTRA

#: system name -> its package: the registry's and the tests' own
PACKAGES = {**registry.REGISTRY, **EXTRA}


def folder(package: str) -> Path:
    """The folder of ``package``, found without importing its rules."""
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return Path(next(iter(spec.submodule_search_locations)))


def event_displays(source: str) -> list[int]:
    """The lines of ``source`` where a dict display has a ``"type"`` and a ``"rule"`` key: an event
    written by hand."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"type", "rule"} <= keys:
                found.append(node.lineno)
    return sorted(found)


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_a_system_makes_its_events_with_the_kit(name):
    root = folder(PACKAGES[name])
    files = sorted(root.rglob("*.py"))
    assert (root / "system.py") in files
    by_hand = [f"{p.relative_to(root)}:{line}" for p in files for line in event_displays(p.read_text())]
    assert by_hand == [], (f"{name}: events written as dict displays; make them with "
                           f"hxref.kit.events.event: {', '.join(by_hand)}")


def test_the_reader_finds_an_event_written_by_hand():
    assert event_displays('x = 1\nev = {"type": "move", "side": "union",\n      "rule": "8.2", "text": "t"}\n') == [2]
    assert event_displays('ev = {"type": "move", **only("union"), "rule": "8.2"}\n') == [1]
    assert event_displays('ev = event("move", "t", "8.2", side="union")\n') == []
    assert event_displays('step = {"side": "union", "level": 2, "rule": "5.15"}\n') == []


@pytest.mark.parametrize("made, written", [
    (event("move", "Grant moves 0101 > 0102", "8.22", side="union", force="grant", path=["0101", "0102"]),
     {"type": "move", "side": "union", "force": "grant", "path": ["0101", "0102"], "rule": "8.22",
      "text": "Grant moves 0101 > 0102"}),
    (event("move.mp", "Grant: 4 MP rolled", "8.22", side="union", visible_to=["union"], mp=4),
     {"type": "move.mp", "side": "union", "visible_to": ["union"], "mp": 4, "rule": "8.22",
      "text": "Grant: 4 MP rolled"}),
    (event("impulse", None, "5.15", n=1, side="union", level=2),
     {"type": "impulse", "n": 1, "side": "union", "level": 2, "rule": "5.15"}),
    (event("game.end", "the scenario ends after turn 3"),
     {"type": "game.end", "rule": "-", "text": "the scenario ends after turn 3"}),
])
def test_the_constructor_stores_what_the_dict_display_stored(made, written):
    assert made == written
    assert canonical_json(made) == canonical_json(written)
