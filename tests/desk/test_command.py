"""`hxref orders` as a player runs it: the address on the first line, Done stops it, and a bad
file is one line and exit 2."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path


def _start(*args: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "hxref.cli", "orders", *args, "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def test_no_browser_prints_the_address_first_and_done_stops_it(cli, game):
    proc, url = _start(game, "--side", "union", "--key", "alice")
    try:
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{43})", url)
        assert m, url
        with urllib.request.urlopen(url, timeout=10) as res:
            assert b"page.js?token=" + m[2].encode() in res.read()
        req = urllib.request.Request(f"http://127.0.0.1:{m[1]}/api/done", data=b"{}", method="POST", headers={
            "Content-Type": "application/json", "X-Hxref-Token": m[2]})
        with urllib.request.urlopen(req, timeout=10) as res:
            assert json.loads(res.read()) == {"saved": []}
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "nothing saved" in out


def test_a_bad_game_view_or_key_is_one_line_and_exit_2(cli, game):
    Path("junk.yaml").write_text("hello: world\n")
    cases = [(("junk.yaml", "--key", "alice"), "junk.yaml"),
             ((game, "--key", "alice"), "--side"),
             ((game, "--side", "union", "--key", "bob"), "E202"),
             ((game, "--side", "union", "--key", "nosuchkey"), "nosuchkey"),
             ((game, "--side", "union", "--key", "alice.pub"), "public key")]
    for args, word in cases:
        err = cli.fails("orders", *args, "--no-browser")
        assert word in err, (args, err)


def test_the_side_that_owes_nothing_is_told_so(cli, game):
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    cli("submit", game, "union-t1.bid-commit.yaml")
    err = cli.fails("orders", game, "--side", "union", "--key", "alice", "--no-browser")
    assert "owes no order" in err and "g.yaml" in err
