"""The common action models (rules_text ``cthulhu-wars/actions``).

Every action is a pydantic model with a ``kind`` literal. Faction modules add their own
models; :func:`action_union` assembles the discriminated union from the core models
and every registered faction's, so a new faction never edits this file.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Union

import re

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator


class Action(BaseModel):
    """Base of every action: immutable, compared by value."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@functools.lru_cache(maxsize=65536)
def shared(model: type[Action], **fields: Any) -> Action:
    """``model(**fields)``, made once and shared: actions are immutable and compared by value, and the same ones come
    back position after position (listing them is the hot path)."""
    return model(**fields)


# ---- the one action of a turn ------------------------------------------------------
class Move(Action):
    """Move one figure to an adjacent area (1 Power), or farther where its faction allows (Crawling Chaos's
    Flight: cthulhu-wars/crawling-chaos); more figures may follow in the same Move action."""

    kind: Literal["move"] = "move"
    unit: str
    source: str
    target: str


class Recruit(Action):
    """Recruit a Cultist from the pool into an area with one of your units."""

    kind: Literal["recruit"] = "recruit"
    unit: str = "acolyte"
    area: str


class BuildGate(Action):
    """Build a Gate (3 Power) where you have a unit that can control it."""

    kind: Literal["gate"] = "gate"
    area: str


class Summon(Action):
    """Summon a Monster from the pool at a Gate you control."""

    kind: Literal["summon"] = "summon"
    unit: str
    area: str


class Awaken(Action):
    """Awaken a Great Old One (its own requirements and cost)."""

    kind: Literal["awaken"] = "awaken"
    unit: str
    area: str


class Battle(Action):
    """Battle one enemy faction in an area (1 Power)."""

    kind: Literal["battle"] = "battle"
    area: str
    enemy: str


class Capture(Action):
    """Capture an unprotected enemy Cultist (1 Power)."""

    kind: Literal["capture"] = "capture"
    area: str
    enemy: str


class Pass(Action):
    """Give up all remaining Power and take no more actions this Action phase."""

    kind: Literal["pass"] = "pass"


# ---- unlimited actions ---------------------------------------------------------------
class ControlGate(Action):
    """Put one of your Cultists on an Abandoned Gate in its area (unlimited, 0 Power)."""

    kind: Literal["control"] = "control"
    unit: str = "acolyte"
    area: str


class AbandonGate(Action):
    """Take your unit off a Gate you control, leaving it Abandoned (unlimited, 0 Power)."""

    kind: Literal["abandon"] = "abandon"
    area: str


class RevealElderSigns(Action):
    """Turn all your Elder Signs face up and add them to your Doom (unlimited)."""

    kind: Literal["reveal"] = "reveal"


class Done(Action):
    """Finish what is under way: a Move action, a turn of unlimited actions, or an optional decision."""

    kind: Literal["done"] = "done"


# ---- decisions -------------------------------------------------------------------------
class Ritual(Action):
    """Perform a Ritual of Annihilation in the Doom phase."""

    kind: Literal["ritual"] = "ritual"


class SkipRitual(Action):
    """Decline the Ritual of Annihilation this Doom phase."""

    kind: Literal["no-ritual"] = "no-ritual"


class ChooseFirstPlayer(Action):
    """The First Player breaks a tie for most Power."""

    kind: Literal["first-player"] = "first-player"
    faction: str


class ChooseDirection(Action):
    """The First Player picks the direction of play."""

    kind: Literal["direction"] = "direction"
    direction: Literal["clockwise", "counterclockwise"]


class TakeSpellbook(Action):
    """Take one of your remaining spellbooks for a requirement just met."""

    kind: Literal["spellbook"] = "spellbook"
    name: str


class ChooseStart(Action):
    """Set-up: the Area where your faction starts (Windwalker: one of its symbol Areas; Opener of the Way:
    any Area without a Gate)."""

    kind: Literal["start"] = "start"
    area: str


class Proceed(Action):
    """Finish this side's pre-battle abilities."""

    kind: Literal["proceed"] = "proceed"


#: One figure taking battle results: ``<unit>[@gate][+<taken>][*<results>]`` (see :class:`Assign`).
FIGURE = re.compile(r"^(?P<unit>[a-z0-9-]+)(?P<gate>@gate)?(?:\+(?P<taken>\d+))?(?:\*(?P<load>\d+))?$")


def figure_label(unit: str, on_gate: bool = False, taken: int = 0, load: int = 1) -> str:
    """The notation of one figure in an :class:`Assign`."""
    return unit + ("@gate" if on_gate else "") + (f"+{taken}" if taken else "") + (f"*{load}" if load > 1 else "")


def read_figure(text: str) -> tuple[str, bool, int, int] | None:
    """(unit, on the Gate, results taken before, results now) of a figure label, or None if it is not one."""
    match = FIGURE.match(text)
    if match is None:
        return None
    return match["unit"], bool(match["gate"]), int(match["taken"] or 0), int(match["load"] or 1)


class Assign(Action):
    """Assign battle results to individual figures, one entry per figure (rules_text ``cthulhu-wars/battle``).

    An entry is the figure's unit type, ``@gate`` for the one controlling the Gate there, ``+n`` for a figure
    that already took n results in this battle (Regenerate), and ``*n`` when this figure takes n of the results:
    ``assign kill starspawn*2`` puts both Kills on one Starspawn, ``assign kill starspawn,starspawn`` one on each.
    The entries are kept in sorted order, so any order names the same assignment.
    """

    kind: Literal["assign"] = "assign"
    result: Literal["kill", "pain"]
    units: tuple[str, ...]

    @field_validator("units")
    @classmethod
    def canonical(cls, units: tuple[str, ...]) -> tuple[str, ...]:
        readable = [read_figure(u) for u in units]
        return tuple(sorted(figure_label(*r) if r else u for u, r in zip(units, readable, strict=True)))


class Retreat(Action):
    """Retreat one Pained unit to an adjacent area free of the enemy's units."""

    kind: Literal["retreat"] = "retreat"
    unit: str
    target: str


class Lose(Action):
    """As the victim, choose which of your units is taken (captured, devoured, dreamt away...)."""

    kind: Literal["lose"] = "lose"
    unit: str
    from_gate: bool = False


class Offer(Action):
    """Your proposal in a negotiation: how much each seat concerned gives (faction -> amount)."""

    kind: Literal["offer"] = "offer"
    shares: tuple[tuple[str, int], ...]


CORE_ACTIONS: tuple[type[Action], ...] = (
    Move, Recruit, BuildGate, Summon, Awaken, Battle, Capture, Pass,
    ControlGate, AbandonGate, RevealElderSigns, Done,
    Ritual, SkipRitual, ChooseFirstPlayer, ChooseDirection, ChooseStart, TakeSpellbook, Proceed, Assign, Retreat, Lose, Offer,
)  # fmt: skip

def action_union(extra: tuple[type[BaseModel], ...]) -> Any:
    """The discriminated union of the core actions and ``extra`` faction actions."""
    models = CORE_ACTIONS + tuple(m for m in extra if m not in CORE_ACTIONS)
    return Annotated[Union[models], Field(discriminator="kind")]  # noqa: UP007


def action_adapter(extra: tuple[type[BaseModel], ...]) -> TypeAdapter[Any]:
    return TypeAdapter(action_union(extra))
