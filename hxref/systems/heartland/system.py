"""The Army of the Heartland: the game-system object the core calls.

The sequence of play (2.0): each game turn opens with the Initiative Determination Segment
(:mod:`.initiative`: bids, weather, leader pay), then the impulses of the Operations Segment
(:mod:`.impulse`: movement, attacks, reactions, naval and rail movement), then the
Reorganisation Segment (:mod:`.reorganization`: supply, attrition, foraging, replacements) and
the end of the turn (:mod:`.victory`).  Each rules module names the sections it applies.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ...base.errors import InvalidInput
from ...kit.protocol import GameSystem, MapList, MapView, Result, Template
from ..base import Decision, Field, Problem, Section
from . import impulse
from . import model
from . import initiative as ini
from .info import INFO
from .initiative import Outcome
from .state_types import BiddingState, FullGameExtras, FullGameState, HeartlandState, PastTurn, Turn, is_full
from .views import full_view, wep_event
from ...kit.events import Event, event, event_dicts

NAME = "heartland"
SIDES = ("union", "confederate")
#: how many past turns a text report lists (a campaign of many turns would bury the present)
TURNS_SHOWN = 12
MONTHS = ["", "January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


class Heartland(GameSystem[HeartlandState]):
    # name, title, sides and the optional rules (1.12) come from INFO
    info = INFO

    # --- scenarios -----------------------------------------------------------------------
    scenario_keys = ("sides", "maximum", "wep", "leaders", "calendar")

    def load_scenario(self, name: str) -> dict:
        """The scenario (:meth:`GameSystem.load_scenario`), with what the weather chart says of
        itself: whether it is a stand-in."""
        data = super().load_scenario(name)
        chart = ini.WeatherChart.load(self.charts)
        data["charts"] = {"weather": {"stand_in": chart.stand_in, "note": chart.note}}
        return data

    def setup(self, scenario: dict) -> HeartlandState:
        bidding = self._setup_initiative(scenario)
        if "map" not in scenario:       # bidding-demo: the initiative segment only
            return bidding
        # the full game: armies on a map
        copied: FullGameExtras = {}
        for key in ("replacements", "income", "control", "foraging", "north_of_ohio", "landings", "prices", "off_map_rail",
                    "victory", "naval", "trains", "pontoons", "rail_cuts", "entrenchments",
                    "reinforcements"):
            if key in scenario:
                copied[key] = scenario[key]
        state: FullGameState = {
            **bidding, "leaders": scenario.get("leaders", {}),     # the counters, where the bidding game counts them
            "full": True,
            "map": scenario["map"],
            "fert_offset": scenario.get("fert_offset"),
            # optional rules the players switch on in the scenario file (1.12): tactical_doctrine (10.32a)
            "options": dict(scenario.get("options", {})),
            "mode": scenario.get("table_mode", "umpired"),     # 8.62a: open games plot hidden forces
            **copied,
            "units": scenario.get("units", {}),
            "logistics": scenario.get("logistics", {}),
            "sources": scenario.get("sources", {}),
        }
        for ld in state["leaders"].values():
            ld.setdefault("superior", None)
            ld.setdefault("pool", False)
            ld.setdefault("brevet", 0)
            ld.setdefault("hq", False)
            ld.setdefault("active", True)
            ld.setdefault("ap", model.current_rating(ld, "ar", "active"))    # AR less a brevet (14.51)
        _corps_limits(state, scenario)
        if "victory" in state:          # the VP record starts with the set-up (3.16)
            state["initial_steps"] = {uid: u["steps"] for uid, u in state["units"].items()}
            state["control_vp"] = dict(state["victory"].get("initial_control", {}))
        return state

    def _setup_initiative(self, scenario: dict) -> BiddingState:
        return {
            "scenario": scenario["name"],
            "turn": 1,
            "calendar": scenario["calendar"],
            "maximum": dict(scenario["maximum"]),
            "wep": dict(scenario["wep"]),
            "leaders": dict(scenario["leaders"]),
            "impulse_level_limit": scenario.get("impulse_level_limit"),
            "weather_stand_in": scenario["charts"]["weather"]["stand_in"],
            "phase": "bid",
            "current": self._new_turn(),
            "history": [],
        }

    @staticmethod
    def _new_turn() -> Turn:
        return {"bid_round": 1, "bids": [], "outcome": None, "initiative": None, "fee": 0,
                "weather": None, "impulses": [], "remaining": {}, "declare": None}

    # --- decisions -----------------------------------------------------------------------
    def decisions(self, state: HeartlandState) -> list[Decision]:
        t = state["turn"]
        cur = state["current"]
        if state["phase"] == "bid":
            rnd = cur["bid_round"]
            return [Decision(
                id=f"t{t}.bid" + (f".r{rnd}" if rnd > 1 else ""),
                sides=SIDES, kind="bid", secret=True, simultaneous=True, dice=True, rule="5.1",
                prompt=(f"turn {t}: bid operation levels for the first impulse, 0 (Pass) to your maximum"
                        + (f" (re-bid {rnd} of {ini.BID_ROUNDS} after a tie)" if rnd > 1 else "")),
                schema={"bid": Field("int", "operation levels bid; 0 = Pass", minimum=0)},
                example={"bid": 2},
            )]
        if state["phase"] == "reorg":
            return [Decision(
                id=f"t{t}.reorg", sides=SIDES, kind="reorg", secret=True, simultaneous=True, dice=True,
                rule="12.0",
                prompt=f"turn {t}: your Reorganization Segment orders, sealed (12.0-13.x, 4.32); {{}} for none",
                schema={"destruction": Field("list", "bridge, town or landing burning (13.1)", optional=True),
                        "foraging": Field("list", "leaders who forage (13.2)", optional=True),
                        "attrition": Field("dict", "emergency supply, ML given up, loss order (4.31)",
                                           optional=True),
                        "administration": Field("dict", "replacements, leaders, WDO, ammo, training, "
                                                        "entrenchment ... (4.32)", optional=True),
                        "naval": Field("dict", "Union Naval Sequence: {transport: [...], announce: false} (4.33)",
                                       optional=True)},
                example={},
            )]
        if state["phase"] == "impulse" and cur.get("active_impulse") and is_full(state):
            stage = cur["active_impulse"]["stage"]
            return [impulse.orders_decision(state) if stage == "orders" else impulse.defence_decision(state)]
        if state["phase"] == "impulse" and cur["declare"]:
            side = cur["declare"]
            n = len(cur["impulses"]) + 1
            return [Decision(
                id=f"t{t}.i{n}.level", sides=(side,), kind="level", rule="5.15",
                prompt=(f"turn {t}, impulse {n}: declare how many of your {cur['remaining'][side]} "
                        "remaining operation levels this impulse uses"),
                schema={"level": Field("int", "operation levels for this impulse (at least 1)", minimum=1)},
                example={"level": 1},
            )]
        return []

    def check(self, state: HeartlandState, decision: Decision, side: str, choice: dict) -> list[Problem]:
        if decision.kind == "bid":
            return ini.bid_problems(choice["bid"], state["maximum"][side])
        if decision.kind == "level":        # the bidding game (the full game declares it with the orders)
            return ini.level_problems(choice["level"], state["current"]["remaining"][side],
                                      state.get("impulse_level_limit"))
        if is_full(state) and decision.kind == "orders":
            return impulse.check_orders(state, side, choice, charts=self.charts)
        if is_full(state) and decision.kind == "reorg":
            from . import reorganization as ro

            hm = self.charts.map(state["map"])
            return (ro.check_destruction(state, side, choice, hm) + ro.check_foraging(state, side, choice, hm)
                    + ro.check_supply_recheck(state, side, choice, hm)
                    + ro.check_administration(state, side, choice, hm, charts=self.charts))
        if is_full(state) and decision.kind == "defence":
            return impulse.check_defence(state, self.charts.map(state["map"]), side, choice)
        return [Problem(f"unknown decision kind {decision.kind}", "-")]

    # --- resolution ----------------------------------------------------------------------
    def resolve(self, state: HeartlandState, decision: Decision, answers: dict[str, dict],
                dice: Any) -> tuple[HeartlandState, list[dict]]:
        state, events = self._resolve(state, decision, answers, dice)
        if is_full(state):
            from .corps import lapse_events
            from .dense_fog import defer

            events += lapse_events(state)   # 3.12: a command that stopped being a cavalry corps loses its marker
            events = defer(state, events)   # 3.72(4): some news waits for the Reorganization Segment
            if state.get("victory"):
                from .victory import update_control

                update_control(state)
        return state, event_dicts(events)

    def _resolve(self, state: HeartlandState, decision: Decision, answers: dict,
                 dice: Any) -> tuple[HeartlandState, list[Event]]:
        events: list[Event] = []
        cur = state["current"]
        if decision.kind == "bid":
            self._resolve_bid(state, answers, dice, events)
        elif is_full(state):
            if decision.kind == "orders":
                if impulse.resolve_orders(state, answers, dice, events, charts=self.charts):
                    impulse.finish(state, events, dice, charts=self.charts)
                    self._advance(state, events)
            elif decision.kind == "defence":
                impulse.resolve_defence(state, self.charts.map(state["map"]), answers, dice, events)
                impulse.finish(state, events, dice, charts=self.charts)
                self._advance(state, events)
            elif decision.kind == "reorg":
                self._resolve_reorganization(state, answers, dice, events)
        elif decision.kind == "level":      # the bidding game: the declarer's levels (5.15)
            side = cur["declare"]
            assert side is not None         # the level decision is asked of the declarer (5.15)
            level = answers[side]["level"]
            cur["remaining"][side] -= level
            cur["declare"] = None
            self._play(state, ini.Impulse(side, level, False, "5.15"), events)
            self._advance(state, events)
        return state, events

    def _resolve_bid(self, state: HeartlandState, answers: dict, dice, events: list[Event]) -> None:
        cur = state["current"]
        bids = {s: answers[s]["bid"] for s in SIDES}
        rnd = cur["bid_round"]
        cur["bids"].append({"round": rnd, **bids})
        events.append(event("bids.revealed", None, "5.1", round=rnd, bids=bids))
        o = ini.resolve_bids(bids, state["maximum"], rnd, state["wep"], dice)
        if o.kind == Outcome.REBID:
            cur["bid_round"] += 1
            events.append(event("bid.tied", o.why, o.rule, round=rnd))
            return
        cur["outcome"] = o.kind.value
        if o.kind == Outcome.NO_ACTIVITY:
            events.append(event("no.activity", o.why, o.rule))
            self._end_turn(state, events)
            return
        winner = o.winner
        assert winner is not None       # every outcome but a re-bid and no activity names one (5.1)
        cur["initiative"], cur["fee"] = winner, o.fee
        state["wep"][winner] -= o.fee
        events.append(event("initiative", o.why, o.rule, side=winner, fee=o.fee, outcome=o.kind.value))
        events.append(wep_event(state, winner, o.rule))
        month = self._month(state)
        w = ini.WeatherChart.load(self.charts).roll(month, dice, by=winner)
        cur["weather"] = {"result": w.result, "roll": w.roll, "stand_in": w.stand_in}
        events.append(event("weather", f"{MONTHS[month]}: Clear without a roll (June-August)" if w.roll is None
                                       else f"{winner} rolls {w.roll[0]}+{w.roll[1]}={sum(w.roll)}: {w.result}",
                            "5.2", side=winner, result=w.result, roll=w.roll, stand_in=w.stand_in))
        if is_full(state):
            from .weather import start_of_turn

            mud, ts = start_of_turn(state)      # 5.24 Mud, 5.21 Clear after Mud/Blizzard, 5.26 Cold
            if mud is not None and mud.mud:
                events.append(event("weather.mud", mud.why, mud.rule))
            if ts.changes or ts.recoveries:
                events.append(event("weather.effects", ts.why, ts.rule))
        cur["remaining"] = dict(o.remaining)
        cur["schedule"] = [{"side": i.side, "level": i.level, "rule": i.rule} for i in o.impulses]
        cur["queue"] = [{"side": i.side, "level": i.level, "fixed": True, "rule": i.rule} for i in o.impulses]
        state["phase"] = "impulse"
        self._advance(state, events)

    def _play(self, state: BiddingState, imp: ini.Impulse, events: list[Event]) -> None:
        """An impulse of the bidding game: its leader pay from the side's count of leaders (4.25)."""
        cur = state["current"]
        pay = ini.leader_pay(state["leaders"][imp.side])
        state["wep"][imp.side] -= pay
        n = len(cur["impulses"]) + 1
        cur["impulses"].append({"n": n, "side": imp.side, "level": imp.level, "fixed": imp.fixed,
                                "rule": imp.rule, "pay": pay})
        events.append(event("impulse", None, imp.rule, n=n, side=imp.side, level=imp.level,
                            how="set by the bid" if imp.fixed else "declared", pay=pay))
        events.append(wep_event(state, imp.side, imp.rule))

    def _advance(self, state: HeartlandState, events: list[Event]) -> None:
        """Start the next impulse: those the bid set first (5.15), then declared ones (5.15, 5.17)."""
        cur = state["current"]
        while cur.get("queue"):
            imp = cur["queue"].pop(0)
            if is_full(state):
                impulse.start(state, self.charts.map(state["map"]), imp, events)   # waits for the orders
                return
            self._play(state, ini.Impulse(imp["side"], imp["level"], True, imp["rule"]), events)
        last = cur["impulses"][-1]["side"]
        nxt = ini.next_declarer(last, cur["remaining"], cur["initiative"])
        if nxt is None:
            self._end_turn(state, events)
        elif is_full(state):
            impulse.start(state, self.charts.map(state["map"]),
                          {"side": nxt, "level": None, "fixed": False, "rule": "5.15"}, events)
        else:
            cur["declare"] = nxt

    def _end_turn(self, state: HeartlandState, events: list[Event]) -> None:
        """After the last impulse (or none): the Reorganization Segment (4.3), then the turn's end."""
        if is_full(state):
            state["phase"] = "reorg"          # both sides' sealed orders (D-15), then 12.0-13.x and 4.4
            events.append(event("reorganization.start",
                                f"turn {state['turn']}: the Reorganization Segment; both sides send their "
                                "orders (destruction, foraging, attrition, administration)", "4.3, 12.0",
                                turn=state["turn"]))
            return
        self._close_turn(state, events)

    def _resolve_reorganization(self, state: FullGameState, answers: dict, dice, events: list[Event]) -> None:
        from .reorganization import reorganization
        from . import dense_fog

        hm = self.charts.map(state["map"])
        for r in reorganization(state, answers, dice, hm, charts=self.charts):
            public = r.step in ("destruction", "end_of_turn")
            for line in r.lines():
                events.append(event(f"reorganization.{r.step}", line.strip(), r.rule or "12.0",
                                    **({} if public or not r.side else {"side": r.side, "visible_to": [r.side]})))
            if r.step == "supply_recheck":      # the attrition dice: open, or the roller's under 3.72(2)
                events.extend(dense_fog.attrition_events(state, r))
        if state.get("naval"):
            self._naval_sequence(state, hm, answers.get("union", {}).get("naval") or {}, events)
        self._close_turn(state, events)

    @staticmethod
    def _naval_sequence(state: FullGameState, hm, orders: dict, events: list[Event]) -> None:
        """4.33, Union only: river transport on the map ``hm``, then every group on the Naval Assault
        Display moves one box; an announcement that a naval assault may occur is public (8.92a(5)),
        nothing else is."""
        from . import naval

        for t in orders.get("transport", []):
            r = naval.river_transport(state, hm, t.get("gunboat"), t.get("origin"), t.get("destination"),
                                      t.get("units", []), leaders=t.get("leaders", []), wagon=t.get("wagon"))
            if not r.problems:
                naval.apply_river_transport(state, r)
            events.append(event("naval.transport", r.why, r.rule, side="union", visible_to=["union"]))
        adv = naval.advance_display(state, announce=bool(orders.get("announce")))
        naval.apply_advance_display(state, adv)
        if adv.notice:
            events.append(event("naval.notice", adv.notice, "8.92a"))
        if adv.moves:
            events.append(event("naval.display", adv.why, "4.33", side="union", visible_to=["union"]))

    def _close_turn(self, state: HeartlandState, events: list[Event]) -> None:
        cur = state["current"]
        t = state["turn"]
        state["history"].append(cast(PastTurn, {"turn": t, "month": self._month_label(state), **{
            k: cur[k] for k in ("bids", "outcome", "initiative", "fee", "weather", "impulses")}}))
        if is_full(state):
            events.append(event("turn.end", f"turn {t} ends: AP reset to each leader's AR, wounds heal a level (4.4)",
                                "4.4", turn=t))
        else:
            events.append(event("turn.end",
                                f"turn {t} ends: Reorganization Segment (nothing to reorganise in this scenario)",
                                "4.3", turn=t))
        if t >= len(state["calendar"]):
            state["phase"] = "over"
            from .victory import awaits_proof, decide

            if is_full(state) and state.get("victory") and awaits_proof(state):
                events.append(event("game.end", f"the scenario ends after turn {t}; the victory (3.16) reads both "
                                    "sides' displays, which only the proof compares (3.71): the result waits for it",
                                    "3.71"))
            else:
                events.append(event("game.end", f"the scenario ends after turn {t}", "-"))
                if is_full(state) and state.get("victory"):
                    events.append(decide(state))
        else:
            state["turn"] = t + 1
            state["phase"] = "bid"
            state["current"] = self._new_turn()

    @staticmethod
    def _month(state: HeartlandState) -> int:
        return state["calendar"][state["turn"] - 1]["month"]

    @staticmethod
    def _month_label(state: HeartlandState) -> str:
        c = state["calendar"][state["turn"] - 1]
        return f"{MONTHS[c['month']]} {c['year']}"

    # --- views and reports ---------------------------------------------------------------
    def view(self, state: HeartlandState, side: str | None, mode: str) -> dict:
        """What ``side`` may see (None = the public).

        The Number Track (WEP) is on the hidden Army Organization Display
        (3.16, 3.71): in an umpired game a side sees only its own WEP and the
        public none.  In open and solo games both players hold the game file,
        so nothing of the rules state is hidden.  Built by allow-list
        (:func:`.views.army_view`, :func:`.views.bidding_view`).
        """
        from .views import army_view, bidding_view

        v = army_view(state, side, mode) if is_full(state) else bidding_view(state, side, mode)
        v["open_view"] = mode != "umpired"
        v["month_label"] = self._month_label(state) if state["turn"] <= len(state["calendar"]) else ""
        v["viewer"] = side
        return v

    def template(self, view: Mapping[str, Any], decision: Decision, side: str) -> Template:
        """Notes and a choice skeleton for ``hxref template`` (the side's view only): the keys the
        checker accepts, what the side may do now, a skeleton accepted as it stands."""
        from .template_notes import template

        notes, choice = template(view, decision, side, self.charts)
        return Template(notes, choice)

    def stand_fast(self, state: HeartlandState, decision: Decision, side: str) -> dict:
        """A late side's answer under stand-fast: its forces stand where they are (an impulse's
        orders with no moves, at the least level where it declares one, 5.15; a force in enemy ZOC,
        which may not simply stand, checks to attack, 8.42a), a bid of 0 (Pass, 5.1); the example
        of every other decision."""
        if decision.kind == "orders":
            from . import fog
            from .impulse_check import standing_attack_checks

            checks = (standing_attack_checks(fog.checked_state(state, side), self.charts.map(state["map"]), side)
                      if is_full(state) else [])
            return {"moves": checks, **({"level": 1} if "level" in decision.schema else {})}
        if decision.kind == "bid":
            return {"bid": 0}
        return super().stand_fast(state, decision, side)

    def map_orders(self, state: HeartlandState, decision: Decision, side: str) -> list[MapList]:
        """An impulse's moves (8.21): the side's forces, wagons and pontoons on the map (:mod:`.map_orders`)."""
        from . import map_orders

        return map_orders.map_orders(state, decision, side) if is_full(state) else []

    def reach(self, state: HeartlandState, decision: Decision, side: str, choice: Mapping[str, Any], key: str,
              piece: str) -> dict[str, float]:
        """Where a force may end its path, with the MP it costs (8.2, 8.22, 3.61; :mod:`.map_orders`)."""
        from . import map_orders

        if not is_full(state):
            return {}
        return map_orders.reach(state, decision, side, choice, key, piece, charts=self.charts)

    def map_view(self, view: Mapping[str, Any]) -> MapView | None:
        """The map file and the markers ``view``'s side may see (``hxref map show GAME``); None for a
        scenario played without a map (bidding-demo)."""
        if not full_view(view):
            return None
        from .report import map_units

        hm = self.charts.map(view["map"])         # the game's map, its pinned copy
        return MapView(self.charts.map_path(view["map"]), map_units(view), hexmap=hm)

    def brief(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[str]:
        from .brief import brief

        return brief(events, view, self.charts)

    def map_marks(self, events, view: Mapping[str, Any], audience: str | None) -> list:
        from .marks import marks

        return marks(events, view, audience)

    def boxes(self, state: HeartlandState, side: str) -> dict[str, Any]:
        """``side``'s Army Organization Display and own records as boxes (3.1, 3.16, 3.71; :mod:`.aod`)."""
        from . import aod

        return aod.boxes(state, side)

    def public(self, state: HeartlandState) -> dict:
        """The state without either side's AOD: what both players may see (3.71; :mod:`.aod`)."""
        from . import aod

        return aod.public(state)

    def merged(self, public: Mapping[str, Any], boxes_by_side: Mapping[str, Mapping[str, Any] | None]) -> HeartlandState:
        """The state again from its public part and both sides' boxes (:mod:`.aod`)."""
        from . import aod

        return cast(HeartlandState, aod.merged(public, {s: b or {} for s, b in boxes_by_side.items()}))

    def box_names(self, public: Mapping[str, Any], side: str) -> list[str]:
        """``side``'s box names from the public part (:func:`.aod.box_names`)."""
        from . import aod

        return aod.box_names(public, side)

    def box_rule(self, box: str, path: Sequence[str]) -> str | None:
        """The rule of a part of a box (:func:`.aod.box_rule`): steps and CF 3.1 and 10.63, AP 3.24, ML
        3.51, ASP 10.12, artillery 3.1, WEP 3.16, a unit in another leader's box 4.32."""
        from . import aod

        return aod.box_rule(box, path)

    def public_answer(self, state: HeartlandState, decision: Decision, side: str, choice: Mapping[str, Any]) -> dict:
        """The orders in clear but the standing orders; of the Reorganization orders what changes the map
        (9.0, 13.1, 13.2, 4.33, 14.8x; :mod:`.fog_play`)."""
        from . import fog_play

        return fog_play.public_answer(decision.kind, choice)

    def claims(self, state: HeartlandState, decision: Decision, side: str, choice: Mapping[str, Any]) -> dict[str, Any]:
        """The facts of the ordered forces' boxes the IMC, the attack checks and the AP read (8.2x, 8.4x,
        3.24; :mod:`.fog_play`), the enemy's ZOC found on the game's map."""
        from . import fog_play

        hexmap = self.charts.map(state["map"]) if is_full(state) else None
        return fog_play.claims(state, decision.kind, side, choice, hexmap, self.charts.chart("detachment"))

    def claim_problem(self, state: HeartlandState, decision: Decision, side: str, choice: Mapping[str, Any],
                      names: Sequence[str], claims: Any) -> Problem | None:
        """A claim's form (a leader's face, AP and ML as bounds, a unit's arm and size...) and the bounds
        the public orders read (:mod:`.fog_play`)."""
        from . import fog_play

        return fog_play.claim_problem(state, decision.kind, side, choice, names, claims,
                                      self.charts.chart("detachment"))

    def believed(self, side: str, box: Any, part: Mapping[str, Any]) -> Any:
        """The claimed box, an AP or ML claimed "at least" so much believed that much, a detachment
        never seen believed as the side's detachment counter (8.52; :mod:`.fog_play`)."""
        from . import fog_play

        return fog_play.believed(box, part, self.charts.chart("detachment")["detachment"][side])

    def reveals(self, state: HeartlandState, decision: Decision, side: str, choice: Mapping[str, Any] | None,
                events: Sequence[Mapping[str, Any]] | None) -> list[str]:
        """The attacking forces' boxes, the forces in a combat (10.6), the Number Track at a third tie
        (5.12; :mod:`.fog_play`)."""
        from . import fog_play

        return fog_play.reveals(state, decision.kind, side, choice, events)

    def shown(self, state: HeartlandState, side: str) -> dict:
        """``side``'s counters on the map (3.71; :mod:`.fog_play`)."""
        from . import fog_play

        return fog_play.shown(state, side)

    def with_shown(self, public: Mapping[str, Any], side: str, shown: Mapping[str, Any]) -> dict:
        from . import fog_play

        return fog_play.with_shown(public, side, shown)

    def decided(self, state: HeartlandState) -> tuple[HeartlandState, list[dict]]:
        """Both AODs compared by the proof (3.71): a game over whose victory waited for it is decided
        on the true state (3.16, :mod:`.victory`); one that goes on announces its result at its end."""
        from .fog import hidden_armies
        from .victory import awaits_proof, decide

        if not is_full(state) or not hidden_armies(state):
            return state, []
        waited = awaits_proof(state) and state["phase"] == "over" and bool(state.get("victory"))
        state["aods_compared"] = True
        return state, event_dicts([decide(state)] if waited else [])

    def result(self, state: HeartlandState) -> Result | None:
        """The victory (14.0) of a finished game: the VP difference; a scenario without victory
        conditions (bidding-demo) ends in a draw.  None while the game goes on."""
        r = state.get("result") if is_full(state) else None
        if not r:
            # a victory that waits for the proof (3.71) is no draw
            over = state.get("phase") == "over" and not (is_full(state) and state.get("victory"))
            return Result(None, 0, "no victory conditions in the scenario: a draw") if over else None
        vp = ", ".join(f"{s} {n}" for s, n in (r.get("points") or {}).items())
        return Result(r.get("winner"), int(r.get("margin") or 0), f"{r.get('level') or 'a'} victory; VP {vp}")

    def report(self, view: Mapping[str, Any]) -> list[Section]:
        """The report of ``view``: the turn's heading, this turn's bids and impulses, the sides, the
        turns played and, in a full game, the armies, the victory points and the stand-in charts."""
        cur = view["current"]
        over = view["phase"] == "over"
        sections: list[Section] = [self._turn_section(view)]
        if cur["bids"] and not over:
            sections.append(self._bids_section(cur["bids"], "Bids this turn"))
        if cur["impulses"] and not over:
            sections.append(self._impulses_section(cur))
        sections.append(self._sides_section(view))
        if view["history"]:
            sections.append(self._history_section(view["history"]))
        if full_view(view):
            from .report import army_sections

            sections.extend(army_sections(view))
        if full_view(view) and view.get("victory"):
            sections.append(self._victory_section(view))
        sections.extend(self._chart_sections(view))
        return sections

    @staticmethod
    def _turn_section(view: Mapping[str, Any]) -> Section:
        """4.0 / 5.0: the turn and month, its weather (5.2), initiative (5.1) and segment (5.12, 5.15);
        after the last turn, the WEP left."""
        cur = view["current"]
        if view["phase"] == "over":
            head = Section(f"Game over after turn {view['history'][-1]['turn']}")
            wep = "WEP left: " + ", ".join(f"{s} {view['wep'][s]}" for s in SIDES if s in view["wep"]) + "."
            head.lines.append(wep if view.get("victory") else
                              "The scenario has no victory conditions: it plays the initiative segment only. " + wep)
            return head
        head = Section(f"Turn {view['turn']} -- {view['month_label']}")
        w = cur.get("weather")
        head.lines.append("Weather: " + (f"{w['result']}" + (f" (2d6 = {sum(w['roll'])})" if w["roll"] else "")
                                           if w else "not rolled yet (the initiative winner rolls, 5.2)"))
        head.lines.append("Initiative: " + (f"{cur['initiative']} (paid {cur['fee']} WEP)" if cur["initiative"]
                                            else "not decided yet"))
        phase = {"bid": f"bidding, bid {cur['bid_round']} of {ini.BID_ROUNDS} (5.1, 5.12)",
                 "impulse": "activity impulses (5.15)"}.get(view["phase"], view["phase"])
        head.lines.append(f"Segment: {phase}")
        return head

    @staticmethod
    def _history_section(history: list[dict]) -> Section:
        """The turns played: bids, initiative, weather and impulses of each; a long campaign's
        report shows the last :data:`TURNS_SHOWN` (the JSON report keeps them all)."""
        s = Section("Turns played", columns=["turn", "month", "bids (U-C)", "result", "initiative",
                                               "weather", "impulses"])
        if len(history) > TURNS_SHOWN:
            earlier = history[:-TURNS_SHOWN]
            s.lines.append(f"The last {TURNS_SHOWN} turns; turns {earlier[0]['turn']}-{earlier[-1]['turn']} are "
                           "in the JSON report (--format json: view.history).")
            history = history[-TURNS_SHOWN:]
        for h in history:
            bids = ", ".join(f"{b['union']}-{b['confederate']}" for b in h["bids"])
            imps = " ".join(f"{i['side'][0].upper()}{i['level']}" for i in h["impulses"]) or "none"
            w = h["weather"]["result"] if h["weather"] else "-"
            s.rows.append([str(h["turn"]), h["month"], bids, (h["outcome"] or "").replace("_", " "),
                           h["initiative"] or "-", w, imps])
        return s

    @staticmethod
    def _victory_section(view: Mapping[str, Any]) -> Section:
        """3.16 / 14.0: the result or the score so far, and the victory places held.  In a game with
        hidden armies the score counts the steps lost and the leaders fallen on both sides' displays,
        which no side's view holds until the proof compared them (3.71): none is shown before."""
        from .victory import score

        hidden = view.get("mode") == "fog" and not view.get("open_view")
        sc = score(cast(FullGameState, view)) if view.get("open_view") or (
            view.get("viewer") is None and not hidden) else None
        res = view.get("result")
        lines = [f"Result: {res['winner'] or 'draw'}"
                 + (f", {res['level']} victory by {res['margin']} VP" if res.get("winner") else "")
                 + f" ({', '.join(f'{s} {p}' for s, p in res['points'].items())} VP)"] if res else []
        held = view.get("control_vp", {})
        lines.append("Places held: " + ", ".join(f"{h} {held.get(h, '-')} ({vp} VP)"
                                                   for h, vp in view["victory"].get("places", {}).items()))
        if sc is not None and not res:
            lines.append("Score now: " + sc.why)
        elif not res and hidden:
            lines.append("Score: the steps each side lost and its leaders fallen are on its own display (3.71); "
                         "the proof compares both and decides the result.")
        lines.append("The VP schedule is the scenario's stand-in (the rules seed has none).")
        return Section("Victory points (3.16)", lines)

    @staticmethod
    def _chart_sections(view: Mapping[str, Any]) -> list[Section]:
        """Which charts are stand-ins for those the rules seed does not print."""
        sections = []
        if full_view(view):
            sections.append(Section("Stand-in charts", [
                "The IMC (games/heartland/charts/imc.yaml), the Terrain Effects Chart (games/heartland/"
                "terrain.yaml) and the Detachment Chart (games/heartland/charts/detachment.yaml) are stand-ins: "
                "the rules seed does not print them."]))
        if view.get("weather_stand_in"):
            sections.append(Section("Charts", ["The Weather Table is a stand-in chart "
                                               "(games/heartland/charts/weather.yaml, stand_in: true); the seed "
                                               "does not print it."]))
        return sections

    @staticmethod
    def _bids_section(bids: list[dict], title: str) -> Section:
        s = Section(title, columns=["bid", "union", "confederate"])
        for b in bids:
            s.rows.append([str(b["round"]), _bid(b["union"]), _bid(b["confederate"])])
        return s

    @staticmethod
    def _impulses_section(cur: dict) -> Section:
        s = Section("Impulses this turn", columns=["#", "side", "level", "set by", "rule", "leader pay"])
        for i in cur["impulses"]:
            s.rows.append([str(i["n"]), i["side"], str(i["level"]), "bid" if i["fixed"] else "declared",
                           i["rule"], f"{i['pay']} WEP"])
        if cur.get("declare"):
            s.rows.append([str(len(cur["impulses"]) + 1), cur["declare"], "?", "to declare", "5.15", ""])
        return s

    @staticmethod
    def _sides_section(view: Mapping[str, Any]) -> Section:
        cur = view["current"]
        s = Section("Sides", columns=["side", "maximum", "levels left", "WEP", "leaders"])
        for side in SIDES:
            left = cur["remaining"].get(side)
            count = view["leaders"][side] if not full_view(view) else sum(
                1 for ld in view["leaders"].values() if ld["side"] == side and not ld.get("pool"))
            s.rows.append([side, str(view["maximum"][side]), "-" if left is None else str(left),
                           str(view["wep"][side]) if side in view["wep"] else "hidden (3.71)",
                           str(count) if side in view["wep"] or view.get("open_view") else "hidden (3.71)"])
        return s


def _corps_limits(state: FullGameState, scenario: dict) -> None:
    """3.12: the cavalry corps a scenario sets up: at most two a side, each an independent force of
    cavalry only with at most two artillery (in play, :mod:`.corps` keeps the limits)."""
    from .corps import corps_check

    for side in scenario["sides"]:
        found = corps_check(state, side).problems
        if found:
            raise InvalidInput(f"scenario {scenario.get('name')}: {found[0].message} ({found[0].rule})", code="E503")


def _bid(b: int) -> str:
    return "Pass" if b == 0 else str(b)


SYSTEM = Heartland()
