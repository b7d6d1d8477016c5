"""The odds driver: the exact distribution of a procedure's outcome.

Python generators cannot be copied, so the driver branches by *replaying answer
prefixes*: at each request it enumerates the possible answers, continues the live
generator with one of them and restarts the procedure, replaying the prefix, for
the others. It keeps the tree small by branching over *outcomes*, not dice:

* a ``Roll`` branches over the answers the procedure receives, counted by
  :func:`kubik.engine.rolls.roll_counts` (closed forms, folds, multisets);
* a ``Call`` is computed once per (policy, procedure, arguments) and memoised; the
  caller branches over its distinct outcomes (a ``tail`` call's outcomes are the
  caller's: no branching); ``Call(times=n)`` combines n independent runs by
  multinomial convolution;
* weights are integers over a common total all the way down (one ``Fraction`` per
  outcome at the end), and events are not built while enumerating
  (:func:`~kubik.engine.requests.silenced`).

``Choose`` is answered by a policy (default: the request's default); the
:class:`~kubik.engine.optimal.Optimal` policy instead solves every decision by
expectimax over the procedure (:mod:`kubik.engine.optimal`).

>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Roll
>>> def highest_of_two():
...     values = yield Roll((D6, D6), "two dice", unordered=True, reduce=max)
...     return values
>>> OddsDriver().distribution(highest_of_two)[6]
Fraction(11, 36)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, TypeVar

from kubik.core.errors import ProcedureError
from kubik.engine.applied import not_recording
from kubik.engine.distribution import Distribution, tally_counts
from kubik.engine.requests import AnyCall, Call, Choose, Emit, Procedure, Roll, silenced
from kubik.engine.rolls import Counted, FoldMoves, roll_counts
from kubik.engine.runs import RunPrefixes, Runs, runs_of, runs_summed, summed_outcomes
from kubik.engine.work import (
    BRANCH_STEPS,
    COUNTED_AT_ONCE,
    REPLAYED_STEPS,
    THEN_STEPS,
    current,
    outcome_steps,
)

Policy = Callable[[Choose], Hashable]


def default_policy(request: Choose) -> Hashable:
    """Answer every decision with its default."""
    return request.default


Branches = tuple[tuple[Any, Fraction], ...]
P = TypeVar("P", bound=Callable[..., Any])


def odds_by(key: Callable[..., tuple[Any, ...]]) -> Callable[[P], P]:
    """Mark a procedure whose outcomes depend on ``key(*args)`` alone: its other
    arguments only name rules for the log (which rules made a die), so its exact odds,
    computed once, serve every call with the same key.

    >>> from kubik.engine.dice import D6
    >>> from kubik.engine.requests import Roll
    >>> @odds_by(lambda needed, rules: (needed,))
    ... def hit(needed, rules):
    ...     (v,) = yield Roll(D6, "to hit", rules=rules)
    ...     return v >= needed
    >>> driver = OddsDriver()
    >>> driver.counted(hit, (4, ("SW-FIRE-01",))) is driver.counted(hit, (4, ("SW-FIRE-02",)))
    True
    """

    def mark(procedure: P) -> P:
        setattr(procedure, _ODDS_KEY, key)
        return procedure

    return mark


#: Requests a driver remembers by identity before it starts afresh (an engine limit).
_MET_LIMIT = 4096
#: The attribute :func:`odds_by` sets on a procedure.
_ODDS_KEY = "__kubik_odds_by__"
#: Marks the sums of runs among the answers kept (:meth:`OddsDriver._summed`).
_RUNS: Any = object()


def _odds_args(procedure: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """What ``procedure(*args)``'s odds are memoised under (:func:`odds_by`)."""
    key = getattr(procedure, _ODDS_KEY, None)
    return args if key is None else (_ODDS_KEY, *key(*args))


