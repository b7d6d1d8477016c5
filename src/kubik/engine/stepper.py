"""One resumable loop that runs a procedure up to each request an answer must come from.

Every driver that plays a procedure forward — the play and table drivers, a game
session — needs the same walk: send answers in, run sub-procedures (``Call``,
repeated ``times`` into a :class:`Tally`, then ``reduce``), log ``Emit`` events at
their depth, and stop at each ``Roll`` or ``Choose``. :class:`Stepper` is that walk
written once, with an explicit stack, so it can stop and resume between answers
(a person typing dice, a game waiting for a human side) without re-running anything.

>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Call, Roll, emit
>>> def hit():
...     (v,) = yield Roll(D6, "to hit")
...     return v >= 4
>>> def volley():
...     yield emit("fire!")
...     return (yield Call(hit, (), times=2))
>>> log = []
>>> stepper = Stepper(volley(), log)
>>> stepper.advance(), stepper.depth
(Roll(dice=(Die(faces=6),), reason=Message(id='to hit', params=()), ...), 1)
>>> stepper.advance((5,)) is not None, stepper.advance((2,)), stepper.finished
(True, None, True)
>>> sorted(stepper.outcome.items()), [e.event.id for e in log]
([(False, 1), (True, 1)], ['fire!'])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from kubik.core.errors import ProcedureError
from kubik.engine.applied import is_rule_procedure, runs_rule
from kubik.engine.log import EventEntry, LogEntry
from kubik.engine.requests import AnyCall, Call, Choose, Emit, Procedure, Roll
from kubik.engine.tally import Tally

#: How many of the game's last resolved actions a stepper remembers.
RECENT_ACTIONS = 32


@dataclass(frozen=True, slots=True)
class Frame:
    """One procedure on the stack, as far as it has got: enough to replay it.

    ``procedure(*args)`` receiving ``answers`` in order (rolls as reduced, decisions,
    the answers of finished calls; events take none) is exactly where it stands.
    ``call`` started it (``None`` at the root); ``done`` holds the outcomes of the
    earlier runs of a ``Call(times=n)``. The root of a game has no ``procedure`` (and
    its answers are not listed).
    """

    procedure: Callable[..., Procedure[Any]] | None
    args: tuple[Any, ...]
    answers: tuple[Any, ...]
    call: AnyCall | None = None
    done: tuple[Any, ...] = ()


#: The stack of running procedures, outermost first: what a decision is part of.
Position: TypeAlias = tuple[Frame, ...]


@dataclass(slots=True)
class _Frame:
    """A running procedure; ``call`` is the request that started it (None at the root)."""

    gen: Procedure[Any]
    call: AnyCall | None = None
    done: list[Any] = field(default_factory=list)  # outcomes of earlier repeats
    answers: list[Any] = field(default_factory=list)  # every answer it has received
    waiting: bool = False  # its last request takes an answer (not an event)
    tail: AnyCall | None = None  # its last request, if a ``tail`` call
    promised: tuple[Any] | None = None  # the answer of its tail call, its outcome to be
    rule: bool = False  # a rule procedure runs it (itself or a caller), when recording


class Stepper:
    """Runs a procedure from request to request; :meth:`advance` sends each answer.

    ``origin`` (the procedure and its arguments, when the caller has them) lets
    :attr:`position` name the root frame, so a policy can replay it. ``applied`` (a
    game's set of the rules it applied, see :mod:`kubik.engine.applied`) gets the
    ``rules`` of every roll, decision and event a rule procedure asks — one run by a
    ``Call`` or with ``yield from``, at any depth — not those the battle's own code
    asks.
    """

    def __init__(
        self,
        procedure: Procedure[Any],
        log: list[LogEntry] | None = None,
        origin: tuple[Callable[..., Procedure[Any]], tuple[Any, ...]] | None = None,
        applied: set[str] | None = None,
    ) -> None:
        self._stack = [_Frame(procedure)]
        self._applied = applied
        #: how many running calls are not ``inline`` (:attr:`depth`, kept as they start and end)
        self._depth = 0
        self._origin = origin
        self.log: list[LogEntry] = [] if log is None else log
        self.outcome: Any = None
        self.finished = False
        self._started = False
        #: The last rule called from the root or a method (a game's own code: its turns)
        #: that has finished — (procedure, args, outcome), the game's last resolved action
        #: (what "how lucky was that" asks about); calls made by rules are parts of it.
        self.last_action: tuple[Callable[..., Procedure[Any]], tuple[Any, ...], Any] | None = None
        #: The last few such actions, newest last (luck looks back for one with numbers).
        self.recent_actions: deque[tuple[Callable[..., Procedure[Any]], tuple[Any, ...], Any]]
        self.recent_actions = deque(maxlen=RECENT_ACTIONS)
        #: How many such calls have finished.
        self.actions = 0

    @property
    def depth(self) -> int:
        """How deep in sub-procedures the current request was made (0: the root); an
        ``inline`` call counts as its caller."""
        return self._depth

    @property
    def position(self) -> Position:
        """Every running procedure with the answers it has received, outermost first."""
        frames = []
        for index, frame in enumerate(self._stack):
            if frame.call is None:
                procedure, args = self._origin if self._origin else (None, ())
            else:
                procedure, args = frame.call.procedure, frame.call.args
            # a root without its procedure cannot be replayed: its answers (a whole
            # game's) are not copied
            answers = tuple(frame.answers) if procedure is not None else ()
            done = tuple(frame.done)
            frames.append(Frame(procedure, args, answers, frame.call if index else None, done))
        return tuple(frames)

    def advance(self, answer: Any = None) -> Roll | Choose | None:
        """Send ``answer`` (to the pending request; nothing on the first call) and run
        on to the next Roll or Choose, which is returned; ``None`` once finished."""
        if self.finished:
            raise ProcedureError("the procedure has finished; there is nothing to answer")
        send = answer if self._started else None
        self._started = True
        while True:
            frame = self._stack[-1]
            if frame.waiting:
                frame.answers.append(send)
                frame.waiting = False
                if frame.tail is not None:
                    frame.promised = (frame.tail.promised(send),)
            try:
                request = frame.gen.send(send)
            except StopIteration as stop:
                _keeps_promise(frame, stop.value)
                self._stack.pop()
                call = frame.call
                if call is None:
                    self.outcome = stop.value
                    self.finished = True
                    return None
                if not call.inline:
                    self._depth -= 1
                send = self._finish_call(frame, stop.value)
                continue
            if frame.promised is not None and not isinstance(request, Emit):
                raise ProcedureError(f"a procedure asked {request!r} after a tail call")
            if isinstance(request, Roll | Choose):
                frame.waiting = True
                if self._applied is not None and request.rules:
                    self._record(frame, request.rules)
                return request
            if isinstance(request, Emit):
                self.log.append(EventEntry(request.event, self.depth, request.rules))
                if self._applied is not None and request.rules:
                    self._record(frame, request.rules)
                send = None
            elif isinstance(request, Call):
                frame.waiting = True
                frame.tail = request if request.tail else None
                send = self._start_call(request)
            else:
                raise ProcedureError(f"a procedure yielded {request!r}, which is not a request")

    def _record(self, frame: _Frame, rules: tuple[str, ...]) -> None:
        """Record ``rules`` if the request is a rule procedure's own."""
        if frame.rule or runs_rule(frame.gen):
            assert self._applied is not None
            self._applied.update(rules)

    def _start_call(self, request: AnyCall) -> Any:
        if request.times == 0:
            return _reduce(request, Tally(()))
        caller = self._stack[-1]
        callee = _Frame(request.procedure(*request.args), request)
        if self._applied is not None:
            callee.rule = (
                caller.rule
                or is_rule_procedure(request.procedure, request.args)
                or runs_rule(caller.gen)
            )
        self._stack.append(callee)
        if not request.inline:
            self._depth += 1
        return None

    def _finish_call(self, frame: _Frame, outcome: Any) -> Any:
        call = frame.call
        assert call is not None
        if call.times is None:
            caller = self._stack[-1].call
            by_game = caller is None or hasattr(caller.procedure, "__self__")
            if by_game and not hasattr(call.procedure, "__self__"):
                self.last_action = (call.procedure, call.args, outcome)
                self.recent_actions.append(self.last_action)
                self.actions += 1
            return _reduce(call, outcome)
        done = [*frame.done, outcome]
        if len(done) < call.times:
            again = _Frame(call.procedure(*call.args), call, done)
            again.rule = frame.rule
            self._stack.append(again)
            if not call.inline:
                self._depth += 1
            return None
        return _reduce(call, Tally(done))


def _keeps_promise(frame: _Frame, outcome: Any) -> None:
    """A procedure whose last call was a ``tail`` call returns that call's answer (or
    ``then`` of it)."""
    if frame.promised is not None and outcome != frame.promised[0]:
        raise ProcedureError(
            f"a procedure returned {outcome!r} after a tail call promised {frame.promised[0]!r}"
        )


def _reduce(call: AnyCall, answer: Any) -> Any:
    return call.reduce(answer) if call.reduce is not None else answer


__all__ = ["Frame", "Position", "Stepper"]
