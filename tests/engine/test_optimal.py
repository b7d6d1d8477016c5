"""The optimal policy against an independent brute force, simulation, and its promises.

Brute force (tests/optimal_oracle.py) walks every dice sequence and every choice flat;
the engine's expectimax memoises sub-procedures against value tables, folds rolls,
convolves repeated calls and solves sealed bids as matrix games. They must agree
exactly: distribution, each side's expected worth and expected spending.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from scipy.optimize import linprog
from scipy.stats import chisquare

from kubik.core.errors import InputError, ProcedureError
from kubik.engine import Call, Choose, OddsCache, OddsDriver, PolicyChooser, Procedure, Roll, emit
from kubik.engine.dice import D6
from kubik.engine.games import security_strategy, transpose
from kubik.engine.log import ChoiceEntry
from kubik.engine.objectives import FieldIs, FieldValue, declare, goal, objectives_for, parse_goal
from kubik.engine.optimal import Optimal
from kubik.engine.run import TypedDice, run
from kubik.engine.simulate import simulate
from kubik.engine.stepper import Stepper
from tests.optimal_oracle import as_worths, brute_optimal

# -- toy procedures --------------------------------------------------------------


def lift(fame: int, needed: int) -> Procedure[tuple[bool, int]]:
    """A d6 needing ``needed``; the roller may spend Fame to lift it (costs = points)."""
    (value,) = yield Roll(D6, "roll")
    gap = needed - value
    spent = 0
    if 0 < gap <= fame:
        spent = yield Choose((0, gap), "hero", "lift?", costs=(0, gap))
    return value + spent >= needed, spent


def two_lifts(fame: int) -> Procedure[int]:
    """Two rolls sharing one Fame pool: the first decision must weigh the second roll."""
    first, spent = yield Call(lift, (fame, 5))
    second, _ = yield Call(lift, (fame - spent, 4))
    return int(first) + int(second)


def volley(fame: int, shots: int) -> Procedure[int]:
    """Repeated runs of a decision-free roll, then one with a decision."""
    hits = yield Call(lift, (0, 4), times=shots, reduce=lambda t: t[(True, 0)])
    last, _ = yield Call(lift, (fame, 5))
    return int(hits) + int(last)


def repeated(fame: int) -> Procedure[int]:
    """``times`` runs of a procedure with decisions: each run knows the ones before."""
    tally = yield Call(lift, (fame, 5), times=2)
    return sum(n for (ok, _), n in tally.items() if ok)


def sealed_bids(pool_a: int, pool_b: int) -> Procedure[str]:
    """Both sides bid in secret; the higher d6 + bid wins, ties to b."""
    bid_a = yield Choose(tuple(range(pool_a + 1)), "a", "bid", sealed=True, costs=range(pool_a + 1))
    bid_b = yield Choose(tuple(range(pool_b + 1)), "b", "bid", sealed=True, costs=range(pool_b + 1))
    (roll_a,) = yield Roll(D6, "a rolls")
    (roll_b,) = yield Roll(D6, "b rolls")
    return "a" if roll_a + bid_a > roll_b + bid_b else "b"


def pennies() -> Procedure[str]:
    """Matching pennies with a die: a mixed strategy is the only equilibrium."""
    a = yield Choose(("heads", "tails"), "a", "coin", sealed=True)
    b = yield Choose(("heads", "tails"), "b", "coin", sealed=True)
    (roll,) = yield Roll(D6, "tie-break")
    if roll == 6:
        return "b"
    return "a" if a == b else "b"


WINS = {"a": goal(FieldIs("value", "a"), "x"), "b": goal(FieldIs("value", "b"), "x")}


class _First:
    """Worth of a (bool, spent) outcome: the bool."""

    def __call__(self, outcome: tuple[bool, int]) -> int:
        return int(outcome[0])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _First)

    def __hash__(self) -> int:
        return 1


declare(lift, lambda fame, needed: {"hero": goal(_First(), "x")})
declare(two_lifts, lambda fame: {"hero": goal(FieldValue("value"), "x")})
declare(volley, lambda fame, shots: {"hero": goal(FieldValue("value"), "x")})
declare(repeated, lambda fame: {"hero": goal(FieldValue("value"), "x")})
declare(sealed_bids, lambda pool_a, pool_b: WINS)
declare(pennies, lambda: WINS)


def _engine(procedure: Any, args: tuple[Any, ...]) -> tuple[dict[Any, Fraction], Any]:
    sides, node = Optimal().solution(procedure, args, OddsCache())
    n = len(sides)
    value = {s: node.value[i] for i, s in enumerate(sides)}
    cost = {s: node.value[n + i] for i, s in enumerate(sides)}
    return node.dist, (value, cost)


@pytest.mark.parametrize(
    ("procedure", "args"),
    [
        (lift, (2, 5)),
        (two_lifts, (1,)),
        (two_lifts, (2,)),
        (two_lifts, (3,)),
        (volley, (1, 3)),
        (repeated, (2,)),
        (sealed_bids, (1, 1)),
        (sealed_bids, (2, 1)),
        (pennies, ()),
    ],
)
def test_optimal_matches_brute_force_on_toys(procedure: Any, args: tuple[Any, ...]) -> None:
    goals = objectives_for(procedure, args)
    assert goals is not None
    dist, (value, cost) = _engine(procedure, args)
    brute_dist, brute_value, brute_cost = brute_optimal(procedure, args, as_worths(goals))
    assert dist == brute_dist
    assert value == brute_value and cost == brute_cost
    assert sum(dist.values()) == 1
    assert dict(OddsDriver(Optimal()).distribution(procedure, args)) == brute_dist


def test_a_decision_weighs_what_its_resources_buy_later() -> None:
    """Two rolls share 1 Fame: lifting a 4 to 5 on the first roll (worth 1/6 more than
    a fair chance later) is taken only if it beats keeping the point for the second."""
    dist, (value, cost) = _engine(two_lifts, (1,))
    greedy = OddsDriver(lambda r: r.options[-1]).distribution(two_lifts, (1,))
    greedy_value = sum(p * o for o, p in greedy.items())
    assert value["hero"] >= greedy_value
    assert value["hero"] == sum(p * o for o, p in dist.items())
    assert cost["hero"] > 0


def test_ties_spend_nothing() -> None:
    """Needing 7 on a d6 with 1 Fame: a 6 lifted to 7 wins; nothing else can, and the
    policy never spends where spending changes nothing."""
    _, (value, cost) = _engine(lift, (1, 7))
    assert value["hero"] == Fraction(1, 6) and cost["hero"] == Fraction(1, 6)


def test_sealed_bids_are_a_matrix_game_with_a_mixed_equilibrium() -> None:
    _, node = Optimal().solution(pennies, (), OddsCache(), explain=True)
    mixes = {note.side: {o: p for o, p, _ in note.choice} for note in node.notes}
    assert mixes == {
        "a": {"heads": Fraction(1, 2), "tails": Fraction(1, 2)},
        "b": {"heads": Fraction(1, 2), "tails": Fraction(1, 2)},
    }
    assert node.dist == {"a": Fraction(5, 12), "b": Fraction(7, 12)}


def test_security_strategies_carry_their_certificates() -> None:
    """x guarantees the value against every column; scipy's float LP agrees."""
    rng = random.Random(5)
    for _ in range(25):
        rows, columns = rng.randint(1, 5), rng.randint(1, 5)
        payoff = [
            [Fraction(rng.randint(-6, 6), rng.randint(1, 4)) for _ in range(columns)]
            for _ in range(rows)
        ]
        value, x = security_strategy(payoff)
        assert sum(x) == 1 and all(p >= 0 for p in x)
        assert all(
            sum(xi * payoff[i][j] for i, xi in enumerate(x)) >= value for j in range(columns)
        )
        _, y = security_strategy([[-v for v in row] for row in transpose(payoff)])
        assert all(sum(yj * payoff[i][j] for j, yj in enumerate(y)) <= value for i in range(rows))
        # the float LP: maximise v subject to x·M[:, j] >= v
        lp = linprog(
            [0.0] * rows + [-1.0],
            A_ub=[[-float(payoff[i][j]) for i in range(rows)] + [1.0] for j in range(columns)],
            b_ub=[0.0] * columns,
            A_eq=[[1.0] * rows + [0.0]],
            b_eq=[1.0],
            bounds=[(0, None)] * rows + [(None, None)],
        )
        assert abs(-lp.fun - float(value)) < 1e-9


