"""Games that wait days: a clock per answer, a notification when it is a side's turn,
and standing orders that answer a side's decisions while its player sleeps.

A remote game is played over days, one answer now and the next tomorrow. Three things keep
it moving: each side may leave a webhook URL, called when the game starts waiting for it
(and when the game ends); each side may leave standing orders for decisions of one kind
(a guard's moment to fire, diving for cover, a sealed bid "up to N"), taken at once when
such a decision comes up; and a game may have a clock: a side waited on longer than the
clock allows has the rules' default taken for it. Every setting is kept in the store, so
a restart forgets none (a clock that was running starts again from the restart).

A webhook is a request the server makes for a player, to an address the player gives: it
may reach only public addresses, never this computer or its network (loopback, private,
link-local, multicast and other reserved addresses), so a player cannot make the server
call a service behind its firewall. The name is resolved when the hook is called and the
call goes to the address checked (a name that resolves to a public address when the hook
is set and to a private one later gets nowhere), only http and https are called, and a
redirect is not followed. ``kubik serve --allow-local-webhooks`` lets hooks reach this
computer and its network (a receiver of one's own, and the tests).
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import queue
import socket
import sqlite3
import ssl
import threading
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


#: Settings kept in memory once read (every answer asks for the orders of the side waited on).
SETTINGS_KEPT = 100_000


class Settings:
    """Every game's clock and every side's webhook and standing orders, in the store (and
    in memory once read: every answer asks for them, and only this object changes them)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        db.executescript(_SETTINGS)
        self._kept: dict[tuple[str, str, str], str | None] = {}

    def _get(self, game: str, side: str, key: str) -> Any:
        where = (game, side, key)
        if where not in self._kept:
            row = self._db.execute(
                "SELECT value FROM web_settings WHERE game = ? AND side = ? AND key = ?", where
            ).fetchone()
            if len(self._kept) > SETTINGS_KEPT:
                self._kept.clear()
            self._kept[where] = None if row is None else str(row[0])
        text = self._kept[where]
        return None if text is None else json.loads(text)

    def _set(self, game: str, side: str, key: str, value: Any) -> None:
        self._kept.pop((game, side, key), None)
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


#: What an address no webhook may reach is, by the test that finds it (first match named).
_NOT_PUBLIC = (
    ("is_loopback", "a loopback address (this computer)"),
    ("is_link_local", "a link-local address"),
    ("is_multicast", "a multicast address"),
    ("is_unspecified", "an unspecified address"),
    ("is_private", "a private address"),
    ("is_reserved", "a reserved address"),
)
#: What a refusal of a hook's address adds: how to allow it, when one means to.
_ALLOW = "a webhook may reach only public addresses (kubik serve --allow-local-webhooks lets it)"


def address_problem(address: str) -> str | None:
    """Why a webhook may not reach ``address`` (an IP address), ``None``: it may."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for test, what in _NOT_PUBLIC:
        if getattr(ip, test):
            return f"{address} is {what}"
    if not ip.is_global:
        return f"{address} is not a public address"
    return None


def check_hook(url: str, allow_local: bool = False) -> str | None:
    """Why ``url`` cannot be a webhook (``None``: it can): http or https, a host, short,
    and (unless ``allow_local``) not naming this computer or a private address (a name
    is checked again, resolved, each time the hook is called)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "give an http:// or https:// address"
    if len(url) > 500:
        return "at most 500 characters"
    try:
        parts.port  # noqa: B018 (a port out of range or not a number raises)
    except ValueError:
        return "the port is not a number from 0 to 65535"
    if allow_local:
        return None
    host = parts.hostname.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return f"{host} is this computer; {_ALLOW}"
    try:
        problem = address_problem(host)
    except ValueError:  # a name: resolved and checked when the hook is called
        return None
    return None if problem is None else f"{problem}; {_ALLOW}"


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
    receiver that fails is not called again for that message (the page still shows it),
    and why it failed is kept for its side's settings (:attr:`problems`)."""

    def __init__(self, allow_local: bool = False) -> None:
        self.allow_local = allow_local
        self._queue: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="kubik-hooks", daemon=True)
        self._thread.start()
        self.sent = 0
        self.failed = 0
        #: url → why its last call failed (gone once a call succeeds)
        self.problems: dict[str, str] = {}

    def send(self, url: str, body: dict[str, Any]) -> None:
        self._queue.put((url, body))

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(HOOK_SECONDS + 1)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            url, body = item
            problem = self._post(url, json.dumps(body).encode())
            if problem is None:
                self.sent += 1
                self.problems.pop(url, None)
            else:
                self.failed += 1
                self.problems[url] = f"webhook: {problem}"

    def _post(self, url: str, data: bytes) -> str | None:
        """POST ``data`` to ``url`` at an address checked now; why not (``None``: done)."""
        problem = check_hook(url, self.allow_local)
        if problem is not None:
            return problem
        parts = urlsplit(url)
        host = parts.hostname or ""
        secure = parts.scheme == "https"
        port = parts.port or (443 if secure else 80)
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as error:
            return f"{host} could not be resolved ({error})"
        addresses = [str(info[4][0]) for info in found]
        if not addresses:
            return f"{host} could not be resolved"
        if not self.allow_local:
            for address in addresses:
                refused = address_problem(address)
                if refused is not None:
                    return f"{host} resolves to {refused}; {_ALLOW}"
        kind = _PinnedHTTPS if secure else _PinnedHTTP
        connection = kind(host, port, addresses[0], timeout=HOOK_SECONDS)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = {"Content-Type": "application/json", "User-Agent": "kubik"}
        try:
            connection.request("POST", path, data, headers)
            status = connection.getresponse().status
        except OSError as error:
            return f"{host} could not be reached ({error})"
        finally:
            connection.close()
        if 300 <= status < 400:
            return f"{host} answered {status}; a webhook's redirect is not followed"
        if status >= 400:
            return f"{host} answered {status}"
        return None


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to the address that was checked, whatever the name resolves to
    by the time it connects (no second look-up: DNS rebinding gets nowhere)."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """An HTTPS connection to the address that was checked; the certificate is checked
    against the name."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


__all__ = [
    "CLOCK_MAX",
    "CLOCK_MIN",
    "Clock",
    "Notifier",
    "Settings",
    "address_problem",
    "check_hook",
    "check_order",
    "order_key",
    "ordered_option",
]
