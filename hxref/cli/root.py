"""The command line: parse, call the library, render.  Nothing else.

Every user error is an :class:`~hxref.base.errors.HxrefError`; :class:`Main`
turns it into one line on stderr and exit status 2.  Heavy modules are
imported inside the commands so that ``hxref --version`` starts fast.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import __version__
from .options import (RegistryHelp, check_side, demo_system_help, demos_help, game_argument, load_game,
                          options_help, out_dir_for, private_key, scenarios_help, systems_help)
from ..base.errors import HxrefError, InvalidInput

#: the deadline policy of a game made without one: a week a decision and two days' grace
DEFAULT_DEADLINE_HOURS = 7 * 24
DEFAULT_GRACE_HOURS = 2 * 24

#: the commands that write a player's signed files (:mod:`hxref.cli.files`)
FILE_COMMANDS = ("join", "commit", "answer", "roll", "claim", "undo", "sign", "template", "open", "challenge")


class Main(click.Group):
    """The top-level group: the one place where errors become messages."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except HxrefError as exc:
            click.echo(f"hxref: error: {exc.render()}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("hxref: interrupted; what was in progress was not saved", err=True)
            sys.exit(130)
        except BrokenPipeError:     # `hxref report ... | head`: the reader left; say nothing more
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except OSError as exc:      # the system refused a file where no command expected it: not a bug
            from ..base.errors import os_reason

            err = InvalidInput(f"cannot use the file: {os_reason(exc)}", code="E510", file=exc.filename)
            click.echo(f"hxref: error: {err.render()}", err=True)
            sys.exit(2)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # a bug: say so in one line unless debugging
            if os.environ.get("HXREF_DEBUG"):
                raise
            click.echo(f"hxref: internal error: {exc!r} (a bug in hxref; rerun with HXREF_DEBUG=1 "
                       "for details and report it)", err=True)
            sys.exit(3)

    #: commands and command groups kept in their own modules, imported only when used; a game
    #: system's own group (``hxref NAME ...``) is its ``SystemInfo.cli``, mounted the same way
    GROUPS = {**{name: ("hxref.cli.files", "open_cmd" if name == "open" else name) for name in FILE_COMMANDS},
              "map": ("hxref.cli.map", "map_group"), "orders": ("hxref.cli.desk", "orders_cmd"),
              "decrypt": ("hxref.cli.crypt", "decrypt"),
              "inbox": ("hxref.cli.mail", "inbox_cmd"), "outbox": ("hxref.cli.mail", "outbox_cmd"),
              "standings": ("hxref.cli.batch", "standings_cmd"), "dice": ("hxref.cli.dice", "dice_cmd")}

    @staticmethod
    def system_groups() -> dict[str, tuple[str, str]]:
        """name -> (module, attribute) of each registered system's command group (from its info.py)."""
        from ..kit import registry

        return {i.name: tuple(i.cli.split(":", 1)) for i in registry.infos() if i.cli}  # type: ignore[misc]

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is not None:
            return cmd
        where = self.GROUPS.get(name) or self.system_groups().get(name)
        if where is None:
            return None
        from importlib import import_module

        module, attr = where
        return getattr(import_module(module), attr)

    def list_commands(self, ctx):
        from importlib.util import find_spec

        extra = {name for name, (module, _) in self.GROUPS.items() if find_spec(module)}
        return sorted(set(super().list_commands(ctx)) | extra | set(self.system_groups()))


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="hxref")
def main():
    """hxref -- a referee for wargames played by e-mail, umpired, or solo.

    \b
    Players send signed YAML order files, one per decision; hxref checks them,
    resolves them with the game's rules, rolls dice every player can verify,
    and writes a report for everyone plus a secret report for each side.

    \b
    Start with:   hxref demo
    A game:       hxref keygen alice; hxref keygen bob
                  hxref new g.yaml --system heartland --scenario bidding-demo \\
                      --side union=alice.pub --side confederate=bob.pub
                  hxref join g.yaml --side union --key alice   (then bob; submit both)
                  hxref status g.yaml
    """


# --- keys ------------------------------------------------------------------------------------

@main.command()
@click.argument("name")
@click.option("--comment", default=None, help="text stored with the public key (default: NAME)")
def keygen(name, comment):
    """Make an Ed25519 key pair NAME (private, OpenSSH format) and NAME.pub.

    Your existing ~/.ssh/id_ed25519 works too: pass it to --key, and its .pub
    to the game's creator.

    Example: hxref keygen alice
    """
    from ..crypto.signing import generate_key

    key = generate_key(Path(name), comment or Path(name).name)
    click.echo(key.public.line())
    click.echo(f"wrote {name} (keep it secret) and {name}.pub (send it to the game's creator); "
               f"fingerprint {key.public.fingerprint()}", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", default=None, type=click.Path(exists=True, dir_okay=False),
              help="check the signer against the sides' keys of this game")
@click.option("--pub", default=None, help="check against this public key instead")
@click.option("--sig", default=None, type=click.Path(exists=True, dir_okay=False),
              help="a detached signature (.sig from ssh-keygen -Y sign)")
