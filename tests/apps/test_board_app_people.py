"""A person's seat through the board app on a server that serves no play pages (stdio: Claude Desktop and most other
hosts that render apps run the server so): a host with apps gets the seat, in the app only; any other client is
refused with both ways named (``tabletop serve --http``, or a host that renders MCP Apps).

Over real stdio (the ``tabletop serve`` process) a client advertising the Apps extension starts Cthulhu Dice against
the server's optimal bot, opens the seat as the app does (``board_open`` with the key from ``_meta``), plays the
person's turns with ``board_move`` and sees the bot answer; nothing the model reads holds the seat's token or key.
"""

from __future__ import annotations

import random
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

from tabletop.app.server import build_server
from tabletop.apps import META_KEY
from tabletop.apps.board import MAX_WAIT
from tabletop.apps.seats import PLAYED_IN_THE_APP, SeatKeys, ToTheApp
from tabletop.seats.thinking import BotLanes
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .test_board_app import APPS, PAGES, Model, answer_json
from .testhost import model_visible

pytestmark = pytest.mark.anyio

ANN_AND_THE_BOT = [{"name": "Ann", "person": True}, {"name": "Cthulhu", "bot": "optimal"}]
#: The most board_view waits a test makes for the bot to answer (each bounded by the tool's own MAX_WAIT).
MOST_WAITS = 40


@pytest.fixture
async def pageless(tmp_path):
    """The server as stdio serves it: no play pages (``play_url`` None), its bot driver running."""
    store = GameStore(tmp_path / "games.sqlite3")
    mcp = build_server(GameSessions(store))
    assert mcp.play_url is None
    mcp.driver.lanes = BotLanes(1)
    async with anyio.create_task_group() as group:
        await group.start(mcp.driver.run)
        yield mcp
        group.cancel_scope.cancel()
    store.close()


@pytest.fixture(params=["auto", "legacy"])
def mode(request):
    return request.param


async def refusal(client: Client, tool: str, **args) -> str:
    result = await client.call_tool(tool, args)
    assert result.is_error, f"{tool} was accepted"
    assert not (result.meta or {}).get(META_KEY), "a refusal hands no seat over"
    return result.content[0].text


def says_both_ways(text: str) -> None:
    assert "bad_options:" in text and "tabletop serve --http" in text and "MCP Apps" in text, text


async def turn_of(model: Model, game_id: str, token: str) -> dict:
    """The seat's view once it is the seat's turn or the game is over (the bot plays in between)."""
    seen = ""
    for _ in range(MOST_WAITS):
        answer = await model.app("board_view", game_id=game_id, token=token, seen=seen, wait_seconds=MAX_WAIT)
        view = answer["view"]
        if view["your_turn"] or view["over"]:
            return view
        seen = answer["digest"]
    raise AssertionError(f"the seat's turn did not come: {view['waiting']}")


async def plays_ann_to_the_end(model: Model, made: dict) -> tuple[str, str, int]:
    """Ann's seat, opened as the app opens it, played with board_move (a legal move chosen at random) until the game
    ends; the seat's token, its key, and the number of bot moves seen between hers."""
    data, meta = made["structuredContent"], made["_meta"][META_KEY]
    assert data["seats"][0]["token"] is None and data["seats"][0]["link"] is None
    assert data["seats"][1]["token"] is None and data["seats"][1]["bot"] == "optimal"
    assert [(s["seat"], s["name"]) for s in meta["seats"]] == [(0, "Ann")]
    assert "Ann plays from the board shown with this answer" in made["content"][0]["text"]
    key = meta["seats"][0]["key"]
    opened = await model.app("board_open", key=key)
    assert (opened["seat"], opened["name"], opened["page"]) == (0, "Ann", None), "no page on this server"
    game_id, token = data["game_id"], opened["token"]
    bot_moves, chooser = 0, random.Random(made["structuredContent"]["seed"])
    for _ in range(500):
        view = await turn_of(model, game_id, token)
        if view["over"]:
            break
        before = view["ply"]
        choices = [m["notation"] for g in view["moves"] for m in g["moves"]]
        move = chooser.choice(choices)
        played = await model.app("board_move", game_id=game_id, token=token, moves=[move], dry_run=False,
                                 expected_ply=before + 1)
        assert played["ok"], played["text"]
        assert played["public"].startswith(f"Cthulhu Dice {game_id}, as a spectator sees it")
        after = await turn_of(model, game_id, token)
        bot_moves += after["ply"] - before - 1
    else:
        raise AssertionError("the game did not end")
    state = await model("get_state", game_id=game_id)
    assert state["structuredContent"]["outcome"], "the game is over for everyone"
    return token, key, bot_moves


# ---- in memory --------------------------------------------------------------------------------------------
async def test_a_host_with_apps_gets_a_persons_seat_on_a_server_without_pages(pageless, mode):
    async with Client(pageless, mode=mode, extensions=[APPS]) as client:
        model = Model(client)
        made = await model("new_game", game="cthulhu-dice", players=ANN_AND_THE_BOT, seed=5)
        token, key, bot_moves = await plays_ann_to_the_end(model, made)
        assert bot_moves > 0, "the bot played between Ann's moves"
        again = await client.call_tool("board_open", {"key": key})
        assert again.is_error and "bad_token" in again.content[0].text, "a key opens its seat once"
        model.never_shown(token, key)


