"""What each side of Salem Church may see (digest C and F).

The scenario hides nothing (digest F): all counters are on an open map.  Line-of-sight
fog of war is the umpire's house option: **in umpired mode each side sees enemy units
only when in its line of sight** (the option, on by default for e-mail play); in every
other mode, or with the option off, the whole map is open.  Orders and standing orders
stay private in every mode until they are resolved (digest F1, F2).

Line of sight follows the Terrain Effects Chart (TEC, digest C; seed 003's TEC wins):

* **Hill** -- blocks LOS unless both the observer and the target are on hills.  The map
  gives every hill hex elevation 1 and every other hex 0, so hxref's framework
  (:mod:`hxref.geometry.los`) decides it: a sight line between two hills runs at level 1
  and another hill (level 1) does not rise above it; any other line is below level 1
  between its ends and a hill hex there blocks it.
* **Heavy woods** -- "LOS into and through this hex is blocked".  *Through*: the woods'
  height 2 puts them above every sight line (map data).  *Into*: decided here -- a target
  in heavy woods is not seen (except by contact, below).
* **Light woods** -- "blocks artillery LOS, except when on a hill": an intermediate
  light-woods hex blocks the LOS of an artillery unit **for fire** unless the artillery's
  own hex is a hill (digest G12).

The state layout read here (the same as :mod:`.victory`)::

    state["units"][uid] = {"side": "union" | "confederate", "type": "infantry" | "artillery"
                           | "leader" | "wagon_train", "hex": "0609" | None, "steps": 2,
                           "name": ..., "disrupted": ..., ...}
    state["control"] = {hex label: side}          # .victory.update_control
    state["wagon"], state["turn"], state["initial_steps"] = {uid: steps}
    state["orders"], state["standing_orders"], ... = {side: ...}   # private to each side

Readings where the rules are silent (games/salem_church/readings.md):

* **Seeing** enemy units is not the TEC's subject (it speaks of LOS for fire); for the
  fog option the plain reading is used: the hill and heavy-woods rules apply to every
  unit's sight, and light woods, which blocks only artillery's LOS, hides nothing -- a
  battery's crew see as far as a brigade does.  Artillery fire uses
  ``purpose="fire"``.
* LOS has **no range limit** (the TEC gives none; the map is 24 x 14 hexes).
* LOS **out of** heavy woods is not blocked: the TEC names only "into and through", and
  the framework never lets the observer's own hex block.  So sight may be one-way.
* **Contact**: a unit always sees its own hex and the six around it, heavy woods
  included.  Combat is against adjacent units, and 16.0 (the train may not move
  adjacent to a Confederate unit) and 18.0 (no move adjacent to an enemy unit at night)
  turn on adjacency, so a player must know what is next to his units.
* **Who sees**: every unit of the side on the map with steps left -- combat units,
  leaders and the wagon train alike; a unit off the map (not yet arrived, exited,
  eliminated) sees nothing.
* An enemy unit in sight shows its counter: side, type, name, formation, hex, steps
  and its disrupted / routed / ineffective state, and the printed values (CF, MP,
  morale, leader modification, range); nothing else of it (plans, MP used, orders).
  An enemy unit out of sight, or off the map, is not in the view at all: not its id,
  hex, name, steps or state; nor any other record that names it (logs, orders).
* **Control** in umpired LOS play: only the four victory hexes (1204, 1302, 2114, 2407)
  are shown -- who holds them is public (digest F5) -- because control of any other hex
  would tell where unseen enemy units went.
* **The public report** in umpired LOS play shows a unit only when both sides see it,
  i.e. when its enemy sees it; no orders of either side.  In open play it shows every
  unit, and still no orders.
"""
from __future__ import annotations

import copy
import weakref
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Iterable, cast

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, distance
from ...geometry.los import LosResult, SightTerrain
from ...geometry.los import line_of_sight as _framework_los
from ...geometry.mapmodel import HexMap
from .narration import Audience, Journey, Line, Place
from .state_types import SalemState

