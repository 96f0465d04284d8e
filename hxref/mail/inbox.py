"""The inbox (:func:`run_inbox`): the messages of a source that carry hxref files, submitted to their games.

A source is a Maildir, an mbox file or a folder of ``.eml`` files (:class:`Source`); the hxref files
of each message (order files, game files) are found by :func:`hxref.mail.read.find_orders`.

The inbox acts only on messages that carry hxref files.  Every other message (a friend's mail, a
key sent by hand, an hxref report without files, a mail it cannot parse) is left exactly where it
is and is not counted as a refusal; so is a message whose files are all for games that are not
here (the inbox run for those games takes it).  It may therefore be pointed at a whole mailbox.

Each order file is matched to a game by its ``game:`` id (one game file, or every game file under
a folder: :class:`Games`), then submitted through :class:`~hxref.referee.engine.Engine` under the game's
lock.  A message is taken whole or not at all (:func:`process_message`): its files are submitted in
order to the games in memory and saved only when every one of them is accepted; one refusal
rejects the whole message and stores nothing.  Messages that fail are tried again after the others
while that gets more accepted, so a reveal read before the commitment it waits for still goes in.
A refused message is answered to whoever sent its file (:func:`refusal_for`): the side whose key
signed it, else the message's sender.

Nothing is removed from the source, renamed or flagged.  A message once processed (accepted, or
refused and answered) is remembered by its digest in this machine's record
(:class:`Processed`, ``$HXREF_HOME/inbox/processed``) and passed by on later runs, so it is never
submitted, refused or answered twice.  A record rather than a Maildir flag: the flags belong to the
player's mail client (he marks mail read or unread, and the opponent's report must stay unread
until he has read it), an mbox or ``.eml`` file has no flag that can be set without rewriting it,
and one record of digests works alike for the three sources.  The digest
(:func:`message_digest`) covers the message's identity headers and its body, not the headers a
client adds as it reads (an mbox's ``Status:``), so reading a mail does not make it new, while a
corrected file sent again is a new message.  With ``--archive DIR`` a copy of each processed
message goes to ``DIR/done/`` or ``DIR/rejected/`` (with ``NAME.reason`` beside it).
"""
from __future__ import annotations

import contextlib
import hashlib
import re
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Callable, Iterable

from ..base.errors import HxrefError, InvalidInput
from .read import GAME_MARK, Found, best_reading, find_orders, read_message


# === games ======================================================================================

def game_id_of(path: Path) -> str | None:
    """The game id of a game file (read from its header only), or None if it is not one."""
    from ..base import yamlio
    from ..base.files import read_regular
    from ..gamefile.game import LOG_MARKER

    try:
        if read_regular(path, len(GAME_MARK)) != GAME_MARK:
            return None
        data = read_regular(path)
        head = data.decode("utf-8").partition("\n" + LOG_MARKER + "\n")[0]
        meta = (yamlio.fast_load(head) or {}).get("meta") or {}
        return str(meta["game"]) if "game" in meta else None
    except Exception:  # unreadable, or YAML that is no game header: not a game file
        return None


