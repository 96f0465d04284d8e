"""Attacks on the inbox's refusals and on what it leaves alone, run as an outsider or a player
would: with only his own key (carol), the players' public keys, and any mail he can send with any
From:.  The game is the open bidding demo with both commitments in (reveals due) and an address
book of the two players; the inbox reads a folder of .eml files and writes refusals to outbox/."""
from __future__ import annotations

from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main
from tests.mail import ALICE, BOB, attach, commits, message, read, register, save
from tests.mail.test_refusals import BOOK, MALLORY, mail_file, wrong_reveal

VICTIM = "Victor Outsider <victor@victim.example>"
FRIEND = "Fred Friend <fred@friends.example>"


@pytest.fixture(autouse=True)
def _mail_commands(monkeypatch):
    register(monkeypatch)


@pytest.fixture
def revealing(cli, game):
    """Both sides committed, the commitments are in: reveals are due; the players' address book."""
    commits(cli, game)
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    Path("g.addresses.yaml").write_text(BOOK)
    return game


def run_inbox(*args: str):
    """The inbox run as a user runs it: any exception is a traceback the user would see."""
    res = CliRunner().invoke(main, ["inbox", "g.yaml", "--eml", "incoming", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), (res.output, res.exc_info)
    assert "Traceback" not in res.output, res.output
    return res


def refusals() -> list:
    return [BytesParser(policy=policy.default).parsebytes(p.read_bytes())
            for p in sorted(Path("outbox").glob("*refused*.eml"))]


def unsigned_reveal() -> str:
    """Alice's reveal with its signature block cut off: refused from the file alone (E200)."""
    text = read("union-t1.bid-reveal.yaml")
    return text.split("-----BEGIN SSH SIGNATURE-----")[0].rsplit("\n", 2)[0] + "\n"


# --- the inbox leaves ordinary mail alone --------------------------------------------------------

def test_a_friends_large_text_attachment_is_left_alone(cli, revealing):
    m = message(FRIEND, "the club's newsletter", "The log you asked for.\n")
    attach(m, "club log line\n" * 30000, "club-log.txt")
    save(m, "incoming/friend.eml")
    res = run_inbox()
    assert res.exit_code == 0, res.output
    assert not refusals(), "an hxref refusal went to a friend who sent no hxref file"


def test_a_friends_large_yaml_attachment_is_left_alone(cli, revealing):
    m = message(FRIEND, "the club's order of battle", "The data you asked for.\n")
    attach(m, "units:\n" + "  - {name: a brigade, strength: 3}\n" * 9000, "oob.yaml")
    save(m, "incoming/friend.eml")
    res = run_inbox()
    assert res.exit_code == 0, res.output
    assert not refusals(), "an hxref refusal went to a friend who sent no hxref file"


def test_a_friends_latin1_yaml_attachment_is_left_alone(cli, revealing):
    m = message(FRIEND, "my docker set-up", "Here is the compose file.\n")
    m.add_attachment("services:\n  caf\xe9: {image: nginx}\n".encode("latin-1"), maintype="application",
                     subtype="octet-stream", filename="compose.yaml")
    save(m, "incoming/friend.eml")
    res = run_inbox()
    assert res.exit_code == 0, res.output
    assert not refusals(), "an hxref refusal went to a friend who sent no hxref file"


def test_a_friends_utf8_yaml_without_hxref_fields_is_left_alone(cli, revealing):
    m = message(FRIEND, "my docker set-up", "Here is the compose file.\n")
    attach(m, "services:\n  web: {image: nginx}\n", "compose.yaml")
    save(m, "incoming/friend.eml")
    res = run_inbox()
    assert res.exit_code == 0 and not refusals(), res.output


# --- refusal abuse ---------------------------------------------------------------------------------

def test_a_refusal_is_not_reflected_to_an_address_outside_the_address_book(cli, revealing):
    for n in range(3):
        m = message(VICTIM, f"orders {n}", "Attached.\n", msgid=f"<spam{n}@evil.example>")
        attach(m, unsigned_reveal(), f"CHEAP-WATCHES-AT-evil.example-{n}.yaml")
        save(m, f"incoming/{n}.eml")
    run_inbox()
    book = {"alice@example.org", "bob@example.org"}
    for ref in refusals():
        assert str(ref["To"]).split("<")[-1].rstrip(">") in book, (str(ref["To"]), str(ref["Subject"]))


def test_a_message_id_with_an_encoded_newline_crashes_nothing(cli, revealing):
    """Header injection through the refused message's own headers: its Message-ID, References and
    Subject decode to text with a line break, which the refusal copies (In-Reply-To, References)."""
    raw = (b"From: Bob Player <bob@example.org>\nTo: referee@example.org\n"
           b"Subject: =?utf-8?q?x=0ABcc:_victim@victim.example?=\n"
           b"Message-ID: =?utf-8?q?<a=0ABcc:_victim@victim.example>?=\n"
           b"References: =?utf-8?q?<b=0ABcc:_victim2@victim.example>?=\n"
           b"Date: Sun, 29 Nov 2026 12:00:00 +0000\nMIME-Version: 1.0\n"
           b"Content-Type: text/plain; charset=utf-8\n\n" + unsigned_reveal().encode())
    Path("incoming").mkdir()
    Path("incoming/x.eml").write_bytes(raw)
    for _ in range(2):
        res = run_inbox()
        assert res.exit_code in (0, 1) and "internal error" not in res.output, res.output
    for ref in refusals():
        for h in ("In-Reply-To", "References", "To", "Subject", "Bcc"):
            assert "victim" not in str(ref.get(h, "")), (h, str(ref.get(h)))


def test_a_huge_file_name_makes_no_huge_refusal(cli, revealing):
    m = message(BOB, "orders", "Attached.\n")
    attach(m, unsigned_reveal(), "A" * 60000 + ".yaml")
    save(m, "incoming/x.eml")
    run_inbox()
    sizes = [len(p.read_bytes()) for p in Path("outbox").glob("*refused*.eml")]
    assert all(s < 16_000 for s in sizes), sizes


def test_a_huge_reason_makes_no_huge_refusal(cli, revealing):
    """An order file whose own fields make the refusal's reason: a 200 KB value in one field."""
    m = message(BOB, "orders", "Attached.\n")
    attach(m, "hxref: order/1\ngame: test-game\nkind: reveal\nnote: " + "B" * 200_000 + "\n", "x.yaml")
    save(m, "incoming/x.eml")
    run_inbox()
    sizes = [len(p.read_bytes()) for p in Path("outbox").glob("*refused*.eml")]
    assert all(s < 16_000 for s in sizes), sizes


def test_a_refusal_fed_back_into_an_inbox_is_left_alone(cli, revealing):
    """A mail loop between two inboxes: the refusal one writes is read by the other; it carries no
    file, is marked auto-replied, and is never answered."""
    mail_file(BOB, unsigned_reveal(), "union-t1.bid-reveal.yaml", "incoming/1.eml")
    run_inbox()
    [ref] = refusals()
    Path("incoming/1.eml").unlink()
    Path("incoming/loop.eml").write_bytes(next(Path("outbox").glob("*refused*.eml")).read_bytes())
    res = run_inbox()
    assert res.exit_code == 0 and "1 left alone" in res.output, res.output
    assert len(refusals()) == 1


def test_an_auto_submitted_mail_with_a_bad_file_is_not_answered(cli, revealing):
    """Another program (a vacation responder quoting the file) mails a refused file: no answer."""
    mail_file(MALLORY, unsigned_reveal(), "union-t1.bid-reveal.yaml", "incoming/1.eml",
              Auto_Submitted="auto-replied")
    res = run_inbox()
    assert res.exit_code == 1 and not refusals(), res.output


def test_forwarding_alices_file_with_a_reply_to_of_ones_own_tells_only_alice(cli, revealing):
    """Mallory forwards Alice's refused (signed) file as a forwarded .eml inside her mail, with her
    From: and Reply-To:; the full reason goes to Alice's address in the book only."""
    inner = message(ALICE, "my reveal", "Attached.\n")
    attach(inner, wrong_reveal(), "union-t1.bid-reveal.yaml")
    outer = message(MALLORY, "Fwd: my reveal", "See below.\n")
    outer["Reply-To"] = MALLORY
    outer.add_attachment(inner.as_bytes(), maintype="application", subtype="octet-stream", filename="fwd.eml")
    save(outer, "incoming/fwd.eml")
    run_inbox()
    [ref] = refusals()
    assert "alice@example.org" in str(ref["To"]) and "mallory" not in str(ref["To"]).lower()
