"""Each side's Army Organization Display as boxes, and the public rest (3.1, 3.16, 3.71, 3.72):
``merged(public(s), {x: boxes(s, x)}) == s`` over every state of the shipped demos and of random
play of every shipped scenario; the box names are the public part's; the public part holds none of
either side's secrets, and is the same for two states that differ only in a side's hidden facts.
Readings: ``hxref/systems/heartland/aod.py``."""
from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import pytest

from hxref.base.canon import canonical_json
from hxref.base.paths import orders_dir
from hxref.kit import registry
from hxref.referee.engine import Engine
from hxref.systems.heartland import aod
from hxref.systems.heartland.dense_fog import ANNOUNCEMENTS, UNANNOUNCED
from hxref.systems.heartland.views import SIDES

from tests.conformance import harness
from tests.played import replay_folder

SYSTEM = registry.get("heartland")
#: decisions of random play: enough for several games of every shipped scenario
RANDOM_DECISIONS = 300


def _states_of(folder: Path, work: Path) -> list[dict]:
    return [pickle.loads(pickle.dumps(eng.state)) for _, _, eng in replay_folder(folder, work)]


@pytest.fixture(scope="module")
def demo_states(tmp_path_factory) -> dict[str, list[dict]]:
    """Every state of each shipped Heartland demo, replayed step by step."""
    return {d.name: _states_of(d, tmp_path_factory.mktemp(d.name))
            for d in sorted((orders_dir() / "heartland").iterdir()) if (d / "demo.yaml").is_file()}


@pytest.fixture(scope="module")
def random_states(tmp_path_factory) -> list[dict]:
    """The state after every resolution of random legal play, the scenarios in turn."""
    states: list[dict] = []
    resolve = Engine.resolve

    def recorded(self, *args, **kw):
        done = resolve(self, *args, **kw)
        states.append(pickle.loads(pickle.dumps(self.state)))
        return done

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Engine, "resolve", recorded)
        stats = harness.random_play("heartland", tmp_path_factory.mktemp("aod-random"), random.Random("aod"),
                                    RANDOM_DECISIONS, check_every=RANDOM_DECISIONS + 1)
    assert not stats.stuck
    return states


def _split(state) -> tuple[dict, dict]:
    return SYSTEM.public(state), {x: SYSTEM.boxes(state, x) for x in SIDES}


def _law(states) -> int:
    for i, s in enumerate(states):
        pub, boxes = _split(s)
        assert SYSTEM.merged(pub, boxes) == s, f"{s['scenario']} state {i}"
        for x in SIDES:
            assert sorted(boxes[x]) == aod.box_names(pub, x), f"{s['scenario']} state {i}: {x}'s box names"
    return len(states)


def test_the_law_over_every_state_of_the_demos(demo_states):
    assert set(demo_states) == {"heartland-demo", "bidding-demo"}
    for name, states in demo_states.items():
        assert _law(states) > 10, name


def test_the_law_over_random_play_of_every_scenario(random_states):
    assert {s["scenario"] for s in random_states} == set(SYSTEM.scenarios())
    assert _law(random_states) >= RANDOM_DECISIONS


def test_the_boxes_are_each_leader_each_hex_shown_and_the_track(demo_states):
    s = demo_states["heartland-demo"][-1]
    pub, boxes = _split(s)
    for x in SIDES:
        leaders = {lid for lid, ld in s["leaders"].items() if ld["side"] == x}
        assert {n.partition(":")[2] for n in boxes[x] if n.startswith("leader:")} == leaders
        assert {n.partition(":")[2] for n in boxes[x] if n.startswith("hex:")} == set(pub["seen"][x])
        for lid in leaders:
            box = boxes[x][aod.leader_box(lid)]
            assert box["leader"] == s["leaders"][lid]
            assert box["units"] == {u: r for u, r in s["units"].items() if r["leader"] == lid}
        assert boxes[x]["track"]["wep"] == s["wep"][x]
    bidding = demo_states["bidding-demo"][-1]
    assert {x: SYSTEM.boxes(bidding, x)["track"]["wep"] for x in SIDES} == bidding["wep"]
    assert "wep" not in SYSTEM.public(bidding)


def _quoted(values) -> set[str]:
    return {json.dumps(v) for v in values}


def test_the_public_part_holds_no_secret(demo_states, random_states):
    searched = 0
    for s in [*demo_states["heartland-demo"], *random_states]:
        text = canonical_json(SYSTEM.public(s)).decode()
        for x in SIDES:
            secrets = _quoted(SYSTEM.secrets(s, x))
            searched += len(secrets)
            assert not [v for v in secrets if v in text], (s["scenario"], x)
    assert searched > 1000


# --- a side's hidden facts, changed: the public part stays the same ------------------------------

def _living(s, side, led=True):
    return [u for u, r in s["units"].items() if r["side"] == side and r["steps"] > 0 and bool(r["leader"]) == led]


