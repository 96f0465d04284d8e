"""Salem Church report sections, map markers and order templates, from a view (never the state);
a template's arrivals are placed on the game's map (its charts)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..base import Decision, Section

if TYPE_CHECKING:
    from ...kit.charts import Charts

VICTORY_HEXES = ("1204", "1302", "2114", "2407")      # 14.1, 14.2
SIDES = ("union", "confederate")


def _cf(u: dict) -> str:
    if u.get("type") not in ("infantry", "artillery"):
        return "-"
    reduced = int(u.get("steps", 0)) < int(u.get("full_steps", u.get("steps", 0))) and u.get("cf_reduced") is not None
    return str(u["cf_reduced"] if reduced else u.get("cf", "?"))


def _state(u: dict) -> str:
    if u.get("exited"):
        return f"exited ({u['exited']})"
    for flag in ("captured", "killed", "eliminated"):
        if u.get(flag):
            return flag
    if u.get("hex") is None:
        return "not yet arrived"
    return "disrupted" if u.get("disrupted") else "ok"


def sections(view: Mapping[str, Any]) -> list[Section]:
    """The report of a view: the turn (13.4, 18.0, 17.1, 16.0), the victory result (14.0), the
    victory hexes (14.1, 14.2), each side's units as the reader sees them, the turn's combats (B1)."""
    out = [_turn_section(view)]
    if view.get("victory_result"):
        out.append(_victory_section(view["victory_result"]))
    out.append(_victory_hexes_section(view))
    out += _unit_sections(view)
    combats = _combats_section(view)
    if combats is not None:
        out.append(combats)
    return out


def _turn_section(view: Mapping[str, Any]) -> Section:
    """The turn (13.4; night 18.0), the phasing player, the Union initiative (17.1), the wagon train (16.0)."""
    rules = view.get("rules", {})
    night = view["turn"] in (rules.get("night") or {}).get("turns", [])
    over = view.get("stage") == "over"
    head = Section(f"Game over after turn {view['turn']}" if over else f"Turn {view['turn']} of "
                   f"{rules.get('turns', 14)}" + (" -- NIGHT (18.0)" if night else ""))
    if view.get("stage") == "setup":
        head.lines.append("Set-up: the Confederates place Wilcox/M west of column 16 (13.3).")
    elif not over:
        head.lines.append(f"Phasing: the {view['phasing']} player turn.")
    rolled = view.get("initiative_turn")
    head.lines.append(f"Union initiative: {str(view.get('initiative') or 'full').upper()} (17.1"
                      + (f": turn {rolled}'s roll, made at the start of the Union movement phase)" if rolled
                         else ", rolled from turn 7)" if view["turn"] >= 7 else ": full until turn 7)"))
    w = view.get("wagon") or {}
    head.lines.append("The Union wagon train (16.0): " + ("captured" if w.get("captured") else
                                                          f"exited{' at ' + str(w['hex']) if w.get('hex') else ''} ({w.get('exited')})"
                                                          if w.get("exited") else "with the army"))
    return head


def _victory_section(v: Mapping[str, Any]) -> Section:
    """The victory determination (14.0) and the VP (14.3)."""
    s = Section(f"Victory (14.0): {v['result'].upper()} ({v['rule']})", lines=v["why"].splitlines()[1:])
    s.lines.append("VP (14.3, stand-in schedule): " + ", ".join(
        f"{side} {pts}" for side, pts in sorted(v["score"]["points"].items())))
    return s


def _victory_hexes_section(view: Mapping[str, Any]) -> Section:
    """Who holds each victory hex (14.1, 14.2: occupied or last passed through)."""
    ctrl = view.get("control") or {}
    s = Section("Victory hexes (14.1, 14.2: occupied or last passed through)", columns=["hex", "held by"])
    for h in VICTORY_HEXES:
        s.rows.append([h, ctrl.get(h, "nobody")])
    return s


def _unit_sections(view: Mapping[str, Any]) -> list[Section]:
    """Each side's units the view shows: the reader's own army in full (secret), the enemy's as seen."""
    out = []
    mine = view.get("viewer")
    for side in SIDES:
        units = {uid: u for uid, u in view.get("units", {}).items() if u.get("side") == side}
        if not units:
            continue
        secret = mine == side
        title = (f"Your army: {side}" if secret else f"{side.capitalize()} units" +
                 (" in sight" if (view.get("view") or {}).get("los") and mine else ""))
        s = Section(title, columns=["unit", "type", "hex", "steps", "CF", "morale", "state"], secret=secret)
        for uid, u in sorted(units.items(), key=lambda kv: (kv[1].get("hex") is None, kv[1].get("hex") or "", kv[0])):
            s.rows.append([u.get("name", uid), u.get("type", "?"), u.get("hex") or "-",
                           f"{u.get('steps', '?')}/{u.get('full_steps', u.get('steps', '?'))}"
                           if secret else str(u.get("steps", "?")), _cf(u), str(u.get("morale") or "-"), _state(u)])
        out.append(s)
    return out


