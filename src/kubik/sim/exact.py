"""``kubik sim PROC --input ...``: Monte Carlo on one procedure, checked against its exact odds.

A question the odds driver answers exactly (one procedure on one input) is also
simulated — with the procedure's vectorised batch form when it has one, else by
stepping its generator — and the estimate is compared with the exact distribution:
each outcome's frequency with its 95% interval beside its exact probability, and
Pearson's chi-square over every outcome (rare ones pooled). A p-value below
:data:`ALPHA` says the simulation and the exact odds disagree — a bug in a batch
form, or in the drivers — and the report says so.

Procedures run in this process: an odds-sized question takes a second, not a cluster.
"""

from __future__ import annotations

from typing import Any

from kubik.engine.jsonify import distribution_outcome_json, outcome_order
from kubik.engine.odds import OddsCache, OddsDriver, Policy
from kubik.engine.registry import ProcedureInput, ProcedureSpec
from kubik.engine.simulate import simulate
from kubik.sim.stats import chi_square, interval_of_rate

#: Below this p-value the estimate and the exact distribution are said to disagree
#: (a correct simulation is flagged once in a thousand seeds).
ALPHA = 0.001


def simulate_procedure(
    spec: ProcedureSpec,
    inp: ProcedureInput,
    runs: int,
    seed: int,
    policy: Policy,
    policy_name: str = "default",
    cache: OddsCache | None = None,
) -> dict[str, Any]:
    """``runs`` seeded runs of the procedure, each outcome beside its exact probability,
    and the verdict of the chi-square test (``"exact_check"``)."""
    batch = spec.batch if policy_name == "default" else None
    sim = simulate(spec.function, (inp,), runs, seed, policy, batch)
    exact = OddsDriver(policy, cache or OddsCache()).distribution(spec.function, (inp,))
    outcomes = sorted(set(exact) | set(sim.counts), key=outcome_order)
    rows: list[dict[str, Any]] = []
    inside = 0
    for outcome in outcomes:
        count = sim.counts.get(outcome, 0)
        probability = exact.get(outcome)
        low, high = interval_of_rate(count, runs)
        within = probability is not None and low <= float(probability) <= high
        inside += within
        rows.append(
            {
                "outcome": distribution_outcome_json(outcome),
                "count": count,
                "p": round(count / runs, 6),
                "interval": [low, high],
                "exact": str(probability) if probability is not None else "0",
                "exact_p": round(float(probability), 6) if probability is not None else 0.0,
                "inside": within,
            }
        )
    impossible = [o for o in sim.counts if o not in exact]
    statistic, dof, p_value = chi_square(
        [sim.counts.get(o, 0) for o in exact], [float(p) * runs for p in exact.values()]
    )
    gap = max(abs(r["p"] - r["exact_p"]) for r in rows)
    return {
        "procedure": spec.name,
        "runs": runs,
        "seed": seed,
        "policy": policy_name,
        "batch": batch is not None,
        "outcomes": rows,
        "exact_check": {
            "agrees": not impossible and p_value >= ALPHA,
            "chi2": round(statistic, 6),
            "dof": dof,
            "p_value": round(p_value, 6),
            "alpha": ALPHA,
            "inside": inside,
            "outcomes": len(rows),
            "max_gap": round(gap, 6),
            "impossible": [distribution_outcome_json(o) for o in impossible],
        },
    }


__all__ = ["ALPHA", "simulate_procedure"]
