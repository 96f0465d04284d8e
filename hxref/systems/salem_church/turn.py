"""A Salem Church player turn: resolving a side's orders (13.x-18.0, B, C); checking them before the
dice is :mod:`.orders_check`.

One signed orders file per side per turn.  The Union plays first (13.4);
each player turn is, in order (the sequence of the missing standard rules, digest D2/E):

1. the Union initiative roll from turn 7 (17.1), made when the turn before ends, at the start of
   the Union movement phase, before the Union writes his orders (:func:`open_union_turn`): his
   orders are checked and played against this turn's roll;
2. disrupted units of the phasing side not in enemy ZOC recover (stand-in, digest E);
3. replacements: up to 2 steps (13.2, 13.3): a reduced unit back to full, or an
   eliminated unit back reduced at an entry hex (stand-in procedure, digest E);
4. movement, unit by unit in the order given; reinforcements enter through the entry hex
   chosen for the turn (13.x); the wagon train (16.0); initiative checks (17.2); night (18.0);
5. combat (none at night, 18.0): the artillery's bombardments first (stand-in,
   :mod:`.bombardment`); then each declared attack in order -- the 17.3 check at Low
   Initiative, the CRT, the owners' choices from the standing orders, retreats, routs,
   captures, leader casualties and advance after combat; then the non-phasing side's
   counter-attacks (7.2 stand-in) as its standing orders say;
6. hex control by occupation or last passage (14.x).

The events name units by reference (:mod:`.narration`: :meth:`Turn.say`, the effects notes of
:meth:`Turn._settle`, the combat's own explanation); each is written for its audiences when the
resolution ends (:func:`.system.tell_events`), never redacted afterwards.

Orders (a choice)::

    entry: "0903"                      this turn's arrivals enter here (13.3: one hex for all)
    replacements: [{unit, hex?}]       at most 2 steps (hex: where an eliminated unit returns)
    moves: [{unit, path: [...], leader?}]     path = hexes entered; a unit arriving enters by
                                       the entry hex (first in its path, or alone if no path);
                                       the wagon train may end its path with "off" (16.0)
    bombard: [{unit, target: HEX}]     artillery fire, once per battery a turn (stand-in, :mod:`.bombardment`)
    attacks: [{attackers: [...], target: HEX, first?, losses?, advance?: true, choice?: retreat|disrupt|loss,
               hexes?: 1-3}]            first: the attacker's first unit, which makes its MCs (B2, 17.3);
                                       losses: its units in the order they lose steps (B2);
                                       choice/hexes: the attacker's answer if the result hits it
    standing: {choice: retreat|disrupt, loss: loss|retreat, hexes: 1-3, losses: [units],
               counter_attacks: [{units, target, first?}]}
                                       the side's answers during the enemy's next player turn
                                       (digest F2): Ar/Dr, Ax/Dx passed, retreat length, which
                                       unit loses a step first, and 7.2 counter-attacks

Readings (stand-ins where the standard rules are missing, digest D3/E; in games/salem_church/readings.md):

* the "first unit" (B2, 17.3) is the unit that makes a side's MC: the attack's ``first``, else
  the first attacker listed; it does not choose who loses a step;
* a step loss falls on the owner's ``losses`` order (an attacker's: the attack's ``losses``,
  then his standing ``losses``), else on the unit with the most steps and then the highest CF;
  a unit at its last step is eliminated;
* a retreat follows the safe path of the chosen length that ends farthest from the
  attacking units (ties: the lowest labels); with no safe path an unsafe one is taken and
  the unit routs: it ends disrupted and loses a step; with no path at all it is captured
  (eliminated, its steps lost);
* advance after combat: the attack's ``first`` unit (else the first attacker) enters the
  vacated hex when ``advance`` is true and the defenders retreated;
* a killed leader is removed for good; a leader left alone in a hex the enemy enters is
  captured (removed);
* a counter-attack (7.2) is made by non-phasing units adjacent to a phasing unit that were
  not attacked this phase, against an adjacent hex; the units of a cancelled Union attack's
  target (17.3) may counter-attack too.
"""
from __future__ import annotations

from dataclasses import replace as with_fields
from typing import TYPE_CHECKING, Mapping

from . import combat as cb
from . import counters as ct
from . import retreat as rt
from .crt import Crt
from . import board
from .board import fogged
from . import movement as mv
from .path_walk import check_path
from .narration import Line, Phrase, Ref, Seen, ident, joined, line, listing
from .narration import name as named
from .state_types import CombatRecord, SalemState, UnitRecord
from .views import journey, place
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...geometry.mapmodel import HexMap
    from ...kit.charts import Charts

