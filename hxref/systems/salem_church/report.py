"""Salem Church report sections, map markers and order templates, from a view (never the state)."""
from __future__ import annotations

from ..base import Decision, Section

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


def sections(view: dict) -> list[Section]:
    out: list[Section] = []
    rules = view.get("rules", {})
    night = view["turn"] in (rules.get("night") or {}).get("turns", [])
    over = view.get("stage") == "over"
    head = Section(f"Game over after turn {view['turn']}" if over else f"Turn {view['turn']} of "
                   f"{rules.get('turns', 14)}" + (" -- NIGHT (18.0)" if night else ""))
    if view.get("stage") == "setup":
        head.lines.append("Set-up: the Confederates place Wilcox/M west of column 16 (13.3).")
    elif not over:
        head.lines.append(f"Phasing: the {view['phasing']} player turn.")
    head.lines.append(f"Union initiative: {view.get('initiative', 'full').upper()} (17.1"
                      + (", rolled from turn 7)" if view["turn"] >= 7 else ": full until turn 7)"))
    w = view.get("wagon") or {}
    head.lines.append("The Union wagon train (16.0): " + ("captured" if w.get("captured") else
                                                          f"exited at {w.get('hex')} ({w.get('exited')})"
                                                          if w.get("exited") else "with the army"))
    out.append(head)
    if view.get("victory_result"):
        v = view["victory_result"]
        s = Section(f"Victory (14.0): {v['result'].upper()} ({v['rule']})", lines=v["why"].splitlines()[1:])
        s.lines.append("VP (14.3, stand-in schedule): " + ", ".join(
            f"{side} {pts}" for side, pts in sorted(v["score"]["points"].items())))
        out.append(s)
    ctrl = view.get("control") or {}
    s = Section("Victory hexes (14.1, 14.2: occupied or last passed through)", columns=["hex", "held by"])
    for h in VICTORY_HEXES:
        s.rows.append([h, ctrl.get(h, "nobody")])
    out.append(s)
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
    # the state keeps the combats of the turn being played, or of the turn just ended
    combats = list(view.get("combats") or [])
    if combats:
        turns = sorted({c["turn"] for c in combats})
        s = Section(f"Turn summary: the combats of turn {', '.join(map(str, turns))} "
                    "(B1: differential A-D = attack CF - defence CF)",
                    columns=["turn", "by", "attackers", "target", "A-D", "column", "die", "result", "effects"])
        for c in combats:
            s.rows.append([str(c["turn"]), c["side"] + (" (counter)" if c.get("counter") else ""),
                           ", ".join(c["attackers"]), c["target"], f"{c['attack']}-{c['defence']} = "
                           f"{c['differential']:+d}", str(c.get("column") or "-"), str(c.get("die") or "-"),
                           str(c.get("result") or "-"), c.get("effects", "")])
        out.append(s)
    return out


def map_units(view: dict) -> list[dict]:
    """Markers for the SVG map: every unit the view shows on the map."""
    out = []
    for uid, u in sorted(view.get("units", {}).items()):
        if u.get("hex") is None or int(u.get("steps", 0)) <= 0:
            continue
        label = str(u.get("name", uid))          # Third/1, Third/2: the formation tells them apart
        if u.get("disrupted"):
            label += "*"
        out.append({"id": uid, "side": u["side"], "hex": u["hex"], "label": label, "kind": u.get("type", "unit")})
    return out


def template(view: dict, decision: Decision, side: str) -> tuple[list[str], dict]:
    if decision.kind != "orders":
        return [decision.prompt], dict(decision.example)
    rules = view.get("rules", {})
    notes = [f"Your units ({side}): id, hex, steps, MP"]
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
        moves += [{"unit": uid, "path": [g["entry_hexes"][0]]} for uid in g["units"]]
    notes += ["Each path lists the hexes entered in order (13.x, TEC). attacks: [{attackers, target, advance}].",
              "standing: your answers during the enemy's turn (retreat or disrupt, hexes 1-3, counter_attacks)."]
    choice.update(attacks=[], standing={"choice": "disrupt", "hexes": 1})
    return notes, choice