def verify(file, game, pub, sig):
    """Check the signature of an order file and say who signed it.

    Example: hxref verify union-t1.bid-commit.yaml --game g.yaml
    """
    from ..base import yamlio
    from ..crypto.signing import PublicKey, load_public_key, verify_text

    text = yamlio.read_text(file)
    detached = yamlio.read_text(sig) if sig else None
    signer, _ = verify_text(text, source=file, detached=detached)
    if pub:
        verify_text(text, source=file, expected=load_public_key(pub), detached=detached)
        click.echo(f"{file}: good signature by {signer.fingerprint()}")
        return
    if game:
        eng = load_game(game)
        for name, p in eng.participants.items():
            if "key" in p and PublicKey.from_line(p["key"]) == signer:
                click.echo(f"{file}: good signature by {name} ({signer.fingerprint()}) of game {eng.meta['game']}")
                return
        raise InvalidInput(f"signed by {signer.fingerprint()}, which is no participant's key in this game",
                           code="E202", file=file)
    click.echo(f"{file}: good signature by {signer.fingerprint()} (no --game or --pub given to say whose)")


# --- games -----------------------------------------------------------------------------------

@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--system", "system_name", required=True, cls=RegistryHelp,
              help_from=lambda: systems_help("the game system"))
@click.option("--scenario", required=True, cls=RegistryHelp, help_from=scenarios_help)
@click.option("--side", "side_specs", multiple=True, metavar="SIDE=KEY.pub",
              help="each side and its player's public key; in solo mode just SIDE")
@click.option("--umpire", default=None, metavar="KEY.pub", help="the umpire's public key (umpired mode)")
@click.option("--mode", type=click.Choice(["open", "umpired", "solo", "fog"]), default="open", show_default=True,
              help="open: players pass the file; umpired: a neutral umpire runs hxref; solo: one terminal; "
                   "fog: players pass the file, each keeping its hidden army on its own machine")
@click.option("--game-id", default=None, help="the game's label, for people (default: generated); the "
                                             "game's identity is the hash of its first event")
@click.option("--nonce", default=None, hidden=True, metavar="HEX",
              help="re-create a shipped demo's game with its recorded nonce (with --charts-from its pinned data); "
                   "refused for any other game")
@click.option("--created", default=None, help="creation time, ISO 8601 (default: now)")
@click.option("--option", "options", multiple=True, metavar="NAME", cls=RegistryHelp, help_from=options_help)
@click.option("--deadline-hours", type=float, default=None, metavar="H",
              help="each awaited decision is due H hours after it opens (shown by status); more than 0, at "
                   "most 8784 (a year)")
@click.option("--nmr", type=click.Choice(["stand-fast", "forfeit"]), default=None,
              help="after a signed claim of a missed deadline (`hxref claim`): the late side's decision gets its "
                   "stand-fast default, or the late side forfeits; a withheld reveal or dice link always forfeits")
@click.option("--grace-hours", type=float, default=None, metavar="G",
              help="the NMR policy applies only G hours after a deadline (0 to 8784)")
@click.option("--forfeit-after", type=int, default=None, metavar="N",
              help="a side that misses N decisions forfeits the game (1 to 1000)")
@click.option("--charts-from", "charts_from", default=None, metavar="GAME", type=click.Path(dir_okay=False),
              help="play with the data files pinned in the earlier game GAME (its charts, terrain types "
                   "and map) instead of this hxref's: a season's games on one set of charts, or a shipped demo")
@click.option("--no-deadlines", is_flag=True,
              help="no deadline policy: then a side that stops sending can stall the game for ever")
