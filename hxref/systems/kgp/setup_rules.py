"""The Initial Scenario's set-up, checked on the placements the sides send (8.51-8.53, SSR CG6, CG7).

The set-up orders (``dD.setup``) may list ``placements``: each one counter or stack of a side,
``{id?, rg?, unit?, kind, hex | enter, ...}``: set up on-map in ``hex``, or coming on from the
Entry Area whose arrow hex is ``enter``.  What the campaign file's ``setup`` section says of
each side is checked on them:

* the set-up lines and areas of 8.51-8.53 (a hex line and the side it must be on or toward;
  CG-I's US "within 3 hexes of a building hex numbered 19-34");
* SSR CG6 / CG20: an entry names an Entry Area bearing the side's symbol, Eligible on the CG
  Date (its arrow's date; a German one only where the Germans control its arrow hex, 8.5:
  inside their set-up restrictions), of a colour of the US RG's Entry Codes, and no vehicle
  through the Railroad-Bridge Entry Area;
* SSR CG7: the Initial-OB RGs come on as 8.51-8.53 say; a German I, V or HW RG bought for the
  scenario is in play from the start only as a Reserve (EXC I.2; no Eligible German Entry Area
  on St or Ch); a Reserve sets up on-map at ground level, without HIP, 8 hexes from the US
  set-up area and US Entry Areas (as far as it can be when 8 is impossible; II.2, III.2: outside
  the German restrictions counts as US set-up area), with at most one Dummy an RG; and
  CG7b: a Reserve is released by LOS to an enemy ground unit within 6 hexes, or by an attack;
* the SSR placements: I.2 (the US Medium Tank Platoon II enters at HH0), I.3 (US Guns set up
  unhooked and unlimbered, their recorded CA), I.4 (one M4A3 may carry the FT), II.3 (the two
  wrecks), II.4 (US I and V RGs bought enter from Turn 2), II.6 (no German vehicle or mine on
  NN6), III.4 (the PzKpfw VIb Immobile in R44, VCA R43-S44), III.5 (the US OB Infantry Platoon
  and 8-0 enter on Turn 1 within 2 hexes of V56); 8.52's one MMC or vehicle a hexrow west of
  hexrow V, and its entrenchments there holding an MMC.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from ...base.errors import InvalidInput
from ...geometry.hex import column_letters, column_number, distance
from ..base import Problem
from .campaign import Campaign, _load_campaign
from .chart_reader import Reader
from .rg_chart import load_rg_chart
from .setup_areas import HexLine, MapGroup, distances_from
from .sides import SIDE_ADJECTIVES, SIDES
from .state_types import KgpState
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

KINDS = ("mmc", "leader", "vehicle", "gun", "sw", "fortification", "dummy")
HEXSPINES = ("E", "SE", "SW", "W", "NW", "NE")     # a recorded Covered Arc (I.3): the hexspines, clockwise
RESERVE_RG = ("I", "V", "HW")                       # SSR CG7a: the German RGs that set up as Reserves
RELEASE_RANGE = 6                                   # SSR CG7b: LOS to an enemy ground unit within 6 hexes


@dataclass(frozen=True)
class SidePlan:
    """What 8.51-8.53 and the Initial-Scenario SSRs say of one side's set-up."""

    rule: str
    text: str
    on_map: bool
    lines: tuple[HexLine, ...]
    near_building: tuple[int, int, int] | None        # numbers from, to; hexes (8.51 US)
    enemy_area: tuple[int, int] | None                # the rows of the US set-up area a Reserve keeps from
    edge_entry: dict | None
    must_enter: tuple[dict, ...]
    first_wave: dict | None
    late_entry: dict | None
    guns: dict | None
    ft: dict | None
    per_hexrow: dict | None
    entrenchments: dict | None
    barred: tuple[dict, ...]
    fixed: tuple[dict, ...]
    reserves: dict