def _combats_section(view: Mapping[str, Any]) -> Section | None:
    """The turn summary (B1): the combats of the turn being played, or of the turn just ended."""
    combats = list(view.get("combats") or [])
    if not combats:
        return None
    turns = sorted({c["turn"] for c in combats})
    s = Section(f"Turn summary: the combats of turn {', '.join(map(str, turns))} "
                "(B1: differential A-D = attack CF - defence CF)",
                columns=["turn", "by", "attackers", "target", "A-D", "column", "die", "result", "effects"])
    for c in combats:
        s.rows.append([str(c["turn"]), c["side"] + (" (counter)" if c.get("counter") else ""),
                       ", ".join(c["attackers"]), c["target"], f"{c['attack']}-{c['defence']} = "
                       f"{c['differential']:+d}", str(c.get("column") or "-"), str(c.get("die") or "-"),
                       str(c.get("result") or "-"), c.get("effects", "")])
    return s


def map_units(view: Mapping[str, Any]) -> list[dict]:
    """Markers for the SVG map: every unit the view shows on the map."""
    out = []
    for uid, u in sorted(view.get("units", {}).items()):
        if u.get("hex") is None or int(u.get("steps", 0)) <= 0:
            continue
        label = str(u.get("name", uid))          # Third/1, Third/2: the formation tells them apart
        if u.get("disrupted"):
            label += "*"
        out.append({"id": uid, "side": u["side"], "hex": u["hex"], "label": label, "kind": u.get("type", "unit"),
                    **_counter_details(u, (view.get("view") or {}).get("side"))})
    return out


def _counter_details(u: Mapping[str, Any], viewer: str | None) -> dict:
    """What the counter shows beyond its name, from the unit as the view gives it: CF (reduced
    when it has lost a step), steps, and its state; a leader his modifier (17.3) and the wagon
    train nothing (neither has a CF nor steps to lose in combat)."""
    mine = viewer is not None and u.get("side") == viewer
    if u.get("type") == "leader":
        mod = u.get("leader_modifier")
        return {"strength": "leader" + ("" if mod is None else f" {int(mod):+d}"), "viewer": mine}
    if u.get("type") == "wagon_train":
        return {"strength": "wagons", "viewer": mine}
    cf = u.get("cf_reduced") if int(u.get("steps", 0)) == 1 and u.get("cf_reduced") is not None else u.get("cf")
    state = ", ".join(k for k in ("disrupted", "routed", "ineffective") if u.get(k))
    return {"strength": "" if cf is None else f"CF {cf}", "steps": u.get("steps"), "state": state,
            "viewer": viewer is not None and u.get("side") == viewer}


