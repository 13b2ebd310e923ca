"""One turn of Cthulhu Dice, solved for many situations at once: the turn graph and the backward pass.

A turn is played from dice states (``model``) with a running total ``T = banked score + stash``
(capped). Continuing is split in two steps, which keeps the graph small:

* **draw**: a state draws dice up to three (or follows the bag-exhaustion ruling) and becomes a
  *hand node* ``(tentacles, hand, bag after the draw)``;
* **roll**: a hand node rolls its dice and leads to a state (Elder Signs add to ``T``), or downs
  the player.

A *context* is the situation a turn is played in, seen by the solver as ``hold[T]`` (what
retreating with total ``T`` is worth, one value per channel), the downed value ``bust`` and the
mover's banked score ``m``. Channel 0 is the mover's own win probability, which makes every
decision (retreat when it is at least as good as rolling: ties retreat); the other channels
follow those decisions (other players' win probabilities, the derivative with respect to the
downed value, Elder Signs banked...). Nothing here knows about players or MCP.

Order of the backward pass at one total: more tentacles first (a roll without an Elder Sign
adds a tentacle or shows three clues); within one tentacle count, hand nodes, then the states
whose roll is exactly one node (three clues in hand: the only cycle of a turn, a node rolling
back to itself, solved in closed form), then the states that draw. Totals are solved from the
cap down; a roll gains at most three Elder Signs, so only four totals are kept at a time.

Work is skipped only where the answer is known without it: states whose Elder Sign dice set aside
do not fit the context's stash yet; totals above which retreating beats everything a roll can lead
to; and whole tentacle levels at totals where even the level's safest roll (the smallest chance of
being downed by it) cannot be worth more than retreating (``level_settled``). Each skip also
bounds how far the downed value may move before it stops holding, so Newton's method on rings
(``solver``) stays exact.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .model import (
    BUSTED,
    HAND_SIZE,
    TENTACLES_TO_DOWN,
    DiceRules,
    DiceState,
    elder_sign_dice,
    hand_distribution,
    initial_state,
    roll_results,
    split_state,
)

#: Values handled per numpy step (edges x columns): big enough to amortise numpy's call overhead.
CHUNK_CELLS = 1 << 19
#: Number of Elder-Sign bands each group of rows is split into, so a chunk skips contexts whose stash
#: cannot have set that many Elder Sign dice aside yet.
SIGN_BANDS = 3


@dataclass
class NodeGroup:
    """Hand nodes of one tentacle count: roll edges in CSR form (downed results and self-loops kept apart)."""

    rows: np.ndarray  # node indices
    sig: np.ndarray  # Elder Sign dice set aside, ascending
    starts: np.ndarray  # first edge of each row
    dest: np.ndarray  # state reached
    gain: np.ndarray  # Elder Signs gained
    prob: np.ndarray
    p_bust: np.ndarray
    p_self: np.ndarray  # all dice show clues: back to the state whose roll is this node
    chunks: dict = field(default_factory=dict)


@dataclass
class PureGroup:
    """States whose roll is exactly one hand node (the node with the same key)."""

    rows: np.ndarray  # state indices
    sig: np.ndarray
    node: np.ndarray
    p_self: np.ndarray
    chunks: dict = field(default_factory=dict)


@dataclass
class DrawGroup:
    """States that draw: CSR edges to hand nodes; a state with no edge cannot roll (retreat only)."""

    rows: np.ndarray
    sig: np.ndarray
    starts: np.ndarray
    node: np.ndarray
    prob: np.ndarray
    stuck: np.ndarray  # bool per row
    must_roll: np.ndarray  # bool per row: the turn-start state (no retreat before the first roll)
    chunks: dict = field(default_factory=dict)


@dataclass
class Level:
    tentacles: int
    nodes: NodeGroup
    pure: PureGroup
    draws: DrawGroup
    first_state: int = 0  # the level's states are indices first_state..end_state-1
    end_state: int = 0
    bust_floor: float = 0.0  # smallest chance, over its states that can roll, that the next roll downs the player


@dataclass
class TurnGraph:
    """Every dice state and hand node of a turn, grouped for the backward pass."""

    dice: DiceRules
    states: list[DiceState]
    index: dict[DiceState, int]
    nodes: list[DiceState]
    state_sig: np.ndarray
    levels: list[Level]
    p_eventually_bust: np.ndarray  # rolling whenever allowed, per state (for the score cap)
    p_first_bust: float  # the turn's first roll downs the player
    edges: int = 0

    @property
    def start(self) -> int:
        return self.index[initial_state(self.dice)]


def csr(rows: list[list[tuple]], width: int) -> tuple[np.ndarray, list[list]]:
    """Flatten per-row edge lists (tuples of ``width`` fields) into row starts and one list per field."""
    starts, fields = [], [[] for _ in range(width)]
    for edges in rows:
        starts.append(len(fields[0]))
        for edge in edges:
            for k in range(width):
                fields[k].append(edge[k])
    return np.array(starts, dtype=np.int64), fields


@dataclass
class Chunk:
    """Rows of one group computed together, in ELL form: rows sorted by their number of edges (most
    first) and edges stored k-major (the k-th edge of every row that has one, then the next k), so a
    row's sum is a few slice additions. ``pos``: the rows' positions in the group."""

    sig_lo: int
    pos: np.ndarray
    target: np.ndarray
    dest: np.ndarray
    gain: np.ndarray | None
    prob: np.ndarray
    counts: list[int]
    prob32: np.ndarray | None = None
    runs: list[tuple[int, int]] = field(default_factory=list)  # (count, how many k in a row have it)

    def __post_init__(self):
        self.prob32 = self.prob.astype(np.float32)
        for count in self.counts:
            if self.runs and self.runs[-1][0] == count:
                self.runs[-1] = (count, self.runs[-1][1] + 1)
            else:
                self.runs.append((count, 1))


def band_rows(sig: np.ndarray) -> list[tuple[int, int]]:
    """Row ranges of Elder-Sign bands (``sig`` ascending)."""
    n = len(sig)
    if n == 0:
        return []
    qs = np.quantile(sig, np.linspace(0, 1, SIGN_BANDS + 1)[1:-1]) if SIGN_BANDS > 1 else []
    cuts = sorted({0, n} | {int(np.searchsorted(sig, q)) for q in qs})
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if a < b]


def make_chunks(group, edges_per_chunk: int) -> list[Chunk]:
    """Cut a group into ELL chunks of at most ``edges_per_chunk`` edges within Elder-Sign bands."""
    if isinstance(group, PureGroup):
        out = []
        for lo, hi in band_rows(group.sig):
            for a in range(lo, hi, max(1, edges_per_chunk)):
                b = min(hi, a + edges_per_chunk)
                pos = np.arange(a, b)
                out.append(Chunk(int(group.sig[a]), pos, group.rows[pos], group.node[pos], None, group.p_self[pos], []))
        return out
    is_node = isinstance(group, NodeGroup)
    dest_all = group.dest if is_node else group.node
    total = len(dest_all)
    ends = np.append(group.starts[1:], total)
    degree = ends - group.starts
    out = []
    for lo, hi in band_rows(group.sig):
        first = lo
        pieces = []
        for row in range(lo, hi):
            if row > first and ends[row - 1] - group.starts[first] >= edges_per_chunk:
                pieces.append((first, row))
                first = row
        pieces.append((first, hi))
        for a, b in pieces:
            rows = np.arange(a, b)
            pos = rows[np.argsort(-degree[rows], kind="stable")]
            deg = degree[pos]
            counts, edge_ids = [], []
            for k in range(int(deg.max())):
                having = pos[deg > k]
                counts.append(len(having))
                edge_ids.append(group.starts[having] + k)
            e = np.concatenate(edge_ids)
            out.append(
                Chunk(
                    sig_lo=int(group.sig[a]),
                    pos=pos,
                    target=group.rows[pos],
                    dest=dest_all[e],
                    gain=group.gain[e] if is_node else None,
                    prob=group.prob[e],
                    counts=counts,
                )
            )
    return out


@lru_cache(maxsize=8)
def turn_graph(dice: DiceRules) -> TurnGraph:
    """Enumerate the reachable dice states and hand nodes of ``dice`` and group them for the solver."""
    if sum(dice.counts) < HAND_SIZE:
        raise ValueError(f"a bag of {sum(dice.counts)} dice cannot fill a hand of {HAND_SIZE}")
    kinds = len(dice.counts)
    start = initial_state(dice)
    draws: dict[DiceState, list] = {}
    rolls: dict[DiceState, dict] = {}
    queue = deque([start])
    draws[start] = []
    while queue:
        state = queue.popleft()
        tentacles = split_state(state, kinds)[0]
        out = []
        for hand, bag, p in hand_distribution(dice, state):
            node = tentacles + hand + bag
            out.append((node, p))
            if node not in rolls:
                rolls[node] = roll_results(dice, tentacles, hand, bag)
                for (_, nxt) in rolls[node]:
                    if nxt != BUSTED and nxt not in draws:
                        draws[nxt] = []
                        queue.append(nxt)
        draws[state] = out

    def sig(key: DiceState) -> int:
        return sum(elder_sign_dice(dice, key))

    def tentacles_of(key: DiceState) -> int:
        return sum(key[:kinds])

    states = sorted(draws, key=lambda s: (-tentacles_of(s), sig(s), s))
    index = {s: i for i, s in enumerate(states)}
    nodes = sorted(rolls, key=lambda n: (-tentacles_of(n), sig(n), n))
    node_index = {n: i for i, n in enumerate(nodes)}
    zero_state, zero_node = len(states), len(nodes)
    levels = []
    edges = 0
    for level in range(TENTACLES_TO_DOWN - 1, -1, -1):
        # hand nodes
        members = [n for n in nodes if tentacles_of(n) == level]
        rows, busts, selfs = [], [], []
        for n in members:
            bust = same = 0.0
            out = []
            for (gain, nxt), p in rolls[n].items():
                if nxt == BUSTED:
                    bust += p
                elif nxt == n and gain == 0:
                    same += p
                else:
                    out.append((index[nxt], gain, p))
            rows.append(out or [(zero_state, 0, 0.0)])
            busts.append(bust)
            selfs.append(same)
        starts, (dest, gain, prob) = csr(rows, 3)
        edges += len(dest)
        node_group = NodeGroup(
            rows=np.array([node_index[n] for n in members], dtype=np.int64),
            sig=np.array([sig(n) for n in members], dtype=np.int64),
            starts=starts,
            dest=np.array(dest, dtype=np.int64),
            gain=np.array(gain, dtype=np.int64),
            prob=np.array(prob, dtype=float),
            p_bust=np.array(busts, dtype=float),
            p_self=np.array(selfs, dtype=float),
        )
        # states: pure (roll exactly the node with the same key) or drawing
        level_states = [s for s in states if tentacles_of(s) == level]
        pure = [s for s in level_states if len(draws[s]) == 1 and draws[s][0][0] == s]
        pure_set = set(pure)
        drawing = [s for s in level_states if s not in pure_set]
        pure_nodes = np.array([node_index[s] for s in pure], dtype=np.int64)
        pure_group = PureGroup(
            rows=np.array([index[s] for s in pure], dtype=np.int64),
            sig=np.array([sig(s) for s in pure], dtype=np.int64),
            node=pure_nodes,
            p_self=node_group.p_self[np.searchsorted(node_group.rows, pure_nodes)] if len(pure) else np.zeros(0),
        )
        rows = [[(node_index[n], p) for n, p in draws[s]] or [(zero_node, 0.0)] for s in drawing]
        starts, (node, prob) = csr(rows, 2)
        edges += len(node)
        draw_group = DrawGroup(
            rows=np.array([index[s] for s in drawing], dtype=np.int64),
            sig=np.array([sig(s) for s in drawing], dtype=np.int64),
            starts=starts,
            node=np.array(node, dtype=np.int64),
            prob=np.array(prob, dtype=float),
            stuck=np.array([not draws[s] for s in drawing], dtype=bool),
            must_roll=np.array([s == start for s in drawing], dtype=bool),
        )
        indices = [index[x] for x in level_states]
        first_state, end_state = (min(indices), max(indices) + 1) if indices else (0, 0)
        assert end_state - first_state == len(indices), "a level's states are contiguous"
        node_bust = dict(zip(node_group.rows.tolist(), node_group.p_bust.tolist()))
        odds = [node_bust[int(n)] for n in pure_nodes] + [
            sum(p * node_bust[node_index[n]] for n, p in draws[x]) for x in drawing if draws[x]
        ]
        levels.append(Level(level, node_group, pure_group, draw_group, first_state, end_state, min(odds, default=0.0)))
    graph = TurnGraph(
        dice=dice,
        states=states,
        index=index,
        nodes=nodes,
        state_sig=np.array([sig(s) for s in states], dtype=np.int64),
        levels=levels,
        p_eventually_bust=np.zeros(len(states)),
        p_first_bust=0.0,
        edges=edges,
    )
    graph.p_eventually_bust, graph.p_first_bust = bust_odds(graph, draws[start], node_index)
    return graph


def bust_odds(graph: TurnGraph, draws_of_start, node_index) -> tuple[np.ndarray, float]:
    """Chance of being downed in the end when rolling whenever allowed, per state (the same sweep as the
    backward pass, without totals, repeated until nothing changes: refilled bags can cycle), and the
    chance that the turn's first roll downs the player."""
    states, nodes = len(graph.states), len(graph.nodes)
    pb = np.zeros(states + 1)
    node_value = np.zeros(nodes + 1)
    for _ in range(10_000):
        before = pb.copy()
        for level in graph.levels:
            group = level.nodes
            if len(group.rows):
                sums = np.add.reduceat(group.prob * pb[group.dest], group.starts)
                node_value[group.rows] = sums + group.p_bust
            pure = level.pure
            if len(pure.rows):
                value = node_value[pure.node] / (1.0 - pure.p_self)
                pb[pure.rows] = value
                node_value[pure.node] += pure.p_self * value
            draw = level.draws
            if len(draw.rows):
                pb[draw.rows] = np.add.reduceat(draw.prob * node_value[draw.node], draw.starts)
        if np.abs(pb - before).max() <= 1e-16:
            break
    node_bust = np.zeros(nodes + 1)
    for level in graph.levels:
        node_bust[level.nodes.rows] = level.nodes.p_bust
    first = sum(p * node_bust[node_index[n]] for n, p in draws_of_start)
    return pb[:states], first


