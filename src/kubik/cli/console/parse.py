"""Reading what people type: dice values and ``--side SIDE=KIND`` options.

>>> split_values("3 6 2"), split_values("3,6,2"), split_values(" 4 ; 1 ")
(['3', '6', '2'], ['3', '6', '2'], ['4', '1'])
>>> parse_side_options(["lianra=random"], ("steel", "lianra"))
{'lianra': 'random'}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from kubik.core.controllers import CONTROLLER_KINDS
from kubik.core.errors import InputError
from kubik.engine.requests import msg


class Lang(StrEnum):
    """Languages of text for people (the ``--lang`` option)."""

    en = "en"
    ru = "ru"


def split_values(text: str) -> list[str]:
    """``"3,6,2"`` or ``"3 6 2"`` → the values as typed (each die checks its own later)."""
    return [part for part in re.split(r"[,\s;]+", text.strip()) if part]


def parse_side_options(given: Sequence[str], sides: Sequence[str]) -> dict[str, str]:
    """``["steel=human", ...]`` → side → controller kind; one-line errors naming ``--side``.

    A side given twice is an error (which of the two was meant cannot be guessed).
    """
    kinds = ", ".join(CONTROLLER_KINDS)
    out: dict[str, str] = {}
    for item in given:
        side, sep, kind = item.partition("=")
        side, kind = side.strip(), kind.strip().lower()
        if not sep or not side or not kind:
            raise InputError(msg("cli.side.form", item=item, kinds=kinds))
        if side not in sides:
            raise InputError(msg("cli.side.unknown", item=item, side=side, sides=", ".join(sides)))
        if kind not in CONTROLLER_KINDS:
            raise InputError(msg("cli.side.kind", item=item, kind=kind, kinds=kinds))
        if side in out:
            raise InputError(msg("cli.side.twice", side=side, first=out[side], second=kind))
        out[side] = kind
    return out


__all__ = ["CONTROLLER_KINDS", "Lang", "parse_side_options", "split_values"]
