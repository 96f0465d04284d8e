"""What a player reads in a turn's mail (``hxref outbox``), on the shipped Heartland and Salem
Church demos played to an early and a late point: his move first, with one deadline and his
command, then his map, the details and a footer with the hashes; one report (his own); a text
part within 78 columns and an HTML part without <style> or inline <svg>; text and HTML together
under 60 KB and the whole mail, map included, under 250 KB, at every point; the map a PNG inline
(a picture of the same mail) and an SVG attached.  Two mails at a point where a combat happened
are golden files (tests/golden/mail-*.txt, rewritten with HXREF_REGEN_GOLDEN=1)."""
from __future__ import annotations

import os
import re
import shutil
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main
from tests.mail import register
from tests.mail.demo_point import play_until

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NOW = "2026-12-01T12:00:00Z"
BOOK = ("union: alice@example.org\nconfederate: bob@example.org\numpire: referee@example.org\n"
        "tz: {union: America/New_York, confederate: Europe/Berlin}\n")
#: (system, resolutions played): an early point, a point just after a combat, and a late one
POINTS = [("heartland", 5), ("heartland", 15), ("salem-church", 8), ("salem-church", 26)]


@pytest.fixture(autouse=True)
def _mail_commands(monkeypatch):
    register(monkeypatch)


class Points:
    """The demos played to each point of :data:`POINTS` and the outbox run there: each point played
    on its first request, so that a test waits only for the points it reads."""

    def __init__(self, factory):
        self.factory = factory
        self.played: dict[tuple[str, int], tuple[dict, Path]] = {}

    def __getitem__(self, point: tuple[str, int]) -> tuple[dict, Path]:
        """{audience: message} of the outbox at ``point``, and the game file."""
        if point not in self.played:
            system, n = point
            with pytest.MonkeyPatch.context() as mp:
                register(mp)
                game = play_until(system, self.factory.mktemp(f"{system}-{n}"), n)
                game.with_name("game.addresses.yaml").write_text(BOOK)
                res = CliRunner(env={"HXREF_NOW": NOW}).invoke(
                    main, ["outbox", str(game), "--out", str(game.parent / "ob")], catch_exceptions=False)
            assert res.exit_code == 0, res.output
            msgs = [BytesParser(policy=policy.default).parsebytes(p.read_bytes())
                    for p in sorted((game.parent / "ob").glob("*.eml"))]
            self.played[point] = {m["X-Hxref-Audience"]: m for m in msgs}, game
        return self.played[point]

    def copy(self, point: tuple[str, int], dest: Path) -> Path:
        """A copy of the game at ``point`` (its folder without the outbox's mails) in ``dest``: its file."""
        game = self[point][1]
        shutil.copytree(game.parent, dest, ignore=shutil.ignore_patterns("ob"))
        return dest / game.name


@pytest.fixture(scope="module")
def points(tmp_path_factory) -> Points:
    return Points(tmp_path_factory)


def _parts(msg) -> tuple[str, str]:
    return msg.get_body(("plain",)).get_content(), msg.get_body(("html",)).get_content()


@pytest.mark.parametrize("point", POINTS, ids=[f"{s}-{n}" for s, n in POINTS])
def test_a_mail_is_small_narrow_and_in_the_players_order(points, point):
    for audience, msg in points[point][0].items():
        plain, html = _parts(msg)
        raw = msg.as_bytes()
        assert len(plain.encode()) + len(html.encode()) < 60_000, (point, audience)
        assert len(raw) < 250_000, (point, audience, len(raw))
        assert max(len(line) for line in plain.splitlines()) <= 78, (point, audience)
        assert not any(c in plain for c in "╔║╗╚╝"), "no box frames"
        assert "<style" not in html and "<svg" not in html
        # one report: the reader's own (his side's, or the umpire's), never the public one beside it
        whose = "umpire's report" if audience == "umpire" else f"{audience}'s report"
        assert whose in " ".join(plain.split("\n\n")[0].split()) and "public report" not in plain
        # his move (or whom the game waits for) first; the hashes and keys only in the footer
        second = plain.split("\n\n")[1]
        assert second.startswith(("Your move: ", "Waiting for ", "The game is over")), second
        foot = plain.index("To verify this report")
        head = msg["X-Hxref-Head"]
        assert plain.index(head) > foot and plain.index("identity") > foot and plain.index("SHA256:") > foot
        assert html.index(head) > html.index("To verify this report")
        assert head[:12] not in msg["Subject"]
        assert msg["Subject"].split(": ", 1)[1].startswith(("your move: ", "waiting for ", "game over"))


