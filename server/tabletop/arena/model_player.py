"""Language-model players: a model plays its seat by tool calls, through the official ``openai`` SDK (any
OpenAI-compatible endpoint: hosted APIs, vLLM, Ollama, llama.cpp servers) or the official ``anthropic`` SDK.

What the model is given
- Instructions: the server's ``play_seat`` prompt (fetched over MCP, with the token left out: the arena holds
  it), and a few lines on how the arena works.
- Tools: ``get_state``, ``legal_moves`` (only when the tournament allows it), ``apply_move``, ``history`` and
  ``search_rules``, with the server's own descriptions and schemas, less ``game_id`` and ``token``: the arena adds
  this seat's game and token to every call (overriding anything the model puts there), so no call can reach
  another game or seat. When ``legal_moves`` is withheld, every answer is given as its structured data with the
  legal-move lists taken out, so the model must work its moves out from the rules.
- The arena calls on it only when the decision is its own (``wait_for_turn``), each decision in a fresh
  conversation that starts with the position.

Limits per decision (:class:`~tabletop.arena.spec.Limits`): tool calls, illegal attempts (a refused move or
malformed arguments) and seconds (the model's answers and the tools' time; time lost to failing requests is not
counted). When one is reached, ``on_limit`` says what happens: ``random`` plays a random legal move for it (a
*forfeit* of that decision, counted), ``loss`` ends the game as lost for this seat.

Failures of the service or the network (timeouts, connection errors, 5xx, rate limits, unreadable answers) are
retried (``limits.retries`` times, backing off) and counted as ``service_errors``, never as the model's play; if they
persist the game is abandoned (:class:`~tabletop.arena.seat_stats.ServiceFailed`) and not counted for anyone.
Token usage from every answer is added to the seat's statistics.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from ..core.rng import Rng
from .seat_stats import SeatLost, SeatStats, ServiceFailed
from .server import Endpoint, connect
from .spec import Limits, PlayerSpec

SEAT_TOOLS = ("get_state", "legal_moves", "apply_move", "history", "search_rules")
HIDDEN_ARGS = ("game_id", "token")
WAIT_SECONDS = 30
ARENA_NOTE = (
    "\n\nIn this tournament the arena holds your game id and seat token and adds them to every tool call: leave them "
    "out. It calls on you when a decision is yours; a decision ends when apply_move plays your move. Per decision you "
    "have at most {calls} tool calls, {illegal} refused moves and {seconds:g} seconds."
)
WITHHELD_NOTE = " legal_moves is not available here, and answers do not list legal moves: work them out from the rules."


@dataclass
class Call:
    """One tool call the model asked for: ``arguments`` is the raw JSON text (OpenAI) or an object (Anthropic)."""

    id: str
    name: str
    arguments: Any


@dataclass
class Answer:
    text: str
    calls: list[Call]
    seconds: float
    raw: Any = None


@dataclass
class Conversation:
    """One decision's messages, in the backend's own format."""

    messages: list[dict[str, Any]] = field(default_factory=list)


class Backend:
    """What the arena needs of a model API: ask with tools, append answers and tool results."""

    retryable: tuple[type[BaseException], ...] = ()

    async def ask(self, conversation: Conversation) -> tuple[Answer, int, int]:
        raise NotImplementedError

    def add_user(self, conversation: Conversation, text: str) -> None:
        raise NotImplementedError

    def add_answer(self, conversation: Conversation, answer: Answer) -> None:
        raise NotImplementedError

    def add_results(self, conversation: Conversation, results: list[tuple[Call, str, bool]]) -> None:
        raise NotImplementedError


def api_key(player: PlayerSpec, default_env: str) -> str:
    """The key from the file or variable the player names, else the SDK's usual variable; a local endpoint needs none."""
    if player.key_file:
        return Path(player.key_file).expanduser().read_text().strip()
    key = os.environ.get(player.key_env or default_env)
    if key:
        return key
    if player.base_url:
        return "no-key"  # a local server (vLLM, Ollama, llama.cpp) usually ignores it, but the SDKs insist on one
    raise ServiceFailed(f"no API key for {player.name}: set {player.key_env or default_env} or give key_file")


