"""Magic (FB-MAG-01, FB-MAG-02, FB-ABSENT-16). The seed prints no spells: a lore is
a numbered list (data), a wizard rolls for each spell he knows, and Loremaster
knows them all. Magic resistance is the seed's own d20 table (not published WFB's).

>>> resistance_chance(2)
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction

from kubik.engine import Procedure, Roll, emit, msg
from kubik.engine.dice import D6, D20
from kubik.engine.reducers import AtMost
from kubik.rulesets.fantasy.charts import data


def resistance_chance(level: int) -> Fraction:
    """The chance a spell fails on a model of this Magic resistance (FB-MAG-01)."""
    table = data()["magic_resistance"]
    if level >= int(table["immune_level"]):
        return Fraction(1)
    if level <= 0:
        return Fraction(0)
    return Fraction(int(table["fails_at_most"][level - 1]), int(table["die"]))


def magic_resistance(level: int) -> Procedure[bool]:
    """Whether an undispelled enemy spell fails on a unit of Magic resistance
    ``level`` (1–4): a d20 of 1–5, 1–10, 1–15; at 4 no roll, it always fails."""
    table = data()["magic_resistance"]
    if level <= 0:
        return False
    if level >= int(table["immune_level"]):
        yield emit("fantasy.magic.immune", rules=("FB-MAG-01",))
        return True
    limit = int(table["fails_at_most"][level - 1])
    resisted = yield Roll(
        D20,
        msg("fantasy.magic.resistance", level=level, limit=limit),
        reduce=AtMost(limit),
        rules=("FB-MAG-01",),
    )
    yield emit(
        "fantasy.magic.resisted" if resisted else "fantasy.magic.affects", rules=("FB-MAG-01",)
    )
    return bool(resisted)


def generate_spells(known: int, loremaster: bool) -> Procedure[tuple[int, ...]]:
    """The spells (numbers 1..lore size) a wizard knows: Loremaster knows the whole
    lore (FB-MAG-02); otherwise a d6 each, a duplicate giving the lowest spell not
    yet known (FB-ABSENT-16 default)."""
    size = int(data()["magic"]["lore_size"])
    if loremaster:
        yield emit("fantasy.magic.loremaster", rules=("FB-MAG-02",), spells=size)
        return tuple(range(1, size + 1))
    spells: list[int] = []
    for _ in range(min(known, size)):
        (rolled,) = yield Roll(D6, msg("fantasy.magic.spell"), rules=("FB-ABSENT-16",))
        spell = int(rolled)
        if spell in spells:
            spell = min(s for s in range(1, size + 1) if s not in spells)
        spells.append(spell)
    return tuple(sorted(spells))
