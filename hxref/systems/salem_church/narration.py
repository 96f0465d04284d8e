"""Salem Church narration: what the rules say, with the units it names kept as references, and
each event written once per audience when it is made (umpired line-of-sight play, :mod:`.views`).

The rules code never writes a unit's name into its prose.  It writes a :class:`Line`: text
with a :class:`Ref` wherever a unit is named, a :class:`Place` wherever it names where a unit is
(``line(name(uid), " retreats ", place(state, hm, uid, "0311", "to"))``, :func:`.views.place`), or a
:class:`Phrase`, another module's narration as a function of how the audience names units
(the combat explanation of :mod:`.combat`).  :func:`tell` then writes each event of a
resolution for its audiences (:mod:`hxref.kit.events`: ``visible_to`` is the one key):

* a side names its own units, and the enemy units it sees when the resolution ends (the map
  its report shows then), by their names or ids; any other unit -- out of its sight, or off
  the map -- is "an unseen Union unit" / "an unseen Confederate unit";
* an event whose text is the same for every audience is written once, for everyone;
* otherwise the full text goes to the sides that see every unit it names (``visible_to``;
  none: the umpire's alone), and each other side gets its own text, ``visible_to`` it --
  except an event about a unit's own doings (a move, a recovery, a replacement): a side that
  does not see every unit it names is told nothing of it;
* a hex where an enemy unit is (:class:`Place`, :class:`Journey`: a move's path, a retreat's end)
  is written out to a side only when it saw that hex at that moment (its units' sight then) and
  sees the unit when the resolution ends; otherwise it reads "out of sight" -- a unit seen only at
  the end of its move is told arriving "from out of sight", a unit retreating out of sight is told
  retreating "out of sight", never to where;
* words about a unit that say where it is (:class:`Seen`: how a unit took a public victory hex)
  are read only by a side that sees the unit;
* control of a hex other than the four public victory hexes is told only to the side that
  took it (the views show no other control either: where a side's units went is its own);
* open games, and ``--option open_map``, tell everyone everything.

The umpire reads every copy, each marked with the sides it was told to (the core's report).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from .counters import UNSEEN, UNSEEN_UNIT
from .state_types import SalemState
from ...kit.events import Event

SIDES = ("union", "confederate")
#: events about a unit's own doings: a side that does not see every unit they name gets nothing
SUBJECT_EVENTS = ("setup", "move", "move.void", "entry.delayed", "recover", "replacement", "replacement.void")


@dataclass(frozen=True)
class Ref:
    """A unit named in narration, by its counter's name (``Wilcox/M``), as the player knows it;
    ``as_name`` False where the rules' own text (a combat explanation, a move check) names it."""

    unit: str
    as_name: bool = True


def name(uid: str) -> Ref:
    return Ref(uid, True)


def ident(uid: str) -> Ref:
    return Ref(uid, False)


@dataclass(frozen=True)
class Phrase:
    """Narration another module builds as a function of how the audience names units:
    ``told(ids)`` with ``ids(uid) -> str`` (the id, or how an unseen unit is named);
    ``units`` the units it names."""

    told: Callable[[Callable[[str], str]], Any]
    units: frozenset[str]


@dataclass(frozen=True)
class Place:
    """Where ``unit`` is at one moment of the resolution: ``hex``, and ``seen`` the sides whose units
    saw that hex at that moment (:func:`place`)."""

    unit: str
    hex: str
    seen: frozenset[str]
    to: str = ""            # written before the hex ("to 0608"); an unseen place reads "out of sight"
    left: bool = False      # the unit left the map from here (16.0): no reader sees it now

    def data(self) -> dict:
        d = {"unit": self.unit, "hex": self.hex, "seen": sorted(self.seen), "to": self.to}
        return {**d, "left": True} if self.left else d


@dataclass(frozen=True)
class Journey:
    """A move's hexes in order (the start, when on the map, and each hex entered), each a
    :class:`Place`: written ``moves a > b > c`` (``enters at a and moves a > b`` for an arrival),
    with each stretch its reader did not see as "out of sight"."""

    unit: str
    places: tuple[Place, ...]
    enters: bool = False

    def path(self, say: "Audience") -> list[str]:
        """The hexes entered as ``say`` saw them (a move event's ``path``), each unseen stretch one
        "out of sight"."""
        return _collapsed([say.place(p) for p in (self.places if self.enters else self.places[1:])])

    def told(self, say: "Audience") -> str:
        shown = [say.place(p) for p in self.places]
        if all(x == p.hex for x, p in zip(shown, self.places)):
            head = f"enters at {shown[0]} and moves " if self.enters and shown else "moves "
            return head + " > ".join(shown)
        tokens = _collapsed(shown)
        if tokens[0] == OUT_OF_SIGHT:
            tokens[0] = "from " + OUT_OF_SIGHT
        return "moves " + " > ".join(tokens)

    def data(self) -> dict:
        return {"unit": self.unit, "journey": [p.data() for p in self.places], "enters": self.enters}


