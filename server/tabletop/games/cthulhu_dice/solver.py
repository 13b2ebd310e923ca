"""Exact optimal play for two-player Cthulhu Dice: solver, turn-start table, advisor and roll odds.

The game (rules_text cthulhu-dice/turn, /end, /rulings) is Zombie Dice with a different bag, so
the same model serves both: a bag of dice of a few kinds, each die with Elder Sign, Clue and
Tentacle faces. Pure Python and numpy; nothing here knows about MCP.

Model
-----
* A *dice state* is (tentacles per kind, clues in hand per kind, dice in the bag per kind); the
  Elder Sign dice set aside are what is left of each kind. With the turn's running total
  ``T = min(score + stash, cap)`` it is the whole state of a turn.
* A *context* is the situation a turn is played in: who moves (``first`` or ``second`` seat of
  the round), the mover's banked score ``m`` and the other player's ``o``. The mover's win
  probability on retreating with total ``T`` is ``hold[T]``; being downed is the same as banking 0,
  ``hold[m]``.
* Within a turn the only cycle is a hand of three clues rolled back to three clues; it is solved
  in closed form (``v = max(retreat, q / (1 - p_self))``). Everything else within a turn is a DAG,
  processed by decreasing total, then decreasing tentacles, three-clue states before the others.
* Across turns the score pair ``(first, second)`` never decreases; the only cycle between
  turn-start values is a pair with itself (both players banking nothing). Pairs are solved by
  decreasing ``first + second`` (one numpy batch per anti-diagonal) and each pair's 2-cycle by
  Newton's method on the two turn-start values, using the derivative of each turn's value with
  respect to its downed value (the probability of ending the turn with nothing). A turn's value
  is piecewise linear in its downed value; the backward pass also finds how far that value can
  move before any decision changes, so a Newton step that stays inside is exact, not approximate.
* The first player already at or above the goal leaves the second a race (win above, tie at,
  lose below that score) whose values do not depend on the second's score: one solve per score.
* Scores are capped at ``cap`` (26, twice the goal, as in T. Neller's Zombie Dice solver); both
  players at the cap counts as half a win. Win probabilities are exact for the capped game. At the
  cap the only choice left is to retreat or to roll until downed (being downed is never better
  than banking the cap in these games, which the shortcut relies on).

Tie rule (rules_text cthulhu-dice/end): ``tiebreak_rounds`` (default) - tied leaders at or above
the goal after a full round play further rounds; ``shared_win`` - a tie at the end counts as half
a win for each player.
"""

from __future__ import annotations

import json
import math
from collections import deque
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Literal

import numpy as np

#: Dice rolled each time (rules_text cthulhu-dice/turn).
HAND_SIZE = 3
#: Tentacles that down the player and lose the stash (rules_text cthulhu-dice/turn).
TENTACLES_TO_DOWN = 3

FIRST, SECOND = 0, 1
TieRule = Literal["tiebreak_rounds", "shared_win"]
Exhaustion = Literal["return_elder_signs", "draw_then_return"]

#: Where ``build_table`` writes and ``load_table`` reads the shipped table.
DATA_DIR = Path(__file__).with_name("data")
TABLE_PATH = DATA_DIR / "optimal_2p_13.json"


@dataclass(frozen=True)
class DiceRules:
    """The bag and the dice: ``counts[k]`` dice of kind k with ``faces[k]`` = (Elder Signs, Clues, Tentacles) sides.

    ``exhaustion`` is the ruling when the bag holds fewer dice than must be drawn
    (rules_text cthulhu-dice/rulings): ``return_elder_signs`` puts the set-aside Elder Sign dice back
    into the bag, then draws (the engine's ruling); ``draw_then_return`` first draws every die left
    in the bag, then puts the Elder Sign dice back and draws the rest (the reading in T. Neller's
    Zombie Dice solver). Either way the stash keeps its count.
    """

    counts: tuple[int, ...] = (8, 4, 3)
    faces: tuple[tuple[int, int, int], ...] = ((3, 2, 1), (2, 2, 2), (1, 2, 3))
    exhaustion: Exhaustion = "return_elder_signs"


@dataclass(frozen=True)
class GameRules:
    """Two-player game parameters: dice, goal, score cap and tie rule (rules_text cthulhu-dice/end)."""

    dice: DiceRules = field(default_factory=DiceRules)
    goal: int = 13
    cap: int = 26
    tie_rule: TieRule = "tiebreak_rounds"


#: Our game: 8 Library, 4 Museum, 3 Tomb dice (seed rules), engine rulings.
CTHULHU_DICE = GameRules()
#: Standard Zombie Dice (6 green, 4 yellow, 3 red), as modelled by T. Neller's solver.
ZOMBIE_DICE = GameRules(dice=DiceRules(counts=(6, 4, 3), exhaustion="draw_then_return"))
#: T. Neller's published first-player win probability for ZOMBIE_DICE under optimal play.
NELLER_ZOMBIE_DICE_FIRST_PLAYER = 0.4648573


# ---------------------------------------------------------------------------------------------
# Dice: draws, rolls, transitions
# ---------------------------------------------------------------------------------------------

DiceState = tuple[int, ...]  # tentacles per kind + clues per kind + bag per kind
BUSTED = -1


