"""Who speaks in a game and which events of its log are inputs: the participants' roles (and the
check of the table a new game is made with), the input event kinds of each mode, the text a game
keeps of a signed file.

The engine (:mod:`hxref.referee.engine`), the acceptance of files (:mod:`hxref.referee.acceptance`), the claims
(:mod:`hxref.referee.claims`) and the audit all read these; none of them is needed to say them.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from . import orders
from .policy import check_policy
from ..base.errors import InvalidInput

if TYPE_CHECKING:
    from ..crypto.signing import PublicKey

#: ``fog``: an open game whose sides keep their hidden state (the system's boxes) on their own machines
MODES = ("open", "umpired", "solo", "fog")
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
    from ..crypto.signing import PublicKey

    return PublicKey.from_line(line)


def stored_text(order: orders.Order, detached: bool) -> str:
    """The text a game keeps of a file: as given when a detached signature covers its exact bytes,
    else with its line endings normalised (an embedded signature covers the normalised body)."""
    return order.raw if detached and order.raw is not None else order.text


#: what ``game.created`` holds, and what its ``meta`` holds
CREATED_KEYS = {"meta", "participants", "scenario", "nonce", "charts", "solo_seed"}
META_KEYS = {"game", "system", "scenario", "mode", "created", "title", "policy"}


def check_created(data: Any) -> None:
    """The first event of a game is an input like any other, checked wherever it is applied (a
    new game, every load, ``join``, ``inbox``, the audit's replay): E500 naming what is wrong.

    Its participants are exactly the scenario's sides, each a side of the system, with the role
    ``side``, plus one ``umpire`` in an umpired game and none otherwise; outside solo games each
    has a well-formed key of its own, in solo games none has a key (nobody signs there, so no key
    may be booked for it); the deadline policy is one ``hxref new`` makes
    (:func:`hxref.referee.policy.check_policy`); the optional rules are the system's; and no number
    anywhere in it is NaN or infinite."""
    from ..kit import registry
    from .trust import is_time

    def bad(what: str) -> InvalidInput:
        return InvalidInput(f"the game's first event (game.created) is not one hxref makes: {what}", code="E500",
                            hint="a hand-made or edited game file; ask its maker for the file `hxref new` wrote")

    if not isinstance(data, dict) or not isinstance(data.get("meta"), dict):
        raise bad("it has no meta")
    if set(data) - CREATED_KEYS or set(data["meta"]) - META_KEYS:
        raise bad(f"unknown keys {sorted(map(str, (set(data) - CREATED_KEYS) | (set(data['meta']) - META_KEYS)))}")
    _check_finite(data, bad)
    meta = data["meta"]
    for key in ("game", "system", "scenario", "title"):
        if not isinstance(meta.get(key), str) or not meta[key]:
            raise bad(f"meta.{key} is not a text")
    mode = meta.get("mode")
    if mode not in MODES:
        raise bad(f"the mode {mode!r} is none of {', '.join(MODES)}")
    if not is_time(meta.get("created")):
        raise bad("meta.created is not an ISO 8601 time")
    if "policy" in meta:
        try:
            policy = check_policy(meta["policy"])
        except InvalidInput as exc:
            raise bad(f"its deadline policy: {exc.message}") from None
        if policy != meta["policy"] or not policy:
            raise bad("its deadline policy is not in the form `hxref new` writes")
    if not _is_hex(data.get("nonce")):
        raise bad("its nonce is not 64 hex digits")
    if (mode == "solo") != ("solo_seed" in data) or ("solo_seed" in data and not _is_hex(data["solo_seed"])):
        raise bad("a solo game has a solo_seed of 64 hex digits, and only a solo game has one")
    info = registry.info(meta["system"])            # an unknown system: E503, as anywhere
    scenario = data.get("scenario")
    if not isinstance(scenario, dict) or not isinstance(scenario.get("sides"), (list, dict)):
        raise bad("its scenario names no sides")
    sides = [str(s) for s in scenario["sides"]]
    if not sides or len(set(sides)) != len(sides) or set(sides) - set(info.sides):
        raise bad(f"the scenario's sides {', '.join(sides) or 'none'} are not sides of {meta['system']} "
                  f"({', '.join(info.sides)})")
    options = scenario.get("options", {})
    if not isinstance(options, dict) or any(not isinstance(v, bool) for v in options.values()):
        raise bad("the scenario's options are not a mapping of optional rules to true or false")
    unknown = sorted(str(n) for n in options if n not in info.optional_rules)
    if unknown:
        raise bad(f"{meta['system']} has no optional rule {', '.join(unknown)}")
    _check_participants(data.get("participants"), sides, mode, bad)


def _is_hex(value: Any) -> bool:
    from ..base.canon import is_hex

    return is_hex(value, 32)


def _check_finite(value: Any, bad) -> None:
    """No NaN or infinity anywhere (the log's JSON reader would take them; the rules must never)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            raise bad("it holds a number that is not finite (NaN or infinity)")
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def _check_participants(participants: Any, sides: list[str], mode: str, bad) -> None:
    """Exactly the scenario's sides, and the umpire exactly in an umpired game; keys only outside
    solo games, each well-formed, matching its fingerprint and nobody else's."""
    if not isinstance(participants, dict):
        raise bad("it has no participants")
    want = set(sides) | ({UMPIRE} if mode == "umpired" else set())
    if set(participants) != want:
        extra, missing = sorted(map(str, set(participants) - want)), sorted(want - set(participants))
        raise bad("its participants are not the scenario's sides" + (" and the umpire" if mode == "umpired" else "")
                  + (f": {', '.join(extra)} is no side of the scenario" if extra else "")
                  + (f": {', '.join(missing)} is missing" if missing else ""))
    seen: set[str] = set()
    for name, p in participants.items():
        role = "umpire" if name == UMPIRE else "side"
        if not isinstance(p, dict) or p.get("role") != role:
            raise bad(f"{name}'s role is not {role}")
        fields = set(p) - {"role"}
        if mode == "solo":
            if fields:
                raise bad(f"{name} has a key in a solo game (nobody signs there: no key is booked for it)")
            continue
        if fields != {"key", "fingerprint"} or not isinstance(p["key"], str):
            raise bad(f"{name} has no key (a {mode} game takes every participant's signed files)")
        try:
            key = public_key(p["key"])
        except (InvalidInput, ValueError):
            raise bad(f"{name}'s key is not an Ed25519 public key line") from None
        if key.fingerprint() != p["fingerprint"]:
            raise bad(f"{name}'s fingerprint is not its key's")
        if p["fingerprint"] in seen:
            raise bad(f"{name} has the key of another participant")
        seen.add(p["fingerprint"])


def check_table(scenario: str, expected: list[str], sides: dict[str, Any], mode: str, umpire: Any,
                nonce: str | None) -> None:
    """Who sits at the table (E504): every side of the scenario, each with a key outside solo games and
    none in them, an
    umpire's key exactly in umpired games; and a nonce, if given, of 64 lower-case hex digits."""
    if sorted(sides) != sorted(expected):
        raise InvalidInput(f"scenario {scenario!r} has the sides {', '.join(expected)}; "
                           f"give each with --side NAME=KEY.pub", code="E504")
    if mode == "solo" and any(k is not None for k in sides.values()):
        raise InvalidInput("a solo game takes no keys (nobody signs there): give each side as --side NAME",
                           code="E504")
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
