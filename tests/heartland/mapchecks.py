"""Map checks shared by the scenario data tests (continuous rivers, roads, rails; banks)."""
from hxref.geometry.hex import HexSide


def col_row(m, h):
    return m.grid.labels.to_offset(h)


def sides_with(m, feature):
    return {s for s, info in m.sides.items() if feature in info.features}


def hexes_with(m, feature):
    return {h for h, info in m.cells.items() if feature in info.features}


def hexes_of(m, terrain):
    return {h for h in m.hexes() if m.terrain(h).name == terrain}


def share_corner(s, t):
    """Two hexsides meet at a corner: one hex in common, the other two adjacent."""
    common = set(s.hexes) & set(t.hexes)
    if len(common) != 1:
        return False
    (a,) = set(s.hexes) - common
    (b,) = set(t.hexes) - common
    return a.distance(b) == 1


def components(items, joined):
    items, out = list(items), []
    left = set(items)
    while left:
        seed = left.pop()
        comp, todo = {seed}, [seed]
        while todo:
            x = todo.pop()
            for y in [y for y in left if joined(x, y)]:
                left.discard(y)
                comp.add(y)
                todo.append(y)
        out.append(comp)
    return out


def line_steps(m, kind):
    return [HexSide(a, b) for ln in m.lines if ln.type == kind for a, b in zip(ln.hexes, ln.hexes[1:])]


def bank(m, start):
    """Every hex reachable from ``start`` without crossing a major-river hexside."""
    major = sides_with(m, "major_river")
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in m and n not in seen and HexSide(h, n) not in major:
                seen.add(n)
                todo.append(n)
    return seen
