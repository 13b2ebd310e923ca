"""The store interface, exercised directly, on both stores: what the sessions may assume of any game database."""

from __future__ import annotations

import pytest

from tabletop.sessions.store import MIGRATIONS, GameRecord, MoveRecord, PlyTaken


def game(number: int, created: str) -> GameRecord:
    return GameRecord(f"cthulhu-dice-{number:08x}", "cthulhu-dice", {"goal": 5}, 2**62 + number, ["Ann", "Bob"], ["h1", "h2"], created, number % 2 == 0)


def move(ply: int, seat: int = 0, public: bool = True, what: str = "roll") -> MoveRecord:
    return MoveRecord(ply, seat, {"kind": what, "n": ply}, what, [f"event {ply}", "ünïcode ✓"], f"2026-01-01T00:00:{ply:02d}.000+00:00", public)


def test_games_are_stored_exactly_and_unknown_ones_are_none(stores):
    store = stores.open()
    record = game(1, "2026-01-01T00:00:00.000+00:00")
    store.create_game(record)
    assert store.load_game(record.id) == record
    assert stores.open().load_game(record.id) == record, "another process reads the same record"
    assert store.load_game("cthulhu-dice-unknown") is None
    assert store.last_ply(record.id) == 0 and store.moves(record.id) == []


def test_moves_are_read_back_exactly_in_order_and_by_page(stores):
    store = stores.open()
    record = game(2, "2026-01-01T00:00:00.000+00:00")
    store.create_game(record)
    logged = [move(1), move(2, seat=1, public=False), move(3)]
    store.append_move(record.id, logged[0])
    store.append_moves(record.id, logged[1:])
    other = stores.open()
    assert other.moves(record.id) == logged and other.last_ply(record.id) == 3
    assert other.moves(record.id, since=1) == logged[1:]
    assert other.moves(record.id, since=0, limit=2) == logged[:2]
    assert other.moves(record.id, since=3) == []


def test_a_taken_ply_is_refused_and_a_sequence_is_all_or_nothing(stores):
    here, there = stores.open(), stores.open()
    record = game(3, "2026-01-01T00:00:00.000+00:00")
    here.create_game(record)
    here.append_moves(record.id, [move(1), move(2)])
    with pytest.raises(PlyTaken):
        there.append_move(record.id, move(2, what="retreat"))
    with pytest.raises(PlyTaken):
        there.append_moves(record.id, [move(3), move(2, what="retreat")])  # ply 3 is free, ply 2 is not: neither is logged
    assert [m.ply for m in here.moves(record.id)] == [1, 2] and here.moves(record.id)[1].notation == "roll"
    there.append_moves(record.id, [move(3), move(4)])
    assert here.last_ply(record.id) == 4


def test_listing_shows_the_newest_games_with_their_public_move_counts(stores):
    store = stores.open()
    for number in range(5):
        store.create_game(game(number + 10, f"2026-01-0{number + 1}T00:00:00.000+00:00"))
    newest = game(14, "").id
    store.append_moves(newest, [move(1), move(2), move(3, public=False)])
    listed = store.list_games(limit=3)
    assert [r.id for r, _ in listed] == [game(n, "").id for n in (14, 13, 12)]
    assert listed[0][1] == 2, "a secret move is not counted"
    assert [n for _, n in listed[1:]] == [0, 0]


def test_a_new_database_has_every_migration(stores):
    store = stores.open()
    if stores.postgres:
        assert store.schema_version() == len(MIGRATIONS)
        indexes = {r[0] for r in stores.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'games'")}
    else:
        assert stores.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        indexes = {r[0] for r in stores.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'")}
    assert "games_by_creation" in indexes
    assert stores.open() is not None, "opening it again applies nothing twice"


def test_standing_answers_are_set_changed_and_cleared_per_seat(stores):
    here, there = stores.open(), stores.open()
    record = game(40, "2026-01-01T00:00:00.000+00:00")
    here.create_game(record)
    assert here.standing_answers(record.id) == {}
    here.set_standing_answers(record.id, 1, {"windows": "pass"})
    here.set_standing_answers(record.id, 0, {"windows": "ask"})
    here.set_standing_answers(record.id, 1, {"windows": "near-my-units", "always_ask": ["devolve"]})
    assert there.standing_answers(record.id) == {0: {"windows": "ask"}, 1: {"windows": "near-my-units", "always_ask": ["devolve"]}}
    there.set_standing_answers(record.id, 0, None)
    there.set_standing_answers(record.id, 0, None)  # clearing twice is harmless
    assert here.standing_answers(record.id) == {1: {"windows": "near-my-units", "always_ask": ["devolve"]}}
