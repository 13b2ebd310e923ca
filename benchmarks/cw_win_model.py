"""Fitting the Cthulhu Wars win model (``tabletop.bots.cthulhu_wars.win_model``) to games between heuristic players.

Run: .venv/bin/python benchmarks/cw_win_model.py [--first S] [--games N] [--rushers]
[--jobs J] [--save FILE | --load FILE [FILE ...]]

Plays games S..S+N-1 between four heuristic players (the engine's default four factions on the Earth map, rotated
by one every second game as in ``bots.py cw-search``; games of the search match use seeds 0-49, so the default
first seed is 5000). With ``--rushers`` each game seats two heuristic players and two rushers
(``bots/cthulhu_wars/rusher.py``, one of them Great Cthulhu), as ``bots.py cw-rush`` does (whose games use seeds
0-39: take a first seed far from them). At the start of about three turns in ten (chosen by a generator seeded
with the game's seed) it records every faction's features (``win_model.features``) and the evaluation's value for
each faction; the game's winners are the label (a shared win is split; games nobody won are left out).

Then, five-fold cross-validated by game, it prints how well each predicts the winner: the log loss (uniform
guessing: ln 4 = 1.386) and how often the highest score is the winner, for the evaluation's value (with a fitted
temperature) and for the model, over every game and, when both kinds were loaded, apart for the tables with and
without rushers; then the model in use (``win_model.COEFFICIENTS``) on each kind, unfitted. Last, the model
fitted on every game, as the ``COEFFICIENTS`` literal. ``--save`` keeps the recorded games (one JSON line each)
and ``--load`` fits them again without playing (several files: their games together). Nothing is asserted.

Measured 2026-11-24 (games 5000-5389, 388 decided, 15,797 positions; also in docs/bots.md): log loss 1.343 and
the winner ranked first 33.3% of the time by the evaluation's value, 1.151 and 54.5% by the model (the
``COEFFICIENTS`` in ``win_model.py`` are this run's).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, os.path.dirname(__file__))

#: Share of turn starts recorded.
SAMPLED = 0.3


def game(task: tuple[int, bool]) -> dict:
    """One game between heuristic players (two of them rushers when asked): its recorded positions (features and
    values per faction) and winners."""
    from bots import paired_seats, rush_seats  # not at the top: the tests load this file beside their own ``bots``

    from tabletop.bots.cthulhu_wars import evaluation as ev
    from tabletop.bots.cthulhu_wars import win_model
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.rusher import CwRusherBot
    from tabletop.games.cthulhu_wars import ENGINE
    from tabletop.games.cthulhu_wars.factions import default_factions
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

    seed, rushers = task
    if rushers:
        mine, _, factions = rush_seats(seed, default_factions(4))
        bots = [CwHeuristicBot(seed * 10 + s) if s in mine else CwRusherBot(seed * 10 + s) for s in range(4)]
    else:
        _, factions = paired_seats(seed, default_factions(4))
        bots = [CwHeuristicBot(seed * 10 + s) for s in range(4)]
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions, map="earth"), 4, seed)
    pick = random.Random(seed)
    positions = []
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        turn = state.turn
        at_turn_start = (state.phase == "action" and not state.pending and turn is not None and turn.seat == seat
                         and not turn.acted and not turn.moving)
        if at_turn_start and pick.random() < SAMPLED:
            occupied = ev.occupancy(state)
            strengths = [ev.strength(state, s, s, occupied, state.round) for s in range(4)]
            positions.append({
                "features": [win_model.features(state, s, st.progress, st.exposure) for s, st in enumerate(strengths)],
                "values": [ev.value(state, s, state.round) for s in range(4)],
            })
        state, _ = ENGINE.apply(state, seat, bots[seat].choose(ENGINE, state, seat))
    return {"seed": seed, "rushers": rushers, "winners": ENGINE.outcome(state).winners or [], "positions": positions}


def dataset(games: list[dict], key: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per position: every faction's inputs (``features``, or ``values`` as one input), its winner shares, its game."""
    inputs, shares, index = [], [], []
    for g, record in enumerate(games):
        share = [0.0] * 4
        for w in record["winners"]:
            share[w] = 1 / len(record["winners"])
        for position in record["positions"]:
            rows = position[key]
            inputs.append([row if isinstance(row, list) else [row] for row in rows])
            shares.append(share)
            index.append(g)
    return np.array(inputs, float), np.array(shares, float), np.array(index)


