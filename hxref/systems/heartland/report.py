"""The Heartland full game's report sections and map markers, from a view (never the state)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..base import Section
from . import model
from .state_types import Leader, Unit


#: a level of the display's tree: no-break spaces, which an HTML or Markdown table keeps
_INDENT = "\u00a0\u00a0"


def _stars(n: int) -> str:
    return "*" * n


def army_sections(view: Mapping[str, Any]) -> list[Section]:
    out: list[Section] = []
    mine = view.get("viewer")
    if view.get("leaders") and (mine in ("union", "confederate") or view.get("open_view")):
        sides = [mine] if mine in ("union", "confederate") else ["union", "confederate"]
        for side in sides:
            out.append(_army(view, side, secret=mine is not None))
    seen = view.get("seen", {})
    if seen:
        s = Section("On the map (what each side sees: the top counter of every stack, 3.71)",
                    columns=["hex", "side", "top counter", "counters under it"])
        for side in ("union", "confederate"):
            for label, entry in sorted(seen.get(side, {}).items()):
                s.rows.append([label, side, describe_top(entry["top"]), str(entry["under"])])
        out.append(s)
    imp = view.get("current", {}).get("active_impulse")
    if imp:
        s = Section(f"Impulse {imp['n']} in progress",
                    [f"phasing: {imp['side']}; level: {imp['level'] if imp['level'] else 'to declare'}; "
                     f"waiting for: {'orders' if imp['stage'] == 'orders' else 'the defender (9.0)'}"])
        for a in imp.get("assaults", []):
            s.lines.append(f"assault declared: {a['force']} on {a['target']} (8.41)")
        out.append(s)
    return out


def describe_top(top: dict) -> str:
    if top["kind"] == "leader":
        face = "active" if top["active"] else "inactive"
        return f"{top['name']} {_stars(top['stars'])} ({face}, {top['ratings']})"
    if top["kind"] == "unit":
        return f"{top['arm']} {top['size']}"
    return top["kind"]


def _army(view: Mapping[str, Any], side: str, secret: bool) -> Section:
    """The Army Organization Display of ``side`` (3.1): each force's head first, then the leaders under
    him, each leader a row and the units he commands a row each under him; then the unled units and
    the logistics counters.  No cell holds a list, so the display reads at 80 columns."""
    s = Section(f"Army Organization Display: {side}" + (" (secret)" if secret else ""),
                columns=["leader / unit", "hex", "rank", "AR-BR-MR", "ML", "AP", "art/ASP"], secret=secret)
    leaders = {k: v for k, v in view["leaders"].items() if v["side"] == side}
    away = _away(view, side)
    # each force's head first, then the leaders under him
    for lid, ld in sorted(leaders.items(), key=lambda kv: (kv[1].get("superior") or kv[0],
                                                           kv[1].get("superior") is not None, kv[0])):
        if not ld.get("pool"):
            s.rows.extend(_leader_rows(view, leaders, lid, ld, away))
    s.rows.extend(_unled_rows(view, side))
    s.rows.extend(_logistics_rows(view, side))
    return s


def _away(view: Mapping[str, Any], side: str) -> dict:
    """The forces of ``side`` with no hex: off the map by rail (8.74) or hidden and plotted (8.62a)."""
    away = {x["force"]: x for x in view.get("off_map") or [] if x.get("side") == side}
    away.update({f: {"hidden_from": r["from"]} for f, r in (view.get("plots") or {}).items() if r.get("side") == side})
    return away


def _leader_rows(view: Mapping[str, Any], leaders: dict, lid: str, ld: dict, away: dict) -> list[list[str]]:
    """A leader's row -- his name and id (and his superior's), where he is, stars and ratings on his
    current face (3.21), his ML, AP, artillery and ASP -- then a row for each unit he commands."""
    units = [u for u in view["units"].values() if u.get("leader") == lid and u["steps"] > 0]
    indent = _INDENT if ld.get("superior") else ""
    who = lid if not ld.get("superior") else f"{lid}, under {ld['superior']}"
    if ld.get("killed"):        # 10.67b: his counter stands for the replacement the War Department sent
        name = f"replacement for {ld['name'].split()[-1]} (inactive, {_ratings_text(ld)})"
    else:
        name = ld["name"] + ("" if ld["active"] else " (inactive)") + (" HQ" if ld.get("hq") else "")
    name += f" ({who})"
    rows = [[indent + name, ld.get("hex") or _off_map(leaders, lid, away), _stars(ld["stars"]), _ratings_text(ld),
             str(ld["ml"]), str(ld["ap"]), f"{ld.get('artillery', 0)}/{ld.get('asp', 0)}"]]
    rows.extend([indent + _INDENT + _unit_text(u, ld), "", "", "", "", "", ""] for u in units)
    return rows


def _ratings_text(ld: Mapping[str, Any]) -> str:
    """AR-BR-MR as the rules read them now (:func:`.model.current_rating`): the counter's face less
    a wound (10.67) and less 1 under a brevet marker (14.51), with the reason when they differ
    from the printed ones."""
    now = "-".join(str(model.current_rating(cast(Leader, ld), k)) for k in ("ar", "br", "mr"))
    why = [w for w in ("brevet" if model.brevet_loss(cast(Leader, ld)) else "",
                       f"wound {ld['wound']}" if ld.get("wound") else "") if w]
    return now + (f" ({', '.join(why)})" if why else "")


def _unit_text(u: Unit, ld: Mapping[str, Any] | None) -> str:
    """A unit with its CF-ML; broken when the ML is above its leader's, and reduced when one step
    is left."""
    return (f"{u['name']} {model.unit_cf(u)}-{model.unit_ml(u)}"
            + (" (broken)" if ld is not None and model.unit_ml(u) > ld["ml"] else "")
            + ("" if u["steps"] >= 2 else " reduced"))


def _unled_rows(view: Mapping[str, Any], side: str) -> list[list[str]]:
    """The units of ``side`` under no leader."""
    unled = [u for u in view["units"].values() if u["side"] == side and u.get("leader") is None and u["steps"] > 0]
    return [[_unit_text(u, None) + " (unled)", u["hex"], "", "", "", "", ""] for u in unled]


def _logistics_rows(view: Mapping[str, Any], side: str) -> list[list[str]]:
    """The depots and trains of ``side``, their capacity and the leader they move with."""
    return [[f"{lg['kind']} {sid}, capacity {lg['capacity']}" + (f", with {lg['leader']}" if lg.get("leader") else ""),
             lg.get("hex") or "-", "", "", "", "", ""]
            for sid, lg in view.get("logistics", {}).items() if lg["side"] == side]


def _off_map(leaders: dict, lid: str, away: dict) -> str:
    """Where a leader with no hex is: off the map by rail (8.74) or hidden and plotted (8.62a)."""
    top = lid
    while leaders.get(top, {}).get("superior"):
        top = leaders[top]["superior"]
    rec = away.get(top)
    if rec is None:
        return "-"
    if "hidden_from" in rec:                 # 8.62a open games: plotted on paper
        return f"hidden (plotted; vanished in {rec['hidden_from']})"
    from .rail import OFF_MAP_SAME_EDGE

    return f"off map ({rec['edge']} edge, back from turn {int(rec['left_turn']) + OFF_MAP_SAME_EDGE})"


def map_units(view: Mapping[str, Any]) -> list[dict]:
    """Markers for ``hxref map show GAME --side S``: own stacks named, enemy stacks by their top counter."""
    out = []
    mine = view.get("viewer")
    for side, entries in view.get("seen", {}).items():
        for label, entry in entries.items():
            top = entry["top"]
            name = top.get("name") or top.get("arm") or top["kind"]
            if top["kind"] == "leader":
                name = top["name"].split()[-1]
            marker = {"id": f"{side}@{label}", "side": side, "hex": label,
                      "label": name + (f" +{entry['under']}" if entry["under"] and side == mine else ""),
                      "kind": top["kind"], "stack": 1 + int(entry["under"]), "viewer": side == mine,
                      "strength": top.get("ratings", "")}
            if "active" in top:
                marker["state"] = "active" if top["active"] else "inactive"
            if side == mine:
                marker.update(_own_stack(view, side, label))
            out.append(marker)
    return out


def _own_stack(view: Mapping[str, Any], side: str, label: str) -> dict:
    """The side's own stack in ``label`` as its view gives it: combat strength and steps of the
    units there (its leaders' and the unled ones)."""
    leaders = {lid for lid, ld in view.get("leaders", {}).items()
               if ld.get("side") == side and ld.get("hex") == label and not ld.get("pool")}
    units = [u for u in view.get("units", {}).values() if u.get("side") == side and u.get("steps", 0) > 0
             and (u.get("leader") in leaders or (u.get("leader") is None and u.get("hex") == label))]
    if not units:
        return {}
    cf = sum(u["cf"][max(0, len(u["cf"]) - u["steps"])] for u in units if u.get("cf"))
    return {"strength": f"CF {cf}", "steps": sum(u["steps"] for u in units)}
