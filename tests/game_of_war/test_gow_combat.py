"""Combat totals on hand-built positions (rules_text game-of-war/combat)."""

from __future__ import annotations

import pytest

from tabletop.games.game_of_war import GameOfWarOptions, build_position, combat_preview
from tabletop.games.game_of_war.board import parse_square
from tabletop.games.game_of_war.combat import assess


def roles(preview) -> dict[str, tuple[str, int]]:
    return {c.square: (c.role, c.value) for c in preview.contributors}


def test_mountains_block_fire():
    # The cannon on h8 is three squares from k8, but the mountain j8 lies between.
    units = {"h8": "K", "k8": "i"}
    assert combat_preview(build_position(units), "k8").attack == 0
    unblocked = build_position(units, options=GameOfWarOptions(mountains_block_fire=False))
    assert combat_preview(unblocked, "k8").attack == 5


def test_four_cavalry_in_a_column_charge_for_28():
    state = build_position({"h10": "C", "h11": "C", "h12": "C", "h13": "C", "h14": "i"})
    preview = combat_preview(state, "h14")
    assert preview.attack == 28
    assert preview.defence == 0
    assert preview.result == "capture"
    assert [c.role for c in preview.contributors if c.side == "North"] == ["charge"] * 4


def test_no_charge_against_a_fortress():
    # South infantry in the fortress c13, online on c20's column: 6 + 4.
    state = build_position({"c9": "C", "c10": "C", "c11": "C", "c12": "C", "c13": "i"})
    preview = combat_preview(state, "c13")
    assert roles(preview) == {"c12": ("attack", 4), "c11": ("attack", 4), "c13": ("defence", 10)}
    assert (preview.attack, preview.defence, preview.result) == (8, 10, "repelled")


def test_no_charge_from_inside_a_fortress_but_from_a_pass():
    in_fortress = build_position({"m9": "C", "m10": "i"})
    assert roles(combat_preview(in_fortress, "m10"))["m9"] == ("attack", 4)
    in_pass = build_position({"j6": "C", "k6": "i"})
    assert roles(combat_preview(in_pass, "k6"))["j6"] == ("charge", 7)


def test_an_offline_target_defends_zero_but_is_supported():
    # g14 is offline; i14 (online on c20's diagonal) supports it from two squares away.
    state = build_position({"g14": "i", "i14": "i", "h11": "I", "i12": "I"})
    preview = combat_preview(state, "g14")
    assert roles(preview) == {"g14": ("defence", 0), "i14": ("support", 6), "i12": ("attack", 4)}
    assert preview.result == "repelled"
    assert not preview.declarable_now


def test_terrain_bonus_goes_to_infantry_and_cannon_targets_only():
    # A cavalry in the fortress c13 gets no bonus by default; under "target_any" it does.
    units = {"c11": "I", "c10": "I", "c13": "c"}
    assert combat_preview(build_position(units), "c13").defence == 5
    anyone = build_position(units, options=GameOfWarOptions(terrain_bonus="target_any"))
    assert combat_preview(anyone, "c13").defence == 9


def test_offline_units_lend_no_support_by_default():
    # i14's support needs it online; cut it off by a North unit on the diagonal at h15.
    units = {"g14": "i", "i14": "i", "h15": "I"}
    state = build_position(units)
    assert combat_preview(state, "g14").defence == 0
    lending = build_position(units, options=GameOfWarOptions(offline_units_support=True))
    assert combat_preview(lending, "g14").defence == 6


def test_units_of_the_other_side_screen_fire_under_the_variant_ruling():
    # h8's cannon fires down the h column at h11 over a South infantry on h10.
    units = {"h8": "K", "h10": "i", "h11": "i"}
    open_fire = assess(build_position(units), parse_square("h11"))
    assert any(c.square == parse_square("h8") for c in open_fire.contributions)
    screened = assess(build_position(units, options=GameOfWarOptions(units_block_fire=True)), parse_square("h11"))
    assert not any(c.square == parse_square("h8") for c in screened.contributions)


@pytest.mark.parametrize("square", ["a1", "z9", "e7"])
def test_preview_of_an_empty_or_unknown_square_is_refused(square):
    from tabletop.core.errors import IllegalMove

    with pytest.raises(IllegalMove):
        combat_preview(build_position({}), square)
