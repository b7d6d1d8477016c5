"""Scenarios: TOML files naming the ruleset, the table, the sides, the forces and the end.

The game layer checks the generic header (``[scenario]``, ``[[sides]]``, unit ids
and sides); ``[table]``, ``[[terrain]]``, ``[options]``, the rest of each unit and
``[end]`` are passed through as plain data for the table layer and the ruleset,
which checks them with :meth:`GameRuleset.validate`. Every error is one line naming
the file and the field::

    demo.toml: units[2].side: no side 'keno'; sides: steel, lianra

Built-in scenarios ship in each ruleset's package, ``scenarios/*.toml`` (see
:mod:`kubik.rulesets.registry`); a user's own live in ``<data dir>/scenarios`` (see
:mod:`kubik.game.paths`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kubik.core import limits
from kubik.engine.problems import problem
from kubik.engine.requests import Message, msg
from kubik.game.errors import ScenarioError, UnknownRulesetError
from kubik.game.paths import user_scenarios_dir
from kubik.rulesets import registry as rulesets

_ID = r"^[a-z0-9_]+(\.[a-z0-9_]+)*$"
_SIDE_ID = r"^[a-z0-9_]+$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScenarioHeader(_Strict):
    """``[scenario]``: what the scenario is called and which ruleset plays it."""

    id: str = Field(pattern=_ID, description="'<ruleset>.<name>' for built-in scenarios")
    name: str = Field(min_length=1)
    name_ru: str = ""
    ruleset: str = Field(min_length=1)
    description: str = ""
    description_ru: str = ""


#: How a Russian name declines where the analyser would guess wrong (see :mod:`kubik.text.russian`):
#: ``name_ru_cases = { gen = "…", dat = "…", acc = "…", ins = "…", loc = "…" }`` (any of
#: them) and ``gender_ru`` — the gender or number its verbs agree with.
RU_CASES = ("gen", "dat", "acc", "ins", "loc")
RuGender = Literal["m", "f", "n", "pl"]


class SideSpec(_Strict):
    """``[[sides]]``: a side of the battle and who plays it by default."""

    id: str = Field(pattern=_SIDE_ID)
    name: str = Field(min_length=1)
    name_ru: str = ""
    name_ru_cases: dict[str, str] = Field(default_factory=dict)
    gender_ru: RuGender | None = None
    controller: Literal["bot", "human"] = "bot"


class UnitSpec(BaseModel):
    """``[[units]]``: a unit's id and side; everything else is the ruleset's to check
    (the Russian case forms and gender of its name are the game layer's)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str = Field(min_length=1)
    side: str = Field(min_length=1)
    name_ru_cases: dict[str, str] = Field(default_factory=dict)
    gender_ru: RuGender | None = None

    @property
    def data(self) -> dict[str, Any]:
        """Every field of the unit as written in the file (id and side included)."""
        return {"id": self.id, "side": self.side, **(self.model_extra or {})}


class ScenarioModel(_Strict):
    """The whole file, as the game layer sees it."""

    scenario: ScenarioHeader
    table: dict[str, Any] = Field(default_factory=dict)
    terrain: tuple[dict[str, Any], ...] = ()
    sides: tuple[SideSpec, ...] = Field(min_length=2)
    options: dict[str, Any] = Field(default_factory=dict)
    units: tuple[UnitSpec, ...] = ()
    end: dict[str, Any] = Field(default_factory=dict)


class ScenarioSource(Enum):
    """Where a scenario came from."""

    BUILT_IN = "built-in"
    USER = "user"
    FILE = "file"  # a path given on the command line
    RECORD = "record"  # the copy embedded in a saved game


@dataclass(frozen=True, slots=True)
class Scenario:
    """A checked scenario: the parsed model, the TOML text it came from, its source."""

    model: ScenarioModel
    text: str
    source: ScenarioSource
    origin: str  # the file name used in error messages

    @property
    def id(self) -> str:
        """The scenario id (``steel_war.demo``)."""
        return self.model.scenario.id

    @property
    def name(self) -> str:
        """The English name."""
        return self.model.scenario.name

    @property
    def name_ru(self) -> str:
        """The Russian name (the English one when none is given)."""
        return self.model.scenario.name_ru or self.model.scenario.name

    @property
    def ruleset(self) -> str:
        """The ruleset that plays it."""
        return self.model.scenario.ruleset

    @property
    def description(self) -> str:
        """Free text about the scenario."""
        return self.model.scenario.description

    @property
    def description_ru(self) -> str:
        """The same in Russian (the English text when none is given)."""
        return self.model.scenario.description_ru or self.model.scenario.description

    @property
    def table(self) -> dict[str, Any]:
        """``[table]`` as written (for the table layer)."""
        return self.model.table

    @property
    def terrain(self) -> tuple[dict[str, Any], ...]:
        """``[[terrain]]`` as written (for the table layer)."""
        return self.model.terrain

    @property
    def sides(self) -> tuple[SideSpec, ...]:
        """The sides, in file order (the order turns alternate in, unless the ruleset says)."""
        return self.model.sides

    @property
    def side_ids(self) -> tuple[str, ...]:
        """The side ids, in file order."""
        return tuple(s.id for s in self.model.sides)

    def side(self, side_id: str) -> SideSpec:
        """The side called ``side_id``."""
        for side in self.model.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)

    @property
    def units(self) -> tuple[UnitSpec, ...]:
        """The units, in file order."""
        return self.model.units

    @property
    def options(self) -> dict[str, Any]:
        """``[options]`` as written (the ruleset checks them)."""
        return self.model.options

    @property
    def end(self) -> dict[str, Any]:
        """``[end]`` as written (``turn_limit`` ...)."""
        return self.model.end

    @property
    def turn_limit(self) -> int | None:
        """``end.turn_limit`` when the scenario sets one."""
        limit = self.model.end.get("turn_limit")
        return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def field_path(loc: Sequence[int | str]) -> str:
    """``("units", 2, "side")`` → ``"units[2].side"``.

    >>> field_path(("units", 2, "side")), field_path(("scenario", "id"))
    ('units[2].side', 'scenario.id')
    """
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column \d+\)$|\s*\(at end of document\)$")


