"""The decision policies a ruleset offers for its exact odds, by name.

Every ruleset has the engine's two: ``default`` (each decision takes its default) and
``optimal`` (each decision solved for its side's goal); a ruleset adds its rules of
thumb between them.
"""

from __future__ import annotations

from typing import Any

from kubik.engine.odds import default_policy
from kubik.engine.registry import ruleset_package


def ruleset_policies(ruleset: str) -> dict[str, Any]:
    """The decision policies for a ruleset's exact odds, by name.

    Always ``"default"`` (every decision takes its default) first and the engine's
    ``"optimal"`` (every decision solved for its side's goal) last; a ruleset adds its
    rules of thumb between by exposing ``policies() -> dict[str, Policy]`` in its
    package (Old West: ``just_enough`` Fame).
    """
    from kubik.engine.optimal import Optimal  # loaded only when the policies are listed

    offered = getattr(ruleset_package(ruleset), "policies", None)
    found: dict[str, Any] = {"default": default_policy}
    if callable(offered):
        found.update(offered())
    found["optimal"] = Optimal()
    return found
