"""Which rulesets exist, and where each keeps its parts: the one place kubik finds rulesets.

A ruleset is a Python package declared in the entry-point group ``kubik.rulesets``: the
entry point's name is the ruleset id, its value the package. kubik's own rulesets are
declared there exactly as a ruleset of another distribution declares itself (in its
``pyproject.toml``)::

    [project.entry-points."kubik.rulesets"]
    skirmish = "skirmish_rules"

Everything of a ruleset is found through its package, laid out so:

.. code-block:: text

    <package>/__init__.py        imports nothing heavy; PROCEDURES (procedure → module,
                                 optional) and policies() (rules of thumb, optional)
    <package>/procedures/        the modules that register its public procedures
    <package>/objectives.py      the goals of its decisions, for the optimal policy
    <package>/turns.py           GAME: its game adapter (none: a ruleset of rules only)
    <package>/rules.toml         its rule catalogue
    <package>/data.toml, data/   its rulebook numbers, each table with its provenance
    <package>/scenarios/         its built-in scenarios (*.toml)
    <package>/glossary.toml, glossary/     its game terms in Russian and English
    <package>/locale/{en,ru}/LC_MESSAGES/*.po   its messages

Tests and notebooks add a ruleset from code with :func:`register_package` (the game
layer does it for an adapter registered from code). This module uses the standard
library only: it is the lowest layer of kubik, so text, data, the engine and the game
all find rulesets here.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache
from pathlib import Path

#: The entry-point group a ruleset is declared in.
GROUP = "kubik.rulesets"

#: Rulesets registered from code: id → package.
_REGISTERED: dict[str, str] = {}
#: How many times the registered rulesets changed: what is built from every ruleset (the
#: messages, the glossary) is rebuilt when it moves.
_changes = 0


@cache
def _own() -> dict[str, str]:
    """The rulesets kubik's own distribution declares: id → package. Read alone first,
    since a question about one of them need not scan every installed package; read
    from kubik's own metadata (:func:`_own_entry_points`) without importing
    :mod:`importlib.metadata`, which costs a first odds question a fifth of its time."""
    text = _own_entry_points()
    if text is not None:
        return _entry_points(text).get(GROUP, {})
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        points = distribution("kubik").entry_points
    except PackageNotFoundError:
        return {}
    return {point.name: point.value for point in points if point.group == GROUP}


def _own_entry_points() -> str | None:
    """The ``entry_points.txt`` of the first ``kubik-*.dist-info`` (or ``.egg-info``) on
    ``sys.path``, searched as :mod:`importlib.metadata` searches it (directory by
    directory, in order); ``""`` when that metadata declares no entry points, ``None``
    when none is found in a directory (a zip on the path: importlib.metadata looks)."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except (FileNotFoundError, PermissionError):
            continue
        except OSError:  # not a directory: a zip, which only importlib.metadata reads
            return None
        for name in names:
            low = name.lower()
            metadata = low.endswith((".dist-info", ".egg-info"))
            if metadata and low.rpartition(".")[0].partition("-")[0] == "kubik":
                try:
                    return (Path(entry or ".") / name / "entry_points.txt").read_text("utf-8")
                except FileNotFoundError:
                    return ""
    return None


def _entry_points(text: str) -> dict[str, dict[str, str]]:
    """An ``entry_points.txt`` read as :mod:`importlib.metadata` reads it: group → name →
    value (``[group]`` sections of ``name = value`` lines; ``#`` and ``;`` comments).

    >>> _entry_points("[kubik.rulesets]\\nskirmish = skirmish_rules\\n")
    {'kubik.rulesets': {'skirmish': 'skirmish_rules'}}
    """
    groups: dict[str, dict[str, str]] = {}
    group: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = groups.setdefault(line[1:-1].strip(), {})
        elif group is not None:
            name, _, value = line.partition("=")
            group[name.strip()] = value.strip()
    return groups


@cache
def _declared() -> dict[str, str]:
    """Every ruleset declared in the entry-point group: id → package (kubik's own first,
    then the first declaration of an id)."""
    from importlib.metadata import entry_points  # scanning the installed packages: once

    found = dict(_own())
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point.value)
    return found


