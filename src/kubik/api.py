"""kubik's Python API: the same calls as the CLI, returning the same JSON-ready dicts.

>>> import kubik.api as api
>>> out = api.resolve("steel_war.morale_test",
...                   {"quality": "d8", "leadership": 2, "threat": 6}, dice=[6])
>>> out["outcome"], out["rolls"][0]["values"]
({'drop': 1}, [6])
>>> [o["probability"] for o in api.odds("old_west.wound",
...                                      {"strength": 3, "toughness": 8})["outcomes"]]
['11/12', '1/12']
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel, ValidationError

from kubik.engine import registry
from kubik.engine.jsonify import numeric_fields, outcome_json, outcome_order
from kubik.engine.odds import OddsCache, OddsDriver, Policy, default_policy
from kubik.engine.registry import ProcedureInput, ProcedureSpec
from kubik.engine.requests import Message, msg
from kubik.errors import DiceAnswerError, InputError
from kubik.limits import DEFAULT_SEED, INPUT_BYTES, INPUT_DEPTH, SIMULATE_RUNS, too_deep
from kubik.problems import join, problems, shown

# Games, bots, simulations of battles, text for people and the drivers other than the
# odds load only when a call needs them: a question of odds (`kubik odds`) does not pay
# for numpy, the game layer, Babel, the optimal policy or the simulator.
if TYPE_CHECKING:
    from kubik.engine.log import LogEntry, RollEntry
    from kubik.engine.optimal import Optimal
    from kubik.engine.run import RunResult
    from kubik.engine.simulate import Estimate
    from kubik.game.coverage import ProgressCallback
    from kubik.game.scenario import Scenario
    from kubik.game.session import Controller
    from kubik.sim.runner import Progress, SimResult

#: Memoised sub-distributions shared by every odds question in this process.
_CACHE = OddsCache()

InputLike = Mapping[str, Any] | str | ProcedureInput


def clear_cache() -> None:
    """Forget memoised sub-distributions."""
    _CACHE.clear()


def validation_problem(error: ValidationError) -> Message:
    """One line naming each bad field and what is allowed, as a message (en or ru)."""
    return problems(error.errors(), "input")


def validation_message(error: ValidationError) -> str:
    """One line naming each bad field and what is allowed (English)."""
    from kubik.i18n import render

    return render(validation_problem(error), "en")


class _NotFinite(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in JSON text (Python reads them; JSON has none)."""


def _refuse_constant(name: str) -> Any:
    raise _NotFinite(name)


def parse_json(text: str, source: str = "input") -> Any:
    """JSON text → its value, within the limits: :data:`~kubik.limits.INPUT_BYTES`
    bytes, :data:`~kubik.limits.INPUT_DEPTH` levels of nesting, finite numbers only.

    Every problem is an :class:`InputError` naming ``source``.
    """
    size = len(text.encode("utf-8", errors="replace"))
    if size > INPUT_BYTES:
        raise InputError(msg("kubik.input.too_big", source=source, size=size, limit=INPUT_BYTES))
    if not text.strip():
        raise InputError(msg("kubik.input.empty", source=source))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        where = {"line": error.lineno, "column": error.colno}
        raise InputError(
            msg("kubik.input.bad_json", source=source, error=str(error), **where)
        ) from None
    except RecursionError:
        raise InputError(msg("kubik.input.too_deep", source=source, limit=INPUT_DEPTH)) from None
    except _NotFinite as error:
        raise InputError(msg("kubik.input.bad_number", source=source, number=str(error))) from None
    except ValueError:  # an integer of thousands of digits
        digits = sys.get_int_max_str_digits()
        raise InputError(msg("kubik.input.long_number", source=source, limit=digits)) from None
    check_depth(data, source)
    return data


def check_depth(data: Any, source: str = "input") -> None:
    """Refuse JSON-like data nested deeper than :data:`~kubik.limits.INPUT_DEPTH`."""
    plain = dict(data) if isinstance(data, Mapping) else data
    if too_deep(plain, INPUT_DEPTH):
        raise InputError(msg("kubik.input.too_deep", source=source, limit=INPUT_DEPTH))


