"""The winners' strikes in turn, then the falls (OW-CC-05, OW-CC-09, OW-CC-11, OW-CC-13).

Each winner strikes (OW-CC-05, OW-CC-13); a single winner facing several losers picks
a target for each Attack in turn (OW-CC-11, OW-CC-13); then each loser at a cliff edge
still standing falls (OW-CC-09, OW-ABSENT-05). Each winner's strikes, and each
loser's fall, are a step of their own on where the losers stand, so the exact odds of a
round (and the optimal policy's solve) follow the losers' few states between two
winners or two falls, not every path of every strike and fall before.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from kubik.engine import Call, Choose, Message, Procedure, emit, msg
from kubik.engine.requests import SILENT, step, tail_step
from kubik.rulesets.old_west.absent import falling, lands_prone
from kubik.rulesets.old_west.combatant import Model
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.strikes import (
    StrikeAt,
    Struck,
    Target,
    strike_target,
    strike_verdict,
    suffer,
)
from kubik.rulesets.old_west.wounds import out_of_action


def attacks_of(
    striker: Model,
    struck: tuple[Struck, ...],
    fame: int,
    winner: Side,
    rules: tuple[str, ...],
    first: int,
) -> Procedure[tuple[tuple[Struck, ...], int]]:
    """The Attacks of one winner from his ``first`` (0-based) at the losers as ``struck``
    so far (OW-CC-05; at one of several, a target chosen for each Attack, OW-CC-11,
    OW-CC-13): the losers after them and the winner's Fame left. Each Attack at one of
    several is a step of its own (an ``inline`` call on where the losers stand), so the
    odds of a round keep what the Attacks did, not every order they did it in."""
    targets = [Target.of(s) for s in struck]
    if len(targets) == 1:
        fame = yield from strike_target(striker, striker.attacks, targets[0], fame, winner, rules)
        return tuple(t.struck for t in targets), fame
    standing = tuple(i for i, t in enumerate(targets) if t.verdict(StrikeAt.RIDER, striker).allowed)
    if first >= striker.attacks or not standing:
        return struck, fame
    names = [targets[i].model.name for i in standing]
    labels = tuple(n for n in names if n is not None)
    chosen = yield _target_choice(
        standing,
        winner.value,
        first + 1,
        labels if len(labels) == len(names) else (),
        striker.attacks > 1,
    )
    assert isinstance(chosen, int)
    fame = yield from strike_target(striker, 1, targets[chosen - 1], fame, winner, rules)
    after = tuple(t.struck for t in targets)
    rest: tuple[tuple[Struck, ...], int] = yield tail_step(
        attacks_of, striker, after, fame, winner, rules, first + 1
    )
    return rest


def winners_strike(
    winners: tuple[Model, ...],
    struck: tuple[Struck, ...],
    fames: tuple[int, ...],
    winner: Side,
    rules: tuple[str, ...],
    index: int,
) -> Procedure[tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]]:
    """The strikes of the winners from the ``index``-th (0-based) on, at the losers as
    ``struck`` so far (OW-CC-05; each winner strikes, OW-CC-13) with ``fames`` (the Fame
    of each of those winners): the losers after them, the Fame each of them has left and,
    per loser, the winner (1-based, 0: none) whose strikes took its last Wound.

    Each winner's strikes are a step of their own on where the losers stand, so the odds
    of a round with several winners follow the few states of the losers between two
    winners, not every path of every winner's strikes."""
    striker = winners[index]
    killed = (0,) * len(struck)
    left = fames[0]
    after = struck
    if strike_verdict(StrikeAt.RIDER, striker.prone, False, False, False).allowed:
        said = emit(
            "old_west.combat.strikes",
            rules=("OW-CC-05",),
            side=winner,
            model=striker.called(index),
            attacks=striker.attacks,
        )
        if said is not SILENT:  # (the people rolling see whose strikes these are)
            yield said
        after, left = yield step(attacks_of, striker, struck, left, winner, rules, 0)
        killed = tuple(
            index + 1 if not _struck_out(before) and _struck_out(now) else 0
            for before, now in zip(struck, after, strict=True)
        )
    if index + 1 == len(winners):
        ended = _Ended(left, killed)
        if not any(s.model.cliff_drop > 0 for s in after):
            return ended(after)
        fallen: tuple[Struck, ...] = yield Call(
            falls_from, (after, winner, 0), inline=True, tail=True, then=ended
        )
        return ended(fallen)
    before = _Before(left, killed)
    rest: tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]] = yield Call(
        winners_strike,
        (winners, after, fames[1:], winner, rules, index + 1),
        inline=True,
        tail=True,
        then=before,
    )
    return before(rest)


def falls_from(
    struck: tuple[Struck, ...], winner: Side, index: int
) -> Procedure[tuple[Struck, ...]]:
    """The falls of the losers from the ``index``-th (0-based) on, as ``struck`` so far
    (OW-CC-09, OW-ABSENT-05). Each loser's fall, with the Fortune he spends on its
    wounds, is a step on the losers' state, so the exact odds (and the optimal policy's
    solve) follow the few states the losers are in between two falls, not every path
    through every fall before."""
    while index < len(struck):
        target = Target.of(struck[index])
        if target.model.cliff_drop > 0 and not target.out:
            fall = yield Call(
                falling, (target.model.cliff_drop, target.model.toughness, winner.other.value)
            )
            yield from suffer(target, fall.wounds, winner.other.value)
            target.fell = lands_prone(target.model.cliff_drop)
            after = (*struck[:index], target.struck, *struck[index + 1 :])
            rest: tuple[Struck, ...] = yield tail_step(falls_from, after, winner, index + 1)
            return rest
        index += 1
    return struck


@dataclass(frozen=True, slots=True)
class _Ended:
    """What the last winner did, around the losers' falls after it: the promise of
    :func:`winners_strike`'s call on the falls (the odds take the falls' answers
    through it instead of replaying the strikes for each)."""

    left: int  # Fame the last winner has left
    killed: tuple[int, ...]  # per loser, this winner (1-based) if he took its last Wound

    def __call__(
        self, struck: tuple[Struck, ...]
    ) -> tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]:
        return struck, (self.left,), self.killed


@dataclass(frozen=True, slots=True)
class _Before:
    """What one winner did, put before what the winners after him did: the promise of
    :func:`winners_strike`'s call on the next winner (the odds take its answers through
    it instead of replaying the winner's strikes for each)."""

    left: int  # Fame the winner has left
    killed: tuple[int, ...]  # per loser, this winner (1-based) if he took its last Wound

    def __call__(
        self, rest: tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]
    ) -> tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]:
        struck, lefts, later = rest
        merged = tuple(k or k2 for k, k2 in zip(self.killed, later, strict=True))
        return struck, (self.left, *lefts), merged


def _struck_out(struck: Struck) -> bool:
    """Whether a loser as ``struck`` has lost his last Wound (OW-CC-12)."""
    return out_of_action(struck.marks.wounds, struck.model.wounds)


@lru_cache(maxsize=128)
def _target_choice(
    standing: tuple[int, ...], side: str, attack: int, labels: tuple[Message, ...], several: bool
) -> Choose:
    """Which loser standing an Attack strikes (OW-CC-13; ``labels``: their names, or ()),
    one value per situation as :func:`_at_mount_choice`."""
    return Choose(
        tuple(i + 1 for i in standing),
        side,
        msg("old_west.combat.choose_target", attack=attack),
        default=standing[0] + 1,
        labels=labels,
        rules=("OW-CC-13", *(("OW-CC-11",) if several else ())),
    )


__all__ = ["attacks_of", "falls_from", "winners_strike"]
