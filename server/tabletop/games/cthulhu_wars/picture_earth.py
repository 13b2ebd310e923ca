"""The Earth map as the picture draws it: hand-drawn outlines after the printed map's geography (our own drawing, in
pixels of a 1020 x 752 box: the western hemisphere left of x = 510, the eastern right of it).

* ``LAND``: the outline of each land area as the 5-player sides split them. Pieces that touch share their border's
  points exactly, so a layout that does not split them draws their union (``PART_OF``).
* ``SEAS``: seed points of each sea; a sea's region is the part of the map nearer its seeds than any other sea's (the
  land is drawn over it). The North Pacific has a seed on each edge: the map wraps round there.
* ``CARDS``: the box (x, y, width, height) of each area's name, Gate and pieces; no two of one layout overlap.
  ``LAYOUT_CARDS`` moves some of them on one layout (the 6-player side, whose three more areas need room).
"""

from __future__ import annotations

from .maps import MapLayout

LAND: dict[str, tuple[tuple[float, float], ...]] = {
    "north-america-west": ((60, 96), (120, 80), (190, 70), (262, 74), (272, 130), (268, 200), (262, 262), (226, 292),
                           (196, 300), (168, 270), (146, 232), (124, 196), (96, 160), (50, 140)),
    "north-america-east": ((262, 74), (320, 62), (390, 66), (430, 92), (420, 136), (398, 168), (382, 206),
                           (360, 236), (330, 262), (296, 276), (262, 262), (268, 200), (272, 130)),
    "central-america": ((226, 292), (262, 262), (296, 276), (312, 302), (304, 330), (322, 356), (348, 376), (358, 394),
                        (342, 402), (312, 384), (280, 362), (252, 336), (234, 314)),
    "south-america-east": ((372, 410), (412, 420), (454, 440), (482, 464), (476, 494), (450, 524), (424, 560),
                           (412, 522), (384, 474)),
    "south-america-west": ((336, 416), (372, 410), (384, 474), (412, 522), (424, 560), (400, 596), (380, 630),
                           (362, 656), (348, 646), (342, 604), (334, 562), (324, 520), (316, 480), (320, 440)),
    "scandinavia": ((540, 96), (570, 76), (606, 82), (622, 110), (612, 140), (596, 160), (570, 166), (548, 150),
                    (534, 124)),
    "europe": ((516, 172), (548, 150), (570, 166), (596, 160), (612, 140), (640, 150), (650, 190), (640, 230),
               (610, 250), (580, 262), (548, 256), (524, 236), (510, 204)),
    "north-asia": ((622, 110), (660, 82), (740, 68), (840, 62), (930, 70), (992, 94), (1000, 140), (972, 176),
                   (930, 196), (880, 210), (820, 214), (760, 210), (700, 206), (650, 190), (640, 150), (612, 140)),
    "arabia": ((650, 190), (700, 206), (712, 240), (706, 280), (690, 306), (668, 318), (648, 300), (630, 272),
               (610, 250), (640, 230)),
    "south-asia": ((700, 206), (760, 210), (820, 214), (880, 210), (904, 240), (884, 280), (852, 302), (822, 332),
                   (792, 362), (770, 340), (750, 302), (730, 290), (712, 240)),
    "west-africa": ((514, 310), (554, 298), (604, 294), (612, 350), (596, 408), (556, 448), (526, 428), (504, 398),
                    (498, 350)),
    "east-africa": ((604, 294), (639, 306), (659, 336), (686, 351), (714, 368), (698, 410), (670, 462), (646, 516),
                    (618, 562), (592, 572), (572, 536), (564, 488), (556, 448), (596, 408), (612, 350)),
    "australia": ((800, 446), (850, 428), (900, 434), (932, 464), (928, 504), (892, 534), (850, 534), (816, 514),
                  (796, 480)),
    "new-zealand": ((948, 510), (976, 500), (1000, 536), (996, 588), (968, 630), (940, 612), (950, 566)),
    "antarctica": ((20, 700), (160, 684), (300, 692), (420, 678), (540, 688), (660, 680), (660, 752), (10, 752)),
    "mountains-of-madness": ((660, 680), (780, 692), (900, 684), (1000, 700), (1010, 752), (660, 752)),
}  # fmt: skip

