"""An umpired game by e-mail, end to end: the umpire holds the only game file; each player has only
his key, his Maildir and his own folder.

The post office is :mod:`tests.mail.test_travel`'s (aiosmtpd on 127.0.0.1, one Maildir per
recipient).  Each round the umpire runs ``hxref inbox --maildir`` (the players' files),
``hxref resolve --key umpire`` and ``hxref outbox --smtp ... --encrypt``: each side's own report,
and the template of each file it owes (the envelope: identity, head, signed time; the index of
its dice link), go as ``.age`` attachments encrypted to the side's key, nothing of them in clear;
the public report stays in the body.  Each player decrypts them (``hxref decrypt``, or the age
tool when installed), checks that his report shows nothing of the other side's secrets (its WEP,
rule 3.71), writes his files from the template (``hxref join/answer/commit --template``; a
reveal he kept since his commitment, when the mail asks for it) and mails them to the umpire as
attachments, as any mail client would.  At the end the umpire mails the game file
(``--attach-game``, allowed once an umpired game is over) and each player audits it as his side
from the head of his last report.

The players' choices are the shipped (umpired) demo's, as in test_travel: the choice of the shipped
file of the same decision and side; when the rules refuse it (the dice differ), the entries they
name are dropped, then the decision's example answer, the template's skeleton, an empty one.  The
dice make the position, so a choice follows the position the template gives: a force the rules say
stands in enemy ZOC (8.42: it must leave or check to attack) checks to attack an enemy stack its
side's template names next to it.  The players cannot check a choice without the game, so the test
asks the umpire's copy (an oracle of the test, standing for a player who reads his report and the
rules).

The game is one test in :data:`PARTS` parts, each a few rounds (:data:`UNTIL`), so that no test
runs long: each part carries on the game where the one before it stopped (:func:`tests.played.chained`,
in the test run's shared folder), the umpire and the players in the same folders, with the same
homes and Maildirs and what they kept; the last part plays the rounds left and the end.  The mails'
map pictures are drawn once each (:func:`tests.mail.pictures_drawn_once`).
"""
from __future__ import annotations

import copy
import json
import mailbox
import os
import pickle
import re
import shutil
import smtplib
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.referee import orders
from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError

from tests.played import chained

from . import pictures_drawn_once
from .test_travel import NOW, make_key, parse, post_office, shipped_choices

SIDES = ("union", "confederate")
ADDRESS = {"union": "alice@example.org", "confederate": "bob@example.org", "umpire": "referee@example.org"}


def _run(runner: CliRunner, home: Path, args, code: int | None = 0, who: str = ""):
    env = {"HXREF_NOW": NOW, "HXREF_HOME": str(home)}
    res = runner.invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    if code is not None:
        assert res.exit_code == code, f"{who}: hxref {' '.join(map(str, args))} -> {res.exit_code}\n{res.output}"
    return res


@dataclass
class Umpire:
    folder: Path
    post: object
    runner: CliRunner = field(default_factory=CliRunner)

    def __post_init__(self):
        self.folder.mkdir(parents=True)
        self.key = make_key(self.folder / "umpire", "umpire")
        self.maildir = self.post.maildir("referee")
        self.game = self.folder / "g.yaml"
        (self.folder / "g.addresses.yaml").write_text(
            f"union: {ADDRESS['union']}\nconfederate: {ADDRESS['confederate']}\nfrom: {ADDRESS['umpire']}\n")

    def hxref(self, *args, code: int | None = 0):
        return _run(self.runner, self.folder / "home", args, code, "umpire")

    def eng(self) -> Engine:
        """The umpire's game as his machine reads it: the file it last wrote is vouched for by its own
        record (``HXREF_HOME``), not proved again by a replay."""
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("HXREF_HOME", str(self.folder / "home"))
            return Engine.load(self.game)

    def outbox(self, *extra) -> list:
        before = len(self.post.sent)
        self.hxref("outbox", self.game, "--smtp", f"127.0.0.1:{self.post.port}", *extra)
        return self.post.sent[before:]

    def resolve_all(self) -> int:
        n = 0
        while True:
            eng = self.eng()
            ready = eng.ready()
            if eng.finished or not ready or [w for w in eng.missing_links(ready[0]) if w != "umpire"]:
                return n
            self.hxref("resolve", self.game, "--key", self.key)
            n += 1