class OpenAIBackend(Backend):
    def __init__(self, player: PlayerSpec, limits: Limits, instructions: str, tools: list[dict[str, Any]]) -> None:
        import openai

        self.client = openai.AsyncOpenAI(base_url=player.base_url, api_key=api_key(player, "OPENAI_API_KEY"),
                                         timeout=limits.request_seconds, max_retries=0)
        self.model, self.max_tokens = player.target, limits.max_tokens
        self.system = {"role": "system", "content": instructions}
        self.tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                                         "parameters": t["schema"]}} for t in tools]
        self.retryable = (openai.APIError,)

    async def ask(self, conversation: Conversation) -> tuple[Answer, int, int]:
        start = time.perf_counter()
        response = await self.client.chat.completions.create(
            model=self.model, messages=[self.system, *conversation.messages], tools=self.tools, max_tokens=self.max_tokens
        )
        seconds = time.perf_counter() - start
        message = response.choices[0].message
        calls = [Call(c.id, c.function.name, c.function.arguments) for c in message.tool_calls or []]
        usage = response.usage
        return (Answer(message.content or "", calls, seconds, message),
                usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)

    def add_user(self, conversation: Conversation, text: str) -> None:
        conversation.messages.append({"role": "user", "content": text})

    def add_answer(self, conversation: Conversation, answer: Answer) -> None:
        entry: dict[str, Any] = {"role": "assistant", "content": answer.text}
        if answer.calls:
            entry["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments
                                    if isinstance(c.arguments, str) else json.dumps(c.arguments)}} for c in answer.calls]
        conversation.messages.append(entry)

    def add_results(self, conversation: Conversation, results: list[tuple[Call, str, bool]]) -> None:
        for call, text, _ in results:
            conversation.messages.append({"role": "tool", "tool_call_id": call.id, "content": text})


class AnthropicBackend(Backend):
    def __init__(self, player: PlayerSpec, limits: Limits, instructions: str, tools: list[dict[str, Any]]) -> None:
        import anthropic

        self.client = anthropic.AsyncAnthropic(base_url=player.base_url, api_key=api_key(player, "ANTHROPIC_API_KEY"),
                                               timeout=limits.request_seconds, max_retries=0)
        self.model, self.max_tokens, self.system = player.target, limits.max_tokens, instructions
        self.tools = [{"name": t["name"], "description": t["description"], "input_schema": t["schema"]} for t in tools]
        self.retryable = (anthropic.APIError,)

    async def ask(self, conversation: Conversation) -> tuple[Answer, int, int]:
        start = time.perf_counter()
        response = await self.client.messages.create(model=self.model, max_tokens=self.max_tokens, system=self.system,
                                                     messages=conversation.messages, tools=self.tools)
        seconds = time.perf_counter() - start
        text = "".join(b.text for b in response.content if b.type == "text")
        calls = [Call(b.id, b.name, b.input) for b in response.content if b.type == "tool_use"]
        return Answer(text, calls, seconds, response), response.usage.input_tokens, response.usage.output_tokens

    def add_user(self, conversation: Conversation, text: str) -> None:
        conversation.messages.append({"role": "user", "content": text})

    def add_answer(self, conversation: Conversation, answer: Answer) -> None:
        blocks: list[dict[str, Any]] = [{"type": "text", "text": answer.text}] if answer.text else []
        blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments if isinstance(c.arguments, dict) else {}}
                   for c in answer.calls]
        conversation.messages.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "(nothing)"}]})

    def add_results(self, conversation: Conversation, results: list[tuple[Call, str, bool]]) -> None:
        conversation.messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call.id, "content": text, "is_error": failed} for call, text, failed in results
        ]})


BACKENDS = {"openai": OpenAIBackend, "anthropic": AnthropicBackend}


