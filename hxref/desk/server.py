"""The order page's server: the standard library's HTTP server on the loopback, for one player.

It serves one :class:`~hxref.desk.session.Session` (one side of one game, at one decision) and
nothing else, to a browser on the same machine, and defends itself as a local server must
(SECURITY.md, "The order page"):

- it listens on 127.0.0.1 only, on a free port unless one is asked for;
- every request carries the token made at start (``secrets.token_urlsafe(32)``), compared in
  constant time: the page and its files in the query (``?token=``), every API call in the
  ``X-Hxref-Token`` header; without it: 403 and a body of one word;
- the Host header must be ``127.0.0.1:PORT`` or ``localhost:PORT`` (a page of another site whose
  name was rebound to 127.0.0.1 sends its own name), and an Origin header, when sent, the page's own;
- API calls are POSTs of ``application/json`` (a cross-site form cannot send one without a
  preflight, and no CORS header is ever sent), with bodies of at most :data:`MAX_BODY` bytes;
- every answer forbids caching, sniffing, framing and every source but the page's own
  (Content-Security-Policy); the page's files are package data, by fixed names;
- no file path is taken from the page: the saved files' names are the command line's.
"""
from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..base.errors import HxrefError
from .session import Session

#: the most a request body may hold (a choice of a big impulse is a few kilobytes)
MAX_BODY = 256 * 1024
#: the page's files, by the path they are served at: (package file, content type)
FILES = {"/": ("page.html", "text/html; charset=utf-8"),
         "/page.js": ("page.js", "text/javascript; charset=utf-8"),
         "/page.css": ("page.css", "text/css; charset=utf-8")}
#: what every answer says of itself
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
TOKEN_HEADER = "X-Hxref-Token"
#: what the page may ask (POST /api/NAME)
API = ("page", "check", "reach", "save", "done")


class Desk:
    """The server of one session: its token, its address, and the API the page calls."""

    def __init__(self, session: Session, port: int = 0):
        self.session = session
        self.token = secrets.token_urlsafe(32)
        self.httpd = _Server(("127.0.0.1", port), _handler(self))
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self.lock = threading.Lock()        # one API call at a time: a save is never run twice at once
        self.done = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    def hosts(self) -> tuple[str, ...]:
        return f"127.0.0.1:{self.port}", f"localhost:{self.port}"

    def origins(self) -> tuple[str, ...]:
        return tuple(f"http://{h}" for h in self.hosts())

    def serve(self) -> None:
        """Serve until the page's "Done" or Ctrl-C (KeyboardInterrupt, raised to the caller)."""
        try:
            self.httpd.serve_forever(poll_interval=0.2)
        finally:
            self.httpd.server_close()

    def stop(self) -> None:
        self.done.set()
        threading.Thread(target=self.httpd.shutdown, daemon=True).start()

    def call(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """An API call of the page (:data:`API`)."""
        s = self.session
        if name == "page":
            return s.page()
        if name == "done":           # the server stops once this answer is sent (the handler)
            return {"saved": [p.name for p in s.saved]}
        choice = body.get("choice")
        if not isinstance(choice, dict):
            raise HxrefError("the page sent no choice", code="E504")
        if name == "check":
            return {"problems": s.problems(choice)}
        if name == "reach":
            key, piece = body.get("list"), body.get("piece")
            if not isinstance(key, str) or not isinstance(piece, str):
                raise HxrefError("a reach names a list and a piece", code="E504")
            return {"reach": s.reach(choice, key, piece)}
        if name == "save":
            problems = s.problems(choice)
            if problems:
                return {"problems": problems}
            return s.save(choice, mail=body.get("mail") is True)
        raise HxrefError(f"no call {name!r}", code="E504")


class _Server(ThreadingHTTPServer):
    """The standard library's server, but a request that fails says one line in the terminal, not a
    stack; a client that hung up before its answer (a closed tab, a port scan) says nothing; and a
    burst of connections (a browser opens several at once) waits in the listen queue rather than
    having its connection requests dropped and retried a second later (the default queue is 5)."""

    request_queue_size = 64

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if not isinstance(exc, (ConnectionError, TimeoutError)):
            sys.stderr.write(f"hxref orders: internal error: {exc!r} (a bug in hxref; report it)\n")


def _handler(desk: Desk) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "hxref-desk"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:   # noqa: A002 -- the base class's name
            return      # the terminal shows what was saved, never the requests (their URLs hold the token)

        def _send(self, status: int, body: bytes, ctype: str = "text/plain; charset=utf-8") -> None:
            self.send_response(status)
            for k, v in HEADERS.items():
                self.send_header(k, v)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data).encode("utf-8"), "application/json")

        def _refused(self, status: int = 403) -> None:
            self._send(status, b"forbidden\n" if status == 403 else b"no\n")

        def _from_here(self) -> bool:
            """The Host is this server's own name, and an Origin, if sent, the page's."""
            hosts = self.headers.get_all("Host") or []
            if len(hosts) != 1 or hosts[0] not in desk.hosts():
                return False
            origin = self.headers.get("Origin")
            return origin is None or origin in desk.origins()

        @staticmethod
        def _token_is(given: str | None) -> bool:
            return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                             desk.token.encode("ascii"))

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            tokens = parse_qs(url.query).get("token", [])
            if not self._from_here() or len(tokens) != 1 or not self._token_is(tokens[0]):
                return self._refused()
            if url.path not in FILES:
                return self._refused(404)
            name, ctype = FILES[url.path]
            text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
            self._send(200, text.replace("{{TOKEN}}", desk.token).encode("utf-8"), ctype)

        do_HEAD = do_GET

        def do_POST(self) -> None:
            url = urlsplit(self.path)
            if not self._from_here() or not self._token_is(self.headers.get(TOKEN_HEADER)) or url.query:
                return self._refused()
            ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                return self._refused(411)
            if ctype != "application/json":
                return self._refused(415)
            if not 0 <= length <= MAX_BODY:
                return self._refused(413)
            name = url.path[len("/api/"):] if url.path.startswith("/api/") else ""
            if name not in API:
                return self._refused(404)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except (ValueError, UnicodeDecodeError, RecursionError):
                return self._json(400, {"error": "the request is not JSON (or nested deeper than any choice is)"})
            if not isinstance(body, dict):
                return self._json(400, {"error": "the request is not a JSON object"})
            with desk.lock:
                try:
                    self._json(200, desk.call(name, body))
                    self.wfile.flush()
                    if name == "done":
                        desk.stop()
                    return None
                except HxrefError as exc:
                    return self._json(400, {"error": exc.render(), "lines": exc.lines()})
                except Exception as exc:    # a bug: one line on the page and in the terminal, the page goes on
                    said = f"internal error: {exc!r} (a bug in hxref; report it)"
                    sys.stderr.write(f"hxref orders: {said}\n")
                    return self._json(500, {"error": said})

        def _other(self) -> None:
            self._refused(405)

        do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _other

    return Handler
