"""Cavalry reconnaissance and screening: rules 8.6, 8.61, 8.62 (with 3.12, 3.61, 3.71).

Pure functions returning dataclass results (rule numbers and ``why``);
``apply_...`` functions change the state they are given.

State keys read and written (besides :mod:`.model`'s)::

    leaders[id]["cavalry_corps"]: true   the force he heads is a cavalry corps (3.12; as in .imc)
    leaders[id]["screen"]: true          the corps shows its "Screen" side (8.62a)
    units[id]["screening"]: true         a cavalry unit of a leader's force sits on top of his
                                         counter as a basic screen (8.62)
    leaders[id]["hidden"]: true          the force he heads moves hidden (8.62a); the true hex
                                         stays in ``hex`` (the referee's copy, umpired games)
    units[id]["hidden"]: true            the same for unled units
    current.recon: {unit or corps id: attempts}   recon attempts made this impulse (8.61,
                                         8.61b); the impulse engine clears it (:func:`reset_recon`)
    current.reconned: [unit or corps id]  units/corps that reconned this impulse: no screen (8.6)

Readings chosen where the rules are ambiguous (pinned by ``tests/heartland/test_cavalry.py``):

* 3.12/8.62: a cavalry corps is an independent leader on the map with ``cavalry_corps``
  who heads no SL and whose box is cavalry only; its size is its living cavalry units.
  At most 2 per side *at any one time*; at most 2 artillery (kept in play by :mod:`.corps`).
* 8.61 who: a cavalry unit of a force headed by an active leader, or an unled cavalry
  unit (8.1: recon is an impulse action).  Each cavalry unit makes at most one attempt
  per impulse, against a hex adjacent to its own (H-22: two units, two attempts).  An
  attempt names the units making it and adds their number (8.61a "the number of
  cavalry units trying"), so one unit per attempt gives +1.
* 8.61b/8.62b corps: range and attempts = its size; each attempt adds its size (H-22:
  3 units -> range 3, 3 attempts, +3); targets at distance 1..size.
* 8.61a defender: 1d6 + the basic screening cavalry units in the target hex + the size
  of any cavalry corps in the target hex (8.62b: a corps resisting recon, screening or
  not).  A search (8.61c) is resisted by the largest enemy screening corps whose screen
  range reaches into the search range.
* 8.61a ties: the recon fails (the recon side is not "higher").
* "number of units": the enemy's living combat units in the hex, in boxes and unled;
  0 is reported as "none".  A search reveals every hidden enemy force within range.
* 8.6: a screening unit or corps may not recon unless the order ends its screen
  (``end_screen``), and a unit or corps that reconned may not screen that impulse.
* 8.61 ZOC: the exception covers a cavalry-only force that makes an attempt from the
  ZOC hex it entered: it neither stops nor checks, whatever the result; it still may not
  move from one enemy-ZOC hex to another, and an inactive force may not enter enemy ZOC.
* 8.62a: the friendly forces within a screening corps' range (distance <= size from
  the corps' hex), not themselves a corps, not in enemy ZOC, may move hidden.
* 8.62a reveal: a hidden force appears when it ends a step outside every screen, when
  it enters (or stands in) enemy ZOC ([translator]), or when enemy recon finds it.
* 8.62 / 8.62c: a leader with a basic screen on top of him or standing on a friendly
  entrenchment (``entrenchments`` from :mod:`.reorganization`) shows his name but not
  his ratings.  A screening corps' own ratings are not hidden by its screen.
* Open games (no referee holds the secret): the owner plots each hidden force's hex
  with :func:`plot_commitment` every impulse and opens them when the force appears
  (:mod:`.hidden_open`, which checks the opened plots).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterable, cast

from .state_types import FullGameState, Turn
from ...crypto import commit
from ...geometry.hex import distance
from ..base import Problem
from . import model
from . import zoc as zc
from .counters import top_counters

# --- the cavalry corps (3.12, 8.62) -------------------------------------------------------------

def _cav_units(state: FullGameState, force_id: str) -> list[str]:
    return [u for u in model.units_of(state, force_id) if state["units"][u]["arm"] == "cavalry"]


def is_corps(state: FullGameState, force_id: str) -> bool:
    """3.12: an independent leader flagged ``cavalry_corps``, heading no SL (a field command, 3.11b),
    whose force is cavalry only (the limits in play: :mod:`.corps`)."""
    if model.is_unled(force_id) or force_id not in state["leaders"]:
        return False
    ld = state["leaders"][force_id]
    if not ld.get("cavalry_corps") or ld.get("superior") or ld.get("pool") or not ld.get("hex"):
        return False
    if model.subordinates(state, force_id):
        return False
    units = model.units_of(state, force_id)
    return bool(units) and all(state["units"][u]["arm"] == "cavalry" for u in units)


def corps_size(state: FullGameState, lid: str) -> int:
    """8.61b, 8.62a/b: a corps' recon range, recon attempts, screen range and bonus."""
    return len(_cav_units(state, lid)) if is_corps(state, lid) else 0


