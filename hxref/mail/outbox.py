"""The outbox (:func:`outbox_messages`): the mail of a game to each recipient, written or sent.

For each recipient in the game's address book (:mod:`hxref.mail.addresses`) a
``multipart/alternative`` message (:func:`compose`) with a plain-text and an HTML part: the receipts
of the files accepted since the last mail (:func:`recent_receipts`: those now pending for an open
decision, and those of the blocks appended since), the public report and that side's own report
(the umpire gets the umpire's report), who owes what (:mod:`hxref.mail.remind`), and the head hash.
They are written as ``.eml`` files (:func:`write_outbox`) or sent through SMTP (:func:`send`).
What an open game's mail carries so that each player's copy of the game travels is
:mod:`hxref.referee.bundle`'s.
"""
from __future__ import annotations

import hashlib
import os
import re
from email.message import EmailMessage, Message
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..base.errors import HxrefError, InvalidInput
from .addresses import AddressBook, _valid_address
from ..report.story import _pending_files, _written_against, last_mail_event  # noqa: F401  (mail.py re-exports it)

if TYPE_CHECKING:
    from ..report.turn import Report

# --- receipts -------------------------------------------------------------------------------------
#
# A file for an open decision is kept in the game's header (``pending``), outside the hash chain;
# when the decision closes, its files are appended as one block (``submission`` events, then the
# ``resolve`` and what it produced).  A mail gives the receipts of the files accepted since the
# last mail: the files pending now, and those of the blocks appended since.  Without --since, "the
# last mail" is the oldest head that the files of the current round were written against (a
# player writes against the head of the last mail or report it got): the pending files', or when
# nothing is pending, those of the last block.

def _produced_after(log: list[dict], i: int) -> int:
    from ..referee.engine import INPUT_KINDS

    j = i
    while j + 1 < len(log) and log[j + 1]["kind"] not in INPUT_KINDS:
        j += 1
    return j


def _block_end(log: list[dict], i: int) -> int:
    """The last event of the block holding the submission at ``i``: its ``resolve`` and what that
    produced (the head a receipt of a closed block names, as ``hxref submit`` printed it)."""
    j = i
    while j < len(log) and log[j]["kind"] in ("submission", "link"):
        j += 1
    return _produced_after(log, j if j < len(log) and log[j]["kind"] == "resolve" else i)


def _receipt(engine, log: list[dict], i: int):
    from ..referee.engine import Receipt

    d = log[i]["data"]
    j = _block_end(log, i)
    return Receipt(engine.meta["game"], d["decision"], d["side"], d["kind"], d["sha256"], log[j]["hash"], j + 1)


def pending_receipts(engine) -> list:
    """Receipts of the files kept for open decisions: each waits on top of the current head."""
    from ..referee.engine import Receipt

    head, seq = engine.gf.head, len(engine.gf.log)
    return [Receipt(engine.meta["game"], dec, f["party"], f["kind"], f["sha256"], head, seq, pending=True)
            for dec, f in _pending_files(engine)]


def recent_receipts(engine, since: int | None = None) -> list:
    """Receipts of the files accepted since the last mail: those of the blocks appended after event
    ``since`` (default: :func:`last_mail_event`), in log order, then those of the files pending now."""
    log = engine.gf.log
    since = last_mail_event(engine) if since is None else since
    logged = [_receipt(engine, log, i) for i, ev in enumerate(log) if ev["kind"] == "submission" and ev["seq"] > since]
    return logged + pending_receipts(engine)


def _resolved_last(engine) -> list[str]:
    """The decisions closed in the current round (the blocks after :func:`last_mail_event`; a
    withdrawal by consent closes no decision)."""
    since = last_mail_event(engine)
    out = [ev["data"]["decision"] for ev in engine.gf.log
           if ev["kind"] == "resolve" and ev["seq"] > since and not ev["data"].get("withdraw")]
    return list(dict.fromkeys(out))


