"""Rules a battle applies on real models and squads, each one function on plain values,
checked with the seed's own numbers (issue 9 §3/§4).

Hits allocated first, then each model's own armour test (SW-DMG-02/03/04/07/09/10,
SW-PSI-03); melee dice per fighter and the morale test when a side is wiped out
(SW-CC-06..09); splitting fire and the lone sniper (SW-FIRE-04/05/13/14); the charge's
one-place rules (SW-CC-04/05/11); entering berserk (SW-NSN-03); recruits' panic at
armour (SW-PANIC-02); telepathic communication (SW-PSI-04).
"""

from __future__ import annotations

from kubik.engine import TableSession
from kubik.engine.dice import D3, D4, D6, D8, D10, D12
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.rulesets.steel_war.charge import (
    charged_squad_threat,
    fire_casualties,
    is_frightening,
    same_charge_distance,
)
from kubik.rulesets.steel_war.core import Quality
from kubik.rulesets.steel_war.damage import HitEffect, Injury, TargetKind
from kubik.rulesets.steel_war.damage_models import Hit, ModelHit, TargetModel, hits_on_models
from kubik.rulesets.steel_war.fire import (
    Cover,
    Effect,
    FireOutcome,
    ModelsFireOutcome,
    compose_group,
    fire_on_models,
    fire_target,
    may_fire_weapon,
)
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.inspiration import CommunicationOutcome, Contact, communication_test
from kubik.rulesets.steel_war.melee_fighters import Fighter, Side
from kubik.rulesets.steel_war.melee_morale import SideMorale, round_morale
from kubik.rulesets.steel_war.melee_pairing import pair_fighters
from kubik.rulesets.steel_war.melee_round import RoundLosses, melee_round
from kubik.rulesets.steel_war.morale_levels import Motivation
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.no_step_back import enter_berserk, test_die
from kubik.rulesets.steel_war.panic import PanicEvent, counts_as_armour, panic_on_sight

PARTISANS = tuple(TargetModel(name, in_cover=True) for name in ("commander", *"abcdefghi"))


def _events(session: TableSession) -> list[str]:
    assert session.result is not None
    return [e.event.id for e in session.result.log if isinstance(e, EventEntry)]


# --- hits on real models ----------------------------------------------------------------


def test_SW_DMG_02_SW_DMG_03_worked_example_the_partisan_commander_is_wounded() -> None:
    """«Стальные» recruits (к6) fire the «Универсал» (к8) at ten partisans in a light house,
    gone to ground, 10" away (к10): 3 and 6 against 2 — one potential casualty (14/10);
    «бросаем к10, и отсчитываем с левого края … Это оказывается командир!»; power к10 rolls
    5 against his armour к4 rolling 4: «Командир ранен!». The hit lands on the model first,
    then his own armour test — in that order."""
    group = compose_group(D6, [(weapon("lmg"), 1)])
    target = fire_target(D6, 10, True, Cover.LIGHT, D4, len(PARTISANS))
    assert (group.pool, target.range_die) == ((D6, D8), D10)
    session = TableSession(fire_on_models, (group, target, PARTISANS))
    session.supply([3, 6, 2, 1, 5, 4])
    assert session.result is not None
    wounded = ModelHit(
        "commander", HitEffect.UNVERIFIED_CASUALTY, Injury.WOUNDED, TargetKind.MAN, True
    )
    assert session.result.outcome == ModelsFireOutcome(Effect.HITS, 1, (wounded,))
    order = [
        e.event.id if isinstance(e, EventEntry) else e.reason.id
        for e in session.result.log
        if isinstance(e, EventEntry | RollEntry)
    ]
    assert order.index("steel_war.allocate.hit") < order.index("steel_war.armour_test.roll")
    assert order.index("steel_war.armour_test.roll") < order.index("steel_war.hit.result")
    rolls = [e for e in session.result.log if isinstance(e, RollEntry)]
    assert rolls[2].dice == (D10,) and "SW-DMG-02" in rolls[2].rules  # the allocation die
    assert {"SW-DMG-03", "SW-DMG-04"} <= set(rolls[3].rules)


