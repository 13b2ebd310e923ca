"""The Ancients (rules_text cthulhu-wars/ancients, its spellbook sections and the ancients-* rulings), from the fact
sheet's bullets: set-up, units, Terrors, Cathedrals, Dematerialization, the six requirements and six spellbooks."""

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.battle import enemy_losable
from tabletop.games.cthulhu_wars.phases import projected_gather
from tabletop.games.cthulhu_wars.state import GONE, POOL, Pending

from .cw_helpers import (BG, GC, OW, WW, ScriptedDice, give_turn, play, put, random_game, seat, seated,
                         texts)

AN = "ancients"
HOME = "australia"  # an Area without a faction symbol on the 3-player map; arrow glyph
#: The 3-player Earth Areas without a faction start symbol (HRF's Ancients start list for 3 players).
UNMARKED_3P = {"north-pacific", "north-atlantic", "south-america", "australia", "indian-ocean", "south-atlantic"}


def game(books=(), factions=(GC, BG, AN), power=None, **options):
    state = seated(list(factions), starts={AN: HOME}, **options)
    an = seat(state, AN)
    state.seats[an].spellbooks = list(books)
    give_turn(state, AN, power)
    return state


def acolyte_to(state, area):
    """Move one of the Ancients' Acolytes (not the one on the Gate) from their start Area to ``area`` (test set-up)."""
    an = seat(state, AN)
    board.place_figure(state, an, "acolyte", board.pick_figure(state, an, "acolyte", HOME), area)


def cathedrals(state):
    return state.seats[seat(state, AN)].flags.get("cathedrals", [])


def doom_turn(state, power=0):
    """The Ancients' Doom-phase decision (a Doom phase under way)."""
    an = seat(state, AN)
    state.phase, state.turn, state.doom_phases = "doom", None, 1
    state.seats[an].power = power
    state.pending = [Pending(an, "ritual")]
    return state


# ---- set-up and units ----------------------------------------------------------------------------
def test_the_ancients_choose_an_area_without_a_faction_symbol_and_start_like_everyone():
    state = seated([GC, BG, AN], direction=None, starts={})
    state = ENGINE.new_game(state.options, 3, 1)
    an = seat(state, AN)
    assert state.pending[0].kind == "start-area" and state.pending[0].seat == an
    assert {a.area for a in ENGINE.legal_actions(state, an)} == UNMARKED_3P
    state, _ = play(state, AN, f"start {HOME}")
    fs = state.seats[an]
    assert fs.units["acolyte"].count(HOME) == 6 and state.controller(HOME) == an and fs.power == 8
    table = {u.name: (u.count, u.cost, u.combat, u.role) for u in board.faction_of(state, an).units}
    assert table == {"acolyte": (6, 1, 0, "cultist"), "un-man": (3, 3, 0, "monster"), "reanimated": (3, 4, 2, "monster"),
                     "yothan": (3, 6, 7, "terror")}  # fmt: skip
    assert board.faction_of(state, an).goos() == ()


def test_on_the_dreamlands_the_ancients_never_start_in_a_citadel():
    state = ENGINE.new_game(seated([GC, BG, AN], map="dreamlands", direction=None).options, 3, 1)
    an = seat(state, AN)
    offered = {a.area for a in ENGINE.legal_actions(state, an)}
    assert offered and not any(state.layout.area(a).citadel or state.layout.area(a).faction_symbol for a in offered)
    assert any(state.layout.area(a).tunnel for a in offered), "a Tunnel Area is allowed"


def test_the_ancients_start_after_windwalker_and_before_opener():
    state = ENGINE.new_game(seated([WW, OW, AN]).options, 3, 1)
    order = [state.seats[p.seat].faction for p in state.pending if p.kind == "start-area"]
    assert order == [WW, AN, OW]


@pytest.mark.parametrize(("unit", "book", "printed", "with_book"),
                         [("un-man", "festival", 3, 0), ("reanimated", "brainless", 4, 1), ("yothan", "extinction", 6, 3)])
def test_summon_costs_with_and_without_their_spellbook_at_the_boundary(unit, book, printed, with_book):
    for books, cost in (((), printed), ((book,), with_book)):
        state = game(books, power=cost)
        assert f"summon {unit} {HOME}" in texts(state, AN)
        if cost:
            state.seats[seat(state, AN)].power = cost - 1
            assert f"summon {unit} {HOME}" not in texts(state, AN)


