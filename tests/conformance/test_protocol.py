"""The conformance suite: what every registered game system must do, checked the same way for each.

Parametrised over :func:`hxref.kit.registry.names` (with Hex Duel, ``tests/conformance/duel/``,
registered by the conftest), for every system:

(a) it ships a demo (``info.demo``: ``info.orders_path()/<demo>/demo.yaml``), a case book
    (``games/<folder>/cases/*.yaml``) and a golden playthrough;
(b) random legal play in solo games of every scenario the system ships, through the engine's own
    API, for ``HXREF_CONFORMANCE_DECISIONS`` decisions (300): answers drawn from the system's
    random player (``tests/conformance/players.py``: moves along the map, attacks, detachments,
    shots, dice asked for twice), ``template``, the decision's example and random values of its
    schema, kept only when ``check`` accepts them; no order ``check`` accepts makes ``resolve``
    raise, nothing is raised but a refusal, and no die is rolled on a decision declared without dice;
    at every step, every awaited decision's stand-fast default passes its schema and ``check``;
(c) ``check``, ``view``, ``report``, ``template``, ``map_view``, ``result``, ``dashboard``,
    ``public`` and ``boxes`` leave the state as it was (canonical JSON), report, template and
    map_view the view, and ``merged`` the public part and boxes it is given;
(d) the replay of every log (``hxref audit``) gives the snapshot;
(e) loading a game file and saving it elsewhere gives the same bytes;
(f) in the umpired demo, no audience's report in any format (text, Markdown, HTML, JSON, the SVG
    map) shows another side's declared secrets (``SystemInfo.secret_kinds``, read by
    :meth:`GameSystem.secrets`) or the values of a commitment not yet revealed, at any step;
(g) every audience's text report at every step of the demo is the stored golden playthrough
    (``python tools/regen_playthroughs.py`` writes them again).
"""
from __future__ import annotations

import os
import re
from itertools import islice
from pathlib import Path

import pytest

from hxref.base import yamlio
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.kit import registry
from hxref.report import story
from hxref.kit.secret_kinds import values

from tests.conformance import harness, players
from tests.conformance.conftest import DEMO_PARTS, RANDOM_PARTS
from tests.played import yields

DECISIONS = int(os.environ.get("HXREF_CONFORMANCE_DECISIONS", "300"))


# --- shared runs, one per system and part ----------------------------------------------------------
@pytest.fixture(scope="module")
def random_games(system, random_part):
    """Part ``random_part`` of the system's random play (:func:`harness.random_part`): the parts
    (``RANDOM_PARTS``, tests/conformance/conftest.py) are the successive shares of one play of
    ``DECISIONS`` decisions, each played once for the run; a part's games are those it played on,
    as they were at its end."""
    from tests.conftest import PLAYED

    parts = RANDOM_PARTS
    stats, games = harness.random_part(system, random_part, parts, Path(os.environ[PLAYED]) / "conformance",
                                       DECISIONS)
    print(f"\n[conformance] {system}: random play part {random_part + 1}/{parts}: {stats.decisions} decisions, "
          f"{stats.answers} answers ({stats.refused} refused, {stats.played} written by the system's player), "
          f"{stats.rolls} dice rolled, {stats.games} games ({stats.finished} finished) in {stats.seconds:.1f}s")
    return stats, games


def _words(text: str, words) -> list[str]:
    # the plain `in` first: a word not in the text at all is most of them, and the search is slow
    return sorted({w for w in words if w in text and re.search(r"(?<![\w'-])" + re.escape(w) + r"(?![\w'-])", text)})


def _leaves(x) -> list[str]:
    if isinstance(x, dict):
        # `kind` names the sort of a sealed value (objective_hex): public, not the value
        return [v for key, k in x.items() if key != "kind" for v in _leaves(k)]
    if isinstance(x, list):
        return [v for k in x for v in _leaves(k)]
    return [x] if isinstance(x, str) else []


