"""The blows of a round folded forward in strike order (each group of strikers a step
on the tallies the groups before it left, each side's strikers of a group a sum
capped at what their target has left) against every die of the round enumerated
as written (FB-ABSENT-17, FB-SR-13)."""

from __future__ import annotations

from typing import Any

import pytest

from kubik import api
from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.rulesets.fantasy.close_combat import Regiment, Round, close_combat_round
from kubik.rulesets.fantasy.profiles import Fighter
from tests.conftest import brute_force

F = frozenset
STEADY = F({"unbreakable"})  # no Break test: the blows' dice alone


def _odds(r: Round) -> dict[object, object]:
    return dict(OddsDriver().distribution(close_combat_round, (r,)))


ROUNDS = {
    # the quicker side kills before the slower strikes: two groups, the second's
    # blows read the models the first left (FB-ABSENT-17)
    "initiative": Round(
        Regiment(Fighter(ws=4, s=4, i=5, rules=STEADY), 1, files=1),
        Regiment(Fighter(s=3, i=2, rules=STEADY), 2, files=2),
        round_number=2,
    ),
    # a character beside his troops strikes with them: their wounds add up, capped at
    # the two models of two Wounds the enemy has; Killing blows slay outright (FB-SR-13)
    "together, capped": Round(
        Regiment(
            Fighter(s=4, i=3, rules=STEADY | {"killing_blow"}),
            1,
            files=1,
            character=Fighter(ws=5, s=5, i=3, rules=STEADY),
        ),
        Regiment(Fighter(t=4, w=2, i=3, rules=STEADY), 1, files=1),
        round_number=2,
    ),
    # and a Break test at the end: the loser's Leadership (FB-ABSENT-08)
    "break test": Round(
        Regiment(Fighter(ws=4, s=5, i=4), 1, files=1, charging=True),
        Regiment(Fighter(i=4, ld=6), 1, files=1),
    ),
}


@pytest.mark.parametrize("name", ROUNDS)
def test_folded_round_matches_every_die(name: str) -> None:
    r = ROUNDS[name]
    assert _odds(r) == brute_force(close_combat_round, (r,), limit=200_000)


def _regiment(models: int, wounds: int) -> dict[str, Any]:
    return {
        "troops": {"wounds": wounds, "attacks": 2, "special_rules": ["killing_blow"]},
        "models": models,
        "files": 5,
    }


def test_a_regiment_of_more_than_sixty_wounds_is_refused_in_one_line() -> None:
    """The exact odds of a round answer in a second up to 60 Wounds of rank and file a
    side (models × Wounds: sixty of one Wound, twenty Ogres of three); more is refused
    naming the side's ``models`` and the limit, in English and Russian."""
    question = {"a": _regiment(21, 3), "b": _regiment(10, 1)}
    with pytest.raises(InputError) as refused:
        api.odds("fantasy.close_combat", question)
    assert refused.value.text("en") == (
        "a.models: 21 models of 3 Wounds are 63 Wounds in the rank and file; "
        "at most 60 (models × Wounds)"
    )
    assert refused.value.text("ru") == (
        "a.models: 21 модель по 3 раны — 63 раны у рядовых; можно не больше 60 (модели × раны)"
    )
    answer = api.odds("fantasy.close_combat", {"a": _regiment(20, 3), "b": _regiment(60, 1)})
    assert answer["exact"] is True


def test_fb_absent_19_only_one_side_charges_into_a_round() -> None:
    """FB-ABSENT-19: charges are declared in the active player's Movement phase, so only
    one side of a combat charges in a round; a question with both charging is refused in
    one line naming ``b.charging``, in English and Russian, and one side charging is asked."""
    a, b = _regiment(10, 1), _regiment(10, 1)
    a["charging"] = b["charging"] = True
    with pytest.raises(InputError) as refused:
        api.odds("fantasy.close_combat", {"a": a, "b": b})
    assert refused.value.text("en") == (
        "b.charging: only one side charges into a combat, the side whose turn it is "
        "(FB-ABSENT-19); a.charging and b.charging cannot both be true"
    )
    assert refused.value.text("ru") == (
        "b.charging: в бой атакует только одна сторона — та, чей сейчас ход (FB-ABSENT-19); "
        "a.charging и b.charging не могут быть true одновременно"
    )
    b["charging"] = False
    assert api.odds("fantasy.close_combat", {"a": a, "b": b})["exact"] is True