def new(game, system_name, scenario, side_specs, umpire, mode, game_id, nonce, created, options, deadline_hours, nmr,
        grace_hours, forfeit_after, charts_from, no_deadlines):
    """Create a new game file GAME.

    Example: hxref new g.yaml --system heartland --scenario bidding-demo
    --side union=alice.pub --side confederate=bob.pub --mode open

    Optional rules the players agree on: --option off_map_rail --option sickness

    \b
    Deadlines: an open or umpired game gets, unless told otherwise, 7 days for each
    decision and 2 days' grace; then the other side (the umpire) may claim the miss
    (`hxref claim`): the late side stands fast with the decision's default, and a withheld
    reveal or dice link forfeits the game.  --no-deadlines turns this off.

    \b
    The game pins the data it is played with (charts, terrain types, the scenario's map),
    so it goes on and audits with them whatever later versions of hxref ship; each player's
    `hxref join` compares them with his own before he signs.

    A club's own scenario file may play on the club's own table or map: its `map:` names
    a map file beside it (map: my-table.yaml; no folder, no path, no link), pinned here.
    """
    from ..kit import registry
    from ..referee.engine import Engine
    from ..crypto.signing import load_public_key

    if Path(game).exists():
        raise InvalidInput("a game file of that name exists; choose another name", code="E502", file=game)
    sysobj = registry.get(system_name)
    sides: dict = {}
    for spec in side_specs:
        name, _, key = spec.partition("=")
        sides[name] = load_public_key(os.path.expanduser(key)) if key else None
    if mode == "solo" and not sides:
        sides = {s: None for s in sysobj.load_scenario(scenario)["sides"]}
    ump = load_public_key(os.path.expanduser(umpire)) if umpire else None
    policy = {"deadline_hours": deadline_hours, "nmr": nmr, "forfeit_after": forfeit_after, "grace_hours": grace_hours}
    if no_deadlines:
        if any(v is not None for v in policy.values()):
            raise InvalidInput("--no-deadlines goes with none of --deadline-hours, --grace-hours, --nmr and "
                               "--forfeit-after", code="E504")
        policy = {}
    elif mode != "solo" and deadline_hours is None:
        # a game nobody can stall unless the players choose so (a side that stops sending is
        # claimed against after the deadline and the grace)
        policy = dict(policy, deadline_hours=DEFAULT_DEADLINE_HOURS,
                      grace_hours=DEFAULT_GRACE_HOURS if grace_hours is None else grace_hours)
    from ..gamefile.game import locked

    demo, charts = _shipped_demo(nonce, charts_from) if nonce is not None else (None, None)
    if charts_from and demo is None:
        charts = _charts_of(charts_from, system_name)
    with locked(game):
        eng = Engine.create(game, system=system_name, scenario=scenario, sides=sides, mode=mode,
                            umpire=ump, game_id=game_id, created=created, options=options, nonce=nonce,
                            policy=policy, charts=charts or None)
        if demo is not None and eng.identity != demo:
            raise InvalidInput("--nonce re-creates a shipped demo's game exactly (its label, time, keys, policy "
                               "and data as its demo.yaml gives them); this game would be another one with a "
                               "reused nonce", code="E504")
        eng.save()
    click.echo(f"created {game}: game {eng.meta['game']}, {sysobj.title} -- {scenario}, {mode} mode")
    click.echo(f"next: {eng.waiting_text()}")


def _echo_resolutions(done, sides) -> None:
    """Each resolution as `hxref play` and `hxref resolve` print it: its dice and its events."""
    from ..report.turn import event_line

    for r in done:
        click.echo(f"resolved {r.decision}")
        for roll_ in r.rolls:
            click.echo(f"  die: {roll_['purpose']} by {roll_.get('by') or '-'}: {' '.join(map(str, roll_['faces']))}")
        for ev in r.events:
            click.echo("  " + event_line({"data": ev}, "umpire", "open", sides))


@main.command()
@game_argument
@click.option("--side", default=None, help="with --choice: the side to play (default: the side awaited)")
@click.option("--choice", default=None,
              help="the answer as YAML or JSON, or @FILE to read it from a file "
                   "(default: ask for every awaited decision at the terminal)")
def play(game, side, choice):
    """Solo games: play at the terminal (hotseat: every side at this keyboard), or with --choice
    answer the awaited decision and resolve it at once, then show what happened.

    Examples: hxref play g.yaml
              hxref play g.yaml --choice '{moves: [{unit: us-3, advance: 6}], shots: []}'
    """
    if choice is None:
        if side is not None:
            raise InvalidInput("--side goes with --choice; without it each awaited side is asked in turn",
                               code="E504")
        from .solo import play_loop

        play_loop(game)          # refuses non-solo games itself (E504)
        return
    from ..referee import orders
    from ..gamefile.game import locked

    value = orders.parse_choice(choice)
    with locked(game):
        eng = load_game(game)
        if eng.mode != "solo":
            raise InvalidInput(f"hxref play is for solo games; this is a {eng.mode} game: use answer, submit "
                               "and resolve", code="E504", file=game)
        waiting = eng.awaiting
        if not waiting:
            raise InvalidInput("the game is over", code="E309", file=game)
        dec = waiting[0]
        if side is None:
            if len(dec.sides) != 1:
                raise InvalidInput(f"{dec.id} awaits {', '.join(dec.sides)}: give --side", code="E504")
            side = dec.sides[0]
        check_side(eng, side)
        eng.answer_solo(side, dec.id, value)
        done = eng.resolve()
        eng.save()
    _echo_resolutions(done, eng.system.sides)
    click.echo(f"next: {eng.waiting_text()}")


def _resolve_open(eng, say=click.echo) -> bool:
    """In an open game, resolve what is ready (it needs no key); True when something was."""
    if eng.mode != "open" or not eng.ready() or eng.missing_links(eng.ready()[0]):
        return False
    for r in eng.resolve(None):
        say(f"resolved {r.decision}")
    return True


@main.command()
@game_argument
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--sig", default=None, type=click.Path(exists=True, dir_okay=False),
              help="a detached signature for a single FILE (.sig from ssh-keygen -Y sign)")