def subject(engine, audience: str | None = None, zone: str | None = None) -> str:
    """The mail's subject, for its recipient: ``heartland-demo: your move: turn 2, impulse 3, due
    Sun 6 Dec 2026 07:00 EST``, or ``heartland-demo: waiting for confederate``, or ``... game over``
    (:func:`hxref.report.turn.headline`, without the grace: the mail's first line gives it)."""
    from ..report.turn import headline

    kind, line = headline(engine, audience, zone)
    text = {"over": "game over", "none": "nothing is awaited"}.get(kind)
    if text is None:
        text = line.split(" (then ")[0].split(" (and ")[0].rstrip(".")
        text = text[0].lower() + text[1:]
        if kind == "wait":
            text = text.split(": ")[0]
    return f"{engine.meta['game']}: {text}"


def _report_for(engine, audience: str, zone: str | None) -> Report:
    """The one report a recipient reads: his side's own (it holds everything public), or the
    umpire's; each tells the story since this reader last read.  In a game with hidden armies a
    side's own report is built on its own machine, from its own copy (``hxref report GAME --side
    S``): the mail carries the public report, with what the recipient owes."""
    from ..report import turn
    from ..report.story import default_since

    if audience == "umpire":
        return turn.build(engine, "umpire", zone=zone)
    if engine.fog:
        rep = turn.build(engine, None, default_since(engine, audience), zone=zone)
        rep.move = turn.move_lines(engine, audience, zone)
        rep.facts["move"] = rep.move
        rep.notices.append(f"A game with hidden armies: this is the public report. Your own (your army's "
                           f"boxes, your templates) comes from your own copy: hxref report "
                           f"{engine.gf.path.name} --side {audience}")
        return rep
    return turn.build(engine, audience, default_since(engine, audience), zone=zone)


def templates_for(engine, audience: str) -> list[tuple[str, str]]:
    """(name, text) of ``hxref template GAME --side AUDIENCE`` for each decision awaiting its answer
    or commitment now."""
    from ..referee.orders import skeleton

    out = []
    for w in engine.waiting_for():
        if w["owed"].get(audience) not in ("answer", "commit") or audience not in w["commands"]:
            continue
        try:
            text, _ = skeleton(engine, str(engine.gf.path), audience, w["decision"])
        except HxrefError:
            continue
        suffix = "txt" if w["owed"][audience] == "commit" else "yaml"
        out.append((f"{audience}-{w['decision']}-template.{suffix}", text))
    return out


#: the comment line of an umpired game's template that names the side's dice link for its decision
LINK_MARK = re.compile(r"^# dice link: index (\d+) of your chain", re.M)


def umpired_templates(engine, audience: str) -> list[tuple[str, str]]:
    """(name, text) of a template for each join, answer or commitment ``audience`` owes in an
    umpired game, where the player holds no game file: the envelope (game, identity, head, signed
    time, decision, side, kind) and the ``choice`` skeleton of the side's own view, and, where the
    decision takes the side's dice link in its file, the link's index in a comment line.  A join's
    template carries the game's first event too (``created``, packed: :func:`pack_created`), whose
    hash is the identity: ``hxref join --template`` shows what it signs from it and records the
    umpire's key, the one whose signed views (:mod:`hxref.report.side_view`) the player believes.
    ``hxref join/answer/commit --template FILE --key KEY`` write the signed files from it, an
    answer or commitment with the ``choice`` filled in there."""
    from ..referee import orders

    out = []
    for w in engine.waiting_for():
        kind = w["owed"].get(audience)
        if kind not in ("join", "answer", "commit"):
            continue
        dec = next(d for d in engine.awaiting if d.id == w["decision"])
        fields: dict = engine.envelope(audience, dec.id, kind)
        lines = [f"hxref template for game {engine.meta['game']}, decision {dec.id} ({audience}), "
                 "from the umpire's mail.", f"{dec.prompt} [rule {dec.rule}]" if dec.rule else dec.prompt, ""]
        if kind == "join":
            fields["created"] = pack_created(engine)
            lines += ["`created` is the game's first event (packed): hxref join checks that it is the game "
                      "this template names, shows what you sign, and keeps the umpire's key to check his "
                      "views of your side.",
                      "Then run\n  hxref join --template THIS_FILE --key YOUR_KEY\nand send the file it writes to "
                      "the umpire."]
        else:
            view = engine.system.view(engine.state, audience, engine.mode)
            tpl = engine.system.template(view, dec, audience)
            fields["choice"] = tpl.choice
            lines += [*tpl.notes, ""]
            cmd = "commit" if kind == "commit" else "answer"
            lines.append(f"Then: fill in `choice` below, save this file, and run\n"
                         f"  hxref {cmd} --template THIS_FILE --key YOUR_KEY\n"
                         "It checks your choice against your side's view (the -view.yaml file of the same "
                         "mail, kept beside this one), "
                         + ("puts in your dice link, " if audience in engine.dice_parties(dec)
                            and engine.links_in_answers(dec) else "")
                         + "signs, and writes the file to send: "
                         + ("the commitment now, the reveal once the umpire asks for it." if kind == "commit"
                            else "send it to the umpire. Run it again after a refusal: it replaces your "
                                 "earlier file."))
            if audience in engine.dice_parties(dec) and engine.links_in_answers(dec):
                lines += ["", f"dice link: index {engine.link_index(audience, dec)} of your chain (hxref "
                          f"{cmd} --template puts the link in)"]
        suffix = "txt" if kind == "commit" else "yaml"
        out.append((f"{audience}-{dec.id}-template.{suffix}", orders.render(fields, "\n".join(lines))))
    return out


