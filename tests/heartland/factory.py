"""Test states for the Heartland rules modules, as plain dicts in :mod:`hxref.systems.heartland.model`'s layout.

>>> w = World(year=1862)
>>> w.leader("grant", "union", "0303", stars=3, hq=True)
'grant'
>>> w.unit("u1", "union", leader="grant")
'u1'
>>> sorted(w.state["leaders"])
['grant']
"""
from __future__ import annotations

from functools import cache

from hxref.crypto.dice import FixedDice  # noqa: F401  (re-exported for the tests)
from hxref.kit.charts import Charts

U, C = "union", "confederate"
#: the charts and maps of games/heartland/ as they are on the disk: what the rules read outside a game
TODAY = Charts.today("heartland")


@cache
def sample_map():
    """The shipped 12 x 10 sample map (games/heartland/maps/sample.yaml).

    Clear in the north-west; the Duck River (major) between columns 06 and 07
    with a ford at 0602/0702 and a bridge at 0604/0705."""
    from hxref.geometry.mapfile import load_map
    from hxref.base.paths import games_dir

    return load_map(games_dir() / "heartland" / "maps" / "sample.yaml")


class World:
    """Builds a state dict leader by leader and unit by unit."""

    def __init__(self, year: int | None = 1862):
        # the year is the calendar's, as in a game (turn 1 of a one-turn calendar)
        self.state: dict = {"map": "sample", "turn": 1, "calendar": [{"turn": 1, "year": year}] if year else [],
                            "leaders": {}, "units": {}, "logistics": {},
                            "sources": {U: [], C: []}}

    def leader(self, lid: str, side: str, hex: str | None = "0303", *, stars: int = 2, brevet: int = 0,
               hq: bool = False, active: bool = True, ar: int = 3, br: int = 2, mr: int = 3,
               iar: int = 1, ibr: int = 1, imr: int = 1, ml: int = 3, ap: int | None = None,
               artillery: int = 0, asp: int = 2, superior: str | None = None, pool: bool = False,
               **extra) -> str:
        if superior is not None and hex == "0303":
            hex = self.state["leaders"][superior]["hex"]
        self.state["leaders"][lid] = {
            "side": side, "name": lid.title(), "stars": stars, "brevet": brevet, "hq": hq, "active": active,
            "ratings": {"active": {"ar": ar, "br": br, "mr": mr}, "inactive": {"ar": iar, "br": ibr, "mr": imr}},
            "ml": ml, "ap": (ar if active else iar) if ap is None else ap, "artillery": artillery, "asp": asp,
            "hex": None if pool else hex, "superior": superior, "pool": pool, **extra,
        }
        return lid

    def unit(self, uid: str, side: str, *, leader: str | None = None, hex: str | None = None,
             arm: str = "infantry", size: str = "division", cf=(10, 5), ml=(1, 2), steps: int = 2) -> str:
        self.state["units"][uid] = {
            "side": side, "name": uid, "arm": arm, "size": size, "cf": list(cf), "ml": list(ml),
            "steps": steps, "leader": leader, "hex": None if leader else hex,
        }
        return uid

    def units(self, prefix: str, n: int, side: str, **kw) -> list[str]:
        return [self.unit(f"{prefix}{i}", side, **kw) for i in range(1, n + 1)]

    def wagon(self, sid: str, side: str, hex: str, *, kind: str = "wagon", capacity: int = 2, cf: int = 0,
              leader: str | None = None) -> str:
        self.state["logistics"][sid] = {"side": side, "kind": kind, "capacity": capacity, "cf": cf, "ml": 3,
                                        "hex": hex, "leader": leader}
        return sid


#: one character per hex of an ASCII-art map: (terrain, features)
ART_CHARS = {".": ("clear", []), "w": ("woods", []), "M": ("mountain", []), "r": ("rough", []),
             "s": ("swamp", []), "b": ("broken", []), "t": ("clear", ["town"]), "C": ("clear", ["major_city"]),
             "T": ("woods", ["town"])}


def art_map(tmp_path, art, hexsides: dict | None = None, lines=None, terrain=None):
    """A Heartland map from ASCII art: a string of printed rows, or a list of row strings; letters
    separated by blanks, columns left to right, labels CCRR.  ``lines`` is [(type, [hexes])]."""
    import yaml

    from hxref.geometry.mapfile import load_map
    from hxref.base.paths import games_dir

    text_rows = art.strip("\n").splitlines() if isinstance(art, str) else list(art)
    rows = [r.split() for r in text_rows if r.strip()]
    hexes = {}
    for r, row in enumerate(rows, start=1):
        for c, ch in enumerate(row, start=1):
            kind, feats = ART_CHARS[ch]
            if kind != "clear" or feats:
                hexes[f"{c:02d}{r:02d}"] = {"terrain": kind, "features": feats}
    doc = {
        "map": "art", "title": "art", "system": "heartland", "kind": "hex",
        "grid": {"labels": "four-digit", "parity": "even", "columns": [1, len(rows[0])],
                 "rows": [1, len(rows)], "terrain": "clear", "elevation": 0},
        "terrain": str(terrain or games_dir() / "heartland" / "terrain.yaml"),
        "hexes": hexes,
        "hexsides": {k: list(v) for k, v in (hexsides or {}).items()},
        "lines": [{"type": t, "hexes": list(hs)} for t, hs in (lines or [])],
    }
    path = tmp_path / "art.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return load_map(path)