@dataclass(frozen=True, eq=False)
class SetupPlan:
    cg: Campaign
    group: MapGroup
    sides: dict[str, SidePlan]
    wrecks: tuple[str, ...]
    wrecks_rule: str
    reserve_hexes: int

    @cached_property
    def reserve_field(self) -> dict:
        return _reserve_distances(self)

    def area(self, side: str, h) -> bool:
        """Inside the side's set-up restrictions (every line held)."""
        return all(line.holds(h) for line in self.sides[side].lines)


def plan(charts: Charts, cg_id: str) -> SetupPlan:
    """The set-up restrictions of the CG ``cg_id`` (its file's ``setup``), from ``charts``."""
    return _plan(charts.source(f"campaigns/{cg_id}.yaml"), charts.chart_source("rg"))


@cache
def _plan(src, rg_src) -> SetupPlan:
    """Once per content of the campaign file and of the RG chart."""
    cg = _load_campaign(src, rg_src)
    r = Reader(src.rt(), src.file)
    node = r.mapping(r.root.get("setup"), ["setup"], ("map", "sides", "reserve_hexes"), ("wrecks", "note"))
    m = r.mapping(node["map"], ["setup", "map"], ("columns", "rows"), ("stand_in", "note"))
    cols = [_column(r, c, ["setup", "map", "columns", i]) for i, c in enumerate(r.seq(m["columns"], ["setup", "map", "columns"]))]
    rows = [r.int(x, ["setup", "map", "rows", i]) for i, x in enumerate(r.seq(m["rows"], ["setup", "map", "rows"]))]
    group = MapGroup(cg.map_group, cols[0], cols[-1], rows[0], rows[-1])
    r.mapping(node["sides"], ["setup", "sides"], SIDES)
    sides = {s: _side(r, node["sides"][s], ["setup", "sides", s], group) for s in SIDES}
    w = r.mapping(node.get("wrecks", {"hexes": [], "rule": cg.rule}), ["setup", "wrecks"], ("hexes", "rule"))
    wrecks = tuple(_hexname(r, h, ["setup", "wrecks", "hexes", i], group)
                   for i, h in enumerate(r.seq(w["hexes"], ["setup", "wrecks", "hexes"], empty=True)))
    return SetupPlan(cg, group, sides, wrecks, r.str(w["rule"], ["setup", "wrecks", "rule"]),
                     r.int(node["reserve_hexes"], ["setup", "reserve_hexes"], 1))


def _column(r: Reader, node: Any, path: list) -> int:
    try:
        return column_number(r.str(node, path))
    except ValueError:
        raise r.error(f"{node!r} is not a column (A..Z, AA, BB, ...)", path) from None


def _hexname(r: Reader, node: Any, path: list, group: MapGroup) -> str:
    try:
        return group.name(group.parse(r.str(node, path)))
    except InvalidInput as exc:
        raise r.error(exc.message, path, rule="0.3") from None


