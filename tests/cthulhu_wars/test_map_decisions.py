"""One test per place the seed's adjacency lists were one-way, misspelt or inconsistent.

Each decision is explained in rules_text/cthulhu-wars/61-map-decisions.md.
"""

import pytest

from tabletop.games.cthulhu_wars.maps import load_layout


def adjacent(layout: str, first: str, second: str) -> bool:
    both_ways = load_layout(layout).are_adjacent(first, second), load_layout(layout).are_adjacent(second, first)
    assert both_ways[0] == both_ways[1]
    return both_ways[0]


def test_4p_south_america_west_touches_south_atlantic():
    assert adjacent("earth_4p", "south-america-west", "south-atlantic")


def test_4p_new_zealand_touches_indian_ocean():
    assert adjacent("earth_4p", "new-zealand", "indian-ocean")


def test_4p_alt_south_america_touches_north_pacific():
    assert adjacent("earth_4p_alt", "south-america", "north-pacific")


def test_4p_alt_west_africa_touches_south_atlantic():
    assert adjacent("earth_4p_alt", "west-africa", "south-atlantic")


def test_4p_alt_west_africa_does_not_touch_south_pacific():
    assert not adjacent("earth_4p_alt", "west-africa", "south-pacific")


def test_5p_misspelt_arctic_ocean_touches_north_america_east():
    assert adjacent("earth_5p", "north-america-east", "arctic-ocean")


def test_5p_antarctica_touches_south_atlantic_despite_stray_punctuation():
    assert adjacent("earth_5p", "antarctica", "south-atlantic")


def test_5p_south_atlantic_touches_indian_ocean():
    assert adjacent("earth_5p", "south-atlantic", "indian-ocean")


@pytest.mark.parametrize("layout", ["earth_3p", "earth_4p_alt", "earth_4p", "earth_5p"])
def test_north_atlantic_touches_north_pacific_on_both_western_sides_as_on_the_published_map(layout):
    """Decision 9: the published map (HRF and an independent Earth-map data set) has the pair on both sides."""
    assert adjacent(layout, "north-atlantic", "north-pacific")


@pytest.mark.parametrize(("players", "layout"), [(4, "earth_4p"), (5, "earth_5p")])
def test_a_game_follows_the_published_link_by_default_and_the_seed_reading_as_an_option(players, layout):
    from tabletop.games.cthulhu_wars import ENGINE
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

    published = ENGINE.new_game(CthulhuWarsOptions(), players, 1)
    assert published.layout_name == layout
    assert published.layout.are_adjacent("north-atlantic", "north-pacific")
    seed = ENGINE.new_game(CthulhuWarsOptions(north_atlantic_touches_north_pacific=False), players, 1)
    assert seed.layout_name == f"{layout}+seed"
    assert not seed.layout.are_adjacent("north-atlantic", "north-pacific")
    assert not seed.layout.are_adjacent("north-pacific", "north-atlantic")
    assert adjacent(f"{layout}+seed", "north-america-west", "north-pacific")  # nothing else changes
    three = ENGINE.new_game(CthulhuWarsOptions(north_atlantic_touches_north_pacific=False), 3, 1)
    assert three.layout_name == "earth_3p" and three.layout.are_adjacent("north-atlantic", "north-pacific")


# Pairs that lie on one board side must agree in every layout using that side.
WEST_3P = {"arctic-ocean", "north-america", "north-pacific", "north-atlantic", "south-america",
           "south-pacific", "australia", "antarctica", "south-atlantic"}
WEST_5P = (WEST_3P - {"north-america", "south-america"}) | {
    "north-america-east", "north-america-west", "central-america", "south-america-west", "south-america-east", "new-zealand"}
EAST_3P = {"europe", "asia", "africa", "indian-ocean"}
EAST_5P = {"scandinavia", "europe", "north-asia", "south-asia", "arabia", "west-africa", "east-africa", "indian-ocean"}


def pairs_within(layout: str, side: set[str]) -> set[frozenset[str]]:
    return {frozenset((area.id, other)) for area in load_layout(layout).areas for other in area.adjacent
            if area.id in side and other in side}


@pytest.mark.parametrize(
    ("side", "first", "second"),
    [(WEST_3P, "earth_3p", "earth_4p_alt"), (WEST_5P, "earth_4p", "earth_5p"),
     (EAST_3P, "earth_3p", "earth_4p"), (EAST_5P, "earth_4p_alt", "earth_5p")],
)
def test_a_board_side_has_the_same_adjacency_in_every_layout(side, first, second):
    assert pairs_within(first, side) == pairs_within(second, side)
