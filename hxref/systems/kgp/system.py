"""The KGP campaign referee: the game-system object.

hxref does not play ASL's turns.  It referees what a KGP Campaign Game needs around them:

* ``dD.setup`` (both sides): the Initial Scenario's secret set-up items, sealed
  (objective hexes, HIP units, Known-minefield dummies...: a commitment each,
  made with ``hxref kgp seal``; opened later with ``reveal``);
* ``dD.tT`` (the side moving first): one per scenario turn while ASL is played at the
  table -- the scenario-time rolls the rules call for (Game End dr from turn 6,
  reinforcement drs, the Reserve Release DR, Sniper selection; :mod:`.rolls`),
  rolled with the verifiable dice and logged; secrets opened as the rules say; the
  end of the scenario (a Game End dr that ends it, or ``end: true``);
* ``dD.report`` (both sides): each side's signed report of the scenario's outcome --
  LVP, CVP, hexes held, what happened that the Refit Phase needs; the two must agree
  on every shared fact, or both report again;
* the Refit Phase (8.6, ``games/kgp/charts/refit.yaml``) as a checklist: each step is
  computed (8.603 LVP totals and victory, 8.612 the new CG Date, 8.617 weather),
  recorded from the reports, or skipped with the reason logged; then
* ``dD.refit`` (both sides, sealed): the RG purchase (8.619), fortification purchase
  (8.621), the CPP replenishment each side reports (8.616, text lost) and the
  Idle/Attack chit (8.623), revealed together; both Idle gives an Idle Date and the
  "*" steps repeat; otherwise the next scenario starts;
* after the last CG Date, or when a CG Victory Condition is met, the victory.

Readings (the README's "rules interpretations"): in an umpired game each side's
purchases, CPP, OB and opened secrets are its own (the views), in an open game the
sealed refit choices are revealed to both when both have sealed (a limitation of a
game file both players hold); the scenario's roles come from the chit outcome
(:func:`.campaign.chit_outcome`); the Initial Scenario's roles from the CG file.
"""
from __future__ import annotations

import copy
from functools import lru_cache

from ... import commit
from ...errors import InvalidInput
from ...paths import games_dir
from ..base import Decision, Field, Problem, Section

NAME = "kgp"
SIDES = ("us", "german")
SIDE_NAMES = {"us": "US", "german": "German"}
SHARED_FACTS = ("lvp", "cvp", "hexes", "buildings", "bridge_destroyed_by", "facts")
FACT_KEYS = ("melee", "encircled_or_mined", "prisoners", "fires", "wounded_leaders")
SEAL_KINDS = ("objective_hex", "hip", "minefield", "dummy_minefields", "reserve", "other")


def other(side: str) -> str:
    return "german" if side == "us" else "us"


@lru_cache(maxsize=None)
def refit_chart() -> dict:
    from ...yamlio import load_data_fast

    return load_data_fast(games_dir() / "kgp" / "charts" / "refit.yaml")


@lru_cache(maxsize=None)
def campaign(name: str):
    from .campaign import load_campaign

    return load_campaign(name)


def _seal_problems(items, where: str = "seal") -> list[Problem]:
    if not isinstance(items, list):
        return [Problem("`seal` is a list of {id, kind, commitment} (`hxref kgp seal` writes them)", "9", [where])]
    ids = set()
    for i, s in enumerate(items):
        if not isinstance(s, dict) or set(s) != {"id", "kind", "commitment"}:
            return [Problem("each sealed item is {id, kind, commitment}", "9", [where, i])]
        if s["kind"] not in SEAL_KINDS:
            return [Problem(f"kind is one of {', '.join(SEAL_KINDS)}", "9", [where, i, "kind"])]
        c = s["commitment"]
        if not (isinstance(c, str) and len(c) == 64 and all(x in "0123456789abcdef" for x in c)):
            return [Problem("a commitment is 64 lower-case hex digits", "9", [where, i, "commitment"])]
        if s["id"] in ids:
            return [Problem(f"sealed item {s['id']!r} given twice", "9", [where, i, "id"])]
        ids.add(s["id"])
    return []


def seal_choice(item_id: str, kind: str, value) -> dict:
    """What a sealed secret commits to (``hxref kgp seal``)."""
    return {"id": item_id, "kind": kind, "value": value}


