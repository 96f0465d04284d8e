"""The PBEM core: creating games, accepting signed files, resolving decisions with verifiable
dice, and the log that ``hxref audit`` replays (the protocol: SECURITY.md, "The protocol").

A game's identity is the hash of its first event, ``game.created``, which holds a random
nonce, every participant's key, the scenario, the charts the rules read during play
(:mod:`hxref.kit.data`: every system call runs with them, live and in replay), the options and the
policy.  Every signed file names it and the head it was written against.

Files for an open decision wait in the header's *pending* area, canonically sorted, outside the
hash chain.  When the decision closes (every answer, reveal and dice link in, or a claim that
settles it), one *block* is appended: its files as ``submission`` events in canonical order
(:func:`hxref.referee.trust.canonical`), the umpire's ``link`` in umpired games, a ``resolve`` event,
then what the rules produced (``die``, ``rules``).  Nothing local (clock, arrival order, file
name) enters the chain, so two honest copies that received the same files hold the same bytes.

Live commands and the audit's replay go through the same ``_apply`` handlers; the audit
re-applies every input event to a fresh game and checks every produced event, hash for hash.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..crypto import dice as dice_mod
from ..kit import registry
from ..gamefile import heads
from . import acceptance, orders
from . import trust as protocol
from ..base.canon import canonical_json, random_hex, sha256_hex
from .claims import ClaimsMixin, _claim_text
from .shadow import PROOF, Knowledge, ShadowMixin, proof_decision
from ..base.errors import IllegalOrder, InvalidInput
from ..gamefile.game import GENESIS, Event, GameFile, new_header
from .inputs import INPUT_KINDS  # noqa: F401  (re-exported: the mail and the security tests read it here)
from .inputs import JOIN, MODES, SOLO_INPUTS, UMPIRE, check_created, check_table, participants_record, public_key
from .inputs import stored_text
from ..kit import data as data_mod
from ..kit.protocol import GameSystem, MapView, resolve_copy
from . import pinning, published
from .policy import check_policy
from .rules import GameRules
from .trust import now_iso, plus_hours, time_left as _time_left  # noqa: F401  (re-exported)
from ..kit.protocol import Decision

UNDOABLE = ("answer", "resolve")        # solo games: what `hxref undo` steps back over, one at a time


def join_decision(names: list[str]) -> Decision:
    return Decision(
        id=JOIN, sides=tuple(names), kind="join", rule="protocol: join",
        prompt="send your join file: it signs the game's identity and the tip of your dice chain "
               "(`hxref join`); the game starts when everyone has joined",
    )


@dataclass
class Receipt:
    """What a player keeps as proof that a file was accepted: its hash and the head it extends."""

    game: str
    decision: str
    side: str
    kind: str
    file_sha256: str
    head: str
    seq: int
    pending: bool = False

    def line(self) -> str:
        where = "pending, extends" if self.pending else "head"
        return (f"accepted: game {self.game} decision {self.decision} side {self.side} ({self.kind}) "
                f"file sha256:{self.file_sha256[:16]} {where} {self.head[:16]} (event {self.seq})")


@dataclass
class Resolution:
    decision: str
    rolls: list[dict] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)


def _empty_pending() -> dict:
    return {"files": [], "answers": {}, "links": {}}


class Engine(ClaimsMixin, ShadowMixin):
    """One game, in memory; :meth:`save` writes it back atomically.

    A game played with hidden armies (``--mode fog``): :class:`hxref.referee.shadow.ShadowMixin`.

    Deadlines, claims, withdrawals by consent and what is owed: :class:`hxref.referee.claims.ClaimsMixin`."""

    #: a game with hidden armies loaded for a side: that side's own file (:mod:`.fog_store`)
    store: Any = None
    #: True in the audit's replay of a whole game (:mod:`hxref.referee.audit`), where a signed time may lie
    #: further ahead of this machine's clock than in a file that arrives (:func:`protocol.latest_allowed`)
    replaying = False

    def __init__(self, gf: GameFile):
        self.gf = gf
        self.h = gf.header
        self.rules = GameRules(self.h["meta"]["system"], self.pinned_charts)

    @property
    def system(self) -> GameSystem[Any]:
        """The game's system, bound to the charts its ``game.created`` pins (:mod:`.rules`)."""
        return self.rules.system

    @property
    def title(self) -> str:
        """The system's title (its rules are not loaded for it)."""
        return self.rules.title

    def pinned_charts(self) -> dict | None:
        """The charts pinned in ``game.created``; None for a game made before charts were pinned
        (its rules read them from the disk)."""
        log = self.gf.log
        if not log or log[0].get("kind") != "game.created" or not isinstance(log[0].get("data"), dict):
            return None
        return log[0]["data"].get("charts")

    # --- accessors -------------------------------------------------------------------------
    @property
    def meta(self) -> dict:
        return self.h["meta"]

    @property
    def mode(self) -> str:
        return self.meta["mode"]

    @property
    def identity(self) -> str:
        """The game's identity: the hash of its ``game.created`` event."""
        return self.h.get("identity") or (self.gf.log[0]["hash"] if self.gf.log else GENESIS)

    @property
    def participants(self) -> dict:
        return self.h["participants"]

    @property
    def state(self) -> dict:
        """The state the rules read: the header's, or in a game with hidden armies (whose header
        holds the public part) the shadow of this copy (:meth:`shadow`)."""
        if self.fog and self.h.get("phase") not in (None, "setup"):
            return self.shadow()
        return self.h["state"]

    @property
    def awaiting(self) -> list[Decision]:
        raw = self.h["awaiting"]
        cached = getattr(self, "_awaiting_cache", None)
        if cached is None or cached[0] is not raw:
            cached = (raw, [Decision.from_dict({k: v for k, v in d.items() if k != "opened"}) for d in raw])
            self._awaiting_cache = cached
        return cached[1]

    @property
    def finished(self) -> bool:
        return self.h.get("phase") == "over"

    def sides(self) -> list[str]:
        return [n for n, p in self.participants.items() if p["role"] == "side"]

    def decision(self, decision_id: str) -> Decision | None:
        for d in self.awaiting:
            if d.id == decision_id:
                return d
        return None

    def opened(self, decision_id: str) -> dict:
        """Where ``decision_id`` opened: ``{seq, at}`` (the head, and the latest signed time of the
        block that opened it)."""
        for d in self.h["awaiting"]:
            if d["id"] == decision_id:
                return d.get("opened") or {"seq": 1, "at": self.meta.get("created")}
        return {"seq": 1, "at": self.meta.get("created")}

    def pending(self, decision_id: str) -> dict:
        return self.h["pending"].get(decision_id) or _empty_pending()

    def pending_files(self) -> list[tuple[str, dict]]:
        """(decision, file) of every file kept for an open decision: in the awaited order, each
        decision's files in canonical order."""
        pending = self.h.get("pending") or {}
        awaited = [d.id for d in self.awaiting]
        order = [d for d in awaited if d in pending] + [k for k in pending if k not in set(awaited)]
        return [(dec, f) for dec in order for f in pending[dec].get("files", [])]

    def signed_time(self, seq: int) -> str | None:
        """The game's signed time at event ``seq``: the latest of its creation time and the signed
        times of every file the log holds up to and including that event.  A file written against
        that head is signed no earlier; a decision that opens there is due from it.

        An awaited decision records the game's time where it opened (``opened``), and a file names
        a head no older than that, so only the events since the latest such mark are read."""
        start, latest = 0, None
        for d in self.h.get("awaiting") or []:
            mark = d.get("opened") or {}
            if isinstance(mark.get("seq"), int) and start < mark["seq"] <= seq and protocol.is_signed_time(mark.get("at")):
                start, latest = mark["seq"], mark["at"]
        for ev in self.gf.log[start:seq]:
            data = ev.get("data") if isinstance(ev.get("data"), dict) else {}
            if ev.get("kind") == "game.created":
                created = (data.get("meta") or {}).get("created")
                at = protocol.format_time(protocol.parse_time(str(created))) if protocol.is_time(created) else None
            elif ev.get("kind") == "submission":
                at = data.get("at")
            else:
                continue
            if isinstance(at, str) and protocol.is_signed_time(at) and (latest is None or at > latest):
                latest = at
        return latest

    def head_text(self) -> str:
        return protocol.format_head(self.gf.head, len(self.gf.log))

    @classmethod
    def load(cls, path: str | Path, side: str | None = None) -> "Engine":
        """The game at ``path``, as every command reads it: the whole file, believed only as its
        signed log gives it.  A file whose bytes are the very file this machine last wrote or
        proved there (its kept record, :func:`hxref.gamefile.heads.vouches`) is taken as it is; any other
        (the first sight of a game, a file that came by mail or by hand, an edited header, a log
        that grew elsewhere) is proved by the audit's replay first (:meth:`proved`), and kept as
        proved.  E500 when it does not check out, E506 when it does not extend the head kept.

        A game with hidden armies loaded for ``side`` is also replayed with that side's own file
        (:mod:`.fog_store`, beside the game) to know its boxes (:func:`.proof.replay_known`)."""
        gf = GameFile.load(path)
        vouched = heads.vouches(gf.path, gf.digest)
        eng = cls.proved(gf, vouched=vouched)
        if not vouched:
            # vouched for next time only when its header is, byte for byte, the one the replay writes
            heads.remember(eng.identity, gf.path, len(gf.log), gf.head,
                           gf.digest if gf.top == gf.top_bytes() else None)
        if side is not None and eng.fog:
            from . import fog_store
            from .shadow import Secrets

            p = eng.participants.get(side)
            if p is None or p.get("role") != "side":
                raise InvalidInput(f"no side {side!r} in this game; sides: {', '.join(eng.sides())}", code="E504")
            store = fog_store.read(fog_store.store_path(gf.path, side), eng.identity, side, p.get("fog"))
            eng.store = store
            eng._knowledge = eng._knowing(side, {side: Secrets(store.seed, store.sealed)})()
        return eng

    def _knowing(self, side: str | None, known: dict) -> Callable[[], Knowledge]:
        """What the copy of ``side`` (None: the public copy) knows at the file as loaded, knowing the
        secrets ``known``: as kept for this very file (:mod:`.fog_memo`), else the log replayed from
        the head kept, or from its start (and kept, when the file is vouched for)."""
        from . import fog_memo
        from .proof import replay_known

        view = GameFile(self.gf.path, new_header({"system": self.meta["system"]}, {}))
        view.log = self.gf.log[:len(self.gf.log)]
        digest = self.gf.digest

        def make() -> Knowledge:
            found = fog_memo.kept(view.path, digest, side, known, view.log)
            if found is not None and found[1] is None:
                return found[2]
            since = (found[0], found[1], found[2]) if found is not None and found[1] is not None else None
            replay = replay_known(type(self), view, known, since)
            if heads.vouches(view.path, digest):
                fog_memo.keep(view.path, digest, side, replay)
            return replay.knowledge

        return make

    @classmethod
    def proved(cls, gf: GameFile, *, vouched: bool = False) -> "Engine":
        """The game of ``gf``: unless ``vouched``, its header is the one the audit's replay of its
        log gives (:func:`hxref.referee.audit.prove`, E500 when the file does not check out); and its log
        must extend the head this machine kept for its path (E506)."""
        if not vouched:
            from .audit import prove

            gf.header = prove(gf)
        try:
            eng = cls(gf)
        except KeyError as exc:
            raise InvalidInput(f"the game file lacks {exc}", code="E500", file=str(gf.path)) from None
        except (TypeError, AttributeError):     # a header whose parts are not the mappings it holds
            raise InvalidInput("the game file's header is damaged (its meta or state is not a mapping)",
                               code="E500", file=str(gf.path)) from None
        heads.check_extends(eng.identity, gf.path, gf.log)
        if eng.fog:
            # the belief of every side's boxes is in no file: the public log replayed gives it, when
            # first asked (a copy loaded for a side replays the log with its own file instead)
            eng.know_later(eng._knowing(None, {}))
        return eng

    def save(self) -> None:
        self.gf.save()
        heads.remember(self.identity, self.gf.path, len(self.gf.log), self.gf.head, self.gf.digest)
        if self.fog and self._knowledge is not None:
            from . import fog_memo

            fog_memo.keep(self.gf.path, self.gf.digest, self.store.side if self.store else None, self)

    # --- creating a game -------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, *, system: str, scenario: str, sides: dict[str, Any], mode: str,
               umpire: Any = None, game_id: str | None = None, created: str | None = None,
               title: str | None = None, options: Sequence[str] = (), policy: dict | None = None,
               nonce: str | None = None, charts: Mapping[str, Any] | None = None) -> "Engine":
        """A new game; ``sides`` maps each side to its public key (None in solo mode); ``options``
        names the system's optional rules the players switch on (added to the scenario's own).
        ``nonce`` (64 hex digits) is for re-creating a published game such as a shipped demo; a
        new game draws a fresh random one, so its identity is new even with a reused label.
        ``charts`` (an earlier game's pinned data files, ``game.created``'s ``charts``) is what to
        play with instead of this hxref's files (``hxref new --charts-from``)."""
        if mode not in MODES:
            raise InvalidInput(f"unknown mode {mode!r}; one of {', '.join(MODES)}", code="E504")
        data = _scenario_data(registry.get(system), system, scenario, options)
        if mode == "fog":
            sysobj = registry.get(system)
            if sysobj.boxes(sysobj.setup({**copy.deepcopy(data), "table_mode": mode}), list(data["sides"])[0]) is None:
                raise InvalidInput(f"{system} keeps no hidden state: it cannot be played with hidden armies "
                                   "(--mode fog)", code="E504")
        expected = list(data["sides"])
        check_table(scenario, expected, sides, mode, umpire, nonce)
        participants = participants_record(expected, sides, umpire)
        created = created or now_iso()
        game_id = game_id or f"{system.replace('-', '')[:4]}-{created[:10]}-{random_hex(3)}"
        meta = {"game": game_id, "system": system, "scenario": scenario, "mode": mode, "created": created,
                "title": title or data.get("title", scenario)}
        policy = check_policy(policy or {})
        if policy:
            meta["policy"] = policy
        gf = GameFile(Path(path), new_header(meta, {}))
        eng = cls(gf)
        created_data = {"meta": meta, "participants": participants, "scenario": data,
                        "nonce": nonce or random_hex(32),
                        # the charts the game is played with, covered by its identity (kit.data)
                        "charts": _charts_to_pin(system, charts, data,
                                                 scenario if published.own_file(scenario) else None)}
        if mode == "solo":
            created_data["solo_seed"] = random_hex(32)
        eng._apply("game.created", None, created_data)
        return eng

    # --- the one place where events are applied (live and in replay) -----------------------
    def _apply(self, kind: str, by: str | None, data: dict, order: orders.Order | None = None,
               known_hash: str | None = None) -> None:
        """Append an input event and apply it; ``order`` passes an already parsed submission.

        The data is applied exactly as the log will hold it (canonical JSON, keys sorted), so a live
        game and its replay iterate every mapping in the same order.
        """
        if known_hash is None:
            data = json.loads(canonical_json(data))
        self.gf.append(kind, by, data, known_hash)
        handler = getattr(self, "_on_" + kind.replace(".", "_"))
        if kind == "submission":
            handler(by, data, order)
        else:
            handler(by, data)

    def _emit(self, kind: str, by: str | None, data: dict) -> Event:
        """A produced event: appended to the log, never applied from outside."""
        return self.gf.append(kind, by, data)

    def _on_game_created(self, by, data: dict) -> None:
        if len(self.gf.log) != 1:
            raise InvalidInput("game.created is only the first event of a game", code="E500")
        try:
            check_created(data)
        except InvalidInput as exc:
            raise exc.at(file=str(self.gf.path)) from None
        self.h["meta"] = copy.deepcopy(data["meta"])
        self.h["participants"] = copy.deepcopy(data["participants"])
        self.h["identity"] = self.gf.log[0]["hash"]
        self.h["scenario"] = data["scenario"]
        self.h["phase"] = "setup"
        self.h["commitments"] = []
        self.h["resolved"] = []
        if "solo_seed" in data:
            self.h["solo_seed"] = data["solo_seed"]
        chain_holders = [n for n, p in self.participants.items() if "key" in p]
        if self.meta["mode"] == "solo" or not chain_holders:
            self._start(self.meta.get("created"))
        else:
            self.h["awaiting"] = [dict(join_decision(chain_holders).to_dict(),
                                       opened={"seq": 1, "at": self.meta.get("created")})]

    def _start(self, at: str | None) -> None:
        # the scenario is kept in the log's first event; the snapshot needs it only until the start
        scenario = copy.deepcopy(self.h.pop("scenario"))
        scenario["table_mode"] = self.meta["mode"]        # open / umpired / solo / fog: who may hold secrets
        full = self.system.setup(scenario)
        self.h["state"] = self.fog_start(full) if self.fog else full
        self.h["phase"] = "playing"
        self._emit("game.started", None, {})
        self._refresh_awaiting(at)
        if self.fog:
            self.fog_mark()

    def _open_challenge(self, head: str, at: str) -> None:
        """A side's proof came before the game's end (a challenge, written at ``head`` and ``at``):
        the proof decision is awaited first, opened there, due with the deadline policy's hours
        (:mod:`.shadow`)."""
        hours = (self.meta.get("policy") or {}).get("deadline_hours")
        dd = proof_decision(self.sides()).to_dict()
        written = protocol.parse_head(head)
        dd["opened"] = {"seq": written[1] if written else len(self.gf.log), "at": at}
        dd["deadline"] = plus_hours(at, hours) if hours else None
        self.h["awaiting"] = [dd, *self.h["awaiting"]]      # a new list: `awaiting` is cached by its identity

    def _refresh_awaiting(self, at: str | None = None) -> None:
        """What the rules await now.  A newly awaited decision opens at the current head and at
        ``at``, the game's signed time there (:meth:`signed_time`: the latest signed time of the
        block that opened it, never earlier than any before it); with a deadline policy it is due
        ``deadline_hours`` after that."""
        decisions = self.system.decisions(self.state)
        if self.fog and (not decisions or PROOF in self.h["pending"]):
            # the game's end, or a challenge under way: every side's proof first
            decisions = [proof_decision(self.sides()), *decisions]
        old = {d["id"]: d for d in self.h.get("awaiting") or []}
        hours = (self.meta.get("policy") or {}).get("deadline_hours")
        out = []
        for d in decisions:
            dd = d.to_dict()
            prev = old.get(d.id)
            dd["opened"] = prev["opened"] if prev and prev.get("opened") else {"seq": len(self.gf.log), "at": at}
            if dd.get("deadline") is None:
                dd["deadline"] = (prev or {}).get("deadline") or (plus_hours(at, hours) if hours and at else None)
            out.append(dd)
        self.h["awaiting"] = out
        for stale in set(self.h["pending"]) - {d.id for d in decisions}:
            self.h["pending"].pop(stale)
        if not decisions:
            self.h["phase"] = "over"

    # --- submissions -----------------------------------------------------------------------
    def check(self, text: str, source: str, detached: str | None = None) -> orders.Order:
        """Every check of :meth:`submit`, without storing anything."""
        order = orders.parse(text, source)
        if detached is not None:
            order.armored = detached
        self._accept(order, detached is not None)
        return order

    def submit(self, text: str, source: str, detached: str | None = None) -> Receipt:
        """Check a signed file and keep it with its decision; raise an HxrefError and change nothing if
        it is bad.  A join that completes the joins, and a claim that settles the game, close their
        block at once; everything else waits for :meth:`resolve`."""
        order = self.check(text, source, detached)
        entry = self._pend(order, detached)
        if order.kind == "join" and self._joined_all():
            self._close(JOIN)
        elif order.kind == "undo" and self._undo_agreed(order.decision, order.data["target"]):
            self._close(order.decision, undo=order.data["target"])
        elif order.kind == "claim" and self._claim_forfeits(order.decision, order.data["against"]):
            self._close(order.decision)
        closed = order.decision not in self.h["pending"] or entry not in self.pending(order.decision)["files"]
        return Receipt(self.meta["game"], order.decision, order.side, order.kind, entry["sha256"],
                       self.gf.head, len(self.gf.log), pending=not closed)

    def _on_submission(self, by, data: dict, order: orders.Order | None = None) -> None:
        """A file of a block: in replay, accept it again and keep it with its decision (live,
        :meth:`_close` logs files that were kept already)."""
        if getattr(self, "_closing", False):
            return
        if order is None:
            order = orders.parse(data["file"], f"event {len(self.gf.log)}", fast=True)
            if "sig" in data:
                order.armored = data["sig"]
        if data.get("at") != order.data["at"]:
            # the game's time (signed_time) is read from the events: each must carry its file's own
            raise InvalidInput(f"event {len(self.gf.log)}: the signed time it records is not its file's",
                               code="E500")
        self._pend(order, data.get("sig"))

    def _pend(self, order: orders.Order, detached: str | None = None) -> dict:
        """Keep an accepted file with its decision, and derive what it says (answers, links)."""
        d = order.data
        pend = self.h["pending"].setdefault(order.decision, _empty_pending())
        text = stored_text(order, detached is not None)
        entry = {"party": order.side, "kind": order.kind, "sha256": sha256_hex(text.encode("utf-8")), "file": text,
                 "at": d["at"]}
        if detached is not None:
            entry["sig"] = detached
        if order.kind == "claim":
            # what the claim is about places it in the block (protocol.block_rank)
            dec = self.decision(order.decision)
            entry["owed"] = self.owed_by(d["against"], dec) if dec is not None else None
        elif order.kind == "undo":
            entry["target"] = d["target"]
        pend["files"] = protocol.canonical(pend["files"] + [entry])
        answers = pend["answers"]
        mine: dict = answers.setdefault(order.side, {}) \
            if order.kind in ("join", "commit", "reveal", "answer", PROOF) else {}
        if order.kind == "join":
            mine["joined"] = True
            p = self.participants[order.side]
            p["tip"] = p["last"] = d["tip"]
            p["nonce"] = d["nonce"]
            p["used"] = 0
            if "fog" in d:
                p["fog"] = d["fog"]
        elif order.kind == PROOF:
            mine["choice"] = {}
            if all(a["id"] != PROOF for a in self.h["awaiting"]):
                self._open_challenge(d["head"], d["at"])
        elif order.kind == "commit":
            mine["commitment"] = d["commitment"]
        elif order.kind in ("reveal", "answer"):
            mine["choice"] = d["choice"]
            if "sealed" in d:
                mine["sealed"] = d["sealed"]
            if order.kind == "reveal":
                mine["salt"] = d["salt"]
        elif order.kind == "claim":
            self._apply_claim(order.decision, order.side, d)
        elif order.kind == "undo":
            votes = pend.setdefault("undo", {}).setdefault(d["target"], [])
            votes.append(order.side)
            votes.sort()
        if "link" in d:
            pend["links"][order.side] = d["link"]
        if order.kind != "undo":
            self._drop_moot_votes(order.decision)
        return entry

    def _joined_all(self) -> bool:
        dec = self.decision(JOIN)
        answers = self.pending(JOIN)["answers"]
        return dec is not None and all(s in answers for s in dec.sides)

    def _accept(self, order: orders.Order, detached: bool = False, signer: bytes | None = None) -> None:
        """All checks of a file against the game (identity, signature, head, decision, chain,
        commit-reveal, rules).  ``signer`` is the raw key of a signature already verified (the
        audit's parallel pre-pass): then only its owner is checked here."""
        from ..crypto.signing import sshsig_verify, verify_text

        if order.identity != self.identity:
            raise order.error(InvalidInput, f"this file is for another game (identity {order.identity[:16]}, "
                              f"labelled {order.game!r}); this game is {self.identity[:16]} ({self.meta['game']!r})",
                              code="E300", path=("identity",))
        if order.game != self.meta["game"]:
            raise order.error(InvalidInput, f"this file is labelled for game {order.game!r}, not "
                              f"{self.meta['game']!r}", code="E300", path=("game",))
        p = self.participants.get(order.side)
        if p is None or "key" not in p:
            known = ", ".join(n for n, q in self.participants.items() if "key" in q) or "none with keys"
            raise order.error(InvalidInput, f"no participant {order.side!r} with a key in this game ({known})",
                              code="E302", path=("side",))
        expected = public_key(p["key"])
        if signer is not None:
            if signer != expected.raw:
                raise InvalidInput(f"signed by a key that is not {order.side}'s key", code="E202",
                                   file=order.source)
        elif order.armored is not None and not detached:
            sshsig_verify(order.armored, order.body.encode("utf-8"), expected=expected, source=order.source)
        else:   # unsigned (a clear error) or a detached signature over the whole file
            verify_text(order.raw if detached and order.raw is not None else order.text, source=order.source,
                        expected=expected, detached=order.armored if detached else None)
        if self.finished:
            raise order.error(IllegalOrder, "the game is over; nothing more is accepted", code="E309")
        dec = self.decision(order.decision)
        if dec is None and order.kind == PROOF and order.decision == PROOF and self.fog \
                and PROOF not in self.h.get("resolved", []):
            dec = self.challenge_decision(order)
        if dec is not None and dec.id != PROOF and self.fog and PROOF in self.h["pending"]:
            raise order.error(IllegalOrder, f"a challenge is under way: every side sends its proof before any file "
                              f"for {dec.id} (`hxref challenge`)", code="E308", path=("decision",))
        if dec is None:
            if order.decision in self.h.get("resolved", []):
                raise order.error(IllegalOrder, f"decision {order.decision} was already resolved; "
                                  "this file is stale or replayed", code="E301", path=("decision",))
            now = ", ".join(d.id for d in self.awaiting) or "nothing"
            raise order.error(IllegalOrder, f"no decision {order.decision!r} is awaited (awaited now: {now})",
                              code="E301", path=("decision",))
        self._check_head(order, dec)
        acceptance.check_time(self, order)
        pend = self.pending(dec.id)
        sha = sha256_hex(stored_text(order, detached).encode("utf-8"))
        if any(f["sha256"] == sha for f in pend["files"]):
            raise order.error(IllegalOrder, "this very file was accepted already", code="E303")
        if sha in self.h.get("withdrawn", []):
            raise order.error(IllegalOrder, "this file was withdrawn by consent; it cannot come back",
                              code="E301")
        acceptance.check_kind(self, order, dec, pend)

    def _check_head(self, order: orders.Order, dec: Decision) -> None:
        """A file names the head it was written against: it must be in this game's history, and
        not older than the head at which its decision opened (a signature pins the history)."""
        head = protocol.parse_head(order.data.get("head"))
        assert head is not None     # the envelope check made sure
        h, seq = head
        log = self.gf.log
        if seq < 1 or seq > len(log) or not log[seq - 1]["hash"].startswith(h) or len(h) != 64:
            raise order.error(IllegalOrder, f"this file was written against head {h[:16]}@{seq}, which is not "
                              f"in this game's history (now {self.gf.head[:16]}@{len(log)}): another history "
                              "(a fork or a rollback), or another game", code="E310", path=("head",))
        opened = self.opened(dec.id)["seq"]
        if seq < opened:
            raise order.error(IllegalOrder, f"this file was written against head {h[:16]}@{seq}, before "
                              f"decision {dec.id} opened (event {opened}): write it again against the "
                              "game as it is now", code="E310", path=("head",))

    # --- dice links ------------------------------------------------------------------------
    def dice_parties(self, dec: Decision) -> list[str]:
        """Whose links the dice of ``dec`` take, in canonical order: in open games every side; in
        umpired games the umpire and the sides that answer it (SECURITY.md: the umpire's choice)."""
        if self.mode == "solo" or not dec.dice:
            return []
        if self.mode == "umpired":
            return sorted({UMPIRE, *dec.sides})
        return sorted(self.sides())

    def links_in_answers(self, dec: Decision) -> bool:
        """Whether the answering sides give their links inside their own answer (or reveal) files.

        A link may be shown only once every choice it affects is fixed.  A reveal follows every
        commitment, and a lone answering side fixes its choice in the same file; but when several
        sides answer in the open, a later answerer would see an earlier one's link, so there every
        link comes in a roll file after all the answers.  In umpired games the sides never see
        each other's files."""
        return dec.secret or len(dec.sides) == 1 or self.mode == "umpired"

    def link_index(self, who: str, dec: Decision) -> int:
        """Which link of ``who``'s chain goes to ``dec``: bound to the decision, not to the next
        file ``who`` sends.  Links are given in the order decisions resolve (the awaited order),
        so it is the count of dice decisions ``who`` took part in before, plus those awaited
        before ``dec``, plus one."""
        p = self.participants[who]
        before = 0
        for d in self.awaiting:
            if d.id == dec.id:
                break
            if who in self.dice_parties(d):
                before += 1
        return p.get("used", 0) + before + 1

    def link_fits(self, who: str, dec: Decision, link: str) -> bool:
        """True when ``link`` is ``who``'s bound link for ``dec``: hashed forward to the last link
        given, it lands there in exactly the right number of steps."""
        p = self.participants[who]
        steps = self.link_index(who, dec) - p.get("used", 0)
        value = link
        for _ in range(steps):
            try:
                value = sha256_hex(bytes.fromhex(value))
            except ValueError:
                return False
        return value == p.get("last")

    def owes_link(self, who: str, dec: Decision) -> bool:
        return who in self.dice_parties(dec) and who not in self.pending(dec.id)["links"] \
            and not self.pending(dec.id)["answers"].get(who, {}).get("nmr")

    # --- resolution ------------------------------------------------------------------------
    def complete(self, dec: Decision) -> bool:
        answers = self.pending(dec.id)["answers"]
        return dec.id != JOIN and all("choice" in answers.get(s, {}) for s in dec.sides)

    def missing_links(self, dec: Decision) -> list[str]:
        return [w for w in self.dice_parties(dec) if self.owes_link(w, dec)]

    def ready(self) -> list[Decision]:
        """The decision that can close now: the first awaited one, once its answers are in (a block
        is closed in the awaited order, so every copy closes the same blocks in the same order)."""
        first = next((d for d in self.awaiting if d.id != JOIN), None)
        return [first] if first is not None and self.complete(first) else []

    def resolve(self, umpire_key=None) -> list[Resolution]:
        """Close every decision whose answers and links are all in, in the awaited order; raise E308
        when none is."""
        done: list[Resolution] = []
        while not self.finished:
            ready = self.ready()
            if not ready:
                break
            dec = ready[0]
            missing = self.missing_links(dec)
            umpire_owes = UMPIRE in missing
            others = [w for w in missing if w != UMPIRE]
            if others or (umpire_owes and umpire_key is None):
                if done:
                    break   # keep what was resolved; the next decision waits for its dice links
                if others:
                    raise InvalidInput(f"decision {dec.id} rolls dice and needs the dice link of "
                                       f"{', '.join(others)}: " + "; ".join(self.link_command(w, dec) for w in others),
                                       code="E308")
                raise InvalidInput(f"decision {dec.id} rolls dice: the umpire resolves it with "
                                   "`hxref resolve GAME --key UMPIRE_KEY`", code="E308")
            owed = self.owed_openings(dec)
            if owed:
                if done:
                    break
                raise InvalidInput(f"decision {dec.id} reveals boxes the rules open: it waits for "
                                   + "; ".join(f"{w}'s `open` file (`hxref open GAME --side {w} --key KEY`)"
                                               for w in owed), code="E308")
            start = len(self.gf.log)
            self._close(dec.id, umpire_key=umpire_key if umpire_owes else None)
            produced = self.gf.log[start:]
            done.append(Resolution(dec.id, [e["data"] for e in produced if e["kind"] == "die"],
                                   [e["data"] for e in produced if e["kind"] == "rules"]))
        if not done:
            raise InvalidInput("nothing to resolve yet: " + self.waiting_text(), code="E308")
        return done

    def _close(self, decision_id: str, umpire_key=None, undo: str | None = None) -> None:
        """Append a decision's block: its kept files in canonical order, the umpire's link, then the
        event that closes it (whose handler resolves the decision or withdraws a file)."""
        files = self.pending(decision_id)["files"]
        if undo is not None:
            votes = {f["sha256"] for f in files if f["kind"] == "undo" and _undo_target(f) == undo}
            files = [f for f in files if f["sha256"] == undo or f["sha256"] in votes]
        else:
            # a vote that is not agreed when its decision closes is moot: it enters no block, so
            # the block does not depend on whether it arrived before or after what made it moot
            self._drop_votes(decision_id)
            files = self.pending(decision_id)["files"]
        self._closing = True
        try:
            for f in files:
                data = {"decision": decision_id, "side": f["party"], "kind": f["kind"], "file": f["file"],
                        "sha256": f["sha256"], "at": f["at"]}
                if "sig" in f:
                    data["sig"] = f["sig"]
                self._apply("submission", f["party"], data)
        finally:
            self._closing = False
        if umpire_key is not None:
            dec = self.decision(decision_id)
            if dec is None:     # only an awaited decision closes
                raise RuntimeError(f"decision {decision_id} is not awaited")
            self._apply("link", UMPIRE, {"decision": decision_id,
                                          "link": self.next_link(UMPIRE, umpire_key, dec)})
        self._apply("resolve", None, {"decision": decision_id, **({"withdraw": undo} if undo else {})})

    def _on_link(self, by, data: dict) -> None:
        dec = self.decision(data["decision"])
        if self.mode != "umpired" or by != UMPIRE or dec is None or UMPIRE not in self.dice_parties(dec):
            raise InvalidInput("only the umpire's link for an awaited dice decision is an input event", code="E307")
        if not self.link_fits(UMPIRE, dec, data["link"]):
            raise InvalidInput(f"the umpire's dice link is not its bound link for {dec.id}", code="E307")
        self.h["pending"].setdefault(dec.id, _empty_pending())["links"][UMPIRE] = data["link"]

    def _on_resolve(self, by, data: dict) -> None:
        if data.get("withdraw"):
            return self._withdraw(data["decision"], data["withdraw"])
        if data["decision"] == JOIN:
            if not self._joined_all():
                raise InvalidInput("the joins are not all in", code="E308")
            self.h["pending"].pop(JOIN)
            self.h["resolved"].append(JOIN)
            return self._start(self.signed_time(len(self.gf.log)))
        dec = self.decision(data["decision"])
        if dec is None:
            raise InvalidInput(f"decision {data['decision']} cannot be resolved now", code="E308")
        pend = self.pending(dec.id)
        if pend.get("undo"):
            raise InvalidInput(f"a proposed withdrawal for {dec.id} that was not agreed is in its block", code="E500")
        forfeit = self._claim_forfeits(dec.id)
        if forfeit:
            return self._forfeit(dec, forfeit, pend)
        # a game with hidden armies checks the openings on the resolution itself (fog_resolve)
        if self.ready() != [dec] or self.missing_links(dec):
            raise InvalidInput(f"decision {data['decision']} cannot be resolved now", code="E308")
        if dec.kind == PROOF and self.fog:
            from .proof import close_proof

            return close_proof(self, pend)
        self.h["pending"].pop(dec.id, None)
        answers = {s: pend["answers"][s]["choice"] for s in dec.sides}
        if self.mode == "solo":
            seed = dice_mod.solo_seed(self.h["solo_seed"], self.meta["game"], dec.id)
        else:
            seed = dice_mod.dice_seed(self.identity, dec.id, sorted(pend["links"].items()))
        for claim in pend.get("claims", []):
            self._emit("rules", None, {"decision": dec.id, "nmr": True, **claim,
                                       "text": _claim_text(claim)})
        if self.fog:
            state, rolls, events = self.fog_resolve(dec, pend, seed)
        else:
            dice = dice_mod.Dice(seed)
            # on a copy: the engine's state changes only when the resolution succeeds (resolve_copy)
            state, events = self.system.resolve(resolve_copy(registry.info(self.meta["system"]), self.state), dec,
                                                answers, dice)
            if dice.rolls and not dec.dice:
                raise RuntimeError(f"rules rolled dice for {dec.id}, which was declared without dice")
            rolls = dice.rolls
        for roll in rolls:
            self._emit("die", roll.by, {"decision": dec.id, **roll.to_dict()})
        for ev in events:
            self._emit("rules", ev.get("side"), {"decision": dec.id, **ev})
        for who in self.dice_parties(dec):
            if who in pend["links"]:
                p = self.participants[who]
                p["last"] = pend["links"][who]
                p["used"] = p.get("used", 0) + 1
        self.h["state"] = state
        self.h["resolved"].append(dec.id)
        # the commitments of a closed decision are spent: one sent again is refused (E306)
        spent = [a["commitment"] for a in pend["answers"].values() if "commitment" in a]
        self.h["commitments"] = sorted(set(self.h["commitments"]) | set(spent))
        self._refresh_awaiting(self.signed_time(len(self.gf.log)))
        if self.fog:
            self.fog_mark()

    # --- solo games: answers typed at the terminal, no files, no keys -------------------------
    def answer_solo(self, side: str, decision_id: str | None, choice: dict) -> None:
        """Store ``side``'s answer in a solo game (secret decisions need no commit-reveal there)."""
        if self.mode != "solo":
            raise InvalidInput(f"a {self.mode} game takes signed files: `hxref answer --key` or `hxref commit`",
                               code="E304")
        dec = self.open_decision_for(side, decision_id, ("answer",))
        data = {"decision": dec.id, "side": side, "choice": choice}
        self._check_answer(side, data)
        self._apply("answer", side, data)

    def _check_answer(self, side: str, data: dict) -> Decision:
        dec = self.decision(data["decision"])
        if dec is None or side not in dec.sides:
            raise InvalidInput(f"nothing is awaited from {side} for {data['decision']}", code="E301")
        if "choice" in self.pending(dec.id)["answers"].get(side, {}):
            raise InvalidInput(f"{side} has already answered {dec.id}", code="E303")
        order = orders.Order(source="--choice", text="", body="", armored=None, data={"choice": data["choice"]})
        orders.check_choice(order, dec, lambda choice: self.system.check(self.state, dec, side, choice))
        orders.raise_problems(order, self.system.check(self.state, dec, side, data["choice"]))
        return dec

    def _on_answer(self, by, data: dict) -> None:
        if self.mode != "solo":
            raise InvalidInput(f"an unsigned answer speaks for {by}; a {self.mode} game takes only signed files",
                               code="E200")
        dec = self._check_answer(by, data)
        self.h["pending"].setdefault(dec.id, _empty_pending())["answers"][by] = {"choice": data["choice"]}

    # --- undo (solo games) -----------------------------------------------------------------
    def undo(self) -> dict:
        """Step back over the last answer or resolution (solo games): appends an ``undo`` event
        and rebuilds the game from every input not undone.  Returns the event undone.

        The dice of a decision depend only on the game and the decision, so answering it again
        rolls the same dice: undo cannot be used to fish for better rolls."""
        if self.mode != "solo":
            raise InvalidInput(f"undo in a {self.mode} game is a signed file: `hxref undo GAME --side S --key K`",
                               code="E504")
        undone = set(self.h.get("undone", []))
        target = next((ev for ev in reversed(self.gf.log) if ev["kind"] in UNDOABLE and ev["seq"] not in undone),
                      None)
        if target is None:
            raise InvalidInput("nothing to undo: no answer or resolution is left", code="E308")
        self._apply("undo", None, {"event": target["seq"], "kind": target["kind"],
                                   "decision": target["data"].get("decision")})
        return target

    def _on_undo(self, by, data: dict) -> None:
        if self.mode != "solo":
            raise InvalidInput(f"an unsigned undo; a {self.mode} game takes only signed files", code="E200")
        undone = set(self.h.get("undone", [])) | {int(data["event"])}
        fresh = Engine.__new__(Engine)
        fresh.gf = GameFile(self.gf.path, new_header({"system": self.meta["system"]}, {}))
        fresh.h = fresh.gf.header
        fresh.rules = self.rules
        for ev in self.gf.log:
            if ev["kind"] in SOLO_INPUTS and ev["kind"] != "undo" and ev["seq"] not in undone:
                fresh.gf.log.append(ev)
                getattr(fresh, "_on_" + ev["kind"].replace(".", "_"))(ev["by"], ev["data"])
        for key in ("state", "awaiting", "pending", "phase", "resolved", "commitments", "participants"):
            if key in fresh.h:
                self.h[key] = fresh.h[key]
        self.h["undone"] = sorted(undone)

    # --- writing files for a side ------------------------------------------------------------
    def next_link(self, who: str, key, dec: Decision) -> str:
        """``who``'s bound link for decision ``dec``."""
        p = self.participants[who]
        self.check_key(who, key)
        if not p.get("last"):
            raise InvalidInput(f"{who} has not joined this game yet: send your join file first (`hxref join`)",
                               code="E307")
        index = self.link_index(who, dec)
        if index > dice_mod.CHAIN_LENGTH:
            raise InvalidInput(f"{who}'s dice chain is used up", code="E307")
        return dice_mod.chain_link(dice_mod.chain_seed(key, self.identity, p["nonce"]), index)

    def check_key(self, who: str, key) -> None:
        p = self.participants.get(who, {})
        if p.get("key") != key.public.line() and p.get("fingerprint") != key.public.fingerprint():
            raise InvalidInput(f"that key is not {who}'s key in this game (expected {p.get('fingerprint')})",
                               code="E202")

    def tip_for(self, key, nonce: str) -> str:
        """The tip of the chain ``key`` commits to by a join with ``nonce``."""
        return dice_mod.chain_tip(dice_mod.chain_seed(key, self.identity, nonce))

    def join_fields(self, key, nonce: str | None = None) -> dict:
        """What a join file of ``key`` says beyond the envelope: the game's mode, a fresh random
        nonce (or ``nonce``), and the tip of the chain they and the key make."""
        nonce = nonce or random_hex(32)
        fields = {"decision": JOIN, "kind": "join", "mode": self.mode, "nonce": nonce, "tip": self.tip_for(key, nonce)}
        if self.mode == "fog":
            from ..crypto import fog

            fields["fog"] = fog.seed_commitment(fog.fog_seed(key, self.identity, nonce))
        return fields

    def envelope(self, side: str, decision: str, kind: str) -> dict:
        """The fields every signed file starts with: the game, its identity, the head it is written
        against, the author's signed time, the decision, the side and the kind."""
        return {"game": self.meta["game"], "identity": self.identity, "head": self.head_text(),
                "at": now_iso(), "decision": decision, "side": side, "kind": kind}

    def open_decision_for(self, side: str, decision_id: str | None, kinds: tuple[str, ...]) -> Decision:
        if "roll" in kinds:
            cands = [d for d in self.awaiting if side in self.dice_parties(d) and self.owes_link(side, d)]
        else:
            cands = [d for d in self.awaiting if side in d.sides]
        if decision_id:
            cands = [d for d in self.awaiting if d.id == decision_id] if not cands or \
                decision_id not in {d.id for d in cands} else [d for d in cands if d.id == decision_id]
        if not cands:
            raise InvalidInput(f"nothing is awaited from {side} now: " + self.waiting_text(), code="E301")
        if cands[0].id == JOIN and "join" not in kinds:
            raise InvalidInput(f"the game waits for every participant to join: send your join file first "
                               f"(`hxref join GAME --side {side} --key KEY`, then `hxref submit`)", code="E304")
        return cands[0]


