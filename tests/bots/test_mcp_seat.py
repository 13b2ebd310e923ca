"""Bots play unchanged through an MCP client holding only their seat's token, and play exactly as at engine level."""

from __future__ import annotations

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.arena.mcp_player import McpSeat
from tabletop.bots.base import RandomBot
from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
from tabletop.bots.game_of_war.heuristic import WarHeuristicBot
from tabletop.games import ENGINES
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

pytestmark = pytest.mark.anyio


@pytest.fixture
async def client(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    async with Client(build_server(GameSessions(store))) as c:
        yield c
    store.close()


async def play_over_mcp(client, game: str, seats: int, options: dict, seed: int, bots: list, decisions: int):
    made = (await client.call_tool("new_game", {"game": game, "seats": seats, "options": options, "seed": seed})).structured_content
    players = [McpSeat(client, made["game_id"], s["token"], bots[i]) for i, s in enumerate(made["seats"])]
    for _ in range(decisions):
        public = (await client.call_tool("get_state", {"game_id": made["game_id"]})).structured_content
        if public["outcome"] is not None:
            break
        player = players[public["to_move"][0]]
        await player.decide(await player.call("get_state", game_id=made["game_id"], token=player.token, detail="full"))
    log = (await client.call_tool("history", {"game_id": made["game_id"], "limit": 200})).structured_content
    moves = [(m["seat"], m["move"]) for m in log["moves"]]
    while log["next_cursor"] is not None:
        log = (await client.call_tool("history", {"game_id": made["game_id"], "after": log["next_cursor"], "limit": 200})).structured_content
        moves += [(m["seat"], m["move"]) for m in log["moves"]]
    return moves, players


def play_at_engine_level(game: str, seats: int, options: dict, seed: int, bots: list, decisions: int):
    engine = ENGINES[game]
    state = engine.new_game(engine.read_options(options), seats, seed)
    moves = []
    for _ in range(decisions):
        if not engine.to_move(state):
            break
        seat = engine.to_move(state)[0]
        action = bots[seat].choose(engine, state, seat)
        moves.append((seat, engine.notation(action)))
        state, _ = engine.apply(state, seat, action)
    return moves


async def test_war_bots_play_through_mcp_exactly_as_at_engine_level(client):
    options = {"max_turns": 8}  # secret deployment, then a few turns
    over_mcp, players = await play_over_mcp(client, "game-of-war", 2, options, 5, [WarHeuristicBot(1), WarHeuristicBot(2)], 200)
    direct = play_at_engine_level("game-of-war", 2, options, 5, [WarHeuristicBot(1), WarHeuristicBot(2)], 200)
    assert over_mcp == direct and len(direct) > 20
    assert sum(p.fallbacks for p in players) == 0


async def test_cthulhu_wars_bots_play_through_mcp_exactly_as_at_engine_level(client):
    options: dict = {}
    bots = [CwHeuristicBot(s) for s in range(3)]
    # seed 12: the first Battle comes at decision 160 (its dice drawn over MCP as at engine level)
    over_mcp, players = await play_over_mcp(client, "cthulhu-wars", 3, options, 12, bots, 165)
    direct = play_at_engine_level("cthulhu-wars", 3, options, 12, [CwHeuristicBot(s) for s in range(3)], len(over_mcp))
    assert over_mcp == direct
    assert sum(p.fallbacks for p in players) == 0 and sum(p.decisions for p in players) == len(over_mcp)
    assert any(m.startswith("battle") for _, m in direct), "dice were rolled and replayed"


async def test_random_bots_deploy_unit_by_unit_over_mcp_although_the_list_shows_only_the_openings(client):
    """During A Game of War's secret deployment the listed moves are the openings only (single placements are
    described, not listed); a bot's placement must still be played, checked by a dry run, not replaced by a
    fallback such as 'opening default' that would undo the deployment (the arena looped on this)."""
    options = {"max_turns": 3}
    bots = lambda: [RandomBot(7), RandomBot(8)]  # noqa: E731
    over_mcp, players = await play_over_mcp(client, "game-of-war", 2, options, 9, bots(), 400)
    direct = play_at_engine_level("game-of-war", 2, options, 9, bots(), 400)
    assert over_mcp == direct
    assert sum(p.fallbacks for p in players) == 0
    assert sum(1 for _, m in direct if m.startswith("place")) >= 17, "units were placed one at a time"
    assert [m for _, m in direct].count("commit") == 2 and any(m.startswith(("move", "attack", "end")) for _, m in direct)
