"""Units of length: every geometry in :mod:`kubik.table` is measured in inches.

Steel War, Legends of the Old West and Warhammer measure in inches. Roads of the
Apocalypse measures in paces («шаги») and never says how long a pace is
(RA-ABSENT-12), so :class:`Units` carries a conversion factor whose **default is
1 pace = 1 inch** (a default, not a rule from the source). A table declared in
paces takes its scenario numbers in paces and stores them in inches; rulesets
convert measured inches back with :meth:`Units.from_inches`.

Base sizes are given by manufacturers in millimetres; :func:`mm_to_inches`
converts them.

>>> Units(Unit.PACE, inches_per_pace=2.0).to_inches(3)
6.0
>>> PACES.from_inches(4.0)
4.0
>>> round(mm_to_inches(25), 4)
0.9843
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from kubik.table.errors import TableError

#: Millimetres in one inch (exact, by definition of the inch).
MM_PER_INCH = 25.4


class Unit(Enum):
    """The distance unit a ruleset or a scenario speaks in."""

    INCH = "inches"
    PACE = "paces"


@dataclass(frozen=True)
class Units:
    """A unit and, for paces, how many inches one pace is (default 1.0)."""

    unit: Unit = Unit.INCH
    inches_per_pace: float = 1.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.inches_per_pace) and self.inches_per_pace > 0):
            raise TableError(
                "inches_per_pace", f"must be a positive number, got {self.inches_per_pace}"
            )

    @property
    def inches_per_unit(self) -> float:
        """Inches in one unit of this system."""
        return self.inches_per_pace if self.unit is Unit.PACE else 1.0

    def to_inches(self, value: float) -> float:
        """A length in this unit, in inches."""
        return float(value) * self.inches_per_unit

    def from_inches(self, inches: float) -> float:
        """A length in inches, in this unit (exact float; rounding is the ruleset's)."""
        return float(inches) / self.inches_per_unit


#: Inches (Steel War, Old West, Fantasy).
INCHES = Units()
#: Roads of the Apocalypse paces at the default 1 pace = 1 inch.
PACES = Units(Unit.PACE)


def mm_to_inches(mm: float) -> float:
    """Millimetres to inches (25 mm ≈ 0.984 in)."""
    return float(mm) / MM_PER_INCH


def inches_to_mm(inches: float) -> float:
    """Inches to millimetres."""
    return float(inches) * MM_PER_INCH
