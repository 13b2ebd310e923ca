"""Cthulhu Wars: the scripted Great Old One rusher (``bots/cthulhu_wars/rusher.py``), the model-like rival the bots are
measured against (issue 41): it takes a weak enemy Gate in its Great Old One's reach, Awakens and marches, answers
every decision legally and reproducibly."""

from __future__ import annotations

from tabletop.arena.match import play_match
from tabletop.bots import RandomBot
from tabletop.bots.cthulhu_wars.rusher import CwRusherBot
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import ENGINE as CW
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

from cthulhu_wars.cw_helpers import BG, CC, GC, YS, clear, give_turn, new_game, put


def hold_gate(state, faction: str, area: str) -> None:
    """The faction's Acolyte in ``area`` controls a Gate there."""
    seat = state.seat_of(faction)
    state.gates[area] = (seat, "acolyte", state.seats[seat].units["acolyte"].index(area))


def weak_enemy_gate():
    """Great Cthulhu (four requirements met) to act with 4 Power, Cthulhu in Europe, where the Yellow Sign (no Great
    Old One out) holds its Gate with a lone Acolyte; Crawling Chaos has moved its Gate and Cultists from Asia to North America East."""
    state = new_game(4)
    clear(state, CC, "asia")
    del state.gates["asia"]
    put(state, CC, "acolyte", "north-america-east", 6)
    hold_gate(state, CC, "north-america-east")
    clear(state, YS, "europe")
    put(state, YS, "acolyte", "europe")
    hold_gate(state, YS, "europe")
    put(state, GC, "cthulhu", "europe")
    # Its requirements for Kills, Cthulhu and ocean Gates already met: what it gains here is the Gate alone.
    state.seats[state.seat_of(GC)].requirements += ["kill-one", "kill-two", "awaken-cthulhu", "ocean-gates"]
    give_turn(state, GC, power=4)
    return state


def test_the_rusher_takes_a_lone_enemy_gate_under_its_great_old_one():
    state = weak_enemy_gate()
    seat = state.seat_of(GC)
    assert CW.notation(CwRusherBot(3).choose(CW, state, seat)) == f"capture europe vs {YS}"


# ---- the rusher -------------------------------------------------------------------------------------------
def test_the_rusher_awakens_and_marches_and_answers_every_decision_legally():
    """Two short games against random seats, a rusher as Great Cthulhu and one as another faction (its nearest
    equivalent): every answer legal, Cthulhu Awakened and marched on a Gate by the script."""
    scripted: set[str] = set()
    for seed in (3, 4):
        state = CW.new_game(CthulhuWarsOptions(factions=[GC, CC, BG, YS]), 4, seed)
        bots = [CwRusherBot(seed), RandomBot(seed + 1), CwRusherBot(seed + 2), RandomBot(seed + 3)]
        for _ in range(700):
            seats = CW.to_move(state)
            if not seats:
                break
            seat = seats[0]
            legal = CW.legal_actions(state, seat)
            if isinstance(bots[seat], CwRusherBot):
                planned, why = bots[seat].script(state, seat, legal)
                if planned is not None:
                    scripted.add(f"{state.seats[seat].faction}: {planned.kind}")
                    assert why
            action = bots[seat].choose(CW, state, seat)
            assert action in legal
            state, _ = CW.apply(state, seat, action)
    assert {f"{GC}: awaken", f"{GC}: move"} <= scripted
    assert any(s.startswith(BG) for s in scripted)


def test_the_rusher_is_deterministic_from_its_seed():
    options = CW.read_options({})
    first = play_match(CW, [CwRusherBot(5), RandomBot(6), RandomBot(7)], seed=11, options=options, max_actions=400)
    again = play_match(CW, [CwRusherBot(5), RandomBot(6), RandomBot(7)], seed=11, options=options, max_actions=400)
    assert first == again
    state = weak_enemy_gate()
    state = CW.with_generator(state, Rng(99))
    seat = state.seat_of(GC)
    assert len({str(CwRusherBot(8).choose(CW, state, seat)) for _ in range(2)}) == 1
    suggestion = CwRusherBot(8).suggest(CW, state, seat)
    assert suggestion.action in CW.legal_actions(state, seat) and "rush" in suggestion.explanation
