"""Long work shows its progress on a terminal and stops cleanly with Ctrl-C."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

COMBAT = (
    '{"a": [{"fight": 3, "attacks": 2, "strength": 3, "toughness": 3}],'
    ' "b": [{"fight": 4, "attacks": 1, "strength": 4, "toughness": 4}]}'
)


def test_a_long_simulation_shows_progress_and_ctrl_c_stops_it_in_one_line(tmp_path: Path) -> None:
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
    child.sendintr()
    child.expect_exact("error: interrupted")
    child.expect(pexpect.EOF)
    # wait for the exit itself: close() would kill a child still exiting on a busy machine
    assert child.wait() == 130
    assert "Traceback" not in (child.before or "")
