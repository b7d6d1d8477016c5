"""Fire in a battle, played with typed dice: which weapons fire together or apart, every
hit allocated before each model's own armour test, what each kind of model rolls and what
a hit does to it (SW-FIRE-05/14/15, SW-DMG-02..11, SW-PSI-03, SW-SUP-01)."""

from __future__ import annotations

from kubik.engine.dice import D8, D10
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle import shooting
from kubik.rulesets.steel_war.battle.options import Disembark, Fire
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.damage import TargetKind
from kubik.rulesets.steel_war.threat import Trigger

from .builders import events, new_game, offered, options, play, rules_in, scenario, unit

#: Four regulars in a row 9.5" from four more: zone 2 of a d8, range die d6.
ROW = (6.0, 4.0)
TARGET = (6.0, 14.5)


def _fire(game, shooter: str, target: str, weapons: tuple[str, ...], *dice: int):  # type: ignore[no-untyped-def]
    return play(shooting.fire, (game, game.squad(shooter), game.squad(target), weapons), *dice)


def test_SW_DMG_02_SW_DMG_03_every_hit_is_allocated_before_any_armour_test() -> None:
    """Pool d8 + d8 rolls 8, 8 against the range die d6's 1: 16 / 6 → three hits. They land
    on models first (d4 of four, then d3 of three, then d4 of two, counting from the left),
    then each model rolls its own armour test: the commander wounded, the next man killed,
    the third unharmed — so the narration can never say a man was hit twice or contradict
    itself. The lost commander is replaced (SW-DMG-06) and the squad tests morale."""
    game = new_game(scenario([unit("s", "steel", ROW), unit("l", "lianra", TARGET)]))
    run = _fire(game, "s", "l", ("assault_rifle",), 8, 8, 1, 1, 1, 1, 5, 4, 8, 2, 1, 4, 4, 8)
    assert run.result is not None
    log = run.result.log
    order = [
        "hit" if isinstance(e, EventEntry) and e.event.id == "steel_war.allocate.hit" else "armour"
        for e in log
        if (isinstance(e, EventEntry) and e.event.id == "steel_war.allocate.hit")
        or (isinstance(e, RollEntry) and e.reason.id == "steel_war.armour_test.roll")
    ]
    assert order == ["hit", "hit", "hit", "armour", "armour", "armour"]
    squad = game.squad("l")
    assert [m.status for m in squad.models] == [
        Status.UNVERIFIED,
        Status.KILLED,
        Status.ACTIVE,
        Status.ACTIVE,
    ]
    assert squad.commander == "l.3" and squad.markers == 1
    assert {"SW-DMG-01", "SW-DMG-02", "SW-DMG-03", "SW-DMG-06", "SW-DMG-11"} <= rules_in(log)
    # the shooters took two men out of the fight: their kills, the target's losses
    results = {u.unit: u for u in game.unit_results()}
    assert (results["s"].kills, results["l"].lost, results["l"].kills) == (2, 2, 0)


