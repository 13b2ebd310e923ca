"""Neutral spellbooks, a game option (rules_text ``cthulhu-wars/neutral-spellbooks`` and a section per book): the
pool taken instead of a faction's own book, each book once, and each built book at its timing (Umr at-Tawil,
The Stars Are Right, The Mao Ceremony)."""

import random

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board, phases
from tabletop.games.cthulhu_wars.neutrals import spellbooks as ns
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL, Pending

from .cw_helpers import BG, CC, GC, WW, ScriptedDice, give_turn, new_game, play, put, seat, seated, texts

UMR, STARS, MAO = "umr-at-tawil", "stars-are-right", "mao-ceremony"


def ns_game(players=3, **options):
    return new_game(players, neutral_spellbooks=True, **options)


def ask_spellbook(state, faction):
    s = seat(state, faction)
    state.turn = None
    state.pending = [Pending(s, "spellbook", {"requirement": "test"})]
    return s


def everyone_passes(state):
    """Every seat passes (and passes in the windows) until the window at the end of Gather Power, or past it."""
    def reached(state):
        first = state.pending[0] if state.pending else None
        return first is not None and (first.kind in ("first-player", "direction") or first.data.get("context") == "gather")

    while state.phase == "action" and not reached(state):
        s = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, s, ENGINE.parse("done" if state.pending else "pass", state, s))
    return state


def doom_decision(state, faction, power=0):
    s = seat(state, faction)
    state.phase, state.turn = "doom", None
    state.seats[s].power = power
    state.doom_queue = [s]
    phases.next_ritual(state, [])
    assert state.pending[0].kind == "ritual" and state.pending[0].seat == s
    return s


# ---- the option and the pool --------------------------------------------------------------------------------
def test_off_by_default_no_neutral_book_is_offered_and_its_moves_are_refused_citing_the_option():
    assert not CthulhuWarsOptions().neutral_spellbooks
    state = new_game(3)
    ask_spellbook(state, GC)
    assert not {f"spellbook {b}" for b in (UMR, STARS, MAO)} & texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, f"spellbook {UMR}")
    assert "game option neutral_spellbooks" in str(err.value) and err.value.rule == "cthulhu-wars/neutral-umr-at-tawil"
    state = new_game(3)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "mao-ceremony acolyte south-pacific")
    assert "game option neutral_spellbooks" in str(err.value)
    assert err.value.rule == "cthulhu-wars/neutral-mao-ceremony"


def test_a_met_requirement_offers_the_built_neutral_books_beside_the_factions_own():
    state = ns_game()
    ask_spellbook(state, GC)
    offered = texts(state, GC)
    assert {f"spellbook {b}" for b in ns.BOOKS} <= offered
    assert {f"spellbook {b.name}" for b in board.faction_of(state, seat(state, GC)).spellbooks} <= offered
    assert len(offered) == 6 + len(ns.BOOKS)


def test_the_spellbook_question_names_the_pool():
    state = ns_game()
    gc = ask_spellbook(state, GC)
    assert "or one of the 6 neutral spellbooks in the pool" in ENGINE.owed(state, gc)
    state.seats[seat(state, CC)].spellbooks.append(UMR)
    assert "6 remaining spellbooks or one of the 5 neutral" in ENGINE.owed(state, gc)
    state = new_game(3)
    ask_spellbook(state, GC)
    assert "pool" not in ENGINE.owed(state, gc)


def test_a_neutral_book_fills_one_of_the_six_slots_instead_of_a_faction_book():
    state = ns_game()
    gc = ask_spellbook(state, GC)
    state, _ = play(state, GC, f"spellbook {UMR}")
    assert state.seats[gc].spellbooks == [UMR]
    own = [b.name for b in board.faction_of(state, gc).spellbooks]
    state.seats[gc].spellbooks += own[:5]
    assert len(state.seats[gc].spellbooks) == 6  # six slots full with one faction book never taken
    ask_spellbook(state, GC)
    assert f"spellbook {own[5]}" in texts(state, GC)
    drawn = " ".join(getattr(item, "text", "") for item in ENGINE.draw(state, None, frozenset()).shapes)
    assert "Umr at-Tawil" in drawn and UMR not in drawn, "the picture names a neutral book by its title"