SIDES = ("union", "confederate")
ORDER_KEYS = {"entry", "replacements", "moves", "bombard", "attacks", "standing"}
MOVE_KEYS = {"unit", "path", "leader"}
ATTACK_KEYS = {"attackers", "target", "first", "losses", "advance", "choice", "hexes"}
STANDING_KEYS = {"choice", "loss", "hexes", "losses", "counter_attacks"}
DEFAULT_STANDING = {"choice": "disrupt", "loss": "loss", "hexes": 1}   # stand-in answers (digest F2)
REPLACEMENTS = 2                                                       # 13.2, 13.3 (scenario data wins)
ROUT_HEXES = 3                     # stand-in: a routing unit goes the longest retreat (the rout rule is missing)


def other(side: str) -> str:
    return "confederate" if side == "union" else "union"


# --- small helpers -------------------------------------------------------------------------------

def on_map(u: Mapping) -> bool:
    return u.get("hex") is not None and int(u.get("steps", 0)) > 0


def units_in(state: SalemState, label: str, side: str | None = None) -> list[str]:
    return sorted(uid for uid, u in state["units"].items()
                  if on_map(u) and u["hex"] == label and (side is None or u["side"] == side))


def combat_units(state: SalemState, uids) -> list[str]:
    return [u for u in uids if state["units"][u]["type"] in ct.COMBAT_ARMS]


def current_cf(u: Mapping) -> int:
    full = int(u.get("cf") or 0)
    if int(u.get("steps", 0)) < int(u.get("full_steps", u.get("steps", 0))) and u.get("cf_reduced") is not None:
        return int(u["cf_reduced"])
    return full


def terrain_names(hexmap, label: str) -> set[str]:
    h = hexmap.parse(label)
    names = {hexmap.terrain(h).name} | set(hexmap.features(h))
    return {n for n in names if n in ct.TERRAIN} or {"clear"}


def as_unit(state: SalemState, hexmap, uid: str) -> ct.Unit:
    u = state["units"][uid]
    label = u["hex"]
    if label is None:
        raise ValueError(f"{uid} is not on the map: it takes no part in a combat (B1)")
    # 17.3: a leader carries his own modification; the MC of a unit stacked with him reads it off
    # the leader (:func:`.morale.morale_check`), so a brigade carries none of its own
    mod = int(u.get("leader_modifier") or 0) if u["type"] == "leader" else 0
    return ct.Unit(uid, u["side"], u["type"], current_cf(u), label, terrain_names(hexmap, label),
                   bool(u.get("disrupted")), u.get("morale"), mod)


def adjacent(hexmap, a: str, b: str) -> bool:
    from ...geometry.hex import distance

    return distance(hexmap.parse(a), hexmap.parse(b)) == 1


def due(rules: Mapping, side: str, turn: int) -> list[dict]:
    return [g for g in rules.get("reinforcements") or [] if g["side"] == side and int(g["turn"]) == turn]


def unseen_enemy(state: SalemState, hexmap: HexMap, side: str) -> set[str]:
    """The enemy units on the map ``side`` does not see (umpired line-of-sight play, :mod:`.views`)."""
    from .views import seen_now

    if not fogged(state):
        return set()
    seen = seen_now(state, hexmap, side)
    return {uid for uid, u in state["units"].items() if u.get("side") != side and on_map(u) and uid not in seen}


def sighted(state: SalemState, side: str, unseen: set[str]) -> SalemState:
    """The state as ``side`` sees it: the ``unseen`` enemy units off the map (a shallow copy)."""
    if not unseen:
        return state
    units: dict[str, UnitRecord] = {uid: ({**u, "hex": None} if uid in unseen else u)
                                    for uid, u in state["units"].items()}
    return {**state, "units": units}


def contact_cut(state: SalemState, hexmap, uid: str, path: list[str], leader, unseen: set[str]):
    """Where a path checked on the side's view runs into enemy units it did not see: the path
    cut there (before an occupied hex, D3; at the first hex of their ZOC, or before a step their
    nearness forbids: 16.0, 18.0) and the problem the true map gives, or (path, None)."""
    if not unseen or not path:
        return path, None
    view = sighted(state, state["units"][uid]["side"], unseen)
    full = check_path(state, hexmap, uid, path, leader=leader)
    if not full.problems:
        return path, None
    p = full.problems[0]
    i = p.path[-1] if p.path and isinstance(p.path[-1], int) else None
    if i is None or check_path(view, hexmap, uid, path[:i + 1], leader=leader).problems:
        return path, None          # not caused by the unseen units: the move is void as before
    return path[:i], p


