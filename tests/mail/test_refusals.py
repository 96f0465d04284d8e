"""A refused message is answered: to the side whose key signed the refused file (its address in the
game's address book), else to the message's sender with a reason read from the file alone; never to
mail sent by a program, never twice; and a corrected file under the same name is then accepted.

The attacks are run as the attacker would: Mallory holds only her own key (carol), the players'
public keys, and a file of Alice's that she got hold of; she mails it from her own address."""
from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from hxref.crypto.signing import load_private_key, sign_text, split_signed_text
from tests.mail import ALICE, BOB, attach, commits, message, read, register, save

MALLORY = "Mallory <mallory@evil.example>"
BOOK = "union: Alice Player <alice@example.org>\nconfederate: bob@example.org\nfrom: referee@example.org\n"


@pytest.fixture(autouse=True)
def _mail_commands(monkeypatch):
    register(monkeypatch)


@pytest.fixture
def revealing(cli, game):
    """Both sides committed (union 4, confederate 2), the commitments are in: reveals are due."""
    commits(cli, game)
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    Path("g.addresses.yaml").write_text(BOOK)
    return game


def parse(path: Path):
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def refusals() -> dict[str, object]:
    """The refusals written to outbox/, by file name."""
    return {p.name: parse(p) for p in sorted(Path("outbox").glob("*refused*.eml"))}


def inbox(cli, *args, code: int = 0):
    return cli("inbox", "g.yaml", *args, code=code)


def mail_file(frm: str, text: str, name: str, to: str, *, subject: str = "my reveal", **headers) -> Path:
    m = message(frm, subject, "Attached.\n", msgid=f"<{abs(hash((frm, text, to)))}@mail.example>")
    for k, v in headers.items():
        m[k.replace("_", "-")] = v
    attach(m, text, name)
    return save(m, to)


def wrong_reveal() -> str:
    """Alice's reveal with another bid than she committed to, signed again with her key: refused
    when checked against her commitment (what only the game holds)."""
    body, _ = split_signed_text(read("union-t1.bid-reveal.yaml"))
    assert "bid: 4" in body
    return sign_text(body.replace("bid: 4", "bid: 5"), load_private_key("alice"))


def test_a_refusal_goes_to_the_signer_and_the_corrected_file_under_the_same_name_is_accepted(cli, revealing):
    mail_file(ALICE, wrong_reveal(), "union-t1.bid-reveal.yaml", "incoming/reveal.eml")
    out = inbox(cli, "--eml", "incoming", "--archive", "copies", code=1).stdout
    assert "answered to Alice Player <alice@example.org> (union's address, who signed it)" in out, out
    [(name, ref)] = refusals().items()
    assert str(ref["To"]) == "Alice Player <alice@example.org>" and str(ref["From"]) == "referee@example.org"
    assert str(ref["Auto-Submitted"]) == "auto-replied" and ref["In-Reply-To"] and ref["References"]
    assert "union-t1.bid-reveal.yaml refused" in str(ref["Subject"])
    text = ref.get_content()
    assert "union-t1.bid-reveal.yaml" in text and "What to do:" in text and "same file name" in text
    assert max(map(len, text.splitlines())) <= 78
    assert not list(ref.iter_attachments())                  # the file's name, never the file
    # a second run neither refuses nor answers it again
    out = inbox(cli, "--eml", "incoming", "--archive", "copies").stdout
    assert "1 processed before" in out and len(refusals()) == 1
    # Alice sends the right file under the same name, in a mail saved under the same name
    mail_file(ALICE, read("union-t1.bid-reveal.yaml"), "union-t1.bid-reveal.yaml", "incoming/reveal.eml",
              subject="my reveal, corrected")
    out = inbox(cli, "--eml", "incoming", "--archive", "copies").stdout
    assert "1 accepted (1 order file)" in out and "0 rejected" in out, out
    assert Path("copies/rejected/reveal.eml").exists() and Path("copies/done/reveal.eml").exists()
    assert "my reveal, corrected" in Path("copies/done/reveal.eml").read_text()
    assert len(refusals()) == 1


def test_forwarding_another_sides_signed_file_does_not_tell_the_forwarder_its_refusal(cli, revealing):
    """Mallory mails Alice's signed (refused) file from her own address to learn what the refusal
    says: the refusal goes to Alice's address in the book, nothing to Mallory."""
    mail_file(MALLORY, wrong_reveal(), "union-t1.bid-reveal.yaml", "incoming/fwd.eml", subject="Fwd: reveal",
              Reply_To=MALLORY)
    out = inbox(cli, "--eml", "incoming", code=1).stdout
    [ref] = refusals().values()
    assert "alice@example.org" in str(ref["To"]) and "mallory" not in str(ref["To"]), out
    assert "mallory" not in out.split("answered to", 1)[1].split("\n", 1)[0]


