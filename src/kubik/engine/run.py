"""Running one procedure to its outcome: the play and table drivers.

Both drivers are the same loop with a different source of dice: a seeded random
generator (play) or values a person rolled and typed in (table). Every answer is
recorded, so a run can be replayed exactly, resumed after missing dice, or undone.

>>> import random
>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Roll
>>> def two_dice():
...     a, b = yield Roll((D6, D6), "two dice")
...     return a + b
>>> run(two_dice, (), dice=TypedDice([3, 4])).outcome
7
>>> run(two_dice, (), dice=RandomDice(random.Random(1))).outcome
7
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from kubik.core.errors import DiceAnswerError, ProcedureError
from kubik.engine.log import (
    Answer,
    ChoiceAnswer,
    ChoiceEntry,
    ChoiceOrigin,
    DiceOrigin,
    LogEntry,
    RollAnswer,
    RollEntry,
)
from kubik.engine.requests import Choose, Message, Procedure, Roll, msg
from kubik.engine.stepper import Position, Stepper

if TYPE_CHECKING:
    import numpy as np


class DiceSource(Protocol):
    """Answers rolls with raw die values (in the order of the roll's dice)."""

    origin: DiceOrigin

    def roll(self, request: Roll) -> tuple[int, ...]: ...


class Chooser(Protocol):
    """Answers decisions: a bot, a person, or a policy.

    A chooser that also has ``choose_at(request, position)`` is given the
    :data:`~kubik.engine.stepper.Position` too: the procedures the decision is part
    of, with the answers so far (what the optimal policy solves from).
    """

    origin: ChoiceOrigin

    def choose(self, request: Choose) -> Hashable: ...


def choose_with(chooser: Any, request: Choose, position: Callable[[], Position]) -> Hashable:
    """Ask ``chooser`` (a chooser or a bot), giving it the position if it takes one."""
    at = getattr(chooser, "choose_at", None)
    if at is not None:
        return at(request, position())  # type: ignore[no-any-return]
    if hasattr(chooser, "choose"):
        return chooser.choose(request)  # type: ignore[no-any-return]
    return chooser(request)  # type: ignore[no-any-return]


class RandomDice:
    """Dice from a seeded generator that the caller passes in (never a global one)."""

    origin = DiceOrigin.VIRTUAL

    def __init__(self, rng: random.Random | np.random.Generator) -> None:
        self._rng = rng

    def roll(self, request: Roll) -> tuple[int, ...]:
        if isinstance(self._rng, random.Random):
            return tuple(self._rng.randint(1, d.faces) for d in request.dice)
        return tuple(int(self._rng.integers(1, d.faces + 1)) for d in request.dice)  # numpy


class NeedDice(Exception):
    """Raised by :class:`TypedDice` when it has no values left for a roll."""

    def __init__(self, request: Roll) -> None:
        super().__init__(request)
        self.request = request


def describe_roll(request: Roll, lang: str = "en") -> str:
    """``"d6, d8 for <reason>"`` — names the dice and the reason, for errors and prompts."""
    return _render(msg("kubik.roll.describe", dice=request.dice, reason=request.reason), lang)


def _render(message: Message, lang: str) -> str:
    from kubik.text.i18n import render  # late: i18n renders engine messages, not the reverse

    return render(message, lang)


class TypedDice:
    """Values a person rolled at the table and typed in, consumed in order.

    Each value is checked against the die asked for; an impossible value is a
    :class:`DiceAnswerError` naming the die and the reason. Running out raises
    :class:`NeedDice` so the caller can ask for more and continue.
    """

    origin = DiceOrigin.TYPED

    def __init__(self, values: Iterable[int | str], lang: str = "en") -> None:
        self._queue: deque[int | str] = deque(values)
        self.used = 0
        self.lang = lang

    @property
    def remaining(self) -> int:
        """Values not yet used."""
        return len(self._queue)

    def roll(self, request: Roll) -> tuple[int, ...]:
        values: list[int] = []
        for position, die in enumerate(request.dice[: len(self._queue)]):
            raw = self._queue[position]
            number = _as_int(raw)
            where = {
                "n": self.used + position + 1,
                "die": die,
                "faces": die.faces,
                "roll": msg("kubik.roll.describe", dice=request.dice, reason=request.reason),
            }
            if number is None:
                text = _render(msg("kubik.dice.not_a_number", raw=str(raw), **where), self.lang)
                raise DiceAnswerError(text)
            if not 1 <= number <= die.faces:
                text = _render(msg("kubik.dice.impossible", value=number, **where), self.lang)
                raise DiceAnswerError(text)
            values.append(number)
        if len(values) < len(request.dice):
            raise NeedDice(request)
        for _ in request.dice:
            self._queue.popleft()
        self.used += len(values)
        return tuple(values)


def _as_int(raw: int | str) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    text = str(raw).strip()
    return int(text) if text.lstrip("-").isdigit() else None


class DefaultChooser:
    """Takes every request's default."""

    origin = ChoiceOrigin.DEFAULT

    def choose(self, request: Choose) -> Hashable:
        return request.default


class PolicyChooser:
    """Answers with a policy function (a bot, or a policy of the odds driver).

    A policy that decides from the position (the optimal policy: ``choose_at(request,
    position, cache)``) is given it, with an odds cache shared by its decisions.
    """

    def __init__(
        self,
        policy: Callable[[Choose], Hashable],
        origin: ChoiceOrigin = ChoiceOrigin.POLICY,
        cache: Any = None,
    ) -> None:
        self._policy = policy
        self.origin = origin
        self._cache = cache

    def choose(self, request: Choose) -> Hashable:
        return self._policy(request)

    def choose_at(self, request: Choose, position: Position) -> Hashable:
        at = getattr(self._policy, "choose_at", None)
        if at is None:
            return self._policy(request)
        if self._cache is None:
            from kubik.engine.odds import OddsCache  # late: odds imports this module's users

            self._cache = OddsCache()
        return at(request, position, self._cache)  # type: ignore[no-any-return]


@dataclass
class RunResult:
    """The outcome of a run with its log and every answer given."""

    outcome: Any
    log: list[LogEntry] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)

    @property
    def rolls(self) -> list[RollEntry]:
        """The roll entries of the log, in order."""
        return [e for e in self.log if isinstance(e, RollEntry)]


