"""Pinned charts (hxref.kit.data): a game is played, audited and replayed with the charts it was
created with, whatever the files under games/ say today.

Every test works on a copy of the games folder (``games`` fixture), so no changed chart is ever
left in the tree.  The game is Heartland's bidding-demo: three tied bids end in the weather
roll of the initiative winner (5.2), looked up on games/heartland/charts/weather.yaml.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.referee.audit import audit, rerun
from hxref.referee.engine import Engine
from hxref.base.errors import InvalidInput
from hxref.kit import data
from hxref.referee import pinning

WEATHER = "charts/weather.yaml"


@pytest.fixture
def games(games_copy) -> Path:
    """A copy of games/ that the data folders of every system now point to (tests/conftest.py)."""
    return games_copy


def set_weather(games: Path, result: str) -> str:
    """Make every cell of the Weather Table ``result``; return the file's new text."""
    path = games / "heartland" / WEATHER
    text = re.sub(r"^(\s+\d+:\s+)\[.*\]$", lambda m: f"{m.group(1)}[{result}, {result}, {result}]",
                  path.read_text(), flags=re.M)
    path.write_text(text)
    return text


def new_game(where: Path, name: str = "g.yaml") -> Engine:
    return Engine.create(where / name, system="heartland", scenario="bidding-demo", mode="solo",
                         sides={"union": None, "confederate": None}, game_id=name[:-5])


def to_weather(eng: Engine) -> str:
    """Three tied bids (the examples), then the weather roll: the text of the weather event."""
    for _ in range(3):
        dec = eng.awaiting[0]
        for side in dec.sides:
            eng.answer_solo(side, dec.id, dict(dec.example))
        done = eng.resolve()
    eng.save()
    text = [e["text"] for e in done[-1].events if re.search(r"rolls \d\+\d=\d+:", e.get("text", ""))]
    assert len(text) == 1, done[-1].events
    return text[0]


def test_a_new_game_pins_every_chart_with_its_sha256(games, tmp_path):
    eng = new_game(tmp_path)
    pinned = eng.gf.log[0]["data"]["charts"]
    on_disk = sorted(f"charts/{p.name}" for p in (games / "heartland" / "charts").glob("*.yaml"))
    assert sorted(pinned) == on_disk + ["terrain.yaml"] and WEATHER in on_disk      # bidding-demo has no map
    text = (games / "heartland" / WEATHER).read_text()
    assert pinned[WEATHER] == {"text": text, "sha256": data.sha256_hex(text.encode())}


def test_an_honest_game_audits_ok_after_its_chart_file_is_replaced(games, tmp_path):
    set_weather(games, "Rain")
    assert to_weather(new_game(tmp_path)).endswith(": Rain")
    assert audit(tmp_path / "g.yaml").ok and audit(tmp_path / "g.yaml").notes == []
    set_weather(games, "Blizzard")       # the owner publishes a new Weather Table
    res = audit(tmp_path / "g.yaml")
    assert res.ok and res.problems == []
    assert [c["chart"] for c in res.charts_changed] == [WEATHER]
    assert len(res.notes) == 1 and res.notes[0].startswith("NOTICE: ") and WEATHER in res.notes[0]
    out = CliRunner().invoke(main, ["audit", str(tmp_path / "g.yaml")])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("audit OK: ") and f"NOTICE: the game was played with its pinned {WEATHER}" in out.output


def test_the_game_goes_on_with_its_pinned_chart(games, tmp_path):
    set_weather(games, "Rain")
    new_game(tmp_path).save()
    set_weather(games, "Blizzard")
    assert to_weather(Engine.load(tmp_path / "g.yaml")).endswith(": Rain")
    # and a game made now plays with the new file
    assert to_weather(new_game(tmp_path, "new.yaml")).endswith(": Blizzard")


def test_rerun_replays_with_todays_charts_and_lists_what_changes(games, tmp_path):
    set_weather(games, "Rain")
    eng = new_game(tmp_path)
    assert to_weather(eng).endswith(": Rain")
    assert rerun(tmp_path / "g.yaml").ok          # nothing differs while the file is the pinned one
    set_weather(games, "Snow")
    res = rerun(tmp_path / "g.yaml")
    assert not res.ok and res.charts == [WEATHER]
    assert [d["decision"] for d in res.differences] == ["t1.bid.r3"]
    assert res.differences[0]["before"].endswith(": Rain") and res.differences[0]["after"].endswith(": Snow")
    out = CliRunner().invoke(main, ["audit", str(tmp_path / "g.yaml"), "--rerun"])
    assert out.exit_code == 1
    assert f"rerun with today's {WEATHER}" in out.output and "logged: union rolls" in out.output
    assert "today:  union rolls" in out.output and ": Snow" in out.output
    as_json = json.loads(CliRunner().invoke(main, ["audit", str(tmp_path / "g.yaml"), "--rerun", "--json"]).output)
    assert as_json["charts"] == [WEATHER]


