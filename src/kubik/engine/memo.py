"""Memoising what rules derive from their arguments, by identity first.

Exact odds replay a procedure thousands of times with the very same argument
objects; hashing a long tuple of dice or a pydantic model costs microseconds each
time, an identity check nothing. :func:`by_identity` looks the arguments up by their
ids (keeping them, so an id is never reused while remembered), then by value.

>>> calls = []
>>> @by_identity
... def total(dice: tuple[int, ...]) -> int:
...     calls.append(dice)
...     return sum(dice)
>>> pool = (6, 8, 8)
>>> total(pool), total(pool), total((6, 8, 8)), len(calls)
(22, 22, 22, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

R = TypeVar("R")


#: Remembered argument tuples per function before the identity table starts afresh.
SIZE = 256

#: How to forget every memo made by :func:`by_identity` (see :func:`clear_memos`).
_CLEARERS: list[Callable[[], None]] = []


def clear_memos() -> None:
    """Forget everything every :func:`by_identity` memo remembers: a rule's number was
    changed in this process (a sweep of the rulebook's data), so what was derived from the
    old one must not be answered again."""
    for clear in _CLEARERS:
        clear()


def by_identity(fn: Callable[..., R]) -> Callable[..., R]:
    """Memoise ``fn`` (hashable positional arguments): by the arguments' ids, then by value."""
    by_value = lru_cache(maxsize=SIZE)(fn)
    recent: dict[tuple[int, ...], tuple[tuple[Any, ...], R]] = {}

    @wraps(fn)
    def remembered(*args: Any) -> R:
        key = tuple(map(id, args))
        known = recent.get(key)
        if known is not None:  # the kept arguments are alive: ids equal, objects the same
            return known[1]
        value = by_value(*args)
        if len(recent) >= SIZE:
            recent.clear()
        recent[key] = (args, value)  # the arguments are kept, so their ids are not reused
        return value

    one: dict[int, tuple[Any, R]] = {}

    @wraps(fn)
    def remembered_one(arg: Any) -> R:
        known = one.get(id(arg))
        if known is not None and known[0] is arg:
            return known[1]
        value = by_value(arg)
        if len(one) >= SIZE:
            one.clear()
        one[id(arg)] = (arg, value)  # the argument is kept, so its id is not reused
        return value

    @wraps(fn)
    def remembered_two(a: Any, b: Any) -> R:  # (the same, spelt out for the usual sizes)
        key = (id(a), id(b))
        known = recent.get(key)
        if known is not None:
            return known[1]
        value = by_value(a, b)
        if len(recent) >= SIZE:
            recent.clear()
        recent[key] = ((a, b), value)
        return value

    @wraps(fn)
    def remembered_three(a: Any, b: Any, c: Any) -> R:
        key = (id(a), id(b), id(c))
        known = recent.get(key)
        if known is not None:
            return known[1]
        value = by_value(a, b, c)
        if len(recent) >= SIZE:
            recent.clear()
        recent[key] = ((a, b, c), value)
        return value

    def clear() -> None:
        by_value.cache_clear()
        recent.clear()
        one.clear()

    _CLEARERS.append(clear)
    code = fn.__code__
    if fn.__defaults__ or code.co_kwonlyargcount or code.co_flags & 0x04:  # the general form
        return remembered
    sized: dict[int, Callable[..., R]] = {
        1: remembered_one,
        2: remembered_two,
        3: remembered_three,
    }
    return sized.get(code.co_argcount, remembered)


__all__ = ["by_identity", "clear_memos"]
