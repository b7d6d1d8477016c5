"""Playing a game: one loop that replays recorded answers, then asks live sources.

A :class:`GameSession` drives a ruleset's :class:`~kubik.game.core.Game` procedure.
Recorded answers are replayed first (a loaded save, or what is left after an
undo); after them each roll is answered by the counter-based virtual dice or
typed in by a person, and each decision by the side's controller: a bot (any
callable ``Choose -> option``) or a human. When a person must answer, the session
stops with :attr:`GameSession.pending` set; :meth:`~GameSession.roll` and
:meth:`~GameSession.answer` give the answer and play on.

The generator stack is kept alive between answers, so playing on costs nothing;
only :meth:`~GameSession.undo` and loading rebuild the game from its answers.

While the game plays (or replays) the session records which rules applied in it
(:attr:`GameSession.applied`, see :mod:`kubik.engine.applied`): what the rule modules
decided, not what the log names. A bot weighing its options is not the game, so
nothing is recorded while a controller decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, Literal, Protocol, TypeAlias

from kubik.core.errors import DiceAnswerError, ProcedureError
from kubik.engine.applied import Recording
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
    Typed,
)
from kubik.engine.requests import Choose, EntryError, Message, Roll, msg, option_label
from kubik.engine.run import NeedDice, TypedDice, choose_with, describe_roll
from kubik.engine.stepper import Stepper
from kubik.game.core import Game, GameResult
from kubik.game.dice import CounterDice
from kubik.game.errors import GameInputError, RecordError
from kubik.game.narrate import entry_json, narrate
from kubik.game.record import GameRecord, JsonChoice, canonical_json, option_kind
from kubik.game.registry import get_ruleset
from kubik.game.scenario import Scenario, ScenarioSource, parse_scenario
from kubik.game.turns import side_name
from kubik.text.i18n import render

#: A bot: given a decision, returns one of its options.
Bot: TypeAlias = Callable[[Choose], Hashable]
HUMAN: Literal["human"] = "human"
#: Who answers a side's decisions: a bot function, ``"bot"`` (:func:`default_bot`) or
#: ``"human"`` (the session stops and asks).
Controller: TypeAlias = Bot | Literal["human", "bot"]


def default_bot(request: Choose) -> Hashable:
    """The bot a scenario's ``controller = "bot"`` gets unless one is given: the default."""
    return request.default


class DiceMode(Enum):
    """Who rolls: the program (counter-based virtual dice) or people at the table."""

    VIRTUAL = "virtual"
    TYPED = "typed"


class SessionListener(Protocol):
    """Told of every confirmed answer and every undo (the store keeps saves current)."""

    def answered(self, index: int, answer: Answer) -> None: ...

    def truncated(self, length: int) -> None: ...


_WAIT = object()  # an answer only a person can give


