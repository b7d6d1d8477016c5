"""An exact odds question past the engine's limit of CPU seconds is stopped with one line
naming the limit, in the user's language, instead of running for minutes; a question
inside it is answered as before."""

from __future__ import annotations

import json
import resource
import signal
import time
from typing import Any

import pytest

from kubik import api
from kubik.core import limits
from tests.bots.cli_harness import Kubik, kubik, one_line_error, toy_home

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "ITIMER_PROF"), reason="the limit needs a CPU timer (POSIX)"
)


def too_large() -> dict[str, Any]:
    """A slow corner of ``fantasy.close_combat``'s input ranges: the worst-case bench's
    largest question (every number at its most, every special rule) with the most rank
    and file Wounds a side takes (twenty models of three), a first round with impact hits
    and a challenge between characters of ten Wounds (several seconds to work out exactly)."""
    from bench.worst_cases import extreme_inputs

    from kubik.engine.registry import get

    question = extreme_inputs(get("fantasy.close_combat").input_model)[0]
    for side in ("a", "b"):
        question[side]["models"] = 20
        question[side]["troops"]["wounds"] = 3
    question["b"]["charging"] = False
    return {**question, "round": 1, "challenge": "accept"}


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_question_past_the_limit_stops_with_one_line(
    kubik: Kubik, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.setattr(limits, "ODDS_SECONDS", 1)
    # the bound on steps would refuse it first (tests/engine/test_exact_work.py): the
    # seconds are the net behind it, for work the steps do not count
    monkeypatch.setattr(limits, "ODDS_STEPS", 10**12)
    # from a cold memo: a run of this question stopped earlier in this process keeps the
    # parts it finished, and the rest could then fit in the second
    api.clear_cache()
    start, clock = cpu(), time.monotonic()
    done = kubik("odds", "fantasy.close_combat", "--input", json.dumps(too_large()), "--lang", lang)
    if lang == "en":
        line = one_line_error(done)
    else:  # the same one line, begun in Russian
        assert done.code == 2 and "Traceback" not in done.err, done
        (line,) = done.err.strip().splitlines()
        assert line.startswith("ошибка: ")
    assert cpu() - start < 10 and time.monotonic() - clock < 30
    assert "input" in line and "1" in line and "--simulate" in line
    assert ("остановлены" in line) if lang == "ru" else ("stopped" in line)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # the timer is put away


def test_a_question_inside_the_limit_is_answered(
    kubik: Kubik, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "ODDS_SECONDS", 5)
    fight = '{"a": [{"fight": 4, "attacks": 1}], "b": [{"fight": 3, "attacks": 1}]}'
    done = kubik("odds", "old_west.fight", "--input", fight)
    assert done.code == 0, done.err
    assert "winner" in done.out
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