class OddsCache:
    """Memoised distributions of calls and counted branches of rolls.

    Shared by drivers so repeated questions are answered from memory;
    :func:`kubik.api.clear_cache` empties the process-wide one. ``solved`` and
    ``support`` belong to the optimal policy (:mod:`kubik.engine.optimal`).
    """

    def __init__(self) -> None:
        self.calls: dict[Hashable, Counted] = {}
        self.answers: dict[Hashable, Counted] = {}
        self.rolls: dict[Hashable, Counted] = {}
        #: sums of pools of one run shared between pool sizes (:class:`RunPrefixes`)
        self.prefixes: dict[Hashable, RunPrefixes] = {}
        self.moves: FoldMoves = {}
        self.distributions: dict[Hashable, Distribution[Any]] = {}
        self.decides: dict[Hashable, bool] = {}
        self.solved: dict[Hashable, Any] = {}
        self.support: dict[Hashable, Any] = {}
        #: expected worths of forecasts (:func:`kubik.engine.forecast.expected_value`)
        self.values: dict[Hashable, Any] = {}
        #: the same worths by the ids of the objects asked about, kept alive with them
        #: (:func:`kubik.engine.forecast.expected_value`: no hashing them again)
        self.worths_by_ids: dict[tuple[int, ...], tuple[tuple[Any, ...], Any]] = {}

    def for_solving(self) -> OddsCache:
        """A cache sharing this one's plain odds, with nothing solved by the optimal policy
        yet (a budgeted solve's work then never depends on what was solved before)."""
        fresh = OddsCache()
        fresh.calls, fresh.answers, fresh.rolls = self.calls, self.answers, self.rolls
        fresh.prefixes = self.prefixes
        fresh.moves, fresh.distributions, fresh.decides, fresh.values = (
            self.moves,
            self.distributions,
            self.decides,
            self.values,
        )
        return fresh

    def clear(self) -> None:
        """Forget everything."""
        for table in self._tables():
            table.clear()
        self.worths_by_ids.clear()

    def mark(self) -> tuple[int, ...]:
        """Where each table ends now, for :meth:`rollback`."""
        return (*map(len, self._tables()), len(self.worths_by_ids))

    def rollback(self, mark: tuple[int, ...]) -> None:
        """Forget what was kept since ``mark`` (:meth:`mark`): the work of a question
        refused part way, so that asked again it is refused again, as in a fresh process.
        Tables only grow between the two (entries are added, never replaced)."""
        for table, kept in zip((*self._tables(), self.worths_by_ids), mark, strict=True):
            for key in list(itertools.islice(table, kept, None)):
                del table[key]

    def _tables(self) -> tuple[dict[Any, Any], ...]:
        return (
            self.calls,
            self.answers,
            self.rolls,
            self.prefixes,
            self.moves,
            self.decides,
            self.distributions,
            self.solved,
            self.support,
            self.values,
        )

    def __len__(self) -> int:
        return sum(len(table) for table in self._tables())


def as_distribution(counted: Counted) -> Distribution[Any]:
    """The exact distribution of integer weights over their total."""
    total, pairs = counted
    return Distribution({o: Fraction(n, total) for o, n in pairs}, check=False)


def normalised(total: int, weights: dict[Any, int]) -> Counted:
    """Weights over ``total`` with their common factor divided out."""
    common = math.gcd(total, *weights.values())
    if common > 1:
        return total // common, tuple((o, n // common) for o, n in weights.items())
    return total, tuple(weights.items())


def merge_by_total(by_total: dict[int, dict[Any, int]]) -> Counted:
    """Outcome weights collected over several totals, put over their least common multiple."""
    if len(by_total) == 1:  # one total (every leaf as deep in dice): nothing to rescale
        ((total, weights),) = by_total.items()
        return normalised(total, weights)
    common = math.lcm(*by_total) if by_total else 1
    result: dict[Any, int] = {}
    for total, weights in by_total.items():
        scale = common // total
        for outcome, count in weights.items():
            result[outcome] = result.get(outcome, 0) + count * scale
    return normalised(common, result)


def roll_branches(request: Roll) -> Branches:
    """Every answer the procedure can receive for this roll, with its probability."""
    total, pairs = roll_counts(request.dice, request.unordered, request.reduce)
    return tuple((answer, Fraction(count, total)) for answer, count in pairs)


