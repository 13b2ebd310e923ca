"""Map files (rules_text cthulhu-wars/map-files): the format, `tabletop maps check`, and a server's maps folder."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from pathlib import Path

import pytest

from tabletop import cli
from tabletop.games.cthulhu_wars.maps import MapFolderError, layout_names, load_layout, offered_map, use_maps_folder
from tabletop.games.cthulhu_wars.maps.check import problems, read_map_file
from tabletop.games.cthulhu_wars.maps.fileformat import MapFile

DATA = files("tabletop.games.cthulhu_wars.maps").joinpath("data")


def earth() -> dict:
    return json.loads(DATA.joinpath("earth.json").read_text(encoding="utf-8"))


def small_map() -> dict:
    """A map of its own: Earth's 3-player side only, as map 'moon' with layout 'moon_3p'."""
    data = earth()
    data["map"], data["title"] = "moon", "Moon"
    data["boards"][0]["sides"] = [data["boards"][0]["sides"][0]]
    data["layouts"] = [dict(data["layouts"][0], name="moon_3p", title="Moon, 3 players")]
    return data


def area(data: dict, area_id: str, side: int = 0, board: int = 0) -> dict:
    return next(a for a in data["boards"][board]["sides"][side]["areas"] if a["id"] == area_id)


def found(data: dict) -> list[str]:
    return problems(MapFile.model_validate(data))


@pytest.fixture
def restore_maps():
    yield
    use_maps_folder(None)


def test_every_built_in_map_file_checks_clean():
    for name in ("earth.json", "dreamlands.json"):
        mapfile, listed = read_map_file(Path(str(DATA.joinpath(name))))
        assert mapfile is not None and listed == [], (name, listed)


def test_a_good_map_file_checks_clean():
    assert found(small_map()) == []


def test_one_way_self_repeated_and_unknown_adjacency_are_named():
    data = small_map()
    area(data, "australia")["adjacent"] = ["indian-ocean", "australia", "indian-ocean", "new-zealand"]
    listed = found(data)
    assert "side earth-3p: australia is adjacent to itself" in listed
    assert "side earth-3p: australia lists a neighbour twice" in listed
    assert any(p.startswith("side earth-3p: australia lists unknown area new-zealand") for p in listed)
    assert "side earth-3p: south-pacific lists australia but australia does not list south-pacific" in listed


def test_an_unreachable_area_is_named():
    data = small_map()
    for other in area(data, "australia")["adjacent"]:
        area(data, other)["adjacent"].remove("australia")
    area(data, "australia")["adjacent"] = []
    assert "layout moon_3p: cannot reach australia from arctic-ocean" in found(data)


def test_missing_start_symbols_and_glyphs_are_named():
    data = small_map()
    area(data, "north-america")["faction_symbol"] = None
    area(data, "antarctica")["faction_symbol"] = None
    for a in data["boards"][0]["sides"][0]["areas"]:
        if a.get("glyph") == "claw":
            a["glyph"] = None
    listed = found(data)
    assert "layout moon_3p: 1 area must carry the sleeper start symbol, 0 do" in listed
    assert "layout moon_3p: 2 areas must carry the windwalker start symbol, 1 does" in listed
    assert "layout moon_3p: no area carries the claw glyph (the Yellow Sign needs each)" in listed


def test_citadels_must_be_four_numbered_one_to_six():
    data = small_map()
    area(data, "europe")["citadel"] = [1, 2]
    area(data, "asia")["citadel"] = [2, 3]
    area(data, "africa")["citadel"] = [5]
    listed = found(data)
    assert "layout moon_3p: Earth (Western 3-player side with Eastern 3-player side) has 3 Citadels, not 4" in listed
    assert any("carries the numbers 4, 6" in p for p in listed) and any("share the number 2" in p for p in listed)


