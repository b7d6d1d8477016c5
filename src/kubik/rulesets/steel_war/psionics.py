"""Steel War psionics (Псионики): psi dice, 12-inch zones, the success test, and the
psionic's passive gifts (survivability, telepathic communication).

Everything here is arithmetic on plain values; the psionic actions, which roll,
are in :mod:`kubik.rulesets.steel_war.psionics_actions`. The numbers come from
``data/psionics.toml``.

>>> psi_die_at(PsiQuality.MASTER.die, 30.0)
Die(faces=4)
>>> psi_succeeds(4, 4), psi_succeeds(4, 4, PsiReading.MORE_THAN)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any

from kubik.engine.applied import decides
from kubik.engine.dice import STEP_CHAIN, Die, StepOverflow, parse_die, step, try_step
from kubik.rulesets.data import DataError, load_ruleset_data
from kubik.rulesets.steel_war.core import zone_number

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@cache
def psi_data() -> Mapping[str, Any]:
    """The ruleset data (psi tables are named ``psi_*``), loaded once."""
    return load_ruleset_data("steel_war")


def _die(text: str, where: str) -> Die:
    die = parse_die(text)
    if die not in STEP_CHAIN:
        raise DataError(f"steel_war.{where}: {text} is not one of d4, d6, d8, d10, d12")
    return die


class PsiQuality(Enum):
    """Psi-quality level (кубы пси-качества, SW-PSI-02); the die comes from data."""

    DEPRIVED = "deprived"
    STUDENT = "student"
    MASTER = "master"
    FAMOUS = "famous"
    LEGEND = "legend"

    @property
    def die(self) -> Die:
        """The psi die of this level (d4 .. d12).

        >>> PsiQuality.MASTER.die
        Die(faces=8)
        """
        return _die(psi_data()["psi_quality"][self.value], f"psi_quality.{self.value}")

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.psi_quality.{self.value}"

    @classmethod
    def of(cls, die: Die) -> PsiQuality:
        """The level whose die is ``die``.

        >>> PsiQuality.of(Die(12))
        <PsiQuality.LEGEND: 'legend'>
        """
        for level in cls:
            if level.die == die:
                return level
        raise DataError(f"steel_war.psi_quality: no level has the die {die}")


class PsiFaction(Enum):
    """Peoples with psionics (SW-PSI-02): who has psi dice, and how strong."""

    BARF_JAT = "barf_jat"
    KENO = "keno"
    OTLOK = "otlok"

    def _table(self) -> dict[str, str]:
        table: dict[str, str] = psi_data()["psi_factions"][self.value]
        return table

    @property
    def every_model(self) -> Die | None:
        """The psi die every model of the faction has (Barf-jat: d4), or None.

        >>> PsiFaction.BARF_JAT.every_model, PsiFaction.KENO.every_model
        (Die(faces=4), None)
        """
        text = self._table()["every_model"]
        return _die(text, f"psi_factions.{self.value}.every_model") if text else None

    @property
    def usual(self) -> Die:
        """The common psi die of the faction's psionics."""
        return _die(self._table()["usual"], f"psi_factions.{self.value}.usual")

    @property
    def highest(self) -> Die:
        """The best psi die known in the faction."""
        return _die(self._table()["highest"], f"psi_factions.{self.value}.highest")

    def allows(self, die: Die) -> bool:
        """Whether a psionic of this faction may have ``die``.

        >>> PsiFaction.OTLOK.allows(Die(10)), PsiFaction.KENO.allows(Die(10))
        (False, True)
        """
        return die in STEP_CHAIN and die <= self.highest


# --- range (SW-PSI-05, SW-PSI-06) -------------------------------------------------------


@decides("SW-PSI-06")
def psi_zone(distance: float) -> int:
    """The psi zone of a target ``distance`` inches away: fixed 12" zones, 0 is zone 1.

    >>> psi_zone(0), psi_zone(12), psi_zone(12.5), psi_zone(36)
    (1, 1, 2, 3)
    """
    return zone_number(distance, int(psi_data()["psi_range"]["zone_inches"]))


