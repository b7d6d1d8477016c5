"""Every message the shooting rules can show has an English and a Russian template
(SW-FIRE-01, SW-DMG-02, SW-DMG-06, SW-DMG-09, SW-SUP-03)."""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import Enum
from typing import Any

import pytest

from kubik.engine import play
from kubik.engine.dice import D6
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.engine.registry import get
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.damage import HitEffect, Injury, TargetKind, replace_commander
from kubik.rulesets.steel_war.damage_allocation import allocate_hits
from kubik.rulesets.steel_war.damage_models import TargetModel, explosion_hits
from kubik.rulesets.steel_war.fire import Cover, Effect
from kubik.rulesets.steel_war.fire_weapons import weapon, weapon_ids
from kubik.rulesets.steel_war.unsuppressing import unsuppress
from kubik.text.i18n import catalogue, render

FIRE = get("steel_war.fire")

RUNS: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
    (
        FIRE.function,
        (
            FIRE.input_model.model_validate(
                {"quality": "d12", "weapons": [{"weapon": "sniper_rifle"}], "distance": 3}
            ),
        ),
    ),
    (
        FIRE.function,
        (
            FIRE.input_model.model_validate(
                {"quality": "d12", "weapons": [{"weapon": "flamethrower_keno"}], "distance": 3}
            ),
        ),
    ),
    (allocate_hits, (3, tuple("abcdefg"), ("h",))),
    (allocate_hits, (2, ("a", "b"), (), True)),
    (replace_commander, (2,)),
    (
        explosion_hits,
        (
            "flamethrower_keno",
            (TargetModel("a"), TargetModel("b", TargetKind.FULL_INFANTRY_ARMOUR)),
        ),
    ),
    (unsuppress, (D6, 2, 2, 2)),
]


@pytest.mark.parametrize(("procedure", "args"), RUNS)
def test_SW_FIRE_01_every_message_exists_in_english_and_russian(
    procedure: Callable[..., Any], args: tuple[Any, ...]
) -> None:
    ids: set[str] = set()
    for seed in range(40):
        for entry in play(procedure, args, random.Random(seed)).log:
            if isinstance(entry, RollEntry | ChoiceEntry):
                ids.add(entry.reason.id)
                assert "{" not in render(entry.reason, "ru")
            elif isinstance(entry, EventEntry):
                ids.add(entry.event.id)
                for lang in ("en", "ru"):
                    text = render(entry.event, lang)
                    assert entry.event.id not in text, text
    assert ids
    for lang in ("en", "ru"):
        assert not sorted(i for i in ids if i not in catalogue(lang)), lang


def test_SW_FIRE_10_enum_and_weapon_names_are_translated() -> None:
    enums: list[Enum] = [*Effect, *Injury, *Cover, *HitEffect, *ActionType]
    ids = {e.msgid for e in enums} | {weapon(w).msgid for w in weapon_ids()}  # type: ignore[attr-defined]
    for lang in ("en", "ru"):
        assert not sorted(i for i in ids if i not in catalogue(lang)), lang
    assert render_effect(Effect.SUPPRESSED, "en") == "suppressed (подавлено)"
    assert render_effect(Effect.SUPPRESSED, "ru") == "подавлено"


def render_effect(effect: Effect, lang: str) -> str:
    from kubik.engine import Message

    return render(Message(effect.msgid), lang)