SIDES = ("union", "confederate")
#: 14.1, 14.2: the hexes whose holder every report shows (digest F5)
PUBLIC_CONTROL_HEXES = ("1204", "1302", "2114", "2407")
#: the state fields every view holds (the allow-list; a field named nowhere is the umpire's alone):
#: the turn and its stage, the scenario's rules, the victory hexes' control, the wagon train, the
#: turn's combats (their units named as the reader sees them, :func:`combat_record`)
PUBLIC_KEYS = ("scenario", "map", "turn", "phasing", "stage", "mode", "options", "initiative",
               "initiative_turn", "initiative_checks", "control", "wagon", "initial_steps", "combats", "rules", "wagon_unit",
               "victory_result", "cancelled_targets")
#: per-side records: each side sees only its own part (digest F1, F2)
PRIVATE_KEYS = ("orders", "standing_orders", "secrets", "plans", "choices", "pending")
#: what a counter in sight shows of an enemy unit (umpired LOS play)
COUNTER_FIELDS = ("side", "type", "name", "formation", "hex", "steps", "disrupted", "routed",
                  "ineffective", "cf", "cf_reduced", "mp", "morale", "leader_modifier", "range")
#: fields of a unit that are its owner's plans, private in every mode
PRIVATE_UNIT_FIELDS = ("orders", "standing_orders", "plan", "plans", "secret", "notes", "conditional")

#: the obstacle height light woods get for artillery fire from off a hill (above any sight line)
_BLOCK_ALL = 100


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def _check_side(side: str) -> None:
    if side not in SIDES:
        raise InvalidInput(f"side {side!r}; use {' or '.join(SIDES)}")


# --------------------------------------------------------------------------
# line of sight (TEC)


@dataclass(frozen=True)
class Sight:
    """One line of sight: seen or not, what blocks it, by which TEC row, and why."""

    observer: str
    target: str
    visible: bool
    rule: str
    why: str
    blocking: str | None = None     # a hex label, or "a/b" for a hexside

    def __bool__(self) -> bool:
        return self.visible

    def to_dict(self) -> dict:
        return {"observer": self.observer, "target": self.target, "visible": self.visible,
                "rule": self.rule, "why": self.why, "blocking": self.blocking}


def _rules(hexmap: HexMap, h: Hex) -> dict:
    return hexmap.terrain(h).rules or {}


def _is_hill(hexmap: HexMap, h: Hex) -> bool:
    return "hill" in hexmap.features(h)


def _blocks_into(hexmap: HexMap, h: Hex) -> bool:
    return bool((_rules(hexmap, h).get("los") or {}).get("blocks_into"))


def _blocks_type(hexmap: HexMap, h: Hex, unit_type: str) -> bool:
    return unit_type in ((_rules(hexmap, h).get("los") or {}).get("blocks") or ())


def _rule_of(hexmap: HexMap, h: Hex) -> str:
    if _is_hill(hexmap, h) and hexmap.terrain(h).name != "heavy_woods":
        return "TEC Hill"
    return _rules(hexmap, h).get("rule") or f"TEC {hexmap.terrain(h).label or hexmap.terrain(h).name}"


def _parse(hexmap: HexMap, label: Any) -> Hex:
    if isinstance(label, Hex):
        return label
    return hexmap.parse(str(label))


def line_of_sight(hexmap: HexMap, observer: str | Hex, target: str | Hex, *, unit_type: str | None = None,
                  purpose: str = "see") -> Sight:
    """Can a unit in ``observer`` see (``purpose="see"``) or fire at (``"fire"``) ``target``?

    The TEC's hill and heavy-woods rules apply to every purpose; the light-woods rule
    only to artillery fire from a hex that is not a hill.  Contact (adjacency) is not
    decided here: an adjacent heavy-woods hex is "into heavy woods" (see
    :func:`visible_hexes`).
    """
    if purpose not in ("see", "fire"):
        raise InvalidInput(f"purpose {purpose!r}; use 'see' or 'fire'")
    o, t = _parse(hexmap, observer), _parse(hexmap, target)
    ol, tl = hexmap.label(o), hexmap.label(t)
    if o == t:
        return Sight(ol, tl, True, "TEC", "the observer's own hex")
    if _blocks_into(hexmap, t):
        return Sight(ol, tl, False, _rules(hexmap, t).get("rule", "TEC Heavy woods"),
                     f"{tl} is heavy woods: LOS into it is blocked", tl)
    artillery_fire = purpose == "fire" and unit_type == "artillery" and not _is_hill(hexmap, o)
    r = _framework_los(_sight_terrain(hexmap, artillery_fire), o, t)
    if r.visible:
        return Sight(ol, tl, True, "TEC", "nothing between blocks the line of sight")
    return _blocked(hexmap, o, t, r, artillery_fire)