def two_boards() -> dict:
    """The small map split in two boards joined by one tunnel pair (A: Australia, Africa) and a link."""
    data = small_map()
    side = data["boards"][0]["sides"][0]
    east = {"europe", "asia", "africa", "indian-ocean"}
    west_areas = [a for a in side["areas"] if a["id"] not in east]
    east_areas = [a for a in side["areas"] if a["id"] in east]
    links = set()
    for a in west_areas + east_areas:
        mine = east if a["id"] in east else {x["id"] for x in west_areas}
        links |= {tuple(sorted((a["id"], b))) for b in a["adjacent"] if b not in mine}
        a["adjacent"] = [b for b in a["adjacent"] if b in mine]
    area_of = {a["id"]: a for a in west_areas + east_areas}
    area_of["australia"]["tunnel"] = "A"
    area_of["africa"]["tunnel"] = "A"
    links.discard(("africa", "australia"))
    data["boards"] = [
        {"id": "west", "name": "West", "sides": [{"id": "west-3p", "name": "3-player side", "areas": west_areas}]},
        {"id": "east", "name": "East", "sides": [{"id": "east-3p", "name": "3-player side", "areas": east_areas}]},
    ]
    data["layouts"][0]["sides"] = ["west-3p", "east-3p"]
    data["layouts"][0]["links"] = sorted(links)
    return data


def test_tunnels_join_two_boards_and_must_be_paired():
    data = two_boards()
    assert found(data) == []
    mapfile = MapFile.model_validate(data)
    from tabletop.games.cthulhu_wars.maps.fileformat import build_layout

    layout = build_layout(mapfile, mapfile.layouts[0], "test")
    assert layout.is_tunnel("australia", "africa") and "africa" in layout.area("australia").adjacent
    area(data, "africa", board=1)["tunnel"] = None
    area(data, "europe", board=1)["tunnel"] = "B"
    listed = found(data)
    assert "layout moon_3p: tunnel glyph A on West has no matching glyph on another board" in listed
    assert "layout moon_3p: tunnel glyph B on East has no matching glyph on another board" in listed


def test_pieces_need_their_board_and_its_citadels():
    data = two_boards()
    data["pieces"] = {"bhole": {"home": "europe", "board": "west"}, "zoogs": {"count": 6, "board": "moon"}}
    listed = found(data)
    assert "layout moon_3p: the Bhole go to the Citadels of west, which has none" in listed
    assert "layout moon_3p: the Bhole's home europe is not on west" in listed
    assert "layout moon_3p: the Zoogs need board moon, which the layout does not use" in listed


def test_seas_by_name_and_layout_sides_are_checked():
    data = small_map()
    data["seas_by_name"] = True
    area(data, "europe")["name"] = "Sea of Europa"
    data["layouts"].append(dict(data["layouts"][0], name="moon_4p", players=4, sides=["earth-3p", "nowhere"]))
    listed = found(data)
    assert "layout moon_3p: Sea of Europa has 'Sea' in its name, so it must be an ocean" in listed
    assert "layout moon_4p: no side called 'nowhere'" in listed


def test_a_provisional_map_needs_a_word_on_every_fact():
    data = small_map()
    data["provenance"] = {
        "status": "provisional", "summary": "guesswork", "sources": {"seed": "the seed"},
        "facts": [
            {"status": "confirmed", "source": "seed", "items": ["adjacent:australia~indian-ocean"], "note": "printed"},
            {"status": "provisional", "items": ["adjacent:indian-ocean~australia"], "note": "a guess"},
            {"status": "confirmed", "source": "atlas", "items": ["area:atlantis"], "note": "legend"},
        ],
    }
    listed = found(data)
    assert "provenance: adjacent:australia~indian-ocean is listed both as confirmed and as provisional" in listed
    assert "provenance fact 3: unknown source 'atlas'" in listed
    assert "provenance fact 3: area atlantis is not on the map" in listed
    assert any(p.startswith("provenance: nothing says where area:europe comes from") for p in listed)
    assert any(p.startswith("provenance: nothing says where adjacent:africa~asia@earth-3p comes from") for p in listed)