def test_among_safe_strategies_the_cheapest() -> None:
    payoff = [[Fraction(1), Fraction(1)], [Fraction(1), Fraction(1)], [Fraction(0), Fraction(2)]]
    value, x = security_strategy(payoff, [Fraction(2), Fraction(1), Fraction(0)])
    assert value == 1 and x == (Fraction(0), Fraction(1), Fraction(0))


def test_simulate_under_optimal_agrees_with_exact_odds() -> None:
    for procedure, args in ((sealed_bids, (2, 1)), (pennies, ()), (two_lifts, (2,))):
        exact = OddsDriver(Optimal()).distribution(procedure, args)
        sim = simulate(procedure, args, runs=3000, seed=4, policy=Optimal(seed=4))
        outcomes = list(exact)
        observed = [sim.counts.get(o, 0) for o in outcomes]
        expected = [float(exact[o]) * sim.runs for o in outcomes]
        assert set(sim.counts) <= set(exact)
        assert chisquare(observed, expected).pvalue > 1e-4, (procedure.__name__, sim.counts)


def test_a_decision_inside_a_call_is_solved_for_the_callers_goal() -> None:
    """A 4 needing 5 with 1 Fame, inside the first of two rolls: lifting it wins this roll
    (1) and leaves the second (needs 4) at 1/2; keeping the point is 0 + 2/3. The policy
    sees the whole procedure from the position, two frames deep, and lifts."""
    chooser = PolicyChooser(Optimal())
    depths: list[int] = []
    original = chooser.choose_at

    def watched(request: Choose, position: Any) -> Any:
        depths.append(len(position))
        return original(request, position)

    chooser.choose_at = watched  # type: ignore[method-assign]
    result = run(two_lifts, (1,), dice=TypedDice([4, 3]), chooser=chooser)
    choices = [e for e in result.log if isinstance(e, ChoiceEntry)]
    assert depths == [2] and choices[0].answer == 1
    assert result.outcome == 1


