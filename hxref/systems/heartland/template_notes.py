"""What ``hxref template`` writes for a Heartland decision answered with ``hxref answer``: the keys
the checker accepts (``choice.KEY`` lines, with their meaning and rule; ``{a, b?}`` names the keys of
a list's entries, ``?`` marks the optional ones), what the side may do now, and a skeleton that is
accepted as it stands.

Everything here is read from the side's own view (3.71): in an umpired game the enemy's forces are
only the top counters the side sees, so the reactions listed are those its map allows; the referee
checks the answer against the true map.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ..base import Decision
from .impulse_check import standing_attack_checks
from .state_types import FullGameState, Ratings

if TYPE_CHECKING:
    from ...kit.charts import Charts

# the keys of the checker (impulse_check.ORDER_KEYS, MOVE_KEYS, SPECIAL_ORDERS, impulse_combat.COMBAT_KEYS,
# impulse_combat._defence_problems), each with its meaning and rule
MOVE_DOCS = [
    ("force", "an independent leader's id, or unled@HEX (8.21), or a wagon or unbridged pontoon that moves "
              "alone on its own 8 MP with only a path, a wagon's unled detachments riding with it (7.21, 8.81, "
              "8.52)"),
    ("path", "the hexes to enter, in order; the force goes as far as its IMC roll allows and stops on "
             "entering enemy ZOC (8.21-8.23, 3.61); [] stays put"),
    ("attack", "the enemy hex to check against if the force ends next to it (8.41)"),
    ("retreat", "the hex to retreat to if the attack check fails (8.41a)"),
    ("step_loss", "the unit that loses the step a failed check costs (8.41a)"),
    ("detach", "leaders or units left behind where the move starts, 1 AP for all of them (8.25c); each "
               "detached leader is a force that may move later in this impulse"),
    ("lend_mr", "detached leaders who roll their IMC with this OC's MR, 1 AP more each (3.24b, 8.25b)"),
    ("merge", "a force met at the end of the move, taken along, 1 AP (8.25a)"),
    ("capture_landing", "Confederates: Union Naval Landings on the path to capture on entering, with a "
                        "combat unit, a leader and a wagon, 1 AP each (8.64a); unnamed, they are left"),
    ("detachments", "detachments from the Detachment Chart, [{unit: U, by: step_loss or removal}] (8.51)"),
    ("ml_reduction", "levels of ML given up, -1 IMC DRM each (3.54)"),
    ("reactivate", "an inactive leader reactivates first by roll, order, wdo or imc (8.12)"),
    ("forced_march", "true: roll on the Forced March Table after the IMC (8.3)"),
    ("rail", "by train instead of a path: [boarding station, ..., destination] (8.72)"),
    ("cut_rail", "rail hexes cut on the way, +3 MP each (8.63)"),
    ("recon", "a cavalry force's recon after its move, {target: HEX}, or while moving, {at: HEX of the "
              "path, target: HEX}: then not stopped by the enemy ZOC there (8.61)"),
    ("hide", "true: vanish under a friendly screen (8.62a)"),
    ("off_map", "leave or enter, with rail: off-map rail movement (8.74, optional rule)"),
]
COMBAT_DOCS = [
    ("order", "the assaulted hexes in the order they are fought (10.11)"),
    ("losses", "your units, first to lose steps (10.63a)"),
    ("artillery", "true or false: fire your artillery, paying ASP (10.12)"),
    ("advance", "the force that advances after combat (10.61d)"),
    ("refuse_retreat", "the commander who gives up 1 ML to refuse a retreat (3.54b)"),
    ("extended_battle", "true: fight on in an extended battle (10.7)"),
]
REACT_DOCS = [
    ("force", "your force that reacts (9.1)"),
    ("against", "the assaulted hex it reacts to (9.0, 9.1)"),
    ("to", "where it goes: the assaulted hex (the default) or a support position, a hex next to both "
           "the assaulted hex and the attacker (9.13, 9.14)"),
    ("commander", "the army commander (a leader with an HQ) who orders it; leave it out for a "
                  "reaction on the force's own initiative, only a cavalry corps (9.1)"),
    ("lend_mr", "true: the commander lends his MR for the roll and the distance, 1 AP (9.11)"),
]
RETREAT_DOCS = [
    ("force", "your assaulted force that retreats 1 hex before combat (9.2, 9.21)"),
    ("to", "the hex it retreats to: next to it, free of enemy units and enemy ZOC (9.21)"),
    ("rear_guard", "your units left behind in the hex as its rear guard (9.22)"),
    ("rear_guard_leader", "an SL who stays with the rear guard, with his whole box (9.22)"),
]


def _keys(docs: list[tuple[str, str]], required: tuple[str, ...] = ()) -> str:
    return "{" + ", ".join(k if k in required else k + "?" for k, _ in docs) + "}"


def _entry_lines(prefix: str, docs: list[tuple[str, str]]) -> list[str]:
    return [f"{prefix}.{k}: {text}" for k, text in docs]


def template(view: Mapping[str, Any], decision: Decision, side: str, charts: Charts) -> tuple[list[str], dict]:
    """The notes and the choice skeleton of ``decision`` for ``side``, from its view, the game's map
    and the IMC of ``charts``."""
    if decision.kind == "orders":
        return _orders(view, decision, side, charts)
    if decision.kind == "defence":
        return _defence(view, decision, side, charts)
    if decision.kind == "reorg":
        return _reorganization(view, side), dict(decision.example)
    if decision.kind == "level":
        left = (view.get("current", {}).get("remaining") or {}).get(side)
        limit = view.get("impulse_level_limit")
        return [f"choice.level: how many of your {left if left is not None else ''} remaining operation "
                "levels this impulse uses, at least 1" + (f" and at most {limit}" if limit else "") + " (5.15)"], \
            dict(decision.example)
    return [], dict(decision.example)


# --- the phasing side's orders (8.21) ---------------------------------------------------------------

def _mp_range(view: Mapping[str, Any], force: str, mr: int, charts: Charts) -> str:
    """The MP the IMC can give this force at this impulse's level (stand-in chart), for the template."""
    from .imc import IMCChart

    imp = view.get("current", {}).get("active_impulse") or {}
    level = imp.get("level")
    if not level:
        return ""
    chart = IMCChart.load(charts)
    units = [u for u in view["units"].values() if u.get("leader") == force and u["steps"] > 0]
    table = min(level + 1, 6) if units and all(u["arm"] == "cavalry" for u in units) else level
    lo, hi = chart.lookup(table, mr, max(chart.rows)), chart.lookup(table, mr, min(chart.rows))
    return f"; IMC at level {level}: {lo}-{hi} MP"


