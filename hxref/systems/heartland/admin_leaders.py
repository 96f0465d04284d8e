"""Administration orders about leaders: relieving and appointing (4.32(2), 3.41(2), 3.31b, 3.15)
and War Department Orders (3.41(3), 3.41(4), 3.31, 3.13).

Each order is checked and carried out on the :class:`.administration._Admin` working copy, one
helper per step of the rule: who is named, whether the successor may take the box, what the
army commander pays, and the relief or appointment itself.  Split out of
:mod:`.administration` with no change in behaviour.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from . import forces as fc
from . import model
from .forced_march import send_to_pool
from .model import ARMY_MIN_STARS, WDO_COST
from .reorg_step import gone

if TYPE_CHECKING:
    from .administration import _Admin


# --------------------------------------------------------------------------
# 4.32(2): relieving and appointing


def _box_named(adm: _Admin, o, path: list) -> str | None:
    """4.32(2), 3.41: the order's form and the leader whose box changes hands (one of the side's
    leaders, not an army commander: that needs a WDO)."""
    if not isinstance(o, Mapping) or not ({"relieve", "appoint"} & set(o)):
        adm.bad("each order is {relieve: X} or {appoint: P, box: X}", "4.32", path)
        return None
    x = o.get("box") or o.get("relieve")
    if x not in adm.st["leaders"] or adm.st["leaders"][x]["side"] != adm.side:
        adm.bad(f"{x!r} is not one of your leaders", "4.32", path)
        return None
    if adm.st["leaders"][x].get("hq"):
        adm.bad(f"{x} is an army commander: a new army commander needs a War Department Order "
                "(wdo: {army_commander: P, from: X})", "3.41", path)
        return None
    return x


def _relief_ok(adm: _Admin, x: str, units: list[str], path: list) -> bool:
    """4.32(2): a leader relieved with no successor is in service and leads no units."""
    if not fc.in_service(adm.st["leaders"][x]):
        adm.bad(f"{x} is not on the map or in a box", "4.32", path)
        return False
    if units:
        adm.bad(f"{x} leads {', '.join(units)}: name his successor (appoint) to relieve him", "4.32", path)
        return False
    return True


def _successor_ok(adm: _Admin, p, x: str, label, units: list[str], sls: list[str], path: list) -> bool:
    """3.15, 4.32(2): the successor comes from the Leader Pool or is an unemployed leader in the
    hex, and the box has something to take over and a place on the map."""
    if p not in adm.st["leaders"] or adm.st["leaders"][p]["side"] != adm.side:
        adm.bad(f"{p!r} is not one of your leaders", "4.32", path + ["appoint"])
        return False
    pl = adm.st["leaders"][p]
    idle = fc.in_service(pl) and pl.get("hex") == label and not model.force_units(adm.st, p) \
        and not model.subordinates(adm.st, p)
    if gone(pl) or pl.get("cos_of") or not (pl.get("pool") or idle):
        adm.bad(f"{p} is neither in the Leader Pool nor an unemployed leader in {label}", "3.15",
                path + ["appoint"])
        return False
    if not units and not sls:
        adm.bad(f"{x}'s box holds no units and no SLs: there is nothing to take over", "4.32", path)
        return False
    if not label:
        adm.bad(f"{x} is off the map: say where his box is (hex)", "4.32", path + ["hex"])
        return False
    return True


def _army_commander_pays(adm: _Admin, boss, label, path: list) -> int | None:
    """3.31b: an active army commander with the hex in his command range may order the change
    for 1 AP; returns the AP paid (0 with no ``ordered_by``), None when the order is refused."""
    if boss is None:
        return 0
    leaders = adm.st["leaders"]
    if boss not in leaders or not leaders[boss].get("hq") or leaders[boss]["side"] != adm.side:
        adm.bad(f"{boss!r} is not one of your army commanders", "3.31b", path + ["ordered_by"])
        return None
    if not leaders[boss].get("active"):
        adm.bad(f"{boss} is inactive", "8.1", path + ["ordered_by"])
        return None
    if not fc.in_command_range(adm.st, adm.hexmap, boss, label):
        adm.bad(f"{label} is outside {boss}'s command range ({fc.command_range(adm.st, boss)} "
                "hexes)", "3.31b", path + ["ordered_by"])
        return None
    if not adm.pay_ap(boss, 1, path + ["ordered_by"], "replacing or relieving a leader"):
        return None
    return 1


def _relieve(adm: _Admin, x: str, up, sls: list[str], ap: int, boss) -> None:
    """4.32(2), 3.41(2): the relieved leader goes to the Leader Pool; his SLs pass to his superior."""
    for s in sls:
        adm.work.set(("leaders", s, "superior"), up)
    send_to_pool(adm.work, x, "4.32")
    adm.act("relieve", x, x, ap, 0, "4.32, 3.41(2)",
            f"{x} is relieved and goes to the Leader Pool (no WDO in the Administration Sequence)"
            + (f"; {boss} pays 1 AP (3.31b)" if ap else ""))


def _take_over_box(adm: _Admin, p: str, x: str, up, label, sls: list[str]) -> tuple[int, int]:
    """4.32(2), 3.41(2): the successor takes the box's units, SLs, trains, artillery and ASP in its
    hex, and its Cavalry Corps marker (3.12); the old leader goes to the Leader Pool.  Returns the
    (ASP, artillery) handed over."""
    xl = adm.st["leaders"][x]
    asp, art = int(xl.get("asp", 0)), int(xl.get("artillery", 0))
    for u, r in adm.st["units"].items():
        if r.get("leader") == x:
            adm.work.set(("units", u, "leader"), p)
    for s in sls:
        adm.work.set(("leaders", s, "superior"), p)
    for sid, lg in adm.st.get("logistics", {}).items():
        if lg.get("leader") == x:
            adm.work.set(("logistics", sid, "leader"), p)
    if fc.in_service(xl):
        for k, v in (("pool", True), ("hex", None), ("superior", None)):
            adm.work.set(("leaders", x, k), v)
    adm.work.set(("leaders", x, "asp"), 0)
    adm.work.set(("leaders", x, "artillery"), 0)
    for k, val in (("pool", False), ("hex", label), ("superior", up if up and up != p else None),
                 ("active", True), ("asp", asp), ("artillery", art)):
        adm.work.set(("leaders", p, k), val)
    for key in ("cavalry_corps", "screen"):     # 3.12: the Cavalry Corps marker is in the box's Status
        if xl.get(key):
            adm.work.set(("leaders", p, key), True)
            adm.work.delete(("leaders", x, key))
    return asp, art


def relieve_and_appoint(adm: _Admin, items: list) -> None:
    """4.32(2), 3.41(2), 3.31b: each ``{relieve: X}`` or ``{appoint: P, box: X}`` in turn."""
    for i, o in enumerate(items):
        path = ["administration", "leaders", i]
        x = _box_named(adm, o, path)
        if x is None:
            continue
        p = o.get("appoint")
        xl = adm.st["leaders"][x]
        units = [u for u, r in adm.st["units"].items() if r.get("leader") == x and r["steps"] > 0]
        sls = [s for s, r in adm.st["leaders"].items() if r.get("superior") == x and not gone(r)]
        label = xl.get("hex") or o.get("hex")
        if p is None:
            if not _relief_ok(adm, x, units, path):
                continue
        elif not _successor_ok(adm, p, x, label, units, sls, path):
            continue
        boss = o.get("ordered_by")
        ap = _army_commander_pays(adm, boss, label, path)
        if ap is None:
            continue
        before = [q.message for q in fc.check_hex(adm.st, label, adm.side).problems] if label else []
        up = xl.get("superior")
        if p is None:
            _relieve(adm, x, up, sls, ap, boss)
            continue
        corps = bool(xl.get("cavalry_corps"))
        asp, art = _take_over_box(adm, p, x, up, label, sls)
        if not adm.stacking_new(label, before, path):
            continue
        adm.act("appoint", p, x, ap, 0, "4.32, 3.41(2)" + (", 3.12" if corps else ""),
                f"{p} takes over {x}'s box in {label} ({len(units)} unit(s), {len(sls)} SL(s), artillery {art}, "
                f"ASP {asp})" + (" with its Cavalry Corps marker (3.12)" if corps else "")
                + ("; " + x + " goes to the Leader Pool" if not gone(xl) else "")
                + " -- no WDO in the Administration Sequence" + (f"; {boss} pays 1 AP (3.31b)" if ap else ""))


# --------------------------------------------------------------------------
# 3.41: War Department Orders


def _wdo_remove(adm: _Admin, x, path: list) -> None:
    """3.41(4): a WDO takes a leader (not an army commander) off the map to the Leader Pool; his
    units stay in the hex, unled, and his SLs pass to his superior."""
    if not adm.leader_ok(x, path + ["remove"], "3.41(4)"):
        return
    if adm.st["leaders"][x].get("hq"):
        adm.bad(f"{x} is an army commander: replace him with {{army_commander: P, from: {x}}}", "3.41", path)
        return
    if not adm.take_wdo(path, "a War Department Order"):
        return
    xl = adm.st["leaders"][x]
    here = fc.top_leader_hex(adm.st, x)
    force = model.top_of(adm.st, x)
    line = (adm.supply or {}).get(force, {}).get("line")
    for u, r in adm.st["units"].items():
        if r.get("leader") == x and r["steps"] > 0:
            adm.work.set(("units", u, "leader"), None)
            adm.work.set(("units", u, "hex"), here)
    for s, ld in adm.st["leaders"].items():
        if ld.get("superior") == x:
            adm.work.set(("leaders", s, "superior"), xl.get("superior"))
    send_to_pool(adm.work, x, "3.41(4)")
    adm.act("wdo_remove", x, x, 0, -WDO_COST, "3.41(4)",
            f"War Department Order ({WDO_COST} WEP): {x} is taken off the map to the Leader Pool"
            + (" (isolated: no supply line)" if line is False else "")
            + "; his units stay in " + str(here) + ", unled")


def _new_commander_ok(adm: _Admin, p, x, path: list) -> bool:
    """3.31, 3.13, 3.41(3): a 3- or 4-star leader not yet commanding takes an existing Army HQ, in
    its hex when the old commander is still present."""
    if not adm.leader_ok(p, path + ["army_commander"], "3.41(3)"):
        return False
    pl = adm.st["leaders"][p]
    if model.rank(pl) < ARMY_MIN_STARS:
        adm.bad(f"{p} has {model.rank(pl)} star(s): only 3- or 4-star leaders command armies", "3.31",
                path + ["army_commander"])
        return False
    if pl.get("hq"):
        adm.bad(f"{p} is already an army commander", "3.31", path + ["army_commander"])
        return False
    if x not in adm.st["leaders"] or not adm.st["leaders"][x].get("hq") \
            or adm.st["leaders"][x]["side"] != adm.side:
        adm.bad(f"{x!r} does not hold an Army HQ: name the army commander whose HQ passes to {p} "
                "(no new armies, 3.13)", "3.13", path + ["from"])
        return False
    xl = adm.st["leaders"][x]
    present = fc.in_service(xl) and not gone(xl)
    if present and fc.top_leader_hex(adm.st, x) != fc.top_leader_hex(adm.st, p):
        adm.bad(f"{p} is not in {x}'s hex: the HQ passes only where it is", "3.41(3)", path)
        return False
    return True


def _pass_army_hq(adm: _Admin, p, x) -> None:
    """3.41(3), 3.32: the Army HQ (and its Chief of Staff) passes to the new commander; the old
    one, if present, serves under him with the army's other SLs."""
    xl = adm.st["leaders"][x]
    present = fc.in_service(xl) and not gone(xl)
    adm.work.set(("leaders", x, "hq"), False)
    adm.work.set(("leaders", p, "hq"), True)
    adm.work.set(("leaders", p, "superior"), None)
    if present:
        for s, r in adm.st["leaders"].items():
            if r.get("superior") == x and s != p:
                adm.work.set(("leaders", s, "superior"), p)
        adm.work.set(("leaders", x, "superior"), p)
    cos = xl.get("cos")
    if cos:
        adm.work.set(("leaders", p, "cos"), cos)
        adm.work.delete(("leaders", x, "cos"))
        adm.work.set(("leaders", cos, "cos_of"), p)
    if xl.get("acting_for"):
        _back_to_staff(adm, p, x)
        return
    adm.act("wdo_army_commander", p, x, 0, -WDO_COST, "3.41(3), 3.31",
            f"War Department Order ({WDO_COST} WEP): {p} becomes army commander in place of {x}"
            + (f"; {x} serves under him" if present else ""))