def test_each_book_exists_once_and_a_book_leaving_its_holder_is_back_in_the_pool():
    state = ns_game()
    gc = ask_spellbook(state, GC)
    state, _ = play(state, GC, f"spellbook {UMR}")
    ask_spellbook(state, CC)
    assert f"spellbook {UMR}" not in texts(state, CC)
    with pytest.raises(IllegalMove) as err:
        play(state, CC, f"spellbook {UMR}")
    assert f"{GC} holds Umr at-Tawil" in str(err.value) and err.value.rule == "cthulhu-wars/neutral-umr-at-tawil"
    ask_spellbook(state, GC)
    assert f"spellbook {UMR}" not in texts(state, GC), "its holder cannot take it twice"
    state.seats[gc].spellbooks.remove(UMR)  # as a discard would
    ask_spellbook(state, CC)
    assert f"spellbook {UMR}" in texts(state, CC)


def test_the_rules_sections_of_the_books_exist():
    from tabletop import rulebook

    for section in ("neutral-spellbooks", *ns.SECTIONS.values()):
        assert rulebook.find_section("cthulhu-wars", section) is not None, section


@pytest.mark.parametrize("query,section", [
    ("can I take a neutral spellbook instead of my own", "neutral-spellbooks"),
    ("Shriveling refund cost", "neutral-shriveling"),
    ("Recriminations discard spellbook", "neutral-recriminations"),
    ("Undimensioned rearrange units", "neutral-undimensioned"),
    ("Umr at-Tawil gate cost", "neutral-umr-at-tawil"),
    ("Stars Are Right reveal Elder Signs power", "neutral-stars-are-right"),
])
def test_the_rules_search_finds_each_books_section(query, section):
    from tabletop import rulebook

    assert rulebook.search(query, "cthulhu-wars", 3).hits[0].passage.uri.startswith(f"rules://cthulhu-wars/{section}#")


# ---- Umr at-Tawil --------------------------------------------------------------------------------------------
def test_umr_at_tawil_gates_cost_two_and_two_power_is_enough():
    state = ns_game()
    gc = seat(state, GC)
    state.seats[gc].spellbooks.append(UMR)
    state.seats[seat(state, GC)].units["acolyte"][5] = "north-pacific"
    give_turn(state, GC, power=2)
    assert "gate north-pacific" in texts(state, GC)
    state, _ = play(state, GC, "gate north-pacific")
    assert state.seats[gc].power == 0 and state.gates["north-pacific"][0] == gc


def test_umr_at_tawil_the_legal_moves_say_a_gate_costs_two():
    state = ns_game()
    gc = seat(state, GC)
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    give_turn(state, GC, power=5)
    assert "Build Gate (3 Power)" in [g.title for g in ENGINE.legal_moves(state, gc).groups]
    state.seats[gc].spellbooks.append(UMR)
    assert "Build Gate (2 Power)" in [g.title for g in ENGINE.legal_moves(state, gc).groups]


def test_umr_at_tawil_one_power_is_not_enough():
    state = ns_game()
    gc = seat(state, GC)
    state.seats[gc].spellbooks.append(UMR)
    state.seats[seat(state, GC)].units["acolyte"][5] = "north-pacific"
    give_turn(state, GC, power=1)
    assert "gate north-pacific" not in texts(state, GC)


def test_without_umr_at_tawil_two_power_builds_no_gate_and_the_holder_alone_pays_less():
    state = ns_game()
    cc = seat(state, CC)
    state.seats[cc].spellbooks.append(UMR)
    state.seats[seat(state, GC)].units["acolyte"][5] = "north-pacific"
    give_turn(state, GC, power=2)
    assert "gate north-pacific" not in texts(state, GC)
    give_turn(state, GC, power=3)
    state, _ = play(state, GC, "gate north-pacific")
    assert state.seats[seat(state, GC)].power == 0


