"""The rules of the trust protocol that need no game state: heads, the canonical order of a
decision's files, the hash of the choices a dice link answers, and signed times.

The protocol itself (who sends what, when, and what each check refuses) is written down in
SECURITY.md, "The protocol"; :mod:`hxref.referee.engine` applies it.
"""
from __future__ import annotations

import datetime as _dt
import os
import re

from ..base.canon import canonical_json, sha256_hex

#: the order of a decision's files inside its block: commitments first; then the claims that give
#: a late side its default (a missing commitment or answer), before the reveals and answers they
#: make possible; then reveals and answers; the claims of a withheld reveal or dice link, which
#: follow the files they wait for; the links; withdrawals last; then by party, then by hash, so two
#: copies that received the same files in any order write the same block, in an order in which
#: the replay accepts every file again
KIND_RANK = {"join": 0, "commit": 1, "claim": 2, "reveal": 3, "answer": 4, "roll": 6, "undo": 7, "open": 8,
             "proof": 9}
#: where a claim of a withheld file (owed: reveal or link) stands: after the reveals and answers
WITHHELD_CLAIM_RANK = 5
#: where a claim of a withheld opening or proof stands (games with hidden armies): after every file
WITHHELD_LAST_RANK = 10

_HEAD = re.compile(r"(?P<hash>[0-9a-f]{16,64})@(?P<seq>[0-9]{1,9})")


def format_head(hash_hex: str, seq: int) -> str:
    """A head as files and receipts name it: ``HASH@SEQ`` (the event number after the @)."""
    return f"{hash_hex}@{seq}"


def parse_head(text: object) -> tuple[str, int] | None:
    """``(hash, seq)`` of a ``HASH@SEQ`` text (a hash prefix of 16 or more digits is allowed for
    heads typed from a receipt), or None when it is not one."""
    if not isinstance(text, str):
        return None
    m = _HEAD.fullmatch(text.strip())
    return (m["hash"], int(m["seq"])) if m else None


def block_rank(f: dict) -> int:
    """Where a file stands in its block by kind (:data:`KIND_RANK`); a claim by what it claims
    (its ``owed``: a claim of a withheld reveal or link after the files it waits for)."""
    if f["kind"] == "claim" and f.get("owed") in ("reveal", "link"):
        return WITHHELD_CLAIM_RANK
    if f["kind"] == "claim" and f.get("owed") in ("open", "proof"):
        return WITHHELD_LAST_RANK
    return KIND_RANK.get(f["kind"], 99)


def canonical(files: list[dict]) -> list[dict]:
    """A decision's pending files in block order (each file: ``party``, ``kind``, ``sha256``, and a
    claim's ``owed``)."""
    return sorted(files, key=lambda f: (block_rank(f), f["party"], f["sha256"]))


def answers_hash(decision_id: str, files: list[dict]) -> str:
    """The hash of the choices of a decision: its answer and reveal files, and the claims that give
    a late side's default (party, kind, sha256), in canonical order.  A dice link names it, so a
    link can only follow choices already fixed."""
    chosen = [[f["party"], f["kind"], f["sha256"]] for f in canonical(files)
              if f["kind"] in ("answer", "reveal", "claim")]
    return sha256_hex(b"hxref-answers/2\x00" + decision_id.encode("utf-8") + b"\x00" + canonical_json(chosen))


# --- signed time ---------------------------------------------------------------------------------

#: how far a signed time may lie ahead of the receiving machine's clock: the clocks of two honest
#: machines differ by less.  A file signed later than that is refused until the clock reaches it
CLOCK_TOLERANCE_HOURS = 1
#: how far ahead of its own clock a machine that proves or audits a whole game (a copy that came by
#: mail, a tournament folder) takes a signed time: wider than the receiver's, so a game its sender
#: accepted reads on a machine whose clock is a little behind; a claim is never taken ahead of the
#: clock (its time is what makes the other side late)
REPLAY_TOLERANCE_HOURS = 24
#: the form of every signed time: UTC, to the second (``2026-11-29T12:00:00Z``); in this form the
#: text order is the time order
_SIGNED_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_UTC = _dt.timezone.utc
_MIN = _dt.datetime.min.replace(tzinfo=_UTC)
_MAX = _dt.datetime.max.replace(tzinfo=_UTC, microsecond=0)


def format_time(t: _dt.datetime) -> str:
    """A time in the signed form (UTC, to the second, ``Z``)."""
    return t.astimezone(_UTC).replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def now_iso() -> str:
    """This machine's clock in the signed form: a file's signed ``at`` claim, and the clock a
    received file's time is checked against.  ``HXREF_NOW`` sets it (reproducible demos and
    tests).  No local clock ever enters the hash chain or applies a deadline."""
    fixed = os.environ.get("HXREF_NOW")
    if fixed:
        try:
            return format_time(parse_time(fixed))
        except (TypeError, ValueError, OverflowError):
            from ..base.errors import InvalidInput

            raise InvalidInput(f"HXREF_NOW={fixed!r} is not a time ('2026-11-29T12:00:00Z')", code="E504") from None
    return format_time(_dt.datetime.now(_UTC))


def parse_time(text: str) -> _dt.datetime:
    t = _dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=_UTC)


def is_time(text: object) -> bool:
    try:
        parse_time(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return False
    return isinstance(text, str)


def is_signed_time(text: object) -> bool:
    """Whether ``text`` is a signed time as files carry it: a real UTC date and time to the second,
    written ``YYYY-MM-DDTHH:MM:SSZ``."""
    return isinstance(text, str) and _SIGNED_TIME.fullmatch(text) is not None and is_time(text)


def plus_hours(at: str, hours: float) -> str:
    """``at`` plus ``hours``, in the signed form; past the calendar's ends it stays at the end (a
    deadline that far away never comes), so no policy or time makes it fail."""
    t = parse_time(at)
    try:
        seconds = float(hours) * 3600.0
    except (TypeError, ValueError, OverflowError):
        seconds = float("nan")
    if seconds != seconds:      # not a number: no deadline is known
        return format_time(_MAX)
    if seconds >= (_MAX - t).total_seconds():
        return format_time(_MAX)
    if seconds <= (_MIN - t).total_seconds():
        return format_time(_MIN)
    return format_time(t + _dt.timedelta(seconds=seconds))


def latest_allowed(now: str | None = None, *, kind: str = "", replay: bool = False) -> str:
    """The latest signed time a file of ``kind`` may carry on this machine: its clock plus the
    tolerance (:data:`CLOCK_TOLERANCE_HOURS` when it arrives, :data:`REPLAY_TOLERANCE_HOURS` when a
    whole game is proved or audited), and never ahead of the clock for a claim."""
    hours = 0 if kind == "claim" else REPLAY_TOLERANCE_HOURS if replay else CLOCK_TOLERANCE_HOURS
    return plus_hours(now or now_iso(), hours)


def hours_text(start: str, end: str) -> str:
    """How many whole hours from ``start`` to ``end``, for a message ("1 h", "24 h")."""
    return f"{round((parse_time(end) - parse_time(start)).total_seconds() / 3600)} h"


def time_left(deadline: str, now: str | None = None) -> str:
    """How long until ``deadline``, by this machine's clock: for people to read, never to decide."""
    left = (parse_time(deadline) - parse_time(now or now_iso())).total_seconds()
    if left <= 0:
        return "LATE"
    h, m = divmod(int(left) // 60, 60)
    return f"time left {h}h" + (f"{m:02d}m" if m else "")
