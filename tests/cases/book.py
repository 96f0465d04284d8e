"""The rule case book: cases as data, replayed through a system's own ``check`` and ``resolve``.

A case book is ``games/<data folder>/cases/*.yaml`` (the format is described in
``tests/cases/test_case_book.py`` and in ``games/README.md``).  This module loads the cases,
builds each case's position from a scenario, and plays the case's decision as the engine would:
the decision's schema first (:func:`hxref.referee.orders.choice_problems`), then the system's ``check``
for every side, then ``resolve`` with dice scripted by purpose, and, when the case expects what
the reports show, each audience's report of the resolution as ``hxref report`` builds it
(:func:`report_text`).  It knows no rules of any system.
"""
from __future__ import annotations

import copy
import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hxref.referee import orders
from hxref.crypto.dice import Dice
from hxref.kit import registry
from hxref.base.yamlio import load_data_fast

#: the keys of a case, and of a step played before it
CASE_KEYS = {"rule", "title", "example", "scenario", "mode", "setup", "state", "before", "decision", "orders",
             "dice", "expect", "note"}
#: the keys of a calculator's case (a question, no decision: :func:`run_query`), and of its expect
QUERY_KEYS = {"rule", "title", "example", "query", "expect", "note"}
QUERY_EXPECT_KEYS = {"answer", "refused"}
STEP_KEYS = {"decision", "orders", "dice", "state"}
EXPECT_KEYS = {"refused", "events", "no_events", "state", "rolls", "report"}
#: the game's modes (:data:`hxref.referee.inputs.MODES`); a case is played in ``mode`` (default umpired)
MODES = ("open", "umpired", "solo")
#: what a case may expect of one audience's report
REPORT_KEYS = {"shows", "hides"}
#: the audiences besides the sides: the public report and the umpire's (everything)
PUBLIC, UMPIRE = "public", "umpire"


class CaseError(AssertionError):
    """A case that does not hold, or that is badly written: the message says which and why."""


@dataclass
class Case:
    system: str
    file: Path
    index: int
    data: dict = field(repr=False)

    @property
    def rule(self) -> str:
        return str(self.data["rule"])

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", str(self.data.get("title", "")).lower()).strip("-")[:48]
        return f"{self.system}/{self.file.stem}/{self.rule}/{slug}"


def case_files() -> list[tuple[str, Path]]:
    """Every registered system's case book files: ``(system, path)``, system by system, in name order."""
    return [(name, path) for name in registry.names()
            for path in sorted((registry.info(name).games_path() / "cases").glob("*.yaml"))]


def load_cases() -> list[Case]:
    """Every case of every registered system's case book, in file order.

    Read with the fast reader, as the tests are collected; ``test_case_book.py`` reads every file
    again with the strict reader (which refuses a duplicate key) and checks that both read the same."""
    found: list[Case] = []
    for name, path in case_files():
        doc = load_data_fast(path) or {}
        for i, data in enumerate(doc.get("cases") or []):
            found.append(Case(name, path, i, data))
    return found


# --- dice ----------------------------------------------------------------------------------

class ScriptedDice(Dice):
    """Dice whose faces are given by purpose: ``{"weather*": [3, 4], "IMC calloway*": [5]}``.

    Each roll takes its faces, in order, from the first pattern (:mod:`fnmatch`, case-sensitive)
    that matches its purpose.  A roll no pattern answers, or a face a die cannot show, fails the
    case; :attr:`unused` lists the faces no roll asked for."""

    def __init__(self, script: dict | None):
        super().__init__(seed=b"\x00" * 32)
        self.script = {str(k): list(v if isinstance(v, list) else [v]) for k, v in (script or {}).items()}
        self._purpose = ""
        self.failure: str | None = None     # kept: a rules module may catch the error it raises

    def _fail(self, message: str) -> CaseError:
        self.failure = self.failure or message
        return CaseError(message)

    def roll(self, purpose: str, **kw) -> list[int]:
        self._purpose = purpose
        return super().roll(purpose, **kw)

    def _face(self, sides: int) -> int:
        for pattern, faces in self.script.items():
            if fnmatch.fnmatchcase(self._purpose, pattern):
                if not faces:
                    raise self._fail(f"the dice for {pattern!r} ran out at the roll {self._purpose!r}")
                face = faces.pop(0)
                if not 1 <= face <= sides:
                    raise self._fail(f"face {face} for {self._purpose!r} is impossible on a d{sides}")
                return face
        raise self._fail(f"the game rolls for {self._purpose!r}, which the case's dice do not script")

    @property
    def unused(self) -> dict[str, list[int]]:
        return {k: v for k, v in self.script.items() if v}


