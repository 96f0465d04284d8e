"""The order page attacked by the people who would attack it, each with only what he holds:

- a page of another site open in the player's browser (cross-origin requests, forms, fetch with
  no-cors, a WebSocket, DNS rebinding through a name of its own that resolves to 127.0.0.1);
- another user or process on the machine, who can reach the port but holds no token (guessing,
  an old token, slow connections, the terminal's output, error pages);
- the opponent who wrote the game's scenario and map, whose names the page shows (stored XSS);
- the player's own mistakes (a path in the body, a double save, a save after the decision was
  answered or the game moved on, 100 MB, not JSON, wrong types, NaN).

Each asserts the attack fails: a refusal, nothing saved, the game file unchanged, no traceback,
and nothing served beyond the side's own view (never the key, its passphrase, or another side's
secret).
"""
from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from hxref.cli.desk import _view_session
from hxref.crypto.signing import load_private_key
from hxref.desk.server import MAX_BODY, Desk
from tests.conftest import bid_round, joined
from tests.desk.conftest import Served, key_with_passphrase, serving


def _sha(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _json_headers(served: Served) -> dict[str, str]:
    return {"Content-Type": "application/json", "X-Hxref-Token": served.desk.token}


def _raw(port: int, data: bytes, timeout: float = 10) -> bytes:
    """What a process that connects to the port and writes ``data`` reads back."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


@pytest.fixture
def orders_desk(cli, hgame):
    """The confederate's order page in an open Heartland game, at his first impulse's moves."""
    with serving(hgame, "confederate", "bob") as served:
        yield served


# --- another local user or process: he reaches the port, he holds no token ------------------------


def test_a_token_from_an_earlier_run_of_the_page_opens_nothing(cli, game):
    """A token seen once (a browser's history, a screenshot) is no key to the next page."""
    with serving(game, "union", "alice") as first:
        old = first.desk.token
    with serving(game, "union", "alice") as second:
        assert second.desk.token != old and len(second.desk.token) >= 43
        assert second.request("GET", f"/?token={old}")[0] == 403
        status, _, body = second.request("POST", "/api/save", b'{"choice": {"bid": 3}}',
                                         {"Content-Type": "application/json", "X-Hxref-Token": old})
        assert status == 403 and body == b"forbidden\n"
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_a_guess_that_shares_the_tokens_start_is_refused_like_any_other(bid_desk):
    token = bid_desk.desk.token
    for guess in (token[:-1] + ("A" if token[-1] != "A" else "B"), token + "x", token.upper(), token.lower(),
                  " " + token, token + " ", token[:20], token.encode().hex()):
        if guess == token:
            continue
        assert bid_desk.request("GET", f"/?token={quote(guess)}")[0] == 403, guess
        if guess.strip() == token:
            continue            # a header's surrounding blanks are not part of its value (RFC 9110 5.5)
        status, _, _ = bid_desk.request("POST", "/api/page", b"{}",
                                        {"Content-Type": "application/json", "X-Hxref-Token": guess})
        assert status == 403, guess


def test_slow_connections_of_another_process_do_not_stop_the_players_page(bid_desk):
    """Forty connections that send half a request and wait: the player's calls still answer.  They
    all wait in the listen queue (the standard library's holds 5: the rest would be dropped and
    retried a second later), each then on a thread of its own."""
    assert bid_desk.desk.httpd.request_queue_size >= 40
    idle = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", bid_desk.port), timeout=10)
            s.sendall(b"POST /api/save HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            idle.append(s)
        started = time.monotonic()
        status, page = bid_desk.api("page")
        assert status == 200 and page["side"] == "union"
        assert time.monotonic() - started < 5
    finally:
        for s in idle:
            s.close()


def test_no_refusal_or_error_page_carries_the_token(bid_desk):
    """What a process without the token may make the server say: none of it holds the token."""
    token = bid_desk.desk.token
    port = bid_desk.port
    answers = [
        _raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port),
        _raw(port, b"GET /nosuch HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port),
        _raw(port, b"BREW /api/save HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port),
        _raw(port, b"GET / HTTP/9.9\r\n\r\n"),
        _raw(port, b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n"),
        _raw(port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64)),      # a TLS hello
        _raw(port, b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 200 + b"\r\n"),
        _raw(port, b"OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port),
        _raw(port, b"POST /api/page HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                   b"Content-Length: 2\r\n\r\n{}" % port),
    ]
    for answer in answers:
        assert token.encode() not in answer, answer[:200]
    # the server still serves its player after all that
    assert bid_desk.api("page")[0] == 200


def test_the_terminal_prints_the_token_once_and_no_request(cli, game):
    """Another user who reads the player's terminal log (a shared tmux, a pasted log) finds the
    address on its first line only: no request, right or wrong, is logged with its token."""
    proc = subprocess.Popen([sys.executable, "-m", "hxref.cli", "orders", game, "--side", "union", "--key",
                             "alice", "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+)", url)
        assert m, url
        port, token = int(m[1]), m[2]
        _raw(port, f"GET /?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        _raw(port, f"GET /?token={token}x HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        _raw(port, f"GET /nosuch?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        _raw(port, f"GET /?token={token} HTTP/1.1\r\nHost: attacker.example:{port}\r\n\r\n".encode())
        _raw(port, f"GET /?token={token} HTTP/7.0\r\n\r\n".encode())
        body = b'{"choice": {"bid": "x"}}'
        _raw(port, b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                   b"X-Hxref-Token: %s\r\nContent-Length: %d\r\n\r\n%s" % (port, token.encode(), len(body), body))
        _raw(port, b"POST /api/done HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                   b"X-Hxref-Token: %s\r\nContent-Length: 2\r\n\r\n{}" % (port, token.encode()))
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert token not in out and token not in err
    assert "Traceback" not in err and "GET" not in err + out


# --- a page of another site in the player's browser, as raw requests ------------------------------


def test_a_no_cors_fetch_of_another_site_saves_nothing(bid_desk):
    """What ``fetch(url, {mode: "no-cors", method: "POST"})`` of another site sends: a simple
    content type, its own Origin, no header of ours (no-cors allows none); with ``credentials``
    there is no cookie to send either."""
    body = b'{"choice": {"bid": 3}}'
    for ctype in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=z"):
        for origin in ("http://attacker.example", "null"):
            status, headers, out = bid_desk.request("POST", "/api/save", body, {"Content-Type": ctype,
                                                                                "Origin": origin})
            assert status == 403 and not any(k.startswith("access-control-") for k in headers)
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml")) and bid_desk.desk.session.saved == []


def test_a_websocket_upgrade_is_not_a_way_in(bid_desk):
    """A WebSocket is not bound by CORS: its handshake is a GET with an Origin and an Upgrade."""
    status, headers, _ = bid_desk.request("GET", "/api/save", headers={
        "Origin": "http://attacker.example", "Upgrade": "websocket", "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"})
    assert status == 403 and "sec-websocket-accept" not in headers
    status, headers, _ = bid_desk.request("GET", f"/?token={bid_desk.desk.token}", headers={
        "Origin": "http://attacker.example", "Upgrade": "websocket", "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"})
    assert status == 403 and "sec-websocket-accept" not in headers


def test_a_rebound_name_is_refused_whatever_port_or_case_it_gives(bid_desk):
    token, port = bid_desk.desk.token, bid_desk.port
    for host in (f"attacker.example:{port}", f"ATTACKER.example:{port}", f"127.0.0.1.nip.io:{port}",
                 f"127.0.0.1:{port}@attacker.example", f"0.0.0.0:{port}", f"[::1]:{port}", f"127.1:{port}",
                 f"127.0.0.1:{port}, attacker.example"):
        assert bid_desk.request("GET", f"/?token={token}", host=host)[0] == 403, host
        assert bid_desk.request("POST", "/api/save", b'{"choice": {"bid": 3}}', _json_headers(bid_desk),
                                host=host)[0] == 403, host
    # two Host headers: the first one ours, the second the attacker's
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", f"/?token={token}", skip_host=True)
    conn.putheader("Host", f"127.0.0.1:{port}")
    conn.putheader("Host", "attacker.example")
    conn.endheaders()
    assert conn.getresponse().status == 403
    conn.close()
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_a_redirect_of_another_site_to_the_page_brings_no_token(bid_desk):
    """Another site may send the browser to the page (a 302, a link): without the token the page
    is not served, and the API does not follow a GET at all."""
    for path in ("/", "/?token=", "/api/save", "/api/save?choice=%7B%22bid%22%3A3%7D"):
        status, _, body = bid_desk.request("GET", path, headers={"Referer": "http://attacker.example/"})
        assert status in (403, 404) and bid_desk.desk.token.encode() not in body
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


# --- the player's own mistakes, and wrong bodies: a clear answer, never a traceback ---------------


def test_a_deeply_nested_body_is_a_clear_refusal_not_a_dropped_connection(bid_desk):
    for body in (b"[" * 100_000, b'{"choice": {"bid": ' + b"[" * 5000 + b"]" * 5000 + b"}}"):
        status, _, out = bid_desk.request("POST", "/api/check", body, _json_headers(bid_desk))
        assert status == 400 and json.loads(out)["error"]


def test_a_choice_nested_as_deep_as_json_allows_is_refused_by_the_check(bid_desk):
    choice = {"bid": json.loads("[" * 900 + "]" * 900)}
    status, r = bid_desk.api("check", {"choice": choice})
    assert status in (200, 400) and (r.get("problems") or r.get("error"))
    status, r = bid_desk.api("save", {"choice": choice})
    assert status in (200, 400) and (r.get("problems") or r.get("error"))
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_a_100_mb_body_is_refused_before_it_is_read(bid_desk):
    """The answer comes at once, the server reads none of it, and serves on."""
    with socket.create_connection(("127.0.0.1", bid_desk.port), timeout=10) as s:
        s.sendall(b"POST /api/save HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                  b"X-Hxref-Token: %s\r\nContent-Length: %d\r\n\r\n" % (bid_desk.port, bid_desk.desk.token.encode(),
                                                                        100 * 1024 * 1024))
        started = time.monotonic()
        try:
            s.sendall(b"x" * (1024 * 1024))
        except OSError:
            pass                      # the server closed the connection already
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.0 413") or answer.startswith(b"HTTP/1.1 413"), answer[:80]
        assert time.monotonic() - started < 5
    for headers in ({"Transfer-Encoding": "chunked"}, {"Content-Length": "1e9"}, {"Content-Length": str(MAX_BODY + 1)}):
        conn = http.client.HTTPConnection("127.0.0.1", bid_desk.port, timeout=10)
        conn.putrequest("POST", "/api/save", skip_host=True)
        conn.putheader("Host", f"127.0.0.1:{bid_desk.port}")
        for k, v in {**_json_headers(bid_desk), **headers}.items():
            conn.putheader(k, v)
        conn.endheaders()
        assert conn.getresponse().status in (411, 413), headers
        conn.close()
    assert bid_desk.api("page")[0] == 200
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_a_body_that_is_not_json_or_not_utf8_is_one_clear_refusal(bid_desk):
    for body in (b"choice=bid", b"\xff\xfe{\x00}\x00", b"", b"null", b'"choice"', b"{\"choice\": {\"bid\": 3}",
                 b'{"choice": {"bid": 3}} trailing', b"\xef\xbb\xbf{}"):
        status, _, out = bid_desk.request("POST", "/api/save", body, _json_headers(bid_desk))
        assert status in (200, 400), body
        assert b"Traceback" not in out and out.startswith(b"{"), out[:200]
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_nan_infinity_floats_and_huge_numbers_are_not_a_bid(bid_desk):
    for raw in (b"NaN", b"Infinity", b"-Infinity", b"3.0", b"1e999", b"3" + b"0" * 5000, b"true"):
        body = b'{"choice": {"bid": ' + raw + b"}}"
        status, _, out = bid_desk.request("POST", "/api/check", body, _json_headers(bid_desk))
        assert status in (200, 400) and b"Traceback" not in out, raw
        r = json.loads(out)
        assert r.get("problems") or r.get("error"), raw
        status, _, out = bid_desk.request("POST", "/api/save", body, _json_headers(bid_desk))
        r = json.loads(out)
        assert r.get("problems") or r.get("error"), raw
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


WRONG = [None, 3, "moves", [], {"moves": "x"}, {"moves": [1]}, {"moves": [None]}, {"moves": [{"force": ["a"]}]},
         {"moves": [{"force": "nobody", "path": "1010"}]}, {"moves": [{"force": {"a": 1}, "path": [[1], {}]}]},
         {"moves": [{"force": "calloway", "path": ["9999", "../../etc", ""]}]},
         {"moves": [{"force": "calloway", "path": ["1010"] * 2000}]},
         {"moves": [{"force": "calloway"}] * 500}, {"moves": [], "extra": "x" * 1000}, {"__proto__": {"x": 1}}]


def test_wrong_types_in_every_call_get_an_answer_and_change_nothing(orders_desk, hgame):
    before = _sha(hgame)
    page = orders_desk.api("page")[1]
    ml = page["lists"][0]
    piece = ml["pieces"][0]["id"]
    for choice in WRONG:
        for call, extra in (("check", {}), ("reach", {"list": ml["key"], "piece": piece}), ("save", {}),
                            ("save", {"mail": True}), ("reach", {"list": ["moves"], "piece": {"id": piece}}),
                            ("reach", {"list": "../moves", "piece": "../../" + piece})):
            status, headers, out = orders_desk.request("POST", f"/api/{call}",
                                                       json.dumps({"choice": choice, **extra}).encode(),
                                                       _json_headers(orders_desk))
            assert status in (200, 400), (call, choice, status)
            assert headers["content-type"] == "application/json" and b"Traceback" not in out, (call, choice)
    assert _sha(hgame) == before
    assert not list(Path.cwd().glob("confederate-t1.i1.orders*.yaml")) and orders_desk.desk.session.saved == []


# --- saves: twice, after the answer went in, after the game moved on -------------------------------


def _good_orders(served: Served) -> dict:
    """A choice the rules accept: the template with no force moving."""
    choice = dict(served.api("page")[1]["choice"])
    choice["moves"] = []
    assert served.api("check", {"choice": choice})[1] == {"problems": []}
    return choice


def test_a_second_save_of_an_answer_overwrites_nothing(orders_desk, hgame):
    choice = _good_orders(orders_desk)
    status, r = orders_desk.api("save", {"choice": choice})
    assert status == 200, r
    saved = Path(r["files"][0])
    first = saved.read_bytes()
    status, r = orders_desk.api("save", {"choice": choice})
    assert status == 400 and "E502" in r["error"]
    assert saved.read_bytes() == first


def test_a_second_answer_saved_after_the_first_was_submitted_does_not_count(orders_desk, hgame, cli):
    """The page, like `hxref answer`, signs what it is asked while the decision is open; the
    second answer of one side for one decision is refused when submitted, and the game keeps
    the first."""
    choice = _good_orders(orders_desk)
    name = orders_desk.api("save", {"choice": choice})[1]["files"][0]
    cli("submit", hgame, name)
    Path(name).rename("sent.yaml")          # mailed, moved away: the folder no longer stops a second save
    before = _sha(hgame)
    other = {**choice, "moves": [{"force": "duvall", "path": []}]}
    status, r = orders_desk.api("save", {"choice": other})
    if status == 200:
        err = cli.fails("submit", hgame, r["files"][0])
        assert "E303" in err
    else:
        assert re.search(r"E30\d", r["error"]), r
    assert _sha(hgame) == before


def test_an_attack_written_as_a_mapping_is_a_problem_not_a_crash(orders_desk, hgame):
    choice = {"moves": [{"force": "calloway", "path": [], "attack": {"x": [1]}}]}
    status, headers, out = orders_desk.request("POST", "/api/check", json.dumps({"choice": choice}).encode(),
                                               _json_headers(orders_desk))
    assert status == 200 and json.loads(out)["problems"]


def test_a_save_after_the_game_moved_on_is_refused_and_the_game_unchanged(orders_desk, hgame, cli):
    """The player answered from the command line meanwhile and the impulse was resolved: the page,
    still at the old impulse, saves nothing and the game file stays as it is."""
    choice = _good_orders(orders_desk)
    Path("cli").mkdir()
    cli("answer", hgame, "--side", "confederate", "--key", "bob", "--choice", json.dumps(choice), "--dir", "cli")
    cli("submit", hgame, "cli/confederate-t1.i1.orders.yaml")
    cli("roll", hgame, "--side", "union", "--key", "alice", "--decision", "t1.i1.orders")
    cli("submit", hgame, "union-t1.i1.orders-roll.yaml")
    cli("resolve", hgame)
    before = _sha(hgame)
    status, r = orders_desk.api("save", {"choice": choice})
    assert status == 400 and re.search(r"E3\d\d", r["error"]), r
    assert not Path("confederate-t1.i1.orders.yaml").exists() and _sha(hgame) == before


# --- nothing but the side's own view: not the key, not its passphrase, not the other's secret --------


def _everything_served(served: Served, extra_choices=()) -> str:
    """Every page file and every answer the page may get, as one text."""
    token = served.desk.token
    out = [served.request("GET", f"{p}?token={token}")[2].decode() for p in ("/", "/page.js", "/page.css")]
    status, page = served.api("page")
    assert status == 200
    out.append(json.dumps(page))
    for choice in (page["choice"], *extra_choices):
        out.append(json.dumps(served.api("check", {"choice": choice})[1]))
        for ml in page["lists"]:
            for p in ml["pieces"]:
                out.append(json.dumps(served.api("reach", {"choice": choice, "list": ml["key"], "piece": p["id"]})[1]))
    return "\n".join(out)


def test_the_opponents_sealed_bid_is_not_on_the_page(cli, game):
    """The confederate committed his bid and keeps his reveal (with its salt) in the same folder:
    nothing the union's page serves holds his bid's salt or reveal."""
    Path("bob-files").mkdir()
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 4", "--dir", "bob-files")
    cli("submit", game, "bob-files/confederate-t1.bid-commit.yaml")
    reveal = Path("bob-files/confederate-t1.bid-reveal.yaml").read_text()
    salt = re.search(r"^salt: *'?([0-9a-f]+)", reveal, re.M)[1]
    link = re.search(r"^link: *'?([0-9a-f]+)", reveal, re.M)[1]
    with serving(game, "union", "alice") as served:
        seen = _everything_served(served, [{"bid": 4}, {"bid": 9}])
    assert salt not in seen and link not in seen


def test_neither_the_key_nor_its_passphrase_is_ever_served(cli, monkeypatch):
    key_with_passphrase(Path("carol"), b"correct horse battery")
    monkeypatch.setenv("HXREF_PASSPHRASE", "correct horse battery")
    joined(cli, "p.yaml", "heartland", "bidding-demo", "pp", "--mode", "open", union="carol")
    key = load_private_key(Path("carol"), b"correct horse battery")
    with serving("p.yaml", "union", key) as served:
        seen = _everything_served(served, [{"bid": 3}])
        assert served.api("save", {"choice": {"bid": 3}})[0] == 200
    secret_lines = [ln for ln in Path("carol").read_text().splitlines() if not ln.startswith("-----")]
    assert "correct horse" not in seen and "PRIVATE KEY" not in seen and "passphrase" not in seen.lower()
    assert not [ln for ln in secret_lines if ln in seen]
    assert 'type="password"' not in seen and "password" not in seen.lower()      # never asked in the page


def test_an_umpired_players_page_holds_nothing_of_the_others_secrets(tmp_path, monkeypatch):
    """Salem Church, umpired: the union's page from the view his mail carries.  Every answer it
    gives (the map, the lists, every reach, the check of orders into the hex where an unseen
    confederate stands) names nothing the union may not see."""
    from tests.mail.test_side_view import NOW, _salem

    t = _salem(tmp_path / "salem")
    eng = t.eng()
    got = t.mail("union", "desk")
    secrets = {s for s in eng.system.secrets(eng.state, "confederate") if len(s) > 3}
    assert secrets
    monkeypatch.setenv("HXREF_HOME", str(t.root / "union" / "home"))
    monkeypatch.setenv("HXREF_NOW", NOW)
    served = Served(Desk(_view_session(str(got["view"]), None, load_private_key(t.key("union")), tmp_path)))
    try:
        page = served.api("page")[1]
        into_the_unseen = json.loads(json.dumps(page["choice"]))
        for mv in into_the_unseen.get("moves") or []:
            mv["path"] = ["0609"]
        seen = _everything_served(served, [into_the_unseen])
    finally:
        served.stop()
    assert not [s for s in secrets if s in seen]


# --- in a real browser: the opponent's names, and a page of another site -------------------------

HOSTILE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script></text><foreignObject>'


@pytest.fixture
def red_browser(tmp_path_factory):
    """Headless Chromium (Debian's, through its chromedriver) in which attacker.example resolves to
    127.0.0.1, as a rebinding attacker's name does once its short TTL ran out."""
    from tests.desk.conftest import CHROMEDRIVER

    if not CHROMEDRIVER.exists():
        pytest.skip("needs Debian's chromedriver (apt-get install chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", "--host-resolver-rules=MAP attacker.example 127.0.0.1",
                f"--user-data-dir={tmp_path_factory.mktemp('red-profile')}"):
        opts.add_argument(arg)
    opts.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    yield driver
    driver.quit()


def _wait(driver, script: str, seconds: float = 15):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = driver.execute_script(script)
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"never true: {script}")


@pytest.fixture
def hostile_game(games_copy, cli):
    """An open Heartland game whose scenario and map (the opponent's, accepted by the player) give
    every leader, unit, road and the map's title a name with HTML and script in it."""
    import yaml

    scen = games_copy / "heartland" / "scenarios" / "heartland-demo.yaml"
    data = yaml.safe_load(scen.read_text())
    for record in (*data["leaders"].values(), *data["units"].values()):
        record["name"] = HOSTILE + record["name"]
    scen.write_text(yaml.safe_dump(data, sort_keys=False))
    mp = games_copy / "heartland" / "maps" / "demo.yaml"
    data = yaml.safe_load(mp.read_text())
    data["title"] = HOSTILE
    mp.write_text(yaml.safe_dump(data, sort_keys=False))
    joined(cli, "x.yaml", "heartland", "heartland-demo", "xss")
    bid_round(cli, "x.yaml", 2, 5)
    return "x.yaml"


def test_the_opponents_names_are_shown_as_text_and_never_run(hostile_game, red_browser):
    with serving(hostile_game, "confederate", "bob") as served:
        page = served.api("page")[1]
        assert "&lt;img src=x" in page["map"]["svg"]            # the hostile names reach the page
        red_browser.get(served.desk.url)
        _wait(red_browser, "return document.querySelector('#the-map') && document.querySelectorAll('#lists button').length")
        first = red_browser.find_element("css selector", "#lists .pieces button")
        first.click()
        _wait(red_browser, "return document.querySelectorAll('.desk-reach').length")
        found = red_browser.execute_script("""return {
            pwned: window.pwned === undefined ? null : window.pwned,
            injected: document.querySelectorAll('img, iframe, object, embed, foreignObject, [onerror], [onload]').length,
            scripts: document.scripts.length,
            text: document.body.textContent,
            resources: performance.getEntriesByType('resource').map((e) => e.name)}""")
    assert found["pwned"] is None and found["injected"] == 0 and found["scripts"] == 1
    assert "<img src=x" in found["text"]          # the names are there, as the opponent wrote them, in words
    origin = f"http://127.0.0.1:{served.port}/"
    assert found["resources"] and all(r.startswith(origin) for r in found["resources"]), found["resources"]


EVIL = """<!DOCTYPE html><html><body><iframe name="sink"></iframe><script>
const d = "http://127.0.0.1:PORT";
const r = {};
async function go() {
  try { const x = await fetch(d + "/api/save", {method: "POST", mode: "no-cors",
          headers: {"Content-Type": "text/plain"}, body: '{"choice": {"bid": 3}}'}); r.nocors = x.type; }
  catch (e) { r.nocors = "error"; }
  try { const x = await fetch(d + "/api/save", {method: "POST", headers: {"Content-Type": "application/json",
          "X-Hxref-Token": "guess"}, body: '{"choice": {"bid": 3}}'}); r.cors = x.status; }
  catch (e) { r.cors = "blocked"; }
  try { const x = await fetch(d + "/api/page", {method: "POST", body: "{}"}); r.read = await x.text(); }
  catch (e) { r.read = "blocked"; }
  r.ws = await new Promise((res) => { try { const ws = new WebSocket("ws://127.0.0.1:PORT/api/save");
          ws.onopen = () => res("open"); ws.onerror = () => res("error"); } catch (e) { res("error"); } });
  const f = document.createElement("form");
  f.method = "POST"; f.action = d + "/api/save"; f.enctype = "text/plain"; f.target = "sink";
  const i = document.createElement("input"); i.name = '{"choice": {"bid": 3}, "x": "'; i.value = '"}';
  f.append(i); document.body.append(f); f.submit();
  await new Promise((res) => setTimeout(res, 500));
  window.results = r;
}
go();
</script></body></html>"""


def test_a_page_of_another_site_in_the_players_browser_gets_nothing(bid_desk, red_browser):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    html = EVIL.replace("PORT", str(bid_desk.port)).encode()

    class Evil(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *args):
            return

    evil = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    Thread(target=evil.serve_forever, daemon=True).start()
    try:
        red_browser.get(f"http://attacker.example:{evil.server_address[1]}/")
        r = _wait(red_browser, "return window.results")
        # DNS rebinding: the attacker's name, now resolving to 127.0.0.1, on the page's port
        red_browser.get(f"http://attacker.example:{bid_desk.port}/?token={bid_desk.desk.token}")
        rebound = red_browser.find_element("tag name", "body").text
    finally:
        evil.shutdown()
        evil.server_close()
    assert r["cors"] == "blocked" and r["read"] == "blocked" and r["ws"] == "error", r
    assert r["nocors"] in ("opaque", "error"), r
    assert "forbidden" in rebound and "hxref orders" not in rebound
    assert bid_desk.desk.session.saved == [] and not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_a_bug_in_a_call_is_one_line_on_the_page_and_in_the_terminal_and_the_page_goes_on(bid_desk, monkeypatch,
                                                                                            capsys):
    """Whatever input finds a bug in the rules: the page gets one line (no stack), the terminal the
    same line, and the next call is answered."""
    def broken(self, choice):
        raise KeyError("a bug")

    monkeypatch.setattr(type(bid_desk.desk.session), "problems", broken)
    status, r = bid_desk.api("check", {"choice": {}})
    assert status == 500 and r["error"].startswith("internal error: KeyError('a bug')")
    said = capsys.readouterr().err
    assert "hxref orders: internal error: KeyError('a bug')" in said and "Traceback" not in said
    monkeypatch.undo()
    assert bid_desk.api("check", {"choice": {}})[0] == 200


def test_a_client_that_hangs_up_leaves_no_stack_in_the_terminal(bid_desk, capsys):
    """A port scan or a closed tab breaks the connection before its answer: the terminal says
    nothing; any other failure of a request, one line (the standard library would print a stack)."""
    for exc, said in ((BrokenPipeError(32, "Broken pipe"), ""), (ConnectionResetError(), ""),
                      (ValueError("odd"), "hxref orders: internal error: ValueError('odd') (a bug in hxref; report it)\n")):
        try:
            raise exc
        except Exception:
            bid_desk.desk.httpd.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == said
