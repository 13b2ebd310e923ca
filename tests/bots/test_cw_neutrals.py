"""Cthulhu Wars bots and the neutral material (issue 38): the evaluation knows neutral Monster cards, Independent Great
Old Ones (no faction Great Old Ones), their cards' spellbooks and requirements; the heuristic buys a card or Awakens an
Independent Great Old One when it is worth it, and not when it gives nothing."""

from __future__ import annotations

from tabletop.bots.cthulhu_wars import evaluation as ev
from tabletop.bots.cthulhu_wars import knowledge as kn
from tabletop.bots.cthulhu_wars import win_model
from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
from tabletop.games.cthulhu_wars import ENGINE as CW
from tabletop.games.cthulhu_wars import phases
from tabletop.games.cthulhu_wars.state import POOL

from cthulhu_wars.cw_helpers import BG, GC, give_turn, new_game, put

SP = "south-pacific"
CARDS = {"neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True, "neutral_star_vampire": True}
IGOOS = {"igoo_byatis": True, "igoo_abhoth": True, "igoo_daoloth": True, "igoo_nyogtha": True}


def doom_decision(state, faction, doom=4, power=0):
    """``faction``'s Doom-phase decision with ``doom`` Doom and ``power`` Power (0: no Ritual to weigh)."""
    s = state.seat_of(faction)
    state.phase, state.turn = "doom", None
    state.doom_phases += 1
    state.seats[s].doom, state.seats[s].power = doom, power
    state.doom_queue = [s]
    phases.next_ritual(state, [])
    assert CW.to_move(state) == [s] and state.pending[0].kind == "ritual"
    return state, s


def choices(state, seat, seeds=range(3)):
    return {CW.notation(CwHeuristicBot(seed).choose(CW, state, seat)) for seed in seeds}


def test_the_heuristic_takes_the_ghast_card_for_two_doom_when_its_four_ghasts_go_to_its_gate():
    state, s = doom_decision(new_game(4, neutral_ghast=True), GC)
    assert SP in state.gates and state.controller(SP) == s
    assert choices(state, s) == {"buy-card ghast"}


def test_the_heuristic_takes_no_card_without_a_gate_to_place_its_figures():
    state, s = doom_decision(new_game(4, **CARDS), GC)
    del state.gates[SP]
    assert any(a.kind == "buy-card" for a in CW.legal_actions(state, s))
    assert all(not c.startswith("buy-card") for c in choices(state, s))


def test_the_heuristic_awakens_byatis_at_its_gate_with_power_to_spare():
    """Cthulhu Awakened (its requirements met), 5 Power: Byatis (4) is worth more than the small actions left."""
    state = new_game(4, igoo_byatis=True)
    put(state, GC, "cthulhu", SP)
    s = state.seat_of(GC)
    state.seats[s].requirements += ["awaken-cthulhu", "ocean-gates", "kill-one", "kill-two"]
    give_turn(state, GC, power=5)
    assert any(a.kind == "awaken" and a.unit == "byatis" for a in CW.legal_actions(state, s))
    assert choices(state, s) == {f"awaken byatis {SP}"}


def test_an_independent_great_old_one_is_worth_less_than_a_faction_one_and_its_book_is_not_one_of_the_six():
    state = new_game(4, **IGOOS)
    s = state.seat_of(GC)
    fac = kn.faction(state, s)
    before = ev.evaluate(state, s).mine
    state.seats[s].units["byatis"] = [SP]
    fac = kn.faction(state, s)
    assert kn.unit_worth(fac, "byatis") < kn.unit_worth(fac, "cthulhu")
    # Byatis on the map counts among the units and as no faction Great Old One (for the learned model either).
    after = ev.evaluate(state, s).mine
    assert after.units > before.units
    features = dict(zip(win_model.FEATURES, win_model.features(state, s, 0.0, 0.0)))
    assert features["Great Old Ones"] == 0 and features["other units"] >= 1
    # His spellbook on his card is worth something, but less than a faction spellbook, and is not one of the six.
    state.seats[s].flags["igoo-books"] = ["byatis"]
    booked = ev.evaluate(state, s).mine
    assert kn.books(state, s) == 0
    assert 0 < booked.spellbooks - after.spellbooks < ev.DEFAULT.book


def test_progress_towards_an_independent_great_old_ones_book_follows_its_own_requirement():
    state = new_game(4, **IGOOS)
    s, bg = state.seat_of(GC), state.seat_of(BG)
    state.seats[s].units["nyogtha"] = [SP, POOL]
    far = kn.igoo_progress(state, s)
    # An enemy Great Old One in Nyogtha's Area: a battle against it is at hand (Nightmare Web's requirement).
    put(state, BG, "shub-niggurath", SP)
    assert kn.igoo_progress(state, s) > far
    # Once the book is on the card there is no progress left to count.
    state.seats[s].flags["igoo-books"] = ["nyogtha"]
    assert kn.igoo_progress(state, s) == 0
    # Abhoth's The Brood: Monsters in play towards 8 (Filth counts).
    state.seats[bg].units["abhoth"] = ["africa"]
    state.seats[bg].units["filth"] = [POOL] * 12
    none = kn.igoo_progress(state, bg)
    state.seats[bg].units["filth"] = ["africa"] * 4 + [POOL] * 8
    assert kn.igoo_progress(state, bg) > none


def test_a_held_cards_figures_in_the_pool_count_a_little():
    state = new_game(4, **CARDS)
    s = state.seat_of(GC)
    assert kn.neutral_pool_worth(state, s) == 0
    state.seats[s].units["gug"] = [POOL, POOL]
    pooled = kn.neutral_pool_worth(state, s)
    assert 0 < pooled < kn.unit_worth(kn.faction(state, s), "gug")
