"""A whole close-combat round: Dukin' it out, Back off!, Woundin' (OW-CC-01..16).

The fight decides a winner (:mod:`.fight`). The losers back off 1"; a loser who
cannot (``trapped``), or who lies on the ground, is trapped and every strike on him
counts double (OW-CC-09, OW-CC-10). A prone winner stands up and does not strike.
Then every winning model strikes once per Attack (OW-CC-05, OW-CC-11); a single
winner facing several losers picks a target for each Attack in turn (OW-CC-13).
Strikes across an obstacle first need 4+ to reach (OW-CC-14, OW-CC-15). Strikes at
a rider may go at his mount instead (OW-CC-16); a mount killed throws its rider
(Falling from a Horse, absent: OW-ABSENT-06 default). A model is out of action once
it has suffered as many wounds as it has Wounds (OW-CC-12); a Hero's Fortune may save
him from wounds first (OW-ABSENT-07 default).

Strikes without Fame are independent, so they are combined by convolution
(``Call(..., times=n)``); a Hero's strikes share one Fame pool and are rolled in turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from kubik.dice import D6
from kubik.engine import AnyCall, Call, Choose, Procedure, Roll, emit, msg
from kubik.errors import InputError
from kubik.rulesets.old_west.absent import fall_from_horse, falling, fortune, lands_prone
from kubik.rulesets.old_west.core import Side, number
from kubik.rulesets.old_west.fight import Fighter, FightResult, dukin_it_out
from kubik.rulesets.old_west.wounds import CountWounded, WoundOutcome, wound, wound_with_fame


@dataclass(frozen=True, slots=True)
class Model:
    """A model in a close-combat round: its profile and its situation."""

    fight: int
    attacks: int
    strength: int
    toughness: int
    wounds: int = 1  # Wounds it has left
    fame: int = 0
    prone: bool = False  # lying on the ground (OW-CC-10)
    trapped: bool = False  # cannot back off the full 1" if it loses (OW-CC-09)
    across_obstacle: bool = False  # separated from its opponent by an obstacle (OW-CC-14)
    mount_toughness: int = 0  # 0: on foot; otherwise the mount's Toughness (OW-CC-16)
    mount_wounds: int = 0
    cliff_drop: int = 0  # inches: backs off over the edge of a drop this high (OW-CC-09)
    fortune: int = 0  # Fortune points it will spend against wounds (OW-ABSENT-07 default)

    @property
    def fighter(self) -> Fighter:
        """What Dukin' it out needs of it."""
        return Fighter(self.fight, self.attacks, self.fame)

    @property
    def mounted(self) -> bool:
        """Whether it rides a horse or a mule."""
        return self.mount_toughness > 0


def _flags(values: Sequence[int] | Sequence[bool]) -> tuple[int, ...]:
    """A per-model record, or () when nothing happened to anyone (fewer distinct outcomes)."""
    return tuple(int(v) for v in values) if any(values) else ()


@dataclass(frozen=True, slots=True)
class CombatOutcome:
    """What a round did, per model, for the game to apply exactly.

    ``wounds``: wounds each model of the losing side suffered (input order, after its
    Fortune); ``out_of_action``: how many of them lost their last Wound. The rest is
    () when nothing of the kind happened, else one entry per model (input order):
    ``mounts``, 1 where a loser's mount was killed (OW-CC-16); ``fell``, 1 where a loser
    ends the round on the ground after a fall (thrown by its killed mount, OW-ABSENT-06;
    over a cliff edge, OW-ABSENT-05); ``fame_a`` / ``fame_b``, Fame each model of side a
    / b spent (deciding the fight and wounding, OW-HERO-02/05); ``fortune``, Fortune each
    loser spent against its wounds (OW-ABSENT-07).
    """

    winner: Side
    wounds: tuple[int, ...]
    out_of_action: int
    mounts: tuple[int, ...] = ()
    fell: tuple[int, ...] = ()
    fame_a: tuple[int, ...] = ()
    fame_b: tuple[int, ...] = ()
    fortune: tuple[int, ...] = ()

    def fame(self, side: Side, index: int) -> int:
        """Fame spent by model ``index`` (0-based) of ``side``."""
        spent = self.fame_a if side is Side.A else self.fame_b
        return spent[index] if spent else 0

    def fortune_spent(self, index: int) -> int:
        """Fortune spent by loser ``index`` (0-based)."""
        return self.fortune[index] if self.fortune else 0

    def mount_killed(self, index: int) -> bool:
        """Whether loser ``index``'s mount was killed this round."""
        return bool(self.mounts[index]) if self.mounts else False

    def on_the_ground(self, index: int) -> bool:
        """Whether loser ``index`` fell and lies prone (from a horse or a height)."""
        return bool(self.fell[index]) if self.fell else False


def strikes_on(attacks: int, trapped: bool) -> int:
    """Strikes an Attack count makes on a target: doubled on a trapped one (OW-CC-09).

    >>> strikes_on(1, True), strikes_on(2, True), strikes_on(2, False)
    (2, 4, 2)
    """
    return attacks * (number("close_combat", "trapped_strike_multiplier") if trapped else 1)


