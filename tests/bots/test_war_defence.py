"""A Game of War bots against the threats a model used: positions built by hand that each call for one answer.

A raid on an arsenal one turn away and two turns away, a unit the enemy can destroy now, and a unit standing where
a cavalry charge column reaches it. The search answers within its budget (counted in candidates here, so that the
test is exactly reproducible) and the raider plays the other side as a model did.
"""

from __future__ import annotations

import pytest

from tabletop.bots.base import Budget
from tabletop.bots.game_of_war.deployment import MOVES, planned_deployment
from tabletop.bots.game_of_war.raider import WarRaiderBot, choose_target, raid_pull
from tabletop.bots.game_of_war.search import WarSearchBot
from tabletop.games.game_of_war import ENGINE as WAR
from tabletop.games.game_of_war.board import parse_square, square_name
from tabletop.games.game_of_war.combat import CAPTURE, assess
from tabletop.games.game_of_war.rules import ATTACK, END, MOVE, legal_plays, play
from tabletop.games.game_of_war.openings import opening_units
from tabletop.games.game_of_war.state import PLAY, build_position
from tabletop.games.game_of_war.units import CANNON, CAVALRY, INFANTRY, SWIFT_CANNON

NORTH, SOUTH = 0, 1
#: North's relay on h4's diagonal carries a line down column c, past South's arsenal c20.
NORTH_HOME = {"c9": "R", "h5": "I", "g5": "I", "i5": "I", "h6": "K", "b4": "X"}
#: South's army by its other arsenal, w20, far from c20.
SOUTH_EAST = {"v19": "i", "w19": "i", "x19": "i", "u18": "k", "w17": "x", "t16": "r"}


def search_bot(seed: int = 3) -> WarSearchBot:
    return WarSearchBot(seed, seconds=None, iterations=12)


def whole_turn(bot, state, seat: int):
    """``bot``'s whole turn from ``state``: the plays and the position after them."""
    plays = []
    while state.phase == PLAY and state.side == seat:
        action = bot.choose(WAR, state, seat)
        plays.append(action)
        state, _ = WAR.apply(state, seat, action)
    return plays, state


def online(state, side: int, square: str) -> bool:
    return bool(state.network.online[side] >> parse_square(square) & 1)


def test_a_raid_one_turn_away_is_met_and_the_arsenal_stands():
    # North's cavalry on c18 can walk onto c20 next turn (two squares down its own line); South's cavalry on e18 can
    # stand on c20 or charge the rider.
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "c18": "C", "e18": "c"}, side_to_move=SOUTH)
    assert online(state, NORTH, "c18") and online(state, SOUTH, "e18")
    assert (MOVE, parse_square("c18"), parse_square("c20")) in legal_plays(play(state, (END,))[0])
    _, state = whole_turn(search_bot(), state, SOUTH)
    raider = WarRaiderBot(1)
    _, state = whole_turn(raider, state, NORTH)
    assert state.arsenals[SOUTH] >> parse_square("c20") & 1


def test_a_raid_two_turns_away_is_met_in_time():
    # North's cavalry on c16 is two turns from c20 (four squares down its line); South's infantry on e19 is two
    # moves from it but offline (no line reaches it): South has to bring a line to it and set off now (or find
    # another answer). The raider then rides at c20 for three turns.
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "c16": "C", "e19": "i"}, side_to_move=SOUTH)
    raider = WarRaiderBot(1)
    assert online(state, NORTH, "c16") and choose_target(state, NORTH, None) == parse_square("c20")
    bot = search_bot()
    for _ in range(3):
        _, state = whole_turn(bot, state, SOUTH)
        _, state = whole_turn(raider, state, NORTH)
        assert state.arsenals[SOUTH] >> parse_square("c20") & 1


