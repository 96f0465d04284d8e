"""The commands that write a player's signed files: join, commit, answer, roll, claim, undo,
sign and template.  Each file carries the envelope of the protocol (the game's identity,
the head it is written against, the author's signed time) and, where the decision takes it in
the author's own file, the author's dice link bound to the decision (SECURITY.md, "The
protocol").  :class:`hxref.cli.Main` mounts these commands (``FILE_COMMANDS``) and imports this
module only when one of them runs."""
from __future__ import annotations

import os
import re
from pathlib import Path

import click

from .options import (SIDE_HELP, check_side, decision_option, dir_option, game_argument, key_option,
                          load_game, out_dir_for, private_key, side_option)
from ..base.errors import HxrefError, InvalidInput

#: the comment line of an umpired game's template that names the side's dice link for its decision
#: (the umpire's outbox writes it, :func:`hxref.mail.outbox.umpired_templates`)
LINK_MARK = re.compile(r"^# dice link: index (\d{1,9}) of your chain", re.M)


def _write_new(path: Path, text: str, private: bool = False) -> None:
    from ..base.files import atomic_write

    if os.path.lexists(path):      # a dangling symlink too: a new file is never written through a link
        raise InvalidInput("file exists already; move it away or use another --dir/--out", code="E502",
                           file=str(path))
    atomic_write(path, text.encode("utf-8"), private=private)


def _sign_and_write(eng, side: str, key, fields: dict, path: Path, comment: str, private: bool = False,
                    full: dict | None = None) -> None:
    """Sign and write a file for ``side``: the envelope (game, identity, head, signed time,
    decision, side, kind) and then ``fields``; never for a history that does not hold the last head
    the key signed for this game, and recorded in the key's record (:mod:`hxref.referee.key_record`).
    In a game with hidden armies the file also carries the side's commitment to its boxes at the
    head, what its army shows, and the openings and claims the rules ask of it (``full``: the whole
    choice of an answer, whose file carries the public part)."""
    from ..referee import key_record
    from ..referee import orders
    from ..crypto.signing import sign_text

    fields = dict(fields)
    decision = fields.pop("decision")
    fp = key.public.fingerprint()
    key_record.check_history(fp, eng.identity, eng.gf.log, str(eng.gf.path), eng.participants[side].get("nonce"))
    dec = eng.decision(decision) if "link" in fields else None
    head = eng.envelope(side, decision, fields.pop("kind"))
    if eng.fog and head["kind"] not in ("join", "proof"):
        eng.check_key(side, key)
        fields.update(eng.fog_fields(side, head["kind"], head["head"], eng.decision(decision), fields,
                                     full if full is not None else fields.get("choice")))
    text = orders.render({**head, **fields}, comment)
    _write_new(path, sign_text(text, key), private=private)
    key_record.note_signed(fp, eng.identity, head["head"], eng.link_index(side, dec) if dec is not None else None)


#: ``hxref join/answer/commit --template FILE`` (umpired games): the player holds no game file
template_option = click.option("--template", "template_path", default=None, type=click.Path(exists=True, dir_okay=False),
                               help="umpired games: the template the umpire's mail attached, instead of GAME "
                                    "(the envelope and your dice link's index come from it; signed only for a "
                                    "game your key joined there, and never a link past your next one)")
#: ``--view FILE``: the umpire-signed view of the side to check a template's choice against
view_option = click.option("--view", "view_path", default=None, type=click.Path(exists=True, dir_okay=False),
                           help="umpired games, with --template: the umpire-signed view of your side to check "
                                "the choice against (default: the SIDE-...-view.yaml beside the template)")
optional_game = click.argument("game", required=False, type=click.Path(exists=True, dir_okay=False))
optional_side = click.option("--side", default=None, help=SIDE_HELP + " (with GAME; a template names it)")


