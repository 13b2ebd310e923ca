"""A Game of War rules that no test checked, found by benchmarks/mutation.py (group game_of_war, modules rules,
setup, units, board, network): each test is written from rules_text game-of-war/*, not from the code."""

from __future__ import annotations

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions, build_position
from tabletop.games.game_of_war.actions import Attack, Commit, EndTurn, Move, Place, Remove, UseOpening
from tabletop.games.game_of_war.openings import OPENINGS

from .helpers import snapshot

NORTH, SOUTH = 0, 1


def notations(state, seat):
    return {ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat)}


def refusal(state, seat, action) -> IllegalMove:
    """The play is refused with the set-up rule cited, and nothing changes."""
    before = snapshot(state)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, seat, action)
    assert snapshot(state) == before
    return caught.value


# ---- set-up (rules_text game-of-war/setup) ----------------------------------------------------------------------
def fresh():
    return ENGINE.new_game(GameOfWarOptions(), 2, 3)


def test_each_setup_refusal_says_why():
    state = fresh()
    state, _ = ENGINE.apply(state, NORTH, Place(unit="relay", square="a1"))
    cases = [
        (NORTH, Place(unit="relay", square="a2"), "Every relay of North is already placed"),
        (NORTH, Place(unit="cavalry", square="e11"), "e11 is outside North's territory"),
        (SOUTH, Place(unit="cavalry", square="e7"), "e7 is outside South's territory"),
        (SOUTH, Place(unit="cavalry", square="y10"), "y10 is outside South's territory"),  # North's last square
        (NORTH, Place(unit="cavalry", square="a1"), "a1 is not free (a mountain or another unit)"),
        (NORTH, Remove(square="b2"), "North has no placed unit on b2"),
        (NORTH, UseOpening(name="nope"), f"There is no opening named 'nope'; known: {', '.join(OPENINGS)}"),
        (NORTH, Commit(), "Commit needs all 17 units placed (16 left)"),
    ]
    for seat, action, message in cases:
        error = refusal(state, seat, action)
        assert (error.message, error.rule) == (message, "game-of-war/setup"), action


def test_no_side_may_place_on_a_square_its_own_units_already_hold():
    """Set-up 1: units go on *empty* squares; checked for both sides, each on its own unit."""
    state = fresh()
    state, _ = ENGINE.apply(state, NORTH, Place(unit="cavalry", square="e7"))
    state, _ = ENGINE.apply(state, SOUTH, Place(unit="cavalry", square="e14"))
    assert "not free" in refusal(state, NORTH, Place(unit="infantry", square="e7")).message
    assert "not free" in refusal(state, SOUTH, Place(unit="infantry", square="e14")).message
    assert not any(n.endswith(" e7") for n in notations(state, NORTH) if n.startswith("place"))


def test_a_committed_deployment_can_no_longer_change():
    """Set-up: "After committing a side waits; its deployment can no longer change". The engine refuses it as out
    of turn first; the set-up check itself (also used on its own) gives this reason."""
    from tabletop.games.game_of_war.setup import REMOVE, check_setup_play

    state = fresh()
    state, _ = ENGINE.apply(state, NORTH, UseOpening(name="default"))
    state, events = ENGINE.apply(state, NORTH, Commit())
    assert events == ["North commits its deployment."]
    with pytest.raises(IllegalMove) as caught:
        check_setup_play(state, NORTH, (REMOVE, 2 * 25 + 6))  # g3, say: anything
    assert (caught.value.message, caught.value.rule) == ("North has already committed its deployment", "game-of-war/setup")


def test_setup_events_for_taking_back_and_for_an_opening():
    state = fresh()
    state, _ = ENGINE.apply(state, SOUTH, Place(unit="cavalry", square="e14"))
    state, events = ENGINE.apply(state, SOUTH, Remove(square="e14"))
    assert events == ["South takes back C (cavalry) from e14; 17 still to place."]
    state, events = ENGINE.apply(state, SOUTH, UseOpening(name="default"))
    assert events == ["South deploys its side of the opening 'default' (all 17 units)."]


# ---- units and their letters (rules_text game-of-war/notation) ---------------------------------------------------
def test_south_units_are_shown_in_lower_case_and_north_in_upper_case():
    from tabletop.games.game_of_war.units import KIND_BY_NAME, letter, piece

    assert letter(piece(NORTH, KIND_BY_NAME["infantry"])) == "I"
    assert letter(piece(SOUTH, KIND_BY_NAME["infantry"])) == "i"
    assert letter(piece(SOUTH, KIND_BY_NAME["cavalry"])) == "c"


