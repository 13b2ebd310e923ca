"""Out-of-turn windows (rules_text ``cthulhu-wars/out-of-turn``): Elder Sign reveals during another faction's
turn and in the Doom phase, several seats asked at once, seats with nothing to do left alone."""

from tabletop.games.cthulhu_wars import ENGINE, phases

from .cw_helpers import BG, CC, GC, give_turn, new_game, play, seat


def texts(state, faction):
    return {ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat(state, faction))}


def test_a_seat_may_reveal_elder_signs_after_another_factions_action():
    state = new_game(3)
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[cc].elder_signs = [2, 1]
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [cc], "only the seat with a choice is asked"
    assert texts(state, CC) == {"reveal", "done"}
    moves = ENGINE.legal_moves(state, cc)
    assert {m.notation for g in moves.groups for m in g.moves} == {"reveal", "done"}
    assert ENGINE.legal_actions(state, gc) == [] and ENGINE.legal_actions(state, seat(state, BG)) == []
    state, _ = play(state, CC, "reveal")
    assert state.seats[cc].doom == 3 and state.seats[cc].elder_signs == []
    assert ENGINE.to_move(state) == [gc] and state.turn.seat == gc, "then Great Cthulhu's turn goes on"


def test_every_seat_with_a_choice_is_asked_at_once_and_each_may_pass():
    state = new_game(3)
    gc, cc, bg = seat(state, GC), seat(state, CC), seat(state, BG)
    state.seats[cc].elder_signs = [1]
    state.seats[bg].elder_signs = [3]
    state.seats[gc].elder_signs = [2]  # the acting seat is not asked: it may reveal on its own turn
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert ENGINE.to_move(state) == [cc, bg]
    state, _ = play(state, BG, "done")
    assert ENGINE.to_move(state) == [cc] and state.seats[bg].elder_signs == [3]
    state, _ = play(state, CC, "done")
    assert ENGINE.to_move(state) == [gc] and state.seats[cc].elder_signs == [1]
    assert "reveal" in texts(state, GC)


def test_no_window_when_nobody_holds_anything_to_do_out_of_turn():
    state = new_game(3)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert not state.pending and ENGINE.to_move(state) == [seat(state, GC)]


def test_an_out_of_turn_reveal_reaching_30_doom_ends_the_game_at_the_end_of_the_current_turn():
    state = new_game(3)
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[cc].doom = 27
    state.seats[cc].requirements = ["three-gates-or-12-power"]  # already met: no spellbook to take
    state.seats[cc].elder_signs = [3]
    state, _ = play(state, GC, "summon deep-one south-pacific")
    state, _ = play(state, CC, "reveal")
    assert state.seats[cc].doom == 30 and state.phase == "action" and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "done")
    assert state.phase == "over"


def test_in_the_doom_phase_a_seat_may_reveal_after_a_later_seats_ritual_decision():
    """The first seat in Doom order declines; after each later seat's decision it may still reveal."""
    state = new_game(3)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    gc, cc, bg = seat(state, GC), seat(state, CC), seat(state, BG)
    state, _ = play(state, GC, f"first-player {GC}")
    state, _ = play(state, GC, "direction clockwise")
    state, _ = play(state, GC, "spellbook dreams")  # first Doom phase: an Elder Sign for Great Cthulhu
    signs = list(state.seats[gc].elder_signs)
    state, _ = play(state, GC, "no-ritual")
    assert state.pending[0].kind == "ritual" and ENGINE.to_move(state) == [cc], "Great Cthulhu is not asked twice"
    state, _ = play(state, CC, "ritual")
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "done")
    state, _ = play(state, BG, "no-ritual")
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [gc]
    doom = state.seats[gc].doom
    state, _ = play(state, GC, "reveal")
    assert state.seats[gc].doom == doom + sum(signs)
    assert state.phase == "action", "the Doom phase is over"


def test_the_other_ruling_asks_nobody_out_of_turn():
    state = new_game(3, reveal_out_of_turn=False)
    cc = seat(state, CC)
    state.seats[cc].elder_signs = [2]
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert not state.pending and ENGINE.to_move(state) == [seat(state, GC)]
    give_turn(state, CC, power=3)
    assert "reveal" in texts(state, CC), "its own turn still allows it"


def test_a_doom_phase_decision_ending_with_a_reveal_also_opens_a_window():
    state = new_game(3)
    cc, bg = seat(state, CC), seat(state, BG)
    state.phase, state.turn = "doom", None
    for fs in state.seats:
        fs.power = 0
    state.seats[cc].elder_signs = [1]
    state.seats[bg].elder_signs = [2]
    state.doom_queue = [cc, bg]
    phases.next_ritual(state, [])
    assert ENGINE.to_move(state) == [cc]
    state, _ = play(state, CC, "reveal")  # cannot pay for a Ritual: its decision is over
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [bg]
