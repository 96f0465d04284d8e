"""E-mail in and out (issue 9, items 1, 2 and 4b), with the standard library's ``email`` package.

**In** (:func:`run_inbox`): every message of a source -- a Maildir, an mbox file, ``.eml`` files --
is searched for order files (:func:`find_orders`): attachments (any ``text/*`` part, or a name
ending ``.yaml``/``.yml``/``.txt``, whatever its MIME type), files pasted into a plain-text body, or
into an HTML-only body (:func:`html_to_text`), and the same inside forwarded messages
(``message/rfc822`` parts and attached ``.eml`` files).  Transfer encodings (quoted-printable,
base64) and charsets are undone by the ``email`` package; ``format=flowed`` bodies are unflowed
(:func:`unflow`, RFC 3676); a ``NAME.sig`` attachment is the detached signature of ``NAME``.

What a mail client may do to a signed file, and what is done about it: :mod:`hxref.signing`
already turns CRLF and CR into LF before it checks a signature, and ignores blanks at the ends of
the signature block's lines and blank lines after it.  Beyond that, a file whose signature does not
verify as received is tried again (:func:`repaired`) with its signature block re-armored (lines
re-wrapped, comment marks restored: the block is base64, its bytes do not change) and then also
with blanks at the ends of its body's lines removed and no-break spaces made spaces.  The first
reading whose signature verifies is the one submitted and stored, so what is stored is always
exactly the text the player signed; if none verifies, the most repaired reading is submitted and
its error (``signature does not match the file`` ...) is the reason given.

Each order file is matched to a game by its ``game:`` id (one game file, or every game file under
a folder), then submitted through :class:`~hxref.engine.Engine` under the game's lock.  A message
is taken whole or not at all: its files are submitted in order to the games in memory and saved
only when every one of them is accepted; one refusal rejects the whole message and stores nothing.
Messages that fail are tried again after the others while that gets more accepted, so a reveal
read before the commitment it waits for still goes in.  Then each message is moved: accepted ones
to ``ARCHIVE/done/``, rejected ones to ``ARCHIVE/rejected/`` with ``NAME.reason`` beside it (the
first error line, then who sent the message).  ARCHIVE is the folder of ``.eml`` files itself, or
the folder holding the Maildir or the mbox file ("folders next to it"); the archived messages are
plain ``.eml`` files (a Maildir's ``cur/`` may hold messages only, so the ``.reason`` files could
not live there).  Messages are copied to the archive before they are removed from the source.

**Out** (:func:`outbox_messages`): for each recipient in the game's address book
(``GAME.addresses.yaml``, :func:`load_address_book`) a ``multipart/alternative`` message with a
plain-text and an HTML part: the receipts of the files accepted since the last mail
(:func:`recent_receipts`: those now pending for an open decision, and those of the blocks appended
since), the public report and that side's own report (the umpire gets the umpire's report), and
the head hash.  ``--remind`` mails (:func:`reminder_messages`) tell every party that owes anything
for a decision due soon what to send, and who may claim the deadline once its grace is over.
They are written as ``.eml`` files (:func:`write_outbox`) or sent through SMTP (:func:`send`).

The address book::

    # g.addresses.yaml: who gets hxref's mail for game test-game
    union: Alice Player <alice@example.org>
    confederate: [bob@example.org, "Bob at work <bob@work.example>"]
    umpire: referee@example.org              # optional: gets the umpire's report
    from: hxref referee <referee@example.org>   # optional: the sender of the outbox's mail
"""
from __future__ import annotations

import contextlib
import hashlib
import html as _html
import os
import re
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from html.parser import HTMLParser
from pathlib import Path
from typing import Callable, Iterable

from .errors import HxrefError, InvalidInput

#: attachment names that are read as order files whatever their MIME type
ORDER_SUFFIXES = (".yaml", ".yml", ".txt")
YAML_SUFFIXES = (".yaml", ".yml")
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
MAX_DEPTH = 8                    # forwarded inside forwarded ...: enough for any real message
_BEGIN = "-----BEGIN SSH SIGNATURE-----"
_END = "-----END SSH SIGNATURE-----"
_ORDER_START = re.compile(r"hxref:[ \t]*\S")
_ORDER_HINT = re.compile(r"^(hxref|decision):[ \t]*\S", re.M)
_B64 = re.compile(r"[A-Za-z0-9+/=]*")
GAME_MARK = b"# hxref game file."
NO_ORDERS = ("no hxref order file found in the message: attach the signed .yaml file, "
             "or paste it into the body")


# === reading messages ==========================================================================

@dataclass
class Found:
    """An order file found in a message: where it was, its text, and a detached signature."""

    name: str
    text: str
    sig: str | None = None
    error: str | None = None        # the part could not be read (too large, not text): the reason


