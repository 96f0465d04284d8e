"""The order page under test: a server of a real session on 127.0.0.1, run in a thread."""
from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path

import pytest

from hxref.cli.desk import _game_session
from hxref.crypto.signing import load_private_key
from hxref.desk.server import Desk


class Served:
    """A desk being served, and a raw HTTP client that sends exactly what a test says."""

    def __init__(self, desk: Desk):
        self.desk = desk
        self.thread = threading.Thread(target=desk.serve, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return self.desk.port

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                host: str | None = None) -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host if host is not None else f"127.0.0.1:{self.port}")
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        res = conn.getresponse()
        out = res.status, {k.lower(): v for k, v in res.getheaders()}, res.read()
        conn.close()
        return out

    def api(self, name: str, data: dict | None = None, **headers) -> tuple[int, dict]:
        status, _, body = self.request("POST", f"/api/{name}", json.dumps(data or {}).encode(),
                                       {"Content-Type": "application/json", "X-Hxref-Token": self.desk.token,
                                        **headers})
        return status, json.loads(body) if body.startswith(b"{") else {}

    def stop(self) -> None:
        self.desk.stop()
        self.thread.join(5)


@pytest.fixture
def bid_desk(cli, game):
    """The order page of the union in an open bidding game, at its secret bid."""
    key = load_private_key(Path("alice"))
    served = Served(Desk(_game_session(game, "union", key, Path.cwd())))
    yield served
    served.stop()
