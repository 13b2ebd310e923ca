"""The engine's caches and shortcuts (issue 38, speed) give the answers the plain computations give: a seat's rules
kept with its unit types, shared actions, costs worked out once per position, "can more figures move" without the
whole listing, and the other seats in each Area at once."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from tabletop.games.cthulhu_wars import ENGINE, board, turn_actions, windows
from tabletop.core.text import factor, last_part_pattern, merge_alternatives, merged_at, separator_pattern
from tabletop.games.cthulhu_wars.actions import Battle, Done, Move, shared
from tabletop.core.game import MoveOption
from tabletop.games.cthulhu_wars.engine import (
    brief_group, group_layout,
    UNIT_MOVE, action_json, all_action_models, all_strings, cost_reader, priced_option, unit_move_parts,
)
from tabletop.games.cthulhu_wars.factions import FACTIONS, Faction
from tabletop.games.cthulhu_wars.neutrals import registry as neutral_registry
from tabletop.games.cthulhu_wars.neutrals.registry import RULES, NeutralRule
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


def rules_of(state, s: int) -> Faction:
    return board.faction_of(state, s)


def plain_roles(faction: Faction, *roles: str) -> tuple[str, ...]:
    return tuple(u.name for u in faction.units if u.role in roles)


def test_unit_types_by_role_are_worked_out_once_and_again_for_rules_with_other_unit_types():
    state = new_game(3, high_priests=True)
    s = seat(state, GC)
    rules = board.faction_of(state, s)
    assert rules.cultists() == plain_roles(rules, "cultist") and "high-priest" in rules.cultists()
    assert rules.cultists() is rules.cultists(), "worked out once"
    own = FACTIONS[GC]
    assert own.cultists() == plain_roles(own, "cultist") and "high-priest" not in own.cultists()
    state.seats[s].units["gug"] = [POOL, POOL]  # a neutral monster card taken: rules with one more unit type
    more = board.faction_of(state, s)
    assert more.monsters() == plain_roles(more, "monster", "terror") and "gug" in more.monsters()
    assert "gug" not in rules.monsters() and rules.monsters() == plain_roles(rules, "monster", "terror")
    for faction in (own, rules, more):
        assert faction.goos() == plain_roles(faction, "goo")
        assert faction.units_of("cultist", "monster") == plain_roles(faction, "cultist", "monster")


def test_a_move_option_says_the_actions_notation_its_json_and_its_cost():
    action = turn_actions.move_action("acolyte", "asia", "europe")
    option = priced_option(action, 2)
    assert option == MoveOption(notation="move acolyte asia>europe", action=action.model_dump(mode="json"),
                                summary="move acolyte asia>europe (costs 2 Power)")
    assert priced_option(shared(Done), 0).summary == "done"


def test_a_copy_of_a_state_is_equal_and_shares_nothing_that_changes():
    state = new_game(3)
    s = seat(state, GC)
    state.seats[s].flags.update({"paid": ["give-three"], "nested": {"a": [1, 2]}, "pair": (1, 2)})
    copied = state.copy()
    assert copied == state
    copied.seats[s].flags["paid"].append("x")
    copied.seats[s].flags["nested"]["a"].append(3)
    copied.seats[s].units["acolyte"][0] = "europe"
    assert state.seats[s].flags == {**state.seats[s].flags, "paid": ["give-three"], "nested": {"a": [1, 2]}}
    assert state.seats[s].units["acolyte"][0] != "europe"


#: Factions whose requirement checks are asked only while the requirement is not yet recorded.
CHECKED_WHILE_OPEN = ("black-goat", "crawling-chaos", "windwalker")


def requirements_agree(state, s: int) -> bool:
    """Whether the requirements ``s`` meets now are those it would meet with none yet recorded, less the recorded
    ones (each check asked, on copies: a check may reward, e.g. Black Goat's shared Areas); False if not asked."""
    if state.seats[s].faction not in CHECKED_WHILE_OPEN:
        return False
    recorded = list(state.seats[s].requirements)
    answer = board.faction_of(state, s).met_requirements(state.copy(), s)
    plain = state.copy()
    plain.seats[s].requirements = []
    assert answer == [n for n in board.faction_of(plain, s).met_requirements(plain, s) if n not in recorded]
    return bool(recorded)


@pytest.mark.parametrize("hook", ["settle", "free_move", "after_action", "window_options", "awaken_options"])
def test_the_material_switched_on_and_its_hooks_are_what_the_options_say_for_each_options_object(hook):
    default = getattr(NeutralRule, hook)
    for options in (CthulhuWarsOptions(**EVERYTHING), CthulhuWarsOptions(), CthulhuWarsOptions(igoo_byatis=True),
                    CthulhuWarsOptions(**EVERYTHING)):  # the last equal to the first, another object
        plain = [rule for rule in RULES if rule.enabled(options)]
        for _ in range(2):  # the second time from the cache
            assert neutral_registry.active(options) == plain
            assert neutral_registry.hooked(options, hook) == [r for r in plain if getattr(type(r), hook) is not default]
    assert neutral_registry.hooked(CthulhuWarsOptions(**EVERYTHING), hook), "the hook is defined by some material"


def test_moves_from_one_area_are_made_once_and_equal_to_new_ones():
    found = turn_actions.moves_to("acolyte", "asia", ("europe", "arctic-ocean"))
    assert found == tuple(Move(unit="acolyte", source="asia", target=t) for t in ("europe", "arctic-ocean"))
    assert turn_actions.moves_to("acolyte", "asia", ("europe", "arctic-ocean")) is found
    assert found[0] is turn_actions.move_action("acolyte", "asia", "europe")


def test_the_window_after_an_action_says_the_same_when_worked_out_after_the_seats_are_asked():
    checked = 0
    for state, _ in positions(5, 11, {"factions": ["great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign",
                                                   "windwalker"], **EVERYTHING}):
        if state.pending or not state.turn.since_window:
            continue
        at_once, later = state.copy(), state.copy()
        said = windows.action_opener(at_once)()
        opener = windows.action_opener(later)
        window = {"actor": later.turn.seat, "context": "action"}
        for s in range(len(later.seats)):
            windows.seat_options(later, s, window)
        assert opener() == said and later == at_once
        checked += 1
    assert checked > 50


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
    (5, 7, ["black-goat", "crawling-chaos", "windwalker", "great-cthulhu", "yellow-sign"]),
])  # fmt: skip
def test_the_shortcuts_agree_with_the_plain_computations_along_random_games(players, seed, factions):
    checked = {"cost": 0, "moving": 0, "enemies": 0, "hooks": 0, "follow-ups": 0, "roles": 0, "requirements": 0}
    for state, s in positions(players, seed, {"factions": factions, **EVERYTHING}):
        for other in range(players):  # the hooks a seat's rules define, found from its faction's name alone
            rules = type(board.faction_of(state, other))
            for hook in ("gate_areas", "taxed_areas"):
                plain = getattr(rules, hook) is not getattr(Faction, hook)
                assert board.defines_hook(state.seats[other].faction, hook) == plain, (other, hook)
                checked["hooks"] += plain
            names = [u.name for u in rules_of(state, other).units]  # the unit types it plays with, neutral ones too
            assert rules_of(state, other).units_of("monster", "terror") == tuple(
                n for n in names if rules_of(state, other).unit(n).role in ("monster", "terror"))
            checked["roles"] += 1
            checked["requirements"] += requirements_agree(state, other)
        if state.pending:
            continue
        table = turn_actions.cost_table(state, s)
        for action in ENGINE.legal_actions(state, s):
            assert table(action) == turn_actions.action_cost(state, s, action), action
            checked["cost"] += 1
        if state.turn.moving or not state.turn.acted:
            listed = turn_actions.move_options(state, s)
            assert turn_actions.can_move_more(state, s) == bool(listed)
            assert all(turn_actions.move_allowed(state, s, move) for move in listed)
            checked["moving"] += 1
        if state.turn.acted and not state.turn.moving:
            assert turn_actions.has_follow_up(state, s) == bool(turn_actions.follow_up_options(state, s))
            checked["follow-ups"] += 1
        found = board.enemies_by_area(state, s)
        assert found == {a: board.enemies_in(state, s, a) for a in board.occupied_areas(state, s)}
        checked["enemies"] += len(found)
    assert checked.pop("follow-ups") > 10 and all(n > 50 for n in checked.values()), checked


