"""KGP campaign report sections, from a view: the public CG Roster, and each side's own
CPP, purchases and secrets (8.14, 8.15)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Section

SIDE_NAMES = {"us": "US", "german": "German"}


def sections(view: Mapping[str, Any]) -> list[Section]:
    """The report from a view: the CG's state, the result (8.51-8.53), the CG Roster (8.14, 8.603), the
    Refit Phase of the current CG Date (8.6), each side's record shown to the view (8.14, 8.15, 9) and the
    scenario rolls of the current CG Date."""
    out = [_head(view), *_result(view), _roster(view), *_refit(view)]
    out += [_side_record(view, side) for side in ("us", "german") if side in (view.get("cpp") or {})]
    return out + _rolls(view)


def _head(view: Mapping[str, Any]) -> Section:
    """The CG, its date and stage, the scenario's roles (8.5x, 8.623), the KG weather (8.617), the chits used."""
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
        how = "random table, optional rule CG3" if view.get("random_weather") else "historical, CG3"
        head.lines.append(f"KG weather: {view['weather']} ({how}; stand-in chart)")
    if sc.get("initial") and view.get("mist") and view["stage"] in ("setup", "play"):
        head.lines.append(f"Mist density: {view['mist']} (the Initial Scenario's SSR; SSR KG3)")
    if view.get("fanaticism"):
        head.lines.append(f"German Fanaticism declared (CG14): {', '.join(view['fanaticism'])}")
    pf = view.get("pf")
    if pf and pf["date"] == view["date"] and view["stage"] == "play":
        head.lines.append(f"German PF (CG13): {pf['halves'] // 2}{'.5' if pf['halves'] % 2 else ''} shots, "
                          f"{pf['used']} used, {pf['halves'] // 2 - pf['used']} usable left")
    if view.get("elr") and view.get("san"):
        head.lines.append("ELR " + ", ".join(f"{SIDE_NAMES[s]} {_elr(view, s)}" for s in ("us", "german"))
                          + " (CG4); SAN " + ", ".join(f"{SIDE_NAMES[s]} {view['san'][s]}" for s in ("us", "german"))
                          + " (8.612)")
    head.lines.append("Attack chits used: " + ", ".join(
        f"{SIDE_NAMES[s]} {view['chits'][s]} of {view['chit_limits'][s]}" for s in ("us", "german")))
    return head


def _elr(view: Mapping[str, Any], side: str) -> str:
    """CG4: the Initial Scenario's ELR for the whole CG; a Night scenario's Defender's is 1 lower."""
    sc = view.get("scenario") or {}
    elr = int(view["elr"][side])
    if sc.get("night") and sc.get("defender") == side and view["stage"] in ("setup", "play"):
        return f"{elr - 1} (Night Defender: {elr} - 1)"
    return str(elr)


def _result(view: Mapping[str, Any]) -> list[Section]:
    """The campaign's result and every CG Victory Condition checked (8.51-8.53), once there is one."""
    if not view.get("result"):
        return []
    r = view["result"]
    s = Section(f"Campaign result: {SIDE_NAMES.get(r['winner'], 'no winner')} ({r['rule']})", [r["why"]],
                columns=["condition", "side", "checked", "met", "detail"])
    for c in r["checks"]:
        s.rows.append([c["id"], SIDE_NAMES.get(c["side"], c["side"]), "yes" if c["checked"] else "not yet",
                       "MET" if c["met"] else "no", c["detail"]])
    return [s]


def _roster(view: Mapping[str, Any]) -> Section:
    """The CG Roster (8.14): each CG Date's Current LVP, CG-LVP and winner (8.603)."""
    roster = Section("CG Roster (8.14)", columns=["CG Date", "scenario", "LVP US", "LVP German", "CG-LVP US",
                                                  "CG-LVP German", "winner"])
    for row in view.get("roster", []):
        lvp = row.get("lvp") or {}
        roster.rows.append([row["date"], "yes" if row.get("scenario") else "Idle Date", str(lvp.get("us", "-")),
                            str(lvp.get("german", "-")), str(row["cg_lvp"]["us"]), str(row["cg_lvp"]["german"]),
                            SIDE_NAMES.get(row.get("winner"), row.get("winner") or "-")])
    return roster


def _refit(view: Mapping[str, Any]) -> list[Section]:
    """The Refit Phase checklist of the current CG Date (8.6): each step computed, recorded or skipped."""
    refit = [r for r in view.get("refit", []) if r["date"] == view["date"]]
    if not refit:
        return []
    s = Section(f"Refit Phase for {view['date']} (8.6)", columns=["step", "title", "how", "why"])
    for r in refit:
        s.rows.append([r["step"], r["title"], r["status"], r["why"]])
    return [s]


def _sealed_row(x: Mapping[str, Any]) -> list[str]:
    """A sealed secret (9): its opened value, else the head of its commitment, else only that it is sealed."""
    value = x.get("opened", {}).get("value") if isinstance(x.get("opened"), dict) else None
    return [f"sealed {x['kind']} {x['id']}", "opened: " + str(value) if value is not None
            else (x.get("commitment", "")[:16] + "..." if x.get("commitment") else "sealed")]


def _side_record(view: Mapping[str, Any], side: str) -> Section:
    """A side's record as the view shows it (8.14, 8.15, 9): CPP, RGs bought, sealed secrets, secret drs;
    secret when the view is that side's own."""
    secret = view.get("viewer") == side
    s = Section(f"{SIDE_NAMES[side]} side" + (" (your secret record)" if secret else ""), secret=secret,
                columns=["what", "value"])
    s.rows.append(["CPP", str(view["cpp"][side])])
    if side in (view.get("fpp") or {}):
        s.rows.append(["FPP", str(view["fpp"][side])])
    for p in view.get("purchases", {}).get(side, []):
        s.rows.append([f"RG bought {p['date']}", f"{p['rg']} {p['name']} ({p['cpp']} CPP)"])
    for f in (view.get("fortifications") or {}).get(side, []):
        s.rows.append([f"fortification bought {f['date']}", f"{f['count']} x {f['name']} ({f['fpp']} FPP)"])
    for d in (view.get("dummy_minefields") or {}).get(side, []):
        s.rows.append([f"Dummy minefields {d['date']} (7.2)", f"{d['total']} ({d['base']} for {d['known_fp']} FP "
                                                              f"+ {d['extra']} from secret dr {d['dr']})"])
    for r in (view.get("refit_rolls") or {}).get(side, []):
        s.rows.append([f"Refit dr {r['date']} ({r['step']})", f"{r['what']}: {r['dr']}: {r['result']}"])
    s.rows += [_sealed_row(x) for x in view.get("sealed", {}).get(side, [])]
    for r in (view.get("secret_rolls") or {}).get(side, []):
        s.rows.append([f"secret dr {r['date']}" + (f" turn {r['turn']}" if r.get("turn") else " set-up"),
                       f"{r['dr']} ({r['purpose']})"])
    return s


def _rolls(view: Mapping[str, Any]) -> list[Section]:
    """The scenario rolls of the current CG Date (CG Game End, CG5, I.2, III.5, III.6, CG16)."""
    rolls = [r for r in view.get("rolls", []) if r["date"] == view["date"]]
    if not rolls:
        return []
    s = Section(f"Scenario rolls {view['date']}", columns=["turn", "roll", "side", "dice", "result"])
    for r in rolls:
        s.rows.append([str(r["turn"]), r["roll"], SIDE_NAMES.get(r["side"], r["side"]),
                       " ".join(map(str, r["faces"])), r["why"]])
    return [s]