class _Template:
    """What an umpire's template (:func:`hxref.mail.umpired_templates`) gives a player who holds no
    game file: the envelope of the file he owes, and the index of his dice link for its decision.
    The choice is checked against the side's view signed by the umpire, when the mail's view is
    beside the template (:mod:`hxref.report.side_view`); the umpire's check decides.
    What the key may sign is checked against its own record (:mod:`hxref.referee.key_record`): a template
    names only a game the key joined as an umpired game's side, and at most the next link of its
    chain; a join from a template says it is for an umpired game."""

    def __init__(self, path: str, kind: str, side: str | None):
        from ..referee import orders
        from ..base import yamlio
        from ..crypto.signing import split_signed_text

        text = yamlio.read_text(path)
        body = split_signed_text(text)[0]
        root = yamlio.load_rt(body, path)
        data = yamlio.check_two_readers(body, root, path)
        missing = [k for k in orders.COMMON if not isinstance(data, dict) or k not in data]
        if missing:
            raise InvalidInput(f"not a template with the envelope (no `{missing[0]}`): give the template the "
                               "umpire's mail attached", code="E111", file=path)
        if data["kind"] != kind:
            raise InvalidInput(f"this template is for {data['kind']} {data['decision']}: use `hxref "
                               f"{data['kind']} --template`", code="E304", file=path)
        if side and side != data["side"]:
            raise InvalidInput(f"this template is for {data['side']}, not {side}", code="E504", file=path)
        self.path, self.data, self.side, self.root = Path(path), data, str(data["side"]), root
        m = LINK_MARK.search(text)
        self.link_index = int(m[1]) if m else None

    @property
    def identity(self) -> str:
        return str(self.data["identity"])

    def created(self, key) -> dict | None:
        """The game's first event the join template carries, checked: its hash is the template's
        identity (E300), and it names this key as the template's side (E202); None for a template
        without it."""
        import base64
        import json
        import zlib

        from ..gamefile.game import event_hash

        packed = self.data.get("created")
        if packed is None:
            return None
        try:
            z = zlib.decompressobj()
            text = "".join(str(line) for line in packed) if isinstance(packed, list) else str(packed)
            raw = z.decompress(base64.b64decode(text, validate=True), 1 << 24)
            event = json.loads(raw.decode("utf-8"))
            assert not z.unconsumed_tail and isinstance(event, dict) and isinstance(event.get("data"), dict)
        except (ValueError, zlib.error, UnicodeDecodeError, AssertionError):
            raise InvalidInput("the template's `created` (the game's first event) is damaged", code="E112",
                               file=str(self.path)) from None
        if event.get("kind") != "game.created" or event_hash(event) != self.identity:
            raise InvalidInput(f"the template's `created` is not the first event of the game it names (identity "
                               f"{self.identity[:16]}): a forged template", code="E300", file=str(self.path))
        data = event["data"]
        mine = data.get("participants", {}).get(self.side, {})
        if mine.get("fingerprint") != key.public.fingerprint():
            raise InvalidInput(f"in the game this template names, {self.side}'s key is {mine.get('fingerprint')}, "
                               f"not yours ({key.public.fingerprint()})", code="E202", file=str(self.path))
        if data.get("meta", {}).get("mode") != "umpired" or "key" not in data.get("participants", {}).get("umpire", {}):
            raise InvalidInput("the game this template names is not an umpired game with an umpire's key",
                               code="E300", file=str(self.path))
        return data

    def choice(self, given: str | None):
        """``--choice`` when given, else the ``choice`` filled in in the template (E111: none)."""
        from ..referee import orders

        if given is not None:
            return orders.parse_choice(given)
        if "choice" not in self.data:
            raise InvalidInput("no `choice` in the template and no --choice: fill in `choice` in the template",
                               code="E111", file=str(self.path))
        from ..base import yamlio

        return yamlio.to_plain(self.data["choice"])

    def checked(self, key, kind: str, value, view_path: str | None) -> None:
        """Check ``value`` against the side's view (``--view``, or the one beside the template) with
        the umpire's own checks (:func:`hxref.report.side_view.check`), before anything is signed;
        say so when there is no view to check against."""
        from ..referee import orders
        from ..report import side_view

        head = str(self.data["head"])
        sv = side_view.read(view_path) if view_path else side_view.find(
            self.path, self.identity, self.side, str(self.data["decision"]), head)
        if sv is None:
            click.echo("note: no view of your side beside the template (the umpire's mail carries it as "
                       "SIDE-DECISION-view.yaml): your choice is not checked here; the umpire checks it")
            return
        env = {k: self.data[k] for k in ("game", "identity", "head", "decision", "side")}
        probe = orders.Order(source=str(self.path), text="", body="", armored=None,
                             data={**env, "kind": "answer" if kind == "commit" else kind, "choice": value},
                             root=self.root if "choice" in self.data and value == self.choice(None) else None)
        probe.game, probe.identity, probe.side, probe.decision, probe.kind = (
            str(env["game"]), self.identity, self.side, str(env["decision"]), probe.data["kind"])
        for note in side_view.check(sv, probe, signed=False):
            click.echo(f"note: {note}")
        click.echo(f"checked against {Path(sv.path).name} (the umpire's view of event {sv.seq}): the rules "
                   "accept the choice as far as your side can see")

    def write(self, key, kind: str, fields: dict, path: Path, comment: str, private: bool = False) -> None:
        from ..referee import key_record
        from ..referee import orders
        from ..referee.engine import now_iso
        from ..base.files import atomic_write
        from ..crypto.signing import sign_text

        env = {k: self.data[k] for k in ("game", "identity", "head", "decision", "side")}
        text = orders.render({**env, "at": now_iso(), "kind": kind, **fields}, comment)
        if kind == "answer" and self.own_earlier(path, key):
            atomic_write(path, sign_text(text, key).encode("utf-8"))
            click.echo(f"replaced {path.name}, your earlier answer for {env['decision']} (the umpire counts one "
                       "answer of yours: the first he accepts)")
        else:
            _write_new(path, sign_text(text, key), private=private)
        if kind != "join":
            key_record.note_signed(key.public.fingerprint(), self.identity, str(self.data["head"]),
                                   self.link_index if "link" in fields else None)

    def own_earlier(self, path: Path, key) -> bool:
        """Whether ``path`` is a regular file signed by ``key`` answering this template's game,
        side and decision: an earlier answer of this side (a resend after a refusal replaces it)."""
        from ..base import yamlio
        from ..crypto.signing import verify_text

        if path.is_symlink() or not path.is_file():
            return False
        try:
            signer, body = verify_text(yamlio.read_text(str(path)), source=str(path))
            old = yamlio.to_plain(yamlio.load_rt(body, str(path)))
        except HxrefError:
            return False
        return signer == key.public and isinstance(old, dict) and old.get("kind") == "answer" and all(
            str(old.get(k)) == str(self.data[k]) for k in ("identity", "side", "decision"))

    def nonce(self, key) -> str:
        """The nonce of the key's join of the template's game, once the template passes the key's
        record (E206: a game it never joined, an open one, a link past the next)."""
        from ..referee import key_record

        return key_record.template_nonce(key.public.fingerprint(), self.identity, self.side, self.link_index)

    def link(self, key) -> dict:
        from ..crypto import dice

        nonce = self.nonce(key)
        if self.link_index is None:
            return {}
        if not 1 <= self.link_index <= dice.CHAIN_LENGTH:
            raise InvalidInput(f"the template names link {self.link_index} of your chain, which has links 1 to "
                               f"{dice.CHAIN_LENGTH}", code="E206", file=str(self.path))
        return {"link": dice.chain_link(dice.chain_seed(key, self.identity, nonce), self.link_index)}


