"""The game state (rules_text ``cthulhu-wars/setup``).

Plain dataclasses with an explicit ``copy``: ``apply`` copies the state once and then
changes the copy, so the caller's state is never touched. Units are figures with an
index per unit type; a figure's place is an area id, ``POOL`` or a holding spot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars.maps import MapLayout, load_layout
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

#: Where a figure is when it is not on the map.
POOL = "@pool"
CARD = "@card"  # on its own faction card (e.g. Submerged)
CAPTURED = "@captured"  # on an enemy faction card, captured
HELD = "@held"  # on a faction card by an ability, in play but in no Area (Cursed Slumber, Ancient Sorcery)
GONE = "@gone"  # out of the game for good (Extinction)

#: Ritual of Annihilation tracks per player count; the last step is Instant Death.
RITUAL_TRACKS = {3: (5, 6, 7, 8, 9, 10, 10), 4: (5, 6, 7, 7, 8, 8, 9, 10, 10), 5: (5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10)}
#: The 6-player tracks the option ``ritual_track_six_players`` chooses between (no official one is known: rulings).
SIX_PLAYER_RITUAL_TRACKS = {"extended": (5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 10, 10), "five-player": RITUAL_TRACKS[5]}

#: The Elder Sign bag: how many tokens of value 1, 2 and 3.
ELDER_SIGN_BAG = (18, 12, 6)


def ritual_track(options: CthulhuWarsOptions, players: int) -> tuple[int, ...]:
    """The Ritual track of a game (``cthulhu-wars/doom``): the printed one for 3-5 players, for 6 the one the ruling
    ``six-player-ritual-track`` chooses (``cthulhu-wars/rulings``)."""
    if players == 6:
        return SIX_PLAYER_RITUAL_TRACKS[options.ritual_track_six_players]
    return RITUAL_TRACKS[players]


@dataclass
class Pending:
    """A decision the game awaits from ``seat``: ``kind`` names it, ``data`` holds its details."""

    seat: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Pending:
        return Pending(self.seat, self.kind, _copy_value(self.data))


class UnitPlaces(dict):
    """A seat's figures: unit type -> place of each figure. It keeps the rules the seat plays by (see
    :func:`~.board.faction_of`), worked out from its faction and its unit types, until a unit type is added or taken
    away (a neutral card taken or given back: rules_text ``cthulhu-wars/high-priests``); moving a figure changes only
    a list of places, never the unit types, so it keeps them."""

    #: ``rules``: (faction name, its rules) for these unit types, or None when not yet worked out; unset in one made
    #: otherwise than by :meth:`copy_figures` or :func:`unit_places`, so readers allow for its absence
    __slots__ = ("rules",)

    def __reduce__(self) -> tuple[Any, ...]:
        return unit_places, (dict(self),)  # the rules are worked out again where it is read back

    def copy_figures(self) -> UnitPlaces:
        """A copy with lists of its own (the same unit types: the rules kept)."""
        new = UnitPlaces(zip(self, map(list.copy, self.values())))
        new.rules = getattr(self, "rules", None)
        return new

    def __setitem__(self, kind: str, places: list[str]) -> None:
        self.rules = None
        super().__setitem__(kind, places)

    def __delitem__(self, kind: str) -> None:
        self.rules = None
        super().__delitem__(kind)

    def __ior__(self, other: Any) -> UnitPlaces:
        self.rules = None
        return super().__ior__(other)

    def pop(self, *args: Any) -> Any:
        self.rules = None
        return super().pop(*args)

    def popitem(self) -> Any:
        self.rules = None
        return super().popitem()

    def setdefault(self, *args: Any) -> Any:
        self.rules = None
        return super().setdefault(*args)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.rules = None
        super().update(*args, **kwargs)

    def clear(self) -> None:
        self.rules = None
        super().clear()


def copy_units(units: dict[str, list[str]]) -> UnitPlaces:
    """A seat's figures copied, lists and all (``units`` may have been set to a plain dict)."""
    if type(units) is UnitPlaces:
        return units.copy_figures()
    return unit_places({kind: list(places) for kind, places in units.items()})


def unit_places(units: dict[str, list[str]]) -> UnitPlaces:
    """``units`` (unit type -> place of each figure, the lists shared) as :class:`UnitPlaces`, its rules not yet
    known."""
    found = UnitPlaces(units)
    found.rules = None
    return found


@dataclass
class FactionState:
    """One seat's faction: its resources and where its figures are."""

    faction: str
    power: int = 8
    doom: int = 0
    elder_signs: list[int] = field(default_factory=list)
    spellbooks: list[str] = field(default_factory=list)
    requirements: list[str] = field(default_factory=list)
    units: dict[str, list[str]] = field(default_factory=dict)  # unit type -> place of each figure
    captives: list[tuple[int, str, int]] = field(default_factory=list)  # (owner seat, unit type, index)
    flags: dict[str, Any] = field(default_factory=dict)  # faction-specific memory (e.g. 'awakened-cthulhu')

    def copy(self) -> FactionState:
        return FactionState(
            self.faction,
            self.power,
            self.doom,
            list(self.elder_signs),
            list(self.spellbooks),
            list(self.requirements),
            copy_units(self.units),
            list(self.captives),
            _copy_value(self.flags),
        )

    def __post_init__(self) -> None:
        if type(self.units) is not UnitPlaces:
            self.units = unit_places(self.units)

    def in_area(self, area: str) -> dict[str, int]:
        """How many figures of each unit type stand in ``area``."""
        counts: dict[str, int] = {}
        for kind, places in self.units.items():
            n = places.count(area)
            if n:
                counts[kind] = n
        return counts

    def count(self, kind: str, place: str) -> int:
        return self.units[kind].count(place)


