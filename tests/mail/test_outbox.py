"""``hxref outbox``: a ready message per recipient -- the public report, the side's secret report,
the head hash and the receipts, as plain text and HTML -- written as ``.eml`` files or sent by SMTP
to a local aiosmtpd server (each side gets its own secrets and nobody else's)."""
from __future__ import annotations

import datetime as dt
import json
import re
import socket
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from tests.mail import commits, message, register, save

BOOK = """\
# who gets hxref's mail for game test-game
union: Alice Player <alice@example.org>
confederate: [bob@example.org, "Bob at work <bob@work.example>"]
umpire: referee@example.org
from: hxref club <club@example.org>
"""


@pytest.fixture(autouse=True)
def _mail_commands(monkeypatch):
    register(monkeypatch)


def parse(raw: bytes):
    return BytesParser(policy=policy.default).parsebytes(raw)


def parts(msg) -> tuple[str, str]:
    """The text and the HTML alternative of a message (each receipt of the text, given in two lines
    to fit 78 columns, joined back into the one line `hxref submit` printed)."""
    assert msg.get_content_type() in ("multipart/alternative", "multipart/mixed")
    alt = msg if msg.get_content_type() == "multipart/alternative" else next(msg.iter_parts())
    assert alt.get_content_type() == "multipart/alternative"
    plain = re.sub(r"\n\s+file sha256:", " file sha256:", msg.get_body(("plain",)).get_content())
    html = msg.get_body(("html",)).get_content()
    return plain, html


def head(cli, game) -> str:
    return json.loads(cli("status", game, "--json").stdout)["head"]


@pytest.fixture
def committed(cli, game):
    """Both sides have committed (union 4, confederate 2); the book names everyone."""
    commits(cli, game)
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    Path("g.addresses.yaml").write_text(BOOK)
    return game


def outbox_files(folder="outbox") -> dict:
    return {parse(p.read_bytes())["X-Hxref-Audience"]: (p, parse(p.read_bytes()))
            for p in sorted(Path(folder).glob("*.eml"))}


def test_one_message_per_recipient_with_both_parts(cli, committed):
    h = head(cli, committed)
    out = cli("outbox", committed).stdout
    got = outbox_files()
    assert sorted(got) == ["confederate", "umpire", "union"], out
    for audience, (path, msg) in got.items():
        assert re.fullmatch(rf"test-game-{h[:12]}(-[0-9a-f]{{8}})?-{audience}\.eml", path.name) and path.name in out
        # the subject says what the reader owes and by when, or whom the game waits for; no hash
        assert msg["Subject"] == {"umpire": "test-game: waiting for union, confederate"}.get(
            audience, "test-game: your move: turn 1, bid operation levels for the first ..., due Sun 6 Dec 2026 12:00 UTC")
        assert h[:12] not in msg["Subject"] and msg["X-Hxref-Head"] == h and msg["X-Hxref-Game"] == "test-game"
        assert str(msg["From"]) == "hxref club <club@example.org>"
        assert msg["Date"].datetime == dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.timezone.utc)
        assert msg["Message-ID"] and msg["MIME-Version"] == "1.0"
        plain, html = parts(msg)
        assert h in plain and h in html
        assert "<html" in html and "<pre" in html
        # the receipts of the files accepted since the last mail, one line each, in both parts: the two
        # commitments, kept for t1.bid (pending, on top of the head), in canonical order (by party);
        # not the joins, which were the round before
        for text in (plain, html):
            lines = re.findall(r"accepted: game test-game decision (\S+) side (\w+) \(commit\) file sha256:\w+ "
                               r"pending, extends (\w+) \(event (\d+)\)", text)
            assert lines == [("t1.bid", "confederate", h[:16], "5"), ("t1.bid", "union", h[:16], "5")], \
                (audience, text[:400])
            assert "decision join" not in text
        assert "outside the log" in plain
    assert str(got["union"][1]["To"]) == "Alice Player <alice@example.org>"
    assert [a.addr_spec for a in got["confederate"][1]["To"].addresses] == ["bob@example.org", "bob@work.example"]
    assert str(got["umpire"][1]["To"]) == "referee@example.org"


def test_each_side_gets_its_own_secrets_and_nobody_elses(cli, committed):
    cli("outbox", committed)
    got = outbox_files()
    union, union_html = parts(got["union"][1])
    conf, conf_html = parts(got["confederate"][1])
    ump, _ = parts(got["umpire"][1])
    # one report each: the side's own holds everything public (no public report beside it)
    assert "union's report" in union and "public report" not in union
    assert 'your sealed choice is {"bid": 4}' in union and '{"bid": 2}' not in union
    assert 'your sealed choice is {"bid": 2}' in conf and '{"bid": 4}' not in conf
    assert "sealed choice is" in union_html and '{"bid": 4}' not in conf_html.replace("&quot;", '"')
    assert "umpire's report (everything)" in ump and "your sealed choice" not in ump


