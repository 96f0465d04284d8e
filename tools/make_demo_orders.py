"""Build the shipped demo game of a system: keys, signed order files and the manifest.

    python tools/make_demo_orders.py heartland
    python tools/make_demo_orders.py salem-church
    python tools/make_demo_orders.py acw-minis
    python tools/make_demo_orders.py kgp

It plays the scripted game below through the real command line in a scratch
folder (so every shipped file was accepted by hxref when it was made) and
copies the keys, the order files and a ``demo.yaml`` manifest that
``hxref demo`` replays into ``orders/<system folder>/<scenario>/`` (the folder
the system's ``SystemInfo.data_folder``: ``orders/salem_church/salem-church/``).

The keys in ``keys/`` are DEMO KEYS, published on purpose: never use them
for a real game.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hxref.base import yamlio  # noqa: E402
from hxref.cli import main  # noqa: E402

def plan_moves(game: str, side: str, goals: dict[str, str], attack: bool = True) -> dict:
    """Orders for ``side``'s awaited impulse: each force in ``goals`` heads for its goal hex.

    The path is the cheapest legal one (hxref's own step costs), avoiding enemy
    stacks and stopping at the first hex in enemy ZOC (3.61); a force that is or
    ends next to the enemy attacks the nearest enemy stack.  This is the demo's
    "player", so the shipped orders stay legal whatever the dice did before.
    """
    from hxref.referee.engine import Engine
    from hxref.geometry.hex import are_adjacent
    from hxref.geometry.paths import MoveGraph, MoveRules, Prohibited
    from hxref.systems.heartland import impulse, model

    eng = Engine.load(game)
    state = eng.state
    hm = eng.system.charts.map(state["map"])       # the game's map, its pinned copy
    base = impulse.cost_fn(state, hm, side)
    zoc = impulse.enemy_zoc(state, hm, side)
    enemy = model.occupied_hexes(state, model.other_side(side))

    moves = []
    for force, goal in goals.items():
        if force not in model.forces(state, side):
            continue
        start = model.force_hex(state, force)

        def cost(a, b, start=start):
            if hm.label(b) in enemy:
                return Prohibited("enemy")
            if hm.label(a) in zoc and hm.label(a) != start:
                return Prohibited("stop in ZOC")
            return base(a, b)

        reach = MoveGraph(hm.hexes(), MoveRules(cost)).search(hm.parse(start), goal=hm.parse(goal))
        full = reach.path_to(hm.parse(goal)) or [hm.parse(start)]
        path: list[str] = []
        for h in full[1:]:
            label = hm.label(h)
            path.append(label)
            if label in zoc:
                break
        mv: dict = {"force": force, "path": path}
        end = path[-1] if path else start
        near = sorted(e for e in enemy if are_adjacent(hm.parse(end), hm.parse(e)))
        if attack and near:
            mv["attack"] = near[0]
        if path or mv.get("attack"):
            moves.append(mv)
    return {"moves": moves}


def legal_orders(game: str, side: str, choice: dict) -> dict:
    """``choice`` with every move the rules refuse cut short, one hex at a time (its attack
    dropped first), until the rules accept it: the scripted player's orders stay legal whatever
    the dice did before (a path too long for the best IMC roll, 8.22)."""
    from hxref.referee.engine import Engine

    eng = Engine.load(game)
    dec = next(d for d in eng.awaiting if side in d.sides)
    for _ in range(200):
        problems = eng.system.check(eng.state, dec, side, choice)
        bad = next((p for p in problems if len(p.path) >= 2 and p.path[0] == "moves"), None)
        if bad is None:
            return choice
        mv = choice["moves"][bad.path[1]]
        if mv.pop("attack", None) is None:
            if not mv.get("path"):
                choice["moves"].pop(bad.path[1])
            else:
                mv["path"] = mv["path"][:-1]
    return choice


# ---------------------------------------------------------------------------------------------
# Salem Church: the scripted players

SALEM_ROLES = {
    # Union.  salem: the push west along the Plank Road to Salem Church and the Schoolhouse;
    # ford: from Banks' Ford (1204) west along the River Road toward 0903; escort: with the
    # wagon train; garrison: Fredericksburg (2114) once the train has gone by (T5 on)
    "union": {
        "first-1": "salem", "second-1": "salem", "art-1": "salem", "third-1": "salem",
        "first-3": "salem", "second-3": "salem", "third-3": "ford", "art-3": "ford",
        "right-l": "ford", "left-l": "ford", "guard-6": "escort",
        "second-2": "ford", "skirmish-2": "ford", "third-2": "garrison", "art-2": "garrison",
    },
    # Confederates.  church: hold Salem Church and the Schoolhouse; ford: Banks' Ford and the
    # River Road (the train's road to 0903); east: Fredericksburg and the Falmouth road
    "confederate": {
        "wilcox-m": "church", "kershaw-m": "church", "semmes-m": "school", "wofford-m": "school",
        "mahone-a": "ford", "perry-a": "ford2", "posey-a": "ford2", "wright-a": "river", "garnett-a": "river",
        "gordon-e": "east", "hays-e": "east", "andrews-e": "east", "hoke-e": "falmouth",
    },
}
SALEM_GOALS = {   # role -> the hexes it heads for, first that is not already full of friends
    "salem": ["0609", "0610"], "ford": ["1103", "1003", "0903"], "escort": [], "garrison": ["2114"],
    "church": ["0609"], "school": ["0610"], "ford2": ["1302", "1204"], "river": ["1003", "1103"],
    "east": ["2114", "1913"], "falmouth": ["2407"],
}
SALEM_ODDS = 2          # attack when attacker CF - defender CF is at least this (CRT column +2..+3)
SALEM_COUNTER_ODDS = 4  # a standing counter-attack (7.2, doubled CF) at this differential or better


def plan_salem_setup() -> dict:
    """13.3: Wilcox/M holds Salem Church, a defensive position (15.0)."""
    return {"place": {"wilcox-m": "0609"}}


class SalemPlanner:
    """One side's orders for its Salem Church player turn, planned from the current state.

    A plain scripted player: every unit has a role (SALEM_ROLES) that names the hexes it
    heads for; each move is the reachable hex nearest its goal that hxref's own move check
    (:func:`path_walk.check_path`) accepts, planned unit by unit on a working copy of the
    state (stacking, the wagon train's hex, night); then every enemy hex next to its combat
    units is attacked when the differential is favourable.  Re-planned every turn, so the
    shipped orders stay legal whatever the dice did before.
    """

    def __init__(self, state: dict, side: str, charts):
        import copy

        from hxref.systems.salem_church import movement, path_walk, turn
        from hxref.systems.salem_church.board import hexmap

        self.st, self.side, self.charts = state, side, charts
        self.enemy = "confederate" if side == "union" else "union"
        self.hm = hexmap(charts, state)
        self.mv, self.pw, self.tn = movement, path_walk, turn
        self.turn = int(state["turn"])
        self.night = movement.is_night(self.turn)
        self.work = {**{k: v for k, v in state.items() if k != "units"}, "units": copy.deepcopy(state["units"])}
        self.work["initiative_checks"] = {}
        self.wagon = state.get("wagon_unit", "wagon-train")
        self._dist: dict = {}

    # --- geometry -----------------------------------------------------------------------------
    def units(self, side: str, arms=None, where=None) -> list[str]:
        out = []
        for uid, u in sorted(self.work["units"].items()):
            if u["side"] == side and u.get("hex") is not None and int(u.get("steps", 0)) > 0 \
                    and (arms is None or u["type"] in arms) and (where is None or u["hex"] == where):
                out.append(uid)
        return out

    def occupied(self, side: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for uid in self.units(side):
            out.setdefault(self.work["units"][uid]["hex"], []).append(uid)
        return out

    def neighbours(self, label: str) -> list[str]:
        h = self.hm.parse(label)
        return [self.hm.label(n) for n in h.neighbours() if n in self.hm.grid]

    def goal_distance(self, arm: str, goal: str) -> dict[str, int]:
        """Steps from every hex to ``goal`` for a unit of type ``arm`` (terrain only, no units)."""
        key = (arm, goal)
        if key not in self._dist:
            cost = self.mv.step_cost(self.hm, arm)
            dist = {goal: 0}
            todo = [goal]
            while todo:
                nxt = []
                for lab in todo:
                    for n in self.neighbours(lab):
                        if n in dist:
                            continue
                        c = cost(self.hm.parse(n), self.hm.parse(lab))     # stepping from n into lab
                        if isinstance(c, self.mv.Prohibited):
                            continue
                        dist[n] = dist[lab] + 1
                        nxt.append(n)
                todo = nxt
            self._dist[key] = dist
        return self._dist[key]

    def reach(self, uid: str, start: str | None, entry: str | None, night: bool | None = None
              ) -> dict[str, tuple[float, list[str]]]:
        """Every hex ``uid`` might end its move in -> (MP, the hexes entered); hxref checks each later."""
        import heapq

        u = self.work["units"][uid]
        side = u["side"]
        enemy = "confederate" if side == "union" else "union"
        night = self.night if night is None else night
        arm, mp = u["type"], float(u.get("mp") or 0)
        enemy_at = self.occupied(enemy)
        near_enemy = {n for h in enemy_at for n in self.neighbours(h)}
        friends_at = self.occupied(side)
        ezoc = self.mv.zoc_hexes(self.work, self.hm, enemy)
        cost = self.mv.step_cost(self.hm, arm)
        wagon_hex = self.work["units"].get(self.wagon, {}).get("hex")

        def enterable(lab: str) -> bool:
            if lab in enemy_at:
                return False
            if arm == "wagon_train" and (lab in friends_at or lab in near_enemy):
                return False
            if side == "union" and arm != "wagon_train" and lab == wagon_hex:
                return False
            return not (night and lab in near_enemy)

        out: dict[str, tuple[float, list[str]]] = {}
        heap: list = []
        if start is None:
            c = self.mv.hex_cost(self.hm, arm, self.hm.parse(entry))
            if isinstance(c, self.mv.Prohibited) or c > mp or not enterable(entry):
                return {}
            heapq.heappush(heap, (c, [entry]))
        else:
            heapq.heappush(heap, (0, []))
        while heap:
            spent, path = heapq.heappop(heap)
            here = path[-1] if path else start
            if here in out:
                continue
            out[here] = (spent, path)
            if path and (here in ezoc or self.mv.stop_on_entry(self.hm, self.hm.parse(here))):
                continue
            for n in self.neighbours(here):
                if n in out or not enterable(n):
                    continue
                c = cost(self.hm.parse(here), self.hm.parse(n))
                if isinstance(c, self.mv.Prohibited) or spent + c > mp:
                    continue
                heapq.heappush(heap, (spent + c, path + [n]))
        return out

    def legal(self, uid: str, path: list[str], leader: str | None = None) -> bool:
        """hxref's own move check; from turn 7 the Union plans as if at Low Initiative (17.2), so a
        move stays legal whichever the 17.1 roll gives."""
        states = [self.work]
        if self.side == "union" and self.turn >= self.mv.INITIATIVE_FROM_TURN:
            states.append({**self.work, "initiative": "low"})
        return all(self.pw.check_path(s, self.hm, uid, path, leader=leader).legal for s in states)

    # --- one unit's move ----------------------------------------------------------------------
    def move_toward(self, uid: str, goals: list[str], entry: str | None = None, avoid: set[str] = frozenset(),
                    leader: str | None = None) -> dict | None:
        u = self.work["units"][uid]
        start = u.get("hex")
        options = self.reach(uid, start, entry)
        if not options:
            return None
        fields = [self.goal_distance(u["type"], g) for g in goals] or [{}]

        def score(item):
            lab, (spent, path) = item
            d = min(f.get(lab, 99) for f in fields)
            return (d + (50 if lab in avoid else 0), spent, path)

        for lab, (spent, path) in sorted(options.items(), key=score):
            if start is not None and not path:
                return None                        # staying is best
            if self.legal(uid, path, leader):
                mc = self.pw.check_path(self.work, self.hm, uid, path, leader=leader)
                self.work["units"][uid]["hex"] = mc.end
                move = {"unit": uid, "path": path}
                if leader:
                    move["leader"] = leader
                return move
        return None

    def goals_for(self, uid: str) -> list[str]:
        role = SALEM_ROLES[self.side].get(uid)
        if role == "escort":
            w = self.work["units"].get(self.wagon, {})
            return [w["hex"]] if w.get("hex") else ["1209"]
        if role == "garrison" and self.turn < 5:
            return ["1611"]
        goals = list(SALEM_GOALS.get(role, []))
        if not goals:                              # no role: the nearest enemy
            foes = list(self.occupied(self.enemy))
            return foes or ["0609"]
        friends = self.occupied(self.side)
        here = self.work["units"][uid].get("hex")
        for g in goals:                            # the first goal not already full of friends
            mine = [x for x in friends.get(g, []) if self.work["units"][x]["type"] in ("infantry", "artillery")
                    and x != uid]
            if len(mine) < self.mv.STACK_LIMIT or here == g:
                return [g]
        return goals[:1]

    # --- the whole player turn ----------------------------------------------------------------
    def orders(self) -> dict:
        st, side = self.st, self.side
        groups = self.tn.due(st["rules"], side, self.turn)
        entry = self.choose_entry(groups)
        arriving = [uid for g in groups for uid in g["units"] if st["units"][uid].get("hex") is None
                    and int(st["units"][uid]["steps"]) > 0]
        choice: dict = {}
        if entry is not None:
            choice["entry"] = entry
        reps = self.replacements()
        if reps:
            choice["replacements"] = reps
        moves: list[dict] = []
        arms = ("infantry", "artillery")
        combat = self.units(side, arms)
        leaders = self.units(side, ("leader",))
        if side == "confederate":
            moves += self.capture_wagon(combat)
        done = {m["unit"] for m in moves}
        # units on the entry hex move first, so the arrivals can come in behind them; the army keeps
        # off the wagon train's road (the train may not pass a hex holding a unit, 16.0)
        combat.sort(key=lambda x: (self.work["units"][x]["hex"] != entry, x))
        avoid = {entry} if entry else set()
        if side == "union":
            avoid |= set(self.wagon_route(entry))
        for uid in combat:
            if uid not in done:
                m = self.move_toward(uid, self.goals_for(uid), avoid=avoid, leader=self.leader_with(uid))
                if m:
                    moves.append(m)
        for uid in [a for a in arriving if st["units"][a]["type"] in arms]:
            m = self.move_toward(uid, self.goals_for(uid), entry=entry, avoid=avoid)
            if m is None:                          # nowhere better: it must still come on
                m = self.move_toward(uid, [entry], entry=entry)
            if m:
                moves.append(m)
        for uid in leaders + [a for a in arriving if st["units"][a]["type"] == "leader"]:
            m = self.leader_move(uid, entry if uid in arriving else None, avoid)
            if m:
                moves.append(m)
        if side == "union":                        # the train last: it sees where everyone ends
            w = self.work["units"].get(self.wagon)
            if w and (w.get("hex") is not None or self.wagon in arriving):
                m = self.wagon_move(entry if self.wagon in arriving else None)
                if m:
                    moves.append(m)
        choice["moves"] = moves
        if not self.night:
            choice["attacks"] = self.attacks()
            fire = self.bombardments({u for a in choice["attacks"] for u in a["attackers"]})
            if fire:
                choice["bombard"] = fire
        choice["standing"] = self.standing()
        return choice

    def bombardments(self, attacking: set[str]) -> list[dict]:
        """Each battery that does not attack this phase bombards (stand-in chart, bombardment.py):
        the hex it may legally fire at (range, LOS for fire, an enemy combat unit there) that holds
        the most enemy steps, a victory hex first; hxref's own check decides what is legal."""
        from hxref.systems.salem_church import bombardment as bb

        keys = {"0609", "0610", "1204", "1302", "2114", "2407"}
        hexes = sorted({str(u["hex"]) for u in self.work["units"].values()
                        if u.get("side") == self.enemy and u.get("hex") is not None})
        out, fired = [], set()
        for uid in self.units(self.side, ("artillery",)):
            if uid in attacking:
                continue
            legal = [h for h in hexes if bb.targets_in(self.work, h, self.side) and bb.problem(
                self.work, self.hm, self.side, {"unit": uid, "target": h}, fired=fired, attacking=attacking,
                chart=bb.BombardmentChart.load(self.charts)) is None]
            if not legal:
                continue
            steps = {h: sum(int(self.work["units"][x]["steps"]) for x in bb.targets_in(self.work, h, self.side))
                     for h in legal}
            target = min(legal, key=lambda h: (h not in keys, -steps[h], h))
            out.append({"unit": uid, "target": target})
            fired.add(uid)
        return out

    def choose_entry(self, groups: list[dict]) -> str | None:
        if not groups:
            return None
        hexes = [str(h) for h in groups[0]["entry_hexes"]]
        enemy_at = self.occupied(self.enemy)
        near = {n for h in enemy_at for n in self.neighbours(h)}
        free = [h for h in hexes if h not in enemy_at and not (self.night and h in near)] or hexes
        if self.side == "confederate":
            if "2114" in free and any(u in {"gordon-e"} for g in groups for u in g["units"]) and "2114" not in near:
                return "2114"
            for pref in ("0903", "1013", "0107", "0213"):
                if pref in free and pref not in near:
                    return pref
        return free[0]

    def leader_with(self, uid: str) -> str | None:
        """17.2: a Union unit moves with the leader stacked with it (at Low Initiative only a
        leader's stack may enter an enemy ZOC)."""
        if self.side != "union":
            return None
        here = self.work["units"][uid]["hex"]
        for lid in self.units("union", ("leader",), here):
            return lid
        return None

    def leader_move(self, lid: str, entry: str | None, avoid: set[str] = frozenset()) -> dict | None:
        """A leader joins a combat unit of his formation nearest the enemy (his +1 morale, 17.3)."""
        form = self.work["units"][lid]["formation"]
        mine = [u for u in self.units(self.side, ("infantry", "artillery"))
                if self.work["units"][u]["formation"] == form] or self.units(self.side, ("infantry",))
        if not mine:
            return None
        foes = list(self.occupied(self.enemy)) or ["0609"]
        dist = [self.goal_distance("leader", f) for f in foes]
        mine.sort(key=lambda u: (min(d.get(self.work["units"][u]["hex"], 99) for d in dist), u))
        goal = self.work["units"][mine[0]]["hex"]
        return self.move_toward(lid, [goal], entry=entry, avoid=avoid, leader=lid if self.side == "union" else None)

    # --- the wagon train (16.0) ---------------------------------------------------------------
    def wagon_route(self, entry: str | None) -> list[str]:
        """The train's roads from where it is (or enters), whoever stands on them: west to 0903 and
        to the escape exits 1204 and 1302, and every hex it could reach this turn."""
        w = self.work["units"].get(self.wagon) or {}
        arriving = self.wagon in {u for g in self.tn.due(self.st["rules"], "union", self.turn) for u in g["units"]}
        here = w.get("hex") or (entry if arriving else None)
        if here is None or w.get("captured") or w.get("exited"):
            return []
        route = set(self.reach(self.wagon, w.get("hex"), entry if arriving else None))
        for goal in ("0903", "1204", "1302"):
            dist = self.goal_distance("wagon_train", goal)
            at = here
            while dist.get(at, 0) > 0:
                route.add(at)
                at = min((n for n in self.neighbours(at) if dist.get(n, 99) < dist[at]
                          and "road" in self.hm.lines_between(self.hm.parse(at), self.hm.parse(n))),
                         key=lambda n: (dist[n], n))
            route.add(at)
        return sorted(route)

    def threatened(self) -> set[str]:
        """The hexes a Confederate combat unit could enter next turn (its MP, stopping on entering a
        Union ZOC), arrivals included: where the train would be captured (16.0)."""
        out: set[str] = set()
        w = self.work["units"][self.wagon]
        where, w["hex"] = w.get("hex"), None          # the train's own hex is no shelter
        try:
            for uid in self.units("confederate", ("infantry", "artillery")):
                out |= set(self.reach(uid, self.work["units"][uid]["hex"], None, night=False))
            for g in self.tn.due(self.st["rules"], "confederate", self.turn + 1):
                for uid in g["units"]:
                    if self.work["units"][uid]["type"] in ("infantry", "artillery"):
                        for e in g["entry_hexes"]:
                            out |= set(self.reach(uid, None, str(e), night=False))
        finally:
            w["hex"] = where
        return out

    def wagon_move(self, entry: str | None) -> dict | None:
        """Out by 0903/0107 (14.1) when it can go this turn; else along the road west, never to a hex
        a Confederate could reach next turn; out by 1204/1302 (escape) when nowhere is safe."""
        mv = self.mv
        uid = self.wagon
        w = self.work["units"][uid]
        start = w.get("hex")
        options = self.reach(uid, start, entry)
        if not options:
            return None
        danger = self.threatened()
        exits = []
        for lab, (spent, path) in options.items():
            kind = mv.WAGON_EXITS.get(lab)
            if kind and spent + mv.WAGON_EXIT_MP <= float(w["mp"]):
                exits.append((kind != "victory", spent, lab, path + [mv.EXIT]))
        safe = {lab for lab in options if lab not in danger}

        def take(lab: str | None, path: list[str]) -> dict | None:
            if start is not None and not path:
                return None
            if not self.legal(uid, path):
                return None
            self.work["units"][uid]["hex"] = lab
            return {"unit": uid, "path": path}

        road_open = self.road_west_open(start or entry)
        for escape, _, lab, path in sorted(exits):
            # 14.1: out by 0903/0107 whenever it can; by 1204/1302 (16.0, only to avoid capture) when
            # nowhere is safe, or late in the game with the road west shut
            if not escape or not safe or (not road_open and self.turn >= 10):
                m = take(None, path)
                if m:
                    return m
        goal = self.goal_distance("wagon_train", "0903" if road_open else "1205")
        for lab, (spent, path) in sorted(options.items(), key=lambda it: (it[0] not in safe, goal.get(it[0], 99),
                                                                           it[1][0], it[0])):
            if start is not None and not path:
                return None                        # staying is best
            m = take(lab, path)
            if m:
                return m
        return None

    def road_west_open(self, here: str | None) -> bool:
        """Is there a road from ``here`` to 0903 or 0107 on which no hex holds or touches a Confederate?"""
        if here is None:
            return False
        foes = self.occupied("confederate")
        shut = set(foes) | {n for h in foes for n in self.neighbours(h)}
        todo, seen = [here], {here}
        while todo:
            lab = todo.pop()
            if lab in ("0903", "0107"):
                return True
            for n in self.neighbours(lab):
                if n not in seen and n not in shut and "road" in self.hm.lines_between(self.hm.parse(lab),
                                                                                         self.hm.parse(n)):
                    seen.add(n)
                    todo.append(n)
        return False

    def capture_wagon(self, combat: list[str]) -> list[dict]:
        """16.0: a Confederate combat unit that can reach the wagon train's hex enters it."""
        w = self.work["units"].get(self.wagon)
        if not w or w.get("hex") is None:
            return []
        target = w["hex"]
        for uid in combat:
            opts = self.reach_capture(uid, target)
            if opts and self.legal(uid, opts):
                self.work["units"][uid]["hex"] = target
                return [{"unit": uid, "path": opts}]
        return []

    def reach_capture(self, uid: str, target: str) -> list[str] | None:
        """A path into the wagon train's hex (the only enemy hex a Confederate may enter)."""
        import heapq

        u = self.work["units"][uid]
        cost = self.mv.step_cost(self.hm, u["type"])
        enemy_at = self.occupied("union")
        ezoc = self.mv.zoc_hexes(self.work, self.hm, "union")
        heap = [(0, [])]
        seen = set()
        while heap:
            spent, path = heapq.heappop(heap)
            here = path[-1] if path else u["hex"]
            if here == target:
                return path
            if here in seen:
                continue
            seen.add(here)
            if path and here in ezoc:
                continue
            for n in self.neighbours(here):
                if n in enemy_at and n != target:
                    continue
                if self.night and any(m in enemy_at for m in self.neighbours(n)):
                    continue
                c = cost(self.hm.parse(here), self.hm.parse(n))
                if isinstance(c, self.mv.Prohibited) or spent + c > float(u.get("mp") or 0):
                    continue
                heapq.heappush(heap, (spent + c, path + [n]))
        return None

    # --- replacements, attacks, standing orders -----------------------------------------------
    def replacements(self) -> list[dict]:
        """13.2/13.3: up to 2 reduced units on the map back to full strength."""
        limit = int(((self.st["rules"].get("replacements") or {}).get("steps_per_turn") or {}).get(self.side, 2))
        out = []
        for uid, u in sorted(self.st["units"].items()):
            if u["side"] == self.side and u.get("hex") is not None and 0 < int(u["steps"]) < int(u["full_steps"]):
                out.append({"unit": uid})
        return out[:limit]

    def _strengths(self, attackers: list[str], target: str, counter: bool = False):
        from hxref.systems.salem_church import combat as cb

        tn = self.tn
        att = [tn.as_unit(self.work, self.hm, a) for a in attackers]
        dfd = [tn.as_unit(self.work, self.hm, d) for d in tn.units_in(self.work, target, self.enemy)]
        a = cb.attack_strength(att, tn.terrain_names(self.hm, target), counter_attack=counter)
        d = cb.defence_strength(dfd)
        return cb.differential(a, d)

    def _targets(self, attacking_side: str) -> list[tuple[str, list[str]]]:
        """Every enemy hex with a combat unit next to ``attacking_side``'s combat units -> those units."""
        defending = "union" if attacking_side == "confederate" else "confederate"
        mine = self.units(attacking_side, ("infantry", "artillery"))
        out = []
        for target, there in sorted(self.occupied(defending).items()):
            if not [u for u in there if self.work["units"][u]["type"] in ("infantry", "artillery")]:
                continue
            if any(self.work["units"][u]["type"] == "wagon_train" for u in there):
                continue
            adj = [u for u in mine if self.work["units"][u]["hex"] in self.neighbours(target)]
            if adj:
                out.append((target, adj))
        return out

    def _can_attack(self, units: list[str], target: str) -> list[str]:
        """TEC: only infantry attacks into heavy woods."""
        if "heavy_woods" in self.tn.terrain_names(self.hm, target):
            return [u for u in units if self.work["units"][u]["type"] == "infantry"]
        return units

    def attacks(self) -> list[dict]:
        out, used = [], set()
        keys = {"0609", "0610", "1204", "1302", "2114", "2407"}
        targets = self._targets(self.side)
        targets.sort(key=lambda t: (t[0] not in keys, -len(t[1]), t[0]))
        for target, adj in targets:
            units = self._can_attack([u for u in adj if u not in used], target)
            if not units:
                continue
            diff = self._strengths(units, target)
            if diff < SALEM_ODDS:
                continue
            used.update(units)
            first = max(units, key=lambda u: (self.work["units"][u]["type"] == "infantry",
                                              int(self.work["units"][u]["steps"]), u))
            a = {"attackers": units, "target": target, "first": first}
            if target in keys:
                a["advance"] = True
            out.append(a)
        return out

    def standing(self) -> dict:
        """Answers during the enemy's turn: hold ground (disrupt rather than retreat), take the loss
        on Ax/Dx, retreat 1 hex (2 for the Union); 7.2 counter-attacks where doubled CF tells."""
        out: dict = {"choice": "disrupt", "loss": "loss", "hexes": 1 if self.side == "confederate" else 2}
        counters, used = [], set()
        for target, adj in self._targets(self.side):
            units = self._can_attack([u for u in adj if u not in used], target)
            if units and self._strengths(units, target, counter=True) >= SALEM_COUNTER_ODDS:
                counters.append({"units": units, "target": target})
                used.update(units)
        if counters:
            out["counter_attacks"] = counters
        return out


def plan_salem(game: str, side: str) -> dict:
    """Orders for ``side``'s awaited Salem Church player turn, checked by the system itself."""
    from hxref.referee.engine import Engine

    eng = Engine.load(game)
    dec = eng.awaiting[0]
    if dec.kind == "setup":
        return plan_salem_setup()
    choice = SalemPlanner(eng.state, side, eng.system.charts).orders()
    for _ in range(30):
        problems = eng.system.check(eng.state, dec, side, choice)
        if not problems:
            return choice
        where = list(problems[0].path or [])
        if len(where) >= 2 and where[0] in ("moves", "attacks", "bombard") and isinstance(where[1], int):
            del choice[where[0]][where[1]]          # drop the move or attack hxref refuses
        elif where[:1] == ["standing"]:
            choice["standing"].pop("counter_attacks", None)
        elif where[:1] == ["replacements"]:
            choice.pop("replacements")
        else:
            raise SystemExit(f"the scripted {side} player wrote orders hxref refuses: {problems[0].message}")
    raise SystemExit(f"the scripted {side} player could not write legal orders")


GAMES = {
    "heartland": {
        "scenario": "bidding-demo",
        "game_id": "heartland-bidding-demo",
        "created": "2026-11-29T12:00:00Z",
        "mode": "open",
        "players": {"union": "union", "confederate": "confederate"},
        "script": [
            ("say", "Turn 1, April 1862. Both sides seal a bid of 3: a tie, so they bid again (5.12)."),
            ("bid", {"union": 3, "confederate": 3}),
            ("say", "Re-bid: the Union bids 2, the Confederates 4. The Confederates win, pay 5 WEP and roll "
                    "the weather; both first impulses use the bids (5.11, 5.15)."),
            ("bid", {"union": 2, "confederate": 4}),
            ("say", "Then the sides alternate, each declaring its level (5.15); when the Confederates have "
                    "no levels left, the Union plays its last impulses in a row (5.17)."),
            ("level", "confederate", 1),
            ("level", "union", 1),
            ("level", "union", 1),
            ("say", "Turn 2, May. The Union bids its whole maximum of 4: one impulse only, then the "
                    "Confederates play two in a row, at their bid and with the rest (5.14)."),
            ("bid", {"union": 4, "confederate": 2}),
            ("say", "Turn 3, June. The Union passes; the Confederates bid 4 of 5, more than half: they "
                    "play the turn alone, 3 then 2 (5.13a). June weather is Clear without a roll (5.2)."),
            ("bid", {"union": 0, "confederate": 4}),
        ],
    },
}


HEARTLAND_DEMO = {
    "system": "heartland",
    "scenario": "heartland-demo",
    "game_id": "heartland-demo",
    "created": "2026-11-29T12:00:00Z",
    # the join nonces whose dice bring a Confederate force within reach of calloway in a Union
    # impulse (tests/core/test_templates.py shows the defence template there)
    "join_salt": 1,
    "mode": "umpired",
    "players": {"union": "union", "confederate": "confederate"},
    "umpire": "umpire",
    "script": [
        ("say", "Turn 1, September 1862. The umpire holds the game file; each side sees only its own army "
                "and the top counter of every enemy stack (3.71). The sides bid; the Confederates win."),
        ("bid", {"union": 2, "confederate": 3}),
        ("report", "confederate"),
        ("say", "Each impulse the phasing side sends one orders file: for each force an intended path. The "
                "referee rolls the IMC (secretly), moves the force as far as its MP go, stops it on entering "
                "enemy ZOC, and makes attack checks (8.2-8.4). Standing orders answer the enemy's assaults."),
        ("impulses", {"confederate": {"calloway": "1610", "duvall": "1614", "strother": "1504"},
                      "union": {"whitcomb": "1510", "dunning": "1404", "royce": "1514"}}),
        ("report", "union"),
        ("say", "Turn 2, October. The armies face each other across the Sallow's bridges."),
        ("bid", {"union": 3, "confederate": 3}),
        ("bid", {"union": 4, "confederate": 2}),
        ("impulses", {"confederate": {"calloway": "1610", "duvall": "1716", "strother": "1504"},
                      "union": {"whitcomb": "1510", "dunning": "1404", "royce": "1615"}}),
        ("say", "Turn 3, November. The Union passes; the Confederates bid 4 of their 5, more than half "
                "their maximum: they play the turn alone, 3 then 2 (5.13a)."),
        ("bid", {"union": 0, "confederate": 4}),
        ("impulses", {"confederate": {"calloway": "1610", "duvall": "1716", "strother": "1403"},
                      "union": {}}),
        ("report", "confederate"),
    ],
}

GAMES["heartland-demo"] = HEARTLAND_DEMO
GAMES["heartland"]["system"] = "heartland"

SALEM_DEMO = {
    "system": "salem-church",
    "scenario": "salem-church",
    "game_id": "salem-church-demo",
    "created": "2026-11-29T12:00:00Z",
    "mode": "umpired",
    "players": {"union": "union", "confederate": "confederate"},
    "umpire": "umpire",
    "script": [
        ("say", "Salem Church, 3-4 May 1863, by e-mail. The umpire holds the game file and resolves every "
                "player turn with his key; each side sees the enemy only in its line of sight (TEC), so each "
                "player's report is his own. Each player turn is one signed orders file: entry, replacements, "
                "moves, attacks and the standing orders for the enemy's turn."),
        ("salem", {}),
    ],
}
GAMES["salem-church"] = SALEM_DEMO


def _salem_turn_note(state: dict) -> str:
    """What the scenario brings in the turn about to be played (for the demo's narration)."""
    t = state["turn"]
    rules = state["rules"]
    bits = []
    for g in rules.get("reinforcements", []):
        if int(g["turn"]) == t:
            names = ", ".join(state["units"][u]["name"] for u in g["units"])
            bits.append(f"{'Union' if g['side'] == 'union' else 'Confederate'} arrivals at "
                        f"{' or '.join(g['entry_hexes'])} ({g['rule']}): {names}")
    if t in rules["night"]["turns"]:
        bits.append("NIGHT: no combat and no moving next to the enemy (18.0)")
    if t >= 7:
        bits.append("the Union rolls for its initiative first (17.1)")
    return f"Turn {t} of {rules.get('turns', 14)}" + (": " + "; ".join(bits) if bits else "") + "."


def _salem_turn_summary(events: list[dict]) -> str:
    """One line on the turn just played: combats, losses, the wagon train."""
    kinds = [e.get("type") for e in events]
    n, c = kinds.count("move"), kinds.count("combat")
    out = [f"{n} move{'s' if n != 1 else ''}", f"{c} combat{'s' if c != 1 else ''}"]
    for e in events:
        if e.get("type") in ("wagon.exit", "wagon.captured", "victory"):
            out.append(e["text"])
    return "; ".join(out)


def _write_salem_orders(path: str, game: str, decision: str, side: str, key: str, choice: dict) -> None:
    """A player's order file as a person writes it from `hxref template`: hex labels and the train's
    'off' quoted, short lists on one line, and the side's next dice-chain link (what `hxref sign
    --game` fills in); `hxref sign` then adds the signature."""
    from hxref.referee.engine import Engine
    from hxref.crypto.signing import load_private_key

    from ruamel.yaml.comments import CommentedSeq
    from ruamel.yaml.scalarstring import SingleQuotedScalarString

    def flow(x, key=None):
        if isinstance(x, dict):
            return {k: flow(v, k) for k, v in x.items()}
        if isinstance(x, list):
            if all(not isinstance(v, (dict, list)) for v in x):
                seq = CommentedSeq([flow(v, key) for v in x])
                seq.fa.set_flow_style()
                return seq
            return [flow(v) for v in x]
        if isinstance(x, str) and key in ("path", "target", "entry", "hex"):
            return SingleQuotedScalarString(x)     # '0609', and the train's 'off' (YAML 1.1 reads off as false)
        return x

    eng = Engine.load(game)
    dec = eng.decision(decision)
    body = {"hxref": 2, **eng.envelope(side, decision, "answer")}
    if side in eng.dice_parties(dec) and eng.links_in_answers(dec):
        body["link"] = eng.next_link(side, load_private_key(key), dec)
    body["choice"] = flow(choice)
    Path(path).write_text(f"# Orders of the {side} for {decision} (hxref demo).\n"
                          + yamlio.dump_rt(body), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# KGP CG-II "The Bridge at Cheneux": the campaign around the ASL scenarios

KGP_PLAN = {
    # dD.setup: what each side seals with `hxref kgp seal` (id, kind, value) and its secret drs
    "setup": {
        # 8.2 Objective Hex: one for each I/HW RG of the Initial OB (US 3 x I2; German 2 x I2, HW2)
        "us": {"seal": [("objective-ob-us-I2-1", "objective_hex", "ChW8"), ("objective-ob-us-I2-2", "objective_hex",
                        "ChV7"), ("objective-ob-us-I2-3", "objective_hex", "ChY10")]},
        "german": {"secret_drs": ["7.2 dummy minefields"],
                   "seal": [("objective-ob-german-I2-1", "objective_hex", "ChMM8"),
                            ("objective-ob-german-I2-2", "objective_hex", "ChLL7"),
                            ("objective-ob-german-HW2-1", "objective_hex", "ChOO5")]},
    },
    # each CG scenario played: the turn a secret is opened, the last turn (if no Game End dr ended it),
    # the Night reinforcement dr of the Scenario Defender, and the reports (round 1 may disagree)
    "scenarios": {
        "20PM": {
            "open": {3: [("us", "objective-ob-us-I2-1", "tem")]},
            "last_turn": 10,
            "report": {"lvp": {"us": 4, "german": 8}, "cvp": {"us": 6, "german": 9},
                       "hexes": {"us": ["ChW8", "ChX9"], "german": ["ChNN6", "ChKK5", "ChJJ7", "ChII6"]},
                       "facts": {"prisoners": True, "wounded_leaders": True}},
            "lost": {"us": ["2 x 7-4-7 squad", "1 x 2-4-7 HS"], "german": ["1 x 6-5-8 squad", "1 x 37L AA HT"]},
            "disagree": {"german": {"lvp": {"us": 3, "german": 9}}},
        },
        "20N": {
            "last_turn": 8,
            "reinforcements": True,
            "report": {"lvp": {"us": 5, "german": 9}, "cvp": {"us": 8, "german": 7},
                       "hexes": {"us": ["ChW8", "ChX9", "ChII6"], "german": ["ChNN6", "ChKK5", "ChJJ7"]},
                       "facts": {"fires": True, "melee": True}},
            "lost": {"us": ["1 x 7-4-7 squad"], "german": ["2 x 6-5-8 squad", "1 x LMG"]},
        },
        "21PM": {
            "last_turn": 10,
            "report": {"lvp": {"us": 11, "german": 2}, "cvp": {"us": 14, "german": 6},
                       "hexes": {"us": ["ChNN6", "ChKK5", "ChJJ7", "ChII6", "ChW8", "ChX9"],
                                 "german": ["ChQQ4"]},
                       "facts": {"prisoners": True, "encircled_or_mined": True}},
            "lost": {"us": ["1 x 7-4-7 squad", "1 x 8-1 leader"], "german": ["3 x 6-5-8 squad", "1 x HMG"]},
        },
    },
    # dD.refit, sealed with `hxref commit`: seal = (id, kind, value) sealed with `hxref kgp seal` first
    "refits": {
        "20N": {
            "us": {"chit": "idle", "cpp_replenishment": 4, "purchase": ["I2"],
                   "seal": [("objective-I2-1", "objective_hex", "ChLL9")],
                   "notes": "8.620: the paratroop platoon is at Full Strength (8.6193)"},
            "german": {"chit": "attack", "cpp_replenishment": 2, "purchase": ["V4"]},
        },
        "21AM": {
            "us": {"chit": "idle", "cpp_replenishment": 3, "purchase": ["V5"]},
            "german": {"chit": "idle", "cpp_replenishment": 2, "purchase": []},
        },
        "21PM": {
            "us": {"chit": "attack", "cpp_replenishment": 3, "purchase": ["O1"]},
            "german": {"chit": "idle", "cpp_replenishment": 2, "purchase": ["HW2"],
                       "seal": [("objective-HW2-1", "objective_hex", "ChPP3")]},
        },
    },
}

KGP_SAY = {
    "setup": "20PM, the Initial Scenario (8.52): the Germans set up first, the US moves first. Each side sends "
             "its set-up orders: the US seals the Objective Hex of its paratroopers with `hxref kgp seal` (the "
             "commitment goes in the orders; the hex and its salt stay in its private file "
             "game-us-secrets.yaml); the German asks for a secret dr for his dummy minefields, rolled with the "
             "verifiable dice and shown to him alone.",
    "turns": "ASL is played at the table (or by VASL). Each scenario turn the side moving first sends one turn "
             "report: the rolls the rules call for -- a Game End dr by each phasing player from Turn 6 (+1 at "
             "Night), the Night Scenario Defender's reinforcement dr (SSR CG5) -- the secrets opened, and the "
             "end. No Sniper selection dr is ever asked: the Ch map group has 1 Sniper counter (SSR CG16), "
             "and hxref refuses one.",
    "open": "Turn {turn}: the paratroopers reach their Objective Hex. The US opens it with `hxref kgp open` "
            "(value and salt from its private file, and the terrain condition the hex meets); hxref checks them "
            "against the commitment sealed at set-up, and that the hex may be an Objective Hex (8.2).",
    "disagree": "{date} is over. Both sides report its outcome (8.603). The German counts one building of "
                "Cheneux as his: the two reports disagree on the LVP, so both sides report again.",
    "again": "{date}, report round {round}: the sides check the map together; the German accepts the US "
             "count, and both send the same report again (d{date}.report.{round}).",
    "agree": "{date}: the reports agree. hxref writes the CG Roster and the CG-LVP Totals (8.603){initial}, then "
             "walks the Refit Phase checklist up to the sealed choices: each step computed, recorded or skipped "
             "with its reason (8.6).",
    "refit": {
        "20N": "The 20N Refit Phase: each side seals its CPP replenishment (8.616), RG purchases (8.619) and "
               "Idle/Attack chit (8.623) with `hxref commit`, and sends the reveal once both have committed. "
               "The US buys RG I2, an infantry RG, and seals its Objective Hex in the same orders; the Germans "
               "buy an RG and play their only Attack chit (CG-II allows them 1): a night counter-attack.",
        "21AM": "The 21AM Refit Phase: both sides choose Idle. 21AM is an Idle Date (8.2): no scenario, and the "
                "'*' steps of the Refit Phase are done again for 21PM (8.612-8.623).",
        "21PM": "The 21PM Refit Phase: the Germans have used their one Attack chit, so hxref would refuse "
                "another (`hxref check` says so): they choose Idle and buy an MG platoon, with its Objective "
                "Hex. The US attacks (its first Attack chit of the 3 CG-II allows it).",
    },
    "scenario": {
        "20N": "20N, a Night CG scenario: the Germans attack and move first, so they send the turn reports; the "
               "US, the Night Scenario Defender, rolls for its reinforcements (SSR CG5: dr < the turn).",
        "21PM": "21PM, the last CG Date: the US attacks the bridge at Cheneux and moves first.",
    },
    "end": "21PM is over: the last CG Date's scenario has ended, so the CG ends (8.2 CG End) and hxref makes "
           "the victory determination (8.52): the US needs 10 LVP hexes, the NN6 bridge counting 5.",
}


def _kgp_seal(side: str, item: tuple) -> dict:
    """`hxref kgp seal`: the commitment for the orders (the value and salt stay in GAME-SIDE-secrets.yaml)."""
    import json

    item_id, kind, value = item
    out = run(["kgp", "seal", "game.yaml", "--side", side, "--id", item_id, "--kind", kind, "--value", value])
    return json.loads(out.strip().splitlines()[-1])


def _kgp_open(side: str, item_id: str, meets: str | None = None) -> dict:
    """`hxref kgp open`: the `reveal` entry for a sealed secret (an Objective Hex names the terrain it meets)."""
    import json

    extra = ["--meets", meets] if meets else []
    return json.loads(run(["kgp", "open", "game.yaml", "--side", side, "--id", item_id, *extra])
                      .strip().splitlines()[-1])


def _kgp_turn(state: dict, plan: dict) -> dict:
    """The keeper's turn report: the rolls the rules allow now (checked by hxref before it is written)."""
    from hxref.kit.charts import Charts
    from hxref.systems.kgp.scenario_rolls import request_problems

    sc, t = state["scenario"], state["turn"]
    keeper = sc["moves_first"]
    other = "german" if keeper == "us" else "us"
    choice: dict = {}
    reveal = [_kgp_open(*item) for item in plan.get("open", {}).get(t, [])]
    if reveal:
        choice["reveal"] = reveal
    if t >= plan["last_turn"]:      # CG Game End: only a Game End dr ends it, so `end` goes with the drs
        choice["end"] = True
    wanted = [{"roll": "game_end", "side": keeper}]                    # the first Player Turn's end
    if plan.get("reinforcements") and t >= 2:       # CG5, the Defender's own RPh: dr < turn (none on Turn 1)
        wanted.append({"roll": "reinforcement", "side": sc["defender"]})
    wanted.append({"roll": "game_end", "side": other})                  # the second Player Turn's end
    # the demo game is made here from today's files, so today's charts are the ones it pinned
    charts = Charts.today("kgp")
    rolls = [r for r in wanted if not request_problems(charts, r["roll"], t, r["side"], state, r)]
    if rolls:
        choice["rolls"] = rolls
    return choice


def play_kgp(plan: dict, keys: dict, submit, resolve, steps: list) -> None:
    """Every KGP decision to the end of the CG, answered from ``plan`` through the real command line."""
    import json

    from hxref.referee.engine import Engine

    def answer(side: str, choice: dict) -> str:
        dec = _awaiting()["id"]
        run(["answer", "game.yaml", "--side", side, "--key", keys[side], "--choice", json.dumps(choice)])
        return f"{side}-{dec}.yaml"

    while (dec := _awaiting()):
        state = Engine.load("game.yaml").state
        date, kind = state["date"], dec["kind"]
        if kind == "setup":
            steps.append({"say": KGP_SAY["setup"]})
            files = []
            for side in keys:
                p = plan["setup"].get(side, {})
                choice = {"seal": [_kgp_seal(side, s) for s in p.get("seal", [])]}
                if p.get("secret_drs"):
                    choice["secret_drs"] = [{"purpose": x} for x in p["secret_drs"]]
                files.append(answer(side, choice))
            submit(files)
            resolve()
            steps.append({"say": "Each side's report shows its own secrets: the US its sealed Objective Hex, "
                                 "the German his secret dr; neither sees the other's."})
            steps += [{"report": "us"}, {"report": "german"}]
            steps.append({"say": KGP_SAY["turns"]})
        elif kind == "turn":
            sp = plan["scenarios"][date]
            t = state["turn"]
            if t == 1 and date in KGP_SAY["scenario"]:
                steps.append({"say": KGP_SAY["scenario"][date]})
            if t in sp.get("open", {}):
                steps.append({"say": KGP_SAY["open"].format(turn=t)})
            keeper = dec["sides"][0]
            submit([answer(keeper, _kgp_turn(state, sp))])
            resolve()
            if t in sp.get("open", {}):
                steps.append({"report": "public"})
        elif kind == "report":
            sp = plan["scenarios"][date]
            rnd = state["report_round"]
            if rnd == 1:
                now = Engine.load("game.yaml").state
                ended = [r for r in now["rolls"] if r["date"] == date and "scenario ends" in r["why"]]
                steps.append({"say": f"{date} ended after turn {now['turn']}"
                                     + (" on a Game End dr." if ended else ", its last turn.")})
            files = []
            for side in keys:
                choice = json.loads(json.dumps(sp["report"]))
                if rnd == 1:
                    choice.update(sp.get("disagree", {}).get(side, {}))
                if sp.get("lost", {}).get(side):
                    choice["lost"] = sp["lost"][side]
                files.append(answer(side, choice))
            if rnd == 1 and sp.get("disagree"):
                steps.append({"say": KGP_SAY["disagree"].format(date=date)})
            elif rnd > 1:
                steps.append({"say": KGP_SAY["again"].format(date=date, round=rnd)})
            if date == state["dates"][-1]:
                steps.append({"say": KGP_SAY["end"]})
            submit(files)
            resolve()
            if _awaiting() and _awaiting()["kind"] == "report":
                steps.append({"report": "public"})
                continue
            initial = " -- the US wins the Initial Scenario: its Current LVP Total is 1 or more" \
                if state["scenario"].get("initial") else ""
            if _awaiting():
                steps.append({"say": KGP_SAY["agree"].format(date=date, initial=initial)})
                steps.append({"report": "public"})
        elif kind == "refit":
            steps.append({"say": KGP_SAY["refit"][date]})
            rp = plan["refits"][date]
            for side in keys:
                p = dict(rp[side])
                p["seal"] = [_kgp_seal(side, s) for s in p.get("seal", [])]
                if not p["seal"]:
                    del p["seal"]
                run(["commit", "game.yaml", "--side", side, "--key", keys[side], "--choice", json.dumps(p)])
            for side in keys:
                submit([f"{side}-{dec['id']}-commit.yaml"])
            submit([f"{side}-{dec['id']}-reveal.yaml" for side in keys])
            resolve()
            steps.append({"say": "Each side's report: its own CPP, RGs and sealed Objective Hexes; the chits are "
                                 "public."})
            steps += [{"report": "us"}, {"report": "german"}]
        else:
            raise SystemExit(f"the KGP demo does not know the decision {dec['id']} ({kind})")


KGP_DEMO = {
    "system": "kgp",
    "scenario": "cg-ii",
    "game_id": "kgp-cg-ii-demo",
    "created": "2026-11-29T12:00:00Z",
    "mode": "umpired",
    "players": {"us": "us", "german": "german"},
    "umpire": "umpire",
    "script": [
        ("say", "KGP CG-II, The Bridge at Cheneux, 20-21 December 1944 (8.52): Co. B and part of Co. C of the "
                "1st Bn/504th PIR against the II/2nd SS PzGren Rgt, 4 CG Dates (20PM, 20N, 21AM, 21PM). hxref "
                "does not play ASL's turns; it referees what the campaign needs around them. The umpire holds "
                "the game file and resolves each decision with his key, so each side's purchases, CPP and "
                "secrets stay its own."),
        ("kgp", KGP_PLAN),
    ],
}
GAMES["kgp"] = KGP_DEMO


# ---------------------------------------------------------------------------------------------
# ACW miniatures, The Fight for Mercer's Mill: the scripted players

#: where each unit heads: a list of legs, each (waypoint, done-when); the first leg not done is the
#: one it follows.  "west": while the unit's centre is west of Tolley Creek; "south"/"north"/"east":
#: while its centre is south of / north of / east of the given coordinate.
ACW_ROUTES = {
    # Union.  The west-bank brigades cross at the Stone Bridge; the battery comes up the Valley Road
    # to a knoll short of the town (artillery may not end in a town, A3); the cavalry rides round
    # the Mill Pond to the town's east side.
    "us-1": [((29.0, 24.0), "west"), ((38.0, 24.0), None)],
    "us-2": [((29.0, 24.0), "west"), ((38.0, 23.0), None)],
    "us-3": [((40.0, 22.0), None)],
    "us-4": [((42.0, 13.0), None)],
    "us-5": [((44.5, 22.5), None)],
    "us-6": [((68.0, 19.0), ("south", 17.5)), ((51.5, 22.0), None)],
    # Confederates.  The west-bank brigades cross at Cobb's Ford; the battery comes down the
    # Valley Road; the cavalry rides round Hollins Wood (cavalry may not enter woods, A3).
    "cs-1": [((27.6, 31.6), "west"), ((40.0, 27.0), None)],
    "cs-2": [((27.6, 31.6), "west"), ((38.5, 25.5), None)],
    "cs-3": [((40.0, 26.0), None)],
    "cs-4": [((42.0, 35.0), None)],
    "cs-5": [((44.5, 25.5), None)],
    "cs-6": [((66.0, 27.0), ("north", 28.5)), ((52.0, 26.0), None)],
}
#: the crossings: a unit at a crossing's near side heads for its far side next
ACW_CROSSINGS = {(29.0, 24.0): (36.0, 24.0), (27.6, 31.6): (33.5, 34.5)}
ACW_OFFSETS = (0, 8, -8, 16, -16, 25, -25, 35, -35, 50, -50, 70, -70, 90, -90)
ACW_FRACTIONS = (1.0, 0.75, 0.5, 0.25)


class AcwPlanner:
    """One side's orders for its ACW player turn, planned from the state (re-planned every turn).

    Units that have an enemy in their field of fire and range stay and shoot (the nearest such
    enemy, as the rules module measures it).  The others follow their route (ACW_ROUTES) with one
    legal straight move (pivot, advance, pivot): among headings near the straight line to the
    waypoint and shorter advances, the one that ends nearest the waypoint without crowding a
    friend, each checked by :func:`movement.check_move` against the units as moved so far.  A unit
    at the end of its route seeks the nearest enemy (to just inside its range), except infantry
    in the town, which hold it.  A unit ends its move facing the nearest enemy, so it may shoot
    next turn; one that cannot move usefully pivots to face an enemy in range but out of its arc.
    """

    def __init__(self, state: dict, side: str, tm):
        from hxref.systems.acw_minis import movement, sequence, shooting, system, units

        self.r, self.side = units, side
        self.check_move, self.check_shot = movement.check_move, shooting.check_shot
        self.tm = tm
        self.opts = system._options(state)
        self.units = sequence.start_player_turn(system._units(state), side)
        self.town = next(a for a in self.tm.table.areas if a.name == state["victory_rule"]["town"]["area"])
        self.river = self.tm.table.rivers[0].line

    # --- geometry -----------------------------------------------------------------------------
    def west_of_creek(self, xy) -> bool:
        from shapely.geometry import LineString

        cut = self.river.intersection(LineString([(-1, xy[1]), (200, xy[1])]))
        xs = [p.x for p in getattr(cut, "geoms", [cut]) if not p.is_empty]
        return bool(xs) and xy[0] < min(xs)

    def goal(self, uid: str, u=None) -> tuple[int, tuple[float, float], bool]:
        """(progress along the route, the waypoint now, whether it is the route's last)."""
        import math

        u = u or self.units[uid]
        route = ACW_ROUTES[uid]
        for i, (point, done) in enumerate(route):
            if done == "west":
                if not self.west_of_creek(u.centre):
                    continue
                if math.dist(u.centre, point) < 1.0:
                    return 2 * i + 1, ACW_CROSSINGS[point], False
                return 2 * i, point, False
            if isinstance(done, tuple):
                how, v = done
                if (how == "south" and u.y >= v) or (how == "north" and u.y <= v):
                    continue
            return 2 * i, point, i == len(route) - 1
        return 2 * len(route), route[-1][0], True

    def enemies(self) -> list[str]:
        return sorted(k for k, u in self.units.items() if u.side != self.side)

    def targets(self, work, uid: str) -> list[tuple[float, str]]:
        """The enemies ``uid`` may shoot now, nearest first (range as the rules measure it)."""
        out = []
        for e in self.enemies():
            chk = self.check_shot(self.tm, work, uid, e, phasing=self.side, options=self.opts)
            if chk.ok:
                out.append((chk.range, e))
        return sorted(out)

    def nearest_enemy(self, xy):
        import math

        return min(((math.dist(xy, self.units[e].centre), e) for e in self.enemies()), default=(None, None))

    def holds_town(self, u) -> bool:
        return u.type in ("infantry", "zouaves") and self.town.contains_point(u.centre)

    def crowding(self, work, uid: str, unit) -> float:
        """How much a base at ``unit`` crowds its friends (room to pivot: 2.5" apart costs nothing)."""
        poly = unit.base.polygon
        gaps = [poly.distance(o.base.polygon) for k, o in work.items() if k != uid and o.side == self.side]
        return 3.0 * max(0.0, 2.5 - min(gaps, default=9.0))

    # --- orders -------------------------------------------------------------------------------
    def best_move(self, work, uid: str, score, lengths_to: float):
        """The legal straight move with the least ``score(end unit)``, if it gains half an inch."""
        from hxref.geometry.table import bearing

        u = work[uid]
        allowance = self.r.MOVE_ALLOWANCE[u.type]
        lengths = sorted({round(min(lengths_to, allowance + self.r.ROAD_BONUS), 1)}
                         | {round(min(lengths_to, allowance * f), 1) for f in ACW_FRACTIONS}, reverse=True)
        want = bearing(u.centre, self._aim)
        now = score(u)
        best = None
        for off in ACW_OFFSETS:
            pivot = round(self.r._turn(u.facing, want + off), 1)
            for adv in lengths:
                if adv <= 0.05:
                    continue
                order = {"pivot_start": pivot, "advance": adv} if pivot else {"advance": adv}
                m = self.check_move(self.tm, work, uid, order, phasing=self.side, options=self.opts)
                if not m.ok:
                    continue
                sc = score(m.end)
                if best is None or sc < best[0] - 1e-6:
                    best = (sc, order, m)
                break               # the longest legal advance on this heading
        if best is None or best[0] > now - 0.5:
            return None
        return best[1], best[2]

    def route_move(self, work, uid: str):
        import math

        u = work[uid]
        _, goal, last = self.goal(uid, u)
        here = math.dist(u.centre, goal)
        if here < 0.75 or (last and self.holds_town(u)):
            return None
        self._aim = goal
        return self.best_move(work, uid, lambda v: math.dist(v.centre, goal) + self.crowding(work, uid, v), here)

    def seek_move(self, work, uid: str):
        """At the route's end and nothing to shoot: close on the nearest enemy to just inside range."""
        import math

        u = work[uid]
        if self.holds_town(u):
            return None
        dist, e = self.nearest_enemy(u.centre)
        if e is None:
            return None
        want = self.r.RANGE[u.type] - 1.0
        if dist <= want + 0.5:
            return None
        self._aim = self.units[e].centre
        return self.best_move(work, uid, lambda v: abs(math.dist(v.centre, self._aim) - want)
                              + self.crowding(work, uid, v), dist - want)

    def face_enemy(self, work, uid: str, order: dict, end):
        """``order`` with an end pivot toward the nearest enemy, when that is legal."""
        from hxref.geometry.table import bearing

        dist, e = self.nearest_enemy(end.centre)
        if e is None or dist > 30:
            return order
        turn = round(self.r._turn(end.facing, bearing(end.centre, self.units[e].centre)), 1)
        if abs(turn) < 1:
            return order
        full = dict(order, pivot_end=turn)
        m = self.check_move(self.tm, work, uid, full, phasing=self.side, options=self.opts)
        return full if m.ok else order

    def orders(self) -> dict:
        import math

        work = dict(self.units)

        def first(k):           # the units furthest along their routes move first, out of the others' way
            progress, goal, _ = self.goal(k)
            return (-progress, math.dist(work[k].centre, goal), k)

        moves, shots = [], []
        for uid in sorted((k for k, u in work.items() if u.side == self.side), key=first):
            tg = self.targets(work, uid)
            if tg:
                shots.append({"shooter": uid, "target": tg[0][1]})
                continue
            found = self.route_move(work, uid) or self.seek_move(work, uid)
            if found:
                order = self.face_enemy(work, uid, found[0], found[1].end)
            else:
                dist, _ = self.nearest_enemy(work[uid].centre)
                if dist is None or dist > self.r.RANGE[work[uid].type] + 1:
                    continue            # nothing to do: it stays put
                order = self.face_enemy(work, uid, {}, work[uid])
                if not order:
                    continue
            m = self.check_move(self.tm, work, uid, order, phasing=self.side, options=self.opts)
            if m.ok:
                moves.append({"unit": uid, **order})
                work[uid] = m.end
        return {"moves": moves, "shots": shots}


def plan_acw(game: str, side: str) -> dict:
    """Orders for ``side``'s awaited ACW player turn, checked by the system itself before answering."""
    from hxref.referee.engine import Engine

    eng = Engine.load(game)
    dec = eng.awaiting[0]
    choice = AcwPlanner(eng.state, side, eng.system.table(eng.state)).orders()
    problems = eng.system.check(eng.state, dec, side, choice)
    if problems:
        raise SystemExit(f"the scripted {side} player wrote orders hxref refuses: {problems[0].message}")
    return choice

ACW_DEMO = {
    "system": "acw-minis",
    "scenario": "mercers-mill",
    "game_id": "acw-mercers-mill-demo",
    "created": "2026-11-29T12:00:00Z",
    "mode": "open",
    "players": {"union": "union", "confederate": "confederate"},
    "script": [
        ("say", "The Fight for Mercer's Mill (an original scenario on a 72 x 48 inch table): six Union and six "
                "Confederate units make for the town at the crossroads, beyond the Stone Bridge and Cobb's Ford "
                "over Tolley Creek. Nothing is secret in these rules, so the game is open: each player turn the "
                "phasing player sends one signed orders file (moves, then shots by the units that did not move) "
                "and the other player sends his dice link with `hxref roll`, so neither chooses the dice. "
                "Victory (the scenario's own rule): 4 of the 6 enemy units eliminated at once; else the side "
                "alone in Mercer's Mill at the end of turn 15; else a draw."),
        ("acw", {}),
    ],
    "end_say": "The end of the game. The public report, each player's report (the same: nothing is secret in "
               "these rules), and the audit that replays every signature and die:",
}
GAMES["acw-minis"] = ACW_DEMO


def _acw_summary(side: str, events: list[dict]) -> str:
    """One line on an ACW player turn just played: moves, shots and hits, eliminations, the result."""
    n = sum(1 for e in events if e.get("type") == "move")
    shots = [e for e in events if e.get("type") == "shot"]
    hits = 0
    for e in shots:
        tail = e["text"].rsplit(":", 1)[-1]
        hits += int(tail.split()[0]) if tail.split() and tail.split()[0].isdigit() else 0
    out = [f"{n} move{'s' if n != 1 else ''}", f"{len(shots)} shot{'s' if len(shots) != 1 else ''} "
           f"({hits} hit{'s' if hits != 1 else ''})"]
    for e in events:
        if e.get("type") == "eliminate" and " eliminated" in e["text"]:
            out.append(e["text"].split(": ", 1)[-1])
        elif e.get("type") == "victory":
            out.append(e["text"])
    return f"The {side} player turn: " + "; ".join(out) + "."


def play_acw(sides: dict, submit, resolve, steps: list) -> None:
    """Every ACW player turn to the end of the game: the phasing side answers with the scripted player's
    orders (`hxref answer`, checked by hxref), the other side gives its dice link (`hxref roll`)."""
    import json

    from hxref.referee.engine import Engine

    while (dec := _awaiting()):
        side = dec["sides"][0]
        other = next(s for s in sides if s != side)
        state = Engine.load("game.yaml").state
        if side == state["order"][0]:
            steps.append({"say": f"Turn {state['turn']} of {state['turns']}."})
        choice = plan_acw("game.yaml", side)
        run(["answer", "game.yaml", "--side", side, "--key", sides[side], "--choice", json.dumps(choice)])
        submit([f"{side}-{dec['id']}.yaml"])
        # the other side's dice link follows the answer it sees: sent in the mail that carries its own
        # next orders, so a player turn costs each side one mail
        run(["roll", "game.yaml", "--side", other, "--key", sides[other]])
        submit([f"{other}-{dec['id']}-roll.yaml"])
        resolve()
        log = Engine.load("game.yaml").gf.log
        played = [e["data"] for e in log if e["kind"] == "rules" and e["data"].get("decision") == dec["id"]]
        nxt = _awaiting()
        steps.append({"say": _acw_summary(side, played) + (f" The {nxt['sides'][0]} player's report, for his "
                                                           "orders:" if nxt else "")})
        if nxt:
            steps.append({"report": nxt["sides"][0]})


def run(args: list[str]) -> str:
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"hxref {' '.join(args)} failed:\n{res.output}")
    return res.output


def _awaiting() -> dict | None:
    head = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])
    return head["awaiting"][0] if head["awaiting"] else None


