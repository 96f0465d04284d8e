"""Reading one message: the order files it carries (the first half of the inbox, :mod:`hxref.mail.inbox`).

:func:`find_orders` searches a message for order files: attachments (any ``text/*`` part, or a name
ending ``.yaml``/``.yml``/``.txt``, whatever its MIME type), files pasted into a plain-text body, or
into an HTML-only body (:func:`html_to_text`), and the same inside forwarded messages
(``message/rfc822`` parts and attached ``.eml`` files).  Transfer encodings (quoted-printable,
base64) and charsets are undone by the ``email`` package; ``format=flowed`` bodies are unflowed
(:func:`unflow`, RFC 3676); a ``NAME.sig`` attachment is the detached signature of ``NAME``.

What a mail client may do to a signed file, and what is done about it: :mod:`hxref.crypto.signing`
already turns CRLF and CR into LF before it checks a signature, and ignores blanks at the ends of
the signature block's lines and blank lines after it.  Beyond that, a file whose signature does not
verify as received is tried again (:func:`repaired`) with its signature block re-armored (lines
re-wrapped, comment marks restored: the block is base64, its bytes do not change) and then also
with blanks at the ends of its body's lines removed and no-break spaces made spaces.  The first
reading whose signature verifies is the one submitted and stored (:func:`best_reading`), so what is
stored is always exactly the text the player signed; if none verifies, the most repaired reading is
submitted and its error (``signature does not match the file`` ...) is the reason given.
"""
from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from html.parser import HTMLParser
from pathlib import Path

from ..base.errors import HxrefError

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


# === reading messages ==========================================================================

@dataclass
class Found:
    """An order file found in a message: where it was, its text, and a detached signature."""

    name: str
    text: str
    sig: str | None = None
    error: str | None = None        # the part could not be read (too large, not text): the reason
    game: bool = False              # a game file travelling with the mail (open games pass it around)
    pasted: bool = False            # read from a message body, not from an attachment


