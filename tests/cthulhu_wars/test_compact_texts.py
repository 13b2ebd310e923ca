"""What a Cthulhu Wars seat reads, compactly (issue 33): the legal-move list in its brief form names every legal move
and no other, and the position told by parts says all that the whole position says.

The brief list is read back here as a model reads it: a line ``title: a; b (note)`` lists ``a`` and ``b``; each
word written ``x/y`` is any one of ``x`` and ``y``, so a line stands for every combination of its alternatives."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from tabletop.core.text import merge_alternatives
from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.engine import ONE_LINE, faction_line

from .cw_helpers import random_game

#: Tables of factions the lists are read back on (the four of the core box, and the expansions').
TABLES = [
    None,
    ["crawling-chaos", "windwalker", "opener-of-the-way", "sleeper", "great-cthulhu"],
]


def expand(line: str) -> set[str]:
    """The notations one line of the brief list stands for."""
    if ": " in line:  # a group's title before its moves (no notation holds ": ")
        line = line.split(": ", 1)[1]
    found = set()
    for part in line.split("; "):
        part = re.sub(r" \([^)]*\)$", "", part.strip())  # what the group's title adds, e.g. "(1 Power per unit)"
        pieces = re.split(r"([ >])", part)
        choices = [p.split("/") if i % 2 == 0 else [p] for i, p in enumerate(pieces)]
        found.update("".join(combo) for combo in itertools.product(*choices))
    return found


def read_back(moves) -> set[str]:
    """Every notation the brief lines of a seat's legal moves stand for, each line read on its own."""
    found: set[str] = set()
    for group in moves.groups:
        for line in group.brief:
            found |= expand(line)
    return found


def check_lists(before, after, seat, action) -> None:
    for s in ENGINE.to_move(before):
        moves = ENGINE.legal_moves(before, s)
        assert read_back(moves) == {m.notation for g in moves.groups for m in g.moves}
        for group in moves.groups:
            if not group.show_title:  # a group without its title says its action and what the title adds itself
                assert all(line.split(" ", 1)[0] == group.title.split()[0].lower() for line in group.brief)


@pytest.mark.parametrize("table", range(len(TABLES)))
@pytest.mark.parametrize("seed", range(2))
def test_the_brief_list_names_every_legal_move_and_no_other(table, seed):
    factions = TABLES[table]
    options = {"factions": factions} if factions else {}
    random_game(len(factions) if factions else 4, 40 + seed, check_lists, options)


def test_a_short_group_is_one_line_with_what_its_title_adds_and_a_long_one_sits_under_its_title():
    state = ENGINE.new_game(ENGINE.read_options({}), 4, 7)
    while not any(a.kind == "move" for a in ENGINE.legal_actions(state, ENGINE.to_move(state)[0])):
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    groups = {g.title: g for g in ENGINE.legal_moves(state, ENGINE.to_move(state)[0]).groups}
    assert groups["Pass (give up remaining Power)"].brief == ["pass (give up remaining Power)"]
    assert not groups["Pass (give up remaining Power)"].show_title
    for group in groups.values():
        if not group.show_title:
            assert len(group.brief) > 1 or len(group.brief[0]) <= ONE_LINE
        else:  # under its title: the moves are many, or the title says more than the moves do
            assert sum(len(line) + 2 for line in group.brief) > ONE_LINE or "(" in group.title


def test_lines_alike_but_for_one_word_are_merged_and_nothing_else():
    lines = ["battle asia vs great-cthulhu", "battle europe vs great-cthulhu", "battle asia vs yellow-sign",
             "summon deep-one europe/asia", "summon shoggoth europe/asia", "summon starspawn europe", "done"]
    merged = merge_alternatives(lines, " >")
    assert merged == ["battle asia/europe vs great-cthulhu", "battle asia vs yellow-sign",
                      "summon deep-one/shoggoth europe/asia", "summon starspawn europe", "done"]
    assert set().union(*map(expand, merged)) == set().union(*map(expand, lines))
    moved = merge_alternatives(["move acolyte x>a/b", "move ghoul x>a/b", "move acolyte y>a/b", "move ghoul y>a"], " >")
    assert moved == ["move acolyte/ghoul x>a/b", "move acolyte y>a/b", "move ghoul y>a"]


def test_merging_keeps_every_combination_exact_on_random_lists():
    rnd = random.Random(5)
    for _ in range(300):
        lines = sorted({f"{rnd.choice('ab')} {rnd.choice('xyz')}>{rnd.choice('pq')}" for _ in range(rnd.randint(1, 9))})
        merged = merge_alternatives(lines, " >")
        assert set().union(*map(expand, merged)) == set(lines)
        assert sum(len(expand(line)) for line in merged) == len(lines), "no combination is listed twice"


def check_parts(before, after, seat, action) -> None:
    """Every line of the whole position is told by the parts: a faction's line by its Power line and its
    spellbooks, every other line as it is; and no part tells what the whole position does not."""
    for viewer in range(len(after.seats)):
        parts = ENGINE.position_parts(after, viewer)
        whole = ENGINE.describe(after, viewer).split("\n")
        assert f"{parts['now']} {parts['ritual']}" == ENGINE.status(after, viewer).split("\n")[0]
        assert whole[0] == f"{parts['now']} {parts['ritual']} {parts['order']}".rstrip()
        for s, fs in enumerate(after.seats):
            stats = parts["you"] if s == viewer else parts[fs.faction]
            books = parts[f"{fs.faction} spellbooks"].removeprefix(f"{fs.faction} ").removesuffix(".")
            assert whole[1 + s] == faction_line(after, s, viewer)
            assert f"; {books}" in whole[1 + s] and whole[1 + s].replace(f"; {books}", "", 1) == stats
        told = set(parts.values())
        for line in whole[1 + len(after.seats):]:
            assert line in told, line
        empty = {a.id for a in after.layout.areas} - {line.split(":")[0] for line in whole}
        assert all(parts[a] == f"{a}: empty" for a in empty)


def test_the_position_by_parts_tells_all_the_whole_position_tells():
    random_game(4, 3, check_parts)
    random_game(5, 4, check_parts, {"factions": TABLES[1]})