def corps_of(state: FullGameState, side: str) -> list[str]:
    return [f for f in model.forces(state, side) if is_corps(state, f)]


def screening_corps(state: FullGameState, side: str) -> list[str]:
    """8.62a: the corps of ``side`` on their "Screen" side."""
    return [c for c in corps_of(state, side) if state["leaders"][c].get("screen")]


# --- screening and hidden movement (8.62) -------------------------------------------------------

def _dist(hexmap, a: str, b: str) -> int:
    return distance(hexmap.parse(a), hexmap.parse(b))


def _force_hidden(state: FullGameState, force_id: str) -> bool:
    if model.is_unled(force_id):
        units = model.units_of(state, force_id)
        return bool(units) and all(state["units"][u].get("hidden") for u in units)
    return bool(state["leaders"][force_id].get("hidden"))


def hidden_forces(state: FullGameState, side: str) -> set[str]:
    """The forces of ``side`` now moving hidden (8.62a)."""
    return {f for f in model.forces(state, side) if _force_hidden(state, f)}


def _screens_covering(state: FullGameState, hexmap, side: str, label: str) -> list[str]:
    return [c for c in screening_corps(state, side)
            if _dist(hexmap, cast(str, state["leaders"][c]["hex"]), label) <= corps_size(state, c)]


def screened_forces(state: FullGameState, hexmap, side: str) -> set[str]:
    """8.62a: ``side``'s forces that may move hidden now: within a screening corps' range,
    not a corps themselves and not in enemy ZOC ([translator])."""
    enemy_zoc = zc.zoc_hexes(state, model.other_side(side), hexmap)
    out = set()
    for f in model.forces(state, side):
        if is_corps(state, f):
            continue
        here = model.force_hex(state, f)
        if here in enemy_zoc:
            continue
        if _screens_covering(state, hexmap, side, here):
            out.add(f)
    return out


@dataclass
class Hide:
    force: str
    side: str
    hex: str
    corps: list[str]
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.62a"
    why: str = ""


def hide(state: FullGameState, hexmap, force_id: str) -> Hide:
    """8.62a: take ``force_id`` off the map (its hex is plotted / kept by the referee)."""
    side = model.force_side(state, force_id)
    here = model.force_hex(state, force_id)
    h = Hide(force_id, side, here, _screens_covering(state, hexmap, side, here))
    if is_corps(state, force_id):
        h.problems.append(Problem(f"{force_id} is a cavalry corps: a corps is never hidden", "8.62a", ["force"]))
    elif force_id not in screened_forces(state, hexmap, side):
        h.problems.append(Problem(f"{force_id} in {here} is not within the screen range of a screening "
                                  "cavalry corps, or stands in enemy ZOC", "8.62a", ["force"]))
    h.why = (f"not hidden: {h.problems[0].message}" if h.problems else
             f"{force_id} moves hidden under the screen of {', '.join(h.corps)} (plotted in {here})")
    return h


def apply_hide(state: FullGameState, h: Hide) -> None:
    if h.problems:
        raise ValueError("cannot apply an illegal hide: " + h.why)
    _set_hidden(state, h.force, True)


