"""Independent Great Old Ones, each a game option (rules_text ``cthulhu-wars/independent-great-old-ones`` and a section
per card): Awakening, the card and its spellbook, death, and each card's abilities at their timing."""

import random

import pytest

from pydantic import ValidationError

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board, phases
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL

from tabletop.games.cthulhu_wars.battle import battle_preview

from .cw_helpers import (
    BG, CC, GC, OW, ScriptedDice, bots_answer_legally, give_turn, new_game, play, put, seat, seated, texts,
)
from .test_cw_random_games import check_gate_accounting

EVERY_IGOO = {"igoo_byatis": True, "igoo_daoloth": True, "igoo_abhoth": True, "igoo_nyogtha": True}
OTHER_NEUTRALS = {"high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
                  "neutral_star_vampire": True, "neutral_spellbooks": True}
SP = "south-pacific"


def igoo_game(players=3, **options):
    for name, on in EVERY_IGOO.items():
        options.setdefault(name, on)
    return new_game(players, **options)


def cthulhu_home(state, power=10):
    """Great Cthulhu's turn with Cthulhu at its start Gate (south-pacific) and ``power`` Power."""
    put(state, GC, "cthulhu", SP)
    give_turn(state, GC, power=power)
    return state


def awakened(state, faction, unit, area, power=10):
    """``faction`` controls ``unit`` in ``area`` (set up directly: the card taken, the figure placed)."""
    s = seat(state, faction)
    state.seats[s].units[unit] = [area] * {"byatis": 1, "daoloth": 1, "abhoth": 1, "nyogtha": 2}[unit]
    if unit == "abhoth":
        state.seats[s].units["filth"] = [POOL] * 12
    state.seats[s].flags.setdefault("igoo-at", {})[unit] = area
    give_turn(state, faction, power=power)
    return s


def with_book(state, faction, unit):
    s = seat(state, faction)
    state.seats[s].flags["igoo-books"] = [*state.seats[s].flags.get("igoo-books", []), unit]


# ---- options -------------------------------------------------------------------------------------------------

def answer_until(state, done, pick: int = 0, limit: int = 10):
    """Whoever is to move plays the first (or, with ``pick=-1``, the last) of its legal actions until ``done(state)``
    (at most ``limit`` times): a battle's decisions answered the same way each time."""
    for _ in range(limit):
        if done(state):
            break
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[pick])
    return state

def test_every_card_is_off_by_default_and_its_awakening_is_refused_citing_the_option():
    state = cthulhu_home(new_game(3))
    assert not any(t.startswith("awaken byatis") for t in texts(state, GC))
    with pytest.raises(IllegalMove) as err:
        play(state, GC, f"awaken byatis {SP}")
    assert "game option igoo_byatis" in str(err.value)
    assert ENGINE.rule_for(ENGINE.parse(f"awaken byatis {SP}", state, 0)) == "cthulhu-wars/igoo-byatis"
    defaults = CthulhuWarsOptions()
    assert not any(getattr(defaults, f"igoo_{n}") for n in ("byatis", "abhoth", "daoloth", "nyogtha"))


def test_an_unknown_card_is_refused_at_set_up():
    with pytest.raises(ValidationError) as err:
        new_game(3, igoo_cthugha=True)
    assert "igoo_cthugha" in str(err.value)


def test_each_card_may_be_switched_on_alone():
    state = cthulhu_home(new_game(3, igoo_daoloth=True))
    assert f"awaken daoloth {SP}" in texts(state, GC) and f"awaken byatis {SP}" not in texts(state, GC)


# ---- Awakening -------------------------------------------------------------------------------------------------
def test_awakening_needs_a_controlled_gate_and_a_great_old_one_there():
    state = igoo_game()
    give_turn(state, GC, power=10)
    assert not any(t.startswith("awaken byatis") for t in texts(state, GC)), "no Great Old One at the Gate"
    with pytest.raises(IllegalMove) as err:
        play(state, GC, f"awaken byatis {SP}")
    assert "Gate you control" in str(err.value) and "Great Old One" in str(err.value)
    cthulhu_home(state)
    assert {f"awaken byatis {SP}", f"awaken daoloth {SP}"} <= texts(state, GC)
    state.gates[SP] = None  # an Abandoned Gate is not controlled
    assert not any(t.startswith("awaken byatis") for t in texts(state, GC))


def test_a_great_old_one_without_a_gate_there_is_not_enough():
    state = igoo_game()
    put(state, GC, "cthulhu", "north-pacific")
    give_turn(state, GC, power=10)
    assert not any(t.startswith("awaken byatis") for t in texts(state, GC))


@pytest.mark.parametrize("unit,cost", [("byatis", 4), ("abhoth", 4), ("daoloth", 6), ("nyogtha", 6)])
def test_awakening_costs_exactly_the_cards_cost(unit, cost):
    state = cthulhu_home(igoo_game(), power=cost - 1)
    assert f"awaken {unit} {SP}" not in texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, f"awaken {unit} {SP}")
    assert f"costs {cost} Power" in str(err.value)
    state = cthulhu_home(igoo_game(), power=cost)
    state, log = play(state, GC, f"awaken {unit} {SP}")
    gc = seat(state, GC)
    assert set(state.seats[gc].units[unit]) == {SP} and state.seats[gc].power == 0
    assert state.turn.seat != gc or state.turn.acted, "it is the turn's one action"


def test_immortal_gives_an_elder_sign_for_awakening_an_independent_great_old_one():
    state = cthulhu_home(igoo_game(), power=4)
    gc = seat(state, GC)
    before = len(state.seats[gc].elder_signs)
    state, log = play(state, GC, f"awaken byatis {SP}")
    assert len(state.seats[gc].elder_signs) == before + 1 and any("Immortal" in line for line in log)
    assert not state.seats[gc].flags.get("awakened"), "Cthulhu's own Awakening is not marked (his cost stays 10)"


def test_another_faction_gets_no_elder_sign_for_awakening():
    state = igoo_game()
    cc = seat(state, CC)
    area = next(a for a, h in state.gates.items() if h and h[0] == cc)
    put(state, CC, "nyarlathotep", area)
    give_turn(state, CC, power=4)
    state, _ = play(state, CC, f"awaken byatis {area}")
    assert state.seats[cc].elder_signs == [] and state.seats[cc].units["byatis"] == [area]


