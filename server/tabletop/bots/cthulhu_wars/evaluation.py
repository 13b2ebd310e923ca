"""How good a Cthulhu Wars position is for one faction (rules ``cthulhu-wars/end`` and ``cthulhu-wars/factions``).

A faction's *strength* adds, with the weights of ``Weights``:

* **spellbooks** (held or owed for a met requirement): nobody wins without six, so each is worth
  much, the sixth more;
* **Doom**, with its own hidden Elder Signs at their values and other factions' at the bag's mean;
* **Gates** it controls (2 Power and 1 Doom a round, and Doom at each Ritual), and places a Gate could be
  built next (a Cultist alone in an area without one); its buildings that are not Gates (the Ancients' Cathedrals:
  permanent, they feed Consecration and Worship Services);
* **units on the map**: Cultists for their Power, Monsters by cost, Great Old Ones more; captives; with the
  neutral material, neutral Monsters by cost (or Combat, when higher), Independent Great Old Ones by their Awaken
  cost (no faction Great Old One), and a held neutral Monster card's figures still in the pool at a small share;
* **Power** in hand (what it can still do this Action phase);
* **exposure**: Cultists an enemy Monster or Great Old One could capture (in the area or next to it)
  with nothing of theirs to protect them (against a Great Old One, only a Great Old One of theirs protects them),
  and Gates where an enemy brings more Combat;
* **requirement progress** read from each unmet requirement's text (``knowledge.py``); the spellbooks on the
  Independent Great Old One cards held (a smaller bonus: not one of the six) and progress towards their own
  requirements.

The evaluation for a seat is its strength minus a share of its strongest rival's. A finished game is
worth a large amount to its winners (split on a shared win) and a large loss to everyone else.
The evaluation reads no hidden value: other factions' Elder Signs count at the bag's mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.state import GameState

from . import knowledge as kn
from . import win_model

WIN = 400.0
LOSS = -150.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights. The bots play with ``DEFAULT`` unless given their own (``benchmarks/cw_weights.py``
    plays weights against the default ones)."""

    book: float = 9.0
    sixth_book: float = 12.0
    doom: float = 1.0
    gate: float = 5.0
    gate_site: float = 1.2
    building: float = 2.5
    power: float = 0.45
    hibernated: float = 0.3
    captive: float = 1.0
    progress: float = 7.0
    exposed_here: float = 1.2
    exposed_near: float = 0.35
    gate_at_risk: float = 2.0
    rival_share: float = 0.6
    track_clock: float = 1.5
    #: Doom without six spellbooks: the share it counts, and what revealed Doom costs (brings the end nearer),
    #: more past 18 and much more past 25.
    unbooked_doom: float = 0.5
    shown_doom: float = 0.1
    doom_past_18: float = 0.8
    doom_past_25: float = 3.0
    #: Hastening the end with six spellbooks and the lead: per step of the Ritual track, per point of Doom.
    end_step: float = 3.0
    end_doom: float = 0.5
    #: Power in hand for an Awakening that meets a requirement, as a share of a spellbook.
    awakening_share: float = 0.45
    #: A spellbook on an Independent Great Old One's card (never one of the six), and progress towards one.
    igoo_book: float = 3.0
    igoo_progress: float = 2.0
    #: A certain win by the learned model of who wins (``win_model.py``), in points: the heuristic leaves the model
    #: out (0); the search adds it (``search.WIN_CHANCE``).
    win_chance: float = 0.0


DEFAULT = Weights()


@dataclass
class Strength:
    """One faction's strength, term by term."""

    spellbooks: float = 0.0
    doom: float = 0.0
    gates: float = 0.0
    units: float = 0.0
    power: float = 0.0
    exposure: float = 0.0
    progress: float = 0.0
    endgame: float = 0.0

    @property
    def total(self) -> float:
        return self.spellbooks + self.doom + self.gates + self.units + self.power + self.exposure + self.progress + self.endgame


@dataclass
class Evaluation:
    value: float
    mine: Strength
    rival: Strength | None
    rival_seat: int | None
    terms: dict[str, float] = field(default_factory=dict)


def doom_estimate(state: GameState, seat: int, viewer: int) -> float:
    """Doom with Elder Signs: at their values for the viewer's own, at the bag's mean for anyone else's."""
    if seat != viewer:
        return kn.public_doom(state, seat)
    fs = state.seats[seat]
    return fs.doom + sum(fs.elder_signs)


