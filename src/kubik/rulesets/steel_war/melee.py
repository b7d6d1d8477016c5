"""Steel War close combat (рукопашный бой): the melee die, the round, morale after it, casualties.

Fighters stand in bouts: one fighter facing one or more enemies, each of whom faces
only him (SW-CC-06). Every fighter rolls his own melee die once — his squad's quality
die stepped up for his own weapon, bayonet, horse (SW-CC-07); in each facing pair the
lower roll is a casualty at once, equal rolls nothing (SW-CC-08). Identical unnamed
bouts are independent, so a round Calls one bout's procedure ``times=n`` and the odds
driver convolves them instead of nesting every die.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from kubik.core.errors import InputError
from kubik.core.keeping import Kept
from kubik.engine import Call, Emit, Procedure, Roll, Tally, emit, msg
from kubik.engine.applied import decides, record
from kubik.engine.dice import Die, parse_die
from kubik.engine.memo import by_identity
from kubik.engine.requests import AnyCall, tail_step
from kubik.engine.tally import PairCounts
from kubik.rulesets.data import DataError, load_ruleset_data
from kubik.rulesets.steel_war.core import step_die
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.morale import morale_test
from kubik.rulesets.steel_war.movement import Terrain, TerrainClass, terrain_class
from kubik.rulesets.steel_war.movers import MoverType


class Side(Enum):
    """The two sides of a close combat."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"steel_war.term.melee.side.{self.value}"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@decides("SW-CC-01")
@cache  # pure, its data read once per process: asked on every menu and replay
def can_fight_in_melee(kind: MoverType) -> bool:
    """Only infantry and cavalry fight in close combat; robots, armoured suits and vehicles
    cannot (SW-CC-01).

    >>> can_fight_in_melee(MoverType.CAVALRY), can_fight_in_melee(MoverType.ROBOT)
    (True, False)
    """
    return kind.value in _data()["melee_eligibility"]["can_fight"]


@decides("SW-CC-07")
def cavalry_bonus_applies(terrain: Terrain, mounted: bool = True) -> bool:
    """The +2 steps of a cavalryman: mounted, on terrain easy for cavalry (SW-CC-07, SW-MOVE-03).

    A cavalryman who lost his horse fights as infantry (SW-ABSENT-07).

    >>> cavalry_bonus_applies(Terrain.PLOUGHLAND), cavalry_bonus_applies(Terrain.LIGHT_WOOD)
    (True, False)
    """
    return mounted and terrain_class(MoverType.CAVALRY, terrain) is TerrainClass.EASY


def fall_back_inches(after_charge: bool) -> int:
    """How far a side gives way: 6" in front of the attackers after a charge (SW-CC-05),
    6" back after a lost round (SW-CC-09).

    >>> fall_back_inches(True), fall_back_inches(False)
    (6, 6)
    """
    record("SW-CC-05" if after_charge else "SW-CC-09")
    return int(_data()["fall_back"]["after_charge" if after_charge else "after_round"])


@dataclass(frozen=True, slots=True)
class Fighter:
    """A fighter's melee profile: his squad's quality die and what he carries (SW-CC-07)."""

    quality: Die
    weapon: str = "assault_rifle"
    cold_weapon: bool = False  # fixed bayonet, sword, axe ...
    cavalry_on_easy_terrain: bool = False  # a mounted cavalryman on terrain easy for him

    def steps(self) -> int:
        """Steps added to the quality die: the weapon table's «Бл. бой» column (SW-FIRE-10),
        a cold weapon, a mounted cavalryman on easy ground."""
        cold, cavalry = _melee_steps()
        steps = weapon(self.weapon).melee
        if self.cold_weapon:
            steps += cold
        if self.cavalry_on_easy_terrain:
            steps += cavalry
        return steps

    def die(self) -> Die:
        """The die he rolls in close combat (SW-CC-07).

        >>> from kubik.engine.dice import D8
        >>> Fighter(D8, "smg", cold_weapon=True).die()
        Die(faces=12)
        """
        return step_die(self.quality, self.steps())


