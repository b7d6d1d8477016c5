"""The procedure engine: requests, the registry and the four drivers.

A rule is a generator that yields :class:`Roll`, :class:`Choose`, :class:`Call` and
:class:`Emit` and returns a frozen outcome; :func:`play`, :class:`TableSession`,
:class:`OddsDriver` and :func:`simulate` answer them.
"""

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
from kubik.engine.permission import Permission, Verdict
from kubik.engine.registry import ProcedureInput, ProcedureSpec, procedure
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
from kubik.engine.tally import Tally

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
