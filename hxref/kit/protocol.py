"""The game-system protocol: everything the core may ask of a game system, declared once.

A game system is one package under ``hxref/systems/<name>/`` (or any importable package
registered with :func:`hxref.kit.registry.register`) with two modules:

- ``info.py`` holds ``INFO``, a :class:`SystemInfo`: its name, title, sides, optional rules,
  data folder, demo and command group.  It imports no rules, so the CLI can list the systems,
  their help and their command groups without loading any of them;
- ``system.py`` holds ``SYSTEM``, an instance of a :class:`GameSystem` subclass, named with the
  type of its state: ``class HexDuel(GameSystem[DuelState])``, the state a ``TypedDict`` of its
  ``state_types.py``, so every method that takes or returns the state is checked against it.

The core (engine, game file, CLI, batch, demo, mail, play, report) calls a system only through
the methods below and never looks a hook up by name; it holds every system as a ``GameSystem[Any]``
(the state it keeps is the plain data the game file holds, which is the state the system's own
``setup`` and ``resolve`` returned).  Every method a system may leave out has its default here.
``decisions``, ``check``, ``view``, ``result``, ``stand_fast``, ``map_orders``, ``reach``, ``dashboard``,
``secrets``, ``boxes``, ``public`` and ``merged`` read their arguments and change nothing (the conformance suite checks it); ``resolve`` and ``decided`` return the new
state (the engine hands them a copy of its own, which the rules of the shipped systems update in place).
A system never imports :mod:`random`, never prints and never reads a file during play: dice
come in as an object, and the charts, terrain types and map as the :class:`~hxref.kit.charts.Charts`
the system is bound to (:meth:`GameSystem.bind`): the game's pinned files, or today's.
"""
from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, cast

if TYPE_CHECKING:
    from .charts import Charts

#: the audience of a view or report that is no side: the umpire sees everything
UMPIRE = "umpire"
#: the audience of the public view (what every side and any onlooker may see)
PUBLIC = None

#: a system's state: plain data (mappings, lists, text, numbers) a game file holds as YAML; each
#: system names its own ``TypedDict``, or a union of them when its scenarios are different games
#: (``GameSystem[SalemState]``; Heartland's ``BiddingState | FullGameState``)
S = TypeVar("S", bound=Mapping[str, Any])


@dataclass(frozen=True)
class Problem:
    """Why an order is illegal: message, rule number, data path inside the choice."""

    message: str
    rule: str
    path: list = field(default_factory=list)


@dataclass(frozen=True)
class Field:
    """One key of a choice: its type and, for numbers, the allowed range.

    Fields nest (:mod:`hxref.kit.schema`): a ``"dict"`` has ``fields`` (its own schema, the only
    keys it may have) or ``values`` (the field of every value); a ``"list"`` has ``items`` (the
    field of every item).  ``rule`` is the rule the shape comes from (default: the enclosing
    field's, at the top the decision's); ``nullable`` lets the value be ``null``."""

    type: str                  # "int", "number", "str", "bool", "list", "dict", "any"
    help: str = ""
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple = ()
    optional: bool = False
    fields: Mapping[str, Field] | None = None
    items: Field | None = None
    values: Field | None = None
    rule: str = ""
    nullable: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, Field):
                out[name] = value.to_dict()
            elif name == "fields" and value is not None:
                out[name] = {k: v.to_dict() for k, v in value.items()}
            elif value not in (None, "", ()) and value is not False:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Field:
        """A field from :meth:`to_dict` (or from a game file written before fields nested)."""
        kw: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()}
        if kw.get("fields") is not None:
            kw["fields"] = {k: cls.from_dict(v) for k, v in kw["fields"].items()}
        for name in ("items", "values"):
            if kw.get(name) is not None:
                kw[name] = cls.from_dict(kw[name])
        return cls(**kw)


@dataclass(frozen=True)
class Decision:
    """What the engine waits for.

    ``secret`` decisions are answered by commit-reveal; ``simultaneous`` ones
    are asked of several sides at once; ``dice`` says the resolution may roll.
    """

    id: str
    sides: tuple[str, ...]
    kind: str
    prompt: str
    rule: str
    secret: bool = False
    simultaneous: bool = False
    dice: bool = False
    schema: dict[str, Field] = field(default_factory=dict)
    example: dict = field(default_factory=dict)
    deadline: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {f: getattr(self, f) for f in self.__dataclass_fields__}
        d["sides"] = list(self.sides)
        d["schema"] = {k: v.to_dict() for k, v in self.schema.items()}
        d["example"] = dict(self.example)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Decision:
        schema = {k: Field.from_dict(v) for k, v in d.get("schema", {}).items()}
        return cls(**{**d, "sides": tuple(d["sides"]), "schema": schema})


