"""Negotiations the table settles by talking (rules_text ``cthulhu-wars/negotiation``).

Thousand Forms (Crawling Chaos) and Ghroth (Black Goat) ask the other factions to agree
how to share a loss. Here each seat concerned makes one simultaneous, secret
:class:`~.actions.Offer` (a full split: faction -> amount). If every offer is the same
split, it is carried out; otherwise the rule's own fallback applies. A seat that cannot
give anything (no Power, no Cultists) takes no part.

A faction module uses it in two steps:

1. ``register_settler("thousand-forms", settle)`` once at import, where
   ``settle(state, data, agreed, log)`` receives the agreed split (dict faction -> amount)
   or ``None`` when the seats did not agree, and carries out the result or the fallback;
2. ``open_negotiation(state, topic=..., owner=seat, amount=n, limits={seat: most it can give})``
   from its action; the engine then awaits offers from those seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.games.cthulhu_wars.actions import Offer
from tabletop.games.cthulhu_wars.state import GameState, Pending

Settler = Callable[[GameState, dict[str, Any], "dict[str, int] | None", list[str]], None]
SETTLERS: dict[str, Settler] = {}


def register_settler(topic: str, settle: Settler) -> None:
    SETTLERS[topic] = settle


def open_negotiation(state: GameState, *, topic: str, owner: int, amount: int, limits: dict[int, int], log: list[str]) -> None:
    """Ask the seats in ``limits`` (those able to give something) for simultaneous offers."""
    seats = [s for s, most in limits.items() if most > 0]
    target = min(amount, sum(limits[s] for s in seats))
    data = {"topic": topic, "owner": owner, "amount": target, "limits": {s: limits[s] for s in seats},
            "waiting": list(seats), "offers": {}}  # fmt: skip
    if not seats or target == 0:
        SETTLERS[topic](state, data, {}, log)
        return
    state.pending.insert(0, Pending(seats[0], "negotiation", data))
    log.append(f"Negotiation ({topic}): {', '.join(state.seats[s].faction for s in seats)} must share {target}.")


def offer_options(state: GameState, data: dict[str, Any]) -> list[Offer]:
    """Every split of the amount among the seats within each seat's limit, in lexicographic order of the shares."""
    seats = list(data["limits"])
    names = [state.seats[s].faction for s in seats]
    return [Offer(shares=tuple(zip(names, split, strict=True)))
            for split in splits(data["amount"], [data["limits"][s] for s in seats])]


def splits(amount: int, limits: list[int]) -> list[tuple[int, ...]]:
    """Every way to write ``amount`` as a sum of shares, the i-th from 0 to ``limits[i]``, smallest first share
    first (built share by share: only splits that can still reach the amount are followed)."""
    if not limits:
        return [()] if amount == 0 else []
    rest = sum(limits[1:])
    return [(share, *tail) for share in range(max(0, amount - rest), min(limits[0], amount) + 1)
            for tail in splits(amount - share, limits[1:])]


def record_offer(state: GameState, seat: int, offer: Offer, log: list[str]) -> None:
    """Keep the seat's offer secret until all are in; then settle."""
    pending = state.pending[0]
    data = pending.data
    data["offers"][seat] = [list(pair) for pair in offer.shares]
    data["waiting"].remove(seat)
    log.append(f"{state.seats[seat].faction} makes its offer.")
    if data["waiting"]:
        pending.seat = data["waiting"][0]
        return
    state.pending.pop(0)
    offers = list(data["offers"].values())
    agreed = {name: n for name, n in offers[0]} if all(o == offers[0] for o in offers) else None
    log.append("The offers agree." if agreed is not None else "The offers differ: the rule's fallback applies.")
    SETTLERS[data["topic"]](state, data, agreed, log)
