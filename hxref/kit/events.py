"""The event record every game system returns, and who may see it.

``resolve`` returns a list of events, each made by :func:`event` (the one form: a test reads
every system's rules and finds no event written as a dict display), which the engine
canonicalises and logs as ``rules`` events.  Each has

- ``type``: what happened (``"move"``, ``"combat"``, ``"imc"``, ...);
- ``text``: one line a report shows (absent from the few events a system's report words from
  their data alone, as Heartland's bidding game does for its bids and impulses);
- ``rule``: the rule number it applies (``"-"`` for none);
- ``visible_to`` (optional): the sides that may read it.  Absent, every audience reads it
  (each side, the public report, the umpire).  Present, only those sides and the umpire;
- any other keys: the event's data (``side``, ``force``, ``hex``, ...), kept beside the
  standard ones, which the system's own reports and tests read.

Visibility is this one key and nothing else: the core never strips a field by name and
never reads a system's text.  A fact only one side may know (its WEP, the MP a force got)
goes into its own event, visible to that side, next to the event everyone reads.  An event
a side may read only in part is written again for that side, without the part it may not
read, by the rules code that knows what the side sees.

A die roll (``die`` events) follows the same rule: :meth:`hxref.crypto.dice.Dice.roll` takes
``visible_to`` and records it in the roll.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NotRequired, Protocol, TypedDict, cast

#: the audience that reads every event (the same name as :data:`hxref.kit.protocol.UMPIRE`)
UMPIRE = "umpire"
#: the key, the only one, that says who may read an event or a die
KEY = "visible_to"


class Event(TypedDict):
    """The keys every event has and the one that restricts it.

    A TypedDict is open (PEP 589): a value of this type may hold more keys than it names, and an
    event holds its data keys beside these.  Only :func:`event` puts them there, so the keys are
    declared once, here; a system reads its own data keys with ``.get`` (or from the logged
    event, a plain mapping).  The engine stores the dict as it is (canonical JSON, keys sorted)."""

    type: str
    text: NotRequired[str]
    rule: str
    visible_to: NotRequired[list[str]]


class Narration(Protocol):
    """An event's text as a system keeps it until the resolution ends, when it writes the text
    for each reader (Salem Church names each unit as the reader sees it): the event leaves
    ``resolve`` with a ``str``."""

    def told(self, say: Any, /) -> str: ...


def event(type: str, text: str | Narration | None, rule: str = "-", *,
          visible_to: Iterable[str] | None = None, **data: Any) -> Event:
    """An event of ``type`` that ``text`` tells (None: no line of its own; the system's report
    words it), applying ``rule``: ``visible_to`` the sides that may read it (None: every
    audience); ``data`` the event's other keys, kept beside the standard ones."""
    out: dict[str, Any] = {"type": type, "rule": rule, **data}
    if text is not None:
        out["text"] = text
    if visible_to is not None:
        out[KEY] = audience_list(visible_to)
    return cast(Event, out)     # the data keys: an event is the open TypedDict (see Event)


def event_dicts(events: Iterable[Event]) -> list[dict]:
    """The events as the plain dicts :meth:`hxref.kit.protocol.GameSystem.resolve` hands the
    engine (each copied: the same keys, in the same order)."""
    return [dict(e) for e in events]


def only(sides: Iterable[str] | str) -> dict[str, list[str]]:
    """The ``visible_to`` item of an event dict, to spread into it: ``{**only(side), ...}``."""
    return {KEY: audience_list([sides] if isinstance(sides, str) else sides)}


def audience_list(sides: Iterable[str]) -> list[str]:
    """The sides, sorted and once each (so the same event always hashes the same)."""
    found = sorted({str(s) for s in sides})
    if UMPIRE in found:
        raise ValueError("the umpire reads every event: do not name him in visible_to")
    return found


def visible(event: Mapping[str, Any], audience: str | None) -> bool:
    """May ``audience`` read ``event`` (a rules event's data or a die)?

    ``audience`` is a side, None (the public report) or ``"umpire"``.  The umpire reads
    everything; an event without ``visible_to`` is everyone's; one with it is read by the
    sides it names only.
    """
    if audience == UMPIRE:
        return True
    if KEY not in event:
        return True
    return audience is not None and audience in event[KEY]


def restricted(event: Mapping[str, Any]) -> bool:
    """True when some audience may not read ``event``."""
    return KEY in event


def shown(data: Mapping[str, Any], audience: str | None, mode: str) -> bool:
    """Does ``audience``'s report show this rules event or die?  In umpired games what
    :func:`visible` says; in open and solo games every player holds the game file, so nothing is
    hidden."""
    return mode != "umpired" or visible(data, audience)
