"""The procedure registry: public names ``<ruleset>.<procedure>`` → procedures.

Rulesets register their public procedures with :func:`procedure`; the registry
finds a ruleset's package by its name (:mod:`kubik.rulesets.registry`: the
``kubik.rulesets`` entry points) and imports it on first use, so nothing above the
engine imports a ruleset directly.

A ruleset package that names the module of each procedure (``PROCEDURES``: procedure
name → module, relative to the package) is imported one procedure at a time: asking
for ``steel_war.fire`` imports its package (which imports nothing) and the module
registering it, not the rest of the ruleset. Loading such a ruleset whole imports
every module of its ``procedures`` package, so a procedure missing from the index is
still found (and a test compares the index with what the modules register). A
ruleset without the index registers everything when its package is imported.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from kubik.core.errors import UnknownProcedureError
from kubik.engine.memo import by_identity
from kubik.engine.requests import Procedure, msg
from kubik.rulesets import registry as rulesets

if TYPE_CHECKING:
    from types import ModuleType

    import numpy as np


class ProcedureInput(BaseModel):
    """Base of every procedure's input model: frozen (hashable), no unknown fields.

    Built on first use (``defer_build``): a command about one procedure does not pay
    for building the validators of every input model of its ruleset.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


InputT = TypeVar("InputT", bound=ProcedureInput)
PlanT = TypeVar("PlanT")


def per_input(fn: Callable[[InputT], PlanT]) -> Callable[[InputT], PlanT]:
    """Memoise what a procedure derives from its input (its rule values), by identity first.

    Exact odds replay a procedure thousands of times with the very same input object;
    hashing a pydantic model costs microseconds each time, an identity check nothing.
    Equal inputs built separately still share the value (an LRU cache by value).
    """
    return by_identity(fn)


class BatchForm(Protocol):
    """A vectorised form of a procedure: ``n`` outcomes for one input, drawn from ``rng``.

    It must agree in distribution with the generator form (tests check this).
    """

    def __call__(self, inp: Any, rng: np.random.Generator, n: int) -> Sequence[Hashable]: ...


@dataclass(frozen=True)
class ProcedureSpec:
    """A registered procedure and what the outside world knows of it."""

    name: str
    function: Callable[[Any], Procedure[Any]]
    input_model: type[ProcedureInput]
    rules: tuple[str, ...]
    summary: str
    batch: BatchForm | None = None
    examples: tuple[Mapping[str, Any], ...] = ()

    @property
    def ruleset(self) -> str:
        """The ruleset id: the part of the name before the dot."""
        return self.name.split(".", 1)[0]

    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the input (from the pydantic model)."""
        return self.input_model.model_json_schema()


_REGISTRY: dict[str, ProcedureSpec] = {}
_LOADED: set[str] = set()


def procedure(
    name: str,
    *,
    input: type[InputT],
    rules: Sequence[str],
    batch: BatchForm | None = None,
    examples: Sequence[Mapping[str, Any]] = (),
) -> Callable[[Callable[[InputT], Procedure[Any]]], Callable[[InputT], Procedure[Any]]]:
    """Register a generator function as the public procedure ``name``.

    The summary is the first line of the function's docstring. ``examples`` are
    typical inputs (JSON-ready dicts): shown by ``kubik procedures`` and used by the
    generic tests (which validate them first; odds vs brute force, simulate vs odds),
    so give a few that cover the procedure's branches. They are not validated here:
    input models are built on first use, and importing a ruleset stays cheap.
    """
    if "." not in name:
        raise ValueError(f"procedure names are <ruleset>.<procedure>, not {name!r}")

    def register(fn: Callable[[InputT], Procedure[Any]]) -> Callable[[InputT], Procedure[Any]]:
        summary = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else name
        if name in _REGISTRY and _REGISTRY[name].function is not fn:
            raise ValueError(f"procedure {name!r} is registered twice")
        _REGISTRY[name] = ProcedureSpec(
            name, fn, input, tuple(rules), summary, batch, tuple(examples)
        )
        return fn

    return register


def ruleset_package(ruleset: str) -> ModuleType:
    """The ruleset's package (for a ruleset with a ``PROCEDURES`` index this imports no
    procedure)."""
    package = rulesets.package_of(ruleset)
    if package is None:
        known = ", ".join(rulesets.ruleset_ids())
        raise UnknownProcedureError(msg("kubik.ruleset.unknown", ruleset=ruleset, known=known))
    return importlib.import_module(package)


def procedure_index(ruleset: str) -> Mapping[str, str] | None:
    """The ruleset's ``PROCEDURES``: procedure name → module (absolute), or ``None``
    when the ruleset registers everything on import."""
    package = ruleset_package(ruleset)
    index: Mapping[str, str] | None = getattr(package, "PROCEDURES", None)
    if index is None:
        return None
    return {f"{ruleset}.{name}": f"{package.__name__}.{module}" for name, module in index.items()}


def procedure_modules(ruleset: str) -> list[str]:
    """Every module of the ruleset's ``procedures`` package (what loading it whole imports)."""
    import pkgutil

    package = ruleset_package(ruleset)
    found = importlib.util.find_spec(f"{package.__name__}.procedures")
    if found is None or found.submodule_search_locations is None:
        return []
    prefix = f"{package.__name__}.procedures."
    locations = found.submodule_search_locations
    return sorted(prefix + m.name for m in pkgutil.iter_modules(locations))


