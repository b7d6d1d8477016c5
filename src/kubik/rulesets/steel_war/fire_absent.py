"""Defaults for fire the seed refers to but does not contain (SW-ABSENT-05, SW-ABSENT-06).

NOT FROM THE SEEDS. Heavy infantry weapons and vehicles roll quality + a
guidance-system die (SW-FIRE-02); off-table artillery resolves as fire with a
battery die, fragmentation hits and no protection from concealment-only cover
(SW-FIRE-08 gap). Both give a :class:`FireGroup` for :func:`fire_action`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from kubik.engine.applied import decides
from kubik.engine.dice import Die, parse_die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.fire import Cover, FireGroup


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


def default_guidance_die() -> Die:
    """The guidance-system die when a profile gives none (default)."""
    return parse_die(_data()["vehicle_fire"]["default_guidance"])


@decides("SW-ABSENT-05")
def heavy_weapon_group(quality: Die, power: Die, guidance: Die | None = None) -> FireGroup:
    """A heavy infantry or vehicle weapon: quality + guidance die, its own power (SW-ABSENT-05).

    >>> from kubik.engine.dice import D8, D10
    >>> heavy_weapon_group(D8, D10).pool
    (Die(faces=8), Die(faces=8))
    """
    return FireGroup(
        pool=(quality, guidance or default_guidance_die()),
        power=power,
        alone=True,
        aimed=False,
        rules=("SW-FIRE-01", "SW-FIRE-02", "SW-CORE-02", "SW-ABSENT-05"),
    )


def artillery_group() -> FireGroup:
    """An off-table strike: quality d8 + battery d10, power d10, fragmentation (SW-ABSENT-06).

    >>> artillery_group().pool, artillery_group().fragmentation
    ((Die(faces=8), Die(faces=10)), True)
    """
    table = _data()["artillery_strike"]
    return FireGroup(
        pool=(parse_die(table["quality"]), parse_die(table["battery"])),
        power=parse_die(table["power"]),
        fragmentation=bool(table["fragmentation"]),
        alone=True,
        aimed=False,
        rules=("SW-FIRE-01", "SW-FIRE-02", "SW-ABSENT-06"),
    )


def artillery_cover(cover: Cover, concealment_only: bool) -> Cover:
    """Cover against artillery: bushes and woods do not stop fragments (SW-FIRE-08, SW-ABSENT-06).

    >>> artillery_cover(Cover.LIGHT, concealment_only=True), artillery_cover(Cover.LIGHT, False)
    (<Cover.NONE: 'none'>, <Cover.LIGHT: 'light'>)
    """
    if concealment_only and _data()["artillery_strike"]["ignores_concealment"]:
        return Cover.NONE
    return cover
