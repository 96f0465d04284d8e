"""Order files: one signed YAML file answers one decision.

Every order file has the same envelope (SECURITY.md, "The protocol")::

    hxref: 2                 # order file format
    game: hb-demo            # the game's label, for people
    identity: 6c0e...        # the game's identity: the hash of its first event
    head: 9b41...@37         # the head the file was written against (hash @ event number)
    at: '2026-11-29T12:00:00Z'   # the author's signed time
    decision: t1.bid         # the decision it answers
    side: union              # who sends it
    kind: commit             # join | commit | reveal | answer | roll | claim | undo
    tip: 5d41...             # join: the tip of the side's dice chain for this game
    nonce: 8c7e...           # join: fresh randomness of the joiner, in his chain's seed
    mode: open               # join: the game's mode (open, umpired or fog) the joiner signs for
    fog: 2c9d...             # join, fog games: the commitment to the side's fog seed
    commitment: 9a0b...      # commit
    choice: {bid: 4}         # reveal and answer
    salt: 77e2...            # reveal
    link: 3f1c...            # the side's dice link bound to this decision (reveal, answer, roll)
    answers: 0d2e...         # roll: the hash of the choices the link follows
    against: confederate     # claim: the side that missed the deadline
    target: 51aa...          # undo: the sha256 of the kept file to withdraw
    root: e3b0...            # fog games: the Merkle root of the signer's boxes at `head`
    shown: {}                # fog games: what the signer's army shows every player
    claims: {}               # fog games, answers: facts of the signer's boxes the rules read
    openings: []             # fog games: boxes the rules reveal, each opening `root`
    sealed: 4b1f...          # fog games, answers: the commitment to the whole choice
    seed: 9f86...            # proof: the side's fog seed
    sealed_answers: {}       # proof: the side's sealed answers, {decision: {choice, salt}}
    leaves: {}               # proof: each root the side signed: its tree's leaf hashes, base64
    # -----BEGIN SSH SIGNATURE-----
    # ...
    # -----END SSH SIGNATURE-----

Reading is strict (:mod:`hxref.base.yamlio`): no anchors, aliases or tags, no
duplicate keys, bounded size, and the same reading under two YAML readers.
Every problem is an :class:`~hxref.base.errors.HxrefError` naming the file, the
line and the key.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..base.canon import is_hex
from .trust import is_signed_time, parse_head
from ..base.errors import IllegalOrder, InvalidInput

if TYPE_CHECKING:
    from ..kit.protocol import Decision, Problem

# the YAML readers (:mod:`hxref.base.yamlio`) and the schema (:mod:`hxref.kit.schema`) are imported by
# the functions that read or check a file: a command that only looks at a game (``hxref status``)
# does not pay for them

FORMAT = 2
KINDS = ("join", "commit", "reveal", "answer", "roll", "claim", "undo", "open", "proof")
COMMON = ("hxref", "game", "identity", "head", "at", "decision", "side", "kind")
BY_KIND: dict[str, tuple[str, ...]] = {
    "join": ("tip", "nonce", "mode"),
    "commit": ("commitment",),          # no link: a later committer must not see one
    "reveal": ("choice", "salt"),
    "answer": ("choice",),
    "roll": ("link", "answers"),
    "claim": ("against",),
    "undo": ("target",),
    "open": ("root", "openings"),
    "proof": ("seed", "sealed_answers", "leaves"),
}
#: the command that writes a file of each kind
WRITTEN_BY: dict[str, str] = {"join": "join", "commit": "commit", "reveal": "commit", "answer": "answer",
                              "roll": "roll", "claim": "claim", "undo": "undo", "open": "open", "proof": "challenge"}
#: keys a kind may carry: the dice link, where the decision takes it in the file (the engine checks)
OPTIONAL: dict[str, tuple[str, ...]] = {"reveal": ("link",), "answer": ("link",)}
#: keys of a file in a game played with hidden armies (the engine says which a file must carry)
FOG_KEYS: dict[str, tuple[str, ...]] = {
    "join": ("fog",),
    "commit": ("root", "shown"),
    "reveal": ("root", "shown", "claims", "openings", "sealed"),
    "answer": ("root", "shown", "claims", "openings", "sealed"),
    "roll": ("root", "shown", "openings"),
    "claim": ("root", "shown"),
    "undo": ("root", "shown"),
    "open": ("shown",),
}


@dataclass
class Order:
    """A parsed order file: its fields, its signed text, and where each key stands."""

    source: str
    text: str                  # the whole file as received (line endings normalised)
    body: str                  # the signed part
    armored: str | None        # the signature, if embedded or detached
    data: dict                 # plain data of the body
    root: Any = field(default=None, repr=False)  # ruamel node (line numbers), None when read fast
    #: the text exactly as given: a detached signature covers these bytes, as ssh-keygen checks them
    raw: str | None = field(default=None, repr=False)

    game: str = ""
    identity: str = ""
    decision: str = ""
    side: str = ""
    kind: str = ""

    def line(self, *path) -> int | None:
        from ..base import yamlio

        return yamlio.line_of_path(self.root, list(path)) if self.root is not None else None

    def error(self, cls, message: str, *, code: str, path: tuple = (), rule: str | None = None,
              hint: str | None = None):
        from ..base import yamlio

        return cls(message, code=code, file=self.source, line=self.line(*path),
                   path=yamlio.format_path(list(path)) if path else None, rule=rule, hint=hint)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse(text: str, source: str, *, fast: bool = False) -> Order:
    """Parse and check the envelope of an order file.

    ``fast`` reads with the second reader only (no line numbers): used by
    ``hxref audit`` on files that were fully checked when they were accepted.
    """
    from ..base import yamlio
    from ..crypto.signing import split_signed_text

    raw, text = text, normalise(text)
    body, armored = split_signed_text(text)
    if fast:
        root = None
        data = yamlio.to_plain(yamlio.fast_load(body))
    else:
        root = yamlio.load_rt(body, source)
        data = yamlio.check_two_readers(body, root, source)
    order = Order(source=source, text=text, body=body, armored=armored, data=data, root=root, raw=raw)
    check_envelope(order)
    return order


def check_envelope(order: Order) -> None:
    """Check the envelope every order file shares, in this order: a mapping in this format with the
    common keys; the names; the keys of its kind; the values (hashes, head, time, against, choice).
    Then record what the file names on ``order``."""
    d = order.data
    _check_format(order, d)
    _check_names(order, d)
    kind = d["kind"]
    _check_kind_keys(order, d, kind)
    _check_values(order, d)
    order.game, order.decision, order.side, order.kind = d["game"], d["decision"], d["side"], kind
    order.identity = d["identity"]


def _check_format(order: Order, d: Any) -> None:
    """A YAML mapping (E112) with every common key (E111), in the format this hxref reads (E112)."""
    if not isinstance(d, dict):
        raise InvalidInput("an order file must be a YAML mapping (key: value lines)", code="E112",
                           file=order.source, line=1)
    for key in COMMON:
        if key not in d:
            raise order.error(InvalidInput, f"missing key `{key}`", code="E111",
                              hint="start from a file written by `hxref commit`, `hxref answer` or `hxref join`")
    if d["hxref"] != FORMAT:
        old = " (made by hxref 0.1: write it again with this hxref)" if d["hxref"] == 1 else ""
        raise order.error(InvalidInput, f"unknown order file format {d['hxref']!r} (this hxref reads {FORMAT}){old}",
                          code="E112", path=("hxref",))


def _check_names(order: Order, d: dict) -> None:
    """``game``, ``decision``, ``side`` and ``kind`` are short, printable ASCII texts (E112)."""
    for key in ("game", "decision", "side", "kind"):
        if not isinstance(d[key], str) or not d[key] or len(d[key]) > 200:
            raise order.error(InvalidInput, f"`{key}` must be a short text", code="E112", path=(key,))
        if not d[key].isascii() or not d[key].isprintable():
            raise order.error(InvalidInput, f"`{key}` must be plain ASCII letters, digits and punctuation",
                              code="E112", path=(key,))


def _check_kind_keys(order: Order, d: dict, kind: str) -> None:
    """A known kind (E112); no key its kind does not allow (E110); every key its kind needs (E111)."""
    if kind not in KINDS:
        raise order.error(InvalidInput, f"unknown kind {kind!r}; one of: {', '.join(KINDS)}", code="E112",
                          path=("kind",))
    allowed = set(COMMON) | set(BY_KIND[kind]) | set(OPTIONAL.get(kind, ())) | set(FOG_KEYS.get(kind, ()))
    for key in d:
        if key not in allowed:
            shown = key if isinstance(key, str) and key.isprintable() else repr(key)   # one line, whatever the key
            raise order.error(InvalidInput, f"unknown key `{shown}` in {_article(kind)} {kind} file", code="E110",
                              path=(shown,), hint=f"{_article(kind)} {kind} file has: {', '.join(sorted(allowed))}")
    for key in BY_KIND[kind]:
        if key not in d:
            hint = ("`hxref sign FILE --key KEY --game GAME --side SIDE` adds the dice link (umpired games: "
                    "`hxref answer --template FILE --key KEY`)" if key == "link"
                    else f"`hxref {WRITTEN_BY[kind]}` writes {_article(kind)} {kind} file whole")
            raise order.error(InvalidInput, f"missing key `{key}` in {_article(kind)} {kind} file", code="E111",
                              hint=hint)


def _check_values(order: Order, d: dict) -> None:
    """The values' forms (E112): hashes of 64 hex digits, ``head`` as HASH@SEQ, ``at`` a UTC time to the
    second (``YYYY-MM-DDTHH:MM:SSZ``), ``against`` a side's name, ``choice`` a mapping."""
    for key in ("identity", "link", "commitment", "salt", "tip", "nonce", "answers", "target", "fog", "root",
                "sealed", "seed"):
        if key in d and not is_hex(d[key], 32):
            raise order.error(InvalidInput, f"`{key}` must be 64 lower-case hex digits", code="E112", path=(key,))
    head = parse_head(d["head"])
    if head is None or len(head[0]) != 64:
        raise order.error(InvalidInput, "`head` is the head the file was written against: 64 hex digits, @, "
                          "the event number", code="E112", path=("head",))
    if not is_signed_time(d["at"]):
        raise order.error(InvalidInput, "`at` is the time the file was written, in UTC to the second "
                          "('2026-11-29T12:00:00Z')", code="E112", path=("at",))
    if "mode" in d and d["mode"] not in ("open", "umpired", "fog"):
        raise order.error(InvalidInput, "`mode` is the game's mode: open, umpired or fog", code="E112", path=("mode",))
    for key in ("shown", "claims", "sealed_answers", "leaves"):
        if key in d and not isinstance(d[key], dict):
            raise order.error(InvalidInput, f"`{key}` must be a mapping", code="E112", path=(key,))
    if "openings" in d:
        from ..crypto.merkle import Opening

        if not isinstance(d["openings"], list):
            raise order.error(InvalidInput, "`openings` must be a list of openings", code="E112", path=("openings",))
        for i, item in enumerate(d["openings"]):
            Opening.from_data(item, order.source)
    if "against" in d and (not isinstance(d["against"], str) or not d["against"].isascii()
                           or not d["against"].isprintable() or len(d["against"]) > 200):
        raise order.error(InvalidInput, "`against` names a side", code="E112", path=("against",))
    if "choice" in d and not isinstance(d["choice"], dict):
        raise order.error(InvalidInput, "`choice` must be a mapping, e.g. `choice: {bid: 4}`", code="E112",
                          path=("choice",))