# ---- Terrors ---------------------------------------------------------------------------------
def test_a_yothan_is_a_terror_it_captures_and_protects_cultists_like_a_monster():
    state = game(power=5)
    put(state, AN, "yothan", "africa")
    assert "capture africa vs black-goat" in texts(state, AN)
    acolyte_to(state, "north-atlantic")
    put(state, AN, "yothan", "north-atlantic")
    put(state, BG, "ghoul", "north-atlantic")
    give_turn(state, BG, 5)
    assert "capture north-atlantic vs ancients" not in texts(state, BG), "the Terror protects the Acolyte"
    put(state, GC, "cthulhu", "north-atlantic")
    give_turn(state, GC, 5)
    assert "capture north-atlantic vs ancients" in texts(state, GC), "an enemy Great Old One captures past it"


def test_abilities_that_take_monsters_or_cultists_do_not_reach_a_terror():
    state = game()
    an, gc = seat(state, AN), seat(state, GC)
    put(state, AN, "yothan", "south-pacific")
    battle = {"area": "south-pacific", "attacker": gc, "defender": an, "exempt": []}
    assert enemy_losable(state, battle, gc) == [], "Devour cannot take the Yothan"
    put(state, AN, "un-man", "south-pacific")
    assert enemy_losable(state, battle, gc) == ["un-man"]


# ---- Cathedrals ------------------------------------------------------------------------------
def test_a_cathedral_costs_one_alone_and_three_next_to_another():
    state = game(power=1)
    assert f"an-cathedral {HOME}" in texts(state, AN)
    state, _ = play(state, AN, f"an-cathedral {HOME}")
    an = seat(state, AN)
    assert cathedrals(state) == [HOME] and state.seats[an].power == 0 and "cathedral-arrow" in state.seats[an].requirements
    assert state.controller(HOME) == an and board.gate_count(state, an) == 1, "a Cathedral is no Gate"
    acolyte_to(state, "indian-ocean")  # next to Australia
    give_turn(state, AN, 2)
    assert "an-cathedral indian-ocean" not in texts(state, AN)
    state.seats[an].power = 3
    state, _ = play(state, AN, "an-cathedral indian-ocean")
    assert state.seats[an].power == 0 and "cathedral-unmarked" in state.seats[an].requirements


def test_a_cathedral_needs_an_acolyte_there_and_may_share_an_enemy_gate():
    state = game(power=5)
    put(state, AN, "yothan", "africa")
    assert "an-cathedral africa" not in texts(state, AN), "a Yothan cannot build"
    acolyte_to(state, "africa")
    state, _ = play(state, AN, "an-cathedral africa")
    assert cathedrals(state) == ["africa"] and state.controller("africa") == seat(state, BG)


def test_one_cathedral_per_glyph_class_oceans_and_unmarked_land_alike():
    state = game(power=20)
    state.seats[seat(state, AN)].flags["cathedrals"] = ["antarctica"]  # no glyph, land
    acolyte_to(state, "south-atlantic")
    acolyte_to(state, "south-america")
    assert "an-cathedral south-atlantic" not in texts(state, AN), "Oceans share the unmarked class"
    assert "an-cathedral south-america" in texts(state, AN), "snake glyph"


def test_ruling_ocean_apart_makes_oceans_a_class_of_their_own():
    state = game(power=20, cathedral_glyph_classes="ocean-apart")
    state.seats[seat(state, AN)].flags["cathedrals"] = ["antarctica"]
    acolyte_to(state, "south-atlantic")
    assert "an-cathedral south-atlantic" in texts(state, AN)
    state, _ = play(state, AN, "an-cathedral south-atlantic")
    assert "cathedral-unmarked" in state.seats[seat(state, AN)].requirements


def test_at_most_four_cathedrals():
    state = game(power=20, cathedral_glyph_classes="ocean-apart")
    state.seats[seat(state, AN)].flags["cathedrals"] = ["antarctica", "africa", "europe", "north-america"]
    acolyte_to(state, "south-atlantic")
    assert not any(t.startswith("an-cathedral") for t in texts(state, AN))