class GameSession:
    """A game being played: state, log, answers, and what it waits for."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        *,
        controllers: Mapping[str, Controller] | None = None,
        dice: DiceMode | str = DiceMode.VIRTUAL,
        lang: str = "en",
        options: Mapping[str, Any] | None = None,
        answers: Sequence[Answer] = (),
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        self.lang = lang
        self.dice_mode = DiceMode(dice)
        self.options: dict[str, Any] = dict(options or {})
        self.controllers = self._controllers(controllers or {})
        self._dice = CounterDice(seed)
        self._listeners: list[SessionListener] = []
        self._start(list(answers))

    # -- construction ---------------------------------------------------------

    def _controllers(self, given: Mapping[str, Controller]) -> dict[str, Bot | Literal["human"]]:
        sides = self.scenario.side_ids
        for side in given:
            if side not in sides:
                raise GameInputError(f"controllers: no side '{side}'; sides: {', '.join(sides)}")
        out: dict[str, Bot | Literal["human"]] = {}
        for spec in self.scenario.sides:
            chosen = given.get(spec.id, spec.controller)
            if chosen == "bot":
                out[spec.id] = default_bot
            elif chosen == HUMAN:
                out[spec.id] = HUMAN
            elif callable(chosen):
                out[spec.id] = chosen
            else:
                raise GameInputError(
                    f"controllers.{spec.id}: {chosen!r}; allowed: bot, human, or a bot function"
                )
        return out

    @classmethod
    def from_record(cls, record: GameRecord, bots: Mapping[str, Bot] | None = None) -> GameSession:
        """Rebuild a saved game (replaying its answers); ``bots`` play its bot sides on."""
        scenario = parse_scenario(record.scenario_toml, record.scenario, ScenarioSource.RECORD)
        controllers: dict[str, Controller] = {}
        for side, kind in record.controllers:
            if kind == HUMAN:
                controllers[side] = HUMAN
            else:
                controllers[side] = (bots or {}).get(side, default_bot)
        return cls(
            scenario,
            record.seed,
            controllers=controllers,
            dice=record.dice,
            lang=record.lang,
            options=dict(record.options),
            answers=record.answers,
        )

    def _start(self, replay: list[Answer]) -> None:
        ruleset = get_ruleset(self.scenario.ruleset)
        options = {**self.scenario.options, **self.options}
        #: The rules this game applied so far: afresh each time the game is (re)built, so
        #: an undone stretch leaves nothing behind.
        self.applied: set[str] = set()
        self._recording = Recording(self.applied)
        with self._recording:
            self.state: Game = ruleset.new_game(self.scenario, options)
        self.answers: list[Answer] = []
        self.log: list[LogEntry] = []
        self.result: GameResult | None = None
        self.pending: Roll | Choose | None = None
        self._sealed: list[ChoiceEntry] = []  # sealed answers nobody is shown yet
        self._sealed_at = 0
        self._replay = replay
        self._rolls = 0
        self._stepper = Stepper(self.state.play(), self.log, applied=self.applied)
        self._loop(None, live=False)
        if len(self.answers) < len(replay):
            left = len(replay) - len(self.answers)
            raise RecordError(msg("game.record.left_over", index=len(self.answers), n=left))

    # -- the public face ------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Whether the game has ended (then :attr:`result` is set)."""
        return self.result is not None

    @property
    def waiting_for_person(self) -> bool:
        """Whether :attr:`pending` needs a person: typed dice or a human side's decision."""
        return self.pending is not None and self._needs_person(self.pending)

    def subscribe(self, listener: SessionListener) -> None:
        """Tell ``listener`` of every answer confirmed from now on, and of every undo."""
        self._listeners.append(listener)

    def advance(self) -> Roll | Choose | None:
        """Play on until a person must answer or the game ends; returns :attr:`pending`."""
        while self.pending is not None:
            send = self._auto(self.pending)
            if send is _WAIT:
                break
            self._loop(send, live=True)
        return self.pending

    def roll(self, values: Iterable[int | str]) -> Roll | Choose | None:
        """Answer the pending roll with dice rolled at the table, then play on.

        A value a die cannot show, a non-number, or too few or too many values is a
        :class:`~kubik.core.errors.DiceAnswerError` naming the die; nothing is lost.
        """
        request = self.pending
        if not isinstance(request, Roll):
            raise GameInputError(f"no roll is pending; the game waits for {self._waiting()}")
        typed = TypedDice(values, self.lang)
        roll = msg("kubik.roll.describe", dice=request.dice, reason=request.reason)
        try:
            rolled = typed.roll(request)
        except NeedDice:
            text = msg("kubik.dice.too_few", roll=roll, n=len(request.dice))
            raise DiceAnswerError(render(text, self.lang)) from None
        if typed.remaining:
            got = len(request.dice) + typed.remaining
            text = msg("kubik.dice.too_many", roll=roll, n=len(request.dice), got=got)
            raise DiceAnswerError(render(text, self.lang))
        send = self._record_roll(request, rolled, DiceOrigin.TYPED)
        self._loop(send, live=True)
        return self.pending

    def answer(self, value: Any) -> Roll | Choose | None:
        """Answer the pending decision (an option, or its JSON form), then play on."""
        request = self.pending
        if not isinstance(request, Choose):
            raise GameInputError(f"no decision is pending; the game waits for {self._waiting()}")
        option = _match_option(request, value)
        if option is _WAIT:
            options = ", ".join(canonical_json(o) for o in request.options)
            raise GameInputError(
                f"answer: {canonical_json(value)} is not an option of "
                f"'{render(request.reason, self.lang)}'; options: {options}"
            )
        send = self._record_choice(request, option, ChoiceOrigin.HUMAN)
        self._loop(send, live=True)
        return self.pending

    def type_answer(self, text: str) -> Roll | Choose | None:
        """Answer the pending decision by typing what happened at the table (where a model
        now stands, what the players measured); the rules read and check it. A text
        they do not accept is a :class:`~kubik.game.errors.GameInputError` saying why;
        nothing is lost."""
        request = self.pending
        if not isinstance(request, Choose):
            raise GameInputError(f"no decision is pending; the game waits for {self._waiting()}")
        if request.entry is None:
            raise GameInputError(
                f"'{render(request.reason, self.lang)}' is answered by picking an option, "
                "not by typing"
            )
        text = text.strip()
        try:
            value = request.entry.read(text)
        except EntryError as error:
            raise GameInputError(error.said()) from None
        send = self._record_typed(request, text, value)
        self._loop(send, live=True)
        return self.pending

    def undo(self) -> int:
        """Go back to before the most recent roll: drop it and every answer after it.

        Returns how many answers were dropped. With no roll yet, every decision is
        dropped. Virtual dice give the same values again (they are counter-based),
        so undo corrects mistyped dice and re-takes decisions.
        """
        if not self.answers:
            raise GameInputError(msg("game.undo.nothing"))
        cut = 0
        for index in range(len(self.answers) - 1, -1, -1):
            if isinstance(self.answers[index], RollAnswer):
                cut = index
                break
        return self._cut(cut)

    def undo_decision(self) -> int:
        """Go back to before the most recent decision a person took: drop it and every
        answer after it (bots' decisions and dice rolled since then are given again).

        Returns how many answers were dropped.
        """
        for index in range(len(self.answers) - 1, -1, -1):
            answer = self.answers[index]
            if isinstance(answer, ChoiceAnswer) and answer.origin is ChoiceOrigin.HUMAN:
                return self._cut(index)
        raise GameInputError(msg("game.undo.no_decision"))

    def _cut(self, cut: int) -> int:
        """Keep the first ``cut`` answers (the game is rebuilt from them)."""
        dropped = len(self.answers) - cut
        self._start(self.answers[:cut])
        for listener in self._listeners:
            listener.truncated(cut)
        return dropped

    @property
    def turn(self) -> int | None:
        """The turn being played (from the log's ``game.turn`` events); None before turn 1."""
        for entry in reversed(self.log):
            if isinstance(entry, EventEntry) and entry.event.id == "game.turn":
                number = entry.event.kwargs.get("n")
                return number if isinstance(number, int) else None
        return None

    @property
    def record(self) -> GameRecord:
        """The game so far as a self-contained save."""
        return GameRecord(
            scenario=self.scenario.id,
            scenario_toml=self.scenario.text,
            seed=self.seed,
            answers=tuple(self.answers),
            lang=self.lang,
            dice=self.dice_mode.value,
            controllers=tuple((side, _controller_name(c)) for side, c in self.controllers.items()),
            options=tuple(sorted(self.options.items())),
        )

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """The ``play --json`` summary: scenario, seed, winner, turns, result and log."""
        language = lang or self.lang
        return {
            "scenario": self.scenario.id,
            "seed": self.seed,
            "winner": self.result.winner if self.result else None,
            "turns": self.result.turns if self.result else None,
            "finished": self.finished,
            "result": self.result.to_json() if self.result else None,
            "log": [entry_json(e, language, self.side_names) for e in self.log],
        }

    @property
    def side_names(self) -> dict[str, Message]:
        """Side id → its name as a message in both languages (for narration)."""
        return {side: side_name(self.scenario, side) for side in self.scenario.side_ids}

    @property
    def roller_names(self) -> dict[str, Message]:
        """Who may roll, by name: the sides, and the units a battle casts in the roles of
        the rule being applied now (the shooter, the target …: ``roles()``)."""
        names = self.side_names
        roles = getattr(self.state, "roles", None)
        if callable(roles):
            names.update(roles())
        return names

    def narrate(self, lang: str | None = None) -> list[str]:
        """The log so far as narrated lines, indented by depth."""
        return [narrate(e, lang or self.lang, self.side_names) for e in self.log]

    # -- the loop -------------------------------------------------------------

    def _waiting(self) -> str:
        if self.pending is None:
            return "nothing (the game is over)" if self.finished else "nothing"
        if isinstance(self.pending, Roll):
            return f"a roll: {describe_roll(self.pending, self.lang)}"
        return f"a decision of side '{self.pending.side}'"

    def _needs_person(self, request: Roll | Choose) -> bool:
        if isinstance(request, Roll):
            return self.dice_mode is DiceMode.TYPED
        return self.controllers.get(request.side, default_bot) == HUMAN

    def _auto(self, request: Roll | Choose) -> Any:
        """Answer ``request`` from the live sources (recording it) and return what the
        game receives; ``_WAIT`` if a person must answer."""
        if self._needs_person(request):
            return _WAIT
        if isinstance(request, Roll):
            values = self._dice.values_for(self._rolls, request)
            return self._record_roll(request, values, DiceOrigin.VIRTUAL)
        controller = self.controllers.get(request.side, default_bot)
        if isinstance(controller, str):
            return _WAIT
        option = choose_with(controller, request, lambda: self._stepper.position)
        if option not in request.options:
            raise ProcedureError(f"bot answered {option!r}, not an option of {request!r}")
        origin = ChoiceOrigin.DEFAULT if controller is default_bot else ChoiceOrigin.BOT
        return self._record_choice(request, option, origin)

    def _record_roll(self, request: Roll, values: tuple[int, ...], origin: DiceOrigin) -> Any:
        self._append(RollAnswer(values, origin))
        self.log.append(
            RollEntry(
                request.dice,
                values,
                request.reason,
                origin,
                request.roller,
                self._depth,
                request.rules,
            )
        )
        self._rolls += 1
        return request.answer(values)

    def _record_choice(self, request: Choose, option: Hashable, origin: ChoiceOrigin) -> Any:
        self._append(ChoiceAnswer(option, origin))
        self._log_choice(
            request,
            ChoiceEntry(
                request.side,
                request.reason,
                request.options,
                option,
                origin,
                self._depth,
                request.rules,
                request.label(option),
            ),
        )
        return option

    def _record_typed(self, request: Choose, text: str, value: Hashable) -> Any:
        self._append(ChoiceAnswer(Typed(text), ChoiceOrigin.HUMAN))
        entry = request.entry
        label = entry.label(value) if entry is not None and entry.label is not None else None
        self._log_choice(
            request,
            ChoiceEntry(
                request.side,
                request.reason,
                request.options,
                value,
                ChoiceOrigin.HUMAN,
                self._depth,
                request.rules,
                label or option_label(value),
                text,
            ),
        )
        return value

    def _log_choice(self, request: Choose, entry: ChoiceEntry) -> None:
        """Log a decision; a sealed one (a secret bid) is held back, shown to nobody, until
        the decisions sealed with it are all made (:meth:`_reveal`)."""
        if not request.sealed:
            self.log.append(entry)
            return
        if not self._sealed:
            self._sealed_at = len(self.log)
        self._sealed.append(entry)

    def _reveal(self, request: Roll | Choose | None) -> None:
        """Once the game asks anything but another sealed decision (or ends), the held
        sealed answers join the log where they were made, before what followed them."""
        if self._sealed and not (isinstance(request, Choose) and request.sealed):
            self.log[self._sealed_at : self._sealed_at] = self._sealed
            self._sealed = []

    def _append(self, answer: Answer) -> None:
        index = len(self.answers)
        self.answers.append(answer)
        self.pending = None
        if index >= len(self._replay):
            for listener in self._listeners:
                listener.answered(index, answer)

    @property
    def last_action(self) -> tuple[Any, tuple[Any, ...], Any] | None:
        """The last rule the game called that has finished: (procedure, args, outcome)."""
        return self._stepper.last_action

    @property
    def recent_actions(self) -> tuple[tuple[Any, tuple[Any, ...], Any], ...]:
        """The game's last few resolved actions, newest last (as :attr:`last_action`)."""
        return tuple(self._stepper.recent_actions)

    @property
    def actions(self) -> int:
        """How many rules the game has called and seen finish (since the last rebuild)."""
        return self._stepper.actions

    @property
    def _depth(self) -> int:
        return self._stepper.depth

    def _replayed(self, request: Roll | Choose) -> Any:
        """The recorded answer to ``request`` sent to the game, or ``_WAIT`` past the record."""
        index = len(self.answers)
        if index >= len(self._replay):
            return _WAIT
        recorded = self._replay[index]
        if isinstance(request, Roll):
            if not isinstance(recorded, RollAnswer) or len(recorded.values) != len(request.dice):
                roll = msg("kubik.roll.describe", dice=request.dice, reason=request.reason)
                raise RecordError(
                    msg("game.record.roll_misfit", index=index, answer=_show(recorded), roll=roll)
                )
            for die, value in zip(request.dice, recorded.values, strict=True):
                if not 1 <= value <= die.faces:
                    raise RecordError(
                        msg("game.record.die_cannot", index=index, die=die, value=value)
                    )
            return self._record_roll(request, recorded.values, recorded.origin)
        if not isinstance(recorded, ChoiceAnswer):
            raise RecordError(
                msg(
                    "game.record.choice_misfit",
                    index=index,
                    answer=_show(recorded),
                    side=request.side,
                )
            )
        if isinstance(recorded.value, Typed):
            if request.entry is None:
                raise RecordError(
                    msg(
                        "game.record.typed_misfit",
                        index=index,
                        text=recorded.value.text,
                        side=request.side,
                    )
                )
            try:
                read: Hashable = request.entry.read(recorded.value.text)
            except EntryError as error:
                refused = msg(
                    "game.record.typed_refused",
                    index=index,
                    text=recorded.value.text,
                    error=error.said(),
                )
                raise RecordError(refused) from None
            return self._record_typed(request, recorded.value.text, read)
        option = _match_option(request, recorded.value)
        if option is _WAIT:
            raise RecordError(
                msg(
                    "game.record.not_option", index=index, answer=_show(recorded), side=request.side
                )
            )
        return self._record_choice(request, option, recorded.origin)

    def _advance(self, send: Any) -> Roll | Choose | None:
        """Play the game on from ``send`` to its next request, recording what it applies."""
        with self._recording:
            return self._stepper.advance(send)

    def _loop(self, send: Any, *, live: bool) -> None:
        """Run the game from its current point until a request must wait, or it ends."""
        request = self._advance(send)
        self._reveal(request)
        while request is not None:
            answer = self._replayed(request)
            if answer is _WAIT and live:
                answer = self._auto(request)
            if answer is _WAIT:
                self.pending = request
                return
            request = self._advance(answer)
            self._reveal(request)
        outcome = self._stepper.outcome
        if not isinstance(outcome, GameResult):
            raise ProcedureError(f"a game returned {outcome!r}, not a GameResult")
        self.result = outcome


