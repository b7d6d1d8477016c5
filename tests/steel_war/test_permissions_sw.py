"""Steel War's questions of legality, one function each, tested against the seed's text.

Every function takes a plain :class:`UnitSituation` (and the facts of its question) and
returns a :class:`~kubik.engine.Verdict`: allowed, allowed after reaction tests, or
forbidden — naming the rules that decided and a reason in English and Russian.
"""

from __future__ import annotations

import pytest

from kubik.engine import Permission, Verdict
from kubik.engine.dice import D6, D8
from kubik.rulesets.steel_war.activation import ActionType as A
from kubik.rulesets.steel_war.activation import may_activate
from kubik.rulesets.steel_war.charge import may_charge, may_hold_fire
from kubik.rulesets.steel_war.fire import may_fire_weapon, may_get_up, may_go_to_ground, may_shoot
from kubik.rulesets.steel_war.fire_ammo import Ammo
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.inspiration import (
    Contact,
    may_communicate,
    may_inspire,
    may_pass_action,
)
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Order, may_end_activation
from kubik.rulesets.steel_war.movement import TerrainClass, may_move
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.no_step_back import Stand, may_stand_fast
from kubik.rulesets.steel_war.observation import may_observe
from kubik.rulesets.steel_war.psionics_actions import PsiAction, PsiAttempt, may_use_psi
from kubik.rulesets.steel_war.reaction import FailedReactions
from kubik.rulesets.steel_war.reaction import ReactionAction as R
from kubik.rulesets.steel_war.situation import UnitSituation, basic_verdict, needed_tests
from kubik.rulesets.steel_war.unsuppressing import may_unsuppress
from kubik.text.i18n import render

UV, ST, PO, RA, BE = (
    MoraleLevel.CONFIDENT,
    MoraleLevel.STEADY,
    MoraleLevel.SHAKEN,
    MoraleLevel.BROKEN,
    MoraleLevel.FLEEING,
)
SQUAD = UnitSituation()
APC = UnitSituation(kind=MoverType.HIGH_MOBILITY_WHEELED)


def _reason(verdict: Verdict) -> str:
    """The reason in both languages (it must render), English returned."""
    assert verdict.reason is not None
    texts = [render(verdict.reason, lang) for lang in ("en", "ru")]
    assert all(t and not t.startswith("steel_war.") for t in texts), texts
    return texts[0]


def _forbidden(verdict: Verdict, *rules: str) -> None:
    assert verdict.permission is Permission.FORBIDDEN, verdict
    assert set(rules) <= set(verdict.rules), verdict.rules
    _reason(verdict)


# --- shooting (SW-FIRE-05, SW-SUP-01, SW-MOR-01) ---------------------------------------


def test_SW_SUP_01_a_suppressed_squad_does_not_fire_a_suppressed_vehicle_does() -> None:
    """«Подавленные пехотные отряды не могут совершать никаких действий, кроме пяти»;
    «Подавленная техника … Остальные действия разрешены нормально»."""
    assert may_shoot(SQUAD).allowed
    _forbidden(may_shoot(UnitSituation(markers=1)), "SW-SUP-01")
    vehicle = may_shoot(UnitSituation(kind=MoverType.TRACKED, markers=3))
    assert vehicle.allowed and "SW-SUP-01" in vehicle.rules
    assert may_shoot(UnitSituation(kind=MoverType.ROBOT, markers=1)).allowed  # техника too


def test_SW_MOR_01_broken_fires_only_back_fleeing_never() -> None:
    """«стрелять только по тому противнику, который его уже обстреливал в этом ходе»;
    Бе «не может тратить никакие действия своей активации ни на что, кроме движения»."""
    _forbidden(may_shoot(UnitSituation(level=RA)), "SW-MOR-01")
    assert may_shoot(UnitSituation(level=RA), target_shot_at_us=True).allowed
    _forbidden(may_shoot(UnitSituation(level=BE), target_shot_at_us=True), "SW-MOR-01")
    assert may_shoot(UnitSituation(level=PO)).allowed