def pack_created(engine) -> list[str]:
    """The game's first event (``game.created`` without its hash: the bytes whose sha256 is the
    identity), zlib-compressed, in base64, as lines of 64 characters."""
    import base64
    import zlib

    from ..base.canon import canonical_json

    first = {k: v for k, v in engine.gf.log[0].items() if k != "hash"}
    packed = base64.b64encode(zlib.compress(canonical_json(first), 9)).decode("ascii")
    return [packed[i:i + 64] for i in range(0, len(packed), 64)]


def compose(engine, audience: str, to: list[str], sender: str, receipts: list, zone: str | None = None,
            *, attachments: list | None = None, acknowledged: int | None = None,
            game_file: Path | None = None, templates: list[tuple[str, str]] | None = None,
            encrypt: bool = False) -> EmailMessage:
    """The message for one recipient: plain text and HTML alternatives with the same content, in
    the order he wants it (:class:`hxref.report.turn.Report`): what he owes, by when, in his time
    ``zone``, and the command; what the mail carries; the turn in brief; his map (inline in the HTML
    part as a PNG, attached as an SVG); the details; and a footer with the receipts, the head and the
    keys.  He reads one report: his side's own (the umpire's, for the umpire).  In open games the
    mail carries what the recipient needs to keep his own copy in step (:mod:`hxref.referee.bundle`):
    ``attachments`` (the signed files after the head he ``acknowledged``) or the ``game_file`` itself,
    and the ``templates`` of the answers he owes.  With ``encrypt`` his own report, his map and his
    templates go only as ``.age`` attachments encrypted to his key in the game (:mod:`hxref.crypto.crypt`),
    nothing of them in clear; the public report is the body."""
    from ..report import turn
    from ..report.mappng import png_size
    from ..report.turnmap import side_map

    attachments = attachments or []
    templates = templates or []
    rep = _report_for(engine, audience, zone)
    smap = side_map(engine, None if engine.fog and audience != "umpire" else audience, rep.facts.get("since"))
    sealed: list[tuple[str, bytes]] = []
    if encrypt:
        rep, sealed = _seal(engine, audience, rep, smap, templates, zone)
        templates, smap = [], None
    rep.attached = _carried(game_file, attachments, acknowledged, sealed, templates)
    rep.receipts = [r.line() for r in receipts] + ([_PENDING_NOTE] if any(r.pending for r in receipts) else [])
    if smap is not None:
        rep.map_note = (f"Your map is attached: {smap.name}.png (shown in the HTML part) and {smap.name}.svg "
                        "(open it in a browser to zoom in).")
    plain = turn.to_text(rep, turn.MAIL_WIDTH)
    html = turn.to_html(rep, map_cid=_MAP_CID if smap is not None else None,
                        map_width=png_size(smap.png)[0] if smap is not None else None)
    msg = EmailMessage()
    _headers(msg, engine, audience, to, sender, zone)
    msg.set_content(plain)
    msg.add_alternative(html, subtype="html")
    if smap is not None:        # the HTML part and its picture: multipart/related
        html_part = msg.get_body(("html",))
        assert isinstance(html_part, EmailMessage)
        html_part.add_related(smap.png, maintype="image", subtype="png", cid=f"<{_MAP_CID}>",
                              filename=f"{smap.name}.png")
    _attach(msg, attachments, game_file, templates, sealed, smap)
    return msg


