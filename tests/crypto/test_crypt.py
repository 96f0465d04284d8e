"""Encrypted side reports (a side's secret report is read by that side alone): age files to SSH
Ed25519 keys.

Round trips with keys from ``hxref keygen`` and ``ssh-keygen`` (plain and
passphrase-protected), armored and binary; every way a file can be wrong
(another key, a changed byte, cut short, not an age file at all) is one clear
error naming the file; and interoperability both ways with the reference
``age`` tool (Debian's ``age`` package; or ``rage``) when it is installed.
"""
from __future__ import annotations

import base64
import hashlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import Main
from hxref.cli.crypt import decrypt as decrypt_cmd
from hxref.crypto.crypt import (
    E_DAMAGED,
    E_OTHER_KEY,
    decrypt_with,
    encrypt_for,
    encrypt_report,
    encrypted_path,
    recipient_stanzas,
    side_key,
    ssh_tag,
    write_encrypted_report,
)
from hxref.base.errors import HxrefError, InvalidInput
from hxref.crypto.signing import generate_key, load_private_key, load_public_key

REPORT = ("Turn 3 -- what union sees\n"
          "Royce's cavalry reached 1514; the enemy at 1612 is 2 strength points.\n"
          "Secret: the bridge at Elk Ford is mined.\n").encode("utf-8")
BIG = bytes(range(256)) * 700          # 179,200 bytes: three 64 KiB payload chunks, the last one short
ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
MAGIC = b"age-encryption.org/v1\n"
SSH_KEYGEN = shutil.which("ssh-keygen")
AGE_TOOL = shutil.which("age") or shutil.which("rage")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen is not installed")
needs_age = pytest.mark.skipif(AGE_TOOL is None, reason="neither the age nor the rage binary is installed "
                               "(apt-get install age)")


# -- keys ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Path:
    """alice and bob made by hxref, carol by ssh-keygen (if present), dave by ssh-keygen with a passphrase."""
    d = tmp_path_factory.mktemp("cryptkeys")
    generate_key(d / "alice", "alice")
    generate_key(d / "bob", "bob")
    if SSH_KEYGEN:
        for name, pw in (("carol", ""), ("dave", "correct horse")):
            subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", pw, "-C", name, "-f", str(d / name)],
                           check=True, capture_output=True)
    return d


def pub(keys: Path, name: str) -> str:
    return (keys / f"{name}.pub").read_text()


# -- round trips --------------------------------------------------------------------------------

@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
@pytest.mark.parametrize("data", [REPORT, b"", BIG], ids=["report", "empty", "three-chunks"])
def test_round_trip_with_an_hxref_key(keys, armor, data):
    ct = encrypt_for(pub(keys, "alice"), data, armor=armor)
    if armor:
        assert ct.startswith(ARMOR_BEGIN + b"\n") and ct.endswith(b"-----END AGE ENCRYPTED FILE-----\n")
        assert ct.isascii() and max(len(line) for line in ct.split(b"\n")) <= 64
    else:
        assert ct.startswith(MAGIC)
    assert data not in ct or not data
    assert decrypt_with(keys / "alice", ct) == data


def test_each_encryption_is_fresh_and_names_only_the_key_tag(keys):
    a, b = encrypt_for(pub(keys, "alice"), REPORT), encrypt_for(pub(keys, "alice"), REPORT)
    assert a != b                                               # a new file key every time
    (stanza,) = recipient_stanzas(a)
    assert stanza[0] == "ssh-ed25519" and len(stanza) == 3
    # the tag is the first 4 bytes of SHA-256 of the key's SSH blob (age spec), not the key itself
    blob = base64.b64decode(pub(keys, "alice").split()[1])
    assert stanza[1] == base64.b64encode(hashlib.sha256(blob).digest()[:4]).decode().rstrip("=")
    assert stanza[1] == ssh_tag(pub(keys, "alice")) != ssh_tag(pub(keys, "bob"))
    assert pub(keys, "alice").split()[1].encode() not in a


@pytest.mark.parametrize("spec", ["line", "line-no-comment", "PublicKey", "Key"])
def test_the_recipient_may_be_given_several_ways(keys, spec):
    line = pub(keys, "bob")
    recipient = {"line": line, "line-no-comment": " ".join(line.split()[:2]),
                 "PublicKey": load_public_key(str(keys / "bob.pub")),
                 "Key": load_private_key(keys / "bob")}[spec]
    assert decrypt_with(keys / "bob", encrypt_for(recipient, REPORT)) == REPORT
    assert decrypt_with(load_private_key(keys / "bob"), encrypt_for(recipient, "text too")) == b"text too"


