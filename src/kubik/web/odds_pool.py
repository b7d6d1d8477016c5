"""Odds for the web (`POST /api/odds`, its comparisons and sweeps) worked out apart from
the games, within a time limit, remembered.

Exact odds of a big fight (three Heroes a side, each with Fame, played optimally) can
take minutes. They run in a process of their own, one at a time: the games' worker never
waits for them, and a request that passes its time limit has its process killed (a thread
cannot be stopped) and is refused naming its input. Answers are remembered, so the same
question asked again by the odds page's link is answered at once.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from kubik import api
from kubik.api.variants import compare_inputs, sweep
from kubik.core import limits
from kubik.core.errors import KubikError
from kubik.web.forecasts import ForecastOdds
from kubik.web.games import Refusal

#: Seconds one odds request may work (the engine limit `kubik odds` keeps too).
ODDS_SECONDS = float(limits.ODDS_SECONDS)
#: Seconds a request waits for the one odds process before it is refused as busy.
QUEUE_SECONDS = 10.0
#: Answers remembered (each a few kilobytes).
REMEMBERED = 256


#: Seconds a new odds process may take to start (it imports the rules once).
START_SECONDS = 120.0


#: Seconds between an odds process's looks at whether its server is still there.
ORPHAN_CHECK_SECONDS = 1.0


def _leave_with_server(server: int) -> None:
    """In a new odds process, first of all: leave when the server ``server`` is gone (a
    server killed outright cannot stop its odds processes, and one still waiting for its
    first request would wait for ever)."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="kubik-odds-orphan", daemon=True).start()


def _ready() -> bool:
    """In a new odds process: import what the odds need, before the first request's clock."""
    return api.procedures() is not None


def _odds(procedure: str, data: dict[str, Any], policy: str, explain: bool, lang: str) -> Any:
    return api.odds(procedure, data, policy=policy, explain=explain, lang=lang)


#: The options' odds of every game this process has worked out (it lives as long as the process).
_FORECASTS = ForecastOdds()


def _forecasts(payloads: list[bytes], lang: str) -> list[dict[str, Any]]:
    """Options' forecasts (each its procedure and input, pickled by the server) worked out,
    in one request: a menu's options cross to this process at once."""
    found = []
    for payload in payloads:
        procedure, args = pickle.loads(payload)
        found.append(_FORECASTS.of(procedure, args, lang))
    return found


#: What the odds process answers: the odds of one question, of its variants side by side
#: (``kubik odds --vs``), of one input swept over a range (``kubik odds --over``), and of a
#: game's option (:mod:`kubik.web.option_odds`).
_ASKED: dict[str, Callable[..., Any]] = {
    "odds": _odds,
    "compare": compare_inputs,
    "sweep": sweep,
    "forecasts": _forecasts,
}


def _work(kind: str, args: tuple[Any, ...], lang: str) -> Any:
    """In the odds process: the answer, or the refusal's status, field and text."""
    try:
        return ("ok", _ASKED[kind](*args, lang))
    except Refusal as refusal:
        return ("refused", refusal.status, refusal.field, refusal.detail)
    except KubikError as error:
        text = error.text(lang)
        return ("refused", 422, text.partition(":")[0], text)


class OddsWorker:
    """One process for odds requests, a time limit on each, and a memory of answers."""

    def __init__(self, seconds: float = ODDS_SECONDS, queue_seconds: float = QUEUE_SECONDS) -> None:
        self.seconds = seconds
        self.queue_seconds = queue_seconds
        self._pool: ProcessPoolExecutor | None = None
        self._started: Future[bool] | None = None
        self._turn: asyncio.Lock | None = None
        self._answers: OrderedDict[str, Any] = OrderedDict()

    async def odds(
        self, procedure: str, data: dict[str, Any], policy: str, explain: bool, lang: str
    ) -> dict[str, Any]:
        """The odds of ``procedure`` on ``data``; a :class:`Refusal` when they are not
        allowed, take longer than the limit, or the process stays busy."""
        found: dict[str, Any] = await self.ask("odds", (procedure, data, policy, explain), lang)
        return found

    async def ask(
        self, kind: str, args: tuple[Any, ...], lang: str, *, remember: bool = True
    ) -> Any:
        """What the odds process answers (``kind``: odds, compare, sweep, forecasts) on
        ``args``, in ``lang``, under the same limit as the odds (and their memory, unless
        not ``remember``: the caller keeps its own)."""
        key = json.dumps([kind, args, lang], sort_keys=True, default=repr) if remember else ""
        if key in self._answers:
            self._answers.move_to_end(key)
            return self._settle(self._answers[key])
        if self._turn is None:
            self._turn = asyncio.Lock()
        try:
            await asyncio.wait_for(self._turn.acquire(), self.queue_seconds)
        except TimeoutError:
            raise Refusal(
                503,
                "input: the odds calculator is busy with another request; try again soon",
                "input",
            ) from None
        try:
            pool = await self._pool_now()
            future = pool.submit(_work, kind, args, lang)
            try:
                found = await asyncio.wait_for(asyncio.wrap_future(future), self.seconds)
            except TimeoutError:
                self.stop()
                self.start()  # the next request finds a process ready
                raise Refusal(
                    422,
                    f"input: these odds take longer than {self.seconds:g} s to work out; "
                    "ask for fewer models or dice, or the default policy",
                    "input",
                ) from None
        finally:
            self._turn.release()
        if not remember:
            return self._settle(found)
        self._answers[key] = found
        if len(self._answers) > REMEMBERED:
            self._answers.popitem(last=False)
        return self._settle(found)

    @staticmethod
    def _settle(found: Any) -> Any:
        if found[0] == "refused":
            raise Refusal(found[1], found[3], found[2])
        return found[1]

    def start(self) -> None:
        """Start the odds process (spawned, not forked: the server's threads and open
        SQLite files stay behind), which imports the rules while nobody waits."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_leave_with_server,
                initargs=(os.getpid(),),
            )
            self._started = self._pool.submit(_ready)

    async def _pool_now(self) -> ProcessPoolExecutor:
        """The odds process, started: a request's time limit counts its own work only."""
        self.start()
        assert self._pool is not None and self._started is not None
        pool = self._pool
        await asyncio.wait_for(asyncio.wrap_future(self._started), START_SECONDS)
        return pool

    def stop(self) -> None:
        """Kill the odds process (a request past its limit, or the server stopping)."""
        pool, self._pool, self._started = self._pool, None, None
        if pool is None:
            return
        processes = list(pool._processes.values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()


__all__ = ["ODDS_SECONDS", "OddsWorker"]