def test_a_card_someone_holds_is_not_offered_and_its_awakening_is_refused():
    state = cthulhu_home(igoo_game())
    cc = seat(state, CC)
    state.seats[cc].units["byatis"] = ["europe"]
    assert f"awaken byatis {SP}" not in texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, f"awaken byatis {SP}")
    assert "crawling-chaos controls Byatis" in str(err.value)


def test_an_independent_great_old_one_helps_awaken_another():
    state = igoo_game()
    awakened(state, GC, "byatis", SP, power=6)
    assert f"awaken daoloth {SP}" in texts(state, GC)


def test_yog_sothoth_alone_is_no_controlled_gate_but_serves_as_the_great_old_one_at_a_real_one():
    state = seated([OW, GC, CC], **EVERY_IGOO)
    ow = seat(state, OW)
    home = next(a for a, h in state.gates.items() if h and h[0] == ow)
    fs = state.seats[ow]
    fs.units["yog-sothoth"][0] = "europe"  # Yog-Sothoth alone in europe: a Gate, but held by no unit
    give_turn(state, OW, power=10)
    assert not any(t.startswith("awaken byatis") for t in texts(state, OW))
    fs.units["yog-sothoth"][0] = home  # with a Gate a Cultist of his holds
    assert f"awaken byatis {home}" in texts(state, OW)


@pytest.mark.parametrize("needs_cathedrals", [False, True])
def test_the_ancients_awaken_with_four_cathedrals_and_a_first_card_helps_unless_the_ruling_says_otherwise(
        needs_cathedrals):
    state = seated(["ancients", GC, CC], ancients_igoo_needs_cathedrals=needs_cathedrals, **EVERY_IGOO)
    an = seat(state, "ancients")
    home = next(a for a, h in state.gates.items() if h and h[0] == an)
    give_turn(state, "ancients", power=10)
    assert not any(t.startswith("awaken") for t in texts(state, "ancients")), "no GOO of their own"
    state.seats[an].flags["cathedrals"] = ["a", "b", "c", "d"]
    assert f"awaken byatis {home}" in texts(state, "ancients")
    state.seats[an].flags["cathedrals"] = []
    awakened(state, "ancients", "byatis", home, power=10)
    assert (f"awaken daoloth {home}" in texts(state, "ancients")) is not needs_cathedrals


# ---- not a faction Great Old One --------------------------------------------------------------------------------
def test_a_ritual_gives_no_elder_sign_for_an_independent_great_old_one():
    state = igoo_game()
    gc = awakened(state, GC, "byatis", SP)
    state.seats[gc].elder_signs = []
    phases.perform_ritual(state, gc, [])
    assert state.seats[gc].elder_signs == []
    put(state, GC, "cthulhu", SP)
    phases.perform_ritual(state, gc, [])
    assert len(state.seats[gc].elder_signs) == 1


def test_it_protects_cultists_from_capture_and_captures_past_monsters():
    state = igoo_game()
    gc = awakened(state, GC, "byatis", "europe")
    state.seats[gc].units["acolyte"][5] = "europe"
    put(state, CC, "nightgaunt", "europe")
    give_turn(state, CC, power=5)
    assert not any(t.startswith("capture europe") for t in texts(state, CC)), "Byatis protects the Acolyte"
    state.seats[gc].units["byatis"] = ["asia"]
    assert f"capture europe vs {GC}" in texts(state, CC)
    cc = seat(state, CC)
    state.seats[cc].units["acolyte"][0] = "asia"
    give_turn(state, GC, power=5)
    state.seats[gc].units["deep-one"][0] = "north-pacific"
    put(state, CC, "nightgaunt", "asia")
    assert f"capture asia vs {CC}" in texts(state, GC), "a Great Old One captures past enemy Monsters"


def test_yog_sothoth_does_not_count_an_independent_great_old_one():
    state = seated([OW, GC, CC], **EVERY_IGOO)
    ow = seat(state, OW)
    state.seats[ow].units["yog-sothoth"][0] = "europe"
    faction = board.faction_of(state, ow)
    awakened(state, GC, "byatis", "asia")
    assert faction.unit_combat(state, ow, "yog-sothoth", {}, 1) == 0
    put(state, GC, "cthulhu", SP)
    assert faction.unit_combat(state, ow, "yog-sothoth", {}, 1) == 2


def test_byatis_fights_with_combat_four_in_battle_odds():
    state = igoo_game()
    awakened(state, GC, "byatis", "europe")
    cc = seat(state, CC)
    state.seats[cc].units["nightgaunt"][0] = "europe"
    assert battle_preview(state, seat(state, GC), "europe", cc).attacker.dice == 4
    assert battle_preview(state, cc, "europe", seat(state, GC)).defender.dice == 4


# ---- Harbinger ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("unit,power", [("byatis", 2), ("abhoth", 2), ("daoloth", 3), ("nyogtha", 3)])
def test_harbinger_pays_half_the_awaken_cost_or_two_elder_signs(unit, power):
    state = igoo_game()
    awakened(state, GC, unit, "europe")
    put(state, CC, "nyarlathotep", "europe")
    put(state, CC, "hunting-horror", "europe")
    cc = seat(state, CC)
    give_turn(state, CC, power=1)
    state.rng = ScriptedDice([4] * 10 + [1] * 20)  # Pains only
    state, _ = play(state, CC, f"battle europe vs {GC}")
    state = answer_until(state, lambda state: state.pending and state.pending[0].kind == "cc-harbinger")
    assert state.pending[0].kind == "cc-harbinger"
    assert texts(state, CC) - {"done"} == {f"cc-harbinger {unit} power {power}", f"cc-harbinger {unit} elder-signs 2"}
    before = state.seats[cc].power
    state, _ = play(state, CC, f"cc-harbinger {unit} power {power}")
    assert state.seats[cc].power == before + power


