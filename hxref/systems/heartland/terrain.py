"""Heartland step costs for movement and supply lines (5.22-5.29, 7.12c, 8.24, 8.24a, 8.81).

:func:`step_cost` returns the ``(Hex, Hex) -> float | Prohibited`` callable
that :mod:`hxref.geometry.paths` searches with.  It starts from the map's
terrain types (``games/heartland/terrain.yaml``: the TEC is missing from the
seed, so those costs are stand-ins) and applies the rules; every number it
uses is read from the types' data, the weather effects from their
``rules.weather`` (the file's header explains the keys).

One step from ``a`` into the adjacent hex ``b`` costs the cheaper of

* **off road**: ``(hex + features + hexsides crossed) * times + add``, with
  ``times`` and ``add`` from the weather table of ``b``'s terrain (5.22-5.29:
  +1 in Light Rain, Rain, Mud, Thaw, Light Snow and Snow; x2 in Blizzard);
* **along a road or rail line** (8.24, TEC column 2): the line rate
  ``* times + add`` from the line's weather table, or in Snow and Blizzard
  the hex's own cost (terrain + features, no surcharge: 5.28, 5.29), plus the
  hexsides crossed (``line_move`` where the type gives one).

Hexside features follow their own weather table: fords are closed in Rain
and Mud (5.23, 5.24: what they replace comes back, so a major river becomes
uncrossable and a minor river costs its own cost) and cost double in Thaw
(5.25); minor rivers are frozen in Blizzard (5.29).  A laid pontoon (8.81)
crosses a major river for the ford's cost.  A Confederate ferry (8.24a) adds
its fare on top of the hex cost, not multiplied by the weather.

With ``for_supply`` (7.12, 7.12c, 3.61) the same costs are used (never
forced-march costs), ferries are not available, and a hex holding enemy
combat units, or in enemy ZOC without a friendly unit in it, cannot be
entered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable

from ...geometry.mapmodel import crossing_kind
from ...geometry.hex import Hex, HexSide
from ...geometry.mapmodel import did_you_mean
from ...geometry.paths import Prohibited

#: The weathers of 5.21-5.29 (Mud follows two Rain turns, 5.24).
WEATHERS = ("Clear", "Light Rain", "Rain", "Mud", "Thaw", "Cold", "Light Snow", "Snow", "Blizzard")
SIDES = ("union", "confederate")

# Names of terrain types the rules speak of (vocabulary of terrain.yaml, like zoc.BLOCKING_HEXSIDES).
MAJOR_RIVER = "major_river"      # 8.24: only by bridge, pontoon or ford
FORD = "ford"                    # 8.81: a pontoon costs the same as a ford
ROAD_ONLY = {"mountain": "8.24", "mountain_hexside": "8.24"}   # prohibited off road or rail

StepCost = Callable[[Hex, Hex], "float | Prohibited"]


# --------------------------------------------------------------------------
# the data


@dataclass(frozen=True)
class WeatherEffect:
    """One terrain type's ``rules.weather`` table."""

    add: dict[str, float] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
    own_cost: frozenset[str] = frozenset()     # lines: pay the hex's own cost instead of the rate
    closed_in: frozenset[str] = frozenset()    # hexsides: the feature cannot be used
    ignored_in: frozenset[str] = frozenset()   # hexsides: crossing it costs nothing

    def apply(self, cost: float, weather: str) -> float:
        """``cost * times + add`` for ``weather``."""
        return cost * self.times.get(weather, 1) + self.add.get(weather, 0)


_WEATHER_KEYS = {"add", "times", "own_cost", "closed_in", "ignored_in"}


def _check_weather(name: str, where: str) -> str:
    if name not in WEATHERS:
        hint = did_you_mean(name, WEATHERS)
        raise ValueError(f"{where}: unknown weather {name!r}" + (f" ({hint})" if hint else "")
                         + f"; the weathers are {', '.join(WEATHERS)}")
    return name


