"""Refusals a caller can act on.

Every refusal says what was wrong, cites the rules_text section it rests on (as
``game/section``, served as ``rules://game/section``) and lists what is legal instead.
Engines raise these and never change a state when they do.
"""

from __future__ import annotations

from collections.abc import Sequence

#: How many legal alternatives an error message lists, and in how many characters, before it summarises the rest.
MAX_LISTED, MAX_LISTED_CHARS = 25, 1200


class GameError(Exception):
    """Base of every refusal; ``str(err)`` is the full explanation for a model to read."""

    kind = "error"

    def __init__(self, message: str, *, rule: str | None = None, legal: Sequence[str] = ()) -> None:
        self.message = message
        self.rule = rule
        self.legal = list(legal)
        super().__init__(self.explain())

    def explain(self) -> str:
        parts = [self.message.rstrip(".") + "."]
        if self.rule:
            parts.append(f"Rule: rules://{self.rule}.")
        if self.legal:
            listed, used = [], 0
            for item in self.legal[:MAX_LISTED]:
                if listed and used + len(item) > MAX_LISTED_CHARS:
                    break
                listed.append(item)
                used += len(item) + 2
            shown = ", ".join(listed)
            more = len(self.legal) - len(listed)
            if more > 0:
                shown += f" (and {more} more; call legal_moves for all)"
            parts.append(f"Legal instead: {shown}.")
        return " ".join(parts)


class IllegalMove(GameError):
    """A well-formed move the rules do not allow now."""

    kind = "illegal_move"


class MalformedMove(GameError):
    """A move that cannot be read: bad notation or an object that fails validation."""

    kind = "malformed_move"


class NotYourTurn(GameError):
    """The seat asked to act while the game awaits another seat."""

    kind = "not_your_turn"


class GameOver(GameError):
    """The game has ended; no more moves are accepted."""

    kind = "game_over"


class BadOptions(GameError):
    """Game options or seat counts the game does not support."""

    kind = "bad_options"
