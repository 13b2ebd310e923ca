"""The odds shown before a battle with one of the Dreamlands' creatures (battle.battle_preview): the creature's
own dice and a note, worked out here from rules_text cthulhu-wars/dreamlands-bhole, on how it takes results,
citing its rules. Found missing by benchmarks/mutation.py (cthulhu_wars group)."""

from __future__ import annotations

from tabletop.games.cthulhu_wars.battle import battle_preview

from .cw_helpers import GC, seat
from .test_dreamlands import KAROTH, bhole_battle


def test_the_odds_against_the_bhole_carry_its_note_and_rule():
    state = bhole_battle([])
    odds = battle_preview(state, seat(state, GC), KAROTH, "bhole")
    # Great Cthulhu's two Deep Ones and a Shoggoth roll 4 dice; the Bhole rolls 6 (Combat 6). A Kill is a 6:
    # no Kill in 4 dice (5/6)^4 = 48.2%, so one Kill destroys it 52%; no Kill but a Pain (a 4 or 5):
    # (5/6)^4 - (3/6)^4 = 42.0%.
    assert odds.defender_note == (
        "The Bhole rolls 6 dice. One Kill destroys it (52%); without a Kill, any Pain sends it to its home (42%). "
        "Abilities used against it affect only your own units."
    )
    assert odds.rule == "cthulhu-wars/dreamlands-bhole"