# ---- The Stars Are Right -------------------------------------------------------------------------------------
def test_stars_are_right_a_doom_phase_reveal_also_gives_power():
    state = ns_game()
    gc = doom_decision(ns_game_with_signs(state, GC, [2, 3], books=[STARS]), GC)
    state, _ = play(state, GC, "reveal")
    assert (state.seats[gc].doom, state.seats[gc].power) == (5, 5)


def ns_game_with_signs(state, faction, signs, books=()):
    s = seat(state, faction)
    state.seats[s].elder_signs = list(signs)
    state.seats[s].doom = 0
    state.seats[s].spellbooks += list(books)
    return state


def test_without_stars_are_right_a_doom_phase_reveal_gives_no_power():
    state = ns_game()
    gc = doom_decision(ns_game_with_signs(state, GC, [2, 3]), GC)
    state, _ = play(state, GC, "reveal")
    assert (state.seats[gc].doom, state.seats[gc].power) == (5, 0)


def test_stars_are_right_an_action_phase_reveal_gives_no_power():
    state = ns_game_with_signs(ns_game(), GC, [3], books=[STARS])
    gc = seat(state, GC)
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "reveal")
    assert (state.seats[gc].doom, state.seats[gc].power) == (3, 4)


def test_stars_are_right_counts_an_out_of_turn_reveal_in_the_doom_phase():
    state = ns_game_with_signs(ns_game(), CC, [1, 2], books=[STARS])
    cc = seat(state, CC)
    doom_decision(state, GC, power=20)
    state.seats[seat(state, GC)].elder_signs = []
    state, _ = play(state, GC, "no-ritual")
    assert state.pending[0].kind == "window" and cc in ENGINE.to_move(state)
    power = state.seats[cc].power
    state, _ = play(state, CC, "reveal")
    assert (state.seats[cc].doom, state.seats[cc].power) == (3, power + 3)


# ---- The Mao Ceremony ----------------------------------------------------------------------------------------
def mao_game():
    state = ns_game()
    state.seats[seat(state, CC)].spellbooks.append(MAO)
    return state


def test_mao_ceremony_comes_after_gather_power_and_each_cultist_gives_one_power():
    state = mao_game()
    cc = seat(state, CC)
    state.seats[seat(state, CC)].units["acolyte"][4:6] = ["europe", "europe"]
    state = everyone_passes(state)
    assert state.pending[0].data["context"] == "gather" and ENGINE.to_move(state) == [cc]
    gathered = state.seats[cc].power
    assert "mao-ceremony acolyte europe" in texts(state, CC)
    state, _ = play(state, CC, "mao-ceremony acolyte europe")
    assert state.seats[cc].power == gathered + 1
    assert state.seats[cc].units["acolyte"].count("europe") == 1
    state, _ = play(state, CC, "mao-ceremony acolyte europe")
    assert state.seats[cc].power == gathered + 2 and "europe" not in state.seats[cc].units["acolyte"]
    state, _ = play(state, CC, "done")
    assert state.pending[0].kind in ("direction", "first-player")


def test_mao_ceremony_power_counts_for_the_first_player():
    state = mao_game()
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[seat(state, CC)].units["acolyte"][4:6] = ["europe", "europe"]
    state.seats[gc].units["acolyte"][5] = "north-pacific"  # a second Gate: Great Cthulhu gathers more
    state.gates["north-pacific"] = (gc, "acolyte", 5)
    state = everyone_passes(state)
    lead = state.seats[gc].power - state.seats[cc].power
    assert lead > 0
    sacrificed = 0
    while state.seats[cc].power <= state.seats[gc].power:
        area = next(p for p in state.seats[cc].units["acolyte"] if board.on_map(p))
        state, _ = play(state, CC, f"mao-ceremony acolyte {area}")
        sacrificed += 1
    if state.pending[0].kind == "window":
        state, _ = play(state, CC, "done")
    assert state.first_player == cc and sacrificed == lead + 1


