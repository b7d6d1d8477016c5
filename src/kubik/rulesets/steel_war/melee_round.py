"""A round of Steel War close combat (SW-CC-08): every fighter of a bout rolls his melee die
once, in each facing pair the lower roll is a casualty at once, equal rolls nothing.

Identical unnamed bouts are independent, so a round Calls one bout's procedure
``times=n`` and the odds driver convolves them instead of nesting every die; the calls
are built once, since exact odds replay a round once per branch.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from kubik.core.errors import InputError
from kubik.core.keeping import Kept
from kubik.engine import Call, Emit, Procedure, Roll, Tally, emit, msg
from kubik.engine.dice import Die
from kubik.engine.memo import by_identity
from kubik.engine.requests import AnyCall, tail_step
from kubik.engine.tally import PairCounts
from kubik.rulesets.steel_war.melee_fighters import Side
from kubik.rulesets.steel_war.melee_pairing import Bout


@dataclass(frozen=True, slots=True)
class BoutOutcome:
    """Casualties of one bout: whether its lone fighter fell, how many of his opponents
    fell, and the names of the fallen (named bouts only)."""

    centre_lost: bool
    opponents_lost: int
    fallen: tuple[str, ...] = ()


class Comparison(Enum):
    """One opponent's roll against the lone fighter's (SW-CC-08)."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    HIGHER = "higher"  # the lone fighter falls
    EQUAL = "equal"  # nobody falls, the fight goes on
    LOWER = "lower"  # the opponent falls


@dataclass(frozen=True, slots=True)
class _Against:
    """Reduce an opponent's roll against the lone fighter's roll ``centre``."""

    centre: int

    def __call__(self, values: tuple[int, ...]) -> Comparison:
        if values[0] > self.centre:
            return Comparison.HIGHER
        return Comparison.EQUAL if values[0] == self.centre else Comparison.LOWER


#: The rules every melee roll applies: the melee die (SW-CC-07, die steps SW-CORE-01)
#: and the comparison (SW-CC-08).
MELEE_ROLL_RULES = ("SW-CC-07", "SW-CORE-01", "SW-CC-08")


def opponent_roll(die: Die, centre: int, side: Side) -> Procedure[Comparison]:
    """One opponent rolls his melee die against the lone fighter's ``centre`` (SW-CC-08)."""
    comparison: Comparison = yield _against_roll(die, centre, side)
    return comparison


@by_identity
def _against_roll(die: Die, centre: int, side: Side) -> Roll:
    """An opponent's roll against ``centre`` (built once: exact odds replay a bout often)."""
    return Roll(
        die,
        msg("steel_war.close_combat.roll_against", side=side, die=die, centre=centre),
        reduce=_Against(centre),
        roller=side.value,
        rules=MELEE_ROLL_RULES,
    )


@by_identity
def _fighter_roll(bout: Bout) -> Roll:
    """The lone fighter's roll of a bout (built once, as the opponents'), which leads to
    his opponents' rolls: exact odds take each roll's outcomes without a replay."""
    return Roll(
        bout.fighter,
        msg("steel_war.close_combat.roll", side=bout.centre, die=bout.fighter),
        roller=bout.centre.value,
        rules=MELEE_ROLL_RULES,
        leads_to=_Opponents(bout),
    )


#: How many of several opponents rolled above the lone fighter and how many below
#: (SW-CC-08), from the tally of their comparisons (counted one at a time by the odds).
_outcomes: PairCounts[Comparison] = PairCounts(Comparison.HIGHER, Comparison.LOWER)


@by_identity
def _against_call(die: Die, centre: int, side: Side, times: int | None) -> AnyCall:
    """The opponents with ``die`` rolling against ``centre``: one, or ``times`` alike
    (answered with how many rolled above him and how many below)."""
    if times is None:
        return Call(opponent_roll, (die, centre, side))
    return Call(opponent_roll, (die, centre, side), times=times, reduce=_outcomes)


@by_identity
def _alike(opponents: tuple[Die, ...]) -> tuple[tuple[Die, int], ...]:
    """The opponents' dice, each with how many roll it, in order of first appearance
    (counted once: exact odds replay a bout once per branch)."""
    return tuple(Counter(opponents).items())


def bout_fight(bout: Bout) -> Procedure[BoutOutcome]:
    """One bout: the lone fighter rolls, then each of his opponents; each lower roll falls,
    ties stand (SW-CC-08). The opponents' rolls are the bout's last step
    (:func:`bout_against`), so the exact odds keep their outcomes by the fighter's roll
    instead of replaying his roll for each."""
    (roll,) = yield _fighter_roll(bout)
    outcome: BoutOutcome = yield tail_step(
        bout_against, bout.centre, bout.opponents, bout.names, roll
    )
    return outcome


