"""Salem Church movement: walking one unit's path hex by hex (D2, D3, TEC, 13.x, 16.0, 17.2, 18.0).

:func:`.movement.check_path` hands the path to :func:`walk_path`, which checks each hex
entered in the order of the rules' steps, one method of :class:`_Walker` each:

1. nothing after the wagon train left the map (16.0) or after a hex where the unit must stop
   (D2 enemy ZOC, TEC heavy woods) -- :meth:`_Walker.may_go_on`;
2. the wagon train leaving the map (16.0) -- :meth:`_Walker.leave_map`;
3. a hex of the map (D3) -- :meth:`_Walker.hex_entered`;
4. its cost: the entry hex's terrain (13.x, the train on a road, 16.0), else the step, adjacent
   and allowed by the TEC (D3, TEC) -- :meth:`_Walker.cost_of`;
5. no enemy-occupied hex, unless a Confederate combat unit captures the train (D3, 16.0) --
   :meth:`_Walker.enemy_hex`;
6. the wagon train's stacking and the hexes next to a Confederate unit (16.0) --
   :meth:`_Walker.wagon_train`;
7. at night no hex next to an enemy unit (18.0) -- :meth:`_Walker.night`;
8. the MP left (D3) -- :meth:`_Walker.mp_left`;
9. entering an enemy ZOC: the disrupted stand-in (D3) and, at Low Initiative, a leader's
   initiative check (17.2), whose failure stops the stack before the hex --
   :meth:`_Walker.ezoc_entry`, :meth:`_Walker.initiative`;
10. the unit enters: it stops in an enemy ZOC (D2) or heavy woods (TEC) -- :meth:`_Walker.enter`;

then the stop is recorded and the stacking at the end of the move checked (stand-in, D3) --
:meth:`_Walker.stacking`.  A refused step records its problem on the :class:`.movement.MoveCheck`
and ends the walk (:class:`_Void`).  :func:`reachable` finds every hex a path the walk accepts
may end in, cheapest first, by walking each step it tries.

Why not :func:`hxref.kit.walk.walk`: its messages are plain strings, while Salem's problems and
stops name units by reference (:mod:`.narration`, so each side reads them as it sees the units
in line-of-sight play); a unit may enter from off the map (13.x), where the kit's walk needs a
start hex; the train's path may end off the map (16.0); and Salem checks the MP before the
enemy-ZOC rules (D3, 17.2), the kit's walk after them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from heapq import heappop, heappush
from typing import Mapping, NoReturn, Sequence

from ...geometry.hex import Hex, are_adjacent
from ...geometry.mapmodel import HexMap
from ...geometry.paths import Prohibited
from ..base import Problem
from .counters import COMBAT_ARMS, die_purpose
from .movement import (DISRUPTED_MOVEMENT, EXIT, LEADER, STACK_LIMIT, WAGON, WAGON_EXIT_MP, WAGON_EXITS, Allowance,
                       MoveCheck, Refused, Roll, Surroundings, _check_passed, _check_reading, _lab, _name, _near,
                       _num, _on_road, _other, _parse, hex_cost, initiative_check, initiative_state,
                       initiative_told, is_night, movement_allowance, step_cost, stop_on_entry, surroundings)
from .narration import Line, ident, line, listing, plain


class _Void(Exception):
    """A step the rules refuse: its problem is on the MoveCheck, and the walk ends there."""


@dataclass
class _Walker:
    """One unit's walk: what the state says about its move, and the MoveCheck being filled."""

    state: Mapping
    hexmap: HexMap
    uid: str
    unit: Mapping
    allowance: Allowance
    mc: MoveCheck
    where: Sequence
    leader: str | None
    roll: Roll | None
    around: Surroundings | None = None      # read from ``state`` when not given
    stop: tuple[str | Line, str] | None = None
    units: Mapping = field(init=False)

    def __post_init__(self) -> None:
        state, hexmap = self.state, self.hexmap
        self.units = state["units"]
        self.side, self.arm = self.unit["side"], self.unit["type"]
        self.enemy = _other(self.side)
        self.night = is_night(state.get("turn"))
        self.low = self.side == "union" and initiative_state(state) == "low"
        around = self.around or surroundings(state, hexmap, self.uid, self.side)
        self.occ, self.ezoc, self.next_to_enemy = around.occ, around.ezoc, around.next_to_enemy
        self.train, self.train_hex = around.train, around.train_hex
        self.cost = step_cost(hexmap, self.arm)
        self.checks = state.get("initiative_checks") or {}

    def record(self, i: int, message: str | Line, rule: str) -> None:
        said = line(message)
        self.mc.problems.append(Problem(plain(said), rule, [*self.where, i]))
        self.mc.said.append(said)

    def refuse(self, i: int, message: str | Line, rule: str) -> NoReturn:
        self.record(i, message, rule)
        raise _Void

    # --- the steps, in order ------------------------------------------------------------------
    def walk(self, path: Sequence[str], start_hex: Hex | None) -> None:
        here = start_hex
        for i, label in enumerate(path):
            self.may_go_on(i)
            if label == EXIT:
                self.leave_map(i)
                continue
            h = self.hex_entered(i, label)
            label = self.hexmap.label(h)
            c = self.cost_of(i, here, h, label)
            captures = self.enemy_hex(i, label)
            self.wagon_train(i, label)
            self.night_rule(i, label)
            self.mp_left(i, label, c)
            into_ezoc = label in self.ezoc
            if into_ezoc and not self.ezoc_entry(i, label):
                break
            self.enter(label, h, c, captures, into_ezoc)
            here = h
        self.stopped()

    def may_go_on(self, i: int) -> None:
        """16.0: the train's move ends when it leaves the map; D2/TEC: nothing after a stop."""
        mc = self.mc
        if mc.exit:
            self.refuse(i, "the wagon train has left the map: its move ends there (16.0)", "16.0")
        if self.stop is not None:
            self.refuse(i, line(f"the path goes on after {mc.end}, where the unit must stop: ", self.stop[0]),
                        self.stop[1])

    def leave_map(self, i: int) -> None:
        """16.0: only the wagon train leaves the map, from 0107/0903 or 1204/1302, paying 1 MP."""
        mc = self.mc
        if self.arm != WAGON:
            self.refuse(i, line(ident(self.uid), " may not leave the map: only the wagon train does (16.0; no exit "
                                "rule for other units, stand-in)"), "16.0")
        kind = WAGON_EXITS.get(mc.end or "")
        if kind is None:
            self.refuse(i, f"the wagon train leaves the map only from 0107 or 0903 (for victory) or from 1204 "
                           f"or 1302 (to escape capture), not from {mc.end or 'off the map'} (16.0)", "16.0")
        if mc.spent + WAGON_EXIT_MP > mc.mp:
            self.refuse(i, f"leaving the map costs {WAGON_EXIT_MP} MP but only {_num(mc.mp - mc.spent)} of "
                           f"{_num(mc.mp)} MP are left (16.0)", "16.0")
        mc.spent += WAGON_EXIT_MP
        mc.exit = kind
        mc.stopped = (f"left the map from {mc.end} paying {WAGON_EXIT_MP} MP: "
                      + ("counts for victory (14.1)" if kind == "victory" else "escapes capture, not for victory (14.1)")
                      + " (16.0)")
        mc.rule = "16.0"
        mc.end = None

    def hex_entered(self, i: int, label: str) -> Hex:
        """D3: every hex of the path is a hex of the map."""
        h = _parse(self.hexmap, label)
        if h is None:
            self.refuse(i, f"{label!r} is not a hex of this map", "D3")
        return h

    def cost_of(self, i: int, here: Hex | None, h: Hex, label: str) -> float:
        """13.x: the entry hex costs its terrain (16.0: the train enters on a road); D3: else a step
        to an adjacent hex other than the unit's own; TEC: its cost, or why it is prohibited."""
        c: float | Prohibited
        if here is None:                       # 13.x: the entry hex costs its terrain
            c = hex_cost(self.hexmap, self.arm, h)
            if self.arm == WAGON and not isinstance(c, Prohibited) and not _on_road(self.hexmap, h):
                c = Refused(f"entry hex {label} is not on a road: the wagon train moves only along roads (16.0)", "16.0")
        else:
            if h == here:
                self.refuse(i, f"{label} is where the unit already is: a path lists the hexes entered, not the "
                               "start hex", "D3")
            if not are_adjacent(here, h):
                self.refuse(i, f"{label} is not adjacent to {_name(self.hexmap, here)}: a path goes hex by hex", "D3")
            c = self.cost(here, h)
        if isinstance(c, Prohibited):
            self.refuse(i, f"cannot enter {label}: {c.reason}", getattr(c, "rule", "TEC"))
        return c

    def enemy_hex(self, i: int, label: str) -> str | None:
        """D3: no unit enters an enemy-occupied hex; 16.0: a Confederate combat unit entering the
        train's hex captures it (the train, or None)."""
        enemies = [u for u in self.occ.get(label, []) if self.units[u]["side"] == self.enemy]
        if not enemies:
            return None
        train = self.train
        if train is not None and enemies == [train] and self.side == "confederate" and self.arm in COMBAT_ARMS:
            return train                                    # 16.0
        self.refuse(i, line(f"{label} holds enemy units (", listing(map(ident, enemies)),
                            "): no unit may enter an enemy-occupied hex", " (16.0: only a Confederate combat "
                            "unit captures the wagon train)" if train in enemies else None), "D3")

    def wagon_train(self, i: int, label: str) -> None:
        """16.0: the train stacks with no unit and moves next to no Confederate unit; no Union unit
        enters its hex."""
        others = self.occ.get(label, [])
        if self.arm == WAGON and others:
            self.refuse(i, line(f"{label} holds ", listing(map(ident, others)), ": no unit stacks with the wagon "
                                "train, which may not enter or pass a hex holding another unit (16.0)"), "16.0")
        if self.side == "union" and self.arm != WAGON and self.train is not None and label == self.train_hex:
            self.refuse(i, f"{label} holds the wagon train: no Union unit may enter its hex or stack with it "
                           "(16.0)", "16.0")
        if self.arm == WAGON and label in self.next_to_enemy:
            self.refuse(i, f"{label} is adjacent to a Confederate unit: the wagon train may not move adjacent to "
                           "one (16.0)", "16.0")

    def night_rule(self, i: int, label: str) -> None:
        """18.0: at night no hex entered is next to an enemy unit."""
        if self.night and label in self.next_to_enemy:
            self.refuse(i, f"turn {self.state.get('turn')} is a night turn: no moving adjacent to an enemy unit, "
                           f"and {label} is (18.0)", "18.0")

    def mp_left(self, i: int, label: str, c: float) -> None:
        """D3: the unit has the MP to enter the hex."""
        mc = self.mc
        if mc.spent + c > mc.mp:
            self.refuse(i, f"entering {label} costs {_num(c)} MP but only {_num(mc.mp - mc.spent)} of "
                           f"{_num(mc.mp)} MP are left", "D3")

    def ezoc_entry(self, i: int, label: str) -> bool:
        """D3 (stand-in): a disrupted unit may be barred from enemy ZOC; 17.2: at Low Initiative a
        Union stack enters one only with a leader who passes his check.  False: it stops before."""
        if not self.allowance.may_enter_ezoc:
            self.refuse(i, line(ident(self.uid), f" is disrupted and may not enter the enemy ZOC in {label} "
                                f"({self.allowance.why})"), "D3")
        if not self.low:
            return True
        return self.initiative(i, label)

    def leader_id(self) -> str | None:
        """17.2: the leader whose stack the unit moves with (a leader moving is his own)."""
        return self.leader if self.leader is not None else (self.uid if self.arm == LEADER else None)

    def initiative(self, i: int, label: str) -> bool:
        """17.2: the stack's leader, stacked with the unit at the start, passes his initiative check
        (one per leader per phase, G7; rolled now if not made yet, assumed passed without ``roll``)."""
        mc, uid = self.mc, self.uid
        ldr_id = self.leader_id()
        if ldr_id is None:
            self.refuse(i, line(f"the Union is at {initiative_told(self.state)}: ", ident(uid),
                                f" may enter the enemy ZOC in "
                                f"{label} only stacked with a leader who passes an initiative check (17.2)"), "17.2")
        ldr = self.units.get(ldr_id)
        if (ldr is None or ldr.get("type") != LEADER or ldr.get("side") != self.side
                or _lab(ldr.get("hex")) != _lab(self.unit.get("hex"))):
            self.refuse(i, line(ident(ldr_id), " is not a Union leader stacked with ", ident(uid), " at the start "
                                "of its move: at Low Initiative only a leader's stack may enter an enemy ZOC "
                                "(17.2)"), "17.2")
        done = self.checks.get(ldr_id) if ldr_id in self.checks else mc.initiative
        if done is None:
            purpose = die_purpose(self.roll, "initiative check", ldr_id, "(17.2)")
            if self.roll is None:
                mc.pending.append(purpose)
                return True
            mc.initiative = initiative_check(ldr_id, ldr, self.roll(purpose), near_ezoc=_near(self.hexmap, mc.start,
                                                                                              self.ezoc))
            passed = mc.initiative.passed
        else:
            passed = _check_passed(done)
        if not passed:
            mc.stop_said = line("the initiative check of ", ident(ldr_id), " failed: the stack may not enter "
                                f"the enemy ZOC in {label} and stops in {mc.end or 'off the map'} (17.2)")
            mc.stopped = plain(mc.stop_said)
            mc.rule = "17.2"
        return passed

    def enter(self, label: str, h: Hex, c: float, captures: str | None, into_ezoc: bool) -> None:
        """The unit enters and pays; D2: it stops in an enemy ZOC (locking); TEC: or in heavy woods."""
        mc = self.mc
        mc.spent += c
        mc.hexes.append(label)
        mc.end = label
        if captures:
            mc.captures = captures
        if into_ezoc:
            mc.entered_ezoc = True
            # 17.1: from turn 7 a Union stack enters one by this turn's roll (Full, or Low and 17.2 passed)
            told = (f"; the Union at {initiative_told(self.state)}"
                    if self.side == "union" and self.state.get("initiative_turn") else "")
            self.stop = (line(f"entered the enemy ZOC in {label} (", listing(map(ident, sorted(self.ezoc[label]))),
                              f"): enemy ZOCs are locking, a unit entering one stops (D2){told}"), "D2")
        else:
            why = stop_on_entry(self.hexmap, h)
            if why:
                self.stop = (why, "TEC")

    def stopped(self) -> None:
        """Where the unit had to stop, and by which rule (D2, TEC)."""
        if self.stop is not None:
            mc = self.mc
            mc.stop_said, mc.rule = line(self.stop[0]), self.stop[1]
            mc.stopped = plain(mc.stop_said)

    def stacking(self, path: Sequence[str]) -> None:
        """Stacking at the end of the move (stand-in ``STACK_LIMIT``, D3): leaders do not count."""
        mc, units = self.mc, self.units
        if path and mc.end is not None and mc.end != mc.start and self.arm in COMBAT_ARMS:
            friends = [u for u in self.occ.get(mc.end, []) if units[u]["side"] == self.side
                       and units[u]["type"] in COMBAT_ARMS]
            if len(friends) + 1 > STACK_LIMIT:
                self.record(len(mc.hexes) - 1, line(ident(self.uid), f" would end in {mc.end} with ",
                                                    listing(map(ident, friends)), f": at most {STACK_LIMIT} "
                                                    "infantry or artillery units stack in a hex (stand-in, D3)"), "D3")


