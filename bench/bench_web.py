"""Benchmark: the web table under load — 50 games at once, two players each, on loopback.

``kubik serve`` runs in its own process (as it does for real players) on a temporary
store; the players run in this one (:mod:`bench.web_load`). Reported: answers per
second, the answers' round-trip p50 and p99, the errors (there should be none) and the
server's CPU time per answer (its own and its odds processes', whatever else the machine
runs), for
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
THINK = float(os.environ.get("KUBIK_BENCH_WEB_THINK", "3"))
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
            results = []
            for answers, think in ((ANSWERS, 0.0), (PACED_ANSWERS, THINK)):
                before = _cpu_seconds(server.pid)
                result = play_load(url, GAMES, answers, think=think)
                results.append((result, _cpu_seconds(server.pid) - before))
        finally:
            server.terminate()
            server.wait(10)
    rows = []
    for result, cpu in results:
        for error in result.errors[:5]:
            print(error, file=sys.stderr)
        rows += result.rows()
        case = result.rows()[0]["case"].removesuffix(", answers")
        per_answer = 1000 * cpu / max(1, len(result.latencies))
        rows.append({"case": f"{case}, server CPU per answer", "value": per_answer, "unit": "ms"})
    rows.append({"case": "web: load average while measured", "value": _load(), "unit": ""})
    return rows


def _cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` and the processes it started (the odds processes) have
    used (user and system), from Linux's /proc: with other jobs on the machine, the
    server's own cost per answer is the figure that holds."""
    total = 0.0
    try:
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:  # the process ended meanwhile
                continue
            if stat.parent.name == str(pid) or fields[1] == str(pid):
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:  # not Linux
        return float("nan")
    return total


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not available on this platform
        return float("nan")


if __name__ == "__main__":
    for row in run():
        print(f"{row['case']}: {row['value']:.1f} {row['unit']}")