#: the Content-ID of the map's PNG, which the HTML part shows with ``<img src="cid:...">``
_MAP_CID = "map@hxref.invalid"

_PENDING_NOTE = ("A pending file is kept for its open decision, outside the log; when the decision "
                 "closes, its files go into the log as one block, and the next mail gives their "
                 "receipts with the head of that block.")


def _seal(engine, audience: str, rep: Report, smap, templates: list[tuple[str, str]], zone: str | None
          ) -> tuple[Report, list[tuple[str, bytes]]]:
    """``--encrypt``: the recipient's own report (the umpire's, for the umpire), his map and his
    templates as ``.age`` attachments to his key; the report left in clear (the public report)."""
    from ..crypto import crypt
    from ..report import turn
    from ..report.story import default_since

    stem = "umpire" if audience == "umpire" else audience
    sealed = [(f"{stem}-report.txt.age", crypt.encrypt_report(engine, audience, turn.to_text(rep, turn.MAIL_WIDTH)))]
    if smap is not None:
        sealed.append((f"{smap.name}.svg.age", crypt.encrypt_report(engine, audience, smap.svg)))
    sealed += [(name + crypt.SUFFIX, crypt.encrypt_report(engine, audience, text)) for name, text in templates]
    clear = turn.build(engine, None, default_since(engine, audience if audience != "umpire" else None), zone=zone)
    clear.move = rep.move       # what the recipient owes is no secret to him, and he must read it first
    return clear, sealed


def _carried(game_file: Path | None, attachments: list, acknowledged: int | None,
             sealed: list[tuple[str, bytes]], templates: list[tuple[str, str]]) -> list[str]:
    """One line for each kind of file the mail carries: what it is and what to do with it."""
    carried = []
    if game_file is not None:
        carried.append(f"Attached: the game file {game_file.name}; `hxref inbox` takes it when it extends your "
                       "copy (or, with --key, as your new copy).")
    if attachments:
        since = f"after event {acknowledged}, the head your last file named" if acknowledged else "of the game"
        carried.append(f"Attached: {len(attachments)} signed file{'s' if len(attachments) != 1 else ''} {since} "
                       f"({', '.join(a.name for a in attachments)}); `hxref inbox` applies them to your copy.")
    if sealed:
        carried.append("Attached, encrypted to your key: " + ", ".join(n for n, _ in sealed) + "; open each with "
                       f"`hxref decrypt {sealed[0][0]} --key YOUR_KEY` (or `age -d -i YOUR_KEY {sealed[0][0]}`).")
    views = [n for n, _ in templates if n.endswith(VIEW_SUFFIX)]
    templates = [(n, t) for n, t in templates if not n.endswith(VIEW_SUFFIX)]
    commands = [(n, m[1]) for n, t in templates if (m := _TEMPLATE_COMMAND.search(t))]
    opened = [n[:-len(".age")] for n, _ in sealed]
    if any(n.endswith(VIEW_SUFFIX) for n in opened):      # umpired, sealed: the commands on the opened files
        views = [n for n in opened if n.endswith(VIEW_SUFFIX)]
        commands = [(n, _sealed_kind(n)) for n in opened if n.endswith(("-template.yaml", "-template.txt"))]
    if commands:            # umpired: the player holds no game file; each template names its command
        view = f" and your side's view signed by the umpire ({', '.join(views)})" if views else ""
        carried.append(f"Attached: your template{'s' if len(commands) > 1 else ''} "
                       f"({', '.join(n for n, _ in commands)}){view}. "
                       + ("Save them in one folder, fill in " if view or len(commands) > 1 else "Fill in ")
                       + "`choice` in the template, then run:")
        carried += [f"    hxref {kind} --template {name} --key YOUR_KEY" for name, kind in commands]
        carried.append("It checks your choice against the view, signs it and writes the file to mail to the "
                       "umpire." if views else "It signs your choice and writes the file to mail to the umpire.")
        if views and any(kind in ("answer", "commit") for _, kind in commands):
            carried.append("Or write it on a page in your browser, clicking on your map (the same checks; it "
                           "saves the same file):")
            carried.append(f"    hxref orders {views[0]} --key YOUR_KEY")
    elif templates:
        carried.append("Attached: your template" + ("s" if len(templates) > 1 else "") + " ("
                       + ", ".join(n for n, _ in templates) + "): fill in your choice there, then run the command "
                       "its `Then:` line names, and send the file that command writes.")
    elif views:
        carried.append(f"Attached: your side's view signed by the umpire ({', '.join(views)}): check your "
                       "files against it with hxref check YOUR_FILE --view THE_VIEW.")
    return carried


