"""``hxref inbox`` and ``hxref outbox``: e-mail in and out.

The main command line registers :data:`inbox_cmd` and :data:`outbox_cmd`; everything here is a
thin shell over :mod:`hxref.mail`.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..base.errors import InvalidInput


def _who(o) -> str:
    bits = [b for b in (f"from {o.sender}" if o.sender else "", f'"{o.subject}"' if o.subject else "") if b]
    return f"{o.source} ({', '.join(bits)})" if bits else o.source


def _smtp_options(f):
    """The SMTP options the inbox (its refusals) and the outbox share."""
    for opt in reversed([
        click.option("--smtp", default=None, metavar="HOST[:PORT]", help="send through this SMTP server"),
        click.option("--starttls", is_flag=True, help="switch to TLS with STARTTLS (port 587 by default)"),
        click.option("--ssl", "use_ssl", is_flag=True, help="connect with TLS from the start (port 465 by default)"),
        click.option("--smtp-user", default=None, help="log in as this user; the password is read from "
                     "$HXREF_SMTP_PASSWORD"),
    ]):
        f = opt(f)
    return f


def _check_smtp(smtp, starttls, use_ssl, smtp_user):
    """(host, port) of --smtp, checked before anything is read or sent; None without it."""
    from .. import mail

    if starttls and use_ssl:
        raise InvalidInput("--starttls and --ssl exclude each other", code="E504")
    if (starttls or use_ssl or smtp_user) and not smtp:
        raise InvalidInput("--starttls, --ssl and --smtp-user go with --smtp HOST[:PORT]", code="E504")
    return mail.parse_smtp(smtp) if smtp else None


@click.command("inbox")
@click.argument("target", metavar="GAME|DIR", type=click.Path())
@click.option("--maildir", default=None, type=click.Path(), help="read the messages of this Maildir "
              "(new/ and cur/; none is moved, renamed or flagged)")
@click.option("--mbox", default=None, type=click.Path(), help="read the messages of this mbox file "
              "(locked while read, never rewritten)")
@click.option("--eml", "emls", multiple=True, type=click.Path(),
              help="an .eml file, or a folder of them; repeat for more")
@click.option("--archive", default=None, type=click.Path(file_okay=False),
              help="also keep a copy of each message processed here: done/, and rejected/ with a .reason file")
@click.option("--key", "key_path", default=None, type=click.Path(dir_okay=False),
              help="your key (or its .pub): accept a new game that arrives by mail when this key is in it "
                   "(saved as GAME, or under its own name in DIR)")
@click.option("--addresses", default=None, type=click.Path(dir_okay=False),
              help="the address book refusals are answered from (default: each game's GAME.addresses.yaml)")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="write the refusals here as .eml files (default: outbox/ beside GAME, or in DIR; with "
                   "--smtp only if given)")
@_smtp_options
@click.option("--from", "sender", default=None, help="the sender of the refusals (default: the book's `from:`, "
              "else its `umpire:`, else hxref@localhost)")
@click.option("--no-resolve", is_flag=True, help="do not resolve open games as their files arrive")
@click.option("--dry-run", is_flag=True, help="check every message; store, answer and record nothing")
@click.option("--json", "as_json", is_flag=True, help="machine-readable result for scripts")
def inbox_cmd(target, maildir, mbox, emls, archive, key_path, addresses, out_dir, smtp, starttls, use_ssl,
              smtp_user, sender, no_resolve, dry_run, as_json):
    """Submit the hxref files found in e-mail messages to GAME, or to the games under DIR.

    \b
    Only messages that carry hxref files (order files, game files) are
    acted on; every other message (a friend's mail, a key, an hxref report)
    is left where it is, untouched, and so is a message whose files are for
    games not here.  Nothing is removed, moved or flagged in the mailbox: a
    message once processed is remembered by its digest in this machine's
    record ($HXREF_HOME/inbox/processed) and passed by on later runs.  It
    is safe on a whole mailbox; a folder of its own is tidier.

    \b
    An order file may be attached (.yaml, .yml, .txt or any text type; a
    NAME.sig beside it is its detached signature) or pasted into the body,
    plain or HTML; forwarded messages are searched too.  Each file goes to
    the game its `game:` names.  A message is taken whole or not at all.
    Each accepted file prints its receipt: "pending" while it is kept for
    its open decision, with the head once its decision closes.

    \b
    A refused message is answered with a short mail: the file's name, the
    reason and what to do.  It goes to the address book's address of the
    side whose key signed the file, never to the From: of the message;
    when no side's signature verifies, to the From: address, with a reason
    read from the file alone.  Mail sent by a program (Auto-Submitted) is
    never answered.  Refusals are sent with --smtp, else written to --out
    (outbox/ by default); without an address book they are only printed.

    \b
    Open games travel (each player keeps his own copy): files this copy
    holds already are skipped, not rejected; decisions resolve as soon as
    their files are in; an attached game file is taken only when it
    extends this copy (a fast-forward) and audits clean, else refused with
    both heads and the first event where they differ.  So do games with
    hidden armies: what a decision makes public needs no side's own file.  Exit status: 0 when
    no message was rejected, 1 when any was, 2 on a usage error.

    \b
    Examples:
      hxref inbox g.yaml --maildir ~/Maildir/.hxref --smtp smtp.example.org
      hxref inbox tournament/ --mbox ~/mail/orders.mbox
      hxref inbox g.yaml --eml incoming/ --dry-run
      hxref inbox games/ --maildir ~/Maildir --key ~/.ssh/id_ed25519
                                          (a new game arrives)
    """
    import sys

    from .. import mail

    server = _check_smtp(smtp, starttls, use_ssl, smtp_user)
    key = _inbox_key(target, maildir, mbox, emls, key_path)
    if out_dir is None and server is None:
        out_dir = str((Path(target) if Path(target).is_dir() else Path(target).parent) / "outbox")
    answer = _Answer(target, addresses, sender, out_dir, server, dict(starttls=starttls, use_ssl=use_ssl,
                                                                     user=smtp_user), smtp, dry_run)
    run = mail.run_inbox(target, _inbox_source(maildir, mbox, emls, archive), dry_run=dry_run, key=key,
                         resolve=not no_resolve, answer=answer)
    outcomes = run.outcomes
    accepted = [o for o in outcomes if o.accepted]
    rejected = [o for o in outcomes if o.rejected]
    nxt = _next_waiting(accepted)
    if as_json:
        click.echo(json.dumps({"messages": [o.to_dict() for o in outcomes], "accepted": len(accepted),
                               "rejected": len(rejected), "left_alone": run.left_alone,
                               "processed_before": run.before, "next": nxt}, indent=2))
        sys.exit(1 if rejected else 0)
    for o in outcomes:
        _echo_outcome(o, answer.done.get(o.digest))
    click.echo(_inbox_summary(run, accepted, rejected, dry_run))
    for game, text in nxt.items():
        click.echo(f"next: {game}: {text}")
    if rejected:
        click.echo(f"inbox: {len(rejected)} message{_s(len(rejected))} rejected: each refusal above says why "
                   "and to whom it was answered", err=True)
        sys.exit(1)


class _Answer:
    """The inbox's answer to each refused message (:func:`hxref.mail.refusal_for`), sent through
    --smtp or written to --out as soon as it is known, before the message is recorded as processed."""

    def __init__(self, target, addresses, sender, out_dir, server, smtp_kw, smtp, dry_run):
        self.target, self.addresses, self.sender = Path(target), addresses, sender
        self.out_dir, self.server, self.smtp_kw, self.smtp, self.dry_run = out_dir, server, smtp_kw, smtp, dry_run
        self.done: dict[str, str] = {}          # message digest -> what became of its refusal (a line)

    def _game(self, res):
        from ..referee.engine import Engine
        from ..base.errors import HxrefError

        path = res.game_path or (self.target if self.target.is_file() else None)
        if path is None:
            return None, None, "no game here that its file names: not answered"
        eng = Engine.load(path)
        try:
            book = mail_book(self.addresses, path, eng)
        except HxrefError as exc:
            return eng, None, exc.render()
        return eng, book, None

    def __call__(self, o, msg, res):
        from .. import mail

        eng, book, why = self._game(res)
        if eng is None:
            self.done[o.digest] = why
            return why
        frm = self.sender or (book.sender if book else None) or \
            ((book.recipients.get("umpire") if book else None) or ["hxref <hxref@localhost>"])[0]
        ref = mail.refusal_for(res, msg, book, frm, eng.meta["game"])
        whom = f"{ref.audience}'s address, who signed it" if ref.audience != "sender" else "the sender"
        if ref.message is None:
            self.done[o.digest] = f"not answered: {why or ref.not_sent}"
            return ref
        to = ", ".join(ref.to)
        if self.dry_run:
            self.done[o.digest] = f"would be answered to {to} ({whom})"
            return ref
        lines = []
        if self.out_dir is not None:
            [path] = mail.write_outbox([(ref.audience, ref.message)], self.out_dir, name=mail.refusal_name)
            lines.append(f"answered to {to} ({whom}): written to {path}")
        if self.server is not None:
            mail.send([(ref.audience, ref.message)], *self.server, **self.smtp_kw)
            lines.append(f"answered to {to} ({whom}): sent through {self.smtp}")
        self.done[o.digest] = "; ".join(lines)
        return ref


def mail_book(addresses, game, eng):
    """The address book of ``game``: --addresses, else GAME.addresses.yaml beside it."""
    from .. import mail

    return mail.load_address_book(addresses or mail.address_book_path(game), eng)


def _s(n: int) -> str:
    """The plural ending of a count in the inbox's lines."""
    return "s" if n != 1 else ""


def _inbox_key(target, maildir, mbox, emls, key_path):
    """Check the usage (exactly one mail source; a TARGET that exists, or a new game's path with
    --key) and load the key that lets a new game in, if given."""
    given = [x for x in (maildir, mbox, emls) if x]
    if len(given) != 1:
        raise InvalidInput("say where the mail is: one of --maildir PATH, --mbox FILE, --eml FILE|DIR",
                           code="E504")
    tpath = Path(target)
    if not tpath.exists() and (key_path is None or tpath.suffix not in (".yaml", ".yml")):
        raise InvalidInput("no such game file or folder" + ("; to receive a new game, give --key YOUR_KEY and "
                           "a GAME.yaml path or a folder" if key_path is None else ""), code="E100", file=target)
    if not key_path:
        return None
    from ..crypto.signing import load_public_key

    return load_public_key(key_path)


def _inbox_source(maildir, mbox, emls, archive):
    """The mail source the one given option names."""
    from .. import mail

    if maildir:
        return mail.MaildirSource(maildir, archive)
    if mbox:
        return mail.MboxSource(mbox, archive)
    return mail.EmlSource(emls, archive)


def _next_waiting(accepted) -> dict:
    """What each game an accepted message touched waits for now, by the game's name."""
    nxt = {}
    touched = sorted({g for o in accepted for g in o.games})
    if touched:
        from ..referee.engine import Engine

        for g in touched:
            eng = Engine.load(g)
            nxt[eng.meta["game"]] = eng.waiting_text()
    return nxt


def _echo_outcome(o, answered: str | None = None) -> None:
    """Print one message's outcome: its status, notes, receipts, skipped files, the decisions it
    resolved and, when not accepted, the reason and what became of its answer."""
    where = f" (a copy in {o.archived})" if o.archived else ""
    click.echo(f"{_who(o)}: {o.status}{where}")
    for n in o.notes:
        click.echo(f"  {n}")
    for r in o.receipts:
        click.echo(f"  {r.line()}")
    if o.skipped:
        click.echo(f"  held already (skipped): {', '.join(o.skipped)}")
    for _, decision, head in o.resolved:
        click.echo(f"  resolved {decision}: head {head}")
    if o.reason and not o.accepted:
        click.echo(f"  {o.reason}")
    if answered:
        click.echo(f"  {answered}")


def _inbox_summary(run, accepted, rejected, dry_run) -> str:
    """The inbox's summary line: messages with hxref files, accepted (with their files), rejected;
    the messages left alone, and those processed on an earlier run."""
    files = sum(len(o.receipts) for o in accepted)
    skipped = sum(len(o.skipped) for o in accepted)
    verb = "would be " if dry_run else ""
    n = len(run.outcomes)
    rest = (f"; {run.left_alone} left alone (no hxref file for a game here)" if run.left_alone else "") + \
        (f"; {run.before} processed before" if run.before else "")
    return (f"inbox: {n} message{_s(n)} with hxref files: {len(accepted)} {verb}accepted "
            f"({files} order file{_s(files)}"
            + (f", {skipped} held already" if skipped else "") + f"), {len(rejected)} {verb}rejected" + rest)


@click.command("outbox")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--addresses", default=None, type=click.Path(dir_okay=False),
              help="the address book (default: GAME's name with .addresses.yaml, e.g. g.addresses.yaml)")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="write the .eml files here (default: outbox/ beside GAME; with --smtp only if given)")
