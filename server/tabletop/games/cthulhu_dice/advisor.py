"""Advice from a solved game: roll on or retreat at any moment of a turn, and the odds of the next roll.

The solver (``solver``) keeps the win probabilities at turn starts only; within a turn the advisor
solves the mover's turn from them on demand (``turn.backward_pass`` for one context, kept in a
small cache) and reads the decision off (rules_text cthulhu-dice/advice).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .model import (
    BUSTED,
    CTHULHU_DICE,
    HAND_SIZE,
    TENTACLES_TO_DOWN,
    DiceRules,
    DiceState,
    hand_distribution,
    initial_state,
    roll_distribution,
    transitions,
)
from .solver import Key, Solution, load_table
from .turn import backward_pass, turn_graph


@dataclass(frozen=True)
class Position:
    """A moment of a turn.

    ``scores``: banked scores of the players still in the game, in seat order; ``mover``: which of them
    is playing this turn (those before it have had their turn this round, those after have not;
    rules_text cthulhu-dice/end). Per-kind tuples follow the bag's kinds (Library, Museum, Tomb).
    ``bag`` None means every die not otherwise placed. Scores above the solution's cap count as the cap.
    """

    scores: tuple[int, ...]
    mover: int
    stash: int = 0
    tentacles: tuple[int, ...] = (0, 0, 0)
    clues: tuple[int, ...] = (0, 0, 0)
    elder_signs: tuple[int, ...] = (0, 0, 0)
    bag: tuple[int, ...] | None = None

    @staticmethod
    def duel(my_score: int, opponent_score: int, opponent_still_to_play: bool, **dice) -> Position:
        """Two players: you and your opponent, who still has a turn this round if you play first."""
        if opponent_still_to_play:
            return Position((my_score, opponent_score), 0, **dice)
        return Position((opponent_score, my_score), 1, **dice)

    @property
    def my_score(self) -> int:
        return self.scores[self.mover]


@dataclass(frozen=True)
class Advice:
    """Roll again or retreat, with the win probability and the Elder Signs expected from each.

    ``win_if_retreat`` and ``expected_signs_if_retreat`` are None before the first roll of a turn,
    when retreating is not allowed; ``win_if_continue`` is None when rolling is not allowed (the bag
    ran short under ``must_retreat``). ``expected_signs_if_continue`` is the stash expected to be
    banked this turn (0 if downed) when rolling now and playing optimally after, counted up to the cap.
    """

    choice: Literal["continue", "retreat"]
    win_if_continue: float | None
    win_if_retreat: float | None
    expected_signs_if_continue: float | None
    expected_signs_if_retreat: int | None


class Advisor:
    """Within-turn decisions from a solution's turn-start values (rules_text cthulhu-dice/turn)."""

    def __init__(self, solution: Solution, cached_turns: int = 16, cached_policies: int = 4096):
        self.solution = solution
        self.rules = solution.rules
        self.game = solution.game
        self.graph = turn_graph(self.rules.dice)
        self.cached_turns = cached_turns
        self.cached_policies = cached_policies
        self.turns: OrderedDict[Key, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.policies: OrderedDict[Key, np.ndarray] = OrderedDict()

    # --- the situation ---------------------------------------------------------------------
    def context(self, position: Position) -> Key:
        """The turn-start context of the mover's turn, checked to be a game in progress."""
        players = self.solution.players
        if len(position.scores) != players:
            raise ValueError(f"this solution is for {players} players, not {len(position.scores)}")
        if not 0 <= position.mover < players:
            raise ValueError(f"the player to move must be one of the {players}")
        if any(s < 0 for s in position.scores):
            raise ValueError("scores cannot be negative")
        scores = tuple(min(s, self.rules.cap) for s in position.scores)
        key = self.game.canonical(position.mover, scores)
        if not self.solution.known(key):
            raise ValueError(
                f"no game is in progress with scores {list(position.scores)} and player {position.mover} to move "
                f"(goal {self.rules.goal}: the players after the mover have not played this round, so they are "
                f"below the goal unless all are tied in a tie-break)"
            )
        return key

    def dice_state(self, position: Position) -> DiceState:
        """The position's dice as a solver state, checked against the bag (rules_text cthulhu-dice/dice)."""
        counts = self.rules.dice.counts
        kinds = len(counts)
        parts = (position.tentacles, position.clues, position.elder_signs)
        if any(len(part) != kinds for part in parts) or (position.bag is not None and len(position.bag) != kinds):
            raise ValueError(f"per-kind counts must have {kinds} entries")
        placed = [t + c + e for t, c, e in zip(*parts)]
        bag = position.bag if position.bag is not None else tuple(n - p for n, p in zip(counts, placed))
        if any(x < 0 for x in tuple(bag) + position.tentacles + position.clues + position.elder_signs):
            raise ValueError("dice counts cannot be negative, nor exceed the dice of a kind")
        if tuple(p + b for p, b in zip(placed, bag)) != tuple(counts):
            raise ValueError(f"dice per kind must add up to the bag {counts}")
        if sum(position.tentacles) >= TENTACLES_TO_DOWN or sum(position.clues) > HAND_SIZE:
            raise ValueError("at most 2 tentacles and 3 clues can be held while the turn goes on")
        if position.stash < sum(position.elder_signs):
            raise ValueError("the stash counts every Elder Sign die set aside, so it cannot be smaller")
        return tuple(position.tentacles) + tuple(position.clues) + tuple(bag)

    def turn_values(self, key: Key) -> tuple[np.ndarray, np.ndarray]:
        """``V[T, state, (win, signs)]`` of the mover's turn in this context (solved once, then cached),
        and the mover's win probability on retreating with each total."""
        if key in self.turns:
            self.turns.move_to_end(key)
            return self.turns[key]
        seat, scores = key
        cap, mover = self.rules.cap, scores[seat]
        hold = np.zeros((cap + 1, 1, 2))
        hold[:, 0, 0] = self.hold(key)
        hold[mover:, 0, 1] = np.arange(cap + 1 - mover)
        bust = np.array([[hold[mover, 0, 0], 0.0]])
        values = backward_pass(self.graph, cap, hold, bust, np.array([mover]), keep_all=True).values[:, :, 0, :]
        self.turns[key] = (values, hold[:, 0, 0].copy())
        while len(self.turns) > self.cached_turns:
            self.turns.popitem(last=False)
        return self.turns[key]

    # --- advice ----------------------------------------------------------------------------
    def advise(self, position: Position) -> Advice:
        """Win probability and expected Elder Signs of continuing and of retreating; the better choice."""
        key = self.context(position)
        state = self.dice_state(position)
        values, held = self.turn_values(key)
        cap = self.rules.cap
        mover = key[1][key[0]]
        total = min(mover + position.stash, cap)
        first_roll = state == initial_state(self.rules.dice) and position.stash == 0
        moves = transitions(self.rules.dice, state)
        win = signs = None
        if moves:
            win = signs = 0.0
            for (gain, nxt), p in moves.items():
                if nxt == BUSTED:
                    win += p * held[mover]
                    continue
                if nxt not in self.graph.index:
                    raise ValueError("this position cannot arise in a turn under these rules")
                reached = values[min(total + gain, cap), self.graph.index[nxt]]
                win += p * reached[0]
                signs += p * reached[1]
        if first_roll:
            return Advice("continue", win, None, signs, None)
        retreat = float(held[total])
        choice = "continue" if win is not None and win > retreat else "retreat"
        return Advice(choice, win, retreat, signs, min(position.stash, cap - mover))

    def hold(self, key: Key) -> np.ndarray:
        """The mover's win probability on retreating with each total (0 below the mover's score)."""
        seat, scores = key
        held = np.zeros(self.rules.cap + 1)
        for total in range(scores[seat], self.rules.cap + 1):
            held[total] = self.solution.resolve(self.game.after(key, total))[seat]
        return held

    def policy(self, key: Key) -> np.ndarray:
        """The mover's decisions in this context, as packed bits over (total, state): roll on or not
        (solved with the win probability only, cached compactly for players such as bots)."""
        if key in self.policies:
            self.policies.move_to_end(key)
            return self.policies[key]
        if key in self.turns:
            values, held = self.turns[key]
            rolls = values[:, :, 0] > held[:, None]
        else:
            held = self.hold(key)
            mover = key[1][key[0]]
            result = backward_pass(self.graph, self.rules.cap, held[:, None, None], held[[mover], None], np.array([mover]), keep_all=True)
            rolls = result.values[:, :, 0, 0] > held[:, None]
        self.policies[key] = np.packbits(rolls, axis=None)
        while len(self.policies) > self.cached_policies:
            self.policies.popitem(last=False)
        return self.policies[key]

    def continues(self, position: Position) -> bool:
        """The optimal choice alone: roll on iff the position is worth more than banking now. As
        ``advise(...).choice == "continue"``, without the roll's odds (read from a cached policy)."""
        key = self.context(position)
        state = self.dice_state(position)
        if state == initial_state(self.rules.dice) and position.stash == 0:
            return True
        mover = key[1][key[0]]
        total = min(mover + position.stash, self.rules.cap)
        bit = total * len(self.graph.states) + self.graph.index[state]
        return bool((self.policy(key)[bit >> 3] >> (7 - (bit & 7))) & 1)


_default: dict[int, Advisor] = {}


def default_advisor(players: int = 2) -> Advisor:
    """Advisor on the shipped table of the standard game for ``players`` (2 or 3)."""
    if players not in _default:
        _default[players] = Advisor(load_table(players=players), cached_turns=64)
    return _default[players]


def advise(position: Position, advisor: Advisor | None = None) -> Advice:
    """Optimal within-turn decision for ``position`` (default: the shipped standard table for its players)."""
    return (advisor or default_advisor(len(position.scores))).advise(position)


# ---------------------------------------------------------------------------------------------
# Odds of the next roll
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollResult:
    """One possible result of the next roll: faces shown by the dice rolled and its probability."""

    elder_signs: int
    clues: int
    tentacles: int
    probability: float
    downed: bool


@dataclass(frozen=True)
class RollOdds:
    """Exact distribution of the next roll, including the random draw from the bag."""

    results: tuple[RollResult, ...]
    p_downed: float
    expected_elder_signs: float
    expected_tentacles: float


def roll_odds(
    clues: tuple[int, ...],
    bag: tuple[int, ...],
    tentacles: tuple[int, ...] = (0, 0, 0),
    elder_signs: tuple[int, ...] = (0, 0, 0),
    dice: DiceRules = CTHULHU_DICE.dice,
) -> RollOdds:
    """Distribution of (Elder Signs, Clues, Tentacles) shown by the next roll and the chance of being downed.

    The clue dice in hand are rolled with dice drawn from ``bag`` up to three; ``elder_signs`` (set
    aside this turn) matter when the bag runs short (``dice.exhaustion``, rules_text
    cthulhu-dice/rulings); ``tentacles`` already set aside count towards the three that down the
    player (rules_text cthulhu-dice/turn). Raises ValueError if rolling is not allowed.
    """
    counts = tuple(t + c + e + b for t, c, e, b in zip(tentacles, clues, elder_signs, bag))
    rules = DiceRules(counts=counts, faces=dice.faces, exhaustion=dice.exhaustion)
    state = tuple(tentacles) + tuple(clues) + tuple(bag)
    hands = hand_distribution(rules, state)
    if not hands:
        raise ValueError(f"rolling is not allowed here: the bag is short and the ruling is {dice.exhaustion}")
    spread: dict[tuple[int, int, int], float] = {}
    for hand, _, p_hand in hands:
        for signs, shown_clues, shown_tentacles, p_roll in roll_distribution(rules.faces, hand):
            key = (signs, sum(shown_clues), sum(shown_tentacles))
            spread[key] = spread.get(key, 0.0) + p_hand * p_roll
    held = sum(tentacles)
    results = tuple(
        RollResult(s, c, t, p, held + t >= TENTACLES_TO_DOWN) for (s, c, t), p in sorted(spread.items())
    )
    return RollOdds(
        results=results,
        p_downed=sum(r.probability for r in results if r.downed),
        expected_elder_signs=sum(r.probability * r.elder_signs for r in results),
        expected_tentacles=sum(r.probability * r.tentacles for r in results),
    )
