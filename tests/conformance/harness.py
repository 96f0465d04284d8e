"""What the conformance suite does to a system, shared with ``tools/regen_playthroughs.py``.

- :func:`replay_demo` replays a system's shipped demo (``info.orders_path()/<demo>/demo.yaml``)
  through the real engine, yielding after every step (the tests' one replayer, tests/played.py);
- :func:`moment_reports` renders every audience's report in every format at one moment (and
  :func:`moment_text` its text alone);
- :func:`playthrough_text` is the golden text of the demo: every audience's text report at
  every step, written in full or as a sha256 per report (:data:`FULL_LIMIT`), the last step in full;
- :func:`random_play` plays random legal answers in solo games; :func:`random_part` plays one part
  of such a play, the parts one after the other, shared by the processes of a test run.
"""
from __future__ import annotations

import hashlib
import pickle
import random
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hxref.base.canon import canonical_json
from hxref.referee.engine import UMPIRE, Engine
from hxref.base.errors import HxrefError
from hxref.kit import registry, schema

from tests.conformance import players
from tests.played import chained, read_manifest, replay_folder
from tests.demo_sweep import report_formats, report_text

#: the playthrough of a demo holds every report in full when they all come to less than this
#: many bytes; else a sha256 per report and the last step in full (reviewable in a diff)
FULL_LIMIT = 200_000
#: the third line of a playthrough that holds every report in full
FULL_MARK = "every report in full"


def demo_folder(system: str) -> Path | None:
    info = registry.info(system)
    return info.orders_path() / info.demo if info.demo else None


def manifest(system: str) -> dict:
    return read_manifest(demo_folder(system))


def replay_demo(system: str, work: Path) -> Iterator[tuple[str, list[str], Engine]]:
    """Replay ``system``'s demo into ``work`` (:func:`tests.played.replay_folder`): yield
    ``(what, names, eng)`` after each submit (the files) and each resolve (the decisions resolved)."""
    demo = demo_folder(system)
    assert demo is not None, f"{system} ships no demo"
    return replay_folder(demo, work)


def audiences(eng: Engine) -> list[str | None]:
    """The public, every side, and the umpire (who sees everything)."""
    return [None, *eng.sides(), UMPIRE]


def moment_reports(eng: Engine, audience: str | None, since: int | None = None) -> dict[str, str]:
    """``audience``'s report in every format (text, md, html, json) and, for a system with a map,
    the SVG picture of its view; ``since``: the story of the resolutions after that event (default:
    since the reader last read, as `hxref report` tells it)."""
    from hxref.report import turn

    rep = turn.build(eng, audience, since)
    out = {k: v for k, v in report_formats(eng, audience, rep).items() if k != "rich"}
    view = rep.facts["view"]
    mv = eng.system.map_view(view) if view else None
    if mv is not None:
        from hxref.geometry.mapfile import load_map
        from hxref.report.mapsvg import render_svg

        out["svg"] = render_svg(load_map(mv.map_path), mv.units, shots=mv.shots)
    return out


def moment_text(eng: Engine, audience: str | None) -> str:
    """``audience``'s text report alone, as :func:`moment_reports` renders it (the golden playthrough
    keeps only the text)."""
    return report_text(eng, audience)


# --- golden playthroughs ---------------------------------------------------------------------------
def playthrough_path(system: str) -> Path:
    info = registry.info(system)
    return info.games_path() / "playthroughs" / f"{info.demo}.txt"


def _name(audience: str | None) -> str:
    return "public" if audience is None else audience


def playthrough_steps(system: str, work: Path) -> list[tuple[str, dict[str, str]]]:
    """Every step of the demo and every audience's text report after it."""
    from hxref.report import turn

    return [(f"{what} {' '.join(names)}", {_name(a): golden_text(turn.render(turn.build(eng, a), "text"))
                                           for a in audiences(eng)})
            for what, names, eng in replay_demo(system, work)]


def golden_text(text: str) -> str:
    """A text report as the playthrough keeps it: without the spaces that pad its lines to the
    console's width."""
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def playthrough_text(system: str, steps: list[tuple[str, dict[str, str]]]) -> str:
    """The golden text of ``system``'s demo from its steps: every report in full when they are
    small (:data:`FULL_LIMIT`), else a sha256 and size per report and the last step in full."""
    full = sum(len(t.encode()) for _, texts in steps for t in texts.values()) < FULL_LIMIT
    out = playthrough_header(system, full)
    for i, (title, texts) in enumerate(steps, 1):
        out += playthrough_block(i, len(steps), title, texts, full)
    return "\n".join(out).rstrip("\n") + "\n"


