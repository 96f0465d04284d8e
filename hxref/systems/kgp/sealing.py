"""KGP sealed secrets: what a commitment seals, whether an opening matches it, and the checks
of a list of sealed items (9: secret and simultaneous information).

A side seals a secret (an objective hex, HIP units, dummy minefields...) as
``{id, kind, commitment}`` (``hxref kgp seal``) and later opens it with the value
and the salt; an id names one secret of its side for the whole CG.
"""
from __future__ import annotations

from ... import commit
from ..base import Problem
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState, SealedItem

SEAL_KINDS = ("objective_hex", "hip", "minefield", "dummy_minefields", "reserve", "other")


def seal_choice(item_id: str, kind: str, value) -> dict:
    """What a sealed secret commits to (``hxref kgp seal``)."""
    return {"id": item_id, "kind": kind, "value": value}


def opens(item: SealedItem, value: object, salt: str) -> bool:
    """Does (``value``, ``salt``) open the sealed ``item``?"""
    try:
        return commit.matches(item["commitment"], seal_choice(item["id"], item["kind"], value), salt)
    except ValueError:
        return False


def seal_problems(items: list, where: str = "seal") -> list[Problem]:
    """9: each sealed item's commitment and id (its shape is the decision's schema)."""
    ids = set()
    for i, s in enumerate(items):
        c = s["commitment"]
        if not (len(c) == 64 and all(x in "0123456789abcdef" for x in c)):
            return [Problem("a commitment is 64 lower-case hex digits", "9", [where, i, "commitment"])]
        if s["id"] in ids:
            return [Problem(f"sealed item {s['id']!r} given twice", "9", [where, i, "id"])]
        ids.add(s["id"])
    return []


def seal_id_problems(state: KgpState, side: str, items: list) -> list[Problem]:
    """A sealed item's id names one secret for the whole CG (``reveal`` opens it by id)."""
    used = {x["id"] for x in state["sealed"][side]}
    for i, s in enumerate(items):
        if s["id"] in used:
            return [Problem(f"{SIDE_ADJECTIVES[side]} already sealed a secret called {s['id']!r} on "
                            f"{next(x['date'] for x in state['sealed'][side] if x['id'] == s['id'])}: "
                            "give this one another id", "9", ["seal", i, "id"])]
    return []
