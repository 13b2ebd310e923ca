"""Secrecy of the watching site: for every game, random legal play, and at every move the spectator's page and
event carry no secret.

- The seed never appears before the end.
- A hidden deployment (A Game of War's set-up): while the set-up is secret, the page is exactly the page of the
  empty set-up (apart from whose decision it is): no placement, count of placements or picture of one leaks.
- Elder Signs (Cthulhu Wars): whatever values the Elder Signs held have, the page is the same, and the owner's
  own wording of them never appears.

Pages and events are both built from ``game_view`` (an event's data is its JSON); the pages are also fetched
through the real site.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tabletop.games import ENGINES
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.public import Replays, game_view
from tabletop.watch.site import watch_app

SEATS = {"cthulhu-dice": 3, "game-of-war": 2, "cthulhu-wars": 3}


def without_turn(view: dict) -> dict:
    """The view less what a secret set-up may tell everyone: whose decision it is and which sides have committed."""
    public = {k: v for k, v in view.items() if k != "to_move"}
    public["position"] = view["position"].replace("(committed)", "(not yet committed)")
    return public


def with_elder_signs(sessions: GameSessions, live, signs: list[list[int]]) -> dict:
    """The page with the factions holding these Elder Signs (values hidden from everyone but their owner)."""
    for seat, values in zip(live.state.seats, signs):
        seat.elder_signs = list(values)
    return game_view(sessions, live)


@pytest.mark.parametrize("game", sorted(ENGINES))
# no shrinking: a failing game is reported as found (shrinking whole games takes many minutes on two cores)
@settings(
    max_examples=8,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(10**15, 2**62), moves=st.integers(0, 40), choices=st.randoms(use_true_random=False), signs=st.data())
def test_no_page_or_event_carries_a_secret(tmp_path_factory, game, seed, moves, choices: random.Random, signs):
    assert set(SEATS) == set(ENGINES), "every game is covered"
    store = GameStore(tmp_path_factory.mktemp("secrecy") / "games.sqlite3")
    try:
        sessions = GameSessions(store)
        # the same example plays the same game; seeds as long as fresh ones, so that finding one in a page means something
        live, tokens = sessions.create(game, None, SEATS[game], seed=seed)
        seed = str(live.record.seed)
        site = TestClient(watch_app(sessions, []))
        engine = live.engine
        opening = without_turn(game_view(sessions, live)) if engine.secret_phase(live.state) else None
        for _ in range(moves + 1):
            view = game_view(sessions, live)
            event = json.dumps(view)  # what the event stream sends
            page = site.get(f"/watch/games/{live.id}").text
            if not view["over"]:
                assert seed not in event and seed not in page, "the seed stays secret until the end"
            if engine.secret_phase(live.state):
                assert without_turn(view) == opening, "nothing of a secret set-up reaches the spectator"
            if game == "cthulhu-wars":
                check_elder_signs(sessions, live, signs, site)
            if view["over"]:
                frame = Replays(sessions).frame(live, choices.randint(0, live.ply))
                assert frame["svg"] is None or frame["svg"].startswith("<svg")
                break
            seat = choices.choice(engine.to_move(live.state))
            action = choices.choice(engine.legal_actions(live.state, seat))
            sessions.play(live.id, tokens[seat], engine.notation(action))
            live = sessions.get(live.id)
    finally:
        store.close()


def check_elder_signs(sessions: GameSessions, live, data, site: TestClient) -> None:
    """Two different sets of Elder Sign values of the same sizes give the same page and event; the owner's
    wording of its values appears nowhere but in the log (where a reveal made them public)."""
    seats = len(live.state.seats)
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    first = [data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)) for n in sizes]
    second = [data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)) for n in sizes]
    kept = [list(s.elder_signs) for s in live.state.seats]
    try:
        one, page_one = with_elder_signs(sessions, live, first), site.get(f"/watch/games/{live.id}").text
        two, page_two = with_elder_signs(sessions, live, second), site.get(f"/watch/games/{live.id}").text
        assert one == two and page_one == page_two, "nothing shown depends on the values of hidden Elder Signs"
        for seat, values in enumerate(second):
            if values:
                mine = live.engine.describe(live.state, seat)
                assert f"Elder Signs {values}" in mine, "the owner is told its values (the check looks for the right words)"
                unlogged = {k: v for k, v in two.items() if k != "log"}
                assert f"Elder Signs {values}" not in json.dumps(unlogged)
    finally:
        with_elder_signs(sessions, live, kept)
