"""``hxref new --charts-from GAME``: a new game played with the data files an earlier game pinned
(a club's season on one set of charts while hxref publishes new ones; the shipped demos, which
must keep their identity, so their signed order files stay valid, whatever charts come later)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.gamefile.game import GameFile
from hxref.base.paths import orders_dir

from tests.core import test_pinned_charts as pinned
from tests.security.attacker import rehash
from tests.core.test_pinned_charts import WEATHER, set_weather, to_weather

games = pinned.games            # the fixture: a copy of games/ the data folders point to

NEW = ["--system", "heartland", "--scenario", "bidding-demo", "--mode", "solo"]


def new(tmp_path, name: str, *extra: str):
    return CliRunner().invoke(main, ["new", str(tmp_path / name), *NEW, "--game-id", name[:-5], *extra])


def test_a_new_game_plays_with_the_charts_of_an_earlier_one(games, tmp_path):
    set_weather(games, "Rain")
    assert new(tmp_path, "first.yaml").exit_code == 0
    set_weather(games, "Snow")                      # hxref publishes a new Weather Table
    out = new(tmp_path, "second.yaml", "--charts-from", str(tmp_path / "first.yaml"))
    assert out.exit_code == 0, out.output
    first, second = (GameFile.load(tmp_path / n).log[0]["data"]["charts"] for n in ("first.yaml", "second.yaml"))
    assert second == first
    assert to_weather(Engine.load(tmp_path / "second.yaml")).endswith(": Rain")
    # without the option, today's charts
    assert new(tmp_path, "third.yaml").exit_code == 0
    assert to_weather(Engine.load(tmp_path / "third.yaml")).endswith(": Snow")


DEMO = orders_dir() / "heartland" / "bidding-demo"


def _demo_args(man: dict, **changed: str) -> list[str]:
    """`hxref new` as `hxref demo` runs it for the shipped demo (its label, time, nonce, pinned data,
    policy and keys), with ``changed`` options given other values."""
    given = {"--game-id": man["game_id"], "--created": man["created"], "--nonce": man["nonce"],
             "--charts-from": str(DEMO / man["charts_from"]), **changed}
    return ["--system", man["system"], "--scenario", man["scenario"], "--mode", man["mode"],
            *sum(([k, v] for k, v in given.items()), []),
            *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in man["policy"].items()), []),
            *sum((["--side", f"{s}={DEMO / k}"] for s, k in man["keys"].items()), [])]


def test_a_shipped_demo_made_again_has_its_identity_whatever_charts_are_published_since(games, tmp_path):
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    set_weather(games, "Blizzard")                  # hxref publishes another Weather Table since
    out = CliRunner().invoke(main, ["new", str(tmp_path / "g.yaml"), *_demo_args(man)])
    assert out.exit_code == 0, out.output
    shipped = GameFile.load(DEMO / man["charts_from"]).log[0]
    assert Engine.load(tmp_path / "g.yaml").identity == shipped["hash"]


def test_a_nonce_makes_only_a_shipped_demo_again_never_an_earlier_game(games, tmp_path, keydir):
    """The creator of an earlier game tries to make it again with its identity (its nonce, time and
    charts): every join and dice link of the first game would be valid in the second."""
    keys = ["--side", f"union={keydir / 'alice.pub'}", "--side", f"confederate={keydir / 'bob.pub'}"]
    first = tmp_path / "first.yaml"
    made = CliRunner().invoke(main, ["new", str(first), *NEW[:-2], "--mode", "open", "--game-id", "first",
                                     "--created", "2026-11-29T12:00:00Z", *keys])
    assert made.exit_code == 0, made.output
    nonce = GameFile.load(first).log[0]["data"]["nonce"]
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    for args in (
            ["--nonce", nonce, "--charts-from", str(first)],                 # the earlier game's own data
            ["--nonce", nonce],                                              # without any
            _demo_args(man, **{"--game-id": "first"}),                       # a demo's nonce, another game
            _demo_args(man, **{"--nonce": nonce})):                          # a demo's data, another nonce
        base = [] if "--system" in args else [*NEW[:-2], "--mode", "open", "--game-id", "first",
                                              "--created", "2026-11-29T12:00:00Z", *keys]
        out = CliRunner().invoke(main, ["new", str(tmp_path / "again.yaml"), *base, *args])
        assert out.exit_code == 2 and "[E504]" in out.output and out.output.count("\n") == 1, out.output
        assert "--nonce" in out.output and not (tmp_path / "again.yaml").exists()


@pytest.mark.parametrize("what, code, text", [
    ("missing", "E100", "no such game file"),
    ("kgp", "E504", "no heartland game file"),
    ("unpinned", "E504", "pins no charts"),
    ("damaged", "E500", "does not match its sha256"),
])
def test_a_bad_charts_from_game_is_refused_with_one_line(games, tmp_path, what, code, text):
    src = tmp_path / "src.yaml"
    if what == "kgp":
        CliRunner().invoke(main, ["new", str(src), "--system", "kgp", "--scenario", "cg-ii", "--mode", "solo"])
    elif what != "missing":
        assert new(tmp_path, "src.yaml").exit_code == 0
        gf = GameFile.load(src)
        if what == "unpinned":
            del gf.log[0]["data"]["charts"]
        else:
            gf.log[0]["data"]["charts"][WEATHER]["text"] += "# edited\n"
        _rehash(gf)
    out = new(tmp_path, "g.yaml", "--charts-from", str(src))
    assert out.exit_code == 2, out.output
    assert out.output.count("\n") == 1 and code in out.output and text in out.output and "src.yaml" in out.output
    assert not (tmp_path / "g.yaml").exists()


def _rehash(gf: GameFile) -> None:
    """A consistent game file with an edited first event (as its creator could make one)."""
    rehash(gf)
    gf.save()
