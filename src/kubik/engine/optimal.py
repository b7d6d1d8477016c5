"""The optimal policy: every decision made to maximise its own side's goal, exactly.

The solver is expectimax over the procedure's own requests
(:mod:`kubik.engine.expectimax`): rolls averaged, each decision taken by its side for
the most worth and then the least spent, sealed bids solved as matrix games.

:class:`Optimal` is the policy object: the odds driver asks it for whole
distributions (:meth:`Optimal.solve_counts`); play, table, simulation and bots ask
it for one decision at a :data:`~kubik.engine.stepper.Position` (the stack of
procedures running, each with the answers it has received), solving from the
outermost procedure that declares goals for the deciding side.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kubik.core.errors import ProcedureError
from kubik.engine.applied import not_recording
from kubik.engine.expectimax import (
    ByGoals,
    ByTable,
    Node,
    Note,
    Solver,
    TooMuchWork,
    Utility,
    Value,
    as_counted,
    reduced_outcome,
    replayed_to,
    tally_plus,
)
from kubik.engine.objectives import Goal, Objectives, goal_key, objectives_for, override
from kubik.engine.odds import OddsCache, OddsDriver
from kubik.engine.requests import Choose, Procedure, silenced
from kubik.engine.rolls import Counted
from kubik.engine.stepper import Frame, Position
from kubik.engine.tally import Tally


class Optimal:
    """Policy: each side decides to maximise its goal's expected worth, exactly.

    ``goals`` replaces the declared goal of some sides of the procedure asked about
    (``{"a": "winner=a"}``, texts as :func:`~kubik.engine.objectives.parse_goal`).
    Mixed strategies (sealed bids) are drawn from a counter-based stream of ``seed``
    when a single decision is asked for.
    """

    name = "optimal"

    def __init__(self, goals: Mapping[str, str | Goal] | None = None, seed: int = 0) -> None:
        self.goals: dict[str, Goal] = override(None, goals or {})
        self.seed = seed
        self.draws = 0

    def __hash__(self) -> int:
        return hash(("optimal", goal_key(self.goals)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Optimal) and goal_key(self.goals) == goal_key(other.goals)

    def __repr__(self) -> str:
        return "Optimal()" if not self.goals else f"Optimal({sorted(self.goals)})"

    def __call__(self, request: Choose) -> Hashable:
        raise ProcedureError("the optimal policy decides from the position: use choose_at")

    def objectives(
        self, procedure: Callable[..., Any] | None, args: tuple[Any, ...], root: bool
    ) -> Objectives | None:
        """The goals that apply to ``procedure(*args)`` (the overrides at the root)."""
        declared = objectives_for(procedure, args)
        if root and self.goals:
            return override(declared, self.goals)
        return declared

    def solution(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        cache: OddsCache,
        explain: bool = False,
    ) -> tuple[tuple[str, ...], Node]:
        """The solved procedure: its sides (in value order) and its root node."""
        goals = self.objectives(procedure, args, root=True) or {}
        sides = tuple(sorted(goals))
        solver = Solver(cache, sides, explain)
        with silenced(), not_recording():
            node = solver.solve(procedure, args, ByGoals(tuple(goals[s].worth for s in sides)))
        return sides, node

    def solve_counts(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...], cache: OddsCache
    ) -> Counted:
        """The outcome distribution under optimal play, as integer weights (odds driver).

        A procedure without decisions is plain odds (the same under every policy).
        """
        plain = OddsDriver(cache=cache)
        if not plain.has_decisions(procedure, args):
            return plain.counted(procedure, args)
        return as_counted(self.solution(procedure, args, cache)[1].dist)

    def strategy(
        self, request: Choose, position: Position, cache: OddsCache, budget: int | None = None
    ) -> dict[Hashable, Fraction] | None:
        """The decision at ``position`` (a mixed strategy), or ``None`` when no procedure on
        the stack declares a goal for the deciding side.

        With a ``budget`` (positions to look at), a decision whose solution is not known
        yet is solved afresh (sharing only the plain odds of ``cache``, so whether it fits
        the budget never depends on what was solved before; the outer frames' part, the
        same for every decision of one procedure run, resumes from where the first of
        them left it, with the positions it counted); one that does not fit raises
        :class:`TooMuchWork`, remembered so it is not tried again.
        """
        with silenced(), not_recording():
            return _strategy_at(self, request, position, cache, budget)

    def choose_at(self, request: Choose, position: Position, cache: OddsCache) -> Hashable:
        """One decision: the best option, or a draw from the mixed strategy (sealed bids);
        the request's default where nothing declares a goal for its side."""
        mix = self.strategy(request, position, cache)
        if mix is None:
            return request.default
        return draw(mix, random.Random(f"kubik-optimal:{self.seed}:{self.draws}"), self)