def _game_or_template(game, template_path, side, kind: str):
    """The template (umpired games, no game file), or None after checking GAME and --side are given."""
    if template_path:
        if game:
            raise InvalidInput("give GAME or --template FILE, not both", code="E504")
        return _Template(template_path, kind, side)
    if not game:
        raise InvalidInput("give GAME, or --template FILE (the template the umpire's mail attached)", code="E504")
    if not side:
        raise InvalidInput("--side is needed with GAME", code="E504")
    return None


# --- the signed files of a choice, written by `hxref answer` and `hxref commit` and by the order
# --- page (`hxref orders`, :mod:`hxref.desk`): one copy of each


def answer_in_game(eng, side: str, key, dec, value: dict, folder: Path) -> Path:
    """``hxref answer GAME``: check ``value`` (the choice's shape, then the rules), then sign and
    write SIDE-DECISION.yaml in ``folder`` with the side's dice link where the decision takes it."""
    from ..referee import orders

    probe = orders.Order(source="--choice", text="", body="", armored=None, data={"choice": value})
    orders.check_choice(probe, dec)
    orders.raise_problems(probe, eng.system.check(eng.state, dec, side, value))
    path = folder / f"{side}-{dec.id}.yaml"
    _sign_and_write(eng, side, key, {"decision": dec.id, "kind": "answer", **_own_link(eng, side, key, dec),
                                     **_sealed(eng, side, key, dec, value)}, path,
                    f"hxref answer of {side} for {dec.id}.", full=value)
    return path


def _sealed(eng, side: str, key, dec, value: dict) -> dict:
    """An answer's ``choice``: the whole choice, or in a game with hidden armies its public part,
    with ``sealed`` (the commitment to the whole): the whole choice and its salt are kept in the
    side's own file first (an answer it could not keep is never signed).  Every answer of such a
    game is sealed, even one whose whole is public: were only some sealed, the other side would
    learn from the file alone that the rest held something (a hidden administration)."""
    if not eng.fog:
        return {"choice": value}
    from ..crypto import commit as commit_mod

    public = eng.system.public_answer(eng.state, dec, side, value)
    eng.check_key(side, key)
    salt = commit_mod.new_salt()
    eng.store.seal(dec.id, value, salt)
    return {"choice": public, "sealed": commit_mod.commitment(value, salt, (eng.identity, dec.id, side))}


def commit_in_game(eng, side: str, key, dec, value: dict, folder: Path) -> tuple[Path, Path]:
    """``hxref commit GAME``: check ``value``, then sign and write the commitment and the kept
    reveal in ``folder``."""
    from ..crypto import commit as commit_mod
    from ..referee import orders

    probe = orders.Order(source="--choice", text="", body="", armored=None, data={"choice": value})
    orders.check_choice(probe, dec)
    orders.raise_problems(probe, eng.system.check(eng.state, dec, side, value))
    salt = commit_mod.new_salt()
    cpath, rpath = folder / f"{side}-{dec.id}-commit.yaml", folder / f"{side}-{dec.id}-reveal.yaml"
    for p in (cpath, rpath):
        if p.exists():
            raise InvalidInput("file exists already: you may have committed before; keep that reveal file",
                               code="E502", file=str(p))
    answer = _sealed(eng, side, key, dec, value)
    _sign_and_write(eng, side, key, {"decision": dec.id, "kind": "commit",
                                     "commitment": commit_mod.commitment(answer["choice"], salt,
                                                                         (eng.identity, dec.id, side))}, cpath,
                    f"hxref commitment of {side} for {dec.id}: send this file now.")
    _sign_and_write(eng, side, key, {"decision": dec.id, "kind": "reveal", **_own_link(eng, side, key, dec),
                                     **answer, "salt": salt}, rpath,
                    f"hxref reveal of {side} for {dec.id}: SECRET. Keep it until every side has\n"
                    "committed, then send it.", private=True, full=value)
    return cpath, rpath


def answer_from_template(t: _Template, key, value: dict, folder: Path, view_path: str | None) -> Path:
    """``hxref answer --template``: the template's checks against the key's record, the choice
    checked against the side's view, then SIDE-DECISION.yaml signed and written in ``folder``."""
    path = folder / f"{t.side}-{t.data['decision']}.yaml"
    link = t.link(key)      # the template's checks against the key's record, before anything is signed
    t.checked(key, "answer", value, view_path)
    t.write(key, "answer", {**link, "choice": value}, path, f"hxref answer of {t.side} for {t.data['decision']}.")
    return path


def commit_from_template(t: _Template, key, value: dict, folder: Path, view_path: str | None) -> tuple[Path, Path]:
    """``hxref commit --template``: as :func:`answer_from_template`, for a secret decision: the
    commitment and the kept reveal."""
    from ..crypto import commit as commit_mod

    salt = commit_mod.new_salt()
    dec_id, me = t.data["decision"], t.side
    cpath, rpath = folder / f"{me}-{dec_id}-commit.yaml", folder / f"{me}-{dec_id}-reveal.yaml"
    for p in (cpath, rpath):
        if os.path.lexists(p):
            raise InvalidInput("file exists already: you may have committed before; keep that reveal file",
                               code="E502", file=str(p))
    bound = (t.data["identity"], dec_id, me)
    link = t.link(key)      # the template's checks, before anything is signed
    t.checked(key, "commit", value, view_path)
    t.write(key, "commit", {"commitment": commit_mod.commitment(value, salt, bound)}, cpath,
            f"hxref commitment of {me} for {dec_id}: send this file now.")
    t.write(key, "reveal", {**link, "choice": value, "salt": salt}, rpath,
            f"hxref reveal of {me} for {dec_id}: SECRET. Keep it until every side has\n"
            "committed, then send it.", private=True)
    return cpath, rpath