def doom_worth(state: GameState, seat: int, viewer: int, books: int, w: Weights = DEFAULT) -> float:
    """Doom counts fully with six spellbooks. Without them it counts less, each step of the Ritual track (the
    clock towards Instant Death) counts against, and Doom on the track near 30 is a danger: reaching 30 ends
    the game, and a game ending before six spellbooks is lost (``cthulhu-wars/end``)."""
    estimate = doom_estimate(state, seat, viewer)
    if books >= 6:
        return w.doom * estimate
    shown = state.seats[seat].doom
    # Revealed Doom is a little worse than hidden Elder Signs of the same value: it brings the end nearer.
    return (w.unbooked_doom * w.doom * estimate - w.track_clock * state.ritual_step - w.shown_doom * shown
            - w.doom_past_18 * max(0, shown - 18) - w.doom_past_25 * max(0, shown - 25))


Occupancy = dict[str, tuple[int, int, int]]


def occupancy(state: GameState) -> list[Occupancy]:
    """For each seat: area -> (Cultists, Monsters and Great Old Ones, Great Old Ones) on the map."""
    out = []
    for seat, fs in enumerate(state.seats):
        fac = kn.faction(state, seat)
        goos = fac.goos()
        areas: dict[str, list[int]] = {}
        for kind, places in fs.units.items():
            unit = fac.unit(kind)
            column = 0 if unit.role == "cultist" else 1
            for p in places:
                if board.on_map(p):
                    entry = areas.setdefault(p, [0, 0, 0])
                    entry[column] += 1
                    if kind in goos:
                        entry[2] += 1
        out.append({a: (c, m, g) for a, (c, m, g) in areas.items()})
    return out


def threatens(enemy: tuple[int, int, int] | None, guarded: bool) -> bool:
    """Whether an enemy's figures in an Area (:func:`occupancy`) could capture our Cultists there: a Great Old One
    of theirs captures past our Monsters, their Monsters only where we have none (``cthulhu-wars/actions``, Capture
    Cultist; our own Great Old One there protects them from both, and is asked before)."""
    return enemy is not None and (enemy[2] > 0 or (enemy[1] > 0 and not guarded))


def strength(state: GameState, seat: int, viewer: int, occupied: list[Occupancy] | None = None,
             round_: int | None = None, w: Weights = DEFAULT) -> Strength:
    fs = state.seats[seat]
    fac = kn.faction(state, seat)
    occupied = occupied or occupancy(state)
    st = Strength()
    books = kn.books(state, seat)
    st.spellbooks = w.book * books + (w.sixth_book if books >= 6 else 0.0) + w.igoo_book * kn.igoo_books(state, seat)
    st.doom = doom_worth(state, seat, viewer, books, w)
    gates = board.controlled_gates(state, seat)
    st.gates = w.gate * len(gates) + w.gate_site * len(kn.gate_sites(state, seat)) + w.building * len(fac.buildings(state, seat))
    near = kn.neighbours(state.layout_name)
    units = 0.0
    for kind, places in fs.units.items():
        worth = kn.unit_worth(fac, kind)
        units += worth * sum(1 for p in places if board.on_map(p))
    units += w.captive * len(fs.captives) + kn.neutral_pool_worth(state, seat)
    # Cultists open to capture (an enemy Great Old One in the area or next to it and none of ours with them, or an
    # enemy Monster and nothing of ours with them), and Gates where an enemy brings more Combat.
    exposure = 0.0
    enemies = [occupied[o] for o in range(len(state.seats)) if o != seat]
    for area, (cultists, guards, goos) in occupied[seat].items():
        if cultists and not goos:
            if any(threatens(e.get(area), guards > 0) for e in enemies):
                exposure -= w.exposed_here * cultists
            elif any(threatens(e.get(a), guards > 0) for a in near[area] for e in enemies):
                exposure -= w.exposed_near * cultists
        if area in gates and any(area in e and e[area][1] for e in enemies):
            mine = kn.combat_in(state, seat, area)
            if any(kn.combat_in(state, o, area) > mine + 1 for o in board.enemies_in(state, seat, area)):
                exposure -= w.gate_at_risk
    st.units = units
    st.exposure = exposure
    # Power counts in the round it can be spent in: once the round has changed it is the next round's income.
    # Hibernating Windwalker (``cthulhu-wars/windwalker``) keeps it for the next Gather Power: worth less, but not lost.
    if fs.flags.get("hibernating"):
        st.power = w.hibernated * fs.power
    else:
        st.power = w.power * fs.power if round_ is None or state.round == round_ else 0.0
    st.progress = (w.progress * kn.requirement_progress(state, seat) + awakening_in_reach(state, seat, w)
                   + w.igoo_progress * kn.igoo_progress(state, seat))
    return st


