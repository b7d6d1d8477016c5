"""The close-combat phase of a fantasy battle: each pair of regiments in contact
fights a round (:func:`~kubik.rulesets.fantasy.close_combat.close_combat_round`),
then takes its casualties, and the broken flee or are cut down (FB-ABSENT-07,
FB-ABSENT-08); and the round a charge would start, for the bots' forecasts."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import repeat

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, taste
from kubik.rulesets.fantasy.battle import panic
from kubik.rulesets.fantasy.battle.formation import ahead, corner_contact, right
from kubik.rulesets.fantasy.battle.moves import run_away
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Act, ChargePlan, Fight, Unit, fight_key
from kubik.rulesets.fantasy.challenge import (
    DuelOutcome,
    duel_round,
    may_accept,
    may_challenge,
    may_refuse,
)
from kubik.rulesets.fantasy.close_combat import (
    ChallengeChoice,
    Facing,
    Regiment,
    Round,
    RoundOutcome,
    charged_face,
    close_combat_round,
    duel_of,
    has_duelist,
    may_strike_mount,
    may_strike_rider,
)
from kubik.rulesets.fantasy.movement import Rout, RoutOutcome, rout, swift
from kubik.rulesets.fantasy.strikes import fighting_ranks
from kubik.table import Base


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
    game: FantasyState, a: Unit, b: Unit, number: int, plan: ChargePlan | None = None
) -> Round:
    """The close-combat round a charge of ``a`` would start against ``b`` (``plan``:
    the charge, :func:`~.charges.charge_plan`), for the bots' forecasts: the two as
    they would stand, no challenge assumed (the sides decide that when they meet)."""
    face = plan.face if plan is not None else None
    placed = a.bases(plan.goal, plan.facing) if plan is not None else None
    inches = plan.distance if plan is not None else None
    return Round(
        regiment(game, a, b, number == 1, face, placed=placed, charge_inches=inches),
        regiment(game, b, a, False, enemy_placed=placed),
        number,
        ChallengeChoice.NONE,
    )


def regiment(
    game: FantasyState,
    unit: Unit,
    enemy: Unit,
    charging: bool,
    face: Facing | None = None,
    *,
    placed: Sequence[Base] | None = None,
    enemy_placed: Sequence[Base] | None = None,
    charge_inches: float | None = None,
    fight: Fight | None = None,
) -> Regiment:
    """``unit`` as it comes into a round against ``enemy``: who of it is in base
    contact (``placed``, ``enemy_placed``: where the two would stand, for a forecast),
    what lasts from the combat's earlier rounds (``fight``)."""
    spec = unit.spec
    hero = spec.character if unit.hero_alive else None
    fighters, hero_in = in_contact(game, unit, enemy, placed, enemy_placed)
    refused = fight is not None and fight.refused == unit.id
    return Regiment(
        troops=replace(spec.troops, rules=unit.rules()),
        models=unit.models,
        files=spec.files,
        kind=spec.kind,
        command=unit.command(),
        character=hero,
        battle_standard=spec.battle_standard,
        general=spec.general,
        charging=charging,
        skirmish=spec.skirmish,
        facing=unit.faces.get(enemy.id, Facing.FRONT) if face is None else face,
        hates_enemy=game.hates(unit, enemy),
        impact=spec.impact,
        breath_strength=(
            spec.breath_strength
            if spec.breath_strength is not None and game.may_breathe_now(unit)
            else None
        ),
        afraid=fight is not None and fight.afraid.get(unit.id, False),
        terror_tested=unit.terror_tested,
        reach=game.command_for(unit),
        wounds_taken=unit.wounds % spec.troops.w,
        fighters=fighters,
        character_in_contact=hero_in,
        character_wounds_taken=unit.hero_wounds if hero is not None else 0,
        refused=refused,
        name=game.name(unit.id),
        character_name=game.name(f"{unit.id}.hero") if hero is not None else None,
        charge_inches=(unit.charge_inches if charge_inches is None else charge_inches)
        if charging
        else None,
    )


def face_fought(unit: Unit, enemy: Unit) -> Facing:
    """The face of ``unit`` that ``enemy`` fights: the one it charged, else the front."""
    return enemy.faces.get(unit.id, Facing.FRONT)


