"""Tests written from the rules for mistakes that the mutation run (benchmarks/mutation.py) showed no test caught."""