#: the keys :func:`.orders_check.check_orders` accepts (ORDER_KEYS, MOVE_KEYS, ATTACK_KEYS, STANDING_KEYS), each with
#: its meaning and rule; ``choice.KEY[].SUB`` is a key of KEY's entries, ``?`` an optional one
ORDER_DOCS = [
    "choice.entry: the hex all of this turn's arrivals enter by, one of their entry hexes (13.3)",
    "choice.replacements: at most 2 steps a turn (13.2, 13.3), a list of {unit, hex?}:",
    "choice.replacements[].unit: your reduced combat unit back to full, or eliminated one back reduced",
    "choice.replacements[].hex: where an eliminated unit returns, one of its entry hexes (13.2, 13.3)",
    "choice.moves: your units' moves, in the order they move (D3, 13.4), a list of {unit, path, leader?}:",
    "choice.moves[].unit: your unit's id",
    "choice.moves[].path: the hexes entered, in order, at the TEC's costs (D3, TEC); an arriving unit's "
    "first hex is the entry hex; the wagon train may end it with \"off\" (16.0)",
    "choice.moves[].leader: the Union leader whose stack the unit moves with, for his initiative check (17.2)",
    "choice.bombard: your artillery's fire, before the attacks, once per battery a turn (stand-in), a list of "
    "{unit, target}:",
    "choice.bombard[].target: an enemy hex within the battery's range and in its line of sight for fire (TEC)",
    "choice.attacks: your attacks, in the order they are fought (B1), a list of "
    "{attackers, target, first?, losses?, advance?, choice?, hexes?}:",
    "choice.attacks[].attackers: your attacking units, next to the target, each in one attack only "
    "(B1: a unit attacks once a combat phase, the series' reading)",
    "choice.attacks[].target: the enemy hex attacked (B1)",
    "choice.attacks[].first: your first unit (B2): the attacker that makes your morale checks, the CRT's "
    "and at Low Initiative 17.3's, and advances first; by default the first attacker listed",
    "choice.attacks[].losses: your attackers in the order they lose steps (an exchange, a loss you take), "
    "by default the one with the most steps, then CF (B2)",
    "choice.attacks[].advance: true: advance into the hex if the defenders retreat (B2)",
    "choice.attacks[].choice: retreat, disrupt or loss: your answer if the result hits you (B2)",
    "choice.attacks[].hexes: 1, 2 or 3: how far you retreat if you do (B2)",
    "choice.standing: your answers during the enemy's next player turn (digest F2), "
    "{choice?, loss?, hexes?, losses?, counter_attacks?}:",
    "choice.standing.choice: retreat or disrupt, on an Ar/Dr result (B2)",
    "choice.standing.loss: loss or retreat, on an Ax/Dx result when a check is passed (B2)",
    "choice.standing.hexes: 1, 2 or 3: how far you retreat (B2)",
    "choice.standing.losses: your units, first to lose a step, in the enemy's attacks and after an "
    "attack's own `losses` in yours (B2)",
    "choice.standing.counter_attacks: a list of {units, target, first?}: counter-attacks by your units "
    "next to an enemy unit, not attacked this phase, each unit in one counter-attack only (7.2)",
]


def _first_legal(work: dict, hm, uid: str, candidates: list[list[str]]) -> list[str] | None:
    """The first of ``candidates`` the checker accepts for ``uid`` on ``work``; the unit is then
    moved there in ``work`` so that the next unit's check sees it (D3 stacking)."""
    from .movement import Surroundings, surroundings
    from .path_walk import check_path

    around: Surroundings | None = None            # the same for every candidate: ``work`` stands still
    for cand in candidates:
        try:
            if around is None:
                around = surroundings(work, hm, uid, work["units"][uid]["side"])
            mc = check_path(work, hm, uid, cand, around=around)
        except Exception:               # noqa: BLE001 -- a hint only: try the next path
            continue
        if not mc.problems:
            work["units"][uid] = {**work["units"][uid], "hex": mc.end}
            return cand
    return None


def _could_enter(work: dict, hm, uid: str, label: str, blockers: list[str]) -> bool:
    """Whether ``uid`` could enter ``label`` were ``blockers`` gone from it."""
    import copy

    trial = {**work, "units": copy.deepcopy(work["units"])}
    for b in blockers:
        trial["units"][b] = {**trial["units"][b], "hex": None}
    return _first_legal(trial, hm, uid, [[label]]) is not None


