"""Which rules a game applied: recorded when a rule module decides, not when a log names it.

A rule counts as applied in a game only when the rule module's own code decided
something in it: a permission function asked, a chart or a rulebook number read by
its reader, a rule procedure run. Rule functions say so with :func:`decides`; the
stepper that plays a game records the ``rules`` of every request a rule procedure
yields (:func:`is_rule_module` tells rule code from battle code); a game session
holds the set they record into while it plays (:class:`Recording`).

Recording is one set in a :class:`~contextvars.ContextVar` (``None``: nobody is
recording, and :func:`record` does nothing), so hypothetical play — exact odds, Monte
Carlo, a bot weighing its options — is kept out with :func:`not_recording`, and a game
session in a web server never records into another's set.

A memo that keeps what a deciding function answered would hide the decision from a
later game (a cache lives as long as the process, a table's tape across its games):
a memo goes inside :func:`decides`, or keeps what was decided with its answer
(:func:`deciding`, :func:`replayed`) and records it again on every hit.

>>> from kubik.engine.permission import Verdict
>>> @decides("XX-01")
... def march_block() -> float:
...     return 8.0
>>> @decides()
... def may_march(enemy: float) -> Verdict:
...     return Verdict.allow("XX-02") if enemy > march_block() else Verdict.allow("XX-03")
>>> applied: set[str] = set()
>>> with Recording(applied):
...     may_march(12.0).allowed
True
>>> sorted(applied)
['XX-01', 'XX-02']
>>> may_march(3.0).rules, sorted(applied)  # not recording: nothing is added
(('XX-03',), ['XX-01', 'XX-02'])
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator, Iterable
from contextvars import ContextVar, Token
from functools import lru_cache, update_wrapper, wraps
from types import CodeType, TracebackType
from typing import Any, Generic, ParamSpec, TypeVar

from kubik.engine.permission import Verdict
from kubik.engine.wrappers import wrapped

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

#: The set the running game records into; ``None`` when nothing is recorded.
_APPLIED: ContextVar[set[str] | None] = ContextVar("kubik.applied", default=None)
_recorder = _APPLIED.get


def recorder() -> set[str] | None:
    """The set rule decisions are recorded into now, or ``None`` (not recording)."""
    return _recorder()


def record(*rules: str) -> None:
    """Record that ``rules`` decided something in the game being played (if any is)."""
    applied = _recorder()
    if applied is not None:
        applied.update(rules)


def decides(
    *rules: str, cites: Callable[[Any], Iterable[str]] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a rule module's deciding function (a permission, a chart, a number reader):
    every call records ``rules``, the rules of the :class:`Verdict` it returns, and
    ``cites(result)`` when given (a function that returns its value with the rules that
    set it). Put any memo of the function inside this decorator, so a call answered from
    the memo is recorded too.
    """

    def mark(fn: Callable[P, R]) -> Callable[P, R]:
        returns = str(getattr(inspect.unwrap(fn), "__annotations__", {}).get("return", ""))
        steps = []
        if rules:  # (told once per set: a game's, or a memo's while it works out an answer)
            steps += [
                "if applied is not _last[0]:",
                "    _last[0] = applied",
                "    applied.update(_rules)",
            ]
        if "Verdict" in returns:  # (the same verdict again is told once)
            steps += [
                "if result is not _last[1] or applied is not _last[2]:",
                "    _last[1], _last[2] = result, applied",
                "    applied.update(result.rules)",
            ]
        elif cites is None and not rules:
            steps += ["if isinstance(result, _Verdict):", "    applied.update(result.rules)"]
        if cites is not None:
            steps.append("applied.update(_cites(result))")
        names = {"_rules": frozenset(rules), "_cites": cites, "_last": [None, None, None]}
        made: Callable[P, R] = _wrapper(fn, steps, names)
        return made

    return mark


