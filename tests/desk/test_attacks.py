"""The order page's server attacked as a page of another site, a process of another user or a
guesser would attack it: each must get a refusal and nothing of use (SECURITY.md, "The order page")."""
from __future__ import annotations

import json
import socket
from pathlib import Path

from hxref.desk.server import MAX_BODY


def _good(desk):
    return {"Content-Type": "application/json", "X-Hxref-Token": desk.desk.token}


def test_it_listens_on_the_loopback_only(bid_desk):
    assert bid_desk.desk.httpd.server_address[0] == "127.0.0.1"
    addresses = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None) if a[0] == socket.AF_INET}
    for address in addresses - {"127.0.0.1", "127.0.1.1"}:
        s = socket.socket()
        s.settimeout(1)
        assert s.connect_ex((address, bid_desk.port)) != 0
        s.close()


def test_the_page_without_the_token_or_with_a_wrong_one_is_refused(bid_desk):
    for path in ("/", "/?token=", "/?token=" + "A" * 43, "/page.js", "/page.js?token=x",
                 f"/?token={bid_desk.desk.token}&token=x", f"/?token={bid_desk.desk.token[:-1]}"):
        status, _, body = bid_desk.request("GET", path)
        assert status == 403 and body == b"forbidden\n", path
    status, headers, body = bid_desk.request("GET", f"/?token={bid_desk.desk.token}")
    assert status == 200 and b"<html" in body


def test_an_api_call_without_the_token_header_is_refused(bid_desk):
    body = json.dumps({"choice": {"bid": 3}}).encode()
    for headers in ({"Content-Type": "application/json"},
                    {"Content-Type": "application/json", "X-Hxref-Token": "guess"}):
        status, _, out = bid_desk.request("POST", "/api/save", body, headers)
        assert status == 403 and out == b"forbidden\n"
    # the token in the query (as a link would carry it) is not an API call's token
    status, _, _ = bid_desk.request("POST", f"/api/save?token={bid_desk.desk.token}", body,
                                    {"Content-Type": "application/json"})
    assert status == 403
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_dns_rebinding_a_foreign_host_name_is_refused_even_with_the_token(bid_desk):
    token = bid_desk.desk.token
    for host in ("evil.example:%d" % bid_desk.port, "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:%d" % bid_desk.port,
                 ""):
        assert bid_desk.request("GET", f"/?token={token}", host=host)[0] == 403, host
        assert bid_desk.request("POST", "/api/page", b"{}", _good(bid_desk), host=host)[0] == 403, host
    assert bid_desk.request("GET", f"/?token={token}", host=f"localhost:{bid_desk.port}")[0] == 200


def test_a_cross_origin_request_is_refused_and_no_cors_header_is_ever_sent(bid_desk):
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{bid_desk.port + 1}",
                   f"https://127.0.0.1:{bid_desk.port}"):
        status, headers, _ = bid_desk.request("POST", "/api/page", b"{}", {**_good(bid_desk), "Origin": origin})
        assert status == 403, origin
    status, headers, _ = bid_desk.request("POST", "/api/page", b"{}",
                                          {**_good(bid_desk), "Origin": f"http://127.0.0.1:{bid_desk.port}"})
    assert status == 200
    # a preflight is answered with no permission at all
    status, headers, _ = bid_desk.request("OPTIONS", "/api/save", None, {
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-hxref-token"})
    assert status == 405 and not any(k.startswith("access-control-") for k in headers)


def test_a_cross_site_form_post_is_refused(bid_desk):
    # what a form of another site can send without a preflight: a simple content type, no header of ours
    for ctype in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"):
        status, _, _ = bid_desk.request("POST", "/api/save", b'{"choice": {"bid": 3}}',
                                        {"Content-Type": ctype, "X-Hxref-Token": bid_desk.desk.token})
        assert status == 415, ctype
    assert bid_desk.request("GET", f"/api/save?token={bid_desk.desk.token}")[0] == 404
    assert not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_every_answer_forbids_other_sources_sniffing_framing_and_caching(bid_desk):
    for status, headers, _ in (bid_desk.request("GET", f"/?token={bid_desk.desk.token}"),
                               bid_desk.request("GET", "/"),
                               bid_desk.request("POST", "/api/page", b"{}", _good(bid_desk))):
        csp = headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cache-control"] == "no-store"
        assert headers["referrer-policy"] == "no-referrer"


def test_no_file_is_served_but_the_page_s_own_three(bid_desk, cli):
    token = bid_desk.desk.token
    for path in ("/g.yaml", "/../g.yaml", "/%2e%2e/g.yaml", "/alice", "/page.html", "/server.py", "/__init__.py",
                 "//etc/passwd", "/union-t1.bid-reveal.yaml"):
        status, _, body = bid_desk.request("GET", f"{path}?token={token}")
        assert status == 404 and body == b"no\n", path
    for name in ("page.js", "page.css"):
        assert bid_desk.request("GET", f"/{name}?token={token}")[0] == 200


def test_no_file_path_is_taken_from_the_page(bid_desk, tmp_path):
    status, r = bid_desk.api("save", {"choice": {"bid": 3}, "path": "/tmp/evil.yaml", "folder": "/tmp",
                                      "file": "../../evil.yaml"})
    assert status == 200 and r["files"] == ["union-t1.bid-commit.yaml", "union-t1.bid-reveal.yaml"]
    assert (tmp_path / "union-t1.bid-commit.yaml").is_file() and not Path("/tmp/evil.yaml").exists()


def test_nothing_of_the_other_side_or_the_key_is_served(bid_desk, keydir):
    status, _, page = bid_desk.request("POST", "/api/page", b"{}", _good(bid_desk))
    assert status == 200
    text = page.decode()
    assert "PRIVATE KEY" not in text and (keydir / "alice").read_text().splitlines()[1] not in text
    assert json.loads(text)["side"] == "union"
    for call, body in (("reach", {"choice": {}, "list": "moves", "piece": "x"}), ("nosuch", {})):
        status, r = bid_desk.api(call, body)
        assert status in (400, 404)


def test_an_oversized_or_malformed_body_is_refused(bid_desk):
    big = b'{"choice": {"bid": "' + b"x" * MAX_BODY + b'"}}'
    assert bid_desk.request("POST", "/api/check", big, _good(bid_desk))[0] == 413
    assert bid_desk.request("POST", "/api/check", b"{not json", _good(bid_desk))[0] == 400
    assert bid_desk.request("POST", "/api/check", b"[1, 2]", _good(bid_desk))[0] == 400
    assert bid_desk.request("POST", "/api/check", b'{"choice": [1]}', _good(bid_desk))[0] == 400
    status, _, _ = bid_desk.request("POST", "/api/check", b"{}", {**_good(bid_desk), "Content-Length": "-5"})
    assert status in (400, 411, 413)