# ---- death ---------------------------------------------------------------------------------------------------
def killed_in_battle(unit, **options):
    """Crawling Chaos kills Great Cthulhu's ``unit`` alone in europe with a 6."""
    state = igoo_game(**options)
    gc = awakened(state, GC, unit, "europe")
    with_book(state, GC, unit)
    cc = seat(state, CC)
    state.seats[cc].units["hunting-horror"][0] = "europe"
    give_turn(state, CC, power=1)
    state.rng = ScriptedDice([6, 1] + [1] * 20)
    state, log = play(state, CC, f"battle europe vs {GC}")
    return state, log, gc


def test_killed_the_card_and_its_spellbook_go_back_to_the_pool_and_anyone_may_awaken_it():
    state, log, gc = killed_in_battle("daoloth")
    assert "daoloth" not in state.seats[gc].units and "daoloth" not in state.seats[gc].flags.get("igoo-books", [])
    assert any("leaves great-cthulhu for the pool" in line for line in log)
    cc = seat(state, CC)
    home = next(a for a, h in state.gates.items() if h and h[0] == cc)
    put(state, CC, "nyarlathotep", home)
    give_turn(state, CC, power=6)
    state, _ = play(state, CC, f"awaken daoloth {home}")
    assert state.seats[cc].units["daoloth"] == [home] and "daoloth" not in state.seats[cc].flags.get("igoo-books", [])


@pytest.mark.parametrize("lost", [True, False])
def test_eliminated_otherwise_the_card_goes_only_with_its_ruling(lost):
    state = igoo_game(igoo_lost_when_eliminated=lost)
    gc = awakened(state, GC, "daoloth", "europe")
    board.eliminate(state, gc, "daoloth", 0)  # not a Kill (e.g. Unholy Ground)
    give_turn(state, CC, power=3)
    phases.advance(state, [])
    assert ("daoloth" in state.seats[gc].units) is not lost
    if not lost:
        cthulhu_home(state, power=6)
        assert f"awaken daoloth {SP}" in texts(state, GC), "its holder may Awaken it again"


def test_without_the_ruling_a_kill_still_loses_the_card():
    state, _, gc = killed_in_battle("daoloth", igoo_lost_when_eliminated=False)
    assert "daoloth" not in state.seats[gc].units


# ---- Byatis ---------------------------------------------------------------------------------------------------
def test_byatis_never_moves():
    state = igoo_game()
    awakened(state, GC, "byatis", "europe")
    assert not any(t.startswith("move byatis") for t in texts(state, GC))
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "move byatis europe>asia")
    assert "never Moves" in str(err.value)


def test_no_ability_moves_byatis_submerge():
    state = igoo_game()
    gc = awakened(state, GC, "byatis", SP)
    put(state, GC, "cthulhu", SP)
    state.seats[gc].spellbooks.append("submerge")
    state.seats[gc].power = 5
    state, _ = play(state, GC, "submerge")
    assert "submerge-with byatis" not in texts(state, GC)
    assert any(t.startswith("submerge-with") for t in texts(state, GC))


def test_no_ability_moves_byatis_undimensioned():
    state = igoo_game(neutral_spellbooks=True)
    gc = awakened(state, GC, "byatis", "europe", power=3)
    state.seats[gc].units["acolyte"][5] = "europe"
    state.seats[gc].spellbooks = ["undimensioned"]
    state, _ = play(state, GC, "undimensioned")
    moves = texts(state, GC)
    assert any(t.startswith("rearrange acolyte") for t in moves)
    assert not any(t.startswith("rearrange byatis") for t in moves)


@pytest.mark.parametrize("enemy_there,signs", [(False, 1), (True, 0)])
def test_toad_of_berkeley_gives_an_elder_sign_in_the_doom_phase_without_an_enemy_unit_there(enemy_there, signs):
    state = igoo_game()
    gc = awakened(state, GC, "byatis", "europe")
    state.seats[gc].elder_signs = []
    if enemy_there:
        state.seats[seat(state, CC)].units["acolyte"][5] = "europe"
    state.turn = None
    log = []
    phases.start_doom_phase(state, log)
    assert len(state.seats[gc].elder_signs) == signs
    assert any("Toad of Berkeley" in line for line in log) is (signs == 1)


def byatis_battle(dice, **options):
    """Byatis (Great Cthulhu) attacks Crawling Chaos's Nightgaunt and Acolyte in europe with fixed dice."""
    state = igoo_game(**options)
    gc = awakened(state, GC, "byatis", "europe", power=1)
    cc = seat(state, CC)
    state.seats[cc].units["nightgaunt"][0] = "europe"
    state.seats[cc].units["acolyte"][1] = "europe"
    state.rng = ScriptedDice(dice + [1] * 20)
    state, log = play(state, GC, f"battle europe vs {CC}")
    for _ in range(20):
        if not state.pending or state.phase != "action" or state.battle is None:
            break
        s = ENGINE.to_move(state)[0]
        state, more = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
        log += more
    return state, log, gc


def test_byatis_earns_his_book_when_he_survives_a_battle_with_an_enemy_unit_killed():
    state, log, gc = byatis_battle([6, 1, 1, 1, 1, 1])
    assert "byatis" in state.seats[gc].flags.get("igoo-books", [])
    assert "byatis" not in state.seats[gc].spellbooks and len(state.seats[gc].spellbooks) == 0
    assert "God of Forgetfulness on its card" in ENGINE.describe(state, None)


def test_a_pain_is_not_a_kill_for_byatis_book():
    state, _, gc = byatis_battle([4, 5, 1, 1, 1, 1])
    assert "byatis" not in state.seats[gc].flags.get("igoo-books", [])


def pained_by_a_hunting_horror_in_europe(state):
    """Crawling Chaos's Hunting Horror battles Great Cthulhu's figure in Europe and rolls one Pain (a 4); the first
    answer to every decision of the battle is taken."""
    state.seats[seat(state, CC)].units["hunting-horror"][0] = "europe"
    give_turn(state, CC, power=1)
    state.rng = ScriptedDice([4, 1, 1, 1, 1, 1, 1])
    state, _ = play(state, CC, f"battle europe vs {GC}")
    state = answer_until(state, lambda state: state.battle is None)
    return state


