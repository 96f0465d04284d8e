"""Who speaks in a game and which events of its log are inputs: the participants' roles (and the
check of the table a new game is made with), the input event kinds of each mode, the text a game
keeps of a signed file.

The engine (:mod:`hxref.engine`), the acceptance of files (:mod:`hxref.acceptance`), the claims
(:mod:`hxref.claims`) and the audit all read these; none of them is needed to say them.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from . import orders
from .errors import InvalidInput

if TYPE_CHECKING:
    from .signing import PublicKey

MODES = ("open", "umpired", "solo")
UMPIRE = "umpire"
JOIN = "join"
#: input events, by mode: in open and umpired games every input that speaks for a participant
#: is a signed file (``submission``); ``link`` is the umpire's bound link (self-authenticating:
#: only the chain's owner knows it); ``resolve`` closes a block and chooses nothing
SIGNED_INPUTS = ("game.created", "submission", "link", "resolve")
SOLO_INPUTS = ("game.created", "answer", "resolve", "undo")
INPUT_KINDS = tuple(dict.fromkeys(SIGNED_INPUTS + SOLO_INPUTS))
#: the events the rules and the engine produce from the inputs
PRODUCED = ("game.started", "die", "rules")


def inputs_for(mode: str | None) -> tuple[str, ...]:
    """The input event kinds of a game in ``mode``."""
    return SOLO_INPUTS if mode == "solo" else SIGNED_INPUTS


@functools.lru_cache(maxsize=64)
def public_key(line: str) -> PublicKey:
    """A participant's key, from its line in ``game.created`` (parsed once per line)."""
    from .signing import PublicKey

    return PublicKey.from_line(line)


def stored_text(order: orders.Order, detached: bool) -> str:
    """The text a game keeps of a file: as given when a detached signature covers its exact bytes,
    else with its line endings normalised (an embedded signature covers the normalised body)."""
    return order.raw if detached and order.raw is not None else order.text


def check_table(scenario: str, expected: list[str], sides: dict[str, Any], mode: str, umpire: Any,
                nonce: str | None) -> None:
    """Who sits at the table (E504): every side of the scenario, each with a key outside solo games, an
    umpire's key exactly in umpired games; and a nonce, if given, of 64 lower-case hex digits."""
    if sorted(sides) != sorted(expected):
        raise InvalidInput(f"scenario {scenario!r} has the sides {', '.join(expected)}; "
                           f"give each with --side NAME=KEY.pub", code="E504")
    if mode != "solo" and any(k is None for k in sides.values()):
        raise InvalidInput(f"a {mode} game needs a public key for every side (--side NAME=KEY.pub)", code="E504")
    if mode == "umpired" and umpire is None:
        raise InvalidInput("an umpired game needs the umpire's public key (--umpire KEY.pub)", code="E504")
    if mode != "umpired" and umpire is not None:
        raise InvalidInput("--umpire is only for --mode umpired", code="E504")
    if nonce is not None and not (isinstance(nonce, str) and len(nonce) == 64
                                  and all(c in "0123456789abcdef" for c in nonce)):
        raise InvalidInput("--nonce is 64 lower-case hex digits", code="E504")


def participants_record(expected: list[str], sides: dict[str, Any], umpire: Any) -> dict[str, dict]:
    """Each participant's role and key, as ``game.created`` records them; one key for two is refused (E504)."""
    participants: dict[str, dict] = {}
    for name in expected:
        key = sides[name]
        participants[name] = {"role": "side"}
        if key is not None:
            participants[name].update(key=key.line(), fingerprint=key.fingerprint())
    if umpire is not None:
        participants[UMPIRE] = {"role": "umpire", "key": umpire.line(), "fingerprint": umpire.fingerprint()}
    keys = [p["fingerprint"] for p in participants.values() if "fingerprint" in p]
    if len(set(keys)) != len(keys):
        raise InvalidInput("two participants have the same key; each needs its own", code="E504")
    return participants