#: every demo is made with hxref's default deadline policy, written out so that the demo does not
#: change when the default does
DEMO_POLICY = {"deadline_hours": 168, "grace_hours": 48, "nmr": "stand-fast"}


#: the new game, as first made, whose pinned data files every replay of the demo plays with
PINNED = "pinned-data.yaml"


def demo_nonce(spec: dict) -> str:
    """The recorded nonce of a shipped demo: fixed, so a rebuild (and `hxref demo`) re-creates the
    same game, with the same identity, that the shipped files were signed for."""
    import hashlib

    return hashlib.sha256(f"hxref demo nonce\x00{spec['game_id']}".encode()).hexdigest()


def demo_join_nonce(spec: dict, who: str) -> str:
    """The nonce of a demo participant's join file: fixed, as the game's nonce is, so a rebuild
    gives the same dice chains and the same game (a real `hxref join` draws a fresh one).  A spec's
    ``join_salt`` picks other chains: the one whose dice play the game its tests tell."""
    import hashlib

    salt = f"\x00{spec['join_salt']}" if spec.get("join_salt") else ""
    return hashlib.sha256(f"hxref demo join nonce\x00{spec['game_id']}\x00{who}{salt}".encode()).hexdigest()


def new_demo_game(spec: dict, system: str, sides: dict, umpire: str | None) -> None:
    """The demo's game.yaml, made as `hxref new` makes it, with the demo's recorded nonce (which
    `hxref new --nonce` takes only to re-create a demo already shipped)."""
    from hxref.referee.engine import Engine
    from hxref.crypto.signing import load_public_key

    Engine.create("game.yaml", system=system, scenario=spec["scenario"], mode=spec["mode"],
                  sides={s: load_public_key(f"{k}.pub") for s, k in sides.items()},
                  umpire=load_public_key(f"{umpire}.pub") if umpire else None, game_id=spec["game_id"],
                  created=spec["created"], nonce=demo_nonce(spec), policy=dict(DEMO_POLICY)).save()


