"""Two players per game, many games at once, against ``kubik serve`` on loopback.

Each player follows its game as a page does (its event stream; on each new version it
asks for the game and answers while the pending request is its own), always with the
first option. Every answer's round trip is timed; every refusal or failure is kept.
Used by ``bench/bench_web.py`` (50 games against a server process) and by a bounded
test (no timing asserted there: speed is measured in bench/).
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

#: A paced player's time to think, as fractions of the mean.
_THINKING = (1 / 3, 5 / 3)


@dataclass
class LoadResult:
    """What a load run measured: answer round trips (seconds) and every error."""

    games: int
    think: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of the answer round trips, nearest rank."""
        ordered = sorted(self.latencies)
        if not ordered:
            return math.nan
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

    @property
    def rate(self) -> float:
        """Answers per second over the whole run."""
        return len(self.latencies) / self.seconds if self.seconds else math.nan

    def rows(self) -> list[dict[str, Any]]:
        """Rows ``{"case", "value", "unit"}`` for bench/__main__.py."""
        low, high = _THINKING[0] * self.think, _THINKING[1] * self.think
        pace = f", {low:g}-{high:g} s to think" if self.think else ", no time to think"
        name = f"web: {self.games} games x 2 players{pace}"
        return [
            {"case": f"{name}, answers", "value": len(self.latencies), "unit": "answers"},
            {
                "case": f"{name}, answers/s",
                "value": len(self.latencies) / self.seconds,
                "unit": "/s",
            },
            {"case": f"{name}, p50", "value": 1000 * self.percentile(0.5), "unit": "ms"},
            {"case": f"{name}, p95", "value": 1000 * self.percentile(0.95), "unit": "ms"},
            {"case": f"{name}, p99", "value": 1000 * self.percentile(0.99), "unit": "ms"},
            {"case": f"{name}, errors", "value": len(self.errors), "unit": "errors"},
        ]


async def _player(
    client: httpx.AsyncClient,
    created: dict[str, Any],
    side: str,
    answered: list[int],
    quota: int,
    result: LoadResult,
    think: float,
) -> None:
    """Follow the game through its event stream, as a page does; answer on one's turn
    (after ``think`` seconds on average, as a person takes a moment: a third of it to
    five thirds, at random, so fifty players do not answer in step)."""
    pace = random.Random(f"{created['game']}-{side}")
    url = f"/api/games/{created['game']}"
    token = created["sides"][side]
    headers = {"Authorization": f"Bearer {token}"}
    far = {"since": 1_000_000}  # the log is not read here
    known = -1  # the version of the game last seen
    async with client.stream("GET", f"{url}/events", headers=headers) as events:
        async for line in events.aiter_lines():
            if not line.startswith("data:") or json.loads(line[5:])["version"] <= known:
                continue
            seen = await client.get(url, params=far, headers=headers)
            if seen.status_code != 200:
                result.errors.append(f"GET {seen.status_code}: {seen.text[:200]}")
                return
            game = seen.json()
            known = game["version"]
            while not game["finished"] and game["waiting_for"] == side:
                if answered[0] >= quota:
                    return
                body = {"seq": game["seq"], "answer": 0}
                if think:
                    await asyncio.sleep(think * pace.uniform(*_THINKING))
                start = time.perf_counter()
                sent = await client.post(f"{url}/answers", params=far, json=body, headers=headers)
                result.latencies.append(time.perf_counter() - start)
                if sent.status_code != 200:
                    result.errors.append(f"POST {sent.status_code}: {sent.text[:200]}")
                    return
                answered[0] += 1
                game = sent.json()
            known = game["version"]
            if game["finished"]:
                return


async def _game(
    client: httpx.AsyncClient,
    created: dict[str, Any],
    quota: int,
    result: LoadResult,
    think: float,
) -> None:
    """Both players of one game, until it has had ``quota`` answers (or ends)."""
    answered = [0]
    players = [
        asyncio.create_task(_player(client, created, side, answered, quota, result, think))
        for side in created["sides"]
    ]
    try:
        await asyncio.wait(players, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for player in players:
            player.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    for player in players:
        if player.done() and not player.cancelled() and player.exception() is not None:
            result.errors.append(f"player: {player.exception()!r}")


async def _run(url: str, games: int, answers: int, scenario: str, think: float) -> LoadResult:
    result = LoadResult(games, think)
    limits = httpx.Limits(max_connections=4 * games, max_keepalive_connections=4 * games)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        created = []
        for seed in range(games):
            response = await client.post("/api/games", json={"scenario": scenario, "seed": seed})
            if response.status_code != 201:
                result.errors.append(f"create {response.status_code}: {response.text[:200]}")
            else:
                created.append(response.json())
        start = time.perf_counter()
        await asyncio.gather(*(_game(client, game, answers, result, think) for game in created))
        result.seconds = time.perf_counter() - start
    return result


def play_load(
    url: str, games: int, answers: int, scenario: str = "steel_war.demo", think: float = 0.0
) -> LoadResult:
    """``games`` games of two players each, ``answers`` answers per game, on ``url``; each
    player waits ``think`` seconds before each answer (0: answers the moment it may)."""
    return asyncio.run(_run(url, games, answers, scenario, think))


__all__ = ["LoadResult", "play_load"]
