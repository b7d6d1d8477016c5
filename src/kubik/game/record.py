"""The save format: a game as its scenario, its seed and the ordered answers.

A :class:`GameRecord` is self-contained (the scenario's TOML text is embedded) and
versioned. Older versions are migrated forward step by step; a newer or unknown
version is an error, never silently misread.

Version history:

* 1 — answers without origins: a roll was a bare list of ints, a decision a bare
  JSON value (so a decision whose value is a list of ints cannot be told from a
  roll: version 1 never had such decisions).
* 2 — each answer is ``{"roll": [..], "origin": "virtual"|"typed"}`` or
  ``{"choice": value, "origin": "bot"|"human"|"default"|"policy"}``. Migrating
  from 1 marks rolls ``virtual`` and decisions ``default``.
* 3 — a decision a person answered by typing at the table is ``{"typed": text,
  "origin": "human"}`` (read again by the game on replay). Version-2 saves are
  version 3 as they are.
* 4 — a decision whose option is a dataclass or an enum also names its ``kind`` (the
  class), as two options can have one JSON form. Version-3 saves are version 4 as
  they are (a decision without a kind takes the first option of its form).

>>> old = {"format_version": 1, "scenario": "x.demo", "scenario_toml": "", "seed": 3,
...        "answers": [[4, 2], "aim"]}
>>> record = GameRecord.from_json(old)
>>> record.format_version, record.answers[0]
(4, RollAnswer(values=(4, 2), origin=<DiceOrigin.VIRTUAL: 'virtual'>))
>>> record.answers[1].origin.value, record.answers[1].value.value
('default', 'aim')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, is_dataclass, replace
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from kubik.engine.jsonify import to_json
from kubik.engine.log import Answer, ChoiceAnswer, ChoiceOrigin, DiceOrigin, RollAnswer, Typed
from kubik.engine.problems import problem
from kubik.engine.requests import msg
from kubik.game.errors import RecordError

FORMAT_VERSION = 4

DiceMode = Literal["virtual", "typed"]
#: Who played a side: ``human``, ``bot``, or ``bot:<name>`` naming the bot (``bot:random``),
#: so a loaded game goes on with the same kind of bot.
ControllerName = Annotated[str, StringConstraints(pattern=r"^(human|bot|bot:[a-z_]+)$")]


def canonical_json(value: Any) -> str:
    """One text per value, for comparing a saved decision with a request's options.

    >>> canonical_json({"b": 1, "a": (2, 3)})
    '{"a":[2,3],"b":1}'
    """
    return json.dumps(to_json(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def option_kind(value: Any) -> str | None:
    """The kind of a decision's option that its JSON form does not show: the class of a
    dataclass or enum option (``Inspire(target='a')`` and ``PassAction(target='a')`` are
    both ``{"target": "a"}``), ``None`` for plain values.

    >>> from kubik.game.battle import Presence
    >>> option_kind(Presence.DOWN), option_kind(3)
    ('Presence', None)
    """
    if is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__
    if isinstance(value, Enum):
        return type(value).__name__
    return None


@dataclass(frozen=True, slots=True)
class JsonChoice:
    """A decision read from a save: its canonical JSON text (and the option's kind, when
    the save has it), until the game matches it with one of the options it offers
    (which restores the real value)."""

    text: str
    kind: str | None = None

    @property
    def value(self) -> Any:
        """The decoded JSON value."""
        return json.loads(self.text)


def answer_to_json(answer: Answer) -> dict[str, Any]:
    """One answer in the current form."""
    if isinstance(answer, RollAnswer):
        return {"roll": list(answer.values), "origin": answer.origin.value}
    if isinstance(answer.value, Typed):
        return {"typed": answer.value.text, "origin": answer.origin.value}
    if isinstance(answer.value, JsonChoice):
        value, kind = answer.value.value, answer.value.kind
    else:
        value, kind = to_json(answer.value), option_kind(answer.value)
    if kind is None:
        return {"choice": value, "origin": answer.origin.value}
    return {"choice": value, "kind": kind, "origin": answer.origin.value}


class _AnswerModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    roll: tuple[int, ...] | None = Field(default=None, min_length=1)
    choice: Any = None
    kind: str | None = Field(default=None, max_length=100)
    typed: str | None = None
    origin: str


class _RecordModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: int
    scenario: str
    scenario_toml: str
    seed: int
    lang: Literal["en", "ru"] = "en"
    dice: DiceMode = "virtual"
    controllers: dict[str, ControllerName] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    answers: tuple[_AnswerModel, ...] = ()


def _answer_from_model(index: int, item: _AnswerModel, raw: Mapping[str, Any]) -> Answer:
    where = f"answers[{index}]"
    if sum(key in raw for key in ("roll", "choice", "typed")) != 1:
        raise RecordError(msg("game.record.one_kind", where=where))
    if item.roll is not None:
        try:
            dice_origin = DiceOrigin(item.origin)
        except ValueError:
            raise _bad_origin(where, item.origin, DiceOrigin) from None
        if any(v < 1 for v in item.roll):
            raise RecordError(msg("game.record.die_value", where=where))
        return RollAnswer(item.roll, dice_origin)
    try:
        choice_origin = ChoiceOrigin(item.origin)
    except ValueError:
        raise _bad_origin(where, item.origin, ChoiceOrigin) from None
    if item.typed is not None:
        return ChoiceAnswer(Typed(item.typed), choice_origin)
    return ChoiceAnswer(JsonChoice(canonical_json(item.choice), item.kind), choice_origin)


def _bad_origin(where: str, origin: str, kinds: type[DiceOrigin | ChoiceOrigin]) -> RecordError:
    allowed = ", ".join(o.value for o in kinds)
    return RecordError(msg("game.record.origin", where=where, origin=origin, allowed=allowed))


def _migrate_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    answers = data.get("answers", [])
    if not isinstance(answers, list):
        raise RecordError(msg("game.record.v1_answers"))
    migrated: list[dict[str, Any]] = []
    for item in answers:
        is_roll = (
            isinstance(item, list)
            and bool(item)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        )
        if is_roll:
            migrated.append({"roll": item, "origin": DiceOrigin.VIRTUAL.value})
        else:
            migrated.append({"choice": item, "origin": ChoiceOrigin.DEFAULT.value})
    return {**data, "format_version": 2, "answers": migrated}


def _migrate_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "format_version": 3}


def _migrate_3_to_4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 may name a decision's ``kind``; a version 3 decision has none and
    matches the first option of its JSON form, as it did when it was saved."""
    return {**data, "format_version": 4}