@decides("SW-PSI-06")
def psi_die_at(psi: Die, distance: float) -> Die | None:
    """The psi die rolled at ``distance``, or None if no psi action reaches that far.

    One step down per zone beyond the first (SW-PSI-06); past the data's maximum zone,
    or below d4 when the data says "impossible", the action cannot be attempted.

    >>> [psi_die_at(Die(8), d) for d in (6, 18, 30, 42)]
    [Die(faces=8), Die(faces=6), Die(faces=4), None]
    """
    table = psi_data()["psi_range"]
    zone = psi_zone(distance)
    if zone > int(table["max_zones"]):
        return None
    steps = -int(table["steps_per_zone"]) * (zone - 1)
    below = str(table["below_d4"])
    if below == "impossible":
        return try_step(psi, steps)
    if below == "clamp":
        return step(psi, steps, StepOverflow.CLAMP)
    raise DataError(f"steel_war.psi_range.below_d4: '{below}' is not impossible or clamp")


def needs_line_of_sight(distance: float) -> bool:
    """Beyond the first zone a psi action needs the target in line of sight (SW-PSI-05).

    >>> needs_line_of_sight(12), needs_line_of_sight(13)
    (False, True)
    """
    return psi_zone(distance) > int(psi_data()["psi_range"]["any_target_zones"])


# --- success (SW-PSI-06) ----------------------------------------------------------------


class PsiReading(Enum):
    """The two readings of the seed's psi success rule (SW-PSI-06 contradiction)."""

    AT_LEAST = "at_least"  # the list header: «больше или равное»
    MORE_THAN = "more_than"  # the paragraph: «больше определённого значения»

    @classmethod
    def from_data(cls) -> PsiReading:
        """The reading chosen in the data (default: the list header, ≥)."""
        return cls(psi_data()["psi_success"]["reading"])


def psi_succeeds(roll: int, threshold: int, reading: PsiReading | None = None) -> bool:
    """Whether a psi ``roll`` achieves an action's ``threshold`` (≥ by default).

    >>> psi_succeeds(1, 1), psi_succeeds(1, 1, PsiReading.MORE_THAN)
    (True, False)
    """
    if (reading or PsiReading.from_data()) is PsiReading.AT_LEAST:
        return roll >= threshold
    return roll > threshold


