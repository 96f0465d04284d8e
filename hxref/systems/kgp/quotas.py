"""KGP campaign quotas the referee tracks: German Fanaticism (SSR CG14), the OBA-module limit
(SSR CG15) and the German PF count (SSR CG13).

* CG14: the Germans may declare Fanaticism in 2 CG scenarios a CG (CG-II: 1; the campaign file's
  ``quotas.fanaticism``).  Reading: the declaration goes with the German's set-up or sealed Refit
  orders for the coming scenario and is told to both when they are revealed; it counts only if a
  scenario is played on that CG Date (an Idle Date uses none).
* CG15: at most 2 OBA modules a side a CG Date (``quotas.oba_modules``), US 60mm MTR modules
  included, US RG O3 (M12 GMC OBA) not counted, a Bombardment RG not OBA.  Reading: the modules a
  side holds are its OBA RGs bought and not yet removed (Used or eliminated: the side names them
  in ``oba_removed`` of its Refit orders, SSR CG15/CG22); a purchase above the limit is refused.
* CG13: PF shots = 1.5 x the non-Reserve German squads set up on-map, + 1.5 a squad released from
  Reserve or entering; a 0.5 shot is not a usable PF (usable = the whole shots).  The turn report
  gives the squads added that turn and the PF shots fired; more shots than usable are refused.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Problem
from .campaign import load_campaign
from .rg_chart import load_rg_chart
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

#: SSR CG15: the RGs the 2-module limit does not count (US RG O3, the M12 GMC OBA)
OBA_EXEMPT = {("us", "O3")}
PF_HALVES_PER_SQUAD = 3                 # CG13: 1.5 shots a squad, kept in half shots


# --- CG14 Fanaticism ------------------------------------------------------------------------------

def fanaticism_problems(charts: Charts, state: KgpState, side: str, declared: bool) -> list[Problem]:
    if not declared:
        return []
    if side != "german":
        return [Problem("only the Germans declare Fanaticism", "CG14", ["fanaticism"])]
    cg = load_campaign(charts, state["cg"])
    quota = int((cg.quotas.get("fanaticism") or {}).get("german", 0))
    used = state.get("fanaticism", [])
    if len(used) >= quota:
        return [Problem(f"the Germans have declared Fanaticism in {len(used)} CG scenario(s) ({', '.join(used)}); "
                        f"{cg.id.upper()} allows {quota}", "CG14", ["fanaticism"])]
    return []


def declare_fanaticism(charts: Charts, state: KgpState, events: list[Event]) -> None:
    """CG14: every German personnel unit is Fanatic for the whole scenario of the current CG Date."""
    used = state.setdefault("fanaticism", [])
    used.append(state["date"])
    quota = int((load_campaign(charts, state["cg"]).quotas.get("fanaticism") or {}).get("german", 0))
    events.append(event("fanaticism",
                        f"the Germans declare Fanaticism for the {state['date']} scenario ({len(used)} of {quota}): "
                        "all German personnel are Fanatic for the whole scenario, Bombardment included", "CG14"))


# --- CG15 OBA modules -----------------------------------------------------------------------------

def _counts(charts: Charts, side: str, rg_id: str) -> bool:
    chart = load_rg_chart(charts)
    return chart.get(side, rg_id).type == "oba" and (side, rg_id) not in OBA_EXEMPT


def held_oba(charts: Charts, state: KgpState, side: str) -> list[str]:
    """The OBA modules ``side`` holds for the CG15 limit: bought, not removed, not exempt."""
    held = [p["rg"] for p in state["purchases"][side] if _counts(charts, side, p["rg"])]
    for rg in state.get("oba_removed", {}).get(side, []):
        if rg in held:
            held.remove(rg)
    return held


def oba_problems(charts: Charts, state: KgpState, side: str, bought: list, removed: list) -> list[Problem]:
    held = held_oba(charts, state, side)
    for i, rg in enumerate(removed):
        if rg not in held:
            return [Problem(f"{SIDE_ADJECTIVES[side]} hold no OBA module {rg!r} to remove (they hold "
                            f"{', '.join(held) or 'none'})", "CG15", ["oba_removed", i])]
        held.remove(rg)
    new = [rg for rg in bought if _counts(charts, side, str(rg))]
    limit = int(load_campaign(charts, state["cg"]).quotas.get("oba_modules", 2))
    if new and len(held) + len(new) > limit:
        return [Problem(f"at most {limit} OBA modules a side a CG Date (US RG O3 aside): {SIDE_ADJECTIVES[side]} "
                        f"would hold {', '.join(held + new)}", "CG15", ["purchase"])]
    return []


def remove_oba(state: KgpState, side: str, removed: list) -> None:
    state.setdefault("oba_removed", {"us": [], "german": []})[side].extend(removed)


def say_oba(charts: Charts, state: KgpState, side: str, bought: list, removed: list, events: list[Event]) -> None:
    """The side's OBA modules after its orders, told to it alone (its RGs are its own)."""
    chart = load_rg_chart(charts)
    if not removed and not any(chart.get(side, str(rg)).type == "oba" for rg in bought):
        return
    limit = int(load_campaign(charts, state["cg"]).quotas.get("oba_modules", 2))
    held = held_oba(charts, state, side)
    exempt = [rg for rg in bought if (side, rg) in OBA_EXEMPT]
    events.append(event("oba.modules",
                        f"{SIDE_ADJECTIVES[side]} OBA modules held: {', '.join(held) or 'none'} ({len(held)} of "
                        f"{limit} a CG Date)" + (f"; removed {', '.join(removed)}" if removed else "")
                        + (f"; {', '.join(exempt)} not counted (US RG O3)" if exempt else ""), "CG15", side=side,
                        visible_to=[side]))


# --- CG13 PF --------------------------------------------------------------------------------------

def pf_problems(state: KgpState, pf: dict | None) -> list[Problem]:
    if not pf:
        return []
    halves, used = _pf_now(state)
    halves += PF_HALVES_PER_SQUAD * int(pf.get("squads", 0) or 0)
    usable = halves // 2 - used
    if int(pf.get("shots", 0) or 0) > usable:
        return [Problem(f"the Germans have {usable} usable PF shot(s) (1.5 a squad, a half shot is no PF); "
                        f"{pf['shots']} reported", "CG13", ["pf", "shots"])]
    return []


def _pf_now(state: KgpState) -> tuple[int, int]:
    """The current scenario's PF track: (half shots received, shots used)."""
    pf = state.get("pf")
    if not pf or pf["date"] != state["date"]:
        return 0, 0
    return pf["halves"], pf["used"]


def track_pf(state: KgpState, pf: dict | None, events: list[Event]) -> None:
    if not pf:
        return
    halves, used = _pf_now(state)
    squads = int(pf.get("squads", 0) or 0)
    halves += PF_HALVES_PER_SQUAD * squads
    used += int(pf.get("shots", 0) or 0)
    state["pf"] = {"date": state["date"], "halves": halves, "used": used}
    total = f"{halves // 2}" + (".5" if halves % 2 else "")
    events.append(event("pf", f"German PF: +{squads} squad(s) x 1.5; {total} shots received, {used} used, "
                              f"{halves // 2 - used} usable left" + (" (the half shot is no PF)" if halves % 2 else ""),
                        "CG13"))
