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