def test_mao_ceremony_comes_after_the_minimum_power_rule():
    state = mao_game()
    cc = seat(state, CC)
    state = everyone_passes(state)
    raw = phases.gather_power(phases.power_sources(state, cc, None)).total
    assert state.seats[cc].power >= raw  # the Minimum Power Rule already applied
    before = state.seats[cc].power
    area = next(p for p in state.seats[cc].units["acolyte"] if board.on_map(p))
    state, _ = play(state, CC, f"mao-ceremony acolyte {area}")
    assert state.seats[cc].power == before + 1


def test_mao_ceremony_keeps_a_gate_when_another_cultist_stands_there_and_loses_it_with_the_last():
    state = mao_game()
    cc = seat(state, CC)
    gate_area = next(a for a, h in state.gates.items() if h and h[0] == cc)
    state.seats[cc].units["acolyte"][5] = gate_area
    state = everyone_passes(state)
    state, _ = play(state, CC, f"mao-ceremony acolyte {gate_area}")
    assert state.gates[gate_area] is not None and state.gates[gate_area][0] == cc
    while state.seats[cc].units["acolyte"].count(gate_area):
        state, _ = play(state, CC, f"mao-ceremony acolyte {gate_area}")
    assert state.gates[gate_area] is None


def test_mao_ceremony_offers_only_cultists_on_the_map_and_nothing_without_the_book():
    state = ns_game()
    state = everyone_passes(state)
    assert not (state.pending and state.pending[0].kind == "window"), "no Mao holder: no window"
    state = mao_game()
    cc = seat(state, CC)
    for i, p in enumerate(state.seats[cc].units["acolyte"]):
        if board.on_map(p):
            board.eliminate(state, cc, "acolyte", i)
    state = everyone_passes(state)
    assert not (state.pending and state.pending[0].kind == "window")
    assert POOL in state.seats[cc].units["acolyte"]


def submerged_mao(**options):
    """Great Cthulhu holds The Mao Ceremony with an Acolyte Submerged on its card; Gather Power is over."""
    state = ns_game(**options)
    gc = seat(state, GC)
    state.seats[gc].spellbooks.append(MAO)
    state.seats[gc].units["acolyte"][5] = "@card"
    return everyone_passes(state)


def test_mao_ceremony_takes_a_submerged_cultist_by_default():
    state = submerged_mao()
    gc = seat(state, GC)
    assert "mao-ceremony acolyte submerged" in texts(state, GC)
    power = state.seats[gc].power
    state, _ = play(state, GC, "mao-ceremony acolyte submerged")
    assert "@card" not in state.seats[gc].units["acolyte"] and state.seats[gc].power == power + 1


def test_mao_ceremony_on_the_map_option_keeps_a_submerged_cultist():
    state = submerged_mao(mao_ceremony_cultists="on-the-map")
    assert "mao-ceremony acolyte submerged" not in texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "mao-ceremony acolyte submerged")
    assert "mao_ceremony_cultists" in str(err.value)


def test_mao_ceremony_outside_gather_power_is_refused_citing_its_section():
    state = mao_game()
    give_turn(state, CC, power=4)
    area = next(p for p in state.seats[seat(state, CC)].units["acolyte"] if board.on_map(p))
    with pytest.raises(IllegalMove) as err:
        play(state, CC, f"mao-ceremony acolyte {area}")
    assert "end of Gather Power" in str(err.value) and err.value.rule == "cthulhu-wars/neutral-mao-ceremony"


def test_the_window_text_names_the_mao_ceremony():
    state = mao_game()
    state = everyone_passes(state)
    assert "mao-ceremony" in ENGINE.decision_text(state, seat(state, CC))


# ---- Shriveling --------------------------------------------------------------------------------------------
SHRIVEL, RECRIM = "shriveling", "recriminations"


def shrivel_battle(holder=CC, rolls=12):
    """Crawling Chaos (a Flying Polyp) battles Great Cthulhu (a Deep One, a Shoggoth) in north-pacific; ``holder``
    holds Shriveling."""
    state = ns_game()
    state.seats[seat(state, holder)].spellbooks.append(SHRIVEL)
    give_turn(state, CC, power=3)
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    put(state, GC, "shoggoth", "north-pacific")
    state.rng = ScriptedDice([1] * rolls)
    state, _ = play(state, CC, "battle north-pacific vs great")
    return state


