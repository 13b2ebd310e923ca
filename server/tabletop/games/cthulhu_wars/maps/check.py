"""Everything wrong with a map file, each problem named (``tabletop maps check FILE``; rules_text
``cthulhu-wars/map-files``).

The pydantic model checks a file's shape; :func:`problems` checks what a game needs of it: on every
side, adjacency that names known areas and works both ways; in every layout, one side per board, no
two areas answering to one name, every area reachable, each tunnel glyph on exactly two boards, a
start symbol for every faction that has one (two for Windwalker), every Yellow Sign glyph, and on a
board with Citadels exactly four of them numbered 1 to 6 between them; the Bhole's home and the
Zoogs' board present; seas named as seas; and for a provisional map, a provenance entry (confirmed,
or provisional with its note) for every fact.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import get_args

from pydantic import ValidationError

from tabletop.core.datafile import DataFileError, read_json
from tabletop.games.cthulhu_wars.maps.fileformat import (
    ITEM, LayoutEntry, MapFile, Provenance, canonical, fact_items, fact_status, layout_pairs, unqualified,
)  # fmt: skip
from tabletop.games.cthulhu_wars.maps.model import FactionSymbol, Glyph
from tabletop.games.cthulhu_wars.maps.names import normalize

#: How many Areas must carry each faction's start symbol in every layout (Windwalker picks one of two).
START_SYMBOLS = {symbol: (2 if symbol == "windwalker" else 1) for symbol in get_args(FactionSymbol)}
CITADELS_PER_BOARD = 4
#: The largest map file read (the built-in ones are about 25 KB).
MAX_FILE_BYTES = 1 << 20
#: How deep arrays and objects may nest in a map file (the format itself needs 8).
MAX_DEPTH = 16


def read_map_file(path: Path) -> tuple[MapFile | None, list[str]]:
    """The map file at ``path`` and its problems, each one line (a file that cannot be read has no map and says
    why). ``tabletop maps check`` and a server's maps folder both read files here: a regular file of at most
    MAX_FILE_BYTES, JSON nested at most MAX_DEPTH deep, ids of at most ``model.MAX_ID`` characters."""
    try:
        data = read_json(path, MAX_FILE_BYTES, MAX_DEPTH)
    except DataFileError as err:
        return None, [str(err)]
    try:
        mapfile = MapFile.model_validate(data)
    except ValidationError as err:
        return None, [" ".join(f"{'.'.join(str(p) for p in e['loc']) or 'file'}: {e['msg']}".split()) for e in err.errors()]
    return mapfile, problems(mapfile)


def problems(mapfile: MapFile) -> list[str]:
    """Every problem of a validated map file, in reading order (none for a good map)."""
    found: list[str] = []
    found += _id_problems(mapfile)
    for board in mapfile.boards:
        for side in board.sides:
            found += _side_problems(side)
    for entry in mapfile.layouts:
        found += _layout_problems(mapfile, entry)
    found += _piece_problems(mapfile)
    found += _provenance_problems(mapfile)
    return found


def _id_problems(mapfile: MapFile) -> list[str]:
    found = []
    boards = Counter(b.id for b in mapfile.boards)
    sides = Counter(s.id for b in mapfile.boards for s in b.sides)
    layouts = Counter(e.name for e in mapfile.layouts)
    found += [f"board id {b!r} is used twice" for b, n in boards.items() if n > 1]
    found += [f"side id {s!r} is used twice" for s, n in sides.items() if n > 1]
    found += [f"layout name {n!r} is used twice" for n, c in layouts.items() if c > 1]
    for players, count in Counter(e.players for e in mapfile.layouts if e.recommended).items():
        if count > 1:
            found.append(f"{count} layouts for {players} players are marked recommended; mark one")
    for players in {e.players for e in mapfile.layouts}:
        if not any(e.recommended for e in mapfile.layouts if e.players == players):
            found.append(f"no layout for {players} players is marked recommended")
    return found


def _side_problems(side) -> list[str]:
    """One side: unique ids, adjacency to known areas of the side, never to itself, never twice, both ways."""
    by_id = {area.id: area for area in side.areas}
    found = [f"side {side.id}: area id {a!r} is used twice" for a, n in Counter(a.id for a in side.areas).items() if n > 1]
    for area in side.areas:
        if area.id in area.adjacent:
            found.append(f"side {side.id}: {area.id} is adjacent to itself")
        if len(set(area.adjacent)) != len(area.adjacent):
            found.append(f"side {side.id}: {area.id} lists a neighbour twice")
        for other in area.adjacent:
            if other not in by_id:
                found.append(f"side {side.id}: {area.id} lists unknown area {other} (adjacency on a side stays on that side; "
                             "use tunnels or a layout's links to cross boards)")
            elif area.id not in by_id[other].adjacent:
                found.append(f"side {side.id}: {area.id} lists {other} but {other} does not list {area.id}")
    return found


def _layout_problems(mapfile: MapFile, entry: LayoutEntry) -> list[str]:
    where = f"layout {entry.name}"
    found = []
    resolved = [mapfile.side(s) for s in entry.sides]
    for side_id, got in zip(entry.sides, resolved, strict=True):
        if got is None:
            found.append(f"{where}: no side called {side_id!r}")
    sides = [got for got in resolved if got is not None]
    for board, n in Counter(b.id for b, _ in sides).items():
        if n > 1:
            found.append(f"{where}: uses two sides of board {board} (one side per board)")
    areas = {a.id: (b.id, a) for b, s in sides for a in s.areas}
    keys = Counter(k for _, a in areas.values() for k in {normalize(a.id), normalize(a.name)})
    found += [f"{where}: two areas answer to {k!r}" for k, n in keys.items() if n > 1]
    if sum(len(s.areas) for _, s in sides) != len(areas):
        found.append(f"{where}: an area id appears on two boards")
    links, tunnels = layout_pairs(mapfile, entry)
    adjacency = {a: set(area.adjacent) for a, (_, area) in areas.items()}
    for a, b in links:
        if a not in areas or b not in areas:
            found.append(f"{where}: link {a}~{b} names an area not in the layout")
        elif areas[a][0] == areas[b][0]:
            found.append(f"{where}: link {a}~{b} joins two areas of one board (list them as adjacent on their side)")
        elif b in adjacency[a]:
            found.append(f"{where}: link {a}~{b} is given twice")
        else:
            adjacency[a].add(b)
            adjacency[b].add(a)
    found += _tunnel_problems(where, sides, tunnels)
    for a, b, _ in tunnels:
        adjacency[a].add(b)
        adjacency[b].add(a)
    if areas:
        start = next(iter(areas))
        seen, frontier = {start}, [start]
        while frontier:
            for other in adjacency.get(frontier.pop(), ()):
                if other in areas and other not in seen:
                    seen.add(other)
                    frontier.append(other)
        if len(seen) < len(areas):
            found.append(f"{where}: cannot reach {', '.join(sorted(set(areas) - seen))} from {start}")
    symbols = Counter(a.faction_symbol for _, a in areas.values() if a.faction_symbol)
    for symbol, need in START_SYMBOLS.items():
        if symbols[symbol] < need:
            found.append(f"{where}: {need} area{'s' if need > 1 else ''} must carry the {symbol} start symbol, "
                         f"{symbols[symbol]} do{'es' if symbols[symbol] == 1 else ''}")
        elif symbols[symbol] > need:
            found.append(f"{where}: {symbols[symbol]} areas carry the {symbol} start symbol (at most {need})")
    glyphs = {a.glyph for _, a in areas.values()}
    found += [f"{where}: no area carries the {g} glyph (the Yellow Sign needs each)" for g in get_args(Glyph) if g not in glyphs]
    found += _citadel_problems(where, sides)
    if mapfile.seas_by_name:
        found += [f"{where}: {a.name} has 'Sea' in its name, so it must be an ocean" for _, a in areas.values()
                  if "sea" in normalize_words(a.name) and a.type != "ocean"]
    return found


def normalize_words(name: str) -> set[str]:
    return {normalize(w) for w in name.replace("(", " ").replace(")", " ").split()}


def _tunnel_problems(where: str, sides, tunnels) -> list[str]:
    """Each tunnel glyph once per board and on exactly two boards."""
    found = []
    letters: dict[str, list[str]] = {}
    for board, side in sides:
        counts = Counter(a.tunnel for a in side.areas if a.tunnel)
        found += [f"{where}: tunnel glyph {t} appears {n} times on {board.name}" for t, n in counts.items() if n > 1]
        for letter in counts:
            letters.setdefault(letter, []).append(board.name)
    for letter, boards in sorted(letters.items()):
        if len(boards) == 1:
            found.append(f"{where}: tunnel glyph {letter} on {boards[0]} has no matching glyph on another board")
        elif len(boards) > 2:
            found.append(f"{where}: tunnel glyph {letter} appears on {len(boards)} boards (a tunnel joins two)")
    return found


def _citadel_problems(where: str, sides) -> list[str]:
    """A board with Citadels has four, whose numbers are 1 to 6, each once."""
    found = []
    for board, side in sides:
        citadels = [a for a in side.areas if a.citadel]
        if not citadels:
            continue
        if len(citadels) != CITADELS_PER_BOARD:
            found.append(f"{where}: {board.name} ({side.name}) has {len(citadels)} Citadels, not {CITADELS_PER_BOARD}")
        numbers = Counter(n for a in citadels for n in a.citadel or ())
        missing = [n for n in range(1, 7) if not numbers[n]]
        twice = [n for n, c in numbers.items() if c > 1]
        if missing:
            found.append(f"{where}: no Citadel of {board.name} ({side.name}) carries the number{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(map(str, missing))}")
        if twice:
            found.append(f"{where}: Citadels of {board.name} ({side.name}) share the number{'s' if len(twice) > 1 else ''} "
                         f"{', '.join(map(str, sorted(twice)))}")
    return found


def _piece_problems(mapfile: MapFile) -> list[str]:
    """The Bhole's home lies on its board in every layout; the Bhole's and the Zoogs' boards have Citadels."""
    found = []
    pieces = mapfile.pieces
    for entry in mapfile.layouts:
        sides = [s for s in (mapfile.side(i) for i in entry.sides) if s is not None]
        boards = {b.id: s for b, s in sides}
        for name, piece in (("the Bhole", pieces.bhole), ("the Zoogs", pieces.zoogs)):
            if piece is None:
                continue
            side = boards.get(piece.board)
            if side is None:
                found.append(f"layout {entry.name}: {name} need board {piece.board}, which the layout does not use")
            elif not any(a.citadel for a in side.areas):
                found.append(f"layout {entry.name}: {name} go to the Citadels of {piece.board}, which has none")
        if pieces.bhole is not None and pieces.bhole.board in boards:
            if not any(a.id == pieces.bhole.home for a in boards[pieces.bhole.board].areas):
                found.append(f"layout {entry.name}: the Bhole's home {pieces.bhole.home} is not on {pieces.bhole.board}")
    return found