def test_SW_FIRE_05_a_squad_splits_its_weapons_and_each_fires_once() -> None:
    """Automats and a light machine gun: all together, the automats alone, or the machine gun
    alone; what fired is spent for the activation, what was held back still fires."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", ROW, weapons=(("assault_rifle", 3), ("lmg", 1))),
                unit("l", "lianra", TARGET),
            ]
        )
    )
    fires = [o for o in options(game, "s") if isinstance(o, Fire)]
    assert {o.weapons for o in fires} == {("assault_rifle", "lmg"), ("assault_rifle",), ("lmg",)}
    run = _fire(game, "s", "l", ("assault_rifle",), 1, 1, 6)  # no effect
    assert run.finished
    later = [o for o in options(game, "s", (ActionType.SHOOT,)) if isinstance(o, Fire)]
    assert [o.weapons for o in later] == [("lmg",)]
    again = _fire(game, "s", "l", ("lmg",), 1, 1, 6)
    assert again.result is not None and "SW-FIRE-05" in rules_in(again.result.log)


def test_SW_FIRE_05_a_heavy_weapon_set_up_on_the_ground_fires_twice() -> None:
    """A heavy machine gun team's gun joins a second fire in the same activation; the same
    gun on a vehicle fires once (may_fire_weapon with ground_mounted)."""
    game = new_game(
        scenario(
            [
                unit("hmg", "steel", ROW, weapons=(("assault_rifle", 2), ("hmg", 1))),
                unit("apc", "steel", (18, 4), weapons=(("hmg", 1),), vehicle="apc"),
                unit("l", "lianra", TARGET),
            ],
            width=30,
        )
    )
    _fire(game, "hmg", "l", ("assault_rifle", "hmg"), 1, 1, 1, 6)
    again = [o for o in options(game, "hmg", (ActionType.SHOOT,)) if isinstance(o, Fire)]
    assert [o.weapons for o in again] == [("hmg",)]
    _fire(game, "apc", "l", ("hmg",), 1, 1, 6)
    assert not [o for o in options(game, "apc", (ActionType.SHOOT,)) if isinstance(o, Fire)]


def test_SW_FIRE_14_a_sniper_firing_alone_chooses_his_victim() -> None:
    """Veteran sniper (d10) alone, 12" away (zone 2, range die d6): d10 + d4 (rate 1); with
    hits the owner picks the model —
    a decision of the shooter's side, labelled by the models' names."""
    game = new_game(
        scenario(
            [
                unit(
                    "snipers",
                    "steel",
                    ROW,
                    weapons=(("sniper_rifle", 1), ("assault_rifle", 1)),
                    quality="veterans",
                ),
                unit("l", "lianra", (6, 17)),
            ]
        )
    )
    assert Fire("l", ("sniper_rifle",)) in options(game, "snipers")
    # d10 10 and d4 4 beat 1: 14 / 6 → two hits, each on the model the owner picks (the
    # first on offer: the commander, then the next); 10 against 1 kills, 1 against 4 does not
    run = _fire(game, "snipers", "l", ("sniper_rifle",), 10, 4, 1, 10, 1, 1, 4, 4, 8)
    assert run.result is not None
    chosen = [e for e in run.result.log if isinstance(e, ChoiceEntry)]
    assert chosen and chosen[0].side == "steel" and "SW-FIRE-14" in chosen[0].rules
    assert chosen[0].label is not None
    assert game.squad("l").model(chosen[0].answer).status is Status.KILLED  # type: ignore[arg-type]


def test_SW_FIRE_15_a_grenade_launcher_has_three_shots() -> None:
    game = new_game(
        scenario(
            [
                unit("g", "steel", ROW, weapons=(("rifle", 1), ("grenade_launcher", 1))),
                unit("l", "lianra", TARGET),
            ]
        )
    )
    for _ in range(3):
        run = _fire(game, "g", "l", ("grenade_launcher",), 1, 1, 6)
        assert run.result is not None and "SW-FIRE-15" in rules_in(run.result.log)
        game.squad("g").new_activation()
    assert not any(
        "grenade_launcher" in o.weapons for o in options(game, "g") if isinstance(o, Fire)
    )


def test_SW_SUP_01_a_suppressed_vehicle_still_fires_but_lets_nobody_out() -> None:
    """«Подавленная техника не может совершать никаких действий, которые потребуют от
    экипажа или десанта выйти наружу»: firing does not."""
    game = new_game(
        scenario(
            [
                unit("apc", "steel", ROW, weapons=(("hmg", 1),), vehicle="apc"),
                unit("riders", "steel", ROW, aboard="apc"),
                unit("l", "lianra", (6, 18)),
            ]
        )
    )
    game.squad("apc").markers = 2
    menu = offered(game, "apc").menu
    assert any(isinstance(o, Fire) for o in menu.options)
    refused = [o for o in menu.refused if isinstance(o.option, Disembark)]
    assert refused and "SW-SUP-01" in refused[0].verdict.rules


def test_SW_DMG_04_SW_DMG_10_SW_PSI_03_each_model_rolls_its_own_armour() -> None:
    """A bronescaf rolls d10, a robot d8, a psionic his psi die against aimed fire, a man d4."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", ROW, quality="elite"),
                unit("b", "lianra", TARGET, kind="bronescaf", weapons=(("rifle", 1),)),
                unit("r", "lianra", (16, 14.5), kind="robot", weapons=(("lmg", 1),)),
                unit(
                    "p",
                    "lianra",
                    (26, 14.5),
                    weapons=(("pistol", 1),),
                    psionic={"psi": "master", "faction": "barf_jat"},
                ),
            ],
            width=32,
        )
    )
    dice = {}
    for target in ("b", "r", "p"):
        run = _fire(game, "s", target, ("assault_rifle",), 12, 8, 1, 1, 1, 8)
        assert run.result is not None
        armour = [
            e
            for e in run.result.log
            if isinstance(e, RollEntry) and e.reason.id == "steel_war.armour_test.roll"
        ]
        dice[target] = armour[0].dice[1]
        game.squad("s").new_activation()
    assert dice == {"b": D10, "r": D8, "p": D8}
    assert game.squad("b").models[0].kind is TargetKind.BRONESCAF  # power 1 ≤ armour 1
    assert "SW-PSI-03" in rules_in(run.result.log)


def test_SW_DMG_03_a_wounded_bronescaf_loses_his_suit_and_fights_on_as_a_man() -> None:
    game = new_game(
        scenario(
            [
                unit("s", "steel", ROW, quality="elite", weapons=(("improved_assault_rifle", 4),)),
                unit("b", "lianra", TARGET, kind="bronescaf", weapons=(("rifle", 1),)),
            ]
        )
    )
    _fire(game, "s", "b", ("improved_assault_rifle",), 12, 8, 1, 9, 4, 8)
    model = game.squad("b").models[0]
    assert model.status is Status.ACTIVE and model.kind is TargetKind.MAN