@dataclass
class Player:
    side: str
    folder: Path
    post: object
    runner: CliRunner = field(default_factory=CliRunner)
    kept: dict = field(default_factory=dict)        # reveal file name -> path, kept since the commitment
    heads: list = field(default_factory=list)       # HEAD@SEQ of every mail read
    got: list = field(default_factory=list)         # (bytes, attachment names) of every mail read
    checked: int = 0                                # reports decrypted and checked

    def __post_init__(self):
        self.folder.mkdir(parents=True)
        self.key = make_key(self.folder / "key", f"{self.side}-player")
        self.maildir = self.post.maildir(ADDRESS[self.side].split("@")[0])
        self.other = next(s for s in SIDES if s != self.side)

    def hxref(self, *args, code: int | None = 0):
        return _run(self.runner, self.folder / "home", args, code, self.side)

    def decrypt(self, path: Path, tool: bool = True) -> str:
        out = path.with_suffix("")                  # NAME.txt.age -> NAME.txt
        if tool and shutil.which("age"):
            subprocess.run(["age", "-d", "-i", str(self.key), "-o", str(out), str(path)], check=True)
        else:
            self.hxref("decrypt", path, "--key", self.key, "-o", out)
        return out.read_text(encoding="utf-8")

    def read_mail(self, n: int) -> list[dict]:
        """Every new message: saved, its attachments kept in mail/N/, the encrypted ones decrypted."""
        box = mailbox.Maildir(str(self.maildir), factory=None, create=False)
        out = []
        for key in sorted(box.keys()):
            raw = box.get_bytes(key)
            box.discard(key)
            msg = parse(raw)
            where = self.folder / "mail" / f"{n}-{len(out)}"
            where.mkdir(parents=True)
            (where / "message.eml").write_bytes(raw)
            names, plain = [], msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
            for part in msg.iter_attachments():
                name = part.get_filename()
                (where / name).write_bytes(part.get_payload(decode=True))
                names.append(name)
            assert f"{self.side}-report.txt.age" in names, names
            mail = {"raw": raw, "plain": plain, "dir": where, "names": names,
                    "head": f"{msg['X-Hxref-Head']}@{msg['X-Hxref-Event']}"}
            mail["report"] = self.decrypt(where / f"{self.side}-report.txt.age")
            mail["templates"] = []
            for name in names:
                if name.endswith("-template.yaml.age") or name.endswith("-template.txt.age"):
                    self.decrypt(where / name, tool=False)
                    mail["templates"].append(where / name[:-4])
                elif name.endswith("-view.yaml.age"):       # beside the templates: the answers are checked on it
                    self.decrypt(where / name, tool=False)
                    mail["views"] = mail.get("views", 0) + 1
            self.heads.append(mail["head"])
            self.got.append((len(raw), names))
            out.append(mail)
        return out

    def send(self, files: list[Path]) -> int:
        """Mail ``files`` to the umpire as attachments (any mail client would do); the bytes sent."""
        m = EmailMessage()
        m["From"], m["To"] = ADDRESS[self.side], ADDRESS["umpire"]
        m["Subject"] = f"{self.side}: {', '.join(p.name for p in files)}"
        m.set_content("My files are attached.\n")
        for p in files:
            m.add_attachment(p.read_bytes(), maintype="application", subtype="yaml", filename=p.name)
        with smtplib.SMTP("127.0.0.1", self.post.port) as s:
            s.send_message(m)
        return len(m.as_bytes())


def _problem(eng: Engine, dec, side: str, choice: dict) -> str | None:
    """Why the rules refuse ``choice`` now (the umpire's copy, the test's oracle), or None."""
    probe = orders.Order(source="--choice", text="", body="", armored=None, data={"choice": choice})
    try:
        orders.check_choice(probe, dec)
        orders.raise_problems(probe, eng.system.check(eng.state, dec, side, choice))
    except HxrefError as exc:
        return exc.render()
    return None


# "duvall is in enemy ZOC at 1614: it must leave ... (give `path` or `attack`) ... [rule 8.42]"
MUST_LEAVE_OR_ATTACK = re.compile(r"([\w@]+) is in enemy ZOC at (\w+): it must leave at the start of its move or "
                                  r"make an attack check")


