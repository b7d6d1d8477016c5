"""Public procedure: the «Ни шагу назад!» test."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.no_step_back import NoStepBackOutcome, Stand, no_step_back_test
from kubik.rulesets.steel_war.procedures.morale import MoraleLevelInput


class NoStepBackInput(ProcedureInput):
    """A squad that volunteers for «Ни шагу назад!», and its situation."""

    keno_guard: bool = Field(default=False, description="Keno Guard roll d8, everyone else d6")
    level: MoraleLevelInput = Field(
        default=MoraleLevel.STEADY, description="the squad's morale (По or better needed)"
    )
    in_cover: bool = Field(default=True, description="the squad is in cover")
    gone_to_ground: bool = Field(default=False, description="the squad has gone to ground")
    nearest_friend: float | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="inches to the nearest friendly unit (none within 12 allowed); null = none",
    )
    enemy_levels_in_sight: tuple[MoraleLevelInput, ...] = Field(
        default=(MoraleLevel.STEADY,) * 3,
        description="morale of each enemy squad in sight (3+ not Ра/Бе needed)",
    )
    nearest_enemy: float | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="inches to the nearest enemy: within 12 a failed squad surrenders",
    )


@procedure(
    "steel_war.no_step_back_test",
    input=NoStepBackInput,
    rules=("SW-NSN-01", "SW-NSN-02", "SW-NSN-03"),
    examples=(
        {},
        {"keno_guard": True, "nearest_enemy": 10},
        {"level": "Ра"},
        {
            "in_cover": False,
            "gone_to_ground": True,
            "nearest_friend": 20,
            "enemy_levels_in_sight": ["Ст", "По", "Ра", "Ув"],
        },
    ),
)
def no_step_back_procedure(inp: NoStepBackInput) -> Procedure[NoStepBackOutcome]:
    """«Ни шагу назад!»: if allowed, roll d8 (Keno Guard) or d6; 6+ = berserk, else removed."""
    stand = Stand(
        level=MoraleLevel(inp.level),
        in_cover=inp.in_cover,
        gone_to_ground=inp.gone_to_ground,
        nearest_friend=inp.nearest_friend,
        enemy_levels_in_sight=tuple(MoraleLevel(v) for v in inp.enemy_levels_in_sight),
        nearest_enemy=inp.nearest_enemy,
        keno_guard=inp.keno_guard,
    )
    return (yield from no_step_back_test(stand))
