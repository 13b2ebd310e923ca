"""A dry run never shows the dice: no peeking at chance before deciding (rules_text */dry-run sections).

The check is exact rather than statistical: for every move involving chance met in many seeded games,
the dry run is asked again with the game's generator replaced by several others (the same position,
other futures). Its answer, text and structured content alike, must be identical every time, while the
real move's result does differ between those generators. An answer that is the same whatever the dice
will be carries no information about them: it cannot predict the real outcome better than chance.
"""

from __future__ import annotations

import json
import random

import pytest

from tabletop.app.game_tools import move_result
from tabletop.core.rng import Rng
from tabletop.sessions.manager import GameSessions, Played
from tabletop.sessions.store import GameStore

#: Other futures tried for each chance move.
OTHER_GENERATORS = 4


def answer(played: Played) -> tuple[str, str]:
    """What a client reads from apply_move (in full detail): its text and its structured content."""
    result, text = move_result(played, "full")
    return text, json.dumps(result.model_dump(mode="json"), sort_keys=True)


def snapshot(live) -> tuple:
    """Everything a dry run must leave alone: the position as every seat sees it, the generator, the log."""
    engine = live.engine
    rng = engine.generator(live.state)
    views = [json.dumps(engine.view(live.state, s), sort_keys=True) for s in [None, *range(engine.seat_count(live.state))]]
    return live.ply, rng.seed, rng.draws, tuple(views), tuple(live.to_move())


def soak(game: str, seats: int, options: dict | None, games: int, max_moves: int, policy=None) -> dict[str, int]:
    """Play random seeded games, dry-running every move first; returns counts of what was checked."""
    counts = {"dry_runs": 0, "chance_moves": 0, "outcomes_differed": 0}
    for number in range(games):
        sessions = GameSessions(GameStore(":memory:"))
        live, tokens = sessions.create(game, options, seats, seed=4000 + number)
        engine = live.engine
        pick = random.Random(number)
        for _ in range(max_moves):
            to_move = live.to_move()
            if not to_move:
                break
            seat = to_move[0]
            legal = engine.legal_actions(live.state, seat)
            action = policy(live.state, seat, legal, pick) if policy else pick.choice(legal)
            move = action.model_dump(mode="json")
            before = snapshot(live)
            dry = sessions.play(live.id, tokens[seat], move, dry_run=True)
            counts["dry_runs"] += 1
            assert snapshot(live) == before, "a dry run changed the game or its generator"
            if dry.chance is not None:
                counts["chance_moves"] += 1
                counts["outcomes_differed"] += check_no_peeking(sessions, live, tokens[seat], seat, action, move, dry)
            played = sessions.play(live.id, tokens[seat], move)
            if dry.chance is None:
                assert (played.events, engine.view(played.state_after, seat)) == (
                    dry.events,
                    engine.view(dry.state_after, seat),
                ), "a move without chance shows exactly what it will do"
            else:
                assert not dry.events and not any(e in answer(dry)[0] for e in played.events)
    return counts


def result_of(engine, state, seat, action) -> tuple:
    """What really playing ``action`` does: its events and the position every seat then sees."""
    after, events = engine.apply(state, seat, action)
    return tuple(events), tuple(json.dumps(engine.view(after, s), sort_keys=True) for s in range(engine.seat_count(after)))


def check_no_peeking(sessions, live, token, seat, action, move, dry) -> int:
    """Ask the dry run again under other generators; return 1 if the real results differed among them."""
    engine, real = live.engine, live.state
    answers, results = {answer(dry)}, {result_of(engine, real, seat, action)}
    try:
        for k in range(OTHER_GENERATORS):
            live.state = engine.with_generator(real, Rng(7919 * k + 13, draws=engine.generator(real).draws))
            answers.add(answer(sessions.play(live.id, token, move, dry_run=True)))
            results.add(result_of(engine, live.state, seat, action))
    finally:
        live.state = real
    assert len(answers) == 1, f"the dry run of {dry.notation!r} depends on the dice:\n" + "\n---\n".join(a[0] for a in answers)
    return int(len(results) > 1)


def test_cthulhu_dice_dry_runs_never_show_the_roll():
    counts = soak("cthulhu-dice", 3, None, games=25, max_moves=400)
    assert counts["chance_moves"] > 300
    assert counts["outcomes_differed"] > 0.9 * counts["chance_moves"], counts


@pytest.mark.parametrize("ruling", ["draw_then_return", "roll_fewer", "must_retreat"])
def test_cthulhu_dice_dry_runs_under_every_bag_ruling(ruling):
    retreat_late = lambda state, seat, legal, pick: legal[0] if state.stash < 6 or len(legal) == 1 else legal[1]  # noqa: E731
    counts = soak("cthulhu-dice", 2, {"bag_exhaustion": ruling}, games=6, max_moves=300, policy=retreat_late)
    assert counts["chance_moves"] > 50 and counts["outcomes_differed"] > 0


def test_game_of_war_first_player_die_is_not_shown_by_a_dry_run():
    def deploy_then_commit(state, seat, legal, pick):
        kinds = [a.kind for a in legal]
        return legal[kinds.index("commit")] if "commit" in kinds else legal[kinds.index("opening")]

    counts = soak("game-of-war", 2, {"opening": None}, games=12, max_moves=4, policy=deploy_then_commit)
    assert counts["chance_moves"] == 12 and counts["outcomes_differed"] > 0, counts


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cthulhu_wars_battles_and_elder_sign_draws_are_not_shown_by_a_dry_run(players):
    counts = soak("cthulhu-wars", players, None, games=4, max_moves=1500)
    assert counts["chance_moves"] > 5 and counts["outcomes_differed"] > 0, counts


def test_a_dry_run_of_every_legal_move_leaves_the_game_and_its_generator_alone():
    for game, seats in (("cthulhu-dice", 2), ("game-of-war", 2), ("cthulhu-wars", 4)):
        sessions = GameSessions(GameStore(":memory:"))
        live, tokens = sessions.create(game, None, seats, seed=17)
        pick = random.Random(2)
        for _ in range(60):
            if not live.to_move():
                break
            seat = live.to_move()[0]
            legal = live.engine.legal_actions(live.state, seat)
            before = snapshot(live)
            for action in legal[:40]:
                sessions.play(live.id, tokens[seat], action.model_dump(mode="json"), dry_run=True)
            assert snapshot(live) == before
            sessions.play(live.id, tokens[seat], pick.choice(legal).model_dump(mode="json"))