def play_game(
    scenario: Scenario,
    seed: int,
    *,
    controllers: Mapping[str, Controller] | None = None,
    lang: str = "en",
    options: Mapping[str, Any] | None = None,
) -> GameSession:
    """A whole game with virtual dice, played until it ends or a human side must decide."""
    session = GameSession(scenario, seed, controllers=controllers, lang=lang, options=options)
    session.advance()
    return session


def _controller_name(controller: Bot | Literal["human"]) -> str:
    """How a save records a side's controller: ``human``, ``bot`` or ``bot:<its name>``."""
    if controller == HUMAN:
        return HUMAN
    name = getattr(controller, "name", None)
    if isinstance(name, str) and re.fullmatch(r"[a-z_]+", name):
        return f"bot:{name}"
    return "bot"


def _match_option(request: Choose, value: Any) -> Any:
    """The option ``value`` stands for (the option itself or its JSON form), or ``_WAIT``."""
    kind: str | None = None
    if isinstance(value, JsonChoice):
        text, kind = value.text, value.kind
    else:
        try:
            if value in request.options:
                return next(o for o in request.options if o == value)
        except TypeError:
            pass  # an unhashable JSON form: compare texts below
        text = canonical_json(value)
    for option in request.options:
        if canonical_json(option) == text and (kind is None or option_kind(option) == kind):
            return option
    return _WAIT


def _show(answer: Answer) -> Message:
    if isinstance(answer, RollAnswer):
        return msg("game.record.a_roll", values=str(list(answer.values)))
    value = answer.value.text if isinstance(answer.value, JsonChoice) else repr(answer.value)
    return msg("game.record.a_decision", value=value)


__all__ = [
    "HUMAN",
    "Bot",
    "Controller",
    "DiceMode",
    "GameSession",
    "SessionListener",
    "default_bot",
    "play_game",
]