def packages() -> dict[str, str]:
    """Every ruleset, declared or registered from code: id → package, in id order."""
    found = {**_REGISTERED, **_declared()}
    return {ruleset: found[ruleset] for ruleset in sorted(found)}


def ruleset_ids() -> tuple[str, ...]:
    """The ids of every ruleset, in order."""
    return tuple(packages())


def package_of(ruleset: str) -> str | None:
    """The package of ``ruleset``, or ``None`` when no ruleset has that id."""
    return _own().get(ruleset) or _declared().get(ruleset) or _REGISTERED.get(ruleset)


def is_own(ruleset: str) -> bool:
    """Whether ``ruleset`` is one of kubik's own rulesets (found without scanning the
    installed packages; no other declaration or registration replaces its package)."""
    return ruleset in _own()


def is_declared(ruleset: str) -> bool:
    """Whether ``ruleset`` is declared by an entry point (not only registered from code)."""
    return ruleset in _own() or ruleset in _declared()


def register_package(ruleset: str, package: str) -> None:
    """Make ``package`` the ruleset ``ruleset`` (from code: tests, notebooks). A declared
    ruleset keeps its package."""
    global _changes
    if _REGISTERED.get(ruleset) != package:
        _REGISTERED[ruleset] = package
        _changes += 1


def unregister_package(ruleset: str) -> None:
    """Forget a ruleset registered from code."""
    global _changes
    if _REGISTERED.pop(ruleset, None) is not None:
        _changes += 1


def changes() -> int:
    """A number that moves whenever a ruleset is registered or forgotten from code."""
    return _changes


def ruleset_of_module(module: str) -> str | None:
    """The ruleset whose package holds ``module``, or ``None``.

    >>> ruleset_of_module("kubik.rulesets.steel_war.fire")
    'steel_war'
    """
    for known in (_own(), _declared(), _REGISTERED):
        for ruleset, package in known.items():
            if module == package or module.startswith(package + "."):
                return ruleset
    return None


@cache
def _folder(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def folder(ruleset: str) -> Path | None:
    """The folder of the ruleset's package, found without importing the package (its
    procedures read their data as they register), or ``None`` for an unknown ruleset."""
    package = package_of(ruleset)
    return None if package is None else _folder(package)


def files(ruleset: str, name: str, folder_name: str) -> list[Path]:
    """The ruleset's file ``name`` (if it has one) and then every ``*.toml`` of its folder
    ``folder_name``, in name order: ``files("x", "data.toml", "data")``."""
    root = folder(ruleset)
    if root is None:
        return []
    found = [root / name] if (root / name).is_file() else []
    extra = root / folder_name
    if extra.is_dir():
        found += sorted(p for p in extra.iterdir() if p.is_file() and p.name.endswith(".toml"))
    return found


def scenario_files(ruleset: str) -> list[Path]:
    """The ruleset's built-in scenarios (``scenarios/*.toml``), in name order."""
    root = folder(ruleset)
    scenarios = None if root is None else root / "scenarios"
    if scenarios is None or not scenarios.is_dir():
        return []
    return sorted(p for p in scenarios.iterdir() if p.is_file() and p.name.endswith(".toml"))


def message_files(ruleset: str, lang: str) -> list[Path]:
    """The ruleset's message catalogues in ``lang`` (``locale/<lang>/LC_MESSAGES/*.po``)."""
    root = folder(ruleset)
    messages = None if root is None else root / "locale" / lang / "LC_MESSAGES"
    if messages is None or not messages.is_dir():
        return []
    return sorted(p for p in messages.iterdir() if p.is_file() and p.name.endswith(".po"))


__all__ = [
    "GROUP",
    "changes",
    "files",
    "folder",
    "is_declared",
    "is_own",
    "message_files",
    "package_of",
    "packages",
    "register_package",
    "ruleset_ids",
    "ruleset_of_module",
    "scenario_files",
    "unregister_package",
]
