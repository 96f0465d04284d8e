"""`hxref template` for every decision a side answers with `hxref answer`, in each system's shipped demo:
the skeleton, signed as it stands, is accepted by `hxref check`; every key its comments name
(`choice.KEY`, `choice.KEY[].SUB`, `choice.KEY.SUB`, and the keys of a `{a, b?}` group) is one the
checker accepts; the Heartland defence template names the assaulted hex and who may react."""
from __future__ import annotations

import copy
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from tests import played

GAME = "game.yaml"
PH = "zz"                     # a placeholder value: the checkers look at a key before its value
DOCS: dict[tuple, str] = {}   # path -> its comment
#: the named keys of a system's templates are checked in this many tests, each a share of them
PARTS = 8


def ph(path: tuple):
    """The placeholder for a key: the first value its comment offers ("one of A, B"), else PH."""
    m = re.search(r"one of (\w+)", DOCS.get(path, ""))
    if m:
        return m.group(1)
    return [] if "lists of" in DOCS.get(path, DOCS.get(path[:-1], "")) else PH
BOGUS = "zz_not_a_key"


def hx(*args: str, code: int | None = 0):
    res = CliRunner().invoke(main, list(args), catch_exceptions=False)
    if code is not None:
        assert res.exit_code == code, f"hxref {' '.join(args)} -> {res.exit_code}\n{res.output}"
    return res


class Demo:
    """A shipped demo replayed in the current folder (tests/played.py), with the players' keys, its
    game file saved at every moment a side may answer: before each step that submits files, and at
    the end."""

    def __init__(self, demo: played.Demo, work: Path):
        self.demo, self.work = demo, work
        self.man = demo.manifest()
        shutil.copytree(demo.folder / "keys", work / "keys")
        for k in (work / "keys").iterdir():
            k.chmod(0o600)

    def key(self, side: str) -> str:
        return str(Path("keys") / side)

    def steps(self):
        """The engine at each moment before the manifest submits files, saved to ``game.yaml``; and at the end."""
        acting = [s for s in self.man["steps"] if s.get("submit") or "resolve" in s]
        assert not any(s.get("submit") and "resolve" in s for s in acting)
        eng = None
        for (_what, _names, eng), following in zip(played.replay_folder(self.demo.folder, self.work),
                                                   acting[1:] + [None]):
            if following is None or following.get("submit"):
                eng.save()
                yield eng

    def answerable(self):
        """(decision, side) pairs awaited now from a side with `hxref answer` (not the secret ones)."""
        eng = Engine.load(GAME)
        for d in eng.awaiting:
            if d.secret:
                continue
            for side in d.sides:
                if hx("template", GAME, "--side", side, "--decision", d.id, code=None).exit_code == 0:
                    yield d, side


def _check(text: str, side: str, key: str, name: str = "t.yaml") -> str:
    """Sign ``text`` as ``side`` and check it: '' when accepted, else the error without file and line."""
    Path(name).write_text(text)
    hx("sign", name, "--key", key, "--game", GAME, "--side", side)
    res = hx("check", GAME, name, code=None)
    if res.exit_code == 0:
        return ""
    return re.sub(r"^hxref: error: [^:]*:\d+: ", "", res.stderr.strip())


def named_paths(text: str) -> tuple[list[tuple], dict[tuple, set[str]]]:
    """The key paths the comments name, and for each path with a `{a, b?}` group its required keys."""
    paths, required = [], {}
    DOCS.clear()
    lines: list[str] = []
    for line in text.splitlines():          # a wrapped line's continuation is indented 2 more
        if lines and lines[-1].startswith("# choice.") and line.startswith("#   "):
            lines[-1] += " " + line[4:]
        else:
            lines.append(line)
    for line in lines:
        m = re.match(r"#\s*choice\.([\w.\[\]]+):(.*)", line)
        if not m:
            continue
        path = tuple(x for x in re.split(r"\.|(\[\])", m.group(1)) if x)
        paths.append(path)
        DOCS[path] = m.group(2)
        group = re.search(r"\{(\w+\??(?:, \w+\??)*)\}", m.group(2))
        if group:
            entries = ("list of {" in m.group(2) or "each {" in m.group(2))
            sub = path + ("[]",) if entries else path
            keys = group.group(1).split(", ")
            required[sub] = {k for k in keys if not k.endswith("?")}
            paths += [sub + (k.rstrip("?"),) for k in keys]
    return list(dict.fromkeys(paths)), required


