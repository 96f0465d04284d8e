"""No enemy secret in any report of any shipped demo game, byte for byte (views are built per side
by allow-list).

Every registered system's shipped demo (SystemInfo.demo: heartland-demo, salem-church, cg-ii,
mercers-mill) is replayed from its signed order files, as `hxref demo` does. After every
resolution, and after every reveal file is stored (its decision not yet resolved), every side's
report and the public report are rendered in every format (text, Markdown, HTML, JSON, the
turn report's SVG map, and the SVG of `hxref map show GAME --side S --svg`), and in umpired games
the side's view an umpired mail carries (signed by the umpire, unpacked), and searched for the
other side's secrets:

* heartland: every enemy unit id and name and led supply id (the views' fog, as in
  tests/heartland/test_impulse_e2e.py), and the enemy's WEP (3.71);
* salem-church: the enemy units the side does not see (:func:`views.seen_units`, as in
  tests/salem_church/test_play.py);
* kgp: purchases, CPP, secret drs, unopened sealed values (as in tests/kgp/test_play.py);
* every system: the values of a commitment not yet revealed -- each reveal file's salt, dice link
  and chosen text values, until its decision is resolved (acw-minis is an open game: none).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.cli import main
from hxref.report import turn
from tests import played

#: every registered system's shipped demo (its SystemInfo.demo, in its orders folder)
DEMOS = {d.system: d.folder for d in played.default_demos()}
FORMATS = ("text", "md", "html", "json", "svg", "map-show-svg")


def _leaves(x) -> list[str]:
    if isinstance(x, dict):
        # `kind` names the sort of a sealed value (objective_hex): public, not the value
        return [v for key, k in x.items() if key != "kind" for v in _leaves(k)]
    if isinstance(x, list):
        return [v for k in x for v in _leaves(k)]
    return [x] if isinstance(x, str) else []


def _reveals(demo: Path) -> list[dict]:
    """Every shipped reveal file: its decision, side, salt, link and chosen text values."""
    out = []
    for f in sorted(demo.glob("*-reveal.yaml")):
        d = yamlio.to_plain(yamlio.load_data(f))
        words = [d["salt"], d["link"]] + [w for w in _leaves(d.get("choice") or {}) if len(w) >= 8]
        out.append({"file": f.name, "decision": d["decision"], "side": d["side"], "words": words})
    return out


def _resolved(eng) -> set[str]:
    return {e["data"].get("decision") for e in eng.gf.log if e["kind"] in ("rules", "resolve", "resolution")} | {
        e["data"].get("decision") for e in eng.gf.log if e["kind"] == "die"}


def _heartland(eng, side: str) -> tuple[list[str], list[str]]:
    from tests.heartland.test_impulse_e2e import _secrets_of

    enemy = "confederate" if side == "union" else "union"
    wep = eng.state["wep"][enemy]
    # the enemy's WEP: in the "WEP left" line and the Sides table / JSON view
    patterns = [rf"WEP left:[^\n]*\b{enemy} {wep}\b", rf"\|\s*{enemy}\s*\|[^|\n]*\|[^|\n]*\|\s*{wep}\s*\|",
                rf'"wep":\s*\{{[^}}]*"{enemy}"']
    return _secrets_of(eng.state, enemy), patterns


def _salem(eng, side: str) -> tuple[list[str], list[str]]:
    from tests.salem_church.test_play import _unseen

    return _unseen(eng.state, side), []


def _kgp(eng, side: str) -> tuple[list[str], list[str]]:
    from tests.kgp.test_play import _secrets

    return _secrets(eng, "german" if side == "us" else "us"), []


def _none(eng, side: str) -> tuple[list[str], list[str]]:
    return [], []


def _declared(eng, side: str) -> tuple[list[str], list[str]]:
    """A system with no oracle here: the other sides' declared secrets (SystemInfo.secret_kinds)."""
    return sorted({w for s in eng.sides() if s != side for w in eng.system.secrets(eng.state, s)}), []


#: the per-system oracles (heartland adds the WEP patterns, kgp the texts of its secret drs)
SECRETS = {"heartland": _heartland, "salem-church": _salem, "kgp": _kgp, "acw-minis": _none}


def _found(text: str, words: list[str], patterns: list[str]) -> list[str]:
    # a word stands alone (not inside a longer name); only a word the text holds at all is searched
    out = {w for w in words if w in text and re.search(r"(?<![\w'-])" + re.escape(w) + r"(?![\w'-])", text)}
    out |= {p for p in patterns if re.search(p, text)}
    return sorted(out)


