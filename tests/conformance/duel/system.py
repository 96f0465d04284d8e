"""Dice Duel: the rules.

D1 Muster.  Each side names its champion, secretly and at the same time.  A champion's name is
   its own side's to know: the other side and the public meet "the red champion".
D2 Stances.  Each turn both sides choose a stance, ``attack`` or ``defend``, secretly and at the
   same time (commit-reveal in an umpired or open game).
D3 Blows.  Each side that can hit rolls one d6; it scores a hit when the die reaches the number
   the scenario's to-hit chart gives for its stance against the enemy's (none: no blow, no roll).
D4 Victory.  The first side to reach the scenario's ``hits_to_win`` wins; when both reach it in
   the same turn the one with more hits wins, and equal hits are a draw.  After the last turn the
   side with more hits wins; equal hits are a draw.

State (plain data)::

    stage: muster | fight | over      turn, turns, hits_to_win, to_hit (the chart, from the scenario)
    champions: {side: name | None}    hits: {side: n}
    history: [{turn, stances: {side: stance}, rolls: {side: die}, hits: {side: n}}]
    result: None | {winner, how}
"""
from __future__ import annotations

import copy
import re

from hxref.kit.protocol import (UMPIRE, Decision, Field, GameSystem, Problem, Result, Section, Template,
                                other_side)

from .info import INFO

STANCES = ("attack", "defend")
#: D1: a champion's name, as a player would write it
NAME = re.compile(r"[A-Za-z][A-Za-z' -]{1,23}")


