"""The four requests a rule procedure may yield, and the message value they carry
(:class:`~kubik.text.message.Message`, re-exported here for rule modules).

A procedure is a generator: it yields requests, receives answers and returns a
frozen, hashable outcome. Drivers decide how a request is answered, so one rule
serves the referee, the odds calculator, the bots and the simulator.

>>> from kubik.engine.dice import D6, D8
>>> r = Roll((D6, D8), "shooter's pool")
>>> r.reason
Message(id="shooter's pool", params=())
>>> Choose(("rider", "mount"), side="a", reason="strike which?").default
'rider'
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Generic, TypeAlias, TypeVar, TypeVarTuple, Unpack, overload

from kubik.core.errors import KubikError, ProcedureError
from kubik.engine.dice import Die
from kubik.engine.tally import Tally
from kubik.text.message import Message, msg

T = TypeVar("T")
#: The positional arguments of a sub-procedure: a Call's ``args`` must fit its signature.
Ts = TypeVarTuple("Ts")
#: Rule IDs of the catalogue (``SW-FIRE-01``) that a request applies, for the log.
RuleIds: TypeAlias = tuple[str, ...]


#: Rule-ID annotations already checked (rules build the same requests over and over).
_CHECKED_RULES: dict[RuleIds | str, RuleIds] = {(): ()}


def _rule_ids(rules: RuleIds | list[str] | str) -> RuleIds:
    if not isinstance(rules, list):
        known = _CHECKED_RULES.get(rules)
        if known is not None:
            return known
    ids = (rules,) if isinstance(rules, str) else tuple(rules)
    for rule in ids:
        if not isinstance(rule, str) or rule.count("-") < 2:
            raise ProcedureError(f"{rule!r} is not a rule ID (like 'SW-FIRE-01')")
    if not isinstance(rules, list) and len(_CHECKED_RULES) < 4096:
        _CHECKED_RULES[rules] = ids
    return ids


def _as_message(reason: Message | str) -> Message:
    return reason if isinstance(reason, Message) else Message(reason)


class Request:
    """What a procedure may yield: a :class:`Roll`, :class:`Choose`, :class:`Call` or
    :class:`Emit` (a closed set; drivers answer each kind).

    A plain base class, not a union: a ``yield Call(...)`` is then type-checked
    against the called procedure's own signature instead of taking the generator's
    yield type as its context.
    """

    __slots__ = ()


#: Reduces the faces of a roll to the only thing the rule needs from them.
Reducer: TypeAlias = Callable[[tuple[int, ...]], Hashable]


@dataclass(frozen=True, slots=True, init=False)
class Roll(Request):
    """Roll ``dice`` now; the answer is the tuple of values (in the order of ``dice``).

    ``unordered``: the dice are identical and order does not matter; every driver
    then answers with the values sorted ascending, and the odds driver walks
    multisets. ``reduce``: a pure function of the values; every driver answers
    with ``reduce(values)``, so the odds driver can branch over its few results
    instead of every face. A reducer with a fold form (``start()``,
    ``step(state, value)``, ``finish(state)``, applied to the dice in order) is
    evaluated die by die; one with a ``batch(faces: ndarray) -> ndarray`` method in
    one vectorised pass.
    ``roller`` names who rolls (a side or a role), for the table. ``rules`` names
    the catalogue's rule IDs the roll applies (the log carries them; ``kubik
    coverage`` counts them).

    ``leads_to`` promises what the procedure asks after each answer: nothing but
    ``leads_to(answer)``, a ``tail`` call (events aside). The odds driver then takes
    each answer's call's outcomes as the procedure's instead of replaying the procedure
    once per answer (a roll whose answer picks the step that ends its procedure); it
    holds the procedure to the promise on the answer it sends on.
    """

    dice: tuple[Die, ...]
    reason: Message
    unordered: bool
    reduce: Reducer | None
    roller: str
    rules: RuleIds
    leads_to: Callable[[Any], AnyCall] | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        dice: tuple[Die, ...] | Die,
        reason: Message | str,
        *,
        unordered: bool = False,
        reduce: Reducer | None = None,
        roller: str = "",
        rules: RuleIds | list[str] | str = (),
        leads_to: Callable[[Any], AnyCall] | None = None,
    ) -> None:
        dice_tuple = (dice,) if isinstance(dice, Die) else tuple(dice)
        if not dice_tuple:
            raise ProcedureError("a Roll needs at least one die")
        if unordered and len(set(dice_tuple)) != 1:
            raise ProcedureError("an unordered Roll must be of identical dice")
        _set_roll_dice(self, dice_tuple)
        _set_roll_reason(self, reason if isinstance(reason, Message) else Message(reason))
        _set_roll_unordered(self, unordered)
        _set_roll_reduce(self, reduce)
        _set_roll_roller(self, roller)
        _set_roll_rules(self, _rule_ids(rules))
        _set_roll_leads_to(self, leads_to)

    def canonical(self, values: tuple[int, ...]) -> tuple[int, ...]:
        """The values as the procedure sees them (sorted when unordered)."""
        return tuple(sorted(values)) if self.unordered else values

    def answer(self, values: tuple[int, ...]) -> Any:
        """What the procedure receives for these rolled values."""
        canonical = self.canonical(values)
        return self.reduce(canonical) if self.reduce is not None else canonical


# Rolls are built thousands of times while odds are enumerated: set their slots directly.
_set_roll_dice = Roll.__dict__["dice"].__set__
_set_roll_reason = Roll.__dict__["reason"].__set__
_set_roll_unordered = Roll.__dict__["unordered"].__set__
_set_roll_reduce = Roll.__dict__["reduce"].__set__
_set_roll_roller = Roll.__dict__["roller"].__set__
_set_roll_rules = Roll.__dict__["rules"].__set__
_set_roll_leads_to = Roll.__dict__["leads_to"].__set__

#: What an outcome is worth to the side choosing (higher is better).
Worth: TypeAlias = int | float | Fraction


class AnyForecast:
    """A :class:`Forecast` of any procedure, as containers of forecasts hold them.

    A plain base class, so that building a ``Forecast(procedure, args, ...)`` where
    an ``AnyForecast`` is expected still checks ``args`` against the procedure.
    """

    __slots__ = ()

    @property
    def procedure(self) -> Callable[..., Generator[Any, Any, Any]] | None:
        """The rule the option leads to (``None``: a plain score)."""
        raise NotImplementedError

    @property
    def args(self) -> tuple[Any, ...]:
        """The situation it would meet: the procedure's arguments."""
        raise NotImplementedError

    @property
    def value(self) -> Callable[[Any], Worth] | None:
        """What each outcome is worth to the side choosing."""
        raise NotImplementedError

    @property
    def score(self) -> float:
        """A plain positional judgement added to the expected value."""
        raise NotImplementedError

    @property
    def sides(self) -> tuple[tuple[str, Message], ...]:
        """Who the side letters of its outcomes stand for (``("a", the charger's name)``),
        the side choosing first: people read "Greatswords win", never "winner: a".
        Empty when its outcomes name no sides."""
        return ()


