"""Real rosters: BattleScribe / New Recruit army lists (``.ros`` XML, ``.rosz`` zipped) read
into a side of a kubik scenario.

A roster file is ``<roster>`` → ``<forces>/<force>`` → ``<selections>/<selection>``
(``name``, ``type`` = unit | model | upgrade, ``number``), each selection with its
``<profiles>/<profile>`` (``typeName``; ``<characteristics>/<characteristic name=…>``
values), its ``<rules>/<rule name=…>`` and its own ``<selections>`` (a model's weapons,
a regiment's command group). kubik reads what its rulesets play:

* **Legends of the Old West** (``old_west``): every ``model`` selection (or a ``unit``
  with no models inside) is a model of the posse: its name (or its profile's name) names
  a profile of the rulebook data (``Marshal``, ``Deputy``, ``Gunfighter`` …); the
  selections inside it name its weapons (``Pistol``, ``Rifle`` …); ``number`` copies it.
* **Warhammer Fantasy** (``fantasy``): every top-level selection is a regiment; its
  models are the ``number`` of the model selections inside it (or its own ``number``);
  its profile is the characteristics ``M WS BS S T W I A Ld`` (and ``Save`` as ``5+``) of
  its first profile that has them; selections inside name its weapon (``Halberd`` …)
  and its command (``Champion``, ``Standard Bearer``, ``Musician``); rules name its
  special rules (``Fear``, ``Stubborn`` …).

Names are matched without case, spaces or punctuation (``Standard Bearer`` =
``standard_bearer``). An entry kubik cannot play is refused with one line naming it
(its place in the file and its name) and what is known; several such entries give one
line each. The units take the places the side's own units stood in the scenario, in
order (more units than places: each further one beside the last), so the table, the
terrain, the other side and the ending stay as the scenario has them.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from kubik.core.errors import InputError

#: The largest roster file read (a real army list is a few hundred kilobytes).
MAX_BYTES = 5_000_000
#: Rulesets whose sides a roster can fill.
ROSTER_RULESETS = ("old_west", "fantasy")


@dataclass(frozen=True, slots=True)
class Selection:
    """One ``<selection>``: its name, type, count, profiles, rules and inner selections."""

    name: str
    type: str
    number: int
    profiles: tuple[tuple[str, Mapping[str, str]], ...]  # (name, characteristics)
    rules: tuple[str, ...]
    selections: tuple[Selection, ...]
    where: str  # its place in the file: forces/force[1]/selections/selection[2]


@dataclass(frozen=True, slots=True)
class BsRoster:
    """A roster file: its name, and every force's top-level selections."""

    origin: str
    name: str
    selections: tuple[Selection, ...]


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _children(element: ElementTree.Element, group: str, item: str) -> list[ElementTree.Element]:
    return [
        child
        for box in element
        if _local(box.tag) == group
        for child in box
        if _local(child.tag) == item
    ]


def _selection(element: ElementTree.Element, where: str) -> Selection:
    profiles = tuple(
        (
            p.get("name", ""),
            {
                c.get("name", "").strip(): (c.text or "").strip()
                for c in _children(p, "characteristics", "characteristic")
            },
        )
        for p in _children(element, "profiles", "profile")
    )
    rules = tuple(r.get("name", "") for r in _children(element, "rules", "rule"))
    inner = tuple(
        _selection(child, f"{where}/selections/selection[{n}]")
        for n, child in enumerate(_children(element, "selections", "selection"), 1)
    )
    number_text = element.get("number", "1")
    number = int(number_text) if number_text.isdigit() else 1
    name = element.get("customName") or element.get("name") or ""
    return Selection(name, element.get("type", ""), number, profiles, rules, inner, where)