def in_contact(
    game: FantasyState,
    unit: Unit,
    enemy: Unit,
    placed: Sequence[Base] | None = None,
    enemy_placed: Sequence[Base] | None = None,
) -> tuple[int, bool]:
    """Who of ``unit`` fights ``enemy`` (FB-ABSENT-13): its rank and file in base
    contact with the enemy's models — corner to corner counting, as square bases
    touch — and, against an enemy at its front, those behind them in the ranks that
    fight (:func:`~kubik.rulesets.fantasy.strikes.fighting_ranks`); and whether its
    character (who stands in the middle of its front rank) is in base contact."""
    mine = list(unit.bases() if placed is None else placed)
    theirs = list(enemy.bases() if enemy_placed is None else enemy_placed)
    corner = corner_contact()
    dist = math.dist
    centres = [t.centre for t in theirs]
    reach = corner + (theirs[0].radius if theirs else 0.0)  # (a regiment: bases of one size)
    touching = [
        bool(centres) and min(map(dist, repeat(b.centre), centres)) - b.radius <= reach
        for b in mine
    ]
    first = 1 if unit.hero_alive else 0  # the character stands in the first place
    files = unit.spec.files
    fighting = {k for k in range(first, len(mine)) if touching[k]}
    if face_fought(unit, enemy) is Facing.FRONT:
        ranks = fighting_ranks(unit.spec.troops)
        for k in range(min(files, len(mine))):
            if touching[k]:
                fighting.update(k + files * r for r in range(1, ranks) if k + files * r < len(mine))
    fighting.discard(0 if unit.hero_alive else -1)
    hero_in = bool(unit.hero_alive and touching[0])
    return len(fighting), hero_in


def close_combat(game: FantasyState, side: str) -> Procedure[None]:
    """Every fight on the table fights a round, the charger's side first in a new
    fight (FB-ABSENT-17); a fight's first round begins with the challenge, if the
    sides make one (FB-CHAL-01/02)."""
    done: list[str] = []
    for unit in list(game.units):
        for foe in game.board.engaged(unit):
            key = fight_key(unit, foe)
            if key in done or not unit.fighting:
                continue
            done.append(key)
            fight = game.fights.setdefault(key, Fight())
            fight.rounds += 1
            number = fight.rounds
            unit.rounds[foe.id] = foe.rounds[unit.id] = number
            a, b = (unit, foe) if unit.side == side or number > 1 else (foe, unit)
            charger_first = number == 1
            ra = regiment(game, a, b, charger_first and a.side == side, fight=fight)
            rb = regiment(game, b, a, charger_first and b.side == side, fight=fight)
            yield emit(
                "fantasy.game.fight",
                rules=("FB-ABSENT-07",),
                a=game.name(a.id),
                b=game.name(b.id),
                round=number,
            )
            choice, challenger = yield from challenge(game, fight, a, b, ra, rb, number)
            r = Round(
                ra,
                rb,
                number,
                choice,
                challenger,
                duel_goes_on=number > 1 and fight.duel != "",
            )
            r = yield from at_rider(game, a, b, r)
            for fighter, reg in ((a, r.a), (b, r.b)):
                if reg.breath_strength is not None and "breath_weapon" in reg.troops.rules:
                    fighter.breaths += 1
                    fighter.breathed = game.turn_number
            a.acted = b.acted = True
            out: RoundOutcome = yield Call(close_combat_round, (r,))
            fight.afraid[a.id], fight.afraid[b.id] = out.a_afraid, out.b_afraid
            if not out.duel_goes_on:
                fight.duel = ""
            yield from after_round(game, a, b, out)