class Games:
    """The games an inbox feeds: one game file, or every game file under a folder, by game id."""

    def __init__(self, target: str | Path, allow_new: bool = False):
        self.target = Path(target)
        self.single = not self.target.is_dir()
        self.paths: dict[str, list[Path]] = {}
        if self.single and allow_new and not self.target.exists():
            return              # a game file to come: the first game file that arrives is saved here
        if self.single:
            gid = game_id_of(self.target)
            if gid is None:
                from ..referee.engine import Engine

                Engine.load(self.target)      # says what is wrong with it
                raise InvalidInput("not an hxref game file", code="E500", file=str(self.target))
            self.paths[gid] = [self.target]
            return
        for p in sorted(self.target.rglob("*.yaml")):
            if any(part.startswith(".") for part in p.relative_to(self.target).parts):
                continue
            gid = game_id_of(p)
            if gid is not None:
                self.paths.setdefault(gid, []).append(p)
        if not self.paths and not allow_new:
            raise InvalidInput("no game file in this folder (nor below it)", code="E100", file=str(self.target),
                               hint="a game file mailed to you is saved here when you give your key (--key)")

    def new_path(self, name: str) -> Path:
        """Where a game file that arrived for no game here is saved: the target game file's path
        (when there is none yet), else under its own name in the target folder."""
        from ..referee.bundle import _safe_name

        if self.single:
            if self.target.exists() or self.paths:
                raise InvalidInput(f"{self.target} holds another game; give a folder to keep several",
                                   code="E502", file=name)
            return self.target
        dest = self.target / _safe_name(name)
        if dest.exists():
            raise InvalidInput(f"{dest} exists and holds another game: rename one of them", code="E502", file=name)
        return dest

    def add(self, gid: str, path: Path) -> None:
        self.paths.setdefault(gid, []).append(path)

    def holds(self, gid: str | None) -> bool:
        """Whether a file of game ``gid`` is for here (an unknown id, None, is taken for here: its
        refusal says what is wrong with the file)."""
        return gid is None or gid in self.paths

    def path_for(self, order) -> Path:
        """The game file an order is for (a single game takes every file: it refuses other games')."""
        if self.single:
            if not self.paths:
                raise order.error(InvalidInput, f"there is no game file {self.target} yet: it comes with the "
                                  "first mail of the game", code="E300", path=("game",))
            return self.target
        paths = self.paths.get(order.game)
        if not paths:
            known = ", ".join(sorted(self.paths))
            raise order.error(InvalidInput, f"this file is for game {order.game!r}, which is not under "
                              f"{self.target} (games there: {known})", code="E300", path=("game",))
        if len(paths) > 1:
            raise order.error(InvalidInput, f"game {order.game!r} is in several files: "
                              f"{', '.join(map(str, paths))}; keep one", code="E502", path=("game",))
        return paths[0]


# === one message ================================================================================

@dataclass
class Result:
    accepted: bool
    receipts: list = field(default_factory=list)     # hxref.referee.engine.Receipt
    reason: str | None = None
    games: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)     # files this copy held already
    resolved: list = field(default_factory=list)        # (game, decision, head) closed on arrival
    notes: list[str] = field(default_factory=list)      # what became of a game file that arrived
    left_alone: bool = False        # no hxref file for a game here: not touched, not counted
    refused_file: str | None = None     # the file the refusal is about
    signer: str | None = None       # the participant whose key in the game signed that file
    public_reason: str | None = None    # the reason as told to a sender whose signature did not verify
    game_path: Path | None = None   # the game the refused file is for, when it names one here


REWRAPPED = "the mail client rewrapped the long lines: attach the file instead of pasting it"
_YAML_KEY = re.compile(r"[A-Za-z_][\w.-]*:(\s|$)")


