"""Dice: the polyhedral dice of the four games, die steps and exact distributions.

A :class:`Die` is an immutable value: ``D8`` *is* ``Die(8)``. Distributions are
exact (integer counts or :class:`fractions.Fraction`), never floats.

>>> parse_die("к8")
Die(faces=8)
>>> parse_dice("2D6")
(Die(faces=6), Die(faces=6))
>>> step(D10, +1), step(D12, +1), step(D4, -1)
(Die(faces=12), Die(faces=12), Die(faces=4))
>>> try_step(D4, -1) is None
True
>>> sum_counts((D6, D6))[7]
6
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from itertools import product

from kubik.core.errors import DiceError

#: Face counts of the dice that exist on a gaming table.
KNOWN_FACES: tuple[int, ...] = (3, 4, 6, 8, 10, 12, 20)


@dataclass(frozen=True, order=True, slots=True)
class Die:
    """One die with ``faces`` sides numbered 1..faces.

    A d3 is a die of three faces (at the table: a d6 halved, rounding up).
    """

    faces: int

    def __post_init__(self) -> None:
        if self.faces not in KNOWN_FACES:
            allowed = ", ".join(f"d{f}" for f in KNOWN_FACES)
            raise DiceError(f"there is no d{self.faces}; dice are {allowed}")

    @property
    def name(self) -> str:
        """The die's usual name, ``"d8"``."""
        return f"d{self.faces}"

    def said_in(self, lang: str) -> str:
        """The die as ``lang`` writes it, ``d8`` or ``к8`` (a :class:`~kubik.text.i18n.Said`)."""
        return f"к{self.faces}" if lang == "ru" else self.name

    @property
    def values(self) -> range:
        """Every face value, 1..faces."""
        return range(1, self.faces + 1)

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each face."""
        p = Fraction(1, self.faces)
        return {v: p for v in self.values}

    def __str__(self) -> str:
        return self.name


D3, D4, D6, D8, D10, D12, D20 = (Die(f) for f in KNOWN_FACES)

#: The die-step chain of Steel War (and of any game that steps dice): d4 → d12.
STEP_CHAIN: tuple[Die, ...] = (D4, D6, D8, D10, D12)


class StepOverflow(Enum):
    """What a die step past either end of :data:`STEP_CHAIN` does."""

    CLAMP = "clamp"  # stay at d4 / d12: improvements past d12 are lost
    FAIL = "fail"  # raise DiceError: the action is impossible


def step(die: Die, steps: int, overflow: StepOverflow = StepOverflow.CLAMP) -> Die:
    """Move ``die`` ``steps`` positions along d4→d6→d8→d10→d12 (negative = down).

    The default clamps at both ends, the usual reading ("an improvement past d12 is
    lost"); ``StepOverflow.FAIL`` raises instead, for rules where falling off the
    chain makes the action impossible.
    """
    if die not in STEP_CHAIN:
        raise DiceError(f"{die} is not on the die-step chain d4, d6, d8, d10, d12")
    index = STEP_CHAIN.index(die) + steps
    if 0 <= index < len(STEP_CHAIN):
        return STEP_CHAIN[index]
    if overflow is StepOverflow.FAIL:
        direction = "above d12" if index > 0 else "below d4"
        raise DiceError(f"{die} stepped {steps:+d} would be {direction}")
    return STEP_CHAIN[min(max(index, 0), len(STEP_CHAIN) - 1)]


def try_step(die: Die, steps: int) -> Die | None:
    """Like :func:`step`, but ``None`` when the result falls off the chain."""
    try:
        return step(die, steps, StepOverflow.FAIL)
    except DiceError:
        return None


_DICE_PATTERN = re.compile(r"^\s*(\d*)\s*[dDкК]\s*(\d+)\s*$")


#: Texts already parsed (rules and battles read the same few dice names all the time).
_PARSED: dict[str, tuple[Die, ...]] = {}


def parse_dice(text: str) -> tuple[Die, ...]:
    """Parse ``"d8"``, ``"к8"``, ``"2D6"``, ``"3к6"`` into a tuple of dice."""
    known = _PARSED.get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    match = _DICE_PATTERN.match(text) if isinstance(text, str) else None
    if match is None:
        raise DiceError(
            f"'{text}' is not a die; write d6, к8, 2D6 "
            f"(dice: {', '.join(f'd{f}' for f in KNOWN_FACES)})"
        )
    count = int(match.group(1)) if match.group(1) else 1
    if not 1 <= count <= 100:
        raise DiceError(f"'{text}': the number of dice must be 1..100")
    dice = (Die(int(match.group(2))),) * count
    if len(_PARSED) < 1024:
        _PARSED[text] = dice
    return dice


def parse_die(text: str) -> Die:
    """Parse exactly one die: ``"d8"`` or ``"к8"``."""
    dice = parse_dice(text)
    if len(dice) != 1:
        raise DiceError(f"'{text}' is {len(dice)} dice; one die is needed here")
    return dice[0]


@cache
def _sum_counts(dice: tuple[Die, ...]) -> tuple[tuple[int, int], ...]:
    counts: Counter[int] = Counter({0: 1})
    for die in dice:
        nxt: Counter[int] = Counter()
        for total, n in counts.items():
            for v in die.values:
                nxt[total + v] += n
        counts = nxt
    return tuple(sorted(counts.items()))


def sum_counts(dice: Sequence[Die]) -> dict[int, int]:
    """Number of ordered outcomes giving each total (2D6: 7 → 6 of 36)."""
    return dict(_sum_counts(tuple(dice)))


def sum_distribution(dice: Sequence[Die]) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice``."""
    counts = sum_counts(dice)
    total = sum(counts.values())
    return {k: Fraction(n, total) for k, n in counts.items()}


def outcomes(dice: Sequence[Die]) -> Iterable[tuple[int, ...]]:
    """Every ordered tuple of faces, each equally likely."""
    return product(*(d.values for d in dice))


def d3_from_d6(value: int) -> int:
    """Read a d6 as a d3: 1–2 → 1, 3–4 → 2, 5–6 → 3.

    >>> [d3_from_d6(v) for v in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    return (value + 1) // 2
