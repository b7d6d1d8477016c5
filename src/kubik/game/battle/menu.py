"""Action menus built only from the rules' own answers to "may this be done now?".

A ruleset's battle lists what a unit could try and asks, for each, the permission
function of the rule module that owns the question (a
:class:`~kubik.engine.Verdict`). :class:`Menu` offers exactly what the verdicts
allow — a forbidden act is never offered, only recorded with its reason (a
referee asking "why can't they charge?" gets the rule) — and turns the offers
into one :class:`~kubik.engine.Choose` with a label per option (from the message
catalogues), a forecast per option and a default. The menu itself never decides
legality: there is no way to offer an option without a verdict.

>>> from kubik.engine import Verdict, msg
>>> menu = Menu()
>>> menu.offer("fire", msg("x.fire"), Verdict.allow("SW-FIRE-05"))
True
>>> menu.offer("charge", msg("x.charge"), Verdict.forbid(msg("x.suppressed"), "SW-SUP-01"))
False
>>> request = menu.choose("steel", msg("x.reason"))
>>> request.options, request.label("fire"), [r.option for r in menu.refused]
(('fire',), Message(id='x.fire', params=()), ['charge'])
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kubik.core.errors import ProcedureError
from kubik.engine import AnyForecast, Choose, Entry, Message, Verdict
from kubik.engine.requests import Worth

OptionT = TypeVar("OptionT", bound=Hashable)


class LazyForecast(AnyForecast):
    """An option's forecast worked out when something first reads it: a bot weighing the
    decision, or the odds shown to a person. A default or random bot never reads one, so
    the measuring it needs (the way into a fight, the shot a Hero could take) is not made
    for nothing. It is read while its decision is pending, when the board is as it was
    when the menu was built; ``make`` gives the very forecast an eager menu would hold.

    >>> from kubik.engine import Forecast
    >>> made = []
    >>> lazy = LazyForecast(lambda: made.append(1) or Forecast(score=2.5))
    >>> len(made)
    0
    >>> lazy.score, lazy.procedure, len(made)
    (2.5, None, 1)
    """

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[], AnyForecast]) -> None:
        self._make: Callable[[], AnyForecast] | None = make
        self._made: AnyForecast | None = None

    def _forecast(self) -> AnyForecast:
        made = self._made
        if made is None:
            assert self._make is not None
            made = self._made = self._make()
            self._make = None
        return made

    @property
    def procedure(self) -> Callable[..., Generator[Any, Any, Any]] | None:
        """The rule the option leads to (``None``: a plain score)."""
        return self._forecast().procedure

    @property
    def args(self) -> tuple[Any, ...]:
        """The situation it would meet: the procedure's arguments."""
        return self._forecast().args

    @property
    def value(self) -> Callable[[Any], Worth] | None:
        """What each outcome is worth to the side choosing."""
        return self._forecast().value

    @property
    def score(self) -> float:
        """A plain positional judgement added to the expected value."""
        return self._forecast().score

    @property
    def sides(self) -> tuple[tuple[str, Message], ...]:
        """Who the side letters of its outcomes stand for."""
        return self._forecast().sides


@dataclass(frozen=True, slots=True)
class Offer(Generic[OptionT]):
    """One option of a menu: what it is, how people see it, the rules' verdict on it and
    what it would set in motion."""

    option: OptionT
    label: Message
    verdict: Verdict
    forecast: AnyForecast | None = None


class Menu(Generic[OptionT]):
    """The options of one decision, gathered offer by offer."""

    def __init__(self) -> None:
        self._offers: list[Offer[OptionT]] = []
        self._refused: list[Offer[OptionT]] = []
        self._offered: set[OptionT] = set()  # (asking whether one is offered: by hash)
        self._options: list[OptionT] = []  # the offers' options, in the order offered

    def offer(
        self,
        option: OptionT,
        label: Message,
        verdict: Verdict,
        forecast: AnyForecast | None = None,
    ) -> bool:
        """Offer ``option`` if ``verdict`` allows it (perhaps after a test); returns
        whether it was offered. A refused option is kept with its reason."""
        item = Offer(option, label, verdict, forecast)
        if not verdict.allowed:
            self._refused.append(item)
            return False
        if option in self._offered:
            raise ProcedureError(f"option {option!r} offered twice")
        self._offers.append(item)
        self._offered.add(option)
        self._options.append(option)
        return True

    @property
    def offers(self) -> tuple[Offer[OptionT], ...]:
        """What may be chosen, in the order offered."""
        return tuple(self._offers)

    @property
    def refused(self) -> tuple[Offer[OptionT], ...]:
        """What the rules forbid now, each with its verdict (the reason and the rules)."""
        return tuple(self._refused)

    @property
    def options(self) -> tuple[OptionT, ...]:
        """The options that may be chosen."""
        return tuple(self._options)

    def __len__(self) -> int:
        return len(self._offers)

    def __contains__(self, option: object) -> bool:
        try:
            return option in self._offered
        except TypeError:  # (an unhashable value is no option)
            return False

    def offer_of(self, option: OptionT) -> Offer[OptionT]:
        """The offer of ``option`` (it must have been offered)."""
        for item in self._offers:
            if item.option == option:
                return item
        raise ProcedureError(f"option {option!r} was not offered")

    def choose(
        self,
        side: str,
        reason: Message,
        default: OptionT | None = None,
        rules: tuple[str, ...] = (),
        entry: Entry | None = None,
    ) -> Choose:
        """The decision as a request for ``side``: one label and one forecast per option,
        ``default`` (the first option unless given; it must be on offer); ``entry``: people
        at a real table may type what happened instead (checked by the same rules)."""
        if not self._offers:
            raise ProcedureError("a menu with nothing on offer cannot be chosen from")
        if default is not None and default not in self:
            raise ProcedureError(f"default {default!r} is not on offer")
        forecasts = tuple(o.forecast for o in self._offers)
        options = tuple(self._options)
        return Choose(
            options,
            side,
            reason,
            default=options[0] if default is None else default,
            forecasts=forecasts if any(f is not None for f in forecasts) else (),
            labels=tuple(o.label for o in self._offers),
            rules=rules,
            entry=entry,
        )


__all__ = ["LazyForecast", "Menu", "Offer"]
