"""Cthulhu Wars tools: the map's adjacency, the Gather Power calculator and projection, battle odds."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import BaseModel, Field

from ..core.errors import BadOptions
from ..core.text import amount, chance
from ..games.cthulhu_wars import ENGINE as CTHULHU_WARS
from ..games.cthulhu_wars import creatures
from ..games.cthulhu_wars.battle import BattleOdds, battle_odds as odds_of, battle_preview, dice_distribution, enemy_key
from ..games.cthulhu_wars.maps import AdjacentAreas, list_adjacent as adjacent_areas, load_layout
from ..games.cthulhu_wars.notation import match_faction
from ..games.cthulhu_wars.phases import projected_gather
from ..games.cthulhu_wars.power import GatherPowerResult, PowerSources, gather_power as gather
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY
from .replies import refusals_as_tool_errors, reply

InGame = Annotated[
    str | None, Field(description="Or a game: its position.")
]


class FactionPower(BaseModel):
    faction: str | None = Field(description="The faction, for a game's projection; null for a plain calculation.")
    power: GatherPowerResult


class GatherPowerReport(BaseModel):
    results: list[FactionPower] = Field(description="One entry per faction of the game, or one for a calculation.")
    rule: str = Field(default="cthulhu-wars/gather-power", description="The rules_text section this rests on.")


class CountChance(BaseModel):
    count: int
    probability: float


class SideDistribution(BaseModel):
    """How many Kills and how many Pains a side's dice show: each count with its exact chance, for the counts
    that together hold all but at most 0.1% of the chance (``left_out``), at most 25 of each."""

    kills: list[CountChance]
    pains: list[CountChance]
    left_out: float = Field(description="The chance of the counts not listed (kills and pains alike).")


class BattleOddsReport(BaseModel):
    odds: BattleOdds = Field(description="Expected results of each side's dice against the other side's units.")
    attacker_distribution: SideDistribution
    defender_distribution: SideDistribution
    area: str | None = Field(description="For a live battle: where it would be fought.")


#: Counts listed per side and result, and the chance a listing may leave out.
MAX_COUNTS, LEFT_OUT = 25, 1e-3


def likeliest(marginal: dict[int, float]) -> tuple[list[CountChance], float]:
    """The likeliest counts holding all but LEFT_OUT of the chance (at most MAX_COUNTS), in count order."""
    kept, mass = [], 0.0
    for count, p in sorted(marginal.items(), key=lambda item: -item[1]):
        if mass >= 1 - LEFT_OUT or len(kept) == MAX_COUNTS:
            break
        kept.append(CountChance(count=count, probability=p))
        mass += p
    return sorted(kept, key=lambda c: c.count), max(0.0, 1 - mass)


def distribution(dice: int) -> SideDistribution:
    """A side's roll summarised: the marginal chance of each number of Kills and of Pains (rules: cthulhu-wars/battle)."""
    kills: dict[int, float] = {}
    pains: dict[int, float] = {}
    for (k, p), pr in dice_distribution(dice).items():
        kills[k] = kills.get(k, 0.0) + float(pr)
        pains[p] = pains.get(p, 0.0) + float(pr)
    kill_counts, kills_left = likeliest(kills)
    pain_counts, pains_left = likeliest(pains)
    return SideDistribution(kills=kill_counts, pains=pain_counts, left_out=max(kills_left, pains_left))


def shown(counts: list[CountChance]) -> str:
    """Each count with its chance to three significant digits (those under 0.005 left out)."""
    return ", ".join(f"{c.count}: {c.probability:.3g}" for c in counts if c.probability >= 0.005)


def cthulhu_wars_game(sessions: GameSessions, game_id: str) -> LiveGame:
    live = sessions.get(game_id)
    if live.engine is not CTHULHU_WARS:
        raise BadOptions(f"Game {game_id} is {live.engine.title}, not Cthulhu Wars")
    return live


def power_lines(result: GatherPowerResult) -> list[str]:
    """Each source as count x Power each = subtotal; the Minimum Power Rule's raise as what it adds."""
    return [
        f"  {line.source}: {result.gathered} raised by {line.subtotal}" if line.top_up
        else f"  {line.source}: {line.count} x {line.power_each} = {line.subtotal}"
        for line in result.lines
    ]


def decided_text(found: AdjacentAreas) -> str:
    """The pairs of this answer that rest on a map decision, each with its passage (rules: cthulhu-wars/map-decisions)."""
    if not found.decisions:
        return ""
    layout = load_layout(found.layout)
    said = [f"{'' if d.adjacent else 'not '}{layout.area(d.area).name} (rules://{d.rule})" for d in found.decisions]
    return f" Decided where the seed's lists disagree: {', '.join(said)}."