@pytest.mark.parametrize("retreats", [True, False])
def test_a_pained_byatis_retreats_or_stays_by_the_ruling(retreats):
    state = igoo_game(byatis_pained_retreats=retreats)
    gc = awakened(state, GC, "byatis", "europe", power=0)
    state = pained_by_a_hunting_horror_in_europe(state)
    assert (state.seats[gc].units["byatis"][0] != "europe") is retreats
    assert board.on_map(state.seats[gc].units["byatis"][0])


def test_god_of_forgetfulness_pulls_every_enemy_cultist_of_a_neighbouring_area_for_one_power():
    state = igoo_game()
    gc = awakened(state, GC, "byatis", "europe", power=1)
    with_book(state, GC, "byatis")
    cc, bg = seat(state, CC), seat(state, BG)
    neighbour = "asia"
    state.seats[cc].units["acolyte"] = [neighbour, neighbour] + state.seats[cc].units["acolyte"][2:]
    state.seats[bg].units["acolyte"][0] = neighbour
    state.gates[neighbour] = (cc, "acolyte", 0)
    assert f"forgetfulness {neighbour}" in texts(state, GC)
    state, log = play(state, GC, f"forgetfulness {neighbour}")
    assert state.seats[cc].units["acolyte"][:2] == ["europe", "europe"] and state.seats[bg].units["acolyte"][0] == "europe"
    assert state.gates[neighbour] is None and state.seats[gc].power == 0


def test_god_of_forgetfulness_needs_the_book_and_a_power():
    state = igoo_game()
    awakened(state, GC, "byatis", "europe", power=1)
    cc = seat(state, CC)
    state.seats[cc].units["acolyte"][1] = "arctic-ocean"
    assert "forgetfulness arctic-ocean" not in texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "forgetfulness arctic-ocean")
    assert "not on Byatis' card" in str(err.value)
    assert ENGINE.rule_for(ENGINE.parse("forgetfulness arctic-ocean", state, 0)) == "cthulhu-wars/igoo-byatis"
    with_book(state, GC, "byatis")
    assert "forgetfulness arctic-ocean" in texts(state, GC)
    state.seats[seat(state, GC)].power = 0
    assert "forgetfulness arctic-ocean" not in texts(state, GC)


def test_recriminations_cannot_touch_an_independent_spellbook():
    state = igoo_game(neutral_spellbooks=True)
    gc = awakened(state, GC, "byatis", "europe", power=3)
    with_book(state, GC, "byatis")
    state.seats[gc].spellbooks = ["recriminations"]
    options = {t for t in texts(state, GC) if t.startswith("recriminations")}
    assert options and not any("forget" in t or "byatis" in t for t in options)


# ---- Daoloth --------------------------------------------------------------------------------------------------
def daoloth_battle(target_dice):
    """Daoloth and a Deep One (Great Cthulhu) attack Crawling Chaos's Nyarlathotep in europe."""
    state = igoo_game()
    gc = awakened(state, GC, "daoloth", "europe", power=1)
    state.seats[gc].units["deep-one"][0] = "europe"
    cc = seat(state, CC)
    put(state, CC, "nyarlathotep", "europe")
    state.rng = ScriptedDice(target_dice)
    state, _ = play(state, GC, f"battle europe vs {CC}")
    return state, gc, cc


def test_cosmic_unity_stops_an_enemy_great_old_one_rolling():
    state, gc, cc = daoloth_battle([1] * 30)
    assert state.pending[0].kind == "pre-battle" and texts(state, GC) == {"cosmic-unity nyarlathotep", "proceed"}
    state, log = play(state, GC, "cosmic-unity nyarlathotep")
    assert "cosmic-unity nyarlathotep" not in texts(state, GC), "once per battle"
    while state.pending and state.pending[0].kind == "pre-battle":
        state, more = ENGINE.apply(state, state.pending[0].seat, ENGINE.legal_actions(state, state.pending[0].seat)[-1])
        log += more
    rolls = [line for line in log if line.startswith("crawling-chaos rolls")]
    assert rolls and "rolls 0 dice" in rolls[0]


def test_cosmic_unity_is_refused_outside_pre_battle_citing_daoloth():
    state = igoo_game()
    awakened(state, GC, "daoloth", "europe")
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "cosmic-unity cthulhu")
    assert "pre-battle" in str(err.value)
    assert ENGINE.rule_for(ENGINE.parse("cosmic-unity cthulhu", state, 0)) == "cthulhu-wars/igoo-daoloth"


def test_without_an_enemy_great_old_one_cosmic_unity_is_not_offered():
    state = igoo_game()
    gc = awakened(state, GC, "daoloth", "europe", power=1)
    state.seats[gc].units["deep-one"][0] = "europe"
    state.seats[seat(state, CC)].units["nightgaunt"][0] = "europe"
    state.rng = ScriptedDice([1] * 30)
    state, _ = play(state, GC, f"battle europe vs {CC}")
    assert not any(t.startswith("cosmic-unity") for t in texts(state, GC))


def test_daoloth_earns_interdimensional_when_a_great_old_one_is_killed_anywhere():
    state = igoo_game()
    gc = awakened(state, GC, "daoloth", "africa")
    cc, bg = seat(state, CC), seat(state, BG)
    put(state, CC, "nyarlathotep", "asia")
    state.seats[bg].units["dark-young"][0] = "asia"
    state.seats[bg].units["dark-young"][1] = "asia"
    give_turn(state, BG, power=1)
    state.rng = ScriptedDice([6] * 4 + [1] * 20)
    state, log = play(state, BG, f"battle asia vs {CC}")
    for _ in range(20):
        if state.battle is None and not state.pending:
            break
        s = ENGINE.to_move(state)[0]
        state, more = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
        log += more
    assert "nyarlathotep" not in [k for k in board.units_in(state, cc, "asia")]
    assert "daoloth" in state.seats[gc].flags.get("igoo-books", [])
    assert any("meets Daoloth's requirement: Interdimensional" in line for line in log)


def test_a_monster_killed_is_not_enough_for_daoloth():
    state = igoo_game()
    gc = awakened(state, GC, "daoloth", "africa")
    state.seats[gc].units["deep-one"][0] = "europe"
    state.seats[gc].units["deep-one"][1] = "europe"
    state.seats[seat(state, CC)].units["nightgaunt"][0] = "europe"
    state.rng = ScriptedDice([6, 6, 1, 1, 1, 1])
    state, log = play(state, GC, f"battle europe vs {CC}")
    assert "nightgaunt" not in board.units_in(state, seat(state, CC), "europe")
    assert "daoloth" not in state.seats[gc].flags.get("igoo-books", [])