@pytest.mark.parametrize("point", POINTS, ids=[f"{s}-{n}" for s, n in POINTS])
def test_the_map_is_a_picture_of_the_mail_and_an_svg_attached(points, point):
    """The PNG inline and the SVG attached are the reader's own map of this turn, as
    :func:`hxref.report.turnmap.side_map` draws it from the game (the PNG cropped to the action)."""
    from hxref.referee.engine import Engine
    from hxref.report.mappng import png_size
    from hxref.report.turnmap import side_map

    mails, game = points[point]
    engine = Engine.load(game)
    for audience, msg in mails.items():
        plain, html = _parts(msg)
        related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
        png = next(p for p in related.iter_parts() if p.get_content_type() == "image/png")
        cid = png["Content-ID"].strip("<>")
        assert f'<img src="cid:{cid}"' in html
        data = png.get_payload(decode=True)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        svg = next(p for p in msg.iter_attachments() if p.get_content_type() == "image/svg+xml")
        assert svg.get_filename() == png.get_filename().replace(".png", ".svg")
        text = svg.get_payload(decode=True).decode()
        assert f"what {audience} sees" in text          # the reader's own map, not another's
        drawn = side_map(engine, audience)
        assert drawn is not None and _unlegended(text) == _unlegended(drawn.svg)    # that very map
        assert png_size(data) == png_size(drawn.png) and png_size(data)[0] <= 1100
        assert f"Your map is attached: {svg.get_filename()[:-4]}.png" in " ".join(plain.split())
        assert html.index("cid:") < html.index("Details</h2>")


def _unlegended(svg: str) -> str:
    """An SVG map without its legend (whose colour swatch for a hexside type differs between a map
    drawn in the outbox and one drawn afterwards in the same process: left to the map's owner)."""
    return re.sub(r'<g id="legend".*?</g>', "", svg, flags=re.S)


def _golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("HXREF_REGEN_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), f"{name} differs (HXREF_REGEN_GOLDEN=1 rewrites it)"


@pytest.mark.parametrize("point, audience", [(("heartland", 5), "union"), (("salem-church", 8), "confederate")],
                         ids=["heartland-union", "salem-church-confederate"])
def test_golden_text_mails_at_78_columns(points, point, audience):
    """A player's text mail just after a combat, word for word."""
    msg = points[point][0][audience]
    plain, _ = _parts(msg)
    assert re.search(r"attack|assault|combat", plain, re.I)
    _golden(f"mail-{point[0]}-{audience}.txt", f"Subject: {msg['Subject']}\n\n{plain}")


def test_a_side_s_mail_map_shows_no_enemy_unit_out_of_its_sight(points):
    """The attacker reads his own mail's map (the SVG attached; the PNG is drawn from it) hoping to
    spot the enemy units his fog hides; the map is drawn from his own view, never from the full
    state: every confederate unit it names is one the union's report lists in sight, while the
    umpire's map of the same moment names confederate units out of the union's sight.  (The umpire
    sends the mails and gets no copy of his own, so his map is drawn from the game file.)"""
    from hxref.referee.engine import Engine
    from hxref.report.turnmap import side_map

    def confederates(svg: str) -> set[str]:
        return set(re.findall(r"<title>([^<(]+?)\*? \(confederate,", svg))

    def mailed(msg) -> str:
        return next(p for p in msg.iter_attachments() if p.get_content_type() == "image/svg+xml").get_payload(
            decode=True).decode()

    hidden_somewhere = False
    for point in (("salem-church", 8), ("salem-church", 26)):
        mails, game = points[point]
        plain, _ = _parts(mails["union"])
        umpire_map = side_map(Engine.load(game), "umpire")
        assert umpire_map is not None and umpire_map.name.startswith("umpire-")
        sight = plain.split("Confederate units in sight")[1].split("\n\n")[0] if "units in sight" in plain else ""
        in_sight = {n for n in confederates(umpire_map.svg) if n in sight}
        assert confederates(mailed(mails["union"])) <= in_sight, point
        hidden_somewhere |= bool(confederates(umpire_map.svg) - in_sight)
    assert hidden_somewhere, "the umpire's map names confederate units the union does not see"


def test_an_encrypted_mail_carries_no_map_in_clear(points, tmp_path):
    """With --encrypt, an eavesdropper on the mail sees no map of the side (no PNG, no SVG in
    clear): the side's map goes only as an .age attachment to its key."""
    game = points.copy(("salem-church", 8), tmp_path / "g")
    with pytest.MonkeyPatch.context() as mp:
        register(mp)
        res = CliRunner(env={"HXREF_NOW": NOW}).invoke(main, ["outbox", str(game), "--encrypt", "--out",
                                                              str(tmp_path / "ob")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    for p in (tmp_path / "ob").glob("*.eml"):
        msg = BytesParser(policy=policy.default).parsebytes(p.read_bytes())
        types = [part.get_content_type() for part in msg.walk()]
        assert "image/png" not in types and "image/svg+xml" not in types
        names = [part.get_filename() for part in msg.iter_attachments()]
        assert any(n.endswith("-map.svg.age") for n in names), names