def choice_problems(order: Order, decision: Decision) -> list[InvalidInput]:
    """Every problem of ``choice`` against the decision's schema (:func:`hxref.kit.schema.check`:
    keys, types, values, at every depth), in the order of the file, each at its line."""
    from ..kit import schema

    found = [order.error(InvalidInput, p.message, code=p.code, path=("choice", *p.path), rule=p.rule or None)
             for p in schema.check(decision.schema, order.data.get("choice", {}), decision.rule)]
    found.sort(key=lambda e: e.where.line or 0)          # stable: the file's order, top to bottom
    return found


def check_choice(order: Order, decision: Decision, rules=None) -> None:
    """Check ``choice`` against the decision's schema, once for every system: keys, types and
    values at every depth, with line numbers; raise one error carrying every problem
    (:func:`hxref.base.errors.gather`).  A system's ``check`` is asked only of a well-formed choice.

    ``rules`` (a function of a choice, returning the rules' :class:`Problem` list) is asked too
    when the schema's only problems are unknown keys, with those keys left out (at every depth):
    the choice is then well formed, and the file's rules problems are listed with its schema
    problems."""
    from ..base.errors import HxrefError, gather
    from ..kit import schema

    found: list[HxrefError] = list(choice_problems(order, decision))
    if not found:
        return
    if rules is not None and all(e.code == "E110" for e in found):
        found += rules_errors(order, rules(schema.known(decision.schema, order.data.get("choice", {}))))
    raise gather(found)