# --- positions -----------------------------------------------------------------------------

def merge(base: Any, over: Any) -> Any:
    """``over`` merged into ``base``: mappings key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v) if k in base else copy.deepcopy(v)
        return out
    return copy.deepcopy(over)


def _keys(path: str) -> list:
    return [int(p) if p.isdigit() and (p == "0" or not p.startswith("0")) else p for p in str(path).split(".")]


def get_path(state: Any, path: str) -> Any:
    """The value at a dotted path (``units.u1.hex``, ``current.impulses.0.level``)."""
    here = state
    for k in _keys(path):
        try:
            here = here[k]
        except (KeyError, IndexError, TypeError):
            raise CaseError(f"the state has no {path!r} (stopped at {k!r})") from None
    return here


def set_path(state: Any, path: str, value: Any) -> None:
    """Set the value at a dotted path; a missing mapping on the way is made."""
    keys = _keys(path)
    here = state
    for k in keys[:-1]:
        if isinstance(here, dict) and k not in here:
            here[k] = {}
        here = here[k]
    here[keys[-1]] = copy.deepcopy(value)


def patch(state: dict, changes: dict | None) -> None:
    for path, value in (changes or {}).items():
        set_path(state, path, value)


def position(case: Case) -> tuple[Any, dict]:
    """The system and the state the case's decision is played in."""
    data = case.data
    unknown = set(data) - CASE_KEYS
    if unknown:
        raise CaseError(f"unknown case keys {sorted(unknown)} (known: {sorted(CASE_KEYS)})")
    system = registry.get(case.system)
    scenario = merge(system.load_scenario(data["scenario"]), data.get("setup") or {})
    if "table_mode" in (data.get("setup") or {}):
        raise CaseError("the game's mode is the case's `mode`, not `setup: {table_mode}`")
    scenario["table_mode"] = game_mode(case)      # as the engine sets it before the setup
    state = system.setup(scenario)
    patch(state, data.get("state"))
    for i, step in enumerate(data.get("before") or []):
        if set(step) - STEP_KEYS:
            raise CaseError(f"before[{i}]: unknown keys {sorted(set(step) - STEP_KEYS)}")
        decision = awaited(system, state, step["decision"])
        problems = {s: p for s, p in all_problems(system, state, decision, step["orders"]).items() if p}
        if problems:
            raise CaseError(f"before[{i}] ({decision.id}) is refused: {problems}")
        state, _, dice = play(system, state, decision, step["orders"], step.get("dice"))
        if dice.unused:
            raise CaseError(f"before[{i}] ({decision.id}): faces no roll asked for: {dice.unused}")
        patch(state, step.get("state"))
    return system, state


def game_mode(case: Case) -> str:
    """The mode of the game the case is played in: ``mode`` (default ``umpired``, where each side's
    secrets are its own; in ``open`` and ``solo`` games every player holds the game file)."""
    mode = str(case.data.get("mode", "umpired"))
    if mode not in MODES:
        raise CaseError(f"mode {mode!r} is none of {list(MODES)}")
    return mode


def awaited(system, state: dict, wanted: str):
    """The awaited decision whose kind or id is ``wanted``."""
    found = system.decisions(state)
    for d in found:
        if wanted in (d.kind, d.id):
            return d
    raise CaseError(f"no decision {wanted!r} is awaited; awaited: {[d.id for d in found]}")


