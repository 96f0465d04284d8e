"""Hidden movement under a cavalry corps screen in OPEN games (8.62a, 8.61c).

In an umpired game the referee keeps a hidden force's true hex and the views
leave it out (:mod:`.cavalry`).  In an open game the game file is in both
players' hands, so the true hex cannot be in it: the owner plots it on paper,
as the rules say, and hxref keeps a *commitment* to each plot.

The protocol, impulse by impulse::

    hide        the force ends its (public) move with ``hide: true``: it leaves the map
                where it stands; that hex is public (``from``).
    plot        in each later impulse of its side the owner may move it hidden:
                ``plot: [{force, commitment}]`` with the commitment to
                {force, hex, impulse} (:func:`.cavalry.plot_commitment`; ``hxref heartland plot``
                makes it).  The referee rolls its IMC in public (the MP are no secret)
                and records, with the MP, the screens and the enemy's units and ZOC of
                that moment.
    checkpoints at the end of every impulse (both sides') each hidden force's record
                gets the screens and the enemy's units and ZOC of that moment.
    search      an enemy corps' successful search (8.61c) is recorded against every
                hidden force of the side; the owner answers it in its next orders:
                ``searched: [{search: ID, found: [forces]}]``, revealing the forces found.
    reveal      ``reveal: [{force, plots: [{hex, salt}, ...]}]`` opens every plot: the
                force appears at the last one, before the moves of the impulse (so it may
                move on from there in the same orders).

The reveal is checked in two ways.  A plot that does not open its commitment is
an input error: the orders are refused (the owner mistyped a salt).  The rules
are then checked against the records: every plotted step must be reachable
with that impulse's MP without leaving the screens or entering enemy units or
ZOC; at every checkpoint the force's plotted hex must have been inside a
screen and out of enemy ZOC, or the force must appear in its side's very next
orders; a force inside a search's range when the owner answered "not found"
was hidden unlawfully.  These are **breaches**: the force still appears, and
a public event names each breach with its rule, for the players (or a club's
umpire) to settle.  ``hxref audit`` replays every reveal through the same
code, so a reveal can never be changed after the fact.

State keys (``plots`` is public: nothing in it says where a force is)::

    plots: {force: {side, from, hidden_at, entries: [{impulse, commitment, mp, weather,
            screens, blocked}], checks: [{impulse, own, screens, blocked}],
            searches: [{id, impulse, center, range}]}}
    pending_searches: {side: [{id, impulse, center, range, by}]}
    mode: "open" | "umpired" | "solo"          (from the game file's header)

Readings chosen where the rules are silent (pinned by the tests):

* In an open game a hidden force exerts no ZOC and blocks no hex until it
  appears (digest 8.62a: "the plausible choice is to reveal on contact");
  an enemy move into its ZOC obliges it to appear in its side's next orders.
* A hidden force's IMC is rolled as if in full supply (its supply line cannot
  be traced without its hex); supply and attrition apply again once it appears.
* A force still hidden when the game ends holds no place for victory.
* Only a leader's force is plotted: unled units have no name to come back under.
* If an enemy force stands in its plotted hex when it appears, it appears in
  the nearest hex (lowest label) free of enemy units.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Mapping, cast

from .state_types import FullGameState, PendingSearch, Plot, Turn
from ...crypto import commit
from ...geometry.hex import distance
from ...geometry.paths import MoveGraph, MoveRules, Prohibited
from ..base import Problem
from . import model

KEY: Final = "plots"


def open_mode(state: FullGameState) -> bool:
    """Hidden forces are plotted on paper only in open games (the referee keeps them otherwise)."""
    return state.get("mode") == "open"


def impulse_number(state: FullGameState) -> int:
    """The plot's ``impulse``: turn * 100 + impulse number (increasing through the game)."""
    imp: Mapping[str, Any] = (state.get("current") or cast(Turn, {})).get("active_impulse") or {}
    return int(state.get("turn", 0)) * 100 + int(imp.get("n", 0))


def records(state: FullGameState, side: str | None = None) -> dict[str, Plot]:
    return {f: r for f, r in (state.get(KEY) or {}).items() if side is None or r["side"] == side}