def test_a_raid_three_turns_away_sets_the_only_defender_in_time_off_at_once():
    # North's cavalry on c14 is three turns from c20 (six squares down its line); South's infantry on f17, three
    # squares off on c20's diagonal, is just in time if it sets off now and goes every turn (South moves first). The
    # raider then rides at c20; South's infantry has to stand on it before the rider can walk on.
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "c14": "C", "f17": "i"}, side_to_move=SOUTH)
    assert online(state, NORTH, "c14") and online(state, SOUTH, "f17")
    bot, raider = search_bot(), WarRaiderBot(1)
    plays, state = whole_turn(bot, state, SOUTH)
    assert any(p.kind == "move" and p.origin == "f17" for p in plays)  # the defender sets off in the first turn
    for _ in range(3):
        _, state = whole_turn(raider, state, NORTH)
        assert state.arsenals[SOUTH] >> parse_square("c20") & 1
        _, state = whole_turn(bot, state, SOUTH)
    assert state.units[SOUTH] >> parse_square("c20") & 1  # and it stands on the arsenal


def test_a_unit_that_can_be_destroyed_now_is_attacked():
    # North's infantry on m12 is offline (no line reaches it, no friend beside it): South's infantry on k12 and o12,
    # two squares off along the row, destroy it (8 against 0).
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "m12": "I", "k12": "i", "o12": "i"}, side_to_move=SOUTH)
    assert not online(state, NORTH, "m12") and assess(state, parse_square("m12")).result == CAPTURE
    plays, after = whole_turn(search_bot(), state, SOUTH)
    assert plays[-1].kind == "attack" and plays[-1].target == "m12"
    assert not after.units[NORTH] >> parse_square("m12") & 1


#: South's infantry round the fortress o12, and North's row of three cavalry on f12, g12 and h12.
CHARGE_FRONT = {"m12": "i", "n12": "i", "o12": "i", "n13": "i", "f12": "C", "g12": "C", "h12": "C"}


def test_a_lone_unit_in_a_charge_columns_reach_goes_back_to_its_friends():
    # South's lone infantry on k12 stands three squares from the cavalry: in one turn they line up on j12, i12 and
    # h12 and charge it for 21 against its 6. One step back (l11, l12, l13) puts it beside its friends, out of reach.
    state = build_position({**NORTH_HOME, **SOUTH_EAST, **CHARGE_FRONT, "k12": "i"}, side_to_move=SOUTH)
    assert all(online(state, NORTH, sq) for sq in ("f12", "g12", "h12")) and online(state, SOUTH, "k12")
    plays, _ = whole_turn(WarRaiderBot(1), play(state, (END,))[0], NORTH)
    assert plays[-1].kind == "attack" and plays[-1].target == "k12"  # the threat is real: left alone, it falls
    _, state = whole_turn(search_bot(), state, SOUTH)
    units_before = bin(state.units[SOUTH]).count("1")
    _, state = whole_turn(WarRaiderBot(1), state, NORTH)
    assert bin(state.units[SOUTH]).count("1") == units_before


def test_no_unit_is_fed_forward_alone_into_a_charge_columns_reach():
    # The same front with every South unit safe: whatever South moves, the raider then destroys nothing.
    state = build_position({**NORTH_HOME, **SOUTH_EAST, **CHARGE_FRONT}, side_to_move=SOUTH)
    plays, _ = whole_turn(WarRaiderBot(1), play(state, (END,))[0], NORTH)
    assert plays[-1].kind != "attack"  # standing still, South is safe
    for seed in (3, 4):
        _, after = whole_turn(search_bot(seed), state, SOUTH)
        units_before = bin(after.units[SOUTH]).count("1")
        _, after = whole_turn(WarRaiderBot(1), after, NORTH)
        assert bin(after.units[SOUTH]).count("1") == units_before


