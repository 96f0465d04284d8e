"""Salted Merkle commitments to a side's organisation boxes: commit to them all at once, open them
one at a time.

A side that keeps its Army Organization Display to itself commits, after every change, to the
mapping ``{box name: plain JSON value}`` by one root hash; the rules later reveal single boxes (the
forces in a combat), each as an :class:`Opening` checked at once against that root by
:func:`verify`.  The box names are public (the verifier holds the list); their values are not.

The tree is the Merkle Tree Hash of RFC 6962 section 2.1 (restated in RFC 9162 section 2.1): the
leaves in the sorted order of their names (Python's order of strings, by code point), split at the
largest power of two smaller than their number, with a domain byte apart for leaves and interior
nodes::

    leaf = sha256(0x00 || "hxref-box/1" || 0x00 || uint32 length || name (UTF-8) || salt (32 bytes)
                  || canonical JSON of the value)
    node = sha256(0x01 || left || right)

An opening carries the name, the salt, the value, the leaf's index and the tree's size, and the
audit path of RFC 6962 section 2.1.1 (the siblings from the leaf up); :func:`verify` is the
inclusion-proof check of RFC 9162 section 2.1.3.2, and also insists that the name is in the public
list at its sorted position and that the size is the list's length, so a committer who put two
leaves of one name in his tree cannot open whichever suits him.

Each leaf has its own salt, derived by :func:`salts` from the side's secret and a label that names
the commitment (the game's head it is made at): a box that did not change gets a new leaf in every
commitment, so the hashes tell the opponent neither a small value nor whether a box changed.

At the end a side's proof gives, for every root it signed, the leaf hashes of its tree
(:meth:`Tree.leaves`, written by :func:`pack_leaves`): :func:`root_of_leaves` rebuilds the root from
them, and the verifier, who then knows every box and salt, finds the first leaf that is not the true
one, so a false root is named by its box even when that box was never opened.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base.canon import canonical_json, is_hex
from ..base.errors import InvalidInput

LEAF_DOMAIN = b"hxref-box/1"
SALT_DOMAIN = b"hxref-salt/1"
SALT_BYTES = 32
HASH_BYTES = 32
#: the most boxes one commitment holds (an AOD has tens); bounds what an opening may claim
MAX_LEAVES = 1 << 16

_FIELDS = ("name", "salt", "value", "index", "size", "path")


# --- hashes -------------------------------------------------------------------------------------

def _leaf(name: str, salt: bytes, value_json: bytes) -> bytes:
    encoded = name.encode("utf-8")
    return hashlib.sha256(b"\x00" + LEAF_DOMAIN + b"\x00" + len(encoded).to_bytes(4, "big") + encoded
                          + salt + value_json).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _salt_bytes(salt_hex: str) -> bytes:
    if not is_hex(salt_hex, SALT_BYTES):
        raise ValueError("a box's salt must be 32 bytes written as 64 lower-case hex digits")
    return bytes.fromhex(salt_hex)


def leaf_hash(name: str, salt_hex: str, value: Any) -> str:
    """The leaf (hex) of box ``name`` holding ``value`` under ``salt_hex``."""
    return _leaf(name, _salt_bytes(salt_hex), canonical_json(value)).hex()


def salts(secret: bytes, label: str, names: Iterable[str]) -> dict[str, str]:
    """Each box's salt (hex) in the commitment ``label``:
    HMAC-SHA256(secret, "hxref-salt/1" || 0x00 || label || 0x00 || name)."""
    if "\x00" in label:
        raise ValueError("a commitment's label cannot hold a NUL character")
    prefix = SALT_DOMAIN + b"\x00" + label.encode("utf-8") + b"\x00"
    return {name: hmac.new(secret, prefix + name.encode("utf-8"), hashlib.sha256).hexdigest()
            for name in sorted(names)}


# --- the tree's shape (RFC 6962 section 2.1) ----------------------------------------------------

def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n`` > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def path_length(index: int, size: int) -> int:
    """How many hashes the audit path of leaf ``index`` holds in a tree of ``size`` leaves."""
    length, last = 0, size - 1
    while last:
        if index & 1 or index != last:
            length += 1
        index >>= 1
        last >>= 1
    return length


# --- committing and opening ---------------------------------------------------------------------

@dataclass(frozen=True)
class Opening:
    """One box revealed: its name, salt and value, its leaf's place in the tree and the audit path
    (hex, from the leaf's sibling up to the root's child)."""

    name: str
    salt: str
    value: Any
    index: int
    size: int
    path: tuple[str, ...]

    def to_data(self) -> dict[str, Any]:
        """Plain data for a YAML or JSON file; :meth:`from_data` reads it back."""
        return {"name": self.name, "salt": self.salt, "value": self.value, "index": self.index,
                "size": self.size, "path": list(self.path)}

    @classmethod
    def from_data(cls, data: Any, source: str) -> "Opening":
        """An opening read strictly from plain data: every field present and of its type, no other
        key, hashes as lower-case hex of 32 bytes, the index inside the size and the path as long as
        the index and size make it.  Anything else is an :class:`InvalidInput` naming ``source``."""
        def bad(message: str, at: str | None = None, code: str = "E112") -> InvalidInput:
            return InvalidInput(message, code=code, file=source, path=at)

        if not isinstance(data, Mapping):
            raise bad(f"an opening is a mapping of {', '.join(_FIELDS)}, not {_kind(data)}")
        for key in data:
            if key not in _FIELDS:
                raise bad(f"unknown key {_quote(key)} in an opening (its keys are {', '.join(_FIELDS)})",
                          code="E110")
        for key in _FIELDS:
            if key not in data:
                raise bad(f"an opening lacks `{key}`", key, "E111")
        name, salt, index, size, path = (data[k] for k in ("name", "salt", "index", "size", "path"))
        if not isinstance(name, str) or not name:
            raise bad(f"`name` must be a box's name, not {_kind(name)}", "name")
        if not is_hex(salt, SALT_BYTES):
            raise bad("`salt` must be 32 bytes written as 64 lower-case hex digits", "salt")
        for key, number in (("index", index), ("size", size)):
            if isinstance(number, bool) or not isinstance(number, int):
                raise bad(f"`{key}` must be a whole number, not {_kind(number)}", key)
        if not 1 <= size <= MAX_LEAVES:
            raise bad(f"`size` must be between 1 and {MAX_LEAVES} boxes", "size")
        if not 0 <= index < size:
            raise bad(f"`index` must be between 0 and {size - 1} (the size less one)", "index")
        if not isinstance(path, (list, tuple)) or not all(is_hex(h, HASH_BYTES) for h in path):
            raise bad("`path` must be a list of hashes, each 64 lower-case hex digits", "path")
        if len(path) != path_length(index, size):
            raise bad(f"`path` holds {len(path)} hashes where leaf {index} of {size} has "
                      f"{path_length(index, size)}", "path")
        try:
            value = json.loads(canonical_json(data["value"]))
        except (TypeError, ValueError, RecursionError):
            raise bad("`value` must be plain data (mappings with text keys, lists, text, numbers, "
                      "true, false, null)", "value") from None
        return cls(name, salt, value, index, size, tuple(path))


@dataclass(frozen=True)
class Tree:
    """A commitment to every box of a mapping: :attr:`root` (hex) is what a side signs,
    :meth:`open` reveals one box.  The values and salts stay out of the repr."""

    names: tuple[str, ...]
    root: str
    _salts: tuple[str, ...] = field(repr=False, compare=False)
    _values: tuple[bytes, ...] = field(repr=False, compare=False)
    _nodes: Mapping[tuple[int, int], bytes] = field(repr=False, compare=False)

    def open(self, name: str) -> Opening:
        """Box ``name`` revealed, with its audit path (a KeyError for a name the tree lacks)."""
        try:
            index = self.names.index(name)
        except ValueError:
            raise KeyError(name) from None
        siblings = []
        lo, hi = 0, len(self.names)
        while hi - lo > 1:
            mid = lo + _split(hi - lo)
            if index < mid:
                siblings.append(self._nodes[mid, hi])
                hi = mid
            else:
                siblings.append(self._nodes[lo, mid])
                lo = mid
        return Opening(name, self._salts[index], json.loads(self._values[index]), index,
                       len(self.names), tuple(h.hex() for h in reversed(siblings)))

    def leaves(self) -> tuple[bytes, ...]:
        """The leaf hashes, in the order of :attr:`names` (what a side's proof gives of each root it
        signed: :func:`root_of_leaves` rebuilds the root from them)."""
        return tuple(self._nodes[i, i + 1] for i in range(len(self.names)))


def commit(boxes: Mapping[str, Any], salts: Mapping[str, str]) -> Tree:
    """The commitment to ``boxes`` (box name: plain JSON value), each leaf salted by
    ``salts[name]`` (hex; :func:`salts` makes them)."""
    names = tuple(sorted(boxes))
    if len(names) > MAX_LEAVES:
        raise ValueError(f"a commitment holds at most {MAX_LEAVES} boxes, not {len(names)}")
    missing = [n for n in names if n not in salts]
    if missing:
        raise ValueError(f"no salt for the boxes {', '.join(missing)}")
    values = tuple(canonical_json(boxes[n]) for n in names)
    leaves = [_leaf(n, _salt_bytes(salts[n]), v) for n, v in zip(names, values)]
    root, nodes = _hash_tree(leaves)
    return Tree(names, root.hex(), tuple(salts[n] for n in names), values, nodes)


def root_of_leaves(leaves: Sequence[bytes]) -> str:
    """The root (hex) of the tree over ``leaves`` (32-byte leaf hashes, in the order of their box
    names): what a side signed, rebuilt from the leaves its proof gives."""
    return _hash_tree(leaves)[0].hex()


def _hash_tree(leaves: Sequence[bytes]) -> tuple[bytes, dict[tuple[int, int], bytes]]:
    """The Merkle Tree Hash over ``leaves`` and every node of it, by the span of leaves it covers."""
    nodes: dict[tuple[int, int], bytes] = {}

    def mth(lo: int, hi: int) -> bytes:
        if hi - lo == 1:
            digest = leaves[lo]
        else:
            mid = lo + _split(hi - lo)
            digest = _node(mth(lo, mid), mth(mid, hi))
        nodes[lo, hi] = digest
        return digest

    return (mth(0, len(leaves)) if leaves else hashlib.sha256(b"").digest()), nodes


# --- the leaves a proof gives -------------------------------------------------------------------

def pack_leaves(leaves: Sequence[bytes]) -> str:
    """``leaves`` as a proof file carries them: the 32-byte hashes one after the other, in base64."""
    return base64.b64encode(b"".join(leaves)).decode("ascii")


def unpack_leaves(text: Any) -> tuple[bytes, ...]:
    """The leaves :func:`pack_leaves` wrote; a ValueError, saying why, for anything else (not
    base64, not whole hashes, none, or more than :data:`MAX_LEAVES`)."""
    if not isinstance(text, str):
        raise ValueError(f"leaves are written as one base64 text, not {_kind(text)}")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise ValueError("leaves are not base64 text") from None
    if not raw or len(raw) % HASH_BYTES or len(raw) > HASH_BYTES * MAX_LEAVES:
        raise ValueError(f"leaves are 1 to {MAX_LEAVES} hashes of {HASH_BYTES} bytes; these are {len(raw)} bytes")
    return tuple(raw[i:i + HASH_BYTES] for i in range(0, len(raw), HASH_BYTES))


def verify(root_hex: str, names: Sequence[str], opening: Opening) -> bool:
    """True when ``opening`` reveals a box of the commitment ``root_hex`` to the public list of box
    ``names``: its name is in the list, at its sorted position, the size is the list's length, and
    the audit path leads from the leaf to the root."""
    order = sorted(names)
    if len(set(order)) != len(order):
        raise ValueError("the public list of box names holds a name twice")
    if opening.name not in order or opening.size != len(order) or opening.index != order.index(opening.name):
        return False
    if len(opening.path) != path_length(opening.index, opening.size):
        return False
    try:
        digest = _leaf(opening.name, _salt_bytes(opening.salt), canonical_json(opening.value))
        path = [bytes.fromhex(h) for h in opening.path]
    except (TypeError, ValueError, RecursionError):
        return False
    fn, sn = opening.index, opening.size - 1
    for sibling in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            digest = _node(sibling, digest)
            while fn and not fn & 1:
                fn >>= 1
                sn >>= 1
        else:
            digest = _node(digest, sibling)
        fn >>= 1
        sn >>= 1
    return sn == 0 and digest.hex() == root_hex


def _kind(value: Any) -> str:
    """What a value read from a file is, in a user's words."""
    for kinds, word in ((bool, "true or false"), ((int, float), "a number"), (str, "text"),
                        (type(None), "null"), ((list, tuple), "a list"), (Mapping, "a mapping")):
        if isinstance(value, kinds):
            return word
    return type(value).__name__


def _quote(key: Any) -> str:
    text = repr(key)
    return text if len(text) <= 40 else text[:37] + "..."
