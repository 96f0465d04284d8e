"""The address book of a game's mail (``GAME.addresses.yaml``, :func:`load_address_book`).

Who gets the outbox's mail (:mod:`hxref.mail.outbox`) and the reminders
(:mod:`hxref.mail.remind`), and in which time zone each recipient reads its deadlines
(:func:`local_time`)::

    # g.addresses.yaml: who gets hxref's mail for game test-game
    union: Alice Player <alice@example.org>
    confederate: [bob@example.org, "Bob at work <bob@work.example>"]
    umpire: referee@example.org              # optional: gets the umpire's report
    from: hxref referee <referee@example.org>   # optional: the sender of the outbox's mail
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import InvalidInput

@dataclass
class AddressBook:
    path: Path
    recipients: dict[str, list[str]]       # audience (a side or "umpire") -> addresses as written
    sender: str | None = None
    timezones: dict[str, str] = field(default_factory=dict)    # audience -> IANA zone (deadlines shown in it)


def address_book_path(game: str | Path) -> Path:
    return Path(game).with_suffix(".addresses.yaml")


def _valid_address(text: str) -> str | None:
    """The address part of ``Name <user@host>`` or ``user@host``, or None if it is not one."""
    from email.utils import getaddresses

    if not isinstance(text, str) or "\n" in text or "\r" in text:
        return None
    pairs = getaddresses([text])
    if len(pairs) != 1:
        return None
    addr = pairs[0][1]
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain.strip(".") or " " in addr:
        return None
    return addr


def load_address_book(path: str | Path, engine) -> AddressBook:
    """Read and check ``GAME.addresses.yaml``: ``side: address`` (or a list), ``umpire:``, ``from:``."""
    from ..base import yamlio

    path = Path(path)
    sides = engine.sides()
    example = " and ".join(f"`{s}: {s}@example.org`" for s in sides[:2])
    if not path.exists():
        raise InvalidInput(f"no address book: write one `side: address` line per side, e.g. {example} "
                           "(`umpire:` and `from:` are optional)", code="E100", file=str(path))
    text = yamlio.read_text(path)
    root = yamlio.load_rt(text, str(path))
    data = yamlio.to_plain(root)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InvalidInput(f"an address book is a mapping of `side: address` lines, e.g. {example}", code="E112",
                           file=str(path), line=yamlio.line_of(root) or 1)
    allowed = [*sides, "umpire", "from", "tz"]
    book = AddressBook(path, {})
    for key, value in data.items():
        line = yamlio.line_of(root, key)
        if key == "tz":
            book.timezones = _timezones(value, [*sides, "umpire"], path, line)
            continue
        if key not in allowed:
            raise InvalidInput(f"no side {key!r} in game {engine.meta['game']} (the keys are its sides "
                               f"{', '.join(sides)}, and umpire and from)", code="E110", file=str(path), line=line,
                               path=str(key))
        values = value if isinstance(value, list) else [value]
        if not values or (key == "from" and len(values) != 1):
            raise InvalidInput(f"`{key}` needs {'one address' if key == 'from' else 'an address'}", code="E112",
                               file=str(path), line=line, path=str(key))
        for v in values:
            if _valid_address(v) is None:
                raise InvalidInput(f"not an e-mail address: {v!r} (write user@host or \"Name <user@host>\")",
                                   code="E112", file=str(path), line=line, path=str(key))
        if key == "from":
            book.sender = values[0]
        else:
            book.recipients[key] = [str(v) for v in values]
    return book


def _timezones(value, audiences: list[str], path: Path, line) -> dict[str, str]:
    """The book's ``tz: {side: Area/City}``: each player's own time zone for deadlines."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not isinstance(value, dict):
        raise InvalidInput("`tz` maps each side to its time zone, e.g. {union: Europe/Berlin}", code="E112",
                           file=str(path), line=line, path="tz")
    out = {}
    for who, zone in value.items():
        if who not in audiences:
            raise InvalidInput(f"`tz`: no side {who!r} (the keys are {', '.join(audiences)})", code="E110",
                               file=str(path), line=line, path=f"tz.{who}")
        try:
            ZoneInfo(str(zone))
        except (ZoneInfoNotFoundError, ValueError):
            raise InvalidInput(f"`tz`: {zone!r} is not a time zone (an IANA name like Europe/Berlin)",
                               code="E112", file=str(path), line=line, path=f"tz.{who}") from None
        out[str(who)] = str(zone)
    return out


