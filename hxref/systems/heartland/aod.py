"""Each side's Army Organization Display as boxes, and the public rest of the state (3.1, 3.71).

"A player may not look at the opponent's AOD" (3.71): in an open game played with hidden armies,
each side keeps its display on its own machine, and the file both hold carries only the public
part of the state.  Three functions split a state that way and put it back together, exact
inverses (``merged(public(s), {x: boxes(s, x) for x in SIDES}) == s``):

- :func:`boxes` ``(state, side)``: what of ``side`` the rules keep on its AOD or make its own to
  know, as plain data grouped into *organisation boxes*, each one leaf of a salted commitment,
  opened alone when a rule reveals it (the forces in a combat);
- :func:`public` ``(state)``: the state without either side's boxes, what both players may see;
- :func:`merged` ``(public, boxes_by_side)``: the state again.

What is hidden is what :mod:`.views` hides from the other side in an umpired game: its lists
(``PUBLIC_KEYS``, ``OWN_KEYS``, ``CURRENT_PUBLIC``, ``CURRENT_OWN``, ``IMPULSE_PUBLIC``) are the
rule, read from there.  The boxes of one side, each named by what the public part shows
(:func:`box_names`):

``leader:<id>``  one per leader of the side (3.1: a leader's box on the AOD): ``leader``, his
                 whole record (ML, AP, ASP, artillery, where he stands, whom he serves; under dense
                 fog, 3.72(1),(3), also his wound, sickness and brevet markers), ``units``, the
                 units in his box with their strengths and steps (3.72(1)), and ``logistics``, the
                 wagons that move with him (7.21).  Leader ids are public: the counters are on the
                 map or in the scenario's set-up, and each reinforcement is announced as it enters.
``hex:<label>``  one per hex the side shows on the map (``seen``, :func:`.counters.top_counters`):
                 the unled units and the wagons and depots standing there, or nothing.  Unled
                 counters are on the map, but what they are is hidden (3.71).  One box per hex
                 rather than one for all of a side's unled counters: a combat opens the box of the
                 hex fought over and no other, and the names say no more than the map does.  Not
                 one per counter: unit ids are the side's secrets, and a name per counter would
                 also tell how many lie under a leader, which the map does not.
``track``        the side's own records (3.16, 3.17, 3.71): its part of ``wep`` (the Number Track),
                 ``standing``, ``replacements``, ``hq_pool``, ``reinforcements`` and ``sources``;
                 ``initial_steps`` of its units (the VP record's base); its ``off_map`` forces
                 (8.74: where each went); its part of the turn record's ``wdo`` and of each
                 Reorganization step's per-side records; the active impulse's plans when it is the
                 phasing side (``impulse``: supply, MP, deactivations, combat; 3.71); its gunboats
                 in a box of the Naval Assault Display and the cargo of those on the map (3.17);
                 the navy's records of the impulse (the phasing side's, else the Union's, whose
                 display holds the navy, 3.17); under dense fog its announcements held for the
                 Reorganization Segment and its pontoons laid but not announced (3.72(4)); and the
                 units and supply counters of the side in no box and no hex (eliminated, embarked,
                 waiting to enter).

The bidding game (:class:`.state_types.BiddingState`) has one box a side, ``track``: its WEP
(3.16); the leader counts and the rest are public.

An entry of a list both sides share (``off_map``, ``announcements``, hidden ``pontoons``) is
kept with its place in the list, ``[i, entry]``, so the list comes back in its order.  The public
part carries ``seen`` (each side's top counters, :func:`.counters.top_counters`) and ``aod``: the
leader ids of each side.  Each track names the hidden fields the state holds (``held``), so an
empty one comes back too, and the public part does not say which exist.
The index and ``held`` are sorted, and :func:`merged` takes the boxes in the order of their names, so
two copies holding the same boxes in different orders put together the same state, in the same order
(the rules iterate the leaders and units in it: an event listing forces, a step lost by the first unit).
A field of the state named nowhere here raises ``ValueError``: who holds it must be decided
before it can be split.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

from .counters import top_counters
from .dense_fog import ANNOUNCEMENTS, UNANNOUNCED
from .hidden_open import KEY as PLOTS
from .model import copy_state
from .state_types import HeartlandState, is_full
from .views import CURRENT_OWN, CURRENT_PUBLIC, IMPULSE_PUBLIC, OWN_KEYS, PUBLIC_KEYS, SIDES

#: the box of a side's own records
TRACK: Final = "track"
#: the public part's index of the boxes: the leader ids of each side
INDEX: Final = "aod"
#: the track's list of the hidden fields the state holds (each side's the same): an empty one
#: comes back too, and the public part does not tell which there are (an announcement held)
HELD: Final = "held"
#: the public part's top counters of each side (3.71), as the views show them
SEEN: Final = "seen"
#: the per-side records ``{side: ...}`` of the whole state besides :data:`OWN_KEYS` (7.11 sources)
OWN_MORE = ("sources",)
#: fields the views do not list that are public in an open game: ``plots`` holds nothing of where
#: a hidden force is (8.62a, :mod:`.hidden_open`); ``weather`` and ``month`` are the calendar's;
#: ``aods_compared`` says the proof compared both displays (3.71, :func:`.victory.awaits_proof`)
PUBLIC_MORE = (PLOTS, "weather", "month", "aods_compared")
#: lists of entries each with its ``side``, kept in the boxes with their places (8.74, 3.72(4))
SIDED_LISTS = ("off_map", ANNOUNCEMENTS)


def leader_box(lid: str) -> str:
    return f"leader:{lid}"


def hex_box(label: str) -> str:
    return f"hex:{label}"


def box_names(public_part: Mapping[str, Any], side: str) -> list[str]:
    """The names of ``side``'s boxes, from the public part alone (sorted)."""
    if not public_part.get("full"):
        return [TRACK]
    names = [leader_box(lid) for lid in public_part[INDEX]["leaders"].get(side, [])]
    names += [hex_box(h) for h in public_part[SEEN].get(side, {})]
    return sorted([*names, TRACK])