@dataclass(frozen=True, slots=True, init=False)
class Forecast(AnyForecast, Generic[T, *Ts]):
    """What choosing an option sets in motion, so it can be judged before it is taken.

    ``procedure(*args)`` is the rule the option leads to (a fire, a charge, a wound
    roll) on the situation it would meet, and ``value`` says how much each of its
    outcomes is worth to the side choosing (higher is better). The heuristic bot and
    the odds shown to players compute the procedure's exact distribution with the
    odds driver, so an option is judged by the rule itself, never by a copy of it.
    ``score`` is added to the expected value: a plain positional judgement for what
    no dice decide (closing in, reaching cover); a forecast with no procedure is
    that score alone. ``args`` are type-checked against the procedure's signature.

    >>> Forecast(score=2.5).procedure is None
    True
    """

    procedure: Callable[[Unpack[Ts]], Generator[Any, Any, T]] | None
    args: tuple[*Ts]
    value: Callable[[T], Worth] | None
    score: float
    sides: tuple[tuple[str, Message], ...] = field(compare=False)

    @overload
    def __init__(self: Forecast[Any, *tuple[Any, ...]], *, score: float) -> None: ...

    @overload
    def __init__(
        self,
        procedure: Callable[[Unpack[Ts]], Generator[Any, Any, T]],
        args: tuple[*Ts],
        *,
        value: Callable[[T], Worth],
        score: float = 0.0,
        sides: tuple[tuple[str, Message], ...] = (),
    ) -> None: ...

    def __init__(
        self,
        procedure: Callable[[Unpack[Ts]], Generator[Any, Any, T]] | None = None,
        args: tuple[*Ts] | tuple[()] = (),
        *,
        value: Callable[[T], Worth] | None = None,
        score: float = 0.0,
        sides: tuple[tuple[str, Message], ...] = (),
    ) -> None:
        if procedure is not None and value is None:
            raise ProcedureError("a Forecast with a procedure needs a value for its outcomes")
        object.__setattr__(self, "procedure", procedure)
        object.__setattr__(self, "args", tuple(args))
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "sides", sides)