def side_problems(system, state: dict, decision, side: str, choice: dict) -> list[tuple[str, str]]:
    """(rule, message) of every problem the engine would raise for ``side``'s ``choice``."""
    order = orders.Order(source="case", text="", body="", armored=None, data={"choice": choice})
    out = [(str(e.rule or ""), str(e)) for e in orders.choice_problems(order, decision)]
    if not out:
        out = [(p.rule, p.message) for p in system.check(copy.deepcopy(state), decision, side, choice)]
    return out


def all_problems(system, state: dict, decision, answers: dict) -> dict[str, list[tuple[str, str]]]:
    missing = set(decision.sides) - set(answers)
    if missing:
        raise CaseError(f"{decision.id} awaits {sorted(missing)} too")
    return {s: side_problems(system, state, decision, s, answers[s]) for s in decision.sides}


def play(system, state: dict, decision, answers: dict, script: dict | None):
    dice = ScriptedDice(script)
    new, events = system.resolve(copy.deepcopy(state), decision, copy.deepcopy(answers), dice)
    if dice.failure:
        raise CaseError(dice.failure)
    if dice.rolls and not decision.dice:
        raise CaseError(f"the rules rolled dice for {decision.id}, declared without dice")
    return new, events, dice


# --- expectations --------------------------------------------------------------------------

def rule_tokens(rule: str) -> set[str]:
    """The rule numbers a rule field names: ``"A2; C17"`` -> {"A2", "C17", "A2; C17"} (the whole
    field counts too, for rules named in words: ``CG Game End``)."""
    text = str(rule or "").strip()
    return {t for t in re.split(r"[\s;,/+()]+", text) if t} | ({text} if text else set())


def names_rule(ev: dict, rule: str) -> bool:
    """The event applies ``rule``: its rule field names it, or its text cites it."""
    if rule in rule_tokens(str(ev.get("rule", ""))):
        return True
    return re.search(rf"(?<![\w.]){re.escape(rule)}(?![\w])", event_text(ev)) is not None


def event_text(ev: dict) -> str:
    return str(ev.get("text", ""))


def matches(want: dict, ev: dict) -> bool:
    """An event matches when it names the rule, says every text substring and has every other
    field given (``type``, ``side``, ``explain.cell`` ... by dotted path) with that value."""
    if "rule" in want and str(want["rule"]) not in rule_tokens(str(ev.get("rule", ""))):
        return False
    for k, v in want.items():
        if k not in ("rule", "text") and _field(ev, k) != v:
            return False
    return all(str(w).lower() in event_text(ev).lower() for w in _list(want.get("text")))


_MISSING = object()


def _field(ev: dict, path: str):
    """An event's field by dotted path (``explain.cell``); a missing one matches nothing."""
    try:
        return get_path(ev, path)
    except CaseError:
        return _MISSING


def show(ev: dict) -> str:
    fields = {k: v for k, v in ev.items() if k not in ("rule", "text")}
    return f"[{ev.get('rule')}] {event_text(ev)} {fields}"


def _list(x) -> list:
    return [] if x is None else list(x) if isinstance(x, list) else [x]


def _rules_in(node: Any) -> set[str]:
    """The rule numbers every ``rule``/``rules`` field of an answer names."""
    if isinstance(node, dict):
        found = set().union(*(_rules_in(v) for v in node.values())) if node else set()
        for k in ("rule", "rules"):
            for r in _list(node.get(k)):
                if isinstance(r, str):
                    found |= rule_tokens(r)
        return found
    if isinstance(node, list):
        return set().union(*(_rules_in(v) for v in node)) if node else set()
    return set()


# --- reports -------------------------------------------------------------------------------

def audiences(system) -> tuple[str, ...]:
    """The audiences a report is built for: each side, ``public`` and ``umpire``."""
    return (*system.sides, PUBLIC, UMPIRE)


