"""Where solved games come from: shipped tables, the cache folder, solves on first use (tables.py)."""

from __future__ import annotations

import stat

import numpy as np
import pytest

from tabletop.games.cthulhu_dice.model import CTHULHU_DICE, DiceRules, GameRules
from tabletop.games.cthulhu_dice.solver import load_table, solve
from tabletop.games.cthulhu_dice.tables import MAX_STATES, Tables, TooLarge, dice_states, estimate
from tabletop.games.cthulhu_dice.turn import turn_graph
from tabletop.sessions.store import GameStore

SMALL = GameRules(dice=DiceRules(exhaustion="roll_fewer"), goal=4, cap=8, tie_rule="shared_win")


def test_the_store_names_a_cache_folder_beside_the_database(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    try:
        assert store.cache_dir == tmp_path / "games.sqlite3.cache"
        assert not store.cache_dir.exists(), "created only by whoever writes into it"
    finally:
        store.close()
    memory = GameStore(":memory:")
    try:
        assert memory.cache_dir is None
    finally:
        memory.close()


def test_the_standard_game_comes_from_the_shipped_tables_without_solving():
    tables = Tables(None)
    for players in (2, 3):
        job = tables.request(CTHULHU_DICE, players)
        assert job.done.is_set() and job.solution is not None and job.began is None
        assert tables.source(CTHULHU_DICE, players) == "shipped table"
        assert np.array_equal(job.solution.values, load_table(players=players).values, equal_nan=True)


def test_a_variant_is_solved_once_written_owner_only_and_read_back(tmp_path):
    folder = tmp_path / "db.sqlite3.cache" / "cthulhu-dice"
    tables = Tables(folder)
    seen = []
    job = tables.request(SMALL, 2)
    assert tables.request(SMALL, 2) is job, "one solve per variant"
    job.done.wait(120)
    assert job.error is None and job.fraction == 1.0
    assert abs(job.solution.first_player_win - solve(SMALL, 2).first_player_win) < 1e-15
    [path] = folder.glob("2p-*.npz")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    again = Tables(folder).request(SMALL, 2)
    assert again.done.is_set() and again.began is None, "read from the cache, not solved"
    assert np.array_equal(again.solution.values, job.solution.values, equal_nan=True)
    seen.append(job.seconds_left())
    assert seen == [0.0]


def test_without_a_folder_solutions_stay_in_memory(tmp_path):
    tables = Tables(None)
    job = tables.request(SMALL, 2)
    job.done.wait(120)
    assert job.solution is not None and tables.source(SMALL, 2) == "solved on first use, kept in memory"
    assert tables.request(SMALL, 2).solution is job.solution


def test_huge_variants_and_four_players_are_refused():
    huge = GameRules(dice=DiceRules(counts=(30, 30, 30)), goal=100, cap=200)
    assert dice_states(huge.dice.counts) > MAX_STATES
    with pytest.raises(TooLarge, match="too large"):
        Tables(None).request(huge, 2)
    with pytest.raises(TooLarge, match="3 players"):
        Tables(None).request(CTHULHU_DICE, 4)


def test_the_size_estimate_counts_the_dice_states_it_solves():
    assert dice_states((8, 4, 3)) >= len(turn_graph(DiceRules()).states)
    assert estimate(CTHULHU_DICE, 3) > estimate(CTHULHU_DICE, 2) > estimate(SMALL, 2)
