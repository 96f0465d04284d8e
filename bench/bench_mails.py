"""Property 10, latency: how many mails a side sends per impulse (player turn), played as two
players would, each with its own copy of the game.

    python bench/bench_mails.py                 # Heartland (open copy of heartland-demo) and ACW
    python bench/bench_mails.py --verbose       # also every mail
    python bench/bench_mails.py --fog           # only hidden armies (fog) beside open mode, by real mail

Heartland: an open game on the heartland-demo scenario with two fresh keys, played with the
choices of the shipped (umpired) demo's files: each shipped file's ``choice`` is answered again
with `hxref answer` (or `hxref commit` with the shipped reveal's choice) on the open game; the
dice differ, so a choice the rules now refuse, or a decision the shipped demo never had, gets the
decision's example answer instead (counted).  The other side gives its dice link with
`hxref roll`.  Played until the shipped demo's last turn is over.

ACW: the shipped open demo (orders/acw_minis/mercers-mill) replayed the same way, with its own
keys and nonce (so the very same dice), and also counted from the shipped files' order.

Each player, when a mail arrives, submits its files into its own copy (resolving on its own
copy whatever can be resolved first: the copies are identical, property 6), then writes
everything it can before it mails back: the dice links it owes, the reveals whose commitments are
all in, and its answers (commitments) to what is awaited from it.  So a side's roll for the
opponent's impulse and its own next orders travel in one mail.  Printed: a table per side, per
impulse, of the files and mails; the last line

    mails per side per impulse: union U, confederate C (files per mail: F); bytes per mail: median N, max M

(U and C: the mails a side sends that carry a file of an impulse -- its orders, or its dice link
for the opponent's impulse -- per impulse of that side, without the game's last mail; 1.00 when
every link rides with its sender's next orders.  The other mails -- joins, bids, reveals,
reorganisation -- are counted on the lines before.)
A benchmark: it prints and exits 0, it never asserts.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.security import replay  # noqa: E402  (sets HXREF_HOME apart when unset)
from tests.security.replay import Copy, FileInfo, Mail, file_info  # noqa: E402

from hxref.referee.engine import Engine  # noqa: E402


@dataclass
class Player:
    side: str
    key: Path
    copy: Copy
    kept: dict = field(default_factory=dict)         # decision -> kept reveal file name
    inbox: list = field(default_factory=list)         # FileInfo received, not yet submitted
    sent: set = field(default_factory=set)            # (decision, kind) written

    @property
    def folder(self) -> Path:
        return self.copy.work

    def eng(self) -> Engine:
        return Engine.load(self.copy.game)

    def run(self, *args, code=0):
        return self.copy.hxref(*args, day=DAY, code=code)

    def submit(self, path: Path) -> None:
        self.run("submit", replay.GAME, str(path))

    def resolve_all(self) -> None:
        while True:
            eng = self.eng()
            ready = eng.ready()
            if eng.finished or not ready or eng.missing_links(ready[0]):
                return
            self.run("resolve", replay.GAME)


DAY = "2026-11-29T12:00:00Z"


@dataclass
class Sim:
    choices: dict                  # (decision, side) -> choice
    players: dict
    last_turn: int | None
    mails: list = field(default_factory=list)
    seq: list = field(default_factory=list)        # every file, in the order written
    fallbacks: list = field(default_factory=list)  # (decision, side, why)
    trimmed: list = field(default_factory=list)    # (decision, side, entries dropped)

    def write_all(self, p: Player) -> list[FileInfo]:
        """Everything ``p`` can write now, each submitted to its own copy at once."""
        out: list[FileInfo] = []
        while True:
            eng = p.eng()
            if eng.finished or self.beyond(eng):
                return out
            wrote = None
            for d in eng.awaiting:
                if d.id == "join":
                    continue
                pend = eng.pending(d.id)
                mine = pend["answers"].get(p.side, {})
                if d.id in p.kept and "choice" not in mine and all(
                        "commitment" in pend["answers"].get(s, {}) for s in d.sides):
                    wrote = p.folder / p.kept.pop(d.id)
                elif eng.owes_link(p.side, d) and p.side not in d.sides and eng.complete(d):
                    p.run("roll", replay.GAME, "--side", p.side, "--key", str(p.key), "--decision", d.id)
                    wrote = p.folder / f"{p.side}-{d.id}-roll.yaml"
                elif p.side in d.sides and (d.id, "choice") not in p.sent:
                    wrote = self.choose(p, d)
                if wrote is not None:
                    break
            if wrote is None:
                return out
            p.submit(wrote)
            info = file_info(wrote.parent, wrote.name)
            out.append(info)
            self.seq.append(info)
            p.resolve_all()

    def choose(self, p: Player, d) -> Path:
        """Answer (or commit) ``d`` with the shipped choice; when the rules refuse it, drop the entries
        they name one at a time (counted as trimmed); else the decision's example, else the example
        with its lists emptied (its placeholders removed); both counted as fallbacks."""
        import copy
        import re

        p.sent.add((d.id, "choice"))
        shipped = self.choices.get((d.id, p.side))
        empty = {k: ([] if isinstance(v, list) else v) for k, v in d.example.items()}
        tries = ([("shipped", shipped)] if shipped is not None else []) + [("example", d.example),
                                                                           ("empty example", empty)]
        res = None
        for what, choice in tries:
            choice = copy.deepcopy(choice)
            for attempt in range(30):
                args = ["--side", p.side, "--key", str(p.key), "--decision", d.id, "--choice", json.dumps(choice)]
                res = p.run("commit" if d.secret else "answer", replay.GAME, *args, code=None)
                if res.exit_code == 0:
                    if what != "shipped":
                        self.fallbacks.append((d.id, p.side, f"{what} ("
                                               + ("shipped refused" if shipped is not None else "not shipped") + ")"))
                    elif attempt:
                        self.trimmed.append((d.id, p.side, attempt))
                    if d.secret:
                        p.kept[d.id] = f"{p.side}-{d.id}-reveal.yaml"
                        return p.folder / f"{p.side}-{d.id}-commit.yaml"
                    return p.folder / f"{p.side}-{d.id}.yaml"
                m = re.search(r"\(at choice\.(\w+)\[(\d+)\]", res.output)
                if what != "shipped" or not m or not isinstance(choice.get(m[1]), list) \
                        or int(m[2]) >= len(choice[m[1]]):
                    break
                del choice[m[1]][int(m[2])]
        raise SystemExit(f"bench_mails: neither the shipped choice nor the example is accepted for {d.id} "
                         f"({p.side}): {res.output if res else ''}")

    def beyond(self, eng: Engine) -> bool:
        """Past the shipped demo's last turn."""
        if self.last_turn is None:
            return False
        first = next((d for d in eng.awaiting if d.id != "join"), None)
        return first is not None and _turn(first.id) is not None and _turn(first.id) > self.last_turn

    def deliver(self, to: Player) -> None:
        for f in to.inbox:
            to.resolve_all()
            dst = to.folder / "inbox" / f.name
            dst.parent.mkdir(exist_ok=True)
            shutil.copy(f.path, dst)
            to.submit(dst)
        to.inbox.clear()
        to.resolve_all()

    def play(self, order: list[str], joins: bool = True) -> None:
        ps = self.players
        if joins:
            for s in order:           # each side sends its join (one mail each)
                p = ps[s]
                p.run("join", replay.GAME, "--side", s, "--key", str(p.key))
                info = file_info(p.folder, f"{s}-join.yaml")
                p.submit(info.path)
                self.seq.append(info)
                self.mails.append(Mail(s, [info]))
                for o in order:
                    if o != s:
                        ps[o].inbox.append(info)
        idle = 0
        turn = 0
        while idle < 2 * len(order):
            p = ps[order[turn % len(order)]]
            turn += 1
            self.deliver(p)
            out = self.write_all(p)
            if out:
                idle = 0
                self.mails.append(Mail(p.side, out))
                for o in order:
                    if o != p.side:
                        ps[o].inbox.extend(out)
            else:
                idle += 1
        for s in order:
            self.deliver(ps[s])