def fit(inputs: np.ndarray, shares: np.ndarray, l2: float = 1e-3, steps: int = 100) -> np.ndarray:
    """Maximum likelihood of a conditional logit (softmax over the factions of a linear score), by Newton's method on
    standardised inputs with a small ridge; the coefficients on the inputs' own scale."""
    n, _, d = inputs.shape
    flat = inputs.reshape(-1, d)
    mean, spread = flat.mean(0), flat.std(0) + 1e-9
    z_in = (inputs - mean) / spread
    w = np.zeros(d)
    for _ in range(steps):
        p = softmax(z_in @ w)
        gradient = np.einsum("nk,nkd->d", shares - p, z_in) - l2 * n * w
        expected = np.einsum("nk,nkd->nd", p, z_in)
        hessian = (np.einsum("nk,nkd,nke->de", p, z_in, z_in) - np.einsum("nd,ne->de", expected, expected)
                   + l2 * n * np.eye(d))
        move = np.linalg.solve(hessian, gradient)
        w += move
        if np.abs(move).max() < 1e-9:
            break
    return w / spread  # the mean's shift adds the same to every faction's score, which the softmax ignores


def softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def judged(inputs: np.ndarray, shares: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Log loss of the winner shares, and how often the top score is the (first) winner."""
    p = softmax(inputs @ w)
    loss = -(shares * np.log(np.maximum(p, 1e-12))).sum(1).mean()
    return float(loss), float((p.argmax(1) == shares.argmax(1)).mean())


def cross_validated(games: list[dict], key: str, folds: int = 5) -> dict[str, tuple[float, float]]:
    """Log loss and winner ranked first over the held-out folds (by game): for every game, and apart for the games
    with rushers and those without when both are there."""
    inputs, shares, index = dataset(games, key)
    subsets = {"all games": np.ones(len(index), bool)}
    kinds = table_kinds(games, index)
    if len(kinds) == 2:
        subsets |= kinds
    scores: dict[str, list[tuple[float, float]]] = {name: [] for name in subsets}
    for k in range(folds):
        held = index % folds == k
        if not held.any() or held.all():
            continue
        w = fit(inputs[~held], shares[~held])
        for name, subset in subsets.items():
            if (held & subset).any():
                scores[name].append(judged(inputs[held & subset], shares[held & subset], w))
    return {name: (float(np.mean([s[0] for s in got])), float(np.mean([s[1] for s in got])))
            for name, got in scores.items()}


def table_kinds(games: list[dict], index: np.ndarray) -> dict[str, np.ndarray]:
    """Which positions (``index``: each one's game, as ``dataset`` gives it) come from tables with rushers and which
    from tables without, each kind named only when it is there."""
    rushed = np.array([bool(games[g].get("rushers")) for g in index])
    kinds = {"heuristic tables": ~rushed, "rusher tables": rushed}
    return {name: subset for name, subset in kinds.items() if subset.any()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=5000)
    parser.add_argument("--games", type=int, default=390)
    parser.add_argument("--rushers", action="store_true", help="two of the four seats rushers (as bots.py cw-rush)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", help="write the recorded games here (JSON lines)")
    parser.add_argument("--load", nargs="+", help="fit games recorded earlier instead of playing (files together)")
    args = parser.parse_args()
    from bots import played

    if args.load:
        games = []
        for name in args.load:
            with open(name) as f:
                games += [json.loads(line) for line in f]
    else:
        games = []
        out = open(args.save, "w") if args.save else None
        for record in played(game, [(s, args.rushers) for s in range(args.first, args.first + args.games)],
                             args.jobs):
            games.append(record)
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
            print(f"  game {record['seed']}: winners {record['winners']}, {len(record['positions'])} positions", flush=True)
        if out:
            out.close()
    decided = [g for g in games if g["winners"]]
    positions = sum(len(g["positions"]) for g in decided)
    print(f"== {len(decided)} decided games of {len(games)}, {positions} positions; uniform log loss {math.log(4):.3f}")
    for name, key in (("evaluation's value", "values"), ("win model", "features")):
        for subset, (loss, top) in cross_validated(decided, key).items():
            print(f"{name:>20}, {subset}: log loss {loss:.3f}, winner ranked first {top:.1%} (5-fold, by game)")
    from tabletop.bots.cthulhu_wars.win_model import COEFFICIENTS

    inputs, shares, index = dataset(decided, "features")
    for kind, subset in table_kinds(decided, index).items():
        print("{:>20}, {}: log loss {:.3f}, winner ranked first {:.1%} (win_model.COEFFICIENTS)".format(
            "model in use", kind, *judged(inputs[subset], shares[subset], np.array(COEFFICIENTS))))
    w = fit(inputs, shares)
    print("COEFFICIENTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")


if __name__ == "__main__":
    main()