def playthrough_header(system: str, full: bool) -> list[str]:
    """The lines that open the golden playthrough of ``system``'s demo."""
    info = registry.info(system)
    return [f"# The golden playthrough of the {system} demo {info.demo!r}: every audience's text report "
            "after every step.",
            f"# Regenerate: python tools/regen_playthroughs.py --system {system}",
            "# " + (FULL_MARK if full else
                    "each report as its sha256 and size; the reports of the last step in full"), ""]


def playthrough_block(i: int, n: int, title: str, texts: dict[str, str], full: bool) -> list[str]:
    """The lines of step ``i`` of ``n`` in a golden playthrough (in full, or a sha256 per report)."""
    out = [f"=== step {i}/{n}: {title}"]
    for who, text in texts.items():
        if full or i == n:
            out += [f"--- {who}", text.rstrip("\n"), ""]
        else:
            out.append(f"--- {who} sha256:{hashlib.sha256(text.encode()).hexdigest()} {len(text.encode())} bytes")
    out.append("")
    return out


def playthrough_blocks(text: str) -> tuple[bool, dict[int, str], int]:
    """A stored golden playthrough cut into its steps: whether it holds every report in full, each
    step's block by number (as :func:`playthrough_block` writes it, without the lines ending the
    file), and the number of steps it names."""
    lines = text.split("\n")
    full = len(lines) > 2 and lines[2] == "# " + FULL_MARK
    starts = [i for i, line in enumerate(lines) if line.startswith("=== step ")]
    blocks, n = {}, 0
    for a, b in zip(starts, [*starts[1:], len(lines)]):
        number, _, rest = lines[a].removeprefix("=== step ").partition("/")
        n = int(rest.partition(":")[0])
        blocks[int(number)] = "\n".join(lines[a:b]).rstrip("\n")
    return full, blocks, n


# --- random legal play -----------------------------------------------------------------------------
def state_bytes(eng_or_state) -> bytes:
    state = eng_or_state.state if isinstance(eng_or_state, Engine) else eng_or_state
    return canonical_json(state)


def _vocabulary(view) -> list:
    """The text and numbers of a view: what a random player may write in a choice."""
    found: list = []

    def walk(x, depth=0):
        if depth > 6 or len(found) > 2000:
            return
        if isinstance(x, dict):
            for k, v in x.items():
                found.append(k)
                walk(v, depth + 1)
        elif isinstance(x, list):
            for v in x[:50]:
                walk(v, depth + 1)
        elif isinstance(x, (str, int)) and not isinstance(x, bool):
            found.append(x)

    walk(view)
    return sorted(set(map(str, found))) or ["x"]


def random_value(rng: random.Random, spec, words: list):
    """A random value for one schema field: of its type, often in range, sometimes not."""
    if spec.choices:
        return rng.choice(list(spec.choices))
    if spec.type == "int":
        lo = spec.minimum if spec.minimum is not None else -2
        hi = spec.maximum if spec.maximum is not None else 20
        return rng.randint(lo - 1, hi + 1) if rng.random() < 0.2 else rng.randint(lo, hi)
    if spec.type == "str":
        return rng.choice(words)
    if spec.type == "bool":
        return rng.random() < 0.5
    if spec.type == "list":
        if spec.items is not None:
            return [random_value(rng, spec.items, words) for _ in range(rng.randint(0, 2))]
        return [rng.choice(words) for _ in range(rng.randint(0, 2))]
    if spec.type == "dict":
        if spec.fields:
            return {k: random_value(rng, f, words) for k, f in spec.fields.items()
                    if not f.optional or rng.random() < .5}
        return {}
    return rng.choice(words)


def candidates(rng: random.Random, eng: Engine, dec, side: str) -> tuple[list[dict], int]:
    """Choices to try, most random first: the system's random player's orders (:mod:`.players`),
    the schema's random values, the template with one field drawn at random, the template, the
    decision's example; and how many of them the system's player wrote."""
    view = eng.system.view(eng.state, side, eng.mode)
    template = eng.system.template(view, dec, side)
    words = _vocabulary(view)
    base = dict(template.choice)
    out = players.propose(eng.h["meta"]["system"], rng, eng, dec, side)
    proposed = len(out)
    for _ in range(3):
        out.append({k: random_value(rng, f, words) for k, f in dec.schema.items() if not f.optional or rng.random() < .5})
    for _ in range(3):
        if dec.schema:
            key = rng.choice(sorted(dec.schema))
            out.append({**base, key: random_value(rng, dec.schema[key], words)})
    out += [base, dict(dec.example)]
    return out, proposed


