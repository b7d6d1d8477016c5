"""The report of a simulation, as JSON-ready dicts (``kubik sim --json``).

Per cell: wins per side and draws, with 95% intervals on every rate; the turns
played; the models each side lost; the mean of every count the ruleset's summary
gives; and per unit — for battles on the shared battle layer — kills, models lost,
and how often it routed (some of its models fled) or was wiped out. A ruleset whose
battle is not on the battle layer yet has no per-unit results: its report says so
(``"units": null``, ``"per_unit": "summary"``) and keeps the per-side counts.

A sweep's cells play the same seeds (common random numbers), so each cell is also
compared with a *baseline* cell game by game: ``paired`` gives, per side, the
difference of its win rate from the baseline's with the 95% interval of the paired
differences, and the same for draws, turns and each side's losses.

Everything here is a function of the games alone, sorted by cell and game, so the
same job and seed report the same, whoever played the games and in what order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubik.core.errors import InputError
from kubik.sim.job import SimJob
from kubik.sim.outcome import GameOutcome
from kubik.sim.stats import distribution, interval_of_rate, paired_difference, rate

#: The summary count a ruleset reports its losses in (when no unit results exist).
LOSS_COUNT = "models_lost"


def _losses(outcomes: Sequence[GameOutcome], side: str) -> list[int] | None:
    """Models ``side`` lost in each game: from unit results, else the summary count."""
    if all(o.units is not None for o in outcomes):
        return [sum(u.lost for u in o.units or () if u.side == side) for o in outcomes]
    if all(LOSS_COUNT in o.side_counts(side) for o in outcomes):
        return [o.side_counts(side)[LOSS_COUNT] for o in outcomes]
    return None


def _mean_only(values: Sequence[int]) -> dict[str, Any]:
    full = distribution(values)
    return {"mean": full["mean"], "interval": full["interval"]}


def _units(outcomes: Sequence[GameOutcome]) -> dict[str, Any] | None:
    if not outcomes or any(o.units is None for o in outcomes):
        return None
    order: dict[str, tuple[str, int]] = {}
    for outcome in outcomes:
        for unit in outcome.units or ():
            order.setdefault(unit.unit, (unit.side, unit.models))
    out: dict[str, Any] = {}
    n = len(outcomes)
    for unit_id, (side, models) in order.items():
        found = [u for o in outcomes for u in o.units or () if u.unit == unit_id]
        out[unit_id] = {
            "side": side,
            "models": models,
            "kills": _mean_only([u.kills for u in found]),
            "lost": _mean_only([u.lost for u in found]),
            "routed": rate(sum(u.routed for u in found), n),
            "wiped_out": rate(sum(u.models > 0 and u.lost == u.models for u in found), n),
        }
    return out


def cell_report(outcomes: Sequence[GameOutcome], sides: Sequence[str]) -> dict[str, Any]:
    """The statistics of one cell's games (sorted by game)."""
    n = len(outcomes)
    wins = {side: sum(o.winner == side for o in outcomes) for side in sides}
    draws = sum(o.winner is None for o in outcomes)
    losses = {side: _losses(outcomes, side) for side in sides}
    counts: dict[str, dict[str, Any]] = {}
    for side in sides:
        names = dict.fromkeys(k for o in outcomes for k in o.side_counts(side))
        counts[side] = {
            name: _mean_only([o.side_counts(side).get(name, 0) for o in outcomes]) for name in names
        }
    units = _units(outcomes)
    return {
        "runs": n,
        "wins": wins,
        "draws": draws,
        "win_rate": {side: interval_of_rate(wins[side], n) for side in sides},
        "p": {
            **{side: round(wins[side] / n, 6) if n else 0.0 for side in sides},
            "draw": round(draws / n, 6) if n else 0.0,
        },
        "draw_rate": interval_of_rate(draws, n),
        "turns": distribution([o.turns for o in outcomes]),
        "losses": {side: distribution(v) for side, v in losses.items() if v is not None},
        "counts": counts,
        "per_unit": "battle" if units is not None else "summary",
        "units": units,
    }


def check_baseline(job: SimJob, baseline: object) -> int:
    """``baseline`` if it is the index of a cell of ``job``; else one line."""
    last = len(job.cells) - 1
    if isinstance(baseline, bool) or not isinstance(baseline, int) or not 0 <= baseline <= last:
        raise InputError(f"--baseline: {baseline!r}; allowed: a cell of the sweep, 0 to {last}")
    return baseline


def paired_report(
    cell: Sequence[GameOutcome], base: Sequence[GameOutcome], sides: Sequence[str]
) -> dict[str, Any]:
    """A cell against the baseline cell, game by game (the games of the same index, so
    of the same seed): each figure's mean difference with its paired 95% interval."""
    by_game = {o.game: o for o in base}
    pairs = [(o, by_game[o.game]) for o in cell if o.game in by_game]
    mine = [a for a, _ in pairs]
    theirs = [b for _, b in pairs]
    losses: dict[str, Any] = {}
    for side in sides:
        a, b = _losses(mine, side), _losses(theirs, side)
        if a is not None and b is not None:
            losses[side] = paired_difference(a, b)
    return {
        "win_rate": {
            side: paired_difference(
                [o.winner == side for o in mine], [o.winner == side for o in theirs]
            )
            for side in sides
        },
        "draw_rate": paired_difference(
            [o.winner is None for o in mine], [o.winner is None for o in theirs]
        ),
        "turns": paired_difference([o.turns for o in mine], [o.turns for o in theirs]),
        "losses": losses,
    }


def sim_report(
    job: SimJob, runs: int, outcomes: Sequence[GameOutcome], baseline: int = 0
) -> dict[str, Any]:
    """The whole report: the contract's keys first, then the rest.

    Without a sweep the cell's statistics are the report; with one, ``cells`` holds
    each cell's (with its ``label``, and ``paired``: its difference from cell
    ``baseline``, ``null`` for that cell) and the top-level rates pool every cell's
    games.
    """
    check_baseline(job, baseline)
    by_cell: dict[int, list[GameOutcome]] = {c.index: [] for c in job.cells}
    for outcome in sorted(outcomes, key=lambda o: (o.cell, o.game)):
        by_cell[outcome.cell].append(outcome)
    pooled = cell_report([o for c in job.cells for o in by_cell[c.index]], job.sides)
    head: dict[str, Any] = {
        "scenario": job.scenario,
        "runs": runs,
        "wins": pooled["wins"],
        "draws": pooled["draws"],
        "win_rate": pooled["win_rate"],
        "seed": job.seed,
        "bots": dict(job.bots),
    }
    if not job.is_sweep:
        return {**head, **{k: v for k, v in pooled.items() if k not in head and k != "runs"}}
    base = by_cell[baseline]
    cells = [
        {
            "cell": c.index,
            "label": c.label_json(),
            **cell_report(by_cell[c.index], job.sides),
            "paired": None
            if c.index == baseline
            else paired_report(by_cell[c.index], base, job.sides),
        }
        for c in job.cells
    ]
    sweep: dict[str, Any] = {
        "vary": list(job.parameters),
        "vs": {},
        "baseline": {"cell": baseline, "label": job.cells[baseline].label_json()},
    }
    for side in job.vs:
        key = f"vs.{side}"
        sweep["vs"][side] = list(dict.fromkeys(c.label_json()[key] for c in job.cells))
    return {
        **head,
        "games": pooled["runs"],
        "p": pooled["p"],
        "draw_rate": pooled["draw_rate"],
        "sweep": sweep,
        "cells": cells,
    }


__all__ = ["LOSS_COUNT", "cell_report", "check_baseline", "paired_report", "sim_report"]