def _check_charts(eng, game: str, side: str, show: bool, accept: bool) -> None:
    """The joining player's own check, on his machine, before he signs: the data files the game
    pins and its scenario (its creator's, covered by every join) against the ones his hxref
    publishes.  A friendlier chart, map or order of battle slipped in by whoever made the game is
    named here, not found in play."""
    from ..referee import published

    differ = published.differences(eng)
    if show:
        text = published.diff_text(eng) if differ else ""
        click.echo(text or "the game's pinned charts and scenario are your hxref's", nl=not text)
        for line in differ:
            click.echo(f"differs: {line}")
        return
    if not differ:
        return
    if not accept:
        raise InvalidInput(f"not signed: this game's charts or scenario differ from your hxref's: {'; '.join(differ)}; "
                           f"read them (hxref join {game} --side {side} --key KEY --show-charts) and join with "
                           "--accept-charts only if you agree to play with them", code="E507", file=game)
    click.echo(f"accepted charts that differ from the published ones: {'; '.join(differ)}")


def _own_link(eng, side: str, key, dec) -> dict:
    """``{link: ...}`` when ``side``'s dice link for ``dec`` goes in its own answer or reveal."""
    if side in eng.dice_parties(dec) and eng.links_in_answers(dec):
        return {"link": eng.next_link(side, key, dec)}
    return {}


def _signed_as_it_is(key, body: str, file: str) -> tuple[str, str, int | None] | None:
    """What ``hxref sign FILE`` (no game) signs for, checked against the key's record (E206): an
    order file names a game the key joined as an umpired game's side (a filled-in template), and
    its dice link, if any, is a link of the key's chain for it, at most the next one.  Returns
    (identity, head, link index) to record; None for a file that names no game."""
    from ..crypto import dice
    from ..referee import key_record
    from ..base import yamlio

    root = yamlio.load_rt(body, file)
    if not isinstance(root, dict) or "identity" not in root:
        return None
    identity, side, link = str(root["identity"]), str(root.get("side")), root.get("link")
    fp = key.public.fingerprint()
    nonce = key_record.template_nonce(fp, identity, side, None)
    index = None
    if link is not None:
        index = dice.index_of(dice.chain_seed(key, identity, nonce), str(link))
        if index is None:
            raise InvalidInput("not signed: its dice link is no link of your chain for this game", code="E206",
                               file=file)
        key_record.template_nonce(fp, identity, side, index)
    return identity, str(root.get("head")), index


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", "key_path", required=True, help="your private key file")
@click.option("--game", default=None, type=click.Path(exists=True, dir_okay=False),
              help="fill in the envelope first from this game: identity, head, time, and --side's dice "
                   "link where the decision takes it")
@click.option("--side", default=None, help=SIDE_HELP + " (with --game)")
def sign(file, key_path, game, side):
    """Sign an order file in place (the signature is appended as comment lines).

    Without --game (a template filled in as it is, umpired games) the file must name a game your
    key joined as an umpired game's side, and any dice link in it must be one of your chain for
    that game, at most the next one you have not signed yet.  This adds no dice link: for a
    template, `hxref answer --template FILE --key KEY` is the command that works for every
    decision (it checks the choice against your side's view and puts the link in).

    Example: hxref sign orders.yaml --key alice --game g.yaml --side union
    """
    from ..referee import key_record
    from ..base import yamlio
    from ..base.files import atomic_write
    from ..crypto.signing import sign_text, split_signed_text

    key = private_key(key_path)
    text = yamlio.read_text(file)
    body, _ = split_signed_text(text)
    signed_for = None
    if game:
        if not side:
            raise InvalidInput("--game needs --side", code="E504")
        eng = load_game(game)
        check_side(eng, side)
        root = yamlio.load_rt(body, file)
        if isinstance(root, dict):
            from ..referee import orders

            dec = eng.decision(str(root.get("decision"))) if root.get("decision") else None
            if dec is None:
                dec = eng.open_decision_for(side, None, ("answer",))
            kind = str(root.get("kind") or "answer")
            for k, v in eng.envelope(side, dec.id, kind).items():
                root[k] = v
            root["hxref"] = orders.FORMAT
            link = None
            if kind in ("answer", "reveal"):
                root.pop("link", None)
                own = _own_link(eng, side, key, dec)
                root.update(own)
                link = eng.link_index(side, dec) if own else None
            body = yamlio.dump_rt(root)
            key_record.check_history(key.public.fingerprint(), eng.identity, eng.gf.log, game,
                                     eng.participants[side].get("nonce"))
            signed_for = (eng.identity, root["head"], link)
    else:
        signed_for = _signed_as_it_is(key, body, file)
    atomic_write(Path(file), sign_text(body, key).encode("utf-8"))
    if signed_for is not None:
        key_record.note_signed(key.public.fingerprint(), *signed_for)
    click.echo(f"signed {file} with {key.public.fingerprint()}")


@click.command()
@optional_game
@optional_side
@key_option()
@dir_option
@template_option
@click.option("--show-charts", is_flag=True,
              help="print how the game's pinned charts, terrain types, map and scenario differ from your "
                   "hxref's (a unified diff) and stop")
@click.option("--accept-charts", is_flag=True,
              help="join although the game's pinned charts, terrain, map or scenario differ from your "
                   "hxref's (read them first: --show-charts)")