def convolve_call(base: Counted, request: AnyCall) -> Counted:
    """A call's answers from its procedure's distribution: ``times`` runs, then ``reduce``."""
    total, pairs = base
    reduce = request.reduce
    if request.times is None:
        if reduce is None:
            return base
        answers: dict[Any, int] = {}
        for outcome, count in pairs:
            key = reduce(outcome)
            answers[key] = answers.get(key, 0) + count
        return total, tuple(answers.items())
    if reduce is not None and pairs and hasattr(reduce, "step"):
        # a fold's states are at most the tallies so far: at most ``times`` steps a tally
        budget = None
        if request.times > FOLD_STEPS_PER_TALLY:
            tallies = math.comb(request.times + len(pairs) - 1, len(pairs) - 1)
            budget = FOLD_STEPS_PER_TALLY * tallies
        folded = _fold_runs(pairs, request.times, reduce, budget)
        if folded is not None:
            return normalised(total**request.times, folded)
    answers = {}
    for tally, count in tally_counts(pairs, request.times):
        key = reduce(tally) if reduce is not None else tally
        answers[key] = answers.get(key, 0) + count
    return normalised(total**request.times, answers)


#: Steps of a fold worth one tally counted (building, hashing and reducing it): a
#: ``Call(times=n)``'s runs are folded while that is cheaper than counting the tallies
#: (always for this many runs or fewer, whose states cost at most that many steps a tally).
FOLD_STEPS_PER_TALLY = 8


def _fold_runs(
    pairs: tuple[tuple[Any, int], ...], times: int, reduce: Any, budget: int | None
) -> dict[Any, int] | None:
    """``times`` runs' answers by a reducer's fold form (``start()``, ``step(state,
    outcome)``, ``finish(state)``), run by run: the states so far with their counts,
    not every tally. The same integers as counting tallies (each sequence of outcomes is
    counted once, each tally by its multinomial), as ``reduce`` of a tally is the fold
    of its outcomes in any order. ``None`` once it would take more than ``budget`` steps
    (states that do not merge: counting the tallies is then cheaper)."""
    step = reduce.step
    states: dict[Any, int] = {reduce.start(): 1}
    for _ in range(times):
        if budget is not None:
            budget -= len(states) * len(pairs)
            if budget < 0:
                return None
        following: dict[Any, int] = {}
        for state, weight in states.items():
            for outcome, count in pairs:
                nxt = step(state, outcome)
                following[nxt] = following.get(nxt, 0) + weight * count
        states = following
    finish = reduce.finish
    answers: dict[Any, int] = {}
    for state, weight in states.items():
        key = finish(state)
        answers[key] = answers.get(key, 0) + weight
    return answers


