"""Build Dice Duel's shipped demo game: keys, signed order files and the manifest.

    python -m tests.conformance.duel.make_demo

It plays the scripted duel below through the real command line in a scratch folder (so every
shipped file was accepted by hxref when it was made), umpired, and writes the keys, the order
files and a ``demo.yaml`` manifest into ``tests/conformance/duel/orders/duel/``.  Run it again
when the game file's first event changes (every signed file names the game's identity); the
same keys give the same dice chains, so a rebuild replays the same duel.

The keys in ``keys/`` are DEMO KEYS, published on purpose: never use them for a real game.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.cli.files import write_join
from hxref.referee.engine import Engine
from hxref.crypto.signing import load_private_key, load_public_key
from hxref.kit import registry

from .info import INFO

SPEC = {"scenario": "duel", "game_id": "dice-duel-demo", "created": "2026-11-29T12:00:00Z",
        "players": {"red": "red", "blue": "blue"}, "umpire": "umpire",
        "champions": {"red": "Sir Roland", "blue": "The Black Knight"},
        # D2: the stances each side plays, turn by turn (the last one repeats)
        "stances": {"red": ["attack", "attack", "defend", "attack"], "blue": ["defend", "attack", "attack"]}}
POLICY = {"deadline_hours": 168, "grace_hours": 48, "nmr": "stand-fast"}
OUT = INFO.orders_path() / INFO.demo
#: the new game, as first made: the data `hxref demo` re-creates it with (new --charts-from)
PINNED = "pinned-data.yaml"


def _run(args: list[str]) -> str:
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"hxref {' '.join(args)} failed:\n{res.output}")
    return res.output


def _awaiting() -> dict | None:
    head = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])
    return head["awaiting"][0] if head["awaiting"] else None


def build() -> Path:
    keep = {f.name: f.read_bytes() for f in (OUT / "keys").iterdir()} if (OUT / "keys").is_dir() else {}
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "keys").mkdir(parents=True)
    names = {**SPEC["players"], "umpire": SPEC["umpire"]}
    nonce = hashlib.sha256(f"hxref demo nonce\x00{SPEC['game_id']}".encode()).hexdigest()
    steps: list[dict] = []
    files: list[str] = []
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        os.environ["HXREF_NOW"] = SPEC["created"]
        home = os.environ.get("HXREF_HOME")
        os.environ["HXREF_HOME"] = str(Path(tmp) / "hxref-home")     # the demo keys' records stay here
        try:
            for who, key in names.items():
                if key in keep:
                    Path(key).write_bytes(keep[key])
                    Path(key).chmod(0o600)
                    Path(key + ".pub").write_bytes(keep[key + ".pub"])
                else:
                    _run(["keygen", key, "--comment", f"hxref DEMO key of the {who} -- never use it"])
            # made as `hxref new` makes it, with the demo's recorded nonce (which `hxref new --nonce`
            # takes only to re-create a demo already shipped: with --charts-from its pinned data)
            Engine.create("game.yaml", system=INFO.name, scenario=SPEC["scenario"], mode="umpired",
                          sides={s: load_public_key(f"{k}.pub") for s, k in SPEC["players"].items()},
                          umpire=load_public_key(f"{SPEC['umpire']}.pub"), game_id=SPEC["game_id"],
                          created=SPEC["created"], nonce=nonce, policy=dict(POLICY)).save()
            shutil.copy("game.yaml", OUT / PINNED)

            def submit(batch: list[str]) -> None:
                _run(["submit", "game.yaml", *batch])
                files.extend(batch)
                steps.append({"submit": batch})

            steps.append({"say": "Each participant sends a join file: the tip of its private dice chain."})
            for who, key in names.items():      # as `hxref join` writes them, with fixed join nonces
                join_nonce = hashlib.sha256(f"hxref demo join nonce\x00{SPEC['game_id']}\x00{who}".encode()).hexdigest()
                write_join(Engine.load("game.yaml"), who, load_private_key(key), Path(f"{who}-join.yaml"), join_nonce)
            submit([f"{w}-join.yaml" for w in names])
            turn = 0
            while (dec := _awaiting()):
                if dec["kind"] == "muster":
                    steps.append({"say": "D1: each side names its champion in secret (commit, then reveal)."})
                    choices = {s: {"champion": SPEC["champions"][s]} for s in SPEC["players"]}
                else:
                    turn += 1
                    choices = {s: {"stance": plan[min(turn, len(plan)) - 1]}
                               for s, plan in SPEC["stances"].items()}
                for side, choice in choices.items():
                    _run(["commit", "game.yaml", "--side", side, "--key", names[side],
                          "--choice", json.dumps(choice)])
                for side in choices:
                    submit([f"{side}-{dec['id']}-commit.yaml"])
                submit([f"{side}-{dec['id']}-reveal.yaml" for side in choices])
                _run(["resolve", "game.yaml", "--key", SPEC["umpire"]])
                steps.append({"resolve": True})
                steps += [{"report": "red"}, {"report": "blue"}]
            steps += [{"report": "public"}, {"audit": True}]
            for f in files:
                shutil.copy(f, OUT / f)
            for key in names.values():
                shutil.copy(key, OUT / "keys" / key)
                shutil.copy(f"{key}.pub", OUT / "keys" / f"{key}.pub")
        finally:
            os.chdir(cwd)
            os.environ.pop("HXREF_NOW", None)
            if home is None:
                os.environ.pop("HXREF_HOME", None)
            else:
                os.environ["HXREF_HOME"] = home
    manifest = {"system": INFO.name, "scenario": SPEC["scenario"], "game_id": SPEC["game_id"],
                "created": SPEC["created"], "nonce": nonce, "charts_from": PINNED, "policy": POLICY, "mode": "umpired",
                "keys": {s: f"keys/{k}.pub" for s, k in SPEC["players"].items()},
                "umpire": f"keys/{SPEC['umpire']}.pub", "umpire_key": f"keys/{SPEC['umpire']}", "steps": steps}
    (OUT / "demo.yaml").write_text("# Dice Duel's demo game. Made by `python -m tests.conformance.duel.make_demo`.\n"
                                   "# keys/ holds DEMO KEYS: never use them for a real game.\n"
                                   + yamlio.dump_fast(manifest))
    return OUT


if __name__ == "__main__":
    registry.register(INFO.name, "tests.conformance.duel")
    print("wrote", build())
