"""Neutral material switched on by game options: High Priests and the neutral monster cards (rules_text
``cthulhu-wars/high-priests``, ``cthulhu-wars/neutral-monsters``). :mod:`.registry` is what the core calls;
:mod:`.catalogue` registers every piece built."""