def looks_rewrapped(text: str) -> bool:
    """A pasted file whose long lines a mail client may have broken: no line over 80 characters,
    and a line as long as a wrapping client leaves them, or one that can only be the rest of a
    broken line (at the left margin, yet no comment, no ``key:``, no list item; or a signature
    block line without its comment mark).  Asked only of a file whose signature does not verify."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or max(len(line) for line in lines) > 80:
        return False
    if any(len(line) >= 60 for line in lines):
        return True
    in_sig = False
    for line in lines:
        if "-----BEGIN SSH SIGNATURE-----" in line:
            in_sig = True
            continue
        if "-----END SSH SIGNATURE-----" in line:
            in_sig = False
            continue
        if not line.strip() or line[0] in " \t#":
            continue
        if in_sig or not (_YAML_KEY.match(line) or line.startswith(("- ", "---", "..."))):
            return True
    return False


def _rewrapped(f: Found) -> bool:
    """A pasted file that a mail client rewrapped: its signature does not verify, and it looks broken."""
    from .read import _verifies

    return f.pasted and f.sig is None and looks_rewrapped(f.text) and not _verifies(best_reading(f), f)


def _refusal(f: Found, exc: HxrefError) -> str:
    if _rewrapped(f):
        return f"{f.name}: {REWRAPPED} (its signature does not match what was signed) [E201]"
    return exc.render()


def _game_of(f: Found) -> str | None:
    """The game id a found file names, or None when it cannot be read."""
    from ..referee import orders
    from ..base import yamlio
    from ..gamefile.game import LOG_MARKER

    try:
        if f.game:
            head = f.text.partition("\n" + LOG_MARKER + "\n")[0]
            return str((yamlio.fast_load(head) or {}).get("meta", {})["game"])
        return orders.parse(best_reading(f), f.name, fast=True).game
    except Exception:  # unreadable: its refusal says why
        return None


def _participants(engine) -> dict[str, str]:
    """Key fingerprint -> participant (side or umpire) of a game."""
    from ..crypto.signing import PublicKey

    out = {}
    for name, p in engine.participants.items():
        with contextlib.suppress(Exception):
            out[PublicKey.from_line(p["key"]).fingerprint()] = name
    return out


def signer_of(f: Found, engine) -> str | None:
    """The participant of ``engine``'s game whose key signed ``f`` (its signature verifies with that
    key), or None: only then may a refusal tell what the game holds, and only to that participant."""
    from ..crypto.signing import verify_text

    try:
        key, _ = verify_text(best_reading(f), source=f.name, detached=f.sig)
    except HxrefError:
        return None
    return _participants(engine).get(key.fingerprint())


def public_reason(f: Found, engine) -> str:
    """Why ``f`` was refused, as told to a sender whose signature did not verify with any key of the
    game: read from the file alone (its YAML, its signature), so it reveals nothing of the game."""
    from ..referee import orders
    from ..crypto.signing import verify_text

    if _rewrapped(f):
        return f"{f.name}: {REWRAPPED} (its signature does not match what was signed) [E201]"
    text = best_reading(f)
    try:
        orders.parse(text, f.name)
        key, _ = verify_text(text, source=f.name, detached=f.sig)
    except HxrefError as exc:
        return exc.render()
    return (f"{f.name}: signed by the key {key.fingerprint()}, which is no participant's key in game "
            f"{engine.meta['game']}: sign it with the key you play with [E202]")


def _refused(f: Found | None, exc: HxrefError | str, engine=None, games: list[Path] | None = None) -> Result:
    """The result of a refused message: the reason, and who may hear it (see :func:`refusal_for`)."""
    reason = exc if isinstance(exc, str) else (_refusal(f, exc) if f is not None else exc.render())
    res = Result(False, reason=reason, games=games or [])
    if f is None:
        res.public_reason = reason if isinstance(exc, str) else f"{exc.where.file or 'the file'}: refused [{exc.code}]"
        return res
    res.refused_file = f.name
    res.game_path = engine.gf.path if engine is not None else None
    if f.error or f.game or engine is None:
        res.public_reason = reason if f.error else f"{f.name}: the game file was refused by this copy"
        return res
    res.signer = signer_of(f, engine)
    res.public_reason = public_reason(f, engine)
    return res


def process_message(msg: EmailMessage, games: Games, *, dry_run: bool = False, key=None,
                    resolve: bool = True) -> Result:
    """Find, match and submit the order files of one message, and apply a game file it carries
    (:mod:`hxref.referee.bundle`): all of them, or none.  A message with no hxref file, or whose files are
    all for games not here, is left alone.  Files this copy holds already are skipped; open games
    resolve what they can as files come in (``resolve``)."""
    from ..referee import bundle
    from ..referee import orders
    from ..referee.engine import Engine
    from ..gamefile.game import locked

    try:
        found = find_orders(msg)
    except Exception:  # the email package on a badly broken message: no hxref file can be read from it
        return Result(False, left_alone=True, reason="the message cannot be read: left alone")
    if not found:
        return Result(False, left_alone=True, reason="no hxref file: left alone")
    ids = [_game_of(f) for f in found if not f.error]
    takes_new = key is not None and any(f.game for f in found)
    if ids and not takes_new and all(g is not None and not games.holds(g) for g in ids):
        return Result(False, left_alone=True, reason=f"for game {', '.join(sorted(set(map(str, ids))))}, "
                                                     "not here: left alone")
    for f in found:
        if f.error:
            return _refused(f, f.error)
    with contextlib.ExitStack() as stack:
        engines: dict[Path, Engine] = {}

        def engine_for(path: Path) -> Engine:
            if path not in engines:
                stack.enter_context(locked(path))
                engines[path] = Engine.load(path)
            return engines[path]

        notes = []
        for f in (f for f in found if f.game):
            try:
                got = bundle.receive_game(f.text, f.name, games, key, engine_for)
            except HxrefError as exc:
                return _refused(f, exc, games=list(engines))
            if got.action == "new":
                stack.enter_context(locked(got.path))
            engines[got.path] = got.engine
            notes.append(f"{f.name}: {got.note}" + (f"; kept this copy's pending {', '.join(got.kept)}"
                                                    if got.kept else ""))
        items: list[tuple[Path, str, str, str | None]] = []
        by_item: dict[int, tuple[Found, Path]] = {}
        seen: set = set()
        for f in (f for f in found if not f.game):
            text = best_reading(f)
            if (text, f.sig) in seen:
                continue            # the same file twice in one message (attached and pasted)
            seen.add((text, f.sig))
            path = None
            try:
                order = orders.parse(text, f.name)
                path = games.path_for(order)
                engine_for(path)
            except HxrefError as exc:
                return _refused(f, exc, engines.get(path) if path else _any(engines, games, engine_for),
                                list(engines))
            items.append((path, f.name, text, f.sig))
            by_item[len(items) - 1] = (f, path)
        try:
            done = bundle.apply_files(engines, items, resolve=resolve)
        except HxrefError as exc:
            return _refused(None, exc, games=list(engines))
        paths = sorted(engines, key=str)
        if done.refused:
            name, refusal = done.refused[0]
            f, path = next(by_item[i] for i, it in enumerate(items) if it[1] == name)
            res = _refused(f, refusal, engines[path], paths)
            if len(done.refused) > 1:
                res.reason = f"{res.reason} (and {len(done.refused) - 1} more file(s))"
            return res
        if not dry_run:
            for eng in engines.values():
                eng.save()
    resolved = [(str(p), r.decision, h) for p, r, h in done.resolved]
    return Result(True, receipts=done.receipts, games=paths, skipped=done.skipped, resolved=resolved, notes=notes)


def _any(engines: dict, games: Games, engine_for):
    """A game here to read the keys from when a file names none of them (one game: that one)."""
    if engines:
        return next(iter(engines.values()))
    if games.single and games.paths:
        with contextlib.suppress(HxrefError):
            return engine_for(games.target)
    return None


# === sources ====================================================================================

@dataclass
class Item:
    """One message of a source."""

    label: str          # shown to the user
    raw: bytes
    stem: str           # its name in the archive, without .eml


class Source(ABC):
    """Where messages come from; only read, never changed.  The three kinds below (.eml files, a
    Maildir, an mbox) each say how to list their messages; ``archive`` is where ``--archive`` puts
    the copies of the messages processed (None: no copies)."""

    archive: Path | None = None

    @abstractmethod
    def items(self) -> list[Item]:
        """Every message of the source, in the order they arrived."""

    def close(self) -> None:  # noqa: B027  (a hook, not abstract: only an mbox holds a lock to let go)
        pass


class EmlSource(Source):
    """``.eml`` files: given one by one, or every ``*.eml`` in a folder (not below it)."""

    def __init__(self, paths: Iterable[str | Path], archive: str | Path | None = None):
        self.files: list[Path] = []
        for p in map(Path, paths):
            if p.is_dir():
                self.files += sorted(q for q in p.glob("*.eml") if q.is_file())
            elif p.is_file():
                self.files.append(p)
            else:
                raise InvalidInput("no such .eml file or folder", code="E100", file=str(p))
        self.archive = Path(archive) if archive is not None else None

    def items(self) -> list[Item]:
        out = []
        for p in self.files:
            try:
                out.append(Item(str(p), p.read_bytes(), p.stem))
            except OSError as exc:
                raise InvalidInput(f"cannot read the message: {exc.strerror}", code="E100", file=str(p)) from None
        return out


class MaildirSource(Source):
    """A Maildir (its ``new/`` and ``cur/`` messages), read without moving or renaming any."""

    def __init__(self, path: str | Path, archive: str | Path | None = None):
        import mailbox

        self.path = Path(path)
        if not all((self.path / sub).is_dir() for sub in ("cur", "new", "tmp")):
            raise InvalidInput("not a Maildir (it needs the folders cur/, new/ and tmp/)", code="E100",
                               file=str(self.path))
        self.box = mailbox.Maildir(str(self.path), factory=None, create=False)
        self.archive = Path(archive) if archive is not None else None

    @staticmethod
    def _order(key: str) -> tuple:
        head = key.split(".", 1)[0]
        return (int(head) if head.isdigit() else 0, key)

    def items(self) -> list[Item]:
        out = []
        for key in sorted(self.box.keys(), key=self._order):
            with contextlib.suppress(KeyError, OSError):     # taken away by the mail client meanwhile
                out.append(Item(f"{self.path}/{key}", self.box.get_bytes(key), key))
        return out


class MboxSource(Source):
    """An mbox file, locked while it is read (and never rewritten)."""

    def __init__(self, path: str | Path, archive: str | Path | None = None):
        import mailbox

        self.path = Path(path)
        if not self.path.is_file():
            raise InvalidInput("no such mbox file", code="E100", file=str(self.path))
        self.box = mailbox.mbox(str(self.path), factory=None, create=False)
        try:
            self.box.lock()
        except mailbox.ExternalClashError:
            raise InvalidInput("the mbox file is locked by another program; try again", code="E501",
                               file=str(self.path)) from None
        self.archive = Path(archive) if archive is not None else None

    def items(self) -> list[Item]:
        out = []
        for n, key in enumerate(self.box.keys(), 1):
            raw = self.box.get_bytes(key)
            out.append(Item(f"{self.path}#{n}", raw, f"{self.path.stem}-{hashlib.sha256(raw).hexdigest()[:12]}"))
        return out

    def close(self) -> None:
        try:
            self.box.unlock()
        finally:
            self.box.close()


# === what was processed =========================================================================

#: headers a mail client adds or changes while the message sits in a mailbox (not the message's own)
_CLIENT_HEADERS = {"status", "x-status", "x-keywords", "x-uid", "x-mozilla-status", "x-mozilla-status2",
                   "content-length", "lines", "x-imapbase", "x-imap"}


def message_digest(raw: bytes) -> str:
    """The digest the record keeps of a message: its bytes without the headers a mail client adds
    as it reads (``Status:`` ...), line ends made LF; a message sent again, even with the same
    files, has another Message-ID and Date, so it is another message."""
    data = raw.replace(b"\r\n", b"\n")
    head, sep, body = data.partition(b"\n\n")
    kept, skip = [], False
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            if not skip:
                kept.append(line)
            continue
        skip = line.split(b":", 1)[0].strip().lower().decode("latin-1") in _CLIENT_HEADERS
        if not skip:
            kept.append(line)
    return hashlib.sha256(b"\n".join(kept) + sep + body).hexdigest()


class Processed:
    """This machine's record of the messages the inbox processed (``$HXREF_HOME/inbox/processed``:
    one digest a line, appended), so a message is submitted, refused or answered once."""

    def __init__(self, path: Path | None = None):
        from ..base.home import home

        self.path = path or home() / "inbox" / "processed"
        try:
            self.digests = set(self.path.read_text(encoding="ascii").split())
        except FileNotFoundError:
            self.digests = set()
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInput(f"the inbox's record cannot be read ({exc}): move it away", code="E100",
                               file=str(self.path)) from None

    def __contains__(self, digest: str) -> bool:
        return digest in self.digests

    def add(self, digests: Iterable[str]) -> None:
        new = [d for d in dict.fromkeys(digests) if d not in self.digests]
        if not new:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="ascii") as fh:
            fh.write("".join(d + "\n" for d in new))
            fh.flush()
            import os

            os.fsync(fh.fileno())
        self.digests.update(new)


# === the inbox ==================================================================================

@dataclass
class Outcome:
    """What became of one message the inbox acted on."""

    source: str
    sender: str
    subject: str
    status: str                      # accepted | rejected (each may follow "would be ")
    receipts: list = field(default_factory=list)
    reason: str | None = None
    archived: str | None = None      # the --archive copy
    games: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    resolved: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    digest: str = ""
    refusal: object = None           # a rejected message's answer (:class:`Refusal`), or why there is none

    @property
    def accepted(self) -> bool:
        return self.status.endswith("accepted")

    @property
    def rejected(self) -> bool:
        return self.status.endswith("rejected")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["receipts"] = [asdict(r) for r in self.receipts]
        d["refusal"] = self.refusal.to_dict() if isinstance(self.refusal, Refusal) else self.refusal
        return d


@dataclass
class Inbox:
    """The messages of one run: those acted on, and how many were left alone or processed before."""

    outcomes: list[Outcome]
    left_alone: int = 0
    before: int = 0


def _header(msg: EmailMessage | None, name: str) -> str:
    if msg is None:
        return ""
    try:
        return str(msg.get(name, "") or "")
    except Exception:  # a header the email package cannot parse
        return ""


def _archive(folder: Path, stem: str, raw: bytes, reason: str | None = None) -> Path:
    from ..base.files import atomic_write

    folder.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[/\\\x00]", "_", stem) or "message"
    path, n = folder / f"{stem}.eml", 1
    while path.exists() or (reason is not None and path.with_suffix(".reason").exists()):
        n += 1
        path = folder / f"{stem}-{n}.eml"
    atomic_write(path, raw)
    if reason is not None:
        atomic_write(path.with_suffix(".reason"), reason.encode("utf-8"))
    return path


def _reason_text(reason: str | None, item: Item, msg: EmailMessage | None) -> str:
    lines = [reason or "the message was refused", "", f"message: {item.label}"]
    for h in ("From", "Date", "Subject", "Message-ID"):
        value = _header(msg, h)
        if value:
            lines.append(f"{h.lower()}: {value}")
    lines += ["", "nothing from this message was stored (a message is taken whole or not at all): fix the "
                  "file named above and send the whole message again."]
    return "\n".join(lines) + "\n"


def run_inbox(target: str | Path, source: Source, *, dry_run: bool = False, key=None, resolve: bool = True,
              record: Processed | None = None, answer: Callable[[Outcome, EmailMessage | None, Result], object]
              | None = None, progress: Callable[[Outcome], None] | None = None) -> Inbox:
    """Process every message of ``source`` not in ``record`` for the games of ``target`` (see the
    module docstring); ``key`` (a public key) accepts a new game that arrives with a mail when it is
    one of its participants'; ``resolve`` lets open games resolve as files arrive.  An accepted
    message is recorded as soon as its games are saved; a refused one once ``answer`` (which
    writes or sends its refusal and returns what it did) has returned."""
    games = Games(target, allow_new=key is not None)
    record = record if record is not None else Processed()
    try:
        items = source.items()
        digests = [message_digest(item.raw) for item in items]
        todo, before = [], 0
        for i, d in enumerate(digests):
            if d in record or d in digests[:i]:
                before += 1
            else:
                todo.append(i)
        msgs: dict[int, EmailMessage | None] = {}
        for i in todo:
            try:
                msgs[i] = read_message(items[i].raw)
            except Exception:
                msgs[i] = None
        results: dict[int, Result] = {}
        while todo:
            again = []
            for i in todo:
                msg = msgs[i]
                res = (process_message(msg, games, dry_run=dry_run, key=key, resolve=resolve) if msg is not None
                       else Result(False, left_alone=True, reason="the message cannot be read: left alone"))
                results[i] = res
                if res.accepted and not dry_run:       # the game is saved: recorded at once
                    record.add([digests[i]])
                elif not res.accepted and not res.left_alone:
                    again.append(i)
            if dry_run or len(again) == len(todo):
                break
            todo = again
        outcomes, alone = [], 0
        for i, item in enumerate(items):
            if i not in results:
                continue
            res, msg = results[i], msgs[i]
            if res.left_alone:
                alone += 1
                continue
            status = ("would be " if dry_run else "") + ("accepted" if res.accepted else "rejected")
            o = Outcome(item.label, _header(msg, "From"), _header(msg, "Subject"), status, res.receipts, res.reason,
                        None, [str(p) for p in res.games], res.skipped, res.resolved, res.notes, digests[i])
            if not dry_run and source.archive is not None:
                o.archived = str(_archive(source.archive / ("done" if res.accepted else "rejected"), item.stem,
                                          item.raw, None if res.accepted else _reason_text(res.reason, item, msg)))
            if not res.accepted and answer is not None:
                o.refusal = answer(o, msg, res)
                if not dry_run:
                    record.add([digests[i]])
            outcomes.append(o)
            if progress:
                progress(o)
        return Inbox(outcomes, alone, before)
    finally:
        source.close()


# === refusals ===================================================================================

@dataclass
class Refusal:
    """The answer to a refused message: to whom, why, and the mail itself (None: not answered)."""

    to: list[str]
    audience: str               # the side whose key signed the file, or "sender"
    reason: str                 # the reason as told to them
    message: EmailMessage | None = None
    not_sent: str | None = None     # why it is not answered

    def to_dict(self) -> dict:
        return {"to": self.to, "audience": self.audience, "reason": self.reason, "not_sent": self.not_sent}


def _auto(msg: EmailMessage | None) -> bool:
    """A message sent by a program (RFC 3834: ``Auto-Submitted`` other than ``no``), or one of
    hxref's own: never answered, so that two programs never answer each other."""
    value = _header(msg, "Auto-Submitted").strip().lower()
    return bool(value and value.split(";")[0].strip() != "no")


