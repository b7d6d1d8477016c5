"""Bad input told in either language: pydantic's problems as catalogue messages.

pydantic says what is wrong with a field in English (``Input should be greater than
or equal to 1``); a person playing in Russian reads it from ``kubik.field.*`` in
the catalogues instead. Problems pydantic words in a way no message covers (a
procedure's own check, a rare type) keep pydantic's English in both languages.

>>> from kubik.i18n import render
>>> item = {"type": "greater_than_equal", "ctx": {"ge": 1}, "msg": "...", "input": 0}
>>> render(field_problem(item), "en"), render(field_problem(item), "ru")
('Input should be greater than or equal to 1', 'должно быть не меньше 1')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from kubik.engine.requests import Message, msg

#: pydantic error type → (message id, the ``ctx`` field it names, if any).
_BY_TYPE: Final[dict[str, tuple[str, str]]] = {
    "greater_than": ("kubik.field.gt", "gt"),
    "greater_than_equal": ("kubik.field.ge", "ge"),
    "less_than": ("kubik.field.lt", "lt"),
    "less_than_equal": ("kubik.field.le", "le"),
    "int_parsing": ("kubik.field.int", ""),
    "int_type": ("kubik.field.int", ""),
    "int_from_float": ("kubik.field.int", ""),
    "float_parsing": ("kubik.field.number", ""),
    "float_type": ("kubik.field.number", ""),
    "bool_parsing": ("kubik.field.bool", ""),
    "bool_type": ("kubik.field.bool", ""),
    "string_type": ("kubik.field.string", ""),
    "list_type": ("kubik.field.list", ""),
    "tuple_type": ("kubik.field.list", ""),
    "dict_type": ("kubik.field.object", ""),
    "model_type": ("kubik.field.object", ""),
    "model_attributes_type": ("kubik.field.object", ""),
    "too_short": ("kubik.field.too_short", "min_length"),
    "too_long": ("kubik.field.too_long", "max_length"),
    "literal_error": ("kubik.field.one_of", "expected"),
    "enum": ("kubik.field.one_of", "expected"),
}
_LAST_OR = re.compile(r" or (?=[^,]*$)")


def field_problem(item: Mapping[str, Any]) -> Message:
    """What is wrong with one field (without saying which): a pydantic error item."""
    known = _BY_TYPE.get(str(item.get("type")))
    if known is None:
        return msg("kubik.field.other", text=str(item.get("msg", "")))
    message_id, field = known
    if not field:
        return msg(message_id)
    value = (item.get("ctx") or {}).get(field, "")
    if field == "expected":  # pydantic's "'a', 'b' or 'c'": the languages join the last two
        parts = _LAST_OR.split(str(value))
        return msg(message_id, some=parts[0], last=parts[-1], n=len(parts))
    return msg(message_id, value=value)


__all__ = ["field_problem"]
