"""Who owes what: the deadline and owed lines of a mail, and the ``--remind`` mails.

:func:`deadline_lines` and :func:`owed_lines` are the lines of the outbox's mail
(:mod:`hxref.mail.outbox`) that give the awaited decisions' deadlines and every party that owes
anything, with the exact command.  :func:`reminder_messages` (``hxref outbox --remind``) tell every
party that owes anything for a decision due soon what to send, and who may claim the deadline once
its grace is over.  Times are shown in each recipient's own zone (:func:`hxref.mail.addresses.local_time`).
"""
from __future__ import annotations

import re
from email.message import EmailMessage

from .addresses import AddressBook, local_time

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


# --- reminders ------------------------------------------------------------------------------------

#: what a party owes, as a reminder says it
_OWES = {"join": "its join file", "commit": "its sealed commitment", "reveal": "its reveal",
         "answer": "its answer", "link": "its dice link (a roll file)", "resolve": "the resolution"}


def _command(engine, text: str) -> str:
    """A command of :meth:`waiting_for`, with GAME replaced by the game file's name."""
    return re.sub(r"\bGAME\b", engine.gf.path.name, text)


def _owed_parts(party: str, what: str) -> tuple[str, str]:
    """An entry of ``waiting_for()["owed"]`` in words, and when it can be sent (``reveal``: its
    reveal; ``link (after the answers)``: its dice link, after the answers); the umpire gives its
    dice link by resolving the decision."""
    from ..engine import UMPIRE

    if what == "wait (others commit)":
        return "its reveal", "once the others have committed"
    base, _, rest = what.partition(" (")
    if party == UMPIRE and base == "link":
        base = "resolve"
    return _OWES.get(base, base), rest.rstrip(")")


def _owed_text(party: str, what: str) -> str:
    owes, when = _owed_parts(party, what)
    return f"{owes}, {when}" if when else owes


def _owing(w: dict) -> dict[str, str]:
    """The parties that still owe something for a waiting decision, and what."""
    return {p: what for p, what in w["owed"].items() if what not in ("done", "missed (claimed)")}


