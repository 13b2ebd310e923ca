"""The Cthulhu Wars win model (``win_model.py``): a distribution over the factions, read from public information
only, added to the search's evaluation and not to the heuristic's; and the benchmark's fit recovers a known model."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from tabletop.bots.cthulhu_wars import evaluation as ev
from tabletop.bots.cthulhu_wars import knowledge as kn
from tabletop.bots.cthulhu_wars import search, win_model
from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
from tabletop.games.cthulhu_wars import ENGINE as CW

from .test_cw_weights import positions

ROOT = Path(__file__).resolve().parents[2]


def benchmark():
    spec = importlib.util.spec_from_file_location("cw_win_model_benchmark", ROOT / "benchmarks" / "cw_win_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chances(state):
    occupied = ev.occupancy(state)
    scores = []
    for s in range(len(state.seats)):
        st = ev.strength(state, s, s, occupied, state.round)
        scores.append(win_model.score(win_model.features(state, s, st.progress, st.exposure)))
    return win_model.win_chances(scores)


def test_the_chances_are_a_distribution_over_the_factions():
    for state in positions(3):
        assert len(win_model.features(state, 0, 0.0, 0.0)) == len(win_model.FEATURES) == len(win_model.COEFFICIENTS)
        p = chances(state)
        assert len(p) == len(state.seats)
        assert all(0.0 < x < 1.0 for x in p)
        assert abs(sum(p) - 1.0) < 1e-9


def test_the_search_adds_the_learned_chance_and_the_heuristic_does_not():
    for state in positions(2):
        seat = CW.to_move(state)[0]
        plain, full = ev.evaluate(state, seat), ev.evaluate(state, seat, w=search.WEIGHTS)
        assert "chance of winning (learned)" not in plain.terms
        assert full.terms["chance of winning (learned)"] == round(search.WIN_CHANCE * chances(state)[seat], 1)
        assert abs(full.value - plain.value - search.WIN_CHANCE * chances(state)[seat]) < 1e-9
    assert CwHeuristicBot(1).weights.win_chance == 0.0
    bot = search.CwSearchBot(1)
    assert bot.weights.win_chance == search.WIN_CHANCE
    # Only where a future ends: the one-step ranking and the futures' moves use the hand-made evaluation alone.
    assert bot.heuristic.weights.win_chance == 0.0
    assert bot.rollout_policy.weights.win_chance == 0.0


def test_the_model_reads_no_hidden_elder_sign_value():
    state = positions(1)[0].copy()
    seat = CW.to_move(state)[0]
    rival = (seat + 1) % len(state.seats)
    low, high = state.copy(), state.copy()
    low.seats[rival].elder_signs = [1, 1]
    high.seats[rival].elder_signs = [3, 3]
    assert chances(low) == chances(high)
    assert ev.value(low, seat, w=search.WEIGHTS) == ev.value(high, seat, w=search.WEIGHTS)
    # Holding Elder Signs is seen (their number is public), so the model does read the count.
    none = state.copy()
    none.seats[rival].elder_signs = []
    assert chances(none)[rival] != chances(low)[rival]


def test_a_spellbook_late_in_the_game_raises_a_factions_chance():
    late = positions(1)[0].copy()
    seat = CW.to_move(late)[0]
    late.round = 6
    before = chances(late)[seat]
    fs = late.seats[seat]
    unmet = next(r.name for r in kn.faction(late, seat).requirements if r.name not in fs.requirements)
    fs.requirements.append(unmet)  # met, its spellbook still to be chosen: it counts as held
    assert kn.books(late, seat) == max(len(fs.spellbooks), len(fs.requirements))
    assert chances(late)[seat] > before


def test_the_benchmarks_fit_recovers_a_known_model():
    fitting = benchmark()
    rng = np.random.default_rng(7)
    truth = np.array([0.8, -0.5, 0.0])
    inputs = rng.normal(size=(6000, 4, 3))
    p = fitting.softmax(inputs @ truth)
    winners = np.array([rng.choice(4, p=row) for row in p])
    shares = np.eye(4)[winners]
    fitted = fitting.fit(inputs, shares)
    assert np.abs(fitted - truth).max() < 0.1
    loss, top = fitting.judged(inputs, shares, fitted)
    uniform = np.log(4)
    assert loss < uniform - 0.1 and top > 0.4


def test_the_benchmark_judges_tables_with_and_without_rushers_apart():
    """Games recorded with rushers (``--rushers``) and without are scored together and apart, held out by game."""
    fitting = benchmark()
    rng = np.random.default_rng(11)
    truth = np.array([0.9, -0.6])
    games = []
    for g in range(80):
        inputs = rng.normal(size=(12, 4, 2))
        winner = int(rng.choice(4, p=fitting.softmax((inputs @ truth).sum(0, keepdims=True))[0]))  # over the game
        games.append({"seed": g, "rushers": g % 2 == 1, "winners": [winner],
                      "positions": [{"features": row.tolist(), "values": list(row[:, 0])} for row in inputs]})
    judged = fitting.cross_validated(games, "features")
    assert set(judged) == {"all games", "heuristic tables", "rusher tables"}
    for loss, top in judged.values():
        assert loss < np.log(4) and top > 0.3
    alone = fitting.cross_validated([g for g in games if not g["rushers"]], "features")
    assert set(alone) == {"all games"}
