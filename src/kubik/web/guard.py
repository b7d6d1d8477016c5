"""The web table's gate: what every request passes before the API sees it.

A server opened to a network (``kubik serve --host 0.0.0.0``) meets requests no page of
ours sends: a Host header naming another site (a page elsewhere driving this server by
DNS rebinding), bodies of many megabytes, JSON nested thousands deep or numbers of
thousands of digits. They are refused here with one line naming the field, before any
game is touched; every answer carries the headers that keep our pages from being framed
or sniffed and their scripts to our own origin.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Bytes a request body may have (a saved game of a long battle is well under it).
BODY_LIMIT = 1_000_000
#: How deep a body's JSON may nest (our deepest, an odds input, nests a handful).
DEPTH_LIMIT = 32
#: Digits a number in a body may have (a seed fits in 19).
DIGITS_LIMIT = 20
#: The names a loopback server answers to.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})

#: Our pages load scripts, styles and data from this origin only, and no site frames them.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: The API's documentation pages load Swagger UI from its CDN; they too are never framed.
DOCS_POLICY = "frame-ancestors 'none'"


class BadBody(Exception):
    """A body refused before parsing: the status, the field and why."""

    def __init__(self, status: int, field: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.field, self.detail = status, field, detail


def host_name(header: str) -> str:
    """The name in a Host header, without its port (``[::1]:8000`` → ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Huge(str):
    """A number with too many digits, kept as its text until its field is found."""


def _number(text: str) -> Any:
    digits = sum(ch.isdigit() for ch in text)
    if digits > DIGITS_LIMIT:
        return _Huge(text)
    if not any(ch in text for ch in ".eE"):
        return int(text)
    number = float(text)
    return number if math.isfinite(number) else _Huge(text)


def _constant(name: str) -> Any:
    return _Huge(name)  # NaN and Infinity are no JSON numbers


def check_json(body: bytes) -> None:
    """Refuse a JSON body that is malformed, nested deeper than :data:`DEPTH_LIMIT` or
    holds a number of more than :data:`DIGITS_LIMIT` digits (or NaN, Infinity): a
    :class:`BadBody` naming the field."""
    try:
        data = json.loads(body, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except RecursionError:
        raise BadBody(422, "body", f"body: nested too deep; at most {DEPTH_LIMIT} levels") from None
    except (ValueError, UnicodeDecodeError) as error:
        where = (
            f" (line {error.lineno}, column {error.colno})"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise BadBody(422, "body", f"body: not JSON{where}") from None
    _walk(data, [], 0)


def _walk(value: Any, path: list[str], depth: int) -> None:
    field = ".".join(path) or "body"
    if depth > DEPTH_LIMIT:
        raise BadBody(422, field, f"{field}: nested too deep; at most {DEPTH_LIMIT} levels")
    if isinstance(value, _Huge):
        raise BadBody(
            422, field, f"{field}: not a number we take; at most {DIGITS_LIMIT} digits, finite"
        )
    if isinstance(value, dict):
        for key, item in value.items():
            _walk(item, [*path, str(key)], depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, [*path, str(index)], depth + 1)


class Gate:
    """ASGI middleware: the Host check, the body checks and the safety headers."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None = None) -> None:
        self.app = app
        #: the names this server answers to (``None``: any, for a server behind a proxy
        #: that checks them)
        self.hosts = None if hosts is None else frozenset(host_name(h) for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        send = _with_safety_headers(send, str(scope.get("path", "")))
        if self.hosts is not None and host_name(headers.get("host", "")) not in self.hosts:
            known = ", ".join(sorted(self.hosts))
            await _refuse(send, 400, "host", f"host: this server answers to {known}")
            return
        if scope["method"] in ("POST", "PUT", "PATCH"):
            try:
                body = await _read_body(receive, headers.get("content-length"))
                if body and "json" in headers.get("content-type", "json"):
                    check_json(body)
            except BadBody as bad:
                await _refuse(send, bad.status, bad.field, bad.detail)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)


async def _read_body(receive: Receive, length: str | None) -> bytes:
    """The whole body, refused (413) as soon as it is known to pass :data:`BODY_LIMIT`."""
    too_big = BadBody(413, "body", f"body: more than {BODY_LIMIT} bytes")
    if length is not None and length.isdigit() and int(length) > BODY_LIMIT:
        raise too_big
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > BODY_LIMIT:
            raise too_big
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, then: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once (it was read for the checks), then the
    server's own (which tells when the client goes)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await then()

    return receive


def _with_safety_headers(send: Send, path: str) -> Send:
    docs = path.startswith(("/docs", "/redoc"))

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            headers += [
                (b"x-content-type-options", b"nosniff"),
                (b"x-frame-options", b"DENY"),
                (b"referrer-policy", b"no-referrer"),
                (b"content-security-policy", (DOCS_POLICY if docs else PAGE_POLICY).encode()),
            ]
            message["headers"] = headers
        await send(message)

    return sending


async def _refuse(send: Send, status: int, field: str, detail: str) -> None:
    body = json.dumps({"detail": detail, "field": field}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["BODY_LIMIT", "DEPTH_LIMIT", "DIGITS_LIMIT", "LOOPBACK_NAMES", "BadBody", "Gate"]