def test_SW_CORE_04_SW_MOVE_01_fire_is_an_action_not_after_marching() -> None:
    _forbidden(may_shoot(UnitSituation(done=(A.MOVE, A.SHOOT))), "SW-CORE-04")
    _forbidden(may_shoot(UnitSituation(marched=True)), "SW-MOVE-01")
    _forbidden(may_shoot(UnitSituation(panicked=True)), "SW-PANIC-01")


def test_SW_FIRE_05_each_weapon_once_ground_mounted_heavy_weapons_twice() -> None:
    """«каждое оружие может стрелять не больше одного раза за одну активацию … установленное
    на земле (но не на технике!) тяжёлое оружие пехоты … два раза за активацию»."""
    rifle, hmg = weapon("assault_rifle"), weapon("hmg")
    assert may_fire_weapon(rifle, D6, 10).allowed
    _forbidden(may_fire_weapon(rifle, D6, 10, fired=1), "SW-FIRE-05")
    assert may_fire_weapon(hmg, D6, 10, fired=1, ground_mounted=True).allowed
    _forbidden(may_fire_weapon(hmg, D6, 10, fired=2, ground_mounted=True), "SW-FIRE-05")
    _forbidden(may_fire_weapon(hmg, D6, 10, fired=1, ground_mounted=False), "SW-FIRE-05")


def test_SW_FIRE_11_SW_FIRE_15_reach_and_ammunition() -> None:
    """Example 1: at 13" the «обрубки» (zone 1 only for d6) do not fire; the LMG does.
    «Гранатомёты … за бой могут сделать только три выстрела»."""
    _forbidden(may_fire_weapon(weapon("smg"), D6, 13), "SW-FIRE-11")
    assert may_fire_weapon(weapon("lmg"), D6, 13).allowed
    empty = Ammo("grenade_launcher", 0)
    _forbidden(may_fire_weapon(weapon("grenade_launcher"), D6, 5, ammo=empty), "SW-FIRE-15")
    full = Ammo.full("grenade_launcher")
    assert may_fire_weapon(weapon("grenade_launcher"), D6, 5, ammo=full).allowed


# --- going to ground and getting up (SW-FIRE-07) -----------------------------------------


def test_SW_FIRE_07_going_to_ground_infantry_not_in_water_after_a_reaction_test() -> None:
    """«Пехотное отделение может потратить одно своё действие, чтобы залечь»; «Само собой,
    «залегать» нельзя в воде»; the reaction test: threat 2 in the open, 0 elsewhere."""
    open_ground = may_go_to_ground(SQUAD)
    assert open_ground.needs_test and needed_tests(open_ground) == (R.GO_TO_GROUND_OPEN,)
    in_cover = may_go_to_ground(UnitSituation(in_cover=True))
    assert needed_tests(in_cover) == (R.GO_TO_GROUND_OTHER,)
    assert {"SW-FIRE-07", "SW-REACT-02"} <= set(open_ground.rules)
    _forbidden(may_go_to_ground(UnitSituation(in_water=True)), "SW-FIRE-07")
    _forbidden(may_go_to_ground(APC), "SW-FIRE-07")
    _forbidden(may_go_to_ground(UnitSituation(kind=MoverType.CAVALRY)), "SW-FIRE-07")
    _forbidden(may_go_to_ground(UnitSituation(prone=True)), "SW-FIRE-07")
    _forbidden(may_go_to_ground(UnitSituation(markers=1)), "SW-SUP-01")  # not of the five
    failed = FailedReactions().add(R.GO_TO_GROUND_OPEN)
    _forbidden(may_go_to_ground(UnitSituation(failed=failed)), "SW-REACT-01")
    berserk = may_go_to_ground(UnitSituation(berserk=True))
    assert berserk.permission is Permission.ALLOWED and "SW-NSN-03" in berserk.rules