@pytest.mark.parametrize("book", [True, False])
def test_interdimensional_places_an_abandoned_gate_where_daoloth_enters_an_area_without_one(book):
    state = igoo_game()
    awakened(state, GC, "daoloth", SP, power=2)
    if book:
        with_book(state, GC, "daoloth")
    state, log = play(state, GC, f"move daoloth {SP}>north-pacific")
    assert ("north-pacific" in state.gates) is book
    if book:
        assert state.gates["north-pacific"] is None and any("Interdimensional" in line for line in log)


def test_interdimensional_makes_no_second_gate_where_there_is_one():
    state = igoo_game()
    gc = awakened(state, GC, "daoloth", "north-pacific", power=2)
    with_book(state, GC, "daoloth")
    gates = dict(state.gates)
    state, _ = play(state, GC, f"move daoloth north-pacific>{SP}")
    assert state.gates == gates and state.seats[gc].units["daoloth"] == [SP]


# ---- Abhoth ---------------------------------------------------------------------------------------------------
def test_awakening_abhoth_brings_his_twelve_filth_into_the_pool():
    state = cthulhu_home(igoo_game(), power=4)
    state, _ = play(state, GC, f"awaken abhoth {SP}")
    gc = seat(state, GC)
    assert state.seats[gc].units["abhoth"] == [SP] and state.seats[gc].units["filth"] == [POOL] * 12


def test_filth_costs_one_power_and_goes_to_any_area():
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", "europe", power=1)
    placed = {t.split()[1] for t in texts(state, GC) if t.startswith("filth ")}
    assert placed == {a.id for a in state.layout.areas}
    state, log = play(state, GC, "filth antarctica")
    assert state.seats[gc].units["filth"].count("antarctica") == 1 and state.seats[gc].power == 0
    assert ENGINE.rule_for(ENGINE.parse("filth europe", state, 0)) == "cthulhu-wars/igoo-abhoth"
    state = igoo_game()
    awakened(state, GC, "abhoth", "europe", power=0)
    assert not any(t.startswith("filth ") for t in texts(state, GC))


def test_no_filth_is_placed_when_all_twelve_are_in_play():
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", "europe", power=3)
    state.seats[gc].units["filth"] = ["asia"] * 12
    assert not any(t.startswith("filth ") for t in texts(state, GC))
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "filth europe")
    assert "all 12 Filth" in str(err.value)


@pytest.mark.parametrize("filth", [0, 3, 12])
def test_abhoths_combat_is_the_filth_in_play(filth):
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", "europe")
    state.seats[gc].units["filth"] = ["asia"] * filth + [POOL] * (12 - filth)
    assert board.faction_of(state, gc).unit_combat(state, gc, "abhoth", {}, 1) == filth
    cc = seat(state, CC)
    state.seats[cc].units["acolyte"][5] = "europe"
    assert battle_preview(state, gc, "europe", cc).attacker.dice == filth


def test_filth_never_moves_never_captures_is_never_summoned_but_protects_cultists():
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", SP, power=5)
    state.seats[gc].units["filth"][0] = "europe"
    state.seats[gc].units["acolyte"][5] = "europe"
    cc = seat(state, CC)
    state.seats[cc].units["acolyte"][5] = "europe"
    moves = texts(state, GC)
    assert not any(t.startswith(("move filth", "summon filth", "capture europe")) for t in moves)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, f"summon filth {SP}")
    assert "not Summoned" in str(err.value)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "move filth europe>asia")
    assert "Filth never Moves" in str(err.value)
    put(state, CC, "hunting-horror", "europe")
    give_turn(state, CC, power=5)
    assert f"capture europe vs {GC}" not in texts(state, CC), "Filth is a Monster: it protects the Acolyte"


def test_with_fertility_cult_filth_is_placed_as_an_unlimited_action():
    state = igoo_game()
    bg = awakened(state, BG, "abhoth", "europe", power=3)
    state, _ = play(state, BG, "filth asia")
    assert not state.turn.acted and state.seats[bg].power == 2
    state = igoo_game()
    awakened(state, GC, "abhoth", "europe", power=3)
    state, _ = play(state, GC, "filth asia")
    assert state.turn.acted and not any(t.startswith("filth ") for t in texts(state, GC))


@pytest.mark.parametrize("types,met", [(3, False), (4, True)])
def test_the_brood_comes_with_four_monster_types_in_play(types, met):
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", "europe", power=2)
    for kind in ("deep-one", "shoggoth", "starspawn")[: types - 1]:
        state.seats[gc].units[kind][0] = "asia"
    state, _ = play(state, GC, "filth asia")  # Filth is the last type
    assert ("abhoth" in state.seats[gc].flags.get("igoo-books", [])) is met


@pytest.mark.parametrize("monsters,met", [(7, False), (8, True)])
def test_the_brood_comes_with_eight_monsters_in_play(monsters, met):
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", "europe", power=2)
    state.seats[gc].units["filth"] = ["asia"] * (monsters - 1) + [POOL] * (13 - monsters)
    state, _ = play(state, GC, "filth asia")  # Filth alone: one type, ``monsters`` figures
    assert ("abhoth" in state.seats[gc].flags.get("igoo-books", [])) is met


@pytest.mark.parametrize("book", [True, False])
def test_the_brood_takes_the_doom_of_enemy_gates_where_filth_lies(book):
    state = igoo_game()
    gc = awakened(state, GC, "abhoth", "europe")
    if book:
        with_book(state, GC, "abhoth")
    cc = seat(state, CC)
    cc_home = next(a for a, h in state.gates.items() if h and h[0] == cc)
    state.seats[gc].units["filth"][0] = cc_home
    state.seats[gc].units["filth"][1] = SP  # his own Gate keeps its Doom
    before = [fs.doom for fs in state.seats]
    state.turn = None
    phases.start_doom_phase(state, [])
    assert state.seats[cc].doom - before[cc] == (0 if book else 1)
    assert state.seats[gc].doom - before[gc] == 1
    state.seats[cc].power = 10
    doom = state.seats[cc].doom
    phases.perform_ritual(state, cc, [])
    assert state.seats[cc].doom - doom == (0 if book else 1), "the Ritual's Gate Doom too"


