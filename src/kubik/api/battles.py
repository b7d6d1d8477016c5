"""Whole battles played by bots: rule coverage, simulations of battles and of one
procedure, as ``kubik coverage`` and ``kubik sim`` report them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kubik.api.inputs import InputLike, parse_input
from kubik.api.probabilities import _CACHE, _policy
from kubik.core.errors import InputError
from kubik.core.limits import DEFAULT_SEED
from kubik.engine import registry
from kubik.engine.odds import OddsCache, Policy
from kubik.engine.requests import msg

# Games, bots, simulations of battles, text for people and the drivers other than the
# odds load only when a call needs them: a question of odds (`kubik odds`) does not pay
# for numpy, the game layer, Babel, the optimal policy or the simulator.
if TYPE_CHECKING:
    from kubik.game.coverage import ProgressCallback
    from kubik.game.scenario import Scenario
    from kubik.game.session import Controller
    from kubik.sim.runner import Progress, SimResult


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
    baseline: int = 0,
    bars: Sequence[str] = (),
) -> SimResult:
    """``runs`` bot games of a scenario (or of every cell of a sweep), as ``kubik sim``.

    ``workers`` local processes (default: every core) or Ray (``ray="local"`` or a
    cluster address); ``vary`` holds ``PATH=V1,V2`` parameters, ``vs`` one or two
    roster-list files, or BattleScribe rosters ``SIDE=A.ros,B.rosz`` (a roster per
    file); ``store`` a SQLite file, ``True`` for the job's default file
    (rerunning resumes), ``False`` for none; ``baseline`` the cell every other cell
    of a sweep is compared with, game by game; ``bars`` (``SIDE:RULE``) add a cell per
    bar, the side refused every option that rule permits (:mod:`kubik.game.battle.bars`).
    Every input is checked before a game is played. The result's ``to_json()`` is
    ``kubik sim --json``.
    """
    from kubik.api.battlescribe import is_roster_spec, roster_list
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
    lists = [roster_list(found, v) if is_roster_spec(v) else v for v in vs]
    return simulate_battles(
        found,
        runs,
        seed,
        bots,
        backend,
        vary=vary,
        vs=lists,
        store=store,
        fresh=fresh,
        progress=progress,
        baseline=baseline,
        bars=bars,
    )


def sim_bots(
    scenario: str | Scenario,
    runs: int,
    seed: int = DEFAULT_SEED,
    *,
    bots: Sequence[str] | str = ("heuristic", "random"),
    workers: int | None = None,
    ray: str | None = None,
    vary: Sequence[str] = (),
    vs: Sequence[str | Path] = (),
    store: str | Path | bool = True,
    fresh: bool = False,
    baseline: int = 0,
    bars: Sequence[str] = (),
) -> dict[str, Any]:
    """As ``kubik sim SCENARIO --bots heuristic,random --json``: the same job (cells,
    seeds) played once per bot (every side by that bot), each bot's report under
    ``"reports"``, and ``"conclusions"``: each question every bot's games answer (in a
    sweep, does a cell raise or lower a side's win rate against the baseline; else,
    does a side win more than half) with each bot's answer and whether it ``flips``
    with the bot (:mod:`kubik.sim.robustness`)."""
    from kubik.bots.registry import BOT_NAMES
    from kubik.game.scenario import Scenario, load_scenario
    from kubik.sim.robustness import compare_bots, parse_bots

    chosen = parse_bots(bots if isinstance(bots, str) else ",".join(bots), BOT_NAMES)
    found = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    reports: dict[str, Any] = {}
    for name in chosen:
        result = sim_battles(
            found,
            runs,
            seed,
            bot=name,
            workers=workers,
            ray=ray,
            vary=vary,
            vs=vs,
            store=store,
            fresh=fresh,
            baseline=baseline,
            bars=bars,
        )
        reports[name] = result.to_json()
    return {
        "scenario": found.id,
        "runs": runs,
        "seed": seed,
        "bots": list(chosen),
        "conclusions": compare_bots(reports),
        "reports": reports,
    }


def sim_solve(
    scenario: str | Scenario,
    solve: str,
    target: float = 0.5,
    precision: float = 0.02,
    seed: int = DEFAULT_SEED,
    *,
    side: str | None = None,
    bot: str = "heuristic",
    sides: Mapping[str, str] | None = None,
    workers: int | None = None,
    ray: str | None = None,
) -> dict[str, Any]:
    """As ``kubik sim SCENARIO --solve PATH=LOW..HIGH --target T --precision P --json``:
    the value of ``PATH`` in ``LOW..HIGH`` (whole numbers; with decimals or ``/STEP``, in
    steps; or an ordered choice ``V1,V2,...``) at which ``side`` (the first side by
    default) wins a share ``target`` of the games, found by bisection with sequential
    probes (:mod:`kubik.sim.solve`); the answer (``{"value"}``, or ``{"between"}``: two
    neighbours on either side of the target) and every probe with its interval."""
    from kubik.game.coverage import check_seed
    from kubik.game.scenario import Scenario, load_scenario
    from kubik.sim.backends import make_backend
    from kubik.sim.solve import Solver, check_target, parse_solve
    from kubik.sim.vary import parse_parameter

    check_seed(seed, "--seed")
    ladder = parse_solve(solve)
    parse_parameter(f"{ladder.path}={ladder.texts[0]}", "--solve")  # checked before any game
    wanted, within = check_target(target, precision)
    _bot_kind(bot, "bot")
    chosen = {s: _bot_kind(kind, f"sides.{s}") for s, kind in (sides or {}).items()}
    backend = make_backend(workers, ray)
    found = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    known = ", ".join(found.side_ids)
    for name in [*chosen, *([side] if side is not None else [])]:
        if name not in found.side_ids:
            raise InputError(f"--solve-side {name}: {found.id} has no such side; sides: {known}")
    bots = {s: chosen.get(s, bot) for s in found.side_ids}
    solver = Solver(found, ladder, side or found.side_ids[0], wanted, within, seed, bots, backend)
    solver.job(0)  # both ends are valid variants before any game
    solver.job(len(ladder.values) - 1)
    return {
        "scenario": found.id,
        "seed": seed,
        "bots": bots,
        "solve": solver.solve(),
    }


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