def read_message(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def find_orders(msg: EmailMessage) -> list[Found]:
    """Every order file in ``msg``, in the order a reader meets them (not yet repaired or checked)."""
    found: list[Found] = []
    sigs: dict[str, str] = {}
    _walk(msg, "", found, sigs, 0)
    by_name = {f.name: f for f in found}
    for sig_name, armored in sigs.items():
        base = sig_name[:-4]
        target = by_name.get(base) or next((by_name[n] for n in by_name if Path(n).stem == Path(base).name
                                            and Path(n).parent == Path(base).parent), None)
        if target is None:
            found.append(Found(sig_name, "", error=f"{sig_name}: a detached signature without its file "
                                                   f"(attach {base} with it) [E200]"))
        else:
            target.sig = armored
    return found


def _display_name(filename: str) -> str:
    name = filename.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(c for c in name if c.isprintable()) or "attachment"


def _walk(part, prefix: str, found: list[Found], sigs: dict[str, str], depth: int) -> None:
    if depth > MAX_DEPTH:
        return
    ctype = part.get_content_type()
    if ctype == "message/rfc822" or (part.get_content_maintype() == "message" and part.is_multipart()):
        for inner in part.get_payload() or []:
            if isinstance(inner, Message):
                _walk(inner, prefix + "forwarded/", found, sigs, depth + 1)
        return
    if part.is_multipart():
        subs = list(part.iter_parts())
        if ctype == "multipart/alternative" and subs:
            # one reading of the same text: plain if there is one, else the richest (the last)
            plain = [p for p in subs if p.get_content_type() == "text/plain"]
            subs = plain[:1] or subs[-1:]
        for sub in subs:
            _walk(sub, prefix, found, sigs, depth + 1)
        return
    filename = part.get_filename()
    name = prefix + _display_name(filename) if filename else None
    lower = (filename or "").lower()
    if lower.endswith(".eml"):
        raw = part.get_payload(decode=True) or b""
        with contextlib.suppress(Exception):
            _walk(read_message(raw), prefix + "forwarded/", found, sigs, depth + 1)
        return
    attachment = bool(filename) or part.is_attachment()
    if lower.endswith(".sig"):
        text, error = _part_text(part, name)
        if error is None:
            sigs[name] = text
        return
    if not attachment:
        if ctype not in ("text/plain", "text/html"):
            return
        text, error = _part_text(part, prefix + "message body")
        if error is not None:
            return          # an unreadable body holds no order file we could read
        if ctype == "text/html":
            text = html_to_text(text)
        elif part.get_param("format", "").lower() == "flowed":
            text = unflow(text, delsp=part.get_param("delsp", "").lower() == "yes")
        pieces = extract(text)
        for i, piece in enumerate(pieces, 1):
            label = prefix + "message body" + (f" (file {i})" if len(pieces) > 1 else "")
            found.append(Found(label, piece))
        return
    name = name or prefix + "attachment"
    if not (part.get_content_maintype() == "text" or ctype in YAML_TYPES or lower.endswith(ORDER_SUFFIXES)):
        return
    text, error = _part_text(part, name)
    if error is not None:
        if lower.endswith(YAML_SUFFIXES):
            found.append(Found(name, "", error=error))
        return
    if text.lstrip("\ufeff").startswith(GAME_MARK.decode()):
        return              # a game file travelling with the mail (open games pass it around)
    if lower.endswith(YAML_SUFFIXES) or ctype in YAML_TYPES:
        if _ORDER_HINT.search(text):
            found.append(Found(name, text))      # the whole file, exactly as attached
        return
    pieces = extract(text)
    for i, piece in enumerate(pieces, 1):
        found.append(Found(name + (f" (file {i})" if len(pieces) > 1 else ""), piece))


def _part_text(part, name: str) -> tuple[str, str | None]:
    """A leaf part's text (transfer encoding and charset undone), or the reason it has none."""
    from .yamlio import ORDER_LIMITS

    try:
        raw = part.get_payload(decode=True) or b""
    except Exception:   # a damaged transfer encoding
        return "", f"{name}: the attachment cannot be decoded [E100]"
    if len(raw) > ORDER_LIMITS.max_bytes:
        return "", (f"{name}: {len(raw):,} bytes; an order file has at most "
                    f"{ORDER_LIMITS.max_bytes:,} [E103]")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    charset = (part.get_content_charset() or "utf-8").lower()
    for cs in dict.fromkeys(["utf-8", charset] if charset in ("us-ascii", "ascii", "utf-8", "utf8")
                            else [charset, "utf-8"]):
        try:
            return raw.decode(cs), None
        except (LookupError, UnicodeDecodeError):
            continue
    return "", f"{name}: not UTF-8 text (nor {charset}); save the file as UTF-8 [E100]"


def unflow(text: str, delsp: bool = False) -> str:
    """A ``format=flowed`` text (RFC 3676) as written: soft line breaks joined, space-stuffing undone."""
    out: list[str] = []
    pending = ""
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith(" "):
            line = line[1:]                          # space-stuffed
        if line != "-- " and line.endswith(" "):     # a soft break (but not the signature separator)
            pending += line[:-1] if delsp else line
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return "\n".join(out)


class _HTMLText(HTMLParser):
    """The text a reader sees in an HTML body: one line per block or ``<br>``, ``<pre>`` as is."""

    BLOCKS = {"p", "div", "tr", "li", "ul", "ol", "table", "blockquote", "pre", "h1", "h2", "h3", "h4",
              "h5", "h6", "hr", "section", "article", "header", "footer", "dd", "dt", "dl"}
    HIDDEN = {"head", "style", "script", "title", "template"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.pre = 0
        self.hidden = 0

    def _at_line_start(self) -> bool:
        return not self.out or self.out[-1].endswith("\n")

    def _newline(self, force: bool = False) -> None:
        if self.out and not self.pre:
            self.out[-1] = self.out[-1].rstrip(" ")
        if force or not self._at_line_start():
            self.out.append("\n")

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self._newline(force=True)
        elif tag in self.BLOCKS:
            self._newline()
            if tag == "pre":
                self.pre += 1

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self._newline(force=True)
        elif tag in self.BLOCKS:
            self._newline()

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            self._newline()

    def handle_data(self, data):
        if self.hidden:
            return
        if not self.pre:
            data = re.sub(r"[ \t\r\n\f]+", " ", data)   # not \s: a no-break space is kept
            if self._at_line_start():
                data = data.lstrip(" ")
        if data:
            self.out.append(data)


def html_to_text(html: str) -> str:
    """The text of an HTML body, line by line as shown (no-break spaces become spaces)."""
    p = _HTMLText()
    p.feed(html)
    p.close()
    text = "".join(p.out).replace("\xa0", " ")
    return text if not text or text.endswith("\n") else text + "\n"


def extract(text: str) -> list[str]:
    """The order files pasted into a text: each from the comment lines above its ``hxref:`` line to
    the end of its signature block (unsigned: up to the next file, a ``-- `` mail signature line or
    the end, without trailing blank lines)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if _ORDER_START.match(line)]
    pieces: list[str] = []
    floor = 0
    for k, s in enumerate(starts):
        if s < floor:
            continue
        b = s
        while b - 1 >= floor and (lines[b - 1].startswith("#") or not lines[b - 1].strip()):
            b -= 1
        while b < s and not lines[b].strip():
            b += 1
        limit = starts[k + 1] if k + 1 < len(starts) else len(lines)
        end = None
        stop = limit
        for j in range(s + 1, len(lines)):
            if _END in lines[j]:
                end = j
                break
            if j >= limit or lines[j] in ("-- ", "--"):
                stop = j
                break
        if end is not None:
            block = lines[b:end + 1]
        else:
            # unsigned: up to the next file (its comment header is its own), the mail signature, or the end
            block = lines[b:stop]
            next_file = stop == limit < len(lines)
            while block and (not block[-1].strip() or (next_file and block[-1].startswith("#"))):
                block.pop()
        floor = b + len(block)
        pieces.append("\n".join(block) + "\n")
    return pieces


def repaired(text: str) -> list[str]:
    """Readings of a received file, least changed first (see the module's docstring)."""
    from .signing import embed_signature, split_signed_text

    norm = text.replace("\r\n", "\n").replace("\r", "\n")
    readings = [norm]
    lines = norm.split("\n")
    begin = max((i for i, line in enumerate(lines) if _BEGIN in line), default=None)
    end = next((i for i in range(begin + 1, len(lines)) if _END in lines[i]), None) if begin is not None else None
    if begin is not None and end is not None:
        b64 = "".join("".join(line.replace("#", " ").split()) for line in lines[begin + 1:end])
        if b64 and _B64.fullmatch(b64):
            armored = "\n".join([_BEGIN, *(b64[i:i + 76] for i in range(0, len(b64), 76)), _END]) + "\n"
            body = "".join(line + "\n" for line in lines[:begin])
            readings.append(embed_signature(body, armored))
    if len(readings) > 1 or split_signed_text(norm)[1] is not None:
        body, armored = split_signed_text(readings[-1])
        if armored is not None:
            clean = "".join(line.rstrip(" \t").replace("\xa0", " ") + "\n" for line in body.split("\n")[:-1])
            readings.append(embed_signature(clean, armored))
    return list(dict.fromkeys(readings))


def best_reading(f: Found) -> str:
    """The first reading of ``f`` whose signature verifies, else the most repaired one."""
    if f.sig is not None:      # a detached signature covers the whole file
        norm = f.text.replace("\r\n", "\n").replace("\r", "\n")
        readings = list(dict.fromkeys([norm, "\n".join(ln.rstrip(" \t") for ln in norm.split("\n"))]))
    else:
        readings = repaired(f.text)
    for reading in readings:
        if _verifies(reading, f):
            return reading
    if f.sig is None:
        # pasted text: a comment line of the mail's own right above the file was taken for part of it
        from .signing import embed_signature, split_signed_text

        body, armored = split_signed_text(readings[-1])
        lines = body.split("\n")
        start = next((i for i, line in enumerate(lines) if _ORDER_START.match(line)), 0)
        for k in range(1, start + 1):
            if armored is not None and lines[k - 1].startswith("#"):
                reading = embed_signature("\n".join(lines[k:]), armored)
                if _verifies(reading, f):
                    return reading
    return readings[-1]


def _verifies(reading: str, f: Found) -> bool:
    from .signing import verify_text

    try:
        verify_text(reading, source=f.name, detached=f.sig)
        return True
    except HxrefError:
        return False


# === games ======================================================================================

def game_id_of(path: Path) -> str | None:
    """The game id of a game file (read from its header only), or None if it is not one."""
    from . import yamlio
    from .game import LOG_MARKER

    try:
        with open(path, "rb") as fh:
            if not fh.read(len(GAME_MARK)) == GAME_MARK:
                return None
            fh.seek(0)
            data = fh.read()
        head = data.decode("utf-8").partition("\n" + LOG_MARKER + "\n")[0]
        meta = (yamlio.fast_load(head) or {}).get("meta") or {}
        return str(meta["game"]) if "game" in meta else None
    except Exception:  # unreadable, or YAML that is no game header: not a game file
        return None


class Games:
    """The games an inbox feeds: one game file, or every game file under a folder, by game id."""

    def __init__(self, target: str | Path):
        self.target = Path(target)
        self.single = not self.target.is_dir()
        self.paths: dict[str, list[Path]] = {}
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
        if not self.paths:
            raise InvalidInput("no game file in this folder (nor below it)", code="E100", file=str(self.target))

    def path_for(self, order) -> Path:
        """The game file an order is for (a single game takes every file: it refuses other games')."""
        if self.single:
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


def process_message(msg: EmailMessage, games: Games, *, dry_run: bool = False) -> Result:
    """Find, match and submit the order files of one message: all of them, or none."""
    from . import orders
    from .engine import Engine
    from .game import locked

    try:
        found = find_orders(msg)
    except Exception as exc:  # the email package on a badly broken message
        return Result(False, reason=f"the message cannot be read ({exc.__class__.__name__}: {exc}) [E100]")
    if not found:
        return Result(False, reason=NO_ORDERS)
    items: list[tuple[Path, str, str, str | None]] = []
    seen: set = set()
    for f in found:
        if f.error:
            return Result(False, reason=f.error)
        text = best_reading(f)
        if (text, f.sig) in seen:
            continue            # the same file twice in one message (attached and pasted)
        seen.add((text, f.sig))
        try:
            order = orders.parse(text, f.name)
            items.append((games.path_for(order), f.name, text, f.sig))
        except HxrefError as exc:
            return Result(False, reason=exc.render())
    paths = sorted(set(p for p, *_ in items), key=str)
    with contextlib.ExitStack() as stack:
        for p in paths:
            stack.enter_context(locked(p))
        engines = {p: Engine.load(p) for p in paths}
        receipts = []
        for path, name, text, sig in items:
            try:
                receipts.append(engines[path].submit(text, name, sig))
            except HxrefError as exc:
                return Result(False, reason=exc.render(), games=paths)
        if not dry_run:
            for eng in engines.values():
                eng.save()
    return Result(True, receipts=receipts, games=paths)


# === sources ====================================================================================

@dataclass
class Item:
    """One message of a source."""

    label: str          # shown to the user
    raw: bytes
    stem: str           # its name in the archive, without .eml
    key: object = None


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

    def close(self) -> None:
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
    status: str                      # accepted | rejected | would be accepted | would be rejected
    receipts: list = field(default_factory=list)
    reason: str | None = None
    moved_to: str | None = None
    games: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.status.endswith("accepted")

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


def _reason_text(reason: str, item: Item, msg: EmailMessage | None) -> str:
    lines = [reason, "", f"message: {item.label}"]
    for h in ("From", "Date", "Subject", "Message-ID"):
        value = _header(msg, h)
        if value:
            lines.append(f"{h.lower()}: {value}")
    lines += ["", "nothing from this message was stored (a message is taken whole or not at all): fix the "
                  "file named above and send the whole message again."]
    return "\n".join(lines) + "\n"


def run_inbox(target: str | Path, source: Source, *, dry_run: bool = False,
              progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Process every message of ``source`` for the games of ``target`` (see the module docstring)."""
    games = Games(target)
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
                res = (process_message(msg, games, dry_run=dry_run) if msg is not None
                       else Result(False, reason="the message cannot be read [E100]"))
                results[i] = res
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
            if not res.accepted and not dry_run:
                moved = _archive(source.archive / "rejected", item.stem, item.raw, _reason_text(res.reason, item, msg))
                source.remove(item)
            status = ("accepted" if res.accepted else "rejected")
            outcomes.append(Outcome(item.label, _header(msg, "From"), _header(msg, "Subject"),
                                    ("would be " + status) if dry_run else status, res.receipts, res.reason,
                                    str(moved) if moved else None, [str(p) for p in res.games]))
            if progress:
                progress(outcomes[-1])
        return outcomes
    finally:
        source.close()


# === the outbox ==================================================================================

@dataclass
class AddressBook:
    path: Path
    recipients: dict[str, list[str]]       # audience (a side or "umpire") -> addresses as written
    sender: str | None = None
    timezones: dict[str, str] = field(default_factory=dict)    # audience -> IANA zone (deadlines shown in it)


def address_book_path(game: str | Path) -> Path:
    return Path(game).with_suffix(".addresses.yaml")


def _valid_address(text: str) -> str | None:
    """The address part of ``Name <user@host>`` or ``user@host``, or None if it is not one."""
    from email.utils import getaddresses

    if not isinstance(text, str) or "\n" in text or "\r" in text:
        return None
    pairs = getaddresses([text])
    if len(pairs) != 1:
        return None
    addr = pairs[0][1]
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain.strip(".") or " " in addr:
        return None
    return addr


def load_address_book(path: str | Path, engine) -> AddressBook:
    """Read and check ``GAME.addresses.yaml``: ``side: address`` (or a list), ``umpire:``, ``from:``."""
    from . import yamlio

    path = Path(path)
    sides = engine.sides()
    example = " and ".join(f"`{s}: {s}@example.org`" for s in sides[:2])
    if not path.exists():
        raise InvalidInput(f"no address book: write one `side: address` line per side, e.g. {example} "
                           "(`umpire:` and `from:` are optional)", code="E100", file=str(path))
    text = yamlio.read_text(path)
    root = yamlio.load_rt(text, str(path))
    data = yamlio.to_plain(root)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InvalidInput(f"an address book is a mapping of `side: address` lines, e.g. {example}", code="E112",
                           file=str(path), line=yamlio.line_of(root) or 1)
    allowed = [*sides, "umpire", "from", "tz"]
    book = AddressBook(path, {})
    for key, value in data.items():
        line = yamlio.line_of(root, key)
        if key == "tz":
            book.timezones = _timezones(value, [*sides, "umpire"], path, line)
            continue
        if key not in allowed:
            raise InvalidInput(f"no side {key!r} in game {engine.meta['game']} (the keys are its sides "
                               f"{', '.join(sides)}, and umpire and from)", code="E110", file=str(path), line=line,
                               path=str(key))
        values = value if isinstance(value, list) else [value]
        if not values or (key == "from" and len(values) != 1):
            raise InvalidInput(f"`{key}` needs {'one address' if key == 'from' else 'an address'}", code="E112",
                               file=str(path), line=line, path=str(key))
        for v in values:
            if _valid_address(v) is None:
                raise InvalidInput(f"not an e-mail address: {v!r} (write user@host or \"Name <user@host>\")",
                                   code="E112", file=str(path), line=line, path=str(key))
        if key == "from":
            book.sender = values[0]
        else:
            book.recipients[key] = [str(v) for v in values]
    return book


def _timezones(value, audiences: list[str], path: Path, line) -> dict[str, str]:
    """The book's ``tz: {side: Area/City}``: each player's own time zone for deadlines."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not isinstance(value, dict):
        raise InvalidInput("`tz` maps each side to its time zone, e.g. {union: Europe/Berlin}", code="E112",
                           file=str(path), line=line, path="tz")
    out = {}
    for who, zone in value.items():
        if who not in audiences:
            raise InvalidInput(f"`tz`: no side {who!r} (the keys are {', '.join(audiences)})", code="E110",
                               file=str(path), line=line, path=f"tz.{who}")
        try:
            ZoneInfo(str(zone))
        except (ZoneInfoNotFoundError, ValueError):
            raise InvalidInput(f"`tz`: {zone!r} is not a time zone (an IANA name like Europe/Berlin)",
                               code="E112", file=str(path), line=line, path=f"tz.{who}") from None
        out[str(who)] = str(zone)
    return out


def local_time(utc: str, zone: str | None) -> str:
    """A UTC deadline as ``2026-12-01 13:00 CET`` in ``zone`` (UTC when None)."""
    import datetime as _dt
    from zoneinfo import ZoneInfo

    t = _dt.datetime.fromisoformat(utc.replace("Z", "+00:00"))
    t = t.astimezone(ZoneInfo(zone)) if zone else t.astimezone(_dt.timezone.utc)
    return t.strftime("%Y-%m-%d %H:%M ") + (t.tzname() or "UTC")


def deadline_lines(engine, audience: str, zone: str | None) -> list[str]:
    """The awaited decisions' deadlines, in the recipient's own time zone (and the end of the grace,
    from which a missed file can be claimed, when the game gives one)."""
    out = []
    for w in engine.waiting_for():
        if w.get("deadline"):
            line = f"Deadline of {w['decision']}: {local_time(w['deadline'], zone)} ({w['deadline']})"
            if w.get("due") and w["due"] != w["deadline"]:
                line += f"; with the grace until {local_time(w['due'], zone)} ({w['due']})"
            out.append(line)
    return out


# --- reminders ------------------------------------------------------------------------------------

#: what a party owes, as a reminder says it
_OWES = {"join": "its join file", "commit": "its sealed commitment", "reveal": "its reveal",
         "answer": "its answer", "link": "its dice link (a roll file)", "resolve": "the resolution"}


def _command(engine, text: str) -> str:
    """A command of :meth:`waiting_for`, with GAME replaced by the game file's name."""
    return re.sub(r"\bGAME\b", engine.gf.path.name, text)


def _owed_parts(party: str, what: str) -> tuple[str, str]:
    """An entry of ``waiting_for()["owed"]`` in words, and when it can be sent (``reveal``: its
    reveal; ``link (after the answers)``: its dice link, after the answers); the umpire gives its
    dice link by resolving the decision."""
    from .engine import UMPIRE

    if what == "wait (others commit)":
        return "its reveal", "once the others have committed"
    base, _, rest = what.partition(" (")
    if party == UMPIRE and base == "link":
        base = "resolve"
    return _OWES.get(base, base), rest.rstrip(")")


def _owed_text(party: str, what: str) -> str:
    owes, when = _owed_parts(party, what)
    return f"{owes}, {when}" if when else owes


def _owing(w: dict) -> dict[str, str]:
    """The parties that still owe something for a waiting decision, and what."""
    return {p: what for p, what in w["owed"].items() if what not in ("done", "missed (claimed)")}


def _claim_lines(engine, w: dict, party: str, owed: str, zone: str | None) -> list[str]:
    """What happens after the deadline: who may claim it, with which command, and what a claim gives
    under the game's policy (no clock applies a deadline: a signed claim does)."""
    from .engine import UMPIRE

    due = w.get("due") or w["deadline"]
    when = f"{local_time(due, zone)} ({due})"
    if engine.mode == "solo":
        return [_fill(f"A solo game has no claims: the deadline ({when}) only reminds you.")]
    if party == UMPIRE:
        return [_fill(f"The deadline and its grace end {when}; nobody can claim a missed deadline against "
                      "the umpire, but every report shows the delay.")]
    if engine.mode == "umpired":
        who, side = "the umpire", UMPIRE
    else:
        others = [s for s in engine.sides() if s != party]
        who = f"the other side ({', '.join(others)})" if others else "another side"
        side = others[0] if len(others) == 1 else "SIDE"
    policy = engine.meta.get("policy") or {}
    if owed.startswith(("reveal", "link", "wait")):
        outcome = (f"{party} forfeits the game (a withheld {'dice link' if owed.startswith('link') else 'reveal'} "
                   "is never replaced by another)")
    elif policy.get("nmr") == "forfeit":
        outcome = f"{party} forfeits the game (policy forfeit)"
    else:
        outcome = f"{party} stands fast with the decision's default answer (policy stand-fast)"
        if policy.get("forfeit_after"):
            outcome += f", and forfeits after {policy['forfeit_after']} missed deadlines"
    cmd = _command(engine, f"hxref claim GAME --side {side} --key KEY --against {party} --decision {w['decision']}")
    return [_fill(f"After the deadline and its grace, from {when}, {who} may claim that {party} missed it:"),
            f"    {cmd}",
            _fill(f"A claim counts only if it is signed after that time; then {outcome}.")]


def _fill(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=76, break_long_words=False, break_on_hyphens=False)


def _later_command(engine, w: dict, party: str, owed: str) -> str | None:
    """The command for a file that follows the others' (a reveal, a dice link), to run once they are in."""
    from .engine import UMPIRE

    if owed == "wait (others commit)":
        return _command(engine, f"hxref submit GAME {party}-{w['decision']}-reveal.yaml")
    if owed.startswith("link"):
        return _command(engine, "hxref resolve GAME --key UMPIRE_KEY" if party == UMPIRE else
                        f"hxref roll GAME --side {party} --key KEY --decision {w['decision']}")
    return None


def reminder_messages(engine, book: AddressBook, *, within_hours: float,
                      sender: str | None = None) -> list[tuple[str, EmailMessage]]:
    """A reminder to every party that owes anything for a decision whose deadline falls within
    ``within_hours`` (or is past): a side's file (answer, commitment, reveal, dice link), also one
    it owes only once the others' files are in, or the umpire's resolution.  Each names what every
    party still owes, with the command to send it, and who may claim the deadline after its grace."""
    import datetime as _dt

    from email.utils import format_datetime

    from .engine import UMPIRE, _time_left, now_iso

    now = _dt.datetime.fromisoformat(now_iso().replace("Z", "+00:00"))
    frm = sender or book.sender or (book.recipients.get("umpire") or ["hxref <hxref@localhost>"])[0]
    out = []
    for w in engine.waiting_for():
        if not w.get("deadline"):
            continue
        due = _dt.datetime.fromisoformat(w["deadline"].replace("Z", "+00:00"))
        if (due - now).total_seconds() > within_hours * 3600:
            continue
        owing = _owing(w)
        for party, owed in owing.items():
            if party not in book.recipients:
                continue
            zone = book.timezones.get(party)
            who = "the umpire" if party == UMPIRE else party
            cmd = w["commands"].get(party)
            later = None if cmd else _later_command(engine, w, party, owed)
            owes, when = _owed_parts(party, owed)
            lines = [f"hxref -- game {engine.meta['game']}: a reminder for {who}.", "",
                     _fill(f"{who[0].upper() + who[1:]} still owes {owes} for {w['decision']}"
                           + (f", {when}" if when else "") + f" ({w['prompt']})."),
                     f"Deadline: {local_time(w['deadline'], zone)} ({w['deadline']}); {_time_left(w['deadline'])}."]
            if cmd:
                lines += ["Send it with:", f"    {_command(engine, cmd)}"]
            elif later:
                lines += ["Send it as soon as the others' files are in, with:", f"    {later}"]
            lines += ["", f"Still owed for {w['decision']}:"]
            for p, what in owing.items():
                c = _command(engine, w["commands"][p]) if p in w["commands"] else _later_command(engine, w, p, what)
                lines.append(f"  {p}: {_owed_text(p, what)}")
                if c:
                    lines.append(f"    {c}")
            lines += ["", *_claim_lines(engine, w, party, owed, zone)]
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
    from .engine import INPUT_KINDS

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
    from .engine import Receipt

    d = log[i]["data"]
    j = _block_end(log, i)
    return Receipt(engine.meta["game"], d["decision"], d["side"], d["kind"], d["sha256"], log[j]["hash"], j + 1)


def _pending_files(engine) -> list[tuple[str, dict]]:
    """(decision, file) of every file kept for an open decision: in the awaited order, each
    decision's files in canonical order."""
    pending = engine.h.get("pending") or {}
    order = [d.id for d in engine.awaiting if d.id in pending] + \
        [k for k in pending if k not in {d.id for d in engine.awaiting}]
    return [(dec, f) for dec in order for f in pending[dec].get("files", [])]


def pending_receipts(engine) -> list:
    """Receipts of the files kept for open decisions: each waits on top of the current head."""
    from .engine import Receipt

    head, seq = engine.gf.head, len(engine.gf.log)
    return [Receipt(engine.meta["game"], dec, f["party"], f["kind"], f["sha256"], head, seq, pending=True)
            for dec, f in _pending_files(engine)]


def _written_against(text: str) -> int | None:
    """The event number of the head a kept file names (None if it names none)."""
    from . import orders, protocol

    try:
        head = protocol.parse_head(orders.parse(text, "kept file", fast=True).data.get("head"))
    except Exception:  # noqa: BLE001 - a file that was accepted parses; a damaged one names no head
        return None
    return head[1] if head else None


def last_mail_event(engine) -> int:
    """Where the current round starts: the oldest head its files were written against -- the
    pending files, or when none is pending, the files of the last block in the log (in a game
    without files, the event before the resolutions that end the log)."""
    log = engine.gf.log
    texts = [f["file"] for _, f in _pending_files(engine)]
    if not texts:
        i = len(log) - 1
        while i >= 0 and log[i]["kind"] != "submission":
            i -= 1
        while i >= 0 and log[i]["kind"] == "submission":
            texts.append(log[i]["data"]["file"])
            i -= 1
    seqs = [s for s in map(_written_against, texts) if s is not None]
    if seqs:
        return min(seqs)
    # no files (a solo game: its answers are events of the log): the resolutions that end the log
    from .engine import INPUT_KINDS

    i = len(log) - 1
    while i >= 0 and (log[i]["kind"] not in INPUT_KINDS or log[i]["kind"] in ("resolve", "link")):
        i -= 1
    return i + 1


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


def subject(engine) -> str:
    game, head = engine.meta["game"], engine.gf.head
    parts = []
    resolved = _resolved_last(engine)
    if resolved:
        parts.append(", ".join(resolved) + " resolved")
    if engine.finished:
        parts.append("game over")
    else:
        ids = [d.id for d in engine.awaiting]
        parts.append("awaiting " + (", ".join(ids[:3]) + (", ..." if len(ids) > 3 else "") if ids else "nothing"))
    return f"[hxref] {game}: {'; '.join(parts)} -- head {head[:12]}"


def _html_body(document: str) -> str:
    m = re.search(r"<body[^>]*>(.*)</body>", document, re.S | re.I)
    return (m.group(1) if m else document).strip()


def _sections(engine, audience: str) -> list[tuple[str, object]]:
    from .report import turn

    if audience == "umpire":
        return [("The umpire's report", turn.build(engine, "umpire"))]
    return [("The public report", turn.build(engine, None)), (f"{audience}'s own report", turn.build(engine, audience))]


def compose(engine, audience: str, to: list[str], sender: str, receipts: list, zone: str | None = None
            ) -> EmailMessage:
    """The message for one recipient: plain text and HTML alternatives with the same content; the
    deadlines are given in the recipient's time ``zone`` too."""
    import datetime as _dt
    from email.utils import format_datetime

    from .engine import now_iso
    from .report import turn

    meta, head, seq = engine.meta, engine.gf.head, len(engine.gf.log)
    who = "the umpire" if audience == "umpire" else audience
    intro = (f"hxref -- game {meta['game']} ({engine.system.title}, {meta['scenario']}), "
             f"mail for {who}.")
    head_line = f"Head hash {head} (event {seq}): keep it, it proves this history later."
    next_line = f"Next: {engine.waiting_text()}."
    due = deadline_lines(engine, audience, zone)
    r_lines = [r.line() for r in receipts]
    sections = _sections(engine, audience)

    plain = [intro, "", head_line, next_line, *due, ""]
    pending_note = ("A pending file is kept for its open decision, outside the log; when the decision "
                    "closes, its files go into the log as one block, and the next mail gives their "
                    "receipts with the head of that block.") if any(r.pending for r in receipts) else None
    if r_lines:
        plain += ["Receipts of the files accepted since the last mail (each player keeps its own as proof):"]
        plain += ["  " + line for line in r_lines] + [""]
        if pending_note:
            plain += [pending_note, ""]
    for title, rep in sections:
        plain += [f"==== {title} ====", "", turn.to_text(rep).rstrip("\n"), ""]
    esc = _html.escape
    html = ['<!DOCTYPE html>', '<html><head><meta charset="utf-8">',
            f"<title>{esc(subject(engine))}</title></head>", "<body>",
            f"<p>{esc(intro)}</p>", f"<p>Head hash <code>{head}</code> (event {seq}): keep it, it proves "
            "this history later.</p>", f"<p>{esc(next_line)}</p>", *(f"<p>{esc(d)}</p>" for d in due)]
    if r_lines:
        html += ["<h2>Receipts of the files accepted since the last mail</h2>",
                 "<pre>" + "\n".join(esc(line) for line in r_lines) + "</pre>"]
        if pending_note:
            html += [f"<p>{esc(pending_note)}</p>"]
    for title, rep in sections:
        html += [f"<h2>{esc(title)}</h2>", _html_body(turn.to_html(rep))]
    html += ["</body></html>"]

    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject(engine)
    when = _dt.datetime.fromisoformat(now_iso().replace("Z", "+00:00"))
    msg["Date"] = format_datetime(when if when.tzinfo else when.replace(tzinfo=_dt.timezone.utc), usegmt=True)
    safe = re.sub(r"[^A-Za-z0-9.-]", "-", f"{meta['game']}.{audience}")
    msg["Message-ID"] = f"<{head[:32]}.{safe}@hxref.invalid>"
    msg["X-Hxref-Game"] = meta["game"]
    msg["X-Hxref-Head"] = head
    msg["X-Hxref-Event"] = str(seq)
    msg["X-Hxref-Audience"] = audience
    msg.set_content("\n".join(plain) + "\n")
    msg.add_alternative("\n".join(html) + "\n", subtype="html")
    return msg


def outbox_messages(engine, book: AddressBook, *, sender: str | None = None,
                    since: int | None = None) -> tuple[list[tuple[str, EmailMessage]], list[str]]:
    """(audience, message) for every recipient in the book, and the sides the book has no address for."""
    receipts = recent_receipts(engine, since)
    frm = sender or book.sender or (book.recipients.get("umpire") or ["hxref <hxref@localhost>"])[0]
    if _valid_address(frm) is None:
        raise InvalidInput(f"not an e-mail address: {frm!r}", code="E504")
    out = []
    for audience in [*engine.sides(), "umpire"]:
        if audience in book.recipients:
            out.append((audience, compose(engine, audience, book.recipients[audience], frm, receipts,
                                          book.timezones.get(audience))))
    missing = [s for s in engine.sides() if s not in book.recipients]
    if not out:
        raise InvalidInput("the address book names nobody to mail", code="E111", file=str(book.path))
    return out, missing


def outbox_name(msg: EmailMessage) -> str:
    game = re.sub(r"[^A-Za-z0-9._-]", "-", msg["X-Hxref-Game"])
    return f"{game}-{msg['X-Hxref-Head'][:12]}-{msg['X-Hxref-Audience']}.eml"


def write_outbox(messages: list[tuple[str, EmailMessage]], folder: str | Path) -> list[Path]:
    """Write each message as a ready ``.eml`` file (``X-Unsent: 1``: mail clients open it as a draft)."""
    from .game import atomic_write

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for _, msg in messages:
        msg["X-Unsent"] = "1"
        try:
            data = msg.as_bytes()
        finally:
            del msg["X-Unsent"]
        path = folder / outbox_name(msg)
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
