"""``hxref inbox``: order files found in real e-mail messages, matched to games, submitted; each message
left where it is and remembered as processed, with a copy in ``done/`` or ``rejected/`` under
``--archive`` (a message is taken whole or not at all; a duplicate is skipped)."""
from __future__ import annotations

import base64
import hashlib
import json
import mailbox
import re
import shutil
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from hxref.crypto.signing import load_private_key, sign_text, split_signed_text, sshsig_sign
from tests.mail import (ALICE, BOB, FIXTURES, REFEREE, attach, commits, flowed, message, owed, read,
                        register, save)

#: a receipt: for a file kept for its open decision ("pending, extends" the head), or for one that
#: closed its decision's block ("head": the block's last event)
RECEIPT = re.compile(r"accepted: game (\S+) decision (\S+) side (\S+) \((\w+)\) file sha256:([0-9a-f]{16}) "
                     r"(?:pending, extends|head) ([0-9a-f]{16}) \(event (\d+)\)")


@pytest.fixture(autouse=True)
def _mail_commands(monkeypatch):
    register(monkeypatch)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stored_files(game: str) -> list[str]:
    """The order files the game holds: those in its log (closed blocks), in order, then those kept
    for its open decisions (pending, outside the hash chain, in canonical order)."""
    from hxref.gamefile.game import GameFile

    gf = GameFile.load(game)
    logged = [ev["data"]["file"] for ev in gf.log if ev["kind"] == "submission"]
    return logged + [f["file"] for p in (gf.header.get("pending") or {}).values() for f in p["files"]]


def inbox(cli, *args, code=None):
    """Run ``hxref inbox``; its exit status must be 0 when no message was rejected, 1 when any was
    (``code`` forces another)."""
    from hxref.cli import main

    res = cli.runner.invoke(main, ["inbox", *args], catch_exceptions=False)
    if code is None:
        if "--json" in args:
            code = 1 if json.loads(res.stdout)["rejected"] else 0
        else:
            m = re.search(r"(\d+) (?:would be )?rejected", res.stdout)
            assert m, res.output
            code = 1 if int(m.group(1)) else 0
    assert res.exit_code == code, f"hxref inbox {' '.join(args)} -> {res.exit_code}\n{res.output}"
    return res


def reason(path: Path) -> str:
    return path.with_suffix(".reason").read_text()


# --- attachments, bodies, forwards ---------------------------------------------------------------

def test_several_attachments_all_accepted_with_receipts(cli, game):
    union, confederate = commits(cli, game)
    m = message(REFEREE, "both commitments", "Both sealed bids, plus a picture.\n")
    attach(m, union, "union-t1.bid-commit.yaml")                     # text/plain, base64
    attach(m, confederate, "confederate-t1.bid-commit.yaml", binary=True)  # application/octet-stream
    m.add_attachment(b"\x89PNG\r\n\x1a\n" + bytes(range(256)), maintype="image", subtype="png",
                     filename="flag.png")
    attach(m, "A note, not an order file.\n", "notes.txt")
    raw = save(m, "incoming/0001.eml").read_bytes()
    assert b"Content-Transfer-Encoding: base64" in raw and b"hxref: 2" not in raw

    out = inbox(cli, game, "--eml", "incoming", "--archive", "incoming").stdout
    receipts = RECEIPT.findall(out)
    assert [(r[2], r[3]) for r in receipts] == [("union", "commit"), ("confederate", "commit")], out
    assert receipts[0][4] == sha(union)[:16] and receipts[1][4] == sha(confederate)[:16]
    assert all(r[0] == "test-game" and r[1] == "t1.bid" for r in receipts)
    assert "incoming/done/0001.eml" in out and "1 accepted" in out
    assert Path("incoming/done/0001.eml").read_bytes() == raw == Path("incoming/0001.eml").read_bytes()
    assert owed(cli, game) == {"union": "reveal", "confederate": "reveal"}
    assert stored_files(game)[-2:] == [confederate, union]     # kept in canonical order (by party)
    assert cli("audit", game).stdout.startswith("audit OK")


