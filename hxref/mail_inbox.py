"""The inbox (:func:`run_inbox`): every message of a source, its order files submitted to their games.

A source is a Maildir, an mbox file or a folder of ``.eml`` files (:class:`Source`); the order
files of each message are found by :func:`hxref.mail_read.find_orders`.

Each order file is matched to a game by its ``game:`` id (one game file, or every game file under
a folder: :class:`Games`), then submitted through :class:`~hxref.engine.Engine` under the game's
lock.  A message is taken whole or not at all (:func:`process_message`): its files are submitted in
order to the games in memory and saved only when every one of them is accepted; one refusal
rejects the whole message and stores nothing.  Messages that fail are tried again after the others
while that gets more accepted, so a reveal read before the commitment it waits for still goes in.
Then each message is moved: accepted ones to ``ARCHIVE/done/``, rejected ones to
``ARCHIVE/rejected/`` with ``NAME.reason`` beside it (the first error line, then who sent the
message).  ARCHIVE is the folder of ``.eml`` files itself, or the folder holding the Maildir or the
mbox file ("folders next to it"); the archived messages are plain ``.eml`` files (a Maildir's
``cur/`` may hold messages only, so the ``.reason`` files could not live there).  Messages are
copied to the archive before they are removed from the source.
"""
from __future__ import annotations

import contextlib
import hashlib
import re
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import HxrefError, InvalidInput
from .mail_read import GAME_MARK, Found, best_reading, find_orders, is_hxref_mail, read_message

NO_ORDERS = ("no hxref order file found in the message: attach the signed .yaml file, "
             "or paste it into the body")


# === games ======================================================================================

def game_id_of(path: Path) -> str | None:
    """The game id of a game file (read from its header only), or None if it is not one."""
    from . import yamlio
    from .game import LOG_MARKER, read_regular

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
                from .engine import Engine

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
        from .bundle import _safe_name

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
    receipts: list = field(default_factory=list)     # hxref.engine.Receipt
    reason: str | None = None
    games: list[Path] = field(default_factory=list)
    moved: Path | None = None       # where the message was archived
    skipped: list[str] = field(default_factory=list)     # files this copy held already
    resolved: list = field(default_factory=list)        # (game, decision, head) closed on arrival
    notes: list[str] = field(default_factory=list)      # what became of a game file that arrived
    left_alone: bool = False        # an hxref report carrying no file: left where it is


REWRAPPED = "the mail client rewrapped the long lines: attach the file instead of pasting it"


def looks_rewrapped(text: str) -> bool:
    """A pasted file whose long lines a mail client broke: every body line at most 80 characters,
    and some line as long as a wrapping client leaves them (hxref's own files have longer lines)."""
    from .signing import split_signed_text

    body = split_signed_text(text.replace("\r\n", "\n"))[0]
    lengths = [len(line) for line in body.split("\n")]
    return bool(lengths) and max(lengths) <= 80 and sum(1 for n in lengths if n >= 60) >= 1


def _refusal(f: Found, exc: HxrefError) -> str:
    if f.pasted and exc.code == "E201" and looks_rewrapped(f.text):
        return f"{f.name}: {REWRAPPED} (its signature does not match) [E201]"
    return exc.render()