def _sealed_kind(name: str) -> str:
    """The command of an umpired game's template by its name (:func:`umpired_templates`)."""
    return "join" if name.endswith("-join-template.yaml") else "commit" if name.endswith(".txt") else "answer"


#: the command an umpired game's template names (:func:`umpired_templates`)
_TEMPLATE_COMMAND = re.compile(r"^#\s+hxref (answer|commit|join) --template THIS_FILE --key YOUR_KEY", re.M)
#: how the name of a side's signed view ends (:mod:`hxref.report.side_view`)
VIEW_SUFFIX = "-view.yaml"


def _headers(msg: EmailMessage, engine, audience: str, to: list[str], sender: str, zone: str | None = None) -> None:
    """From, To, Subject, Date, a Message-ID naming the head and the files it carries, and the
    ``X-Hxref-*`` headers the inbox and the outbox's file names read."""
    import datetime as _dt
    from email.utils import format_datetime

    from ..referee.engine import now_iso

    game, head = engine.meta["game"], engine.gf.head
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject(engine, audience, zone)
    when = _dt.datetime.fromisoformat(now_iso().replace("Z", "+00:00"))
    msg["Date"] = format_datetime(when if when.tzinfo else when.replace(tzinfo=_dt.timezone.utc), usegmt=True)
    safe = re.sub(r"[^A-Za-z0-9.-]", "-", f"{game}.{audience}")
    carried_id = hashlib.sha256("".join(sorted(f["sha256"] for _, f in _pending_files(engine))).encode()).hexdigest()
    msg["Message-ID"] = f"<{head[:32]}.{carried_id[:8]}.{safe}@hxref.invalid>"
    msg["X-Hxref-Game"] = game
    msg["X-Hxref-Head"] = head
    msg["X-Hxref-Event"] = str(len(engine.gf.log))
    msg["X-Hxref-Audience"] = audience


def _attach(msg: EmailMessage, attachments: list, game_file: Path | None, templates: list[tuple[str, str]],
            sealed: list[tuple[str, bytes]], smap=None) -> None:
    """The files the mail carries, after its two alternatives (the inbox reads them back), and the
    recipient's map as an SVG picture to zoom in (as 7-bit text when it is ASCII in short lines,
    as it is written: base64 would make it a third larger)."""
    if smap is not None:
        plain = smap.svg.isascii() and max(map(len, smap.svg.splitlines() or [""])) < 990
        msg.add_attachment(smap.svg, subtype="svg+xml", cte="7bit" if plain else "base64", filename=f"{smap.name}.svg")
        part = _last_part(msg)
        part.set_type("image/svg+xml")
        part["X-Hxref-Part"] = "map"
    if game_file is not None:
        msg.add_attachment(game_file.read_bytes(), maintype="application", subtype="yaml", filename=game_file.name)
    for a in attachments:
        msg.add_attachment(a.text.encode("utf-8"), maintype="application", subtype="yaml", filename=a.name)
        if a.sig:
            msg.add_attachment(a.sig.encode("utf-8"), maintype="application", subtype="octet-stream",
                               filename=a.name + ".sig")
    for name, text in templates:
        msg.add_attachment(text, subtype="plain", filename=name)
        _last_part(msg)["X-Hxref-Part"] = "view" if name.endswith(VIEW_SUFFIX) else "template"
    for name, data in sealed:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
        _last_part(msg)["X-Hxref-Part"] = "encrypted"
    if attachments or game_file is not None:
        msg["X-Hxref-Files"] = str(len(attachments)) + (" +game" if game_file is not None else "")