def _back_to_staff(adm: _Admin, p: str, x: str) -> None:
    """3.32b(3): a new commander replaces the Chief of Staff who held the army since its commander
    fell: he returns to staff duty in the new commander's box, his brevet reverted, and the units
    he led pass to the new commander."""
    xl = adm.st["leaders"][x]
    brevet = int(xl.get("cos_brevet", 0) or 0)
    for uid, u in adm.st["units"].items():
        if u.get("leader") == x:
            adm.work.set(("units", uid, "leader"), p)
    for k, v in (("cos_of", p), ("hex", None), ("superior", None), ("pool", False), ("active", True)):
        adm.work.set(("leaders", x, k), v)
    adm.work.set(("leaders", p, "cos"), x)
    if brevet:
        adm.work.set(("leaders", x, "brevet"), max(0, int(xl.get("brevet", 0) or 0) - brevet))
    adm.work.delete(("leaders", x, "acting_for"))
    adm.work.delete(("leaders", x, "cos_brevet"))
    adm.act("wdo_army_commander", p, x, 0, -WDO_COST, "3.41(3), 3.32b",
            f"War Department Order ({WDO_COST} WEP): {p} becomes army commander in place of {x}, who "
            f"returns to his Chief of Staff duty" + (f", his {brevet}-star brevet reverted" if brevet else ""))