def _claim_lines(engine, w: dict, party: str, owed: str, zone: str | None) -> list[str]:
    """What happens after the deadline: who may claim it, with which command, and what a claim gives
    under the game's policy (no clock applies a deadline: a signed claim does)."""
    from ..engine import UMPIRE

    due = w.get("due") or w["deadline"]
    when = f"{local_time(due, zone)} ({due})"
    if engine.mode == "solo":
        return [_fill(f"A solo game has no claims: the deadline ({when}) only reminds you.")]
    if party == UMPIRE:
        return [_fill(f"The deadline and its grace end {when}; nobody can claim a missed deadline against "
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
        return [_fill(f"After the deadline and its grace, from {when}, {who} may claim that {party} missed it. "
                      f"A claim counts only if it is signed after that time; then {outcome}.")]
    cmd = _command(engine, f"hxref claim GAME --side {side} --key KEY --against {party} --decision {w['decision']}")
    return [_fill(f"After the deadline and its grace, from {when}, {who} may claim that {party} missed it:"),
            f"    {cmd}",
            _fill(f"A claim counts only if it is signed after that time; then {outcome}.")]


def _fill(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=76, break_long_words=False, break_on_hyphens=False)


def _later_command(engine, w: dict, party: str, owed: str) -> str | None:
    """The command for a file that follows the others' (a reveal, a dice link), to run once they are in."""
    from ..engine import UMPIRE

    if owed == "wait (others commit)":
        return _command(engine, f"hxref submit GAME {party}-{w['decision']}-reveal.yaml")
    if owed.startswith("link"):
        return _command(engine, "hxref resolve GAME --key UMPIRE_KEY" if party == UMPIRE else
                        f"hxref roll GAME --side {party} --key KEY --decision {w['decision']}")
    return None


def reminder_messages(engine, book: AddressBook, *, within_hours: float,
                      sender: str | None = None) -> list[tuple[str, EmailMessage]]:
    """A reminder to every party that owes anything for a decision whose deadline falls within
    ``within_hours`` (or is past): a side's file (answer, commitment, reveal, dice link), also one
    it owes only once the others' files are in, or the umpire's resolution.  Each names what every
    party still owes, with the command to send it, and who may claim the deadline after its grace."""
    import datetime as _dt

    from email.utils import format_datetime

    from ..engine import UMPIRE, _time_left, now_iso

    now = _dt.datetime.fromisoformat(now_iso().replace("Z", "+00:00"))
    frm = sender or book.sender or (book.recipients.get("umpire") or ["hxref <hxref@localhost>"])[0]
    out = []
    for w in engine.waiting_for():
        if not w.get("deadline"):
            continue
        due = _dt.datetime.fromisoformat(w["deadline"].replace("Z", "+00:00"))
        if (due - now).total_seconds() > within_hours * 3600:
            continue
        owing = _owing(w)
        for party, owed in owing.items():
            if party not in book.recipients:
                continue
            zone = book.timezones.get(party)
            who = "the umpire" if party == UMPIRE else party
            cmd = _party_command(engine, w, party, owed, party) if party in w["commands"] else None
            later = None if cmd else _party_command(engine, w, party, owed, party)
            owes, when = _owed_parts(party, owed)
            lines = [f"hxref -- game {engine.meta['game']}: a reminder for {who}.", "",
                     _fill(f"{who[0].upper() + who[1:]} still owes {owes} for {w['decision']}"
                           + (f", {when}" if when else "") + f" ({w['prompt']})."),
                     f"Deadline: {local_time(w['deadline'], zone)} ({w['deadline']}); {_time_left(w['deadline'])}."]
            if cmd:
                lines += ["Send it with:", f"    {cmd}"]
            elif later:
                lines += ["Send it as soon as the others' files are in, with:", f"    {later}"]
            lines += ["", f"Still owed for {w['decision']}:"]
            for p, what in owing.items():
                c = _party_command(engine, w, p, what, party)
                lines.append(f"  {p}: {_owed_text(p, what)}")
                if c:
                    lines.append(f"    {c}")
            lines += ["", *_claim_lines(engine, w, party, owed, zone)]
            msg = EmailMessage()
            msg["From"] = frm
            msg["To"] = ", ".join(book.recipients[party])
            msg["Subject"] = (f"[hxref] reminder: {engine.meta['game']}: {w['decision']} is due "
                              f"{local_time(w['deadline'], zone)} ({_time_left(w['deadline'])})")
            msg["X-Hxref-Game"] = engine.meta["game"]
            msg["X-Hxref-Head"] = engine.gf.head
            msg["X-Hxref-Audience"] = f"{party}-reminder"
            msg["Date"] = format_datetime(now, usegmt=True)
            msg.set_content("\n".join(lines) + "\n")
            out.append((party, msg))
    return out


def _party_command(engine, w: dict, party: str, owed: str, reader: str) -> str | None:
    """The command that sends what ``party`` owes, as ``reader`` may run it: in an umpired game a
    player holds no game file, so a player reads only his own, as the ``--template`` command; the
    umpire and every party of an open game read the game's commands."""
    from ..engine import UMPIRE

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


def owed_lines(engine, audience: str, zone: str | None) -> list[str]:
    """Every party that owes anything for an awaited decision: what, the exact command, and the
    deadline in the recipient's time ``zone``.  A player of an umpired game holds no game file: his
    own line names the ``--template`` command (or the reveal to send), the others' none."""
    out = []
    for w in engine.waiting_for():
        owing = _owing(w)
        if not owing:
            continue
        when = ""
        if w.get("deadline"):
            when = f", due {local_time(w['deadline'], zone)}"
            if w.get("due") and w["due"] != w["deadline"]:
                when += f" (a claim from {local_time(w['due'], zone)})"
        out.append(f"{w['decision']}{when}:")
        for party, what in owing.items():
            cmd = _party_command(engine, w, party, what, audience)
            who = f"{party} (you)" if party == audience else party
            out.append(f"  {who}: {_owed_text(party, what)}" + (f": {cmd}" if cmd else ""))
    return out
