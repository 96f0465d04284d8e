"""Helpers for the e-mail tests (the inbox, the outbox and the umpire's mail).

Every message here is a real one: built with the standard library's ``email``
package and written with its generator (``as_bytes``), or read from the
hand-written MTA-style fixture under ``fixtures/``.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ALICE = "Alice Player <alice@example.org>"
BOB = "Bob Player <bob@example.org>"
REFEREE = "hxref referee <referee@example.org>"


def register(monkeypatch) -> None:
    """Put the mail commands in the main command table, as cli.py registers them (a no-op once it does)."""
    from hxref.cli import Main

    monkeypatch.setitem(Main.GROUPS, "inbox", ("hxref.cli.mail", "inbox_cmd"))
    monkeypatch.setitem(Main.GROUPS, "outbox", ("hxref.cli.mail", "outbox_cmd"))


def message(frm: str = ALICE, subject: str = "orders", body: str | None = "Orders attached.\n", *,
            to: str = REFEREE, cte: str | None = None, date: str = "Sun, 29 Nov 2026 12:00:00 +0000",
            msgid: str | None = None) -> EmailMessage:
    """A message with a plain-text body (``cte`` forces its transfer encoding)."""
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Date"] = frm, to, subject, date
    m["Message-ID"] = msgid or f"<{abs(hash((frm, subject, body)))}@example.org>"
    if body is not None:
        if cte:
            m.set_content(body, cte=cte)
        else:
            m.set_content(body)
    return m


def attach(m: EmailMessage, text: str, filename: str, *, binary: bool = False, cte: str = "base64") -> None:
    """Attach an order file: as text/plain with ``cte``, or as application/octet-stream bytes."""
    if binary:
        m.add_attachment(text.encode("utf-8"), maintype="application", subtype="octet-stream", filename=filename)
    else:
        m.add_attachment(text, subtype="plain", filename=filename, cte=cte)


def save(m: EmailMessage, path: Path | str, *, smtp: bool = False) -> Path:
    """Write a message as the generator makes it (``smtp``: CRLF line ends, as on the wire)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(m.as_bytes(policy=policy.SMTP if smtp else policy.default))
    return path


def read(name: str) -> str:
    return Path(name).read_text(encoding="utf-8")


def owed(cli, game: str) -> dict:
    return json.loads(cli("status", game, "--json").stdout)["awaiting"][0]["owed"]


def commits(cli, game: str, union: int = 4, confederate: int = 2) -> tuple[str, str]:
    """Both sides' signed t1.bid commit files (their reveal files are kept beside the game)."""
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", f"bid: {union}")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", f"bid: {confederate}")
    return read("union-t1.bid-commit.yaml"), read("confederate-t1.bid-commit.yaml")


def flowed(text: str, width: int = 72) -> str:
    """``text`` as a format=flowed; delsp=yes body (RFC 3676), as Thunderbird writes one: every
    physical line at most ``width`` characters, a soft break marked by a trailing space (deleted again
    when read), lines that begin with a space, ``>`` or ``From `` space-stuffed."""
    out = []
    for line in text.split("\n"):
        chunks = [line[i:i + width] for i in range(0, len(line), width)] or [""]
        for i, chunk in enumerate(chunks):
            if chunk.startswith((" ", ">", "From ")):
                chunk = " " + chunk
            out.append(chunk + (" " if i < len(chunks) - 1 else ""))
    return "\n".join(out)


#: the map pictures this process drew in :func:`pictures_drawn_once`, by their size and SVG
_PNGS: dict[str, bytes] = {}


@contextlib.contextmanager
def pictures_drawn_once():
    """Within the block, a map picture already drawn is not drawn again.

    ``hxref outbox`` draws each report mail's map as a PNG (resvg, about a quarter of a second a
    picture); in a long game by mail most rounds change nothing on a side's map (bids, dice links,
    reorganisation), so its mail's picture is the very picture of the round before.  resvg draws the
    same SVG at the same size to the same bytes, so every mail is byte for byte what it would be."""
    from hxref.report import mappng

    draw = mappng.to_png

    def to_png(svg: str, zoom: float = mappng.ZOOM, max_width: int = mappng.MAX_WIDTH) -> bytes:
        key = hashlib.sha256(f"{zoom} {max_width}\n{svg}".encode()).hexdigest()
        if key not in _PNGS:
            _PNGS[key] = draw(svg, zoom, max_width)
        return _PNGS[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mappng, "to_png", to_png)
        yield