@dataclass(frozen=True)
class Seen:
    """Words about ``unit`` that only a reader who sees it reads (``said``); any other reads
    ``unseen`` -- e.g. how a unit took a public victory hex ("occupies it" says where it is)."""

    unit: str
    said: "Line"
    unseen: str = ""

    def told(self, say: "Audience") -> str:
        return self.said.told(say) if say.sees(self.unit) else self.unseen

    def data(self) -> dict:
        return {"unit": self.unit, "seen": self.said.data(), "unseen": self.unseen}


#: how a hex its reader did not see is written (:class:`Place`)
OUT_OF_SIGHT = "out of sight"


def _placed(p: Place, say: "Audience") -> str:
    where = say.place(p)
    return f"{p.to} {where}".lstrip() if where != OUT_OF_SIGHT else where


def _collapsed(shown: list[str]) -> list[str]:
    """A stretch out of sight is one "out of sight", however long."""
    out: list[str] = []
    for x in shown:
        if not (x == OUT_OF_SIGHT and out and out[-1] == OUT_OF_SIGHT):
            out.append(x)
    return out
_PARTS = (Ref, Phrase, Place, Journey, Seen)


class Line(tuple):
    """Text and unit references, in order: ``str``, :class:`Ref` and :class:`Phrase` parts."""

    @property
    def units(self) -> set[str]:
        return {p.unit for p in self if isinstance(p, (Ref, Place, Journey, Seen))} | {
            u for p in self if isinstance(p, Phrase) for u in p.units}

    def told(self, say: "Audience") -> str:
        return "".join(p if isinstance(p, str) else say.ref(p) if isinstance(p, Ref) else _placed(p, say)
                       if isinstance(p, Place) else p.told(say) if isinstance(p, (Journey, Seen))
                       else str(p.told(say.id))
                       for p in self)

    def data(self) -> list:
        """The line as plain data for the state (no :class:`Phrase` in it): text and
        ``{"unit": uid, "as": "name" | "id"}``, a place ``{"unit", "hex", "seen"}``, a journey
        ``{"unit", "journey": [place...], "enters"}``."""
        return [p if isinstance(p, str) else p.data() if isinstance(p, (Place, Journey, Seen))
                else {"unit": p.unit, "as": "name" if p.as_name else "id"} for p in self]

    @classmethod
    def from_data(cls, parts: Iterable) -> "Line":
        if isinstance(parts, str):
            return cls((parts,))
        return cls(_part(p) for p in parts)


def _part(p: Any) -> Any:
    """One part of :meth:`Line.data` read back."""
    if isinstance(p, str):
        return p
    if "unseen" in p:
        return Seen(str(p["unit"]), Line.from_data(p["seen"]), str(p["unseen"]))
    if "journey" in p:
        return Journey(str(p["unit"]), tuple(_part(x) for x in p["journey"]), bool(p.get("enters")))
    if "hex" in p:
        return Place(str(p["unit"]), str(p["hex"]), frozenset(p.get("seen") or ()), str(p.get("to") or ""),
                     bool(p.get("left")))
    return Ref(str(p["unit"]), p.get("as", "name") == "name")


def line(*parts: Any) -> Line:
    """A :class:`Line` of ``parts``: text, references, phrases, other lines (spliced in); None is left out."""
    out: list = []
    for p in parts:
        if p is None:
            continue
        if isinstance(p, (Line, list)):
            out.extend(line(*p))
        elif isinstance(p, _PARTS):
            out.append(p)
        else:
            out.append(str(p))
    return Line(out)


def plain(said: Line) -> str:
    """A line whose units are named by id (:func:`ident`), written out with the ids: the text of a
    refusal a player reads about his own orders (:mod:`.movement`)."""
    return "".join(p if isinstance(p, str) else p.unit if isinstance(p, Ref) else f"{p.to} {p.hex}".lstrip()
                   if isinstance(p, Place)
                   else plain(p.said) if isinstance(p, Seen)
                   else p.told(everyone_of({})) if isinstance(p, Journey) else str(p.told(str)) for p in said)


def listing(refs: Iterable[Any], sep: str = ", ") -> Line:
    """``a, b, c`` of references (or lines)."""
    out: list = []
    for i, r in enumerate(refs):
        out += [sep, r] if i else [r]
    return line(*out)


def joined(lines: Iterable[Any], sep: str = "; ") -> Line:
    return listing(lines, sep)


# --- audiences ------------------------------------------------------------------------------------

