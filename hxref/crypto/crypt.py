"""Encrypted side reports: the ``age`` format, to a player's SSH Ed25519 key.

A side's secret report can be encrypted to the public key the side already
plays with (the ``ssh-ed25519 AAAA...`` line in the game header), so an umpire
can post every side's report in one shared place and only that side can read
its own.  The file is a standard age v1 file (https://age-encryption.org/v1)
with an ``ssh-ed25519`` recipient stanza, so the player may open it with the
reference tools as well as with hxref::

    age -d -i ~/.ssh/id_ed25519 union-report.txt.age      # Go age
    rage -d -i ~/.ssh/id_ed25519 union-report.txt.age     # Rust rage
    hxref decrypt union-report.txt.age --key alice        # no age tool needed

and anyone can make one for a player with ``age -R alice.pub``.  By default
the file is ASCII-armored (``-----BEGIN AGE ENCRYPTED FILE-----``), so it
survives e-mail and forum posts; ``armor=False`` gives the binary form.

The cryptography is not written here: it is ``pyrage``, the Python binding
of rage.  This module checks the inputs, loads keys the way the rest of hxref
does (:mod:`hxref.crypto.signing`: OpenSSH files, passphrases from the caller or
``$HXREF_PASSPHRASE``) and turns every failure into one clear
:class:`~hxref.base.errors.HxrefError` that names the file.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
from pathlib import Path

from ..base.errors import InvalidInput

#: the suffix of an encrypted report: ``union-report.html`` -> ``union-report.html.age``
SUFFIX = ".age"

#: error codes of this module (with E203, "key file cannot be read", from hxref.crypto.signing)
E_OTHER_KEY = "E204"    # the file is encrypted to another key
E_DAMAGED = "E205"      # not an age file, or damaged / cut short / changed after encryption

_MAGIC = b"age-encryption.org/v1\n"
_ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
_ARMOR_END = b"-----END AGE ENCRYPTED FILE-----"
_ARMOR_RE = re.compile(re.escape(_ARMOR_BEGIN) + rb".*?" + re.escape(_ARMOR_END) + rb"[ \t\r]*\n?", re.S)
_NOT_AGE = ("not an age-encrypted file (neither an 'age-encryption.org/v1' header nor a "
            "'-----BEGIN AGE ENCRYPTED FILE-----' line)")


def _pyrage():
    try:
        import pyrage
    except ImportError:  # pragma: no cover - a main dependency; only a broken install lacks it
        raise InvalidInput("encrypted reports need the pyrage package; install it with `pip install pyrage`",
                           code="E100") from None
    return pyrage


def _ssh_line(public_key) -> str:
    """``ssh-ed25519 AAAA...`` (no comment) from a key line, a PublicKey or a Key; checked by hxref.crypto.signing."""
    from .signing import Key, PublicKey

    if isinstance(public_key, Key):
        public_key = public_key.public
    if not isinstance(public_key, PublicKey):
        public_key = PublicKey.from_line(str(public_key), source="<recipient key>")
    return PublicKey(public_key.raw).line()


# -- encrypting -------------------------------------------------------------------------------

def encrypt_for(public_key_line, data: bytes | str, armor: bool = True) -> bytes:
    """Encrypt ``data`` to one SSH Ed25519 public key, as ``age -R key.pub [-a]`` would.

    ``public_key_line`` is a ``.pub`` line (``ssh-ed25519 AAAA... comment``),
    or a :class:`~hxref.crypto.signing.PublicKey` / :class:`~hxref.crypto.signing.Key`.
    Returns the age file: ASCII-armored text (ending with a newline) when
    ``armor``, else binary.  An RSA key, a damaged line etc. raise
    :class:`InvalidInput` E203.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    line = _ssh_line(public_key_line)
    pyrage = _pyrage()
    try:
        recipient = pyrage.ssh.Recipient.from_str(line)
        return pyrage.encrypt(bytes(data), [recipient], armored=armor)
    except (pyrage.RecipientError, pyrage.EncryptError) as exc:  # pragma: no cover - the line was checked
        raise InvalidInput(f"cannot encrypt to this key ({exc})", code="E203", file="<recipient key>") from None


