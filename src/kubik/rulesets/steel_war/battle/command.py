"""Officers at work: inspiring their squads (SW-MOR-08..10) and passing them actions
(SW-ABSENT-01, over the radio: «выход на связь», SW-ABSENT-04).

Contact is measured on the table (distance and sight from the officer to the squad,
radios on both sides, SW-MOR-08); two psionics always get through to each other and a
psionic rolls the better of his psi and quality dice (SW-PSI-04). The rules'
questions decide what is offered (:func:`~kubik.rulesets.steel_war.inspiration.may_inspire`,
:func:`~kubik.rulesets.steel_war.inspiration.may_pass_action`,
:func:`~kubik.rulesets.steel_war.inspiration.may_communicate`).
"""

from __future__ import annotations

from collections.abc import Callable

from kubik.engine import AnyForecast, Call, Procedure, Verdict, emit
from kubik.game.battle.menu import LazyForecast
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.inspiration import (
    CommunicationOutcome,
    Contact,
    Inspiration,
    InspirationOutcome,
    communication_test,
    inspire,
    may_communicate,
    may_inspire,
    may_pass_action,
)
from kubik.rulesets.steel_war.morale_levels import raise_level
from kubik.rulesets.steel_war.situation import all_of
from kubik.rulesets.steel_war.threat import persistent_threat

from . import effects
from .field import Battlefield
from .forecast import inspire_forecast, pass_forecast
from .options import Inspire, PassAction
from .state import Squad, Status


def contact(game: Battlefield, officer: Squad, squad: Squad) -> Contact:
    """Where the officer stands relative to the squad: distance, sight, radios (SW-MOR-08)."""
    return Contact(
        game.board.gap(officer, squad) if squad.aboard is None else None,
        squad.aboard is None and game.board.sees(officer, squad),
        officer.spec.radio and squad.spec.radio,
    )


def inspiration(game: Battlefield, officer: Squad, squad: Squad) -> Inspiration:
    """The inspiration attempt as measured: contact, the squad's standing threat, both
    sides' psi dice (SW-PSI-04)."""
    return Inspiration(
        officer_quality=officer.die,
        officer_leadership=officer.leadership,
        squad_quality=squad.die,
        squad_leadership=squad.leadership,
        threat=persistent_threat(
            squad.motivation,
            unverified=len(squad.with_status(Status.UNVERIFIED)),
            wounded_left_behind=game.left_behind(squad),
        ),
        skipped_links=0,
        contact=contact(game, officer, squad),
        level=squad.level,
        start_level=squad.start_level,
        officer_psi=officer.psi,
        squad_psi=squad.psi,
    )


def commanded(game: Battlefield, officer: Squad) -> list[Squad]:
    """The squads the officer leads directly that are still in the battle."""
    return [s for s in (game.squad(i) for i in officer.spec.commands) if s.present]


def inspire_offers(
    game: Battlefield, officer: Squad, done: tuple[ActionType, ...], passed: bool = False
) -> list[tuple[Inspire, Verdict, AnyForecast]]:
    """An inspiration of each of his squads, with the rule's verdict and its odds."""
    if not officer.spec.officer:
        return []
    unit = game.situation(officer, done, passed=passed)
    out: list[tuple[Inspire, Verdict, AnyForecast]] = []
    for squad in commanded(game, officer):
        verdict = may_inspire(
            unit, squad.level, squad.start_level, 0, contact(game, officer, squad), squad.psi
        )
        forecast = _inspire_forecast(game, officer, squad)
        out.append(
            (Inspire(squad.id), verdict, forecast() if verdict.allowed else LazyForecast(forecast))
        )
    return out


def _inspire_forecast(game: Battlefield, officer: Squad, squad: Squad) -> Callable[[], AnyForecast]:
    """The odds of inspiring ``squad``, to be measured when read (a refused inspiration's
    are not: only its verdict is shown)."""
    return lambda: inspire_forecast(inspiration(game, officer, squad))


def pass_offers(
    game: Battlefield, officer: Squad, done: tuple[ActionType, ...], worth: dict[str, float]
) -> list[tuple[PassAction, Verdict, AnyForecast]]:
    """Passing an action to each of his squads (SW-ABSENT-01) over the radio (SW-ABSENT-04),
    with the rules' verdicts and the communication test's odds; ``worth``: what an extra
    action is worth to each squad (the best of its own options), as a score."""
    if not officer.spec.officer:
        return []
    unit = game.situation(officer, done)
    out: list[tuple[PassAction, Verdict, AnyForecast]] = []
    for squad in commanded(game, officer):
        reach = contact(game, officer, squad)
        verdict = all_of(
            may_pass_action(unit, 0, reach, squad_psi=squad.psi), may_communicate(unit)
        )
        forecast = pass_forecast(
            officer.die,
            officer.leadership,
            squad.leadership,
            reach,
            (officer.psi, squad.psi),
            worth.get(squad.id, 0.0),
        )
        out.append((PassAction(squad.id), verdict, forecast))
    return out


def encourage(game: Battlefield, officer: Squad, squad: Squad) -> Procedure[None]:
    """The officer spends an action to inspire one of his squads (SW-MOR-08..10)."""
    with game.rolling(squad, officer=officer):
        return (yield from _encourage(game, officer, squad))


def _encourage(game: Battlefield, officer: Squad, squad: Squad) -> Procedure[None]:
    outcome: InspirationOutcome = yield Call(inspire, (inspiration(game, officer, squad),))
    if outcome.raised:
        yield from effects.set_level(game, squad, raise_level(squad.level, squad.start_level, 1))


def get_through(game: Battlefield, officer: Squad, squad: Squad) -> Procedure[bool]:
    """The officer goes on the radio to a squad (SW-ABSENT-04): the communication test
    (SW-MOR-09; telepathy between psionics, SW-PSI-04). Whether he got through."""
    with game.rolling(squad, officer=officer):
        return (yield from _get_through(game, officer, squad))


def _get_through(game: Battlefield, officer: Squad, squad: Squad) -> Procedure[bool]:
    yield emit(
        "steel_war.game.communicate",
        rules=("SW-ABSENT-04", "SW-ABSENT-01"),
        officer=game.name(officer.id),
        squad=game.name(squad.id),
    )
    outcome: CommunicationOutcome = yield Call(
        communication_test,
        (
            officer.die,
            officer.leadership,
            squad.leadership,
            0,
            contact(game, officer, squad),
            officer.psi,
            squad.psi,
        ),
    )
    return outcome.communicated


__all__ = [
    "commanded",
    "contact",
    "encourage",
    "get_through",
    "inspiration",
    "inspire_offers",
    "pass_offers",
]