def _turn(decision: str) -> int | None:
    head = decision.split(".")[0]
    return int(head[1:]) if head[:1] == "t" and head[1:].isdigit() else None


def shipped_choices(src: Path) -> tuple[dict, int | None]:
    seq = replay.manifest_sequence(src)
    out = {}
    for f in seq:
        if f.kind in ("answer", "reveal"):
            out[(f.decision, f.side)] = f.data["choice"]
    turns = [t for t in (_turn(f.decision) for f in seq) if t is not None]
    return out, max(turns) if turns else None


def make_players(work: Path, man: dict, keys: dict[str, Path], demo: Path) -> dict[str, Player]:
    src = work / "src"
    (src / "keys").mkdir(parents=True, exist_ok=True)
    if man.get("charts_from"):      # the shipped demo's own game re-made: its pinned charts
        shutil.copy(demo / man["charts_from"], src / man["charts_from"])
    for s, k in keys.items():
        shutil.copy(k.with_name(k.name + ".pub"), src / "keys" / f"{s}.pub")
    man = dict(man, mode="open", keys={s: f"keys/{s}.pub" for s in keys})
    man.pop("umpire", None)
    man.pop("umpire_key", None)
    players: dict[str, Player] = {}
    for s, k in keys.items():
        c = Copy(work / s, src, man)
        if players:     # one game: the first player makes it and sends the file to the other
            shutil.copy(next(iter(players.values())).copy.game, c.game)
        else:
            c.new(DAY)
        players[s] = Player(s, k, c)
    ids = {Engine.load(p.copy.game).identity for p in players.values()}
    assert len(ids) == 1, "the two copies are not the same game"
    return players


