"""The shipped demo games for the tests: listed from the registry, and played once per test run.

Every registered system's demos (``orders/<data_folder>/<scenario>/demo.yaml``, as :mod:`hxref.cli.demo`
lists them) are the games the tests play.  Two ways to play one:

- :func:`replay_folder` walks a demo through the engine in this process, yielding after every step
  (for the tests that look at each moment, or hook into the rules while they resolve);
- :class:`Played` hands out the finished game, played by ``hxref demo --keep`` -- the very command a
  player types -- once per test run: the first test that asks plays it into a per-run folder
  (one for every pytest-xdist worker, under a lock) and every other test gets that folder or a
  copy of it.

A demo replayed step by step in this process takes a second or a few; the finished game through
the command line, every one of its commands reading the game file again, several: that is what is
shared.

A game too long for one test is played in parts (:func:`chained`): each part a test of its own that
carries on where the part before it stopped, every part played once per test run in the run's shared
folder, in order, under a lock (the conformance suite's random play, the long games by mail).  A game copied out of the shared folder is proved by the audit's replay the first time a
test's machine (its own ``HXREF_HOME``) loads it, as a game that came by mail is.
"""
from __future__ import annotations

import contextlib
import copy
import fcntl
import functools
import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from hxref.base import yamlio
from hxref.referee.engine import Engine
from hxref.kit import registry

#: the time every shared demo is played at (the commands a demo runs read their own from its manifest)
NOW = "2026-12-01T12:00:00Z"


@dataclass(frozen=True)
class Demo:
    """One shipped demo: its system, scenario and folder of signed files."""

    system: str
    scenario: str
    folder: Path

    @property
    def id(self) -> str:
        return f"{self.system}:{self.scenario}"

    def manifest(self) -> dict:
        return read_manifest(self.folder)


def read_manifest(folder: Path) -> dict:
    """The ``demo.yaml`` in ``folder`` as plain data, as :func:`hxref.base.yamlio.load_data` reads it:
    the file is read each time, its text parsed once for the process (every replay, every part of
    the conformance suite and every template test reads a demo's manifest again)."""
    path = folder / "demo.yaml"
    return copy.deepcopy(_manifest_of(yamlio.read_text(path, yamlio.DATA_LIMITS), str(path)))


@functools.lru_cache(maxsize=64)
def _manifest_of(text: str, source: str) -> dict:
    return yamlio.to_plain(yamlio.load_rt(text, source, yamlio.DATA_LIMITS, strict=False))


def demos() -> list[Demo]:
    """Every registered system's shipped demos, system by system."""
    from hxref.cli.demo import demos as shipped

    return [Demo(system, scenario, path.parent) for system in registry.names()
            for scenario, path in shipped(system).items()]


def default_demos() -> list[Demo]:
    """The demo each registered system names as its own (``SystemInfo.demo``), one per system."""
    return [d for d in demos() if d.scenario == registry.info(d.system).demo]


def demo(system: str, scenario: str | None = None) -> Demo:
    """``system``'s demo ``scenario`` (default: the one its ``SystemInfo.demo`` names)."""
    name = scenario or registry.info(system).demo
    found = [d for d in demos() if d.system == system and d.scenario == name]
    assert found, f"{system} ships no demo {name!r}"
    return found[0]


@contextlib.contextmanager
def fixed_now(when: str) -> Iterator[None]:
    """Every signed time and every deadline read from ``HXREF_NOW``, as `hxref demo` does."""
    old = os.environ.get("HXREF_NOW")
    os.environ["HXREF_NOW"] = when
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("HXREF_NOW", None)
        else:
            os.environ["HXREF_NOW"] = old


def replay_folder(folder: Path, work: Path) -> Iterator[tuple[str, list[str], Engine]]:
    """Replay the demo game in ``folder`` (its ``demo.yaml`` and signed files) into ``work`` through the
    engine: yield ``(what, names, eng)`` after each submit (``"submit"``, the files) and each resolve
    (``"resolve"``, the decisions resolved); the game is saved at the end."""
    from hxref.crypto.signing import load_private_key, load_public_key

    man = read_manifest(folder)
    for f in folder.glob("*.yaml"):
        if f.name != "demo.yaml":
            shutil.copy(f, work / f.name)
    with fixed_now(man["created"]):
        eng = Engine.create(work / "game.yaml", system=man["system"], scenario=man["scenario"], mode=man["mode"],
                            sides={s: load_public_key(folder / k) for s, k in man["keys"].items()},
                            umpire=load_public_key(folder / man["umpire"]) if man.get("umpire") else None,
                            game_id=man["game_id"], created=man["created"], nonce=man.get("nonce"),
                            policy=man.get("policy"))
        ump = load_private_key(folder / man["umpire_key"]) if man.get("umpire_key") else None
        for step in man["steps"]:
            if step.get("submit"):
                for name in step["submit"]:
                    eng.submit((work / name).read_text(), name)
                yield "submit", list(step["submit"]), eng
            if "resolve" in step:
                yield "resolve", [r.decision for r in eng.resolve(ump)], eng
        eng.save()