# ---- the free-Summon requirements ------------------------------------------------------------------
def test_summon_cheapest_each_enemy_summons_its_cheapest_monster_for_free():
    state = game(power=0)
    state.seats[seat(state, AN)].power = 1  # the action costs 0; Power only keeps the turn
    powers = [fs.power for fs in state.seats]
    state, _ = play(state, AN, "an-summon-cheapest")
    while state.pending and state.pending[0].kind == "an-free-summon":
        s = state.pending[0].seat
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
    gc, bg = seat(state, GC), seat(state, BG)
    assert state.seats[gc].units["deep-one"].count("south-pacific") == 1
    assert state.seats[bg].units["ghoul"].count("africa") == 1
    assert state.seats[gc].power == powers[gc] and state.seats[bg].power == powers[bg], "free"
    assert "summon-cheapest" in state.seats[seat(state, AN)].requirements
    give_turn(state, AN, 5)
    assert "an-summon-cheapest" not in texts(state, AN) and "an-summon-costliest" in texts(state, AN)


def test_summon_costliest_is_met_even_if_no_enemy_can_place_anything():
    state = game(power=1)
    for s in (seat(state, GC), seat(state, BG)):
        state.gates = {a: h for a, h in state.gates.items() if not h or h[0] != s}
    state, _ = play(state, AN, "an-summon-costliest")
    assert "summon-costliest" in state.seats[seat(state, AN)].requirements
    assert state.seats[seat(state, GC)].units["starspawn"].count(POOL) == 2


def test_summon_costliest_offers_the_enemys_tied_choice_and_never_a_terror_or_goo():
    state = game(factions=(GC, BG, AN), power=1)
    state, _ = play(state, AN, "an-summon-costliest")
    gc = seat(state, GC)
    assert state.pending[0].seat == gc
    assert texts(state, GC) == {"an-free-summon starspawn south-pacific"}


@pytest.mark.parametrize(("ruling", "offered"), [("summon-areas", True), ("controlled-gates", False)])
def test_ruling_free_summons_at_they_break_through_gates(ruling, offered):
    state = game(factions=(GC, OW, AN), power=1, ancients_free_summon_gates=ruling)
    state.seats[seat(state, OW)].spellbooks = ["they-break-through"]
    state, _ = play(state, AN, "an-summon-cheapest")
    while state.pending[0].seat != seat(state, OW):
        s = state.pending[0].seat
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
    assert (f"an-free-summon mutant {HOME}" in texts(state, OW)) is offered


# ---- Dematerialization -------------------------------------------------------------------------
def test_dematerialization_moves_units_from_one_area_to_any_other_once_per_doom_phase_for_free():
    state = doom_turn(game())
    an = seat(state, AN)
    put(state, AN, "yothan", HOME)
    assert f"an-dematerialize {HOME}" in texts(state, AN), "offered at 0 Power"
    state, _ = play(state, AN, f"an-dematerialize {HOME}")
    assert "an-demat-to europe" in texts(state, AN) and f"an-demat-to {HOME}" not in texts(state, AN), "anywhere else"
    state, _ = play(state, AN, "an-demat-to europe")
    assert "done" not in texts(state, AN), "at least one figure goes"
    state, _ = play(state, AN, "an-demat-unit yothan")
    state, _ = play(state, AN, "an-demat-unit acolyte from-gate")
    assert state.controller(HOME) is None, "it left its Gate"
    state, _ = play(state, AN, "done")
    fs = state.seats[an]
    assert fs.units["yothan"].count("europe") == 1 and fs.units["acolyte"].count("europe") == 1 and fs.power == 0
    assert state.pending[0].kind == "ritual" and state.pending[0].seat == an, "the Doom-phase turn goes on"
    assert not any(t.startswith("an-dematerialize") for t in texts(state, AN)), "once per Doom phase"
    state.doom_phases += 1
    assert any(t.startswith("an-dematerialize") for t in texts(state, AN))


def test_brainless_lets_a_lone_reanimated_dematerialize():
    state = doom_turn(game(["brainless"]))
    put(state, AN, "reanimated", "europe")
    state, _ = play(state, AN, "an-dematerialize europe")
    state, _ = play(state, AN, "an-demat-to asia")
    assert texts(state, AN) == {"an-demat-unit reanimated"}


# ---- Festival, Brainless, Extinction ------------------------------------------------------------------
def test_festival_un_men_cost_nothing_and_give_a_chosen_enemy_one_power():
    state = game(["festival"], power=1)
    bg = seat(state, BG)
    before = state.seats[bg].power
    state, _ = play(state, AN, f"summon un-man {HOME}")
    assert state.pending[0].kind == "an-festival" and texts(state, AN) == {"an-festival great-cthulhu", "an-festival black-goat"}
    state, _ = play(state, AN, "an-festival black-goat")
    assert state.seats[bg].power == before + 1 and state.seats[seat(state, AN)].power == 1