def _set_hidden(state: FullGameState, force_id: str, value: bool) -> None:
    if model.is_unled(force_id):
        for u in model.units_of(state, force_id):
            if value:
                state["units"][u]["hidden"] = True
            else:
                state["units"][u].pop("hidden", None)
    elif value:
        state["leaders"][force_id]["hidden"] = True
    else:
        state["leaders"][force_id].pop("hidden", None)


@dataclass
class Reveal:
    """A hidden force appears on the map (public): where, how many units and why."""

    force: str
    side: str
    hex: str
    units: int
    reason: str                 # "left screen" | "enemy zoc" | "recon" | "screen ended" | "contact"
    rule: str = "8.62a"
    why: str = ""


def must_reveal(state: FullGameState, hexmap, force_id: str, *, at: str | None = None, recon: "Recon | None" = None,
                enemy_zoc: Iterable[str] | None = None) -> Reveal | None:
    """8.62a / 8.61a,c: must hidden ``force_id`` appear (standing in ``at``, default its hex)?

    It must when found by the successful ``recon``, when ``at`` is in enemy ZOC
    ([translator]), or when ``at`` is outside every friendly screening corps' range."""
    if not _force_hidden(state, force_id):
        return None
    side = model.force_side(state, force_id)
    here = at or model.force_hex(state, force_id)
    n = len(model.units_of(state, force_id))
    if recon is not None and recon.success and any(r.force == force_id for r in recon.reveals):
        return Reveal(force_id, side, here, n, "recon", "8.61a" if not recon.search else "8.61c",
                      f"{force_id} in {here} is found by {recon.by}'s recon and appears ({n} units)")
    zoc = set(enemy_zoc) if enemy_zoc is not None else set(zc.zoc_hexes(state, model.other_side(side), hexmap))
    if here in zoc:
        return Reveal(force_id, side, here, n, "enemy zoc", "8.62a",
                      f"{force_id} enters enemy ZOC in {here} and appears at once ([translator] 8.62a)")
    if not _screens_covering(state, hexmap, side, here):
        return Reveal(force_id, side, here, n, "left screen", "8.62a",
                      f"{force_id} in {here} is outside every screening corps' range and must appear")
    return None


def reveals_now(state: FullGameState, hexmap, side: str) -> list[Reveal]:
    """Every hidden force of ``side`` that must appear now (after a corps moves, ends its screen...)."""
    out = []
    for f in sorted(hidden_forces(state, side)):
        r = must_reveal(state, hexmap, f)
        if r:
            out.append(r)
    return out


def apply_reveal(state: FullGameState, r: Reveal) -> None:
    _set_hidden(state, r.force, False)


@dataclass
class Screen:
    """A screen set or dropped: a corps' "Screen" side (8.62a) or a unit on a leader (8.62)."""

    who: str
    on: bool
    kind: str                   # "corps" | "unit"
    leader: str | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.62"
    why: str = ""


def screen(state: FullGameState, who: str, on: bool = True) -> Screen:
    """8.62/8.62a, 8.6: ``who`` (a corps leader, or a cavalry unit in a leader's box) starts or
    stops screening.  A unit or corps that reconned this impulse may not screen (8.6)."""
    reconned = set(state.get("current", {}).get("reconned", []))
    if who in state["leaders"]:
        s = Screen(who, on, "corps", who, rule="8.62a")
        if not is_corps(state, who):
            s.problems.append(Problem(f"{who} does not head a cavalry corps", "8.62a", ["who"]))
    elif who in state["units"]:
        u = state["units"][who]
        s = Screen(who, on, "unit", u.get("leader"))
        if u["arm"] != "cavalry" or u["steps"] <= 0:
            s.problems.append(Problem(f"{who} is not a living cavalry unit", "8.62", ["who"]))
        elif not u.get("leader") or not state["leaders"][cast(str, u["leader"])].get("hex"):
            s.problems.append(Problem(f"{who} has no leader on the map to screen", "8.62", ["who"]))
        elif on:
            others = [x for x, o in state["units"].items() if o.get("screening") and o.get("leader") == u["leader"]
                      and x != who]
            if others:
                s.problems.append(Problem(f"{u['leader']} is already screened by {others[0]}: one cavalry unit "
                                          "on one leader", "8.62", ["who"]))
    else:
        return Screen(who, on, "unit", None, [Problem(f"no leader or unit {who!r}", "8.62", ["who"])],
                      why=f"no leader or unit {who!r}")
    if on and who in reconned:
        s.problems.append(Problem(f"{who} reconned this impulse and may not screen in it", "8.6", ["who"]))
    s.why = ("not done: " + "; ".join(p.message for p in s.problems) if s.problems else
             f"{who} {'screens' if on else 'stops screening'}" + (f" {s.leader}" if s.kind == "unit" else ""))
    return s


