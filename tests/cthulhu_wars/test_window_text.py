"""The short text a seat reads in an out-of-turn window instead of the whole position, and what the window records
about the action that opened it (rules_text ``cthulhu-wars/out-of-turn``)."""

import json

from tabletop.games.cthulhu_wars import ENGINE

from .cw_helpers import BG, CC, GC, ScriptedDice, give_turn, new_game, play, put, seat

LIMIT = 350


def battle_in_the_north_pacific():
    """Great Cthulhu's Starspawn battles Crawling Chaos's Flying Polyp and two Acolytes in the North Pacific; Black
    Goat (nowhere near) and Crawling Chaos hold Elder Signs. The battle is fought to its end."""
    state = new_game(3)
    put(state, GC, "starspawn", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    state.seats[seat(state, CC)].units["acolyte"][4:] = ["north-pacific"] * 2
    state.seats[seat(state, BG)].elder_signs = [2, 1]
    state.seats[seat(state, CC)].elder_signs = [3]
    state.seats[seat(state, CC)].requirements = ["units-in-4-areas", "units-in-6-areas"]  # no spellbook pause
    state.rng = ScriptedDice([6, 5, 1, 4])
    state, _ = play(state, GC, "battle north-pacific vs crawling")
    state, _ = play(state, CC, "assign kill flying-polyp")
    state, _ = play(state, GC, "retreat starspawn to south-pacific")
    state, _ = play(state, CC, "retreat acolyte to asia")
    state, _ = play(state, GC, "spellbook regenerate")
    return state


def test_the_window_after_a_battle_names_the_action_the_area_and_the_victim_in_a_short_text():
    state = battle_in_the_north_pacific()
    gc, cc, bg = seat(state, GC), seat(state, CC), seat(state, BG)
    assert state.pending[0].kind == "window" and set(ENGINE.to_move(state)) == {cc, bg}
    victim = ENGINE.decision_text(state, cc)
    assert victim.startswith("Round 1, Action phase: window after Great Cthulhu's Battle in north-pacific against you.")
    assert "You: 8 Power, 0 Doom." in victim and "reveal (your Elder Signs [3]: +3 Doom)" in victim
    assert victim.endswith("Say 'done' to pass.") and len(victim) <= LIMIT
    bystander = ENGINE.decision_text(state, bg)
    assert "Great Cthulhu's Battle in north-pacific against Crawling Chaos." in bystander
    assert "reveal (your Elder Signs [2, 1]: +3 Doom)" in bystander and len(bystander) <= LIMIT
    for text in (victim, bystander):
        assert "Gate of" not in text and "spellbooks" not in text, "no position: only the window"
    assert ENGINE.decision_text(state, gc) is None, "Great Cthulhu is not asked (its own action, nothing to do)"


def test_the_window_data_says_what_opened_it_where_and_whom_it_concerned_json_ready():
    state = battle_in_the_north_pacific()
    gc, cc, bg = seat(state, GC), seat(state, CC), seat(state, BG)
    window = state.pending[0].data
    assert json.loads(json.dumps(window)) == window
    assert window["actor"] == gc and window["context"] == "action"
    assert window["action"] == "Battle in north-pacific against Crawling Chaos"
    assert window["areas"] == ["north-pacific"], "the battle's Area"
    assert set(window["touched"]) == {"south-pacific", "asia"}, "where the Pained units retreated"
    assert window["against"] == [cc] and bg not in window["near"] and {gc, cc} <= set(window["near"])


def test_only_real_options_are_listed_devolve_with_its_areas_and_no_reveal_without_elder_signs():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].spellbooks = ["devolve"]
    state.seats[gc].units["acolyte"][5] = "europe"
    give_turn(state, CC)
    state, _ = play(state, CC, "summon nightgaunt asia")
    assert ENGINE.to_move(state) == [gc]
    text = ENGINE.decision_text(state, gc)
    assert "window after Crawling Chaos's Summon (Nightgaunt) in asia." in text
    assert "You may: devolve europe/south-pacific (an Acolyte there becomes a Deep One)." in text
    assert "reveal" not in text and len(text) <= LIMIT
    assert {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)} == {"devolve europe", "devolve south-pacific", "done"}


def test_a_move_window_names_the_units_and_their_destinations():
    state = new_game(3)
    cc = seat(state, CC)
    state.seats[cc].elder_signs = [1]
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    state, _ = play(state, GC, "move acolyte south-pacific>indian-ocean")
    assert not state.pending, "no window while the Move is under way"
    state, _ = play(state, GC, "done")
    window = state.pending[0].data
    assert window["action"] == "Move (3 Acolytes) into north-pacific, indian-ocean"
    assert window["areas"] == ["north-pacific", "indian-ocean"] and window["touched"] == ["south-pacific"]
    assert "window after Great Cthulhu's Move (3 Acolytes) into north-pacific, indian-ocean." in ENGINE.decision_text(state, cc)


def test_avatar_records_both_areas_and_says_which_unit_went_where():
    state = new_game(3)
    cc, gc = seat(state, CC), seat(state, GC)
    state.seats[gc].elder_signs = [2]
    put(state, BG, "shub-niggurath", "africa")
    put(state, CC, "nightgaunt", "asia")
    give_turn(state, BG)
    state, _ = play(state, BG, f"avatar {CC} to asia")
    state, log = play(state, CC, "avatar-swap nightgaunt asia>africa")
    assert f"{CC}'s Nightgaunt goes from asia to africa, Shub-Niggurath's place." in log
    window = state.pending[0].data
    assert window["action"] == "Avatar in asia against Crawling Chaos" and window["areas"] == ["asia"]
    assert window["touched"] == ["africa"] and window["against"] == [cc] and gc not in window["near"]


def test_a_doom_phase_window_names_the_decision_that_opened_it():
    state = new_game(3)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    state, _ = play(state, GC, f"first-player {GC}")
    state, _ = play(state, GC, "direction clockwise")
    state, _ = play(state, GC, "spellbook dreams")  # the first Doom phase gives Great Cthulhu an Elder Sign
    signs = state.seats[seat(state, GC)].elder_signs
    state, _ = play(state, GC, "no-ritual")
    state, _ = play(state, CC, "ritual")
    text = ENGINE.decision_text(state, seat(state, GC))
    assert text.startswith("Round 2, Doom phase: window after Crawling Chaos's Doom-phase decision (a Ritual of "
                           "Annihilation).")
    assert f"reveal (your Elder Signs {signs}: +{sum(signs)} Doom)" in text and len(text) <= LIMIT
    state, _ = play(state, GC, "done")
    state, _ = play(state, BG, "no-ritual")
    assert "Doom-phase decision (no Ritual)" in ENGINE.decision_text(state, seat(state, GC))


def test_no_window_text_for_any_other_decision_or_for_a_seat_not_asked():
    state = new_game(3)
    assert all(ENGINE.decision_text(state, s) is None for s in range(3)), "an Action-phase turn"
    state = battle_in_the_north_pacific()
    state, _ = play(state, BG, "done")
    assert ENGINE.decision_text(state, seat(state, BG)) is None, "it has passed"
    assert ENGINE.decision_text(state, seat(state, CC)) is not None
    state, _ = play(state, CC, "done")
    assert not state.pending and ENGINE.decision_text(state, seat(state, CC)) is None
