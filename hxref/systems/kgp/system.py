"""The KGP campaign referee: the game-system object.

hxref does not play ASL's turns.  It referees what a KGP Campaign Game needs around them:

* ``dD.setup`` (both sides, sealed): the Initial Scenario begins at Refit step 8.618
  (8.5), so each side buys RGs with its initial CPP (8.619; not those marked in the
  "CG Max" column, 8.2) and seals its secret set-up items (objective hexes, HIP units,
  Known-minefield dummies...: a commitment each, made with ``hxref kgp seal``; opened
  later with ``reveal``) and may place its counters (``placements``: on-map within
  8.51-8.53's set-up lines, German Reserves under SSR CG7a, or coming on by an Entry
  Area, SSR CG6; :mod:`.setup_rules`);
* ``dD.tT`` (the side moving first): one per scenario turn while ASL is played at the
  table -- the scenario-time rolls the rules call for (Game End dr from turn 6,
  reinforcement drs, the Reserve Release DR, Sniper selection; :mod:`.rolls`),
  rolled with the verifiable dice and logged; secrets opened as the rules say; the
  end of the scenario (only a Game End dr that ends it: CG scenarios have no fixed length);
  German Reserves released (``release``; SSR CG7b: LOS to an enemy ground unit within 6
  hexes, or an attack);
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

Readings (games/kgp/readings.md): in an umpired game each side's
purchases, CPP, OB and opened secrets are its own (the views), in an open game the
sealed refit choices are revealed to both when both have sealed (a limitation of a
game file both players hold); the scenario's roles come from the chit outcome
(:func:`.chits.chit_outcome`); the Initial Scenario's roles from the CG file.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from ...base.errors import InvalidInput
from ...kit.protocol import GameSystem, Result, Template
from ...kit.views import AllowList
from ..base import Decision, Field, Problem, Section
from . import flow
from .campaign import load_campaign
from .info import INFO
from .rolls import REQUESTS
from .scenario_rolls import NAMES, request_problems
from .sealing import OBJECTIVE_TERRAIN, SEAL_KINDS
from .setup_rules import KINDS
from .sides import SIDES, other
from .state_types import KgpState
from ...kit.events import Event, event_dicts

NAME = "kgp"
#: the commitment a stand-fast set-up seals for each Objective Hex: no value and salt open it
UNOPENED = "0" * 64
#: 8.2 Strategic Location: the kinds a report may claim; a unit's kind for 8.606 and 8.613
STRATEGIC_KINDS = ("building", "rubble", "bridge", "entrenchment", "objective", "vehicle", "gun")
UNIT_KINDS = ("infantry", "vehicle", "gun")
FACT_KEYS = ("melee", "encircled_or_mined", "prisoners", "fires", "wounded_leaders")


#: the state fields both sides see in an umpired game (the campaign's calendar, the roster on the
#: map, the public rolls, victory points, the report rounds)
PUBLIC_KEYS = ("cg", "title", "date", "dates", "stage", "mode", "turn", "scenario", "chits",
               "chit_limits", "roster", "cg_lvp", "rolls", "refit", "weather", "report_round", "result",
               "last_report", "refit_checks", "san", "elr", "mist", "random_weather", "fanaticism", "pf",
               "strategic", "blazes", "wrecks")
#: the state fields kept per side ({side: ...}) of which a side sees its own part only (8.14, 8.15, 9)
OWN_KEYS = ("purchases", "opened", "cpp", "fpp", "secret_rolls", "refit_rolls", "fortifications", "oba_removed",
            "dummy_minefields", "retained", "placements")


def _sealed(state: Mapping[str, Any], side: str | None) -> dict:
    """The other side's secrets: that one was sealed, and once opened its id and kind (the opening
    is told to both); never the commitment, nor the id before (`objective-I2-1` names an RG bought)."""
    return {s: [copy.deepcopy(x) if s == side else
                {"id": x["id"], "kind": x["kind"], "opened": True} if x.get("opened") else
                {"sealed_on": x["date"]} for x in items]
            for s, items in state["sealed"].items()}


#: what a side sees in an umpired game (8.14, 8.15: purchases, CPP, opened secrets and secret drs
#: are each side's own); every other field is the umpire's
VIEW = AllowList(PUBLIC_KEYS, OWN_KEYS, {"sealed": _sealed})


class Kgp(GameSystem[KgpState]):
    # name, title and sides come from INFO; no map (map_view's default None)
    info = INFO

    # --- scenarios: the Campaign Games -------------------------------------------------------
    def scenarios(self) -> list[str]:
        return sorted(p.stem for p in (self.info.games_path() / "campaigns").glob("*.yaml"))

    def load_scenario(self, name: str) -> dict:
        if name not in self.scenarios():
            raise InvalidInput(f"no campaign {name!r} for {NAME}; known: {', '.join(self.scenarios())}", code="E503")
        cg = load_campaign(self.charts, name)
        return {"scenario": name, "sides": list(SIDES), "title": f"KGP {cg.id.upper()}: {cg.title}"}

    def setup(self, scenario: dict) -> KgpState:
        cg = load_campaign(self.charts, scenario["scenario"])
        ini = cg.initial
        first = ini.date.label
        state: KgpState = {
            "cg": cg.id, "title": cg.title, "date": first, "dates": [d.label for d in cg.dates],
            "stage": "setup", "mode": scenario.get("table_mode", "umpired"), "turn": 0,
            "scenario": {"date": first, "initial": True, "attacker": ini.moves_first, "defender": other(ini.moves_first),
                         "sets_up_first": ini.sets_up_first, "moves_first": ini.moves_first,
                         "night": cg.date(first).is_night},
            "cpp": {s: ini.sides[s].cpp for s in SIDES}, "fpp": {s: ini.sides[s].fpp for s in SIDES},
            "chits": {s: 0 for s in SIDES}, "chit_limits": dict(cg.attack_chits),
            "roster": [], "cg_lvp": {s: 0 for s in SIDES},
            "sealed": {s: [] for s in SIDES}, "opened": {s: [] for s in SIDES},
            "purchases": {s: [] for s in SIDES}, "rolls": [], "refit": [], "weather": cg.weather.get(first),
            "secret_rolls": {s: [] for s in SIDES},
            "report_round": 1, "result": None,
            "san": {s: ini.sides[s].san for s in SIDES}, "elr": {s: ini.sides[s].elr for s in SIDES},
            "mist": ini.mist,
            # CG3: the historical weather of the CG Date, or the random table when both players agreed
            "random_weather": bool((scenario.get("options") or {}).get("random_weather")),
        }
        return state

    # --- decisions -----------------------------------------------------------------------------
    def decisions(self, state: KgpState) -> list[Decision]:
        st, d = state["stage"], state["date"]

        # 9: the shapes of sealed items, secret drs and opened secrets
        seal = Field("list", "sealed secrets: {id, kind, commitment} (`hxref kgp seal`)", optional=True, rule="9",
                     items=Field("dict", "{id, kind, commitment}", fields={
                         "id": Field("str"), "kind": Field("str", choices=SEAL_KINDS),
                         "commitment": Field("str", "64 lower-case hex digits")}))
        secret = Field("list", "secret drs the rules call for, rolled for you alone: {purpose} (e.g. 7.2 dummy "
                               "minefields, I.3 AT Gun CA)", optional=True, rule="9",
                       items=Field("dict", "{purpose: text}", fields={"purpose": Field("str", "what the dr is for")}))
        side_f = Field("str", "us or german", choices=SIDES)
        fanatic = Field("bool", "German: declare Fanaticism for the coming scenario (SSR CG14)", optional=True,
                        rule="CG14")
        # 8.621: fortifications bought with FPP (games/kgp/charts/fortifications.yaml)
        fpp = Field("list", "fortifications bought with FPP: {fortification, count} (8.621)", optional=True,
                    rule="8.621", items=Field("dict", fields={
                        "fortification": Field("str", "an id of games/kgp/charts/fortifications.yaml"),
                        "count": Field("int", minimum=1, optional=True)}))
        # 8.614, 8.618, 8.620: the Refit dice a side's sealed orders ask for (refit_rolls.py)
        refit_rolls = Field("list", "Refit drs rolled for you alone: {step: 8.614|8.618|8.620, what?, rg?}",
                            optional=True, rule="8.6", items=Field("dict", fields={
                                "step": Field("str", choices=("8.614", "8.618", "8.620")),
                                "what": Field("str", "the weapon or unit the dr is for", optional=True),
                                "rg": Field("str", "8.620: the RG received now", optional=True)}))
        bridge = Field("str", "CG-II: who destroyed the NN6 bridge", choices=SIDES, optional=True, nullable=True,
                       rule="8.52")
        per_side = Field("dict", "a whole number for us and german", rule="8.603",
                         fields={s: Field("int", minimum=0) for s in SIDES})
        # 8.51-8.53, SSR CG6, CG7: where each counter or stack sets up, or the Entry Area it comes on by
        placements = Field("list", "your set-up: {id?, rg?, unit?, kind, hex | enter, ...} (8.51-8.53, SSR CG6, CG7)",
                           optional=True, rule="CG7", items=Field("dict", fields={
                               "id": Field("str", "the counter's id (a Reserve's, for its release)", optional=True),
                               "rg": Field("str", "the RG it belongs to", optional=True),
                               "unit": Field("str", "the unit, e.g. PzKpfw VIb, M4A3, 8-0", optional=True),
                               "kind": Field("str", choices=KINDS),
                               "hex": Field("str", "the hex it sets up in", optional=True),
                               "enter": Field("str", "the Entry Area's arrow hex it comes on by (or CG-I German: "
                                                     "south)", optional=True),
                               "entry_hex": Field("str", "the edge hex it enters at", optional=True),
                               "turn": Field("int", "the turn it may enter from", minimum=1, optional=True),
                               "reserve": Field("bool", "German: set up as a Reserve (SSR CG7a)", optional=True),
                               "hip": Field("bool", optional=True),
                               "level": Field("int", "the Location's level (0 ground)", minimum=0, optional=True),
                               "building": Field("str", "CG-I US: the building hex numbered 19-34 it is within 3 "
                                                        "hexes of", optional=True),
                               "fortification": Field("str", "an id of the fortification chart", optional=True),
                               "ca": Field("str", "a Gun's recorded Covered Arc (I.3), a hexspine", optional=True),
                               "vca": Field("str", "a vehicle's VCA hexside", optional=True),
                               "hooked": Field("bool", optional=True), "limbered": Field("bool", optional=True),
                               "ft": Field("bool", "CG-I: this M4A3 carries the FT (I.4)", optional=True)}))
        if st == "setup":
            # 8.5: the Initial Scenario starts at Refit step 8.618: the initial CPP buy RGs (8.619), sealed.
            # Reading: in an umpired game the files go to the umpire alone (neither side sees the other's
            # orders), so the answer is already sealed; in an open game both hold the file, so the orders
            # are committed and revealed together, as a Refit Phase's are
            return [Decision(id=f"d{d}.setup", sides=SIDES, kind="setup", rule="8.5",
                             secret=state.get("mode") == "open", simultaneous=True, dice=True,
                             prompt=f"{d} Initial Scenario, sealed: the RGs you buy with your initial CPP (8.5, "
                                    "8.619) and your secret set-up items (objective hexes, HIP, dummies)",
                             schema={"purchase": Field("list", "RG ids bought with the initial CPP, e.g. [I2] "
                                                               "(8.5, 8.619; not those marked in CG Max, 8.2)",
                                                       optional=True, rule="8.619", items=Field("str")),
                                     "fpp": fpp, "seal": seal, "secret_drs": secret, "fanaticism": fanatic,
                                     "placements": placements,
                                     "rolls": replace(refit_rolls, help="8.618 and 8.620 drs (8.5: the Initial "
                                                                        "Scenario starts at 8.618)")},
                             example={"purchase": [], "seal": []})]
        if st == "play":
            sc = state["scenario"]
            keeper = sc["moves_first"]
            t = state["turn"]
            return [Decision(
                id=f"d{d}.t{t}", sides=(keeper,), kind="turn", rule="CG Game End", dice=True,
                prompt=f"{d}, scenario turn {t}: the rolls the rules call for this turn, secrets opened, "
                       "and whether the scenario has ended",
                schema={"rolls": Field("list", "{roll: game_end|reinforcement|reserve_release|sniper, side, ...}",
                                       optional=True, rule="9", items=Field("dict", fields={
                                           "roll": Field("str", choices=NAMES), "side": replace(side_f, optional=True),
                                           "rg": Field("any", "the RG that enters", optional=True)})),
                        "reveal": Field("list", "opened secrets: {side, id, value, salt, meets?}", optional=True,
                                        rule="9", items=Field("dict", fields={
                                            "side": side_f, "id": Field("any"), "value": Field("any"),
                                            "salt": Field("any"),
                                            "meets": Field("str", "an Objective Hex: the terrain condition its hex "
                                                                  "meets (8.2)", optional=True,
                                                           choices=tuple(OBJECTIVE_TERRAIN))})),
                        "end": Field("bool", "end the scenario if the Game End dr asked for in `rolls` ends it "
                                                    "(CG Game End: from Turn 6; only the dr ends it)",
                                     optional=True, rule="CG Game End"),
                        "secret_drs": secret,
                        "pf": Field("dict", "German PF (SSR CG13): squads added this turn (Turn 1: the non-Reserve "
                                            "squads set up on-map) and PF shots fired", optional=True, rule="CG13",
                                    fields={"squads": Field("int", minimum=0, optional=True),
                                            "shots": Field("int", minimum=0, optional=True)}),
                        "bridge_destroyed_by": bridge,
                        "release": Field("list", "German Reserves released (SSR CG7b): {id, by: los|attack, "
                                                 "enemy_hex}", optional=True, rule="CG7b", items=Field("dict", fields={
                                                     "id": Field("str", "the Reserve Cloaking counter's id"),
                                                     "by": Field("str", choices=("los", "attack")),
                                                     "enemy_hex": Field("str", "by los: the enemy ground unit's hex",
                                                                        optional=True)})),
                        "guns": Field("list", "CG-I: US Guns first revealed, their CA dr (I.3): {id, secret?}",
                                      optional=True, rule="I.3", items=Field("dict", fields={
                                          "id": Field("str", "the Gun's placement id"),
                                          "secret": Field("bool", "an AT Gun attacked before revealed: the US's "
                                                                  "secret dr", optional=True)}))},
                example={"rolls": [{"roll": "game_end", "side": keeper}], "end": False})]
        if st == "report":
            r = state["report_round"]
            return [Decision(
                # a report carries each side's own units and Escapes (8.606, 8.15): in an open game, where
                # both hold the file, it is committed and revealed, so the second reporter cannot read the first's
                id=f"d{d}.report" + (f".{r}" if r > 1 else ""), sides=SIDES, kind="report", rule="8.603", dice=True,
                secret=state.get("mode") == "open", simultaneous=True,
                prompt=f"{d}: your signed report of the scenario's outcome (LVP, CVP, hexes held, facts for the "
                       "Refit Phase); both reports must agree",
                schema={"lvp": replace(per_side, help="Current LVP Total per side {us: N, german: N}"),
                        "cvp": replace(per_side, help="CVP gained per side"),
                        "hexes": Field("dict", "the LVP hexes each side holds: {us: [ChNN6, ...], german: [...]}",
                                       optional=True, nullable=True, fields={
                                           s: Field("list", optional=True, items=Field("str")) for s in SIDES}),
                        "buildings": Field("dict", "building -> the side holding all its hexes", optional=True),
                        "lvp_buildings": Field("dict", "8.2 LVP: an LVP building -> {side, rubbled?: [hexes], held?: "
                                                       "Locations}; hxref counts its LVP from its Locations",
                                               optional=True, nullable=True, rule="8.2"),
                        "bridge_destroyed_by": bridge,
                        "facts": Field("dict", f"true/false: {', '.join(FACT_KEYS)}", optional=True, rule="8.6",
                                       fields={k: Field("bool", optional=True) for k in FACT_KEYS}),
                        "lost": Field("list", "your units eliminated (your own)", optional=True),
                        "checks": Field("list", "8.604: your units' checks, {unit, kind: encirclement|minefield, "
                                                "morale, drm?}", optional=True, rule="8.604",
                                        items=Field("dict", fields={
                                            "unit": Field("str", "the unit and its hex"),
                                            "kind": Field("str", choices=("encirclement", "minefield")),
                                            "morale": Field("int", minimum=1),
                                            "drm": Field("int", "a leader's DRM", optional=True)})),
                        # 8.2, 8.605: the Strategic Locations each side controls, and the Blaze hexes (not Enterable)
                        "strategic": Field("list", "the Strategic Locations each side controls at the end: {hex, side, "
                                                   "kind, ...} (8.2; both reports agree)", optional=True,
                                           rule="8.605", items=Field("dict", fields={
                                               "hex": Field("str"), "side": side_f,
                                               "kind": Field("str", choices=STRATEGIC_KINDS),
                                               "ma_mm": Field("int", "a vehicle's functioning MA", minimum=0,
                                                              optional=True),
                                               "ft": Field("bool", "a vehicle's functioning FT MA", optional=True),
                                               "immobile": Field("bool", optional=True),
                                               "abandoned": Field("bool", optional=True),
                                               "hooked": Field("bool", "a Gun", optional=True),
                                               "malfunctioned": Field("bool", "a Gun", optional=True)})),
                        "blazes": Field("list", "Terrain Blaze hexes (not Enterable, 8.2; both reports agree)",
                                        optional=True, rule="8.2", items=Field("str")),
                        # 8.606: a side's own units on the map or in a Holding Box, and where each Escapes to
                        "units": Field("list", "your units on the map or in a Holding Box: {unit, hex | box, kind?, "
                                               "escape_to?} (8.606)", optional=True, rule="8.606",
                                       items=Field("dict", fields={
                                           "unit": Field("str"), "hex": Field("str", optional=True),
                                           "box": Field("str", "an Entry Area's arrow hex", optional=True),
                                           "kind": Field("str", choices=UNIT_KINDS, optional=True),
                                           "escape_to": Field("str", "a friendly setup-area hex or an Eligible "
                                                                     "Entry Area's arrow hex", optional=True)})),
                        "notes": Field("str", "anything else for the record", optional=True)},
                example={"lvp": {"us": 0, "german": 0}, "cvp": {"us": 0, "german": 0}, "facts": {}})]
        if st == "refit":
            return [Decision(
                id=f"d{d}.refit", sides=SIDES, kind="refit", rule="8.6", secret=True, simultaneous=True, dice=True,
                prompt=f"{d} Refit Phase: your CPP replenishment (8.616), RG purchases (8.619), fortifications "
                       "(8.621) and your Idle/Attack chit (8.623), sealed",
                schema={"chit": Field("str", "idle or attack (8.623)", choices=("idle", "attack"), rule="8.623"),
                        "cpp_replenishment": Field("int", "CPP your side receives (8.616, recorded)", minimum=0,
                                                   optional=True, nullable=True, rule="8.616"),
                        "purchase": Field("list", "RG ids bought, e.g. [I2, V5] (8.619; games/kgp/charts/rg.yaml)",
                                          optional=True, rule="8.619", items=Field("str")),
                        "fpp": fpp,
                        "rolls": refit_rolls,
                        "fanaticism": fanatic,
                        "oba_removed": Field("list", "your OBA RGs Used or eliminated, no longer held (SSR CG15, "
                                                     "CG22)", optional=True, rule="CG15", items=Field("str")),
                        "seal": seal,
                        "shift": Field("list", "Retained units that Shift (8.613): {unit, to: a friendly setup-area "
                                               "hex or an Eligible Entry Area's arrow hex}", optional=True,
                                       rule="8.613", items=Field("dict", fields={
                                           "unit": Field("str"), "to": Field("str")})),
                        "notes": Field("str", "your record of the recorded steps", optional=True)},
                example={"chit": "idle", "purchase": [], "seal": []})]
        return []

    def check(self, state: KgpState, decision: Decision, side: str, choice: dict) -> list[Problem]:
        return flow.check(self.charts, state, decision, side, choice)

    def resolve(self, state: KgpState, decision: Decision, answers: dict, dice) -> tuple[KgpState, list[dict]]:
        events: list[Event] = []
        flow.resolve(self.charts, state, decision, answers, dice, events)   # the engine's copy, updated in place
        return state, event_dicts(events)

    # --- views and reports ---------------------------------------------------------------------
    def view(self, state: KgpState, side: str | None, mode: str) -> dict:
        """What ``side`` may see (None: the public), built by allow-list: a state field not named
        in :data:`PUBLIC_KEYS` or :data:`OWN_KEYS` is nobody's but the umpire's.  In open and solo
        games every player holds the game file, so the view is the whole state."""
        if mode != "umpired":
            return {**copy.deepcopy(state), "viewer": side}
        return {**VIEW.view(state, side), "viewer": side}

    def report(self, view: Mapping[str, Any]) -> list[Section]:
        from .report import sections

        return sections(view)

    def brief(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[str]:
        from .brief import brief

        return brief(events)

    def result(self, state: KgpState) -> Result | None:
        """The CG victory: the winner's lead in CG LVP over the other side (below 0 when a CG Victory
        Condition gave the win to the side with fewer).  None while the campaign goes on."""
        r = state.get("result")
        if not r:
            return None
        winner = r.get("winner")
        lvp = state.get("cg_lvp") or {}
        margin = 0
        if winner and lvp:
            margin = lvp.get(winner, 0) - max((lvp.get(s, 0) for s in SIDES if s != winner), default=0)
        lvps = ", ".join(f"{s} {n}" for s, n in lvp.items())
        return Result(winner, margin, f"rule {r.get('rule')}; CG LVP {lvps}")

    def stand_fast(self, state: KgpState, decision: Decision, side: str) -> dict:
        """A late side's answer under stand-fast: no RG bought, and at the set-up each Objective Hex
        the Initial OB needs (8.2) sealed empty (a commitment no hex opens: the side named none);
        at a scenario turn no roll asked for (the scenario goes on); a report and a Refit Phase
        as their examples (nothing gained, the Idle chit)."""
        if decision.kind == "setup":
            from .purchase import ob_objective_ids

            return {"purchase": [], "seal": [{"id": i, "kind": "objective_hex", "commitment": UNOPENED}
                                             for i in ob_objective_ids(self.charts, state["cg"], side)]}
        if decision.kind == "turn":
            return {}
        return super().stand_fast(state, decision, side)

    def template(self, view: Mapping[str, Any], decision: Decision, side: str) -> Template:
        """Notes and a skeleton for ``hxref template``: the keys :func:`.flow.check` accepts, each with its
        meaning and rule (``choice.KEY[].SUB`` a key of KEY's entries, ``?`` an optional one)."""
        notes, choice = self._template(view, decision, side)
        return Template(notes, choice)

    def _template(self, view: Mapping[str, Any], decision: Decision, side: str) -> tuple[list[str], dict]:
        secret_drs = ("choice.secret_drs: secret drs rolled for you alone and shown to you only (9), a list of "
                      "{purpose}, e.g. [{purpose: dummy minefields}]")
        seal = (f"choice.seal: sealed secrets (9), a list of {{id, kind, commitment}} as `hxref kgp seal` writes "
                f"them; kind is one of {', '.join(SEAL_KINDS)}; the value and salt stay in your secrets file")
        example = dict(decision.example)
        if decision.kind == "setup":
            from .purchase import ob_objective_ids

            # 8.2 Objective Hex: each I/HW RG of the side's Initial OB needs one; the skeleton lists their
            # ids with a placeholder commitment that `hxref kgp seal` replaces
            ids = ob_objective_ids(self.charts, view["cg"], side)
            obs = [{"id": i, "kind": "objective_hex", "commitment": UNOPENED} for i in ids]
            return ["choice.purchase: the RGs bought with the initial CPP (8.5, 8.619), a list of RG ids of "
                    "games/kgp/charts/rg.yaml; an RG whose id begins with I or HW needs its Objective Hex sealed "
                    "as objective-<RG>-<n> (8.2); RGs marked in the CG Max column may not be bought (8.2)",
                    seal, secret_drs,
                    "choice.placements: your set-up (8.51-8.53), one a counter or stack: {id?, rg?, unit?, kind: "
                    "mmc|leader|vehicle|gun|sw|fortification|dummy, hex (on-map) or enter (an Entry Area's arrow "
                    "hex, SSR CG6), entry_hex?, turn?, reserve? (German, SSR CG7a; needs id), hip?, level?, "
                    "building? (CG-I US: the building hex numbered 19-34), ca? (a US Gun's CA, I.3), vca?, ft?}",
                    "choice.seal must hold the Objective Hex of each I or HW RG of your Initial OB (8.2): "
                    + (", ".join(ids) or "none") + "; replace each placeholder commitment (0...0) with the one "
                    f"`hxref kgp seal GAME --side {side} --id ID --kind objective_hex --value HEX` prints"], \
                {**example, "seal": obs}
        if decision.kind == "turn":
            t = view.get("turn", 0)
            notes = ["choice.rolls: the rolls the rules call for this turn, made in order (9), a list of "
                     "{roll, side?, rg?}:",
                     f"choice.rolls[].roll: one of {', '.join(NAMES)}",
                     "choice.rolls[].side: us or german, who rolls (default: you)",
                     "choice.rolls[].rg: the RG a per-RG reinforcement dr is for (III.5)",
                     "choice.reveal: secrets opened as the rules say (9), a list of {side, id, value, salt}: the "
                     "id sealed, its value and salt from the owner's secrets file",
                     "choice.reveal[].meets: an Objective Hex only (8.2): the condition its hex meets, "
                     + ", ".join(f"{k} ({v})" for k, v in OBJECTIVE_TERRAIN.items())
                     + "; a hex already a Strategic Location when designated is refused",
                     "choice.end: a CG scenario has no fixed length and ends only on a Game End dr hxref rolls (from "
                     "Turn 6): `end: true` is refused without a game_end roll, and ends nothing the dr does not "
                     "(CG Game End)",
                     secret_drs,
                     "choice.bridge_destroyed_by: us or german, who destroyed the NN6 bridge (8.52)",
                     "choice.release: German Reserves released (CG7b), a list of {id, by: los (an enemy ground "
                     "unit within 6 hexes: enemy_hex) | attack}",
                     "choice.guns: CG-I, US Guns first revealed (I.3), a list of {id, secret?}: hxref rolls the dr "
                     "that fixes the recorded CA (secret: an AT Gun attacked first, the dr the US's alone)",
                     "choice.pf: German PF (CG13): {squads: the squads set up on-map (Turn 1) or released or "
                     "entering this turn, shots: PF shots fired}; 1.5 shots a squad, a half shot is no PF", "",
                     f"Rolls the rules allow now (turn {t}):"]
            allowed = []
            # a view holds every key request_problems reads (cg, date, scenario, rolls: PUBLIC_KEYS)
            public = cast(KgpState, view)
            for name in NAMES:
                for who in SIDES:
                    try:
                        ok = not request_problems(self.charts, name, t, who, public,
                                                  {"roll": name, "side": who})
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
                    "choice.lvp_buildings: the LVP buildings a side holds, {building: {side, rubbled?: [its rubbled "
                    "hexes], held?: Locations held}} (games/kgp/charts/lvp.yaml); each counts value x its existing "
                    "Locations, rubble included (8.2 LVP), and the side's Current LVP Total must cover it",
                    "choice.bridge_destroyed_by: us or german, who destroyed the NN6 bridge (8.52)",
                    f"choice.facts: what the Refit Phase needs, true or false: "
                    f"{{{', '.join(k + '?' for k in FACT_KEYS)}}} (8.6)",
                    "choice.lost: your units eliminated, for your record (8.6)",
                    "choice.checks: 8.604, your units' checks hxref rolls: a list of {unit, kind: encirclement "
                    "(1TC, failure eliminates) | minefield (NTC, failure is Casualty Reduction), morale, drm?} "
                    "(needs facts.encircled_or_mined)",
                    "choice.notes: anything else for the record",
                    "Both reports must agree on lvp, cvp, hexes, buildings, lvp_buildings, the bridge and the "
                    "facts."], example
        if decision.kind == "refit":
            return [decision.prompt,
                    "choice.cpp_replenishment: the CPP your side receives (8.616), at most your Initial CPP "
                    "(stand-in bound)",
                    "choice.purchase: RG ids (8.619); an I or HW RG needs `objective-<RG>-<n>` sealed in choice.seal",
                    "choice.rolls: Refit drs rolled for you alone: {step: 8.614, what} (repair), {step: 8.618, what} "
                    "(German Ammunition Shortage), {step: 8.620, rg} (German strength of an RG bought now)",
                    "choice.fpp: fortifications bought with FPP (8.621): {fortification, count}; ids of "
                    "games/kgp/charts/fortifications.yaml",
                    "choice.fanaticism: German, true to declare Fanaticism for the coming scenario (CG14)",
                    "choice.oba_removed: your OBA RGs Used or eliminated (CG15, CG22)", seal], example
        return [decision.prompt], example


SYSTEM = Kgp()