def test_when_abhoth_dies_his_filth_stays_ownerless_and_passes_to_the_next_to_awaken_him():
    state, log, gc = killed_in_battle("abhoth")
    assert "abhoth" not in state.seats[gc].units and "filth" not in state.seats[gc].units
    state2 = igoo_game()
    gc = awakened(state2, GC, "abhoth", "europe")
    state2.seats[gc].units["filth"][:2] = ["asia", "africa"]
    board.eliminate(state2, gc, "abhoth", 0)
    log = []
    phases.advance(state2, log)
    assert "filth" not in state2.seats[gc].units and sorted(state2.pieces["ownerless-filth"]) == ["africa", "asia"]
    assert "asia: 1 Filth (no owner); Gate of crawling-chaos" in ENGINE.describe(state2, None)
    drawn = [getattr(item, "text", "") for item in ENGINE.draw(state2, None, frozenset()).shapes]
    assert drawn.count("1 Filth (no owner)") == 2, "the picture shows them in both Areas"
    cc = seat(state2, CC)
    home = next(a for a, h in state2.gates.items() if h and h[0] == cc)
    put(state2, CC, "nyarlathotep", home)
    give_turn(state2, CC, power=4)
    state2, log = play(state2, CC, f"awaken abhoth {home}")
    filth = state2.seats[cc].units["filth"]
    assert sorted(p for p in filth if p != POOL) == ["africa", "asia"] and filth.count(POOL) == 10
    assert "ownerless-filth" not in state2.pieces


@pytest.mark.parametrize("retreats", [True, False])
def test_a_pained_filth_retreats_or_stays_by_the_ruling(retreats):
    state = igoo_game(filth_pained_retreats=retreats)
    gc = awakened(state, GC, "abhoth", SP, power=0)
    state.seats[gc].units["filth"][0] = "europe"
    state = pained_by_a_hunting_horror_in_europe(state)
    assert (state.seats[gc].units["filth"][0] != "europe") is retreats
    assert board.on_map(state.seats[gc].units["filth"][0])


# ---- Nyogtha --------------------------------------------------------------------------------------------------
def test_awakening_nyogtha_places_both_figures_and_immortal_gives_one_elder_sign():
    state = cthulhu_home(igoo_game(), power=6)
    gc = seat(state, GC)
    before = len(state.seats[gc].elder_signs)
    state, _ = play(state, GC, f"awaken nyogtha {SP}")
    assert state.seats[gc].units["nyogtha"] == [SP, SP] and len(state.seats[gc].elder_signs) == before + 1


def test_nyogtha_rolls_four_each_when_attacking_and_one_each_otherwise():
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe")
    cc = seat(state, CC)
    state.seats[cc].units["hunting-horror"][0] = "europe"
    assert battle_preview(state, gc, "europe", cc).attacker.dice == 8
    assert battle_preview(state, cc, "europe", gc).defender.dice == 2


def test_from_below_the_second_figure_moves_free():
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe", power=1)
    state.seats[gc].units["nyogtha"][1] = "asia"
    state, _ = play(state, GC, "move nyogtha europe>north-atlantic")
    assert state.seats[gc].power == 0
    assert "move nyogtha asia>arctic-ocean" in texts(state, GC), "free, at 0 Power"
    state, log = play(state, GC, "move nyogtha asia>arctic-ocean")
    assert sorted(state.seats[gc].units["nyogtha"]) == ["arctic-ocean", "north-atlantic"] and state.seats[gc].power == 0
    assert any("free: From Below" in line for line in log)


def test_other_units_still_pay_for_their_move():
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe", power=2)
    state.seats[gc].units["acolyte"][5] = "europe"
    state, _ = play(state, GC, "move nyogtha europe>asia")
    state, _ = play(state, GC, "move acolyte europe>asia")
    assert state.seats[gc].power == 0, "the Acolyte paid; the second Nyogtha waits in europe free"
    assert "move nyogtha europe>asia" in texts(state, GC)


def from_below_capture_state():
    """Nyogtha's figures in europe and north-atlantic, an enemy Acolyte alone beside each (Crawling Chaos's, Black
    Goat's), Great Cthulhu's turn with 1 Power: for a Capture or a Battle and its From Below."""
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe", power=1)
    state.seats[gc].units["nyogtha"][1] = "north-atlantic"
    cc, bg = seat(state, CC), seat(state, BG)
    state.seats[cc].units["acolyte"][5] = "europe"
    state.seats[bg].units["acolyte"][5] = "north-atlantic"
    return state, gc, cc, bg


def test_from_below_a_capture_lets_the_other_figure_capture_free():
    state, gc, cc, bg = from_below_capture_state()
    state, _ = play(state, GC, f"capture europe vs {CC}")
    assert state.pending[0].kind == "igoo-from-below"
    assert texts(state, GC) == {f"from-below-capture north-atlantic vs {BG}", "done"}
    state, _ = play(state, GC, f"from-below-capture north-atlantic vs {BG}")
    assert state.seats[bg].units["acolyte"][5] == "@captured" and state.seats[gc].power == 0
    assert len(state.seats[gc].captives) == 2


def test_from_below_may_be_declined():
    state, gc, cc, bg = from_below_capture_state()
    state, _ = play(state, GC, f"capture europe vs {CC}")
    state, _ = play(state, GC, "done")
    assert state.seats[bg].units["acolyte"][5] == "north-atlantic"


def test_a_capture_without_a_nyogtha_there_opens_no_from_below():
    state, gc, cc, bg = from_below_capture_state()
    state.seats[gc].units["nyogtha"][0] = "asia"
    state.seats[gc].units["starspawn"][0] = "europe"
    state, _ = play(state, GC, f"capture europe vs {CC}")
    assert not (state.pending and state.pending[0].kind == "igoo-from-below")


