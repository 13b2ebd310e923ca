"""Seat tokens: the secret that lets a client act for one seat of one game.

Only a hash of each token is stored, so a copy of the database does not hand out seats.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(18)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(token: str, token_hashes: list[str]) -> int | None:
    """The seat whose token this is, or None; compares in constant time."""
    digest = hash_token(token)
    found = None
    for seat, stored in enumerate(token_hashes):
        if hmac.compare_digest(digest, stored):
            found = seat
    return found