def weather_effect(tt) -> WeatherEffect:
    """The weather table of a terrain type (empty when it has none)."""
    spec = (tt.rules or {}).get("weather") or {}
    where = f"terrain type {tt.name!r} rules.weather"
    if not isinstance(spec, dict):
        raise ValueError(f"{where} must be a mapping ({', '.join(sorted(_WEATHER_KEYS))})")
    for k in spec:
        if k not in _WEATHER_KEYS:
            raise ValueError(f"{where}: unknown key {k!r}; use {', '.join(sorted(_WEATHER_KEYS))}")

    def table(key: str) -> dict[str, float]:
        raw = spec.get(key) or {}
        return {_check_weather(w, where): float(v) for w, v in raw.items()}

    def names(key: str) -> frozenset[str]:
        return frozenset(_check_weather(w, where) for w in spec.get(key) or ())

    return WeatherEffect(table("add"), table("times"), names("own_cost"), names("closed_in"), names("ignored_in"))


@dataclass(frozen=True)
class Ferry:
    """A ferry hexside feature's data (8.24a)."""

    feature: str
    sides: frozenset[str]
    on: str
    banks: frozenset[str]
    cost: dict[str, float]

    def fare(self, weather: str) -> float:
        return self.cost.get(weather, self.cost["default"])


@dataclass(frozen=True)
class TerrainRules:
    """The map's terrain data the Heartland rules read, checked once."""

    weather: dict[tuple[str, str], WeatherEffect]
    own_cost: dict[str, float]
    ferries: dict[str, Ferry]

    def effect(self, group: str, name: str) -> WeatherEffect:
        return self.weather.get((group, name), _NO_EFFECT)


_NO_EFFECT = WeatherEffect()


def terrain_rules(hexmap) -> TerrainRules:
    """The weather and ferry data of ``hexmap``'s terrain types, read and checked once per map (kept
    on the map object, like the step costs below: it depends on nothing else)."""
    kept = hexmap.__dict__.get("_heartland_terrain_rules")
    if kept is None:
        kept = hexmap.__dict__["_heartland_terrain_rules"] = _read_terrain_rules(hexmap)
    return kept


def _read_terrain_rules(hexmap) -> TerrainRules:
    weather: dict[tuple[str, str], WeatherEffect] = {}
    own: dict[str, float] = {}
    ferries: dict[str, Ferry] = {}
    for group, types in hexmap.types.items():
        for name, tt in types.items():
            eff = weather_effect(tt)
            if eff != _NO_EFFECT:
                weather[(group, name)] = eff
            rules = tt.rules or {}
            if group == "hex" and rules.get("own_cost") is not None:
                own[name] = float(rules["own_cost"])
            if group == "hexside" and "banks" in rules:
                cost = {str(k): float(v) for k, v in (rules.get("cost") or {}).items()}
                if "default" not in cost:
                    raise ValueError(f"ferry type {name!r}: rules.cost needs a default fare (8.24a)")
                for w in cost:
                    if w != "default":
                        _check_weather(w, f"ferry type {name!r} rules.cost")
                ferries[name] = Ferry(name, frozenset(rules.get("sides") or ()), str(rules.get("on", MAJOR_RIVER)),
                                      frozenset(rules["banks"]), cost)
    return TerrainRules(weather, own, ferries)


# --------------------------------------------------------------------------
# the step cost


def _side_set(hexmap, sides: Iterable) -> set[HexSide]:
    out = set()
    for s in sides:
        out.add(s if isinstance(s, HexSide) else hexmap.grid.parse_hexside(str(s)))
    return out