def _sight_terrain(hexmap: HexMap, artillery_fire: bool) -> SightTerrain:
    """The map's sight terrain; TEC light woods: for artillery fire not from a hill, light woods
    block too."""
    base = hexmap.sight_terrain()
    if not artillery_fire:
        return base

    def obstacle(h: Hex) -> float:
        return _BLOCK_ALL if _blocks_type(hexmap, h, "artillery") else base.obstacle(h)
    return SightTerrain(ground=base.ground, obstacle=obstacle, hexside=base.hexside)


def _blocked(hexmap: HexMap, o: Hex, t: Hex, r: LosResult, artillery_fire: bool) -> Sight:
    """A blocked line of sight: which TEC row blocks it (light woods for artillery, heavy woods,
    hill), and why."""
    ol, tl = hexmap.label(o), hexmap.label(t)
    blk = r.blocking
    assert blk is not None, "a line of sight not clear names what blocks it"
    hexes = blk.hexes if not isinstance(blk, Hex) else (blk,)
    label = hexmap.label(blk) if isinstance(blk, Hex) else "/".join(hexmap.label(h) for h in hexes)
    first = hexes[0]
    if artillery_fire and all(_blocks_type(hexmap, h, "artillery") for h in hexes) and not any(
            hexmap.terrain(h).name == "heavy_woods" or _is_hill(hexmap, h) for h in hexes):
        return Sight(ol, tl, False, _rules(hexmap, first).get("rule", "TEC Light woods"),
                     f"light woods in {label} block artillery LOS; the artillery in {ol} is not on a hill", label)
    if any(hexmap.terrain(h).name == "heavy_woods" for h in hexes):
        h = next(h for h in hexes if hexmap.terrain(h).name == "heavy_woods")
        return Sight(ol, tl, False, _rules(hexmap, h).get("rule", "TEC Heavy woods"),
                     f"heavy woods in {label} block LOS through them", label)
    if any(_is_hill(hexmap, h) for h in hexes):
        both = _is_hill(hexmap, o) and _is_hill(hexmap, t)
        return Sight(ol, tl, False, "TEC Hill",
                     f"the hill in {label} blocks LOS" + ("" if both else
                                                         f": {ol} and {tl} are not both on hills"), label)
    if artillery_fire:
        return Sight(ol, tl, False, _rules(hexmap, first).get("rule", "TEC Light woods"),
                     f"light woods in {label} block artillery LOS", label)
    return Sight(ol, tl, False, _rule_of(hexmap, first), f"{label} blocks LOS ({r.reason})", label)


# --------------------------------------------------------------------------
# what a side sees


def _on_map(u: Mapping[str, Any]) -> bool:
    return u.get("hex") is not None and (u.get("steps") or 0) > 0


def observers(state: SalemState, side: str) -> set[str]:
    """The hexes of ``side``'s units on the map with steps left (every type sees)."""
    return {str(u["hex"]) for u in state.get("units", {}).values() if u.get("side") == side and _on_map(u)}


