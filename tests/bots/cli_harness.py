"""Running the ``kubik`` command in-process for tests: exit code, stdout, stderr.

``main()`` is the real entry point (errors become one line and exit 2), stdin is
a string, and the toy rulesets with their scenario files live in a fresh
KUBIK_HOME (user scenarios), so ``kubik play toy_duel.demo`` works by id.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pytest

from kubik.cli.app import main
from kubik.game import register_ruleset, unregister_ruleset
from kubik.game.paths import user_scenarios_dir
from tests.bots.forecast_toy import FORECAST_GAME, FORECAST_ID, FORECAST_SCENARIO
from tests.game.toy import GAME, SCENARIO, TOY_ID


@dataclass(frozen=True)
class Done:
    """What a run of the command left behind."""

    code: int
    out: str
    err: str


def install_toys(home: Path) -> None:
    """Register the toy rulesets and write their scenarios as the user's own."""
    register_ruleset(GAME, replace=True)
    register_ruleset(FORECAST_GAME, replace=True)
    folder = home / "scenarios"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "duel.toml").write_text(SCENARIO, encoding="utf-8")
    (folder / "forecast_duel.toml").write_text(FORECAST_SCENARIO, encoding="utf-8")


@pytest.fixture
def toy_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh KUBIK_HOME with the toy scenarios; the toy rulesets registered."""
    home = tmp_path / "home"
    monkeypatch.setenv("KUBIK_HOME", str(home))
    monkeypatch.setenv("NO_COLOR", "1")
    install_toys(home)
    assert user_scenarios_dir() == home / "scenarios"
    yield home
    unregister_ruleset(TOY_ID)
    unregister_ruleset(FORECAST_ID)


def run_kubik(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str = "",
) -> Done:
    """``kubik ARGS`` in this process, with ``stdin`` as its input."""
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main(list(args))
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)


def one_line_error(done: Done) -> str:
    """The single error line of a failed run (and that it is one line, exit 2)."""
    assert done.code == 2, (done.code, done.out, done.err)
    lines = done.err.strip().splitlines()
    assert len(lines) == 1, done.err
    assert "Traceback" not in done.err
    assert lines[0].startswith("error: ")
    return lines[0]


class Kubik(Protocol):
    """The ``kubik`` fixture: run the command with arguments and optional stdin."""

    def __call__(self, *args: str, stdin: str = "") -> Done: ...


@pytest.fixture
def kubik(
    toy_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Kubik:
    """Runs ``kubik ARGS`` in-process in the toy home."""

    def call(*args: str, stdin: str = "") -> Done:
        return run_kubik(capsys, monkeypatch, *args, stdin=stdin)

    return call