def screens_now(state: FullGameState, hexmap, side: str) -> list[list]:
    """Every screening corps of ``side`` as [hex, range] (8.62a: range = its cavalry units)."""
    from .cavalry import corps_size, screening_corps

    return sorted([state["leaders"][c]["hex"], corps_size(state, c)] for c in screening_corps(state, side)
                  if state["leaders"][c].get("hex"))


def blocked_now(state: FullGameState, hexmap, side: str) -> list[str]:
    """The hexes a hidden force of ``side`` may not stand in or pass: enemy units and their ZOC."""
    from .zoc import zoc_hexes

    enemy = model.other_side(side)
    return sorted(model.occupied_hexes(state, enemy) | set(zoc_hexes(state, enemy, hexmap)))


def _covered(hexmap, label: str, screens: list[list]) -> bool:
    h = hexmap.parse(label)
    return any(distance(hexmap.parse(c), h) <= rng for c, rng in screens)


# --- hiding and plotting ------------------------------------------------------------------------

def start(state: FullGameState, force: str, here: str) -> Plot:
    """8.62a: ``force`` leaves the map in ``here`` (public); its leaders keep no hex."""
    side = model.force_side(state, force)
    rec: Plot = {"side": side, "from": here, "hidden_at": impulse_number(state), "entries": [], "checks": [],
           "searches": []}
    for lid in model.force_leaders(state, force):
        state["leaders"][lid]["hex"] = None
    state.setdefault(KEY, {})[force] = rec
    return rec


