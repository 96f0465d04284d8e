"""Deadlines in each player's own time zone, and reminders before a deadline (every player reads
the same instant on his own clock)."""
from pathlib import Path

import pytest

from hxref import mail
from hxref.referee.engine import Engine


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="tz",
                        policy={"deadline_hours": 48, "nmr": "stand-fast"})
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
    union = msgs["union"].get_body(("plain",)).get_content()
    assert union.startswith("The Fight for Mercer's Mill (original scenario) -- union's report\n\nYour move: turn 1 "
                            "of 15, the union player turn, due Tue 1 Dec 2026 07:00 EST.")
    assert msgs["union"]["Subject"] == "tz: your move: turn 1 of 15, the union player turn, due Tue 1 Dec 2026 07:00 EST"
    assert msgs["confederate"]["Subject"] == "tz: waiting for union"
    assert "Waiting for union: turn 1 of 15, the union player turn, due Tue 1 Dec 2026 13:00 CET." in \
        " ".join(msgs["confederate"].get_body(("plain",)).get_content().split())


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


# --- v2: no clock applies a deadline; a signed claim does -------------------------------------------

def _open_game(cli, *extra: str) -> str:
    """An open ACW game both sides joined; t1.union is due a day later, with two hours' grace."""
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "open",
        "--game-id", "acw", "--side", "union=alice.pub", "--side", "confederate=bob.pub",
        "--deadline-hours", "24", "--grace-hours", "2", *extra)
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    Path("g.addresses.yaml").write_text("union: alice@example.org\nconfederate: bob@example.org\n"
                                        "umpire: referee@example.org\n")
    return "g.yaml"


def _reminders(game: str, hours: float = 12) -> dict:
    eng = Engine.load(game)
    book = mail.load_address_book(mail.address_book_path(game), eng)
    # the text with its lines joined (prose is wrapped at 76 columns; each command is on a line of its own)
    return {a: " ".join(m.get_body(("plain",)).get_content().split())
            for a, m in mail.reminder_messages(eng, book, within_hours=hours)}


def test_reminders_name_every_party_that_owes_with_its_command(cli, monkeypatch):
    game = _open_game(cli)
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T04:00:00Z")             # 8 hours before the deadline
    got = _reminders(game)
    # union owes its answer; confederate owes its dice link once the answer is in
    assert sorted(got) == ["confederate", "union"]
    union = got["union"]
    assert "Union still owes its answer for t1.union" in union
    assert "Send it with: hxref answer g.yaml --side union --key KEY --choice ..." in union
    # every party that owes anything is named, with its command
    assert ("Still owed for t1.union: union: its answer hxref answer g.yaml --side union --key KEY --choice ... "
            "confederate: its dice link (a roll file), after the answers "
            "hxref roll g.yaml --side confederate --key KEY --decision t1.union") in union
    assert "Deadline: 2026-11-30 12:00 UTC (2026-11-30T12:00:00Z); time left 8h." in union
    assert ("After the deadline and its grace, from 2026-11-30 14:00 UTC (2026-11-30T14:00:00Z), the other side "
            "(confederate) may claim that union missed it: "
            "hxref claim g.yaml --side confederate --key KEY --against union --decision t1.union "
            "A claim counts only if it is signed after that time") in union
    assert "stands fast with the decision's default answer (policy stand-fast)" in union
    assert "hold" not in union and "applies" not in union
    assert ("Send it as soon as the others' files are in, with: "
            "hxref roll g.yaml --side confederate --key KEY --decision t1.union") in got["confederate"]
    # the answer is in: now confederate owes its dice link, with `hxref roll`, and a withheld link forfeits
    cli("answer", game, "--side", "union", "--key", "alice", "--choice", "{moves: [], shots: []}")
    cli("submit", game, "union-t1.union.yaml")
    got = _reminders(game)
    assert sorted(got) == ["confederate"]
    conf = got["confederate"]
    assert "Confederate still owes its dice link (a roll file) for t1.union" in conf
    assert "Send it with: hxref roll g.yaml --side confederate --key KEY --decision t1.union" in conf
    assert "the other side (union) may claim" in conf and "confederate forfeits the game" in conf
    # sent in time, nothing is owed: no reminder
    cli("roll", game, "--side", "confederate", "--key", "bob")
    cli("submit", game, "confederate-t1.union-roll.yaml")
    assert _reminders(game) == {}


def test_reminders_in_an_umpired_game(cli, monkeypatch):
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "umpired",
        "--game-id", "acw", "--side", "union=alice.pub", "--side", "confederate=bob.pub",
        "--umpire", "umpire.pub", "--deadline-hours", "24", "--nmr", "forfeit")
    for side, key in (("union", "alice"), ("confederate", "bob"), ("umpire", "umpire")):
        cli("join", "g.yaml", "--side", side, "--key", key)
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml", "umpire-join.yaml")
    Path("g.addresses.yaml").write_text("union: alice@example.org\nconfederate: bob@example.org\n"
                                        "umpire: referee@example.org\n")
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T20:00:00Z")             # past the deadline: still reminded
    got = _reminders("g.yaml")
    assert sorted(got) == ["umpire", "union"]
    assert "time left" not in got["union"] and "LATE" in got["union"]
    assert "the umpire may claim that union missed it. A claim counts" in got["union"]
    assert "hxref claim" not in got["union"]                # the umpire's command, not the player's
    assert "union forfeits the game (policy forfeit)" in got["union"]
    # the union player holds no game file: his own command is the template's, the umpire's is not his
    assert "Send it with: hxref answer --template union-t1.union-template.yaml --key KEY" in got["union"]
    assert "umpire: the resolution, after the answers" in got["union"]
    assert "hxref resolve" not in got["union"] and "hxref answer g.yaml" not in got["union"]
    cli("answer", "g.yaml", "--side", "union", "--key", "alice", "--choice", "{moves: [], shots: []}")
    cli("submit", "g.yaml", "union-t1.union.yaml")
    got = _reminders("g.yaml")
    assert sorted(got) == ["umpire"]
    assert "The umpire still owes the resolution for t1.union" in got["umpire"]
    assert "Send it with: hxref resolve g.yaml --key UMPIRE_KEY" in got["umpire"]
    assert "nobody can claim a missed deadline against the umpire" in got["umpire"]


def test_the_mail_gives_one_deadline_and_the_grace_in_words(cli):
    game = _open_game(cli)
    eng = Engine.load(game)
    assert mail.deadline_lines(eng, "union", None) == ["t1.union: due Mon 30 Nov 2026 12:00 UTC (then 2 hours' grace)"]


def test_a_solo_game_mail_says_what_was_resolved(game):
    """Solo games keep no files (their answers are events of the log): no receipts, and the subject
    names the decisions the last resolution closed."""
    eng = Engine.load(game)
    eng.answer_solo("union", None, {"moves": [], "shots": []})
    eng.resolve()
    eng.save()
    book = mail.load_address_book(mail.address_book_path(game), eng)
    msgs = dict(mail.outbox_messages(eng, book)[0])
    assert msgs["union"]["Subject"] == "tz: waiting for confederate"
    assert "What happened" in msgs["union"].get_body(("plain",)).get_content() or \
        "Last resolution: t1.union" in msgs["union"].get_body(("plain",)).get_content()
    assert "accepted:" not in msgs["union"].get_body(("plain",)).get_content()
    eng.answer_solo("confederate", None, {"moves": [], "shots": []})
    eng.save()
    assert "resolved" not in mail.subject(eng)
