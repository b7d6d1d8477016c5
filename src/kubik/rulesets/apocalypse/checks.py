"""The two characteristic tests every other rule calls: Сила духа and Подвижность.

A Spirit test passes on a d6 of at most the Spirit (RA-PSY-01, seed 003 «Если результат
меньше или равен Силе духа»). The Mobility test is absent from the seeds (RA-ABSENT-09):
by analogy it passes on a d6 of at most the Подвижность.
"""

from __future__ import annotations

from kubik.engine import Procedure, Roll, Verdict, msg
from kubik.engine.dice import D6
from kubik.engine.reducers import AtMost


def spirit_test(spirit: int) -> Procedure[bool]:
    """A Сила духа test (RA-PSY-01): d6 ≤ Spirit passes."""
    passed: bool = yield Roll(
        D6,
        msg("apocalypse.test.spirit", spirit=spirit),
        reduce=AtMost(spirit),
        rules=("RA-PSY-01",),
    )
    return passed


def mobility_test(mobility: int) -> Procedure[bool]:
    """A Подвижность test (RA-ABSENT-09 default): d6 ≤ Mobility passes."""
    passed: bool = yield Roll(
        D6,
        msg("apocalypse.test.mobility", mobility=mobility),
        reduce=AtMost(mobility),
        rules=("RA-ABSENT-09",),
    )
    return passed


def first_refusal(*checks: tuple[bool, str, str]) -> Verdict | None:
    """The first of ``(forbidden, message id, rule)`` that holds, as a refusal: a
    permission that goes down a list of prohibitions; ``None`` when none holds.

    >>> first_refusal((False, "a", "RA-CC-01"), (True, "b", "RA-PSY-11")).rules
    ('RA-PSY-11',)
    """
    for forbidden, message_id, rule in checks:
        if forbidden:
            return Verdict.forbid(msg(message_id), rule)
    return None


__all__ = ["first_refusal", "mobility_test", "spirit_test"]
