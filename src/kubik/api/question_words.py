"""A question asked in words: ``quality=d6 weapons=lmg,smg*4 distance=10 cover=light``.

People ask for odds on the command line (and in a web address), not in JSON. Each
word is ``FIELD=VALUE`` and is read against the procedure's input schema, so the
same words mean the same question everywhere:

* a nested field by dots: ``a.toughness=4``; an item of a list of models by its
  number, or a range of numbers: ``a.1.fight=5``, ``a.1-3.fame=3`` (no number: the first);
* a list by commas, an item repeated by ``*N``: ``special_rules=hatred,killing_blow``,
  ``ranks=10*3``; a list of things counted (``{"weapon": …, "count": …}``) takes
  ``lmg,smg*4`` for one light machine gun and four sub-machine guns;
* yes/no as ``yes``/``no`` (``true``, ``on``, ``да``, ``нет`` …); an optional value
  as ``none``.

A word that does not fit is one line naming it and what is allowed, in English or
Russian. Choices (a name the model knows by another spelling too, like ``level=Ст``),
and rules across fields are checked by the input model afterwards, as for JSON.

>>> from pydantic import BaseModel, Field
>>> class Shot(BaseModel):
...     dice: int = Field(ge=1, le=8)
...     aimed: bool = False
...     rules: list[str] = []
>>> question_from_words(Shot, ["dice=3", "aimed=yes", "rules=a,b*2"])
{'dice': 3, 'aimed': True, 'rules': ['a', 'b', 'b']}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel

from kubik.core.errors import InputError
from kubik.engine.requests import msg

Schema = dict[str, Any]

#: Words read as yes and as no.
YES = frozenset({"yes", "y", "true", "on", "1", "да", "д"})
NO = frozenset({"no", "n", "false", "off", "0", "нет", "н"})
#: Words for "no value" of an optional field.
NONE = frozenset({"none", "null", "-", "нет"})
#: Items of one list at most (a typo like ``ranks=10*1000000`` is not a list to build).
MOST_ITEMS = 1000
_INDEX = re.compile(r"^(\d+)(?:-(\d+))?$")


@cache
def _schema(model: type[BaseModel]) -> Schema:
    """The model's JSON schema, made once per model (its readers here never change it)."""
    return model.model_json_schema()


def question_from_words(model: type[BaseModel], words: Iterable[str]) -> dict[str, Any]:
    """The input (as JSON would give it) that ``words`` ask for."""
    schema = _schema(model)
    defs = schema.get("$defs", {})
    question: dict[str, Any] = {}
    given: set[str] = set()
    for word in words:
        field, equals, text = word.partition("=")
        field = field.strip()
        if not equals or not field:
            raise InputError(msg("cli.words.not_pair", word=word))
        if field in given:
            raise InputError(msg("cli.words.twice", field=field))
        given.add(field)
        _place(question, field.split("."), text.strip(), schema, defs, field)
    return question


def resolve(schema: Schema, defs: Schema) -> Schema:
    """A schema with its ``$ref`` followed and an optional value's ``anyOf`` reduced to
    the value (``nullable`` says it may be none)."""
    extra: Schema = {}
    while "$ref" in schema:
        extra.update({k: v for k, v in schema.items() if k != "$ref"})
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    schema = {**schema, **extra}
    options = schema.get("anyOf")
    if options:
        real = [o for o in options if o.get("type") != "null"]
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        if len(real) == 1:
            inner = resolve(real[0], defs)
            return {**inner, **rest, "nullable": len(real) < len(options)}
    return schema


def field_names(schema: Schema, defs: Schema, prefix: str = "") -> list[str]:
    """Every field a word may name, nested ones by dots (list items by ``.1``)."""
    schema = resolve(schema, defs)
    names: list[str] = []
    for name, sub in schema.get("properties", {}).items():
        full = f"{prefix}{name}"
        inner = resolve(sub, defs)
        if inner.get("type") == "object" or "properties" in inner:
            names += field_names(inner, defs, f"{full}.")
        elif inner.get("type") == "array" and _is_object(inner.get("items", {}), defs):
            if _counted(resolve(inner["items"], defs), defs) is not None:
                names.append(full)
            names += field_names(inner["items"], defs, f"{full}.1.")
        else:
            names.append(full)
    return names