def keep_acting_commanders(adm: _Admin) -> None:
    """3.32b(3): a Chief of Staff who took his fallen commander's army and was not replaced in this
    Administration keeps it, brevet and all; a new Chief of Staff may be appointed for him (3.32)."""
    for lid, ld in adm.st["leaders"].items():
        if ld["side"] != adm.side or not ld.get("acting_for") or not ld.get("hq"):
            continue
        fallen = ld["acting_for"]
        adm.work.delete(("leaders", lid, "acting_for"))
        adm.work.delete(("leaders", lid, "cos_brevet"))
        adm.act("cos_keeps_army", lid, lid, 0, 0, "3.32b",
                f"{lid}, Chief of Staff of the fallen {fallen}, keeps command of the army")


def war_department_orders(adm: _Admin, items: list) -> None:
    """3.41(3), 3.41(4): each ``{remove: L}`` or ``{army_commander: P, from: X}`` in turn."""
    for i, o in enumerate(items):
        path = ["administration", "wdo", i]
        if not isinstance(o, Mapping) or not ({"remove", "army_commander"} & set(o)):
            adm.bad("each WDO is {remove: L} or {army_commander: P, from: X}", "3.41", path)
            continue
        if "remove" in o:
            _wdo_remove(adm, o["remove"], path)
            continue
        p, x = o.get("army_commander"), o.get("from")
        if not _new_commander_ok(adm, p, x, path):
            continue
        if not adm.take_wdo(path, "a War Department Order"):
            continue
        _pass_army_hq(adm, p, x)
