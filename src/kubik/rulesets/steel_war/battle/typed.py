"""At a real table (``kubik play --table``): people move the models and measure.

A move then ends where the players put the unit: the program proposes the place it
worked out, and a person may type where the squad's centre stands or how far and
which way it went, in the layer's one grammar (:mod:`kubik.game.battle.at_table`:
``12.5, 30``, ``6 n``, ``4,5 северо-восток``, ``5 @135``); the typed place is checked
by the board (on the table, on ground the unit may stand on) and by the same rules a
bot's move is (its allowance through the terrain for this kind of unit, where its
morale level lets it go, the contact rule), and refused with the reason otherwise.
What the rules take from the table — a distance, a target's cover, a line of sight —
is shown as the program measured it, and the players confirm it or give what they
measured (the layer's ``confirm_*``). Typed answers are marked in the log and kept in
saves. Off the table (bots, a virtual table) nothing is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from kubik.engine import Choose, Message, Procedure, msg
from kubik.game.battle import (
    confirm_inches,
    confirm_one_of,
    confirm_yes_no,
    move_entry,
)
from kubik.rulesets.steel_war.fire import Cover
from kubik.table.geometry import Point

from .field import Battlefield
from .options import Spot
from .state import Squad


def where_ended(
    game: Battlefield,
    squad: Squad,
    proposed: Point,
    check: Callable[[Point], Message | None],
    rules: tuple[str, ...],
) -> Procedure[Point]:
    """Where the unit's move ended: at a real table the players say (the proposed place,
    or a typed one the board and ``check`` — the movement rules — accept); elsewhere
    the proposed place."""
    if not game.at_table:
        return proposed
    offered = Spot(*proposed)
    picked = yield Choose(
        (offered,),
        squad.side,
        msg("steel_war.game.entry.where", squad=game.name(squad.id), x=proposed[0], y=proposed[1]),
        default=offered,
        labels=(offered.label(game.name),),
        rules=rules,
        entry=move_entry(
            game.board,
            squad,
            lambda spot: Spot(*spot),
            check,
            label=lambda spot: spot.label(game.name),  # type: ignore[attr-defined]
        ),
    )
    assert isinstance(picked, Spot)
    return (picked.x, picked.y)


def measured_distance(
    game: Battlefield, side: str, what: Message, value: float, rules: tuple[str, ...]
) -> Procedure[float]:
    """A distance the rules take: as measured, or as the players measured it."""
    if not game.at_table:
        return value
    return (yield from confirm_inches(side, what, value, rules))


def measured_cover(
    game: Battlefield, side: str, what: Message, value: Cover, rules: tuple[str, ...]
) -> Procedure[Cover]:
    """A target's cover as measured, or as the players judge it (SW-FIRE-08)."""
    if not game.at_table:
        return value
    picked = yield from confirm_one_of(side, what, value, tuple(Cover), _cover_shown, rules)
    assert isinstance(picked, Cover)
    return picked


def _cover_shown(cover: Hashable) -> Message:
    """How a cover reads (none, light, hard)."""
    assert isinstance(cover, Cover)
    return msg(cover.msgid)


def measured_sight(
    game: Battlefield, side: str, what: Message, value: bool, rules: tuple[str, ...]
) -> Procedure[bool]:
    """A line of sight as measured, or as the players see it at the table."""
    if not game.at_table:
        return value
    return (yield from confirm_yes_no(side, what, value, rules))


__all__ = ["measured_cover", "measured_distance", "measured_sight", "where_ended"]