def side_key(engine, side: str | None) -> str:
    """The key line that ``side``'s reports are encrypted to, from the game header.

    ``side`` may be ``umpire`` in an umpired game (the umpire's key).  A
    public report (no side) and a side without a key (solo mode) are refused
    with a one-line error; call this first to refuse before writing anything.
    """
    source = str(getattr(getattr(engine, "gf", None), "path", "") or "") or None
    if not side:
        raise InvalidInput("--encrypt needs --side: the public report is for everyone, there is no key "
                           "to encrypt it to", code="E504")
    participant = engine.participants.get(side)
    if participant is None:
        sides = ", ".join(engine.participants) or "none"
        raise InvalidInput(f"no side {side!r} in this game; sides: {sides}", code="E504", file=source)
    key_line = participant.get("key")
    if not key_line:
        raise InvalidInput(f"{side} has no key in this game ({getattr(engine, 'mode', '?')} mode), so there is "
                           "nothing to encrypt its report to; drop --encrypt", code="E504", file=source)
    return key_line


def encrypt_report(engine, side: str | None, text) -> bytes:
    """A side's report (text or bytes) encrypted, armored, to that side's key from the game header."""
    return encrypt_for(side_key(engine, side), text)


def encrypted_path(path) -> Path:
    """Where the encrypted form of ``path`` goes: ``path`` + ``.age``."""
    path = Path(path)
    return path.with_name(path.name + SUFFIX)


def write_encrypted_report(engine, side: str | None, path, text) -> Path:
    """Encrypt ``text`` to ``side``'s key and write it, atomically, to ``path`` + ``.age``; return that path.

    Nothing is written in clear.  The file is armored text, fit to mail or
    post anywhere.
    """
    from ..base.files import atomic_write

    target = encrypted_path(path)
    data = encrypt_report(engine, side, text)
    try:
        atomic_write(target, data)
    except OSError as exc:
        raise InvalidInput(f"cannot write the encrypted report ({exc.strerror}); choose another --out",
                           code="E100", file=str(target)) from None
    return target


# -- decrypting -------------------------------------------------------------------------------

def _age_bytes(data: bytes, source: str) -> bytes:
    """The age file in ``data``: binary as it is, or the armored block (found anywhere, e.g. in a mail body)."""
    if data.startswith(_MAGIC):
        return data
    m = _ARMOR_RE.search(data)
    if m:
        block = m.group(0).replace(b"\r\n", b"\n")
        return block if block.endswith(b"\n") else block + b"\n"
    if _ARMOR_BEGIN in data:
        raise InvalidInput("encrypted file is cut short: its '-----END AGE ENCRYPTED FILE-----' line is missing; "
                           "get a complete copy", code=E_DAMAGED, file=source)
    hint = "it may not be encrypted at all: open it as it is" if _looks_like_text(data) else \
        "give the .age file you were sent"
    raise InvalidInput(f"{_NOT_AGE}; {hint}", code=E_DAMAGED, file=source)


def _looks_like_text(data: bytes) -> bool:
    try:
        data[:4096].decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(data.strip())


def _header_lines(age: bytes) -> list[bytes]:
    """The header lines of an age file (best effort, for messages only; [] if unreadable)."""
    if age.startswith(_ARMOR_BEGIN):
        body = b"".join(ln.strip() for ln in age.splitlines()[1:] if ln.strip() and not ln.startswith(b"-----"))
        try:
            age = base64.b64decode(body)
        except (binascii.Error, ValueError):
            return []
    head, sep, _ = age.partition(b"\n---")
    return head.split(b"\n") if sep else []


def recipient_stanzas(data: bytes, source: str = "<input>") -> list[tuple[str, ...]]:
    """The recipient stanzas' type and arguments, e.g. ``[("ssh-ed25519", "XnRogA", "TZkM...")]``.

    Readable without any key (age's grease stanzas, ``*-grease``, left out);
    used to say whom a file is for.
    """
    out = []
    for line in _header_lines(_age_bytes(data, source)):
        if line.startswith(b"-> "):
            stanza = tuple(line[3:].decode("ascii", "replace").split(" "))
            if stanza and not stanza[0].endswith("-grease"):
                out.append(stanza)
    return out