class EntryError(KubikError, ValueError):
    """A typed answer the rules do not accept; ``message`` says why, in either language."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Entry:
    """How a person at a real table may answer a decision by typing what happened
    instead of picking an option: where a model was moved to, what the players
    measured. ``read`` turns the text into the value the game receives (it checks it
    with the rules and raises :class:`EntryError` saying why when they do not allow
    it); ``hint`` tells people what to type; ``label``, when given, how the value read
    reads in the log (an option's own label otherwise). Bots and the odds driver never
    type: they pick among the options. A save keeps the text, so a replay reads it again.
    """

    hint: Message
    read: Callable[[str], Hashable]
    label: Callable[[Hashable], Message] | None = None


@dataclass(frozen=True, slots=True, init=False)
class Choose(Request):
    """A decision for ``side``; the answer is one of ``options``.

    ``default`` (the first option unless given) is what a bot, the odds driver's
    default policy, or an impatient player takes. ``forecasts`` (empty, or one per
    option, ``None`` where nothing can be foreseen) let bots and players weigh the
    options by the rules' exact odds. ``labels`` (empty, or one message per
    option) show the options to people; without them an option with a ``label``
    property (a :class:`Message`) is shown by that label. Options themselves stay
    plain values (ids, numbers, enums), which is what a save records. ``rules``
    names the catalogue's rule IDs the decision applies. ``entry``: a person may
    type the answer instead (see :class:`Entry`).

    ``costs`` (empty, or one number per option) are the resources each option
    spends (Fame, Fortune points): between equally good options the optimal policy
    takes the one that spends least over the rest of the procedure. ``sealed``
    marks a secret bid: sealed decisions of different sides asked one right after
    the other are made at once, none seeing the others (the optimal policy solves
    them as a zero-sum game; play and table drivers ask them in turn, and a game
    shows a sealed answer to nobody until the next event, the reveal).
    """

    options: tuple[Hashable, ...]
    side: str
    reason: Message
    default: Hashable
    forecasts: tuple[AnyForecast | None, ...]
    labels: tuple[Message, ...]
    rules: RuleIds
    entry: Entry | None
    costs: tuple[int, ...]
    sealed: bool

    def __init__(
        self,
        options: tuple[Hashable, ...] | list[Hashable],
        side: str,
        reason: Message | str,
        default: Hashable = None,
        forecasts: tuple[AnyForecast | None, ...] | list[AnyForecast | None] = (),
        *,
        labels: tuple[Message, ...] | list[Message] = (),
        rules: RuleIds | list[str] | str = (),
        entry: Entry | None = None,
        costs: tuple[int, ...] | list[int] = (),
        sealed: bool = False,
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
        names = tuple(labels)
        if names and len(names) != len(opts):
            raise ProcedureError(
                f"a Choose has {len(opts)} options but {len(names)} labels; give one per option"
            )
        spent = tuple(costs)
        if spent and len(spent) != len(opts):
            raise ProcedureError(
                f"a Choose has {len(opts)} options but {len(spent)} costs; give one per option"
            )
        object.__setattr__(self, "forecasts", given)
        object.__setattr__(self, "labels", names)
        object.__setattr__(self, "rules", _rule_ids(rules))
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "costs", spent)
        object.__setattr__(self, "sealed", sealed)

    def forecast(self, option: Hashable) -> AnyForecast | None:
        """The forecast given for ``option`` (``None`` if none was given)."""
        if not self.forecasts:
            return None
        return self.forecasts[self.options.index(option)]

    def cost(self, option: Hashable) -> int:
        """The resources ``option`` spends (0 unless ``costs`` were given)."""
        if not self.costs:
            return 0
        return self.costs[self.options.index(option)]

    def label(self, option: Hashable) -> Message | None:
        """How ``option`` is shown to people: its label in ``labels``, else its own."""
        if self.labels:
            return self.labels[self.options.index(option)]
        return option_label(option)


def option_label(option: Any) -> Message | None:
    """How an option is shown to people: its ``label`` message, if it has one."""
    label = getattr(option, "label", None)
    return label if isinstance(label, Message) else None


@dataclass(frozen=True, slots=True)
class Call(Request, Generic[T, *Ts]):
    """Run a sub-procedure ``procedure(*args)`` and answer with its outcome.

    ``args`` are type-checked against the procedure's signature (mypy), so a rule
    whose signature changes fails the type check, not a battle. ``times`` > 1 runs
    it that many times independently and answers with a :class:`Tally` of the
    outcomes (a multiset: order never matters, so the odds driver combines the runs
    by multinomial convolution instead of nesting them). ``reduce`` maps the answer
    (outcome or tally) to what the caller needs; with ``times``, a reducer with a fold
    form (``start()``, ``step(state, outcome)``, ``finish(state)``, giving ``reduce`` of
    the tally whatever the order of its outcomes) lets the odds driver fold the runs one
    by one instead of counting every tally (while that is the cheaper way: where many
    tallies give one answer, or the runs are few).

    ``inline`` marks a call that is a step of its caller, split off only so that the
    odds driver keeps the step's outcomes by its arguments (a run of strikes whose
    paths are many and outcomes few): its rolls and events are logged at the caller's
    depth, as if the caller had made them.

    ``tail`` promises that the caller returns this call's answer as its own outcome
    and asks nothing after it (events aside): the odds driver then takes the answers'
    weights as the caller's outcomes instead of replaying the caller once per answer.
    Every driver holds a procedure to the promise (:class:`~kubik.core.errors.ProcedureError`).

    ``then`` (with ``tail`` only) widens the promise: the caller returns ``then(answer)``,
    not the answer itself, while its events after the call may still read the whole
    answer (a bout narrates the margin and returns only who won): the odds driver maps
    the call's answers through ``then`` instead of replaying the caller for each.
    """

    procedure: Callable[[Unpack[Ts]], Generator[Any, Any, T]]
    args: tuple[*Ts]
    times: int | None = None
    reduce: Callable[[Any], Hashable] | None = None
    inline: bool = False
    tail: bool = False
    then: Callable[[Any], Hashable] | None = None

    def __post_init__(self) -> None:
        if self.times is not None and self.times < 0:
            raise ProcedureError("Call.times cannot be negative")
        if self.then is not None and not self.tail:
            raise ProcedureError("Call.then is the outcome a tail call's caller promises")

    @property
    def answered(self) -> Hashable:
        """What this call's answers depend on (not ``tail``, ``then``, ``inline``)."""
        return (self.procedure, self.args, self.times, self.reduce)

    def promised(self, answer: Any) -> Any:
        """The outcome a ``tail`` call's caller promises after ``answer``."""
        then = self.then
        return answer if then is None else then(answer)