def run_sim(name: str, src: Path, work: Path, fresh_keys: bool) -> Sim:
    man = replay.manifest(src)
    choices, last = shipped_choices(src)
    sides = list(man["keys"])
    if fresh_keys:
        from hxref.crypto.signing import generate_key

        fresh = work / "fresh"
        fresh.mkdir(parents=True, exist_ok=True)
        keys = {}
        for s in sides:
            generate_key(fresh / s, f"{s}-bench")
            keys[s] = fresh / s
        # a new game of its own: a fresh nonce is drawn by `hxref new`, and the charts are today's
        man = {k: v for k, v in man.items() if k not in ("nonce", "charts_from")}
        man["game_id"] = f"{man['game_id']}-open"
    else:
        keys = {}
        for s in sides:
            k = work / "shipped" / s
            k.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src / "keys" / s, k)
            shutil.copy(src / "keys" / f"{s}.pub", k.with_name(s + ".pub"))
            k.chmod(0o600)
            keys[s] = k
    for k in keys.values():
        k.chmod(0o600)
    sim = Sim(choices, make_players(work / "play", man, keys, src), last)
    sim.play(sides)
    return sim


def report(title: str, mails: list[Mail], seq: list[FileInfo], fallbacks: list | None = None,
           verbose: bool = False, finished: str = "", trimmed: list | None = None) -> dict:
    stats = replay.mail_stats(mails, seq)
    imp = replay.impulses(seq)
    print(f"\n== {title}{finished}")
    if verbose:
        for i, m in enumerate(mails, 1):
            print(f"  mail {i:3d} {m.side:12s} {m.size:6d} B  " + ", ".join(f"{f.decision}:{f.kind}" for f in m.files))
    # per side per impulse: the files of that impulse it sent, and in how many mails
    where = {}
    for i, m in enumerate(mails):
        for f in m.files:
            where[(f.decision, f.side, f.kind)] = i
    print(f"  {'side':12s} {'impulse':18s} {'orders in mail':>14s} {'link (other) in mail':>21s} {'files in that mail':>19s}")
    for side in sorted(imp):
        for d in imp[side]:
            mi = where.get((d, side, "answer"))
            li = [where[k] for k in where if k[0] == d and k[2] == "roll"]
            print(f"  {side:12s} {d:18s} {mi + 1:>14d} {', '.join(str(x + 1) for x in li):>21s} "
                  f"{len(mails[mi].files):>19d}")
    for s in sorted(stats["mails"]):
        n = stats["impulses"].get(s, 0)
        files = sum(len(m.files) for m in mails if m.side == s)
        print(f"  {s}: {n} impulses; {stats['mails'][s]} mails after the joins ({files} files with its join), "
              f"{stats['per_impulse_all'].get(s, 0):.2f} per impulse; of them, lone dice links "
              f"{stats['lone_links'][s]}, mails with no impulse file (bids, reveals, reorganisation) "
              f"{stats['other'][s]}")
    if fallbacks is not None:
        print(f"  example answers instead of the shipped choice: {len(fallbacks)}"
              + (" (" + "; ".join(f"{d} {s}: {w}" for d, s, w in fallbacks[:8])
                 + (" ..." if len(fallbacks) > 8 else "") + ")" if fallbacks else ""))
    if trimmed:
        print(f"  shipped choices trimmed of entries the rules refuse now: {len(trimmed)} "
              f"({sum(n for _, _, n in trimmed)} entries dropped)")
    per = ", ".join(f"{s} {v:.2f}" for s, v in sorted(stats["per_impulse"].items(), reverse=True))
    print(f"mails per side per impulse: {per} (files per mail: {stats['files_per_mail']:g}); "
          f"bytes per mail: median {stats['bytes_median']:g}, max {stats['bytes_max']}")
    return stats


# --- hidden armies: the same game by real mail, in fog mode beside open mode --------------------------

