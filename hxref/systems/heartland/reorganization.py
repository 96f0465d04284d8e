"""The Reorganization Segment: rules 4.3-4.4, 12.0, 13.0-13.22 (with 3.24a, 3.32, 3.41, 3.53-3.55,
4.31-4.32, 7.13, 7.31a, 7.34, 7.35, 8.11, 8.13, 10.67a).

The segment is played by both sides at once, step after step, strictly in
the rules' order (12.0, 13.0, 4.31, 4.32, 4.4); :data:`STEPS` lists them.
Each step is a function of the state, one side's orders and (when the step
rolls) the dice; it returns a :class:`StepResult` saying what happened and
why, and :func:`apply_step` folds its changes into the state.  Nothing is
changed and nothing is rolled when a step's orders are illegal: the result
then lists the :class:`~hxref.systems.base.Problem` of every bad order.

====================  ===========================  =======================  ==============================
step                  module                       function                 rules
====================  ===========================  =======================  ==============================
destruction           :mod:`.reorg_destruction`    :func:`destruction`      13.1, 13.11, 13.12, 13.13
foraging              :mod:`.reorg_foraging`       :func:`foraging`         13.2, 13.21, 13.22, 7.35a
income                :mod:`.reorg_supply_recheck` :func:`income`           4.31
supply recheck        :mod:`.reorg_supply_recheck` :func:`supply_recheck`   4.31, 7.13, 7.31a, 7.35, 3.54c,
                                                                            8.11
administration        :mod:`.administration`       :func:`administration`   4.32, 3.24a, 3.31b, 3.32, 3.41,
                                                                            7.34, 8.51
end of turn           :mod:`.administration`       :func:`end_of_turn`      4.4, 3.32, 10.67a, 8.13
====================  ===========================  =======================  ==============================

:func:`reorganization` plays them all for both sides; :func:`ml_change`
applies the leader ML rules of 3.53-3.55 (which changes fall on the OC only).

Orders: one plain dict per side, each step reading its own key (paths in
problems start with that key)::

    destruction:                         # 13.1: active OC of the stack, 1 AP per attempt
      - {leader: forrest, bridge: "0604/0705", attempts: 3}   # 13.11: cavalry in a hex at either end
      - {leader: forrest, town: "0303", attempts: 2}          # 13.12: the OC in the town
      - {leader: bragg, landing: "0810"}                      # 13.13: Confederates, a Union landing hex
    foraging:                            # 13.2: June-September, active OC in a town or major city, 1 AP
      - {leader: bragg}
    attrition:                           # 4.31, 7.31a
      emergency: {bragg: w2}             # 7.35: consume a wagon or depot for the stack
      ml: {bragg: 1}                     # 3.54c: the OC gives up ML, -1 each
      losses: {bragg: [u3, u4]}          # which units take the attrition steps (else spread)
    administration:                      # 4.32, 3.24a
      replacements: [{unit: u1, steps: 1, leader: grant}]   # 1 AP and 1 replacement step each
      leaders:                           # 3.41(2): no WDO needed here; 3.31b: 1 AP when an army commander orders
        - {relieve: lyle}                                  # only a leader with no units in his box
        - {appoint: sherman, box: lyle, ordered_by: grant} # takes over the box (relieving lyle)
      wdo:                               # 3.41: 10 WEP, at most 1 a turn (3.41a)
        - {army_commander: thomas, from: grant}            # 3.41(3)
        - {remove: buell}                                  # 3.41(4)
      chief_of_staff: [{leader: rosecrans, army: grant}]    # 3.32: a WDO + 1 AP of the army commander
      cavalry_corps: [stuart]            # 4.32(3), 3.12: his box of cavalry alone becomes a corps (no cost)
      detachments: [{leader: grant, unit: u2, by: step_loss}]  # 8.51, 3.24a: 1 AP
      ammo: [{leader: grant, asp: 3}]    # 3.24a, 7.34: 1 AP, in-communication full-supply forces only
      training: [{leader: grant}]        # 3.53(2), 14.52: 1 AP, ML +1
      entrench: [{leader: grant}]        # 3.24a, 14.8x: 1 AP, one level
      train: [{hex: "0705"}]             # 8.72: the one extra train, in a friendly major city, prices.train WEP
      open_rail: [{from: "0705", to: "0909"}]   # 8.71: one stretch a turn, station to next station
      remove_landing: [L1]               # 8.64a: Union, a landing it declared exhausted after its capture

State keys this module reads or adds (all optional; absent = none)::

    wep: {union: 120, ...}                 War Effort Points (3.16), changed by raids, foraging, income, WDOs
    replacements: {union: 4, ...}          replacement steps on the Number Track (3.16, 4.32)
    prices: {asp: 1, train: 6}             WEP per ammo point bought (4.32(5)) and for the extra train (8.72,
                                           14.14); the price list is missing: 0
    income: {"0705": 5 | {wep: 5, owner: union}}   WEP per friendly major city (4.31; amounts missing: 0)
    control: {"0705": union}               who holds a city now (overrides the income entry's owner)
    foraging: true                         the scenario allows foraging (4.31); default true
    north_of_ohio: ["0101", ...] | true    hexes north of the Ohio River (13.22), or the whole map
    landings: {id: {hex: "0810"}} | ["0810"]   Union Naval Landings (8.92, 13.13)
    rail_cuts: ["0509"]                    Rail Line Cut markers (7.13, 8.63), passed to the supply check
    burned_bridges: {"0604/0705": {side: confederate, turn: 3}}   bridges burned (13.11; until rebuilt)
    devastated: {"0303": {side: union, turn: 2}}   towns burned (13.12): no longer towns
                                           (a plain list of labels is read too)
    entrenchments: {"0303": {side: union, level: 1}}   entrenchment levels (3.24a, 14.8x)
    leaders[id]["own_use"]: 4              an Own Use marker, to be spent in that turn (7.35a, 13.22)
    leaders[id]["wound"]: 2                wound level, lowering all ratings (10.67, 8.13); -1 a turn
    leaders[id]["cos"]: rosecrans          an army commander's Chief of Staff (3.32)
    leaders[id]["cos_of"]: grant           a Chief of Staff: in grant's Status box, off the map (3.32)
    leaders[id]["killed"] / ["removed"]    gone for good (10.67, 8.13); like ``captured`` (9.24)
    current.reorganization:                this turn's records (reset with the turn):
        supply: {union: {force: {state, in_communication, line}}}   the Supply Recheck (7.34)
        raided: {"0810": 2}   foraged: {union: ["0303"]}   trained: {union: [grant]}
        ammo: {union: [grant]}   entrenched: {union: ["0303"]}
    current.wdo: {union: 1}                limited WDOs used this turn (3.41a); a dict
                                           ``current.wdo_used`` {side: bool} is read too

Readings chosen where the rules are ambiguous or silent (pinned by
``tests/heartland/test_reorganization.py``):

* Order (12.0, 13.0, 4.31): destruction, foraging, (the Purchase Step, whose
  contents are missing), income, supply recheck and attrition,
  administration, (the Naval Sequence, not here), end of turn.  Within a
  step both sides act at once: each side's step is computed on the state
  before either is applied, Union first in the dice.
* 13.1-13.12: ``attempts`` is an upper bound; the attempts stop at the first
  6.  The AP of every attempt asked for must be there when the order is
  checked (so nothing depends on dice when the file is accepted).  The OC
  of the stack is the hex's OC (3.22), on the map and active.  A bridge is a
  hexside with a bridge over a major river; the stack needs a living cavalry
  unit.  Major cities and villages are not burned.
* 13.13 (H-29): Union WEP fall by floor(brigades / 2): Confederate living
  infantry and cavalry units of brigade size in the landing hex (in boxes
  and unled); the raid costs 1 AP of the hex's active OC (13.1), once per
  landing per turn; WEP never fall below 0 (the Number Track, 3.16).
* 13.21-13.22: one forage per hex per side per turn, by the hex's active OC
  for 1 AP; a burned town is no town (13.12).  Clear hexes: the hex and its
  six neighbours on the map whose terrain is clear (a major city counts when
  its hex's terrain is clear, the way the map draws it) or that hold an
  unburned town.  OU places ``own_use: next turn`` on the OC (spent in one
  impulse of the next turn, 7.35a; it lapses at the end of that turn).  Any
  force may forage (WEP); OU helps only forces out of communication.
* 13.23: a force in enemy ZOC or in a devastated town may not forage; the
  hexes struck from the count are devastated towns (whatever their
  terrain), hexes in enemy ZOC, hexes across a major river hexside without a
  bridge (a burned bridge is none, 13.11), ford or laid friendly pontoon (as
  for movement, 8.81; a ferry is neither, 8.24a), and neighbours holding a
  friendly leader on the map (the forager's own hex is never struck for his
  own leader).  ZOC is the enemy's at the Foraging Step (after the
  Destruction Step).  Several foragers may count one hex (the cut-off last
  sentence).
* 4.31 income: a city pays its ``income`` entry (0 if none) to the side that
  holds it (``control``, else the entry's ``owner``), unless only enemy units
  stand in it.
* Attrition (4.31, 7.31a, 7.12b): forces out of communication (including
  those supplied by emergency supply or Own Use), forces with no line of
  20 MP or less to any in-supply source or supply unit, and forces of 3 or
  more leaders (boxes included) roll 1d6 on the stand-in Attrition Table.
  DRMs: +4 with no line; the stand-in supply DRM (full 0, combat +1, out +2);
  weather (5.23-5.29); -1 per ML the OC gives up (3.54c, the OC only).
  Emergency supply (7.35) cancels both the supply DRM and the no-line +4
  ("to avoid the large attrition DRM").  Step losses go to the ordered
  units, else are spread (most steps first); leaders left without units go
  to the pool (as 8.31a); "deactivate" falls on the force's OC (8.11).
  The attrition die is rolled in the open (its face and force are public;
  the roller's alone under dense fog, 3.72(2)); its DRMs and results stay
  with the rolling side (the AOD is hidden, 3.71).
* 7.13: a depot in a station on a rail line that is out of supply (its rail
  line cut and no other line) loses 1 capacity once per Supply Recheck;
  at capacity 0 it is removed.
* 3.24a AP: the leader who acts pays; replacements may be paid by the box
  leader's OC or an army commander in range (3.24b, 3.31a); ammo receipt is
  1 AP per delivery (any number of points), once per leader per turn;
  training +1 ML (at most 9) once per leader per turn (14.52 is missing);
  entrenching raises the hex's level by 1, once per hex per turn (14.8x
  missing: no cap).  Detachments use the stand-in Detachment Chart, made in
  the ordering leader's box.
* 7.34: replacements and ammo only for leaders whose force was in
  communication and in full supply at this turn's Supply Recheck.  A
  replacement step restores one step of a unit in a leader's box, an
  eliminated one included (it comes back reduced), up to its printed steps.
* 3.41 / 4.32(2): relieving and appointing in the Administration Sequence
  cost no WEP; with ``ordered_by`` an army commander (active, the box in his
  command range) pays 1 AP (3.31b).  The appointee comes from the pool (or is
  an unemployed leader in the hex), is active, and takes over the box: its
  units, SLs, wagons, artillery and ASP.  A relieved leader goes to the
  pool.  A leader with units in his box is relieved only by naming his
  successor.  An army commander is replaced only by the WDO of 3.41(3).
* 3.41a: the COS appointment is a WDO and counts towards the one-a-turn
  limit; the limit counts WDOs of the whole turn (impulses included).
* 3.41(4) remove: the leader goes to the pool; his units stay in the hex,
  unled (3.23b is the player's to fix); his SLs move up to his superior.
* 3.32: the COS leaves the map (or the pool) for the army commander's Status
  box; eligible with 2 stars or more (brevet included) and no units or SLs.
  His AP are added to the army commander's at each AP reset (4.4), less 1
  in 1861 and 1862 scenarios (3.32c), not on the turn he is appointed.
  A COS is not paid (4.25 counts leaders on the map or in boxes).
* 3.53-3.55 (:func:`ml_change`): combat victory and weather change every
  leader of the force (OC and SLs); training the leader himself; failed
  attack checks, retreats, failed morale checks and voluntary reductions the
  force's OC only (an SL may not reduce voluntarily).  ML stays in 0-9.
* 4.4 / 10.67a / 8.13: at the end of the turn wounds heal one level (the rule
  says "in the Administration Sequence": nothing there depends on it, so
  it is done just before the AP reset), then every leader's AP become the AR
  of the side his counter shows, less his wound, plus his COS's.

Each step lives in the module the table names; the leader ML rules (3.53-3.55) are in
:mod:`.administration` too, and the records (:class:`Action`, :class:`StepResult`) and the small
questions about the state every step asks in :mod:`.reorg_step`.  This module keeps the order of
the segment (:data:`STEPS`, :func:`reorganization`, :func:`apply_step`), the readings above, and
re-exports the public names of the steps, so ``reorganization.X`` is the segment's public face.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from .state_types import FullGameState
from .administration import (
    MLCause, MLChange, administration, apply_ml_change, check_administration, cos_bonus, detachment_yield, end_of_turn,
    ml_change, wdo_problems, wdo_used,
)
from .forced_march import apply_changes
from .reorg_destruction import TARGETS, check_destruction, destruction
from .reorg_foraging import ForagingChart, check_foraging, clear_hexes, foraging, is_town, north_of_ohio
from .reorg_step import Action, StepResult
from .reorg_supply_recheck import (
    AttritionChart, AttritionCheck, DepotLoss, Recheck, attrition_reasons, check_supply_recheck, income,
    supply_recheck,
)

if TYPE_CHECKING:
    from ...kit.charts import Charts

SIDES = ("union", "confederate")

STEPS = (
    ("destruction", "13.1"),
    ("foraging", "13.2"),
    ("purchase", "13.0"),              # contents not in the text
    ("income", "4.31"),
    ("supply_recheck", "4.31, 13.0"),
    ("administration", "4.32"),
    ("naval", "4.33"),                 # Union only; not in this module
    ("end_of_turn", "4.4"),
)


# --------------------------------------------------------------------------
# results


def apply_step(state: FullGameState, result: StepResult) -> None:
    """Fold a legal step's changes into the state."""
    if result.problems:
        raise ValueError(f"cannot apply the illegal {result.step} orders: "
                         + "; ".join(p.message for p in result.problems))
    apply_changes(state, result.changes)



