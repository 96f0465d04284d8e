"""The declared-secret paths of hxref.kit.secret_kinds, on a small state."""
from __future__ import annotations

import pytest

from hxref.kit.secret_kinds import SecretKindError, values

STATE = {
    "units": {"u1": {"side": "union", "name": "1st Ohio"}, "c1": {"side": "confederate", "name": "Hood"}},
    "logistics": {"s1": {"side": "union", "leader": "grant"}, "s2": {"side": "union", "leader": None}},
    "purchases": {"union": [{"name": "Sherman", "cpp": 3}], "confederate": []},
    "sealed": {"union": [{"id": "obj-1", "opened": False}, {"id": "obj-2", "opened": True}]},
    "wep": {"union": 5},
}


@pytest.mark.parametrize("kind, want", [
    ("units/&[side={side}]", {"u1"}),
    ("units/*[side={side}]/name", {"1st Ohio"}),
    ("logistics/&[side={side}][leader]", {"s1"}),
    ("purchases/{side}/*/name", {"Sherman"}),
    ("sealed/{side}/*[!opened]/id", {"obj-1"}),
    ("purchases/{side}", {"Sherman"}),          # every text leaf under what the path reaches
    ("wep/{side}", set()),                       # numbers are never searched
    ("nothing/here", set()),
])
def test_paths(kind, want):
    assert values(STATE, "union", (kind,)) == want


def unseen(state, side):
    """A rules function: the side's units (as if none were in the enemy's sight)."""
    return [uid for uid, u in state["units"].items() if u["side"] == side]


def test_a_rules_function_decides():
    assert values(STATE, "confederate", ("tests.conformance.test_secret_kinds:unseen",)) == {"c1"}
    assert values(STATE, "union", (".test_secret_kinds:unseen",), "tests.conformance") == {"u1"}


@pytest.mark.parametrize("kind", ["units/&/name", "units/[x]", "no.such.module:fn"])
def test_a_bad_kind_says_so(kind):
    with pytest.raises(SecretKindError):
        values(STATE, "union", (kind,))