#: A call of any procedure (what drivers handle).
AnyCall: TypeAlias = Call[Any, *tuple[Any, ...]]

#: Inline steps kept (an engine limit, not a rule): see :func:`step`.
STEPS_KEPT = 2048


def step(procedure: Callable[[*Ts], Generator[Any, Any, T]], *args: *Ts) -> Call[T, *Ts]:
    """``Call(procedure, args, inline=True)``, one object per arguments: a step of its
    caller (a loop written as a step that calls itself on its new state). The exact
    odds replay such steps over and over, and a request met again is known by its
    identity, so equal steps are the same object (the last :data:`STEPS_KEPT` kept)."""
    made: Call[T, *Ts] = _steps(procedure, args, False)
    return made


def tail_step(procedure: Callable[[*Ts], Generator[Any, Any, T]], *args: *Ts) -> Call[T, *Ts]:
    """:func:`step` as its caller's last request, whose outcome the caller returns as
    its own (``return (yield tail_step(...))``, a ``tail`` call): the exact odds of the
    caller are then its steps' odds, without replaying the caller for each."""
    made: Call[T, *Ts] = _steps(procedure, args, True)
    return made


@lru_cache(maxsize=STEPS_KEPT)
def _steps(procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...], tail: bool) -> AnyCall:
    return Call(procedure, args, inline=True, tail=tail)


