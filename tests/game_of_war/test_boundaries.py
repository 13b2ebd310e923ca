"""Every combat threshold and constant of A Game of War at its exact boundary.

The expected numbers come from the seed (shared/seeds, "A Game of War") and rules_text
game-of-war/board, /units and /combat, not from the code: attack = defence + 1 forces a
retreat, + 2 or more captures, anything less fails; a pass gives +2 and a fortress +4 to an
infantry or cannon defending there; a cavalry next to the target charges for 7, up to four in
a column (28); infantry and cavalry reach 2 squares, cannons 3.
"""

from __future__ import annotations

import pytest

from tabletop.games.game_of_war import GameOfWarOptions, build_position, combat_preview
from tabletop.games.game_of_war.board import SQUARES, parse_square, square_name
from tabletop.games.game_of_war.combat import CAPTURE, FAILED, RETREAT, result_of, terrain_bonus
from tabletop.games.game_of_war.rules import ATTACK, legal_plays, play

# rules_text game-of-war/board, the terrain table (typed here from the text)
FORTRESSES = {"h2", "u8", "m9", "o12", "c13", "w15"}
PASSES = {"j6", "p15"}

# South's infantry on the pass p15, kept online by a South relay on q14 (on the diagonal of the
# arsenal w20); North's attackers on q15 (1 square along the row) and r13 (2 squares along the
# diagonal, over the relay), both online through r14 on the diagonal of the arsenal h4.
PASS_TARGET = {"p15": "i", "q14": "r", "r14": "I"}


def attack_on_pass(q15: str, r13: str):
    return build_position({**PASS_TARGET, "q15": q15, "r13": r13})


@pytest.mark.parametrize(
    ("attack", "defence", "expected"),
    [(0, 0, FAILED), (5, 6, FAILED), (6, 6, FAILED), (7, 6, RETREAT), (8, 6, CAPTURE), (9, 6, CAPTURE), (28, 0, CAPTURE)],
)
def test_the_result_at_each_margin(attack, defence, expected):
    assert result_of(attack, defence) == expected


def test_a_tie_fails_and_shows_the_pass_bonus_is_two():
    # Two infantry (4 + 4) against an infantry on a pass (6 + 2): 8 against 8.
    preview = combat_preview(attack_on_pass("I", "I"), "p15")
    assert (preview.attack, preview.defence, preview.result) == (8, 8, "repelled")
    assert not preview.declarable_now, "a tie cannot even force a retreat, so it is not offered"


def test_a_margin_of_one_forces_a_retreat():
    # An infantry and a cannon (4 + 5 = 9) against 8.
    state = attack_on_pass("K", "I")
    preview = combat_preview(state, "p15")
    assert (preview.attack, preview.defence, preview.result) == (9, 8, "retreat")
    after, _ = play(state, (ATTACK, parse_square("p15")))
    assert after.retreat == parse_square("p15"), "the target must move first next turn"
    assert after.pieces[parse_square("p15")] == state.pieces[parse_square("p15")], "not destroyed"
    assert all(action[1] == parse_square("p15") for action in legal_plays(after)), "only the retreat may be played"


def test_a_margin_of_exactly_two_captures():
    # Cannon and swift cannon (5 + 5 = 10) against 8.
    state = attack_on_pass("K", "W")
    preview = combat_preview(state, "p15")
    assert (preview.attack, preview.defence, preview.result) == (10, 8, "capture")
    after, _ = play(state, (ATTACK, parse_square("p15")))
    assert parse_square("p15") not in after.pieces


def test_a_futile_attack_allowed_by_the_ruling_changes_nothing():
    state = build_position({**PASS_TARGET, "q15": "I", "r13": "I"}, options=GameOfWarOptions(futile_attacks=True))
    after, _ = play(state, (ATTACK, parse_square("p15")))
    assert after.pieces == state.pieces
    assert after.retreat == state.retreat


def test_the_terrain_bonus_of_every_square_matches_the_board_table():
    for sq in range(SQUARES):
        name = square_name(sq)
        expected = 4 if name in FORTRESSES else 2 if name in PASSES else 0
        assert terrain_bonus(sq) == expected, name


@pytest.mark.parametrize(
    ("square", "letter", "defence"),
    [
        ("j6", "I", 6 + 2),  # North's pass, online on the arsenal h4's diagonal
        ("j6", "K", 8 + 2),
        ("j6", "W", 8 + 2),
        ("j6", "C", 5),  # cavalry get no terrain bonus
        ("j6", "R", 1),
        ("m9", "I", 6 + 4),  # North's fortress on the same diagonal
        ("m9", "K", 8 + 4),
        ("m9", "W", 8 + 4),
        ("m9", "C", 5),
        ("m9", "X", 1),
        ("i5", "I", 6),  # plain ground on the same diagonal
        ("i5", "K", 8),
        ("i5", "C", 5),
    ],
)
def test_each_unit_defends_with_its_value_plus_its_terrain_bonus(square, letter, defence):
    state = build_position({square: letter})
    assert state.network.online[0] >> parse_square(square) & 1, "online"
    assert combat_preview(state, square).defence == defence


def test_an_offline_target_gets_no_terrain_bonus():
    # North's fortress m9 is on no line of South's arsenals: a South infantry alone there is offline.
    state = build_position({"m9": "i"})
    assert not state.network.online[1] >> parse_square("m9") & 1
    assert combat_preview(state, "m9").defence == 0


