"""The MCP surface sized for a model (issue 8), through the real SDK client: compact answers, whole turns
in one call, bounded answers, clear refusals, schemas every client accepts, readable pictures."""

from __future__ import annotations

import json
import random

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.types import PromptReference, ResourceTemplateReference

from tabletop.app import game_tools
from tabletop.app.server import build_server
from tabletop.core.errors import GameError, MalformedMove
from tabletop.games import ENGINES
from tabletop.games.cthulhu_wars import ENGINE as CTHULHU_WARS
from tabletop.games.cthulhu_wars.picture_layout import boxes_overlap, map_places
from tabletop.games.game_of_war import ENGINE as GAME_OF_WAR
from tabletop.games.game_of_war.rules import attack_options
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def new_game(client: Client, game: str, **args) -> tuple[str, list[str], dict]:
    made = await call(client, "new_game", game=game, **args)
    return made["game_id"], [s["token"] for s in made["seats"]], made


async def new_wars_game(client: Client, **args) -> tuple[str, list[str], int]:
    """A Cthulhu Wars game past the First Player's choice of direction: the seat to act and its token."""
    game_id, tokens, made = await new_game(client, "cthulhu-wars", **args)
    first = made["to_move"][0]
    played = await call(client, "apply_move", game_id=game_id, token=tokens[first], move="direction clockwise")
    return game_id, tokens, played["to_move"][0]


def text_of(result) -> str:
    return result.content[0].text


# ---- content design ----------------------------------------------------------------------------------
async def test_each_answer_is_one_text_and_json_is_added_only_on_request(tmp_path):
    for json_content in (False, True):
        server = build_server(GameSessions(GameStore(tmp_path / f"{json_content}.sqlite3")), json_content=json_content)
        async with Client(server) as client:
            made = await client.call_tool("new_game", {"game": "cthulhu-dice", "players": ["Ann", "Bob"], "seed": 3})
            game_id, tokens = made.structured_content["game_id"], [s["token"] for s in made.structured_content["seats"]]
            result = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[0], "move": "roll"})
            texts = [c.text for c in result.content if c.type == "text"]
            if json_content:
                assert len(texts) == 2 and json.loads(texts[1]) == result.structured_content
            else:
                assert len(texts) == 1 and not texts[0].startswith("{")
            assert texts[0].startswith("Ann played 'roll'")


async def test_get_state_is_brief_by_default_and_full_on_request(client: Client):
    game_id, tokens, _ = await new_game(client, "game-of-war", players=["Ann", "Bob"], options={"opening": "default"}, seed=5)
    mover = (await call(client, "get_state", game_id=game_id))["to_move"][0]
    brief = await client.call_tool("get_state", {"game_id": game_id, "token": tokens[mover]})
    text = text_of(brief)
    assert text.count("abcdefghijklmnopqrstuvwxy") == 1, "the board is drawn once, as a compact grid"
    assert brief.structured_content["view"] is None and brief.structured_content["legal"]
    assert "Your moves" in text and len(text) < 3000
    full = await call(client, "get_state", game_id=game_id, token=tokens[mover], detail="full")
    assert len(full["view"]["units"]) == 34
    wars_id, wars_tokens, _ = await new_game(client, "cthulhu-wars", seats=4, seed=2)
    text = text_of(await client.call_tool("get_state", {"game_id": wars_id}))
    assert "south-pacific: Gate of great-cthulhu; great-cthulhu 6 acolyte" in text, "one line per area"
    assert sum(line.startswith(("black-goat:", "crawling-chaos:", "great-cthulhu:", "yellow-sign:")) for line in text.split("\n")) == 4
    assert len(text) < 1200


