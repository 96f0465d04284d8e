"""``hxref orders``: the order page (:mod:`hxref.desk`) for one side of one game, served on the
loopback and opened in the browser; what it saves is written by the code of ``hxref answer`` and
``hxref commit`` (:mod:`hxref.cli.files`)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from .options import SIDE_HELP, check_side, load_game, private_key
from ..base.errors import InvalidInput


def _key(path: str) -> Any:
    """The key, as every command loads it (a passphrase from $HXREF_PASSPHRASE); a key protected by
    a passphrase that is not there asks for it here, in the terminal, never in the page."""
    from ..crypto.signing import load_private_key, needs_passphrase

    if not needs_passphrase(path):
        return private_key(path)
    secret = click.prompt(f"passphrase of {path}", hide_input=True, err=True)
    return load_private_key(os.path.expanduser(path), secret.encode("utf-8"))


def _game_session(game: str, side: str | None, key: Any, folder: Path) -> Any:
    """The desk of ``side`` in the open game ``game``: it saves as ``hxref answer/commit GAME`` do,
    on the game as it is when the player saves."""
    from . import files
    from ..desk.session import Session

    if not side:
        raise InvalidInput("--side is needed with a game file (the side you play)", code="E504", file=game)
    eng = load_game(game)
    check_side(eng, side)
    if eng.mode != "open":
        raise InvalidInput(f"this is {'a solo' if eng.mode == 'solo' else 'an umpired'} game: the order page is for "
                           "an open game's player (GAME) or an umpired game's player (the view his mail carries)",
                           code="E504", file=game)
    eng.check_key(side, key)

    def saver_for(dec: Any):
        def save(choice: dict) -> list[Path]:
            now = load_game(game)
            d = now.open_decision_for(side, dec.id, ("commit",) if dec.secret else ("answer",))
            if dec.secret:
                return list(files.commit_in_game(now, side, key, d, choice, folder))
            return [files.answer_in_game(now, side, key, d, choice, folder)]
        return save

    return Session.of_game(eng, side, saver_for, _mailer(game))


def _mailer(game: str) -> Any:
    """"Save and mail" in an open game with an address book (GAME.addresses.yaml): the saved file
    (the answer, or the commitment: a reveal is kept) submitted to the game as `hxref submit` does,
    then each recipient's mail written to outbox/ beside the game as `hxref outbox GAME` writes it;
    None without an address book (the page then has no such button)."""
    from .. import mail

    book_path = mail.address_book_path(game)
    if not book_path.is_file():
        return None

    def send(paths: list[Path]) -> list[str]:
        from ..base import yamlio
        from ..gamefile.game import locked

        sent = paths[0]
        with locked(game):
            eng = load_game(game)
            receipt = eng.submit(yamlio.read_text(str(sent)), sent.name, None)
            eng.save()
        book = mail.load_address_book(book_path, eng)
        messages, _missing = mail.outbox_messages(eng, book)
        written = mail.write_outbox(messages, Path(game).parent / "outbox")
        return [receipt.line(), *(f"wrote {p.name} for {a}" for (a, _), p in zip(messages, written)),
                f"send them: hxref outbox {Path(game).name} --smtp HOST (or open them in your mail client)"]
    return send


def _view_session(view: str, side: str | None, key: Any, folder: Path) -> Any:
    """The desk of an umpired game's side from the umpire-signed view ``view``: it saves as
    ``hxref answer/commit --template`` do, from the template the same mail carries beside it."""
    from . import files
    from ..desk.session import Session
    from ..report import side_view

    sv = side_view.read(view)
    if side and side != sv.side:
        raise InvalidInput(f"this view is {sv.side}'s, not {side}'s", code="E504", file=view)

    def saver_for(dec: Any):
        kind = "commit" if dec.secret else "answer"
        names = [f"{sv.side}-{dec.id}-template.{ext}" for ext in (("txt", "yaml") if dec.secret else ("yaml",))]
        found = next((Path(view).parent / n for n in names if (Path(view).parent / n).is_file()), None)
        if found is None:
            raise InvalidInput(f"no template {names[-1]} beside the view: save the mail's attachments in one folder",
                               code="E100", file=view)
        t = files._Template(str(found), kind, sv.side)
        t.nonce(key)          # the template's checks against the key's record, now rather than at the save

        def save(choice: dict) -> list[Path]:
            if dec.secret:
                return list(files.commit_from_template(t, key, choice, folder, view))
            return [files.answer_from_template(t, key, choice, folder, view)]
        return save

    return Session.of_view(sv, saver_for)


@click.command("orders")
@click.argument("file", metavar="GAME|VIEW", type=click.Path(exists=True, dir_okay=False))
@click.option("--side", default=None, help=SIDE_HELP + " (with GAME; a view names it)")
@click.option("--key", "key_path", required=True, help="your private key file (a passphrase is asked here)")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="the port on 127.0.0.1 to serve the page on (0: a free one)")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="where the saved files go (default: the folder you run the command in)")
@click.option("--no-browser", is_flag=True, help="print the page's address (the first line) instead of opening it")
def orders_cmd(file, side, key_path, port, out_dir, no_browser):
    """Write your orders on a page in your browser: click on the map, see the rules' verdict, save.

    \b
    Serves a page on 127.0.0.1 for the decision your side owes now: your side's
    map (click a force: the hexes it may reach light up with their costs; click
    hexes for its path, the last one again to end it; a target with Shift-click
    or the Target button), a form for the rest of the choice, made from the
    decision's schema, and every problem as `hxref check` words it, on the map
    where it is.  Save writes the signed file exactly as `hxref answer` (or
    `hxref commit` for a secret decision) would, in the folder you run the
    command in; the page then names it and the command that sends it.

    \b
    The page is for you alone: it listens on 127.0.0.1 only, every request
    carries the unguessable token of its address, and nothing but your
    side's view is served.  Ctrl-C, or Done on the page, stops it.

    \b
    Examples:
      hxref orders g.yaml --side union --key alice          (an open game)
      hxref orders union-t2.i1.orders-view.yaml --key alice  (umpired: the view
          the umpire's mail carries, its template beside it)
      hxref orders g.yaml --side union --key alice --no-browser
    """
    from ..desk.server import Desk

    key = _key(key_path)
    folder = Path(out_dir) if out_dir else Path.cwd()
    with open(file, "rb") as f:
        head = f.read(64)
    if head.startswith(b"# hxref game file"):
        session = _game_session(file, side, key, folder)
    else:
        session = _view_session(file, side, key, folder)
    desk = Desk(session, port)
    if no_browser:
        click.echo(desk.url)
    else:
        import webbrowser

        click.echo(f"the order page of {session.side} for {session.decision.id} is open in your browser: "
                   f"{desk.url}")
        webbrowser.open(desk.url)
    click.echo("Ctrl-C or Done on the page stops it.")
    try:
        desk.serve()
    except KeyboardInterrupt:
        pass
    saved = ", ".join(p.name for p in session.saved)
    click.echo(f"order page closed; saved: {saved}" if saved else "order page closed; nothing saved")
