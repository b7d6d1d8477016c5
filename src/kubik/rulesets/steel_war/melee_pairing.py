"""How Steel War close combat pairs its fighters into bouts (SW-CC-06): one fighter facing
one or more enemies, each of whom faces only him; every man of the smaller side heads a
bout and the larger side's men are spread over them as evenly as possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kubik.core.errors import InputError
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.steel_war.melee_fighters import Fighter, Side


@dataclass(frozen=True, slots=True)
class Group:
    """``count`` groups: one fighter of ``centre`` facing ``opponents`` enemies (SW-CC-06)."""

    centre: Side
    opponents: int
    count: int = 1

    def fighters(self, side: Side) -> int:
        """How many fighters of ``side`` stand in these groups."""
        return self.count * (1 if side is self.centre else self.opponents)


def default_pairing(attackers: int, defenders: int) -> tuple[Group, ...]:
    """Every fighter of the smaller side faces the larger side's fighters spread evenly (SW-CC-06).

    >>> [(g.centre.value, g.opponents, g.count) for g in default_pairing(3, 5)]
    [('attacker', 2, 2), ('attacker', 1, 1)]
    """
    if attackers < 1 or defenders < 1:
        raise InputError("attackers, defenders: each side needs at least one fighter")
    centre = Side.ATTACKER if attackers <= defenders else Side.DEFENDER
    small, large = sorted((attackers, defenders))
    per, extra = divmod(large, small)
    groups = [Group(centre, per + 1, extra)] if extra else []
    groups.append(Group(centre, per, small - extra))
    return tuple(g for g in groups if g.count)


def check_pairing(groups: tuple[Group, ...], attackers: int, defenders: int) -> None:
    """Everybody fights and nobody twice: the groups must hold exactly the fighters (SW-CC-06)."""
    for side, total in ((Side.ATTACKER, attackers), (Side.DEFENDER, defenders)):
        placed = sum(g.fighters(side) for g in groups)
        if placed != total:
            raise InputError(
                f"groups: place every {side.value} exactly once ({placed} placed, {total} fight)"
            )


@dataclass(frozen=True, slots=True)
class Bout:
    """One fighter of ``centre``'s side facing one or more enemies, each of whom faces only
    him (SW-CC-06), with each man's own melee die (SW-CC-07).

    ``names``: empty, or the lone fighter's name then each opponent's — named bouts
    report who fell; unnamed identical bouts are fought as one Call with ``times``.
    """

    centre: Side
    fighter: Die
    opponents: tuple[Die, ...]
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.opponents:
            raise InputError("bouts: every fighter faces at least one enemy")
        if self.names and len(self.names) != 1 + len(self.opponents):
            raise InputError("bouts: name the lone fighter and each of his opponents, or none")

    def fighters(self, side: Side) -> int:
        """How many fighters of ``side`` stand in this bout."""
        return 1 if side is self.centre else len(self.opponents)


def bouts_of(groups: tuple[Group, ...], attacker: Fighter, defender: Fighter) -> tuple[Bout, ...]:
    """The bouts of a pairing in which every man of a side carries the same (SW-CC-06/07).

    >>> from kubik.engine.dice import D8
    >>> two = (Group(Side.ATTACKER, 2, 2),)
    >>> [len(b.opponents) for b in bouts_of(two, Fighter(D8), Fighter(D8))]
    [2, 2]
    """
    dice = {Side.ATTACKER: attacker.die(), Side.DEFENDER: defender.die()}
    return tuple(
        Bout(g.centre, dice[g.centre], (dice[g.centre.other],) * g.opponents)
        for g in groups
        for _ in range(g.count)
    )


@decides("SW-CC-06")
def pair_fighters(
    attackers: Sequence[tuple[str, Die]], defenders: Sequence[tuple[str, Die]]
) -> tuple[Bout, ...]:
    """The default pairing of real fighters, each with his own melee die (SW-CC-06):
    every man of the smaller side heads a bout, the larger side's men are spread as evenly
    as possible, in the order given (the first bouts take the spare men).

    >>> from kubik.engine.dice import D6, D8
    >>> bouts = pair_fighters([("a1", D8)], [("d1", D6), ("d2", D8)])
    >>> bouts[0].names, bouts[0].opponents
    (('a1', 'd1', 'd2'), (Die(faces=6), Die(faces=8)))
    """
    if not attackers or not defenders:
        raise InputError("attackers, defenders: each side needs at least one fighter")
    centre = Side.ATTACKER if len(attackers) <= len(defenders) else Side.DEFENDER
    small, large = (attackers, defenders) if centre is Side.ATTACKER else (defenders, attackers)
    per, extra = divmod(len(large), len(small))
    named = any(name for name, _ in (*attackers, *defenders))
    bouts: list[Bout] = []
    taken = 0
    for index, (name, die) in enumerate(small):
        size = per + (1 if index < extra else 0)
        facing = large[taken : taken + size]
        taken += size
        names = (name, *(n for n, _ in facing)) if named else ()
        bouts.append(Bout(centre, die, tuple(d for _, d in facing), names))
    return tuple(bouts)


__all__ = ["Bout", "Group", "bouts_of", "check_pairing", "default_pairing", "pair_fighters"]
