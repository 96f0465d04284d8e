"""Gunboats and coastal batteries: rules 8.9-8.94, 10.8-10.83, 3.17, 4.33 and 5.25.

Pure functions over the state dict; each returns a dataclass that carries its
rule number, its ``problems`` (illegal: nothing happens) and a ``why``, and
each has an ``apply_...`` that changes the state and rolls no dice.

This module is the navy's public face: it holds the state keys and the
readings, and re-exports the public names of the modules that play the
rules, in the order a Naval Sequence and an impulse use them:

* :mod:`.naval_control` -- the gunboats and batteries in the state, the
  geometry of major-river hexsides and the control ranges (8.91a, 10.82):
  :func:`control_range`, :func:`controlled_hexsides` (for 8.81's pontoons),
  :func:`contacts` (10.81's continuing contact), :func:`new_impulse`;
* :mod:`.naval_movement` -- movement (8.91, 5.25): :func:`gunboat_move_problems`,
  :func:`gunboat_move`, :func:`apply_gunboat_move`, :func:`gunboat_reach`; blockade
  (8.93, 8.94): :func:`blockaded_hexsides` -- give it to :func:`.terrain.step_cost`'s
  ``blockaded`` -- and :func:`closed_pontoons`;
* :mod:`.naval_assault` -- naval assault (8.92, 3.17, 4.33): :func:`embark`,
  :func:`advance_display`, :func:`naval_assault`; river transport (4.33, 8.9,
  10.82): :func:`river_transport`; each with its ``apply_...``;
* :mod:`.naval_combat` -- naval combat (10.81, 10.82a): :func:`naval_combat`,
  :func:`apply_naval_combat`, on the chart ``games/heartland/charts/ncrt.yaml``
  (:class:`Ncrt`, a STAND-IN); batteries on land (10.82b): :func:`battery_capture`,
  :func:`apply_battery_capture`; shore bombardment (10.83, 10.42a):
  :func:`bombardment_drm` returns a :class:`Bombardment` whose ``drms`` go into
  ``Circumstances.extra_drms[side]`` of :mod:`.combat_fire`.

State keys (``state["naval"]``; every key optional, absent = none)::

    naval:
      gunboats:
        gb1:
          side: union
          name: USS Carondelet
          naval: [2, 1]               # naval combat strength, full and reduced side (2.0, 10.81)
          support: [3, 1]             # shore bombardment support value, full and reduced (10.42a, 10.83)
          steps: 2                    # 2 full, 1 reduced, 0 sunk (2.0: two sides)
          hexside: "0602/0703"        # the hexside its arrow points to (8.91a); null on the display
          box: null                   # on the Union Naval Assault Display (3.17):
                                      #   any_impulse_t1 | reorg_t1 | reorg_t2 | available
          cargo: {units: [u1], leaders: [sherman], wagon: w1}   # embarked (8.92); absent or empty = none
      batteries:
        bt1:
          side: confederate
          name: Fort Henry
          naval: [3, 2]               # naval strength, full and reduced (10.82: naval combat only)
          steps: 2
          hex: "0705"                 # where it stands
          hexside: "0604/0705"        # the 1 hexside its arrow points to and controls (10.82)
      headwaters: ["0601/0701"]       # per major river, the hexside at its headwater symbol (8.94)
      notice: {turn: 3}               # the last public "a naval assault may occur" (8.92a(5))
      current:                        # this impulse's records (cleared by :func:`new_impulse`)
        missions: {gb1: naval_combat} # 8.9: one of assault | blockade | bombardment | naval_combat
        moved: [gb1]                  # gunboats that moved this impulse
        stopped: [gb1]                # stopped in an enemy control range (8.91a, 10.82)
        must_attack: {gb1: [bt1]}     # the naval combat it owes this Combat Sequence (8.91a, 10.82)
        landed: [u1, sherman, w1]     # landed this impulse: no movement (8.92b)

Keys read from elsewhere: ``landings`` (Union Naval Landings, see
:func:`.reorg_step.landing_hexes`), ``entrenchments`` (``{hex: {side,
level}}`` or ``{hex: level}``: a battery's entrenchment, 10.82a, and the
8.92b ban), ``pontoons`` (``{id: {side, hexside, laid}}`` or a list of
hexsides: laid pontoons, 8.81/8.93), ``weather`` (5.25).  Embarked units,
leaders and wagons have ``hex: null`` and ``embarked_on: <gunboat>``.

Readings chosen where the rules are ambiguous or silent (pinned by
``tests/heartland/test_naval.py``):

* 8.91a control range (the p.16 figure is missing): "the 4 hexsides
  branching from its hexside" are the four hexsides that share an end point
  with it (two at each end).  A gunboat also holds its own hexside: an enemy
  gunboat cannot enter it, and :func:`controlled_hexsides` includes it.
* 8.91 movement: one step is from a hexside to a branching one; both must be
  major-river hexsides.  A ford or shoal (hexside features ``ford``,
  ``shoal``) on a major-river hexside cannot be entered, except in Thaw
  (5.25: passed "without penalty").  A bridge does not stop a gunboat.
  An enemy-controlled hexside (gunboat range, battery arrow) may be entered
  only as the last step (8.91a: stop; 10.82: force its way in); a gunboat
  that starts in one may leave it (10.81, 10.82).  A gunboat moves once per
  impulse and not after landing or another mission.
* 10.81 participants: the caller names the attacking and defending units.
  Every one must be in contact with a unit of the other group, or on the
  same hexside as one of its own group (H-10: "stacked").  Contact: one
  holds a hexside the other controls (gunboat range and own hexside,
  battery arrow).  The attackers are the phasing side; in Confederate
  impulses a battery is never a defender (10.82a).
* 10.81 step losses: the owner's ``allocation`` order (ids, or
  ``entrenchment:<hex>``); by default an entrenchment level first (10.82a),
  then the unit with the highest naval strength now, one step at a time.
  Losses beyond every step are lost.  A sunk gunboat's cargo is lost with it.
* 10.82b capture: only a battery with no Confederate combat units in its hex;
  the adjacent Union force rolls the attack check (1 AP, 1d6 <= the OC's BR;
  unled: below the inverted ML, 3.52b); on success its OC's force (or the
  unled units) advances and the battery is removed; on failure the AP is
  spent and nothing else happens (the battery has no CF or ZOC, 10.82).
* 10.83 adjacency (ambiguity 24): a gunboat is adjacent to every hex that
  touches its hexside -- the two banks and the two hexes at its ends.  For an
  attack it must touch both the firing and the fired-on hex; for a defence
  the attacked hex.  Its support value (side showing) is a DRM; it gives no
  other mission that impulse.
* 8.93/8.94 blockade: ranges count hexsides along the river network from the
  gunboat's (1 = a branching hexside).  Upstream is toward the river's
  ``headwaters`` entry; a river with none gets 6 both ways (the shorter
  range).  Every gunboat on the map blockades unless it has another mission
  this impulse.  A ferry hexside is a major-river hexside with a ferry
  feature or a town or major city on both banks; closing it closes only the
  ferry (a printed bridge there stays open: :func:`.terrain.step_cost`
  checks the blockade only for the fare).
* 8.92a ports: a hex with a major city and a major-river hexside, or a Union
  Naval Landing.  The gunboat loads on a hexside of that hex and must be full
  strength; the combat unit must be unled or in the box of an embarking
  leader, and an embarking leader's box may hold no other unit.
* 8.92a/4.33 display: each Naval Sequence moves Any Impulse T1 -> Reorg T1 and
  Reorg T1 -> Reorg T2; a group in Reorg T2 (arrived now or waiting) moves to
  Available only when the Union announces (the public notice, which names no
  place).  The box name "after turn 2" fits this: the announcement may come in
  the Naval Sequence that reaches Reorg T2.
* 8.92b target: a village, town or major city; the landing hexside must be a
  usable major-river hexside of it (no ford or shoal outside Thaw, not
  enemy-controlled); the hex may not be in enemy ZOC, hold an enemy
  entrenchment, or have a hexside in an enemy control range.
* River transport (4.33; the text gives no procedure): the 8.92 load, from a
  hex the gunboat touches (on one of its hexsides) to another hex along
  usable river hexsides (no enemy-controlled hexside on the way or at the end,
  10.82), Union only, in the Naval Sequence.
"""
from __future__ import annotations

