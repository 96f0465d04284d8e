"""`hxref orders` as a player runs it: the address on the first line, Done stops it, and a bad
file is one line and exit 2."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.conftest import joined
from tests.desk.conftest import key_with_passphrase


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


def test_a_key_with_a_passphrase_asks_for_it_in_the_terminal(cli, monkeypatch):
    """No $HXREF_PASSPHRASE: the command asks in the terminal, hiding what is typed; the right
    passphrase serves the page, a wrong one is one line and exit 2 (the page is never served)."""
    import os
    import pty

    key_with_passphrase(Path("carol"), b"correct horse")
    monkeypatch.setenv("HXREF_PASSPHRASE", "correct horse")        # for the join; the command below asks
    joined(cli, "p.yaml", "heartland", "bidding-demo", "pp", "--mode", "open", union="carol")
    monkeypatch.delenv("HXREF_PASSPHRASE")
    for typed, serves in ((b"wrong horse\n", False), (b"correct horse\n", True)):
        main, tty = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "hxref.cli", "orders", "p.yaml", "--side", "union", "--key",
                                 "carol", "--no-browser"], stdin=tty, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        os.close(tty)
        try:
            assert proc.stderr is not None
            asked = b""
            while b"passphrase of carol" not in asked:     # type only once asked: getpass flushes what came before
                asked += os.read(proc.stderr.fileno(), 100)
            os.write(main, typed)
            assert proc.stdout is not None
            first = proc.stdout.readline().strip()
            if serves:
                assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{43}", first), first
                port, token = re.search(r":(\d+)/\?token=(.+)", first).groups()   # type: ignore[union-attr]
                req = urllib.request.Request(f"http://127.0.0.1:{port}/api/done", data=b"{}", method="POST",
                                             headers={"Content-Type": "application/json", "X-Hxref-Token": token})
                urllib.request.urlopen(req, timeout=10).close()
            _out, err = proc.communicate(timeout=20)
            err = asked.decode() + err
        finally:
            proc.kill()
            os.close(main)
        assert "passphrase of carol" in err and "horse" not in err + first
        if serves:
            assert proc.returncode == 0, err
        else:
            assert proc.returncode == 2 and first == "" and "wrong passphrase" in err, err
