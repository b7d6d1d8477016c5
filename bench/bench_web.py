"""Benchmark: the web table under load — 50 games at once, two players each, on loopback.

``kubik serve`` runs in its own process (as it does for real players) on a temporary
store; the players run in this one (:mod:`bench.web_load`). Reported: answers per
second, the answers' round-trip p50 and p99, and the errors (there should be none), for
players who answer the moment they may (the server's throughput) and for players who take
:data:`THINK` seconds over each answer (the latency a table sees).
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
#: Seconds a player of the paced run takes before each answer (a quick person), and the
#: answers a game of the paced run plays.
THINK = float(os.environ.get("KUBIK_BENCH_WEB_THINK", "10"))
PACED_ANSWERS = int(os.environ.get("KUBIK_BENCH_WEB_PACED_ANSWERS", "6"))


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
            results = [
                play_load(url, GAMES, ANSWERS),
                play_load(url, GAMES, PACED_ANSWERS, think=THINK),
            ]
        finally:
            server.terminate()
            server.wait(10)
    rows = []
    for result in results:
        for error in result.errors[:5]:
            print(error, file=sys.stderr)
        rows += result.rows()
    rows.append({"case": "web: load average while measured", "value": _load(), "unit": ""})
    return rows


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not available on this platform
        return float("nan")


if __name__ == "__main__":
    for row in run():
        print(f"{row['case']}: {row['value']:.1f} {row['unit']}")