def _adjacent_enemies(st: FullGameState, hm, side: str, here: str) -> list[str]:
    """8.4: the hexes next to ``here`` an attack check may be made against, as ``check`` reads them
    (:func:`.fog.enemy_stacks_in_sight`: an enemy stack the side sees, a wagon or a depot alone none)."""
    from .fog import enemy_stacks_in_sight

    near = {hm.label(n) for n in hm.parse(here).neighbours() if n in hm.grid}
    return sorted(enemy_stacks_in_sight(st, side) & near)


def _forces_in_view(view: Mapping[str, Any], side: str) -> list[str]:
    from . import model

    return model.forces(cast(FullGameState, {**view, "logistics": view.get("logistics", {})}), side)


def _orders(view: Mapping[str, Any], decision: Decision, side: str, charts: Charts) -> tuple[list[str], dict]:
    from . import model
    from .report import _ratings_text, describe_top

    keys: list[str] = []
    if "level" in decision.schema:
        left = (view.get("current", {}).get("remaining") or {}).get(side)
        keys.append(f"choice.level: operation levels for this impulse, 1 to your {left} remaining (5.15)")
    keys.append(f"choice.moves: the forces' moves, in the order they move (8.21), each "
                f"{_keys(MOVE_DOCS, ('force',))}; leave a force out to keep it still:")
    keys += _entry_lines("choice.moves[]", MOVE_DOCS)
    keys += [f"choice.combat: this impulse's combat choices {_keys(COMBAT_DOCS)} (10.x):"]
    keys += _entry_lines("choice.combat", COMBAT_DOCS)
    keys += ["choice.standing: {defence?, combat?}: answers to the enemy's next assaults without another "
             "e-mail (9.0):",
             f"choice.standing.defence: {{react?, retreat?}}: react {_keys(REACT_DOCS, ('force', 'against'))} "
             f"and retreat {_keys(RETREAT_DOCS, ('force',))} lists, as in a defence answer (9.1, 9.2)",
             "choice.standing.combat: your combat choices as a defender, the keys of choice.combat (10.x)",
             "choice.emergency: a mapping force: the wagon or depot it consumes for emergency supply (7.35)",
             "choice.remove: a list of your wagons and depots taken off the map at the start of the impulse, "
             "so that the enemy cannot capture them (7.21, 7.22)",
             "choice.deactivate: a list of your active leaders who deactivate voluntarily at the end of "
             "the impulse, after combat: they are not paid this impulse, and must reactivate later (8.12a, 11.0)",
             "choice.screen: a list of {who, on?}: a corps leader or cavalry unit whose screen goes on "
             "(on: true) or off (8.62)",
             "choice.engineers: a list of {engineer, lay?, take_up?, hexside?}: lay a pontoon across a "
             "hexside or take one up (8.81)",
             "choice.depots: a list of {wagon, detachment}: a wagon in a major city or town becomes a depot "
             "before any move, with a detachment of yours in its hex used up as its garrison (8.5, 7.22)"]
    if view.get("naval"):
        keys.append("choice.gunboats: a list of {gunboat, to}: each gunboat's move to a hexside (8.91)")
        if side == "union":
            keys.append("choice.naval: a list of {embark?, assault?}: the Union naval assault, embark "
                        "{gunboat, port, units} or assault {gunboat, target, hexside} (8.92)")
    landings = view.get("landings")
    if side == "union" and isinstance(landings, dict) and any(
            isinstance(x, dict) and x.get("captured") and not x.get("exhausted") for x in landings.values()):
        keys.append("choice.exhaust: a list of your captured Naval Landings you declare exhausted (8.64a)")
    if view.get("mode") == "open":
        keys += ["choice.plot: a list of {force, commitment}: hidden forces moved this impulse, from "
                 "`hxref heartland plot` (8.62a, open games)",
                 "choice.reveal: a list of {force, plots}: hidden forces that appear, from `hxref heartland plot "
                 "--reveal` (8.62a)",
                 "choice.searched: a list of {search, found}: your answers to enemy searches (8.61c)"]
    notes = keys + ["", "Your forces (force id: where, leader, state):"]
    moves = []
    hm = charts.map(view["map"])
    # 8.42: the skeleton, accepted as it stands, gives a force in enemy ZOC the least the rules allow
    # it to stand with, the attack check a late side's stand-fast orders make (one source: the rules)
    st = _as_state(view, side)
    checks = {c["force"]: c["attack"] for c in standing_attack_checks(st, hm, side)}
    for fid in sorted(_forces_in_view(view, side)):
        here = view["leaders"][fid]["hex"] if fid in view["leaders"] else fid.split("@")[1]
        if fid in view["leaders"]:
            ld = view["leaders"][fid]
            # the ratings the rules read: printed, less a brevet (14.51) and a wound (10.67)
            mr = model.current_rating(ld, "mr")
            notes.append(f"  {fid}: {here}, {ld['name']} {'*' * ld['stars']}, "
                         f"{'active' if ld['active'] else 'INACTIVE'}, AR-BR-MR {_ratings_text(ld)}, "
                         f"ML {ld['ml']}, AP {ld['ap']}" + _mp_range(view, fid, mr, charts))
        else:
            notes.append(f"  {fid}: unled units")
        targets = _adjacent_enemies(st, hm, side, here)
        if targets:
            notes.append(f"      next to enemy stacks in {', '.join(targets)}: attack one (8.41) or move away")
        if fid in checks:
            notes.append(f"      in enemy ZOC: it leaves at the start of its move or checks to attack (8.42); "
                         f"the skeleton checks against {checks[fid]}")
            moves.append({"force": fid, "path": [], "attack": checks[fid]})
        else:
            moves.append({"force": fid, "path": []})
    notes += _lone_movers(view, side)
    notes.append("Enemy stacks you see (3.71):")
    enemy = "confederate" if side == "union" else "union"
    for label, entry in sorted(view.get("seen", {}).get(enemy, {}).items()):
        notes.append(f"  {label}: {describe_top(entry['top'])}" + (f" +{entry['under']}" if entry["under"] else ""))
    choice: dict = {"moves": moves}
    if "level" in decision.schema:
        choice = {"level": 1, **choice}
    return notes, choice


