"""The turn: moves, attacks, retreats, arsenals and victory (rules_text game-of-war/turn, /end)."""

from __future__ import annotations

import pytest

from tabletop.core.errors import GameOver, IllegalMove, MalformedMove, NotYourTurn
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions, build_position
from tabletop.games.game_of_war.actions import Attack, EndTurn, Move

from .helpers import offline, snapshot

NORTH, SOUTH = 0, 1


def notations(state, seat):
    return {ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat)}


def refused(state, seat, action, error=IllegalMove):
    before = snapshot(state)
    with pytest.raises(error) as caught:
        ENGINE.apply(state, seat, action)
    assert snapshot(state) == before
    return caught.value


# ---- retreat -------------------------------------------------------------------------------------
RETREAT_WITH_ROOM = {"c15": "C", "h15": "R", "c16": "i", "w12": "i"}


def test_a_one_point_win_forces_a_retreat_first_thing_next_turn():
    state = build_position(RETREAT_WITH_ROOM)
    preview = ENGINE.combat_preview(state, "c16")
    assert (preview.attack, preview.defence, preview.result) == (7, 6, "retreat")
    state, events = ENGINE.apply(state, NORTH, Attack(target="c16"))
    assert state.side == SOUTH and "must retreat" in " ".join(events)
    legal = notations(state, SOUTH)
    assert legal == {"I c16-b15", "I c16-d15", "I c16-b16", "I c16-d16", "I c16-b17", "I c16-c17", "I c16-d17"}
    error = refused(state, SOUTH, EndTurn())
    assert error.rule == "game-of-war/turn"
    refused(state, SOUTH, Move(origin="w12", destination="w11"))
    state, _ = ENGINE.apply(state, SOUTH, Move(origin="c16", destination="c17"))
    assert "end" in notations(state, SOUTH)
    assert state.moves_made == 1


def test_how_far_a_retreat_goes_is_a_ruling():
    # South cavalry c16 (5) supported from c18 (6) = 11; charge 7 from c15 + cannon f16 = 12.
    units = {"c15": "C", "f16": "K", "h15": "X", "h16": "R", "c16": "c", "c18": "i"}
    for distance, far in (("one", False), ("full", True)):
        state = build_position(units, options=GameOfWarOptions(retreat_distance=distance))
        preview = ENGINE.combat_preview(state, "c16")
        assert (preview.attack, preview.defence, preview.result) == (12, 11, "retreat")
        state, _ = ENGINE.apply(state, NORTH, Attack(target="c16"))
        assert ("C c16-d18" in notations(state, SOUTH)) is far
        assert "C c16-d17" in notations(state, SOUTH)


def test_a_unit_that_cannot_retreat_is_destroyed():
    units = {"a19": "C", "a18": "C", "d20": "K", "h18": "R", "h20": "X", "a20": "i", "b19": "i", "b20": "i"}
    state = build_position(units)
    preview = ENGINE.combat_preview(state, "a20")
    assert (preview.attack, preview.defence, preview.result) == (19, 18, "retreat")
    state, events = ENGINE.apply(state, NORTH, Attack(target="a20"))
    assert "cannot retreat and is destroyed" in " ".join(events)
    assert "a20" not in {u["square"] for u in ENGINE.view(state, None)["units"]}
    assert state.side == SOUTH and state.retreat == -1


def test_a_retreated_unit_adds_nothing_to_the_attack():
    state = build_position(RETREAT_WITH_ROOM | {"c19": "i"})
    state, _ = ENGINE.apply(state, NORTH, Attack(target="c16"))
    state, _ = ENGINE.apply(state, SOUTH, Move(origin="c16", destination="c17"))
    # c17 is now next to nothing North but would fire on c15 from two squares: it may not.
    roles = {c.square: c.role for c in ENGINE.combat_preview(state, "c15").contributors}
    assert "c17" not in roles


# ---- arsenals ------------------------------------------------------------------------------------
ARSENAL_RAID = {"c18": "I", "c19": "C", "h18": "R", "w12": "i", "w11": "i"}


def test_moving_onto_an_empty_enemy_arsenal_destroys_it_and_uses_the_attack():
    state = build_position(ARSENAL_RAID)
    state, events = ENGINE.apply(state, NORTH, ENGINE.parse("C c19-c20", state, NORTH))
    assert "arsenal c20 is destroyed" in " ".join(events)
    assert state.attack_used and state.phase == "play"
    assert not [a for a in ENGINE.legal_actions(state, NORTH) if a.kind == "attack"]
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("I c18-c19", state, NORTH))
    assert state.moves_made == 2


def test_destroying_the_last_arsenal_wins():
    state = build_position(ARSENAL_RAID, arsenals={SOUTH: ["c20"]})
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("C c19-c20", state, NORTH))
    assert ENGINE.outcome(state).winners == [NORTH]
    assert "arsenals" in ENGINE.outcome(state).reason
    refused(state, SOUTH, EndTurn(), GameOver)


def test_relays_and_offline_units_cannot_take_an_arsenal():
    state = build_position({"c19": "R", "h18": "R", "w12": "i"})
    assert "R c19-c20" not in notations(state, NORTH)
    offline_raider = build_position({"c19": "C", "w12": "i"})
    assert notations(offline_raider, NORTH) == {"end"}


def test_a_two_square_move_may_not_pass_through_an_offline_square():
    # c18 is on the relay's row; c19 is covered by no line and next to no other online unit.
    state = build_position({"c18": "C", "h18": "R", "w12": "i"})
    assert "C c18-c20" not in notations(state, NORTH)
    free = build_position({"c18": "C", "h18": "R", "w12": "i"}, options=GameOfWarOptions(mounted_through_offline=True))
    assert "C c18-c20" in notations(free, NORTH)


