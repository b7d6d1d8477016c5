"""Counting a roll's answers exactly: how many face combinations give each answer.

The odds driver branches over what a procedure *receives* for a roll, not over the
faces. This module counts, in integers over the roll's total (the product of the
dice's faces), how many face combinations give each answer, trying the cheapest
way first:

1. a **closed form**: the reducer has ``counts(dice) -> {answer: count}`` (or
   ``None`` where it has none for these dice)
   (:class:`~kubik.engine.reducers.Highest`: ``#(max ≤ v) = Π min(v, faces)``);
   the built-ins ``max`` and ``sum`` are recognised as such reducers;
2. a **fold**: the reducer has ``start()``, ``step(state, value)``, ``finish(state)``
   and is applied die by die, carrying distinct states with their counts (the moves
   from a state on a die are computed once and cached);
3. a **multiset walk** for an unordered roll: sorted combinations with multinomial
   counts, C(n+f-1, n) of them instead of fⁿ;
4. a **vectorised pass** (numpy, imported only then) for a large grid whose reducer
   has a ``batch`` form; else every face combination in turn.

>>> from kubik.engine.dice import D6
>>> total, pairs = roll_counts((D6, D6), True, max)
>>> total, dict(pairs)[6]
(36, 11)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from itertools import combinations_with_replacement, product
from typing import Any

from kubik.engine.dice import Die
from kubik.engine.reducers import Highest, Total

#: Integer weights of answers over a common total: ``(total, ((answer, count), ...))``.
Counted = tuple[int, tuple[tuple[Any, int], ...]]

#: Grids at least this large use a reducer's numpy ``batch`` form, if it has one.
BATCH_MIN_CELLS = 4096

#: Reducers the engine knows closed forms for, by identity.
_BUILTIN_FORMS: dict[Any, Any] = {max: Highest(), sum: Total()}

#: (reducer, state, faces) -> the fold's moves from ``state`` on a die of ``faces``.
FoldMoves = dict[tuple[Any, Hashable, int], tuple[tuple[Hashable, int], ...]]


def _collect(pairs: Any) -> tuple[tuple[Any, int], ...]:
    out: dict[Any, int] = {}
    for answer, count in pairs:
        if count:
            out[answer] = out.get(answer, 0) + count
    return tuple(out.items())


def _fold(dice: tuple[Die, ...], reducer: Any, moves: FoldMoves) -> tuple[tuple[Any, int], ...]:
    """Die-by-die dynamic programming: n × states × faces steps instead of facesⁿ."""
    step = reducer.step
    states: dict[Hashable, int] = {reducer.start(): 1}
    for die in dice:
        faces = die.faces
        following: dict[Hashable, int] = {}
        for state, count in states.items():
            key = (reducer, state, faces)
            known = moves.get(key)
            if known is None:
                targets: dict[Hashable, int] = {}
                for value in die.values:
                    nxt = step(state, value)
                    targets[nxt] = targets.get(nxt, 0) + 1
                known = tuple(targets.items())
                moves[key] = known
            for nxt, ways in known:
                following[nxt] = following.get(nxt, 0) + count * ways
        states = following
    finish = reducer.finish
    return _collect((finish(state), count) for state, count in states.items())


def _multisets(die: Die, n: int, reduce: Callable[..., Any] | None) -> Any:
    """Sorted combinations of ``n`` identical dice with their multinomial counts."""
    n_factorial = math.factorial(n)
    factorials = [math.factorial(k) for k in range(n + 1)]
    for combo in combinations_with_replacement(die.values, n):
        ways = n_factorial
        run = 1
        for index in range(1, n + 1):
            if index < n and combo[index] == combo[index - 1]:
                run += 1
                continue
            ways //= factorials[run]
            run = 1
        yield (reduce(combo) if reduce is not None else combo), ways


def _grid(dice: tuple[Die, ...], reduce: Any, total: int) -> tuple[tuple[Any, int], ...]:
    """Every face combination: vectorised for a large grid with a batch form."""
    batch = getattr(reduce, "batch", None)
    if batch is not None and total >= BATCH_MIN_CELLS:
        import numpy as np  # only large grids need it

        grids = np.meshgrid(*(np.arange(1, d.faces + 1) for d in dice), indexing="ij")
        codes = np.asarray(batch(np.stack([g.ravel() for g in grids], axis=1)))
        decode = getattr(reduce, "decode", None)
        if codes.ndim == 1:
            keys, key_counts = np.unique(codes, return_counts=True)
            rows: list[Any] = keys.tolist()
        else:
            keys, key_counts = np.unique(codes, axis=0, return_counts=True)
            rows = [tuple(r) for r in keys.tolist()]
        return _collect(
            (decode(r) if decode else r, int(c))
            for r, c in zip(rows, key_counts.tolist(), strict=True)
        )
    faces = product(*(d.values for d in dice))
    if reduce is None:
        return tuple((values, 1) for values in faces)
    counts: dict[Any, int] = {}
    for values in faces:
        key = reduce(values)
        counts[key] = counts.get(key, 0) + 1
    return tuple(counts.items())


def roll_counts(
    dice: tuple[Die, ...],
    unordered: bool,
    reduce: Callable[..., Any] | None,
    moves: FoldMoves | None = None,
) -> Counted:
    """How many face combinations give each answer the procedure receives.

    Answers are ``reduce(values)`` (values sorted first when ``unordered``), or the
    values themselves without a reducer. Counts are over ``total`` = Π faces.
    """
    total = 1
    for die in dice:
        total *= die.faces
    form = reduce
    if reduce is max or reduce is sum:
        form = _BUILTIN_FORMS[reduce]
    counts_form: Callable[[tuple[Die, ...]], Mapping[Any, int] | None] | None = getattr(
        form, "counts", None
    )
    if counts_form is not None:
        counted = counts_form(dice)
        if counted is not None:
            return total, tuple((a, n) for a, n in counted.items() if n)
    if form is not None and hasattr(form, "step") and not unordered:
        return total, _fold(dice, form, moves if moves is not None else {})
    if unordered:
        return total, _collect(_multisets(dice[0], len(dice), reduce))
    return total, _grid(dice, reduce, total)


__all__ = ["BATCH_MIN_CELLS", "Counted", "FoldMoves", "roll_counts"]
