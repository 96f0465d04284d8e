"""Walking a hex path step by step, for every system with hex movement.

A move order names the hexes entered, the start not included.  :func:`walk` follows it
and returns a :class:`Walk`: each step taken with its cost and rule, where the unit
stopped and why, and the rule that says so.  The system supplies what is its own:

* ``step_cost(a, b)`` -- its terrain effects chart as a callable: the MP of the step from
  ``a`` into the adjacent ``b``, or ``None`` / :class:`~hxref.geometry.paths.Prohibited`
  (with the reason, and a ``rule`` attribute if it has one) when the step is not allowed;
* ``mp`` -- the movement allowance (None: no limit checked, as when an order is checked
  before the MP are rolled);
* ``zoc`` -- which hexes are in an enemy zone of control, and in :class:`WalkRules` the
  ZOC rules that apply: entering one stops the unit, no step from one straight into
  another, or no entering one at all;
* ``stops`` -- other hexes where a unit must stop (heavy woods);
* ``enters`` -- any other rule on entering a hex (enemy-occupied hexes);
* :class:`WalkRules` -- the rule numbers and the texts of its messages.

The order of the checks at each step: the path going on after a hex where the unit had
to stop, a hex of the map, adjacent, the step cost, ``enters``, ZOC to ZOC, ZOC entry, the
MP left; then the unit enters, and stops there if the hex is in enemy ZOC (or ``stops``).

>>> from hxref.geometry.hex import Hex
>>> rules = WalkRules(move="M1")
>>> w = walk([Hex(1, 0), Hex(2, 0)], lambda a, b: 1, start=Hex(0, 0), rules=rules, hex_of=lambda h: h, mp=1)
>>> w.end, w.spent, w.at, w.rule
(<End.MP: 'mp'>, 1, 1, 'M1')
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable, Generic, Sequence, TypeVar

from ..geometry.hex import Hex, distance
from ..geometry.paths import Cost, Prohibited

L = TypeVar("L")          # how a path names a hex: a map label, or a Hex


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class Rule:
    """A rule number and the text of its message, a :meth:`str.format` template."""

    rule: str
    text: str

    def say(self, **fields: object) -> str:
        return self.text.format(**fields)


@dataclass(frozen=True)
class Refusal:
    """A step a system's own rule refuses (``enters``), with the reason and the rule."""

    why: str
    rule: str


@dataclass(frozen=True)
class WalkRules:
    """One system's rule numbers and message texts for :func:`walk`.

    The templates' fields: ``frm`` and ``to`` (the names of the hexes of the step),
    ``why`` (a refusal's or a stop's reason), ``at`` (the hex where the unit had to stop),
    ``cost``, ``spent``, ``left`` and ``mp`` (as printed numbers).  A ZOC rule left None
    does not apply.
    """

    move: str                                   # the rule of an ordinary step
    done: str = "end of the path"
    not_a_hex: Rule = Rule("", "{to!r} is not a hex of this map")
    not_adjacent: Rule = Rule("", "{to} is not adjacent to {frm}")
    prohibited: Rule = Rule("", "{frm} to {to}: {why}")
    out_of_mp: Rule = Rule("", "entering {to} costs {cost} MP but only {left} of {mp} MP are left")
    go_on: Rule = Rule("", "the unit must stop in {at} ({why}) and cannot go on to {to}")
    zoc_stop: Rule | None = None                # entering an enemy ZOC hex stops the unit
    zoc_to_zoc: Rule | None = None              # no step from one enemy ZOC hex into another
    zoc_entry: Rule | None = None               # the unit may not enter enemy ZOC at all

    def rule_of(self, r: Rule) -> str:
        """A rule's number, this system's move rule when it names none."""
        return r.rule or self.move


class End(Enum):
    """Why a walk ended."""

    PATH = "path"           #: the whole path was walked
    HALT = "halt"           #: the whole path was walked and its last hex is one where the unit must stop
    MP = "mp"               #: the next step costs more MP than are left
    REFUSED = "refused"     #: the next step is not allowed


@dataclass(frozen=True)
class Step(Generic[L]):
    """One step taken: from, into, its cost, the MP spent so far, and the rule of the step."""

    frm: L
    to: L
    cost: float
    total: float
    rule: str


@dataclass(frozen=True)
class Halt(Generic[L]):
    """A hex where the unit had to stop, why, and by which rule."""

    at: L
    why: str
    rule: str
    zoc: bool


