"""Answered is saved: a server killed outright (``kill -9``) right after its answers comes
back with every answer it acknowledged, though its commits no longer wait for the disk; and
its odds processes do not outlive it."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx

from kubik.web.saving import Checkpointer

from .browser import serving


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[1] == str(pid):
            found.append(int(stat.parent.name))
    return found


def test_a_server_killed_outright_keeps_every_answer_it_acknowledged(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    with serving(store) as (url, server):
        created = httpx.post(f"{url}/api/games", json={"scenario": "old_west.demo", "seed": 5})
        game = created.json()
        tokens = game["sides"]
        api = f"{url}/api/games/{game['game']}"
        seen = httpx.get(api, headers={"Authorization": f"Bearer {game['spectator']}"}).json()
        acknowledged = []
        for _ in range(12):  # answers acknowledged one by one, then the process is killed
            token = tokens[seen["waiting_for"]]
            sent = httpx.post(
                f"{api}/answers",
                json={"seq": seen["seq"], "answer": 0},
                headers={"Authorization": f"Bearer {token}"},
                params={"odds": "false"},
            )
            assert sent.status_code == 200, sent.text
            seen = sent.json()
            acknowledged.append((seen["seq"], seen["log_length"]))
        children = _children(server.pid)
        assert children, "the server's odds processes"
        server.send_signal(signal.SIGKILL)  # no shutdown: nothing is flushed or synced
        server.wait(10)
        deadline = time.monotonic() + 20  # its odds processes leave on their own
        while any(Path(f"/proc/{pid}").exists() for pid in children):
            assert time.monotonic() < deadline, "an odds process outlived its server"
            time.sleep(0.2)
    with serving(store) as (url, _):
        back = httpx.get(
            f"{url}/api/games/{game['game']}",
            headers={"Authorization": f"Bearer {game['spectator']}"},
        ).json()
    assert (back["seq"], back["log_length"]) == acknowledged[-1]


def test_the_write_ahead_log_is_synced_into_the_store_in_the_background(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE t (a INTEGER)")
    db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(1000)])
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 0
    checkpointer = Checkpointer(path, seconds=0.05)
    deadline = time.monotonic() + 10
    while checkpointer.done == 0:
        assert time.monotonic() < deadline, "no checkpoint was made"
        time.sleep(0.05)
    checkpointer.close()
    db.close()
    fresh = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    assert fresh.execute("SELECT COUNT(*) FROM t").fetchone() == (1000,)
    assert not wal.exists() or wal.stat().st_size == 0  # truncated at the end: all in the store