def apply_screen(state: FullGameState, s: Screen) -> None:
    if s.problems:
        raise ValueError("cannot apply an illegal screen: " + s.why)
    rec = cast(dict, state["leaders"][s.who] if s.kind == "corps" else state["units"][s.who])    # its screen flag (8.62)
    key = "screen" if s.kind == "corps" else "screening"
    if s.on:
        rec[key] = True
    else:
        rec.pop(key, None)


def _screened_leaders(state: FullGameState, side: str) -> set[str]:
    """8.62 / 8.62c: leaders of ``side`` whose ratings the enemy may not see."""
    out = cast(set[str], {u["leader"] for u in state["units"].values()
                          if u["side"] == side and u.get("screening") and u.get("leader") and u["steps"] > 0
                          and u["arm"] == "cavalry"})
    trenches = state.get("entrenchments", {}) or {}
    for lid, ld in model.on_map_leaders(state, side):
        e = trenches.get(cast(str, ld["hex"])) if isinstance(trenches, dict) else None
        if e and e.get("side") == side and e.get("level", 1) > 0:
            out.add(lid)
    return out


@dataclass
class Concealment:
    """What ``side`` keeps from the enemy's view (8.62, 8.62a, 8.62c), made from the state."""

    side: str
    hidden: set[str]
    seen: dict                      # the enemy's view of ``side``'s hexes once the hidden are gone
    masked: set[str]                # leaders whose ratings are hidden
    rule: str = "8.62"
    why: str = ""


def _off_the_map(state: FullGameState, forces: Iterable[str]) -> FullGameState:
    """A copy of ``state`` with ``forces`` taken off the map (8.62a: removed, their hex plotted)."""
    work = model.copy_state(state)
    for f in forces:
        if model.is_unled(f):
            for u in model.units_of(state, f):
                work["units"][u]["hex"] = None
                work["units"][u]["steps"] = 0
        else:
            for lid in model.force_leaders(state, f):
                work["leaders"][lid]["hex"] = None
            for sid in model.force_logistics(state, f):
                work["logistics"][sid]["hex"] = None
    return work


def without_hidden(state: FullGameState, side: str) -> FullGameState:
    """The state with ``side``'s hidden forces off the map: the map as the enemy sees it (3.71,
    8.62a), the same picture :func:`concealment` gives the enemy's view."""
    return _off_the_map(state, hidden_forces(state, side))


def concealment(state: FullGameState, side: str) -> Concealment:
    """What :func:`redact_view` removes from an enemy's view of ``side``."""
    hidden = hidden_forces(state, side)
    work = _off_the_map(state, hidden)
    masked = _screened_leaders(state, side) - {lid for f in hidden if not model.is_unled(f)
                                               for lid in model.force_leaders(state, f)}
    why = f"{side} hides {len(hidden)} force(s) and the ratings of {len(masked)} leader(s)"
    return Concealment(side, hidden, top_counters(work, side), masked, why=why)


def redact_view(view: dict, hidden: Concealment) -> dict:
    """Apply ``hidden`` to an *enemy's* view from :func:`.views.army_view` (a new dict).

    Hidden forces vanish from ``seen`` (a hex keeps only what still stands on the map);
    screened leaders keep their name but lose their ratings (8.62, 8.62c)."""
    v = copy.deepcopy(view)
    seen = v.setdefault("seen", {})
    mine = copy.deepcopy(hidden.seen)
    for entry in mine.values():
        top = entry.get("top", {})
        if top.get("kind") == "leader" and top.get("id") in hidden.masked:
            top["ratings"] = None
            top["screened"] = True
    seen[hidden.side] = mine
    for key in ("leaders", "units", "logistics"):     # open views carry the armies: drop the hidden
        block = v.get(key)
        if not isinstance(block, dict):
            continue
        for rid in list(block):
            rec = block[rid]
            if rec.get("side") == hidden.side and rec.get("hidden"):
                del block[rid]
    return v