@dataclass(frozen=True)
class Walk(Generic[L]):
    """The verdict on a path: the steps taken, why the walk ended and by which rule.

    ``at`` is the index in the path of the step not taken (:attr:`End.MP`,
    :attr:`End.REFUSED`); ``halt`` the hex where the unit had to stop, if it did.
    """

    start: L
    steps: tuple[Step[L], ...]
    end: End
    why: str
    rule: str
    mp: float | None = None
    at: int | None = None
    halt: Halt[L] | None = None

    @property
    def spent(self) -> float:
        return self.steps[-1].total if self.steps else 0

    @property
    def here(self) -> L:
        """Where the unit is at the end of the walk."""
        return self.steps[-1].to if self.steps else self.start

    @property
    def hexes(self) -> list[L]:
        """The start, then every hex entered."""
        return [self.start, *(s.to for s in self.steps)]

    @property
    def legal(self) -> bool:
        """The whole path can be walked."""
        return self.end in (End.PATH, End.HALT)

    def __bool__(self) -> bool:
        return self.legal


def walk(path: Sequence[L], step_cost: Callable[[Hex, Hex], Cost], *, start: L, rules: WalkRules,
         hex_of: Callable[[L], Hex | None], name: Callable[[L], str] = str, mp: float | None = None,
         zoc: Callable[[L], bool] | None = None, stops: Callable[[L], str | None] | None = None,
         enters: Callable[[int, L], Refusal | None] | None = None) -> Walk[L]:
    """Follow ``path`` from ``start`` step by step (see the module text for the order of the checks).

    ``hex_of`` turns a name in the path into its hex, or None when it is not a hex of the
    map; ``name`` prints it for the messages.
    """
    cur = hex_of(start)
    if cur is None:
        raise ValueError(f"the start hex {name(start)} is not on the map")
    here = start
    steps: list[Step[L]] = []
    total: float = 0
    halt: Halt[L] | None = None

    def ended(end: End, i: int, r: Rule, **fields: object) -> Walk[L]:
        return Walk(start, tuple(steps), end, r.say(**fields), rules.rule_of(r), mp, i, halt)

    for i, label in enumerate(path):
        frm, to = name(here), name(label)
        if halt is not None:
            return ended(End.REFUSED, i, rules.go_on, at=name(halt.at), why=halt.why, frm=frm, to=to)
        nxt = hex_of(label)
        if nxt is None:
            return ended(End.REFUSED, i, rules.not_a_hex, frm=frm, to=to)
        c = _cost(step_cost, rules, cur, nxt)
        if isinstance(c, tuple):
            return ended(End.REFUSED, i, c[0], frm=frm, to=to, why=c[1])
        refusal = enters(i, label) if enters is not None else None
        if refusal is not None:
            return ended(End.REFUSED, i, Rule(refusal.rule, "{why}"), why=refusal.why)
        into_zoc = zoc is not None and zoc(label)
        zoc_rule = _zoc_refusal(rules, into_zoc and zoc is not None and zoc(here), into_zoc)
        if zoc_rule is not None:
            return ended(End.REFUSED, i, zoc_rule, frm=frm, to=to)
        if mp is not None and total + c > mp:
            return ended(End.MP, i, rules.out_of_mp, frm=frm, to=to, cost=_num(c), spent=_num(total),
                         left=_num(mp - total), mp=_num(mp))
        total += c
        rule = rules.move
        if into_zoc and rules.zoc_stop is not None:
            halt = Halt(label, rules.zoc_stop.say(frm=frm, to=to), rules.rule_of(rules.zoc_stop), True)
            rule = halt.rule
        elif stops is not None and (stop_why := stops(label)):
            halt = Halt(label, stop_why, rules.move, False)
        steps.append(Step(here, label, c, total, rule))
        here, cur = label, nxt
    if halt is not None:
        return Walk(start, tuple(steps), End.HALT, halt.why, halt.rule, mp, None, halt)
    return Walk(start, tuple(steps), End.PATH, rules.done, rules.move, mp)


def _cost(step_cost: Callable[[Hex, Hex], Cost], rules: WalkRules, cur: Hex, nxt: Hex) -> float | tuple[Rule, str]:
    """The cost of the step ``cur`` -> ``nxt``, or the rule refusing it and the reason."""
    if distance(cur, nxt) != 1:
        return rules.not_adjacent, ""
    c = step_cost(cur, nxt)
    if c is None or isinstance(c, Prohibited):
        r = rules.prohibited
        return Rule(getattr(c, "rule", None) or r.rule, r.text), c.reason if isinstance(c, Prohibited) else "prohibited"
    return c


def _zoc_refusal(rules: WalkRules, zoc_to_zoc: bool, into_zoc: bool) -> Rule | None:
    """The ZOC rule refusing a step (no ZOC to ZOC, no entering enemy ZOC), or None."""
    if zoc_to_zoc and rules.zoc_to_zoc is not None:
        return rules.zoc_to_zoc
    if into_zoc and rules.zoc_entry is not None:
        return rules.zoc_entry
    return None