class OddsDriver:
    """Exact outcome distributions under a decision policy."""

    def __init__(self, policy: Policy = default_policy, cache: OddsCache | None = None) -> None:
        self.policy = policy
        self.cache = cache if cache is not None else OddsCache()
        self._decisions = 0  # decisions answered so far (to tell which procedures have any)
        #: answers to the very request objects met before, by identity: replays meet the
        #: same (rules build their requests once) and hashing one costs more than this
        self._met: dict[int, tuple[Any, Counted, bool]] = {}
        self._enumerating = False  # inside :meth:`_enumerate` (narration already off)
        #: a ``tail`` call's answers mapped through its ``then``, by the call's identity
        self._mapped: dict[int, tuple[Any, tuple[tuple[Any, int], ...], Any]] = {}
        #: the optimal policy's own solver, if the policy has one (read once)
        self._solve: Callable[..., Counted] | None = getattr(policy, "solve_counts", None)

    def distribution(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...] = ()
    ) -> Distribution[Any]:
        """The exact distribution of ``procedure(*args)``'s outcome."""
        key = (self.policy, procedure, args)
        cached = self.cache.distributions.get(key)
        if cached is None:
            cached = as_distribution(self.counted(procedure, args))
            self.cache.distributions[key] = cached
        return cached

    def counted(self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]) -> Counted:
        """The distribution as integer weights over a common total (memoised).

        A procedure without decisions has the same distribution under every policy,
        so it is memoised once for all of them.
        """
        shared = _odds_args(procedure, args)
        plain = self.cache.calls.get((None, procedure, shared))
        if plain is not None:
            return plain
        key: Hashable = (self.policy, procedure, shared)
        cached = self.cache.calls.get(key)
        if cached is not None:
            self._decisions += 1  # only procedures with decisions are kept per policy
            return cached
        solve = self._solve
        if solve is not None:
            with not_recording():  # hypothetical play is not the game's
                cached = solve(procedure, args, self.cache)
            self._decisions += 1
        else:
            before = self._decisions
            runs = runs_of(procedure, args)
            if runs is not None:
                cached = self._summed(procedure, runs)
            elif self._enumerating:  # a call met while enumerating: already silenced
                cached = self._enumerate(procedure, args)
            else:
                self._enumerating = True
                try:
                    with silenced(), not_recording():
                        cached = self._enumerate(procedure, args)
                finally:
                    self._enumerating = False
            if self._decisions == before:
                key = (None, procedure, shared)
        self.cache.calls[key] = cached
        return cached

    def _summed(self, procedure: Callable[..., Procedure[Any]], runs: Runs) -> Counted:
        """The odds of a procedure made of independent runs of itself
        (:func:`~kubik.engine.runs.odds_by_runs`): each run's odds once, their sum
        exactly (kept by the runs, whatever the ``outcome`` made of it), then the outcomes."""
        key = (_RUNS, procedure, runs.groups, runs.adds, runs.most)
        summed = self.cache.answers.get(key)
        if summed is None:
            groups = [(n, self._one_run(procedure, runs, one)) for n, one in runs.groups]
            most = runs.most
            capped = tuple(m for m in most if m is not None)
            if len(groups) == 1 and capped and len(capped) == len(most) == _amounts(groups):
                # one pool, every amount capped: its sums shared with pools of other sizes
                n, one = groups[0]
                shared_key = (procedure, runs.groups[0][1], runs.adds, capped)
                prefixes = self.cache.prefixes.get(shared_key)
                if prefixes is None:
                    prefixes = self.cache.prefixes[shared_key] = RunPrefixes(one, capped)
                summed = prefixes.summed(n)
            else:
                summed = runs_summed(groups, most)
            self.cache.answers[key] = summed
        total, weights = summed_outcomes(runs, summed)
        return normalised(total, weights)

    def _one_run(
        self, procedure: Callable[..., Procedure[Any]], runs: Runs, one: tuple[Any, ...]
    ) -> Counted:
        """What one run of ``procedure(*one)`` adds to the sum, counted."""
        before = self._decisions
        one_total, pairs = self.counted(procedure, one)
        if self._decisions != before:
            raise ProcedureError(f"{procedure.__name__}{one!r} asks a decision: not runs")
        amounts: dict[Any, int] = {}
        for outcome, count in pairs:
            added = runs.adds(outcome)
            amounts[added] = amounts.get(added, 0) + count
        return one_total, tuple(amounts.items())

    def has_decisions(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]
    ) -> bool:
        """Whether ``procedure(*args)`` asks any decision (on the way to any outcome)."""
        if (None, procedure, _odds_args(procedure, args)) in self.cache.calls:
            return False
        before = self._decisions
        self.counted(procedure, args)
        return self._decisions != before

    def _roll(self, request: Roll) -> Counted:
        key = (request.dice, request.unordered, request.reduce)
        counted = self.cache.rolls.get(key)
        if counted is None:
            counted = roll_counts(request.dice, request.unordered, request.reduce, self.cache.moves)
            if sum(n for _, n in counted[1]) != counted[0]:  # (the weights below are exact)
                raise ProcedureError(f"{request!r}: its answers' counts do not sum to its total")
            self.cache.rolls[key] = counted
        return counted

    def _call(self, request: AnyCall) -> Counted:
        base = self.counted(request.procedure, request.args)
        if request.times is None and request.reduce is None:
            return base
        plain = (None, request.procedure, _odds_args(request.procedure, request.args)) in (
            self.cache.calls
        )
        # ``then`` changes the caller's outcomes, not the call's answers
        asked: Hashable = request if request.then is None else request.answered
        key = (None if plain else self.policy, asked)
        counted = self.cache.answers.get(key)
        if counted is None:
            counted = convolve_call(base, request)
            self.cache.answers[key] = counted
        return counted

    def _branches(self, request: Any) -> Counted:
        met = self._met.get(id(request))
        if met is not None and met[0] is request:  # kept alive here, so its id is its own
            if met[2]:
                self._decisions += 1  # as :meth:`counted` counts a call with decisions again
            return met[1]
        if isinstance(request, Roll):
            return self._remember(request, self._roll(request), False)
        if isinstance(request, Call):
            before = self._decisions
            counted = self._call(request)
            return self._remember(request, counted, self._decisions != before)
        if isinstance(request, Choose):
            self._decisions += 1
            answer = self.policy(request)
            if answer not in request.options:
                raise ProcedureError(f"policy answered {answer!r}, not an option of {request!r}")
            return 1, ((answer, 1),)
        raise ProcedureError(f"a procedure yielded {request!r}, which is not a request")

    def _promised(
        self, request: AnyCall, pairs: tuple[tuple[Any, int], ...]
    ) -> tuple[tuple[tuple[Any, int], ...], Any]:
        """A ``tail`` call's answer weights as its caller's outcomes (``then`` of each,
        merged), and the outcome promised after its last answer (the one a caller is
        held to), kept by the request's identity as :meth:`_branches` keeps answers."""
        found = self._mapped.get(id(request))
        if found is not None and found[0] is request:
            return found[1], found[2]
        then = request.then
        assert then is not None
        work = current()
        if work is not None:
            work.spend(len(pairs) * THEN_STEPS)
        weights: dict[Any, int] = {}
        outcome: Any = None
        for answer, count in pairs:
            outcome = then(answer)
            weights[outcome] = weights.get(outcome, 0) + count
        mapped = tuple(weights.items())
        if len(self._mapped) >= _MET_LIMIT:
            self._mapped.clear()
        self._mapped[id(request)] = (request, mapped, outcome)
        return mapped, outcome

    def _led(
        self,
        procedure: Callable[..., Procedure[Any]],
        send: Callable[[Any], Any],
        request: Roll,
        pairs: tuple[tuple[Any, int], ...],
        weight: int,
        total: int,
        by_total: dict[int, dict[Any, int]],
    ) -> None:
        """A roll that leads to a tail call (``Roll.leads_to``): each answer's call's
        outcomes are the procedure's, weighed by the answer's count (no replay per answer);
        the live procedure, sent the last answer, must make that call and keep its promise."""
        leads_to = request.leads_to
        assert leads_to is not None
        met = self._met
        work = current()
        follow: Any = None
        answer: Any = None
        for answer, count in pairs:
            follow = leads_to(answer)
            if type(follow) is not Call or not follow.tail:
                raise ProcedureError(f"{request!r} leads to {follow!r}, not a tail call")
            found = met.get(id(follow))
            if found is not None and found[0] is follow:  # as :meth:`_branches`
                if found[2]:
                    self._decisions += 1
                follow_total, follow_pairs = found[1]
            else:
                try:
                    follow_total, follow_pairs = self._branches(follow)
                except StopIteration as error:  # not the procedure's end: a fault
                    raise ProcedureError(f"answering {follow!r} stopped") from error
            last, promised = follow_pairs[-1][0], follow_pairs[-1][0]
            if follow.then is not None:
                follow_pairs, promised = self._promised(follow, follow_pairs)
            weights = by_total.setdefault(total * follow_total, {})
            if work is not None:
                work.outcomes(len(follow_pairs), total * follow_total)
            scale = weight * count
            for outcome, n in follow_pairs:
                weights[outcome] = weights.get(outcome, 0) + scale * n
        try:
            asked = send(answer)
            while type(asked) is Emit:
                asked = send(None)
        except StopIteration:
            raise ProcedureError(
                f"{procedure.__name__} returned before the call its roll leads to"
            ) from None
        if asked is not follow and asked != follow:
            raise ProcedureError(
                f"{procedure.__name__} asked {asked!r}, not the call its roll leads to"
            )
        _keeps_promise(procedure, send, last, promised)

    def _remember(self, request: Any, counted: Counted, decides: bool) -> Counted:
        if len(self._met) >= _MET_LIMIT:
            self._met.clear()
        self._met[id(request)] = (request, counted, decides)
        return counted

    def _enumerate(
        self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]
    ) -> Counted:
        by_total: dict[int, dict[Any, int]] = {}
        met = self._met
        # The question's bound on work, if it has one: steps are summed here and counted
        # against it a batch at a time, cheaply: the branches a request opens when it is
        # met (each replays ``shared``), the outcomes weighed over one total as they run
        # (each as long as the total) when the total changes and at the end.
        work = current()
        steps = BRANCH_STEPS  # the first run
        leaves = 0  # outcomes weighed over ``bucket_total`` not yet in ``steps``
        batch = COUNTED_AT_ONCE if work is not None else _NEVER
        # Each pending branch: the answers to replay (a prefix shared by its siblings, then
        # its own answer), and its weight over its total.
        stack: list[tuple[tuple[Any, ...], Any, int, int]] = [((), _FRESH, 1, 1)]
        pop, push = stack.pop, stack.append
        # the last total's outcome weights (leaves of one total usually come in a row)
        bucket_total: int = 0
        bucket: dict[Any, int] = {}
        while stack:
            prefix, own, weight, total = pop()
            gen = procedure(*args)
            send = gen.send
            answers: list[Any] = []  # answered after the prefix and ``own``
            try:
                request = send(None)
                replayed = own is not _FRESH
                if replayed:  # the same requests as before, answered as before
                    for answer in prefix:
                        while type(request) is Emit:
                            request = send(None)
                        request = send(answer)
                    while type(request) is Emit:
                        request = send(None)
                    request = send(own)
                while True:
                    if type(request) is Emit:
                        request = send(None)
                        continue
                    found = met.get(id(request))
                    if found is not None and found[0] is request:  # as :meth:`_branches`
                        if found[2]:
                            self._decisions += 1
                        branch_total, pairs = found[1]
                    else:
                        try:
                            branch_total, pairs = self._branches(request)
                        except StopIteration as error:  # not the procedure's end: a fault
                            raise ProcedureError(f"answering {request!r} stopped") from error
                    total *= branch_total
                    if type(request) is Call and request.tail:  # the caller's outcome is its answer
                        if total != bucket_total:
                            steps += outcome_steps(leaves, bucket_total)
                            leaves = 0
                            bucket_total, bucket = total, by_total.setdefault(total, {})
                        answer = pairs[-1][0]
                        promised = answer
                        if request.then is not None:  # ... as ``then`` maps it
                            pairs, promised = self._promised(request, pairs)
                        for outcome, count in pairs:
                            bucket[outcome] = bucket.get(outcome, 0) + weight * count
                        leaves += len(pairs)
                        steps += REPLAYED_STEPS * len(answers)  # answered on the way
                        _keeps_promise(procedure, send, answer, promised)
                        break
                    if type(request) is Roll and request.leads_to is not None:
                        self._led(procedure, send, request, pairs, weight, total, by_total)
                        break
                    last = len(pairs) - 1
                    if last:
                        shared = (*prefix, own, *answers) if replayed else tuple(answers)
                        for index in range(last):
                            answer, count = pairs[index]
                            push((shared, answer, weight * count, total))
                        steps += last * (BRANCH_STEPS + REPLAYED_STEPS * len(shared))
                        if steps > batch:
                            assert work is not None
                            work.spend(steps)
                            steps = 0
                    answer, count = pairs[last]
                    answers.append(answer)
                    weight *= count
                    request = send(answer)
            except StopIteration as stop:
                if total != bucket_total:
                    steps += outcome_steps(leaves, bucket_total)
                    leaves = 0
                    bucket_total, bucket = total, by_total.setdefault(total, {})
                outcome = stop.value
                bucket[outcome] = bucket.get(outcome, 0) + weight
                leaves += 1
                steps += REPLAYED_STEPS * len(answers)  # answered on the way
        if work is not None:
            work.spend(steps + outcome_steps(leaves, bucket_total))
        return merge_by_total(by_total)


