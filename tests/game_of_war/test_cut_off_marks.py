"""Legal moves mark the moves that cut the mover's own line, and refusals name what really stops a move.

Rules: rules_text game-of-war/communication (a unit is online on a line of its side or next to an online friend,
chained; lines are worked out again after every move) and game-of-war/turn (an offline unit cannot move, relays
excepted; a two-square move may not pass through a square out of communication, ruling mounted_through_offline in
game-of-war/rulings). Issue 33: a model's sequences were refused because an earlier move of the same sequence had
cut a later mover off, and nothing had warned it.
"""

from __future__ import annotations

import random

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions, build_position
from tabletop.games.game_of_war.board import parse_square
from tabletop.games.game_of_war.foresight import MARKS_BUDGET, move_cuts
from tabletop.games.game_of_war.rules import END, MOVE, legal_plays, play

from .helpers import snapshot

NORTH, SOUTH = 0, 1

# Counted by hand. North's arsenal h4 sends a line down the h file, so h13 and h10 stand on it; nothing else here
# is on a North line (the o2 arsenal's lines miss every square used). i14 is online only as h13's neighbour, j15
# only as i14's: moving h13 anywhere but h14 (still on the line and next to i14) cuts both. South's infantry w18
# only keeps the game going.
CHAIN = {"h13": "I", "i14": "I", "j15": "C", "h10": "C", "w18": "i"}


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def refusal(state, seat, move: str) -> IllegalMove:
    before = snapshot(state)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, seat, ENGINE.parse(move, state, seat))
    assert snapshot(state) == before
    return caught.value


def marks(listing) -> list[str]:
    return [line for g in listing.groups if not g.moves for line in g.brief or []]


# ---- the marks ---------------------------------------------------------------------------------------------------
def test_the_listing_marks_each_move_that_cuts_the_movers_own_units_off():
    state = build_position(CHAIN)
    listing = ENGINE.legal_moves(state, NORTH)
    assert marks(listing) == [
        "Cuts your own line: I h13-g12/i12/g13/i13/g14 (leaves I i14, C j15 and itself offline); "
        "I h13-h12 (leaves I i14, C j15 offline); I i14-i13/h14/h15 (leaves C j15 offline); "
        "I i14-j13/j14/i15 (leaves C j15 and itself offline)",
        "Ends offline itself: C h10-g8/i8/g9/i9/g10/i10/g11/i11; C j15-k13/k15/i16/j16/k16",
    ]
    titles = [g.title for g in listing.groups]
    assert titles[-1] == "Turn" and titles[-2].startswith("Moves that cut your own line (25)")
    assert listing.count == len(ENGINE.legal_actions(state, NORTH)), "the marks list no move of their own"
    assert "Cuts your own line" not in " ".join(ENGINE.legal_notations(state, NORTH)), "a refusal lists moves only"


def test_a_cutting_moves_summary_says_which_units_go_offline():
    state = build_position(CHAIN)
    summaries = {m.notation: m.summary for g in ENGINE.legal_moves(state, NORTH).groups for m in g.moves}
    assert summaries["I h13-h12"].startswith("Infantry h13 to h12. Cuts your own line: leaves I i14, C j15 offline")
    assert "itself" not in summaries["I h13-h12"]
    assert "leaves I i14, C j15 and itself offline" in summaries["I h13-g12"]
    assert summaries["I h13-h14"] == "Infantry h13 to h14.", "still on the line and next to i14: nothing is cut"
    assert "It ends offline itself" in summaries["C h10-g9"] and "cannot move next turn" in summaries["C h10-g9"]
    one = ENGINE.summarize(ENGINE.parse("I h13-h12", state, NORTH), state)
    assert one == summaries["I h13-h12"], "the summary of a single move says the same"