def join(game, side, key_path, out_dir, template_path, show_charts, accept_charts):
    """Write your signed join file: the tip of your dice chain for this game.

    First it prints what you sign: the game's identity and label, its mode, system and scenario,
    every participant with his key's fingerprint, the deadline policy and the optional rules.
    Your join signs the game's identity, which covers all of them and what the game is played
    with: the charts, terrain types and map pinned in it and its scenario.  So hxref also
    compares these with your own hxref's (games/<system>/), and refuses to sign when they differ
    (or the scenario is the creator's own file), naming each, unless you give --accept-charts
    after reading them (--show-charts).

    Your chain comes from your key, the game's identity and a fresh random nonce in your join
    file.  hxref keeps, under $HXREF_HOME, the games your key joined, and signs one join per
    game identity: a game re-made with an old game's identity is refused.

    Umpired, without the game: the join template carries the game's first
    event; hxref checks that its hash is the identity the template names
    and that it names your key, prints what you sign from it, and keeps the
    umpire's key: the one whose signed views of your side it believes.

    Example: hxref join g.yaml --side union --key alice   (then: hxref submit g.yaml union-join.yaml)
    Umpired, without the game: hxref join --template union-join-template.yaml --key alice
    """
    from ..referee import key_record

    if template_path and (show_charts or accept_charts):
        raise InvalidInput("a template holds no charts to compare: --show-charts and --accept-charts need GAME",
                           code="E504")
    t = _game_or_template(game, template_path, side, "join")
    if t is not None:
        from ..base import canon
        from ..crypto import dice

        key = private_key(key_path)
        fp = key.public.fingerprint()
        key_record.check_new_join(fp, t.identity, str(t.data["game"]))
        path = out_dir_for(str(t.path), out_dir) / f"{t.side}-join.yaml"
        if os.path.lexists(path):
            raise InvalidInput("file exists already; move it away or use another --dir", code="E502", file=str(path))
        created = t.created(key)
        if created is None:
            click.echo(f"you sign a join of game {t.data['game']!r} (identity {t.identity}), an umpired game, as "
                       f"{t.side} with {fp}; the template names nothing else: the umpire holds the game, and "
                       "his views of your side cannot be checked at home (no umpire's key to check them with)")
        else:
            from ..referee.published import options_of

            for line in join_lines(created, t.identity, t.side, options_of(created)):
                click.echo(line)
        nonce = canon.random_hex(32)
        tip = dice.chain_tip(dice.chain_seed(key, t.identity, nonce))
        key_record.note_join(fp, t.identity, game=str(t.data["game"]), mode="umpired", side=t.side, nonce=nonce,
                             tip=tip, head=str(t.data["head"]),
                             umpire=created["participants"]["umpire"]["key"] if created else None)
        try:
            t.write(key, "join", {"mode": "umpired", "nonce": nonce, "tip": tip}, path,
                    f"hxref join file for game {t.data['game']}: the tip of {t.side}'s dice chain.")
        except HxrefError:
            key_record.forget_join(fp, t.identity, nonce)
            raise
        click.echo(f"wrote {path}; send it to the umpire")
        return
    eng = load_game(game)
    check_side(eng, side)
    key = private_key(key_path)
    p = eng.participants[side]
    if p.get("fingerprint") != key.public.fingerprint():
        raise InvalidInput(f"that key is not {side}'s key in this game (expected {p.get('fingerprint')})",
                           code="E202")
    _check_charts(eng, game, side, show_charts, accept_charts)
    if show_charts:
        return
    path = out_dir_for(game, out_dir) / f"{side}-join.yaml"
    write_join(eng, side, key, path)
    click.echo(f"wrote {path}; submit it: hxref submit {game} {path.name}")


def what_a_join_signs(eng, side: str) -> list[str]:
    """What a join of ``side`` signs, as its signer reads it before signing: the game's identity and
    label, mode, system and scenario, every participant and key, the deadline policy and the
    optional rules, all from ``game.created`` (what the identity is the hash of)."""
    from ..referee.published import chosen_options

    return join_lines(eng.gf.log[0]["data"], eng.identity, side, chosen_options(eng))


def _title(system) -> str:
    from ..kit import registry

    try:
        return registry.info(str(system)).title
    except HxrefError:
        return str(system)


def join_lines(created: dict, identity: str, side: str, options: list[str]) -> list[str]:
    """:func:`what_a_join_signs` from ``game.created``'s data (a template's join reads it there)."""
    from ..referee.published import club_map_of

    meta = created["meta"]
    lines = [f"you sign a join of game {meta['game']!r} (identity {identity}) as {side}:",
             f"  {meta['mode']} game of {_title(meta.get('system'))}, scenario {meta['scenario']} ({meta['title']}), "
             f"made {meta['created']}"]
    for name, q in created["participants"].items():
        lines.append(f"  {q['role']:<7} {name}: {q.get('fingerprint', 'no key')}" + ("  (you)" if name == side else ""))
    policy = meta.get("policy")
    if policy:
        lines.append(f"  deadlines: {policy['deadline_hours']} h a decision, grace {policy.get('grace_hours', 0)} h, "
                     f"then a signed claim gives {policy['nmr']}"
                     + (f"; {policy['forfeit_after']} missed decisions forfeit" if "forfeit_after" in policy else ""))
    else:
        lines.append("  no deadlines: a party that stops sending can stall this game")
    lines.append("  optional rules your join agrees to: " + (", ".join(options) or "none"))
    club = club_map_of(created)
    if club is not None:
        lines.append(f"  map: a club's own, {club[0]}, sha256 {club[1]}")
    return lines


