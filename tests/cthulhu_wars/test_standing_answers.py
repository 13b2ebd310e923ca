"""Standing answers: windows a seat always passes are answered 'done' for it, every other decision is asked
(rules_text ``cthulhu-wars/out-of-turn``)."""

import random

import pytest
from pydantic import ValidationError

from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.standing import StandingAnswers

from .cw_helpers import BG, CC, GC, give_turn, new_game, play, put, seat

PASS_ALL = StandingAnswers(windows="pass", doom_windows="pass", reveal="own-turn")


def answer(state, faction, **fields):
    return ENGINE.standing_answer(state, seat(state, faction), StandingAnswers(**fields))


def summon_in_asia(*, bg_signs=(2,), gc_books=(), bg_in_asia=False):
    """Crawling Chaos summons a Nightgaunt in Asia (its home, a Gate it controls); Black Goat holds Elder Signs."""
    state = new_game(3)
    state.seats[seat(state, BG)].elder_signs = list(bg_signs)
    state.seats[seat(state, GC)].spellbooks = list(gc_books)
    if bg_in_asia:
        put(state, BG, "ghoul", "asia")
    give_turn(state, CC)
    state, _ = play(state, CC, "summon nightgaunt asia")
    assert state.pending[0].kind == "window"
    return state


def test_the_engine_offers_the_model_and_its_defaults_are_the_rules():
    assert ENGINE.standing_model is StandingAnswers
    defaults = StandingAnswers()
    assert (defaults.windows, defaults.doom_windows, defaults.reveal, defaults.always_ask) == ("ask", "ask", "any-window", [])
    schema = StandingAnswers.model_json_schema()
    assert schema["additionalProperties"] is False
    assert all(field.get("description") for field in schema["properties"].values())
    with pytest.raises(ValidationError):
        StandingAnswers(windows="sometimes")
    with pytest.raises(ValidationError):
        StandingAnswers(pass_everything=True)


def test_pass_answers_a_window_and_the_default_asks():
    state = summon_in_asia()
    assert ENGINE.to_move(state) == [seat(state, BG)]
    assert answer(state, BG) is None
    assert answer(state, BG, windows="pass") == "done"
    after, _ = ENGINE.apply(state, seat(state, BG), ENGINE.parse("done", state, seat(state, BG)))
    assert not after.pending, "the answer given is a legal move that closes the window"


def test_near_my_units_asks_only_when_the_action_took_place_where_the_seat_has_units():
    far = summon_in_asia()
    assert answer(far, BG, windows="near-my-units") == "done"
    near = summon_in_asia(bg_in_asia=True)
    assert answer(near, BG, windows="near-my-units") is None


def test_reveals_can_wait_for_the_doom_phase_or_the_seats_own_turn():
    state = summon_in_asia()
    assert answer(state, BG, reveal="doom-phase") == "done"
    assert answer(state, BG, reveal="own-turn") == "done"
    doom = new_game(3)
    for s in doom.order_from(doom.first_player):
        doom, _ = ENGINE.apply(doom, s, ENGINE.parse("pass", doom, s))
    doom, _ = play(doom, GC, f"first-player {GC}")
    doom, _ = play(doom, GC, "direction clockwise")
    doom, _ = play(doom, GC, "spellbook dreams")  # an Elder Sign for Great Cthulhu in the first Doom phase
    doom, _ = play(doom, GC, "no-ritual")
    doom, _ = play(doom, CC, "ritual")
    assert doom.pending[0].kind == "window" and doom.pending[0].data["context"] == "doom"
    assert answer(doom, GC, reveal="doom-phase") is None
    assert answer(doom, GC, reveal="doom-phase", windows="pass") is None, "Doom-phase windows have their own field"
    assert answer(doom, GC, reveal="own-turn") == "done"
    assert answer(doom, GC, doom_windows="pass") == "done"


def test_always_ask_devolve_overrides_a_pass_when_an_enemy_attacks_the_seat():
    quiet = summon_in_asia(bg_signs=(), gc_books=("devolve",))
    assert ENGINE.to_move(quiet) == [seat(quiet, GC)], "Great Cthulhu may Devolve"
    assert answer(quiet, GC, windows="pass", always_ask=["devolve"]) == "done", "nothing happened near its units"
    state = new_game(3)
    state.seats[seat(state, GC)].spellbooks = ["devolve"]
    put(state, CC, "hunting-horror", "south-pacific")
    give_turn(state, CC)
    state, _ = play(state, CC, f"battle south-pacific vs {GC}")  # a Hunting Horror attacks the Acolytes at home
    while state.pending[0].kind != "window":
        s = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
    assert seat(state, GC) in ENGINE.to_move(state)
    assert answer(state, GC, windows="pass") == "done"
    assert answer(state, GC, windows="pass", always_ask=["devolve"]) is None
    assert answer(state, GC, windows="near-my-units") is None, "it was attacked"


def test_always_ask_devolve_does_not_ask_when_an_enemy_only_moves_in_beside_the_seats_units():
    state = new_game(3)
    state.seats[seat(state, GC)].spellbooks = ["devolve"]
    put(state, CC, "hunting-horror", "north-pacific")
    give_turn(state, CC)
    state, _ = play(state, CC, "move hunting-horror north-pacific>south-pacific")
    state, _ = play(state, CC, "done")
    assert state.pending and state.pending[0].kind == "window" and seat(state, GC) in ENGINE.to_move(state)
    assert answer(state, GC, windows="pass", always_ask=["devolve"]) == "done", "not aimed at Great Cthulhu"
    assert answer(state, GC, windows="near-my-units", always_ask=["devolve"]) is None, "but near its units"


def test_a_window_after_the_seats_own_action_counts_as_near_its_units():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].spellbooks = ["devolve"]
    state, _ = play(state, GC, "summon shoggoth south-pacific")
    assert state.pending[0].kind == "window" and state.pending[0].data["actor"] == gc
    assert ENGINE.standing_answer(state, gc, PASS_ALL) == "done"
    assert ENGINE.standing_answer(state, gc, StandingAnswers(windows="near-my-units")) is None
    assert ENGINE.standing_answer(state, gc, StandingAnswers(windows="pass", always_ask=["devolve"])) == "done"


def test_no_standing_answer_for_any_decision_but_a_window_and_none_by_default():
    """A random game: every answer of the defaults is None; with everything passed, 'done' comes only for a seat
    asked in a window, and it is legal then."""
    rnd = random.Random(7)
    state = ENGINE.new_game(CthulhuWarsOptions(), 4, 7)
    for fs in state.seats:
        fs.elder_signs = [1]
    answered = 0
    for _ in range(500):
        if ENGINE.outcome(state) is not None:
            break
        for s in range(len(state.seats)):
            assert ENGINE.standing_answer(state, s, StandingAnswers()) is None
            given = ENGINE.standing_answer(state, s, PASS_ALL)
            if given is not None:
                window = state.pending[0]
                assert given == "done" and window.kind == "window" and s in ENGINE.to_move(state)
                assert "done" in {ENGINE.notation(a) for a in ENGINE.legal_actions(state, s)}
                answered += 1
        s = rnd.choice(ENGINE.to_move(state))
        state, _ = ENGINE.apply(state, s, rnd.choice(ENGINE.legal_actions(state, s)))
    assert answered > 0