def test_the_raider_rides_at_the_weaker_arsenal_with_its_relay_behind():
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "c12": "C", "d12": "C"}, side_to_move=NORTH)
    target = choose_target(state, NORTH, None)
    assert target == parse_square("c20")  # w20 has South's army round it
    raider = WarRaiderBot(1)
    plays, after = whole_turn(raider, state, NORTH)
    assert raid_pull(after, NORTH, target) > raid_pull(state, NORTH, target)  # nearer, and still online
    assert all(p.kind != "attack" or assess(state, parse_square(p.target)).result == CAPTURE for p in plays)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_raider_is_deterministic_from_its_seed_and_plays_only_legal_moves(seed):
    def game(raiders: int):
        state = WAR.new_game(WAR.read_options({"max_turns": 30}), 2, seed)
        bots = [WarRaiderBot(raiders), WarRaiderBot(raiders + 1)]
        trace = []
        while WAR.to_move(state):
            seat = WAR.to_move(state)[0]
            action = bots[seat].choose(WAR, state, seat)
            assert action in WAR.legal_actions(state, seat)
            trace.append(action)
            state, _ = WAR.apply(state, seat, action)
        return trace

    assert game(seed) == game(seed)
    # Its near-ties are broken from its seed: raiders seeded otherwise play another game (a benchmark's hundred games
    # are a hundred games, not a few played over and over).
    assert game(seed + 100) != game(seed)


def test_search_within_its_budget_is_reproducible_on_these_positions():
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "c16": "C", "e19": "i"}, side_to_move=SOUTH)
    first = search_bot().search(state, SOUTH, Budget(iterations=12))
    assert search_bot().search(state, SOUTH, Budget(iterations=12)) == first
    assert all(p[0] in (MOVE, ATTACK, END) for p in first)


def test_the_race_to_an_arsenal_counts_the_turns_a_defender_is_late():
    from tabletop.bots.game_of_war.press import RACE, raid_race

    # North's rider on c16 needs two turns to c20 (four squares); South's infantry on e18 (online on c20's diagonal)
    # two moves (two squares).
    state = build_position({**NORTH_HOME, **SOUTH_EAST, "c16": "C", "e18": "i"}, side_to_move=SOUTH)
    assert online(state, SOUTH, "e18")
    assert raid_race(state, SOUTH) == 0.0  # South moves first: two turns against North's two
    idle = play(state, (END,))[0]  # South passes: now it is a turn late
    assert raid_race(idle, SOUTH) == -RACE[2] * 1
    guarded = build_position({**NORTH_HOME, **SOUTH_EAST, "c16": "C", "c20": "i"}, side_to_move=NORTH)
    assert raid_race(guarded, SOUTH) == 0.0  # a unit on the arsenal keeps the rider off it


def test_a_charge_column_that_can_form_next_turn_counts_against_the_unit_it_reaches():
    from tabletop.bots.game_of_war.press import EXPOSED, charge_exposure
    from tabletop.bots.game_of_war.evaluation import UNIT_VALUE
    from tabletop.games.game_of_war.units import INFANTRY

    alone = build_position({**NORTH_HOME, **SOUTH_EAST, **CHARGE_FRONT, "k12": "i"}, side_to_move=NORTH)
    assert charge_exposure(alone, SOUTH) == -EXPOSED * UNIT_VALUE[INFANTRY]
    back = build_position({**NORTH_HOME, **SOUTH_EAST, **CHARGE_FRONT, "l12": "i"}, side_to_move=NORTH)
    assert charge_exposure(back, SOUTH) == 0.0  # beside its friends, out of the riders' reach


def deploy(bot, state, seat: int):
    """``bot``'s set-up plays for ``seat`` until it commits: the plays' notations and the position after them."""
    notations = []
    while not state.committed[seat]:
        action = bot.choose(WAR, state, seat)
        notations.append(WAR.notation(action))
        state, _ = WAR.apply(state, seat, action)
    return notations, state


def side_units(state, side: int) -> dict[str, int]:
    return {square_name(sq): code & 7 for sq, code in state.pieces.items() if code >> 3 == side}


