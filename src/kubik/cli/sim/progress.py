"""The progress bar of ``kubik sim``: games played, their rate in the report's language,
the time gone and the time left, on stderr.

Apart from the command: it is the one piece of the sim's screen that lives while games
are played.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from kubik.api.words import say
from kubik.cli.sim.figures import decimal_text
from kubik.sim.runner import Progress as ProgressCallback


class RateColumn(ProgressColumn):
    """Games per second, in the report's language."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("", style="progress.data.speed")
        return Text(
            say("sim.progress.rate", self.lang, rate=decimal_text(f"{speed:.1f}", self.lang)),
            style="progress.data.speed",
        )


@contextmanager
def progress_bar(enabled: bool, lang: str, title: str) -> Iterator[ProgressCallback | None]:
    """A Rich progress bar on stderr (rate, elapsed, time left), started once the inputs
    are checked, so bad input leaves nothing but its error line."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(lang),
        TimeElapsedColumn(),
        TextColumn("·"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(title, total=None)
    started: list[int] = []

    def advance(done: int, total: int) -> None:
        if not started:
            started.append(done)  # games found in the store do not count toward the rate
            bar.update(task, total=total - done, completed=0)
            bar.start()
        bar.update(task, completed=done - started[0])

    try:
        yield advance
    finally:
        if started:
            bar.stop()


__all__ = ["RateColumn", "progress_bar"]
