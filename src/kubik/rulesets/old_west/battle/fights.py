"""Dividing the models in base contact into fights (схватки), and the order of fights.

Models joined by base contact form a group (OW-ABSENT-03 default:
:func:`~kubik.rulesets.old_west.absent.divide_into_fights`). A group with several
models on both sides must be split so that one side of every fight is a single model;
the player with advantage decides how (a ``Choose`` among the splits below, whose
default is the deterministic split: the model with the fewest free enemies in contact
takes them all, so models pair off where they can). He also picks the order in which
the fights are fought (OW-CC-02/08, the rule :func:`~kubik.rulesets.old_west.heroics.fight_order`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.engine import Choose, Forecast, Message, Procedure, msg
from kubik.rulesets.old_west.absent import FightGroup, divide_into_fights
from kubik.rulesets.old_west.battle.options import name
from kubik.rulesets.old_west.battle.state import Battle
from kubik.table import in_base_contact

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: A bot's taste for splits: each enemy standing alone against several of ours.
OUTNUMBER = 0.1


@dataclass(frozen=True, slots=True)
class Fight:
    """One fight: the models of the first posse (``a``) and of the second (``b``)."""

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


def fight_names(battle: Battle, fights: tuple[Fight, ...]) -> tuple[str, str]:
    """The fights as people read them, in English and Russian: ``Wyatt vs Ike + Billy``."""

    def side(ids: tuple[str, ...], ru: bool) -> str:
        figures = [battle.figure(m) for m in ids]
        return " + ".join(f.name_ru if ru else f.name_en for f in figures)

    en = "; ".join(f"{side(f.a, False)} vs {side(f.b, False)}" for f in fights)
    ru = "; ".join(f"{side(f.a, True)} против {side(f.b, True)}" for f in fights)
    return en, ru


@dataclass(frozen=True, slots=True)
class Split:
    """One way to split a group of models into fights (the advantage player's choice)."""

    fights: tuple[Fight, ...]
    names: str
    names_ru: str

    @property
    def label(self) -> Message:
        """How the option reads."""
        return msg("old_west.game.option.split", fights=name(self.names, self.names_ru))


@dataclass(frozen=True, slots=True)
class NextFight:
    """The fight the advantage player has fought next (OW-CC-02/08)."""

    fight: Fight
    names: str
    names_ru: str

    @property
    def label(self) -> Message:
        """How the option reads."""
        return msg("old_west.game.option.next_fight", fight=name(self.names, self.names_ru))


def contacts_of(battle: Battle) -> frozenset[tuple[str, str]]:
    """(first posse's model, second posse's model) pairs in base contact."""
    first, second = battle.sides
    return frozenset(
        (a.id, b.id)
        for a in battle.active(first)
        for b in battle.active(second)
        if in_base_contact(a.base, b.base)
    )


def _sorted(ids: frozenset[str] | set[str], order: Mapping[str, int]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=lambda m: order[m]))


def split(
    group: FightGroup,
    contacts: frozenset[tuple[str, str]],
    order: Mapping[str, int],
    first: str | None = None,
) -> tuple[Fight, ...]:
    """Split a many-against-many group so every fight has a single model on one side.

    ``first`` (if given) stands alone against all its enemies first; then, repeatedly,
    the model with the fewest free enemies in contact takes them all (so models pair
    off where they can); a model left with no free enemy joins a fight where an enemy
    it touches stands alone, else it sits this round out.
    """
    a, b = group.a, group.b
    free = set(a) | set(b)
    fights: list[tuple[str, set[str], bool]] = []  # (single model, opponents, single is on a)

    def enemies_of(model: str) -> set[str]:
        if model in a:
            return {y for x, y in contacts if x == model}
        return {x for x, y in contacts if y == model}

    pick = first
    while True:
        ready = [m for m in free if enemies_of(m) & free]
        if not ready:
            break
        model = pick if pick in ready else None
        if model is None:
            model = min(ready, key=lambda m: (len(enemies_of(m) & free), order[m]))
        pick = None
        foes = enemies_of(model) & free
        free -= foes | {model}
        fights.append((model, foes, model in a))
    for model in sorted(free, key=lambda m: order[m]):
        for single, opponents, single_on_a in fights:
            if single in enemies_of(model) and single_on_a != (model in a):
                opponents.add(model)
                break
    out: list[Fight] = []
    for single, opponents, on_a in fights:
        many = _sorted(opponents, order)
        out.append(Fight((single,), many) if on_a else Fight(many, (single,)))
    return tuple(sorted(out, key=lambda f: min(order[m] for m in f.models)))