def allowed_values(schema: Schema, defs: Schema) -> list[str]:
    """The values a field takes, as words (choices, yes/no, a range), for help and
    completion."""
    schema = resolve(schema, defs)
    if schema.get("type") == "array":
        items = resolve(schema.get("items", {}), defs)
        counted = _counted(items, defs)
        if counted is not None:
            items = resolve(items["properties"][counted[0]], defs)
        return allowed_values(items, defs)
    if "enum" in schema:
        values = [str(v) for v in schema["enum"]]
    elif schema.get("type") == "boolean":
        values = ["yes", "no"]
    elif schema.get("type") in ("integer", "number") and "minimum" in schema:
        values = [f"{_number(schema['minimum'])}..{_number(schema.get('maximum', '…'))}"]
    else:
        values = []
    return values + (["none"] if schema.get("nullable") else [])


def schema_at(model: type[BaseModel], field: str) -> Schema | None:
    """The schema of a dotted field of ``model`` (``None`` if there is no such field)."""
    schema: Schema = _schema(model)
    defs = schema.get("$defs", {})
    for part in field.split("."):
        schema = resolve(schema, defs)
        if schema.get("type") == "array" and _INDEX.match(part):
            schema = schema.get("items", {})
            continue
        if schema.get("type") == "array":
            schema = resolve(schema.get("items", {}), defs)
        found = schema.get("properties", {}).get(part)
        if found is None:
            return None
        schema = found
    return {**resolve(schema, defs), "$defs": defs}


def required_fields(model: type[BaseModel]) -> list[str]:
    """The fields a question must give (top level)."""
    return list(_schema(model).get("required", ()))


def _number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _is_object(schema: Schema, defs: Schema) -> bool:
    inner = resolve(schema, defs)
    return inner.get("type") == "object" or "properties" in inner


def _counted(item: Schema, defs: Schema) -> tuple[str, str] | None:
    """A list item that names a thing and how many (``{"weapon": …, "count": …}``):
    (the thing's field, the count's field), or ``None``."""
    properties = item.get("properties", {})
    counts = [n for n, s in properties.items() if n == "count"]
    others = [n for n in properties if n not in counts]
    required = [n for n in item.get("required", others[:1]) if n not in counts]
    if counts and len(required) == 1:
        return required[0], counts[0]
    return None


def _place(
    target: dict[str, Any],
    path: list[str],
    text: str,
    schema: Schema,
    defs: Schema,
    field: str,
) -> None:
    """Put the value of ``text`` at ``path`` of ``target`` (an object of ``schema``)."""
    schema = resolve(schema, defs)
    properties = schema.get("properties", {})
    name, rest = path[0], path[1:]
    if name not in properties:
        raise InputError(
            msg("cli.words.unknown_field", field=field, allowed=", ".join(properties) or "—")
        )
    sub = resolve(properties[name], defs)
    if not rest:
        if _is_object(sub, defs):
            fields = ", ".join(f"{name}.{n}" for n in sub.get("properties", {}))
            raise InputError(msg("cli.words.object", field=field, allowed=fields))
        if sub.get("type") == "array" and _is_object(sub.get("items", {}), defs):
            items = resolve(sub["items"], defs)
            if _counted(items, defs) is None:
                fields = ", ".join(f"{name}.1.{n}" for n in items.get("properties", {}))
                raise InputError(msg("cli.words.object", field=field, allowed=fields))
        target[name] = _value(text, sub, defs, field)
        return
    if _is_object(sub, defs):
        inner = target.setdefault(name, {})
        if not isinstance(inner, dict):
            raise InputError(msg("cli.words.twice", field=field))
        _place(inner, rest, text, sub, defs, field)
        return
    if sub.get("type") == "array" and _is_object(sub.get("items", {}), defs):
        items = target.setdefault(name, [])
        if not isinstance(items, list):
            raise InputError(msg("cli.words.twice", field=field))
        match = _INDEX.match(rest[0])
        first = last = 1
        if match:
            first = int(match.group(1))
            last = int(match.group(2) or first)
            rest = rest[1:]
            if not rest:
                raise InputError(msg("cli.words.not_pair", word=field))
        if not 1 <= first <= last <= int(sub.get("maxItems", MOST_ITEMS)):
            limit = int(sub.get("maxItems", MOST_ITEMS))
            raise InputError(msg("cli.words.bad_index", field=field, most=limit))
        while len(items) < last:
            items.append({})
        for index in range(first - 1, last):
            _place(items[index], rest, text, sub["items"], defs, field)
        return
    raise InputError(msg("cli.words.unknown_field", field=field, allowed=name))


