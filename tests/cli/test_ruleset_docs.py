"""The rulesets' pages show real output: every ``$ kubik ...`` block of docs/steel_war.md and
docs/old_west.md runs as written, and each line it shows is a line the command prints."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.cli.processes import kubik_process

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```text\n\$ (kubik [^\n]+)\n(.*?)```", re.DOTALL)


def _shown(page: str) -> list[tuple[str, str]]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return [(found[1], found[2]) for found in BLOCK.finditer(text)]


def _plain(line: str) -> str:
    return " ".join(line.split())


CASES = [(page, *shown) for page in ("steel_war.md", "old_west.md") for shown in _shown(page)]


@pytest.mark.parametrize(("page", "command", "shown"), CASES, ids=[c[1] for c in CASES])
def test_a_rulesets_page_shows_what_the_command_prints(
    page: str, command: str, shown: str, tmp_path: Path
) -> None:
    done = kubik_process(
        *shlex.split(command)[1:], env={"KUBIK_HOME": str(tmp_path), "COLUMNS": "90"}, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    printed = {_plain(line) for line in done.stdout.splitlines()}
    missing = [line for line in shown.splitlines() if _plain(line) not in printed]
    assert missing == [], f"{page}: {command}"


def test_both_pages_show_commands() -> None:
    assert len(CASES) >= 4
