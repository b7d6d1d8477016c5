"""Every example of docs/agents.md runs as written, and so does examples/agents_learn.py.

The Python blocks run in order, each on its own, in a fresh KUBIK_HOME (so the saves one
block writes are the next block's); then each ``python -m kubik.agents`` line of a ``sh``
block runs through the command's own entry point, in a folder holding a copy of those
saves as ``games.db``.
"""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from kubik.agents.__main__ import main
from kubik.game.paths import store_path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"```(sh|python)\n(.*?)```", re.DOTALL)


def test_every_example_of_the_page_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = BLOCK.findall(DOC)
    python = [body for kind, body in blocks if kind == "python"]
    assert len(python) >= 6
    for body in python:
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            exec(compile(body, "docs/agents.md", "exec"), {"__name__": "__docs__"})
        assert printed.getvalue(), f"an example printed nothing:\n{body}"
    commands = [
        shlex.split(line, comments=True)
        for kind, body in blocks
        if kind == "sh"
        for line in body.splitlines()
        if line.startswith("python -m kubik.agents")
    ]
    assert len(commands) == 2
    shutil.copy(store_path(), tmp_path / "games.db")
    monkeypatch.chdir(tmp_path)
    for words in commands:
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            assert main(words[3:]) == 0, words
        assert "ambush-5.scavengers.npz" in printed.getvalue()


def test_the_learning_script_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["agents_learn.py", "--episodes", "5", "--games", "3"])
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        runpy.run_path(str(ROOT / "examples" / "agents_learn.py"), run_name="__main__")
    assert "trained:" in printed.getvalue()
