"""The extreme questions of a procedure, generated from its input schema.

A question's cost grows with its pools and lists, its special rules and its
resources, so the slowest questions sit at the corners of the documented input
ranges. :func:`extreme_inputs` builds them from the procedure's JSON schema (the
pydantic input model's): every number at its maximum (and, one field at a time, at
its minimum), every flag on (and, one at a time, off), every list as long as allowed
with its items at their extremes, every list of choices with all of its choices,
every single choice in turn. Combinations the model refuses (rules that exclude
each other) are repaired greedily — a refused choice dropped, a refused flag turned
off, a refused list shortened — so each corner that exists is asked.

Moving one field at a time misses corners where extremes meet inside a rule: a round
of close combat is slowest where the largest regiments, every rule, a charger's
impact hits and a duel of the largest characters come together, and several Wounds a
model trade against the models a side may field. :func:`combined_inputs` adds such
corners for the procedures named in :data:`COMBINED`, asked before the others.

>>> from pydantic import BaseModel, Field
>>> class Volley(BaseModel):
...     dice: int = Field(ge=1, le=8)
...     aimed: bool = False
>>> sorted(map(repr, extreme_inputs(Volley)))[:2]
["{'dice': 1, 'aimed': True}", "{'dice': 8, 'aimed': False}"]
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

#: Questions generated per procedure at most (the corners, not every point).
MOST = 48
#: Items of a list with no ``maxItems`` (a procedure that documents none).
UNBOUNDED_ITEMS = 10
#: Repairs tried on a refused question before it is given up.
REPAIRS = 40

Schema = dict[str, Any]


def extreme_inputs(model: type[BaseModel]) -> list[dict[str, Any]]:
    """The valid corner questions of ``model``, the largest first, without repeats."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    top = _largest(schema, defs)
    seen: set[str] = set()
    found: list[dict[str, Any]] = []
    for candidate in _corners(top, schema, defs):
        valid = _repaired(model, candidate, schema, defs)
        if valid is None:
            continue
        key = json.dumps(valid, sort_keys=True)
        if key not in seen:
            seen.add(key)
            found.append(valid)
        if len(found) >= MOST:
            break
    return found


def combined_inputs(name: str, model: type[BaseModel]) -> list[dict[str, Any]]:
    """The corners of procedure ``name`` where extremes meet (:data:`COMBINED`), valid
    for ``model``, most demanding first; none for a procedure not named there."""
    combine = COMBINED.get(name)
    if combine is None:
        return []
    schema = model.model_json_schema()
    top = _largest(schema, schema.get("$defs", {}))
    found = []
    for question in combine(top):
        try:
            model.model_validate(question)
        except ValidationError:
            continue
        found.append(question)
    return found


#: A round's rank and file as the range allows them: (Wounds each, models), the same
#: 60 Wounds a side (``fantasy.close_combat``'s ``MAX_TROOP_WOUNDS``) spread over
#: sixty models of one Wound down to six monsters of ten.
_RANK_AND_FILE = ((1, 60), (3, 20), (10, 6), (2, 30), (6, 10))


