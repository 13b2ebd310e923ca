"""The board app without a browser: its resource (one self-contained document), which tools name it, the app-only
tools, how a person's seat reaches the app and never the model, and hosts without apps getting exactly today's
answers and listings.

The secrecy of a person's seat is checked over whole games (Cthulhu Dice; A Game of War, whose set-up is secret):
everything the model is given (every tool answer's text, pictures, embedded resources and structured content) and
everything the app tells the model holds neither the seat's token nor its key; while War's set-up is secret, the
model reads the same answers whatever the person has placed (two games compared).
"""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser

import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp.server.extension import Extension

from app.helpers import call
from tabletop.app import server as server_module
from tabletop.app.server import build_server
from tabletop.apps import BOARD_URI, LINKED_TOOLS, META_KEY
from tabletop.apps.board import SeatKeys, spectator_view
from tabletop.apps.document import board_document
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.public import game_view

from .testhost import model_visible

pytestmark = pytest.mark.anyio

APPS = advertise("io.modelcontextprotocol/ui", {"mimeTypes": ["text/html;profile=mcp-app"]})
APP_TOOLS = {"board_open", "board_view", "board_move", "board_legal", "board_advice"}
PAGES = "http://127.0.0.1:8000"
#: The most the app's document may weigh. The MCP Apps specification (2026-01-26, and its draft) names no limit;
#: this keeps the app light for hosts that fetch it with every conversation.
BUDGET = 64 * 1024