def _value(text: str, schema: Schema, defs: Schema, field: str) -> Any:
    """``text`` as a value of ``schema``."""
    if schema.get("nullable") and text.lower() in NONE and schema.get("type") != "boolean":
        return None
    if schema.get("type") == "array":
        return _items(text, schema, defs, field)
    if "enum" in schema:
        for value in schema["enum"]:
            if str(value).lower() == text.lower():
                return value
        return text  # the model may know it by another name (Ст, master); else it says why
    kind = schema.get("type")
    if kind == "boolean":
        if text.lower() in YES:
            return True
        if text.lower() in NO:
            return False
        raise InputError(msg("cli.words.not_yes_no", field=field, value=text))
    if kind in ("integer", "number"):
        return _numeric(text, schema, field)
    return text


def _numeric(text: str, schema: Schema, field: str) -> int | float:
    low, high = schema.get("minimum"), schema.get("maximum")
    bounds = f"{_number(low)}..{_number(high)}" if low is not None and high is not None else ""
    try:
        value: int | float = (
            int(text) if schema["type"] == "integer" else float(text.replace(",", "."))
        )
    except ValueError:
        message = "cli.words.not_whole" if schema["type"] == "integer" else "cli.words.not_number"
        raise InputError(msg(message, field=field, value=text, range=bounds)) from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(msg("cli.words.out_of_range", field=field, value=text, range=bounds))
    return value


def _items(text: str, schema: Schema, defs: Schema, field: str) -> list[Any]:
    """A list: items by commas, ``*N`` repeating one."""
    item = resolve(schema.get("items", {}), defs)
    counted = _counted(item, defs) if _is_object(item, defs) else None
    out: list[Any] = []
    for part in (p.strip() for p in text.split(",")) if text else ():
        if not part:
            continue
        word, _, times_text = part.rpartition("*") if "*" in part else (part, "", "1")
        if not times_text.isdigit() or int(times_text) < 1:
            raise InputError(msg("cli.words.bad_times", field=field, item=part))
        times = int(times_text)
        if len(out) + (1 if counted else times) > MOST_ITEMS:
            raise InputError(msg("cli.words.too_many", field=field, most=MOST_ITEMS))
        if counted is not None:
            thing, count = counted
            value = _value(word, resolve(item["properties"][thing], defs), defs, field)
            out.append({thing: value, count: times})
        else:
            out.extend([_value(word, item, defs, field)] * times)
    return out


def missing_fields(model: type[BaseModel], question: dict[str, Any]) -> list[str]:
    """The required top-level fields ``question`` does not give."""
    return [name for name in required_fields(model) if name not in question]


def describe(model: type[BaseModel], field: str) -> tuple[str, list[str]]:
    """A field's description and its allowed values as words (to ask a person for it)."""
    schema = schema_at(model, field) or {}
    defs = schema.pop("$defs", {})
    return str(schema.get("description", "")), allowed_values(schema, defs)


def words_of(question: dict[str, Any], prefix: str = "") -> list[str]:
    """Words that ask ``question`` (top-level scalars and lists of scalars): the web
    page's address and the command line say a question alike."""
    out: list[str] = []
    for name, value in question.items():
        if isinstance(value, dict):
            out += words_of(value, f"{prefix}{name}.")
        elif isinstance(value, bool):
            out.append(f"{prefix}{name}={'yes' if value else 'no'}")
        elif value is None:
            out.append(f"{prefix}{name}=none")
        elif isinstance(value, list | tuple):
            if all(not isinstance(v, dict | list) for v in value):
                out.append(f"{prefix}{name}={','.join(map(str, value))}")
            else:
                for index, item in enumerate(value, 1):
                    if isinstance(item, dict):
                        out += words_of(item, f"{prefix}{name}.{index}.")
        else:
            out.append(f"{prefix}{name}={value}")
    return out


def split_variant(text: str) -> Sequence[str]:
    """One variant of ``--vs`` (``"weapons=hmg distance=20"``) as words."""
    return text.split()


__all__ = [
    "allowed_values",
    "describe",
    "field_names",
    "missing_fields",
    "question_from_words",
    "required_fields",
    "resolve",
    "schema_at",
    "split_variant",
    "words_of",
]
