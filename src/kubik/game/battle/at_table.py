"""At a real table: people move the models and measure, and type what they did.

One grammar, in English and Russian, for every ruleset:

* a place: where the unit's centre now stands, ``12.5, 30`` / ``12.5; 30`` / ``(12.5 30)``
  (a decimal comma works too: ``12,5; 30``);
* a distance and a bearing from where it stood: ``6 n``, ``4.5 ю``, ``6" north-east``,
  ``3 шага на северо-восток``, ``5 @135``, ``5 135°`` — a compass word (the sixteen
  points, abbreviated or in full, in either language) or degrees clockwise from north.
  North is toward the table's far edge (+y), east to the right (+x).

What was typed is checked by the same rules a bot's move is: :func:`move_entry` asks the
board whether the unit fits there and then the ruleset's movement rule (``check``),
and refuses with their reason (:class:`~kubik.engine.EntryError`). A fact the rules take
that people measure (a distance, a line of sight, how many things are in the way) is
offered as the tape measured it and may be typed as they measured it (:func:`confirm`);
the log says when the two differ.

>>> read_position("12,5; 30", (0.0, 0.0)), read_position("4 ne", (0.0, 0.0))
((12.5, 30.0), (2.8, 2.8))
>>> read_position("3 шага на юго-запад", (10.0, 10.0)), read_position("2 @90", (1.0, 1.0))
((7.9, 7.9), (3.0, 1.0))
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from kubik.engine import Choose, Entry, EntryError, Message, Procedure, emit, msg
from kubik.game.battle.board import Board
from kubik.game.battle.board.grid import on_grid
from kubik.table import Base, Point

U = TypeVar("U")

#: The sixteen points of the compass, clockwise from north, as people type them:
#: English and Russian abbreviations and words (lower case; hyphens and spaces dropped
#: before looking a word up).
_POINTS: tuple[tuple[str, ...], ...] = (
    ("n", "north", "с", "север"),
    ("nne", "northnortheast", "ссв", "северосеверовосток"),
    ("ne", "northeast", "св", "северовосток"),
    ("ene", "eastnortheast", "всв", "восточносеверовосток", "востоксеверовосток"),
    ("e", "east", "в", "восток"),
    ("ese", "eastsoutheast", "вюв", "восточноюговосток", "востокюговосток"),
    ("se", "southeast", "юв", "юговосток"),
    ("sse", "southsoutheast", "ююв", "югоюговосток"),
    ("s", "south", "ю", "юг"),
    ("ssw", "southsouthwest", "ююз", "югоюгозапад"),
    ("sw", "southwest", "юз", "югозапад"),
    ("wsw", "westsouthwest", "зюз", "западноюгозапад", "западюгозапад"),
    ("w", "west", "з", "запад"),
    ("wnw", "westnorthwest", "зсз", "западносеверозапад", "западсеверозапад"),
    ("nw", "northwest", "сз", "северозапад"),
    ("nnw", "northnorthwest", "ссз", "северосеверозапад"),
)
#: Compass word → bearing in degrees (0 = north, clockwise).
COMPASS: dict[str, float] = {
    word: 22.5 * index for index, words in enumerate(_POINTS) for word in words
}
#: Words for a unit of length people may type after a distance (all mean the table's
#: unit: inches, or the paces of a game measured in paces).
_UNITS = r"(?:\"|''|in\.?|inch(?:es)?|дюйм(?:а|ов)?|pace?s?|шаг(?:а|ов)?|д\.?)"
#: A number as people type it: a decimal point or comma.
_NUMBER = r"[-+]?\d+(?:[.,]\d+)?"
_FULL_NUMBER = re.compile(rf"^{_NUMBER}$")
_HEADING = re.compile(
    rf"^\s*({_NUMBER})(?:\s*{_UNITS}\s*|\s+)(?:(?:на|to|towards?|к)\s+)?"
    rf"(@\s*{_NUMBER}|{_NUMBER}\s*°?|[^\d\s@][^\d@]*)\s*$"
)
#: The answers people type for yes and no.
YES = frozenset({"yes", "y", "да", "д", "true", "1", "+"})
NO = frozenset({"no", "n", "нет", "н", "false", "0", "-"})
#: The longest distance anyone types for a table (inches): a typo, not a measurement.
_LONGEST = 1000.0


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def bearing(word: str) -> float | None:
    """The bearing (degrees clockwise from north) a typed direction names, or ``None``.

    >>> bearing("north-east"), bearing("ЮЗ"), bearing("@135"), bearing("90°"), bearing("up")
    (45.0, 225.0, 135.0, 90.0, None)
    """
    text = word.strip().casefold().replace("ё", "е")
    if text.startswith("@"):
        text = text[1:].strip()
    text = text.rstrip("°").strip()
    if re.fullmatch(_NUMBER, text):
        return _number(text) % 360
    return COMPASS.get(re.sub(r"[-\s]", "", text))


def _place(text: str) -> Point | None:
    """Two numbers typed as a place, or ``None``. A semicolon or a space separates them
    (each may have a decimal comma: ``12,5; 30``, ``12,5 30``); without either, one comma
    does, and the numbers have decimal points (``12.5,30``). Anything else is not a place
    (``1,2,3`` could be read two ways)."""
    inner = text.strip().removeprefix("(").removesuffix(")").strip()
    if ";" in inner:
        parts = inner.split(";")
    elif len(inner.split()) == 2:
        parts = [part.removesuffix(",") for part in inner.split()]
    elif inner.count(",") == 1 and " " not in inner:
        parts = inner.split(",")
    else:
        return None
    parts = [part.strip() for part in parts]
    if len(parts) != 2 or not all(_FULL_NUMBER.match(part) for part in parts):
        return None
    if ";" not in inner and len(inner.split()) != 2 and any("," in part for part in parts):
        return None
    return (_number(parts[0]), _number(parts[1]))


def read_position(text: str, start: Point) -> Point:
    """The place typed: a place on the table, or a distance and bearing from ``start``;
    on the board's 0.1-inch grid. :class:`~kubik.engine.EntryError` says what to type
    otherwise."""
    cleaned = text.strip()
    place = _place(cleaned)
    if place is not None:
        return on_grid(place)
    found = _HEADING.match(cleaned.casefold())
    if found is not None:
        distance = _number(found[1])
        way = bearing(found[2])
        if way is None:
            raise EntryError(msg("game.entry.direction", direction=found[2].strip()))
        if not 0 <= distance <= _LONGEST:
            raise EntryError(msg("game.entry.inches", text=found[1]))
        angle = math.radians(way)
        return on_grid(
            (start[0] + distance * math.sin(angle), start[1] + distance * math.cos(angle))
        )
    raise EntryError(msg("game.entry.position", text=cleaned))


def read_inches(text: str) -> float:
    """A measured distance (inches, or the game's paces), to 0.1.

    >>> read_inches('6,5"'), read_inches("12 дюймов")
    (6.5, 12.0)
    """
    found = re.fullmatch(rf"\s*({_NUMBER})\s*{_UNITS}?\s*", text.casefold())
    if found is None or not 0 <= _number(found[1]) <= _LONGEST:
        raise EntryError(msg("game.entry.inches", text=text.strip()))
    return round(_number(found[1]), 1)


def read_yes_no(text: str) -> bool:
    """A yes or a no, in English or Russian."""
    word = text.strip().casefold()
    if word in YES:
        return True
    if word in NO:
        return False
    raise EntryError(msg("game.entry.yes_no", text=text.strip()))


def read_count(text: str, most: int) -> int:
    """A count from 0 to ``most``."""
    word = text.strip()
    if not word.isdigit() or int(word) > most:
        raise EntryError(msg("game.entry.count", text=word, most=most))
    return int(word)


def move_entry(
    board: Board[U],
    unit: U,
    make: Callable[[Point], Hashable],
    check: Callable[[Point], Message | None] | None = None,
    *,
    label: Callable[[Hashable], Message] | None = None,
    shape: Callable[[Point], Sequence[Base]] | None = None,
) -> Entry:
    """How people at a real table type where ``unit`` ended a move: a place or a
    distance and bearing from where it stands (:func:`read_position`), which must lie
    on the table on ground the unit may stand on (:meth:`Board.on_ground`) and pass
    ``check`` — the ruleset's movement rule asked of that place (its allowance, the
    contact rule, where its morale lets it go), returning the reason it is refused or
    ``None``; ``make`` turns the place into the decision's value (an option).
    ``shape``: the unit's bases were it at a place, when it would stand there otherwise
    than it stands now (a regiment facing the way it went)."""

    def read(text: str) -> Hashable:
        spot = read_position(text, board.centre_of(unit))
        if not board.on_ground(unit, spot, shape=shape):
            raise EntryError(msg("game.entry.off_ground", x=spot[0], y=spot[1]))
        if check is not None:
            problem = check(spot)
            if problem is not None:
                raise EntryError(problem)
        return make(spot)

    return Entry(msg("game.entry.position_hint"), read, label)


def confirm(
    side: str,
    fact: Message,
    measured: Hashable,
    show: Callable[[Hashable], Message],
    read: Callable[[str], Hashable],
    rules: tuple[str, ...],
    hint: Message | None = None,
) -> Procedure[Any]:
    """A fact the tape measured (``measured``, shown by ``show``), confirmed by people at
    the table or typed as they measured it (``read``); the log says when the two differ."""
    value: Hashable = yield Choose(
        (measured,),
        side,
        msg("game.entry.measured", fact=fact, value=show(measured)),
        default=measured,
        labels=(show(measured),),
        rules=rules,
        entry=Entry(hint or msg("game.entry.measure_hint"), read, show),
    )
    if value != measured:
        yield emit(
            "game.entry.differs",
            rules=rules,
            fact=fact,
            value=show(value),
            measured=show(measured),
        )
    return value


def confirm_one_of(
    side: str,
    fact: Message,
    measured: Hashable,
    options: tuple[Hashable, ...],
    show: Callable[[Hashable], Message],
    rules: tuple[str, ...],
) -> Procedure[Any]:
    """A fact the table decides among a few values (a target's cover: none, light,
    hard), as measured (the default) or as people at the table judge it; the log says
    when the two differ."""
    value: Hashable = yield Choose(
        options,
        side,
        msg("game.entry.measured", fact=fact, value=show(measured)),
        default=measured,
        labels=tuple(show(option) for option in options),
        rules=rules,
    )
    if value != measured:
        yield emit(
            "game.entry.differs",
            rules=rules,
            fact=fact,
            value=show(value),
            measured=show(measured),
        )
    return value


def heading_shown(start: Point, end: Point) -> Message:
    """Which way a unit went from ``start`` to ``end``, as the nearest of the sixteen
    points of the compass (north is toward the table's far edge): the words a typed
    move is told in (not the menu's goal it may not have gone to).

    >>> heading_shown((0.0, 0.0), (5.0, 0.2)).id, heading_shown((0.0, 0.0), (-3.0, -3.0)).id
    ('game.entry.heading.e', 'game.entry.heading.sw')
    """
    degrees = math.degrees(math.atan2(end[0] - start[0], end[1] - start[1])) % 360
    point = _POINTS[round(degrees / 22.5) % 16][0]
    return msg(f"game.entry.heading.{point}")


def inches_shown(value: Hashable) -> Message:
    """How a measured distance reads."""
    return msg("game.entry.inches_value", inches=value)


def yes_no_shown(value: Hashable) -> Message:
    """How a measured yes or no (a line of sight, being in cover) reads."""
    return msg("game.entry.yes" if value else "game.entry.no")


def count_shown(value: Hashable) -> Message:
    """How a counted number (things in the way) reads."""
    return msg("game.entry.count_value", n=value)


def confirm_inches(
    side: str, fact: Message, measured: float, rules: tuple[str, ...]
) -> Procedure[float]:
    """A distance the rules take, as the tape measured it or as people did."""
    value = yield from confirm(side, fact, round(measured, 1), inches_shown, read_inches, rules)
    return float(value)


def confirm_yes_no(
    side: str, fact: Message, measured: bool, rules: tuple[str, ...]
) -> Procedure[bool]:
    """A yes-or-no the table decides (a line of sight, cover), as measured or as judged."""
    value = yield from confirm(side, fact, measured, yes_no_shown, read_yes_no, rules)
    return bool(value)


def confirm_count(
    side: str, fact: Message, measured: int, most: int, rules: tuple[str, ...]
) -> Procedure[int]:
    """A count the table decides (things in the way), as counted or as people count."""
    value = yield from confirm(
        side, fact, measured, count_shown, lambda text: read_count(text, most), rules
    )
    return int(value)


__all__ = [
    "COMPASS",
    "NO",
    "YES",
    "bearing",
    "confirm",
    "confirm_count",
    "confirm_inches",
    "confirm_one_of",
    "confirm_yes_no",
    "count_shown",
    "heading_shown",
    "inches_shown",
    "move_entry",
    "read_count",
    "read_inches",
    "read_position",
    "read_yes_no",
    "yes_no_shown",
]