#: A batch of steps no count reaches (:meth:`OddsDriver._enumerate` without a bound).
_NEVER = 1 << 62


def _amounts(groups: list[tuple[int, Counted]]) -> int | None:
    """How many amounts a run adds (None: no run has an outcome)."""
    for _, (_, pairs) in groups:
        for amounts, _count in pairs:
            return len(amounts)
    return None


def _keeps_promise(
    procedure: Callable[..., Procedure[Any]], send: Callable[[Any], Any], answer: Any, promised: Any
) -> None:
    """A procedure sent its tail call's ``answer`` returns ``promised`` and asks nothing
    more (events aside), as it promised."""
    try:
        after = send(answer)
        while type(after) is Emit:
            after = send(None)
    except StopIteration as stop:
        returned = stop.value
        if returned is not promised and returned != promised:
            raise ProcedureError(
                f"{procedure.__name__} returned {returned!r} after a tail call answered {answer!r}"
            ) from None
    else:
        raise ProcedureError(f"{procedure.__name__} asked {after!r} after a tail call")


#: Marks the first branch of an enumeration (nothing to replay).
_FRESH: Any = object()


__all__ = [
    "Branches",
    "OddsCache",
    "OddsDriver",
    "Policy",
    "as_distribution",
    "convolve_call",
    "default_policy",
    "merge_by_total",
    "normalised",
    "odds_by",
    "roll_branches",
]