class BackOff(StrEnum):
    """What backing off 1" does to a loser (OW-CC-04, OW-CC-09, OW-CC-10)."""

    BACKED_OFF = "backed_off"
    TRAPPED = "trapped"  # strikes on him are doubled
    FALLS = "falls"  # at a cliff edge: normal strikes, then he falls

    @property
    def msgid(self) -> str:
        """Message id of its description."""
        return f"old_west.back_off.{self.value}"


def back_off(can_back_off: bool, prone: bool, cliff_drop: int) -> BackOff:
    """How a loser backs off: a prone loser is trapped (OW-CC-10); one at a cliff edge
    takes normal strikes and falls; one who cannot move 1" is trapped (OW-CC-09).

    >>> back_off(True, False, 0).value, back_off(False, False, 0).value
    ('backed_off', 'trapped')
    >>> back_off(True, True, 0).value, back_off(False, False, 3).value
    ('trapped', 'falls')
    """
    if cliff_drop > 0:
        return BackOff.FALLS
    if prone or not can_back_off:
        return BackOff.TRAPPED
    return BackOff.BACKED_OFF


def check_fight_sizes(a: Sequence[Model], b: Sequence[Model]) -> None:
    """Every fight has a single model on at least one side (OW-ABSENT-03 default)."""
    if not a or not b:
        raise InputError("a, b: each side needs at least one model")
    if len(a) > 1 and len(b) > 1:
        raise InputError("a, b: one side of a fight must be a single model (split the fight)")


def reach_and_wound(
    strength: int, toughness: int, fame: int = 0, side: str = "striker"
) -> Procedure[WoundOutcome]:
    """A strike across an obstacle: 4+ on a d6 reaches the enemy, then roll to wound."""
    reach = number("close_combat", "obstacle_reach")
    (roll,) = yield Roll(D6, msg("old_west.combat.reach", needed=reach), roller=side)
    if roll < reach:
        yield emit("old_west.combat.hit_obstacle", rolled=roll)
        return WoundOutcome(False)
    return (yield from wound(strength, toughness, fame, side))


@cache
def _strikes(strength: int, toughness: int, strikes: int, reach: bool, side: Side) -> AnyCall:
    """The call of ``strikes`` strikes without Fame (built once per situation)."""
    proc = reach_and_wound if reach else wound
    return Call(proc, (strength, toughness, 0, side.value), times=strikes, reduce=CountWounded())


@cache
def _target_choice(standing: tuple[int, ...], side: Side, attack: int) -> Choose:
    """A single winner's choice of target for one Attack (built once per situation)."""
    return Choose(
        tuple(i + 1 for i in standing),
        side.value,
        msg("old_west.combat.choose_target", attack=attack),
        default=standing[0] + 1,
    )


def strike_group(
    striker: Model, toughness: int, strikes: int, reach: bool, fame: int, side: Side
) -> Procedure[tuple[int, int]]:
    """``strikes`` strikes of one model at one Toughness: (wounds, Fame left)."""
    if strikes <= 0:
        return 0, fame
    if fame <= 0:
        wounds = yield _strikes(striker.strength, toughness, strikes, reach, side)
        assert isinstance(wounds, int)
        return wounds, fame
    wounds = 0
    reach_needed = number("close_combat", "obstacle_reach")
    for _ in range(strikes):
        if reach:
            (roll,) = yield Roll(
                D6, msg("old_west.combat.reach", needed=reach_needed), roller=side.value
            )
            if roll < reach_needed:
                yield emit("old_west.combat.hit_obstacle", rolled=roll)
                continue
        result = yield Call(wound_with_fame, (striker.strength, toughness, fame, side.value))
        fame -= result.fame_spent
        wounds += int(result.wounded)
    return wounds, fame


@dataclass(slots=True)
class _Target:
    model: Model
    trapped: bool
    wounds: int = 0
    mount_wounds: int = 0
    fell: bool = False
    fortune_spent: int = 0

    @property
    def mount_dead(self) -> bool:
        return self.model.mounted and self.mount_wounds >= self.model.mount_wounds

    @property
    def out(self) -> bool:
        return self.wounds >= self.model.wounds


def strike_target(
    striker: Model, attacks: int, target: _Target, fame: int, side: Side
) -> Procedure[int]:
    """``attacks`` Attacks of ``striker`` at one target; returns the Fame left."""
    strikes = strikes_on(attacks, target.trapped)
    reach = striker.across_obstacle or target.model.across_obstacle
    at_mount = 0
    if target.model.mounted and target.mount_wounds < target.model.mount_wounds:
        chosen = yield Choose(
            tuple(range(strikes + 1)),
            side.value,
            msg("old_west.combat.at_mount", strikes=strikes),
            default=0,
        )
        assert isinstance(chosen, int)
        at_mount = chosen
    rider, fame = yield from strike_group(
        striker, target.model.toughness, strikes - at_mount, reach, fame, side
    )
    target.wounds += rider
    if at_mount:
        had_mount = target.mount_wounds < target.model.mount_wounds
        hits, fame = yield from strike_group(
            striker, target.model.mount_toughness, at_mount, reach, fame, side
        )
        target.mount_wounds += hits
        if had_mount and target.mount_wounds >= target.model.mount_wounds and not target.out:
            yield emit("old_west.combat.mount_killed")
            fall = yield Call(fall_from_horse, (target.model.toughness, side.other.value))
            target.wounds += int(fall.wounded)
            target.fell = fall.prone
    return fame


