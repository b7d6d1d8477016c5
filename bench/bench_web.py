"""Benchmark: the web table under load — 50 games at once, two players each, on loopback.

``kubik serve`` runs in its own process (as it does for real players) on a temporary
store; the players run in this one (:mod:`bench.web_load`). Reported: answers per
second, the answers' round-trip p50 and p99, and the errors (there should be none).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.web.browser import free_port

from bench.web_load import play_load

GAMES = int(os.environ.get("KUBIK_BENCH_WEB_GAMES", "50"))
ANSWERS = int(os.environ.get("KUBIK_BENCH_WEB_ANSWERS", "20"))


def run() -> list[dict[str, Any]]:
    """Rows ``{"case", "value", "unit"}`` for bench/__main__.py (and the README)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        command = [sys.executable, "-m", "kubik", "serve", "--port", str(port)]
        command += ["--store", str(Path(home) / "games.sqlite3")]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{url}/api/scenarios").close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            result = play_load(url, GAMES, ANSWERS)
        finally:
            server.terminate()
            server.wait(10)
    for error in result.errors[:5]:
        print(error, file=sys.stderr)
    return result.rows()


if __name__ == "__main__":
    for row in run():
        print(f"{row['case']}: {row['value']:.1f} {row['unit']}")