def _lone_movers(view: Mapping[str, Any], side: str) -> list[str]:
    """7.21, 8.81: the side's wagons and unbridged pontoons, which a move may name alone (8 MP)."""
    from .wagons import escort, lone_movers, where

    st = cast(FullGameState, {**view, "logistics": view.get("logistics") or {}, "units": view.get("units") or {},
                               "leaders": view.get("leaders") or {}})
    out = []
    for mover in lone_movers(st, side):
        s = st["logistics"].get(mover)
        if s is None:
            pt = next(p for p in st.get("pontoons") or [] if p.get("id") == mover)
            if pt.get("status") == "unbridged":
                out.append(f"  {mover}: {where(st, mover)}, an unbridged pontoon, 8 MP alone (8.81)")
            continue
        ride = escort(st, mover)
        out.append(f"  {mover}: {where(st, mover)}, a wagon of capacity {s.get('capacity')}"
                   + (f" with {s['leader']}'s force" if s.get("leader") else "") + ", 8 MP alone (7.21)"
                   + (f", escort {', '.join(ride)}" if ride else ""))
    return (["Your wagons and pontoons (a move {force: ID, path} takes one alone):"] + out) if out else []


# --- the Reorganization Segment's sealed orders (12.0-13.x, 4.31-4.33) -----------------------------

