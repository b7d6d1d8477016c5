"""The four requests a rule procedure may yield, and the message value they carry.

A procedure is a generator: it yields requests, receives answers and returns a
frozen, hashable outcome. Drivers decide how a request is answered, so one rule
serves the referee, the odds calculator, the bots and the simulator.

>>> from kubik.dice import D6, D8
>>> r = Roll((D6, D8), "shooter's pool")
>>> r.reason
Message(id="shooter's pool", params=())
>>> Choose(("rider", "mount"), side="a", reason="strike which?").default
'rider'
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias, TypeVar

from kubik.dice import Die
from kubik.engine.tally import Tally
from kubik.errors import ProcedureError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Message:
    """A structured piece of text: a catalogue message id and its parameters.

    Never pre-formatted: it is rendered per language at the edge (CLI, web).
    """

    id: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        """The parameters as a dict (for rendering and JSON)."""
        return dict(self.params)


def msg(message_id: str, /, **params: Any) -> Message:
    """Build a :class:`Message`: ``msg("kubik.test.plural", n=2)``."""
    return Message(message_id, tuple(params.items()))


def _as_message(reason: Message | str) -> Message:
    return reason if isinstance(reason, Message) else Message(reason)


#: Reduces the faces of a roll to the only thing the rule needs from them.
Reducer: TypeAlias = Callable[[tuple[int, ...]], Hashable]


@dataclass(frozen=True, slots=True, init=False)
class Roll:
    """Roll ``dice`` now; the answer is the tuple of values (in the order of ``dice``).

    ``unordered``: the dice are identical and order does not matter; every driver
    then answers with the values sorted ascending, and the odds driver walks
    multisets. ``reduce``: a pure function of the values; every driver answers
    with ``reduce(values)``, so the odds driver can branch over its few results
    instead of every face. A reducer with a fold form (``start()``,
    ``step(state, value)``, ``finish(state)``, applied to the dice in order) is
    evaluated die by die; one with a ``batch(faces: ndarray) -> ndarray`` method in
    one vectorised pass.
    ``roller`` names who rolls (a side or a role), for the table.
    """

    dice: tuple[Die, ...]
    reason: Message
    unordered: bool
    reduce: Reducer | None
    roller: str

    def __init__(
        self,
        dice: tuple[Die, ...] | Die,
        reason: Message | str,
        *,
        unordered: bool = False,
        reduce: Reducer | None = None,
        roller: str = "",
    ) -> None:
        dice_tuple = (dice,) if isinstance(dice, Die) else tuple(dice)
        if not dice_tuple:
            raise ProcedureError("a Roll needs at least one die")
        if unordered and len(set(dice_tuple)) != 1:
            raise ProcedureError("an unordered Roll must be of identical dice")
        object.__setattr__(self, "dice", dice_tuple)
        object.__setattr__(self, "reason", _as_message(reason))
        object.__setattr__(self, "unordered", unordered)
        object.__setattr__(self, "reduce", reduce)
        object.__setattr__(self, "roller", roller)

    def canonical(self, values: tuple[int, ...]) -> tuple[int, ...]:
        """The values as the procedure sees them (sorted when unordered)."""
        return tuple(sorted(values)) if self.unordered else values

    def answer(self, values: tuple[int, ...]) -> Any:
        """What the procedure receives for these rolled values."""
        canonical = self.canonical(values)
        return self.reduce(canonical) if self.reduce is not None else canonical


@dataclass(frozen=True, slots=True)
class Forecast:
    """What choosing an option sets in motion, so it can be judged before it is taken.

    ``procedure(*args)`` is the rule the option leads to (a fire, a charge, a wound
    roll) on the situation it would meet, and ``value`` says how much each of its
    outcomes is worth to the side choosing (higher is better). The heuristic bot and
    the odds shown to players compute the procedure's exact distribution with the
    odds driver, so an option is judged by the rule itself, never by a copy of it.
    ``score`` is added to the expected value: a plain positional judgement for what
    no dice decide (closing in, reaching cover); a forecast with no procedure is
    that score alone.

    >>> Forecast(score=2.5).procedure is None
    True
    """

    procedure: Callable[..., Generator[Any, Any, Any]] | None = None
    args: tuple[Hashable, ...] = ()
    value: Callable[[Any], int | float | Fraction] | None = None
    score: float = 0.0

    def __post_init__(self) -> None:
        if self.procedure is not None and self.value is None:
            raise ProcedureError("a Forecast with a procedure needs a value for its outcomes")


@dataclass(frozen=True, slots=True, init=False)
class Choose:
    """A decision for ``side``; the answer is one of ``options``.

    ``default`` (the first option unless given) is what a bot, the odds driver's
    default policy, or an impatient player takes. ``forecasts`` (empty, or one per
    option, ``None`` where nothing can be foreseen) let bots and players weigh the
    options by the rules' exact odds. An option with a ``label`` property (a
    :class:`Message`) is shown to people by that label.
    """

    options: tuple[Hashable, ...]
    side: str
    reason: Message
    default: Hashable
    forecasts: tuple[Forecast | None, ...]

    def __init__(
        self,
        options: tuple[Hashable, ...] | list[Hashable],
        side: str,
        reason: Message | str,
        default: Hashable = None,
        forecasts: tuple[Forecast | None, ...] | list[Forecast | None] = (),
    ) -> None:
        opts = tuple(options)
        if not opts:
            raise ProcedureError("a Choose needs at least one option")
        chosen_default = opts[0] if default is None else default
        if chosen_default not in opts:
            raise ProcedureError(f"default {chosen_default!r} is not one of the options")
        given = tuple(forecasts)
        if given and len(given) != len(opts):
            raise ProcedureError(
                f"a Choose has {len(opts)} options but {len(given)} forecasts; give one per option"
            )
        object.__setattr__(self, "options", opts)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "reason", _as_message(reason))
        object.__setattr__(self, "default", chosen_default)
        object.__setattr__(self, "forecasts", given)

    def forecast(self, option: Hashable) -> Forecast | None:
        """The forecast given for ``option`` (``None`` if none was given)."""
        if not self.forecasts:
            return None
        return self.forecasts[self.options.index(option)]


def option_label(option: Any) -> Message | None:
    """How an option is shown to people: its ``label`` message, if it has one."""
    label = getattr(option, "label", None)
    return label if isinstance(label, Message) else None


@dataclass(frozen=True, slots=True)
class Call:
    """Run a sub-procedure ``procedure(*args)`` and answer with its outcome.

    ``times`` > 1 runs it that many times independently and answers with a
    :class:`Tally` of the outcomes (a multiset: order never matters, so the odds
    driver combines the runs by multinomial convolution instead of nesting them).
    ``reduce`` maps the answer (outcome or tally) to what the caller needs.
    """

    procedure: Callable[..., Generator[Any, Any, Any]]
    args: tuple[Hashable, ...] = ()
    times: int | None = None
    reduce: Callable[[Any], Hashable] | None = None

    def __post_init__(self) -> None:
        if self.times is not None and self.times < 0:
            raise ProcedureError("Call.times cannot be negative")


@dataclass(frozen=True, slots=True)
class Emit:
    """Something happened, for the narrated log; the answer is ``None``."""

    event: Message


Request: TypeAlias = Roll | Choose | Call | Emit
#: A rule procedure: yields requests, returns an outcome of type T.
Procedure: TypeAlias = Generator[Request, Any, T]


def emit(message_id: str, /, **params: Any) -> Emit:
    """Shorthand for ``Emit(msg(message_id, **params))``."""
    return Emit(msg(message_id, **params))


__all__ = [
    "Call",
    "Choose",
    "Emit",
    "Forecast",
    "Message",
    "Procedure",
    "Reducer",
    "Request",
    "Roll",
    "Tally",
    "emit",
    "msg",
    "option_label",
]
