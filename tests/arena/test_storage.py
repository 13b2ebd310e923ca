"""The arena's storage contract (migration 3), on SQLite and on PostgreSQL, and standings computed from it."""

from __future__ import annotations

import pytest

from tabletop.arena.standings import standings, standings_of, wilson
from tabletop.sessions.store import MIGRATIONS, IdTaken, TournamentGame, TournamentRecord


def tournament(number: int, created: str = "2026-01-01T00:00:00.000+00:00") -> TournamentRecord:
    return TournamentRecord(f"t{number}", f"cup {number}", "cthulhu-dice", {"players": ["bot:optimal", "bot:random"], "games": 4}, created)


def test_tournaments_are_stored_exactly_listed_newest_first_and_ids_are_unique(stores):
    store = stores.open()
    for n in (1, 2, 3):
        store.create_tournament(tournament(n, f"2026-01-0{n}T00:00:00.000+00:00"))
    assert store.load_tournament("t2") == tournament(2, "2026-01-02T00:00:00.000+00:00")
    assert store.load_tournament("nope") is None
    assert [t.id for t in store.list_tournaments()] == ["t3", "t2", "t1"]
    assert [t.id for t in store.list_tournaments(limit=1)] == ["t3"]
    with pytest.raises(IdTaken):
        store.create_tournament(tournament(1, "2030-01-01T00:00:00.000+00:00"))
    assert store.load_tournament("t1").created_at.startswith("2026-01-01"), "the first one is kept"
    store.finish_tournament("t1", "2026-02-01T00:00:00.000+00:00")
    assert stores.open().load_tournament("t1").finished_at == "2026-02-01T00:00:00.000+00:00", "seen by another process"


def test_a_slot_is_saved_and_replaced_and_games_come_back_by_slot(stores):
    store = stores.open()
    store.create_tournament(tournament(1))
    store.save_tournament_game(TournamentGame("t1", 1, ["b", "a"]))
    store.save_tournament_game(TournamentGame("t1", 0, ["a", "b"], "running", "g0"))
    store.save_tournament_game(TournamentGame("t1", 0, ["a", "b"], "finished", "g0", {"winners": [1], "reason": "b won"}))
    games = stores.open().tournament_games("t1")
    assert games == [
        TournamentGame("t1", 0, ["a", "b"], "finished", "g0", {"winners": [1], "reason": "b won"}),
        TournamentGame("t1", 1, ["b", "a"], "pending", None, None),
    ]
    assert store.tournament_games("other") == []
    with pytest.raises(ValueError):
        store.save_tournament_game(TournamentGame("t1", 2, ["a", "b"], "won"))
    assert len(store.tournament_games("t1")) == 2, "a bad status changes nothing"


def test_the_tournament_tables_are_migration_3(stores):
    store = stores.open()
    assert "tournament" in MIGRATIONS[2].why
    if stores.postgres:
        assert store.schema_version() >= 3
        tables = {r[0] for r in stores.execute("SELECT tablename FROM pg_tables")}
    else:
        assert stores.execute("PRAGMA user_version").fetchone()[0] >= 3
        tables = {r[0] for r in stores.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"tournaments", "tournament_games"} <= tables


def finished(slot: int, players: list[str], winners: list[int]) -> TournamentGame:
    return TournamentGame("t", slot, players, "finished", f"g{slot}", {"winners": winners, "reason": "-"})


def test_standings_count_wins_shared_wins_and_games_nobody_won_and_rate_the_winner_first():
    games = [finished(i, ["strong", "weak"] if i % 2 else ["weak", "strong"], [1 if i % 2 == 0 else 0]) for i in range(10)]
    games += [finished(10, ["strong", "weak"], [0, 1]), finished(11, ["weak", "strong"], [])]
    games += [TournamentGame("t", 12, ["strong", "weak"], "abandoned", "g12", None), TournamentGame("t", 13, ["weak", "strong"])]
    table = standings_of(games)
    strong, weak = table
    assert (strong.player, strong.games, strong.wins, strong.draws, strong.nobody_won, strong.losses) == ("strong", 12, 10, 1, 1, 0)
    assert (weak.games, weak.wins, weak.draws, weak.nobody_won, weak.losses) == (12, 0, 1, 1, 10)
    assert strong.mu > weak.mu and strong.ordinal > weak.ordinal
    assert strong.win_low < strong.win_rate == 10 / 12 < strong.win_high


def test_standings_of_a_three_seat_game_rank_the_winner_above_the_rest():
    table = standings_of([finished(0, ["a", "b", "c"], [2]), finished(1, ["b", "c", "a"], [1])])
    assert table[0].player == "c" and table[0].wins == 2
    assert {s.player for s in table[1:]} == {"a", "b"}


def test_wilson_interval():
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.2 < high < 0.35
    low, high = wilson(5, 10)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)


def test_standings_read_from_the_store(stores):
    store = stores.open()
    store.create_tournament(tournament(9))
    for slot, winners in enumerate([[0], [1], [0]]):
        store.save_tournament_game(TournamentGame("t9", slot, ["x", "y"], "finished", f"g{slot}", {"winners": winners, "reason": "-"}))
    rows = standings(store, "t9")
    assert [(r.player, r.wins, r.games) for r in rows] == [("x", 2, 3), ("y", 1, 3)]