def test_from_below_a_battle_lets_a_second_battle_be_declared_free_in_the_other_area():
    state, gc, cc, bg = from_below_capture_state()
    state.rng = ScriptedDice([1] * 40)
    state, _ = play(state, GC, f"battle europe vs {CC}")
    state = answer_until(state, lambda state: state.pending and state.pending[0].kind == "igoo-from-below", pick=-1)
    assert texts(state, GC) == {f"from-below-battle north-atlantic vs {BG}", "done"}
    state, log = play(state, GC, f"from-below-battle north-atlantic vs {BG}")
    assert state.seats[gc].power == 0, "no Power for the second battle"
    assert any("great-cthulhu battles black-goat in north-atlantic" in line for line in log)
    assert any(line.startswith("Battle in north-atlantic over") for line in log)


def test_both_figures_in_one_area_make_no_second_battle():
    state = igoo_game()
    awakened(state, GC, "nyogtha", "europe", power=1)
    cc = seat(state, CC)
    state.seats[cc].units["acolyte"][5] = "europe"
    state.rng = ScriptedDice([1] * 40)
    state, _ = play(state, GC, f"battle europe vs {CC}")
    state = answer_until(state, lambda state: not state.pending or state.battle is None, pick=-1)
    assert not any(p.kind == "igoo-from-below" for p in state.pending)


def test_losing_one_figure_keeps_the_card_and_losing_both_gives_it_back():
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe")
    board.eliminate(state, gc, "nyogtha", 0)
    phases.advance(state, [])
    assert state.seats[gc].units["nyogtha"] == [POOL, "europe"]
    cthulhu_home(state)
    assert not any(t.startswith("awaken nyogtha") for t in texts(state, GC)), "no Nightmare Web yet, no Awakening"
    board.eliminate(state, gc, "nyogtha", 1)
    phases.advance(state, [])
    assert "nyogtha" not in state.seats[gc].units


def test_one_nyogtha_figure_killed_is_no_great_old_one_killed_for_daoloth():
    state = igoo_game()
    awakened(state, CC, "daoloth", "africa")
    gc = awakened(state, GC, "nyogtha", "europe", power=0)
    state.seats[gc].units["nyogtha"][1] = "asia"
    log = []
    from tabletop.games.cthulhu_wars.neutrals import registry
    board.eliminate(state, gc, "nyogtha", 0)
    registry.after_kill(state, gc, "nyogtha", None, log)
    phases.advance(state, log)
    assert "daoloth" not in state.seats[seat(state, CC)].flags.get("igoo-books", [])
    board.eliminate(state, gc, "nyogtha", 1)
    registry.after_kill(state, gc, "nyogtha", None, log)
    phases.advance(state, log)
    assert "daoloth" in state.seats[seat(state, CC)].flags.get("igoo-books", [])
    assert any("meets Daoloth's requirement" in line for line in log)


@pytest.mark.parametrize("enemy_goo,met", [(True, True), (False, False)])
def test_nightmare_web_comes_when_nyogtha_survives_a_battle_against_an_enemy_great_old_one(enemy_goo, met):
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe", power=1)
    cc = seat(state, CC)
    state.seats[cc].units["acolyte"][5] = "europe"
    if enemy_goo:
        put(state, CC, "nyarlathotep", "europe")
    state.rng = ScriptedDice([1] * 40)
    state, _ = play(state, GC, f"battle europe vs {CC}")
    state = answer_until(state, lambda state: state.battle is None, pick=-1)
    assert ("nyogtha" in state.seats[gc].flags.get("igoo-books", [])) is met


@pytest.mark.parametrize("power,offered", [(2, True), (1, False)])
def test_nightmare_web_brings_a_figure_back_for_two_power_where_you_have_a_unit(power, offered):
    state = igoo_game()
    gc = awakened(state, GC, "nyogtha", "europe", power=power)
    with_book(state, GC, "nyogtha")
    state.seats[gc].units["nyogtha"][0] = POOL
    state.seats[gc].units["acolyte"][5] = "antarctica"
    moves = texts(state, GC)
    assert ("awaken nyogtha antarctica" in moves) is offered
    if offered:
        before = len(state.seats[gc].elder_signs)
        state, log = play(state, GC, "awaken nyogtha antarctica")
        assert sorted(state.seats[gc].units["nyogtha"]) == ["antarctica", "europe"] and state.seats[gc].power == 0
        assert len(state.seats[gc].elder_signs) == before, "no Immortal Elder Sign for a figure brought back"


# ---- the position ----------------------------------------------------------------------------------------------
def test_the_position_and_the_picture_note_the_cards_held():
    from tabletop.render import Text

    state = igoo_game()
    awakened(state, GC, "byatis", "europe")
    note = "great-cthulhu controls Byatis (Independent Great Old One; spellbook God of Forgetfulness when"
    assert note in ENGINE.describe(state, None)
    shown = " ".join(t.text for t in ENGINE.draw(state, None, frozenset()).shapes if isinstance(t, Text))
    assert "great-cthulhu controls Byatis" in shown


# ---- random games with every card ------------------------------------------------------------------------------
IGOO_UNITS = ("byatis", "daoloth", "abhoth", "nyogtha")
NEW_KINDS = {"forgetfulness", "cosmic-unity", "filth", "from-below-capture", "from-below-battle"}


def favoured(rnd, legal):
    """A random move, mostly one that plays the cards (their Awakening, their abilities) or Awakens any Great Old One
    (the cards need one at a Gate), else one at random."""
    new = [a for a in legal if a.kind in NEW_KINDS or getattr(a, "unit", "") in IGOO_UNITS]
    wake = [a for a in legal if a.kind in ("awaken", "gate", "battle")]
    if new and rnd.random() < 0.8:
        return rnd.choice(new)
    if wake and rnd.random() < 0.8:
        return rnd.choice(wake)
    return rnd.choice(legal)


def conserved(state):
    for s, fs in enumerate(state.seats):
        faction = board.faction_of(state, s)
        assert {k: len(v) for k, v in fs.units.items()} == {u.name: u.count for u in faction.units}
        assert fs.power >= 0 and fs.doom >= 0
        assert len(fs.spellbooks) <= 6 and not set(fs.spellbooks) & set(fs.flags.get("igoo-books", []))
    for unit in IGOO_UNITS:
        holders = [fs for fs in state.seats if unit in fs.units]
        assert len(holders) <= 1, "each card exists once"