def ssh_tag(public_key) -> str:
    """The tag an ``ssh-ed25519`` stanza carries for ``public_key``: base64 of SHA-256(SSH key blob)[:4]."""
    from .signing import PublicKey

    blob = PublicKey.from_line(_ssh_line(public_key)).blob
    return base64.b64encode(hashlib.sha256(blob).digest()[:4]).decode("ascii").rstrip("=")


def _identity(private_key_path, passphrase):
    """A pyrage SSH identity for an OpenSSH Ed25519 private key file, or a loaded :class:`~hxref.crypto.signing.Key`.

    The key is loaded by :func:`hxref.crypto.signing.load_private_key` (so RSA keys,
    public keys given by mistake, wrong passphrases ... get hxref's messages)
    and handed to pyrage unencrypted, in memory only: pyrage itself cannot
    open a passphrase-protected key.
    """
    from cryptography.hazmat.primitives import serialization as ser

    from .signing import Key, load_private_key

    if isinstance(private_key_path, Key):
        key = private_key_path
    else:
        if isinstance(passphrase, str):
            passphrase = passphrase.encode("utf-8")
        key = load_private_key(private_key_path, passphrase)
    pem = key._private.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, ser.NoEncryption())
    pyrage = _pyrage()
    try:
        return key, pyrage.ssh.Identity.from_buffer(pem)
    except pyrage.IdentityError as exc:  # pragma: no cover - cryptography wrote the key itself
        raise InvalidInput(f"key cannot be used to decrypt ({exc})", code="E203",
                           file=str(private_key_path)) from None


def decrypt_with(private_key_path, data: bytes, passphrase=None, *, source: str = "<input>") -> bytes:
    """Decrypt an age file (armored or binary) with an OpenSSH Ed25519 private key; return the plaintext.

    ``private_key_path`` is the private key file (or a loaded
    :class:`~hxref.crypto.signing.Key`); a passphrase-protected key needs
    ``passphrase`` (str or bytes) or ``$HXREF_PASSPHRASE``.  ``source`` is
    the encrypted file's name for messages.  Raises :class:`InvalidInput`:
    E203 for the key file, E204 when the file is for another key, E205 when
    it is not an age file or was damaged or changed (age authenticates the
    whole file, so no changed byte goes unnoticed).
    """
    age = _age_bytes(bytes(data), source)
    key, identity = _identity(private_key_path, passphrase)
    pyrage = _pyrage()
    try:
        return pyrage.decrypt(age, [identity])
    except pyrage.DecryptError as exc:
        detail = " ".join(str(exc).split()) or type(exc).__name__
        if "no matching keys" in detail.lower():
            raise _not_for(key, age, source) from None
        raise InvalidInput(f"encrypted file is damaged: changed or cut short after it was encrypted ({detail}); "
                           "get a fresh copy", code=E_DAMAGED, file=source) from None


def _not_for(key, age: bytes, source: str) -> InvalidInput:
    stanzas = recipient_stanzas(age, source)
    kinds = [stanza[0] for stanza in stanzas]
    fpr = key.public.fingerprint()
    if any(s[0] == "ssh-ed25519" and len(s) > 1 and s[1] == ssh_tag(key.public) for s in stanzas):
        return InvalidInput(f"encrypted file is damaged: it names key {fpr}, but its part for that key was "
                            "changed after it was encrypted; get a fresh copy", code=E_DAMAGED, file=source)
    if kinds and "ssh-ed25519" not in kinds:
        shown = ", ".join(sorted(set(kinds)))
        return InvalidInput(f"file is encrypted to {shown}, not to an SSH Ed25519 key; open it with the "
                            "age tool and the identity it was made for", code=E_OTHER_KEY, file=source)
    return InvalidInput(f"file is encrypted to another key, not to {fpr}; decrypt it with the key of the "
                        "side it was written for", code=E_OTHER_KEY, file=source)