def report_text(system, state: dict, mode: str, audience: str, decision, dice, events: list[dict]) -> str:
    """``audience``'s report after the case's resolution, made by the calls of
    :func:`hxref.report.turn.build` and rendered in Markdown (no line is wrapped): the rules' own
    sections, the system's ``view`` of the new state for the audience (the umpire's: the open view
    of everything) rendered by its ``report``, then the "Last resolution" and "Dice" sections of
    the resolution's events and dice as far as the audience may read them
    (:func:`hxref.report.turn.shown`), logged as the engine logs them.  The case has no engine, so
    the core's header, awaited decisions and sealed choices are not in it."""
    from hxref.report import story, turn

    full = audience == UMPIRE
    who = None if audience == PUBLIC else audience
    view = system.view(copy.deepcopy(state), None if full else who, "open" if full else mode)
    sections = list(system.report(view))
    log = [{"seq": 1, "kind": "resolve", "by": None, "data": {"decision": decision.id}}]
    log += [{"seq": len(log) + 1, "kind": "die", "by": r.by, "data": {"decision": decision.id, **r.to_dict()}}
            for r in dice.rolls]
    log += [{"seq": len(log) + i + 1, "kind": "rules", "by": ev.get("side"), "data": {"decision": decision.id, **ev}}
            for i, ev in enumerate(events)]
    told = story.resolutions(log, 0)
    sections += turn._resolution_sections(told, 0, who, mode)
    return turn.to_markdown(turn.Report(title=f"{system.name} case", audience=audience, header=[], sections=sections))


def check_reports(case: Case, system, state: dict, decision, dice, events: list[dict]) -> None:
    """``expect.report``: ``{audience: {shows: [...], hides: [...]}}``, an audience being a side,
    ``public`` or ``umpire``.  Each ``shows`` text must be in the audience's report, each ``hides``
    text must not (case-insensitive); a hidden text must be in the umpire's report, who reads
    everything, so that the case hides something that is there to hide."""
    want = case.data["expect"]["report"]
    if not isinstance(want, dict) or not want:
        raise CaseError(f"expect.report is a mapping audience -> {{shows, hides}}; audiences: {list(audiences(system))}")
    mode = game_mode(case)
    texts: dict[str, str] = {}

    def text(audience: str) -> str:
        if audience not in texts:
            texts[audience] = report_text(system, state, mode, audience, decision, dice, events)
        return texts[audience]

    for audience, exp in want.items():
        if audience not in audiences(system):
            raise CaseError(f"report: no audience {audience!r}; audiences: {list(audiences(system))}")
        if not isinstance(exp, dict) or set(exp) - REPORT_KEYS or not exp:
            raise CaseError(f"report.{audience}: a mapping of {sorted(REPORT_KEYS)}")
        for t in _list(exp.get("shows")):
            if str(t).lower() not in text(audience).lower():
                raise CaseError(f"{audience}'s report ({mode} game) does not show {t!r}:\n{text(audience)}")
        for t in _list(exp.get("hides")):
            if str(t).lower() in text(audience).lower():
                raise CaseError(f"{audience}'s report ({mode} game) shows {t!r}, which it must not:\n{text(audience)}")
            if str(t).lower() not in text(UMPIRE).lower():
                raise CaseError(f"report.{audience}.hides {t!r}, which not even the umpire's report shows: the case "
                                f"proves nothing hidden:\n{text(UMPIRE)}")


