"""Cthulhu Wars bots against the threats a model used (issue 41): a Great Old One beside a Gate held by Cultists
alone takes it (rules ``cthulhu-wars/actions``: Capture Cultist, a Great Old One captures past Monsters). The bots
press such a Gate of an enemy's, and the search covers such a Gate of its own with its Great Old One."""

from __future__ import annotations

from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
from tabletop.bots.cthulhu_wars.search import CwSearchBot
from tabletop.games.cthulhu_wars import ENGINE as CW

from cthulhu_wars.cw_helpers import CC, GC, YS, clear, give_turn, new_game, put


def test_the_bots_capture_the_lone_cultist_holding_an_enemy_gate_where_their_great_old_one_stands():
    """Nyarlathotep in Europe, where the Yellow Sign's Gate is held by one Acolyte and nothing else of theirs."""
    state = new_game(4)
    clear(state, YS, "europe")
    put(state, YS, "acolyte", "europe")
    put(state, CC, "nyarlathotep", "europe")
    give_turn(state, CC, power=4)
    seat = state.seat_of(CC)
    for seed in (1, 2):
        assert CW.notation(CwHeuristicBot(seed).choose(CW, state, seat)) == "capture europe vs yellow-sign"
        assert CW.notation(CwSearchBot(seed, seconds=None, iterations=24).choose(CW, state, seat)) == \
            "capture europe vs yellow-sign"


def test_the_search_covers_its_gate_with_its_great_old_one_when_an_enemy_one_is_a_move_away():
    """Cthulhu in the North Pacific, next to Crawling Chaos's Gate in Asia (six Acolytes, nothing else);
    Nyarlathotep in the Arctic Ocean, a Move from Asia. One step ahead the threat is only a term of the evaluation
    (the heuristic paid 4 Power for a spellbook here, docs/bots.md); the search plays the enemy's turn out and covers
    Asia (a Great Old One there stops Cthulhu's captures)."""
    state = new_game(4)
    put(state, GC, "cthulhu", "north-pacific")
    put(state, CC, "nyarlathotep", "arctic-ocean")
    give_turn(state, CC, power=4)
    seat = state.seat_of(CC)
    for seed in (1, 2, 3):
        chosen = CwSearchBot(seed, seconds=None, iterations=24).choose(CW, state, seat)
        assert CW.notation(chosen) == "move nyarlathotep arctic-ocean>asia"