# ---- attacks: what the event says (rules_text game-of-war/combat) -----------------------------------------------
def test_the_attack_event_names_the_target_the_totals_and_the_result():
    # a one-point win: the South infantry must retreat (position of test_gow_turn)
    state = build_position({"c15": "C", "h15": "R", "c16": "i", "w12": "i"})
    _, events = ENGINE.apply(state, NORTH, Attack(target="c16"))
    assert events[0] == "Attack on South infantry c16: 7 against 6; it must retreat at the start of its next turn."


def test_an_attack_that_is_not_won_leaves_the_target_holding():
    state = build_position({"c15": "I", "h15": "R", "c16": "i", "w12": "i"}, options=GameOfWarOptions(futile_attacks=True))
    preview = ENGINE.combat_preview(state, "c16")
    assert preview.attack <= preview.defence and preview.result != "capture"
    _, events = ENGINE.apply(state, NORTH, Attack(target="c16"))
    assert events[0] == f"Attack on South infantry c16: {preview.attack} against {preview.defence}; it holds."


def test_a_capture_event_says_destroyed_and_the_winner_is_named():
    state = build_position({"c15": "C", "c14": "C", "h15": "R", "c16": "i"})
    preview = ENGINE.combat_preview(state, "c16")
    assert preview.result == "capture"
    after, events = ENGINE.apply(state, NORTH, Attack(target="c16"))
    assert events[0] == f"Attack on South infantry c16: {preview.attack} against {preview.defence}; it is destroyed."
    # South's only combat unit is gone (rules_text game-of-war/end 2)
    assert events[-1] == "North wins: all of South's combat units are destroyed."
    assert after.phase == "over" and after.reason == events[-1]
    assert ENGINE.view(after, None)["attack_used"] is True, "the final position shows the attack made"


# ---- the turn (rules_text game-of-war/turn) ----------------------------------------------------------------------
def test_after_a_plain_move_the_attack_is_still_open():
    """Turn: moves, then one attack; only destroying an arsenal uses the attack up."""
    state = build_position({"c15": "C", "e15": "I", "h15": "R", "c16": "i", "w12": "i"})
    state, _ = ENGINE.apply(state, NORTH, Move(origin="e15", destination="f15"))
    assert not state.attack_used and any(a.kind == "attack" for a in ENGINE.legal_actions(state, NORTH))


def test_the_next_side_may_attack_after_a_turn_ended_without_one():
    state = build_position({"c15": "C", "h15": "R", "c16": "i", "w12": "i"}, side_to_move=SOUTH)
    state, _ = ENGINE.apply(state, SOUTH, EndTurn())
    assert any(a.kind == "attack" for a in ENGINE.legal_actions(state, NORTH))
    assert ENGINE.view(state, None)["attack_used"] is False


def test_each_unit_moves_at_most_once_a_turn_whichever_moved_after_it():
    """Turn: up to five moves, each by a different unit."""
    state = build_position({"d7": "I", "e6": "I", "f6": "R", "w12": "i"})
    state, _ = ENGINE.apply(state, NORTH, Move(origin="e6", destination="e7"))
    state, _ = ENGINE.apply(state, NORTH, Move(origin="d7", destination="d8"))  # from the square west of e7
    movers = {n.split()[1].split("-")[0] for n in notations(state, NORTH) if "-" in n}
    assert "e7" not in movers and "d8" not in movers and "f6" in movers


def test_north_destroying_a_south_arsenal_leaves_its_own_arsenals_standing():
    state = build_position({"c18": "I", "c19": "C", "h18": "R", "w12": "i", "w11": "i"})
    before = state.arsenals
    state, events = ENGINE.apply(state, NORTH, Move(origin="c19", destination="c20"))
    assert "South's arsenal c20 is destroyed; that was the attack of the turn." in events
    assert state.arsenals[0] == before[0] and state.arsenals[1] not in (0, before[1])


def test_a_unit_on_a1_may_move_again_in_its_sides_next_turn():
    state = build_position({"a1": "R", "w12": "i"})
    state, _ = ENGINE.apply(state, NORTH, EndTurn())
    state, _ = ENGINE.apply(state, SOUTH, EndTurn())
    assert any(n.startswith("R a1-") for n in notations(state, NORTH))


