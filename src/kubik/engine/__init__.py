"""The procedure engine: requests, the registry and the four drivers.

A rule is a generator that yields :class:`Roll`, :class:`Choose`, :class:`Call` and
:class:`Emit` and returns a frozen outcome; :func:`play`, :class:`TableSession`,
:class:`OddsDriver` and :func:`simulate` answer them.

Importing the package loads only the requests and permissions (what every rule module
needs); the drivers and the registry are loaded the first time one of their names is
used, so a command that needs one driver does not pay for all of them.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from kubik.engine.permission import Permission, Verdict
from kubik.engine.requests import (
    AnyCall,
    AnyForecast,
    Call,
    Choose,
    Emit,
    Entry,
    EntryError,
    Forecast,
    Message,
    Procedure,
    Request,
    Roll,
    emit,
    msg,
    option_label,
)
from kubik.engine.tally import Tally

if TYPE_CHECKING:
    from kubik.engine.distribution import Distribution, multiset_weights
    from kubik.engine.forecast import expected_value, forecast_distribution
    from kubik.engine.log import (
        Answer,
        ChoiceAnswer,
        ChoiceEntry,
        ChoiceOrigin,
        DiceOrigin,
        EventEntry,
        LogEntry,
        RollAnswer,
        RollEntry,
    )
    from kubik.engine.odds import OddsCache, OddsDriver, Policy, default_policy, roll_branches
    from kubik.engine.registry import ProcedureInput, ProcedureSpec, procedure
    from kubik.engine.run import (
        DefaultChooser,
        PolicyChooser,
        RandomDice,
        RunResult,
        TableSession,
        TypedDice,
        play,
        run,
    )
    from kubik.engine.simulate import Estimate, Simulation, simulate, wilson_interval

#: Names loaded on first use, by the module that defines them.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Distribution", "multiset_weights"), "kubik.engine.distribution"),
    **dict.fromkeys(("expected_value", "forecast_distribution"), "kubik.engine.forecast"),
    **dict.fromkeys(
        (
            "Answer",
            "ChoiceAnswer",
            "ChoiceEntry",
            "ChoiceOrigin",
            "DiceOrigin",
            "EventEntry",
            "LogEntry",
            "RollAnswer",
            "RollEntry",
        ),
        "kubik.engine.log",
    ),
    **dict.fromkeys(
        ("OddsCache", "OddsDriver", "Policy", "default_policy", "roll_branches"),
        "kubik.engine.odds",
    ),
    **dict.fromkeys(("ProcedureInput", "ProcedureSpec", "procedure"), "kubik.engine.registry"),
    **dict.fromkeys(
        (
            "DefaultChooser",
            "PolicyChooser",
            "RandomDice",
            "RunResult",
            "TableSession",
            "TypedDice",
            "play",
            "run",
        ),
        "kubik.engine.run",
    ),
    **dict.fromkeys(
        ("Estimate", "Simulation", "simulate", "wilson_interval"), "kubik.engine.simulate"
    ),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kubik.engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


class _Engine(types.ModuleType):
    """This package, whose names ``run`` and ``simulate`` stay the functions.

    They are also the names of modules (``kubik.engine.run``, ``kubik.engine.simulate``),
    and importing a submodule sets the package's attribute of its name to the module;
    here that is refused, so ``from kubik.engine import run`` is the function whichever
    was imported first (the modules stay in ``sys.modules``).
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("run", "simulate") and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Engine


__all__ = [
    "Answer",
    "AnyCall",
    "AnyForecast",
    "Call",
    "ChoiceAnswer",
    "ChoiceEntry",
    "ChoiceOrigin",
    "Choose",
    "DefaultChooser",
    "DiceOrigin",
    "Distribution",
    "Emit",
    "Entry",
    "EntryError",
    "Estimate",
    "EventEntry",
    "Forecast",
    "LogEntry",
    "Message",
    "OddsCache",
    "OddsDriver",
    "Permission",
    "Policy",
    "PolicyChooser",
    "Procedure",
    "ProcedureInput",
    "ProcedureSpec",
    "RandomDice",
    "Request",
    "Roll",
    "RollAnswer",
    "RollEntry",
    "RunResult",
    "Simulation",
    "TableSession",
    "Tally",
    "TypedDice",
    "Verdict",
    "default_policy",
    "emit",
    "expected_value",
    "forecast_distribution",
    "msg",
    "multiset_weights",
    "option_label",
    "play",
    "procedure",
    "roll_branches",
    "run",
    "simulate",
    "wilson_interval",
]
