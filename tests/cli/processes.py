"""Running the real ``kubik`` command in a child process (exit code, stdout, stderr)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def kubik_process(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``python -m kubik ARGS`` with ``env`` added to this process's environment (and
    ``stdin`` as its input)."""
    return subprocess.run(
        [sys.executable, "-m", "kubik", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "80", **(env or {})},
    )
