"""One target's combat and its results: rules 10.11 and 10.6x (10.61-10.68, with 3.53-3.54).

:func:`resolve_combat` fires every exchange of a (wave) attack (:mod:`.combat_fire`),
then works the results out in the order of 10.61 on a *copy* of the state
(``_Results``) and returns a :class:`Combat` whose ``effects`` are the records of
:mod:`.combat_effects`.  Step losses: :func:`allocate_losses` (10.63); retreats:
:func:`plan_retreat` / :class:`RetreatPlan` and :func:`supply_points` (10.68).
The readings chosen are listed in :mod:`.combat`.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence, cast

from .state_types import FullGameState
from ...geometry.hex import distance as hex_distance
from ..base import Problem
from . import forces as fc
from . import model
from .attack import Assault, default_passable, enemy_zoc, neighbours
from .names import force_name, unit_label
from .combat_effects import (ArtilleryChange, Capture, Kill, MlChange, MoveStack, SpendAsp, StepLoss, Wound,
                             apply_effect)
from .combat_fire import Circumstances, Fire, Strength, fire, stack_strength
from .fert import Fert
from .reaction import supports_for

ML_MAX, ML_MIN = 9, 0                      # 3.51
ROUTE_SEARCH_LIMIT = 50_000                # paths looked at for one retreat


# --- step losses (10.63) -----------------------------------------------------------------

def allocate_losses(state: FullGameState, units: Sequence[str], losses: int, *, owner_order: Sequence[str] = (),
                    enemy_order: Sequence[str] = (), taken: dict[str, int] | None = None,
                    owner_only: bool = False) -> list[tuple[str, str]]:
    """10.63a / H-8: who loses each step: ``[(unit, "owner" | "enemy"), ...]``.

    The k-th loss is chosen by the owner when k is odd, by the enemy when even (``owner_only``:
    always the owner); only units that have taken the fewest losses so far (``taken``, kept across
    calls of one combat) are eligible.  Each chooser takes the first eligible unit of his order;
    by default the owner the weakest (lowest current CF) and the enemy the strongest."""
    steps = {u: state["units"][u]["steps"] for u in units}
    taken = taken if taken is not None else {}
    out: list[tuple[str, str]] = []

    def cf_now(u: str) -> int:
        unit = state["units"][u]
        return unit["cf"][0] if steps[u] >= 2 else unit["cf"][-1]

    for k in range(1, losses + 1):
        alive = [u for u in units if steps[u] > 0]
        if not alive:
            break
        least = min(taken.get(u, 0) for u in alive)
        eligible = [u for u in alive if taken.get(u, 0) == least]
        chooser = "owner" if owner_only or k % 2 == 1 else "enemy"
        order = owner_order if chooser == "owner" else enemy_order
        pick = next((u for u in order if u in eligible), None)
        if pick is None:
            key = (lambda u: (cf_now(u), u)) if chooser == "owner" else (lambda u: (-cf_now(u), u))
            pick = min(eligible, key=key)
        steps[pick] -= 1
        taken[pick] = taken.get(pick, 0) + 1
        out.append((pick, chooser))
    return out


# --- retreats (10.68) --------------------------------------------------------------------

def _enemy_unit_hexes(state: FullGameState, side: str) -> set[str]:
    out = set()
    for u in state["units"].values():
        if u["side"] == side or u["steps"] <= 0:
            continue
        if u.get("leader"):
            h = fc.top_leader_hex(state, cast(str, u["leader"]))
        else:
            h = u.get("hex")
        if h:
            out.add(h)
    return out


def supply_points(state: FullGameState, side: str) -> list[str]:
    """Friendly supply sources, depots and wagons on the map (10.68's "supply source or relay")."""
    pts = list((state.get("sources") or {}).get(side, []))
    for sid, s in (state.get("logistics") or {}).items():
        if s.get("side") == side and s.get("kind") in ("depot", "wagon"):
            h = s.get("hex") or (fc.top_leader_hex(state, cast(str, s["leader"])) if s.get("leader") else None)
            if h:
                pts.append(h)
    return pts


@dataclass
class RetreatPlan:
    """The legal routes of one retreat and the one taken (10.68)."""

    side: str
    start: str
    hexes: int
    chooser: str
    routes: list[tuple[str, ...]] = field(default_factory=list)     # every allowed route
    route: tuple[str, ...] = ()
    zoc: tuple[str, ...] = ()
    eliminated: bool = False
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.68"
    why: str = ""


def plan_retreat(state: FullGameState, hexmap, side: str, start: str, hexes: int, *, chooser: str | None = None,
                 route: Sequence[str] | None = None, passable=None) -> RetreatPlan:
    """10.68: the allowed routes of ``hexes`` hexes from ``start`` for ``side``'s stack, and the one taken
    (``route`` if allowed, else the default: fewest enemy-ZOC hexes, then nearest a supply point)."""
    passable = passable or default_passable(hexmap)
    plan = RetreatPlan(side, start, hexes, chooser or side)
    blocked = _enemy_unit_hexes(state, side)
    zoc = set(enemy_zoc(state, hexmap, side))
    pts = [hexmap.parse(p) for p in supply_points(state, side)]

    def dist(label: str) -> int:
        h = hexmap.parse(label)
        return min((hex_distance(h, p) for p in pts), default=0)

    found: list[tuple[str, ...]] = []
    budget = [ROUTE_SEARCH_LIMIT]

    def walk(path: list[str]) -> None:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if len(path) == hexes + 1:
            found.append(tuple(path[1:]))
            return
        for n in neighbours(hexmap, path[-1]):
            if n in path or n in blocked or not passable(path[-1], n):
                continue
            walk(path + [n])

    walk([start])
    if not found:
        plan.eliminated = True
        plan.why = f"no route of {hexes} hex(es) from {start}: the stack is eliminated (10.68)"
        return plan
    fewest = min(sum(h in zoc for h in r) for r in found)
    allowed = [r for r in found if sum(h in zoc for h in r) == fewest]
    if pts:
        toward = [r for r in allowed if dist(r[-1]) < dist(start)]
        allowed = toward or allowed
    plan.routes = allowed
    best = min(allowed, key=lambda r: (dist(r[-1]), r))
    if route is not None:
        route = tuple(route)
        if route in allowed:
            best = route
        else:
            plan.problems.append(Problem(
                f"retreat route {'-'.join(route)} from {start} is not allowed (it must be {hexes} hex(es), enter "
                f"as few enemy-ZOC hexes as possible ({fewest}) and lead towards supply); the default is taken",
                "10.68", ["route", start]))
    plan.route = best
    plan.zoc = tuple(h for h in best if h in zoc)
    plan.why = (f"{side} retreats {hexes} hex(es) from {start} by {'-'.join(best)} (route chosen by {plan.chooser})"
                + (f", through enemy ZOC in {', '.join(plan.zoc)}" if plan.zoc else ""))
    return plan


# --- one target's combat (10.11, 10.6x) ----------------------------------------------------

@dataclass(frozen=True)
class Choices:
    """One side's choices for one combat; each has a default the referee applies."""

    artillery: bool | frozenset[str] = True             # leaders who use (and pay for) artillery (10.12)
    loss_order: tuple[str, ...] = ()                    # unit preference for the steps this side picks (10.63a)
    routes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # start hex -> route (10.68)
    refuse_retreat: str | None = None                   # 3.54b: the commander who gives up 1 ML
    advance: str | None = None                          # the force that advances (10.61d)
    advance_to: str | None = None                       # which vacated hex (a defender after a wave)
    advance_parts: tuple[str, ...] = ()                 # only these SLs / units advance
    artillery_loss: str | None = None                   # the leader who loses artillery (10.66)
    artillery_gain: str | None = None                   # the leader who takes captured artillery (10.66)


@dataclass
class Exchange:
    """One 1-vs-1 exchange of fire of a (wave) attack (10.11)."""

    wave: int
    assault: Assault
    attack: Fire | None = None
    defence: Fire | None = None
    cancelled: bool = False
    why: str = ""


if TYPE_CHECKING:
    class _Fired(Exchange):
        """An exchange not cancelled: both fires were made (10.11)."""

        attack: Fire
        defence: Fire


@dataclass
class Check:
    """A roll made while applying results (morale 10.65, casualty 10.67, artillery 10.66)."""

    kind: str
    who: str
    dice: tuple[int, ...]
    result: str
    rule: str
    why: str


@dataclass
class Combat:
    """One target's combat, resolved: every fire, the pooled results and the effects (10.6x)."""

    target: str
    attacker_side: str
    defender_side: str
    defenders: tuple[str, ...]
    exchanges: list[Exchange] = field(default_factory=list)
    inflicted: dict[str, int] = field(default_factory=dict)           # side -> FERT step losses inflicted
    retreat_totals: dict[str, int] = field(default_factory=dict)      # side -> retreat count suffered
    retreating: str | None = None
    retreat_hexes: int = 0
    ml_winner: str | None = None
    checks: list[Check] = field(default_factory=list)
    retreats: list[RetreatPlan] = field(default_factory=list)
    effects: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)     # why the combat was not resolved at all
    refused: list[Problem] = field(default_factory=list)      # choices refused: the default was applied
    stand_in: bool = True
    rule: str = "10.6"
    why: str = ""

    @property
    def fires(self) -> list[Fire]:
        return [f for x in self.exchanges for f in (x.attack, x.defence) if f is not None]

    def asp_paid(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.effects:
            if isinstance(e, SpendAsp):
                out[e.leader] = out.get(e.leader, 0) + e.points
        return out

    def losses(self, cause: str | None = None) -> list[StepLoss]:
        return [e for e in self.effects if isinstance(e, StepLoss) and (cause is None or e.cause == cause)]

    def lines(self) -> list[str]:
        """The combat for a report: every fire, every roll and every effect, with its rule."""
        out = [f"combat at {self.target}: {self.attacker_side} attacks {'/'.join(self.defenders)}"
               + (" (stand-in FERT)" if self.stand_in else "")]
        for x in self.exchanges:
            if x.cancelled:
                out.append(f"  wave {x.wave}: {x.why}")
                continue
            assert x.attack is not None and x.defence is not None      # not cancelled: both fired (10.11)
            out.append(f"  {x.attack.why}")
            out.append(f"  {x.defence.why}")
        out.append(f"  {self.why}")
        out += [f"  {c.why} ({c.rule})" for c in self.checks]
        out += [f"  {e.why} ({e.rule})" for e in self.effects if not isinstance(e, SpendAsp)]
        out += [f"  not resolved: {p.message} ({p.rule})" for p in self.problems]
        out += [f"  choice refused: {p.message} ({p.rule})" for p in self.refused]
        return out


def _defender_forces(state: FullGameState, target: str, side: str) -> list[str]:
    return [f for f in model.forces_in_hex(state, target, side) if model.units_of(state, f, side)]


def resolve_combat(state: FullGameState, hexmap, assaults: Sequence[Assault], dice, *, fert: Fert,
                   circumstances: Circumstances | None = None,
                   choices: Mapping[str, Choices] | None = None) -> Combat:
    """10.11, 10.6x: every Assault on one target, in the phasing player's order, then the results.

    ``state`` is not changed; apply the result with :func:`apply_combat`."""
    circ = circumstances or Circumstances()
    choices = dict(choices or {})
    if not assaults:
        raise ValueError("resolve_combat needs at least one Assault")
    target = assaults[0].target
    aside = model.force_side(state, assaults[0].attacker)
    dside = model.other_side(aside)
    ch = {aside: choices.get(aside, Choices()), dside: choices.get(dside, Choices())}
    defenders = tuple(_defender_forces(state, target, dside))
    c = Combat(target, aside, dside, defenders, stand_in=fert.stand_in)
    for i, a in enumerate(assaults):
        if a.target != target:
            c.problems.append(Problem(f"assault {i + 1} is on {a.target}, not {target}: one target per combat",
                                      "10.11", ["assaults", i]))
        if model.force_side(state, a.attacker) != aside:
            c.problems.append(Problem(f"{a.attacker} is not a {aside} force", "10.1", ["assaults", i]))
        elif model.force_hex(state, a.attacker) != a.source or a.target not in neighbours(hexmap, a.source):
            c.problems.append(Problem(f"{a.attacker} is not in {a.source} next to {a.target}", "10.1",
                                      ["assaults", i]))
    if not defenders:
        c.problems.append(Problem(f"no {dside} combat units in {target}", "10.1", ["target"]))
    if c.problems:
        c.why = "not resolved: " + "; ".join(p.message for p in c.problems)
        return c
    spent: dict[str, int] = {}
    wave = 0
    # 10.12a read by the 10.7 example: the defender pays before the first resolution, and that payment
    # covers every later wave: they fire with the ammunition as it stood then, paying nothing again
    first_spent: dict[str, int] | None = None
    for a in assaults:
        x = Exchange(wave + 1, a)
        probe = stack_strength(state, [a.attacker], role="attacker", side=aside)
        if probe.cancelled:
            x.cancelled, x.wave, x.why = True, 0, f"{a.attacker} on {target}: {probe.why}"
            c.exchanges.append(x)
            continue
        supports = (circ.supports.get(a.attacker, ()) if circ.supports is not None
                    else _auto_supports(state, hexmap, a, circ.targets))
        wave += 1
        x.wave = wave
        x.attack = fire(state, hexmap, fert, [a.attacker], defenders, firer_hex=a.source, fired_on_hex=target,
                        role="attack", wave=wave, dice=dice, hasty=a.hasty, artillery=ch[aside].artillery,
                        asp_spent=spent, circumstances=circ,
                        purpose=f"FERT {a.attacker} on {target} (attack {wave})")
        _spend(spent, x.attack.strength)
        covered = first_spent is not None
        if first_spent is None:
            first_spent = dict(spent)
        x.defence = fire(state, hexmap, fert, defenders, [a.attacker], firer_hex=target, fired_on_hex=a.source,
                         role="return", wave=wave, dice=dice, artillery=ch[dside].artillery, supports=supports,
                         asp_spent=first_spent, wave_covered=covered, circumstances=circ,
                         purpose=f"FERT {target} return fire on {a.attacker} (attack {wave})")
        _spend(spent, x.defence.strength)
        x.why = f"attack {wave}: {x.attack.cell.text} on {target}, {x.defence.cell.text} on {a.attacker}"
        c.exchanges.append(x)
    _Results(state, hexmap, c, ch, circ, dice).run()
    return c


def _spend(spent: dict[str, int], st: Strength) -> None:
    for p in st.asp:
        spent[p.leader] = spent.get(p.leader, 0) + p.points


def _auto_supports(state: FullGameState, hexmap, assault: Assault, targets: Sequence[str]) -> list:
    return supports_for(state, hexmap, assault, targets=targets)


@dataclass
class _Stack:
    """A stack of the combat, fixed at the start: its units and leaders (ids do not change)."""

    name: str
    side: str
    forces: tuple[str, ...]
    units: tuple[str, ...]
    leaders: tuple[str, ...]
    by_force: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]

    @classmethod
    def of(cls, state: FullGameState, forces: Sequence[str], side: str) -> "_Stack":
        by = {f: (tuple(model.units_of(state, f, side)), tuple(fc.force_leaders_of(state, f))) for f in forces}
        units = tuple(u for us, _ in by.values() for u in us)
        leaders = tuple(x for _, ls in by.values() for x in ls)
        return cls("/".join(forces), side, tuple(forces), units, leaders, by)