def test_shriveling_is_offered_before_the_dice_for_each_enemy_monster_or_cultist_type():
    state = shrivel_battle()
    assert state.pending[0].kind == "pre-battle" and ENGINE.to_move(state) == [seat(state, CC)]
    assert {"shriveling deep-one", "shriveling shoggoth", "proceed"} <= texts(state, CC)


def test_shriveling_eliminates_the_unit_and_its_owner_gains_its_cost_once_per_battle():
    state = shrivel_battle()
    gc = seat(state, GC)
    power = state.seats[gc].power
    state, log = play(state, CC, "shriveling shoggoth")
    assert "north-pacific" not in state.seats[gc].units["shoggoth"]
    assert state.seats[gc].power == power + 2
    assert state.battle is None or not (state.pending and state.pending[0].kind == "pre-battle"
                                        and state.pending[0].seat == seat(state, CC)), "once per battle"
    assert any(line.startswith("Shriveling:") for line in log)


def test_shriveling_refunds_a_cultist_its_recruit_cost_and_a_deep_one_one():
    state = shrivel_battle()
    gc = seat(state, GC)
    power = state.seats[gc].power
    state, _ = play(state, CC, "shriveling deep-one")
    assert state.seats[gc].power == power + 1


def test_the_defender_may_shrivel_too():
    state = shrivel_battle(holder=GC)
    assert ENGINE.to_move(state) == [seat(state, GC)] and state.pending[0].kind == "pre-battle"
    assert texts(state, GC) == {"shriveling flying-polyp", "proceed"}
    cc = seat(state, CC)
    power = state.seats[cc].power
    state, _ = play(state, GC, "shriveling flying-polyp")
    assert "north-pacific" not in state.seats[cc].units["flying-polyp"] and state.seats[cc].power == power + 2


def test_shriveling_never_takes_a_great_old_one():
    state = ns_game()
    state.seats[seat(state, CC)].spellbooks.append(SHRIVEL)
    give_turn(state, CC, power=3)
    put(state, CC, "flying-polyp", "north-pacific")
    state.seats[seat(state, GC)].units["cthulhu"] = ["north-pacific"]
    state.rng = ScriptedDice([1] * 12)
    state, _ = play(state, CC, "battle north-pacific vs great")
    assert not (state.pending and state.pending[0].kind == "pre-battle" and state.pending[0].seat == seat(state, CC))


def test_shriveling_refund_is_the_current_cost_a_ghoul_under_the_thousand_young_gives_nothing():
    state = new_game(3, factions=[GC, CC, BG], neutral_spellbooks=True)
    bg = seat(state, BG)
    state.seats[seat(state, CC)].spellbooks.append(SHRIVEL)
    state.seats[bg].spellbooks.append("thousand-young")
    give_turn(state, CC, power=3)
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, BG, "ghoul", "north-pacific")
    state.seats[bg].units["shub-niggurath"] = ["north-pacific"]
    state.rng = ScriptedDice([1] * 12)
    state, _ = play(state, CC, "battle north-pacific vs black")
    power = state.seats[bg].power
    state, _ = play(state, CC, "shriveling ghoul")
    assert state.seats[bg].power == power


def test_battle_odds_say_that_shriveling_may_take_a_unit_first():
    state = ns_game()
    cc, gc = seat(state, CC), seat(state, GC)
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    assert "Shriveling" not in (preview(state, cc, gc).defender_note or "")
    state.seats[cc].spellbooks.append(SHRIVEL)
    assert "Shriveling: crawling-chaos may eliminate" in preview(state, cc, gc).defender_note


def preview(state, attacker, defender):
    from tabletop.games.cthulhu_wars.battle import battle_preview

    return battle_preview(state, attacker, "north-pacific", defender)


def test_shriveling_outside_a_pre_battle_decision_is_refused_citing_its_section():
    state = ns_game()
    state.seats[seat(state, CC)].spellbooks.append(SHRIVEL)
    give_turn(state, CC, power=3)
    with pytest.raises(IllegalMove) as err:
        play(state, CC, "shriveling deep-one")
    assert "pre-battle" in str(err.value) and err.value.rule == "cthulhu-wars/neutral-shriveling"


