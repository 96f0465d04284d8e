"""Fuzzing the order parser, `Engine.check` and `hxref check GAME FILE` (every bad input is one
user error, never a crash).

Hypothesis makes order files -- the shipped demo files with wrong values (re-signed with the
right demo key, so the values reach the rules' checks), random YAML, random bytes, deep nesting,
huge numbers, unicode confusables in ids -- and feeds them to :meth:`Engine.check` on the four
shipped demo games stopped part-way (which reads the file with :func:`hxref.referee.orders.parse`
first, so every input reaches the parser, and those it accepts the game's checks), and to `hxref
check` through the command line. Every input must give a result or one :class:`HxrefError` (a
one-line message); any other exception is a bug. The number of inputs tried is printed.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

from hxref.referee import orders
from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError
from hxref.crypto.signing import load_private_key, sign_text

from tests.played import replay_folder
from tests.security.test_secrets_all import DEMOS

TRIED = {"Engine.check": 0, "hxref check": 0}
ACCEPTED = {"Engine.check": 0, "hxref check": 0}
#: stop each demo after this many resolutions: decisions of every kind are awaited there (another
#: registered system: after its first)
STOP = {"heartland": 2, "salem-church": 3, "kgp": 9, "acw-minis": 3}
CONFUSABLES = {"a": "а", "e": "е", "o": "о", "i": "і", "c": "с", "p": "р", "u": "υ", "n": "ո", "1": "l",
               "-": "‐", ".": "․", "t": "ţ"}
FUZZ = settings(max_examples=int(os.environ.get("HXREF_FUZZ_EXAMPLES", "250")), deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))
#: each system's fuzzing is cut into this many shards, each with its own fixed seed and its share of the
#: examples, so that pytest-xdist spreads them; together they try FUZZ.max_examples inputs
SHARDS = 5
#: the systems whose checks are slow enough to want more shards of the wrong values (same total)
WRONG_VALUE_SHARDS = {"salem-church": 10}


def shard_of(system: str, shard: int, shards: int = SHARDS):
    """The settings and seed of one shard of ``system``'s fuzzing (the seed fixed, as derandomize is)."""
    share = -(-FUZZ.max_examples // shards)
    return lambda run: settings(FUZZ, max_examples=share)(seed(f"{system}-{shard}")(run))


def stopped(system: str, work: Path) -> dict:
    """``system``'s demo game stopped part-way in ``work``, with every shipped order file's data and the
    signing keys."""
    demo = DEMOS[system]
    resolves = 0
    gen = replay_folder(demo, work)
    for what, _, eng in gen:
        resolves += what == "resolve"
        if resolves >= STOP.get(system, 1):
            eng.save()
            break
    gen.close()
    man = yamlio.to_plain(yamlio.load_data(demo / "demo.yaml"))
    keys = {s: load_private_key(demo / k.removesuffix(".pub")) for s, k in man["keys"].items()
            if (demo / k.removesuffix(".pub")).exists()}
    files = {}
    for f in sorted(demo.glob("*.yaml")):
        if f.name not in ("demo.yaml", man.get("charts_from")):     # the signed files only
            body = orders.parse(f.read_text(), f.name, fast=True).data
            files[f.name] = body
    eng = Engine.load(work / "game.yaml")
    awaiting = [d.id for d in eng.awaiting]
    return {"game": work / "game.yaml", "eng": eng, "keys": keys, "files": files, "awaiting": awaiting,
            "created": man["created"]}


class Games:
    """Each demo game stopped part-way (:func:`stopped`), replayed the first time a test asks for it: a
    worker replays only the systems its tests fuzz."""

    def __init__(self, root: Path):
        self.root = root
        self.made: dict[str, dict] = {}

    def __iter__(self):
        return iter(DEMOS)

    def __getitem__(self, system: str) -> dict:
        if system not in self.made:
            work = self.root / system
            work.mkdir()
            self.made[system] = stopped(system, work)
        return self.made[system]


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Games:
    return Games(tmp_path_factory.mktemp("fuzz"))


# --- strategies ----------------------------------------------------------------------------------
def confusable(s: str):
    """``s`` with some letters replaced by look-alikes (Cyrillic, Greek, Armenian, punctuation)."""
    idx = [i for i, c in enumerate(s) if c in CONFUSABLES]
    if not idx:
        return st.just(s + "\u200b")
    return st.lists(st.sampled_from(idx), min_size=1, unique=True).map(
        lambda picks: "".join(CONFUSABLES[c] if i in picks else c for i, c in enumerate(s)))


huge = st.one_of(st.integers(min_value=-(10 ** 400), max_value=10 ** 400), st.just(2 ** 63), st.just(-(2 ** 63) - 1),
                 st.floats(allow_nan=True, allow_infinity=True), st.just(10 ** 4000))
scalar = st.one_of(st.none(), st.booleans(), st.integers(), huge, st.text(max_size=40),
                   st.text(alphabet="аеоісрυո‐․ţ\u200b\u202e\ufeff\x00\x1b", max_size=20), st.just(""),
                   st.just("x" * 100_000))
weird = st.recursive(scalar, lambda ch: st.one_of(st.lists(ch, max_size=4),
                                                   st.dictionaries(st.text(max_size=8), ch, max_size=4)),
                     max_leaves=12)


def _paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


def _set(x, path, value):
    if not path:
        return value
    x = yamlio.to_plain(x) if not isinstance(x, (dict, list)) else x
    import copy

    x = copy.deepcopy(x)
    cur = x
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return x


@st.composite
def wrong_values(draw, g):
    """A shipped order file (often the one awaited now) with values changed, re-signed by its side."""
    name = draw(st.sampled_from(sorted(g["files"])))
    data = dict(g["files"][name])
    data.pop("hxref", None)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))[1:]
        how = draw(st.sampled_from(["value", "confusable", "drop", "add", "decision"]))
        if how == "value" and paths:
            data = _set(data, draw(st.sampled_from(paths)), draw(weird))
        elif how == "confusable":
            key = draw(st.sampled_from([k for k in ("game", "decision", "side", "kind") if k in data] or ["side"]))
            data[key] = draw(confusable(str(data.get(key, "union"))))
        elif how == "drop" and data:
            data.pop(draw(st.sampled_from(sorted(data))))
        elif how == "add":
            data[draw(st.text(min_size=1, max_size=10))] = draw(weird)
        elif how == "decision" and g["awaiting"]:
            data["decision"] = draw(st.sampled_from(g["awaiting"]))
    try:
        text = orders.render(data)
    except Exception:
        assume(False)
    key = g["keys"].get(data.get("side")) if isinstance(data.get("side"), str) else None
    if key is None:
        key = g["keys"][draw(st.sampled_from(sorted(g["keys"])))]
    if draw(st.booleans()):
        try:
            text = sign_text(text, key)
        except HxrefError:
            pass
    return text