def test_SW_DMG_07_a_man_sized_weapon_is_a_model_and_not_a_casualty() -> None:
    """Two men and their heavy machine gun are three models for the hits; the gun rolls d8
    and a wound destroys it — no casualty for the morale test."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", ROW, quality="elite"),
                unit("h", "lianra", TARGET, weapons=(("rifle", 2), ("hmg", 1))),
            ]
        )
    )
    team = game.squad("h")
    assert [m.kind for m in team.models] == [
        TargetKind.MAN,
        TargetKind.MAN,
        TargetKind.MAN_SIZED_WEAPON,
    ]
    # d12 + d8 (rate 8) against d6: 12 and 8 beat 1 → 20 / 6 → 3 hits; d3 rolls 3 → the gun;
    # d4 of the two men: 1 and then the last one; power d8 5 against the gun's d8 4: destroyed.
    run = _fire(game, "s", "h", ("assault_rifle",), 12, 8, 1, 3, 1, 5, 4, 1, 4, 1, 4, 8)
    assert run.result is not None
    armour = [
        e
        for e in run.result.log
        if isinstance(e, RollEntry) and e.reason.id == "steel_war.armour_test.roll"
    ]
    assert armour[0].dice == (D8, D8)
    assert team.models[2].status is Status.DESTROYED
    assert [m.status for m in team.models[:2]] == [Status.ACTIVE, Status.ACTIVE]
    tests = events(run.result.log, "steel_war.game.morale_event")
    assert tests and Trigger.CASUALTIES not in tests[0].event.kwargs["triggers"]
    assert "SW-DMG-07" in rules_in(run.result.log)


def test_SW_DMG_05_a_lost_machine_gunner_takes_his_machine_gun_with_him() -> None:
    game = new_game(
        scenario(
            [
                unit("s", "steel", ROW, quality="elite"),
                unit("l", "lianra", TARGET, weapons=(("rifle", 1), ("lmg", 1))),
            ]
        )
    )
    # 12 + 8 against 1: 20 / 6 → 3 hits on 2 men; d4 rolls 3 → the gunner, then the other;
    # power 8 against armour 1: killed; 1 against 4: unharmed.
    run = _fire(game, "s", "l", ("assault_rifle",), 12, 8, 1, 3, 8, 1, 1, 4, 8)
    assert run.result is not None
    lost = events(run.result.log, "steel_war.game.specialist_lost")
    assert lost and lost[0].rules == ("SW-DMG-05",)
    assert not any("lmg" in o.weapons for o in options(game, "l") if isinstance(o, Fire))


def test_SW_DMG_09_a_keno_backpack_flamethrower_explodes_when_its_bearer_is_hit() -> None:
    """The lone bearer is hit: no armour test, he dies, and every model within 4" — his own
    side's and the enemy's — takes a flamethrower hit (power d12, at least wounded)."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", ROW, quality="elite"),
                unit("k", "lianra", TARGET, weapons=(("flamethrower_keno", 1),), keno_guard=True),
                unit("f", "lianra", (10.5, 14.5), weapons=(("rifle", 1),)),
                unit("far", "lianra", (20, 22)),
            ],
            width=30,
        )
    )
    # 12 + 8 against 1: a hit on the lone bearer (no roll, no armour test); then his friend
    # 3.5" away: the flamethrower's d12 12 against d4 1 → killed. Both one-man squads are gone.
    run = _fire(game, "s", "k", ("assault_rifle",), 12, 8, 1, 12, 1)
    assert run.result is not None
    explosion = events(run.result.log, "steel_war.game.explosion")
    assert explosion and explosion[0].event.kwargs["victims"] == 1
    assert game.squad("k").models[0].status is Status.KILLED
    assert game.squad("f").models[0].status is Status.KILLED
    assert all(m.status is Status.ACTIVE for m in game.squad("far").models)
    assert {"SW-DMG-09", "SW-DMG-08"} <= rules_in(run.result.log)
    # the explosion's victim is the shooters' kill too: their fire set it off
    assert {u.unit: u.kills for u in game.unit_results()}["s"] == 2


def test_a_fire_s_odds_do_not_depend_on_the_rules_that_made_its_dice() -> None:
    """The fire action's exact odds are kept once for every set of rule ids of its
    dice (``odds_by``): the same distribution, enumerated once."""
    from dataclasses import replace

    from kubik.engine import OddsCache, OddsDriver
    from kubik.engine.dice import D4, D6, D8
    from kubik.rulesets.steel_war.fire import FireGroup, FireTarget, fire_action

    group = FireGroup((D8, D8, D6), D8)
    target = FireTarget(D6, D4, 5)
    cache = OddsCache()
    plain = OddsDriver(cache=cache).distribution(fire_action, (group, target))
    kept = len(cache.calls)
    named = OddsDriver(cache=cache).distribution(
        fire_action,
        (replace(group, rules=("SW-FIRE-01", "SW-FIRE-13")), replace(target, range_rules=())),
    )
    assert named == plain
    assert len(cache.calls) == kept  # nothing enumerated again
    assert named == OddsDriver().distribution(
        fire_action, (replace(group, rules=("SW-FIRE-01",)), target)
    )
