"""The end of the game (rules_text ``cthulhu-wars/end``).

The end triggers at 30 Doom or when the Ritual marker reaches Instant Death, checked
once the Doom phase is complete, or at the end of the Action-phase turn in which anyone
reached 30 Doom (a reveal, an ability's Doom, Doom owed for Elder Signs when the bag is empty). Everyone reveals Elder Signs; only factions with all six
spellbooks may win; the most Doom among them wins, ties share; nobody eligible means
everybody loses.
"""

from __future__ import annotations

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.state import GameState

DOOM_TO_END = 30


def doom_reached(state: GameState) -> bool:
    return any(fs.doom >= DOOM_TO_END for fs in state.seats)


def end_triggered(state: GameState) -> bool:
    return state.instant_death or doom_reached(state)


def winners(state: GameState) -> list[int]:
    eligible = [s for s, fs in enumerate(state.seats) if len(fs.spellbooks) >= 6]
    if not eligible:
        return []
    best = max(state.seats[s].doom for s in eligible)
    return [s for s in eligible if state.seats[s].doom == best]


def finish(state: GameState, log: list[str], decided: list[int] | None = None) -> None:
    """Faction end-of-game abilities (Windwalker's anytime spellbook), then reveal every Elder Sign and name the
    winners (``decided`` when already decided: the Citadel victory, ``cthulhu-wars/dreamlands-citadels``)."""
    for seat in range(len(state.seats)):
        board.faction_of(state, seat).game_end(state, seat, log)
    for seat in range(len(state.seats)):
        board.reveal_elder_signs(state, seat, log)
    state.phase = "over"
    state.turn = None
    state.pending = []
    state.winners = list(decided) if decided is not None else winners(state)
    if state.winners:
        log.append("Game over: " + ", ".join(state.seats[s].faction for s in state.winners) + " win.")
    else:
        log.append("Game over: no faction has all six spellbooks, so everybody loses.")
