"""The odds of a pending decision's options, worked out in the games' odds process so that
no forecast holds up a game.

The game worker (every game's one thread) only names each option's forecast: its
procedure and input, pickled. The odds themselves are worked out in a process of its own
(:class:`~kubik.web.odds_pool.OddsWorker`, under its time limit) and remembered here, so
the same forecast in fifty games is asked for once. A page is answered as soon as its
options' odds are known or :data:`ODDS_WAIT` seconds have passed, whichever is first: an
option whose odds are still being worked out says so (``{"pending": true}``), and when
they arrive the game's version moves on, so its pages ask again and find them. An option
whose odds pass the time limit says why (``{"unavailable": …}``); no game waits for it.
"""

from __future__ import annotations

import asyncio
import pickle
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from kubik.engine.requests import AnyForecast, Choose
from kubik.web.forecasts import worth
from kubik.web.games import LiveGame, Refusal
from kubik.web.odds_pool import OddsWorker

#: Seconds a page's answer waits for its options' odds before it goes without them.
ODDS_WAIT = 0.5
#: Forecasts whose odds are remembered (each a few kilobytes).
REMEMBERED = 4_096
#: Seconds before odds that could not be worked out (busy, past the limit) are asked again.
RETRY_SECONDS = 60.0

#: An option's forecast as the worker names it: index, forecast, its pickled procedure and
#: input (``None``: no procedure, or no forecast at all).
Ask = tuple[int, AnyForecast | None, bytes | None]


def option_forecasts(game: LiveGame, side: str | None) -> list[Ask] | None:
    """The forecasts of the options ``side`` decides now (``None``: it decides nothing),
    named on the game's worker once per version of the game."""
    request = game.session.pending
    if side is None or not isinstance(request, Choose) or request.side != side:
        return None
    key = ("forecasts", game.version)
    if key not in game.memo:
        asks: list[Ask] = []
        for index, option in enumerate(request.options):
            forecast = request.forecast(option)
            payload = None
            if forecast is not None and forecast.procedure is not None:
                payload = pickle.dumps((forecast.procedure, forecast.args))
            asks.append((index, forecast, payload))
        game.memo[key] = asks
    found: list[Ask] = game.memo[key]
    return found


class OptionOdds:
    """Options' odds for every game of a server, worked out in the odds process."""

    def __init__(self, worker: OddsWorker, wait: float = ODDS_WAIT) -> None:
        self.worker = worker
        self.wait = wait
        self._known: OrderedDict[tuple[bytes, str], dict[str, Any]] = OrderedDict()
        self._working: dict[tuple[bytes, str], asyncio.Task[dict[str, Any]]] = {}

    async def fill(
        self,
        shown: dict[str, Any],
        asks: Sequence[Ask],
        lang: str,
        late: Callable[[], None],
    ) -> dict[str, Any]:
        """``shown`` (a game as a page sees it) with each option's ``odds``; ``late`` is
        called once the odds that were not ready in time are."""
        odds: dict[int, dict[str, Any] | None] = {}
        waiting: dict[int, tuple[AnyForecast, asyncio.Task[dict[str, Any]]]] = {}
        for index, forecast, payload in asks:
            if forecast is None:
                odds[index] = None
            elif payload is None:
                odds[index] = {"expected": worth(forecast)}
            elif (found := self._found((payload, lang))) is not None:
                odds[index] = odds_json(forecast, found)
            else:
                waiting[index] = (forecast, self._task((payload, lang)))
        if waiting:
            tasks = {task for _, task in waiting.values()}
            _, unfinished = await asyncio.wait(tasks, timeout=self.wait)
            for index, (forecast, task) in waiting.items():
                odds[index] = (
                    odds_json(forecast, task.result()) if task.done() else {"pending": True}
                )
            if unfinished:
                _when_all_done(unfinished, late)
        pending = shown.get("pending")
        if not pending or not pending.get("options"):
            return shown
        options = [{**option, "odds": odds.get(option["index"])} for option in pending["options"]]
        return {**shown, "pending": {**pending, "options": options}}

    def _found(self, key: tuple[bytes, str]) -> dict[str, Any] | None:
        found = self._known.get(key)
        if found is None:
            return None
        if "unavailable" in found and time.monotonic() > found["until"]:
            del self._known[key]  # asked again: the process may be free now
            return None
        self._known.move_to_end(key)
        return found

    def _task(self, key: tuple[bytes, str]) -> asyncio.Task[dict[str, Any]]:
        task = self._working.get(key)
        if task is None:
            task = asyncio.create_task(self._work(key))
            self._working[key] = task
        return task

    async def _work(self, key: tuple[bytes, str]) -> dict[str, Any]:
        payload, lang = key
        try:
            found = await self.worker.ask("forecast", (payload,), lang, remember=False)
        except Exception as error:  # past the limit, busy, or the process broke
            why = error.detail if isinstance(error, Refusal) else "odds: could not be worked out"
            found = {"unavailable": why, "until": time.monotonic() + RETRY_SECONDS}
        finally:
            self._working.pop(key, None)
        self._known[key] = found
        if len(self._known) > REMEMBERED:
            self._known.popitem(last=False)
        return found


def odds_json(forecast: AnyForecast, found: dict[str, Any]) -> dict[str, Any]:
    """An option's odds as a page reads them, from what the odds process worked out."""
    if "unavailable" in found:
        return {"unavailable": found["unavailable"]}
    return {"expected": worth(forecast, found["over"], found["pairs"]), **found["summary"]}


def _when_all_done(tasks: set[asyncio.Task[Any]], then: Callable[[], None]) -> None:
    """Call ``then`` once every task in ``tasks`` is done."""
    left = set(tasks)

    def done(task: asyncio.Task[Any]) -> None:
        left.discard(task)
        if not left:
            then()

    for task in tasks:
        task.add_done_callback(done)


__all__ = ["ODDS_WAIT", "OptionOdds", "odds_json", "option_forecasts"]
