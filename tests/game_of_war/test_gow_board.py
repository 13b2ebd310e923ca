"""The board, its names and the rules text that describes it (rules_text game-of-war/board)."""

from __future__ import annotations

import re
from pathlib import Path

from tabletop.games.game_of_war.board import (
    ARSENAL_SQUARES,
    FORTRESSES,
    MOUNTAINS,
    PASSES,
    TERRITORY,
    names,
    parse_square,
    square_name,
)
from tabletop.games.game_of_war.openings import OPENINGS
from tabletop.games.game_of_war.units import FORCE, STATS

RULES = Path(__file__).resolve().parents[2] / "rules_text" / "game-of-war"


def test_square_names():
    assert square_name(0) == "a1" and square_name(499) == "y20"
    assert parse_square("e7") == 6 * 25 + 4
    assert parse_square("z1") is None and parse_square("a21") is None


def test_each_territory_has_its_terrain():
    for side in (0, 1):
        assert bin(MOUNTAINS & TERRITORY[side]).count("1") == 9
        assert bin(PASSES & TERRITORY[side]).count("1") == 1
        assert bin(FORTRESSES & TERRITORY[side]).count("1") == 3
        assert bin(ARSENAL_SQUARES[side] & TERRITORY[side]).count("1") == 2


def test_the_rules_text_lists_the_same_terrain():
    text = (RULES / "20-board.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| (\w+) \| (.+) \|$", text, re.M)}

    def listed(row: str) -> set[str]:
        return set(re.findall(r"[a-y]\d+", rows[row]))

    assert listed("Mountains") == set(names(MOUNTAINS))
    assert listed("Pass") == set(names(PASSES))
    assert listed("Arsenals") == set(names(ARSENAL_SQUARES[0] | ARSENAL_SQUARES[1]))
    assert listed("Fortresses") == set(names(FORTRESSES))


def test_openings_deploy_the_full_force_inside_each_territory():
    for _, sides in OPENINGS.values():
        for side, units in enumerate(sides):
            assert len(units) == FORCE == 17
            assert len({sq for _, sq in units}) == FORCE
            for kind, sq in units:
                assert TERRITORY[side] >> sq & 1 and not MOUNTAINS >> sq & 1
            assert sorted(k for k, _ in units) == sorted(k for k, s in enumerate(STATS) for _ in range(s.count))


def test_rules_text_sections_have_titles():
    files = sorted(RULES.glob("*.md"))
    assert [re.sub(r"^\d+-", "", f.stem) for f in files] == [
        "overview", "board", "units", "setup", "turn", "communication", "combat", "end", "notation", "rulings",
    ]
    for f in files:
        assert f.read_text(encoding="utf-8").startswith("# ")


def test_every_ruling_is_documented():
    from tabletop.games.game_of_war import GameOfWarOptions

    text = (RULES / "90-rulings.md").read_text(encoding="utf-8")
    for field in GameOfWarOptions.model_fields:
        assert f"| `{field}` |" in text, field


def test_every_rule_the_engine_cites_exists():
    source = Path(__file__).resolve().parents[2] / "server" / "tabletop" / "games" / "game_of_war"
    sections = {re.sub(r"^\d+-", "", f.stem) for f in RULES.glob("*.md")}
    cited = set()
    for path in source.glob("*.py"):
        cited |= set(re.findall(r"game-of-war/([a-z-]+)", path.read_text(encoding="utf-8")))
    assert cited and cited <= sections
