"""Who may read an event: the one key ``visible_to`` (hxref.kit.events), the core's filter of the
turn report, and no other visibility key read or written anywhere in hxref."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hxref.crypto.dice import Dice
from hxref.kit.events import event, only, visible
from hxref.report.turn import event_line, shown

ROOT = Path(__file__).resolve().parents[2] / "hxref"


def test_an_event_without_visible_to_is_everyones():
    ev = event("weather", "the weather is Clear", "5.1")
    assert ev == {"type": "weather", "text": "the weather is Clear", "rule": "5.1"}
    assert all(visible(ev, who) for who in ("union", "confederate", None, "umpire"))


def test_an_event_with_visible_to_is_read_by_those_sides_and_the_umpire():
    ev = event("imc", "Grant gets 6 MP", "8.1", visible_to=["union"], force="grant", mp=6)
    assert ev["visible_to"] == ["union"] and ev["force"] == "grant" and ev["mp"] == 6
    assert visible(ev, "union") and visible(ev, "umpire")
    assert not visible(ev, "confederate") and not visible(ev, None)       # None: the public report


def test_visible_to_empty_is_the_umpires_alone():
    ev = {"type": "combat", "text": "x", "rule": "B1", "visible_to": []}
    assert visible(ev, "umpire") and not any(visible(ev, s) for s in ("union", "confederate", None))


def test_visible_to_is_sorted_once_each_and_never_names_the_umpire():
    assert only(["us", "german", "us"]) == {"visible_to": ["german", "us"]}
    assert only("us") == {"visible_to": ["us"]}
    with pytest.raises(ValueError):
        event("x", "y", visible_to=["umpire"])


def test_open_and_solo_reports_hide_nothing():
    ev = {"type": "imc", "text": "Grant gets 6 MP", "rule": "8.1", "visible_to": ["union"]}
    assert shown(ev, "confederate", "open") and shown(ev, None, "solo")
    assert not shown(ev, "confederate", "umpired") and shown(ev, "union", "umpired")


def test_the_umpire_sees_whom_a_restricted_event_was_told_to():
    ev = {"type": "wep", "text": "union WEP now 12", "rule": "4.25", "visible_to": ["union"]}
    assert event_line({"data": ev}, "umpire", "umpired") == "union WEP now 12 [rule 4.25] (told to union only)"
    assert event_line({"data": ev}, "union", "umpired") == "union WEP now 12 [rule 4.25]"


def test_a_die_records_who_may_see_it():
    d = Dice(b"\x01" * 32)
    d.d6("IMC grant", by="union", visible_to=["union"])
    d.d6("weather", by="union")
    secret, public = (r.to_dict() for r in d.rolls)
    assert secret["visible_to"] == ["union"] and "visible_to" not in public
    assert visible(secret, "union") and not visible(secret, "confederate") and visible(public, "confederate")


#: the visibility keys there were before ``visible_to``, each system its own subset, and the
#: Heartland field the core once stripped by name
OLD_KEYS = [
    re.compile(r"""["']private["']"""),
    re.compile(r"""["']only["']"""),
    re.compile(r"""["']redacted["']"""),
    re.compile(r"private_wep"),
    re.compile(r"\.private\b"),
    re.compile(r"""\b(d6|roll)\([^)]*\bprivate="""),            # a die rolled "private"
]


def test_no_code_reads_or_writes_the_old_visibility_keys():
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if path == ROOT / "kit" / "events.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(p.search(line) for p in OLD_KEYS):
                found.append(f"{path.relative_to(ROOT.parent)}:{n}: {line.strip()}")
    assert found == []


def test_the_core_strips_no_field_by_name():
    text = (ROOT / "report" / "turn.py").read_text(encoding="utf-8")
    assert "_strip_private" not in text and "private_wep" not in text