# ---- Recriminations ----------------------------------------------------------------------------------------
def recrim_game(books, power=1):
    state = ns_game()
    state.seats[seat(state, CC)].spellbooks = list(books)
    give_turn(state, CC, power=power)
    return state


def test_recriminations_costs_one_power_and_swaps_itself_for_a_pool_book_which_it_returns_to_the_pool():
    state = recrim_game([RECRIM])
    cc = seat(state, CC)
    assert f"recriminations {RECRIM} {UMR}" in texts(state, CC)
    assert f"recriminations {RECRIM} {RECRIM}" not in texts(state, CC)
    state, _ = play(state, CC, f"recriminations {RECRIM} {UMR}")
    assert state.seats[cc].spellbooks == [UMR] and state.seats[cc].power == 0
    ask_spellbook(state, GC)
    assert f"spellbook {RECRIM}" in texts(state, GC), "the discarded neutral book is back in the pool"


def test_recriminations_is_an_action_that_needs_one_power():
    state = recrim_game([RECRIM], power=0)
    state.seats[seat(state, CC)].power = 0
    assert not any(t.startswith("recriminations") for t in texts(state, CC))
    state = recrim_game([RECRIM], power=3)
    state, _ = play(state, CC, f"recriminations {RECRIM} {STARS}")
    assert state.turn.seat == seat(state, CC) and state.turn.acted, "it is the turn's action"
    assert not any(t.startswith("recriminations") for t in texts(state, CC))


def test_recriminations_a_discarded_faction_book_can_be_taken_again_later():
    state = recrim_game(["thousand-forms", RECRIM], power=2)
    cc = seat(state, CC)
    state, _ = play(state, CC, f"recriminations thousand-forms {MAO}")
    assert state.seats[cc].spellbooks == [MAO, RECRIM]
    ask_spellbook(state, CC)
    assert "spellbook thousand-forms" in texts(state, CC)


def test_recriminations_may_take_a_faction_book_and_never_one_another_faction_holds():
    state = recrim_game([RECRIM], power=2)
    state.seats[seat(state, GC)].spellbooks.append(UMR)
    offered = texts(state, CC)
    assert f"recriminations {RECRIM} thousand-forms" in offered
    assert f"recriminations {RECRIM} {UMR}" not in offered
    with pytest.raises(IllegalMove) as err:
        play(state, CC, f"recriminations {RECRIM} {UMR}")
    assert f"{GC} holds" in str(err.value) and err.value.rule == "cthulhu-wars/neutral-recriminations"


def test_recriminations_once_only_books_stay_spent():
    state = recrim_game(["thousand-forms", RECRIM], power=2)
    cc = seat(state, CC)
    state.seats[cc].flags["thousand-forms-round"] = state.round
    state, _ = play(state, CC, f"recriminations thousand-forms {UMR}")
    state.seats[cc].spellbooks = ["thousand-forms", UMR]
    give_turn(state, CC, power=2)
    assert not any(t.startswith("cc-thousand-forms") for t in texts(state, CC))


# ---- Undimensioned ----------------------------------------------------------------------------------------
UNDIM = "undimensioned"


def undim_game(power=2):
    """Great Cthulhu holds Undimensioned, with its start Area's Acolytes and a Deep One in north-pacific."""
    state = ns_game()
    gc = seat(state, GC)
    state.seats[gc].spellbooks.append(UNDIM)
    put(state, GC, "deep-one", "north-pacific")
    give_turn(state, GC, power=power)
    return state


def start_area(state):
    gc = seat(state, GC)
    return next(a for a, h in state.gates.items() if h and h[0] == gc)


def test_undimensioned_costs_two_power_and_needs_units_in_two_areas():
    assert "undimensioned" not in texts(undim_game(power=1), GC)
    state = undim_game(power=2)
    assert "undimensioned" in texts(state, GC)
    state.seats[seat(state, GC)].units["deep-one"] = [POOL] * 4
    assert "undimensioned" not in texts(state, GC), "units in one Area only"