async def test_legal_moves_are_notation_with_alternatives_factored(client: Client):
    game_id, tokens, _ = await new_game(client, "game-of-war", options={"opening": "default"}, seed=5)
    mover = (await call(client, "get_state", game_id=game_id))["to_move"][0]
    brief = await client.call_tool("legal_moves", {"game_id": game_id, "token": tokens[mover]})
    flat = [m for g in brief.structured_content["groups"] for m in g["moves"]]
    assert all(g["options"] is None for g in brief.structured_content["groups"])
    # War marks the moves that cut the mover's own line on lines of their own, which are not lists of alternatives
    listing = [line for line in text_of(brief).split("\n") if not line.startswith(("Cuts your own line:", "Ends offline itself:"))]
    assert len("\n".join(listing)) < 0.7 * len("\n".join(flat)), "factored alternatives are shorter than the list"
    for line in listing[1:]:
        if "/" in line and "-" in line:
            stem, rest = line.split("-", 1)
            assert f"{stem}-{rest.split('/')[0]}" in flat
    full = await call(client, "legal_moves", game_id=game_id, token=tokens[mover], detail="full")
    assert all(o["action"] and o["summary"] for g in full["groups"] for o in g["options"])


# ---- fewer calls --------------------------------------------------------------------------------------
def war_position_with_an_attack(seed: int = 5) -> list[list[str]]:
    """Turns (each a list of moves in notation) from the default opening to a position offering an attack."""
    state = GAME_OF_WAR.new_game(GAME_OF_WAR.read_options({"opening": "default"}), 2, seed)
    pick, turns, turn = random.Random(1), [], []
    while turn or not attack_options(state):
        side = GAME_OF_WAR.to_move(state)[0]
        action = pick.choice([a for a in GAME_OF_WAR.legal_actions(state, side) if a.kind != "attack"])
        turn.append(GAME_OF_WAR.notation(action))
        state, _ = GAME_OF_WAR.apply(state, side, action)
        if action.kind == "end" or GAME_OF_WAR.to_move(state)[0] != side:
            turns.append(turn)
            turn = []
    assert not turn
    return turns


async def test_a_whole_war_turn_is_one_call_and_the_attack_focus_lists_attacks(client: Client):
    game_id, tokens, _ = await new_game(client, "game-of-war", options={"opening": "default"}, seed=5)
    for moves in war_position_with_an_attack():
        mover = (await call(client, "get_state", game_id=game_id))["to_move"][0]
        result = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[mover], "moves": moves})
        assert not result.is_error, text_of(result)
        assert [p["move"].split()[-1] for p in result.structured_content["played"]] == [m.split()[-1] for m in moves]
        assert len(text_of(result)) < 4000
    mover = (await call(client, "get_state", game_id=game_id))["to_move"][0]
    attacks = await client.call_tool("legal_moves", {"game_id": game_id, "token": tokens[mover], "focus": "attack"})
    assert attacks.structured_content["count"] >= 1
    assert all(m.startswith("attack ") for g in attacks.structured_content["groups"] for m in g["moves"])
    assert ": capture)" in text_of(attacks) or ": retreat)" in text_of(attacks) or ": repelled)" in text_of(attacks)


async def test_a_sequence_is_all_or_nothing_and_a_refusal_names_the_move(client: Client):
    game_id, tokens, _ = await new_game(client, "game-of-war", options={"opening": "default"}, seed=5)
    mover = (await call(client, "get_state", game_id=game_id))["to_move"][0]
    before = await call(client, "get_state", game_id=game_id, token=tokens[mover], detail="full")
    first = before["legal"][0]["moves"][0]
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[mover], moves=[first, first, "end"])
    assert "Move 2 of 3" in text and "nothing was played" in text and "Rule: rules://game-of-war/" in text
    assert await call(client, "get_state", game_id=game_id, token=tokens[mover], detail="full") == before
    log = await call(client, "history", game_id=game_id)
    assert log["moves"] == []


async def test_a_cthulhu_wars_move_of_several_units_is_one_call(client: Client):
    game_id, tokens, seat = await new_wars_game(client, seats=4, seed=2)
    waited = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": tokens[seat], "timeout_seconds": 0})
    moves = [m for g in waited.structured_content["legal"] for m in g["moves"] if m.startswith("move ")]
    targets = sorted({m.split(">")[1] for m in moves})
    source = moves[0].split(">")[0]
    sequence = [f"{source}>{targets[0]}", f"{source}>{targets[1]}", f"{source}>{targets[0]}", "done"]
    result = await call(client, "apply_move", game_id=game_id, token=tokens[seat], moves=sequence)
    assert len(result["played"]) == 4 and result["played"][-1]["move"] == "done"
    assert len(text_of(waited)) < 3000


