"""kit.views: views by allow-list, as the systems build them (Heartland's fog of war 3.71, KGP's
sealed purchases 8.14)."""
from __future__ import annotations

from hxref.kit.views import OMIT, AllowList, own_part, picked, sides_own

STATE = {
    "turn": 3,
    "map": "demo",
    "wep": {"union": 12, "confederate": 7},
    "leaders": {"grant": {"side": "union", "ar": 4}, "lee": {"side": "confederate", "ar": 5}},
    "plans": {"union": ["attack at dawn"]},
    "secret_added_later": {"union": "x", "confederate": "y"},
}
ALLOW = AllowList(("turn", "map"), ("wep",), {"leaders": lambda s, side: sides_own(s["leaders"], side),
                                              "plans": lambda s, side: OMIT if side is None else own_part(s["plans"], side)})


def test_each_audience_sees_the_public_fields_and_its_own_part():
    assert ALLOW.view(STATE, "union") == {"turn": 3, "map": "demo", "wep": {"union": 12},
                                          "leaders": {"grant": {"side": "union", "ar": 4}},
                                          "plans": {"union": ["attack at dawn"]}}
    assert ALLOW.view(STATE, "confederate")["wep"] == {"confederate": 7}
    assert ALLOW.view(STATE, "confederate")["plans"] == {}


def test_the_public_sees_no_sides_part_and_an_omitted_field_not_at_all():
    v = ALLOW.view(STATE, None)
    assert v["wep"] == {} and v["leaders"] == {} and "plans" not in v


def test_a_field_named_nowhere_reaches_no_audience():
    for side in ("union", "confederate", None):
        assert "secret_added_later" not in ALLOW.view(STATE, side)
    assert ALLOW.unnamed(STATE) == {"secret_added_later"}


def test_a_view_is_a_copy():
    v = ALLOW.view(STATE, "union")
    v["leaders"]["grant"]["ar"] = 0
    v["wep"]["union"] = 0
    assert STATE["leaders"]["grant"]["ar"] == 4 and STATE["wep"]["union"] == 12
    p = picked(STATE, ("leaders",))
    p["leaders"]["lee"]["ar"] = 0
    assert STATE["leaders"]["lee"]["ar"] == 5


def test_records_that_are_not_mappings_give_nothing():
    assert own_part(None, "union") == {} and sides_own([1, 2], "union") == {}
    assert sides_own({"a": 3, "b": {"side": "union"}}, "union") == {"b": {"side": "union"}}
