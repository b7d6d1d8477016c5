"""Officers and what they see: passing an action over the radio (SW-ABSENT-01/04), the
communication test and telepathy (SW-MOR-09, SW-PSI-04), observation and spotting
(SW-ABSENT-03), coherency (SW-ABSENT-09)."""

from __future__ import annotations

from kubik.engine.log import ChoiceEntry, EventEntry
from kubik.game.battle import Posture
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle import actions, effects, shooting, spotting
from kubik.rulesets.steel_war.battle.menu import build
from kubik.rulesets.steel_war.battle.options import (
    Act,
    Charge,
    Fire,
    Inspire,
    Kind,
    Observe,
    PassAction,
)
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.morale_levels import MoraleLevel

from .builders import events, new_game, offered, options, play, rules_in, scenario, unit

WALL = """
[[terrain]]
id = "wall"
kind = "impassable"
blocks_los = true
points = [[0, 14], [24, 14], [24, 16], [0, 16]]
"""
OFFICER = {"officer": True, "quality": "veterans", "leadership": 1}
KENO_PSI = {"psi": "student", "faction": "keno"}


def _command(officer: dict[str, object], squad: dict[str, object], **kwargs: object):  # type: ignore[no-untyped-def]
    return new_game(
        scenario(
            [
                unit("hq", "steel", (18, 3), (("pistol", 1),), commands=("s",), **officer),
                unit("s", "steel", (4, 3), **squad),
                unit("e", "lianra", (12, 30)),
            ],
            terrain=WALL,
            height=36,
            **kwargs,
        )
    )


def test_SW_ABSENT_01_SW_PSI_04_two_psionics_pass_an_action_by_telepathy() -> None:
    """The officer and the squad each have a psionic: no radio, 10" apart, yet they always
    get through (SW-PSI-04); the squad takes one more action at once, by its own menu."""
    game = _command({**OFFICER, "psionic": KENO_PSI}, {"psionic": KENO_PSI})
    assert PassAction("s") in options(game, "hq")
    run = play(actions.pass_action, (game, game.squad("hq"), game.squad("s")))
    assert run.result is not None
    log = run.result.log
    assert [e.event.id for e in log if isinstance(e, EventEntry)][:3] == [
        "steel_war.game.communicate",
        "steel_war.communication.telepathic",
        "steel_war.game.passed_action",
    ]
    passed = [e for e in log if isinstance(e, ChoiceEntry)]
    assert passed and passed[0].reason.id == "steel_war.game.choose_passed"
    assert {"SW-ABSENT-01", "SW-ABSENT-04", "SW-PSI-04"} <= rules_in(log)


def test_SW_MOR_09_SW_ABSENT_04_on_the_radio_the_communication_test_decides() -> None:
    """Radios on both sides, 10" apart: the officer's d10 must beat the worse leadership
    (2); a 2 fails and the action is lost."""
    game = _command({**OFFICER, "radio": True}, {"radio": True})
    run = play(actions.pass_action, (game, game.squad("hq"), game.squad("s")), 2)
    assert run.result is not None
    assert events(run.result.log, "steel_war.game.no_contact")
    assert not [e for e in run.result.log if isinstance(e, ChoiceEntry)]


def test_SW_MOR_08_SW_ABSENT_01_no_contact_no_inspiration_nor_passed_action() -> None:
    """Without radios and more than 6" away an officer reaches his squad only by telepathy
    between two psionics (SW-PSI-04)."""
    deaf = _command(OFFICER, {})
    deaf.squad("s").level = MoraleLevel.SHAKEN
    menu = offered(deaf, "hq").menu
    assert Inspire("s") not in menu and PassAction("s") not in menu
    refused = {type(o.option).__name__: o.verdict for o in menu.refused}
    assert "SW-MOR-08" in refused["Inspire"].rules and "SW-ABSENT-01" in refused["PassAction"].rules
    minds = _command({**OFFICER, "psionic": KENO_PSI}, {"psionic": KENO_PSI})
    minds.squad("s").level = MoraleLevel.SHAKEN
    assert Inspire("s") in options(minds, "hq")


def test_SW_ABSENT_01_a_passed_action_is_never_a_whole_activation_act() -> None:
    """An action passed by the commander is outside the squad's own two, so it is never a
    charge or an unloading, which take a whole activation."""
    game = new_game(
        scenario(
            [
                unit("hq", "steel", (18, 3), (("pistol", 1),), commands=("s",), **OFFICER),
                unit("s", "steel", (4, 3)),
                unit("e", "lianra", (4, 10)),
            ]
        )
    )
    assert any(isinstance(o, Charge) for o in options(game, "s"))
    passed = build(game, game.squad("s"), (), passed=True).menu
    refused = [o.verdict for o in passed.refused if isinstance(o.option, Charge)]
    assert refused and "SW-ABSENT-01" in refused[0].rules
    assert not any(isinstance(o, PassAction) for o in passed.options)


def test_SW_ABSENT_03_a_hiding_squad_is_fired_at_only_once_spotted() -> None:
    """Gone to ground, the Lianrians hide: the fire rule refuses a fire at them until an
    observation — the quality die against their range die — spots them; then the side may
    fire at them until the turn ends, and a squad that fires gives itself away."""
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 14.5))]))
    hiding = game.squad("l")
    hiding.posture = Posture.PRONE
    menu = offered(game, "s").menu
    refused = [o for o in menu.refused if isinstance(o.option, Fire)]
    assert refused and "SW-ABSENT-03" in refused[0].verdict.rules
    assert Observe("l") in menu
    run = play(spotting.observation, (game, game.squad("s"), Observe("l")), 8, 2)  # d8 vs d8
    assert run.result is not None and "steel" in hiding.spotted_by
    assert any(isinstance(o, Fire) for o in options(game, "s", (ActionType.OBSERVE,)))
    hiding.new_turn()
    assert not hiding.spotted_by and game.hidden(hiding)
    play(shooting.fire, (game, hiding, game.squad("s"), ("assault_rifle",)), 1, 1, 6)
    assert hiding.revealed and not game.hidden(hiding)


def test_SW_ABSENT_09_a_squad_out_of_coherency_regroups_by_reorganising() -> None:
    """Losses leave a man more than 2" from any other: the squad is out of coherency; only
    reorganising regroups it around its commander."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", (6, 4), weapons=(("assault_rifle", 8),)),
                unit("l", "lianra", (6, 30)),
            ],
            height=36,
        )
    )
    squad = game.squad("s")
    squad.shift((6, 4))
    squad.models[7].x += 3.0  # the last man strays
    for model in squad.models[1:7]:
        model.status = Status.KILLED
    run = play(effects.coherency_check, (game, squad))
    assert run.result is not None and run.result.outcome is False
    assert events(run.result.log, "steel_war.game.out_of_coherency")
    assert Act(Kind.REORGANISE) in options(game, "s")
    play(actions.regroup, (game, squad))
    assert effects.breaches(squad) == ()
