"""The ``--remind`` mails (``hxref outbox --remind``): every party that owes anything for a
decision due soon is told what to send, and who may claim the deadline once its grace is over, in
the words of :mod:`hxref.report.owed` and in the recipient's own time zone."""
from __future__ import annotations

from email.message import EmailMessage

from ..report.owed import claim_lines, fill, owed_parts, owed_text, owed_by, party_command, local_time
from .addresses import AddressBook

def reminder_messages(engine, book: AddressBook, *, within_hours: float,
                      sender: str | None = None) -> list[tuple[str, EmailMessage]]:
    """A reminder to every party that owes anything for a decision whose deadline falls within
    ``within_hours`` (or is past): a side's file (answer, commitment, reveal, dice link), also one
    it owes only once the others' files are in, or the umpire's resolution.  Each names what every
    party still owes, with the command to send it, and who may claim the deadline after its grace."""
    import datetime as _dt

    from email.utils import format_datetime

    from ..referee.engine import UMPIRE, _time_left, now_iso

    now = _dt.datetime.fromisoformat(now_iso().replace("Z", "+00:00"))
    frm = sender or book.sender or (book.recipients.get("umpire") or ["hxref <hxref@localhost>"])[0]
    out = []
    for w in engine.waiting_for():
        if not w.get("deadline"):
            continue
        due = _dt.datetime.fromisoformat(w["deadline"].replace("Z", "+00:00"))
        if (due - now).total_seconds() > within_hours * 3600:
            continue
        owing = owed_by(w)
        for party, owed in owing.items():
            if party not in book.recipients:
                continue
            zone = book.timezones.get(party)
            who = "the umpire" if party == UMPIRE else party
            cmd = party_command(engine, w, party, owed, party) if party in w["commands"] else None
            later = None if cmd else party_command(engine, w, party, owed, party)
            owes, when = owed_parts(party, owed)
            lines = [f"hxref -- game {engine.meta['game']}: a reminder for {who}.", "",
                     fill(f"{who[0].upper() + who[1:]} still owes {owes} for {w['decision']}"
                           + (f", {when}" if when else "") + f" ({w['prompt']})."),
                     f"Deadline: {local_time(w['deadline'], zone)} ({w['deadline']}); {_time_left(w['deadline'])}."]
            if cmd:
                lines += ["Send it with:", f"    {cmd}"]
            elif later:
                lines += ["Send it as soon as the others' files are in, with:", f"    {later}"]
            lines += ["", f"Still owed for {w['decision']}:"]
            for p, what in owing.items():
                c = party_command(engine, w, p, what, party)
                lines.append(f"  {p}: {owed_text(p, what)}")
                if c:
                    lines.append(f"    {c}")
            lines += ["", *claim_lines(engine, w, party, owed, zone)]
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