def sides_engaged(game: FantasyState, unit: Unit) -> frozenset[str]:
    """The faces of ``unit`` enemies fight it on: front, left, right, rear (the arcs of
    FB-ABSENT-07 from the middle of its formation to each enemy's)."""
    out: set[str] = set()
    (dx, dy), (rx, ry) = ahead(unit.facing), right(unit.facing)
    cx, cy = unit.centre()
    deep, wide = unit.depth() / 2, unit.frontage() / 2
    for enemy in game.board.engaged(unit):
        ex, ey = enemy.centre()
        across, along = (ex - cx) * rx + (ey - cy) * ry, (ex - cx) * dx + (ey - cy) * dy
        face = charged_face(across, along - deep, wide, 2 * deep, loose=unit.spec.skirmish)
        if face is Facing.FLANK:
            out.add("right" if across > 0 else "left")
        else:
            out.add(face.value)
    return frozenset(out)


def challenge(
    game: FantasyState,
    fight: Fight,
    a: Unit,
    b: Unit,
    ra: Regiment,
    rb: Regiment,
    number: int,
) -> Procedure[tuple[ChallengeChoice, str | None]]:
    """The challenge of a fight (FB-CHAL-01/02): a duel of an earlier round goes on;
    else in the first round the charging side may challenge, and if it does not the
    other may; the challenged side accepts or refuses — not when its unit is
    surrounded. Returns the choice and the side (``a``/``b``) that challenged."""
    if fight.duel:
        return ChallengeChoice.ACCEPT, "a" if fight.duel == a.id else "b"
    side_a, side_b = (a, ra, "a"), (b, rb, "b")
    turns = (
        ((side_b, side_a), (side_a, side_b))
        if rb.charging
        else ((side_a, side_b), (side_b, side_a))
    )
    for (challenger, mine, letter), (challenged, theirs, _) in turns:
        verdict = may_challenge(
            first_round=number == 1,
            has_duelist=has_duelist(mine),
            enemy_has_duelist=has_duelist(theirs),
            already=fight.challenged,
        )
        menu: Menu[Act] = Menu()
        duel = duel_of(mine, theirs) if verdict.allowed else None
        menu.offer(
            Act("challenge", challenged.id),
            msg("fantasy.option.challenge", target=game.name(challenged.id)),
            verdict,
            None if duel is None else Forecast(duel_round, (duel,), value=duel_worth(True)),
        )
        if not menu.offers:
            continue
        menu.offer(
            Act("no_challenge"),
            msg("fantasy.option.no_challenge"),
            Verdict.neutral(),
            Forecast(score=taste("fantasy", "no_challenge")),
        )
        act = yield from game.choose(
            menu,
            challenger.side,
            msg("fantasy.game.challenge", unit=game.name(challenger.id)),
            rules=("FB-CHAL-01",),
        )
        if act.kind != "challenge":
            continue
        fight.challenged = True
        answer: Menu[Act] = Menu()
        answer.offer(
            Act("accept"),
            msg("fantasy.option.accept"),
            may_accept(),
            None if duel is None else Forecast(duel_round, (duel,), value=duel_worth(False)),
        )
        refuse = may_refuse(sides_engaged(game, challenged) >= ALL_SIDES)
        answer.offer(
            Act("refuse"),
            msg("fantasy.option.refuse"),
            refuse,
            Forecast(score=taste("fantasy", "refuse_challenge")),
        )
        reply = yield from game.choose(
            answer,
            challenged.side,
            msg("fantasy.game.challenged", unit=game.name(challenged.id)),
            rules=("FB-CHAL-02",),
        )
        if reply.kind == "refuse":
            fight.refused = challenged.id
            return ChallengeChoice.REFUSE, letter
        fight.duel = challenger.id
        return ChallengeChoice.ACCEPT, letter
    return ChallengeChoice.NONE, None