def test_two_games_with_different_charts_in_one_process_do_not_mix(games, tmp_path):
    set_weather(games, "Rain")
    rain = new_game(tmp_path, "rain.yaml")
    set_weather(games, "Snow")
    snow = new_game(tmp_path, "snow.yaml")
    (games / "heartland" / WEATHER).unlink()          # neither game needs the file any more
    # interleaved: each resolution looks the weather up on its own game's chart
    for _ in range(2):
        dec_r, dec_s = rain.awaiting[0], snow.awaiting[0]
        for eng, dec in ((rain, dec_r), (snow, dec_s)):
            for side in dec.sides:
                eng.answer_solo(side, dec.id, dict(dec.example))
        rain.resolve()
        snow.resolve()
    assert to_weather_last(rain, "rain").endswith(": Rain")
    assert to_weather_last(snow, "snow").endswith(": Snow")
    for name in ("rain.yaml", "snow.yaml"):
        res = audit(tmp_path / name)
        assert res.ok, res.problems
        assert res.charts_changed == [{"chart": WEATHER, "how": "is no longer in " + str(games / "heartland")}]


def to_weather_last(eng: Engine, label: str) -> str:
    dec = eng.awaiting[0]
    assert dec.id == "t1.bid.r3", (label, dec.id)
    for side in dec.sides:
        eng.answer_solo(side, dec.id, dict(dec.example))
    done = eng.resolve()
    eng.save()
    return next(e["text"] for e in done[-1].events if re.search(r"rolls \d\+\d=\d+:", e.get("text", "")))


def test_rules_called_with_no_game_read_the_disk(games):
    from hxref.kit.charts import Charts
    from hxref.systems import get
    from hxref.systems.heartland.initiative import WeatherChart

    today = get("heartland").charts                 # rules bound to no game: today's files
    assert WeatherChart.load(today).lookup(1, 7) == "Clear"
    set_weather(games, "Thaw")
    assert WeatherChart.load(today).lookup(1, 7) == "Thaw"     # the file read again: it changed
    charts = pinning.prepare("heartland", {WEATHER: {"text": (t := set_weather(games, "Cold")),
                                                  "sha256": data.sha256_hex(t.encode())}})
    set_weather(games, "Snow")
    bound = get("heartland").bind(Charts("heartland", charts))
    assert WeatherChart.load(bound.charts).lookup(1, 7) == "Cold"
    assert WeatherChart.load(today).lookup(1, 7) == "Snow"


def test_a_game_made_before_charts_were_pinned_reads_the_disk(games, tmp_path):
    eng = new_game(tmp_path)
    eng.gf.log[0]["data"].pop("charts")      # as an old game file holds it
    set_weather(games, "Light Snow")
    assert to_weather(eng).endswith(": Light Snow")


def test_a_chart_missing_from_games_at_creation(games, tmp_path):
    (games / "heartland" / WEATHER).unlink()
    with pytest.raises(InvalidInput) as exc:       # the scenario names the Weather Table's stand-in flag
        new_game(tmp_path)
    assert exc.value.code == "E503" and exc.value.where.file == str(games / "heartland" / WEATHER)
    assert "weather" in exc.value.message and not (tmp_path / "g.yaml").exists()
    out = CliRunner().invoke(main, ["new", str(tmp_path / "g.yaml"), "--system", "heartland", "--scenario",
                                    "bidding-demo", "--mode", "solo"])
    assert out.exit_code == 2 and "weather.yaml" in out.output and not (tmp_path / "g.yaml").exists()


def test_a_chart_missing_later_only_stops_the_games_that_did_not_pin_it(games, tmp_path):
    shutil.move(games / "heartland" / "charts" / "imc.yaml", tmp_path / "imc.yaml")
    eng = new_game(tmp_path)            # made without an IMC: it pins the others
    assert "charts/imc.yaml" not in eng.gf.log[0]["data"]["charts"]
    with pytest.raises(InvalidInput) as exc:
        eng.system.charts.chart("imc")
    assert exc.value.code == "E503" and exc.value.where.file.endswith("charts/imc.yaml")
