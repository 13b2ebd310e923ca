"""Map data and model: every layout loads, is symmetric, and matches the seed."""

import pytest
from pydantic import ValidationError

from tabletop.games.cthulhu_wars.maps import LAYOUTS, MapLayout, layout_for_players, load_layout
from tabletop.core.errors import BadOptions

EARTH = ["earth_3p", "earth_4p", "earth_4p_alt", "earth_5p"]

# Every area the seed lists for each layout, with its type, faction symbol and glyph.
SEED_AREAS = {
    "earth_3p": {
        "Arctic Ocean": ("ocean", "windwalker", None),
        "North America": ("land", "sleeper", "snake"),
        "North Pacific": ("ocean", None, None),
        "North Atlantic": ("ocean", None, None),
        "South America": ("land", None, "snake"),
        "South Pacific": ("ocean", "great-cthulhu", None),
        "Australia": ("land", None, "arrow"),
        "Indian Ocean": ("ocean", None, None),
        "Europe": ("land", "yellow-sign", "claw"),
        "Asia": ("land", "crawling-chaos", "claw"),
        "Africa": ("land", "black-goat", "arrow"),
        "Antarctica": ("land", "windwalker", None),
        "South Atlantic": ("ocean", None, None),
    },
    "earth_4p": {
        "Arctic Ocean": ("ocean", "windwalker", None),
        "North America East": ("land", None, "snake"),
        "North America West": ("land", "sleeper", "snake"),
        "Central America": ("land", None, "snake"),
        "North Pacific": ("ocean", None, None),
        "North Atlantic": ("ocean", None, None),
        "South Atlantic": ("ocean", None, None),
        "South America West": ("land", None, "snake"),
        "South America East": ("land", None, "snake"),
        "South Pacific": ("ocean", "great-cthulhu", None),
        "New Zealand": ("land", None, "arrow"),
        "Australia": ("land", None, "arrow"),
        "Indian Ocean": ("ocean", None, None),
        "Europe": ("land", "yellow-sign", "claw"),
        "Asia": ("land", "crawling-chaos", "claw"),
        "Africa": ("land", "black-goat", "arrow"),
        "Antarctica": ("land", "windwalker", None),
    },
    "earth_4p_alt": {
        "Arctic Ocean": ("ocean", "windwalker", None),
        "North America": ("land", "sleeper", "snake"),
        "South America": ("land", None, "snake"),
        "Australia": ("land", None, "arrow"),
        "North Atlantic": ("ocean", None, None),
        "North Pacific": ("ocean", None, None),
        "Indian Ocean": ("ocean", None, None),
        "South Pacific": ("ocean", "great-cthulhu", None),
        "South Atlantic": ("ocean", None, None),
        "Antarctica": ("land", "windwalker", None),
        "East Africa": ("land", None, "arrow"),
        "West Africa": ("land", "black-goat", "arrow"),
        "Arabia": ("land", None, "claw"),
        "South Asia": ("land", "crawling-chaos", "claw"),
        "North Asia": ("land", None, "claw"),
        "Scandinavia": ("land", None, "claw"),
        "Europe": ("land", "yellow-sign", "claw"),
    },
    "earth_5p": {
        "Arctic Ocean": ("ocean", "windwalker", None),
        "North America East": ("land", None, "snake"),
        "North America West": ("land", "sleeper", "snake"),
        "Central America": ("land", None, "snake"),
        "South America West": ("land", None, "snake"),
        "South America East": ("land", None, "snake"),
        "New Zealand": ("land", None, "arrow"),
        "Australia": ("land", None, "arrow"),
        "North Atlantic": ("ocean", None, None),
        "North Pacific": ("ocean", None, None),
        "Indian Ocean": ("ocean", None, None),
        "South Pacific": ("ocean", "great-cthulhu", None),
        "South Atlantic": ("ocean", None, None),
        "Antarctica": ("land", "windwalker", None),
        "East Africa": ("land", None, "arrow"),
        "West Africa": ("land", "black-goat", "arrow"),
        "Arabia": ("land", None, "claw"),
        "South Asia": ("land", "crawling-chaos", "claw"),
        "North Asia": ("land", None, "claw"),
        "Scandinavia": ("land", None, "claw"),
        "Europe": ("land", "yellow-sign", "claw"),
    },
}


def test_every_earth_layout_is_installed():
    assert set(EARTH) <= set(LAYOUTS)