def _close_combat(top: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """First rounds of ``fantasy.close_combat`` with every rule on both sides, side a
    charging with impact hits (only one side charges, FB-ABSENT-19), Fear and Terror
    tested afresh, the rank and file at each split of the most Wounds a side takes,
    with a challenge between the largest characters (or champions, without them) and
    without one; then the same in a later round (no impact, the duel going on)."""
    first = copy.deepcopy(top)
    first.update(round=1, challenge="accept")
    first["b"].update(charging=False, impact_hits=None)
    for side in ("a", "b"):
        first[side].update(afraid=False, terror_tested=False)
    later = {**copy.deepcopy(first), "round": 2}
    for base in (first, later):
        for challenge in ("accept", "none"):
            for hero in (True, False):
                for wounds, models in _RANK_AND_FILE:
                    question = copy.deepcopy(base)
                    question["challenge"] = challenge
                    for side in ("a", "b"):
                        question[side]["troops"]["wounds"] = wounds
                        question[side]["models"] = models
                        if not hero:
                            question[side].update(
                                character=None, battle_standard=False, general=False
                            )
                    yield question


#: Procedures whose slowest corners combine extremes of several fields, and how.
COMBINED = {"fantasy.close_combat": _close_combat}


def _resolve(schema: Schema, defs: Schema) -> Schema:
    """A schema with its ``$ref`` followed and a nullable ``anyOf`` reduced to its value."""
    while "$ref" in schema:
        schema = {
            **defs[schema["$ref"].rsplit("/", 1)[-1]],
            **{k: v for k, v in schema.items() if k != "$ref"},
        }
    options = schema.get("anyOf")
    if options:
        real = [o for o in options if o.get("type") != "null"]
        if real:
            merged = {k: v for k, v in schema.items() if k != "anyOf"}
            return _resolve({**real[0], **merged}, defs)
    return schema


def _largest(schema: Schema, defs: Schema, turn: int = 0) -> Any:
    """A field's largest value: the maximum, on, the last choice, a full list (whose
    items take different choices: ``turn`` counts back from the last)."""
    schema = _resolve(schema, defs)
    if "enum" in schema:
        return schema["enum"][-1 - turn % len(schema["enum"])]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        fields = schema.get("properties", {}).items()
        return {name: _largest(sub, defs, turn) for name, sub in fields}
    if kind == "integer":
        return int(schema.get("maximum", schema.get("exclusiveMaximum", 100) - 1))
    if kind == "number":
        return schema.get("maximum", 100)
    if kind == "boolean":
        return True
    if kind == "string":
        return schema.get("default", "")
    if kind == "array":
        items = _resolve(schema.get("items", {}), defs)
        if "enum" in items:  # a set of choices: all of them
            return list(items["enum"])[: schema.get("maxItems", len(items["enum"]))]
        size = schema.get("maxItems", UNBOUNDED_ITEMS)
        return [_largest(items, defs, turn) for turn in range(size)]
    return schema.get("default")


def _paths(
    value: Any, schema: Schema, defs: Schema, path: tuple[Any, ...] = ()
) -> Iterator[tuple[tuple[Any, ...], Schema]]:
    """Every field of a question with its schema as written (list items: the first
    one stands for all, as they are alike)."""
    raw, schema = schema, _resolve(schema, defs)
    if isinstance(value, dict):
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                yield from _paths(value[name], sub, defs, (*path, name))
        return
    if isinstance(value, list) and "enum" not in _resolve(schema.get("items", {}), defs):
        if value:
            yield from _paths(value[0], schema.get("items", {}), defs, (*path, "*"))
        yield path, raw
        return
    yield path, raw


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the field at ``path`` replaced (``*``: in every item)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    out = copy.copy(value)
    if head == "*":
        return [_set(item, rest, new) for item in out]
    out[head] = _set(out[head], rest, new)
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for head in path:
        value = value[0] if head == "*" else value[head]
    return value


def _alternatives(schema: Schema, defs: Schema, current: Any) -> list[Any]:
    """The other corners of one field: its minimum, off, every other choice, a
    shorter list, none."""
    raw = schema
    schema = _resolve(schema, defs)
    out: list[Any] = []
    if "enum" in schema:
        out = [v for v in schema["enum"] if v != current]
    elif schema.get("type") in ("integer", "number") and "minimum" in schema:
        out = [schema["minimum"]]
    elif schema.get("type") == "boolean":
        out = [not current]
    elif schema.get("type") == "array" and isinstance(current, list) and current:
        out = [current[:-1], current[:1]]
    if any(o.get("type") == "null" for o in raw.get("anyOf", ())):
        out.append(None)
    return out


def _corners(top: Any, schema: Schema, defs: Schema) -> Iterator[Any]:
    """The largest question, then each field moved to each of its other corners."""
    yield top
    for path, sub in list(_paths(top, schema, defs)):
        for other in _alternatives(sub, defs, _get(top, path)):
            yield _set(top, path, other)


def _repaired(
    model: type[BaseModel], question: Any, schema: Schema, defs: Schema
) -> dict[str, Any] | None:
    """``question`` as the model accepts it: each refused field moved to another corner
    (a list of choices loses the refused ones first), or ``None``."""
    for _ in range(REPAIRS):
        try:
            model.model_validate(question)
        except ValidationError as error:
            fixed = _repair_once(question, error, schema, defs)
            if fixed is None:
                return None
            question = fixed
        else:
            return dict(question)
    return None


def _repair_once(question: Any, error: ValidationError, schema: Schema, defs: Schema) -> Any:
    """One repair of the first field the model refused: the field it names, or the
    fields a rule across fields names before its colon (``a, b: ...``)."""
    fields = dict(_paths(question, schema, defs))
    for problem in error.errors():
        loc = tuple("*" if isinstance(part, int) else part for part in problem["loc"])
        named = [loc[:cut] for cut in range(len(loc), 0, -1)]
        head = str(problem.get("msg", "")).removeprefix("Value error, ").split(":", 1)[0]
        named += [(word,) for word in head.replace("+", ",").replace(" ", ",").split(",")]
        for path in named:
            if path in fields:
                smaller = _smaller(question, path, fields[path], defs)
                if smaller is not None:
                    return smaller
    for path, sub in fields.items():  # a rule across fields that names none: drop a value
        raw = _resolve(sub, defs)
        if any(o.get("type") == "null" for o in sub.get("anyOf", ())) and _get(question, path):
            return _set(question, path, None)
        if raw.get("type") == "boolean" and _get(question, path) is True:
            return _set(question, path, False)
    return None


def _smaller(question: Any, path: tuple[Any, ...], schema: Schema, defs: Schema) -> Any:
    """The question with the field at ``path`` one step smaller (``None`` if it cannot
    be): a list loses an item (a list of numbers first halves them), a number halves
    towards its minimum, a flag goes off, a choice moves to another, an option to none."""
    current = _get(question, path)
    sub = _resolve(schema, defs)
    if current is not None and any(o.get("type") == "null" for o in schema.get("anyOf", ())):
        return _set(question, path, None)
    if isinstance(current, list):
        if current and all(isinstance(v, int) and v > 1 for v in current):
            return _set(question, path, [v // 2 for v in current])
        return _set(question, path, current[:-1]) if current else None
    if isinstance(current, bool):
        return _set(question, path, False) if current else None
    if isinstance(current, int | float) and sub.get("type") in ("integer", "number"):
        low = sub.get("minimum", 0)
        if current > low:
            half = (current + low) // 2 if isinstance(current, int) else (current + low) / 2
            return _set(question, path, half)
    for other in _alternatives(schema, defs, current):
        return _set(question, path, other)
    return None


def smaller_field(
    model: type[BaseModel], question: dict[str, Any], field: str
) -> dict[str, Any] | None:
    """``question`` with ``field`` one step smaller, still valid for the model (``None`` if
    it cannot be): for a question the rules refuse at one corner. ``field`` is a top-level
    field or a dotted path into objects (``a.models``)."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    path = tuple(field.split("."))
    sub: Schema | None = schema
    value: Any = question
    for name in path:
        if sub is None or not isinstance(value, dict) or name not in value:
            return None
        sub = _resolve(sub, defs).get("properties", {}).get(name)
        value = value[name]
    if sub is None:
        return None
    moved = _smaller(question, path, sub, defs)
    return None if moved is None else _repaired(model, moved, schema, defs)