def _with(choice: dict, path: tuple, last: str, required: dict, schema) -> dict:
    """``choice`` with the key ``last`` set at ``path`` (its value kept if the skeleton has one)."""
    out = copy.deepcopy(choice)
    node, where = out, ()
    for i, seg in enumerate(path):
        if seg == "[]":
            if not node:
                node.append({k: ph(where + ("[]", k)) for k in required.get(where + ("[]",), ())})
            node, where = node[0], where + ("[]",)
            continue
        if seg not in node:
            typ = (schema[seg].type if where == () and seg in schema
                   else "list" if path[i + 1:i + 2] == ("[]",) else "dict")
            node[seg] = {"list": [], "dict": {}, "int": schema[seg].minimum or 1 if seg in schema else 1,
                         "bool": False, "str": PH}.get(typ, PH)
        node, where = node[seg], where + (seg,)
    if last not in node:
        typ = schema[last].type if not path and last in schema else None
        node[last] = {"list": [], "dict": {}, "int": (schema[last].minimum or 1) if typ == "int" else 1,
                      "bool": False}.get(typ, ph(tuple(path) + (last,)))
    return out


def _keys_accepted(text: str, side: str, key: str, decision, part: int) -> list[str]:
    """Every named key of the share ``part`` (every :data:`PARTS`-th, from the ``part``-th): a file with
    it is not refused as one with an unknown key is."""
    data = yamlio.to_plain(yamlio.load_data(Path("t0.yaml")))
    skeleton = data["choice"]
    head = text[:re.search(r"^choice:", text, re.M).start()]
    paths, required = named_paths(text)
    bad = []
    refused: dict[str, str] = {}        # the file with the unknown key at a path -> its error (keys share paths)
    for p in paths[part::PARTS]:
        *path, last = p
        if last == "[]":
            continue
        with_key = _with(skeleton, tuple(path), last, required, decision.schema)
        with_bogus = head + yamlio.dump_fast({"choice": _with(skeleton, tuple(path), BOGUS, required,
                                                              decision.schema)})
        err_key = _check(head + yamlio.dump_fast({"choice": with_key}), side, key, "k.yaml")
        if with_bogus not in refused:
            refused[with_bogus] = _check(with_bogus, side, key, "b.yaml")
        err_bogus = refused[with_bogus]
        assert err_bogus, f"{'.'.join(p)}: the checker accepts an unknown key there"
        if "unknown key" in err_key or err_key == err_bogus:
            bad.append(f"{'.'.join(p)}: {err_key}")
    return bad


@dataclass
class Found:
    """A template first met in a demo: the decision, the side, the text, and a copy of the game then."""

    decision: str
    kind: str
    side: str
    text: str
    game: Path


#: the kinds of decision each demo's templates must cover
EXPECTED = {"heartland:heartland-demo": {"orders"}, "heartland:bidding-demo": {"level"},
            "salem-church:salem-church": {"setup", "orders"}, "kgp:cg-ii": {"setup", "turn", "report"},
            "acw-minis:mercers-mill": {"orders"}}


