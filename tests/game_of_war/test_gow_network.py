"""Lines of communication on hand-built positions (rules_text game-of-war/communication)."""

from __future__ import annotations

from tabletop.games.game_of_war import GameOfWarOptions, build_position, network_status
from tabletop.games.game_of_war.board import names

from .helpers import offline, online

NORTH, SOUTH = 0, 1


def test_an_enemy_relay_does_not_block_a_line():
    # o2's column runs south; a South relay on o5 lets it through to the infantry on o8.
    state = build_position({"o8": "I", "o5": "r"})
    assert online(state, NORTH) == {"o8"}


def test_an_enemy_combat_unit_blocks_a_line():
    state = build_position({"o8": "I", "o5": "i"})
    assert offline(state, NORTH) == {"o8"}


def test_enemy_relays_block_under_the_variant_ruling():
    state = build_position({"o8": "I", "o5": "r"}, options=GameOfWarOptions(enemy_relays_block_lines=True))
    assert offline(state, NORTH) == {"o8"}


def test_a_relay_online_only_by_adjacency_does_not_reemit():
    # p9 is online through its neighbour o8 but stands on no line: u9 on its row stays offline.
    state = build_position({"o8": "I", "p9": "R", "u9": "I"})
    assert online(state, NORTH) == {"o8", "p9"}
    assert offline(state, NORTH) == {"u9"}
    assert network_status(state).sides[NORTH].relaying == []


def test_adjacent_relays_reemit_under_the_variant_ruling():
    state = build_position({"o8": "I", "p9": "R", "u9": "I"}, options=GameOfWarOptions(adjacent_relays_reemit=True))
    assert online(state, NORTH) == {"o8", "p9", "u9"}


def test_a_relay_on_a_line_reemits_and_relays_chain():
    # o9 sits on o2's column and sends row 9 (reaching u9) and a diagonal to the swift
    # relay on s5, which sends row 5 to x5.
    state = build_position({"o9": "R", "u9": "I", "s5": "X", "x5": "I"})
    assert online(state, NORTH) == {"o9", "u9", "s5", "x5"}
    assert network_status(state).sides[NORTH].relaying == ["s5", "o9"]


def test_mountains_stop_lines_and_passes_do_not():
    # h4's row stops at the mountain j4; its diagonal crosses the pass j6 and reaches k7.
    state = build_position({"l4": "I", "k7": "I"})
    assert online(state, NORTH) == {"k7"}
    assert offline(state, NORTH) == {"l4"}


def test_adjacency_chains_from_unit_to_unit():
    # c9 is on h4's diagonal; c10..c12 are online only through the chain.
    state = build_position({"c9": "C", "c10": "C", "c11": "C", "c12": "C", "c14": "C"})
    assert online(state, NORTH) == {"c9", "c10", "c11", "c12"}
    assert offline(state, NORTH) == {"c14"}


def test_a_destroyed_arsenal_sends_nothing():
    state = build_position({"o8": "I"}, arsenals={NORTH: ["h4"]})
    assert offline(state, NORTH) == {"o8"}


def test_default_opening_is_all_online_and_covered_squares_include_the_arsenals():
    from tabletop.games.game_of_war import ENGINE

    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north"), 2, 1)
    status = network_status(state)
    for side in (NORTH, SOUTH):
        assert status.sides[side].offline == []
        assert len(status.sides[side].online) == 17
        assert set(names(state.arsenals[side])) <= set(status.sides[side].covered)