def write_join(eng, side: str, key, path: Path, nonce: str | None = None) -> None:
    """Print what the join signs, record it in the key's record (refused for an identity the key
    joined already: E206), then sign and write it; ``nonce`` (a demo's fixed one) instead of a
    fresh random nonce."""
    from ..referee import key_record

    fp = key.public.fingerprint()
    key_record.check_new_join(fp, eng.identity, eng.meta["game"])
    if os.path.lexists(path):
        raise InvalidInput("file exists already; move it away or use another --dir/--out", code="E502",
                           file=str(path))
    for line in what_a_join_signs(eng, side):
        click.echo(line)
    fields = eng.join_fields(key, nonce)
    store = None
    if eng.mode == "fog":
        # the side's own file first: a join whose seed could not be kept is never signed
        from ..crypto import fog
        from ..referee import fog_store

        eng.check_key(side, key)
        store = fog_store.create(eng.gf.path, eng.identity, side, fog.fog_seed(key, eng.identity, fields["nonce"]))
    key_record.note_join(fp, eng.identity, game=eng.meta["game"], mode=eng.mode, side=side, nonce=fields["nonce"],
                         tip=fields["tip"], head=eng.head_text())
    try:
        _sign_and_write(eng, side, key, fields, path,
                        f"hxref join file for game {eng.meta['game']}: the tip of {side}'s dice chain.")
    except HxrefError:
        key_record.forget_join(fp, eng.identity, fields["nonce"])
        if store is not None:
            store.path.unlink()
        raise
    if store is not None:
        click.echo(f"wrote {store.path.name}: {side}'s own file of this game. SECRET: never send it; back it up "
                   "with the game (without it you cannot prove your game)")


@click.command()
@optional_game
@optional_side
@key_option()
@click.option("--choice", default=None,
              help="your secret choice as YAML, e.g. 'bid: 4', or @FILE to read it from a YAML file "
                   "(with --template: default, the `choice` filled in in the template)")
@decision_option
@dir_option
@template_option
@view_option
def commit(game, side, key_path, choice, decision, out_dir, template_path, view_path):
    """Seal a secret choice: write the signed commitment and keep the reveal.

    Writes SIDE-DECISION-commit.yaml (send it now) and SIDE-DECISION-reveal.yaml
    (keep it; send it once every side has committed).  With --template the
    choice is checked first against your side's view (see hxref answer).

    Example: hxref commit g.yaml --side union --key alice --choice 'bid: 4'
    Umpired, without the game: fill in `choice` in the template, then
      hxref commit --template union-t1.bid-template.txt --key alice
    """
    from ..referee import orders

    t = _game_or_template(game, template_path, side, "commit")
    if t is not None:
        cpath, rpath = commit_from_template(t, private_key(key_path), t.choice(choice),
                                            out_dir_for(str(t.path), out_dir), view_path)
        click.echo(f"wrote {cpath.name} (send it now) and {rpath.name} (secret: keep it until the umpire "
                   "asks for it)")
        return
    if view_path:
        raise InvalidInput("--view goes with --template (with GAME the game itself is checked)", code="E504")
    if choice is None:
        raise InvalidInput("--choice is needed with GAME", code="E504")
    eng = load_game(game, side)
    check_side(eng, side)
    key = private_key(key_path)
    dec = eng.open_decision_for(side, decision, ("commit",))
    if not dec.secret:
        raise InvalidInput(f"decision {dec.id} is not secret: use `hxref answer`", code="E304")
    cpath, rpath = commit_in_game(eng, side, key, dec, orders.parse_choice(choice), out_dir_for(game, out_dir))
    click.echo(f"wrote {cpath.name} (send it now) and {rpath.name} (secret: keep it until every side "
               "has committed)")


@click.command()
@optional_game
@optional_side
@key_option(required=False, extra=" (not in solo mode)")
@click.option("--choice", default=None,
              help="your answer as YAML, e.g. 'level: 2', or @FILE to read it from a YAML file "
                   "(with --template: default, the `choice` filled in in the template)")
@decision_option
@dir_option
@template_option
@view_option
def answer(game, side, key_path, choice, decision, out_dir, template_path, view_path):
    """Answer an open (not secret) decision: write a signed order file.

    In a solo game no key is needed and the answer is stored at once.

    \b
    Umpired games, without the game file: fill in `choice` in the template
    the umpire's mail attached and run
      hxref answer --template union-t1.i1.orders-template.yaml --key alice
    It checks the choice against your side's view (the umpire-signed
    SIDE-DECISION-view.yaml of the same mail, found beside the template, or
    --view), with the rules' own check run on what your side sees: an enemy
    unit you cannot see is not in it, so the umpire's check decides.  Then it
    puts in your dice link, signs and writes SIDE-DECISION.yaml to send.  Run
    it again after a refusal: it replaces your own earlier answer file.

    Example: hxref answer g.yaml --side union --key alice --choice 'level: 2'
    """
    from ..referee import orders
    from ..gamefile.game import locked

    t = _game_or_template(game, template_path, side, "answer")
    if t is not None:
        if not key_path:
            raise InvalidInput("--key is needed to sign the answer", code="E504")
        path = answer_from_template(t, private_key(key_path), t.choice(choice), out_dir_for(str(t.path), out_dir),
                                    view_path)
        click.echo(f"wrote {path.name}; send it to the umpire")
        return
    if view_path:
        raise InvalidInput("--view goes with --template (with GAME the game itself is checked)", code="E504")
    if choice is None:
        raise InvalidInput("--choice is needed with GAME", code="E504")
    value = orders.parse_choice(choice)
    eng = load_game(game, side)
    check_side(eng, side)
    if eng.mode == "solo":
        with locked(game):
            eng = load_game(game)
            eng.answer_solo(side, decision, value)
            eng.save()
        click.echo(f"stored {side}'s answer; {eng.waiting_text()}")
        return
    if not key_path:
        raise InvalidInput("--key is needed to sign the answer", code="E504")
    key = private_key(key_path)
    dec = eng.open_decision_for(side, decision, ("answer",))
    path = answer_in_game(eng, side, key, dec, value, out_dir_for(game, out_dir))
    click.echo(f"wrote {path.name}; submit it: hxref submit {game} {path.name}")