def _wrapper(fn: Callable[..., Any], steps: list[str], names: dict[str, Any]) -> Any:
    """A function with ``fn``'s very signature that calls it and, while a game records,
    runs ``steps`` on ``result`` and ``applied``. Written out for each signature (not
    ``*args, **kwargs``): permission functions are asked thousands of times a game, and a
    wrapper that repacks its arguments would cost a game several per cent."""
    signature = inspect.signature(fn)
    params: list[str] = []
    call: list[str] = []
    namespace: dict[str, Any] = {
        **names,
        "_fn": fn,
        "_recorder": _recorder,
        "_Verdict": Verdict,
    }
    star = False
    positional_only = False
    for index, param in enumerate(signature.parameters.values()):
        name = param.name
        default = ""
        if param.default is not inspect.Parameter.empty:
            namespace[f"_default{index}"] = param.default
            default = f"=_default{index}"
        if param.kind is param.POSITIONAL_ONLY:
            positional_only = True
            params.append(name + default)
            call.append(name)
            continue
        if positional_only:
            params.append("/")
            positional_only = False
        if param.kind is param.VAR_POSITIONAL:
            params.append(f"*{name}")
            call.append(f"*{name}")
            star = True
        elif param.kind is param.VAR_KEYWORD:
            params.append(f"**{name}")
            call.append(f"**{name}")
        elif param.kind is param.KEYWORD_ONLY:
            if not star:
                params.append("*")
                star = True
            params.append(name + default)
            call.append(f"{name}={name}")
        else:
            params.append(name + default)
            call.append(name)
    if positional_only:
        params.append("/")
    body = "\n        ".join(steps)  # (the steps, indented under ``if applied``)
    source = (
        f"def deciding({', '.join(params)}):\n"
        f"    result = _fn({', '.join(call)})\n"
        "    applied = _recorder()\n"
        "    if applied is not None:\n"
        f"        {body}\n"
        "    return result\n"
    )
    exec(source, namespace)  # (our own source, written from the signature above)
    return update_wrapper(namespace["deciding"], fn)


class Recording:
    """Within the block, rule decisions are recorded into ``applied`` (``None``: not at
    all). A plain class, not a generator context manager: a game session enters one
    for every stretch of play."""

    __slots__ = ("_applied", "_token")

    def __init__(self, applied: set[str] | None) -> None:
        self._applied = applied
        self._token: Token[set[str] | None] | None = None

    def __enter__(self) -> set[str] | None:
        self._token = _APPLIED.set(self._applied)
        return self._applied

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._token is not None:
            _APPLIED.reset(self._token)
            self._token = None


def not_recording() -> Recording:
    """Within the block nothing is recorded: hypothetical play (exact odds, Monte Carlo,
    a bot's forecasts) is not the game."""
    return Recording(None)


class Decided(Generic[T]):
    """A memo's answer together with the rules that decided while it was worked out."""

    __slots__ = ("rules", "value")

    def __init__(self, value: T, rules: frozenset[str]) -> None:
        self.value = value
        self.rules = rules


def deciding(build: Callable[[], T]) -> T | Decided[T]:
    """``build()`` for a memo to keep: its value, or :class:`Decided` when rules decided
    while it ran (recorded now too, if a game is recording). What a memo keeps this way
    is told again by :func:`replayed` on every hit, so a later game that meets the
    answer in the memo still records the decision."""
    outer = _recorder()
    inner: set[str] = set()
    token = _APPLIED.set(inner)
    try:
        value = build()
    finally:
        _APPLIED.reset(token)
    if not inner:
        return value
    if outer is not None:
        outer.update(inner)
    return Decided(value, frozenset(inner))


def replayed(kept: T | Decided[T]) -> T:
    """The value a memo kept with :func:`deciding`, recording again what decided it."""
    if type(kept) is Decided:
        applied = _recorder()
        if applied is not None:
            applied.update(kept.rules)
        value: T = kept.value
        return value
    return kept  # type: ignore[return-value]