def _copy_units(state: SalemState) -> SalemState:
    """The state with a copy of each unit's record, whose hex a check may change (the records are
    flat: the rest is shared, and read only)."""
    return {**state, "units": {uid: u.copy() for uid, u in state["units"].items()}}


def _entry_hex(rules: Mapping, side: str, turn: int, uid: str, entry, u: Mapping) -> str | None:
    if u.get("returning"):
        return str(u.get("return_hex")) if u.get("return_hex") else None
    groups = due(rules, side, turn)
    if u.get("delayed"):               # stand-in: a unit that could not enter comes in later by its group's hexes
        groups = [g for g in rules.get("reinforcements") or [] if uid in g["units"]]
    for g in groups:
        if uid in g["units"]:
            hexes = [str(h) for h in g["entry_hexes"]]
            if entry is not None and str(entry) in hexes:
                return str(entry)
            return hexes[0] if len(hexes) == 1 else None
    return None


# --- the start of a Union player turn -------------------------------------------------------------

def open_union_turn(state: SalemState, dice) -> list[Event]:
    """17.1: the start of the Union movement phase of ``state["turn"]``: from turn 7 the Union's
    initiative die, rolled before he writes his orders, so that ``check`` and the resolution judge
    them by this turn's roll; and 17.2: the leaders' checks of the last phase are forgotten (one
    per leader per Union movement phase, G7).  The events of the roll."""
    state["initiative_checks"] = {}
    turn = int(state["turn"])
    if turn < mv.INITIATIVE_FROM_TURN:
        return []
    r = mv.union_initiative(turn, Roller(dice, "union")(f"Union initiative turn {turn} (17.1)"))
    state["initiative"] = r.state
    state["initiative_turn"] = turn
    return [event("initiative", line(r.why), "17.1", side="union", initiative=r.state, turn=turn)]


# --- resolving ------------------------------------------------------------------------------------

class Roller:
    """The ``roll(purpose) -> face`` the rules are handed: rolled by the phasing side, read by
    ``visible_to`` (None: everyone); ``names_units`` tells :func:`.combat.die_purpose` whether a
    purpose may name the unit it is for."""

    def __init__(self, dice, by: str, *, names_units: bool = True, visible_to: list[str] | None = None) -> None:
        self.dice, self.by, self.names_units, self.visible_to = dice, by, names_units, visible_to

    def __call__(self, purpose: str) -> int:
        if self.visible_to is None:
            return self.dice.d6(purpose, by=self.by)
        return self.dice.d6(purpose, by=self.by, visible_to=self.visible_to)


