"""Long work shows its progress on a terminal and stops cleanly with Ctrl-C."""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

COMBAT = (
    '{"a": [{"fight": 3, "attacks": 2, "strength": 3, "toughness": 3}],'
    ' "b": [{"fight": 4, "attacks": 1, "strength": 4, "toughness": 4}]}'
)


def _long_simulation(tmp_path: Path) -> Any:
    """``kubik odds --simulate`` on a terminal, once its progress bar shows."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kubik", "odds", "old_west.combat", "-i", COMBAT, "--simulate", "1000000"],
        env={**os.environ, "KUBIK_HOME": str(tmp_path), "TERM": "xterm"},
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 80),
        # a test runner's worker may ignore Ctrl-C (pytest-xdist's do); a person's shell does not
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.expect_exact("simulating")  # the progress bar, on the terminal
    return child


def test_a_long_simulation_shows_progress_and_ctrl_c_stops_it_in_one_line(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = _long_simulation(tmp_path)
    child.sendintr()
    child.expect_exact("error: interrupted")
    child.expect(pexpect.EOF)
    # wait for the exit itself: close() would kill a child still exiting on a busy machine
    _ended_by_ctrl_c(child)
    assert "Traceback" not in (child.before or "")


def _ended_by_ctrl_c(child: Any) -> None:
    """Exit code 130, or (rarely, on a busy machine) death by the SIGINT itself after the
    one line: a shell reports both as 130, the convention for a command Ctrl-C stopped."""
    code = child.wait()
    assert code == 130 or (code is None and child.signalstatus == signal.SIGINT), (
        f"exit {code}, signal {child.signalstatus}"
    )


def test_ctrl_c_pressed_twice_still_ends_in_one_line_with_exit_130(tmp_path: Path) -> None:
    """People press Ctrl-C twice: wherever the second press lands while the command ends,
    they see the one line, never a traceback."""
    pexpect = pytest.importorskip("pexpect")
    for pause in (0.0, 0.02, 0.05):
        child = _long_simulation(tmp_path)
        child.sendintr()
        time.sleep(pause)
        child.sendintr()
        child.expect(pexpect.EOF)
        _ended_by_ctrl_c(child)
        said = child.before or ""
        assert said.count("interrupted") == 1
        assert "Traceback" not in said


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, so the progress bar shows."""

    def isatty(self) -> bool:
        return True


def test_ctrl_c_while_the_progress_bar_starts_leaves_no_refresh_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C can land inside the bar's start, after its refresh thread has begun (the
    moment "simulating" first shows): the bar must still stop, or its thread outlives the
    command and writes to stderr while Python shuts down."""
    from rich.live import Live

    from kubik.cli.odds import _progress

    started = Live.start

    def start_then_interrupted(self: Live, refresh: bool = False) -> None:
        started(self, refresh)
        raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.setattr(Live, "start", start_then_interrupted)
    with pytest.raises(KeyboardInterrupt), _progress(100_000, "en"):
        pass
    refreshing = [t for t in threading.enumerate() if type(t).__name__ == "_RefreshThread"]
    assert refreshing, "the bar never started its refresh thread: the test proves nothing"
    for thread in refreshing:
        thread.join(timeout=10)  # a stopped bar's thread ends at its next tick
    assert [t for t in refreshing if t.is_alive()] == []
