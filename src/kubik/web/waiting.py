"""Games that wait days: a clock per answer, a notification when it is a side's turn,
and standing orders that answer a side's decisions while its player sleeps.

A remote game is played over days, one answer now and the next tomorrow. Three things keep
it moving: each side may leave a webhook URL, called when the game starts waiting for it
(and when the game ends); each side may leave standing orders for decisions of one kind
(a guard's moment to fire, diving for cover, a sealed bid "up to N"), taken at once when
such a decision comes up; and a game may have a clock: a side waited on longer than the
clock allows has the rules' default taken for it. Every setting is kept in the store, so
a restart forgets none (a clock that was running starts again from the restart).
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import urllib.request
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from kubik.engine.requests import Choose

#: Seconds a clock may allow for one answer: from a minute to thirty days (a test may go lower).
CLOCK_MIN = 60
CLOCK_MAX = 30 * 24 * 3600
#: What happens when a side's clock runs out.
CLOCK_THEN = ("default",)
#: Seconds a webhook is given to answer.
HOOK_SECONDS = 5.0

_SETTINGS = """
CREATE TABLE IF NOT EXISTS web_settings (
    game TEXT NOT NULL,
    side TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game, side, key)
);
"""


@dataclass(frozen=True)
class Clock:
    """A game's clock: seconds a side may take over one decision, and what then."""

    per_answer: float
    then: str = "default"

    def to_json(self) -> dict[str, Any]:
        return {"per_answer": self.per_answer, "then": self.then}


class Settings:
    """Every game's clock and every side's webhook and standing orders, in the store."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        db.executescript(_SETTINGS)

    def _get(self, game: str, side: str, key: str) -> Any:
        row = self._db.execute(
            "SELECT value FROM web_settings WHERE game = ? AND side = ? AND key = ?",
            (game, side, key),
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def _set(self, game: str, side: str, key: str, value: Any) -> None:
        with self._db:
            if value is None:
                self._db.execute(
                    "DELETE FROM web_settings WHERE game = ? AND side = ? AND key = ?",
                    (game, side, key),
                )
            else:
                self._db.execute(
                    "INSERT OR REPLACE INTO web_settings VALUES (?, ?, ?, ?)",
                    (game, side, key, json.dumps(value)),
                )

    def clock(self, game: str) -> Clock | None:
        found = self._get(game, "", "clock")
        return None if found is None else Clock(float(found["per_answer"]), str(found["then"]))

    def set_clock(self, game: str, clock: Clock | None) -> None:
        self._set(game, "", "clock", None if clock is None else clock.to_json())

    def hook(self, game: str, side: str) -> str | None:
        found = self._get(game, side, "hook")
        return None if found is None else str(found)

    def set_hook(self, game: str, side: str, url: str | None) -> None:
        self._set(game, side, "hook", url)

    def orders(self, game: str, side: str) -> dict[str, Any]:
        found = self._get(game, side, "orders")
        return dict(found) if isinstance(found, dict) else {}

    def set_orders(self, game: str, side: str, orders: Mapping[str, Any]) -> None:
        self._set(game, side, "orders", dict(orders) or None)


def check_hook(url: str) -> str | None:
    """Why ``url`` cannot be a webhook (``None``: it can): http or https, a host, short."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "give an http:// or https:// address"
    if len(url) > 500:
        return "at most 500 characters"
    return None


def check_order(order: Any) -> str | None:
    """Why ``order`` is no standing order (``None``: it is one): ``"default"`` (the rules'
    default) or ``{"at_most": N}`` (the largest number offered that is at most N)."""
    if order == "default":
        return None
    if (
        isinstance(order, dict)
        and set(order) == {"at_most"}
        and isinstance(order["at_most"], int)
        and not isinstance(order["at_most"], bool)
        and 0 <= order["at_most"] <= 1000
    ):
        return None
    return 'give "default" or {"at_most": N} with N from 0 to 1000'


def ordered_option(request: Choose, order: Any) -> Hashable | None:
    """The option a standing order takes for ``request`` (``None``: it takes none)."""
    if order == "default":
        return request.default if request.default is not None else request.options[0]
    limit = order["at_most"]
    numbers = [
        o for o in request.options if isinstance(o, int) and not isinstance(o, bool) and o <= limit
    ]
    return max(numbers) if numbers else None


def order_key(request: Choose) -> str:
    """The kind of decision a standing order names: the message id of its reason."""
    return request.reason.id


class Notifier:
    """Calls webhooks on a thread of its own, so no game waits for a slow receiver; a
    receiver that fails is not called again for that message (the page still shows it)."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="kubik-hooks", daemon=True)
        self._thread.start()
        self.sent = 0
        self.failed = 0

    def send(self, url: str, body: dict[str, Any]) -> None:
        self._queue.put((url, body))

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(HOOK_SECONDS + 1)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            url, body = item
            request = urllib.request.Request(
                url,
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json", "User-Agent": "kubik"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=HOOK_SECONDS):
                    self.sent += 1
            except (OSError, ValueError):
                self.failed += 1


__all__ = [
    "CLOCK_MAX",
    "CLOCK_MIN",
    "Clock",
    "Notifier",
    "Settings",
    "check_hook",
    "check_order",
    "order_key",
    "ordered_option",
]
