"""Deadlines in each player's own time zone, and reminders before a deadline (issue 9 item 4)."""
from pathlib import Path

import pytest

from hxref import mail
from hxref.engine import Engine


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="tz",
                        policy={"deadline_hours": 48, "nmr": "hold"})
    eng.save()
    (tmp_path / "g.addresses.yaml").write_text(
        "union: alice@example.org\nconfederate: bob@example.org\n"
        "tz: {union: America/New_York, confederate: Europe/Berlin}\n")
    return tmp_path / "g.yaml"


def test_local_deadline_text():
    assert mail.local_time("2026-12-01T12:00:00Z", "Europe/Berlin") == "2026-12-01 13:00 CET"
    assert mail.local_time("2026-07-01T12:00:00Z", "America/New_York") == "2026-07-01 08:00 EDT"
    assert mail.local_time("2026-12-01T12:00:00Z", None) == "2026-12-01 12:00 UTC"


def test_address_book_time_zones_are_checked(game):
    eng = Engine.load(game)
    book = mail.load_address_book(mail.address_book_path(game), eng)
    assert book.timezones == {"union": "America/New_York", "confederate": "Europe/Berlin"}
    bad = Path(game).with_name("bad.addresses.yaml")
    bad.write_text("union: a@example.org\ntz: {union: Mars/Olympus}\n")
    with pytest.raises(Exception) as e:
        mail.load_address_book(bad, eng)
    assert "Mars/Olympus" in str(e.value) and "time zone" in str(e.value)


def test_each_mail_gives_the_deadline_in_the_recipients_zone(game):
    eng = Engine.load(game)
    book = mail.load_address_book(mail.address_book_path(game), eng)
    msgs = dict(mail.outbox_messages(eng, book)[0])
    assert "Deadline of t1.union: 2026-12-01 07:00 EST (2026-12-01T12:00:00Z)" in msgs["union"].get_body(
        ("plain",)).get_content()
    assert "2026-12-01 13:00 CET" in msgs["confederate"].get_body(("plain",)).get_content()


def test_reminders_go_only_to_sides_that_owe_a_decision_due_soon(game, monkeypatch):
    eng = Engine.load(game)
    book = mail.load_address_book(mail.address_book_path(game), eng)
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T10:00:00Z")            # 26 hours left
    assert mail.reminder_messages(eng, book, within_hours=24) == []
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T20:00:00Z")            # 16 hours left
    out = mail.reminder_messages(eng, book, within_hours=24)
    assert [a for a, _ in out] == ["union"]
    msg = out[0][1]
    assert msg["Subject"].startswith("[hxref] reminder: tz: t1.union is due") and "16h" in msg["Subject"]
    assert "2026-12-01 07:00 EST" in msg.get_body(("plain",)).get_content()


def test_cli_outbox_remind(cli, game, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T20:00:00Z")
    out = cli("outbox", str(game), "--remind", "24").output
    assert "reminder" in out and "union" in out and "confederate" not in out.split("outbox:")[0]
