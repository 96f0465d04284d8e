"""The Administration Sequence and the end of the turn: rules 4.32 and 4.4 (with 3.24a, 3.31b,
3.32, 3.41, 3.53-3.55, 7.34, 8.13, 8.51, 10.67a, 14.52).

* 3.41 War Department Orders: :func:`wdo_used`, :func:`wdo_problems` (10 WEP, one a turn).
* 4.32 / 3.24a administration (:func:`administration`, :func:`check_administration`), in the
  order of :data:`ADMIN_ORDER`: replacements (4.32(1), 7.34), relieving and appointing leaders
  (4.32(2), 3.41(2), 3.31b), WDOs (3.41(3), 3.41(4)), chiefs of staff (3.32), cavalry corps formed
  (4.32(3), 3.12: :mod:`.corps`), detachments (8.51),
  ammo (4.32(5), 7.34), training (3.53(2), 14.52), entrenchment (3.24a, 14.8x) and the extra
  train (8.72, 14.14).  The leader orders and WDOs are worked out in :mod:`.admin_leaders`.
* 3.53-3.55 leader ML: :class:`MLCause`, :func:`ml_change`, :func:`apply_ml_change`.
* 4.4 end of turn: :func:`end_of_turn` (wounds heal, 10.67a, 8.13; AP reset with the COS's,
  :func:`cos_bonus`, 3.32; Own Use lapses, 7.35a).

Split out of :mod:`.reorganization` with no change in behaviour; the readings are in that
module's docstring, and it re-exports every name here.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, TypeGuard, cast

from .state_types import FullGameState, Unit
from ...base.errors import InvalidInput
from ..base import Problem
from . import forces as fc
from . import model
from .names import unit_label
from . import supply as sp
from .forced_march import Work, rating
from .admin_leaders import keep_acting_commanders, relieve_and_appoint, war_department_orders
from .model import WDO_COST      # 3.41a
from .reorg_step import (
    Action, StepResult, _leader_problems, _record, _recorded, _refused, _summary, gone, reorg, turn_of, year_of)

if TYPE_CHECKING:
    from ...kit.charts import Charts

WDO_PER_TURN = 1                 # 3.41a
COS_MIN_STARS = 2                # 3.32
COS_EARLY_YEARS = (1861, 1862)   # 3.32c
ENTRENCH_AP = 1                  # 3.24a: the AP a leader pays to entrench his hex (14.8x)
ML_MIN, ML_MAX = 0, 9            # 3.51


# --------------------------------------------------------------------------
# 3.41 War Department Orders


def wdo_used(state: FullGameState, side: str) -> int:
    """Limited WDOs ``side`` has used this turn (3.41a): ``current.wdo`` {side: n}, or a
    ``current.wdo_used`` mapping {side: bool}.  (A bare ``wdo_used: true`` names no side and is
    not counted.)"""
    cur: Mapping[str, Any] = state.get("current") or {}
    n = int((cur.get("wdo") or {}).get(side, 0))
    legacy = cur.get("wdo_used")
    if isinstance(legacy, Mapping) and legacy.get(side):
        n = max(n, int(legacy[side]) if not isinstance(legacy[side], bool) else 1)
    return n


def wdo_problems(state: FullGameState, side: str, *, for_death: bool = False, extra_used: int = 0,
                 extra_wep: int = 0, path: list | None = None) -> list[Problem]:
    """3.41a: a WDO costs 10 WEP; at most 1 a turn, except those replacing a killed leader."""
    path = path or []
    out = []
    if not for_death and wdo_used(state, side) + extra_used >= WDO_PER_TURN:
        out.append(Problem(f"a War Department Order was already used this turn (at most {WDO_PER_TURN} a turn, "
                           "except to replace a killed leader)", "3.41a", path))
    wep = int((state.get("wep") or {}).get(side, 0))
    if wep - extra_wep < WDO_COST:
        out.append(Problem(f"a War Department Order costs {WDO_COST} WEP; {side} has {wep - extra_wep} left",
                           "3.41a", path))
    return out


# --------------------------------------------------------------------------
# 4.32 administration


def detachment_yield(chart: Mapping[str, Any], unit: Unit, by: str) -> int:
    """8.51: detachments a unit yields by ``step_loss`` or ``removal`` on the (stand-in) Detachment
    Chart's data ``chart`` (``charts/detachment.yaml``)."""
    for row in chart["yields"]:
        if row["arm"] == unit["arm"] and row["size"] == unit.get("size"):
            return int(row[by])
    return 0


