"""The shape of a KGP campaign's state: what :meth:`.system.Kgp.setup` builds and :mod:`.flow` keeps.

Every per-side field is keyed by ``us`` and ``german`` (:data:`.sides.SIDES`).  A key is
``NotRequired`` only when the game adds it later: ``last_report`` after the first agreed
scenario report (8.603), ``bridge_destroyed_by`` once a turn report says who blew the CG-II
NN6 bridge (8.52).  An opened secret's value is whatever the owner sealed (a hex, a list of HIP
units, ...): free-form data, typed ``object``.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict


class ScenarioInfo(TypedDict):
    """The CG scenario of the current CG Date: its roles (8.5x for the Initial Scenario, 8.623)."""

    date: str
    initial: bool
    attacker: str
    defender: str
    sets_up_first: str
    moves_first: str
    night: bool


class RosterRow(TypedDict):
    """One CG Date's line of the CG Roster (8.603): Current LVP (None on an Idle Date), CG-LVP, winner."""

    date: str
    scenario: bool
    lvp: dict[str, int] | None
    cg_lvp: dict[str, int]
    winner: str | None
    idle: NotRequired[bool]             # an Idle Date's row (8.623 both Idle)


class Opening(TypedDict):
    """When and to what a sealed secret was opened (9)."""

    value: object
    turn: int
    date: str


class SealedItem(TypedDict):
    """A side's sealed secret (9): its commitment, and once opened the opening."""

    id: str
    kind: str
    commitment: str
    date: str
    opened: NotRequired[Opening]


class OpenedItem(TypedDict):
    """A side's opened secret, as its own record keeps it (9)."""

    id: str
    kind: str
    value: object


class Purchase(TypedDict):
    """An RG bought in a Refit Phase (8.619)."""

    rg: str
    date: str
    cpp: int
    name: str


class RollRecord(TypedDict):
    """A scenario-time roll made in a turn report (CG Game End, CG5, I.2, III.5, III.6, CG16)."""

    date: str
    turn: int
    roll: str
    side: str
    faces: list[int]
    why: str
    releases: bool
    enters: bool
    rg: NotRequired[str]                # the RG a per-RG reinforcement dr is for (III.5)


class RefitRow(TypedDict):
    """One step of the Refit Phase checklist (8.6): computed, recorded or skipped, and why."""

    date: str
    step: str
    title: str
    status: str
    why: str


class SecretRoll(TypedDict):
    """A secret dr rolled for one side alone (9)."""

    date: str
    turn: int
    purpose: str
    dr: int


class VictoryCheck(TypedDict):
    """One CG Victory Condition as the victory determination checked it (8.51-8.53)."""

    id: str
    side: str
    met: bool
    checked: bool
    detail: str
    rule: str


class CgResult(TypedDict):
    """How the CG ended (8.51-8.53)."""

    winner: str | None
    why: str
    rule: str
    checks: list[VictoryCheck]


class RefitCheck(TypedDict):
    """An 8.604 check rolled in the Refit Phase: a 1TC (Encirclement) or NTC (A-P minefield)."""

    date: str
    side: str
    unit: str
    kind: str                           # encirclement | minefield
    faces: list[int]
    total: int
    morale: int
    passed: bool
    result: str


class RefitRoll(TypedDict):
    """A Refit dr of a side's sealed orders (8.614, 8.618, 8.620), its owner's alone."""

    date: str
    step: str
    what: str
    dr: int
    result: str


class FortPurchase(TypedDict):
    """Fortifications bought with FPP (8.621), the buyer's own."""

    date: str
    fortification: str
    name: str
    count: int
    fpp: int


class DummyMinefields(TypedDict):
    """7.2: the Dummy minefields a side received with its Known Minefields (its own)."""

    date: str
    known_fp: int
    base: int
    dr: int
    extra: int
    total: int


class PfTrack(TypedDict):
    """CG13: the German PF shots of the current scenario, in half shots (1.5 a squad)."""

    date: str
    halves: int
    used: int


class SceneReport(TypedDict):
    """The facts both sides' reports of a scenario agree on (8.603; 8.6 the Refit facts)."""

    lvp: dict[str, int]
    cvp: dict[str, int]
    hexes: dict[str, list[str]] | None
    buildings: dict[str, str | None] | None
    bridge_destroyed_by: str | None
    facts: dict[str, bool] | None
    lvp_buildings: NotRequired[dict[str, dict] | None]      # 8.2 LVP: building -> {side, rubbled, held}


class KgpState(TypedDict):
    """The whole state of a KGP campaign game."""

    cg: str
    title: str
    date: str
    dates: list[str]
    stage: str                          # setup | play | report | refit | over
    mode: str                           # umpired | open | solo
    turn: int
    scenario: ScenarioInfo
    cpp: dict[str, int]
    fpp: dict[str, int]
    chits: dict[str, int]               # Attack chits used (8.623)
    chit_limits: dict[str, int]         # the CG's Attack Chit limits (8.51-8.53)
    roster: list[RosterRow]
    cg_lvp: dict[str, int]
    sealed: dict[str, list[SealedItem]]
    opened: dict[str, list[OpenedItem]]
    purchases: dict[str, list[Purchase]]
    rolls: list[RollRecord]
    refit: list[RefitRow]
    weather: str | None
    secret_rolls: dict[str, list[SecretRoll]]
    report_round: int
    result: CgResult | None
    refit_checks: NotRequired[list[RefitCheck]]       # 8.604 (added by the first Refit Phase with checks)
    refit_rolls: NotRequired[dict[str, list[RefitRoll]]]  # 8.614, 8.618, 8.620: each side's own
    fortifications: NotRequired[dict[str, list[FortPurchase]]]  # 8.621: each side's own
    san: NotRequired[dict[str, int]]    # 8.612 SAN Adjustment (added at set-up)
    elr: NotRequired[dict[str, int]]    # CG4: the Initial Scenario's ELR for the whole CG
    mist: NotRequired[str | None]       # the Initial Scenario's Mist density (I.1, II.1, III.1; SSR KG3)
    random_weather: NotRequired[bool]   # CG3: the optional random weather table, agreed by both players
    fanaticism: NotRequired[list[str]]  # CG14: the CG Dates the Germans declared Fanaticism for
    oba_removed: NotRequired[dict[str, list[str]]]  # CG15/CG22: OBA RGs a side no longer holds (its own)
    pf: NotRequired[PfTrack]            # CG13: the current scenario's German PF track
    placements: NotRequired[dict[str, list[dict]]]  # 8.51-8.53, CG7: each side's Initial set-up (its own)
    wrecks: NotRequired[list[str]]      # II.3: the burnt-out wrecks the referee places
    dummy_minefields: NotRequired[dict[str, list[DummyMinefields]]]  # 7.2: each side's own
    last_report: NotRequired[SceneReport]
    bridge_destroyed_by: NotRequired[str]
    strategic: NotRequired[list[dict]]  # 8.605: the Strategic Locations of the last agreed report
    blazes: NotRequired[list[str]]      # 8.2 Enterable: the Blaze hexes of the last agreed report
    retained: NotRequired[dict[str, list[dict]]]  # 8.606, 8.613: each side's Retained units (its own)

