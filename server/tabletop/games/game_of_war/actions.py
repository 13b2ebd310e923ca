"""The moves a player can make, as pydantic models in one union keyed by ``kind``.

Rules: ``game-of-war/setup`` (place, remove, opening, commit), ``game-of-war/turn`` (move,
attack, end) and ``game-of-war/notation`` for their text forms.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .units import UnitName

Square = Annotated[
    str,
    Field(pattern=r"^[a-y](?:[1-9]|1[0-9]|20)$", description="Column a..y and row 1..20, e.g. 'e7'; row 1 is North's edge."),
]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Place(_Action):
    """Set-up: put one of your undeployed units on an empty square of your territory."""

    kind: Literal["place"] = "place"
    unit: UnitName
    square: Square


class Remove(_Action):
    """Set-up: take one of your placed units back off the board."""

    kind: Literal["remove"] = "remove"
    square: Square


class UseOpening(_Action):
    """Set-up: replace your deployment with your side of a named opening."""

    kind: Literal["opening"] = "opening"
    name: str


class Commit(_Action):
    """Set-up: fix your deployment (all 17 units placed); hidden until both sides commit."""

    kind: Literal["commit"] = "commit"


class Move(_Action):
    """Move one unit; moving onto an empty enemy arsenal destroys it."""

    kind: Literal["move"] = "move"
    origin: Square
    destination: Square
    unit: UnitName | None = Field(default=None, description="Optional check: the kind of unit expected on origin.")


class Attack(_Action):
    """The turn's attack on the enemy unit at ``target``; it ends the turn."""

    kind: Literal["attack"] = "attack"
    target: Square


class EndTurn(_Action):
    """End the turn (moving fewer than five units and not attacking is allowed)."""

    kind: Literal["end"] = "end"


Action = Annotated[Union[Place, Remove, UseOpening, Commit, Move, Attack, EndTurn], Field(discriminator="kind")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