def test_the_search_deploys_the_default_opening_with_each_sides_far_arsenal_covered():
    blank = WAR.new_game(WAR.read_options({}), 2, 5)
    plan = {side: {square_name(sq): code & 7 for sq, code in planned_deployment(side).items()} for side in (0, 1)}
    default = {side: {square_name(sq): kind for kind, sq in opening_units("default", side)} for side in (0, 1)}
    # South: the infantry of q13 on c18, beside its far arsenal c20
    assert set(plan[SOUTH]) ^ set(default[SOUTH]) == {"q13", "c18"} and plan[SOUTH]["c18"] == INFANTRY
    # North: the same units, the army east of the mountains (past column j), across South's way to o2
    assert sorted(plan[NORTH].values()) == sorted(default[NORTH].values())
    east = {sq: kind for sq, kind in plan[NORTH].items() if sq[0] > "j"}  # square names start with the column
    assert sorted(east.values()) == sorted([INFANTRY] * 8 + [CANNON, SWIFT_CANNON, CAVALRY, CAVALRY])
    assert east["o4"] == east["p4"] == CAVALRY and east["n3"] == east["o3"] == INFANTRY  # beside o2
    assert all(plan[NORTH][sq] == default[NORTH][sq] for sq in ("c4", "e6", "c8", "d8", "j6"))  # relays, raid, pass
    state = blank
    for side in (NORTH, SOUTH):
        notations, state = deploy(search_bot(), state, side)
        assert side_units(state, side) == plan[side]
        assert notations[0] == "opening default" and notations[-1] == "commit"
        # the opening, a take-back and a placing for each moved unit, commit
        assert len(notations) == 2 + 2 * len(MOVES[side])
    assert state.phase == PLAY
    for side in (NORTH, SOUTH):  # every unit of both sides starts online
        assert state.units[side] & ~state.network.online[side] == 0
    # a deployment left half done (the seat handed over mid-way) is finished into the same plan
    state, _ = WAR.apply(blank, SOUTH, WAR.parse("opening default", blank, SOUTH))
    for move in ("remove o11", "remove s11", "place C o11"):  # a cavalry where an infantry belongs
        state, _ = WAR.apply(state, SOUTH, WAR.parse(move, state, SOUTH))
    _, state = deploy(search_bot(), state, SOUTH)
    assert side_units(state, SOUTH) == plan[SOUTH]


def test_a_stalled_raid_pulls_a_late_defender_a_turn_at_a_time():
    from tabletop.bots.game_of_war.press import RACE, STALLED, STALLED_TURNS, lone_raider, raid_race, stalled_raids
    from tabletop.games.game_of_war.rules import online_fighters

    # North's rider on e18 is one turn from c20 by the plain walk, but no square between is online for it (its relay
    # on e7 sends its line down column e, not past d19 or d20): it must wait for its lines. South's only near unit,
    # an infantry on row 20 (c20's own line), is hopelessly late by the race's count, which stops at three turns.
    home = {k: v for k, v in NORTH_HOME.items() if k != "c9"}
    far = build_position({**home, **SOUTH_EAST, "e7": "R", "e18": "C"}, side_to_move=SOUTH)
    assert online(far, NORTH, "e18") and raid_race(far, SOUTH) == -RACE[1] * 3
    assert stalled_raids(far, SOUTH) == -STALLED * STALLED_TURNS
    by_distance = []
    for square in ("k20", "j20", "i20", "h20", "g20"):  # 8 to 4 squares from c20; South moves first
        state = build_position({**home, **SOUTH_EAST, "e7": "R", "e18": "C", square: "i"}, side_to_move=SOUTH)
        assert online(state, SOUTH, square) and raid_race(state, SOUTH) == -RACE[1] * 3
        by_distance.append(stalled_raids(state, SOUTH))
    assert by_distance == [-STALLED * 4, -STALLED * 3, -STALLED * 2, -STALLED * 1, 0.0]
    # A second North combat unit within four squares of c20 makes it an army coming on, not a lone rider.
    company = build_position({**home, **SOUTH_EAST, "e7": "R", "e18": "C", "e16": "I", "k20": "i"},
                             side_to_move=SOUTH)
    assert not lone_raider(online_fighters(company, NORTH), parse_square("c20")) and stalled_raids(company, SOUTH) == 0.0
    # With North's relay on c9 its line runs down column c past c18: that raid is not stalled, only raced.
    lined = build_position({**NORTH_HOME, **SOUTH_EAST, "c18": "C", "k20": "i"}, side_to_move=SOUTH)
    assert raid_race(lined, SOUTH) == -RACE[1] * 3 and stalled_raids(lined, SOUTH) == 0.0