class _Admin:
    """Administration orders checked and carried out one by one on a working copy."""

    def __init__(self, state: FullGameState, side: str, hexmap, supply, charts: Charts):
        self.work = Work(state)
        self.side = side
        self.hexmap = hexmap
        self.supply = supply
        self.charts = charts
        self.actions: list[Action] = []
        self.problems: list[Problem] = []
        self.wdo = 0
        self.wep_spent = 0

    @property
    def st(self) -> FullGameState:
        return self.work.state

    # helpers
    def bad(self, message: str, rule: str, path: list) -> None:
        self.problems.append(Problem(message, rule, path))

    def leader_ok(self, lid, path, rule, **kw) -> TypeGuard[str]:
        """True when ``lid`` names a leader of the side who may give the order (then a str)."""
        ps = _leader_problems(self.st, self.side, lid, path, rule, **kw)
        self.problems += ps
        return not ps

    def pay_ap(self, lid: str, n: int, path: list, what: str) -> bool:
        have = int(self.st["leaders"][lid].get("ap", 0))
        if n > have:
            self.bad(f"{lid} has {have} AP left; {what} costs {n}", "3.24", path)
            return False
        self.work.set(("leaders", lid, "ap"), have - n)
        return True

    def pay_wep(self, n: int, path: list, what: str) -> bool:
        wep = int((self.st.get("wep") or {}).get(self.side, 0))
        if n > wep:
            self.bad(f"{what} costs {n} WEP; {self.side} has {wep}", "4.32", path)
            return False
        self.work.set(("wep", self.side), wep - n)
        return True

    def full_supply(self, lid: str, path: list, what: str) -> bool:
        """7.34: the leader's force was in communication and in full supply at the recheck."""
        force = model.top_of(self.st, lid)
        rec = self.supply.get(force) if self.supply is not None else None
        if rec is None:
            self.bad(f"no supply recheck of {force}'s force this turn: {what} needs an in-communication, "
                     "full-supply force (the Supply Recheck comes first, 13.0)", "7.34", path)
            return False
        if not rec.get("in_communication") or rec.get("state") != "full":
            self.bad(f"{force}'s force is not in communication and in full supply: no {what} (7.34)", "7.34", path)
            return False
        return True

    def wdo_ok(self, path: list) -> bool:
        ps = wdo_problems(self.st, self.side, extra_used=self.wdo, path=path)
        self.problems += ps
        return not ps

    def take_wdo(self, path: list, what: str) -> bool:
        if not self.wdo_ok(path):
            return False
        self.pay_wep(WDO_COST, path, what)
        self.work.set(("current", "wdo", self.side), wdo_used(self.st, self.side) + 1)
        return True

    def act(self, kind: str, leader: str | None, target: str | None, ap: int, wep: int, rule: str, why: str) -> None:
        self.actions.append(Action(kind, self.side, leader, target, ap, wep, None, [], True, rule, why))

    def stacking_new(self, label: str | None, before: list[str], path: list) -> bool:
        if not label:
            return True
        after = fc.check_hex(self.st, label, self.side).problems
        new = [p for p in after if p.message not in before]
        for p in new:
            self.bad(p.message, p.rule, path)
        return not new

    # 1) replacement steps (4.32(1), 3.24a, 7.34)
    def replacements(self, items: list) -> None:
        pool = dict(self.st.get("replacements") or {})
        for i, o in enumerate(items):
            path = ["administration", "replacements", i]
            if not isinstance(o, Mapping) or o.get("unit") not in self.st["units"]:
                self.bad("each replacement names one of your units: {unit, steps, leader}", "4.32", path)
                continue
            uid = o["unit"]
            u = self.st["units"][uid]
            n = o.get("steps", 1)
            if u["side"] != self.side:
                self.bad(f"{uid} is not one of your units", "4.32", path + ["unit"])
                continue
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                self.bad("steps is a whole number, at least 1", "4.32", path + ["steps"])
                continue
            box = u.get("leader")
            if not box or box not in self.st["leaders"] or not fc.in_service(self.st["leaders"][box]):
                self.bad(f"{uid} is not in the box of a leader on the map: only field commands take replacements",
                         "7.34", path + ["unit"])
                continue
            most = len(u.get("cf") or [0, 0])
            if u["steps"] + n > most:
                self.bad(f"{uid} has {u['steps']} of {most} steps: it cannot take {n} more", "4.32", path + ["steps"])
                continue
            have = int(pool.get(self.side, 0))
            if n > have:
                self.bad(f"{self.side} has {have} replacement steps on the Number Track; {n} asked", "4.32",
                         path + ["steps"])
                continue
            if not self.full_supply(box, path, "replacements"):
                continue
            payer = o.get("leader") or box
            if payer not in self.st["leaders"] or self.st["leaders"][payer]["side"] != self.side:
                self.bad(f"{payer!r} is not one of your leaders", "3.24", path + ["leader"])
                continue
            who, ps = fc.who_pays(self.st, box, payer, self.hexmap)
            if ps:
                self.problems += [Problem(p.message, p.rule, path + ["leader"]) for p in ps]
                continue
            before = fc.check_hex(self.st, cast(str, fc.top_leader_hex(self.st, box)), self.side).problems
            if not self.pay_ap(who, n, path, f"{n} replacement step(s)"):
                continue
            was = u["steps"]
            self.work.set(("units", uid, "steps"), was + n)
            pool[self.side] = have - n
            self.work.set(("replacements", self.side), have - n)
            if was == 0 and not self.stacking_new(fc.top_leader_hex(self.st, box), [p.message for p in before], path):
                continue
            self.act("replacement", who, uid, n, 0, "4.32, 3.24a",
                     f"{unit_label(self.st, uid)} takes {n} replacement step(s): {was} -> {was + n} ({who} pays {n} AP; "
                     f"{have - n} replacement steps left)")

    # 2) relieving and appointing (4.32(2), 3.41(2), 3.31b): see :mod:`.admin_leaders`
    def leaders(self, items: list) -> None:
        relieve_and_appoint(self, items)

    # WDOs (3.41(3), 3.41(4)): see :mod:`.admin_leaders`
    def wdos(self, items: list) -> None:
        war_department_orders(self, items)

    # 3.32 chief of staff
    def chiefs_of_staff(self, items: list) -> None:
        for i, o in enumerate(items):
            path = ["administration", "chief_of_staff", i]
            if not isinstance(o, Mapping):
                self.bad("each appointment is {leader: P, army: A}", "3.32", path)
                continue
            p, a = o.get("leader"), o.get("army")
            if a not in self.st["leaders"] or not self.st["leaders"][a].get("hq") \
                    or self.st["leaders"][a]["side"] != self.side or not fc.in_service(self.st["leaders"][a]):
                self.bad(f"{a!r} is not one of your army commanders on the map", "3.32", path + ["army"])
                continue
            if self.st["leaders"][a].get("cos"):
                self.bad(f"{a} already has a Chief of Staff ({self.st['leaders'][a]['cos']})", "3.32", path + ["army"])
                continue
            if p not in self.st["leaders"] or self.st["leaders"][p]["side"] != self.side or p == a:
                self.bad(f"{p!r} is not one of your leaders", "3.32", path + ["leader"])
                continue
            pl = self.st["leaders"][p]
            if gone(pl) or pl.get("cos_of") or pl.get("hq") or not (pl.get("pool") or fc.in_service(pl)):
                self.bad(f"{p} is not a leader on the map or in the Leader Pool free to serve", "3.32",
                         path + ["leader"])
                continue
            if model.rank(pl) < COS_MIN_STARS:
                self.bad(f"{p} has {model.rank(pl)} star(s); a Chief of Staff needs 2 or more", "3.32",
                         path + ["leader"])
                continue
            if not pl.get("pool") and (model.force_units(self.st, p) or model.subordinates(self.st, p)):
                self.bad(f"{p} leads units or SLs: a Chief of Staff leads nothing (relieve him of them first)",
                         "3.32a", path + ["leader"])
                continue
            if not self.wdo_ok(path):
                continue
            if int(self.st["leaders"][a].get("ap", 0)) < 1:
                self.bad(f"{a} has no AP left: a Chief of Staff costs 10 WEP + 1 AP", "3.32", path)
                continue
            self.take_wdo(path, "a Chief of Staff (a War Department Order)")
            self.pay_ap(a, 1, path, "a Chief of Staff")
            for k, v in (("cos_of", a), ("hex", None), ("superior", None), ("pool", False), ("active", True)):
                self.work.set(("leaders", p, k), v)
            self.work.set(("leaders", a, "cos"), p)
            early = (year_of(self.st) or 0) in COS_EARLY_YEARS
            self.act("chief_of_staff", a, p, 1, -WDO_COST, "3.32, 3.41(3)",
                     f"{p} becomes {a}'s Chief of Staff (10 WEP + 1 AP): from the next AP reset {a} adds "
                     f"{p}'s AP" + (" less 1 (1861-1862, 3.32c)" if early else ""))

    # 4.32(3), 3.12, 8.62: forming a cavalry corps
    def cavalry_corps(self, items: list) -> None:
        from .corps import formation

        for i, lid in enumerate(items):
            f = formation(self.st, self.side, lid, ["administration", "cavalry_corps", i])
            if f.problems:
                self.problems += f.problems
                continue
            self.work.set(("leaders", lid, "cavalry_corps"), True)
            self.act("cavalry_corps", lid, lid, 0, 0, f.rule, f.why)

    # detachments (3.24a, 8.51)
    def detachments(self, items: list) -> None:
        for i, o in enumerate(items):
            path = ["administration", "detachments", i]
            if not isinstance(o, Mapping) or o.get("by") not in ("step_loss", "removal"):
                self.bad("each detachment order is {leader, unit, by: step_loss or removal}", "8.51", path)
                continue
            lid, uid = o.get("leader"), o.get("unit")
            if not self.leader_ok(lid, path + ["leader"], "8.51"):
                continue
            if uid not in model.force_units(self.st, lid):
                self.bad(f"{uid!r} is not a living unit of {lid}'s force", "8.51", path + ["unit"])
                continue
            u = self.st["units"][uid]
            chart = self.charts.chart("detachment")
            count = detachment_yield(chart, u, o["by"])
            if count < 1:
                self.bad(f"{uid} yields no detachments by {o['by'].replace('_', ' ')} (Detachment Chart)", "8.51",
                         path + ["unit"])
                continue
            if not self.pay_ap(lid, 1, path, "a detachment order"):
                continue
            self.work.set(("units", uid, "steps"), 0 if o["by"] == "removal" else u["steps"] - 1)
            counter = chart["detachment"][u["side"]]
            made = []
            for _ in range(count):
                n = 1
                while f"{uid}-d{n}" in self.st["units"]:
                    n += 1
                did = f"{uid}-d{n}"
                self.work.set(("units", did), {"side": u["side"], "name": f"Detachment of {u['name']}",
                                               "arm": counter["arm"], "size": counter["size"],
                                               "cf": list(counter["cf"]), "ml": list(counter["ml"]),
                                               "steps": counter["steps"], "leader": lid, "hex": None})
                made.append(did)
            self.act("detachments", lid, uid, 1, 0, "8.51, 3.24a",
                     f"{lid} breaks {uid} down by {o['by'].replace('_', ' ')} into {count} detachment(s): "
                     f"{', '.join(made)} (1 AP; stand-in Detachment Chart)")

    # ammo (4.32(5), 3.24a, 7.34)
    def ammo(self, items: list) -> None:
        from .rail import price_source, wep_price

        price = wep_price(self.st, "asp", self.charts) if items else 0
        done = set(_recorded(self.st, "ammo", self.side))
        for i, o in enumerate(items):
            path = ["administration", "ammo", i]
            if not isinstance(o, Mapping):
                self.bad("each ammo order is {leader, asp}", "4.32", path)
                continue
            lid, n = o.get("leader"), o.get("asp")
            if not self.leader_ok(lid, path + ["leader"], "4.32"):
                continue
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                self.bad("asp is a whole number, at least 1", "4.32", path + ["asp"])
                continue
            if lid in done:
                self.bad(f"{lid} has already received ammo this turn", "3.24a", path)
                continue
            if not self.full_supply(lid, path, "ammo"):
                continue
            if not self.pay_ap(lid, 1, path, "receiving ammo"):
                continue
            if price and not self.pay_wep(price * n, path, f"{n} ammo point(s)"):
                continue
            done.add(lid)
            _record(self.work, "ammo", self.side, lid)
            before = int(self.st["leaders"][lid].get("asp", 0))
            self.work.set(("leaders", lid, "asp"), before + n)
            self.act("ammo", lid, lid, 1, -price * n, "4.32, 3.24a, 7.34",
                     f"{lid} receives {n} ammo point(s): ASP {before} -> {before + n} (1 AP"
                     + (f", {price * n} WEP: {price_source(self.st, 'asp')}" if price else "") + ")")

    # training (3.53(2), 14.52)
    def training(self, items: list) -> None:
        done = set(_recorded(self.st, "trained", self.side))
        for i, o in enumerate(items):
            path = ["administration", "training", i]
            lid = o.get("leader") if isinstance(o, Mapping) else o
            if not self.leader_ok(lid, path + ["leader"], "3.53"):
                continue
            if lid in done:
                self.bad(f"{lid} has already trained this turn", "3.53", path)
                continue
            ml = int(self.st["leaders"][lid].get("ml", 0))
            if ml >= ML_MAX:
                self.bad(f"{lid} is at ML {ML_MAX}, the highest", "3.51", path)
                continue
            if not self.pay_ap(lid, 1, path, "training"):
                continue
            done.add(lid)
            _record(self.work, "trained", self.side, lid)
            self.work.set(("leaders", lid, "ml"), ml + 1)
            self.act("training", lid, lid, 1, 0, "3.53(2), 3.24a",
                     f"{lid} trains his men: ML {ml} -> {ml + 1} (1 AP)")

    # entrenchment (3.24a, 14.8x)
    def entrench(self, items: list) -> None:
        done = set(_recorded(self.st, "entrenched", self.side))
        for i, o in enumerate(items):
            path = ["administration", "entrench", i]
            lid = o.get("leader") if isinstance(o, Mapping) else o
            if not self.leader_ok(lid, path + ["leader"], "3.24a"):
                continue
            here = fc.top_leader_hex(self.st, lid)
            if here in done:
                self.bad(f"{here} has already been entrenched this turn", "3.24a", path)
                continue
            if not self.pay_ap(lid, ENTRENCH_AP, path, "entrenching"):
                continue
            done.add(here)
            _record(self.work, "entrenched", self.side, here)
            cur = (self.st.get("entrenchments") or {}).get(cast(str, here)) or {}
            level = int(cur.get("level", 0)) + 1 if cur.get("side") == self.side else 1
            self.work.set(("entrenchments", here), {"side": self.side, "level": level})
            self.act("entrench", lid, here, 1, 0, "3.24a", f"{lid} entrenches {here}: level {level} (1 AP)")

    # an extra train (8.72, 14.14): at most one a scenario, in a friendly major city
    # 8.64a: the Union takes off a landing it declared exhausted after its capture (a removal after a
    # raid, 13.13 / 14.34b, is not here: 14.34 is missing and the raid is not known when the sealed
    # orders are written)
    def remove_landing(self, items: list) -> None:
        from .capture import _landings

        landings = _landings(self.st)
        for i, lid in enumerate(items):
            path = ["administration", "remove_landing", i]
            ln = landings.get(lid) if isinstance(lid, str) else None
            if self.side != "union" or ln is None:
                self.bad(f"`{lid}` is not one of your Union Naval Landings", "8.64a", path)
                continue
            if not ln.get("exhausted"):
                self.bad(f"the landing {lid} may be removed only when exhausted after its capture", "8.64a", path)
                continue
            if not isinstance(self.st.get("landings"), Mapping):       # a plain list of hexes: as ids first
                self.work.set(("landings",), {k: dict(v) for k, v in landings.items()})
            self.work.delete(("landings", lid))
            self.act("remove_landing", None, lid, 0, 0, "8.64a",
                     f"the Union removes its landing {lid} in {ln.get('hex')}, exhausted after its capture (8.64a)")

    def train(self, items: list) -> None:
        from .rail import apply_buy_train, buy_train, price_source, wep_price

        for i, o in enumerate(items):
            path = ["administration", "train", i]
            label = o.get("hex") if isinstance(o, Mapping) else o
            if self.hexmap is None or not _on_map(self.hexmap, label):
                self.bad(f"`hex` names the major city where the new train is placed, not {label!r}", "8.72",
                         path + ["hex"])
                continue
            n = buy_train(self.st, self.hexmap, self.side, cast(str, label),     # _on_map: a str
                          price=wep_price(self.st, "train", self.charts))
            if n.problems:
                self.problems += [Problem(p.message, p.rule, path + p.path) for p in n.problems]
                continue
            tid = apply_buy_train(self.st, n)           # on the working copy; recorded as its changes
            self.work.set(("trains", tid), self.st["trains"][tid])
            self.work.set(("wep", self.side), self.st["wep"][self.side])
            self.act("train", None, label, 0, n.wep, "8.72", f"{self.side} adds a train in {label} for {n.wep} WEP "
                     f"(8.72; {price_source(self.st, 'train')})")

    # 8.71: one stretch of track a turn opened for the side's own trains
    def open_rail(self, items: list) -> None:
        from .rail_open import apply_open_stretch, open_stretch

        for i, o in enumerate(items):
            path = ["administration", "open_rail", i]
            a, b = (o.get("from"), o.get("to")) if isinstance(o, Mapping) else (None, None)
            if self.hexmap is None or not (_on_map(self.hexmap, a) and _on_map(self.hexmap, b)):
                self.bad(f"`from` and `to` name the two stations of the stretch, not {o!r}", "8.71", path)
                continue
            n = open_stretch(self.st, self.hexmap, self.side, cast(str, a), cast(str, b))
            if n.problems:
                self.problems += [Problem(p.message, p.rule, path + p.path) for p in n.problems]
                continue
            apply_open_stretch(self.st, n)
            self.work.set(("rail_open",), {k: list(v) for k, v in self.st["rail_open"].items()})
            self.work.set(("rail_opened",), dict(self.st["rail_opened"]))
            self.act("open_rail", None, a, 0, 0, "8.71", f"{self.side} opens the track from {a} to {b} (8.71)")


