"""An umpired player checks his orders at home, against his side's view signed by the umpire.

Each player has only his key, the other's public key and the files the umpire's mails carry: the
join template (with the game's first event, whose hash is the identity: his join records the
umpire's key from it), his templates and his side's signed view.  The attacks are run the way the
attacker would run them, through the CLI, with only what he holds.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.mail import outbox as mail_outbox
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.report import side_view
from hxref.report.turnmap import side_svg
from hxref.crypto.signing import load_private_key

NOW = "2026-11-29T12:00:00Z"
SIDES = ("union", "confederate")


class Table:
    """An umpired game: the umpire's folder with the game, and one folder (and HXREF_HOME) a player."""

    def __init__(self, root: Path, system: str, scenario: str, label: str = "t", join: bool = True):
        self.root, self.runner = root, CliRunner()
        for who in (*SIDES, "umpire", "stranger"):
            (root / who).mkdir(parents=True, exist_ok=True)
            if not (root / who / "key").exists():
                self.run(who, "keygen", root / who / "key")
        self.game = root / "umpire" / f"{label}.yaml"
        self.run("umpire", "new", self.game, "--system", system, "--scenario", scenario, "--mode", "umpired",
                 "--game-id", label, *[a for s in SIDES for a in ("--side", f"{s}={root / s / 'key.pub'}")],
                 "--umpire", root / "umpire" / "key.pub")
        self.run("umpire", "join", self.game, "--side", "umpire", "--key", self.key("umpire"))
        self.submit(root / "umpire" / "umpire-join.yaml")
        for side in SIDES if join else ():
            (name, text), = mail_outbox.umpired_templates(self.eng(), side)
            (root / side / name).write_text(text)
            self.run(side, "join", "--template", root / side / name, "--key", self.key(side), "--dir", root / side)
            self.submit(root / side / f"{side}-join.yaml")

    def key(self, who: str) -> Path:
        return self.root / who / "key"

    def run(self, who: str, *args, code: int | None = 0, now: str = NOW):
        res = self.runner.invoke(main, [str(a) for a in args],
                                 env={"HXREF_NOW": now, "HXREF_HOME": str(self.root / who / "home")})
        assert code is None or res.exit_code == code, f"{who}: {args} -> {res.exit_code}\n{res.output}"
        return res

    def eng(self) -> Engine:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("HXREF_HOME", str(self.root / "umpire" / "home"))
            return Engine.load(self.game)

    def submit(self, path: Path, code: int = 0):
        return self.run("umpire", "submit", self.game, path, code=code)

    def mail(self, side: str, folder: str) -> dict[str, Path]:
        """What the umpire's mail carries for ``side`` (templates and view), saved in its folder."""
        eng = self.eng()
        key = load_private_key(self.key("umpire"))
        where = self.root / side / folder
        where.mkdir()
        out = {}
        for name, text in mail_outbox._carried_for(eng, side, files=True, attach_game=False, templates=True,
                                                   umpire_key=key)["templates"]:
            (where / name).write_text(text)
            out["view" if name.endswith("-view.yaml") else "template"] = where / name
        return out


def _literal(template: Path, key: Path) -> list[str]:
    """The command the template's own words name, THIS_FILE and YOUR_KEY filled in."""
    text = template.read_text()
    m = re.search(r"^#\s+hxref (answer|commit|join) --template THIS_FILE --key YOUR_KEY$", text, re.M)
    assert m, text
    return [m[1], "--template", str(template), "--key", str(key)]


def _salem(root: Path) -> Table:
    """Salem Church, umpired, after the confederate's setup: the union owes its turn-1 orders."""
    t = Table(root, "salem-church", "salem-church")
    got = t.mail("confederate", "m1")           # t0.setup: Wilcox/M west of column 16
    t.run("confederate", *_literal(got["template"], t.key("confederate")))
    t.submit(got["template"].parent / "confederate-t0.setup.yaml")
    t.run("umpire", "resolve", t.game, "--key", t.key("umpire"))
    return t