@dataclass(frozen=True, slots=True)
class PsiSuccess:
    """Reducer of a psi roll to success, so the odds driver branches over two answers."""

    threshold: int
    reading: PsiReading

    def __call__(self, values: tuple[int, ...]) -> bool:
        return psi_succeeds(values[0], self.threshold, self.reading)

    def batch(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """The same test on every row of ``faces`` at once."""
        import numpy as np  # only large grids are vectorised

        rolls = faces[:, 0]
        if self.reading is PsiReading.AT_LEAST:
            return np.asarray(rolls >= self.threshold)
        return np.asarray(rolls > self.threshold)


def lowest_success(threshold: int, reading: PsiReading | None = None) -> int:
    """The lowest roll that succeeds ("needs N or more", whatever the reading).

    >>> lowest_success(4), lowest_success(4, PsiReading.MORE_THAN)
    (4, 5)
    """
    if (reading or PsiReading.from_data()) is PsiReading.AT_LEAST:
        return threshold
    return threshold + 1


def success_faces(die: Die, threshold: int, reading: PsiReading | None = None) -> int:
    """How many faces of ``die`` succeed (0 = hopeless, all = certain).

    >>> success_faces(Die(8), 2), success_faces(Die(8), 2, PsiReading.MORE_THAN)
    (7, 6)
    """
    return sum(psi_succeeds(v, threshold, reading) for v in die.values)


# --- androids (SW-PSI-18) ---------------------------------------------------------------


def resisting_die(quality: Die, android: bool) -> Die:
    """The die a target rolls to resist psi (morale or panic test caused by psi).

    Androids always roll d6, whatever their quality (SW-PSI-18).

    >>> resisting_die(Die(10), android=True), resisting_die(Die(10), android=False)
    (Die(faces=6), Die(faces=10))
    """
    if android:
        return _die(psi_data()["psi_androids"]["resist_die"], "psi_androids.resist_die")
    return quality


# --- survivability (SW-PSI-03) ----------------------------------------------------------


class FireKind(Enum):
    """What the psionic is fired on with, as far as survivability cares."""

    AIMED_SMALL_ARMS = "aimed_small_arms"  # стрелковое оружие, стреляет прицельно
    FRAGMENTATION = "fragmentation"  # поражает осколками
    OTHER = "other"  # flame, artillery, vehicle weapons …


def survivability_armour_die(
    psi: Die,
    armour: Die,
    fire: FireKind,
    *,
    from_air: bool = False,
    hit_on_psionic: bool = True,
) -> Die:
    """The armour die a psionic rolls for a hit (живучесть): his psi die instead of d4.

    Only for aimed small-arms fire, not from the air, and only when the hit falls on
    the psionic himself; otherwise his ``armour`` as usual. Not a roll of its own: the
    armour test (SW-DMG-03) rolls the die returned here.

    >>> survivability_armour_die(Die(8), Die(4), FireKind.AIMED_SMALL_ARMS)
    Die(faces=8)
    >>> survivability_armour_die(Die(8), Die(4), FireKind.FRAGMENTATION)
    Die(faces=4)
    """
    if fire is not FireKind.AIMED_SMALL_ARMS or from_air or not hit_on_psionic:
        return armour
    table = psi_data()["psi_survivability"]
    if bool(table["keep_better_armour"]):
        return max(psi, armour)
    return psi


def usual_armour() -> Die:
    """The armour die survivability replaces (d4)."""
    table = psi_data()["psi_survivability"]
    return _die(table["usual_armour"], "psi_survivability.usual_armour")


# --- telepathic communication (SW-PSI-04) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class CommunicationRoll:
    """How a communication test (SW-MOR-09) is taken: passed without a roll, or on ``die``.

    The test itself (degrading ``die`` per skipped link, beating leadership) is the
    communication rule's; this only picks the die.
    """

    automatic: bool
    die: Die


def telepathic_communication(
    quality: Die,
    initiator_psi: Die | None,
    other_psi: Die | None,
    *,
    on_table: bool = True,
) -> CommunicationRoll:
    """The communication test between two parties when psionics are involved.

    ``quality``: the die the test would use without psionics (the initiating unit's
    quality die); ``*_psi``: each party's psi die, None if it has no psionic.
    Two psionics always pass; a psionic and ordinary troops use the better of the psi
    die and the quality die. Only for communication on the table (not artillery or
    air strikes: ``on_table=False``).

    >>> telepathic_communication(Die(6), Die(8), None)
    CommunicationRoll(automatic=False, die=Die(faces=8))
    >>> telepathic_communication(Die(6), Die(4), Die(4)).automatic
    True
    """
    table = psi_data()["psi_communication"]
    if not on_table and bool(table["on_table_only"]):
        return CommunicationRoll(False, quality)
    psi_dice = [d for d in (initiator_psi, other_psi) if d is not None]
    if len(psi_dice) == 2 and bool(table["psionics_always_pass"]):
        return CommunicationRoll(True, quality)
    if psi_dice and bool(table["troops_use_better_die"]):
        return CommunicationRoll(False, max(quality, *psi_dice))
    return CommunicationRoll(False, quality)


# --- inspiration by a psionic (SW-PSI-09) -----------------------------------------------


@decides("SW-PSI-09")
def psionic_leadership(own: int | None = None) -> int:
    """The psionic's leadership in the inspiration target N (SW-PSI-09).

    His own if he is a commander, otherwise the data's default (an ordinary 2).

    >>> psionic_leadership(), psionic_leadership(1)
    (2, 1)
    """
    if own is not None:
        return own
    return int(psi_data()["psi_inspiration"]["psionic_leadership"])
