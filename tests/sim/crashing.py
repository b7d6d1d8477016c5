"""A toy ruleset whose battles go wrong inside a worker process: for testing how a run stops."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping
from typing import Any

from kubik.engine import Procedure
from kubik.game import Scenario
from kubik.game.battle import BattleRuleset
from tests.game.skirmish import SkirmishGame, _check

CRASH_ID = "toy_crash"


class DyingGame(SkirmishGame):
    """Dies at once in a worker process (as a process killed for memory does)."""

    def turn(self, number: int) -> Procedure[None]:
        if multiprocessing.parent_process() is not None:
            os._exit(9)
        yield from super().turn(number)


class FailingGame(SkirmishGame):
    """Raises in its second turn (a bug in a ruleset)."""

    def turn(self, number: int) -> Procedure[None]:
        if number == 2:
            raise RuntimeError("a bug in the toy's second turn")
        yield from super().turn(number)


def _start(scenario: Scenario, options: Mapping[str, Any]) -> SkirmishGame:
    kind = scenario.options.get("crash", "die")
    return DyingGame(scenario, options) if kind == "die" else FailingGame(scenario, options)


CRASH = BattleRuleset(CRASH_ID, _check, _start)
