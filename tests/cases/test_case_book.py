"""The rule case book of every registered system, replayed through the system's real rules.

Every ``games/<data folder>/cases/*.yaml`` of every system in :func:`hxref.kit.registry.names`
is a list of cases.  Each case is played as the engine plays a decision: the decision's schema
(the order file's keys and types), then the system's ``check`` for every side, then its
``resolve`` with the case's dice.  A case passes only when the game itself applies the rule:
its problems (refused) or its events (resolved) must name the case's rule numbers.  The test id
is ``<system>/<file>/<rule>/<title>``.

The format, one YAML file per rule area::

    cases:
      - rule: "5.13a"                  # the rule the case is about (shown in the test id)
        title: a bid of 4 of 5 against a Pass is a monopoly
        example: heartland.md H-2      # the worked example of the rules digest it reproduces
                                       # (/work/shared/rules/<file>, section); leave out if none
        scenario: bidding-demo         # the position: a scenario of the system ...
        mode: umpired                  # ... in a game of this mode (open, umpired, solo; default
                                       #     umpired), given to the setup as the engine gives it
        setup:                         # ... with this fragment merged over the scenario's data
          maximum: {union: 5}          #     before the system's setup (mappings merge, lists replace)
        state:                         # ... and this patch of the state after setup:
          wep.union: 100               #     dotted paths (list items by number) -> the new value
        before:                        # decisions played first to reach the position, each
          - decision: bid              #     {decision, orders, dice, state}: they must be accepted
            orders: {union: {bid: 2}, confederate: {bid: 1}}
            dice: {"weather*": [3, 4]}
        decision: bid                  # the awaited decision to answer: its kind or its id
        orders:                        # each side's choice, as the player writes it in his file
          union: {bid: 4}
          confederate: {bid: 0}
        dice:                          # the faces by purpose: a glob of the roll's purpose (as
          "weather*": [3, 4]           #     the game log shows it) -> faces, taken in order.
                                       #     An unscripted roll or an unused face fails the case.
        expect:                        # either refused ...
          refused:
            side: union                #     (default: the decision's first side)
            rule: ["5.1"]              #     rule numbers some problem must name
            text: ["at most"]          #     substrings some problem must say (case-insensitive)
          # ... or what the resolution gives:
          events:                      #     each must match some event: rule number (exact, one of
            - {rule: "5.13a", text: [monopoly]}   # the event's rules) and text substrings
          no_events:                   #     events that must not happen
            - {rule: "5.12"}
          state:                       #     dotted paths of the new state -> their values
            current.remaining.union: 2
          rolls: ["weather*"]          #     purposes the game must have rolled for
          report:                      #     what each audience's report shows after the resolution
            union:                     #     (a side, `public` or `umpire`): texts it must show, and
              shows: ["union WEP now"] #     texts it must not (case-insensitive); a hidden text must
            confederate:               #     be in the umpire's report, who reads everything
              hides: ["union WEP now"]

A report is made by the calls ``hxref report`` makes (:func:`hxref.report.turn.build`), rendered in
Markdown (a table row reads ``| a | b |``): the system's ``view`` of the new state for the audience
in the case's ``mode`` (the umpire's: the open view of everything) and its ``report`` of that view,
then the "Last resolution" and "Dice" sections, the resolution's events and dice as far as the
audience may read them; the core's header, awaited decisions and sealed choices are left out.
See :func:`tests.cases.book.report_text`.

A calculator's case (a question, no decision; e.g. ``hxref kgp los``) gives ``query``, the
``hxref`` command line (``{data}`` = the system's data folder), run with ``--json`` through the
real CLI, and ``expect.answer`` (dotted paths of the JSON answer -> values; some ``rule`` or
``rules`` field must name the case's rule) or ``expect.refused`` (exit 2; ``text`` substrings of
the error, which must name the rule): see :func:`tests.cases.book.run_query`.

The loader and runner are :mod:`tests.cases.book`.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hxref.base.yamlio import load_data, load_data_fast, to_plain
from tests.cases import book

CASES = book.load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: book.Case) -> None:
    book.run(case)


@pytest.mark.parametrize("path", [p for _, p in book.case_files()], ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_the_strict_reader_reads_the_case_file_as_the_fast_one(path: Path) -> None:
    """The cases are collected with the fast reader; the strict one (line numbers, and a duplicate
    key refused) must read each file the same, so a badly written case book still fails."""
    assert to_plain(load_data(path)) == load_data_fast(path)


def test_every_system_has_a_case_book() -> None:
    from hxref.kit import registry

    have = {c.system for c in CASES}
    assert have == set(registry.names()), f"no case book for {sorted(set(registry.names()) - have)}"


def test_every_case_names_its_rule_and_title() -> None:
    for c in CASES:
        assert c.data.get("rule") and c.data.get("title"), c.id


def test_examples_name_a_digest_section() -> None:
    for c in CASES:
        if "example" in c.data:
            assert re.fullmatch(r"[a-z-]+\.md [A-Z]+-?\d+[a-z]?|[a-z-]+\.md \d+(\.\d+)?", str(c.data["example"])), c.id


MONOPOLY = {"rule": "5.13a", "title": "a bid of 4 of 5 against a Pass", "scenario": "bidding-demo",
            "setup": {"maximum": {"union": 5}}, "decision": "bid",
            "orders": {"union": {"bid": 4}, "confederate": {"bid": 0}}, "dice": {"weather*": [3, 4]}}


def _report_case(report: dict, **extra) -> book.Case:
    return book.Case("heartland", book.Path("harness.yaml"), 0,
                     {**MONOPOLY, **extra, "expect": {"events": [{"rule": "5.13a"}], "report": report}})


def test_a_report_expectation_reads_each_audiences_report() -> None:
    # the WEP is on the hidden AOD (3.16, 3.71): the Union's report tells it, the others' do not
    book.run(_report_case({"union": {"shows": ["union WEP now 224", "| weather (2d6) | union | 3 4 |"]},
                           "confederate": {"shows": ["union rolls 3+4=7: Clear"], "hides": ["union WEP now"]},
                           "public": {"hides": ["union WEP now", "| union | 5 | - | 224 |"]},
                           "umpire": {"shows": ["union WEP now 224"]}}))


@pytest.mark.parametrize("report, mode, error", [
    ({"union": {"shows": ["no such line"]}}, "umpired", "does not show 'no such line'"),
    ({"confederate": {"hides": ["union rolls 3+4=7"]}}, "umpired", "which it must not"),
    ({"confederate": {"hides": ["union WEP now"]}}, "open", "which it must not"),    # open: nothing is secret
    ({"confederate": {"hides": ["no such secret"]}}, "umpired", "not even the umpire"),
    ({"referee": {"shows": ["x"]}}, "umpired", "no audience 'referee'"),
    ({"union": {"show": ["x"]}}, "umpired", "a mapping of"),
    ({"union": {"shows": ["x"]}}, "hotseat", "is none of"),
])
def test_the_harness_fails_a_report_the_game_does_not_give(report, mode, error) -> None:
    with pytest.raises(book.CaseError, match=re.escape(error)):
        book.run(_report_case(report, mode=mode))


def test_the_harness_fails_a_case_the_rules_do_not_hold() -> None:
    # a case whose expectation is false must fail: the harness is not a rubber stamp
    good = next(c for c in CASES if "events" in (c.data.get("expect") or {}))
    bad = book.Case(good.system, good.file, good.index,
                    {**good.data, "expect": {"events": [{"rule": "99.99", "text": ["no such event"]}]}})
    with pytest.raises(book.CaseError, match="no event"):
        book.run(bad)