class DiceDuel(GameSystem):
    info = INFO

    # --- the sequence of play ----------------------------------------------------------------
    def setup(self, scenario: dict) -> dict:
        return {
            "stage": "muster", "turn": 0, "turns": int(scenario["turns"]),
            "hits_to_win": int(scenario["hits_to_win"]), "to_hit": copy.deepcopy(scenario["to_hit"]),
            "champions": {s: None for s in self.sides}, "hits": {s: 0 for s in self.sides},
            "history": [], "result": None,
        }

    def decisions(self, state) -> list[Decision]:
        if state["stage"] == "muster":
            return [Decision(id="muster", sides=self.sides, kind="muster", rule="D1", secret=True,
                             simultaneous=True, prompt="name your champion (the other side never learns it)",
                             schema={"champion": Field("str", help="your champion's name, 2-24 letters")},
                             example={"champion": "Sir Roland"})]
        if state["stage"] == "fight":
            return [Decision(id=f"t{state['turn']}", sides=self.sides, kind="stance", rule="D2", secret=True,
                             simultaneous=True, dice=True,
                             prompt=f"turn {state['turn']}: attack or defend (both sides choose in secret)",
                             schema={"stance": Field("str", help="attack or defend", choices=STANCES)},
                             example={"stance": "attack"})]
        return []

    def check(self, state, decision: Decision, side: str, choice: dict) -> list[Problem]:
        if decision.kind == "muster":
            name = choice.get("champion")
            if not isinstance(name, str) or not NAME.fullmatch(name):
                return [Problem("a champion's name is 2 to 24 letters, spaces, hyphens or apostrophes, "
                                "beginning with a letter", "D1", ["champion"])]
            return []
        if choice.get("stance") not in STANCES:
            return [Problem("the stance is attack or defend", "D2", ["stance"])]
        return []

    def resolve(self, state, decision: Decision, answers: dict, dice) -> tuple[dict, list[dict]]:
        new = copy.deepcopy(dict(state))
        if decision.kind == "muster":
            for side in self.sides:
                new["champions"][side] = answers[side]["champion"]
            new["stage"], new["turn"] = "fight", 1
            return new, [{"type": "mustered", "rule": "D1",
                          "text": "both champions take the field (each side knows only its own)"}]
        stances = {s: answers[s]["stance"] for s in self.sides}
        rolls, scored = {}, {}
        events = [{"type": "stances", "rule": "D2",
                   "text": "stances revealed: " + ", ".join(f"{s} {stances[s]}" for s in self.sides)}]
        for side in self.sides:
            need = new["to_hit"][stances[side]][stances[other_side(self.sides, side)]]
            if need is None:
                continue
            rolls[side] = dice.d6(f"{side} blow", by=side)
            scored[side] = int(rolls[side] >= need)
            new["hits"][side] += scored[side]
            events.append({"type": "blow", "rule": "D3", "side": side,
                           "text": f"{side} rolls {rolls[side]} (needs {need}): "
                                   + ("a hit" if scored[side] else "a miss")})
        if not rolls:
            events.append({"type": "guard", "rule": "D3", "text": "both stand on guard: no blow is struck"})
        new["history"].append({"turn": new["turn"], "stances": stances, "rolls": rolls, "hits": scored})
        result = self._victory(new)
        if result:
            new["result"], new["stage"] = result, "over"
            events.append({"type": "result", "rule": "D4", "text": result["how"]})
        else:
            new["turn"] += 1
        return new, events

    def _victory(self, state: dict) -> dict | None:
        hits, goal = state["hits"], state["hits_to_win"]
        a, b = self.sides
        done = max(hits.values()) >= goal or state["turn"] >= state["turns"]
        if not done:
            return None
        if hits[a] == hits[b]:
            return {"winner": None, "how": f"a draw: {hits[a]} hits each after turn {state['turn']}"}
        winner = a if hits[a] > hits[b] else b
        loser = other_side(self.sides, winner)
        return {"winner": winner, "how": f"{winner} wins, {hits[winner]} hits to {hits[loser]}, "
                                         f"after turn {state['turn']}"}

    def result(self, state) -> Result | None:
        r = state.get("result")
        if not r:
            return None
        margin = abs(state["hits"][self.sides[0]] - state["hits"][self.sides[1]])
        return Result(r["winner"], margin, r["how"])

    # --- what each audience sees ------------------------------------------------------------
    #: D1-D4: what every audience may see (everything but the champions' names)
    SHOWN = ("stage", "turn", "turns", "hits_to_win", "to_hit", "hits", "history", "result")

    def view(self, state, audience, mode: str) -> dict:
        v = {k: copy.deepcopy(state[k]) for k in self.SHOWN}
        # in open and solo games every player holds the game file: nothing is secret
        shown = self.sides if mode != "umpired" or audience == UMPIRE else \
            (audience,) if audience in self.sides else ()
        v["champions"] = {s: state["champions"][s] for s in shown}
        v["viewer"] = audience
        return v

    def report(self, view) -> list[Section]:
        duel = Section("The duel", columns=["side", "champion", "hits"])
        for s in self.sides:
            duel.rows.append([s, view["champions"].get(s) or f"the {s} champion", str(view["hits"][s])])
        if view["result"]:
            duel.lines.append(view["result"]["how"])
        elif view["stage"] == "fight":
            duel.lines.append(f"turn {view['turn']} of {view['turns']}; {view['hits_to_win']} hits win (D4)")
        out = [duel]
        if view["history"]:
            past = Section("Blows", columns=["turn", *(f"{s} stance, die, hit" for s in self.sides)])
            for h in view["history"]:
                past.rows.append([str(h["turn"]), *(
                    f"{h['stances'][s]}, {h['rolls'].get(s, '-')}, {h['hits'].get(s, 0)}" for s in self.sides)])
            out.append(past)
        return out

    def template(self, view, decision: Decision, side: str) -> Template:
        if decision.kind == "muster":
            return Template(["champion: your champion's name; the other side never learns it (D1)"],
                            {"champion": f"The {side.title()} Knight"})
        enemy = other_side(self.sides, side)
        chart = view["to_hit"]
        notes = [f"stance: attack or defend (D2). To hit (D3): attacking you need {chart['attack']['attack']} "
                 f"against an attack, {chart['attack']['defend']} against a guard; defending, "
                 f"{chart['defend']['attack']} against an attack.",
                 f"hits: you {view['hits'][side]}, {enemy} {view['hits'][enemy]}; {view['hits_to_win']} win (D4)."]
        return Template(notes, {"stance": "attack"})


SYSTEM = DiceDuel()
