"""How each kind of player plays its seat. Every player gets the server's URL, the game's id and its own seat's
token, and nothing else: it reaches the server through an MCP client (or a program) of its own.

- ``bot:NAME``: the registered bot, unchanged, through :class:`~tabletop.arena.mcp_player.McpSeat`.
- ``cmd:PROGRAM ARGS...``: any program, started with the environment variables ``TABLETOP_URL``,
  ``TABLETOP_GAME_ID``, ``TABLETOP_SEAT`` (0-based), ``TABLETOP_SEAT_TOKEN`` and, when the server has one, its
  bearer token as ``TABLETOP_TOKEN``. Its arguments may also name ``{url}``, ``{game_id}``, ``{seat}`` and
  ``{token}`` (nothing else: checked when the tournament is read), replaced before it starts (the environment is
  safer: arguments are visible to every user of the machine). It plays until the game ends; its output goes to a
  log file of the tournament.
- ``openai:MODEL`` and ``anthropic:MODEL``: see :mod:`tabletop.arena.model_player`.

Each counts what it did in a :class:`~tabletop.arena.seat_stats.SeatStats`.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any

import anyio

from ..bots.registry import make_bot
from .mcp_player import McpSeat
from .model_player import play_model
from .seat_stats import SeatStats
from .server import Endpoint, connect
from .checks import expand
from .spec import Limits, PlayerSpec, command_arguments


#: How long a program may take to notice the end of its game and exit before it is terminated.
GRACE_SECONDS = 10.0


def bot_seed(tournament_id: str, slot: int, seat: int) -> int:
    """A bot's own seed for one game: the same slot replayed gives the same bot choices (the dice are the server's)."""
    digest = hashlib.sha256(f"{tournament_id}:{slot}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


async def play_bot(endpoint: Endpoint, game: str, player: PlayerSpec, game_id: str, token: str, seed: int,
                   options: dict[str, Any], stats: SeatStats) -> None:
    bot = make_bot(game, player.target, seed, player.seconds)
    started = time.perf_counter()
    async with connect(endpoint) as client:
        seat = McpSeat(client, game_id, token, bot, options=options or None, bot_name=player.target,
                       seconds=min(10.0, player.seconds or 2.0))
        try:
            await seat.play()
        finally:  # also when the game's end cancels it
            stats.decisions, stats.fallbacks, stats.advised = seat.decisions, seat.fallbacks, seat.advised
            stats.seconds = time.perf_counter() - started


def command_line(player: PlayerSpec, endpoint: Endpoint, game_id: str, seat: int, token: str) -> tuple[list[str], dict[str, str]]:
    values = {"url": endpoint.url, "game_id": game_id, "seat": str(seat), "token": token}
    argv = [expand(arg, values) if "{" in arg else arg for arg in command_arguments(player.spec)]
    env = {**os.environ, "TABLETOP_URL": endpoint.url, "TABLETOP_GAME_ID": game_id, "TABLETOP_SEAT": str(seat),
           "TABLETOP_SEAT_TOKEN": token}
    env.pop("TABLETOP_TOKEN", None)
    if endpoint.token:
        env["TABLETOP_TOKEN"] = endpoint.token
    return argv, env


async def play_command(endpoint: Endpoint, player: PlayerSpec, game_id: str, seat: int, token: str, log: Path,
                       stats: SeatStats) -> None:
    """Run the program until it exits (the game's monitor cancels it when the game ends first)."""
    argv, env = command_line(player, endpoint, game_id, seat, token)
    started = time.perf_counter()
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        process = await anyio.open_process(argv, env=env, stdout=out, stderr=out)
        try:
            await process.wait()
        finally:
            if process.returncode is None:  # the game ended: a few seconds to see it and leave on its own
                with anyio.move_on_after(GRACE_SECONDS, shield=True):
                    await process.wait()
            if process.returncode is None:
                process.terminate()
                with anyio.move_on_after(5, shield=True):
                    await process.wait()
                if process.returncode is None:
                    process.kill()
            stats.seconds = time.perf_counter() - started


async def play_seat(endpoint: Endpoint, game: str, player: PlayerSpec, game_id: str, seat: int, token: str, seed: int,
                    options: dict[str, Any], limits: Limits, legal_moves: bool, logs: Path, stats: SeatStats) -> None:
    """Play ``seat`` of ``game_id`` as ``player`` says, until the game ends, counting what it does in ``stats``."""
    if player.kind == "bot":
        await play_bot(endpoint, game, player, game_id, token, seed, options, stats)
    elif player.kind == "cmd":
        await play_command(endpoint, player, game_id, seat, token, logs / f"{game_id}-seat{seat}.log", stats)
    else:
        await play_model(endpoint, player, game_id, seat, token, seed, limits, legal_moves, stats)


__all__ = ["bot_seed", "play_seat"]
