"""The rules' answers to every question of legality (Verdicts), against the seed's text.

Each function answers one question on a plain situation: allowed, allowed after a test,
or forbidden — naming the rules that decided and a reason in both languages. A battle's
menus are built from these alone.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from kubik.engine import Permission, Verdict
from kubik.rulesets.old_west.backing_off import (
    BackOff,
    BackOffPath,
    Loser,
    back_off,
    back_off_path,
    may_back_off,
)
from kubik.rulesets.old_west.combat import Strike, StrikeAt, may_strike
from kubik.rulesets.old_west.core import FirstTest, Status, on_table
from kubik.rulesets.old_west.division import Fighting, in_a_fight, may_fight
from kubik.rulesets.old_west.fame import FameRoll, FameUse, may_spend_fame
from kubik.rulesets.old_west.heroics import (
    Beneficiary,
    HeroicAction,
    HeroNow,
    Phase,
    may_benefit,
    may_carry_out,
    may_declare,
    may_quickdraw,
    may_whup,
    quickdraw_works,
    whuppin_moves,
)
from kubik.rulesets.old_west.movement import (
    ChargeTarget,
    MoveEnd,
    Mover,
    allowance,
    may_charge,
    may_end_move,
    may_move,
)
from kubik.rulesets.old_west.pluck import Posse, may_flee, reputation_check, takes_the_test
from kubik.rulesets.old_west.shooting import Shooter, ShotAt, may_shoot, may_shoot_at, move_limit
from kubik.text.i18n import render


def said(verdict: Verdict) -> tuple[str, str]:
    """The reason as people read it, in English and Russian (never a bare message id)."""
    assert verdict.reason is not None
    texts = (render(verdict.reason, "en"), render(verdict.reason, "ru"))
    assert not any(t.startswith("old_west.") or "{" in t for t in texts), texts
    return texts


# -- who is in play (OW-CC-12, OW-PLK-02, OW-PLK-03) ------------------------------------------


def test_OW_PLK_03_models_out_of_play_say_how_they_left() -> None:
    assert on_table(Status.IN_ACTION).allowed
    assert on_table(Status.OUT_OF_ACTION).rules == ("OW-CC-12",)
    assert on_table(Status.FLED).rules == ("OW-PLK-02",)
    left = on_table(Status.LEFT_TABLE)
    assert left.rules == ("OW-PLK-03",) and not left.allowed
    assert "objective" in said(left)[0] and "цели сценария" in said(left)[1]
    assert not may_move(Mover(Status.OUT_OF_ACTION)).allowed
    assert not may_shoot(Shooter(("pistol",), Status.FLED)).allowed


# -- moving and charging (OW-ABSENT-02/10, OW-CC-01, OW-CC-10, OW-PLK-05, OW-HERO-11) -------


def test_OW_ABSENT_02_a_free_model_moves_its_move_and_models_in_a_fight_do_not() -> None:
    assert may_move(Mover()).rules == ("OW-ABSENT-02",)
    assert allowance(Mover()) == 6 and allowance(Mover(mounted=True)) == 10
    engaged = may_move(Mover(engaged=True))
    assert not engaged.allowed and engaged.rules == ("OW-CC-01", "OW-ABSENT-02")
    assert allowance(Mover(engaged=True)) == 0
    said(engaged)


def test_OW_ABSENT_10_a_prone_model_stands_up_for_half_its_move() -> None:
    verdict = may_move(Mover(prone=True))
    assert verdict.allowed and verdict.rules == ("OW-ABSENT-02", "OW-ABSENT-10")
    assert allowance(Mover(prone=True)) == Fraction(3)
    assert allowance(Mover(prone=True, mounted=True)) == Fraction(5)


def test_OW_CC_10_a_prone_model_that_was_charged_cannot_stand_in_the_movement_phase() -> None:
    """Seed: «Если лежащая на земле фигурка подверглась нападению, она не может встать в
    фазу Движения»."""
    verdict = may_move(Mover(prone=True, charged_while_prone=True, engaged=True))
    assert not verdict.allowed and verdict.rules == ("OW-CC-10",)
    assert "stand up" in said(verdict)[0]


def test_OW_HERO_11_nobody_moves_twice_in_a_phase() -> None:
    """Seed: «Как только фигурка передвинулась ... она не может снова двигаться»."""
    verdict = may_move(Mover(moved=True))
    assert not verdict.allowed and verdict.rules == ("OW-HERO-11",)


def test_OW_PLK_05_a_scared_model_does_nothing_else_this_phase() -> None:
    """Seed: «Если тест провален, боец пугается ... Более в эту фазу боец делать ничего
    не может»."""
    assert may_move(Mover(scared=True)).rules == ("OW-PLK-05",)
    assert may_shoot(Shooter(("pistol",), scared=True)).rules == ("OW-PLK-05",)
    assert not may_charge(Mover(scared=True), ChargeTarget(2.0)).allowed


def test_OW_PLK_05_charging_or_shooting_a_fearsome_enemy_needs_a_pluck_test_first() -> None:
    """Seed: «Если боец хочет напасть или произвести стрельбу по фигурке врага, которая
    обладает Пугающей Репутацией, такой боец должен сначала пройти тест на Смелость»."""
    check = reputation_check(True)
    assert check.permission is Permission.NEEDS_TEST and check.test is FirstTest.FEARSOME
    assert check.rules == ("OW-PLK-05", "OW-PLK-01")
    assert reputation_check(False) == Verdict.allow()
    assert reputation_check(True, passed=True).permission is Permission.ALLOWED
    charge = may_charge(Mover(), ChargeTarget(3.0, fearsome=True))
    assert charge.needs_test and charge.test is FirstTest.FEARSOME
    shot = may_shoot_at(Shooter(("pistol",)), ShotAt("pistol", 8.0, fearsome=True))
    assert shot.needs_test and "OW-PLK-05" in shot.rules
    passed = may_shoot_at(
        Shooter(("pistol",)), ShotAt("pistol", 8.0, fearsome=True, fearsome_passed=True)
    )
    assert passed.permission is Permission.ALLOWED


def test_OW_ABSENT_02_a_charge_reaches_within_the_allowance() -> None:
    assert may_charge(Mover(), ChargeTarget(6.0)).rules == ("OW-ABSENT-02", "OW-CC-01")
    short = may_charge(Mover(), ChargeTarget(6.5))
    assert not short.allowed and "6.0" in said(short)[0]
    assert not may_charge(Mover(), ChargeTarget(None)).allowed
    assert may_charge(Mover(mounted=True), ChargeTarget(9.5)).allowed
    # a prone model stands first: half its move is left to charge with
    assert not may_charge(Mover(prone=True), ChargeTarget(4.0)).allowed
    assert not may_charge(Mover(), ChargeTarget(2.0, Status.OUT_OF_ACTION)).allowed


def test_OW_ABSENT_02_only_a_charge_enters_an_enemy_control_zone() -> None:
    zone = may_end_move(MoveEnd(0.8))
    assert not zone.allowed and zone.rules == ("OW-ABSENT-02",)
    assert may_end_move(MoveEnd(1.2)).allowed
    assert may_end_move(MoveEnd(0.0, charge=True)).rules == ("OW-ABSENT-02", "OW-CC-01")


# -- shooting (OW-ABSENT-04, OW-PLK-06, OW-HERO-11) ------------------------------------------


def test_OW_PLK_06_a_model_that_dived_for_cover_cannot_shoot_back() -> None:
    """Seed: «Фигурка, провалившая ... тест на Смелость, не может стрелять в ответ»."""
    verdict = may_shoot(Shooter(("rifle",), pinned=True))
    assert not verdict.allowed and verdict.rules == ("OW-PLK-06",)
    assert "shoot back" in said(verdict)[0]


def test_OW_ABSENT_04_who_may_shoot_and_at_whom() -> None:
    armed = Shooter(("pistol", "rifle"))
    assert may_shoot(armed).rules == ("OW-ABSENT-04",)
    assert not may_shoot(Shooter(())).allowed
    assert not may_shoot(Shooter(("pistol",), engaged=True)).allowed
    assert may_shoot(Shooter(("pistol",), shot=True)).rules == ("OW-HERO-11",)
    assert may_shoot_at(armed, ShotAt("pistol", 12.0)).allowed  # range 12", edge to edge
    assert not may_shoot_at(armed, ShotAt("pistol", 12.5)).allowed
    assert may_shoot_at(armed, ShotAt("rifle", 12.5)).allowed
    assert not may_shoot_at(armed, ShotAt("shotgun", 5.0)).allowed  # not his weapon
    assert not may_shoot_at(armed, ShotAt("rifle", 10.0, visible=False)).allowed
    assert not may_shoot_at(armed, ShotAt("rifle", 10.0, target_engaged=True)).allowed


def test_OW_ABSENT_04_a_move_or_fire_weapon_is_not_fired_after_moving() -> None:
    """Data default: the buffalo rifle fires only if the model did not move this turn."""
    assert move_limit("buffalo_rifle") == 0 and move_limit("pistol") == 1
    hunter = Shooter(("buffalo_rifle",))
    assert may_shoot_at(hunter, ShotAt("buffalo_rifle", 30.0)).allowed
    moved = may_shoot_at(hunter, ShotAt("buffalo_rifle", 30.0, moved=2.0))
    assert not moved.allowed and moved.rules == ("OW-ABSENT-04",)
    assert may_shoot_at(Shooter(("rifle",)), ShotAt("rifle", 20.0, moved=6.0)).allowed


# -- backing off and being trapped (OW-CC-04, OW-CC-09, OW-CC-10, OW-CC-13, OW-CC-15) --------


def test_OW_CC_04_a_loser_backs_off_the_full_inch_touching_no_other_enemy() -> None:
    """Seed: «отодвигается от противника на 1" ... не может войти в соприкосновение с
    другим противником, однако может войти в контролируемую зону врагов»."""
    assert may_back_off(Loser()).rules == ("OW-CC-04",)
    assert back_off_path(BackOffPath(1.0)).allowed
    touching = back_off_path(BackOffPath(1.0, touches_enemy=True))
    assert not touching.allowed and touching.rules == ("OW-CC-04",)
    assert not back_off_path(BackOffPath(0.6)).allowed
    said(touching)


def test_OW_CC_09_a_loser_with_no_room_is_trapped_and_may_not_climb_out() -> None:
    """Seed: «не может отойти на 1", тогда он считается окружённым»; «не может прыгать или
    карабкаться на препятствие с тем, чтобы избежать окружения»."""
    climbing = back_off_path(BackOffPath(1.5, climbs=True))
    assert not climbing.allowed and climbing.rules == ("OW-CC-09",)
    trapped = may_back_off(Loser(room=False))
    assert not trapped.allowed and trapped.rules == ("OW-CC-09",)
    assert back_off(Loser(room=False)) is BackOff.TRAPPED
    # he still ends the round out of contact: the other models make way for him
    assert BackOff.TRAPPED.others_make_way and not BackOff.BACKED_OFF.others_make_way
    assert "double" in said(trapped)[0] and "удваивается" in said(trapped)[1]


def test_OW_CC_09_at_a_cliff_edge_the_loser_goes_over_and_falls() -> None:
    """Seed: «стоит на краю обрыва ... получает обычные удары (не удвоенные), после чего
    получает повреждения от падения»."""
    edge = may_back_off(Loser(room=False, cliff_drop=3))
    assert edge.allowed and edge.rules == ("OW-CC-09", "OW-ABSENT-05")
    assert back_off(Loser(room=False, cliff_drop=3)) is BackOff.FALLS


def test_OW_CC_10_a_prone_loser_is_trapped() -> None:
    """Seed: «Если лежащая фигурка проигрывает ... остаётся лежать на земле ... а также
    считается окружённой»."""
    verdict = may_back_off(Loser(room=True, prone=True))
    assert not verdict.allowed and verdict.rules == ("OW-CC-10", "OW-CC-09")
    assert back_off(Loser(prone=True)) is BackOff.TRAPPED


# -- strikes (OW-CC-05, OW-CC-10, OW-CC-12, OW-CC-13, OW-CC-14, OW-CC-16) --------------------


def test_OW_CC_16_the_striker_may_aim_at_a_live_mount_or_the_rider() -> None:
    """Seed: «его противник может выбирать - будет ли он бить наездника или верховое
    животное»; the mount is no obstacle to striking the rider."""
    mounted = Strike(StrikeAt.MOUNT, mount_alive=True)
    assert may_strike(mounted).rules == ("OW-CC-05", "OW-CC-16")
    assert may_strike(Strike(StrikeAt.RIDER, mount_alive=True)).allowed
    no_mount = may_strike(Strike(StrikeAt.MOUNT))
    assert not no_mount.allowed and no_mount.rules == ("OW-CC-16",)


def test_OW_CC_10_a_prone_winner_stands_up_but_cannot_strike() -> None:
    """Seed: «Если раунд выигрывает лежащая фигурка, тогда она автоматически встаёт, но
    бить не может»."""
    verdict = may_strike(Strike(striker_prone=True))
    assert not verdict.allowed and verdict.rules == ("OW-CC-10",)


def test_OW_CC_12_strikes_stop_once_the_target_is_out_of_action() -> None:
    verdict = may_strike(Strike(target_out=True))
    assert not verdict.allowed and verdict.rules == ("OW-CC-12",)


def test_OW_CC_13_winners_strike_only_the_losers_of_their_fight() -> None:
    assert not may_strike(Strike(loser=False)).allowed


def test_OW_CC_14_a_strike_across_an_obstacle_needs_four_plus_to_reach() -> None:
    verdict = may_strike(Strike(across_obstacle=True))
    assert verdict.needs_test and verdict.test is FirstTest.REACH and verdict.rules == ("OW-CC-14",)


# -- Fame (OW-HERO-01, OW-HERO-02, OW-HERO-04, OW-HERO-05) -----------------------------------


@pytest.mark.parametrize(
    ("roll", "rules"),
    [
        (FameRoll.JUMP, ("OW-HERO-02", "OW-HERO-04")),
        (FameRoll.PLUCK, ("OW-HERO-02", "OW-HERO-04")),
        (FameRoll.TO_HIT, ("OW-HERO-02", "OW-HERO-05")),
        (FameRoll.FIGHT, ("OW-HERO-02", "OW-HERO-05")),
        (FameRoll.WOUND, ("OW-HERO-02", "OW-HERO-05")),
    ],
)
def test_OW_HERO_04_05_fame_changes_the_rolls_the_seed_lists(
    roll: FameRoll, rules: tuple[str, ...]
) -> None:
    """Seed: Movement phase — «теста на Прыжок и Карабкание ... броска на Смелость»;
    Shooting and Close combat — «бросков на попадание, на определение того, кто выиграл
    раунд ближнего боя, а также во время бросков на ранение»."""
    assert may_spend_fame(FameUse(roll, 2)).rules == rules


@pytest.mark.parametrize(
    "roll",
    [FameRoll.REACH, FameRoll.IN_THE_WAY, FameRoll.ADVANTAGE, FameRoll.FALL, FameRoll.FORTUNE],
)
def test_OW_HERO_02_fame_does_not_change_rolls_outside_the_lists(roll: FameRoll) -> None:
    verdict = may_spend_fame(FameUse(roll, 3))
    assert not verdict.allowed
    en, ru = said(verdict)
    assert en.startswith("Fame cannot change") and ru.startswith("Славой нельзя изменить")


def test_OW_HERO_02_only_a_hero_with_fame_left_changes_his_own_roll() -> None:
    """Seed: «Как только вы потратите последние очки Славы, более вы не сможете изменять с
    их помощью результаты бросков»."""
    assert may_spend_fame(FameUse(FameRoll.WOUND, 0)).rules == ("OW-HERO-02",)
    assert may_spend_fame(FameUse(FameRoll.WOUND, 2, own=False)).rules == ("OW-HERO-02",)
    assert may_spend_fame(FameUse(FameRoll.WOUND, 2, hero=False)).rules == ("OW-HERO-01",)


# -- heroic actions (OW-HERO-06..11) ----------------------------------------------------------

YES = Verdict.allow()


def test_OW_HERO_06_a_hero_declares_one_action_a_phase_paying_fame() -> None:
    """Seed: «В начале фазы Движения, Стрельбы или Ближнего Боя Герой может потратить одно
    очко Славы ... В каждую фазу Герой может совершить только одно Действие Героя»."""
    ok = may_declare(HeroNow(1), HeroicAction.QUICKDRAW, Phase.SHOOTING, YES)
    assert ok.rules == ("OW-HERO-06", "OW-HERO-09")
    broke = may_declare(HeroNow(0), HeroicAction.QUICKDRAW, Phase.SHOOTING, YES)
    assert not broke.allowed and "costs 1 Fame" in said(broke)[0]
    twice = may_declare(HeroNow(3, declared=True), HeroicAction.QUICKDRAW, Phase.SHOOTING, YES)
    assert not twice.allowed and twice.rules == ("OW-HERO-06",)
    phase = may_declare(HeroNow(3), HeroicAction.YEE_HAW, Phase.SHOOTING, YES)
    assert not phase.allowed and "Movement phase" in said(phase)[0]
    assert not may_declare(
        HeroNow(3, hero=False), HeroicAction.YEE_HAW, Phase.MOVEMENT, YES
    ).allowed


def test_OW_HERO_06_an_action_that_could_do_nothing_is_not_offered() -> None:
    pinned = may_shoot(Shooter(("pistol",), pinned=True))
    verdict = may_declare(HeroNow(2), HeroicAction.QUICKDRAW, Phase.SHOOTING, pinned)
    assert not verdict.allowed and verdict.rules == ("OW-HERO-09", "OW-PLK-06")
    en, ru = said(verdict)
    assert "shoot back" in en and "не может стрелять в ответ" in ru
    in_fight = may_move(Mover(engaged=True))
    assert not may_declare(HeroNow(2), HeroicAction.YEE_HAW, Phase.MOVEMENT, in_fight).allowed


def test_OW_HERO_06_whether_he_could_act_is_asked_only_when_the_rest_allows_it() -> None:
    asked: list[int] = []

    def pinned() -> Verdict:
        asked.append(1)
        return may_shoot(Shooter(("pistol",), pinned=True))

    not_a_hero = may_declare(HeroNow(3, hero=False), HeroicAction.QUICKDRAW, Phase.SHOOTING, pinned)
    broke = may_declare(HeroNow(0), HeroicAction.QUICKDRAW, Phase.SHOOTING, pinned)
    assert not not_a_hero.allowed and not broke.allowed and asked == []
    eager = may_declare(HeroNow(2), HeroicAction.QUICKDRAW, Phase.SHOOTING, pinned())
    lazy = may_declare(HeroNow(2), HeroicAction.QUICKDRAW, Phase.SHOOTING, pinned)
    assert lazy == eager and not lazy.allowed and asked == [1, 1]


def test_OW_HERO_10_time_for_whuppin_costs_one_fame_and_moves_only_when_all_foes_fell() -> None:
    """Seed: the cost is missing («может потратить [ ] очков Славы»): the general 1 Fame;
    «Если в результате этого Действия все противники Героя оказываются убитыми ... могут
    двигаться снова»."""
    assert may_declare(HeroNow(1), HeroicAction.WHUPPIN, Phase.CLOSE_COMBAT, YES).allowed
    assert not may_declare(HeroNow(0), HeroicAction.WHUPPIN, Phase.CLOSE_COMBAT, YES).allowed
    assert whuppin_moves(0).rules == ("OW-HERO-10",)
    left = whuppin_moves(2)
    assert not left.allowed and "2 opponents" in said(left)[0]


def test_OW_HERO_11_the_limit_on_time_for_whuppin_benefits() -> None:
    """Seed (compiler's note): a Hero who fought under his own Time for Whuppin' and moved
    into a second Hero's Whuppin' fight gets no second benefit — but models may fight in
    two fights this way, while nobody moves or shoots twice."""
    first = may_benefit(Beneficiary(), HeroicAction.WHUPPIN)
    assert first.rules == ("OW-HERO-10", "OW-HERO-11")
    again = may_benefit(Beneficiary(benefited=True, acted=True), HeroicAction.WHUPPIN)
    assert not again.allowed and again.rules == ("OW-HERO-11",)
    fought = may_benefit(
        Beneficiary(acted=True, distance=2.0, same_fight=True), HeroicAction.WHUPPIN
    )
    assert fought.allowed  # fighting already does not stop a Whuppin' move
    outsider = may_benefit(Beneficiary(distance=2.0), HeroicAction.WHUPPIN)
    assert not outsider.allowed and outsider.rules == ("OW-HERO-10",)
    moved = may_benefit(Beneficiary(acted=True, distance=2.0), HeroicAction.YEE_HAW)
    assert not moved.allowed and moved.rules == ("OW-HERO-11",)


def test_OW_HERO_08_09_a_paid_action_is_carried_out_or_says_why_not() -> None:
    """Yee Haw!: the Hero moves before everyone (he must be able to move); Quickdraw: he
    shoots first, and his friends shoot only if he did (OW-HERO-09)."""
    go = may_carry_out(HeroicAction.YEE_HAW, Beneficiary(), may_move(Mover()))
    assert go.allowed and go.rules == ("OW-HERO-08", "OW-HERO-11", "OW-ABSENT-02")
    charged = may_carry_out(HeroicAction.YEE_HAW, Beneficiary(), may_move(Mover(engaged=True)))
    assert not charged.allowed and "in a fight" in said(charged)[0]
    shot_already = may_carry_out(HeroicAction.QUICKDRAW, Beneficiary(acted=True), YES)
    assert not shot_already.allowed and shot_already.rules == ("OW-HERO-11",)
    assert not quickdraw_works(False).allowed and "did not shoot" in said(quickdraw_works(False))[0]


# -- voluntary flight (OW-PLK-02, OW-PLK-03, OW-PLK-04) ---------------------------------------


def test_OW_PLK_04_a_posse_may_flee_by_choice_once_half_or_more_is_out() -> None:
    """Seed: «после того, как Команда теряет половину или более фигурок, игрок может
    автоматически провалить тест на Бегство»."""
    assert may_flee(Posse(6, 3)).rules == ("OW-PLK-04",)
    early = may_flee(Posse(6, 2))
    assert not early.allowed and early.rules == ("OW-PLK-04", "OW-PLK-02")
    assert "2 of 6" in said(early)[0] and "выбыло 2 из 6" in said(early)[1]
    assert not may_flee(Posse(5, 2)).allowed and may_flee(Posse(5, 3)).allowed  # odd: 3 of 5


def test_OW_PLK_03_models_that_left_for_the_objective_do_not_count_towards_flight() -> None:
    statuses = (Status.LEFT_TABLE, Status.LEFT_TABLE, Status.OUT_OF_ACTION, Status.IN_ACTION)
    posse = Posse.of(statuses)
    assert (posse.models, posse.out_of_action, posse.left_table, posse.in_action) == (4, 1, 2, 1)
    verdict = may_flee(posse)
    assert not verdict.allowed and "OW-PLK-03" in verdict.rules
    gone = Posse.of((Status.OUT_OF_ACTION, Status.OUT_OF_ACTION, Status.FLED))
    assert not may_flee(gone).allowed


def test_OW_PLK_02_a_posse_takes_the_head_for_the_hills_test_once_half_is_out() -> None:
    """Seed: «Как только половина или более фигурок Команды выбывает из строя ... проводится
    тест на Бегство»; models that left for an objective do not count (OW-PLK-03)."""
    assert takes_the_test(Posse(6, 3)).rules == ("OW-PLK-02",)
    early = takes_the_test(Posse(6, 2, left_table=2))
    assert not early.allowed and "2 of 6" in said(early)[0] and "2 из 6" in said(early)[1]


def test_OW_HERO_09_quickdraw_is_for_a_hero_who_may_shoot_at_someone() -> None:
    """Seed: «Для того, чтобы это Действие сработало, Герой обязан сам выстрелить»: a Hero
    with nobody to shoot at cannot carry it out."""
    shooting = may_shoot(Shooter(("pistol",)))
    assert may_quickdraw(shooting, True).rules == ("OW-ABSENT-04", "OW-HERO-09")
    idle = may_quickdraw(shooting, False)
    assert not idle.allowed and idle.rules == ("OW-HERO-09", "OW-ABSENT-04")
    assert "no enemy he may shoot at" in said(idle)[0]
    pinned = may_shoot(Shooter(("pistol",), pinned=True))
    assert may_quickdraw(pinned, True) == pinned


def test_OW_HERO_10_whuppin_is_carried_out_only_by_a_hero_who_may_still_fight() -> None:
    """His fight is fought first, never a second time in the phase: a Hero whose fight was
    fought already (in another Hero's Whuppin') cannot carry his own out."""
    in_fight = in_a_fight(True)
    fresh = may_fight(Fighting())
    assert may_whup(Beneficiary(), in_fight, fresh, fought=False).allowed
    done = may_fight(Fighting(fought=True))
    refused = may_whup(Beneficiary(), in_fight, done, fought=True)
    assert not refused.allowed and refused.reason == done.reason
    assert refused.rules == ("OW-CC-01", "OW-ABSENT-03", "OW-HERO-10")
    alone = may_whup(Beneficiary(), in_a_fight(False), fresh, fought=False)
    assert not alone.allowed and alone.rules[0] == "OW-HERO-10"


def test_OW_HERO_08_a_follower_ends_within_6_inches_as_measured_not_as_rounded() -> None:
    """Seed: «должны закончить своё движение в пределах 6" от Героя»: 6.02" is beyond 6"
    (it was rounded to 6.0" and let through)."""
    assert may_end_move(MoveEnd(3.0, hero_gap=6.0)).allowed
    beyond = may_end_move(MoveEnd(3.0, hero_gap=6.02))
    assert not beyond.allowed and beyond.rules == ("OW-HERO-08",)
    assert "6.02" in said(beyond)[0]
