"""Solving for a cost: the value of one number at which a side wins a target share.

``kubik sim SCENARIO --solve 'PATH=LOW..HIGH' --target 0.5 --precision 0.02`` looks
for the value of ``PATH`` (any ``--vary`` path: a unit's models, a points-like field,
a rulebook number ``RULESET:PATH``) at which the side's win rate meets the target.
The values searched form a :class:`Ladder`, in order:

* ``LOW..HIGH``: the whole numbers from ``LOW`` to ``HIGH``;
* ``LOW..HIGH`` with decimals (``0.5..3.0``), or with a step (``0..3/0.25``): the
  numbers from ``LOW`` to ``HIGH`` in steps of the finest decimal written (0.1 for
  ``0.5..3.0``) or of the step given — the precision the value is searched to;
* ``V1,V2,...`` (``d4,d6,d8,d10,d12``): an ordered choice, such as a die's size.

The win rate is assumed to move one way along the ladder (more models, more wins);
which way is found from the two ends.

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
  of the bracket, halving it until the bracket is two neighbours on the ladder: the
  answer is then ``LOW < value < HIGH`` with the win rates of both neighbours and
  their 95% intervals.

No fixed ``--runs``: each probe plays as many games as its decision needs (few when
the value is far from the target, up to the precision's count next to it).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from kubik.core.errors import InputError
from kubik.engine.simulate import Z95, wilson_interval
from kubik.game.scenario import Scenario
from kubik.sim.backends import Backend
from kubik.sim.job import SimJob, build_job
from kubik.sim.outcome import GameOutcome
from kubik.sim.stats import interval_of_rate
from kubik.sim.vary import parse_parameter, split_values

#: Games a probe plays between two looks.
BLOCK = 100
#: The most values a search's ladder holds (a probe is hundreds of games).
MAX_SPAN = 100_000
_NUMBER = r"-?\d+(?:\.\d+)?"
_RANGE = re.compile(rf"^\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*(?:/\s*({_NUMBER})\s*)?$")

Verdict = Literal["below", "above", "at"]
#: What a ladder's values are: whole numbers, numbers in steps, or an ordered choice.
LadderKind = Literal["whole", "decimal", "choice"]
Value = int | float | str


@dataclass(frozen=True, slots=True)
class Ladder:
    """The values a search may answer, in order, each as ``--vary`` writes it.

    >>> parse_solve("units[r1].models=2..5").values
    (2, 3, 4, 5)
    >>> ladder = parse_solve("old_west:weapons.rifle.strength=2.5..3.0")
    >>> ladder.values, ladder.texts[0], ladder.step
    ((2.5, 2.6, 2.7, 2.8, 2.9, 3.0), '2.5', 0.1)
    >>> parse_solve("steel_war:weapons.lmg.power=d6,d8,d10").values
    ('d6', 'd8', 'd10')
    """

    path: str
    kind: LadderKind
    values: tuple[Value, ...]
    texts: tuple[str, ...]
    #: the distance between neighbours (the precision of the value); none for a choice
    step: int | float | None = None

    def to_json(self) -> dict[str, Any]:
        """What was searched: the kind of values, their step and count."""
        return {"kind": self.kind, "step": self.step, "count": len(self.values)}


@dataclass(slots=True)
class Probe:
    """The games played at one value: wins of the side, games, and the verdict."""

    value: Value
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


def parse_solve(spec: str) -> Ladder:
    """``PATH=LOW..HIGH``, ``PATH=LOW..HIGH/STEP`` or ``PATH=V1,V2,...`` → the values a
    search may answer (:class:`Ladder`); one line naming what is wrong.

    >>> parse_solve("units[r1].models=0..1/0.25").values
    (0.0, 0.25, 0.5, 0.75, 1.0)
    """
    path, sep, span = spec.partition("=")
    path = path.strip()
    if not sep or not path:
        raise InputError(
            f"--solve {spec}: write PATH=LOW..HIGH (numbers; /STEP for a step) or "
            "PATH=V1,V2,... (an ordered choice), e.g. units[steel_1].weapons[0].count=4..12"
        )
    match = _RANGE.match(span)
    if match is None:
        if ".." in span or "," not in span:
            raise InputError(
                f"--solve {spec}: write PATH=LOW..HIGH (numbers; /STEP for a step) or "
                "PATH=V1,V2,... (an ordered choice), e.g. units[steel_1].weapons[0].count=4..12"
            )
        return _choice(spec, path, span)
    low_text, high_text, step_text = match.groups()
    low, high = Decimal(low_text), Decimal(high_text)
    if not low < high:
        raise InputError(f"--solve {spec}: LOW must be below HIGH; got {low_text}..{high_text}")
    if step_text is None:
        places = max(_places(low_text), _places(high_text))
        step = Decimal(1).scaleb(-places)
    else:
        step = Decimal(step_text)
        if step <= 0:
            raise InputError(f"--solve {spec}: the step must be above 0; got {step_text}")
    count = (high - low) / step
    if count != count.to_integral_value():
        raise InputError(
            f"--solve {spec}: {low_text}..{high_text} is not a whole number of steps of {step}"
        )
    if count > MAX_SPAN:
        raise InputError(
            f"--solve {spec}: at most {MAX_SPAN} steps from LOW to HIGH; got {int(count)}"
        )
    steps = [low + i * step for i in range(int(count) + 1)]
    places = max(_places(low_text), _places(high_text), _places(step_text or ""))
    if places == 0:
        whole = tuple(int(v) for v in steps)
        return Ladder(path, "whole", whole, tuple(map(str, whole)), int(step))
    texts = tuple(f"{v:.{places}f}" for v in steps)
    return Ladder(path, "decimal", tuple(float(t) for t in texts), texts, float(step))


def _places(number: str) -> int:
    """Decimals written after the point: ``"2.50"`` → 2."""
    return len(number.partition(".")[2])


def _choice(spec: str, path: str, span: str) -> Ladder:
    """An ordered choice: the values as ``--vary`` reads them, at least two, none twice."""
    texts = tuple(t.strip() for t in split_values(span))
    parameter = parse_parameter(f"{path}={span}", "--solve")  # empty or repeated: one line
    values = tuple(
        v if isinstance(v, int | float | str) else t
        for v, t in zip(parameter.values, texts, strict=True)
    )
    return Ladder(path, "choice", values, texts, None)


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
    """One search: the scenario, the values searched, the side and target, and the probes
    so far (by their place on the ladder)."""

    scenario: Scenario
    ladder: Ladder
    side: str
    target: float
    precision: float
    seed: int
    bots: Mapping[str, str]
    backend: Backend
    block: int = BLOCK
    probes: dict[int, Probe] = field(default_factory=dict)

    def job(self, place: int) -> SimJob:
        """The one-cell job of the ladder's value at ``place``, checked (a bad path or
        value is one line)."""
        text = self.ladder.texts[place]
        try:
            parameter = parse_parameter(f"{self.ladder.path}={text}", "--solve")
            return build_job(self.scenario, self.seed, self.bots, [parameter])
        except InputError as error:
            message = str(error)
            if message.startswith("--vary "):
                raise InputError("--solve " + message.removeprefix("--vary ")) from None
            raise

    def probe(self, place: int) -> Probe:
        """Play the value at ``place`` until its verdict (see the module's design)."""
        probe = self.probes.get(place)
        if probe is not None and probe.verdict is not None:
            return probe
        probe = self.probes.setdefault(place, Probe(self.ladder.values[place]))
        job = self.job(place)
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

    def solve(self) -> dict[str, Any]:
        """Bisect the ladder (see the module's design); the answer and every probe."""
        return _bisect(self)


def _bisect(solver: Solver) -> dict[str, Any]:
    ladder = solver.ladder
    low, high = 0, len(ladder.values) - 1
    first, last = solver.probe(low), solver.probe(high)
    answer: dict[str, Any]
    if "at" in (first.verdict, last.verdict):
        at = first if first.verdict == "at" else last
        answer = {"value": at.value}
    elif first.verdict == last.verdict:
        shown = ", ".join(f"{p.value}: {p.wins / p.games:.1%} of {p.games}" for p in (first, last))
        raise InputError(
            f"--solve {ladder.path}={ladder.texts[low]}..{ladder.texts[high]}: the target "
            f"{solver.target:g} is not between the ends ({shown}); widen the range"
        )
    else:
        rising = first.verdict == "below"
        while high - low > 1:
            middle = (low + high) // 2
            probe = solver.probe(middle)
            if probe.verdict == "at":
                answer = {"value": probe.value}
                break
            if (probe.verdict == "below") == rising:
                low = middle
            else:
                high = middle
        else:
            answer = {"between": [ladder.values[low], ladder.values[high]]}
    probes = [solver.probes[place] for place in sorted(solver.probes)]
    return {
        "path": ladder.path,
        "side": solver.side,
        "target": solver.target,
        "precision": solver.precision,
        "values": ladder.to_json(),
        "design": "bisection; sequential probes, Bonferroni over each probe's looks",
        "block": solver.block,
        "decision_z": round(decision_z(solver.precision, solver.block), 4),
        "answer": answer,
        "probes": [p.to_json() for p in probes],
        "games": sum(p.games for p in probes),
    }


__all__ = [
    "BLOCK",
    "Ladder",
    "Probe",
    "Solver",
    "check_target",
    "decision_z",
    "most_games",
    "parse_solve",
]
