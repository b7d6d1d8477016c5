"""Charges and close combat played through with typed dice (SW-CC-01..11, SW-FIRE-07,
SW-ABSENT-07): the free fire at a charge that falls short, where the attackers end, every
man's own melee die, the morale tests after a round, frightening attackers and riders."""

from __future__ import annotations

from kubik.engine.dice import D4, D8, D10, D12
from kubik.engine.log import RollEntry
from kubik.game.battle import Posture
from kubik.rulesets.steel_war.battle import assault
from kubik.rulesets.steel_war.battle.options import Charge, Fire
from kubik.rulesets.steel_war.fire_ammo import FiredThisActivation
from kubik.rulesets.steel_war.reaction import ReactionAction
from kubik.text.i18n import render

from .builders import (
    event_ids,
    events,
    human_session,
    new_game,
    options,
    pick,
    roll,
    rolls,
    rules_in,
    scenario,
    state,
    unit,
)


def _short_charge():  # type: ignore[no-untyped-def]
    """«Стальные» charge Lianrians 11" away: the test passes, the first move is 3"."""
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16))]))
    rolls(session, 6, 1)  # the roll-off: steel first
    game = state(session)
    lianra = game.squad("l")
    lianra.fired = FiredThisActivation(tuple((m.id, 1) for m in lianra.models))
    charge = pick(session, lambda o: isinstance(o, Charge))
    assert charge.distance == 11.0
    roll(session, 4)  # the enhanced test: 4 > 2 + 1
    roll(session, 1, 2)  # the first combat move: 3", 8" still to go
    return session, game


def test_SW_CC_04_the_free_fire_is_measured_from_where_the_attackers_stopped() -> None:
    """The attackers stop 3" on (8" away); the defenders fired their rifles earlier this
    turn, yet the free action fires them again — it is not their activation — and it is
    measured from where the attackers stand: zone 1 for a d8 shooter, range die d4 (from
    the start 11" it would have been zone 2, d6)."""
    session, game = _short_charge()
    assert game.squad("s").centre == (6.0, 7.0)
    fire = pick(session, lambda o: isinstance(o, Fire))
    assert fire == Fire("s", ("assault_rifle",))
    roll(session, 1, 1)  # the pool: d8 quality, d8 for four automats
    roll(session, 4)  # the range die
    ranged = [e for e in session.log if isinstance(e, RollEntry)][-1]
    assert ranged.dice == (D4,)
    assert "SW-CC-04" in rules_in(session.log)


def test_SW_CC_04_a_defender_that_marched_in_its_own_activation_still_gets_its_free_fire() -> None:
    """The Lianrians marched in their own activation earlier this turn: a march bars
    firing in that activation (SW-MOVE-01), not the free action a short charge gives
    them outside it — the fire is offered (it was refused before)."""
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16))]))
    rolls(session, 6, 1)
    state(session).squad("l").marched = True  # (as their own march left them)
    pick(session, lambda o: isinstance(o, Charge))
    roll(session, 4)
    roll(session, 1, 2)
    fire = pick(session, lambda o: isinstance(o, Fire))
    assert fire == Fire("s", ("assault_rifle",))
    assert not events(session.log, "steel_war.game.free_fire_held")


def test_SW_CC_04_a_defender_that_holds_its_free_fire_is_said_why() -> None:
    """Held by choice, or refused by the fire rule (suppressed defenders, SW-SUP-01): the
    log says which, in both languages."""
    session, _ = _short_charge()
    pick(session, lambda o: not isinstance(o, Fire))
    held = events(session.log, "steel_war.game.free_fire_held")
    assert held and held[-1].event.kwargs["why"].id == "steel_war.game.held.chosen"
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16))]))
    rolls(session, 6, 1)
    state(session).squad("l").markers = 1
    pick(session, lambda o: isinstance(o, Charge))
    roll(session, 4)
    roll(session, 1, 2)  # short: the suppressed defenders may not fire, and the log says so
    held = events(session.log, "steel_war.game.free_fire_held")
    assert held and held[-1].event.kwargs["why"].id == "steel_war.game.held.refused"
    assert "SW-SUP-01" in held[-1].rules
    text = {lang: render(held[-1].event, lang) for lang in ("en", "ru")}
    assert "lets its free action" in text["en"] and "suppress" in text["en"]
    assert "не использует бесплатное действие" in text["ru"]


def test_SW_CC_04_a_charge_that_falls_short_again_leaves_the_attackers_where_they_stopped() -> None:
    session, game = _short_charge()
    pick(session, lambda o: not isinstance(o, Fire))  # the defenders hold their fire
    roll(session, 1, 1)  # no casualties, no test: the second combat move, 2"
    attackers = game.squad("s")
    assert attackers.centre == (6.0, 9.0)  # 5" along the way, 6" short
    short = events(session.log, "steel_war.game.charge_short")
    assert short and short[0].event.kwargs["remaining"] == 6.0
    assert not game.contacts.of("s") and game.contact_violations() == ()


def test_SW_CC_04_casualties_and_a_failed_test_send_the_attackers_back_suppressed() -> None:
    session, game = _short_charge()
    pick(session, lambda o: isinstance(o, Fire))
    # d8 8 and d8 8 against d4 1: 16 / 4 → 4 hits; d4 1, d3 1, d4 1, then the last man;
    # power d8 8 against armour 1 kills the first, 2 against 4 leaves the others unharmed
    roll(session, 8, 8)
    roll(session, 1)
    rolls(session, 1, 1, 1)
    roll(session, 8, 1)  # the first man hit: killed
    for _ in range(3):
        roll(session, 2, 4)  # the others: unharmed
    roll(session, 4)  # their commander was lost: a new one (SW-DMG-06)
    roll(session, 3)  # the second attempt: 3 ≤ 2 + 1 casualty: failed
    attackers = game.squad("s")
    assert attackers.centre == (6.0, 4.0) and attackers.markers == 1
    assert "steel_war.game.charge_repulsed" in event_ids(session.log)