def walk_path(state: Mapping, hexmap, uid: str, unit: Mapping, path: Sequence[str], start_hex: Hex | None,
              allowance: Allowance, mc: MoveCheck, *, leader: str | None, roll: Roll | None,
              where: Sequence, around: Surroundings | None = None) -> MoveCheck:
    """Walk ``path`` for ``uid`` (the module text gives the steps), filling ``mc``; ``around``: the
    unit's :class:`~.movement.Surroundings` in ``state``, when the caller has them."""
    w = _Walker(state, hexmap, uid, unit, allowance, mc, where, leader, roll, around)
    try:
        w.walk(path, start_hex)
    except _Void:
        return mc
    w.stacking(path)
    return mc


def check_path(state: Mapping, hexmap, uid: str, path: Sequence, *, leader: str | None = None,
               roll: Roll | None = None, disrupted: str = DISRUPTED_MOVEMENT,
               where: Sequence = ("path",), around: Surroundings | None = None) -> MoveCheck:
    """Check and walk the move of unit ``uid`` along ``path`` (the hexes entered, see the module text).

    ``leader`` is the Union leader whose stack the unit moves with (17.2; a leader moving
    is his own); ``roll(purpose)`` makes the 17.2 initiative check when one is needed;
    ``disrupted`` is the stand-in reading for disrupted units; ``where`` prefixes the
    problems' data paths (the index in ``path`` is appended); ``around`` the unit's
    :class:`~.movement.Surroundings` in ``state`` when the caller tries several paths on it.
    """
    _check_reading(disrupted)
    unit = state["units"].get(uid)
    path = [EXIT if p == EXIT else _lab(p) for p in path]
    if unit is None:
        mc = MoveCheck(uid, None, path, 0)
        mc.problems.append(Problem(f"no unit {uid!r}", "D3", list(where)))
        return mc
    start_hex = _parse(hexmap, unit.get("hex"))
    start = hexmap.label(start_hex) if start_hex is not None else None
    allowance = movement_allowance(unit, disrupted=disrupted)
    mc = MoveCheck(uid, start, path, allowance.mp, end=start)
    if unit.get("hex") is not None and start_hex is None:
        mc.problems.append(Problem(f"{uid} is in {unit['hex']!r}, not a hex of this map", "D3", list(where)))
        return mc

    return walk_path(state, hexmap, uid, unit, path, start_hex, allowance, mc, leader=leader, roll=roll,
                     where=where, around=around)