def _side(r: Reader, node: Any, p: list, group: MapGroup) -> SidePlan:
    keys = ("near_building", "enemy_area", "edge_entry", "must_enter", "first_wave", "late_entry", "guns", "ft",
            "per_hexrow", "entrenchments", "barred", "fixed", "lines", "stand_in", "note")
    r.mapping(node, p, ("rule", "text", "on_map", "reserves"), keys)
    lines = []
    for i, ln in enumerate(r.seq(node.get("lines", []), p + ["lines"], empty=True)):
        lp = p + ["lines", i]
        r.mapping(ln, lp, ("through", "toward"), ("note",))
        through = tuple(group.parse(_hexname(r, h, lp + ["through", j], group))
                        for j, h in enumerate(r.seq(ln["through"], lp + ["through"])))
        lines.append(HexLine(through, group.parse(_hexname(r, ln["toward"], lp + ["toward"], group)),
                             "-".join(group.labels.format_short(h) for h in through)))
    nb = node.get("near_building")
    near = None
    if nb is not None:
        r.mapping(nb, p + ["near_building"], ("numbers", "hexes"))
        lo, hi = (r.int(x, p + ["near_building", "numbers", i]) for i, x in enumerate(nb["numbers"]))
        near = (lo, hi, r.int(nb["hexes"], p + ["near_building", "hexes"]))
    ea = node.get("enemy_area")
    enemy = None if ea is None else tuple(r.int(x, p + ["enemy_area", i]) for i, x in enumerate(ea))
    return SidePlan(
        rule=r.str(node["rule"], p + ["rule"]), text=r.str(node["text"], p + ["text"]),
        on_map=r.bool(node["on_map"], p + ["on_map"]), lines=tuple(lines), near_building=near,
        enemy_area=enemy,  # type: ignore[arg-type]
        edge_entry=_plain(node.get("edge_entry")), must_enter=tuple(_plain(x) for x in node.get("must_enter", [])),
        first_wave=_plain(node.get("first_wave")), late_entry=_plain(node.get("late_entry")),
        guns=_plain(node.get("guns")), ft=_plain(node.get("ft")), per_hexrow=_plain(node.get("per_hexrow")),
        entrenchments=_plain(node.get("entrenchments")), barred=tuple(_plain(x) for x in node.get("barred", [])),
        fixed=tuple(_plain(x) for x in node.get("fixed", [])), reserves=_plain(node["reserves"]))


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x


# --- checks ---------------------------------------------------------------------------------------

def placement_problems(charts: Charts, state: KgpState, side: str, choice: dict) -> list[Problem]:
    """The first problem of the side's placements, each naming its rule and the placement."""
    items = list(choice.get("placements", []))
    if not items:
        return []
    pl = plan(charts, state["cg"])
    sp = pl.sides[side]
    bought = list(choice.get("purchase", []))
    ob = {x.ref for x in pl.cg.initial.sides[side].ob if x.kind == "rg"}
    seen_ids: set[str] = set()
    for i, x in enumerate(items):
        found = _one(charts, state, pl, sp, side, x, bought, ob, seen_ids)
        if found:
            msg, rule, key = found
            return [Problem(msg, rule, ["placements", i] + ([key] if key else []))]
    found = _together(pl, sp, side, items)
    if found:
        msg, rule, i, key = found
        return [Problem(msg, rule, ["placements", i] + ([key] if key else []))]
    return []


def _hex(pl: SetupPlan, label: Any):
    h = pl.group.parse(str(label))
    if not pl.group.on_map(h):
        raise InvalidInput(f"{label} is off the {pl.group.prefix} map group (stand-in map extents)", rule="0.3")
    return h


def _one(charts: Charts, state, pl: SetupPlan, sp: SidePlan, side: str, x: dict, bought: list, ob: set, ids: set):
    """(message, rule, key) of the first problem of one placement, or None."""
    who = x.get("rg") or x.get("unit") or x.get("id") or x["kind"]
    if x.get("id"):
        if x["id"] in ids:
            return f"the placement id {x['id']!r} is given twice", "CG7", "id"
        ids.add(x["id"])
    if ("hex" in x) == ("enter" in x):
        return f"{who}: give either `hex` (set up on-map) or `enter` (an Entry Area's arrow hex)", "CG7", None
    for key in ("hex", "entry_hex", "building"):
        try:
            if key in x:
                _hex(pl, x[key])
        except InvalidInput as exc:
            return exc.message, "0.3", key
    where = _hex(pl, x["hex"]) if "hex" in x else None
    entry_hex = _hex(pl, x["entry_hex"]) if "entry_hex" in x else None
    rg = x.get("rg")
    if rg and rg not in ob and rg not in bought:
        return f"{rg} is neither in the {SIDE_ADJECTIVES[side]} Initial OB nor bought in these orders", "CG7", "rg"
    fixed = next((f for f in sp.fixed if f["unit"] == x.get("unit")), None)
    if fixed:
        if where is None or pl.group.name(where) != pl.group.name(pl.group.parse(fixed["hex"])):
            return f"the {fixed['unit']} sets up in {fixed['hex']} ({fixed['text']})", fixed["rule"], "hex"
        if x.get("vca") and x["vca"] != fixed["vca"]:
            return f"the {fixed['unit']}'s VCA is {fixed['vca']} ({fixed['text']})", fixed["rule"], "vca"
    if x.get("reserve"):
        found = _reserve(pl, sp, side, x, where, rg, bought, ob)
        if found:
            return found
    elif where is not None and rg and rg in bought and rg.startswith(RESERVE_RG) and side == "german" \
            and sp.reserves.get("purchased") == "must" and _german_entry(pl):
        return (f"{rg} is bought for this scenario: a German I, V or HW RG is in play from the start only as a "
                f"Reserve (`reserve: true`)", "CG7a", "reserve")
    if where is not None:
        found = _on_map(pl, sp, side, x, where)
    else:
        found = _entry(charts, state, pl, sp, side, x, entry_hex, rg, bought, ob)
    return found


