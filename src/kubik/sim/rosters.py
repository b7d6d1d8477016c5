"""Roster lists for ``kubik sim --vs``: several forces for one side of a scenario.

A roster-list file is TOML (documented in ``docs/sim.md``)::

    side = "steel"                   # the side of the scenario these rosters play

    [[rosters]]
    id = "rifles"                    # lower-case letters, digits, '_'; unique in the file
    name = "Rifle platoon"
    name_ru = "Стрелковый взвод"     # optional

    [[rosters.units]]                # the scenario's [[units]] fields, without `side`
    id = "steel_1"
    quality = "regulars"
    ...

Playing a roster replaces every unit of its side by the roster's units (in the
place the side's first unit stood in the file), so the table, the terrain, the
other side and the ending stay as the scenario has them. The ruleset checks the
units as it checks any scenario's.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubik.core.errors import InputError

_ID = re.compile(r"^[a-z0-9_]+$")


@dataclass(frozen=True, slots=True)
class Roster:
    """One force: its id and names, and its units as the scenario writes them."""

    id: str
    name: str
    name_ru: str
    units: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class RosterList:
    """The rosters of one file, for one side."""

    origin: str
    side: str
    rosters: tuple[Roster, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """The roster ids, in file order."""
        return tuple(r.id for r in self.rosters)


def _text(value: Any, where: str, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value:
        raise InputError(
            f"{where}: {'missing (required)' if value is None else repr(value)}; allowed: a text"
        )
    return value


def parse_roster_list(text: str, origin: str) -> RosterList:
    """Read a roster list from TOML ``text``; ``origin`` names it in every error line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{origin}: not valid TOML ({error})") from None
    unknown = sorted(set(data) - {"side", "rosters"})
    if unknown:
        raise InputError(f"{origin}: {unknown[0]}: unknown field; fields: side, rosters")
    side = _text(data.get("side"), f"{origin}: side")
    entries = data.get("rosters")
    if not isinstance(entries, list) or not entries:
        raise InputError(f"{origin}: rosters: at least one [[rosters]] is required")
    rosters: list[Roster] = []
    for index, entry in enumerate(entries):
        where = f"{origin}: rosters[{index}]"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: a table ([[rosters]]) is required")
        extra = sorted(set(entry) - {"id", "name", "name_ru", "units"})
        if extra:
            raise InputError(f"{where}.{extra[0]}: unknown field; fields: id, name, name_ru, units")
        roster_id = _text(entry.get("id"), f"{where}.id")
        if not _ID.match(roster_id):
            raise InputError(
                f"{where}.id: {roster_id!r} is not a valid id (lower-case letters, digits, '_')"
            )
        if roster_id in (r.id for r in rosters):
            raise InputError(f"{where}.id: roster '{roster_id}' is given twice")
        units = entry.get("units")
        if not isinstance(units, list) or not units:
            raise InputError(f"{where}.units: at least one [[rosters.units]] is required")
        for number, unit in enumerate(units):
            if not isinstance(unit, dict):
                raise InputError(f"{where}.units[{number}]: a table is required")
            _text(unit.get("id"), f"{where}.units[{number}].id")
            if "side" in unit and unit["side"] != side:
                raise InputError(
                    f"{where}.units[{number}].side: '{unit['side']}'; the list's side is "
                    f"'{side}' (leave it out)"
                )
        name = _text(entry.get("name", roster_id), f"{where}.name")
        name_ru = _text(entry.get("name_ru"), f"{where}.name_ru", required=False)
        rosters.append(Roster(roster_id, name, name_ru or name, tuple(units)))
    return RosterList(origin, side, tuple(rosters))


def load_roster_list(path: str | Path) -> RosterList:
    """Read the roster-list file at ``path`` (one line when it cannot be read)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"--vs: file '{file}' does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"--vs: '{file}' cannot be read ({error})") from None
    return parse_roster_list(text, file.name)


def check_lists(lists: Sequence[RosterList], sides: Sequence[str]) -> None:
    """One or two lists, each for a side of the scenario, no side twice."""
    if len(lists) > 2:
        raise InputError("--vs: give one roster list, or two (one per side)")
    seen: list[str] = []
    for roster_list in lists:
        if roster_list.side not in sides:
            raise InputError(
                f"{roster_list.origin}: side: the scenario has no side '{roster_list.side}'; "
                f"sides: {', '.join(sides)}"
            )
        if roster_list.side in seen:
            raise InputError(
                f"--vs: both lists are for side '{roster_list.side}'; give one list per side"
            )
        seen.append(roster_list.side)


def apply_roster(data: Mapping[str, Any], side: str, roster: Roster) -> dict[str, Any]:
    """A copy of the scenario ``data`` whose ``side`` fields ``roster``'s units instead."""
    out = copy.deepcopy(dict(data))
    units: list[dict[str, Any]] = list(out.get("units", []))
    place = next((i for i, u in enumerate(units) if u.get("side") == side), len(units))
    kept = [u for u in units[:place]] + [u for u in units[place:] if u.get("side") != side]
    new = [
        {"id": u["id"], "side": side, **{k: v for k, v in u.items() if k != "id"}}
        for u in copy.deepcopy(list(roster.units))
    ]
    out["units"] = kept[:place] + new + kept[place:]
    return out


__all__ = [
    "Roster",
    "RosterList",
    "apply_roster",
    "check_lists",
    "load_roster_list",
    "parse_roster_list",
]