def test_brainless_a_lone_reanimated_cannot_move_capture_or_declare_battle():
    state = game(["brainless"], power=5)
    put(state, AN, "reanimated", "africa")
    moves = texts(state, AN)
    assert not any(t.startswith("move reanimated africa") for t in moves)
    assert "capture africa vs black-goat" not in moves and "battle africa vs black-goat" not in moves
    put(state, AN, "un-man", "africa")
    moves = texts(state, AN)
    assert "move reanimated africa>asia" in moves and "capture africa vs black-goat" in moves
    assert "battle africa vs black-goat" in moves


def test_brainless_a_reanimated_follows_an_escort_that_left_first_but_not_one_that_arrived():
    state = game(["brainless"], power=5)
    put(state, AN, "reanimated", "africa")
    put(state, AN, "un-man", "africa")
    state, _ = play(state, AN, "move un-man africa>asia")
    assert "move reanimated africa>asia" in texts(state, AN)
    state = game(["brainless"], power=5)
    put(state, AN, "reanimated", "asia")
    put(state, AN, "un-man", "africa")
    state, _ = play(state, AN, "move un-man africa>asia")
    assert not any(t.startswith("move reanimated asia") for t in texts(state, AN))


def test_without_brainless_a_lone_reanimated_moves():
    state = game(power=5)
    put(state, AN, "reanimated", "africa")
    assert "move reanimated africa>asia" in texts(state, AN)


def test_brainless_a_lone_reanimated_still_defends_and_rolls():
    state = game(["brainless"])
    put(state, AN, "reanimated", "south-pacific")
    give_turn(state, GC, 5)
    assert "battle south-pacific vs ancients" not in texts(state, GC), "Great Cthulhu has no Combat there"
    put(state, GC, "starspawn", "south-pacific")
    state.rng = ScriptedDice([1] * 10)
    state, log = play(state, GC, "battle south-pacific vs ancients")
    assert any("ancients rolls 2 dice" in line for line in log)


@pytest.mark.parametrize(("books", "where"), [((), POOL), (("extinction",), GONE)])
def test_extinction_an_eliminated_yothan_leaves_the_game(books, where):
    state = game(books)
    an = seat(state, AN)
    put(state, AN, "yothan", "europe")
    board.eliminate(state, an, "yothan", state.seats[an].units["yothan"].index("europe"))
    assert where in state.seats[an].units["yothan"]
    if where == GONE:
        assert "1 Yothan extinct" in ENGINE.describe(state, None)
        state.seats[an].power = 20
        state.seats[an].units["yothan"] = [GONE] * 3
        assert not any(t.startswith("summon yothan") for t in texts(state, AN))


# ---- Unholy Ground -------------------------------------------------------------------------------
def unholy_game(books=("unholy-ground",), **options):
    state = game(books, power=5, **options)
    put(state, AN, "yothan", "south-pacific")
    state.seats[seat(state, AN)].flags["cathedrals"] = ["south-pacific", "europe"]
    state.rng = ScriptedDice([1] * 20)
    return state


def test_unholy_ground_removes_a_cathedral_and_the_enemy_eliminates_its_goo_in_the_battle():
    state = unholy_game()
    gc = seat(state, GC)
    put(state, GC, "cthulhu", "south-pacific")
    state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
    assert texts(state, AN) == {"an-unholy-ground south-pacific", "an-unholy-ground europe", "done"}
    state, _ = play(state, AN, "an-unholy-ground europe")
    assert state.seats[gc].units["cthulhu"][0] == POOL and cathedrals(state) == ["south-pacific"]
    assert state.seats[seat(state, AN)].units["yothan"].count("south-pacific") == 1


def test_unholy_ground_is_not_offered_without_its_book_or_an_enemy_goo_unless_the_ruling_allows():
    for books, options in ((("unholy-ground",), {}), ((), {"unholy_ground_without_goo": True})):
        state = unholy_game(books, **options)
        state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
        assert not any(t.startswith("an-unholy-ground") for t in texts(state, AN) if state.pending)
    state = unholy_game(unholy_ground_without_goo=True)
    state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
    assert "an-unholy-ground europe" in texts(state, AN)


