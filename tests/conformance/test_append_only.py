"""A system's append-only state lists (SystemInfo.append_only) are handed to ``resolve`` as new lists
of the same items, not deep copies, so a resolution late in a campaign costs what an early one
does.  That is safe only if the rules append to such a list and change none of its items: this
replays every shipped demo of such a system and checks it at every resolution."""
from __future__ import annotations

import json

import pytest

from hxref.kit import protocol, registry
from tests.played import replay_folder

SYSTEMS = [i for i in registry.infos() if i.append_only and i.demo]


def test_heartland_marks_its_record_of_past_turns():
    assert registry.info("heartland").append_only == ("history", "calendar")


def test_the_copy_shares_items_and_copies_the_rest():
    info = registry.info("heartland")
    state = {"history": [{"turn": 1}], "leaders": {"a": {"ap": 2}}}
    copied = protocol.resolve_copy(info, state)
    assert copied == state
    assert copied["history"] is not state["history"] and copied["history"][0] is state["history"][0]
    assert copied["leaders"]["a"] is not state["leaders"]["a"]
    copied["history"].append({"turn": 2})
    copied["leaders"]["a"]["ap"] = 0
    assert state == {"history": [{"turn": 1}], "leaders": {"a": {"ap": 2}}}


@pytest.mark.parametrize("info", SYSTEMS, ids=[i.name for i in SYSTEMS])
def test_the_rules_only_append_to_an_append_only_list(info, tmp_path, monkeypatch):
    system = registry.get(info.name)
    real = type(system).resolve
    checked: list[str] = []

    def resolve(self, state, decision, answers, dice):
        before = {k: json.dumps(state.get(k), sort_keys=True) for k in info.append_only}
        given = {k: list(state.get(k) or []) for k in info.append_only}
        new, events = real(self, state, decision, answers, dice)
        for k in info.append_only:
            assert json.dumps(given[k], sort_keys=True) == before[k], f"{decision.id} changed an item of {k}"
            old = json.loads(before[k]) or []
            assert json.loads(json.dumps(new[k][:len(old)], sort_keys=True)) == old, \
                f"{decision.id} changed or removed an item of {k}"
        checked.append(decision.id)
        return new, events

    monkeypatch.setattr(type(system), "resolve", resolve)
    grew = False
    for _what, _names, eng in replay_folder(info.orders_path() / info.demo, tmp_path):
        grew = grew or any(eng.state.get(k) for k in info.append_only)
    assert checked and grew, "the demo resolves decisions and fills the append-only lists"