# --------------------------------------------------------------------------
# the whole segment


def reorganization(state: FullGameState, orders: Mapping[str, Mapping], dice, hexmap, *, charts: Charts,
                   sides: Iterable[str] = SIDES) -> list[StepResult]:
    """12.0 / 13.0 / 4.3: play the Reorganization Segment for both sides, step by step in the rules'
    order, applying each legal step, on the map ``hexmap`` with the game's charts (``charts``).  Within a step both sides are resolved against the same
    state and then applied (simultaneous).  A side's illegal step is refused (nothing done) and
    its result, with the problems, is returned like the others."""
    sides = tuple(sides)
    results: list[StepResult] = []
    steps: list[tuple[str, Callable]] = [
        ("destruction", lambda s: destruction(state, s, orders.get(s), dice, hexmap)),
        ("foraging", lambda s: foraging(state, s, orders.get(s), dice, hexmap, chart=ForagingChart.load(charts))),
        ("income", lambda s: income(state, s, orders.get(s), hexmap)),
        ("supply_recheck", lambda s: supply_recheck(state, s, orders.get(s), dice, hexmap,
                                                    chart=AttritionChart.load(charts))),
        ("administration", lambda s: administration(state, s, orders.get(s), hexmap, charts=charts)),
    ]
    for _, step in steps:
        batch = [step(s) for s in sides]
        for r in batch:
            if r.legal:
                apply_step(state, r)
            results.append(r)
    r = end_of_turn(state)
    apply_step(state, r)
    results.append(r)
    return results


__all__ = [      # the segment's public face, in the order of play
    "SIDES", "STEPS", "apply_step", "reorganization", "Action", "StepResult",
    # 13.1 destruction
    "TARGETS", "check_destruction", "destruction",
    # 13.2 foraging
    "ForagingChart", "check_foraging", "clear_hexes", "foraging", "is_town", "north_of_ohio",
    # 4.31 income and the supply recheck
    "income", "AttritionChart", "AttritionCheck", "DepotLoss", "Recheck", "attrition_reasons",
    "check_supply_recheck", "supply_recheck",
    # 4.32 administration, 3.53-3.55 the leaders' ML, 4.4 the end of the turn
    "MLCause", "MLChange", "administration", "apply_ml_change", "check_administration", "cos_bonus",
    "detachment_yield", "end_of_turn", "ml_change", "wdo_problems", "wdo_used",
]
