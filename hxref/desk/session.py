"""What one side of one game may ask the order page, and save from it.

A :class:`Session` is made once, when ``hxref orders`` starts, for the decision the side owes now:
in an open game from the game file the player holds (:meth:`Session.of_game`), in an umpired game
from the umpire-signed view his mail carries (:meth:`Session.of_view`).  It answers the page with
what that side may see and nothing else: the side's view drawn as the reports draw it, what the
side owes and by when, the decision's schema and template, the rules' map lists and reach, and
the problems of a choice as ``hxref check`` finds them (the same functions: the choice's shape,
then the rules' ``check``, on the game's state in an open game and on the view in an umpired
one).  Saving is the command line's own code, given to the session as ``saver``.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import HxrefError, InvalidInput
from ..kit.protocol import Decision, GameSystem, MapList

#: the signed files a choice is saved as (``hxref answer`` or ``hxref commit``), given a choice
Saver = Callable[[dict], list[Path]]
#: how a saved choice's files are handed to the outbox, when the game has an address book
Mailer = Callable[[list[Path]], list[str]]

_STEP = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]")


def path_of(text: str | None) -> list[str | int]:
    """``choice.moves[1].path[0]`` (a problem's place) as ``["moves", 1, "path", 0]``: its steps
    inside the choice."""
    if not text or not text.startswith("choice"):
        return []
    return [name if name else int(index) for name, index in _STEP.findall(text[len("choice"):])]


@dataclass
class Session:
    """One side's order desk for one decision (see the module text)."""

    system: GameSystem[Any]
    #: what the rules' check reads: the game's state (open games) or the side's view (umpired games)
    state: Mapping[str, Any]
    #: what the side may see: ``system.view(state, side, mode)``, or the umpire's signed view
    view: Mapping[str, Any]
    decision: Decision
    side: str
    title: str
    #: who owes what and by when, in words (:mod:`hxref.report.owed`)
    owed: list[str]
    #: the problems of an unsigned file of this choice, as ``hxref check`` lists them
    checker: Callable[[dict], list[HxrefError]]
    saver: Saver
    #: the side's map picture (:class:`~hxref.kit.protocol.MapView`, its map filled in), or None
    map_view: Callable[[], Any] = lambda: None
    mailer: Mailer | None = None
    #: the command that sends what was saved
    send_hint: str = ""
    notes: list[str] = field(default_factory=list)
    saved: list[Path] = field(default_factory=list)

    # --- making one -----------------------------------------------------------------------

    @classmethod
    def of_game(cls, eng: Any, side: str, saver_for: Callable[[Decision], Saver],
                mailer: Mailer | None = None) -> Session:
        """The desk of ``side`` in the open game ``eng`` for the decision it owes now (E301: none)."""
        from ..referee import orders
        from ..report import owed

        dec = eng.open_decision_for(side, None, ("answer", "commit"))
        pending = eng.waiting_for()
        mine = next((w for w in pending if w["decision"] == dec.id), None)
        if mine is not None and mine["owed"].get(side) not in ("answer", "commit"):
            raise InvalidInput(f"{side} owes no order for {dec.id} now ({owed.owed_text(side, mine['owed'][side])}): "
                               "nothing to write on the order page", code="E303", file=str(eng.gf.path))
        name = f"{side}-{dec.id}" + ("-commit.yaml" if dec.secret else ".yaml")

        def checker(choice: dict) -> list[HxrefError]:
            probe = orders.Order(source=name, text="", body="", armored=None,
                                 data={**eng.envelope(side, dec.id, "answer"), "choice": choice})
            rules = lambda c: eng.system.check(eng.state, dec, side, c)  # noqa: E731

            def run() -> None:          # what `hxref check GAME FILE` runs on an unsigned file
                orders.check_choice(probe, dec, rules)
                orders.raise_problems(probe, rules(choice))
            return _problems(run)

        def picture() -> Any:
            from ..referee.engine import map_view

            try:
                return map_view(str(eng.gf.path), side)     # the checks `hxref map show` makes of the map
            except InvalidInput as exc:
                if exc.code == "E503":
                    return None
                raise

        return cls(system=eng.system, state=eng.state, view=eng.system.view(eng.state, side, eng.mode),
                   map_view=picture,
                   decision=dec, side=side, title=f"{eng.title}: {eng.meta['game']}",
                   owed=owed.owed_lines(eng, side, None, commands=False), checker=checker, saver=saver_for(dec), mailer=mailer,
                   send_hint=f"hxref submit {Path(eng.gf.path).name} FILE" if not dec.secret else
                   f"hxref submit {Path(eng.gf.path).name} FILE (the commitment; keep the reveal until every "
                   "side has committed)")

    @classmethod
    def of_view(cls, sv: Any, saver_for: Callable[[Decision], Saver]) -> Session:
        """The desk of the side whose umpire-signed view ``sv`` is (:mod:`hxref.report.side_view`),
        for the first decision it owes in that view that takes an answer or a commitment."""
        from ..referee import orders
        from ..report import side_view

        owes = next((o for o in sv.owes if o["kind"] in ("answer", "commit")), None)
        if owes is None:
            raise InvalidInput(f"in this view {sv.side} owes no order (it owes "
                               f"{', '.join(o['kind'] + ' ' + o['decision']['id'] for o in sv.owes) or 'nothing'})",
                               code="E301", file=sv.path)
        dec = Decision.from_dict(owes["decision"])
        system, differ = side_view.system_for(sv)
        name = f"{sv.side}-{dec.id}" + ("-commit.yaml" if dec.secret else ".yaml")
        env = {"hxref": orders.FORMAT, "game": sv.fields["game"], "identity": sv.identity, "head": sv.head,
               "decision": dec.id, "side": sv.side, "kind": "answer"}

        def checker(choice: dict) -> list[HxrefError]:
            probe = orders.Order(source=name, text="", body="", armored=None, data={**env, "choice": choice})
            probe.game, probe.identity, probe.side, probe.decision, probe.kind = (
                env["game"], sv.identity, sv.side, dec.id, "answer")
            return _problems(lambda: side_view.check(sv, probe, signed=False))

        def picture() -> Any:
            from dataclasses import replace

            mv = system.map_view(sv.view)
            return None if mv is None else replace(mv, hexmap=system.charts.map_at(mv.map_path))

        due = [f"{dec.id}: due {dec.deadline}"] if dec.deadline else []
        return cls(system=system, state=sv.view, view=sv.view, decision=dec, side=sv.side,
                   title=f"{sv.fields['game']} ({sv.fields['system']}, {sv.fields['scenario']})",
                   owed=[f"{sv.side} owes its {'sealed commitment' if dec.secret else 'answer'} for {dec.id}", *due],
                   checker=checker, saver=saver_for(dec), map_view=picture, notes=[differ] if differ else [],
                   send_hint="mail it to the umpire")

    # --- what the page asks -----------------------------------------------------------------

    def map_lists(self) -> list[MapList]:
        """The decision's map lists, read from the side's view: the pieces are the side's own."""
        return list(self.system.map_orders(self.view, self.decision, self.side))

    def page(self) -> dict[str, Any]:
        """Everything the page shows at the start: the game, what is owed, the decision, the
        template choice to start from, the map lists and the map with its hex centres."""
        dec = self.decision
        start = self.system.template(self.view, dec, self.side).choice
        return {"title": self.title, "side": self.side, "owed": self.owed, "notes": self.notes,
                "decision": {"id": dec.id, "prompt": dec.prompt, "rule": dec.rule, "secret": dec.secret,
                             "kind": dec.kind, "schema": {k: v.to_dict() for k, v in dec.schema.items()}},
                "choice": start, "lists": [_list_dict(ml) for ml in self.map_lists()],
                "map": self.map_picture(), "mail": self.mailer is not None}

    def map_picture(self) -> dict[str, Any] | None:
        """The side's map as the reports draw it (:func:`hxref.report.mapsvg.render_svg` of the
        system's ``map_view`` of the side's view), with the hex size and centres in its own
        coordinates; None without a map."""
        from ..report import mapsvg

        mv = self.map_view()
        if mv is None:
            return None
        m = mv.load()
        size, centres = mapsvg.hex_centres(m)
        return {"svg": mapsvg.render_svg(m, mv.units, title=f"{m.title or m.id}: what {self.side} sees",
                                         fog=mv.fog), "size": size, "hexes": centres}

    def reach(self, choice: dict, key: str, piece: str) -> dict[str, float]:
        """The hexes ``piece`` may reach as an item of list ``key`` (the rules' own search), on the
        side's view: what it lights is what the side can see (an enemy it cannot see is no obstacle
        there, as on its map), never the full state of an open game; the check, on the game, decides."""
        lists = {ml.key: ml for ml in self.map_lists()}
        if key not in lists or piece not in {p.id for p in lists[key].pieces}:
            raise InvalidInput(f"{piece!r} is not a piece of list {key!r} at {self.decision.id}", code="E504")
        return dict(self.system.reach(self.view, self.decision, self.side, choice, key, piece))

    def problems(self, choice: dict) -> list[dict[str, Any]]:
        """The problems of ``choice``, one line each as ``hxref check`` prints them, with the
        hex each names on the map where its place is inside a map list."""
        return [{"line": e.render(), "message": e.message, "rule": e.rule or "", "code": e.code,
                 "at": e.where.path or "", "hex": self.hex_of(choice, path_of(e.where.path))}
                for e in self.checker(choice)]

    def hex_of(self, choice: dict, steps: list[str | int]) -> str | None:
        """The hex a problem's place names, when it is inside an item of a map list: the hex of the
        path or target it points at, else the item's last hex, else its piece's hex."""
        lists = {ml.key: ml for ml in self.map_lists()}
        if len(steps) < 2 or steps[0] not in lists or not isinstance(steps[1], int):
            return None
        ml, items = lists[str(steps[0])], choice.get(str(steps[0]))
        if not isinstance(items, list) or not 0 <= steps[1] < len(items) or not isinstance(items[steps[1]], dict):
            return None
        item = items[steps[1]]
        rest = steps[2:]
        path = item.get(ml.path) if ml.path else None
        if rest and rest[0] == ml.path and isinstance(path, list):
            if len(rest) > 1 and isinstance(rest[1], int) and 0 <= rest[1] < len(path):
                return str(path[rest[1]])
        if rest and rest[0] == ml.target and item.get(ml.target):
            return str(item[ml.target])
        if isinstance(path, list) and path:
            return str(path[-1])
        where = {p.id: p.hex for p in ml.pieces}
        return where.get(str(item.get(ml.piece)))

    def save(self, choice: dict, mail: bool = False) -> dict[str, Any]:
        """Sign and write ``choice`` as the command line does (its checks first: a refused choice
        writes nothing); with ``mail``, hand the files to the outbox too."""
        paths = self.saver(choice)
        self.saved += paths
        out: dict[str, Any] = {"files": [p.name for p in paths], "folder": str(paths[0].parent) if paths else "",
                               "send": self.send_hint.replace("FILE", paths[0].name) if paths else ""}
        if mail and self.mailer is not None and paths:
            out["mailed"] = self.mailer(paths)
        return out


def _problems(run: Callable[[], Any]) -> list[HxrefError]:
    """The problems a check raises, each on its own (none: the check passed)."""
    from ..base.errors import Problems

    try:
        run()
    except Problems as exc:
        return list(exc.problems)
    except HxrefError as exc:
        return [exc]
    return []


def _list_dict(ml: MapList) -> dict[str, Any]:
    return {"key": ml.key, "piece": ml.piece, "path": ml.path, "target": ml.target, "label": ml.label or ml.key,
            "rule": ml.rule, "pieces": [{"id": p.id, "hex": p.hex, "label": p.label} for p in ml.pieces]}
