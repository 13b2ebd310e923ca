"""The Cthulhu Wars picture reads as a map for people: every area of every layout drawn as a region with its name,
land and sea apart, units as counted chips in their faction's colour, Gates in their controller's colour, the turn's
moves framed, no Elder Sign value shown, text large enough; and in chromium at 1366 pixels wide, no two area names
overlap and every chip holds its words (screenshots in tests/output/cthulhu_wars/)."""

from __future__ import annotations

import json
import random
from importlib.resources import files

import pytest
from watch.conftest import OUTPUT as WATCH_OUTPUT
from watch.conftest import browser  # noqa: F401  (the browser fixture of the watching site's tests)

from tabletop.games.cthulhu_wars import picture_earth as earth
from tabletop.games.cthulhu_wars.maps import layout_names, load_layout, use_maps_folder
from tabletop.games.cthulhu_wars.picture import COLOURS, FRAME, LAND, NAME, SEA, draw_map
from tabletop.games.cthulhu_wars.picture_layout import MAP_W, boxes_overlap, map_places
from tabletop.render import Circle, Polygon, Rect, Text, to_svg

from .cw_helpers import BG, CC, ENGINE, GC, YS, put, seated

OUTPUT = WATCH_OUTPUT.parent / "cthulhu_wars"
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]


def game_on(layout_name: str, seed: int = 1):
    """A fresh game on the layout called ``layout_name``."""
    layout = load_layout(layout_name)
    return ENGINE.new_game(ENGINE.read_options({"map": layout_name}), layout.players, seed, NAMES[: layout.players])


def mid_game(options: dict, players: int, actions: int = 110, seed: int = 7):
    """Random legal moves with a fixed seed, leaning towards those that put pieces on the map, then on into a Move."""
    weights = {"awaken": 60, "gate": 30, "summon": 25, "control": 20, "battle": 6, "move": 8, "abandon": 0.5, "done": 3}
    state = ENGINE.new_game(ENGINE.read_options(options), players, seed, NAMES[:players])
    rnd = random.Random(seed)
    for n in range(actions + 300):
        if ENGINE.outcome(state) or (n >= actions and state.turn and state.turn.moved and not state.pending):
            break
        seat = ENGINE.to_move(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        kinds = sorted({a.kind for a in legal})
        kind = "move" if n >= actions and "move" in kinds else rnd.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
        state, _ = ENGINE.apply(state, seat, rnd.choice([a for a in legal if a.kind == kind]))
    return state


def inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    x, y = point
    crossings = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


def in_box(x: float, y: float, box) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


@pytest.mark.parametrize("layout_name", layout_names())
def test_every_area_is_a_region_with_its_name_and_land_and_sea_are_apart(layout_name):
    check_regions(layout_name)


def test_a_map_from_a_maps_folder_without_places_is_drawn_too(tmp_path):
    data = json.loads(files("tabletop.games.cthulhu_wars.maps").joinpath("data", "earth.json").read_text())
    data["map"], data["title"] = "moon", "Moon"
    data["boards"][0]["sides"] = [data["boards"][0]["sides"][0]]
    data["layouts"] = [dict(data["layouts"][0], name="moon_3p", title="Moon, 3 players")]
    for area in data["boards"][0]["sides"][0]["areas"]:
        area.pop("place", None)  # every card starts on a ring
    (tmp_path / "moon.json").write_text(json.dumps(data))
    try:
        use_maps_folder(tmp_path)
        check_regions("moon_3p")
    finally:
        use_maps_folder(None)


def test_a_land_a_layout_does_not_split_is_one_outline_of_its_pieces():
    def size(polygon):
        return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]))) / 2

    areas = map_places("earth_3p").areas
    for whole in ("north-america", "south-america", "europe", "asia", "africa"):
        (outline,) = areas[whole].polygons
        pieces = [p for p in earth.LAND if p == whole or earth.PART_OF.get(p) == whole]
        assert len(pieces) >= 2 and size(outline) == pytest.approx(sum(size(earth.LAND[p]) for p in pieces)), whole