@pytest.fixture(scope="module")
def salem(tmp_path_factory):
    return _salem(tmp_path_factory.mktemp("salem"))


def test_the_templates_words_followed_literally_give_an_accepted_file(salem):
    """The umpired mail's template names one command; run word for word (THIS_FILE and YOUR_KEY
    filled in) after filling in `choice`, it writes a file the umpire accepts -- with the dice link
    `hxref sign` would have left out (E111 before)."""
    got = salem.mail("union", "literal")
    text = got["template"].read_text()
    assert "hxref sign" not in text and "--choice" not in text
    assert "# dice link: index 1 of your chain" in text
    out = salem.run("union", *_literal(got["template"], salem.key("union")))
    assert "checked against union-t1.union-view.yaml" in out.output
    written = got["template"].parent / "union-t1.union.yaml"
    assert "link:" in written.read_text()
    salem.run("umpire", "check", salem.game, written)
    shutil.rmtree(got["template"].parent)


def test_a_refusal_at_home_names_the_templates_line_and_writes_nothing(salem):
    got = salem.mail("union", "bad")
    text = got["template"].read_text()
    data = yamlio.fast_load(text)
    first = next(iter(data["choice"]))
    bad = yamlio.fast_load(text)["choice"]
    bad["moves"] = [{"unit": "no-such-unit", "path": ["2114"]}] if first == "moves" or "moves" in bad else bad
    res = salem.run("union", "answer", "--template", got["template"], "--key", salem.key("union"),
                    "--choice", json.dumps(bad), code=2)
    assert "[E" in res.output and "Traceback" not in res.output
    assert not (got["template"].parent / "union-t1.union.yaml").exists()
    shutil.rmtree(got["template"].parent)


def test_check_at_home_of_an_unsigned_template_checks_the_choice_and_asks_for_the_signature(salem):
    got = salem.mail("union", "unsigned")
    res = salem.run("union", "check", got["template"], code=2)
    assert "not signed yet" in res.output and "[E200]" in res.output
    assert f"hxref answer --template {got['template']} --key YOUR_KEY" in res.output
    shutil.rmtree(got["template"].parent)


def test_check_with_the_game_of_an_unsigned_file_checks_the_choice_first(salem, tmp_path):
    eng = salem.eng()
    dec = eng.decision("t1.union")
    path = tmp_path / "u.yaml"
    from hxref.referee import orders
    good = eng.system.template(eng.system.view(eng.state, "union", eng.mode), dec, "union").choice
    path.write_text(orders.render({**eng.envelope("union", dec.id, "answer"), "choice": dec.example}))
    res = salem.run("umpire", "check", salem.game, path, code=2)
    assert "[E400]" in res.output and "not signed yet" not in res.output       # the choice is checked first
    path.write_text(orders.render({**eng.envelope("union", dec.id, "answer"), "choice": good}))
    res = salem.run("umpire", "check", salem.game, path, code=2)
    assert "not signed yet" in res.output and "[E200]" in res.output and "hxref sign" in res.output


def test_a_resend_replaces_the_own_earlier_answer_and_the_umpire_counts_one(tmp_path):
    """Re-running the command after a refusal replaces the side's own earlier file (no E502); the
    umpire still takes one answer of a side per decision: a second signed answer is refused."""
    salem = _salem(tmp_path / "g")
    got = salem.mail("union", "resend")
    cmd = _literal(got["template"], salem.key("union"))
    salem.run("union", *cmd)
    first = (got["template"].parent / "union-t1.union.yaml").read_text()
    res = salem.run("union", *cmd, now="2026-11-29T12:05:00Z")
    assert "replaced union-t1.union.yaml" in res.output
    second = (got["template"].parent / "union-t1.union.yaml").read_text()
    keep = got["template"].parent / "first.yaml"
    keep.write_text(first)
    salem.submit(keep)
    res = salem.submit(got["template"].parent / "union-t1.union.yaml", code=2)
    assert "[E303]" in res.output, res.output
    assert first != second


