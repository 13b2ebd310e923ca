"""The MCP surface through the real SDK client, in memory, on both protocol handshakes."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client, MCPError

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .helpers import call, play_to_the_end, refused

pytestmark = pytest.mark.anyio

EXPECTED_TOOLS = {
    "ping", "list_games", "new_game", "get_state", "legal_moves", "apply_move", "history", "wait_for_turn",
    "roll_cthulhu_dice", "search_rules",
}


async def new_dice_game(client: Client, seats=("Ann", "Bob"), **extra) -> tuple[str, list[str]]:
    game = await call(client, "new_game", game="cthulhu-dice", players=list(seats), **extra)
    return game["game_id"], [s["token"] for s in game["seats"]]


def keywords_named(schema, names: set[str]) -> list[str]:
    """Schema keywords (not property names) among ``names``, anywhere in ``schema``."""
    found = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in names:
                found.append(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    found += keywords_named(sub, names)
            else:
                found += keywords_named(value, names)
    elif isinstance(schema, list):
        for item in schema:
            found += keywords_named(item, names)
    return found


async def test_every_tool_has_a_portable_input_schema_a_lean_output_schema_a_title_and_annotations(client: Client):
    listing = await client.list_tools()
    tools = {t.name: t for t in listing.tools}
    assert EXPECTED_TOOLS <= set(tools)
    for tool in tools.values():
        schema = tool.input_schema
        flat = json.dumps(schema)
        assert schema["type"] == "object" and not any(k in flat for k in ('"$ref"', '"$defs"', '"anyOf"', '"oneOf"', '"allOf"')), tool.name
        for name, prop in schema.get("properties", {}).items():
            kinds = prop.get("type")
            assert kinds and not isinstance(kinds, list), f"{tool.name}.{name} has one plain type"
            assert prop.get("description"), f"{tool.name}.{name} is described"
            assert prop.get("default", 0) is not None, f"{tool.name}.{name}: an optional argument is simply not required"
        assert tool.output_schema is None, "output schemas are left out of tools/list unless asked for"
        assert tool.title, tool.name
        hints = tool.annotations
        assert hints.read_only_hint is not None and hints.open_world_hint is False, tool.name
        if not hints.read_only_hint:  # the spec gives these meaning only when readOnlyHint is false
            assert hints.destructive_hint is False and hints.idempotent_hint is not None, tool.name
        assert len(tool.description) > 40 and "\n" not in tool.description and "  " not in tool.description, tool.name
    assert tools["apply_move"].input_schema["required"] == ["game_id", "token"]
    assert tools["get_state"].annotations.read_only_hint is True and tools["apply_move"].annotations.read_only_hint is False
    size = len(json.dumps([t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listing.tools]))
    assert size <= 16_000, f"tools/list is {size} characters"


async def test_output_schemas_on_request_are_lean_and_every_answer_is_checked_against_them(tmp_path):
    server = build_server(GameSessions(GameStore(tmp_path / "g.sqlite3")), output_schemas=True)
    async with Client(server) as client:  # the SDK client validates each structuredContent against its schema
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for tool in tools.values():
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            assert not keywords_named(tool.output_schema, {"title", "description"}), tool.name
        game_id, tokens = await new_dice_game(client, seed=8)
        await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll", detail="full")
        await call(client, "get_state", game_id=game_id, token=tokens[0], detail="full")
        await call(client, "legal_moves", game_id=game_id, token=tokens[0], detail="full")
        await call(client, "history", game_id=game_id)


async def test_ping_and_list_games(client: Client):
    assert (await call(client, "ping"))["ok"] is True
    brief = await client.call_tool("list_games", {})
    assert "bag_exhaustion" in brief.content[0].text and "rules://cthulhu-dice/rulings" in brief.content[0].text
    assert all(g["options_schema"] is None for g in brief.structured_content["games"])
    games = await call(client, "list_games", detail="full")
    dice = next(g for g in games["games"] if g["name"] == "cthulhu-dice")
    assert (dice["min_seats"], dice["max_seats"]) == (2, 6)
    assert "bag_exhaustion" in dice["options_schema"]["properties"]


async def test_a_whole_game_through_mcp(client: Client):
    game_id, tokens = await new_dice_game(client, seats=("Ann", "Bob", "Cy"), seed=99)
    final = await play_to_the_end(client, game_id, tokens)
    outcome = final["outcome"]
    scores = final["view"]["scores"]
    assert outcome["winners"] and all(scores[w] == max(scores) >= 13 for w in outcome["winners"])
    plies, after = [], 0
    while after is not None:
        log = await call(client, "history", game_id=game_id, after=after, limit=50)
        assert len(log["moves"]) <= 50 and log["seed"] == 99
        plies += [m["ply"] for m in log["moves"]]
        after = log["next_cursor"]
    assert plies == list(range(1, final["ply"] + 1))
    assert "over" in (await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="roll"))


async def test_each_kind_of_mistake_is_a_tool_error_that_changes_nothing(client: Client):
    game_id, tokens = await new_dice_game(client)
    before = await call(client, "get_state", game_id=game_id)
    cases = {
        "unknown_game": dict(game_id="cthulhu-dice-nope", token=tokens[0], move="roll"),
        "bad_token": dict(game_id=game_id, token="forged", move="roll"),
        "not_your_turn": dict(game_id=game_id, token=tokens[1], move="roll"),
        "malformed_move": dict(game_id=game_id, token=tokens[0], move="fly away"),
        "illegal_move": dict(game_id=game_id, token=tokens[0], move="retreat"),
    }
    for kind, args in cases.items():
        text = await refused(client, "apply_move", **args)
        assert kind in text, text
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="retreat")
    assert "rules://cthulhu-dice/turn" in text and "Legal instead: roll" in text
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[0], actions=[{"kind": "jump"}])
    assert "malformed_move" in text and "Legal instead: roll" in text
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[1], move="roll")
    assert "waiting for Ann" in text
    assert await call(client, "get_state", game_id=game_id) == before


async def test_arguments_that_fail_the_schema_are_refused(client: Client):
    text = await refused(client, "wait_for_turn", game_id="x", token="y", timeout_seconds=999)
    assert "bad_arguments: `timeout_seconds` is 999 (allowed: a number from 0 to 50)" in text
    assert "bad_arguments: `token` is missing" in await refused(client, "apply_move", game_id="x", move="roll")
    text = await refused(client, "new_game", game="cthulhu-dice", seats=9)
    assert "2 to 6" in text
    text = await refused(client, "new_game", game="cthulhu-dice", options={"tie_rule": "coin toss"})
    assert "bad_options" in text and "tie_rule" in text
    text = await refused(client, "new_game", game="go", seats=2)
    assert "cthulhu-dice" in text


async def test_dry_run_checks_without_playing_and_never_shows_the_dice(client: Client):
    game_id, tokens = await new_dice_game(client, seed=5)
    before = await call(client, "get_state", game_id=game_id, detail="full")
    preview = await client.call_tool(
        "apply_move", {"game_id": game_id, "token": tokens[0], "move": "roll", "dry_run": True, "detail": "full"}
    )
    dry = preview.structured_content
    assert dry["dry_run"] and dry["played"] == [{"ply": 1, "move": "roll", "events": []}]
    assert dry["view"] == before["view"]
    assert dry["chance"]["outcomes"][0]["result"].startswith("downed")
    assert abs(sum(o["probability"] for o in dry["chance"]["outcomes"]) - 1) < 1e-9
    assert "not shown" in preview.content[0].text
    assert await call(client, "get_state", game_id=game_id, detail="full") == before
    played = await call(client, "apply_move", game_id=game_id, token=tokens[0], actions=[{"kind": "roll"}])
    rolled = played["played"][0]["events"][0].split(":")[1].split(".")[0]  # e.g. " library elder sign, tomb clue, ..."
    assert rolled and rolled not in preview.content[0].text and rolled not in str(dry)
    if played["to_move"] == [0]:  # not downed: a retreat has no chance, so its dry run shows exactly what it does
        retreat = await call(client, "apply_move", game_id=game_id, token=tokens[0], move="retreat", dry_run=True)
        assert retreat["chance"] is None and retreat["played"][0]["events"][0].startswith("Ann retreats")


async def test_the_seed_stays_secret_unless_the_creator_chose_it(client: Client):
    drawn = await call(client, "new_game", game="cthulhu-dice", seats=2)
    chosen = await call(client, "new_game", game="cthulhu-dice", seats=2, seed=12)
    assert drawn["seed"] is None and chosen["seed"] == 12
    assert (await call(client, "get_state", game_id=drawn["game_id"]))["seed_chosen"] is False
    assert (await call(client, "get_state", game_id=chosen["game_id"]))["seed_chosen"] is True
    assert (await call(client, "history", game_id=drawn["game_id"]))["seed"] is None
    final = await play_to_the_end(client, drawn["game_id"], [s["token"] for s in drawn["seats"]])
    assert final["outcome"] and isinstance((await call(client, "history", game_id=drawn["game_id"]))["seed"], int)


async def test_games_are_isolated(client: Client):
    a, tokens_a = await new_dice_game(client, seed=1)
    b, tokens_b = await new_dice_game(client, seed=1)
    await call(client, "apply_move", game_id=a, token=tokens_a[0], move="roll")
    assert (await call(client, "get_state", game_id=b))["ply"] == 0
    text = await refused(client, "apply_move", game_id=b, token=tokens_a[0], move="roll")
    assert "bad_token" in text, "a token of one game does not open another"


async def test_seat_and_spectator_views(client: Client):
    game_id, tokens = await new_dice_game(client)
    mine = await call(client, "get_state", game_id=game_id, token=tokens[0])
    spectator = await call(client, "get_state", game_id=game_id)
    assert mine["your_seat"] == 0 and mine["your_turn"] is True
    assert spectator["your_seat"] is None and spectator["your_turn"] is False
    assert "bad_token" in await refused(client, "get_state", game_id=game_id, token="forged")
    other = await call(client, "legal_moves", game_id=game_id, token=tokens[1])
    assert other["count"] == 0 and other["your_turn"] is False


async def test_standalone_and_in_game_dice_rolls(client: Client):
    first = await call(client, "roll_cthulhu_dice", dice=["tomb", "tomb", "library", "museum"], seed=42)
    again = await call(client, "roll_cthulhu_dice", dice=["tomb", "tomb", "library", "museum"], seed=42)
    assert first == again and len(first["dice"]) == 4
    assert first["elder_signs"] + first["clues"] + first["tentacles"] == 4
    drawn = await call(client, "roll_cthulhu_dice")
    assert len(drawn["dice"]) == 3 and drawn["seed"] is not None and drawn["game_id"] is None
    text = await refused(client, "roll_cthulhu_dice", dice=["crypt"])
    assert 'bad_arguments: `dice[0]` is "crypt" (allowed: one of "library", "museum", "tomb")' in text

    game_id, tokens = await new_dice_game(client, seed=3)
    rolled = await call(client, "roll_cthulhu_dice", game_id=game_id, token=tokens[0])
    assert rolled["ply"] == 1 and rolled["game_id"] == game_id and len(rolled["dice"]) == 3
    assert "not_your_turn" in await refused(client, "roll_cthulhu_dice", game_id=game_id, token=tokens[1])


async def test_rules_resources_search_and_prompts(client: Client):
    uris = {r.uri for r in (await client.list_resources()).resources}
    assert {"rules://cthulhu-dice", "rules://cthulhu-dice/turn", "rules://cthulhu-dice/rulings"} <= uris
    templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    assert {"rules://{game}/{section}", "game://{game_id}"} <= templates
    whole = (await client.read_resource("rules://cthulhu-dice")).contents[0].text
    assert "15" in whole and "Tentacle" in whole and "return_elder_signs" in whole
    with pytest.raises(MCPError) as err:
        await client.read_resource("rules://cthulhu-dice/chess-openings")
    assert err.value.code == -32602
    found = await call(client, "search_rules", query="bag runs out of dice", game="cthulhu-dice")
    assert found["results"][0]["uri"].startswith("rules://cthulhu-dice/rulings#")
    assert "bad_options" in await refused(client, "search_rules", query="x", game="checkers")
    prompts = {p.name for p in (await client.list_prompts()).prompts}
    assert {"play_seat", "referee", "rules_question"} <= prompts
    got = await client.get_prompt("play_seat", {"game_id": "g-1", "token": "t"})
    assert "wait_for_turn" in got.messages[0].content.text and "apply_move" in got.messages[0].content.text


async def test_game_state_resource(client: Client):
    game_id, tokens = await new_dice_game(client)
    await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
    body = (await client.read_resource(f"game://{game_id}")).contents[0].text
    assert f'"game_id": "{game_id}"' in body and '"ply": 1' in body
    with pytest.raises(MCPError):
        await client.read_resource("game://nope")


async def test_wait_for_turn_between_two_clients(server):
    async with Client(server) as ann, Client(server, mode="legacy") as bob:
        game_id, tokens = await new_dice_game(ann, seed=12)
        answers = []

        async def bob_waits():
            answers.append(await call(bob, "wait_for_turn", game_id=game_id, token=tokens[1], timeout_seconds=20))

        async with anyio.create_task_group() as tg:
            tg.start_soon(bob_waits)
            await anyio.sleep(0.1)
            assert not answers, "Bob waits while Ann plays"
            await call(ann, "apply_move", game_id=game_id, token=tokens[0], move="roll")
            state = await call(ann, "get_state", game_id=game_id)
            if state["to_move"] == [0]:
                await call(ann, "apply_move", game_id=game_id, token=tokens[0], move="retreat")
        assert answers[0]["your_turn"] and not answers[0]["timed_out"]
        quick = await call(ann, "wait_for_turn", game_id=game_id, token=tokens[0], timeout_seconds=0.05)
        assert quick["timed_out"] and not quick["your_turn"]


async def test_cthulhu_wars_adjacency_and_gather_power(client: Client):
    found = await call(client, "list_adjacent", layout="earth_5p", area="new zealand")
    assert found["area"] == "new-zealand" and found["type"] == "land"
    assert "indian-ocean" in {a["id"] for a in found["adjacent"]}
    text = await refused(client, "list_adjacent", layout="earth_3p", area="north atlantc")
    assert "unknown_area" in text and "closest: North Atlantic" in text and "rules://cthulhu-wars/maps" in text
    assert "unknown_layout" in await refused(client, "list_adjacent", layout="mars", area="europe")
    power = await call(
        client, "gather_power",
        sources={"cultists": 4, "controlled_gates": 0, "abandoned_gates": 0, "captured_cultists": 0, "highest_power": 13},
    )
    result = power["results"][0]["power"]
    assert (result["gathered"], result["total"], result["minimum_power_applied"]) == (4, 7, True)
    nine = await client.call_tool(
        "gather_power", {"sources": {"cultists": 3, "controlled_gates": 2, "abandoned_gates": 1, "captured_cultists": 1}}
    )
    assert nine.structured_content["results"][0]["power"]["total"] == 9 and "Total: 9 Power." in nine.content[0].text
    assert "bad_options" in await refused(client, "gather_power")


async def test_cthulhu_wars_tools_on_a_live_game(client: Client):
    game = await call(client, "new_game", game="cthulhu-wars", seats=3, seed=5)
    game_id = game["game_id"]
    projection = await call(client, "gather_power", game_id=game_id)
    assert len(projection["results"]) == 3
    for entry in projection["results"]:
        # at the start: 6 Acolytes and a controlled Gate each
        assert entry["power"]["gathered"] == 6 + 2
    found = await call(client, "list_adjacent", game_id=game_id, area="europe")
    assert found["layout"] == "earth_3p"
    odds = await call(client, "battle_odds", attacker_dice=3, defender_dice=0, defender_units=2)
    dist = odds["attacker_distribution"]
    assert abs(sum(d["probability"] for d in dist["kills"]) - 1) < 1e-9 and dist["left_out"] < 1e-9
    assert next(d for d in dist["kills"] if d["count"] == 3)["probability"] == pytest.approx((1 / 6) ** 3)
    assert next(d for d in dist["pains"] if d["count"] == 0)["probability"] == pytest.approx((2 / 3) ** 3)
    assert odds["odds"]["attacker"]["expected_kills"] == 0.5
    big = await client.call_tool("battle_odds", {"attacker_dice": 60, "defender_dice": 60, "attacker_units": 30})
    assert len(big.content[0].text) < 1200 and len(json.dumps(big.structured_content)) < 6000, "bounded for any dice"
    kills = big.structured_content["attacker_distribution"]["kills"]
    assert len(kills) <= 25 and sum(k["probability"] for k in kills) >= 0.999
    factions = [s["role"] for s in game["seats"]]
    state = await call(client, "get_state", game_id=game_id)
    assert "bad_options" in await refused(client, "battle_odds", game_id=game_id, area="europe")
    dice = await call(client, "battle_odds", game_id=game_id, area="south pacific", attacker=factions[1], defender=factions[0])
    assert dice["area"] == "south-pacific" and state["ply"] == 0


async def test_render_board_gives_a_png_and_svg(client: Client):
    import base64

    from mcp.types import ImageContent

    game_id, tokens = await new_dice_game(client, seed=4)
    await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
    result = await client.call_tool("render_board", {"game_id": game_id, "format": "both"})
    assert not result.is_error
    image = next(c for c in result.content if isinstance(c, ImageContent))
    assert image.mime_type == "image/png" and base64.b64decode(image.data).startswith(b"\x89PNG\r\n\x1a\n")
    resource = result.content[-1].resource
    assert resource.mime_type == "image/svg+xml" and str(resource.uri) == result.structured_content["svg_uri"]
    svg = resource.text
    assert svg.startswith("<svg") and "Ann" in svg and result.structured_content["ply"] == 1
    assert not any(c.type == "text" and "<svg" in c.text for c in result.content), "SVG never comes as plain text"
    only_png = await client.call_tool("render_board", {"game_id": game_id})
    assert only_png.structured_content["svg_uri"] is None and [c.type for c in only_png.content] == ["text", "image"]
    assert "bad_options" in await refused(client, "render_board", game_id=game_id, overlays=["lines"])


async def test_render_board_draws_the_cthulhu_wars_map(client: Client):
    game = await call(client, "new_game", game="cthulhu-wars", seats=4, seed=1)
    result = await client.call_tool("render_board", {"game_id": game["game_id"], "format": "both"})
    assert not result.is_error
    svg = result.content[-1].resource.text
    for text in (">North Atlantic<", ">Europe<", "Power 8", "Great Cthulhu", ">6 Acolytes<", ">Western hemisphere<"):
        assert text in svg, text
    assert svg.count("<polygon") >= 17, "a region (one or more polygons) per area of the 4-player map"