def _on_map(hexmap, label) -> bool:
    try:
        hexmap.parse(label)
    except (InvalidInput, ValueError, TypeError, AttributeError):
        return False
    return isinstance(label, str)


ADMIN_ORDER = ("replacements", "leaders", "wdo", "chief_of_staff", "cavalry_corps", "detachments", "ammo", "training",
               "entrench", "train", "remove_landing", "open_rail")


def _supply_record(state: FullGameState, side: str, supply, hexmap) -> dict | None:
    if isinstance(supply, sp.SideSupply):
        return {f: {"state": fs.state.value, "in_communication": fs.in_communication, "line": fs.nearest is not None}
                for f, fs in supply.forces.items()}
    if isinstance(supply, Mapping):
        return dict(supply)
    rec = (reorg(state).get("supply") or {}).get(side)
    if rec is not None:
        return rec
    if hexmap is not None:
        return _supply_record(state, side, sp.supply_status(state, side, hexmap, **sp.line_conditions(state, side)),
                              None)
    return None


def check_administration(state: FullGameState, side: str, orders: Mapping | None, hexmap=None, *, charts: Charts,
                         supply=None) -> list[Problem]:
    return administration(state, side, orders, hexmap, charts=charts, supply=supply).problems


def administration(state: FullGameState, side: str, orders: Mapping | None, hexmap=None, *, charts: Charts,
                   supply=None) -> StepResult:
    """4.32 / 3.24a: the side's administration orders, in the order of :data:`ADMIN_ORDER`, with the
    game's charts (``charts``: the Detachment Chart, the stand-in prices).

    ``supply`` (a :class:`.supply.SideSupply` or ``{force: {state, in_communication}}``) says which
    forces were in communication and in full supply (7.34); by default this turn's Supply
    Recheck record, else (with ``hexmap``) a fresh supply check."""
    o = (orders or {}).get("administration") or {}
    if not isinstance(o, Mapping):
        return _refused("administration", side, [Problem("administration orders are a mapping", "4.32",
                                                         ["administration"])], "4.32")
    unknown = [k for k in o if k not in ADMIN_ORDER]
    if unknown:
        return _refused("administration", side, [Problem(
            f"unknown administration order {k!r}; the orders are {', '.join(ADMIN_ORDER)}", "4.32",
            ["administration", k]) for k in unknown], "4.32")
    adm = _Admin(state, side, hexmap, _supply_record(state, side, supply, hexmap), charts)
    for key in ADMIN_ORDER:
        items = o.get(key) or []
        if not isinstance(items, list):
            adm.bad(f"`{key}` is a list", "4.32", ["administration", key])
            continue
        {"replacements": adm.replacements, "leaders": adm.leaders, "wdo": adm.wdos,
         "chief_of_staff": adm.chiefs_of_staff, "cavalry_corps": adm.cavalry_corps,
         "detachments": adm.detachments, "ammo": adm.ammo,
         "training": adm.training, "entrench": adm.entrench, "train": adm.train,
         "remove_landing": adm.remove_landing, "open_rail": adm.open_rail}[key](items)
    if adm.problems:
        return _refused("administration", side, adm.problems, "4.32")
    keep_acting_commanders(adm)
    return StepResult("administration", side, adm.actions, [], adm.work.changes, "4.32",
                      _summary(adm.actions, "no administration orders"))


