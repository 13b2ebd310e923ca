"""Fitting the Cthulhu Wars evaluation weights to game results: a random search over every weight at once.

Run: .venv/bin/python benchmarks/cw_weights.py [--configs K] [--first S] [--games N] [--spread F] [--jobs J]
                                               [--only I,J,...] [--extra name=value,name=value ...]

Config 0 is the heuristic's own weights (``evaluation.DEFAULT``), the control; configs 1..K-1 multiply every
weight by its own factor drawn log-uniformly from [1/F, F] (``--spread``, default 1.8) by a fixed generator, so
a config's number always means the same weights. Each config plays the games S..S+N-1 as two heuristic seats
with its weights against two heuristic seats with the default weights, seats and factions rotated as in
``bots.py cw-search`` (so the seeds should not overlap that match's 0..49: the default first seed is 100).
Every game is printed as it ends; at the end each config's share of the decided games with its 95% interval,
best first, and the best as a ``Weights(...)`` literal. ``--only`` replays chosen configs on new seeds (to
check a winner without the selection's luck); each ``--extra`` set (the default weights with the named ones
changed) is a further config, numbered from K. Nothing is asserted.

Measured 2026-11-24 (``--configs 12 --games 40``, games 100-139; also in docs/bots.md): the
control took 26.5 of 40, every other config 11.5 to 18 of 38-40; none beat the default weights.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, os.path.dirname(__file__))
from bots import paired_seats, played, wilson, win_share  # noqa: E402

from tabletop.bots.cthulhu_wars import evaluation as ev  # noqa: E402
from tabletop.core.rng import Rng  # noqa: E402

#: The weights the search varies (the rest keep their defaults).
FITTED = ["book", "sixth_book", "doom", "gate", "gate_site", "power", "progress", "exposed_here", "exposed_near",
          "gate_at_risk", "rival_share", "track_clock"]


def configs(count: int, spread: float, seed: int = 1) -> list[dict[str, float]]:
    """Config 0 is the default weights; every other config multiplies each fitted weight by a factor in
    [1/spread, spread], drawn log-uniformly."""
    rng = Rng(seed)
    base = {name: getattr(ev.DEFAULT, name) for name in FITTED}
    span = math.log(spread)
    out = [dict(base)]
    for _ in range(count - 1):
        out.append({n: round(v * math.exp(span * (2 * rng.below(1 << 20) / (1 << 20) - 1)), 3) for n, v in base.items()})
    return out


def game(args: tuple) -> tuple[int, int, float | None]:
    """Two heuristic seats with the config's weights against two with the default ones; their share of the win,
    or None when nobody was eligible."""
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.games.cthulhu_wars import ENGINE
    from tabletop.games.cthulhu_wars.factions import default_factions
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

    config, seed, weights = args
    mine, factions = paired_seats(seed, default_factions(4))
    tuned = ev.Weights(**weights)
    bots = [CwHeuristicBot(seed * 10 + s, weights=tuned) if s in mine else CwHeuristicBot(seed * 10 + s)
            for s in range(4)]
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions, map="earth"), 4, seed)
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, bots[seat].choose(ENGINE, state, seat))
    winners = ENGINE.outcome(state).winners
    return config, seed, (win_share(winners, mine) if winners else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", type=int, default=12)
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--spread", type=float, default=1.8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated config numbers to play (default: all)")
    parser.add_argument("--extra", nargs="*", default=[], help="further configs: name=value,name=value")
    args = parser.parse_args()
    every = configs(args.configs, args.spread)
    for text in args.extra:
        changed = {k.strip(): float(v) for k, v in (pair.split("=") for pair in text.split(","))}
        unknown = set(changed) - set(ev.Weights.__dataclass_fields__)
        if unknown:
            parser.error(f"no such weight: {', '.join(sorted(unknown))}")
        every.append({**every[0], **changed})
    chosen = [int(c) for c in args.only.split(",")] if args.only else range(len(every))
    # Seeds in the outer loop: stopped early, every config has played about as many games.
    tasks = [(c, seed, every[c]) for seed in range(args.first, args.first + args.games) for c in chosen]
    shares: dict[int, list[float | None]] = {c: [] for c in chosen}
    for config, seed, share in played(game, tasks, args.jobs):
        shares[config].append(share)
        print(f"  config {config}, game {seed}: " + ("nobody eligible" if share is None else f"share {share:.2f}"),
              flush=True)
    print(f"== {len(tasks)} games: tuned seats' share of decided games, best first")
    ranked = []
    for c, results in shares.items():
        decided = [s for s in results if s is not None]
        ranked.append((sum(decided) / len(decided) if decided else 0.0, c, sum(decided), len(decided), len(results)))
    for rate, c, won, n, played_ in sorted(ranked, reverse=True):
        low, high = wilson(won, n)
        print(f"config {c:>2}: {won:.1f}/{n} = {rate:.1%} (95% interval {low:.1%}-{high:.1%}); "
              f"nobody eligible {played_ - n}")
    best = max(ranked)[1]
    print("best: ev.Weights(" + ", ".join(f"{k}={v}" for k, v in every[best].items()) + ")")


if __name__ == "__main__":
    main()