async def seat_tools(client: Client, legal_moves: bool) -> list[dict[str, Any]]:
    """The server's tools a seat may use, as name, description and schema without ``game_id`` and ``token``."""
    allowed = [t for t in SEAT_TOOLS if legal_moves or t != "legal_moves"]
    listed = {t.name: t for t in (await client.list_tools()).tools}
    tools = []
    for name in allowed:
        tool = listed[name]
        schema = json.loads(json.dumps(tool.input_schema))
        for arg in HIDDEN_ARGS:
            schema.get("properties", {}).pop(arg, None)
        schema["required"] = [r for r in schema.get("required", []) if r not in HIDDEN_ARGS]
        tools.append({"name": name, "description": tool.description or name, "schema": schema})
    return tools


async def instructions_for(client: Client, game_id: str, limits: Limits, legal_moves: bool) -> str:
    prompt = await client.get_prompt("play_seat", {"game_id": game_id, "token": "(held by the arena)"})
    text = "\n".join(m.content.text for m in prompt.messages if getattr(m.content, "text", None))
    note = ARENA_NOTE.format(calls=limits.turn_tool_calls, illegal=limits.turn_illegal, seconds=limits.turn_seconds)
    return text + note + ("" if legal_moves else WITHHELD_NOTE)


def without_legal(data: Any) -> Any:
    """Structured data with every list of legal moves taken out (for tournaments that withhold them)."""
    if isinstance(data, dict):
        return {k: without_legal(v) for k, v in data.items() if k not in ("legal", "groups", "moves_left_hint")}
    if isinstance(data, list):
        return [without_legal(v) for v in data]
    return data


class Limited(Exception):
    """A per-decision limit was reached."""