def is_commitment(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def plot_problems(state: FullGameState, side: str, specs, where: str = "plot") -> list[Problem]:
    """Orders ``plot: [{force, commitment}]``: the forces must be the side's hidden forces."""
    if not isinstance(specs, list):
        return [Problem("`plot` is a list of {force, commitment}", "8.62a", [where])]
    mine = records(state, side)
    seen: set[str] = set()
    for i, s in enumerate(specs):
        if not isinstance(s, dict) or set(s) != {"force", "commitment"}:
            return [Problem("each plot is {force, commitment} (`hxref heartland plot` writes it)", "8.62a", [where, i])]
        if s["force"] not in mine:
            return [Problem(f"`{s['force']}` is not one of your hidden forces"
                            + (f" ({', '.join(sorted(mine))})" if mine else " (you have none)"), "8.62a",
                            [where, i, "force"])]
        if s["force"] in seen:
            return [Problem(f"{s['force']} is plotted twice this impulse", "8.62a", [where, i, "force"])]
        seen.add(s["force"])
        if not is_commitment(s["commitment"]):
            return [Problem("a commitment is 64 lower-case hex digits", "8.62a", [where, i, "commitment"])]
    return []


def add_entry(state: FullGameState, hexmap, force: str, commitment_hex: str, mp: int, weather: str) -> dict:
    """Record a plot for this impulse with what the reveal will be checked against."""
    rec = state[KEY][force]
    entry = {"impulse": impulse_number(state), "commitment": commitment_hex, "mp": int(mp), "weather": weather,
             "screens": screens_now(state, hexmap, rec["side"]), "blocked": blocked_now(state, hexmap, rec["side"])}
    rec["entries"].append(entry)
    return entry


def checkpoint(state: FullGameState, hexmap, phasing: str) -> None:
    """At the end of an impulse: what every hidden force's plotted hex must have satisfied."""
    for rec in records(state).values():
        rec["checks"].append({"impulse": impulse_number(state), "own": rec["side"] == phasing,
                              "screens": screens_now(state, hexmap, rec["side"]),
                              "blocked": blocked_now(state, hexmap, rec["side"])})


# --- searches (8.61c) ---------------------------------------------------------------------------

def record_search(state: FullGameState, hidden_side: str, center: str, rng: int, by: str) -> PendingSearch | None:
    """A successful enemy search: the hidden side must answer it in its next orders."""
    if not records(state, hidden_side):
        return None
    pending = state.setdefault("pending_searches", {}).setdefault(hidden_side, [])
    sid = f"s{impulse_number(state)}-{len(pending) + 1}"
    s: PendingSearch = {"id": sid, "impulse": impulse_number(state), "center": center, "range": int(rng), "by": by}
    pending.append(s)
    return s


def search_answer_problems(state: FullGameState, side: str, choice: dict) -> list[Problem]:
    """Every pending search answered once; the forces found are revealed in the same orders."""
    pending = {s["id"]: s for s in (state.get("pending_searches") or {}).get(side, [])}
    answers = choice.get("searched", [])
    if not isinstance(answers, list):
        return [Problem("`searched` is a list of {search, found: [forces]}", "8.61c", ["searched"])]
    got: set[str] = set()
    revealed = {r.get("force") for r in choice.get("reveal", []) if isinstance(r, dict)}
    for i, a in enumerate(answers):
        if not isinstance(a, dict) or set(a) != {"search", "found"} or not isinstance(a["found"], list):
            return [Problem("each answer is {search: ID, found: [forces]}", "8.61c", ["searched", i])]
        if a["search"] not in pending:
            return [Problem(f"no search {a['search']!r} is waiting for your answer", "8.61c", ["searched", i])]
        missing = [f for f in a["found"] if f not in revealed]
        if missing:
            return [Problem(f"{missing[0]} is found by search {a['search']}: reveal it in the same orders",
                            "8.61c", ["searched", i, "found"])]
        got.add(a["search"])
    left = sorted(set(pending) - got)
    if left:
        s = pending[left[0]]
        return [Problem(f"answer the enemy's search {s['id']} (within {s['range']} of {s['center']}, by {s['by']}):"
                        " `searched: [{search: ID, found: [forces within it]}]`", "8.61c", ["searched"])]
    return []


def apply_search_answers(state: FullGameState, side: str, choice: dict) -> list[dict]:
    """Store each 'not found' with the hidden forces it covers; clear the pending searches."""
    pending = {s["id"]: s for s in (state.get("pending_searches") or {}).get(side, [])}
    out = []
    for a in choice.get("searched", []):
        s = pending.get(a["search"])
        if s is None:
            continue
        for force, rec in records(state, side).items():
            if force not in a["found"]:
                rec["searches"].append({k: s[k] for k in ("id", "impulse", "center", "range")})
        out.append({"id": s["id"], "found": list(a["found"])})
    if side in (state.get("pending_searches") or {}):
        state["pending_searches"][side] = []
    return out


# --- revealing ----------------------------------------------------------------------------------

@dataclass
class RevealCheck:
    force: str
    hexes: list[str] = field(default_factory=list)      # the opened plots, in order
    end: str | None = None                               # where the force appears
    problems: list[Problem] = field(default_factory=list)   # input errors: the orders are refused
    breaches: list[Problem] = field(default_factory=list)   # rule breaches found in the opened plots
    rule: str = "8.62a"
    why: str = ""


def reveal_problems(state: FullGameState, side: str, specs) -> list[Problem]:
    if not isinstance(specs, list):
        return [Problem("`reveal` is a list of {force, plots: [{hex, salt}, ...]}", "8.62a", ["reveal"])]
    mine = records(state, side)
    for i, s in enumerate(specs):
        if not isinstance(s, dict) or set(s) != {"force", "plots"} or not isinstance(s["plots"], list):
            return [Problem("each reveal is {force, plots: [{hex, salt}, ...]} "
                            "(`hxref heartland plot --reveal` writes it)", "8.62a", ["reveal", i])]
        if s["force"] not in mine:
            return [Problem(f"`{s['force']}` is not one of your hidden forces", "8.62a", ["reveal", i, "force"])]
        found = open_plots(state, s["force"], s["plots"]).problems
        if found:
            return [Problem(p.message, p.rule, ["reveal", i, *p.path]) for p in found]
    return []


def open_plots(state: FullGameState, force: str, plots: list) -> RevealCheck:
    """Only the commitments (the input): each plot must open its entry."""
    rec = state[KEY][force]
    r = RevealCheck(force)
    entries = rec["entries"]
    if len(plots) != len(entries):
        r.problems.append(Problem(f"{force} has {len(entries)} plots to open, not {len(plots)}", "8.62a", ["plots"]))
        return r
    from .cavalry import plot_choice

    for i, (p, e) in enumerate(zip(plots, entries)):
        if not isinstance(p, dict) or set(p) != {"hex", "salt"}:
            r.problems.append(Problem("each plot is {hex, salt}", "8.62a", ["plots", i]))
            return r
        try:
            ok = commit.matches(e["commitment"], plot_choice(force, str(p["hex"]), e["impulse"]), str(p["salt"]))
        except ValueError as exc:
            r.problems.append(Problem(f"plot {i + 1}: {exc}", "8.62a", ["plots", i, "salt"]))
            return r
        if not ok:
            r.problems.append(Problem(f"plot {i + 1} ({p['hex']}, impulse {e['impulse']}) does not open the "
                                      "commitment recorded for it", "8.62a", ["plots", i]))
            return r
        r.hexes.append(str(p["hex"]))
    return r


def check_reveal(state: FullGameState, hexmap, force: str, plots: list, step_cost) -> RevealCheck:
    """Open the plots and check them against the records (see the module text).

    ``step_cost(weather)`` gives the side's terrain step cost for a weather."""
    rec = state[KEY][force]
    r = open_plots(state, force, plots)
    if r.problems:
        r.why = r.problems[0].message
        return r
    b = r.breaches
    where = rec["from"]
    at_time = [(rec["hidden_at"], where)]
    for i, (label, e) in enumerate(zip(r.hexes, rec["entries"])):
        try:
            target = hexmap.parse(label)
        except Exception as exc:                     # an off-map label is a breach, not a typo to fix
            b.append(Problem(f"plot {i + 1}: {exc}", "8.62a", ["plots", i]))
            continue
        cost_of = step_cost(e["weather"])
        blocked = set(e["blocked"])

        def cost(a, n, screens=e["screens"], blocked=blocked, cost_of=cost_of):
            lab = hexmap.label(n)
            if lab in blocked:
                return Prohibited("enemy units or ZOC")
            if not _covered(hexmap, lab, screens):
                return Prohibited("outside the screen")
            return cost_of(a, n)

        if label != where:
            reach = MoveGraph(hexmap.hexes(), MoveRules(cost)).search(hexmap.parse(where), goal=target)
            spent = reach.cost(target)
            if spent is None or spent > e["mp"]:
                b.append(Problem(f"impulse {e['impulse']}: {force} cannot go from {where} to {label} with "
                                 f"{e['mp']} MP inside the screen and clear of enemy units and ZOC", "8.62a",
                                 ["plots", i]))
        where = label
        at_time.append((e["impulse"], where))

    def hex_at(impulse: int) -> str:
        return [h for t, h in at_time if t <= impulse][-1]

    failed = None
    for c in rec["checks"]:
        here = hex_at(c["impulse"])
        if failed is not None and c["own"] and c["impulse"] > failed["impulse"]:
            b.append(Problem(f"{force} should have appeared in its side's orders after impulse {failed['impulse']}"
                             f" ({failed['why']}); it stayed hidden", "8.62a", ["plots"]))
            break
        if failed is None:
            if here in set(c["blocked"]):
                failed = {"impulse": c["impulse"], "why": f"enemy units or ZOC reached {here}"}
            elif not _covered(hexmap, here, c["screens"]):
                failed = {"impulse": c["impulse"], "why": f"{here} was outside every screen"}
    for s in rec["searches"]:
        here = hex_at(s["impulse"])
        if distance(hexmap.parse(here), hexmap.parse(s["center"])) <= s["range"]:
            b.append(Problem(f"{force} was in {here}, within {s['range']} of {s['center']}, when search {s['id']} "
                             "was answered 'not found'", "8.61c", ["plots"]))
    r.end = where
    r.why = (f"{force} appears in {where}" + (f" (plots: {rec['from']} > " + " > ".join(r.hexes) + ")"
                                               if r.hexes else " where it hid")
             + ("; BREACHES: " + "; ".join(x.message for x in b) if b else "; every plot within the rules"))
    return r


def apply_reveal(state: FullGameState, hexmap, force: str, end: str) -> str:
    """The force appears in ``end`` (or the nearest hex free of enemy units); returns the hex."""
    side = state[KEY][force]["side"]
    enemy = model.occupied_hexes(state, model.other_side(side))
    if end in enemy:
        end = nearest_free_hex(hexmap, end, enemy)
    for lid in model.force_leaders(state, force):
        state["leaders"][lid]["hex"] = end
        state["leaders"][lid].pop("hidden", None)
    del state[KEY][force]
    return end


def nearest_free_hex(hexmap, label: str, taken) -> str:
    """The nearest hex to ``label`` not in ``taken``; ties go to the lowest label."""
    h0 = hexmap.parse(label)
    free = [h for h in hexmap.hexes() if hexmap.label(h) not in taken]
    best = min(free, key=lambda h: (distance(h0, h), hexmap.label(h)))
    return hexmap.label(best)