def visible_hexes(state: SalemState, hexmap: HexMap, side: str, *, contact: bool = True) -> set[str]:
    """Every hex some unit of ``side`` sees: its own hexes, by contact the adjacent ones
    (heavy woods included), and every hex in its line of sight (TEC, ``purpose="see"``)."""
    _check_side(side)
    seen: set[str] = set()
    all_hexes = hexmap.hexes()
    for label in sorted(observers(state, side)):
        o = _parse(hexmap, label)
        for h in all_hexes:
            tl = hexmap.label(h)
            if tl in seen:
                continue
            if (contact and distance(o, h) <= 1) or line_of_sight(hexmap, o, h).visible:
                seen.add(tl)
    return seen


def seen_units(state: SalemState, hexmap: HexMap, side: str, *, contact: bool = True) -> set[str]:
    """The ids of the enemy units on the map that ``side`` sees: those in a hex of the map that
    :func:`visible_hexes` holds.  Only the hexes an enemy unit is in are asked (at most one
    line of sight per observer and enemy-held hex, each worked out once per map: :func:`_sees`),
    not every hex of the map -- the same answer, a few dozen lines of sight instead of thousands."""
    _check_side(side)
    enemy = {uid: str(u["hex"]) for uid, u in state.get("units", {}).items()
             if u.get("side") == _other(side) and _on_map(u)}
    eyes = [_parse(hexmap, label) for label in sorted(observers(state, side))]
    if not enemy:
        return set()
    on_map = _labels(hexmap)
    vis = {label for label in set(enemy.values()) if label in on_map
           and _seen_from(hexmap, eyes, hexmap.parse(label), contact)}
    return {uid for uid, label in enemy.items() if label in vis}


def _seen_from(hexmap: HexMap, eyes: list[Hex], t: Hex, contact: bool) -> bool:
    """Whether a unit in one of the hexes ``eyes`` sees ``t``, as :func:`visible_hexes` decides it;
    each line of sight worked out once per map (the report's fog asks every hex of the map)."""
    memo = _table(hexmap).pairs
    for o in eyes:
        if contact and distance(o, t) <= 1:
            return True
        hit = memo.get((o, t))
        if hit is None:
            hit = memo[(o, t)] = line_of_sight(hexmap, o, t).visible
        if hit:
            return True
    return False


#: per map object, what never changes while it lives: the hexes' labels, each line of sight
#: ``purpose="see"`` asked so far, and the hexes seen from each hex asked so far.  Line of sight
#: turns on the map's terrain alone (TEC: hills and woods; units never block it), and a map is not
#: changed once loaded (the game's charts share one per content,
#: :meth:`~hxref.kit.charts.Charts.map`), so an answer holds for as long as its map lives; the
#: entry goes with it.
@dataclass
class _MapSight:
    labels: frozenset[str]
    pairs: dict[tuple[Hex, Hex], bool] = field(default_factory=dict)
    from_hex: dict[str, frozenset[str]] = field(default_factory=dict)


_SIGHT: dict[int, _MapSight] = {}


def _table(hexmap: HexMap) -> _MapSight:
    key = id(hexmap)
    hit = _SIGHT.get(key)
    if hit is None:
        hit = _SIGHT[key] = _MapSight(frozenset(hexmap.label(h) for h in hexmap.hexes()))
        weakref.finalize(hexmap, _SIGHT.pop, key, None)
    return hit


def _labels(hexmap: HexMap) -> frozenset[str]:
    """The labels of every hex of the map (what :func:`visible_hexes` may hold)."""
    return _table(hexmap).labels


def _sees(hexmap: HexMap, o: Hex, t: Hex) -> bool:
    """``line_of_sight(hexmap, o, t).visible``, worked out once per map and pair of hexes."""
    return _seen_from(hexmap, [o], t, False)


def sight_from(hexmap: HexMap, label: str) -> frozenset:
    """The hexes a unit in ``label`` sees (contact and the TEC's line of sight, as
    :func:`visible_hexes`), worked out once per map and hex: the terrain never changes."""
    memo = _table(hexmap).from_hex
    hit = memo.get(label)
    if hit is None:
        o = hexmap.parse(label)
        hit = memo[label] = frozenset(hexmap.label(h) for h in hexmap.hexes()
                                      if distance(o, h) <= 1 or line_of_sight(hexmap, o, h).visible)
    return hit


