"""The live display of a tournament: a progress bar (games done, running, time left) and the standings so far."""

from __future__ import annotations

import sys

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..sessions.store import Store
from .runner import Progress
from .spec import TournamentSpec
from .standings import standings


def standings_table(store: Store, spec: TournamentSpec) -> Table:
    table = Table(title=spec.name, title_justify="left")
    for column in ("player", "rating", "games", "wins", "shared", "nobody", "win rate (95%)"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for s in standings(store, spec.id):
        table.add_row(s.player, f"{s.mu:.1f}±{s.sigma:.1f}", str(s.games), str(s.wins), str(s.draws), str(s.nobody_won),
                      f"{s.win_rate:.0%} ({s.win_low:.0%}-{s.win_high:.0%})")
    return table


class LiveDisplay:
    """A context manager whose ``progress`` the runner updates; the display redraws on each change."""

    def __init__(self, store: Store, spec: TournamentSpec, quiet: bool = False) -> None:
        self.store, self.spec, self.quiet = store, spec, quiet
        self.console = Console(file=sys.stderr)
        self.bar = Bar(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[running]} running"),
                       TimeRemainingColumn(), console=self.console)
        self.task = self.bar.add_task("games", total=spec.games, running=0)
        self.progress = Progress(spec.games, on_change=self.changed)
        self.live: Live | None = None
        self._done = -1

    def changed(self, progress: Progress) -> None:
        self.bar.update(self.task, total=progress.total, completed=progress.done, running=progress.running)
        if self.live is not None and progress.done != self._done:
            self._done = progress.done
            self.live.update(Group(self.bar, standings_table(self.store, self.spec)))

    def __enter__(self) -> LiveDisplay:
        if not self.quiet:
            self.live = Live(Group(self.bar), console=self.console, refresh_per_second=4)
            self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.__exit__(*exc)
