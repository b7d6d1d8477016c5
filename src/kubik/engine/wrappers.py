"""Wrapper procedures: a procedure that runs another one with its sides renamed.

A battle may run a rule procedure through a wrapper of its own (Old West names a
rule's sides "a" and "b" after its posses). Whoever must see the rule inside — the
optimal policy for its goals (:mod:`kubik.engine.objectives`), the record of which
rules a game applied (:mod:`kubik.engine.applied`) — asks here how to see through
it; the wrapper registers that with :func:`declare_wrapper`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

#: A wrapper's arguments → (the procedure it runs, its arguments, inner side → outer side).
Unwrap: TypeAlias = Callable[..., tuple[Callable[..., Any], tuple[Any, ...], Mapping[str, str]]]

_WRAPPERS: dict[Callable[..., Any], Unwrap] = {}


def declare_wrapper(wrapper: Callable[..., Any], unwrap: Unwrap) -> None:
    """``wrapper(*args)`` runs another procedure with its sides renamed; ``unwrap`` says how."""
    _WRAPPERS[wrapper] = unwrap


def unwrapper(procedure: Callable[..., Any]) -> Unwrap | None:
    """How to see through ``procedure`` if it is a declared wrapper, else ``None``."""
    return _WRAPPERS.get(procedure)


def wrapped(procedure: Callable[..., Any], args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """The procedure a declared wrapper runs with these ``args`` (``None``: not a wrapper)."""
    unwrap = _WRAPPERS.get(procedure)
    return None if unwrap is None else unwrap(*args)[0]


__all__ = ["Unwrap", "declare_wrapper", "unwrapper", "wrapped"]
