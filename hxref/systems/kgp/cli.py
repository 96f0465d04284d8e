"""``hxref kgp mf|tem|los|wall|loc|turn|turret|wire``: the KGP terrain calculators on the command line.

The main command line mounts :data:`kgp_group` as ``hxref kgp`` (``INFO.cli``); everything here is a thin
shell over the terrain modules (:mod:`.terrain`, :mod:`.terrain_costs`, :mod:`.slopes`, :mod:`.fire_lanes`,
:mod:`.sight`, :mod:`.narrow_streets`, :mod:`.terrain_locations`, :mod:`.terrain_streams`: the rules, their numbers
and their readings live there and in ``games/kgp/charts/terrain_costs.yaml``).
Each verb prints the answer with every part's reason and rule, or with
``--json`` the same facts for scripts.  A question that was answered exits 0,
even when the answer is "not allowed" or "no TEM"; bad input, and questions
the rules seed cannot answer, exit 2 with one line (``hxref.cli.Main``).

This module imports only click at load time, so ``hxref --version`` stays fast.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import click

from ...base.errors import HxrefError, InvalidInput

if TYPE_CHECKING:
    from fractions import Fraction

CHART = "games/kgp/charts/terrain_costs.yaml"
STAND_IN_NOTE = f"stand-in: a number the rules seed does not print (see {CHART})"

json_option = click.option("--json", "as_json", is_flag=True, help="machine-readable output for scripts")
map_argument = click.argument("map_file", metavar="MAP", type=click.Path(dir_okay=False))


def unit_options(f):
    """--unit and the unit's condition flags (shared by mf and wire)."""
    opts = [
        click.option("--unit", "kind", default="squad", show_default=True, metavar="KIND",
                     help="squad, half_squad, crew, smc, cavalry, wagon, bicycle, horse, vehicle, motorcycle"),
        click.option("--status", default="good_order", show_default=True,
                     help="good_order, pinned, broken or berserk"),
        click.option("--cx", is_flag=True, help="the unit is CX"),
        click.option("--skis", is_flag=True, help="Infantry on skis"),
        click.option("--straying", is_flag=True, help="the unit is Straying"),
        click.option("--not-fully-tracked", is_flag=True, help="a vehicle that is not fully tracked (3.3)"),
        click.option("--truck-mp", is_flag=True, help="a vehicle expending truck-type MP (3.3)"),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


# --- helpers ---------------------------------------------------------------------------------

def _unit(kind: str, status: str = "good_order", cx: bool = False, skis: bool = False, straying: bool = False,
          not_fully_tracked: bool = False, truck_mp: bool = False):
    from .terrain import STATUSES, Unit

    try:
        return Unit(kind, status=status, cx=cx, skis=skis, straying=straying, fully_tracked=not not_fully_tracked,
                    truck_mp=truck_mp)
    except InvalidInput as exc:
        what = f"--status {status}" if status not in STATUSES else f"--unit {kind}"
        raise InvalidInput(f"{what}: {exc.message}", code="E504") from None


def _hexmap(path: str):
    """The KGP hex map in ``path`` (InvalidInput naming the file otherwise)."""
    from ...geometry.mapfile import load_map

    if not Path(path).exists():
        raise InvalidInput("no such file", code="E100", file=path)
    m = load_map(path)
    if m.kind != "hex":
        raise InvalidInput("the KGP calculators need a hex map, not a table", code="E504", file=path)
    if m.system != "kgp":
        raise InvalidInput(f"this is a {m.system} map; the KGP calculators need a KGP map (system: kgp), "
                           "e.g. games/kgp/maps/sample.yaml", code="E504", file=path)
    return m


def _hex(m, label: str, arg: str, path: str):
    """Parse a hex label given as argument ``arg`` (FROM, TO ...)."""
    try:
        return m.parse(label)
    except HxrefError as exc:
        raise InvalidInput(f"{arg} {label}: {exc.message}", code="E504", file=path) from None


def _hexside(m, text: str | None, arg: str, path: str) -> str | None:
    return None if text is None else _side(m, text, arg, path)


def _side(m, text: str, arg: str, path: str) -> str:
    try:
        return m.grid.side_label(m.grid.parse_hexside(text))
    except HxrefError as exc:
        raise InvalidInput(f"{arg} {text}: {exc.message}", code="E504", file=path) from None


def _chart():
    """The terrain chart as the data folder holds it today: a calculator answers for no game."""
    from ...kit.charts import Charts
    from .terrain import TerrainChart

    return TerrainChart.load(Charts.today("kgp"))


@contextmanager
def _about(path: str) -> Iterator[None]:
    """Errors the calculators raise while answering concern the map file: say so."""
    try:
        yield
    except HxrefError as exc:
        raise exc.at(file=path)


def _num(x: Fraction | None) -> float | None:
    """MF, MP and levels are multiples of 1/4: exact as JSON numbers."""
    return None if x is None else float(x)


def _part(p) -> dict:
    from .terrain import mf_text

    return {"value": _num(p.value), "text": mf_text(p.value), "reason": p.reason, "rule": p.rule,
            "stand_in": p.stand_in}


def _part_line(p, sign: bool = False) -> str:
    from .terrain import mf_text

    v = ("+" if sign and p.value >= 0 else "") + mf_text(p.value)
    return f"  {v:>5}  {p.reason} ({p.rule}{'; stand-in' if p.stand_in else ''})"


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


def _say(text: str, indent: int = 2) -> None:
    """One detail line, wrapped at the terminal's width (``COLUMNS``) with a hanging indent."""
    import textwrap

    from ...report.turn import text_width

    pad = " " * indent
    click.echo(textwrap.fill(text, text_width(), initial_indent=pad, subsequent_indent=pad + "  ",
                             break_on_hyphens=False))


def _level(text: str | None, arg: str, given: str | None = None) -> int:
    """A building level given as ``arg`` (``given``: the whole argument, when the level is part of it)."""
    what = f"{arg} {given if given is not None else text}"
    try:
        n = int(text) if text is not None else 0
    except ValueError:
        raise InvalidInput(f"{what}: a building level is a whole number (0 = ground level)", code="E504") from None
    if n < 0:
        raise InvalidInput(f"{what}: a building level is 0 or more (0 = ground level)", code="E504")
    return n


# --- the group -------------------------------------------------------------------------------

@click.group("kgp")
def kgp_group() -> None:
    """KGP (ASL Kampfgruppe Peiper): terrain calculators (MF, slope and stream TEM, Fire-Lane DRM, LOS,
    Locations, narrow-street turns and turrets, wire) and sealed secrets.

    Each answer lists its parts with their reasons and KGP rules (digest
    rules/kgp.md, sections 1-6); numbers the rules seed does not print are
    marked stand-in (games/kgp/charts/terrain_costs.yaml).  A question that
    needs ASL rules the seed lacks exits 2 naming them.

    \b
    Examples:
      hxref kgp mf games/kgp/maps/sample.yaml StJ15 StJ14
      hxref kgp tem games/kgp/maps/figure_2_3.yaml StK14 StI14 --fire-lane
      hxref kgp los games/kgp/maps/figure_2_3.yaml StI14 StL10
      hxref kgp wire --unit vehicle --not-fully-tracked
      hxref kgp loc games/kgp/maps/village.yaml StJ19 --level 2
      hxref kgp turret games/kgp/maps/village.yaml StN17-O17 --ma 75 --barrel L --bu
    """


# --- mf --------------------------------------------------------------------------------------

@kgp_group.command("mf", short_help="MF (MP) to enter an adjacent hex, part by part (1-5).")
@map_argument
@click.argument("start", metavar="FROM")
@click.argument("end", metavar="TO")
@unit_options
@click.option("--night", is_flag=True, help="night: barbed-wire extras are doubled (3.2)")
@click.option("--level", "to_level", default=None, metavar="N",
              help="TO is building level N (ASL B23: not in the seed)")
@click.option("--from-level", default=None, metavar="N",
              help="FROM is building level N (ASL B23: not in the seed)")
@click.option("--crest", is_flag=True, help="enter the stream hex TO in crest status (クレスト状態, 4.12)")
@click.option("--bypass", default=None, metavar="HEXSIDE", help="enter TO bypassing along this narrow street (5.11)")
@click.option("--from-bypass", default=None, metavar="HEXSIDE", help="FROM bypasses along this narrow street (5.11)")
@click.option("--breach", "breaches", multiple=True, metavar="HEXSIDE",
              help="a barbed-wire hexside with a Temporary Breach (3.21); repeat for more")
@click.option("--stream-depth", default=None,
              help="the stream's depth when TO is a stream hex (4.11): dry (乾燥, 'dry' in the seed) or shallow "
                   "(渇水, 'low water' in the seed, its B20.42)")
@click.option("--roadblock", is_flag=True, help="the move crosses a narrow-street Roadblock (5.141)")
@click.option("--dash", is_flag=True, help="the move is a Dash (5.11)")
@click.option("--charging", is_flag=True, help="cavalry charging (2.53)")
@click.option("--armored-assault", is_flag=True, help="Infantry moving by Armored Assault (3.2)")
@click.option("--in-trench", is_flag=True, help="Infantry moving in a trench or tunnel (3.2)")
@click.option("--manhandling", is_flag=True, help="Infantry manhandling a Gun (3.21)")
@click.option("--human-wave", is_flag=True, help="Infantry in a Human Wave (3.21)")
@click.option("--no-assault-move", is_flag=True,
              help="the unit could not Assault Move into TO (the seed's 突撃可能, 4.12)")
@click.option("--vca-changes", default=0, type=int, metavar="N",
              help="a vehicle or wagon bypassing along a narrow street changes its VCA N times (D2.33; 5.11)")
@click.option("--culvert", "to_culvert", is_flag=True, help="enter the culvert under TO (4.21)")
@click.option("--from-culvert", is_flag=True, help="FROM is the culvert under that hex (4.21)")
@json_option
def mf_cmd(map_file, start, end, kind, status, cx, skis, straying, not_fully_tracked, truck_mp, night, to_level,
           from_level, crest, bypass, from_bypass, breaches, stream_depth, roadblock, dash, charging, armored_assault,
           in_trench, manhandling, human_wave, no_assault_move, vca_changes, to_culvert, from_culvert, as_json):
    """The MF (MP for a vehicle) to enter TO from the adjacent FROM, part by part.

    Infantry, cavalry, wagons, bicycles and horses pay MF: the COT of TO,
    doubled when moving to a higher elevation, plus barbed wire (3.2, 3.21),
    climbing a slope (2.51), stream-hex terrain (4.11, 4.12), narrow streets
    (5.11, 5.141).  A vehicle (--unit vehicle|motorcycle) gets what KGP adds
    on top of the ASL COT in MP: 1 MP to climb a slope (2.52), crest-line
    slopes barred (2.53), barbed wire's Bog DR (3.3).  A vehicle bypassing
    along a narrow street (--bypass) pays half the normal VBM, and 1 MP per
    VCA change (--vca-changes; 1 MF for a wagon) (5.11).  --culvert enters
    the culvert under TO, only from the adjacent stream (4.21).  A move the
    rules bar prints "not allowed" with the rule (exit 0; "legal": false in
    --json).

    \b
    Examples:
      hxref kgp mf games/kgp/maps/sample.yaml StJ15 StJ14
      hxref kgp mf games/kgp/maps/sample.yaml StG10 StH10 --night --json
      hxref kgp mf games/kgp/maps/sample.yaml StK12 StK11 --unit cavalry --charging
      hxref kgp mf games/kgp/maps/village.yaml StN17 StO17 --unit vehicle --bypass StN17-O17
      hxref kgp mf games/kgp/maps/village.yaml StQ16 StQ17 --culvert --stream-depth shallow
    """
    from ...geometry.hex import distance
    from .terrain import STREAM, Location
    from .terrain_costs import mf_cost, vehicle_entry

    u = _unit(kind, status, cx, skis, straying, not_fully_tracked, truck_mp)
    m = _hexmap(map_file)
    a, b = _hex(m, start, "FROM", map_file), _hex(m, end, "TO", map_file)
    if distance(a, b) != 1:
        raise InvalidInput(f"FROM {m.label(a)} and TO {m.label(b)} are not adjacent: `kgp mf` prices one step",
                           code="E504", file=map_file)
    lv_to, lv_from = _level(to_level, "--level"), _level(from_level, "--from-level")
    bypass = _hexside(m, bypass, "--bypass", map_file)
    from_bypass = _hexside(m, from_bypass, "--from-bypass", map_file)
    breach_sides = [_side(m, s, "--breach", map_file) for s in breaches]
    if stream_depth is not None and STREAM not in m.features(b) and not to_culvert:
        raise InvalidInput(f"--stream-depth {stream_depth}: TO {m.label(b)} is no stream hex (4.11)", code="E504",
                           file=map_file)
    if u.vehicle:
        used = [o for o, on in (("--level", lv_to), ("--from-level", lv_from), ("--crest", crest),
                                ("--from-bypass", from_bypass), ("--from-culvert", from_culvert)) if on]
        if used:
            raise InvalidInput(f"{used[0]} is for units expending MF; a {u.kind} expends MP and `kgp mf` prices its "
                               "step from hex to hex (2.52, 2.53, 3.3, 5.11)", code="E504")
        if bypass is not None:
            from .narrow_streets import vehicle_bypass

            with _about(map_file):
                sm = vehicle_bypass(m, u, m.label(a), m.label(b), bypass, vca_changes, chart=_chart())
            _street_out(sm, as_json)
            return
        if vca_changes:
            raise InvalidInput("--vca-changes: the 5.11 VCA change is priced bypassing along a narrow street "
                               "(--bypass HEXSIDE)", code="E504")
        with _about(map_file):
            v = vehicle_entry(m, u, m.label(a), Location(m.label(b), culvert=to_culvert), breaches=breach_sides,
                              chart=_chart())
        _vehicle_out(v, as_json)
        return
    with _about(map_file):
        c = mf_cost(m, u, Location(m.label(a), lv_from, from_bypass, culvert=from_culvert),
                    Location(m.label(b), lv_to, bypass, crest, culvert=to_culvert),
                    night=night, armored_assault=armored_assault, in_trench=in_trench, breaches=breach_sides,
                    stream_depth=stream_depth, crosses_roadblock=roadblock, dash=dash, charging=charging,
                    chart=_chart(),
                    manhandling=manhandling, human_wave=human_wave, assault_move_possible=not no_assault_move,
                    vca_changes=vca_changes)
    _mf_out(c, as_json)


def _street_out(sm, as_json: bool) -> None:
    from .terrain import mf_text

    if as_json:
        _echo_json({"from": sm.start, "to": sm.end, "unit": sm.unit, "cost": "MP", "legal": True,
                    "bypass": sm.hexside, "total": _num(sm.total), "total_text": mf_text(sm.total),
                    "extra_mp_only": False, "parts": [_part(p) for p in sm.parts], "rule": sm.rule,
                    "rules": list(dict.fromkeys([sm.rule] + [p.rule for p in sm.parts])), "why": sm.why})
        return
    click.echo(f"{sm.start} -> {sm.end} ({sm.unit}, VBM along {sm.hexside}): {mf_text(sm.total)} MP")
    for p in sm.parts:
        click.echo(_part_line(p))
    click.echo(f"  total  {mf_text(sm.total)} MP")
    if any(p.stand_in for p in sm.parts):
        click.echo(f"  {STAND_IN_NOTE}")


def _mf_out(c, as_json: bool) -> None:
    from .terrain import mf_text

    if as_json:
        _echo_json({"from": c.start, "to": c.end, "unit": c.unit, "cost": "MF", "legal": c.legal,
                    "total": _num(c.total), "total_text": None if c.total is None else mf_text(c.total),
                    "parts": [_part(p) for p in c.parts], "notes": list(c.notes), "bonus": _num(c.bonus),
                    "hazardous": c.hazardous, "task_impossible": c.task_impossible, "rule": c.rule,
                    "rules": list(c.rules), "why": c.why})
        return
    head = f"{c.start} -> {c.end} ({c.unit})"
    if not c.legal:
        click.echo(f"{head}: not allowed: {c.why.split(': ', 1)[1]}")
        return
    click.echo(f"{head}: {mf_text(c.total)} MF")
    for p in c.parts:
        click.echo(_part_line(p))
    click.echo(f"  total  {mf_text(c.total)} MF")
    if c.bonus:
        click.echo(f"  bonus  +{mf_text(c.bonus)} MF for skis going down a slope (2.51)")
    for n in c.notes:
        click.echo(f"  note: {n}")
    if any(p.stand_in for p in c.parts):
        click.echo(f"  {STAND_IN_NOTE}")


def _bog_json(bog) -> dict | None:
    if bog is None:
        return None
    return {"total": bog.total, "parts": [_part(p) for p in bog.parts], "stand_in": bog.stand_in, "rule": bog.rule,
            "why": bog.why}


def _vehicle_out(v, as_json: bool) -> None:
    from .terrain import mf_text

    if as_json:
        _echo_json({"from": v.start, "to": v.end, "unit": v.unit, "cost": "MP", "legal": v.legal,
                    "total": _num(v.extra_mp), "total_text": None if v.extra_mp is None else mf_text(v.extra_mp),
                    "extra_mp_only": True, "parts": [_part(p) for p in v.parts], "wire_bog": v.wire_bog,
                    "bog": _bog_json(v.bog), "notes": list(v.notes), "rule": v.rule, "rules": list(v.rules),
                    "why": v.why})
        return
    head = f"{v.start} -> {v.end} ({v.unit})"
    if not v.legal:
        click.echo(f"{head}: not allowed: {v.why.split(': ', 1)[1]}")
        return
    click.echo(f"{head}: +{mf_text(v.extra_mp)} MP on top of the ASL COT in MP (not in the seed)")
    for p in v.parts:
        click.echo(_part_line(p))
    for n in v.notes:
        click.echo(f"  note: {n}")
    if v.bog is not None:
        for p in v.bog.parts:
            click.echo(f"  Bog DRM {_part_line(p, sign=True).strip()}")
        if v.bog.stand_in:
            click.echo(f"  {STAND_IN_NOTE}")


# --- tem -------------------------------------------------------------------------------------

def _firer(m, text: str, path: str):
    """``HEX`` or ``HEX:LEVEL`` (a firer at a building level)."""
    from .terrain import Location

    label, _, lv = text.partition(":")
    h = _hex(m, label, "FIRER", path)
    return Location(m.label(h), _level(lv or None, "FIRER", text))


@kgp_group.command("tem", short_help="Slope TEM, Fire-Lane DRM, stream-bottom and culvert TEM (2.41, 2.42, 4.13, 4.24).")
@map_argument
@click.argument("target", metavar="TARGET")
@click.argument("firers", metavar="FIRER...", nargs=-1, required=True)
@click.option("--unit", "kind", default="squad", show_default=True, metavar="KIND",
              help="the target unit (only Infantry may claim Slope TEM or the Fire-Lane DRM)")
@click.option("--level", "target_level", default=None, metavar="N", help="the target is at building level N")
@click.option("--flamethrower", is_flag=True, help="the fire is a FT's")
@click.option("--other-tem", default=0, type=int, show_default=True,
              help="the target's best other positive TEM (not cumulative with the slope's)")
@click.option("--mud-tem", default=0, type=int, show_default=True, help="the Mud/Deep Snow TEM (cumulative)")
@click.option("--fire-lane", is_flag=True,
              help="the attack is a Fire Lane (火線) from FIRER: also the +1 Fire-Lane Slope DRM (2.42); "
                   "a TARGET hexside is a Fire-Lane Snap Shot (火線即応射撃, A9.221)")
@click.option("--stream-bottom", is_flag=True,
              help="the target is at the bottom of a stream-woods/pine/brush/orchard hex: its TEM (4.13)")
@click.option("--culvert", is_flag=True, help="the target is in the culvert under TARGET (4.2, 4.24)")
@click.option("--fire", "fire_kind", default="direct", show_default=True,
              type=click.Choice(["direct", "indirect", "air", "sniper"]),
              help="with --culvert: the kind of attack (4.24)")
@json_option
def tem_cmd(map_file, target, firers, kind, target_level, flamethrower, other_tem, mud_tem, fire_lane, stream_bottom,
            culvert, fire_kind, as_json):
    """May Infantry in TARGET claim the +1 Slope TEM against direct fire from FIRER (2.41)?

    TARGET's hex needs 3 Down-Slope (斜面下方) hexsides, or 2 non-connected;
    the fire is not a FT, comes from a non-adjacent hex, from a higher firer
    only when the level difference is less than the range, and its LOS
    crosses a Down-Slope hexside of TARGET.  Several FIRERs are a Fire Group
    (A.5): the TEM applies when any firer's fire qualifies.  Write HEX:N for
    a firer at building level N.  Every condition is printed, met or not.

    With --fire-lane (one FIRER): the +1 Fire-Lane Slope DRM too (2.42): the
    Fire Lane comes from an Up-Slope (斜面上方) position 3/4 level higher than
    the target, and not from an adjacent hex.  A Fire Lane whose LOF crosses a
    slope has no effect at another base level (2.31, 2.42).  A TARGET
    hexside (StL13-L14) is a Snap Shot: both of its hexes must qualify, and
    the Slope TEM is not asked.

    With --stream-bottom: the TEM of a unit at the bottom of a stream-woods,
    pine, brush or orchard hex: in Open Ground when each FIRER's LOS is traced
    from within the hex or runs entirely along the stream, otherwise the
    terrain's TEM; Airbursts always apply in stream-woods and pine (4.13).
    With --culvert: units in a culvert are in Open Ground; --fire indirect,
    air or sniper does not affect them (4.2, 4.24).

    \b
    Examples:
      hxref kgp tem games/kgp/maps/sample.yaml StF8 StI10
      hxref kgp tem mymap.yaml StK14 StH12 StI14 --other-tem 1 --json
      hxref kgp tem games/kgp/maps/figure_2_3.yaml StK14 StI14 --fire-lane
      hxref kgp tem games/kgp/maps/figure_2_3.yaml StL13-L14 StI14 --fire-lane
      hxref kgp tem games/kgp/maps/village.yaml StQ16 StQ14 --stream-bottom
      hxref kgp tem games/kgp/maps/village.yaml StQ17 StN15 --culvert --fire indirect
    """
    from .slopes import slope_tem
    from .terrain import Location

    u = _unit(kind)
    m = _hexmap(map_file)
    if stream_bottom or culvert:
        if fire_lane or (stream_bottom and culvert):
            raise InvalidInput("--stream-bottom, --culvert and --fire-lane are separate questions: give one",
                               code="E504")
        _water_tem(m, map_file, target, firers, target_level, stream_bottom, fire_kind, as_json)
        return
    snap = fire_lane and "-" in target       # a hexside label (StL13-L14): a Snap Shot
    if fire_lane and len(firers) != 1:
        raise InvalidInput(f"--fire-lane: a Fire Lane has one firer, not {len(firers)} (2.42)", code="E504",
                           file=map_file)
    group = [_firer(m, f, map_file) for f in firers]
    if snap:
        side = _side(m, target, "TARGET", map_file)
        if target_level is not None:
            raise InvalidInput("--level: a Snap Shot is at the ground level of a hexside (A9.221)", code="E504")
        _fire_lane_out(m, map_file, group[0], None, side, u, as_json, None)
        return
    t = Location(m.label(_hex(m, target, "TARGET", map_file)), _level(target_level, "--level"))
    with _about(map_file):
        res = slope_tem(m, t, group, flamethrower=flamethrower, target_unit=u, other_tem=other_tem,
                        mud_or_deep_snow_tem=mud_tem, chart=_chart())
    names = ", ".join(f.hex + (f" (level {f.level})" if f.level else "") for f in group)
    tem_json = {"target": t.hex, "firers": [{"hex": f.hex, "level": f.level} for f in group],
                "eligible": res.eligible, "tem": res.tem, "combined_tem": res.combined_tem, "rule": res.rule,
                "checks": [{"ok": c.ok, "text": c.text, "rule": c.rule} for c in res.checks], "why": res.why}
    if fire_lane:
        _fire_lane_out(m, map_file, group[0], t, None, u, as_json, tem_json if as_json else _tem_lines(res, t, names,
                       other_tem, mud_tem))
        return
    if as_json:
        _echo_json(tem_json)
        return
    for line in _tem_lines(res, t, names, other_tem, mud_tem):
        click.echo(line)


def _water_tem(m, map_file: str, target: str, firers, target_level, stream_bottom: bool, fire_kind: str,
               as_json: bool) -> None:
    """The TEM at a stream's bottom (4.13) or in a culvert (4.2, 4.24)."""
    from .terrain import Location
    from .terrain_streams import culvert_fire, stream_bottom_tem

    t = Location(m.label(_hex(m, target, "TARGET", map_file)), _level(target_level, "--level"))
    group = [_firer(m, f, map_file) for f in firers]
    if not stream_bottom:
        with _about(map_file):
            cf = culvert_fire(m, t, fire_kind)
        if as_json:
            _echo_json({"target": cf.target, "culvert": True, "fire": cf.fire, "affects": cf.affects,
                        "open_ground": cf.open_ground, "rule": cf.rule, "why": cf.why})
            return
        click.echo(f"the culvert under {cf.target}, {cf.fire} fire: "
                   f"{'in Open Ground' if cf.affects else 'no effect'} ({cf.rule})")
        _say(cf.why)
        return
    with _about(map_file):
        sb = stream_bottom_tem(m, t, group, _chart())
    if as_json:
        _echo_json({"target": sb.target, "firers": [f.hex for f in group], "stream_bottom": {
            "terrain": sb.terrain, "open_ground": sb.open_ground, "tem": sb.tem, "airbursts": sb.airbursts,
            "airburst_drm": sb.airburst_drm, "stand_in": sb.stand_in, "rule": sb.rule,
            "checks": [{"ok": c.ok, "text": c.text, "rule": c.rule} for c in sb.checks], "why": sb.why}})
        return
    verdict = "in Open Ground" if sb.open_ground else f"TEM {sb.tem:+d}"
    click.echo(f"{sb.target} stream bottom, fired on from {', '.join(f.hex for f in group)}: {verdict} ({sb.rule})")
    for c in sb.checks:
        _say(f"{'yes' if c.ok else 'no ':3}  {c.text} ({c.rule})")
    if sb.airbursts:
        click.echo(f"  Airbursts always apply here: {sb.airburst_drm:+d} DRM vs HE (4.13)")
    click.echo("  unless Smoke or a LOS Hindrance applies (4.13)")
    if sb.stand_in:
        click.echo(f"  {STAND_IN_NOTE}")


def _tem_lines(res, t, names: str, other_tem: int, mud_tem: int) -> list[str]:
    verdict = f"+{res.tem} Slope TEM" if res.eligible else "no Slope TEM"
    lines = [f"{t.hex} fired on from {names}: {verdict} ({res.rule})"]
    lines += [f"  {'yes' if c.ok else 'no ':3}  {c.text} ({c.rule})" for c in res.checks]
    if res.eligible or other_tem or mud_tem:
        lines.append(f"  positive TEM the target gets: +{res.combined_tem} (the Slope TEM is not cumulative with "
                     f"other positive TEM, except Mud/Deep Snow) ({res.rule})")
    return lines


def _fire_lane_out(m, map_file: str, firer, target, side, u, as_json: bool, tem) -> None:
    """2.42 after the 2.41 answer (``tem``: its JSON or its lines; None for a Snap Shot)."""
    from .fire_lanes import fire_lane_drm

    with _about(map_file):
        fl = fire_lane_drm(m, firer, target, snap_shot=side, target_unit=u, chart=_chart())
    if as_json:
        out = {"target": side or target.hex, "firer": {"hex": firer.hex, "level": firer.level},
               "snap_shot": fl.snap_shot, "slope_tem": tem, "fire_lane": {
                   "eligible": fl.eligible, "drm": fl.drm, "no_effect": fl.no_effect, "targets": list(fl.targets),
                   "rule": fl.rule, "checks": [{"ok": c.ok, "text": c.text, "rule": c.rule} for c in fl.checks],
                   "why": fl.why}}
        _echo_json(out)
        return
    for line in tem or []:
        click.echo(line)
    what = f"Snap Shot on {fl.snap_shot}" if fl.snap_shot else fl.targets[0]
    if fl.no_effect:
        verdict = "no effect: the LOF crosses a slope and the target is at another base level (2.31, 2.42)"
    else:
        verdict = (f"+{fl.drm} Fire-Lane Slope DRM" if fl.eligible else "no Fire-Lane Slope DRM") + f" ({fl.rule})"
    click.echo(f"{what}, Fire Lane from {firer.hex}: {verdict}")
    for c in fl.checks:
        click.echo(f"  {'yes' if c.ok else 'no ':3}  {c.text} ({c.rule})")


# --- los -------------------------------------------------------------------------------------

@kgp_group.command("los", short_help="LOS by obstacles and blind hexes, with the Up-Slope +3/4 level (2.3, 6.2).")
@map_argument
@click.argument("start", metavar="FROM")
@click.argument("end", metavar="TO")
@click.option("--from-level", default=None, metavar="N", help="FROM is building level N")
@click.option("--to-level", default=None, metavar="N", help="TO is building level N")
@click.option("--from-entrenched", is_flag=True, help="the unit in FROM is in an entrenchment (B9.21)")
@click.option("--to-entrenched", is_flag=True, help="the unit in TO is in an entrenchment (B9.21)")
@click.option("--from-culvert", is_flag=True, help="the unit is in the culvert under FROM (4.2)")
@click.option("--to-culvert", is_flag=True, help="the unit is in the culvert under TO (4.2)")
@json_option
def los_cmd(map_file, start, end, from_level, to_level, from_entrenched, to_entrenched, from_culvert, to_culvert,
            as_json):
    """Does FROM see TO?  ASL's obstacles and blind hexes, with what KGP adds (2.3, 6.2).

    Each unit's level is its base level plus its building level, +3/4 when
    it is Up-Slope (斜面上方) for this LOS: the LOS leaves or enters its hex
    across (or at a vertex of) a slope hexside drawn in the other hex; that
    gives no height advantage and no HD.  Slopes are neither hindrances nor
    obstacles.  An obstacle between the units blocks unless it is lower than
    the higher unit, which then sees over it (2.3); an Up-Slope unit sees
    down over the crest of its own level.  The hex right behind an obstacle
    seen over is blind (2.3 example: K11); how many more are blind is ASL
    A6.4, not in the seed, except inside the 2.3 example's bounds (L10 seen;
    games/kgp/charts/terrain_costs.yaml, los).  A hillside wall or hedge
    (丘陵斜面の石垣・生け垣) is ignored when the units' levels differ by a
    full level or more (6.2).  A question that needs ASL rules the seed lacks
    (A6.4, B10.23, B9.21) exits 2 saying so.  Hindrances are not computed.

    A level is checked against the hex's building: a steeple is one
    Location above its highest building level (5.2), a single-hex
    two-story house has ground and 1st level and is a 1 1/2-level obstacle
    (5.3).  A unit in a culvert (--from-culvert, --to-culvert) sees only
    the adjacent stream or culvert (4.2).

    \b
    Examples:
      hxref kgp los games/kgp/maps/figure_2_3.yaml StI14 StK11
      hxref kgp los games/kgp/maps/figure_2_3.yaml StI14 StL10 --json
      hxref kgp los games/kgp/maps/sample.yaml StG9 StF8
      hxref kgp los games/kgp/maps/village.yaml StJ19 StM21 --from-level 2
    """
    from .sight import line_of_sight
    from .terrain import Location, mf_text

    m = _hexmap(map_file)
    a, b = _hex(m, start, "FROM", map_file), _hex(m, end, "TO", map_file)
    la, lb = m.label(a), m.label(b)
    lv_a, lv_b = _level(from_level, "--from-level"), _level(to_level, "--to-level")
    if a == b:
        raise InvalidInput(f"FROM and TO are the same hex {la}: give two hexes", code="E504", file=map_file)
    if from_culvert or to_culvert:
        from .terrain_streams import culvert_sight

        with _about(map_file):
            cs = culvert_sight(m, Location(la, lv_a, culvert=from_culvert), Location(lb, lv_b, culvert=to_culvert))
        if as_json:
            _echo_json({"from": {"hex": la, "level": lv_a, "culvert": from_culvert},
                        "to": {"hex": lb, "level": lv_b, "culvert": to_culvert}, "visible": cs.visible,
                        "rule": cs.rule, "rules": [cs.rule], "why": cs.why})
            return
        click.echo(f"{la} -> {lb}: LOS {'clear' if cs.visible else 'none'} ({cs.rule})")
        _say(cs.why)
        return
    with _about(map_file):
        res = line_of_sight(m, Location(la, lv_a), Location(lb, lv_b), _chart(), viewer_entrenched=from_entrenched,
                            target_entrenched=to_entrenched)
    ha, hb = res.viewer, res.target

    def height(h) -> dict:
        return {"height": _num(h.height), "text": mf_text(h.height), "up_slope": h.up_slope,
                "parts": [_part(p) for p in h.parts], "rules": list(h.rules), "why": h.why}

    def obstacle(o) -> dict:
        return {"where": o.where, "kind": o.kind, "top": _num(o.top), "effect": o.effect, "text": o.text,
                "rule": o.rule}

    if as_json:
        _echo_json({"from": {"hex": la, "level": lv_a, **height(ha)}, "to": {"hex": lb, "level": lv_b, **height(hb)},
                    "visible": res.visible, "blocking": res.blocking.where if res.blocking else None,
                    "reason": res.blocking.text if res.blocking else "clear",
                    "obstacles": [obstacle(o) for o in res.obstacles], "rules": list(res.rules), "rule": "2.3",
                    "why": res.why})
        return
    block = res.blocking
    if block is None:
        click.echo(f"{la} -> {lb}: LOS clear (2.3)")
    else:
        click.echo(f"{la} -> {lb}: LOS blocked by {block.where}: {block.text} ({block.rule})")
    for lab, h in ((la, ha), (lb, hb)):
        body = " + ".join(f"{mf_text(p.value)} {p.reason} ({p.rule})" for p in h.parts)
        tail = "; no height advantage, no HD (2.3)" if h.up_slope else "; not Up-Slope for this LOS (2.2)"
        click.echo(f"  {lab}: level {mf_text(h.height)} = {body}{tail}")
    for o in res.obstacles:
        if o.effect != "none" and o is not block:
            click.echo(f"  {o.where}: {o.effect}: {o.text} ({o.rule})")
    click.echo("  hindrances (A6.7) are not computed")


# --- hillside walls ---------------------------------------------------------------------------

@kgp_group.command("wall", short_help="A hillside wall or hedge: its height, TEM and Wall Advantage (6.3).")
@map_argument
@click.argument("hexside", metavar="HEXSIDE")
@click.argument("unit_hex", metavar="HEX")
@click.option("--level", "unit_level", default=None, metavar="N", help="the unit is at building level N")
@click.option("--crest", is_flag=True,
              help="the unit is in crest status on the wall's side of the gully hex (B20.91 is not in the seed: "
                   "say so yourself)")
@json_option
def wall_cmd(map_file, hexside, unit_hex, unit_level, crest, as_json):
    """What the hillside wall or hedge on HEXSIDE gives the unit in HEX (6.3).

    The wall stands at the higher of its two hexes' base levels.  A unit
    lower than that gets no benefit from the hexside, Wall Advantage
    included (a definite answer).  For a unit at or above it, the wall
    counts as a normal wall or hedge, whose TEM and Wall Advantage are
    ASL B9.3 and B9.32, not in the seed: that answer exits 2 saying so.
    With --crest, whether the unit may claim Wall Advantage: only when
    its hex is at the wall's elevation.

    \b
    Examples:
      hxref kgp wall games/kgp/maps/figure_2_3.yaml StJ12-J13 StJ12
      hxref kgp wall games/kgp/maps/figure_2_3.yaml StJ12-J13 StJ13 --crest --json
    """
    from .hillside import benefit

    m = _hexmap(map_file)
    side = _side(m, hexside, "HEXSIDE", map_file)
    _hex(m, unit_hex, "HEX", map_file)
    with _about(map_file):
        res = benefit(m, side, unit_hex, _level(unit_level, "--level"), crest=crest)
    if as_json:
        _echo_json({"hexside": res.hexside, "kind": res.kind, "height": _num(res.height), "unit": res.unit_hex,
                    "unit_level": _num(res.unit_level), "benefit": res.benefit,
                    "wall_advantage": res.wall_advantage, "why": res.why, "rule": res.rule})
        return
    wa = {True: "may claim", False: "no", None: "-"}[res.wall_advantage]
    click.echo(f"{res.hexside} ({res.kind.replace('_', ' ')}, level {_num(res.height):g}) for the unit in "
               f"{res.unit_hex}: benefit {'yes' if res.benefit else 'no'}, Wall Advantage {wa} ({res.rule})")
    click.echo(f"  {res.why}")


# --- locations: steeples, the two-story house, culverts ---------------------------------------

@kgp_group.command("loc", short_help="What the rules say of a Location: steeple, two-story house, culvert (4.2, 5.2, 5.3).")
@map_argument
@click.argument("hex_label", metavar="HEX")
@click.option("--level", "level", default=None, metavar="N", help="building level N of HEX (0 = ground level)")
@click.option("--culvert", is_flag=True, help="the culvert under HEX (4.2)")
@json_option
def loc_cmd(map_file, hex_label, level, culvert, as_json):
    """What the KGP rules say of the Location HEX (at --level N, or its culvert).

    A steeple (a black dot in a white cross) is a building Location above
    the hex's highest one, with its own stairway: 1 HS-equivalent, no Guns,
    never Fortified, no rooftop, no stone-rubble drm (5.2, 5.21).  A
    single-hex two-story house (a large white dot) has ground and 1st level
    and no rooftop (5.3).  A culvert is an underground Location of the
    stream: Open Ground, LOS only to the adjacent stream or culvert, 1
    squad-equivalent, no set-up, entered only from the stream (4.2-4.24).
    A Location the hex does not have exits 2 naming the rule.

    \b
    Examples:
      hxref kgp loc games/kgp/maps/village.yaml StJ19 --level 2
      hxref kgp loc games/kgp/maps/village.yaml StK20 --level 1
      hxref kgp loc games/kgp/maps/village.yaml StQ17 --culvert --json
    """
    from .terrain import Location
    from .terrain_locations import location_facts

    m = _hexmap(map_file)
    h = _hex(m, hex_label, "HEX", map_file)
    with _about(map_file):
        lf = location_facts(m, Location(m.label(h), _level(level, "--level"), culvert=culvert), _chart())
    if as_json:
        _echo_json({"hex": lf.hex, "level": lf.level, "culvert": lf.culvert, "kind": lf.kind,
                    "facts": {f.name: {"value": f.value, "text": f.text, "rule": f.rule} for f in lf.facts},
                    "rule": lf.rule, "rules": list(lf.rules), "why": lf.why})
        return
    where = f"the culvert under {lf.hex}" if lf.culvert else f"{lf.hex} level {lf.level}"
    kinds = {"two_story_house": "single-hex two-story house", "building": "building level"}
    click.echo(f"{where}: {kinds.get(lf.kind, lf.kind)} ({lf.rule})")
    for f in lf.facts:
        _say(f"{f.text} ({f.rule})")
    if not lf.facts:
        _say(lf.why)


# --- vehicles on a narrow street: the 180-degree turn and the TCA change ----------------------

@kgp_group.command("turn", short_help="A vehicle's 180-degree VCA turn on a narrow street (5.12).")
@map_argument
@click.argument("hexside", metavar="HEXSIDE")
@click.option("--unit", "kind", default="vehicle", show_default=True, metavar="KIND", help="vehicle or motorcycle")
@click.option("--printed-mp", required=True, metavar="MP", help="the vehicle's printed MP")
@click.option("--very-small", is_flag=True, help="the vehicle is a Very Small target (D1.75)")
@json_option
def turn_cmd(map_file, hexside, kind, printed_mp, very_small, as_json):
    """May the vehicle on the narrow street HEXSIDE turn its VCA 180 degrees, and for how many MP (5.12)?

    A motorcycle pays 1/4 of its printed MP, a Very Small target vehicle
    1/2; no other vehicle may change its VCA on a narrow street (except per
    D2.33, the VCA change while bypassing: `kgp mf --bypass --vca-changes`).

    \b
    Examples:
      hxref kgp turn games/kgp/maps/village.yaml StN17-O17 --unit motorcycle --printed-mp 24
      hxref kgp turn games/kgp/maps/village.yaml StN17-O17 --printed-mp 16 --json
    """
    from .narrow_streets import turn_around
    from .terrain import mf_text

    u = _unit(kind)
    m = _hexmap(map_file)
    side = _side(m, hexside, "HEXSIDE", map_file)
    from fractions import Fraction

    try:
        mp = Fraction(str(printed_mp))
    except (ValueError, ZeroDivisionError):
        raise InvalidInput(f"--printed-mp {printed_mp}: a number of MP", code="E504") from None
    with _about(map_file):
        t = turn_around(m, u, side, mp, very_small, chart=_chart())
    if as_json:
        _echo_json({"unit": t.unit, "hexside": t.hexside, "legal": t.legal, "mp": _num(t.mp),
                    "mp_text": None if t.mp is None else mf_text(t.mp), "rule": t.rule, "why": t.why})
        return
    head = f"{t.unit} on {t.hexside}, 180-degree VCA turn"
    click.echo(f"{head}: {mf_text(t.mp)} MP ({t.rule})" if t.legal else f"{head}: not allowed ({t.rule})")
    _say(t.why)


@kgp_group.command("turret", short_help="The TCA-change dr of a vehicle on a narrow street (5.12).")
@map_argument
@click.argument("hexside", metavar="HEXSIDE")
@click.option("--ma", "ma_mm", required=True, type=int, metavar="MM", help="the turret-mounted MA's calibre in mm")
@click.option("--within-vca", is_flag=True, help="the new TCA stays within the VCA (no dr)")
@click.option("--barrel", default="normal", show_default=True, type=click.Choice(["normal", "L", "LL", "*"]),
              help="the MA's barrel length")
@click.option("--bu", is_flag=True, help="the vehicle is buttoned up")
@click.option("--armor-leader", default=0, type=int, show_default=True, metavar="N",
              help="the Armor Leader's modifier, with its sign")
@click.option("--dr", default=None, type=int, metavar="N", help="the dr rolled: passed or failed")
@json_option
def turret_cmd(map_file, hexside, ma_mm, within_vca, barrel, bu, armor_leader, dr, as_json):
    """The TCA-change dr of a vehicle on the narrow street HEXSIDE (5.12).

    A vehicle whose MA is 50mm or more and that points its TCA outside its
    VCA must first make a final dr of 3 or less: +2 LL, +1 L, -1 "*" barrel
    (the sign is lost in the seed: stand-in), +1 BU, the Armor Leader's
    modifier.  At most two tries per phase; each failed try in the MPh
    costs 2 MP.  A vehicle with a turret MA of 50mm or more (not a "*"
    barrel) may be non-Stopped there only with its TCA within its VCA or
    rear VCA.

    \b
    Examples:
      hxref kgp turret games/kgp/maps/village.yaml StN17-O17 --ma 75 --barrel L --bu
      hxref kgp turret games/kgp/maps/village.yaml StN17-O17 --ma 88 --barrel LL --dr 1 --json
    """
    from .narrow_streets import tca_change

    m = _hexmap(map_file)
    side = _side(m, hexside, "HEXSIDE", map_file)
    with _about(map_file):
        t = tca_change(m, side, ma_mm, outside_vca=not within_vca, barrel=barrel, buttoned_up=bu,
                       armor_leader=armor_leader, dr=dr, chart=_chart())
    if as_json:
        _echo_json({"hexside": t.hexside, "dr_needed": t.dr_needed, "drm": t.drm, "parts": [_part(p) for p in t.parts],
                    "target": t.target, "highest_dr": t.highest_dr, "tries_per_phase": t.tries,
                    "failed_try_mp": t.failed_mp, "dr": t.dr, "passed": t.passed, "stand_in": t.stand_in,
                    "rule": t.rule, "why": t.why})
        return
    if not t.dr_needed:
        click.echo(f"{t.hexside}: no TCA-change dr ({t.rule})")
        _say(t.why)
        return
    need = f"dr {t.highest_dr} or less" if t.highest_dr else "impossible"
    click.echo(f"{t.hexside}: TCA-change {need} (final dr {t.target} or less, drm {t.drm:+d}) ({t.rule})")
    for p in t.parts:
        click.echo(_part_line(p, sign=True))
    click.echo(f"  at most {t.tries} tries per phase; each failed try in the MPh costs {t.failed_mp} MP")
    if t.dr is not None:
        click.echo(f"  dr {t.dr} {t.drm:+d} = {t.dr + t.drm}: {'passed' if t.passed else 'failed'}")
    if t.stand_in:
        click.echo(f"  {STAND_IN_NOTE}")


# --- wire ------------------------------------------------------------------------------------

@kgp_group.command("wire", short_help="Barbed wire: vehicle Bog DRMs (3.3), Temporary Breach (3.21).")
@unit_options
@click.option("--in-entrenchment", is_flag=True, help="the MMC is in an entrenchment")
@click.option("--in-pillbox", is_flag=True, help="the MMC is in a pillbox")
@click.option("--in-wire-location", is_flag=True, help="the MMC is in a Wire Location")
@click.option("--gully-bottom", is_flag=True, help="the MMC is at a gully bottom")
@json_option
def wire_cmd(kind, status, cx, skis, straying, not_fully_tracked, truck_mp, in_entrenchment, in_pillbox,
             in_wire_location, gully_bottom, as_json):
    """Barbed wire: a vehicle's Bog DRMs (3.3), or whether a unit may create a Temporary Breach (3.21).

    For --unit vehicle the extra Bog DR to cross barbed wire and its DRMs
    (+1 not fully tracked, +2 truck-type MP: the signs are lost in the seed,
    so both are stand-ins; a truck gets the larger).  Motorcycles cannot
    cross at all.  For other units: may it create a Temporary Breach, at
    what cost, with what consequences.  The MF to cross wire: `hxref kgp mf`.

    \b
    Examples:
      hxref kgp wire --unit vehicle --not-fully-tracked
      hxref kgp wire --unit squad
      hxref kgp wire --unit squad --status pinned --json
    """
    from .terrain_costs import temporary_breach, wire_drms

    u = _unit(kind, status, cx, skis, straying, not_fully_tracked, truck_mp)
    if u.vehicle:
        # 3.3: motorcycles (the SdKfz 2 included) cannot cross; vehicle_entry refuses them on a map.
        crosses = u.kind != "motorcycle"
        bog = wire_drms(u, _chart()) if crosses else None
        if as_json:
            _echo_json({"unit": u.kind, "vehicle": True, "can_cross": crosses, "bog": _bog_json(bog),
                        "rule": "3.3"})
            return
        if bog is None:             # not crosses
            click.echo("motorcycle: motorcycles (the SdKfz 2 included) cannot cross barbed wire (3.3)")
            return
        what = ", ".join(w for w, on in (("not fully tracked", not_fully_tracked), ("truck-type MP", truck_mp)) if on)
        click.echo(f"{u.kind}{f' ({what})' if what else ''}: barbed-wire Bog DRM {bog.total:+d} (3.3)")
        for p in bog.parts:
            click.echo(_part_line(p, sign=True))
        click.echo("  barbed wire costs no MP; an extra Bog DR to enter the hex across it; bogging leaves the vehicle "
                   "in that hex, and with another Bog there it is Mired (3.3)")
        click.echo("  a Temporary Breach gives vehicles nothing (3.21)")
        if bog.stand_in:
            click.echo(f"  {STAND_IN_NOTE}; the signs are lost in the seed")
        return
    br = temporary_breach(u, in_entrenchment=in_entrenchment, in_pillbox=in_pillbox,
                          in_wire_location=in_wire_location, gully_bottom=gully_bottom, chart=_chart())
    if as_json:
        _echo_json({"unit": u.kind, "vehicle": False, "breach": {
            "legal": br.legal, "mf": _num(br.mf), "task_impossible": br.task_impossible,
            "concealment_loss": br.concealment_loss, "rule": br.rule, "why": br.why}})
        return
    from .terrain import mf_text

    if not br.legal:
        click.echo(f"{u.kind}: may not create a Temporary Breach: {br.why.split(': ', 1)[1]}")
        return
    click.echo(f"{u.kind}: may create a Temporary Breach in one barbed-wire hexside for {mf_text(br.mf)} more MF "
               f"({br.rule})")
    for fact in br.why.split("; ")[1:]:
        click.echo(f"  {fact}")
    chart = _chart()
    breach, wire = chart.entry("barbed_wire.breach_mf"), chart.entry("barbed_wire.infantry_mf")
    click.echo(f"  while it lasts, Infantry crossing that hexside pays +{mf_text(breach.value)} MF instead of "
               f"+{mf_text(wire.value)}, as Hazardous Movement; not broken, berserk or manhandling Infantry, nor a "
               f"Human Wave ({breach.rule})")


# --- sealed secrets of a campaign game (9: objective hexes, HIP, dummies...) ----------------------

@kgp_group.command("seal", short_help="Seal a secret (objective hex, HIP, dummies...) for your orders (9).")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--side", required=True, help="your side: us or german")
@click.option("--id", "item_id", required=True, help="a name for the secret, e.g. objective-I1-1 (RG I1's first)")
@click.option("--kind", required=True,
              type=click.Choice(["objective_hex", "hip", "minefield", "dummy_minefields", "reserve", "other"]))
@click.option("--value", required=True, help="what you keep secret, e.g. a hex: ChNN6")
def seal_cmd(game: str, side: str, item_id: str, kind: str, value: str) -> None:
    """Seal a secret of a KGP campaign game: print the commitment for your orders and keep the
    value and its salt in your private file GAME-SIDE-secrets.yaml (never send it).

    Example: hxref kgp seal cg.yaml --side us --id objective-I1-1 --kind objective_hex --value ChNN6
    """
    from ...crypto import commit
    from ...base import yamlio
    from .sealing import seal_choice

    book_path = Path(game).with_name(f"{Path(game).stem}-{side}-secrets.yaml")
    book = (yamlio.fast_load(book_path.read_text()) if book_path.exists() else None) or {}
    if item_id in book:
        raise InvalidInput(f"{book_path.name} already holds a secret called {item_id!r}", code="E504")
    salt = commit.new_salt()
    c = commit.commitment(seal_choice(item_id, kind, value), salt)
    book[item_id] = {"kind": kind, "value": value, "salt": salt, "commitment": c}
    from ...base.files import atomic_write

    # 0600 from the first byte, through a random temporary file (no symlink is followed)
    atomic_write(book_path, ("# PRIVATE: your sealed KGP secrets and their salts. Never send this file.\n"
                             + yamlio.dump_fast(book)).encode("utf-8"), private=True)
    click.echo(f"kept in {book_path.name} (private); put this in your orders' `seal` list:")
    click.echo(json.dumps({"id": item_id, "kind": kind, "commitment": c}))


@kgp_group.command("open", short_help="Print the orders line that opens one of your sealed secrets (9).")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--side", required=True, help="your side: us or german")
@click.option("--id", "item_id", required=True, help="the secret's name")
@click.option("--meets", type=click.Choice(["tem", "hexsides", "ford"]), default=None,
              help="an Objective Hex (8.2): the condition its hex meets: tem (in-hex TEM +1 or more), hexsides "
                   "(3+ crest-line, slope, wall, hedge or road hexsides) or ford (a ford Location)")
def open_cmd(game: str, side: str, item_id: str, meets: str | None) -> None:
    """Print the `reveal` entry that opens a sealed secret when the rules say it is revealed.

    An Objective Hex (8.2) is checked when it is opened: it may not be a hex that was already a
    Strategic Location when you designated it, and you name the terrain condition it meets
    (--meets), which the other side checks on the map sheet.

    Example: hxref kgp open cg.yaml --side us --id objective-I1-1 --meets tem
    """
    from ...base import yamlio

    book_path = Path(game).with_name(f"{Path(game).stem}-{side}-secrets.yaml")
    book = (yamlio.fast_load(book_path.read_text()) if book_path.exists() else None) or {}
    if item_id not in book:
        raise InvalidInput(f"{book_path.name} holds no secret called {item_id!r}", code="E504")
    s = book[item_id]
    if s.get("kind") == "objective_hex" and meets is None:
        raise InvalidInput(f"{item_id} is an Objective Hex: say which condition {s['value']} meets with --meets "
                           "tem|hexsides|ford", code="E504", rule="8.2 Objective Hex")
    if s.get("kind") != "objective_hex" and meets is not None:
        raise InvalidInput(f"{item_id} is a {s.get('kind')}, not an Objective Hex: --meets is for Objective Hexes",
                           code="E504", rule="8.2 Objective Hex")
    entry = {"side": side, "id": item_id, "value": s["value"], "salt": s["salt"]}
    click.echo(json.dumps({**entry, "meets": meets} if meets else entry))
