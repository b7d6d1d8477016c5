"""The core charts (FB-ABSENT-01..05): to hit, to wound, armour and ward saves.

None of these is in seed 004; they are the published WFB 6th/7th-edition charts
the catalogue proposes, read from ``data.toml`` (marked "default: absent from the
seeds"), so a user may override any cell.

>>> to_hit_needed(4, 3), to_hit_needed(3, 7), to_wound_needed(3, 7)
(3, 5, None)
>>> armour_needed(4, 5, armour_piercing=True) is None
True
>>> shooting_needed(3, -1), shooting_needed(1, -2)
(ShotNeed(first=5, second=None), ShotNeed(first=6, second=5))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from kubik.rulesets.data import DataError, load_ruleset_data

#: Characteristics on the charts run 1..10.
CHART_MIN, CHART_MAX = 1, 10


def data() -> Mapping[str, Any]:
    """The ruleset's numbers (with the user's overrides).

    Without ``$KUBIK_DATA_DIR`` :func:`load_ruleset_data` returns the packaged numbers,
    the same object every time and at the cost of one lookup: the rules ask for them
    thousands of times a battle."""
    return load_ruleset_data("fantasy")


def _clamp(value: int) -> int:
    return max(CHART_MIN, min(CHART_MAX, value))


@cache
def _chart(name: str) -> tuple[tuple[int, ...], ...]:
    rows = data()[name]["rows"]
    if len(rows) != CHART_MAX or any(len(row) != CHART_MAX for row in rows):
        raise DataError(f"fantasy.{name}.rows: needs 10 rows of 10 cells")
    return tuple(tuple(int(cell) for cell in row) for row in rows)


def to_hit_needed(weapon_skill: int, target_weapon_skill: int) -> int:
    """The d6 roll a blow needs to hit, WS against WS (FB-ABSENT-01)."""
    return _chart("to_hit")[_clamp(weapon_skill) - 1][_clamp(target_weapon_skill) - 1]


def to_wound_needed(strength: int, toughness: int) -> int | None:
    """The d6 roll a hit needs to wound (FB-ABSENT-03); None is the chart's «N»."""
    cell = _chart("to_wound")[_clamp(strength) - 1][_clamp(toughness) - 1]
    return cell or None


def armour_needed(save: int | None, strength: int, *, armour_piercing: bool = False) -> int | None:
    """The d6 roll an armour save needs after Strength (FB-ABSENT-04) and Armour
    piercing (FB-SR-04); None when no save is left. A 1 always fails."""
    if save is None:
        return None
    table = data()["armour"]
    worse = max(0, strength - int(table["strength_free"]))
    if armour_piercing:
        worse += int(table["armour_piercing"])
    needed = max(2, save + worse)
    return needed if needed <= 6 else None


@dataclass(frozen=True, slots=True)
class ShotNeed:
    """What a shot needs: ``first`` on a d6, then ``second`` on another d6 (7+ rolls);
    ``first is None``: the shot cannot hit."""

    first: int | None
    second: int | None = None

    def __str__(self) -> str:
        if self.first is None:
            return "-"
        return f"{self.first}/{self.second}" if self.second else f"{self.first}+"


def shooting_needed(ballistic_skill: int, modifier: int) -> ShotNeed:
    """The roll a shot needs: 7 − BS worsened by the modifiers (FB-ABSENT-02).

    A need of 1 or less is 2+; 7+, 8+, 9+ are a 6 then 4+, 5+, 6+; beyond, no hit.
    """
    table = data()["shooting"]
    needed = max(2, int(table["base"]) - ballistic_skill - modifier)
    if needed <= 6:
        return ShotNeed(needed)
    second = table["second_roll"].get(str(needed))
    return ShotNeed(6, int(second)) if second is not None else ShotNeed(None)


def shooting_modifier(
    *,
    moved: bool = False,
    long_range: bool = False,
    single_target: bool = False,
    cover: str = "none",
    stand_and_shoot: bool = False,
    multiple_shots: bool = False,
    overhead: bool = False,
) -> int:
    """The sum of the to-hit modifiers that apply to a shot (FB-ABSENT-02)."""
    table = data()["shooting"]
    total = 0
    for applies, key in (
        (moved, "moved"),
        (long_range, "long_range"),
        (single_target, "single_target"),
        (cover == "soft", "soft_cover"),
        (cover == "hard", "hard_cover"),
        (stand_and_shoot, "stand_and_shoot"),
        (multiple_shots, "multiple_shots"),
        (overhead, "volley_overhead"),
    ):
        if applies:
            total += int(table[key])
    return total


def leadership_cap() -> int:
    """Leadership is never above this (FB-ABSENT-06)."""
    return int(data()["leadership"]["maximum"])