@dataclass(frozen=True, slots=True)
class _Opponents:
    """A bout's last step after its lone fighter's roll (his roll leads to it)."""

    bout: Bout

    def __call__(self, rolled: tuple[int]) -> AnyCall:
        bout = self.bout
        return tail_step(bout_against, bout.centre, bout.opponents, bout.names, rolled[0])


def bout_against(
    centre: Side, opponents: tuple[Die, ...], names: tuple[str, ...], roll: int
) -> Procedure[BoutOutcome]:
    """The opponents of a bout's lone fighter of ``centre``'s side roll against his
    ``roll`` (SW-CC-08): a step of :func:`bout_fight`. Identical unnamed opponents are
    independent given his roll, so they are one Call with ``times``, however many; the
    last such Call is the step's tail (the odds map its tally to the bout's outcome)."""
    other = centre.other
    higher = lost = 0
    fallen: list[str] = []
    if names:
        for name, die in zip(names[1:], opponents, strict=True):
            comparison: Comparison = yield _against_call(die, roll, other, None)
            higher += comparison is Comparison.HIGHER
            if comparison is Comparison.LOWER:
                lost += 1
                fallen.append(name)
    else:
        alike = _alike(opponents)
        last = len(alike) - 1
        for index, (die, count) in enumerate(alike):
            if index == last:
                call = _last_against_call(die, roll, other, count, higher, lost)
                counted: tuple[int, int] = yield call
                outcome: BoutOutcome = call.promised(counted)
                yield _group_event(centre, len(opponents), outcome)
                return outcome
            above, below = yield _against_call(die, roll, other, count)
            higher += above
            lost += below
    centre_lost = higher > 0
    if centre_lost and names:
        fallen.insert(0, names[0])
    named = BoutOutcome(centre_lost, lost, tuple(fallen))
    yield _group_event(centre, len(opponents), named)
    return named


def _group_event(side: Side, opponents: int, outcome: BoutOutcome) -> Emit:
    """What a bout did, for the log."""
    return emit(
        "steel_war.close_combat.group",
        rules="SW-CC-08",
        side=side,
        opponents=opponents,
        centre_lost=outcome.centre_lost,
        lost=outcome.opponents_lost,
    )


@dataclass(frozen=True, slots=True)
class _BoutTally:
    """A bout's outcome from how many of its last alike opponents rolled above the lone
    fighter and how many below, after ``higher`` of the others rolled above him and
    ``lost`` fell."""

    higher: int
    lost: int

    def __call__(self, counted: tuple[int, int]) -> BoutOutcome:
        above, below = counted
        return BoutOutcome(self.higher + above > 0, self.lost + below)


@by_identity
def _last_against_call(
    die: Die, centre: int, side: Side, times: int, higher: int, lost: int
) -> AnyCall:
    """The last alike opponents of an unnamed bout as :func:`bout_against`'s tail call,
    promising the bout's outcome (built once: exact odds replay a bout often)."""
    return Call(
        opponent_roll,
        (die, centre, side),
        times=times,
        reduce=_outcomes,
        tail=True,
        then=_BoutTally(higher, lost),
    )


class _SumLosses:
    """(lone fighters lost, opponents lost) over repeated bouts; its fold form adds one
    bout at a time (the exact odds then never list the bouts' tallies)."""

    __slots__ = ()

    def __call__(self, tally: Tally[BoutOutcome]) -> tuple[int, int]:
        centres = sum(n for o, n in tally.items() if o.centre_lost)
        opponents = sum(o.opponents_lost * n for o, n in tally.items())
        return centres, opponents

    def start(self) -> tuple[int, int]:
        """No bout fought yet."""
        return 0, 0

    def step(self, losses: tuple[int, int], bout: BoutOutcome) -> tuple[int, int]:
        """One more bout's losses."""
        return losses[0] + bout.centre_lost, losses[1] + bout.opponents_lost

    def finish(self, losses: tuple[int, int]) -> tuple[int, int]:
        """The losses are the answer."""
        return losses


_sum_losses = _SumLosses()


@by_identity
def _bout_call(bout: Bout, times: int | None) -> AnyCall:
    """A bout fought once (named fighters), or ``times`` alike summed (built once: exact
    odds replay a round often)."""
    if times is None:
        return Call(bout_fight, (bout,))
    return Call(bout_fight, (bout,), times=times, reduce=_sum_losses)


@dataclass(frozen=True, slots=True)
class RoundLosses:
    """Casualties of one round of close combat (SW-CC-08); ``fallen``: who, when named."""

    attacker: int
    defender: int
    fallen: tuple[str, ...] = ()

    def of(self, side: Side) -> int:
        """Casualties of ``side``."""
        return self.attacker if side is Side.ATTACKER else self.defender


@dataclass(frozen=True, slots=True, eq=False)
class _Fights:
    """A round's bouts in the order they are fought: each a bout fought once (named
    fighters) or ``times`` alike summed. Known by identity (one per round's bouts, made
    once by :func:`_fights`): the steps of a round are keyed by it without hashing
    every bout again."""

    calls: tuple[tuple[Bout, int | None], ...]