def test_a_file_that_is_not_a_map_says_why(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    assert read_map_file(bad)[1][0].startswith("bad.json is not JSON")
    bad.write_text(json.dumps({"format": 2, "map": "x"}))
    listed = read_map_file(bad)[1]
    assert "format: Input should be 1" in listed and "layouts: Field required" in listed
    assert read_map_file(tmp_path / "missing.json")[1][0].startswith("cannot read")


def test_tabletop_maps_check_reports_good_and_broken_files(tmp_path, capsys):
    good, broken = tmp_path / "moon.json", tmp_path / "broken.json"
    good.write_text(json.dumps(small_map()))
    data = small_map()
    area(data, "australia")["adjacent"] = ["indian-ocean"]
    broken.write_text(json.dumps(data))
    cli.main(["maps", "check", str(good)])
    assert "ok: map moon (official); layouts moon_3p (3 players)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        cli.main(["maps", "check", str(good), str(broken)])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and err.strip() == "tabletop: 1 of 2 map files has problems"
    assert f"{broken}: 1 problem\n  - side earth-3p: south-pacific lists australia but australia does not list south-pacific" in out


def test_a_maps_folder_adds_its_maps_beside_the_built_in_ones(tmp_path, restore_maps):
    (tmp_path / "moon.json").write_text(json.dumps(small_map()))
    added = use_maps_folder(tmp_path)
    assert [m.id for m in added] == ["moon"] and "moon_3p" in layout_names() and "earth_3p" in layout_names()
    assert load_layout("moon_3p").origin == str(tmp_path / "moon.json")
    use_maps_folder(None)
    assert "moon_3p" not in layout_names()


def test_a_folder_map_with_a_built_in_id_replaces_it(tmp_path, restore_maps):
    data = copy.deepcopy(small_map())
    data["map"] = "dreamlands"
    data["layouts"][0]["name"] = "my_dreamlands_3p"
    (tmp_path / "mine.json").write_text(json.dumps(data))
    use_maps_folder(tmp_path)
    assert list(offered_map("dreamlands").layouts) == ["my_dreamlands_3p"]
    assert "dreamlands_3p" not in layout_names()


def test_a_bad_maps_folder_is_refused_with_the_file_and_its_problems(tmp_path, restore_maps, capsys):
    data = small_map()
    area(data, "australia")["adjacent"] = ["indian-ocean"]
    (tmp_path / "moon.json").write_text(json.dumps(data))
    with pytest.raises(MapFolderError, match="moon.json is not usable .*south-pacific lists australia"):
        use_maps_folder(tmp_path)
    with pytest.raises(SystemExit) as stop:
        cli.main(["serve", "--maps", str(tmp_path)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("tabletop: map file") and err.count("\n") == 1
    with pytest.raises(MapFolderError, match="is not a folder"):
        use_maps_folder(tmp_path / "nowhere")
    clash = small_map()
    clash["map"] = "other"
    (tmp_path / "moon.json").write_text(json.dumps(small_map()))
    (tmp_path / "other.json").write_text(json.dumps(clash))
    with pytest.raises(MapFolderError, match="layout 'moon_3p' is offered by two maps"):
        use_maps_folder(tmp_path)


def test_serve_takes_the_maps_folder_from_the_environment_too(tmp_path, restore_maps, monkeypatch, capsys):
    (tmp_path / "moon.json").write_text(json.dumps(small_map()))
    monkeypatch.setenv("TABLETOP_MAPS", str(tmp_path))

    def stop(*args, **kwargs):
        raise cli.CommandError("stopped before serving")

    monkeypatch.setattr(cli, "build", stop)
    with pytest.raises(SystemExit):
        cli.main(["serve"])
    err = capsys.readouterr().err
    assert f"Cthulhu Wars maps from {tmp_path}: moon (moon_3p)" in err and "moon_3p" in layout_names()
