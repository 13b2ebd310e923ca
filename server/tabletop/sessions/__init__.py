"""Game sessions: creating and loading games, seats and their tokens, the move log in SQLite."""