def read_message(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def find_orders(msg: EmailMessage) -> list[Found]:
    """Every order file in ``msg``, in the order a reader meets them (not yet repaired or checked)."""
    found: list[Found] = []
    sigs: dict[str, str] = {}
    _walk(msg, "", found, sigs, 0, own=is_hxref_mail(msg))
    by_name = {f.name: f for f in found if not f.game}
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


def is_hxref_mail(msg) -> bool:
    """A mail written by ``hxref outbox`` (its ``X-Hxref-Game`` header): its bodies are reports, never
    order files; only its attachments may carry files (the signed files and the game file)."""
    try:
        return bool(msg.get("X-Hxref-Game"))
    except Exception:  # a header the email package cannot parse
        return False


def _walk(part, prefix: str, found: list[Found], sigs: dict[str, str], depth: int, own: bool = False) -> None:
    if depth > MAX_DEPTH:
        return
    ctype = part.get_content_type()
    if ctype == "message/rfc822" or (part.get_content_maintype() == "message" and part.is_multipart()):
        for inner in part.get_payload() or []:
            if isinstance(inner, Message):
                _walk(inner, prefix + "forwarded/", found, sigs, depth + 1, is_hxref_mail(inner))
        return
    if part.get("X-Hxref-Part") in ("template", "view"):
        return              # hxref's own template or a side's view: to fill in or check against, not to submit
    if part.is_multipart():
        subs = list(part.iter_parts())
        if ctype == "multipart/alternative" and subs:
            # one reading of the same text: plain if there is one, else the richest (the last)
            plain = [p for p in subs if p.get_content_type() == "text/plain"]
            subs = plain[:1] or subs[-1:]
        for sub in subs:
            _walk(sub, prefix, found, sigs, depth + 1, own)
        return
    _leaf(part, ctype, prefix, found, sigs, depth, own)


def _leaf(part, ctype: str, prefix: str, found: list[Found], sigs: dict[str, str], depth: int, own: bool) -> None:
    """A part that is no container: a forwarded ``.eml``, a game file, a detached signature, a
    message body, or an attached file."""
    filename = part.get_filename()
    name = prefix + _display_name(filename) if filename else None
    lower = (filename or "").lower()
    if lower.endswith(".eml"):
        raw = part.get_payload(decode=True) or b""
        with contextlib.suppress(Exception):
            inner = read_message(raw)
            _walk(inner, prefix + "forwarded/", found, sigs, depth + 1, is_hxref_mail(inner))
        return
    attachment = bool(filename) or part.is_attachment()
    if attachment and _game_file_part(part, name or prefix + "attachment", found):
        return
    if lower.endswith(".sig") and name is not None:     # (a name ending in .sig has a name)
        text, error = _part_text(part, name)
        if error is None:
            sigs[name] = text
        return
    if not attachment:
        if ctype in ("text/plain", "text/html") and not own:
            _body(part, ctype, prefix, found)
        return
    _attached(part, ctype, name or prefix + "attachment", lower, found)


def _body(part, ctype: str, prefix: str, found: list[Found]) -> None:
    """A plain-text or HTML message body: the order files pasted into it."""
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
        found.append(Found(label, piece, pasted=True))


def _attached(part, ctype: str, name: str, lower: str, found: list[Found]) -> None:
    """An attachment: a YAML file whole (when it looks like an order file), the order files in
    any other text."""
    if not (part.get_content_maintype() == "text" or ctype in YAML_TYPES or lower.endswith(ORDER_SUFFIXES)):
        return
    text, error = _part_text(part, name)
    if error is not None:
        if lower.endswith(YAML_SUFFIXES) and _looks_like_order(part):
            found.append(Found(name, "", error=error))
        return      # a friend's large or non-UTF-8 file that is no order file: not hxref's business
    if lower.endswith(YAML_SUFFIXES) or ctype in YAML_TYPES:
        if _ORDER_HINT.search(text):
            found.append(Found(name, text))      # the whole file, exactly as attached
        return
    pieces = extract(text)
    for i, piece in enumerate(pieces, 1):
        found.append(Found(name + (f" (file {i})" if len(pieces) > 1 else ""), piece))


def _looks_like_order(part) -> bool:
    """Whether an attachment that cannot be read as an order file (too large, not UTF-8) still
    begins like one: an ``hxref:`` or ``decision:`` line in its first 64 KB, in any ASCII-compatible
    encoding.  Only then is it refused; anything else is someone's ordinary file."""
    try:
        raw = part.get_payload(decode=True) or b""
    except Exception:  # a damaged transfer encoding
        return False
    return isinstance(raw, bytes) and re.search(rb"^(hxref|decision):[ \t]*\S", raw[:65536], re.M) is not None


def _game_file_part(part, name: str, found: list[Found]) -> bool:
    """An attached game file (it starts with hxref's game file mark): kept as one, up to the size a
    game file may have; True when ``part`` is one."""
    from ..base.yamlio import DATA_LIMITS

    try:
        raw = part.get_payload(decode=True) or b""
    except Exception:  # a damaged transfer encoding: not read as a game file
        return False
    if not isinstance(raw, bytes) or not raw.lstrip(b"\xef\xbb\xbf").startswith(GAME_MARK):
        return False
    if len(raw) > DATA_LIMITS.max_bytes:
        found.append(Found(name, "", error=f"{name}: a game file of {len(raw):,} bytes; at most "
                                           f"{DATA_LIMITS.max_bytes:,} are read [E103]", game=True))
        return True
    try:
        found.append(Found(name, raw.lstrip(b"\xef\xbb\xbf").decode("utf-8"), game=True))
    except UnicodeDecodeError:
        found.append(Found(name, "", error=f"{name}: the game file is not UTF-8 [E100]", game=True))
    return True


def _part_text(part, name: str) -> tuple[str, str | None]:
    """A leaf part's text (transfer encoding and charset undone), or the reason it has none."""
    from ..base.yamlio import ORDER_LIMITS

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

    def __init__(self) -> None:
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
    from ..crypto.signing import embed_signature, split_signed_text

    norm = text.replace("\r\n", "\n").replace("\r", "\n")
    readings = [norm]
    lines = norm.split("\n")
    begin = max((i for i, line in enumerate(lines) if _BEGIN in line), default=None)
    end = next((i for i in range(begin + 1, len(lines)) if _END in lines[i]), None) if begin is not None else None
    if begin is not None and end is not None:
        b64 = "".join("".join(line.replace("#", " ").split()) for line in lines[begin + 1:end])
        if b64 and _B64.fullmatch(b64):
            # the signature block rewrapped at 70 columns, as ssh-keygen writes it
            rewrapped = "\n".join([_BEGIN, *(b64[i:i + 70] for i in range(0, len(b64), 70)), _END]) + "\n"
            readings.append(embed_signature("".join(line + "\n" for line in lines[:begin]), rewrapped))
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
        from ..crypto.signing import embed_signature, split_signed_text

        for base in readings:           # least changed first: the signature block as it came, if it can be
            body, armored = split_signed_text(base)
            lines = body.split("\n")
            start = next((i for i, line in enumerate(lines) if _ORDER_START.match(line)), 0)
            for k in range(1, start + 1):
                if armored is not None and lines[k - 1].startswith("#"):
                    reading = embed_signature("\n".join(lines[k:]), armored)
                    if _verifies(reading, f):
                        return reading
    return readings[-1]


def _verifies(reading: str, f: Found) -> bool:
    from ..crypto.signing import verify_text

    try:
        verify_text(reading, source=f.name, detached=f.sig)
        return True
    except HxrefError:
        return False
