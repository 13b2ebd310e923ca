"""Gather Power and the Minimum Power Rule, from the seed's worked examples."""

import pytest
from pydantic import ValidationError

from tabletop.games.cthulhu_wars.power import ExtraIncome, PowerSources, gather_power, minimum_power


def test_seed_example_three_cultists_two_gates_one_abandoned_one_captive_make_nine():
    result = gather_power(PowerSources(cultists=3, controlled_gates=2, abandoned_gates=1, captured_cultists=1))
    assert result.total == 9
    assert [(line.count, line.power_each, line.subtotal) for line in result.lines] == [(3, 1, 3), (2, 2, 4), (1, 1, 1), (1, 1, 1)]
    assert not result.minimum_power_applied


def test_seed_example_four_is_raised_to_seven_when_the_highest_is_thirteen():
    result = gather_power(PowerSources(cultists=4, controlled_gates=0, abandoned_gates=0, captured_cultists=0, highest_power=13))
    assert result.gathered == 4
    assert result.total == 7
    assert result.minimum_power == 7
    assert result.minimum_power_applied
    assert result.lines[-1].source.startswith("Minimum Power Rule")
    assert result.lines[-1].subtotal == 3


def test_total_is_always_the_sum_of_the_lines():
    result = gather_power(PowerSources(cultists=1, controlled_gates=0, abandoned_gates=0, captured_cultists=0, highest_power=20))
    assert result.total == sum(line.subtotal for line in result.lines) == 10


def test_exactly_half_is_not_raised():
    result = gather_power(PowerSources(cultists=6, controlled_gates=0, abandoned_gates=0, captured_cultists=0, highest_power=12))
    assert (result.total, result.minimum_power_applied) == (6, False)


def test_own_total_counts_among_the_highest():
    result = gather_power(PowerSources(cultists=6, controlled_gates=3, abandoned_gates=0, captured_cultists=0, highest_power=2))
    assert (result.total, result.minimum_power) == (12, 6)


def test_without_highest_power_the_minimum_rule_is_not_checked():
    result = gather_power(PowerSources(cultists=0, controlled_gates=0, abandoned_gates=0, captured_cultists=0))
    assert (result.total, result.minimum_power, result.minimum_power_applied) == (0, None, False)


def test_extra_income_lines_are_added_with_their_labels():
    result = gather_power(PowerSources(
        cultists=2, controlled_gates=1, abandoned_gates=0, captured_cultists=0,
        extra=[ExtraIncome(source="Feast", count=3), ExtraIncome(source="Red Sign: Dark Young", count=2, power_each=1)],
    ))
    assert result.total == 2 + 2 + 3 + 2
    assert [line.source for line in result.lines[4:]] == ["Feast", "Red Sign: Dark Young"]


@pytest.mark.parametrize(("highest", "minimum"), [(0, 0), (1, 1), (12, 6), (13, 7), (20, 10), (21, 11)])
def test_minimum_power_is_half_rounded_up(highest, minimum):
    assert minimum_power(highest) == minimum


def test_negative_counts_are_refused():
    with pytest.raises(ValidationError):
        PowerSources(cultists=-1, controlled_gates=0, abandoned_gates=0, captured_cultists=0)


def test_each_line_names_its_source_as_the_seed_does():
    extra = ExtraIncome(source="Feast", count=2, power_each=1)
    result = gather_power(PowerSources(cultists=1, controlled_gates=1, abandoned_gates=1, captured_cultists=1, extra=[extra], highest_power=30))
    assert [line.source for line in result.lines] == [
        "Cultists in play",
        "Controlled Gates",
        "Abandoned Gates on the map",
        "Captured enemy Cultists (returned to their owners' pools)",
        "Feast",
        "Minimum Power Rule: half of 30, rounded up, is 15",
    ]
    assert result.lines[-1].subtotal == 15 - 7 and result.rule == "cthulhu-wars/gather-power"
    assert result.lines[-1].top_up and not any(line.top_up for line in result.lines[:-1])