class Audience:
    """How one reader names units: ``known`` the units it may name (None: every unit); ``side`` the
    side reading (None: the umpire, or everyone in open play)."""

    def __init__(self, units: Mapping[str, Mapping], known: set[str] | None, side: str | None = None) -> None:
        self.units, self.known, self.side = units, known, side

    def place(self, p: Place) -> str:
        """``p``'s hex, if this reader saw it then and sees the unit now, or saw it leave the map
        from there (its own units: always; the public report, which shows a unit its enemy sees:
        if the enemy saw it there)."""
        owner = self.units.get(p.unit, {}).get("side")
        if self.known is None or owner == self.side:
            return p.hex
        looker = self.side or next((s for s in SIDES if s != owner), None)
        return p.hex if (p.left or self.sees(p.unit)) and looker in p.seen else OUT_OF_SIGHT

    def sees(self, uid: str) -> bool:
        return self.known is None or uid in self.known or uid not in self.units     # not a unit: as it is

    def id(self, uid: str) -> str:
        """How this reader names the unit: its counter's name (``First/1``), the one name a player
        knows it by, or "an unseen ... unit"; a text that is not a unit as it is."""
        if not self.sees(uid):
            return self._unseen(uid)
        return str(self.units.get(uid, {}).get("name") or uid)

    def ref(self, r: Ref) -> str:
        return self.id(r.unit)

    def _unseen(self, uid: str) -> str:
        return UNSEEN.get(str(self.units.get(uid, {}).get("side")), UNSEEN_UNIT)


def everyone(state: Mapping) -> Audience:
    """The umpire's naming, and everyone's in open play: every unit by name."""
    return Audience(state["units"], None)


def everyone_of(units: Mapping[str, Mapping]) -> Audience:
    return Audience(units, None)


def audience(state: Mapping, side: str, seen: set[str]) -> Audience:
    """``side`` names its own units and the enemy units in ``seen``."""
    return Audience(state["units"], {uid for uid, u in state["units"].items() if u.get("side") == side} | set(seen),
                    side)


def told(value: Any, say: Audience) -> Any:
    """``value`` as ``say`` reads it: a line or phrase written out, anything else as it is."""
    if isinstance(value, Line):
        return value.told(say)
    if isinstance(value, Phrase):
        return value.told(say.id)
    if isinstance(value, Place):
        return say.place(value)
    if isinstance(value, Journey):
        return value.path(say)
    return value


def named(event: Mapping) -> set[str]:
    """The units an event names: in its lines and phrases, and the unit it is about (``unit``)."""
    out: set[str] = set()
    for k, v in event.items():
        if isinstance(v, (Line, Phrase)):
            out |= set(v.units)
        elif isinstance(v, (Place, Journey)):
            out.add(v.unit)
        elif k == "unit" and isinstance(v, str):
            out.add(v)
    return out


def write(event: Mapping, say: Audience) -> dict:
    return {k: told(v, say) for k, v in event.items()}


def _for(ev: dict, sides: Iterable[str]) -> dict:
    """``ev`` read by ``sides`` only (and by fewer when it was already restricted)."""
    keep = [s for s in SIDES if s in sides and ("visible_to" not in ev or s in ev["visible_to"])]
    return {**ev, "visible_to": keep}


def tell(state: SalemState, events: list[Event], fogged: bool, seen: Callable[[str], set[str]],
         public_hexes: Iterable[str]) -> list[dict]:
    """Each event of a resolution written for its audiences (the module text); ``seen(side)`` the
    enemy units ``side`` sees now.  The events returned are plain data."""
    full = everyone(state)
    if not fogged:
        return [write(ev, full) for ev in events]
    units = state["units"]
    public = set(public_hexes)
    says = {s: audience(state, s, seen(s)) for s in SIDES}
    out: list[dict] = []
    for ev in events:
        whole = write(ev, full)
        private_control = ev.get("type") == "control" and ev.get("hex") not in public
        holder = ev.get("holder")
        if private_control and isinstance(holder, str) and holder in SIDES:
            out.append(_for(whole, [holder]))
            continue
        names = named(ev)
        hid = {s: {u for u in names if u in units and not says[s].sees(u)} for s in SIDES}
        # a side whose text differs from the full one: it does not see a unit named, or a place
        mine = {s: write(ev, says[s]) for s in SIDES}
        same = [s for s in SIDES if mine[s] == whole]
        if len(same) == len(SIDES):
            out.append(whole)
            continue
        out.append(_for(whole, same))
        for s in SIDES:
            if s in same or (hid[s] and ev.get("type") in SUBJECT_EVENTS) or private_control:
                continue
            if "visible_to" in ev and s not in ev["visible_to"]:
                continue
            out.append(_for({k: v for k, v in mine[s].items() if k != "visible_to"}, [s]))
    return out