@click.command()
@game_argument
@click.option("--side", default=None, help="open and umpired games: who signs (every side; in an umpired "
                                           "game the author and the umpire)")
@click.option("--key", "key_path", default=None, help="open and umpired games: your private key file")
@click.option("--target", default=None, metavar="SHA256",
              help="open and umpired games: the kept file to withdraw (its sha256 or a prefix; default: "
                   "the first one you may withdraw)")
@dir_option
def undo(game, side, key_path, target, out_dir):
    """Step back: in a solo game over the last answer or resolution, at once; in an open or
    umpired game withdraw a kept answer or commitment by signed consent.

    Every undo is in the log and in every side's report; nothing is deleted. In a solo game
    answering the same decision again rolls the same dice. In an open game every side signs
    (one asks, the others consent); in an umpired game the file's author and the umpire. A
    file that a dice link or a reveal has answered is final, and an undo never changes the
    dice of a decision: its links are bound to it.

    Examples: hxref undo g.yaml (solo); hxref undo g.yaml --side union --key alice (then submit it)
    """
    from ..gamefile.game import locked

    eng = load_game(game, side if side != "umpire" else None)
    if eng.mode == "solo":
        with locked(game):
            eng = load_game(game)
            ev = eng.undo()
            eng.save()
        click.echo(f"undid event {ev['seq']} ({ev['kind']} {ev['data'].get('decision') or ''}); "
                   f"next: {eng.waiting_text()}")
        return
    if not side or not key_path:
        raise InvalidInput(f"in a {eng.mode} game an undo is a signed file: give --side and --key", code="E504")
    if side != "umpire":
        check_side(eng, side)
    found = eng.undo_target(side) if target is None else next(
        ({"decision": d.id, **f} for d in eng.awaiting for f in eng.pending(d.id)["files"]
         if f["sha256"].startswith(target)), None)
    if found is None:
        raise InvalidInput("nothing can be withdrawn: no kept answer or commitment that a link or a reveal has "
                           "not answered yet", code="E308", file=game)
    key = private_key(key_path)
    eng.check_key(side, key)
    path = out_dir_for(game, out_dir) / f"{side}-undo-{found['sha256'][:12]}.yaml"
    what = f"{found['kind']} of {found['party']} for {found['decision']}"
    _sign_and_write(eng, side, key, {"decision": found["decision"], "kind": "undo", "target": found["sha256"]},
                    path, f"hxref withdrawal of the {what} (sha256 {found['sha256'][:16]}), signed by {side}.")
    click.echo(f"wrote {path.name}: the withdrawal of the {what}; submit it: hxref submit {game} {path.name}; "
               f"it takes effect when {', '.join(eng.undo_voters(found['party']))} have all signed")


@click.command()
@game_argument
@side_option()
@decision_option
@click.option("--out", "-o", default=None, type=click.Path(dir_okay=False),
              help="write the skeleton here (default: print it)")
def template(game, side, decision, out):
    """Write a commented skeleton of the order file awaited from SIDE.

    It lists what you may order now (your forces, their positions, what the
    rules allow); fill in `choice`, then `hxref sign FILE --key K --game GAME
    --side SIDE` adds the dice link and the signature.  In a game with hidden
    armies (--mode fog) the skeleton is the choice alone: fill it in, then
    `hxref answer GAME --side SIDE --key K --choice @FILE` seals and signs it.

    Example: hxref template g.yaml --side union -o union-orders.yaml
    """
    from ..referee import orders

    from ..report.turn import own_lines

    eng = load_game(game, side)         # a game with hidden armies: as the side's own copy knows it
    check_side(eng, side)
    text, is_file = orders.skeleton(eng, Path(game).name, side, decision, own_lines(eng, side) if eng.fog else ())
    if is_file and out:
        _write_new(Path(out), text)
        click.echo(f"wrote {out}")
    else:
        click.echo(text, nl=False)


@click.command()
@game_argument
@side_option(", or umpire")
@key_option()
@decision_option
@dir_option
def roll(game, side, key_path, decision, out_dir):
    """Give your dice link to a decision you do not answer, once its answers are in.

    The link is the one of your chain bound to that decision, and the file names the
    answers it follows: it cannot be sent before them, twice, or for other answers.

    Example: hxref roll g.yaml --side confederate --key bob
    """
    from ..referee import trust as protocol

    eng = load_game(game, side)
    check_side(eng, side)
    key = private_key(key_path)
    dec = eng.open_decision_for(side, decision, ("roll",))
    if not eng.complete(dec):
        raise InvalidInput(f"{dec.id} still waits for its answers: a dice link follows them "
                           f"({eng.waiting_text()})", code="E311")
    path = out_dir_for(game, out_dir) / f"{side}-{dec.id}-roll.yaml"
    answers = protocol.answers_hash(dec.id, eng.pending(dec.id)["files"])
    _sign_and_write(eng, side, key, {"decision": dec.id, "kind": "roll", "link": eng.next_link(side, key, dec),
                                     "answers": answers}, path, f"hxref dice link of {side} for {dec.id}.")
    click.echo(f"wrote {path.name}; submit it: hxref submit {game} {path.name}")