@needs_ssh_keygen
@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
def test_round_trip_with_an_ssh_keygen_key(keys, armor):
    ct = encrypt_for(pub(keys, "carol"), REPORT, armor=armor)
    assert decrypt_with(keys / "carol", ct) == REPORT
    assert decrypt_with(str(keys / "carol"), ct) == REPORT


@needs_ssh_keygen
def test_passphrase_protected_key(keys, monkeypatch):
    monkeypatch.delenv("HXREF_PASSPHRASE", raising=False)
    ct = encrypt_for(pub(keys, "dave"), REPORT)
    assert decrypt_with(keys / "dave", ct, passphrase="correct horse") == REPORT
    assert decrypt_with(keys / "dave", ct, passphrase=b"correct horse") == REPORT
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "dave", ct, source="dave.age")
    assert exc.value.code == "E203" and "passphrase" in exc.value.message and "HXREF_PASSPHRASE" in exc.value.message
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "dave", ct, passphrase="wrong horse")
    assert exc.value.code == "E203" and "wrong passphrase" in exc.value.message
    assert str(keys / "dave") in exc.value.render()
    monkeypatch.setenv("HXREF_PASSPHRASE", "correct horse")
    assert decrypt_with(keys / "dave", ct) == REPORT


# -- refusals -----------------------------------------------------------------------------------

def test_wrong_key_is_refused_naming_the_file_and_the_key(keys):
    ct = encrypt_for(pub(keys, "alice"), REPORT)
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "bob", ct, source="union-report.txt.age")
    err = exc.value
    assert err.code == E_OTHER_KEY
    assert err.render().startswith("union-report.txt.age: file is encrypted to another key")
    assert load_public_key(str(keys / "bob.pub")).fingerprint() in err.message
    assert "\n" not in err.render()


def test_a_file_for_another_kind_of_recipient_says_so(keys):
    # an age X25519 recipient stanza with a valid-looking header (never decrypted: bob has no X25519 identity)
    x25519 = (MAGIC + b"-> X25519 " + base64.b64encode(b"\1" * 32).rstrip(b"=") + b"\n"
              + base64.b64encode(b"\2" * 32).rstrip(b"=") + b"\n--- "
              + base64.b64encode(b"\3" * 32).rstrip(b"=") + b"\n" + b"\0" * 48)
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "bob", x25519, source="r.age")
    assert exc.value.code in (E_OTHER_KEY, E_DAMAGED)
    assert exc.value.where.file == "r.age"


def _flip(data: bytes, pos: int) -> bytes:
    b = bytearray(data)
    b[pos] ^= 0x01
    return bytes(b)


@pytest.mark.parametrize("where", ["payload-last-byte", "payload-first-byte", "payload-nonce", "header-mac",
                                   "stanza-body", "stanza-key-share"])
def test_any_changed_byte_is_refused(keys, where):
    ct = encrypt_for(pub(keys, "alice"), REPORT, armor=False)
    mac_line = ct.index(b"\n---") + 1
    payload = ct.index(b"\n", mac_line) + 1                     # after "--- MAC\n": 16-byte nonce, then chunks
    stanza = ct.index(b"-> ssh-ed25519 ")
    pos = {"payload-last-byte": len(ct) - 1, "payload-first-byte": payload + 16, "payload-nonce": payload + 3,
           "header-mac": mac_line + 10, "stanza-body": ct.index(b"\n", stanza) + 3,
           "stanza-key-share": ct.index(b" ", stanza + 15 + 2) + 5}[where]
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "alice", _flip(ct, pos), source="t.age")
    assert exc.value.code == E_DAMAGED, exc.value.render()
    assert exc.value.render().startswith("t.age: encrypted file is damaged")
    assert decrypt_with(keys / "alice", ct) == REPORT               # the untouched file still opens


def test_a_changed_key_tag_reads_as_another_key(keys):
    ct = encrypt_for(pub(keys, "alice"), REPORT, armor=False)
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "alice", _flip(ct, ct.index(b"-> ssh-ed25519 ") + 16), source="t.age")
    assert exc.value.code == E_OTHER_KEY