async def test_a_client_without_apps_is_refused_a_persons_seat_and_told_both_ways(pageless, mode):
    async with Client(pageless, mode=mode) as client:
        says_both_ways(await refusal(client, "new_game", game="cthulhu-dice", players=ANN_AND_THE_BOT))
        made = answer_json(await client.call_tool("new_game", {"game": "cthulhu-dice", "players": ["Ann", "Bob"]}))
        game_id, token = made["structuredContent"]["game_id"], made["structuredContent"]["seats"][0]["token"]
        says_both_ways(await refusal(client, "get_state", game_id=game_id, token=token, link=True))
        assert "_meta" not in made or META_KEY not in made["_meta"]


async def test_without_pages_get_state_hands_a_held_seat_to_the_app_shown_with_it(pageless):
    """An agent's own seat, handed to a person (``get_state`` with ``link: true``): the board shown with the answer
    gets the seat's key; the answer names no page (there is none)."""
    async with Client(pageless, extensions=[APPS]) as client:
        model = Model(client)
        made = (await model("new_game", game="cthulhu-dice", players=["Ann", "Bob"], seed=2))["structuredContent"]
        game_id, ann = made["game_id"], made["seats"][0]["token"]
        linked = await model("get_state", game_id=game_id, token=ann, link=True)
        assert linked["structuredContent"]["link"] is None
        assert "Ann plays from the board shown with this answer" in linked["content"][0]["text"]
        key = linked["_meta"][META_KEY]["seats"][0]["key"]
        opened = await model.app("board_open", key=key)
        assert (opened["seat"], opened["token"], opened["page"]) == (0, ann, None)
        plain = await model("get_state", game_id=game_id, token=ann)
        assert META_KEY not in (plain.get("_meta") or {}), "only link=true hands the seat over"
        text = await refusal(client, "get_state", game_id=game_id, link=True)
        assert "link=true" in text, "a page (or the board) is a seat's: no token, no seat"
        model.never_shown(key)


async def test_with_pages_a_host_with_apps_still_gets_the_page_link_of_a_seat_it_holds(pageless):
    """A server with pages gives the link, as before, to an agent handing its own seat over (it holds the token)."""
    pageless.play_url = PAGES
    async with Client(pageless, extensions=[APPS]) as client:
        made = (await Model(client)("new_game", game="cthulhu-dice", players=["Ann", "Bob"]))["structuredContent"]
        linked = answer_json(await client.call_tool(
            "get_state", {"game_id": made["game_id"], "token": made["seats"][0]["token"], "link": True}))
        assert linked["structuredContent"]["link"].startswith(f"{PAGES}/play/")
        assert META_KEY not in (linked.get("_meta") or {})


async def test_a_refused_new_game_hands_no_seat_to_the_app(pageless):
    async with Client(pageless, extensions=[APPS]) as client:
        text = await refusal(client, "new_game", game="cthulhu-dice",
                             players=[{"name": "Ann", "person": True}, {"name": "Cy", "bot": "nonesuch"}])
        assert "nonesuch" in text


async def test_keys_handed_in_an_answer_that_is_refused_after_all_are_forgotten(pageless):
    async with Client(pageless) as client:
        made = await client.call_tool("new_game", {"game": "cthulhu-dice", "players": ["Ann", "Bob"]})
    live = pageless.sessions.get(made.structured_content["game_id"])
    keys = SeatKeys()
    route = ToTheApp(keys)
    assert route.hand(live, 1, "t1") == PLAYED_IN_THE_APP
    key = route.handed[0]["key"]
    refused = CallToolResult(content=[TextContent(type="text", text="no")], is_error=True)
    assert route.answered(refused) is refused and keys.redeem(key) is None
    route = ToTheApp(keys)
    route.hand(live, 0, "t0")
    answered = route.answered(CallToolResult(content=[TextContent(type="text", text="yes")]))
    assert answered.meta[META_KEY]["seats"] == [{"seat": 0, "name": "Ann", "key": route.handed[0]["key"]}]
    assert keys.redeem(route.handed[0]["key"]).token == "t0"


# ---- over real stdio --------------------------------------------------------------------------------------
def stdio_server(tmp_path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "tabletop", "serve", "--db", str(tmp_path / "stdio.sqlite3")])


async def test_over_stdio_a_host_with_apps_plays_a_persons_seat_against_a_bot_from_the_board(tmp_path, mode):
    async with Client(stdio_server(tmp_path), mode=mode, extensions=[APPS]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["board_open"].meta["ui"]["visibility"] == ["app"], "the host is told the tool is the app's"
        model = Model(client)
        made = await model("new_game", game="cthulhu-dice", players=ANN_AND_THE_BOT, seed=11)
        assert model_visible(made).count("/play/") == 0
        token, key, bot_moves = await plays_ann_to_the_end(model, made)
        assert bot_moves > 0, "the server's bot played between Ann's moves"
        await model("history", game_id=made["structuredContent"]["game_id"], limit=200)
        model.never_shown(token, key)


async def test_over_stdio_a_client_without_apps_is_still_refused_a_persons_seat(tmp_path):
    async with Client(stdio_server(tmp_path)) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert "board_open" not in tools
        says_both_ways(await refusal(client, "new_game", game="cthulhu-dice", players=ANN_AND_THE_BOT))
        assert (await client.call_tool("board_open", {"key": "x"})).content[0].text == "Unknown tool: board_open"
