"""The KGP CG calendar: CG Dates and their order (8.2 CG Date; CG4, CG5 Night dates).

A CG Date is a day of December 1944 and AM, PM or N(ight); they run AM -> PM
-> N -> the next day's AM.  The seed's "19M" is read as 19PM.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

from ...base.errors import InvalidInput

PERIODS = ("AM", "PM", "N")             # 8.2 CG Date: AM, PM, Night
_DATE = re.compile(r"^([0-9]{1,2})(AM|PM|N)$")


@total_ordering
@dataclass(frozen=True)
class CGDate:
    """A CG Date: a day of December 1944 and AM, PM or N (8.2)."""

    day: int
    period: str

    @classmethod
    def parse(cls, label: "str | CGDate") -> "CGDate":
        return parse_date(label)

    @property
    def label(self) -> str:
        return f"{self.day}{self.period}"

    @property
    def is_night(self) -> bool:
        return self.period == "N"

    def _key(self) -> tuple[int, int]:
        return (self.day, PERIODS.index(self.period))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CGDate):
            return NotImplemented
        return self._key() < other._key()

    def __str__(self) -> str:
        return self.label


def parse_date(label: "str | CGDate") -> CGDate:
    """``"20PM"`` -> CGDate(20, "PM"); refuses anything else, naming rule 8.2."""
    if isinstance(label, CGDate):
        return label
    m = _DATE.match(label) if isinstance(label, str) else None
    if not m or not 1 <= int(m.group(1)) <= 31:
        raise InvalidInput(f"{label!r} is not a CG Date", rule="8.2",
                           hint="write the day and AM, PM or N, e.g. 20PM (the seed's \"19M\" is 19PM)")
    return CGDate(int(m.group(1)), m.group(2))


def next_date(date: "str | CGDate") -> CGDate:
    """The CG Date after ``date``: AM -> PM -> N -> the next day's AM (8.2)."""
    d = parse_date(date)
    i = PERIODS.index(d.period)
    return CGDate(d.day, PERIODS[i + 1]) if i + 1 < len(PERIODS) else CGDate(d.day + 1, PERIODS[0])


def is_night(date: "str | CGDate") -> bool:
    """A Night CG Date (CG4, CG5, Game End +1; 3.2 wire costs doubled)."""
    return parse_date(date).is_night


def date_range(first: "str | CGDate", last: "str | CGDate") -> tuple[CGDate, ...]:
    """Every CG Date from ``first`` to ``last``, both included."""
    d, end = parse_date(first), parse_date(last)
    out = []
    while d <= end:
        out.append(d)
        d = next_date(d)
    return tuple(out)