def test_a_relay_leaving_its_square_takes_its_own_lines_away():
    # h13's relay stands on the h file and sends lines of its own: along row 13 they reach c13, a cavalry online
    # only through them. Wherever the relay goes, row 13 loses its line: on h12 or h14 it is still on the file
    # (online, sending lines along rows 12 or 14, which miss c13); on g13 it is off every line and offline too.
    state = build_position({"h13": "R", "c13": "C", "w18": "i"})
    summaries = {m.notation: m.summary for g in ENGINE.legal_moves(state, NORTH).groups for m in g.moves}
    assert summaries["R h13-h14"].startswith("Relay h13 to h14. Cuts your own line: leaves C c13 offline (")
    assert "leaves C c13 and itself offline" in summaries["R h13-g13"]
    # the swift relay c9 stands on the arsenal h4's diagonal and sends a line down the c file, which keeps c13 online
    kept = build_position({"h13": "R", "c9": "X", "c13": "C", "w18": "i"})
    summaries = {m.notation: m.summary for g in ENGINE.legal_moves(kept, NORTH).groups for m in g.moves}
    assert summaries["R h13-h14"] == "Relay h13 to h14."


@pytest.mark.parametrize(
    "rulings",
    [{}, {"adjacent_relays_reemit": True}, {"enemy_relays_block_lines": True}, {"move_through_friendly": True}],
)
def test_marks_agree_with_playing_each_move(rulings):
    """Every legal move of positions met in random play from the default opening, played out: the units it leaves
    offline that were online before are exactly those marked (the mover followed to its new square)."""
    chooser = random.Random(11)
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north", **rulings), 2, 4)
    checked = 0
    for _ in range(50):
        if state.phase != "play":
            break
        side = state.side
        moves = [(p[1], p[2]) for p in legal_plays(state) if p[0] == MOVE]
        cuts = move_cuts(state, moves)
        held = state.network.online[side] & state.units[side]
        for origin, destination in moves:
            after, _ = play(state, (MOVE, origin, destination))
            others = held & ~(1 << origin) & ~after.network.online[side]
            itself = bool(held >> origin & 1) and not after.network.online[side] >> destination & 1
            expected = (others, itself) if others or itself else None
            found = cuts.get((origin, destination))
            assert (tuple(found) if found else None) == expected, (origin, destination)
            checked += 1
        plays = [p for p in legal_plays(state) if p[0] != END] or legal_plays(state)
        state, _ = play(state, chooser.choice(plays))
    assert checked > 1000


def test_the_marks_stay_short_when_many_moves_cut():
    # a chain of infantry from h13 westwards along row 13: only h13 is on a line, so most moves cut the rest
    chain = {f"{col}13": "I" for col in "abcdefgh"} | {"w18": "i"}
    state = build_position(chain)
    lines = marks(ENGINE.legal_moves(state, NORTH))
    assert lines[0].startswith("Cuts your own line: ") and "(each leaves some of" in lines[0], "one part per unit moved"
    assert all(len(line) <= MARKS_BUDGET * 3 // 2 + 60 for line in lines)
    named = {m for part in lines[0].split(": ", 1)[1].split("; ") for m in part.split(" (")[0].split("/")}
    assert {"I b13-a12", "I c13-b12"} <= named and " more (detail=full marks each move)" in lines[0]


def test_no_marks_where_nothing_is_cut():
    state = build_position({"h13": "I", "h12": "I", "w18": "i"})  # both on the h file, every move stays in touch
    listing = ENGINE.legal_moves(state, NORTH)
    assert [line for line in marks(listing) if line.startswith("Cuts")] == []


# ---- refusals name the real cause ------------------------------------------------------------------------------
def test_a_unit_cut_off_by_an_earlier_move_of_the_turn_is_refused_naming_that_move():
    state = build_position(CHAIN)
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("I h13-h12", state, NORTH))
    error = refusal(state, NORTH, "C j15-l15")
    assert error.message == (
        "North cavalry j15 is offline (out of communication) and cannot move: the move I h13-h12 earlier this turn "
        "cut its line (legal_moves marks such moves under 'Cuts your own line')"
    )
    assert error.rule == "game-of-war/communication"


def test_a_unit_offline_since_before_the_turn_is_refused_without_blaming_a_move():
    state = build_position({"h13": "I", "c17": "I", "w18": "i"})
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("I h13-h14", state, NORTH))
    error = refusal(state, NORTH, "I c17-c16")
    assert error.message == "North infantry c17 is offline (out of communication) and cannot move"
    assert error.rule == "game-of-war/communication"