def split_state(state: DiceState, kinds: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(tentacles, clues, bag) per kind of a dice state."""
    return state[:kinds], state[kinds : 2 * kinds], state[2 * kinds :]


def initial_state(dice: DiceRules) -> DiceState:
    """Turn start: nothing set aside, no clues, every die in the bag (rules_text cthulhu-dice/turn)."""
    kinds = len(dice.counts)
    return (0,) * (2 * kinds) + tuple(dice.counts)


def elder_sign_dice(dice: DiceRules, state: DiceState) -> tuple[int, ...]:
    """Elder Sign dice set aside this turn per kind: the dice neither tentacles, clues nor in the bag."""
    tentacles, clues, bag = split_state(state, len(dice.counts))
    return tuple(n - t - c - b for n, t, c, b in zip(dice.counts, tentacles, clues, bag))


@lru_cache(maxsize=None)
def draw_distribution(bag: tuple[int, ...], count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Dice drawn per kind when ``count`` dice are drawn uniformly at random from ``bag`` (hypergeometric)."""
    total = math.comb(sum(bag), count)
    outcomes = []
    for drawn in product(*(range(min(n, count) + 1) for n in bag)):
        if sum(drawn) == count:
            ways = math.prod(math.comb(n, d) for n, d in zip(bag, drawn))
            outcomes.append((drawn, ways / total))
    return tuple(outcomes)


@lru_cache(maxsize=None)
def die_kind_roll(face: tuple[int, int, int], dice: int) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """(Elder Signs, Clues, Tentacles) shown by ``dice`` dice of one kind, with probabilities (multinomial)."""
    sides = sum(face)
    outcomes = []
    for signs in range(dice + 1):
        for clues in range(dice - signs + 1):
            tentacles = dice - signs - clues
            ways = math.factorial(dice) // (math.factorial(signs) * math.factorial(clues) * math.factorial(tentacles))
            p = ways * face[0] ** signs * face[1] ** clues * face[2] ** tentacles / sides**dice
            if p > 0:
                outcomes.append(((signs, clues, tentacles), p))
    return tuple(outcomes)


@lru_cache(maxsize=None)
def roll_distribution(
    faces: tuple[tuple[int, int, int], ...], hand: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...], float], ...]:
    """Rolling ``hand`` (dice per kind): (Elder Signs, clues per kind, tentacles per kind, p) per result."""
    outcomes = []
    for combo in product(*(die_kind_roll(face, n) for face, n in zip(faces, hand))):
        shown = [part[0] for part in combo]
        p = math.prod(part[1] for part in combo)
        outcomes.append((sum(f[0] for f in shown), tuple(f[1] for f in shown), tuple(f[2] for f in shown), p))
    return tuple(outcomes)


def hand_distribution(dice: DiceRules, state: DiceState) -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    """The dice rolled on continuing and the bag after drawing: list of (hand per kind, bag per kind, p).

    Draw back up to three dice (rules_text cthulhu-dice/turn); a bag too small triggers the
    exhaustion ruling (rules_text cthulhu-dice/rulings).
    """
    _, clues, bag = split_state(state, len(dice.counts))
    need = HAND_SIZE - sum(clues)
    forced = (0,) * len(bag)
    if need > sum(bag):
        signs = elder_sign_dice(dice, state)
        if dice.exhaustion == "return_elder_signs":
            bag = tuple(b + s for b, s in zip(bag, signs))
        else:
            forced, bag, need = bag, signs, need - sum(bag)
    outcomes = []
    for drawn, p in draw_distribution(bag, need):
        hand = tuple(c + f + d for c, f, d in zip(clues, forced, drawn))
        outcomes.append((hand, tuple(b - d for b, d in zip(bag, drawn)), p))
    return outcomes


def transitions(dice: DiceRules, state: DiceState) -> dict[tuple[int, int | DiceState], float]:
    """Result of continuing from ``state``: {(Elder Signs gained, next dice state or BUSTED): p}.

    Elder Signs go to the stash, tentacles are set aside, clues stay in hand; three tentacles in
    all down the player (rules_text cthulhu-dice/turn). A downed result is keyed (0, BUSTED).
    """
    tentacles = split_state(state, len(dice.counts))[0]
    held = sum(tentacles)
    result: dict[tuple[int, int | DiceState], float] = {}
    for hand, bag, p_hand in hand_distribution(dice, state):
        for signs, clues, shown_tentacles, p_roll in roll_distribution(dice.faces, hand):
            if held + sum(shown_tentacles) >= TENTACLES_TO_DOWN:
                key: tuple[int, int | DiceState] = (0, BUSTED)
            else:
                key = (signs, tuple(t + s for t, s in zip(tentacles, shown_tentacles)) + clues + bag)
            result[key] = result.get(key, 0.0) + p_hand * p_roll
    return result


# ---------------------------------------------------------------------------------------------
# The turn graph: every dice state reachable in a turn, ordered for the backward pass
# ---------------------------------------------------------------------------------------------