@pytest.mark.parametrize("name", LAYOUTS)
def test_adjacency_is_symmetric_and_irreflexive(name):
    layout = load_layout(name)
    for area in layout.areas:
        assert area.id not in area.adjacent
        for other in area.adjacent:
            assert area.id in layout.area(other).adjacent, f"{area.id} -> {other} is one-way"


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_area_is_reachable(name):
    layout = load_layout(name)
    seen, frontier = set(), [layout.areas[0].id]
    while frontier:
        current = frontier.pop()
        if current not in seen:
            seen.add(current)
            frontier.extend(layout.area(current).adjacent)
    assert seen == {area.id for area in layout.areas}


@pytest.mark.parametrize("name", EARTH)
def test_every_seed_area_is_present_with_its_type_symbol_and_glyph(name):
    layout = load_layout(name)
    found = {area.name: (area.type, area.faction_symbol, area.glyph) for area in layout.areas}
    assert found == SEED_AREAS[name]


@pytest.mark.parametrize(("name", "count"), [("earth_3p", 13), ("earth_4p", 17), ("earth_4p_alt", 17), ("earth_5p", 21)])
def test_area_counts(name, count):
    assert len(load_layout(name).areas) == count


@pytest.mark.parametrize(
    ("players", "alternate", "name"),
    [(3, False, "earth_3p"), (4, False, "earth_4p"), (4, True, "earth_4p_alt"), (5, False, "earth_5p")],
)
def test_layout_for_players(players, alternate, name):
    assert layout_for_players(players, alternate).name == name


@pytest.mark.parametrize(("players", "alternate"), [(2, False), (7, False), (3, True), (5, True), (6, True)])
def test_layout_for_unsupported_players_is_refused(players, alternate):
    with pytest.raises(BadOptions, match="No Earth layout"):
        layout_for_players(players, alternate)


def test_unknown_layout_lists_the_installed_ones():
    with pytest.raises(BadOptions, match="earth_3p"):
        load_layout("moon")


def test_the_earth_layouts_come_from_one_official_map_file():
    for name in EARTH:
        layout = load_layout(name)
        assert layout.map == "earth" and not layout.is_provisional and layout.origin == "built-in"
    assert load_layout("earth_4p").recommended and not load_layout("earth_4p_alt").recommended


def test_layout_names_are_forgiving_and_cached():
    assert load_layout("Earth-3p") is load_layout("earth_3p")


def test_each_faction_start_symbol_is_where_the_seed_puts_it():
    five = load_layout("earth_5p")
    assert [a.id for a in five.start_areas("great-cthulhu")] == ["south-pacific"]
    assert [a.id for a in five.start_areas("crawling-chaos")] == ["south-asia"]
    assert [a.id for a in five.start_areas("black-goat")] == ["west-africa"]
    assert [a.id for a in five.start_areas("yellow-sign")] == ["europe"]
    assert [a.id for a in five.start_areas("sleeper")] == ["north-america-west"]
    assert {a.id for a in five.start_areas("windwalker")} == {"arctic-ocean", "antarctica"}


def test_glyph_lookup():
    assert {a.id for a in load_layout("earth_3p").areas_with_glyph("arrow")} == {"australia", "africa"}


def _layout_json(**changes):
    data = load_layout("earth_3p").model_dump(mode="json")
    areas = {area["id"]: area for area in data["areas"]}
    for area_id, adjacent in changes.items():
        areas[area_id.replace("_", "-")]["adjacent"] = adjacent
    return data


def test_validation_refuses_one_way_adjacency():
    data = _layout_json(australia=["indian-ocean"])  # South Pacific still lists Australia
    with pytest.raises(ValidationError, match="south-pacific lists australia but australia does not"):
        MapLayout.model_validate(data)


def test_validation_refuses_self_adjacency():
    data = _layout_json(australia=["indian-ocean", "south-pacific", "australia"])
    with pytest.raises(ValidationError, match="australia is adjacent to itself"):
        MapLayout.model_validate(data)


def test_validation_refuses_unknown_neighbours():
    data = _layout_json(australia=["indian-ocean", "south-pacific", "new-zealand"])
    with pytest.raises(ValidationError, match="unknown area new-zealand"):
        MapLayout.model_validate(data)


def test_validation_refuses_repeated_ids():
    data = _layout_json()
    data["areas"].append(dict(data["areas"][0], name="Another Arctic"))
    with pytest.raises(ValidationError, match="two areas answer to 'arcticocean'"):
        MapLayout.model_validate(data)
