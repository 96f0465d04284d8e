"""The shapes of an impulse's orders and of a defence (:mod:`hxref.kit.schema`), declared once.

:mod:`hxref.referee.orders` checks every answer against them before the rules are asked
(:func:`.impulse_check.check_orders`, :func:`.impulse.check_defence`): an unknown key, a value of
the wrong type or a missing ``force`` is refused there, at its line of the order file, with the
rule the shape comes from.  The key sets themselves (``ORDER_KEYS``, ``MOVE_KEYS``,
``SPECIAL_ORDERS``, ``COMBAT_KEYS``, ``DEFENCE_KEYS``) stay with the rules that read them.
"""
from __future__ import annotations

from ..base import Field
from .impulse_check import DEFENCE_KEYS, MOVE_KEYS, SPECIAL_ORDERS
from .impulse_combat import COMBAT_KEYS

_ANY = Field("any", optional=True)

#: 10.11: the combat choices, in the orders and in the standing orders
COMBAT = Field("dict", "combat choices: {order: [target hexes], losses: [your units, first to lose], "
                       "artillery: true, extended_battle: false} (10.x)", optional=True, rule="10.11",
               fields={k: _ANY for k in sorted(COMBAT_KEYS)})

#: 8.51: a detachment order
DETACHMENT = Field("dict", "{unit, by: step_loss or removal}", rule="8.51", fields={
    "unit": Field("str", "one of the force's units"),
    "by": Field("str", "how the unit yields its detachments", choices=("step_loss", "removal"))})

#: 8.5: a wagon made a depot where it stands, with a detachment of the side in its hex
DEPOT = Field("dict", "{wagon, detachment}", rule="8.5", fields={
    "wagon": Field("str", "one of your wagons, in a major city or town (7.22)"),
    "detachment": Field("str", "a detachment of yours in the wagon's hex, used up as the depot's garrison")})
DEPOTS = Field("list", "your wagons made depots at the start of the impulse: {wagon, detachment} (8.5, 7.22)",
               optional=True, rule="8.5", items=DEPOT)

#: 8.21: one move of a force (8.2 its path, 8.51 its detachments)
MOVE = Field("dict", "a move: {force, path, ...}", fields={
    **{k: _ANY for k in sorted(MOVE_KEYS)},
    "force": Field("str", "the leader that moves (or unled@HEX, or a wagon or unbridged pontoon alone, 7.21, 8.81)"),
    "path": Field("list", "hex labels in quotes, e.g. [\"0512\", \"0613\"]", optional=True, rule="8.2",
                  items=Field("str", "a hex label in quotes, e.g. \"0512\"")),
    "attack": Field("str", "the hex of the adjacent enemy stack it attacks, in quotes", optional=True, rule="8.4"),
    "merge": Field("str", "another of your forces it takes along", optional=True, rule="8.25a"),
    "detachments": Field("list", optional=True, items=DETACHMENT)})

#: 8.6 (8.81, 8.91, 8.62, 8.92): the special orders' keys that name a counter or a hexside, and the
#: screen's switch; the rules look the names up, so a list or a mapping there is refused by its shape
_SPECIAL_TYPES = {"engineer": Field("str", "one of your engineer units", optional=True),
                  "lay": Field("str", "the pontoon laid", optional=True),
                  "take_up": Field("str", "the pontoon taken up", optional=True),
                  "hexside": Field("str", "a hexside in quotes, e.g. \"1309/1310\"", optional=True),
                  "gunboat": Field("str", "one of your gunboats", optional=True),
                  "to": Field("str", "the hexside it moves to, in quotes, e.g. \"1209/1210\"", optional=True),
                  "who": Field("str", "one of your corps leaders or cavalry units", optional=True),
                  "on": Field("bool", "true to screen, false to stop", optional=True),
                  # 8.92a/b: the Union's naval assault, its embarkation and its landing
                  "embark": Field("dict", "{gunboat, port, units, leaders?, wagon?}", optional=True, rule="8.92", fields={
                      "gunboat": Field("str", "your gunboat"), "port": Field("str", "the port hex, in quotes"),
                      "units": Field("list", "the units embarked", optional=True, items=Field("str", "a unit's id")),
                      "leaders": Field("list", "the leaders embarked", optional=True, items=Field("str", "a leader's id")),
                      "wagon": Field("str", "the wagon embarked", optional=True)}),
                  "assault": Field("dict", "{gunboat, target, hexside}", optional=True, rule="8.92", fields={
                      "gunboat": Field("str", "the gunboat carrying the force"),
                      "target": Field("str", "the hex landed on, in quotes"),
                      "hexside": Field("str", "the hexside it lands across, in quotes, e.g. \"0909/0910\"")})}

#: 8.6 (8.81, 8.91, 8.62, 8.92): the special orders, each a list of mappings of its own keys
SPECIAL = {key: Field("list", optional=True, rule="8.6", items=Field("dict", fields={
               k: _SPECIAL_TYPES.get(k, _ANY) for k in sorted(keys)}))
           for key, keys in SPECIAL_ORDERS.items()}

#: 9.0: the reactions (9.1) and pre-combat retreats (9.2) of a defence, or of standing orders
_HEX = Field("str", "a hex label in quotes, e.g. \"0512\"", optional=True)
_DEFENCE_ITEMS = {"react": {"against": _HEX, "to": _HEX,
                            "commander": Field("str", "your army commander who orders it", optional=True),
                            "lend_mr": Field("bool", "true: the commander lends his MR", optional=True)},
                  "retreat": {"to": _HEX,
                              "rear_guard": Field("list", "your units left in the hex", optional=True,
                                                  items=Field("str", "a unit's id")),
                              "rear_guard_leader": Field("str", "an SL who stays with the rear guard",
                                                         optional=True)}}
DEFENCE = {key: Field("list", help, optional=True, rule="9.0", items=Field("dict", fields={
               "force": Field("str", "one of your forces"), **_DEFENCE_ITEMS[key]}))
           for key, help in (("react", "reaction moves: leader, to (the attacked hex)"),
                             ("retreat", "pre-combat retreats: force, to, rear_guard"))}
assert set(DEFENCE) == DEFENCE_KEYS

#: 8.12a: the leaders the phasing side deactivates voluntarily, at the end of its impulse
DEACTIVATE = Field("list", "your active leaders deactivated voluntarily at the end of the impulse, not paid for "
                           "(8.12a, 11.0)", optional=True, rule="8.12a", items=Field("str", "a leader's id"))

#: 9.0: standing orders for the enemy's next assaults
STANDING = Field("dict", "standing orders for the enemy's next assaults: {defence: {react: [...], retreat: [...]}} "
                         "(9.0)", optional=True, rule="9.0",
                 fields={"defence": Field("dict", "reactions and retreats", optional=True, fields=DEFENCE),
                         "combat": COMBAT})
