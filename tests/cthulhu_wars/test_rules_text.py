"""The map and Gather Power sections of rules_text agree with the data."""

import re
from pathlib import Path

import pytest

from tabletop.games.cthulhu_wars.maps import load_layout

RULES = Path(__file__).parents[2] / "rules_text" / "cthulhu-wars"
SECTIONS = ["30-gather-power.md", "60-maps.md", "61-map-decisions.md"]


@pytest.mark.parametrize("file_name", SECTIONS)
def test_section_starts_with_a_title(file_name):
    assert (RULES / file_name).read_text(encoding="utf-8").startswith("# ")


def listed_areas(layout: str) -> dict[str, str]:
    text = " ".join((RULES / "60-maps.md").read_text(encoding="utf-8").split())
    oceans, land = re.search(rf"\* `{layout}`: (.*?) \(oceans\); (.*?) \(land\)\.", text).groups()
    return {name.strip(): kind for kind, names in (("ocean", oceans), ("land", land)) for name in names.split(",")}


@pytest.mark.parametrize("layout", ["earth_3p", "earth_4p", "earth_4p_alt", "earth_5p"])
def test_maps_section_lists_exactly_the_areas_of_each_layout_with_their_types(layout):
    assert listed_areas(layout) == {area.name: area.type for area in load_layout(layout).areas}
