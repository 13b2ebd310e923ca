"""Standing answers over MCP (rules_text ``cthulhu-wars/out-of-turn``): a seat tells the server which out-of-turn
windows to pass for it; the server passes exactly those, says so in the seat's next digest, and still asks the
rest. Through the real client against the real server and a real SQLite file."""

from __future__ import annotations

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .helpers import call, refused

pytestmark = pytest.mark.anyio

GC = "great-cthulhu"


async def doom_phase_with_an_elder_sign(client: Client) -> tuple[str, list[str], int]:
    """A 4-player game in round 2's Doom phase: Great Cthulhu (First Player) holds an Elder Sign and has declined
    its Ritual; the other three have still to decide (each decision opens a window for Great Cthulhu)."""
    game = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=5)
    game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    gc = next(s["seat"] for s in game["seats"] if s["role"] == "Great Cthulhu")
    await call(client, "apply_move", game_id=game_id, token=tokens[gc], move="direction clockwise")
    state = await call(client, "get_state", game_id=game_id, detail="full")
    while state["view"]["round"] == 1:
        await call(client, "apply_move", game_id=game_id, token=tokens[state["to_move"][0]], move="pass")
        state = await call(client, "get_state", game_id=game_id, detail="full")
    for move in (f"first-player {GC}", "direction clockwise", "spellbook dreams", "no-ritual"):
        await call(client, "apply_move", game_id=game_id, token=tokens[gc], move=move)
    return game_id, tokens, gc


async def next_decider(client: Client, game_id: str, gc: int) -> int:
    state = await call(client, "get_state", game_id=game_id)
    assert gc not in state["to_move"]
    return state["to_move"][0]


async def test_a_covered_window_is_passed_for_the_seat_and_told_to_it_later(server):
    async with Client(server) as client:
        game_id, tokens, gc = await doom_phase_with_an_elder_sign(client)
        set_ = await call(client, "standing_answers", game_id=game_id, token=tokens[gc], answers={"doom_windows": "pass"})
        assert set_["answers"]["doom_windows"] == "pass" and "doom_windows" in set_["fields"]["properties"]
        other = await next_decider(client, game_id, gc)
        played = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[other], "move": "no-ritual"})
        assert not played.is_error
        assert gc not in played.structured_content["to_move"], "Great Cthulhu's window was passed for it"
        log = await call(client, "history", game_id=game_id, after=0, limit=200)
        assert log["moves"][-1]["seat"] == gc and log["moves"][-1]["move"] == "done"
        waited = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": tokens[gc], "timeout_seconds": 0})
        assert "Your standing answers made 1 decision for you (done)" in waited.content[0].text


async def test_changed_answers_take_effect_and_uncovered_windows_are_still_asked(server):
    async with Client(server) as client:
        game_id, tokens, gc = await doom_phase_with_an_elder_sign(client)
        # action windows passed, Doom-phase windows asked: this Doom-phase window is still Great Cthulhu's to answer
        await call(client, "standing_answers", game_id=game_id, token=tokens[gc], answers={"windows": "pass"})
        other = await next_decider(client, game_id, gc)
        await call(client, "apply_move", game_id=game_id, token=tokens[other], move="no-ritual")
        asked = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": tokens[gc], "timeout_seconds": 0})
        text = asked.content[0].text
        assert asked.structured_content["your_turn"] and "window after" in text and "Doom-phase decision" in text
        assert len(text) < 900 and "north-atlantic:" not in text, "a window is told briefly, not as the whole position"
        # changing the answers while being asked answers at once
        await call(client, "standing_answers", game_id=game_id, token=tokens[gc], answers={"doom_windows": "pass"})
        assert gc not in (await call(client, "get_state", game_id=game_id))["to_move"]
        # cleared: asked again at the next window
        cleared = await call(client, "standing_answers", game_id=game_id, token=tokens[gc], answers={})
        assert cleared["answers"] is None
        other = await next_decider(client, game_id, gc)
        await call(client, "apply_move", game_id=game_id, token=tokens[other], move="no-ritual")
        assert gc in (await call(client, "get_state", game_id=game_id))["to_move"]


async def test_standing_answers_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    async with Client(build_server(GameSessions(store))) as client:
        game_id, tokens, gc = await doom_phase_with_an_elder_sign(client)
        await call(client, "standing_answers", game_id=game_id, token=tokens[gc], answers={"doom_windows": "pass"})
    store.close()
    store = GameStore(path)
    async with Client(build_server(GameSessions(store))) as client:
        shown = await call(client, "standing_answers", game_id=game_id, token=tokens[gc])
        assert shown["answers"]["doom_windows"] == "pass"
        other = await next_decider(client, game_id, gc)
        await call(client, "apply_move", game_id=game_id, token=tokens[other], move="no-ritual")
        assert gc not in (await call(client, "get_state", game_id=game_id))["to_move"]
    store.close()


async def test_bad_answers_are_refused_and_change_nothing(server):
    async with Client(server) as client:
        game_id, tokens, gc = await doom_phase_with_an_elder_sign(client)
        await call(client, "standing_answers", game_id=game_id, token=tokens[gc], answers={"doom_windows": "pass"})
        for bad in ({"windows": "sometimes"}, {"pass_everything": True}, {"always_ask": ["ritual"]}, {"windows": 3}):
            text = await refused(client, "standing_answers", game_id=game_id, token=tokens[gc], answers=bad)
            assert "bad_options" in text and "windows" in text, text
        assert (await call(client, "standing_answers", game_id=game_id, token=tokens[gc]))["answers"]["doom_windows"] == "pass"
        war = await call(client, "new_game", game="game-of-war", players=["Ann", "Bob"])
        text = await refused(client, "standing_answers", game_id=war["game_id"], token=war["seats"][0]["token"], answers={})
        assert "bad_options" in text and "no standing answers" in text
        assert "bad_token" in await refused(client, "standing_answers", game_id=game_id, token="nope", answers={})


async def test_the_defaults_answer_nothing(server):
    """Answers set to the defaults: every window the rules give is asked, as without answers."""
    async with Client(server) as client:
        game_id, tokens, gc = await doom_phase_with_an_elder_sign(client)
        await call(client, "standing_answers", game_id=game_id, token=tokens[gc],
                   answers={"windows": "ask", "doom_windows": "ask", "reveal": "any-window"})
        other = await next_decider(client, game_id, gc)
        await call(client, "apply_move", game_id=game_id, token=tokens[other], move="no-ritual")
        assert gc in (await call(client, "get_state", game_id=game_id))["to_move"]
