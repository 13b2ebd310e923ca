"""What a seat may see: a JSON-ready view and a compact text board.

Rules: ``game-of-war/board`` (the symbols) and ``game-of-war/setup`` (what stays hidden:
the other side's deployment until both sides have committed).
"""

from __future__ import annotations

from typing import Any

from .board import (
    COLUMNS,
    FORTRESSES,
    HEIGHT,
    MOUNTAINS,
    PASSES,
    SIDE_NAMES,
    WIDTH,
    index,
    names,
    square_name,
    terrain_name,
)
from .rules import MOVES_PER_TURN
from .setup import remaining
from .state import NO_SQUARE, OVER, PLAY, SETUP, State
from .units import FORCE, STATS, letter

LEGEND = (
    "Key: North UPPER, South lower case. I infantry, C cavalry, K cannon, W swift cannon, R relay, "
    "X swift relay; A/a arsenal, # mountain, = pass, + fortress, . plain."
)


def visible_sides(state: State, seat: int | None) -> tuple[int, ...]:
    """Sides whose units ``seat`` may see: during set-up only its own, afterwards both."""
    if state.phase != SETUP:
        return (0, 1)
    return () if seat is None else (seat,)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The position as ``seat`` may see it (``None``: a spectator), ready for JSON."""
    shown = visible_sides(state, seat)
    playing = state.phase != SETUP
    units = [
        {
            "square": square_name(sq),
            "side": SIDE_NAMES[code >> 3],
            "unit": STATS[code & 7].name,
            "online": bool(state.network.online[code >> 3] >> sq & 1) if playing else None,
            "terrain": terrain_name(sq),
            "moved_this_turn": bool(state.moved >> sq & 1),
        }
        for sq, code in sorted(state.pieces.items())
        if code >> 3 in shown
    ]
    return {
        "game": "game-of-war",
        "phase": state.phase,
        "turn": state.turn,
        "side_to_move": SIDE_NAMES[state.side] if state.phase == PLAY else None,
        "moves_made": state.moves_made,
        "moves_left": 0 if state.moves_closed else MOVES_PER_TURN - state.moves_made,
        "attack_used": state.attack_used,
        "must_retreat": square_name(state.retreat) if state.retreat != NO_SQUARE else None,
        "die": state.die or None,
        "deployment": {
            SIDE_NAMES[side]: {
                "committed": state.committed[side],
                "units_to_place": sum(remaining(state, side).values()) if side in shown else None,
            }
            for side in (0, 1)
        }
        if state.phase == SETUP
        else None,
        "arsenals": {SIDE_NAMES[side]: names(state.arsenals[side]) for side in (0, 1)},
        "units": units,
        "winner": SIDE_NAMES[state.winner] if state.winner is not None else None,
        "result": state.reason or None,
        "rulings": state.options.model_dump(mode="json"),
        "board": describe(state, seat),
    }


def _square_char(state: State, sq: int, shown: tuple[int, ...]) -> str:
    code = state.pieces.get(sq)
    if code is not None and code >> 3 in shown:
        return letter(code)
    bit = 1 << sq
    if bit & MOUNTAINS:
        return "#"
    if bit & state.arsenals[0]:
        return "A"
    if bit & state.arsenals[1]:
        return "a"
    if bit & FORTRESSES:
        return "+"
    return "=" if bit & PASSES else "."


def board_text(state: State, shown: tuple[int, ...]) -> list[str]:
    """The board as a grid, one character a square: columns a-y across, rows 1-20 down."""
    rows = ["   " + "".join(COLUMNS)]
    for y in range(HEIGHT):
        cells = "".join(_square_char(state, index(x, y), shown) for x in range(WIDTH))
        rows.append(f"{y + 1:>2} {cells}")
    return rows


def status_line(state: State) -> str:
    if state.phase == OVER:
        return f"Game over. {state.reason}"
    if state.phase == SETUP:
        return "Set-up: each side deploys in secret inside its territory, then commits."
    side = SIDE_NAMES[state.side]
    moves = "movement over" if state.moves_closed else f"{state.moves_made} of {MOVES_PER_TURN} moves made"
    attack = "attack used" if state.attack_used else "attack unused"
    line = f"Turn {state.turn}: {side} to move ({moves}, {attack})."
    if state.retreat != NO_SQUARE:
        line += f" The unit on {square_name(state.retreat)} must retreat first."
    return line


def setup_status(state: State, seat: int) -> str:
    """The deployment as ``seat`` sees it: its own units placed and still to place, and only whether the other side
    has committed (game-of-war/setup)."""
    left = remaining(state, seat)
    placed = FORCE - sum(left.values())
    if state.committed[seat]:
        own = f"{SIDE_NAMES[seat]} has committed its deployment"
    elif placed == FORCE:
        own = f"{SIDE_NAMES[seat]} has placed all {FORCE} units ('commit' fixes the deployment)"
    else:
        still = ", ".join(f"{n} {STATS[k].letter}" for k, n in left.items() if n)
        own = f"{SIDE_NAMES[seat]} has placed {placed} of {FORCE} units (still to place: {still})"
    other = "committed" if state.committed[1 - seat] else "not yet committed"
    return f"Set-up: {own}; {SIDE_NAMES[1 - seat]}'s deployment is hidden ({other})."


def describe(state: State, seat: int | None) -> str:
    """Status line, text board, legend, offline units and units on strongholds."""
    shown = visible_sides(state, seat)
    lines = [status_line(state), *board_text(state, shown), LEGEND]
    if state.phase == SETUP:
        for side in (0, 1):
            if side in shown:
                left = ", ".join(f"{n} {STATS[k].letter}" for k, n in remaining(state, side).items() if n) or "none"
                lines.append(f"{SIDE_NAMES[side]}: units still to place: {left} (of {FORCE}).")
            else:
                done = "committed" if state.committed[side] else "not yet committed"
                lines.append(f"{SIDE_NAMES[side]}: deployment hidden ({done}).")
        return "\n".join(lines)
    for side in (0, 1):
        offline = names(state.units[side] & ~state.network.online[side])
        lost = 2 - bin(state.arsenals[side]).count("1")
        lines.append(
            f"{SIDE_NAMES[side]}: {bin(state.units[side]).count('1')} units, offline: {', '.join(offline) or 'none'}"
            + (f", arsenals lost: {lost}" if lost else "")
            + "."
        )
    held = [
        f"{letter(state.pieces[sq])} {square_name(sq)} on {terrain_name(sq)}"
        for sq in sorted(state.pieces)
        if (FORTRESSES | PASSES) >> sq & 1
    ]
    if held:
        lines.append("On strongholds: " + ", ".join(held) + ".")
    return "\n".join(lines)


__all__ = ["describe", "setup_status", "view"]