#: version → the step that brings a record of that version to the next one.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _migrate_1_to_2,
    2: _migrate_2_to_3,
    3: _migrate_3_to_4,
}


def migrate(data: Mapping[str, Any]) -> dict[str, Any]:
    """Bring a saved record (any known version) to :data:`FORMAT_VERSION`."""
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(msg("game.record.no_version"))
    if version > FORMAT_VERSION:
        raise RecordError(msg("game.record.newer", version=version, latest=FORMAT_VERSION))
    if version < 1:
        raise RecordError(msg("game.record.bad_version", version=version))
    current = dict(data)
    while current["format_version"] < FORMAT_VERSION:
        current = MIGRATIONS[current["format_version"]](current)
    return current


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game, self-contained: replaying ``answers`` on the scenario rebuilds it."""

    scenario: str
    scenario_toml: str
    seed: int
    answers: tuple[Answer, ...] = ()
    lang: str = "en"
    dice: DiceMode = "virtual"
    controllers: tuple[tuple[str, ControllerName], ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    format_version: int = field(default=FORMAT_VERSION)

    def bot_name(self, side: str) -> str | None:
        """The name of the bot that played ``side`` (``None``: a human, or unnamed)."""
        kind = dict(self.controllers).get(side, "")
        return kind.partition(":")[2] or None if kind.startswith("bot:") else None

    def header_json(self) -> dict[str, Any]:
        """Everything but the answers (the store keeps answers in their own rows)."""
        return {
            "format_version": self.format_version,
            "scenario": self.scenario,
            "scenario_toml": self.scenario_toml,
            "seed": self.seed,
            "lang": self.lang,
            "dice": self.dice,
            "controllers": dict(self.controllers),
            "options": to_json(dict(self.options)),
        }

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (the current format)."""
        return {**self.header_json(), "answers": [answer_to_json(a) for a in self.answers]}

    def dumps(self) -> str:
        """The record as JSON text: same record, same bytes."""
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True, indent=1)

    def with_answers(self, answers: tuple[Answer, ...]) -> GameRecord:
        """The same game with other answers."""
        return replace(self, answers=answers)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record of any known version (migrating it); errors name the field."""
        if not isinstance(data, Mapping):
            raise RecordError(msg("game.record.not_object"))
        current = migrate(data)
        try:
            model = _RecordModel.model_validate(current)
        except ValidationError as error:
            raise RecordError(problem(error.errors()[0])) from None
        raw_answers = current.get("answers", [])
        answers = tuple(
            _answer_from_model(i, item, raw_answers[i]) for i, item in enumerate(model.answers)
        )
        return cls(
            scenario=model.scenario,
            scenario_toml=model.scenario_toml,
            seed=model.seed,
            answers=answers,
            lang=model.lang,
            dice=model.dice,
            controllers=tuple(model.controllers.items()),
            options=tuple(model.options.items()),
            format_version=model.format_version,
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            where = {"line": error.lineno, "column": error.colno, "reason": error.msg}
            raise RecordError(msg("game.record.bad_json", **where)) from None
        return cls.from_json(data)


__all__ = [
    "FORMAT_VERSION",
    "MIGRATIONS",
    "ControllerName",
    "DiceMode",
    "GameRecord",
    "JsonChoice",
    "answer_to_json",
    "canonical_json",
    "migrate",
]
