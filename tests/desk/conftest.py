"""The order page under test: a server of a real session on 127.0.0.1, run in a thread."""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hxref.cli.desk import _game_session
from hxref.crypto.signing import load_private_key
from hxref.desk.server import Desk
from tests.conftest import joined


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


def key_with_passphrase(path: Path, passphrase: bytes) -> None:
    """An Ed25519 key protected by ``passphrase`` at ``path``, its public half at ``path.pub``."""
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    k = Ed25519PrivateKey.generate()
    path.write_bytes(k.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, ser.BestAvailableEncryption(passphrase)))
    path.chmod(0o600)
    Path(f"{path}.pub").write_bytes(k.public_key().public_bytes(ser.Encoding.OpenSSH, ser.PublicFormat.OpenSSH))


@contextlib.contextmanager
def serving(game: str, side: str, key: Any) -> Iterator[Served]:
    """The order page of ``side`` in the open game ``game``, served for the block (``key``: a key, or
    the name of a key file beside the test)."""
    if isinstance(key, str):
        key = load_private_key(Path(key))
    served = Served(Desk(_game_session(game, side, key, Path.cwd())))
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def bid_desk(cli, game):
    """The order page of the union in an open bidding game, at its secret bid."""
    with serving(game, "union", "alice") as served:
        yield served


CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: where the screenshots a person looks at go (the tests write them when the folder exists)
#: where the browser tests leave screenshots for a person to look at: the folder HXREF_TEST_SHOTS names,
#: if any (a run of the suite takes none)
SHOTS = Path(os.environ["HXREF_TEST_SHOTS"]) if os.environ.get("HXREF_TEST_SHOTS") else None


@pytest.fixture
def browser(tmp_path_factory):
    """A real headless Chromium driven through Debian's chromedriver (Selenium Manager never
    downloads one), with a fresh profile."""
    if not CHROMEDRIVER.exists():
        pytest.skip("needs Debian's chromedriver (apt-get install chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1200,1000",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        opts.add_argument(arg)
    opts.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def shoot(driver, name: str, width: int) -> None:
    """A screenshot of the whole page at ``width`` px, for a person to look at (when :data:`SHOTS` is set)."""
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.set_window_size(width, 1000)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height + 120, 600), 4000))
    driver.save_screenshot(str(SHOTS / f"desk-{name}-{width}.png"))
    driver.set_window_size(1200, 1000)


@pytest.fixture
def impulse_desk(cli, hgame):
    """The order page of the Confederates at their first impulse of the Heartland demo scenario."""
    with serving(hgame, "confederate", "bob") as served:
        yield served


def click_hex(driver, label: str, shift: bool = False) -> None:
    """A real mouse click at the centre of hex ``label`` of the page's map."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    svg = driver.find_element(By.ID, "the-map")
    dx, dy = driver.execute_script("""
        const svg = arguments[0], c = window.deskHexes[arguments[1]];
        svg.scrollIntoView({block: "center"});
        const pt = svg.createSVGPoint(); pt.x = c[0]; pt.y = c[1];
        const p = pt.matrixTransform(svg.getScreenCTM()), r = svg.getBoundingClientRect();
        return [p.x - (r.left + r.width / 2), p.y - (r.top + r.height / 2)];
    """, svg, label)
    chain = ActionChains(driver, duration=0)   # no 250 ms glide of the pointer to each hex
    if shift:
        chain = chain.key_down(Keys.SHIFT)
    chain = chain.move_to_element_with_offset(svg, int(round(dx)), int(round(dy))).click()
    if shift:
        chain = chain.key_up(Keys.SHIFT)
    chain.perform()


@pytest.fixture
def salem_desk(cli):
    """The order page of the Confederates at their first player turn of an open Salem Church game."""
    joined(cli, "s.yaml", "salem-church", "salem-church", "sc-test")
    cli("answer", "s.yaml", "--side", "confederate", "--key", "bob", "--choice", "place: {wilcox-m: '0609'}")
    cli("submit", "s.yaml", "confederate-t0.setup.yaml")
    cli("resolve", "s.yaml")
    cli("template", "s.yaml", "--side", "union", "-o", "union-t1.yaml")     # the Union enters as the template has it
    cli("sign", "union-t1.yaml", "--key", "alice", "--game", "s.yaml", "--side", "union")
    cli("submit", "s.yaml", "union-t1.yaml")
    cli("roll", "s.yaml", "--side", "confederate", "--key", "bob", "--decision", "t1.union")
    cli("submit", "s.yaml", "confederate-t1.union-roll.yaml")
    cli("resolve", "s.yaml")
    with serving("s.yaml", "confederate", "bob") as served:
        yield served