def at_rider(game: FantasyState, a: Unit, b: Unit, r: Round) -> Procedure[Round]:
    """Each side fighting a monster with a rider chooses where its blows go: at the
    rider or at the monster (:func:`~kubik.rulesets.fantasy.close_combat.may_strike_rider`),
    weighing the round's odds either way."""
    for side, unit, enemy in (("a", a, b), ("b", b, a)):
        other = "b" if side == "a" else "a"
        theirs = r.b if side == "a" else r.a
        rider = may_strike_rider(theirs)
        if not rider.allowed:
            continue
        menu: Menu[Act] = Menu()
        for kind, verdict, aimed in (
            ("strike_mount", may_strike_mount(), False),
            ("strike_rider", rider, True),
        ):
            mine = replace(r.a if side == "a" else r.b, strike_rider=aimed)
            option = replace(r, a=mine) if side == "a" else replace(r, b=mine)
            menu.offer(
                Act(kind, enemy.id),
                msg(f"fantasy.option.{kind}", target=game.name(enemy.id)),
                verdict,
                Forecast(
                    close_combat_round,
                    (option,),
                    value=side_worth(side),
                    sides=((side, game.name(unit.id)), (other, game.name(enemy.id))),
                ),
            )
        act = yield from game.choose(
            menu,
            unit.side,
            msg("fantasy.game.at_rider", unit=game.name(unit.id), target=game.name(enemy.id)),
            rules=("FB-SR-16",),
        )
        if act.kind == "strike_rider":
            mine = replace(r.a if side == "a" else r.b, strike_rider=True)
            r = replace(r, a=mine) if side == "a" else replace(r, b=mine)
    return r


def side_worth(side: str) -> Callable[[RoundOutcome], float]:
    """What a round's outcome is worth to ``side`` (bot tastes)."""
    value = worth()
    return value if side == "a" else lambda o: -value(o)


#: The four faces a unit surrounded on all sides is fought on (FB-CHAL-02).
ALL_SIDES = frozenset({"front", "left", "right", "rear"})


def duel_worth(challenging: bool) -> Callable[[DuelOutcome], float]:
    """What a duel's first round is worth to the challenger (or to the challenged)."""
    won, lost = taste("fantasy", "duel_won"), taste("fantasy", "duel_lost")

    def value(out: DuelOutcome) -> float:
        mine = "challenger" if challenging else "challenged"
        if out.dead is None:
            return 0.0
        return lost if out.dead == mine else won + 0.2 * out.overkill

    return value


def after_round(game: FantasyState, a: Unit, b: Unit, out: RoundOutcome) -> Procedure[None]:
    """The round's casualties, the dead removed, Frenzy lost, the broken fleeing or cut
    down, and the panic of their friends nearby (FB-ABSENT-08, FB-ABSENT-09)."""
    stood = {a.id: a.bases(), b.id: b.bases()}
    for unit, foe, lost, hero_lost, hero_wounds, champion in (
        (a, b, out.a_lost, out.a_character_lost, out.a_character_wounds, out.a_champion_lost),
        (b, a, out.b_lost, out.b_character_lost, out.b_character_wounds, out.b_champion_lost),
    ):
        if champion:
            unit.champion_lost = True  # fallen in a duel, before his turn (FB-CMD-05)
        game.wound(unit, lost * unit.spec.troops.w)
        if lost:
            game.credit_kill(foe.id, lost)
        unit.hero_wounds += hero_wounds
        if hero_lost and unit.hero_alive:
            unit.hero_alive = False
            game.credit_kill(foe.id)
        if "fear" in foe.rules() or "terror" in foe.rules():
            unit.terror_tested = unit.terror_tested or "terror" in foe.rules()
    yield from game.casualty_notes()
    gone = [u for u in (a, b) if u.models == 0 and not u.hero_alive]
    for unit in gone:
        game.destroy(unit, by=None)
    loser = a if out.winner == "b" else b if out.winner == "a" else None
    if loser is not None and "frenzy" in loser.rules():
        loser.frenzy_lost = True
    if out.broken is None or not a.on_table or not b.on_table:
        for unit in gone:
            yield from panic.friends_panic(game, unit, stood[unit.id])
        return
    broken, victor = (a, b) if out.broken == "a" else (b, a)
    result: RoutOutcome = yield Call(
        rout, (Rout(swift(broken.spec.kind), swift(victor.spec.kind), True),)
    )
    if result.caught:
        yield emit("fantasy.game.cut_down", rules=("FB-ABSENT-08",), unit=game.name(broken.id))
        game.destroy(broken, by=victor)
        yield from panic.friends_panic(game, broken, stood[broken.id])
        return
    yield from run_away(game, broken, victor, float(result.fled))
    game.contacts.release(victor.id, broken.id)
    yield from panic.friends_panic(game, broken, stood[broken.id])