class _Results:
    """10.61-10.68 worked out on a copy of the state; every change is an effect in ``combat.effects``."""

    def __init__(self, state, hexmap, combat: Combat, choices, circ: Circumstances, dice):
        self.work = copy.deepcopy(state)
        self.hexmap, self.c, self.ch, self.circ, self.dice = hexmap, combat, choices, circ, dice
        self.taken: dict[str, int] = {}
        self.morale_retreats: dict[str, tuple[str, ...]] = {}     # unled stack -> the units that failed (3.52b)
        self.live = cast("list[_Fired]", [x for x in combat.exchanges if not x.cancelled])
        self.defender = _Stack.of(state, combat.defenders, combat.defender_side)
        self.attackers = [_Stack.of(state, [x.assault.attacker], combat.attacker_side) for x in self.live]

    def emit(self, e) -> None:
        apply_effect(e, self.work)
        self.c.effects.append(e)

    def ml_down(self, lid: str, rule: str, why: str) -> None:
        ml = self.work["leaders"][lid]["ml"]
        if ml > ML_MIN:
            self.emit(MlChange(lid, ml, ml - 1, rule, why))

    # -- the working copy --
    def units(self, st: _Stack, among: Iterable[str] | None = None) -> list[str]:
        pool = st.units if among is None else among
        return [u for u in pool if self.work["units"][u]["steps"] > 0]

    def leaders(self, st: _Stack, among: Iterable[str] | None = None) -> list[str]:
        pool = st.leaders if among is None else among
        return [x for x in pool if not self.work["leaders"][x].get("captured")
                and not self.work["leaders"][x].get("killed")]

    def oc(self, st: _Stack) -> str | None:
        return fc.senior_of(self.work, self.leaders(st))[0]

    def hex(self, st: _Stack) -> str | None:
        for u in self.units(st):
            unit = self.work["units"][u]
            h = fc.top_leader_hex(self.work, unit["leader"]) if unit.get("leader") else unit.get("hex")
            if h:
                return h
        return None

    def run(self) -> None:
        """10.61: the pooled results of every exchange, step by step in the rules' order."""
        c = self.c
        if not self.live:
            c.why = "every attacking OC is inactive: no combat (10.21)"
            return
        pairs = list(zip(self.live, self.attackers))
        self.spend_asp()
        self.step_losses(pairs)
        self.ml_rise()
        ocs = {st.name: self.oc(st) for st in [self.defender] + self.attackers}
        killed = self.leader_casualties(pairs)
        failed = self.morale_checks(pairs, ocs, killed)
        self.artillery_losses(pairs)
        winner, vacated = self.combat_retreat(pairs)
        c.why = (f"pooled: {c.defender_side} lost {c.inflicted[c.attacker_side]} step(s) and "
                 f"{c.retreat_totals[c.defender_side]} retreat; "
                 f"{c.attacker_side} lost {c.inflicted[c.defender_side]} and {c.retreat_totals[c.attacker_side]}; "
                 + (f"net: {c.retreating} retreats {c.retreat_hexes} hex(es)" if c.retreating
                    else "the retreat counts cancel: nobody retreats")
                 + (f"; {c.ml_winner} inflicted more losses: its leaders +1 ML" if c.ml_winner else ""))
        self.advance(winner, vacated)
        for st in failed:
            part = self._part(st, self.morale_retreats[st.name]) if st.name in self.morale_retreats else st
            if self.units(part):
                self.retreat(part, 1, "10.65", morale=True)

    def spend_asp(self) -> None:
        """10.12, 10.23: the ASP each fire paid for is spent."""
        for x in self.live:
            for f in (x.attack, x.defence):
                for p in f.strength.asp:
                    self.emit(SpendAsp(p.leader, p.points, p.rule,
                                       f"{self.name(p.leader)} spends {p.points} ASP ({p.purpose}, attack {x.wave})"))

    def step_losses(self, pairs: list[tuple[_Fired, _Stack]]) -> None:
        """10.62, 10.63, 10.63b: the pooled FERT step losses on the defender, each attacker's return-fire
        losses, then the leaders of forces wiped out are captured."""
        def_losses = sum(x.attack.cell.losses for x in self.live)
        self.lose(self.defender, def_losses, "fert", f"FERT, {len(self.live)} fire(s) pooled")
        for x, st in pairs:
            self.lose(st, x.defence.cell.losses, "fert", f"return fire, attack {x.wave}")
        for st in [self.defender] + self.attackers:
            self.capture_wiped(st)

    def ml_rise(self) -> None:
        """10.64: the side that inflicted more FERT step losses raises its leaders' ML by 1."""
        c, aside, dside = self.c, self.c.attacker_side, self.c.defender_side
        c.inflicted = {aside: sum(x.attack.cell.losses for x in self.live),
                       dside: sum(x.defence.cell.losses for x in self.live)}
        if c.inflicted[aside] == c.inflicted[dside]:
            return
        c.ml_winner = aside if c.inflicted[aside] > c.inflicted[dside] else dside
        stacks = self.attackers if c.ml_winner == aside else [self.defender]
        for st in stacks:
            for lid in self.leaders(st):
                ml = self.work["leaders"][lid]["ml"]
                if ml < ML_MAX:
                    self.emit(MlChange(lid, ml, ml + 1, "10.64",
                                       f"{self.name(lid)} +1 ML: his side inflicted {c.inflicted[c.ml_winner]} FERT step "
                                       f"losses to {c.inflicted[model.other_side(c.ml_winner)]}"))

    def leader_casualties(self, pairs: list[tuple[_Fired, _Stack]]) -> set[str]:
        """10.67: a natural 6 calls a casualty check on the leaders fired on (before the morale checks,
        10.65's exception); returns the leaders killed."""
        killed: set[str] = set()
        for x, st in pairs:
            if x.attack.casualty_check:
                killed |= self.casualties(st, x.attack)
            if x.defence.casualty_check:
                killed |= self.casualties(self.defender, x.defence)
        return killed

    def morale_checks(self, pairs: list[tuple[_Fired, _Stack]], ocs: dict[str, str | None],
                      killed: set[str]) -> list[_Stack]:
        """10.65: an asterisk calls a morale check on the stack fired on; returns the stacks that failed."""
        failed: list[_Stack] = []
        asterisk = any(x.attack.cell.morale for x in self.live)
        if asterisk and self.morale(self.defender, ocs[self.defender.name] in killed):
            failed.append(self.defender)
        for x, st in pairs:
            if x.defence.cell.morale and self.morale(st, ocs[st.name] in killed):
                failed.append(st)
        return failed

    def artillery_losses(self, pairs: list[tuple[_Fired, _Stack]]) -> None:
        """10.66: a natural 1 calls an artillery check on the firing stack."""
        for x, st in pairs:
            if x.attack.artillery_check:
                self.artillery(x.attack, st, self.defender)
            if x.defence.artillery_check:
                self.artillery(x.defence, self.defender, st)

    def combat_retreat(self, pairs: list[tuple[_Fired, _Stack]]) -> tuple[str | None, list[str]]:
        """10.61d, 10.62, 10.68: the net of the pooled retreat counts moves the losing side's stacks;
        returns the winner (who may advance) and the hexes vacated, counting stacks wiped out."""
        c, aside, dside = self.c, self.c.attacker_side, self.c.defender_side
        c.retreat_totals = {dside: sum(x.attack.cell.retreat for x in self.live),
                            aside: sum(x.defence.cell.retreat for x in self.live)}
        net = c.retreat_totals[dside] - c.retreat_totals[aside]
        winner: str | None = None
        vacated: list[str] = []
        if net:
            loser = dside if net > 0 else aside
            winner = model.other_side(loser)
            c.retreating, c.retreat_hexes = loser, abs(net)
            stacks = [self.defender] if loser == dside else self.attackers
            hexes = self.refuse(loser, abs(net), stacks)
            for st in stacks:
                h = self.hex(st)
                if hexes and h:
                    self.retreat(st, hexes, "10.61d", morale=False)
                    vacated.append(h)
        for st in [self.defender] + self.attackers:      # wiped out by losses: the hex is vacated too
            if not self.units(st) and st.side != winner:
                h = c.target if st is self.defender else next(x.assault.source for x, s in pairs if s is st)
                if h not in vacated:
                    vacated.append(h)
                winner = winner or model.other_side(st.side)
        return winner, vacated

    # -- the steps --
    def lose(self, st: _Stack, n: int, cause: str, what: str) -> None:
        if n <= 0:
            return
        enemy = model.other_side(st.side)
        units = self.units(st)
        picks = allocate_losses(self.work, units, n, owner_order=self.ch[st.side].loss_order,
                                enemy_order=self.ch[enemy].loss_order, taken=self.taken,
                                owner_only=cause != "fert")
        rule = {"fert": "10.63", "morale": "10.65", "zoc": "10.68", "blocked": "10.68"}[cause]
        for k, (u, who) in enumerate(picks, 1):
            chooser = st.side if who == "owner" else enemy
            self.emit(StepLoss(u, cause, who, rule, f"{unit_label(self.work, u)} loses a step: {what}, "
                                                    f"loss {k} of {n}, chosen by {chooser}"))
        if len(picks) < n:
            self.c.checks.append(Check("losses", st.name, (), "short", rule,
                                       f"{st.name} had only {len(picks)} step(s) for {n} loss(es)"))

    def capture_wiped(self, st: _Stack) -> None:
        for f, (units, leaders) in st.by_force.items():
            if units and not self.units(st, units):
                for lid in self.leaders(st, leaders):
                    hq = self.work["leaders"][lid].get("hq")
                    self.emit(Capture(lid, "10.63b", f"{self.name(lid)} is captured: every combat unit of "
                                                     f"{self.name(f)}'s force is eliminated; his artillery and "
                                                     "ASP are lost"
                                      + ("; his HQ goes to the Leader Pool" if hq else "")))

    def casualties(self, st: _Stack, f: Fire) -> set[str]:
        killed = set()
        for lid in self.leaders(st):
            d = self.dice.d6(f"leader casualty {lid}", by=st.side)
            faces: tuple[int, ...] = (d,)
            result = "killed" if d == 6 else "unhurt"
            if d == 5:
                d2 = self.dice.d6(f"wound {lid}", by=st.side)
                faces = (d, d2)
                result = "killed" if d2 == 6 else f"wounded {d2}"
            self.c.checks.append(Check("casualty", lid, faces, result, "10.67",
                                       f"natural 6 for {'/'.join(map(self.name, f.firer))}: {self.name(lid)} rolls "
                                       f"{'/'.join(map(str, faces))}: {result}"))
            if result == "killed":
                killed.add(lid)
                heir = self.heir(lid)
                brevet = self.cos_brevet(lid, heir)
                cos = heir is not None and heir == self.work["leaders"][lid].get("cos")
                self.emit(Kill(lid, heir, "in the Reorganization Segment" if self.circ.last_impulse or cos
                               else "now, for 10 WEP (10.67b)", "10.67" + (", 3.32b" if cos else ""),
                               f"{self.name(lid)} is killed; " + (f"{self.name(heir)} takes his command" if heir
                                                                  else "his units are unled")
                               + (f"; {self.name(heir)} is brevetted +{brevet} star(s) for 1 WEP (3.32b, 14.51)"
                                  if heir and brevet else ""), brevet=brevet))
            elif result.startswith("wounded"):
                self.emit(Wound(lid, faces[1], "10.67", f"{self.name(lid)} is wounded, level {faces[1]}: every "
                                                        f"rating -{faces[1]}"))
        return killed

    def name(self, force: str) -> str:
        """A leader's surname, or where an unled force stands."""
        return force_name(self.work["leaders"], force)

    def heir(self, lid: str) -> str | None:
        ld = self.work["leaders"][lid]
        cos = ld.get("cos")
        c = self.work["leaders"].get(cos) if cos else None
        if cos and c and not (c.get("killed") or c.get("captured") or c.get("removed")):
            return cos              # 3.32b: the Chief of Staff takes the army for the rest of the turn
        if ld.get("superior"):
            return ld["superior"]
        subs = [x for x, o in self.work["leaders"].items() if o.get("superior") == lid
                and not o.get("captured") and not o.get("killed")]
        return fc.senior_of(self.work, subs)[0]

    def cos_brevet(self, lid: str, heir: str | None) -> int:
        """3.32b: a Chief of Staff who takes the army of its killed commander and is too low in rank
        for it (3.31: 3 stars) is brevetted at once for 1 WEP, when the side has it; the stars the
        brevet marker adds (14.51)."""
        ld = self.work["leaders"][lid]
        if heir is None or heir != ld.get("cos"):
            return 0
        short = model.ARMY_MIN_STARS - model.rank(self.work["leaders"][heir])
        return short if short > 0 and self.work["wep"][ld["side"]] >= model.COS_BREVET_WEP else 0

    def morale(self, st: _Stack, oc_killed: bool) -> bool:
        """10.65: True when the check fails."""
        if not self.units(st):
            return False
        if oc_killed:
            self.c.checks.append(Check("morale", st.name, (), "ignored", "10.65",
                                       f"asterisk on {self.name(st.name)}: its OC was killed; the new OC ignores the check"))
            return False
        oc = self.oc(st)
        if oc is None:
            return self.unled_morale(st)
        else:
            d = self.dice.d6(f"morale check {oc}", by=st.side)
            ml = self.work["leaders"][oc]["ml"]
            passed, why, faces = d <= ml, f"{self.name(oc)} rolls {d} against ML {ml} (after 10.64)", (d,)
        self.c.checks.append(Check("morale", oc or st.name, faces, "passed" if passed else "failed", "10.65",
                                   f"asterisk on {self.name(st.name)}: {why}: {'passes' if passed else 'fails'}"))
        if passed:
            return False
        if oc is not None:
            self.ml_down(oc, "10.65", f"{self.name(oc)} -1 ML: failed morale check (3.53(3e))")
        self.lose(st, 1, "morale", "failed morale check")
        self.capture_wiped(st)
        return True

    def unled_morale(self, st: _Stack) -> bool:
        """3.52b, 10.65: in an unled stack every unit checks for itself ("each rolls and passes below
        its own inverted ML", the 3.52b example); a unit that fails loses 1 step itself, and the
        units that failed retreat 1 hex together (returned as :attr:`morale_retreats`).  There is
        no OC to lose ML.  True when some unit failed."""
        failed: list[str] = []
        if "3.52b" not in self.c.rule:
            self.c.rule += ", 3.52b"
        for u in self.units(st):
            ml = model.unit_ml(self.work["units"][u])
            r = fc.unled_check(ml, self.dice, f"morale check {st.name} {u}", by=st.side)
            self.c.checks.append(Check("morale", u, (r.roll,), "passed" if r.passed else "failed", "3.52b, 10.65",
                                       f"asterisk on {self.name(st.name)}: {unit_label(self.work, u)}: {r.why}: "
                                       f"{'passes' if r.passed else 'fails'}"))
            if not r.passed:
                failed.append(u)
        for u in failed:
            self.lose(self._part(st, [u]), 1, "morale", "failed its own morale check (3.52b)")
        self.capture_wiped(st)
        if failed:
            self.morale_retreats[st.name] = tuple(failed)
        return bool(failed)

    @staticmethod
    def _part(st: _Stack, units: Sequence[str]) -> _Stack:
        """Some unled units of a stack, as a stack of their own (3.52b: each checks for itself)."""
        mine = tuple(u for u in st.units if u in units)
        return _Stack(st.name, st.side, st.forces, mine, (), {f: (mine, ()) for f in st.forces})

    def artillery(self, f: Fire, st: _Stack, opponent: _Stack) -> None:
        users = [u for u in self.leaders(st, f.strength.artillery_users)
                 if self.work["leaders"][u].get("artillery", 0) > 0]
        if not users:
            self.c.checks.append(Check("artillery", st.name, (), "none used", "10.66",
                                       f"natural 1 for {self.name(st.name)}: it used no artillery, nothing to lose"))
            return
        d = self.dice.d6(f"artillery loss {st.name}", by=st.side)
        res = "lost" if d in (4, 5) else "captured" if d == 6 else "no effect"
        self.c.checks.append(Check("artillery", st.name, (d,), res, "10.66",
                                   f"natural 1 for {self.name(st.name)}: artillery check rolls {d}: {res}"))
        if d < 4:
            return
        want = self.ch[st.side].artillery_loss
        loser = want if want in users else max(users, key=lambda u: (self.work["leaders"][u]["artillery"], u))
        self.emit(ArtilleryChange(loser, -1, "10.66", f"{self.name(loser)} loses 1 artillery"
                                  + (", captured by the enemy" if d == 6 else "")))
        if d == 6:
            self.captured_artillery(opponent)

    def captured_artillery(self, opponent: _Stack) -> None:
        """10.66: the opponent adds the captured artillery to one of its leaders in the combat (its
        choice, else the OC), never to a cavalry corps that has its 2 (3.12): then the next leader
        of the stack takes it, and with none it is lost."""
        from .corps import artillery_room

        cand = self.leaders(opponent)
        oc = self.oc(opponent)
        want = self.ch[opponent.side].artillery_gain
        order = ([want] if want in cand else []) + ([oc] if oc is not None else []) + sorted(cand)
        full = [x for x in cand if artillery_room(self.work, x) == 0]
        gainer = next((x for x in order if x not in full), None)
        if full and (gainer is None or order[0] in full):
            self.c.checks.append(Check("artillery", opponent.name, (), "not taken", "10.66, 3.12",
                                       f"{order[0]} heads a cavalry corps with its 2 artillery (3.12): "
                                       + (f"{gainer} takes the captured artillery" if gainer
                                          else "nobody in the stack may take the captured artillery; it is lost")))
        if gainer is not None:
            self.emit(ArtilleryChange(gainer, 1, "10.66", f"{gainer} takes 1 captured artillery"))

    def refuse(self, side: str, hexes: int, stacks: list[_Stack]) -> int:
        who = self.ch[side].refuse_retreat
        if who is None:
            return hexes
        ocs = {self.oc(st) for st in stacks} - {None}
        ld = self.work["leaders"].get(who)
        if who not in ocs or ld is None or ld["ml"] < 1:
            self.c.refused.append(Problem(f"{who} cannot refuse the retreat: only the OC of a retreating stack "
                                           "with ML 1 or more may (3.54b)", "3.54b", ["refuse_retreat"]))
            return hexes
        self.emit(MlChange(who, ld["ml"], ld["ml"] - 1, "3.54b", f"{who} gives up 1 ML to cancel 1 hex of retreat"))
        return hexes - 1

    def retreat(self, st: _Stack, hexes: int, rule: str, morale: bool) -> None:
        start = self.hex(st)
        enemy = model.other_side(st.side)
        others = [self.defender] if st.side == self.c.attacker_side else self.attackers
        mine = sum(model.unit_cf(self.work["units"][u]) for u in self.units(st)
                   if self.work["units"][u]["arm"] == "cavalry")
        theirs = sum(model.unit_cf(self.work["units"][u]) for o in others for u in self.units(o)
                     if self.work["units"][u]["arm"] == "cavalry")
        chooser = enemy if theirs > mine else st.side
        plan = plan_retreat(self.work, self.hexmap, st.side, cast(str, start), hexes, chooser=chooser,
                            route=self.ch[chooser].routes.get(start))
        self.c.retreats.append(plan)
        self.c.refused += plan.problems
        oc = self.oc(st)
        if plan.eliminated:
            self.lose(st, sum(self.work["units"][u]["steps"] for u in self.units(st)), "blocked",
                      f"no retreat route from {start}, the stack is eliminated")
            self.capture_wiped(st)
            return
        if oc is not None and not morale:
            self.ml_down(oc, "3.53", f"{self.name(oc)} -1 ML: retreats by combat result (3.53(3c))")
        if plan.zoc:
            if oc is not None:
                self.ml_down(oc, "10.68", f"{self.name(oc)} -1 ML: retreats through enemy ZOC (once; 10.68, 3.53(3d))")
            self.lose(st, len(plan.zoc), "zoc", f"retreat through enemy ZOC in {', '.join(plan.zoc)}")
            self.capture_wiped(st)
        if self.units(st):
            self.move(st, plan.route[-1], self.leaders(st), None, rule, f"{self.name(st.name)} retreats: {plan.why}")

    def move(self, st: _Stack, to: str, leaders: Sequence[str], units: Sequence[str] | None, rule: str,
             why: str) -> None:
        if units is None:
            units = [u for u in self.units(st) if self.work["units"][u].get("leader") is None]
        moving = set(leaders)
        logi = [s for s, o in (self.work.get("logistics") or {}).items() if o.get("leader") in moving and o.get("hex")]
        self.emit(MoveStack(tuple(leaders), tuple(units), tuple(logi), to, rule, why))

    def advance(self, winner: str | None, vacated: list[str]) -> None:
        c = self.c
        for side in (c.attacker_side, c.defender_side):
            want = self.ch[side].advance
            if want is None:
                continue
            if side != winner or not vacated:
                c.refused.append(Problem(f"{side} did not make the enemy retreat and cannot advance", "10.61d",
                                          ["advance"]))
                continue
            mine = self.attackers if side == c.attacker_side else [self.defender]
            st = next((s for s in mine if want in s.forces and self.units(s)), None)
            if st is None:
                c.refused.append(Problem(f"{want} is not a surviving {side} force of this combat", "10.61d",
                                          ["advance"]))
                continue
            to = self.ch[side].advance_to or vacated[0]
            if to not in vacated or to in _enemy_unit_hexes(self.work, side):
                c.refused.append(Problem(f"{to} is not a hex vacated by the enemy in this combat", "10.61d",
                                          ["advance_to"]))
                continue
            parts = self.ch[side].advance_parts
            if parts:
                leaders = [x for p in parts if p in self.work["leaders"] for x in model.force_leaders(self.work, p)]
                units = [p for p in parts if p in self.work["units"]]
            else:
                leaders, units = self.leaders(st), None
            self.move(st, to, leaders, units, "10.61d", f"{want} advances after combat into {to}"
                      + (f" ({', '.join(parts)} only, no AP)" if parts else ""))