def test_the_text_patterns_are_compiled_once_for_each_set_of_separators_and_kept_apart():
    assert last_part_pattern(">") is last_part_pattern(">") and separator_pattern(" ") is separator_pattern(" ")
    assert last_part_pattern(">") is not last_part_pattern(" -")
    for _ in range(2):  # the second time from the cache
        assert factor(["move acolyte asia>europe", "move acolyte asia>arctic-ocean"], " >") == [
            "move acolyte asia>europe/arctic-ocean"]
        assert factor(["C e7-d6", "C e7-e6"], " -") == ["C e7-d6/e6"]
        assert merge_alternatives(["battle asia vs ys", "battle europe vs ys"]) == ["battle asia/europe vs ys"]


def plain_merge(lines: list[str], separators: str) -> list[str]:
    """:func:`merge_alternatives` as first written: every word in turn, pass after pass, until a pass merges nothing."""
    split = separator_pattern(separators)
    rows = [split.split(line) for line in lines]
    merged = True
    while merged:
        merged = False
        for column in range(0, max((len(r) for r in rows), default=0), 2):
            rows, joined = merged_at(rows, column)
            merged = merged or joined
    return ["".join(r) for r in rows]


def test_a_groups_layout_is_worked_out_once_and_each_listing_gets_a_list_of_its_own():
    moves = [MoveOption(notation=f"move acolyte asia>{a}", action={}, summary="") for a in ("europe", "arabia")]
    title = "Move (1 Power per unit)"
    misses = group_layout.cache_info().misses
    first, second = brief_group(title, moves), brief_group(title, list(moves))
    line = "move acolyte asia>europe/arabia (1 Power per unit)"
    assert first.brief == second.brief == [line] and not first.show_title
    assert group_layout.cache_info().misses - misses <= 1  # the second from the cache (the first may be too)
    first.brief.append("changed by a reader")
    assert brief_group(title, moves).brief == [line]
    # lines that do not start with the title's first word sit under the title
    assert group_layout.__wrapped__("Build Gate (3 Power)", ("gate asia", "gate europe")) == (("gate asia/europe",), True)


