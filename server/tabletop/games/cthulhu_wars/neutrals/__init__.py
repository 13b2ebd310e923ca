"""Neutral material switched on by game options: High Priests, the neutral monster cards, the neutral spellbooks and
the Independent Great Old Ones (rules_text ``cthulhu-wars/high-priests``, ``cthulhu-wars/neutral-monsters``,
``cthulhu-wars/neutral-spellbooks``, ``cthulhu-wars/independent-great-old-ones``). :mod:`.registry` is what the core calls;
:mod:`.catalogue` registers every piece built."""
