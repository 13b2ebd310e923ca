"""What one seat may know of a Cthulhu Wars game, and states consistent with it (rules ``cthulhu-wars/doom``).

Hidden from a seat: the values of the other factions' Elder Signs (their number is public), the
order of the tokens left in the bag, the dice still to be rolled (the game's generator), and the
offers other seats have made in a negotiation still open. Everything else (the map, Power, Doom,
spellbooks, requirements, the battle under way, pending decisions) is public.

:func:`determinise` makes a copy of the real state in which every hidden part is replaced by a draw
from the seat's own generator: the other factions' Elder Signs are dealt at random from the tokens
the seat has not seen (those still in the bag together with the other factions' hidden ones; the
seat knows how many of each value that pool holds, since every reveal is public), the generator is a
fresh one, and other seats' secret offers are dropped. A bot works only on such copies, so its
choices can depend on nothing it may not see: two real states that differ only in hidden parts give
the same determinisations.
"""

from __future__ import annotations

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars.state import GameState


def unseen_tokens(state: GameState, seat: int) -> list[int]:
    """Values of the Elder Signs ``seat`` has not seen: the bag's and the other factions' hidden ones, sorted
    (a multiset the seat can work out from public facts: the bag's starting contents minus every revealed
    token minus its own)."""
    pool = [value for value, left in enumerate(state.es_bag, start=1) for _ in range(left)]
    for s, fs in enumerate(state.seats):
        if s != seat:
            pool.extend(fs.elder_signs)
    return sorted(pool)


def determinise(state: GameState, seat: int, rng: Rng) -> GameState:
    """A copy of ``state`` with every part hidden from ``seat`` drawn afresh from ``rng`` (see module docstring)."""
    s = state.copy()
    pool = unseen_tokens(state, seat)
    # Fisher-Yates with the bot's generator
    for i in range(len(pool) - 1, 0, -1):
        j = rng.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    at = 0
    for other, fs in enumerate(s.seats):
        if other != seat and fs.elder_signs:
            n = len(fs.elder_signs)
            fs.elder_signs = pool[at : at + n]
            at += n
    rest = pool[at:]
    s.es_bag = [rest.count(1), rest.count(2), rest.count(3)]
    s.rng = Rng(rng.next_u64())
    for pending in s.pending:
        if pending.kind == "negotiation":
            offers = pending.data.get("offers", {})
            pending.data["offers"] = {k: v for k, v in offers.items() if k == seat}
            order = list(pending.data["limits"])
            waiting = set(pending.data["waiting"]) | {k for k in offers if k != seat}
            pending.data["waiting"] = sorted(waiting, key=order.index)
            if pending.data["waiting"]:
                pending.seat = pending.data["waiting"][0]
    return s


def public_key(state: GameState, seat: int) -> tuple:
    """Everything ``seat`` may see of ``state``, as a comparable value (for tests and caches)."""
    return (
        state.round, state.phase, state.first_player, state.direction, state.ritual_step, state.doom_phases,
        state.ending, tuple(sorted(state.gates.items())), tuple(unseen_tokens(state, seat)),
        tuple((fs.faction, fs.power, fs.doom, len(fs.elder_signs) if i != seat else tuple(fs.elder_signs),
               tuple(fs.spellbooks), tuple(fs.requirements), tuple(sorted((k, tuple(v)) for k, v in fs.units.items())),
               tuple(fs.captives)) for i, fs in enumerate(state.seats)),
        repr(state.turn), tuple((p.seat, p.kind) for p in state.pending), repr(state.battle),
    )