def test_a_draw_at_the_turn_limit_is_announced():
    state = build_position({"f6": "R", "w12": "i"}, options=GameOfWarOptions(max_turns=1))
    state, events = ENGINE.apply(state, NORTH, EndTurn())
    assert state.phase == "over" and events[-1] == "Drawn: the limit of 1 turns is reached."


def test_a_retreat_settled_then_play_goes_on_normally():
    state = build_position({"c15": "C", "h15": "R", "c16": "i", "w12": "i"})
    state, _ = ENGINE.apply(state, NORTH, Attack(target="c16"))
    state, _ = ENGINE.apply(state, SOUTH, Move(origin="c16", destination="c17"))
    state, _ = ENGINE.apply(state, SOUTH, EndTurn())
    state, events = ENGINE.apply(state, NORTH, EndTurn())
    assert state.phase == "play" and state.side == SOUTH and events == ["North ends the turn."]


def test_a_unit_that_cannot_retreat_is_destroyed_and_that_can_end_the_game():
    """Combat: a unit that must retreat and cannot is destroyed; end 2: no combat unit left loses."""
    # South's infantry in the a20 corner, its other squares held by its own two relays: a cavalry charge wins by one
    state = build_position({"a19": "C", "a18": "R", "h18": "R", "a20": "i", "b19": "r", "b20": "x"})
    assert ENGINE.combat_preview(state, "a20").result == "retreat"
    state, events = ENGINE.apply(state, NORTH, Attack(target="a20"))
    assert events[1:] == ["South infantry a20 cannot retreat and is destroyed.",
                          "North wins: all of South's combat units are destroyed."]  # fmt: skip
    assert state.winner == NORTH and state.phase == "over"


# ---- arsenals (rules_text game-of-war/turn "Destroying an arsenal", /end 1) ------------------------------------
# South's relay c3 stands on the line of its arsenal c20 (column c) and sends a line along row 3, where its
# cavalry g3 stands, next to North's arsenal h4
SOUTH_RAID = {"c3": "r", "g3": "c", "w12": "I", "a1": "R"}


def test_south_destroys_a_north_arsenal_and_only_that_one():
    state = build_position(SOUTH_RAID, side_to_move=SOUTH)
    before = state.arsenals
    assert "C g3-h4" in notations(state, SOUTH), notations(state, SOUTH)
    state, events = ENGINE.apply(state, SOUTH, Move(origin="g3", destination="h4"))
    assert "North's arsenal h4 is destroyed; that was the attack of the turn." in events
    assert state.arsenals[1] == before[1] and state.arsenals[0] != before[0] and state.arsenals[0]
    assert state.attack_used


def test_destroying_norths_last_arsenal_makes_south_the_winner():
    state = build_position(SOUTH_RAID, side_to_move=SOUTH, arsenals={NORTH: ["h4"]})
    state, events = ENGINE.apply(state, SOUTH, Move(origin="g3", destination="h4"))
    assert events[-1] == "South wins: both of North's arsenals are destroyed." and state.winner == SOUTH


def test_an_online_relay_may_not_destroy_an_arsenal():
    """Turn: only an online *combat* unit (not a relay) may move onto an empty enemy arsenal."""
    state = build_position({"c3": "r", "g3": "r", "w12": "I", "a1": "R"}, side_to_move=SOUTH)
    assert any(n.startswith("R g3-") for n in notations(state, SOUTH)), "the relay can move"
    assert "R g3-h4" not in notations(state, SOUTH)


def test_after_one_arsenal_is_destroyed_no_second_one_falls_that_turn():
    """Turn: destroying an arsenal counts as the turn's attack, so no other attack (nor arsenal) follows."""
    # row 3 from South's relay c3 reaches g3 (next to h4); South's relay t20 (row 20) sends column t, where the
    # swift relay t2 sends row 2 to p2 (next to o2)
    raid = {"c3": "r", "g3": "c", "t20": "r", "t2": "x", "p2": "c", "w12": "I", "a1": "R"}
    state = build_position(raid, side_to_move=SOUTH)
    assert {"C g3-h4", "C p2-o2"} <= notations(state, SOUTH)
    state, _ = ENGINE.apply(state, SOUTH, Move(origin="g3", destination="h4"))
    assert "C p2-o2" not in notations(state, SOUTH)
    assert any(n.startswith("C p2-") for n in notations(state, SOUTH)), "it may still move elsewhere"