def reachable(state: Mapping, hexmap, uid: str, *, leader: str | None = None,
              disrupted: str = DISRUPTED_MOVEMENT) -> dict[str, float]:
    """Every hex a path of unit ``uid`` (on the map) that :func:`check_path` accepts may end in,
    with the MP of the cheapest such path; its own hex left out.

    Cheapest first (Dijkstra): each step tried is the walk of the cheapest path found to its hex
    and the step, so every rule of the walk decides it (D2, D3, TEC, 16.0, 17.2, 18.0); a hex where
    the walk stops (enemy ZOC, heavy woods) is not gone on from, and a hex the unit may cross but
    not end in (the stacking at the end of the move) is crossed and left out.  The 17.2 check is
    taken as passed, as the orders' check does before the dice."""
    return {h: spent for h, (spent, _path) in _paths(state, hexmap, uid, leader, disrupted).items()}


def cheapest_paths(state: Mapping, hexmap, uid: str, *, leader: str | None = None,
                   disrupted: str = DISRUPTED_MOVEMENT) -> dict[str, list[str]]:
    """The cheapest path :func:`reachable` found to each hex it lights (the hexes entered)."""
    return {h: list(path) for h, (_spent, path) in _paths(state, hexmap, uid, leader, disrupted).items()}


def _paths(state: Mapping, hexmap, uid: str, leader: str | None, disrupted: str) -> dict[str, tuple[float, tuple[str, ...]]]:
    unit = state["units"].get(uid)
    origin = _parse(hexmap, unit.get("hex")) if unit else None
    if unit is None or origin is None:
        return {}
    start = hexmap.label(origin)
    around = surroundings(state, hexmap, uid, unit["side"])
    found: dict[str, tuple[float, tuple[str, ...]]] = {}
    done: set[str] = set()
    heap: list[tuple[float, str, tuple[str, ...]]] = [(0, start, ())]
    while heap:
        spent, here, path = heappop(heap)
        if here in done:
            continue
        done.add(here)
        for n in hexmap.parse(here).neighbours():
            if n not in hexmap.grid or hexmap.label(n) in done:
                continue
            step = (*path, hexmap.label(n))
            mc = check_path(state, hexmap, uid, step, leader=leader, disrupted=disrupted, around=around)
            if mc.hexes != list(step):
                continue                    # refused, or stopped before it (17.2)
            if mc.legal and (step[-1] not in found or mc.spent < found[step[-1]][0]):
                found[step[-1]] = (mc.spent, step)
            if mc.stop_said is None:        # D2, TEC: no going on from where it must stop
                heappush(heap, (mc.spent, step[-1], step))
    return found