#: the keys of the Reorganization checkers (reorg_destruction, reorg_foraging, reorg_supply_recheck,
#: administration.ADMIN_ORDER, admin_leaders), each with its meaning and rule
REORG_DOCS = [
    "choice.destruction: burning, a list of {leader, bridge?, town?, landing?, attempts?}, 1 AP an attempt "
    "(13.1): bridge: \"A/B\", a bridged major-river hexside, the leader's stack with cavalry in a hex at either "
    "end (13.11); town: the OC in the town (13.12); landing: Confederates, a Union Naval Landing hex (13.13)",
    "choice.foraging: a list of {leader}: an active OC in a town or major city forages, June to September, "
    "1 AP (13.2)",
    "choice.attrition: {emergency?, ml?, losses?} for the Supply Recheck (4.31, 7.31a):",
    "choice.attrition.emergency: {force: wagon or depot}: consumed for the force's emergency supply (7.35)",
    "choice.attrition.ml: {leader: n}: ML the OC gives up, -1 on the attrition roll each (3.54c)",
    "choice.attrition.losses: {leader: [units]}: the units that take the attrition steps, in order",
    "choice.administration: {replacements?, leaders?, wdo?, chief_of_staff?, cavalry_corps?, detachments?, "
    "ammo?, training?, entrench?, train?, remove_landing?, open_rail?}, carried out in that order (4.32):",
    "choice.administration.replacements: a list of {unit, steps, leader?}: a reduced unit in the box of a "
    "leader on the map, in full supply, takes steps back, one replacement step and 1 AP a step; leader: who "
    "pays the AP, by default the leader whose box it is (4.32, 3.24a, 7.34)",
    "choice.administration.leaders: a list of {relieve: LEADER} (a leader with no units in his box) or "
    "{appoint: LEADER, box: BOX, ordered_by?: ARMY_COMMANDER} (4.32(2), 3.41(2), 3.31b)",
    "choice.administration.wdo: War Department Orders, 10 WEP, at most 1 a turn, a list of "
    "{army_commander: LEADER, from: LEADER} or {remove: LEADER} (3.41)",
    "choice.administration.chief_of_staff: a list of {leader, army}: a WDO and 1 AP of the army commander (3.32)",
    "choice.administration.cavalry_corps: leaders whose box of cavalry alone becomes a corps (4.32(3), 3.12)",
    "choice.administration.detachments: a list of {leader, unit, by: step_loss or removal}, 1 AP (8.51)",
    "choice.administration.ammo: a list of {leader, asp}: ammunition bought, 1 AP, forces in communication "
    "and full supply only (7.34, 4.32(5))",
    "choice.administration.training: a list of {leader}: ML +1, 1 AP (3.53(2), 14.52)",
    "choice.administration.entrench: a list of {leader}: one entrenchment level, 1 AP (3.24a)",
    "choice.administration.train: a list of {hex}: the one extra train, in a friendly major city (8.72)",
    "choice.administration.remove_landing: Union: captured landings declared exhausted, taken off (8.64a)",
    "choice.administration.open_rail: a list of {from, to}: one stretch a turn, station to next station (8.71)",
]