def next_to_enemy(template: str) -> dict[str, list[str]]:
    """The side's forces -> the enemy stacks its orders template (its own view, 3.71) names next to
    each ("next to enemy stacks in 1514, 1515: attack one (8.41) or move away"), read from the
    comment block "Your forces" .. "Enemy stacks you see" however the lines were wrapped."""
    block = template.split("# Your forces", 1)[-1].split("# Enemy stacks you see", 1)[0]
    out: dict[str, list[str]] = {}
    force = None
    for line in block.splitlines()[1:]:
        m = re.match(r"#   ([\w@]+): ", line)             # a force's line; its notes are indented more
        if m:
            force, out[m[1]] = m[1], []
        elif force is not None:
            out[force].append(line.lstrip("#").strip())
    found = {}
    for force, lines in out.items():
        m = re.search(r"next to enemy stacks in ([^:]+):", " ".join(lines))
        if m:
            found[force] = [h.strip() for h in m[1].split(",") if h.strip()]
    return found


def attack_checks(eng: Engine, side: str, choice: dict, why: str, template: str) -> dict | None:
    """``choice`` with every force the refusal names as standing in enemy ZOC (8.42: it must leave at
    the start of its move or check to attack) ordered to check against an enemy stack next to it
    (8.41), the rest of its orders kept; None when the refusal names none or no stack is found.

    The stack is one the side's template names next to the force; a stack it does not see (a
    hidden one, 8.62a) is asked of the umpire's copy, the test's oracle, as the refusals are."""
    from hxref.systems.heartland.attack import enemy_zoc

    held = MUST_LEAVE_OR_ATTACK.findall(why)
    if not held or not isinstance(choice.get("moves"), list):
        return None
    seen = next_to_enemy(template)
    out = copy.deepcopy(choice)
    for force, here in held:
        targets = seen.get(force) or sorted(enemy_zoc(eng.state, eng.system.charts.map(eng.state["map"]), side).get(here, ()))
        if not targets:
            return None
        mv = next((m for m in out["moves"] if isinstance(m, dict) and m.get("force") == force), None)
        if mv is None:
            out["moves"].append(mv := {"force": force, "path": []})
        mv["attack"] = targets[0]
    return out


def pick(eng: Engine, dec, side: str, shipped: dict | None, skeleton: dict, fallbacks: list,
         template: str = "", compelled: list | None = None) -> dict:
    """The first of the shipped choice, the example, the template's skeleton and an empty answer
    that the rules accept in the position the game is in (the dice made it): the entries of the
    shipped choice the rules name are dropped, and a force held in enemy ZOC checks to attack
    (:func:`attack_checks`, recorded in ``compelled``)."""
    empty = {k: ([] if isinstance(v, list) else v) for k, v in dec.example.items()}
    tries = ([("shipped", shipped)] if shipped is not None else []) + [
        ("example", dec.example), ("template skeleton", skeleton), ("empty example", empty)]
    why = None
    for what, choice in tries:
        choice = copy.deepcopy(choice)
        attacks: list = []
        for _ in range(30):
            why = _problem(eng, dec, side, choice)
            if why is None:
                if what != "shipped":
                    fallbacks.append((dec.id, side, what))
                if compelled is not None:
                    compelled += attacks
                return choice
            repaired = attack_checks(eng, side, choice, why, template)
            if repaired is not None:
                attacks += [(dec.id, side, what, f) for f, _ in MUST_LEAVE_OR_ATTACK.findall(why)]
                choice = repaired
                continue
            m = re.search(r"\(at choice\.(\w+)\[(\d+)\]", why)
            if what != "shipped" or not m or not isinstance(choice.get(m[1]), list) or int(m[2]) >= len(choice[m[1]]):
                break
            del choice[m[1]][int(m[2])]
    raise AssertionError(f"no answer accepted for {dec.id} ({side}): {why}")


def sides_rows(report: str) -> dict[str, list[str]]:
    """Each side's row of the report's "Sides" table (maximum, levels left, WEP, leaders)."""
    return {s: line.split() for s in SIDES for line in report.splitlines()
            if re.match(rf"^{s}\s+\d+\s+\d+\s+", line)}