def read_roster(data: bytes, origin: str) -> BsRoster:
    """A ``.ros`` (XML) or ``.rosz`` (a zip holding one) roster; one line when it is not
    one."""
    if len(data) > MAX_BYTES:
        raise InputError(f"{origin}: a roster of at most {MAX_BYTES} bytes is read")
    if data[:2] == b"PK":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = [n for n in archive.namelist() if n.endswith(".ros")]
                if len(names) != 1:
                    raise InputError(f"{origin}: a .rosz holds one .ros file; found {len(names)}")
                info = archive.getinfo(names[0])
                if info.file_size > MAX_BYTES:
                    raise InputError(f"{origin}: a roster of at most {MAX_BYTES} bytes is read")
                data = archive.read(names[0])
        except zipfile.BadZipFile as error:
            raise InputError(f"{origin}: not a .rosz (a zipped roster): {error}") from None
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise InputError(f"{origin}: a roster has no DOCTYPE or entities (refused)")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise InputError(f"{origin}: not a BattleScribe roster (XML: {error})") from None
    if _local(root.tag) != "roster":
        raise InputError(
            f"{origin}: not a BattleScribe roster (the root is <{_local(root.tag)}>, not <roster>)"
        )
    selections: list[Selection] = []
    for f, force in enumerate(_children(root, "forces", "force"), 1):
        for s, child in enumerate(_children(force, "selections", "selection"), 1):
            selections.append(_selection(child, f"forces/force[{f}]/selections/selection[{s}]"))
    if not selections:
        raise InputError(f"{origin}: the roster has no selections (an empty army list)")
    return BsRoster(origin, root.get("name", "") or Path(origin).stem, tuple(selections))


def load_roster(path: str | Path) -> BsRoster:
    """The roster file at ``path`` (one line when it cannot be read)."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise InputError(f"roster: file '{file}' does not exist") from None
    except OSError as error:
        raise InputError(f"roster: '{file}' cannot be read ({error.strerror})") from None
    return read_roster(data, file.name)


def key(name: str) -> str:
    """A name as matched: lower case, words joined by ``_``.

    >>> key("Standard Bearer"), key("outlaw-boss"), key(" Buffalo Rifle ")
    ('standard_bearer', 'outlaw_boss', 'buffalo_rifle')
    """
    return "_".join(re.findall(r"[a-z0-9]+", name.lower()))


class _Problems:
    """Unknown entries, one line each, raised together."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.lines: list[str] = []

    def add(self, selection: Selection | None, what: str, name: str, known: Sequence[str]) -> None:
        place = f" {selection.where}" if selection is not None else ""
        self.lines.append(
            f"{self.origin}:{place} '{name}': no such {what} in kubik; known: {', '.join(known)}"
        )

    def raise_any(self) -> None:
        if self.lines:
            raise InputError("\n".join(self.lines))


# -- Legends of the Old West --------------------------------------------------------


def _named(table: Mapping[str, Any]) -> dict[str, str]:
    """key(id) and key(name) → id, for a data table of entries."""
    out: dict[str, str] = {}
    for entry_id, entry in table.items():
        if entry_id == "provenance" or not isinstance(entry, Mapping):
            continue
        out[key(entry_id)] = entry_id
        if isinstance(entry.get("name"), str):
            out[key(entry["name"])] = entry_id
    return out


def _old_west_models(roster: BsRoster) -> list[dict[str, Any]]:
    from kubik.rulesets.data import load_ruleset_data

    data = load_ruleset_data("old_west")
    profiles = _named(data["profiles"])
    weapons = _named(data["weapons"])
    problems = _Problems(roster.origin)
    models: list[dict[str, Any]] = []

    def model(selection: Selection) -> None:
        names = [selection.name, *(name for name, _ in selection.profiles)]
        profile = next((profiles[key(n)] for n in names if key(n) in profiles), None)
        if profile is None:
            problems.add(
                selection, "Old West profile", selection.name, sorted(set(profiles.values()))
            )
            return
        carried: list[str] = []
        for inner in selection.selections:
            weapon = weapons.get(key(inner.name))
            if weapon is None:
                problems.add(inner, "Old West weapon", inner.name, sorted(set(weapons.values())))
            else:
                carried.append(weapon)
        for _ in range(selection.number):
            models.append({"name": selection.name, "profile": profile, "weapons": carried})

    def walk(selection: Selection) -> None:
        inside = [s for s in selection.selections if s.type in ("model", "unit")]
        if selection.type == "model" or (selection.type != "upgrade" and not inside):
            model(selection)
        else:
            for inner in inside:
                walk(inner)

    for selection in roster.selections:
        walk(selection)
    problems.raise_any()
    return models


