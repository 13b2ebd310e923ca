"""The A Game of War and Cthulhu Wars bots: every decision answered legally, reproducible, no stalls, no peeking.

Kept light for CI: short games, small search budgets (in iterations, so exactly reproducible). The strength
figures are benchmarks/bots.py's.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.arena.match import play_match
from tabletop.bots import RandomBot
from tabletop.bots.base import Budget
from tabletop.bots.cthulhu_wars.heuristic import NOISE, CwHeuristicBot
from tabletop.bots.cthulhu_wars.information import public_key
from tabletop.bots.cthulhu_wars.search import CwSearchBot
from tabletop.bots.game_of_war.heuristic import WarHeuristicBot
from tabletop.bots.game_of_war.search import WarSearchBot
from tabletop.bots.registry import BOTS, make_bot
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import ENGINE as CW
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.game_of_war import ENGINE as WAR

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def war_bots(seed: int) -> list:
    return [WarHeuristicBot(seed), WarSearchBot(seed, seconds=None, iterations=2)]


def cw_bots(seed: int) -> list:
    return [CwHeuristicBot(seed), CwSearchBot(seed, seconds=None, iterations=6)]


def random_position(engine, options: dict, seats: int, seed: int, steps: int):
    """A position reached by random play (every seat random), and the kinds of decision met on the way."""
    state = engine.new_game(engine.read_options(options), seats, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if not engine.to_move(state):
            break
        seat = rng.choice(engine.to_move(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def decision_kind(state) -> str:
    if state.pending:
        return state.pending[0].kind
    turn = state.turn
    return "turn: more units" if turn.moving else "turn: follow-ups" if turn.acted else "turn: action"


# ---- every decision answered with a legal move -------------------------------------------------------
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_war_bots_answer_every_decision_legally(seed, steps):
    options = {"opening": "default"} if seed % 3 == 0 else {}
    state = random_position(WAR, options, 2, seed, steps)
    for seat in WAR.to_move(state):
        legal = WAR.legal_actions(state, seat)
        for bot in war_bots(seed):
            assert bot.choose(WAR, state, seat) in legal


MAPS = ("earth", "dreamlands")


def cw_options(seed: int, players: int) -> dict:
    """Any ``players`` of every faction the engine has, in an order drawn from ``seed``, on either map."""
    names = sorted(FACTIONS)
    rng = Rng(seed * 13 + 5)
    for i in range(len(names) - 1, 0, -1):
        j = rng.below(i + 1)
        names[i], names[j] = names[j], names[i]
    return {"factions": names[:players], "map": MAPS[seed % 2]}


@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 500), players=st.sampled_from([3, 4, 5]))
def test_cthulhu_wars_bots_answer_every_decision_legally(seed, steps, players):
    """Random positions of any 3-5 of the seven factions, on Earth or in the Dreamlands."""
    state = random_position(CW, cw_options(seed, players), players, seed, steps)
    for seat in CW.to_move(state):
        legal = CW.legal_actions(state, seat)
        for bot in cw_bots(seed):
            assert bot.choose(CW, state, seat) in legal


def test_every_faction_and_map_decision_is_met_and_answered():
    """Each of the seven factions and both maps, 3-5 players: the faction's own decisions (start Areas, Windwalker,
    Sleeper and Opener of the Way abilities, out-of-turn windows) come up in random play and each bot answers
    every one of them legally."""
    seen: Counter[tuple[str, str]] = Counter()
    bots = cw_bots(2)
    factions_met: set[str] = set()
    maps_met: set[str] = set()
    for seed in range(8):
        players = 3 + seed % 3
        options = cw_options(seed, players)
        state = CW.new_game(CW.read_options(options), players, seed)
        factions_met |= set(options["factions"])
        maps_met.add(options["map"])
        rng = Rng(seed)
        for _ in range(600):
            if not CW.to_move(state):
                break
            seat = rng.choice(CW.to_move(state))
            legal = CW.legal_actions(state, seat)
            key = (state.seats[seat].faction, decision_kind(state))
            if len(legal) > 1 and seen[key] < 2:
                seen[key] += 1
                for bot in bots:
                    assert bot.choose(CW, state, seat) in legal, key
            state, _ = CW.apply(state, seat, rng.choice(legal))
    assert factions_met == set(FACTIONS) and maps_met == set(MAPS)
    kinds = {kind for _, kind in seen}
    assert {"start-area", "window", "ritual", "spellbook", "turn: action"} <= kinds, kinds
    assert {f for f, kind in seen if kind == "turn: action"} == set(FACTIONS), seen


def test_a_turn_action_that_changes_nothing_is_not_repeated_forever():
    """The repeat guard: asked twice in the very same position (as after the Sleeper's Lethargy when no enemy acts
    any more), the heuristic answers differently the second time, so a game cannot loop."""
    state = random_position(CW, cw_options(3, 4), 4, 3, 80)
    while state.pending or len(CW.legal_actions(state, CW.to_move(state)[0])) < 2:
        seat = CW.to_move(state)[0]
        state, _ = CW.apply(state, seat, CW.legal_actions(state, seat)[0])
    seat = CW.to_move(state)[0]
    bot = CwHeuristicBot(4)
    first = bot.choose(CW, state, seat)
    second = bot.choose(CW, state, seat)
    assert first != second and second in CW.legal_actions(state, seat)
    assert CwHeuristicBot(4).choose(CW, state, seat) == first  # a fresh bot: the same first choice


def test_cthulhu_wars_bots_meet_every_kind_of_decision_and_answer_it():
    """Out-of-turn windows, battles, losses, spellbooks, Rituals, First Player choices: whatever random play
    reaches, each bot answers legally (the seats play randomly; the bots answer at every stop)."""
    seen: Counter[str] = Counter()
    bots = cw_bots(1)
    for seed in range(4):
        state = CW.new_game(CW.read_options({}), 3 + seed % 3, seed)
        rng = Rng(seed)
        for _ in range(700):
            if not CW.to_move(state):
                break
            seat = rng.choice(CW.to_move(state))
            legal = CW.legal_actions(state, seat)
            kind = decision_kind(state)
            if len(legal) > 1 and seen[kind] < 3:
                seen[kind] += 1
                for bot in bots:
                    assert bot.choose(CW, state, seat) in legal, kind
            state, _ = CW.apply(state, seat, rng.choice(legal))
    assert {"direction", "ritual", "spellbook", "window", "turn: action", "turn: more units"} <= set(seen), seen
    assert {"assign", "retreat", "pre-battle", "lose"} & set(seen), seen


def test_war_bots_settle_a_forced_retreat():
    """A position met in heuristic play: North's swift cannon on m13 was driven back and must retreat first."""
    from tabletop.games.game_of_war.board import parse_square
    from tabletop.games.game_of_war.state import build_position

    units = {
        "a2": "R", "b2": "X", "j6": "I", "k6": "c", "q6": "c", "i7": "K", "k7": "i", "h8": "I", "i8": "I", "k8": "i",
        "c9": "C", "g9": "I", "h9": "I", "i9": "I", "u9": "c", "a10": "C", "h10": "I", "n10": "i", "o10": "i",
        "p10": "i", "q10": "k", "n11": "i", "o11": "i", "k12": "I", "m13": "W", "p13": "w", "q13": "i", "r15": "c",
        "w15": "r", "u17": "x", "h18": "C",
    }  # fmt: skip
    state = build_position(units, side_to_move=0)
    state.retreat = parse_square("m13")
    legal = WAR.legal_actions(state, 0)
    assert legal and all(a.kind == "move" and a.origin == "m13" for a in legal)
    for bot in war_bots(3):
        assert bot.choose(WAR, state, 0) in legal