#: The area a piece belongs to in a layout that does not split it off.
PART_OF = {
    "north-america-west": "north-america", "north-america-east": "north-america", "central-america": "north-america",
    "south-america-west": "south-america", "south-america-east": "south-america", "scandinavia": "europe",
    "north-asia": "asia", "south-asia": "asia", "arabia": "asia", "west-africa": "africa", "east-africa": "africa",
    "mountains-of-madness": "antarctica",
}  # fmt: skip

SEAS: dict[str, tuple[tuple[float, float], ...]] = {
    "arctic-ocean": ((100, 10), (300, 10), (510, 10), (720, 10), (920, 10), (480, 50)),
    "north-pacific": ((20, 170), (30, 300), (40, 380), (1016, 230), (1016, 330)),
    "north-atlantic": ((470, 170), (450, 260), (440, 360), (350, 420)),
    "south-pacific": ((40, 500), (130, 520), (160, 580), (250, 650), (1016, 640)),
    "south-atlantic": ((510, 560), (440, 660), (600, 650)),
    "indian-ocean": ((720, 450), (760, 600), (880, 650), (830, 390)),
    "bering-sea": ((24, 56), (1008, 40)),
    "mediterranean-sea": ((560, 280), (622, 286)),
}  # fmt: skip

CARDS: dict[str, tuple[float, float, float, float]] = {
    "arctic-ocean": (300, 4, 420, 58),
    "north-pacific": (8, 250, 150, 150),
    "north-america": (150, 100, 200, 150),
    "north-america-west": (100, 104, 150, 130),
    "north-america-east": (260, 84, 150, 130),
    "central-america": (220, 298, 140, 104),
    "north-atlantic": (370, 226, 132, 150),
    "south-america": (320, 444, 150, 136),
    "south-america-east": (380, 432, 120, 100),
    "south-america-west": (318, 538, 110, 110),
    "south-pacific": (40, 440, 170, 140),
    "south-atlantic": (440, 580, 160, 100),
    "scandinavia": (505, 72, 150, 92),
    "europe": (502, 166, 144, 100),
    "asia": (700, 90, 230, 150),
    "north-asia": (700, 68, 230, 120),
    "arabia": (646, 200, 110, 110),
    "south-asia": (760, 214, 140, 110),
    "africa": (512, 326, 160, 150),
    "west-africa": (502, 310, 106, 120),
    "east-africa": (612, 384, 112, 130),
    "indian-ocean": (700, 545, 170, 120),
    "australia": (800, 430, 130, 110),
    "new-zealand": (900, 556, 116, 90),
    "antarctica": (300, 694, 420, 56),
    "bering-sea": (934, 4, 82, 56),
    "mediterranean-sea": (504, 266, 140, 44),
    "mountains-of-madness": (680, 694, 330, 56),
}  # fmt: skip

LAYOUT_CARDS: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "earth_6p": {"antarctica": (180, 694, 440, 56), "europe": (502, 166, 144, 96)},
}  # fmt: skip


def card(layout_name: str, area_id: str) -> tuple[float, float, float, float]:
    """The card box of an area on a layout."""
    return LAYOUT_CARDS.get(layout_name, {}).get(area_id) or CARDS[area_id]

#: Words on the map that belong to no card: (area that must be in the layout, x, y, text).
NOTES = (("north-pacific", 1012, 300, "North Pacific"), ("south-pacific", 1012, 672, "South Pacific"),
         ("bering-sea", 58, 64, "Bering Sea"))


def fits(layout: MapLayout) -> bool:
    """Whether these tables draw every area of ``layout`` (an Earth layout of the printed sides)."""
    land = set(LAND) | set(PART_OF.values())
    return layout.map == "earth" and all(
        a.id in CARDS and (a.id in SEAS if a.type == "ocean" else a.id in land) for a in layout.areas
    )
