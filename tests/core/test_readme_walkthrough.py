"""The README is a contract: the "A game by e-mail" walkthrough runs as written, command by
command, in a fresh folder (the way python-chess doctests its README); so does the manual's
two-machine flow (docs/email.md).  The README stays a front door: at most 250 lines."""
import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from hxref.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
README = ROOT / "README.md"
EMAIL = ROOT / "docs" / "email.md"


def walkthrough() -> list[list[str]]:
    """The commands of the first code block under "## A game by e-mail", continuation lines
    joined and comments dropped."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## A game by e-mail", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    block = block.replace("\\\n", " ")
    commands = []
    for line in block.splitlines():
        line = line.split("   #")[0].strip() if not line.lstrip().startswith("#") else ""
        if line.startswith("hxref "):
            commands.append(shlex.split(line, comments=True)[1:])
    return commands


def test_the_walkthrough_has_the_commands_a_game_needs():
    names = [c[0] for c in walkthrough()]
    for needed in ("keygen", "new", "join", "submit", "commit", "resolve", "answer", "report", "audit"):
        assert needed in names, needed


def test_the_walkthrough_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    outputs = []
    for args in walkthrough():
        res = runner.invoke(main, args, catch_exceptions=False)
        assert res.exit_code == 0, f"README command failed: hxref {' '.join(args)}\n{res.output}"
        outputs.append(res.output)
    assert outputs[-1].startswith("audit OK")
    assert Path("public.md").read_text().startswith("# ")


def two_machines() -> tuple[list[tuple[str, list[str]]], str]:
    """The commands of the two-machine flow under "An open game travels" in docs/email.md
    (``alice$ hxref ...``, ``bob$ hxref ...``, continuation lines joined, comments dropped) and
    its address book."""
    text = EMAIL.read_text(encoding="utf-8")
    section = text.split("## An open game travels", 1)[1].split("After that, each turn is the same", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    book = next(b for b in blocks if "from:" in b)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            m = re.match(r"(alice|bob)\$\s+(hxref .*)", line)
            if m:
                commands.append((m[1], shlex.split(m[2], comments=True)[1:]))
    return commands, book


def test_the_two_machine_email_flow_runs_as_written(tmp_path, monkeypatch):
    """Alice and Bob each with his own folder, HXREF_HOME, key, address book and hxref mail folder,
    mail going through an SMTP server on 127.0.0.1 that files it into the recipient's
    ~/Maildir/.hxref (as the procmail rule of docs/email.md would).  The one step that is no hxref
    command, Bob mailing his public key to Alice, is done by hand here."""
    import mailbox

    import pytest

    pytest.importorskip("aiosmtpd")
    from aiosmtpd.controller import Controller

    from tests.mail.test_travel import free_port

    class Office:
        async def handle_DATA(self, server, session, envelope):
            for rcpt in envelope.rcpt_tos:
                box = tmp_path / rcpt.split("@")[0] / "Maildir" / ".hxref"
                mailbox.Maildir(str(box), create=True).add(envelope.original_content or envelope.content)
            return "250 OK"

    commands, book = two_machines()
    assert [who for who, _ in commands].count("bob") >= 4 and any(c[0] == "inbox" for _, c in commands)
    port = free_port()
    controller = Controller(Office(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        runner = CliRunner()
        for who in ("alice", "bob"):
            (tmp_path / who / "Maildir").mkdir(parents=True)
            mailbox.Maildir(str(tmp_path / who / "Maildir" / ".hxref"), create=True)
            lines = [ln.split("#")[0].rstrip() for ln in book.splitlines()]
            lines = [ln if not ln.startswith("from:") else f"from: {who}@example.org" for ln in lines if ln]
            (tmp_path / who / "g.addresses.yaml").write_text("\n".join(lines) + "\n")
        out = ""
        for who, args in commands:
            args = [a.replace("~/Maildir/.hxref", str(tmp_path / who / "Maildir" / ".hxref")) for a in args]
            args = [f"127.0.0.1:{port}" if a == "smtp.example.org:587" else a for a in args if a != "--starttls"]
            monkeypatch.chdir(tmp_path / who)
            res = runner.invoke(main, args, env={"HXREF_HOME": str(tmp_path / who / ".hxref-home")},
                                catch_exceptions=False)
            assert res.exit_code == 0, f"docs/email.md command failed: {who}$ hxref {' '.join(args)}\n{res.output}"
            out = res.output
            if who == "bob" and args[0] == "keygen":        # Bob mails key.pub to Alice; she saves it
                (tmp_path / "alice" / "bob.pub").write_bytes((tmp_path / "bob" / "key.pub").read_bytes())
        assert "t1.bid" in out, out
        heads = {w: (tmp_path / w / "g.yaml").read_bytes() for w in ("alice", "bob")}
        assert heads["alice"] == heads["bob"]
    finally:
        controller.stop()


def test_the_readme_is_a_front_door():
    """At most 250 lines; the rest of the manual is in docs/, and every page it links exists."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert "docs/README.md" in links and "SECURITY.md" in links
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, missing
