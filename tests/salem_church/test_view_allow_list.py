"""Views are built by allow-list: a state field no rule names is the umpire's alone.  A new,
secret-looking field added to the state appears in no side's view nor in the public one, nor in
any section of their reports; the umpire's view (``view(state, None, "open")``) has it."""
from __future__ import annotations

import json

import pytest

from hxref.kit import registry

SYSTEM_NAME = "salem-church"
SECRET = "XYZZY-123"


def _text(system, view) -> str:
    sections = system.report(view)
    return json.dumps(view, default=str) + "\n".join(
        " ".join([s.title, *s.lines, *s.columns, *(" ".join(r) for r in s.rows)]) for s in sections)


@pytest.mark.parametrize("scenario", ['salem-church'])
def test_a_new_state_field_is_hidden_by_default(scenario):
    system = registry.get(SYSTEM_NAME)
    state = system.setup(system.load_scenario(scenario))
    state["zz_new_secret"] = SECRET
    for audience in (*system.sides, None):
        assert SECRET not in _text(system, system.view(state, audience, "umpired")), audience
    assert system.view(state, None, "open")["zz_new_secret"] == SECRET      # the umpire's view