@dataclass
class TransitionBlock:
    """Transitions out of one group of dice states, flattened for numpy (self-loops kept apart)."""

    states: np.ndarray  # global indices of the group's states
    starts: np.ndarray  # offsets of each state's transitions in the flat arrays (for reduceat)
    dest: np.ndarray  # next state per transition
    gain: np.ndarray  # Elder Signs gained per transition
    prob: np.ndarray  # probability per transition
    p_bust: np.ndarray  # probability of being downed, per state
    p_self: np.ndarray  # probability of returning to the same state (three clues re-rolled), per state
    signs_aside: np.ndarray  # Elder Sign dice set aside, per state (ascending)
    must_roll: int  # row of the turn-start state (no retreat before the first roll), or -1

    chunk_rows: dict[int, np.ndarray] = field(default_factory=dict)  # row boundaries per chunk size

    def rows_within(self, signs: int) -> int:
        """How many leading states have at most ``signs`` Elder Sign dice set aside.

        The stash counts every Elder Sign die set aside, so a stash of ``signs`` rules the others out.
        """
        return int(np.searchsorted(self.signs_aside, signs, side="right"))

    def chunks(self, moves: int) -> np.ndarray:
        """Row boundaries splitting the block into runs of at most ``moves`` transitions (a larger row alone)."""
        if moves not in self.chunk_rows:
            bounds = [0]
            ends = np.append(self.starts[1:], len(self.dest))
            for row in range(len(self.starts)):
                if ends[row] - self.starts[bounds[-1]] > moves and row > bounds[-1]:
                    bounds.append(row)
            bounds.append(len(self.starts))
            self.chunk_rows[moves] = np.array(bounds, dtype=np.int64)
        return self.chunk_rows[moves]

    def largest_chunk(self, moves: int) -> int:
        """Most transitions in one chunk of ``chunks(moves)``."""
        bounds = self.chunks(moves)
        return int(np.diff(np.append(self.starts[bounds[:-1]], len(self.dest))).max())

    def move_bounds(self, first_row: int, end_row: int) -> tuple[int, int]:
        """Range of the transitions of rows ``first_row`` to ``end_row`` (exclusive)."""
        end = int(self.starts[end_row]) if end_row < len(self.starts) else len(self.dest)
        return int(self.starts[first_row]), end


#: Values handled per numpy step of the backward pass (transitions x columns), so its buffers stay in cache.
CHUNK_CELLS = 1 << 18


@dataclass
class TurnGraph:
    """All dice states of a turn and the transition blocks in backward-pass order."""

    dice: DiceRules
    states: list[DiceState]
    index: dict[DiceState, int]
    blocks: list[TransitionBlock]

    @property
    def start(self) -> int:
        """Index of the turn-start dice state (before the mandatory first roll)."""
        return self.index[initial_state(self.dice)]


def reachable_states(dice: DiceRules) -> dict[DiceState, dict]:
    """Breadth-first search over dice states from the turn start, with each state's transitions."""
    start = initial_state(dice)
    found = {start: transitions(dice, start)}
    queue = deque([start])
    while queue:
        for _, nxt in found[queue.popleft()]:
            if nxt != BUSTED and nxt not in found:
                found[nxt] = transitions(dice, nxt)
                queue.append(nxt)
    return found


def group_order(dice: DiceRules, state: DiceState) -> tuple[int, int]:
    """Backward-pass group at a fixed total: more tentacles first, then three clues in hand first.

    At an unchanged total, a roll with no Elder Sign either adds a tentacle or shows three clues,
    so every same-total successor is in an earlier group, or is the state itself (three clues).
    """
    tentacles, clues, _ = split_state(state, len(dice.counts))
    return (-sum(tentacles), 0 if sum(clues) == HAND_SIZE else 1)


def build_block(dice: DiceRules, members: list[DiceState], index: dict[DiceState, int], moves: dict) -> TransitionBlock:
    """Flatten the transitions of one group of states; a state with none gets a zero-probability dummy."""
    starts, dest, gain, prob, p_bust, p_self = [], [], [], [], [], []
    for state in members:
        starts.append(len(dest))
        bust = same = 0.0
        for (signs, nxt), p in moves[state].items():
            if nxt == BUSTED:
                bust += p
            elif nxt == state and signs == 0:
                same += p
            else:
                dest.append(index[nxt])
                gain.append(signs)
                prob.append(p)
        if len(dest) == starts[-1]:
            dest.append(0)
            gain.append(0)
            prob.append(0.0)
        p_bust.append(bust)
        p_self.append(same)
    return TransitionBlock(
        states=np.array([index[s] for s in members], dtype=np.int64),
        starts=np.array(starts, dtype=np.int64),
        dest=np.array(dest, dtype=np.int64),
        gain=np.array(gain, dtype=np.int64),
        prob=np.array(prob),
        p_bust=np.array(p_bust),
        p_self=np.array(p_self),
        signs_aside=np.array([sum(elder_sign_dice(dice, s)) for s in members], dtype=np.int64),
        must_roll=members.index(initial_state(dice)) if initial_state(dice) in members else -1,
    )


@lru_cache(maxsize=8)
def turn_graph(dice: DiceRules) -> TurnGraph:
    """Enumerate the reachable dice states of ``dice`` and group their transitions for the solver."""
    if sum(dice.counts) < HAND_SIZE:
        raise ValueError(f"a bag of {sum(dice.counts)} dice cannot fill a hand of {HAND_SIZE}")
    moves = reachable_states(dice)
    states = sorted(moves, key=lambda s: (group_order(dice, s), sum(elder_sign_dice(dice, s)), s))
    index = {s: i for i, s in enumerate(states)}
    groups: dict[tuple[int, int], list[DiceState]] = {}
    for state in states:
        groups.setdefault(group_order(dice, state), []).append(state)
    blocks = [build_block(dice, groups[key], index, moves) for key in sorted(groups)]
    return TurnGraph(dice=dice, states=states, index=index, blocks=blocks)


# ---------------------------------------------------------------------------------------------
# One turn, many contexts at once: the backward pass
# ---------------------------------------------------------------------------------------------


def chunk_roll_values(
    block: TransitionBlock, rows: tuple[int, int], total: int, cap: int, table: np.ndarray, cols: slice, buffer: np.ndarray
) -> np.ndarray:
    """Rows ``rows[0]:rows[1]`` of a block: sum over transitions of probability times the value reached
    (``table`` rows are ``T * states + state``; only columns ``cols`` are summed), leaving out downed
    results and three-clue self-loops."""
    begin, end = block.move_bounds(*rows)
    states = table.shape[0] // (cap + 1)
    reached = block.dest[begin:end] + states * np.minimum(total + block.gain[begin:end], cap)
    picked = buffer[: (end - begin) * table.shape[1]].reshape(end - begin, table.shape[1])
    np.take(table, reached, axis=0, out=picked, mode="clip")
    used = picked[:, cols]
    used *= block.prob[begin:end, None]
    return np.add.reduceat(used, block.starts[rows[0] : rows[1]] - begin, axis=0)


