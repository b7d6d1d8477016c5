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
from kubik.text.i18n import render
from kubik.web.forecasts import worth
from kubik.web.games import LiveGame, Refusal
from kubik.web.odds_pool import OddsWorker

#: Seconds a page's answer waits for its options' odds before it goes without them.
ODDS_WAIT = 0.15
#: Forecasts whose odds are remembered (each a few kilobytes).
REMEMBERED = 4_096
#: Seconds before odds that could not be worked out (busy, past the limit) are asked again.
RETRY_SECONDS = 60.0

#: A forecast's odds in one language: its pickled procedure and input, and the language.
Key = tuple[bytes, str]
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
        self._known: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self._working: dict[Key, asyncio.Future[dict[str, Any]]] = {}
        self._batches: set[asyncio.Task[None]] = set()  # held until done

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
        missing: dict[int, tuple[AnyForecast, Key]] = {}
        for index, forecast, payload in asks:
            if forecast is None:
                odds[index] = None
            elif payload is None:
                odds[index] = {"expected": worth(forecast)}
            elif (found := self._found((payload, lang))) is not None:
                odds[index] = odds_json(forecast, found)
            else:
                missing[index] = (forecast, (payload, lang))
        if missing:
            futures = self._futures([key for _, key in missing.values()])
            _, unfinished = await asyncio.wait(set(futures.values()), timeout=self.wait)
            for index, (forecast, key) in missing.items():
                future = futures[key]
                ready = future.done()
                odds[index] = odds_json(forecast, future.result()) if ready else {"pending": True}
            if unfinished:
                _when_all_done(unfinished, late)
        for index, forecast, _ in asks:
            found = odds.get(index)
            if found is not None and forecast is not None and forecast.sides:
                # who the outcomes' side letters stand for, the side choosing first
                named = [{"letter": k, "name": render(name, lang)} for k, name in forecast.sides]
                odds[index] = {**found, "sides": named}
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

    def _futures(self, keys: list[Key]) -> dict[Key, asyncio.Future[dict[str, Any]]]:
        """Each key's odds to come: those not asked for yet go to the odds process in one
        request."""
        new = list(dict.fromkeys(key for key in keys if key not in self._working))
        if new:
            loop = asyncio.get_running_loop()
            futures = {key: loop.create_future() for key in new}
            self._working.update(futures)
            batch = asyncio.create_task(self._work(new))
            self._batches.add(batch)
            batch.add_done_callback(self._batches.discard)
        return {key: self._working[key] for key in keys}

    async def _work(self, keys: list[Key]) -> None:
        """Work out ``keys`` (all in one language) in one request; when that fails (a slow
        forecast among them passed the time limit), each alone, so only the slow one
        goes without its odds."""
        try:
            payloads = [payload for payload, _ in keys]
            found: list[dict[str, Any]] = await self.worker.ask(
                "forecasts", (payloads,), keys[0][1], remember=False
            )
        except Exception as error:  # past the limit, busy, or the process broke
            if len(keys) > 1:
                for key in keys:
                    await self._work([key])
                return
            why = error.detail if isinstance(error, Refusal) else "odds: could not be worked out"
            found = [{"unavailable": why, "until": time.monotonic() + RETRY_SECONDS}]
        for key, odds in zip(keys, found, strict=True):
            self._known[key] = odds
            if len(self._known) > REMEMBERED:
                self._known.popitem(last=False)
            future = self._working.pop(key)
            if not future.done():
                future.set_result(odds)


def odds_json(forecast: AnyForecast, found: dict[str, Any]) -> dict[str, Any]:
    """An option's odds as a page reads them, from what the odds process worked out."""
    if "unavailable" in found:
        return {"unavailable": found["unavailable"]}
    return {"expected": worth(forecast, found["over"], found["pairs"]), **found["summary"]}


def _when_all_done(tasks: set[asyncio.Future[Any]], then: Callable[[], None]) -> None:
    """Call ``then`` once every task in ``tasks`` is done."""
    left = set(tasks)

    def done(task: asyncio.Future[Any]) -> None:
        left.discard(task)
        if not left:
            then()

    for task in tasks:
        task.add_done_callback(done)


__all__ = ["ODDS_WAIT", "OptionOdds", "odds_json", "option_forecasts"]