def submit(game, files, sig):
    """Check signed order FILES and store them in GAME, printing a receipt for each.

    A bad file is refused with every problem it has, one line each (file:line, path, rule,
    code), and changes nothing.

    In an open game the files of one mail go in one command: a dice link that completes
    a decision, then the orders of the next (the decision it completes is resolved first).

    Example: hxref submit g.yaml union-t1.bid-commit.yaml
    """
    from ..base import yamlio
    from ..gamefile.game import locked

    from ..base.errors import Problems

    if sig and len(files) != 1:
        raise InvalidInput("--sig goes with exactly one FILE", code="E504")
    texts = [(f, yamlio.read_text(f)) for f in files]
    detached = yamlio.read_text(sig) if sig else None
    with locked(game):
        # the game is read and written once for all the files: each file is still its own step
        # (a bad one is refused with nothing of it stored, and the files before it are kept)
        eng = load_game(game)
        receipts: list[str] = []            # said once the files are saved
        joined, said = False, 0
        for n, (f, text) in enumerate(texts):
            try:
                receipt = _submit_one(eng, text, f, detached, receipts.append)
            except HxrefError as exc:
                if n:
                    kept = _keep_the_files_before(game, texts[:n], detached)
                    click.echo("\n".join(receipts[:said]))
                    if joined:
                        _charts_warning(kept)
                if isinstance(exc, Problems):   # every problem of the file, one line each
                    for line in exc.lines():
                        click.echo(f"hxref: error: {line}", err=True)
                    sys.exit(2)
                raise
            receipts.append(receipt.line())
            if receipt.kind == "join":
                receipts.append(_options_line(_options_of(eng)))
                joined = True
            said = len(receipts)
        eng.save()
    click.echo("\n".join(receipts))
    if joined:
        _charts_warning(eng)
    click.echo(f"next: {eng.waiting_text()}")


def _submit_one(eng, text: str, name: str, detached: str | None, say=click.echo):
    try:
        return eng.submit(text, name, detached)
    except HxrefError as exc:
        # one mail in an open game carries a side's dice link for the decision before and its
        # orders for the next: the link completes the first, which any copy resolves (no key, the
        # same result everywhere), then the orders are awaited
        if exc.code != "E301" or not _resolve_open(eng, say):
            raise
        return eng.submit(text, name, detached)


def _keep_the_files_before(game: str, texts: list, detached: str | None):
    """A later file was refused: store the files before it, as separate commands would have, from
    the game as it was read (whatever the refused file's checks had begun in memory is dropped)."""
    eng = load_game(game)
    for f, text in texts:
        _submit_one(eng, text, f, detached, say=lambda line: None)
    eng.save()
    return eng


def _charts_warning(eng) -> None:
    """The receiving side's check of a join: it signs charts that differ from this machine's."""
    from ..referee import published

    differ = published.differences(eng)
    if differ:
        click.echo(f"hxref: warning: this game is played with charts that differ from the published ones "
                   f"(your hxref's): {'; '.join(differ)}", err=True)


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="[GAME] FILE")
@click.option("--sig", default=None, type=click.Path(exists=True, dir_okay=False), help="detached signature")
@click.option("--view", "view_path", default=None, type=click.Path(exists=True, dir_okay=False),
              help="umpired games, without GAME: the umpire-signed view of your side to check FILE against "
                   "(default: the one beside FILE for its game, side and decision)")
def check(paths, sig, view_path):
    """Tell whether FILE would be accepted by GAME now, without storing it.

    \b
    An umpired player holds no game file: without GAME, FILE is checked
    against the umpire-signed view of his side that the umpire's mail
    carries (SIDE-DECISION-view.yaml, found beside FILE, or --view).  The
    view is believed only when signed by the umpire of the game your key
    joined; the checks are the umpire's own (the choice's shape, the dice
    link, the rules' check run on the view).  The view holds only what
    your side may see: an enemy unit out of sight is not in it, so a file
    that passes here can still be refused by the umpire, whose check
    decides.

    An unsigned FILE (a template you filled in) has its choice checked, and
    is then refused as not signed yet (E200), naming the command that signs.

    \b
    Examples: hxref check g.yaml union-t1.bid-reveal.yaml
              hxref check union-t1.i1.orders.yaml   (its view beside it)
    """
    from ..base import yamlio
    from ..base.errors import Problems

    if len(paths) > 2:
        raise InvalidInput("give [GAME] FILE: at most two paths", code="E504")
    game, file = (paths[0], paths[1]) if len(paths) == 2 else (None, paths[0])
    if game and view_path:
        raise InvalidInput("--view goes without GAME (with GAME the game itself is checked)", code="E504")
    try:
        if game is None:
            _check_at_home(file, sig, view_path)
            return
        eng = load_game(game)
        text = yamlio.read_text(file)
        if sig is None and _unsigned(text):
            _check_unsigned(eng, text, file)
        order = eng.check(text, file, yamlio.read_text(sig) if sig else None)
    except Problems as exc:             # every problem of the file, one line each
        for line in exc.lines():
            click.echo(f"hxref: error: {line}", err=True)
        sys.exit(2)
    click.echo(f"{file}: OK -- {order.kind} of {order.side} for {order.decision} would be accepted")


def _unsigned(text: str) -> bool:
    from ..crypto.signing import split_signed_text

    return split_signed_text(text)[1] is None and "-----BEGIN SSH SIGNATURE-----" not in text


