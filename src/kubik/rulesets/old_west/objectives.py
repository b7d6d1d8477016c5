"""What each side of an Old West rule wants, for the optimal policy (kubik.engine.optimal).

Every rule with decisions declares its deciders' goals here, computed from the rule's
own arguments (the deciding side is often one of them): a strike wants to wound, a
test wants to be passed, each side of a fight wants to win it, and in a whole
close-combat round each side wants the wounds it deals (and the models it puts out
of action, weighed by ``objectives`` in the data) minus those it takes. The public
procedures declare the same goals over their inputs.

>>> from kubik.rulesets.old_west.fight import FightOutcome
>>> from kubik.rulesets.old_west.core import Side
>>> goals = fight_goals((), ())
>>> goals["a"].worth(FightOutcome(Side.A)), goals["b"].worth(FightOutcome(Side.A))
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from kubik.core.keeping import Kept
from kubik.engine.objectives import FieldIs, FieldValue, Objectives, declare, goal, summarise
from kubik.engine.requests import Message, msg
from kubik.rulesets.old_west import absent, combat, fight, pluck, wounds
from kubik.rulesets.old_west.absent import JumpResult, ShotResult
from kubik.rulesets.old_west.combat import CombatOutcome
from kubik.rulesets.old_west.core import Side, data
from kubik.rulesets.old_west.procedures import combat as combat_inputs
from kubik.rulesets.old_west.procedures import fight as fight_inputs
from kubik.rulesets.old_west.procedures import heroics as heroics_inputs
from kubik.rulesets.old_west.procedures import pluck as pluck_inputs
from kubik.rulesets.old_west.procedures import wound as wound_inputs


@dataclass(frozen=True, slots=True)
class NotField:
    """Worth: 1 unless a field has the value (a jump that does not fail)."""

    name: str
    value: str

    def __call__(self, outcome: Any) -> int:
        return 1 - int(FieldIs(self.name, self.value)(outcome))


@dataclass(frozen=True, slots=True)
class ShotWounds:
    """Worth of a shot: 1 when it wounded what it was aimed at (the target or its mount)."""

    def __call__(self, outcome: absent.ShotOutcome) -> int:
        return int(outcome.wounded and outcome.result is not ShotResult.IN_THE_WAY)


#: Most worths a round's score keeps, by outcome (an engine limit, not a rule).
SCORES_KEPT = 4096


@dataclass(frozen=True, slots=True)
class RoundScore:
    """Worth of a close-combat round to ``side``: wounds dealt and models put out of
    action (weighted), counted against it when it lost. Each outcome's worth is worked
    out once (the optimal policy asks it at every leaf of a round it solves)."""

    side: Side
    wound: Fraction
    out_of_action: Fraction
    _worths: Kept[CombatOutcome, Fraction] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=lambda: Kept(SCORES_KEPT)
    )

    def __call__(self, outcome: CombatOutcome) -> Fraction:
        known = self._worths.get(outcome)
        if known is not None:
            return known
        score = self.wound * sum(outcome.wounds) + self.out_of_action * outcome.out_of_action
        return self._worths.keep(outcome, score if outcome.winner is self.side else -score)


def _side_goals(side: str, worth: Any, message_id: str) -> Objectives:
    return {side: goal(worth, message_id)}


def wound_goals(strength: int, toughness: int, fame: int = 0, side: str = "striker") -> Objectives:
    """A strike: its side wants the wound."""
    return _side_goals(side, FieldValue("wounded"), "old_west.goal.wound")


def pluck_goals(pluck_value: int, fame: int = 0, side: str = "model") -> Objectives:
    """A Pluck test: its side wants to pass."""
    return _side_goals(side, FieldValue("passed"), "old_west.goal.pass")


def hills_goals(
    models: int,
    out_of_action: int,
    leader_pluck: int | None,
    others: tuple[int, ...] = (),
    voluntary: bool = False,
    fame: int = 0,
    side: str = "leader",
) -> Objectives:
    """Head for the Hills: the posse wants to stay."""
    return _side_goals(side, FieldIs("flees", "false"), "old_west.goal.stay")


def fearsome_goals(pluck_value: int, fame: int = 0, side: str = "model") -> Objectives:
    """Fearsome Reputation: the model wants to be able to act."""
    return _side_goals(side, FieldValue("may_act"), "old_west.goal.act")


def diving_goals(
    pluck_value: int, behind_cover: bool, mounted: bool = False, fame: int = 0, side: str = "model"
) -> Objectives:
    """Diving for Cover: the model wants to keep its nerve."""
    return _side_goals(side, FieldIs("reaction", "none"), "old_west.goal.steady")


def jump_goals(fame: int = 0, side: str = "model") -> Objectives:
    """A jump or climb: the model wants not to fail."""
    return _side_goals(side, NotField("result", JumpResult.FAIL.value), "old_west.goal.jump")


def shot_goals(
    shoot_value: int,
    strength: int,
    toughness: int,
    in_the_way: tuple[int, ...] = (),
    mount_toughness: int = 0,
    fame: int = 0,
    side: str = "shooter",
) -> Objectives:
    """A shot: the shooter wants to wound what he aims at."""
    return _side_goals(side, ShotWounds(), "old_west.goal.shot")


def fortune_goals(
    wounds: int, points: int, side: str = "hero", hero: Message | None = None
) -> Objectives:
    """Fortune: the Hero wants to suffer as few of the wounds as he can."""
    return _side_goals(side, FieldValue("wounds", -1), "old_west.goal.fortune")


def fight_goals(
    a: Sequence[Any], b: Sequence[Any], advantage: Side = Side.A, payers: bool = True
) -> Objectives:
    """Dukin' it out: each side wants to win the fight."""
    return {
        side.value: goal(FieldIs("winner", side.value), "old_west.goal.win_fight", side=side)
        for side in Side
    }