# ---------------------------------------------------------------------------------------------
# The backward pass
# ---------------------------------------------------------------------------------------------


@dataclass
class PolicyRange:
    """Per context, how far the downed value may move (``lower <= change <= upper``, in the mover's own
    channel) with no decision changing. Within that range every value is exactly linear in the downed value."""

    lower: np.ndarray
    upper: np.ndarray

    def record(self, margin: np.ndarray, slope: np.ndarray, valid: np.ndarray | None, cols: slice) -> None:
        """Narrow the range with decisions whose retreat-minus-roll is ``margin + slope * change`` (rows x
        contexts). Retreat is chosen while that is >= 0, so a decision changes at ``-margin / slope``:
        above it when retreating with a falling slope or rolling with a rising one, below it otherwise.
        (A zero slope gives an infinite or undefined root, which the NaN-ignoring min and max skip.)"""
        with np.errstate(divide="ignore", invalid="ignore"):
            root = -margin / slope
        above = (margin >= 0) == (slope < 0)
        if valid is not None:
            up = np.where(valid & above, root, np.inf)
            down = np.where(valid & ~above, root, -np.inf)
        else:
            up = np.where(above, root, np.inf)
            down = np.where(above, -np.inf, root)
        self.upper[cols] = np.fmin(self.upper[cols], np.fmin.reduce(up, axis=0))
        self.lower[cols] = np.fmax(self.lower[cols], np.fmax.reduce(down, axis=0))


    def bound(self, calm: np.ndarray, floor: float, hold_t: np.ndarray, bust: np.ndarray, best: np.ndarray) -> None:
        """Contexts settled by ``level_settled``: that stays true while the downed value moves up by at most
        ``min(best - bust, (hold - (1 - floor) * best) / floor - bust)`` (and for any move down)."""
        if not calm.any():
            return
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.minimum(best - bust, (hold_t - (1.0 - floor) * best) / floor - bust)
        self.upper[calm] = np.minimum(self.upper[calm], room[calm])