@dataclass(frozen=True, slots=True)
class Group:
    """``count`` groups: one fighter of ``centre`` facing ``opponents`` enemies (SW-CC-06)."""

    centre: Side
    opponents: int
    count: int = 1

    def fighters(self, side: Side) -> int:
        """How many fighters of ``side`` stand in these groups."""
        return self.count * (1 if side is self.centre else self.opponents)


def default_pairing(attackers: int, defenders: int) -> tuple[Group, ...]:
    """Every fighter of the smaller side faces the larger side's fighters spread evenly (SW-CC-06).

    >>> [(g.centre.value, g.opponents, g.count) for g in default_pairing(3, 5)]
    [('attacker', 2, 2), ('attacker', 1, 1)]
    """
    if attackers < 1 or defenders < 1:
        raise InputError("attackers, defenders: each side needs at least one fighter")
    centre = Side.ATTACKER if attackers <= defenders else Side.DEFENDER
    small, large = sorted((attackers, defenders))
    per, extra = divmod(large, small)
    groups = [Group(centre, per + 1, extra)] if extra else []
    groups.append(Group(centre, per, small - extra))
    return tuple(g for g in groups if g.count)


def check_pairing(groups: tuple[Group, ...], attackers: int, defenders: int) -> None:
    """Everybody fights and nobody twice: the groups must hold exactly the fighters (SW-CC-06)."""
    for side, total in ((Side.ATTACKER, attackers), (Side.DEFENDER, defenders)):
        placed = sum(g.fighters(side) for g in groups)
        if placed != total:
            raise InputError(
                f"groups: place every {side.value} exactly once ({placed} placed, {total} fight)"
            )


@dataclass(frozen=True, slots=True)
class Bout:
    """One fighter of ``centre``'s side facing one or more enemies, each of whom faces only
    him (SW-CC-06), with each man's own melee die (SW-CC-07).

    ``names``: empty, or the lone fighter's name then each opponent's — named bouts
    report who fell; unnamed identical bouts are fought as one Call with ``times``.
    """

    centre: Side
    fighter: Die
    opponents: tuple[Die, ...]
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.opponents:
            raise InputError("bouts: every fighter faces at least one enemy")
        if self.names and len(self.names) != 1 + len(self.opponents):
            raise InputError("bouts: name the lone fighter and each of his opponents, or none")

    def fighters(self, side: Side) -> int:
        """How many fighters of ``side`` stand in this bout."""
        return 1 if side is self.centre else len(self.opponents)


@cache
def _melee_steps() -> tuple[int, int]:
    """Steps of a cold weapon and of a mounted cavalryman on easy ground (read once)."""
    table = _data()["melee_die"]
    return int(table["cold_weapon"]), int(table["cavalry_easy_terrain"])


def bouts_of(groups: tuple[Group, ...], attacker: Fighter, defender: Fighter) -> tuple[Bout, ...]:
    """The bouts of a pairing in which every man of a side carries the same (SW-CC-06/07).

    >>> from kubik.engine.dice import D8
    >>> two = (Group(Side.ATTACKER, 2, 2),)
    >>> [len(b.opponents) for b in bouts_of(two, Fighter(D8), Fighter(D8))]
    [2, 2]
    """
    dice = {Side.ATTACKER: attacker.die(), Side.DEFENDER: defender.die()}
    return tuple(
        Bout(g.centre, dice[g.centre], (dice[g.centre.other],) * g.opponents)
        for g in groups
        for _ in range(g.count)
    )


