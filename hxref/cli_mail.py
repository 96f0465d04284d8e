"""``hxref inbox`` and ``hxref outbox``: e-mail in and out.

The main command line registers :data:`inbox_cmd` and :data:`outbox_cmd`; everything here is a
thin shell over :mod:`hxref.mail`.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from .errors import InvalidInput


def _who(o) -> str:
    bits = [b for b in (f"from {o.sender}" if o.sender else "", f'"{o.subject}"' if o.subject else "") if b]
    return f"{o.source} ({', '.join(bits)})" if bits else o.source


@click.command("inbox")
@click.argument("target", metavar="GAME|DIR", type=click.Path())
@click.option("--maildir", default=None, type=click.Path(), help="read the messages of this Maildir "
              "(new/ and cur/); done/ and rejected/ go beside it")
@click.option("--mbox", default=None, type=click.Path(), help="read the messages of this mbox file "
              "(locked while read); done/ and rejected/ go beside it")
@click.option("--eml", "emls", multiple=True, type=click.Path(),
              help="an .eml file, or a folder of them (done/ and rejected/ go inside it); repeat for more")
@click.option("--archive", default=None, type=click.Path(file_okay=False),
              help="put done/ and rejected/ here instead")
@click.option("--key", "key_path", default=None, type=click.Path(dir_okay=False),
              help="your key (or its .pub): accept a new game that arrives by mail when this key is in it "
                   "(saved as GAME, or under its own name in DIR)")
@click.option("--no-resolve", is_flag=True, help="do not resolve open games as their files arrive")
@click.option("--dry-run", is_flag=True, help="check every message; store nothing, move nothing")
@click.option("--json", "as_json", is_flag=True, help="machine-readable result for scripts")
def inbox_cmd(target, maildir, mbox, emls, archive, key_path, no_resolve, dry_run, as_json):
    """Submit the order files found in e-mail messages to GAME, or to the games under DIR.

    \b
    An order file may be attached (.yaml, .yml, .txt or any text type; a
    NAME.sig beside it is its detached signature) or pasted into the body,
    plain or HTML; forwarded messages are searched too.  Each file goes to
    the game its `game:` names.  A message is taken whole or not at all;
    accepted ones move to done/, rejected ones to rejected/ with a .reason
    file.  Each accepted file prints its receipt: "pending" while it is
    kept for its open decision, with the head once its decision closes.

    \b
    Open games travel (each player keeps his own copy): files this copy
    holds already are skipped, not rejected; decisions resolve as soon as
    their files are in; an attached game file is taken only when it
    extends this copy (a fast-forward) and audits clean, else refused with
    both heads and the first event where they differ.  hxref's own report
    mails without files are left alone.  Exit status: 0 when no message
    was rejected, 1 when any was, 2 on a usage error.

    \b
    Examples:
      hxref inbox g.yaml --maildir ~/Maildir/.hxref
      hxref inbox tournament/ --mbox ~/mail/orders.mbox
      hxref inbox g.yaml --eml incoming/ --dry-run
      hxref inbox games/ --maildir ~/Maildir --key ~/.ssh/id_ed25519   (a new game arrives)
    """
    import sys

    from . import mail

    key = _inbox_key(target, maildir, mbox, emls, key_path)
    outcomes = mail.run_inbox(target, _inbox_source(maildir, mbox, emls, archive), dry_run=dry_run, key=key,
                              resolve=not no_resolve)
    accepted = [o for o in outcomes if o.accepted]
    rejected = [o for o in outcomes if o.rejected]
    alone = [o for o in outcomes if not o.accepted and not o.rejected]
    nxt = _next_waiting(accepted)
    if as_json:
        click.echo(json.dumps({"messages": [o.to_dict() for o in outcomes], "accepted": len(accepted),
                               "rejected": len(rejected), "left_alone": len(alone), "next": nxt}, indent=2))
        sys.exit(1 if rejected else 0)
    for o in outcomes:
        _echo_outcome(o)
    click.echo(_inbox_summary(outcomes, accepted, rejected, alone, dry_run))
    for game, text in nxt.items():
        click.echo(f"next: {game}: {text}")
    if rejected:
        click.echo(f"inbox: {len(rejected)} message{_s(len(rejected))} rejected: see the .reason "
                   "files beside them", err=True)
        sys.exit(1)


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
    from .signing import load_public_key

    return load_public_key(key_path)


def _inbox_source(maildir, mbox, emls, archive):
    """The mail source the one given option names."""
    from . import mail

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
        from .engine import Engine

        for g in touched:
            eng = Engine.load(g)
            nxt[eng.meta["game"]] = eng.waiting_text()
    return nxt


def _echo_outcome(o) -> None:
    """Print one message's outcome: its status and move, notes, receipts, skipped files, the decisions it
    resolved and, when not accepted, the reason."""
    where = f" -> {o.moved_to}" if o.moved_to else ""
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


def _inbox_summary(outcomes, accepted, rejected, alone, dry_run) -> str:
    """The inbox's summary line: messages, accepted (with their files), rejected, reports left alone."""
    files = sum(len(o.receipts) for o in accepted)
    skipped = sum(len(o.skipped) for o in accepted)
    verb = "would be " if dry_run else ""
    alone_text = f", {len(alone)} hxref report{_s(len(alone))} left alone" if alone else ""
    return (f"inbox: {len(outcomes)} message{_s(len(outcomes))}: {len(accepted)} {verb}accepted "
            f"({files} order file{_s(files)}"
            + (f", {skipped} held already" if skipped else "") + f"), {len(rejected)} {verb}rejected" + alone_text)


