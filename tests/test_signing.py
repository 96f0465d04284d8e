"""Tests for hxref.crypto.signing: keys, SSHSIG, signatures embedded in YAML files.

The interop tests run the real ``ssh-keygen`` in both directions.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.base.errors import InvalidInput
from hxref.crypto.signing import (
    NAMESPACE,
    SIG_BEGIN,
    Key,
    PublicKey,
    embed_signature,
    generate_key,
    load_private_key,
    load_public_key,
    sign_text,
    split_signed_text,
    sshsig_sign,
    sshsig_verify,
    verify_text,
)

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")

BODY = "game: g1\ndecision: t1.bid\nside: union\nbid: 3\n"


@pytest.fixture(scope="module")
def alice(tmp_path_factory) -> Key:
    return generate_key(tmp_path_factory.mktemp("alice") / "id_ed25519", comment="alice@example")


@pytest.fixture(scope="module")
def bob(tmp_path_factory) -> Key:
    return generate_key(tmp_path_factory.mktemp("bob") / "id_ed25519", comment="bob")


def ssh_keygen(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["ssh-keygen", *args], input=stdin, capture_output=True, timeout=60)


def make_ssh_key(path, passphrase: str = "", kind: str = "ed25519"):
    result = ssh_keygen("-q", "-t", kind, "-N", passphrase, "-C", "made-by-ssh-keygen", "-f", str(path))
    assert result.returncode == 0, result.stderr
    return path


def error_of(func, *args, **kwargs) -> InvalidInput:
    with pytest.raises(InvalidInput) as info:
        func(*args, **kwargs)
    return info.value


# -- round trips --------------------------------------------------------------------

def test_sign_text_round_trip(alice):
    signed = sign_text(BODY, alice)
    assert signed.startswith(BODY)
    assert SIG_BEGIN in signed and signed.endswith("# -----END SSH SIGNATURE-----\n")
    signer, body = verify_text(signed, source="o.yaml", expected=alice.public)
    assert signer == alice.public and body == BODY
    assert verify_text(signed, source="o.yaml")[0] == alice.public


def test_sshsig_round_trip_and_armor(alice):
    armored = sshsig_sign(alice, b"message")
    lines = armored.splitlines()
    assert lines[0] == "-----BEGIN SSH SIGNATURE-----" and lines[-1] == "-----END SSH SIGNATURE-----"
    assert armored.endswith("\n") and all(len(line) <= 76 for line in lines)
    assert alice.sign(b"message") == armored  # Ed25519 is deterministic
    assert sshsig_verify(armored, b"message") == alice.public
    assert error_of(sshsig_verify, armored, b"messagE").code == "E201"


def test_resigning_replaces_the_block(alice, bob):
    once = sign_text(BODY, alice)
    again = sign_text(once, bob)
    assert again.count(SIG_BEGIN) == 1
    assert verify_text(again, source="o.yaml") == (bob.public, BODY)


def test_sign_text_adds_final_newline_and_normalises(alice):
    signed = sign_text("a: 1\r\nb: 2", alice)
    assert signed.startswith("a: 1\nb: 2\n# -----BEGIN")
    assert verify_text(signed, source="o.yaml")[1] == "a: 1\nb: 2\n"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_text_round_trips(alice, text):
    signed = sign_text(text, alice)
    signer, body = verify_text(signed, source="o.yaml", expected=alice.public)
    expected_body = text.replace("\r\n", "\n").replace("\r", "\n")
    if expected_body and not expected_body.endswith("\n"):
        expected_body += "\n"
    assert signer == alice.public and body == expected_body


# -- tampering ------------------------------------------------------------------------

def test_every_byte_flip_is_rejected(alice):
    data = sign_text("side: union\nbid: 2\n", alice).encode()
    checked = 0
    for pos in range(len(data)):
        for mask in (1, 2, 4, 8, 16, 32, 64, 128, 0xFF):
            mutated = bytearray(data)
            mutated[pos] ^= mask
            text = bytes(mutated).decode("utf-8", errors="replace")
            with pytest.raises(InvalidInput) as info:
                verify_text(text, source="o.yaml", expected=alice.public)
            assert info.value.code in {"E200", "E201", "E202"}, (pos, mask)
            checked += 1
    assert checked == len(data) * 9


def test_wrong_key_is_E202_and_names_both_fingerprints(alice, bob):
    signed = sign_text(BODY, alice)
    err = error_of(verify_text, signed, source="o.yaml", expected=bob.public)
    assert err.code == "E202" and err.where.file == "o.yaml"
    assert alice.public.fingerprint() in err.message and bob.public.fingerprint() in err.message


def test_wrong_namespace_is_E201(alice):
    armored = sshsig_sign(alice, BODY.encode(), namespace="git")
    err = error_of(sshsig_verify, armored, BODY.encode(), source="x.sig")
    assert err.code == "E201" and "'git'" in err.message and err.where.file == "x.sig"
    assert error_of(verify_text, embed_signature(BODY, armored), source="o.yaml").code == "E201"


def test_unsigned_is_E200_with_hint():
    err = error_of(verify_text, BODY, source="orders/t1.yaml")
    assert err.code == "E200" and err.message == "file is not signed"
    assert "hxref sign" in err.render() and err.where.file == "orders/t1.yaml"


def test_garbled_detached_signature_is_E201(alice):
    assert error_of(verify_text, BODY, source="o.yaml", detached="nonsense\n").code == "E201"
    armored = sshsig_sign(alice, BODY.encode())
    lines = armored.splitlines()
    lines[1] = lines[1][:-1] + ("A" if lines[1][-1] != "A" else "B")
    assert error_of(verify_text, BODY, source="o.yaml", detached="\n".join(lines)).code == "E201"


def test_block_not_at_end_is_E201(alice):
    signed = sign_text(BODY, alice) + "extra: 1\n"
    err = error_of(verify_text, signed, source="o.yaml")
    assert err.code == "E201" and err.where.line == 5


def test_crlf_copy_verifies_but_a_changed_character_does_not(alice):
    signed = sign_text(BODY, alice)
    assert verify_text(signed.replace("\n", "\r\n"), source="o.yaml") == (alice.public, BODY)
    assert verify_text(signed.replace("\n", "\r"), source="o.yaml") == (alice.public, BODY)
    changed = signed.replace("bid: 3", "bid: 4").replace("\n", "\r\n")
    assert error_of(verify_text, changed, source="o.yaml").code == "E201"


def test_trailing_space_in_body_is_a_change(alice):
    signed = sign_text(BODY, alice)
    assert error_of(verify_text, signed.replace("side: union\n", "side: union \n"), source="o").code == "E201"


# -- the embedded block ------------------------------------------------------------

def test_split_tolerates_comment_styles_and_blank_lines(alice):
    armored = sshsig_sign(alice, BODY.encode())
    block = armored.strip().split("\n")
    sloppy = "\n" + "".join(f"#{line}   \n" if i % 2 else f"# {line}\t\n" for i, line in enumerate(block))
    text = BODY + sloppy + "\n  \n\n"
    body, got = split_signed_text(text)
    assert body == BODY + "\n" and got == armored
    assert verify_text(BODY + "".join(f"#{line}  \n" for line in block) + "\n\n", source="o")[1] == BODY


def test_split_without_block():
    assert split_signed_text(BODY) == (BODY, None)
    assert split_signed_text("a\r\nb\r\n") == ("a\nb\n", None)
    assert split_signed_text("") == ("", None)


def test_embed_signature_layout(alice):
    armored = sshsig_sign(alice, b"x: 1\n")
    text = embed_signature("x: 1", armored)
    assert text.startswith("x: 1\n" + SIG_BEGIN + "\n")
    assert all(line.startswith("# ") for line in text.splitlines()[1:])
    assert split_signed_text(text) == ("x: 1\n", armored)


# -- keys -----------------------------------------------------------------------------

def test_generate_key_files(tmp_path):
    key = generate_key(tmp_path / "k", comment="carol")
    assert stat.S_IMODE(os.stat(tmp_path / "k").st_mode) == 0o600
    pub_line = (tmp_path / "k.pub").read_text()
    assert pub_line == key.public.line() + "\n" and pub_line.endswith(" carol\n")
    loaded = load_private_key(tmp_path / "k")
    assert loaded.public == key.public and loaded.public.comment == "carol"
    assert load_public_key(tmp_path / "k.pub") == key.public
    assert load_public_key(str(tmp_path / "k")) == key.public
    assert load_public_key(key.public.line()) == key.public


def test_generate_key_refuses_to_overwrite(tmp_path):
    (tmp_path / "k").write_text("precious")
    err = error_of(generate_key, tmp_path / "k")
    assert err.code == "E502" and (tmp_path / "k").read_text() == "precious"
    assert not (tmp_path / "k.pub").exists()
    (tmp_path / "j.pub").write_text("precious")
    assert error_of(generate_key, tmp_path / "j").code == "E502"
    assert not (tmp_path / "j").exists()


def test_public_key_equality_ignores_comment(alice):
    bare = PublicKey.from_line(alice.public.line().rsplit(" ", 1)[0])
    assert bare == alice.public and hash(bare) == hash(alice.public) and bare.comment == ""
    assert len({bare, alice.public}) == 1


def test_public_key_line_errors():
    assert error_of(PublicKey.from_line, "ssh-rsa AAAAB3NzaC1yc2E x", "k.pub").code == "E203"
    assert error_of(PublicKey.from_line, "ssh-ed25519 !!!!", "k.pub").code == "E203"
    assert error_of(PublicKey.from_line, "nonsense").code == "E203"


def test_load_private_key_errors(tmp_path, alice):
    missing = error_of(load_private_key, tmp_path / "nope")
    assert missing.code == "E203" and "not found" in missing.message
    (tmp_path / "k.pub").write_text(alice.public.line() + "\n")
    public = error_of(load_private_key, tmp_path / "k.pub")
    assert public.code == "E203" and "public key" in public.message
    (tmp_path / "junk").write_text("hello\n")
    assert error_of(load_private_key, tmp_path / "junk").code == "E203"


def test_derive_secret(alice, bob):
    a1 = alice.derive_secret(b"hxref-seed/1 g1")
    assert len(a1) == 32 and a1 == alice.derive_secret(b"hxref-seed/1 g1")
    assert a1 != alice.derive_secret(b"hxref-seed/1 g2")
    assert a1 != bob.derive_secret(b"hxref-seed/1 g1")


def test_derive_secret_survives_reloading(tmp_path):
    key = generate_key(tmp_path / "k")
    assert load_private_key(tmp_path / "k").derive_secret(b"L") == key.derive_secret(b"L")


# -- interop with the real ssh-keygen --------------------------------------------

@needs_ssh_keygen
@pytest.mark.parametrize("hashalg", ["sha512", "sha256"])
def test_ssh_keygen_signature_is_accepted(tmp_path, hashalg):
    key_path = make_ssh_key(tmp_path / "id_ed25519")
    message = tmp_path / "orders.yaml"
    message.write_bytes(BODY.encode())
    result = ssh_keygen("-Y", "sign", "-f", str(key_path), "-n", NAMESPACE, "-O", f"hashalg={hashalg}",
                        str(message))
    assert result.returncode == 0, result.stderr
    sig = (tmp_path / "orders.yaml.sig").read_text()
    expected = load_public_key(tmp_path / "id_ed25519.pub")
    assert sshsig_verify(sig, BODY.encode(), expected=expected) == expected
    assert verify_text(BODY, source="orders.yaml", detached=sig, expected=expected) == (expected, BODY)
    # as an embedded block too, and tampering is still caught
    assert verify_text(embed_signature(BODY, sig), source="o.yaml")[0] == expected
    assert error_of(verify_text, BODY + "x: 1\n", source="o.yaml", detached=sig).code == "E201"


def _ssh_keygen_verifies(tmp_path, key: Key, message: bytes, armored: str) -> subprocess.CompletedProcess:
    (tmp_path / "allowed_signers").write_text(f"alice {key.public.line()}\n")
    (tmp_path / "msg.sig").write_text(armored)
    return ssh_keygen("-Y", "verify", "-f", str(tmp_path / "allowed_signers"), "-I", "alice",
                      "-n", NAMESPACE, "-s", str(tmp_path / "msg.sig"), stdin=message)


@needs_ssh_keygen
def test_our_signature_is_accepted_by_ssh_keygen(tmp_path, alice):
    ok = _ssh_keygen_verifies(tmp_path, alice, BODY.encode(), sshsig_sign(alice, BODY.encode()))
    assert ok.returncode == 0, ok.stderr
    bad = _ssh_keygen_verifies(tmp_path, alice, b"tampered\n", sshsig_sign(alice, BODY.encode()))
    assert bad.returncode != 0


@needs_ssh_keygen
def test_embedded_block_is_accepted_by_ssh_keygen(tmp_path, alice):
    signed = sign_text("side: union\nnote: \"caf\u00e9\"\n", alice)
    body, armored = split_signed_text(signed)
    ok = _ssh_keygen_verifies(tmp_path, alice, body.encode("utf-8"), armored)
    assert ok.returncode == 0, ok.stderr


@needs_ssh_keygen
def test_ssh_keygen_key_loads_and_fingerprint_matches(tmp_path):
    path = make_ssh_key(tmp_path / "id_ed25519")
    key = load_private_key(path)
    assert key.public == load_public_key(tmp_path / "id_ed25519.pub")
    assert key.public.comment == "made-by-ssh-keygen"
    printed = ssh_keygen("-lf", str(tmp_path / "id_ed25519.pub")).stdout.decode().split()[1]
    assert key.public.fingerprint() == printed
    assert sshsig_verify(key.sign(b"m"), b"m") == key.public


@needs_ssh_keygen
def test_passphrase_protected_key(tmp_path, monkeypatch):
    pytest.importorskip("bcrypt")
    path = make_ssh_key(tmp_path / "id_ed25519", passphrase="correct horse")
    monkeypatch.delenv("HXREF_PASSPHRASE", raising=False)
    without = error_of(load_private_key, path)
    assert without.code == "E203" and "HXREF_PASSPHRASE" in without.message
    wrong = error_of(load_private_key, path, passphrase=b"wrong")
    assert wrong.code == "E203" and "passphrase" in wrong.message
    key = load_private_key(path, passphrase=b"correct horse")
    assert key.public == load_public_key(tmp_path / "id_ed25519.pub")
    monkeypatch.setenv("HXREF_PASSPHRASE", "correct horse")
    assert load_private_key(path).public == key.public
    # the public half of an encrypted key needs no passphrase
    monkeypatch.delenv("HXREF_PASSPHRASE")
    assert load_public_key(path) == key.public


@needs_ssh_keygen
def test_non_ed25519_keys_are_refused(tmp_path):
    path = make_ssh_key(tmp_path / "id_ecdsa", kind="ecdsa")
    err = error_of(load_private_key, path)
    assert err.code == "E203" and "Ed25519" in err.message
    assert error_of(load_public_key, tmp_path / "id_ecdsa.pub").code == "E203"


@needs_ssh_keygen
def test_generated_key_is_accepted_by_ssh_keygen(tmp_path):
    key = generate_key(tmp_path / "k", comment="dave")
    derived = ssh_keygen("-y", "-f", str(tmp_path / "k"))
    assert derived.returncode == 0, derived.stderr
    assert PublicKey.from_line(derived.stdout.decode()) == key.public
    printed = ssh_keygen("-lf", str(tmp_path / "k.pub")).stdout.decode().split()
    assert printed[1] == key.public.fingerprint() and "dave" in printed