def chebyshev(a: str, b: str) -> int:
    return max(abs(ord(a[0]) - ord(b[0])), abs(int(a[1:]) - int(b[1:])))


def test_under_move_through_friendly_a_cavalry_passes_over_a_friend_and_over_empty_squares():
    """Ruling move_through_friendly: a two-square mover may pass over a friendly unit (and still over empty
    squares); never further than two squares."""
    boxed = {"a9": "I", "b9": "I", "b10": "I", "b11": "I", "a11": "I"}  # every square around a10
    units = {"h10": "R", "a10": "C", **boxed, "e7": "C", "w12": "i"}
    plain = build_position(units)
    free = build_position(units, options=GameOfWarOptions(move_through_friendly=True))
    assert not any(n.startswith("C a10-") for n in notations(plain, NORTH))
    boxed_moves = {n.split("-")[1] for n in notations(free, NORTH) if n.startswith("C a10-")}
    assert {"a8", "c10", "c8", "c12", "a12"} <= boxed_moves
    assert all(chebyshev("a10", d) <= 2 for d in boxed_moves)
    assert "C e7-e5" in notations(free, NORTH) and "C e7-c9" in notations(free, NORTH), "over empty squares"


def test_the_terrain_of_the_boards_squares():
    """rules_text game-of-war/board: the table of mountains, passes, arsenals and fortresses."""
    from tabletop.games.game_of_war.board import parse_square, terrain_name

    expected = {"j3": "mountain", "p18": "mountain", "j6": "pass", "p15": "pass", "o2": "arsenal", "w20": "arsenal",
                "h2": "fortress", "c13": "fortress", "a1": "plain", "y20": "plain"}  # fmt: skip
    assert {name: terrain_name(parse_square(name)) for name in expected} == expected


def test_no_attack_follows_the_destruction_of_an_arsenal():
    """Turn: destroying an arsenal "counts as the turn's attack, so no attack follows"."""
    # South's w12 (on the column of its arsenal w20) may attack North's offline infantry w11 (defence 0)
    raid = {"c3": "r", "g3": "c", "w12": "i", "w11": "I", "a1": "R"}
    state = build_position(raid, side_to_move=SOUTH)
    assert any(a.kind == "attack" for a in ENGINE.legal_actions(state, SOUTH))
    state, _ = ENGINE.apply(state, SOUTH, Move(origin="g3", destination="h4"))
    assert not any(a.kind == "attack" for a in ENGINE.legal_actions(state, SOUTH))


def test_after_a_retreat_the_sides_other_units_may_attack():
    """Turn, retreat: the unit that retreated may not attack that turn; the others may, once it has moved."""
    state = build_position({"c15": "C", "h15": "R", "c16": "i", "w12": "i", "w11": "I"})
    state, _ = ENGINE.apply(state, NORTH, Attack(target="c16"))
    assert not any(a.kind == "attack" for a in ENGINE.legal_actions(state, SOUTH)), "not before the retreat"
    state, _ = ENGINE.apply(state, SOUTH, Move(origin="c16", destination="c17"))
    attacks = {a.target for a in ENGINE.legal_actions(state, SOUTH) if a.kind == "attack"}
    assert attacks == {"w11"}


def test_under_futile_attacks_a_unit_out_of_every_attackers_range_is_not_offered():
    """Ruling futile_attacks = true: "any enemy unit in range of at least one attacker may be attacked"; infantry
    has range 2, so an enemy three squares down its column is not in range."""
    options = GameOfWarOptions(futile_attacks=True)
    far = build_position({"h15": "R", "c15": "I", "c12": "i", "w12": "i"}, options=options)
    near = build_position({"h15": "R", "c15": "I", "c13": "i", "w12": "i"}, options=options)
    assert not any(a.kind == "attack" for a in ENGINE.legal_actions(far, NORTH))
    assert {a.target for a in ENGINE.legal_actions(near, NORTH) if a.kind == "attack"} == {"c13"}


def test_the_unit_beside_the_one_that_retreated_may_still_attack():
    """Turn, retreat: only the unit that retreated is barred from attacking. Here it stands on v12 (set directly:
    it has just retreated there) and its neighbour, the cannon w12 (range 3), attacks w9, which v12 cannot reach."""
    from tabletop.games.game_of_war.board import parse_square

    state = build_position({"v12": "i", "w12": "k", "w9": "I", "a1": "R"}, side_to_move=SOUTH)
    state.no_attack = parse_square("v12")
    assert {a.target for a in ENGINE.legal_actions(state, SOUTH) if a.kind == "attack"} == {"w9"}


