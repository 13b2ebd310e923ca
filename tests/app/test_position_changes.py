"""A Cthulhu Wars seat is told the position whole once, then only what changed since it last saw it, and its legal
moves in a compact listing that names every one of them (issue 33).

Driven through the real MCP client with random legal moves for all four seats. One seat's picture of the position is
kept as a model keeps it: the whole position when it is shown, then each changed line told over the old one ("asia:
empty" clears an Area, "No longer: ..." a note). Whenever the seat is told the position, its picture must be the
whole position the engine describes for it at that moment (its phase line aside, which is always told)."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.app.text import CHANGED, UNCHANGED
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .helpers import call

pytestmark = pytest.mark.anyio

#: A faction's spellbooks inside its line of the whole position.
BOOKS = re.compile(r"; (spellbooks \d+/6: [^;]*?)(?=;|\.$)")


@pytest.fixture
def sessions(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    yield GameSessions(store)
    store.close()


def key_of(line: str) -> str:
    """What a line of the position is about: an Area, a faction, a faction's spellbooks, else the line itself."""
    books = re.match(r"^(\S+) spellbooks \d", line)
    if books:
        return f"{books.group(1)} spellbooks"
    return line.split(": ", 1)[0] if ": " in line else line


def whole_picture(lines: list[str]) -> dict[str, str]:
    """The whole position's lines (its phase line first) by what each is about, a faction's line told as its
    standing and, apart, its spellbooks (as changes tell them)."""
    picture = {}
    for line in lines[1:]:
        books = BOOKS.search(line)
        if books and re.match(r"^\S+: \d+ Power, ", line):
            faction = line.split(":", 1)[0]
            picture[faction] = line.replace(books.group(0), "", 1)
            picture[f"{faction} spellbooks"] = f"{faction} {books.group(1)}."
        else:
            picture[key_of(line)] = line
    return picture


def told_over(picture: dict[str, str], lines: list[str]) -> None:
    """``picture`` with the changed lines told over it."""
    for line in lines:
        if line.startswith(("Play goes ", "Ritual of Annihilation ")):  # parts of the phase line, not compared
            continue
        if line.startswith("No longer: "):
            picture.pop(key_of(line.removeprefix("No longer: ")), None)
        elif line.endswith(": empty"):
            picture.pop(key_of(line), None)
        else:
            picture[key_of(line)] = line


def expand(line: str) -> set[str]:
    """The moves one line of a listing stands for: ``title: a; b (what the title adds)``, each word ``x/y`` any one of
    its alternatives."""
    found = set()
    for part in (line.split(": ", 1)[1] if ": " in line else line).split("; "):
        pieces = re.split(r"([ >])", re.sub(r" \([^)]*\)$", "", part.strip()))
        choices = [p.split("/") if i % 2 == 0 else [p] for i, p in enumerate(pieces)]  # words, and the spaces and '>'
        found.update("".join(combo) for combo in itertools.product(*choices))
    return found


def listed_moves(text: str) -> set[str] | None:
    """Every move the text's listing names, or None when the listing was cut short (legal_moves gives the rest)."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("Your moves"))
    inline = lines[at].startswith("Your moves: ")  # a few moves on the heading's own line
    body = lines[at].removeprefix("Your moves: ").removesuffix(".").split(", ") if inline else lines[at + 1:]
    if any(line.startswith("… ") for line in body):
        return None
    return set().union(*(expand(line) for line in body if not line.endswith(":")))  # "Title:" heads the lines below it


def position_lines(text: str) -> list[str]:
    """The position lines of a wait_for_turn answer on the seat's turn: from its phase line to its moves."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Your turn,")) + 1
    end = next((i for i, line in enumerate(lines) if line.startswith("Your moves")), len(lines))
    return lines[start:end]