def awakening_in_reach(state: GameState, seat: int, w: Weights = DEFAULT) -> float:
    """Power kept for a Great Old One the faction may Awaken now (its own ``awaken_options``) when that Awakening
    is an unmet requirement (the requirement's text names it): worth part of a spellbook while the Power to pay is
    in hand, so a Ritual or small actions do not spend it first."""
    fs = state.seats[seat]
    fac = kn.faction(state, seat)
    unmet = [r.text.lower() for r in fac.requirements if r.name not in fs.requirements]
    if not unmet:
        return 0.0
    try:
        options = fac.awaken_options(state, seat)
    except (KeyError, IndexError, TypeError):
        return 0.0
    for goo, _, cost in options:
        title = fac.unit(goo).title.lower()
        if cost <= fs.power and any(title in text and "awaken" in text for text in unmet):
            return w.awakening_share * w.book
    return 0.0


def evaluate(state: GameState, seat: int, round_: int | None = None, w: Weights = DEFAULT) -> Evaluation:
    """The position for ``seat`` (see module docstring); ``round_``: the round of the decision being judged (Power
    left over in it is lost when the round ends, so a position in a later round counts no Power)."""
    if state.ending and state.phase != "over":
        state = finished(state)
    if state.phase == "over":
        winners = state.winners or []
        doom = state.seats[seat].doom - max(fs.doom for fs in state.seats)
        value = (WIN / len(winners) if seat in winners else LOSS) + doom
        return Evaluation(value, Strength(), None, None, {"game over": value})
    occupied = occupancy(state)
    mine = strength(state, seat, seat, occupied, round_, w)
    rivals = [(strength(state, s, seat, occupied, round_, w), s) for s in range(len(state.seats)) if s != seat]
    rival, rival_seat = max(rivals, key=lambda r: r[0].total)
    endgame(state, seat, mine, rivals, w)
    value = mine.total - w.rival_share * rival.total
    terms = {
        "spellbooks": round(mine.spellbooks, 1),
        "Doom and Elder Signs": round(mine.doom, 1),
        "Gates controlled": round(mine.gates, 1),
        "units on the map": round(mine.units, 1),
        "Power in hand": round(mine.power, 1),
        "Cultists and Gates at risk": round(mine.exposure, 1),
        "progress towards requirements": round(mine.progress, 1),
        "strongest rival (share)": round(-w.rival_share * rival.total, 1),
    }
    if mine.endgame:
        terms["bringing the end closer"] = round(mine.endgame, 1)
    if w.win_chance:
        chance = win_chance(state, seat, mine, rivals)
        value += w.win_chance * chance
        terms["chance of winning (learned)"] = round(w.win_chance * chance, 1)
    return Evaluation(value, mine, rival, rival_seat, terms)


def win_chance(state: GameState, seat: int, mine: Strength, rivals: list[tuple[Strength, int]]) -> float:
    """The learned model's chance that ``seat`` wins (``win_model.py``), from every faction's features."""
    strengths = {seat: mine, **{s: st for st, s in rivals}}
    scores = [win_model.score(win_model.features(state, s, strengths[s].progress, strengths[s].exposure))
              for s in range(len(state.seats))]
    return win_model.win_chances(scores)[seat]


def endgame(state: GameState, seat: int, mine: Strength, rivals: list[tuple[Strength, int]], w: Weights = DEFAULT) -> None:
    """With six spellbooks and the most Doom among those who have six, the end is worth hastening: each step of
    the Ritual track and each point of Doom towards 30 counts (``cthulhu-wars/end``)."""
    if kn.books(state, seat) < 6:
        return
    my_doom = doom_estimate(state, seat, seat)
    eligible = [doom_estimate(state, s, seat) for _, s in rivals if kn.books(state, s) >= 6]
    if eligible and max(eligible) >= my_doom:
        return
    mine.endgame = w.end_step * state.ritual_step + w.end_doom * min(my_doom, 30)


def finished(state: GameState) -> GameState:
    """A game whose end is already triggered (30 Doom in the Action phase), finished as it will be at the end of
    the turn: every Elder Sign revealed, winners named."""
    from tabletop.games.cthulhu_wars import victory

    done = state.copy()
    victory.finish(done, [])
    return done


def value(state: GameState, seat: int, round_: int | None = None, w: Weights = DEFAULT) -> float:
    return evaluate(state, seat, round_, w).value
