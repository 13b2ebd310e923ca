"""Cthulhu Dice: push-your-luck with a bag of 15 dice (rules in rules_text/cthulhu-dice)."""

from .engine import ENGINE

__all__ = ["ENGINE"]