def test_SW_CC_07_every_man_fights_with_his_own_die() -> None:
    """Regulars (d8) with bayonets (+1): automats roll d10, submachine guns (+1) d12; the
    defenders without bayonets: d8 with automats (SW-CC-07)."""
    game = new_game(
        scenario(
            [
                unit(
                    "s",
                    "steel",
                    (6, 4),
                    weapons=(("assault_rifle", 2), ("smg", 2)),
                    bayonets=True,
                ),
                unit("l", "lianra", (6, 6.5)),
            ]
        )
    )
    dice = [die for _, die in assault.fighters(game, game.squad("s"))]
    assert dice == [D10, D10, D12, D12]
    bouts = assault.bouts(game, game.squad("s"), game.squad("l"))
    assert [b.fighter for b in bouts] == [D10, D10, D12, D12]
    assert all(b.opponents == (D8,) for b in bouts)


def test_SW_CC_09_the_attackers_test_their_morale_though_the_defender_was_wiped_out() -> None:
    """One defender against three attackers: two attackers fall and so does he. The side
    with more casualties tests first — the attackers, threat 2 — and fall back on a
    failure though nobody is left to hold the ground (SW-CC-09)."""
    session = human_session(
        scenario(
            [
                unit("s", "steel", (6, 4), weapons=(("assault_rifle", 3),)),
                unit("l", "lianra", (6, 11), weapons=(("assault_rifle", 1),)),
            ]
        )
    )
    rolls(session, 6, 1)
    pick(session, lambda o: isinstance(o, Charge))
    roll(session, 4)  # the charge test
    roll(session, 6, 6)  # reached
    roll(session, 8)  # the defender stands
    roll(session, 6)  # the lone defender's die
    rolls(session, 1, 1, 8)  # two attackers lower: down; one higher: he falls
    roll(session, 1)  # the attackers' morale test, threat 2: 1 ≤ 4 / 2 → two levels
    roll(session, 5)  # the defender's fate: unhurt, back on his feet (his side held)
    rolls(session, 1, 1)  # the two attackers: killed
    roll(session, 4)  # their commander among them: a new one (SW-DMG-06)
    tests = events(session.log, "steel_war.close_combat.morale")
    assert tests and tests[0].event.kwargs["side"].value == "attacker"
    assert "steel_war.close_combat.wiped_out" not in event_ids(session.log)
    fell = events(session.log, "steel_war.game.fell_back")
    assert fell and fell[0].event.kwargs["squad"].kwargs["en"] == "s"
    # the defender took two attackers out for good; he was back on his feet: no kill
    kills = {u.unit: u.kills for u in state(session).unit_results()}
    assert kills == {"s": 0, "l": 2}


def test_SW_FIRE_07_a_squad_gone_to_ground_charges_after_its_getting_up_test() -> None:
    """The charge is offered with the test for moving without getting up, taken first; then
    the charge's own test (SW-REACT-02)."""
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 12))]))
    state(session).squad("s").posture = Posture.PRONE
    rolls(session, 6, 1)
    charge = pick(session, lambda o: isinstance(o, Charge))
    assert charge.tests == (ReactionAction.MOVE_WHILE_DOWN,)
    roll(session, 5)  # 5 > 2 + 2: up and going
    roll(session, 4)  # the charge test
    reasons = [e.reason.id for e in session.log if isinstance(e, RollEntry)]
    assert reasons[-2:] == ["steel_war.reaction_test.roll", "steel_war.charge.test"]
    assert not state(session).squad("s").prone


def test_SW_ABSENT_07_SW_CC_11_riders_charge_with_blades() -> None:
    """Six riders «в клинки» count as twelve against four (+3) and are frightening: doubled
    to 6 (SW-CC-05, SW-CC-11); the regulars they charge take a panic test (SW-PANIC-02);
    mounted on open ground each rider fights two steps better (d8 → d12, SW-CC-07)."""
    game = new_game(
        scenario(
            [
                unit(
                    "r",
                    "steel",
                    (6, 4),
                    weapons=(("pistol", 6),),
                    kind="cavalry",
                    bayonets=True,
                ),
                unit("l", "lianra", (6, 12)),
            ]
        )
    )
    riders, defenders = game.squad("r"), game.squad("l")
    assert assault.frightening(riders, charging=True)
    assert assault.defender_threat(game, riders, defenders) == 6
    assert {d for _, d in assault.fighters(game, riders)} == {D12}
    assert any(isinstance(o, Charge) for o in options(game, "r"))


def test_SW_CC_01_robots_bronescafs_and_vehicles_neither_charge_nor_are_charged() -> None:
    game = new_game(
        scenario(
            [
                unit("s", "steel", (6, 4)),
                unit("b", "steel", (18, 4), kind="bronescaf"),
                unit("r", "lianra", (6, 12), kind="robot"),
            ]
        )
    )
    assert not any(isinstance(o, Charge) for o in options(game, "s"))
    assert not any(isinstance(o, Charge) for o in options(game, "b"))
    verdicts = [v for _, v, _ in assault.charge_offers(game, game.squad("s"), ())]
    assert verdicts and all(not v.allowed and "SW-CC-01" in v.rules for v in verdicts)
