"""A picture of a Cthulhu Wars position for people: the map as a map, and a panel beside it.

The map (see :mod:`.picture_layout` for where each area goes) shows land and sea apart, and in each area a card: the
area's full name, its Gate in its controller's colour (or an Abandoned Gate), the map's creatures and markers, and
every faction's units as chips in the faction's colour ("3 Acolytes", a Great Old One by name with a heavy border).
Areas a figure moved into or a battle was fought in during the turn in progress are framed. The panel gives the round
and phase, who is to act, each player's Power, Doom, Elder Signs (how many, never their values) and spellbooks, and a
key. Every text is at least 11 pixels high at 1x.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...render import Circle, Line, Polygon, Rect, Scene, Text
from . import creatures
from .board import faction_of, gate_holders, on_map
from .factions import FACTIONS
from .neutrals import registry as neutrals
from .neutrals.spellbooks import book_title
from .picture_layout import MAP_H, MAP_W, TITLE_H, AreaPlace, MapPlaces, map_places
from .state import GameState

PANEL_W = 340
SMALL, NAME, HEADING = 11, 13, 14

COLOURS = {
    "great-cthulhu": "#2e8b57", "crawling-chaos": "#2f5fb3", "black-goat": "#c0392b", "yellow-sign": "#e2b527",
    "sleeper": "#c8651b", "windwalker": "#6f8494", "opener-of-the-way": "#7d3c98", "ancients": "#8d6e63",
}  # fmt: skip
SEA, SEA_EDGE, SEA_INK = "#a9cde8", "#e9f3fb", "#153e5c"
LAND, LAND_EDGE, LAND_INK = "#e4cc93", "#8a6d3b", "#3f2c0c"
BACKGROUND, PANEL, INK, FAINT, NOTE_INK = "#fbf8f0", "#f1ebdd", "#222222", "#555555", "#1f4e79"
FRAME, FRAME_FILL = "#e8590c", "#fff1dc"
CITADEL_COLOUR, TUNNEL_COLOUR, CREATURE_COLOUR, WARNING_COLOUR = "#b22222", "#7b4fa0", "#4a4a4a", "#c0392b"
#: Plurals that do not just add an "s".
PLURALS = {"Serpent Man": "Serpent Men", "Fungi from Yuggoth": "Fungi from Yuggoth", "Spawn of Yog-Sothoth":
           "Spawn of Yog-Sothoth", "Formless Spawn": "Formless Spawn", "Gnoph-Keh": "Gnoph-Keh", "Undead": "Undead",
           "Byakhee": "Byakhee", "Starspawn": "Starspawn", "Dark Young": "Dark Young", "Un-Man": "Un-Men",
           "Reanimated": "Reanimated"}  # fmt: skip
#: Order of a faction's chips in an area: its Great Old Ones first.
ROLE_ORDER = {"goo": 0, "terror": 1, "monster": 2, "cultist": 3}
#: The border of a Terror's chip (The Ancients' Yothans).
TERROR_BORDER = "#8b0000"
CHIP_H, ROW_H, CHIP_PAD, CHIP_GAP = 16, 19, 5, 4
#: Where a card's first row of chips starts, below the area's name.
CARD_TOP = 21


def faction_colour(faction: str) -> str:
    """Each faction's colour (grey for a faction this table does not know)."""
    return COLOURS.get(faction, "#777777")


def faction_title(faction: str) -> str:
    """'great-cthulhu' -> 'Great Cthulhu'."""
    return FACTIONS[faction].title if faction in FACTIONS else faction


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is in a plain sans-serif font (a little generous)."""
    narrow, thin, wide = set("ijl.,:;'!|"), set("ftr()[]- I"), set("mwMW")
    em = 0.0
    for ch in text:
        if ch in narrow:
            em += 0.29
        elif ch in thin:
            em += 0.4
        elif ch in wide:
            em += 0.94
        elif ch.isupper():
            em += 0.72
        elif ch.isdigit():
            em += 0.64
        else:
            em += 0.61
    return em * size


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# ---- the whole picture ------------------------------------------------------------------------------------------------
def draw_map(state: GameState, names: list[str] | None = None, phase: str | None = None) -> Scene:
    """The whole picture; ``names`` are the players' names in seat order, ``phase`` the phase in words."""
    places = map_places(state.layout_name)
    scene = Scene(MAP_W + PANEL_W, MAP_H, background=BACKGROUND)
    draw_boards(scene, places)
    draw_regions(scene, state, places)
    draw_titles(scene, state, places)
    busy = highlighted(state)
    for area in state.layout.areas:
        draw_card(scene, state, area.id, places.areas[area.id], area.id in busy)
    draw_panel(scene, state, names, phase or f"{state.phase} phase")
    return scene