def test_quoted_printable_body_with_the_file_pasted_in(cli, game):
    union, _ = commits(cli, game)
    body = (f"Hi referee,\n\nhere is my sealed bid for the first turn \u2014 the reveal follows as soon as the "
            f"Confederates have committed:\n\n{union}\nCheers,\nAlice\n-- \nAlice Player, Union desk\n")
    m = message(ALICE, "t1 bid", body, cte="quoted-printable")
    raw = save(m, "incoming/qp.eml").read_bytes()
    assert b"Content-Transfer-Encoding: quoted-printable" in raw
    assert b"=\n" in raw and b"=E2=80=94" in raw and b"=3D=3D" in raw   # soft breaks, UTF-8, the base64 '='
    out = inbox(cli, game, "--eml", "incoming/qp.eml").stdout
    [r] = RECEIPT.findall(out)
    assert r[2:4] == ("union", "commit") and r[4] == sha(union)[:16]
    assert Path("incoming/qp.eml").read_bytes() == raw and not Path("incoming/done").exists()
    assert stored_files(game)[-1] == union


def test_two_files_pasted_into_one_body(cli, game):
    union, confederate = commits(cli, game)
    m = message(REFEREE, "fwd", f"Union's:\n{union}\nand the Confederate one:\n\n{confederate}\n-- \nref\n")
    save(m, "incoming/two.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert len(RECEIPT.findall(out)) == 2
    assert owed(cli, game) == {"union": "reveal", "confederate": "reveal"}


def test_a_comment_line_of_the_mail_right_above_the_pasted_file(cli, game):
    union, _ = commits(cli, game)
    save(message(ALICE, "bid", f"Hello,\n# my orders for turn 1, as agreed:\n{union}"), "incoming/c.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert RECEIPT.findall(out)[0][4] == sha(union)[:16], out


def test_forwarded_message_as_an_attachment(cli, game):
    union, _ = commits(cli, game)
    original = message(ALICE, "my bid", "Attached.\n")
    attach(original, union, "union-t1.bid-commit.yaml", cte="quoted-printable")
    fwd = message(REFEREE, "Fwd: my bid", "Forwarding Alice's orders, which went to the wrong address.\n")
    fwd.add_attachment(original)                                    # message/rfc822
    raw = save(fwd, "incoming/fwd.eml").read_bytes()
    assert b"message/rfc822" in raw
    out = inbox(cli, game, "--eml", "incoming").stdout
    [r] = RECEIPT.findall(out)
    assert r[2:4] == ("union", "commit")


def test_forwarded_inline_with_a_base64_body(cli, game):
    union, _ = commits(cli, game)
    body = ("---------- Forwarded message ---------\nFrom: Alice Player <alice@example.org>\n"
            "Date: Sun, 29 Nov 2026 at 11:58\nSubject: my bid\nTo: <wrong@example.org>\n\n" + union + "\n")
    m = message(REFEREE, "Fwd: my bid", body, cte="base64")
    assert b"Content-Transfer-Encoding: base64" in save(m, "incoming/inline.eml").read_bytes()
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert len(RECEIPT.findall(out)) == 1


def test_html_only_body(cli, game):
    """A client that sends HTML only (no text/plain): the pasted reveal, indented with &nbsp;."""
    union, confederate = commits(cli, game)
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    reveal = read("union-t1.bid-reveal.yaml")
    lines = [ln.replace("&", "&amp;").replace("<", "&lt;").replace("  ", "&nbsp;&nbsp;")
             for ln in reveal.rstrip("\n").split("\n")]
    html = ('<html><head><style>p {margin: 0}</style></head><body><div dir="ltr">My reveal:<br><br>\n'
            + "<br>\n".join(lines) + '<br></div>\n<div><br></div><div>-- <br>Alice</div></body></html>\n')
    m = message(ALICE, "reveal", None)
    m.set_content(html, subtype="html")
    save(m, "incoming/html.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    [r] = RECEIPT.findall(out)
    assert r[2:4] == ("union", "reveal") and r[4] == sha(reveal)[:16]


def test_plain_part_is_preferred_over_its_html_twin(cli, game):
    union, _ = commits(cli, game)
    m = message(ALICE, "bid", f"My bid:\n\n{union}")
    m.add_alternative("<html><body><p>My bid:</p><pre>" + union + "</pre></body></html>", subtype="html")
    save(m, "incoming/alt.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert len(RECEIPT.findall(out)) == 1, out      # once, not once per alternative


def test_format_flowed_body(cli, game):
    """Thunderbird's format=flowed: the 78-character signature lines are soft-broken, the
    indented `  bid: 4` line space-stuffed; unflowed, the file verifies."""
    commits(cli, game)
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    reveal = read("union-t1.bid-reveal.yaml")
    body = flowed("Reveal below.\n\n" + reveal + "\n-- \nAlice\n")
    assert "\n   bid: 4\n" in body and max(map(len, body.split("\n"))) <= 74
    m = message(ALICE, "reveal", None)
    m.set_content(body, params={"format": "flowed", "delsp": "yes"})
    save(m, "incoming/flowed.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    [r] = RECEIPT.findall(out)
    assert r[3] == "reveal" and r[4] == sha(reveal)[:16]


def test_detached_signature_attached_beside_the_file(cli, game):
    union, _ = commits(cli, game)
    body, _ = split_signed_text(union)
    armored = sshsig_sign(load_private_key("alice"), body.encode("utf-8"))
    m = message(ALICE, "bid (ssh-keygen -Y sign)")
    attach(m, body, "union-t1.bid-commit.yaml")
    attach(m, armored, "union-t1.bid-commit.yaml.sig")
    save(m, "incoming/detached.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    [r] = RECEIPT.findall(out)
    assert r[2:4] == ("union", "commit")


# --- mail clients' mangling -------------------------------------------------------------------

def mangle(text: str) -> str:
    """What a careless client does: CRLF, trailing blanks on every line, the 78-character signature
    lines hard-wrapped at 64 without the comment mark on the continuation."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("# ") and len(line) > 64 and not line.startswith("# -----"):
            out += [line[:64] + "  ", line[64:] + " "]
        else:
            out.append(line + " \t")
    return "\r\n".join(out) + "\r\n"


def test_mangled_signature_block_still_verifies(cli, game):
    union, _ = commits(cli, game)
    mangled = mangle(union)
    assert "\r\n" in mangled and " \t\r\n" in mangled
    m = message(ALICE, "bid", None)
    m.set_content(("Bid below, sent from my phone\r\n\r\n" + mangled).encode("utf-8"), maintype="text",
                  subtype="plain", cte="8bit")
    raw = save(m, "incoming/mangled.eml", smtp=True).read_bytes()
    assert b" \t\r\n" in raw
    out = inbox(cli, game, "--eml", "incoming").stdout
    [r] = RECEIPT.findall(out)
    # what is stored is exactly what Alice signed: the receipt's file hash is her own file's
    assert r[4] == sha(union)[:16] and stored_files(game)[-1] == union
    assert cli("audit", game).stdout.startswith("audit OK")


def test_crlf_attachment_verifies(cli, game):
    union, _ = commits(cli, game)
    m = message(ALICE, "bid")
    m.add_attachment(union.replace("\n", "\r\n").encode(), maintype="application", subtype="x-yaml",
                     filename="union-t1.bid-commit.yaml")
    save(m, "incoming/crlf.eml")
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert RECEIPT.findall(out)[0][4] == sha(union)[:16]


def test_really_broken_file_is_rejected_with_a_clear_reason(cli, game):
    union, _ = commits(cli, game)
    # one hex digit of the commitment changed in transit (or by hand): the signature no longer holds
    c = re.search(r"commitment:\s+([0-9a-f]+)", union).group(1)
    broken = union.replace(c, ("1" if c[0] != "1" else "2") + c[1:])
    m = message(ALICE, "bid", "attached\n")
    attach(m, mangle(broken), "union-t1.bid-commit.yaml")
    raw = save(m, "incoming/broken.eml").read_bytes()
    before = Path(game).read_bytes()
    out = inbox(cli, game, "--eml", "incoming", "--archive", "incoming").stdout
    assert "rejected" in out and "1 rejected" in out and not RECEIPT.findall(out)
    why = reason(Path("incoming/rejected/broken.eml"))
    first = why.splitlines()[0]
    assert "union-t1.bid-commit.yaml" in first and "signature does not match the file" in first
    assert "[E201]" in first and first in out
    assert "alice@example.org" in why                  # the message is named: who sent it, what subject
    assert Path("incoming/rejected/broken.eml").read_bytes() == raw
    assert Path(game).read_bytes() == before
    assert owed(cli, game)["union"] == "commit"


def test_a_message_is_taken_whole_or_not_at_all(cli, game):
    union, confederate = commits(cli, game)
    m = message(REFEREE, "two files, one unsigned")
    attach(m, union, "union-t1.bid-commit.yaml")
    attach(m, split_signed_text(confederate)[0], "confederate-t1.bid-commit.yaml")
    save(m, "incoming/half.eml")
    before = Path(game).read_bytes()
    out = inbox(cli, game, "--eml", "incoming", "--archive", "incoming").stdout
    why = reason(Path("incoming/rejected/half.eml"))
    assert "confederate-t1.bid-commit.yaml" in why.splitlines()[0] and "[E200]" in why.splitlines()[0]
    assert "nothing" in why                     # ... from this message was stored
    assert not RECEIPT.findall(out) and Path(game).read_bytes() == before


def test_message_without_an_order_file_is_left_alone(cli, game):
    """A friend's question with a text attachment carries no hxref file: not touched, not counted
    as a refusal (exit status 0), not answered, and not copied to the archive."""
    m = message(BOB, "question", "When is the next turn due?\n")
    attach(m, "just notes\n", "notes.txt")
    raw = save(m, "incoming/q.eml").read_bytes()
    out = inbox(cli, game, "--eml", "incoming", "--archive", "incoming").stdout
    assert "0 rejected; 1 left alone" in out and "q.eml" not in out, out
    assert Path("incoming/q.eml").read_bytes() == raw and not Path("incoming/rejected").exists()
    assert not Path("outbox").exists()


# --- games: matching by id -----------------------------------------------------------------------

def resigned_for(text: str, game_id: str, key: str) -> str:
    body, _ = split_signed_text(text)
    return sign_text(body.replace("game: test-game", f"game: {game_id}"), load_private_key(key))


@pytest.mark.parametrize("target", ["file", "folder"])
def test_files_for_a_game_not_here_are_left_for_its_own_inbox(cli, game, target):
    """A player with two games reads one mailbox once per game: a message whose files are all for
    the other game is left alone by this game's run (not refused, not answered), and that game's
    run takes it."""
    union, _ = commits(cli, game)
    Path("games").mkdir()
    shutil.move(game, "games/g.yaml")
    m = message(ALICE, "bid for my other game")
    attach(m, resigned_for(union, "other-game", "alice"), "union-t1.bid-commit.yaml")
    raw = save(m, "incoming/other.eml").read_bytes()
    out = inbox(cli, "games/g.yaml" if target == "file" else "games", "--eml", "incoming").stdout
    assert "0 rejected; 1 left alone" in out and not RECEIPT.findall(out), out
    assert Path("incoming/other.eml").read_bytes() == raw and not Path("games/outbox").exists()


def test_a_message_with_files_for_this_game_and_another_is_refused(cli, game):
    union, confederate = commits(cli, game)
    m = message(ALICE, "bid")
    attach(m, confederate, "confederate-t1.bid-commit.yaml")
    attach(m, resigned_for(union, "other-game", "alice"), "union-t1.bid-commit.yaml")
    save(m, "incoming/other.eml")
    inbox(cli, game, "--eml", "incoming", "--archive", "incoming")
    assert "[E300]" in reason(Path("incoming/rejected/other.eml"))


def test_a_folder_of_games_matched_by_id(cli, game):
    """Two games under a folder; one message carries a file for each."""
    commits(cli, game)
    cli("new", "g2.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--game-id", "second-game",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    Path("j2").mkdir()
    cli("join", "g2.yaml", "--side", "union", "--key", "alice", "--dir", "j2")
    join2 = read("j2/union-join.yaml")
    Path("games/club").mkdir(parents=True)
    shutil.move(game, "games/g.yaml")
    shutil.move("g2.yaml", "games/club/g2.yaml")
    m = message(ALICE, "two games")
    attach(m, read("union-t1.bid-commit.yaml"), "union-t1.bid-commit.yaml")
    attach(m, join2, "union-join.yaml")
    save(m, "incoming/both.eml")
    Path("games/club/g2.addresses.yaml").write_text("union: alice@example.org\n")   # not a game: skipped
    out = inbox(cli, "games", "--eml", "incoming").stdout
    assert sorted(r[0] for r in RECEIPT.findall(out)) == ["second-game", "test-game"], out
    assert owed(cli, "games/club/g2.yaml") == {"union": "done", "confederate": "join"}


def test_a_duplicate_is_skipped_not_rejected(cli, game):
    """The same message delivered twice is processed once; a file this copy holds already, sent
    again in another message (as every player's copy gets some), is accepted with its file skipped,
    and nothing is refused."""
    union, _ = commits(cli, game)
    m = message(ALICE, "bid")
    attach(m, union, "union-t1.bid-commit.yaml")
    save(m, "incoming/1.eml")
    save(m, "incoming/2.eml")                # the same message delivered twice
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert len(RECEIPT.findall(out)) == 1 and "1 accepted" in out and "0 rejected" in out, out
    assert "1 processed before" in out
    before = Path(game).read_bytes()
    out = inbox(cli, game, "--eml", "incoming").stdout      # a second run: nothing new
    assert "inbox: 0 messages with hxref files" in out and "2 processed before" in out, out
    m.replace_header("Message-ID", "<again@example.org>")
    save(m, "incoming/3.eml")                # the same file in a new message, on another day
    out = inbox(cli, game, "--eml", "incoming").stdout
    assert "1 accepted (0 order files, 1 held already)" in out and Path(game).read_bytes() == before


def test_out_of_order_arrival_is_sorted_out(cli, game):
    """Reveals read before the commitments they need: retried once the commitments are in."""
    union, confederate = commits(cli, game)
    for name, text in (("1", read("union-t1.bid-reveal.yaml")), ("2", read("confederate-t1.bid-reveal.yaml")),
                       ("3", union), ("4", confederate)):
        m = message(ALICE, f"file {name}")
        attach(m, text, f"file{name}.yaml")
        save(m, f"incoming/{name}.eml")
    out = inbox(cli, game, "--eml", "incoming", "--archive", "incoming").stdout
    assert "4 accepted" in out and len(RECEIPT.findall(out)) == 4, out
    assert sorted(p.name for p in Path("incoming/done").iterdir()) == ["1.eml", "2.eml", "3.eml", "4.eml"]
    assert "resolved t1.bid" in out             # an open game resolves as soon as its files are in
    assert "t2.bid awaits" in cli("status", game).stdout


def test_a_roll_read_before_the_answer_it_follows(cli):
    """Open games: the side that does not answer gives its dice link in a roll file, written only
    after the answer is in (it names the answers' hash).  A mailbox may still deliver the roll
    first: it is refused on the first pass and accepted on the retry, after the answer."""
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "open",
        "--game-id", "acw", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    err = cli.fails("roll", "g.yaml", "--side", "confederate", "--key", "bob")
    assert "a dice link follows them" in err and "[E311]" in err
    cli("answer", "g.yaml", "--side", "union", "--key", "alice", "--choice", "{moves: [], shots: []}")
    # confederate reads union's answer in its own copy of the game, then rolls
    Path("bobs").mkdir()
    shutil.copy("g.yaml", "bobs/g.yaml")
    cli("submit", "bobs/g.yaml", "union-t1.union.yaml")
    cli("roll", "bobs/g.yaml", "--side", "confederate", "--key", "bob")
    for name, frm, text in (("1", BOB, read("bobs/confederate-t1.union-roll.yaml")),
                            ("2", ALICE, read("union-t1.union.yaml"))):
        m = message(frm, f"file {name}")
        attach(m, text, f"file{name}.yaml")
        save(m, f"incoming/{name}.eml")
    out = inbox(cli, "g.yaml", "--eml", "incoming").stdout
    assert "2 accepted" in out, out
    assert [r[2:4] for r in RECEIPT.findall(out)] == [("confederate", "roll"), ("union", "answer")]
    assert "resolved t1.union" in out
    assert cli("audit", "g.yaml").stdout.startswith("audit OK")


def test_dry_run_changes_nothing(cli, game):
    union, _ = commits(cli, game)
    m = message(ALICE, "bid")
    attach(m, union, "union-t1.bid-commit.yaml")
    save(m, "incoming/1.eml")
    before = Path(game).read_bytes()
    out = inbox(cli, game, "--eml", "incoming", "--dry-run").stdout
    assert "would be accepted" in out and Path("incoming/1.eml").exists()
    assert not Path("incoming/done").exists() and Path(game).read_bytes() == before


# --- sources: the MTA fixture, Maildir, mbox -----------------------------------------------------

def fixture_with(text: str, crlf: bool) -> bytes:
    b64 = base64.b64encode(text.encode()).decode()
    lines = "\n".join(b64[i:i + 76] for i in range(0, len(b64), 76))
    raw = (FIXTURES / "mta-delivered.eml").read_text().replace("@@ATTACHMENT_BASE64@@", lines)
    return (raw.replace("\n", "\r\n") if crlf else raw).encode()


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_mta_delivered_fixture(cli, game, crlf):
    _, confederate = commits(cli, game)
    raw = fixture_with(confederate, crlf)
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert msg["Subject"] == "Heartland \u2014 my bid for turn 1" and len(msg.get_all("Received")) == 2
    Path("incoming").mkdir()
    Path("incoming/1795867420.eml").write_bytes(raw)
    out = inbox(cli, game, "--eml", "incoming").stdout
    [r] = RECEIPT.findall(out)
    assert r[2:4] == ("confederate", "commit") and r[4] == sha(confederate)[:16]
    assert "bob@example.org" in out        # the message is named by its sender
    assert Path("incoming/1795867420.eml").read_bytes() == raw


def snapshot(folder: str) -> dict:
    """Every file under a mail folder (a Maildir's new/ cur/ tmp/, an mbox) by name, with its bytes:
    names carry a Maildir message's flags, so equal snapshots mean nothing moved, renamed or flagged."""
    root = Path(folder)
    if root.is_file():
        return {root.name: root.read_bytes()}
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


BOOK = "union: alice@example.org\nconfederate: bob@example.org\nfrom: referee@example.org\n"


def test_a_whole_maildir_is_safe(cli, game):
    """The inbox pointed at a player's whole Maildir: a friend's mail, a key sent by hand, an hxref
    report, an accepted and a refused file.  Not one file of the Maildir is moved, renamed or
    flagged; only the refusal counts (exit 1); a second run processes, refuses and answers nothing."""
    union, confederate = commits(cli, game)
    Path("g.addresses.yaml").write_text(BOOK)
    Path("mail").mkdir()
    md = mailbox.Maildir("mail/Maildir", create=True)
    good = message(ALICE, "bid")
    attach(good, union, "union-t1.bid-commit.yaml")
    bad = message(BOB, "bid")
    attach(bad, split_signed_text(confederate)[0], "confederate-t1.bid-commit.yaml")
    md.add(good)
    k_bad = md.add(bad)
    md.add(message(BOB, "hello", "Dinner on Friday?\n"))
    key = message(BOB, "my hxref key", "Here is my key.\n")
    key.add_attachment(read("bob.pub").encode(), maintype="application", subtype="octet-stream",
                       filename="bob.pub")
    md.add(key)
    cli("outbox", game, "--out", "reports", "--no-files")
    for p in Path("reports").glob("*.eml"):          # hxref's reports, one per side
        md.add(p.read_bytes())
    # a mail client has read one of them: it moved to cur/ and is flagged seen
    msg = md.get_message(k_bad)
    msg.set_subdir("cur")
    msg.add_flag("S")
    md[k_bad] = msg
    before = snapshot("mail/Maildir")
    out = inbox(cli, game, "--maildir", "mail/Maildir").stdout
    assert "inbox: 2 messages with hxref files: 1 accepted" in out and "1 rejected; 4 left alone" in out, out
    assert snapshot("mail/Maildir") == before
    assert not Path("mail/done").exists() and not Path("done").exists()
    assert "[E200]" in out and "answered to bob@example.org (the sender)" in out
    assert owed(cli, game) == {"union": "wait (others commit)", "confederate": "commit"}
    game_bytes = Path(game).read_bytes()
    out = inbox(cli, game, "--maildir", "mail/Maildir").stdout         # again: nothing new
    assert "0 messages with hxref files" in out and "2 processed before" in out, out
    assert len(list(Path("outbox").glob("*refused*"))) == 1 and Path(game).read_bytes() == game_bytes
    assert snapshot("mail/Maildir") == before
    out = inbox(cli, game, "--maildir", "mail/Maildir", "--archive", "copies").stdout
    assert not Path("copies").exists()                      # nothing processed, nothing copied


def test_mbox_source(cli, game):
    union, confederate = commits(cli, game)
    box = mailbox.mbox("orders.mbox", create=True)
    for frm, text, name in ((ALICE, union, "union-t1.bid-commit.yaml"),
                            (BOB, confederate, "confederate-t1.bid-commit.yaml")):
        m = message(frm, "bid")
        attach(m, text, name)
        box.add(m)
    box.add(message(BOB, "hello", "no orders\n"))
    box.flush()
    box.close()
    before = snapshot("orders.mbox")
    out = inbox(cli, game, "--mbox", "orders.mbox", "--archive", "copies").stdout
    assert "2 accepted" in out and "0 rejected; 1 left alone" in out, out
    assert snapshot("orders.mbox") == before
    assert len(list(Path("copies/done").glob("*.eml"))) == 2 and not Path("copies/rejected").exists()
    assert owed(cli, game) == {"union": "reveal", "confederate": "reveal"}
    # a mail client marks the messages read: it adds Status: headers and rewrites the mbox
    Path("orders.mbox").write_bytes(Path("orders.mbox").read_bytes().replace(b"\nSubject: bid\n",
                                                                             b"\nSubject: bid\nStatus: RO\n"))
    out = inbox(cli, game, "--mbox", "orders.mbox").stdout
    assert "0 messages with hxref files" in out and "2 processed before" in out, out


def test_archive_option_and_json_output(cli, game):
    union, _ = commits(cli, game)
    m = message(ALICE, "bid")
    attach(m, union, "union-t1.bid-commit.yaml")
    save(m, "incoming/1.eml")
    save(message(BOB, "hi", "hello\n"), "incoming/2.eml")
    m2 = message(BOB, "bid")
    attach(m2, split_signed_text(union)[0], "union-t1.bid-commit.yaml")
    save(m2, "incoming/3.eml")
    res = json.loads(inbox(cli, game, "--eml", "incoming", "--archive", "processed", "--json").stdout)
    assert [r["status"] for r in res["messages"]] == ["accepted", "rejected"] and res["left_alone"] == 1
    assert res["messages"][0]["receipts"][0]["side"] == "union"
    assert res["messages"][0]["receipts"][0]["file_sha256"] == sha(union)
    assert "[E200]" in res["messages"][1]["reason"]
    assert res["messages"][1]["refusal"]["not_sent"].startswith("no address book")
    assert Path("processed/done/1.eml").exists() and Path("processed/rejected/3.reason").exists()
    assert not Path("processed/rejected/2.eml").exists()


# --- command-line errors: one line, exit 2 -------------------------------------------------------

def test_command_line_errors(cli, game):
    assert "--maildir" in cli.fails("inbox", game)
    Path("notmaildir").mkdir()
    assert "notmaildir" in cli.fails("inbox", game, "--maildir", "notmaildir")
    assert "missing.mbox" in cli.fails("inbox", game, "--mbox", "missing.mbox")
    Path("empty").mkdir()
    assert "no game file" in cli.fails("inbox", "empty", "--eml", ".")
    assert "inbox" in cli("inbox", "--help").stdout and "Example" in cli("inbox", "--help").stdout


# --- the library on its own -----------------------------------------------------------------------

def test_find_orders_in_a_message():
    from hxref import mail

    text = "# a comment\nhxref: 1\ngame: g\n# -----BEGIN SSH SIGNATURE-----\n# AAAA\n# -----END SSH SIGNATURE-----\n"
    m = message(ALICE, "x", "Hello\nhere:\n\n" + text + "\nand\n" + text.replace("game: g", "game: h")
                + "-- \nAlice\n")
    attach(m, text, "a.yaml")
    m.add_attachment(b"\x00\x01", maintype="application", subtype="pdf", filename="x.pdf")
    found = mail.find_orders(BytesParser(policy=policy.default).parsebytes(m.as_bytes()))
    assert [f.text for f in found] == [text, text.replace("game: g", "game: h"), text]
    assert [f.name for f in found][2] == "a.yaml"


def test_html_to_text():
    from hxref import mail

    html = ("<html><head><title>t</title><style>x{}</style></head><body><div>a&nbsp;&nbsp;b<br>"
            "<b>c</b>  \n  d</div><div><br></div><p>e &amp; f</p><pre>  g\n    h</pre></body></html>")
    assert mail.html_to_text(html) == "a  b\nc d\n\ne & f\n  g\n    h\n"


def test_unflow():
    from hxref import mail

    assert mail.unflow("ab \ncd\n  x\n-- \nsig", delsp=True) == "abcd\n x\n-- \nsig"
    assert mail.unflow("ab \ncd", delsp=False) == "ab cd"