class _Runner:
    def __init__(self, dice: DiceSource, chooser: Chooser, replay: Sequence[Answer]) -> None:
        self.dice = dice
        self.chooser = chooser
        self.replay = list(replay)
        self.result = RunResult(None)

    def _next_recorded(self) -> Answer | None:
        index = len(self.result.answers)
        return self.replay[index] if index < len(self.replay) else None

    def _roll(self, request: Roll, depth: int) -> Any:
        recorded = self._next_recorded()
        if recorded is not None:
            if not isinstance(recorded, RollAnswer) or len(recorded.values) != len(request.dice):
                raise ProcedureError(f"recorded answer {recorded!r} does not fit {request!r}")
            values, origin = recorded.values, recorded.origin
        else:
            values, origin = self.dice.roll(request), self.dice.origin
        self.result.answers.append(RollAnswer(values, origin))
        self.result.log.append(
            RollEntry(
                request.dice, values, request.reason, origin, request.roller, depth, request.rules
            )
        )
        return request.answer(values)

    def _choose(self, request: Choose, stepper: Stepper) -> Hashable:
        depth = stepper.depth
        recorded = self._next_recorded()
        if recorded is not None:
            if not isinstance(recorded, ChoiceAnswer) or recorded.value not in request.options:
                raise ProcedureError(f"recorded answer {recorded!r} does not fit {request!r}")
            value, origin = recorded.value, recorded.origin
        else:
            value = choose_with(self.chooser, request, lambda: stepper.position)
            origin = self.chooser.origin
            if value not in request.options:
                raise ProcedureError(f"{value!r} is not an option of {request!r}")
        self.result.answers.append(ChoiceAnswer(value, origin))
        self.result.log.append(
            ChoiceEntry(
                request.side,
                request.reason,
                request.options,
                value,
                origin,
                depth,
                request.rules,
                request.label(value),
            )
        )
        return value

    def execute(self, procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]) -> Any:
        stepper = Stepper(procedure(*args), self.result.log, (procedure, args))
        request = stepper.advance()
        while request is not None:
            if isinstance(request, Roll):
                answer: Any = self._roll(request, stepper.depth)
            else:
                answer = self._choose(request, stepper)
            request = stepper.advance(answer)
        return stepper.outcome


def run(
    procedure: Callable[..., Procedure[Any]],
    args: tuple[Any, ...] = (),
    *,
    dice: DiceSource,
    chooser: Chooser | None = None,
    replay: Sequence[Answer] = (),
) -> RunResult:
    """Run ``procedure(*args)`` to its outcome.

    ``replay`` answers the first requests (a saved game, or the part of a table
    resolution already confirmed); ``dice`` and ``chooser`` answer the rest.
    """
    runner = _Runner(dice, chooser or DefaultChooser(), replay)
    runner.result.outcome = runner.execute(procedure, args)
    return runner.result


def play(
    procedure: Callable[..., Procedure[Any]],
    args: tuple[Any, ...],
    rng: random.Random | np.random.Generator,
    chooser: Chooser | None = None,
) -> RunResult:
    """The play driver: virtual dice from ``rng``, decisions from ``chooser``."""
    return run(procedure, args, dice=RandomDice(rng), chooser=chooser)


class TableSession:
    """The table driver: resolve a procedure with dice rolled by people.

    Feed it values with :meth:`supply` (as many as you have). When it needs more
    it stops with :attr:`pending` naming the roll; answers already accepted are
    kept, so supplying the rest continues where it stopped. An impossible or
    non-numeric value raises :class:`DiceAnswerError` and loses nothing accepted
    before it.
    """

    def __init__(
        self,
        procedure: Callable[..., Procedure[Any]],
        args: tuple[Any, ...] = (),
        chooser: Chooser | None = None,
    ) -> None:
        self._procedure = procedure
        self._args = args
        self._chooser = chooser or DefaultChooser()
        self.answers: list[Answer] = []
        self.pending: Roll | None = None
        self.result: RunResult | None = None
        self.dice_used = 0

    @property
    def finished(self) -> bool:
        """Whether the procedure has reached its outcome."""
        return self.result is not None

    def supply(self, values: Iterable[int | str]) -> None:
        """Answer the next rolls with ``values``; extra values are an error."""
        typed = TypedDice(values)
        runner = _Runner(typed, self._chooser, self.answers)
        try:
            outcome = runner.execute(self._procedure, self._args)
        except NeedDice as need:
            self.pending = need.request
            return
        finally:
            self.answers = runner.result.answers
            self.dice_used += typed.used
        self.pending = None
        runner.result.outcome = outcome
        self.result = runner.result
        if typed.remaining:
            raise DiceAnswerError(
                f"too many dice: {typed.remaining} value(s) left after the last roll "
                f"({self.dice_used} used)"
            )
