"""Reading ``new_game``'s players into seats: people's and agents' names, and bots the server plays itself.

A player is a name (``"Ann"``), a bot (``"bot:heuristic"``), a named bot (``"Bob (bot:search)"``) or an object:
``{"name": "Bob", "bot": "search", "seconds": 3}`` for a bot, ``{"name": "Ann", "person": true}`` for a person who
plays from the seat's own page (``new_game`` gives the page's link instead of the token), ``{"name": "bot:x"}`` for
a seat whose name only looks like a bot's (the arena names the seats its own players hold so). A bot seat keeps its bot in its name
(``bot:search``, ``Bob (bot:search)``), so every text, picture and page that names the seat says it is a bot; the
game's record says which seats are bots (``GameRecord.bots``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..bots.registry import BOTS
from ..core.errors import BadOptions
from ..core.text import has_control_characters

#: A bot's thinking time per decision: by default, and the bounds a game may set.
DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS = 2.0, 0.1, 10.0
#: The longest name a seat may have.
MAX_NAME = 40

_BARE = re.compile(r"^bot:\s*([a-z][a-z-]*)(?: #\d+)?$", re.IGNORECASE)
_NAMED = re.compile(r"^(.*\S)\s*\(bot:\s*([a-z][a-z-]*)\)$", re.IGNORECASE)


class PlayerObject(BaseModel):
    """A player given as an object: a bot seat, or a name taken as it is."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, min_length=1, max_length=MAX_NAME, description="What to call the seat.")
    bot: str | None = Field(None, min_length=1, max_length=MAX_NAME, description="The bot the server plays it with.")
    seconds: float = Field(DEFAULT_SECONDS, ge=MIN_SECONDS, le=MAX_SECONDS, description="Most seconds a decision.")
    person: bool = Field(False, description="A person who plays from the seat's page (its link, not its token).")


@dataclass
class Seating:
    """The seats' names in order, the bot seats (``{seat: (bot, seconds a decision)}``) and the people's seats."""

    names: list[str]
    bots: dict[int, tuple[str, float]] = field(default_factory=dict)
    people: set[int] = field(default_factory=set)


def read_players(game: str, title: str, players: list[str | dict[str, Any]]) -> Seating:
    """The seating ``players`` asks for; an unknown bot or a malformed object is a ``bad_options`` refusal."""
    offered = BOTS.get(game, {})
    seating = Seating(names=[])
    for seat, player in enumerate(players):
        name, bot, seconds, person = as_player(player, game)
        if person:
            seating.people.add(seat)
        if bot is not None:
            if bot not in offered:
                raise BadOptions(
                    f"{title} has no bot '{bot}'; its bots are: {', '.join(offered) or 'none'}",
                    rule=f"{game}/setup", legal=[f"bot:{b}" for b in offered],
                )
            seating.bots[seat] = (bot, seconds)
            name = f"{name} (bot:{bot})" if name else unique(f"bot:{bot}", seating.names)
        seating.names.append(name)
    return seating


def as_player(player: str | dict[str, Any], game: str) -> tuple[str, str | None, float, bool]:
    """``(name, bot or None, seconds, a person's seat)``: a bare bot's name is left empty."""
    name, bot, seconds, person = read_player(player, game)
    if has_control_characters(name):
        raise BadOptions(
            f"A player's name is printable text: {name.encode('unicode_escape').decode()[:60]!r} has control "
            "characters, which would reach every picture and page", rule=f"{game}/setup",
        )
    return name, bot, seconds, person


def read_player(player: str | dict[str, Any], game: str) -> tuple[str, str | None, float, bool]:
    """The player as given, before its name is checked."""
    if isinstance(player, dict):
        try:
            read = PlayerObject.model_validate(player)
            if read.name is None and read.bot is None:
                raise ValueError("give a name, a bot, or both")
            if read.person and read.bot is not None:
                raise ValueError("a seat is a person's or a bot's, not both")
        except (ValidationError, ValueError) as err:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'player'}: {e['msg']}" for e in err.errors()) \
                if isinstance(err, ValidationError) else str(err)
            raise BadOptions(
                f"A player given as an object is a bot seat, {{\"name\": \"Bob\", \"bot\": \"search\", \"seconds\": 3}} "
                f"(name and seconds optional), a person's seat, {{\"name\": \"Ann\", \"person\": true}}, or a name "
                f"taken as it is, {{\"name\": \"Ann\"}}; this one is none of them "
                f"({problems})", rule=f"{game}/setup",
            ) from None
        return (read.name or "").strip(), None if read.bot is None else read.bot.strip().lower(), read.seconds, read.person
    text = player.strip()
    if not 1 <= len(text) <= MAX_NAME:
        raise BadOptions(f"A player's name has 1 to {MAX_NAME} characters, not {len(text)}", rule=f"{game}/setup")
    if (bare := _BARE.match(text)) is not None:
        return "", bare.group(1).lower(), DEFAULT_SECONDS, False
    if (named := _NAMED.match(text)) is not None:
        return named.group(1), named.group(2).lower(), DEFAULT_SECONDS, False
    return text, None, DEFAULT_SECONDS, False


def unique(name: str, taken: list[str]) -> str:
    """``name``, numbered (``bot:random #2``) if a seat already has it."""
    if name not in taken:
        return name
    return next(f"{name} #{n}" for n in range(2, len(taken) + 3) if f"{name} #{n}" not in taken)