def strike_one(
    winners: Sequence[Model], target: _Target, fame_left: list[int], side: Side
) -> Procedure[None]:
    """Every winner strikes the one loser, in order (``fame_left`` is updated).

    Winners in a row with no Fame left, of one Strength and reach, at a loser without a
    mount, strike as one repeated call: the same dice in the same order as one call
    each, and exact odds branch once over their total wounds instead of per winner.
    """
    index = 0
    while index < len(winners):
        striker = winners[index]
        mergeable = fame_left[index] <= 0 and not target.model.mounted
        if striker.prone or not mergeable:
            if not striker.prone:
                fame_left[index] = yield from strike_target(
                    striker, striker.attacks, target, fame_left[index], side
                )
            index += 1
            continue
        strikes, end = 0, index
        while end < len(winners):
            other = winners[end]
            if other.prone or fame_left[end] > 0:
                break
            if (other.strength, other.across_obstacle) != (
                striker.strength,
                striker.across_obstacle,
            ):
                break
            strikes += strikes_on(other.attacks, target.trapped)
            end += 1
        reach = striker.across_obstacle or target.model.across_obstacle
        wounds, _ = yield from strike_group(
            striker, target.model.toughness, strikes, reach, 0, side
        )
        target.wounds += wounds
        index = end


def combat(
    a: Sequence[Model], b: Sequence[Model], advantage: Side = Side.A
) -> Procedure[CombatOutcome]:
    """One close-combat round of one fight: winner, back off, strikes and wounds."""
    check_fight_sizes(a, b)
    sides = {Side.A: tuple(a), Side.B: tuple(b)}
    result = yield Call(
        dukin_it_out, (tuple(m.fighter for m in a), tuple(m.fighter for m in b), advantage)
    )
    assert isinstance(result, FightResult)
    winner = result.winner
    winners, losers = sides[winner], sides[winner.other]
    fame_left = [m.fame - s for m, s in zip(winners, result.spent(winner), strict=True)]
    moves = [back_off(not m.trapped, m.prone, m.cliff_drop) for m in losers]
    targets = [
        _Target(m, trapped=move is BackOff.TRAPPED) for m, move in zip(losers, moves, strict=True)
    ]
    for index, move in enumerate(moves):
        if move is BackOff.TRAPPED:
            yield emit("old_west.combat.trapped", side=winner.other, model=index + 1)
        elif move is BackOff.FALLS:
            yield emit("old_west.combat.at_edge", side=winner.other, model=index + 1)
        else:
            yield emit("old_west.combat.back_off", side=winner.other, model=index + 1)
    for index, model in enumerate(winners):
        if model.prone:
            yield emit("old_west.combat.stands_up", side=winner, model=index + 1)
    if len(targets) == 1:
        yield from strike_one(winners, targets[0], fame_left, winner)
    for index, striker in enumerate(winners):
        if striker.prone or len(targets) == 1:
            continue
        for attack in range(striker.attacks):
            standing = tuple(i for i, t in enumerate(targets) if not t.out)
            if not standing:
                break
            chosen = yield _target_choice(standing, winner, attack + 1)
            assert isinstance(chosen, int)
            fame_left[index] = yield from strike_target(
                striker, 1, targets[chosen - 1], fame_left[index], winner
            )
    for target in targets:
        if target.model.cliff_drop > 0 and not target.out:
            fall = yield Call(
                falling, (target.model.cliff_drop, target.model.toughness, winner.other.value)
            )
            target.wounds += fall.wounds
            target.fell = lands_prone(target.model.cliff_drop)
    for target in targets:
        if target.model.fortune > 0 and target.wounds > 0:
            saved = yield Call(fortune, (target.wounds, target.model.fortune, winner.other.value))
            target.wounds = saved.wounds
            target.fortune_spent = saved.fortune_spent
    wounds = tuple(min(t.wounds, t.model.wounds) for t in targets)
    lost = sum(1 for t in targets if t.out)
    spent = {
        winner: [m.fame - left for m, left in zip(winners, fame_left, strict=True)],
        winner.other: list(result.spent(winner.other)),
    }
    yield emit("old_west.combat.result", winner=winner, wounds=sum(wounds), out_of_action=lost)
    return CombatOutcome(
        winner,
        wounds,
        lost,
        mounts=_flags([t.mount_dead for t in targets]),
        fell=_flags([t.fell and not t.out for t in targets]),
        fame_a=_flags(spent[Side.A]),
        fame_b=_flags(spent[Side.B]),
        fortune=_flags([t.fortune_spent for t in targets]),
    )
