"""``brawl.strike``: one strike, for ``kubik odds`` and ``kubik resolve``."""

from __future__ import annotations

from pydantic import Field

from brawl_rules.strike import need, strike
from kubik.engine import Procedure
from kubik.engine.registry import ProcedureInput, procedure


class StrikeInput(ProcedureInput):
    """What a strike needs on a d6 (the ruleset's data by default)."""

    need: int | None = Field(default=None, ge=2, le=6)


@procedure("brawl.strike", input=StrikeInput, rules=["BR-STRIKE-01"], examples=[{}, {"need": 5}])
def strike_procedure(inp: StrikeInput) -> Procedure[bool]:
    """One strike: a d6 that puts the foe down on the number needed or more."""
    return (yield from strike(inp.need if inp.need is not None else need()))
