"""Expectimax over a procedure's own requests: the solver behind the optimal policy.

A node's *value* is, for each side, the expected worth of the final outcome to it (its
:class:`~kubik.engine.objectives.Goal`) and the expected resources it spends from there
on (the ``costs`` of its decisions). At a ``Roll`` the value is the average over the
answers; at a ``Choose`` the deciding side takes the option worth most to it, and between
equally good options the one that spends least (then the earlier one); sealed decisions
of two sides (secret bids) are a matrix game solved by :mod:`kubik.engine.games`.

A ``Call`` is where memoisation happens: the caller first computes what each possible
outcome of the sub-procedure is worth to it (the value of its own continuation), then
the sub-procedure is solved against that table. Sub-procedures without decisions are
plain odds (:class:`~kubik.engine.odds.OddsDriver`); a ``Call(times=n)`` with decisions
is solved run by run, each run knowing the ones before. :mod:`kubik.engine.optimal`
makes a policy of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from kubik.core.errors import ProcedureError
from kubik.engine.distribution import tally_counts
from kubik.engine.games import security_strategy, transpose
from kubik.engine.odds import OddsCache, OddsDriver, convolve_call, normalised
from kubik.engine.requests import AnyCall, Call, Choose, Emit, Message, Procedure, Roll
from kubik.engine.rolls import Counted
from kubik.engine.tally import Tally
from kubik.engine.work import (
    BRANCH_STEPS,
    MERGED_STEPS,
    POSITION_STEPS,
    REPLAYED_STEPS,
    THEN_STEPS,
    current,
)

#: Per side (in the solver's order) the expected worth, then per side the expected cost.
Value = tuple[Fraction, ...]
ONE = Fraction(1)
ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class Note:
    """A decision as the policy takes it: who, in what situation, and what (with what chance).

    ``choice`` pairs each option taken with its probability (one pair with 1 for a
    plain decision; a mixed strategy for a sealed bid) and its label for people.
    """

    side: str
    reason: Message
    choice: tuple[tuple[Hashable, Fraction, Message | None], ...]
    default: Hashable = None

    @property
    def takes_default(self) -> bool:
        """Whether the policy simply takes the request's default here."""
        return len(self.choice) == 1 and self.choice[0][0] == self.default


@dataclass(slots=True)
class Node:
    """A solved subtree: its value, the distribution of outcomes, and the decisions in it."""

    value: Value
    dist: dict[Any, Fraction]
    notes: dict[Note, Fraction] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ByGoals:
    """Leaf values from the sides' goals (no cost spent yet)."""

    worths: tuple[Callable[[Any], Any], ...]

    def __call__(self, outcome: Any) -> Value:
        costs = (ZERO,) * len(self.worths)
        return tuple(_exact(worth(outcome)) for worth in self.worths) + costs


def _exact(worth: Any) -> Fraction:
    """A worth as a :class:`~fractions.Fraction` (one already is: not made again)."""
    return worth if type(worth) is Fraction else Fraction(worth)


class ByTable:
    """Leaf values looked up: what each outcome of a sub-procedure is worth to the caller.

    Hashed by the set of its worths as exact ratios (equal tables have equal sets):
    hashing a ratio is far cheaper than hashing a :class:`~fractions.Fraction` (a
    modular inverse each), and a solved sub-procedure is looked up by its table once per
    call. Tables that differ only in which outcome has which worth meet in
    :meth:`__eq__`."""

    __slots__ = ("_hash", "table")

    def __init__(self, table: dict[Any, Value]) -> None:
        self.table = table
        self._hash = hash(
            frozenset(tuple(x.as_integer_ratio() for x in value) for value in table.values())
        )

    def __call__(self, outcome: Any) -> Value:
        try:
            return self.table[outcome]
        except KeyError:
            raise ProcedureError(f"optimal: no value for the outcome {outcome!r}") from None

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ByTable) and self.table == other.table


Utility = Callable[[Any], Value]