def load_ruleset(ruleset: str) -> None:
    """Import a ruleset's procedures, every one of them (once)."""
    if ruleset in _LOADED:
        return
    package = ruleset_package(ruleset)
    if getattr(package, "PROCEDURES", None) is not None:
        for module in procedure_modules(ruleset):
            importlib.import_module(module)
    _LOADED.add(ruleset)


def _load_procedure(name: str) -> None:
    """Import what registers ``name``: its module alone when the ruleset's index names it,
    else the whole ruleset."""
    ruleset = name.split(".", 1)[0]
    index = procedure_index(ruleset)
    module = None if index is None else index.get(name)
    if module is not None:
        importlib.import_module(module)
    if name not in _REGISTRY:
        load_ruleset(ruleset)


#: Ruleset packages whose goals (``objectives`` modules) have been looked for.
_GOALS_LOADED: set[str] = set()
#: Modules of a ruleset whose goals have been looked for (asked again at every decision
#: the optimal policy weighs: these are answered without listing the rulesets again).
_GOALS_MODULES: set[str] = set()


def load_goals(module: str) -> None:
    """Import the goals of the rules in ``module``: the ``objectives`` module of the
    ruleset package holding it, if it has one (once).

    The optimal policy asks for them the first time it meets one of the ruleset's
    procedures, so a question under the default policy does not load them.
    """
    if module in _GOALS_MODULES:
        return
    ruleset = rulesets.ruleset_of_module(module)
    if ruleset is None:
        return
    _GOALS_MODULES.add(module)  # one per module of the code: bounded by the code
    if ruleset in _GOALS_LOADED:
        return
    _GOALS_LOADED.add(ruleset)
    objectives = f"{rulesets.package_of(ruleset)}.objectives"
    if importlib.util.find_spec(objectives) is not None:
        importlib.import_module(objectives)


def load_all() -> None:
    """Import every known ruleset."""
    for ruleset in rulesets.ruleset_ids():
        load_ruleset(ruleset)


def get(name: str) -> ProcedureSpec:
    """The procedure called ``name``; an unknown name raises with close matches."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    ruleset = name.split(".", 1)[0] if "." in name else ""
    if ruleset and rulesets.package_of(ruleset) is not None:
        _load_procedure(name)
    if name in _REGISTRY:
        return _REGISTRY[name]
    load_all()
    import difflib  # only to name the close ones of an unknown name

    close = difflib.get_close_matches(name, list(_REGISTRY), n=3)
    if close:
        raise UnknownProcedureError(msg("kubik.procedure.near", name=name, near=tuple(close)))
    raise UnknownProcedureError(msg("kubik.procedure.unknown", name=name))


def all_specs() -> list[ProcedureSpec]:
    """Every registered procedure, sorted by name."""
    load_all()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]