#: the game is played in parts, each a test (:func:`tests.played.chained`): part k up to round
#: ``UNTIL[k]``, and the last part the rounds left, the game file mailed at the end and the players'
#: audits of it (the game ends after about 25 rounds, each about half a second on a quiet machine)
UNTIL = (5, 10, 15, 20)
PARTS = len(UNTIL) + 1


@dataclass
class Match:
    """An umpired game by mail between two of its rounds: the umpire and the players (their
    folders hold their keys, homes and mail), what was mailed and what was chosen so far."""

    ump: Umpire
    players: dict[str, Player]
    fallbacks: list = field(default_factory=list)
    compelled: list = field(default_factory=list)   # (decision, side, answer, force): attack checks 8.42 compelled
    log: list = field(default_factory=list)         # every mail: round, who, to whom, bytes, what it carried
    rounds: list = field(default_factory=list)      # the seconds of every round
    checked_home: int = 0                          # answers checked at home against the umpire-signed view
    n: int = 0                                     # the rounds played
    over: bool = False                             # the game is over (the last round played)
    seconds: float = 0.0                           # the parts' time so far
    events: int = 0                                # the game's events, once it is over and audited

    def post(self, post) -> None:
        """Every participant mails through ``post`` (this part's post office)."""
        for who in (self.ump, *self.players.values()):
            who.post = post

    def save(self, path: Path) -> None:
        post = self.ump.post
        self.post(None)
        path.write_bytes(pickle.dumps(self))
        self.post(post)

    def umpire_mails(self, n: int, *extra) -> None:
        for frm, rcpts, raw in self.ump.outbox("--encrypt", "--key", self.ump.key, *extra):
            msg = parse(raw)
            aud = msg["X-Hxref-Audience"]
            self.log.append({"round": n, "from": "umpire", "to": aud, "bytes": len(raw),
                             "files": [p.get_filename() for p in msg.iter_attachments()]})
            plain = msg.get_body(("plain",)).get_content()
            html = msg.get_body(("html",)).get_content()
            # in clear, the public report and what the recipient owes; his own report only encrypted
            assert " ".join(plain.replace("\r", "").split("\n\n")[0].split()).endswith(" -- public report") and f"{aud}'s report" not in plain
            assert f"{aud}'s report" not in html
            for part in msg.iter_attachments():         # nothing of the side's own in clear
                name = part.get_filename()
                assert name.endswith(".age") or name == "g.yaml", name
                if name.endswith(".age"):
                    assert part.get_payload(decode=True).startswith(b"-----BEGIN AGE ENCRYPTED FILE-----")


def begin(world: Path, post) -> Match:
    """The umpire makes the game and joins it, and mails its first reports (round 0)."""
    ump = Umpire(world / "umpire", post)
    players = {s: Player(s, world / s, post) for s in SIDES}
    for s, p in players.items():                                   # exchanged beforehand
        shutil.copy(p.key.with_suffix(".pub"), ump.folder / f"{s}.pub")
    ump.hxref("new", ump.game, "--system", "heartland", "--scenario", "heartland-demo", "--mode", "umpired",
              "--game-id", "umpired-mail", "--side", f"union={ump.folder}/union.pub",
              "--side", f"confederate={ump.folder}/confederate.pub", "--umpire", f"{ump.key}.pub")
    ump.hxref("join", ump.game, "--side", "umpire", "--key", ump.key)
    ump.hxref("submit", ump.game, ump.folder / "umpire-join.yaml")
    match = Match(ump, players)
    match.umpire_mails(0)
    return match


