"""Solving for a cost: the value of one number at which a side wins a target share.

``kubik sim SCENARIO --solve 'PATH=LOW..HIGH' --target 0.5 --precision 0.02`` looks
for the whole number of ``PATH`` (any ``--vary`` path: a unit's models, a points-like
field, a rulebook number ``RULESET:PATH``) in ``LOW..HIGH`` at which the side's win
rate meets the target. The win rate is assumed to move one way with the value
(more models, more wins); which way is found from the two ends.

The design is **bisection with a sequential test at each probe**:

* a probe plays its value in blocks of games (:data:`BLOCK`), on the same seeds as
  every other probe (common random numbers: game ``j`` has the seed game ``j`` of any
  cell has), until either the win rate's interval leaves the target (the value is
  *below* or *above* it) or the 95% Wilson interval has narrowed to ``±precision``
  with the target still inside (the value is *at* the target: the answer);
* the interval a probe decides by is Wilson's at a Bonferroni-corrected level over
  the looks a probe may take (the most games a probe plays is the number that brings
  the 95% half-width to ``precision`` at a rate of one half), so the repeated looks
  keep each probe's chance of a wrong direction under 5%;
* the two ends are probed first (the target must lie between them), then the middle
  of the bracket, halving it until the bracket is two neighbours: the answer is then
  ``LOW < value < HIGH`` with the win rates of both neighbours and their 95% intervals.

No fixed ``--runs``: each probe plays as many games as its decision needs (few when
the value is far from the target, up to the precision's count next to it).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from kubik.core.errors import InputError
from kubik.engine.simulate import Z95, wilson_interval
from kubik.game.scenario import Scenario
from kubik.sim.backends import Backend
from kubik.sim.job import SimJob, build_job
from kubik.sim.outcome import GameOutcome
from kubik.sim.stats import interval_of_rate
from kubik.sim.vary import parse_parameter

#: Games a probe plays between two looks.
BLOCK = 100
#: The widest range a search takes (a probe is hundreds of games).
MAX_SPAN = 100_000
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")

Verdict = Literal["below", "above", "at"]


@dataclass(slots=True)
class Probe:
    """The games played at one value: wins of the side, games, and the verdict."""

    value: int
    wins: int = 0
    games: int = 0
    looks: int = 0
    verdict: Verdict | None = None
    outcomes: list[GameOutcome] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "games": self.games,
            "wins": self.wins,
            "p": round(self.wins / self.games, 6) if self.games else None,
            "interval": interval_of_rate(self.wins, self.games),
            "looks": self.looks,
            "verdict": self.verdict,
        }


def parse_solve(spec: str) -> tuple[str, int, int]:
    """``PATH=LOW..HIGH`` → (path, low, high); one line naming what is wrong.

    >>> parse_solve("units[r1].models=2..12")
    ('units[r1].models', 2, 12)
    """
    path, sep, span = spec.partition("=")
    match = _RANGE.match(span) if sep else None
    if match is None:
        raise InputError(
            f"--solve {spec}: write PATH=LOW..HIGH (whole numbers), "
            "e.g. units[steel_1].weapons[0].count=4..12"
        )
    low, high = int(match.group(1)), int(match.group(2))
    if not low < high or high - low > MAX_SPAN:
        raise InputError(
            f"--solve {spec}: LOW must be below HIGH, at most {MAX_SPAN} apart; got {low}..{high}"
        )
    return path.strip(), low, high


def check_target(target: object, precision: object) -> tuple[float, float]:
    """The target share and the precision, each strictly between 0 and 1 (one line)."""
    for name, value in (("--target", target), ("--precision", precision)):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(f"{name}: {value!r}; allowed: a share between 0 and 1")
        if not 0 < value < 1:
            raise InputError(f"{name}: {value}; allowed: a share between 0 and 1 (not 0 or 1)")
    assert isinstance(target, int | float) and isinstance(precision, int | float)
    if precision > 0.25:
        raise InputError(f"--precision: {precision}; allowed: at most 0.25 (a share of games)")
    return float(target), float(precision)


def most_games(precision: float) -> int:
    """Games that bring the 95% interval of a rate near one half to ``±precision``.

    >>> most_games(0.02), most_games(0.05)
    (2401, 385)
    """
    return math.ceil((Z95 * 0.5 / precision) ** 2)


def decision_z(precision: float, block: int = BLOCK) -> float:
    """The normal quantile a probe decides by: 95% over all its looks (Bonferroni).

    >>> round(decision_z(0.02), 3)
    3.09
    """
    looks = math.ceil(most_games(precision) / block)
    return statistics.NormalDist().inv_cdf(1 - 0.05 / (2 * looks))


@dataclass(slots=True)
class Solver:
    """One search: the scenario, the path, the side and target, and the probes so far."""

    scenario: Scenario
    parameter_path: str
    side: str
    target: float
    precision: float
    seed: int
    bots: Mapping[str, str]
    backend: Backend
    block: int = BLOCK
    probes: dict[int, Probe] = field(default_factory=dict)

    def job(self, value: int) -> SimJob:
        """The one-cell job of ``value``, checked (a bad path or value is one line)."""
        try:
            parameter = parse_parameter(f"{self.parameter_path}={value}", "--solve")
            return build_job(self.scenario, self.seed, self.bots, [parameter])
        except InputError as error:
            text = str(error)
            if text.startswith("--vary "):
                raise InputError("--solve " + text.removeprefix("--vary ")) from None
            raise

    def probe(self, value: int) -> Probe:
        """Play ``value`` until its verdict (see the module's design)."""
        probe = self.probes.get(value)
        if probe is not None and probe.verdict is not None:
            return probe
        probe = self.probes.setdefault(value, Probe(value))
        job = self.job(value)
        cap = most_games(self.precision)
        z = decision_z(self.precision, self.block)
        while probe.verdict is None:
            upto = min(cap, probe.games + self.block)
            tasks = job.tasks(upto)[probe.games :]
            for outcome in self.backend.run(job, tasks):
                probe.outcomes.append(outcome)
                probe.wins += outcome.winner == self.side
            probe.games = upto
            probe.looks += 1
            low, high = wilson_interval(probe.wins, probe.games, z)
            if high < self.target:
                probe.verdict = "below"
            elif low > self.target:
                probe.verdict = "above"
            elif probe.games >= cap:
                probe.verdict = "at"
        return probe

    def solve(self, low: int, high: int) -> dict[str, Any]:
        """Bisect ``low..high`` (see the module's design); the answer and every probe."""
        return _bisect(self, low, high)


def _bisect(solver: Solver, low: int, high: int) -> dict[str, Any]:
    first, last = solver.probe(low), solver.probe(high)
    answer: dict[str, Any]
    if "at" in (first.verdict, last.verdict):
        at = first if first.verdict == "at" else last
        answer = {"value": at.value}
    elif first.verdict == last.verdict:
        shown = ", ".join(f"{p.value}: {p.wins / p.games:.1%} of {p.games}" for p in (first, last))
        raise InputError(
            f"--solve {solver.parameter_path}={low}..{high}: the target {solver.target:g} is "
            f"not between the ends ({shown}); widen the range"
        )
    else:
        rising = first.verdict == "below"
        while high - low > 1:
            middle = (low + high) // 2
            probe = solver.probe(middle)
            if probe.verdict == "at":
                answer = {"value": middle}
                break
            if (probe.verdict == "below") == rising:
                low = middle
            else:
                high = middle
        else:
            answer = {"between": [low, high]}
    probes = sorted(solver.probes.values(), key=lambda p: p.value)
    return {
        "path": solver.parameter_path,
        "side": solver.side,
        "target": solver.target,
        "precision": solver.precision,
        "design": "bisection; sequential probes, Bonferroni over each probe's looks",
        "block": solver.block,
        "decision_z": round(decision_z(solver.precision, solver.block), 4),
        "answer": answer,
        "probes": [p.to_json() for p in probes],
        "games": sum(p.games for p in probes),
    }


__all__ = [
    "BLOCK",
    "Probe",
    "Solver",
    "check_target",
    "decision_z",
    "most_games",
    "parse_solve",
]