def draw_boards(scene: Scene, places: MapPlaces) -> None:
    """Each board's frame."""
    for board in places.boards:
        left, top, right, bottom = board.box
        scene.add(Rect(left + 2, top, right - left - 4, bottom - top - 2, fill="#d9d1bf", stroke="#9d917a"))


def draw_titles(scene: Scene, state: GameState, places: MapPlaces) -> None:
    """Each board's title, the seam between the Earth's hemispheres, and on a provisional map a warning in the title
    band that it is not the printed map."""
    layout = state.layout
    for board in places.boards:
        scene.add(Text(*board.title_at, board.title, HEADING, INK))
    if places.borders and not layout.is_provisional:  # the Earth: where the two half-boards meet
        scene.add(Line(MAP_W / 2, 0, MAP_W / 2, TITLE_H, "#9d917a", 1))
    if layout.is_provisional and places.borders:  # between the Earth's hemisphere titles: short (rules: its section)
        scene.add(Text(MAP_W / 2, TITLE_H / 2 + 1, f"PROVISIONAL MAP ({layout.title})",
                       12, WARNING_COLOUR))
    elif layout.is_provisional:
        scene.add(Text(MAP_W / 2, TITLE_H / 2 + 1, f"PROVISIONAL MAP ({layout.map_title}): not the printed boards; "
                       "adjacency invented where unpublished", 12, WARNING_COLOUR))  # fmt: skip


def draw_regions(scene: Scene, state: GameState, places: MapPlaces) -> None:
    """Seas, the borders between seas, then land over them; last the words that belong to no area."""
    seas = [a for a in state.layout.areas if a.type == "ocean"]
    lands = [a for a in state.layout.areas if a.type != "ocean"]
    for area in seas:  # on the Earth a sea is several cells: their own edges are not borders
        for polygon in places.areas[area.id].polygons:
            scene.add(Polygon(polygon, fill=SEA, stroke=SEA if places.borders else SEA_INK, stroke_width=1))
    for (x1, y1), (x2, y2) in places.borders:
        scene.add(Line(x1, y1, x2, y2, SEA_EDGE, 2))
    for area in lands:
        for polygon in places.areas[area.id].polygons:
            scene.add(Polygon(polygon, fill=LAND, stroke=LAND_EDGE, stroke_width=1.5))
    for x, y, text in places.notes:
        scene.add(Text(x, y, text, SMALL, SEA_INK, anchor="end"))


def highlighted(state: GameState) -> set[str]:
    """Areas the turn in progress changed: where its moved figures stand, where it battled, the battle being fought."""
    found: set[str] = set()
    turn = state.turn
    if turn is not None:
        units = state.seats[turn.seat].units
        found |= {units[kind][i] for kind, i in turn.moved if kind in units and i < len(units[kind])}
        found |= set(turn.battled)
    if state.battle is not None:
        found.add(state.battle["area"])
    return {area for area in found if on_map(area)}


# ---- an area's card ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chip:
    """One marker in a card: a word or two on a coloured label, or a Gate (a disc and a word)."""

    text: str
    fill: str
    border: str = "#222222"
    heavy: bool = False
    gate: str | None = None  # the disc's colour, for a Gate

    @property
    def width(self) -> float:
        return text_width(self.text, SMALL) + 2 * CHIP_PAD + (16 if self.gate else 0)


def draw_card(scene: Scene, state: GameState, area_id: str, place: AreaPlace, framed: bool) -> None:
    """An area's name at the top of its card, its Citadel and tunnel, then its rows of chips."""
    area = state.layout.area(area_id)
    left, top, right, bottom = place.card
    rows = card_rows(state, area_id, right - left, bottom - top)
    if framed:  # around the name and the chips
        height = CARD_TOP + ROW_H * len(rows) + 2
        scene.add(Rect(left, top - 3, right - left, height + 3, fill=FRAME_FILL, stroke=FRAME, stroke_width=3))
    ink = SEA_INK if area.type == "ocean" and not framed else LAND_INK
    scene.add(Text((left + right) / 2, top + 10, area.name, NAME, ink))
    if area.citadel:  # a red label with the die numbers, as printed
        numbers = f"{area.citadel[0]}-{area.citadel[-1]}" if len(area.citadel) > 1 else str(area.citadel[0])
        scene.add(Rect(right - 26, top - 4, 26, 15, fill=CITADEL_COLOUR, stroke="#5a0f0f"))
        scene.add(Text(right - 13, top + 3.5, numbers, SMALL, "#ffffff"))
    if area.tunnel:  # a purple disc with the tunnel's letter
        scene.add(Circle(left + 9, top + 4, 9, fill=TUNNEL_COLOUR, stroke="#3d2454"))
        scene.add(Text(left + 9, top + 4, area.tunnel, SMALL, "#ffffff"))
    for n, row in enumerate(rows):
        draw_row(scene, row, (left + right) / 2, top + CARD_TOP + n * ROW_H)