def test_unholy_ground_needs_a_cathedral_in_the_battle_area():
    state = unholy_game()
    state.seats[seat(state, AN)].flags["cathedrals"] = ["europe"]
    put(state, GC, "cthulhu", "south-pacific")
    state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
    assert not any(t.startswith("an-unholy-ground") for t in texts(state, AN) if state.pending)


# ---- Consecration and Worship Services -------------------------------------------------------------------
@pytest.mark.parametrize(("built", "signs"), [(0, 0), (1, 1), (3, 1), (4, 2)])
def test_consecration_adds_elder_signs_to_a_ritual_by_cathedrals_in_play(built, signs):
    state = doom_turn(game(["consecration"]), power=10)
    an = seat(state, AN)
    state.seats[an].flags["cathedrals"] = ["antarctica", "africa", "europe", "north-america"][:built]
    state, _ = play(state, AN, "ritual")
    assert len(state.seats[an].elder_signs) == signs


def test_without_consecration_a_ritual_gives_the_ancients_no_elder_sign():
    state = doom_turn(game(), power=10)
    an = seat(state, AN)
    state.seats[an].flags["cathedrals"] = ["antarctica", "africa", "europe", "north-america"]
    state, _ = play(state, AN, "ritual")
    assert state.seats[an].elder_signs == []


@pytest.mark.parametrize("abandoned", [False, True])
def test_worship_services_pays_both_sides_for_cathedrals_at_enemy_gates(abandoned):
    state = game(["worship-services"], worship_services_abandoned_gates=abandoned)
    an, bg, gc = seat(state, AN), seat(state, BG), seat(state, GC)
    before = [r.gathered for r in projected_gather(state)]
    state.seats[an].flags["cathedrals"] = ["africa", "south-pacific", "europe"]
    state.gates["europe"] = None  # an Abandoned Gate
    after = [r.gathered for r in projected_gather(state)]
    # the Abandoned Gate itself gives everyone 1 Power
    assert after[bg] == before[bg] + 1 + 1 and after[gc] == before[gc] + 1 + 1
    assert after[an] == before[an] + 1 + 2 + (1 if abandoned else 0)


def test_worship_services_needs_its_book():
    state = game()
    an = seat(state, AN)
    before = projected_gather(state)[an].gathered
    state.seats[an].flags["cathedrals"] = ["africa"]
    assert projected_gather(state)[an].gathered == before


# ---- what everyone sees, refusals, random games ------------------------------------------------------
def test_cathedrals_show_in_the_position_and_the_picture():
    state = game()
    drawn = [getattr(item, "text", "") for item in ENGINE.draw(state, None, frozenset()).shapes]
    assert drawn.count("Yothan (Terror)") == 1 and "a Terror" in drawn, "the key shows a Terror while none is out"
    assert "Cathedral" not in drawn and "a building, not a Gate" not in drawn
    state.seats[seat(state, AN)].flags["cathedrals"] = ["africa"]
    text = ENGINE.describe(state, None)
    assert "africa: Cathedral of ancients" in text and "Cathedrals 1/4" in text
    put(state, AN, "yothan", "africa")
    drawn = [getattr(item, "text", "") for item in ENGINE.draw(state, None, frozenset()).shapes]
    assert drawn.count("Cathedral") == 2 and drawn.count("Yothan (Terror)") == 2, "on the map and in the key"
    assert "a building, not a Gate" in drawn


def test_a_refused_ancients_move_cites_its_section():
    state = game(power=0)
    state.seats[seat(state, AN)].power = 1
    with pytest.raises(IllegalMove) as err:
        play(state, AN, "an-cathedral europe")
    assert err.value.rule == "cthulhu-wars/ancients"
    with pytest.raises(IllegalMove) as err:
        play(state, AN, "an-festival black-goat")
    assert err.value.rule == "cthulhu-wars/ancients-festival"


TABLES = [[AN, GC, BG], [BG, AN, OW, WW], [GC, WW, AN, OW, "yellow-sign"],
          [AN, GC, WW, "sleeper", OW, "crawling-chaos"]]  # fmt: skip
#: (table, map): 3-5 players on Earth and the Dreamlands, 6 on the 6-player Earth map.
RANDOM_TABLES = [(t, m) for t in range(3) for m in ("earth", "dreamlands")] + [(3, "earth")]