def _last_part(msg: EmailMessage) -> Message:
    """The part just attached (a message with attachments is multipart: its payload is a list)."""
    parts = msg.get_payload()
    assert isinstance(parts, list) and isinstance(parts[-1], Message)
    return parts[-1]



def outbox_messages(engine, book: AddressBook, *, sender: str | None = None, since: int | None = None,
                    files: bool = True, attach_game: bool = False, templates: bool = True,
                    encrypt: bool = False, copy_to_me: bool = False, umpire_key=None
                    ) -> tuple[list[tuple[str, EmailMessage]], list[str]]:
    """(audience, message) for every recipient in the book, and the sides the book has no address for.

    The sender's own address is left out of every recipient's addresses (a recipient with no other
    address gets no mail: the sender has his copy of the game), unless ``copy_to_me``.

    In open games each side's mail carries what it may lack (:mod:`hxref.referee.bundle`; ``files``): the
    signed files after the head it acknowledged, or the game file itself when it has signed nothing
    in the game yet, or always with ``attach_game`` (the "one host holds the file" flow); and the
    templates of the answers it owes (``templates``).  In umpired games a side's mail attaches the
    templates of what it owes, with the envelope (:func:`umpired_templates`: the player holds no
    game file) and, with the ``umpire_key``, the side's view signed by it
    (:mod:`hxref.report.side_view`: what the player checks his orders against at home), and, once
    the game is over, the game file with ``attach_game``; ``encrypt`` sends each recipient's own
    report, templates and view encrypted to his key (:func:`compose`)."""
    if encrypt and engine.mode == "solo":
        raise InvalidInput("--encrypt: a solo game has no keys to encrypt to", code="E504")
    if attach_game and engine.mode not in ("open", "fog") and not (engine.mode == "umpired" and engine.finished):
        raise InvalidInput(f"--attach-game: only an open game file (or a public one of a game with hidden armies) "
                           f"travels, or an umpired one once the game is over (this game is {engine.mode}: its "
                           "file holds what the sides may not see)",
                           code="E504")
    receipts = recent_receipts(engine, since)
    frm = sender or book.sender or (book.recipients.get("umpire") or ["hxref <hxref@localhost>"])[0]
    if _valid_address(frm) is None:
        raise InvalidInput(f"not an e-mail address: {frm!r}", code="E504")
    own = (_valid_address(frm) or "").lower()
    out = []
    for audience in [*engine.sides(), "umpire"]:
        to = [a for a in book.recipients.get(audience, [])
              if copy_to_me or (_valid_address(a) or "").lower() != own]
        if not to:
            continue
        extra = _carried_for(engine, audience, files=files, attach_game=attach_game, templates=templates,
                             umpire_key=umpire_key)
        out.append((audience, compose(engine, audience, to, frm, receipts,
                                      book.timezones.get(audience), encrypt=encrypt, **extra)))
    missing = [s for s in engine.sides() if s not in book.recipients]
    if not out and not any(a in book.recipients for a in [*engine.sides(), "umpire"]):
        raise InvalidInput("the address book names nobody to mail", code="E111", file=str(book.path))
    return out, missing


def _carried_for(engine, audience: str, *, files: bool, attach_game: bool, templates: bool,
                 umpire_key=None) -> dict:
    """What a side's mail carries besides the reports (:func:`compose`'s keyword arguments): in open
    games its templates and the signed files it lacks, or the game file; in umpired games its
    templates and, with the ``umpire_key``, its view signed by the umpire while it owes a file
    (they go as templates do: encrypted with --encrypt), and the game file once the game is over
    (``attach_game``)."""
    from ..referee import bundle
    from ..report import side_view

    extra: dict = {}
    if engine.mode in ("open", "fog") and audience != "umpire":
        if templates and not engine.fog:    # in a fog game, from the side's own copy: `hxref template`
            extra["templates"] = templates_for(engine, audience)
        if files or attach_game:
            ack, atts = bundle.files_for(engine, audience)
            if attach_game or ack == 0:
                extra["game_file"] = engine.gf.path
            else:
                extra.update(attachments=atts, acknowledged=ack)
    elif engine.mode == "umpired" and audience != "umpire":
        if templates:
            extra["templates"] = umpired_templates(engine, audience)
        if umpire_key is not None and not engine.finished and side_view.owed(engine, audience):
            extra["templates"] = [*extra.get("templates", []), (side_view.file_name(engine, audience),
                                                                side_view.build(engine, audience, umpire_key))]
        if attach_game:         # the game is over: the umpire publishes the file for every side's audit
            extra["game_file"] = engine.gf.path
    return extra