@dataclass
class PolicyRange:
    """Per context, how far the downed value may move (``lower <= change <= upper``) with no decision changing.

    Within that range every turn value is exactly linear in the downed value, which lets Newton's
    method stop as soon as its step stays inside.
    """

    lower: np.ndarray
    upper: np.ndarray

    def record(self, margin: np.ndarray, slope: np.ndarray, valid: np.ndarray, contexts: slice) -> None:
        """Narrow the range with decisions whose retreat-minus-roll is ``margin + slope * change``.

        Retreat is chosen while that is >= 0, so a decision changes at ``-margin / slope``: above it
        when retreating with a negative slope or rolling with a positive one, below it otherwise.
        """
        with np.errstate(divide="ignore", invalid="ignore"):
            root = np.where(valid & (slope != 0), -margin / slope, np.nan)
        above = (margin >= 0) == (slope < 0)
        self.upper[contexts] = np.minimum(self.upper[contexts], np.where(above & ~np.isnan(root), root, np.inf).min(axis=0))
        self.lower[contexts] = np.maximum(self.lower[contexts], np.where(~above & ~np.isnan(root), root, -np.inf).max(axis=0))


def choose_at_cap(
    retreat_value: np.ndarray, bust: np.ndarray, channels: int, valid: np.ndarray, ranges: PolicyRange | None, span: slice
) -> np.ndarray:
    """At the score cap more Elder Signs change nothing: retreat, or roll until downed, whichever is better."""
    roll_on = bust[::channels] > retreat_value[::channels]
    if ranges is not None:
        margin = (retreat_value[::channels] - bust[::channels])[None]
        ranges.record(margin, (retreat_value[1::channels] - bust[1::channels])[None], valid[None], span)
    return np.where(np.repeat(roll_on, channels), bust, retreat_value)


def choose(
    retreat_value: np.ndarray,
    roll: np.ndarray,
    channels: int,
    must_roll: int | None,
    valid: np.ndarray,
    ranges: PolicyRange | None,
    span: slice,
) -> np.ndarray:
    """Retreat or roll for each state (rows) and context: the better win probability, retreat on a tie.

    The turn's first roll (row ``must_roll``) is mandatory (rules_text cthulhu-dice/turn).
    """
    margin = retreat_value[::channels] - roll[:, ::channels]
    retreat = margin >= 0
    if must_roll is not None:
        retreat[must_roll] = False
        valid = valid.copy()
        valid[must_roll] = False
    if ranges is not None:
        ranges.record(margin, retreat_value[1::channels] - roll[:, 1::channels], valid, span)
    return np.where(np.repeat(retreat, channels, axis=1), retreat_value, roll)