def process_message(msg: EmailMessage, games: Games, *, dry_run: bool = False, key=None,
                    resolve: bool = True) -> Result:
    """Find, match and submit the order files of one message, and apply a game file it carries
    (:mod:`hxref.bundle`): all of them, or none.  Files this copy holds already are skipped; open
    games resolve what they can as files come in (``resolve``)."""
    from . import bundle, orders
    from .engine import Engine
    from .game import locked

    try:
        found = find_orders(msg)
    except Exception as exc:  # the email package on a badly broken message
        return Result(False, reason=f"the message cannot be read ({exc.__class__.__name__}: {exc}) [E100]")
    if not found:
        if is_hxref_mail(msg):
            return Result(False, left_alone=True, reason="an hxref mail without files (a report): left alone")
        return Result(False, reason=NO_ORDERS)
    for f in found:
        if f.error:
            return Result(False, reason=f.error)
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
                return Result(False, reason=exc.render(), games=list(engines))
            if got.action == "new":
                stack.enter_context(locked(got.path))
            engines[got.path] = got.engine
            notes.append(f"{f.name}: {got.note}" + (f"; kept this copy's pending {', '.join(got.kept)}"
                                                    if got.kept else ""))
        items: list[tuple[Path, str, str, str | None]] = []
        by_item: dict[int, Found] = {}
        seen: set = set()
        for f in (f for f in found if not f.game):
            text = best_reading(f)
            if (text, f.sig) in seen:
                continue            # the same file twice in one message (attached and pasted)
            seen.add((text, f.sig))
            try:
                order = orders.parse(text, f.name)
                path = games.path_for(order)
                engine_for(path)
            except HxrefError as exc:
                return Result(False, reason=_refusal(f, exc), games=list(engines))
            items.append((path, f.name, text, f.sig))
            by_item[len(items) - 1] = f
        try:
            done = bundle.apply_files(engines, items, resolve=resolve)
        except HxrefError as exc:
            return Result(False, reason=exc.render(), games=list(engines))
        paths = sorted(engines, key=str)
        if done.refused:
            name, refusal = done.refused[0]
            f = next(by_item[i] for i, it in enumerate(items) if it[1] == name)
            more = f" (and {len(done.refused) - 1} more file(s))" if len(done.refused) > 1 else ""
            return Result(False, reason=_refusal(f, refusal) + more, games=paths)
        if not dry_run:
            for eng in engines.values():
                eng.save()
    resolved = [(str(p), r.decision, h) for p, r, h in done.resolved]
    return Result(True, receipts=done.receipts, games=paths, skipped=done.skipped, resolved=resolved, notes=notes)


# === sources ====================================================================================

@dataclass
class Item:
    """One message of a source."""

    label: str          # shown to the user
    raw: bytes
    stem: str           # its name in the archive, without .eml
    #: the source's own handle for the message: the file's Path (.eml), the Maildir key (a str), the
    #: mbox key (an int, though the standard library's stubs say str): only its source reads it
    key: Any = None


class Source(ABC):
    """Where messages come from; ``archive`` is where done/ and rejected/ go.  The three kinds
    below (.eml files, a Maildir, an mbox) each say how to list and remove their messages."""

    archive: Path

    @abstractmethod
    def items(self) -> list[Item]:
        """Every message of the source, in the order they arrived."""

    @abstractmethod
    def remove(self, item: Item) -> None:
        """Take ``item`` out of the source (after it was archived)."""

    def close(self) -> None:  # noqa: B027  (a hook, not abstract: only an mbox holds a lock to let go)
        pass


class EmlSource(Source):
    """``.eml`` files: given one by one, or every ``*.eml`` in a folder (not below it)."""

    def __init__(self, paths: Iterable[str | Path], archive: str | Path | None = None):
        self.files: list[Path] = []
        first_dir = None
        for p in map(Path, paths):
            if p.is_dir():
                first_dir = first_dir or p
                self.files += sorted(q for q in p.glob("*.eml") if q.is_file())
            elif p.is_file():
                self.files.append(p)
            else:
                raise InvalidInput("no such .eml file or folder", code="E100", file=str(p))
        if archive is None:
            archive = first_dir or (self.files[0].parent if self.files else Path("."))
        self.archive = Path(archive)

    def items(self) -> list[Item]:
        out = []
        for p in self.files:
            try:
                out.append(Item(str(p), p.read_bytes(), p.stem, p))
            except OSError as exc:
                raise InvalidInput(f"cannot read the message: {exc.strerror}", code="E100", file=str(p)) from None
        return out

    def remove(self, item: Item) -> None:
        with contextlib.suppress(FileNotFoundError):
            Path(item.key).unlink()


