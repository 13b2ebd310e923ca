"""A Game of War search's own evaluation (``press.py``): raids only where a unit can walk on, a pull on the last
steps to the enemy arsenals, stranded units counted at less; batched and one by one agree."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.bots.game_of_war import evaluation as ev
from tabletop.bots.game_of_war import press
from tabletop.core.rng import Rng
from tabletop.games.game_of_war.board import ARSENAL_SQUARES, SQUARES, bits, index, square_name
from tabletop.games.game_of_war.rules import MOVE, legal_plays, play
from tabletop.games.game_of_war.state import PLAY, build_position

from .test_war_evaluation import random_play_position

NORTH_ARSENALS = [square_name(sq) for sq in bits(ARSENAL_SQUARES[0])]  # o2 and h4


def walks_onto_an_arsenal(state) -> bool:
    """Whether the side to move has a legal move onto an enemy arsenal (the rules' own answer)."""
    enemy_arsenals = state.arsenals[1 - state.side]
    return any(p[0] == MOVE and enemy_arsenals >> p[2] & 1 for p in legal_plays(state))


@pytest.mark.parametrize("units, walkable", [
    ({"q4": "c", "w10": "r"}, True),  # the cavalry's way through p3 lies on the relay's diagonal
    ({"q4": "c", "p3": "I", "w10": "r"}, False),  # the only square between is taken
    ({"q4": "c", "q14": "r"}, False),  # the cavalry is online (the relay's column) but p3 is off its lines
])
def test_a_raid_counts_for_the_search_only_when_a_unit_can_walk_onto_the_arsenal(units, walkable):
    state = build_position(units, side_to_move=1)
    assert ev.raid_value(state, 1) == ev.ARSENAL_VALUE  # the heuristic's quick count sees a raid every time
    assert walks_onto_an_arsenal(state) is walkable
    assert ev.reachable_raid(state, 1) == (ev.ARSENAL_VALUE if walkable else 0.0)


#: Squares South's arsenal lines reach on an empty board, in North's half: a relay there passes lines on.
RELAY_SQUARES = [sq for sq in bits(build_position({}, side_to_move=1).network.cover[1]) if sq < SQUARES // 2]


def random_raid_position(seed: int):
    """South combat units close to a North arsenal, maybe North units in the way, a South relay on a line."""
    rng = Rng(seed)
    squares = [sq for sq in range(SQUARES) if any(
        max(abs(sq % 25 - a % 25), abs(sq // 25 - a // 25)) <= 2 for a in bits(ARSENAL_SQUARES[0]))]
    units = {square_name(rng.choice(RELAY_SQUARES)): "r"}
    for letter, count in (("c", rng.below(3) + 1), ("i", rng.below(2)), ("I", rng.below(3))):
        for _ in range(count):
            units[square_name(rng.choice(squares))] = letter
    try:
        return build_position(units, side_to_move=1)
    except ValueError:
        return None


def test_reachable_raids_are_exactly_the_legal_walks_onto_an_arsenal():
    seen = {True: 0, False: 0}
    for seed in range(400):
        state = random_raid_position(seed)
        if state is None:
            continue
        walkable = walks_onto_an_arsenal(state)
        assert (ev.reachable_raid(state, 1) > 0) is walkable, seed
        assert ev.reachable_raid(state, 1) <= ev.raid_value(state, 1)
        seen[walkable] += 1
    assert seen[True] >= 20 and seen[False] >= 20  # both answers were put to the test


def test_the_nearest_unit_is_pulled_a_point_a_square_towards_each_enemy_arsenal():
    far = build_position({"w9": "c"}, side_to_move=1)  # online on the column of South's arsenal w20
    assert press.closing(far, 1) == -(8 + 15) * press.CLOSING  # o2 eight squares away, h4 fifteen
    near = build_position({"w9": "c", "q4": "c", "w10": "r"}, side_to_move=1)
    assert press.closing(near, 1) == -(2 + 9) * press.CLOSING  # q4 is the nearer to both
    offline = build_position({"q3": "i"}, side_to_move=1)
    assert press.closing(offline, 1) == 0.0  # no combat unit online: nothing to pull


def test_distances_walk_round_the_mountains_and_a_pass_the_enemy_holds():
    # South's cavalry on l4 (online by the relay on l9, on w20's diagonal) is 3 from o2 and 4 from h4 through the
    # pass j6. With North's infantry on j6 the column-j chain is closed: round the top by n3, m2... i3, 8 squares.
    open_pass = build_position({"l4": "c", "l9": "r"}, side_to_move=1)
    held = build_position({"l4": "c", "l9": "r", "j6": "I"}, side_to_move=1)
    assert press.closing(open_pass, 1) == -(3 + 4) * press.CLOSING
    assert press.closing(held, 1) == -(3 + 8) * press.CLOSING
    only_h4 = build_position({"l4": "c", "l9": "r", "j6": "I"}, side_to_move=1, arsenals={0: ["h4"]})
    assert press.massing(only_h4, 1) == pytest.approx(-press.MASSING * (8 - 2))
    # A mountain is never walked over: k8 to h8 is 3 king moves across j7-j9, 4 steps by the pass or round j9.
    assert press.reach_distance(index(10, 7), 1 << index(7, 7)) == 4
    # k5 to h5 is 3 steps through the pass j6; with the pass held, 10 round either end of the chain.
    assert press.reach_distance(index(10, 4), 1 << index(7, 4)) == 3
    assert press.reach_distance(index(10, 4), 1 << index(7, 4), press.open_ground(held, 1)) == 10


def test_an_offline_combat_unit_costs_the_search_more_than_half_its_value():
    state = build_position({"a11": "c", "w12": "i"}, side_to_move=1)
    assert not state.network.online[1] >> 250 & 1 and state.network.online[1] >> 297 & 1  # a11 cut off, w12 not
    assert press.stranded(state, 1) == pytest.approx(-press.STRANDED * ev.UNIT_VALUE[1])
    both = ev.evaluate(state, 1, ev.reachable_raid).total + press.closing(state, 1) + press.stranded(state, 1)
    assert press.search_evaluate(state, 1) == pytest.approx(both)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300))
def test_the_search_scores_batched_as_one_by_one(seed, steps):
    state = random_play_position(seed, steps)
    if state.phase != PLAY:
        return
    afters = [play(state, p)[0] for p in legal_plays(state)]
    for side in (0, 1):
        batched = press.search_score_many(afters, side)
        for after, value in zip(afters, batched):
            assert abs(value - press.search_evaluate(after, side)) < 1e-9


def test_massing_siege_and_supply_grow_with_the_game_and_pull_every_unit_to_the_enemy_arsenal():
    state = build_position({"w9": "c", "w12": "i", "h5": "I"}, side_to_move=1, arsenals={0: ["h4"]})
    # Every online combat unit counts, beyond 2 squares from h4: w9 is 15 away, w12 15 (king moves).
    assert press.massing(state, 1) == pytest.approx(-press.MASSING * ((15 - 2) + (15 - 2)))
    assert press.siege(state, 1) == 0.0  # nobody stands on h4
    early, late = state.clone(), state.clone()
    early.turn, late.turn = press.RAMP[0], press.RAMP[1] + 10
    assert press.ramp(early) == 0.0 and press.ramp(late) == 1.0
    grown = press.massing(state, 1) + press.supply(state, 1)
    assert press.press(late, 1) - press.press(early, 1) == pytest.approx(grown)


def test_supply_pulls_our_lines_towards_each_enemy_arsenal_as_a_relay_carries_them():
    # South's lines nearest h4: w20's diagonal stops before the mountain j7, at k8, 4 steps from h4 by the pass j6.
    state = build_position({"w9": "c", "w12": "i", "h5": "I"}, side_to_move=1, arsenals={0: ["h4"]})
    assert press.supply(state, 1) == -4 * press.SUPPLY
    # A relay on w2 (on w20's column) sends row 2 west, past h2: two steps from h4.
    relayed = build_position({"w9": "c", "w12": "i", "h5": "I", "w2": "r"}, side_to_move=1, arsenals={0: ["h4"]})
    assert press.supply(relayed, 1) == -2 * press.SUPPLY
    # With North holding the pass j6 too, k8 is 10 steps round the chain: c4, on c20's column, is nearer (5).
    held = build_position({"w9": "c", "w12": "i", "h5": "I", "j6": "I"}, side_to_move=1, arsenals={0: ["h4"]})
    assert press.supply(held, 1) == -5 * press.SUPPLY


def test_siege_counts_our_attack_on_a_unit_standing_on_an_enemy_arsenal_up_to_a_capture():
    from tabletop.games.game_of_war.combat import assess

    # A South relay on c10 (on the column of arsenal c20) passes lines along row 5: the cannon on h5 is online.
    held = build_position({"h4": "I", "h5": "k", "c10": "r"}, side_to_move=1, arsenals={0: ["h4"]})
    combat = assess(held, 3 * 25 + 7)
    expected = press.SIEGE * min(max(combat.attack - combat.defence + 6, 0), 8)
    assert press.siege(held, 1) == pytest.approx(expected) and expected > 0
    assert combat.attack - combat.defence == -1 and expected == 5 * press.SIEGE
    stronger = build_position({"h4": "I", "h5": "k", "g5": "i", "i5": "i", "c10": "r"}, side_to_move=1,
                              arsenals={0: ["h4"]})
    assert press.siege(stronger, 1) == 8 * press.SIEGE  # a capture is on: the siege term is full
