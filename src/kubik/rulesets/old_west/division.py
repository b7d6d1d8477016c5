"""Fights (схватки): who is in which fight, who may fight, and the order of fights
(OW-CC-01, OW-CC-02, OW-CC-08, OW-CC-13, OW-ABSENT-03, OW-HERO-10/11).

Enemies touch only after a charge (OW-CC-01). In the Close-combat phase the models in
base contact form groups; the player with advantage splits a group with several
models on both sides into fights with a single model on one side (OW-ABSENT-03
default), so that **every** model in contact is in exactly one fight: each fight is a
"star" of the contacts — one model and enemies it touches. Such a split always exists
(every graph without isolated vertices splits into stars), and :func:`split` finds one
from any starting model. Each model fights once a phase, except that models moving on
after a Time for Whuppin' may fight again (OW-HERO-10/11). The side with advantage
picks each next fight once the previous one is resolved (:func:`next_fight`).

Models are named by plain ids; ``order`` (ids in a fixed order, e.g. the scenario's)
makes every choice deterministic.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from kubik.core.errors import InputError
from kubik.engine import Choose, Message, Procedure, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.rulesets.old_west.core import Side, Status, on_table

#: Base contacts: (side-a model, side-b model) pairs.
Contacts = frozenset[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Fight:
    """One fight: the models of side a and of side b (ids), one side a single model."""

    a: tuple[str, ...]
    b: tuple[str, ...]

    @property
    def id(self) -> str:
        """A readable id: ``wyatt vs ike+billy``."""
        return f"{'+'.join(self.a)} vs {'+'.join(self.b)}"

    @property
    def models(self) -> tuple[str, ...]:
        """Every model in it."""
        return (*self.a, *self.b)


@dataclass(frozen=True, slots=True)
class FightGroup:
    """Models joined by base contact, before the split into fights."""

    a: frozenset[str]
    b: frozenset[str]

    @property
    def needs_split(self) -> bool:
        """Several models on both sides: the player with advantage splits it so that one
        side of every fight is a single model (OW-ABSENT-03 default)."""
        return not fight_shape(len(self.a), len(self.b)).allowed


@decides()
def fight_shape(models_a: int, models_b: int) -> Verdict:
    """May these many models of each side be one fight? Each side needs a model, and one
    side must be a single model (OW-ABSENT-03 default; one against one, or one against
    several as in OW-CC-13).

    >>> fight_shape(3, 1).rules, fight_shape(2, 2).allowed
    (('OW-ABSENT-03', 'OW-CC-13'), False)
    """
    if models_a < 1 or models_b < 1:
        return Verdict.forbid(msg("old_west.permission.fight_empty"), "OW-CC-01")
    if models_a > 1 and models_b > 1:
        return Verdict.forbid(
            msg("old_west.permission.fight_many", a=models_a, b=models_b), "OW-ABSENT-03"
        )
    several = ("OW-CC-13",) if models_a > 1 or models_b > 1 else ()
    return Verdict.allow("OW-ABSENT-03", *several)


@decides()
def may_touch(by_charge: bool) -> Verdict:
    """May two enemy models stand in base contact? Only when one charged the other
    (OW-CC-01): other moves end outside enemy control zones (OW-ABSENT-02), and every
    loser ends his fight out of contact (OW-CC-04, OW-CC-09) — so no fight is fought
    again without a new charge."""
    if by_charge:
        return Verdict.allow("OW-CC-01")
    return Verdict.forbid(msg("old_west.permission.touch_without_charge"), "OW-CC-01")


@decides()
def in_a_fight(engaged: bool) -> Verdict:
    """Is the model in a fight (base contact with an enemy)? What Time for Whuppin' needs
    (OW-HERO-10)."""
    if engaged:
        return Verdict.allow("OW-CC-01")
    return Verdict.forbid(msg("old_west.permission.no_fight"), "OW-CC-01", "OW-HERO-10")


@dataclass(frozen=True, slots=True)
class Fighting:
    """A model about to fight: has it fought this phase, and how did it come here?"""

    fought: bool = False  # already fought a round this phase
    whuppin_move: bool = False  # moved into this fight after a Time for Whuppin' (OW-HERO-10)
    status: Status = Status.IN_ACTION


@decides()
def may_fight(model: Fighting) -> Verdict:
    """May the model fight a round now? Every fighting model is in exactly one fight a
    phase (OW-CC-01, OW-ABSENT-03); only the models that moved on after a Time for
    Whuppin' may fight a second fight (OW-HERO-10, OW-HERO-11).

    >>> may_fight(Fighting(fought=True)).allowed, may_fight(Fighting(True, True)).rules
    (False, ('OW-HERO-10', 'OW-HERO-11'))
    """
    gone = on_table(model.status)
    if not gone.allowed:
        return gone
    if not model.fought:
        return Verdict.allow("OW-CC-01")
    if model.whuppin_move:
        return Verdict.allow("OW-HERO-10", "OW-HERO-11")
    return Verdict.forbid(msg("old_west.permission.fought_already"), "OW-CC-01", "OW-ABSENT-03")


@decides("OW-ABSENT-03")
def divide_into_fights(contacts: Contacts) -> tuple[FightGroup, ...]:
    """Models joined by base contact (side-a id, side-b id) form one group (OW-ABSENT-03
    default); groups are listed by their first side-a model.

    >>> groups = divide_into_fights(frozenset({("a1", "b1"), ("a2", "b1"), ("a3", "b2")}))
    >>> [(sorted(g.a), sorted(g.b)) for g in groups]
    [(['a1', 'a2'], ['b1']), (['a3'], ['b2'])]
    """
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for a, b in contacts:
        parent[root(str(("a", a)))] = root(str(("b", b)))
    groups: dict[str, tuple[set[str], set[str]]] = {}
    for a, b in contacts:
        key = root(str(("a", a)))
        side_a, side_b = groups.setdefault(key, (set(), set()))
        side_a.add(a)
        side_b.add(b)
    fights = [FightGroup(frozenset(a), frozenset(b)) for a, b in groups.values()]
    return tuple(sorted(fights, key=lambda g: min(g.a)))


def _ranks(order: tuple[str, ...]) -> Mapping[str, int]:
    return {model: index for index, model in enumerate(order)}


def _enemies(contacts: Contacts, model: str, on_a: bool) -> set[str]:
    if on_a:
        return {y for x, y in contacts if x == model}
    return {x for x, y in contacts if y == model}


def split(
    group: FightGroup, contacts: Contacts, order: tuple[str, ...], first: str | None = None
) -> tuple[Fight, ...]:
    """Split a group into fights so that each has a single model on one side and every
    model is in exactly one (OW-ABSENT-03, OW-CC-13).

    ``first`` (if given) takes all the enemies it touches first; then, repeatedly, the
    model with the fewest free enemies in contact takes them all (so models pair off
    where they can). A model left over — every enemy it touches already placed — joins
    the fight of an enemy who stands alone there; failing that it takes one of those
    enemies out of his fight and fights him (with that fight's single model too, if
    the enemy was his only opponent). ``order``: every model's id, for ties.

    >>> chain = frozenset({("a1", "b1"), ("a1", "b2"), ("a2", "b1"), ("a2", "b2")})
    >>> [f.id for f in split(divide_into_fights(chain)[0], chain, ("a1", "a2", "b1", "b2"))]
    ['a1 vs b2', 'a2 vs b1']
    """
    rank = _ranks(order)
    a = group.a

    def enemies_of(model: str) -> set[str]:
        return _enemies(contacts, model, model in a)

    free = set(group.a) | set(group.b)
    stars: list[tuple[str, set[str]]] = []  # (single model, its opponents)
    pick = first
    while True:
        ready = [m for m in free if enemies_of(m) & free]
        if not ready:
            break
        model = pick if pick in ready else None
        if model is None:
            model = min(ready, key=lambda m: (len(enemies_of(m) & free), rank[m]))
        pick = None
        foes = enemies_of(model) & free
        free -= foes | {model}
        stars.append((model, foes))
    for model in sorted(free, key=lambda m: rank[m]):
        _join(model, sorted(enemies_of(model), key=lambda m: rank[m]), stars)
    fights = [
        Fight((single,), _by_rank(many, rank))
        if single in a
        else Fight(_by_rank(many, rank), (single,))
        for single, many in stars
    ]
    return tuple(sorted(fights, key=lambda f: min(rank[m] for m in f.models)))


def _join(model: str, enemies: list[str], stars: list[tuple[str, set[str]]]) -> None:
    """Put a left-over model into a fight: beside others against an enemy who stands
    alone, or against an enemy taken out of a fight where he was one of several."""
    for single, many in stars:
        if single in enemies:
            many.add(model)
            return
    enemy = enemies[0]
    index, (single, many) = next((i, s) for i, s in enumerate(stars) if enemy in s[1])
    many.discard(enemy)
    if many:
        stars.append((enemy, {model}))
    else:
        stars[index] = (enemy, {model, single})


def _by_rank(models: set[str], rank: Mapping[str, int]) -> tuple[str, ...]:
    return tuple(sorted(models, key=lambda m: rank[m]))


@decides("OW-ABSENT-03", "OW-CC-13")
def splits(
    group: FightGroup, contacts: Contacts, order: tuple[str, ...]
) -> tuple[tuple[Fight, ...], ...]:
    """The ways to split a group offered to the player with advantage: the default split
    first, then the split that starts from each model of the group (in ``order``),
    without repeats."""
    found = [split(group, contacts, order)]
    for model in (m for m in order if m in group.a or m in group.b):
        candidate = split(group, contacts, order, model)
        if candidate not in found:
            found.append(candidate)
    return tuple(found)


@decides("OW-CC-01", "OW-ABSENT-03")
def divide(contacts: Contacts, order: tuple[str, ...]) -> tuple[Fight, ...]:
    """Every fight of the phase with each group split the default way (no decision
    asked), in ``order`` of their first model."""
    rank = _ranks(order)
    fights: list[Fight] = []
    for group in divide_into_fights(contacts):
        if group.needs_split:
            fights.extend(split(group, contacts, order))
        else:
            fights.append(Fight(_by_rank(set(group.a), rank), _by_rank(set(group.b), rank)))
    return tuple(sorted(fights, key=lambda f: min(rank[m] for m in f.models)))


@decides()
def division_check(fights: tuple[Fight, ...], contacts: Contacts) -> Verdict:
    """Is this a lawful division of the models in contact? Every model in contact is in
    exactly one fight (OW-CC-01), each fight has a single model on one side whom each
    of the others touches (OW-ABSENT-03 default, OW-CC-13).

    >>> contacts = frozenset({("a1", "b1"), ("a2", "b1")})
    >>> division_check((Fight(("a1", "a2"), ("b1",)),), contacts).allowed
    True
    >>> division_check((Fight(("a1",), ("b1",)),), contacts).allowed
    False
    """
    placed = [m for f in fights for m in f.models]
    touching = {a for a, _ in contacts} | {b for _, b in contacts}
    twice = sorted({m for m in placed if placed.count(m) > 1})
    if twice:
        return Verdict.forbid(
            msg("old_west.permission.fights_twice", models=tuple(twice)), "OW-CC-01"
        )
    left_out = sorted(touching - set(placed))
    if left_out:
        return Verdict.forbid(
            msg("old_west.permission.fights_left_out", models=tuple(left_out)),
            "OW-CC-01",
            "OW-ABSENT-03",
        )
    verdicts = [Verdict.allow("OW-CC-01")]
    for fight in fights:
        shape = fight_shape(len(fight.a), len(fight.b))
        if not shape.allowed:
            return shape
        verdicts.append(shape)
        single_on_a = len(fight.a) == 1
        single = fight.a[0] if single_on_a else fight.b[0]
        for other in fight.b if single_on_a else fight.a:
            pair = (single, other) if single_on_a else (other, single)
            if pair not in contacts:
                return Verdict.forbid(
                    msg("old_west.permission.fight_apart", model=other, single=single),
                    "OW-ABSENT-03",
                )
    return Verdict.combine(*verdicts)


def next_fight(
    left: tuple[Hashable, ...],
    advantage: Side,
    whuppin: tuple[Hashable, ...] = (),
    labels: tuple[Message, ...] = (),
) -> Procedure[Hashable]:
    """The fight resolved next (OW-CC-02, OW-CC-08), asked each time the previous fight
    is fully resolved: first a fight of a Hero's Time for Whuppin' still left, in the
    order the Heroes act (OW-HERO-10); otherwise the side with advantage picks among
    the fights ``left`` (the last one needs no decision). Fights are anything hashable
    that names one (an id, or an option a person can read); ``labels``, one per fight
    left, show them to people.
    """
    if not left:
        raise InputError("left: no fight is left to resolve")
    for fight in whuppin:
        if fight in left:
            yield emit("old_west.order.whuppin", rules=("OW-HERO-10", "OW-CC-02"), fight=fight)
            return fight
    if len(left) == 1:
        return left[0]
    chosen: Hashable = yield Choose(
        left,
        advantage.value,
        msg("old_west.order.choose", side=advantage),
        labels=labels,
        rules=("OW-CC-02", "OW-CC-08"),
    )
    return chosen


__all__ = [
    "Contacts",
    "Fight",
    "FightGroup",
    "Fighting",
    "divide",
    "divide_into_fights",
    "division_check",
    "fight_shape",
    "in_a_fight",
    "may_fight",
    "may_touch",
    "next_fight",
    "split",
    "splits",
]