def test_SW_DMG_04_SW_PSI_03_each_model_rolls_its_own_armour() -> None:
    """A bronescaf's к10, and a psionic's psi die «вместо обычного к4» against aimed small
    arms (SW-PSI-03); a wounded bronescaf «потерял бронескаф, и стал просто человеком»."""
    models = (TargetModel("suit", TargetKind.BRONESCAF), TargetModel("psi", psi=D8))
    session = TableSession(hits_on_models, (2, models, Hit(D10)))
    session.supply([1, 5, 3, 2, 5])  # d4 picks the suit first; then suit 5 v 3; psi 2 v 5
    assert session.result is not None
    suit, psi = session.result.outcome
    assert (suit.model, suit.effect, suit.after, suit.casualty) == (
        "suit",
        HitEffect.LOSES_SUIT,
        TargetKind.MAN,
        False,
    )
    assert (psi.model, psi.effect) == ("psi", HitEffect.NONE)
    armour_rolls = [e for e in session.result.log if isinstance(e, RollEntry)][1:]
    assert [r.dice for r in armour_rolls] == [(D10, D10), (D10, D8)]
    assert "SW-PSI-03" in armour_rolls[1].rules
    frag = Hit(D6, fragmentation=True, aimed=False)
    session = TableSession(hits_on_models, (1, (TargetModel("psi", psi=D8),), frag))
    session.supply([6, 4])
    assert session.result is not None
    assert next(e for e in session.result.log if isinstance(e, RollEntry)).dice == (D6, D4)


def test_SW_DMG_07_the_hmg_counts_as_a_third_man_with_armour_d8() -> None:
    """«если в расчёте станкового пулемёта два человека и сам пулемёт, то … как если было
    бы три человека, и, если попадают в пулемёт, то у него броня к8 … «ранен» считается как
    «разрушен». Разрушенное такое оружие «потерей» … не считается»."""
    crew = (TargetModel("m1"), TargetModel("m2"), TargetModel("gun", TargetKind.MAN_SIZED_WEAPON))
    session = TableSession(hits_on_models, (1, crew, Hit(D10)))
    session.supply([3, 9, 4])  # d3 over three models: 3 → the third, the gun; 9 v 4
    assert session.result is not None
    (gun,) = session.result.outcome
    assert (gun.model, gun.effect, gun.after, gun.casualty) == (
        "gun",
        HitEffect.DESTROYED,
        None,
        False,
    )
    rolls = [e for e in session.result.log if isinstance(e, RollEntry)]
    assert rolls[1].dice == (D10, D8) and "SW-DMG-07" in rolls[1].rules


def test_SW_DMG_09_the_backpack_bearer_is_not_tested_his_pack_explodes() -> None:
    """«Если попадание приходится по огнемётчику, тест «убит или ранен» не проводится.
    Огнемётчик сразу гибнет»."""
    bearer = (TargetModel("f", weapon="flamethrower_keno"),)
    session = TableSession(hits_on_models, (1, bearer, Hit(D8)))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == (
        ModelHit("f", HitEffect.REMOVED, casualty=True, explodes=True),
    )
    assert "steel_war.hit.explodes" in _events(session)


def test_SW_DMG_10_a_robot_is_immobilised_then_destroyed() -> None:
    """«Раненый» робот теряет возможность двигаться … Следующее попадание ведёт к
    уничтожению робота, если выпадает «ранен» или убит»."""
    session = TableSession(hits_on_models, (1, (TargetModel("r", TargetKind.ROBOT),), Hit(D10)))
    session.supply([9, 4])
    assert session.result is not None
    (hit,) = session.result.outcome
    assert (hit.effect, hit.after) == (HitEffect.IMMOBILISED, TargetKind.DAMAGED_ROBOT)
    damaged = (TargetModel("r", TargetKind.DAMAGED_ROBOT),)
    session = TableSession(hits_on_models, (1, damaged, Hit(D10)))
    session.supply([9, 4])
    assert session.result is not None
    assert session.result.outcome[0].effect is HitEffect.DESTROYED


# --- splitting fire and the sniper (SW-FIRE-04, 05, 13, 14) ------------------------------