async def test_the_changes_told_add_up_to_the_whole_position_the_seat_would_see(sessions):
    server = build_server(sessions)
    async with Client(server) as client:
        made = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=12)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        live = sessions.get(game_id)
        watcher, picture, pick = 1, None, random.Random(4)
        faction = live.state.seats[watcher].faction
        told = {"whole": 0, "changes": 0, "status": 0, "listed": 0}
        for _ in range(700):
            state = await call(client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            seat = state["to_move"][0]
            answer = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": tokens[seat], "timeout_seconds": 0})
            text = answer.content[0].text
            if seat == watcher and ": window " not in text:
                lines = position_lines(text)
                if CHANGED in text or UNCHANGED in text:
                    assert picture is not None, "changes are told only to a seat that saw the position"
                    assert lines[1].startswith(f"{faction}: ") and "spellbooks" not in lines[1], lines[1]
                    told_over(picture, lines[1:2] + lines[3:])
                    told["changes"] += 1
                else:
                    picture = whole_picture(lines)
                    told["whole"] += 1
                whole = live.engine.describe(live.state, watcher).split("\n")
                assert picture == whole_picture(whole), text
            moves = [m for g in answer.structured_content["legal"] for m in g["moves"]]
            assert listed_moves(text) in (None, set(moves)), text
            told["listed"] += listed_moves(text) is not None
            played = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[seat], "move": pick.choice(moves)})
            assert not played.is_error, played.content[0].text
            if played.structured_content["legal"]:  # its decision again: the listing in the answer names its moves
                again = {m for g in played.structured_content["legal"] for m in g["moves"]}
                assert listed_moves(played.content[0].text) in (None, again), played.content[0].text
            if seat == watcher and picture is not None:
                own = [line for line in played.content[0].text.split("\n") if line.startswith(f"{faction}: ")]
                told_over(picture, own)  # the seat's own standing after its move, when it changed
                told["status"] += bool(own)
        assert told["whole"] >= 1 and told["changes"] >= 10 and told["status"] >= 5 and told["listed"] >= 100, told


async def test_get_state_shows_the_whole_position_and_later_changes_count_from_it(sessions):
    server = build_server(sessions)
    async with Client(server) as client:
        made = await call(client, "new_game", game="cthulhu-wars", seats=4, seed=3)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        live = sessions.get(game_id)
        seat = live.engine.to_move(live.state)[0]
        shown = (await client.call_tool("get_state", {"game_id": game_id, "token": tokens[seat]})).content[0].text
        assert live.engine.describe(live.state, seat) in shown
        move = (await call(client, "legal_moves", game_id=game_id, token=tokens[seat]))["groups"][0]["moves"][0]
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move, dry_run=True)
        again = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": tokens[seat], "timeout_seconds": 0})
        text = again.content[0].text
        assert UNCHANGED in text and CHANGED not in text, "nothing moved since get_state showed it (a dry run plays nothing)"
        assert len(text) < len(shown)
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move)
        if seat in live.engine.to_move(live.state):  # its turn goes on: told what changed since get_state
            again = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": tokens[seat], "timeout_seconds": 0})
            assert CHANGED in again.content[0].text or UNCHANGED in again.content[0].text


async def test_a_turn_ended_says_who_is_next_once(sessions):
    server = build_server(sessions)
    async with Client(server) as client:
        made = await call(client, "new_game", game="cthulhu-wars", seats=4, seed=3)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for _ in range(200):
            seat = (await call(client, "get_state", game_id=game_id))["to_move"][0]
            legal = (await call(client, "legal_moves", game_id=game_id, token=tokens[seat]))["groups"]
            moves = [m for g in legal for m in g["moves"]]
            wanted = ("done", "recruit ", "pass", "")  # end a turn after one action; any move outside the Action phase
            move = next(m for start in wanted for m in moves if m.startswith(start))
            text = (await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[seat], "move": move})).content[0].text
            if move == "done" and "Nothing is asked of you now:" in text:
                assert "Next:" not in text and "'s turn (" in text
                return
        raise AssertionError("no turn ended with the seat asked for nothing")
