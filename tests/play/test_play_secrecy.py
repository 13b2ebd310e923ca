"""Secrecy of the seats' pages: for every game, random legal play, and at every move each seat's page and event
carry nothing of another seat's secrets.

- Elder Signs (Cthulhu Wars): whatever values the other factions' Elder Signs have, a seat's page is the same; its
  own values are on its own page.
- A hidden deployment (A Game of War's set-up): while the set-up is secret, a seat's page is the same whatever the
  other side has placed (apart from whose decision it is and whether the other side has committed).
- Cthulhu Dice has no secret: a seat's page shows the position, the picture and the log exactly as the spectator's
  page (`/watch`) does.
- The seed never appears before the end.

A page and its events are both built from ``seat_view`` (an event's data is its JSON); pages are also fetched
through the real play app with the seat's own cookie, and they carry exactly that view.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tabletop.games import ENGINES
from tabletop.play import seat_link, seat_path
from tabletop.play.desk import seat_view
from tabletop.play.site import play_app
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.public import game_view
from tabletop.watch.site import embedded

SEATS = {"cthulhu-dice": 3, "game-of-war": 2, "cthulhu-wars": 3}
SLOW = settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def no_tools(name, arguments):  # the pages read here; nothing is played through them in this test
    raise AssertionError(f"no tool is called to read a page ({name})")


def without(view: dict, *keys: str) -> dict:
    return {k: v for k, v in view.items() if k not in keys}


@pytest.mark.parametrize("game", sorted(ENGINES))
@SLOW
@given(seed=st.integers(10**15, 2**62), moves=st.integers(0, 60), choices=st.randoms(use_true_random=False), data=st.data())
def test_no_seat_page_or_event_carries_another_seats_secret(tmp_path_factory, game, seed, moves, choices: random.Random, data):
    assert set(SEATS) == set(ENGINES), "every game is covered"
    store = GameStore(tmp_path_factory.mktemp("seat-secrecy") / "games.sqlite3")
    try:
        sessions = GameSessions(store)
        live, tokens = sessions.create(game, None, SEATS[game], seed=seed)
        app = play_app(sessions, no_tools, [])
        browsers = [TestClient(app, base_url="http://127.0.0.1") for _ in tokens]
        for seat, (browser, token) in enumerate(zip(browsers, tokens)):
            opened = browser.get(seat_link("http://127.0.0.1", live.id, seat, token), follow_redirects=False)
            assert opened.status_code == 303 and opened.headers["location"] == seat_path(live.id, seat)
        engine, shown_seed = live.engine, str(live.record.seed)
        for _ in range(moves + 1):
            views = [seat_view(sessions, live, seat) for seat in range(len(tokens))]
            for seat, view in enumerate(views):
                page = browsers[seat].get(seat_path(live.id, seat)).text
                assert embedded(view) in page, "the page carries the seat's own view and nothing else"
                if not view["over"]:
                    assert shown_seed not in json.dumps(view) and shown_seed not in page
            if game == "cthulhu-wars":
                check_elder_signs(sessions, live, data)
            if game == "game-of-war" and engine.secret_phase(live.state):
                check_hidden_deployment(sessions, live, seed, data)
            if game == "cthulhu-dice":
                public = game_view(sessions, live)
                for view in views:
                    assert (view["position"], view["svg"]) == (public["position"], public["svg"])
                    assert [(x["n"], x["move"], x["events"]) for x in view["log"]] == \
                        [(x["n"], x["move"], x["events"]) for x in public["log"]]
            if views[0]["over"]:
                break
            seat = choices.choice(engine.to_move(live.state))
            action = choices.choice(engine.legal_actions(live.state, seat))
            sessions.play(live.id, tokens[seat], engine.notation(action))
            live = sessions.get(live.id)
    finally:
        store.close()


def check_elder_signs(sessions: GameSessions, live, data) -> None:
    """Two sets of Elder Sign values of the same sizes give every other seat the same page; the owner sees its own."""
    seats = len(live.state.seats)
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    first = [data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)) for n in sizes]
    second = [data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)) for n in sizes]
    for viewer in range(seats):
        one = seat_view(sessions, with_signs(live, first, keep=viewer), viewer)
        two = seat_view(sessions, with_signs(live, second, keep=viewer), viewer)
        assert one == two, "nothing a seat is shown depends on the values of another's hidden Elder Signs"
        own = list(live.state.seats[viewer].elder_signs)
        if own:
            assert f"Elder Signs {own}" in one["position"], "a seat is told its own values"


def with_signs(live, signs: list[list[int]], keep: int):
    """The game with every faction but ``keep`` holding these Elder Signs."""
    state = live.state.copy()
    for seat, (faction, values) in enumerate(zip(state.seats, signs)):
        if seat != keep:
            faction.elder_signs = list(values)
    return replace(live, state=state)


def check_hidden_deployment(sessions: GameSessions, live, seed: int, data) -> None:
    """The same seat's page in a second game where the other side placed its units otherwise: the same."""
    engine = live.engine
    for viewer in (0, 1):
        other = 1 - viewer
        twin, tokens = sessions.create(engine.name, None, 2, seed=seed)
        for move in sessions.store.moves(live.id):
            if move.seat == viewer:
                sessions.play(twin.id, tokens[viewer], move.notation)
        if other in engine.to_move(sessions.get(twin.id).state):
            placed = [a for a in engine.legal_actions(sessions.get(twin.id).state, other)
                      if engine.notation(a).startswith(("opening", "place"))]
            if placed:
                sessions.play(twin.id, tokens[other], engine.notation(data.draw(st.sampled_from(placed))))
        twin = sessions.get(twin.id)
        if not engine.secret_phase(twin.state):
            continue
        ours, theirs = seat_view(sessions, live, viewer), seat_view(sessions, twin, viewer)
        skip = ("id", "to_move", "waiting", "your_turn", "moves", "note")
        assert committed_words(without(ours, *skip)) == committed_words(without(theirs, *skip)), \
            "nothing of the other side's secret deployment reaches a seat"


def committed_words(view: dict) -> dict:
    """The view less whether the other side has committed (which both sides are told)."""
    return {**view, "position": view["position"].replace("(committed)", "(not yet committed)"),
            "svg": (view["svg"] or "").replace("(committed)", "(not yet committed)")}


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
