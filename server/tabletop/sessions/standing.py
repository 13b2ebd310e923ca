"""A seat's standing answers: decisions the server makes for a seat by itself (rules_text ``cthulhu-wars/out-of-turn``).

A seat may tell the server in advance how it answers a kind of decision that it may decline, such as an
out-of-turn window it would only pass ("ask me only when an enemy acts where I have units"). What may be said,
and which decision it answers, is the game's (``Engine.standing_model``, ``Engine.standing_answer``): this module
keeps the answers (in the store, so a restarted server or another server of a fleet has them) and, after every
move, plays the answers they give for the seats awaited, through the same checks as any move of those seats.

Only a decision the seat's answers cover is made for it, and only what the rules let it decline; every other
decision is still asked. Without answers set, nothing is made for anyone: the defaults are the rules'.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ValidationError

from ..core.errors import BadOptions, GameError
from ..core.text import clip
from .live import LiveGame
from .manager import GameSessions

log = logging.getLogger("tabletop.standing")

#: The most decisions one move may set off for seats' standing answers (a window asks each seat at most a few
#: times): a safety bound, so that a game whose rules kept asking could never loop.
MAX_ANSWERS = 64


def read_answers(live: LiveGame, answers: dict[str, Any]) -> BaseModel:
    """The game's standing answers read from ``answers`` (BadOptions saying what is wrong, or that the game has
    nothing a seat could answer in advance)."""
    model = live.engine.standing_model
    if model is None:
        raise BadOptions(f"{live.engine.title} asks no decision a seat could answer in advance: it has no standing answers",
                         rule=f"{live.engine.name}/turn")
    try:
        return model.model_validate(answers)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'answers'}: {e['msg']}" for e in err.errors())
        fields = ", ".join(model.model_fields)
        raise BadOptions(f"The standing answers could not be read ({clip(problems, 300)}); the fields are: {fields}",
                         rule=f"{live.engine.name}/out-of-turn") from None


class StandingAnswers:
    """Keeps seats' standing answers and makes the decisions they cover, as a follower of ``sessions``."""

    def __init__(self, sessions: GameSessions) -> None:
        self.sessions = sessions
        sessions.followers.append(self.answer_awaited)

    def of(self, live: LiveGame) -> dict[int, BaseModel]:
        """The answers set in ``live``, per seat (none for a game that has no standing answers)."""
        if live.engine.standing_model is None:
            return {}
        return {seat: live.engine.standing_model.model_validate(a) for seat, a in self.sessions.store.standing_answers(live.id).items()}

    def set(self, live: LiveGame, seat: int, answers: dict[str, Any] | None) -> BaseModel | None:
        """Set (None: clear) ``seat``'s answers, then answer at once what they cover now; the answers as read."""
        read = None if answers is None else read_answers(live, answers)
        stored = None if read is None else read.model_dump(mode="json")
        self.sessions.store.set_standing_answers(live.id, seat, stored)
        if self.answer_awaited(live):
            self.sessions.signal(live.id)
        return read

    def answer_awaited(self, live: LiveGame) -> bool:
        """Make every decision now awaited that a seat's standing answers cover, until none is; whether any was.
        A refusal or a failing database stops it quietly (logged): the seat is then simply asked."""
        if live.engine.standing_model is None:
            return False
        try:
            answers = self.of(live)
        except GameError as err:
            log.warning("standing answers: game %s: cannot read them: %s", live.id, err)
            return False
        made = 0
        while made < MAX_ANSWERS and answers:
            answer = next(((s, m) for s in live.to_move() if s in answers and (m := live.engine.standing_answer(live.state, s, answers[s]))), None)
            if answer is None:
                break
            seat, move = answer
            try:
                played = self.sessions.play_as(live, seat, False, move)
            except GameError as err:
                log.warning("standing answers: game %s, seat %s, %r not made: %s", live.id, seat, move, err)
                break
            live.answered.update(step.ply for step in played.steps)
            made += 1
        return made > 0
