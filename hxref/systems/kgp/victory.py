"""KGP victory: who wins a CG or its Initial Scenario, and why (8.51-8.53 Victory Conditions; 8.2 CG End; 8.603).

The conditions are data in the CG files (:mod:`.campaign`); :func:`victory`
checks each at one moment and says which are checked now and which are met.

Reading chosen where the digest is ambiguous (games/kgp/readings.md),
pinned by ``tests/kgp/test_campaign.py``:

* 8.51-8.53: the seed names only the US CG conditions (and only one side's
  Initial-Scenario conditions); the other side wins otherwise, at CG End (or
  at the end of the Initial Scenario).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...base.errors import InvalidInput
from .campaign import Campaign, Condition
from .cg_calendar import CGDate
from .sides import SIDE_NAMES, SIDES, other

MOMENTS = ("during_play", "scenario_end", "cg_end")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Check:
    """One victory condition at this moment: whether it is checked now, and met."""

    id: str
    side: str
    when: str
    rule: str
    text: str
    checked: bool
    met: bool
    detail: str


@dataclass(frozen=True)
class Verdict:
    """The Initial Scenario's result (8.5x Initial Scenario Victory Conditions)."""

    winner: str
    checks: tuple[Check, ...]
    rule: str
    why: str

    def check(self, cid: str) -> Check:
        return next(c for c in self.checks if c.id == cid)


@dataclass(frozen=True)
class Victory:
    """The CG Victory Conditions at one moment: the CG winner if decided, and why."""

    cg: str
    date: str
    moment: str
    cg_end: bool                            # the CG ends now (8.2 CG End)
    winner: str | None
    checks: tuple[Check, ...]
    initial: Verdict | None                 # at the end of the Initial Scenario only
    rule: str
    why: str

    def check(self, cid: str) -> Check:
        return next(c for c in self.checks if c.id == cid)


@dataclass(frozen=True)
class _State:
    moment: str
    date: CGDate
    cg_lvp: Mapping[str, int]
    current_lvp: Mapping[str, int]
    cvp: Mapping[str, int]
    lvp_existing: int
    buildings: Mapping[str, str]            # building id -> the side controlling all its hexes
    hexes: Mapping[str, frozenset[str]]
    lvp_hexes: Mapping[str, frozenset[str]]
    bridge_destroyed_by: str | None
    controls_all_lvp: str | None


def _bad(message: str, path: str, rule: str = "8.603") -> InvalidInput:
    return InvalidInput(message, path=path, rule=rule)