def _reserve(pl: SetupPlan, sp: SidePlan, side: str, x: dict, where, rg, bought: list, ob: set):
    if side != "german":
        return "US RGs can never be Reserves", "CG7c", "reserve"
    if rg and rg in ob and sp.reserves.get("ob") == "never":
        return f"the Initial-OB {rg} is not set up as a Reserve ({sp.reserves.get('text', sp.rule)})", \
            sp.reserves.get("rule", sp.rule), "reserve"
    if rg and not rg.startswith(RESERVE_RG):
        return f"{rg} is not an I, V or HW RG: it cannot be a Reserve", "CG7a", "reserve"
    if where is None:
        return "a Reserve sets up on-map (`hex`), under its Cloaking counter", "CG7a", "enter"
    if not x.get("id"):
        return "a Reserve Cloaking counter needs an `id` (it is released by it, CG7b)", "CG7a", "id"
    if x.get("hip"):
        return "Reserve Cloaking counters may not use HIP", "CG7a", "hip"
    if x.get("level", 0):
        return "a Reserve sets up in a ground-level Location", "CG7a", "level"
    far = pl.reserve_field
    best = max((d for h, d in far.items() if pl.area("german", h)), default=0)
    need = min(pl.reserve_hexes, best)
    got = far.get(where, 0)
    if got < need:
        return (f"a Reserve sets up {pl.reserve_hexes} hexes or more from the US set-up area and US Entry "
                f"Areas (as far as possible: {need} here); {pl.group.name(where)} is {got}", "CG7a", "hex")
    return None


def _reserve_distances(pl: SetupPlan) -> dict:
    """SSR CG7a: each hex's distance from the US set-up area and the US Entry Areas' hexes (II.2,
    III.2: every hex outside the German set-up restrictions counts as US set-up area)."""
    g = pl.group
    us = pl.sides["us"]
    if us.enemy_area is not None:
        lo, hi = us.enemy_area
        src = [h for h in g.hexes if lo <= g.row(h) <= hi]
    else:
        src = [h for h in g.hexes if not pl.area("german", h)]
    for a in pl.cg.entry_areas:
        if "us" in a.sides:
            src += list(g.entry_hexes(g.parse(a.centre)))
    return distances_from(g, src)


def _german_entry(pl: SetupPlan) -> bool:
    """SSR CG7a EXC: on St and Ch, with no Eligible German Entry Area the Germans need not use Reserves."""
    if pl.group.prefix == "Lg":
        return True
    return any("german" in a.sides and pl.area("german", pl.group.parse(a.centre)) for a in pl.cg.entry_areas)