def seen_now(state: SalemState, hexmap: HexMap, side: str) -> set[str]:
    """:func:`seen_units` on the game's map (what the rules ask at every resolution): the units not
    of ``side`` on the map in a hex that :func:`sight_from` of a hex a unit of ``side`` is in holds
    -- each hex asked once, each line of sight worked out once per map (:func:`_sees`)."""
    eyes = _eyes(state, hexmap, side)
    seen: dict[str, bool] = {}
    out = set()
    for uid, u in state["units"].items():
        if u.get("side") != side and _on_map(u):
            label = str(u["hex"])
            hit = seen.get(label)
            if hit is None:
                hit = seen[label] = _in_sight(hexmap, eyes, label)
            if hit:
                out.add(uid)
    return out


def _eyes(state: Mapping, hexmap: HexMap, side: str) -> list[Hex]:
    """The hexes ``side``'s units on the map are in (:func:`observers`), in label order."""
    return [hexmap.parse(h) for h in sorted(observers(cast(SalemState, state), side))]


def _in_sight(hexmap: HexMap, eyes: list[Hex], label: str) -> bool:
    """Whether ``label`` is in the :func:`sight_from` of one of the hexes ``eyes``: a hex of the map
    seen by contact or by line of sight."""
    return label in _labels(hexmap) and _seen_from(hexmap, eyes, hexmap.parse(label), True)


# --- places: what each side saw at one moment (narration's Place and Journey) --------------------

def place(state: Mapping, hexmap: HexMap, uid: str, label: str | None, to: str = "") -> Place:
    """``uid`` in ``label`` now: a :class:`Place` with the sides whose units see that hex now
    (:func:`sight_from`, contact included); ``to`` the word written before the hex."""
    return _place(hexmap, {s: _eyes(state, hexmap, s) for s in SIDES}, uid, label, to)


def journey(state: Mapping, hexmap: HexMap, uid: str, start: str | None, hexes: Iterable[str]) -> Journey:
    """A move from ``start`` (None: arriving) through ``hexes``, each hex with the sides that see it
    now -- during a player turn's movement the enemy's units stand still, so what they see now is
    what they saw at each step."""
    labels = ([start] if start else []) + [str(h) for h in hexes]
    eyes = {s: _eyes(state, hexmap, s) for s in SIDES} if labels else {}
    return Journey(uid, tuple(_place(hexmap, eyes, uid, h) for h in labels), enters=start is None)


def _place(hexmap: HexMap, eyes: Mapping[str, list[Hex]], uid: str, label: str | None, to: str = "") -> Place:
    """:func:`place`, with the hexes of each side's units (:func:`_eyes`) given."""
    return Place(uid, str(label), frozenset(s for s in SIDES if _in_sight(hexmap, eyes[s], str(label))), to)


# --------------------------------------------------------------------------
# views


def _fogged(mode: str, los_option: bool) -> bool:
    return mode == "umpired" and bool(los_option)


def _private_keys(v: dict, keep: str | None) -> None:
    """Per-side records: only ``keep``'s part (None: nobody's)."""
    for key in PRIVATE_KEYS:
        if key not in v:
            continue
        val = v[key]
        if isinstance(val, dict) and set(val) <= set(SIDES):
            v[key] = {s: x for s, x in val.items() if s == keep}
        else:
            del v[key]          # not keyed by side: nobody's to see


