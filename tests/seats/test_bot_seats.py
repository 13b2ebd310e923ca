"""Bots that take their own seats: seated by new_game, played by the server's driver through the seat's own view,
over the real MCP client (in memory) with a real SQLite file and the driver's real bot processes."""

from __future__ import annotations

import json
import random

import anyio
import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.bots.registry import make_bot
from tabletop.seats.player import SeatPlayer
from tabletop.seats.port import SessionsPort
from tabletop.seats.thinking import BotLanes
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

pytestmark = pytest.mark.anyio


@pytest.fixture
async def served(tmp_path):
    """The server with its bot driver running (as `tabletop serve` runs it), and an MCP client of it."""
    store = GameStore(tmp_path / "games.sqlite3")
    mcp = build_server(GameSessions(store))
    mcp.driver.lanes = BotLanes(1)
    async with anyio.create_task_group() as group:
        await group.start(mcp.driver.run)
        async with Client(mcp) as client:
            yield mcp, client
        group.cancel_scope.cancel()
    store.close()


async def call(client: Client, tool: str, **args):
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    return result


async def person_plays_to_the_end(client: Client, game_id: str, tokens: list[str], seed: int = 1) -> tuple[dict, list[str]]:
    """Seats held by tokens play random legal moves (a scripted person) until the game ends; every answer's text."""
    chooser, texts = random.Random(seed), []
    with anyio.fail_after(600):
        while True:
            for token in tokens:
                waited = await call(client, "wait_for_turn", game_id=game_id, token=token, timeout_seconds=20)
                texts.append(waited.content[0].text)
                turn = waited.structured_content
                if turn["game_over"]:
                    return turn["outcome"], texts
                if turn["your_turn"]:
                    moves = [m for group in turn["legal"] for m in group["moves"]]
                    played = await call(client, "apply_move", game_id=game_id, token=token, move=chooser.choice(moves))
                    texts.append(played.content[0].text)


GAMES = [
    ("cthulhu-dice", ["Ann", "bot:optimal", "Bob (bot:random)"], {}),
    ("game-of-war", ["Ann", "bot:heuristic"], {"max_turns": 6}),
    ("cthulhu-wars", ["Ann", "bot:heuristic", "bot:heuristic", {"name": "Bob", "bot": "random"}], {}),
]


@pytest.mark.parametrize("game, players, options", GAMES, ids=[g for g, _, _ in GAMES])
async def test_a_person_plays_a_whole_game_against_bots_the_server_plays(served, game, players, options):
    mcp, client = served
    made = await call(client, "new_game", game=game, players=players, options=options, seed=4)
    game_id, seats = made.structured_content["game_id"], made.structured_content["seats"]
    bots = [s for s in seats if s["bot"]]
    assert [s["token"] for s in bots] == [None] * (len(players) - 1) and seats[0]["token"]
    assert "The server plays" in made.content[0].text
    outcome, texts = await person_plays_to_the_end(client, game_id, [seats[0]["token"]])
    assert outcome is not None
    log = await call(client, "history", game_id=game_id, limit=200)
    assert {m["seat"] for m in log.structured_content["moves"]} >= {s["seat"] for s in bots}, "every bot moved"
    assert mcp.driver.stats.errors == 0 and mcp.driver.stats.decisions > 0
    state = await call(client, "get_state", game_id=game_id)
    assert [s["bot"] for s in state.structured_content["seats"]] == [None] + [s["bot"] for s in seats[1:]]
    assert len(mcp.sessions.store.bot_seats(game_id)) == len(bots)
    every_answer = "\n".join(texts) + made.content[0].text + json.dumps(made.structured_content) + json.dumps(log.structured_content)
    assert not any(b.token in every_answer for b in mcp.sessions.store.bot_seats(game_id)), "a bot seat's token was shown"


@pytest.mark.parametrize("game, players, options", [
    ("cthulhu-dice", ["bot:optimal", "bot:random"], {}),
    ("game-of-war", ["bot:heuristic", "bot:random"], {"max_turns": 5}),
    ("cthulhu-wars", ["bot:heuristic", "bot:random", "bot:heuristic"], {}),
], ids=["cthulhu-dice", "game-of-war", "cthulhu-wars"])
async def test_a_game_of_bots_alone_plays_to_its_end_by_itself(served, game, players, options):
    mcp, client = served
    made = await call(client, "new_game", game=game, players=players, options=options, seed=9)
    game_id = made.structured_content["game_id"]
    with anyio.fail_after(600):
        while (state := await call(client, "get_state", game_id=game_id)).structured_content["outcome"] is None:
            await anyio.sleep(0.2)
    with anyio.fail_after(60):  # the bots' driver marks the game finished once it sees the outcome, just after
        while game_id in mcp.sessions.store.unfinished_bot_games():
            await anyio.sleep(0.1)
    assert "Game over" in state.content[0].text or state.structured_content["outcome"]["reason"]
    assert mcp.driver.stats.errors == 0


async def test_an_unknown_bot_is_refused_naming_the_games_bots_and_nothing_is_made(served):
    _, client = served
    result = await client.call_tool("new_game", {"game": "cthulhu-wars", "players": ["Ann", "bot:alphazero", "bot:random"]})
    assert result.is_error
    text = result.content[0].text
    assert "bad_options: Cthulhu Wars has no bot" in text and "no bot 'alphazero'" in text
    assert all(b in text for b in ("heuristic", "search", "random"))
    listed = await call(client, "list_games", recent=5)
    assert listed.structured_content["recent"] == []
    bad = await client.call_tool("new_game", {"game": "cthulhu-dice", "players": ["Ann", {"seconds": 3}]})
    assert bad.is_error and "bad_options" in bad.content[0].text