def _number_problems(raw: Any, value: Any, where: str) -> list[Message]:
    """Fields whose value became a number from ``true``/``false`` or from text.

    pydantic's lax mode reads ``true`` as 1 and ``"3"`` as 3; kubik's inputs are JSON,
    where a number is written as a number, so those are refused, naming the field.
    """
    if isinstance(value, BaseModel) and isinstance(raw, Mapping):
        found: list[Message] = []
        for name, field in type(value).model_fields.items():
            key = field.alias or name
            if key in raw:
                found += _number_problems(raw[key], getattr(value, name), f"{where}.{key}")
        return found
    if isinstance(value, tuple | list) and isinstance(raw, list | tuple):
        if len(value) != len(raw):
            return []
        found = []
        for index, (item_raw, item) in enumerate(zip(raw, value, strict=True)):
            found += _number_problems(item_raw, item, f"{where}[{index}]")
        return found
    if isinstance(value, Mapping) and isinstance(raw, Mapping):
        found = []
        for key, item_raw in raw.items():
            if key in value:
                found += _number_problems(item_raw, value[key], f"{where}.{key}")
        return found
    is_number = isinstance(value, int | float) and not isinstance(value, bool | Enum)
    if is_number and isinstance(raw, bool | str):
        kind = "kubik.problem.not_whole" if isinstance(value, int) else "kubik.problem.not_number"
        return [msg(kind, where=where, got=shown(raw))]
    return []


def parse_input(spec: ProcedureSpec, data: InputLike) -> ProcedureInput:
    """Validate ``data`` against the procedure's input model (errors name the field)."""
    if isinstance(data, ProcedureInput):
        return data
    if isinstance(data, str):
        data = parse_json(data)
    if not isinstance(data, Mapping):
        example = json.dumps(dict(spec.examples[0]), ensure_ascii=False) if spec.examples else "{}"
        raise InputError(
            msg("kubik.input.not_object", source="input", procedure=spec.name, example=example)
        )
    check_depth(data)
    try:
        parsed = spec.input_model.model_validate(dict(data))
    except ValidationError as error:
        raise InputError(validation_problem(error)) from None
    except RecursionError:
        raise InputError(msg("kubik.input.too_deep", source="input", limit=INPUT_DEPTH)) from None
    wrong = _number_problems(data, parsed, "input")
    if wrong:
        raise InputError(join(wrong))
    return parsed


def procedures() -> list[dict[str, Any]]:
    """Every procedure: name, ruleset, rule ids, summary, input JSON schema, examples."""
    return [
        {
            "name": spec.name,
            "ruleset": spec.ruleset,
            "rules": list(spec.rules),
            "summary": spec.summary,
            "input_schema": spec.input_schema(),
            "examples": [dict(e) for e in spec.examples],
        }
        for spec in registry.all_specs()
    ]


_ROLL_FIELDS = ("dice", "values", "reason", "reason_id", "origin")


def _roll_json(entry: RollEntry, lang: str) -> dict[str, Any]:
    """A roll as the contract's ``rolls`` list shows it."""
    from kubik.engine.narration import entry_json

    full = entry_json(entry, lang)
    return {key: full[key] for key in _ROLL_FIELDS}


def log_entry_json(entry: LogEntry, lang: str) -> dict[str, Any]:
    """A log entry as JSON: its structure and its text in ``lang``."""
    from kubik.engine.narration import entry_json

    return entry_json(entry, lang)


def _resolution_json(
    spec: ProcedureSpec, result: RunResult, lang: str, seed: int | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "procedure": spec.name,
        "outcome": outcome_json(result.outcome),
        "rolls": [_roll_json(e, lang) for e in result.rolls],
        "log": [log_entry_json(e, lang) for e in result.log],
    }
    if seed is not None:
        out["seed"] = seed
    return out