def outbox_name(msg: EmailMessage) -> str:
    game = re.sub(r"[^A-Za-z0-9._-]", "-", msg["X-Hxref-Game"])
    carried = str(msg.get("Message-ID", "")).split(".")
    tag = f"-{carried[1]}" if len(carried) > 2 and re.fullmatch(r"[0-9a-f]{8}", carried[1]) else ""
    return f"{game}-{msg['X-Hxref-Head'][:12]}{tag}-{msg['X-Hxref-Audience']}.eml"


def write_outbox(messages: list[tuple[str, EmailMessage]], folder: str | Path,
                 name: Callable[[EmailMessage], str] | None = None) -> list[Path]:
    """Write each message as a ready ``.eml`` file (``X-Unsent: 1``: mail clients open it as a draft),
    named by ``name`` (default :func:`outbox_name`)."""
    from ..base.files import atomic_write

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for _, msg in messages:
        msg["X-Unsent"] = "1"
        try:
            data = msg.as_bytes()
        finally:
            del msg["X-Unsent"]
        path = folder / (name or outbox_name)(msg)
        atomic_write(path, data)
        paths.append(path)
    return paths


def parse_smtp(spec: str) -> tuple[str, int | None]:
    host, _, port = spec.rpartition(":") if ":" in spec and not spec.endswith("]") else (spec, "", "")
    host = host.strip("[]")
    if not host or (port and not port.isdigit()):
        raise InvalidInput(f"--smtp {spec!r}: give HOST or HOST:PORT, e.g. smtp.example.org:587", code="E504")
    return host, int(port) if port else None


def send(messages: list[tuple[str, EmailMessage]], host: str, port: int | None = None, *,
         starttls: bool = False, use_ssl: bool = False, user: str | None = None,
         password: str | None = None, timeout: float = 30.0) -> int:
    """Send every message through one SMTP connection; raise an HxrefError naming the server if it fails."""
    import smtplib
    import ssl

    port = port or (465 if use_ssl else 587 if starttls else 25)
    where = f"{host}:{port}"
    sent = 0
    if user and password is None:
        password = os.environ.get("HXREF_SMTP_PASSWORD")
        if password is None:
            raise InvalidInput("--smtp-user needs the password in $HXREF_SMTP_PASSWORD", code="E504")
    try:
        context = ssl.create_default_context()
        server = (smtplib.SMTP_SSL(host, port, timeout=timeout, context=context) if use_ssl
                  else smtplib.SMTP(host, port, timeout=timeout))
        with server:
            if starttls:
                server.starttls(context=context)
            if user:
                assert password is not None     # given, or from $HXREF_SMTP_PASSWORD (checked above)
                server.login(user, password)
            for _, msg in messages:
                server.send_message(msg)
                sent += 1
    except smtplib.SMTPAuthenticationError as exc:
        raise InvalidInput(f"cannot send through {where}: the server refused the login of {user!r} "
                           f"({exc.smtp_code} {_smtp_text(exc.smtp_error)})", code="E504") from None
    except (OSError, smtplib.SMTPException) as exc:
        done = f" after {sent} of {len(messages)} messages" if sent else ""
        raise InvalidInput(f"cannot send through {where}{done}: {_smtp_error(exc)}", code="E504") from None
    return sent


def _smtp_text(data) -> str:
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)


def _smtp_error(exc: Exception) -> str:
    code = getattr(exc, "smtp_code", None)
    if code is not None:
        return f"{code} {_smtp_text(getattr(exc, 'smtp_error', ''))}".strip()
    recipients = getattr(exc, "recipients", None)
    if recipients:
        return "; ".join(f"{r}: {c} {_smtp_text(e)}" for r, (c, e) in recipients.items())
    return str(exc) or exc.__class__.__name__