def test_arsenal_capture_ends_moves_under_the_variant_ruling():
    state = build_position(ARSENAL_RAID, options=GameOfWarOptions(arsenal_capture_ends_moves=True))
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("C c19-c20", state, NORTH))
    assert notations(state, NORTH) == {"end"}


# ---- movement ------------------------------------------------------------------------------------
def test_offline_units_cannot_move_but_relays_can():
    state = build_position({"l4": "I", "l6": "R", "w12": "i"})
    error = refused(state, NORTH, Move(origin="l4", destination="l5"))
    assert error.rule == "game-of-war/communication" and "offline" in error.message
    assert offline(state, NORTH) == {"l4", "l6"}
    state, _ = ENGINE.apply(state, NORTH, Move(origin="l6", destination="l7"))
    assert state.moves_made == 1


def test_five_different_units_at_most():
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north"), 2, 1)
    for text in ["I f7-f6", "I g7-g6", "I i7-i6", "C c7-b6", "C d7-d6"]:
        state, _ = ENGINE.apply(state, NORTH, ENGINE.parse(text, state, NORTH))
    assert not [a for a in ENGINE.legal_actions(state, NORTH) if a.kind == "move"]
    error = refused(state, NORTH, ENGINE.parse("C c8-b7", state, NORTH))
    assert "already moved 5" in error.message


def test_a_unit_moves_once_per_turn():
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north"), 2, 1)
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("I f7-f6", state, NORTH))
    error = refused(state, NORTH, ENGINE.parse("I f6-f5", state, NORTH))
    assert "already moved" in error.message
    assert error.legal  # the alternatives are listed


def test_moves_need_empty_passable_squares_and_a_matching_letter():
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north"), 2, 1)
    refused(state, NORTH, ENGINE.parse("I i7-j7", state, NORTH))  # mountain
    refused(state, NORTH, ENGINE.parse("I f7-g7", state, NORTH))  # occupied
    refused(state, NORTH, ENGINE.parse("I f7-f5", state, NORTH))  # too far
    refused(state, NORTH, ENGINE.parse("C f7-f6", state, NORTH))  # wrong letter
    refused(state, NORTH, ENGINE.parse("o11-o10", state, NORTH))  # not North's unit
    refused(state, SOUTH, ENGINE.parse("o11-o10", state, SOUTH), NotYourTurn)
    with pytest.raises(MalformedMove):
        ENGINE.read_move("I f7 to f6", state, NORTH)


def test_an_attack_ends_the_turn_and_futile_attacks_are_refused():
    state = build_position({"h10": "C", "h11": "C", "h12": "C", "h13": "C", "h14": "i", "w12": "i"})
    error = refused(state, NORTH, Attack(target="w12"))
    assert error.rule == "game-of-war/combat"
    state, _ = ENGINE.apply(state, NORTH, Attack(target="h14"))
    assert state.side == SOUTH and state.turn == 2


# ---- victory -------------------------------------------------------------------------------------
def test_destroying_every_combat_unit_wins():
    state = build_position({"h10": "C", "h11": "C", "h12": "C", "h13": "C", "h14": "i", "w15": "r"})
    state, events = ENGINE.apply(state, NORTH, Attack(target="h14"))
    assert ENGINE.outcome(state).winners == [NORTH]
    assert "combat units" in ENGINE.outcome(state).reason


def test_network_collapse_wins_when_no_relay_is_left():
    # South's only unit c16 lives on c20's column; North's cavalry steps onto c18 and cuts it.
    state = build_position({"d18": "C", "h18": "R", "c16": "i"})
    assert ENGINE.outcome(state) is None
    state, _ = ENGINE.apply(state, NORTH, Move(origin="d18", destination="c18"))
    assert ENGINE.outcome(state).winners == [NORTH]
    assert "offline" in ENGINE.outcome(state).reason


def test_no_collapse_while_a_relay_survives():
    state = build_position({"d18": "C", "h18": "R", "c16": "i", "y1": "r"})
    state, _ = ENGINE.apply(state, NORTH, Move(origin="d18", destination="c18"))
    assert ENGINE.outcome(state) is None


def test_turn_limit_draws():
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north", max_turns=2), 2, 1)
    state, _ = ENGINE.apply(state, NORTH, EndTurn())
    state, _ = ENGINE.apply(state, SOUTH, EndTurn())
    assert ENGINE.outcome(state).winners == []
    assert ENGINE.to_move(state) == []


def test_an_offline_unit_driven_back_is_destroyed_as_it_cannot_move():
    # g14 is offline (defends 0) but supported by i14 (6); the cavalry on g13 charges for 7.
    state = build_position({"h12": "I", "g13": "C", "g14": "i", "i14": "i"})
    preview = ENGINE.combat_preview(state, "g14")
    assert (preview.attack, preview.defence, preview.result) == (7, 6, "retreat")
    state, events = ENGINE.apply(state, NORTH, Attack(target="g14"))
    assert "cannot retreat and is destroyed" in events[-1]
    assert "g14" not in {u["square"] for u in ENGINE.view(state, None)["units"]}


def test_views_are_json_ready_and_filtered_focus_shows_attacks_only():
    import json

    state = build_position({"h10": "C", "h11": "C", "h12": "C", "h13": "C", "h14": "i", "w12": "i"})
    json.dumps(ENGINE.view(state, NORTH))
    only = ENGINE.legal_moves(state, NORTH, "attacks")
    assert [g.title for g in only.groups] == ["Attacks (one per turn; an attack ends the turn)"]
    on_square = ENGINE.legal_moves(state, NORTH, "h14")
    assert [m.notation for g in on_square.groups for m in g.moves] == ["attack h14"]