def check_regions(layout_name: str) -> None:
    """Every area of the layout: its region filled as land or sea, its name once, inside its card and its region;
    no two cards overlap; no text under 11 pixels."""
    state = game_on(layout_name)
    scene = draw_map(state, NAMES)
    places = map_places(layout_name)
    fills = {shape.points: shape.fill for shape in scene.shapes if isinstance(shape, Polygon)}
    texts = [shape for shape in scene.shapes if isinstance(shape, Text)]
    assert SEA != LAND
    for area in state.layout.areas:
        place = places.areas[area.id]
        assert place.polygons, area.id
        for polygon in place.polygons:
            assert fills.get(polygon) == (SEA if area.type == "ocean" else LAND), (layout_name, area.id)
        name = [t for t in texts if t.text == area.name and t.size == NAME]
        assert len(name) == 1, (layout_name, area.name)
        assert in_box(name[0].x, name[0].y, place.card), (layout_name, area.id)
        assert any(inside((name[0].x, name[0].y), p) for p in place.polygons), f"{area.name} is written outside its region"
    cards = sorted(places.areas.items())
    for n, (a, first) in enumerate(cards):
        for b, second in cards[n + 1 :]:
            assert not boxes_overlap(first.card, second.card), (layout_name, a, b)
    assert min(t.size for t in texts) >= 11


def test_the_earth_has_its_hemispheres_as_printed():
    for name in ("earth_3p", "earth_5p"):
        places = map_places(name)
        assert [b.title for b in places.boards] == ["Western hemisphere", "Eastern hemisphere"]
        middle = {a: (p.card[0] + p.card[2]) / 2 for a, p in places.areas.items()}
        west = {a for a, x in middle.items() if x < MAP_W / 2}
        assert {"north-pacific", "south-pacific"} <= west and not west & {"indian-ocean", "australia", "arabia", "asia"}
        assert all(middle[a] < middle["north-atlantic"] for a in middle if a.startswith(("north-america", "south-pacific")))


def chips_with(scene, words: str) -> list[tuple[Rect, Text]]:
    """The chips (label and the box under it) whose words are ``words``."""
    rects = [s for s in scene.shapes if isinstance(s, Rect)]
    found = []
    for text in (s for s in scene.shapes if isinstance(s, Text) and s.text == words):
        under = [r for r in rects if in_box(text.x + 2, text.y, (r.x, r.y, r.x + r.width, r.y + r.height))]
        if under:
            found.append((under[-1], text))
    return found


def test_units_are_counted_chips_in_their_faction_colour_and_great_old_ones_are_named():
    state = seated([GC, CC, BG, YS])
    state.seats[state.seat_of(GC)].units["acolyte"][3:] = ["north-atlantic"] * 3  # three of the six start Acolytes
    put(state, GC, "cthulhu", "north-atlantic")
    put(state, YS, "undead", "north-atlantic", 2)
    scene = draw_map(state, NAMES)
    card = map_places(state.layout_name).areas["north-atlantic"].card
    (box, text), = [(r, t) for r, t in chips_with(scene, "3 Acolytes") if in_box(t.x, t.y, card)]
    assert box.fill == COLOURS[GC] and box.width >= 60
    (goo, _), = [(r, t) for r, t in chips_with(scene, "Cthulhu") if in_box(t.x, t.y, card)]
    assert goo.fill == COLOURS[GC] and goo.stroke_width > box.stroke_width, "a Great Old One has a heavy border"
    (undead, _), = [(r, t) for r, t in chips_with(scene, "2 Undead") if in_box(t.x, t.y, card)]
    assert undead.fill == COLOURS[YS]
    starts = [t for r, t in chips_with(scene, "6 Acolytes") if r.fill == COLOURS[CC]]
    assert len(starts) == 1 and in_box(starts[0].x, starts[0].y, map_places(state.layout_name).areas["asia"].card)


def test_gates_are_coloured_by_their_controller_and_abandoned_gates_show():
    state = seated([GC, CC, BG])
    state.gates["africa"] = None
    scene = draw_map(state)
    places = map_places(state.layout_name).areas
    discs = [s for s in scene.shapes if isinstance(s, Circle)]
    for area, faction in (("south-pacific", GC), ("asia", CC)):
        assert [d for d in discs if d.fill == COLOURS[faction] and in_box(d.cx, d.cy, places[area].card)], area
    assert [d for d in discs if d.fill == "#ffffff" and in_box(d.cx, d.cy, places["africa"].card)]
    assert [t for r, t in chips_with(scene, "Abandoned Gate") if in_box(t.x, t.y, places["africa"].card)]
    assert not [d for d in discs if d.fill == COLOURS[BG] and d.cx < MAP_W], "Black Goat holds no Gate"


