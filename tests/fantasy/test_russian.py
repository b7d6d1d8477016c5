"""Warhammer Fantasy in Russian, as a Russian player writes it: the seed's own words
(«гномы», «спас-бросок за доспехи», «умение драться (WS)»), names declined, a single
monster not called a regiment, the sides of a round named, not lettered."""

from __future__ import annotations

import re

import pytest

from kubik.engine import msg
from kubik.game import GameSession, load_scenario
from kubik.game.turns import side_name
from kubik.rulesets.fantasy.battle.game import FantasyBattle
from kubik.rulesets.fantasy.combat_sides import SIDE_NAMES
from kubik.text.i18n import render

#: What a Russian player would never write in these narrations.
WRONG = (
    "дварф",  # the seed says «гномы»
    "сторона a",
    "сторона b",  # Latin letters for the sides of a round
    "неспасённ",
    "семени",  # a random seed is no plant
    "спасброс",  # the seed writes «спас-бросок»
    "Мастерство рукопашной",  # the seed says «умение драться (WS)»
    "отряд «речной тролль»",  # a single monster is no regiment
    "ран}",
)


@pytest.mark.parametrize("scenario", ["fantasy.barrow", "fantasy.demo"])
def test_a_battle_narrated_in_russian_has_none_of_the_wrong_words(scenario: str) -> None:
    session = GameSession(load_scenario(scenario), 2, controllers={})
    session.advance()
    text = "\n".join(session.narrate("ru"))
    for wrong in WRONG:
        assert wrong not in text, wrong
    assert not re.search(r"\b1 и 1 ран\b", text)
    if scenario == "fantasy.barrow":
        assert "ход гномов" in text


def _names(scenario: str) -> FantasyBattle:
    return FantasyBattle(load_scenario(scenario), {})


def test_names_are_declined_as_the_sentence_wants() -> None:
    barrow = _names("fantasy.barrow")
    fight = msg(
        "fantasy.game.fight", a=barrow.name("longbeards"), b=barrow.name("slayers"), round=1
    )
    assert render(fight, "ru") == "ближний бой, раунд 1: Длиннобородые против Истребителей"
    demo = _names("fantasy.demo")
    troll = msg("fantasy.game.moved", unit=demo.name("troll"), inches=5.0)
    assert render(troll, "ru").startswith("Речной тролль проходит")
    charge = msg("fantasy.game.charge", unit=demo.name("knights"), target=demo.name("troll"))
    assert render(charge, "ru") == "Рыцари атакуют речного тролля"
    turn = msg("fantasy.game.player_turn", side=side_name(barrow.scenario, "dwarfs"))
    assert render(turn, "ru").startswith("ход гномов")


def test_the_sides_of_a_round_are_named_in_russian_words() -> None:
    strike = msg("fantasy.combat.strike", side=SIDE_NAMES["a"], attacks=3)
    assert render(strike, "ru") == "Первая сторона наносит 3 удара"
    result = msg("fantasy.combat.result", a_side=SIDE_NAMES["a"], a=2, b_side=SIDE_NAMES["b"], b=1)
    assert render(result, "ru") == "результат боя: первая сторона — 2, вторая сторона — 1"
    assert "спас-броски за доспехи" in render(msg("fantasy.attacks.armour", dice=2, needed=5), "ru")
    assert "умение драться (WS)" in render(msg("fantasy.nerve.afraid"), "ru")
    assert render(msg("fantasy.attacks.result", wounds=1), "ru") == "после спас-бросков: 1 рана"
    assert render(msg("fantasy.duel.goes_on", dealt=1, taken=1), "ru") == (
        "поединок продолжается: в этом раунде вызвавший нанёс 1 рану и получил 1"
    )