def fog_beside_open(work: Path, scenarios: list[str]) -> None:
    """Each scenario played by real mail (tests/mail/test_fog_mail.py's players: aiosmtpd on the
    loopback, ``hxref inbox --maildir`` and ``hxref outbox --smtp``, the shipped demo's choices),
    in open mode and with hidden armies, and its figures side by side: per impulse the mails and
    their bytes, per round the time, and the proof's mails."""
    import statistics

    from hxref.base.errors import HxrefError
    from tests.mail.test_fog_mail import IMPULSE, play
    from tests.mail.test_club_games import fixed_dice
    from tests.mail.test_travel import post_office

    print("\n== hidden armies (fog) beside open mode, by real mail (SMTP on the loopback, Maildirs)")
    print("  per impulse: the mails each side sends with a new file of it (its orders, its dice link for the\n"
          "  other's, its openings; mean and max over the impulses: 1 is one mail per side per impulse), the\n"
          "  whole mails' bytes that carry them (reports, map, files) and the signed files' bytes in them")
    print(f"  {'scenario':15s} {'mode':5s} {'impulses':>8s} {'mails':>5s} {'mails/side/imp.':>16s} "
          f"{'mail B/impulse':>15s} {'files B/impulse':>16s} {'round s':>8s}  the proof")
    for scenario in scenarios:
        for mode in ("open", "fog"):
            root = work / f"{scenario}-{mode}"
            root.mkdir(parents=True)
            try:
                with post_office(root) as post, fixed_dice():
                    g = play(root, post, scenario, mode=mode)
            except (AssertionError, HxrefError) as exc:
                why = " ".join(str(exc).split())
                print(f"  {scenario:15s} {mode:5s} failed: {why[:400]}")
                continue
            first: dict = {}                 # each file: the mail that carried it first
            for i, m in enumerate(g.log):
                for f in m["files"]:
                    first.setdefault(f, i)
            impulses = sorted({f[0] for f in first if IMPULSE.match(f[0])})
            mails = {(d, s): {i for f, i in first.items() if f[0] == d and g.log[i]["side"] == s}
                     for d in impulses for s in ("union", "confederate")}
            counts = [len(v) for v in mails.values() if v] or [0]
            carrying = sorted(set().union(*mails.values())) if mails else []
            whole = sum(g.log[i]["bytes"] for i in carrying) / max(1, len(impulses))
            files = sum(g.log[i]["carried"] for i in carrying) / max(1, len(impulses))
            proof = [m for m in g.log if any(k == "proof" for _, _, k in m["files"])]
            proven = (f"{len(proof)} mails, {sum(m['bytes'] for m in proof):,} B "
                      f"({sum(m['carried'] for m in proof):,} B signed files)" if proof else "-")
            print(f"  {scenario:15s} {mode:5s} {len(impulses):8d} {len(g.log):5d} "
                  f"{statistics.mean(counts):9.2f}, {max(counts)} {whole:15,.0f} {files:16,.0f} "
                  f"{statistics.median(g.times or [0]):8.2f}  {proven}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verbose", action="store_true", help="print every mail")
    ap.add_argument("--keep", default=None, help="keep the work folder here")
    ap.add_argument("--fog", action="store_true", help="only the games with hidden armies beside open ones, by "
                    "real mail (heartland-demo and bidding-demo)")
    args = ap.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hxref-bench-mails-"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if args.fog:
        fog_beside_open(work / "fog", ["heartland-demo", "bidding-demo"])
        print(f"\n({time.time() - t0:.1f} s)")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return
    acw = replay.DEMOS["acw-minis"]
    seq = replay.manifest_sequence(acw)
    report("ACW Mercer's Mill, the shipped open demo, grouped from its files' order",
           replay.group_mails(seq), seq, verbose=args.verbose)
    sim = run_sim("acw", acw, work / "acw", fresh_keys=False)
    report("ACW Mercer's Mill, played again by two players (shipped keys and nonce: the same dice)",
           sim.mails, sim.seq, sim.fallbacks, verbose=args.verbose, trimmed=sim.trimmed,
           finished=f" -- {'over' if sim.players['union'].eng().finished else 'not over'}")
    hl = replay.DEMOS["heartland"]
    sim = run_sim("heartland", hl, work / "heartland", fresh_keys=True)
    eng = sim.players["union"].eng()
    report("Heartland, an open game on heartland-demo with fresh keys, the shipped demo's choices",
           sim.mails, sim.seq, sim.fallbacks, verbose=args.verbose, trimmed=sim.trimmed,
           finished=f" -- {'over' if eng.finished else 'stopped after turn ' + str(sim.last_turn)}; "
                    f"{len(eng.gf.log)} events")
    fog_beside_open(work / "fog", ["heartland-demo", "bidding-demo"])
    print(f"\n({time.time() - t0:.1f} s" + (f"; work folder {work})" if args.keep else ")"))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
