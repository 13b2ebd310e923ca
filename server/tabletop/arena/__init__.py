"""Matches and tournaments between agents."""
