"""The engine contract every game implements, and the shapes the outside world sees.

A game is a pure module: no MCP, no storage. ``apply`` never mutates the state it is
given (it returns a new one) and raises a :class:`~tabletop.core.errors.GameError` for
anything it refuses, so a refused move leaves the game exactly as it was. Everything random
draws from the :class:`~tabletop.core.rng.Rng` kept inside the state.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, WithJsonSchema

from .errors import GameError, MalformedMove
from .rng import Rng, fresh_seed
from .text import clip, factor

S = TypeVar("S")
A = TypeVar("A", bound=BaseModel)


#: Any JSON object. Its schema is a bare ``{"type": "object"}``: pydantic's default adds
#: ``additionalProperties: true``, which means the same but makes schema validators visit every key.
JsonObject = Annotated[dict[str, Any], WithJsonSchema({"type": "object"})]


class Outcome(BaseModel):
    """How a finished game ended."""

    winners: list[int] = Field(description="Winning seats (0-based); several on a shared win, none if all lose.")
    reason: str = Field(description="One sentence on why the game ended and who won.")
    scores: list[float] | None = Field(default=None, description="Final score per seat, where the game has scores.")


def inline_or_null(model: type[BaseModel]) -> WithJsonSchema:
    """The schema of ``model | None`` written as one inline object-or-null schema.

    Pydantic would emit ``anyOf: [{$ref}, {type: null}]``; the inline form says the same and spares
    every client that re-validates results (the MCP SDK's does, on each call) a reference lookup.
    """
    schema = model.model_json_schema()
    assert "$defs" not in schema, "only for models without nested models"
    return WithJsonSchema({**schema, "type": ["object", "null"]})


#: A game's result, or null while it is being played.
MaybeOutcome = Annotated[Outcome | None, inline_or_null(Outcome)]


class MoveOption(BaseModel):
    """One legal move, in both forms the server accepts."""

    notation: str = Field(description="Short text form; pass it as `move` to apply_move.")
    action: JsonObject = Field(description="The same move as a structured object (pass it in `actions` to apply_move).")
    summary: str = Field(description="What the move does, in plain words.")


@dataclass
class MoveGroup:
    """Legal moves that belong together (one unit, one action type...).

    ``show_title``: whether the compact text names the group (a War unit's moves already start with it).
    ``brief``: lines the game writes for the compact text instead of the factored notations (e.g. attacks
    with their predicted results).
    """

    title: str
    moves: list[MoveOption]
    show_title: bool = True
    brief: list[str] | None = None


@dataclass
class LegalMoves:
    """The moves a seat may make now, grouped for reading; ``note`` is anything a player should know."""

    groups: list[MoveGroup]
    note: str | None = None

    @property
    def count(self) -> int:
        return sum(len(g.moves) for g in self.groups)


class ChanceOutcome(BaseModel):
    """One possible result of a move that involves chance."""

    result: str = Field(description="What could happen, in words.")
    probability: float | None = Field(description="Its chance, where the server can compute it exactly.")


class ChancePreview(BaseModel):
    """What a dry run says about a move that involves chance: never its result, only what it could be."""

    summary: str = Field(description="What the move would roll or draw, in words.")
    outcomes: list[ChanceOutcome] = Field(
        default_factory=list, description="Possible results with their chances (at most a dozen, the likeliest)."
    )


@dataclass(frozen=True)
class Trial(Generic[S]):
    """A move tried without playing it (a dry run).

    Without chance: the state after it and what happened. With chance (the move rolls a die or draws
    from a bag): only that it is legal and a preview of what it could do; its result stays unknown.
    """

    chance: bool
    state_after: S | None
    events: list[str]
    preview: ChancePreview | None


class Engine(ABC, Generic[S, A]):
    """Rules of one game. Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]  # identifier, also the rules_text folder: "cthulhu-dice"
    title: ClassVar[str]
    summary: ClassVar[str]  # one paragraph for list_games
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]
    action_adapter: ClassVar[TypeAdapter[Any]]
    notation_help: ClassVar[str]  # one line: how moves are written
    #: Characters that end the common stem of two notations when lists of moves are written compactly
    #: (``C e7-d6/e6``): see ``tabletop.core.text.factor``.
    factor_separators: ClassVar[str] = " "

    # ---- creating and reading a game -------------------------------------------------
    @abstractmethod
    def new_game(self, options: BaseModel, seats: int, seed: int, names: list[str] | None = None) -> S:
        """A fresh game; raise BadOptions for an unsupported seat count or option mix.

        ``names`` are the players' names in seat order, for games that speak of players by name.
        """

    @abstractmethod
    def to_move(self, state: S) -> list[int]:
        """Seats whose decision the game awaits now (empty once the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every action ``seat`` may take now (empty if it is not that seat's decision)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> tuple[S, list[str]]:
        """The state after ``seat`` plays ``action``, and what happened in plain sentences.

        Raises GameError (and leaves ``state`` untouched) when the action is refused.
        """

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """JSON-ready state as ``seat`` may see it (``None``: a spectator, public facts only)."""

    @abstractmethod
    def describe(self, state: S, seat: int | None) -> str:
        """A short text picture of the position for a model to read."""

    def status(self, state: S, seat: int) -> str:
        """One or two lines a seat needs for its next decision right after its own move (the whole
        position is in ``describe``); by default the first line of ``describe``."""
        return self.describe(state, seat).split("\n", 1)[0]

    def position_parts(self, state: S, seat: int) -> dict[str, str] | None:
        """The position ``describe`` tells, as parts a seat can be told again only when they change: each part's
        key (one per thing that may change: a faction, an area; an absent key is a part no longer there) and its
        text; the parts keyed "now" (the phase, who is awaited) and "you" (the seat's own standing) are its status,
        told whenever its turn comes. None (the default): the position is told whole each time."""
        return None

    def decision_text(self, state: S, seat: int) -> str | None:
        """A short text for a small decision of ``seat`` (an out-of-turn window: what opened it and the seat's real
        options), given instead of the whole position; None: the position is described as usual."""
        return None

    def owed(self, state: S, seat: int) -> str | None:
        """One line saying what ``seat`` must or may do next (or why its turn has ended), for the answer to its own
        move; None when the game has nothing to add to its legal moves."""
        return None

    def consequences(self, before: S, after: S, seat: int) -> list[str]:
        """What a dry run's moves would change, briefly, for ``seat`` (changed squares, own units cut off): games
        whose moves have effects hard to see from the moves alone say them; by default nothing."""
        return []

    #: What a seat may set as standing answers (``standing_answers``), or None when the game has nothing a seat
    #: could want answered for it (no out-of-turn decisions).
    standing_model: ClassVar[type[BaseModel] | None] = None

    def standing_answer(self, state: S, seat: int, answers: BaseModel) -> str | None:
        """The move (notation) ``seat``'s standing ``answers`` make for it now by themselves, or None to ask it.
        Only decisions a player may decline (passing an out-of-turn window) are ever answered this way."""
        return None

    @abstractmethod
    def notation(self, action: A) -> str:
        """The short text form of an action."""

    @abstractmethod
    def parse(self, text: str, state: S, seat: int) -> A:
        """Read the short text form; raise MalformedMove when it cannot be read."""

    def seat_roles(self, state: S) -> list[str]:
        """What each seat plays (a side, a faction); by default just numbered seats."""
        return [f"seat {i}" for i in range(self.seat_count(state))]

    def draw(self, state: S, seat: int | None, overlays: frozenset[str], names: list[str] | None = None) -> Any:
        """A picture of the position as a ``tabletop.render.Scene``, or None if the game has none.

        ``overlays`` names optional layers the game offers (listed in ``overlay_names``); ``names`` are the
        players' names in seat order, for pictures that show who plays what.
        """
        return None

    overlay_names: ClassVar[tuple[str, ...]] = ()

    def secret_phase(self, state: S) -> bool:
        """Whether some seats' moves are secret now (a hidden deployment): then nobody is told how many moves
        the others made, and move numbers count only the moves a viewer may see."""
        return False

    def move_visible(self, state: S, mover: int, viewer: int | None) -> bool:
        """Whether ``viewer`` (None: a spectator) may read a logged move of ``mover`` in the current state.

        Games with secret moves (hidden deployment) return False until the secret is out.
        """
        return True

    @abstractmethod
    def seat_count(self, state: S) -> int:
        """How many seats the game has."""

    # ---- chance ----------------------------------------------------------------------------
    def generator(self, state: S) -> Rng:
        """The random generator kept in ``state`` (every game keeps it as ``state.rng``)."""
        return state.rng  # type: ignore[attr-defined]

    def with_generator(self, state: S, rng: Rng) -> S:
        """A shallow copy of ``state`` drawing from ``rng`` instead (``apply`` never changes its input)."""
        probe = copy.copy(state)
        probe.rng = rng  # type: ignore[attr-defined]
        return probe

    def chance_preview(self, state: S, seat: int, action: A) -> ChancePreview:
        """What a move involving chance could do, for a dry run; games override it with their odds."""
        return ChancePreview(summary="This move involves chance; its result is decided only when it is played.")

    def try_action(self, state: S, seat: int, action: A) -> Trial[S]:
        """Check a move without playing it and without consulting the game's own generator.

        The move is applied to a copy drawing from a fresh, secret generator. If it drew nothing, its
        result is certain and is returned. If it drew anything (dice, a bag), the result is thrown away
        and only a preview is returned, so a dry run can never show the roll the real move would make.
        Raises GameError exactly as ``apply`` would.
        """
        probe = self.with_generator(state, Rng(fresh_seed()))
        after, events = self.apply(probe, seat, action)
        if self.generator(after).draws == 0:
            return Trial(False, after, events, None)
        return Trial(True, None, [], self.chance_preview(state, seat, action))

    # ---- helpers shared by every game --------------------------------------------------
    def read_move(self, move: str | dict[str, Any], state: S, seat: int) -> A:
        """Turn a move given as notation or as an object into an action (MalformedMove if neither)."""
        if isinstance(move, str):
            return self.parse(move.strip(), state, seat)
        try:
            return self.action_adapter.validate_python(move)
        except ValidationError as err:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'move'}: {e['msg']}" for e in err.errors()
            )
            raise MalformedMove(
                f"The move object could not be read ({clip(problems, 300)})", rule=f"{self.name}/notation"
            ) from None

    def summarize(self, action: A, state: S) -> str:
        """A plain-words description of a legal action (defaults to its notation)."""
        return self.notation(action)

    def legal_notations(self, state: S, seat: int) -> list[str]:
        """The legal moves of ``seat`` now as ``legal_moves`` writes them briefly (alternatives factored:
        ``C e7-d6/e6``), for refusals."""
        lines = []
        for group in self.legal_moves(state, seat).groups:
            lines += group.brief or factor((m.notation for m in group.moves), self.factor_separators)
        return lines

    def legal_moves(self, state: S, seat: int, focus: str | None = None) -> LegalMoves:
        """Legal moves grouped for reading; ``focus`` narrows them (its meaning is per game)."""
        options = [self.option(a, state) for a in self.legal_actions(state, seat)]
        if focus:
            needle = focus.lower()
            options = [o for o in options if needle in o.notation.lower() or needle in o.summary.lower()]
        return LegalMoves(groups=[MoveGroup(title="moves", moves=options, show_title=False)] if options else [])

    def option(self, action: A, state: S) -> MoveOption:
        return MoveOption(
            notation=self.notation(action),
            action=action.model_dump(mode="json"),
            summary=self.summarize(action, state),
        )

    def read_options(self, options: dict[str, Any] | None) -> BaseModel:
        """Validate game options (the rulings in force); defaults fill what is missing."""
        from .errors import BadOptions

        try:
            return self.options_model.model_validate(options or {})
        except ValidationError as err:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in err.errors())
            valid = ", ".join(self.options_model.model_fields)
            raise BadOptions(
                f"Options for {self.name} could not be read ({clip(problems, 400)}). Valid options: {valid}",
                rule=f"{self.name}/rulings",
            ) from None


__all__ = ["ChanceOutcome", "ChancePreview", "Engine", "Trial", "GameError", "JsonObject", "LegalMoves", "MaybeOutcome", "MoveGroup", "MoveOption", "Outcome"]
