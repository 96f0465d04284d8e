"""The full Heartland game with hidden armies, through the engine: ``heartland-demo`` in ``--mode fog``
played to its end by two machines (tests/core/fog_table.py), every file passed between their
folders, the two game files byte-identical after every exchange, combats fought with the boxes
the rules open, both sides' proofs at the end, and the result the true state's.

The players seek contact (:func:`tests.heartland.fog_probe.closing_orders`: each force marches on
the nearest enemy and attacks when it ends beside one), else play the shipped demo's choice, else
the conformance suite's; each chooses on its own copy (its own boxes, its belief of the enemy's).
The shipped demo's keys and fixed nonces make the dice, and so the game, the same at every run.
The game is played in six parts (:func:`tests.played.chained`), each a test of its own; the last
prints the figures: time per impulse, bytes per file, what the proof costs."""
from __future__ import annotations

import json
import os
import pickle
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hxref.kit import schema
from hxref.referee.engine import Engine
from tests.core.fog_table import GAME, Table
from tests.heartland import fog_probe
from tests.played import chained

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "orders" / "heartland" / "heartland-demo" / "keys"
#: the game's parts: each plays until a decision whose name starts so is the first awaited (None: the end)
UNTIL = ("t1.i3", "t2.", "t2.i2", "t3.", "t3.i2", None)


@dataclass
class Played:
    """What the parts carry on: the players' choices' random state, and one record per step."""

    rng: random.Random
    #: (decision, what was owed, seconds, [(side, file, bytes)])
    steps: list[tuple[str, dict, float, list]] = field(default_factory=list)


def _at(p) -> None:
    os.chdir(p.folder)
    os.environ["HXREF_HOME"] = str(p.home)


def chooser(table: Table, rng: random.Random):
    """A player's choice, made on his own copy: contact first, then the shipped demo's, then any the
    rules accept (standing orders are for games with an umpire or in the open, 9.0)."""
    from tests.conformance.harness import candidates, repaired
    from tests.mail.test_travel import shipped_choices

    shipped, _ = shipped_choices()

    def choose(side: str, d: dict) -> dict:
        _at(table[side])
        eng = Engine.load(table[side].folder / GAME, side=side)
        dec = eng.decision(d["decision"])
        demo = {k: v for k, v in (shipped.get((dec.id, side)) or {}).items() if k != "standing"}
        tries = fog_probe.closing_orders(rng, eng, dec, side) + ([demo] if demo else []) \
            + candidates(rng, eng, dec, side)[0]
        for choice in tries:
            fixed = repaired(eng.system, eng.state, dec, side, choice)
            if fixed is not None and not schema.check(dec.schema, fixed, dec.rule):
                return fixed
        raise AssertionError(f"no answer of {side} to {dec.id} is accepted")

    return choose


def play_part(k: int, out: Path, monkeypatch) -> None:
    world = out.parent / "world"
    if k == 0:
        world.mkdir()
        table = Table.deal(world, monkeypatch, KEYS)
        table.start("heartland-demo")
        played = Played(random.Random("fog full game"))
    else:
        table = Table.resume(world, monkeypatch)
        played = pickle.loads((out.parent / f"part-{k - 1}" / "played.pickle").read_bytes())
    choose = chooser(table, played.rng)
    until = UNTIL[k]
    while True:
        st = table["union"].status()
        first = st["awaiting"][0]["decision"] if st["awaiting"] else None
        if first is None or first == "proof" or (until is not None and first.startswith(until)):
            break
        sent = len(table.mailed)
        start = time.perf_counter()
        d = table.step(choose, st)
        assert d is not None
        played.steps.append((d["decision"], d["owed"], time.perf_counter() - start, table.mailed[sent:]))
    (out / "played.pickle").write_bytes(pickle.dumps(played))