@dataclass
class Section:
    """A part of a report: a title, lines of text and an optional table (plain strings)."""

    title: str
    lines: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    secret: bool = False


@dataclass(frozen=True)
class MapMark:
    """Something that happened in the turn a report tells, drawn on the reader's map.

    ``kind`` is one of ``move``, ``retreat``, ``advance`` (``at`` is the path, first hex first),
    ``attack`` (``at`` is the attackers' hexes, then the target hex), ``result`` (a combat result
    on the target hex: ``label`` is the result, e.g. "2/1"), ``eliminated`` (a unit gone from
    ``at[0]``: ``label`` is its name), ``killed`` (a leader fallen at ``at[0]``: ``label`` is his
    name) and, on a measured table, ``shot`` (``at`` is the shooter's and the target's unit ids,
    ``label`` the hits).  ``side`` is whose unit acted (its colour), None when no side did."""

    kind: str
    at: tuple[str, ...]
    side: str | None = None
    label: str = ""


@dataclass(frozen=True)
class MapView:
    """What a map picture shows one audience: the map file, the unit markers, and (on a
    measured table) the last shots.  Built from the audience's view, never from the full state."""

    map_path: Path
    units: list = field(default_factory=list)
    shots: list = field(default_factory=list)
    #: the hexes the audience cannot see (drawn shaded: an unseen hex is not an empty one)
    fog: frozenset = frozenset()
    #: the map itself, as the game reads it (its pinned copy); filled by the engine's map_view
    hexmap: Any = field(default=None, compare=False, repr=False)

    def load(self) -> Any:
        """The map: the game's own when the engine filled :attr:`hexmap`, else the file's."""
        if self.hexmap is not None:
            return self.hexmap
        from ..geometry.mapfile import load_map

        return load_map(self.map_path)


@dataclass(frozen=True)
class Piece:
    """A piece a side may order on the map at a decision: its id as the choice names it, the hex
    it stands in (the map's label), and the name the page shows."""

    id: str
    hex: str
    label: str


@dataclass(frozen=True)
class MapList:
    """A list of a decision's choice that the player fills in on the map (the order page,
    :mod:`hxref.desk`), one item per piece ordered: ``{PIECE: id, PATH: [hex, ...], TARGET: hex}``
    under the keys named here (``path`` or ``target`` empty when the item has none).  ``pieces``
    are those the side may put in this list now; ``label`` is what the page calls an item
    ("move", "bombard"); ``rule`` the rule of the list."""

    key: str
    piece: str
    pieces: tuple[Piece, ...]
    path: str = ""
    target: str = ""
    label: str = ""
    rule: str = ""


@dataclass(frozen=True)
class Result:
    """How a finished game ended: the winning side (None for a draw), the margin in the
    system's own measure (victory points, units, ...), and one line saying how."""

    winner: str | None
    margin: int
    how: str


@dataclass(frozen=True)
class Template:
    """An order file's skeleton for one decision: comment lines (the notes a player reads
    before he fills it in) and the choice to fill in."""

    notes: list[str]
    choice: dict


@dataclass(frozen=True)
class SystemInfo:
    """What the core knows of a system without importing its rules.

    ``data_folder`` names ``games/<data_folder>/`` (charts, maps, scenarios, case book) and
    ``orders/<data_folder>/`` (the shipped demo games); ``root``, when set, holds both
    (``root/games``, ``root/orders``) for a system shipped outside hxref.  ``cli`` is the
    ``"module:attribute"`` of a click group mounted as ``hxref <name>``.  ``append_only`` names the
    top-level state lists whose items the rules never change once appended (a record of past
    turns): the engine hands ``resolve`` a new list of the same items rather than a deep copy, so
    a resolution costs the same on the last turn of a campaign as on the first (the conformance
    suite checks the items stay as they were).  ``secret_kinds`` names
    where in the state a side's secrets lie, as paths or rules functions
    (:mod:`hxref.kit.secret_kinds`); the conformance suite looks for their values in every other
    audience's reports.  ``dashboard`` names the state scalars a dashboard shows.
    """

    name: str
    title: str
    sides: tuple[str, ...]
    data_folder: str
    summary: str = ""
    scenarios_help: str = ""
    optional_rules: Mapping[str, str] = field(default_factory=dict)
    has_map: bool = False
    simultaneous: bool = False
    secret_kinds: tuple[str, ...] = ()
    append_only: tuple[str, ...] = ()
    demo: str | None = None
    cli: str | None = None
    dashboard: tuple[str, ...] = ("turn", "turns", "stage", "date")
    root: Path | None = None
    #: the folders of the data folder whose YAML files a new game pins (besides terrain.yaml and its map)
    pinned_folders: tuple[str, ...] = ("charts",)

    def games_path(self) -> Path:
        if self.root is not None:
            return self.root / "games"
        from ..base.paths import games_dir

        return games_dir() / self.data_folder

    def orders_path(self) -> Path:
        if self.root is not None:
            return self.root / "orders"
        from ..base.paths import orders_dir

        return orders_dir() / self.data_folder