def _named_units(v: dict, shown: set[str], units: set[str], viewer: str | None) -> None:
    """The records of a view that name units, each cut to the units its reader sees (the places
    are listed here, an allow-list: a record naming units that is not listed is the umpire's).

    The scenario's schedule (``rules``: the reinforcements, the set-up, the wagon train's unit)
    names only the units in the view; the 17.2 initiative checks only those of leaders in it;
    the wagon train's id only when it is in the view; the VP breakdown (14.3) only the list of the
    reader's own steps lost (``breakdown[enemy]``: the other lists name enemy units, seen or not)."""
    def keep(uid: Any) -> bool:
        return uid in shown or uid not in units

    rules = v.get("rules")
    if isinstance(rules, dict):
        for key in ("reinforcements", "setup"):
            for g in rules.get(key) or []:
                if isinstance(g, dict) and isinstance(g.get("units"), list):
                    g["units"] = [u for u in g["units"] if keep(u)]
        wagon = rules.get("wagon_train")
        if isinstance(wagon, dict) and not keep(wagon.get("unit")):
            del wagon["unit"]
    if "wagon_unit" in v and not keep(v["wagon_unit"]):
        del v["wagon_unit"]
    if isinstance(v.get("initiative_checks"), dict):
        v["initiative_checks"] = {k: x for k, x in v["initiative_checks"].items() if keep(k)}
    score = (v.get("victory_result") or {}).get("score")
    if isinstance(score, dict) and isinstance(score.get("breakdown"), dict):
        mine = _other(viewer) if viewer in SIDES else None
        score["breakdown"] = {s: x for s, x in score["breakdown"].items() if s == mine}


def _unit_view(u: Mapping[str, Any], *, enemy: bool, fogged: bool) -> dict:
    if not enemy:
        return dict(copy.deepcopy(u))
    if fogged:
        return {k: copy.deepcopy(u[k]) for k in COUNTER_FIELDS if k in u}
    return {k: copy.deepcopy(v) for k, v in u.items() if k not in PRIVATE_UNIT_FIELDS}


def _build(state: SalemState, shown: set[str], viewer: str | None, fogged: bool,
           public_hexes: Iterable[str]) -> dict:
    units = state.get("units", {})
    # open play: every player holds the game file, so only the per-side plans are kept back (below)
    keys = (*PUBLIC_KEYS, *PRIVATE_KEYS) if fogged else [k for k in state if k != "units"]
    whole: Mapping[str, Any] = state
    v = copy.deepcopy({k: whole[k] for k in keys if k in whole})
    v["units"] = {uid: _unit_view(u, enemy=u.get("side") != viewer, fogged=fogged)
                  for uid, u in units.items() if uid in shown}
    _private_keys(v, viewer)
    if isinstance(v.get("initial_steps"), dict):
        v["initial_steps"] = {uid: n for uid, n in v["initial_steps"].items() if uid in shown}
    # the turn summary: every combat of the turn, its units named as the reader sees them now
    say = Audience(units, shown if fogged else None, viewer)
    v["combats"] = [combat_record(c, say) for c in state.get("combats") or []]
    if fogged and isinstance(v.get("control"), dict):
        keep = set(public_hexes)
        v["control"] = {h: s for h, s in v["control"].items() if h in keep}
    if fogged:
        _named_units(v, shown, set(units), viewer)
        _wagon_exit_hex(v, viewer)
    return v


def _wagon_exit_hex(v: dict, viewer: str | None) -> None:
    """Umpired LOS play: the hex where the wagon train left the map (16.0) only for a reader whose
    side saw that hex then (the public report: both sides); that it left, and whether for victory
    or to escape, stays public (digest F5).  A capture's hex is where a Confederate unit stands."""
    w = v.get("wagon")
    if not isinstance(w, dict) or not w.get("exited"):
        return
    seen = set(w.pop("seen_by", None) or ())
    if not (viewer in seen if viewer is not None else set(SIDES) <= seen):
        w.pop("hex", None)


#: the fields of a combat record of the turn summary that every reader sees as they are
COMBAT_FIELDS = ("turn", "side", "counter", "target", "attack", "defence", "differential", "column", "die", "result")


def combat_record(c: Mapping[str, Any], say: Audience) -> dict:
    """A combat record of the state (:meth:`.turn.Turn.attack`) as ``say`` reads it: its units, and
    the effects, named as that reader sees them (:mod:`.narration`)."""
    out = {k: copy.deepcopy(c[k]) for k in COMBAT_FIELDS if k in c}
    out["attackers"] = [say.id(u) for u in c.get("attackers") or []]
    out["defenders"] = [say.id(u) for u in c.get("defenders") or []]
    out["effects"] = Line.from_data(c.get("effects") or []).told(say)
    return out


