"""Salem Church's turn on the map (:meth:`SalemChurch.map_marks`): the marks a reader's map draws
from the events he may see, as he was told them (:mod:`.narration`: a unit he does not see is "an
unseen ... unit", a hex he did not see "out of sight").

* ``move``: the unit's path, each stretch the reader saw (D3);
* ``combat`` (B1, 7.2): an arrow from each attacking unit's hex (as far as he knows it) to the
  target, the CRT result on it, then what the result did: retreats and routs (to the hex he is
  told), the advance after combat, eliminated and captured units, killed leaders (17.3);
* ``bombardment``: an arrow from the battery to the hex it fired on, with its result.

Only what the events say is drawn: nothing here reads the state.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ...kit.protocol import MapMark
from .narration import OUT_OF_SIGHT

_TO = re.compile(r"^(.+?) (retreats|routs|goes with his men) to (\d{4})")
_ADVANCE = re.compile(r"^(.+?) advances into (\d{4})")
_GONE = re.compile(r"^(.+?) (eliminated|killed|is left alone with the enemy and captured)$")


def marks(events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[MapMark]:
    """The map marks of ``events`` (the module text)."""
    units = view.get("units") or {}
    by_name = {str(u.get("name") or uid): uid for uid, u in units.items()}
    where: dict[str, str] = {uid: str(u["hex"]) for uid, u in units.items() if u.get("hex")}
    out: list[MapMark] = []
    for ev in events:
        kind, side = ev.get("type"), ev.get("side")
        if kind == "move" and isinstance(ev.get("path"), list):
            out += _move(ev, units, where)
        elif kind == "combat":
            out += _combat(ev, side, by_name, where)
        elif kind == "bombardment" and isinstance(ev.get("explain"), Mapping):
            ex = ev["explain"]
            src, target = str(ex.get("from") or ""), str(ex.get("target") or "")
            if re.fullmatch(r"\d{4}", src) and re.fullmatch(r"\d{4}", target):
                out.append(MapMark("attack", (src, target), side, "bombardment"))
                out.append(MapMark("result", (target,), side, str(ex.get("result") or "")))
    return list(dict.fromkeys(out))


def _move(ev: Mapping[str, Any], units: Mapping[str, Any], where: dict[str, str]) -> list[MapMark]:
    """A move's stretches in sight of the reader (its path, as he was told it)."""
    uid = str(ev.get("unit") or "")
    name = str((units.get(uid) or {}).get("name") or uid)
    out: list[MapMark] = []
    run: list[str] = []
    for h in [str(x) for x in ev["path"]] + [OUT_OF_SIGHT]:
        if h == OUT_OF_SIGHT or h == "off":
            if len(run) >= 2:
                out.append(MapMark("move", tuple(run), ev.get("side"), name))
            run = []
        else:
            run.append(h)
    seen = [str(x) for x in ev["path"] if re.fullmatch(r"\d{4}", str(x))]
    if uid and seen:
        where[uid] = seen[-1]
    return out


def _combat(ev: Mapping[str, Any], side: str | None, by_name: Mapping[str, str], where: dict[str, str]) -> list[MapMark]:
    text = str(ev.get("text") or "")
    target = str(ev.get("target") or "")
    if not re.fullmatch(r"\d{4}", target):
        return []
    ex: Mapping[str, Any] = ev["explain"] if isinstance(ev.get("explain"), Mapping) else {}
    # the explanation names each attacker as the reader knows it (its counter's name)
    attackers = [by_name.get(str(u.get("unit")), str(u.get("unit")))
                 for u in ((ex.get("attacker") or {}).get("units") or []) if isinstance(u, Mapping)]
    sources = sorted({where[u] for u in attackers if u in where and where[u] != target})
    out = [MapMark("attack", (*sources, target), side, text.split(":")[0])] if sources else []
    result = "cancelled" if ex.get("cancelled") else str(ex.get("result") or "")
    if result:
        out.append(MapMark("result", (target,), side, result))
    for part in text.split("; "):
        part = part.strip()
        moved = _TO.match(part)
        if moved:
            who, to = moved.group(1), moved.group(3)
            uid = by_name.get(who)
            start = where.get(uid or "", target) if uid else target
            if start != to:
                out.append(MapMark("retreat", (start, to), None, who))
            if uid:
                where[uid] = to
            continue
        adv = _ADVANCE.match(part)
        if adv:
            uid = by_name.get(adv.group(1))
            came = where.get(uid or "")
            if came and came != adv.group(2):
                out.append(MapMark("advance", (came, adv.group(2)), side, adv.group(1)))
            if uid:
                where[uid] = adv.group(2)
            continue
        gone = _GONE.match(part)
        if gone and not part.startswith("leader casualty"):
            who, how = gone.group(1), gone.group(2)
            uid = by_name.get(who)
            at = where.get(uid or "", target) if uid else target
            out.append(MapMark("killed" if how == "killed" else "eliminated", (at,), None,
                               who if how != "is left alone with the enemy and captured" else f"{who} (captured)"))
    return out