def test_undimensioned_moves_units_only_among_the_areas_occupied_and_each_once():
    state = undim_game(power=2)
    gc, home = seat(state, GC), start_area(state)
    state, _ = play(state, GC, "undimensioned")
    assert state.seats[gc].power == 0 and state.pending[0].kind == "ns-undimensioned"
    offered = texts(state, GC)
    assert f"rearrange deep-one north-pacific>{home}" in offered and f"rearrange acolyte {home}>north-pacific" in offered
    assert all(t == "done" or t.endswith((f">{home}", ">north-pacific")) for t in offered)
    state, _ = play(state, GC, f"rearrange deep-one north-pacific>{home}")
    assert state.seats[gc].units["deep-one"].count(home) == 1
    offered = texts(state, GC)
    assert f"rearrange deep-one {home}>north-pacific" not in offered, "each unit moves once"
    assert f"rearrange acolyte {home}>north-pacific" in offered, "an emptied Area is still a destination"
    state, _ = play(state, GC, f"rearrange acolyte {home}>north-pacific")
    assert state.seats[gc].units["acolyte"].count("north-pacific") == 1
    assert state.gates[home][0] == gc, "the Acolyte off the Gate went"
    state, _ = play(state, GC, "done")
    assert not (state.pending and state.pending[0].kind == "ns-undimensioned")
    assert state.turn is None or state.turn.seat != gc or state.turn.acted


def test_undimensioned_leaves_submerged_units_out():
    state = undim_game(power=2)
    gc = seat(state, GC)
    state.seats[gc].units["cthulhu"] = ["@card"]
    state, _ = play(state, GC, "undimensioned")
    assert not any("cthulhu" in t for t in texts(state, GC))


def test_rearrange_without_undimensioned_is_refused_citing_its_section():
    state = undim_game(power=2)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "rearrange deep-one north-pacific>south-pacific")
    assert err.value.rule == "cthulhu-wars/neutral-undimensioned" and "undimensioned" in str(err.value)


def ice_age_undim(power, **options):
    """Great Cthulhu holds Undimensioned with a Deep One in north-pacific, under Windwalker's Ice Age."""
    state = seated([GC, CC, WW], neutral_spellbooks=True, **options)
    ww, gc = seat(state, WW), seat(state, GC)
    state.seats[ww].spellbooks.append("ice-age")
    state.seats[ww].flags["ice-age"] = "north-pacific"
    state.seats[gc].spellbooks.append(UNDIM)
    put(state, GC, "deep-one", "north-pacific")
    give_turn(state, GC, power=power)
    return play(state, GC, "undimensioned")[0]


def test_undimensioned_pays_an_ice_age_destination_once_and_skips_it_without_the_power():
    state = ice_age_undim(power=2)
    home = start_area(state)
    assert f"rearrange acolyte {home}>north-pacific" not in texts(state, GC)
    assert f"rearrange deep-one north-pacific>{home}" in texts(state, GC)
    state = ice_age_undim(power=3)
    gc = seat(state, GC)
    state, _ = play(state, GC, f"rearrange acolyte {home}>north-pacific")
    assert state.seats[gc].power == 0
    state, _ = play(state, GC, f"rearrange acolyte {home}>north-pacific")
    assert state.seats[gc].units["acolyte"].count("north-pacific") == 2, "the second arrival is free"


def test_undimensioned_ice_age_option_off_pays_nothing():
    state = ice_age_undim(power=2, undimensioned_ice_age=False)
    home = start_area(state)
    state, _ = play(state, GC, f"rearrange acolyte {home}>north-pacific")
    assert state.seats[seat(state, GC)].power == 0


def test_shriveling_never_takes_a_terror():
    state = seated([GC, CC, "ancients"], neutral_spellbooks=True, starts={"ancients": "australia"})
    state.seats[seat(state, CC)].spellbooks.append(SHRIVEL)
    give_turn(state, CC, power=3)
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, "ancients", "yothan", "north-pacific")
    put(state, "ancients", "un-man", "north-pacific")
    state.rng = ScriptedDice([1] * 12)
    state, _ = play(state, CC, "battle north-pacific vs ancients")
    assert texts(state, CC) == {"shriveling un-man", "proceed"}