def test_merging_stops_once_every_word_is_checked_after_the_last_merge_as_the_plain_passes_do():
    cases = [[], ["done"], [""], ["battle asia vs ys", "battle europe vs ys"],
             ["a x 1", "b x 2", "a y 1", "b y 2", "a x 2", "b x 1"], ["a b", "a c d", "e b", "e c d", "a c f"],
             ["a x 1", "b y 2", "c z 3"], ["a b", "a b c", "a"]]  # the last two: nothing to merge
    for lines in cases:
        assert merge_alternatives(list(lines), " >") == plain_merge(list(lines), " >"), lines
    assert factor(["move acolyte asia>europe"], " >") == factor(iter(["move acolyte asia>europe"]), " >")


@pytest.mark.parametrize("players, seed, factions", [
    (6, 1, ["great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "yellow-sign", "crawling-chaos"]),
    (5, 6, None),
    (4, 2, ["ancients", "black-goat", "windwalker", "yellow-sign"]),
])  # fmt: skip
def test_the_listings_shortcuts_agree_with_the_plain_computations_along_random_games(players, seed, factions):
    """A Move's notation read once, a move's JSON without pydantic's serializer, the text merged with an early stop
    and one line left whole, Areas without a captor passed over, and the whole cost when nothing is taxed."""
    checked = {"json": 0, "move texts": 0, "merged": 0, "captures": 0, "costs": 0}
    for state, s in positions(players, seed, {"factions": factions, **EVERYTHING}):
        for group in ENGINE.legal_moves(state, s).groups:
            texts = [m.notation for m in group.moves]
            for option in group.moves:
                assert option.action == ENGINE.action_adapter.validate_python(option.action).model_dump(mode="json")
                found = UNIT_MOVE.match(option.notation)
                assert unit_move_parts(option.notation) == (found.groups() if found else None)
                checked["move texts"] += found is not None
            lines = factor(iter(texts), " >")  # a generator: the plain factoring, never the shortcut for one line
            assert factor(texts, " >") == lines
            assert merge_alternatives(lines, " >") == plain_merge(lines, " >")
            checked["merged"] += len(lines) > 1
        if state.pending:
            continue
        actions = ENGINE.legal_actions(state, s)
        for action in actions:
            assert action_json(action) == action.model_dump(mode="json")
            checked["json"] += 1
        cost, taxed = cost_reader(state), turn_actions.taxes(state, s)
        for action in actions:
            extra = turn_actions.move_tax(state, s, action.target, taxed) if action.kind == "move" else (
                turn_actions.action_tax(state, s, action, taxed))
            assert cost(action) == turn_actions.action_cost(state, s, action) + extra, action
            checked["costs"] += 1
        if not state.turn.acted and not state.turn.moving and state.seats[s].power >= 1:
            enemies = board.enemies_by_area(state, s)
            plain = [(a, e) for a in sorted(enemies) for e in enemies[a] if turn_actions.can_capture(state, s, a, e)]
            found = turn_actions.capture_options(state, s)
            assert [(c.area, c.enemy) for c in found] == [(a, state.seats[e].faction) for a, e in plain]
            checked["captures"] += len(plain) + 1
    assert all(n > 20 for n in checked.values()), checked


def test_an_actions_json_is_its_field_values_only_when_every_field_is_a_string():
    by_name = {m.__name__: m for m in all_action_models()}
    assert all_strings(by_name["Move"]) and all_strings(by_name["Done"]) and all_strings(by_name["ChooseDirection"])
    assert not all_strings(by_name["Assign"]) and not all_strings(by_name["Lose"]) and not all_strings(by_name["Offer"])
    lose = by_name["Lose"](unit="acolyte", from_gate=True)
    assert action_json(lose) == lose.model_dump(mode="json") == {"kind": "lose", "unit": "acolyte", "from_gate": True}