def _provenance_problems(mapfile: MapFile) -> list[str]:
    """The map's provenance, then that of each layout with its own (it speaks for the facts of that layout's sides)."""
    found = _one_provenance(mapfile, mapfile.provenance, fact_items(mapfile), "provenance")
    for entry in mapfile.layouts:
        if entry.provenance is not None:
            found += _one_provenance(mapfile, entry.provenance, fact_items(mapfile, entry.sides),
                                     f"layout {entry.name}: provenance")
    return found


def _one_provenance(mapfile: MapFile, provenance: Provenance, items: set[str], where: str) -> list[str]:
    found = []
    known = items | {unqualified(i) for i in items}
    listed: dict[str, list[str]] = {}
    for number, fact in enumerate(provenance.facts, start=1):
        if fact.source is not None and fact.source not in provenance.sources:
            found.append(f"{where} fact {number}: unknown source {fact.source!r}")
        if fact.status == "confirmed" and fact.source is None:
            found.append(f"{where} fact {number}: a confirmed fact needs its source")
        for item in fact.items:
            key = canonical(item)
            if key not in known:
                match = ITEM.match(item)
                what = f"{match['kind']} {item.split(':', 1)[1]}" if match else item
                found.append(f"{where} fact {number}: {what} is not on the map")
            listed.setdefault(key, []).append(fact.status)
    if provenance.status == "official":
        if any("provisional" in statuses for statuses in listed.values()):
            found.append(f"{where}: an official map lists provisional facts; make it provisional, or confirm them")
        return found
    found += [f"{where}: {item} is listed both as confirmed and as provisional"
              for item, statuses in sorted(listed.items()) if len(set(statuses)) > 1]
    uncovered = sorted(i for i in items if fact_status(mapfile, i, provenance) is None)
    found += [f"{where}: nothing says where {item} comes from (list it as confirmed with its source, or as "
              "provisional with a note)" for item in uncovered]
    return found