def refusal_for(res: Result, msg: EmailMessage | None, book, sender: str, game: str,
                dry_run: bool = False) -> Refusal:
    """Who hears why a message was refused, and the mail that tells them.

    When the refused file's signature verifies with a participant's key in the game, the full
    reason goes to that participant's address in the game's address book ``book``, never to the
    message's From (anyone can forward another side's signed file to learn what its refusal says,
    and in an umpired game that reason comes from the full state).  When no participant's
    signature verifies, the reason read from the file alone (:func:`public_reason`) goes to the
    From (or Reply-To) address, and only when that address is one of the book's: anyone can write
    any From, and hxref must not be made to mail strangers.  Messages sent by a program (``Auto-Submitted``) are never answered, and a
    refusal says ``Auto-Submitted: auto-replied``, so mail never loops.  ``book`` None: no address
    book, nothing is mailed."""
    from email.utils import getaddresses

    if res.signer is not None:
        audience, reason = res.signer, res.reason or "refused"
        to = list(book.recipients.get(res.signer, [])) if book is not None else []
        none = (f"no address for {res.signer} in {book.path}" if book is not None
                else "no address book") if not to else None
    else:
        audience, reason = "sender", res.public_reason or res.reason or "refused"
        pairs = [a for _, a in getaddresses([_header(msg, "Reply-To") or _header(msg, "From")]) if "@" in a]
        to = pairs[:1]
        players = {a.lower() for addrs in (book.recipients.values() if book is not None else ())
                   for _, a in getaddresses(list(addrs))}
        none = ("no address book" if book is None else "no From address to answer" if not to
                else None if to[0].lower() in players
                else f"{to[0]} is no address in {book.path}: hxref answers only the game's players")
    if _auto(msg):
        none = "the message was sent by a program (Auto-Submitted): never answered"
    if none is not None:
        return Refusal(to, audience, reason, None, none)
    return Refusal(to, audience, reason, compose_refusal(res, msg, to, sender, game, reason))