@pytest.fixture
def server(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    mcp = build_server(GameSessions(store))
    mcp.play_url = PAGES  # as `tabletop serve --http` sets it: people's seats have pages
    yield mcp
    store.close()


@pytest.fixture(params=["auto", "legacy"])
def mode(request):
    return request.param


def answer_json(result) -> dict:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


class Model:
    """A host with apps: what it gives the model (every answer of the tools the model calls) is kept, and so is
    what the app tells the model; the app's own calls go through the same connection."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.seen: list[str] = []

    async def __call__(self, tool: str, **args) -> dict:
        assert tool not in APP_TOOLS, "the host never gives the model an app-only tool"
        result = await self.client.call_tool(tool, args)
        answer = answer_json(result)
        self.seen.append(model_visible(answer))
        assert not result.is_error, model_visible(answer)
        return answer

    async def app(self, tool: str, **args) -> dict:
        result = await self.client.call_tool(tool, args)
        assert not result.is_error, result.content[0].text
        answer = result.structured_content
        if answer.get("public"):
            self.seen.append(answer["public"])  # the app tells the model this (ui/update-model-context)
        return answer

    def never_shown(self, *secrets: str) -> None:
        for secret in secrets:
            assert secret and not any(secret in text for text in self.seen), "the person's seat reached the model"


# ---- the resource -----------------------------------------------------------------------------------------
class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.outside: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "srcset", "data", "poster") and value:
                self.outside.append(f"{tag} {name}={value}")
        if tag in ("link", "iframe", "object", "embed", "base"):
            self.outside.append(tag)


async def test_the_app_is_one_self_contained_document_within_its_budget(server):
    async with Client(server, extensions=[APPS]) as client:
        listed = {r.uri: r for r in (await client.list_resources()).resources}
        assert listed[BOARD_URI].mime_type == "text/html;profile=mcp-app"
        read = (await client.read_resource(BOARD_URI)).contents[0]
    html = read.text
    assert read.mime_type == "text/html;profile=mcp-app" and html == board_document()
    assert (read.meta or {}).get("ui", {}).get("prefersBorder") is True and "csp" not in read.meta["ui"], \
        "no domain asked for: the host's default policy, which allows no network"
    assert html.lower().startswith("<!doctype html>") and html.rstrip().endswith("</html>")
    assert len(html.encode()) <= BUDGET, f"{len(html.encode())} bytes"
    parser = Links()
    parser.feed(html)
    assert parser.outside == [], "nothing is loaded from anywhere"
    assert not re.search(r"url\((?!data:)|@import", html), "no style sheet reaches out"
    bridge = (server_module.__file__.rsplit("/app/", 1)[0] + "/apps/static/app.js")
    script = open(bridge, encoding="utf-8").read()
    assert not re.search(r"\b(fetch|XMLHttpRequest|EventSource|WebSocket|sendBeacon|localStorage|sessionStorage)\b", script), \
        "the app's bridge talks to its host only, and keeps the seat in memory only"
    table = open(server_module.__file__.rsplit("/app/", 1)[0] + "/play/static/play.js", encoding="utf-8").read()
    assert table in html, "the seat's page's own table script, inlined as it is"


async def test_the_tools_that_show_a_position_name_the_app_and_the_app_only_tools_are_the_apps(server, mode):
    async with Client(server, mode=mode, extensions=[APPS]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in LINKED_TOOLS:
        assert tools[name].meta["ui"] == {"resourceUri": BOARD_URI}, name
    for name in APP_TOOLS:
        assert tools[name].meta["ui"] == {"resourceUri": BOARD_URI, "visibility": ["app"]}, name
        assert tools[name].description.startswith("For the board app only"), name
    others = set(tools) - APP_TOOLS - set(LINKED_TOOLS)
    assert others and all(not (tools[n].meta or {}).get("ui") for n in others)


# ---- hosts without apps -----------------------------------------------------------------------------------
class NoBoard(Extension):
    """The server as it was before the app (an extension that adds nothing)."""

    identifier = "io.github.tabletop-mcp/none"

    def __init__(self, sessions) -> None:
        pass

    def attach(self, mcp) -> None:
        pass


def normalized(answer: dict, swaps: dict[str, str]) -> dict:
    text = json.dumps(answer, sort_keys=True)
    for old, new in swaps.items():
        text = text.replace(old, new)
    return json.loads(re.sub(r'"(played_at|created_at)": "[^"]*"', r'"\1": "T"', text))


async def everything_a_client_reads(mcp) -> list:
    """Listings and a few answers of each game, as a client without apps gets them (ids and tokens named)."""
    out, swaps = [], {}
    async with Client(mcp) as client:
        out.append(sorted((await client.list_tools()).model_dump(by_alias=True, mode="json")["tools"], key=lambda t: t["name"]))
        out.append((await client.list_resources()).model_dump(by_alias=True, mode="json"))
        out.append((await client.list_resource_templates()).model_dump(by_alias=True, mode="json"))
        for game, players in (("cthulhu-dice", [{"name": "Ann", "person": True}, "Bob"]),
                              ("game-of-war", [{"name": "Ann", "person": True}, "Bob"]),
                              ("cthulhu-wars", ["Ann", "Bob", "Cy"])):
            made = answer_json(await client.call_tool("new_game", {"game": game, "players": players, "seed": 7}))
            data = made["structuredContent"]
            swaps[data["game_id"]] = f"GAME-{game}"
            for seat in data["seats"]:
                secret = seat["token"] or seat["link"].split("key=")[1]
                swaps[secret] = f"TOKEN-{game}-{seat['seat']}"
            out.append(made)
            game_id, seat = data["game_id"], data["to_move"][0]
            token = data["seats"][seat]["token"] or data["seats"][seat]["link"].split("key=")[1]
            for tool, args in (("get_state", {}), ("get_state", {"token": token, "detail": "full"}),
                               ("legal_moves", {"token": token}), ("history", {}),
                               ("render_board", {"format": "both"}), ("wait_for_turn", {"token": token, "timeout_seconds": 0})):
                out.append(answer_json(await client.call_tool(tool, {"game_id": game_id, **args})))
                if tool == "legal_moves":
                    moves = out[-1]["structuredContent"]["groups"][0]["moves"]
            out.append(answer_json(await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": moves[0]})))
            for tool, args in (("apply_move", {"game_id": game_id, "token": token, "move": "fly away"}),  # refusals
                               ("get_state", {"game_id": game_id, "detail": "everything"}),
                               ("board_view", {"game_id": game_id}), ("nope", {})):
                out.append(answer_json(await client.call_tool(tool, args)))
    return [normalized(x, swaps) for x in out]


async def test_a_host_without_apps_gets_exactly_the_answers_and_listings_of_a_server_without_the_app(tmp_path, monkeypatch):
    with_app = build_server(GameSessions(GameStore(tmp_path / "a.sqlite3")))
    monkeypatch.setattr(server_module, "BoardApp", NoBoard)
    without = build_server(GameSessions(GameStore(tmp_path / "b.sqlite3")))
    for mcp in (with_app, without):
        mcp.play_url = PAGES
    ours, before = await everything_a_client_reads(with_app), await everything_a_client_reads(without)
    assert ours == before
    tools = {t["name"] for t in ours[0]}
    assert not tools & APP_TOOLS and all("_meta" not in t or "ui" not in (t["_meta"] or {}) for t in ours[0])
    assert "Ann plays from this page" in ours[3]["content"][0]["text"], "a person's page link, as before"


async def test_an_app_only_tool_is_unknown_to_a_client_without_apps(server, mode):
    async with Client(server, mode=mode) as client:
        result = await client.call_tool("board_view", {"game_id": "x"})
        assert result.is_error and result.content[0].text == "Unknown tool: board_view"
        assert (await client.call_tool("nope", {})).content[0].text == "Unknown tool: nope", "the SDK's own words"


# ---- a person's seat --------------------------------------------------------------------------------------
async def test_a_persons_seat_goes_to_the_app_once_and_never_to_the_model(server, mode):
    async with Client(server, mode=mode, extensions=[APPS]) as client:
        model = Model(client)
        made = await model("new_game", game="cthulhu-dice", players=[{"name": "Ann", "person": True}, "Bob"], seed=3)
        data, meta = made["structuredContent"], made["_meta"][META_KEY]
        assert data["seats"][0]["link"] is None and data["seats"][0]["token"] is None
        assert "Ann plays from the board shown with this answer" in made["content"][0]["text"]
        assert [s["name"] for s in meta["seats"]] == ["Ann"] and set(meta["seats"][0]) == {"seat", "name", "key"}
        key = meta["seats"][0]["key"]
        opened = await model.app("board_open", key=key)
        assert opened["seat"] == 0 and opened["name"] == "Ann" and opened["page"].startswith(f"{PAGES}/play/")
        again = await client.call_tool("board_open", {"key": key})
        assert again.is_error and "bad_token" in again.content[0].text, "a key opens its seat once"
        game_id, token = data["game_id"], opened["token"]

        seat = await model.app("board_view", game_id=game_id, token=token)
        assert seat["view"]["seat"] == 0 and seat["view"]["your_turn"] and seat["view"]["moves"]
        spectator = await model.app("board_view", game_id=game_id)
        assert spectator["view"]["seat"] is None and spectator["view"]["moves"] == []
        bob = data["seats"][1]["token"]
        refused = await client.call_tool("board_view", {"game_id": game_id, "token": "x" * 24})
        assert refused.is_error and "bad_token" in refused.content[0].text
        tried = await model.app("board_move", game_id=game_id, token=token, moves=["roll"])
        assert tried["ok"] and "NOT played" in tried["text"] and tried["public"] is None
        wrong = await model.app("board_move", game_id=game_id, token=bob, moves=["roll"], dry_run=False)
        assert not wrong["ok"] and "not_your_turn" in wrong["text"], "a seat's token acts for that seat only"
        played = await model.app("board_move", game_id=game_id, token=token, moves=["roll"], dry_run=False, expected_ply=1)
        assert played["ok"] and played["public"].startswith(f"Cthulhu Dice {game_id}, as a spectator sees it")
        advice = await model.app("board_advice", game_id=game_id, token=token)
        assert advice["ok"] and "Recommended" in advice["text"]
        model.never_shown(token, key)


async def test_the_json_copy_of_a_new_game_holds_no_link_either(tmp_path):
    mcp = build_server(GameSessions(GameStore(tmp_path / "g.sqlite3")), json_content=True)
    mcp.play_url = PAGES
    async with Client(mcp, extensions=[APPS]) as client:
        made = answer_json(await client.call_tool("new_game", {"game": "cthulhu-dice", "players": [{"name": "Ann", "person": True}, "Bob"]}))
    copy = json.loads(made["content"][-1]["text"])
    assert copy == made["structuredContent"] and copy["seats"][0]["link"] is None
    assert "/play/" not in model_visible(made)


def test_a_seat_key_opens_once_and_expires():
    keys = SeatKeys(life=0.05, most=3)
    first = keys.issue("g", 0, "t0")
    assert keys.redeem(first).token == "t0" and keys.redeem(first) is None and keys.redeem("nope") is None
    late = keys.issue("g", 1, "t1")
    import time

    time.sleep(0.1)
    assert keys.redeem(late) is None, "expired"
    many = [keys.issue("g", n, f"t{n}") for n in range(5)]
    assert keys.redeem(many[0]) is None and keys.redeem(many[-1]).token == "t4", "the oldest go first"


async def test_the_board_waits_for_a_change_and_a_spectator_sees_the_watching_sites_board(server):
    async with Client(server, extensions=[APPS]) as client:
        made = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"], seed=2)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        first = (await client.call_tool("board_view", {"game_id": game_id})).structured_content
        same = (await client.call_tool("board_view", {"game_id": game_id, "seen": first["digest"], "wait_seconds": 0.2})).structured_content
        assert same["digest"] == first["digest"], "nothing happened: the same view after the wait"
        await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
        later = (await client.call_tool("board_view", {"game_id": game_id, "seen": first["digest"], "wait_seconds": 5})).structured_content
        assert later["digest"] != first["digest"] and later["view"]["since"][-1]["move"] == "roll"
        live = server.sessions.get(game_id)
        public, shown = game_view(server.sessions, live), spectator_view(server.sessions, live)
        assert (shown["svg"], shown["position"], shown["log"]) == (public["svg"], public["position"], public["log"])


# ---- whole games: nothing of the person's seat reaches the model -----------------------------------------
def choose(view: dict, chooser: random.Random) -> str:
    return chooser.choice([m["notation"] for g in view["moves"] for m in g["moves"]])


async def test_over_a_whole_cthulhu_dice_game_the_model_never_holds_the_persons_seat(server):
    async with Client(server, extensions=[APPS]) as client:
        model = Model(client)
        made = await model("new_game", game="cthulhu-dice", players=[{"name": "Ann", "person": True}, "Bob"], seed=40)
        game_id, bob = made["structuredContent"]["game_id"], made["structuredContent"]["seats"][1]["token"]
        key = made["_meta"][META_KEY]["seats"][0]["key"]
        ann = (await model.app("board_open", key=key))["token"]
        chooser = random.Random(40)
        for turn in range(2000):
            state = (await model("get_state", game_id=game_id, token=bob))["structuredContent"]
            if state["outcome"]:
                break
            if turn % 7 == 0:
                await model("history", game_id=game_id, token=bob)
                await model("get_state", game_id=game_id, detail="full")
                await model("render_board", game_id=game_id, format="svg")
            if state["your_turn"]:
                legal = (await model("legal_moves", game_id=game_id, token=bob))["structuredContent"]
                await model("apply_move", game_id=game_id, token=bob, move=chooser.choice([m for g in legal["groups"] for m in g["moves"]]))
                continue
            view = (await model.app("board_view", game_id=game_id, token=ann))["view"]
            assert view["your_turn"]
            played = await model.app("board_move", game_id=game_id, token=ann, moves=[choose(view, chooser)], dry_run=False)
            assert played["ok"], played["text"]
            history = "\n".join(c["text"] for c in (await model("history", game_id=game_id, limit=200))["content"])
            note = played["public"].splitlines()
            assert all(line in history for line in note[1:]), "the app tells the model what the log shows anyone"
            await model("wait_for_turn", game_id=game_id, token=bob, timeout_seconds=0)
        else:
            raise AssertionError("the game did not end")
        await model("history", game_id=game_id, token=bob, limit=200)
        await model("render_board", game_id=game_id, token=bob, format="both")
        assert len(model.seen) > 50
        model.never_shown(ann, key)


async def what_the_model_reads_of_war(model: Model, game_id: str, token: str) -> list:
    answers = [
        await model("get_state", game_id=game_id, token=token, detail="full"),
        await model("get_state", game_id=game_id, detail="full"),
        await model("history", game_id=game_id, token=token),
        await model("history", game_id=game_id),
        await model("legal_moves", game_id=game_id, token=token, focus="o12"),
        await model("wait_for_turn", game_id=game_id, token=token, timeout_seconds=0),
        await model("render_board", game_id=game_id, token=token, format="svg"),
        await model("render_board", game_id=game_id, format="svg"),
        await model("network_status", game_id=game_id),
    ]
    listed = (await model("list_games", recent=5))["structuredContent"]["recent"]
    seen = [model_visible(a) for a in answers] + [json.dumps([g["moves"] for g in listed if g["game_id"] == game_id])]
    return [re.sub(r'"played_at": "[^"]*"', "", s).replace(game_id, "GAME").replace(token, "TOKEN") for s in seen]


async def test_over_a_whole_game_of_war_the_model_never_learns_the_persons_secret_set_up_nor_holds_the_seat(server):
    """The model holds South; Ann (a person, North) plays from the app. In two games she places differently (and
    makes a different number of moves) before committing: until then, everything the model reads is the same in
    both. The first game then goes on to its end."""
    async with Client(server, extensions=[APPS]) as client:
        model = Model(client)
        worlds = []
        for ann_moves in (["opening default"], ["place C c7", "place I e7", "remove e7", "place I d7", "place K f7"]):
            made = await model("new_game", game="game-of-war", players=[{"name": "Ann", "person": True}, "Bob"],
                               seed=12, options={"max_turns": 16})
            data = made["structuredContent"]
            game_id, bob = data["game_id"], data["seats"][1]["token"]
            key = made["_meta"][META_KEY]["seats"][0]["key"]
            ann = (await model.app("board_open", key=key))["token"]
            played = await model.app("board_move", game_id=game_id, token=ann, moves=ann_moves, dry_run=False)
            assert played["ok"] and "secret" in played["public"]
            notes = [played["public"].replace(game_id, "GAME")]
            reads = await what_the_model_reads_of_war(model, game_id, bob)
            for move in ("opening default", "commit"):
                reads.append(model_visible(await model("apply_move", game_id=game_id, token=bob, move=move))
                             .replace(game_id, "GAME"))
            reads += await what_the_model_reads_of_war(model, game_id, bob)
            worlds.append((reads, notes, game_id, bob, ann, key))
        assert worlds[0][0] == worlds[1][0], "what the model reads does not depend on the person's secret set-up"
        assert worlds[0][1] == worlds[1][1], "nor does what the app tells it"

        _, _, game_id, bob, ann, key = worlds[0]
        committed = await model.app("board_move", game_id=game_id, token=ann, moves=["commit"], dry_run=False)
        assert "Deployments revealed" in committed["public"]
        chooser = random.Random(5)
        for step in range(3000):
            state = (await model("get_state", game_id=game_id, token=bob))["structuredContent"]
            if state["outcome"]:
                break
            if state["your_turn"]:
                options = [m for g in (await model("legal_moves", game_id=game_id, token=bob))["structuredContent"]["groups"]
                           for m in g["moves"]]
                await model("apply_move", game_id=game_id, token=bob, move=chooser.choice(options))
            else:
                view = (await model.app("board_view", game_id=game_id, token=ann))["view"]
                assert view["your_turn"], view["waiting"]
                moved = await model.app("board_move", game_id=game_id, token=ann, moves=[choose(view, chooser)], dry_run=False)
                assert moved["ok"], moved["text"]
            if step % 10 == 0:
                await what_the_model_reads_of_war(model, game_id, bob)
        else:
            raise AssertionError("the game did not end")
        await model("render_board", game_id=game_id, token=bob, format="both")
        model.never_shown(ann, key)
        for _, _, _, _, other_ann, other_key in worlds[1:]:
            model.never_shown(other_ann, other_key)


async def what_the_model_reads_of_cthulhu_wars(model: Model, game_id: str, tokens: list[str]) -> list[str]:
    reads = []
    for token in tokens:
        for tool, args in (("get_state", {"detail": "full"}), ("legal_moves", {"detail": "full"}), ("history", {})):
            result = await model.client.call_tool(tool, {"game_id": game_id, "token": token, **args})
            reads.append(model_visible(answer_json(result)))
    model.seen += reads
    return reads


async def test_over_a_whole_game_of_cthulhu_wars_the_model_never_learns_the_persons_elder_signs(server):
    """Ann (a person) plays the first faction from the app; the model holds the two others. All along the game, what
    the model reads for its seats does not change when Ann's hidden Elder Signs are given other values (as many), and
    nothing it reads holds Ann's token or key (rules_text cthulhu-wars/doom)."""
    async with Client(server, extensions=[APPS]) as client:
        model = Model(client)
        made = await model("new_game", game="cthulhu-wars", players=[{"name": "Ann", "person": True}, "Bob", "Cid"],
                           seed=21)
        data = made["structuredContent"]
        game_id, tokens = data["game_id"], [s["token"] for s in data["seats"][1:]]
        key = made["_meta"][META_KEY]["seats"][0]["key"]
        ann = (await model.app("board_open", key=key))["token"]
        chooser = random.Random(21)
        compared = 0
        # random play seldom earns Elder Signs: Ann is dealt two to hold from the start (in memory only)
        server.sessions.get(game_id).state.seats[0].elder_signs = [1, 2]
        for step in range(6000):
            live = server.sessions.get(game_id)
            if live.state.seats[0].elder_signs and step % 10 == 0:
                await what_the_model_reads_of_cthulhu_wars(model, game_id, tokens)  # what is told once, told now
                kept = list(live.state.seats[0].elder_signs)
                one = await what_the_model_reads_of_cthulhu_wars(model, game_id, tokens)
                live.state.seats[0].elder_signs = [4 - v for v in kept]  # other values, as many
                two = await what_the_model_reads_of_cthulhu_wars(model, game_id, tokens)
                live.state.seats[0].elder_signs = kept
                assert one == two, "what the model reads depends on the values of Ann's hidden Elder Signs"
                compared += 1
            state = (await model("get_state", game_id=game_id))["structuredContent"]
            if state["outcome"]:
                break
            view = (await model.app("board_view", game_id=game_id, token=ann))["view"]
            if view["your_turn"]:
                kept_hidden = [m["notation"] for g in view["moves"] for m in g["moves"] if "reveal" not in m["notation"]]
                moves = kept_hidden or [choose(view, chooser)]  # she keeps her Elder Signs hidden while she can
                moved = await model.app("board_move", game_id=game_id, token=ann, moves=[chooser.choice(moves)],
                                        dry_run=False)
                assert moved["ok"], moved["text"]
                continue
            for token in tokens:
                if (await model("get_state", game_id=game_id, token=token))["structuredContent"]["your_turn"]:
                    legal = (await model("legal_moves", game_id=game_id, token=token))["structuredContent"]
                    await model("apply_move", game_id=game_id, token=token,
                                move=chooser.choice([m for g in legal["groups"] for m in g["moves"]]))
                    break
        else:
            raise AssertionError("the game did not end")
        assert compared >= 3, "Ann held Elder Signs at some point (else the comparison checks nothing)"
        model.never_shown(ann, key)
