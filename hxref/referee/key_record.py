"""What each of this user's keys has signed for: the games it joined, the dice links it gave and
the last head it signed against (SECURITY.md, "What a key signs").

One record per key under ``$HXREF_HOME/keys/``, named by the hash of the key's fingerprint, read
and written as the kept heads are (:func:`hxref.gamefile.read_record`, :func:`hxref.gamefile.write_record`:
this user's own 0700 folder, this user's files only)::

    {"fingerprint": "SHA256:...",
     "games": {IDENTITY: {"game": LABEL, "mode": "open", "side": "union", "nonce": HEX, "tip": HEX,
                          "link": 3, "head": "HASH@SEQ", "umpire": "ssh-ed25519 ..."}}}

``link`` is the highest index of the key's dice chain for that game it has signed, ``head`` the
last head it signed a file against, ``umpire`` the umpire's public key of an umpired game joined
from a template that carried the game's first event (whose hash the identity is): the only key
whose signed view of that game (:mod:`hxref.report.side_view`) this user believes.  hxref reads the record before it signs:

* a join, for an identity the key joined already, is refused: a game re-made with an old identity
  (its first event copied) would otherwise get a second join, and whoever holds both could choose;
* a file from a template (umpired games: the player holds no game file, the template names the
  identity and the link's index) is refused for an identity the key never joined, for one it joined
  in an open game, and for a link past the next one (an earlier one is public already);
* a file written from a game file is refused when the last head the key signed for that identity is
  not in the game's history: a fork, or the game re-made from its start with the key's own earlier
  files spliced in.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..base.home import home, read_record, write_record
from . import trust as protocol
from ..base.errors import InvalidInput

CODE = "E206"


def _path(fingerprint: str) -> Path:
    return home() / "keys" / f"{hashlib.sha256(fingerprint.encode('utf-8')).hexdigest()[:32]}.json"


def _games(fingerprint: str) -> dict[str, dict]:
    data = read_record(_path(fingerprint))
    games = data.get("games") if isinstance(data, dict) and data.get("fingerprint") == fingerprint else None
    return {k: v for k, v in games.items() if isinstance(v, dict)} if isinstance(games, dict) else {}


def joined(fingerprint: str, identity: str) -> dict | None:
    """What the key ``fingerprint`` recorded of the game ``identity``, or None if it never joined it."""
    return _games(fingerprint).get(identity)


def _highest(entry: Mapping[str, Any]) -> int:
    """The highest link index the key signed for the game of ``entry`` (0: none yet)."""
    link = entry.get("link")
    return link if isinstance(link, int) else 0


def _store(fingerprint: str, identity: str, entry: dict) -> None:
    games = _games(fingerprint)
    games[identity] = entry
    write_record(_path(fingerprint), {"fingerprint": fingerprint, "games": games})


def check_new_join(fingerprint: str, identity: str, label: str) -> None:
    """Refuse to sign a second join of one identity (E206)."""
    old = joined(fingerprint, identity)
    if old is not None:
        raise InvalidInput(f"not signed: your key joined a game with this identity ({identity[:16]}, labelled "
                           f"{old.get('game')!r}, as {old.get('side')}) already; a second join would give a "
                           f"second dice chain for one game, and a game re-made with an old identity (labelled "
                           f"{label!r} here) replays the files of the first", code=CODE,
                           hint="send the join file you wrote then; a new game has a new identity")


def note_join(fingerprint: str, identity: str, *, game: str, mode: str, side: str, nonce: str, tip: str,
              head: str, umpire: str | None = None) -> None:
    """Record the key's join of ``identity``, before its file is written: hxref signs no join it
    cannot record (E510), since the record is what refuses a second one; a file that then cannot be
    written takes its record back (:func:`forget_join`)."""
    entry = {"game": game, "mode": mode, "side": side, "nonce": nonce, "tip": tip, "link": 0, "head": head}
    _store(fingerprint, identity, {**entry, "umpire": umpire} if umpire else entry)
    kept = joined(fingerprint, identity)
    if kept is None or kept.get("nonce") != nonce:
        raise InvalidInput(f"not signed: the record of your join cannot be kept in {_path(fingerprint).parent} "
                           "(it must be a folder of yours that only you may write)", code="E510",
                           hint="set HXREF_HOME to such a folder")


def joined_as(identity: str, side: str) -> tuple[str, dict] | None:
    """(fingerprint, record) of a key of this user that joined the umpired game ``identity`` as
    ``side``; None when none did."""
    folder = home() / "keys"
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return None
    for path in paths:
        data = read_record(path)
        games = data.get("games") if isinstance(data, dict) else None
        entry = games.get(identity) if isinstance(games, dict) else None
        if isinstance(entry, dict) and entry.get("side") == side and entry.get("mode") == "umpired" \
                and isinstance(data.get("fingerprint"), str) and path == _path(data["fingerprint"]):
            return data["fingerprint"], entry
    return None


def umpire_of(identity: str, side: str) -> str | None:
    """The umpire's public key (its line) that a key of this user recorded when it joined the
    umpired game ``identity`` as ``side`` from a template carrying the game's first event; None
    when no key of this user did."""
    found = joined_as(identity, side)
    umpire = found[1].get("umpire") if found else None
    return umpire if isinstance(umpire, str) else None


def forget_join(fingerprint: str, identity: str, nonce: str) -> None:
    """Drop the record of a join whose file could not be written (nothing was signed away), so the
    key can join that game once its file can be written."""
    games = _games(fingerprint)
    if games.get(identity, {}).get("nonce") == nonce:
        del games[identity]
        write_record(_path(fingerprint), {"fingerprint": fingerprint, "games": games})


def template_nonce(fingerprint: str, identity: str, side: str, index: int | None) -> str:
    """The join nonce a template's file is signed with, after the template's checks (E206): the key
    joined ``identity`` as ``side`` in an umpired game, and ``index`` (the dice link the template
    asks for, None for none) is at most one past the highest it has signed."""
    entry = joined(fingerprint, identity)
    if entry is None:
        raise InvalidInput(f"not signed: your key never joined the game this template names (identity "
                           f"{identity[:16]}); a template is only for a game you joined", code=CODE,
                           hint="join first, from the umpire's join template; a template for a game you "
                                "did not join is a forgery")
    if entry.get("mode") != "umpired" or entry.get("side") != side:
        raise InvalidInput(f"not signed: your key joined the game this template names ({entry.get('game')!r}) "
                           f"as {entry.get('side')} in an {entry.get('mode')} game; a template is only for an "
                           f"umpired game, for your own side", code=CODE,
                           hint="write your files from the game file: hxref answer/commit GAME --side ...")
    highest = _highest(entry)
    if index is not None and index > highest + 1:
        raise InvalidInput(f"not signed: the template asks for link {index} of your dice chain for "
                           f"{entry.get('game')!r}, but you have signed links up to {highest} only: a link "
                           f"past the next one would give away every link before it", code=CODE,
                           hint="answer the earlier decisions first; a template that skips links is a forgery")
    nonce = entry.get("nonce")
    if not isinstance(nonce, str):
        raise InvalidInput("not signed: the record of your join of this game is damaged", code=CODE)
    return nonce


def history_problem(fingerprint: str, identity: str, log: Sequence[Mapping[str, Any]],
                    nonce: str | None = None) -> str | None:
    """Why the key must not sign for this history of ``identity``: the game holds another join nonce
    of the key's than the one it joined with (``nonce``, where the game holds one), or the last head
    it signed against for it is not in ``log`` (a fork, or the game re-made from its start); None
    when it may."""
    entry = joined(fingerprint, identity)
    if entry is None:
        return None
    if nonce is not None and nonce != entry.get("nonce"):
        return (f"this game holds a join of yours (nonce {nonce[:16]}) that is not the one your key signed for it "
                f"(nonce {str(entry.get('nonce'))[:16]}): its chain is not yours to give links from")
    head = protocol.parse_head(entry.get("head"))
    if head is None:
        return None
    h, seq = head
    if seq <= len(log) and log[seq - 1].get("hash") == h:
        return None
    return (f"your key signed for this game (labelled {entry.get('game')!r}) against head {h[:16]}@{seq}, which "
            "this game file's history does not hold: a fork, or the game re-made from its start with your "
            "earlier files")


def check_history(fingerprint: str, identity: str, log: Sequence[Mapping[str, Any]], path: str,
                  nonce: str | None = None) -> None:
    """Refuse to sign for a history that forks from what the key signed for ``identity``, or that
    holds another join of it (E206)."""
    problem = history_problem(fingerprint, identity, log, nonce)
    if problem:
        raise InvalidInput(f"not signed: {problem}", code=CODE, file=path,
                           hint="compare with the copy you trust; sign nothing in this one")


def note_signed(fingerprint: str, identity: str, head: str, link: int | None = None) -> None:
    """Record a file the key signed for ``identity``: its head, and its dice link's index (a game
    the key did not join through this record is not recorded)."""
    entry = joined(fingerprint, identity)
    if entry is None:
        return
    entry = dict(entry)
    entry["head"] = head
    if link is not None:
        entry["link"] = max(link, _highest(entry))
    _store(fingerprint, identity, entry)
