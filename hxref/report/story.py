"""The story since a reader last read: which resolutions a report tells.

A report covers every resolution after the point its reader has provably seen, so an umpire who
mails once after two resolutions sends the whole story, not only its end.  That point is read
from the log, which every copy of the game shares, so two honest copies tell the same story:

- a side has seen the game up to the newest head one of its own signed files was written
  against (a file names the head it extends; the side cannot have written it without that head);
- the public report and the umpire's start where the current round starts
  (:func:`last_mail_event`);
- ``--since`` names the point by hand: ``start``, an event number, or a head (``HASH@SEQ`` or a
  hash prefix of 8 or more digits, as a receipt or an earlier report prints it).

When nothing was resolved after that point, the report tells the last resolution, as before.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..base.errors import InvalidInput

_HASH_PREFIX = re.compile(r"[0-9a-f]{8,64}")


@dataclass
class Resolution:
    """One resolution: its ``resolve`` event and the rules events and dice that follow it."""

    decision: str
    seq: int
    events: list[Mapping[str, Any]]


def resolutions(log: Sequence[Mapping[str, Any]], since: int = 0) -> list[Resolution]:
    """Every resolution of the log after event ``since``, in order; the log is read from the end
    back to ``since`` only, so a report costs the same late in a long game."""
    out: list[Resolution] = []
    after: list[Mapping[str, Any]] = []         # the die and rules events after the one at hand
    for i in range(len(log) - 1, since - 1, -1):
        ev = log[i]
        if ev["kind"] == "resolve":
            out.append(Resolution(str(ev["data"].get("decision")), ev["seq"], [ev, *reversed(after)]))
        if ev["kind"] in ("die", "rules"):
            after.append(ev)
        else:
            after = []
    return out[::-1]


def _last_resolution(log: Sequence[Mapping[str, Any]]) -> list[Resolution]:
    """The log's last resolution (read from the end), or none."""
    for i in range(len(log) - 1, -1, -1):
        if log[i]["kind"] == "resolve":
            return resolutions(log, i)[:1]
    return []


def _side_seen(engine, side: str) -> int | None:
    """The head ``side``'s newest file (pending, else logged) was written against.  Only the newest
    file is read, not every file of the game: each file names the head it extends, and a side's
    later file does not go back behind what it has seen."""

    pending = [f["file"] for _, f in _pending_files(engine) if f.get("party") == side]
    logged = (ev["data"]["file"] for ev in reversed(engine.gf.log)
              if ev["kind"] == "submission" and ev["data"].get("side") == side and "file" in ev["data"])
    seen = [s for s in map(_written_against, pending) if s is not None]
    if seen:
        return max(seen)
    for text in logged:
        at = _written_against(text)
        if at is not None:
            return at
    return None


def default_since(engine, audience: str | None) -> int:
    """The event after which ``audience``'s report starts when no ``--since`` is given."""

    if audience not in (None, "umpire"):
        seen = _side_seen(engine, audience)
        if seen is not None:
            return seen
    return last_mail_event(engine)


def parse_since(text: str, log: Sequence[Mapping[str, Any]], game: str) -> int:
    """``--since``: ``start``, an event number, or a head of this log (``HASH@SEQ`` or a prefix)."""
    from ..referee.trust import parse_head

    word = text.strip().lower()
    if word == "start":
        return 0
    if word.isdigit() and not (int(word) > len(log) and _HASH_PREFIX.fullmatch(word)
                               and any(ev["hash"].startswith(word) for ev in log)):
        # an event number; digits past the log's end that begin a head of it are that head's prefix
        seq = int(word)
        if seq > len(log):
            raise InvalidInput(f"--since {text}: the log has only {len(log)} events", code="E504", file=game)
        return seq
    head = parse_head(word)
    prefix = head[0] if head else word
    if head is None and not _HASH_PREFIX.fullmatch(word):
        raise InvalidInput(f"--since {text}: give `start`, an event number, or a head (HASH@SEQ or a "
                           "hash prefix of 8 or more digits)", code="E504", file=game)
    found = [ev["seq"] for ev in log if ev["hash"].startswith(prefix)]
    if head is not None:
        found = [s for s in found if s == head[1]]
    if len(found) != 1:
        why = "no event of this log has that head" if not found else "that prefix names several events"
        raise InvalidInput(f"--since {text}: {why}", code="E504", file=game,
                           hint="copy the head from a receipt or from the header of an earlier report")
    return found[0]


def since_resolutions(log: Sequence[Mapping[str, Any]], since: int) -> tuple[list[Resolution], bool]:
    """The resolutions after event ``since``, and whether they are new: when none is, the last
    resolution of the log (an old one) so a report still says what happened last."""
    new = resolutions(log, max(0, since))
    if new:
        return new, True
    return _last_resolution(log), False


# --- where the current round starts (the outbox mails it; a report tells it) ---------------------

def _pending_files(engine) -> list[tuple[str, dict]]:
    """(decision, file) of every file kept for an open decision: in the awaited order, each
    decision's files in canonical order."""
    pending = engine.h.get("pending") or {}
    order = [d.id for d in engine.awaiting if d.id in pending] + \
        [k for k in pending if k not in {d.id for d in engine.awaiting}]
    return [(dec, f) for dec in order for f in pending[dec].get("files", [])]


def _written_against(text: str) -> int | None:
    """The event number of the head a kept file names (None if it names none)."""
    from ..referee import orders
    from ..referee import trust as protocol

    try:
        head = protocol.parse_head(orders.parse(text, "kept file", fast=True).data.get("head"))
    except Exception:  # noqa: BLE001 - a file that was accepted parses; a damaged one names no head
        return None
    return head[1] if head else None


def last_mail_event(engine) -> int:
    """Where the current round starts: the oldest head its files were written against -- the
    pending files, or when none is pending, the files of the last block in the log (in a game
    without files, the event before the resolutions that end the log)."""
    log = engine.gf.log
    texts = [f["file"] for _, f in _pending_files(engine)]
    if not texts:
        i = len(log) - 1
        while i >= 0 and log[i]["kind"] != "submission":
            i -= 1
        while i >= 0 and log[i]["kind"] == "submission":
            texts.append(log[i]["data"]["file"])
            i -= 1
    seqs = [s for s in map(_written_against, texts) if s is not None]
    if seqs:
        return min(seqs)
    # no files (a solo game: its answers are events of the log): the resolutions that end the log
    from ..referee.inputs import INPUT_KINDS

    i = len(log) - 1
    while i >= 0 and (log[i]["kind"] not in INPUT_KINDS or log[i]["kind"] in ("resolve", "link")):
        i -= 1
    return i + 1