def test_receipts_since_an_event(cli, committed):
    cli("outbox", committed, "--since", "0", "--out", "all")
    plain, _ = parts(outbox_files("all")["union"][1])
    got = RECEIPT.findall(plain)
    h = head(cli, committed)
    # the joins' block (closed by the last join: its receipts name the block's end, event 5, the head
    # now), then the commitments kept for t1.bid on top of it; each in canonical order (by party)
    assert [(r[0], r[1], r[4]) for r in got] == [
        ("join", "confederate", "head"), ("join", "union", "head"),
        ("t1.bid", "confederate", "pending, extends"), ("t1.bid", "union", "pending, extends")]
    assert [r[5:] for r in got] == [(h[:16], "5")] * 4


def test_after_a_resolution_the_subject_says_so(cli, committed):
    cli("submit", committed, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    cli("resolve", committed)
    cli("outbox", committed)
    msg = outbox_files()["union"][1]
    assert msg["Subject"].startswith("test-game: your move: turn 2, bid"), msg["Subject"]
    plain, _ = parts(msg)
    assert len(re.findall(r"accepted: game test-game decision t1\.bid .* head ", plain)) == 4  # commits, reveals
    assert "pending" not in plain.split("To verify this report")[0]


RECEIPT = re.compile(r"accepted: game test-game decision (\S+) side (\w+) \((\w+)\) file sha256:(\w+) "
                     r"(pending, extends|head) (\w+) \(event (\d+)\)")


def receipts(audience="union", folder="outbox") -> list[tuple]:
    plain, html = parts(outbox_files(folder)[audience][1])
    got = RECEIPT.findall(plain)
    assert got == RECEIPT.findall(html.replace("&quot;", '"'))
    return got


def test_each_mail_gives_the_receipts_since_the_last_one(cli, committed):
    """Files kept for an open decision are pending (outside the log): their receipts say so, on top
    of the head.  Once the decision closes, the next mail gives the receipts of its block, with the
    block's head; a mail after that gives only what came in since."""
    h = head(cli, committed)
    cli("outbox", committed, "--out", "m1")
    assert [(r[0], r[1], r[2], r[4], r[5]) for r in receipts(folder="m1")] == [
        ("t1.bid", "confederate", "commit", "pending, extends", h[:16]),
        ("t1.bid", "union", "commit", "pending, extends", h[:16])]
    cli("submit", committed, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    assert head(cli, committed) == h                        # pending files do not move the head
    cli("outbox", committed, "--out", "m2")
    assert [(r[1], r[2], r[4]) for r in receipts(folder="m2")] == [
        ("confederate", "commit", "pending, extends"), ("union", "commit", "pending, extends"),
        ("confederate", "reveal", "pending, extends"), ("union", "reveal", "pending, extends")]
    cli("resolve", committed)
    h2 = head(cli, committed)
    events = json.loads(cli("status", committed, "--json").stdout)["events"]
    cli("outbox", committed, "--out", "m3")
    got = receipts(folder="m3")
    # the block of t1.bid: its four files in canonical order, each receipt naming the block's end
    assert [(r[0], r[1], r[2], r[4]) for r in got] == [
        ("t1.bid", "confederate", "commit", "head"), ("t1.bid", "union", "commit", "head"),
        ("t1.bid", "confederate", "reveal", "head"), ("t1.bid", "union", "reveal", "head")]
    assert {(r[5], r[6]) for r in got} == {(h2[:16], str(events))}
    assert outbox_files("m3")["union"][1]["Subject"].startswith("test-game: your move: turn 2")
    # the next round: union's commitment for t2.bid, written against the head of the last mail
    cli("commit", committed, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    res = cli("submit", committed, "union-t2.bid-commit.yaml").stdout
    cli("outbox", committed, "--out", "m4")
    got = receipts(folder="m4")
    assert [(r[0], r[1], r[4], r[5], r[6]) for r in got] == [("t2.bid", "union", "pending, extends", h2[:16],
                                                               str(events))]
    line = next(x.strip() for x in res.splitlines() if x.startswith("accepted:"))
    assert line in parts(outbox_files("m4")["union"][1])[0]       # the very receipt `hxref submit` printed
    assert outbox_files("m4")["union"][1]["Subject"].startswith("test-game: waiting for confederate")


def test_a_side_without_an_address_is_skipped_with_a_note(cli, committed):
    Path("g.addresses.yaml").write_text("union: alice@example.org\n")
    res = cli("outbox", committed)
    assert sorted(outbox_files()) == ["union"]
    assert "confederate" in res.stderr and "no address" in res.stderr


# --- the address book: documented, validated, errors name the file and line ---------------------

@pytest.mark.parametrize("text,line,code,words", [
    ("union: alice@example.org\ngenral: x@example.org\n", 2, "E110", "genral"),
    ("union: alice-at-example.org\n", 1, "E112", "address"),
    ("union: alice@example.org\nconfederate: [bob@example.org, 7]\n", 2, "E112", "address"),
    ("union: alice@example.org\nunion: bob@example.org\n", 2, "E104", "union"),
    ("- alice@example.org\n", 1, "E112", "mapping"),
])
def test_address_book_errors(cli, committed, text, line, code, words):
    Path("g.addresses.yaml").write_text(text)
    err = cli.fails("outbox", committed)
    assert f"g.addresses.yaml:{line}" in err and f"[{code}]" in err and words in err, err


def test_missing_address_book_says_how_to_write_one(cli, committed):
    Path("g.addresses.yaml").unlink()
    err = cli.fails("outbox", committed)
    assert "g.addresses.yaml" in err and "union:" in err


def test_address_book_option(cli, committed):
    Path("g.addresses.yaml").rename("book.yaml")
    cli("outbox", committed, "--addresses", "book.yaml")
    assert len(outbox_files()) == 3


# --- SMTP: a local aiosmtpd server on the loopback -----------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    def __init__(self):
        self.got = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append(envelope)
        return "250 Message accepted for delivery"


@pytest.fixture
def smtpd():
    pytest.importorskip("aiosmtpd", reason="the SMTP tests need aiosmtpd (pip install -e .[test])")
    servers = []

    def start(**kwargs):
        from aiosmtpd.controller import Controller

        sink = Sink()
        port = free_port()
        c = Controller(sink, hostname="127.0.0.1", port=port, **kwargs)
        c.start()
        servers.append(c)
        return sink, port

    yield start
    for c in servers:
        c.stop()


def test_send_through_smtp(cli, committed, smtpd):
    sink, port = smtpd()
    h = head(cli, committed)
    out = cli("outbox", committed, "--smtp", f"127.0.0.1:{port}").stdout
    assert len(sink.got) == 3 and "sent" in out and not Path("outbox").exists()
    by_rcpt = {tuple(e.rcpt_tos): parse(e.original_content or e.content) for e in sink.got}
    assert set(by_rcpt) == {("alice@example.org",), ("bob@example.org", "bob@work.example"),
                            ("referee@example.org",)}
    assert all(e.mail_from == "club@example.org" for e in sink.got)
    msg = by_rcpt[("alice@example.org",)]
    plain, html = parts(msg)
    assert msg["X-Hxref-Audience"] == "union" and h in plain and h in html
    assert "accepted: game test-game decision t1.bid side union (commit)" in plain


def test_send_with_login(cli, committed, smtpd, monkeypatch):
    from aiosmtpd.smtp import AuthResult

    seen = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        login, password = (x.encode() if isinstance(x, str) else x for x in (auth_data.login, auth_data.password))
        seen.append((login, password))
        return AuthResult(success=password == b"s3cret", handled=False)

    sink, port = smtpd(authenticator=authenticator, auth_require_tls=False)
    monkeypatch.setenv("HXREF_SMTP_PASSWORD", "wrong")
    err = cli.fails("outbox", committed, "--smtp", f"127.0.0.1:{port}", "--smtp-user", "referee")
    assert "127.0.0.1" in err and "login" in err.lower() and not sink.got
    monkeypatch.setenv("HXREF_SMTP_PASSWORD", "s3cret")
    cli("outbox", committed, "--smtp", f"127.0.0.1:{port}", "--smtp-user", "referee")
    assert len(sink.got) == 3 and seen[-1] == (b"referee", b"s3cret")


def _self_signed(tmp: Path) -> tuple[Path, Path]:
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_send_with_starttls(cli, committed, smtpd, monkeypatch, tmp_path):
    import ssl

    cert, key = _self_signed(tmp_path)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    sink, port = smtpd(tls_context=ctx, require_starttls=True)
    # without STARTTLS the server refuses the mail
    err = cli.fails("outbox", committed, "--smtp", f"127.0.0.1:{port}")
    assert "127.0.0.1" in err and not sink.got
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))      # trust the test's own certificate
    cli("outbox", committed, "--smtp", f"127.0.0.1:{port}", "--starttls")
    assert len(sink.got) == 3


def test_smtp_server_not_there(cli, committed):
    err = cli.fails("outbox", committed, "--smtp", f"127.0.0.1:{free_port()}")
    assert "127.0.0.1" in err and "cannot send" in err


def test_bad_smtp_value(cli, committed):
    assert "--smtp" in cli.fails("outbox", committed, "--smtp", "host:notaport")


# --- inbox and outbox together ----------------------------------------------------------------------

def test_inbox_receipts_are_mailed(cli, game):
    from tests.mail import ALICE, attach

    union, _ = commits(cli, game)
    m = message(ALICE, "bid")
    attach(m, union, "union-t1.bid-commit.yaml")
    save(m, "incoming/1.eml")
    out = cli("inbox", game, "--eml", "incoming").stdout
    receipt = next(line for line in out.splitlines() if line.strip().startswith("accepted:")).strip()
    Path("g.addresses.yaml").write_text(BOOK)
    cli("outbox", game)
    plain, html = parts(outbox_files()["union"][1])
    assert receipt in plain and receipt in html
