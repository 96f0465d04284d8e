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

def plan_moves(game: str, side: str, goals: dict[str, str], attack: bool = True) -> dict:
    """Orders for ``side``'s awaited impulse: each force in ``goals`` heads for its goal hex.

    The path is the cheapest legal one (hxref's own step costs), avoiding enemy
    stacks and stopping at the first hex in enemy ZOC (3.61); a force that is or
    ends next to the enemy attacks the nearest enemy stack.  This is the demo's
    "player", so the shipped orders stay legal whatever the dice did before.
    """
    from hxref.engine import Engine
    from hxref.geometry.hex import are_adjacent
    from hxref.geometry.paths import MoveGraph, MoveRules, Prohibited
    from hxref.systems.heartland import impulse, model

    eng = Engine.load(game)
    state = eng.state
    hm = impulse.hexmap(state)
    base = impulse.cost_fn(state, side)
    zoc = impulse.enemy_zoc(state, side)
    enemy = model.occupied_hexes(state, model.other_side(side))

    moves = []
    for force, goal in goals.items():
        if force not in model.forces(state, side):
            continue
        start = model.force_hex(state, force)

        def cost(a, b, start=start):
            if hm.label(b) in enemy:
                return Prohibited("enemy")
            if hm.label(a) in zoc and hm.label(a) != start:
                return Prohibited("stop in ZOC")
            return base(a, b)

        reach = MoveGraph(hm.hexes(), MoveRules(cost)).search(hm.parse(start), goal=hm.parse(goal))
        full = reach.path_to(hm.parse(goal)) or [hm.parse(start)]
        path: list[str] = []
        for h in full[1:]:
            label = hm.label(h)
            path.append(label)
            if label in zoc:
                break
        mv: dict = {"force": force, "path": path}
        end = path[-1] if path else start
        near = sorted(e for e in enemy if are_adjacent(hm.parse(end), hm.parse(e)))
        if attack and near:
            mv["attack"] = near[0]
        if path or mv.get("attack"):
            moves.append(mv)
    return {"moves": moves}


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


HEARTLAND_DEMO = {
    "system": "heartland",
    "scenario": "heartland-demo",
    "game_id": "heartland-demo",
    "created": "2026-11-29T12:00:00Z",
    "mode": "umpired",
    "players": {"union": "union", "confederate": "confederate"},
    "umpire": "umpire",
    "script": [
        ("say", "Turn 1, September 1862. The umpire holds the game file; each side sees only its own army "
                "and the top counter of every enemy stack (3.71). The sides bid; the Confederates win."),
        ("bid", {"union": 2, "confederate": 3}),
        ("report", "confederate"),
        ("say", "Each impulse the phasing side sends one orders file: for each force an intended path. The "
                "referee rolls the IMC (secretly), moves the force as far as its MP go, stops it on entering "
                "enemy ZOC, and makes attack checks (8.2-8.4). Standing orders answer the enemy's assaults."),
        ("impulses", {"confederate": {"calloway": "1610", "duvall": "1614", "strother": "1504"},
                      "union": {"whitcomb": "1510", "dunning": "1404", "royce": "1514"}}),
        ("report", "union"),
        ("say", "Turn 2, October. The armies face each other across the Sallow's bridges."),
        ("bid", {"union": 3, "confederate": 3}),
        ("bid", {"union": 4, "confederate": 2}),
        ("impulses", {"confederate": {"calloway": "1610", "duvall": "1716", "strother": "1504"},
                      "union": {"whitcomb": "1510", "dunning": "1404", "royce": "1615"}}),
        ("say", "Turn 3, November. The Union passes; the Confederates bid 4 of their 5, more than half "
                "their maximum: they play the turn alone, 3 then 2 (5.13a)."),
        ("bid", {"union": 0, "confederate": 4}),
        ("impulses", {"confederate": {"calloway": "1610", "duvall": "1716", "strother": "1403"},
                      "union": {}}),
        ("report", "confederate"),
    ],
}

GAMES["heartland-demo"] = HEARTLAND_DEMO
GAMES["heartland"]["system"] = "heartland"


def run(args: list[str]) -> str:
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"hxref {' '.join(args)} failed:\n{res.output}")
    return res.output


def _awaiting() -> dict | None:
    head = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])
    return head["awaiting"][0] if head["awaiting"] else None


