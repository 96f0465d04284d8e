"""Build the shipped demo game of a system: keys, signed order files and the manifest.

    python tools/make_demo_orders.py heartland

It plays the scripted game below through the real command line in a scratch
folder (so every shipped file was accepted by hxref when it was made) and
copies the keys, the order files and a ``demo.yaml`` manifest that
``hxref demo`` replays into ``orders/<system>/<scenario>/``.

The keys in ``keys/`` are DEMO KEYS, published on purpose: never use them
for a real game.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hxref import yamlio  # noqa: E402
from hxref.cli import main  # noqa: E402

GAMES = {
    "heartland": {
        "scenario": "bidding-demo",
        "game_id": "heartland-bidding-demo",
        "created": "2026-11-29T12:00:00Z",
        "mode": "open",
        "players": {"union": "union", "confederate": "confederate"},
        "script": [
            ("say", "Turn 1, April 1862. Both sides seal a bid of 3: a tie, so they bid again (5.12)."),
            ("bid", {"union": 3, "confederate": 3}),
            ("say", "Re-bid: the Union bids 2, the Confederates 4. The Confederates win, pay 5 WEP and roll "
                    "the weather; both first impulses use the bids (5.11, 5.15)."),
            ("bid", {"union": 2, "confederate": 4}),
            ("say", "Then the sides alternate, each declaring its level (5.15); when the Confederates have "
                    "no levels left, the Union plays its last impulses in a row (5.17)."),
            ("level", "confederate", 1),
            ("level", "union", 1),
            ("level", "union", 1),
            ("say", "Turn 2, May. The Union bids its whole maximum of 4: one impulse only, then the "
                    "Confederates play two in a row, at their bid and with the rest (5.14)."),
            ("bid", {"union": 4, "confederate": 2}),
            ("say", "Turn 3, June. The Union passes; the Confederates bid 4 of 5, more than half: they "
                    "play the turn alone, 3 then 2 (5.13a). June weather is Clear without a roll (5.2)."),
            ("bid", {"union": 0, "confederate": 4}),
        ],
    },
}


def run(args: list[str]) -> str:
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"hxref {' '.join(args)} failed:\n{res.output}")
    return res.output


def build(system: str) -> Path:
    spec = GAMES[system]
    out = ROOT / "orders" / system / spec["scenario"]
    if out.exists():
        shutil.rmtree(out)
    (out / "keys").mkdir(parents=True)
    steps: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)
        os.environ["HXREF_NOW"] = spec["created"]
        try:
            sides = spec["players"]
            for side, keyname in sides.items():
                run(["keygen", keyname, "--comment", f"hxref DEMO key of the {side} player -- never use it"])
            run(["new", "game.yaml", "--system", system, "--scenario", spec["scenario"], "--mode", spec["mode"],
                 "--game-id", spec["game_id"], "--created", spec["created"],
                 *sum((["--side", f"{s}={k}.pub"] for s, k in sides.items()), [])])
            files: list[str] = []

            def submit(names: list[str]) -> None:
                run(["submit", "game.yaml", *names])
                files.extend(names)
                steps.append({"submit": names})

            steps.append({"say": "Each player sends a join file: the tip of its private dice chain, so no "
                                 "one can choose or foresee a die."})
            for side, key in sides.items():
                run(["join", "game.yaml", "--side", side, "--key", key])
            submit([f"{s}-join.yaml" for s in sides])
            first_bid = True
            for step in spec["script"]:
                if step[0] == "say":
                    steps.append({"say": step[1]})
                elif step[0] == "bid":
                    dec = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])["awaiting"][0]["id"]
                    for side, bid in step[1].items():
                        run(["commit", "game.yaml", "--side", side, "--key", sides[side], "--choice", f"bid: {bid}"])
                    a, b = list(sides)
                    submit([f"{a}-{dec}-commit.yaml"])
                    if first_bid:
                        steps.append({"say": f"{a} has sealed its bid. Its secret report shows the bid; "
                                             "the public report shows only the commitment."})
                        steps.append({"report": a})
                        first_bid = False
                    submit([f"{b}-{dec}-commit.yaml"])
                    submit([f"{s}-{dec}-reveal.yaml" for s in sides])
                    steps.append({"resolve": True})
                elif step[0] == "level":
                    _, side, level = step
                    dec = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])["awaiting"][0]["id"]
                    run(["answer", "game.yaml", "--side", side, "--key", sides[side], "--choice", f"level: {level}"])
                    submit([f"{side}-{dec}.yaml"])
                    steps.append({"resolve": True})
                if step[0] in ("bid", "level"):
                    run(["resolve", "game.yaml"])
            steps.append({"say": "The game is over. The public report, each side's secret report, "
                                 "and the audit that replays every signature, commitment and die:"})
            steps.append({"report": "public", "full": True})
            for side in sides:
                steps.append({"report": side, "full": True})
            steps.append({"audit": True})
            run(["audit", "game.yaml"])
            for f in files:
                shutil.copy(f, out / f)
            for side, key in sides.items():
                shutil.copy(key, out / "keys" / key)
                shutil.copy(f"{key}.pub", out / "keys" / f"{key}.pub")
        finally:
            os.chdir(cwd)
            os.environ.pop("HXREF_NOW", None)
    manifest = {
        "system": system, "scenario": spec["scenario"], "game_id": spec["game_id"], "created": spec["created"],
        "mode": spec["mode"], "keys": {s: f"keys/{k}.pub" for s, k in spec["players"].items()}, "steps": steps,
    }
    header = ("# The shipped demo game: `hxref demo --system %s` replays these steps.\n"
              "# Made by tools/make_demo_orders.py. keys/ holds DEMO KEYS: never use them for a real game.\n"
              % system)
    (out / "demo.yaml").write_text(header + yamlio.dump_fast(manifest))
    return out


if __name__ == "__main__":
    for name in sys.argv[1:] or list(GAMES):
        print("wrote", build(name))
