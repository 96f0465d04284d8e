"""A game played with hidden armies (``--mode fog``) as one copy holds it: the public part of the
state, each side's boxes as this copy knows them, and how a decision resolves there.

The game file both sides hold carries the public part ``P`` of the state (its header's ``state``)
and the public events; each side's hidden state (the system's :meth:`~hxref.kit.protocol.GameSystem.boxes`)
stays on its own machine.  A copy knows the *secrets* of some sides (:class:`Secrets`: the fog
seed and the sealed answers of the side's own file, :mod:`hxref.referee.fog_store`): none for the
public copy every command starts from, its own side's when loaded for a side, every side's in the
proof (:mod:`hxref.referee.proof`).  For each side it keeps *boxes*: the true ones of a side whose
secrets it knows, else its *belief*: the set-up's (both sides know the whole start), then what
openings and claims tell, otherwise what its own resolution computed (a placeholder the system's
guarantee makes harmless: no public result depends on it).

A decision resolves on the *shadow* ``merged(P, boxes)`` with the real rules: each side's answer is
its whole choice where this copy holds it (sealed), else the public part its file carries; the
dice are a stream per purpose (:class:`hxref.crypto.dice.PurposeDice`), and a roll one side alone
may see comes from that side's secret, known to its own copy only.  What every side may see (the
rolls and rules events without ``visible_to``) is logged; what only known sides may see goes to
this copy's :attr:`Knowledge.journal`; the rest is dropped.  So two honest copies log the same
block, byte for byte, and the no-side copy that proves a game file from its log logs it too.

Each file a side signs in such a game carries ``root``: the salted Merkle root
(:mod:`hxref.crypto.merkle`) of its boxes at the head it names, and ``openings`` of the boxes the
rules reveal there, each checked at once against that root (E314).
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from ..base.canon import canonical_json
from ..base.errors import IllegalOrder, InvalidInput
from ..crypto import fog, merkle
from ..crypto import dice as dice_mod
from ..kit import events as events_mod
from ..kit import registry, schema
from ..kit.protocol import Decision, resolve_copy
from . import orders

if TYPE_CHECKING:
    from ..gamefile.game import GameFile
    from ..kit.protocol import GameSystem

FOG = "fog"
#: the decision a game with hidden armies awaits when its rules await nothing more: every side's proof
PROOF = "proof"
#: the rule a false commitment breaks when no rules event changed the box it lies about
ROOT_RULE = "protocol: root"
#: the rule a proof breaks whose leaves do not rebuild a root its side signed
PROOF_RULE = "protocol: proof"
#: the rule a file breaks that shows the signer's counters otherwise than its true boxes do
SHOWN_RULE = "protocol: shown"
#: the kinds of file that carry no commitment to the signer's boxes
UNCOMMITTED = ("join", "proof")


def proof_decision(sides: list[str]) -> Decision:
    return Decision(id=PROOF, sides=tuple(sides), kind=PROOF, rule=PROOF_RULE,
                    prompt="the game is over: send your proof (`hxref challenge GAME --side S --key K`): your fog "
                           "seed, sealed answers and the leaves of your roots, so that every copy replays the game "
                           "with full information")


@dataclass
class Secrets:
    """What one side alone knows: its fog seed and its sealed answers ``{decision: {choice, salt}}``;
    from its proof also the leaves of each root it signed ``{root: leaves}`` and the proof file
    itself (decision, kind, sha256), which a verdict names when those leaves are false."""

    seed: bytes
    sealed: dict[str, dict[str, Any]] = field(default_factory=dict)
    leaves: dict[str, tuple[bytes, ...]] = field(default_factory=dict)
    proof: dict[str, str] | None = None


@dataclass
class Knowledge:
    """What one copy of a fog game knows besides the public file."""

    known: dict[str, Secrets] = field(default_factory=dict)
    #: every side's boxes: the true ones of a known side, else the belief
    boxes: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the events and rolls only known sides may see, as the log would hold them
    journal: list[dict] = field(default_factory=list)
    #: (event number, every side's boxes) after each block: the boxes at a head a file names
    history: list[tuple[int, dict[str, dict[str, Any]]]] = field(default_factory=list)
    #: set by the proof's replay: every file's commitments are checked against the true boxes
    proving: bool = False
    _cache: tuple = ()


class ProofFailure(IllegalOrder):
    """A file the full-information replay finds false: its side, the box or check, and the rule;
    ``file`` when the file at fault is not the one replayed (the side's proof)."""

    def __init__(self, message: str, *, side: str, rule: str, box: str | None = None, file: dict | None = None):
        super().__init__(message, code="E400", rule=rule)
        self.side = side
        self.box = box
        self.file = file


class ShadowMixin:
    """The part of :class:`hxref.referee.engine.Engine` that plays a game with hidden armies."""

    _knowledge: Knowledge | None = None
    _knowledge_of: Callable[[], Knowledge] | None = None
    _owed_cache: tuple | None = None
    # what it reads of :class:`hxref.referee.engine.Engine`
    h: dict
    gf: GameFile
    if TYPE_CHECKING:
        @property
        def system(self) -> GameSystem[Any]: ...
        @property
        def meta(self) -> dict: ...
        @property
        def mode(self) -> str: ...
        @property
        def identity(self) -> str: ...
        @property
        def participants(self) -> dict: ...
        @property
        def state(self) -> dict: ...
        def sides(self) -> list[str]: ...
        def pending(self, decision_id: str) -> dict: ...
        def complete(self, dec: Decision) -> bool: ...
        def missing_links(self, dec: Decision) -> list[str]: ...
        def dice_parties(self, dec: Decision) -> list[str]: ...
        def pending_files(self) -> list[tuple[str, dict]]: ...

    @property
    def fog(self) -> bool:
        """True while the game is played with hidden armies (not once the proof lifted the fog)."""
        return self.meta.get("mode") == FOG and not self.h.get("fog_lifted")

    @property
    def knowledge(self) -> Knowledge:
        """What this copy knows (made by replaying the log: :func:`hxref.referee.proof.replay_known`;
        none of it is written in the game file, not even the belief every copy shares).  A copy
        loaded from a file takes what this machine kept for that very file (:mod:`.fog_memo`), or
        replays its log, the first time it is asked (:meth:`know_later`)."""
        if self._knowledge is None:
            make, self._knowledge_of = self._knowledge_of, None
            self._knowledge = Knowledge() if make is None else make()
        return self._knowledge

    def know_later(self, make: Callable[[], Knowledge]) -> None:
        """This copy's knowledge is what ``make()`` gives (the public replay of the log as it stands
        now), made when first asked (a copy loaded for a side replays it with its own file instead)."""
        self._knowledge, self._knowledge_of = None, make

    def _set_boxes(self, boxes: dict[str, dict[str, Any]]) -> None:
        self.knowledge.boxes = boxes

    @property
    def view_mode(self) -> str:
        """The mode the system's views are built in: a game with hidden armies is shown as an umpired
        game is (each side its own, the public nothing hidden), so this copy's belief never shows;
        once the proof lifted its fog, as an open game."""
        if self.meta["mode"] == FOG:
            return "umpired" if self.fog else "open"
        return self.meta["mode"]

    # --- what a side alone is told ---------------------------------------------------------------
    def own_events(self, side: str, since: int = 0) -> list[dict]:
        """The rules events and rolls of the blocks after event ``since`` that only ``side`` may see
        (its copy's journal: its attrition, the steps it lost, its own administration), as the log
        would hold them; none where this copy does not hold the side's own file."""
        if side not in self.knowledge.known:
            return []
        return [{k: v for k, v in j.items() if k not in ("kind", "block")} for j in self.knowledge.journal
                if j["block"] > since and side in (j.get(events_mod.KEY) or ())]

    def told_log(self) -> Sequence[Mapping[str, Any]]:
        """The log as this copy tells it: in a game with hidden armies each block's events that only
        the sides this copy knows may see (:meth:`own_events`) follow its public ones (a report reads
        it); else the log."""
        journal = self.knowledge.journal if self.fog else []
        if not journal:
            return self.gf.log
        log = self.gf.log
        by_block: dict[int, list[dict]] = {}
        for j in journal:
            by_block.setdefault(j["block"], []).append(j)
        out: list[Mapping[str, Any]] = []
        for i, ev in enumerate(log):
            out.append(ev)
            nxt = log[i + 1] if i + 1 < len(log) else None
            if nxt is not None and nxt["kind"] in ("die", "rules"):
                continue
            # the end of a block's events: the resolve at event b, then its dice and rules events
            b = max((b for b in by_block if b <= ev["seq"]), default=None)
            if b is not None and all(e["kind"] in ("die", "rules") for e in log[b:i + 1]):
                out += [{"kind": j["kind"], "by": None, "seq": ev["seq"], "prev": ev["prev"], "hash": ev["hash"],
                         "data": {k: v for k, v in j.items() if k not in ("kind", "block")}}
                        for j in by_block.pop(b)]
        return out

    def challenge_decision(self, order: orders.Order) -> Decision:
        """The decision a side's proof answers before the game's end (a challenge, ``hxref
        challenge``): the proof's.  A challenge comes between blocks, when no file of an awaited
        decision is kept (E308): the game then waits for every side's proof, and with all in, the
        replay gives the verdict, or lifts the fog and the game goes on as an open game."""
        kept = sorted({d for d, _ in self.pending_files()})
        if kept:
            raise order.error(IllegalOrder, f"a challenge comes between blocks: files of {kept[0]} are kept; "
                              "send it when that decision has closed", code="E308", path=("decision",))
        return proof_decision(self.sides())

    def shadow(self) -> dict:
        """The state this copy resolves on: ``merged(P, boxes)`` (cached until either changes)."""
        k = self.knowledge
        public = self.h["state"]
        if k._cache and k._cache[0] is public and k._cache[1] is k.boxes:
            return k._cache[2]
        merged = self.system.merged(public, k.boxes)
        k._cache = (public, k.boxes, merged)
        return merged

    def fog_start(self, full: dict) -> dict:
        """The set-up state split: every side's boxes (known to all: the scenario's published
        set-up), and the public part, returned for the header."""
        boxes = {}
        for s in self.sides():
            found = self.system.boxes(full, s)
            if found is None:
                raise InvalidInput(f"{self.system.name} keeps no hidden state to play with hidden armies", code="E504")
            boxes[s] = copy.deepcopy(dict(found))
        self._set_boxes(boxes)
        return self.system.public(full)

    def fog_mark(self) -> None:
        """Note every side's boxes at the current head (after a block)."""
        k = self.knowledge
        # a side's boxes are replaced at each block, never changed in place: kept as they are
        k.history.append((len(self.gf.log), dict(k.boxes)))

    def boxes_at(self, seq: int) -> dict[str, dict[str, Any]]:
        """Every side's boxes as they stood at head ``seq``."""
        found = self.knowledge.boxes
        for at, boxes in self.knowledge.history:
            if at <= seq:
                found = boxes
        return found

    # --- what a side signs ---------------------------------------------------------------------
    def names_shown(self, side: str, shown: dict) -> list[str]:
        """``side``'s box names when its counters stand as ``shown`` (a file's ``shown``): the public
        part names the boxes by what the map shows, and what the side's own last resolution put on
        the map is public only once a file of the side shows it."""
        return self.system.box_names(self.system.with_shown(self.h["state"], side, shown), side)

    def commitment(self, side: str, head: str) -> merkle.Tree:
        """``side``'s commitment to its boxes at ``head`` (its own copy only)."""
        secrets = self.knowledge.known.get(side)
        if secrets is None:
            raise InvalidInput(f"this copy does not hold {side}'s own file: load the game for {side}", code="E504")
        boxes = self.knowledge.boxes[side]
        names = self.names_shown(side, self.system.shown(self.state, side))
        return merkle.commit(boxes, fog.box_salts(secrets.seed, head, names))

    def fog_fields(self, side: str, kind: str, head: str, dec: Decision | None, fields: dict,
                   full: dict | None = None) -> dict:
        """What a file of ``kind`` (its kind's keys: ``fields``; an answer's whole choice: ``full``)
        carries in a fog game besides: the root, what the side shows, an answer's claims, and the
        openings the file must carry (:meth:`file_openings`; an ``open`` file: those the block still
        owes of the side)."""
        tree = self.commitment(side, head)
        out: dict[str, Any] = {"root": tree.root, "shown": self.system.shown(self.state, side)}
        names: list[str] = []
        if kind in ("answer", "reveal") and dec is not None and full is not None:
            out["claims"] = self.system.claims(self.state, dec, side, full)
        if kind == "open" and dec is not None:
            names = self.owed_openings(dec).get(side, [])
        elif kind in ("answer", "reveal", "roll") and dec is not None:
            names = self.file_openings(dec, side, kind, {**fields, **out, "head": head})
        if names or kind == "open":
            out["openings"] = [tree.open(n).to_data() for n in sorted(set(names))]
        return out

    def file_openings(self, dec: Decision, side: str, kind: str, data: dict) -> list[str]:
        """The boxes a file of ``side`` for ``dec`` (its data ``data``) must open (E314 without one):
        for an answer, those its public part opens before the dice (the forces it orders to attack);
        for a dice link that, with the answers it names and their links, is the last the block
        waits for, those of ``side`` a dry run of the resolution reveals (the attacker's stacks in
        the combat its link rolls).  What only a later file makes known (the boxes of a side that
        answered before the other's link) is owed in an ``open`` file."""
        names: set[str] = set()
        if kind in ("answer", "reveal") and "choice" in data:
            names |= set(self.system.reveals(self.state, dec, side, data["choice"], None))
        if kind == "roll":
            pend = self._answered(dec)
            pend["links"][side] = data.get("link", "")
            if self._closes(dec, pend):
                names |= set(self.dry_reveals(dec, pend, [(side, data)]).get(side, []))
        return sorted(names)

    def _answered(self, dec: Decision) -> dict:
        """``dec``'s block as a dice link that names its answers knows it: the answers, their files
        and the links they carry (not another side's dice link, which may come before or after)."""
        pend = self.pending(dec.id)
        files = [f for f in pend["files"] if f["kind"] in ("answer", "reveal")]
        links = {f["party"]: kept_data(f["file"])["link"] for f in files if "link" in kept_data(f["file"])}
        return {"files": files, "answers": copy.deepcopy(pend["answers"]), "links": links}

    def _closes(self, dec: Decision, pend: dict) -> bool:
        """Whether ``pend`` holds every answer and dice link ``dec`` waits for."""
        answers = pend["answers"]
        return all("choice" in answers.get(s, {}) for s in dec.sides) and all(
            w in pend["links"] or answers.get(w, {}).get("nmr") for w in self.dice_parties(dec))

    # --- acceptance ----------------------------------------------------------------------------
    def fog_accept(self, order: orders.Order, dec: Decision) -> None:
        """A file's fog keys: only in a fog game; a root on every file but a join or a proof; a join's
        seed commitment; each opening opening the file's own root, among the box names the public
        part gives; an ``open`` file only once a decision's dry run asks it, once."""
        d, kind = order.data, order.kind
        fog_keys = set(orders.FOG_KEYS.get(kind, ())) | ({"seed", "sealed_answers", "leaves"} if kind == PROOF else set())
        if not self.fog:
            extra = sorted(k for k in d if k in fog_keys)
            if extra or kind in ("open", PROOF):
                now = "open: the proof lifted its fog" if self.h.get("fog_lifted") else self.mode
                raise order.error(IllegalOrder, f"`{extra[0] if extra else kind}` belongs to a game played with "
                                  f"hidden armies (--mode fog); this game is {now}", code="E110",
                                  path=(extra[0],) if extra else ("kind",))
            return
        if kind == "join":
            if "fog" not in d:
                raise order.error(InvalidInput, "a join of a game played with hidden armies carries `fog`, the "
                                  "commitment to the side's fog seed (`hxref join` writes it)", code="E111")
            return
        if kind == PROOF:
            if dec.id != PROOF:
                raise order.error(IllegalOrder, "a proof answers the `proof` decision, awaited when the game's "
                                  "decisions are over", code="E304", path=("kind",))
            if fog.seed_commitment(bytes.fromhex(d["seed"])) != self.participants[order.side].get("fog"):
                raise order.error(IllegalOrder, f"this seed is not the one {order.side}'s join committed to",
                                  code="E305", path=("seed",))
            for decision, entry in d["sealed_answers"].items():
                if not isinstance(entry, dict) or set(entry) != {"choice", "salt"} or \
                        not isinstance(entry["choice"], dict) or not isinstance(entry["salt"], str):
                    raise order.error(InvalidInput, f"the sealed answer to {decision} is not {{choice, salt}}",
                                      code="E112", path=("sealed_answers", decision))
            self._accept_leaves(order)
            return
        if "root" not in d:
            raise order.error(IllegalOrder, "a file of a game played with hidden armies carries `root`, the "
                              "commitment to its signer's boxes at its head", code="E314", path=("root",))
        names = self.names_shown(order.side, d.get("shown") or {})
        for i, raw in enumerate(d.get("openings", [])):
            opening = merkle.Opening.from_data(raw, order.source)
            if not merkle.verify(d["root"], names, opening):
                raise order.error(IllegalOrder, f"the opening of `{opening.name}` does not open this file's root "
                                  "(another value, salt or box, or a box the public part does not name)",
                                  code="E314", path=("openings", i))
        if kind in ("answer", "reveal") and dec.kind != PROOF:
            self._accept_claims(order, dec, names)
        if kind in ("answer", "reveal", "roll") and dec.kind != PROOF:
            opened = {o["name"] for o in d.get("openings", [])}
            lacking = [n for n in self.file_openings(dec, order.side, kind, d) if n not in opened]
            if lacking:
                raise order.error(IllegalOrder, f"the rules reveal {', '.join(lacking)} of {order.side} with this "
                                  f"file (`hxref {'roll' if kind == 'roll' else 'answer'}` opens them); it opens "
                                  f"{', '.join(sorted(opened)) or 'none'}", code="E314", path=("openings",))
        if kind == "open":
            owed = self.owed_openings(dec, count_pending=False).get(order.side)
            if not owed:
                raise order.error(IllegalOrder, f"{dec.id} asks no opening of {order.side} now (an `open` file "
                                  "follows every answer and dice link of its decision)", code="E304",
                                  path=("kind",))
            if any(f["kind"] == "open" and f["party"] == order.side for f in self.pending(dec.id)["files"]):
                raise order.error(IllegalOrder, f"{order.side} has opened its boxes for {dec.id} already",
                                  code="E303")
            opened = {o["name"] for o in d["openings"]}
            if set(owed) - opened:
                raise order.error(IllegalOrder, f"the rules reveal {', '.join(owed)} of {order.side} at {dec.id}; "
                                  f"this file opens {', '.join(sorted(opened)) or 'none'}", code="E314",
                                  path=("openings",))
        if self.knowledge.proving:
            self._prove_file(order, dec)

    def _accept_claims(self, order: orders.Order, dec: Decision, names: list[str]) -> None:
        """An answer's claims (``names``: its signer's box names): of the form the rules give them, and
        stating what the public facts tell its answer reads (E112, E314)."""
        d = order.data
        choice = d.get("choice")
        if not isinstance(choice, dict) or schema.check(dec.schema, choice, dec.rule):
            return          # a choice of another shape is refused next, by its shape (orders.check_choice)
        found = self.system.claim_problem(self.state, dec, order.side, choice, names, d.get("claims", {}))
        if found is not None:
            path = ("claims", *found.path)
            cls, code = (IllegalOrder, "E314") if found.rule else (InvalidInput, "E112")
            raise order.error(cls, f"{'.'.join(map(str, path))}: {found.message}", code=code, path=path,
                              rule=found.rule or None)

    def signed_roots(self, side: str) -> dict[str, tuple[dict[str, str], str]]:
        """Every root ``side`` signed in the game's log, each with the first file that carries it
        (decision, kind, sha256) and the head that file names."""
        out: dict[str, tuple[dict[str, str], str]] = {}
        for ev in self.gf.log:
            d = ev["data"]
            if ev["kind"] == "submission" and d["side"] == side and d["kind"] not in UNCOMMITTED:
                f = kept_data(d["file"])
                if isinstance(f.get("root"), str):
                    out.setdefault(f["root"], ({"decision": d["decision"], "kind": d["kind"], "sha256": d["sha256"]},
                                               f["head"]))
        return out

    def proof_leaves(self, side: str) -> dict[str, str]:
        """What ``side``'s proof gives of each root it signed (its own copy only): the leaves of its
        true boxes at the head of the file that signed it, under its salts for that head
        (:func:`hxref.crypto.merkle.pack_leaves`)."""
        secrets = self.knowledge.known.get(side)
        if secrets is None:
            raise InvalidInput(f"this copy does not hold {side}'s own file: load the game for {side}", code="E504")
        from .trust import parse_head

        out: dict[str, str] = {}
        for root, (_, head) in self.signed_roots(side).items():
            at = parse_head(head)
            assert at is not None      # a kept file's head was read when it was taken
            boxes = self.boxes_at(at[1]).get(side, {})
            out[root] = merkle.pack_leaves(merkle.commit(boxes, fog.box_salts(secrets.seed, head, boxes)).leaves())
        return out

    def _accept_leaves(self, order: orders.Order) -> None:
        """A proof's ``leaves``: for every root its side signed and no other, 32-byte leaf hashes in
        base64 (E112, E314)."""
        given, side = order.data["leaves"], order.side
        for root, text in given.items():
            try:
                merkle.unpack_leaves(text)
            except ValueError as exc:
                raise order.error(InvalidInput, f"the leaves of root {str(root)[:16]}: {exc}", code="E112",
                                  path=("leaves", str(root))) from None
        signed = self.signed_roots(side)
        lacking = [r for r in signed if r not in given]
        if lacking:
            f = signed[lacking[0]][0]
            raise order.error(IllegalOrder, f"this proof lacks the leaves of {len(lacking)} of the {len(signed)} "
                              f"roots {side} signed, the first in its file ({f['decision']}, {f['kind']}, sha256 "
                              f"{f['sha256'][:16]}) (`hxref challenge` gives them all)", code="E314",
                              path=("leaves",))
        unknown = sorted(str(r) for r in given if r not in signed)
        if unknown:
            raise order.error(IllegalOrder, f"this proof gives leaves of root {unknown[0][:16]}, which no file of "
                              f"{side} signed", code="E314", path=("leaves", unknown[0]))

    def rules_check(self, side: str) -> bool:
        """Whether this copy runs the rules' check on ``side``'s answers: always outside fog games;
        in one, only where it holds the side's own boxes (its belief of another side may be stale)."""
        return not self.fog or side in self.knowledge.known

    def full_choice(self, side: str, decision: str, answer: dict) -> dict:
        """``side``'s whole answer to ``decision`` (``answer``: the file's ``choice`` and, when part of
        it is sealed, ``sealed``): the sealed answer of its own file where this copy holds it."""
        secrets = self.knowledge.known.get(side)
        if "sealed" in answer and secrets is not None and decision in secrets.sealed:
            return secrets.sealed[decision]["choice"]
        return answer["choice"]

    # --- resolution ----------------------------------------------------------------------------
    def _block_view(self, pend: dict, more: Sequence[tuple[str, dict]] = ()) -> tuple[dict[str, dict[str, Any]],
                                                                              dict[str, dict]]:
        """Every side's boxes with what the block's files (and ``more``: (side, data) of a file not
        yet kept) open and claim of sides this copy does not know, and what each side's last file of
        the block shows."""
        # a box is replaced, never changed in place: the mappings are copied, the boxes shared
        boxes = {s: dict(b) for s, b in self.knowledge.boxes.items()}
        shown: dict[str, dict] = {}
        kept = [(f["party"], kept_data(f["file"])) for f in pend["files"]]
        for side, d in [*kept, *more]:
            if "shown" in d:
                shown[side] = d["shown"]
            if side in self.knowledge.known or side not in boxes:
                continue
            for o in d.get("openings", []):
                boxes[side][o["name"]] = o["value"]
            for name, part in (d.get("claims") or {}).items():
                boxes[side][name] = self.system.believed(side, boxes[side].get(name), part)
        return boxes, shown

    def _fog_dice(self, dec: Decision, seed: bytes) -> dice_mod.PurposeDice:
        known = self.knowledge.known
        return dice_mod.PurposeDice(seed, secrets={
            s: fog.secret_dice(known[s].seed, self.identity, dec.id) if s in known else None for s in self.sides()})

    def _fog_answers(self, dec: Decision, pend: dict) -> dict[str, dict]:
        return {s: self.full_choice(s, dec.id, pend["answers"][s]) for s in dec.sides}

    def fog_resolve(self, dec: Decision, pend: dict, seed: bytes) -> tuple[dict, list, list[dict]]:
        """Resolve ``dec`` on the shadow: the new public part, and the rolls and rules events to log;
        this copy's boxes and journal updated."""
        k = self.knowledge
        boxes, shown = self._block_view(pend)
        dice = self._fog_dice(dec, seed)
        before = self.system.merged(self.h["state"], boxes)
        new, events = self.system.resolve(resolve_copy(registry.info(self.meta["system"]), before), dec,
                                          self._fog_answers(dec, pend), dice)
        logged = [e for e in events if not events_mod.restricted(e)]
        # the openings the rules ask are all in (the check of owed_openings, on this very run)
        owed = self._unopened(pend, self._reveals_of(dec, pend, before, logged))
        if owed:
            raise InvalidInput(f"decision {dec.id} cannot be resolved now: the rules reveal "
                               + "; ".join(f"{s}'s {', '.join(n)}" for s, n in sorted(owed.items())), code="E308")
        shown_all = self.h.setdefault("shown", {})
        shown_all.update(shown)
        public = self.system.public(new)
        for s in self.sides():
            # every copy lays out the map as each side's last file showed it, its own copy too
            if s in shown_all:
                public = self.system.with_shown(public, s, shown_all[s])
        self._set_boxes({s: dict(self.system.boxes(new, s) or {}) for s in self.sides()})
        rolls = [r for r in dice.rolls if r.visible_to is None]
        for r in dice.rolls:
            if r.visible_to is not None and r.known and set(r.visible_to) & set(k.known):
                k.journal.append({"kind": "die", "block": len(self.gf.log), "decision": dec.id, **r.to_dict()})
        for e in events:
            if events_mod.restricted(e) and set(e[events_mod.KEY]) & set(k.known):
                k.journal.append({"kind": "rules", "block": len(self.gf.log), "decision": dec.id, **e})
        if dice.rolls and not dec.dice:
            raise RuntimeError(f"rules rolled dice for {dec.id}, which was declared without dice")
        return public, rolls, logged

    def owed_openings(self, dec: Decision, count_pending: bool = True) -> dict[str, list[str]]:
        """The boxes each side must still open before ``dec`` closes: once every answer and dice link
        is in, what the rules reveal from its answers and from a dry run of its resolution (the same
        in every copy); less what the kept files opened already (with ``count_pending``)."""
        if not self.fog or dec.kind in (PROOF, "join") or not self.complete(dec) or self.missing_links(dec):
            return {}
        pend = self.pending(dec.id)
        key = (len(self.gf.log), tuple(f["sha256"] for f in pend["files"]), dec.id, count_pending)
        cache = self._owed_cache
        if cache is not None and cache[0] == key:
            return cache[1]
        out = self._unopened(pend, self.dry_reveals(dec, pend)) if count_pending else self.dry_reveals(dec, pend)
        self._owed_cache = (key, out)
        return out

    @staticmethod
    def _unopened(pend: dict, reveals: dict[str, list[str]]) -> dict[str, list[str]]:
        """``reveals`` less what the block's kept files opened."""
        out: dict[str, list[str]] = {}
        for s, found in reveals.items():
            names = set(found)
            for f in pend["files"]:
                if f["party"] == s:
                    names -= {o["name"] for o in kept_data(f["file"]).get("openings", [])}
            if names:
                out[s] = sorted(names)
        return out

    def dry_reveals(self, dec: Decision, pend: dict, more: Sequence[tuple[str, dict]] = ()) -> dict[str, list[str]]:
        """What the rules reveal of each side at ``dec`` with the answers and links of ``pend`` (and
        the files ``more`` not yet kept): a dry run of its resolution on this copy's shadow."""
        boxes, _ = self._block_view(pend, more)
        links = sorted(pend["links"].items())
        seed = dice_mod.dice_seed(self.identity, dec.id, links)
        before = self.system.merged(self.h["state"], boxes)
        answers = {s: self.full_choice(s, dec.id, pend["answers"][s]) for s in dec.sides}
        _, events = self.system.resolve(resolve_copy(registry.info(self.meta["system"]), before), dec,
                                        copy.deepcopy(answers), self._fog_dice(dec, seed))
        return self._reveals_of(dec, pend, before, [e for e in events if not events_mod.restricted(e)])

    def _reveals_of(self, dec: Decision, pend: dict, before: dict, public_events: list[dict]) -> dict[str, list[str]]:
        """What the rules reveal of each side at ``dec`` resolved from ``before`` to ``public_events``,
        reading the public part of each answer (every copy holds it)."""
        told = {s: pend["answers"][s]["choice"] for s in dec.sides}
        out: dict[str, list[str]] = {}
        for s in self.sides():
            names = set(self.system.reveals(before, dec, s, told.get(s), public_events))
            if s in dec.sides:
                names |= set(self.system.reveals(before, dec, s, told[s], None))
            if names:
                out[s] = sorted(names)
        return out

    # --- the proof's checks of one file -----------------------------------------------------------
    def _prove_file(self, order: orders.Order, dec: Decision) -> None:
        """In the full-information replay: the file's root is the root of its signer's true boxes at
        the head it names (and the leaves its proof gives rebuild it), and an answer's claims are the claims
        the rules give on the true state."""
        from .trust import parse_head

        from ..crypto import commit as commit_mod

        d, side = order.data, order.side
        head = parse_head(d["head"])
        assert head is not None
        if "sealed" in d:
            entry = self.knowledge.known[side].sealed.get(dec.id)
            if entry is None or not commit_mod.matches(d["sealed"], entry["choice"], entry["salt"],
                                                       (self.identity, dec.id, side)):
                raise ProofFailure(f"its sealed answer to {dec.id} is not in its proof, or does not open its "
                                   "`sealed` commitment", side=side, rule=dec.rule)
            if self.system.public_answer(self.state, dec, side, entry["choice"]) != d["choice"]:
                raise ProofFailure(f"its choice is not the public part of its sealed answer to {dec.id}",
                                   side=side, rule=dec.rule)
        at = self.boxes_at(head[1])
        true = at.get(side, {})
        shown = self.system.shown(self.system.merged(self.h["state"], at), side)
        if (d.get("shown") or {}) != shown:
            raise ProofFailure(f"what it shows of {side}'s counters on the map is not what its true boxes show",
                               side=side, rule=SHOWN_RULE)
        names = self.names_shown(side, shown)
        tree = merkle.commit(true, fog.box_salts(self.knowledge.known[side].seed, d["head"], names))
        if tree.root == d["root"]:
            self._leaves_of(side, d)
        else:
            # which box differs shows in an opening of it (the file alone proves it), else in the leaves
            # the side's proof gives of this root
            committed = {o["name"]: o["value"] for o in d.get("openings", [])}
            differs = next((n for n in sorted(true) if n in committed and committed[n] != true[n]), None)
            if differs is None:
                self._false_leaf(side, d, tree, names)
            path, given, said = first_difference(true[differs], committed[differs])
            rule = self.system.box_rule(differs, path) or self.rule_of_box(side, differs)
            where = f" at {'.'.join(path)}" if path else ""
            raise ProofFailure(f"box {differs}{where}: the game gives {quoted(given)}, the file committed to "
                               f"{quoted(said)}", side=side, box=differs, rule=rule)
        if order.kind in ("answer", "reveal"):
            self._prove_claims(side, dec, d, self.system.merged(self.h["state"], at))

    def _prove_claims(self, side: str, dec: Decision, d: dict, true_state: dict) -> None:
        """The claims of ``side``'s answer (its data ``d``) are the claims the rules give for its whole
        choice on the true state ``true_state``: the same boxes, parts, bounds and values (a true bound
        below what the rules read, a part left out or one too many convict the file as a false one)."""
        given = d.get("claims") or {}
        owed = self.system.claims(true_state, dec, side, self.full_choice(side, dec.id, d))
        if given == owed:
            return
        name = next(n for n in sorted(set(given) | set(owed)) if given.get(n) != owed.get(n))
        path, told, said = first_difference(owed.get(name), given.get(name))
        where = f" at {'.'.join(path)}" if path else ""
        raise ProofFailure(f"its claim of `{name}`{where} is not what the rules give: they read {quoted(told)}, "
                           f"the file claims {quoted(said)}", side=side, box=name, rule=dec.rule)

    def _leaves_of(self, side: str, d: dict) -> tuple[bytes, ...]:
        """The leaves ``side``'s proof gives of the root of its file (data ``d``); the proof is at
        fault when they do not rebuild it."""
        secrets = self.knowledge.known[side]
        leaves = secrets.leaves.get(d["root"])
        if leaves is None or merkle.root_of_leaves(leaves) != d["root"]:
            raise ProofFailure(f"its leaves of the root {d['root'][:16]} (signed at head {_head(d)}) do not rebuild "
                               "it", side=side, rule=PROOF_RULE, file=secrets.proof)
        return leaves

    def _false_leaf(self, side: str, d: dict, tree: merkle.Tree, names: list[str]) -> NoReturn:
        """Name the box a false ``root`` of ``side``'s file (its data ``d``) lies about, by the leaves
        its proof gives of that root, against ``tree``, the true one: the proof is at fault when they
        are not the root's; the file, when they are the root's but not of the box names the public
        part gives; else the first box whose leaf is not the true one, and the rule of that box (the
        leaves do not tell which part of it the file lies about)."""
        leaves = self._leaves_of(side, d)
        head = _head(d)
        if len(leaves) != len(names):
            raise ProofFailure(f"its root at head {head} commits to {len(leaves)} boxes where the public part names "
                               f"{len(names)}", side=side, rule=ROOT_RULE)
        box = next(n for n, said, true in zip(tree.names, leaves, tree.leaves()) if said != true)
        rule = self.system.box_rule(box, ()) or self.rule_of_box(side, box)
        raise ProofFailure(f"box {box}: its root at head {head} committed to another value than the game gives",
                           side=side, box=box, rule=rule)

    def rule_of_box(self, side: str, box: str) -> str:
        """The rule of the true events that last changed ``side``'s box ``box``: the rule of the last
        event of the side in the block where its value last changed; :data:`ROOT_RULE` when it never
        changed since the set-up."""
        history = self.knowledge.history
        for i in range(len(history) - 1, 0, -1):
            (prev, before), (at, now) = history[i - 1], history[i]
            if now.get(side, {}).get(box) == before.get(side, {}).get(box):
                continue
            rules = [e["data"].get("rule") for e in self.gf.log[prev:at]
                     if e["kind"] == "rules" and e["data"].get("side") == side]
            rules += [j.get("rule") for j in self.knowledge.journal if prev < j["block"] <= at and j.get("side") == side]
            found = [r for r in rules if isinstance(r, str) and r != "-"]
            if found:
                return found[-1]
        return ROOT_RULE


def first_difference(a: Any, b: Any, path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], Any, Any]:
    """The first path (keys) where ``a`` and ``b`` differ, and their values there (None: absent)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                if k not in a or k not in b:
                    return (*path, str(k)), a.get(k), b.get(k)
                return first_difference(a[k], b[k], (*path, str(k)))
    return path, a, b


def _head(d: dict) -> str:
    """The head a file names, as a verdict quotes it: the hash cut to 16 digits, @, the event number."""
    return f"{d['head'][:16]}@{d['head'].rpartition('@')[2]}"


def quoted(value: Any) -> str:
    """A value as a verdict quotes it: compact JSON, cut at 120 characters; absent for None."""
    if value is None:
        return "nothing"
    text = canonical_json(value).decode("utf-8")
    return text if len(text) <= 120 else text[:117] + "..."


@functools.lru_cache(maxsize=1024)
def kept_data(text: str) -> dict:
    """The data of a file kept in a block (read again at every dry run and resolution of a fog
    game's replay; parsed once).  Shared: read it, never change it."""
    return orders.parse(text, "kept file", fast=True).data

