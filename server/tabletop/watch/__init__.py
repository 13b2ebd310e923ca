"""The spectator site: public pages of games and tournaments, followed live (see site.py)."""
