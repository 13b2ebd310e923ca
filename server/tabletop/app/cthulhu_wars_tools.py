"""Cthulhu Wars tools: the map's adjacency, the Gather Power calculator and projection, battle odds."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import BaseModel, Field

from ..core.errors import BadOptions
from ..games.cthulhu_wars import ENGINE as CTHULHU_WARS
from ..games.cthulhu_wars.battle import BattleOdds, battle_odds as odds_of, battle_preview, dice_distribution
from ..games.cthulhu_wars.maps import LAYOUTS, AdjacentAreas, list_adjacent as adjacent_areas
from ..games.cthulhu_wars.notation import match_faction
from ..games.cthulhu_wars.phases import projected_gather
from ..games.cthulhu_wars.power import GatherPowerResult, PowerSources, gather_power as gather
from ..sessions.manager import GameSessions, LiveGame
from .game_tools import READ_ONLY
from .replies import refusals_as_tool_errors, reply

InGame = Annotated[
    str | None, Field(description="A Cthulhu Wars game id, to answer for that game's position instead.")
]


class FactionPower(BaseModel):
    faction: str | None = Field(description="The faction, for a game's projection; null for a plain calculation.")
    power: GatherPowerResult


class GatherPowerReport(BaseModel):
    results: list[FactionPower] = Field(description="One entry per faction of the game, or one for a calculation.")


class KillsAndPains(BaseModel):
    kills: int
    pains: int
    probability: float


class BattleOddsReport(BaseModel):
    odds: BattleOdds = Field(description="Expected results of each side's dice against the other side's units.")
    attacker_distribution: list[KillsAndPains] = Field(description="Exact chance of each (kills, pains) roll.")
    defender_distribution: list[KillsAndPains]
    area: str | None = Field(description="For a live battle: where it would be fought.")


def distribution(dice: int) -> list[KillsAndPains]:
    return [KillsAndPains(kills=k, pains=p, probability=float(pr)) for (k, p), pr in sorted(dice_distribution(dice).items())]


def cthulhu_wars_game(sessions: GameSessions, game_id: str) -> LiveGame:
    live = sessions.get(game_id)
    if live.engine is not CTHULHU_WARS:
        raise BadOptions(f"Game {game_id} is {live.engine.title}, not Cthulhu Wars")
    return live


def power_lines(result: GatherPowerResult) -> list[str]:
    return [f"  {line.source}: {line.count} x {line.power_each} = {line.subtotal}" for line in result.lines]


def register_cthulhu_wars_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def list_adjacent(
        area: Annotated[str, Field(description="An area name, forgivingly matched: 'north atlantic', 'NZ', 'antarc'.")],
        layout: Annotated[
            str,
            Field(description=f"The Cthulhu Wars map layout: one of {', '.join(LAYOUTS)} (3, 4, 4 alternate, 5 players)."),
        ] = "earth_4p",
        game_id: InGame = None,
    ) -> Annotated[CallToolResult, AdjacentAreas]:
        """Cthulhu Wars: list the areas next to an area, with each one's type (land or ocean), on a map layout or
        on the map of a game in progress. A unit moves one step to an adjacent area per Move. Unknown or
        ambiguous names are refused with the closest area names."""
        if game_id is not None:
            layout = cthulhu_wars_game(sessions, game_id).state.layout_name
        found = adjacent_areas(layout, area)
        names = ", ".join(f"{a.name} ({a.type})" for a in found.adjacent)
        return reply(found, f"{found.name} ({found.type}) on {found.layout} is adjacent to: {names}.")

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def gather_power(
        sources: Annotated[PowerSources | None, Field(description="Counts to calculate from (no game needed).")] = None,
        game_id: InGame = None,
    ) -> Annotated[CallToolResult, GatherPowerReport]:
        """Cthulhu Wars Gather Power, explained line by line: 1 per Cultist in play, 2 per controlled Gate, 1 per
        Abandoned Gate on the map, 1 per captured enemy Cultist, plus faction extras; then the Minimum Power
        Rule (never below half the highest total, rounded up). Give `sources` to calculate from counts, or
        `game_id` to project what every faction of a game would gather now."""
        if (sources is None) == (game_id is None):
            raise BadOptions("Give either `sources` (a calculation) or `game_id` (a game's projection), not both or neither")
        if sources is not None:
            result = gather(sources)
            report = GatherPowerReport(results=[FactionPower(faction=None, power=result)])
            return reply(report, "\n".join([*power_lines(result), f"Total: {result.total} Power."]))
        state = cthulhu_wars_game(sessions, game_id).state
        results = [FactionPower(faction=fs.faction, power=r) for fs, r in zip(state.seats, projected_gather(state))]
        text = []
        for entry in results:
            text += [f"{entry.faction}: {entry.power.total} Power", *power_lines(entry.power)]
        return reply(GatherPowerReport(results=results), "\n".join(text))

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def battle_odds(
        attacker_dice: Annotated[int | None, Field(ge=0, le=60, description="Attacker's total Combat (dice).")] = None,
        defender_dice: Annotated[int | None, Field(ge=0, le=60, description="Defender's total Combat (dice).")] = None,
        attacker_units: Annotated[int, Field(ge=0, le=60, description="Attacker's units in the battle.")] = 1,
        defender_units: Annotated[int, Field(ge=0, le=60, description="Defender's units in the battle.")] = 1,
        game_id: InGame = None,
        area: Annotated[str | None, Field(description="With game_id: the area of the battle.")] = None,
        attacker: Annotated[str | None, Field(description="With game_id: the attacking faction.")] = None,
        defender: Annotated[str | None, Field(description="With game_id: the defending faction.")] = None,
    ) -> Annotated[CallToolResult, BattleOddsReport]:
        """Cthulhu Wars battle odds. Each die is a Kill on a 6, a Pain on a 4 or 5 (rules: cthulhu-wars/battle).
        Gives the exact chance of every (kills, pains) result for each side's dice and the expected outcome
        against the other side's units. Either give the dice and unit counts, or a game_id with the area and
        the two factions to read them from the position (current Combat, before pre-battle abilities)."""
        where = None
        if game_id is not None:
            live = cthulhu_wars_game(sessions, game_id)
            state = live.state
            if not (area and attacker and defender):
                raise BadOptions("With game_id, give the battle's area, attacker and defender")
            factions = [fs.faction for fs in state.seats]
            where = state.layout.find_area(area).id
            odds = battle_preview(state, state.seat_of(match_faction(attacker, factions)), where, state.seat_of(match_faction(defender, factions)))
        elif attacker_dice is None or defender_dice is None:
            raise BadOptions("Give attacker_dice and defender_dice, or a game_id with area, attacker and defender")
        else:
            odds = odds_of(attacker_dice, defender_dice, attacker_units, defender_units)
        report = BattleOddsReport(
            odds=odds,
            attacker_distribution=distribution(odds.attacker.dice),
            defender_distribution=distribution(odds.defender.dice),
            area=where,
        )
        text = [
            f"{side}: {o.dice} dice, expect {o.expected_kills:.2f} kills and {o.expected_pains:.2f} pains; "
            f"{o.chance_of_a_kill:.0%} chance of at least one kill; about {o.expected_enemy_units_eliminated:.2f} "
            f"enemy units eliminated, {o.expected_enemy_units_hit:.2f} hit."
            for side, o in (("Attacker", odds.attacker), ("Defender", odds.defender))
        ]
        return reply(report, "\n".join(text))