def test_SW_FIRE_07_down_squad_gets_up_for_an_action_or_moves_after_a_test() -> None:
    """«Залёгшее» отделение не может двигаться. Чтобы начать двигаться надо или потратить
    одно действие, чтобы выйти из «залегания», или попытаться выбросить … если удачно –
    движемся как обычно. Если нет – действие потеряно» (the list: threat 2)."""
    down = UnitSituation(prone=True)
    assert may_get_up(down).allowed and "SW-FIRE-07" in may_get_up(down).rules
    _forbidden(may_get_up(SQUAD), "SW-FIRE-07")
    move = may_move(down, Order(A.MOVE))
    assert needed_tests(move) == (R.MOVE_WHILE_DOWN,) and "SW-FIRE-07" in move.rules
    assert may_move(SQUAD, Order(A.MOVE)).permission is Permission.ALLOWED
    failed = UnitSituation(prone=True, failed=FailedReactions().add(R.MOVE_WHILE_DOWN))
    _forbidden(may_move(failed, Order(A.MOVE)), "SW-REACT-01")


# --- moving (SW-MOVE-01..03, SW-ABSENT-02, SW-SUP-01, SW-MOR-01) ------------------------


def test_SW_MOVE_01_march_only_on_easy_ground_and_SW_ABSENT_02_combat_move() -> None:
    """«Легкопроходимая местность – … позволяет походное движение»."""
    assert may_move(SQUAD, Order(A.MARCH), TerrainClass.EASY).allowed
    _forbidden(may_move(SQUAD, Order(A.MARCH), TerrainClass.DIFFICULT), "SW-MOVE-01")
    combat = may_move(SQUAD, Order(A.COMBAT_MOVE), TerrainClass.DIFFICULT)
    assert combat.allowed and "SW-ABSENT-02" in combat.rules
    with pytest.raises(ValueError, match="order"):
        may_move(SQUAD, Order(A.SHOOT))


def test_SW_MOVE_03_worked_example_infantry_tank_and_apc_in_a_wood() -> None:
    """«Пехота, танк и БТР собирается наступать через лес … БТР в лес пойти вообще не сможет»."""
    from kubik.rulesets.steel_war.movement import Terrain, terrain_class, terrain_move

    wood = [Terrain.LIGHT_WOOD]
    assert terrain_move(MoverType.INFANTRY, wood) == 3
    assert terrain_move(MoverType.TRACKED, wood) == 4  # «12 делённое на три»
    assert terrain_move(MoverType.HIGH_MOBILITY_WHEELED, wood, 12) == 0
    apc_in_wood = terrain_class(MoverType.HIGH_MOBILITY_WHEELED, Terrain.LIGHT_WOOD)
    _forbidden(may_move(APC, Order(A.MOVE), apc_in_wood), "SW-MOVE-03")
    tank = UnitSituation(kind=MoverType.TRACKED)
    assert may_move(tank, Order(A.MOVE), TerrainClass.VERY_DIFFICULT).allowed


def test_SW_SUP_01_suppressed_squads_move_only_away_vehicles_freely() -> None:
    """«– движение в направлении от противника»."""
    suppressed = UnitSituation(markers=2)
    assert may_move(suppressed, Order(A.MOVE, away_from_enemy=True)).allowed
    _forbidden(may_move(suppressed, Order(A.MOVE, approaches_enemy=True)), "SW-SUP-01")
    assert may_move(UnitSituation(kind=MoverType.TRACKED, markers=2), Order(A.MOVE)).allowed


def test_SW_MOR_01_where_each_level_may_move() -> None:
    """По: no approaching, leaving cover after a reaction test; Ра: to its edge or cover;
    Бе: only to its own edge."""
    _forbidden(may_move(UnitSituation(level=PO), Order(A.MOVE, approaches_enemy=True)))
    leaving = may_move(UnitSituation(level=PO), Order(A.MOVE, leaves_cover=True))
    assert needed_tests(leaving) == (R.LEAVE_COVER_SHAKEN,)
    both = may_move(UnitSituation(level=PO, prone=True), Order(A.MOVE, leaves_cover=True))
    assert needed_tests(both) == (R.LEAVE_COVER_SHAKEN, R.MOVE_WHILE_DOWN)  # two tests
    assert both.reason is not None and both.reason.id == "steel_war.permission.reaction_tests"
    assert "leave cover" in _reason(both)
    assert may_move(UnitSituation(level=RA), Order(A.MOVE, toward_cover=True)).allowed
    _forbidden(may_move(UnitSituation(level=RA), Order(A.MOVE)), "SW-MOR-01")
    assert may_move(UnitSituation(level=BE), Order(A.MARCH, toward_own_edge=True)).allowed
    _forbidden(may_move(UnitSituation(level=BE), Order(A.MOVE, toward_cover=True)), "SW-MOR-01")