def backward_pass(
    graph: TurnGraph, cap: int, hold: np.ndarray, bust: np.ndarray, first_total: np.ndarray, ranges: PolicyRange | None = None
) -> np.ndarray:
    """Optimal values of every turn state for a batch of contexts (rules_text cthulhu-dice/turn).

    ``hold[T, j, ch]``: channel ``ch`` of retreating with total ``T`` in context ``j``; channel 0 is
    the win probability, which makes the decisions, and the other channels follow those decisions
    (e.g. the derivative with respect to the downed value, or the Elder Signs banked).
    ``bust[j, ch]``: the same for being downed. ``first_total[j]``: the mover's banked score.
    Returns ``V[T, state, j, ch]``, valid for ``T >= first_total[j]`` and states whose Elder Sign
    dice set aside fit in the stash ``T - first_total[j]``. Where retreating already wins for sure
    nothing is computed (the value is the retreat value). With ``ranges`` (channel 1 must be the
    derivative w.r.t. the downed value) it also records how far that value may move with the same
    decisions.

    At total ``cap`` more Elder Signs change nothing, so the choice is to retreat or to roll until
    downed (three clues cannot repeat forever); below it, each state is the better of retreating and
    rolling, with the three-clue self-loop in closed form.
    """
    states = len(graph.states)
    contexts, channels = bust.shape
    width = contexts * channels
    flat_hold = hold.reshape(cap + 1, width)
    flat_bust = bust.reshape(width)
    values = np.empty((cap + 1, states, width))
    values[:] = flat_hold[:, None, :]
    table = values.reshape((cap + 1) * states, width)
    chunk_moves = max(1, CHUNK_CELLS // width)
    buffer = np.empty(max(block.largest_chunk(chunk_moves) for block in graph.blocks) * width)
    for total in range(cap, int(first_total.min()) - 1, -1):
        undecided = (first_total <= total) & (hold[total, :, 0] < 1.0)
        needed = np.flatnonzero(undecided)
        if needed.size == 0:
            continue
        span = slice(needed[0], needed[-1] + 1)
        lo, hi = span.start * channels, span.stop * channels
        retreat_value = flat_hold[total, lo:hi]
        if total == cap:
            values[cap, :, lo:hi] = choose_at_cap(retreat_value, flat_bust[lo:hi], channels, undecided[span], ranges, span)
            continue
        stash_room = total - first_total[span]
        for block in graph.blocks:
            rows = block.rows_within(int(stash_room[undecided[span]].max()))
            bounds = block.chunks(chunk_moves)
            for first_row, end_row in zip(bounds[:-1], bounds[1:]):
                if first_row >= rows:
                    break
                end_row = min(end_row, rows)
                roll = chunk_roll_values(block, (first_row, end_row), total, cap, table, slice(lo, hi), buffer)
                roll += block.p_bust[first_row:end_row, None] * flat_bust[lo:hi]
                roll /= 1.0 - block.p_self[first_row:end_row, None]
                must_roll = block.must_roll - first_row if first_row <= block.must_roll < end_row else None
                valid = undecided[span] & (block.signs_aside[first_row:end_row, None] <= stash_room)
                chosen = choose(retreat_value, roll, channels, must_roll, valid, ranges, span)
                values[total, block.states[first_row:end_row], lo:hi] = chosen
    return values.reshape(cap + 1, states, contexts, channels)


# ---------------------------------------------------------------------------------------------
# The two-player game: turn-start values by anti-diagonals of the score pair
# ---------------------------------------------------------------------------------------------


@dataclass
class Solution:
    """Turn-start win probabilities of the player to move, indexed ``[first's score, second's score]``.

    ``first_to_move[f, s]``: the first player of the round is about to roll (the opponent still has a
    turn this round). ``second_to_move[f, s]``: the second player is about to roll (their turn ends the
    round). NaN where the position cannot occur.
    """

    rules: GameRules
    first_to_move: np.ndarray
    second_to_move: np.ndarray
    turn_solves: int = 0

    @property
    def first_player_win(self) -> float:
        """Probability that the first player wins from 0-0 under optimal play by both."""
        return float(self.first_to_move[0, 0])


def round_end_value(rules: GameRules, first_to_move: np.ndarray, first: int, second: int) -> float:
    """Second player's win probability once their turn ends the round at ``first``-``second`` (rules_text cthulhu-dice/end).

    Someone at the goal: the higher score wins; a tie plays further rounds (``tiebreak_rounds``,
    both at the cap counting as half a win) or is half a win (``shared_win``). Otherwise play goes on.
    """
    if max(first, second) >= rules.goal and first != second:
        return 1.0 if second > first else 0.0
    if first == second >= rules.goal and (rules.tie_rule == "shared_win" or first == rules.cap):
        return 0.5
    return 1.0 - first_to_move[first, second]


def hold_for_first(solution: Solution, first: int, second: int) -> np.ndarray:
    """First player's win probability on retreating with each total T >= ``first``: the second then moves."""
    held = np.zeros(solution.rules.cap + 1)
    held[first:] = 1.0 - solution.second_to_move[first:, second]
    return held


def hold_for_second(solution: Solution, first: int, second: int) -> np.ndarray:
    """Second player's win probability on retreating with each total T >= ``second``: the round ends."""
    held = np.zeros(solution.rules.cap + 1)
    for total in range(second, solution.rules.cap + 1):
        held[total] = round_end_value(solution.rules, solution.first_to_move, first, total)
    return held


def context_order(holds: list[np.ndarray], movers: list[int]) -> list[int]:
    """Order contexts so those still undecided at each total are contiguous.

    Contexts where retreating wins for sure from some total on (the round's last turn) come first,
    highest score first; the others follow, lowest score first.
    """
    return sorted(range(len(movers)), key=lambda j: (0, -movers[j]) if holds[j].max() >= 1.0 else (1, movers[j]))


def solve_contexts(graph: TurnGraph, rules: GameRules, holds: list[np.ndarray], movers: list[int]):
    """Turn-start values and their derivatives w.r.t. the downed value, for contexts solved together.

    ``holds[j]`` is context j's retreat value per total; being downed is worth ``holds[j][movers[j]]``
    (the same as banking nothing). Returns the values, their derivatives w.r.t. the downed value and
    the range of changes of that value over which the values stay exactly linear (``PolicyRange``).
    """
    cap = rules.cap
    order = context_order(holds, movers)
    hold = np.zeros((cap + 1, len(movers), 2))
    bust = np.zeros((len(movers), 2))
    for j, k in enumerate(order):
        hold[:, j, 0] = holds[k]
        hold[movers[k], j, 1] = 1.0
        bust[j] = holds[k][movers[k]], 1.0
    first_total = np.asarray(movers)[order]
    ranges = PolicyRange(np.full(len(movers), -np.inf), np.full(len(movers), np.inf))
    values = backward_pass(graph, cap, hold, bust, first_total, ranges)
    start = np.empty((len(movers), 2))
    start[order] = values[first_total, graph.start, np.arange(len(movers))]
    lower, upper = np.empty(len(movers)), np.empty(len(movers))
    lower[order], upper[order] = ranges.lower, ranges.upper
    return start[:, 0], start[:, 1], lower, upper


def single_context(graph: TurnGraph, rules: GameRules, held: np.ndarray, mover: int, with_stash: bool = False) -> np.ndarray:
    """``V[T, state, ch]`` for one context: channel 0 the win probability, channel 1 (``with_stash``)
    the Elder Signs banked this turn under the optimal choices (the stash counted up to the cap)."""
    cap = rules.cap
    channels = 2 if with_stash else 1
    hold = np.zeros((cap + 1, 1, channels))
    hold[:, 0, 0] = held
    bust = np.zeros((1, channels))
    bust[0, 0] = held[mover]
    if with_stash:
        hold[mover:, 0, 1] = np.arange(cap + 1 - mover)
    return backward_pass(graph, cap, hold, bust, np.array([mover]))[:, :, 0]


def pairs_below_goal(rules: GameRules, diagonal: int) -> list[tuple[int, int]]:
    """Score pairs (first, second), both below the goal, on the anti-diagonal ``first + second = diagonal``.

    Either seat can be about to move there, and banking nothing in both turns returns to the same
    pair: with a tie at/above the goal, the only cycle between turns (rules_text cthulhu-dice/end).
    """
    return [(f, diagonal - f) for f in range(max(0, diagonal - rules.goal + 1), min(diagonal, rules.goal - 1) + 1)]


def neighbour_guess(values: np.ndarray, first: int, second: int) -> float:
    """Starting guess for a turn-start value from solved pairs one and two points up.

    Bilinear extrapolation ``W[f+1, s] + W[f, s+1] - W[f+1, s+1]`` when all three are known, else
    their mean, else 1/2.
    """
    cap = values.shape[0] - 1
    up = values[first + 1, second] if first < cap else np.nan
    right = values[first, second + 1] if second < cap else np.nan
    corner = values[first + 1, second + 1] if max(first, second) < cap else np.nan
    if not np.isnan([up, right, corner]).any():
        return float(np.clip(up + right - corner, 0.0, 1.0))
    near = [x for x in (up, right) if not np.isnan(x)]
    return float(np.mean(near)) if near else 0.5


def solve_pairs(graph: TurnGraph, solution: Solution, pairs: list[tuple[int, int]], tol: float = 1e-14) -> None:
    """Solve the coupled turn-start values of ``pairs`` (first to move u, second to move v) by Newton's method.

    u = g1(1 - v) and v = g2(1 - u), where g is a turn's value as a function of its downed value:
    convex, piecewise linear, slope the chance of banking nothing. Each step solves both turns of
    every unfinished pair in one batch. A pair is done when its Newton step stays where no decision
    changes (the linear model is then exact) or its values reproduce themselves to ``tol``.
    """
    first_move, second_move = solution.first_to_move, solution.second_to_move
    guess = {(f, s): (neighbour_guess(first_move, f, s), neighbour_guess(second_move, f, s)) for f, s in pairs}
    for _ in range(50):
        if not guess:
            return
        pending = list(guess)
        for (f, s), (u, v) in guess.items():
            first_move[f, s], second_move[f, s] = u, v
        holds = [hold_for_first(solution, f, s) for f, s in pending] + [hold_for_second(solution, f, s) for f, s in pending]
        movers = [f for f, _ in pending] + [s for _, s in pending]
        value, slope, lower, upper = solve_contexts(graph, solution.rules, holds, movers)
        solution.turn_solves += 1
        n = len(pending)
        u, v = np.array([guess[p] for p in pending]).T
        residual_u, residual_v = u - value[:n], v - value[n:]
        b_first, b_second = slope[:n], slope[n:]
        det = 1.0 - b_first * b_second
        du = (-residual_u + b_first * residual_v) / det
        dv = (-residual_v + b_second * residual_u) / det
        exact = (lower[:n] <= -dv) & (-dv <= upper[:n]) & (lower[n:] <= -du) & (-du <= upper[n:])
        settled = np.maximum(np.abs(residual_u), np.abs(residual_v)) <= tol
        for i, pair in enumerate(pending):
            if settled[i]:
                first_move[pair], second_move[pair] = value[i], value[n + i]
                del guess[pair]
            elif exact[i]:
                first_move[pair], second_move[pair] = u[i] + du[i], v[i] + dv[i]
                del guess[pair]
            else:
                guess[pair] = (u[i] + du[i], v[i] + dv[i])
    raise RuntimeError(f"turn-start values did not converge on pairs {sorted(guess)}")


def solve_race(graph: TurnGraph, solution: Solution, first: int) -> None:
    """Second player's values when the first already has ``first`` >= goal: beat it this turn or lose.

    Retreat values then depend only on the total (lose below ``first``, tie at it, win above) and
    being downed loses, so one turn solved from 0 gives ``second_to_move[first, s]`` for every s < first.
    """
    rules = solution.rules
    held = hold_for_second(solution, first, 0)
    values = single_context(graph, rules, held, 0)
    solution.second_to_move[first, :first] = values[:first, graph.start, 0]
    solution.turn_solves += 1


def solve(rules: GameRules = CTHULHU_DICE) -> Solution:
    """Exact optimal turn-start win probabilities for two players (rules_text cthulhu-dice/end).

    Score pairs never decrease, so anti-diagonals ``first + second`` are solved from the highest
    down; the races of a first player at/above the goal wait for that score's tie value.
    """
    cap = rules.cap
    graph = turn_graph(rules.dice)
    size = (cap + 1, cap + 1)
    solution = Solution(rules, np.full(size, np.nan), np.full(size, np.nan))
    if rules.tie_rule == "tiebreak_rounds":
        solution.first_to_move[cap, cap] = solution.second_to_move[cap, cap] = 0.5
    for diagonal in range(2 * cap, -1, -1):
        if diagonal % 2 == 0 and rules.goal <= diagonal // 2 <= cap and rules.tie_rule == "tiebreak_rounds":
            tied = diagonal // 2
            if tied < cap:
                solve_pairs(graph, solution, [(tied, tied)])
            solve_race(graph, solution, tied)
        elif rules.tie_rule == "shared_win" and diagonal >= 2 * rules.goal and diagonal % 2 == 0:
            solve_race(graph, solution, diagonal // 2)
        pairs = pairs_below_goal(rules, diagonal)
        if pairs:
            solve_pairs(graph, solution, pairs)
    return solution


# ---------------------------------------------------------------------------------------------
# The shipped table of turn-start values
# ---------------------------------------------------------------------------------------------


def rules_to_json(rules: GameRules) -> dict:
    """The parameters a table was solved for, as plain JSON data."""
    data = asdict(rules)
    data["dice"]["faces"] = [list(face) for face in rules.dice.faces]
    data["dice"]["counts"] = list(rules.dice.counts)
    return data


def rules_from_json(data: dict) -> GameRules:
    """Inverse of ``rules_to_json``."""
    dice = data["dice"]
    return GameRules(
        dice=DiceRules(
            counts=tuple(dice["counts"]), faces=tuple(tuple(face) for face in dice["faces"]), exhaustion=dice["exhaustion"]
        ),
        goal=data["goal"],
        cap=data["cap"],
        tie_rule=data["tie_rule"],
    )


def matrix_to_json(values: np.ndarray) -> list[list[float | None]]:
    """Rows of a value matrix with impossible positions (NaN) as null; floats keep full precision."""
    return [[None if np.isnan(x) else float(x) for x in row] for row in values]


def table_to_json(solution: Solution) -> dict:
    """The turn-start table as JSON data (see ``Solution`` for the indexing)."""
    return {
        "format": "tabletop/cthulhu-dice/optimal-2p/1",
        "description": (
            "Win probability of the player about to roll, under optimal play by both players. "
            "first_to_move[f][s]: the first player of the round rolls next (the opponent still has a turn "
            "this round); second_to_move[f][s]: the second player rolls next (their turn ends the round). "
            "f = first player's banked score, s = second player's, both capped at rules.cap; null = cannot occur."
        ),
        "rules": rules_to_json(solution.rules),
        "first_player_win": solution.first_player_win,
        "first_to_move": matrix_to_json(solution.first_to_move),
        "second_to_move": matrix_to_json(solution.second_to_move),
    }


def table_from_json(data: dict) -> Solution:
    """Inverse of ``table_to_json``."""
    def matrix(rows):
        return np.array([[np.nan if x is None else x for x in row] for row in rows], dtype=float)

    return Solution(rules_from_json(data["rules"]), matrix(data["first_to_move"]), matrix(data["second_to_move"]))


def build_table(rules: GameRules = CTHULHU_DICE, path: Path | str | None = TABLE_PATH) -> Solution:
    """Solve ``rules`` and write the turn-start table as JSON to ``path`` (None: don't write)."""
    solution = solve(rules)
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(table_to_json(solution), separators=(",", ":")) + "\n")
    return solution


@lru_cache(maxsize=4)
def load_table(path: Path | str = TABLE_PATH) -> Solution:
    """The shipped turn-start table (package data written by ``build_table``)."""
    return table_from_json(json.loads(Path(path).read_text()))


# ---------------------------------------------------------------------------------------------
# Advice for one position, computed on demand from the table
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A two-player position during (or at the start of) the mover's turn. Per-kind tuples follow the
    bag's kind order (Library, Museum, Tomb for Cthulhu Dice).

    ``opponent_still_to_play``: True when the mover is the first player of the round, so the
    opponent still has a turn this round; False when the mover's turn ends the round
    (rules_text cthulhu-dice/end). ``bag`` None means every die not otherwise placed. Scores above
    the table's cap count as the cap.
    """

    my_score: int
    opponent_score: int
    opponent_still_to_play: bool
    stash: int = 0
    tentacles: tuple[int, ...] = (0, 0, 0)
    clues: tuple[int, ...] = (0, 0, 0)
    elder_signs: tuple[int, ...] = (0, 0, 0)
    bag: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Advice:
    """Roll again or retreat, with the win probability and the Elder Signs expected from each.

    ``win_if_retreat`` and ``expected_signs_if_retreat`` are None before the first roll of a turn,
    when retreating is not allowed. ``expected_signs_if_continue`` is the stash expected to be
    banked this turn (0 if downed) when rolling now and playing optimally after, the stash counted
    up to the score cap.
    """

    choice: Literal["continue", "retreat"]
    win_if_continue: float
    win_if_retreat: float | None
    expected_signs_if_continue: float
    expected_signs_if_retreat: int | None


class Advisor:
    """Within-turn decisions from a table of turn-start values (rules_text cthulhu-dice/turn)."""

    def __init__(self, solution: Solution):
        self.solution = solution
        self.rules = solution.rules
        self.graph = turn_graph(self.rules.dice)
        self.solved_turns: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = {}

    def context(self, position: Position) -> tuple[int, int, int]:
        """(seat, first's score, second's score) of the mover's turn, checked to be a game in progress."""
        cap, goal = self.rules.cap, self.rules.goal
        mine, theirs = min(position.my_score, cap), min(position.opponent_score, cap)
        seat = FIRST if position.opponent_still_to_play else SECOND
        first, second = (mine, theirs) if seat == FIRST else (theirs, mine)
        table = self.solution.first_to_move if seat == FIRST else self.solution.second_to_move
        if np.isnan(table[first, second]):
            raise ValueError(
                f"no game is in progress at {first}-{second} with the {'first' if seat == FIRST else 'second'} "
                f"player to move (goal {goal}, tie rule {self.rules.tie_rule})"
            )
        return seat, first, second

    def turn_values(self, seat: int, first: int, second: int) -> tuple[np.ndarray, np.ndarray]:
        """``V[T, state, (win, signs)]`` of the mover's turn in this context (solved once, then kept), and
        its retreat values."""
        key = (seat, first, second)
        if key not in self.solved_turns:
            mover = first if seat == FIRST else second
            held = self.context_hold(seat, first, second)
            self.solved_turns[key] = single_context(self.graph, self.rules, held, mover, with_stash=True), held
        return self.solved_turns[key]

    def context_hold(self, seat: int, first: int, second: int) -> np.ndarray:
        """The mover's win probability on retreating with each total."""
        if seat == FIRST:
            return hold_for_first(self.solution, first, second)
        return hold_for_second(self.solution, first, second)

    def dice_state(self, position: Position) -> DiceState:
        """The position's dice as a solver state, checked against the bag (rules_text cthulhu-dice/dice)."""
        counts = self.rules.dice.counts
        kinds = len(counts)
        parts = (position.tentacles, position.clues, position.elder_signs)
        if any(len(part) != kinds for part in parts) or (position.bag is not None and len(position.bag) != kinds):
            raise ValueError(f"per-kind counts must have {kinds} entries")
        placed = [t + c + e for t, c, e in zip(*parts)]
        bag = position.bag if position.bag is not None else tuple(n - p for n, p in zip(counts, placed))
        if any(x < 0 for x in bag + position.tentacles + position.clues + position.elder_signs):
            raise ValueError("dice counts cannot be negative, nor exceed the dice of a kind")
        if tuple(p + b for p, b in zip(placed, bag)) != tuple(counts):
            raise ValueError(f"dice per kind must add up to the bag {counts}")
        if sum(position.tentacles) >= TENTACLES_TO_DOWN or sum(position.clues) > HAND_SIZE:
            raise ValueError("at most 2 tentacles and 3 clues can be held while the turn goes on")
        if position.stash < sum(position.elder_signs):
            raise ValueError("the stash counts every Elder Sign die set aside, so it cannot be smaller")
        return tuple(position.tentacles) + tuple(position.clues) + tuple(bag)

    def advise(self, position: Position) -> Advice:
        """Win probability and expected Elder Signs of continuing and of retreating; the better choice."""
        seat, first, second = self.context(position)
        state = self.dice_state(position)
        values, held = self.turn_values(seat, first, second)
        mover = first if seat == FIRST else second
        cap = self.rules.cap
        total = min(mover + position.stash, cap)
        win = signs = 0.0
        for (gain, nxt), p in transitions(self.rules.dice, state).items():
            if nxt == BUSTED:
                win += p * held[mover]
                continue
            if nxt not in self.graph.index:
                raise ValueError("this position cannot arise in a turn under the solver's rules")
            reached = values[min(total + gain, cap), self.graph.index[nxt]]
            win += p * reached[0]
            signs += p * reached[1]
        if state == initial_state(self.rules.dice) and position.stash == 0:
            return Advice("continue", win, None, signs, None)
        retreat = float(held[total])
        choice = "continue" if win > retreat else "retreat"
        return Advice(choice, win, retreat, signs, min(position.stash, cap - mover))


    def continues(self, position: Position) -> bool:
        """The optimal choice alone, read straight from the turn's values: roll on iff the position is
        worth more than banking now. As ``advise(...).choice == "continue"``, without the roll's odds."""
        seat, first, second = self.context(position)
        state = self.dice_state(position)
        values, held = self.turn_values(seat, first, second)
        if state == initial_state(self.rules.dice) and position.stash == 0:
            return True
        mover = first if seat == FIRST else second
        total = min(mover + position.stash, self.rules.cap)
        return bool(values[total, self.graph.index[state]][0] > held[total])


@lru_cache(maxsize=1)
def default_advisor() -> Advisor:
    """Advisor on the shipped table for our game."""
    return Advisor(load_table())


def advise(position: Position, advisor: Advisor | None = None) -> Advice:
    """Optimal within-turn decision for ``position`` (default: the shipped Cthulhu Dice table)."""
    return (advisor or default_advisor()).advise(position)


# ---------------------------------------------------------------------------------------------
# Odds of the next roll
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollResult:
    """One possible result of the next roll: faces shown by the three dice and its probability."""

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
    aside this turn) matter when the bag runs short (rules_text cthulhu-dice/rulings); ``tentacles``
    already set aside count towards the three that down the player (rules_text cthulhu-dice/turn).
    """
    counts = tuple(t + c + e + b for t, c, e, b in zip(tentacles, clues, elder_signs, bag))
    rules = DiceRules(counts=counts, faces=dice.faces, exhaustion=dice.exhaustion)
    state = tuple(tentacles) + tuple(clues) + tuple(bag)
    spread: dict[tuple[int, int, int], float] = {}
    for hand, _, p_hand in hand_distribution(rules, state):
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


# ---------------------------------------------------------------------------------------------
# Command entry point (wired by the CLI as `tabletop solve cthulhu-dice`)
# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Solve two-player Cthulhu Dice and write the table; prints the first player's win probability."""
    import argparse
    import time

    parser = argparse.ArgumentParser(prog="tabletop solve cthulhu-dice", description=main.__doc__)
    parser.add_argument("--output", default=str(TABLE_PATH), help="where to write the JSON table")
    parser.add_argument("--bag", default="8,4,3", help="Library,Museum,Tomb dice in the bag (default 8,4,3)")
    parser.add_argument("--goal", type=int, default=13)
    parser.add_argument("--tie-rule", choices=["tiebreak_rounds", "shared_win"], default="tiebreak_rounds")
    parser.add_argument("--exhaustion", choices=["return_elder_signs", "draw_then_return"], default="return_elder_signs")
    args = parser.parse_args(argv)
    counts = tuple(int(x) for x in args.bag.split(","))
    rules = GameRules(
        dice=DiceRules(counts=counts, exhaustion=args.exhaustion), goal=args.goal, cap=2 * args.goal, tie_rule=args.tie_rule
    )
    started = time.perf_counter()
    solution = build_table(rules, args.output)
    print(f"solved in {time.perf_counter() - started:.1f} s ({solution.turn_solves} batched turn solves)")
    print(f"first player's win probability under optimal play: {solution.first_player_win:.7f}")
    print(f"table written to {args.output}")
    return 0