async def test_a_move_involving_chance_must_end_its_sequence(client: Client):
    game_id, tokens, _ = await new_game(client, "cthulhu-dice", players=["Ann", "Bob"], seed=3)
    before = await call(client, "get_state", game_id=game_id, detail="full")
    for dry_run in (False, True):
        text = await refused(client, "apply_move", game_id=game_id, token=tokens[0], moves=["roll", "retreat"], dry_run=dry_run)
        assert "involves chance" in text and "Nothing was played" in text
    assert await call(client, "get_state", game_id=game_id, detail="full") == before
    assert (await call(client, "apply_move", game_id=game_id, token=tokens[0], moves=["roll"]))["played"][0]["ply"] == 1


# ---- bounded answers ----------------------------------------------------------------------------------
async def test_history_pages_and_each_page_is_bounded(client: Client):
    game_id, tokens, _ = await new_game(client, "cthulhu-dice", players=["Ann", "Bob"], options={"goal": 60}, seed=9)
    for _ in range(200):
        state = await call(client, "get_state", game_id=game_id, detail="full")
        if state["ply"] >= 45:
            break
        seat = state["to_move"][0]
        move = "retreat" if state["view"]["phase"] == "decide" and state["view"]["stash"] >= 2 else "roll"
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move)
    page = await client.call_tool("history", {"game_id": game_id})
    assert len(page.structured_content["moves"]) == 20 and page.structured_content["next_cursor"] == 20
    assert "history with after=20" in text_of(page) and len(text_of(page)) < 20 * 300 + 200
    last = await call(client, "history", game_id=game_id, after=40, limit=200)
    assert last["moves"][0]["ply"] == 41 and last["next_cursor"] is None


async def test_an_overlong_or_odd_move_is_echoed_briefly(client: Client):
    game_id, tokens, _ = await new_game(client, "cthulhu-wars", seats=3, seed=1)
    seat = (await call(client, "get_state", game_id=game_id))["to_move"][0]
    for move in ("z" * 199, "move " + "acolyte " * 24, "offer " + "x=1," * 48):
        text = await refused(client, "apply_move", game_id=game_id, token=tokens[seat], move=move[:200])
        assert text.removeprefix("Error executing tool apply_move: ").split(":")[0] in {
            "malformed_move", "illegal_move", "unknown_area"
        }, text
        assert "z" * 81 not in text and "acolyte " * 11 not in text
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[seat], actions=[{"kind": "move", "unit": "u" * 5000}])
    assert "malformed_move" in text and "u" * 100 not in text and len(text) < 2000


async def test_wait_for_turn_stays_under_client_timeouts_and_reports_progress(client: Client, monkeypatch):
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert tools["wait_for_turn"].input_schema["properties"]["timeout_seconds"]["maximum"] < 60
    monkeypatch.setattr(game_tools, "PROGRESS_EVERY", 0.05)
    game_id, tokens, _ = await new_game(client, "cthulhu-dice", seed=1)
    seen = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    result = await client.call_tool(
        "wait_for_turn", {"game_id": game_id, "token": tokens[1], "timeout_seconds": 0.3}, progress_callback=progress
    )
    assert result.structured_content["timed_out"] is True
    assert len(seen) >= 3 and all(total == 0.3 for _, total, _ in seen) and seen[0][2]


# ---- clear answers -------------------------------------------------------------------------------------
async def test_an_illegal_cthulhu_wars_move_says_what_fails_and_lists_legal_moves(client: Client):
    game_id, tokens, seat = await new_wars_game(client, seats=4, seed=1)
    state = await call(client, "get_state", game_id=game_id, token=tokens[seat])
    source = state["legal"][[g["title"] for g in state["legal"]].index("Move (1 Power per unit)")]["moves"][0].split(">")[0]
    unit, area = source.split()[1], source.split()[2]
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[seat], move=f"move {unit} {area}>{area}")
    assert "cannot move to" in text and "it can reach" in text
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[seat], move="ritual")
    assert "no decision" in text
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[seat], move="fly away")
    assert "No action is called 'fly'" in text and f"{source}>" in text, "legal instead lists moves, not action kinds"
    assert "Legal instead: abandon" in text or "Legal instead: move" in text