from .naval_assault import (
    DisplayAdvance, Embarkation, NavalAssault, RiverTransport, advance_display, apply_advance_display, apply_embark,
    apply_naval_assault, apply_river_transport, embark, is_port, naval_assault, river_transport,
)
from .naval_combat import (
    BatteryCapture, Bombardment, NavalCombat, NavalLoss, Ncrt, NcrtCell, adjacent_to, apply_battery_capture,
    apply_bombardment, apply_naval_combat, battery_capture, battery_hexes, bombardment_drm, naval_combat,
)
from .naval_control import (
    ATTACK_BATTERY_DRM, BANK_TOWNS, BATTERY_DRM, BOX_NAMES, BOXES, DOWNSTREAM, GUNBOAT_OBSTACLES, LANDING_TARGETS,
    MAJOR_RIVER, MISSIONS, NOTICE, UPSTREAM, batteries, branching, contacts, control_range, controlled_hexsides,
    controls, gunboats, in_contact, is_battery, is_major_river, mission_of, naval, new_impulse, obstacle,
    river_steps, strength, support_value, touching_hexes,
)
from .naval_movement import (
    GunboatMove, apply_gunboat_move, blockade_range, blockaded_hexsides, closed_pontoons, gunboat_move,
    gunboat_move_problems, gunboat_reach, is_ferry_hexside,
)

__all__ = [
    # naval_control: state, river geometry, control (8.91a, 10.82)
    "ATTACK_BATTERY_DRM", "BANK_TOWNS", "BATTERY_DRM", "BOX_NAMES", "BOXES", "DOWNSTREAM", "GUNBOAT_OBSTACLES",
    "LANDING_TARGETS", "MAJOR_RIVER", "MISSIONS", "NOTICE", "UPSTREAM", "batteries", "branching", "contacts",
    "control_range", "controlled_hexsides", "controls", "gunboats", "in_contact", "is_battery", "is_major_river",
    "mission_of", "naval", "new_impulse", "obstacle", "river_steps", "strength", "support_value", "touching_hexes",
    # naval_movement: movement and blockade (8.91, 8.93, 8.94, 5.25)
    "GunboatMove", "apply_gunboat_move", "blockade_range", "blockaded_hexsides", "closed_pontoons", "gunboat_move",
    "gunboat_move_problems", "gunboat_reach", "is_ferry_hexside",
    # naval_assault: naval assault and river transport (8.92, 3.17, 4.33)
    "DisplayAdvance", "Embarkation", "NavalAssault", "RiverTransport", "advance_display", "apply_advance_display",
    "apply_embark", "apply_naval_assault", "apply_river_transport", "embark", "is_port", "naval_assault",
    "river_transport",
    # naval_combat: naval combat, batteries on land, bombardment (10.81-10.83)
    "BatteryCapture", "Bombardment", "NavalCombat", "NavalLoss", "Ncrt", "NcrtCell", "adjacent_to",
    "apply_battery_capture", "apply_bombardment", "apply_naval_combat", "battery_capture", "battery_hexes",
    "bombardment_drm", "naval_combat",
]
