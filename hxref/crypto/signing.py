"""Keys and signatures: Ed25519 keys in OpenSSH format, SSHSIG signatures.

A player's key is an ordinary OpenSSH Ed25519 key: one made by ``hxref
keygen`` (:func:`generate_key`) or the player's existing ``~/.ssh/id_ed25519``.
Signatures are SSHSIG, the format of ``ssh-keygen -Y sign`` (OpenSSH's
``PROTOCOL.sshsig``), in the namespace ``hxref``, so either tool checks what
the other made::

    blob   = "SSHSIG" || uint32 1 || string publickey || string namespace
             || string reserved || string hash_algorithm || string signature
    signed = "SSHSIG" || string namespace || string reserved
             || string hash_algorithm || string H(message)

where ``string`` is a uint32 big-endian length and the bytes.  The blob is
armored as base64 between ``-----BEGIN SSH SIGNATURE-----`` and ``-----END SSH
SIGNATURE-----``.  We sign with sha512 (as ssh-keygen does) and accept sha256
and sha512.  The namespace keeps a signature made for ``git`` or ``file`` from
being replayed as an order.  The crypto itself comes from ``cryptography``;
only the wire format is written here.

An order file carries its signature at its end as YAML comment lines, so one
file travels by e-mail and stays valid YAML::

    side: union
    orders: [...]
    # -----BEGIN SSH SIGNATURE-----
    # U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg...
    # -----END SSH SIGNATURE-----

What is signed is the exact UTF-8 bytes of the text above the block, not the
parsed YAML: YAML has no canonical form, two readers may disagree about one
text (design section 8), and a player should be bound by what they read in
their editor.  The only change allowed in transit is line endings (mail
programs turn LF into CRLF), so CRLF and CR are turned into LF before signing
and before checking; any other change, even one byte of white space, makes
the signature fail.  A detached ``.sig`` file (``ssh-keygen -Y sign``'s
output) is accepted too; its message is the whole file.
"""
from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import os
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from hxref.base.errors import InvalidInput

NAMESPACE = "hxref"
SIG_BEGIN = "# -----BEGIN SSH SIGNATURE-----"

_BEGIN = "-----BEGIN SSH SIGNATURE-----"
_END = "-----END SSH SIGNATURE-----"
_MAGIC = b"SSHSIG"
_KEY_TYPE = b"ssh-ed25519"
_HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
_B64_LINE = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_PASSPHRASE_ENV = "HXREF_PASSPHRASE"
_KEYGEN_HINT = "make one with `hxref keygen` or `ssh-keygen -t ed25519`"


# -- SSH wire format ----------------------------------------------------------