def _toml_error(origin: str, text: str, error: tomllib.TOMLDecodeError) -> ScenarioError:
    message = str(error)
    match = _TOML_WHERE.search(message)
    reason = message[: match.start()] if match else message
    line = match.group(1) if match and match.group(1) else str(text.count("\n") + 1)
    return ScenarioError(msg("game.scenario.bad_toml", origin=origin, line=line, reason=reason))


def field_error(error: ValidationError, prefix: str = "") -> ScenarioError:
    """A ruleset's pydantic error as one line naming the field, under ``prefix``.

    For a ruleset's ``validate`` that checks ``units[2]`` with its own model:
    ``raise field_error(error, "units[2]")`` → ``units[2].weapons[0]: ...``.
    """
    first = error.errors()[0]
    loc = field_path(first["loc"])
    where = f"{prefix}.{loc}" if prefix and loc and not loc.startswith("[") else prefix + loc
    return ScenarioError(problem({**first, "loc": ()}, where or "file"))


def _pydantic_error(origin: str, error: ValidationError) -> ScenarioError:
    return in_file(origin, field_error(error))


def _count_points(feature: dict[str, Any]) -> int:
    points = feature.get("points")
    return len(points) if isinstance(points, list) else 0


def check_limits(model: ScenarioModel, origin: str) -> None:
    """The engine limits of :mod:`kubik.core.limits` on a scenario's size: units, terrain,
    corner points, table size and turns, each refused with the field and the limit."""

    def refuse(where: str, n: object, limit: int, what: str) -> None:
        kind = msg(f"game.limit.what.{what}")
        raise ScenarioError(
            msg("game.limit.exceeded", origin=origin, where=where, n=n, limit=limit, what=kind)
        )

    if len(model.units) > limits.UNITS:
        refuse("units", len(model.units), limits.UNITS, "units")
    if len(model.terrain) > limits.TERRAIN_FEATURES:
        refuse("terrain", len(model.terrain), limits.TERRAIN_FEATURES, "features")
    total = 0
    for index, feature in enumerate(model.terrain):
        points = _count_points(feature)
        if points > limits.TERRAIN_POINTS:
            refuse(f"terrain[{index}].points", points, limits.TERRAIN_POINTS, "points")
        total += points
    if total > limits.TERRAIN_POINTS_TOTAL:
        refuse("terrain", total, limits.TERRAIN_POINTS_TOTAL, "all_points")
    for key in ("width", "height", "depth"):
        size = model.table.get(key)
        if _number(size) and size > limits.TABLE_INCHES:
            refuse(f"table.{key}", size, limits.TABLE_INCHES, "inches")
    turn_limit = model.end.get("turn_limit")
    if _number(turn_limit) and turn_limit > limits.TURNS:
        refuse("end.turn_limit", turn_limit, limits.TURNS, "turns")


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_references(model: ScenarioModel) -> Message | None:
    side_ids = [s.id for s in model.sides]
    for index, side in enumerate(model.sides):
        if side_ids.index(side.id) != index:
            return msg("game.scenario.side_twice", where=f"sides[{index}].id", side=side.id)
    names = ", ".join(side_ids)
    seen: dict[str, int] = {}
    for index, unit in enumerate(model.units):
        if unit.side not in side_ids:
            where = f"units[{index}].side"
            return msg("game.scenario.no_side", where=where, side=unit.side, sides=names)
        if unit.id in seen:
            where, first = f"units[{index}].id", f"units[{seen[unit.id]}]"
            return msg("game.scenario.unit_twice", where=where, unit=unit.id, first=first)
        seen[unit.id] = index
    return None