def _advance(gen: Procedure[Any], send: Any) -> tuple[Any, Any]:
    """Run on to the next Roll, Choose or Call: (request, None), or (None, outcome)."""
    while True:
        try:
            request = gen.send(send)
        except StopIteration as stop:
            return None, stop.value
        if type(request) is Emit:
            send = None
            continue
        return request, None


def replayed_to(
    procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...], prefix: Sequence[Any]
) -> tuple[Procedure[Any], Any, Any]:
    """A fresh run of ``procedure(*args)`` with ``prefix`` answered: (gen, request, outcome)."""
    gen = procedure(*args)
    request, outcome = _advance(gen, None)
    for answer in prefix:
        if request is None:
            raise ProcedureError(f"{procedure.__name__}: finished before its recorded answers")
        request, outcome = _advance(gen, answer)
    return gen, request, outcome


def _scaled_into(target: dict[Any, Fraction], source: Mapping[Any, Fraction], p: Fraction) -> None:
    # exact either way; the shortcuts skip Fraction products and sums with 1 and 0
    get = target.get
    for key, q in source.items():
        scaled = p if q is ONE else p * q
        known = get(key)
        target[key] = scaled if known is None else known + scaled


def _plus(value: Value, other: Value, p: Fraction) -> Value:
    # ``a + p * b`` per side, exactly; a zero ``b`` (no cost spent, no worth) adds nothing
    return tuple(
        a if not b else (p * b if not a else a + p * b) for a, b in zip(value, other, strict=True)
    )


class TooMuchWork(Exception):
    """A solve with a budget ran past it (:meth:`Optimal.strategy`'s ``budget``)."""