def test_SW_DMG_10_an_immobilised_robot_does_not_move_but_fires() -> None:
    """«Раненый» робот теряет возможность двигаться, но сохраняет возможность стрелять»."""
    robot = UnitSituation(kind=MoverType.ROBOT, immobilised=True)
    _forbidden(may_move(robot, Order(A.MOVE)), "SW-DMG-10")
    assert may_shoot(robot).allowed


# --- charge (SW-CC-01, SW-CC-02) ------------------------------------------------------


def test_SW_CC_01_only_infantry_and_cavalry_charge_or_are_charged() -> None:
    """«Роботы и бронескафы к ближнему бою были не способны»."""
    assert may_charge(SQUAD).allowed
    assert may_charge(UnitSituation(kind=MoverType.CAVALRY)).allowed
    for kind in (MoverType.ROBOT, MoverType.ARMOURED_SUIT, MoverType.TRACKED):
        _forbidden(may_charge(UnitSituation(kind=kind)), "SW-CC-01")
        _forbidden(may_charge(SQUAD, target=kind), "SW-CC-01")


def test_SW_CC_02_the_enhanced_reaction_test_and_who_never_charges() -> None:
    """«Разбитые и бегущие отделения в рукопашный бой не пойдут ни при каких
    обстоятельствах»; По charges after its test, though it may not otherwise approach."""
    steady = may_charge(SQUAD)
    assert needed_tests(steady) == (R.CHARGE,)
    assert {"SW-CC-02", "SW-REACT-02"} <= set(steady.rules)
    assert needed_tests(may_charge(UnitSituation(level=PO))) == (R.CHARGE,)
    for level in (RA, BE):
        _forbidden(may_charge(UnitSituation(level=level)), "SW-CC-02")
    failed = UnitSituation(failed=FailedReactions().add(R.CHARGE))
    _forbidden(may_charge(failed), "SW-REACT-01")  # not again this turn
    assert may_charge(UnitSituation(berserk=True)).permission is Permission.ALLOWED


def test_SW_CC_02_a_charge_is_a_whole_activation_and_not_while_suppressed() -> None:
    _forbidden(may_charge(UnitSituation(done=(A.MOVE,))), "SW-CORE-04")
    _forbidden(may_charge(UnitSituation(markers=1)), "SW-SUP-01")
    _forbidden(may_charge(UnitSituation(in_melee=True)), "SW-CC-09")
    down = may_charge(UnitSituation(prone=True))  # it must get up as it rises to the attack
    assert needed_tests(down) == (R.MOVE_WHILE_DOWN, R.CHARGE)  # in the order taken


def test_SW_CC_03_SW_CC_06_defaults_no_charge_beyond_12_inches_nor_into_another_melee() -> None:
    assert may_charge(SQUAD, distance=12.0).allowed
    _forbidden(may_charge(SQUAD, distance=12.1), "SW-CC-03")
    _forbidden(may_charge(SQUAD, target_in_melee=True), "SW-CC-06")


# --- unsuppress, observe, communicate (SW-SUP-03, SW-ABSENT-03/04) --------------------


def test_SW_SUP_03_unsuppress_twice_an_activation_with_a_marker() -> None:
    """«„Расподавление“ занимает одно действие … и может быть предпринято за активацию дважды»."""
    suppressed = UnitSituation(markers=1)
    assert may_unsuppress(suppressed).allowed
    again = UnitSituation(markers=1, done=(A.UNSUPPRESS,))
    assert may_unsuppress(again).allowed
    _forbidden(may_unsuppress(SQUAD), "SW-SUP-03")
    _forbidden(may_unsuppress(UnitSituation(markers=1, level=BE)), "SW-MOR-01")


def test_SW_ABSENT_03_SW_ABSENT_04_observe_and_communicate_while_suppressed() -> None:
    """«наблюдение; выход на связь» are among a suppressed squad's five actions."""
    for question in (may_observe, may_communicate):
        verdict = question(UnitSituation(markers=3))
        assert verdict.allowed and "SW-SUP-01" in verdict.rules