def _charts_to_pin(system: str, given: Mapping[str, Any] | None, scenario: Mapping[str, Any],
                   scenario_file: str | None = None) -> dict:
    """What a new game pins: this hxref's data files for ``scenario`` (:func:`.pinning.pin`), with the
    club's own map a scenario file of one's own names (read beside ``scenario_file``), or exactly
    an earlier game's (checked as a game file's pinned charts are: E500 when damaged), so a game
    re-made from it, a shipped demo, has the same identity whatever this hxref publishes today;
    only a scenario on a map the earlier game did not pin pins that map as this hxref has it, and
    the earlier game's other maps are left out (a season's next scenario on another map would
    pin one its players' hxref does not publish for it, and every join would be refused); a
    club's own map is always the file the scenario names now."""
    today = pinning.pin(system, scenario, scenario_file)
    if given is None:
        return today
    pinning.prepare(system, given)
    own = data_mod.map_key(system, scenario.get("map")) if scenario.get("map") is not None else None
    out = {rel: dict(entry) for rel, entry in given.items()
           if not data_mod.is_map_key(rel) or (rel == own and not data_mod.club_map(scenario.get("map")))}
    for rel, entry in today.items():
        if data_mod.is_map_key(rel) and rel not in out:
            out[rel] = entry
    return out


