"""Six players on the 6-player Earth map (rules_text ``cthulhu-wars/earth-six-players``): the layout's Areas and
adjacency as the fact sheet gives them, its provenance (provisional: known from fan programs only), six-player set-up
and start Areas, the Ritual track for six players as a ruling with its option, random six-player games keeping the
invariants, and the picture of a six-player game."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tabletop.core.errors import BadOptions
from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.maps import layout_for, list_adjacent, load_layout
from tabletop.games.cthulhu_wars.maps.check import read_map_file
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.picture import NAME, draw_map
from tabletop.games.cthulhu_wars.picture_layout import boxes_overlap, map_places
from tabletop.games.cthulhu_wars.state import SIX_PLAYER_RITUAL_TRACKS
from tabletop.render import Text

from watch.conftest import browser  # noqa: F401  (the browser fixture of the watching site's tests)

from . import test_picture_for_people as picture_for_people
from .cw_helpers import play, random_game, seated
from .test_cw_random_games import check_invariants

SIX = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper", "windwalker"]
OCEANS = {"bering-sea", "arctic-ocean", "north-atlantic", "mediterranean-sea", "south-atlantic", "north-pacific",
          "indian-ocean", "south-pacific"}  # fmt: skip
LANDS = {"scandinavia", "europe", "north-asia", "south-asia", "arabia", "west-africa", "east-africa", "australia",
         "new-zealand", "north-america-west", "north-america-east", "central-america", "south-america-west",
         "south-america-east", "antarctica", "mountains-of-madness"}  # fmt: skip


def layout():
    return load_layout("earth_6p")


# ---- the map ------------------------------------------------------------------------------------------------------
def test_six_players_get_the_six_player_layout_of_24_areas_8_of_them_oceans():
    six = layout_for("earth", 6)
    assert six.name == "earth_6p" and six.players == 6 and len(six.areas) == 24
    assert {a.id for a in six.areas if a.type == "ocean"} == OCEANS
    assert {a.id for a in six.areas if a.type == "land"} == LANDS


@pytest.mark.parametrize(
    "first, second",
    [("bering-sea", "north-asia"), ("bering-sea", "north-america-east"), ("arctic-ocean", "bering-sea"),
     ("mediterranean-sea", "arabia"), ("mediterranean-sea", "west-africa"), ("mountains-of-madness", "indian-ocean"),
     ("antarctica", "mountains-of-madness"), ("new-zealand", "south-pacific"), ("north-pacific", "south-asia"),
     ("north-atlantic", "north-pacific")],
)
def test_links_of_the_fact_sheet_work_both_ways(first, second):
    assert layout().are_adjacent(first, second) and layout().are_adjacent(second, first)


@pytest.mark.parametrize(
    "first, second",
    [("arctic-ocean", "north-america-west"), ("arctic-ocean", "north-pacific"), ("arabia", "north-atlantic"),
     ("antarctica", "indian-ocean"), ("south-pacific", "australia")],
)
def test_links_the_six_player_side_reroutes_are_gone(first, second):
    assert not layout().are_adjacent(first, second)
    assert load_layout("earth_5p").are_adjacent(first, second) or (first, second) == ("south-pacific", "australia")


def test_adjacency_is_symmetric_and_the_map_checker_finds_no_problem():
    six = layout()
    for area in six.areas:
        for other in area.adjacent:
            assert area.id in six.area(other).adjacent, (area.id, other)
    assert sum(len(a.adjacent) for a in six.areas) // 2 == 64
    mapfile, problems = read_map_file(__import__("pathlib").Path(ENGINE_MAP_FILE))
    assert mapfile is not None and problems == []


ENGINE_MAP_FILE = str(
    __import__("importlib.resources", fromlist=["files"]).files("tabletop.games.cthulhu_wars.maps") / "data" / "earth.json"
)


def test_the_rest_of_the_map_is_the_five_player_map():
    five, six = load_layout("earth_5p"), layout()
    rerouted = {"arctic-ocean", "arabia", "north-atlantic", "antarctica", "indian-ocean", "north-asia",
                "north-america-east", "north-america-west", "north-pacific", "europe", "west-africa", "south-atlantic"}
    for area in five.areas:
        if area.id not in rerouted:
            assert set(six.area(area.id).adjacent) == set(area.adjacent), area.id
        assert (six.area(area.id).glyph, six.area(area.id).type) == (area.glyph, area.type), area.id


def test_the_layout_is_provisional_and_says_where_it_comes_from():
    six = layout()
    assert six.is_provisional and "fan programs" in six.provenance_summary
    assert six.provenance_rule == "cthulhu-wars/earth-six-players"
    assert six.fact_is_provisional("adjacent", "north-asia", "bering-sea")
    assert not six.fact_is_provisional("adjacent", "mediterranean-sea", "arabia")
    assert not load_layout("earth_5p").is_provisional
    found = list_adjacent("earth_6p", "Bering Sea")
    assert found.rule == "cthulhu-wars/earth-six-players" and found.map_note
    assert [a.provisional for a in found.adjacent if a.id == "north-asia"] == [True]


# ---- set-up ---------------------------------------------------------------------------------------------------------
def test_start_areas_on_the_six_player_map():
    state = ENGINE.new_game(CthulhuWarsOptions(factions=SIX), 6, 1)
    starts = {fs.faction: fs.flags.get("start-area") for fs in state.seats}
    assert starts == {"great-cthulhu": "south-pacific", "crawling-chaos": "south-asia", "black-goat": "west-africa",
                      "yellow-sign": "europe", "sleeper": "north-america-west", "windwalker": None}
    windwalker = SIX.index("windwalker")
    assert state.pending[0].seat == windwalker
    assert sorted(a.area for a in ENGINE.legal_actions(state, windwalker)) == ["arctic-ocean", "mountains-of-madness"]


def test_the_opener_places_last_anywhere_without_a_gate():
    factions = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "windwalker", "opener-of-the-way"]
    state = seated(factions, starts={"windwalker": "mountains-of-madness"})
    assert state.seats[4].flags["start-area"] == "mountains-of-madness"
    assert state.seats[5].flags["start-area"] not in {"south-pacific", "south-asia", "west-africa", "europe",
                                                       "mountains-of-madness"}


@pytest.mark.parametrize("seats", [2, 7])
def test_other_player_counts_are_refused_with_the_legal_ones(seats):
    with pytest.raises(BadOptions) as err:
        ENGINE.new_game(CthulhuWarsOptions(), seats, 1)
    assert "3 to 6 players" in err.value.message and err.value.legal == ["3", "4", "5", "6"]


def test_six_players_on_a_map_without_a_six_player_layout_are_refused():
    with pytest.raises(BadOptions) as err:
        ENGINE.new_game(CthulhuWarsOptions(map="dreamlands"), 6, 1)
    assert "for 6 players" in err.value.message


def test_six_factions_must_be_six_different_known_ones():
    with pytest.raises(BadOptions):
        ENGINE.new_game(CthulhuWarsOptions(factions=SIX[:5] + ["the-ancients"]), 6, 1)
    with pytest.raises(BadOptions):
        ENGINE.new_game(CthulhuWarsOptions(factions=SIX[:5] + ["sleeper"]), 6, 1)


# ---- the Ritual track for six players (ruling six-player-ritual-track) ------------------------------------------------
def test_the_default_six_player_track_is_the_extended_unofficial_one():
    state = seated(SIX)
    assert state.options.ritual_track_six_players == "extended"
    assert state.ritual_track == (5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 10, 10)
    assert len(state.ritual_track) - 1 == 12  # twelve cost spaces, then Instant Death


def test_the_option_can_use_the_printed_five_player_track():
    state = seated(SIX, ritual_track_six_players="five-player")
    assert state.ritual_track == SIX_PLAYER_RITUAL_TRACKS["five-player"] == (5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10)


def test_the_option_changes_nothing_below_six_players():
    five = seated(SIX[:5], ritual_track_six_players="five-player")
    assert five.ritual_track == seated(SIX[:5]).ritual_track == (5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10)


def test_an_unknown_track_is_refused():
    with pytest.raises(BadOptions):
        ENGINE.read_options({"ritual_track_six_players": "official"})


def test_rituals_walk_the_six_player_track_to_instant_death():
    state = seated(SIX)
    costs = []
    for _ in range(len(state.ritual_track) - 1):
        costs.append(state.ritual_cost)
        state.ritual_step += 1
    assert costs == [5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 10] and state.instant_death


# ---- random games ---------------------------------------------------------------------------------------------------
SIX_OF_SEVEN = [list(c) for c in combinations(sorted(FACTIONS), 6)]


@pytest.mark.parametrize("seed", range(4))
def test_random_six_player_games_end_and_keep_the_invariants(seed):
    """Figures conserved, Power never negative, Doom only rises, every awaited seat has a move."""
    factions = SIX_OF_SEVEN[seed % len(SIX_OF_SEVEN)]
    random.Random(seed).shuffle(factions)
    options = {"factions": factions, "ritual_track_six_players": ("extended", "five-player")[seed % 2]}
    state, moves = random_game(6, seed, check_invariants, options)
    assert ENGINE.outcome(state) is not None and state.layout_name == "earth_6p"
    replayed = ENGINE.new_game(CthulhuWarsOptions(**options), 6, seed)
    for seat, action in moves[:200]:
        replayed, _ = ENGINE.apply(replayed, seat, action)
    assert moves


def test_a_six_player_game_is_played_in_notation():
    state = seated(SIX)
    gc = SIX.index("great-cthulhu")
    state, _ = play(state, gc, "move acolyte south-pacific>new-zealand")
    assert "new-zealand" in state.seats[gc].units["acolyte"]


# ---- the picture ----------------------------------------------------------------------------------------------------
def test_every_area_of_the_six_player_map_is_drawn_with_its_name_and_cards_apart():
    state = seated(SIX)
    scene = draw_map(state, ["Ann", "Bob", "Cy", "Di", "Eve", "Flo"])
    places = map_places("earth_6p")
    texts = [s for s in scene.shapes if isinstance(s, Text)]
    names = [s.text for s in texts if s.size == NAME]
    assert set(places.areas) == {a.id for a in state.layout.areas}
    for area in state.layout.areas:
        assert names.count(area.name) == 1, area.name
    cards = sorted(places.areas.items())
    for n, (a, first) in enumerate(cards):
        for b, second in cards[n + 1 :]:
            assert not boxes_overlap(first.card, second.card), (a, b)
    words = " ".join(s.text for s in texts)
    assert "PROVISIONAL MAP (Earth, 6 players)" in words and "Flo" in words


def test_in_chromium_the_six_player_picture_reads(browser):  # noqa: F811
    """The screenshot tests/output/cthulhu_wars/earth-6p.png: a six-player game after 110 random moves, with area
    names apart and every chip holding its words (the check of test_picture_for_people)."""
    picture_for_people.test_in_chromium_at_1366_pixels_area_names_stand_apart_and_chips_hold_their_words(
        browser, "earth-6p", {}, 6)
    assert (picture_for_people.OUTPUT / "earth-6p.png").exists()