def _arrival_moves(view: Mapping[str, Any], charts: Charts, moves: list[dict], units: list[str],
                   entry: str) -> list[dict]:
    """Moves for the units arriving by ``entry`` that the checker accepts on the side's view: the entry
    hex, or on to a neighbouring hex when the entry hex is full (D3 stacking).  When an arrival finds
    no such path (the wagon train may not enter a hex holding another unit, 16.0), the side's units
    standing in the entry hex first step out to a neighbouring hex, and the arrivals are tried again."""
    import copy

    ring = _entry_ring(view, charts, entry)
    if ring is None:                         # a hint only: the plain entry hex
        return [{"unit": uid, "path": [entry]} for uid in units]
    hm, around, onward = ring
    for move_on in (False, True):
        placed = _place(_fresh(view), hm, units, entry, onward, move_on)
        if all(path is not None for _, path in placed):
            return [{"unit": uid, "path": path} for uid, path in placed]
    work = _clear_entry(view, hm, moves, entry, around)
    for move_on in (False, True):
        placed = _place(copy.deepcopy(work), hm, units, entry, onward, move_on)
        if all(path is not None for _, path in placed):
            break
    return [{"unit": uid, "path": path or [entry]} for uid, path in placed]


def _entry_ring(view: Mapping[str, Any], charts: Charts, entry: str) -> tuple[Any, list[str], list[list[str]]] | None:
    """The map (the game's, of ``charts``), the hexes around ``entry`` and the paths on from it
    (one or two hexes), or None when the view's map cannot give them."""
    from .board import hexmap

    try:
        hm = hexmap(charts, view)
        around = [hm.label(n) for n in hm.parse(entry).neighbours() if n in hm.grid]
        beyond = {n: [hm.label(m) for m in hm.parse(n).neighbours() if m in hm.grid and hm.label(m) != entry]
                  for n in around}
    except Exception:                       # noqa: BLE001 -- a hint only: the plain entry hex
        return None
    return hm, around, [[entry, n] for n in around] + [[entry, n, m] for n in around for m in beyond[n]]


def _clear_entry(view: Mapping[str, Any], hm, moves: list[dict], entry: str, around: list[str]) -> dict:
    """D3, 16.0: the side's units standing in the entry hex step out first (their moves put first in
    ``moves``); the view with them moved."""
    clearing = _Clearing(_fresh(view), hm, {m["unit"]: m for m in moves})
    for uid, x in list(clearing.work["units"].items()):
        if x.get("hex") == entry and uid in clearing.by_unit and not clearing.by_unit[uid]["path"]:
            clearing.step_out(uid, around, {entry})
    moves[:] = clearing.first + [m for m in moves if all(m is not f for f in clearing.first)]
    return clearing.work


def _fresh(view: Mapping[str, Any]) -> dict:
    """A copy of the view whose units the checks may move."""
    import copy

    return {**view, "units": copy.deepcopy(view.get("units", {}))}


def _place(work: dict, hm, units: list[str], entry: str, onward: list[list[str]],
           move_on: bool) -> list[tuple[str, list[str] | None]]:
    """D3 stacking: each arrival's first legal path, the entry hex first (or last, ``move_on``),
    each placed before the next is tried."""
    return [(uid, _first_legal(work, hm, uid, onward + [[entry]] if move_on else [[entry]] + onward))
            for uid in units]


