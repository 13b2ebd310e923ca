"""The Gather Power calculator (rules_text ``cthulhu-wars/gather-power``).

Pure arithmetic from counts: one line per source of Power, then the Minimum Power
Rule, which raises a total below half of the highest total at the table to that half,
rounded up.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

RULE = "cthulhu-wars/gather-power"


class ExtraIncome(BaseModel):
    """A faction- or spellbook-specific source of Power, e.g. Feast or Y'ha Nthlei."""

    source: str = Field(min_length=1)  # what the Power is for, e.g. "Feast"
    count: int = Field(ge=0)
    power_each: int = Field(default=1, ge=0)


class PowerSources(BaseModel):
    """What one faction holds at the start of the Gather Power phase."""

    cultists: int = Field(ge=0, description="Your Cultists on the map.")
    controlled_gates: int = Field(ge=0, description="Gates you control.")
    abandoned_gates: int = Field(ge=0, description="Abandoned Gates on the map (all earn these).")
    captured_cultists: int = Field(ge=0, description="Enemy Cultists you hold captive.")
    extra: list[ExtraIncome] = Field(default_factory=list, description="Power from abilities or spellbooks.")
    highest_power: int | None = Field(
        default=None,
        ge=0,
        description="Highest total gathered (Minimum Power Rule).",
    )


class IncomeLine(BaseModel):
    """One line of the sum: where Power came from and how much."""

    source: str
    count: int
    power_each: int
    subtotal: int
    top_up: bool = Field(default=False, description="The Minimum Power Rule's raise: not a count times a price.")


class GatherPowerResult(BaseModel):
    """The new Power total with the sum explained line by line."""

    gathered: int = Field(description="Power from all sources, before the Minimum Power Rule.")
    total: int = Field(description="The new Power total: the sum of every line.")
    lines: list[IncomeLine] = Field(description="Each source (and any Minimum Power raise) with its subtotal.")
    minimum_power: int | None = Field(description="Half the highest total, rounded up; None if not checked.")
    minimum_power_applied: bool = Field(description="Whether the Minimum Power Rule raised the total.")
    rule: str = Field(default=RULE, description="The rules_text section this follows.")


def gather_power(sources: PowerSources) -> GatherPowerResult:
    """Gather Power for one faction and apply the Minimum Power Rule (``cthulhu-wars/gather-power``)."""
    lines = income_lines(sources)
    gathered = sum(line.subtotal for line in lines)
    minimum = None
    if sources.highest_power is not None:
        minimum = minimum_power(max(sources.highest_power, gathered))
    raise_by = max(0, (minimum or 0) - gathered)
    if raise_by:
        source = f"Minimum Power Rule: half of {max(sources.highest_power or 0, gathered)}, rounded up, is {minimum}"
        lines.append(IncomeLine(source=source, count=1, power_each=raise_by, subtotal=raise_by, top_up=True))
    return GatherPowerResult(
        gathered=gathered,
        total=gathered + raise_by,
        lines=lines,
        minimum_power=minimum,
        minimum_power_applied=raise_by > 0,
    )


def income_lines(sources: PowerSources) -> list[IncomeLine]:
    """The standard four sources, then each extra source, in that order."""
    standard = [
        _line("Cultists in play", sources.cultists, 1),
        _line("Controlled Gates", sources.controlled_gates, 2),
        _line("Abandoned Gates on the map", sources.abandoned_gates, 1),
        _line("Captured enemy Cultists (returned to their owners' pools)", sources.captured_cultists, 1),
    ]
    return standard + [_line(extra.source, extra.count, extra.power_each) for extra in sources.extra]


def minimum_power(highest: int) -> int:
    """The least Power anyone may have after gathering: half of ``highest``, rounded up."""
    return (highest + 1) // 2


def _line(source: str, count: int, power_each: int) -> IncomeLine:
    return IncomeLine(source=source, count=count, power_each=power_each, subtotal=count * power_each)
