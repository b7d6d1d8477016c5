"""Regiments as the rules see them: ranks and files, unit strength (FB-UNIT-01),
the command group and the order casualties are removed in (FB-CMD-05).

>>> rank_bonus(models=17, files=5)
2
>>> CommandGroup(champion=True, standard=True, musician=True).alive(2)
('champion', 'standard')
>>> unit_strength(ModelKind.CAVALRY, 5), unit_strength(ModelKind.MONSTER, 1, wounds=6)
(10, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine.applied import decides
from kubik.rulesets.fantasy.charts import data


class ModelKind(StrEnum):
    """The seed's kinds of model for unit strength (by base size)."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    OGRE = "ogre"
    CHARIOT = "chariot"
    CHARIOT_WITH_CHARACTER = "chariot_with_character"
    MONSTER = "monster"
    RIDDEN_MONSTER = "ridden_monster"


@decides("FB-UNIT-01")
def unit_strength(kind: ModelKind, models: int, *, wounds: int = 1) -> int:
    """Unit strength of ``models`` models of one kind (FB-UNIT-01); a monster counts
    its starting Wounds, a ridden monster one more for its rider."""
    table = data()["unit_strength"]
    if kind is ModelKind.MONSTER:
        return models * wounds
    if kind is ModelKind.RIDDEN_MONSTER:
        return models * (wounds + int(table["rider_on_monster"]))
    return models * int(table[kind.value])


def rank_bonus(models: int, files: int) -> int:
    """+1 per rank of five or more models behind the first, at most +3 (FB-ABSENT-07)."""
    table = data()["combat_resolution"]
    need, top = int(table["rank_models"]), int(table["max_rank_bonus"])
    if files < need:
        return 0
    behind = max(0, models - files)
    ranks = behind // files + (1 if behind % files >= need else 0)
    return min(top, ranks)


def fighting_models(models: int, files: int, ranks: int) -> int:
    """Models that strike: the first ``ranks`` ranks (FB-ABSENT-13, FB-SR-08)."""
    return min(models, files * ranks)


@dataclass(frozen=True, slots=True)
class CommandGroup:
    """Which of the command models the unit has (champion, standard, musician)."""

    champion: bool = False
    standard: bool = False
    musician: bool = False

    def size(self) -> int:
        """How many command models."""
        return int(self.champion) + int(self.standard) + int(self.musician)

    def alive(self, models: int) -> tuple[str, ...]:
        """Which command models are left when ``models`` of the unit remain:
        rank and file die first, then the musician, the standard, the champion
        (FB-CMD-05)."""
        order = [
            name
            for name, present in (
                ("champion", self.champion),
                ("standard", self.standard),
                ("musician", self.musician),
            )
            if present
        ]
        return tuple(order[: max(0, min(models, len(order)))])


@decides("FB-CMD-05")
def remove_casualties(
    models: int, group: CommandGroup, casualties: int
) -> tuple[int, tuple[str, ...]]:
    """Models left after ``casualties``, and the command models removed, in the
    seed's order (FB-CMD-05)."""
    before = set(group.alive(models))
    left = max(0, models - casualties)
    after = set(group.alive(left))
    order = ("musician", "standard", "champion")
    return left, tuple(name for name in order if name in before - after)
