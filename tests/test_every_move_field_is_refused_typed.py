"""No move, however odd its fields, reaches a client as an untyped error: in every game, positions from random play,
every kind of move object the seat is offered (and Cthulhu Wars' battle and capture, whatever is offered) has each
of its fields, its kind included, replaced by every faction name (playing or not, neutral monsters, unknown), areas
or squares, hostile strings and values of the wrong type; each is read and applied as the server does, and only a GameError (a typed refusal) may come out."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletop.core.errors import GameError
from tabletop.games import ENGINES
from tabletop.games.cthulhu_wars import creatures
from tabletop.games.cthulhu_wars.factions import FACTIONS

HOSTILE = ["", " ", "x" * 300, "bell\x07esc\x1b[31m", "ünïcødé", "-1", "9" * 40, "None", "{}", "south-pacific>",
           None, -1, 10**30, 2.5, True, [], {}, ["a"], {"kind": "roll"}]
GAMES = [
    ("cthulhu-wars", {"factions": ["great-cthulhu", "crawling-chaos", "black-goat"]}, 3),
    ("cthulhu-wars", {"factions": ["yellow-sign", "sleeper", "windwalker", "opener-of-the-way"], "map": "dreamlands"}, 4),
    ("cthulhu-wars", {"factions": ["great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign", "sleeper"]}, 5),
    ("game-of-war", {"futile_attacks": True}, 2),
    ("cthulhu-dice", {}, 3),
]


def positions(game: str, options: dict, seats: int, seed: int, moves: int = 240, every: int = 24):
    engine = ENGINES[game]
    state = engine.new_game(engine.read_options(options), seats, seed, [f"P{i}" for i in range(seats)])
    pick = random.Random(seed)
    for n in range(moves):
        if engine.outcome(state) is not None:
            return
        if n % every == 0:
            yield state
        seat = pick.choice(engine.to_move(state))
        state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)))


def templates(engine, state, seat: int) -> dict[str, dict[str, Any]]:
    """One move object of every kind offered to ``seat`` now (for Cthulhu Wars, battle and capture always)."""
    found = {o.action.get("kind", str(sorted(o.action))): o.action for g in engine.legal_moves(state, seat).groups for o in g.moves}
    if engine.name == "cthulhu-wars":
        found.setdefault("battle", {"kind": "battle", "area": "south-pacific", "enemy": "crawling-chaos"})
        found.setdefault("capture", {"kind": "capture", "area": "south-pacific", "enemy": "crawling-chaos"})
    return found


@pytest.mark.parametrize("game, options, seats", GAMES, ids=[f"{g}-{n}" for g, _, n in GAMES])
def test_every_field_of_every_move_kind_is_refused_with_a_kind(game, options, seats):
    engine = ENGINES[game]
    names = sorted(FACTIONS) + sorted(creatures.NEUTRALS) + ["hastur"] if game == "cthulhu-wars" else []
    tried = refused = 0
    for state in positions(game, options, seats, seed=len(options) + seats):
        seat = engine.to_move(state)[0]
        areas = sorted(getattr(state, "gates", {}))[:4] + ["atlantis"] if game == "cthulhu-wars" else ["a1", "z99", "y20"]
        for template in templates(engine, state, seat).values():
            for field in template:
                for text in names + areas + HOSTILE:
                    tried += 1
                    try:
                        engine.apply(state, seat, engine.read_move({**template, field: text}, state, seat))
                    except GameError:
                        refused += 1
    assert tried > 100 and refused > tried // 2, (tried, refused)
