"""Dividing the models in base contact into fights (схватки), and the order of fights.

The rules are :mod:`kubik.rulesets.old_west.division`: models joined by base contact
form a group, and a group with several models on both sides is split so that one side
of every fight is a single model and every model is in exactly one fight. The player
with advantage decides how (a ``Choose`` among the rule's splits, whose default is the
rule's deterministic split). He also picks each next fight (OW-CC-02/08, the rule
:func:`~kubik.rulesets.old_west.division.next_fight`). This module measures the
contacts on the table and names the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.engine import Choose, Forecast, Message, Procedure, msg
from kubik.rulesets.old_west import division
from kubik.rulesets.old_west.battle.options import name
from kubik.rulesets.old_west.battle.state import Battle
from kubik.rulesets.old_west.division import Fight
from kubik.table import in_base_contact

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: A bot's taste for splits: each enemy standing alone against several of ours.
OUTNUMBER = 0.1


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


def order_of(battle: Battle) -> tuple[str, ...]:
    """Every model's id in file order (the rules' tie-break order)."""
    return tuple(f.id for f in battle.figures)


def splits(
    battle: Battle, group: division.FightGroup, contacts: frozenset[tuple[str, str]]
) -> tuple[Split, ...]:
    """The rule's ways to split a group, as options (the default split first)."""
    found = division.splits(group, contacts, order_of(battle))
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
    for group in division.divide_into_fights(contacts):
        if not group.needs_split:
            fights.extend(division.divide(_only(contacts, group), order_of(battle)))
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
                rules=("OW-ABSENT-03", "OW-CC-01"),
            )
            assert isinstance(answer, Split)
            chosen = answer
        fights.extend(chosen.fights)
    return tuple(sorted(fights, key=lambda f: min(order[m] for m in f.models)))


def _only(
    contacts: frozenset[tuple[str, str]], group: division.FightGroup
) -> frozenset[tuple[str, str]]:
    return frozenset((a, b) for a, b in contacts if a in group.a)


def form_fights(battle: Battle) -> tuple[Fight, ...]:
    """The fights with every group split the rule's default way (no decision asked)."""
    return division.divide(contacts_of(battle), order_of(battle))


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
    "order_of",
    "split_score",
    "splits",
]