@pytest.mark.parametrize("part", range(len(UNTIL)), ids=[f"{k + 1}of{len(UNTIL)}" for k in range(len(UNTIL))])
def test_heartland_demo_with_hidden_armies_to_its_end_and_the_proof(part, monkeypatch, capsys):
    from tests.conftest import PLAYED

    out = chained(Path(os.environ[PLAYED]) / "fog-full-game", part, lambda k, o: play_part(k, o, monkeypatch))
    played: Played = pickle.loads((out / "played.pickle").read_bytes())
    assert played.steps
    if part < len(UNTIL) - 1:
        return
    table = Table.resume(out.parent / "world", monkeypatch)
    st = table["union"].status()
    assert [d["decision"] for d in st["awaiting"]] == ["proof"]
    decided = [s[0] for s in played.steps]
    # combats were fought: the defender answered the impulse's defence, boxes were opened at contact
    assert any(d.endswith(".defence") for d in decided)
    text = table.same()
    assert b"type: combat" in text or b'"type":"combat"' in text
    assert b"openings:" in text
    # what each side's own copy holds of its army, before the proof; what it alone saw since its last
    # file (the Reorganization's attrition and administration) is in its status and its report
    own, alone = {}, {}
    for side, p in table.players.items():
        alone[side] = json.loads(p("status", GAME, "--side", side, "--json").stdout)["own_events"]
        report = " ".join(p("report", GAME, "--side", side).stdout.split())       # the lines unwrapped
        assert all(" ".join(line.split(" [rule")[0].split()) in report for line in alone[side])
        own[side] = Engine.load(p.folder / GAME, side=side).knowledge.boxes[side]
    assert any(alone.values())
    # both sides challenge; every copy replays the game with full information
    seconds = {}
    for side, p in table.players.items():
        start = time.perf_counter()
        p("challenge", GAME, "--side", side, "--key", p.key)
        seconds[f"{side} challenge"] = time.perf_counter() - start
        table.mail(side, f"{side}-proof.yaml")
    for side, p in table.players.items():
        start = time.perf_counter()
        p("resolve", GAME)
        seconds[f"{side} replay"] = time.perf_counter() - start
    text = table.same()
    assert b"every file of the game is true; the fog is lifted" in text
    _at(table["union"])
    eng = Engine.load(table["union"].folder / GAME)
    assert eng.h.get("fog_lifted") is True and "forfeit" not in eng.h and eng.h["phase"] == "over"
    # the result is the true state's: each side's army as its own copy had it, the result as logged
    for side in table.players:
        assert eng.system.boxes(eng.state, side) == own[side]
    victory = [e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "victory"]
    assert victory and victory[-1]["points"] == eng.state["result"]["points"]
    for p in table.players.values():
        assert p("audit", GAME).stdout.startswith("audit OK")
    with capsys.disabled():
        print(figures(played, seconds, table))


def figures(played: Played, proof: dict[str, float], table: Table) -> str:
    """The figures of the game: time per impulse, bytes per file, what the proof costs."""
    impulses = [s for s in played.steps if ".i" in s[0]]
    per: dict[str, float] = {}
    for dec, _, seconds, _ in impulses:
        per[dec] = per.get(dec, 0.0) + seconds
    files = [f for s in played.steps for f in s[3]]
    by_kind: dict[str, list[int]] = {}
    for _, name, size in files:
        kind = "roll" if name.endswith("-roll.yaml") else "open" if name.endswith("-open.yaml") else \
            "commit" if name.endswith("-commit.yaml") else "reveal" if name.endswith("-reveal.yaml") else "answer"
        by_kind.setdefault(kind, []).append(size)
    lines = [f"\n== heartland-demo with hidden armies through the engine: {len(played.steps)} steps, "
             f"{len(per)} impulse decisions, {len(files)} files mailed",
             f"  time per impulse decision (both machines: write, mail, submit twice, resolve twice): "
             f"{sum(per.values()) / max(1, len(per)):.2f} s (max {max(per.values(), default=0):.2f} s)"]
    for kind, sizes in sorted(by_kind.items()):
        lines.append(f"  {kind}: {len(sizes)} files, {sum(sizes) / len(sizes):,.0f} bytes on average "
                     f"(max {max(sizes):,})")
    opened = sorted({d.split(".", 1)[1].split(".")[-1] for d, owed, _, _ in played.steps if "open" in owed.values()})
    lines.append(f"  an `open` file was owed at: {', '.join(opened) or 'no decision'} "
                 f"({sum(1 for s in played.steps if 'open' in s[1].values())} steps)")
    lines.append("  the proof: " + ", ".join(f"{k} {v:.2f} s" for k, v in proof.items())
                 + f"; proof files {', '.join(f'{s} {b:,} bytes' for s, n, b in table.mailed if n.endswith('proof.yaml'))}")
    return "\n".join(lines)


def test_an_answer_or_a_roll_without_the_boxes_the_rules_reveal_is_refused(tmp_path, monkeypatch):
    # the same game's first impulses: the confederate's orders attack (10.11: the attacker opens the
    # attacking forces with its orders); at the first defence the confederate's roll is the last file
    # and opens its stacks in the combat (10.6); each, stripped of its openings and signed again, is refused
    from tests.security.test_fog_attacks import edited

    table = Table.deal(tmp_path, monkeypatch, KEYS)
    table.start("heartland-demo")
    choose = chooser(table, random.Random("fog full game"))
    refused: set[str] = set()
    mail = table.mail

    def stripped_first(side: str, name: str) -> None:
        kind = "roll" if name.endswith("-roll.yaml") else "answer" if name.endswith(("orders.yaml", "defence.yaml")) \
            else None
        if kind and kind not in refused and "\nopenings:" in (table[side].folder / name).read_text():
            bad = edited(table[side], name, lambda data: data.pop("openings"))
            other = table.other(side)
            (other.folder / bad).write_text((table[side].folder / bad).read_text())
            err = other.fails("submit", GAME, bad)
            assert "E314" in err and "the rules reveal" in err
            refused.add(kind)
        mail(side, name)

    table.mail = stripped_first          # type: ignore[method-assign]
    while refused != {"answer", "roll"}:
        d = table.step(choose)
        assert d is not None and d["decision"].startswith("t1."), "no attack and no defence in the first turn"