def nested(depth: int, kind: str) -> str:
    if kind == "flow-list":
        return "choice: " + "[" * depth + "]" * depth + "\n"
    if kind == "flow-map":
        return "choice: " + "{a: " * depth + "1" + "}" * depth + "\n"
    return "choice:\n" + "".join("  " * (i + 1) + "a:\n" for i in range(depth)) + "  " * (depth + 1) + "b: 1\n"


random_yaml = st.one_of(
    weird.map(lambda v: yamlio.dump_fast(v) if not isinstance(v, float) else repr(v)),
    st.text(alphabet=st.sampled_from(list("abc:-[]{}&*!|>'\"#%@`, \n\t?0123456789.~")), max_size=300),
    st.builds(nested, st.integers(1, 3000), st.sampled_from(["flow-list", "flow-map", "block"])),
    st.builds(lambda n, d: f"hxref: 2\ngame: g\nidentity: {'0' * 64}\nhead: {'0' * 64}@5\nat: '2026-11-29T12:00:00Z'\n"
              f"decision: t1.bid\nside: union\nkind: answer\nlink: {'0' * 64}\n"
              f"choice: {{bid: {'9' * n}{d}}}\n", st.integers(1, 20_000), st.sampled_from(["", ".5", "e999", "e-999"])),
    # v2 envelope values: heads, times and identities of every shape
    st.builds(lambda i, h, a: f"hxref: 2\ngame: g\nidentity: {i}\nhead: {h}\nat: {a}\ndecision: t1.bid\n"
              "side: union\nkind: answer\nchoice: {bid: 1}\n",
              st.one_of(st.just("0" * 64), st.text(alphabet="0123456789abcdefABCDEF", max_size=70)),
              st.one_of(st.builds(lambda x, n: f"{x}@{n}", st.text(alphabet="0123456789abcdef", max_size=70),
                                  st.one_of(st.integers(-5, 10 ** 12), st.just("x"))), st.text(max_size=20)),
              st.one_of(st.just("'2026-11-29T12:00:00Z'"), st.just("2026-11-29"), st.just("'9999-99-99T99:99:99Z'"),
                        st.just("'2026-11-29T12:00:00+99:00'"), st.text(max_size=30).map(repr))),
    st.builds(lambda n: "a: &x [" + ",".join(["*x"] * 3) + "]\n" + "".join(f"b{i}: &x{i} [*x,*x]\n" for i in range(n)),
              st.integers(0, 30)),
    st.just("!!python/object/apply:os.system ['true']\n"),
    st.just("--- 1\n--- 2\n"),
    st.just("a: 1\na: 2\n"),
)
random_bytes = st.binary(max_size=2000)