def _perturbations(s):
    """(what, the state changed) for each hidden fact of each side, written from ``s``."""
    out = []
    for x in SIDES:
        for uid in _living(s, x)[:2]:
            t = copy.deepcopy(s)
            t["units"][uid]["steps"] = 3 - t["units"][uid]["steps"]
            out.append((f"{uid}'s steps", t))
        lid = next(lid for lid, ld in s["leaders"].items() if ld["side"] == x and ld["hex"])
        for key in ("ml", "ap", "asp", "artillery"):
            t = copy.deepcopy(s)
            t["leaders"][lid][key] = t["leaders"][lid].get(key, 0) + 1
            out.append((f"{lid}'s {key}", t))
        t = copy.deepcopy(s)
        t["wep"][x] += 7
        out.append((f"{x}'s WEP", t))
    return out


def _two_leaders_in_one_hex(s, side):
    """``s`` with a second leader of ``side`` beside one who has a unit in his box."""
    t = copy.deepcopy(s)
    uid = _living(t, side)[0]
    boss = t["units"][uid]["leader"]
    other = next(lid for lid, ld in t["leaders"].items()
                 if ld["side"] == side and lid != boss and not ld["pool"])
    t["leaders"][other].update(hex=t["leaders"][boss]["hex"], superior=None)
    return t, uid, other


@pytest.mark.parametrize("scenario", ["heartland-demo", "river-line"])
def test_a_sides_hidden_facts_leave_the_public_part_as_it_was(scenario, random_states, demo_states):
    s = demo_states["heartland-demo"][-1] if scenario == "heartland-demo" else \
        next(st for st in reversed(random_states) if st["scenario"] == scenario)
    changes = [(what, s, t) for what, t in _perturbations(s)]
    for x in SIDES:
        t, uid, other = _two_leaders_in_one_hex(s, x)
        moved = copy.deepcopy(t)
        moved["units"][uid]["leader"] = other
        changes.append((f"{uid} moved between boxes in one hex", t, moved))
    for what, before, after in changes:
        assert after != before and SYSTEM.public(after) == SYSTEM.public(before), what
        assert SYSTEM.boxes(after, "union") != SYSTEM.boxes(before, "union") or \
            SYSTEM.boxes(after, "confederate") != SYSTEM.boxes(before, "confederate"), what
        assert SYSTEM.merged(SYSTEM.public(before), {x: SYSTEM.boxes(after, x) for x in SIDES}) == after, what


def test_dense_fog_keeps_markers_strengths_and_news_in_the_boxes(random_states):
    """3.72: wound, sickness and brevet markers, strengths, held announcements and pontoons laid
    but not announced are on the AOD: two states that differ in them have one public part."""
    s = copy.deepcopy(next(st for st in reversed(random_states) if st["scenario"] == "river-line"))
    s["options"]["dense_fog"] = True
    assert s.get("pontoons"), "river-line ships pontoons"
    changes = []
    for x in SIDES:
        lid = next(lid for lid, ld in s["leaders"].items() if ld["side"] == x and ld["hex"])
        for key in ("wound", "sick", "artillery"):
            t = copy.deepcopy(s)
            t["leaders"][lid][key] = t["leaders"][lid].get(key, 0) + 1
            changes.append((f"{lid}'s {key}", s, t))
        uid = _living(s, x)[0]
        t = copy.deepcopy(s)
        t["units"][uid]["cf"] = [n + 1 for n in t["units"][uid]["cf"]]
        changes.append((f"{uid}'s CF", s, t))
    laid = copy.deepcopy(s)
    pontoon = laid["pontoons"][0]
    pontoon.update({UNANNOUNCED: True, "status": "bridged", "laid_turn": laid["turn"]})
    elsewhere = copy.deepcopy(laid)
    elsewhere["pontoons"][0]["hexside"] = "somewhere else"
    news = copy.deepcopy(laid)
    news[ANNOUNCEMENTS] = [{"type": "pontoon.laid", "side": pontoon["side"], "pontoon": pontoon["id"],
                            "text": "a pontoon laid", "rule": "8.81"}]
    changes += [("where a pontoon was laid", laid, elsewhere), ("an announcement held", laid, news)]
    for what, before, after in changes:
        assert after != before and SYSTEM.public(after) == SYSTEM.public(before), what
        assert SYSTEM.merged(SYSTEM.public(after), {x: SYSTEM.boxes(after, x) for x in SIDES}) == after, what
    track = SYSTEM.boxes(news, pontoon["side"])["track"]
    assert track["pontoons"] == [[0, pontoon]] and track[ANNOUNCEMENTS] == [[0, news[ANNOUNCEMENTS][0]]]


def test_boxes_public_and_merged_change_nothing(demo_states):
    for s in demo_states["heartland-demo"][::5] + demo_states["bidding-demo"][::5]:
        before = canonical_json(s)
        pub, boxes = _split(s)
        assert canonical_json(s) == before
        frozen = canonical_json([pub, boxes])
        merged = SYSTEM.merged(pub, boxes)
        assert canonical_json([pub, boxes]) == frozen
        merged["turn"] = -1                       # the merged state shares nothing with its parts
        merged.get("units", {}).clear()
        assert canonical_json([pub, boxes]) == frozen


def test_a_field_named_nowhere_is_refused(demo_states):
    s = copy.deepcopy(demo_states["heartland-demo"][-1])
    s["zz_new_secret"] = "XYZZY"
    with pytest.raises(ValueError, match="zz_new_secret"):
        SYSTEM.public(s)