def rules_errors(order: Order, problems: list[Problem]) -> list[IllegalOrder]:
    """The rules' problems as errors, each at its line."""
    return [order.error(IllegalOrder, p.message, code="E400", path=("choice", *p.path), rule=p.rule)
            for p in problems]


def raise_problems(order: Order, problems: list[Problem]) -> None:
    """Raise one error carrying every rules problem, each at its line (none: nothing)."""
    from ..base.errors import gather

    if problems:
        raise gather(rules_errors(order, problems))


def render(fields: dict, comment: str = "") -> str:
    """The text of an order file (before signing), with a comment header for people.

    Every line is at most :data:`hxref.base.yamlio.COLUMNS` (72) characters, so the file survives a
    mail client that hard-wraps a pasted body: the comment is wrapped on word boundaries, and a
    longer value (an identity, a head, a commitment) is written as a double-quoted string
    continued with a trailing backslash, which both YAML readers join with nothing between
    (:func:`hxref.base.yamlio.fold_long_lines`).  The signature block appended by
    :func:`hxref.crypto.signing.sign_text` is within 72 columns too."""
    return _commented({"hxref": FORMAT, **fields}, comment)


def _commented(data: dict, comment: str) -> str:
    """``data`` as YAML within 72 columns under the comment header ``comment``."""
    from ..base import yamlio

    lines = yamlio.wrap_comment(comment.strip()) if comment else []
    head = "\n".join(lines) + ("\n" if lines else "")
    # one scalar a line (no soft wrapping by the emitter), then each long line folded exactly
    return head + yamlio.fold_long_lines(yamlio.dump_fast(data, width=1_000_000), data=data)