def yields(step: dict) -> int:
    """How many moments :func:`replay_folder` yields for one step of a demo's manifest (a submit, a
    resolve, both or neither)."""
    return bool(step.get("submit")) + ("resolve" in step)


def chained(chain: Path, part: int, play: Callable[[int, Path], None]) -> Path:
    """The folder of part ``part`` (from 0) of the game played in parts under ``chain``: each part is
    played once for every process of a test run, in order, under the chain's lock -- the parts before
    it first, when no process has played them yet.  ``play(k, out)`` plays part ``k`` into its own
    empty folder ``out`` and leaves there what the next part carries on from (its state, or the
    name of a folder it kept playing in); a ``done`` mark tells that a part is whole.  A part that
    fails is marked so, and every later part fails at once naming it, instead of playing it again."""
    chain.mkdir(parents=True, exist_ok=True)
    with open(chain / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for k in range(part + 1):
            out = chain / f"part-{k}"
            if (out / "done").is_file():
                continue
            if (out / "failed").is_file():
                raise AssertionError(f"{chain.name}: part {k + 1} failed (its own test says why)")
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            try:
                play(k, out)
            except BaseException:
                (out / "failed").write_text("")
                raise
            (out / "done").write_text("")
    return chain / f"part-{part}"


def content_key(folder: Path) -> str:
    """A short digest of a demo folder's files (names and bytes): a changed demo is played anew."""
    h = hashlib.sha256()
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(folder)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:12]


class Played:
    """The finished demo games of one test run, played on first request into ``root``.

    ``root`` is shared by every worker of the run; a lock file per demo lets one worker play it while
    the others wait, and a ``done`` mark tells them it is whole."""

    def __init__(self, root: Path):
        self.root = root

    def folder(self, system: str, scenario: str | None = None) -> Path:
        """The folder ``hxref demo --keep`` left: the finished ``game.yaml``, the demo's order files,
        the public keys (and an umpired demo's umpire key), and every audience's report as Markdown
        and HTML (what the command printed is kept beside it: :meth:`output`).  Shared: a test that
        changes anything works on :meth:`copy`."""
        d = demo(system, scenario)
        out = self.root / f"{d.system}-{d.scenario}-{content_key(d.folder)}"
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / f"{out.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (out / "done").is_file():
                shutil.rmtree(out, ignore_errors=True)
                _play(d, out)
                (out / "done").write_text("")
        return out

    def output(self, system: str, scenario: str | None = None) -> str:
        """What ``hxref demo --keep`` printed as it played the demo (``--format md``)."""
        folder = self.folder(system, scenario)
        return folder.with_name(f"{folder.name}.output").read_text(encoding="utf-8")

    def copy(self, system: str, dest: Path, scenario: str | None = None) -> Path:
        """A copy of the finished demo in ``dest`` (made, with its parents): the test's own to change."""
        shutil.copytree(self.folder(system, scenario), dest, ignore=shutil.ignore_patterns("done"))
        return dest


def _play(d: Demo, out: Path) -> None:
    """``hxref demo --keep out`` for ``d``, with a machine of its own (``HXREF_HOME``) and a fixed clock."""
    from click.testing import CliRunner

    from hxref.cli import main

    home = out.parent / f"{out.name}.home"
    home.mkdir(exist_ok=True)
    res = CliRunner(env={"HXREF_HOME": str(home), "HXREF_NOW": NOW}).invoke(
        main, ["demo", "--system", d.system, "--scenario", d.scenario, "--keep", str(out), "--format", "md"],
        catch_exceptions=False)
    assert res.exit_code == 0, f"hxref demo --system {d.system} --scenario {d.scenario}:\n{res.output}"
    out.with_name(f"{out.name}.output").write_text(res.output, encoding="utf-8")
