"""Hidden Elder Signs through the tools a model calls (issue 37's hidden-information check with several holders):
in a Cthulhu Wars game where every faction holds Elder Signs, what get_state, legal_moves and history tell a seat
(text and structured content, brief and full) does not depend on the values the other factions hold, and each seat
is told its own (rules_text cthulhu-wars/doom: Elder Signs are kept hidden)."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

pytestmark = pytest.mark.anyio

#: Two assignments of the same sizes to four factions, every one holding some.
FIRST = [[1, 2], [3], [1, 1, 2], [2, 3]]
SECOND = [[3, 3], [1], [2, 3, 1], [1, 1]]


async def seen(client: Client, game_id: str, token: str) -> list:
    """Everything the read-only tools tell the seat with ``token``, in both levels of detail."""
    out = []
    for tool, args in (("get_state", {"detail": "brief"}), ("get_state", {"detail": "full"}),
                       ("legal_moves", {"detail": "full"}), ("history", {})):
        result = await client.call_tool(tool, {"game_id": game_id, "token": token, **args})
        assert not result.is_error, result.content[0].text
        out.append((tool, result.content[0].text, result.structured_content))
    return out


def hold(live, signs: list[list[int]], keep: int) -> None:
    for seat, (faction, values) in enumerate(zip(live.state.seats, signs)):
        if seat != keep:
            faction.elder_signs = list(values)


@pytest.mark.parametrize("seed", [11, 12])
async def test_no_tool_tells_a_seat_the_values_of_other_factions_elder_signs(tmp_path, seed):
    store = GameStore(tmp_path / "games.sqlite3")
    sessions = GameSessions(store)
    live, tokens = sessions.create("cthulhu-wars", None, 4, seed=seed)
    choices = random.Random(seed)
    for _ in range(30):  # some random play first, so that the log and the position are not the opening's
        live = sessions.get(live.id)
        seat = choices.choice(live.engine.to_move(live.state))
        sessions.play(live.id, tokens[seat], live.engine.notation(choices.choice(live.engine.legal_actions(live.state, seat))))
    live = sessions.get(live.id)
    try:
        async with Client(build_server(sessions)) as client:
            for viewer in range(4):
                own = [[2], [1, 3], [3, 2], [1]][viewer]
                live.state.seats[viewer].elder_signs = list(own)
                await seen(client, live.id, tokens[viewer])  # anything told once ("since your last move") is told now
                hold(live, FIRST, keep=viewer)
                one = await seen(client, live.id, tokens[viewer])
                hold(live, SECOND, keep=viewer)
                two = await seen(client, live.id, tokens[viewer])
                assert one == two, f"seat {viewer} is told something of another faction's Elder Signs"
                texts = " ".join(text for _, text, _ in one)
                assert f"Elder Signs {own}" in texts, "a seat is told its own values (the check looks for the right words)"
    finally:
        store.close()