#: a message id as RFC 5322 writes it, ``<left@right>``, with nothing that could end a header line
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}@[!-;=?-~]{1,250}>")


def _short(text: str, most: int = 80) -> str:
    """A name or header value shown in a refusal, cut to ``most`` characters: what a sender chose
    must not make the answer bigger than the question."""
    text = " ".join(text.split())
    return text if len(text) <= most else text[:most - 1] + "…"


def compose_refusal(res: Result, msg: EmailMessage | None, to: list[str], sender: str, game: str,
                    reason: str) -> EmailMessage:
    """A short mail: which file, the one-line reason, what to do; a reply to the refused message
    (In-Reply-To, References) marked ``Auto-Submitted: auto-replied`` (RFC 3834)."""
    import datetime as _dt
    import textwrap
    from email.utils import format_datetime

    from ..referee.engine import now_iso

    name = _short(res.refused_file or "your file")
    if res.refused_file:
        reason = reason.replace(res.refused_file, name)
    reason = _short(reason, 2000)
    if REWRAPPED in reason:
        todo = ("Your mail program broke the long lines of the file you pasted, so it no longer matches its "
                "signature.  Do not edit it: attach the same file to a mail and send it again (an attached "
                "file is sent as it is).")
    else:
        todo = ("Correct it and send it again; the same file name is fine.  A signed file cannot be edited: "
                "write it again with the command that wrote it (hxref answer or commit with --template and "
                "your key; or fix the text and hxref sign it), check it where you can (hxref check), and "
                "mail the new file as an attachment.")
    subject, when = _short(_header(msg, "Subject")), _short(_header(msg, "Date"))
    mail = " ".join(x for x in (f"{subject!r}" if subject else "", f"of {when}" if when else "") if x)
    body = [*textwrap.wrap(f"hxref refused {name} for game {game}: nothing of your mail {mail} was stored."
                           .replace("mail  was", "mail was"), 76), ""]
    body += ["Why:", *textwrap.wrap(reason, 76, initial_indent="  ", subsequent_indent="  ",
                                    break_long_words=True, break_on_hyphens=False), "",
             "What to do:", *textwrap.wrap(todo, 76, initial_indent="  ", subsequent_indent="  "), "",
             "-- ", "hxref inbox (an automatic answer: a reply to it is not read)"]
    m = EmailMessage()
    m["From"] = sender
    m["To"] = ", ".join(to)
    m["Subject"] = f"[hxref] {game}: {name} refused"
    t = now_iso().replace("Z", "+00:00")
    m["Date"] = format_datetime(_dt.datetime.fromisoformat(t), usegmt=True)
    digest = hashlib.sha256((_header(msg, "Message-ID") + name + reason).encode()).hexdigest()
    m["Message-ID"] = f"<refusal.{digest[:32]}@hxref.invalid>"
    original = _MSG_ID.findall(_header(msg, "Message-ID"))[:1]
    if original:            # only well-formed ids: a header value is never copied as it came
        m["In-Reply-To"] = original[0]
        m["References"] = " ".join([*_MSG_ID.findall(_header(msg, "References"))[-10:], original[0]])
    m["Auto-Submitted"] = "auto-replied"
    m["X-Hxref-Game"] = game
    m["X-Hxref-Refused"] = name
    m["X-Hxref-Audience"] = res.signer or "sender"
    m.set_content("\n".join(body) + "\n")
    return m


def refusal_name(msg: EmailMessage) -> str:
    """The ``.eml`` name of a refusal written into a folder."""
    game = re.sub(r"[^A-Za-z0-9._-]", "-", str(msg["X-Hxref-Game"]))
    tag = str(msg["Message-ID"]).strip("<>").split("@")[0].split(".")[-1][:12]
    return f"{game}-refused-{tag}-{msg['X-Hxref-Audience']}.eml"