# --- commanders (SW-MOR-04, SW-MOR-08, SW-ABSENT-01) ----------------------------------


OFFICER = UnitSituation(officer=True)
NEAR = Contact(4.0, line_of_sight=True, radio=False)
FAR = Contact(20.0, line_of_sight=True, radio=False)


def test_SW_MOR_08_only_a_superior_in_the_chain_with_contact_inspires() -> None:
    """«только вышестоящий командир, являющийся прямым начальством»; «либо у тех и у других
    должно быть радио …, либо командир должен быть совсем рядом (в 6 дюймах)»."""
    assert may_inspire(OFFICER, RA, ST, 1, NEAR).allowed
    _forbidden(may_inspire(SQUAD, RA, ST, 0, NEAR), "SW-MOR-08")
    _forbidden(may_inspire(OFFICER, RA, ST, None, NEAR), "SW-MOR-08")
    _forbidden(may_inspire(OFFICER, RA, ST, 0, FAR), "SW-MOR-08")
    _forbidden(may_inspire(OFFICER, RA, ST, 0, FAR, squad_psi=D6), "SW-MOR-08")
    psionic = UnitSituation(officer=True, psi=D8)
    assert may_inspire(psionic, RA, ST, 0, FAR, squad_psi=D6).allowed  # telepathy, SW-PSI-04


def test_SW_MOR_08_twice_an_activation_and_SW_MOR_04_never_above_the_start() -> None:
    """«Тест на воодушевление занимает одно действие у командира (т. е. его можно проделывать
    дважды за одну активацию)»; «Воодушевить их можно только до состояния «стойкие»»."""
    assert may_inspire(UnitSituation(officer=True, done=(A.INSPIRE,)), RA, ST, 0, NEAR).allowed
    twice = UnitSituation(officer=True, done=(A.INSPIRE, A.INSPIRE))
    _forbidden(may_inspire(twice, RA, ST, 0, NEAR), "SW-CORE-04")
    _forbidden(may_inspire(OFFICER, ST, ST, 0, NEAR), "SW-MOR-04")
    _forbidden(may_inspire(UnitSituation(officer=True, markers=1), RA, ST, 0, NEAR), "SW-SUP-01")


def test_SW_ABSENT_01_the_commander_passes_an_action() -> None:
    """«Если ему в этот же ход его командир «передаст действие»…» (default: one of his
    actions, to a squad of his he is in contact with)."""
    assert may_pass_action(OFFICER, 0, NEAR).allowed
    _forbidden(may_pass_action(SQUAD, 0, NEAR), "SW-ABSENT-01")
    _forbidden(may_pass_action(OFFICER, None, NEAR), "SW-ABSENT-01")
    _forbidden(may_pass_action(OFFICER, 0, FAR), "SW-ABSENT-01")
    # the squad takes it even after its own two actions, but never to retry a failed test
    spent = UnitSituation(done=(A.MOVE, A.SHOOT), passed=True)
    assert may_shoot(spent).allowed
    barred = UnitSituation(prone=True, passed=True, failed=FailedReactions().add(R.MOVE_WHILE_DOWN))
    _forbidden(may_move(barred, Order(A.MOVE)), "SW-REACT-01")


# --- «Ни шагу назад!» (SW-NSN-01) -----------------------------------------------------


def test_SW_NSN_01_preconditions_and_not_twice() -> None:
    """«Отделение должно быть в укрытии или в залегании … не меньше трёх вражеских отделений
    … Боевой дух отделения должен быть «По» или выше»."""
    three = (ST, ST, ST)
    stand = Stand(PO, in_cover=True, enemy_levels_in_sight=three)
    assert may_stand_fast(stand).allowed
    _forbidden(may_stand_fast(Stand(ST, enemy_levels_in_sight=three)), "SW-NSN-01")
    _forbidden(may_stand_fast(Stand(RA, in_cover=True, enemy_levels_in_sight=three)), "SW-NSN-01")
    _forbidden(may_stand_fast(stand, berserk=True), "SW-NSN-03")
    _forbidden(may_stand_fast(stand, panicked=True), "SW-PANIC-01")


# --- psionics (SW-PSI-02, SW-PSI-05, SW-PSI-17) ---------------------------------------


