"""Cthulhu Wars thresholds from rules_text (end, doom, battle), and games played to a real winner.

The random games of test_cw_random_games rarely give anyone six spellbooks, so their check that
"winners hold six spellbooks" has nothing to check. The seeded games below, played by the
playthrough player (weighted random moves), do reach winners; the winners are worked out here
from rules_text cthulhu-wars/end (only factions holding all six spellbooks may win, the most Doom
among them wins, a tie shares) and compared with the engine's outcome.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.battle import dice_distribution, score_rolls
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

from .test_cw_playthroughs import MOVE_WEIGHT, WEIGHTS

# rules_text cthulhu-wars/doom: the Ritual tracks; the last space is Instant Death (cost 10)
RITUAL_TRACKS = {3: [5, 6, 7, 8, 9, 10], 4: [5, 6, 7, 7, 8, 8, 9, 10], 5: [5, 6, 6, 7, 7, 8, 8, 9, 9, 10]}
DOOM_TO_END = 30
SPELLBOOKS_TO_WIN = 6


def play_out(players: int, seed: int):
    state = ENGINE.new_game(CthulhuWarsOptions(), players, seed)
    rnd = random.Random(seed)
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.to_move(state))
        legal = ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, rnd.choices(legal, [WEIGHTS.get(a.kind, MOVE_WEIGHT) for a in legal])[0])
    return state


def rule_winners(state) -> list[int]:
    eligible = [s for s, fs in enumerate(state.seats) if len(fs.spellbooks) == SPELLBOOKS_TO_WIN]
    if not eligible:
        return []
    best = max(state.seats[s].doom for s in eligible)
    return [s for s in eligible if state.seats[s].doom == best]


@pytest.mark.parametrize(
    ("players", "seed", "what"),
    [
        (3, 0, "the only faction with six spellbooks wins, though another has more Doom"),
        (4, 1, "two factions hold six spellbooks: the one with more Doom wins"),
    ],
)
def test_games_played_to_a_real_winner(players, seed, what):
    state = play_out(players, seed)
    outcome = ENGINE.outcome(state)
    winners = rule_winners(state)
    assert winners, f"seed {seed} no longer reaches a winner; pick another seed that does ({what})"
    assert outcome.winners == winners, what
    assert all(not fs.elder_signs for fs in state.seats), "every Elder Sign is revealed at the end"
    instant_death = state.ritual_step == len(state.ritual_track) - 1
    assert instant_death or max(fs.doom for fs in state.seats) >= DOOM_TO_END, "the game ended by one of its two ends"
    holders = [s for s, fs in enumerate(state.seats) if len(fs.spellbooks) == SPELLBOOKS_TO_WIN]
    if players == 3:
        leader = max(range(players), key=lambda s: state.seats[s].doom)
        assert leader not in outcome.winners and holders == outcome.winners
    else:
        assert len(holders) == 2 and len(outcome.winners) == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_ritual_track_of_each_player_count_ends_in_instant_death(players):
    state = ENGINE.new_game(CthulhuWarsOptions(), players, 1)
    track = list(state.ritual_track)
    assert track[:-1] == RITUAL_TRACKS[players]
    assert track[-1] == 10, "Instant Death costs 10 too"


def test_battle_dice_six_kills_four_and_five_pain():
    """rules_text cthulhu-wars/battle: 6 = Kill, 4-5 = Pain, 1-3 miss; counted on every die rolled."""
    state = ENGINE.new_game(CthulhuWarsOptions(), 3, 1)
    for rolls in ([1, 2, 3], [4, 5, 6], [6, 6, 4, 3], [5], []):
        battle = {"attacker": 0, "defender": 1, "rolls": {0: rolls}, "hits": {}}
        score_rolls(state, battle, 0, [])
        assert battle["hits"][1] == {"kill": rolls.count(6), "pain": sum(r in (4, 5) for r in rolls)}, rolls


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_the_battle_odds_match_every_face_of_every_die(dice):
    expected: dict[tuple[int, int], Fraction] = {}
    for faces in product(range(1, 7), repeat=dice):
        key = (faces.count(6), sum(f in (4, 5) for f in faces))
        expected[key] = expected.get(key, 0) + Fraction(1, 6**dice)
    got = {k: p for k, p in dice_distribution(dice).items() if p}
    assert got == expected
