"""Every example in the README runs as written, from the repository's root.

Each ``kubik ...`` line of a ``sh`` block runs through the real entry point (in this
process, in a fresh KUBIK_HOME and HOME; a person's prompt gets ``quit``) and must
exit 0; each ``make`` line names a target the Makefile has; the Python block runs.
Nothing in the README may point outside the repository.

A line that plays many whole games (``--runs N`` of ``kubik coverage`` and ``kubik
sim``) runs here with at most :data:`MOST_RUNS` of them: the count changes only how
long it takes, and the suite must stay quick. The full lines run in a fresh clone before
each release (and ``tests/game`` runs coverage and sim at their real sizes).
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.bots.cli_harness import run_kubik
from tests.cli.processes import kubik_process

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"```(sh|python)\n(.*?)```", re.DOTALL)
#: Whole games a README line plays in this test (its ``--runs``, capped).
MOST_RUNS = 2
#: The picture the README's ``kubik sim --plot`` line writes where it runs.
PICTURE = "showdown.png"


def capped(words: list[str]) -> list[str]:
    """The command with its ``--runs`` capped at :data:`MOST_RUNS`.

    >>> capped(["kubik", "sim", "x", "--runs", "2000", "--json"])
    ['kubik', 'sim', 'x', '--runs', '2', '--json']
    """
    out = list(words)
    for index, word in enumerate(out[:-1]):
        if word == "--runs" and out[index + 1].isdigit():
            out[index + 1] = str(min(int(out[index + 1]), MOST_RUNS))
    return out


def sh_commands() -> list[list[str]]:
    """The shell commands of the README, a command spanning lines joined (shlex rules)."""
    commands: list[list[str]] = []
    for kind, body in BLOCK.findall(README):
        if kind != "sh":
            continue
        pending = ""
        for line in body.splitlines():
            pending = f"{pending}\n{line}" if pending else line
            try:
                words = shlex.split(pending.replace("\\\n", " "), comments=True)
            except ValueError:  # an open quote: the command goes on on the next line
                continue
            if words:
                commands.append(words)
            pending = ""
        assert not pending, f"unfinished command in the README: {pending!r}"
    return commands


def python_blocks() -> list[str]:
    return [body for kind, body in BLOCK.findall(README) if kind == "python"]


def test_the_readme_has_examples_and_points_nowhere_outside_the_repository() -> None:
    kubik_lines = [c for c in sh_commands() if c[0] == "kubik"]
    assert len(kubik_lines) >= 20
    assert "../" not in README and "/work/" not in README
    for words in kubik_lines:
        for word in words:
            if word.startswith("@"):
                assert (ROOT / word[1:]).is_file(), word


def test_every_make_line_is_a_target() -> None:
    targets = [c[1] for c in sh_commands() if c[0] == "make"]
    assert {"demo", "test"} <= set(targets)
    for target in targets:
        done = subprocess.run(
            ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, (target, done.stderr)


def test_every_kubik_line_runs_as_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the repository's entries, linked into a directory of the test's own: the lines read
    # what they name as a person's clone has it, and what they write (a plot) lands here
    work = tmp_path / "clone"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name != PICTURE:  # a person's own plot stays theirs
            (work / entry.name).symlink_to(entry)
    monkeypatch.chdir(work)
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "kubik"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("KUBIK_DATA_DIR", raising=False)
    monkeypatch.setattr("typer._completion_shared._get_shell_name", lambda: "bash")
    (tmp_path / "home").mkdir()
    ran = 0
    for words in sh_commands():
        if words[0] == "source":  # the shell's own: the file it sources must be there
            assert words[1] == ".venv/bin/activate"
            continue
        if words[0] != "kubik":
            continue
        if "--ray" in words:  # Ray keeps per-process state (its auth token): a child runs it
            child = kubik_process(*capped(words)[1:], env={"KUBIK_HOME": str(tmp_path / "k")})
            code, err = child.returncode, child.stderr
        else:
            done = run_kubik(capsys, monkeypatch, *capped(words)[1:], stdin="quit\n" * 5)
            code, err = done.code, done.err
        assert code == 0, (words, err)
        assert "Traceback" not in err and "internal error" not in err, words
        ran += 1
    assert ran >= 20
    assert any((tmp_path / "home").rglob("*")), "--install-completion wrote nothing"
    assert (work / PICTURE).is_file(), "kubik sim --plot wrote no picture"


def test_the_python_block_runs() -> None:
    blocks = python_blocks()
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})
