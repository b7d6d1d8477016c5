"""Rulesets' game adapters, found by name: the game layer never imports a ruleset.

A ruleset plugs in by exporting ``GAME`` (a :class:`GameRuleset`) from the module
``turns`` of its package (:mod:`kubik.rulesets.registry` knows every ruleset's
package). :func:`register_ruleset` adds one from code (tests, notebooks): its package
(the one that holds the adapter's class) then serves the ruleset's catalogue,
scenarios, data and messages like a declared one's.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kubik.engine.applied import add_ruleset_package
from kubik.engine.requests import msg
from kubik.game.core import Game
from kubik.game.errors import UnknownRulesetError
from kubik.rulesets import registry as rulesets

if TYPE_CHECKING:
    from kubik.game.scenario import Scenario


@runtime_checkable
class GameRuleset(Protocol):
    """What a ruleset gives the game layer: check a scenario, start a game from it."""

    @property
    def id(self) -> str:
        """The ruleset id (``steel_war``), as scenarios name it."""
        ...

    def validate(self, scenario: Scenario) -> None:
        """Raise :class:`~kubik.game.errors.ScenarioError` naming the field
        (``units[2].weapons[0]: no weapon 'x'; weapons: ...``) if the ruleset
        cannot play ``scenario``."""
        ...

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> Game:
        """A fresh game of ``scenario``; ``options`` = the scenario's options with
        the caller's overrides applied."""
        ...


_REGISTERED: dict[str, GameRuleset] = {}


def register_ruleset(ruleset: GameRuleset, *, replace: bool = False) -> GameRuleset:
    """Make ``ruleset`` playable under ``ruleset.id`` (returns it, so it can decorate).

    The package that defines it (the package of its ``turns`` module, or the module
    itself) holds its rule modules: what they decide counts as applied in its games.
    """
    known = _REGISTERED.get(ruleset.id)
    if known is not None and known is not ruleset and not replace:
        raise ValueError(f"a game ruleset {ruleset.id!r} is registered already")
    _REGISTERED[ruleset.id] = ruleset
    if not rulesets.is_declared(ruleset.id):
        module = sys.modules[type(ruleset).__module__]
        rulesets.register_package(ruleset.id, module.__package__ or module.__name__)
        # its rule modules: the package of its turns module, or the module that defines it
        add_ruleset_package(type(ruleset).__module__.removesuffix(".turns"))
    return ruleset


def unregister_ruleset(ruleset_id: str) -> None:
    """Forget a ruleset registered from code (tests clean up with this)."""
    _REGISTERED.pop(ruleset_id, None)
    rulesets.unregister_package(ruleset_id)


def registered_ruleset(ruleset_id: str) -> GameRuleset | None:
    """The game adapter registered (from code, or found earlier) under ``ruleset_id``."""
    return _REGISTERED.get(ruleset_id)


def _adapter_modules() -> dict[str, str]:
    return {name: f"{package}.turns" for name, package in rulesets.packages().items()}


def known_rulesets() -> tuple[str, ...]:
    """Every ruleset id the game layer could look for (registered or shipped)."""
    return tuple(sorted(set(_REGISTERED) | set(_adapter_modules())))


def get_ruleset(ruleset_id: str) -> GameRuleset:
    """The game adapter of ``ruleset_id``, importing ``<ruleset>.turns`` on first use."""
    if ruleset_id in _REGISTERED:
        return _REGISTERED[ruleset_id]
    modules = _adapter_modules()
    if ruleset_id not in modules:
        known: Any = ", ".join(known_rulesets()) or msg("game.store.none")
        raise UnknownRulesetError(msg("kubik.ruleset.unknown", ruleset=ruleset_id, known=known))
    name = modules[ruleset_id]
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is None or not name.startswith(error.name):
            raise  # a real bug inside the adapter, not a missing adapter
        raise UnknownRulesetError(
            msg("kubik.ruleset.no_game", ruleset=ruleset_id, module=name)
        ) from None
    adapter = getattr(module, "GAME", None)
    if adapter is None or not isinstance(adapter, GameRuleset):
        raise UnknownRulesetError(f"{name} does not export GAME (a GameRuleset)")
    if adapter.id != ruleset_id:
        raise UnknownRulesetError(f"{name}.GAME has id '{adapter.id}', not '{ruleset_id}'")
    _REGISTERED[ruleset_id] = adapter
    return adapter


__all__ = [
    "GameRuleset",
    "get_ruleset",
    "known_rulesets",
    "register_ruleset",
    "registered_ruleset",
    "unregister_ruleset",
]