def card_rows(state: GameState, area_id: str, width: float, height: float) -> list[list[Chip]]:
    """The card's chips in rows no wider than ``width``: Gates and markers first, then each faction's units on rows of
    their own, unless that is too tall for ``height`` (then the units run on from one faction to the next)."""
    first = flow([gate_chips(state, area_id) + marker_chips(state, area_id)], width)
    units = [chips for seat in range(len(state.seats)) if (chips := unit_chips(state, seat, area_id))]
    rows = first + flow(units, width)
    return rows if CARD_TOP + ROW_H * len(rows) <= height else first + flow([sum(units, [])], width)


def flow(groups: list[list[Chip]], width: float) -> list[list[Chip]]:
    """Chips in rows no wider than ``width``, each group starting a row."""
    rows: list[list[Chip]] = []
    for group in groups:
        for n, chip in enumerate(group):
            if n and row_width(rows[-1] + [chip]) <= width:
                rows[-1].append(chip)
            else:
                rows.append([chip])
    return rows


def row_width(row: list[Chip]) -> float:
    return sum(c.width for c in row) + CHIP_GAP * (len(row) - 1)


def draw_row(scene: Scene, row: list[Chip], centre: float, y: float) -> None:
    """A row of chips centred on ``centre``; ``y`` is the row's top."""
    x = centre - row_width(row) / 2
    for chip in row:
        scene.add(Rect(x, y, chip.width, CHIP_H, fill=chip.fill, stroke=chip.border, stroke_width=2 if chip.heavy else 1))
        text_x = x + CHIP_PAD
        if chip.gate:
            scene.add(Circle(x + CHIP_PAD + 6, y + CHIP_H / 2, 6, fill=chip.gate, stroke="#111111", stroke_width=1.5))
            text_x += 16
        scene.add(Text(text_x, y + CHIP_H / 2, chip.text, SMALL, ink_on(chip.fill), anchor="start"))
        x += chip.width + CHIP_GAP


def gate_chips(state: GameState, area_id: str) -> list[Chip]:
    """The area's Gates: a disc in the controller's colour, or a white disc for an Abandoned Gate."""
    chips = []
    for area, holder in gate_holders(state):
        if area == area_id:
            if holder is None:
                chips.append(Chip("Abandoned Gate", "#ffffff", "#777777", gate="#ffffff"))
            else:
                colour = faction_colour(state.seats[holder].faction)
                chips.append(Chip("Gate", "#ffffff", colour, gate=colour))
    return chips


def marker_chips(state: GameState, area_id: str) -> list[Chip]:
    """The map's creatures (Bhole, Zoogs), neutral pieces nobody owns (Filth left by a dead Abhoth), the factions'
    markers (Ice Age) and buildings that are not Gates (a Cathedral: a white label with a double border in its
    owner's colour) in the area."""
    chips = [Chip(name, CREATURE_COLOUR) for name in creatures.markers(state).get(area_id, [])]
    chips += [Chip(name, "#ffffff", "#777777") for name in neutrals.area_markers(state).get(area_id, [])]  # no owner's
    for s, fs in enumerate(state.seats):
        for name in FACTIONS[fs.faction].area_markers(state, s).get(area_id, []):
            chips.append(Chip(name.split(" (")[0], "#ffffff", faction_colour(fs.faction), heavy=True))
        for where, kind in FACTIONS[fs.faction].buildings(state, s):
            if where == area_id:
                chips.append(Chip(kind.title(), "#fffaf0", faction_colour(fs.faction), heavy=True))
    return chips


def unit_chips(state: GameState, seat: int, area_id: str) -> list[Chip]:
    """One chip per kind of the seat's units in the area: '3 Acolytes', 'Cthulhu' (a Great Old One, heavy border)."""
    fs = state.seats[seat]
    faction = faction_of(state, seat) if fs.faction in FACTIONS else None
    kinds = {u.name: u for u in faction.units} if faction else {}  # neutral units too (a High Priest)
    colour = faction_colour(fs.faction)
    chips = []
    for kind, count in fs.in_area(area_id).items():
        unit = kinds.get(kind)
        title = unit.title if unit else kind
        role = unit.role if unit else "monster"
        text = title if count == 1 else f"{count} {PLURALS.get(title, title + 's')}"
        if role == "terror":  # a Terror: a dark red border, marked as such
            chips.append((ROLE_ORDER[role], Chip(f"{text} (Terror)", colour, TERROR_BORDER, heavy=True)))
            continue
        chips.append((ROLE_ORDER.get(role, 2), Chip(text, colour, "#111111", heavy=role == "goo")))
    return [chip for _, chip in sorted(chips, key=lambda c: c[0])]