# --- reconnaissance (8.61) ----------------------------------------------------------------------

@dataclass
class Found:
    force: str
    hex: str
    units: int


@dataclass
class Recon:
    """One recon attempt (8.61): the dice, the winner, and what the reconning side learns."""

    side: str
    by: str                                 # the force making the attempt
    units: list[str]                        # the cavalry units trying (a corps: all of them)
    corps: bool
    target: str | None
    search: bool = False
    bonus: int = 0
    enemy_bonus: int = 0
    enemy_bonus_why: str = ""
    roll: int | None = None
    enemy_roll: int | None = None
    success: bool = False
    count: int | None = None                # units in the target hex (success, not a search)
    found: list[Found] = field(default_factory=list)
    reveals: list[Reveal] = field(default_factory=list)
    end_screen: bool = False
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.61a"
    why: str = ""

    @property
    def total(self) -> int | None:
        return None if self.roll is None else self.roll + self.bonus

    @property
    def enemy_total(self) -> int | None:
        return None if self.enemy_roll is None else self.enemy_roll + self.enemy_bonus

    def report(self) -> dict:
        """The private report to the reconning side (8.61a; the defender knows what was revealed)."""
        out: dict[str, Any] = {"to": self.side, "rule": self.rule, "by": self.by, "target": self.target,
               "search": self.search, "success": self.success}
        if self.success:
            if self.search:
                out["found"] = [{"hex": f.hex, "units": f.units} for f in self.found] or "none"
            else:
                out["units"] = self.count if self.count else "none"
        return out


def _attempts_used(state: FullGameState, key: str) -> int:
    return int(state.get("current", {}).get("recon", {}).get(key, 0))


def _corps_attempt_problems(state: FullGameState, force_id: str, size: int, end_screen: bool) -> list[Problem]:
    """8.61b, 8.6: a corps makes as many attempts as it has cavalry units, and none while screening."""
    p = []
    if _attempts_used(state, force_id) >= size:
        p.append(Problem(f"{force_id}'s corps has made all its {size} recon attempts this impulse",
                         "8.61b", ["force"]))
    if state["leaders"][force_id].get("screen") and not end_screen:
        p.append(Problem(f"{force_id}'s corps is screening: a screening corps cannot recon "
                         "(end the screen first)", "8.6", ["force"]))
    return p


def _unit_attempt_problems(state: FullGameState, force_id: str, trying: list[str], search: bool,
                           end_screen: bool) -> list[Problem]:
    """8.61a, 8.61c, 8.6: the force's own cavalry units try, once each, none of them screening;
    only a corps searches."""
    p = []
    mine = set(model.units_of(state, force_id))
    if search:
        p.append(Problem("only a cavalry corps may search for hidden forces", "8.61c", ["search"]))
    if not trying:
        p.append(Problem("name the cavalry units making the attempt", "8.61a", ["units"]))
    for u in trying:
        if u not in mine:
            p.append(Problem(f"{u} is not a unit of {force_id}", "8.61", ["units"]))
        elif state["units"][u]["arm"] != "cavalry":
            p.append(Problem(f"{u} is not cavalry: only cavalry units recon", "8.61", ["units"]))
        elif _attempts_used(state, u) >= 1:
            p.append(Problem(f"{u} has already tried recon this impulse (one attempt per unit)",
                             "8.61", ["units"]))
        elif state["units"][u].get("screening") and not end_screen:
            p.append(Problem(f"{u} is screening its leader and cannot recon (end the screen first)",
                             "8.6", ["units"]))
    if len(set(trying)) != len(trying):
        p.append(Problem("a unit is named twice in one attempt", "8.61", ["units"]))
    return p


