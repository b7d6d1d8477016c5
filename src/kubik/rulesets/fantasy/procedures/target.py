"""The target's side of a blow or a shot, read once from any public input that
describes it (the attacks and shooting procedures share these fields)."""

from __future__ import annotations

from typing import Protocol, TypedDict


class TargetInput(Protocol):
    """An input naming the target's Toughness, saves, Wounds and special rules."""

    @property
    def target_toughness(self) -> int: ...
    @property
    def target_armour_save(self) -> int | None: ...
    @property
    def target_ward_save(self) -> int | None: ...
    @property
    def target_regeneration(self) -> int | None: ...
    @property
    def target_wounds(self) -> int: ...
    @property
    def target_special_rules(self) -> tuple[str, ...]: ...


class TargetFields(TypedDict):
    """The target's fields of :class:`~kubik.rulesets.fantasy.attacks.Blows` and
    :class:`~kubik.rulesets.fantasy.shooting.Volley` alike."""

    target_toughness: int
    target_armour_save: int | None
    target_ward_save: int | None
    target_regeneration: int | None
    target_wounds: int
    target_rules: frozenset[str]


def target_fields(inp: TargetInput) -> TargetFields:
    return TargetFields(
        target_toughness=inp.target_toughness,
        target_armour_save=inp.target_armour_save,
        target_ward_save=inp.target_ward_save,
        target_regeneration=inp.target_regeneration,
        target_wounds=inp.target_wounds,
        target_rules=frozenset(inp.target_special_rules),
    )