def _not_signed_yet(file: str, order, how: str) -> InvalidInput:
    return InvalidInput(f"not signed yet: the choice of this {order.kind} of {order.side} for {order.decision} "
                        f"passes the checks; sign it ({how}) and check again", code="E200", file=file)


def _check_unsigned(eng, text: str, file: str) -> None:
    """An unsigned file against the game: the choice's checks, then E200 (it is not signed yet)."""
    from ..referee import orders

    order = orders.parse(text, file)
    dec = eng.decision(order.decision)
    if dec is None or order.kind not in ("answer", "reveal") or order.side not in dec.sides:
        return          # the game's own checks name what is wrong (the signature first)
    rules = lambda choice: eng.system.check(eng.state, dec, order.side, choice)  # noqa: E731
    orders.check_choice(order, dec, rules)
    orders.raise_problems(order, rules(order.data["choice"]))
    raise _not_signed_yet(file, order, f"hxref sign {file} --key YOUR_KEY --game {Path(eng.gf.path).name} "
                                       f"--side {order.side}")


def _check_at_home(file: str, sig: str | None, view_path: str | None) -> None:
    """FILE against the umpire-signed view of its side (:mod:`hxref.report.side_view`)."""
    from ..referee import key_record
    from ..referee import orders
    from ..base import yamlio
    from ..report import side_view
    from ..crypto.signing import verify_text

    text = yamlio.read_text(file)
    if text.startswith("# hxref game file"):
        raise InvalidInput("this is a game file: give the file to check too (hxref check GAME FILE)", code="E504",
                           file=file)
    order = orders.parse(text, file)
    sv = side_view.read(view_path) if view_path else side_view.find(
        file, order.identity, order.side, order.decision, str(order.data.get("head")))
    if sv is None:
        raise InvalidInput(f"no view of {order.side} for {order.decision} of this game beside the file: give GAME, or "
                           "--view with the SIDE-DECISION-view.yaml of the umpire's mail", code="E504", file=file)
    signed = sig is not None or not _unsigned(text)
    if signed:
        signer, _ = verify_text(text, source=file, detached=yamlio.read_text(sig) if sig else None)
        mine = key_record.joined_as(order.identity, order.side)
        if mine is not None and signer.fingerprint() != mine[0]:
            raise InvalidInput(f"signed by key {signer.fingerprint()}, not by the key that joined this game as "
                               f"{order.side} ({mine[0]})", code="E202", file=file)
    for note in side_view.check(sv, order, signed=signed):
        click.echo(f"note: {note}")
    if not signed:
        template = "answer" if order.kind == "answer" else "commit"
        raise _not_signed_yet(file, order, f"hxref {template} --template {file} --key YOUR_KEY")
    click.echo(f"{file}: OK -- {order.kind} of {order.side} for {order.decision} passes the umpire's checks on "
               f"{Path(sv.path).name} (his view of event {sv.seq}: what {order.side} can see; his check decides)")


@main.command()
@click.argument("game", type=click.Path(exists=True))
@click.option("--key", "key_path", default=None, help="the umpire's key (umpired games roll with it)")
@click.option("--format", "fmt", type=click.Choice(["rich", "text", "json"]), default="rich",
              show_default=True, help="how to print what happened")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="GAME a folder: worker processes (default: one per core)")
def resolve(game, key_path, fmt, workers):
    """Resolve every decision whose answers are all in; roll its dice; log everything.

    GAME may be a folder: every game under it whose answers are all in is resolved, in
    parallel processes, with a progress bar.

    Example: hxref resolve g.yaml
    """
    import json

    if os.path.isdir(game):
        from .batch import resolve_folder

        return resolve_folder(game, key_path, fmt, workers)

    from ..gamefile.game import locked

    key = private_key(key_path) if key_path else None
    with locked(game):
        eng = load_game(game)
        if key is not None and eng.mode == "umpired":
            from ..referee.engine import UMPIRE

            eng.check_key(UMPIRE, key)
        done = eng.resolve(key)
        eng.save()
    if fmt == "json":
        click.echo(json.dumps({"resolved": [{"decision": r.decision, "dice": r.rolls, "events": r.events}
                                            for r in done], "head": eng.gf.head,
                               "awaiting": eng.waiting_for()}, indent=2))
        return
    _echo_resolutions(done, eng.system.sides)
    click.echo(f"head {eng.gf.head[:16]}... next: {eng.waiting_text()}")


@main.command()
@click.argument("game", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="machine-readable output for scripts")
@click.option("--audit", "with_audit", is_flag=True, help="GAME a folder: also audit every game (in parallel)")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="GAME a folder: worker processes for --audit (default: one per core)")
@click.option("--width", type=click.IntRange(40, 1000), default=None, metavar="N",
              help="lay the output out N columns wide (default: the terminal's, or COLUMNS)")
@click.option("--side", default=None,
              help="a game with hidden armies: as SIDE's own copy knows it (its own file beside the game): "
                   "also what only SIDE saw since its last file (its attrition, its losses, its administration)")