def step_cost(
    hexmap,
    *,
    weather: str,
    side: str,
    unit_class: str | None = None,
    enemy_occupied: Collection[str] = frozenset(),
    enemy_zoc: Collection[str] = frozenset(),
    friendly_occupied: Collection[str] = frozenset(),
    pontoons: Iterable = (),
    blockaded: Iterable = (),
    for_supply: bool = False,
) -> StepCost:
    """The Heartland step cost on ``hexmap`` (see the module text).

    ``enemy_occupied`` and ``enemy_zoc`` are hex labels holding enemy combat
    units and in enemy ZOC: they close ferries (8.24a) and, with
    ``for_supply``, cut supply lines unless the hex is in
    ``friendly_occupied`` (7.12b, 3.61).  ``pontoons`` are the hexsides
    (labels like ``"0604/0705"`` or :class:`HexSide`) with a laid pontoon
    that ``side`` may use (8.81); ``blockaded`` the ferry hexsides closed by
    Union gunboats (8.93).
    """
    if weather not in WEATHERS:
        _check_weather(weather, "step_cost")
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; use {' or '.join(SIDES)}")
    data = terrain_rules(hexmap)
    types = hexmap.types
    label = hexmap.label
    grid = hexmap.grid
    enemy_occupied = set(enemy_occupied)
    enemy_zoc = set(enemy_zoc)
    friendly_occupied = set(friendly_occupied)
    pontoon_sides = _side_set(hexmap, pontoons)
    blockaded_sides = _side_set(hexmap, blockaded)
    ford_type = types["hexside"].get(FORD)

    def hex_own(b: Hex) -> float | Prohibited:
        """Terrain + features of ``b`` (TEC column 1), before weather."""
        tt = hexmap.terrain(b)
        c = tt.cost(unit_class)
        if c is None:
            rule = ROAD_ONLY.get(tt.name)
            if rule:
                return Prohibited(f"{tt.label} hex {label(b)} may be entered only along a road or rail line ({rule})")
            return Prohibited(f"{tt.label} in {label(b)} cannot be entered")
        for f in hexmap.features(b):
            fc = types["features"][f].cost(unit_class)
            if fc is None:
                return Prohibited(f"{types['features'][f].label} in {label(b)} cannot be entered")
            c += fc
        return c

    def crossing(a: Hex, b: Hex, s: HexSide, along: bool, major_as: float | None) -> float | Prohibited:
        """MP for the hexside features crossed; ``major_as`` replaces a major river's cost (pontoon, ferry)."""
        raw = hexmap.side_features(s, effective=False)
        active = [f for f in raw if weather not in data.effect("hexside", f).closed_in]
        gone = {r for f in active for r in types["hexside"][f].replaces}
        total: float = 0
        drawn = hexmap.drawn_in(s)
        for f in active:
            if f in gone:
                continue
            tt = types["hexside"][f]
            eff = data.effect("hexside", f)
            if f == MAJOR_RIVER and major_as is not None:
                total += major_as
                continue
            c = tt.cost(unit_class, crossing_kind(tt, drawn, a, b, along_line=bool(along)))
            if c is None:
                return _hexside_refusal(f, tt, s)
            if weather in eff.ignored_in:
                continue
            total += eff.apply(c, weather)
        return total

    def _hexside_refusal(f: str, tt, s: HexSide) -> Prohibited:
        where = grid.side_label(s)
        if f == MAJOR_RIVER:
            raw = hexmap.side_features(s, effective=False)
            closed = [g for g in raw if weather in data.effect("hexside", g).closed_in]
            why = f"major river on hexside {where}: cross only by bridge, pontoon or ford (8.24"
            why += ", 7.12c)" if for_supply else ")"
            if closed:
                labels = ", ".join(types["hexside"][g].label.lower() for g in closed)
                why += f"; the {labels} cannot be used in {weather} (5.23, 5.24)"
            return Prohibited(why)
        rule = ROAD_ONLY.get(f)
        if rule:
            return Prohibited(f"{tt.label} {where} may be crossed only along a road or rail line ({rule})")
        return Prohibited(f"{tt.label} on hexside {where} cannot be crossed")

    def ferry_fare(a: Hex, b: Hex, s: HexSide) -> float | Prohibited | None:
        """The ferry fare for this hexside (8.24a), a refusal, or None when there is no ferry."""
        raw = hexmap.side_features(s, effective=False)
        found = [data.ferries[f] for f in raw if f in data.ferries and data.ferries[f].on in raw]
        if not found:
            return None
        fy = found[0]
        where = grid.side_label(s)
        if for_supply:
            return Prohibited(f"supply lines cannot cross the major river by the ferry at {where} (7.12c)")
        if side not in fy.sides:
            return Prohibited(f"the ferry at {where} is for {', '.join(sorted(fy.sides))} forces only (8.24a)")
        for h in (a, b):
            if not set(hexmap.features(h)) & fy.banks:
                return Prohibited(f"no ferry at {where}: bank {label(h)} holds no town or major city (8.24a)")
        for h in (a, b):
            if label(h) in enemy_occupied:
                return Prohibited(f"the ferry at {where} is closed: enemy units in {label(h)} (8.24a)")
            if label(h) in enemy_zoc:
                return Prohibited(f"the ferry at {where} is closed: {label(h)} is in enemy ZOC (8.24a)")
        if s in blockaded_sides:
            return Prohibited(f"the ferry at {where} is closed by a Union gunboat's blockade (8.24a, 8.93)")
        return fy.fare(weather)

    def cost(a: Hex, b: Hex) -> float | Prohibited:
        """The MP to step from ``a`` into ``b``, or why it may not: the cheapest way in (8.24), over the
        hexside by any crossing open to it (8.81, 8.24a); a supply line is first cut by enemy units (7.12b)."""
        if b not in grid:
            return Prohibited(f"{_name(hexmap, b)} is off the map")
        s = HexSide(a, b)
        if for_supply:
            cut = supply_cut(label(b))
            if cut is not None:
                return cut
        entries, entry_refusals = ways_in(a, b)
        if not entries:
            return entry_refusals[-1]
        fare = ferry_fare(a, b, s)
        best, side_refusal = cheapest(a, b, s, entries, crossing_options(s, fare))
        if best is not None:
            return best
        assert side_refusal is not None
        if isinstance(fare, Prohibited):
            return Prohibited(f"{side_refusal.reason}; {fare.reason}")
        return side_refusal

    def supply_cut(lb: str) -> Prohibited | None:
        return line_cut(lb, enemy_occupied, enemy_zoc, friendly_occupied)

    def ways_in(a: Hex, b: Hex) -> tuple[list[tuple[bool, float]], list[Prohibited]]:
        """8.24 (TEC columns 1 and 2): the ways of paying for entering ``b`` -- off road, or along each
        usable line -- as (along a line, MP before the hexside), and why the others are refused."""
        own = hex_own(b)
        entries: list[tuple[bool, float]] = []
        entry_refusals: list[Prohibited] = []
        if isinstance(own, Prohibited):
            entry_refusals.append(own)
        else:
            entries.append((False, own))
        for t in sorted(hexmap.lines_between(a, b)):
            rate = types["lines"][t].cost(unit_class)
            if rate is None:
                continue
            x = along_line(t, rate, b, own)
            if isinstance(x, Prohibited):
                entry_refusals.append(x)
            else:
                entries.append((True, x))
        return entries, entry_refusals

    def along_line(t: str, rate: float, b: Hex, own: float | Prohibited) -> float | Prohibited:
        """The MP along line ``t`` into ``b`` in this weather; 5.28, 5.29: in snow and blizzard roads pay
        the terrain's own cost."""
        eff = data.effect("lines", t)
        if weather not in eff.own_cost:
            return eff.apply(rate, weather)
        if not isinstance(own, Prohibited):
            return own
        if hexmap.terrain(b).name in data.own_cost:
            return data.own_cost[hexmap.terrain(b).name]
        return Prohibited(f"{types['lines'][t].label} into {label(b)} in {weather}: the terrain has no own "
                          f"cost to pay (5.28, 5.29); give it rules.own_cost")

    def crossing_options(s: HexSide, fare: float | Prohibited | None) -> list[tuple[float | None, float]]:
        """The ways over the hexside, as (major river replaced by, MP added after): as drawn, by a laid
        pontoon at a ford's cost (8.81), or by ferry with its fare on top of the hex cost (8.24a)."""
        options: list[tuple[float | None, float]] = [(None, 0.0)]
        if s in pontoon_sides and ford_type is not None and ford_type.cost(unit_class) is not None:
            options.append((ford_type.cost(unit_class), 0.0))         # 8.81: a pontoon costs the same as a ford
        if fare is not None and not isinstance(fare, Prohibited):
            options.append((0.0, fare))                                # 8.24a: the fare on top of the hex cost
        return options

    def cheapest(a: Hex, b: Hex, s: HexSide, entries: list[tuple[bool, float]],
                 options: list[tuple[float | None, float]]) -> tuple[float | None, Prohibited | None]:
        """8.24: the cheapest way in and over the hexside (the hex's weather effect applies off road),
        and the first hexside refusal met."""
        hex_eff = data.effect("hex", hexmap.terrain(b).name)
        best: float | None = None
        side_refusal: Prohibited | None = None
        for along, mp in entries:
            for major_as, extra in options:
                x = crossing(a, b, s, along, major_as)
                if isinstance(x, Prohibited):
                    side_refusal = side_refusal or x
                    continue
                c = (mp + x if along else hex_eff.apply(mp + x, weather)) + extra
                if best is None or c < best:
                    best = c
        return best, side_refusal

    # Everything but the supply-line blocks (7.12b) and the ferries (8.24a) depends only on the map, the
    # weather and the side: cache it per hex step, so a supply network of the whole map is cheap to build.
    static = (weather, side, unit_class, for_supply, frozenset(pontoon_sides), frozenset(blockaded_sides))
    # the cache lives on the map object and dies with it (an id() key could be reused by another map)
    store = hexmap.__dict__.setdefault("_heartland_step_costs", {})

    blocked: set[Hex] = set()
    if for_supply:      # the hexes where 7.12b / 3.61 may cut the line; where they do not, the cached cost
        for lb in set(enemy_occupied) | set(enemy_zoc):
            try:
                blocked.add(hexmap.parse(lb))
            except Exception:     # a label off this map blocks nothing on it
                continue

    def cached(a: Hex, b: Hex) -> float | Prohibited:
        if b in blocked:
            cut = supply_cut(label(b))
            if cut is not None:
                return cut
        key = (static, a, b)
        hit = store.get(key)
        if hit is not None:
            return hit
        result = cost(a, b)
        if b in grid and not any(f in data.ferries for f in hexmap.side_features(HexSide(a, b), effective=False)):
            if len(store) > 1_000_000:
                store.clear()
            store[key] = result
        return result

    return cached