def _reorganization(view: Mapping[str, Any], side: str) -> list[str]:
    """The keys of the Reorganization orders, the side's replacement steps on its Number Track and
    the units that could take them (its own display, 3.16, 3.71)."""
    notes = list(REORG_DOCS)
    if side == "union":
        notes.append("choice.naval: the Union Naval Sequence, {transport: [...], announce?: true} (4.33)")
    have = int((view.get("replacements") or {}).get(side) or 0)
    notes += ["", "An empty choice, {}, orders nothing.  For example:",
              "  administration: {replacements: [{unit: UNIT, steps: 1, leader: LEADER}], training: [{leader: LEADER}]}",
              "", f"Replacement steps on your Number Track: {have} (3.16, 4.32)"]
    reduced = sorted((uid, u) for uid, u in view.get("units", {}).items()
                     if u.get("side") == side and u.get("leader") and 0 < u["steps"] < len(u.get("cf") or []))
    if reduced:
        notes.append("Your reduced units in a leader's box (unit: steps of most, leader and his AP):")
        notes += [f"  {uid}: {u['steps']} of {len(u['cf'])}, {u['leader']} (AP "
                  f"{view.get('leaders', {}).get(u['leader'], {}).get('ap', '?')})" for uid, u in reduced]
    else:
        notes.append("Your units in leaders' boxes are all at full strength.")
    return notes


# --- the defender's answer (9.0-9.2) ----------------------------------------------------------------

def _retreat_year_notes(view: Mapping[str, Any], side: str) -> list[str]:
    """9.21's exceptions by year, for this turn's year of the game's calendar."""
    from .reorg_step import year_of

    year = year_of(cast(FullGameState, view))
    if year == 1861:
        return ["In 1861 neither side may retreat before combat (9.21)."]
    if side == "confederate" and year == 1862:
        return ["In 1862 your OC loses no ML for a pre-combat retreat; a rear guard still stays (9.21)."]
    if side == "confederate" and year == 1863:
        return ["In 1863 you are not held to conditions 3 and 4: no higher ML or cavalry needed, no ML "
                "loss, no rear guard (9.21)."]
    return []


def _defence(view: Mapping[str, Any], decision: Decision, side: str, charts: Charts) -> tuple[list[str], dict]:
    from . import model
    from .report import describe_top

    enemy = model.other_side(side)
    imp = view.get("current", {}).get("active_impulse") or {}
    assaults = imp.get("assaults") or []
    seen = view.get("seen", {}).get(enemy, {})
    notes = [f"choice.react: reactions (9.1), a list of {_keys(REACT_DOCS, ('force', 'against'))}; [] for none:"]
    notes += _entry_lines("choice.react[]", REACT_DOCS)
    notes += [f"choice.retreat: pre-combat retreats (9.2), a list of {_keys(RETREAT_DOCS, ('force',))}; "
              "[] for none:"]
    notes += _entry_lines("choice.retreat[]", RETREAT_DOCS)
    notes += _retreat_year_notes(view, side)
    notes += ["Leave both lists empty to stand and fight.", "",
              f"Assaulted hexes ({enemy} attacks, 8.42, 9.0):"]
    targets = sorted({a["target"] for a in assaults})
    for a in assaults:
        top = seen.get(a["source"], {}).get("top")
        who = describe_top(top) if top else a.get("force", "an enemy force")
        mine = [f for f in _own_forces(view, side) if _force_hex(view, f) == a["target"]]
        notes.append(f"  {a['target']}: assaulted by {who} from {a['source']}"
                     + (" (hasty)" if a.get("hasty") else "") + "; your forces there: "
                     + (", ".join(mine) or "none"))
    if not assaults:
        notes.append("  none")
    notes += _reaction_notes(view, side, assaults, targets, charts)
    return notes, {"react": [], "retreat": []}


def _own_forces(view: Mapping[str, Any], side: str) -> list[str]:
    return sorted(_forces_in_view(view, side))


def _force_hex(view: Mapping[str, Any], fid: str) -> str | None:
    if fid.startswith("unled@"):
        return fid.split("@")[1]
    return view["leaders"].get(fid, {}).get("hex")


def _as_state(view: Mapping[str, Any], side: str) -> FullGameState:
    """The view as a state the rules can read: in an umpired game the enemy's stacks are only the top
    counters the side sees, so each seen stack with a leader or a combat unit on top stands in as one
    unled unit (it blocks a reaction's way and exerts ZOC, 3.61, 9.13)."""
    import copy

    from . import model

    st = cast(FullGameState, copy.deepcopy({**view, "logistics": view.get("logistics", {})}))
    enemy = model.other_side(side)
    if any(u.get("side") == enemy for u in st["units"].values()):
        return st                           # an open game: the whole map is known
    for label, entry in view.get("seen", {}).get(enemy, {}).items():
        top = entry.get("top") or {}
        if top.get("kind") not in ("leader", "unit") or top.get("arm") == "detachment":
            continue
        st["units"][f"seen@{label}"] = {"side": enemy, "name": "seen stack", "arm": top.get("arm", "infantry"),
                                        "size": top.get("size", "division"), "cf": [1, 1], "ml": [1, 1],
                                        "steps": 1, "leader": None, "hex": label}
    zero: Ratings = {"ar": 0, "br": 0, "mr": 0}
    for a in (view.get("current", {}).get("active_impulse") or {}).get("assaults") or []:
        if not a["force"].startswith("unled@") and a["force"] not in st["leaders"]:
            st["leaders"][a["force"]] = {"side": enemy, "name": a["force"], "hex": a["source"], "superior": None,
                                         "pool": False, "stars": 1, "active": True, "hq": False, "ml": 0, "ap": 0,
                                         "ratings": {"active": zero.copy(), "inactive": zero.copy()}}
    return st


