"""A side's view of an umpired game, signed by the umpire: what a player, who holds no game file,
checks his orders against at home (``hxref check ORDER --view VIEW``, and ``hxref answer/commit
--template`` before they sign).

The umpire's mail to a side carries one such file (``union-t3.i1.orders-view.yaml``): the game's
label and identity, the head and event number it was made at, the side, the system, scenario and a
digest of the pinned charts, and -- packed as zlib-compressed canonical JSON in base64, so the file
stays small -- the decisions the side owes now and the side's view of the state exactly as
``system.view(state, side, mode)`` builds it (the rules' allow-list: nothing the side may not see).
It is signed with the umpire's key in its own SSHSIG namespace (:data:`NAMESPACE`), so a view is
never an order file and an order's signature never a view's.

A player learns which key is the umpire's from the game he joined: the join template carries the
game's first event (``game.created``, whose hash is the identity), ``hxref join --template``
checks it and records the umpire's key with the join (:mod:`hxref.referee.key_record`).  A view is
believed only when that recorded key signed it; a view of another game, of the other side, or
older than the file it checks is refused.

What the view proves and what it does not: it is the umpire's word of the position at that head,
as an aid to the player; the check run on it is the rules' own ``check`` run on the view instead of
the state, so a file that passes at home passes at the umpire's unless what the side cannot see
(an enemy unit out of sight) decides it.  The umpire's check of the file decides.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.canon import canonical_json
from ..base.errors import HxrefError, IllegalOrder, InvalidInput

#: the SSHSIG namespace of a side's view (an order file's is ``hxref``)
NAMESPACE = "hxref-view"
FORMAT = "view/1"
#: what a view's packed data may unpack to at most (a side's view is a few kilobytes)
UNPACKED_LIMIT = 4 << 20
_FIELDS = ("hxref", "game", "identity", "head", "side", "system", "scenario", "pinned")
_LINE = re.compile(r'([a-z]+): ("[ -~]{1,300}")')


def pinned_digest(charts: Any) -> str:
    """One digest of the charts a game pins (``game.created``'s ``charts``): the sha256 of the
    canonical JSON of each file's own sha256 by its path."""
    digests = {str(k): v.get("sha256") for k, v in charts.items()} if isinstance(charts, dict) else {}
    return hashlib.sha256(canonical_json(digests)).hexdigest()


def owed(engine, side: str) -> list[dict]:
    """What ``side`` owes now that it writes from a template: each decision (as the engine keeps
    it), the kind of file, and whether its dice link goes in that file."""
    out = []
    for w in engine.waiting_for():
        kind = w["owed"].get(side)
        if kind not in ("answer", "commit", "reveal", "wait (others commit)"):
            continue
        dec = engine.decision(w["decision"])
        link = side in engine.dice_parties(dec) and engine.links_in_answers(dec)
        out.append({"decision": dec.to_dict(), "kind": "reveal" if kind.startswith("wait") else kind,
                    "link": engine.link_index(side, dec) if link else None})
    return out


def file_name(engine, side: str) -> str:
    """``SIDE-DECISION-view.yaml`` for the first decision the side owes (beside its template,
    ``SIDE-DECISION-template.yaml``), else ``SIDE-eSEQ-view.yaml``."""
    first = next(iter(owed(engine, side)), None)
    return f"{side}-{first['decision']['id']}-view.yaml" if first else f"{side}-e{len(engine.gf.log)}-view.yaml"


def build(engine, side: str, key) -> str:
    """The signed text of ``side``'s view of the game now (``key``: the umpire's)."""
    from ..crypto.signing import embed_signature

    if engine.mode != "umpired":
        raise InvalidInput("a signed side's view is for umpired games (in open games each player holds the game)",
                           code="E504")
    engine.check_key("umpire", key)
    packed = {"owes": owed(engine, side), "view": engine.system.view(engine.state, side, engine.mode)}
    blob = base64.b64encode(zlib.compress(canonical_json(packed), 9)).decode("ascii")
    seq = len(engine.gf.log)
    fields = {"hxref": FORMAT, "game": engine.meta["game"], "identity": engine.identity,
              "head": engine.head_text(), "side": side, "system": engine.meta["system"],
              "scenario": engine.meta["scenario"], "pinned": pinned_digest(engine.pinned_charts())}
    lines = [f"# hxref: {side}'s view of game {engine.meta['game']} at event {seq}, signed by the umpire.",
             "# Check your orders against it at home: hxref check YOUR_FILE --view THIS_FILE",
             "# (hxref answer/commit --template check against it too). The umpire's check decides.",
             *(f"{k}: {json.dumps(v)}" for k, v in fields.items()), "data: |",
             *(f"  {blob[i:i + 70]}" for i in range(0, len(blob), 70))]
    body = "\n".join(lines) + "\n"
    return embed_signature(body, key.sign(body.encode("utf-8"), NAMESPACE))


@dataclass
class SideView:
    """A view whose signature is the umpire's of its game (:func:`read`)."""

    path: str
    fields: dict[str, str]
    owes: list[dict]
    view: dict

    @property
    def identity(self) -> str:
        return self.fields["identity"]

    @property
    def side(self) -> str:
        return self.fields["side"]

    @property
    def head(self) -> str:
        return self.fields["head"]

    @property
    def seq(self) -> int:
        return int(self.head.rpartition("@")[2])

    def owed_for(self, decision: str) -> dict | None:
        return next((o for o in self.owes if o["decision"].get("id") == decision), None)


def _parse(text: str, path: str) -> tuple[dict[str, str], str, str, str]:
    """The view's fields, its packed data, its signature and its signed body (E112: not a view)."""
    from ..crypto.signing import split_signed_text

    body, armored = split_signed_text(text)
    if armored is None:
        raise InvalidInput("not a signed view: a side's view ends with the umpire's signature block", code="E200",
                           file=path)
    fields: dict[str, str] = {}
    data: list[str] = []
    for number, line in enumerate(body.split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        if data or line == "data: |":
            if data and not line.startswith("  "):
                raise InvalidInput("not a side's view: a line after its data", code="E112", file=path, line=number)
            data.append(line.strip())
            continue
        m = _LINE.fullmatch(line)
        try:
            value = json.loads(m[2]) if m else None
        except ValueError:
            value = None
        if m is None or m[1] not in _FIELDS or m[1] in fields or not isinstance(value, str):
            raise InvalidInput("not a side's view (a line it does not hold)", code="E112", file=path, line=number)
        fields[m[1]] = value
    missing = [k for k in _FIELDS if k not in fields]
    if missing or not data or fields["hxref"] != FORMAT:
        raise InvalidInput(f"not a side's view of this hxref (no `{missing[0] if missing else 'data'}`, or "
                           f"another format than {FORMAT})", code="E112", file=path)
    return fields, "".join(data[1:]), armored, body


def _unpack(blob: str, path: str) -> dict:
    try:
        z = zlib.decompressobj()
        raw = z.decompress(base64.b64decode(blob, validate=True), UNPACKED_LIMIT)
        if z.unconsumed_tail:
            raise ValueError("too large")
        packed = json.loads(raw.decode("utf-8"))
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise InvalidInput("the view's data is damaged", code="E112", file=path) from None
    if not isinstance(packed, dict) or not isinstance(packed.get("owes"), list) or not isinstance(packed.get("view"), dict):
        raise InvalidInput("the view's data is not a side's view", code="E112", file=path)
    return packed


def read(path: str | Path, text: str | None = None) -> SideView:
    """The view at ``path``, once its signature is the key this user's record holds as the umpire's
    of its game (E202: anyone else's; E206: a game no key of this user joined from a template)."""
    from ..referee import key_record
    from ..base import yamlio
    from ..crypto.signing import PublicKey, sshsig_verify

    path = str(path)
    text = yamlio.read_text(path) if text is None else text
    fields, blob, armored, body = _parse(text, path)
    signer = sshsig_verify(armored, body.encode("utf-8"), NAMESPACE, source=path)
    umpire = key_record.umpire_of(fields["identity"], fields["side"])
    if umpire is None:
        raise InvalidInput(f"this view names a game ({fields['game']!r}, identity {fields['identity'][:16]}) that no "
                           f"key of yours joined as {fields['side']} from a template with the game's first event, "
                           "so its umpire's key is unknown here", code="E206", file=path,
                           hint="a view is checked against the umpire of the game you joined")
    if signer != PublicKey.from_line(umpire):
        raise InvalidInput(f"this view is signed by {signer.fingerprint()}, not by the umpire of the game you "
                           f"joined ({PublicKey.from_line(umpire).fingerprint()}): it is not the umpire's word",
                           code="E202", file=path)
    packed = _unpack(blob, path)
    return SideView(path, fields, packed["owes"], packed["view"])


def beside(file: str | Path, identity: str, side: str, decision: str) -> list[Path]:
    """The views in ``file``'s folder that name its game, side and decision (not yet verified)."""
    out = []
    for p in sorted(Path(file).resolve().parent.glob("*-view.yaml")):
        try:
            fields, blob, _, _ = _parse(p.read_text(encoding="utf-8"), str(p))
            packed = _unpack(blob, str(p))
        except (HxrefError, OSError, UnicodeDecodeError):
            continue
        if fields["identity"] == identity and fields["side"] == side and \
                any(o.get("decision", {}).get("id") == decision for o in packed["owes"]):
            out.append(p)
    return out


def find(file: str | Path, identity: str, side: str, decision: str, head: str) -> SideView | None:
    """The view beside ``file`` for its game, side and decision: the one made at the file's head,
    else the newest; None when there is none."""
    views = [read(p) for p in beside(file, identity, side, decision)]
    if not views:
        return None
    exact = [v for v in views if v.head == head]
    return exact[0] if exact else max(views, key=lambda v: v.seq)


def system_for(sv: SideView):
    """The game's system, with this hxref's published charts (a view carries no charts; its digest
    says whether they are the game's), and a note when they differ."""

    from ..kit import registry
    from ..referee import pinning, published
    from ..kit.charts import Charts

    scenario = published.published_scenario(sv.fields["system"], sv.fields["scenario"])
    charts = pinning.pin(sv.fields["system"], scenario)
    note = None if pinned_digest(charts) == sv.fields["pinned"] else (
        "the game's pinned charts differ from your hxref's: this check used yours")
    system = sv.fields["system"]
    return registry.get(system).bind(Charts(system, pinning.prepare(system, charts))), note


def check(sv: SideView, order, *, signed: bool) -> list[str]:
    """Check ``order`` (:class:`hxref.referee.orders.Order`) against the view with the code the umpire's
    hxref runs on the game: the file names the view's game, side and a decision it owes, against
    the view's head or a later one; its choice's shape (:func:`hxref.referee.orders.check_choice`), its
    dice link where the decision takes it, then the rules' own ``check`` run on the view.  Raises
    the first refusal (a view older than the file's head too: not the position it was written
    for); returns notes (charts that differ from this hxref's)."""
    from ..referee import orders
    from ..referee import trust as protocol
    from ..kit.protocol import Decision

    notes = []
    if order.identity != sv.identity:
        raise order.error(InvalidInput, f"this file is for another game (identity {order.identity[:16]}) than the "
                          f"view {Path(sv.path).name} ({sv.identity[:16]})", code="E300", path=("identity",))
    if order.side != sv.side:
        raise order.error(InvalidInput, f"this file is {order.side}'s; the view {Path(sv.path).name} is "
                          f"{sv.side}'s: check against your own side's view", code="E302", path=("side",))
    owed_now = sv.owed_for(order.decision)
    if owed_now is None:
        now = ", ".join(o["decision"]["id"] for o in sv.owes) or "nothing"
        raise order.error(IllegalOrder, f"the view {Path(sv.path).name} has {sv.side} owe no decision "
                          f"{order.decision!r} (it owes {now})", code="E301", path=("decision",))
    head = protocol.parse_head(order.data.get("head"))
    if head is not None and head[1] < sv.seq:
        raise order.error(IllegalOrder, f"this file was written against event {head[1]}, before the view's head "
                          f"(event {sv.seq}): write it again from the newest template", code="E310", path=("head",))
    if head is not None and head[1] > sv.seq:
        raise order.error(IllegalOrder, f"the view {Path(sv.path).name} is of event {sv.seq}, older than the "
                          f"head this file names (event {head[1]}): check against the view of the same mail",
                          code="E310", path=("head",))
    dec = Decision.from_dict(owed_now["decision"])
    system, differ = system_for(sv)
    if differ:
        notes.append(differ)
    from ..kit.data import club_map

    on_club_map = club_map(sv.view.get("map")) if isinstance(sv.view, dict) else False
    if on_club_map:         # the game reads it from the game file alone, which a player of an umpired game has not
        notes.append(f"the game is played on a club's own map ({sv.view['map']}), which a view does not carry: "
                     "its rules were not checked here; the umpire's hxref checks them")
    if order.kind in ("answer", "reveal"):
        rules = (lambda choice: []) if on_club_map else \
            (lambda choice: system.check(sv.view, dec, sv.side, choice))  # noqa: E731
        orders.check_choice(order, dec, rules)
        if owed_now.get("link") is not None and order.data.get("link") is None and signed:
            raise order.error(IllegalOrder, f"decision {dec.id} rolls dice: the file must carry {sv.side}'s dice "
                              "link (hxref answer --template writes it)", code="E111", path=())
        orders.raise_problems(order, rules(order.data["choice"]))
    return notes