# --------------------------------------------------------------------------
# 3.53-3.55 leader ML


class MLCause(str, enum.Enum):
    """What changes a leader's ML (3.53, 3.54), and whom it touches (3.55)."""

    COMBAT_VICTORY = "combat_victory"            #: 3.53(1): +1, every leader of the force
    TRAINING = "training"                        #: 3.53(2), 14.52: +1, the leader himself
    ATTACK_CHECK_FAILED = "attack_check_failed"  #: 3.53(3a): -1, the OC only
    PRE_COMBAT_RETREAT = "pre_combat_retreat"    #: 3.53(3b): -1, the OC only
    COMBAT_RETREAT = "combat_retreat"            #: 3.53(3c): -1, the OC only
    RETREAT_THROUGH_ZOC = "retreat_through_zoc"  #: 3.53(3d): -1, the OC only
    MORALE_CHECK_FAILED = "morale_check_failed"  #: 3.53(3e): -1, the OC only
    VOLUNTARY = "voluntary"                      #: 3.54: -n, the OC only, by his choice
    WEATHER = "weather"                          #: 3.53(4), 5.26, 5.29: every leader of the force


ML_RULES = {
    MLCause.COMBAT_VICTORY: (+1, "all", "3.53(1), 3.55"),
    MLCause.TRAINING: (+1, "self", "3.53(2), 14.52"),
    MLCause.ATTACK_CHECK_FAILED: (-1, "oc", "3.53(3a), 3.55"),
    MLCause.PRE_COMBAT_RETREAT: (-1, "oc", "3.53(3b), 3.55"),
    MLCause.COMBAT_RETREAT: (-1, "oc", "3.53(3c), 3.55"),
    MLCause.RETREAT_THROUGH_ZOC: (-1, "oc", "3.53(3d), 3.55"),
    MLCause.MORALE_CHECK_FAILED: (-1, "oc", "3.53(3e), 3.55"),
    MLCause.VOLUNTARY: (-1, "oc", "3.54, 3.55"),
    MLCause.WEATHER: (-1, "all", "3.53(4), 3.55"),
}


