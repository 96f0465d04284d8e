"""`hxref template` for every decision a side answers with `hxref answer`, in each system's shipped demo:
the skeleton, signed as it stands, is accepted by `hxref check`; every key its comments name
(`choice.KEY`, `choice.KEY[].SUB`, `choice.KEY.SUB`, and the keys of a `{a, b?}` group) is one the
checker accepts; the Heartland defence template names the assaulted hex and who may react."""
from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.base.paths import orders_dir

DEMOS = {"heartland": "heartland/heartland-demo", "bidding": "heartland/bidding-demo",
         "salem-church": "salem_church/salem-church", "kgp": "kgp/cg-ii", "acw-minis": "acw_minis/mercers-mill"}
GAME = "game.yaml"
PH = "zz"                     # a placeholder value: the checkers look at a key before its value
DOCS: dict[tuple, str] = {}   # path -> its comment


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
    """A shipped demo re-created from its manifest, played step by step."""

    def __init__(self, folder: Path, work: Path):
        self.src, self.work = folder, work
        self.man = yamlio.to_plain(yamlio.load_data(folder / "demo.yaml"))
        for f in folder.glob("*.yaml"):
            if f.name != "demo.yaml":
                shutil.copy(f, work / f.name)
        shutil.copytree(folder / "keys", work / "keys")
        for k in (work / "keys").iterdir():
            k.chmod(0o600)
        m = self.man
        hx("new", GAME, "--system", m["system"], "--scenario", m["scenario"], "--mode", m["mode"],
           "--game-id", m["game_id"], "--created", m["created"], "--nonce", m["nonce"], "--charts-from", m["charts_from"],
           *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in m["policy"].items()), []),
           *sum((["--side", f"{s}={k}"] for s, k in m["keys"].items()), []),
           *(["--umpire", m["umpire"]] if m.get("umpire") else []))

    def key(self, side: str) -> str:
        return str(Path("keys") / side)

    def steps(self):
        for step in self.man["steps"]:
            if "submit" in step:
                yield step
                hx("submit", GAME, *step["submit"])
            elif "resolve" in step:
                hx("resolve", GAME, *(["--key", self.man["umpire_key"]] if self.man.get("umpire_key") else []))

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


def _keys_accepted(text: str, side: str, key: str, decision) -> list[str]:
    """Every named key: a file with it is not refused as one with an unknown key is."""
    data = yamlio.to_plain(yamlio.load_data(Path("t0.yaml")))
    skeleton = data["choice"]
    head = text[:re.search(r"^choice:", text, re.M).start()]
    paths, required = named_paths(text)
    bad = []
    for p in paths:
        *path, last = p
        if last == "[]":
            continue
        with_key = _with(skeleton, tuple(path), last, required, decision.schema)
        with_bogus = _with(skeleton, tuple(path), BOGUS, required, decision.schema)
        err_key = _check(head + yamlio.dump_fast({"choice": with_key}), side, key, "k.yaml")
        err_bogus = _check(head + yamlio.dump_fast({"choice": with_bogus}), side, key, "b.yaml")
        assert err_bogus, f"{'.'.join(p)}: the checker accepts an unknown key there"
        if "unknown key" in err_key or err_key == err_bogus:
            bad.append(f"{'.'.join(p)}: {err_key}")
    return bad


SEEN: dict[str, set] = {}


def _try_templates(demo: Demo, system: str, tmp: Path, found: list) -> None:
    for d, side in list(demo.answerable()):
        variant = (d.kind, "level" in d.schema)
        if variant in SEEN.setdefault(system, set()):
            continue
        SEEN[system].add(variant)
        hx("template", GAME, "--side", side, "--decision", d.id, "-o", "t.yaml")
        text = Path("t.yaml").read_text()
        shutil.copy("t.yaml", "t0.yaml")
        err = _check(text, side, demo.key(side))
        assert err == "", f"{system} {d.id} ({side}): the skeleton is refused: {err}\n{text}"
        Path("t.yaml").unlink()
        bad = _keys_accepted(text, side, demo.key(side), d)
        assert not bad, f"{system} {d.id}: named keys the checker refuses: {bad}\n{text}"
        found.append((d.id, d.kind, text))


@pytest.mark.parametrize("system", list(DEMOS))
def test_every_answer_template_is_accepted_and_names_only_accepted_keys(system, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    man = yamlio.to_plain(yamlio.load_data(orders_dir() / DEMOS[system] / "demo.yaml"))
    monkeypatch.setenv("HXREF_NOW", man["created"])
    demo = Demo(orders_dir() / DEMOS[system], tmp_path)
    found: list = []
    for _ in demo.steps():
        _try_templates(demo, system, tmp_path, found)
    _try_templates(demo, system, tmp_path, found)
    kinds = {k for _, k, _ in found}
    expected = {"heartland": {"orders"}, "bidding": {"level"}, "salem-church": {"setup", "orders"},
                "kgp": {"setup", "turn", "report"}, "acw-minis": {"orders"}}[system]
    assert expected <= kinds, (system, kinds)


def test_the_defence_template_names_the_assaulted_hex_and_who_may_react(tmp_path, monkeypatch):
    """The shipped demo reaches no defence decision (its defenders leave standing orders or are not
    assaulted), so an assault is put into the state of its first Union impulse: royce, moved next to
    calloway, assaults calloway's hex.  The template is built from the Confederate's umpired view."""
    from hxref.systems.heartland import model

    monkeypatch.chdir(tmp_path)
    folder = orders_dir() / DEMOS["heartland"]
    monkeypatch.setenv("HXREF_NOW", yamlio.to_plain(yamlio.load_data(folder / "demo.yaml"))["created"])
    demo = Demo(folder, tmp_path)

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
    for _ in demo.steps():         # the first Union impulse where a Confederate force could react
        eng = Engine.load(GAME)
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
    folder = orders_dir() / DEMOS["heartland"]
    monkeypatch.setenv("HXREF_NOW", yamlio.to_plain(yamlio.load_data(folder / "demo.yaml"))["created"])
    demo = Demo(folder, tmp_path)
    for _ in demo.steps():
        eng = Engine.load(GAME)
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
