"""The Initiative Determination Segment: rules 4.1, 5.0-5.17 and the weather roll of 5.2.

Pure functions of bids, maxima, WEP and dice.  The readings chosen where the
digest marks the text ambiguous are listed in games/heartland/readings.md and pinned by
``tests/heartland/test_initiative.py``:

* 5.12 "after 3 bids" means the first bid and two re-bids; if WEP are equal
  after the third tie each side rolls 1d6 (re-rolling ties), higher first.
* 5.13 the threshold is half the maximum *rounded up*: a bid of exactly
  ceil(max/2) against a Pass gives no activity (reading i); only a higher bid
  monopolises the turn.
* 5.13a the monopolist wins the initiative and pays the 5 WEP fee of 5.11.
* 5.15 the second player's first impulse uses his bid (the rule, over the
  translator's Shiloh note that lets him split freely).
* 5.17 when one side has no levels left, the other plays its remaining
  impulses in a row, declaring each.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from ...crypto.dice import Dice, Roll
from ..base import Problem

if TYPE_CHECKING:
    from ...kit.charts import Charts

INITIATIVE_FEE = 5          # 5.11
TIEBREAK_FEE = 10           # 5.12
BID_ROUNDS = 3              # 5.12: first bid + two re-bids
PAY_PER_LEADER = 1          # 4.25


class Outcome(str, enum.Enum):
    """What a set of revealed bids leads to."""

    REBID = "rebid"                #: 5.12 tie: bid again
    NO_ACTIVITY = "no_activity"    #: 5.12 exception / 5.13: no impulses this turn
    MONOPOLY = "monopoly"          #: 5.13a: the only bidder takes up to two impulses
    WON = "won"                    #: 5.11 / 5.14: the higher bid goes first
    TIEBREAK = "tiebreak"          #: 5.12: third tie, more WEP goes first, pays 10


@dataclass(frozen=True)
class Impulse:
    """One scheduled activity impulse; ``fixed`` levels were set by the bid."""

    side: str
    level: int
    fixed: bool = True
    rule: str = "5.15"


@dataclass
class BidOutcome:
    kind: Outcome
    winner: str | None = None
    fee: int = 0
    impulses: list[Impulse] = field(default_factory=list)
    remaining: dict[str, int] = field(default_factory=dict)
    rule: str = ""
    why: str = ""
    rolls: list[Roll] = field(default_factory=list)


def half_up(n: int) -> int:
    """Half, rounded up (the only rounding the text uses)."""
    return -(-n // 2)


def bid_problems(bid: object, maximum: int) -> list[Problem]:
    """5.1: a bid is a whole number from 0 (Pass) to the side's scenario maximum."""
    if isinstance(bid, bool) or not isinstance(bid, int):
        return [Problem("the bid must be a whole number (0 = Pass)", "5.1", ["bid"])]
    if bid < 0:
        return [Problem(f"a bid cannot be negative (got {bid}); 0 is Pass", "5.1", ["bid"])]
    if bid > maximum:
        return [Problem(f"bid {bid} is above this side's maximum operation level of {maximum}", "5.1", ["bid"])]
    return []


def level_problems(level: object, remaining: int, limit: int | None = None) -> list[Problem]:
    """5.15: a declared impulse uses at least 1 and at most the remaining levels."""
    if isinstance(level, bool) or not isinstance(level, int):
        return [Problem("the level must be a whole number", "5.15", ["level"])]
    if level < 1:
        return [Problem("an impulse needs at least 1 operation level", "5.15", ["level"])]
    if level > remaining:
        return [Problem(f"level {level} is more than the {remaining} operation levels left this turn", "5.15", ["level"])]
    if limit is not None and level > limit:
        return [Problem(f"level {level} is above the scenario's limit of {limit} per impulse", "5.14", ["level"])]
    return []


def leader_pay(active_leaders: int) -> int:
    """4.25: the phasing side pays 1 WEP per active leader at the end of its impulse."""
    return PAY_PER_LEADER * active_leaders


def _roll_off(sides: tuple[str, str], dice: Dice) -> str:
    """Unstated case of 5.12 (equal WEP): each side rolls 1d6, re-roll ties."""
    a, b = sides
    while True:
        ra = dice.d6("tie-break roll-off (equal WEP)", by=a)
        rb = dice.d6("tie-break roll-off (equal WEP)", by=b)
        if ra != rb:
            return a if ra > rb else b