def test_a_changed_armored_character_is_refused(keys):
    ct = encrypt_for(pub(keys, "alice"), REPORT)
    lines = ct.split(b"\n")
    last = len(lines) - 3                                       # the last base64 line, in the payload
    line = bytearray(lines[last])
    line[2] = ord("A") if line[2] != ord("A") else ord("B")
    lines[last] = bytes(line)
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "alice", b"\n".join(lines), source="t.age")
    assert exc.value.code == E_DAMAGED and "damaged" in exc.value.message


@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
def test_a_file_cut_short_is_refused(keys, armor):
    ct = encrypt_for(pub(keys, "alice"), BIG, armor=armor)
    for cut in (len(ct) // 2, len(ct) - 40):
        with pytest.raises(InvalidInput) as exc:
            decrypt_with(keys / "alice", ct[:cut], source="t.age")
        assert exc.value.code == E_DAMAGED, exc.value.render()
        assert "cut short" in exc.value.message or "damaged" in exc.value.message


@pytest.mark.parametrize("data,says", [
    (REPORT, "may not be encrypted at all"),
    (b"", "not an age-encrypted file"),
    (b"\x89PNG\r\n\x1a\n\0\0\0", "give the .age file"),
    (b"-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n", "not an age-encrypted file"),
])
def test_not_an_age_file(keys, data, says):
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "alice", data, source="report.txt")
    assert exc.value.code == E_DAMAGED and says in exc.value.message
    assert exc.value.render().startswith("report.txt: ")


def test_bad_key_files_get_hxrefs_key_messages(keys, tmp_path):
    ct = encrypt_for(pub(keys, "alice"), REPORT)
    cases = {tmp_path / "missing": "not found", keys / "alice.pub": "this is a public key"}
    (tmp_path / "junk").write_text("hello\n")
    cases[tmp_path / "junk"] = "not an OpenSSH private key"
    for path, says in cases.items():
        with pytest.raises(InvalidInput) as exc:
            decrypt_with(path, ct)
        assert exc.value.code == "E203" and says in exc.value.message
        assert exc.value.where.file == str(path)


@pytest.mark.parametrize("line,says", [
    ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 bob@host", "Ed25519"),
    ("ssh-ed25519 not-base64!", "base64"),
    ("hello", "not a public key line"),
    ("ssh-ed25519 " + base64.b64encode(b"\0\0\0\x0bssh-ed25519\0\0\0\x05short").decode(), "damaged"),
])
def test_bad_recipient_keys_are_refused(line, says):
    with pytest.raises(InvalidInput) as exc:
        encrypt_for(line, REPORT)
    assert exc.value.code == "E203" and says in exc.value.message


def test_the_armored_block_is_found_inside_a_mail_body_with_crlf(keys):
    ct = encrypt_for(pub(keys, "alice"), REPORT)
    mail = (b"From: umpire@example.org\r\nSubject: turn 3\r\n\r\nYour report, encrypted:\r\n\r\n"
            + ct.replace(b"\n", b"\r\n") + b"\r\n-- \r\nthe umpire\r\n")
    assert decrypt_with(keys / "alice", mail) == REPORT
    assert decrypt_with(keys / "alice", b"  \n\n" + ct + b"\n\n") == REPORT


def test_armor_begun_but_not_ended_is_cut_short(keys):
    ct = encrypt_for(pub(keys, "alice"), REPORT)
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keys / "alice", ct[: ct.index(b"-----END")], source="t.age")
    assert exc.value.code == E_DAMAGED and "cut short" in exc.value.message


# -- reports of a game --------------------------------------------------------------------------

def test_encrypt_report_uses_the_sides_key_from_the_game_header(cli, game, keydir):
    from hxref.referee.engine import Engine

    eng = Engine.load(game)
    assert side_key(eng, "union") == eng.participants["union"]["key"]
    ct = encrypt_report(eng, "union", "union's secret report\n")
    assert decrypt_with(keydir / "alice", ct) == b"union's secret report\n"
    with pytest.raises(InvalidInput) as exc:
        decrypt_with(keydir / "bob", ct, source="union.age")
    assert exc.value.code == E_OTHER_KEY
    path = write_encrypted_report(eng, "confederate", Path("confederate-report.txt"), "for bob\n")
    assert path == Path("confederate-report.txt.age") == encrypted_path("confederate-report.txt")
    assert not Path("confederate-report.txt").exists()
    assert decrypt_with(keydir / "bob", path.read_bytes()) == b"for bob\n"