def run_query(case: Case) -> None:
    """A calculator's question: ``query`` is the ``hxref`` command line (``{data}`` = the system's data
    folder), run with ``--json`` through the real CLI.  ``expect.answer`` maps dotted paths of the JSON
    answer to their values, and some ``rule``/``rules`` field of the answer must name the case's rule;
    ``expect.refused`` wants exit 2 with its ``text`` substrings (and ``rule``) in the one-line error."""
    import json

    from click.testing import CliRunner

    from hxref.cli import main

    data = case.data
    if set(data) - QUERY_KEYS:
        raise CaseError(f"unknown keys {sorted(set(data) - QUERY_KEYS)} for a query case (known: {sorted(QUERY_KEYS)})")
    expect = data.get("expect") or {}
    if set(expect) - QUERY_EXPECT_KEYS or len(expect) != 1:
        raise CaseError(f"a query case expects one of {sorted(QUERY_EXPECT_KEYS)}")
    folder = str(registry.info(case.system).games_path())
    args = [str(a).replace("{data}", folder) for a in data["query"]] + ["--json"]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if "refused" in expect:
        want = expect["refused"]
        err = (res.stderr or res.output).strip()
        if res.exit_code != 2:
            raise CaseError(f"hxref {' '.join(args)} exits {res.exit_code}, expected 2: {res.output}")
        for m in _list(want.get("text")) + _list(want.get("rule")) + [case.rule]:
            if str(m).lower() not in err.lower():
                raise CaseError(f"the error does not say {m!r}: {err}")
        return
    if res.exit_code != 0:
        raise CaseError(f"hxref {' '.join(args)} exits {res.exit_code}: {res.output}")
    answer = json.loads(res.output)
    for path, value in expect["answer"].items():
        got = get_path(answer, path)
        if got != value:
            raise CaseError(f"answer {path} is {got!r}, expected {value!r}:\n{res.output}")
    if case.rule not in _rules_in(answer):
        raise CaseError(f"the answer names no rule {case.rule}: {sorted(_rules_in(answer))}")


def run(case: Case) -> None:
    """Play the case; raise :class:`CaseError` saying what did not hold."""
    data = case.data
    if "query" in data:
        run_query(case)
        return
    expect = data.get("expect") or {}
    if set(expect) - EXPECT_KEYS:
        raise CaseError(f"unknown expect keys {sorted(set(expect) - EXPECT_KEYS)} (known: {sorted(EXPECT_KEYS)})")
    if ("refused" in expect) == bool(set(expect) - {"refused"}):
        raise CaseError("expect either `refused` or what the resolution gives (events, state, rolls, report)")
    system, state = position(case)
    decision = awaited(system, state, data["decision"])
    answers = data.get("orders") or {}
    problems = all_problems(system, state, decision, answers)
    if "refused" in expect:
        want = expect["refused"]
        side = want.get("side") or decision.sides[0]
        got = problems[side]
        if not got:
            raise CaseError(f"{side}'s orders were accepted; expected a refusal by rule {want.get('rule')}")
        for r in _list(want.get("rule")):
            if not any(str(r) in rule_tokens(rule) for rule, _ in got):
                raise CaseError(f"no problem by rule {r}; got {got}")
        for m in _list(want.get("text")):
            if not any(str(m).lower() in msg.lower() for _, msg in got):
                raise CaseError(f"no problem says {m!r}; got {got}")
        if not any(case.rule in rule_tokens(rule) for rule, _ in got):
            raise CaseError(f"no problem names the case's rule {case.rule}; got {got}")
        return
    bad = {s: p for s, p in problems.items() if p}
    if bad:
        raise CaseError(f"the orders are refused: {bad}")
    new, events, dice = play(system, state, decision, answers, data.get("dice"))
    if dice.unused:
        raise CaseError(f"faces no roll asked for: {dice.unused} (rolls: {[r.purpose for r in dice.rolls]})")
    shown = [show(e) for e in events]
    for want in _list(expect.get("events")):
        if not any(matches(want, e) for e in events):
            raise CaseError(f"no event {want}; events:\n  " + "\n  ".join(shown))
    for want in _list(expect.get("no_events")):
        hit = [s for s, e in zip(shown, events) if matches(want, e)]
        if hit:
            raise CaseError(f"an event {want} that should not be: {hit}")
    if not any(names_rule(e, case.rule) for e in events):
        raise CaseError(f"no event names the case's rule {case.rule}: the game does not apply it here; "
                        "events:\n  " + "\n  ".join(shown))
    for path, value in (expect.get("state") or {}).items():
        got = get_path(new, path)
        if got != value:
            raise CaseError(f"state {path} is {got!r}, expected {value!r}; events:\n  " + "\n  ".join(shown))
    for pattern in _list(expect.get("rolls")):
        if not any(fnmatch.fnmatchcase(r.purpose, str(pattern)) for r in dice.rolls):
            raise CaseError(f"no roll for {pattern!r}; rolls: {[r.purpose for r in dice.rolls]}")
    if "report" in expect:
        check_reports(case, system, new, decision, dice, events)
