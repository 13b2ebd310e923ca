"""The protocol as clients speak it now, through the SDK's own client: a 2025-11-25 client (initialize handshake)
and a 2026-07-28 client (no handshake, per-request envelope) both play; a 2026-07-28 client that follows a game
with subscriptions/listen hears each change of it as an update of game://<id>."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client
from mcp.client.subscriptions import ListenNotSupportedError, ResourceUpdated

from .helpers import call, refused

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode, version", [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")])
async def test_a_client_of_either_era_plays(server, mode, version):
    async with Client(server, mode=mode) as client:
        assert client.protocol_version == version
        game = await call(client, "new_game", game="cthulhu-dice", seed=5)
        token = game["seats"][0]["token"]
        played = await call(client, "apply_move", game_id=game["game_id"], token=token, move="roll")
        assert played["played"][0]["ply"] == 1
        assert "bad_arguments" in await refused(client, "history", game_id=game["game_id"], limit=0)
        assert game["game_id"] in (await client.read_resource(f"game://{game['game_id']}")).contents[0].text


async def test_a_client_following_a_game_hears_each_move_and_no_other_game(server):
    async with anyio.create_task_group() as background:
        await background.start(server.updates.run)
        async with Client(server, mode="2026-07-28") as watcher, Client(server, mode="legacy") as player:
            game = await call(player, "new_game", game="cthulhu-dice", seed=5)
            other = await call(player, "new_game", game="cthulhu-dice", seed=6)
            uri = f"game://{game['game_id']}"
            async with watcher.listen(resource_subscriptions=[uri]) as followed:
                assert followed.honored.resource_subscriptions == [uri]
                await call(player, "apply_move", game_id=other["game_id"], token=other["seats"][0]["token"], move="roll")
                await call(player, "apply_move", game_id=game["game_id"], token=game["seats"][0]["token"], move="roll")
                with anyio.fail_after(5):
                    heard = await anext(aiter(followed))
                assert heard == ResourceUpdated(uri=uri)
                state = await watcher.read_resource(uri)
                assert '"ply": 1' in state.contents[0].text, "reading the game again shows the move"
            with pytest.raises(ListenNotSupportedError):  # a 2025 client keeps wait_for_turn
                async with player.listen(resource_subscriptions=[uri]):
                    pass
        background.cancel_scope.cancel()