@pytest.mark.parametrize(("table", "map_name"), RANDOM_TABLES)
def test_random_games_with_the_ancients_end_and_keep_the_invariants(table, map_name):
    from .test_cw_random_games import check_invariants

    seen: set[str] = set()

    def check(before, after, s, action):
        check_invariants(before, after, s, action)
        seen.add(action.kind)

    factions = TABLES[table]
    state, _ = random_game(len(factions), 7 + table, check, {"factions": factions, "map": map_name})
    assert ENGINE.outcome(state) is not None
    assert "an-dematerialize" in seen


@pytest.mark.parametrize(("query", "section"), [
    ("how much does a cathedral cost", "ancients"), ("what does unholy ground do", "ancients-unholy-ground"),
    ("worship services power", "ancients-worship-services"), ("dematerialization", "ancients"),
])  # fmt: skip
def test_rules_search_finds_the_ancients_sections(query, section):
    from tabletop import rulebook

    hits = rulebook.search(query, "cthulhu-wars", limit=3).hits
    assert section in [h.passage.section.id for h in hits]


# ---- bots ------------------------------------------------------------------------------------------
ANCIENTS_DECISIONS = {"an-demat-target", "an-demat-units", "an-free-summon", "an-festival", "an-unholy-ground"}


def test_the_heuristic_and_search_bots_answer_the_ancients_decisions_legally():
    """The bots answer each of the Ancients' own decisions (and their turn and Doom-phase choices) legally."""
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot

    bots = [CwHeuristicBot(3), CwSearchBot(3, seconds=None, iterations=4)]
    asked = []
    state = doom_turn(game(["festival", "unholy-ground"]))
    put(state, AN, "yothan", HOME)
    asked.append(state)  # the Doom-phase turn with Dematerialization
    after, _ = play(state, AN, f"an-dematerialize {HOME}")
    asked.append(after)  # where to
    asked.append(play(after, AN, "an-demat-to europe")[0])  # which figures go
    state = game(["festival"], power=1)
    asked.append(play(state, AN, f"summon un-man {HOME}")[0])  # Festival's enemy
    state = game(power=1)
    asked.append(play(state, AN, "an-summon-costliest")[0])  # an enemy's free Summon
    state = unholy_game()
    put(state, GC, "cthulhu", "south-pacific")
    asked.append(play(state, AN, "battle south-pacific vs great-cthulhu")[0])  # Unholy Ground
    kinds = {s.pending[0].kind for s in asked}
    assert ANCIENTS_DECISIONS <= kinds | {"ritual"} and "ritual" in kinds
    for position in asked:
        who = ENGINE.to_move(position)[0]
        legal = ENGINE.legal_actions(position, who)
        for bot in bots:
            assert bot.choose(ENGINE, position, who) in legal


@pytest.mark.parametrize("map_name", ["earth", "dreamlands"])
def test_heuristic_bots_play_a_table_with_the_ancients_legally(map_name):
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot

    state = ENGINE.new_game(ENGINE.read_options({"factions": [AN, GC, OW, WW], "map": map_name}), 4, 5)
    bots = [CwHeuristicBot(10 + s) for s in range(4)]
    played = set()
    for _ in range(200):
        if not ENGINE.to_move(state):
            break
        who = ENGINE.to_move(state)[0]
        action = bots[who].choose(ENGINE, state, who)
        assert action in ENGINE.legal_actions(state, who)
        if who == seat(state, AN):
            played.add(action.kind)
        state, _ = ENGINE.apply(state, who, action)
    assert played & {"an-cathedral", "an-summon-cheapest", "an-summon-costliest", "an-dematerialize"}, played


def test_refusals_say_why_in_the_ancients_own_terms():
    state = game(["brainless"], power=5)
    with pytest.raises(IllegalMove) as err:
        play(state, AN, "an-cathedral europe")
    assert "needs an Acolyte" in str(err.value)
    state.seats[seat(state, AN)].flags["cathedrals"] = ["africa"]
    acolyte_to(state, "asia")  # claw, like Europe; Africa is arrow like Australia
    with pytest.raises(IllegalMove) as err:
        play(state, AN, f"an-cathedral {HOME}")
    assert "africa already has the arrow one" in str(err.value)
    put(state, AN, "reanimated", "europe")
    with pytest.raises(IllegalMove) as err:
        play(state, AN, "move reanimated europe>asia")
    assert "Brainless" in str(err.value)