def repaired(system, state, dec, side: str, choice: dict, limit: int = 40) -> dict | None:
    """``choice`` with the list items the rules refuse left out, one at a time (each problem names
    its data path, e.g. ``moves[13].path[0]``), until the rules accept it; None if they never do."""
    import copy

    choice = copy.deepcopy(choice)
    for _ in range(limit):
        # the decision's schema first, as hxref.referee.orders checks every order, then the rules
        problems = schema.check(dec.schema, choice, dec.rule) or system.check(state, dec, side, choice)
        if not problems:
            return choice
        bad = next((p for p in problems if len(p.path) >= 2 and isinstance(choice.get(p.path[0]), list)
                    and isinstance(p.path[1], int) and p.path[1] < len(choice[p.path[0]])), None)
        if bad is None:
            return None
        del choice[bad.path[0]][bad.path[1]]
    return None


class Stats:
    """What a random play did: decisions resolved, answers tried, refused and accepted, games."""

    def __init__(self):
        self.decisions = self.answers = self.refused = self.games = self.finished = self.rolls = 0
        self.played = 0                     # answers accepted that the system's random player wrote
        self.stuck: list[str] = []
        self.changed: list[str] = []
        self.defaults = 0                   # stand-fast defaults checked
        self.bad_defaults: list[str] = []   # where one was not legal
        self.seconds = 0.0


def read_only_checks(eng: Engine, dec, side: str, choice: dict, stats: Stats) -> None:
    """(c): check, view, report, template, map_view, map_orders, reach, public and boxes leave the
    state as it was (canonical JSON), report, template, map_view, map_orders and reach the view they
    are given, and merged the public part and boxes."""
    system = eng.system
    before = state_bytes(eng)

    def same(what: str) -> None:
        if state_bytes(eng) != before:
            stats.changed.append(f"{what} changed the state at {dec.id}")

    system.check(eng.state, dec, side, choice)
    same(f"check({side})")
    for audience, mode in ((side, eng.mode), (None, eng.mode), (None, "open"), (side, "umpired"), (None, "umpired")):
        view = system.view(eng.state, audience, mode)
        same(f"view({audience}, {mode})")
        frozen = canonical_json(view)
        system.report(view)
        same(f"report(view of {audience}, {mode})")
        if audience is not None:
            system.template(view, dec, audience)
            same(f"template(view of {audience}, {mode})")
        system.map_view(view)
        same(f"map_view(view of {audience}, {mode})")
        if canonical_json(view) != frozen:
            stats.changed.append(f"report, template or map_view changed the view of {audience} ({mode}) at {dec.id}")
    system.result(eng.state)
    system.dashboard(eng.state)
    same("result or dashboard")
    public = system.public(eng.state)
    boxes = {s: system.boxes(eng.state, s) for s in eng.sides()}
    same("public or boxes")
    frozen = canonical_json([public, boxes])
    system.merged(public, boxes)
    if canonical_json([public, boxes]) != frozen:
        stats.changed.append(f"merged changed the public part or the boxes it was given at {dec.id}")
    view = system.view(eng.state, side, eng.mode)
    frozen = canonical_json(view)
    for where in (eng.state, view):         # the page asks them of the state, or of the side's view
        for ml in system.map_orders(where, dec, side):
            for piece in ml.pieces[:1]:
                system.reach(where, dec, side, choice, ml.key, piece.id)
    same("map_orders or reach")
    if canonical_json(view) != frozen:
        stats.changed.append(f"map_orders or reach changed the view of {side} at {dec.id}")


def stand_fast_checks(eng: Engine, stats: Stats) -> None:
    """For every awaited decision and every side that owes it, the decision's stand-fast default
    (what a signed claim gives a late side) passes the schema and the rules' ``check``."""
    for dec in eng.awaiting:
        if dec.id == "join":
            continue
        for side in dec.sides:
            if "choice" in eng.pending(dec.id)["answers"].get(side, {}):
                continue
            default = eng.system.stand_fast(eng.state, dec, side)
            problems = schema.check(dec.schema, default, dec.rule) or eng.system.check(eng.state, dec, side, default)
            stats.defaults += 1
            if problems:
                stats.bad_defaults.append(f"{dec.id} ({dec.kind}) for {side}: {default} is refused: "
                                          f"{problems[0].message} [{problems[0].rule}]")


@dataclass
class Cursor:
    """Where a random play stopped, so that another process goes on with it: the generator's state,
    the games begun, the decisions resolved, the game in play (a file name) and what got stuck."""

    rng: tuple
    games: int = 0
    decisions: int = 0
    current: str | None = None
    stuck: list[str] = field(default_factory=list)