def resolve(
    name: str,
    input: InputLike,
    dice: Sequence[int | str] | None = None,
    seed: int | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """Resolve one procedure: with typed-in ``dice`` (table) or virtual dice from ``seed``.

    Without dice or seed a fresh seed is drawn and reported, so any resolution
    can be replayed.
    """
    import random
    import secrets

    from kubik.engine.run import TableSession, describe_roll, play

    spec = registry.get(name)
    inp = parse_input(spec, input)
    if dice is not None:
        session = TableSession(spec.function, (inp,))
        session.supply(dice)
        if session.pending is not None:
            raise DiceAnswerError(
                f"too few dice: {session.dice_used} given, the next roll needs "
                f"{describe_roll(session.pending)}"
            )
        assert session.result is not None
        return _resolution_json(spec, session.result, lang, None)
    if seed is None:
        seed = secrets.randbits(32)
    result = play(spec.function, (inp,), random.Random(seed))
    return _resolution_json(spec, result, lang, seed)


def marginals(distribution: Mapping[Any, Fraction]) -> dict[str, Any]:
    """Each numeric field of a distribution's outcomes on its own (booleans as 0/1): for
    every value, P(= v) and P(≥ v) as exact fractions (and rounded floats), and the
    field's expected value. This is the ``"fields"`` of :func:`odds`; the web table
    summarises an option's forecast with it too.

    ``{"killed": {"values": [{"value": 0, "probability": "1/4", "p": 0.25,
    "at_least": "1", "p_at_least": 1.0}, ...], "expected": "3/4", "e": 0.75}}``
    """
    fields: dict[str, dict[Any, Fraction]] = {}
    for outcome, p in distribution.items():
        for field, value in numeric_fields(outcome).items():
            bucket = fields.setdefault(field, {})
            bucket[int(value)] = bucket.get(int(value), Fraction(0)) + p
    result: dict[str, Any] = {}
    for field, values in fields.items():
        rows = []
        at_least = Fraction(1)
        for value in sorted(values):
            rows.append(
                {
                    "value": value,
                    "probability": str(values[value]),
                    "p": round(float(values[value]), 6),
                    "at_least": str(at_least),
                    "p_at_least": round(float(at_least), 6),
                }
            )
            at_least -= values[value]
        expected = sum((v * p for v, p in values.items()), Fraction(0))
        result[field] = {"values": rows, "expected": str(expected), "e": float(expected)}
    return result


def policies(name: str) -> dict[str, Policy]:
    """The decision policies for a procedure: ``default``, its ruleset's rules of thumb
    (Old West: ``just_enough`` Fame) and ``optimal``."""
    return registry.ruleset_policies(registry.get(name).ruleset)


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
    """``simulate=N`` within 1..:data:`~kubik.limits.SIMULATE_RUNS`."""
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
    from kubik.i18n import render

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
    (a progress bar). Runs are limited to :data:`~kubik.limits.SIMULATE_RUNS`.
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
                    "outcome": outcome_json(e.outcome),
                    "count": e.count,
                    "p": round(e.p, 6),
                    "interval": [round(e.interval[0], 6), round(e.interval[1], 6)],
                }
                for e in found
            ],
        }
    inp = parse_input(spec, input)
    distribution = OddsDriver(chosen, _CACHE).distribution(spec.function, (inp,))
    ordered = sorted(distribution.items(), key=lambda kv: outcome_order(kv[0]))
    result: dict[str, Any] = {
        "procedure": spec.name,
        "exact": True,
        "policy": policy_name,
        "outcomes": [
            {"outcome": outcome_json(o), "probability": str(p), "p": round(float(p), 4)}
            for o, p in ordered
        ],
        "fields": marginals(distribution),
    }
    if _is_optimal(chosen) and OddsDriver(cache=_CACHE).has_decisions(spec.function, (inp,)):
        result.update(_goals_json(spec, inp, cast("Optimal", chosen), lang, explain))
    elif explain:
        result["explain"] = []
    if observed is not None:
        if not isinstance(observed, Mapping):
            raise InputError("observed: must be a JSON object of outcome fields")
        from kubik.engine.observed import place

        result["observed"] = place(distribution, observed)
    return result


def compare_policies(name: str, input: InputLike) -> dict[str, Any]:
    """Exact odds under every policy of the ruleset, side by side.

    ``{"procedure", "exact": true, "policies": [names], "outcomes": [{"outcome",
    "probabilities": {policy: "p/q"}, "p": {policy: float}}]}``
    """
    spec = registry.get(name)
    inp = parse_input(spec, input)
    by_policy = {
        policy_name: OddsDriver(policy, _CACHE).distribution(spec.function, (inp,))
        for policy_name, policy in policies(name).items()
    }
    outcomes = sorted({o for d in by_policy.values() for o in d}, key=outcome_order)
    return {
        "procedure": spec.name,
        "exact": True,
        "policies": list(by_policy),
        "outcomes": [
            {
                "outcome": outcome_json(o),
                "probabilities": {n: str(d[o]) for n, d in by_policy.items()},
                "p": {n: round(float(d[o]), 4) for n, d in by_policy.items()},
            }
            for o in outcomes
        ],
    }


def _bot_kind(kind: str, field: str) -> str:
    from kubik.bots.registry import BOT_NAMES

    if kind not in BOT_NAMES:
        raise InputError(
            msg("coverage.error.bot", field=field, bot=kind, bots=", ".join(BOT_NAMES))
        )
    return kind