@decides("SW-CC-06")
def pair_fighters(
    attackers: Sequence[tuple[str, Die]], defenders: Sequence[tuple[str, Die]]
) -> tuple[Bout, ...]:
    """The default pairing of real fighters, each with his own melee die (SW-CC-06):
    every man of the smaller side heads a bout, the larger side's men are spread as evenly
    as possible, in the order given (the first bouts take the spare men).

    >>> from kubik.engine.dice import D6, D8
    >>> bouts = pair_fighters([("a1", D8)], [("d1", D6), ("d2", D8)])
    >>> bouts[0].names, bouts[0].opponents
    (('a1', 'd1', 'd2'), (Die(faces=6), Die(faces=8)))
    """
    if not attackers or not defenders:
        raise InputError("attackers, defenders: each side needs at least one fighter")
    centre = Side.ATTACKER if len(attackers) <= len(defenders) else Side.DEFENDER
    small, large = (attackers, defenders) if centre is Side.ATTACKER else (defenders, attackers)
    per, extra = divmod(len(large), len(small))
    named = any(name for name, _ in (*attackers, *defenders))
    bouts: list[Bout] = []
    taken = 0
    for index, (name, die) in enumerate(small):
        size = per + (1 if index < extra else 0)
        facing = large[taken : taken + size]
        taken += size
        names = (name, *(n for n, _ in facing)) if named else ()
        bouts.append(Bout(centre, die, tuple(d for _, d in facing), names))
    return tuple(bouts)


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


@dataclass(frozen=True, slots=True)
class SideMorale:
    """What a side's morale test after the round needs: quality die and leadership.

    ``no_step_back``: the side stands in «Ни шагу назад!» and takes no morale test
    (SW-NSN-03): it never falls back, the other side still tests. ``standing``: its men
    still fighting after the round; a side wiped out has nobody to test and is beaten
    when its turn to test comes, while the other side still tests first if it lost more.
    """

    quality: Die
    leadership: int
    no_step_back: bool = False
    standing: int = 1


@dataclass(frozen=True, slots=True)
class RoundMorale:
    """Who fell back after the round (None: the melee goes on next turn) and its morale drop."""

    fell_back: Side | None
    drop: int


def morale_order(losses: RoundLosses) -> tuple[Side, ...]:
    """Who tests after the round, in order (SW-CC-09): more casualties first, then the other.

    >>> [s.value for s in morale_order(RoundLosses(1, 2))]
    ['defender', 'attacker']
    >>> morale_order(RoundLosses(0, 0))
    ()
    """
    table = _data()["round_morale"]
    if losses.attacker == losses.defender:
        if losses.attacker == 0 and not table["test_without_casualties"]:
            return ()
        first = Side(table["tie_first"])
    else:
        first = Side.ATTACKER if losses.attacker > losses.defender else Side.DEFENDER
    return first, first.other


def round_threat(casualties: int) -> int:
    """Threat of the morale test after a round: +1 per own casualty (SW-CC-09).

    >>> round_threat(3)
    3
    """
    return casualties * int(_data()["round_morale"]["threat_per_casualty"])


def round_morale(
    losses: RoundLosses, attacker: SideMorale, defender: SideMorale
) -> Procedure[RoundMorale]:
    """The side with more casualties tests; if it holds, the other tests the same way (SW-CC-09)."""
    sides = {Side.ATTACKER: attacker, Side.DEFENDER: defender}
    for side in morale_order(losses):
        if sides[side].standing <= 0:
            yield emit("steel_war.close_combat.wiped_out", rules="SW-CC-09", side=side)
            return RoundMorale(side, 0)
        if sides[side].no_step_back:
            yield emit(
                "steel_war.close_combat.no_step_back", rules=("SW-NSN-03", "SW-CC-09"), side=side
            )
            continue
        threat = round_threat(losses.of(side))
        yield emit("steel_war.close_combat.morale", rules="SW-CC-09", side=side, threat=threat)
        result = yield Call(
            morale_test, (sides[side].quality, sides[side].leadership, threat, ("SW-CC-09",))
        )
        if result.drop:
            inches = fall_back_inches(after_charge=False)
            yield emit(
                "steel_war.close_combat.falls_back",
                rules=("SW-CC-09", "SW-MOR-01"),
                side=side,
                inches=inches,
            )
            return RoundMorale(side, result.drop)
    yield emit("steel_war.close_combat.continues", rules="SW-CC-09")
    return RoundMorale(None, 0)


