"""The charts a game is played with are pinned in its ``game.created`` (hxref.kit.data), so the
game's identity, the hash of that event, covers them, and so does every signature.

The attacker is a player with only the game file: he wants the Weather Table to say what suits
him, so he edits the pinned chart in the game file, with or without its sha256, and with or
without rewriting the hash chain after it.  Every variant is refused by the audit.
"""
from __future__ import annotations

import copy
import re

import pytest

from hxref.base.canon import sha256_hex
from hxref.referee.audit import audit
from hxref.gamefile.game import GameFile, event_hash
from tests.conftest import bid_round

WEATHER = "charts/weather.yaml"


@pytest.fixture
def played(cli, game) -> str:
    """The open bidding-demo game, three tied bids and the weather roll (5.2) played."""
    for decision in ("t1.bid", "t1.bid.r2", "t1.bid.r3"):
        bid_round(cli, game, 2, 2, decision)
    gf = GameFile.load(game)
    assert any(ev["kind"] == "die" and "weather" in ev["data"]["purpose"] for ev in gf.log)
    assert audit(game).ok
    return game


def forged_chart(text: str) -> str:
    """Every cell of the Weather Table Clear: the forger's favourite weather."""
    return re.sub(r"^(\s+\d+:\s+)\[.*\]$", lambda m: f"{m.group(1)}[Clear, Clear, Clear]", text, flags=re.M)


def edit_pinned(path: str, out: str, *, fix_sha: bool, rehash: bool) -> None:
    """The attacker's edit of the pinned chart, written with GameFile.save as his own tools would."""
    gf = GameFile.load(path)
    entry = gf.log[0]["data"]["charts"][WEATHER]
    entry["text"] = forged_chart(entry["text"])
    assert entry["text"] != GameFile.load(path).log[0]["data"]["charts"][WEATHER]["text"]
    if fix_sha:
        entry["sha256"] = sha256_hex(entry["text"].encode("utf-8"))
    if rehash:          # a consistent chain again, from the edited first event on
        prev = gf.log[0]["prev"]
        for ev in gf.log:
            ev["prev"] = prev
            ev["hash"] = prev = event_hash(ev)
        gf.header["identity"] = gf.log[0]["hash"]
        gf.header["head"] = {"seq": len(gf.log), "hash": gf.head}
    gf.path = type(gf.path)(out)
    gf.save()


def test_the_pinned_charts_are_part_of_the_identity(played):
    gf = GameFile.load(played)
    created = copy.deepcopy(gf.log[0])
    assert WEATHER in created["data"]["charts"] and gf.header["identity"] == created["hash"] == event_hash(created)


@pytest.mark.parametrize("fix_sha", [False, True])
def test_an_edited_pinned_chart_breaks_the_first_event(played, tmp_path, fix_sha):
    edit_pinned(played, str(tmp_path / "forged.yaml"), fix_sha=fix_sha, rehash=False)
    res = audit(tmp_path / "forged.yaml", known_head=False)
    assert not res.ok and res.problems == ["event 1: its content does not match its hash (edited)"]


def test_an_edited_pinned_chart_with_a_rewritten_chain_is_another_game(played, tmp_path):
    edit_pinned(played, str(tmp_path / "forged.yaml"), fix_sha=True, rehash=True)
    res = audit(tmp_path / "forged.yaml", known_head=False)
    # the chain is whole again, but every signed file names the game's true identity
    assert not res.ok and len(res.problems) == 1
    assert res.problems[0].startswith("event 2 (submission): replay refuses it: this file is for another game")


def test_a_pinned_chart_that_does_not_match_its_sha256_is_refused(played, tmp_path):
    edit_pinned(played, str(tmp_path / "forged.yaml"), fix_sha=False, rehash=True)
    res = audit(tmp_path / "forged.yaml", known_head=False)
    assert not res.ok and "this file is for another game" in res.problems[0]
    from hxref.base.errors import InvalidInput
    from hxref.referee import pinning

    with pytest.raises(InvalidInput, match="does not match its sha256") as exc:
        pinning.prepare("heartland", GameFile.load(tmp_path / "forged.yaml").log[0]["data"]["charts"])
    assert exc.value.code == "E500"


@pytest.mark.parametrize("key", ["../../../etc/passwd", "charts/../x.yaml", "maps/../x.yaml", "scenarios/demo.yaml",
                                 "Terrain.yaml", "maps/Demo.yaml"])
def test_a_pinned_chart_under_another_name_is_refused(key):
    from hxref.base.errors import InvalidInput
    from hxref.referee import pinning

    with pytest.raises(InvalidInput, match="is damaged") as exc:
        pinning.prepare("heartland", {key: {"text": "a: 1\n", "sha256": sha256_hex(b"a: 1\n")}})
    assert exc.value.code == "E500"
