"""The rules of the trust protocol that need no game state: heads, the canonical order of a
decision's files, the hash of the choices a dice link answers, and signed times.

The protocol itself (who sends what, when, and what each check refuses) is written down in
SECURITY.md, "The protocol"; :mod:`hxref.engine` applies it.
"""
from __future__ import annotations

import datetime as _dt
import os
import re

from .canon import canonical_json, sha256_hex

#: the order of a decision's files inside its block: commitments before reveals; answers, and the
#: claims that stand in for a missing answer, before the links that follow them; withdrawals
#: last; then by party, then by hash,
#: so two copies that received the same files in any order write the same block
KIND_RANK = {"join": 0, "commit": 1, "reveal": 2, "answer": 3, "claim": 4, "roll": 5, "undo": 6}

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


def canonical(files: list[dict]) -> list[dict]:
    """A decision's pending files in block order (each file: ``party``, ``kind``, ``sha256``)."""
    return sorted(files, key=lambda f: (KIND_RANK.get(f["kind"], 99), f["party"], f["sha256"]))


def answers_hash(decision_id: str, files: list[dict]) -> str:
    """The hash of the choices of a decision: its answer and reveal files, and the claims that give
    a late side's default (party, kind, sha256), in canonical order.  A dice link names it, so a
    link can only follow choices already fixed."""
    chosen = [[f["party"], f["kind"], f["sha256"]] for f in canonical(files)
              if f["kind"] in ("answer", "reveal", "claim")]
    return sha256_hex(b"hxref-answers/2\x00" + decision_id.encode("utf-8") + b"\x00" + canonical_json(chosen))


# --- signed time ---------------------------------------------------------------------------------

def now_iso() -> str:
    """The current UTC time for a file's signed ``at`` claim; ``HXREF_NOW`` fixes it (reproducible
    demos and tests).  It is the author's claim, signed with the file; no local clock ever enters
    the hash chain or applies a deadline."""
    fixed = os.environ.get("HXREF_NOW")
    if fixed:
        return fixed
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def parse_time(text: str) -> _dt.datetime:
    t = _dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=_dt.timezone.utc)


def is_time(text: object) -> bool:
    try:
        parse_time(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return isinstance(text, str)


def plus_hours(at: str, hours: float) -> str:
    t = parse_time(at) + _dt.timedelta(hours=hours)
    return t.astimezone(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def later(a: str | None, b: str | None) -> str | None:
    """The later of two signed times (None counts as unknown)."""
    if a is None or b is None:
        return a or b
    return a if parse_time(a) >= parse_time(b) else b


def time_left(deadline: str, now: str | None = None) -> str:
    """How long until ``deadline``, by this machine's clock: for people to read, never to decide."""
    left = (parse_time(deadline) - parse_time(now or now_iso())).total_seconds()
    if left <= 0:
        return "LATE"
    h, m = divmod(int(left) // 60, 60)
    return f"time left {h}h" + (f"{m:02d}m" if m else "")