def _walk(demo: played.Demo, work: Path) -> list[Found]:
    """Every kind of decision a side answers with `hxref answer` in ``demo``, met once: its template,
    signed as it stands, is accepted by `hxref check`."""
    game = Demo(demo, work)
    seen: set = set()
    found: list[Found] = []
    for _ in game.steps():
        for d, side in list(game.answerable()):
            variant = (d.kind, "level" in d.schema)
            if variant in seen:
                continue
            seen.add(variant)
            hx("template", GAME, "--side", side, "--decision", d.id, "-o", "t.yaml")
            text = Path("t.yaml").read_text()
            err = _check(text, side, game.key(side))
            assert err == "", f"{demo.id} {d.id} ({side}): the skeleton is refused: {err}\n{text}"
            Path("t.yaml").unlink()
            moment = work / "moments" / str(len(found)) / GAME
            moment.parent.mkdir(parents=True)
            shutil.copy(GAME, moment)
            found.append(Found(d.id, d.kind, side, text, moment))
    return found


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """``demo`` -> the templates met in it (:func:`_walk`), the demo walked once for this module."""
    walked: dict[str, list[Found]] = {}

    def of(demo: played.Demo) -> list[Found]:
        if demo.id not in walked:
            work = tmp_path_factory.mktemp("templates")
            with pytest.MonkeyPatch.context() as mp:
                mp.chdir(work)
                mp.setenv("HXREF_NOW", demo.manifest()["created"])
                walked[demo.id] = _walk(demo, work)
        return walked[demo.id]

    return of


DEMOS = played.demos()


@pytest.mark.parametrize("demo", DEMOS, ids=[d.id for d in DEMOS])
def test_every_answer_template_is_accepted(demo, templates):
    kinds = {f.kind for f in templates(demo)}
    assert EXPECTED.get(demo.id, set()) <= kinds, (demo.id, kinds)


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("demo", DEMOS, ids=[d.id for d in DEMOS])
def test_every_answer_template_names_only_accepted_keys(demo, part, templates, tmp_path, monkeypatch):
    """Every key a template's comments name is one the checker accepts: the keys of the demo's
    templates, a share (``part``) of them in each test."""
    found = templates(demo)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HXREF_NOW", demo.manifest()["created"])
    game = Demo(demo, tmp_path)
    for f in found:
        shutil.copy(f.game, GAME)
        d = Engine.load(GAME).decision(f.decision)
        Path("t0.yaml").write_text(f.text)
        bad = _keys_accepted(f.text, f.side, game.key(f.side), d, part)
        assert not bad, f"{demo.id} {f.decision}: named keys the checker refuses: {bad}\n{f.text}"