class Turn:
    """One player turn being resolved: the state, the game's charts (its map, the CRT and the
    bombardment chart), the dice and the events."""

    def __init__(self, state: SalemState, rules: Mapping, charts: Charts, side: str, choice: dict, dice) -> None:
        self.state, self.rules, self.side, self.choice, self.dice = state, rules, side, choice, dice
        self.charts = charts
        self.hm = board.hexmap(charts, state)
        self.events: list[Event] = []
        self.paths: list[tuple[str, list[str]]] = []          # for hex control (14.x), in order
        self.attacked: set[str] = set()                       # 7.2: units attacked this phase
        self.fired: set[str] = set()                          # the batteries that bombarded this turn
        fog = fogged(state)
        # in line-of-sight play a die names no unit (both sides read it, one may not see the unit), and
        # the dice of a side's own moves are its own: the enemy learns of a move only by seeing it
        self.roll = Roller(dice, side, names_units=not fog)
        self.move_roll = Roller(dice, side, names_units=not fog, visible_to=[side] if fog else None)

    def say(self, kind: str, text: str | Line, rule: str, **extra) -> None:
        """An event of this turn; ``text`` names units by reference (:mod:`.narration`), written for
        each audience when the resolution ends."""
        self.events.append(event(kind, line(text), rule, side=self.side, **extra))

    def name(self, uid: str) -> Ref:
        """The unit named in narration: a reference its readers write as they see it."""
        return named(uid)

    # --- the sequence ---------------------------------------------------------------------------
    def play(self) -> None:
        st = self.state
        self.recover()
        self.replace()
        self.move()
        if mv.is_night(int(st["turn"])):
            self.say("night", f"turn {st['turn']} is a night turn: no combat (18.0)", "18.0")
        else:
            for b in self.choice.get("bombard", []):
                self.bombard(b)
            for a in self.choice.get("attacks", []):
                self.attack(a)
            self.counter_attacks()
        from .victory import update_control

        for ch in update_control(st, self.paths):
            self.say("control", _control_line(ch), ch.rule, hex=ch.hex, holder=ch.side)

    def recover(self) -> None:
        """Stand-in (digest E): the phasing side's disrupted units not in enemy ZOC recover."""
        zoc = mv.zoc_hexes(self.state, self.hm, other(self.side))
        for uid, u in sorted(self.state["units"].items()):
            if u["side"] == self.side and on_map(u) and u.get("disrupted") and u["hex"] not in zoc:
                u["disrupted"] = False
                self.say("recover", line(self.name(uid), " recovers from disruption (stand-in: not in enemy ZOC)"),
                         "D3")

    def replace(self) -> None:
        for r in self.choice.get("replacements", []):
            u = self.state["units"][r["unit"]]
            rule = "13.2" if self.side == "union" else "13.3"
            if int(u["steps"]) == 0:
                if str(r["hex"]) in {x["hex"] for x in self.state["units"].values()
                                     if on_map(x) and x["side"] != self.side}:
                    self.say("replacement.void", line(self.name(r["unit"]), f" cannot return at {r['hex']}: the "
                                                      "enemy holds it"), rule)
                    continue
                u.update({"steps": 1, "hex": str(r["hex"]), "disrupted": False})
                u.pop("eliminated", None)
                self.paths.append((r["unit"], [str(r["hex"])]))
                self.say("replacement", line(self.name(r["unit"]), f" returns reduced at {r['hex']}"), rule)
            elif int(u["steps"]) < int(u["full_steps"]):
                u["steps"] = int(u["steps"]) + 1
                self.say("replacement", line(self.name(r["unit"]), " is back to full strength"), rule)

    def move(self) -> None:
        """Movement, unit by unit: the ordered moves in the order given, then the units due this turn
        (13.x); each path walked (:func:`.path_walk.check_path`) on the true map."""
        ordered = {m["unit"]: m for m in self.choice.get("moves", [])}
        unseen = unseen_enemy(self.state, self.hm, self.side)          # the side's view when it wrote its orders
        for uid in self._movers(ordered):
            self._move_one(uid, ordered.get(uid, {"unit": uid}), unseen)

    def _movers(self, ordered: Mapping[str, dict]) -> list[str]:
        """13.x: the units that move: those ordered, then the units due this turn not ordered (and
        the delayed ones ordered, stand-in)."""
        st, turn = self.state, int(self.state["turn"])
        groups = due(self.rules, self.side, turn)
        arriving = [uid for g in groups for uid in g["units"] if st["units"][uid].get("hex") is None
                    and int(st["units"][uid]["steps"]) > 0]
        arriving += sorted(uid for uid, u in st["units"].items() if u.get("delayed") and u["side"] == self.side
                           and uid not in arriving and uid in ordered)
        return list(ordered) + [uid for uid in arriving if uid not in ordered]

    def _move_one(self, uid: str, m: Mapping, unseen: set[str]) -> None:
        """One unit's move: its path (from the entry hex, 13.x), cut short by unseen enemy units
        (contact, D3), walked, and its effects (16.0)."""
        st = self.state
        u = st["units"][uid]
        path = self._path_of(uid, m, u)
        if not path:
            return
        path, contact = contact_cut(st, self.hm, uid, path, m.get("leader"), unseen)
        if contact is not None and not path:
            self._contact(uid, path, contact)
            return
        mc = check_path(st, self.hm, uid, path, leader=m.get("leader"), roll=self.move_roll)
        if mc.problems:
            self._void_move(uid, u, mc)
            return
        start_hex = u.get("hex")
        self._moved(uid, u, mc)
        if contact is not None:
            self._contact(uid, path, contact)
        if mc.exit:
            self._wagon_exit(u, mc.exit, mc, start_hex)
        if mc.captures or (self.side == "confederate" and self._wagon_here(mc.hexes)):
            self._capture_wagon(uid)

    def _path_of(self, uid: str, m: Mapping, u: UnitRecord) -> list[str]:
        """13.x: the hexes entered; a unit off the map first enters by this turn's entry hex (none:
        it does not move)."""
        path = [str(x) for x in m.get("path") or []]
        if u.get("hex") is None:
            start = _entry_hex(self.rules, self.side, int(self.state["turn"]), uid, self.choice.get("entry"), u)
            if start is None:
                return []
            path = path if path and path[0] == start else [start] + path
        return path

    def _void_move(self, uid: str, u: UnitRecord, mc: mv.MoveCheck) -> None:
        """A move the true map refuses does not happen (D3); a unit that cannot come on may enter on
        a later turn (stand-in)."""
        if u.get("hex") is None:       # stand-in: it could not come on; it may enter on a later turn
            u["delayed"] = True
            self.say("entry.delayed", line(self.name(uid), " cannot enter (", mc.problem_line(), "): it may "
                                           "enter on a later turn (stand-in)"), mc.problems[0].rule)
            return
        self.say("move.void", line(self.name(uid), " does not move: ", mc.problem_line()), mc.problems[0].rule)

    def _moved(self, uid: str, u: UnitRecord, mc: mv.MoveCheck) -> None:
        """The unit moves: its leader's initiative check kept (17.2, one per phase), its hexes passed
        for hex control (14.x), the move told."""
        st = self.state
        u.pop("delayed", None)
        if mc.initiative is not None:
            st.setdefault("initiative_checks", {})[mc.initiative.leader] = mc.initiative.as_dict()
        start_hex = u.get("hex")
        u["hex"] = mc.end
        if mc.hexes:
            self.paths.append((uid, list(mc.hexes)))
        # each hex as the enemy saw it then (:func:`.views.journey`): a side is told only the
        # stretches of the path its units saw
        path = journey(st, self.hm, uid, start_hex, mc.hexes)
        self.say("move", line(self.name(uid), " ", path, " (", mc.stop_line, ")"), mc.rule, unit=uid, path=path)

    def _wagon_exit(self, u: UnitRecord, kind: str, mc: mv.MoveCheck, start_hex: str | None) -> None:
        """16.0: the wagon train leaves the map (for victory, 14.1, or to escape capture)."""
        st = self.state
        last = mc.hexes[-1] if mc.hexes else start_hex
        # the hex as each side saw it then: in umpired LOS play the Confederates are told where the
        # train left only when their units saw that hex (that it left, and for what, is public, F5)
        where = place(st, self.hm, self._wagon_id(), last, "at")
        where = with_fields(where, seen=where.seen | {str(u.get("side") or "union")}, left=True)  # its owner knows
        st["wagon"].update({"exited": kind, "hex": last, "seen_by": sorted(where.seen)})
        u["hex"] = None
        u["exited"] = kind
        self.say("wagon.exit", line("the wagon train leaves the map ", where, f" ({kind}, 16.0)"), "16.0")

    def _contact(self, uid: str, path: list[str], p) -> None:
        """A move runs into enemy units its side did not see: it stops short; they are in sight now
        (contact: a unit sees the hexes next to it, :mod:`.views`)."""
        end = path[-1] if path else self.state["units"][uid].get("hex")
        self.events.append(event("contact",
                                 line(self.name(uid), " runs into enemy units it had not seen: its move stops "
                                      f"in {end} ({p.rule})"), p.rule, side=self.side, visible_to=[self.side]))

    def _wagon_id(self) -> str:
        """16.0: the train's unit id, as the scenario names it (``wagon_train.unit``, kept at the top
        of the state by :meth:`.system.SalemChurch.setup`, not among the rules)."""
        return str(self.state.get("wagon_unit") or "wagon-train")

    def _wagon_here(self, hexes) -> bool:
        w = self.state["units"].get(self._wagon_id())
        return bool(w and on_map(w) and w["hex"] in set(hexes))

    def _capture_wagon(self, by: str) -> None:
        wid = self._wagon_id()
        w = self.state["units"][wid]
        self.state["wagon"].update({"captured": True, "hex": w["hex"]})
        w.update({"hex": None, "steps": 0, "captured": True})
        self.say("wagon.captured", line(self.name(by), " captures the Union wagon train (16.0)"), "16.0")

    # --- combat ---------------------------------------------------------------------------------
    def bombard(self, b: Mapping) -> None:
        """A battery's bombardment (stand-in, :mod:`.bombardment`): checked again on the true map
        (its own move may have been cut short), the die, and its result on the enemy combat units
        in the target hex: disrupted, or one step lost (the owner's ``losses`` order first)."""
        from ...base.errors import IllegalOrder
        from . import bombardment as bo

        st = self.state
        attacking = {u for a in self.choice.get("attacks", []) for u in a.get("attackers") or []}
        try:
            res = bo.resolve(st, self.hm, self.side, b, self.roll, fired=self.fired, attacking=attacking,
                             chart=bo.BombardmentChart.load(self.charts),
                             low_initiative=mv.initiative_state(st) == "low")
        except IllegalOrder as exc:
            self.events.append(event("bombardment.void",
                                     line(self.name(str(b.get("unit"))), f" does not bombard {b.get('target')}: "
                                          f"{exc.message}"), exc.rule or "bombardment", side=self.side))
            return
        self.fired.add(res.unit)
        notes: list[Line] = []
        if res.result == "disrupt":
            for uid in res.hits:
                st["units"][uid]["disrupted"] = True
            notes.append(line(listing(self.name(u) for u in res.hits), " disrupted"))
        elif res.result == "step":
            self._lose_steps(other(self.side), list(res.hits), 1, notes)
        text = line(Phrase(res.told, res.units), *(["; ", joined(notes)] if notes else []))
        self.events.append(event("bombardment", text, res.rule, side=self.side,
                                 explain=Phrase(res.explanation, res.units),
                                 effects=joined(notes) if notes else line("no effect")))

    def attack(self, a: dict, *, counter: bool = False, side: str | None = None) -> None:
        """An attack (B1; a counter-attack, 7.2): the units engaged, the combat (the 17.3 check at Low
        Initiative, the CRT), its effects on both sides, and the record of the turn."""
        st = self.state
        side = side or self.side
        target = str(a["target"])
        rule = "7.2" if counter else "B1"
        attackers, defenders = self._engaged(a, side, target)
        if not combat_units(st, attackers) or not combat_units(st, defenders):
            self.events.append(event("attack.void",
                                     line(f"attack on {target} void: no attacking unit next to it or no enemy "
                                          "combat unit in it"), rule, side=side))
            return
        self.attacked.update(defenders)
        res = self._combat(a, side, counter, attackers, defenders, target, rule)
        if res is None:
            return
        record: CombatRecord = {"turn": st["turn"], "side": side, "counter": counter, "attackers": attackers,
                                "target": target, "defenders": defenders, "attack": res.attack.total,
                                "defence": res.defence.total, "differential": res.differential,
                                "column": res.column, "die": res.die,
                                "result": res.result.code if res.result else ("cancelled" if res.cancelled else None)}
        # the combat's narration, for each reader as he sees the units (:mod:`.narration`)
        why, explain = Phrase(res.told, res.units), Phrase(res.explanation, res.units)
        if res.cancelled:
            cancelled = line("cancelled (17.3)")
            record["effects"] = cancelled.data()
            st.setdefault("combats", []).append(record)
            # the turn's brief reads the same fields as of a combat fought (the hex, the units, the effects)
            self.events.append(event("combat", line(why), "17.3", side=side, explain=explain, target=target,
                                     counter=counter, attackers=listing(map(named, attackers)),
                                     defenders=listing(map(named, defenders)), effects=cancelled))
            st.setdefault("cancelled_targets", []).append(target)
            return
        notes = self._effects(res, a, side, counter, attackers, defenders, target)
        effects = joined(notes) if notes else line("no effect")
        record["effects"] = effects.data()
        st.setdefault("combats", []).append(record)
        self.events.append(event("combat",
                                 line(f"{'counter-attack' if counter else 'attack'} on {target}: ", why, "; ",
                                      effects), rule, side=side, explain=explain, target=target, counter=counter,
                                 attackers=listing(map(named, attackers)), defenders=listing(map(named, defenders)),
                                 effects=effects))

    def _engaged(self, a: Mapping, side: str, target: str) -> tuple[list[str], list[str]]:
        """B1: the attacking units on the map next to the target hex, and the enemy units in it; with
        the attackers, the leaders of their side stacked with them, named or not (17.3: the first
        unit's MC takes the modification of a leader stacked with it; G11: the Leader line rolls
        for the leaders with the units in the combat)."""
        st, hm = self.state, self.hm
        attackers = [u for u in a["attackers"] if on_map(st["units"][u]) and st["units"][u]["side"] == side
                     and adjacent(hm, str(st["units"][u]["hex"]), target)]
        hexes = {str(st["units"][u]["hex"]) for u in combat_units(st, attackers)}
        attackers += [lid for h in sorted(hexes) for lid in units_in(st, h, side)
                      if st["units"][lid]["type"] == "leader" and lid not in attackers]
        return attackers, units_in(st, target, other(side))

    def _combat(self, a: Mapping, side: str, counter: bool, attackers: list[str], defenders: list[str],
                target: str, rule: str) -> cb.Combat | None:
        """The combat resolved (:func:`.combat.resolve`: 17.3 at Low Initiative, the CRT), or None when
        the rules forbid it (night, heavy woods): the attack is void."""
        st, hm = self.state, self.hm
        low = side == "union" and not counter and mv.initiative_state(st) == "low"
        try:
            return cb.resolve([as_unit(st, hm, u) for u in attackers], [as_unit(st, hm, u) for u in defenders],
                              self.roll, crt=Crt.load(self.charts), turn=int(st["turn"]), counter_attack=counter,
                              union_low_initiative=low, first_attacker=a.get("first"))
        except Exception as exc:          # IllegalOrder: a combat the rules forbid (night, heavy woods)
            why = Phrase(exc.told, exc.units) if isinstance(exc, ct.CombatRefused) else str(exc)
            self.events.append(event("attack.void", line(f"attack on {target} void: ", why),
                                     getattr(exc, "rule", rule) or rule, side=side))
            return None

    def _effects(self, res: cb.Combat, a: Mapping, side: str, counter: bool, attackers: list[str],
                 defenders: list[str], target: str) -> list[Line]:
        """The CRT result applied (B2): the attacker's side, the defender's (their standing orders),
        the leader casualties (17.3), then the advance after combat (CRT key)."""
        eff = res.effects
        assert eff is not None, "a combat not cancelled has its effects planned (B1)"
        notes: list[Line] = []
        notes += self._settle(eff.attacker, attackers, side, a, target)
        notes += self._settle(eff.defender, defenders, other(side), self._standing(other(side)), target,
                              attackers=attackers)
        self._leader_casualties(eff.leaders, notes)
        if a.get("advance") and not counter:
            self._advance(a, side, attackers, target, notes)
        return notes

    def _leader_casualties(self, leaders, notes: list[Line]) -> None:
        """17.3: a leader killed is removed for good."""
        st = self.state
        for lc in leaders:
            if lc.killed:
                lu = st["units"].get(lc.leader)
                if lu is not None:
                    lu.update({"steps": 0, "hex": None, "killed": True})
                    notes.append(line(self.name(lc.leader), " killed"))

    def _advance(self, a: Mapping, side: str, attackers: list[str], target: str, notes: list[Line]) -> None:
        """Advance after combat (CRT key): the ``first`` unit, else the first attacker, enters the hex
        the defenders retreated from, when it is empty of them."""
        st = self.state
        if self._defender_retreated and not units_in(st, target, other(side)):
            live = [u for u in combat_units(st, attackers) if on_map(st["units"][u])]
            lead = a.get("first") if a.get("first") in live else (live[0] if live else None)
            if lead is not None:
                st["units"][lead]["hex"] = target
                self.paths.append((lead, [target]))
                notes.append(line(self.name(lead), " advances ", place(st, self.hm, lead, target, "into")))

    _defender_retreated = False

    def _standing(self, side: str) -> dict:
        return {**DEFAULT_STANDING, **((self.state.get("standing_orders") or {}).get(side) or {})}

    def _settle(self, effect: cb.SideEffect, uids: list[str], side: str, answers: Mapping, target: str,
                attackers: list[str] | None = None) -> list[Line]:
        """Apply one side's effect (B2, CRT key): the owner's choice, disruption, step losses, then
        retreats (paths chosen here), routs and captures, and the leaders left alone with the enemy."""
        st, hm = self.state, self.hm
        if attackers is not None:
            self._defender_retreated = False
        choice = _owner_choice(effect.choices, answers)
        hexes = int(answers.get("hexes") or 1)
        live = [u for u in uids if on_map(st["units"][u])]
        units = [as_unit(st, hm, u) for u in live]
        away_from = [st["units"][u]["hex"] for u in (attackers or []) if on_map(st["units"][u])] or [target]
        paths: dict[str, list[str] | None] = {}

        def status(uid: str, n: int):
            opts = rt.retreat_status(st, hm, uid, n)
            best = _best_path(hm, opts.safe or opts.unsafe, away_from)
            paths[uid] = best
            return opts.status

        s = cb.settle(effect, units, choice=choice, hexes=hexes if choice == "retreat" else None, path=status)
        notes: list[Line] = []
        for uid in s.disrupted:
            st["units"][uid]["disrupted"] = True
        if s.disrupted:
            notes.append(line(listing(self.name(u) for u in s.disrupted), " disrupted"))
        self._lose_steps(side, live, s.steps_lost, notes, losses=answers.get("losses"))
        for uid, fate in s.fates.items():
            if on_map(st["units"][uid]):
                self._fate(uid, fate, side, paths, away_from, notes, defending=attackers is not None)
        if attackers is not None:
            self._leaders_left(target, side, live, notes)
        return notes

    def _fate(self, uid: str, fate: ct.Fate, side: str, paths: dict[str, list[str] | None], away_from: list,
              notes: list[Line], *, defending: bool) -> None:
        """CRT key: a unit retreats along its path; with none it is captured; a rout (Dm failed,
        stand-in) goes as far as it can, ends disrupted and loses a step."""
        st, hm = self.state, self.hm
        u = st["units"][uid]
        if fate is ct.Fate.ROUT and uid not in paths:       # Dm failed: a rout, as far as it can
            opts = rt.retreat_status(st, hm, uid, ROUT_HEXES)
            paths[uid] = _best_path(hm, opts.safe or opts.unsafe, away_from)
        path = paths.get(uid)
        if fate is ct.Fate.CAPTURED or not path:
            u.update({"steps": 0, "hex": None, "captured": True})
            notes.append(line(self.name(uid), " captured (no retreat)"))
            return
        u["hex"] = path[-1]
        self.paths.append((uid, list(path)))
        if fate is ct.Fate.ROUT:
            u["disrupted"] = True
            self._lose_steps(side, [uid], 1, notes)
            where = place(st, self.hm, uid, u["hex"], "to") if on_map(u) else "to destruction"
            notes.append(line(self.name(uid), " routs ", where, " (stand-in: disrupted, one step lost)"))
        else:
            notes.append(line(self.name(uid), " retreats ", place(st, self.hm, uid, u["hex"], "to")))
            if defending:
                self._defender_retreated = True

    def _leaders_left(self, target: str, side: str, live: list[str], notes: list[Line]) -> None:
        """Leaders left alone with the enemy in the defenders' hex follow their men, or are captured
        (CRT key, a reading: the standard rules on leaders are missing, digest E)."""
        st = self.state
        for uid in units_in(st, target, side):
            if st["units"][uid]["type"] == "leader" and not combat_units(st, units_in(st, target, side)):
                dest = next((st["units"][x]["hex"] for x in live if on_map(st["units"][x])
                             and st["units"][x]["hex"] != target), None)
                if dest:
                    st["units"][uid]["hex"] = dest
                    notes.append(line(self.name(uid), " goes with his men ", place(st, self.hm, uid, dest, "to")))
                else:                # no unit of his left to go with: the enemy takes him
                    st["units"][uid].update({"steps": 0, "hex": None, "captured": True})
                    notes.append(line(self.name(uid), " is left alone with the enemy and captured"))

    def _lose_steps(self, side: str, uids: list[str], n: int, notes: list[Line], losses: list | None = None) -> None:
        """B2: ``n`` steps lost by ``uids``, one at a time, on the owner's order: ``losses`` (an
        attack's own), then his standing ``losses``, else the unit with the most steps, then CF."""
        st = self.state
        standing = ((st.get("standing_orders") or {}).get(side) or {}).get("losses") or []
        order = [u for u in [*(losses or []), *standing] if u in uids]
        for _ in range(n):
            alive = combat_units(st, [u for u in uids if on_map(st["units"][u])])
            if not alive:
                return
            pick = next((u for u in order if u in alive), None) or max(
                alive, key=lambda u: (int(st["units"][u]["steps"]), current_cf(st["units"][u]), u))
            u = st["units"][pick]
            u["steps"] = int(u["steps"]) - 1
            if u["steps"] <= 0:
                u.update({"hex": None, "eliminated": True})
                notes.append(line(self.name(pick), " eliminated"))
            else:
                notes.append(line(self.name(pick), " loses a step"))

    def counter_attacks(self) -> None:
        """7.2 (stand-in): the non-phasing side's standing counter-attacks, by units not attacked."""
        st = self.state
        them = other(self.side)
        for c in ((st.get("standing_orders") or {}).get(them) or {}).get("counter_attacks") or []:
            units = [u for u in c["units"] if u not in self.attacked and on_map(st["units"][u])]
            if not units:
                continue
            self.attack({"attackers": units, "target": c["target"], "first": c.get("first")}, counter=True,
                        side=them)