#: the rule that governs a part of a box, by the path into its value (``*`` any one key), first match
BOX_RULES: Final = (
    (("units", "*", "steps"), "3.1, 10.63"),         # a unit's steps: the AOD's record, lost in combat
    (("units", "*", "cf"), "3.1, 10.63"),
    (("units", "*", "ml"), "3.52"),
    (("units", "*", "*"), "3.1"),
    (("units", "*"), "4.32"),                        # a unit in another box: moved at the Administration
    (("leader", "ap"), "3.24"),
    (("leader", "ml"), "3.51"),
    (("leader", "asp"), "10.12"),
    (("leader", "artillery"), "3.1"),
    (("wep",), "3.16"),
    (("replacements",), "4.32"),
)


def box_rule(box: str, path: Sequence[str]) -> str:
    """The rule that governs the part ``path`` of the box ``box`` (:data:`BOX_RULES`; else the AOD's,
    3.1, or for the track the Number Track's, 3.16)."""
    for pattern, rule in BOX_RULES:
        if len(path) >= len(pattern) and all(p in ("*", k) for p, k in zip(pattern, path)):
            return rule
    return "3.16" if box == TRACK else "3.1"


def _owner_error(what: str) -> ValueError:
    return ValueError(f"the state's {what} is named nowhere in the AOD's layout (3.71): decide whose it is")