@dataclass
class PassResult:
    """``start[T, j, ch]``: value of the turn-start state with total T (T >= movers[j]; NaN below), i.e. the
    value of a turn begun with banked score T in context j's situation. ``values`` (keep_all only):
    ``V[T, state, j, ch]``."""

    start: np.ndarray
    ranges: PolicyRange | None
    values: np.ndarray | None = None


def settled_from(hold_own: np.ndarray, bust_own: np.ndarray, movers: np.ndarray, cap: int) -> np.ndarray:
    """Per context, the highest total at which a decision is still open: above it retreating is at least as
    good as anything a roll can lead to (it beats being downed and every higher total)."""
    contexts = len(movers)
    top = np.full(contexts, cap, dtype=np.int64)
    best_above = np.full(contexts, -np.inf)
    open_ = np.ones(contexts, dtype=bool)
    for total in range(cap, -1, -1):
        here = hold_own[total]
        settled = (here >= bust_own) & (here >= best_above) & (total > movers)
        top = np.where(open_ & ~settled, total, top)
        open_ &= settled
        best_above = np.maximum(best_above, here)
    return np.maximum(np.where(open_, movers, top), movers)


def backward_pass(
    graph: TurnGraph,
    cap: int,
    hold: np.ndarray,
    bust: np.ndarray,
    movers: np.ndarray,
    with_ranges: bool = False,
    keep_all: bool = False,
    open_until: np.ndarray | None = None,
    dtype: type = np.float64,
) -> PassResult:
    """Optimal values of a turn for a batch of contexts (rules_text cthulhu-dice/turn).

    ``hold[T, j, ch]``: retreating with total T in context j; ``bust[j, ch]``: being downed;
    ``movers[j]``: the mover's banked score. With ``with_ranges`` the last channel must be the
    derivative with respect to the downed value (1 in ``bust`` and in ``hold[movers[j]]``) and the
    pass also returns how far that value may move in channel 0 with no decision changing.
    ``open_until[j]``: solve every total up to at least this one even where retreating is settled
    (a turn begun at that total must still make its first roll). ``dtype=np.float32`` halves the memory
    traffic for a pass whose result is only a guess (Newton's first step): values then carry ~1e-6 errors.

    Values are valid for totals ``T >= movers[j]`` and states whose Elder Sign dice set aside fit in
    the stash ``T - movers[j]``. At the cap more Elder Signs change nothing: retreat, or (if being
    downed is better) roll until downed or stopped.
    """
    contexts, channels = bust.shape
    movers = np.asarray(movers, dtype=np.int64)
    states = len(graph.states)
    hold_own, bust_own = hold[:, :, 0], bust[:, 0]
    top = settled_from(hold_own, bust_own, movers, cap)
    if open_until is not None:
        top = np.maximum(top, np.minimum(np.asarray(open_until, dtype=np.int64), cap))
    # Column order: contexts decided below the cap first (highest score first), then the others
    # (lowest score first): at each total the open ones are a contiguous span.
    short = top < cap
    order = np.concatenate([np.flatnonzero(short)[np.argsort(-movers[short], kind="stable")],
                            np.flatnonzero(~short)[np.argsort(movers[~short], kind="stable")]])
    m = movers[order]
    t_top = top[order]
    n_short = int(short.sum())
    width = contexts * channels
    h = np.ascontiguousarray(hold[:, order, :], dtype=dtype).reshape(cap + 1, width)
    b = np.ascontiguousarray(bust[order], dtype=dtype).reshape(width)
    own_h = hold_own[:, order]
    own_b = bust_own[order]
    ranges = PolicyRange(np.full(contexts, -np.inf), np.full(contexts, np.inf)) if with_ranges else None
    slots = cap + 1 if keep_all else 5
    ring = np.zeros((slots, states + 1, width), dtype=dtype)
    flat = ring.reshape(slots * (states + 1), width)
    nodes = np.zeros((len(graph.nodes) + 1, width), dtype=dtype)
    start_state = graph.start
    start = np.full((cap + 1, contexts, channels), np.nan)
    chunk_edges = 1 << max(6, int(np.log2(max(1, CHUNK_CELLS // max(1, width)))))
    plan = [
        (level, chunks_of(level.nodes, chunk_edges), chunks_of(level.pure, chunk_edges), chunks_of(level.draws, chunk_edges))
        for level in graph.levels
    ]
    largest = max([len(c.dest) for _, a, _, d in plan for c in a + d] + [1])
    gather = Gather(largest, width, dtype)
    desc_m = m[:n_short]  # descending
    asc_m = m[n_short:]  # ascending

    def slot(total: int) -> int:
        if keep_all:
            return min(total, cap)
        return 4 if total >= cap else total % 4

    # Columns whose stash can hold ``sig`` Elder Sign dice at total T: short columns from first_ok[T - sig]
    # on, long ones up to end_ok[T - sig] (room below 0: none).
    rooms = np.arange(cap + 1)
    first_ok = np.searchsorted(-desc_m, -rooms, side="left").tolist()
    end_ok = (n_short + np.searchsorted(asc_m, rooms, side="right")).tolist()

    def span_for(total: int, sig_lo: int, lo: int, hi: int) -> tuple[int, int]:
        """Columns within [lo, hi) whose stash can hold ``sig_lo`` Elder Sign dice at this total."""
        room = total - sig_lo
        if room < 0:
            return lo, lo
        return max(lo, first_ok[room]), min(hi, end_ok[room])

    best = np.maximum.accumulate(own_h[::-1], axis=0)[::-1]  # best retreat at this total or above
    op = (np.asarray(open_until, dtype=np.int64)[order] if open_until is not None else m)
    for total in range(cap, int(m.min()) - 1, -1):
        here = slot(total)
        block = ring[here]
        if total == cap:
            cap_values(graph, block, h[cap], b, own_h[cap], own_b, channels, start_state)
            if ranges is not None:
                margin = own_h[cap] - own_b
                slope = h[cap, channels - 1 :: channels] - b[channels - 1 :: channels]
                ranges.record(margin[None], slope[None], None, slice(0, contexts))
            start[cap, order] = block[start_state].reshape(contexts, channels)
            continue
        active = (m <= total) & (total <= t_top)
        if not active.any():
            block[:states] = h[total]
            continue
        base = np.array([slot(total + g) * (states + 1) for g in range(HAND_SIZE + 1)], dtype=np.int64)
        started = m <= total
        for level, node_chunks, pure_chunks, draw_chunks in plan:
            # Contexts where every state of this level retreats (see ``level_settled``) need no work.
            calm = level_settled(level.bust_floor, total, own_h[total], own_b, best[total], op) & started
            work = active & ~calm
            rows = slice(level.first_state, level.end_state)
            if not work.any():
                fill_columns(block, rows, np.flatnonzero(started), h[total], channels)
                if ranges is not None:
                    ranges.bound(calm, level.bust_floor, own_h[total], own_b, best[total])
                continue
            idx = np.flatnonzero(work)
            lo, hi = int(idx[0]), int(idx[-1]) + 1
            outside = np.flatnonzero(started)
            outside = outside[(outside < lo) | (outside >= hi)]
            fill_columns(block, rows, outside, h[total], channels)
            if ranges is not None:
                outside_calm = calm.copy()
                outside_calm[lo:hi] = False
                ranges.bound(outside_calm, level.bust_floor, own_h[total], own_b, best[total])
            solve_nodes(level.nodes, node_chunks, total, base, flat, nodes, b, channels, lo, hi, span_for, gather)
            solve_pure(level.pure, pure_chunks, total, block, nodes, h[total], channels, lo, hi, span_for, m, ranges)
            solve_draws(level.draws, draw_chunks, total, block, nodes, h[total], channels, lo, hi, span_for, m, ranges, gather)
        start[total, order] = block[start_state].reshape(contexts, channels)
        below = m > total
        if below.any():
            start[total, order[below]] = np.nan
    if ranges is not None:
        # Above each context's open totals, retreating stays best while the downed value stays below them.
        for j in range(contexts):
            if t_top[j] < cap:
                gap = (own_h[t_top[j] + 1 :, j] - own_b[j]).min()
                ranges.upper[j] = min(ranges.upper[j], gap)
        unordered = PolicyRange(np.empty(contexts), np.empty(contexts))
        unordered.lower[order], unordered.upper[order] = ranges.lower, ranges.upper
        ranges = unordered
    values = None
    if keep_all:
        values = np.empty((cap + 1, states, contexts, channels))
        values[:, :, order, :] = ring[:, :states].reshape(cap + 1, states, contexts, channels)
    return PassResult(start, ranges, values)


def level_settled(floor: float, total: int, hold_t: np.ndarray, bust: np.ndarray, best: np.ndarray,
                  open_until: np.ndarray) -> np.ndarray:
    """Per context: retreating is best in every state of a tentacle level at this total.

    Rolling from a state downs the player on the next roll with probability at least ``floor`` (the
    level's smallest), and otherwise ends, at best, with the best retreat at this total or above, or
    downed: it is worth at most ``floor * bust + (1 - floor) * best`` (if ``bust <= best``). When
    retreating now is worth that much, every state of the level retreats (ties retreat). Not below
    ``open_until`` (a turn begun there must make its first roll).
    """
    if floor <= 0:
        return np.zeros(len(bust), dtype=bool)
    return (total > open_until) & (bust <= hold_t) & (hold_t >= floor * bust + (1.0 - floor) * best)


def fill_columns(block: np.ndarray, rows: slice, columns: np.ndarray, hold_t: np.ndarray, channels: int) -> None:
    """Retreat values for ``rows`` of the given contexts."""
    if columns.size == 0:
        return
    if columns[-1] - columns[0] + 1 == columns.size:
        cols = slice(int(columns[0]) * channels, (int(columns[-1]) + 1) * channels)
        block[rows, cols] = hold_t[cols]
        return
    wide = (columns[:, None] * channels + np.arange(channels)[None, :]).ravel()
    block[rows, wide] = hold_t[wide]


def chunks_of(group, edges_per_chunk: int) -> list[Chunk]:
    """The group's chunks for this size (cached)."""
    if edges_per_chunk not in group.chunks:
        group.chunks[edges_per_chunk] = make_chunks(group, edges_per_chunk)
    return group.chunks[edges_per_chunk]


def cap_values(graph, block, hold_cap, bust, own_hold, own_bust, channels, start_state) -> None:
    """Values at the score cap: retreat (banking the cap) unless being downed is better, then roll on."""
    states = len(graph.states)
    roll_on = np.repeat(own_bust > own_hold, channels)
    first = graph.p_first_bust
    if not roll_on.any():  # the usual case: banking the cap is at least as good as being downed
        block[:states] = hold_cap[None, :]
        block[start_state] = first * bust + (1.0 - first) * hold_cap
        return
    pb = graph.p_eventually_bust[:, None]
    mixed = pb * bust[None, :] + (1.0 - pb) * hold_cap[None, :]
    block[:states] = np.where(roll_on[None, :], mixed, hold_cap[None, :])
    block[start_state] = np.where(roll_on, mixed[start_state], first * bust + (1.0 - first) * hold_cap)


class Gather:
    """Sums over a chunk's edges of probability x value, for columns ``cols`` of a row-major table."""

    def __init__(self, rows: int, width: int, dtype: type = np.float64):
        self.width = width
        self.buffer = np.empty(rows * width, dtype=dtype)
        self.single = dtype == np.float32

    def sums(self, table: np.ndarray, chunk: Chunk, index: np.ndarray, c0: int, c1: int) -> np.ndarray:
        n = len(index)
        if (c1 - c0) * 20 >= self.width * 7:
            gathered = self.buffer[: n * self.width].reshape(n, self.width)
            np.take(table, index, axis=0, out=gathered, mode="clip")
            if c1 - c0 < self.width:
                gathered = gathered[:, c0:c1]
        else:
            gathered = table[index, c0:c1]
        gathered *= (chunk.prob32 if self.single else chunk.prob)[:, None]
        # k-th edges of the rows that have them: runs of equal counts are summed in one step.
        out = None
        offset = 0
        for count, repeat in chunk.runs:
            block = gathered[offset : offset + count * repeat]
            part = block.reshape(repeat, count, block.shape[1]).sum(axis=0) if repeat > 1 else block
            if out is None:
                out = part
            else:
                out[:count] += part
            offset += count * repeat
        return out


def solve_nodes(group: NodeGroup, chunks, total, base, flat, nodes, bust, channels, lo, hi, span_for, gather) -> None:
    """Hand nodes: expected value of one roll, without the roll that shows three clues again."""
    for chunk in chunks:
        c0, c1 = span_for(total, chunk.sig_lo, lo, hi)
        if c0 >= c1:
            continue
        cols = slice(c0 * channels, c1 * channels)
        sums = gather.sums(flat, chunk, base[chunk.gain] + chunk.dest, cols.start, cols.stop)
        sums += group.p_bust[chunk.pos, None] * bust[None, cols]
        nodes[chunk.target, cols] = sums


def decide(retreat, roll, channels, must, stuck, valid, ranges, cols_ctx, hold_deriv):
    """Retreat or roll per state and context: retreat when at least as good for the mover (ties retreat)."""
    margin = retreat[None, ::channels] - roll[:, ::channels]
    keep = margin >= 0
    if must is not None and must.any():
        keep[must] = False
    if stuck is not None and stuck.any():
        keep[stuck] = True
    if ranges is not None:
        skip = None
        if must is not None and must.any():
            skip = must
        if stuck is not None and stuck.any():
            skip = stuck if skip is None else (skip | stuck)
        if skip is not None:
            valid = ~skip[:, None] if valid is None else (valid & ~skip[:, None])
        slope = hold_deriv[None, :] - roll[:, channels - 1 :: channels]
        ranges.record(margin, slope, valid, cols_ctx)
    if channels > 1:
        keep = np.repeat(keep, channels, axis=1)
    return np.where(keep, np.broadcast_to(retreat, roll.shape), roll)


def room_mask(sig: np.ndarray, total: int, m: np.ndarray):
    """Which (row, context) pairs are possible (the stash holds the Elder Sign dice set aside); None if all."""
    if sig.max() <= total - m.max():
        return None
    return sig[:, None] <= (total - m[None, :])


def solve_pure(group: PureGroup, chunks, total, block, nodes, hold_t, channels, lo, hi, span_for, m, ranges) -> None:
    """Three clues in hand: roll the same node until something else happens, or retreat."""
    for chunk in chunks:
        c0, c1 = span_for(total, chunk.sig_lo, lo, hi)
        if c0 >= c1:
            continue
        cols = slice(c0 * channels, c1 * channels)
        node = chunk.dest
        p_self = chunk.prob[:, None]
        excl = nodes[node, cols]
        roll = excl / (1.0 - p_self)
        valid = room_mask(group.sig[chunk.pos], total, m[c0:c1]) if ranges is not None else None
        deriv = hold_t[cols][channels - 1 :: channels] if ranges is not None else None
        chosen = decide(hold_t[cols], roll, channels, None, None, valid, ranges, slice(c0, c1), deriv)
        block[chunk.target, cols] = chosen
        nodes[node, cols] = excl + p_self * chosen


def solve_draws(group: DrawGroup, chunks, total, block, nodes, hold_t, channels, lo, hi, span_for, m, ranges, gather) -> None:
    """States that draw: expected value of the hand nodes they can draw into, or retreat."""
    for chunk in chunks:
        c0, c1 = span_for(total, chunk.sig_lo, lo, hi)
        if c0 >= c1:
            continue
        cols = slice(c0 * channels, c1 * channels)
        roll = gather.sums(nodes, chunk, chunk.dest, cols.start, cols.stop)
        valid = room_mask(group.sig[chunk.pos], total, m[c0:c1]) if ranges is not None else None
        deriv = hold_t[cols][channels - 1 :: channels] if ranges is not None else None
        chosen = decide(
            hold_t[cols], roll, channels, group.must_roll[chunk.pos], group.stuck[chunk.pos], valid, ranges, slice(c0, c1), deriv
        )
        block[chunk.target, cols] = chosen
