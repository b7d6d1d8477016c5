"""Exact odds and Monte Carlo estimates of a procedure, under a decision policy: the
``odds`` JSON of the contract and the fields' marginals the web table shows too."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

from kubik.api.inputs import InputLike, parse_input
from kubik.api.odds_table import OddsTable, weights_of
from kubik.core import limits
from kubik.core.collector import fewer_collections
from kubik.core.errors import InputError, TooLargeError
from kubik.core.limits import SIMULATE_RUNS
from kubik.engine import registry
from kubik.engine.jsonify import distribution_outcome_json, outcome_order
from kubik.engine.odds import OddsCache, OddsDriver, Policy, as_distribution, default_policy
from kubik.engine.policies import ruleset_policies
from kubik.engine.registry import ProcedureInput, ProcedureSpec
from kubik.engine.requests import msg
from kubik.engine.work import WRITTEN_STEPS, TooLarge, bounded, current

# Games, bots, simulations of battles, text for people and the drivers other than the
# odds load only when a call needs them: a question of odds (`kubik odds`) does not pay
# for numpy, the game layer, Babel, the optimal policy or the simulator.
if TYPE_CHECKING:
    from kubik.engine.optimal import Optimal
    from kubik.engine.simulate import Estimate

#: Memoised sub-distributions shared by every odds question in this process.
_CACHE = OddsCache()


class exact_work:
    """One exact question's work, bounded by :data:`~kubik.core.limits.ODDS_STEPS`
    steps (:mod:`kubik.engine.work`): past them it is refused with one line naming the
    limit, and what it kept in the memo is forgotten, so that asked again it is
    refused again rather than getting further each time. Under the optimal policy it
    suggests another policy rather than an estimate (a simulation solves each decision
    as it comes, longer than the exact answer). (A class: a generator's context manager
    costs a question of one die a percent more.)"""

    __slots__ = ("_collections", "_mark", "_name", "_policy", "_work")

    def __init__(self, name: str, policy: Policy) -> None:
        self._name = name
        self._policy = policy
        self._mark = _CACHE.mark()
        self._collections = fewer_collections()
        self._work = bounded(limits.ODDS_STEPS)

    def __enter__(self) -> None:
        self._collections.__enter__()
        self._work.__enter__()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._work.__exit__(kind, error, trace)
        self._collections.__exit__(kind, error, trace)
        if isinstance(error, TooLarge):
            _CACHE.rollback(self._mark)
            which = "too_large_optimal" if _is_optimal(self._policy) else "too_large"
            too_large = msg(f"kubik.odds.{which}", procedure=self._name, steps=error.limit)
            raise TooLargeError(too_large) from None


def clear_cache() -> None:
    """Forget memoised sub-distributions."""
    _CACHE.clear()


def marginals(distribution: Mapping[Any, Fraction]) -> dict[str, Any]:
    """Each numeric field of a distribution's outcomes on its own (booleans as 0/1): for
    every value, P(= v) and P(≥ v) as exact fractions (and rounded floats), and the
    field's expected value. This is the ``"fields"`` of :func:`odds`; the web table
    summarises an option's forecast with it too.

    ``{"killed": {"values": [{"value": 0, "probability": "1/4", "p": 0.25,
    "at_least": "1", "p_at_least": 1.0}, ...], "expected": "3/4", "e": 0.75}}``
    """
    return OddsTable(weights_of(distribution)).fields()


def policies(name: str) -> dict[str, Policy]:
    """The decision policies for a procedure: ``default``, its ruleset's rules of thumb
    (Old West: ``just_enough`` Fame) and ``optimal``."""
    return ruleset_policies(registry.get(name).ruleset)


Objective = Mapping[str, str]


def _policy(
    name: str, policy: str | Policy, objective: Objective | None = None
) -> tuple[str, Policy]:
    if not isinstance(policy, str):
        return getattr(policy, "__name__", type(policy).__name__), policy
    if policy == "default" and not objective:
        return policy, default_policy
    offered = policies(name)
    if policy not in offered:
        raise InputError(msg("kubik.input.policy", policy=policy, known=", ".join(offered)))
    if objective:
        if policy != "optimal":
            raise InputError("objective: only the optimal policy pursues objectives")
        return policy, _optimal(objective)
    return policy, offered[policy]


def _is_optimal(policy: Policy) -> bool:
    """Whether ``policy`` is the optimal policy (whose module is loaded only once used)."""
    module = sys.modules.get("kubik.engine.optimal")
    return module is not None and isinstance(policy, module.Optimal)


def _optimal(objective: Objective, seed: int = 0) -> Optimal:
    from kubik.engine.optimal import Optimal

    for side, goal_text in objective.items():
        if not isinstance(side, str) or not isinstance(goal_text, str):
            raise InputError('objective: give SIDE=GOAL texts, e.g. {"a": "winner=a"}')
    return Optimal(objective, seed)


def check_runs(runs: int) -> None:
    """``simulate=N`` within 1..:data:`~kubik.core.limits.SIMULATE_RUNS`."""
    if runs < 1:
        raise InputError(msg("kubik.input.runs_min"))
    if runs > SIMULATE_RUNS:
        raise InputError(msg("kubik.input.runs_max", n=runs, limit=SIMULATE_RUNS))


def exact_distribution(
    name: str,
    input: InputLike,
    policy: str | Policy = "default",
    objective: Objective | None = None,
) -> dict[Any, Fraction]:
    """The exact outcome distribution as a dict (outcome objects → Fraction)."""
    spec = registry.get(name)
    inp = parse_input(spec, input)
    _, chosen = _policy(name, policy, objective)
    with exact_work(spec.name, chosen):
        return dict(OddsDriver(chosen, _CACHE).distribution(spec.function, (inp,)))


def estimates(
    name: str,
    input: InputLike,
    runs: int,
    seed: int = 0,
    policy: str | Policy = "default",
    progress: Callable[[int, int], None] | None = None,
) -> list[Estimate]:
    """A Monte Carlo estimate: every observed outcome (as an object) with its interval,
    in the natural order of outcomes."""
    from kubik.engine.optimal import Optimal
    from kubik.engine.simulate import simulate as simulate_runs

    check_runs(runs)
    spec = registry.get(name)
    inp = parse_input(spec, input)
    _, chosen = _policy(name, policy)
    if isinstance(chosen, Optimal):  # mixed strategies are drawn from the seed
        chosen = Optimal(chosen.goals, seed)
    sim = simulate_runs(spec.function, (inp,), runs, seed, chosen, spec.batch, progress=progress)
    return sorted(sim.estimates(), key=lambda e: outcome_order(e.outcome))


def _goals_json(
    spec: ProcedureSpec, inp: ProcedureInput, chosen: Optimal, lang: str, explain: bool
) -> dict[str, Any]:
    """The sides' goals with their expected worth and spending under optimal play."""
    from kubik.text.i18n import render

    goals = chosen.objectives(spec.function, (inp,), root=True) or {}
    sides, node = chosen.solution(spec.function, (inp,), _CACHE, explain=explain)
    out: dict[str, Any] = {
        "objectives": {
            side: {
                "goal": render(goals[side].text, lang),
                "expected": str(node.value[i]),
                "e": round(float(node.value[i]), 6),
                "spent": str(node.value[len(sides) + i]),
            }
            for i, side in enumerate(sides)
        }
    }
    if explain:
        from kubik.engine.explain import explain_rows

        out["explain"] = explain_rows(node.notes, lang)
    return out