class _Split:
    """One pass over a state (a copy of it, whose parts it hands out): the public part and every
    side's boxes."""

    def __init__(self, state: Mapping[str, Any], full: bool):
        self.state = state
        self.public: dict[str, Any] = {}
        self.held: list[str] = []
        self.boxes: dict[str, dict[str, Any]] = {s: {TRACK: {}} for s in SIDES}
        self.full = full

    def track(self, side: str) -> dict[str, Any]:
        if side not in SIDES:
            raise _owner_error(f"record of side {side!r}")
        return self.boxes[side][TRACK]

    def run(self) -> None:
        for key, value in self.state.items():
            if key in PUBLIC_KEYS or key in PUBLIC_MORE or (key == "leaders" and not self.full):
                self.public[key] = value
            elif key in OWN_KEYS or key in OWN_MORE:
                self._own(value, key)
            elif key == "current":
                self.public[key] = self._current(value)
            elif key in SIDED_LISTS:
                self._sided_list(key, value)
            elif key == "initial_steps":
                self.held.append(key)
                units = self.state["units"]
                for uid, n in value.items():
                    self.track(units[uid]["side"] if uid in units else "").setdefault(key, {})[uid] = n
            elif key == "naval":
                self.public[key] = self._naval(value)
            elif key in ("leaders", "units", "logistics"):
                self.held.append(key)
            else:
                raise _owner_error(f"field {key!r}")
        if self.full:
            self._armies()
            self._pontoons()

    def _own(self, record: Any, *path: str) -> None:
        """A per-side record ``{side: ...}`` at ``path``: each side's part to its track, there."""
        name = ".".join(path)
        if not isinstance(record, Mapping) or not set(record) <= set(SIDES):
            raise _owner_error(f"{name} (not a record by side)")
        self.held.append(name)
        for s, part in record.items():
            where = self.track(s)
            for key in path[:-1]:
                where = where.setdefault(key, {})
            where[path[-1]] = part

    def _sided_list(self, key: str, items: Any) -> None:
        self.held.append(key)
        for i, item in enumerate(items):
            self.track(item.get("side")).setdefault(key, []).append([i, item])

    def _current(self, cur: Mapping[str, Any]) -> dict:
        """The turn record: its public fields; each side's WDOs, reorganization parts and, for the
        phasing side, the active impulse's plans to its track."""
        out: dict[str, Any] = {}
        for key, value in cur.items():
            if key in CURRENT_PUBLIC:
                out[key] = value
            elif key in CURRENT_OWN:
                self._own(value, "current", key)
            elif key == "reorganization" and isinstance(value, Mapping):
                out[key] = {}
                for step, rec in value.items():
                    if isinstance(rec, Mapping) and set(rec) <= set(SIDES):
                        self.held.append(f"reorganization.{step}")
                        for s, part in rec.items():
                            self.track(s).setdefault("reorganization", {})[step] = part
                    else:
                        out[key][step] = rec
            elif key == "active_impulse" and isinstance(value, Mapping):
                out[key] = {k: v for k, v in value.items() if k in IMPULSE_PUBLIC}
                plans = {k: v for k, v in value.items() if k not in IMPULSE_PUBLIC}
                if plans:
                    self.track(value.get("side", ""))["impulse"] = plans
            else:
                raise _owner_error(f"turn record's field {key!r}")
        return out

    def _naval(self, naval: Mapping[str, Any]) -> dict:
        """3.17: gunboats in a box of the Naval Assault Display and the cargo of those on the map
        are their side's; the impulse's naval records are the phasing side's, else the Union's."""
        out = {k: v for k, v in naval.items() if k not in ("gunboats", "current")}
        if "gunboats" in naval:
            out["gunboats"] = {}
            for gid, gb in naval["gunboats"].items():
                if gb.get("box"):
                    self.track(gb["side"]).setdefault("gunboats", {})[gid] = gb
                    continue
                if "cargo" in gb:
                    self.track(gb["side"]).setdefault("cargo", {})[gid] = gb["cargo"]
                out["gunboats"][gid] = {k: v for k, v in gb.items() if k != "cargo"}
        if "current" in naval:
            imp = (self.state.get("current") or {}).get("active_impulse") or {}
            self.track(imp.get("side") or "union")["naval"] = naval["current"]
        return out

    def _armies(self) -> None:
        """3.1: each leader's box, each hex's unled counters, the rest on the track."""
        leaders = self.state.get("leaders", {})
        index: dict[str, list[str]] = {s: [] for s in SIDES}
        for lid, ld in leaders.items():
            if ld.get("side") not in SIDES:
                raise _owner_error(f"leader {lid!r} of no side")
            index[ld["side"]].append(lid)
            self.boxes[ld["side"]][leader_box(lid)] = {"leader": ld, "units": {}, "logistics": {}}
        seen = {s: top_counters(cast(Any, self.state), s) for s in SIDES}
        for s in SIDES:
            for label in seen[s]:
                self.boxes[s][hex_box(label)] = {"units": {}, "logistics": {}}
        for kind in ("units", "logistics"):
            for cid, c in self.state.get(kind, {}).items():
                self._box_of(c, leaders, seen).setdefault(kind, {})[cid] = c
        self.public[SEEN] = seen
        self.public[INDEX] = {"leaders": {s: sorted(lids) for s, lids in index.items()}}

    def _box_of(self, counter: Mapping[str, Any], leaders: Mapping[str, Any], seen) -> dict:
        side = counter.get("side", "")
        boss = counter.get("leader")
        if boss is not None and leaders.get(boss, {}).get("side") == side:
            return self.boxes[side][leader_box(boss)]
        if boss is None and counter.get("hex") in seen.get(side, {}):
            return self.boxes[side][hex_box(counter["hex"])]
        return self.track(side)

    def _pontoons(self) -> None:
        """3.72(4): a pontoon laid under dense fog is off the enemy's map until announced."""
        pontoons = self.public.get("pontoons")
        if not isinstance(pontoons, list) or not any(p.get(UNANNOUNCED) for p in pontoons):
            return
        shown = []
        for i, p in enumerate(pontoons):
            if p.get(UNANNOUNCED):
                self.track(p.get("side", "")).setdefault("pontoons", []).append([i, p])
                p = {"id": p.get("id"), "side": p.get("side"), UNANNOUNCED: True}
            shown.append(p)
        self.public["pontoons"] = shown