def _side_view(eng, audience, umpire_key) -> dict[str, str]:
    """The side's view an umpired mail carries (signed by the umpire), unpacked: its fields, the
    decisions it owes and the view, as JSON (none when the side owes nothing or the game is open)."""
    import json

    from hxref.report import side_view

    if audience is None or umpire_key is None or eng.mode != "umpired" or not side_view.owed(eng, audience):
        return {}
    fields, blob, _, _ = side_view._parse(side_view.build(eng, audience, umpire_key), "view")
    return {"side-view": json.dumps({**fields, **side_view._unpack(blob, "view")}, ensure_ascii=False)}


def _reports(eng, audience, game: Path, since: int | None = None, umpire_key=None) -> dict[str, str]:
    rep = turn.build(eng, audience, since)
    out = {fmt: turn.render(rep, fmt) for fmt in ("text", "md", "html", "json")}
    out.update(_side_view(eng, audience, umpire_key))
    from hxref.geometry.mapfile import load_map
    from hxref.report.mapsvg import render_svg

    mv = eng.system.map_view(rep.facts["view"])
    if mv is not None:                          # None: a system without a map (its map show is checked below)
        out["svg"] = render_svg(load_map(mv.map_path), mv.units, shots=mv.shots)
    if audience is not None:
        eng.save()
        svg = game.parent / f"map-{audience}.svg"
        res = CliRunner().invoke(main, ["map", "show", str(game), "--side", audience, "--svg", str(svg)],
                                 catch_exceptions=False)
        if res.exit_code == 2 and "has no map to show" in res.output:     # kgp: a campaign referee, no map
            return out
        assert res.exit_code == 0, res.output
        out["map-show-svg"] = svg.read_text()
    return out


#: each game's moments are searched by this many shards (every ``SHARDS``-th moment each, the game
#: replayed by every one), so that pytest-xdist spreads the search
SHARDS = 4


# --- the test ------------------------------------------------------------------------------------
@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("system", list(DEMOS))
def test_no_report_shows_an_enemy_secret(system, shard, tmp_path):
    demo = DEMOS[system]
    reveals = _reveals(demo)
    game = tmp_path / "game.yaml"
    checked, searched, leaks, moments = 0, 0, [], 0
    seen = nth = 0
    from hxref.crypto.signing import load_private_key

    umpire_key = load_private_key(demo / "keys" / "umpire") if (demo / "keys" / "umpire").exists() else None
    views = 0
    for what, names, eng in played.replay_folder(demo, tmp_path):
        # Each report tells the resolutions since the previous moment: what a reader who reads every
        # report is told.  So every event is searched at the moment it is first told, against the
        # secrets of that moment; a reader who skips reports is later told the same events again
        # (as far as he may see them: tests/core/test_report_story.py), nothing more.
        since, seen = seen, len(eng.gf.log)
        # check after every resolution, and after a reveal is stored but not yet resolved
        if what == "submit" and not any(n.endswith("-reveal.yaml") for n in names):
            continue
        nth += 1
        if nth % SHARDS != shard:
            continue
        moments += 1
        done = _resolved(eng)
        sides = list(eng.sides())
        secret = {}
        for side in sides:
            words, patterns = SECRETS.get(system, _declared)(eng, side)
            # the other sides' commitments not yet revealed (decision not resolved)
            words = words + [w for r in reveals if r["side"] != side and r["decision"] not in done
                             for w in r["words"]]
            secret[side] = (sorted(set(words)), patterns)
        for side in sides:
            words, patterns = secret[side]
            for fmt, text in _reports(eng, side, game, since, umpire_key).items():
                views += fmt == "side-view"
                found = _found(text, words, patterns)
                if found:
                    leaks.append((names, side, fmt, found[:5]))
                checked += 1
                searched += len(words) + len(patterns)
        # the public report: no side's secret (the patterns are per viewer: the WEP shown to one
        # side is hidden from the other, so both are searched)
        allw = sorted({w for s in sides for w in secret[s][0]})
        allp = [p for s in sides for p in secret[s][1]]
        for fmt, text in _reports(eng, None, game, since).items():
            found = _found(text, allw, allp)
            if found:
                leaks.append((names, "public", fmt, found[:5]))
            checked += 1
            searched += len(allw) + len(allp)
    print(f"\n[secrets] {system}, shard {shard + 1} of {SHARDS}: {moments} of {nth} moments, {checked} reports checked ({views} signed side's views), "
          f"{searched} secrets searched, {len(leaks)} leaks")
    assert moments > 0 and checked > 0
    assert leaks == [], leaks[:10]