def play_rounds(match: Match, last: int | None) -> None:
    """Round after round up to round ``last`` (None: to the end of the game): each player reads his
    mail, checks his report, writes the files he owes and mails them; the umpire reads them, resolves
    what is ready and mails the reports."""
    ump, players, log = match.ump, match.players, match.log
    choices, _ = shipped_choices()
    while not match.over and (last is None or match.n < last):
        match.n += 1
        n = match.n
        start = time.time()
        eng = ump.eng()
        for side, p in players.items():
            sent: list[Path] = []
            for mail in p.read_mail(n):
                report = mail["report"]
                rows, wep = sides_rows(report), eng.state.get("wep")
                if wep and rows:                # the game has started (the joins are in)
                    p.checked += 1
                    # fog of war (3.71): his own WEP shows, the other side's is hidden -- and is not there
                    assert rows[side][3] == str(wep[side]), rows
                    assert rows[p.other][3:5] == ["hidden", "(3.71)"] and str(wep[p.other]) not in rows[p.other], rows
                    assert " ".join(report.split("\n\n")[0].split()).endswith(f" -- {side}'s report") and f"{p.other}'s report" not in report
                    public = sides_rows(mail["plain"])     # the body: the public report, both sides hidden
                    assert public[side][3:5] == public[p.other][3:5] == ["hidden", "(3.71)"], public
                    if p.checked == 1 and shutil.which("age"):      # both tools read the same file
                        assert p.decrypt(mail["dir"] / f"{side}-report.txt.age", tool=False) == report
                for tpath in mail["templates"]:
                    data = yamlio.fast_load(tpath.read_text())
                    dec = eng.decision(data["decision"])
                    assert data["identity"] == eng.identity and data["side"] == side
                    if data["kind"] == "join":
                        p.hxref("join", "--template", tpath, "--key", p.key, "--dir", p.folder)
                        sent.append(p.folder / f"{side}-join.yaml")
                        continue
                    choice = pick(eng, dec, side, choices.get((dec.id, side)), data.get("choice") or {},
                                  match.fallbacks, tpath.read_text(encoding="utf-8"), match.compelled)
                    if data["kind"] == "commit":
                        p.hxref("commit", "--template", tpath, "--key", p.key, "--choice", json.dumps(choice),
                                "--dir", p.folder)
                        sent.append(p.folder / f"{side}-{dec.id}-commit.yaml")
                        p.kept[f"{side}-{dec.id}-reveal.yaml"] = p.folder / f"{side}-{dec.id}-reveal.yaml"
                    else:       # checked at home against the side's view, then signed
                        res = p.hxref("answer", "--template", tpath, "--key", p.key, "--choice", json.dumps(choice),
                                      "--dir", p.folder)
                        assert "checked against" in res.output, res.output
                        match.checked_home += 1
                        sent.append(p.folder / f"{side}-{dec.id}.yaml")
                for name in re.findall(rf"^  {side} \(you\): its reveal: mail (\S+) \(kept", mail["plain"], re.M):
                    sent.append(p.kept.pop(name))
            if sent:
                size = p.send(sent)
                log.append({"round": n, "from": side, "to": "umpire", "bytes": size, "files": [f.name for f in sent]})
        if not any(m["from"] != "umpire" and m["round"] == n for m in log):
            match.over = True
            break                               # nobody had anything to send
        res = ump.hxref("inbox", ump.game, "--maildir", ump.maildir)
        assert " 0 rejected" in res.output, res.output
        ump.resolve_all()
        finished = ump.eng().finished
        if not finished:
            match.umpire_mails(n)
        match.rounds.append(time.time() - start)
        match.over = finished
        assert n < 200, "the game does not end"


