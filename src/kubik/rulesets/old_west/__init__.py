"""Legends of the Old West (Russian translation): seed 002.

Importing this package imports nothing else. The engine imports the module that
registers the procedure asked for (:data:`PROCEDURES`), every module of
:mod:`.procedures` when the whole ruleset is wanted, and the goals of every rule with
decisions (:mod:`.objectives`) when the optimal policy asks for them.
:func:`policies` names the Fame rules of thumb (``default``: spend nothing;
``just_enough``: spend just enough to succeed) for showing odds side by side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kubik.engine.odds import Policy

#: Each public procedure → the module that registers it (under this package), so a
#: question about one procedure imports that module alone. A test checks it against
#: what every module of :mod:`.procedures` registers.
PROCEDURES: dict[str, str] = {
    "advantage": "procedures.heroics",
    "combat": "procedures.combat",
    "diving_for_cover": "procedures.pluck",
    "fall_from_horse": "procedures.heroics",
    "falling": "procedures.heroics",
    "fearsome_reputation": "procedures.pluck",
    "fight": "procedures.fight",
    "fortune": "procedures.heroics",
    "head_for_the_hills": "procedures.pluck",
    "heroic_order": "procedures.heroics",
    "jump_test": "procedures.heroics",
    "pluck_test": "procedures.pluck",
    "shoot": "procedures.heroics",
    "wound": "procedures.wound",
}


def policies() -> dict[str, Policy]:
    """The Fame rules of thumb by name (:func:`kubik.rulesets.old_west.fame.policies`)."""
    from kubik.rulesets.old_west.fame import policies as fame_policies

    return fame_policies()


__all__ = ["PROCEDURES", "policies"]