def test_SW_PSI_05_psi_like_shooting_twice_not_suppressed_people_only() -> None:
    """«Пси-атака или пси-поддержка считаются обычным действием, и могут быть применены также
    два за активацию, как и стрельба. С теми же ограничениями»; «На технику … не действует»."""
    psionic = UnitSituation(psi=D8)
    near = PsiAttempt(D8, 6.0)
    assert may_use_psi(psionic, PsiAction.STRIKE, near).allowed
    _forbidden(may_use_psi(SQUAD, PsiAction.STRIKE, near), "SW-PSI-02")
    once = UnitSituation(psi=D8, done=(A.PSI,))
    assert may_use_psi(once, PsiAction.STRIKE, near).allowed
    twice = UnitSituation(psi=D8, done=(A.PSI, A.PSI))
    _forbidden(may_use_psi(twice, PsiAction.STRIKE, near), "SW-CORE-04", "SW-PSI-05")
    _forbidden(may_use_psi(UnitSituation(psi=D8, markers=1), PsiAction.STRIKE, near), "SW-SUP-01")
    machine = PsiAttempt(D8, 6.0, target_machine=True)
    _forbidden(may_use_psi(psionic, PsiAction.STRIKE, machine), "SW-PSI-05")
    unseen = PsiAttempt(D8, 13.0, line_of_sight=False)
    _forbidden(may_use_psi(psionic, PsiAction.STRIKE, unseen), "SW-PSI-05")
    too_far = PsiAttempt(D8, 40.0)
    _forbidden(may_use_psi(psionic, PsiAction.STRIKE, too_far), "SW-PSI-06")
    _forbidden(may_use_psi(psionic, PsiAction.MURDER, near, men=1), "SW-PSI-17")
    assert may_use_psi(psionic, PsiAction.MURDER, near, men=2).allowed


# --- what every action shares ---------------------------------------------------------


def test_riding_and_melee_leave_no_other_action() -> None:
    """Riding inside a vehicle a squad only gets off (SW-MOVE-04 default); a squad locked in
    close combat fights on next turn (SW-CC-09)."""
    aboard = UnitSituation(aboard=True)
    assert basic_verdict(aboard, A.DISEMBARK).allowed
    _forbidden(basic_verdict(aboard, A.SHOOT), "SW-MOVE-04")
    _forbidden(basic_verdict(UnitSituation(in_melee=True), A.MOVE), "SW-CC-09")


@pytest.mark.parametrize("level", list(MoraleLevel))
def test_every_reason_renders_in_both_languages(level: MoraleLevel) -> None:
    unit = UnitSituation(level=level, markers=1, prone=True, in_water=True)
    for verdict in (
        may_shoot(unit),
        may_go_to_ground(unit),
        may_move(unit, Order(A.MOVE, approaches_enemy=True)),
        may_charge(unit),
        may_unsuppress(unit),
        may_get_up(unit),
        may_inspire(OFFICER, level, UV, None, FAR),
    ):
        if verdict.reason is not None:
            _reason(verdict)


def test_SW_ABSENT_01_SW_CORE_04_SW_CC_09_a_unit_activates_once_a_turn_and_not_in_melee() -> None:
    assert may_activate(False).allowed and may_activate(False).rules == ("SW-ABSENT-01",)
    spent = may_activate(True)
    assert not spent.allowed and spent.rules == ("SW-CORE-04",)
    assert render(spent.reason, "ru") == "Отделение уже было активировано в этом ходу"
    locked = may_activate(False, in_melee=True)
    assert not locked.allowed and locked.rules == ("SW-CC-09",)


def test_SW_MOR_01_a_fleeing_squad_cannot_stop_while_it_can_move() -> None:
    for level in (UV, ST, PO, RA):
        assert may_end_activation(level, True).allowed
    assert not may_end_activation(BE, True).allowed
    assert may_end_activation(BE, False).allowed  # nowhere to go: it stands
    assert may_end_activation(BE, True).rules == ("SW-MOR-01",)


def test_SW_CC_04_the_defender_may_let_its_free_action_go() -> None:
    assert may_hold_fire().allowed and may_hold_fire().rules == ("SW-CC-04",)
