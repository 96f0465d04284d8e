"""Who owes what, by when: the deadline of each awaited decision and every party that owes
anything for it, with the exact command to send it, in the reader's own time zone.

The report's "what now" lines (:mod:`hxref.report.turn`), the outbox's mail
(:mod:`hxref.mail.outbox`) and the reminders (:mod:`hxref.mail.remind`) all say it in these words.
"""
from __future__ import annotations

import re


def local_time(utc: str, zone: str | None) -> str:
    """A UTC deadline as ``2026-12-01 13:00 CET`` in ``zone`` (UTC when None)."""
    import datetime as _dt
    from zoneinfo import ZoneInfo

    t = _dt.datetime.fromisoformat(utc.replace("Z", "+00:00"))
    t = t.astimezone(ZoneInfo(zone)) if zone else t.astimezone(_dt.timezone.utc)
    return t.strftime("%Y-%m-%d %H:%M ") + (t.tzname() or "UTC")


def due_time(utc: str, zone: str | None) -> str:
    """A UTC time as a reader reads a deadline on his own clock: ``Sun 6 Dec 2026 07:00 EST``
    (``zone`` None: UTC)."""
    import datetime as _dt
    from zoneinfo import ZoneInfo

    t = _dt.datetime.fromisoformat(utc.replace("Z", "+00:00"))
    t = t.astimezone(ZoneInfo(zone)) if zone else t.astimezone(_dt.timezone.utc)
    return f"{t:%a} {t.day} {t:%b %Y %H:%M} " + (t.tzname() or "UTC")