def random_play(system: str, folder: Path, rng: random.Random, budget: int, check_every: int = 1,
                cursor: Cursor | None = None) -> Stats:
    """Random legal play in solo games of ``system``'s demo scenario until ``budget`` decisions are
    resolved (a finished game is followed by a new one); every step through the engine's own API.
    Raises whatever the engine raises that is not a refusal (an :class:`HxrefError`).

    With a ``cursor`` the play goes on where the cursor says (the game in play read from ``folder``,
    ``budget`` counting the decisions of every part), and the cursor is moved on; the stats count
    what this call did."""
    import hxref.referee.engine as engine_mod

    stats = Stats()
    cursor = cursor or Cursor(rng.getstate())
    demo = manifest(system)["scenario"]
    # the demo's scenario first, then every other scenario the system ships, in turn
    scenarios = [demo] + [s for s in registry.get(system).scenarios() if s != demo]
    sides = list(registry.info(system).sides)
    while cursor.decisions < budget and not cursor.stuck:
        stats.games += 1
        if cursor.current is not None:
            eng = Engine.load(folder / cursor.current)
        else:
            scenario = scenarios[cursor.games % len(scenarios)]
            cursor.games += 1
            path = folder / f"random-{cursor.games}.yaml"
            seed = rng.getrandbits(256).to_bytes(32, "big").hex()
            old = engine_mod.random_hex
            # the solo seed and nonce from the test's own generator: a failing play can be replayed
            engine_mod.random_hex = _Seeded(rng).token_hex
            try:
                eng = Engine.create(path, system=system, scenario=scenario, mode="solo",
                                    sides={s: None for s in sides}, game_id=f"random-{seed[:8]}", nonce=seed)
            finally:
                engine_mod.random_hex = old
            cursor.current = path.name
        while not eng.finished and cursor.decisions < budget:
            stand_fast_checks(eng, stats)
            dec = next(d for d in eng.awaiting if d.id != "join")
            for side in dec.sides:
                if "choice" in eng.pending(dec.id)["answers"].get(side, {}):
                    continue
                tries, proposed = candidates(rng, eng, dec, side)
                if cursor.decisions % check_every == 0:
                    shaped = next((c for c in tries if not schema.check(dec.schema, c, dec.rule)), tries[-1])
                    read_only_checks(eng, dec, side, shaped, stats)
                for n, choice in enumerate(tries):
                    choice = repaired(eng.system, eng.state, dec, side, choice)
                    if choice is None:
                        continue            # kept only when the rules accept it
                    stats.answers += 1
                    try:
                        eng.answer_solo(side, dec.id, choice)
                        stats.played += n < proposed
                        break
                    except HxrefError:
                        stats.refused += 1
                else:
                    stats.stuck.append(f"{dec.id} ({dec.kind}) for {side}: no template, example or random "
                                       "choice was legal")
                    cursor.stuck = stats.stuck
                    eng.save()
                    return stats
            try:
                done = eng.resolve()
            except RuntimeError as exc:     # the engine refuses dice on a decision declared without
                raise AssertionError(f"{system}: {exc}") from None
            stats.decisions += len(done)
            cursor.decisions += len(done)
            stats.rolls += sum(len(r.rolls) for r in done)
        if eng.finished:
            stats.finished += 1
            cursor.current = None
        eng.save()
    return stats


def random_part(system: str, part: int, parts: int, root: Path, budget: int) -> tuple[Stats, list[Path]]:
    """Part ``part`` of ``parts`` of one random play of ``budget`` decisions (:func:`random_play`,
    the generator seeded by the system's name), each part the next ``budget / parts`` decisions of the
    same games: the parts together play what one unbroken play would.  Played once for every process
    of a test run into ``root`` (:func:`tests.played.chained`), each part in a folder of its own: the
    games it played on, as they were at its end, and its stats.
    Returns the part's stats and its games."""
    def play(k: int, out: Path) -> None:
        if k == 0:
            cursor = Cursor(random.Random(f"conformance {system}").getstate())
        else:
            prev = out.parent / f"part-{k - 1}"
            cursor = pickle.loads((prev / "cursor.pickle").read_bytes())
            if cursor.current is not None:
                shutil.copy(prev / cursor.current, out / cursor.current)
        rng = random.Random()
        rng.setstate(cursor.rng)
        t = time.perf_counter()
        stats = random_play(system, out, rng, -(-budget * (k + 1) // parts), cursor=cursor)
        stats.seconds = time.perf_counter() - t
        cursor.rng = rng.getstate()
        (out / "cursor.pickle").write_bytes(pickle.dumps(cursor))
        (out / "stats.pickle").write_bytes(pickle.dumps(stats))

    out = chained(root / f"random-{system}-{budget}", part, play)
    return pickle.loads((out / "stats.pickle").read_bytes()), sorted(out.glob("random-*.yaml"))


class _Seeded:
    """Stands in for :func:`hxref.referee.engine.random_hex` while a random game is made."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def token_hex(self, n: int = 32) -> str:
        return self.rng.getrandbits(8 * n).to_bytes(n, "big").hex()