def _old_west_units(
    roster: BsRoster, side: str, places: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    units = []
    spots = [list(p["position"]) for p in places if "position" in p] or [[12.0, 12.0]]
    for index, model in enumerate(_old_west_models(roster)):
        spot = (
            spots[index]
            if index < len(spots)
            else [spots[-1][0] + 1.5 * (index - len(spots) + 1), spots[-1][1]]
        )
        units.append(
            {
                "id": f"{side}_{index + 1}",
                "name": model["name"],
                "profile": model["profile"],
                "weapons": model["weapons"],
                "position": spot,
                **({"leader": True} if index == 0 else {}),
            }
        )
    return units


# -- Warhammer Fantasy --------------------------------------------------------------

_PROFILE_KEYS = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
_COMMAND = {
    "champion": "champion",
    "sergeant": "champion",
    "standard_bearer": "standard",
    "standard": "standard",
    "musician": "musician",
}


def _fantasy_profile(selection: Selection) -> dict[str, int] | None:
    for _, values in selection.profiles:
        found = {key(k): v for k, v in values.items()}
        if all(k in found for k in _PROFILE_KEYS):
            profile: dict[str, int] = {}
            for name in _PROFILE_KEYS:
                digits = re.match(r"\d+", found[name])
                if digits is None:
                    return None
                profile[name] = int(digits.group())
            save = re.match(r"(\d)\+", found.get("save", found.get("sv", "")))
            if save is not None:
                profile["armour_save"] = int(save.group(1))
            return profile
    return None


def _fantasy_regiments(roster: BsRoster) -> list[dict[str, Any]]:
    from kubik.rulesets.data import load_ruleset_data
    from kubik.rulesets.fantasy.special_rules import SPECIAL_RULES

    weapons = [w for w in load_ruleset_data("fantasy")["weapons"] if w != "provenance"]
    problems = _Problems(roster.origin)
    regiments: list[dict[str, Any]] = []
    for selection in roster.selections:
        models = [s for s in selection.selections if s.type == "model"]
        profile = _fantasy_profile(selection) or next(
            (p for p in map(_fantasy_profile, models) if p is not None), None
        )
        if profile is None:
            problems.add(
                selection, "Fantasy profile (M WS BS S T W I A Ld)", selection.name, _PROFILE_KEYS
            )
            continue
        regiment: dict[str, Any] = {
            "name": selection.name,
            "models": sum(m.number for m in models) or selection.number,
            "profile": profile,
        }
        rules: list[str] = []
        for name in (*selection.rules, *(r for m in models for r in m.rules)):
            if key(name) in SPECIAL_RULES:
                rules.append(key(name))
            else:
                problems.add(selection, "Fantasy special rule", name, list(SPECIAL_RULES))
        for inner in selection.selections:
            if inner.type == "model" and _fantasy_profile(inner) is not None:
                continue
            name = key(inner.name)
            if name in weapons:
                regiment["weapon"] = name
            elif name in _COMMAND:
                regiment[_COMMAND[name]] = True
            elif name in SPECIAL_RULES:
                rules.append(name)
            else:
                problems.add(
                    inner,
                    "Fantasy weapon, command or special rule",
                    inner.name,
                    [*weapons, *_COMMAND],
                )
        if rules:
            regiment["special_rules"] = list(dict.fromkeys(rules))
        regiments.append(regiment)
    problems.raise_any()
    return regiments


def _fantasy_units(
    roster: BsRoster, side: str, places: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    spots = [(list(p["front"]), p.get("facing", "north")) for p in places if "front" in p]
    spots = spots or [([24.0, 8.0], "north")]
    units = []
    for index, regiment in enumerate(_fantasy_regiments(roster)):
        files = min(5, regiment["models"])
        if index < len(spots):
            front, facing = spots[index]
        else:
            last, facing = spots[-1]
            front = [last[0] + 8.0 * (index - len(spots) + 1), last[1]]
        units.append(
            {
                "id": f"{side}_{index + 1}",
                **regiment,
                "files": files,
                "front": front,
                "facing": facing,
            }
        )
    return units


def roster_units(
    ruleset: str, roster: BsRoster, side: str, scenario_units: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The ``[[units]]`` of ``side`` a roster makes, placed where the scenario's own units
    of that side stood (``scenario_units``: the scenario file's units, every side)."""
    places = [u for u in scenario_units if u.get("side") == side]
    if ruleset == "old_west":
        units = _old_west_units(roster, side, places)
    elif ruleset == "fantasy":
        units = _fantasy_units(roster, side, places)
    else:
        raise InputError(
            f"{roster.origin}: rosters fill sides of {', '.join(ROSTER_RULESETS)} battles; "
            f"this scenario plays {ruleset}"
        )
    # the side's own ids go to the roster's units in order, so what the scenario's
    # options say of a unit (a Hero's Fame) still finds one
    taken = {str(u.get("id")) for u in scenario_units}
    for index, unit in enumerate(units):
        if index < len(places):
            unit["id"] = places[index]["id"]
        else:
            number = index + 1
            while f"{side}_{number}" in taken:
                number += 1
            unit["id"] = f"{side}_{number}"
            taken.add(unit["id"])
    return units


def _spec(spec: str | Path) -> tuple[str, list[Path]]:
    side, sep, files = str(spec).partition("=")
    if not sep or not side.strip() or not files.strip():
        raise InputError(f"roster {spec}: write SIDE=FILE.ros (or .rosz), e.g. law=posse.ros")
    return side.strip(), [Path(f.strip()) for f in files.split(",") if f.strip()]


def is_roster_spec(spec: str | Path) -> bool:
    """Whether ``spec`` names BattleScribe rosters (``SIDE=FILE.ros[,FILE.rosz…]``)."""
    text = str(spec)
    return "=" in text and text.lower().endswith((".ros", ".rosz"))


def scenario_with_roster(scenario: Any, spec: str | Path) -> Any:
    """``scenario`` with one side's units replaced by a roster: ``SIDE=FILE.ros``."""
    side, files = _spec(spec)
    if side not in scenario.side_ids or len(files) != 1:
        raise InputError(
            f"--roster {spec}: write SIDE=FILE with one file and a side of the scenario "
            f"({', '.join(scenario.side_ids)})"
        )
    return with_roster(scenario, side, load_roster(files[0]))


def with_roster(scenario: Any, side: str, roster: BsRoster) -> Any:
    """``scenario`` (a :class:`~kubik.game.scenario.Scenario`) with ``side``'s units
    replaced by ``roster``'s, checked by the ruleset like any scenario."""
    import tomllib

    from kubik.game.scenario import ScenarioSource, parse_scenario
    from kubik.sim.rosters import Roster, apply_roster
    from kubik.sim.toml_text import dumps

    if side not in scenario.side_ids:
        raise InputError(
            f"{roster.origin}: the scenario has no side '{side}'; "
            f"sides: {', '.join(scenario.side_ids)}"
        )
    data = tomllib.loads(scenario.text)
    units = roster_units(scenario.ruleset, roster, side, data.get("units", []))
    made = Roster(key(roster.name) or "roster", roster.name, roster.name, tuple(units))
    return parse_scenario(
        dumps(apply_roster(data, side, made)),
        f"{scenario.origin} [{side}={roster.origin}]",
        ScenarioSource.FILE,
    )


def roster_list(scenario: Any, spec: str | Path) -> Any:
    """The roster list ``kubik sim --vs SIDE=A.ros,B.rosz`` plays: a roster per file."""
    import tomllib

    from kubik.sim.rosters import Roster, RosterList

    side, files = _spec(spec)
    if side not in scenario.side_ids:
        raise InputError(
            f"--vs {spec}: the scenario has no side '{side}'; sides: {', '.join(scenario.side_ids)}"
        )
    units_now = tomllib.loads(scenario.text).get("units", [])
    rosters: list[Roster] = []
    for file in files:
        roster = load_roster(file)
        roster_id = key(file.stem) or f"roster_{len(rosters) + 1}"
        if roster_id in (r.id for r in rosters):
            raise InputError(f"--vs {spec}: '{file.name}' is given twice")
        units = roster_units(scenario.ruleset, roster, side, units_now)
        rosters.append(Roster(roster_id, roster.name, roster.name, tuple(units)))
    return RosterList(str(spec), side, tuple(rosters))


__all__ = [
    "MAX_BYTES",
    "ROSTER_RULESETS",
    "BsRoster",
    "Selection",
    "is_roster_spec",
    "key",
    "load_roster",
    "read_roster",
    "roster_list",
    "roster_units",
    "scenario_with_roster",
    "with_roster",
]