def _owner_choice(offered, answers: Mapping) -> str | None:
    """B2: the owner's answer to a result that offers a choice (Ar/Dr: retreat or disrupt; Ax/Dx
    passed: loss or retreat), from his orders or standing orders, else the first offered."""
    if not offered:
        return None
    wanted = answers.get("choice") if "disrupt" in offered else answers.get("loss")
    if "loss" in offered and wanted not in offered:
        wanted = answers.get("choice") if answers.get("choice") in offered else None
    return wanted if wanted in offered else offered[0]


def _control_line(ch) -> Line:
    """:attr:`.victory.ControlChange.why`, naming the unit by reference (14.1, 14.2)."""
    from .victory import SIDE_NAMES

    was = f"{SIDE_NAMES.get(ch.previous, ch.previous)}" if ch.previous else "nobody's"
    # how the unit took it says where it is or went: only a reader who sees the unit reads it
    return line(f"{ch.hex}: {SIDE_NAMES[ch.side]} (", Seen(ch.unit, line(ident(ch.unit), f" {ch.how} it; ")),
                f"was {was}) [{ch.rule}]")


def _best_path(hexmap, paths, away_from) -> list[str] | None:
    """The retreat path ending farthest from the attackers; ties by the lowest labels."""
    if not paths:
        return None
    from ...geometry.hex import distance

    def far(p):
        end = hexmap.parse(p[-1])
        return (-min(distance(end, hexmap.parse(a)) for a in away_from), p)

    return min(paths, key=far)