def draw(mix: Mapping[Hashable, Fraction], rng: random.Random, counter: Any = None) -> Hashable:
    """One option from a mixed strategy (the only option of a pure one), exactly weighted."""
    if counter is not None:
        counter.draws += 1
    options = list(mix)
    if len(options) == 1:
        return options[0]
    total = math.lcm(*(p.denominator for p in mix.values()))
    ticket = rng.randrange(total)
    for option in options:
        ticket -= mix[option].numerator * (total // mix[option].denominator)
        if ticket < 0:
            return option
    return options[-1]


def _strategy_at(
    policy: Optimal,
    request: Choose,
    position: Position,
    cache: OddsCache,
    budget: int | None = None,
) -> dict[Hashable, Fraction] | None:
    top = -1
    goals: Objectives | None = None
    for index, frame in enumerate(position):
        found = policy.objectives(frame.procedure, frame.args, root=index == 0)
        if found and request.side in found:
            top, goals = index, found
            break
    if goals is None:
        return None
    sides = tuple(sorted(goals))
    key = (
        "decision",
        goal_key(goals),
        tuple((f.procedure, f.args, f.answers, f.call, f.done) for f in position[top:]),
        request.side,
        request.options,
        budget,
    )
    known = cache.solved.get(key)
    if known is None:
        try:
            known = _solve_position(cache, sides, goals, position[top:], request, budget)
        except TooMuchWork:
            if budget is None:
                raise
            known = _TOO_MUCH
        cache.solved[key] = known
    if known is _TOO_MUCH:
        raise TooMuchWork(f"more than {budget} positions")
    return dict(known)


#: A decision's mark in the cache: solving it ran past the budget.
_TOO_MUCH: Any = ("too much work",)


#: Where a cache's :class:`_Outer` states are kept (a table in ``OddsCache.solved``).
_OUTER_TABLE: Any = ("outer frames solved",)
#: The most :class:`_Outer` states one cache keeps (an engine limit: each holds a
#: solve's memo tables); the oldest is forgotten first.
_OUTER_LIMIT = 32


@dataclass(frozen=True, slots=True)
class _Outer:
    """A position's solve once the outer frames are done: what each outcome of the
    innermost procedure is worth, and the solver's state then (positions looked at,
    its memo tables) — every decision of that procedure run starts from here."""

    utility: Utility
    visited: int
    solved: dict[Hashable, Any]
    support: dict[Hashable, Any]


def _outer_key(goals: Objectives, frames: Position, budget: int | None) -> Hashable:
    """Everything the outer frames' solve reads: the goals, each outer procedure as far
    as it has got, each inner one as it was called (not its own answers), the budget."""
    outer = tuple((f.procedure, f.args, f.answers) for f in frames[:-1])
    inner = tuple((f.procedure, f.args, f.call, f.done) for f in frames[1:])
    return (goal_key(goals), outer, inner, budget)


def _solve_position(
    cache: OddsCache,
    sides: tuple[str, ...],
    goals: Objectives,
    frames: Position,
    request: Choose,
    budget: int | None = None,
) -> dict[Hashable, Fraction]:
    """The decision at ``frames``. With a ``budget`` it is solved on a cache of its own
    (:meth:`OddsCache.for_solving`); the outer frames' part, the same for every decision
    of the innermost procedure run, is solved once (:class:`_Outer`) and each decision
    resumes from its state, so it looks at exactly the positions a solve from scratch
    would, and runs past the budget exactly where that would."""
    solving = cache if budget is None else cache.for_solving()
    solver = Solver(solving, sides, budget=budget)
    utility: Utility = ByGoals(tuple(goals[s].worth for s in sides))
    if len(frames) > 1:
        utility = _outer_utility(cache, solver, goals, frames, utility)
    frame = frames[-1]
    assert frame.procedure is not None
    return _decide(solver, frame, request, utility)


def _outer_utility(
    cache: OddsCache, solver: Solver, goals: Objectives, frames: Position, utility: Utility
) -> Utility:
    """What each outcome of the innermost procedure is worth (remembered per
    :func:`_outer_key`; ``solver`` left as solving it from scratch leaves it)."""
    table = cache.solved.get(_OUTER_TABLE)
    if table is None:
        table = cache.solved[_OUTER_TABLE] = {}
    key = _outer_key(goals, frames, solver.budget)
    known = table.get(key)
    if known is _TOO_MUCH:
        raise TooMuchWork(f"more than {solver.budget} positions")
    if isinstance(known, _Outer):
        if solver.budget is not None:  # unbounded solves keep their memo in ``cache``
            solver.cache.solved.update(known.solved)
            solver.cache.support.update(known.support)
            solver.visited = known.visited
        return known.utility
    try:
        for index in range(len(frames) - 1):
            utility = _inner_utility(solver, frames[index], frames[index + 1], utility)
    except TooMuchWork:
        _keep(table, key, _TOO_MUCH)
        raise
    own = solver.budget is not None
    solved = dict(solver.cache.solved) if own else {}
    support = dict(solver.cache.support) if own else {}
    _keep(table, key, _Outer(utility, solver.visited, solved, support))
    return utility


def _keep(table: dict[Hashable, Any], key: Hashable, known: Any) -> None:
    """``known`` under ``key``, the oldest entry forgotten past :data:`_OUTER_LIMIT`."""
    if len(table) >= _OUTER_LIMIT:
        del table[next(iter(table))]
    table[key] = known


def _frame_node(solver: Solver, frame: Frame, answers: tuple[Any, ...], utility: Utility) -> Node:
    assert frame.procedure is not None
    gen, request, outcome = replayed_to(frame.procedure, frame.args, answers)
    return solver._node(frame.procedure, frame.args, answers, gen, request, outcome, utility)


def _inner_utility(solver: Solver, frame: Frame, inner: Frame, utility: Utility) -> Utility:
    """What each outcome of the sub-procedure running in ``inner`` is worth to ``frame``."""
    call = inner.call
    assert call is not None and inner.procedure is not None
    outcomes, _ = solver.support(inner.procedure, inner.args)

    def after(answer: Any) -> Node:
        if call.tail:  # the frame returns the answer: not replayed per answer
            return solver._leaf(call.promised(answer), utility)
        return _frame_node(solver, frame, (*frame.answers, answer), utility)

    if call.times is None:
        return ByTable({o: after(reduced_outcome(call, o)).value for o in outcomes})
    left = call.times - len(inner.done) - 1
    done = Tally(inner.done)
    return ByTable(
        {o: solver._runs(call, outcomes, after, tally_plus(done, o), left).value for o in outcomes}
    )


def _decide(
    solver: Solver, frame: Frame, request: Choose, utility: Utility
) -> dict[Hashable, Fraction]:
    assert frame.procedure is not None
    answers = frame.answers
    if request.sealed and answers:
        gen, before, _ = replayed_to(frame.procedure, frame.args, answers[:-1])
        if isinstance(before, Choose) and before.sealed and before.side != request.side:
            _, first_mix, second_mix = solver._sealed(
                frame.procedure, frame.args, answers[:-1], gen, before, utility
            )
            if second_mix:
                return second_mix
    gen, pending, _ = replayed_to(frame.procedure, frame.args, answers)
    if not isinstance(pending, Choose) or pending.options != request.options:
        raise ProcedureError(f"optimal: the position does not lead to {request!r}")
    if request.sealed:
        _, first_mix, _ = solver._sealed(
            frame.procedure, frame.args, answers, gen, pending, utility
        )
        return first_mix
    _, choice = solver._choose(frame.procedure, frame.args, answers, gen, pending, utility)
    return choice


__all__ = [
    "ByGoals",
    "ByTable",
    "Node",
    "Note",
    "Optimal",
    "Solver",
    "TooMuchWork",
    "Value",
    "as_counted",
    "draw",
]