def resolve_bids(bids: dict[str, int], maxima: dict[str, int], round_no: int,
                 wep: dict[str, int], dice: Dice) -> BidOutcome:
    """Resolve one round of revealed bids (5.1-5.14); see the module notes for readings."""
    a, b = list(bids)
    ba, bb = bids[a], bids[b]
    before = len(dice.rolls)

    # 5.12 exception: both pass
    if ba == 0 and bb == 0:
        return BidOutcome(Outcome.NO_ACTIVITY, rule="5.12", why="both sides passed: no impulses this turn")

    # 5.13 / 5.13a: one side passes
    if ba == 0 or bb == 0:
        bidder = a if bb == 0 else b
        bid, mx = bids[bidder], maxima[bidder]
        threshold = half_up(mx)
        if bid <= threshold:
            return BidOutcome(
                Outcome.NO_ACTIVITY, rule="5.13",
                why=f"{bidder} bid {bid}, not more than half its maximum {mx} rounded up ({threshold}): no impulses",
            )
        first = threshold
        rest = mx - first
        impulses = [Impulse(bidder, first, True, "5.13a")]
        if rest > 0:
            impulses.append(Impulse(bidder, rest, True, "5.13a"))
        return BidOutcome(
            Outcome.MONOPOLY, winner=bidder, fee=INITIATIVE_FEE, impulses=impulses,
            remaining={a: 0, b: 0}, rule="5.13a",
            why=f"{bidder} bid {bid} of {mx} against a Pass: it plays the turn alone, {first} then {rest}" if rest
            else f"{bidder} bid {bid} of {mx} against a Pass: it plays the turn alone at {first}",
        )

    # 5.12 ties
    kind, fee, rule = Outcome.WON, INITIATIVE_FEE, "5.11"
    if ba == bb:
        if round_no < BID_ROUNDS:
            return BidOutcome(Outcome.REBID, rule="5.12", why=f"tied at {ba}: bid again (bid {round_no + 1} of {BID_ROUNDS})")
        kind, fee, rule = Outcome.TIEBREAK, TIEBREAK_FEE, "5.12"
        if wep[a] != wep[b]:
            winner = a if wep[a] > wep[b] else b
            why = f"tied three times at {ba}: the side with more WEP goes first and pays {fee}"
        else:
            winner = _roll_off((a, b), dice)
            why = f"tied three times at {ba} with equal WEP: roll-off won by {winner}; it pays {fee}"
    else:
        winner = a if ba > bb else b
        why = f"{winner} bid higher ({max(ba, bb)} to {min(ba, bb)}) and pays {fee} WEP"
    loser = b if winner == a else a
    bw, bl = bids[winner], bids[loser]
    remaining = {winner: maxima[winner] - bw, loser: maxima[loser] - bl}

    impulses = [Impulse(winner, bw, True, rule), Impulse(loser, bl, True, "5.15")]
    if bw == maxima[winner]:
        # 5.14: full bid: one impulse only; the loser then plays two in a row, the second with the rest
        rule = "5.14"
        why += f"; {winner} bid its full maximum: one impulse only, then {loser} plays two in a row"
        remaining[winner] = 0
        if remaining[loser] > 0:
            impulses.append(Impulse(loser, remaining[loser], True, "5.14"))
            remaining[loser] = 0
    return BidOutcome(kind, winner=winner, fee=fee, impulses=impulses, remaining=remaining,
                      rule=rule, why=why, rolls=dice.rolls[before:])


def next_declarer(last_side: str, remaining: dict[str, int], initiative: str | None) -> str | None:
    """5.15 / 5.17: who plays the next (declared) impulse, or None when the turn's impulses are over."""
    sides = list(remaining)
    other = sides[1] if last_side == sides[0] else sides[0]
    if remaining.get(other, 0) > 0:
        return other
    if remaining.get(last_side, 0) > 0:
        return last_side
    return None


@dataclass(frozen=True)
class Weather:
    result: str
    roll: list[int] | None
    stand_in: bool


@dataclass(frozen=True)
class WeatherChart:
    """The Weather Table as data (``games/heartland/charts/weather.yaml``)."""

    clear_months: tuple[int, ...]
    seasons: dict
    table: dict
    stand_in: bool
    note: str

    @classmethod
    def load(cls, charts: Charts) -> "WeatherChart":
        """The Weather Chart of ``charts``: the game's pinned chart, or the disk's."""
        return _build_weather(charts.chart_source("weather"))

    @classmethod
    def from_data(cls, data: dict) -> "WeatherChart":
        return cls(
            clear_months=tuple(data["clear_months"]),
            seasons={k: tuple(v) for k, v in data["seasons"].items()},
            table={int(k): tuple(v) for k, v in data["table"].items()},
            stand_in=bool(data.get("stand_in", False)),
            note=data.get("note", ""),
        )

    def lookup(self, month: int, total: int) -> str:
        for column, (season, months) in enumerate(self.seasons.items()):
            if month in months:
                return self.table[total][column]
        raise ValueError(f"month {month} has no column in the weather chart")

    def roll(self, month: int, dice: Dice, by: str) -> Weather:
        """5.2: June-August are Clear; otherwise the initiative winner rolls 2d6, no DRM."""
        if month in self.clear_months:
            return Weather("Clear", None, False)
        faces = dice.roll("weather (2d6)", count=2, by=by)
        return Weather(self.lookup(month, sum(faces)), faces, self.stand_in)


@cache
def _build_weather(src) -> WeatherChart:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return WeatherChart.from_data(src.data())