@pytest.mark.parametrize("move", ["offer x", "offer a=1=2", "offer great-cthulhu=x", "direction sideways", "assign maim acolyte"])
async def test_notation_that_once_crashed_is_a_clean_malformed_move(client: Client, move):
    game_id, tokens, made = await new_game(client, "cthulhu-wars", seats=3, seed=1)
    text = await refused(client, "apply_move", game_id=game_id, token=tokens[made["to_move"][0]], move=move)
    assert text.startswith("malformed_move:") or "malformed_move:" in text.split("\n")[0]


def positions(engine_name: str):
    """A few positions of each game: the start and some random plies in."""
    engine = ENGINES[engine_name]
    options = {"opening": "default"} if engine_name == "game-of-war" else {}
    found = []
    for seed in range(3):
        state = engine.new_game(engine.read_options(options), 2 if engine_name != "cthulhu-wars" else 4, seed)
        pick = random.Random(seed)
        for _ in range(seed * 15):
            to_move = engine.to_move(state)
            if not to_move:
                break
            state, _ = engine.apply(state, to_move[0], pick.choice(engine.legal_actions(state, to_move[0])))
        found.append(state)
    return engine, found


@pytest.mark.parametrize("engine_name", sorted(ENGINES))
@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=60), st.from_regex(r"[a-z\- >=,]{0,40}", fullmatch=True)))
def test_every_parser_reads_any_string_or_refuses_it_cleanly(engine_name, text):
    engine, states = POSITIONS[engine_name]
    for state in states:
        for seat in engine.to_move(state)[:1]:
            try:
                engine.read_move(text, state, seat)
            except MalformedMove:
                pass
            except GameError as err:
                raise AssertionError(f"{engine_name}: {text!r} raised {err.kind}, not malformed_move") from err


POSITIONS = {name: positions(name) for name in ENGINES}


@pytest.mark.parametrize("engine_name", sorted(ENGINES))
@settings(max_examples=40, deadline=None)
@given(text=st.text(min_size=1, max_size=200))
def test_any_string_through_apply_move_gets_a_typed_refusal_and_changes_nothing(engine_name, text):
    async def check() -> None:
        sessions = GameSessions(GameStore(":memory:"))
        async with Client(build_server(sessions)) as client:
            game_id, tokens, made = await new_game(client, engine_name, seats=2 if engine_name != "cthulhu-wars" else 3, seed=1)
            before = await call(client, "get_state", game_id=game_id, detail="full")
            result = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[made["to_move"][0]], "move": text})
            if result.is_error:
                kind = text_of(result).removeprefix("Error executing tool apply_move: ").split(":")[0]
                assert kind in {"malformed_move", "illegal_move", "unknown_area"}, text_of(result)
                assert await call(client, "get_state", game_id=game_id, detail="full") == before

    anyio.run(check)


def test_the_phase_label_names_the_first_player_phase():
    state = CTHULHU_WARS.new_game(CTHULHU_WARS.read_options({}), 3, 4)
    pick = random.Random(0)
    while not (state.pending and state.pending[0].kind in ("direction", "first-player")) or state.round == 1:
        seat = CTHULHU_WARS.to_move(state)[0]
        state, _ = CTHULHU_WARS.apply(state, seat, pick.choice(CTHULHU_WARS.legal_actions(state, seat)))
        assert CTHULHU_WARS.outcome(state) is None
    first_line = CTHULHU_WARS.describe(state, None).split("\n")[0]
    assert "First Player phase" in first_line and "Action phase" not in first_line


async def test_calculators_and_lookups_cite_the_rules_they_rest_on(client: Client):
    wars_id, _, _ = await new_game(client, "cthulhu-wars", seats=3, seed=1)
    war_id, _, _ = await new_game(client, "game-of-war", options={"opening": "default"}, seed=1)
    answers = {
        "list_adjacent": {"area": "europe"},
        "cthulhu_dice_odds": {},
        "cthulhu_dice_advice": {"position": {"scores": [3, 5], "seat": 0}},
        "gather_power": {"game_id": wars_id},
        "battle_odds": {"attacker_dice": 4, "defender_dice": 2},
        "network_status": {"game_id": war_id},
        "combat_preview": {"game_id": war_id, "square": "o12"},
    }
    for tool, args in answers.items():
        result = await client.call_tool(tool, args)
        assert not result.is_error and "rules://" in text_of(result), tool


