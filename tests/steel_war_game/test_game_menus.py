"""Menus measure only what their offers need: a refused option's odds are measured when
read, and the rules read the facts only as far as they decide a verdict. Each shortcut
gives exactly what measuring everything gave (SW-FIRE-05, SW-ABSENT-03, SW-NSN-01)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from kubik.engine import AnyForecast
from kubik.game import GameSession, load_scenario
from kubik.game.battle.menu import LazyForecast
from kubik.rulesets.steel_war.battle import actions, menu, shooting
from kubik.rulesets.steel_war.battle.forecast import (
    fire_forecast,
    ground_forecast,
    stand_forecast,
)
from kubik.rulesets.steel_war.battle.formation import inches
from kubik.rulesets.steel_war.battle.options import Act, Fire, Kind
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.damage import TargetKind
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.no_step_back import Stand, may_stand_fast, may_stand_fast_from
from kubik.rulesets.steel_war.reaction import ReactionAction, reaction_threat
from kubik.table.tape import Tape

from .builders import new_game, offered, scenario, unit

OPEN = ReactionAction.GO_TO_GROUND_OPEN


def _fields(forecast: AnyForecast | None) -> tuple[Any, ...]:
    assert forecast is not None
    return (forecast.procedure, forecast.args, forecast.value, forecast.score)


def _readings(values: list[Any]) -> Iterator[Any]:
    """``values`` one by one, each taken out of the list as it is read."""
    while values:
        yield values.pop(0)


LEVELS = tuple(MoraleLevel)
FRIENDS = ((), (30.0,), (12.0,), (12.1, 40.0), (20.0, 3.0, 15.0), (13.0, 12.5))


@pytest.mark.parametrize("level", LEVELS)
def test_SW_NSN_01_the_verdict_from_lazy_facts_is_the_verdict_on_every_fact(
    level: MoraleLevel,
) -> None:
    """:func:`may_stand_fast_from` gives :func:`may_stand_fast`'s verdict — its refusal
    naming every failing precondition — reading friends until one is within 12" and
    enemies until three count, and nothing at all for a berserk or panicked squad."""
    for sheltered, friends, seen, berserk, panicked in itertools.product(
        (False, True),
        FRIENDS,
        itertools.chain.from_iterable(itertools.product(LEVELS, repeat=n) for n in range(5)),
        (False, True),
        (False, True),
    ):
        stand = Stand(
            level,
            in_cover=sheltered,
            nearest_friend=min(friends, default=None),
            enemy_levels_in_sight=seen,
        )
        left_friends, left_seen = list(friends), list(seen)
        verdict = may_stand_fast_from(
            level,
            sheltered=sheltered,
            friend_distances=_readings(left_friends),
            enemy_levels_in_sight=_readings(left_seen),
            berserk=berserk,
            panicked=panicked,
        )
        assert verdict == may_stand_fast(stand, berserk=berserk, panicked=panicked)
        if berserk or panicked:
            assert (left_friends, left_seen) == (list(friends), list(seen))
        else:
            read = len(friends) - len(left_friends)
            assert all(d > 12 for d in friends[: max(read - 1, 0)])
            assert not left_friends or friends[read - 1] <= 12
            counted = [lv for lv in seen[: len(seen) - len(left_seen)] if lv.at_least(LEVELS[2])]
            assert not left_seen or len(counted) == 3


def _check(game: Any, squad: Any, done: Any, passed: bool = False) -> int:
    """Every refused fire's, going to ground's and «Ни шагу назад!»'s odds of this menu,
    read, are those measured with every fact; how many refused fires it had."""
    offers = menu.build(game, squad, done, passed=passed)
    lazy = 0
    every = (*offers.menu.offers, *offers.menu.refused)
    for offer in every:
        option, forecast = offer.option, offer.forecast
        if isinstance(option, Fire) and isinstance(forecast, LazyForecast):
            assert not offer.verdict.allowed
            lazy += 1
            enemy = game.squad(option.target)
            sight = game.sight(squad, enemy)
            plan = shooting.plan_fire(game, squad, enemy, sight, option.weapons)
            assert plan is not None
            assert _fields(forecast) == _fields(fire_forecast(plan.group, plan.target))
        if option == Act(Kind.GO_TO_GROUND):
            seen_by = sum(1 for e in game.enemies(squad) if game.sees(e, squad))
            test = ReactionAction.GO_TO_GROUND_OTHER if game.in_cover(squad) else OPEN
            threat = reaction_threat(test)
            eager = ground_forecast(squad.die, squad.leadership, threat, squad.berserk, seen_by)
            assert _fields(forecast) == _fields(eager)
        if option == Act(Kind.NO_STEP_BACK):
            eager = stand_forecast(menu.stand(game, squad), len(squad.men()))
            assert _fields(forecast) == _fields(eager)
            assert isinstance(forecast, LazyForecast) is not offer.verdict.allowed
    return lazy


def test_SW_FIRE_05_SW_FIRE_07_SW_NSN_01_lazy_odds_along_a_whole_demo_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Along a demo game (default bots: every menu built, none of its odds read), each
    refused fire and «Ни шагу назад!» test measures, when read, the very odds an eager
    menu held; the game is unchanged by the reading."""
    built = menu.build
    checked: list[int] = []

    def build(game: Any, squad: Any, done: Any, *, passed: bool = False) -> Any:
        checked.append(_check(game, squad, done, passed))
        return built(game, squad, done, passed=passed)

    monkeypatch.setattr(actions, "build", build)
    session = GameSession(load_scenario("steel_war.demo"), 2)
    session.advance()
    assert session.finished and len(checked) > 50 and sum(checked) > 10


