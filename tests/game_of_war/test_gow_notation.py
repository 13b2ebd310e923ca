"""Text forms of moves and the grouped legal-move listing (rules_text game-of-war/notation)."""

from __future__ import annotations

import pytest

from tabletop.core.errors import MalformedMove
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions, build_position
from tabletop.games.game_of_war.actions import Attack, Commit, EndTurn, Move, Place, Remove, UseOpening

NORTH, SOUTH = 0, 1


@pytest.fixture
def opening():
    return ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north"), 2, 1)


@pytest.mark.parametrize(
    "text, action",
    [
        ("C c7-b6", Move(origin="c7", destination="b6", unit="cavalry")),
        ("c7-b6", Move(origin="c7", destination="b6")),
        ("c7 b6", Move(origin="c7", destination="b6")),
        ("Cc7-b6", Move(origin="c7", destination="b6", unit="cavalry")),
        ("x e6-e4", Move(origin="e6", destination="e4", unit="swift_relay")),
        ("attack h9", Attack(target="h9")),
        ("ATTACK y20", Attack(target="y20")),
        ("end", EndTurn()),
        ("pass", EndTurn()),
        ("place W a10", Place(unit="swift_cannon", square="a10")),
        ("remove a10", Remove(square="a10")),
        ("opening default", UseOpening(name="default")),
        ("commit", Commit()),
    ],
)
def test_parse(text, action, opening):
    assert ENGINE.parse(text, opening, NORTH) == action


@pytest.mark.parametrize("text", ["", "C z7-b6", "attack", "move c7 b6", "c21-c20", "place Q a1", "e7-"])
def test_unreadable_text_is_malformed(text, opening):
    with pytest.raises(MalformedMove) as caught:
        ENGINE.read_move(text, opening, NORTH)
    assert caught.value.rule == "game-of-war/notation"


def test_bad_objects_are_malformed(opening):
    with pytest.raises(MalformedMove):
        ENGINE.read_move({"kind": "move", "origin": "z1", "destination": "a1"}, opening, NORTH)
    with pytest.raises(MalformedMove):
        ENGINE.read_move({"kind": "fly"}, opening, NORTH)


def test_every_legal_action_prints_and_reads_back(opening):
    for action in ENGINE.legal_actions(opening, NORTH):
        text = ENGINE.notation(action)
        assert ENGINE.parse(text, opening, NORTH) == action
        assert ENGINE.read_move(action.model_dump(), opening, NORTH) == action


def test_legal_moves_are_grouped_by_unit_with_attacks_and_their_outcome():
    state = build_position({"h10": "C", "h11": "C", "h12": "C", "h13": "C", "h14": "i", "w12": "i"})
    listing = ENGINE.legal_moves(state, NORTH)
    titles = [g.title for g in listing.groups]
    assert titles[:4] == ["Cavalry h10 (online)", "Cavalry h11 (online)", "Cavalry h12 (online)", "Cavalry h13 (online)"]
    assert titles[-2:] == ["Attacks (one per turn; an attack ends the turn)", "Turn"]
    attack = listing.groups[-2].moves[0]
    assert attack.notation == "attack h14"
    assert attack.summary == "Attack South infantry h14: 28 against 0, capture."
    assert listing.count == len(ENGINE.legal_actions(state, NORTH))


def test_legal_moves_focus_on_a_square_or_a_kind(opening):
    one = ENGINE.legal_moves(opening, NORTH, "c7")
    assert [g.title for g in one.groups if g.moves] == ["Cavalry c7 (online)"]
    assert {m.notation for m in one.groups[0].moves} >= {"C c7-b6", "C c7-a5"}
    # the focused moves' marks: off the lines of the opening, on the a file, the cavalry would be offline
    assert one.groups[-1].brief == ["Ends offline itself: C c7-a5/a7/a8/a9"] and not one.groups[-1].moves
    cavalry = [g for g in ENGINE.legal_moves(opening, NORTH, "cavalry").groups if g.moves]
    assert len(cavalry) == 4 and all(g.title.startswith("Cavalry") for g in cavalry)
    assert ENGINE.legal_moves(opening, SOUTH).groups == []