def _on_map(pl: SetupPlan, sp: SidePlan, side: str, x: dict, where):
    name = pl.group.name(where)
    if not sp.on_map:
        return f"the {SIDE_ADJECTIVES[side]} Initial OB does not set up on-map: {sp.text}", sp.rule, "hex"
    for line in sp.lines:
        if not line.holds(where):
            return f"{name} is outside the {SIDE_ADJECTIVES[side]} set-up restrictions: {sp.text}", sp.rule, "hex"
    if sp.near_building:
        lo, hi, n = sp.near_building
        b = x.get("building")
        if not b:
            return (f"{name}: name the building hex it sets up within {n} hexes of (`building`; {sp.text})",
                    sp.rule, "building")
        bh = _hex(pl, b)
        if not lo <= pl.group.row(bh) <= hi:
            return f"{pl.group.name(bh)} is not numbered {lo} to {hi} ({sp.text})", sp.rule, "building"
        if distance(where, bh) > n:
            return f"{name} is {distance(where, bh)} hexes from {pl.group.name(bh)}, more than {n} ({sp.text})", \
                sp.rule, "hex"
    for b in sp.barred:
        if pl.group.name(pl.group.parse(b["hex"])) == name and _is(x, b["kinds"]):
            return f"{b['text']} ({name})", b["rule"], "hex"
    if sp.guns and x["kind"] == "gun":
        if x.get("hooked") or x.get("limbered"):
            return f"{sp.guns['text']}", sp.guns["rule"], "hooked" if x.get("hooked") else "limbered"
        if x.get("ca") not in HEXSPINES:
            return (f"a Gun's recorded Covered Arc is a hexspine, one of {', '.join(HEXSPINES)} (`ca`; "
                    f"{sp.guns['text']})", sp.guns["rule"], "ca")
    return None


def _is(x: dict, kinds: list) -> bool:
    if x["kind"] in kinds:
        return True
    return "minefield" in kinds and "minefield" in str(x.get("fortification", ""))


def _entry(charts: Charts, state, pl: SetupPlan, sp: SidePlan, side: str, x: dict, entry_hex, rg, bought: list,
           ob: set):
    area_name = str(x["enter"])
    edge = sp.edge_entry
    if edge and area_name == edge["edge"]:
        if not rg or rg not in edge["rgs"]:
            return f"only RGs {', '.join(edge['rgs'])} may enter from the {edge['edge']} edge ({edge['text']})", \
                edge["rule"], "rg"
        return None
    if side == "german" and rg in ob and not sp.reserves.get("ob_may_enter"):
        return f"the German Initial OB sets up on-map ({sp.text})", "CG7", "enter"
    try:
        centre = pl.group.name(pl.group.parse(area_name))
    except InvalidInput as exc:
        return exc.message, "CG6", "enter"
    area = next((a for a in pl.cg.entry_areas if a.centre == centre), None)
    if area is None:
        return (f"{centre} is not the arrow hex of an Entry Area of {pl.cg.id.upper()}: "
                + ", ".join(a.centre for a in pl.cg.entry_areas)), "CG6", "enter"
    for m in sp.must_enter:
        if rg == m["rg"] and rg in ob and centre != pl.group.name(pl.group.parse(m["area"])):
            return f"the Initial-OB {rg} enters at {m['area']} ({m['text']})", m["rule"], "enter"
    if side not in area.sides:
        return f"{centre} is not a {SIDE_ADJECTIVES[side]} Entry Area (its arrow bears the other side's symbol)", \
            "CG6c", "enter"
    if pl.cg.date(state["date"]) < area.eligible_from:
        return f"the {centre} Entry Area is Eligible only from {area.eligible_from}", "CG6c", "enter"
    if side == "german" and not pl.area("german", pl.group.parse(centre)):
        return (f"the Germans do not control {centre}, the arrow hex (8.5: outside their set-up restrictions): "
                "the Entry Area is not Eligible for them"), "CG6c", "enter"
    if x["kind"] == "vehicle" and not area.vehicles:
        return f"vehicles may not enter by the {area.name or centre} Entry Area", "CG20", "enter"
    if side == "us" and rg:
        codes = load_rg_chart(charts).get("us", rg).entry_codes
        if area.colour not in codes:
            return (f"{rg} enters only by an arrow of its Entry Codes ({', '.join(codes)}); {centre} is "
                    f"{area.colour}"), "CG6a", "enter"
    wave = sp.first_wave
    if wave and ((rg and rg in ob and rg in wave["rgs"]) or x.get("unit") in wave["units"]):
        if x.get("turn", 1) != wave["turn"]:
            return f"{wave['text']}", wave["rule"], "turn"
        near = pl.group.parse(wave["near"])
        if entry_hex is None or distance(entry_hex, near) > wave["hexes"]:
            return f"give the `entry_hex`: {wave['text']}", wave["rule"], "entry_hex"
    late = sp.late_entry
    if late and rg and rg in bought and rg.startswith(tuple(late["rgs"])) and x.get("turn", 1) < late["turn"]:
        return f"{late['text']} (`turn: {late['turn']}` or later)", late["rule"], "turn"
    return None


