"""At a real table (``[options] table = true``): people move the models and measure.

A move then ends where the players put the unit: the program proposes the spot it
worked out, and a person may type where the unit's centre stands (``12.5, 30``) or
how far and which way it went (``6 n``, ``4.5 ю``, ``5 90``); the typed spot is
checked by the same rule functions a bot's move is (its allowance through the terrain
for this kind of unit, where the morale level lets it go, the contact rule) and
refused with the reason otherwise. What the rules take from the table — a distance,
a target's cover, a line of sight — is shown as the program measured it, and the
players confirm it or give what they measured. Typed answers are marked in the log
and kept in saves. Off the table (bots, a virtual table) nothing is asked.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence

from kubik.engine import Choose, Entry, EntryError, Message, Procedure, emit, msg
from kubik.rulesets.steel_war.fire import Cover
from kubik.table.geometry import Point

from .board import Battlefield
from .options import Spot

#: Compass words (English and Russian) → bearing in degrees, 0 = north (toward the
#: table's far edge, +y), clockwise.
BEARINGS = {
    "n": 0.0,
    "ne": 45.0,
    "e": 90.0,
    "se": 135.0,
    "s": 180.0,
    "sw": 225.0,
    "w": 270.0,
    "nw": 315.0,
    "с": 0.0,
    "св": 45.0,
    "в": 90.0,
    "юв": 135.0,
    "ю": 180.0,
    "юз": 225.0,
    "з": 270.0,
    "сз": 315.0,
}
_NUMBER = r"[-+]?\d+(?:[.,]\d+)?"


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def read_spot(text: str, start: Point) -> Point:
    """A typed spot: ``x, y`` (where the centre stands) or ``distance direction`` (a
    compass word or a bearing in degrees) from ``start``; an :class:`EntryError` saying
    what to type otherwise.

    >>> read_spot("12.5, 30", (0.0, 0.0)), read_spot("6 n", (10.0, 10.0))
    ((12.5, 30.0), (10.0, 16.0))
    >>> read_spot("5 90", (0.0, 0.0))
    (5.0, 0.0)
    """
    cleaned = text.strip().lower()
    pair = re.fullmatch(rf"({_NUMBER})\s*[;,]\s*({_NUMBER})", cleaned)
    if pair is None:
        pair = re.fullmatch(rf"\(\s*({_NUMBER})\s*[;,]\s*({_NUMBER})\s*\)", cleaned)
    if pair is not None:
        return (_number(pair.group(1)), _number(pair.group(2)))
    heading = re.fullmatch(rf"({_NUMBER})\s*(?:\"|in|дюйм\w*)?\s+(\S+)", cleaned)
    if heading is not None:
        length = _number(heading.group(1))
        word = heading.group(2)
        bearing = BEARINGS.get(word)
        if bearing is None and re.fullmatch(_NUMBER, word):
            bearing = _number(word)
        if bearing is not None and length >= 0:
            angle = math.radians(bearing)
            return (
                round(start[0] + length * math.sin(angle), 1),
                round(start[1] + length * math.cos(angle), 1),
            )
    raise EntryError(msg("steel_war.game.entry.not_a_spot", text=text))


def where_ended(
    game: Battlefield,
    side: str,
    squad: str,
    start: Point,
    proposed: Point,
    check: Callable[[Point], Message | None],
    rules: tuple[str, ...],
) -> Procedure[Point]:
    """Where the unit's move ended: at a real table the players say (the proposed spot,
    or a typed one the rules accept); elsewhere the proposed spot."""
    if not game.at_table:
        return proposed

    def read(text: str) -> Hashable:
        spot = read_spot(text, start)
        problem = check(spot)
        if problem is not None:
            raise EntryError(problem)
        return Spot(*spot)

    offered = Spot(*proposed)
    picked = yield Choose(
        (offered,),
        side,
        msg("steel_war.game.entry.where", squad=game.name(squad), x=proposed[0], y=proposed[1]),
        default=offered,
        labels=(offered.label(game.name),),
        rules=rules,
        entry=Entry(msg("steel_war.game.entry.spot_hint"), read),
    )
    assert isinstance(picked, Spot)
    return (picked.x, picked.y)


def _read_inches(text: str) -> Hashable:
    match = re.fullmatch(rf"\s*({_NUMBER})\s*(?:\"|in|дюйм\w*)?\s*", text.lower())
    if match is None or _number(match.group(1)) < 0:
        raise EntryError(msg("steel_war.game.entry.not_inches", text=text))
    return round(_number(match.group(1)), 1)


def measured_distance(
    game: Battlefield, side: str, what: Message, value: float, rules: tuple[str, ...]
) -> Procedure[float]:
    """A distance the rules take: as measured, or as the players measured it."""
    if not game.at_table:
        return value
    picked = yield Choose(
        (value,),
        side,
        msg("steel_war.game.entry.distance", what=what, inches=value),
        default=value,
        labels=(msg("steel_war.game.entry.as_measured", inches=value),),
        rules=rules,
        entry=Entry(msg("steel_war.game.entry.inches_hint"), _read_inches),
    )
    assert isinstance(picked, float | int)
    if picked != value:
        yield emit("steel_war.game.entry.distance_given", rules=rules, what=what, inches=picked)
    return float(picked)


def measured_cover(
    game: Battlefield, side: str, what: Message, value: Cover, rules: tuple[str, ...]
) -> Procedure[Cover]:
    """A target's cover as measured, or as the players judge it (SW-FIRE-08)."""
    if not game.at_table:
        return value
    options: Sequence[Cover] = tuple(Cover)
    picked = yield Choose(
        tuple(options),
        side,
        msg("steel_war.game.entry.cover", what=what, cover=value),
        default=value,
        labels=tuple(msg(c.msgid) for c in options),
        rules=rules,
    )
    assert isinstance(picked, Cover)
    return picked


def measured_sight(
    game: Battlefield, side: str, what: Message, value: bool, rules: tuple[str, ...]
) -> Procedure[bool]:
    """A line of sight as measured, or as the players see it at the table."""
    if not game.at_table:
        return value
    picked = yield Choose(
        (value, not value),
        side,
        msg("steel_war.game.entry.sight", what=what, sees=value),
        default=value,
        labels=(
            msg("steel_war.game.entry.sees", sees=value),
            msg("steel_war.game.entry.sees", sees=not value),
        ),
        rules=rules,
    )
    return bool(picked)


__all__ = [
    "BEARINGS",
    "measured_cover",
    "measured_distance",
    "measured_sight",
    "read_spot",
    "where_ended",
]