def status(game, as_json, with_audit, workers, width, side):
    """Say where GAME stands: phase, what is awaited from whom, head hash.

    With a deadline policy it says, for each party that owes something, what a signed claim
    against it would give now (its stand-fast answer, or a forfeit and why).

    Each awaited decision shows its deadline and the grace after it in words ("due Sun 13 Dec
    16:25 UTC (grace 2 days; ...)"): the answers are due at the deadline; once the grace has
    passed too, a signed claim (`hxref claim`) is accepted.  With --json each entry of
    `awaiting` has both times: `deadline` (the answers are due) and `due` (the deadline plus the
    grace: from then on a claim is accepted); null without deadlines.

    GAME may be a folder: a dashboard of every game under it (system, turn, awaited sides,
    deadlines, last activity; how each finished game ended, forfeits included, read from its
    audited replay; --audit audits each).  In a narrow terminal the head and the last activity
    give way first.

    Example: hxref status g.yaml --json; hxref status tournament/; hxref status g.yaml --side union
    """
    import json

    if os.path.isdir(game):
        from .batch import status_folder

        return status_folder(game, as_json, with_audit, workers, width)

    eng = load_game(game, side)
    if side is not None:
        check_side(eng, side)
    facts = {"game": eng.meta["game"], "identity": eng.identity, "system": eng.meta["system"],
             "scenario": eng.meta["scenario"], "mode": eng.mode, "phase": eng.h.get("phase"), "head": eng.gf.head,
             "events": len(eng.gf.log), "awaiting": eng.waiting_for(), "policy": eng.meta.get("policy"),
             "charts_differ": _charts_differ(eng), "options": _options_of(eng)}
    state = eng.state
    if "turn" in state:
        facts["turn"] = state["turn"]
    from ..report.turn import own_lines

    own = own_lines(eng, side) if side is not None else []
    if side is not None and eng.fog:
        facts["own_events"] = own
    if as_json:
        click.echo(json.dumps(facts, indent=2))
        return
    from ..report.fit import Col, FitTable, show

    # on a terminal with rich's colours; piped, the same text without rich (see .report.fit.show)
    turn = f", turn {facts['turn']}" if "turn" in facts else ""
    parts: list = [((str(eng.meta["game"]), "bold"), (f" -- {eng.title}, {eng.meta['scenario']} "
                                                   f"({eng.mode}); phase {facts['phase']}{turn}", None))]
    rows = [[w["decision"], s, what, w["commands"].get(s, "").replace("GAME", game)]
            for w in facts["awaiting"] for s, what in w["owed"].items()]
    # laid out to the room there is, words whole (see .report.fit); the deadline is the decision's,
    # not a party's: it is said once, on the line below the table
    cols = [Col(col, style="bold" if col == "decision" else None, no_wrap=col in ("decision", "party"))
            for col in ("decision", "party", "owes", "command")]
    if facts["awaiting"]:
        parts.append(FitTable(cols, rows, show_edge=False, box=None, padding=(0, 1)))
    from ..referee.claims import awaits_text

    for w in facts["awaiting"]:
        parts.append(awaits_text(w))
        if w.get("deadline") and not w["ready"]:
            parts.append(f"{w['decision']} {eng.deadline_text(w)}")
    if not facts["awaiting"]:
        parts.append(eng.waiting_text())
        res = eng.system.result(eng.state) if eng.finished and not eng.h.get("forfeit") else None
        if res is not None:
            parts.append(f"result: {res.winner} wins ({res.how})" if res.winner else "result: a draw")
    policy = eng.meta.get("policy")
    if eng.mode != "solo" and not eng.finished:
        parts.append(f"deadlines: {policy['deadline_hours']} h, grace {policy.get('grace_hours', 0)} h, then a "
                     f"signed claim (`hxref claim`) gives {policy['nmr']}" if policy else
                     "no deadlines: a party that stops sending can stall this game")
        if policy:
            parts += eng.claims_text()
    if own:
        parts.append(f"only {side} saw, since its last file:")
        parts += [f"  {line}" for line in own]
    parts.append(_options_line(facts["options"]))
    if facts["charts_differ"]:
        parts.append("played with charts that differ from the published ones: " + "; ".join(facts["charts_differ"]))
    parts.append(f"head {eng.head_text()}")
    show(parts, width)


def _options_of(eng) -> list[str]:
    from ..referee import published

    return published.chosen_options(eng)


def _options_line(options: list[str]) -> str:
    """The optional rules in play, for ``status`` and the receipt of a join."""
    return "optional rules: " + (", ".join(options) if options else "none")


def _charts_differ(eng) -> list[str]:
    from ..referee import published

    return published.differences(eng)


@main.command()
@game_argument
@click.option("--side", default=None, help="a side's secret report; `umpire` for everything; "
                                           "none for the public report")
@click.option("--format", "fmt", type=click.Choice(["rich", "text", "md", "html", "json"]), default="rich",
              show_default=True, help="rich for the terminal; text, md or html for e-mail; json for scripts")
@click.option("--out", "-o", default=None, type=click.Path(dir_okay=False), help="write to a file")
@click.option("--map", "map_out", default=None, type=click.Path(dir_okay=False),
              help="also write the map of what this side sees as an SVG picture")
