"""Forgiving area-name matching and list_adjacent."""

import pytest

from tabletop.core.errors import GameError, MalformedMove
from tabletop.games.cthulhu_wars.maps import AmbiguousArea, UnknownArea, list_adjacent, load_layout


@pytest.mark.parametrize(
    "text",
    ["North Atlantic", "north atlantic", "NORTH ATLANTIC", "north-atlantic", "north_atlantic", "NorthAtlantic",
     "  north   atlantic ", "North Atlantic."],
)
def test_case_spacing_and_punctuation_are_forgiven(text):
    assert load_layout("earth_3p").find_area(text).id == "north-atlantic"


@pytest.mark.parametrize(
    ("layout", "text", "area_id"),
    [("earth_5p", "NZ", "new-zealand"), ("earth_5p", "nae", "north-america-east"), ("earth_5p", "S.A.W.", "south-america-west"),
     ("earth_3p", "io", "indian-ocean"), ("earth_3p", "Antarc", "antarctica"), ("earth_3p", "arctic", "arctic-ocean"),
     ("earth_5p", "Scandi", "scandinavia"), ("earth_5p", "zealand", "new-zealand"),
     ("earth_3p", "Indian", "indian-ocean")],
)
def test_initials_beginnings_and_whole_words_are_accepted(layout, text, area_id):
    assert load_layout(layout).find_area(text).id == area_id


@pytest.mark.parametrize(
    ("layout", "text", "choices"),
    [("earth_3p", "NA", ["North America", "North Atlantic"]),
     ("earth_5p", "South America", ["South America West", "South America East"]),
     ("earth_3p", "south", ["South America", "South Pacific", "South Atlantic"]),
     ("earth_5p", "Asia", ["South Asia", "North Asia"]),
     ("earth_3p", "Atlantic", ["North Atlantic", "South Atlantic"]),
     ("earth_4p", "America East", ["North America East", "South America East"])],
)
def test_ambiguous_text_names_every_candidate(layout, text, choices):
    with pytest.raises(AmbiguousArea) as caught:
        load_layout(layout).find_area(text)
    assert caught.value.legal == choices
    for choice in choices:
        assert choice in str(caught.value)


def test_unknown_area_lists_close_names_and_every_area():
    with pytest.raises(UnknownArea) as caught:
        load_layout("earth_3p").find_area("Nort Atlantik")
    message = str(caught.value)
    assert "No area called 'Nort Atlantik'" in message
    assert "closest: North Atlantic" in message
    assert caught.value.rule == "cthulhu-wars/maps"
    assert len(caught.value.legal) == 13


def test_unknown_area_is_a_malformed_move():
    with pytest.raises(MalformedMove):
        load_layout("earth_3p").find_area("Atlantis")
    assert issubclass(UnknownArea, GameError)


def test_an_area_of_another_layout_is_unknown_here():
    with pytest.raises(UnknownArea, match=r"No area called 'North Asia' .*closest: .*Asia"):
        load_layout("earth_3p").find_area("North Asia")  # only on the Eastern board's 5-player side


def test_blank_text_is_refused():
    with pytest.raises(UnknownArea, match="area name is needed"):
        load_layout("earth_3p").find_area(" - ")


def test_list_adjacent_gives_names_and_types():
    result = list_adjacent("earth_3p", "australia")
    assert (result.layout, result.area, result.name, result.type) == ("earth_3p", "australia", "Australia", "land")
    assert {(a.id, a.name, a.type) for a in result.adjacent} == {
        ("indian-ocean", "Indian Ocean", "ocean"),
        ("south-pacific", "South Pacific", "ocean"),
    }


@pytest.mark.parametrize("layout", ["earth_3p", "earth_4p", "earth_4p_alt", "earth_5p"])
def test_list_adjacent_works_on_every_layout(layout):
    result = list_adjacent(layout, "south pacific")
    assert result.area == "south-pacific"
    assert "antarctica" in {a.id for a in result.adjacent}


def test_list_adjacent_refuses_unknown_areas():
    with pytest.raises(UnknownArea):
        list_adjacent("earth_4p", "Arabia")
