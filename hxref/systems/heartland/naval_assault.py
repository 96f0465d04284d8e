"""Naval assault and river transport: rules 8.92, 3.17 and 4.33.

Embarkation in a port (8.92a), the Union Naval Assault Display (3.17, 4.33),
the landing (8.92b/c) and river transport (4.33).  :mod:`.naval` re-exports
its public names and holds the readings and state keys.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Sequence, cast

from .state_types import Gunboat, FullGameState
from ...geometry.hex import HexSide
from ..base import Problem
from . import model
from .naval_control import (
    BOX_NAMES, LANDING_TARGETS, NOTICE, _current, _enemy_control, _entrenchment, _nv, _side, _sl, _step_refusal,
    _weather, is_major_river, mission_of, naval, river_steps,
)


# --------------------------------------------------------------------------
# naval assault (8.92, 3.17, 4.33)


def is_port(state: FullGameState, hexmap, label: str) -> bool:
    """8.92a: a major city on a major river, or a Union Naval Landing."""
    from .reorg_step import landing_hexes
    if label in landing_hexes(state):
        return True
    h = hexmap.parse(label)
    return "major_city" in hexmap.features(h) and any(
        is_major_river(hexmap, HexSide(h, n)) for n in h.neighbours() if n in hexmap.grid)


def _unit_hex(state: FullGameState, uid: str) -> str | None:
    u = state["units"][uid]
    if u.get("leader"):
        return state["leaders"][model.top_of(state, cast(str, u["leader"]))].get("hex")
    return u.get("hex")


@dataclass
class Embarkation:
    gunboat: str
    port: str
    units: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    wagon: str | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.92a"
    why: str = ""


def _unit_cargo_problems(state: FullGameState, port: str, units, leaders, rule: str) -> list[Problem]:
    """8.92, 8.25b: one living Union combat unit in the port, out of any box whose leader stays ashore."""
    p: list[Problem] = []
    if len(units) != 1:
        p.append(Problem(f"a gunboat carries 1 combat unit of any size (+1 wagon and any leaders); "
                         f"{len(units)} given", "8.92", ["units"]))
    for i, u in enumerate(units):
        if u not in state["units"] or state["units"][u]["steps"] <= 0:
            p.append(Problem(f"no living unit {u!r}", "8.92", ["units", i]))
            continue
        uu = state["units"][u]
        if uu["side"] != "union":
            p.append(Problem(f"{u} is not a Union unit", "8.92", ["units", i]))
        if _unit_hex(state, u) != port:
            p.append(Problem(f"{u} is not in {port}", rule, ["units", i]))
        if uu.get("leader") and uu["leader"] not in leaders:
            p.append(Problem(f"{u} is in {uu['leader']}'s box: detach it first (8.25b) or embark the leader",
                             "8.92", ["units", i]))
    return p


def _leader_cargo_problems(state: FullGameState, port: str, units, leaders, rule: str) -> list[Problem]:
    """8.92, 8.25b: any Union leaders in the port, whose boxes hold no other combat unit."""
    p: list[Problem] = []
    for i, lid in enumerate(leaders):
        ld = state["leaders"].get(lid)
        if not ld or ld["side"] != "union" or ld.get("hex") != port:
            p.append(Problem(f"{lid} is not a Union leader in {port}", rule, ["leaders", i]))
            continue
        extra = [u for u, uu in state["units"].items()
                 if uu.get("leader") == lid and uu["steps"] > 0 and u not in units]
        if extra:
            p.append(Problem(f"{lid}'s box holds {', '.join(extra)}: only 1 combat unit goes aboard; detach the "
                             "others first (8.92, 8.25b)", "8.92", ["leaders", i]))
    return p


def _cargo_problems(state: FullGameState, hexmap, gid: str, port: str, units, leaders, wagon, rule: str) -> list[Problem]:
    """8.92, 4.33: a Union gunboat carries 1 combat unit, up to 1 wagon and any leaders from ``port``."""
    p: list[Problem] = []
    gbs = (_nv(state).get("gunboats") or {})
    if gid not in gbs:
        return [Problem(f"no gunboat {gid!r}", rule, ["gunboat"])]
    gb = gbs[gid]
    if gb["side"] != "union":
        p.append(Problem("only Union gunboats carry troops (8.92, 4.33)", rule, ["gunboat"]))
    p += _unit_cargo_problems(state, port, units, leaders, rule)
    p += _leader_cargo_problems(state, port, units, leaders, rule)
    if wagon is not None:
        w = state.get("logistics", {}).get(wagon)
        if not w or w.get("kind") != "wagon" or w["side"] != "union" or w.get("hex") != port:
            p.append(Problem(f"{wagon} is not a Union wagon in {port} (8.92: up to 1 wagon)", "8.92", ["wagon"]))
    return p


def embark(state: FullGameState, hexmap, gid: str, port: str, units: Sequence[str], *, leaders: Sequence[str] = (),
           wagon: str | None = None) -> Embarkation:
    """8.92a(1-2): at the start of a Union impulse, load 1 combat unit (+1 wagon, any leaders) in a
    major-city port or Naval Landing onto a full-strength gunboat on a hexside of that hex; the
    group goes to the "Any Impulse Turn 1" box."""
    r = Embarkation(gid, port, list(units), list(leaders), wagon)
    p = r.problems
    p += _cargo_problems(state, hexmap, gid, port, units, leaders, wagon, "8.92a")
    if not p:
        gb = naval(state)["gunboats"][gid]
        if gb.get("steps", 2) < 2:
            p.append(Problem(f"{gid} is reduced: reduced gunboats cannot make a naval assault", "8.92", ["gunboat"]))
        if not gb.get("hexside"):
            p.append(Problem(f"{gid} is not on the map", "8.92a", ["gunboat"]))
        elif hexmap.parse(port) not in _side(hexmap, gb["hexside"]).hexes:
            p.append(Problem(f"{gid} on {gb['hexside']} is not on a hexside of {port}", "8.92a", ["gunboat"]))
        if gb.get("cargo"):
            p.append(Problem(f"{gid} already carries troops", "8.92", ["gunboat"]))
        if mission_of(state, gid) or gid in (_current(state).get("moved") or []):
            p.append(Problem(f"{gid} has moved or flown a mission this impulse", "8.9", ["gunboat"]))
        if not is_port(state, hexmap, port):
            p.append(Problem(f"{port} is neither a major-city port nor a Union Naval Landing", "8.92a", ["port"]))
    if p:
        r.why = "no embarkation: " + "; ".join(x.message for x in p)
        return r
    cargo = " + ".join([*units, *([wagon] if wagon else []), *leaders])
    r.why = f"{cargo} embark on {gid} in {port}; to the \"{BOX_NAMES['any_impulse_t1']}\" box (8.92a, 3.17)"
    return r


def _load(state: FullGameState, gb: Gunboat, gid: str, units, leaders, wagon) -> None:
    for u in units:
        uu = state["units"][u]
        uu["hex"] = None
        uu["embarked_on"] = gid
        if uu.get("leader") and uu["leader"] not in leaders:
            uu["leader"] = None
    for lid in leaders:
        state["leaders"][lid]["hex"] = None
        state["leaders"][lid]["embarked_on"] = gid
    if wagon:
        state["logistics"][wagon]["hex"] = None
        state["logistics"][wagon]["embarked_on"] = gid
    gb["cargo"] = {"units": list(units), "leaders": list(leaders), "wagon": wagon}


def apply_embark(state: FullGameState, r: Embarkation) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal embarkation: " + r.why)
    gb = naval(state)["gunboats"][r.gunboat]
    _load(state, gb, r.gunboat, r.units, r.leaders, r.wagon)
    gb["hexside"] = None
    gb["box"] = "any_impulse_t1"
    naval(state).setdefault("current", {}).setdefault("missions", {})[r.gunboat] = "assault"


@dataclass
class DisplayAdvance:
    """4.33/8.92a: one Naval Sequence's moves on the Union Naval Assault Display."""

    moves: dict[str, tuple[str, str]] = field(default_factory=dict)
    announce: bool = False
    notice: str | None = None            # the public text for the Confederate player (digest D-5)
    rule: str = "4.33"
    why: str = ""


