"""The odds driver: the exact distribution of a procedure's outcome.

Python generators cannot be copied, so the driver branches by *replaying answer
prefixes*: at each request it enumerates the possible answers, continues the live
generator with one of them and restarts the procedure, replaying the prefix, for
the others. It keeps the tree small by branching over *outcomes*, not dice:

* a ``Roll`` with ``reduce`` branches over the reducer's few values: computed die
  by die when the reducer has a fold form (``start``/``step``/``finish``), in one
  vectorised pass when it has a ``batch`` method, else face combination by
  combination;
* an ``unordered`` Roll walks sorted multisets with multinomial weights;
* a ``Call`` is computed once per (policy, procedure, arguments) and memoised; the
  caller branches over its distinct outcomes; ``Call(times=n)`` combines n
  independent runs by multinomial convolution.

``Choose`` is answered by a policy (default: the request's default).

>>> from kubik.dice import D6
>>> from kubik.engine.requests import Roll
>>> def highest_of_two():
...     values = yield Roll((D6, D6), "two dice", unordered=True, reduce=max)
...     return values
>>> OddsDriver().distribution(highest_of_two)[6]
Fraction(11, 36)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from itertools import combinations_with_replacement, product
from typing import Any

import numpy as np

from kubik.dice import Die
from kubik.engine.distribution import Distribution, multiset_weights
from kubik.engine.requests import AnyCall, Call, Choose, Emit, Procedure, Roll
from kubik.errors import ProcedureError

Policy = Callable[[Choose], Hashable]


def default_policy(request: Choose) -> Hashable:
    """Answer every decision with its default."""
    return request.default


Branches = tuple[tuple[Any, Fraction], ...]


class OddsCache:
    """Memoised distributions of calls and branches of rolls.

    Shared by drivers so repeated questions are answered from memory;
    :func:`kubik.api.clear_cache` empties the process-wide one.
    """

    def __init__(self) -> None:
        self.calls: dict[Hashable, Distribution[Any]] = {}
        self.answers: dict[Hashable, Branches] = {}
        self.rolls: dict[Roll, Branches] = {}

    def clear(self) -> None:
        """Forget everything."""
        self.calls.clear()
        self.answers.clear()
        self.rolls.clear()

    def __len__(self) -> int:
        return len(self.calls) + len(self.answers) + len(self.rolls)


def _aggregate(pairs: Any) -> Branches:
    out: dict[Any, Fraction] = {}
    for answer, weight in pairs:
        out[answer] = out.get(answer, Fraction(0)) + weight
    return tuple(out.items())


def _fold_branches(dice: tuple[Die, ...], reducer: Any, total: int) -> Branches:
    """Dynamic programming over the dice for a reducer with a fold form.

    A reducer that can be computed one die at a time (``start() -> state``,
    ``step(state, value) -> state``, ``finish(state) -> answer``, the same answer as
    ``reducer(values)``) never needs the grid of every face combination: the driver
    carries the distinct states with their counts from die to die, so a pool of n
    dice costs n × states × faces instead of faces**n.
    """
    states: dict[Any, int] = {reducer.start(): 1}
    for die in dice:
        following: dict[Any, int] = {}
        for state, count in states.items():
            for value in die.values:
                key = reducer.step(state, value)
                following[key] = following.get(key, 0) + count
        states = following
    return _aggregate(
        (reducer.finish(state), Fraction(count, total)) for state, count in states.items()
    )


def roll_branches(request: Roll) -> Branches:
    """Every answer the procedure can receive for this roll, with its probability."""
    dice = request.dice
    reduce = request.reduce
    if request.unordered:
        faces = dice[0].faces
        n = len(dice)
        scale = Fraction(1, faces**n)
        n_factorial = math.factorial(n)
        pairs = []
        for combo in combinations_with_replacement(dice[0].values, n):
            ways = n_factorial
            for value in set(combo):
                ways //= math.factorial(combo.count(value))
            pairs.append((reduce(combo) if reduce else combo, ways * scale))
        return _aggregate(pairs)
    total = math.prod(d.faces for d in dice)
    if reduce is not None and hasattr(reduce, "step"):
        return _fold_branches(dice, reduce, total)
    batch = getattr(reduce, "batch", None)
    if batch is not None:
        grids = np.meshgrid(*(np.arange(1, d.faces + 1) for d in dice), indexing="ij")
        grid = np.stack([g.ravel() for g in grids], axis=1)
        codes = np.asarray(batch(grid))
        decode = getattr(reduce, "decode", None)
        if codes.ndim == 1:
            keys, key_counts = np.unique(codes, return_counts=True)
            rows: list[Any] = keys.tolist()
        else:
            keys, key_counts = np.unique(codes, axis=0, return_counts=True)
            rows = [tuple(r) for r in keys.tolist()]
        return _aggregate(
            (decode(r) if decode else r, Fraction(int(c), total))
            for r, c in zip(rows, key_counts.tolist(), strict=True)
        )
    p = Fraction(1, total)
    values_iter = product(*(d.values for d in dice))
    if reduce is None:
        return tuple((values, p) for values in values_iter)
    counts_by_answer: dict[Any, int] = {}
    for values in values_iter:
        key = reduce(values)
        counts_by_answer[key] = counts_by_answer.get(key, 0) + 1
    return tuple((k, Fraction(c, total)) for k, c in counts_by_answer.items())


class OddsDriver:
    """Exact outcome distributions under a decision policy."""

    def __init__(self, policy: Policy = default_policy, cache: OddsCache | None = None) -> None:
        self.policy = policy
        self.cache = cache if cache is not None else OddsCache()

    def distribution(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...] = ()
    ) -> Distribution[Any]:
        """The exact distribution of ``procedure(*args)``'s outcome."""
        key = (self.policy, procedure, args)
        cached = self.cache.calls.get(key)
        if cached is None:
            cached = Distribution(self._enumerate(procedure, args), check=False)
            if sum(cached.values()) != 1:
                raise ProcedureError(f"{procedure.__name__}: probabilities do not sum to 1")
            self.cache.calls[key] = cached
        return cached

    def _roll(self, request: Roll) -> Branches:
        branches = self.cache.rolls.get(request)
        if branches is None:
            branches = roll_branches(request)
            self.cache.rolls[request] = branches
        return branches

    def _call(self, request: AnyCall) -> Branches:
        key = (self.policy, request)
        branches = self.cache.answers.get(key)
        if branches is None:
            base = self.distribution(request.procedure, request.args)
            pairs: Any = (
                base.items() if request.times is None else multiset_weights(base, request.times)
            )
            reduce = request.reduce
            branches = _aggregate((reduce(a) if reduce else a, p) for a, p in pairs)
            self.cache.answers[key] = branches
        return branches

    def _branches(self, request: Any) -> Branches:
        if isinstance(request, Roll):
            return self._roll(request)
        if isinstance(request, Call):
            return self._call(request)
        if isinstance(request, Choose):
            answer = self.policy(request)
            if answer not in request.options:
                raise ProcedureError(f"policy answered {answer!r}, not an option of {request!r}")
            return ((answer, Fraction(1)),)
        raise ProcedureError(f"a procedure yielded {request!r}, which is not a request")

    def _enumerate(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]
    ) -> dict[Any, Fraction]:
        result: dict[Any, Fraction] = {}
        # Each pending branch: the answers to replay, and its probability.
        stack: list[tuple[tuple[Any, ...], Fraction]] = [((), Fraction(1))]
        while stack:
            answers, weight = stack.pop()
            gen = procedure(*args)
            replayed = 0
            send: Any = None
            while True:
                try:
                    request = gen.send(send)
                except StopIteration as stop:
                    outcome = stop.value
                    result[outcome] = result.get(outcome, Fraction(0)) + weight
                    break
                if type(request) is Emit:
                    send = None
                    continue
                if replayed < len(answers):
                    send = answers[replayed]
                    replayed += 1
                    continue
                branches = self._branches(request)
                for answer, p in branches[:-1]:
                    stack.append(((*answers, answer), weight * p))
                send, p = branches[-1]
                answers = (*answers, send)
                replayed += 1
                weight = weight * p
        return result