def _reaction_notes(view: Mapping[str, Any], side: str, assaults: list[dict], targets: list[str],
                    charts: Charts) -> list[str]:
    """Which forces may react, to which hexes and on whose order, and which may retreat (9.1, 9.2)."""
    try:
        st = _as_state(view, side)
        hm = charts.map(st["map"])
        commanders = _army_commanders(st, side)
        react_lines, cannot, retreat_lines = [], [], []
        for fid in _own_forces(view, side):
            here = _force_hex(view, fid)
            if here in targets:
                retreat_lines.append(_retreat_line(st, hm, fid, here))
                continue
            if fid.startswith("unled@"):
                continue                    # 9.1: a reaction is a leader's order
            ways, first_why = _reaction_ways(st, hm, fid, assaults, commanders)
            if ways:
                react_lines += [f"  {fid} in {here}, against {t}: " + " or ".join(w) for t, w in ways.items()]
            else:
                cannot.append(f"  {fid} in {here}: " + (first_why or "no reaction is possible"))
        return _reaction_text(react_lines, cannot, retreat_lines)
    except Exception:                       # noqa: BLE001 -- a view the rules cannot read: the keys suffice
        return ["Your forces: " + ", ".join(_own_forces(view, side))]


def _army_commanders(st: FullGameState, side: str) -> list[str]:
    """9.1: the army commanders on the map who may order a reaction."""
    return sorted(lid for lid, ld in st["leaders"].items()
                  if ld["side"] == side and ld.get("hq") and ld.get("hex") and not ld.get("pool"))


def _retreat_line(st: FullGameState, hm, fid: str, here: str | None) -> str:
    """9.2: where an assaulted force could retreat before combat (hexes free of enemy ZOC)."""
    from .reaction import retreat_options

    try:
        opts = retreat_options(st, hm, fid)
    except Exception:           # noqa: BLE001 -- a hint only; the checker decides
        opts = []
    return f"  {fid} in {here}: retreat to " + (" or ".join(opts) if opts else "no open hex (none free of enemy ZOC)")


def _reaction_ways(st: FullGameState, hm, fid: str, assaults: list[dict],
                   commanders: list[str]) -> tuple[dict[str, list[str]], str | None]:
    """9.1 / 9.13: each destination (the attacked hex or a support position) ``fid`` could react to,
    on its own initiative or on an army commander's order, probed with the reaction rules without a
    roll; and the first reason it could not."""
    from .attack import Assault
    from .impulse_combat import _Probe, _ProbeDice
    from .reaction import reaction, support_positions

    ways: dict[str, list[str]] = {}
    first_why = None
    for a in assaults:
        attack = Assault(a["force"], a["source"], a["target"], a.get("hasty", False))
        for dest in [a["target"]] + support_positions(hm, attack):
            for cmd in [None] + commanders:
                try:
                    r = reaction(st, hm, fid, attack, _ProbeDice(), commander=cmd, destination=dest)
                except _Probe:
                    ways.setdefault(a["target"], []).append(
                        f"to {dest} ({'join' if dest == a['target'] else 'support'}, "
                        + (f"commander: {cmd})" if cmd else "own initiative)"))
                    break
                if first_why is None and r.problems and (cmd is not None or not commanders):
                    first_why = r.problems[0].message
    return ways, first_why


def _reaction_text(react_lines: list[str], cannot: list[str], retreat_lines: list[str]) -> list[str]:
    """The note: who may react (9.1, 9.13), who cannot, and who may retreat before combat (9.21)."""
    lines = ["Your forces that may react (9.1, 9.13), from what your map shows:"]
    lines += react_lines or ["  none"]
    if cannot:
        lines += ["Your forces that cannot react now:"] + cannot
    lines += ["Your assaulted forces, which may retreat before combat if 9.21 allows:"]
    lines += retreat_lines or ["  none"]
    return lines