class FirstPlayerDie:
    """A real table answering the die for the first player (rules_text game-of-war/setup 3)."""

    def __init__(self, face: int) -> None:
        self.face, self.asked = face, []

    def die(self, sides: int, what: str) -> int:
        self.asked.append((sides, what))
        return self.face


@pytest.mark.parametrize("face, first", [(1, NORTH), (3, NORTH), (4, SOUTH), (6, SOUTH)])
def test_the_die_for_the_first_player_one_to_three_north_four_to_six_south(face, first):
    from tabletop.core.rng import answered_by

    table = FirstPlayerDie(face)
    state = fresh()
    state, _ = ENGINE.apply(state, NORTH, UseOpening(name="default"))
    state, _ = ENGINE.apply(state, SOUTH, UseOpening(name="default"))
    state, _ = ENGINE.apply(state, NORTH, Commit())
    with answered_by(table):
        state, events = ENGINE.apply(state, SOUTH, Commit())
    assert table.asked == [(6, "the die for the first player (North on 1-3)")]
    assert state.side == first and state.phase == "play"
    assert events[-1] == f"Deployments revealed. The die shows {face}: {('North', 'South')[first]} moves first."


def test_a_fixed_first_player_is_announced():
    state = ENGINE.new_game(GameOfWarOptions(first_player="south"), 2, 1)
    state, _ = ENGINE.apply(state, NORTH, UseOpening(name="default"))
    state, _ = ENGINE.apply(state, SOUTH, UseOpening(name="default"))
    state, _ = ENGINE.apply(state, NORTH, Commit())
    state, events = ENGINE.apply(state, SOUTH, Commit())
    assert events[-1] == "Deployments revealed. South moves first." and state.side == SOUTH


def test_an_opening_replaces_the_units_already_placed():
    """Set-up: a side may "replace its whole deployment by its side of a named opening"."""
    state = fresh()
    state, _ = ENGINE.apply(state, NORTH, Place(unit="relay", square="a1"))
    state, _ = ENGINE.apply(state, NORTH, UseOpening(name="default"))
    squares = {u["square"] for u in ENGINE.view(state, NORTH)["units"]}
    assert "a1" not in squares and len(squares) == 17 and {"c4", "e6", "j6"} <= squares


# ---- lines of communication (rules_text game-of-war/communication) ----------------------------------------------
def test_a_relay_on_the_corner_square_a1_sends_its_lines_too():
    """"A friendly relay standing on a line sends 8 lines of its own ... and a relay on such a line does the same":
    a2 is on the row of North's arsenal o2, a2's column reaches a1, and a1's row reaches the infantry on f1."""
    from .helpers import online

    state = build_position({"a2": "R", "a1": "X", "f1": "I", "w12": "i"})
    assert online(state, NORTH) == {"a2", "a1", "f1"}


def test_under_adjacent_relays_reemit_a_unit_beside_a_line_but_not_on_it_stays_offline():
    """Communication: a unit is online on a line or next to an online unit; next to an empty covered square is not
    enough (c3 touches the lines of row 2 and row 4 but stands on neither), whatever the adjacent-relays ruling."""
    from .helpers import offline

    for reemit in (False, True):
        state = build_position({"c3": "I", "w12": "i"}, options=GameOfWarOptions(adjacent_relays_reemit=reemit))
        assert offline(state, NORTH) == {"c3"}, reemit


@pytest.mark.parametrize("reemit", [False, True])
def test_a_side_without_an_arsenal_has_no_lines_and_nothing_online(reemit):
    """rules_text game-of-war/communication: lines start at the arsenals and are passed on by relays standing on them;
    with no arsenal left nothing is online, not even a unit on a1 beside a relay, under either relay ruling."""
    from tabletop.games.game_of_war.board import index
    from tabletop.games.game_of_war.network import compute_network

    a1, b1, c1 = (1 << index(x, 0) for x in range(3))
    south_arsenal = 1 << index(22, 19)
    network = compute_network((0, south_arsenal), (a1 | b1 | c1, 0), (b1, 0), adjacent_relays_reemit=reemit)
    assert network.cover[0] == 0 and network.online[0] == 0
    assert network.cover[1] != 0