# ---- the panel --------------------------------------------------------------------------------------------------------
def draw_panel(scene: Scene, state: GameState, names: list[str] | None, phase: str) -> None:
    """The round and phase, the Ritual's cost, who acts (or who won), one block per player, and the key."""
    x = MAP_W + 14
    scene.add(Rect(MAP_W, 0, PANEL_W, MAP_H, fill=PANEL))
    title = f"Round {state.round}: {phase}"
    size = 16 if text_width(title, 16) <= PANEL_W - 28 else HEADING
    heading = wrap(title, PANEL_W - 28, size)
    for row, line in enumerate(heading):
        scene.add(Text(x, 16 + row * 18, line, size, INK, anchor="start"))
    y = 20 + 18 * len(heading)
    death = " (Instant Death reached)" if state.instant_death else ""
    lines = [f"Ritual of Annihilation costs {state.ritual_cost}{death}"]
    acting = acting_seat(state)
    if acting is not None:
        lines.append(f"To act: {player_label(state, acting, names)}")
    elif state.winners:
        lines.append("Won by " + ", ".join(player_label(state, s, names) for s in state.winners))
    for line in lines:
        scene.add(Text(x, y, line, 12, INK, anchor="start"))
        y += 18
    key_top = MAP_H - key_height(state)
    step = min(100, (key_top - y) / max(len(state.seats), 1))
    for seat in range(len(state.seats)):
        draw_player(scene, state, seat, names, x, y + seat * step, step, seat == acting)
    draw_key(scene, state, x, key_top)


def acting_seat(state: GameState) -> int | None:
    """The seat the game waits for: the first pending decision's, else the turn's."""
    if state.phase == "over":
        return None
    if state.pending:
        return state.pending[0].seat
    return state.turn.seat if state.turn is not None else None


def player_label(state: GameState, seat: int, names: list[str] | None) -> str:
    """'Great Cthulhu (Ann)', or the faction alone when the seat has no name."""
    player = names[seat] if names and seat < len(names) and names[seat] != f"seat {seat}" else None
    return faction_title(state.seats[seat].faction) + (f" ({player})" if player else "")