class Kgp:
    name = NAME
    title = "ASL Kampfgruppe Peiper: the campaign referee"
    sides = SIDES

    # --- scenarios -----------------------------------------------------------------------------
    def scenarios(self) -> list[str]:
        return sorted(p.stem for p in (games_dir() / NAME / "campaigns").glob("*.yaml"))

    def load_scenario(self, name: str) -> dict:
        if name not in self.scenarios():
            raise InvalidInput(f"no campaign {name!r} for {NAME}; known: {', '.join(self.scenarios())}", code="E503")
        cg = campaign(name)
        return {"scenario": name, "sides": list(SIDES), "title": f"KGP {cg.id.upper()}: {cg.title}"}

    def setup(self, scenario: dict) -> dict:
        cg = campaign(scenario["scenario"])
        ini = cg.initial
        first = ini.date.label
        return {
            "cg": cg.id, "title": cg.title, "date": first, "dates": [d.label for d in cg.dates],
            "stage": "setup", "mode": scenario.get("table_mode", "umpired"), "turn": 0,
            "scenario": {"date": first, "initial": True, "attacker": ini.moves_first, "defender": other(ini.moves_first),
                         "sets_up_first": ini.sets_up_first, "moves_first": ini.moves_first,
                         "night": cg.date(first).is_night},
            "cpp": {s: ini.sides[s].cpp for s in SIDES}, "fpp": {s: ini.sides[s].fpp for s in SIDES},
            "chits": {s: 0 for s in SIDES}, "chit_limits": dict(cg.attack_chits),
            "roster": [], "cg_lvp": {s: 0 for s in SIDES},
            "sealed": {s: [] for s in SIDES}, "opened": {s: [] for s in SIDES},
            "purchases": {s: [] for s in SIDES}, "rolls": [], "refit": [], "weather": None,
            "secret_rolls": {s: [] for s in SIDES},
            "report_round": 1, "result": None,
        }

    # --- decisions -----------------------------------------------------------------------------
    def decisions(self, state: dict) -> list[Decision]:
        st, d = state["stage"], state["date"]
        seal = Field("list", "sealed secrets: {id, kind, commitment} (`hxref kgp seal`)", optional=True)
        secret = Field("list", "secret drs the rules call for, rolled for you alone: {purpose} (e.g. 7.2 dummy "
                               "minefields, I.3 AT Gun CA)", optional=True)
        if st == "setup":
            return [Decision(id=f"d{d}.setup", sides=SIDES, kind="setup", rule="8.5", dice=True,
                             prompt=f"{d} Initial Scenario: seal your secret set-up items (objective hexes, HIP, "
                                    "dummies), or send an empty list",
                             schema={"seal": seal, "secret_drs": secret}, example={"seal": []})]
        if st == "play":
            sc = state["scenario"]
            keeper = sc["moves_first"]
            t = state["turn"]
            return [Decision(
                id=f"d{d}.t{t}", sides=(keeper,), kind="turn", rule="CG Game End", dice=True,
                prompt=f"{d}, scenario turn {t}: the rolls the rules call for this turn, secrets opened, "
                       "and whether the scenario has ended",
                schema={"rolls": Field("list", "{roll: game_end|reinforcement|reserve_release|sniper, side, ...}",
                                       optional=True),
                        "reveal": Field("list", "opened secrets: {side, id, value, salt}", optional=True),
                        "end": Field("bool", "the scenario has ended (a Game End dr, or its last turn)",
                                     optional=True),
                        "secret_drs": secret,
                        "bridge_destroyed_by": Field("str", "CG-II: who destroyed the NN6 bridge", optional=True)},
                example={"rolls": [{"roll": "game_end", "side": keeper}], "end": False})]
        if st == "report":
            r = state["report_round"]
            return [Decision(
                id=f"d{d}.report" + (f".{r}" if r > 1 else ""), sides=SIDES, kind="report", rule="8.603", dice=True,
                prompt=f"{d}: your signed report of the scenario's outcome (LVP, CVP, hexes held, facts for the "
                       "Refit Phase); both reports must agree",
                schema={"lvp": Field("dict", "Current LVP Total per side {us: N, german: N}"),
                        "cvp": Field("dict", "CVP gained per side"),
                        "hexes": Field("dict", "LVP hexes held per side", optional=True),
                        "buildings": Field("dict", "building -> the side holding all its hexes", optional=True),
                        "bridge_destroyed_by": Field("str", "CG-II bridge", optional=True),
                        "facts": Field("dict", f"true/false: {', '.join(FACT_KEYS)}", optional=True),
                        "lost": Field("list", "your units eliminated (your own)", optional=True),
                        "notes": Field("str", "anything else for the record", optional=True)},
                example={"lvp": {"us": 0, "german": 0}, "cvp": {"us": 0, "german": 0}, "facts": {}})]
        if st == "refit":
            return [Decision(
                id=f"d{d}.refit", sides=SIDES, kind="refit", rule="8.6", secret=True, simultaneous=True, dice=True,
                prompt=f"{d} Refit Phase: your CPP replenishment (8.616), RG purchases (8.619), fortifications "
                       "(8.621) and your Idle/Attack chit (8.623), sealed",
                schema={"chit": Field("str", "idle or attack (8.623)", choices=("idle", "attack")),
                        "cpp_replenishment": Field("int", "CPP your side receives (8.616, recorded)", minimum=0,
                                                   optional=True),
                        "purchase": Field("list", "RG ids bought (8.619; games/kgp/charts/rg.yaml)", optional=True),
                        "fpp": Field("list", "fortifications bought (8.621)", optional=True),
                        "seal": seal,
                        "notes": Field("str", "your record of the recorded steps", optional=True)},
                example={"chit": "idle", "purchase": [], "seal": []})]
        return []

    def check(self, state: dict, decision: Decision, side: str, choice: dict) -> list[Problem]:
        from . import flow

        return flow.check(state, decision, side, choice)

    def resolve(self, state: dict, decision: Decision, answers: dict, dice) -> tuple[dict, list[dict]]:
        from . import flow

        events: list[dict] = []
        flow.resolve(state, decision, answers, dice, events)
        return state, events

    # --- views and reports ---------------------------------------------------------------------
    def view(self, state: dict, side: str | None, mode: str) -> dict:
        v = copy.deepcopy(state)
        v["viewer"] = side
        if mode == "umpired":                # 8.14/8.15: purchases, CPP, secrets are each side's own
            for key in ("purchases", "opened", "cpp", "secret_rolls"):
                v[key] = {s: x for s, x in state[key].items() if s == side}
            # the other side's secrets: that one was sealed, and once opened its id and kind (the opening
            # is told to both); never the commitment, nor the id before (`objective-I2-1` names an RG bought)
            v["sealed"] = {s: [x if s == side else
                               {"id": x["id"], "kind": x["kind"], "opened": True} if x.get("opened") else
                               {"sealed_on": x["date"]} for x in items]
                           for s, items in state["sealed"].items()}
            v["rolls"] = [r for r in state["rolls"] if not r.get("private") or r.get("side") == side]
        return v

    def report(self, view: dict) -> list[Section]:
        from .report import sections

        return sections(view)

    def template(self, view: dict, decision: Decision, side: str) -> tuple[list[str], dict]:
        """Notes and a skeleton for ``hxref template``: the keys :func:`.flow.check` accepts, each with its
        meaning and rule (``choice.KEY[].SUB`` a key of KEY's entries, ``?`` an optional one)."""
        secret_drs = ("choice.secret_drs: secret drs rolled for you alone and shown to you only (9), a list of "
                      "{purpose}, e.g. [{purpose: dummy minefields}]")
        seal = (f"choice.seal: sealed secrets (9), a list of {{id, kind, commitment}} as `hxref kgp seal` writes "
                f"them; kind is one of {', '.join(SEAL_KINDS)}; the value and salt stay in your secrets file")
        example = dict(decision.example)
        if decision.kind == "setup":
            return [seal, secret_drs], example
        if decision.kind == "turn":
            from .rolls import REQUESTS
            from .scenario_rolls import NAMES, request_problems

            t = view.get("turn", 0)
            notes = ["choice.rolls: the rolls the rules call for this turn, made in order (9), a list of "
                     "{roll, side?, rg?}:",
                     f"choice.rolls[].roll: one of {', '.join(NAMES)}",
                     "choice.rolls[].side: us or german, who rolls (default: you)",
                     "choice.rolls[].rg: the RG a per-RG reinforcement dr is for (III.5)",
                     "choice.reveal: secrets opened as the rules say (9), a list of {side, id, value, salt}: the "
                     "id sealed, its value and salt from the owner's secrets file",
                     "choice.end: true when the scenario has ended (a Game End dr, or its last turn) (CG Game End)",
                     secret_drs,
                     "choice.bridge_destroyed_by: us or german, who destroyed the NN6 bridge (8.52)", "",
                     f"Rolls the rules allow now (turn {t}):"]
            allowed = []
            for name in NAMES:
                for who in SIDES:
                    try:
                        ok = not request_problems(name, t, who, view, {"roll": name, "side": who})
                    except Exception:              # noqa: BLE001 -- a hint only; the checker decides
                        ok = False
                    if ok:
                        q = REQUESTS[name]
                        allowed.append({"roll": name, "side": who})
                        notes.append(f"  {name}, side {who}: {q.label}, {q.when} ({q.rule})")
            if not allowed:
                notes.append("  none")
            rolls = [r for r in example.get("rolls", []) if r in allowed]
            return notes, {**example, "rolls": rolls}
        if decision.kind == "report":
            return ["choice.lvp: the Current LVP Total per side, {us, german}, whole numbers (8.603)",
                    "choice.cvp: the CVP each side gained, {us, german}, whole numbers (8.603)",
                    "choice.hexes: the LVP hexes each side holds, {us?, german?}, lists of hexes (8.603)",
                    "choice.buildings: a mapping building: the side holding all its hexes (8.603)",
                    "choice.bridge_destroyed_by: us or german, who destroyed the NN6 bridge (8.52)",
                    f"choice.facts: what the Refit Phase needs, true or false: "
                    f"{{{', '.join(k + '?' for k in FACT_KEYS)}}} (8.6)",
                    "choice.lost: your units eliminated, for your record (8.6)",
                    "choice.notes: anything else for the record",
                    "Both reports must agree on lvp, cvp, hexes, buildings, the bridge and the facts."], example
        return [decision.prompt], example


SYSTEM = Kgp()


def opens(item: dict, value, salt: str) -> bool:
    """Does (``value``, ``salt``) open the sealed ``item``?"""
    try:
        return commit.matches(item["commitment"], seal_choice(item["id"], item["kind"], value), salt)
    except ValueError:
        return False