# ---- whole games: no stall, reproducible ----------------------------------------------------------------
def test_war_games_end_and_replay_exactly_from_their_seeds():
    options = WAR.read_options({"max_turns": 24})
    first = play_match(WAR, [WarHeuristicBot(4), RandomBot(5)], seed=9, options=options)
    again = play_match(WAR, [WarHeuristicBot(4), RandomBot(5)], seed=9, options=options)
    assert first == again and first.reason


def test_a_cthulhu_wars_game_between_bots_ends_and_replays_exactly():
    options = CW.read_options({})
    bots = lambda: [CwHeuristicBot(1), RandomBot(2), RandomBot(3)]  # noqa: E731
    first = play_match(CW, bots(), seed=21, options=options, max_actions=5000)
    again = play_match(CW, bots(), seed=21, options=options, max_actions=5000)
    assert first == again


def test_search_bots_are_reproducible_with_an_iteration_budget():
    state = random_position(CW, {}, 4, 8, 60)
    seat = CW.to_move(state)[0]
    picks = {CwSearchBot(5, seconds=None, iterations=12).choose(CW, state, seat) for _ in range(2)}
    assert len(picks) == 1
    war = WAR.new_game(WAR.read_options({"opening": "default"}), 2, 3)
    side = WAR.to_move(war)[0]
    plays = {WarSearchBot(5, seconds=None, iterations=3).choose(WAR, war, side) for _ in range(2)}
    assert len(plays) == 1