def _together(pl: SetupPlan, sp: SidePlan, side: str, items: list):
    """The rules on several placements at once: (message, rule, index, key) or None."""
    if sp.ft:
        fts = [i for i, x in enumerate(items) if x.get("ft")]
        bad = next((i for i in fts if items[i].get("unit") != sp.ft["unit"]), None)
        if bad is not None:
            return sp.ft["text"], sp.ft["rule"], bad, "ft"
        if len(fts) > sp.ft["most"]:
            return sp.ft["text"], sp.ft["rule"], fts[sp.ft["most"]], "ft"
    if sp.edge_entry:
        e = [i for i, x in enumerate(items) if x.get("enter") == sp.edge_entry["edge"]]
        rgs: list = []
        for i in e:
            if items[i].get("rg") not in rgs:
                rgs.append(items[i].get("rg"))
            if len(rgs) > sp.edge_entry["most"]:
                return sp.edge_entry["text"], sp.edge_entry["rule"], i, "enter"
    dummies: dict = {}
    for i, x in enumerate(items):
        if x.get("reserve") and x["kind"] == "dummy":
            dummies[x.get("rg")] = dummies.get(x.get("rg"), 0) + 1
            if dummies[x.get("rg")] > 1:
                return "each Reserve RG may have 1 Dummy Cloaking counter", "CG7a", i, "kind"
    g = pl.group
    if sp.per_hexrow:
        limit = g.labels.parse(sp.per_hexrow["west_of"] + "1")
        col_v = g.column(limit)
        per: dict = {}
        for i, x in enumerate(items):
            if "hex" in x and x["kind"] in sp.per_hexrow["kinds"]:
                c = g.column(g.parse(x["hex"]))
                if c <= col_v:
                    per[c] = per.get(c, 0) + 1
                    if per[c] > sp.per_hexrow["most"]:
                        return f"{sp.per_hexrow['text']}: hexrow {column_letters(c)} has two", sp.per_hexrow["rule"], i, "hex"
    if sp.entrenchments:
        en = sp.entrenchments
        col_v = g.column(g.labels.parse(en["west_of"] + "1"))
        mmc = {g.name(g.parse(x["hex"])) for x in items if "hex" in x and x["kind"] == "mmc"}
        for i, x in enumerate(items):
            if "hex" in x and x["kind"] == "fortification" and x.get("fortification") in en["ids"]:
                h = g.parse(x["hex"])
                if g.column(h) <= col_v and g.name(h) not in mmc:
                    return f"{en['text']} ({g.name(h)})", en["rule"], i, "hex"
    return None


# --- resolution -----------------------------------------------------------------------------------