def test_the_position_replays_to_the_pending_decision() -> None:
    stepper = Stepper(two_lifts(2), origin=(two_lifts, (2,)))
    request = stepper.advance()
    answers = iter([(4,), 1, (2,)])
    while request is not None:
        if isinstance(request, Choose):
            frame = stepper.position[-1]
            assert frame.procedure is not None
            gen = frame.procedure(*frame.args)
            pending = gen.send(None)
            for answer in frame.answers:
                pending = gen.send(answer)
            assert pending == request
        request = stepper.advance(next(answers))


def test_a_side_without_a_goal_is_a_clear_error() -> None:
    def undeclared() -> Procedure[int]:
        x = yield Choose((1, 2), "nobody", "pick")
        return int(x)

    with pytest.raises(ProcedureError, match="side 'nobody' decides but has no objective"):
        OddsDriver(Optimal()).distribution(undeclared)
    assert OddsDriver(Optimal({"nobody": "value"})).distribution(undeclared)[2] == 1


def test_goals_from_text() -> None:
    assert parse_goal("winner=a").worth({"winner": "a"}) == 1
    assert parse_goal("-wounds").worth({"wounds": (1, 2)}) == -3
    with pytest.raises(InputError, match="no field 'killed'"):
        parse_goal("killed").worth({"wounds": 1})
    with pytest.raises(InputError, match="FIELD=VALUE"):
        parse_goal("=")


def test_reducers_count_like_every_face() -> None:
    """The engine's closed forms give the same counts as reducing every face combination."""
    from itertools import product

    from kubik.engine.dice import D4, D8, D12
    from kubik.engine.reducers import AtLeast, AtMost, Highest, Total, top_values_counts
    from kubik.rulesets.steel_war.fire import TopValues

    def brute(dice: tuple[Any, ...], reduce: Any) -> dict[Any, int]:
        out: dict[Any, int] = {}
        for values in product(*(d.values for d in dice)):
            key = reduce(tuple(sorted(values)))
            out[key] = out.get(key, 0) + 1
        return out

    for dice in ((D6,), (D6, D6, D6), (D4, D8, D12), (D12, D12, D8, D4)):
        assert Highest().counts(dice) == brute(dice, Highest())
        assert Total().counts(dice) == brute(dice, Total())
        for keep in (1, 2):
            for cap in (2, 5, 9, 13):
                assert top_values_counts(dice, keep, cap) == brute(dice, TopValues(keep, cap))
    for limit in range(0, 8):
        assert AtMost(limit).counts((D6,)) == brute((D6,), AtMost(limit))
        assert AtLeast(limit).counts((D6,)) == brute((D6,), AtLeast(limit))


def _lifts_won(tally: Any) -> int:
    """How many lifts of a ``times`` call reached their target."""
    return sum(n for (ok, _), n in tally.items() if ok)


def _lift_won(outcome: tuple[bool, int]) -> int:
    return int(outcome[0])


def ends_in_lifts(fame: int, times: int | None, tail: bool) -> Procedure[int]:
    """A roll sets the target, then a lift (``times`` lifts) ends the procedure: a
    ``tail`` call, or a call whose answer it returns (the same rule written twice)."""
    (value,) = yield Roll(D6, "target")
    needed = 4 + value % 2
    if times is None:
        won = yield Call(lift, (fame, needed), reduce=_lift_won, tail=tail)
    else:
        won = yield Call(lift, (fame, needed), times=times, reduce=_lifts_won, tail=tail)
    assert isinstance(won, int)
    return won


def breaks_its_tail(fame: int) -> Procedure[int]:
    won = yield Call(lift, (fame, 5), reduce=_lift_won, tail=True)
    assert isinstance(won, int)
    return won + 1  # breaks the promise


declare(ends_in_lifts, lambda fame, times, tail: {"hero": goal(FieldValue("value"), "x")})
declare(breaks_its_tail, lambda fame: {"hero": goal(FieldValue("value"), "x")})


