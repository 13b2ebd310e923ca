"""A local stand-in for the OpenAI and Anthropic HTTP APIs, for testing model players.

It is a stand-in because the real services cannot be reached from here (no network, no keys). It speaks the two
wire formats the official SDKs use (``POST /v1/chat/completions`` and ``POST /v1/messages``) over real HTTP on
127.0.0.1, and answers by a script: ``mode`` says how the "model" behaves, and every request body is kept so
that tests can check what a model was sent. It plays Cthulhu Dice only: its good play is "roll once, then bank".

Modes: ``good`` (legal tool calls), ``illegal`` (a move that is not a move), ``malformed`` (arguments that are not
JSON), ``slow`` (each answer takes ``delay`` seconds), ``flaky`` (of every three requests one fails with a 500,
one takes longer than the client's timeout, one is good), ``down`` (every request fails with a 503), ``cheat``
(good moves, sent with another game's id and a made-up token), ``chatty`` (answers in words, no tool call).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

USAGE_IN, USAGE_OUT = 100, 10


class StandIn:
    def __init__(self, mode: str = "good", delay: float = 0.0) -> None:
        self.mode, self.delay = mode, delay
        self.requests: list[dict[str, Any]] = []  # every body received, with its API: {"api": ..., "body": ...}
        self.answered = {"openai": 0, "anthropic": 0}  # good answers sent (their usage is what the arena should count)
        self._count = itertools.count()
        self._ids = itertools.count(1)
        app = Starlette(routes=[Route("/v1/chat/completions", self.openai, methods=["POST"]),
                                Route("/v1/messages", self.anthropic, methods=["POST"])])
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="error"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        """The OpenAI SDK's base URL (it adds /chat/completions)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root(self) -> str:
        """The Anthropic SDK's base URL (it adds /v1/messages)."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> StandIn:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    # ---- the script ----------------------------------------------------------------------------
    async def trouble(self) -> JSONResponse | None:
        """A failure this request gets instead of an answer (flaky and down modes), after any delay."""
        n = next(self._count)
        if self.mode == "down" or (self.mode == "flaky" and n % 3 == 0):
            return JSONResponse({"error": {"type": "overloaded", "message": "scripted failure"}}, status_code=503)
        if self.mode == "flaky" and n % 3 == 1:
            await asyncio.sleep(3.0)  # longer than the test's request timeout: the client has given up
            return JSONResponse({"error": {"type": "timeout", "message": "nobody is listening any more"}}, status_code=504)
        if self.mode == "slow":
            await asyncio.sleep(self.delay)
        return None

    def call(self, moves_played: int) -> dict[str, Any] | str:
        """The tool call the script makes now: the arguments (a dict) or, when malformed, raw text."""
        move = "roll" if moves_played == 0 else "retreat"
        if self.mode == "illegal":
            return {"move": "dance"}
        if self.mode == "malformed":
            return '{"move": "roll"'
        if self.mode == "cheat":
            return {"move": move, "game_id": "cthulhu-dice-00000000", "token": "made-up-token"}
        return {"move": move}

    # ---- OpenAI ---------------------------------------------------------------------------------
    async def openai(self, request: Request) -> JSONResponse:
        body = await request.json()
        self.requests.append({"api": "openai", "body": body})
        if (failure := await self.trouble()) is not None:
            return failure
        played = sum(1 for m in body["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or []
                     if c["function"]["name"] == "apply_move")
        args = self.call(played)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if self.mode == "chatty":
            message["content"] = "I think I will roll."
        else:
            message["tool_calls"] = [{"id": f"call_{next(self._ids)}", "type": "function", "function": {
                "name": "apply_move", "arguments": args if isinstance(args, str) else json.dumps(args)}}]
        self.answered["openai"] += 1
        return JSONResponse({
            "id": f"chatcmpl-{next(self._ids)}", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls", "logprobs": None}],
            "usage": {"prompt_tokens": USAGE_IN, "completion_tokens": USAGE_OUT, "total_tokens": USAGE_IN + USAGE_OUT},
        })

    # ---- Anthropic ------------------------------------------------------------------------------
    async def anthropic(self, request: Request) -> JSONResponse:
        body = await request.json()
        self.requests.append({"api": "anthropic", "body": body})
        if (failure := await self.trouble()) is not None:
            return failure
        played = sum(1 for m in body["messages"] if m["role"] == "assistant" for b in m["content"]
                     if isinstance(b, dict) and b.get("type") == "tool_use" and b["name"] == "apply_move")
        args = self.call(played)
        if self.mode == "chatty":
            content = [{"type": "text", "text": "I think I will roll."}]
        else:
            content = [{"type": "tool_use", "id": f"toolu_{next(self._ids)}", "name": "apply_move",
                        "input": args if isinstance(args, dict) else {"raw": args}}]
        self.answered["anthropic"] += 1
        return JSONResponse({
            "id": f"msg_{next(self._ids)}", "type": "message", "role": "assistant", "model": body["model"], "content": content,
            "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": USAGE_IN, "output_tokens": USAGE_OUT},
        })
