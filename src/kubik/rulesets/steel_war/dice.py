"""Steel War's dice vocabulary: quality dice and their input type.

>>> as_chain_die("к8")
Die(faces=8)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from kubik.core.errors import DiceError
from kubik.engine.dice import STEP_CHAIN, Die, parse_die

ChainDieName = Literal["d4", "d6", "d8", "d10", "d12"]


def _normalise(value: object) -> object:
    """Accept "к8"/"D8" in input and store the canonical "d8"."""
    if isinstance(value, str):
        try:
            return parse_die(value).name
        except DiceError:
            return value
    return value


#: A die of the step chain as procedure input ("d4".."d12"; "к8" accepted).
ChainDie = Annotated[ChainDieName, BeforeValidator(_normalise)]


def as_chain_die(name: str) -> Die:
    """The :class:`Die` for a chain die name."""
    die = parse_die(name)
    if die not in STEP_CHAIN:
        raise DiceError(f"{name} is not one of d4, d6, d8, d10, d12")
    return die