class GameSystem(ABC, Generic[S]):
    """The base of every game system, generic over the type ``S`` of its state.  Subclasses set
    ``info`` and implement the abstract methods; the others have working defaults."""

    info: SystemInfo
    #: the data files the rules read, set by :meth:`bind`; today's files until bound
    _charts: Charts | None = None

    def bind(self, charts: Charts) -> Self:
        """These rules playing with ``charts`` (a game's pinned files): a copy of the system
        whose every rule reads its charts, terrain and map from ``charts`` only."""
        if charts.system != self.name:
            raise ValueError(f"the charts of {charts.system} given to {self.name}")
        bound = copy.copy(self)
        bound._charts = charts
        return bound

    @property
    def charts(self) -> Charts:
        """The data files these rules play with: the game's when bound (:meth:`bind`), else the
        data folder's as they are today."""
        if self._charts is None:
            from .charts import Charts

            return Charts.today(self.name)
        return self._charts

    # the metadata the core reads often, from ``info``
    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def sides(self) -> tuple[str, ...]:
        return self.info.sides

    @property
    def optional_rules(self) -> Mapping[str, str]:
        return self.info.optional_rules

    # --- scenarios -------------------------------------------------------------------------
    def scenarios(self) -> list[str]:
        """The scenario names: the YAML files of ``games/<data_folder>/scenarios/``."""
        return sorted(p.stem for p in (self.info.games_path() / "scenarios").glob("*.yaml"))

    #: the keys a scenario must have (a scenario file a club writes is checked for them)
    scenario_keys: tuple[str, ...] = ()

    def load_scenario(self, name: str) -> dict:
        """The scenario ``name`` as plain data: a shipped scenario by name, or a scenario file of
        one's own (a name ending in ``.yaml`` or ``.yml``, relative to the working folder); E503
        when there is none, or when it lacks one of :attr:`scenario_keys`.  Read once, when a
        game is made, and kept in its ``game.created``: a scenario is never pinned as charts are
        (:mod:`hxref.kit.data`).

        A file of one's own is read with the strict reader, which names the line of a mistake; a
        shipped one with the fast reader, as the shipped charts are (the tests read every shipped
        scenario with both and find the same data)."""
        from ..base.errors import InvalidInput
        from ..base.yamlio import load_data, load_data_fast, to_plain

        own = name.endswith((".yaml", ".yml"))
        path = Path(name) if own else self.info.games_path() / "scenarios" / f"{name}.yaml"
        if not path.is_file():
            raise InvalidInput(f"no scenario {'file ' if own else ''}{name!r} for {self.info.name}; "
                               f"known: {', '.join(self.scenarios())}", code="E503",
                               file=str(path) if own else None)
        data = to_plain(load_data(path)) if own else load_data_fast(path)
        if not isinstance(data, dict):
            raise InvalidInput("a scenario is a mapping of its parts", code="E503", file=str(path))
        for key in self.scenario_keys:
            if key not in data:
                raise InvalidInput(f"scenario lacks `{key}`", code="E503", file=str(path))
        return data

    # --- the sequence of play --------------------------------------------------------------
    @abstractmethod
    def setup(self, scenario: dict) -> S:
        """The state at the start of play, from the scenario's plain data."""

    @abstractmethod
    def decisions(self, state: S) -> list[Decision]:
        """What is awaited now, in the order the decisions close."""

    @abstractmethod
    def check(self, state: S, decision: Decision, side: str, choice: dict) -> list[Problem]:
        """Why ``choice`` is illegal for ``side`` (empty when it is legal).  Changes nothing."""

    @abstractmethod
    def resolve(self, state: S, decision: Decision, answers: dict[str, dict],
                dice: Any) -> tuple[S, list[dict]]:
        """The new state and the events of resolving ``decision`` with every side's answer.
        A pure function of its arguments and the game's charts; ``state`` is the engine's copy."""

    @abstractmethod
    def view(self, state: S, audience: str | None, mode: str) -> dict:
        """What ``audience`` may see: a side, :data:`PUBLIC` or :data:`UMPIRE` (everything).
        Built by allow-list: a field is shown because the rules say it may be."""

    @abstractmethod
    def report(self, view: Mapping[str, Any]) -> list[Section]:
        """The rules' part of a report, from a view."""

    # --- optional, with defaults -----------------------------------------------------------
    def result(self, state: S) -> Result | None:
        """How the game ended, or None while it goes on (or when the scenario names no winner)."""
        return None

    def decided(self, state: S) -> tuple[S, list[dict]]:
        """The state and the events once a neutral party has seen every side's hidden state, in a game
        played with hidden armies: called on the true state when the proof passes (at the game's
        end, or at a challenge that lifts the fog and lets the game go on in the open).  A result
        that reads a side's :meth:`boxes` is no copy's to announce while each holds only its own
        (its belief of the others' is not theirs): a system whose result reads them leaves it out at
        the end of such a game and decides it here, on the true state, with the events that
        announce it.  Default: the state unchanged, no event (a result that reads only what both
        copies hold, announced at the end).  ``state`` is the engine's copy."""
        return state, []

    def template(self, view: Mapping[str, Any], decision: Decision, side: str) -> Template:
        """The skeleton of ``side``'s order file for ``decision``: by default the decision's example."""
        return Template(notes=[], choice=copy.deepcopy(dict(decision.example)))

    def stand_fast(self, state: S, decision: Decision, side: str) -> dict:
        """What a signed claim gives ``side``, late with its answer to ``decision``, under the
        stand-fast policy: an answer the rules accept in every position (for an impulse's orders,
        no moves), which ``resolve`` plays as the side standing fast.  By default the decision's
        example; a system whose example is not such an answer declares its own."""
        return copy.deepcopy(dict(decision.example))

    def map_view(self, view: Mapping[str, Any]) -> MapView | None:
        """The map picture of a view; None for a system (or scenario) without a map."""
        return None

    def map_orders(self, state: S, decision: Decision, side: str) -> list[MapList]:
        """The lists of ``decision``'s choice that ``side`` fills in on the map, read from
        ``state`` (in an umpired game, the side's view: what ``check`` reads); none by default, and
        the order page shows the decision as a form."""
        return []

    def reach(self, state: S, decision: Decision, side: str, choice: Mapping[str, Any], key: str,
              piece: str) -> dict[str, float]:
        """The hexes ``piece`` may reach as an item of list ``key``, given the rest of ``choice``,
        each with what it costs to get there (in the rules' own measure, movement points), found by
        the rules' own search; none by default."""
        return {}

    def brief(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[str]:
        """"This turn in brief": three to eight lines, most important first (combats and their
        results, losses by unit name, leaders killed, victory points), from the ``data`` of the
        events ``audience`` may see since it last read, in the order they happened.  A system
        with nothing to tell of a turn returns no line."""
        return []

    def map_marks(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any],
                  audience: str | None) -> list[MapMark]:
        """What those same events draw on ``audience``'s map (:class:`MapMark`): moves, attacks,
        results, retreats, eliminated units and fallen leaders that it may see."""
        return []

    def dashboard(self, state: S) -> dict[str, Any]:
        """The scalars a dashboard line shows (turn, stage, date, ...), from ``info.dashboard``."""
        return {k: state[k] for k in self.info.dashboard if k in state and not isinstance(state[k], (dict, list))}

    def secrets(self, state: S, side: str) -> set[str]:
        """The text values of ``side``'s secrets in an umpired game: what no other audience's
        report may show.  By default read from ``info.secret_kinds`` (:mod:`hxref.kit.secret_kinds`)."""
        from .secret_kinds import values

        return values(state, side, self.info.secret_kinds, type(self).__module__.rpartition(".")[0])

    # --- hidden state in open games: each side's own part, and the public rest ------------------
    def boxes(self, state: S, side: str) -> Mapping[str, Any] | None:
        """``side``'s hidden state in an open game, as named boxes of plain data (each a leaf of a
        commitment, opened alone when the rules reveal it); exact inverse of :meth:`public` with
        :meth:`merged`.  None (the default): the system keeps no hidden state in open games, both
        players hold the whole state.  Changes nothing."""
        return None

    def public(self, state: S) -> dict:
        """The state without any side's :meth:`boxes`: what every player may see.  By default (no
        hidden state) a copy of the whole state.  Changes nothing."""
        return copy.deepcopy(dict(state))

    def merged(self, public: Mapping[str, Any], boxes_by_side: Mapping[str, Mapping[str, Any] | None]) -> S:
        """The state again from :meth:`public` and every side's :meth:`boxes`:
        ``merged(public(s), {x: boxes(s, x) for x in sides}) == s``.  By default a copy of the
        public part, which is the whole state.  Changes neither argument."""
        return cast(S, copy.deepcopy(dict(public)))

    def box_names(self, public: Mapping[str, Any], side: str) -> list[str]:
        """The names of ``side``'s :meth:`boxes`, from the public part alone (sorted): the list an
        opening is checked against.  Default: none."""
        return []

    def box_rule(self, box: str, path: Sequence[str]) -> str | None:
        """The rule that governs the part ``path`` (keys into the value) of a box named ``box``: what
        the proof names when a side committed to another value there.  Default: None (the engine
        names the rule of the events that last changed the box)."""
        return None

    def public_answer(self, state: S, decision: Decision, side: str, choice: Mapping[str, Any]) -> dict:
        """The part of ``side``'s answer the other sides read in a game with hidden armies; the rest
        is sealed until the proof (an administration on its own display).  Default: all of it."""
        return copy.deepcopy(dict(choice))

    def claims(self, state: S, decision: Decision, side: str, choice: Mapping[str, Any]) -> dict[str, Any]:
        """What ``side`` states of its own boxes with its answer, before the dice, in a game with
        hidden armies: the facts the rules read to make the results of its answer public (a force's
        movement allowance, its attack checks), as partial boxes (box name: the part of its value),
        merged into the other copies' picture of its boxes; proven at the end.  Default: none."""
        return {}

    def claim_problem(self, state: S, decision: Decision, side: str, choice: Mapping[str, Any],
                      names: Sequence[str], claims: Any) -> Problem | None:
        """Why ``claims``, as a file of ``side`` carries them with its answer (its public part ``choice``),
        cannot be the claims the rules give (:meth:`claims`), as another copy tells at once on its
        ``state``: what is wrong, the path into the claims, and the rule that reads what the claim leaves
        out or bounds too low (none for a claim of the wrong form), or None.  Their form (each box one of
        ``names``, the side's box names; each value of the form the state's field has) and whatever
        the public facts tell of them; the proof holds the rest to the true boxes.  Never raises, whatever
        the claims.  Default (no hidden state): a claim of anything is wrong."""
        if claims == {}:
            return None
        return Problem(f"{self.name} keeps no hidden state: an answer claims nothing", "")

    def believed(self, side: str, box: Any, part: Mapping[str, Any]) -> Any:
        """The box another copy believes once ``side`` claimed ``part`` of it (:meth:`claims`): what it
        believed, ``box`` (None: nothing), with ``part`` laid over it (:func:`overlay`).  A system whose
        claims state a bound ("at least so much") believes the bound; one whose claims may name a piece
        the other copy never saw gives it what the rules make public of it.  Changes no argument."""
        return overlay(box, part)

    def reveals(self, state: S, decision: Decision, side: str, choice: Mapping[str, Any] | None,
                events: Sequence[Mapping[str, Any]] | None) -> list[str]:
        """The boxes of ``side`` the rules reveal at ``decision`` in a game with hidden armies: with
        ``events`` None, those its answer ``choice`` opens before the dice (the forces it orders to
        attack); else those the resolution on this copy (``events``) reveals (the forces in a
        combat, the WEP of a tie).  Default: none."""
        return []

    def shown(self, state: S, side: str) -> dict:
        """What ``side``'s army shows every player (its counters on the map), as its own copy has it:
        published with each of its files in a game with hidden armies.  Default: nothing."""
        return {}

    def with_shown(self, public: Mapping[str, Any], side: str, shown: Mapping[str, Any]) -> dict:
        """``public`` with ``side``'s part as ``side`` showed it (:meth:`shown`).  Default: unchanged."""
        return dict(public)


def overlay(value: Any, part: Any) -> Any:
    """``value`` with ``part`` laid over it: mappings key by key, anything else replaced (a copy)."""
    if isinstance(value, dict) and isinstance(part, Mapping):
        out = dict(value)
        for k, v in part.items():
            out[k] = overlay(value.get(k), v)
        return out
    return copy.deepcopy(part)


def resolve_copy(info: SystemInfo, state: Mapping[str, Any]) -> dict:
    """The state the engine hands ``resolve``: a deep copy, so the engine's own changes only when
    a resolution succeeds, except that each of the system's :attr:`SystemInfo.append_only` lists
    is a new list of the same items (the rules append to it and change no item)."""
    return {k: list(v) if k in info.append_only and isinstance(v, list) else copy.deepcopy(v)
            for k, v in state.items()}


def other_side(sides: Sequence[str], side: str) -> str:
    """The other side of a two-sided game."""
    a, b = sides
    return b if side == a else a