class Solver:
    """Expectimax for one set of sides (the goals' sides, in a fixed order).

    ``budget``: the most positions it may look at (replayed requests, counted in
    :meth:`_node` and :meth:`_reachable`), or ``None`` for no bound; past it a solve
    raises :class:`TooMuchWork`.
    """

    def __init__(
        self,
        cache: OddsCache,
        sides: tuple[str, ...],
        explain: bool = False,
        budget: int | None = None,
    ) -> None:
        self.cache = cache
        self.budget = budget
        self.visited = 0
        self.sides = sides
        self.index = {side: i for i, side in enumerate(sides)}
        self.explain = explain
        self.plain = OddsDriver(cache=cache)
        self.work = current()  # the question's bound on work, if it has one
        self.zero: Value = (ZERO,) * (2 * len(sides))

    # -- whole procedures -----------------------------------------------------

    def solve(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...], utility: Utility
    ) -> Node:
        """``procedure(*args)`` solved against ``utility`` (memoised)."""
        key = ("solve", self.sides, procedure, args, utility, self.explain)
        node = self.cache.solved.get(key)
        if node is None:
            gen, request, outcome = self._replayed(procedure, args, ())
            node = self._node(procedure, args, (), gen, request, outcome, utility)
            self.cache.solved[key] = node
        return node

    def support(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], Counted | None]:
        """Every outcome ``procedure(*args)`` can have, and its odds if it has no decisions."""
        key = (procedure, args)
        found = self.cache.support.get(key)
        if found is None:
            if self.plain.has_decisions(procedure, args):
                found = (tuple(self._reachable(procedure, args)), None)
            else:
                counted = self.plain.counted(procedure, args)
                found = (tuple(o for o, _ in counted[1]), counted)
            self.cache.support[key] = found
        return found

    def _reachable(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]
    ) -> dict[Any, None]:
        """Every outcome under any decisions (answers replayed, the last branch run on)."""
        outcomes: dict[Any, None] = {}
        stack: list[tuple[Any, ...]] = [()]
        while stack:
            prefix = stack.pop()
            gen, request, outcome = self._replayed(procedure, args, prefix)
            while request is not None:
                self._visit()
                answers = list(self._answers(request))
                if isinstance(request, Call) and request.tail:
                    # the caller's outcome is the call's answer: each is an outcome, in
                    # the order replaying the caller per answer would find them
                    self._promising(request, len(answers))
                    outcome = _kept_promise(procedure, gen, request, answers[-1])
                    promised = request.promised
                    for answer in (outcome, *map(promised, reversed(answers[:-1]))):
                        outcomes[answer] = None
                    break
                for answer in answers[:-1]:
                    stack.append((*prefix, answer))
                prefix = (*prefix, answers[-1])
                request, outcome = _advance(gen, answers[-1])
            else:
                outcomes[outcome] = None
        return outcomes

    def _visit(self) -> None:
        """Count one position against the budget."""
        self.visited += 1
        if self.budget is not None and self.visited > self.budget:
            raise TooMuchWork(f"more than {self.budget} positions")
        if self.work is not None:
            self.work.spend(POSITION_STEPS)

    def _replayed(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...], path: tuple[Any, ...]
    ) -> tuple[Procedure[Any], Any, Any]:
        """:func:`replayed_to`, counted when the question is bounded (a fresh run, then
        each answer replayed, as the odds driver counts a branch)."""
        if self.work is not None:
            self.work.spend(BRANCH_STEPS + REPLAYED_STEPS * len(path))
        return replayed_to(procedure, args, path)

    def _merge(
        self, dist: dict[Any, Fraction], source: Mapping[Any, Fraction], p: Fraction
    ) -> None:
        """``source`` weighed by ``p`` added into ``dist`` (counted, when bounded: exact
        products and sums, one per outcome)."""
        if self.work is not None:
            self.work.spend(len(source) * MERGED_STEPS)
        _scaled_into(dist, source, p)

    def _promising(self, request: AnyCall, answers: int) -> None:
        """Count the work of taking ``answers`` answers of a ``tail`` call through its
        ``then`` (a rule's own code), when the question is bounded."""
        if self.work is not None and request.then is not None:
            self.work.spend(answers * THEN_STEPS)

    def _answers(self, request: Any) -> Iterator[Any]:
        """Every answer a request can receive (under any decisions)."""
        if isinstance(request, Roll):
            yield from (a for a, _ in self.plain._roll(request)[1])
        elif isinstance(request, Choose):
            yield from request.options
        elif isinstance(request, Call):
            outcomes, counted = self.support(request.procedure, request.args)
            if counted is not None:
                yield from (a for a, _ in convolve_call(counted, request)[1])
                return
            yield from dict.fromkeys(self._call_answers(request, outcomes))
        else:
            raise ProcedureError(f"a procedure yielded {request!r}, which is not a request")

    @staticmethod
    def _call_answers(request: AnyCall, outcomes: tuple[Any, ...]) -> Iterator[Any]:
        reduce = request.reduce
        if request.times is None:
            yield from (reduce(o) if reduce else o for o in outcomes)
            return
        for tally, _ in tally_counts(tuple((o, 1) for o in outcomes), request.times):
            yield reduce(tally) if reduce else tally

    # -- nodes ----------------------------------------------------------------

    def _node(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        gen: Procedure[Any],
        request: Any,
        outcome: Any,
        utility: Utility,
    ) -> Node:
        self._visit()
        if request is None:
            return Node(utility(outcome), {outcome: ONE})
        if isinstance(request, Roll):
            total, pairs = self.plain._roll(request)
            return self._chance(
                procedure, args, prefix, gen, [(a, Fraction(n, total)) for a, n in pairs], utility
            )
        if isinstance(request, Choose):
            if request.sealed:
                return self._sealed(procedure, args, prefix, gen, request, utility)[0]
            return self._choose(procedure, args, prefix, gen, request, utility)[0]
        if isinstance(request, Call):
            return self._call(procedure, args, prefix, gen, request, utility)
        raise ProcedureError(f"a procedure yielded {request!r}, which is not a request")

    def _child(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        answer: Any,
        gen: Procedure[Any] | None,
        utility: Utility,
    ) -> Node:
        """The node after ``answer``: continuing ``gen`` if given, else a fresh replay."""
        path = (*prefix, answer)
        if gen is None:
            gen, request, outcome = self._replayed(procedure, args, path)
        else:
            request, outcome = _advance(gen, answer)
        return self._node(procedure, args, path, gen, request, outcome, utility)

    def _chance(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        gen: Procedure[Any] | None,
        branches: Sequence[tuple[Any, Fraction]],
        utility: Utility,
    ) -> Node:
        value = self.zero
        dist: dict[Any, Fraction] = {}
        notes: dict[Note, Fraction] = {}
        last = len(branches) - 1
        for index, (answer, p) in enumerate(branches):
            live = gen if index == last else None
            child = self._child(procedure, args, prefix, answer, live, utility)
            value = _plus(value, child.value, p)
            self._merge(dist, child.dist, p)
            if self.explain:
                _scaled_into(notes, child.notes, p)
        return Node(value, dist, notes)

    def _side(self, request: Choose) -> int:
        index = self.index.get(request.side)
        if index is None:
            known = ", ".join(self.sides) or "none"
            raise ProcedureError(
                f"optimal: side '{request.side}' decides but has no objective (objectives: {known})"
            )
        return index

    def _with_cost(self, value: Value, side: int, cost: int) -> Value:
        if not cost:
            return value
        spent = list(value)
        spent[len(self.sides) + side] += cost
        return tuple(spent)

    def _best(self, request: Choose, children: Sequence[Node]) -> int:
        side = self._side(request)
        cost_at = len(self.sides) + side
        return max(
            range(len(children)),
            key=lambda i: (children[i].value[side], -children[i].value[cost_at], -i),
        )

    def _choose(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        gen: Procedure[Any] | None,
        request: Choose,
        utility: Utility,
        probes: Sequence[tuple[Any, Any, Any]] | None = None,
    ) -> tuple[Node, dict[Hashable, Fraction]]:
        """A decision of one side: the best option's node, and that option."""
        side = self._side(request)
        children: list[Node] = []
        last = len(request.options) - 1
        for index, option in enumerate(request.options):
            if probes is not None:
                live, nxt, out = probes[index]
                child = self._node(procedure, args, (*prefix, option), live, nxt, out, utility)
            else:
                live_gen = gen if index == last else None
                child = self._child(procedure, args, prefix, option, live_gen, utility)
            cost = request.cost(option)
            children.append(Node(self._with_cost(child.value, side, cost), child.dist, child.notes))
        best = self._best(request, children)
        chosen = children[best]
        option = request.options[best]
        notes = chosen.notes
        if self.explain:
            notes = dict(notes)
            note = Note(
                request.side,
                request.reason,
                ((option, ONE, request.label(option)),),
                request.default,
            )
            notes[note] = notes.get(note, ZERO) + ONE
        return Node(chosen.value, chosen.dist, notes), {option: ONE}

    def _sealed(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        gen: Procedure[Any] | None,
        request: Choose,
        utility: Utility,
    ) -> tuple[Node, dict[Hashable, Fraction], dict[Hashable, Fraction]]:
        """A sealed decision: with the other side's sealed decision right after it, both
        are made at once (a matrix game); alone, it is an ordinary decision."""
        probes = []
        last = len(request.options) - 1
        for index, option in enumerate(request.options):
            live = gen if index == last else None
            if live is None:
                live, _, _ = self._replayed(procedure, args, prefix)
            probes.append((live, *_advance(live, option)))
        partner = probes[0][1]
        paired = (
            isinstance(partner, Choose)
            and partner.sealed
            and partner.side != request.side
            and all(
                isinstance(p[1], Choose)
                and p[1].sealed
                and p[1].side == partner.side
                and p[1].options == partner.options
                for p in probes
            )
        )
        if not paired:
            node, choice = self._choose(procedure, args, prefix, gen, request, utility, probes)
            return node, choice, {}
        assert isinstance(partner, Choose)
        return self._matrix(procedure, args, prefix, request, partner, probes, utility)

    def _matrix(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        first: Choose,
        second: Choose,
        probes: Sequence[tuple[Any, Any, Any]],
        utility: Utility,
    ) -> tuple[Node, dict[Hashable, Fraction], dict[Hashable, Fraction]]:
        row_side, column_side = self._side(first), self._side(second)
        cells: list[list[Node]] = []
        last = len(second.options) - 1
        for index, row_option in enumerate(first.options):
            row: list[Node] = []
            for column, column_option in enumerate(second.options):
                live = probes[index][0] if column == last else None
                if live is None:
                    live, _, _ = self._replayed(procedure, args, (*prefix, row_option))
                path = (*prefix, row_option)
                child = self._child(procedure, args, path, column_option, live, utility)
                value = self._with_cost(child.value, row_side, first.cost(row_option))
                value = self._with_cost(value, column_side, second.cost(column_option))
                row.append(Node(value, child.dist, child.notes))
            cells.append(row)
        n = len(self.sides)
        rows_payoff = [[cell.value[row_side] for cell in row] for row in cells]
        columns_payoff = transpose([[cell.value[column_side] for cell in row] for row in cells])
        _, x0 = security_strategy(rows_payoff)
        _, y0 = security_strategy(columns_payoff)
        row_costs = [
            sum((y * cell.value[n + row_side] for y, cell in zip(y0, row, strict=True)), ZERO)
            for row in cells
        ]
        column_costs = [
            sum((x * cells[i][j].value[n + column_side] for i, x in enumerate(x0)), ZERO)
            for j in range(len(second.options))
        ]
        _, x = security_strategy(rows_payoff, row_costs)
        _, y = security_strategy(columns_payoff, column_costs)
        value = self.zero
        dist: dict[Any, Fraction] = {}
        notes: dict[Note, Fraction] = {}
        for i, px in enumerate(x):
            for j, py in enumerate(y):
                p = px * py
                if not p:
                    continue
                cell = cells[i][j]
                value = _plus(value, cell.value, p)
                self._merge(dist, cell.dist, p)
                if self.explain:
                    _scaled_into(notes, cell.notes, p)
        if self.explain:
            for request, mix in ((first, x), (second, y)):
                choice = tuple(
                    (o, p, request.label(o)) for o, p in zip(request.options, mix, strict=True) if p
                )
                note = Note(request.side, request.reason, choice, request.default)
                notes[note] = notes.get(note, ZERO) + ONE
        row_mix = {o: p for o, p in zip(first.options, x, strict=True) if p}
        column_mix = {o: p for o, p in zip(second.options, y, strict=True) if p}
        return Node(value, dist, notes), row_mix, column_mix

    def _call(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...],
        prefix: tuple[Any, ...],
        gen: Procedure[Any] | None,
        request: AnyCall,
        utility: Utility,
    ) -> Node:
        outcomes, counted = self.support(request.procedure, request.args)
        continuations: dict[Any, Node] = {}

        def after(answer: Any) -> Node:
            node = continuations.get(answer)
            if node is None:
                if request.tail:  # the caller returns the answer: not replayed per answer
                    self._promising(request, 1)
                    node = self._leaf(request.promised(answer), utility)
                else:
                    node = self._child(procedure, args, prefix, answer, None, utility)
                continuations[answer] = node
            return node

        if counted is not None:  # no decisions inside: plain odds of the answers
            total, pairs = convolve_call(counted, request)
            branches = [(a, Fraction(c, total)) for a, c in pairs]
            if request.tail:
                return self._tail_chance(procedure, gen, request, branches, utility)
            return self._chance(procedure, args, prefix, gen, branches, utility)
        if request.times is None:
            return self._solved_call(
                request, outcomes, lambda o: after(reduced_outcome(request, o))
            )
        return self._runs(request, outcomes, after)

    def _leaf(self, outcome: Any, utility: Utility) -> Node:
        """The node of a finished procedure (one position, as :meth:`_node` counts it)."""
        self._visit()
        return Node(utility(outcome), {outcome: ONE})

    def _tail_chance(
        self,
        procedure: Callable[..., Procedure[Any]],
        gen: Procedure[Any] | None,
        request: AnyCall,
        branches: Sequence[tuple[Any, Fraction]],
        utility: Utility,
    ) -> Node:
        """:meth:`_chance` over the answers of a ``tail`` call: the caller's outcome is
        each answer (or ``then`` of it), so it is not replayed per answer (the live one
        is held to it)."""
        value = self.zero
        dist: dict[Any, Fraction] = {}
        last = len(branches) - 1
        self._promising(request, len(branches))
        for index, (answer, p) in enumerate(branches):
            if index == last and gen is not None:
                outcome = _kept_promise(procedure, gen, request, answer)
            else:
                outcome = request.promised(answer)
            child = self._leaf(outcome, utility)
            value = _plus(value, child.value, p)
            self._merge(dist, child.dist, p)
        return Node(value, dist, {})

    def _solved_call(
        self, request: AnyCall, outcomes: tuple[Any, ...], after: Callable[[Any], Node]
    ) -> Node:
        """A sub-procedure with decisions, solved against what each outcome is worth."""
        table = {o: after(o).value for o in outcomes}
        sub = self.solve(request.procedure, request.args, ByTable(table))
        dist: dict[Any, Fraction] = {}
        notes: dict[Note, Fraction] = dict(sub.notes) if self.explain else {}
        for outcome, p in sub.dist.items():
            child = after(outcome)
            self._merge(dist, child.dist, p)
            if self.explain:
                _scaled_into(notes, child.notes, p)
        return Node(sub.value, dist, notes)

    def _runs(
        self,
        request: AnyCall,
        outcomes: tuple[Any, ...],
        after: Callable[[Any], Node],
        done: Tally[Any] | None = None,
        left: int | None = None,
    ) -> Node:
        """``Call(times=n)`` with decisions: run after run, each knowing the ones before
        (``done``: the runs already over; ``left``: how many are still to run)."""
        assert request.times is not None
        memo: dict[Tally[Any], Node] = {}
        single = Call(request.procedure, request.args)

        def runs(so_far: Tally[Any], remaining: int) -> Node:
            if remaining == 0:
                return after(request.reduce(so_far) if request.reduce else so_far)
            node = memo.get(so_far)
            if node is None:
                node = self._solved_call(
                    single, outcomes, lambda o: runs(tally_plus(so_far, o), remaining - 1)
                )
                memo[so_far] = node
            return node

        start = done if done is not None else Tally()
        return runs(start, request.times if left is None else left)


