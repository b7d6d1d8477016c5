"""kubik's Python API: the same calls as the CLI, returning the same JSON-ready dicts.

>>> import kubik.api as api
>>> out = api.resolve("steel_war.morale_test",
...                   {"quality": "d8", "leadership": 2, "threat": 6}, dice=[6])
>>> out["outcome"], out["rolls"][0]["values"]
({'drop': 1}, [6])
>>> [o["probability"] for o in api.odds("old_west.wound",
...                                      {"strength": 3, "toughness": 8})["outcomes"]]
['11/12', '1/12']

The calls live by concept: :mod:`.inputs` (JSON and a procedure's input, checked),
:mod:`.resolution` (the procedures, one resolved), :mod:`.probabilities` (exact odds and
estimates under a policy), :mod:`.battles` (coverage, simulations). :mod:`.words` and
:mod:`.odds_words` say outcomes, options and odds for people, for the terminal and the web
alike.
"""

from kubik.api.battles import (
    coverage,
    sim,
    sim_battles,
    sim_bots,
    sim_procedure,
    sim_solve,
)
from kubik.api.inputs import (
    InputLike,
    check_depth,
    parse_input,
    parse_json,
    validation_message,
    validation_problem,
)
from kubik.api.probabilities import (
    Objective,
    check_runs,
    clear_cache,
    compare_policies,
    estimates,
    exact_distribution,
    has_decisions,
    marginals,
    odds,
    policies,
)
from kubik.api.resolution import log_entry_json, procedures, resolve, resolve_with_outcome

__all__ = [
    "InputLike",
    "Objective",
    "check_depth",
    "check_runs",
    "clear_cache",
    "compare_policies",
    "coverage",
    "estimates",
    "exact_distribution",
    "has_decisions",
    "log_entry_json",
    "marginals",
    "odds",
    "parse_input",
    "parse_json",
    "policies",
    "procedures",
    "resolve",
    "resolve_with_outcome",
    "sim",
    "sim_battles",
    "sim_bots",
    "sim_procedure",
    "sim_solve",
    "validation_message",
    "validation_problem",
]