def test_a_file_of_someone_else_is_not_replaced(salem):
    got = salem.mail("union", "other")
    target = got["template"].parent / "union-t1.union.yaml"
    target.write_text("not mine\n")
    res = salem.run("union", *_literal(got["template"], salem.key("union")), code=2)
    assert "[E502]" in res.output and target.read_text() == "not mine\n"
    shutil.rmtree(got["template"].parent)


# --- the attacks: a view the player must not believe --------------------------------------------

def _forged(t: Table, signer: str, side: str = "union", **change) -> str:
    """``side``'s view, as the umpire builds it, re-signed with ``signer``'s key (and fields changed)."""
    from hxref.crypto.signing import embed_signature, split_signed_text

    eng = t.eng()
    text = side_view.build(eng, side, load_private_key(t.key("umpire")))
    body, _ = split_signed_text(text)
    for k, v in change.items():
        body = re.sub(rf"^{k}: .*$", f"{k}: {json.dumps(v)}", body, flags=re.M)
    return embed_signature(body, load_private_key(t.key(signer)).sign(body.encode(), side_view.NAMESPACE))


@pytest.mark.parametrize("signer", ["confederate", "stranger"])
def test_a_view_signed_by_the_opponent_or_a_stranger_is_refused(salem, signer):
    got = salem.mail("union", f"forged-{signer}")
    got["view"].write_text(_forged(salem, signer))
    res = salem.run("union", *_literal(got["template"], salem.key("union")), code=2)
    assert "[E202]" in res.output and "not by the umpire of the game you joined" in res.output
    assert not (got["template"].parent / "union-t1.union.yaml").exists()
    res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
    assert "[E202]" in res.output
    shutil.rmtree(got["template"].parent)


def test_a_view_edited_after_signing_is_refused(salem):
    got = salem.mail("union", "edited")
    text = got["view"].read_text()
    assert 'scenario: "salem-church"' in text
    got["view"].write_text(text.replace('scenario: "salem-church"', 'scenario: "salem-church2"'))
    res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
    assert "[E201]" in res.output and "changed after signing" in res.output
    shutil.rmtree(got["template"].parent)


def test_a_view_of_another_game_is_refused(salem, tmp_path):
    """The umpire's genuine view of another game (the player never joined it) cannot vouch for this
    one: its game is unknown to the player's record, and a file of this game is not of that game."""
    other = Table(tmp_path / "other", "salem-church", "salem-church", label="other")
    text = side_view.build(other.eng(), "confederate", load_private_key(other.key("umpire")))
    got = salem.mail("union", "othergame")
    got["view"].write_text(text)
    res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
    assert "[E206]" in res.output and "no key of yours joined" in res.output
    shutil.rmtree(got["template"].parent)


def test_an_older_view_presented_as_current_is_refused(salem, tmp_path):
    """A genuine view of an earlier head (the setup's, kept from an older mail) against a file
    written at the newer head: refused, not checked against a stale position."""
    from hxref.crypto.signing import embed_signature, split_signed_text

    got = salem.mail("union", "older")
    text = got["view"].read_text()
    body, _ = split_signed_text(text)
    eng = salem.eng()
    older = eng.gf.log[len(eng.gf.log) - 3]
    body = re.sub(r"^head: .*$", f"head: \"{older['hash']}@{older['seq']}\"", body, flags=re.M)
    got["view"].write_text(embed_signature(body, load_private_key(salem.key("umpire")).sign(
        body.encode(), side_view.NAMESPACE)))
    res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
    assert "[E310]" in res.output and "older than" in res.output
    shutil.rmtree(got["template"].parent)


def test_the_other_sides_view_is_refused(salem):
    """The confederate's view (a genuine one, signed by the umpire) cannot check a union file."""
    got = salem.mail("union", "otherside")
    text = side_view.build(salem.eng(), "confederate", load_private_key(salem.key("umpire")))
    got["view"].write_text(text)
    res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
    assert "[E206]" in res.output or "[E302]" in res.output
    shutil.rmtree(got["template"].parent)


