"""An independent reference for the solver: plain value iteration over whole games, every transition
taken from the engine itself (rules.py).

Nothing here uses the solver. The dice are enumerated exhaustively: while a roll is replayed, the
engine's two sources of chance (``draw_from_bag`` and ``roll_die``) are replaced by a tape that
takes every branch in turn (each die drawn with probability proportional to its count in the bag,
each face with its number of sides out of six), and the engine's own ``roll``, ``retreat``,
``end_turn`` and ``end_round`` do the rest: bag-exhaustion rulings, downing, banking, the last
round, devouring and both tie rules.

The model the solver also uses, on top of the engine: scores are capped at ``cap`` (a score, or a
turn's running total, above it counts as the cap) and players tied for the lead at the cap share
the win; a shared win is worth 1/k to each of the k winners. Each player maximises their own
chance of winning; a player for whom both choices are worth the same retreats.

Only for small bags and low goals: the state space is every (seat, scores, stash, dice) there is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_dice import rules
from tabletop.games.cthulhu_dice.dice import FACE_COUNTS, KINDS, Face
from tabletop.games.cthulhu_dice.rules import CthulhuDiceOptions, DiceState, Retreat, Roll

FACES = (Face.elder_sign, Face.clue, Face.tentacle)


class Tape:
    """Replays a list of branch choices, then takes the first branch of every new chance event."""

    def __init__(self, choices: list[int]):
        self.choices = choices
        self.position = 0
        self.options: list[int] = []  # number of branches at each chance event met
        self.probability = 1.0

    def pick(self, weights: list[float]) -> int:
        if self.position == len(self.choices):
            self.choices.append(0)
        choice = self.choices[self.position]
        self.options.append(len(weights))
        self.position += 1
        self.probability *= weights[choice]
        return choice


def enumerate_chances(run) -> list[tuple[object, float]]:
    """Every outcome of ``run(tape)`` with its probability, depth first over the tape's branches."""
    outcomes = []
    pending = [[]]
    while pending:
        prefix = pending.pop()
        tape = Tape(list(prefix))
        result = run(tape)
        outcomes.append((result, tape.probability))
        for position in range(len(prefix), len(tape.choices)):
            for other in range(1, tape.options[position]):
                pending.append(tape.choices[:position] + [other])
    return outcomes


class ChanceStandIn:
    """Context manager: the engine's draws and rolls come from ``tape`` (only non-zero branches)."""

    def __init__(self, tape: Tape):
        self.tape = tape

    def draw_from_bag(self, bag: list[int], count: int, rng) -> list:
        drawn = []
        for _ in range(count):
            kinds = [k for k in range(len(bag)) if bag[k] > 0]
            total = sum(bag)
            k = kinds[self.tape.pick([bag[i] / total for i in kinds])]
            bag[k] -= 1
            drawn.append(KINDS[k])
        return drawn

    def roll_die(self, kind, rng) -> Face:
        faces = [f for f, n in zip(FACES, FACE_COUNTS[kind]) if n > 0]
        weights = [n / 6 for n in FACE_COUNTS[kind] if n > 0]
        return faces[self.tape.pick(weights)]

    def __enter__(self):
        self.saved = rules.draw_from_bag, rules.roll_die
        rules.draw_from_bag, rules.roll_die = self.draw_from_bag, self.roll_die
        return self

    def __exit__(self, *exc):
        rules.draw_from_bag, rules.roll_die = self.saved


Key = tuple  # a hashable snapshot of everything about a DiceState that matters for the future