def _text_of(x) -> str:
    return x.decode("utf-8", errors="replace") if isinstance(x, bytes) else x


def _one(fn, text: str, what: str) -> None:
    TRIED[what] += 1
    try:
        fn(text)
        ACCEPTED[what] += 1
    except HxrefError as exc:
        msg = exc.render()
        assert msg and "\n" not in msg.strip(), (what, text[:300], msg)
    except RecursionError as exc:           # pragma: no cover - a crash to report
        pytest.fail(f"{what}: RecursionError on {text[:200]!r}: {exc}")
    except Exception as exc:                # pragma: no cover - a crash to report
        pytest.fail(f"{what}: {type(exc).__name__}: {exc} on input {text[:400]!r}")


def _print():
    print(f"\n[fuzz] inputs tried: {sum(TRIED.values())} ({TRIED}); accepted: {ACCEPTED}")


# --- the tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("system, shard", [(s, k) for s in DEMOS for k in range(WRONG_VALUE_SHARDS.get(s, SHARDS))],
                         ids=[f"{s}-{k}" for s in DEMOS for k in range(WRONG_VALUE_SHARDS.get(s, SHARDS))])
def test_wrong_values_in_valid_shapes(games, system, shard):
    """One shard of ``system``'s wrong values: its shards together try FUZZ.max_examples inputs."""
    g = games[system]

    @shard_of(system, shard, WRONG_VALUE_SHARDS.get(system, SHARDS))
    @given(wrong_values(g))
    def run(text):
        _one(lambda t: g["eng"].check(t, "fuzz.yaml"), text, "Engine.check")

    run()
    _print()


@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("system", ["heartland", "kgp"])
def test_random_yaml_bytes_nesting_and_numbers(games, system, shard):
    g = games[system]

    @shard_of(system, shard)
    @given(st.one_of(random_yaml, random_bytes.map(_text_of)))
    def run(text):
        _one(lambda t: g["eng"].check(t, "fuzz.yaml"), text, "Engine.check")

    run()
    _print()


def test_hxref_check_on_the_command_line(games, tmp_path):
    """Through `hxref check GAME FILE`: exit 0 or 2 with a one-line error, never 3 (internal error)."""
    systems = sorted(games)

    @settings(FUZZ, max_examples=max(20, FUZZ.max_examples // 3))
    @given(st.sampled_from(systems).flatmap(lambda s: st.tuples(st.just(s), st.one_of(
        wrong_values(games[s]), random_yaml, random_bytes))))
    def run(case):
        system, data = case
        f = tmp_path / "fuzz.yaml"
        f.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass"))
        TRIED["hxref check"] += 1
        res = CliRunner().invoke(main, ["check", str(games[system]["game"]), str(f)])
        shown = repr(data[:400])
        assert res.exit_code in (0, 2), f"exit {res.exit_code} on {shown}: {res.output}"
        if res.exit_code == 0:
            ACCEPTED["hxref check"] += 1
        else:
            err = res.stderr.strip()
            assert err.startswith("hxref: error: ") and "\n" not in err, (shown, err)

    run()
    _print()