@dataclass
class MLChange:
    cause: MLCause
    changes: list[tuple[str, int, int]] = field(default_factory=list)   # (leader, before, after)
    unchanged: list[str] = field(default_factory=list)                  # SLs spared (3.55)
    problems: list[Problem] = field(default_factory=list)
    rule: str = ""
    why: str = ""


def ml_change(state: FullGameState, leader: str, cause: MLCause | str, levels: int = 1) -> MLChange:
    """3.53-3.55: the ML change ``cause`` makes to ``leader``'s force (or to him alone).

    OC-only causes fall on the OC of the force ``leader`` belongs to; an SL cannot reduce his ML
    voluntarily (3.54).  ``levels`` scales the change (voluntary reductions of several levels)."""
    cause = MLCause(cause)
    sign, scope, rule = ML_RULES[cause]
    out = MLChange(cause, rule=rule)
    if leader not in state["leaders"]:
        out.problems.append(Problem(f"{leader!r} is not a leader", rule, ["leader"]))
        out.why = out.problems[0].message
        return out
    top = model.top_of(state, leader)
    members = model.force_leaders(state, top) if fc.in_service(state["leaders"][top]) else [leader]
    oc = cast(str, fc.force_oc(state, top)) if fc.in_service(state["leaders"][top]) else leader   # a leader's force has one
    if cause is MLCause.VOLUNTARY and leader != oc:
        out.problems.append(Problem(f"{leader} is an SL: only the OC ({oc}) may lower his ML voluntarily",
                                    "3.54", ["leader"]))
        out.why = out.problems[0].message
        return out
    who = {"all": members, "self": [leader], "oc": [oc]}[scope]
    delta = sign * max(0, int(levels))
    for lid in who:
        ml = int(state["leaders"][lid].get("ml", 0))
        out.changes.append((lid, ml, max(ML_MIN, min(ML_MAX, ml + delta))))
    out.unchanged = [x for x in members if x not in who] if scope == "oc" else []
    out.why = (f"{cause.value.replace('_', ' ')}: " + ", ".join(f"{lid} ML {a} -> {b}" for lid, a, b in out.changes)
               + (f"; SLs {', '.join(out.unchanged)} unchanged (3.55)" if out.unchanged else ""))
    return out