def _grace_words(hours: float) -> str:
    if hours % 24 == 0:
        days = int(hours // 24)
        return f"{days} day{'s' if days != 1 else ''}"
    return f"{hours:g} hour{'s' if hours != 1 else ''}"


def deadline_text(engine, w: dict, zone: str | None) -> str:
    """A waiting decision's one deadline, in the reader's ``zone``, with the grace that follows it in
    words (a claim can be signed only once the grace is over): ``due Sun 6 Dec 2026 07:00 EST (then
    2 days' grace)``; empty when the decision has none."""
    if not w.get("deadline"):
        return ""
    text = f"due {due_time(w['deadline'], zone)}"
    grace = (engine.meta.get("policy") or {}).get("grace_hours") or 0
    if grace and w.get("due") and w["due"] != w["deadline"]:
        text += f" (then {_grace_words(grace)}' grace)"
    return text


def deadline_lines(engine, audience: str, zone: str | None) -> list[str]:
    """Each awaited decision's deadline, in the recipient's own time zone, with its grace in words."""
    return [f"{w['decision']}: {deadline_text(engine, w, zone)}" for w in engine.waiting_for() if w.get("deadline")]


_OWES = {"join": "its join file", "commit": "its sealed commitment", "reveal": "its reveal",
         "answer": "its answer", "link": "its dice link (a roll file)", "resolve": "the resolution"}


def _command(engine, text: str) -> str:
    """A command of :meth:`waiting_for`, with GAME replaced by the game file's name."""
    return re.sub(r"\bGAME\b", engine.gf.path.name, text)


def owed_parts(party: str, what: str) -> tuple[str, str]:
    """An entry of ``waiting_for()["owed"]`` in words, and when it can be sent (``reveal``: its
    reveal; ``link (after the answers)``: its dice link, after the answers); the umpire gives its
    dice link by resolving the decision."""
    from ..referee.engine import UMPIRE

    if what == "wait (others commit)":
        return "its reveal", "once the others have committed"
    base, _, rest = what.partition(" (")
    if party == UMPIRE and base == "link":
        base = "resolve"
    return _OWES.get(base, base), rest.rstrip(")")


def owed_text(party: str, what: str) -> str:
    owes, when = owed_parts(party, what)
    return f"{owes}, {when}" if when else owes


def owed_by(w: dict) -> dict[str, str]:
    """The parties that still owe something for a waiting decision, and what."""
    return {p: what for p, what in w["owed"].items() if what not in ("done", "missed (claimed)")}


def claim_lines(engine, w: dict, party: str, owed: str, zone: str | None) -> list[str]:
    """What happens after the deadline: who may claim it, with which command, and what a claim gives
    under the game's policy (no clock applies a deadline: a signed claim does)."""
    from ..referee.engine import UMPIRE

    due = w.get("due") or w["deadline"]
    when = f"{local_time(due, zone)} ({due})"
    if engine.mode == "solo":
        return [fill(f"A solo game has no claims: the deadline ({when}) only reminds you.")]
    if party == UMPIRE:
        return [fill(f"The deadline and its grace end {when}; nobody can claim a missed deadline against "
                      "the umpire, but every report shows the delay.")]
    if engine.mode == "umpired":
        who, side = "the umpire", UMPIRE
    else:
        others = [s for s in engine.sides() if s != party]
        who = f"the other side ({', '.join(others)})" if others else "another side"
        side = others[0] if len(others) == 1 else "SIDE"
    policy = engine.meta.get("policy") or {}
    if owed.startswith(("reveal", "link", "wait")):
        outcome = (f"{party} forfeits the game (a withheld {'dice link' if owed.startswith('link') else 'reveal'} "
                   "is never replaced by another)")
    elif policy.get("nmr") == "forfeit":
        outcome = f"{party} forfeits the game (policy forfeit)"
    else:
        outcome = f"{party} stands fast with the decision's default answer (policy stand-fast)"
        if policy.get("forfeit_after"):
            outcome += f", and forfeits after {policy['forfeit_after']} missed deadlines"
    if engine.mode == "umpired":    # the late player reads it, who holds no game file: the claim is the umpire's
        return [fill(f"After the deadline and its grace, from {when}, {who} may claim that {party} missed it. "
                      f"A claim counts only if it is signed after that time; then {outcome}.")]
    cmd = _command(engine, f"hxref claim GAME --side {side} --key KEY --against {party} --decision {w['decision']}")
    return [fill(f"After the deadline and its grace, from {when}, {who} may claim that {party} missed it:"),
            f"    {cmd}",
            fill(f"A claim counts only if it is signed after that time; then {outcome}.")]


def fill(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=76, break_long_words=False, break_on_hyphens=False)


def _later_command(engine, w: dict, party: str, owed: str) -> str | None:
    """The command for a file that follows the others' (a reveal, a dice link), to run once they are in."""
    from ..referee.engine import UMPIRE

    if owed == "wait (others commit)":
        return _command(engine, f"hxref submit GAME {party}-{w['decision']}-reveal.yaml")
    if owed.startswith("link"):
        return _command(engine, "hxref resolve GAME --key UMPIRE_KEY" if party == UMPIRE else
                        f"hxref roll GAME --side {party} --key KEY --decision {w['decision']}")
    return None


def party_command(engine, w: dict, party: str, owed: str, reader: str) -> str | None:
    """The command that sends what ``party`` owes, as ``reader`` may run it: in an umpired game a
    player holds no game file, so a player reads only his own, as the ``--template`` command; the
    umpire and every party of an open game read the game's commands."""
    from ..referee.engine import UMPIRE

    if engine.mode == "umpired" and reader != UMPIRE:
        return _template_command(w, party, owed) if party == reader else None
    return (_command(engine, w["commands"][party]) if party in w["commands"]
            else _later_command(engine, w, party, owed))


def _template_command(w: dict, party: str, owed: str) -> str | None:
    """What an umpired game's player runs, who holds no game file: the ``--template`` command of the
    template his mail attaches, or the reveal he kept to send."""
    dec = w["decision"]
    if owed in ("join", "answer", "commit"):
        suffix = "txt" if owed == "commit" else "yaml"
        return f"hxref {owed} --template {party}-{dec}-template.{suffix} --key KEY"
    if owed == "reveal" or owed.startswith("wait"):
        return f"mail {party}-{dec}-reveal.yaml (kept since your commitment) to the umpire"
    return None


def owed_lines(engine, audience: str, zone: str | None, commands: bool = True) -> list[str]:
    """Every party that owes anything for an awaited decision: what, the exact command, and the
    deadline in the recipient's time ``zone``.  A player of an umpired game holds no game file: his
    own line names the ``--template`` command (or the reveal to send), the others' none.  Without
    ``commands`` (the order page, where the reader answers by clicking), the lines name none."""
    out = []
    for w in engine.waiting_for():
        owing = owed_by(w)
        if not owing:
            continue
        when = ""
        if w.get("deadline"):
            when = f", due {local_time(w['deadline'], zone)}"
            if w.get("due") and w["due"] != w["deadline"]:
                when += f" (a claim from {local_time(w['due'], zone)})"
        out.append(f"{w['decision']}{when}:")
        for party, what in owing.items():
            cmd = party_command(engine, w, party, what, audience) if commands else None
            who = f"{party} (you)" if party == audience else party
            out.append(f"  {who}: {owed_text(party, what)}" + (f": {cmd}" if cmd else ""))
    return out
