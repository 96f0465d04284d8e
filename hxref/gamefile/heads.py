"""The heads this machine has seen: a game file that does not extend the last head kept for it
is refused, so a rollback or a rewritten history cannot slip in unnoticed (SECURITY.md, "Signed
history"); and the file this machine last wrote or proved there, whose header it may believe.

One small JSON file per game file under ``$HXREF_HOME/heads/`` (default
``~/.local/state/hxref``), named by the hash of the file's real path and holding the game's
identity, the last head saved or proved there and the sha256 of that whole file:
``{"path", "identity", "seq", "hash", "recent", "file"}``.  It is this user's own record, outside
the game's folder, so whoever holds or edits the game file cannot edit it along with the game; a
game rewritten from its first event (a new identity) put at the same path is refused like a
rollback; and a file is believed without a replay only when its bytes are the very bytes this
machine wrote or proved (:meth:`hxref.referee.engine.Engine.load`, :func:`vouches`).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..base.errors import InvalidInput
from ..base.home import home, read_record, write_record


#: how many of the last saved heads a record keeps, to say where a fork leaves the history
RECENT = 64


def _record(path: str | Path) -> Path:
    real = os.path.realpath(path)
    return home() / "heads" / f"{hashlib.sha256(real.encode('utf-8')).hexdigest()[:32]}.json"


def known(path: str | Path) -> dict | None:
    """The record kept for the game file at ``path``: {path, identity, seq, hash}, or None."""
    data = read_record(_record(path))
    ok = isinstance(data, dict) and isinstance(data.get("seq"), int) and isinstance(data.get("hash"), str)
    return data if ok else None


def check_extends(identity: str, path: str | Path, log: Sequence[Mapping[str, Any]]) -> None:
    """Refuse a log that does not extend the head kept for ``path``: name both heads and where
    the file's history leaves the kept one."""
    kept = known(path)
    if not kept:
        return
    if kept.get("identity") != identity:
        raise InvalidInput(f"this file holds another game (identity {identity[:16]}) than the one this machine "
                           f"kept here (identity {str(kept.get('identity'))[:16]}, head {kept['hash'][:16]}@"
                           f"{kept['seq']}): a game rewritten from its start, or another game put in its place",
                           code="E506", file=str(path),
                           hint="compare with the copy you trust; `hxref audit GAME --accept-head` records it "
                                "after a clean audit if you replaced it on purpose")
    seq, want = kept["seq"], kept["hash"]          # both checked by known()
    if seq <= len(log) and log[seq - 1].get("hash") == want:
        return
    recent = [(s, h) for s, h in kept.get("recent", []) if isinstance(s, int) and s > 0]
    agreed = [s for s, h in recent if s <= len(log) and log[s - 1].get("hash") == h]
    since = ""
    if agreed:
        last = max(agreed)
        parted = min([s for s, _ in recent if s > last] or [seq])
        since = (f"; the two histories agree up to event {last} and part at or before event {parted}"
                 if parted > last + 1 else f"; the two histories part at event {parted}")
    if seq > len(log):
        where = (f"the file has only {len(log)} events, head {log[-1]['hash'][:16]}@{len(log)}" if log
                 else "the file has no events")
    else:
        where = f"the file's event {seq} is {str(log[seq - 1].get('hash'))[:16]}@{seq}"
    where += since
    raise InvalidInput(f"this game file does not extend the head this machine last saw, "
                       f"{want[:16]}@{seq}: {where}; a rollback or another history (a fork)",
                       code="E506", file=str(path),
                       hint="compare with the copy you trust; if you restored a backup on purpose, "
                            "`hxref audit GAME --accept-head` records its head after a clean audit")


def vouches(path: str | Path, digest: str) -> bool:
    """Whether the game file at ``path``, whose bytes have the sha256 ``digest``, is the very file
    this machine last wrote or proved there (then its header is the replay of its log)."""
    kept = known(path)
    return kept is not None and isinstance(digest, str) and len(digest) == 64 and kept.get("file") == digest


def remember(identity: str, path: str | Path, seq: int, hash_hex: str, digest: str | None = None) -> None:
    """Keep ``hash_hex@seq`` as the head of the game file at ``path``, and ``digest`` as the sha256
    of the file this machine wrote or proved there (None: no file is vouched for).  Best effort: a
    machine where the record cannot be written still plays, it only keeps no history and proves
    the game again at every command."""
    rec = _record(path)
    old = known(path) or {}
    recent = old.get("recent", []) if old.get("identity") == identity else []
    # the last heads saved here, so a fork can be placed: where the file leaves this history
    recent = [x for x in recent if isinstance(x, list) and len(x) == 2 and x[0] < seq][-(RECENT - 1):] + [[seq, hash_hex]]
    data = {"path": os.path.realpath(path), "identity": identity, "seq": seq, "hash": hash_hex, "recent": recent,
            "file": digest}
    write_record(rec, data)


def forget(path: str | Path) -> None:
    """Drop the record of ``path`` (a new game is made there)."""
    with contextlib.suppress(OSError):
        _record(path).unlink()
