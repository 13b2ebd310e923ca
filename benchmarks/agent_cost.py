"""What a model pays to play: characters and calls per seat-turn, through the real MCP client.

Scripted agents play each game the way a model would: wait_for_turn (which answers with what the others did
since the seat last moved, the position and the seat's legal moves), decide from that answer, then one
apply_move carrying the whole turn (a War turn's moves and attack, a Cthulhu Wars Move of several units); when
the answer says the decision is theirs again, they decide from it at once. They never read ``history``: the
digest at the top of each answer is what they know of the others. Every answer's text is counted, since that is
what a client hands the model; structured content is counted apart (a program reads it).

Cthulhu Wars is played twice: by agents that are asked every out-of-turn window the rules give them (the
defaults), and by agents that first set standing answers (pass the windows after others' actions unless
attacked with Devolve at hand; Elder Signs revealed in its own turns only). Their decisions, windows included, are the
server's heuristic bot's (standing in for a model's judgement; its own reading is not counted). The War agent reads the marks on moves that would cut
its own units off and leaves those moves out of its plans.

Printed per game: median and 90th percentile of text characters and of calls per seat-turn, the text
characters of one seat's whole game, the share of a seat's reading spent on windows it only passed and on
``history``, history calls per game, and refusals (for War, those caused by a line the same sequence broke);
and the size of tools/list.

    .venv/bin/python benchmarks/agent_cost.py [--games N] [--rows "cw thinking,cw standing"]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from mcp import Client

from tabletop.app.server import build_server
from tabletop.bots.registry import make_bot
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore


@dataclass
class Meter:
    """Characters and calls, per seat-turn and per seat over a whole game, and what the reading was spent on."""

    turns: list[tuple[int, int, int]] = field(default_factory=list)  # (text chars, structured chars, calls)
    per_seat: dict[int, int] = field(default_factory=dict)
    current: list[int] = field(default_factory=lambda: [0, 0, 0])
    spent: dict[int, dict[str, int]] = field(default_factory=dict)  # per seat, text characters by what they were read for
    history_calls: int = 0
    refusals: int = 0
    line_refusals: int = 0  # War: a move refused because an earlier move of the same sequence cut its line
    dry_runs: int = 0  # War: plans tried first as dry runs, and those refused (nothing played either way)
    dry_refusals: int = 0
    kinds: dict[int, Counter] = field(default_factory=dict)  # per seat, text characters by kind of text

    def count(self, seat: int, result, spent: str = "play") -> None:
        self.kinds.setdefault(seat, Counter()).update(kinds_of("\n".join(c.text for c in result.content if c.type == "text"),
                                                               result.is_error))
        text = sum(len(c.text) for c in result.content if c.type == "text")
        structured = len(json.dumps(result.structured_content)) if result.structured_content else 0
        self.current[0] += text
        self.current[1] += structured
        self.current[2] += 1
        self.per_seat[seat] = self.per_seat.get(seat, 0) + text
        mine = self.spent.setdefault(seat, {})
        mine[spent] = mine.get(spent, 0) + text
        if result.is_error:
            self.refusals += 1
            self.line_refusals += "cut its line" in result.content[0].text or "offline" in result.content[0].text

    def end_turn(self) -> None:
        if self.current[2]:
            self.turns.append(tuple(self.current))
        self.current = [0, 0, 0]


#: The lines that say what a seat must or may do next, or who is awaited (``owed`` and the like).
OWED = ("You still owe", "Your action is used", "Moving units", "Nothing is asked", "Waiting for", "Your turns are over",
        "You sit out", "You may act", "Doom phase, your", "Take one", "Choose", "Battle in", "Next:", "Break the tie",
        "Make your offer", "The game is over", "Still not your turn")
#: The lines of a Cthulhu Wars position (whole or changed), its status lines among them.
POSITION = re.compile(r"^(Round \d|[\w-]+( spellbooks \d+/6)?: |Changed since|The rest of the position|Play goes|No longer:|"
                      r"Citadels|Tunnels|Creatures:|Map )")


def kinds_of(text: str, refused: bool) -> Counter:
    """An answer's characters by kind of text: the digest, a window, the position (whole, changed or status), the
    legal moves, what is owed, the answer's head and its own move's events, a refusal."""
    found: Counter = Counter()
    if refused:
        found["refusal"] += len(text)
        return found
    mode = None
    for line in text.split("\n"):
        size = len(line) + 1
        if line.startswith("Since your last move:") or (mode == "digest" and line.startswith(("- ", "… "))):
            mode, kind = "digest", "digest"
        elif mode == "moves" or line.startswith("Your moves"):
            mode, kind = "moves", "legal moves"
        elif ": window " in line:
            mode, kind = None, "window"
        elif line.startswith(OWED):
            mode, kind = None, "owed"
        elif POSITION.match(line):
            mode, kind = None, "position"
        else:
            mode, kind = None, "head and own events"
        found[kind] += size
    return found


class Agent:
    """One seat: reads answers, picks moves with its own seeded choices, sends whole turns."""

    def __init__(self, client: Client, meter: Meter, game_id: str, token: str, seat: int, seed: int) -> None:
        self.client, self.meter, self.game_id, self.token, self.seat = client, meter, game_id, token, seat
        self.pick = random.Random(seed)

    async def call(self, tool: str, spent: str | None = "play", **args):
        """A tool call, counted at once (``spent``) or, with ``spent=None``, by the caller once it knows why."""
        result = await self.client.call_tool(tool, {"game_id": self.game_id, "token": self.token, **args})
        if spent is not None:
            self.meter.count(self.seat, result, spent)
        return result

    async def start(self) -> None:
        """Anything the seat says once before its first turn."""

    async def play_turn(self) -> None:
        """From 'your turn' to handing the game on: wait (answers at once), then act until it is not ours. An
        out-of-turn window the seat only passes is counted apart (with the answer to its 'done')."""
        answer = await self.call("wait_for_turn", spent=None, timeout_seconds=0)
        spent = "play"
        while answer.structured_content.get("legal") and not answer.is_error:
            # an answer is counted with the decision it asks for: a window's prompt with the window, the answer
            # to a window's 'done' that asks for the seat's own action with that action
            moves = self.choose(answer)
            window = ": window " in answer.content[0].text
            spent = "window passed" if window and moves == ["done"] else "window used" if window else "play"
            self.meter.count(self.seat, answer, spent)
            moves = await self.checked(moves, spent)
            answer = await self.call("apply_move", spent=None, moves=moves)
            if answer.is_error:  # a refused sequence: decide again from what the refusal said (here: one move)
                self.meter.count(self.seat, answer, spent)
                answer = await self.call("apply_move", spent=None, moves=[self.fallback])
        self.meter.count(self.seat, answer, spent)  # the answer that handed the game on
        self.meter.end_turn()

    async def checked(self, moves: list[str], spent: str) -> list[str]:
        """The moves to send, after any checks the seat makes first (none by default)."""
        return moves

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
    """Up to five moves of different units to free squares, then an attack that captures, else the end. Moves the
    listing marks as cutting its own line are left out (they would strand a unit it may want to move next)."""

    def choose(self, answer) -> list[str]:
        text = answer.content[0].text
        groups = self.options(answer)
        flat = [m for g in groups for m in g]
        self.fallback = "end" if "end" in flat else flat[0]
        captures = re.findall(r"(attack [a-y]\d+) \(\d+ v \d+: capture\)", text)
        if captures:
            return [captures[0]]
        cutting = marked_moves(text)
        unit_moves = [[m for m in g if m not in cutting] for g in groups if g and "-" in g[0]]
        unit_moves = [g for g in unit_moves if g]
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

    async def checked(self, moves: list[str], spent: str) -> list[str]:
        """A plan of several unit moves is tried first as a dry run: two moves may together cut a line neither
        cuts alone. A move the dry run refuses is left out and the rest tried again."""
        for _ in range(5):
            if sum("-" in m for m in moves) < 2:
                return moves
            trial = await self.call("apply_move", spent=spent, moves=moves, dry_run=True)
            self.meter.dry_runs += 1
            if not trial.is_error:
                return moves
            self.meter.refusals -= 1  # a dry run's refusal changed nothing: counted apart
            self.meter.line_refusals -= "cut its line" in trial.content[0].text or "offline" in trial.content[0].text
            self.meter.dry_refusals += 1
            found = re.search(r"Move (\d+) of \d+", trial.content[0].text)
            if not found:
                return moves
            moves = moves[: int(found.group(1)) - 1] + moves[int(found.group(1)):]
        return moves


def marked_moves(text: str) -> set[str]:
    """The War moves a listing marks under "Cuts your own line:" ("I h13-g12/i12 (leaves C j15 offline); …")."""
    found = re.search(r"^Cuts your own line: (.*)$", text, re.M)
    if not found:
        return set()
    moves = set()
    for mark in re.findall(r"([A-Z]) ([a-y]\d+)-([a-y0-9/]+) \(", found.group(1)):
        letter, origin, targets = mark
        moves.update(f"{letter} {origin}-{target}" for target in targets.split("/"))
    return moves


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


class ThinkingWarsAgent(Agent):
    """A Cthulhu Wars seat that decides like a player, not at random: the server's heuristic bot stands in for
    the model's judgement (it reads the game in-process; its reading is not counted), so games run as long as
    played ones do, with rituals, Elder Signs and the windows they bring. One decision per call, but a Move's
    units together."""

    def __init__(self, *args, sessions: GameSessions, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sessions = sessions
        self.bot = make_bot("cthulhu-wars", "heuristic", seed=self.pick.randrange(2**31))

    def choose(self, answer) -> list[str]:
        """The bot's decision; a Move's units are planned together and sent as one sequence (as a model sends
        them), each chosen on the position the ones before it leave (moving units draws no dice)."""
        live = self.sessions.get(self.game_id)
        engine, state = live.engine, live.state
        plan: list[str] = []
        for _ in range(12):
            action = self.bot.choose(engine, state, self.seat)
            plan.append(engine.notation(action))
            if not plan[-1].startswith("move ") or len(plan) == 12:
                break
            state, _ = engine.apply(state, self.seat, action)
            if engine.to_move(state) != [self.seat]:
                break
        self.fallback = plan[0]
        return plan


class WindowWiseAgent(ThinkingWarsAgent):
    """ThinkingWarsAgent that first sets standing answers, as a model told of them would: pass the windows after
    other factions' actions unless it is attacked and may Devolve, reveal Elder Signs only in its own turns and
    Doom-phase decisions (it is never asked out of turn only to reveal)."""

    STANDING = {"windows": "pass", "reveal": "own-turn", "always_ask": ["devolve"]}

    async def start(self) -> None:
        await self.call("standing_answers", answers=self.STANDING)


GAMES = {
    "cthulhu-dice": (DiceAgent, {"seats": 2}, {}),
    "game-of-war": (WarAgent, {"seats": 2}, {"opening": "default", "max_turns": 200}),
    "cthulhu-wars": (WarsAgent, {"seats": 4}, {}),
    "cw thinking": (ThinkingWarsAgent, {"seats": 4}, {}),  # decided by a player's judgement, asked every window
    "cw standing": (WindowWiseAgent, {"seats": 4}, {}),  # the same, with standing answers
}
#: The game each row plays.
PLAYS = {"cw thinking": "cthulhu-wars", "cw standing": "cthulhu-wars"}


async def play_one(client: Client, sessions: GameSessions, game: str, seed: int) -> Meter:
    agent_kind, seats, options = GAMES[game]
    meter = Meter()
    name = PLAYS.get(game, game)
    made = (await client.call_tool("new_game", {"game": name, **seats, "options": options, "seed": seed})).structured_content
    extra = {"sessions": sessions} if issubclass(agent_kind, ThinkingWarsAgent) else {}
    agents = [
        agent_kind(client, meter, made["game_id"], s["token"], s["seat"], seed * 10 + s["seat"], **extra) for s in made["seats"]
    ]
    for agent in agents:
        await agent.start()
    for _ in range(20_000):
        state = (await client.call_tool("get_state", {"game_id": made["game_id"]})).structured_content  # not counted
        if state["outcome"] or not state["to_move"]:
            return meter
        await agents[state["to_move"][0]].play_turn()
    raise RuntimeError(f"{game} seed {seed} did not end")


def share(spent: dict[str, int]) -> tuple[float, float]:
    """The shares of a seat's reading spent on windows it only passed and on windows where it acted."""
    total = sum(spent.values()) or 1
    return spent.get("window passed", 0) / total, spent.get("window used", 0) / total


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(games: int, rows: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        sessions = GameSessions(GameStore(Path(folder) / "cost.sqlite3"))
        server = build_server(sessions)
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            listing = len(json.dumps([t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools]))
            print(f"tools/list: {listing} characters ({len(tools)} tools)")
            print(f"{'game':14} {'seat-turns':>10} {'chars p50':>9} {'p90':>6} {'calls p50':>9} {'p90':>4} "
                  f"{'chars/decision':>14} {'struct p50':>10} {'one seat, whole game':>21}")
            spending, reading = [], []
            for game in rows:
                meters = [await play_one(client, sessions, game, seed) for seed in range(1, games + 1)]
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
                shares = [share(seat_spent) for m in meters for seat_spent in m.spent.values()]
                kinds = sum((m.kinds.get(0, Counter()) for m in meters), Counter())
                whole_reading = sum(kinds.values()) or 1
                if PLAYS.get(game, game) == "cthulhu-wars":  # the kinds are told apart as Cthulhu Wars texts write them
                    reading.append(f"{game:14} " + ", ".join(f"{k} {v / games:,.0f} ({v / whole_reading:.0%})"
                                                              for k, v in kinds.most_common()))
                spending.append(
                    f"{game:14} {statistics.median(p for p, _ in shares):>9.1%} (max {max(p for p, _ in shares):>5.1%}) "
                    f"{statistics.median(u for _, u in shares):>12.1%} {0:>8.1%} {max(m.history_calls for m in meters):>13} "
                    f"{sum(m.refusals for m in meters) / games:>14.1f} {sum(m.line_refusals for m in meters) / games:>14.1f}"
                    f"{sum(m.dry_runs for m in meters) / games:>10.1f} {sum(m.dry_refusals for m in meters) / games:>13.1f}"
                )
            print(f"\na seat's reading: {'windows passed':>22} {'windows used':>12} {'history':>8} "
                  f"{'history calls':>13} {'refusals/game':>14} {'line refusals':>14} {'dry runs':>9} {'dry refused':>13}")
            print("\n".join(spending))
            print("\none Cthulhu Wars seat's reading by kind (seat 0, characters a game):")
            print("\n".join(reading))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game type (default 3)")
    parser.add_argument("--rows", default=",".join(GAMES), help=f"rows to play, comma-separated (default all: {', '.join(GAMES)})")
    args = parser.parse_args()
    chosen = [row.strip() for row in args.rows.split(",")]
    unknown = [row for row in chosen if row not in GAMES]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows are {', '.join(GAMES)}")
    anyio.run(main, args.games, chosen)