async def test_search_rules_says_plainly_when_nothing_matches(client: Client):
    result = await call(client, "search_rules", query="Castling combat")
    assert result["results"] == [] and "castling" in result["note"] and "Nothing in the rules matches" in result["note"]
    found = await call(client, "search_rules", query="what happens with three tentacles")
    assert found["results"] and found["note"] is None and not found["results"][0]["passage"].startswith("#")


# ---- schemas, prompts, completions ----------------------------------------------------------------------
async def test_prompt_arguments_are_described_and_completions_are_offered(client: Client):
    for prompt in (await client.list_prompts()).prompts:
        assert prompt.arguments and all(a.description for a in prompt.arguments), prompt.name
    game_id, _, _ = await new_game(client, "cthulhu-dice", seed=1)
    ids = await client.complete(PromptReference(name="play_seat"), {"name": "game_id", "value": "cthulhu-d"})
    assert game_id in ids.completion.values
    games = await client.complete(PromptReference(name="rules_question"), {"name": "game", "value": "cth"})
    assert games.completion.values == ["cthulhu-dice", "cthulhu-wars"]
    sections = await client.complete(
        ResourceTemplateReference(uri="rules://{game}/{section}"), {"name": "section", "value": "r"}, {"game": "cthulhu-dice"}
    )
    assert sections.completion.values == ["rulings"]


# ---- pictures ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options, seats",
    [({}, 3), ({}, 4), ({"alternate_layout": True}, 4), ({}, 5), ({"map": "dreamlands"}, 3), ({"map": "dreamlands"}, 4),
     ({"map": "dreamlands", "alternate_layout": True}, 4), ({"map": "dreamlands"}, 5)],
)
def test_no_area_of_any_layout_is_drawn_over_another(options, seats):
    state = CTHULHU_WARS.new_game(CTHULHU_WARS.read_options(options), seats, 1)
    cards = {area: place.card for area, place in map_places(state.layout_name).areas.items()}
    for a in cards:
        for b in cards:
            if a < b:
                assert not boxes_overlap(cards[a], cards[b]), (state.layout_name, a, b)


async def test_pictures_use_full_names_a_key_and_the_players_names(client: Client):
    wars_id, _, _ = await new_game(client, "cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], options={"alternate_layout": True}, seed=1)
    svg = (await client.call_tool("render_board", {"game_id": wars_id, "format": "svg"})).content[-1].resource.text
    for text in ("Scandinavia", "Europe", "South Atlantic", "Key", "6 Acolytes", "Abandoned Gate", "(Ann)", "First Player phase"):
        assert text in svg, text
    war_id, _, _ = await new_game(client, "game-of-war", players=["Ann", "Bob"], options={"opening": "default"}, seed=1)
    result = await client.call_tool("render_board", {"game_id": war_id, "format": "svg", "overlays": ["lines"]})
    svg = result.content[-1].resource.text
    assert "lines of communication" in svg and "North (Ann)" in svg and "offline" in svg
    dice_id, tokens, _ = await new_game(client, "cthulhu-dice", players=["Ann", "Bob"], seed=1)
    played = await client.call_tool("apply_move", {"game_id": dice_id, "token": tokens[0], "move": "roll"})
    assert text_of(played).startswith("Ann played") and "seat 0" not in text_of(played)
    svg = (await client.call_tool("render_board", {"game_id": dice_id, "format": "svg"})).content[-1].resource.text
    assert "Ann" in svg and "seat 0" not in svg


async def test_a_refused_move_is_logged_once_briefly(client: Client, caplog):
    import logging

    game_id, tokens, made = await new_game(client, "cthulhu-wars", seats=5, seed=3)
    with caplog.at_level(logging.DEBUG):
        await refused(client, "apply_move", game_id=game_id, token=tokens[made["to_move"][0]], move="fly " + "x" * 190)
    ours = [r for r in caplog.records if r.name == "tabletop.refusals"]
    sdk = [r for r in caplog.records if r.name.startswith("mcp") and "failed" in r.getMessage()]
    assert len(ours) == 1 and sdk == []
    assert len(ours[0].getMessage()) <= len("apply_move refused: ") + 200