def test_an_unverified_sender_learns_only_the_files_own_problem(cli, revealing, tmp_path, monkeypatch):
    """Bob, a player of the game, signs a file for union with a key of his own, and sends Alice's
    file with one byte changed: each refusal goes to his From address (one in the book), and says
    the same whatever the game holds (it is read from the file alone)."""
    body, _ = split_signed_text(read("union-t1.bid-reveal.yaml"))
    own_key = sign_text(body.replace("bid: 4", "bid: 3"), load_private_key("carol"))
    broken = read("union-t1.bid-reveal.yaml").replace("bid: 4", "bid: 3")
    mail_file(BOB, own_key, "union-t1.bid-reveal.yaml", "incoming/1.eml")
    mail_file(BOB, broken, "union-t1.bid-reveal.yaml", "incoming/2.eml")
    inbox(cli, "--eml", "incoming", code=1)
    reasons = []
    for ref in refusals().values():
        assert str(ref["To"]) == "bob@example.org"
        reasons.append(re.sub(r"\s+", " ", ref.get_content().split("Why:")[1].split("What to do:")[0]).strip())
    assert sorted(r[-6:] for r in reasons) == ["[E201]", "[E202]"], reasons
    head = Path("g.yaml").read_text().split("head:")[0]
    for r in reasons:
        assert "commit" not in r and "alice" not in r.lower()
    # the same mails to a copy of the game in another state, on another machine, say exactly the same
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "another-machine"))
    Path("other").mkdir()
    cli("new", "other/g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "test-game", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    Path("other/g.addresses.yaml").write_text(BOOK)
    cli("inbox", "other/g.yaml", "--eml", "incoming", "--out", "other/outbox", code=1)
    again = [re.sub(r"\s+", " ", parse(p).get_content().split("Why:")[1].split("What to do:")[0]).strip()
             for p in sorted(Path("other/outbox").glob("*refused*.eml"))]
    assert again == reasons and head


def test_mail_sent_by_a_program_is_never_answered_and_refusals_do_not_loop(cli, revealing):
    mail_file(BOB, wrong_reveal(), "union-t1.bid-reveal.yaml", "incoming/auto.eml", Auto_Submitted="auto-replied")
    out = inbox(cli, "--eml", "incoming", code=1).stdout
    assert "not answered: the message was sent by a program" in out and not refusals()
    # a refusal that comes back into an inbox carries no hxref file: left alone, never answered
    mail_file(ALICE, wrong_reveal(), "union-t1.bid-reveal.yaml", "incoming/again.eml", subject="again")
    inbox(cli, "--eml", "incoming", code=1)
    [path] = Path("outbox").glob("*refused*.eml")
    Path("bounced").mkdir()
    path.rename("bounced/r.eml")
    out = inbox(cli, "--eml", "bounced").stdout
    assert "0 rejected; 1 left alone" in out and not list(Path("outbox").glob("*refused*.eml"))


def test_without_an_address_book_the_refusal_is_printed_not_mailed(cli, revealing):
    Path("g.addresses.yaml").unlink()
    mail_file(ALICE, wrong_reveal(), "union-t1.bid-reveal.yaml", "incoming/r.eml")
    out = inbox(cli, "--eml", "incoming", code=1).stdout
    assert "not answered: g.addresses.yaml: no address book" in out and "[E" in out and not Path("outbox").exists()


def fold_s(text: str, width: int) -> str:
    """``fold -s -w WIDTH``: each line longer than WIDTH broken after the last blank within it,
    or at WIDTH when it has none; the blank stays at the end of the first part."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            cut = cut + 1 if cut > 0 else width
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return "\n".join(out)


def test_a_signed_file_folded_at_60_columns_and_pasted(cli, revealing):
    """The reason says the client rewrapped it and to attach the file; it never invites editing the
    signed file (no YAML hint to add a colon or quote a text)."""
    folded = fold_s(read("union-t1.bid-reveal.yaml"), 60)
    assert folded != read("union-t1.bid-reveal.yaml") and max(map(len, folded.split("\n"))) <= 60
    m = message(ALICE, "reveal", "My reveal:\n\n" + folded + "\n")
    save(m, "incoming/pasted.eml")
    out = inbox(cli, "--eml", "incoming", "--archive", "copies", code=1).stdout
    why = Path("copies/rejected/pasted.reason").read_text().splitlines()[0]
    assert "the mail client rewrapped the long lines: attach the file instead of pasting it" in why, why
    assert "colon" not in out and "quotes" not in out
    [ref] = refusals().values()
    text = ref.get_content()
    assert "attach the same file" in text and "Do not edit it" in text and "colon" not in text
    # attached, the same file is accepted
    mail_file(ALICE, read("union-t1.bid-reveal.yaml"), "union-t1.bid-reveal.yaml", "incoming/attached.eml")
    assert "1 accepted (1 order file)" in inbox(cli, "--eml", "incoming").stdout


def test_no_copy_to_the_sender_unless_asked(cli, revealing):
    Path("g.addresses.yaml").write_text(BOOK.replace("referee@example.org", "alice@example.org"))
    out = cli("outbox", "g.yaml").stdout
    assert "union is your own address: no copy to yourself" in out
    assert sorted(p.name.rsplit("-", 1)[1] for p in Path("outbox").glob("*.eml")) == ["confederate.eml"]
    cli("outbox", "g.yaml", "--out", "all", "--copy-to-me")
    assert len(list(Path("all").glob("*.eml"))) == 2


def test_the_outbox_summary_names_the_game_file(cli, game, monkeypatch):
    from hxref.cli.mail import _files_carried

    assert _files_carried("0 +game") == ", the game file"
    assert _files_carried("2") == ", 2 signed files" and _files_carried("1 +game") == ", 1 signed file and the game file"
