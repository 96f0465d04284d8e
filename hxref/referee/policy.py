"""A game's deadline policy: how long a side has for each decision, the grace after it, and what a
signed claim of a missed deadline gives (SECURITY.md, "Withholding never pays").

``hxref new`` writes the policy into ``game.created``, which every join signs; every load of a
game checks it again (:func:`hxref.referee.inputs.check_created`), and the claims apply it
(:mod:`hxref.referee.claims`).
"""
from __future__ import annotations

from typing import Any

from ..base.errors import InvalidInput

#: after a signed claim of a missed deadline: the late side's unanswered decision gets its
#: declared default (stand-fast), or the late side forfeits the game (forfeit)
NMR_POLICIES = ("stand-fast", "forfeit")

#: the longest deadline and grace a policy may set: a year (a longer one is no deadline, and its
#: arithmetic would leave the calendar)
MAX_POLICY_HOURS = 24 * 366
#: the most missed decisions ``forfeit_after`` may count
MAX_FORFEIT_AFTER = 1000


def _hours(value: Any) -> bool:
    """A finite number of hours, 0 to :data:`MAX_POLICY_HOURS` (True and False are no numbers)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_POLICY_HOURS


def check_policy(policy: Any) -> dict:
    """A game's deadline policy: ``deadline_hours`` (> 0, at most a year), ``nmr`` (stand-fast or
    forfeit), an optional ``grace_hours`` (0 to a year) and ``forfeit_after`` (1 to 1000 missed
    decisions).  E504 naming the value at fault; ``hxref new`` checks it, and so does every load of
    a game (:func:`hxref.referee.inputs.check_created`), so a hand-made policy is refused everywhere."""
    if not isinstance(policy, dict):
        raise InvalidInput("a deadline policy is a mapping of deadline_hours, nmr, grace_hours, forfeit_after",
                           code="E504")
    out = {k: v for k, v in policy.items() if v is not None}
    for k in ("deadline_hours", "grace_hours"):
        # one form for one value: 168 and 168.0 would make two different games (the policy is part
        # of the game's identity)
        if isinstance(out.get(k), float) and out[k].is_integer() and abs(out[k]) <= MAX_POLICY_HOURS:
            out[k] = int(out[k])
    keys = {"deadline_hours", "nmr", "forfeit_after", "grace_hours"}
    if set(out) - keys:
        raise InvalidInput(f"unknown policy keys {sorted(map(str, set(out) - keys))}", code="E504")
    if not out:
        return {}
    if not _hours(out.get("deadline_hours")) or out["deadline_hours"] <= 0:
        raise InvalidInput(f"--deadline-hours is a number of hours > 0 and at most {MAX_POLICY_HOURS} (a year), "
                           f"not {out.get('deadline_hours')!r}", code="E504")
    out.setdefault("nmr", "stand-fast")
    if out["nmr"] not in NMR_POLICIES:
        raise InvalidInput(f"--nmr is one of {', '.join(NMR_POLICIES)} (a policy that waits for ever would let "
                           "a side stall the game)", code="E504")
    if "grace_hours" in out and not _hours(out["grace_hours"]):
        raise InvalidInput(f"--grace-hours is a number of hours from 0 to {MAX_POLICY_HOURS} (a year), "
                           f"not {out['grace_hours']!r}", code="E504")
    if "forfeit_after" in out and (not isinstance(out["forfeit_after"], int) or isinstance(out["forfeit_after"], bool)
                                   or not 1 <= out["forfeit_after"] <= MAX_FORFEIT_AFTER):
        raise InvalidInput(f"--forfeit-after is a number of missed decisions from 1 to {MAX_FORFEIT_AFTER}, "
                           f"not {out['forfeit_after']!r}", code="E504")
    return out