@dataclass
class ModelSeat:
    """One model playing one seat (see the module docstring)."""

    client: Client
    backend: Backend
    game_id: str
    seat: int
    token: str
    limits: Limits
    legal_moves: bool
    stats: SeatStats
    rng: Rng
    tool_names: set[str]

    def answer_text(self, result: Any) -> str:
        if self.legal_moves or result.is_error:
            return "\n".join(c.text for c in result.content if getattr(c, "text", None))
        return json.dumps(without_legal(result.structured_content))

    async def play(self) -> None:
        while True:
            wait = await self.client.call_tool("wait_for_turn", {"game_id": self.game_id, "token": self.token,
                                                                 "timeout_seconds": WAIT_SECONDS})
            if wait.is_error:
                raise RuntimeError(f"wait_for_turn failed: {wait.content[0].text}")
            if wait.structured_content["game_over"]:
                return
            if wait.structured_content["your_turn"]:
                await self.decide()

    async def decide(self) -> None:
        """Play one decision (or more, while the seat keeps the decision), within the limits."""
        state = await self.client.call_tool("get_state", {"game_id": self.game_id, "token": self.token})
        conversation = Conversation()
        self.backend.add_user(conversation, "It is your decision now.\n" + self.answer_text(state))
        calls = illegal = 0
        used = 0.0
        while True:
            try:
                if calls >= self.limits.turn_tool_calls:
                    raise Limited(f"{calls} tool calls without finishing the decision")
                if illegal >= self.limits.turn_illegal:
                    raise Limited(f"{illegal} refused moves")
                answer = await self.ask(conversation)
                used += answer.seconds
                if used > self.limits.turn_seconds:
                    raise Limited(f"the decision took over {self.limits.turn_seconds:g} s")
            except Limited as limit:
                await self.limit_hit(str(limit))
                return
            self.backend.add_answer(conversation, answer)
            if not answer.calls:
                calls += 1
                self.backend.add_user(conversation, "Play your move with apply_move (one tool call).")
                continue
            results, moved, still_yours = [], False, True
            for call in answer.calls:
                calls += 1
                self.stats.tool_calls += 1
                start = time.perf_counter()
                text, failed, played = await self.run_call(call)
                used += time.perf_counter() - start
                if failed == "illegal":
                    illegal += 1
                    self.stats.illegal += 1
                results.append((call, text, bool(failed)))
                if played is not None:
                    moved, still_yours = True, played
            self.backend.add_results(conversation, results)
            if moved:
                if not still_yours:
                    return
                calls, illegal, used = 0, 0, 0.0  # the seat decides again: a new decision with fresh limits

    async def ask(self, conversation: Conversation) -> Answer:
        """The model's next answer; failures of the service are retried and counted apart."""
        last: BaseException | None = None
        for attempt in range(self.limits.retries + 1):
            try:
                answer, tokens_in, tokens_out = await self.backend.ask(conversation)
            except self.backend.retryable as err:
                last = err
                self.stats.service_errors += 1
                await anyio.sleep(min(0.2 * 2**attempt, 5.0))
                continue
            self.stats.input_tokens += tokens_in
            self.stats.output_tokens += tokens_out
            self.stats.seconds += answer.seconds
            return answer
        raise ServiceFailed(f"{type(last).__name__}: {last}")

    async def run_call(self, call: Call) -> tuple[str, str | None, bool | None]:
        """Run one tool call for this seat: (what to tell the model, "illegal"/"refused"/None, whether the seat still
        decides after a move it played, or None if nothing was played)."""
        args = call.arguments
        if isinstance(args, str):
            try:
                args = json.loads(args or "{}")
            except json.JSONDecodeError as err:
                return f"Error: the arguments are not valid JSON ({err.msg}); nothing was done.", "illegal", None
        if not isinstance(args, dict):
            return "Error: the arguments must be a JSON object; nothing was done.", "illegal", None
        if call.name not in self.tool_names:
            return f"Error: no tool {call.name!r} here; use one of {', '.join(sorted(self.tool_names))}.", "illegal", None
        args = {**args, "game_id": self.game_id, "token": self.token}  # this seat's game and token, whatever was asked
        start = time.perf_counter()
        result = await self.client.call_tool(call.name, args)
        self.stats.seconds += time.perf_counter() - start
        text = self.answer_text(result)
        if call.name != "apply_move" or args.get("dry_run"):
            return text, "refused" if result.is_error else None, None
        if result.is_error:
            return text, "illegal", None
        data = result.structured_content
        self.stats.decisions += 1
        return text, None, bool(data.get("your_turn")) and data.get("outcome") is None

    async def limit_hit(self, why: str) -> None:
        self.stats.limits_hit += 1
        if self.limits.on_limit == "loss":
            raise SeatLost(self.seat, f"limit reached ({why})")
        await self.forfeit()

    async def forfeit(self) -> None:
        """A random legal move for the seat, counted as a forfeit of the decision (repeated while it keeps deciding)."""
        while True:
            found = await self.client.call_tool("legal_moves", {"game_id": self.game_id, "token": self.token, "detail": "full"})
            data = found.structured_content if not found.is_error else None
            options = [o["action"] for g in (data or {}).get("groups", []) for o in g.get("options") or []]
            if not data or not data["your_turn"] or not options:
                return
            played = await self.client.call_tool("apply_move", {"game_id": self.game_id, "token": self.token,
                                                                "actions": [self.rng.choice(options)]})
            if played.is_error:
                raise RuntimeError(f"the arena's random move was refused: {played.content[0].text}")
            self.stats.forfeits += 1
            if not played.structured_content["your_turn"] or played.structured_content.get("outcome") is not None:
                return


async def play_model(endpoint: Endpoint, player: PlayerSpec, game_id: str, seat: int, token: str, seed: int,
                     limits: Limits, legal_moves: bool, stats: SeatStats) -> None:
    async with connect(endpoint) as client:
        tools = await seat_tools(client, legal_moves)
        instructions = await instructions_for(client, game_id, limits, legal_moves)
        backend = BACKENDS[player.kind](player, limits, instructions, tools)
        try:
            await ModelSeat(client, backend, game_id, seat, token, limits, legal_moves, stats, Rng(seed),
                            {t["name"] for t in tools}).play()
        finally:
            with anyio.CancelScope(shield=True):
                await backend.client.close()


__all__ = ["ModelSeat", "play_model", "seat_tools", "without_legal"]
