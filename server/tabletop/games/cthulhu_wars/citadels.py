"""The Citadel victory of the Dreamlands (rules_text ``cthulhu-wars/dreamlands-citadels``).

On a map whose boards carry Citadels, a faction controlling a Gate in every Citadel Area of one board wins at
once, whatever its Doom and spellbooks. Yog-Sothoth counts as a Gate its faction controls in his Area, beside
any normal Gate there and whatever Zoogs are there (:meth:`~.factions.base.Faction.gate_areas`). Otherwise the
game ends and is won as on Earth (``cthulhu-wars/end``). :func:`check` runs after every step of the game.
"""

from __future__ import annotations

from tabletop.games.cthulhu_wars import board, victory
from tabletop.games.cthulhu_wars.maps import layout_cache, load_layout
from tabletop.games.cthulhu_wars.state import GameState


@layout_cache
def citadel_boards(layout_name: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(board, its Citadel Areas) for every board of the layout that has Citadels."""
    layout = load_layout(layout_name)
    boards = sorted({a.board for a in layout.citadels()})
    return tuple((b, frozenset(a.id for a in layout.citadels(b))) for b in boards)


def winner(state: GameState) -> tuple[int, str] | None:
    """(seat, board) of a faction controlling a Gate in each Citadel Area of one board, if any."""
    boards = citadel_boards(state.layout_name)
    if not boards:
        return None
    # quick test first: a board is won only with controlled normal Gates in all its Citadels but those a Gate held without
    # a Cultist (Yog-Sothoth) may stand in
    loose = sum(len(board.gate_areas(state, s)) for s in range(len(state.seats)))
    boards = tuple((name, citadels) for name, citadels in boards
                   if sum(1 for c in citadels if state.gates.get(c)) >= len(citadels) - loose)
    if not boards:
        return None
    for seat in range(len(state.seats)):
        held = set(board.controlled_gates(state, seat))
        for name, citadels in boards:
            if citadels <= held:
                return seat, name
    return None


def check(state: GameState, log: list[str]) -> bool:
    """End the game at once if a faction has won the Citadel victory; True if it has."""
    found = winner(state)
    if found is None:
        return False
    seat, name = found
    state.citadel_victory = found
    state.battle = None
    board_name = next((b.name for b in state.layout.board_places if b.id == name), name)
    log.append(f"{state.seats[seat].faction} controls a Gate in every Citadel of the {board_name}: the Citadel victory.")
    victory.finish(state, log, decided=[seat])
    return True