def end(match: Match) -> Engine:
    """The game is over: the umpire mails the game file; each player audits it as his side."""
    ump, players, n = match.ump, match.players, match.n
    eng = ump.eng()
    assert eng.finished, eng.waiting_text()
    assert ump.hxref("audit", ump.game).output.startswith("audit OK")
    for p in players.values():
        p.read_mail(n)          # nothing left unread
    match.umpire_mails(n + 1, "--attach-game")
    for side, p in players.items():
        since = p.heads[-1]
        (mail,) = p.read_mail(n + 1)
        assert "g.yaml" in mail["names"]
        game = mail["dir"] / "g.yaml"
        res = p.hxref("audit", game, "--as", side, "--key", p.key, "--since", since)
        assert res.output.startswith("audit OK"), res.output
        assert not any(f.read_bytes().startswith(b"# hxref game file.") for f in p.folder.rglob("*.yaml")
                       if f != game), "a player held a game file before the end"
    assert not (ump.maildir.parent / "rejected").exists()
    assert all(not p.kept for p in players.values()), {s: list(p.kept) for s, p in players.items()}
    assert all(p.checked > n // 2 for p in players.values()), ({s: p.checked for s, p in players.items()}, n)
    return eng


def play_part(k: int, out: Path) -> None:
    """Part ``k`` of the game (:data:`PARTS`), played in the chain's one world folder (the umpire's and
    the players' folders keep their paths, which their homes' records name), its state left in ``out``."""
    t0 = time.time()
    world = out.parent / "world"
    with post_office(world) as post, pictures_drawn_once():
        if k == 0:
            match = begin(world, post)
        else:
            match = pickle.loads((out.parent / f"part-{k - 1}" / "match.pickle").read_bytes())
            match.post(post)
        last = k == PARTS - 1
        play_rounds(match, None if last else UNTIL[k])
        if last:
            match.events = len(end(match).gf.log)
        match.seconds += time.time() - t0
        match.save(out / "match.pickle")


@pytest.mark.parametrize("part", range(PARTS), ids=[f"{k + 1}of{PARTS}" for k in range(PARTS)])
def test_an_umpired_game_by_mail_with_encrypted_reports(part, capsys):
    """One game in :data:`PARTS` parts, one after the other (a part asked first plays those before
    it): part k plays the rounds up to round ``UNTIL[k]``, and the last the rounds left to the game's
    end, the game file mailed and audited; the parts together play the whole game once.  The last
    prints the whole game's figures."""
    from tests.conftest import PLAYED

    out = chained(Path(os.environ[PLAYED]) / "umpired-mail", part, play_part)
    match: Match = pickle.loads((out / "match.pickle").read_bytes())
    assert match.over or match.n == UNTIL[part], (match.n, match.over)
    assert all(m["round"] <= match.n + 1 for m in match.log)
    if part < PARTS - 1:
        return
    log, n, rounds = match.log, match.n, match.rounds
    assert match.over and match.events
    with capsys.disabled():
        print(f"\n== an umpired heartland-demo game by mail, {match.events} events, game over after "
              f"{n} rounds; {len(log)} mails; {len(match.fallbacks)} example answers instead of the shipped choice; "
              f"{len(match.compelled)} attack checks added for forces held in enemy ZOC (8.42); "
              f"{match.checked_home} answers checked at home against the side's signed view; reports decrypted with "
              f"{'age' if shutil.which('age') else 'hxref decrypt'}")
        for who in (*SIDES, "umpire"):
            sent = [m for m in log if m["from"] == who]
            got = [m for m in log if m["to"] == who]
            per_round = {}
            for m in sent:
                per_round[m["round"]] = per_round.get(m["round"], 0) + 1
            if who == "umpire":
                print(f"  umpire: {len(sent)} mails sent ({len(sent) / max(1, n):.1f} per round), "
                      f"{len(got)} received")
                continue
            to_me = [m for m in log if m["to"] == who]
            print(f"  {who}: sent {len(sent)} mails in {len(per_round)} of {n} rounds (at most "
                  f"{max(per_round.values(), default=0)} per round), median {statistics.median([m['bytes'] for m in sent]):,.0f} B, "
                  f"max {max(m['bytes'] for m in sent):,} B; got {len(to_me)} mails (one per round), "
                  f"median {statistics.median([m['bytes'] for m in to_me]):,.0f} B, "
                  f"max {max(m['bytes'] for m in to_me):,} B")
        print("  per round (union sent / confederate sent / umpire sent, bytes):")
        for r in range(0, n + 2):
            bits = []
            for who in (*SIDES, "umpire"):
                ms = [m for m in log if m["from"] == who and m["round"] == r]
                sizes = ", ".join(f"{m['bytes']:,}" for m in ms)
                bits.append(f"{who} {len(ms)}" + (f" ({sizes} B)" if ms else ""))
            files = [f for m in log if m["round"] == r and m["from"] != "umpire" for f in m["files"]]
            print(f"    round {r}: {'; '.join(bits)}" + (f"  [{', '.join(files)}]" if files else ""))
        last = log[-1]
        print(f"  the last mail (with the game file): {last['bytes']:,} B; one round at the end "
              f"{rounds[-1]:.2f} s, median {statistics.median(rounds):.2f} s; the {PARTS} parts {match.seconds:.1f} s")
