"""Heartland's turn on the map (:meth:`Heartland.map_marks`): the marks a reader's map draws from the
events he may see, in the order they happened.

* ``move``: a force's path (8.21); ``retreat.before.combat``: from where it stood to ``to`` (9.2);
* ``combat`` (10.6): an attack arrow from each attacking hex -- the Assault marker's hex where the
  reader's own event tells it (8.41), else where the attacking force was last seen -- to the
  target; the result as the steps the FERT inflicted on the attacker (A) and the defender (D), and who retreats (10.63); the retreats, advances,
  eliminated stacks and fallen leaders its public lines tell (10.61d, 10.67, 10.68).

Only what the events say is drawn: the reader is given the events he may see, so nothing here
reads the state.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ...kit.protocol import MapMark

_MARKER = re.compile(r"Assault marker (\d{4}) -> (\d{4})")
_RETREAT = re.compile(r"(\w+) retreats (\d+) hex\(es\) from (\d{4}) by ([\d-]+)")
_NO_ROUTE = re.compile(r"no route of \d+ hex\(es\) from (\d{4}): the stack is eliminated")
_ADVANCE = re.compile(r"advances after combat into (\d{4})")
_KILLED = re.compile(r"(\S+) rolls [\d/]+: killed")


def _other(side: str | None) -> str | None:
    return {"union": "confederate", "confederate": "union"}.get(side or "")


def marks(events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[MapMark]:
    """The map marks of ``events`` (the module text)."""
    where = _seen_forces(view)
    sources: dict[str, list[str]] = {}         # target -> the attacking hexes the reader was told of
    out: list[MapMark] = []
    for ev in events:
        kind, side, text = ev.get("type"), ev.get("side"), str(ev.get("text") or "")
        if kind == "move" and isinstance(ev.get("path"), list) and len(ev["path"]) >= 2:
            path = tuple(str(h) for h in ev["path"])
            out.append(MapMark("move", path, side, text.split(" moves ")[0]))
            if ev.get("force"):
                where[str(ev["force"])] = path[-1]
        elif kind == "retreat.before.combat" and ev.get("to"):
            start = where.get(str(ev.get("force")))
            if start and start != ev["to"]:
                out.append(MapMark("retreat", (start, str(ev["to"])), side, text))
            where[str(ev.get("force"))] = str(ev["to"])
        elif kind == "attack.check" and ev.get("target") and ev.get("passed"):
            at = where.get(str(ev.get("force"))) or _unled_hex(str(ev.get("force")))
            if at and at != ev["target"]:
                sources.setdefault(str(ev["target"]), [])
                if at not in sources[str(ev["target"])]:
                    sources[str(ev["target"])].append(at)
        elif kind == "attack.check.detail":
            for src, target in _MARKER.findall(text):
                if src not in sources.setdefault(target, []):
                    sources[target].insert(0, src)
        elif kind == "combat" and ev.get("target"):
            out += _combat(ev, sources.pop(str(ev["target"]), []))
    return list(dict.fromkeys(out))        # a mark told twice (the same move in two impulses' events) once


def _combat(ev: Mapping[str, Any], sources: list[str]) -> list[MapMark]:
    target, attacker = str(ev["target"]), ev.get("attacker")
    defender = _other(attacker)
    text = str(ev.get("text") or "")
    out: list[MapMark] = []
    if sources:
        out.append(MapMark("attack", (*sources, target), attacker, f"{attacker} attacks {target}"))
    inflicted = ev.get("inflicted") or {}
    if isinstance(inflicted, Mapping) and attacker and defender:
        lost_a, lost_d = int(inflicted.get(defender, 0)), int(inflicted.get(attacker, 0))
        gone = ev.get("retreating")
        out.append(MapMark("result", (target,), attacker, f"A-{lost_a} D-{lost_d}"
                           + (f", {'A' if gone == attacker else 'D'} retreats" if gone else "")))
    for who, _n, start, route in _RETREAT.findall(text):
        path = (start, *route.split("-"))
        out.append(MapMark("retreat", path, who if who in ("union", "confederate") else ev.get("retreating"),
                           f"{who} retreats"))
    for start in _NO_ROUTE.findall(text):
        out.append(MapMark("eliminated", (start,), ev.get("retreating"), "stack with no retreat route"))
    for into in _ADVANCE.findall(text):
        if sources and into != sources[0]:
            out.append(MapMark("advance", (sources[0], into), attacker, "advance after combat"))
    for lid in _KILLED.findall(text):
        out.append(MapMark("killed", (target,), None, lid))
    return out


def _unled_hex(force: str) -> str | None:
    """An unled stack is named by the hex it stands in, ``unled@<hex>`` (8.22b)."""
    return force.split("@")[1] if force.startswith("unled@") else None


def _seen_forces(view: Mapping[str, Any]) -> dict[str, str]:
    """Where the view shows each force's leader (a stack's top counter: 3.71), by force id."""
    out: dict[str, str] = {}
    for entries in (view.get("seen") or {}).values():
        for hexlabel, entry in (entries or {}).items():
            top = (entry or {}).get("top") or {}
            if top.get("id"):
                out[str(top["id"])] = str(hexlabel)
    return out