@click.command("outbox")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--addresses", default=None, type=click.Path(dir_okay=False),
              help="the address book (default: GAME's name with .addresses.yaml, e.g. g.addresses.yaml)")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="write the .eml files here (default: outbox/ beside GAME; with --smtp only if given)")
@click.option("--smtp", default=None, metavar="HOST[:PORT]", help="send through this SMTP server instead")
@click.option("--starttls", is_flag=True, help="switch to TLS with STARTTLS (port 587 by default)")
@click.option("--ssl", "use_ssl", is_flag=True, help="connect with TLS from the start (port 465 by default)")
@click.option("--smtp-user", default=None, help="log in as this user; the password is read from "
              "$HXREF_SMTP_PASSWORD")
@click.option("--from", "sender", default=None, help="the sender (default: the book's `from:`, else its "
              "`umpire:`, else hxref@localhost)")
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
def outbox_cmd(game, addresses, out_dir, smtp, starttls, use_ssl, smtp_user, sender, since, remind,
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
    game is over (--attach-game), for each side's own audit.

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
    from . import mail
    from .engine import Engine

    if starttls and use_ssl:
        raise InvalidInput("--starttls and --ssl exclude each other", code="E504")
    if (starttls or use_ssl or smtp_user) and not smtp:
        raise InvalidInput("--starttls, --ssl and --smtp-user go with --smtp HOST[:PORT]", code="E504")
    server = mail.parse_smtp(smtp) if smtp else None       # (host, port), checked before anything is sent
    eng = Engine.load(game)
    book = mail.load_address_book(addresses or mail.address_book_path(game), eng)
    missing: list[str] = []
    if remind is not None:
        messages = mail.reminder_messages(eng, book, within_hours=remind, sender=sender)
        if not messages:
            click.echo(f"outbox: nobody owes anything for a decision due within {remind:g} hours")
            return
    else:
        umpire_key = None
        if key_path:
            from .cli_options import private_key

            if eng.mode != "umpired":
                raise InvalidInput("--key: only an umpired game's mail carries views signed by the umpire",
                                   code="E504")
            umpire_key = private_key(key_path)
            eng.check_key("umpire", umpire_key)
        messages, missing = mail.outbox_messages(eng, book, sender=sender, since=since, files=not no_files,
                                                 attach_game=attach_game, templates=not no_templates,
                                                 encrypt=encrypt, umpire_key=umpire_key)
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
            files = f", {m['X-Hxref-Files']} file(s)" if m.get("X-Hxref-Files") else ""
            click.echo(f"sent to {audience} ({to[audience]}) through {smtp}: {len(m.as_bytes()):,} bytes{files}")
    click.echo(f"outbox: {len(messages)} message{'s' if len(messages) != 1 else ''} for game {eng.meta['game']}, "
               f"head {eng.gf.head[:16]} (event {len(eng.gf.log)})")