def test_SW_FIRE_04_05_worked_examples_split_fire_each_weapon_once() -> None:
    """Example 2: «в первое действие … стреляют 4 «обрубка» … и «универсал» (к6, к12, к8); во
    второе … оставшиеся три обрубка … и снайперская винтовка … (к6 … к10, но винтовка уже не
    выцеливает, так как присоединена)». Example 1: the sniper alone «выцеливает»."""
    first = compose_group(D6, [(weapon("smg"), 4), (weapon("lmg"), 1)])
    assert first.pool == (D6, D12, D8)
    assert not may_fire_weapon(weapon("smg"), D6, 5, fired=1).allowed  # those four are done
    second = compose_group(D6, [(weapon("smg"), 3), (weapon("sniper_rifle"), 1)])
    assert second.pool == (D6, D10) and not second.sniper
    assert "SW-FIRE-13" in second.rules and "SW-FIRE-14" not in second.rules
    alone = compose_group(D6, [(weapon("sniper_rifle"), 1)])
    assert alone.pool == (D6, D4) and alone.sniper and "SW-FIRE-14" in alone.rules


def test_SW_FIRE_14_a_lone_sniper_chooses_his_victim_on_real_models() -> None:
    """«хозяин винтовки просто указывает, в кого попал стрелок (например, в командира …)»."""
    group = compose_group(D6, [(weapon("sniper_rifle"), 1)])
    target = fire_target(D6, 2, False, Cover.NONE, D4, 3)
    models = (TargetModel("a"), TargetModel("b"), TargetModel("commander", in_cover=True))
    session = TableSession(fire_on_models, (group, target, models))
    # 6 and 4 beat the range die's 1: (6 + 4) / 4 = 2.5 → 3 hits; then three armour tests
    session.supply([6, 4, 1, 5, 4, 5, 4, 10, 4])
    assert session.result is not None
    choices = [e for e in session.result.log if isinstance(e, ChoiceEntry)]
    assert len(choices) == 3 and "SW-FIRE-14" in choices[0].rules
    assert choices[0].options == ("a", "b", "commander")  # any man, even in cover
    dice = [e.dice for e in session.result.log if isinstance(e, RollEntry)]
    assert (D3,) not in dice and dice[-1] == (D10, D4)  # no allocation die; rifle power d10


# --- close combat (SW-CC-06..09) ---------------------------------------------------------


def test_SW_CC_07_each_fighter_rolls_his_own_die() -> None:
    """«боец «стального» «зеркального» батальона – «регулярный» (к8), вооружённый автоматом
    ПМ-24 «Кошмар» (считается пистолет-пулемётом), с примкнутым штыком … к12» — while his
    comrade with an assault rifle and no bayonet rolls the plain к8."""
    mirror = Fighter(D8, "smg", cold_weapon=True).die()
    rifleman = Fighter(D8, "assault_rifle").die()
    assert (mirror, rifleman) == (D12, D8)
    bouts = pair_fighters([("kosh", mirror), ("rifle", rifleman)], [("e1", D8), ("e2", D8)])
    session = TableSession(melee_round, (bouts,))
    session.supply([5, 6, 7, 3])  # 5 < 6: «Кошмар» falls; 7 > 3: e2 falls
    assert session.result is not None
    assert session.result.outcome == RoundLosses(1, 1, ("kosh", "e2"))
    rolls = [e.dice for e in session.result.log if isinstance(e, RollEntry)]
    assert rolls == [(D12,), (D8,), (D8,), (D8,)]


def test_SW_CC_09_the_morale_test_is_taken_when_the_other_side_is_wiped_out() -> None:
    """«тот, кто получил больше потерь должен пройти тест на боевой дух … с уровнем угрозы
    +1 за каждую потерю»: the attackers lost 3 and test first (threat 3: beat 5 on к8)
    although both defenders are down; failing, they fall back and the defenders, though
    none is standing, hold the field. Passing, the defenders have nobody to test: beaten."""
    losses = RoundLosses(3, 2)
    attackers, wiped = SideMorale(D8, 2, standing=2), SideMorale(D8, 2, standing=0)
    fails = TableSession(round_morale, (losses, attackers, wiped))
    fails.supply([4])
    assert fails.result is not None
    assert (fails.result.outcome.fell_back, fails.result.outcome.drop) == (Side.ATTACKER, 1)
    holds = TableSession(round_morale, (losses, attackers, wiped))
    holds.supply([6])
    assert holds.result is not None
    assert (holds.result.outcome.fell_back, holds.result.outcome.drop) == (Side.DEFENDER, 0)
    assert "steel_war.close_combat.wiped_out" in _events(holds)