def test_a_template_join_with_a_forged_first_event_is_refused(tmp_path):
    """The join template's `created` must hash to the identity it names, and name the joiner's key."""
    t = Table(tmp_path / "g", "salem-church", "salem-church", join=False)
    other = Table(tmp_path / "h", "salem-church", "salem-church", label="h", join=False)
    eng = t.eng()
    (name, text), = mail_outbox.umpired_templates(eng, "union")
    data = yamlio.fast_load(text)
    assert isinstance(data["created"], list)
    forged = text.replace(data["created"][0], mail_outbox.pack_created(other.eng())[0])
    path = tmp_path / "forged-join.yaml"
    path.write_text(forged)
    res = t.run("union", "join", "--template", path, "--key", t.key("union"), "--dir", tmp_path, code=2)
    assert "[E112]" in res.output or "[E300]" in res.output


# --- secrecy: nothing of the other side's in a view or a refusal --------------------------------

def _unpacked(text: str) -> str:
    fields, blob, _, _ = side_view._parse(text, "v")
    return json.dumps(side_view._unpack(blob, "v"))


def test_salem_view_and_refusals_carry_nothing_of_the_other_sides_secrets(salem):
    eng = salem.eng()
    got = salem.mail("union", "secrets")
    secrets = {s for s in eng.system.secrets(eng.state, "confederate") if len(s) > 3}
    assert secrets, "the confederate has secrets from the union in this position (line of sight)"
    seen = _unpacked(got["view"].read_text()) + got["template"].read_text()
    assert not [s for s in secrets if s in seen]
    # orders into the hex where the confederate's unseen Wilcox/M stands: the home check cannot know
    # of him, and what it says names nothing of his
    bad = yamlio.fast_load(got["template"].read_text())["choice"]
    for mv in bad.get("moves") or []:
        mv["path"] = ["0609"]
    res = salem.run("union", "answer", "--template", got["template"], "--key", salem.key("union"),
                    "--choice", json.dumps(bad), code=None)
    assert not [s for s in secrets if s in res.output and s not in json.dumps(bad)], res.output
    shutil.rmtree(got["template"].parent)


def test_heartland_view_carries_nothing_of_the_other_sides_secrets_and_stays_small(tmp_path):
    t = Table(tmp_path / "h", "heartland", "heartland-demo")
    eng = t.eng()
    for side in SIDES:
        other = next(s for s in SIDES if s != side)
        text = side_view.build(eng, side, load_private_key(t.key("umpire")))
        assert len(text.encode()) < 8000, len(text.encode())
        secrets = {s for s in eng.system.secrets(eng.state, other) if len(s) > 2}
        assert secrets
        seen = _unpacked(text)
        assert not [s for s in secrets if s in seen], side


# --- what the mail names ------------------------------------------------------------------------

def test_an_umpired_players_mail_names_only_commands_he_can_run(salem):
    from hxref.report.owed import owed_lines

    eng = salem.eng()
    lines = "\n".join(owed_lines(eng, "union", None))
    assert "hxref answer --template union-t1.union-template.yaml --key KEY" in lines
    assert f"{eng.gf.path.name}" not in lines and "hxref answer t" not in lines
    assert "hxref answer --template" in "\n".join(owed_lines(eng, "union", None))
    assert "--template" not in "\n".join(owed_lines(eng, "confederate", None))
    assert eng.gf.path.name in "\n".join(owed_lines(eng, "umpire", None))


def test_the_salem_template_lists_the_enemy_in_sight_from_the_sides_view_only(salem):
    """Like Heartland's "Enemy stacks you see": each enemy unit the side's view holds, by hex; none
    that it does not hold (Wilcox/M, placed out of the union's sight at the setup)."""
    eng = salem.eng()
    got = salem.mail("union", "insight")
    text = got["template"].read_text()
    assert "# Enemy units in sight: hex: units" in text
    view = eng.system.view(eng.state, "union", eng.mode)
    seen = {u["name"] for u in view["units"].values() if u["side"] == "confederate" and u.get("hex")}
    unseen = {u["name"] for u in eng.state["units"].values() if u["side"] == "confederate"} - seen
    assert "Wilcox/M" in unseen
    assert all(name in text for name in seen) and not [n for n in unseen if n in text]
    shutil.rmtree(got["template"].parent)


