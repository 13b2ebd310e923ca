"""Standing answers for out-of-turn windows (rules_text ``cthulhu-wars/out-of-turn``).

The rules ask a seat in every window where it may do something (reveal Elder Signs, Devolve, Dragon Ascending),
so a seat holding an Elder Sign is asked after every action of every other faction. A seat may leave standing
answers saying which windows it would always pass; the server then passes those for it ("done") and asks it
about the others. The defaults ask every window, exactly as the rules do.

Only passing a window is ever answered this way, and only for a seat asked in a window now: everything else is
always asked. A window after the seat's own action (where only its faction's abilities, such as Devolve, are
offered: it reveals in its own turn) follows ``windows`` like any other, the action counting as near its units.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.games.cthulhu_wars import windows
from tabletop.games.cthulhu_wars.state import GameState

#: Faction abilities offered in windows, by the name a seat uses in ``always_ask``, and their action kinds.
WINDOW_ABILITIES = {"devolve": "devolve", "dragon-ascending": "ow-dragon-ascending"}


class StandingAnswers(BaseModel):
    """Which out-of-turn windows to pass without being asked. Defaults: be asked in every window, as the rules do."""

    model_config = ConfigDict(extra="forbid")

    windows: Literal["ask", "near-my-units", "pass"] = Field(
        default="ask",
        description="Windows after an Action-phase action (another faction's, or yours: Devolve): 'ask' every one; "
        "'near-my-units' only if the action was yours, aimed at you or took place in an Area where you have (or had) "
        "units; 'pass' none.",
    )
    doom_windows: Literal["ask", "pass"] = Field(
        default="ask", description="Windows after another faction's Doom-phase decision: 'ask' or 'pass'."
    )
    reveal: Literal["any-window", "doom-phase", "own-turn"] = Field(
        default="any-window",
        description="When holding Elder Signs is a reason to ask you: 'any-window' (as set above); 'doom-phase' "
        "only in Doom-phase windows; 'own-turn' never out of turn (you reveal in your turn or Doom-phase decision).",
    )
    always_ask: list[Literal["devolve", "dragon-ascending"]] = Field(
        default_factory=list,
        description="Window abilities you are asked about, whatever the fields above say, whenever another faction's "
        "action was aimed at you (a Battle or Capture against you).",
    )


def standing_answer(state: GameState, seat: int, answers: BaseModel) -> str | None:
    """``"done"`` when ``seat`` is asked in a window now that its standing ``answers`` pass, else None (ask it).

    Each of the seat's options in the window is a reason to ask it, unless the answers say otherwise for it: a
    reveal by ``reveal`` and then ``windows``/``doom_windows``; a faction ability by ``windows``/``doom_windows``
    unless it is in ``always_ask`` and the action concerned the seat's units. The seat is passed only when none
    of its options is a reason to ask it.
    """
    if not isinstance(answers, StandingAnswers):
        answers = StandingAnswers.model_validate(answers.model_dump() if isinstance(answers, BaseModel) else answers)
    if not state.pending or state.pending[0].kind != windows.WINDOW:
        return None
    window = state.pending[0].data
    if seat not in window.get("waiting", ()):
        return None
    options = windows.seat_options(state, seat, window)
    if not options:
        return None
    if any(asks(answers, window, seat, option.kind) for option in options):  # type: ignore[attr-defined]
        return None
    return "done"


def asks(answers: StandingAnswers, window: dict, seat: int, kind: str) -> bool:
    """Whether an option of ``kind`` in ``window`` is a reason to ask ``seat``, by its standing answers."""
    doom = window["context"] == "doom"
    concerned = window["actor"] == seat or seat in window.get("near", ()) or seat in window.get("against", ())
    if doom:
        general = answers.doom_windows == "ask"
    else:
        general = answers.windows == "ask" or (answers.windows == "near-my-units" and concerned)
    if kind == "reveal":
        if answers.reveal == "own-turn" or (answers.reveal == "doom-phase" and not doom):
            return False
        return general
    ability = next((name for name, k in WINDOW_ABILITIES.items() if k == kind), None)
    if ability is not None and ability in answers.always_ask and seat in window.get("against", ()):
        return True
    return general