def line_cut(lb: str, enemy_occupied: Collection[str], enemy_zoc: Collection[str],
             friendly_occupied: Collection[str]) -> Prohibited | None:
    """Why a supply line may not enter the hex ``lb``, or None: 7.12b, enemy combat units cut the
    line; 3.61, so does enemy ZOC, unless a friendly unit is there."""
    if lb in enemy_occupied:
        return Prohibited(f"enemy combat units in {lb} cut the supply line (7.12b)")
    if lb in enemy_zoc and lb not in friendly_occupied:
        return Prohibited(f"{lb} is in enemy ZOC with no friendly unit in it: the supply line is cut (7.12b, 3.61)")
    return None


def cut_hexes(hexmap, enemy_occupied: Collection[str], enemy_zoc: Collection[str],
              friendly_occupied: Collection[str]) -> frozenset[Hex]:
    """The hexes of ``hexmap`` a supply line may not enter (:func:`line_cut`); a label off the map
    cuts nothing on it."""
    out = set()
    for lb in set(enemy_occupied) | set(enemy_zoc):
        try:
            h = hexmap.parse(lb)
        except Exception:
            continue
        if line_cut(hexmap.label(h), enemy_occupied, enemy_zoc, friendly_occupied) is not None:
            out.add(h)
    return frozenset(out)


def _name(hexmap, h: Hex) -> str:
    try:
        return hexmap.label(h)
    except ValueError:
        return repr(h)
