"""A whole close-combat round: Dukin' it out, Back off!, Woundin' (OW-CC-01..16).

The fight decides a winner (:mod:`.fight`). The losers back off 1" (:func:`back_off`);
a loser who cannot, or who lies on the ground, is trapped and every strike on him
counts double (OW-CC-09, OW-CC-10) — he still ends the round out of contact, the other
models shuffling aside for him; one at a cliff edge takes normal strikes and falls.
Then the winners strike in turn and the losers at an edge fall (:mod:`.winners`), each
strike as :mod:`.strikes` rules it (reach, wound, Fortune, the mount); the round turns
where they leave the losers into its outcome. The models are :mod:`.combatant`'s; the
names of the strike modules are also importable from here, as before the round was split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kubik.core.errors import InputError
from kubik.engine import Call, Procedure, emit
from kubik.engine.memo import by_identity
from kubik.engine.requests import SILENT
from kubik.rulesets.old_west.backing_off import BackOff, Loser, back_off, may_back_off
from kubik.rulesets.old_west.combatant import Model
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.division import fight_shape
from kubik.rulesets.old_west.fight import Fighter, FightResult, dukin_it_out
from kubik.rulesets.old_west.strikes import (
    Marks,
    Strike,
    StrikeAt,
    Struck,
    Target,
    may_strike,
    mount_easier,
    reach_and_wound,
    reaches,
    strike_group,
    strike_target,
    strikes_at,
    strikes_on,
    suffer,
)
from kubik.rulesets.old_west.winners import attacks_of, winners_strike


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
    loser spent against its wounds (OW-ABSENT-07); ``stood``, 1 where a winner who fought
    lying down stood up (OW-CC-10). ``killed_by``, for the record of who put whom out of
    action: per loser, the winner (1-based, 0: none) whose strikes took its last Wound —
    not part of the round's result, so outcomes that differ only in it are one outcome.
    """

    winner: Side
    wounds: tuple[int, ...]
    out_of_action: int
    mounts: tuple[int, ...] = ()
    fell: tuple[int, ...] = ()
    fame_a: tuple[int, ...] = ()
    fame_b: tuple[int, ...] = ()
    fortune: tuple[int, ...] = ()
    stood: tuple[int, ...] = ()
    killed_by: tuple[int, ...] = field(default=(), compare=False)

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

    def stood_up(self, index: int) -> bool:
        """Whether winner ``index`` won lying down and stood up (OW-CC-10)."""
        return bool(self.stood[index]) if self.stood else False

    def killer(self, index: int) -> int | None:
        """The winner (0-based) whose strikes put loser ``index`` out of action (None: he
        was not, or a fall did)."""
        found = self.killed_by[index] if self.killed_by else 0
        return found - 1 if found else None


def check_fight_sizes(a: Sequence[Model], b: Sequence[Model]) -> None:
    """Every fight has a single model on at least one side (:func:`fight_shape`)."""
    shape = fight_shape(len(a), len(b))
    if not shape.allowed:
        raise InputError(
            "a, b: one side of a fight must be a single model (split the fight)"
            if a and b
            else "a, b: each side needs at least one model"
        )


def _round_rules(a: Sequence[Model], b: Sequence[Model]) -> dict[str, tuple[str, ...]]:
    """Which of the multi-model and obstacle rules this fight brings in."""
    several = len(a) > 1 or len(b) > 1
    many = a if len(a) > 1 else b
    mixed = several and len({m.across_obstacle for m in many}) == 2
    return {
        "several": ("OW-CC-13",) if several else (),
        "both_sides": ("OW-CC-15",) if mixed else (),
    }


@dataclass(frozen=True, slots=True)
class _Opening:
    """What a round starts from, for its models: the sides, the rules the fight's shape
    brings in, the fight to roll and how each side's models would back off."""

    sides: dict[Side, tuple[Model, ...]]
    extra: dict[str, tuple[str, ...]]
    fight: Call[FightResult, tuple[Fighter, ...], tuple[Fighter, ...], Side]
    moves: dict[Side, tuple[BackOff, ...]]
    backing: dict[Side, tuple[tuple[str, tuple[str, ...]], ...]]  # each loser's event, rules


def _backing_event(
    model: Model, move: BackOff, extra: dict[str, tuple[str, ...]]
) -> tuple[str, tuple[str, ...]]:
    """The event of a loser backing off (or trapped, or at an edge) and its rules."""
    if move is BackOff.TRAPPED:
        verdict = may_back_off(Loser(not model.trapped, model.prone, model.cliff_drop))
        return "old_west.combat.trapped", verdict.rules + extra["several"] + extra["both_sides"]
    if move is BackOff.FALLS:
        return "old_west.combat.at_edge", ("OW-CC-09",)
    return "old_west.combat.back_off", ("OW-CC-04", *extra["several"])


def _opening(a: Sequence[Model], b: Sequence[Model], advantage: Side) -> _Opening:
    """The round's opening, worked out once for the same arguments while they cannot
    change (tuples: the exact odds replay a round over and over with the very same)."""
    if type(a) is tuple and type(b) is tuple:
        return _kept_opening(a, b, advantage)
    return _opened(a, b, advantage)


