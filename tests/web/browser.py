"""A real server on loopback and Debian's Chromium driven by Playwright, for the page tests.

The browser tests skip with one clear line when no Chromium can be had (``.ci/run``
installs Debian's ``chromium`` where it can)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from kubik.cli.serve import KEEP_ALIVE
from kubik.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def wait_until(page: Any, condition: str, timeout: float = 45.0) -> None:
    """Wait until the JavaScript ``condition`` holds on ``page`` (polled through the
    devtools protocol: the pages' policy forbids the eval Playwright's own waiting uses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({condition})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never showed {condition}")
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``kubik serve``'s app in a thread of this process, on a free loopback port."""

    def __init__(self, store: Path, **options: Any) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            create_app(store, **options),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_keep_alive=KEEP_ALIVE,
            timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web table did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Python playwright missing")
    if not CHROMIUM.exists():
        pytest.skip("no browser: /usr/bin/chromium is missing (apt-get install -y chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@contextmanager
def serving(store: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``kubik serve`` on ``store`` in a process of its own, until it is up."""
    port = free_port()
    command = [sys.executable, "-m", "kubik", "serve", "--port", str(port), "--store", str(store)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/scenarios").status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "it did not start"
                time.sleep(0.2)
        yield url, server
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
