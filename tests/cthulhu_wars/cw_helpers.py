"""Shared helpers for the Cthulhu Wars engine tests."""

from __future__ import annotations

import random

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL, GameState, Turn

GC = "great-cthulhu"
CC = "crawling-chaos"
BG = "black-goat"
YS = "yellow-sign"
SL = "sleeper"
WW = "windwalker"
OW = "opener-of-the-way"


#: The factions these core tests seat, in seat order (as many as the game has players).
CORE_FACTIONS = [GC, CC, BG, YS, SL]


def new_game(players: int = 3, seed: int = 1, *, direction: str | None = "clockwise", **options) -> GameState:
    """A fresh game with the First Player's round-1 direction already chosen (``direction=None`` leaves it open)."""
    options.setdefault("factions", CORE_FACTIONS[:players])
    state = ENGINE.new_game(CthulhuWarsOptions(**options), players, seed)
    if direction is not None:
        state, _ = play(state, state.first_player, f"direction {direction}")
    return state


def seat(state: GameState, faction: str) -> int:
    return state.seat_of(faction)


def play(state: GameState, faction_or_seat, text: str) -> tuple[GameState, list[str]]:
    """Apply a move written in notation for a faction (or seat number)."""
    s = faction_or_seat if isinstance(faction_or_seat, int) else state.seat_of(faction_or_seat)
    return ENGINE.apply(state, s, ENGINE.parse(text, state, s))


def put(state: GameState, faction: str, kind: str, area: str, n: int = 1) -> None:
    """Move ``n`` figures of ``kind`` from the pool to ``area`` (test set-up)."""
    s = state.seat_of(faction)
    for _ in range(n):
        places = state.seats[s].units[kind]
        places[places.index(POOL)] = area


def clear(state: GameState, faction: str, area: str) -> None:
    """Send every figure of a faction in ``area`` back to its pool."""
    s = state.seat_of(faction)
    for kind, places in state.seats[s].units.items():
        for i, p in enumerate(places):
            if p == area:
                board.eliminate(state, s, kind, i)


def give_turn(state: GameState, faction: str, power: int | None = None) -> None:
    s = state.seat_of(faction)
    state.turn = Turn(s)
    state.pending = []
    if power is not None:
        state.seats[s].power = power


class ScriptedDice(Rng):
    """An Rng whose dice come from a list (for battles with fixed dice)."""

    def __init__(self, rolls: list[int], at: int = 0) -> None:
        super().__init__(0)
        self.rolls, self.at = rolls, at

    def copy(self) -> ScriptedDice:
        return ScriptedDice(self.rolls, self.at)

    def die(self, sides: int = 6, what: str = "a die") -> int:
        self.at += 1
        return self.rolls[self.at - 1]


def random_game(players: int, seed: int, check=None, options: dict | None = None):
    """Play random legal moves to the end; ``check(before, after, seat, action)`` runs after each move."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(CthulhuWarsOptions(**(options or {})), players, seed)
    moves = []
    while ENGINE.outcome(state) is None:
        s = rnd.choice(ENGINE.to_move(state))
        action = rnd.choice(ENGINE.legal_actions(state, s))
        after, _ = ENGINE.apply(state, s, action)
        if check:
            check(state, after, s, action)
        moves.append((s, action))
        state = after
        assert len(moves) < 20000, "a random game must end"
    return state, moves


def seated(factions: list[str], seed: int = 1, *, starts: dict[str, str] | None = None,
           direction: str | None = "clockwise", **options) -> GameState:
    """A game seating ``factions``: start decisions answered from ``starts`` (else the first Area offered), then the
    round-1 direction (``direction=None`` leaves it open)."""
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions, **options), len(factions), seed)
    while state.pending and state.pending[0].kind == "start-area":
        s = state.pending[0].seat
        area = (starts or {}).get(state.seats[s].faction) or ENGINE.legal_actions(state, s)[0].area
        state, _ = play(state, s, f"start {area}")
    if direction is not None:
        state, _ = play(state, state.first_player, f"direction {direction}")
    return state


def first_answers_until(state: GameState, done, most: int = 300) -> GameState:
    """Answer every awaited decision with its first legal move until ``done(state)``; fails if the game ends or
    ``most`` answers pass first."""
    for _ in range(most):
        if done(state):
            return state
        seats = ENGINE.to_move(state)
        assert seats, "the game ended first"
        state, _ = ENGINE.apply(state, seats[0], ENGINE.legal_actions(state, seats[0])[0])
    raise AssertionError(f"not reached in {most} answers")


def texts(state: GameState, faction: str) -> set[str]:
    """Every legal move of ``faction`` now, in notation."""
    s = state.seat_of(faction)
    return {ENGINE.notation(a) for a in ENGINE.legal_actions(state, s)}


def bots_answer_legally(options: dict, of_interest, pick=None) -> dict[str, int]:
    """Random games with ``options`` at 3-6 players on Earth and the Dreamlands: up to three times for each kind of
    move ``of_interest(action)`` picks among a seat's legal moves, the heuristic and search bots are asked and must
    answer legally. The games go on by ``pick(rnd, legal)`` (a random move by default). Returns how often each kind
    was asked."""
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot

    bots = [CwHeuristicBot(3), CwSearchBot(3, seconds=None, iterations=4)]
    asked: dict[str, int] = {}
    for seed in range(6):
        rnd = random.Random(seed)
        players = 3 + seed % 4
        game_map = "dreamlands" if seed % 2 and players < 6 else "earth"
        state = ENGINE.new_game(CthulhuWarsOptions(map=game_map, **options), players, seed)
        for _ in range(3000):
            if ENGINE.outcome(state) is not None:
                break
            s = rnd.choice(ENGINE.to_move(state))
            legal = ENGINE.legal_actions(state, s)
            for kind in {a.kind for a in legal if of_interest(a)}:
                if asked.get(kind, 0) < 3:
                    asked[kind] = asked.get(kind, 0) + 1
                    for bot in bots:
                        assert bot.choose(ENGINE, state, s) in legal, kind
            state, _ = ENGINE.apply(state, s, (pick or random.Random.choice)(rnd, legal))
    return asked