# ---- no peeking at hidden information -------------------------------------------------------------------
def with_hidden_signs(state, seat: int, values: list[list[int]]):
    """A copy where each other faction holds the given Elder Signs, taken from the bag (a legal hidden state)."""
    copy = state.copy()
    others = [s for s in range(len(copy.seats)) if s != seat]
    for s, held in zip(others, values, strict=False):
        copy.seats[s].elder_signs = list(held)
        for v in held:
            copy.es_bag[v - 1] -= 1
    return copy


def test_cthulhu_wars_choices_do_not_depend_on_hidden_elder_signs_or_future_dice():
    """Positions that differ only in what the seat cannot see (the values of the other factions' Elder Signs,
    so also the bag's, and the game's generator) get the same choice from the same bot."""
    checked = 0
    for seed in range(12):
        state = random_position(CW, {}, 4, seed, 60 + 11 * seed)
        if not CW.to_move(state):
            continue
        seat = CW.to_move(state)[0]
        if len(CW.legal_actions(state, seat)) < 2:
            continue
        deals = ([[1, 2], [3], [1]], [[2, 1], [1], [3]], [[3, 1], [1], [2]])
        variants = [CW.with_generator(with_hidden_signs(state, seat, deal), Rng(100 + k)) for k, deal in enumerate(deals)]
        assert len({public_key(v, seat) for v in variants}) == 1
        for make in (lambda: CwHeuristicBot(7), lambda: CwSearchBot(7, seconds=None, iterations=6)):
            choices = {str(make().choose(CW, v, seat)) for v in variants}
            assert len(choices) == 1, choices
        checked += 1
        if checked == 3:
            return
    raise AssertionError("too few positions checked")


def test_war_deployment_does_not_look_at_the_other_sides_hidden_units():
    blank = WAR.new_game(WAR.read_options({}), 2, 1)
    placed, _ = WAR.apply(blank, 0, WAR.parse("opening default", blank, 0))
    for bot in war_bots(2):
        assert bot.choose(WAR, blank, 1) == bot.choose(WAR, placed, 1)


# ---- the registry -------------------------------------------------------------------------------------
def test_every_registered_bot_can_be_made_and_explains_itself():
    state = random_position(CW, {}, 3, 2, 30)
    seat = CW.to_move(state)[0]
    assert len(CW.legal_actions(state, seat)) > 1
    for name in BOTS["cthulhu-wars"]:
        found = make_bot("cthulhu-wars", name, 1, 0.2).suggest(CW, state, seat, Budget(seconds=0.2))
        assert found.action in CW.legal_actions(state, seat) and found.explanation


def test_every_faction_the_engine_has_is_played_by_the_heuristic():
    """A short game for every registered faction (stand-ins included): the heuristic seat answers every decision."""
    names = sorted(FACTIONS)
    for i in range(0, len(names), 3):
        group = names[i : i + 3]
        if len(group) < 3:
            group = (group + names)[:3]
        if len({FACTIONS[n].start_symbol for n in group}) < 3:
            continue
        options = CW.read_options({"factions": group})
        state = CW.new_game(options, 3, i)
        bots = [CwHeuristicBot(i + s) for s in range(3)]
        for _ in range(120):
            if not CW.to_move(state):
                break
            seat = CW.to_move(state)[0]
            action = bots[seat].choose(CW, state, seat)
            assert action in CW.legal_actions(state, seat)
            state, _ = CW.apply(state, seat, action)


def test_the_heuristics_advice_says_when_it_cannot_tell_the_best_answers_apart():
    """Choosing a spellbook changes nothing the one-step evaluation sees, so the books tie (their scores differ only
    by the random tie-break) and the advice says so, naming them; a clear best answer gets no such words."""
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

    state = CW.new_game(CthulhuWarsOptions(), 4, 1)
    bots = [CwHeuristicBot(10 + s) for s in range(4)]
    tied = clear = 0
    for _ in range(3000):
        seats = CW.to_move(state)
        if not seats or (tied and clear):
            break
        seat = seats[0]
        legal = CW.legal_actions(state, seat)
        ranked = CwHeuristicBot(7).rank(state, seat, legal) if len(legal) > 1 else []
        if len(ranked) > 1:
            close = not ranked[0].chance and not ranked[1].chance and ranked[0].value - ranked[1].value <= NOISE
            if state.pending and state.pending[0].kind == "spellbook" and not tied:
                words = CwHeuristicBot(7).suggest(CW, state, seat).explanation
                assert close and "cannot tell" in words
                assert sum(f"'{CW.notation(a)}'" in words for a in legal) >= min(len(legal), 4)
                tied += 1
            elif not close and not clear and ranked[0].value - ranked[1].value > 1.0:
                assert "cannot tell" not in CwHeuristicBot(7).suggest(CW, state, seat).explanation
                clear += 1
        state, _ = CW.apply(state, seat, bots[seat].choose(CW, state, seat))
    assert tied and clear