def test_the_defence_template_names_the_assaulted_hex_and_who_may_react(tmp_path, monkeypatch):
    """The shipped demo reaches no defence decision (its defenders leave standing orders or are not
    assaulted), so an assault is put into the state of its first Union impulse: royce, moved next to
    calloway, assaults calloway's hex.  The template is built from the Confederate's umpired view."""
    from hxref.systems.heartland import model

    monkeypatch.chdir(tmp_path)
    heartland = played.demo("heartland")
    monkeypatch.setenv("HXREF_NOW", heartland.manifest()["created"])
    demo = Demo(heartland, tmp_path)

    def assaulted(eng):
        """royce put next to calloway, assaulting him, in the Union impulse ``eng`` awaits."""
        st, system = copy.deepcopy(eng.state), eng.system
        hm = system.charts.map(st["map"])
        busy = model.occupied_hexes(st, "confederate") | model.occupied_hexes(st, "union")
        target = model.force_hex(st, "calloway")        # wherever the demo's dice have put him by then
        src = next((hm.label(n) for n in hm.parse(target).neighbours() if n in hm.grid and hm.label(n) not in busy),
                   None)
        if src is None:
            return None
        st["leaders"]["royce"]["hex"] = src
        imp = st["current"]["active_impulse"]
        imp["assaults"], imp["stage"] = [{"force": "royce", "source": src, "target": target, "hasty": False}], "defence"
        dec = system.decisions(st)[0]
        view = system.view(st, "confederate", eng.mode)
        text = "\n".join(system.template(view, dec, "confederate").notes)
        may = text.split("Your forces that may react")[1].split("Your forces that cannot")[0]
        offers = re.findall(r"  (\w+) in \d+, against (\d+): (.*)", may)
        return (st, system, dec, view, target, src, offers) if offers else None

    found = None
    for eng in demo.steps():         # the first Union impulse where a Confederate force could react
        if eng.awaiting and eng.awaiting[0].kind == "orders" and eng.awaiting[0].sides == ("union",):
            found = assaulted(eng)
            if found:
                break
    assert found, "no Union impulse of the demo puts a reacting Confederate force near calloway"
    st, system, dec, view, target, src, offers = found
    assert dec.kind == "defence" and eng.mode == "umpired"
    assert "royce" not in view["leaders"]                  # the enemy's display is not in the view
    tpl = system.template(view, dec, "confederate")
    notes, skeleton = tpl.notes, tpl.choice
    text = "\n".join(notes)
    assert f"{target}: assaulted by Silas K. Royce * (active, 2-2-4) from {src}; your forces there: calloway" in text
    assert "leader, to" not in text and "choice.react[].against" in text and "choice.react[].force" in text
    assert system.check(st, dec, "confederate", skeleton) == []
    for force, against, ways in offers:                 # every reaction offered is accepted
        for dest, kind, cmd in re.findall(r"to (\d+) \((join|support), (?:commander: (\w+)|own initiative)\)", ways):
            react = {"force": force, "against": against, "to": dest, **({"commander": cmd} if cmd else {})}
            assert system.check(st, dec, "confederate", {"react": [react]}) == [], react
    assert f"calloway in {target}: retreat to" in text
    # every key named is one the checker accepts: unlike an unknown key, it is not refused as one
    # (the decision's schema first, as hxref.referee.orders checks it, then the rules)
    from hxref.kit import schema

    def problems(choice):
        return schema.check(dec.schema, choice, dec.rule) or system.check(st, dec, "confederate", choice)

    for key in ("force", "against", "to", "commander", "lend_mr"):
        entry = {"force": "duvall", key: {"force": "duvall"}.get(key, "1610" if key != "lend_mr" else True)}
        found = problems({"react": [entry]})
        assert not any("unknown key" in p.message for p in found), (key, found)
    for key in ("force", "to", "rear_guard", "rear_guard_leader"):
        found = problems({"retreat": [{"force": "calloway", key: []}]})
        assert not any("unknown key" in p.message for p in found), (key, found)
    assert any("unknown key `leader`" in p.message for p in problems({"react": [{"force": "duvall", "leader": "x"}]}))


def test_the_heartland_skeleton_makes_the_attack_check_a_force_in_enemy_zoc_owes(tmp_path, monkeypatch):
    """8.42: a force that starts its impulse in enemy ZOC must leave or make an attack check; the
    skeleton, "accepted as it stands", gives it the check against the stack next to it (found by a
    mail test whose dice put a Union stack next to duvall)."""
    from hxref.systems.heartland import impulse_check, model

    monkeypatch.chdir(tmp_path)
    heartland = played.demo("heartland")
    monkeypatch.setenv("HXREF_NOW", heartland.manifest()["created"])
    demo = Demo(heartland, tmp_path)
    for eng in demo.steps():
        if eng.awaiting and eng.awaiting[0].kind == "orders" and eng.awaiting[0].sides == ("confederate",):
            break
    st, system, dec = eng.state, eng.system, eng.awaiting[0]
    hm = system.charts.map(st["map"])
    busy = model.occupied_hexes(st, "confederate") | model.occupied_hexes(st, "union")
    at = model.force_hex(st, "duvall")
    next_to = next(hm.label(n) for n in hm.parse(at).neighbours() if n in hm.grid and hm.label(n) not in busy)
    st["leaders"]["royce"]["hex"] = next_to                     # a Union stack moves next to duvall
    assert "duvall" in impulse_check.forces_in_enemy_zoc(st, hm, "confederate")
    template = system.template(system.view(st, "confederate", eng.mode), dec, "confederate")
    duvall = next(m for m in template.choice["moves"] if m["force"] == "duvall")
    assert duvall == {"force": "duvall", "path": [], "attack": next_to}
    assert system.check(st, dec, "confederate", template.choice) == []