def draw_player(scene: Scene, state: GameState, seat: int, names: list[str] | None, x: float, y: float,
                height: float, acting: bool) -> None:
    """One player's block: faction and name, Power, Doom and Elder Signs, spellbooks, and public notes."""
    fs = state.seats[seat]
    colour = faction_colour(fs.faction)
    if acting:
        scene.add(Rect(x - 8, y - 4, PANEL_W - 12, height - 4, fill="#fffaf0", stroke=FRAME, stroke_width=2))
    scene.add(Rect(x, y + 1, 14, 14, fill=colour, stroke="#111111"))
    scene.add(Text(x + 20, y + 8, player_label(state, seat, names), HEADING, INK, anchor="start"))
    gates = sum(1 for _, holder in gate_holders(state) if holder == seat)
    stats = f"Power {fs.power} · Doom {fs.doom} · Gates {gates} · Elder Signs {len(fs.elder_signs)}"
    scene.add(Text(x + 20, y + 27, stats, 12, INK, anchor="start"))
    faction = faction_of(state, seat) if fs.faction in FACTIONS else None  # notes of neutral cards held too
    books = ", ".join(book_title(state, seat, b) if faction else b for b in fs.spellbooks) or "none yet"
    lines = [(line, FAINT) for line in wrap(f"Spellbooks {len(fs.spellbooks)}/6: {books}", PANEL_W - 48, SMALL)]
    for note in faction.notes(state, seat) if faction else []:  # e.g. Cursed Slumber, Hibernate
        lines += [(line, NOTE_INK) for line in wrap(note.split(" (")[0], PANEL_W - 48, SMALL)]
    for row, (line, ink) in enumerate(lines[: max(1, int((height - 44) // 14))]):
        scene.add(Text(x + 20, y + 44 + row * 14, line, SMALL, ink, anchor="start"))


def key_height(state: GameState) -> float:
    """Room the key takes at the panel's foot."""
    return 150 + 21 * len(seated_kinds_key(state)) + (16 + 14 * len(tunnel_key(state)) if tunnel_key(state) else 0)


def seated_kinds_key(state: GameState) -> list[tuple[list[Chip], str]]:
    """Key rows for what only some factions have, when one of them is seated: a Terror (a unit type that is neither
    Monster nor Cultist) and each kind of building that is not a Gate (The Ancients' Yothans and Cathedrals,
    ``cthulhu-wars/ancients``), drawn as the map draws them."""
    rows = []
    for fs in state.seats:
        if fs.faction not in FACTIONS:
            continue
        colour = faction_colour(fs.faction)
        terror = next((u.title for u in FACTIONS[fs.faction].units if u.role == "terror"), None)
        if terror is not None:
            rows.append(([Chip(f"{terror} (Terror)", colour, TERROR_BORDER, heavy=True)], "a Terror"))
    kinds = sorted({(kind, fs.faction) for s, fs in enumerate(state.seats) if fs.faction in FACTIONS
                    for _, kind in FACTIONS[fs.faction].buildings(state, s)})  # fmt: skip
    for kind, faction in dict(kinds).items():
        rows.append(([Chip(kind.title(), "#fffaf0", faction_colour(faction), heavy=True)], "a building, not a Gate"))
    return rows


def tunnel_key(state: GameState) -> list[str]:
    """The tunnels of a map of several boards, one line each: 'A Zura - Ruins of Karoth'."""
    layout = state.layout
    if not layout.board_places:
        return []
    first = layout.board_places[0].id
    found = sorted({(a.tunnel, a.name, layout.area(a.tunnel_to).name) for a in layout.areas
                    if a.tunnel and a.tunnel_to and a.board == first})  # fmt: skip
    return [f"{letter}  {a} - {b}" for letter, a, b in found]


def draw_key(scene: Scene, state: GameState, x: float, y: float) -> None:
    """What the colours and markers mean."""
    scene.add(Line(x - 6, y - 8, MAP_W + PANEL_W - 8, y - 8, "#c8bda6", 1))
    scene.add(Text(x, y + 4, "Key", HEADING, INK, anchor="start"))
    scene.add(Rect(x + 40, y - 3, 18, 14, fill=SEA, stroke=SEA_INK))
    scene.add(Text(x + 64, y + 4, "Sea", SMALL, INK, anchor="start"))
    scene.add(Rect(x + 100, y - 3, 18, 14, fill=LAND, stroke=LAND_EDGE))
    scene.add(Text(x + 124, y + 4, "Land", SMALL, INK, anchor="start"))
    some = next((fs.faction for fs in state.seats), "great-cthulhu")
    samples = [
        ([Chip("Gate", "#ffffff", faction_colour(some), gate=faction_colour(some))], "in its controller's colour"),
        ([Chip("Abandoned Gate", "#ffffff", "#777777", gate="#ffffff")], "no one controls it"),
        ([Chip("3 Acolytes", faction_colour(some), "#111111")], "a faction's units, in its colour"),
        ([Chip(great_old_one(some), faction_colour(some), "#111111", heavy=True)], "a Great Old One"),
        *seated_kinds_key(state),
    ]
    for n, (row, words) in enumerate(samples):
        top = y + 16 + n * 21
        draw_row(scene, row, x + row_width(row) / 2, top)
        scene.add(Text(x + row_width(row) + 8, top + CHIP_H / 2, words, SMALL, INK, anchor="start"))
    top = y + 16 + len(samples) * 21
    scene.add(Rect(x, top, 30, CHIP_H, fill=FRAME_FILL, stroke=FRAME, stroke_width=3))
    scene.add(Text(x + 38, top + CHIP_H / 2, "moved into or battled in this turn", SMALL, INK, anchor="start"))
    lines = tunnel_key(state)
    if lines:
        top += 24
        scene.add(Rect(x, top - 1, 26, 15, fill=CITADEL_COLOUR, stroke="#5a0f0f"))
        scene.add(Text(x + 34, top + 6, "Citadel (its die numbers)", SMALL, INK, anchor="start"))
        scene.add(Text(x, top + 22, "Tunnels (the purple letters join the boards):", SMALL, INK, anchor="start"))
        for row, line in enumerate(lines):
            scene.add(Text(x + 8, top + 37 + row * 14, line, SMALL, INK, anchor="start"))


def great_old_one(faction: str) -> str:
    """The name of a faction's (first) Great Old One, for the key."""
    units = FACTIONS[faction].units if faction in FACTIONS else ()
    return next((u.title for u in units if u.role == "goo"), "Great Old One")