def _target_problems(hexmap, here: str, target: str | None, corps: bool, size: int) -> list[Problem]:
    """8.61, 8.61b: a cavalry unit recons an adjacent hex, a corps one within its recon range."""
    if target is None:
        return [Problem("a recon needs a target hex", "8.61", ["target"])]
    try:
        d = _dist(hexmap, here, target)
    except Exception:
        return [Problem(f"{target!r} is not a hex of this map", "8.61", ["target"])]
    reach = size if corps else 1
    if not 1 <= d <= reach:
        return [Problem(f"{target} is {d} hexes from {here}; " +
                        (f"the corps' recon range is {size}" if corps
                         else "a cavalry unit recons an adjacent hex"),
                        "8.61b" if corps else "8.61", ["target"])]
    return []


def _search_resistance(state: FullGameState, hexmap, enemy: str, here: str, size: int) -> tuple[int, str]:
    """8.61c, 8.62b: a search is resisted by the largest enemy screening corps whose screen
    range reaches into the search range."""
    covering = [c for c in screening_corps(state, enemy)
                if _dist(hexmap, cast(str, state["leaders"][c]["hex"]), here) <= size + corps_size(state, c)]
    best = max(covering, key=lambda c: corps_size(state, c), default=None)
    bonus = corps_size(state, best) if best else 0
    return bonus, (f"{best}'s screening corps ({bonus} units, 8.62b)" if best else "no screen")


def _target_resistance(state: FullGameState, enemy: str, target: str | None) -> tuple[int, str]:
    """8.61a, 8.62b: the basic screening cavalry in the target hex and the size of any cavalry
    corps there."""
    parts = []
    scr = [u for u, o in state["units"].items() if o["side"] == enemy and o.get("screening") and o["steps"] > 0
           and o.get("leader") and state["leaders"][cast(str, o["leader"])].get("hex") == target]
    if scr:
        parts.append(f"{len(scr)} screening cavalry (8.62)")
    corps_here = [c for c in corps_of(state, enemy) if state["leaders"][c]["hex"] == target]
    csum = sum(corps_size(state, c) for c in corps_here)
    if corps_here:
        parts.append(f"cavalry corps {', '.join(corps_here)} ({csum} units, 8.62b)")
    return len(scr) + csum, "; ".join(parts) or "no screening cavalry"


def _units_in(state: FullGameState, side: str, target: str | None) -> int:
    """8.61a "number of units": the side's living combat units in the hex, in boxes and unled."""
    return sum(1 for u in state["units"].values() if u["side"] == side and u["steps"] > 0 and (
        (u.get("leader") and (state["leaders"][cast(str, u["leader"])].get("hex") or
                              state["leaders"][model.top_of(state, cast(str, u["leader"]))].get("hex")) == target)
        or (not u.get("leader") and u.get("hex") == target)))


def _search_finds(state: FullGameState, hexmap, enemy: str, here: str, size: int) -> list[Found]:
    """8.61c: every hidden enemy force within the corps' recon range."""
    out = []
    for f in sorted(hidden_forces(state, enemy)):
        fh = model.force_hex(state, f)
        if _dist(hexmap, here, fh) <= size:
            out.append(Found(f, fh, len(model.units_of(state, f))))
    return out


def _hidden_in(state: FullGameState, enemy: str, target: str | None) -> list[Found]:
    """8.61a: a hidden force in the reconned hex is found (its presence revealed)."""
    return [Found(f, target, len(model.units_of(state, f))) for f in sorted(hidden_forces(state, enemy))
            if model.force_hex(state, f) == target]