def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class _Reader:
    """Reads SSH wire-format fields; any short read raises ValueError."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise ValueError("truncated")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def uint32(self) -> int:
        return struct.unpack(">I", self.raw(4))[0]

    def string(self) -> bytes:
        return self.raw(self.uint32())

    def done(self) -> bool:
        return self.pos == len(self.data)


def _b64decode(text: str) -> bytes:
    """Strict base64: only the canonical encoding of some bytes is accepted.

    Non-canonical padding bits would let a changed character decode to the
    same bytes, so a flipped byte in the armor could go unnoticed.
    """
    data = base64.b64decode(text, validate=True)
    if base64.b64encode(data).decode("ascii") != text:
        raise binascii.Error("not canonical base64")
    return data


def _key_error(message: str, source: str) -> InvalidInput:
    return InvalidInput(message, code="E203", file=source)


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _utf8(text: str, source: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput("file is not valid UTF-8; save it as UTF-8 and sign it again",
                           code="E100", file=source) from None


# -- keys -----------------------------------------------------------------------

@dataclass(frozen=True)
class PublicKey:
    """An Ed25519 public key; equal and hashed by its 32 key bytes only."""

    raw: bytes
    comment: str = field(default="", compare=False)

    @classmethod
    def from_blob(cls, blob: bytes, comment: str = "", source: str = "<key>") -> "PublicKey":
        """Read the SSH wire form ``string "ssh-ed25519" || string key``."""
        try:
            r = _Reader(blob)
            kind = r.string()
            raw = r.string() if kind == _KEY_TYPE else b""
            if kind == _KEY_TYPE and (len(raw) != 32 or not r.done()):
                raise ValueError("bad ed25519 key")
        except ValueError:
            raise _key_error(f"key is damaged; {_KEYGEN_HINT}", source) from None
        if kind != _KEY_TYPE:
            name = kind.decode("ascii", "replace")
            raise _key_error(f"key is {name}, hxref needs an Ed25519 key; {_KEYGEN_HINT}", source)
        return cls(raw, comment)

    @classmethod
    def from_line(cls, line: str, source: str = "<key>") -> "PublicKey":
        """Parse ``ssh-ed25519 AAAA... comment`` (a ``.pub`` file's line)."""
        parts = line.strip().split(None, 2)
        if len(parts) < 2:
            raise _key_error(f"not a public key line ('ssh-ed25519 AAAA...'); {_KEYGEN_HINT}", source)
        if parts[0] != "ssh-ed25519":
            raise _key_error(f"key is {parts[0][:40]}, hxref needs an Ed25519 key; {_KEYGEN_HINT}", source)
        try:
            blob = base64.b64decode(parts[1], validate=True)
        except binascii.Error:
            raise _key_error("public key is not valid base64; copy the whole .pub line", source) from None
        return cls.from_blob(blob, parts[2].strip() if len(parts) > 2 else "", source)

    @property
    def blob(self) -> bytes:
        return _string(_KEY_TYPE) + _string(self.raw)

    def line(self) -> str:
        text = "ssh-ed25519 " + base64.b64encode(self.blob).decode("ascii")
        return f"{text} {self.comment}" if self.comment else text

    def fingerprint(self) -> str:
        """``SHA256:...``, as ``ssh-keygen -l`` prints it."""
        digest = base64.b64encode(hashlib.sha256(self.blob).digest()).decode("ascii")
        return "SHA256:" + digest.rstrip("=")

    def __repr__(self) -> str:
        return f"PublicKey({self.fingerprint()}{' ' + self.comment if self.comment else ''})"


class Key:
    """A private Ed25519 key (a ``cryptography`` key object) and its public half."""

    def __init__(self, private, comment: str = "") -> None:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        self._private = private
        raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = PublicKey(raw, comment)

    def sign(self, message: bytes, namespace: str = NAMESPACE) -> str:
        """An armored SSHSIG signature of ``message`` (ends with a newline)."""
        return sshsig_sign(self, message, namespace)

    def derive_secret(self, label: bytes) -> bytes:
        """32 bytes only this key can make: sha256 of its signature of ``label``.

        Ed25519 signatures are deterministic (RFC 8032), so the same key and
        label always give the same bytes; used for seed chains and salts that
        a player can re-create from the key alone.
        """
        return hashlib.sha256(self._private.sign(label)).digest()

    def __repr__(self) -> str:
        return f"Key({self.public.fingerprint()})"


def _openssh_public_blob(data: bytes, source: str) -> tuple[bytes, bool]:
    """The public key blob and whether it is encrypted, from an OpenSSH private key file.

    The header of ``openssh-key-v1`` is not encrypted, so the public half of
    a passphrase-protected key can be read without the passphrase.
    """
    text = data.decode("ascii", "replace")
    m = re.search(r"-----BEGIN OPENSSH PRIVATE KEY-----(.*?)-----END OPENSSH PRIVATE KEY-----", text, re.S)
    try:
        if not m:
            raise ValueError("no OpenSSH armor")
        r = _Reader(base64.b64decode("".join(m.group(1).split()), validate=True))
        if r.raw(15) != b"openssh-key-v1\0":
            raise ValueError("bad magic")
        cipher = r.string()
        r.string(), r.string()  # kdf name, kdf options
        if r.uint32() != 1:
            raise ValueError("several keys")
        return r.string(), cipher != b"none"
    except (ValueError, binascii.Error):
        if "PRIVATE KEY-----" in text:
            hint = "convert it with `ssh-keygen -p -f FILE` (it writes OpenSSH format)"
        else:
            hint = f"give the private key file; {_KEYGEN_HINT}"
        raise _key_error(f"not an OpenSSH private key; {hint}", source) from None


def _read(path: Path, source: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise _key_error(f"key file not found; {_KEYGEN_HINT}", source) from None
    except OSError as exc:
        raise _key_error(f"key file cannot be read ({exc.strerror}); check its path and permissions",
                         source) from None


def _with_comment(public: PublicKey, path: Path) -> PublicKey:
    """Take the comment from ``path.pub`` if it holds the same key."""
    try:
        sibling = PublicKey.from_line(path.with_name(path.name + ".pub").read_text("utf-8"))
    except (OSError, UnicodeDecodeError, InvalidInput):
        return public
    return PublicKey(public.raw, sibling.comment) if sibling == public else public


def generate_key(path, comment: str = "") -> Key:
    """Make a new key: ``path`` (OpenSSH private key, mode 0600, no passphrase) and ``path.pub``."""
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = Path(path).expanduser()
    pub_path = path.with_name(path.name + ".pub")
    for p in (path, pub_path):
        if p.exists():
            raise InvalidInput("file already exists; choose another path or remove the old key first",
                               code="E502", file=str(p))
    key = Key(Ed25519PrivateKey.generate(), comment)
    pem = key._private.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, ser.NoEncryption())
    written = []
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for p, data, mode in ((path, pem, 0o600), (pub_path, (key.public.line() + "\n").encode(), 0o644)):
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            written.append(p)
            with os.fdopen(fd, "wb") as fh:
                os.fchmod(fh.fileno(), mode)
                fh.write(data)
    except OSError as exc:
        for p in written:
            p.unlink()
        if isinstance(exc, FileExistsError):
            raise InvalidInput("file already exists; choose another path or remove the old key first",
                               code="E502", file=exc.filename) from None
        raise _key_error(f"key file cannot be written ({exc.strerror}); choose another folder",
                         str(exc.filename or path)) from None
    return key


def needs_passphrase(path) -> bool:
    """Whether the private key at ``path`` is protected by a passphrase that $HXREF_PASSPHRASE does
    not give: a command that may ask (``hxref orders``) asks for it in the terminal.  A file that is
    no key at all reads as False: loading it names what is wrong."""
    path = Path(path).expanduser()
    try:
        data = _read(path, str(path))
        return _openssh_public_blob(data, str(path))[1] and not os.environ.get(_PASSPHRASE_ENV)
    except InvalidInput:
        return False


def load_private_key(path, passphrase: bytes | None = None) -> Key:
    """Load an OpenSSH Ed25519 private key; an encrypted one needs ``passphrase`` or $HXREF_PASSPHRASE."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.serialization import load_ssh_private_key

    path = Path(path).expanduser()
    source = str(path)
    data = _read(path, source)
    if data.lstrip().startswith((b"ssh-", b"ecdsa-", b"sk-")):
        raise _key_error("this is a public key; give the private key file (the one without .pub)", source)
    blob, encrypted = _openssh_public_blob(data, source)
    PublicKey.from_blob(blob, source=source)  # refuses RSA, ECDSA, ... before any passphrase question
    from_env = False
    if not encrypted:
        passphrase = None
    elif passphrase is None:
        env = os.environ.get(_PASSPHRASE_ENV)
        if not env:
            raise _key_error(f"key is protected by a passphrase; set {_PASSPHRASE_ENV} to it", source)
        passphrase, from_env = env.encode("utf-8"), True
    try:
        private = load_ssh_private_key(data, password=passphrase)
    except UnsupportedAlgorithm as exc:
        raise _key_error(f"key cannot be read ({exc}); encrypted keys need `pip install bcrypt`",
                         source) from None
    except (ValueError, TypeError):
        what = "key file is damaged"
        if encrypted:
            what = f"wrong passphrase (from {_PASSPHRASE_ENV})" if from_env else "wrong passphrase"
        raise _key_error(f"{what}; check it, or make a new key with `hxref keygen`", source) from None
    key = Key(private)
    key.public = _with_comment(key.public, path)
    return key


def load_public_key(spec) -> PublicKey:
    """A public key from a key line, a ``.pub`` file, or a private key file (its public half)."""
    if isinstance(spec, PublicKey):
        return spec
    if isinstance(spec, Key):
        return spec.public
    if isinstance(spec, str) and re.match(r"\s*(ssh|ecdsa|sk)-\S+\s+AAAA", spec):
        return PublicKey.from_line(spec)
    path = Path(spec).expanduser()
    source = str(path)
    data = _read(path, source)
    if b"PRIVATE KEY-----" in data:
        blob, _ = _openssh_public_blob(data, source)
        return _with_comment(PublicKey.from_blob(blob, source=source), path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _key_error("not a public key file; give a .pub file", source) from None
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise _key_error("public key file is empty; give a .pub file", source)
    return PublicKey.from_line(lines[0], source)


# -- SSHSIG -----------------------------------------------------------------

def _signed_data(namespace: bytes, hash_alg: str, message: bytes) -> bytes:
    # ssh-keygen always puts an empty reserved string here, whatever the blob holds.
    digest = _HASHES[hash_alg](message).digest()
    return _MAGIC + _string(namespace) + _string(b"") + _string(hash_alg.encode()) + _string(digest)


def sshsig_sign(key: Key, message: bytes, namespace: str = NAMESPACE) -> str:
    """Sign ``message`` as ``ssh-keygen -Y sign -n NAMESPACE`` would (sha512)."""
    ns = namespace.encode("utf-8")
    signature = key._private.sign(_signed_data(ns, "sha512", message))
    blob = (_MAGIC + struct.pack(">I", 1) + _string(key.public.blob) + _string(ns) + _string(b"")
            + _string(b"sha512") + _string(_string(_KEY_TYPE) + _string(signature)))
    b64 = base64.b64encode(blob).decode("ascii")
    lines = [b64[i:i + 70] for i in range(0, len(b64), 70)]     # as ssh-keygen: "# " + 70 fits 72 columns
    return "\n".join([_BEGIN, *lines, _END]) + "\n"


@functools.lru_cache(maxsize=64)
def _ed25519(raw: bytes):
    """The cryptography key object for 32 raw bytes (cached: a game has few keys)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(raw)


def sshsig_verify(armored: str, message: bytes, namespace: str = NAMESPACE,
                  expected: PublicKey | None = None, source: str = "<input>") -> PublicKey:
    """Check an armored SSHSIG signature of ``message``; return the signer's key."""
    from cryptography.exceptions import InvalidSignature

    def bad(why: str) -> InvalidInput:
        return InvalidInput(why, code="E201", file=source)

    lines = [ln.strip() for ln in _normalise(armored).strip().split("\n")]
    if len(lines) < 3 or lines[0] != _BEGIN or lines[-1] != _END:
        raise bad("signature is not an SSH signature block; sign the file again with `hxref sign`")
    try:
        r = _Reader(_b64decode("".join(lines[1:-1])))
        if r.raw(6) != _MAGIC or r.uint32() != 1:
            raise ValueError("not SSHSIG version 1")
        key_blob, ns, _reserved, hash_alg = r.string(), r.string(), r.string(), r.string()
        s = _Reader(r.string())
        sig_type, sig = s.string(), s.string()
        if not (r.done() and s.done()):
            raise ValueError("trailing data")
    except (ValueError, binascii.Error):
        raise bad("signature is damaged; sign the file again with `hxref sign`") from None
    try:
        signer = PublicKey.from_blob(key_blob, source=source)
    except InvalidInput as exc:
        raise bad(f"signature was made with an unsupported key ({exc.message})") from None
    if ns != namespace.encode("utf-8"):
        shown = ns.decode("utf-8", "replace")
        raise bad(f"signature is for namespace {shown!r}, not {namespace!r}; "
                  f"sign with `hxref sign` or `ssh-keygen -Y sign -n {namespace}`")
    alg = hash_alg.decode("ascii", "replace")
    if alg not in _HASHES:
        raise bad(f"signature uses hash {alg!r}; only sha256 and sha512 are accepted, sign the file again")
    if sig_type != _KEY_TYPE or len(sig) != 64:
        raise bad("signature is damaged; sign the file again with `hxref sign`")
    try:
        _ed25519(signer.raw).verify(sig, _signed_data(ns, alg, message))
    except (InvalidSignature, ValueError):
        raise bad("signature does not match the file: it was changed after signing; "
                  "undo the change or sign it again") from None
    if expected is not None:
        if signer != expected:
            raise InvalidInput(f"signed by key {signer.fingerprint()}, but the expected key is "
                               f"{expected.fingerprint()}; sign with the side's own key",
                               code="E202", file=source)
        return expected
    return signer


# -- signatures inside YAML files ---------------------------------------------

def _payload(line: str) -> str | None:
    """A block line without its ``#`` (and one space) and trailing blanks, or None."""
    if not line.startswith("#"):
        return None
    rest = line[1:]
    return (rest[1:] if rest.startswith(" ") else rest).rstrip(" \t")


def split_signed_text(text: str) -> tuple[str, str | None]:
    """Split a signed file into (body, armored signature); (text, None) if no block ends it."""
    text = _normalise(text)
    lines = text.split("\n")
    end = len(lines) - 1
    while end >= 0 and not lines[end].strip(" \t"):
        end -= 1
    if end < 2 or _payload(lines[end]) != _END:
        return text, None
    begin = end - 1
    while begin >= 0 and _B64_LINE.fullmatch(_payload(lines[begin]) or ""):
        begin -= 1
    if begin < 0 or begin == end - 1 or _payload(lines[begin]) != _BEGIN:
        return text, None
    body = "".join(line + "\n" for line in lines[:begin])
    block = [_payload(line) for line in lines[begin:end + 1]]      # each one a "#" line (checked above)
    armored = "\n".join(p for p in block if p is not None) + "\n"
    return body, armored


def _damaged_block_line(text: str, comments_only: bool = False) -> int | None:
    """The 1-based line of a BEGIN marker left in a text (a block that did not parse)."""
    for number, line in enumerate(text.split("\n"), 1):
        if _BEGIN in line and (not comments_only or line.lstrip().startswith("#")):
            return number
    return None


def embed_signature(body: str, armored: str) -> str:
    """``body`` followed by the armored block as ``# `` comment lines."""
    if body and not body.endswith("\n"):
        body += "\n"
    block = [line.strip() for line in _normalise(armored).strip().split("\n")]
    return body + "".join(f"# {line}\n" for line in block)


def sign_text(text: str, key: Key) -> str:
    """Sign a file's text: drop any old block, sign the body, append the new block."""
    body, _ = split_signed_text(text)
    if body and not body.endswith("\n"):
        body += "\n"
    line = _damaged_block_line(body, comments_only=True)
    if line is not None:
        raise InvalidInput("the file holds a damaged signature block; delete it and sign again",
                           code="E201", line=line)
    return embed_signature(body, key.sign(_utf8(body, "<input>")))


def verify_text(text: str, *, source: str, expected: PublicKey | None = None,
                detached: str | None = None) -> tuple[PublicKey, str]:
    """Check a signed file's text; return (signer, body).

    With ``detached`` (the text of a ``.sig`` file) the message is the whole
    text with normalised line endings (or, failing that, the text exactly as
    given, which is what ``ssh-keygen -Y verify`` checks).
    """
    norm = _normalise(text)
    if detached is not None:
        try:
            signer = sshsig_verify(detached, _utf8(norm, source), expected=expected, source=source)
        except InvalidInput as exc:
            if exc.code != "E201" or norm == text:
                raise
            signer = sshsig_verify(detached, _utf8(text, source), expected=expected, source=source)
        return signer, norm
    body, armored = split_signed_text(norm)
    if armored is None:
        line = _damaged_block_line(norm)
        if line is not None:
            raise InvalidInput("signature block is damaged or is not at the end of the file; "
                               "sign the file again with `hxref sign`", code="E201", file=source, line=line)
        raise InvalidInput("file is not signed", code="E200", file=source,
                           hint=f"sign it with `hxref sign {source}`")
    line = body.count("\n") + 1
    try:
        signer = sshsig_verify(armored, _utf8(body, source), expected=expected, source=source)
    except InvalidInput as exc:
        raise exc.at(line=line) from None
    return signer, body
