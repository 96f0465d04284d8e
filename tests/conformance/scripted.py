"""A scripted player for a system's shipped demo: give it the system's moves, it writes the demo.

A system's ``make_demo.py`` names its demo (:class:`Demo`) and a ``play`` function, the moves: for
the game file in the working folder and an awaited decision (as the game file's header lists it),
a side's choice.  :func:`build` plays the game through the real command line in a scratch folder,
umpired (so every shipped file was accepted by hxref when it was made): the keys (kept from the
last build, so the same keys give the same dice chains and the same game), the game as ``hxref
new`` makes it with the demo's recorded nonce, each participant's join file, then for every
awaited decision each side's order file (``hxref answer``, or ``hxref commit`` and its reveal for
a secret decision) and the umpire's resolution, until nothing is awaited.  It writes the keys, the
order files, the game's pinned data and a ``demo.yaml`` manifest (which ``hxref demo`` and the
conformance suite replay) into ``info.orders_path()/<demo>/``.

The keys it writes are DEMO KEYS, published on purpose: never use them for a real game.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.cli.files import write_join
from hxref.crypto.signing import load_private_key, load_public_key
from hxref.kit.protocol import SystemInfo
from hxref.referee.engine import Engine

#: the new game, as first made: the data `hxref demo` re-creates it with (new --charts-from)
PINNED = "pinned-data.yaml"
#: hxref's default deadline policy, written out so that the demo does not change when the default does
POLICY = {"deadline_hours": 168, "grace_hours": 48, "nmr": "stand-fast"}

#: the moves: (the system's awaited decision as the header lists it, the side) -> the side's choice
Play = Callable[[dict, str], dict]
#: what the demo says before a decision is answered (or nothing)
Say = Callable[[dict], str | None]


@dataclass(frozen=True)
class Demo:
    """A shipped demo game: its system, scenario and fixed identity."""

    info: SystemInfo
    scenario: str
    created: str = "2026-11-29T12:00:00Z"
    umpire: str = "umpire"
    title: str = ""
    policy: dict[str, Any] = field(default_factory=lambda: dict(POLICY))

    @property
    def game_id(self) -> str:
        return f"{self.info.name}-demo"

    @property
    def out(self) -> Path:
        return self.info.orders_path() / (self.info.demo or self.scenario)


def run(args: list[str]) -> str:
    """``hxref ARGS`` through the real command line; SystemExit with its output when it fails."""
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"hxref {' '.join(args)} failed:\n{res.output}")
    return res.output


def awaiting(game: str = "game.yaml") -> dict | None:
    """The first awaited decision, as the game file's header lists it (None: the game is over)."""
    head = yamlio.fast_load(Path(game).read_text().split("\n--- #")[0])
    return head["awaiting"][0] if head["awaiting"] else None


def build(demo: Demo, play: Play, say: Say | None = None) -> Path:
    """Play the demo with ``play``'s moves and write it (see the module text); the demo's folder."""
    out = demo.out
    keep = {f.name: f.read_bytes() for f in (out / "keys").iterdir()} if (out / "keys").is_dir() else {}
    if out.exists():
        shutil.rmtree(out)
    (out / "keys").mkdir(parents=True)
    players = {s: s for s in demo.info.sides}
    names = {**players, "umpire": demo.umpire}
    nonce = hashlib.sha256(f"hxref demo nonce\x00{demo.game_id}".encode()).hexdigest()
    steps: list[dict] = []
    files: list[str] = []
    cwd, home = os.getcwd(), os.environ.get("HXREF_HOME")
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        os.environ["HXREF_NOW"] = demo.created
        os.environ["HXREF_HOME"] = str(Path(tmp) / "hxref-home")     # the demo keys' records stay here
        try:
            _keys(names, keep)
            Engine.create("game.yaml", system=demo.info.name, scenario=demo.scenario, mode="umpired",
                          sides={s: load_public_key(f"{k}.pub") for s, k in players.items()},
                          umpire=load_public_key(f"{demo.umpire}.pub"), game_id=demo.game_id,
                          created=demo.created, nonce=nonce, policy=dict(demo.policy)).save()
            shutil.copy("game.yaml", out / PINNED)

            def submit(batch: list[str]) -> None:
                run(["submit", "game.yaml", *batch])
                files.extend(batch)
                steps.append({"submit": batch})

            steps.append({"say": "Each participant sends a join file: the tip of its private dice chain."})
            for who, key in names.items():      # as `hxref join` writes them, with fixed join nonces
                join_nonce = hashlib.sha256(f"hxref demo join nonce\x00{demo.game_id}\x00{who}".encode()).hexdigest()
                write_join(Engine.load("game.yaml"), who, load_private_key(key), Path(f"{who}-join.yaml"), join_nonce)
            submit([f"{w}-join.yaml" for w in names])
            while (dec := awaiting()):
                told = say(dec) if say is not None else None
                if told:
                    steps.append({"say": told})
                choices = {side: play(dec, side) for side in dec["sides"]}
                _answer(dec, choices, names, submit)
                run(["resolve", "game.yaml", "--key", demo.umpire])
                steps.append({"resolve": True})
                steps += [{"report": s} for s in players]
            steps += [{"report": "public"}, {"audit": True}]
            for f in files:
                shutil.copy(f, out / f)
            for key in names.values():
                shutil.copy(key, out / "keys" / key)
                shutil.copy(f"{key}.pub", out / "keys" / f"{key}.pub")
        finally:
            os.chdir(cwd)
            os.environ.pop("HXREF_NOW", None)
            if home is None:
                os.environ.pop("HXREF_HOME", None)
            else:
                os.environ["HXREF_HOME"] = home
    manifest = {"system": demo.info.name, "scenario": demo.scenario, "game_id": demo.game_id,
                "created": demo.created, "nonce": nonce, "charts_from": PINNED, "policy": demo.policy,
                "mode": "umpired", "keys": {s: f"keys/{k}.pub" for s, k in players.items()},
                "umpire": f"keys/{demo.umpire}.pub", "umpire_key": f"keys/{demo.umpire}", "steps": steps}
    (out / "demo.yaml").write_text(f"# {demo.info.title}'s demo game, made by its make_demo.py "
                                   "(tests/conformance/scripted.py).\n"
                                   "# keys/ holds DEMO KEYS: never use them for a real game.\n"
                                   + yamlio.dump_fast(manifest))
    return out


def _keys(names: dict[str, str], keep: dict[str, bytes]) -> None:
    """Each participant's key: the last build's, else a new one."""
    for who, key in names.items():
        if key in keep:
            Path(key).write_bytes(keep[key])
            Path(key).chmod(0o600)
            Path(key + ".pub").write_bytes(keep[key + ".pub"])
        else:
            run(["keygen", key, "--comment", f"hxref DEMO key of the {who} -- never use it"])


def _answer(dec: dict, choices: dict[str, dict], names: dict[str, str], submit: Callable[[list[str]], None]) -> None:
    """Each side's order files for ``dec``: commit and reveal for a secret decision, else an answer."""
    if dec.get("secret"):
        for side, choice in choices.items():
            run(["commit", "game.yaml", "--side", side, "--key", names[side], "--choice", json.dumps(choice)])
        for side in choices:
            submit([f"{side}-{dec['id']}-commit.yaml"])
        submit([f"{side}-{dec['id']}-reveal.yaml" for side in choices])
        return
    for side, choice in choices.items():
        run(["answer", "game.yaml", "--side", side, "--key", names[side], "--choice", json.dumps(choice)])
        submit([f"{side}-{dec['id']}.yaml"])
