"""The engine's caches and shortcuts (issue 38, speed) give the answers the plain computations give: a seat's rules
kept with its unit types, shared actions, costs worked out once per position, "can more figures move" without the
whole listing, and the other seats in each Area at once."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from tabletop.games.cthulhu_wars import ENGINE, board, turn_actions
from tabletop.core.text import factor, last_part_pattern, merge_alternatives, separator_pattern
from tabletop.games.cthulhu_wars.actions import Battle, Done, shared
from tabletop.games.cthulhu_wars.factions import Faction
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL, UnitPlaces

from .cw_helpers import CC, GC, new_game, seat

#: Every neutral option on (High Priests, the neutral monsters, the neutral spellbooks, the Independent Great Old Ones).
EVERYTHING = {
    "high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
    "neutral_star_vampire": True, "neutral_spellbooks": True, "igoo_byatis": True, "igoo_abhoth": True,
    "igoo_daoloth": True, "igoo_nyogtha": True,
}  # fmt: skip


def test_a_seats_rules_follow_its_unit_types_when_a_card_comes_and_goes():
    state = new_game(3)
    s = seat(state, GC)
    with pytest.raises(KeyError):
        board.faction_of(state, s).unit("gug")
    state.seats[s].units["gug"] = [POOL, POOL]  # a neutral card taken
    assert board.faction_of(state, s).unit("gug").name == "gug"
    later = state.copy()
    del later.seats[s].units["gug"]  # given back, in the copy only
    with pytest.raises(KeyError):
        board.faction_of(later, s).unit("gug")
    assert board.faction_of(state, s).unit("gug").name == "gug", "the original keeps its card"


def test_a_seats_rules_are_right_with_its_units_set_to_a_plain_dict():
    state = new_game(3)
    s = seat(state, CC)
    state.seats[s].units = dict(state.seats[s].units, shantak=[POOL, POOL])
    assert board.faction_of(state, s).unit("shantak").name == "shantak"
    copied = state.copy()
    assert type(copied.seats[s].units) is UnitPlaces
    assert board.faction_of(copied, s).unit("shantak").name == "shantak"


def test_a_seats_figures_survive_pickling_and_copying_with_their_rules_worked_out_again():
    state = new_game(3, high_priests=True)
    s = seat(state, GC)
    board.faction_of(state, s)  # the rules noted with the units
    for again in (pickle.loads(pickle.dumps(state.seats[s].units)), copy.deepcopy(state.seats[s].units)):
        assert type(again) is UnitPlaces and again == state.seats[s].units
        assert again["acolyte"] is not state.seats[s].units["acolyte"]
    copied = state.copy()
    copied.seats[s].units["acolyte"][0] = "europe"
    assert state.seats[s].units["acolyte"][0] != "europe", "a copy's figures are its own"


def test_shared_actions_are_equal_to_new_ones_and_made_once():
    assert shared(Battle, area="europe", enemy="black-goat") == Battle(area="europe", enemy="black-goat")
    assert shared(Battle, area="europe", enemy="black-goat") is shared(Battle, area="europe", enemy="black-goat")
    assert shared(Done) == Done()


def positions(players: int, seed: int, options: dict):
    """Every position of a random game, with the seat asked."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(CthulhuWarsOptions(**options), players, seed)
    while ENGINE.outcome(state) is None:
        s = rnd.choice(ENGINE.to_move(state))
        yield state, s
        state, _ = ENGINE.apply(state, s, rnd.choice(ENGINE.legal_actions(state, s)))


@pytest.mark.parametrize("players, seed, factions", [
    (6, 3, ["great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "yellow-sign", "crawling-chaos"]),
    (4, 5, ["ancients", "crawling-chaos", "sleeper", "opener-of-the-way"]),
])  # fmt: skip
def test_the_shortcuts_agree_with_the_plain_computations_along_random_games(players, seed, factions):
    checked = {"cost": 0, "moving": 0, "enemies": 0, "hooks": 0}
    for state, s in positions(players, seed, {"factions": factions, **EVERYTHING}):
        for other in range(players):  # the hooks a seat's rules define, found from its faction's name alone
            rules = type(board.faction_of(state, other))
            for hook in ("gate_areas", "taxed_areas"):
                plain = getattr(rules, hook) is not getattr(Faction, hook)
                assert board.defines_hook(state.seats[other].faction, hook) == plain, (other, hook)
                checked["hooks"] += plain
        if state.pending:
            continue
        table = turn_actions.cost_table(state, s)
        for action in ENGINE.legal_actions(state, s):
            assert table(action) == turn_actions.action_cost(state, s, action), action
            checked["cost"] += 1
        if state.turn.moving or not state.turn.acted:
            assert turn_actions.can_move_more(state, s) == bool(turn_actions.move_options(state, s))
            checked["moving"] += 1
        found = board.enemies_by_area(state, s)
        assert found == {a: board.enemies_in(state, s, a) for a in board.occupied_areas(state, s)}
        checked["enemies"] += len(found)
    assert all(n > 50 for n in checked.values()), checked


def test_the_text_patterns_are_compiled_once_for_each_set_of_separators_and_kept_apart():
    assert last_part_pattern(">") is last_part_pattern(">") and separator_pattern(" ") is separator_pattern(" ")
    assert last_part_pattern(">") is not last_part_pattern(" -")
    for _ in range(2):  # the second time from the cache
        assert factor(["move acolyte asia>europe", "move acolyte asia>arctic-ocean"], " >") == [
            "move acolyte asia>europe/arctic-ocean"]
        assert factor(["C e7-d6", "C e7-e6"], " -") == ["C e7-d6/e6"]
        assert merge_alternatives(["battle asia vs ys", "battle europe vs ys"]) == ["battle asia/europe vs ys"]