def frames(scene) -> list[Rect]:
    return [s for s in scene.shapes if isinstance(s, Rect) and s.stroke == FRAME and s.x < MAP_W]


def test_the_moves_of_the_turn_in_progress_are_framed():
    state = seated([GC, CC, BG])
    assert not frames(draw_map(state))
    seat = state.turn.seat
    move = next(a for a in ENGINE.legal_actions(state, seat) if a.kind == "move" and a.target == "north-pacific")
    state, _ = ENGINE.apply(state, seat, move)
    (frame,) = frames(draw_map(state))
    card = map_places(state.layout_name).areas["north-pacific"].card
    assert (frame.x, frame.y + 3) == (card[0], card[1])


def test_no_elder_sign_value_shows_for_any_viewer():
    state = seated([GC, CC, BG])
    other = state.copy()
    for fs, mine in zip(state.seats, ([1, 1], [2], [])):
        fs.elder_signs = mine
    for fs, mine in zip(other.seats, ([3, 2], [3], [])):
        fs.elder_signs = mine
    for viewer in (None, 0, 1, 2):
        seen = to_svg(ENGINE.draw(state, viewer, frozenset(), NAMES[:3]))
        assert seen == to_svg(ENGINE.draw(other, viewer, frozenset(), NAMES[:3])), viewer
        assert "Elder Signs 2" in seen and "Elder Signs 1" in seen


# ---- in chromium, at 1366 pixels wide ---------------------------------------------------------------------------------
SHAPES_JS = """
return Array.from(document.querySelectorAll('svg > *')).map(e => {
  const b = e.getBBox();
  return {tag: e.tagName, text: e.textContent, size: e.getAttribute('font-size'), x: b.x, y: b.y, w: b.width, h: b.height};
});
"""


@pytest.mark.parametrize(
    "name, options, players",
    [("earth-4p", {}, 4), ("earth-5p", {}, 5), ("earth-4p-alternate", {"alternate_layout": True}, 4),
     ("dreamlands-4p", {"map": "dreamlands"}, 4), ("earth-3p", {}, 3)],
)
def test_in_chromium_at_1366_pixels_area_names_stand_apart_and_chips_hold_their_words(browser, name, options, players):  # noqa: F811
    state = mid_game(options, players)
    svg = to_svg(ENGINE.draw(state, None, frozenset(), NAMES[:players]))
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page = OUTPUT / f"{name}.html"
    page.write_text(f"<!doctype html><html><body style='margin:0'>{svg}</body></html>")
    browser.set_window_size(1366, 1000)
    try:
        browser.get(page.as_uri())
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 1366
        shapes = browser.execute_script(SHAPES_JS)
        browser.save_screenshot(str(OUTPUT / f"{name}.png"))
    finally:
        browser.set_window_size(1400, 1000)
    names = {a.name for a in state.layout.areas}
    labels = [s for s in shapes if s["tag"] == "text" and s["text"] in names and s["size"] == str(NAME)]
    assert len(labels) == len(names)
    for n, a in enumerate(labels):
        for b in labels[n + 1 :]:
            apart = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"] or a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"]
            assert apart, (a["text"], b["text"])
    chips = 0
    for n, shape in enumerate(shapes):
        box = next((s for s in reversed(shapes[max(0, n - 2) : n]) if s["tag"] == "rect"), None)  # a Gate: rect, disc, word
        middle = shape["y"] + shape["h"] / 2
        if shape["tag"] == "text" and box and box["x"] < shape["x"] < box["x"] + box["w"] and box["y"] < middle < box["y"] + box["h"]:
            chips += 1
            assert shape["x"] + shape["w"] <= box["x"] + box["w"] + 0.5, f"{shape['text']!r} spills out of its chip"
    assert chips >= 10