def test_a_two_square_move_through_squares_out_of_communication_names_the_ruling():
    state = build_position(CHAIN)
    error = refusal(state, NORTH, "C h10-f10")
    assert error.message == (
        "North cavalry h10 cannot reach f10: all 3 squares it could pass through are closed: g9, g10 and g11 are "
        "out of communication (no line of North's reaches them and no other online unit of North's stands next to "
        "them). A two-square move may not pass through a square out of communication (ruling mounted_through_offline)"
    )
    assert error.rule == "game-of-war/rulings"
    assert "C h10-g9" in error.legal, "the unit's own moves are offered instead"
    lenient = build_position(CHAIN, options=GameOfWarOptions(mounted_through_offline=True))
    assert ("C h10-f10") in {ENGINE.notation(a) for a in ENGINE.legal_actions(lenient, NORTH)}


def test_a_two_square_move_blocked_by_units_and_mountains_says_so():
    # cavalry i11 to i13: the squares between are h12, i12, j12; h12 and j12 hold units, i12 a South infantry
    state = build_position({"i11": "C", "h12": "I", "j12": "I", "i12": "i", "w18": "i"})
    error = refusal(state, NORTH, "C i11-i13")
    assert error.message.startswith("North cavalry i11 cannot reach i13: all 3 squares it could pass through are closed: ")
    assert "h12 is occupied by North infantry h12" in error.message
    assert "i12 is occupied by South infantry i12" in error.message
    assert error.message.endswith("A two-square move may not pass over a friendly unit (ruling move_through_friendly)")
    assert error.rule == "game-of-war/turn"


@pytest.mark.parametrize(
    ("units", "move", "message"),
    [
        ({"h13": "I", "w18": "i"}, "I h13-h15", "North infantry h13 cannot reach h15: it moves one square and h15 is 2 squares away"),
        ({"h13": "I", "w18": "i"}, "I h13-h13", "North infantry h13 cannot reach h13: moving back onto the starting square is not a move"),
        ({"i5": "I", "w18": "i"}, "I i5-j5", "North infantry i5 cannot reach j5: j5 is a mountain"),
        ({"h13": "I", "h14": "i", "w18": "i"}, "I h13-h14", "North infantry h13 cannot reach h14: h14 is occupied by South infantry h14"),
    ],
)
def test_movement_refusals_name_their_cause(units, move, message):
    state = build_position(units)
    error = refusal(state, NORTH, move)
    assert error.message == message and error.rule == "game-of-war/turn"


def test_a_relay_may_not_take_an_arsenal():
    state = build_position({"c19": "R", "w18": "i"})  # offline, but a relay moves anyway
    error = refusal(state, NORTH, "R c19-c20")
    assert error.message == (
        "North relay c19 cannot reach c20: only a combat unit (not a relay) may destroy an enemy arsenal by moving onto it"
    )
    assert error.rule == "game-of-war/turn"


# the relay h19, on the h file, sends lines along row 19: both cavalry are online, each next to a South arsenal
ARSENAL_RAID = {"h19": "R", "c19": "C", "v19": "C", "w18": "i"}


def test_a_second_arsenal_in_one_turn_is_refused_as_the_attack_already_used():
    state = build_position(ARSENAL_RAID)
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("C c19-c20", state, NORTH))
    error = refusal(state, NORTH, "C v19-w20")
    assert error.message.endswith("destroying an arsenal counts as the turn's attack, which is already used")


def test_the_refusal_after_an_arsenal_capture_under_the_closing_ruling_cites_it():
    options = GameOfWarOptions(arsenal_capture_ends_moves=True)
    state = build_position(ARSENAL_RAID, options=options)
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("C c19-c20", state, NORTH))
    error = refusal(state, NORTH, "C v19-v18")
    assert "ruling arsenal_capture_ends_moves" in error.message and error.rule == "game-of-war/rulings"


def test_a_unit_moved_away_earlier_this_turn_is_named():
    state = build_position(CHAIN)
    state, _ = ENGINE.apply(state, NORTH, ENGINE.parse("I h13-h14", state, NORTH))
    error = refusal(state, NORTH, "I h13-h12")
    assert error.message == "North has no unit on h13 (the move I h13-h14 took it away earlier this turn)"
    assert sq("h14") in state.pieces