def test_encrypt_report_refuses_what_has_no_key(cli, game):
    from hxref.referee.engine import Engine

    eng = Engine.load(game)
    for side, says in ((None, "needs --side"), ("", "needs --side"), ("prussia", "no side 'prussia'"),
                       ("umpire", "no side 'umpire'")):
        with pytest.raises(InvalidInput) as exc:
            encrypt_report(eng, side, "x")
        assert says in exc.value.message and exc.value.code == "E504"
    cli("new", "s.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "solo")
    with pytest.raises(InvalidInput) as exc:
        write_encrypted_report(Engine.load("s.yaml"), "union", "u.txt", "x")
    assert "no key" in exc.value.message and "solo" in exc.value.message
    assert not Path("u.txt.age").exists()


def test_an_umpired_games_umpire_report_goes_to_the_umpires_key(cli, keydir):
    from hxref.referee.engine import Engine

    cli("new", "u.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "umpired",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", "--umpire", "umpire.pub")
    ct = encrypt_report(Engine.load("u.yaml"), "umpire", b"all of it")
    assert decrypt_with(keydir / "umpire", ct) == b"all of it"


# -- hxref decrypt ------------------------------------------------------------------------------

def _hxref():
    """The real command line if `decrypt` is registered in it, else one Main group around the command."""
    from hxref.cli import main

    with main.make_context("hxref", ["--help"], resilient_parsing=True) as ctx:
        if main.get_command(ctx, "decrypt") is not None:
            return main
    return Main(name="hxref", commands={"decrypt": decrypt_cmd})


def test_decrypt_command_prints_or_writes_the_report(keys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("r.age").write_bytes(encrypt_for(pub(keys, "alice"), REPORT))
    run = CliRunner().invoke
    res = run(_hxref(), ["decrypt", "r.age", "--key", str(keys / "alice")])
    assert res.exit_code == 0, res.output
    assert res.stdout_bytes == REPORT
    res = run(_hxref(), ["decrypt", "r.age", "--key", str(keys / "alice"), "-o", "r.txt"])
    assert res.exit_code == 0 and "wrote r.txt" in res.stdout
    assert Path("r.txt").read_bytes() == REPORT
    assert stat.S_IMODE(os.stat("r.txt").st_mode) == 0o600          # a decrypted report is secret
    res = run(_hxref(), ["decrypt", "-", "--key", str(keys / "alice")], input=Path("r.age").read_bytes())
    assert res.exit_code == 0 and res.stdout_bytes == REPORT


@pytest.mark.parametrize("case", ["wrong-key", "not-age", "missing-file", "missing-key"])
def test_decrypt_command_errors_are_one_line_exit_2(keys, tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    Path("r.age").write_bytes(encrypt_for(pub(keys, "alice"), REPORT))
    Path("plain.txt").write_bytes(REPORT)
    args, says = {"wrong-key": (["r.age", "--key", str(keys / "bob")], "r.age: file is encrypted to another key"),
                  "not-age": (["plain.txt", "--key", str(keys / "alice")], "plain.txt: not an age-encrypted"),
                  "missing-file": (["nope.age", "--key", str(keys / "alice")], "nope.age: file not found"),
                  "missing-key": (["r.age", "--key", "nokey"], "nokey: key file not found")}[case]
    res = CliRunner().invoke(_hxref(), ["decrypt", *args])
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert err.startswith("hxref: error: ") and says in err and "\n" not in err, err
    assert "Traceback" not in res.output and res.stdout == ""


def test_decrypt_help_has_an_example():
    res = CliRunner().invoke(_hxref(), ["decrypt", "--help"])
    assert res.exit_code == 0 and "Example" in res.output and "--key" in res.output and "age -d" in res.output


def test_report_encrypt_flag(cli, game, keydir):
    """`hxref report --encrypt` (wired in cli.py): only FILE.age is written, and only the side's key opens it."""
    from hxref.cli import report

    if "encrypt" not in {p.name for p in report.params}:
        pytest.skip("hxref report --encrypt is not wired into hxref/cli.py yet")
    out = cli("report", game, "--side", "union", "--format", "text", "-o", "union.txt", "--encrypt").stdout
    assert "union.txt.age" in out
    assert not Path("union.txt").exists()
    plain = cli("report", game, "--side", "union", "--format", "text").stdout.encode()
    assert decrypt_with(keydir / "alice", Path("union.txt.age").read_bytes()) == plain
    with pytest.raises(HxrefError):
        decrypt_with(keydir / "bob", Path("union.txt.age").read_bytes())
    assert "needs --side" in cli.fails("report", game, "--encrypt", "-o", "public.txt")
    assert not Path("public.txt.age").exists() and not Path("public.txt").exists()
    # no -o: GAME-SIDE-report.EXT.age beside the game, rich turned into text
    out = cli("report", game, "--side", "confederate", "--encrypt").stdout
    assert "g-confederate-report.txt.age" in out and Path("g-confederate-report.txt.age").exists()
    plain = cli("report", game, "--side", "confederate", "--format", "text").stdout.encode()
    assert decrypt_with(keydir / "bob", Path("g-confederate-report.txt.age").read_bytes()) == plain
    cli("report", game, "--side", "confederate", "--format", "html", "--encrypt")
    html = decrypt_with(keydir / "bob", Path("g-confederate-report.html.age").read_bytes())
    assert html.lstrip().lower().startswith(b"<!doctype html") or b"<html" in html[:500]
    # and the player opens it with `hxref decrypt`
    assert cli("decrypt", "g-confederate-report.txt.age", "--key", "bob").stdout.encode() == plain
    assert "encrypted to another key" in cli.fails("decrypt", "g-confederate-report.txt.age", "--key", "alice")


def test_report_encrypt_refuses_a_solo_game(cli):
    from hxref.cli import report

    if "encrypt" not in {p.name for p in report.params}:
        pytest.skip("hxref report --encrypt is not wired into hxref/cli.py yet")
    cli("new", "s.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "solo")
    err = cli.fails("report", "s.yaml", "--side", "union", "--encrypt")
    assert "union has no key" in err and "solo" in err
    assert not list(Path(".").glob("*.age"))


# -- interoperability with the reference tool ----------------------------------------------------

def _tool(*args: str, stdin: bytes = b"") -> bytes:
    res = subprocess.run([AGE_TOOL, *args], input=stdin, capture_output=True, timeout=60)
    assert res.returncode == 0, res.stderr.decode(errors="replace")
    return res.stdout


@needs_age
@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
@pytest.mark.parametrize("maker", ["hxref", "ssh-keygen"])
def test_age_tool_decrypts_what_hxref_wrote(keys, tmp_path, armor, maker):
    name = "alice" if maker == "hxref" else "carol"
    if maker == "ssh-keygen" and SSH_KEYGEN is None:
        pytest.skip("ssh-keygen is not installed")
    for data in (REPORT, BIG):
        f = tmp_path / "r.age"
        f.write_bytes(encrypt_for(pub(keys, name), data, armor=armor))
        assert _tool("-d", "-i", str(keys / name), str(f)) == data


@needs_age
@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
@pytest.mark.parametrize("how", ["-R file", "-r line"])
def test_hxref_decrypts_what_the_age_tool_wrote(keys, tmp_path, armor, how):
    names = ["alice"] + (["carol"] if SSH_KEYGEN else [])
    for name in names:
        line = " ".join(pub(keys, name).split()[:2])
        target = ["-R", str(keys / f"{name}.pub")] if how == "-R file" else ["-r", line]
        for data in (REPORT, BIG):
            ct = _tool(*target, *(["-a"] if armor else []), stdin=data)
            assert ct.startswith(ARMOR_BEGIN if armor else MAGIC)
            assert decrypt_with(keys / name, ct) == data


@needs_age
def test_hxref_decrypts_an_age_file_for_several_recipients_and_refuses_outsiders(keys):
    ct = _tool("-R", str(keys / "alice.pub"), "-R", str(keys / "bob.pub"), "-a", stdin=REPORT)
    assert decrypt_with(keys / "alice", ct) == REPORT and decrypt_with(keys / "bob", ct) == REPORT
    if SSH_KEYGEN:
        with pytest.raises(InvalidInput) as exc:
            decrypt_with(keys / "carol", ct, source="both.age")
        assert exc.value.code == E_OTHER_KEY


@needs_age
def test_age_tool_refuses_the_wrong_key_and_a_changed_byte(keys, tmp_path):
    f = tmp_path / "r.age"
    f.write_bytes(encrypt_for(pub(keys, "alice"), REPORT, armor=False))
    assert subprocess.run([AGE_TOOL, "-d", "-i", str(keys / "bob"), str(f)], capture_output=True).returncode != 0
    f.write_bytes(_flip(f.read_bytes(), len(f.read_bytes()) - 1))
    assert subprocess.run([AGE_TOOL, "-d", "-i", str(keys / "alice"), str(f)], capture_output=True).returncode != 0