class CasualtyFate(Enum):
    """What became of a man lost in close combat (SW-CC-10)."""

    KILLED = "killed"
    WOUNDED = "wounded"
    UNHURT = "unhurt"


def fate_table(table: dict[str, Any]) -> dict[int, CasualtyFate]:
    """Face → fate; every face of the die must have exactly one fate (SW-CC-10).

    >>> fate_table({"die": "d6", "killed": [1, 2], "wounded": [3, 4], "unhurt": [5, 6]})[5].value
    'unhurt'
    """
    die = parse_die(str(table["die"]))
    faces: dict[int, CasualtyFate] = {}
    for fate in CasualtyFate:
        for face in table[fate.value]:
            if face in faces:
                raise DataError(
                    f"melee_casualty_fate.{fate.value}: face {face} already means "
                    f"{faces[face].value}"
                )
            faces[int(face)] = fate
    missing = [v for v in die.values if v not in faces]
    if missing:
        raise DataError(f"melee_casualty_fate: faces {missing} of the {die.name} have no fate")
    return faces


@cache
def _fates() -> dict[int, CasualtyFate]:
    return fate_table(_data()["melee_casualty_fate"])


def casualty_fate_of(roll: int) -> CasualtyFate:
    """The fate of a melee casualty for this d6 roll (SW-CC-10).

    >>> [casualty_fate_of(r).value for r in (2, 3, 6)]
    ['killed', 'wounded', 'unhurt']
    """
    return _fates()[roll]


def casualty_fate() -> Procedure[CasualtyFate]:
    """Roll the d6 for one man lost in close combat (SW-CC-10)."""
    die = parse_die(str(_data()["melee_casualty_fate"]["die"]))
    fate: CasualtyFate = yield Roll(
        die,
        msg("steel_war.melee_casualties.roll"),
        reduce=_fate_of_values,
        roller="owner",
        rules="SW-CC-10",
    )
    return fate


def _fate_of_values(values: tuple[int, ...]) -> CasualtyFate:
    return casualty_fate_of(values[0])


@dataclass(frozen=True, slots=True)
class CasualtiesOutcome:
    """What became of one side's melee casualties (SW-CC-10)."""

    killed: int
    returned: int  # unhurt men back in the ranks (winner only)
    unverified: int  # wounded men of the winner: unverified casualties (SW-DMG-11)
    prisoners: int  # the loser's unhurt and wounded


def settle_casualties(fates: Tally[CasualtyFate], won: bool) -> CasualtiesOutcome:
    """Sort the fates by who won: the loser's unhurt and wounded are taken prisoner (SW-CC-10).

    >>> f = Tally([CasualtyFate.KILLED, CasualtyFate.WOUNDED, CasualtyFate.UNHURT])
    >>> settle_casualties(f, won=False)
    CasualtiesOutcome(killed=1, returned=0, unverified=0, prisoners=2)
    """
    table = _data()["prisoners"]

    def count(names: list[str]) -> int:
        return sum(fates[CasualtyFate(n)] for n in names)

    killed = fates[CasualtyFate.KILLED]
    if won:
        return CasualtiesOutcome(
            killed, count(table["winner_returns"]), count(table["winner_unverified"]), 0
        )
    return CasualtiesOutcome(killed, 0, 0, count(table["loser"]))


def melee_casualties(casualties: int, won: bool) -> Procedure[CasualtiesOutcome]:
    """Roll a d6 for every man a side lost once the melee is over (SW-CC-10)."""
    fates: Tally[CasualtyFate] = yield Call(casualty_fate, (), times=casualties)
    outcome = settle_casualties(fates, won)
    yield emit(
        "steel_war.melee_casualties.result",
        rules=("SW-CC-10", *(("SW-DMG-11",) if outcome.unverified else ())),
        killed=outcome.killed,
        returned=outcome.returned,
        unverified=outcome.unverified,
        prisoners=outcome.prisoners,
    )
    return outcome
