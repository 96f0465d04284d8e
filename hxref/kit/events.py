"""The event record every game system returns, and who may see it.

``resolve`` returns a list of events: plain dicts the engine canonicalises and logs as
``rules`` events.  Each has

- ``type``: what happened (``"move"``, ``"combat"``, ``"imc"``, ...);
- ``text``: one line a report shows;
- ``rule``: the rule number it applies (``"-"`` for none);
- ``visible_to`` (optional): the sides that may read it.  Absent, every audience reads it
  (each side, the public report, the umpire).  Present, only those sides and the umpire;
- any other keys: the event's data (``side``, ``force``, ``hex``, ...), which the system's
  own reports and tests read.  ``data`` may hold a nested dict of them.

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
from typing import Any, NotRequired, TypedDict

#: the audience that reads every event (the same name as :data:`hxref.kit.protocol.UMPIRE`)
UMPIRE = "umpire"
#: the key, the only one, that says who may read an event or a die
KEY = "visible_to"


class Event(TypedDict):
    """The keys every event has and the one that restricts it.  Systems add their own data
    keys beside these (the engine stores the dict as it is)."""

    type: str
    text: str
    rule: str
    visible_to: NotRequired[list[str]]
    data: NotRequired[dict[str, Any]]


def event(type: str, text: str, rule: str = "-", *, visible_to: Iterable[str] | None = None,
          **data: Any) -> dict[str, Any]:
    """An event: ``visible_to`` the sides that may read it (None: every audience); ``data``
    the event's other keys, kept beside the standard ones."""
    out: dict[str, Any] = {"type": type, "text": text, "rule": rule, **data}
    if visible_to is not None:
        out[KEY] = audience_list(visible_to)
    return out


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