def side_view(state: SalemState, hexmap: HexMap, side: str, mode: str, los_option: bool = True, *,
              public_hexes: Iterable[str] = PUBLIC_CONTROL_HEXES) -> dict:
    """A deep copy of the state as ``side`` may see it.

    Umpired mode with the LOS option on: the side's own units in full; of the enemy,
    only the units on the map in its sight (:func:`seen_units`), each as its counter
    shows it; control of the public hexes only; nothing that names an unseen enemy
    unit.  Otherwise the whole map is open.  In every mode the enemy's orders,
    standing orders and other per-side records are removed (digest F1, F2).
    """
    _check_side(side)
    fogged = _fogged(mode, los_option)
    units = state.get("units", {})
    if fogged:
        seen = seen_units(state, hexmap, side)
        shown = {uid for uid, u in units.items() if u.get("side") == side or uid in seen}
    else:
        shown = set(units)
    v = _build(state, shown, side, fogged, public_hexes)
    v["view"] = {"side": side, "mode": mode, "los": fogged}
    return v


def public_view(state: SalemState, hexmap: HexMap, mode: str, los_option: bool = True, *,
                public_hexes: Iterable[str] = PUBLIC_CONTROL_HEXES) -> dict:
    """The state for the public report.

    Umpired mode with the LOS option on: only the units both sides see -- a unit is
    shown when its enemy sees it -- as their counters show them; control of the
    public hexes only.  Otherwise every unit.  Never any side's orders or plans.
    """
    fogged = _fogged(mode, los_option)
    units = state.get("units", {})
    if fogged:
        shown = seen_units(state, hexmap, "union") | seen_units(state, hexmap, "confederate")
    else:
        shown = set(units)
    v = _build(state, shown, None, fogged, public_hexes)
    v["view"] = {"side": None, "mode": mode, "los": fogged}
    return v


def unseen_by_enemy(state: SalemState, side: str, hexmap: HexMap | None = None) -> list[str]:
    """``side``'s secrets in umpired line-of-sight play (its declared secret kind): the ids and
    names of its units on the map that the enemy does not see on ``hexmap`` (:func:`_secret_map`).
    A unit off the map is in the scenario's public schedule (13.3 names Wilcox/M's set-up); with
    ``--option open_map`` nothing is hidden."""
    if (state.get("options") or {}).get("open_map"):
        return []
    seen = seen_units(state, _secret_map(state, hexmap), _other(side))
    return [x for uid, u in state.get("units", {}).items() if u.get("side") == side and _on_map(u)
            and uid not in seen for x in (uid, u.get("name") or uid)]


#: how narration writes the hex a unit went to (:class:`.narration.Journey`, :class:`.narration.Place`)
_WENT = ("> {hex}", "to {hex}", "into {hex}")


def unseen_positions(state: SalemState, side: str, hexmap: HexMap | None = None) -> list[str]:
    """``side``'s secret positions in umpired line-of-sight play (a declared secret kind): where
    each of its units on the map that the enemy does not see on ``hexmap`` (:func:`_secret_map`)
    went, as narration writes it (``> 0608``, ``to 0608``, ``into 0608``).  The bare hex label is
    not a secret: it is printed on the map and names terrain and other units."""
    if (state.get("options") or {}).get("open_map"):
        return []
    seen = seen_units(state, _secret_map(state, hexmap), _other(side))
    return [w.format(hex=u["hex"]) for uid, u in state.get("units", {}).items()
            if u.get("side") == side and _on_map(u) and uid not in seen for w in _WENT]


def _secret_map(state: SalemState, hexmap: HexMap | None) -> HexMap:
    """The map a declared secret kind is read on: the game's (``hexmap``, as
    :meth:`.system.SalemChurch.secrets` gives it), or, when :mod:`hxref.kit.secret_kinds` calls the
    kind with the state and the side alone, the scenario's map as the data folder holds it today."""
    if hexmap is not None:
        return hexmap
    from ...kit.charts import Charts
    from .info import INFO

    return Charts.today(INFO.name).map(state["map"])