@by_identity
def _kept_opening(a: tuple[Model, ...], b: tuple[Model, ...], advantage: Side) -> _Opening:
    return _opened(a, b, advantage)


def _opened(a: Sequence[Model], b: Sequence[Model], advantage: Side) -> _Opening:
    check_fight_sizes(a, b)
    sides = {Side.A: tuple(a), Side.B: tuple(b)}
    fight = Call(
        dukin_it_out, (tuple(m.fighter for m in a), tuple(m.fighter for m in b), advantage)
    )
    moves = {
        side: tuple(back_off(Loser(not m.trapped, m.prone, m.cliff_drop)) for m in models)
        for side, models in sides.items()
    }
    extra = _round_rules(a, b)
    backing = {
        side: tuple(
            _backing_event(m, move, extra) for m, move in zip(models, moves[side], strict=True)
        )
        for side, models in sides.items()
    }
    return _Opening(sides, extra, fight, moves, backing)


def combat(
    a: Sequence[Model], b: Sequence[Model], advantage: Side = Side.A
) -> Procedure[CombatOutcome]:
    """One close-combat round of one fight: winner, back off, strikes and wounds."""
    opening = _opening(a, b, advantage)
    extra = opening.extra
    result = yield opening.fight
    assert isinstance(result, FightResult)
    winner = result.winner
    winners, losers = opening.sides[winner], opening.sides[winner.other]
    fame_left = [m.fame - s for m, s in zip(winners, result.spent(winner), strict=True)]
    moves = opening.moves[winner.other]
    targets = [
        Target(m, trapped=move is BackOff.TRAPPED) for m, move in zip(losers, moves, strict=True)
    ]
    for index, (model, (event, why)) in enumerate(
        zip(losers, opening.backing[winner.other], strict=True)
    ):
        said = emit(event, rules=why, side=winner.other, model=model.called(index))
        if said is not SILENT:  # narration off (exact odds replay the round): nothing to say
            yield said
    for index, model in enumerate(winners):
        if model.prone:
            said = emit(
                "old_west.combat.stands_up",
                rules=("OW-CC-10",),
                side=winner,
                model=model.called(index),
            )
            if said is not SILENT:
                yield said
    outcome_of = _RoundOutcome(
        winner,
        tuple(m.fame for m in winners),
        result.spent(winner.other),
        tuple(m.prone for m in winners),
    )
    answer = yield Call(
        winners_strike,
        (
            winners,
            tuple(t.struck for t in targets),
            tuple(fame_left),
            winner,
            extra["both_sides"],
            0,
        ),
        inline=True,
        tail=True,
        then=outcome_of,
    )
    outcome = outcome_of(answer)
    losers_after, _, _ = answer
    several_wounds = (
        ("OW-CC-12",) if any(s.model.wounds > 1 and s.marks.wounds for s in losers_after) else ()
    )
    several_attacks = ("OW-CC-11",) if any(m.attacks > 1 for m in winners) else ()
    said = emit(
        "old_west.combat.result",
        rules=("OW-CC-01", "OW-CC-05", *several_attacks, *several_wounds),
        winner=winner,
        wounds=sum(outcome.wounds),
        out_of_action=outcome.out_of_action,
    )
    if said is not SILENT:
        yield said
    return outcome


@dataclass(frozen=True, slots=True)
class _RoundOutcome:
    """The round's outcome from where the winners' strikes and the falls left the losers
    (:func:`winners_strike`'s answer): the promise of the round's last call, so the odds
    of a round take the strikes' answers through it instead of replaying the round."""

    winner: Side
    fame: tuple[int, ...]  # each winner's Fame before the round
    losers_spent: tuple[int, ...]  # Fame each loser spent deciding the fight
    prone: tuple[bool, ...]  # each winner fought lying down (he stands up, OW-CC-10)

    def __call__(
        self, answer: tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]
    ) -> CombatOutcome:
        struck, fame_left, killed_by = answer
        targets = [Target.of(s) for s in struck]
        spent = {
            self.winner: [had - left for had, left in zip(self.fame, fame_left, strict=True)],
            self.winner.other: list(self.losers_spent),
        }
        return CombatOutcome(
            self.winner,
            tuple(min(t.wounds, t.model.wounds) for t in targets),
            sum(1 for t in targets if t.out),
            mounts=_flags([t.mount_dead for t in targets]),
            fell=_flags([t.fell and not t.out for t in targets]),
            fame_a=_flags(spent[Side.A]),
            fame_b=_flags(spent[Side.B]),
            fortune=_flags([t.fortune_spent for t in targets]),
            stood=_flags(self.prone),
            killed_by=_flags(killed_by),
        )


__all__ = [
    "CombatOutcome",
    "Marks",
    "Model",
    "Strike",
    "StrikeAt",
    "Struck",
    "attacks_of",
    "check_fight_sizes",
    "combat",
    "may_strike",
    "mount_easier",
    "reach_and_wound",
    "reaches",
    "strike_group",
    "strike_target",
    "strikes_at",
    "strikes_on",
    "suffer",
    "winners_strike",
]