# --- the charge's one-place rules (SW-CC-04, SW-CC-05, SW-CC-11) ------------------------


def test_SW_CC_05_SW_CC_11_the_charged_squads_threat_is_one_rule() -> None:
    """«Если атакующих … вдвое больше – то +2»; «+» rows of the threat table; «все (при этом
    не только те, что вызваны непосредственно атакой) модификаторы угрозы удваиваются»."""
    assert charged_squad_threat(6, 3, Motivation.LOW, unverified=1) == 3
    assert charged_squad_threat(6, 3, Motivation.LOW, unverified=1, frightening=True) == 6
    assert charged_squad_threat(3, 3, Motivation.MEDIUM, wounded_left_behind=True) == 2
    assert is_frightening(keno_guard=True)  # «вся Гвардия Кено»
    assert is_frightening(cavalry_with_blades=2)  # «всадники идущие «в клинки»»
    assert is_frightening(berserk=True)  # «солдаты в состоянии «берсерк»»
    assert not is_frightening()


def test_SW_CC_04_free_fire_counts_only_casualties_and_distances_that_go_alike() -> None:
    """«подавить их при этом нельзя, считается только нанесение потерь»."""
    assert fire_casualties(FireOutcome(Effect.HITS, 3, 1, 1)) == 2
    assert fire_casualties(FireOutcome(Effect.SUPPRESSED, 0, 0, 0)) == 0
    assert same_charge_distance(7.3) == same_charge_distance(8.0) == 8.0


# --- «Ни шагу назад!», panic, psionics --------------------------------------------------


def test_SW_NSN_03_entering_berserk_is_one_rule() -> None:
    """«маркеров подавления ему вообще не присваивают» — the ones it has come off; and a
    panic ends, as it passes every reaction test. Keno Guard roll к8 (SW-NSN-02)."""
    state = enter_berserk(3, panicked=True)
    assert (state.markers, state.panicked, state.berserk) == (0, False, True)
    assert test_die(keno_guard=True) == D8 and test_die(keno_guard=False) == D6


def test_SW_PANIC_02_recruits_panic_the_first_time_they_see_armour() -> None:
    """«Новобранцы» паникуют, когда впервые увидят бронетехнику или бронескафы противника»."""
    assert counts_as_armour(MoverType.ARMOURED_SUIT)
    assert counts_as_armour(MoverType.TRACKED) and not counts_as_armour(MoverType.WHEELED, False)
    first = panic_on_sight(Quality.RECRUITS, enemy_in_sight=True, armour_in_sight=True)
    assert first is PanicEvent.FIRST_ARMOUR_SEEN
    again = panic_on_sight(
        Quality.RECRUITS, enemy_in_sight=True, armour_in_sight=True, armour_seen_before=True
    )
    assert again is None
    assert panic_on_sight(Quality.VETERANS, enemy_in_sight=True, armour_in_sight=True) is None
    untrained = panic_on_sight(Quality.UNTRAINED, enemy_in_sight=True)
    assert untrained is PanicEvent.FIRST_ENEMY_IN_SIGHT


def test_SW_PSI_04_psionics_communicate_telepathically() -> None:
    """«между собой тест на связь они всегда проходят … между псиоником и обычными людьми …
    используется или куб пси-качества или куб качества подразделения на выбор»."""
    far = Contact(30.0, line_of_sight=False, radio=False)
    both = TableSession(communication_test, (D6, 3, 3, 0, far, D6, D4))
    both.supply([])
    assert both.result is not None and both.result.outcome == CommunicationOutcome(True)
    mixed = TableSession(communication_test, (D6, 2, 2, 0, Contact(), D10, None))
    mixed.supply([3])
    assert mixed.result is not None
    (roll,) = [e for e in mixed.result.log if isinstance(e, RollEntry)]
    assert roll.dice == (D10,) and "SW-PSI-04" in roll.rules
