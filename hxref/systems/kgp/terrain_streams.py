"""KGP fire and sight at a stream's bottom and in its culverts: the stream-bottom TEM of a
stream-woods/pine/brush/orchard hex (4.13), what a culvert's units see (4.2) and what fire does to
them (4.2, 4.24).

* :func:`stream_bottom_tem` (``hxref kgp tem --stream-bottom``), :func:`culvert_fire`
  (``hxref kgp tem --culvert``) and :func:`culvert_sight` (``hxref kgp los --from-culvert``).

Readings (games/kgp/readings.md; tests: tests/kgp/test_village_terrain.py and games/kgp/cases/village_terrain.yaml):

* 4.13 "runs entirely along the stream depiction": every hex the LOS passes through between the
  firer and the target, the firer's own included, is a stream hex (of a pair the LOS runs between,
  one is enough); the seed's B20.2 picture is not in it;
* a Fire Group (A.5) is traced per firer; the target is in Open Ground only when every firer's
  LOS puts it there, as the 2.41 reading gives it the better TEM of its firers;
* the TEM of woods, pine, brush and orchard (ASL B) and the Airbursts DRM are chart stand-ins.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, distance, line_steps
from .slopes import Check
from .terrain import (CULVERT, STREAM, STREAM_MIXED, LocationLike, NotCovered, TerrainChart, _label, _loc)

FIRE_KINDS = ("direct", "indirect", "air", "sniper")
AIRBURST_TERRAIN = ("woods", "pine_woods")          # 4.13 EXC


@dataclass(frozen=True)
class StreamBottomTem:
    """The TEM of a unit at the bottom of a stream-woods/pine/brush/orchard hex (4.13)."""

    target: str
    terrain: str
    open_ground: bool
    tem: int
    airbursts: bool
    airburst_drm: int | None
    checks: tuple[Check, ...]
    stand_in: bool
    rule: str = "4.13"
    why: str = ""


@dataclass(frozen=True)
class CulvertFire:
    """What an attack of one kind does to units in a culvert (4.2, 4.24)."""

    target: str
    fire: str
    affects: bool
    open_ground: bool
    rule: str
    why: str


@dataclass(frozen=True)
class CulvertSight:
    """Whether a unit in a culvert and another Location may see each other (4.2)."""

    visible: bool
    rule: str
    why: str


def _stream(hexmap, h: Hex) -> bool:
    return STREAM in hexmap.features(h)


def _along_stream(hexmap, firer: Hex, target: Hex) -> bool:
    return all(any(_stream(hexmap, h) for h in step) for step in line_steps(firer, target))


def stream_bottom_tem(hexmap, target: LocationLike, firers: Sequence[LocationLike],
                      chart: TerrainChart) -> StreamBottomTem:
    """4.13: in Open Ground when the LOS is traced from within the hex or runs entirely along the
    stream; otherwise the TEM of the hex's woods, pine, brush or orchard; Airbursts always apply in
    stream-woods and stream-pine."""
    t = _loc(target)
    h = hexmap.parse(t.hex)
    lab = _label(hexmap, h)
    tt = hexmap.terrain(h)
    if not _stream(hexmap, h):
        raise InvalidInput(f"{lab} is no stream hex: a stream bottom is in a stream hex (4.13)", rule="4.13")
    if t.level:
        raise InvalidInput(f"{lab}: a unit at the stream bottom is not at building level {t.level} (4.13)",
                           rule="4.13")
    if tt.name not in STREAM_MIXED:
        raise NotCovered(f"{lab} is a stream-{tt.label.lower()} hex: the bottom of a stream other than "
                         f"stream-woods/pine/brush/orchard is ASL B20, not in the seed (4.13)")
    checks = []
    for f in firers:
        fh = hexmap.parse(_loc(f).hex)
        fl = _label(hexmap, fh)
        if fh == h:
            checks.append(Check(True, f"{fl}: the LOS is traced to the bottom from within the same hex", "4.13"))
        elif _along_stream(hexmap, fh, h):
            checks.append(Check(True, f"{fl}: the LOS runs entirely along the stream depiction (B20.2)", "4.13"))
        else:
            checks.append(Check(False, f"{fl}: the LOS leaves the stream: the {tt.label.lower()} of {lab} counts",
                                "4.13"))
    open_ground = all(c.ok for c in checks)
    e = chart.group("stream_bottom.tem").get(tt.name)
    if e is None:
        raise NotCovered(f"the KGP chart has no stream-bottom TEM for {tt.name} (4.13)")
    tem = 0 if open_ground else int(e.value)
    airbursts = tt.name in AIRBURST_TERRAIN
    ab = chart.entry("stream_bottom.airburst_drm") if airbursts else None
    where = "in Open Ground" if open_ground else f"not in Open Ground: the {tt.label} TEM {tem:+d}"
    why = f"the unit at the bottom of {lab} (stream-{tt.label.lower()}) is {where} (4.13)"
    if airbursts and ab is not None:
        why += f"; Airbursts always apply ({int(ab.value):+d} DRM vs HE, 4.13 EXC)"
    why += "; unless Smoke or a LOS Hindrance applies (4.13)"
    return StreamBottomTem(lab, tt.name, open_ground, tem, airbursts, None if ab is None else int(ab.value),
                           tuple(checks), e.stand_in or (ab is not None and ab.stand_in), "4.13", why)


def culvert_fire(hexmap, target: LocationLike, fire: str) -> CulvertFire:
    """4.2, 4.24: units in a culvert are in Open Ground; Indirect Fire and air attacks do not affect
    them, they are not Sniper targets, and no attack affects the culvert itself."""
    t = _loc(target)
    h = hexmap.parse(t.hex)
    lab = _label(hexmap, h)
    if CULVERT not in hexmap.features(h):
        raise InvalidInput(f"{lab} has no culvert (4.2)", rule="4.2")
    if fire not in FIRE_KINDS:
        raise InvalidInput(f"--fire {fire}: use one of {', '.join(FIRE_KINDS)}")
    if fire == "indirect":
        return CulvertFire(lab, fire, False, True, "4.24", f"Indirect Fire has no effect on units in the culvert "
                                                          f"under {lab} (4.24)")
    if fire == "air":
        return CulvertFire(lab, fire, False, True, "4.24", f"air attacks have no effect on units in the culvert "
                                                          f"under {lab} (4.24)")
    if fire == "sniper":
        return CulvertFire(lab, fire, False, True, "4.24", f"units in the culvert under {lab} are not Sniper "
                                                          f"targets (A14.22) (4.24)")
    return CulvertFire(lab, fire, True, True, "4.2", f"units in the culvert under {lab} are in Open Ground (4.2); "
                                                    "the attack does not affect the culvert itself (4.24)")


def culvert_sight(hexmap, viewer: LocationLike, target: LocationLike) -> CulvertSight:
    """4.2: a unit in a culvert traces LOS only to the adjacent stream or culvert."""
    va, ta = _loc(viewer), _loc(target)
    a, b = hexmap.parse(va.hex), hexmap.parse(ta.hex)
    la, lb = _label(hexmap, a), _label(hexmap, b)
    for x, h in ((va, a), (ta, b)):
        if x.culvert and CULVERT not in hexmap.features(h):
            raise InvalidInput(f"{_label(hexmap, h)} has no culvert (4.2)", rule="4.2")
    inside, other, other_loc = (a, b, ta) if va.culvert else (b, a, va)
    ol = _label(hexmap, other)
    if distance(inside, other) != 1:
        return CulvertSight(False, "4.2", f"{la} -> {lb}: a unit in the culvert under {_label(hexmap, inside)} sees "
                                          f"only the adjacent stream or culvert; {ol} is not adjacent (4.2)")
    if other_loc.culvert:
        return CulvertSight(True, "4.2", f"{la} -> {lb}: the adjacent culvert (4.2)")
    if _stream(hexmap, other) and other_loc.level == 0:
        return CulvertSight(True, "4.2", f"{la} -> {lb}: the adjacent stream {ol}, at its bottom (4.2)")
    return CulvertSight(False, "4.2", f"{la} -> {lb}: a unit in the culvert under {_label(hexmap, inside)} sees only "
                                      f"the adjacent stream or culvert; {ol} is neither (4.2)")