@click.option("--encrypt", is_flag=True,
              help="encrypt the side's report (and --map) to that side's key from the game, in the age "
                   "format, writing OUT.age (default OUT: GAME-SIDE-report.txt beside GAME) and nothing in "
                   "clear; the player opens it with `hxref decrypt` or `age -d -i KEY`")
@click.option("--since", default=None, metavar="WHEN",
              help="tell every resolution after WHEN: `start`, an event number, or a head (HASH@SEQ or a "
                   "hash prefix); default: since the head this side's last file was written against")
@click.option("--width", type=click.IntRange(40, 1000), default=None, metavar="N",
              help="lay the rich and text formats out N columns wide (default: the terminal's, or COLUMNS; "
                   "100 in a file)")
def report(game, side, fmt, out, map_out, encrypt, since, width):
    """Write the turn report: public, or one side's secret report.

    A report reads in the order a player wants it: what you owe, by when,
    and the command to send it; this turn in brief; the map (html); the
    details (the rules' sections, the story of the turn, its dice); and a
    footer with the head hash, the identity and the keys to verify it by.
    For a game on a map, an html report shows the map of what the side sees
    after the brief, and --map writes that map as an SVG file as well.

    A report tells every resolution since its reader last read: for a side,
    since the head its newest signed file was written against; for the public
    and the umpire, since the current round began. --since start tells the
    whole game.

    Example: hxref report g.yaml --side union --format html -o union.html --map union.svg

    Encrypted, to post where everyone can see it: hxref report g.yaml --side union --encrypt
    (writes g-union-report.txt.age, which only union's key opens)
    """
    from ..crypto.crypt import side_key, write_encrypted_report
    from ..report import turn

    eng = load_game(game, side if side != "umpire" else None)
    if side and side != "umpire":
        check_side(eng, side)
    if encrypt:
        side_key(eng, side)         # no side, or a side without a key: refuse before writing anything
    from ..report.story import parse_since

    rep = turn.build(eng, side, None if since is None else parse_since(since, eng.gf.log, game))
    svg = _report_map(eng, side, rep.facts.get("since")) if (map_out or fmt == "html") else None
    if map_out and svg is None:
        click.echo(f"hxref: {game}: warning: this game has no map to draw; {map_out} not written", err=True)
    elif map_out and svg is not None:
        from ..base.files import atomic_write

        if encrypt:
            click.echo(f"wrote {write_encrypted_report(eng, side, map_out, svg)}")
        else:
            atomic_write(Path(map_out), svg.encode("utf-8"))
            click.echo(f"wrote {map_out}")
    if fmt == "rich" and not out and not encrypt:
        from rich.console import Console

        Console(width=width).print(turn.renderables(rep))
        return
    if fmt == "html":
        text = turn.to_html(rep, svg=svg)
    else:
        text = turn.render(rep, "text" if fmt == "rich" else fmt, turn.text_width(width, bool(out or encrypt)))
    if encrypt:
        ext = fmt if fmt in ("md", "html", "json") else "txt"
        default = out_dir_for(game, None) / f"{Path(game).stem}-{side}-report.{ext}"
        path = write_encrypted_report(eng, side, out or default, text)
        click.echo(f"wrote {path} (encrypted to {side}'s key: hxref decrypt {path.name} --key KEY)")
    elif out:
        from ..base.files import atomic_write

        atomic_write(Path(out), text.encode("utf-8"))
        click.echo(f"wrote {out}")
    else:
        click.echo(text, nl=False)


def _report_map(eng, side: str | None, since: int | None) -> str | None:
    """The SVG map of what ``side`` sees, with the turn the report tells drawn on it (None: the game
    has no map, or none yet)."""
    from ..report.turnmap import side_svg

    return side_svg(eng, side, since)


def _shipped_demo(nonce: str, charts_from: str | None) -> tuple[str, dict | None]:
    """The identity of the shipped demo game that ``hxref new --nonce NONCE --charts-from PINNED``
    re-creates, and the data files it pins (E504 for any other use: a recorded nonce serves only to
    replay a shipped demo, whose signed files name that identity; a game made with an old game's
    nonce would be that game again)."""
    from .demo import shipped_games
    from ..gamefile.game import GameFile

    if not charts_from:
        raise InvalidInput("--nonce re-creates a shipped demo: give --charts-from with its pinned data file",
                           code="E504")
    log = GameFile.load(charts_from).log
    first = log[0] if log and log[0].get("kind") == "game.created" else {}
    shipped = shipped_games()
    if first.get("hash") not in shipped or (first.get("data") or {}).get("nonce") != nonce:
        raise InvalidInput("--nonce serves only to re-create a shipped demo: --charts-from is not a shipped demo's "
                           "pinned data, or the nonce is not that demo's", code="E504", file=charts_from)
    return str(first["hash"]), first["data"].get("charts")