def _reveals(system: str) -> list[dict]:
    """Every shipped reveal file of the demo: its decision, side, salt, link and chosen text values
    (of 8 letters or more: shorter ones are words every report uses)."""
    out = []
    for f in sorted(harness.demo_folder(system).glob("*-reveal.yaml")):
        d = yamlio.to_plain(yamlio.load_data(f))
        texts = [w for w in _leaves(d.get("choice") or {}) if len(w) >= 8]
        out.append({"decision": d["decision"], "side": d["side"], "words": [d["salt"], d.get("link"), *texts]})
    return out


class DemoRun:
    def __init__(self, total: int = 0):
        self.steps: dict[int, tuple[str, dict[str, str]]] = {}    # this part's steps, by number (from 1)
        self.total = total                                      # every step of the demo
        self.leaks: list[tuple] = []
        self.moments = self.reports = self.searched = 0
        self.own_found: set[str] = set()
        self.kinds_found: dict[str, int] = {}
        self.mode = None
        self.whole = False                                      # this part replayed every step
        self.error: BaseException | None = None


def share(total: int, part: int) -> range:
    """The steps (numbered from 1) of part ``part`` of a demo of ``total`` steps: the ``part``-th of
    ``DEMO_PARTS`` runs of about as many steps each."""
    return range(total * part // DEMO_PARTS + 1, total * (part + 1) // DEMO_PARTS + 1)


@pytest.fixture(scope="module")
def demo_run(system, demo_part, tmp_path_factory) -> DemoRun:
    """The demo replayed as far as the end of part ``demo_part`` of its steps (:func:`share`, the
    demo cut into ``DEMO_PARTS`` runs, tests/conformance/conftest.py), with the golden texts and the
    secrets sweep (f) of that part's steps: the parts together render and search every step once,
    and replay half as many steps as six whole replays would.  The last part, which replays every
    step, counts the secret kinds found at every step."""
    info = registry.info(system)
    if not info.demo or not (harness.demo_folder(system) / "demo.yaml").is_file():
        run = DemoRun()
        run.error = AssertionError(f"{system} ships no demo")
        return run
    run = DemoRun(sum(yields(step) for step in harness.manifest(system)["steps"]))
    mine = share(run.total, demo_part)
    run.whole = whole = demo_part == DEMO_PARTS - 1
    work = tmp_path_factory.mktemp(f"demo-{system}")
    reveals = _reveals(system)
    kinds = info.secret_kinds
    package = type(registry.get(system)).__module__.rpartition(".")[0]     # where ".views:..." is read
    seen = 0
    try:
        for step, (what, names, eng) in enumerate(islice(harness.replay_demo(system, work), mine.stop - 1), 1):
            # the sweep reads each event when it is first told (a reader who reads every report),
            # against the secrets of that moment; a reader who skips reports is told the same
            # events later, as far as he may see them (tests/core/test_report_story.py)
            since, seen = seen, len(eng.gf.log)
            run.mode = eng.mode
            done = set(eng.h.get("resolved", []))
            texts = {}
            secret = {}
            for side in eng.sides():
                words = set(eng.system.secrets(eng.state, side)) if eng.mode == "umpired" and step in mine else set()
                for k in kinds if whole else ():
                    found = values(eng.state, side, (k,), package) if eng.mode == "umpired" else set()
                    run.kinds_found[k] = run.kinds_found.get(k, 0) + len(found)
                # a commitment not yet revealed: its salt, link and chosen values are the side's own
                words |= {w for r in reveals if r["side"] == side and r["decision"] not in done
                          for w in r["words"] if w}
                secret[side] = sorted(words)
            if step not in mine:
                continue
            run.moments += 1
            for audience in harness.audiences(eng):
                # the golden text is the report as `hxref report` tells it (since the reader last
                # read); the sweep searches every format of the report of the events since the last
                # step: one report when the two are the same, else the golden one as text alone
                swept = audience != "umpire"
                same = swept and story.default_since(eng, audience) == since
                formats = harness.moment_reports(eng, audience) if same else {}
                texts[harness._name(audience)] = harness.golden_text(
                    formats["text"] if same else harness.moment_text(eng, audience))
                if not swept:
                    continue
                if not same:
                    formats = harness.moment_reports(eng, audience, since)
                others = [w for s, ws in secret.items() if s != audience for w in ws]
                for fmt, text in formats.items():
                    found = _words(text, others)
                    if found:
                        run.leaks.append((f"{what} {' '.join(names)}", harness._name(audience), fmt, found[:5]))
                    run.reports += 1
                    run.searched += len(others)
                if audience is not None:
                    run.own_found |= set(_words(formats["text"], secret[audience]))
            run.steps[step] = (f"{what} {' '.join(names)}", texts)
    except Exception as exc:            # noqa: BLE001 - reported by the tests that need the demo
        run.error = exc
    print(f"\n[conformance] {system}: demo part {demo_part + 1}/{DEMO_PARTS}: {len(run.steps)} of {run.total} "
          f"steps, {run.reports} reports searched for {run.searched} secrets, {len(run.leaks)} leaks")
    return run


def _need(run: DemoRun) -> None:
    if run.error is not None:
        pytest.fail(f"the demo does not replay: {type(run.error).__name__}: {run.error}")


# --- (a) what every system ships -------------------------------------------------------------------
def test_a_ships_a_demo(system):
    info = registry.info(system)
    assert info.demo, f"{system}: SystemInfo.demo names no demo"
    man = harness.demo_folder(system) / "demo.yaml"
    assert man.is_file(), f"{system}: no {man}"
    data = harness.manifest(system)
    assert data["system"] == system and data["scenario"] in registry.get(system).scenarios()
    assert any("resolve" in s for s in data["steps"]), "the demo resolves nothing"


def test_a_ships_a_case_book(system):
    folder = registry.info(system).games_path() / "cases"
    if not folder.is_dir():
        pytest.skip(f"{system} has no case book folder {folder} yet (the case-book harness, tests/cases/, "
                    "is being built)")
    assert sorted(folder.glob("*.yaml")), f"{system}: {folder} holds no case file"


def test_a_ships_a_golden_playthrough(system):
    path = harness.playthrough_path(system)
    assert path.is_file(), f"{system}: no golden playthrough {path}; run python tools/regen_playthroughs.py"


# --- (b) random legal play -------------------------------------------------------------------------
# (b) to (e) run once for each part of the random play: together over every decision of it
def test_b_random_legal_play(system, random_part, random_games):
    stats, games = random_games
    assert not stats.stuck, f"{system}: random play found no legal answer: {stats.stuck}"
    share = -(-DECISIONS * (random_part + 1) // RANDOM_PARTS) - -(-DECISIONS * random_part // RANDOM_PARTS)
    assert stats.decisions >= share and stats.answers >= stats.decisions, vars(stats)
    assert games


def test_b_random_player_reaches_the_rules(system, random_games):
    """The system's random player writes orders the rules accept, often: without them random play
    only ever answers the template, and an order that crashes ``resolve`` goes unseen."""
    stats, _ = random_games
    if system not in players.PLAYERS:
        pytest.skip(f"{system} is played from its schema alone")
    assert stats.played >= stats.decisions // 10, vars(stats)


def test_b_stand_fast_default_is_legal_everywhere(system, random_games):
    """At every step of random play, every awaited decision's stand-fast default (what a signed
    claim gives a late side under ``--nmr stand-fast``) is an answer the rules accept: a claim never
    turns into a forfeit because the declared default is not legal."""
    stats, _ = random_games
    assert stats.defaults >= stats.decisions > 0, vars(stats)
    assert stats.bad_defaults == [], f"{system}: {len(stats.bad_defaults)} illegal defaults: {stats.bad_defaults[:5]}"


# --- (c) the read-only hooks change nothing --------------------------------------------------------
def test_c_read_only_hooks_change_nothing(system, random_games):
    stats, _ = random_games
    assert stats.decisions > 0
    assert stats.changed == [], stats.changed[:10]


# --- (d) replay equals snapshot --------------------------------------------------------------------
def _replays(path: Path) -> None:
    res = audit(path)
    assert res.ok, (path.name, res.problems)
    assert res.events == len(Engine.load(path).gf.log)


def _saves_the_same(path: Path, tmp_path: Path) -> None:
    eng = Engine.load(path)
    eng.gf.path = tmp_path / f"again-{path.name}"
    eng.gf.save()
    assert eng.gf.path.read_bytes() == path.read_bytes(), path.name


def test_d_replay_of_the_log_gives_the_snapshot(system, random_games):
    """Every game of the part, as it was at the part's end (a game played on by two parts is checked
    at the end of each)."""
    for path in random_games[1]:
        _replays(path)


def test_d_replay_of_the_demo_gives_the_snapshot(system, played):
    """The demo, as ``hxref demo`` plays it (tests/played.py, once for the run)."""
    _replays(played.folder(system) / "game.yaml")


# --- (e) save and load ------------------------------------------------------------------------------
def test_e_save_and_load_are_byte_identical(system, random_games, tmp_path):
    for path in random_games[1]:
        _saves_the_same(path, tmp_path)


def test_e_the_demo_saves_and_loads_byte_identical(system, played, tmp_path):
    _saves_the_same(played.folder(system) / "game.yaml", tmp_path)


def test_e_what_the_engine_tells_in_memory_is_what_a_copy_loaded_from_the_file_tells(system, tmp_path):
    """The demo replayed in one process, then its file loaded as another copy would: every event reads
    the same, to the order of its keys (a report lists what an event's mappings hold in their order),
    and so does every audience's report of the last step."""
    import json

    from hxref.report import turn

    *_, (_what, _names, eng) = harness.replay_demo(system, tmp_path)
    eng.gf.save()
    other = Engine.load(eng.gf.path)
    told, read = [json.dumps(ev["data"]) for ev in eng.gf.log], [json.dumps(ev["data"]) for ev in other.gf.log]
    assert len(told) == len(read)
    differ = [i + 1 for i, (a, b) in enumerate(zip(told, read)) if a != b]
    assert differ == [], f"events {differ[:10]} read otherwise from the file: {told[differ[0] - 1][:300]}"
    for audience in harness.audiences(eng):
        assert turn.render(turn.build(eng, audience), "text") == turn.render(turn.build(other, audience), "text")


# --- (f) no secret in another side's reports -------------------------------------------------------
# (f) and (g) run once for each part of the demo's steps: together over every step
def test_f_no_report_shows_another_sides_secret(system, demo_run):
    _need(demo_run)
    info = registry.info(system)
    if info.secret_kinds:
        assert demo_run.mode == "umpired", f"{system} declares secrets but its demo is a {demo_run.mode} game"
    if info.secret_kinds and demo_run.whole:        # the kinds are counted by the part that replays every step
        empty = [k for k, n in demo_run.kinds_found.items() if not n]
        assert not empty, f"{system}: these secret kinds find nothing at any step of the demo: {empty}"
        assert demo_run.own_found, f"{system}: no side's report shows its own secrets: the search is vacuous"
    assert demo_run.moments > 0 and demo_run.reports > 0
    assert demo_run.leaks == [], demo_run.leaks[:10]


# --- (g) golden playthroughs ------------------------------------------------------------------------
def test_g_golden_playthrough(system, demo_run):
    """The part's steps against their blocks of the stored playthrough (which says whether it holds
    every report in full: it does when the reports are the same, as they are small then)."""
    _need(demo_run)
    path = harness.playthrough_path(system)
    if not path.is_file():
        pytest.fail(f"no golden playthrough {path}; run python tools/regen_playthroughs.py --system {system}")
    text = path.read_text(encoding="utf-8")
    full, blocks, n = harness.playthrough_blocks(text)
    redo = f"if the change is meant, run python tools/regen_playthroughs.py --system {system}"
    head = "\n".join(harness.playthrough_header(system, full))
    assert text.startswith(head + "\n=== step 1/"), f"{system}: {path.name} does not begin as a playthrough; {redo}"
    assert n == demo_run.total, f"{system}: {path.name} holds {n} steps, the demo plays {demo_run.total}; {redo}"
    for i, (title, texts) in demo_run.steps.items():
        got = "\n".join(harness.playthrough_block(i, n, title, texts, full)).rstrip("\n")
        want = blocks.get(i, "")
        if got != want:
            a, b = want.splitlines(), got.splitlines()
            first = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            pytest.fail(f"{system}: the demo's reports differ from {path.name} at step {i}, from its line "
                        f"{first + 1}:\n  stored: {a[first] if first < len(a) else '(end)'}\n  now:    "
                        f"{b[first] if first < len(b) else '(end)'}\n{redo}")
