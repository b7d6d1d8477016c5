"""Cached answers: ``kubik odds ... --json`` asked again is read back, never recomputed,
and any change of the question (or of kubik's files) is a new question."""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from kubik.cli import answers
from kubik.cli.launch import main

WOUND = ["odds", "old_west.wound", "--input", '{"strength": 3, "toughness": 8}', "--json"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path))
    monkeypatch.delenv("KUBIK_ANSWER_CACHE", raising=False)
    return tmp_path


def run(args: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        main(args)
    return out.getvalue()


def test_a_repeated_question_is_answered_from_the_cache(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run(WOUND)
    assert json.loads(first)["outcomes"][1]["probability"] == "1/12"
    kept = list((home / "cache" / "answers").glob("*.json"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == first
    # the second time nothing heavy is needed: the full command is never reached
    monkeypatch.setitem(sys.modules, "kubik.cli.app", None)
    assert run(WOUND) == first


def test_another_question_or_an_input_file_that_changed_is_another_key(home: Path) -> None:
    other = [*WOUND[:3], '{"strength": 4, "toughness": 8}', "--json"]
    assert answers.key(WOUND) != answers.key(other)
    data = home / "strike.json"
    data.write_text('{"strength": 3, "toughness": 8}', encoding="utf-8")
    from_file = ["odds", "old_west.wound", "--input", f"@{data}", "--json"]
    before = answers.key(from_file)
    data.write_text('{"strength": 5, "toughness": 8}', encoding="utf-8")
    assert answers.key(from_file) != before


def test_only_json_odds_are_cached_and_the_cache_can_be_turned_off(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not answers.enabled(WOUND[:-1])  # tables for people are not kept
    assert not answers.enabled(["resolve", *WOUND[1:]])
    monkeypatch.setenv("KUBIK_ANSWER_CACHE", "off")
    assert not answers.enabled(WOUND)
    run(WOUND)
    assert not (home / "cache").exists()


def test_a_failed_question_is_not_kept(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["odds", "old_west.wound", "--input", '{"strength": 30}', "--json"])
    assert not list((home / "cache").glob("**/*.json"))
