"""The game-system protocol (design section 6) and what it exchanges with the core.

A game system is a small object with the same methods for every system::

    scenarios() -> list[str]
    load_scenario(name) -> dict                       plain data from games/<system>/
    setup(scenario) -> state                          plain data (dicts, lists, scalars)
    decisions(state) -> list[Decision]                what is awaited now
    check(state, decision, side, choice) -> list[Problem]   legality, before storing
    resolve(state, decision, answers, dice) -> (state, events)   pure
    view(state, side, mode) -> dict                   what ``side`` may see (None = public)
    report(view) -> list[Section]                     the rules' part of a report

The core (:mod:`hxref.engine`) owns the sequence: signatures, commit-reveal,
dice links, the log, saving.  A system never imports :mod:`random` and never
prints; it returns data.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Problem:
    """Why an order is illegal: message, rule number, data path inside the choice."""

    message: str
    rule: str
    path: list = field(default_factory=list)


@dataclass(frozen=True)
class Field:
    """One key of a choice: its type and, for numbers, the allowed range."""

    type: str                  # "int", "str", "bool", "list", "dict"
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple = ()
    optional: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if value not in (None, "", ()) and value is not False:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Decision:
    """What the engine waits for.

    ``secret`` decisions are answered by commit-reveal; ``simultaneous`` ones
    are asked of several sides at once; ``dice`` says the resolution may roll.
    """

    id: str
    sides: tuple[str, ...]
    kind: str
    prompt: str
    rule: str
    secret: bool = False
    simultaneous: bool = False
    dice: bool = False
    schema: dict[str, Field] = field(default_factory=dict)
    example: dict = field(default_factory=dict)
    deadline: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {f: getattr(self, f) for f in self.__dataclass_fields__}
        d["sides"] = list(self.sides)
        d["schema"] = {k: v.to_dict() for k, v in self.schema.items()}
        d["example"] = dict(self.example)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Decision":
        schema = {k: Field(**{kk: (tuple(vv) if isinstance(vv, list) else vv) for kk, vv in v.items()})
                  for k, v in d.get("schema", {}).items()}
        return cls(**{**d, "sides": tuple(d["sides"]), "schema": schema})


@dataclass
class Section:
    """A part of a report: a title, lines of text and an optional table (plain strings)."""

    title: str
    lines: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    secret: bool = False


class GameSystem(Protocol):
    name: str
    title: str
    sides: tuple[str, ...]

    def scenarios(self) -> list[str]: ...
    def load_scenario(self, name: str) -> dict: ...
    def setup(self, scenario: dict) -> dict: ...
    def decisions(self, state: dict) -> list[Decision]: ...
    def check(self, state: dict, decision: Decision, side: str, choice: dict) -> list[Problem]: ...
    def resolve(self, state: dict, decision: Decision, answers: dict[str, dict], dice) -> tuple[dict, list[dict]]: ...
    def view(self, state: dict, side: str | None, mode: str) -> dict: ...
    def report(self, view: dict) -> list[Section]: ...
