"""The shape of a Salem Church player turn's orders (:mod:`hxref.kit.schema`), declared once.

:mod:`hxref.referee.orders` checks every answer against it before :func:`.orders_check.check_orders` is asked:
an unknown key, a value of the wrong type or out of its choices is refused there, at its line of
the order file, with the rule it comes from (D3 the moves, B1 the attacks, B2 the combat
answers, 7.2 the counter-attacks, 13.2/13.3 the replacements).
"""
from __future__ import annotations

from ..base import Field

_ANY = Field("any", optional=True)
#: a unit named in a list: its id
_UNIT = Field("str", "a unit id")
#: B2: the hexes of a retreat
_HEXES = Field("int", "1, 2 or 3", choices=(1, 2, 3), optional=True, nullable=True, rule="B2")

MOVE = Field("dict", "{unit, path: [hexes entered], leader?}", rule="D3", fields={
    "unit": Field("str", "one of your units"),
    "path": Field("list", "the hexes entered", optional=True, nullable=True),
    "leader": _ANY})

ATTACK = Field("dict", "{attackers: [units], target: HEX, first?, losses?, advance?}", rule="B1", fields={
    "attackers": Field("list", "the attacking units", items=_UNIT),
    "target": Field("any", "the hex attacked"),
    "first": _ANY, "advance": _ANY,
    "losses": Field("list", "the attacking units, first to lose a step", optional=True, nullable=True, rule="B2",
                    items=_UNIT),
    "choice": Field("str", choices=("retreat", "disrupt", "loss"), optional=True, nullable=True, rule="B2"),
    "hexes": _HEXES})

#: artillery fire at range (stand-in: the standard rules' bombardment, :mod:`.bombardment`)
BOMBARD = Field("dict", "{unit: your artillery, target: HEX}", rule="bombardment", fields={
    "unit": Field("str", "one of your artillery units"),
    "target": Field("any", "the enemy hex bombarded")})

STANDING = Field("dict", "answers during the enemy's turn: {choice: retreat|disrupt, loss: loss|retreat, hexes: 1-3, "
                         "losses: [units], counter_attacks: [...]}", optional=True, rule="B2", fields={
    "choice": Field("str", "Ar/Dr", choices=("retreat", "disrupt"), optional=True, nullable=True),
    "loss": Field("str", "Ax/Dx passed", choices=("loss", "retreat"), optional=True, nullable=True),
    "hexes": _HEXES,
    "losses": Field("list", optional=True, nullable=True, items=_UNIT),
    "counter_attacks": Field("list", optional=True, nullable=True, rule="7.2", items=Field("dict", fields={
        "units": Field("list", "your units", items=_UNIT), "target": Field("any", "the hex"), "first": _ANY}))})


def orders_schema(side: str) -> dict[str, Field]:
    """The schema of ``side``'s orders for its player turn."""
    replacement = "13.2" if side == "union" else "13.3"
    return {"moves": Field("list", "{unit, path: [hexes entered], leader?} in the order they move", items=MOVE),
            "entry": Field("str", "the hex this turn's arrivals enter by (13.3)", optional=True),
            "replacements": Field("list", "at most 2: {unit, hex?} (13.2, 13.3)", optional=True, rule=replacement,
                                  items=Field("dict", "{unit, hex?}", fields={"unit": Field("str"), "hex": _ANY})),
            "bombard": Field("list", "{unit, target: HEX}: artillery fire, before the attacks (stand-in)",
                             optional=True, items=BOMBARD),
            "attacks": Field("list", "{attackers: [units], target: HEX, first?, losses?, advance?} (B1)", optional=True,
                             items=ATTACK),
            "standing": STANDING}