def advance_display(state: FullGameState, *, announce: bool = False) -> DisplayAdvance:
    """4.33 Naval Sequence: each group moves one box; from Reorg T2 to Available only if the Union
    announces that a naval assault may occur (8.92a(5))."""
    r = DisplayAdvance(announce=announce)
    for g, gb in sorted(((_nv(state).get("gunboats") or {})).items()):
        box = gb.get("box")
        if not box or gb.get("steps", 2) <= 0:
            continue
        if box == "any_impulse_t1":
            r.moves[g] = (box, "reorg_t1")
        elif box == "reorg_t1":
            r.moves[g] = (box, "reorg_t2")
        if r.moves.get(g, (box, box))[1] == "reorg_t2" and announce:
            r.moves[g] = (box, "available")
    if announce and any(to == "available" for _, to in r.moves.values()):
        r.notice = NOTICE
    parts = [f"{g}: {BOX_NAMES[a]} -> {BOX_NAMES[b]}" for g, (a, b) in r.moves.items()]
    r.why = "; ".join(parts) or "nothing moves on the Naval Assault Display"
    if r.notice:
        r.why += f"; public notice: {r.notice}"
    return r


def apply_advance_display(state: FullGameState, r: DisplayAdvance, *, turn: int | None = None) -> None:
    nv = naval(state)
    for g, (_, to) in r.moves.items():
        nv["gunboats"][g]["box"] = to
    if r.notice:
        nv["notice"] = {"turn": turn if turn is not None else state.get("turn")}