def register_cthulhu_wars_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(title="Cthulhu Wars: adjacent areas", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def list_adjacent(
        area: Annotated[str, Field(description="An area name, matched forgivingly: 'NZ', 'antarc'.")],
        layout: Annotated[str, Field(description="A map layout (see list_games).")] = "earth_4p",
        game_id: InGame = None,
    ) -> Annotated[CallToolResult, AdjacentAreas]:
        """Cthulhu Wars: the areas next to an area, on a layout or a game's map."""
        if game_id is not None:
            layout = cthulhu_wars_game(sessions, game_id).state.layout_name
        found = adjacent_areas(layout, area)
        several = any(a.board != found.board for a in found.adjacent) or found.board != "earth"
        names = ", ".join(
            f"{a.name} ({a.type}" + (f", {a.board} through tunnel {a.tunnel}" if a.tunnel else "")
            + (", provisional" if a.provisional else "") + ")"
            for a in found.adjacent
        )
        where = f" ({found.board})" if several else ""
        note = f" {found.map_note}" if found.map_note else ""
        return reply(found, f"{found.name} ({found.type}){where} on {found.layout} is adjacent to: {names}.{note} "
                            f"Rule: rules://{found.rule}.{decided_text(found)}")

    @mcp.tool(title="Cthulhu Wars: Gather Power", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def gather_power(
        sources: Annotated[PowerSources | None, Field(description="Counts to add up.")] = None,
        game_id: InGame = None,
    ) -> Annotated[CallToolResult, GatherPowerReport]:
        """Cthulhu Wars Gather Power, line by line (Minimum Power Rule too)."""
        if (sources is None) == (game_id is None):
            raise BadOptions("Give either `sources` (a calculation) or `game_id` (a game's projection), not both or neither")
        if sources is not None:
            result = gather(sources)
            report = GatherPowerReport(results=[FactionPower(faction=None, power=result)])
            return reply(report, "\n".join([*power_lines(result), f"Total: {result.total} Power. Rule: rules://{report.rule}."]))
        state = cthulhu_wars_game(sessions, game_id).state
        results = [FactionPower(faction=fs.faction, power=r) for fs, r in zip(state.seats, projected_gather(state))]
        text = []
        for entry in results:
            text += [f"{entry.faction}: {entry.power.total} Power", *power_lines(entry.power)]
        report = GatherPowerReport(results=results)
        return reply(report, "\n".join([*text, f"Rule: rules://{report.rule}."]))

    @mcp.tool(title="Cthulhu Wars: battle odds", annotations=READ_ONLY)
    @refusals_as_tool_errors
    def battle_odds(
        attacker_dice: Annotated[int | None, Field(ge=0, le=60, description="Attacker's Combat (dice).")] = None,
        defender_dice: Annotated[int | None, Field(ge=0, le=60, description="Defender's Combat (dice).")] = None,
        attacker_units: Annotated[int, Field(ge=0, le=60, description="Attacker's units there.")] = 1,
        defender_units: Annotated[int, Field(ge=0, le=60, description="Defender's units there.")] = 1,
        game_id: InGame = None,
        area: Annotated[str | None, Field(description="With game_id: the area.")] = None,
        attacker: Annotated[str | None, Field(description="With game_id: the attacker.")] = None,
        defender: Annotated[str | None, Field(description="With game_id: the defender (or bhole, zoogs).")] = None,
    ) -> Annotated[CallToolResult, BattleOddsReport]:
        """Cthulhu Wars battle odds (Kill 6, Pain 4-5), from dice counts or a game."""
        where = None
        if game_id is not None:
            live = cthulhu_wars_game(sessions, game_id)
            state = live.state
            if not (area and attacker and defender):
                raise BadOptions("With game_id, give the battle's area, attacker and defender")
            factions = [fs.faction for fs in state.seats]
            where = state.layout.find_area(area).id
            enemy = enemy_key(state, match_faction(defender, factions + creatures.in_game(state)))
            odds = battle_preview(state, state.seat_of(match_faction(attacker, factions)), where, enemy)
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
            f"{side}: {o.dice} dice, expect {amount(o.expected_kills)} kills and {amount(o.expected_pains)} pains; "
            f"chance of at least one kill {chance(o.chance_of_a_kill)}; expected enemy units eliminated "
            f"{amount(o.expected_enemy_units_eliminated)}, hit {amount(o.expected_enemy_units_hit)}. "
            f"Chance of each number of kills: {shown(d.kills)}; of pains: {shown(d.pains)}."
            for side, o, d in (
                ("Attacker", odds.attacker, report.attacker_distribution),
                ("Defender", odds.defender, report.defender_distribution),
            )
        ]
        if odds.defender_note:
            text.append(odds.defender_note)
        return reply(report, "\n".join([*text, f"Rule: rules://{odds.rule}."]))