@pytest.mark.parametrize(("fame", "times"), [(0, None), (2, None), (0, 2), (2, 2)])
def test_a_tail_call_is_solved_as_the_call_it_stands_for(fame: int, times: int | None) -> None:
    """The solver takes a ``tail`` call's answers as the caller's outcomes instead of
    replaying the caller per answer: the same outcomes (in the same order where it
    walks them), the same solution, and the same positions counted against a budget
    as the plain call."""
    from kubik.engine.expectimax import ByGoals, Solver

    found = []
    for tail in (False, True):
        args = (fame, times, tail)
        worth = ByGoals((FieldValue("value"),))
        reachable = Solver(OddsCache(), ("hero",))
        support: Any = reachable.support(ends_in_lifts, args)[0]
        if not fame:  # no decisions: plain odds, in the odds driver's order
            support = frozenset(support)
        solver = Solver(OddsCache(), ("hero",))
        node = solver.solve(ends_in_lifts, args, worth)
        found.append((support, reachable.visited, node.dist, node.value, solver.visited))
    assert found[0] == found[1]
    goals = objectives_for(ends_in_lifts, (fame, times, True))
    assert goals is not None
    brute_dist, brute_value, _ = brute_optimal(ends_in_lifts, (fame, times, True), as_worths(goals))
    assert found[1][2] == brute_dist and found[1][3][0] == brute_value["hero"]


def test_a_broken_tail_promise_is_refused_by_the_solver() -> None:
    with pytest.raises(ProcedureError, match="tail call"):
        OddsDriver(Optimal()).distribution(breaks_its_tail, (2,))


def _any_won(won: int) -> str:
    """What a caller with ``then`` makes of a lift's (or lifts') count: many to one."""
    return "some" if won else "none"


def ends_in_lifts_then(fame: int, times: int | None, tail: bool) -> Procedure[str]:
    """:func:`ends_in_lifts` returning only whether any lift won, after narrating how many
    did: a ``tail`` call with ``then``, or a plain call (the same rule written twice)."""
    (value,) = yield Roll(D6, "target")
    needed = 4 + value % 2
    then = _any_won if tail else None
    if times is None:
        call = Call(lift, (fame, needed), reduce=_lift_won, tail=tail, then=then)
    else:
        call = Call(lift, (fame, needed), times=times, reduce=_lifts_won, tail=tail, then=then)
    won = yield call
    assert isinstance(won, int)
    yield emit("won", count=won)  # events after the call read the whole answer
    return _any_won(won)


def breaks_its_then(fame: int) -> Procedure[str]:
    won = yield Call(lift, (fame, 5), reduce=_lift_won, tail=True, then=_any_won)
    assert isinstance(won, int)
    return "some" if won else "all"  # breaks the promise


_ANY_WON = {"hero": goal(FieldIs("value", "some"), "x")}
declare(ends_in_lifts_then, lambda fame, times, tail: _ANY_WON)
declare(breaks_its_then, lambda fame: _ANY_WON)


@pytest.mark.parametrize(("fame", "times"), [(0, None), (2, None), (0, 2), (2, 2)])
def test_a_tail_call_with_then_is_solved_as_the_call_it_stands_for(
    fame: int, times: int | None
) -> None:
    """A ``tail`` call whose caller returns ``then`` of its answer: the solver maps the
    answers instead of replaying the caller per answer — the same outcomes, solution and
    positions counted against a budget as the plain call, and brute force's odds."""
    from kubik.engine.expectimax import ByGoals, Solver

    found = []
    for tail in (False, True):
        args = (fame, times, tail)
        worth = ByGoals((FieldIs("value", "some"),))
        reachable = Solver(OddsCache(), ("hero",))
        support: Any = reachable.support(ends_in_lifts_then, args)[0]
        if not fame:  # no decisions: plain odds, in the odds driver's order
            support = frozenset(support)
        solver = Solver(OddsCache(), ("hero",))
        node = solver.solve(ends_in_lifts_then, args, worth)
        found.append((support, reachable.visited, node.dist, node.value, solver.visited))
    assert found[0] == found[1]
    args = (fame, times, True)
    goals = objectives_for(ends_in_lifts_then, args)
    assert goals is not None
    brute_dist, brute_value, _ = brute_optimal(ends_in_lifts_then, args, as_worths(goals))
    assert found[1][2] == brute_dist and found[1][3][0] == brute_value["hero"]
    assert dict(OddsDriver(Optimal()).distribution(ends_in_lifts_then, args)) == brute_dist


def test_a_broken_then_promise_is_refused_by_the_solver() -> None:
    with pytest.raises(ProcedureError, match="tail call"):
        OddsDriver(Optimal()).distribution(breaks_its_then, (2,))