def skeleton(eng: Any, game: str, side: str, decision: str | None, own: Sequence[str] = ()) -> tuple[str, bool]:
    """What ``hxref template GAME --side SIDE`` prints: the commented skeleton of the order file
    awaited from ``side`` (its decision ``decision``, or the one it owes), and whether it is an
    order file to fill in (True) or, for a secret decision, the ``hxref commit`` command that seals
    the choice (False).  ``game`` is the game file as the player named it; ``own``: what only the
    side saw since its last file (a game with hidden armies), one line each.

    In a game with hidden armies a file signed by hand carries no commitment to the side's army and
    is refused: the skeleton there is the choice alone, which ``hxref answer --choice @FILE`` reads,
    seals and signs, and its last line names that command."""
    import json
    from pathlib import Path

    name = Path(game).name
    dec = eng.open_decision_for(side, decision, ("answer",))
    view = eng.system.view(eng.state, side, eng.view_mode)
    tpl = eng.system.template(view, dec, side)
    notes, choice = tpl.notes, tpl.choice
    lines = [f"hxref {'choice' if eng.fog else 'order file'} for game {eng.meta['game']}, decision {dec.id} ({side}).",
             f"{dec.prompt} [rule {dec.rule}]", ""]
    # the system's notes name the keys its checker accepts here (`choice.KEY: ...` lines, a key it
    # refuses in this game left out); without them the schema's one-line help is all there is
    told = [line for line in notes if line.startswith("choice.") and ":" in line]
    if not told:
        for key, spec in dec.schema.items():
            lines.append(f"choice.{key}: {spec.help}" + (" (optional)" if spec.optional else ""))
    notes = [f"choice.{line[7:].split(':', 1)[0]}: (optional){line.split(':', 1)[1]}"
             if line.startswith("choice.") and line[7:].split(":", 1)[0] in dec.schema
             and dec.schema[line[7:].split(":", 1)[0]].optional else line for line in notes]
    lines += ([""] if len(lines) > 3 else []) + notes
    if own:
        lines += ["", f"Only you saw, since your last file ({len(own)}):"] + [f"  {line}" for line in own]
    if eng.fog:
        lines += ["", f"Then: hxref answer {name} --side {side} --key YOUR_KEY --decision {dec.id} --choice "
                      f"@THIS_FILE: it checks the choice, seals it under your army's commitment, signs it and "
                      f"writes {side}-{dec.id}.yaml; send that file."]
    else:
        lines += ["", f"Then: hxref sign THIS_FILE --key YOUR_KEY --game {name} --side {side}; hxref check "
                      f"{name} THIS_FILE; send it."]
    if dec.secret:
        # the skeleton on one line, `{}` when it orders nothing: the command runs as printed
        example = ", ".join(f"{k}: {json.dumps(v)}" for k, v in choice.items()) or "{}"
        return ("\n".join("# " + line if line else "#" for line in lines[:-1]) + "\n"
                f"# {dec.id} is secret: seal your choice with\n"
                f"hxref commit {game} --side {side} --key YOUR_KEY --choice '{example}'\n"), False
    if eng.fog:
        return _commented(choice, "\n".join(lines)), True
    return render({**eng.envelope(side, dec.id, "answer"), "choice": choice}, "\n".join(lines)), True


def comment_lines(text: str) -> list[str]:
    """``text`` as ``# `` comment lines within 72 columns (for a file or output meant to be mailed)."""
    from ..base import yamlio

    return yamlio.wrap_comment(text)


def parse_choice(text: str, source: str = "--choice") -> dict:
    """A choice given on the command line, e.g. ``'bid: 4'`` or ``'{bid: 4}'``, or ``@FILE`` to read it
    from a YAML file."""
    from ..base import yamlio

    if text.startswith("@"):
        source = text[1:]
        text = yamlio.read_text(source)
    root = yamlio.load_rt(text, source)
    data = yamlio.check_two_readers(text, root, source)
    if not isinstance(data, dict):
        raise InvalidInput("a choice is key: value, e.g. 'bid: 4'", code="E504", file=source)
    return data