def test_heartland_commit_from_the_templates_words_is_accepted(tmp_path):
    """The sealed bid: the commit template's own command, run as written, checks the bid against
    the view, and the umpire accepts the commitment and later the reveal."""
    t = Table(tmp_path / "h", "heartland", "heartland-demo")
    for side in SIDES:
        got = t.mail(side, "bid")
        assert got["template"].name == f"{side}-t1.bid-template.txt" and got["view"].exists()
        out = t.run(side, *_literal(got["template"], t.key(side)))
        assert "checked against" in out.output
        t.submit(got["template"].parent / f"{side}-t1.bid-commit.yaml")
    for side in SIDES:
        t.submit(t.root / side / "bid" / f"{side}-t1.bid-reveal.yaml")
    assert "t1.bid" in t.eng().ready()[0].id


def test_the_umpired_mail_says_the_one_command_that_works_and_carries_the_view(salem):
    """The whole mail to the union player, as `hxref outbox --key` writes it: his map, his template
    and his signed view attached, and the template's own command with its file name, nothing he
    cannot run.  The map attached is his side's, not the enemy's nor the umpire's."""
    import email
    from email import policy

    (salem.game.parent / f"{salem.game.stem}.addresses.yaml").write_text(
        "union: alice@example.org\nconfederate: bob@example.org\nfrom: ref@example.org\n")
    out = salem.root / "umpire" / "outbox-view"
    salem.run("umpire", "outbox", salem.game, "--key", salem.key("umpire"), "--out", out)
    (path,) = out.glob("*-union.eml")
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    names = [p.get_filename() for p in msg.iter_attachments()]
    assert names == ["union-t1-map.svg", "union-t1.union-template.yaml", "union-t1.union-view.yaml"]
    view = next(p for p in msg.iter_attachments() if p.get_filename() == "union-t1.union-view.yaml")
    with pytest.MonkeyPatch.context() as mp:          # read as the union player reads it at home
        mp.setenv("HXREF_HOME", str(salem.root / "union" / "home"))
        assert side_view.read("union-t1.union-view.yaml", view.get_content()).side == "union"
    svg = next(p for p in msg.iter_attachments() if p.get_filename() == "union-t1-map.svg").get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    maps = {who: side_svg(salem.eng(), who) for who in ("union", "confederate", "umpire")}
    assert svg == maps["union"] and svg not in (maps["confederate"], maps["umpire"])
    plain = msg.get_body(("plain",)).get_content()
    assert "    hxref answer --template union-t1.union-template.yaml --key YOUR_KEY" in plain
    assert "    hxref orders union-t1.union-view.yaml --key YOUR_KEY" in plain      # or on the map, in a page
    assert "sign, send" not in plain and "hxref sign" not in plain
    assert not re.search(rf"hxref \w+ {re.escape(salem.game.name)}", plain), plain
    res = salem.run("umpire", "outbox", salem.game, "--key", salem.key("union"), "--out", out, code=2)
    assert "[E202]" in res.output                   # only the umpire's key signs the views


def test_the_encrypted_umpired_mail_names_the_command_on_the_opened_files(salem):
    import email
    from email import policy

    (salem.game.parent / f"{salem.game.stem}.addresses.yaml").write_text(
        "union: alice@example.org\nconfederate: bob@example.org\nfrom: ref@example.org\n")
    out = salem.root / "umpire" / "outbox-sealed"
    salem.run("umpire", "outbox", salem.game, "--key", salem.key("umpire"), "--out", out, "--encrypt")
    (path,) = out.glob("*-union.eml")
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    assert {p.get_filename() for p in msg.iter_attachments()} >= {"union-t1.union-template.yaml.age",
                                                                 "union-t1.union-view.yaml.age"}
    plain = msg.get_body(("plain",)).get_content()
    assert "    hxref answer --template union-t1.union-template.yaml --key YOUR_KEY" in plain
    assert "    hxref orders union-t1.union-view.yaml --key YOUR_KEY" in plain      # or on the map, in a page
    assert "against the view" in plain


