"""An umpired player's order page, from the view and template the umpire's mail carries: the
check runs on the view as `hxref check --view` does, and the save is `hxref answer --template`'s
file, which the umpire accepts."""
from __future__ import annotations

import pytest

from hxref.cli.desk import _view_session
from hxref.crypto.signing import load_private_key
from hxref.desk.server import Desk

from tests.desk.conftest import Served
from tests.mail.test_side_view import NOW, _salem


def test_an_umpired_side_orders_from_its_view_and_the_umpire_accepts_the_file(tmp_path, monkeypatch):
    t = _salem(tmp_path)
    got = t.mail("union", "m1")
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "union" / "home"))     # the player's own machine
    monkeypatch.setenv("HXREF_NOW", NOW)                                     # the table's clock
    session = _view_session(str(got["view"]), None, load_private_key(t.key("union")), got["view"].parent)
    served = Served(Desk(session))
    try:
        status, page = served.api("page")
        assert status == 200 and page["side"] == "union" and page["decision"]["id"] == "t1.union"
        assert page["map"] is not None and "what union sees" in page["map"]["svg"]
        bad = {**page["choice"], "entry": "0101"}
        problems = served.api("check", {"choice": bad})[1]["problems"]
        assert problems and problems[0]["line"].startswith("union-t1.union.yaml: ")
        assert served.api("check", {"choice": page["choice"]})[1] == {"problems": []}
        status, r = served.api("save", {"choice": page["choice"]})
        assert status == 200 and r["files"] == ["union-t1.union.yaml"], r
    finally:
        served.stop()
    t.submit(got["view"].parent / "union-t1.union.yaml")


def test_a_view_of_the_other_side_or_without_its_template_is_refused(tmp_path, monkeypatch):
    from hxref.base.errors import HxrefError

    t = _salem(tmp_path)
    got = t.mail("union", "m1")
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "union" / "home"))
    key = load_private_key(t.key("union"))
    with pytest.raises(HxrefError, match="not confederate's"):
        _view_session(str(got["view"]), "confederate", key, got["view"].parent)
    got["template"].unlink()
    with pytest.raises(HxrefError, match="no template"):
        _view_session(str(got["view"]), None, key, got["view"].parent)