def combat_goals(a: Sequence[Any], b: Sequence[Any], advantage: Side = Side.A) -> Objectives:
    """A close-combat round: each side wants the wounds it deals, minus those it takes."""
    weights = data()["objectives"]
    wound_weight = Fraction(weights["wound"])
    out_weight = Fraction(weights["out_of_action"])
    return {
        side.value: goal(
            RoundScore(side, wound_weight, out_weight), "old_west.goal.round", side=side
        )
        for side in Side
    }


def fight_bid_situation(reason: Message) -> Message:
    """What matters when a side may put Fame on its fight die: how far behind or ahead
    its best die is, the Fame it has, and whether the bid is secret."""
    p = reason.kwargs
    gap = int(p["opponent"]) - int(p["rolled"])
    return msg(
        "old_west.explain.fight_bid", side=p["side"], gap=gap, fame=p["fame"], secret=p["secret"]
    )


def roll_situation(reason: Message) -> Message:
    """What matters when Fame may lift a roll: how many points short it is, of what, and
    the Fame there is."""
    p = reason.kwargs
    return msg(
        "old_west.explain.short",
        roll=Message(f"{reason.id}.roll"),
        short=int(p["needed"]) - int(p["rolled"]),
        needed=p["needed"],
        fame=p["fame"],
        stage=p.get("stage", 0),
    )


summarise("old_west.fame.spend_fight", fight_bid_situation)
for _roll in ("wound", "hit", "jump", "pluck"):
    summarise(f"old_west.fame.spend_{_roll}", roll_situation)

declare(wounds.wound_with_fame, wound_goals)
declare(wounds.wound, wound_goals)
declare(pluck.pluck_test_with_fame, pluck_goals)
declare(pluck.pluck_test, pluck_goals)
declare(pluck.head_for_the_hills, hills_goals)
declare(pluck.fearsome_reputation, fearsome_goals)
declare(pluck.diving_for_cover, diving_goals)
declare(absent.jump_test, jump_goals)
declare(absent.fortune, fortune_goals)
declare(absent.shoot, shot_goals)
declare(fight.dukin_it_out, fight_goals)
declare(fight.fight, fight_goals)
declare(combat.combat, combat_goals)

declare(wound_inputs.wound_procedure, lambda inp: wound_goals(0, 0))
declare(fight_inputs.fight_procedure, lambda inp: fight_goals((), ()))
declare(combat_inputs.combat_procedure, lambda inp: combat_goals((), ()))
declare(pluck_inputs.pluck_test_procedure, lambda inp: pluck_goals(0))
declare(pluck_inputs.head_for_the_hills_procedure, lambda inp: hills_goals(0, 0, None))
declare(pluck_inputs.fearsome_procedure, lambda inp: fearsome_goals(0))
declare(pluck_inputs.diving_procedure, lambda inp: diving_goals(0, False))
declare(heroics_inputs.jump_procedure, lambda inp: jump_goals())
declare(heroics_inputs.shoot_procedure, lambda inp: shot_goals(0, 0, 0))
declare(heroics_inputs.fortune_procedure, lambda inp: fortune_goals(0, 0))

__all__ = [
    "NotField",
    "RoundScore",
    "ShotWounds",
    "combat_goals",
    "diving_goals",
    "fearsome_goals",
    "fight_bid_situation",
    "fight_goals",
    "fortune_goals",
    "hills_goals",
    "jump_goals",
    "pluck_goals",
    "roll_situation",
    "shot_goals",
    "wound_goals",
]
