"""Names nobody should give still make well-formed pictures, and new_game refuses names with control characters.

Whatever a name holds (markup, control characters, lone surrogates, right-to-left marks), every game's picture is
well-formed XML for every viewer; and at the edge where names come in (new_game's players) control characters are
refused with a bad_options refusal that changes nothing."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from app.helpers import call, refused
from tabletop.app.server import build_server
from tabletop.games import ENGINES
from tabletop.render import to_svg
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

SEATS = {"cthulhu-dice": 2, "game-of-war": 2, "cthulhu-wars": 3}
NAME = st.text(st.characters(codec=None), min_size=1, max_size=40) | st.sampled_from(
    ["bell\x07esc\x1b[31m", "</text><script>x</script>", "a&b\"c'd", "\ud800", "\u202eevil", "\x00"]
)


@pytest.mark.parametrize("game", sorted(ENGINES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(NAME, min_size=3, max_size=3))
def test_every_picture_is_well_formed_xml_whatever_the_names(game, names):
    engine = ENGINES[game]
    seats = SEATS[game]
    state = engine.new_game(engine.read_options({}), seats, 1, names[:seats])
    for viewer in [None, *range(seats)]:
        svg = to_svg(engine.draw(state, viewer, frozenset(), names[:seats]), spots=True)
        ET.fromstring(svg)  # raises on anything XML does not allow


@pytest.mark.anyio
async def test_new_game_refuses_control_characters_in_names(tmp_path):
    server = build_server(GameSessions(GameStore(tmp_path / "g.sqlite3")))
    async with Client(server) as client:
        for players in (["bell\x07esc\x1b[31m", "Bob"], [{"name": "A\x00nn"}, "Bob"], ["Ann", "Bo\u0085b"]):
            text = await refused(client, "new_game", game="cthulhu-dice", players=players)
            assert "bad_options" in text and "control characters" in text
        assert (await call(client, "list_games", recent=5))["recent"] == [], "nothing was created"
        made = await call(client, "new_game", game="cthulhu-dice", players=["Zoë \u202eok", "Bob 🎲"])
        assert made["seats"][0]["name"] == "Zoë \u202eok"
