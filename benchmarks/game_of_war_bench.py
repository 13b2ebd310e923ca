"""A Game of War: speed of the rules engine on one core.

Prints the three figures of issue 4 (targets in brackets), then for comparison legal-move
generation in the default opening and the same figures through the pydantic engine API:
- lines of communication for both sides, µs per position (< 40);
- full legal-move generation for the side to move, µs per position (< 500);
- random play, turns per second (>= 1000); a turn is up to 5 moves and an attack, each
  picked at random from the legal plays, then the end of the turn.

Positions are sampled from random games started from the default opening. Run:
    .venv/bin/python benchmarks/game_of_war_bench.py [positions]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from tabletop.games.game_of_war import ENGINE, GameOfWarOptions
from tabletop.games.game_of_war.network import compute_network
from tabletop.games.game_of_war.rules import ATTACK, END, MOVE, legal_plays, play
from tabletop.games.game_of_war.state import PLAY


def random_turn(state, rng: random.Random):
    """Up to 5 random moves, then a random attack if any, then end; returns the new state."""
    side = state.side
    for _ in range(rng.randint(0, 5)):
        moves = [p for p in legal_plays(state) if p[0] == MOVE]
        if not moves or state.phase != PLAY or state.side != side:
            break
        state, _ = play(state, rng.choice(moves))
    if state.phase == PLAY and state.side == side:
        plays = legal_plays(state)
        attacks = [p for p in plays if p[0] == ATTACK]
        ends = [p for p in plays if p[0] == END]
        state, _ = play(state, rng.choice(attacks or ends or plays))
    return state


def random_api_turn(state, rng: random.Random):
    """The same random turn through the engine API (pydantic actions, checked apply)."""
    side = state.side
    for _ in range(rng.randint(0, 5)):
        moves = [a for a in ENGINE.legal_actions(state, side) if a.kind == "move"]
        if not moves or state.phase != PLAY or state.side != side:
            break
        state, _ = ENGINE.apply(state, side, rng.choice(moves))
    if state.phase == PLAY and state.side == side:
        actions = ENGINE.legal_actions(state, side)
        attacks = [a for a in actions if a.kind == "attack"]
        ends = [a for a in actions if a.kind == "end"]
        state, _ = ENGINE.apply(state, side, rng.choice(attacks or ends or actions))
    return state


def sample_positions(count: int, seed: int = 1) -> list:
    rng = random.Random(seed)
    options = GameOfWarOptions(opening="default", max_turns=400)
    positions = []
    while len(positions) < count:
        state = ENGINE.new_game(options, 2, rng.randrange(1 << 30))
        while state.phase == PLAY and len(positions) < count:
            state = random_turn(state, rng)
            if state.phase == PLAY and rng.random() < 0.2:
                positions.append(state)
    return positions


def time_each(positions, fn, repeat: int = 5) -> float:
    """Median over positions of the best of ``repeat`` timings, in µs."""
    samples = []
    for state in positions:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn(state)
            best = min(best, time.perf_counter() - start)
        samples.append(best * 1e6)
    return statistics.median(samples)


def lines(state) -> None:
    opts = state.options
    compute_network(state.arsenals, state.units, state.relays, opts.enemy_relays_block_lines, opts.adjacent_relays_reemit)


def throughput(turn=random_turn, seconds: float = 3.0, seed: int = 2) -> float:
    rng = random.Random(seed)
    options = GameOfWarOptions(opening="default", max_turns=600)
    turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = ENGINE.new_game(options, 2, rng.randrange(1 << 30))
        while state.phase == PLAY:
            state = turn(state, rng)
            turns += 1
    return turns / (time.perf_counter() - start)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    positions = sample_positions(count)
    print(f"positions sampled: {len(positions)}")
    print(f"lines of communication, both sides: {time_each(positions, lines):.1f} µs per position (target < 40)")
    print(f"legal plays (tuples): {time_each(positions, legal_plays):.1f} µs per position (target < 500)")
    print(
        "legal actions (pydantic models, engine API): "
        f"{time_each(positions, lambda s: ENGINE.legal_actions(s, s.side), repeat=2):.1f} µs per position"
    )
    opening = [ENGINE.new_game(GameOfWarOptions(opening="default"), 2, seed) for seed in range(20)]
    print(f"legal plays in the default opening (123 plays): {time_each(opening, legal_plays):.1f} µs")
    print(f"random play: {throughput():.0f} turns per second (target >= 1000)")
    print(f"random play through the engine API: {throughput(random_api_turn):.0f} turns per second")


if __name__ == "__main__":
    main()
