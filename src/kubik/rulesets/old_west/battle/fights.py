"""Dividing the models in a fight into fights (схватки), and naming them.

The rules are :mod:`kubik.rulesets.old_west.division`: models joined by the fights
charges started form a group, and a group with several models on both sides is
split so that one side of every fight is a single model and every model is in
exactly one fight. The player with advantage decides how: a menu of the rule's
splits, each checked by :func:`~kubik.rulesets.old_west.division.division_check`
(the default is the rule's own split); at a real table people may type their own
split, which the same check accepts or refuses.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Hashable

from kubik.engine import Entry, EntryError, Forecast, Message, Procedure, msg
from kubik.game.battle import Menu
from kubik.rulesets.old_west import division
from kubik.rulesets.old_west.battle.judge import weight
from kubik.rulesets.old_west.battle.options import Split
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.division import Contacts, Fight


def contacts_of(game: OldWestState, eligible: Collection[str] | None = None) -> Contacts:
    """(first posse's model, second posse's model) pairs in a fight a charge started, both
    in action (and both ``eligible``, when given)."""
    first = {f.id for f in game.posse(game.sides[0])}
    pairs: set[tuple[str, str]] = set()
    for engagement in game.contacts.pairs():
        a, b = (engagement.a, engagement.b)
        if a not in first:
            a, b = b, a
        if a not in first or b in first:
            continue
        if not (game.figure(a).in_action and game.figure(b).in_action):
            continue
        if eligible is not None and (a not in eligible or b not in eligible):
            continue
        pairs.add((a, b))
    return frozenset(pairs)


def order_of(game: OldWestState) -> tuple[str, ...]:
    """Every model's id in file order (the rules' tie-break order)."""
    return tuple(f.id for f in game.figures)


def fight_label(game: OldWestState, fight: Fight) -> Message:
    """A fight as people read it: ``Wyatt against Ike, Billy``."""
    return msg("old_west.game.fight_names", a=game.names(fight.a), b=game.names(fight.b))


def split_label(game: OldWestState, split: Split) -> Message:
    """A split as people read it: ``[Wyatt against Ike, Billy], [Doc against Joe]``."""
    fights = tuple(
        msg("old_west.game.fight_item", a=game.names(f.a), b=game.names(f.b)) for f in split.fights
    )
    return msg("old_west.game.option.split", fights=fights)


def split_score(game: OldWestState, side: str, split: Split) -> float:
    """A bot's plain judgement of a split: enemies left alone against several of ours."""
    first = side == game.sides[0]
    score = 0.0
    for fight in split.fights:
        mine, theirs = (fight.a, fight.b) if first else (fight.b, fight.a)
        if len(theirs) == 1 and len(mine) > 1:
            score += weight("outnumber")
        if len(mine) == 1 and len(theirs) > 1:
            score -= weight("outnumber")
    return round(score, 4)


def divide(
    game: OldWestState, eligible: Collection[str] | None = None
) -> Procedure[tuple[Fight, ...]]:
    """The fights of the models in a fight (``eligible``: only these may fight now); the
    posse with advantage chooses how to split each group with several models on both
    sides (OW-ABSENT-03), every model in exactly one fight (OW-CC-01)."""
    contacts = contacts_of(game, eligible)
    order = order_of(game)
    rank = {m: i for i, m in enumerate(order)}
    fights: list[Fight] = []
    for group in division.divide_into_fights(contacts):
        own = frozenset((a, b) for a, b in contacts if a in group.a)
        if not group.needs_split:
            fights.extend(division.divide(own, order))
            continue
        menu: Menu[Split] = Menu()
        side = game.advantage_side
        for fights_of_split in division.splits(group, contacts, order):
            option = Split(fights_of_split)
            menu.offer(
                option,
                split_label(game, option),
                division.division_check(option.fights, own),
                Forecast(score=split_score(game, side, option)),
            )
        entry = split_entry(game, own) if game.at_table else None
        chosen = yield from game.choose(
            menu,
            side,
            msg(
                "old_west.game.split.ask",
                models=game.names(tuple(m for m in order if m in group.a or m in group.b)),
            ),
            rules=("OW-ABSENT-03", "OW-CC-01", "OW-CC-13"),
            entry=entry,
        )
        fights.extend(chosen.fights)
    return tuple(sorted(fights, key=lambda f: min(rank[m] for m in f.models)))


_FIGHTS = re.compile(r"\s*;\s*")
_SIDES = re.compile(r"\s+(?:vs\.?|against|против)\s+", re.IGNORECASE)
_MODELS = re.compile(r"\s*[+,]\s*")


def split_entry(game: OldWestState, contacts: Contacts) -> Entry:
    """People at a real table split a brawl themselves: ``wyatt vs ike + billy; doc vs
    joe`` (ids or names); the split must pass the rule's check (OW-CC-01, OW-ABSENT-03)."""

    def read(text: str) -> Split:
        fights: list[Fight] = []
        for part in _FIGHTS.split(text.strip()):
            if not part:
                continue
            sides = _SIDES.split(part)
            if len(sides) != 2:
                raise EntryError(msg("old_west.entry.split_form"))
            ids = [tuple(_model_id(game, name) for name in _MODELS.split(s)) for s in sides]
            first = {f.id for f in game.posse(game.sides[0])}
            a, b = ids if ids[0] and ids[0][0] in first else (ids[1], ids[0])
            fights.append(Fight(a, b))
        verdict = division.division_check(tuple(fights), contacts)
        if not verdict.allowed:
            assert verdict.reason is not None
            raise EntryError(verdict.reason)
        return Split(tuple(fights))

    def label(value: Hashable) -> Message:
        assert isinstance(value, Split)
        return split_label(game, value)

    return Entry(msg("old_west.entry.split_hint"), read, label)


def _model_id(game: OldWestState, typed: str) -> str:
    wanted = typed.strip().casefold()
    for figure in game.figures:
        name = game.name(figure.id).kwargs
        if wanted in (figure.id.casefold(), str(name["en"]).casefold(), str(name["ru"]).casefold()):
            return figure.id
    raise EntryError(msg("old_west.entry.no_model", name=typed.strip()))


__all__ = [
    "contacts_of",
    "divide",
    "fight_label",
    "order_of",
    "split_entry",
    "split_label",
    "split_score",
]
