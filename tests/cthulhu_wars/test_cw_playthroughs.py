"""Complete seeded games written out decision by decision, checked in and compared on every run.

Each file under ``playthroughs/`` is one whole game: for every decision, who was asked, what the
game awaited, how many legal moves there were, the move chosen, and a short summary of the
position after it. Any change to the rules that changes play shows up as a readable diff of
these files. After a deliberate rules change, rewrite them and review the diff:

    CW_WRITE_PLAYTHROUGHS=1 ./tabletop test tests/cthulhu_wars/test_cw_playthroughs.py

The moves are chosen by a seeded random player that rarely passes and likes to fight, so the
games reach spellbooks, Great Old Ones, battles (results on individual figures) and out-of-turn
windows.
"""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path

import pytest

from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

HERE = Path(__file__).parent / "playthroughs"
GAMES = {"three_players.txt": (3, 1), "four_players.txt": (4, 2), "five_players.txt": (5, 3)}
#: How likely each kind of move is to be picked, relative to the others (default MOVE_WEIGHT).
WEIGHTS = {"pass": 1, "ritual": 2, "battle": 60, "capture": 30, "awaken": 40, "summon": 20, "move": 4}
MOVE_WEIGHT = 10


def summary(state) -> str:
    """Power, Doom, hidden Elder Signs and spellbooks of every faction, in seat order."""
    seats = state.seats
    return (
        f"P {' '.join(str(fs.power) for fs in seats)} | D {' '.join(str(fs.doom) for fs in seats)} | "
        f"ES {' '.join(str(len(fs.elder_signs)) for fs in seats)} | "
        f"SB {' '.join(str(len(fs.spellbooks)) for fs in seats)} | ritual {state.ritual_cost}"
    )


def awaited(state) -> str:
    if state.pending:
        return state.pending[0].kind
    return "move" if state.turn and state.turn.moving else "turn"


def playthrough(players: int, seed: int) -> str:
    state = ENGINE.new_game(CthulhuWarsOptions(), players, seed)
    rnd = random.Random(seed)
    factions = [fs.faction for fs in state.seats]
    lines = [
        f"# Cthulhu Wars, {players} players, seed {seed}, default options; layout {state.layout_name}",
        f"# seats: {', '.join(f'{i} {f}' for i, f in enumerate(factions))}",
        "# ply | round phase | faction asked | awaiting | legal moves | move || after: Power | Doom | "
        "Elder Signs held | spellbooks | ritual cost",
    ]
    ply = 0
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.to_move(state))
        legal = ENGINE.legal_actions(state, seat)
        weights = [WEIGHTS.get(a.kind, MOVE_WEIGHT) for a in legal]
        action = rnd.choices(legal, weights)[0]
        before = f"r{state.round} {state.phase:6} | {factions[seat]:16} | {awaited(state):16} | {len(legal):3}"
        state, _ = ENGINE.apply(state, seat, action)
        ply += 1
        lines.append(f"{ply:4} | {before} | {ENGINE.notation(action)} || {summary(state)}")
        assert ply < 20000, "a game must end"
    lines.append(f"# {ENGINE.outcome(state).reason}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough_matches_the_checked_in_file(name):
    players, seed = GAMES[name]
    text = playthrough(players, seed)
    path = HERE / name
    if os.environ.get("CW_WRITE_PLAYTHROUGHS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(expected.splitlines(), text.splitlines(), "checked in", "now", lineterm="", n=2)
        shown = "\n".join(list(diff)[:80])
        pytest.fail(f"{name} changed (rewrite with CW_WRITE_PLAYTHROUGHS=1 if the rules change is meant):\n{shown}")
