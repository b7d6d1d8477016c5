"""The close-combat phase around its bouts (seed 003, «Фаза рукопашного боя»): who is
drawn into a fight (RA-CC-02), and the advance of a warrior whose opponents are all
out of action (RA-CC-19); in a fight of several, who picks the order of the bouts
(RA-CC-18). One bout is :mod:`~kubik.rulesets.apocalypse.melee`.

«Воины, находящиеся на расстоянии не более одного шага от сражающихся, втягиваются в
бой. На начале каждого раунда схватки придвиньте всех воинов в радиусе одного шага от
сражающихся в базовый контакт»; a warrior drawn in may hold back («уход от
рукопашной», staying where he is). «Если все противники модели в рукопашной выбыли из
игры, модель может ... продвинуться на один шаг».
"""

from __future__ import annotations

from collections.abc import Mapping

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.apocalypse.core import decimal


@decides("RA-CC-02")
def drawn_in_reach() -> float:
    """Paces from a fight within which a warrior is drawn into it (RA-CC-02).

    >>> drawn_in_reach()
    1.0
    """
    return decimal("melee", "drawn_in_paces")


@decides("RA-CC-19")
def advance_reach() -> float:
    """Paces a warrior advances when his opponents are all out of action (RA-CC-19).

    >>> advance_reach()
    1.0
    """
    return decimal("melee", "advance_paces")


@decides()
def may_join(reaches: bool) -> Verdict:
    """May he be moved into base contact with the fight (RA-CC-02)? Only where his walked
    way into contact lies within :func:`drawn_in_reach`.

    >>> may_join(True).allowed, may_join(False).allowed
    (True, False)
    """
    return Verdict.of(reaches, msg("apocalypse.permission.no_way_in"), "RA-CC-02")


@decides()
def may_hold_back() -> Verdict:
    """A warrior drawn in may avoid the fight, staying where he is (RA-CC-02, by «уход
    от рукопашной» of the absent movement phase, RA-ABSENT-08)."""
    return Verdict.allow("RA-CC-02", "RA-ABSENT-08")


@decides()
def may_advance(opponents_left: int) -> Verdict:
    """May he advance a pace (RA-CC-19)? Only when every opponent he fought is out of
    action.

    >>> may_advance(0).allowed, may_advance(1).allowed
    (True, False)
    """
    return Verdict.of(opponents_left == 0, msg("apocalypse.permission.in_combat"), "RA-CC-19")


@decides("RA-CC-03")
def fight_order(fighters: int) -> int:
    """Where a fight of ``fighters`` comes in the close-combat phase: one-on-one fights
    first, then the fights of several (RA-CC-03, «Порядок»).

    >>> sorted([3, 2, 4, 2], key=fight_order)
    [2, 2, 3, 4]
    """
    return 0 if fighters <= 2 else 1


@decides("RA-CC-18")
def orders_strikes(numbers: Mapping[str, int], phase_side: str) -> str:
    """Who picks the order of the bouts in a fight of several: the side with more
    fighters in it (RA-CC-18: «Игрок, превосходящий по численности, может решить, кто из
    его моделей и в какой последовательности будет бить»); with equal numbers the player
    whose phase it is (RA-CC-03 default).

    >>> orders_strikes({"a": 1, "b": 3}, "a"), orders_strikes({"a": 2, "b": 2}, "a")
    ('b', 'a')
    """
    most = max(numbers.values(), default=0)
    leaders = [side for side, n in numbers.items() if n == most]
    return leaders[0] if len(leaders) == 1 else phase_side


@decides()
def may_strike(in_contact: bool) -> Verdict:
    """A bout that may come next: every warrior fights each enemy in contact with him,
    in any order (RA-CC-18).

    >>> may_strike(True).allowed, may_strike(False).allowed
    (True, False)
    """
    return Verdict.of(in_contact, msg("apocalypse.permission.not_in_contact"), "RA-CC-18")


__all__ = [
    "advance_reach",
    "drawn_in_reach",
    "fight_order",
    "may_advance",
    "may_hold_back",
    "may_join",
    "may_strike",
    "orders_strikes",
]