@dataclass
class NavalAssault:
    gunboat: str
    target: str
    hexside: str = ""
    placed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.92b"
    why: str = ""


def _hex_controlled(state: FullGameState, hexmap, label: str, side: str) -> list[str]:
    """Enemy gunboats and batteries whose control reaches a hexside of ``label``."""
    h = hexmap.parse(label)
    control = _enemy_control(state, hexmap, side)
    out: set[str] = set()
    for n in h.neighbours():
        out |= set(control.get(HexSide(h, n), []))
    return sorted(out)


def naval_assault(state: FullGameState, hexmap, gid: str, target: str, hexside: str, *, weather: str | None = None
                  ) -> NavalAssault:
    """8.92b/c: a loaded gunboat in the Available box lands its troops in ``target`` (a village,
    town or major city on a major river), placed on ``hexside`` of it."""
    from .attack import enemy_zoc
    w = _weather(state, weather)
    r = NavalAssault(gid, target, hexside)
    p = r.problems
    gb = (_nv(state).get("gunboats") or {}).get(gid)
    if gb is None:
        p.append(Problem(f"no gunboat {gid!r}", "8.92b", ["gunboat"]))
        r.why = "no assault: " + p[0].message
        return r
    if gb["side"] != "union":
        p.append(Problem("only the Union makes naval assaults", "8.92", ["gunboat"]))
    if gb.get("box") != "available":
        p.append(Problem(f"{gid} is not in the \"{BOX_NAMES['available']}\" box"
                         + (f" (it is in \"{BOX_NAMES[cast(str, gb['box'])]}\")" if gb.get("box") else ""), "8.92b", ["gunboat"]))
    if not (gb.get("cargo") or {}).get("units"):
        p.append(Problem(f"{gid} carries no troops", "8.92b", ["gunboat"]))
    try:
        th = hexmap.parse(target)
        s = _side(hexmap, hexside)
    except Exception as e:
        p.append(Problem(str(e), "8.92b", ["target"]))
        r.why = "no assault: " + "; ".join(x.message for x in p)
        return r
    r.hexside = _sl(hexmap, s)
    if not set(hexmap.features(th)) & set(LANDING_TARGETS):
        p.append(Problem(f"{target} is not a village, town or major city", "8.92", ["target"]))
    if th not in s.hexes:
        p.append(Problem(f"{r.hexside} is not a hexside of {target}", "8.92c", ["hexside"]))
    else:
        refusal = _step_refusal(state, hexmap, "union", s, w)
        if refusal:
            p.append(Problem(refusal, "8.92c", ["hexside"]))
    if target in enemy_zoc(state, hexmap, "union"):
        p.append(Problem(f"{target} is in enemy ZOC", "8.92b", ["target"]))
    if _entrenchment(state, target, "confederate") > 0:
        p.append(Problem(f"{target} holds an enemy entrenchment", "8.92b", ["target"]))
    ctl = _hex_controlled(state, hexmap, target, "union")
    if ctl:
        p.append(Problem(f"{target} is within the control range of {', '.join(ctl)}", "8.92b", ["target"]))
    if p:
        r.why = "no assault: " + "; ".join(x.message for x in p)
        return r
    cargo = gb["cargo"]
    r.placed = [*cargo.get("units", []), *cargo.get("leaders", []), *([cargo["wagon"]] if cargo.get("wagon") else [])]
    r.why = (f"{gid} is placed on {r.hexside}; {', '.join(r.placed)} land in {target} and use all the "
             "impulse's MP (8.92b, 8.92c)")
    return r


