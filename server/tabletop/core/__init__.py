"""Game-agnostic kernel: the engine contract, seeded randomness and rule-citing errors.

Nothing in here imports any other part of the package.
"""