class _Clearing:
    """The side's units standing in an entry hex stepping out of the way, in the order they move (D3, 16.0)."""

    def __init__(self, work: dict, hm, by_unit: dict[str, dict]) -> None:
        self.work, self.hm, self.by_unit = work, hm, by_unit
        self.first: list[dict] = []         # the moves that clear the way, in the order they move (D3)

    def step_out(self, uid: str, targets: list[str], keep_clear: set[str]) -> bool:
        """Move ``uid`` to one of ``targets`` (or one hex beyond), clearing a target of the side's
        standing units first when it must (the wagon train enters no hex holding a unit, 16.0)."""
        work, hm, by_unit = self.work, self.hm, self.by_unit
        here = work["units"][uid]["hex"]
        nexts = {n: [hm.label(m) for m in hm.parse(n).neighbours()
                     if m in hm.grid and hm.label(m) not in keep_clear | {here}] for n in targets}
        tries = [[n] for n in targets] + [[n, m] for n in targets for m in nexts[n]]
        path = _first_legal(work, hm, uid, tries)
        if path is None:
            path = self._clear_a_target(uid, targets, nexts, keep_clear | {here})
        if path is None:
            return False
        by_unit[uid]["path"] = path
        self.first.append(by_unit[uid])
        return True

    def _clear_a_target(self, uid: str, targets: list[str], nexts: dict[str, list[str]],
                        keep_clear: set[str]) -> list[str] | None:
        """16.0: a target held by the side's standing units, cleared by moving them on first."""
        work, hm, by_unit = self.work, self.hm, self.by_unit
        for n in targets:
            blockers = [u for u, x in work["units"].items() if x.get("hex") == n and u in by_unit
                        and not by_unit[u]["path"] and u != uid]
            if not blockers or not _could_enter(work, hm, uid, n, blockers):
                continue
            if all(self.step_out(b, nexts[n], keep_clear | {n}) for b in blockers):
                path = _first_legal(work, hm, uid, [[n]] + [[n, m] for m in nexts[n]])
                if path is not None:
                    return path
        return None


def _enemy_in_sight(view: Mapping[str, Any], side: str) -> list[str]:
    """The enemy units the side's view holds (those in its line of sight, or all on an open map),
    by hex: name, type, steps and combat factor."""
    here: dict[str, list[str]] = {}
    for u in sorted(view.get("units", {}).values(), key=lambda u: str(u.get("name"))):
        if u.get("side") in (side, None) or u.get("hex") is None or int(u.get("steps") or 0) <= 0 or u.get("exited"):
            continue
        cf = f", CF {u['cf']}" if u.get("cf") else ""
        here.setdefault(str(u["hex"]), []).append(f"{u.get('name')} ({u.get('type')}, {u['steps']} step(s){cf})")
    lines = ["", "Enemy units in sight: hex: units"]
    lines += [f"  {h}: {', '.join(names)}" for h, names in sorted(here.items())] or ["  none"]
    return lines


def template(view: Mapping[str, Any], decision: Decision, side: str, charts: Charts) -> tuple[list[str], dict]:
    if decision.kind == "setup":
        spec = ((view.get("rules") or {}).get("setup") or [{}])[0]
        cols = spec.get("area", {}).get("columns", [1, 15])
        return [f"choice.place: a mapping unit id: hex, a hex for each of {', '.join(spec.get('units', []))}, "
                f"in columns {cols[0]:02d}-{cols[1]:02d} ({spec.get('rule', '13.3')})"], dict(decision.example)
    if decision.kind != "orders":
        return [decision.prompt], dict(decision.example)
    rules = view.get("rules", {})
    notes = list(ORDER_DOCS) + ["", f"Your units ({side}): id, hex, steps, MP"]
    moves = []
    for uid, u in sorted(view.get("units", {}).items()):
        if u.get("side") != side or int(u.get("steps", 0)) <= 0 or u.get("exited"):
            continue
        if u.get("hex") is not None:
            notes.append(f"  {uid}: {u['hex']}, {u['steps']} step(s), MP {u.get('mp')}")
            moves.append({"unit": uid, "path": []})
    arriving = [g for g in rules.get("reinforcements", []) if g["side"] == side and g["turn"] == view["turn"]]
    choice: dict = {"moves": moves}
    for g in arriving:
        notes.append(f"  arriving this turn ({g['rule']}): {', '.join(g['units'])} by "
                     f"{' or '.join(g['entry_hexes'])}: give `entry` and their paths (first hex = the entry hex)")
        choice["entry"] = g["entry_hexes"][0]
        moves += _arrival_moves(view, charts, moves, g["units"], str(g["entry_hexes"][0]))
    notes += _enemy_in_sight(view, side)
    choice.update(attacks=[], standing={"choice": "disrupt", "hexes": 1})
    return notes, choice
