"""During the hidden deployment a seat is told its own placements in full; the other side learns none of them.

Rules: rules_text game-of-war/setup (deployment is secret and simultaneous: neither side sees the other's units
until both have committed). A deployment move is logged once with its events and shown only to those who may see
it (``Engine.move_visible``: its own side, until both have committed), so its events may name the unit and square.
"""

from __future__ import annotations

import pytest

from tabletop.app.game_tools import move_result
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

NORTH, SOUTH = 0, 1


@pytest.fixture
def table():
    sessions = GameSessions(GameStore(":memory:"))
    live, tokens = sessions.create("game-of-war", {}, 2, seed=3)
    return sessions, live, tokens


def seen(sessions, live, viewer) -> list[tuple[str, list[str]]]:
    page = sessions.log_page(live, viewer, 0, 100)
    return [(m.notation, m.events) for _, m in page.moves]


def test_the_placing_seat_is_told_what_it_placed_and_where(table):
    sessions, live, tokens = table
    played = sessions.play(live.id, tokens[SOUTH], "place I n13")
    assert played.events == ["South places I (infantry) at n13; 16 still to place."]
    _, text = move_result(played)
    assert "South places I (infantry) at n13; 16 still to place." in text
    assert "Set-up: South has placed 1 of 17 units (still to place: 8 I, 4 C, 1 K, 1 W, 1 R, 1 X)" in text
    played = sessions.play(live.id, tokens[SOUTH], ["place C o13", "remove n13"])
    assert played.events == [
        "South places C (cavalry) at o13; 15 still to place.",
        "South takes back I (infantry) from n13; 16 still to place.",
    ]
    assert seen(sessions, live, SOUTH) == [
        ("place I n13", ["South places I (infantry) at n13; 16 still to place."]),
        ("place C o13", ["South places C (cavalry) at o13; 15 still to place."]),
        ("remove n13", ["South takes back I (infantry) from n13; 16 still to place."]),
    ]
    row_13 = next(line for line in live.engine.describe(live.state, SOUTH).split("\n") if line.startswith("13 "))
    assert row_13[3 + 13 : 3 + 15] == ".c", "its own board shows the cavalry on o13, n13 empty again"


def test_the_other_side_and_spectators_learn_nothing_of_it(table):
    sessions, live, tokens = table
    sessions.play(live.id, tokens[SOUTH], ["place I n13", "place C o13"])
    sessions.play(live.id, tokens[NORTH], "place I e7")
    assert seen(sessions, live, NORTH) == [("place I e7", ["North places I (infantry) at e7; 16 still to place."])]
    assert seen(sessions, live, None) == []
    north_board = live.engine.describe(live.state, NORTH)
    assert "n13" not in north_board and "South: deployment hidden (not yet committed)." in north_board
    row_13 = next(line for line in north_board.split("\n") if line.startswith("13 "))
    assert "i" not in row_13[3:] and "c" not in row_13[3:]
    assert live.engine.status(live.state, NORTH) == (
        "Set-up: North has placed 1 of 17 units (still to place: 8 I, 4 C, 1 K, 1 W, 1 R, 1 X); "
        "South's deployment is hidden (not yet committed)."
    )
    # South's own view shows its units on the board
    row_13 = next(line for line in live.engine.describe(live.state, SOUTH).split("\n") if line.startswith("13 "))
    assert row_13[3 + 13 : 3 + 15] == "ic"


def test_an_opening_and_the_commit_are_echoed_to_their_seat(table):
    sessions, live, tokens = table
    played = sessions.play(live.id, tokens[NORTH], ["opening default", "commit"])
    assert played.events == ["North deploys its side of the opening 'default' (all 17 units).", "North commits its deployment."]
    assert seen(sessions, live, SOUTH) == []
    assert live.engine.status(live.state, SOUTH).endswith("North's deployment is hidden (committed).")