@dataclass
class Game:
    """The explicit graph of a small game and its values under the solution concept."""

    options: CthulhuDiceOptions
    players: int
    cap: int
    keys: list[Key] = field(default_factory=list)
    index: dict[Key, int] = field(default_factory=dict)
    values: np.ndarray | None = None
    dice_cache: dict = field(default_factory=dict)

    # --- states ----------------------------------------------------------------------------
    def key(self, state: DiceState) -> Key | tuple:
        """Capped snapshot; a finished game (or a tie at the cap) is ('end', payoff vector)."""
        n = self.players
        if state.phase == "over":
            winners = state.winners or []
            return ("end", tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(n)))
        scores = tuple(min(s, self.cap) for s in state.scores)
        if state.contenders is not None and state.phase == "start" and all(scores[s] == self.cap for s in state.contenders):
            share = 1.0 / len(state.contenders)
            return ("end", tuple(share if s in state.contenders else 0.0 for s in range(n)))
        stash = min(state.stash, self.cap - scores[state.seat])
        return (
            state.seat, state.phase, scores, stash, tuple(state.bag), tuple(state.clues), tuple(state.tentacles),
            tuple(state.signs), None if state.contenders is None else tuple(state.contenders),
        )

    def state(self, key: Key) -> DiceState:
        seat, phase, scores, stash, bag, clues, tentacles, signs, contenders = key
        return DiceState(
            options=self.options, rng=Rng(0), scores=list(scores), seat=seat, phase=phase, bag=list(bag),
            clues=list(clues), tentacles=list(tentacles), signs=list(signs), stash=stash, turns=[0] * self.players,
            contenders=None if contenders is None else list(contenders),
        )

    # --- moves -----------------------------------------------------------------------------
    def dice_outcomes(self, key: Key) -> list:
        """The engine's roll from this state's dice, enumerated once per dice situation: a list of
        ((phase, bag, clues, tentacles, Elder Sign dice) after, Elder Signs gained, downed, probability).

        The roll is the engine's ``roll``; only the end of a downed turn is held back (and played by the
        engine's ``end_turn`` in ``roll_outcomes``), so that the dice after the roll can be read."""
        seat, phase, scores, stash, bag, clues, tentacles, signs, contenders = key
        situation = (phase, bag, clues, tentacles, signs)
        if situation not in self.dice_cache:
            downed = []

            def run(tape):
                state = self.state((0, phase, (0,) * self.players, 0, bag, clues, tentacles, signs, None))
                downed.clear()
                saved = rules.end_turn
                rules.end_turn = lambda st: downed.append(True) or []
                try:
                    with ChanceStandIn(tape):
                        rules.roll(state)
                finally:
                    rules.end_turn = saved
                after = (state.phase, tuple(state.bag), tuple(state.clues), tuple(state.tentacles), tuple(state.signs))
                return after, state.stash, bool(downed)

            merged: dict = {}
            for result, p in enumerate_chances(run):
                merged[result] = merged.get(result, 0.0) + p
            self.dice_cache[situation] = [(after, gain, down, p) for (after, gain, down), p in merged.items()]
        return self.dice_cache[situation]

    def roll_outcomes(self, key: Key) -> dict:
        """{next key: probability} of rolling from this state."""
        seat, phase, scores, stash, *_ = key
        out: dict = {}
        for (after_phase, bag, clues, tentacles, signs), gain, downed, p in self.dice_outcomes(key):
            state = self.state(key)
            state.phase, state.bag, state.clues, state.tentacles, state.signs = after_phase, list(bag), list(clues), list(tentacles), list(signs)
            if downed:
                state.stash = 0
                rules.end_turn(state)
            else:
                state.stash = stash + gain
            nxt = self.key(state)
            out[nxt] = out.get(nxt, 0.0) + p
        return out

    def retreat_outcome(self, key: Key):
        state = self.state(key)
        after, _ = rules.apply(state, state.seat, Retreat())
        return self.key(after)

    def build(self) -> None:
        """Every state reachable from the start, with each legal action's outcomes."""
        start = self.key(rules.new_game(self.options, self.players, seed=0))
        self.moves: dict[Key, list] = {}
        queue = [start]
        seen = {start}
        while queue:
            key = queue.pop()
            state = self.state(key)
            legal = rules.legal_actions(state, state.seat)
            actions = []
            if Roll() in legal:
                actions.append(("roll", self.roll_outcomes(key)))
            if Retreat() in legal:
                actions.append(("retreat", {self.retreat_outcome(key): 1.0}))
            self.moves[key] = actions
            for _, outcomes in actions:
                for nxt in outcomes:
                    if nxt[0] != "end" and nxt not in seen:
                        seen.add(nxt)
                        queue.append(nxt)
        self.start = start
        # Later positions first (higher scores, then later in the turn), so that sweeps converge quickly.
        self.keys = sorted(
            self.moves, key=lambda k: (-sum(k[2]), -k[0], k[1] == "start", -k[3], -sum(k[6]), -sum(k[7]), repr(k))
        )
        self.index = {k: i for i, k in enumerate(self.keys)}

    # --- values ----------------------------------------------------------------------------
    def solve(self, tol: float = 1e-15, sweeps: int = 100_000) -> None:
        """Value iteration: each mover picks the action best for themselves (ties: retreat)."""
        n, size = self.players, len(self.keys)
        plan = []
        for key in self.keys:
            acts = []
            for name, outcomes in self.moves[key]:
                targets, fixed = [], np.zeros(n)
                for nxt, p in outcomes.items():
                    if nxt[0] == "end":
                        fixed += p * np.array(nxt[1])
                    else:
                        targets.append((self.index[nxt], p))
                idx = np.array([t for t, _ in targets], dtype=np.int64)
                prob = np.array([p for _, p in targets])
                acts.append((name, idx, prob, fixed))
            plan.append((key[0], acts))
        values = np.zeros((size, n))
        for _ in range(sweeps):
            change = 0.0
            for i, (seat, acts) in enumerate(plan):  # Gauss-Seidel: use new values at once
                best = None
                for name, idx, prob, fixed in acts:
                    v = fixed + prob @ values[idx] if len(idx) else fixed.copy()
                    if best is None or (name == "retreat" and v[seat] >= best[seat]) or (name == "roll" and v[seat] > best[seat]):
                        best = v
                change = max(change, float(np.abs(best - values[i]).max()))
                values[i] = best
            if change <= tol:
                break
        else:
            raise RuntimeError("value iteration did not converge")
        self.values = values

    def value(self, key: Key) -> np.ndarray:
        return self.values[self.index[key]]

    def action_values(self, key: Key) -> dict[str, np.ndarray]:
        """Every player's win probability after each legal action of this state."""
        out = {}
        for name, outcomes in self.moves[key]:
            total = np.zeros(self.players)
            for nxt, p in outcomes.items():
                total += p * (np.array(nxt[1]) if nxt[0] == "end" else self.value(nxt))
            out[name] = total
        return out

    def turn_start_values(self) -> dict[tuple[int, tuple[int, ...], tuple[int, ...] | None], np.ndarray]:
        """(seat, scores, contenders) -> values, for every turn start."""
        out = {}
        for key in self.keys:
            seat, phase, scores, stash, *_rest, contenders = key
            if phase == "start":
                out[(seat, scores, contenders)] = self.value(key)
        return out


def solve_small(options: CthulhuDiceOptions, players: int, cap: int | None = None) -> Game:
    game = Game(options, players, cap if cap is not None else 2 * options.goal)
    game.build()
    game.solve()
    return game