@pytest.mark.parametrize("players,game_map", [(3, "earth"), (4, "dreamlands"), (5, "earth"), (5, "dreamlands"),
                                              (6, "earth")])
def test_random_games_with_every_independent_and_neutral_option_never_raise(players, game_map):
    """Figures conserved per type (each card's figures with its holder alone), Power and Doom never negative, Gates
    counted as in the soak, every notation read back; the Awakenings are favoured so that the cards are played."""
    seen: dict[str, int] = {}
    for seed in range(2):
        rnd = random.Random(seed)
        options = CthulhuWarsOptions(map=game_map, **EVERY_IGOO, **OTHER_NEUTRALS)
        state = ENGINE.new_game(options, players, seed)
        for _ in range(20000):
            if ENGINE.outcome(state) is not None:
                break
            s = rnd.choice(ENGINE.to_move(state))
            legal = ENGINE.legal_actions(state, s)
            action = favoured(rnd, legal)
            assert ENGINE.parse(ENGINE.notation(action), state, s) == action
            seen[action.kind] = seen.get(action.kind, 0) + (getattr(action, "unit", "") in IGOO_UNITS)
            state, _ = ENGINE.apply(state, s, action)
            conserved(state)
            check_gate_accounting(state)
        assert ENGINE.outcome(state) is not None
    assert seen.get("awaken", 0) >= 1, seen  # a card was Awakened


def test_the_bots_answer_every_independent_decision_legally():
    """Every card on, 3-6 players, Earth and the Dreamlands: wherever an Awakening of a card or one of its abilities is
    among the legal moves, the heuristic and search bots answer legally."""
    asked = bots_answer_legally({**EVERY_IGOO, **OTHER_NEUTRALS},
                                lambda a: a.kind in NEW_KINDS or getattr(a, "unit", "") in IGOO_UNITS, favoured)
    assert "awaken" in asked, asked


@pytest.mark.parametrize("players,game_map", [(4, "earth"), (3, "dreamlands")])
def test_the_compact_legal_lists_name_every_move_of_the_cards_and_read_back(players, game_map):
    """test_compact_texts' check, with every card on: each brief list names every legal move (Awakening a card, God
    of Forgetfulness, Cosmic Unity) and no other."""
    from .test_compact_texts import check_lists

    rnd = random.Random(players)
    state = ENGINE.new_game(CthulhuWarsOptions(map=game_map, **EVERY_IGOO, **OTHER_NEUTRALS), players, players)
    listed: set[str] = set()
    while ENGINE.outcome(state) is None:
        s = rnd.choice(ENGINE.to_move(state))
        legal = ENGINE.legal_actions(state, s)
        listed |= {a.kind for a in legal if a.kind in NEW_KINDS or getattr(a, "unit", "") in IGOO_UNITS}
        action = favoured(rnd, legal)
        after, _ = ENGINE.apply(state, s, action)
        check_lists(state, after, s, action)
        state = after
    assert "awaken" in listed, listed


def test_the_bots_answer_from_below_and_cosmic_unity_legally():
    """The decisions random games reach seldom, put to both bots directly."""
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot

    bots = [CwHeuristicBot(3), CwSearchBot(3, seconds=None, iterations=4)]
    state, gc, _, _ = from_below_capture_state()
    state, _ = play(state, GC, f"capture europe vs {CC}")
    unity, daoloth_side, _ = daoloth_battle([1] * 30)
    abhoth = igoo_game()
    abhoth_side = awakened(abhoth, GC, "abhoth", "europe", power=3)
    for position, s, kind in ((state, gc, "igoo-from-below"), (unity, daoloth_side, "pre-battle"),
                              (abhoth, abhoth_side, None)):
        assert kind is None or position.pending[0].kind == kind
        legal = ENGINE.legal_actions(position, s)
        for bot in bots:
            assert bot.choose(ENGINE, position, s) in legal


def test_hibernate_counts_an_enemys_independent_great_old_one():
    from tabletop.games.cthulhu_wars.factions.windwalker import enemy_goos_in_play

    state = seated(["windwalker", GC, CC], **EVERY_IGOO)
    ww = seat(state, "windwalker")
    assert enemy_goos_in_play(state, ww) == 0
    awakened(state, GC, "byatis", "europe")
    assert enemy_goos_in_play(state, ww) == 1
    assert board.goos_in_play(state, seat(state, GC)) == 0, "no faction Great Old One for a Ritual"


def finish_battle(state):
    """Answer every decision of the battle under way with the last legal move, until it is over."""
    for _ in range(20):
        if state.battle is None:
            break
        s = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[-1])
    assert state.battle is None
    return state


@pytest.mark.parametrize("second,met", [("declined", True), ("survived", True), ("killed", False)])
def test_nightmare_web_counts_both_from_below_battles_of_the_action(second, met):
    """The first battle (against Nyarlathotep) would earn Nightmare Web; a Nyogtha figure Killed in the From Below
    battle of the same action takes it back (official FAQ "battle Area(s)", HRF): rules_text igoo-nyogtha."""
    state, gc, cc, bg = from_below_capture_state()
    put(state, CC, "nyarlathotep", "europe")
    put(state, BG, "dark-young", "north-atlantic")
    state.rng = ScriptedDice([1] * 40)
    state, _ = play(state, GC, f"battle europe vs {CC}")
    state = answer_until(state, lambda state: state.pending and state.pending[0].kind == "igoo-from-below", pick=-1)
    assert state.pending[0].kind == "igoo-from-below"
    assert "nyogtha" not in state.seats[gc].flags.get("igoo-books", []), "not before the action is over"
    if second == "declined":
        state, _ = play(state, GC, "done")
    else:
        state.rng = ScriptedDice([1, 1, 1, 1] + ([6, 1] if second == "killed" else [1, 1]))  # Nyogtha 4, Dark Young 2
        state, _ = play(state, GC, f"from-below-battle north-atlantic vs {BG}")
        state = finish_battle(state)
        assert (state.seats[gc].units["nyogtha"][1] == POOL) is (second == "killed")
    assert ("nyogtha" in state.seats[gc].flags.get("igoo-books", [])) is met
    assert "igoo-nyogtha-web" not in state.seats[gc].flags