def _unload(state: FullGameState, gb: Gunboat, label: str) -> list[str]:
    cargo = gb.pop("cargo", None) or {}
    out = []
    for u in cargo.get("units") or []:
        uu = state["units"][u]
        uu.pop("embarked_on", None)
        if not uu.get("leader"):
            uu["hex"] = label
        out.append(u)
    for lid in cargo.get("leaders") or []:
        state["leaders"][lid]["hex"] = label
        state["leaders"][lid].pop("embarked_on", None)
        out.append(lid)
    if cargo.get("wagon"):
        state["logistics"][cargo["wagon"]]["hex"] = label
        state["logistics"][cargo["wagon"]].pop("embarked_on", None)
        out.append(cargo["wagon"])
    return out


def apply_naval_assault(state: FullGameState, r: NavalAssault) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal naval assault: " + r.why)
    nv = naval(state)
    gb = nv["gunboats"][r.gunboat]
    landed = _unload(state, gb, r.target)
    gb["box"] = None
    gb["hexside"] = r.hexside
    cur = nv.setdefault("current", {})
    cur.setdefault("missions", {})[r.gunboat] = "assault"
    cur.setdefault("landed", []).extend(landed)


# --------------------------------------------------------------------------
# river transport (4.33, 8.9, 10.82)


@dataclass
class RiverTransport:
    gunboat: str
    origin: str
    destination: str
    route: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    wagon: str | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "4.33"
    why: str = ""


def river_transport(state: FullGameState, hexmap, gid: str, origin: str, destination: str, units: Sequence[str], *,
                    leaders: Sequence[str] = (), wagon: str | None = None, weather: str | None = None
                    ) -> RiverTransport:
    """4.33/8.9: in the Naval Sequence a Union gunboat carries 1 combat unit (+1 wagon, any leaders)
    from ``origin`` (a hex touching its hexside) to ``destination`` along usable river hexsides,
    passing no enemy-controlled hexside (10.82)."""
    w = _weather(state, weather)
    r = RiverTransport(gid, origin, destination, units=list(units), leaders=list(leaders), wagon=wagon)
    p = r.problems
    p += _cargo_problems(state, hexmap, gid, origin, units, leaders, wagon, "4.33")
    if p:
        r.why = "no transport: " + "; ".join(x.message for x in p)
        return r
    gb = naval(state)["gunboats"][gid]
    if not gb.get("hexside") or gb.get("cargo"):
        p.append(Problem(f"{gid} is not free on the map", "4.33", ["gunboat"]))
        r.why = "no transport: " + p[0].message
        return r
    start = _side(hexmap, gb["hexside"])
    if hexmap.parse(origin) not in start.hexes:
        p.append(Problem(f"{gid} on {gb['hexside']} is not on a hexside of {origin}", "4.33", ["origin"]))
    control = _enemy_control(state, hexmap, "union")
    if start in control:
        p.append(Problem(f"{gid} is in the control range of {', '.join(sorted(control[start]))}", "10.82",
                         ["gunboat"]))
    dest = hexmap.parse(destination)
    prev: dict[HexSide, HexSide | None] = {start: None}
    queue = deque([start])
    found = None
    while queue and not p:
        s = queue.popleft()
        if dest in s.hexes and s != start:
            found = s
            break
        for t in river_steps(hexmap, s):
            if t in prev or t not in hexmap.sides or t in control or _step_refusal(state, hexmap, "union", t, w):
                continue
            prev[t] = s
            queue.append(t)
    if not p and found is None and dest not in start.hexes:
        p.append(Problem(f"no usable river route from {gb['hexside']} to a hexside of {destination} that passes "
                         "no enemy gunboat's or battery's control (10.82, 8.91)", "10.82", ["destination"]))
    if p:
        r.why = "no transport: " + "; ".join(x.message for x in p)
        return r
    path = []
    x = found
    while x is not None and x != start:
        path.append(_sl(hexmap, x))
        x = prev[x]
    r.route = list(reversed(path))
    cargo = " + ".join([*units, *([wagon] if wagon else []), *leaders])
    r.why = (f"{gid} carries {cargo} from {origin} to {destination}"
             + (f" via {' -> '.join(r.route)}" if r.route else "") + " (river transport, 4.33)")
    return r


def apply_river_transport(state: FullGameState, r: RiverTransport) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal river transport: " + r.why)
    gb = naval(state)["gunboats"][r.gunboat]
    _load(state, gb, r.gunboat, r.units, r.leaders, r.wagon)
    _unload(state, gb, r.destination)
    if r.route:
        gb["hexside"] = r.route[-1]
