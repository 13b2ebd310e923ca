"""The bots each game offers, by name, for tournaments and for advice (``suggest_move``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from .base import Budget, RandomBot, Suggestion

#: game -> bot name -> one line on what it is (the first is the default for advice).
BOTS: dict[str, dict[str, str]] = {
    "game-of-war": {
        "heuristic": "plans the whole turn greedily with a static evaluation (material, lines, threats)",
        "search": "plays whole turns out against the opponent's reply and a turn more each",
        "raider": "scripted: a cavalry raid on the weaker arsenal with a relay behind; attacks only to destroy",
        "random": "a uniformly random legal move (a baseline)",
    },
    "cthulhu-wars": {
        "heuristic": "tries every legal answer one step ahead on sampled hidden information and scores it",
        "search": "Monte Carlo search over sampled Elder Signs and dice, the best candidates played on",
        "rusher": "scripted: Awakens its Great Old One at once and marches it on the nearest lone enemy Gate (a benchmark rival)",
        "random": "a uniformly random legal move (a baseline)",
    },
    "cthulhu-dice": {
        "optimal": "exact optimal play (two players; the strongest rival for more)",
        "random": "a uniformly random legal move (a baseline)",
    },
}


def make_bot(game: str, name: str, seed: int = 0, seconds: float | None = None) -> Any:
    """A new bot ``name`` for ``game`` (KeyError if the game has no such bot)."""
    if name not in BOTS.get(game, {}):
        raise KeyError(name)
    if name == "random":
        return RandomBot(seed)
    factories: dict[tuple[str, str], Callable[[], Any]] = {
        ("game-of-war", "heuristic"): lambda: _war().WarHeuristicBot(seed),
        ("game-of-war", "search"): lambda: _war_search().WarSearchBot(seed, seconds=seconds or _war_search().DEFAULT_SECONDS),
        ("game-of-war", "raider"): lambda: _war_raider().WarRaiderBot(seed),
        ("cthulhu-wars", "heuristic"): lambda: _cw().CwHeuristicBot(seed),
        ("cthulhu-wars", "search"): lambda: _cw_search().CwSearchBot(seed, seconds=seconds or _cw_search().DEFAULT_SECONDS),
        ("cthulhu-wars", "rusher"): lambda: _cw_rusher().CwRusherBot(seed),
        ("cthulhu-dice", "optimal"): lambda: _dice().OptimalBot(),
    }
    return factories[(game, name)]()


def advice_seed(game_id: str, ply: int, seat: int) -> int:
    """The bot seed for advice on one position: the same question gets the same answer (time budget aside)."""
    digest = hashlib.sha256(f"{game_id}:{ply}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def suggest(engine: Any, state: Any, seat: int, game: str, name: str, seed: int, seconds: float) -> Suggestion:
    """What bot ``name`` would play for ``seat`` now, thinking for at most about ``seconds``."""
    bot = make_bot(game, name, seed, seconds)
    return bot.suggest(engine, state, seat, Budget(seconds=seconds))


def _war():
    from .game_of_war import heuristic

    return heuristic


def _war_search():
    from .game_of_war import search

    return search


def _war_raider():
    from .game_of_war import raider

    return raider


def _cw():
    from .cthulhu_wars import heuristic

    return heuristic


def _cw_search():
    from .cthulhu_wars import search

    return search


def _cw_rusher():
    from .cthulhu_wars import rusher

    return rusher


def _dice():
    from . import cthulhu_dice

    return cthulhu_dice


__all__ = ["BOTS", "advice_seed", "make_bot", "suggest"]
