"""``tabletop replay``: a stored game move by move, what each move caused, and optionally a picture per move.

It reads the store (it needs no server): the game's options, its seed and its log, and replays the moves through
the engine from the seed as the server does when it loads a game (every chance result comes out as it did), so
the pictures show each position exactly. Anyone with the database can read every seat's moves: it is for after
the game (the arena prints how to replay each game in its report)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..games import ENGINES
from ..sessions.chance import replay_move
from ..sessions.store import Store


def replay_lines(store: Store, game_id: str, pictures: Path | None = None) -> Iterator[str]:
    record = store.load_game(game_id)
    if record is None:
        raise KeyError(game_id)
    engine = ENGINES[record.game]
    state = engine.new_game(engine.read_options(record.options), len(record.seat_names), record.seed, record.seat_names)
    yield f"{game_id}: {engine.title}, seats {', '.join(f'{i}: {n}' for i, n in enumerate(record.seat_names))}"
    if pictures is not None:
        pictures.mkdir(parents=True, exist_ok=True)
        write_picture(engine, state, pictures / f"{game_id}-000.png", record.seat_names)
    for move in store.moves(game_id):
        state = replay_move(engine, state, move)
        caused = " ".join(move.events)
        yield f"{move.ply}. {record.seat_names[move.seat]}: {move.notation}" + (f" — {caused}" if caused else "")
        if pictures is not None:
            write_picture(engine, state, pictures / f"{game_id}-{move.ply:03d}.png", record.seat_names)
    outcome = engine.outcome(state)
    yield f"Result: {outcome.reason}" if outcome else "The game is not over."


def write_picture(engine, state, path: Path, names: list[str] | None = None) -> None:
    """The public view of the position as a PNG (nothing for a game without pictures)."""
    from ..render import to_png

    scene = engine.draw(state, None, frozenset(), names)
    if scene is not None:
        path.write_bytes(to_png(scene))


__all__ = ["replay_lines"]