def _scenario_data(sysobj, system: str, scenario: str, options: Sequence[str]) -> dict:
    """The scenario's data with the optional rules the players switch on (E504: a rule the system lacks)."""
    data = sysobj.load_scenario(scenario)
    known = sysobj.optional_rules
    for name in options:
        if name not in known:
            raise InvalidInput(f"{system} has no optional rule {name!r}; "
                               + (f"its optional rules: {', '.join(sorted(known))}" if known else "it has none"),
                               code="E504")
    if options:
        data = dict(data, options={**(data.get("options") or {}), **{n: True for n in options}})
    return data


def _undo_target(f: dict) -> str | None:
    return f.get("target")


def map_view(path: str | Path, side: str | None = None) -> MapView:
    """The map file, the unit markers and the last shots ``side`` may see (None = public), for
    ``hxref map show GAME``: the system's :meth:`~hxref.kit.protocol.GameSystem.map_view` of the
    side's view, never of the full state.  E503 when the system or scenario has no map.
    """
    eng = Engine.load(path, side=side if side != UMPIRE else None)
    if side is not None and side not in eng.participants:
        raise InvalidInput(f"no side {side!r} in this game; sides: {', '.join(eng.sides())}", code="E504")
    found = None
    if eng.h.get("phase") != "setup":
        full = side == UMPIRE
        found = eng.system.map_view(eng.system.view(eng.state, None if full else side, "open" if full else eng.view_mode))
    if found is None:
        raise InvalidInput(f"this {eng.title} game ({eng.meta['scenario']}) has no map to show",
                           code="E503", file=str(path))
    from dataclasses import replace

    from ..kit import data

    folder = data.folder(eng.meta["system"]).resolve()
    if folder not in Path(found.map_path).resolve().parents:      # a crafted scenario's "map: ../../x"
        raise InvalidInput("the scenario names no map of its system: a crafted game file", code="E500",
                           file=str(path))
    rel = Path(found.map_path).resolve().relative_to(folder).as_posix()
    if rel.startswith(data.CLUB_MAPS + "/") and rel not in eng.rules.sources():    # never read from the disk
        raise InvalidInput("the scenario's map is a club's own map this game does not pin: a crafted game file",
                           code="E500", file=str(path))
    return replace(found, hexmap=eng.system.charts.map_at(found.map_path))   # the game's map, as its rules read it