@dataclass
class Turn:
    """The Action-phase turn in progress: whose it is and what has happened in it."""

    seat: int
    acted: bool = False  # the one action of the turn has been taken
    moving: bool = False  # a Move action is under way (more units may follow)
    moved: list[tuple[str, int]] = field(default_factory=list)  # figures moved in this Move action
    battled: list[str] = field(default_factory=list)  # areas battled this turn
    hooks_due: bool = False  # an action finished and 'after any action' abilities have not yet run
    closed: bool = False  # the seat said it is done with its unlimited follow-ups
    number: int = 0  # turns begun in the game so far, this one included (once-per-turn abilities)
    last_action: str = ""  # kind of the last action completed in this turn (e.g. "move", for Burrow)
    move_paid: int = 0  # Power paid for moving units in the current or last Move action
    #: Actions completed since the last out-of-turn window, in words, for the next window (windows.py)
    since_window: list[dict[str, Any]] = field(default_factory=list)
    #: Where every figure stood and who held each Gate before those actions (windows.py), or None; never changed
    #: once taken, so copies share it
    window_base: tuple[Any, ...] | None = None

    def copy(self) -> Turn:
        return Turn(self.seat, self.acted, self.moving, list(self.moved), list(self.battled), self.hooks_due,
                    self.closed, self.number, self.last_action, self.move_paid, _copy_value(self.since_window),
                    self.window_base)


@dataclass
class GameState:
    """Everything about one game of Cthulhu Wars."""

    options: CthulhuWarsOptions
    layout_name: str
    seats: list[FactionState]
    gates: dict[str, tuple[int, str, int] | None]  # area -> controlling figure (seat, type, index), None if abandoned
    rng: Rng
    es_bag: list[int] = field(default_factory=lambda: list(ELDER_SIGN_BAG))
    ritual_step: int = 0
    round: int = 1
    phase: str = "action"  # action | doom | over
    first_player: int = 0
    direction: int = 1  # +1 clockwise (seat order), -1 the other way
    turn: Turn | None = None
    pending: list[Pending] = field(default_factory=list)
    battle: dict[str, Any] | None = None  # the battle being fought, see battle.py
    doom_queue: list[int] = field(default_factory=list)  # seats still to be offered a Ritual
    doom_phases: int = 0  # Doom phases begun so far
    ending: bool = False  # the game ends when the current step completes
    winners: list[int] | None = None
    turns_begun: int = 0  # Action-phase turns begun so far
    pieces: dict[str, list[str]] = field(default_factory=dict)  # the map's creatures: kind -> place of each (creatures.py)
    citadel_victory: tuple[int, str] | None = None  # (seat, board) of a Citadel victory (citadels.py)

    @property
    def layout(self) -> MapLayout:
        return load_layout(self.layout_name)

    @property
    def ritual_track(self) -> tuple[int, ...]:
        return ritual_track(self.options, len(self.seats))

    @property
    def ritual_cost(self) -> int:
        return self.ritual_track[self.ritual_step]

    @property
    def instant_death(self) -> bool:
        return self.ritual_step >= len(self.ritual_track) - 1

    def copy(self) -> GameState:
        return GameState(
            self.options,
            self.layout_name,
            [s.copy() for s in self.seats],
            dict(self.gates),
            self.rng.copy(),
            list(self.es_bag),
            self.ritual_step,
            self.round,
            self.phase,
            self.first_player,
            self.direction,
            self.turn.copy() if self.turn else None,
            [p.copy() for p in self.pending],
            _copy_value(self.battle),
            list(self.doom_queue),
            self.doom_phases,
            self.ending,
            list(self.winners) if self.winners is not None else None,
            self.turns_begun,
            {k: list(v) for k, v in self.pieces.items()},
            self.citadel_victory,
        )

    def seat_of(self, faction: str) -> int:
        return next(i for i, s in enumerate(self.seats) if s.faction == faction)

    def order_from(self, start: int) -> list[int]:
        """Every seat in play order, beginning with ``start``."""
        n = len(self.seats)
        return [(start + self.direction * k) % n for k in range(n)]

    def new_turn(self, seat: int) -> Turn:
        """Begin an Action-phase turn of ``seat``."""
        self.turns_begun += 1
        self.turn = Turn(seat, number=self.turns_begun)
        return self.turn

    def controller(self, area: str) -> int | None:
        """The seat controlling the Gate in ``area`` (None if no Gate or abandoned)."""
        holder = self.gates.get(area)
        return holder[0] if holder else None


#: Types copied by sharing the value itself (see :func:`_copy_value`): immutable, nothing inside them is copied.
_SHARED = frozenset({str, int, bool, float, type(None), tuple})


def _copy_value(value: Any) -> Any:
    """A copy of nested dicts/lists/sets of plain values."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is dict or isinstance(value, dict):  # the exact type first: the common case, tested fastest
        return {k: v if type(v) in _SHARED else _copy_value(v) for k, v in value.items()}
    if kind is list or isinstance(value, list):
        return [v if type(v) in _SHARED else _copy_value(v) for v in value]
    return value