def odds(
    name: str,
    input: InputLike,
    simulate: int | None = None,
    seed: int = 0,
    policy: str | Policy = "default",
    progress: Callable[[int, int], None] | None = None,
    *,
    objective: Objective | None = None,
    explain: bool = False,
    observed: Mapping[str, Any] | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """Exact odds (or, with ``simulate=N``, a Monte Carlo estimate with 95% intervals).

    ``policy`` answers the procedure's decisions: ``"default"``, ``"optimal"`` (each
    side maximises its goal exactly; ``objective`` replaces some sides' goals, e.g.
    ``{"a": "winner=a"}``) or a ruleset's rule of thumb from :func:`policies` (Old
    West: ``"just_enough"`` Fame). ``explain`` (optimal only) lists every decision the
    policy takes, in ``lang``; ``observed`` places a real outcome (some of its fields)
    in the distribution. ``progress(done, runs)`` is told how a simulation advances
    (a progress bar). Runs are limited to :data:`~kubik.core.limits.SIMULATE_RUNS`.
    """
    spec = registry.get(name)
    policy_name, chosen = _policy(name, policy, objective)
    if explain and not _is_optimal(chosen):
        raise InputError("explain: shows the optimal policy; use it with --policy optimal")
    if simulate is not None:
        found = estimates(name, input, simulate, seed, chosen, progress)
        return {
            "procedure": spec.name,
            "exact": False,
            "policy": policy_name,
            "runs": simulate,
            "seed": seed,
            "outcomes": [
                {
                    "outcome": distribution_outcome_json(e.outcome),
                    "count": e.count,
                    "p": round(e.p, 6),
                    "interval": [round(e.interval[0], 6), round(e.interval[1], 6)],
                }
                for e in found
            ],
        }
    with exact_work(spec.name, chosen):
        return _exact_odds(
            spec, parse_input(spec, input), policy_name, chosen, explain, observed, lang
        )


def _exact_odds(
    spec: ProcedureSpec,
    inp: ProcedureInput,
    policy_name: str,
    chosen: Policy,
    explain: bool,
    observed: Mapping[str, Any] | None,
    lang: str,
) -> dict[str, Any]:
    """The exact branch of :func:`odds`: the distribution, its table, the goals."""
    counted = OddsDriver(chosen, _CACHE).counted(spec.function, (inp,))
    work = current()
    if work is not None:  # writing them is work too, known before it is done
        work.outcomes(len(counted[1]), counted[0], WRITTEN_STEPS)
    table = OddsTable(counted)
    result: dict[str, Any] = {
        "procedure": spec.name,
        "exact": True,
        "policy": policy_name,
        "outcomes": table.outcomes(),
        "fields": table.fields(),
    }
    if _is_optimal(chosen) and OddsDriver(cache=_CACHE).has_decisions(spec.function, (inp,)):
        result.update(_goals_json(spec, inp, cast("Optimal", chosen), lang, explain))
    elif explain:
        result["explain"] = []
    if observed is not None:
        if not isinstance(observed, Mapping):
            raise InputError("observed: must be a JSON object of outcome fields")
        from kubik.engine.observed import place

        result["observed"] = place(as_distribution(counted), observed)
    return result


def has_decisions(name: str, input: InputLike) -> bool:
    """Whether the procedure asks any decision on its way to any outcome of ``input``:
    without one, every policy gives the same odds (answered from the odds already
    counted for the question, and without loading the optimal policy)."""
    spec = registry.get(name)
    return OddsDriver(cache=_CACHE).has_decisions(spec.function, (parse_input(spec, input),))


def compare_policies(name: str, input: InputLike) -> dict[str, Any]:
    """Exact odds under every policy of the ruleset, side by side.

    ``{"procedure", "exact": true, "policies": [names], "outcomes": [{"outcome",
    "probabilities": {policy: "p/q"}, "p": {policy: float}}]}``
    """
    spec = registry.get(name)
    inp = parse_input(spec, input)
    by_policy = {}
    for policy_name, policy in policies(name).items():
        with exact_work(spec.name, policy):  # each policy's odds a question of its own
            by_policy[policy_name] = OddsDriver(policy, _CACHE).distribution(spec.function, (inp,))
    outcomes = sorted({o for d in by_policy.values() for o in d}, key=outcome_order)
    return {
        "procedure": spec.name,
        "exact": True,
        "policies": list(by_policy),
        "outcomes": [
            {
                "outcome": distribution_outcome_json(o),
                "probabilities": {n: str(d[o]) for n, d in by_policy.items()},
                "p": {n: round(float(d[o]), 4) for n, d in by_policy.items()},
            }
            for o in outcomes
        ],
    }