class MaildirSource(Source):
    """A Maildir (its ``new/`` and ``cur/`` messages); done/ and rejected/ go beside it."""

    def __init__(self, path: str | Path, archive: str | Path | None = None):
        import mailbox

        self.path = Path(path)
        if not all((self.path / sub).is_dir() for sub in ("cur", "new", "tmp")):
            raise InvalidInput("not a Maildir (it needs the folders cur/, new/ and tmp/)", code="E100",
                               file=str(self.path))
        self.box = mailbox.Maildir(str(self.path), factory=None, create=False)
        if archive is None:
            archive = self.path.parent if self.path.name not in ("", ".", "..") else self.path.resolve().parent
        self.archive = Path(archive)

    @staticmethod
    def _order(key: str) -> tuple:
        head = key.split(".", 1)[0]
        return (int(head) if head.isdigit() else 0, key)

    def items(self) -> list[Item]:
        return [Item(f"{self.path}/{key}", self.box.get_bytes(key), key, key)
                for key in sorted(self.box.keys(), key=self._order)]

    def remove(self, item: Item) -> None:
        self.box.discard(item.key)


class MboxSource(Source):
    """An mbox file, locked while it is read; done/ and rejected/ go beside it."""

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
        self.archive = Path(archive) if archive is not None else self.path.parent
        self.removed = False

    def items(self) -> list[Item]:
        out = []
        for n, key in enumerate(self.box.keys(), 1):
            raw = self.box.get_bytes(key)
            out.append(Item(f"{self.path}#{n}", raw, f"{self.path.stem}-{hashlib.sha256(raw).hexdigest()[:12]}", key))
        return out

    def remove(self, item: Item) -> None:
        self.box.discard(item.key)
        self.removed = True

    def close(self) -> None:
        try:
            if self.removed:
                self.box.flush()
        finally:
            self.box.unlock()
            self.box.close()


# === the inbox ==================================================================================

@dataclass
class Outcome:
    """What became of one message."""

    source: str
    sender: str
    subject: str
    status: str                      # accepted | rejected | left alone (each may follow "would be ")
    receipts: list = field(default_factory=list)
    reason: str | None = None
    moved_to: str | None = None
    games: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    resolved: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.status.endswith("accepted")

    @property
    def rejected(self) -> bool:
        return self.status.endswith("rejected")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["receipts"] = [asdict(r) for r in self.receipts]
        return d


def _header(msg: EmailMessage | None, name: str) -> str:
    if msg is None:
        return ""
    try:
        return str(msg.get(name, "") or "")
    except Exception:  # a header the email package cannot parse
        return ""


def _archive(folder: Path, stem: str, raw: bytes, reason: str | None = None) -> Path:
    from .game import atomic_write

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
              progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Process every message of ``source`` for the games of ``target`` (see the module docstring);
    ``key`` (a public key) accepts a new game that arrives with a mail when it is one of its
    participants'; ``resolve`` lets open games resolve as files arrive."""
    games = Games(target, allow_new=key is not None)
    try:
        items = source.items()
        msgs: dict[int, EmailMessage | None] = {}
        for i, item in enumerate(items):
            try:
                msgs[i] = read_message(item.raw)
            except Exception:
                msgs[i] = None
        results: dict[int, Result] = {}
        todo = list(range(len(items)))
        while todo:
            again = []
            for i in todo:
                msg = msgs[i]
                res = (process_message(msg, games, dry_run=dry_run, key=key, resolve=resolve) if msg is not None
                       else Result(False, reason="the message cannot be read [E100]"))
                results[i] = res
                if res.left_alone:
                    continue
                if res.accepted:
                    if not dry_run:       # the game is saved: move the message on at once
                        res.moved = _archive(source.archive / "done", items[i].stem, items[i].raw)
                        source.remove(items[i])
                else:
                    again.append(i)
            if dry_run or len(again) == len(todo):
                break
            todo = again
        outcomes = []
        for i, item in enumerate(items):
            res, msg = results[i], msgs[i]
            moved = res.moved
            if not res.accepted and not res.left_alone and not dry_run:
                moved = _archive(source.archive / "rejected", item.stem, item.raw, _reason_text(res.reason, item, msg))
                source.remove(item)
            status = "accepted" if res.accepted else "left alone" if res.left_alone else "rejected"
            outcomes.append(Outcome(item.label, _header(msg, "From"), _header(msg, "Subject"),
                                    ("would be " + status) if dry_run and not res.left_alone else status,
                                    res.receipts, res.reason, str(moved) if moved else None,
                                    [str(p) for p in res.games], res.skipped, res.resolved, res.notes))
            if progress:
                progress(outcomes[-1])
        return outcomes
    finally:
        source.close()
