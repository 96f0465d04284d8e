"""End to end: `hxref play GAME` in a real terminal (tmux), driven by send-keys, read by capture-pane."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from hxref.gamefile import heads
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.cli.solo import Session

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)")


def _command(game: str) -> str:
    """`hxref play GAME` once the command takes no --choice; until then the same loop via the module."""
    from hxref.cli.root import play

    choice = next(p for p in play.params if p.name == "choice")
    bindir = Path(sys.executable).parent
    if not choice.required:
        return f"{bindir / 'hxref'} play {game}"
    return f"{sys.executable} -m hxref.cli.solo {game}"


class Tmux:
    def __init__(self, folder: Path):
        self.socket = f"hxref-test-{uuid.uuid4().hex[:8]}"     # a private server: never touch the user's
        self.name = "play"
        self.folder = folder

    def run(self, *args: str) -> str:
        return subprocess.run([TMUX, "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=20).stdout

    def start(self, command: str, width: int = 160, height: int = 50) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "PAGER", "LESS")}
        subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", self.name,
                        "-x", str(width), "-y", str(height), "-c", str(self.folder),
                        f"{command}; echo EXIT=$?; sleep 60"], check=True, env=env, timeout=20)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.name, *keys)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not appear on the screen:\n{screen}")

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=20)


@pytest.fixture
def tmux(tmp_path):
    t = Tmux(tmp_path)
    yield t
    t.close()


def test_play_heartland_bids_in_tmux(cli, tmux):
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "solo",
        "--side", "union", "--side", "confederate")
    tmux.start(_command("g.yaml"))
    tmux.wait_for("union: bid [0/1/2/3/4/?/m/r/q]:")
    tmux.keys("9", "Enter")                                   # not a legal bid: asked again
    tmux.wait_for("Please select one of the available options")
    tmux.wait_for("union: bid [0/1/2/3/4/?/m/r/q]: 9")        # the refused bid, offered again to correct
    tmux.keys("BSpace", "3", "Enter")
    screen = tmux.wait_for("confederate: bid [0/1/2/3/4/5/?/m/r/q]:")
    assert "bid [0/1/2/3/4/?/m/r/q]: 3" not in screen          # hotseat: union's sealed bid was cleared
    tmux.keys("2", "Enter")
    screen = tmux.wait_for("union: level [1/?/m/r/q]:")
    assert "bids revealed: union 3, confederate 2" in screen
    assert "t1.i3.level -- union to play" in screen
    tmux.keys("Up")                                           # readline: union's own last answer comes back
    tmux.wait_for("union: level [1/?/m/r/q]: 3")
    tmux.keys("C-u", "1", "Enter")                            # Ctrl-U clears the line: the answer is 1
    tmux.wait_for("confederate: level [1/2/3/?/m/r/q]:")
    tmux.keys("Up")                                           # confederate's history: its bid, never union's
    screen = tmux.wait_for("confederate: level [1/2/3/?/m/r/q]: 2")
    assert "confederate: level [1/2/3/?/m/r/q]: 1" not in screen
    tmux.keys("C-u", "?", "Enter")
    tmux.wait_for("Commands: ? help")                         # in the pager
    tmux.keys("q")
    tmux.wait_for("confederate: level [1/2/3/?/m/r/q]: ?\n")
    tmux.keys("q", "Enter")
    screen = tmux.wait_for("EXIT=")
    assert "quit;" in screen and "EXIT=0" in screen
    path = str(cli.folder / "g.yaml")
    assert Engine.load(path).h["resolved"] == ["t1.bid", "t1.i3.level"]
    assert audit(path).ok
    # each side's answers are kept in its own history file (commands are not), for the next sitting
    kept = heads.home() / "history" / Engine.load(path).meta["game"]
    assert (kept / "union.history").read_text().splitlines() == ["9", "3", "1"]
    assert (kept / "confederate.history").read_text().splitlines() == ["2"]
    again = Tmux(cli.folder)
    try:
        again.start(_command("g.yaml"))
        again.wait_for("confederate: level [1/2/3/?/m/r/q]:")
        again.keys("Up")                                      # the last sitting's answer comes back
        again.wait_for("confederate: level [1/2/3/?/m/r/q]: 2")
        again.keys("C-u", "q", "Enter")
        assert "EXIT=0" in again.wait_for("EXIT=")
    finally:
        again.close()


def _example(screen: str) -> str:
    """The example answer as shown before the `>` prompt, its wrapped lines joined again."""
    lines = screen.splitlines()
    end = max(i for i, line in enumerate(lines) if line.rstrip() == ">")
    start = max(i for i in range(end) if "e.g. " in lines[i])
    assert all(len(line) <= 80 for line in lines[start:end])
    return " ".join(line.strip() for line in lines[start:end]).split("e.g. ", 1)[1]


def test_play_acw_minis_yaml_answer_in_tmux(cli, tmux):
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo",
        "--side", "union", "--side", "confederate")
    path = str(cli.folder / "g.yaml")
    tmux.start(_command("g.yaml"), width=80)
    screen = tmux.wait_for("union: your answer as YAML")
    assert "Harlan" in screen                                  # the map's unit list, at the foot of the map
    eng = Engine.load(path)
    session = Session(path)
    dec, _ = session.next_decision(eng)
    skeleton = session.notes_and_skeleton(eng, dec, "union")[1]
    assert len(json.dumps(skeleton)) > 200                     # long: wrapped over several lines at 80 columns
    assert json.loads(_example(tmux.wait_for('"shots": []}\n>'))) == skeleton     # whole, not cut off
    tmux.keys("moves: [{unit: nope, advance: 3}]", "Enter", "Enter")
    tmux.wait_for("is not a unit on the table")
    screen = tmux.wait_for("your answer is offered again")
    time.sleep(0.3)
    screen = tmux.screen()
    assert screen.count("> moves: [{unit: nope, advance: 3}]") == 2   # the refused answer, pre-filled
    tmux.keys(*["Left"] * len(", advance: 3}]"), *["BSpace"] * len("nope"), "us-1")   # edited in place
    tmux.wait_for("> moves: [{unit: us-1, advance: 3}]")
    tmux.keys("Enter", "shots: []", "Enter", "Enter")
    tmux.wait_for("confederate: your answer as YAML")
    tmux.keys("q", "Enter")
    screen = tmux.wait_for("EXIT=")
    assert "EXIT=0" in screen
    assert Engine.load(path).h["resolved"] == ["t1.union"]
    assert Engine.load(path).h["state"]["units"]["us-1"]["y"] == 4.0 + 3    # the corrected order: us-1 advanced 3"
    assert audit(path).ok


def test_at_80x24_the_result_stays_on_screen_and_map_and_report_are_paged(cli, tmux):
    """A solo Heartland game in a terminal of 80x24: after an answer, what it did is the last thing
    above the next prompt (the next decision's box, map and notes come before it), the reference of
    an answer's keys waits for `?`, and `m` and `r` open the pager instead of scrolling away."""
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "heartland-demo", "--mode", "solo",
        "--side", "union", "--side", "confederate")
    tmux.start(_command("g.yaml"), width=80, height=24)
    tmux.wait_for("union: bid [")
    tmux.keys("2", "Enter")
    tmux.wait_for("confederate: bid [")
    tmux.keys("5", "Enter")
    screen = tmux.wait_for("confederate: your answer as YAML")
    assert "resolved t1.bid" in screen and "bids revealed: union 2, confederate 5" in screen
    assert "next: t1.i1.orders awaits confederate" in screen
    assert "choice.moves[]" not in screen and "? lists every key of an answer" in screen
    tmux.keys("moves: [{force: calloway, path: ['1910']}]", "Enter", "Enter")
    screen = tmux.wait_for("union: your answer as YAML")
    assert "resolved t1.i1.orders" in screen and "Calloway moves 2010 > 1910" in screen
    tmux.keys("m", "Enter")
    screen = tmux.wait_for("what union sees")
    assert screen.rstrip().endswith(":")                        # less waits at the foot of its first page
    tmux.keys("q")
    tmux.wait_for("> m\n")
    tmux.keys("?", "Enter")
    screen = tmux.wait_for("─ help ─")                          # the whole reference, in the pager
    assert screen.rstrip().endswith(":")
    tmux.keys("q")
    tmux.wait_for("> ?\n")
    tmux.keys("q", "Enter")
    assert "EXIT=0" in tmux.wait_for("EXIT=")