def _state(cg: Campaign, st: Mapping[str, Any]) -> _State:
    known = {"moment", "date", "cg_lvp", "current_lvp", "cvp", "lvp_existing", "buildings", "hexes", "lvp_hexes",
             "bridge_destroyed_by", "controls_all_lvp_locations"}
    for k in st:
        if k not in known:
            raise InvalidInput(f"unknown state key {k!r}", code="E110", path=str(k))
    moment = st.get("moment") or "scenario_end"
    if moment not in MOMENTS:
        raise InvalidInput(f"moment {moment!r} is not one of {', '.join(MOMENTS)}", path="moment")
    if st.get("date") is None:
        raise InvalidInput("the state needs the CG Date", code="E111", path="date")
    try:
        date = cg.date(st["date"])
    except InvalidInput as exc:
        raise exc.at(path="date")

    def per_side(key: str) -> dict[str, int]:
        raw = st.get(key) or {}
        out = {}
        for s in SIDES:
            v = raw.get(s, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise _bad(f"{key}.{s} must be a whole number, 0 or more, not {v!r}", f"{key}.{s}")
            out[s] = v
        return out

    def side_or_none(key: str) -> str | None:
        v = st.get(key)
        if v is not None and v not in SIDES:
            raise _bad(f"{key} must be us, german or nothing, not {v!r}", key)
        return v

    def hexsets(key: str) -> dict[str, frozenset[str]]:
        raw = st.get(key) or {}
        out = {}
        for s in SIDES:
            try:
                out[s] = frozenset(cg.hex(h) for h in raw.get(s, ()))
            except InvalidInput as exc:
                raise exc.at(path=f"{key}.{s}")
        return out

    existing = st.get("lvp_existing", cg.lvp_total)
    if isinstance(existing, bool) or not isinstance(existing, int) or not 0 <= existing <= cg.lvp_total:
        raise _bad(f"lvp_existing must be 0-{cg.lvp_total} (the {cg.map_group} map group's LVP)", "lvp_existing")
    current = per_side("current_lvp")
    for s in SIDES:
        if current[s] > existing:
            raise _bad(f"{SIDE_NAMES[s]} cannot control {current[s]} LVP: the {cg.map_group} map group has "
                       f"{existing} (of {cg.lvp_total})", f"current_lvp.{s}")
    if sum(current.values()) > existing:
        raise _bad(f"the two Current LVP Totals add up to {sum(current.values())}, more than the {existing} LVP "
                   f"on the map group", "current_lvp")
    names: dict[str, str] = {}
    for c in cg.victory.conditions:
        for b in c.buildings:
            for n in b.names:
                names[n] = b.id
    buildings = {}
    for k, side in (st.get("buildings") or {}).items():
        bid = names.get(k)
        if bid is None:
            try:
                bid = names.get(cg.hex(k))
            except InvalidInput:
                bid = None
        if bid is None:
            raise InvalidInput(f"{k!r} is not a building of the {cg.id.upper()} Victory Conditions",
                               path=f"buildings.{k}", rule=cg.victory.rule)
        if side not in (*SIDES, None):
            raise _bad(f"buildings.{k} must be us, german or nothing, not {side!r}", f"buildings.{k}", cg.rule)
        if side:
            buildings[bid] = side
    return _State(moment, date, per_side("cg_lvp"), current, per_side("cvp"), existing, buildings, hexsets("hexes"),
                  hexsets("lvp_hexes"), side_or_none("bridge_destroyed_by"), side_or_none("controls_all_lvp_locations"))


def _needed(c: Condition) -> int:
    """The number a counting condition needs (the campaign reader requires its ``value``)."""
    if c.value is None:
        raise ValueError(f"victory condition {c.id} ({c.test}) has no value")
    return c.value


def _total_at_least(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    what, n = {"cg_lvp_at_least": ("CG-LVP Total", st.cg_lvp[c.side]),
               "current_lvp_at_least": ("Current LVP Total", st.current_lvp[c.side]),
               "cvp_at_least": ("CVP", st.cvp[c.side])}[c.test]
    met = n >= _needed(c)
    return met, f"{who}: {what} {n} {'>=' if met else '<'} {c.value}"


def _cvp_margin(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    side = c.side
    margin = st.cvp[side] - st.cvp[other(side)]
    met = margin >= _needed(c)
    return met, (f"{who}: CVP {st.cvp[side]} - {st.cvp[other(side)]} = {margin} "
                 f"{'>=' if met else '<'} {c.value}")


def _lvp_hexes(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    held = st.lvp_hexes[c.side]
    n = sum(c.weights.get(h, 1) for h in held)
    extra = "; ".join(f"{h} counts {w}" for h, w in c.weights.items() if h in held)
    met = n >= _needed(c)
    return met, f"{who}: {n} LVP hexes{f' ({extra})' if extra else ''} {'>=' if met else '<'} {c.value}"


def _control_buildings(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    missing = [b.hex or b.name for b in c.buildings if st.buildings.get(b.id) != c.side]
    if missing:
        return False, f"{who} do not control all hexes of {', '.join(missing)}"
    return True, f"{who} control all hexes of {', '.join(b.hex or b.name for b in c.buildings)}"


def _control_hexes(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    missing = [h for h in c.hexes if h not in st.hexes[c.side]]
    if missing:
        return False, f"{who} do not control {', '.join(missing)}"
    return True, f"{who} control {', '.join(c.hexes)}"


def _all_lvp_locations(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    side = c.side
    if st.controls_all_lvp is not None:
        met = st.controls_all_lvp == side
        return met, f"reported: {SIDE_NAMES[st.controls_all_lvp]} control all existing LVP Locations"
    met = st.lvp_existing > 0 and st.current_lvp[side] >= st.lvp_existing
    return met, (f"{who}: Current LVP Total {st.current_lvp[side]} of the {st.lvp_existing} LVP existing "
                 f"({'all' if met else 'not all'} LVP Locations)")


def _bridge_destroyed_by(c: Condition, st: _State, who: str) -> tuple[bool, str]:
    by = st.bridge_destroyed_by
    met = by == c.by
    place = c.hex or "the bridge"
    return met, (f"{place} destroyed by {SIDE_NAMES[by]}" if by else f"{place} stands")


#: each victory test of the CG files (:data:`.campaign.TESTS`) -> whether it is met, and the detail
_EVALUATE = {
    "cg_lvp_at_least": _total_at_least, "current_lvp_at_least": _total_at_least, "cvp_at_least": _total_at_least,
    "cvp_margin_at_least": _cvp_margin,
    "lvp_hexes_at_least": _lvp_hexes,
    "control_buildings": _control_buildings,
    "control_hexes": _control_hexes,
    "all_lvp_locations": _all_lvp_locations,
    "bridge_destroyed_by": _bridge_destroyed_by,
}


def _evaluate(cg: Campaign, c: Condition, st: _State) -> tuple[bool, str]:
    test = _EVALUATE.get(c.test)
    if test is None:
        raise AssertionError(c.test)
    return test(c, st, _cap(SIDE_NAMES[c.side]))


def _checks(cg: Campaign, conds: Iterable[Condition], st: _State, due: set[str]) -> tuple[Check, ...]:
    out = []
    for c in conds:
        met, detail = _evaluate(cg, c, st)
        checked = c.when in due
        if not checked:
            detail = {"cg_end": "checked only at CG End", "scenario_end": "checked at the end of a CG scenario",
                      "initial_end": "checked at the end of the Initial Scenario"}.get(c.when, "") + f" ({detail})"
        out.append(Check(c.id, c.side, c.when, c.rule, c.text, checked, met and checked, detail))
    return tuple(out)


def victory(cg: Campaign, state: Mapping[str, Any]) -> Victory:
    """Who wins, and why, at one moment of ``cg`` (8.51-8.53; 8.2 CG End).

    ``state`` (a mapping; sides are ``us`` and ``german``):

    * ``moment``: ``during_play`` (only immediate conditions: the CG-II bridge),
      ``scenario_end`` (the CG Scenario End, 8.603; at the last CG Date it is
      also CG End) or ``cg_end`` (8.2 CG End for another reason);
    * ``date``: the CG Date of the scenario (its first date = the Initial Scenario);
    * ``cg_lvp``, ``current_lvp``, ``cvp``: per side (CVP = what the side has gained);
    * ``lvp_existing``: LVP still existing on the map group (default its total);
    * ``buildings``: building id or hex -> the side controlling all its hexes;
    * ``hexes``, ``lvp_hexes``: per side, hexes controlled (hex prefix optional);
    * ``bridge_destroyed_by``: the side that destroyed the CG-II bridge, if any;
    * ``controls_all_lvp_locations``: optional, the side reported to hold them all.

    Every condition is listed, checked now or not, met or not.  When no
    condition is met at CG End, the CG's ``otherwise`` side wins (reading).
    """
    st = _state(cg, state)
    cg_end = st.moment == "cg_end" or (st.moment == "scenario_end" and st.date == cg.dates[-1])
    due = {"immediate"}
    if st.moment != "during_play":
        due.add("scenario_end")
    if cg_end:
        due.add("cg_end")
    checks = _checks(cg, cg.victory.conditions, st, due)
    met = [c for c in checks if c.met]
    sides = {c.side for c in met}
    rule = cg.victory.rule
    if len(sides) == 1:
        c = met[0]
        winner, over = c.side, True
        why = f"{_cap(SIDE_NAMES[c.side])} win {cg.id.upper()} [{c.rule}]: {c.text} ({c.detail})"
    elif len(sides) > 1:
        winner, over = None, True
        why = "both sides meet a CG Victory Condition at once: " + "; ".join(f"{c.id}: {c.detail}" for c in met)
    elif cg_end:
        winner, over = cg.victory.otherwise, True
        reason = "the last CG Date's scenario has ended" if st.date == cg.dates[-1] else "CG End"
        why = (f"CG End ({reason}) and no CG Victory Condition is met: {SIDE_NAMES[winner]} win otherwise "
               f"[{rule}; {cg.victory.otherwise_source}]")
    else:
        winner, over = None, False
        why = f"no CG Victory Condition is met at {st.date} ({st.moment.replace('_', ' ')}); the CG goes on [{rule}]"
    initial = None
    if st.date == cg.initial.date and st.moment != "during_play":
        ic = _checks(cg, cg.initial.victory.conditions, st, {"initial_end"})
        imet = [c for c in ic if c.met]
        ir = cg.initial.victory.rule
        if imet:
            iw = imet[0].side
            iwhy = f"{_cap(SIDE_NAMES[iw])} win the Initial Scenario [{imet[0].rule}]: {imet[0].detail}"
        else:
            iw = cg.initial.victory.otherwise
            iwhy = (f"no Initial-Scenario Victory Condition is met: {SIDE_NAMES[iw]} win otherwise "
                    f"[{ir}; {cg.initial.victory.otherwise_source}]")
        initial = Verdict(iw, ic, ir, iwhy)
    return Victory(cg.id, st.date.label, st.moment, over, winner, checks, initial, rule, why)
