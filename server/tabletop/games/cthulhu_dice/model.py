"""The dice of one turn as the solver sees them: states, draws, rolls, transitions.

The game (rules_text cthulhu-dice/turn, /rulings) is Zombie Dice with a different bag, so the
same model serves both: a bag of dice of a few kinds, each die with Elder Sign, Clue and
Tentacle faces. Pure Python; nothing here knows about numpy or MCP.

A *dice state* is (tentacles per kind, clues in hand per kind, dice in the bag per kind); the
Elder Sign dice set aside this turn are what is left of each kind.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from itertools import product
from typing import Literal

#: Dice rolled each time (rules_text cthulhu-dice/turn).
HAND_SIZE = 3
#: Tentacles that down the player and lose the stash (rules_text cthulhu-dice/turn).
TENTACLES_TO_DOWN = 3

TieRule = Literal["tiebreak_rounds", "shared_win"]
Exhaustion = Literal["return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat"]
EXHAUSTION_RULINGS: tuple[str, ...] = ("return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat")


@dataclass(frozen=True)
class DiceRules:
    """The bag and the dice: ``counts[k]`` dice of kind k with ``faces[k]`` = (Elder Signs, Clues, Tentacles) sides.

    ``exhaustion`` is the ruling when the bag holds fewer dice than must be drawn
    (rules_text cthulhu-dice/rulings), exactly as the engine plays it:

    * ``return_elder_signs``: the Elder Sign dice set aside go back into the bag, then draw;
    * ``draw_then_return``: draw every die left, then put the Elder Sign dice back and draw the rest
      (T. Neller's reading for Zombie Dice);
    * ``roll_fewer``: draw what is left and roll fewer than three dice (no roll with none at all);
    * ``must_retreat``: no roll; the only choice left is to retreat.

    Either way the stash keeps its count. A bag so small that even the refill cannot make up the
    hand leaves retreat as the only choice (the engine asks for 6 dice or more, where this never happens).
    """

    counts: tuple[int, ...] = (8, 4, 3)
    faces: tuple[tuple[int, int, int], ...] = ((3, 2, 1), (2, 2, 2), (1, 2, 3))
    exhaustion: Exhaustion = "return_elder_signs"


@dataclass(frozen=True)
class GameRules:
    """Game parameters: dice, goal, score cap and tie rule (rules_text cthulhu-dice/end).

    Scores are capped at ``cap`` (twice the goal by default, as in T. Neller's Zombie Dice solver):
    a score above it counts as the cap, and players tied at the cap share the win.
    """

    dice: DiceRules = field(default_factory=DiceRules)
    goal: int = 13
    cap: int = 26
    tie_rule: TieRule = "tiebreak_rounds"

    def to_json(self) -> dict:
        data = asdict(self)
        data["dice"]["faces"] = [list(face) for face in self.dice.faces]
        data["dice"]["counts"] = list(self.dice.counts)
        return data

    @staticmethod
    def from_json(data: dict) -> GameRules:
        dice = data["dice"]
        return GameRules(
            dice=DiceRules(
                counts=tuple(dice["counts"]), faces=tuple(tuple(face) for face in dice["faces"]), exhaustion=dice["exhaustion"]
            ),
            goal=data["goal"],
            cap=data["cap"],
            tie_rule=data["tie_rule"],
        )

    def fingerprint(self) -> str:
        """A short stable name for these rules (cache file names)."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def describe(self) -> str:
        """In words, e.g. ``goal 13, bag 8/4/3, ties: tiebreak_rounds, short bag: return_elder_signs``."""
        return (
            f"goal {self.goal}, bag {'/'.join(map(str, self.dice.counts))}, ties: {self.tie_rule}, "
            f"short bag: {self.dice.exhaustion}"
        )


#: Our game: 8 Library, 4 Museum, 3 Tomb dice (seed rules), engine default rulings.
CTHULHU_DICE = GameRules()
#: Standard Zombie Dice (6 green, 4 yellow, 3 red), as modelled by T. Neller's solver.
ZOMBIE_DICE = GameRules(dice=DiceRules(counts=(6, 4, 3), exhaustion="draw_then_return"))
#: T. Neller's published first-player win probability for ZOMBIE_DICE under optimal play.
NELLER_ZOMBIE_DICE_FIRST_PLAYER = 0.4648573


def rules_for_options(options) -> GameRules:
    """The solver's rules for an engine game's options (``CthulhuDiceOptions``)."""
    return GameRules(
        dice=DiceRules(counts=tuple(options.bag.as_list()), exhaustion=options.bag_exhaustion),
        goal=options.goal,
        cap=2 * options.goal,
        tie_rule=options.tie_rule,
    )


# ---------------------------------------------------------------------------------------------
# Dice states, draws, rolls
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
    if count > sum(bag):
        return ()
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
    exhaustion ruling (rules_text cthulhu-dice/rulings). An empty list: rolling is not allowed.
    """
    _, clues, bag = split_state(state, len(dice.counts))
    need = HAND_SIZE - sum(clues)
    forced = (0,) * len(bag)
    if need > sum(bag):
        signs = elder_sign_dice(dice, state)
        if dice.exhaustion == "must_retreat":
            return []
        if dice.exhaustion == "roll_fewer":
            hand = tuple(c + b for c, b in zip(clues, bag))
            return [(hand, (0,) * len(bag), 1.0)] if sum(hand) else []
        if dice.exhaustion == "return_elder_signs":
            bag = tuple(b + s for b, s in zip(bag, signs))
        else:  # draw_then_return
            forced, bag, need = bag, signs, need - sum(bag)
    outcomes = []
    for drawn, p in draw_distribution(bag, need):
        hand = tuple(c + f + d for c, f, d in zip(clues, forced, drawn))
        outcomes.append((hand, tuple(b - d for b, d in zip(bag, drawn)), p))
    return outcomes


def roll_results(dice: DiceRules, tentacles: tuple[int, ...], hand: tuple[int, ...], bag: tuple[int, ...]):
    """Rolling ``hand`` with ``tentacles`` already set aside and ``bag`` left: {(Elder Signs, next state or BUSTED): p}.

    Elder Signs go to the stash, tentacles are set aside, clues stay in hand; three tentacles in
    all down the player (rules_text cthulhu-dice/turn). A downed result is keyed (0, BUSTED).
    """
    held = sum(tentacles)
    result: dict[tuple[int, int | DiceState], float] = {}
    for signs, clues, shown_tentacles, p in roll_distribution(dice.faces, hand):
        if held + sum(shown_tentacles) >= TENTACLES_TO_DOWN:
            key: tuple[int, int | DiceState] = (0, BUSTED)
        else:
            key = (signs, tuple(t + s for t, s in zip(tentacles, shown_tentacles)) + clues + bag)
        result[key] = result.get(key, 0.0) + p
    return result


def transitions(dice: DiceRules, state: DiceState) -> dict[tuple[int, int | DiceState], float]:
    """Result of continuing from ``state``: {(Elder Signs gained, next dice state or BUSTED): p}; empty if
    rolling is not allowed."""
    tentacles = split_state(state, len(dice.counts))[0]
    result: dict[tuple[int, int | DiceState], float] = {}
    for hand, bag, p_hand in hand_distribution(dice, state):
        for key, p_roll in roll_results(dice, tentacles, hand, bag).items():
            result[key] = result.get(key, 0.0) + p_hand * p_roll
    return result