@pytest.mark.parametrize("yog_counts", [True, False])
def test_worship_services_counts_a_cathedral_once_for_the_ancients_and_once_for_each_enemy_gate_there(yog_counts):
    """A Cathedral sharing its Area with Great Cthulhu's Gate and Yog-Sothoth (a Gate of Opener of the Way): the
    Ancients gain 1, and each of the two enemies 1 (Opener of the Way nothing under HRF's reading)."""
    state = game(["worship-services"], factions=(GC, OW, AN), worship_services_counts_yog_sothoth=yog_counts)
    an, gc, ow = seat(state, AN), seat(state, GC), seat(state, OW)
    put(state, OW, "yog-sothoth", "south-pacific")  # beside Great Cthulhu's start Gate
    before = [r.gathered for r in projected_gather(state)]
    state.seats[an].flags["cathedrals"] = ["south-pacific"]
    after = [r.gathered for r in projected_gather(state)]
    assert (after[an] - before[an], after[gc] - before[gc], after[ow] - before[ow]) == (1, 1, int(yog_counts))
    assert ENGINE.view(state, None)["factions"][an]["buildings"] == {"south-pacific": "cathedral"}


def test_abduct_invisibility_berserkergang_avatar_and_capture_monster_never_take_a_terror():
    """Abilities naming Monsters (or Monsters and Cultists) do not reach a Yothan (rules_text ancients, Terrors)."""
    from tabletop.games.cthulhu_wars.factions import FACTIONS

    state = game(factions=("crawling-chaos", "sleeper", AN))
    an, sl = seat(state, AN), seat(state, "sleeper")
    put(state, AN, "yothan", "europe")
    battle = {"area": "europe", "attacker": sl, "defender": an, "exempt": []}
    state.battle = battle
    assert FACTIONS["crawling-chaos"].exposed_units(state, an, battle) == []
    assert FACTIONS["windwalker"].berserk_options(state, an) == []
    assert FACTIONS["black-goat"].swappable(state, an, "europe") == []
    state.battle = None
    put(state, "sleeper", "tsathoggua", "europe")
    state.seats[sl].spellbooks = ["capture-monster"]
    state.seats[sl].power = 5
    assert FACTIONS["sleeper"].capture_monster_options(state, sl) == []
    put(state, AN, "un-man", "europe")
    assert [a.enemy for a in FACTIONS["sleeper"].capture_monster_options(state, sl)] == [AN]


def test_every_ancients_action_cites_a_section_that_exists():
    from tabletop import rulebook
    from tabletop.games.cthulhu_wars.engine import kind_of
    from tabletop.games.cthulhu_wars.factions import FACTIONS

    faction = FACTIONS[AN]
    for model in faction.action_models:
        rule = ENGINE.rule_for(model.model_construct(kind=kind_of(model)))
        assert rule.startswith("cthulhu-wars/ancients") and rulebook.find_section(*rule.split("/")) is not None, rule
    for book in faction.spellbooks:
        assert rulebook.find_section("cthulhu-wars", f"ancients-{book.name}") is not None, book.name


def test_the_bots_see_progress_towards_a_cathedral_class_where_an_acolyte_stands():
    from tabletop.bots.cthulhu_wars.knowledge import BY_NAME

    state = game()
    an = seat(state, AN)
    snake = BY_NAME["cathedral-snake"]
    far = snake(state, an, None)
    acolyte_to(state, "south-america")  # snake glyph
    assert snake(state, an, None) > far
    assert BY_NAME["cathedral-arrow"](state, an, None) == snake(state, an, None), "Australia: arrow"


def test_unholy_ground_on_nyogtha_eliminates_the_figure_in_the_battle_and_the_card_stays():
    """Ruling unholy-ground-nyogtha (rules_text cthulhu-wars/igoo-nyogtha): one figure, not both."""
    state = unholy_game(igoo_nyogtha=True)
    gc = seat(state, GC)
    state.seats[gc].units["nyogtha"] = ["south-pacific", "north-pacific"]
    state.seats[gc].flags.setdefault("igoo-at", {})["nyogtha"] = "south-pacific"
    state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
    state, _ = play(state, AN, "an-unholy-ground europe")
    while state.pending and state.pending[0].seat == gc:
        state, _ = ENGINE.apply(state, gc, ENGINE.legal_actions(state, gc)[0])
    assert sorted(state.seats[gc].units["nyogtha"]) == sorted([POOL, "north-pacific"])
    assert "nyogtha" in state.seats[gc].units, "the card stays with one figure in play"


