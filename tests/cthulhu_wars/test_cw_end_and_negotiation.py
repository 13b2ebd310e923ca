"""Victory (rules_text ``cthulhu-wars/end``) and negotiations (``cthulhu-wars/negotiation``)."""

from tabletop.games.cthulhu_wars import ENGINE, negotiation, victory

from .cw_helpers import BG, CC, GC, new_game, play, seat

SIX = ["a", "b", "c", "d", "e", "f"]


def finished(doom, books, signs=((), (), ())):
    state = new_game(3)
    for fs, d, b, es in zip(state.seats, doom, books, signs, strict=True):
        fs.doom, fs.spellbooks, fs.elder_signs = d, list(b), list(es)
    victory.finish(state, [])
    return state


def test_most_doom_among_six_spellbook_holders_wins_after_elder_signs_are_revealed():
    state = finished([25, 28, 30], [SIX, SIX, SIX[:5]], signs=([3, 3], [], []))
    assert state.winners == [0] and state.seats[0].doom == 31
    assert ENGINE.outcome(state).winners == [0]


def test_ties_share_the_win_and_nobody_eligible_means_everybody_loses():
    assert finished([20, 20, 5], [SIX, SIX, SIX]).winners == [0, 1]
    assert finished([30, 20, 5], [SIX[:5], [], []]).winners == []


def test_thirty_doom_ends_the_game_when_the_doom_phase_completes():
    state = new_game(3)
    state.seats[0].doom = 29
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    state, _ = play(state, GC, f"first-player {GC}")
    state, _ = play(state, GC, "direction clockwise")
    assert state.phase == "doom"  # 30 Doom now, but the Doom phase finishes first
    state, _ = play(state, GC, "spellbook devolve")
    while state.phase == "doom":  # nobody performs a Ritual; Great Cthulhu keeps its Elder Sign hidden
        s = ENGINE.to_move(state)[0]
        answer = "done" if state.pending[0].kind == "window" else "no-ritual"
        state, _ = ENGINE.apply(state, s, ENGINE.parse(answer, state, s))
    assert state.phase == "over" and ENGINE.to_move(state) == []


def test_simultaneous_offers_that_agree_are_carried_out():
    settled = []
    negotiation.register_settler("test-loss", lambda state, data, agreed, log: settled.append(agreed))
    state = new_game(3)
    cc, bg = seat(state, CC), seat(state, BG)
    log: list[str] = []
    negotiation.open_negotiation(state, topic="test-loss", owner=0, amount=3, limits={cc: 8, bg: 2}, log=log)
    assert sorted(ENGINE.to_move(state)) == [cc, bg]
    assert log == [f"Negotiation (test-loss): {CC}, {BG} must share 3."], "the log names who must share what"
    offers = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, bg)}
    assert f"offer {CC}=1,{BG}=2" in offers and len(offers) == 3
    state, _ = play(state, BG, f"offer {CC}=2,{BG}=1")
    assert ENGINE.to_move(state) == [cc]
    state, _ = play(state, CC, "offer crawling=2,goat=1")
    assert settled == [{CC: 2, BG: 1}]


def test_offers_that_differ_fall_back_to_the_rule():
    settled = []
    negotiation.register_settler("test-loss-2", lambda state, data, agreed, log: settled.append(agreed))
    state = new_game(3)
    cc, bg = seat(state, CC), seat(state, BG)
    negotiation.open_negotiation(state, topic="test-loss-2", owner=0, amount=2, limits={cc: 5, bg: 0}, log=[])
    assert ENGINE.to_move(state) == [cc]  # a seat with nothing to give takes no part
    state, _ = play(state, CC, f"offer {CC}=2")
    assert settled == [{CC: 2}]
    state = new_game(3)
    negotiation.open_negotiation(state, topic="test-loss-2", owner=0, amount=2, limits={cc: 5, bg: 5}, log=[])
    state, _ = play(state, CC, f"offer {CC}=0,{BG}=2")
    state, _ = play(state, BG, f"offer {CC}=2,{BG}=0")
    assert settled[-1] is None


def test_every_split_within_the_limits_is_offered_once_in_order():
    """Offers are every split of the amount with each share within its seat's limit: checked against all the
    tuples of shares filtered by their sum, for amounts that the limits cap and that they cannot reach."""
    from itertools import product

    for amount, limits in [(3, [8, 2]), (6, [6, 6, 6, 6, 6]), (4, [1, 0, 2, 3]), (9, [2, 2]), (0, [3, 3])]:
        every = [s for s in product(*(range(most + 1) for most in limits)) if sum(s) == amount]
        assert negotiation.splits(amount, limits) == every
    assert len(negotiation.splits(6, [6] * 5)) == 210  # C(10, 4): six shared among five, none capped


def test_thirty_doom_from_an_ability_ends_the_game_at_the_end_of_that_turn():
    """rules_text end: reaching 30 Doom at any time in the Action phase ends the game at the end of the current
    turn, here through the Yellow Sign giving Great Cthulhu 3 Doom."""
    from .cw_helpers import give_turn

    state = new_game(3, factions=[GC, "yellow-sign", BG])
    gc, ys = seat(state, GC), seat(state, "yellow-sign")
    state.seats[gc].doom = 27
    give_turn(state, "yellow-sign", power=4)
    state, _ = play(state, "yellow-sign", "ys-give-doom great-cthulhu")
    assert state.seats[gc].doom == 30 and state.phase == "action"
    state, _ = play(state, "yellow-sign", "spellbook passion")  # the requirement 'give-doom'
    assert ENGINE.to_move(state) == [ys], "the Yellow Sign may still finish its turn"
    state, _ = play(state, "yellow-sign", "done")
    assert state.phase == "over" and ENGINE.outcome(state).winners == []


def test_thirty_doom_from_elder_signs_owed_with_an_empty_bag_ends_the_game_at_the_end_of_the_turn():
    """rules_text doom: with the bag empty a faction owed an Elder Sign gains 1 Doom instead; if that makes 30 the
    game ends at the end of the turn."""
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].doom = 29
    state.seats[gc].power = 10
    state.es_bag = [0, 0, 0]
    state, _ = play(state, GC, "awaken cthulhu south-pacific")  # Immortal: an Elder Sign, owed as 1 Doom
    assert state.seats[gc].doom == 30
    while state.phase != "over":
        s = ENGINE.to_move(state)[0]
        assert s == gc, "nobody else gets a turn"
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[-1])  # a spellbook, then done
    assert state.winners == []
