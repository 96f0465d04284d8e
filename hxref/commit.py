"""Commit-reveal for simultaneous secret choices (design section 5).

A side first sends a signed *commitment*::

    sha256("hxref-commit/1" || canonical JSON of the choice || 32-byte salt)

and, once every side's commitment is recorded, a signed *reveal* with the
choice and the salt.  The engine (:mod:`hxref.engine`) refuses a reveal that
does not match, a reveal before all commitments are in, a second commitment
for the same decision, and a commitment seen before anywhere in the game
(replayed, or copied from the other side to force a tie).
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any

from .canon import canonical_json, is_hex

COMMIT_DOMAIN = b"hxref-commit/1"
SALT_BYTES = 32


def new_salt() -> str:
    """A fresh random salt (hex); salts are secrets, never dice."""
    return secrets.token_hex(SALT_BYTES)


def commitment(choice: Any, salt_hex: str) -> str:
    """The commitment (hex) to ``choice`` under ``salt_hex``."""
    if not is_hex(salt_hex, SALT_BYTES):
        raise ValueError("the salt must be 32 bytes written as 64 lower-case hex digits")
    data = COMMIT_DOMAIN + canonical_json(choice) + bytes.fromhex(salt_hex)
    return hashlib.sha256(data).hexdigest()


def matches(commitment_hex: str, choice: Any, salt_hex: str) -> bool:
    """True when ``choice`` and ``salt_hex`` open ``commitment_hex``."""
    try:
        return secrets.compare_digest(commitment(choice, salt_hex), commitment_hex)
    except (ValueError, TypeError):
        return False