def nyogtha_under_unholy_ground(**options):
    """Great Cthulhu holds Nyogtha, one figure in the Ancients' battle (south-pacific, a Cathedral there) and one in
    north-pacific; the Ancients attack and remove their europe Cathedral."""
    state = unholy_game(igoo_nyogtha=True, **options)
    gc = seat(state, GC)
    state.seats[gc].units["nyogtha"] = ["south-pacific", "north-pacific"]
    state.seats[gc].flags.setdefault("igoo-at", {})["nyogtha"] = "south-pacific"
    state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
    return state, gc


def test_unholy_ground_on_nyogtha_takes_both_figures_with_the_hrf_option():
    """Option unholy_ground_both_nyogtha (ruling unholy-ground-nyogtha): HRF's reading, both figures wherever they
    stand; the card then goes back (ruling igoo-death)."""
    state, gc = nyogtha_under_unholy_ground(unholy_ground_both_nyogtha=True)
    state, log = play(state, AN, "an-unholy-ground europe")
    assert any("other Nyogtha figure, in north-pacific, goes too" in line for line in log)
    assert "nyogtha" not in state.seats[gc].units, "no figure left in play: the card is gone"


@pytest.mark.parametrize("both", [False, True])
@pytest.mark.parametrize("pick", ["nyogtha", "cthulhu"])
def test_the_enemy_picks_the_great_old_one_unholy_ground_takes(both, pick):
    """With two Great Old Ones in the battle the enemy chooses (an-unholy-loss); Nyogtha's figure elsewhere goes too
    only with the option, and only when Nyogtha is the pick."""
    state, gc = nyogtha_under_unholy_ground(unholy_ground_both_nyogtha=both)
    put(state, GC, "cthulhu", "south-pacific")
    state, _ = play(state, AN, "an-unholy-ground europe")
    assert state.pending[0].kind == "an-unholy-loss" and state.pending[0].seat == gc
    assert texts(state, GC) == {"an-unholy-loss cthulhu", "an-unholy-loss nyogtha"}
    state, _ = play(state, GC, f"an-unholy-loss {pick}")
    far = state.seats[gc].units.get("nyogtha", [POOL, POOL])[1]
    assert far == (POOL if both and pick == "nyogtha" else "north-pacific")
    assert (state.seats[gc].units["cthulhu"][0] == POOL) is (pick == "cthulhu")
    assert texts(state, AN) == {"an-unholy-ground south-pacific", "done"}, "again: a Cathedral and a GOO remain"


def test_the_bots_answer_the_enemys_unholy_ground_pick_legally():
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot

    state, gc = nyogtha_under_unholy_ground()
    put(state, GC, "cthulhu", "south-pacific")
    state, _ = play(state, AN, "an-unholy-ground europe")
    assert state.pending[0].kind == "an-unholy-loss"
    legal = ENGINE.legal_actions(state, gc)
    for bot in (CwHeuristicBot(3), CwSearchBot(3, seconds=None, iterations=4)):
        assert bot.choose(ENGINE, state, gc) in legal


@pytest.mark.parametrize("timing", ["after-pains", "before-pains"])
def test_unholy_grounds_timing_decides_where_a_pain_falls(timing):
    """Option unholy_ground_timing (ruling ancients-unholy-ground). One Pain on Great Cthulhu's side: post-battle (the
    card) the Pain is given out first, so Cthulhu may take it and every Acolyte stays; before the Pains (HRF) Cthulhu
    is already gone and the Pain must fall on an Acolyte, which retreats."""
    state = unholy_game(unholy_ground_timing=timing)
    gc = seat(state, GC)
    put(state, GC, "cthulhu", "south-pacific")
    acolytes = state.seats[gc].units["acolyte"].count("south-pacific")
    assert acolytes > 0
    state.rng = ScriptedDice([4] + [1] * 30)  # the Ancients' Yothan rolls first: one Pain
    state, _ = play(state, AN, "battle south-pacific vs great-cthulhu")
    if timing == "after-pains":
        assert state.pending[0].kind == "assign" and state.pending[0].seat == gc
        state, _ = play(state, GC, "assign pain cthulhu")
    assert texts(state, AN) == {"an-unholy-ground south-pacific", "an-unholy-ground europe", "done"}
    state, _ = play(state, AN, "an-unholy-ground europe")
    for _ in range(10):
        if state.battle is None:
            break
        s = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
    assert state.seats[gc].units["cthulhu"][0] == POOL
    left = acolytes - state.seats[gc].units["acolyte"].count("south-pacific")
    assert left == (0 if timing == "after-pains" else 1)