def join_demo_game(spec: dict, who: str, key: str) -> None:
    """``who``'s join file, as `hxref join` writes it, with the demo's fixed join nonce."""
    from hxref.cli.files import write_join
    from hxref.referee.engine import Engine
    from hxref.crypto.signing import load_private_key

    write_join(Engine.load("game.yaml"), who, load_private_key(key), Path(f"{who}-join.yaml"),
               nonce=demo_join_nonce(spec, who))


def build(name: str) -> Path:
    spec = GAMES[name]
    system = spec.get("system", name)
    from hxref.kit import registry

    out = ROOT / "orders" / registry.info(system).data_folder / spec["scenario"]
    old_keys = out / "keys"
    keep = {}
    if old_keys.is_dir():    # the same keys give the same dice chains: rebuilds replay the same game
        keep = {f.name: f.read_bytes() for f in old_keys.iterdir()}
    if out.exists():
        shutil.rmtree(out)
    (out / "keys").mkdir(parents=True)
    steps: list[dict] = []
    umpire = spec.get("umpire")
    resolve_key = ["--key", umpire] if umpire else []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)
        os.environ["HXREF_NOW"] = spec["created"]
        # the demo keys' records (hxref.referee.key_record) in the work folder, not in the user's own
        home = os.environ.get("HXREF_HOME")
        os.environ["HXREF_HOME"] = str(Path(tmp) / "hxref-home")
        try:
            sides = spec["players"]
            names = dict(sides, **({"umpire": umpire} if umpire else {}))
            for who, keyname in names.items():
                if keyname in keep:
                    Path(keyname).write_bytes(keep[keyname])
                    Path(keyname).chmod(0o600)
                    Path(keyname + ".pub").write_bytes(keep[keyname + ".pub"])
                else:
                    run(["keygen", keyname, "--comment", f"hxref DEMO key of the {who} -- never use it"])
            new_demo_game(spec, system, sides, umpire)
            # the data files the game pins (charts, terrain types, map), kept with the demo: a
            # chart published later changes nothing in it (hxref demo: new --charts-from)
            shutil.copy("game.yaml", out / PINNED)
            files: list[str] = []

            def submit(names_: list[str]) -> None:
                run(["submit", "game.yaml", *names_])
                files.extend(names_)
                steps.append({"submit": names_})

            def resolve() -> None:
                run(["resolve", "game.yaml", *resolve_key])
                steps.append({"resolve": True})

            steps.append({"say": "Each participant sends a join file: the tip of its private dice chain, so no "
                                 "one can choose or foresee a die."})
            for who, key in names.items():
                join_demo_game(spec, who, key)
            submit([f"{w}-join.yaml" for w in names])
            first_bid = True

            def settle_reorganization() -> None:
                """12.0: both sides seal their Reorganization orders (none in the demo), then reveal."""
                while (dec := _awaiting()) and dec["kind"] == "reorg":
                    steps.append({"say": f"The Reorganization Segment of {dec['id'].split('.')[0]}: both sides "
                                         "seal their orders, then reveal them (commit-reveal, 12.0)."})
                    for side in sides:
                        run(["commit", "game.yaml", "--side", side, "--key", sides[side], "--choice", "{}"])
                    submit([f"{s}-{dec['id']}-commit.yaml" for s in sides])
                    submit([f"{s}-{dec['id']}-reveal.yaml" for s in sides])
                    resolve()

            for step in spec["script"]:
                kind = step[0]
                if kind in ("bid", "report"):
                    settle_reorganization()
                if kind == "say":
                    steps.append({"say": step[1]})
                elif kind == "report":
                    steps.append({"report": step[1]})
                elif kind == "bid":
                    dec = _awaiting()["id"]
                    for side, bid in step[1].items():
                        run(["commit", "game.yaml", "--side", side, "--key", sides[side], "--choice", f"bid: {bid}"])
                    a, b = list(sides)
                    submit([f"{a}-{dec}-commit.yaml"])
                    if first_bid and not umpire:
                        steps.append({"say": f"{a} has sealed its bid. Its secret report shows the bid; "
                                             "the public report shows only the commitment."})
                        steps.append({"report": a})
                    first_bid = False
                    submit([f"{b}-{dec}-commit.yaml"])
                    submit([f"{s}-{dec}-reveal.yaml" for s in sides])
                    resolve()
                elif kind == "level":
                    _, side, level = step
                    dec = _awaiting()["id"]
                    run(["answer", "game.yaml", "--side", side, "--key", sides[side], "--choice", f"level: {level}"])
                    submit([f"{side}-{dec}.yaml"])
                    resolve()
                elif kind == "acw":            # ACW miniatures: every player turn to the end
                    play_acw(sides, submit, resolve, steps)
                elif kind == "salem":          # Salem Church: every player turn to the end, scripted players
                    from hxref.referee.engine import Engine

                    while (dec := _awaiting()):
                        side = dec["sides"][0]
                        state = Engine.load("game.yaml").state
                        if dec["kind"] == "setup":
                            steps.append({"say": "Before turn 1 the Confederates place Wilcox/M west of column 16 "
                                                 "(13.3): in Salem Church, a defensive position (15.0)."})
                        elif side == "union":
                            steps.append({"say": _salem_turn_note(state)})
                        choice = plan_salem("game.yaml", side)
                        name = f"{side}-{dec['id']}.yaml"
                        _write_salem_orders(name, "game.yaml", dec["id"], side, sides[side], choice)
                        run(["sign", name, "--key", sides[side]])
                        submit([name])
                        resolve()
                        nxt = _awaiting()
                        if dec["kind"] == "orders" and nxt:
                            log = Engine.load("game.yaml").gf.log
                            played = [e["data"] for e in log if e["kind"] == "rules"
                                      and e["data"].get("decision") == dec["id"] and not e["data"].get("redacted")]
                            who = nxt["sides"][0]
                            steps.append({"say": f"The {side} player turn {state['turn']}: "
                                                 + _salem_turn_summary(played) + f". The umpire e-mails the "
                                                 f"{who} player his report (what his army sees), for his orders:"})
                            steps.append({"report": who})
                elif kind == "kgp":            # KGP: every campaign decision to the CG's end
                    play_kgp(step[1], sides, submit, resolve, steps)
                elif kind == "impulses":       # every impulse of the turn, each side heading for its goals
                    import json

                    while (dec := _awaiting()) and dec["kind"] in ("orders", "defence"):
                        side = dec["sides"][0]
                        if dec["kind"] == "defence":
                            choice: dict = {}
                        else:
                            choice = plan_moves("game.yaml", side, step[1][side])
                            if "level" in dec["schema"]:
                                left = yamlio.fast_load(Path("game.yaml").read_text().split("\n--- #")[0])[
                                    "state"]["current"]["remaining"][side]
                                choice = {"level": left, **choice}
                            choice["standing"] = {"defence": {}}
                            choice = legal_orders("game.yaml", side, choice)
                        run(["answer", "game.yaml", "--side", side, "--key", sides[side], "--choice",
                             json.dumps(choice)])
                        submit([f"{side}-{dec['id']}.yaml"])
                        resolve()
            settle_reorganization()
            steps.append({"say": spec.get("end_say", "The end of the demo. The public report, each side's secret "
                                 "report, and the audit that replays every signature, commitment and die:")})
            steps.append({"report": "public", "full": True})
            for side in sides:
                steps.append({"report": side, "full": True})
            steps.append({"audit": True})
            run(["audit", "game.yaml"])
            for f in files:
                shutil.copy(f, out / f)
            for who, key in names.items():
                shutil.copy(key, out / "keys" / key)
                shutil.copy(f"{key}.pub", out / "keys" / f"{key}.pub")
        finally:
            os.chdir(cwd)
            os.environ.pop("HXREF_NOW", None)
            if home is None:
                os.environ.pop("HXREF_HOME", None)
            else:
                os.environ["HXREF_HOME"] = home
    manifest = {
        "system": system, "scenario": spec["scenario"], "game_id": spec["game_id"], "created": spec["created"],
        "nonce": demo_nonce(spec), "charts_from": PINNED, "policy": DEMO_POLICY,
        "mode": spec["mode"], "keys": {s: f"keys/{k}.pub" for s, k in spec["players"].items()},
        **({"umpire": f"keys/{umpire}.pub", "umpire_key": f"keys/{umpire}"} if umpire else {}),
        "steps": steps,
    }
    header = ("# The shipped demo game: `hxref demo --system %s --scenario %s` replays these steps.\n"
              "# Made by tools/make_demo_orders.py. keys/ holds DEMO KEYS: never use them for a real game.\n"
              % (system, spec["scenario"]))
    (out / "demo.yaml").write_text(header + yamlio.dump_fast(manifest))
    return out


if __name__ == "__main__":
    for name in sys.argv[1:] or list(GAMES):
        print("wrote", build(name))
