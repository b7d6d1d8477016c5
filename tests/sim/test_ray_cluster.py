"""A Ray cluster, really: a head and a separate worker node started as processes on this
machine, a sweep sent to it with ``--ray ADDRESS``, the worker node killed mid-sweep — and
the sweep still plays every game exactly once, with the results of one local worker."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

BIN = Path(sys.executable).parent
RAY = shutil.which("ray", path=str(BIN))
KUBIK = shutil.which("kubik", path=str(BIN))
#: A cluster of this machine alone: no usage reports, no token (nothing leaves the machine).
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
SWEEP = ["old_west.demo", "--runs", "12", "--seed", "4", "--vary", "end.turn_limit=2,3"]

pytestmark = pytest.mark.skipif(
    RAY is None or KUBIK is None,
    reason="Ray is not installed (pip install 'kubik[ray]' runs the cluster test)",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _node(*args: str, folder: str) -> subprocess.Popen[bytes]:
    """A Ray node as a process group of its own (so it can be killed, and only it)."""
    assert RAY is not None
    return subprocess.Popen(
        [
            RAY,
            "start",
            "--block",
            "--num-cpus=1",
            "--node-ip-address=127.0.0.1",
            "--disable-usage-stats",
            *args,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**ENV, "RAY_TMPDIR": folder},
    )


def _kill(node: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(node.pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    node.wait(timeout=60)


def _cpus(address: str) -> float:
    assert RAY is not None
    out = subprocess.run(
        [RAY, "status", f"--address={address}"],
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    ).stdout
    for line in out.splitlines():
        if line.strip().endswith(" CPU") and "/" in line:
            return float(line.split("/")[1].split()[0])
    return 0.0


@pytest.fixture
def cluster() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    folder = tempfile.mkdtemp(prefix="kr", dir="/tmp")  # short: Ray's socket paths
    port = _free_port()
    address = f"127.0.0.1:{port}"
    head = _node(
        "--head",
        f"--port={port}",
        "--include-dashboard=false",
        f"--temp-dir={folder}",
        folder=folder,
    )
    worker = None
    try:
        deadline = time.monotonic() + 120
        while _cpus(address) < 1 and time.monotonic() < deadline:
            time.sleep(1)
        worker = _node(f"--address={address}", folder=folder)
        while _cpus(address) < 2 and time.monotonic() < deadline:
            time.sleep(1)
        assert _cpus(address) >= 2, "the worker node did not join the head"
        yield address, worker
    finally:
        if worker is not None:
            _kill(worker)
        _kill(head)
        shutil.rmtree(folder, ignore_errors=True)


def _stored(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store) as db:
            count: int = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            return count
    except sqlite3.Error:
        return 0


def _report(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    data.pop("run")
    return data


def test_a_sweep_on_a_cluster_survives_losing_a_worker_node(
    cluster: tuple[str, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    assert KUBIK is not None
    address, worker = cluster
    store = tmp_path / "sweep.sqlite3"
    sweep = subprocess.Popen(
        [KUBIK, "sim", *SWEEP, "--ray", address, "--store", str(store), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**ENV, "KUBIK_HOME": str(tmp_path / "home")},
    )
    deadline = time.monotonic() + 240
    while _stored(store) < 4 and sweep.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    killed_at = _stored(store)
    _kill(worker)  # the worker node dies mid-sweep, its games in flight with it
    out, err = sweep.communicate(timeout=420)
    assert sweep.returncode == 0, err
    assert 0 < killed_at < 24, "the node was not killed mid-sweep"
    report = json.loads(out)
    assert report["run"]["played"] == 24 and report["run"]["resumed"] == 0  # each game once
    assert _stored(store) == 24
    local = subprocess.run(
        [KUBIK, "sim", *SWEEP, "--workers", "1", "--no-store", "--json"],
        capture_output=True,
        text=True,
        timeout=420,
        check=True,
    )
    assert _report(out) == _report(local.stdout)  # the same results as one local worker