def deciding_cache(maxsize: int | None = 128) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """:func:`functools.lru_cache` for a function whose answers rules decide (a battle's
    memo of a permission, a chart): each answer is kept with the rules that decided it
    (:func:`deciding`), and a call answered from the cache records them again."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        @lru_cache(maxsize)
        def keep(*args: Any, **kwargs: Any) -> R | Decided[R]:
            return deciding(lambda: fn(*args, **kwargs))

        @wraps(fn)
        def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
            found: R | Decided[R] = keep(*args, **kwargs)  # type: ignore[arg-type]
            return replayed(found)

        return remembered

    return wrap


#: The parts of a ruleset package that are not rule modules: its battle, its turn
#: structure, its public procedure wrappers and its scenarios.
NOT_RULES = frozenset({"battle", "turns", "procedures", "scenarios"})

_BUILT_IN = "kubik.rulesets."
_RULE_MODULES: dict[str, bool] = {}
#: Packages of rulesets registered from code (not shipped, not an entry point).
_REGISTERED: set[str] = set()


def add_ruleset_package(package: str) -> None:
    """Count ``package`` as a ruleset's, its modules as rule modules (but for the parts
    :data:`NOT_RULES` names): a ruleset registered from code, not found by its entry
    point."""
    if package not in _REGISTERED:
        _REGISTERED.add(package)
        _RULE_MODULES.clear()
        _RULE_CODE.clear()


def is_rule_module(module: str) -> bool:
    """Whether ``module`` is one of a ruleset's rule modules: a module of a ruleset
    package (kubik's own, or one installed under the ``kubik.rulesets`` entry point)
    that is not its ``battle`` subpackage, ``turns``, ``procedures`` or ``scenarios``.

    >>> is_rule_module("kubik.rulesets.fantasy.movement")
    True
    >>> is_rule_module("kubik.rulesets.fantasy.battle.game"), is_rule_module("kubik.game.session")
    (False, False)
    """
    known = _RULE_MODULES.get(module)
    if known is None:
        known = _RULE_MODULES[module] = _in_rules(module)
    return known


def _in_rules(module: str) -> bool:
    if module.startswith(_BUILT_IN):
        parts = module[len(_BUILT_IN) :].split(".")
        return len(parts) >= 2 and parts[1] not in NOT_RULES
    if module.startswith("kubik.") or module == "kubik":
        return False
    from kubik.rulesets.registry import is_declared, packages

    declared = (package for ruleset, package in packages().items() if is_declared(ruleset))
    for package in (*_REGISTERED, *declared):
        if module.startswith(package + "."):
            part = module[len(package) + 1 :].split(".")[0]
            return part not in NOT_RULES
    return False


_RULE_CODE: dict[CodeType, bool] = {}


def is_rule_procedure(procedure: Callable[..., Any], args: tuple[Any, ...] = ()) -> bool:
    """Whether ``procedure(*args)`` (what a ``Call`` runs) is a rule procedure: defined in
    a rule module, or a declared wrapper that runs one with its sides renamed
    (:func:`~kubik.engine.wrappers.declare_wrapper`)."""
    if is_rule_module(getattr(procedure, "__module__", None) or ""):
        return True
    inner = wrapped(procedure, args)
    return inner is not None and is_rule_procedure(inner)


def runs_rule(generator: Generator[Any, Any, Any]) -> bool:
    """Whether ``generator`` (suspended at a request) is a rule procedure or is running
    one with ``yield from`` (at any depth): its request is then a rule's own."""
    running: Any = generator
    while running is not None:
        code = running.gi_code
        known = _RULE_CODE.get(code)
        if known is None:
            frame = running.gi_frame
            module = frame.f_globals.get("__name__", "") if frame is not None else ""
            known = _RULE_CODE[code] = is_rule_module(module)
        if known:
            return True
        running = running.gi_yieldfrom
    return False


__all__ = [
    "NOT_RULES",
    "Decided",
    "Recording",
    "add_ruleset_package",
    "decides",
    "deciding",
    "deciding_cache",
    "is_rule_module",
    "is_rule_procedure",
    "not_recording",
    "record",
    "recorder",
    "replayed",
    "runs_rule",
]
