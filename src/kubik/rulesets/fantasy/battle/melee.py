"""The close-combat phase of a fantasy battle: each pair of regiments in contact
fights a round (:func:`~kubik.rulesets.fantasy.close_combat.close_combat_round`),
then takes its casualties, and the broken flee or are cut down (FB-ABSENT-07,
FB-ABSENT-08); and the round a charge would start, for the bots' forecasts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from kubik.engine import Call, Procedure, emit
from kubik.game.battle import taste
from kubik.rulesets.fantasy.battle.moves import run_away
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Unit
from kubik.rulesets.fantasy.close_combat import (
    ChallengeChoice,
    Facing,
    Regiment,
    Round,
    RoundOutcome,
    close_combat_round,
)
from kubik.rulesets.fantasy.movement import Rout, RoutOutcome, rout


def worth() -> Callable[[RoundOutcome], float]:
    """What a round's outcome is worth to side ``a``, the charger (bot tastes)."""
    won, slain = taste("fantasy", "round_won"), taste("fantasy", "enemy_slain")
    broke, own = taste("fantasy", "enemy_broken"), taste("fantasy", "own_broken")

    def value(o: RoundOutcome) -> float:
        score = won * (o.winner == "a") - won * (o.winner == "b")
        score += slain * (o.b_lost - o.a_lost)
        score += broke * (o.broken == "b") + own * (o.broken == "a")
        return score

    return value


def round_of(
    game: FantasyState, a: Unit, b: Unit, number: int, face: Facing | None = None
) -> Round:
    """The close-combat round between two regiments, ``a`` charging in round one
    (into ``face`` of ``b``)."""
    return Round(
        regiment(game, a, b, number == 1, face),
        regiment(game, b, a, False),
        number,
        ChallengeChoice.ACCEPT,
    )


def regiment(
    game: FantasyState, unit: Unit, enemy: Unit, charging: bool, face: Facing | None = None
) -> Regiment:
    spec = unit.spec
    hates = enemy.id in spec.hates or enemy.side in spec.hates
    return Regiment(
        troops=replace(spec.troops, rules=unit.rules()),
        models=unit.models,
        files=spec.files,
        kind=spec.kind,
        command=unit.command(),
        character=spec.character if unit.hero_alive else None,
        battle_standard=spec.battle_standard,
        general=spec.general,
        charging=charging,
        skirmish=spec.skirmish,
        facing=unit.faces.get(enemy.id, Facing.FRONT) if face is None else face,
        hates_enemy=hates,
        impact=spec.impact,
        breath_strength=spec.breath_strength if game.may_breathe_now(unit) else None,
        terror_tested=unit.terror_tested,
        reach=game.command_for(unit),
        wounds_taken=unit.wounds % spec.troops.w,
    )


def close_combat(game: FantasyState, side: str) -> Procedure[None]:
    done: list[str] = []
    for unit in list(game.units):
        for foe in game.board.engaged(unit):
            foe_id = foe.id
            key = "|".join(sorted((unit.id, foe_id)))
            if key in done or not unit.fighting:
                continue
            done.append(key)
            number = unit.rounds.get(foe_id, 0) + 1
            unit.rounds[foe_id] = foe.rounds[unit.id] = number
            a, b = (unit, foe) if unit.side == side or number > 1 else (foe, unit)
            charger_first = number == 1
            r = Round(
                regiment(game, a, b, charger_first and a.side == side),
                regiment(game, b, a, charger_first and b.side == side),
                number,
                ChallengeChoice.ACCEPT,
            )
            yield emit(
                "fantasy.game.fight",
                rules=("FB-ABSENT-07",),
                a=game.name(a.id),
                b=game.name(b.id),
                round=number,
            )
            for fighter, reg in ((a, r.a), (b, r.b)):
                if reg.breath_strength is not None and "breath_weapon" in reg.troops.rules:
                    fighter.breaths += 1
                    fighter.breathed = game.turn_number
            out: RoundOutcome = yield Call(close_combat_round, (r,))
            yield from after_round(game, a, b, out)


def after_round(game: FantasyState, a: Unit, b: Unit, out: RoundOutcome) -> Procedure[None]:
    for unit, foe, lost, hero_lost in (
        (a, b, out.a_lost, out.a_character_lost),
        (b, a, out.b_lost, out.b_character_lost),
    ):
        game.wound(unit, lost * unit.spec.troops.w)
        if lost:
            game.credit_kill(foe.id, lost)
        if hero_lost and unit.hero_alive:
            unit.hero_alive = False
            game.credit_kill(foe.id)
        if "fear" in foe.rules() or "terror" in foe.rules():
            unit.terror_tested = unit.terror_tested or "terror" in foe.rules()
    yield from game.casualty_notes()
    for unit in (a, b):
        if unit.models == 0 and not unit.hero_alive:
            game.destroy(unit, by=None)
    loser = a if out.winner == "b" else b if out.winner == "a" else None
    if loser is not None and "frenzy" in loser.rules():
        loser.frenzy_lost = True
    if out.broken is None or not a.on_table or not b.on_table:
        return
    broken, victor = (a, b) if out.broken == "a" else (b, a)
    swift = victor.spec.kind.value in ("cavalry", "chariot")  # flyers pursue on foot
    result: RoutOutcome = yield Call(
        rout, (Rout(broken.spec.kind.value == "cavalry", swift, True),)
    )
    if result.caught:
        yield emit("fantasy.game.cut_down", rules=("FB-ABSENT-08",), unit=game.name(broken.id))
        game.destroy(broken, by=victor)
        return
    yield from run_away(game, broken, victor, float(result.fled))
    game.contacts.release(victor.id, broken.id)