@_smtp_options
@click.option("--from", "sender", default=None, help="the sender (default: the book's `from:`, else its "
              "`umpire:`, else hxref@localhost)")
@click.option("--copy-to-me", is_flag=True, help="mail the sender's own address too (by default a recipient "
              "whose address is the sender's gets no mail: he has the game)")
@click.option("--since", default=None, type=int, metavar="EVENT",
              help="mail the receipts of the files pending now and of every block appended after this event "
                   "number, e.g. the event of the last mail's head (default: since the oldest head the "
                   "current round's files were written against)")
@click.option("--remind", default=None, type=float, metavar="HOURS",
              help="instead, remind every party that owes anything (an answer, commitment, reveal or dice "
                   "link; the umpire's resolution) for a decision due within HOURS, with the command to "
                   "send it and who may claim the deadline after its grace (deadlines in the party's own "
                   "time zone: `tz: {side: Europe/Berlin}` in the address book)")
@click.option("--attach-game", is_flag=True, help="open games: attach the game file itself to every side's mail "
              "(the \"one host holds the file\" flow) instead of the signed files it may lack")
@click.option("--no-files", is_flag=True, help="open games: attach no signed files (nor the game file)")
@click.option("--no-templates", is_flag=True, help="attach no templates (`hxref template` skeletons; in "
              "umpired games with the envelope, for `hxref answer/commit/join --template`)")
