"""Writes that fail: a game is never lost without a word, and nothing is written blind.

A save that cannot be written (a full disk, a read-only store, ``KUBIK_HOME`` naming a
file) ends the command with one line on stderr naming the save and a non-zero exit,
whatever the flags, and what was saved before stays loadable. Every file a command
will write is checked before any game is played; ``kubik serve`` checks its address
before it prints it. Stores that can only be read still list and replay their games.
"""

from __future__ import annotations

import itertools
import json
import resource
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubik.cli import play
from kubik.game import GameSession
from kubik.game.errors import StoreError
from kubik.game.store import GameStore
from kubik.text.message import msg
from tests.bots.cli_harness import Done, Kubik, kubik, one_line_error, toy_home
from tests.cli.processes import kubik_process

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

GAME = ("play", "toy_duel.demo", "--seed", "3", "--quiet")
_names = itertools.count()


class FailingStore(GameStore):
    """A save store whose ``fail_at``-th write and every one after it fail, as on a
    disk that has just filled up."""

    def __init__(self, path: Path, fail_at: int) -> None:
        self.fail_at = fail_at
        self.writes = 0
        super().__init__(path)

    @contextmanager
    def _write(self, name: str | None = None) -> Iterator[None]:
        self.writes += 1
        if self.writes >= self.fail_at:
            where = f"'{name}'" if name else str(self.path)
            raise StoreError(
                msg("game.store.broken", where=where, error="database or disk is full")
            )
        with super()._write(name):
            yield


def final_error(done: Done) -> str:
    """The error line that ends a failed run (warnings on stderr may come before it)."""
    assert done.code == 2, (done.code, done.out, done.err)
    assert "Traceback" not in done.err
    last = done.err.strip().splitlines()[-1]
    assert last.startswith("error: ")
    return last


def answers_of(path: Path, name: str) -> list[str]:
    with GameStore(path) as store:
        record = store.load(name)
    GameSession.from_record(record)  # what is saved replays
    return [repr(answer) for answer in record.answers]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(fail_at=st.integers(min_value=2, max_value=40), quiet=st.booleans())
def test_a_save_that_fails_at_any_write_is_an_error_and_keeps_what_was_saved(
    kubik: Kubik, toy_home: Path, fail_at: int, quiet: bool
) -> None:
    whole = f"whole{next(_names)}"
    assert kubik(*GAME, "--save", whole).code == 0
    full = answers_of(toy_home / "games.sqlite3", whole)
    path = toy_home / f"failing{next(_names)}.sqlite3"
    stores: list[FailingStore] = []

    def failing(*, to_read: bool = False) -> GameStore:
        stores.append(FailingStore(path, fail_at))
        return stores[-1]

    flags = GAME if quiet else GAME[:-1]
    with mock.patch.object(play, "open_store", failing):
        done = kubik(*flags, "--save", "game")
    # the first write (the save's header) and one per answer; the last note is optional
    answer_writes = 1 + len(full)
    if fail_at > answer_writes:
        assert done.code == 0, done.err
        assert answers_of(path, "game") == full
        return
    error = final_error(done)
    assert "'game'" in error and "database or disk is full" in error
    kept = answers_of(path, "game")
    assert kept == full[: len(kept)]  # what was saved before the disk filled stays
    assert len(kept) == fail_at - 2


def test_the_first_write_failing_is_one_line_naming_the_save(kubik: Kubik, toy_home: Path) -> None:
    path = toy_home / "first.sqlite3"
    with mock.patch.object(play, "open_store", lambda **_: FailingStore(path, 1)):
        error = one_line_error(kubik(*GAME, "--save", "early"))
    assert "'early'" in error


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (150 * 1024, 150 * 1024))


def test_a_full_disk_is_an_error_even_with_quiet(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = [sys.executable, "-m", "kubik", "play", "old_west.demo", "--seed", "4"]
    done = subprocess.run(
        [*command, "--save", "full1", "-q"],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env={"KUBIK_HOME": str(home), "PATH": "/usr/bin:/bin", "COLUMNS": "80"},
        preexec_fn=_limit_file_size,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: the game is not fully saved in 'full1'")
    assert "kubik load full1" in last
    listed = kubik_process("saves", "--json", env={"KUBIK_HOME": str(home)})
    (game,) = json.loads(listed.stdout)
    assert game["name"] == "full1" and game["error"] is None and game["answers"] > 0


def test_kubik_home_naming_a_file_is_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x")
    done = kubik_process("play", "old_west.demo", "--save", "x", env={"KUBIK_HOME": str(a_file)})
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: the directory of saved games {a_file} is a file, not a directory "
        "(check KUBIK_HOME)"
    )
    assert done.stdout == ""  # refused before the game was played


def test_read_only_stores_still_list_and_replay(
    kubik: Kubik, toy_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert kubik(*GAME, "--save", "kept").code == 0
    writable = GameStore.__init__

    def refuse_writing(self: GameStore, *args: Any, read_only: bool = False, **kw: Any) -> None:
        if not read_only:
            raise StoreError(msg("game.store.broken", where="x", error="readonly database"))
        writable(self, *args, read_only=True, **kw)

    monkeypatch.setattr(GameStore, "__init__", refuse_writing)
    listed = kubik("saves")
    assert listed.code == 0 and "kept" in listed.out
    replayed = kubik("replay", "kept")
    assert replayed.code == 0 and "Result" in replayed.out
    assert "readonly database" in one_line_error(kubik("saves", "--delete", "kept"))


def test_a_read_only_open_reads_a_wal_store_and_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        assert store.names() == []
    with GameStore(path, read_only=True) as store:
        assert store.names() == []
        with pytest.raises(StoreError):
            store.delete("nothing")
    assert GameStore(tmp_path / "missing.sqlite3", read_only=True).names() == []
    assert not (tmp_path / "missing.sqlite3").exists()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


@pytest.mark.parametrize(
    ("option", "name", "expected"),
    [
        ("--plot", "out.txt", "its format is not one kubik writes (allowed suffixes: .png"),
        ("--csv", "missing/games.csv", "No such file or directory"),
        ("--parquet", ".", "is a directory"),
    ],
)
def test_sim_checks_its_outputs_before_any_game(
    tmp_path: Path, option: str, name: str, expected: str
) -> None:
    home = tmp_path / "home"
    done = kubik_process(
        "sim",
        "old_west.demo",
        "--runs",
        "2",
        option,
        str(tmp_path / name),
        env={"KUBIK_HOME": str(home)},
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {option}: ") and expected in done.stderr
    assert not (home / "sims").exists()  # no game was played, nothing was stored


def test_serve_refuses_a_taken_port_and_a_bad_host_before_its_address(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = kubik_process("serve", "--port", port)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        f"error: --port: port {port} on 127.0.0.1 is already in use by another program; "
        "choose another with --port"
    )
    bad = kubik_process("serve", "--host", "no-such-host.invalid")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: --host: cannot listen on 'no-such-host.invalid'")
    store = kubik_process("serve", "--store", "/proc/nope/x.sqlite3")
    assert store.returncode == 2 and store.stdout == "" and "/proc/nope" in store.stderr
