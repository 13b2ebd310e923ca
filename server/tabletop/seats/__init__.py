"""Who sits at a table: seats the server plays itself (bots) beside the seats agents and people hold.

- ``spec.py``: reading ``new_game``'s players ("Ann", "bot:heuristic", "Bob (bot:search)") into seats;
- ``player.py``: playing one seat through what that seat is shown (the one implementation the arena's bots and
  the server's bot seats share);
- ``port.py``: a seat's view and moves through the sessions API, as an agent holding its token gets them;
- ``thinking.py``: where bots think (a worker thread, or the server's bot processes, off the event loop);
- ``driver.py``: the server's driver of every unfinished game's bot seats (a lease per game, so that one server
  of a fleet drives a game's bots at a time, and another takes over if it dies).
"""