def _split(state: HeartlandState) -> _Split:
    split = _Split(copy_state(dict(state)), is_full(state))
    split.run()
    if not split.full:
        split.public[INDEX] = {"leaders": {}}
    for s in SIDES:
        split.boxes[s][TRACK][HELD] = sorted(split.held)
    return split


def boxes(state: HeartlandState, side: str) -> dict[str, Any]:
    """``side``'s Army Organization Display and own records as boxes (see the module's docstring)."""
    return _split(state).boxes[side]


def public(state: HeartlandState) -> dict:
    """The state without either side's boxes: what both players may see (3.71)."""
    return _split(state).public


def merged(public_part: Mapping[str, Any], boxes_by_side: Mapping[str, Mapping[str, Any]]) -> dict:
    """The state again from its public part and every side's boxes."""
    pub = copy_state(dict(public_part))
    got = copy_state({s: dict(b) for s, b in boxes_by_side.items()})
    pub.pop(INDEX)
    pub.pop(SEEN, None)
    tracks = {s: got.get(s, {}).get(TRACK, {}) for s in SIDES}
    held = {name for t in tracks.values() for name in t.get(HELD, [])}
    state: dict[str, Any] = pub
    for key in (*OWN_KEYS, *OWN_MORE):
        if key in held:
            state[key] = {s: t[key] for s, t in tracks.items() if key in t}
    for key in SIDED_LISTS:
        if key in held:
            state[key] = _in_place([x for t in tracks.values() for x in t.get(key, [])])
    if "initial_steps" in held:
        state["initial_steps"] = {u: n for t in tracks.values() for u, n in t.get("initial_steps", {}).items()}
    if "current" in state:
        _merge_current(state["current"], held, tracks)
    if "naval" in state:
        _merge_naval(state["naval"], tracks)
    hidden_pontoons = [x for t in tracks.values() for x in t.get("pontoons", [])]
    for i, p in hidden_pontoons:
        state["pontoons"][i] = p
    for kind in ("leaders", "units", "logistics"):
        if kind in held:
            state[kind] = {}
    for s in SIDES:
        for name, box in sorted(got.get(s, {}).items()):
            if name != TRACK:
                if "leader" in box:
                    state["leaders"][name.partition(":")[2]] = box["leader"]
                state["units"].update(box.get("units", {}))
                state.get("logistics", {}).update(box.get("logistics", {}))
        for kind in ("units", "logistics"):
            state.get(kind, {}).update(tracks[s].get(kind, {}))
    return state


def _in_place(entries: list) -> list:
    """A shared list from the ``[i, entry]`` of every side."""
    return [e for _, e in sorted(entries, key=lambda x: x[0])]


def _merge_current(cur: dict, held: set[str], tracks: Mapping[str, Mapping[str, Any]]) -> None:
    for key in CURRENT_OWN:
        if f"current.{key}" in held:
            cur[key] = {s: t["current"][key] for s, t in tracks.items() if key in t.get("current", {})}
    for s, t in tracks.items():
        for step, part in t.get("reorganization", {}).items():
            cur["reorganization"].setdefault(step, {})[s] = part
        if "impulse" in t:
            cur["active_impulse"].update(t["impulse"])
    for name in sorted(held):
        if name.startswith("reorganization."):
            cur["reorganization"].setdefault(name.partition(".")[2], {})


def _merge_naval(naval: dict, tracks: Mapping[str, Mapping[str, Any]]) -> None:
    for t in tracks.values():
        for gid, cargo in t.get("cargo", {}).items():
            naval["gunboats"][gid]["cargo"] = cargo
        naval.get("gunboats", {}).update(t.get("gunboats", {}))
        if "naval" in t:
            naval["current"] = t["naval"]