def _kept_promise(
    procedure: Callable[..., Any], gen: Procedure[Any], call: AnyCall, answer: Any
) -> Any:
    """The caller's outcome after its ``tail`` call answered ``answer``: that answer (or
    ``then`` of it), as it promised (it returns it and asks nothing more)."""
    request, outcome = _advance(gen, answer)
    if request is not None or outcome != call.promised(answer):
        raise ProcedureError(f"{procedure.__name__}: did not return its tail call's answer")
    return outcome


def reduced_outcome(request: AnyCall, outcome: Any) -> Any:
    """A sub-procedure's outcome as its caller receives it (through the call's reduce)."""
    return request.reduce(outcome) if request.reduce is not None else outcome


def tally_plus(done: Tally[Any], outcome: Any) -> Tally[Any]:
    """The outcomes of a repeated call's runs so far, with one more."""
    counts = {item: done[item] for item in done}
    counts[outcome] = counts.get(outcome, 0) + 1
    return Tally.from_counts(counts)


def as_counted(dist: Mapping[Any, Fraction]) -> Counted:
    """Fractions as integer weights over their common denominator."""
    total = math.lcm(*(p.denominator for p in dist.values())) if dist else 1
    return normalised(total, {o: p.numerator * (total // p.denominator) for o, p in dist.items()})