@click.option("--encrypt", is_flag=True, help="send each recipient's own report (and templates) only as .age "
              "attachments encrypted to his key in the game (hxref decrypt, or age -d); the public report "
              "stays in clear")
@click.option("--key", "key_path", default=None,
              help="umpired games: the umpire's key; each side's mail then carries its view signed with it "
                   "(SIDE-DECISION-view.yaml), which the player checks his orders against at home")
def outbox_cmd(game, addresses, out_dir, smtp, starttls, use_ssl, smtp_user, sender, copy_to_me, since, remind,
               attach_game, no_files, no_templates, encrypt, key_path):
    """Write, or send, each recipient's mail: the reports, the receipts and the head hash.

    \b
    Every mail names each party that owes anything, with the exact command
    and the deadline in the recipient's time zone.  In open games each
    player keeps his own copy, and a side's mail carries what its copy may
    lack: the signed files after the newest head its own files named (the
    game file itself while it has signed nothing in the game yet, or always
    with --attach-game), and the template of each answer it owes.  In
    umpired games the players hold no game file: a side's mail attaches the
    template of each join, answer or commitment it owes with the envelope
    (hxref join/answer/commit --template FILE), and the game file once the
    game is over (--attach-game), for each side's own audit.  A game with
    hidden armies (--mode fog) travels as an open one does, its public file
    and signed files only, never a side's own file (GAME.SIDE.own.yaml);
    each side's mail carries the public report, built from the public
    copy: its own report comes from its own copy (hxref report --side).

    \b
    Each side in GAME's address book gets the public report and its own
    report, the umpire (if listed) the umpire's report, all with the
    receipts of the files accepted since the last mail (those pending for
    an open decision, and those of the decisions closed since) and the head
    hash, as plain text and HTML.  The address book, GAME.addresses.yaml:
      union: Alice Player <alice@example.org>
      confederate: [bob@example.org, bob@work.example]
      umpire: referee@example.org       (optional)
      from: referee@example.org         (optional: the sender)

    \b
    Examples:
      hxref outbox g.yaml                        (writes outbox/*.eml)
      hxref outbox g.yaml --smtp smtp.example.org:587 --starttls --smtp-user ref
      hxref outbox g.yaml --remind 24            (reminders of deadlines within a day)
      hxref outbox g.yaml --smtp HOST --encrypt --key umpire
          (umpired: each side's report, templates and signed view, .age files)
    """
    from .. import mail
    from ..referee.engine import Engine

    server = _check_smtp(smtp, starttls, use_ssl, smtp_user)
    eng = Engine.load(game)
    book = mail_book(addresses, game, eng)
    missing: list[str] = []
    if remind is not None:
        messages = mail.reminder_messages(eng, book, within_hours=remind, sender=sender)
        if not messages:
            click.echo(f"outbox: nobody owes anything for a decision due within {remind:g} hours")
            return
    else:
        umpire_key = None
        if key_path:
            from .options import private_key

            if eng.mode != "umpired":
                raise InvalidInput("--key: only an umpired game's mail carries views signed by the umpire",
                                   code="E504")
            umpire_key = private_key(key_path)
            eng.check_key("umpire", umpire_key)
        messages, missing = mail.outbox_messages(eng, book, sender=sender, since=since, files=not no_files,
                                                 attach_game=attach_game, templates=not no_templates,
                                                 encrypt=encrypt, copy_to_me=copy_to_me, umpire_key=umpire_key)
        mailed = {a for a, _ in messages}
        for audience in (a for a in book.recipients if a not in mailed):
            click.echo(f"note: {audience} is your own address: no copy to yourself (--copy-to-me sends one)")
    for side in missing:
        click.echo(f"note: no address for {side} in {book.path}: not mailed", err=True)
    to = {a: str(m["To"]) for a, m in messages}
    if out_dir or not smtp:
        folder = Path(out_dir) if out_dir else Path(game).parent / "outbox"
        for (audience, _), path in zip(messages, mail.write_outbox(messages, folder)):
            click.echo(f"wrote {path} for {audience} ({to[audience]})")
    if server is not None:
        mail.send(messages, *server, starttls=starttls, use_ssl=use_ssl, user=smtp_user)
        for audience, m in messages:
            files = _files_carried(m.get("X-Hxref-Files"))
            click.echo(f"sent to {audience} ({to[audience]}) through {smtp}: {len(m.as_bytes()):,} bytes{files}")
    if not messages:
        click.echo("outbox: nobody to mail (every address in the book is your own; --copy-to-me sends it)")
    click.echo(f"outbox: {len(messages)} message{'s' if len(messages) != 1 else ''} for game {eng.meta['game']}, "
               f"head {eng.gf.head[:16]} (event {len(eng.gf.log)})")


def _files_carried(header: str | None) -> str:
    """What a sent mail carries, from its X-Hxref-Files header ("2", "0 +game"): ", 2 signed files",
    ", the game file"."""
    if not header:
        return ""
    count, _, game = str(header).partition("+")
    n = int(count.strip() or 0)
    bits = ([f"{n} signed file{_s(n)}"] if n else []) + (["the game file"] if game.strip() else [])
    return ", " + " and ".join(bits) if bits else ""
