"""KGP campaign report sections, from a view: the public CG Roster, and each side's own
CPP, purchases and secrets (8.14, 8.15)."""
from __future__ import annotations

from ..base import Section

SIDE_NAMES = {"us": "US", "german": "German"}


def sections(view: dict) -> list[Section]:
    out: list[Section] = []
    head = Section(f"KGP {view['cg'].upper()}: {view['title']}")
    stage = {"setup": "Initial Scenario set-up", "play": f"scenario in play, turn {view['turn']}",
             "report": "scenario reports", "refit": "Refit Phase (8.6)", "over": "the CG is over"}[view["stage"]]
    head.lines.append(f"CG Date {view['date']} of {', '.join(view['dates'])}; {stage}")
    sc = view.get("scenario") or {}
    if sc and view["stage"] in ("setup", "play"):
        head.lines.append(f"Scenario {sc['date']}{' (Initial)' if sc.get('initial') else ''}"
                          f"{' (Night)' if sc.get('night') else ''}: attacker {SIDE_NAMES.get(sc['attacker'])}, "
                          f"{SIDE_NAMES.get(sc['sets_up_first'])} set up first, "
                          f"{SIDE_NAMES.get(sc['moves_first'])} move first")
    if view.get("weather"):
        head.lines.append(f"KG weather: {view['weather']} (stand-in chart)")
    head.lines.append("Attack chits used: " + ", ".join(
        f"{SIDE_NAMES[s]} {view['chits'][s]} of {view['chit_limits'][s]}" for s in ("us", "german")))
    out.append(head)
    if view.get("result"):
        r = view["result"]
        s = Section(f"Campaign result: {SIDE_NAMES.get(r['winner'], 'no winner')} ({r['rule']})", [r["why"]],
                    columns=["condition", "side", "checked", "met", "detail"])
        for c in r["checks"]:
            s.rows.append([c["id"], SIDE_NAMES.get(c["side"], c["side"]), "yes" if c["checked"] else "not yet",
                           "MET" if c["met"] else "no", c["detail"]])
        out.append(s)
    roster = Section("CG Roster (8.14)", columns=["CG Date", "scenario", "LVP US", "LVP German", "CG-LVP US",
                                                  "CG-LVP German", "winner"])
    for row in view.get("roster", []):
        lvp = row.get("lvp") or {}
        roster.rows.append([row["date"], "yes" if row.get("scenario") else "Idle Date", str(lvp.get("us", "-")),
                            str(lvp.get("german", "-")), str(row["cg_lvp"]["us"]), str(row["cg_lvp"]["german"]),
                            SIDE_NAMES.get(row.get("winner"), row.get("winner") or "-")])
    out.append(roster)
    refit = [r for r in view.get("refit", []) if r["date"] == view["date"]]
    if refit:
        s = Section(f"Refit Phase for {view['date']} (8.6)", columns=["step", "title", "how", "why"])
        for r in refit:
            s.rows.append([r["step"], r["title"], r["status"], r["why"]])
        out.append(s)
    mine = view.get("viewer")
    for side in ("us", "german"):
        if side not in (view.get("cpp") or {}):
            continue
        secret = mine == side
        s = Section(f"{SIDE_NAMES[side]} side" + (" (your secret record)" if secret else ""), secret=secret,
                    columns=["what", "value"])
        s.rows.append(["CPP", str(view["cpp"][side])])
        for p in view.get("purchases", {}).get(side, []):
            s.rows.append([f"RG bought {p['date']}", f"{p['rg']} {p['name']} ({p['cpp']} CPP)"])
        for x in view.get("sealed", {}).get(side, []):
            value = x.get("opened", {}).get("value") if isinstance(x.get("opened"), dict) else None
            s.rows.append([f"sealed {x['kind']} {x['id']}", "opened: " + str(value) if value is not None
                           else (x.get("commitment", "")[:16] + "..." if x.get("commitment") else "sealed")])
        for r in (view.get("secret_rolls") or {}).get(side, []):
            s.rows.append([f"secret dr {r['date']}" + (f" turn {r['turn']}" if r.get("turn") else " set-up"),
                           f"{r['dr']} ({r['purpose']})"])
        out.append(s)
    rolls = [r for r in view.get("rolls", []) if r["date"] == view["date"]]
    if rolls:
        s = Section(f"Scenario rolls {view['date']}", columns=["turn", "roll", "side", "dice", "result"])
        for r in rolls:
            s.rows.append([str(r["turn"]), r["roll"], SIDE_NAMES.get(r["side"], r["side"]),
                           " ".join(map(str, r["faces"])), r["why"]])
        out.append(s)
    return out