def build(name: str) -> Path:
    spec = GAMES[name]
    system = spec.get("system", name)
    out = ROOT / "orders" / system / spec["scenario"]
    old_keys = out / "keys"
    keep = {}
    if old_keys.is_dir():    # the same keys give the same dice chains: rebuilds replay the same game
        keep = {f.name: f.read_bytes() for f in old_keys.iterdir()}
    if out.exists():
        shutil.rmtree(out)
    (out / "keys").mkdir(parents=True)
    steps: list[dict] = []
    umpire = spec.get("umpire")
    resolve_key = ["--key", umpire] if umpire else []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)
        os.environ["HXREF_NOW"] = spec["created"]
        try:
            sides = spec["players"]
            names = dict(sides, **({"umpire": umpire} if umpire else {}))
            for who, keyname in names.items():
                if keyname in keep:
                    Path(keyname).write_bytes(keep[keyname])
                    Path(keyname).chmod(0o600)
                    Path(keyname + ".pub").write_bytes(keep[keyname + ".pub"])
                else:
                    run(["keygen", keyname, "--comment", f"hxref DEMO key of the {who} -- never use it"])
            run(["new", "game.yaml", "--system", system, "--scenario", spec["scenario"], "--mode", spec["mode"],
                 "--game-id", spec["game_id"], "--created", spec["created"],
                 *sum((["--side", f"{s}={k}.pub"] for s, k in sides.items()), []),
                 *(["--umpire", f"{umpire}.pub"] if umpire else [])])
            files: list[str] = []

            def submit(names_: list[str]) -> None:
                run(["submit", "game.yaml", *names_])
                files.extend(names_)
                steps.append({"submit": names_})

            def resolve() -> None:
                run(["resolve", "game.yaml", *resolve_key])
                steps.append({"resolve": True})

            steps.append({"say": "Each participant sends a join file: the tip of its private dice chain, so no "
                                 "one can choose or foresee a die."})
            for who, key in names.items():
                run(["join", "game.yaml", "--side", who, "--key", key])
            submit([f"{w}-join.yaml" for w in names])
            first_bid = True

            def settle_reorganization() -> None:
                """12.0: both sides seal their Reorganization orders (none in the demo), then reveal."""
                while (dec := _awaiting()) and dec["kind"] == "reorg":
                    steps.append({"say": f"The Reorganization Segment of {dec['id'].split('.')[0]}: both sides "
                                         "seal their orders, then reveal them (commit-reveal, 12.0)."})
                    for side in sides:
                        run(["commit", "game.yaml", "--side", side, "--key", sides[side], "--choice", "{}"])
                    submit([f"{s}-{dec['id']}-commit.yaml" for s in sides])
                    submit([f"{s}-{dec['id']}-reveal.yaml" for s in sides])
                    resolve()

            for step in spec["script"]:
                kind = step[0]
                if kind in ("bid", "report"):
                    settle_reorganization()
                if kind == "say":
                    steps.append({"say": step[1]})
                elif kind == "report":
                    steps.append({"report": step[1]})
                elif kind == "bid":
                    dec = _awaiting()["id"]
                    for side, bid in step[1].items():
                        run(["commit", "game.yaml", "--side", side, "--key", sides[side], "--choice", f"bid: {bid}"])
                    a, b = list(sides)
                    submit([f"{a}-{dec}-commit.yaml"])
                    if first_bid and not umpire:
                        steps.append({"say": f"{a} has sealed its bid. Its secret report shows the bid; "
                                             "the public report shows only the commitment."})
                        steps.append({"report": a})
                    first_bid = False
                    submit([f"{b}-{dec}-commit.yaml"])
                    submit([f"{s}-{dec}-reveal.yaml" for s in sides])
                    resolve()
                elif kind == "level":
                    _, side, level = step
                    dec = _awaiting()["id"]
                    run(["answer", "game.yaml", "--side", side, "--key", sides[side], "--choice", f"level: {level}"])
                    submit([f"{side}-{dec}.yaml"])
                    resolve()
                elif kind == "impulses":       # every impulse of the turn, each side heading for its goals
                    import json

                    while (dec := _awaiting()) and dec["kind"] in ("orders", "defence"):
                        side = dec["sides"][0]
                        if dec["kind"] == "defence":
                            choice: dict = {}
                        else:
                            choice = plan_moves("game.yaml", side, step[1][side])
                            if "level" in dec["schema"]:
                                left = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])[
                                    "state"]["current"]["remaining"][side]
                                choice = {"level": left, **choice}
                            choice["standing"] = {"defence": {}}
                        run(["answer", "game.yaml", "--side", side, "--key", sides[side], "--choice",
                             json.dumps(choice)])
                        submit([f"{side}-{dec['id']}.yaml"])
                        resolve()
            settle_reorganization()
            steps.append({"say": "The end of the demo. The public report, each side's secret report, "
                                 "and the audit that replays every signature, commitment and die:"})
            steps.append({"report": "public", "full": True})
            for side in sides:
                steps.append({"report": side, "full": True})
            steps.append({"audit": True})
            run(["audit", "game.yaml"])
            for f in files:
                shutil.copy(f, out / f)
            for who, key in names.items():
                shutil.copy(key, out / "keys" / key)
                shutil.copy(f"{key}.pub", out / "keys" / f"{key}.pub")
        finally:
            os.chdir(cwd)
            os.environ.pop("HXREF_NOW", None)
    manifest = {
        "system": system, "scenario": spec["scenario"], "game_id": spec["game_id"], "created": spec["created"],
        "mode": spec["mode"], "keys": {s: f"keys/{k}.pub" for s, k in spec["players"].items()},
        **({"umpire": f"keys/{umpire}.pub", "umpire_key": f"keys/{umpire}"} if umpire else {}),
        "steps": steps,
    }
    header = ("# The shipped demo game: `hxref demo --system %s --scenario %s` replays these steps.\n"
              "# Made by tools/make_demo_orders.py. keys/ holds DEMO KEYS: never use them for a real game.\n"
              % (system, spec["scenario"]))
    (out / "demo.yaml").write_text(header + yamlio.dump_fast(manifest))
    return out


if __name__ == "__main__":
    for name in sys.argv[1:] or list(GAMES):
        print("wrote", build(name))