def splits(
    battle: Battle, group: FightGroup, contacts: frozenset[tuple[str, str]]
) -> tuple[Split, ...]:
    """The ways offered to split a group: the default split first, then the split that
    starts from each model of the group standing alone (file order), without repeats."""
    order = {f.id: i for i, f in enumerate(battle.figures)}
    found: list[tuple[Fight, ...]] = [split(group, contacts, order)]
    for model in _sorted(group.a | group.b, order):
        candidate = split(group, contacts, order, model)
        if candidate not in found:
            found.append(candidate)
    return tuple(Split(f, *fight_names(battle, f)) for f in found)


def split_score(game: OldWestGame, side: str, option: Split) -> float:
    """A bot's plain judgement of a split: enemies left alone against several of ours."""
    first = side == game.sides[0]
    score = 0.0
    for fight in option.fights:
        mine, theirs = (fight.a, fight.b) if first else (fight.b, fight.a)
        if len(theirs) == 1 and len(mine) > 1:
            score += OUTNUMBER
        if len(mine) == 1 and len(theirs) > 1:
            score -= OUTNUMBER
    return round(score, 4)


def divide(game: OldWestGame) -> Procedure[tuple[Fight, ...]]:
    """The fights of the phase from the models in base contact; the posse with advantage
    chooses how to split each group with several models on both sides (OW-ABSENT-03)."""
    battle = game.battle
    contacts = contacts_of(battle)
    order = {f.id: i for i, f in enumerate(battle.figures)}
    fights: list[Fight] = []
    for group in divide_into_fights(contacts):
        if not group.needs_split:
            fights.append(Fight(_sorted(group.a, order), _sorted(group.b, order)))
            continue
        options = splits(battle, group, contacts)
        chosen = options[0]
        if len(options) > 1:
            side = game.advantage_side
            answer = yield Choose(
                options,
                side,
                msg("old_west.game.split.ask", fights=len(group.a) + len(group.b)),
                default=options[0],
                forecasts=tuple(Forecast(score=split_score(game, side, o)) for o in options),
            )
            assert isinstance(answer, Split)
            chosen = answer
        fights.extend(chosen.fights)
    return tuple(sorted(fights, key=lambda f: min(order[m] for m in f.models)))


def form_fights(battle: Battle) -> tuple[Fight, ...]:
    """The fights with every group split the default way (no decision asked)."""
    contacts = contacts_of(battle)
    order = {f.id: i for i, f in enumerate(battle.figures)}
    fights: list[Fight] = []
    for group in divide_into_fights(contacts):
        if group.needs_split:
            fights.extend(split(group, contacts, order))
        else:
            fights.append(Fight(_sorted(group.a, order), _sorted(group.b, order)))
    return tuple(sorted(fights, key=lambda f: min(order[m] for m in f.models)))


def next_fights(battle: Battle, fights: tuple[Fight, ...]) -> tuple[NextFight, ...]:
    """The fights as options of the order decision."""
    return tuple(NextFight(f, *fight_names(battle, (f,))) for f in fights)


__all__ = [
    "Fight",
    "NextFight",
    "Split",
    "contacts_of",
    "divide",
    "fight_names",
    "form_fights",
    "next_fights",
    "split",
    "split_score",
    "splits",
]
