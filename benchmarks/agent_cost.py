"""What a model pays to play: characters and calls per seat-turn, through the real MCP client.

Scripted agents play each game the way a model would: wait_for_turn (which answers with the position
and the seat's legal moves), decide from that answer, then one apply_move carrying the whole turn
(a War turn's moves and attack, a Cthulhu Wars Move of several units); when the answer says the
decision is theirs again, they decide from it at once. Every answer's text is counted, since that
is what a client hands the model; structured content is counted apart (a program reads it).

Printed per game: median and 90th percentile of text characters and of calls per seat-turn, the
text characters of one seat's whole game, and the size of tools/list.

    .venv/bin/python benchmarks/agent_cost.py [--games N]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore


@dataclass
class Meter:
    """Characters and calls, per seat-turn and per seat over a whole game."""

    turns: list[tuple[int, int, int]] = field(default_factory=list)  # (text chars, structured chars, calls)
    per_seat: dict[int, int] = field(default_factory=dict)
    current: list[int] = field(default_factory=lambda: [0, 0, 0])

    def count(self, seat: int, result) -> None:
        text = sum(len(c.text) for c in result.content if c.type == "text")
        structured = len(json.dumps(result.structured_content)) if result.structured_content else 0
        self.current[0] += text
        self.current[1] += structured
        self.current[2] += 1
        self.per_seat[seat] = self.per_seat.get(seat, 0) + text

    def end_turn(self) -> None:
        if self.current[2]:
            self.turns.append(tuple(self.current))
        self.current = [0, 0, 0]


class Agent:
    """One seat: reads answers, picks moves with its own seeded choices, sends whole turns."""

    def __init__(self, client: Client, meter: Meter, game_id: str, token: str, seat: int, seed: int) -> None:
        self.client, self.meter, self.game_id, self.token, self.seat = client, meter, game_id, token, seat
        self.pick = random.Random(seed)

    async def call(self, tool: str, **args):
        result = await self.client.call_tool(tool, {"game_id": self.game_id, "token": self.token, **args})
        self.meter.count(self.seat, result)
        return result

    async def play_turn(self) -> None:
        """From 'your turn' to handing the game on: wait (answers at once), then act until it is not ours."""
        answer = await self.call("wait_for_turn", timeout_seconds=0)
        while answer.structured_content.get("legal") and not answer.is_error:
            moves = self.choose(answer)
            answer = await self.call("apply_move", moves=moves)
            if answer.is_error:  # a refused sequence: decide again from what the refusal said (here: one move)
                answer = await self.call("apply_move", moves=[self.fallback])
        self.meter.end_turn()

    def options(self, answer) -> list[list[str]]:
        return [group["moves"] for group in answer.structured_content["legal"]]

    def choose(self, answer) -> list[str]:
        flat = [m for group in self.options(answer) for m in group]
        self.fallback = self.pick.choice(flat)
        return [self.fallback]


class DiceAgent(Agent):
    def choose(self, answer) -> list[str]:
        flat = [m for group in self.options(answer) for m in group]
        stash = re.search(r"stash (\d+)", answer.content[0].text, re.I)
        self.fallback = "retreat" if "retreat" in flat and stash and int(stash.group(1)) >= 3 else flat[0]
        return [self.fallback]


class WarAgent(Agent):
    """Up to five moves of different units to free squares, then an attack that captures, else the end."""

    def choose(self, answer) -> list[str]:
        text = answer.content[0].text
        groups = self.options(answer)
        flat = [m for g in groups for m in g]
        self.fallback = "end" if "end" in flat else flat[0]
        captures = re.findall(r"(attack [a-y]\d+) \(\d+ v \d+: capture\)", text)
        if captures:
            return [captures[0]]
        unit_moves = [g for g in groups if g and "-" in g[0]]
        self.pick.shuffle(unit_moves)
        plan, taken = [], set()
        for group in unit_moves[:5]:
            choices = [m for m in group if m.split("-")[1] not in taken]
            if choices:
                move = self.pick.choice(choices)
                taken.add(move.split("-")[1])
                plan.append(move)
        if "retreat" in text and "must retreat" in text:
            return [flat[0]]
        return plan + ["end"] if "end" in flat or plan else [flat[0]]


class WarsAgent(Agent):
    """A random legal action; a Move takes up to three units in one call, then 'done'."""

    def choose(self, answer) -> list[str]:
        flat = [m for group in self.options(answer) for m in group]
        self.fallback = self.pick.choice(flat)
        if self.fallback.startswith("move ") and "done" not in flat:
            units = [m for m in flat if m.startswith("move ")]
            sources = {}
            for m in units:
                sources.setdefault(m.split(">")[0], m)
            chosen = self.pick.sample(list(sources.values()), k=min(3, len(sources)))
            return chosen + ["done"]
        return [self.fallback]


GAMES = {
    "cthulhu-dice": (DiceAgent, {"seats": 2}, {}),
    "game-of-war": (WarAgent, {"seats": 2}, {"opening": "default", "max_turns": 200}),
    "cthulhu-wars": (WarsAgent, {"seats": 4}, {}),
}


async def play_one(client: Client, game: str, seed: int) -> Meter:
    agent_kind, seats, options = GAMES[game]
    meter = Meter()
    made = (await client.call_tool("new_game", {"game": game, **seats, "options": options, "seed": seed})).structured_content
    agents = [
        agent_kind(client, meter, made["game_id"], s["token"], s["seat"], seed * 10 + s["seat"]) for s in made["seats"]
    ]
    for _ in range(20_000):
        state = (await client.call_tool("get_state", {"game_id": made["game_id"]})).structured_content  # not counted
        if state["outcome"] or not state["to_move"]:
            return meter
        await agents[state["to_move"][0]].play_turn()
    raise RuntimeError(f"{game} seed {seed} did not end")


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = build_server(GameSessions(GameStore(Path(folder) / "cost.sqlite3")))
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            listing = len(json.dumps([t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools]))
            print(f"tools/list: {listing} characters ({len(tools)} tools)")
            print(f"{'game':14} {'seat-turns':>10} {'chars p50':>9} {'p90':>6} {'calls p50':>9} {'p90':>4} "
                  f"{'chars/decision':>14} {'struct p50':>10} {'one seat, whole game':>21}")
            for game in GAMES:
                meters = [await play_one(client, game, seed) for seed in range(1, games + 1)]
                turns = [t for m in meters for t in m.turns]
                chars, structured, calls = ([t[i] for t in turns] for i in range(3))
                whole = [m.per_seat.get(0, 0) for m in meters]
                # a decision: one apply_move and its share of the turn's reading (the wait that opened the turn)
                per_decision = statistics.median(c / max(n - 1, 1) for c, _, n in turns)
                print(
                    f"{game:14} {len(turns):>10} {statistics.median(chars):>9.0f} {pct(chars, 0.9):>6} "
                    f"{statistics.median(calls):>9.0f} {pct(calls, 0.9):>4} {per_decision:>14.0f} "
                    f"{statistics.median(structured):>10.0f} {statistics.median(whole):>13.0f} (max {max(whole)})"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game type (default 3)")
    anyio.run(main, parser.parse_args().games)
