"""The Cthulhu Wars evaluation's weights: every term follows the weights it is given, and the heuristic and the
search judge by their own weights (``evaluation.Weights``)."""

from __future__ import annotations

from dataclasses import replace

from tabletop.bots.cthulhu_wars import evaluation as ev
from tabletop.bots.cthulhu_wars.heuristic import NEVER, CwHeuristicBot
from tabletop.bots.cthulhu_wars.search import CwSearchBot, GreedyPolicy
from tabletop.bots.cthulhu_wars.sim import step
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import ENGINE as CW

from .test_cw_search import turn_position


def positions(count: int):
    found = []
    for seed in range(30):
        state = turn_position(seed, 60 + 11 * seed)
        if state is not None and len(CW.legal_actions(state, CW.to_move(state)[0])) > 3:
            found.append(state)
        if len(found) == count:
            return found
    raise AssertionError("too few turn positions")


def test_every_term_follows_the_weights_it_is_given():
    doubled = ev.Weights(**{name: 2 * value for name, value in vars(ev.DEFAULT).items()})
    seen = set()
    for state in positions(3):
        seat = CW.to_move(state)[0]
        plain, twice = ev.evaluate(state, seat), ev.evaluate(state, seat, w=doubled)
        for term in ("spellbooks", "gates", "power", "exposure"):
            assert getattr(twice.mine, term) == 2 * getattr(plain.mine, term), term
            if getattr(plain.mine, term):
                seen.add(term)
        # Without the rival's share the value is the faction's own strength alone.
        alone = ev.evaluate(state, seat, w=replace(ev.DEFAULT, rival_share=0.0))
        assert alone.value == alone.mine.total
        assert plain.value == plain.mine.total - ev.DEFAULT.rival_share * plain.rival.total
    assert {"gates", "power"} <= seen  # the doubling was seen on terms that were not zero


def test_the_heuristic_and_the_search_judge_by_their_own_weights():
    """Power worth far more than anything else: the heuristic, the search and the search's rollout policy all keep the
    most Power they can this turn."""
    misers = ev.Weights(power=1000.0)
    checked = 0
    for state in positions(3):
        seat = CW.to_move(state)[0]
        legal = [a for a in CW.legal_actions(state, seat) if a.kind not in NEVER]
        kept = {str(a): step(state, seat, a).seats[seat].power for a in legal}
        if len(set(kept.values())) < 2:
            continue
        most = max(kept.values())
        assert kept[str(CwHeuristicBot(5, weights=misers).choose(CW, state, seat))] == most
        assert kept[str(CwSearchBot(5, seconds=None, iterations=6, weights=misers).choose(CW, state, seat))] == most
        assert kept[str(GreedyPolicy(Rng(5), width=len(legal), weights=misers).choose(state, seat, legal))] == most
        checked += 1
    assert checked >= 2
