"""pydantic without its search for plugins: the ``kubik`` command uses none.

pydantic looks for plugins (the ``pydantic`` entry-point group) the first time it
builds a validator. ``PYDANTIC_DISABLE_PLUGINS=__all__`` (which the command sets
unless the user set it) makes that search answer "none", but the module that makes
it (``pydantic.plugin._loader``) still imports :mod:`importlib.metadata` to be
ready for the search: about 20 ms of CPU, a tenth of a first ``kubik odds``
question. While plugins are off, :func:`skip_plugin_search` puts a stand-in for that
module in its place: it answers "no plugins" while the variable says so, and hands
every other question (plugins turned back on, any other name) to pydantic's own
module, imported then.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

#: pydantic's variable and the values that turn every plugin off (as pydantic reads it).
VARIABLE = "PYDANTIC_DISABLE_PLUGINS"
ALL_OFF = ("__all__", "1", "true")
#: The module of pydantic that searches for plugins.
LOADER = "pydantic.plugin._loader"


def plugins_off() -> bool:
    """Whether the environment turns every pydantic plugin off."""
    return os.environ.get(VARIABLE) in ALL_OFF


def _real_loader() -> ModuleType:
    """pydantic's own loader, imported in place of the stand-in."""
    if isinstance(sys.modules.get(LOADER), _StandIn):
        del sys.modules[LOADER]
    return importlib.import_module(LOADER)


class _StandIn(ModuleType):
    """``pydantic.plugin._loader`` while plugins are off: no plugins, no search."""

    def get_plugins(self) -> Iterable[Any]:
        """No plugins while the variable turns them off; pydantic's answer otherwise."""
        if plugins_off():
            return ()
        loader: Any = _real_loader()
        found: Iterable[Any] = loader.get_plugins()
        return found

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # a tool looking over every module: not a question
            raise AttributeError(name)
        return getattr(_real_loader(), name)


def skip_plugin_search() -> None:
    """Spare pydantic's import of :mod:`importlib.metadata` while plugins are off (and
    pydantic has not loaded its loader yet); otherwise change nothing."""
    if plugins_off() and LOADER not in sys.modules:
        sys.modules[LOADER] = _StandIn(LOADER, __doc__)