@dataclass(frozen=True, slots=True)
class Emit(Request):
    """Something happened, for the narrated log; the answer is ``None``.

    ``rules`` names the catalogue's rule IDs whose consequence this is.
    """

    event: Message
    rules: RuleIds = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", _rule_ids(self.rules))


#: A rule procedure: yields requests, returns an outcome of type T.
Procedure: TypeAlias = Generator[Request, Any, T]


#: Whether events are being narrated: the odds driver replays procedures thousands of
#: times and ignores their events, so it turns narration off while it enumerates.
_NARRATING: ContextVar[bool] = ContextVar("kubik_narrating", default=True)
#: The one event every :func:`emit` returns while narration is off.
SILENT = Emit(Message("kubik.silent"))


@contextmanager
def silenced() -> Iterator[None]:
    """Within the block, :func:`emit` builds no events (it returns :data:`SILENT`)."""
    token = _NARRATING.set(False)
    try:
        yield
    finally:
        _NARRATING.reset(token)


def narrating() -> bool:
    """Whether events are being narrated (not :func:`silenced`): a procedure whose
    events need work to phrase may skip them while the exact odds replay it."""
    return _NARRATING.get()


def emit(message_id: str, /, *, rules: RuleIds | str = (), **params: Any) -> Emit:
    """Shorthand for ``Emit(msg(message_id, **params), rules)``.

    While narration is :func:`silenced` (exact odds), the shared :data:`SILENT` event.
    """
    if not _NARRATING.get():
        return SILENT
    return Emit(msg(message_id, **params), _rule_ids(rules))


__all__ = [
    "SILENT",
    "AnyCall",
    "AnyForecast",
    "Call",
    "Choose",
    "Emit",
    "Entry",
    "EntryError",
    "Forecast",
    "Message",
    "Procedure",
    "Reducer",
    "Request",
    "Roll",
    "RuleIds",
    "Tally",
    "Worth",
    "emit",
    "msg",
    "narrating",
    "option_label",
    "silenced",
    "step",
    "tail_step",
]
