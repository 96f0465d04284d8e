"""Shared fixtures: keys, a command-line runner in a temporary folder, open games."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main

NOW = "2026-11-29T12:00:00Z"

# the heads this machine has seen (hxref.gamefile.heads) are kept apart from the user's own, for every
# test and every hxref process a test starts
os.environ["HXREF_HOME"] = tempfile.mkdtemp(prefix="hxref-test-home-")


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch) -> Path:
    """Each test runs on a machine of its own: the heads it keeps and its keys' records of the games
    they joined (hxref.referee.key_record) start empty, so a demo game re-created by one test (with its
    shipped identity) is not a game the keys of the next test joined already."""
    home = tmp_path_factory.mktemp("hxref-home")
    monkeypatch.setenv("HXREF_HOME", str(home))
    return home


def _bytecode_apart(config) -> None:
    """Where the environment forbids bytecode beside the sources (``PYTHONDONTWRITEBYTECODE``), the
    run keeps it in a folder of its own instead, removed at the end: otherwise every xdist worker
    and every ``hxref`` process a test starts compiles hxref again (about 0.2 s a process), and
    pytest rewrites every test module's asserts again in each worker."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    prefix = tempfile.mkdtemp(prefix="hxref-test-bytecode-")
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode, sys.pycache_prefix = False, prefix
    config.add_cleanup(lambda: shutil.rmtree(prefix, ignore_errors=True))


#: the folder of this run's played demos (tests/played.py), made by the first process of the run and
#: named to pytest-xdist's workers, which inherit its environment
PLAYED = "HXREF_TEST_PLAYED"


def pytest_configure(config):
    """The first process of the run (the only one, or xdist's controller) makes the folder of the
    played demos; on a run of the whole suite it starts playing them at once, two at a time, while
    the workers collect the tests (a test that needs a demo before it is done waits for it)."""
    if hasattr(config, "workerinput"):
        # an xdist worker is given the controller's terminal width as COLUMNS: the commands lay their
        # output out as under a plain `pytest`, with the COLUMNS the run was started with, or none
        given = os.environ.get(_COLUMNS)
        if given:
            os.environ["COLUMNS"] = given
        elif given is not None:
            os.environ.pop("COLUMNS", None)
        return
    os.environ[_COLUMNS] = os.environ.get("COLUMNS", "")
    _bytecode_apart(config)
    from tests.played import Played, demos

    root = Path(tempfile.mkdtemp(prefix="hxref-played-"))
    os.environ[PLAYED] = str(root)
    config.stash[_ROOT] = root
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        import concurrent.futures
        import multiprocessing

        pool = concurrent.futures.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
        for d in demos():
            pool.submit(Played(root).folder, d.system, d.scenario)
        config.stash[_POOL] = pool


def pytest_unconfigure(config):
    pool = config.stash.get(_POOL, None)
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
    root = config.stash.get(_ROOT, None)
    if root is not None:
        shutil.rmtree(root, ignore_errors=True)


_ROOT = pytest.StashKey[Path]()
_COLUMNS = "HXREF_TEST_COLUMNS"
_POOL = pytest.StashKey[object]()


@pytest.fixture(scope="session")
def played():
    """The shipped demos, each played to its end once per test run (tests/played.py)."""
    from tests.played import Played

    return Played(Path(os.environ[PLAYED]))


@pytest.fixture
def games_copy(tmp_path, monkeypatch) -> Path:
    """A copy of games/ that the data folders of every system now point to (so a test may change
    its files), at the time the tests play."""
    from hxref.base import paths

    copy = tmp_path / "games"
    shutil.copytree(paths.games_dir(), copy)
    monkeypatch.setattr(paths, "games_dir", lambda: copy)
    monkeypatch.setenv("HXREF_NOW", NOW)
    return copy


@pytest.fixture(scope="session")
def keydir(tmp_path_factory) -> Path:
    from hxref.crypto.signing import generate_key

    d = tmp_path_factory.mktemp("keys")
    for name in ("alice", "bob", "carol", "umpire"):
        generate_key(d / name, name)
    return d


class Cli:
    """Run hxref commands in one folder, as a user would."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int = 0):
        res = self.runner.invoke(main, list(args), catch_exceptions=False)
        assert res.exit_code == code, f"hxref {' '.join(args)} -> {res.exit_code}\n{res.output}"
        return res

    def fails(self, *args: str, code: int = 2) -> str:
        """Run a command that must fail; return its one-line error after checking the shape."""
        res = self(*args, code=code)
        err = res.stderr.strip()
        assert err.startswith("hxref: error: "), res.output
        assert "\n" not in err and "Traceback" not in res.output, res.output
        return err


@pytest.fixture
def cli(tmp_path, keydir, monkeypatch) -> Cli:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HXREF_NOW", NOW)
    for f in keydir.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "alice").chmod(0o600)
    return Cli(tmp_path)


@pytest.fixture
def game(cli) -> str:
    """An open bidding-demo game that both sides have joined."""
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "test-game", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    return "g.yaml"


def joined(cli, game: str, system: str, scenario: str, game_id: str, *more: str, union: str = "alice") -> str:
    """``game``, made with `hxref new` (``more``: its other options) for the key ``union`` as the union
    and bob as the confederates, and joined by both sides, each join submitted in turn."""
    cli("new", game, "--system", system, "--scenario", scenario, "--game-id", game_id,
        "--side", f"union={union}.pub", "--side", "confederate=bob.pub", *more)
    for side, key in (("union", union), ("confederate", "bob")):
        cli("join", game, "--side", side, "--key", key)
        cli("submit", game, f"{side}-join.yaml")
    return game


@pytest.fixture
def hgame(cli):
    """An open heartland-demo game at the Confederates' first orders (they bid their full 5)."""
    joined(cli, "h.yaml", "heartland", "heartland-demo", "hd-test")
    bid_round(cli, "h.yaml", 2, 5)
    import json

    st = json.loads(cli("status", "h.yaml", "--json").stdout)
    assert st["awaiting"][0]["decision"] == "t1.i1.orders"
    return "h.yaml"


def bid_round(cli, game: str, union: int, confederate: int, decision: str = "t1.bid") -> None:
    """Both sides commit, submit, reveal; then resolve."""
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", f"bid: {union}")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", f"bid: {confederate}")
    cli("submit", game, f"union-{decision}-commit.yaml", f"confederate-{decision}-commit.yaml")
    cli("submit", game, f"union-{decision}-reveal.yaml", f"confederate-{decision}-reveal.yaml")
    cli("resolve", game)


def envelope(game: str, side: str, decision: str, kind: str) -> str:
    """The first lines of a hand-written order file for ``game`` as it is now: format, label,
    identity, head and signed time, decision, side and kind (what `hxref answer` writes)."""
    from hxref.referee.engine import Engine

    eng = Engine.load(game)
    e = eng.envelope(side, decision, kind)
    return (f"hxref: 2\ngame: {e['game']}\nidentity: {e['identity']}\nhead: {e['head']}\nat: '{e['at']}'\n"
            f"decision: {decision}\nside: {side}\nkind: {kind}\n")
