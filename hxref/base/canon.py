"""Canonical JSON and hashes: the one byte form that every hash and
commitment is computed over.

Canonical JSON here is UTF-8, keys sorted, no insignificant white space, no
NaN or infinities.  Two equal values always give the same bytes.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

_HEX = re.compile(r"[0-9a-f]*")


def canonical_json(value: Any) -> bytes:
    """The canonical byte form of a JSON-compatible value."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hash_value(value: Any) -> str:
    """sha256 (hex) of the canonical JSON of ``value``."""
    return sha256_hex(canonical_json(value))


def is_hex(text: Any, nbytes: int) -> bool:
    """True when ``text`` is exactly ``nbytes`` bytes written as lower-case hex."""
    return isinstance(text, str) and len(text) == 2 * nbytes and _HEX.fullmatch(text) is not None


def random_hex(nbytes: int) -> str:
    """``nbytes`` random bytes from the system's secure source, as hex (what ``secrets.token_hex``
    gives, without importing ``secrets`` and its ``random`` and ``hmac`` at every start)."""
    return os.urandom(nbytes).hex()