@click.command()
@game_argument
@side_option(", or umpire (umpired games)")
@key_option()
@click.option("--against", required=True, help="the side that missed the deadline")
@decision_option
@dir_option
def claim(game, side, key_path, against, decision, out_dir):
    """Claim, signed, that AGAINST missed the deadline of a decision.

    A claim is accepted only when its signed time is past the deadline and its grace. It
    gives the late side's decision its declared default answer (--nmr stand-fast) or
    forfeits the game (--nmr forfeit, or a withheld reveal or dice link); it is in every
    side's report. In an umpired game the umpire signs claims; in an open game the other side,
    once it has sent its own files for the decision (what it can send now).

    Example: hxref claim g.yaml --side union --key alice --against confederate
    """
    eng = load_game(game, side if side != "umpire" else None)
    if side != "umpire":
        check_side(eng, side)
    check_side(eng, against)
    key = private_key(key_path)
    eng.check_key(side, key)
    cands = [d for d in eng.awaiting if eng.owed_by(against, d) and (decision is None or d.id == decision)]
    if not cands:
        raise InvalidInput(f"{against} owes nothing now: " + eng.waiting_text(), code="E312")
    dec = cands[0]
    path = out_dir_for(game, out_dir) / f"{side}-{dec.id}-claim-{against}.yaml"
    _sign_and_write(eng, side, key, {"decision": dec.id, "kind": "claim", "against": against}, path,
                    f"hxref claim of {side}: {against} missed the deadline of {dec.id} ({eng.due(dec)}).")
    click.echo(f"wrote {path.name}; submit it: hxref submit {game} {path.name}")



@click.command("open")
@game_argument
@side_option()
@key_option()
@decision_option
@dir_option
def open_cmd(game, side, key_path, decision, out_dir):
    """Games with hidden armies: open the boxes of your army the rules reveal now.

    Once every answer and dice link of a decision is in, the rules may reveal some of your
    boxes (the forces in a combat, your War Effort Points at a third tie): the decision closes
    only when each side has opened them.  hxref finds which (as every copy does, from a dry run
    of the resolution), and writes them with your commitment, each checked by the other side
    against it.

    Example: hxref open g.yaml --side union --key alice   (then: hxref submit g.yaml union-t1.bid.r3-open.yaml)
    """
    eng = load_game(game, side)
    check_side(eng, side)
    key = private_key(key_path)
    if not eng.fog:
        raise InvalidInput("only a game played with hidden armies (--mode fog) opens boxes", code="E504", file=game)
    eng.check_key(side, key)
    cands = [d for d in eng.awaiting if eng.owed_by(side, d) == "open" and decision in (None, d.id)]
    if not cands:
        raise InvalidInput(f"the rules reveal none of {side}'s boxes now: " + eng.waiting_text(), code="E308")
    dec = cands[0]
    path = out_dir_for(game, out_dir) / f"{side}-{dec.id}-open.yaml"
    _sign_and_write(eng, side, key, {"decision": dec.id, "kind": "open"}, path,
                    f"hxref openings of {side} for {dec.id}: the boxes the rules reveal.")
    click.echo(f"wrote {path.name} (opens {', '.join(eng.owed_openings(dec)[side])}); submit it: "
               f"hxref submit {game} {path.name}")


@click.command()
@game_argument
@side_option()
@key_option()
@dir_option
def challenge(game, side, key_path, out_dir):
    """Games with hidden armies: write your proof, at the game's end or to challenge it before.

    The proof carries your fog seed (your join committed to it) and your sealed answers, from
    your own file, and for every root you signed the leaf hashes of its tree, so that a false root
    is named by the box it lies about.  When every side's proof is in, every copy replays the whole game with full
    information and checks every commitment, opening, claim, shown counter and sealed answer:
    the first false one names its side, its file, the box and the rule, and that side forfeits;
    with none, the game's state is the true one and the fog is lifted.

    At the end, every side owes its proof.  Before it, a side may challenge between blocks (no
    file of an awaited decision kept): the game then waits for the other side's proof before any
    other file; if the proof passes, the game goes on as an open game (both armies are known),
    each side playing on with `hxref answer` and `hxref roll` as in any open game.  Withholding
    your proof is a forfeit by claim.

    Example: hxref challenge g.yaml --side union --key alice   (then: hxref submit g.yaml union-proof.yaml)
    """
    from ..referee.shadow import PROOF

    eng = load_game(game, side)
    check_side(eng, side)
    key = private_key(key_path)
    if not eng.fog:
        raise InvalidInput("only a game played with hidden armies (--mode fog) is proven, and once", code="E504",
                           file=game)
    eng.check_key(side, key)
    dec = eng.decision(PROOF)
    if dec is not None and eng.owed_by(side, dec) != "proof":
        raise InvalidInput("your proof is in already: " + eng.waiting_text(), code="E308", file=game)
    if dec is None and eng.pending_files():
        raise InvalidInput("a challenge comes between blocks: " + eng.waiting_text(), code="E308", file=game)
    path = out_dir_for(game, out_dir) / f"{side}-proof.yaml"
    _sign_and_write(eng, side, key, {"decision": PROOF, "kind": "proof", "seed": eng.store.seed.hex(),
                                     "sealed_answers": eng.store.sealed, "leaves": eng.proof_leaves(side)}, path,
                    f"hxref proof of {side}: its fog seed, sealed answers and the leaves of its roots.")
    click.echo(f"wrote {path.name}; submit it: hxref submit {game} {path.name}")