def coverage(
    scenarios: Sequence[str | Scenario],
    runs: int,
    seed: int = DEFAULT_SEED,
    *,
    bot: str = "heuristic",
    sides: Mapping[str, str] | None = None,
    progress: ProgressCallback | None = None,
) -> dict[str, Any]:
    """As ``kubik coverage --json``: ``runs`` bot games of each scenario (ids, paths or
    :class:`~kubik.game.Scenario`), and per catalogued rule ID the games that applied it.

    ``bot`` plays every side (``heuristic``, ``random`` or ``default``); ``sides``
    gives some sides another (side id → bot). ``progress(done, total)`` is told once
    every input is checked, then after each game. Runs, seed and bots are checked
    before any scenario is read.
    """
    from kubik.bots.registry import bot_for
    from kubik.game.coverage import check_runs as check_coverage_runs
    from kubik.game.coverage import check_seed, run_coverage
    from kubik.game.scenario import Scenario, load_scenario

    check_coverage_runs(runs)
    check_seed(seed)
    _bot_kind(bot, "bot")
    chosen = {side: _bot_kind(kind, f"sides.{side}") for side, kind in (sides or {}).items()}
    found = [s if isinstance(s, Scenario) else load_scenario(s) for s in scenarios]
    every_side = [side for scenario in found for side in scenario.side_ids]
    for side in chosen:
        if side not in every_side:
            known = ", ".join(dict.fromkeys(every_side))
            raise InputError(msg("coverage.error.side", side=side, sides=known))

    cache = OddsCache()  # memoised odds are pure: sharing them across games only saves time

    def controllers(scenario: Scenario, game_seed: int) -> dict[str, Controller]:
        return {
            side: bot_for(chosen.get(side, bot), game_seed, side, cache)
            for side in scenario.side_ids
        }

    result = run_coverage(found, runs, seed, controllers, progress).to_json()
    result["bots"] = {side: chosen.get(side, bot) for side in dict.fromkeys(every_side)}
    return result


def sim_battles(
    scenario: str | Scenario,
    runs: int,
    seed: int = DEFAULT_SEED,
    *,
    bot: str = "heuristic",
    sides: Mapping[str, str] | None = None,
    workers: int | None = None,
    ray: str | None = None,
    vary: Sequence[str] = (),
    vs: Sequence[str | Path] = (),
    store: str | Path | bool = True,
    fresh: bool = False,
    progress: Progress | None = None,
) -> SimResult:
    """``runs`` bot games of a scenario (or of every cell of a sweep), as ``kubik sim``.

    ``workers`` local processes (default: every core) or Ray (``ray="local"`` or a
    cluster address); ``vary`` holds ``PATH=V1,V2`` parameters, ``vs`` one or two
    roster-list files; ``store`` a SQLite file, ``True`` for the job's default file
    (rerunning resumes), ``False`` for none. Every input is checked before a game is
    played. The result's ``to_json()`` is ``kubik sim --json``.
    """
    from kubik.game.coverage import check_seed
    from kubik.game.scenario import Scenario, load_scenario
    from kubik.sim.backends import make_backend
    from kubik.sim.job import check_runs as check_sim_runs
    from kubik.sim.runner import simulate_battles

    check_sim_runs(runs)
    check_seed(seed, "--seed")
    _bot_kind(bot, "bot")
    chosen = {side: _bot_kind(kind, f"sides.{side}") for side, kind in (sides or {}).items()}
    backend = make_backend(workers, ray)
    found = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    for side in chosen:
        if side not in found.side_ids:
            known = ", ".join(found.side_ids)
            raise InputError(f"sides.{side}: {found.id} has no side '{side}'; sides: {known}")
    bots = {side: chosen.get(side, bot) for side in found.side_ids}
    return simulate_battles(
        found,
        runs,
        seed,
        bots,
        backend,
        vary=vary,
        vs=vs,
        store=store,
        fresh=fresh,
        progress=progress,
    )


def sim(
    scenario: str | Scenario,
    runs: int,
    seed: int = DEFAULT_SEED,
    **options: Any,
) -> dict[str, Any]:
    """As ``kubik sim SCENARIO --json``: :func:`sim_battles`'s report as a dict
    (``{"scenario", "runs", "wins", "draws", "win_rate", ...}``, and ``"run"``: what
    this call played, how and where)."""
    return sim_battles(scenario, runs, seed, **options).to_json()


def sim_procedure(
    name: str,
    input: InputLike,
    runs: int,
    seed: int = DEFAULT_SEED,
    policy: str | Policy = "default",
) -> dict[str, Any]:
    """As ``kubik sim PROC --input ... --json``: ``runs`` seeded runs of one procedure,
    every outcome's estimate beside its exact probability, and whether they agree
    (``"exact_check"``: chi-square over the outcomes)."""
    from kubik.game.coverage import check_seed
    from kubik.sim.exact import simulate_procedure
    from kubik.sim.job import check_runs as check_sim_runs

    check_sim_runs(runs)
    check_seed(seed, "--seed")
    spec = registry.get(name)
    inp = parse_input(spec, input)
    policy_name, chosen = _policy(name, policy)
    return simulate_procedure(spec, inp, runs, seed, chosen, policy_name, _CACHE)
