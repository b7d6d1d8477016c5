"""What a bot weighs besides the rules' exact odds: a ruleset's tastes, kept in its data.

A forecast values an option by the exact odds of the rule it leads to; what no dice
decide (closing in, reaching cover, holding an objective, keeping Fame for later) is a
matter of taste. Those weights live in the ruleset's data (``[bot]`` in
``rulesets/<id>/data/*.toml``, with a ``default`` provenance: they are ours, not the
rulebook's), so a designer can retune a bot without touching code
(``$KUBIK_DATA_DIR/<ruleset>.toml`` overrides them like any rulebook number).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from kubik.rulesets.data import DataError, load_ruleset_data


@cache
def tastes(ruleset: str) -> Mapping[str, float]:
    """The ruleset's ``[bot]`` table: weight name → number."""
    table = load_ruleset_data(ruleset).get("bot")
    if not isinstance(table, Mapping):
        raise DataError(f"{ruleset}: no [bot] table of bot tastes in its data")
    out: dict[str, float] = {}
    for key, value in table.items():
        if key == "provenance":
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DataError(f"{ruleset}: bot.{key}: {value!r}; a number is required")
        out[key] = float(value)
    return out


def taste(ruleset: str, name: str) -> float:
    """One weight of the ruleset's bot tastes."""
    weights = tastes(ruleset)
    if name not in weights:
        known = ", ".join(sorted(weights)) or "none"
        raise DataError(f"{ruleset}: bot.{name}: no such taste; tastes: {known}")
    return weights[name]


__all__ = ["taste", "tastes"]