def recon(state: FullGameState, hexmap, force_id: str, dice, *, target: str | None = None, units: Iterable[str] = (),
          search: bool = False, end_screen: bool = False, at: str | None = None) -> Recon:
    """8.61: ``force_id`` (standing at ``at``, default its hex) tries recon.

    A cavalry corps makes one of its attempts against ``target`` within its range, or
    ``search`` for hidden forces within it (8.61b, c); any other force names the cavalry
    ``units`` trying against the adjacent ``target`` (8.61a).  Nothing is rolled when the
    attempt is illegal (see ``problems``)."""
    side = model.force_side(state, force_id)
    here = at or model.force_hex(state, force_id)
    corps = is_corps(state, force_id)
    enemy = model.other_side(side)
    p: list[Problem] = []
    if corps:
        trying = _cav_units(state, force_id)
        size = len(trying)
        r = Recon(side, force_id, trying, True, target, search, bonus=size, end_screen=end_screen,
                  rule="8.61c" if search else "8.61b")
        p += _corps_attempt_problems(state, force_id, size, end_screen)
    else:
        trying = list(units)
        size = 0
        r = Recon(side, force_id, trying, False, target, search, bonus=len(trying), end_screen=end_screen)
        p += _unit_attempt_problems(state, force_id, trying, search, end_screen)
    if not model.is_unled(force_id) and not state["leaders"][force_id].get("active"):
        p.append(Problem(f"{force_id} is inactive: only active leaders take impulse actions", "8.1", ["force"]))
    if not search:
        p += _target_problems(hexmap, here, target, corps, size)
    r.problems = p
    if p:
        r.why = "not rolled: " + "; ".join(x.message for x in p)
        return r
    # the defender's bonus (8.61a, 8.62b)
    r.enemy_bonus, r.enemy_bonus_why = (_search_resistance(state, hexmap, enemy, here, size) if search
                                        else _target_resistance(state, enemy, target))
    what = "search" if search else f"recon of {target}"
    r.roll = dice.d6(f"recon {force_id} {what}", by=side)
    r.enemy_roll = dice.d6(f"resist recon {what}", by=enemy)
    assert r.total is not None and r.enemy_total is not None     # both rolled just now
    r.success = r.total > r.enemy_total
    why = (f"{force_id} {what}: {r.roll}+{r.bonus} = {r.total} against {r.enemy_roll}+{r.enemy_bonus} "
           f"({r.enemy_bonus_why}) = {r.enemy_total}: ")
    if not r.success:
        r.why = why + ("tie, the recon fails" if r.total == r.enemy_total else "the recon fails") + \
            "; no information (8.61a)"
        return r
    if search:
        r.found = _search_finds(state, hexmap, enemy, here, size)
        r.why = why + ("found " + ", ".join(f"{f.units} units in {f.hex}" for f in r.found) if r.found
                       else "none (nothing hidden in range, 8.61c)")
    else:
        r.count = _units_in(state, enemy, target)
        r.found = _hidden_in(state, enemy, target)
        r.why = why + (f"{r.count} units in {target}" if r.count else f"none in {target}")
    for f in r.found:
        r.reveals.append(Reveal(f.force, enemy, f.hex, f.units, "recon", r.rule,
                                f"{f.force} in {f.hex} is found by {force_id}'s recon and appears"))
    if r.reveals:
        r.why += "; hidden forces appear: " + ", ".join(x.force for x in r.reveals)
    return r


def apply_recon(state: FullGameState, r: Recon) -> None:
    """Count the attempt (8.61, 8.61b), end a screen given up for it (8.6), reveal what was found."""
    if r.problems:
        raise ValueError("cannot apply an illegal recon: " + r.why)
    cur = state.setdefault("current", cast(Turn, {}))
    used = cur.setdefault("recon", {})
    done = cur.setdefault("reconned", [])
    keys = [r.by] if r.corps else list(r.units)
    for k in keys:
        used[k] = used.get(k, 0) + 1
        if k not in done:
            done.append(k)
    if r.end_screen:
        if r.corps:
            state["leaders"][r.by].pop("screen", None)
        for u in r.units:
            state["units"][u].pop("screening", None)
    for rv in r.reveals:
        apply_reveal(state, rv)


def reset_recon(state: FullGameState) -> None:
    """At the end of an impulse: recon attempts and the 8.6 recon/screen exclusion lapse."""
    cur = state.get("current", {})
    cur.pop("recon", None)
    cur.pop("reconned", None)


@dataclass
class ZocRule:
    """How enemy ZOC treats a force entering it (3.61, 8.61)."""

    stop: bool
    attack_check: bool
    rule: str
    why: str


