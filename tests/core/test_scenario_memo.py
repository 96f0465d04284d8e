"""The published-scenario comparison is remembered between commands, so `hxref status` does not
import a system's rules; any change to what the answer depends on is compared afresh."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hxref.referee import pinning, published, scenario_memo


def _counting(lines: list[str]):
    calls: list[int] = []

    def compute() -> list[str]:
        calls.append(1)
        return list(lines)
    return compute, calls


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "games" / "heartland"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "scenarios" / "x.yaml").write_text("sides: [union, confederate]\n")
    return folder


def test_the_second_reading_is_remembered(tmp_path):
    folder = _folder(tmp_path)
    compute, calls = _counting(["the scenario x differs"])
    for _ in range(3):
        assert scenario_memo.remembered("heartland", "x", {"a": 1}, folder, compute) == ["the scenario x differs"]
    assert len(calls) == 1


def test_a_changed_data_file_or_game_scenario_is_compared_afresh(tmp_path):
    folder = _folder(tmp_path)
    compute, calls = _counting([])
    scenario_memo.remembered("heartland", "x", {"a": 1}, folder, compute)
    scenario_memo.remembered("heartland", "x", {"a": 2}, folder, compute)       # another game's scenario
    assert len(calls) == 2
    f = folder / "scenarios" / "x.yaml"
    f.write_text("sides: [union, confederate, nobody]\n")                     # the published file edited
    scenario_memo.remembered("heartland", "x", {"a": 1}, folder, compute)
    assert len(calls) == 3
    (folder / "charts.yaml").write_text("stand_in: true\n")                    # a new file in the folder
    scenario_memo.remembered("heartland", "x", {"a": 1}, folder, compute)
    assert len(calls) == 4


def test_a_planted_answer_under_another_key_is_not_read(tmp_path):
    """A cache file holds its full key: one copied over another entry's name is not believed."""
    folder = _folder(tmp_path)
    compute, _ = _counting(["the scenario x differs"])
    scenario_memo.remembered("heartland", "x", {"a": 1}, folder, compute)
    k = scenario_memo.key("heartland", "x", {"a": 2}, folder)
    path = scenario_memo._path(k)
    path.write_text(json.dumps({"key": "0" * 64, "lines": []}))
    compute2, calls = _counting(["differs too"])
    assert scenario_memo.remembered("heartland", "x", {"a": 2}, folder, compute2) == ["differs too"]
    assert calls == [1]


def test_an_unwritable_cache_still_answers(tmp_path, monkeypatch):
    blocked = tmp_path / "home"
    blocked.write_text("a file, not a folder")
    monkeypatch.setenv("HXREF_HOME", str(blocked))
    compute, calls = _counting(["x"])
    assert scenario_memo.remembered("heartland", "x", {}, _folder(tmp_path), compute) == ["x"]
    assert scenario_memo.remembered("heartland", "x", {}, _folder(tmp_path / "b"), compute) == ["x"]
    assert len(calls) == 2


def test_the_remembered_answer_is_the_computed_one():
    scenario = published.published_scenario("heartland", "river-line")
    edited = dict(scenario, wep={"union": 1, "confederate": 1})
    for s in (scenario, edited):
        assert published.scenario_differences("heartland", "river-line", s) \
            == published._scenario_differences("heartland", "river-line", s)
    assert published.scenario_differences("heartland", "river-line", edited)


def test_status_imports_no_rules(cli):
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    probe = ("import sys\nfrom hxref.cli import main\n"
             "try:\n    main(['status', 'g.yaml'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('hxref.systems.heartland.')))\n")
    env = dict(os.environ)
    for _ in range(2):      # the first command remembers the comparison, the second reads it
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                             cwd=cli.folder, check=True).stdout
    assert out.strip().splitlines()[-1] == "['hxref.systems.heartland.info']"


def test_the_pinned_charts_comparison_is_remembered_by_what_the_game_holds(tmp_path, monkeypatch):
    """`hxref status` compares the game's pinned charts with the published ones once; the answer
    kept is keyed by the sha256 of each text as the game holds it, so a crafted game that claims
    the published digests for other texts is compared afresh, never handed an honest game's answer."""
    from hxref.base.canon import sha256_hex
    from hxref.base.errors import InvalidInput

    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "home"))
    honest = pinning.pin("heartland", {"map": "demo"})
    calls = []
    real = published._unpublished
    monkeypatch.setattr(published, "_unpublished", lambda *a: calls.append(1) or real(*a))
    assert published.unpublished("heartland", honest, {"map": "demo"}) == []
    assert published.unpublished("heartland", honest, {"map": "demo"}) == [] and len(calls) == 1     # remembered
    rel = next(iter(honest))
    crafted = {**honest, rel: {"sha256": honest[rel]["sha256"], "text": honest[rel]["text"] + "# changed\n"}}
    with pytest.raises(InvalidInput) as err:
        published.unpublished("heartland", crafted, {"map": "demo"})
    assert err.value.code == "E500" and len(calls) == 2
    text = honest[rel]["text"] + "# changed\n"
    changed = {**honest, rel: {"sha256": sha256_hex(text.encode("utf-8")), "text": text}}
    found = published.unpublished("heartland", changed, {"map": "demo"})
    assert len(calls) == 3 and len(found) == 1 and found[0].startswith(f"{rel} differs")