@by_identity
def _fights(bouts: tuple[Bout, ...]) -> _Fights:
    """The round's bouts as :class:`_Fights`: runs of equal unnamed bouts fought as one
    call, named ones one by one (found once per round's bouts: the exact odds replay a
    round once per branch)."""
    calls: list[tuple[Bout, int | None]] = []
    for bout, same in itertools.groupby(bouts):
        count = sum(1 for _ in same)
        if bout.names:
            calls.extend((bout, None) for _ in range(count))
        else:
            calls.append((bout, count))
    return _Fights(tuple(calls))


@by_identity
def _fighting(bouts: tuple[Bout, ...]) -> tuple[int, int]:
    """How many fight on each side (attackers, defenders): counted once per round's bouts
    (exact odds replay the round once per branch)."""
    return (
        sum(b.fighters(Side.ATTACKER) for b in bouts),
        sum(b.fighters(Side.DEFENDER) for b in bouts),
    )


def melee_round(bouts: tuple[Bout, ...]) -> Procedure[RoundLosses]:
    """Every bout is fought, in order; returns the casualties of each side (SW-CC-06..08)."""
    if not bouts:
        raise InputError("bouts: a round of close combat needs at least one bout")
    attackers, defenders = _fighting(bouts)
    yield emit(
        "steel_war.close_combat.round",
        rules="SW-CC-06",
        bouts=len(bouts),
        attackers=attackers,
        defenders=defenders,
    )
    fought = _round_call(_fights(bouts))
    losses: Losses = yield fought
    ended: RoundLosses = fought.promised(losses)
    return ended


#: A round's losses while its bouts are counted: attackers and defenders lost, and who
#: fell (named bouts); a plain tuple, hashed in C by the exact odds.
Losses = tuple[int, int, tuple[str, ...]]


def _as_round_losses(losses: Losses) -> RoundLosses:
    """The round's losses once every bout is counted."""
    return RoundLosses(*losses)


@by_identity
def _round_call(fights: _Fights) -> AnyCall:
    """A round's bouts as :func:`melee_round`'s inline tail call (built once per round)."""
    return Call(fights_from, (fights, 0), inline=True, tail=True, then=_as_round_losses)


def fights_from(fights: _Fights, index: int) -> Procedure[Losses]:
    """The round's bouts from ``index`` on, and what they cost each side: a step of
    :func:`melee_round`. The bouts are independent, so the bouts after this one are a
    tail call of their own whose losses are added to this bout's (``then``): the exact
    odds keep each suffix of the round once, not once per losses before it."""
    bout, times = fights.calls[index]
    fallen: tuple[str, ...] = ()
    if times is None:
        outcome: BoutOutcome = yield _bout_call(bout, None)
        centres, opponents = int(outcome.centre_lost), outcome.opponents_lost
        fallen = outcome.fallen
    else:
        centres, opponents = yield _bout_call(bout, times)
    if bout.centre is Side.ATTACKER:
        attackers, defenders = centres, opponents
    else:
        attackers, defenders = opponents, centres
    if index + 1 == len(fights.calls):
        return attackers, defenders, fallen
    rest = _rest_call(fights, index + 1, attackers, defenders, fallen)
    losses: Losses = yield rest
    ended: Losses = rest.promised(losses)
    return ended


@dataclass(frozen=True, slots=True)
class _Before:
    """A round's losses from the bouts before a suffix of it added to the suffix's."""

    attackers: int
    defenders: int
    fallen: tuple[str, ...]

    def __call__(self, rest: Losses) -> Losses:
        return self.attackers + rest[0], self.defenders + rest[1], self.fallen + rest[2]


#: :func:`_rest_call`'s calls by the round's id and what its earlier bouts cost, the round
#: kept (so its id is its own while remembered).
_RESTS: Kept[tuple[int, int, int, int, tuple[str, ...]], tuple[_Fights, AnyCall]] = Kept(1024)


def _rest_call(
    fights: _Fights, index: int, attackers: int, defenders: int, fallen: tuple[str, ...]
) -> AnyCall:
    """The bouts from ``index`` on as :func:`fights_from`'s inline tail call, its losses
    added to those before (built once per state: exact odds replay the round often)."""
    key = (id(fights), index, attackers, defenders, fallen)
    known = _RESTS.get(key)
    if known is not None and known[0] is fights:
        return known[1]
    made = Call(
        fights_from,
        (fights, index),
        inline=True,
        tail=True,
        then=_Before(attackers, defenders, fallen),
    )
    _RESTS.keep(key, (fights, made))
    return made


__all__ = [
    "MELEE_ROLL_RULES",
    "BoutOutcome",
    "Comparison",
    "Losses",
    "RoundLosses",
    "bout_against",
    "bout_fight",
    "fights_from",
    "melee_round",
    "opponent_roll",
]