def test_SW_FIRE_05_a_suppressed_squad_is_refused_the_same_fires_it_would_be_offered() -> None:
    """A suppressed squad (SW-SUP-01) is refused every fire it could make otherwise, each
    set of weapons at each target within zone 5 (SW-FIRE-05/06), its odds left unread."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", (6.0, 4.0), weapons=(("assault_rifle", 3), ("lmg", 1))),
                unit("l", "lianra", (6.0, 14.5)),
                unit("far", "lianra", (6.0, 66.0)),  # 62" off: beyond zone 5 of a d8
            ],
            height=70,
        )
    )
    free = offered(game, "s")
    fires = [o.option for o in free.menu.offers if isinstance(o.option, Fire)]
    game.squad("s").markers = 1
    refused = [o for o in offered(game, "s").menu.refused if isinstance(o.option, Fire)]
    assert [o.option for o in refused] == fires and len(fires) == 3
    assert all(isinstance(o.forecast, LazyForecast) for o in refused)
    first = next(o.forecast for o in free.menu.offers if o.option == fires[0])
    assert _fields(refused[0].forecast) == _fields(first)


def test_a_squad_s_shape_names_its_anchor() -> None:
    """Measurements kept under a squad's shape read its anchor (where it sees from): the
    shape changes with it — the commander down, the next fighting model; none left,
    where the commander fell."""
    game = new_game(scenario([unit("s", "steel", (6.0, 4.0)), unit("l", "lianra", (6.0, 14.5))]))
    squad = game.squad("s")
    seen = {game.shape(squad): squad.anchor().centre}
    for model in squad.models:
        model.status = Status.KILLED
        shape, anchor = game.shape(squad), squad.anchor().centre
        assert seen.setdefault(shape, anchor) == anchor
    assert len(seen) == len(squad.models) + 1
    assert anchor == squad.model(squad.commander).point
    squad.models[0].x += 1.0  # (the fallen commander's marker moved: another shape)
    assert game.shape(squad) not in seen


def test_what_a_menu_keeps_is_what_is_measured_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Along a demo game, every answer the board keeps while a menu is measured — kept
    for the menu, or for the battle under where the squads stand — equals the same
    question measured afresh: distances, sight and cover, who stands in cover, the
    nearest enemy, the unit's kind and situation (SW-FIRE-06/08, SW-MOVE-03)."""
    built = menu.build
    asked: list[int] = []

    def build(game: Any, squad: Any, done: Any, *, passed: bool = False) -> Any:
        on_table = [s for s in game.squads if s.on_table]
        for a, b in itertools.product(on_table, repeat=2):
            if a is not b:
                assert game.distance(a, b) == inches(Tape.closest(a.bases(), b.bases()))
                assert game.sees(a, b) == any(game.tape.sees(a.anchor(), x) for x in b.bases())
                assert game.sight(a, b) == game._measure_sight(a, b)
        for a in on_table:
            assert game.in_cover(a) == game._in_cover(a)
            assert game.kind(a) == game._kind(a)
            enemies = [e for e in game.squads if e.side != a.side and e.on_table]
            assert game.enemies(a) == enemies
            gaps = [inches(Tape.closest(a.bases(), e.bases())) for e in enemies]
            nearest = min(zip(gaps, enemies, strict=True), key=lambda t: t[0]) if enemies else None
            assert game.nearest_enemy(a) == (None if nearest is None else nearest[::-1])
        assert game.situation(squad, done, passed=passed) == game._situation(squad, done, passed)
        asked.append(len(on_table))
        return built(game, squad, done, passed=passed)

    monkeypatch.setattr(actions, "build", build)
    session = GameSession(load_scenario("steel_war.demo"), 3)
    session.advance()
    assert session.finished and len(asked) > 50


def _armed_in_full(squad: Any) -> list[tuple[Any, tuple[Any, ...]]]:
    """:func:`shooting.armed` written out: every model with a weapon, a man-sized one only
    with a man of the squad to serve it, with what its weapon's verdict reads."""
    crew = bool(squad.men()) or squad.is_vehicle
    return [
        (m, (m.weapon, squad.fired.times(m.id), shooting.ground_mounted(squad, m), m.ammo))
        for m in squad.active()
        if m.weapon and (m.kind is not TargetKind.MAN_SIZED_WEAPON or crew)
    ]


def test_SW_FIRE_05_armed_reads_each_weapon_as_the_fire_rules_do() -> None:
    """A heavy machine gun team's gun stands on the ground and fires twice, the same gun
    on a vehicle once; a gun whose crew is down cannot fire (SW-FIRE-05, SW-DMG-07)."""
    game = new_game(
        scenario(
            [
                unit("hmg", "steel", (6.0, 4.0), weapons=(("assault_rifle", 2), ("hmg", 1))),
                unit("apc", "steel", (18, 4), weapons=(("hmg", 1),), vehicle="apc"),
                unit("l", "lianra", (6.0, 14.5)),
            ],
            width=30,
        )
    )
    team, apc = game.squad("hmg"), game.squad("apc")
    team.fired = team.fired.fired(team.models[2].id)
    for squad in (team, apc):
        assert shooting.armed(squad) == _armed_in_full(squad)
    assert [key[2] for _, key in shooting.armed(team)] == [False, False, True]
    assert [key[2] for _, key in shooting.armed(apc)] == [False]
    for man in team.models[:2]:
        man.status = Status.KILLED
    assert shooting.armed(team) == _armed_in_full(team) == []