def zoc_on_entry(state: FullGameState, force_id: str, *, recons: bool) -> ZocRule:
    """3.61 / 8.61: a cavalry-only force that recons from the ZOC hex it entered neither stops nor
    checks, whatever the result; any other force stops and must check."""
    units = model.units_of(state, force_id)
    cav_only = bool(units) and all(state["units"][u]["arm"] == "cavalry" for u in units)
    if recons and cav_only:
        return ZocRule(False, False, "8.61", f"{force_id} recons: not stopped by enemy ZOC, no attack check")
    why = ("entering enemy ZOC: stop and declare an attack check" +
           ("; the exception is for cavalry only" if recons else ""))
    return ZocRule(True, True, "3.61", why)


def recon_path_problems(path: list[str], *, start: str, hexmap, cost, enemy_zoc: set[str],
                        enemy_occupied: set[str], active: bool, recon_at: Iterable[int] = (),
                        index: int = 0) -> list[Problem]:
    """Like :func:`.movement.path_problems`, for a cavalry-only force that recons from the
    path indices ``recon_at``: it may go on after entering enemy ZOC there (8.61) but never
    ZOC to ZOC (3.61, 8.61), and an inactive force may not enter enemy ZOC (3.61)."""
    from .movement import path_problems

    p = path_problems(path, start=start, hexmap=hexmap, cost=cost, enemy_zoc=set(),
                      enemy_occupied=enemy_occupied, active=active, index=index)
    if p:
        return p
    rec = set(recon_at)
    here = start
    for i, label in enumerate(path):
        where = ["moves", index, "path", i]
        if here in enemy_zoc and label in enemy_zoc:
            return [Problem(f"{here} to {label} moves from one enemy ZOC hex to another (ZOC to ZOC), "
                            "which recon does not allow", "8.61", where)]
        if label in enemy_zoc:
            if not active:
                return [Problem(f"an inactive leader's force may not enter enemy ZOC ({label})", "3.61", where)]
            if i != len(path) - 1 and i not in rec:
                return [Problem(f"the path goes on after {label}, in enemy ZOC, without a recon there",
                                "8.26", ["moves", index, "path", i + 1])]
        here = label
    return []


def recon_stop(mv: dict) -> str | None:
    """8.61: the hex of its path a force's move recons from while moving (``recon: {at: HEX}``),
    or None when it recons, if at all, where its move ends."""
    spec = mv.get("recon")
    return str(spec["at"]) if isinstance(spec, dict) and spec.get("at") is not None else None


def recon_move_problems(state: FullGameState, force: str, mv: dict, *, start: str, hexmap, cost,
                        enemy_zoc: set[str], enemy_occupied: set[str], active: bool,
                        index: int) -> list[Problem] | None:
    """8.61: the path of a move that recons while moving (None when it does not): only a force of
    cavalry alone, from a hex of its path; it may go on from there after entering enemy ZOC, never
    ZOC to ZOC (:func:`recon_path_problems`)."""
    at = recon_stop(mv)
    if at is None:
        return None
    path = [str(x) for x in mv.get("path") or []]
    where = ["moves", index, "recon", "at"]
    if at not in path:
        return [Problem(f"the recon is made while moving from a hex of the path; {at} is not on it", "8.61", where)]
    units = model.units_of(state, force)
    if not units or any(state["units"][u]["arm"] != "cavalry" for u in units):
        return [Problem(f"only a force of cavalry alone recons while moving; {force} is not one", "8.61", where)]
    return recon_path_problems(path, start=start, hexmap=hexmap, cost=cost, enemy_zoc=enemy_zoc,
                               enemy_occupied=enemy_occupied, active=active, recon_at=[path.index(at)],
                               index=index)


# --- plotted positions in open games (8.62a with hxref.crypto.commit) ----------------------------------

PLOT_KEYS = ("force", "hex", "impulse")


def plot_choice(force: str, label: str, impulse: int) -> dict:
    """The choice a hidden force's owner commits to each impulse (8.62a: plotted on paper)."""
    return {"force": force, "hex": label, "impulse": impulse}


def plot_commitment(choice: dict, salt_hex: str) -> str:
    """The commitment to a plotted hex (:func:`hxref.crypto.commit.commitment` of :func:`plot_choice`)."""
    if not isinstance(choice, dict) or set(choice) != set(PLOT_KEYS):
        raise ValueError(f"a plot is {{force, hex, impulse}}, not {choice!r} (8.62a)")
    return commit.commitment(choice, salt_hex)
