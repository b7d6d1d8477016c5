"""At a real table: people move the models and measure; the rules check what they typed.

A move may be typed as where the model's centre ended (``12.5, 30``) or as a distance
and a direction (``4 ne``, ``6 @135``: a compass bearing, 0 = north = towards the far
edge); the same rule functions that build the menu check it
(:func:`~kubik.rulesets.old_west.movement.allowance`,
:func:`~kubik.rulesets.old_west.movement.may_end_move`,
:func:`~kubik.rulesets.old_west.movement.may_charge`, the tape's terrain and the
contact rule), and a move ending in base contact with one enemy is a charge at him.
What the tape measured for a rule (a shot's distance, line of sight and the things
in the way; whether a model is behind cover) is shown with its value as the default:
people confirm it or type what they measured, and the log marks what they typed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from kubik.engine import Choose, Entry, EntryError, Message, Procedure, Verdict, emit, msg
from kubik.game.battle import overlapping, touching
from kubik.rulesets.old_west.battle import ground
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.battle.situations import charge_target, mover, shooter, shot_at
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.core import data
from kubik.rulesets.old_west.movement import may_charge, may_end_move
from kubik.rulesets.old_west.shooting import may_shoot_at
from kubik.table import Point

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame
    from kubik.rulesets.old_west.battle.shots import Blocker

#: Compass words (English and Russian) → bearing in degrees (0 = north, +y).
COMPASS = {
    "n": 0, "north": 0, "с": 0, "север": 0,
    "ne": 45, "northeast": 45, "св": 45, "северо-восток": 45,
    "e": 90, "east": 90, "в": 90, "восток": 90,
    "se": 135, "southeast": 135, "юв": 135, "юго-восток": 135,
    "s": 180, "south": 180, "ю": 180, "юг": 180,
    "sw": 225, "southwest": 225, "юз": 225, "юго-запад": 225,
    "w": 270, "west": 270, "з": 270, "запад": 270,
    "nw": 315, "northwest": 315, "сз": 315, "северо-запад": 315,
}  # fmt: skip
_NUMBER = r"[-+]?\d+(?:[.,]\d+)?"
_POINT = re.compile(rf"^\s*({_NUMBER})\s*[,;\s]\s*({_NUMBER})\s*$")
_HEADING = re.compile(rf"^\s*({_NUMBER})\s*(?:\"|in|дюйм\w*)?\s+(@\s*{_NUMBER}|[^\d\s@]+)\s*$")
YES = {"yes", "y", "да", "д", "true", "1"}
NO = {"no", "n", "нет", "н", "false", "0"}


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def typed_spot(text: str, here: Point) -> Point:
    """Where a typed move ends: ``x, y`` or ``distance direction`` from ``here``.

    >>> typed_spot("12.5, 30", (0.0, 0.0)), typed_spot("4 n", (10.0, 10.0))
    ((12.5, 30.0), (10.0, 14.0))
    >>> typed_spot("2 @90", (1.0, 1.0))
    (3.0, 1.0)
    """
    found = _POINT.match(text)
    if found:
        return ground.rounded((_number(found[1]), _number(found[2])))
    found = _HEADING.match(text)
    if found:
        distance, way = _number(found[1]), found[2].strip().casefold()
        if way.startswith("@"):
            bearing = _number(way[1:].strip())
        elif way in COMPASS:
            bearing = float(COMPASS[way])
        else:
            raise EntryError(msg("old_west.entry.direction", direction=found[2].strip()))
        angle = math.radians(bearing)
        return ground.rounded(
            (here[0] + distance * math.sin(angle), here[1] + distance * math.cos(angle))
        )
    raise EntryError(msg("old_west.entry.move_form"))


def move_entry(game: OldWestGame, figure: Figure, reach: float, near: Figure | None) -> Entry:
    """A move typed by people at a real table, checked by the movement rules."""
    from kubik.rulesets.old_west.battle.moves import move_end, move_label

    def read(text: str) -> MoveTo:
        here = figure.base.centre
        spot = typed_spot(text, here)
        if not ground.on_ground(game, figure, spot):
            raise EntryError(msg("old_west.entry.off_ground", x=spot[0], y=spot[1]))
        path = (here, spot)
        cost = game.tape.cost(path, figure.mover, ground.clearance(figure))
        if not math.isfinite(cost):
            raise EntryError(msg("old_west.entry.impassable"))
        if cost > reach + ground.SLACK:
            raise EntryError(
                msg("old_west.entry.too_far", cost=round(cost, 1), allowance=round(reach, 1))
            )
        base = figure.base.moved_to(spot)
        others = [f for f in game.figures if f.in_action and f.id != figure.id]
        if any(overlapping(base, f.base) for f in others):
            raise EntryError(msg("old_west.entry.overlap"))
        touched = [f for f in others if touching(base, f.base)]
        enemy = touched[0] if len(touched) == 1 and touched[0].side != figure.side else None
        if touched and enemy is None:
            raise EntryError(msg("old_west.entry.touches"))
        verdict = may_end_move(move_end(game, figure, spot, enemy is not None, near))
        if enemy is not None:
            route = round(cost, 1)
            charge = may_charge(mover(game, figure), charge_target(figure, enemy, route))
            verdict = Verdict.combine(charge, verdict)
        if not verdict.allowed:
            assert verdict.reason is not None
            raise EntryError(verdict.reason)
        if ground.settled(game, figure, path, touch=enemy) != spot:
            raise EntryError(msg("old_west.entry.in_the_way"))
        kind = MoveKind.CHARGE if enemy is not None else MoveKind.PLACED
        return MoveTo(
            figure.id,
            kind,
            spot[0],
            spot[1],
            round(cost, 1),
            enemy.id if enemy is not None else "",
        )

    def label(value: Hashable) -> Message:
        assert isinstance(value, MoveTo)
        return move_label(game, value)

    return Entry(msg("old_west.entry.move_hint"), read, label)


def confirm(
    game: OldWestGame,
    side: str,
    fact: Message,
    measured: Hashable,
    show: Callable[[Hashable], Message],
    read: Callable[[str], Hashable],
    hint: Message,
    rules: tuple[str, ...],
) -> Procedure[Hashable]:
    """A fact the tape measured, confirmed by people at the table or typed as measured;
    the log marks what they typed and says when it differs from the tape."""
    value: Hashable = yield Choose(
        (measured,),
        side,
        msg("old_west.game.measured.ask", fact=fact, value=show(measured)),
        default=measured,
        labels=(show(measured),),
        rules=rules,
        entry=Entry(hint, read, show),
    )
    if value != measured:
        yield emit(
            "old_west.game.measured.override",
            rules=rules,
            fact=fact,
            value=show(value),
            measured=show(measured),
        )
    return value


def read_inches(text: str) -> float:
    """A measured distance in inches."""
    try:
        value = _number(text.strip().rstrip('"').strip())
    except ValueError:
        raise EntryError(msg("old_west.entry.inches", text=text.strip())) from None
    if not 0 <= value <= 1000:
        raise EntryError(msg("old_west.entry.inches", text=text.strip()))
    return round(value, 1)


def read_yes_no(text: str) -> bool:
    """A yes or a no (English or Russian)."""
    word = text.strip().casefold()
    if word in YES:
        return True
    if word in NO:
        return False
    raise EntryError(msg("old_west.entry.yes_no", text=text.strip()))


def read_count(text: str) -> int:
    """How many things are in the way (0 up to the most a shot rolls for)."""
    top = int(data()["battle"]["max_in_the_way"])
    word = text.strip()
    if not word.isdigit() or int(word) > top:
        raise EntryError(msg("old_west.entry.count", text=word, top=top))
    return int(word)


def _inches(value: Hashable) -> Message:
    return msg("old_west.game.measured.inches", inches=value)


def _yes_no(value: Hashable) -> Message:
    return msg("old_west.game.measured.yes" if value else "old_west.game.measured.no")


def _count(value: Hashable) -> Message:
    return msg("old_west.game.measured.count", n=value)


def confirm_shot(
    game: OldWestGame,
    figure: Figure,
    target: Figure,
    weapon: Weapon,
    blockers: tuple[Blocker, ...],
) -> Procedure[tuple[Blocker, ...] | None]:
    """The players confirm or correct the shot's distance, line of sight and the things in
    the way; the shot goes ahead only if the rule allows it as they measured
    (:func:`~kubik.rulesets.old_west.shooting.may_shoot_at`). Returns what is in the way
    (None: no shot)."""
    from kubik.rulesets.old_west.battle.shots import Blocker

    side, rules = figure.side, ("OW-ABSENT-04",)
    measured = shot_at(game, figure, target, weapon)
    distance = yield from confirm(
        game,
        side,
        msg("old_west.game.fact.distance", model=game.name(figure.id), target=game.name(target.id)),
        measured.distance,
        _inches,
        read_inches,
        msg("old_west.entry.inches_hint"),
        rules,
    )
    visible = yield from confirm(
        game,
        side,
        msg("old_west.game.fact.sight", model=game.name(figure.id), target=game.name(target.id)),
        measured.visible,
        _yes_no,
        read_yes_no,
        msg("old_west.entry.yes_no_hint"),
        rules,
    )
    count = yield from confirm(
        game,
        side,
        msg(
            "old_west.game.fact.in_the_way", model=game.name(figure.id), target=game.name(target.id)
        ),
        len(blockers),
        _count,
        read_count,
        msg("old_west.entry.count_hint"),
        rules,
    )
    assert isinstance(distance, float) and isinstance(visible, bool) and isinstance(count, int)
    verdict = may_shoot_at(
        shooter(game, figure), shot_at(game, figure, target, weapon, distance, visible)
    )
    if not verdict.allowed:
        yield emit(
            "old_west.game.shot_refused",
            rules=verdict.rules,
            model=game.name(figure.id),
            why=verdict.reason,
        )
        return None
    padding = tuple(Blocker("", False) for _ in range(max(0, count - len(blockers))))
    return (*blockers[:count], *padding)


def confirm_cover(game: OldWestGame, target: Figure, behind: bool) -> Procedure[bool]:
    """The players confirm or correct whether a model diving for cover is behind cover."""
    value = yield from confirm(
        game,
        target.side,
        msg("old_west.game.fact.cover", model=game.name(target.id)),
        behind,
        _yes_no,
        read_yes_no,
        msg("old_west.entry.yes_no_hint"),
        ("OW-PLK-06",),
    )
    return bool(value)


__all__ = [
    "COMPASS",
    "confirm",
    "confirm_cover",
    "confirm_shot",
    "move_entry",
    "read_count",
    "read_inches",
    "read_yes_no",
    "typed_spot",
]
