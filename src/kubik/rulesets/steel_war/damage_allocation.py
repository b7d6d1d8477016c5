"""Allocating hits to models (SW-DMG-02, SW-FIRE-14, SW-DMG-07).

Hits land on models at random, exposed models before those in cover; a sniper
rifle firing on its own lets its owner choose each victim. The seed rolls "a d10
and counts from the left" for ten models; for other squad sizes the default is the
smallest die whose faces are a multiple of the count (d4 for two models: 1-2 the
first, 3-4 the second), else the smallest die above it, re-rolling the faces past
the last model. The game layer passes model ids (man-sized weapons included) and
gets back the models hit, in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubik.core.errors import InputError
from kubik.engine import Choose, Message, Procedure, Roll, emit, msg
from kubik.engine.dice import KNOWN_FACES, Die


def allocation_die(models: int) -> Die | None:
    """The die to pick one of ``models`` at random; None when one model is left.

    >>> [allocation_die(n) for n in (10, 2, 5, 7, 1)]
    [Die(faces=10), Die(faces=4), Die(faces=10), Die(faces=8), None]
    """
    if models < 1:
        raise InputError("models: at least one model is needed to allocate a hit")
    if models == 1:
        return None
    multiples = [f for f in KNOWN_FACES if f % models == 0]
    if multiples:
        return Die(multiples[0])
    larger = [f for f in KNOWN_FACES if f > models]
    if not larger:
        raise InputError(f"models: at most {KNOWN_FACES[-1]} eligible models; got {models}")
    return Die(larger[0])


def model_position(roll: int, die: Die, models: int) -> int | None:
    """The 1-based position counted from the left, or None for a face to re-roll.

    >>> model_position(7, Die(10), 10), model_position(3, Die(4), 2), model_position(8, Die(8), 7)
    (7, 2, None)
    """
    if die.faces % models == 0:
        return (roll - 1) // (die.faces // models) + 1
    return roll if roll <= models else None


def random_model(models: Sequence[str]) -> Procedure[str]:
    """One of ``models`` at random, rolled at the table and counted from the left."""
    die = allocation_die(len(models))
    if die is None:
        return models[0]
    while True:
        (roll,) = yield Roll(
            die,
            msg("steel_war.allocate.roll", models=len(models), die=die),
            roller="shooter",
            rules="SW-DMG-02",
        )
        position = model_position(roll, die, len(models))
        if position is not None:
            return models[position - 1]
        yield emit("steel_war.allocate.reroll", rules="SW-DMG-02", roll=roll, models=len(models))


def allocate_hits(
    hits: int,
    exposed: tuple[str, ...],
    covered: tuple[str, ...] = (),
    sniper: bool = False,
    side: str = "shooter",
    names: tuple[tuple[str, Message], ...] = (),
) -> Procedure[tuple[str, ...]]:
    """The models hit, in order (SW-DMG-02, SW-FIRE-14).

    Random allocation takes unhit exposed models first, then unhit models in cover;
    no model is hit twice while an unhit one remains, and hits beyond the squad are
    lost (defaults). A lone sniper rifle's owner chooses any unhit model instead;
    ``names`` (model id → its name) label his options for people.
    """
    named = dict(names)
    if hits < 0:
        raise InputError("hits: must be 0 or more")
    chosen: list[str] = []
    for number in range(1, hits + 1):
        open_exposed = tuple(m for m in exposed if m not in chosen)
        open_covered = tuple(m for m in covered if m not in chosen)
        if sniper:
            options = open_exposed + open_covered
            if not options:
                break
            pick = yield Choose(
                options,
                side,
                msg("steel_war.allocate.choose", hit=number),
                default=options[0],
                labels=tuple(
                    msg("steel_war.allocate.option", model=named.get(m, m)) for m in options
                ),
                rules=("SW-FIRE-14", "SW-DMG-02"),
            )
            model = str(pick)
        else:
            pool = open_exposed or open_covered
            if not pool:
                break
            model = yield from random_model(pool)
        chosen.append(model)
        rules = ("SW-DMG-02", "SW-FIRE-14") if sniper else "SW-DMG-02"
        yield emit("steel_war.allocate.hit", rules=rules, hit=number, model=named.get(model, model))
    return tuple(chosen)