def in_file(origin: str, error: ScenarioError) -> ScenarioError:
    """``error`` under the file it is about (kept as a message, so it translates)."""
    return ScenarioError(msg("game.scenario.in_file", origin=origin, error=error.said()))


def _check_name_grammar(model: ScenarioModel) -> Message | None:
    """The first ``name_ru_cases`` with a case that does not exist or an empty form."""
    named = [("sides", i, s.name_ru_cases) for i, s in enumerate(model.sides)]
    named += [("units", i, u.name_ru_cases) for i, u in enumerate(model.units)]
    for table, index, cases in named:
        for case, form in cases.items():
            where = f"{table}[{index}].name_ru_cases.{case}"
            if case not in RU_CASES:
                return msg("game.scenario.no_case", where=where, cases=", ".join(RU_CASES))
            if not form.strip():
                return msg("game.scenario.empty_case", where=where)
    return None


def parse_scenario(
    text: str,
    origin: str = "<scenario>",
    source: ScenarioSource = ScenarioSource.FILE,
    *,
    check_ruleset: bool = True,
) -> Scenario:
    """Read and check a scenario from TOML ``text``; ``origin`` names it in errors.

    With ``check_ruleset`` the ruleset's adapter is found and checks the scenario
    too (an unknown ruleset is then an error naming ``scenario.ruleset``). A scenario
    past an engine limit (:mod:`kubik.core.limits`: its size, units, terrain, table, turns)
    is refused before any work is done on it.
    """
    size = len(text.encode("utf-8", errors="replace"))
    if size > limits.SCENARIO_BYTES:
        raise ScenarioError(
            msg("game.limit.file", origin=origin, n=size, limit=limits.SCENARIO_BYTES)
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _toml_error(origin, text, error) from None
    except RecursionError:
        data = None
    if data is None or limits.too_deep(data, limits.INPUT_DEPTH):
        raise ScenarioError(msg("game.limit.deep", origin=origin, limit=limits.INPUT_DEPTH))
    try:
        model = ScenarioModel.model_validate(data)
    except ValidationError as error:
        raise _pydantic_error(origin, error) from None
    check_limits(model, origin)
    wrong = _check_references(model) or _check_name_grammar(model)
    if wrong is not None:
        raise ScenarioError(msg("game.scenario.in_file", origin=origin, error=wrong))
    scenario = Scenario(model, text, source, origin)
    if check_ruleset:
        from kubik.game.registry import get_ruleset

        try:
            ruleset = get_ruleset(model.scenario.ruleset)
        except UnknownRulesetError as error:
            wrong = msg("kubik.problem.as_given", where="scenario.ruleset", text=error.said())
            raise ScenarioError(msg("game.scenario.in_file", origin=origin, error=wrong)) from None
        try:
            ruleset.validate(scenario)
        except ScenarioError as error:
            raise in_file(origin, error) from None
    return scenario


def load_scenario_file(path: Path | str, source: ScenarioSource = ScenarioSource.FILE) -> Scenario:
    """Read and check the scenario file at ``path``."""
    path = Path(path)
    return parse_scenario(_read_text(path), path.name, source)


def _read_text(path: Path) -> str:
    """A scenario file's text: at most :data:`~kubik.core.limits.SCENARIO_BYTES`, UTF-8."""
    if path.is_dir():
        raise ScenarioError(msg("game.scenario.directory", name=path.name))
    try:
        with path.open("rb") as handle:
            raw = handle.read(limits.SCENARIO_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise ScenarioError(msg("game.scenario.unreadable", name=path.name, error=reason)) from None
    if len(raw) > limits.SCENARIO_BYTES:
        raise ScenarioError(
            msg(
                "game.limit.file",
                origin=path.name,
                n=f"> {limits.SCENARIO_BYTES}",
                limit=limits.SCENARIO_BYTES,
            )
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(msg("game.scenario.not_utf8", name=path.name)) from None


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    """One line of ``kubik scenarios``; ``error`` says why a file cannot be played
    (``problem``: the same as a catalogue message, to say it in either language)."""

    id: str
    name: str
    name_ru: str
    ruleset: str
    source: ScenarioSource
    path: str
    error: str | None = None
    description: str = ""
    description_ru: str = ""
    sides: tuple[SideSpec, ...] = ()
    problem: Message | str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for ``kubik scenarios --json`` (``sides``: the ids ``--side`` takes)."""
        return {
            "id": self.id,
            "name": self.name,
            "name_ru": self.name_ru,
            "ruleset": self.ruleset,
            "source": self.source.value,
            "path": self.path,
            "error": self.error,
            "description": self.description,
            "description_ru": self.description_ru,
            "sides": [
                {"id": side.id, "name": side.name, "name_ru": side.name_ru or side.name}
                for side in self.sides
            ],
        }


def _built_in_files() -> Iterator[tuple[str, str]]:
    """(file name, text) of every scenario a ruleset ships, rulesets and files in order."""
    for ruleset in rulesets.ruleset_ids():
        for item in rulesets.scenario_files(ruleset):
            yield item.name, item.read_text(encoding="utf-8")


def _user_files() -> Iterator[tuple[str, str | ScenarioError]]:
    folder = user_scenarios_dir()
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.toml")):
        try:
            yield str(path), _read_text(path)
        except ScenarioError as error:
            yield str(path), error


def _all_files() -> Iterator[tuple[str, str | ScenarioError, ScenarioSource]]:
    for name, text in _built_in_files():
        yield name, text, ScenarioSource.BUILT_IN
    for name, found in _user_files():
        yield name, found, ScenarioSource.USER


def list_scenarios() -> list[ScenarioInfo]:
    """Every built-in and user scenario (built-in first), for ``kubik scenarios``.

    A user file that cannot be played is listed with its ``error`` rather than
    hiding the others.
    """
    found: list[ScenarioInfo] = []
    for path, text, source in _all_files():
        label = Path(path).name
        try:
            if isinstance(text, ScenarioError):
                raise text
            scenario = parse_scenario(text, label, source, check_ruleset=False)
        except ScenarioError as error:
            stem = Path(path).stem
            found.append(
                ScenarioInfo(stem, stem, stem, "", source, path, str(error), problem=error.said())
            )
            continue
        found.append(
            ScenarioInfo(
                scenario.id,
                scenario.name,
                scenario.name_ru,
                scenario.ruleset,
                source,
                path,
                description=scenario.description,
                description_ru=scenario.description_ru,
                sides=scenario.sides,
            )
        )
    return found


def load_scenario(name: str) -> Scenario:
    """A scenario by id (built-in first, then the user's) or by the path of a ``.toml`` file."""
    path = Path(name)
    if name.endswith(".toml") or path.is_file():
        return load_scenario_file(path)
    ids: list[str] = []
    for file, text, source in _all_files():
        label = Path(file).name
        if isinstance(text, ScenarioError):
            continue
        try:
            scenario = parse_scenario(text, label, source, check_ruleset=False)
        except ScenarioError:
            continue
        if scenario.id == name:
            return parse_scenario(text, label, source)
        ids.append(scenario.id)
    known: Any = ", ".join(ids) or msg("game.store.none")
    raise ScenarioError(msg("game.scenario.unknown", name=name, known=known))


__all__ = [
    "Scenario",
    "ScenarioHeader",
    "ScenarioInfo",
    "ScenarioModel",
    "ScenarioSource",
    "SideSpec",
    "UnitSpec",
    "field_error",
    "field_path",
    "list_scenarios",
    "load_scenario",
    "load_scenario_file",
    "parse_scenario",
]