async def test_list_games_names_each_games_bots(served):
    _, client = served
    listed = await call(client, "list_games")
    bots = {g["name"]: set(g["bots"]) for g in listed.structured_content["games"]}
    assert bots == {"cthulhu-dice": {"optimal", "random"}, "game-of-war": {"heuristic", "search", "raider", "random"},
                    "cthulhu-wars": {"heuristic", "search", "rusher", "random"}}
    assert "bot:optimal" in listed.content[0].text


async def test_a_name_given_as_an_object_is_taken_as_it_is_not_as_a_bot(served):
    _, client = served
    made = await call(client, "new_game", game="cthulhu-dice", players=[{"name": "bot:optimal"}, "Ann"])
    seats = made.structured_content["seats"]
    assert seats[0]["name"] == "bot:optimal" and seats[0]["bot"] is None and seats[0]["token"]


async def test_while_a_bot_is_awaited_the_position_says_it_is_thinking(tmp_path):
    """Without a running driver nothing plays the bot, so it stays awaited: the text says who and that it thinks."""
    store = GameStore(tmp_path / "games.sqlite3")
    sessions = GameSessions(store)
    live, tokens = sessions.create("cthulhu-dice", {}, ["Bob (bot:search)".replace("search", "optimal"), "Ann"],
                                   bots={0: ("optimal", 2.0)})
    async with Client(build_server(sessions)) as client:
        state = await call(client, "get_state", game_id=live.id)
    assert "Waiting for Bob (bot:optimal), thinking." in state.content[0].text
    store.close()


async def test_bot_seats_are_refused_while_no_driver_plays_them(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    async with Client(build_server(GameSessions(store))) as client:
        result = await client.call_tool("new_game", {"game": "cthulhu-dice", "players": ["Ann", "bot:random"]})
    assert result.is_error and "not playing bot seats" in result.content[0].text
    store.close()


async def test_a_bots_choice_reads_only_its_seat_hidden_values_of_others_change_nothing(tmp_path):
    """A bot seat sees what its port shows (its view and the log it may see). Changing another seat's hidden Elder
    Sign values, or the other side's secret deployment, changes nothing a bot is given, so nothing it chooses."""
    store = GameStore(tmp_path / "games.sqlite3")
    sessions = GameSessions(store)
    lanes = BotLanes(1)
    try:
        # Cthulhu Wars: another faction's Elder Signs, values changed behind the engine's back
        live, tokens = sessions.create("cthulhu-wars", {}, 3, seed=2)
        bots = [make_bot("cthulhu-wars", "heuristic", s) for s in range(3)]
        for _ in range(3000):  # play on until a seat decides while another holds Elder Signs drawn in play
            live = sessions.get(live.id)
            seat = live.to_move()[0]
            holders = [fs for s, fs in enumerate(live.state.seats) if s != seat and fs.elder_signs]
            if holders:
                break
            sessions.play(live.id, tokens[seat], [bots[seat].choose(live.engine, live.state, seat).model_dump(mode="json")])
        rival = holders[0]
        choices, shown = [], []
        for values in ([1], [3]):
            rival.elder_signs = values * len(rival.elder_signs)
            player = SeatPlayer(SessionsPort(sessions, live.id, tokens[seat]), lanes.thinker(live.id, "heuristic", 1.0))
            state = await player.port.state()
            observation = await player.observe(state)
            shown.append((state, observation))
            choices.append(await player.think(observation))
        assert shown[0] == shown[1] and choices[0] == choices[1] and choices[0] is not None
        # A Game of War: the other side's secret deployment
        made = []
        for opening in ("default", None):
            war, war_tokens = sessions.create("game-of-war", {}, 2, seed=3)
            if opening:
                sessions.play(war.id, war_tokens[0], f"opening {opening}")
            # the same thinker key for both games: a bot's seed comes from the game id and the position
            player = SeatPlayer(SessionsPort(sessions, war.id, war_tokens[1]), lanes.thinker("war", "heuristic", 1.0))
            state = await player.port.state()
            observation = await player.observe(state)
            made.append((state["view"], observation.log, observation.hidden, (await player.think(observation))[0]))
        assert made[0] == made[1]
    finally:
        lanes.close()
        store.close()


async def test_in_a_table_game_a_bot_waits_for_the_referees_entries_like_anyone(served):
    """Chance from a real table: the bot's roll is logged and waits for the referee's entry; the bot plays on after."""
    mcp, client = served
    made = await call(client, "new_game", game="cthulhu-dice", players=["bot:random", "Ann"], options={"chance": "table"})
    game_id = made.structured_content["game_id"]
    referee = next(s["token"] for s in made.structured_content["seats"] if s["seat"] == -1)
    entries = 0
    with anyio.fail_after(120):
        while entries < 6:
            state = (await call(client, "get_state", game_id=game_id)).structured_content
            if state["outcome"] is not None:
                break
            legal = (await call(client, "legal_moves", game_id=game_id, token=referee)).structured_content
            if legal["to_move"] == [0]:  # the bot is awaited: it moves by itself
                await anyio.sleep(0.05)
                continue
            move = legal["groups"][0]["moves"][0]
            await call(client, "apply_move", game_id=game_id, token=referee, move=move)
            entries += move.startswith("enter")
    log = (await call(client, "history", game_id=game_id, limit=200)).structured_content["moves"]
    bot_moves = [m for m in log if m["seat"] == 0 and not m["move"].startswith("enter")]
    assert entries >= 1 and bot_moves and mcp.driver.stats.errors == 0
    assert any("Awaiting the table" in e for m in bot_moves for e in m["events"]), "the bot's roll waited for the table"