@pytest.mark.parametrize("system,scenario", [("heartland", "heartland-demo"), ("salem-church", "salem-church"),
                                             ("kgp", "cg-ii"), ("acw-minis", "mercers-mill")])
def test_every_answer_the_umpire_accepted_passes_the_home_check_on_the_sides_view(tmp_path, system, scenario):
    """Each system's `check` runs on a side's view (the allow-list) as on the state: replaying a
    shipped demo, every answer and reveal the game accepted passes the same check run on its
    side's view at that moment (the home check), so no honest file is refused at home."""
    from hxref.referee import audit
    from hxref.referee import orders
    from hxref.gamefile.game import GameFile

    CliRunner().invoke(main, ["demo", "--system", system, "--scenario", scenario, "--keep", str(tmp_path / "d"),
                              "--format", "text"], env={"HXREF_HOME": str(tmp_path / "home")})
    gf = GameFile.load(tmp_path / "d" / "game.yaml")
    replay = audit._fresh(gf)
    checked = 0
    for ev in gf.log:
        if ev["kind"] not in audit.INPUT_KINDS:
            continue
        order = None
        if ev["kind"] == "submission":
            order = orders.parse(ev["data"]["file"], f"event {ev['seq']}", fast=True)
            if order.kind in ("answer", "reveal") and order.side in replay.sides():
                dec = replay.decision(order.decision)
                view = replay.system.view(replay.state, order.side, replay.mode)
                assert replay.system.check(view, dec, order.side, order.data["choice"]) == [], (dec.id, order.side)
                checked += 1
            if "sig" in ev["data"]:
                order.armored = ev["data"]["sig"]
        replay._apply(ev["kind"], ev["by"], ev["data"], order)
    assert checked > 10


def test_a_damaged_or_crafted_view_is_one_clear_refusal(salem):
    """Garbage, a packed bomb, or a view whose data is not a view: E1xx/E2xx naming the file, never
    a traceback; a view whose line ends a mail client turned into CRLF still verifies."""
    import base64
    import zlib

    from hxref.crypto.signing import embed_signature, split_signed_text

    got = salem.mail("union", "damaged")
    good = got["view"].read_text()
    got["view"].write_bytes(good.replace("\n", "\r\n").encode())
    res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
    assert "not signed yet" in res.output, res.output      # the view verified; the template is unsigned
    body, _ = split_signed_text(good)
    umpire = load_private_key(salem.key("umpire"))
    bomb = base64.b64encode(zlib.compress(b"{" + b" " * (64 << 20), 9)).decode()
    crafted = {"bomb": bomb, "notaview": base64.b64encode(zlib.compress(b"[1, 2]")).decode()}
    for name, blob in crafted.items():
        data = "".join(f"  {blob[i:i + 70]}\n" for i in range(0, len(blob), 70))
        text = body.split("data: |\n")[0] + "data: |\n" + data
        got["view"].write_text(embed_signature(text, umpire.sign(text.encode(), side_view.NAMESPACE)))
        res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
        assert "[E112]" in res.output and "Traceback" not in res.output, (name, res.output)
    for junk in ("", "hello\n", "data: |\n  !!!\n# -----BEGIN SSH SIGNATURE-----\n# x\n# -----END SSH SIGNATURE-----\n"):
        got["view"].write_text(junk)
        res = salem.run("union", "check", got["template"], "--view", got["view"], code=2)
        assert res.output.startswith("hxref: error: ") and "Traceback" not in res.output, res.output
    shutil.rmtree(got["template"].parent)


def test_check_with_the_game_file_alone_says_what_is_missing(salem):
    res = salem.run("umpire", "check", salem.game, code=2)
    assert "this is a game file: give the file to check too" in res.output and "[E504]" in res.output
    res = salem.run("umpire", "check", "a", "b", "c", code=2)
    assert "[E504]" in res.output