@pytest.mark.parametrize(
    ("column", "attack"),
    [
        (["h13"], 7),
        (["h13", "h12"], 14),
        (["h13", "h12", "h11"], 21),
        (["h13", "h12", "h11", "h10"], 28),
        (["h13", "h12", "h11", "h10", "h9"], 28),  # a fifth cavalry adds nothing: 4 at most, and h9 is 5 away
    ],
)
def test_the_charge_counts_seven_for_each_of_up_to_four_cavalry(column, attack):
    state = build_position({**{sq: "C" for sq in column}, "h14": "i"})
    preview = combat_preview(state, "h14")
    assert preview.attack == attack
    assert sum(c.role == "charge" for c in preview.contributors) == min(len(column), 4)


def test_a_gap_breaks_the_charging_column():
    # h13 charges for 7; h11 is behind an empty square, 3 away: beyond a cavalry's range of 2.
    preview = combat_preview(build_position({"h13": "C", "h11": "C", "h14": "i"}), "h14")
    assert preview.attack == 7
    # h12 behind an empty h13 is within range 2: a plain attack of 4, no charge.
    preview = combat_preview(build_position({"h12": "C", "h14": "i"}), "h14")
    assert preview.attack == 4


def test_no_charge_against_a_pass_cavalry_count_four():
    state = build_position({**PASS_TARGET, "q15": "C", "r13": "C"})
    preview = combat_preview(state, "p15")
    assert preview.attack == 8
    assert all(c.role != "charge" for c in preview.contributors)


@pytest.mark.parametrize(
    ("letter", "distance", "attack"),
    [("I", 2, 4), ("I", 3, 0), ("C", 2, 4), ("C", 3, 0), ("K", 3, 5), ("K", 4, 0), ("W", 3, 5), ("W", 4, 0)],
)
def test_the_attack_range_of_each_unit(letter, distance, attack):
    # North units down the h column from h4's arsenal; the South target on h14 is offline.
    shooter = f"h{14 - distance}"
    preview = combat_preview(build_position({shooter: letter, "h14": "i"}), "h14")
    assert preview.attack == attack


@pytest.mark.parametrize(
    ("letter", "distance", "support"),
    [("I", 2, 6), ("I", 3, 0), ("C", 2, 5), ("C", 3, 0), ("K", 3, 8), ("K", 4, 0), ("W", 3, 8), ("W", 4, 0), ("R", 1, 0)],
)
def test_the_support_range_of_each_unit(letter, distance, support):
    # A North infantry on h13 (online down h4's column) supported from further up the column.
    preview = combat_preview(build_position({"h13": "I", f"h{13 - distance}": letter}), "h13")
    assert preview.defence == 6 + support


# ---- rulings that change a total (rules_text game-of-war/rulings) --------------------------------


@pytest.mark.parametrize(("letter", "lends"), [("r", 1), ("x", 1), ("i", 0)])
def test_an_offline_relay_keeps_its_defence_of_one_only_under_its_ruling(letter, lends):
    # A South unit alone on North's fortress m9 is offline.
    units = {"m9": letter}
    assert combat_preview(build_position(units), "m9").defence == 0
    kept = build_position(units, options=GameOfWarOptions(offline_relays_defend=True))
    assert combat_preview(kept, "m9").defence == lends


@pytest.mark.parametrize(("letter", "support"), [("I", 6 + 4), ("K", 8 + 4), ("C", 5)])
def test_supporters_get_the_terrain_bonus_only_under_all_infantry_cannon(letter, support):
    # North infantry on l8 supported from the fortress m9 next to it, both on h4's diagonal.
    units = {"l8": "I", "m9": letter}
    assert combat_preview(build_position(units), "l8").defence == 6 + DEFENCE_OF[letter]
    everyone = build_position(units, options=GameOfWarOptions(terrain_bonus="all_infantry_cannon"))
    assert combat_preview(everyone, "l8").defence == 6 + support


DEFENCE_OF = {"I": 6, "C": 5, "K": 8}


def test_an_enemy_between_does_not_screen_support_unless_the_ruling_says_so():
    # South's h11 cuts h4's column: North's h12 is offline (0) but h10, two squares up, supports it.
    units = {"h12": "I", "h11": "i", "h10": "I"}
    assert combat_preview(build_position(units), "h12").defence == 6
    screened = build_position(units, options=GameOfWarOptions(units_block_fire=True))
    assert combat_preview(screened, "h12").defence == 0


def test_only_online_combat_units_fire_for_either_side():
    # g13 is on no North line and next to no online North unit: offline, it adds nothing.
    preview = combat_preview(build_position({"g13": "I", "h14": "i"}), "h14")
    assert preview.attack == 0 and [c.role for c in preview.contributors] == ["defence"]
    # A relay in range adds nothing either, not even a zero.
    preview = combat_preview(build_position({"h13": "R", "h12": "I", "h14": "i"}), "h14")
    assert [(c.square, c.role) for c in preview.contributors] == [("h14", "defence"), ("h12", "attack")]
    # South fires too: its relay q14 is online on w20's diagonal, its infantry r13 next to it.
    preview = combat_preview(build_position({"q14": "r", "q13": "i", "p12": "I"}), "p12")
    assert ("q13", "attack", 4) in [(c.square, c.role, c.value) for c in preview.contributors]


def test_a_mountain_on_a_diagonal_blocks_fire():
    # k4 (online beside l5, on o2's diagonal) is two squares from i6 along the diagonal through j5.
    units = {"i6": "i", "k4": "I", "l5": "I"}
    assert combat_preview(build_position(units), "i6").attack == 0
    open_fire = build_position(units, options=GameOfWarOptions(mountains_block_fire=False))
    assert combat_preview(open_fire, "i6").attack == 4
