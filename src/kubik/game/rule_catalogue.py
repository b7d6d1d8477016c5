"""A ruleset's rule catalogue: every rule ID, its title in English and Russian, and
whether a battle can apply it.

The IDs are those of the project's rules catalogue (``SW-FIRE-01``): procedures
name them, and every roll, decision and event of a game's log names the ones it
applies, so ``kubik coverage`` can count the games that apply each. A ruleset ships
its catalogue as ``rules.toml`` in its own package (the one its ``kubik.rulesets`` entry
point names, see :mod:`kubik.rulesets.registry`; for a ruleset registered from code the
package that holds its game adapter), so a new ruleset only adds the file::

    ruleset = "steel_war"
    name = "Steel War"
    name_ru = "Стальная война"
    prefix = "SW"

    [[rule]]
    id = "SW-FIRE-01"
    title = "Opposed fire resolution (general scheme)"
    title_ru = "Общая схема боя: встречный бросок стрелка и цели"
    battle = true

    [[rule]]
    id = "SW-ABSENT-06"
    title = "Artillery and air strikes"
    title_ru = "Артиллерийские удары и авианалёты"
    battle = false          # no battle of the built-in scenarios can apply it ...
    why = "..."             # ... and why, in English
    why_ru = "..."          # and in Russian

A malformed file is one line naming the file and the field:

>>> parse_rule_catalogue('ruleset = "x"', "x", "x/rules.toml")
Traceback (most recent call last):
...
kubik.game.rule_catalogue.RuleCatalogueError: x/rules.toml: name: required (a non-empty string)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

from kubik.core.errors import KubikError
from kubik.rulesets import registry as rulesets

#: The file a ruleset's package ships its catalogue in.
CATALOGUE_FILE = "rules.toml"
#: A catalogue rule ID: prefix, section, number (``SW-FIRE-01``, ``OW-ABSENT-07``).
RULE_ID = re.compile(r"[A-Z]+-[A-Z0-9]+-[0-9]+")
_PREFIX = re.compile(r"[A-Z]+")
_TOP_KEYS = ("ruleset", "name", "name_ru", "prefix", "rule")
_RULE_KEYS = ("id", "title", "title_ru", "battle", "why", "why_ru")


class RuleCatalogueError(KubikError, ValueError):
    """A rule catalogue that is missing or malformed (the message names file and field)."""


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One catalogued rule. ``battle`` is False only for a rule no battle of the
    built-in scenarios can apply by its nature; ``why``/``why_ru`` then say why."""

    id: str
    title: str
    title_ru: str
    battle: bool = True
    why: str = ""
    why_ru: str = ""

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (``ru`` or English)."""
        return self.title_ru if lang == "ru" else self.title

    def why_in(self, lang: str) -> str:
        """Why no battle applies it, in ``lang`` (empty for a battle rule)."""
        return self.why_ru if lang == "ru" else self.why


@dataclass(frozen=True)
class RuleCatalogue:
    """The rules of one ruleset, in the order of the project's rules catalogue."""

    ruleset: str
    name: str
    name_ru: str
    prefix: str
    rules: tuple[RuleEntry, ...]
    _index: Mapping[str, RuleEntry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", MappingProxyType({r.id: r for r in self.rules}))

    @property
    def ids(self) -> tuple[str, ...]:
        """Every rule ID, in catalogue order."""
        return tuple(rule.id for rule in self.rules)

    def get(self, rule_id: str) -> RuleEntry | None:
        """The entry of ``rule_id``, or None when it is not catalogued here."""
        return self._index.get(rule_id)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._index

    def name_in(self, lang: str) -> str:
        """The game's name in ``lang``."""
        return self.name_ru if lang == "ru" else self.name

    @property
    def not_in_battle(self) -> tuple[RuleEntry, ...]:
        """The rules no battle of the built-in scenarios can apply, with the reason."""
        return tuple(rule for rule in self.rules if not rule.battle)


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        got = "" if value is None else f"{value!r}; "
        raise RuleCatalogueError(f"{where}{key}: {got}required (a non-empty string)")
    return value.strip()


def _unknown_keys(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise RuleCatalogueError(f"{where}{key}: unknown key; keys: {', '.join(allowed)}")


def _entry(table: Any, index: int, prefix: str, label: str) -> RuleEntry:
    where = f"{label}: rule[{index}]."
    if not isinstance(table, dict):
        raise RuleCatalogueError(f"{label}: rule[{index}]: must be a table ([[rule]])")
    _unknown_keys(table, _RULE_KEYS, where)
    rule_id = _text(table, "id", where)
    if not RULE_ID.fullmatch(rule_id) or not rule_id.startswith(f"{prefix}-"):
        raise RuleCatalogueError(
            f"{where}id: {rule_id!r}; a rule ID is {prefix}-SECTION-NN (like {prefix}-CORE-01)"
        )
    where = f"{label}: rule[{index}] ({rule_id})."
    title, title_ru = _text(table, "title", where), _text(table, "title_ru", where)
    battle = table.get("battle")
    if not isinstance(battle, bool):
        got = "missing" if battle is None else repr(battle)
        raise RuleCatalogueError(f"{where}battle: {got}; allowed: true or false")
    if battle:
        for key in ("why", "why_ru"):
            if key in table:
                raise RuleCatalogueError(f"{where}{key}: only for a rule with battle = false")
        return RuleEntry(rule_id, title, title_ru)
    why, why_ru = _text(table, "why", where), _text(table, "why_ru", where)
    return RuleEntry(rule_id, title, title_ru, False, why, why_ru)


def parse_rule_catalogue(text: str, ruleset: str, label: str) -> RuleCatalogue:
    """Read and check a catalogue's TOML text; ``label`` names the file in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleCatalogueError(f"{label}: not valid TOML ({error})") from None
    where = f"{label}: "
    _unknown_keys(data, _TOP_KEYS, where)
    declared = _text(data, "ruleset", where)
    if declared != ruleset:
        raise RuleCatalogueError(f"{where}ruleset: {declared!r}; this file is ruleset {ruleset!r}")
    name, name_ru = _text(data, "name", where), _text(data, "name_ru", where)
    prefix = _text(data, "prefix", where)
    if not _PREFIX.fullmatch(prefix):
        raise RuleCatalogueError(f"{where}prefix: {prefix!r}; capital letters, like SW")
    tables = data.get("rule")
    if not isinstance(tables, list) or not tables:
        raise RuleCatalogueError(f"{where}rule: required, one [[rule]] table per rule ID")
    entries: list[RuleEntry] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(tables):
        entry = _entry(table, index, prefix, label)
        if entry.id in seen:
            raise RuleCatalogueError(
                f"{where}rule[{index}].id: {entry.id} again (first at rule[{seen[entry.id]}])"
            )
        seen[entry.id] = index
        entries.append(entry)
    return RuleCatalogue(ruleset, name, name_ru, prefix, tuple(entries))


def catalogue_package(ruleset: str) -> str:
    """The package whose ``rules.toml`` catalogues ``ruleset`` (see the module docstring)."""
    package = rulesets.package_of(ruleset)
    if package is None:
        known = ", ".join(rulesets.ruleset_ids()) or "none"
        raise RuleCatalogueError(f"unknown ruleset '{ruleset}'; rulesets: {known}")
    return package


def load_rule_catalogue(ruleset: str) -> RuleCatalogue:
    """The catalogue ``ruleset`` ships; a missing or malformed file is one clear line."""
    package = catalogue_package(ruleset)
    label = f"{package.replace('.', '/')}/{CATALOGUE_FILE}"
    try:
        resource = resources.files(package) / CATALOGUE_FILE
        text = resource.read_text(encoding="utf-8") if resource.is_file() else None
    except (ModuleNotFoundError, OSError, UnicodeDecodeError) as error:
        raise RuleCatalogueError(f"{label}: cannot be read ({error})") from None
    if text is None:
        raise RuleCatalogueError(
            f"ruleset '{ruleset}' ships no rule catalogue: {label} does not exist"
        )
    return parse_rule_catalogue(text, ruleset, label)


__all__ = [
    "CATALOGUE_FILE",
    "RULE_ID",
    "RuleCatalogue",
    "RuleCatalogueError",
    "RuleEntry",
    "catalogue_package",
    "load_rule_catalogue",
    "parse_rule_catalogue",
]