def _charts_of(path: str, system: str) -> dict:
    """The data files pinned in the earlier game ``path`` (``new --charts-from``), checked."""
    from ..gamefile.game import GameFile
    from ..referee import pinning

    log = GameFile.load(path).log
    first = log[0].get("data") if log and log[0].get("kind") == "game.created" else None
    if not isinstance(first, dict) or not isinstance(first.get("meta"), dict) \
            or first["meta"].get("system") != system:
        raise InvalidInput(f"--charts-from: this is no {system} game file", code="E504", file=path)
    charts = first.get("charts")
    if not charts:
        raise InvalidInput("--charts-from: this game pins no charts (it was made before games pinned them)",
                           code="E504", file=path)
    try:
        pinning.prepare(system, charts)
    except InvalidInput as exc:
        raise exc.at(file=path) from None
    return charts


@main.command()
@game_argument
@click.option("--json", "as_json", is_flag=True, help="machine-readable result")
@click.option("--rerun", is_flag=True,
              help="replay the inputs with the rules code of today and list every result that would differ")
@click.option("--as", "as_side", default=None, metavar="SIDE",
              help="check as SIDE's player: the side's key in the game must be yours (--key or --pub)")
@click.option("--key", "key_path", default=None, help="with --as: your private key (or give --pub)")
@click.option("--pub", default=None, help="with --as: your public key")
@click.option("--since", default=None, metavar="HEAD@SEQ",
              help="the last head you kept (from a receipt or report): the log must extend it")
@click.option("--accept-head", is_flag=True,
              help="after a clean audit, keep this file's head as the one this machine knows (after "
                   "restoring a backup on purpose)")
def audit(game, as_json, rerun, as_side, key_path, pub, since, accept_head):
    """Replay GAME's whole log: every hash, signature, commitment and die. Exit 0 if all hold, 1 if not.

    A player checks a game for himself with --as SIDE --key MY_KEY --since HEAD@SEQ: his own
    key is the side's key, and the history extends the last head he kept.

    With --rerun (after a rules fix) it says, decision by decision, where the rules of today
    would give another result, so an umpire can decide to patch the game by replay; the game
    file is not changed.

    Example: hxref audit g.yaml --rerun
    """
    import json

    from ..referee.audit import audit as run_audit

    if rerun:
        from ..referee.audit import rerun as run_rerun

        rr = run_rerun(game)
        if rr.charts and not as_json:
            click.echo(f"rerun with today's {', '.join(rr.charts)} (not the game's pinned ones)")
        if as_json:
            click.echo(json.dumps(rr.to_dict(), indent=2))
        elif rr.ok:
            click.echo(f"rerun: the rules of today give the same result for all {rr.decisions} resolutions")
        else:
            for d in rr.differences:
                click.echo(f"{d['decision']} (event {d['event']}):\n  logged: {d['before']}\n  today:  {d['after']}")
            for r in rr.refused:
                click.echo(r)
            if rr.state_differs:
                click.echo(f"the game would now end differently: {', '.join(rr.state_differs)} differ")
            click.echo(f"rerun: {len(rr.differences)} of {rr.decisions} resolutions differ")
        sys.exit(0 if rr.ok else 1)
    res = run_audit(game, known_head=not accept_head)
    if since and not as_side:
        raise InvalidInput("--since goes with --as SIDE", code="E504")
    if as_side:
        from ..referee.audit import audit_as
        from ..crypto.signing import load_public_key

        if not (key_path or pub):
            raise InvalidInput("--as needs your key: --key MY_KEY or --pub MY_KEY.pub", code="E504")
        mine = private_key(key_path).public if key_path else load_public_key(os.path.expanduser(pub))
        res.problems += audit_as(game, as_side, mine, since)
        res.ok = not res.problems
    if accept_head and res.ok:
        from ..gamefile import heads
        from ..gamefile.game import GameFile

        gf = GameFile.load(game)
        heads.remember(gf.log[0]["hash"], gf.path, len(gf.log), gf.head)
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=2))
    elif res.ok:
        click.echo(f"audit OK: {res.events} events replayed; {res.signatures} signatures verified, "
                   f"{res.commitments} commitments opened, {res.dice} dice re-derived"
                   + (f", {res.pending} pending files accepted" if res.pending else "")
                   + f"; head {res.head}@{res.events}" + (f"; {as_side}'s key and history check out" if as_side else ""))
    else:
        click.echo("audit FAILED: " + "; ".join(res.problems))
    if not as_json:
        for note in res.notes:
            click.echo(note)
    sys.exit(0 if res.ok else 1)


@main.command()
@click.option("--system", "system_name", default=None, cls=RegistryHelp, help_from=demo_system_help)
@click.option("--keep", default=None, type=click.Path(file_okay=False),
              help="play in this folder and keep the files (default: a temporary folder)")
@click.option("--scenario", default=None, cls=RegistryHelp, help_from=demos_help)
@click.option("--format", "fmt", type=click.Choice(["rich", "text", "md"]), default="rich", show_default=True,
              help="how to print the reports")
def demo(system_name, keep, scenario, fmt):
    """Play a complete shipped demo game from its signed order files and print every report.

    Example: hxref demo --system heartland --scenario bidding-demo
    """
    from .demo import run
    from ..kit import registry

    run(main, system_name or registry.default(), keep, fmt, scenario)


if __name__ == "__main__":  # pragma: no cover
    main()