def apply_ml_change(state: FullGameState, change: MLChange) -> None:
    if change.problems:
        raise ValueError("cannot apply an illegal ML change: " + change.why)
    for lid, _, after in change.changes:
        state["leaders"][lid]["ml"] = after


# --------------------------------------------------------------------------
# 4.4 end of turn


def cos_bonus(state: FullGameState, army: str) -> int:
    """3.32 / 3.32c: the AP a Chief of Staff adds to his army commander (1 less in 1861-1862)."""
    cos = state["leaders"][army].get("cos")
    if not cos or cos not in state["leaders"] or gone(state["leaders"][cos]):
        return 0
    bonus = rating(state["leaders"][cos], "ar")
    if (year_of(state) or 0) in COS_EARLY_YEARS:
        bonus -= 1
    return max(0, bonus)


def end_of_turn(state: FullGameState) -> StepResult:
    """4.4, 10.67a, 8.13, 3.32, 7.35a: wounds heal a level, every leader's AP is reset to his AR
    (less his wound, plus his COS's AP), and Own Use markers of this turn lapse."""
    work = Work(state)
    actions = []
    t = turn_of(state)
    for lid, ld in state["leaders"].items():
        if gone(ld):
            continue
        w = int(ld.get("wound", 0) or 0)
        if w > 0:
            work.set(("leaders", lid, "wound"), w - 1)
            well = w == 1 and bool(ld.get("sick"))        # 8.13a: the sickness's wound level is gone
            if well:
                work.delete(("leaders", lid, "sick"))
            actions.append(Action("wound", ld["side"], lid, lid, 0, 0, None, [], None, "10.67a, 8.13",
                                  f"{lid}'s wound heals one level: {w} -> {w - 1}"
                                  + ("; he is well again and his sickness marker comes off (8.13a)" if well else "")))
        ou = ld.get("own_use")
        if ou is not None and int(ou) <= t:
            work.delete(("leaders", lid, "own_use"))
            actions.append(Action("own_use", ld["side"], lid, lid, 0, 0, None, [], None, "7.35a",
                                  f"{lid}'s unspent Own Use marker lapses"))
    for lid, ld in work.state["leaders"].items():
        if gone(ld):
            continue
        ap = rating(ld, "ar") + cos_bonus(work.state, lid)
        work.set(("leaders", lid, "ap"), ap)
    why = (f"turn {t} ends: every leader's AP is reset to his AR (4.4)"
           + (f"; {sum(a.kind == 'wound' for a in actions)} wound(s) heal a level (10.67a)"
              if any(a.kind == "wound" for a in actions) else ""))
    return StepResult("end_of_turn", None, actions, [], work.changes, "4.4", why)