def place(charts: Charts, state: KgpState, answers: dict, events: list[Event]) -> None:
    """Record each side's placements (its own), the Reserve Cloaking counters (their number told to
    both), and the SSR placements the referee makes: II.3's wrecks, III.4's PzKpfw VIb."""
    pl = plan(charts, state["cg"])
    placed = state.setdefault("placements", {s: [] for s in SIDES})
    for side in SIDES:
        items = [dict(x) for x in answers[side].get("placements", [])]
        for x in items:
            for k in ("hex", "enter", "entry_hex", "building"):
                if x.get(k) and not (k == "enter" and x[k] == (pl.sides[side].edge_entry or {}).get("edge")):
                    x[k] = pl.group.name(pl.group.parse(str(x[k])))
        placed[side] = items
        if items:
            on = sum(1 for x in items if "hex" in x)
            rules = [pl.sides[side].rule] + (["CG6"] + (["CG20"] if any(not a.vehicles for a in pl.cg.entry_areas)
                                                        else []) if on < len(items) else [])
            events.append(event("setup.placed", f"{SIDE_ADJECTIVES[side]} set up {on} counter(s) on-map and "
                                                f"{len(items) - on} to enter ({pl.sides[side].text})",
                                ", ".join(rules), side=side, visible_to=[side]))
        reserves = [x for x in items if x.get("reserve")]
        if reserves:
            events.append(event("setup.reserves",
                                f"{SIDE_ADJECTIVES[side]} set up {len(reserves)} Reserve Cloaking counter(s): "
                                + ", ".join(f"{x['id']} in {x['hex']}" for x in reserves), "CG7a", side=side))
        for f in pl.sides[side].fixed:
            events.append(event("setup.fixed",
                                f"{f['text']}: the {f['unit']} is in {pl.group.name(pl.group.parse(f['hex']))}, "
                                f"{f['status']}, VCA {f['vca']}", f["rule"], side=side))
    if pl.wrecks:
        state["wrecks"] = list(pl.wrecks)
        events.append(event("setup.wrecks", "burnt-out wrecks placed in " + " and ".join(pl.wrecks), pl.wrecks_rule))


def release_problems(charts: Charts, state: KgpState, items: list) -> list[Problem]:
    """SSR CG7b: a Reserve is released by LOS to an enemy ground unit within 6 hexes (``by: los``,
    the enemy unit's hex) or when an enemy attack costs it its concealment (``by: attack``)."""
    mine = {x.get("id"): x for x in (state.get("placements") or {}).get("german", []) if x.get("reserve")}
    for i, r in enumerate(items):
        x = mine.get(r["id"])
        if x is None:
            return [Problem(f"the Germans set up no Reserve Cloaking counter {r['id']!r}", "CG7b", ["release", i, "id"])]
        if x.get("released"):
            return [Problem(f"{r['id']} was released on {x['released']}", "CG7b", ["release", i, "id"])]
        if r["by"] == "los":
            if not r.get("enemy_hex"):
                return [Problem("a release by LOS names the enemy ground unit's hex (`enemy_hex`)", "CG7b",
                                ["release", i, "enemy_hex"])]
            pl = plan(charts, state["cg"])
            try:
                e = _hex(pl, r["enemy_hex"])
            except InvalidInput as exc:
                return [Problem(exc.message, "0.3", ["release", i, "enemy_hex"])]
            d = distance(pl.group.parse(x["hex"]), e)
            if d > RELEASE_RANGE:
                return [Problem(f"{r['id']} in {x['hex']} is {d} hexes from {pl.group.name(e)}: a Reserve is "
                                f"released by LOS to an enemy ground unit within {RELEASE_RANGE} hexes", "CG7b",
                                ["release", i, "enemy_hex"])]
    return []


def release(charts: Charts, state: KgpState, items: list, events: list[Event]) -> None:
    """SSR CG7b: the Reserve Cloaking counters released this turn; their contents go on-board."""
    pl = plan(charts, state["cg"]) if items else None
    for r in items:
        x = next(x for x in state["placements"]["german"] if x.get("id") == r["id"])
        x["released"] = f"{state['date']} turn {state['turn']}"
        why = (f"LOS to an enemy ground unit in {pl.group.name(pl.group.parse(r['enemy_hex']))} within "
               f"{RELEASE_RANGE} hexes" if r["by"] == "los" and pl else "an enemy attack cost it its concealment")
        events.append(event("reserve.released", f"German Reserve {r['id']} in {x['hex']} released ({why})", "CG7b"))