# ---- bots ------------------------------------------------------------------------------------------------
def bot_positions():
    """One position per new decision or option: a spellbook choice with the pool, the Mao window, Shriveling before
    a battle, a turn with Recriminations and Undimensioned, the Undimensioned decision."""
    positions = []
    state = ns_game()
    ask_spellbook(state, GC)
    positions.append(state)
    state = mao_game()
    state.seats[seat(state, CC)].units["acolyte"][4:6] = ["europe", "europe"]
    positions.append(everyone_passes(state))
    positions.append(shrivel_battle())
    state = undim_game(power=4)
    state.seats[seat(state, GC)].spellbooks.append(RECRIM)
    positions.append(state)
    positions.append(play(undim_game(power=2), GC, "undimensioned")[0])
    return positions


def test_the_heuristic_and_search_bots_answer_the_neutral_spellbooks_decisions_legally():
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot

    bots = [CwHeuristicBot(3), CwSearchBot(3, seconds=None, iterations=4)]
    positions = bot_positions()
    offered = {ENGINE.notation(a).split()[0] for p in positions for a in ENGINE.legal_actions(p, ENGINE.to_move(p)[0])}
    assert {"spellbook", "mao-ceremony", "shriveling", "recriminations", "undimensioned", "rearrange"} <= offered
    for position in positions:
        who = ENGINE.to_move(position)[0]
        legal = ENGINE.legal_actions(position, who)
        for bot in bots:
            assert bot.choose(ENGINE, position, who) in legal


def test_heuristic_and_search_bots_make_every_decision_of_a_game_with_neutral_spellbooks():
    """A whole 3-player Earth game, one seat played by the search bot and two by the heuristic: every answer legal,
    figures conserved, and the bots take neutral books."""
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot

    state = ENGINE.new_game(CthulhuWarsOptions(neutral_spellbooks=True), 3, 7)
    bots = [CwSearchBot(10, seconds=None, iterations=3), CwHeuristicBot(11), CwHeuristicBot(12)]
    for _ in range(3000):
        if ENGINE.outcome(state) is not None:
            break
        who = ENGINE.to_move(state)[0]
        action = bots[who].choose(ENGINE, state, who)
        assert action in ENGINE.legal_actions(state, who)
        state, _ = ENGINE.apply(state, who, action)
        conserved(state)
    assert ENGINE.outcome(state) is not None
    assert any(b in ns.BOOKS for fs in state.seats for b in fs.spellbooks)


# ---- random games with the option ------------------------------------------------------------------------------
def conserved(state):
    for s, fs in enumerate(state.seats):
        faction = board.faction_of(state, s)
        assert {k: len(v) for k, v in fs.units.items()} == {u.name: u.count for u in faction.units}
        assert fs.power >= 0
        assert len(fs.spellbooks) == len(set(fs.spellbooks)) <= 6
    held = [b for fs in state.seats for b in fs.spellbooks if b in ns.BOOKS]
    assert len(held) == len(set(held)), "each neutral book exists once"


@pytest.mark.parametrize("players,game_map", [(3, "earth"), (4, "dreamlands"), (5, "earth"), (5, "dreamlands")])
def test_random_games_with_neutral_spellbooks_never_raise(players, game_map):
    taken = 0
    for seed in range(2):
        rnd = random.Random(seed)
        state = ENGINE.new_game(CthulhuWarsOptions(neutral_spellbooks=True, map=game_map), players, seed)
        for _ in range(20000):
            if ENGINE.outcome(state) is not None:
                break
            s = rnd.choice(ENGINE.to_move(state))
            action = rnd.choice(ENGINE.legal_actions(state, s))
            assert ENGINE.parse(ENGINE.notation(action), state, s) == action
            state, _ = ENGINE.apply(state, s, action)
            conserved(state)
        assert ENGINE.outcome(state) is not None
        taken += sum(b in ns.BOOKS for fs in state.seats for b in fs.spellbooks)
    assert taken, "random games take neutral books"
