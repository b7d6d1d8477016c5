"""The close-combat phase (seed 003, «Фаза рукопашного боя»): warriors within a pace of a
fight are drawn in (RA-CC-02), one-on-one fights come first (RA-CC-03), every warrior
fights each enemy in contact with the outnumbering bonus (RA-CC-18), a winner with no
opponent left may advance a pace (RA-CC-19), and a warrior alone against two or more
tests his nerve at the end of the phase (RA-PSY-05) or breaks (RA-CC-20).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubik.engine import Call, Forecast, Message, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, Walk
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.arms import Loadout, may_fight_with
from kubik.rulesets.apocalypse.battle.nerve import start_fleeing
from kubik.rulesets.apocalypse.battle.songs import ward_bonus
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Condition, Ground, Morale, Sight, Warrior
from kubik.rulesets.apocalypse.battle.wounds import harm, revealed_note
from kubik.rulesets.apocalypse.checks import spirit_test
from kubik.rulesets.apocalypse.close_combat import (
    advance_reach,
    drawn_in_reach,
    fight_order,
    may_advance,
    may_hold_back,
    may_join,
    may_strike,
    orders_strikes,
)
from kubik.rulesets.apocalypse.melee import (
    Fighter,
    MeleeOutcome,
    Winner,
    melee,
    outnumbering,
    weapon_for_hits,
)
from kubik.rulesets.apocalypse.psychology import all_alone, friends_reach


def fighter(
    game: ApocalypseState, w: Warrior, opponent: Warrior, side: str, outnumber: int = 0
) -> Fighter:
    """The rule's situation of one fighter in a bout against ``opponent`` during
    ``side``'s close-combat phase."""
    own_turn = w.side == side
    charging = own_turn and w.turn.charged
    first_round = w.turn.charged or opponent.turn.charged
    return Fighter(
        toughness=w.toughness,
        combat_skill=w.combat_skill,
        movement=w.mobility,
        wounds=w.wounds,
        attack_dice=w.attack_dice,
        charging=charging,
        elevated=game.height(w) > game.height(opponent),
        shield=w.shield_in_hand,
        extra_weapons=max(0, len(w.melee_weapons()) - 1),
        over_obstacle=charging and w.turn.over_obstacle,
        leap_attack=charging and w.turn.leapt,
        afraid=w.turn.afraid_of == opponent.id,
        terrified=w.terrified,
        outnumber=outnumber,
        frenzied=w.frenzied,
        insensitive=w.has("insensitive"),
        hatred=w.has("hatred") and first_round,
        knocked_down=w.condition is not Condition.STANDING,
        stupid=w.stupor.value != "sensible",
        bonus=ward_bonus(game, w),
    )


def bout_worth(outcome: MeleeOutcome) -> float:
    """What a bout is worth to fighter ``a`` (bot tastes)."""
    if outcome.winner is Winner.A:
        return outcome.hits * taste("apocalypse", "hit")
    if outcome.winner is Winner.B:
        return -outcome.hits * taste("apocalypse", "hit_taken")
    return 0.0


def close_combat(game: ApocalypseState, side: str) -> Procedure[None]:
    """The whole close-combat phase of ``side``'s turn: warriors within a pace of a
    fight drawn in (RA-CC-02), weapons declared (RA-CC-07), one-on-one fights first
    (RA-CC-03), then each fight of several in the order its outnumbering player picks
    (RA-CC-18), and at the end the warriors left alone test their nerve (RA-PSY-05)."""
    yield emit(
        "apocalypse.game.phase",
        rules=("RA-CC-01",),
        phase=msg("apocalypse.phase.close_combat"),
    )
    yield from _drawn_in(game, side)
    for w in game.warriors:
        if not game.contacts.of(w.id):
            w.loadout = None  # his fight is over: he may choose again for the next
    for w in game.warriors:
        if w.loadout is None and w.in_battle and game.board.engaged(w):
            yield from _arm(game, w, game.board.engaged(w)[0], side)
    groups = _groups(game)
    groups.sort(key=lambda g: fight_order(len(g)))
    for group in groups:
        if len(group) > 2:
            members = [game.warrior(x) for x in group if game.warrior(x).in_battle]
            yield emit(
                "apocalypse.game.multi_fight",
                rules=("RA-CC-03", "RA-CC-18"),
                count=len(members),
                first=tuple(game.name(w.id) for w in members if w.side == side),
                second=tuple(game.name(w.id) for w in members if w.side != side),
            )
        yield from _fight(game, group, side)
    for w in game.side_warriors(side):
        yield from _alone(game, w)


def _fight(game: ApocalypseState, group: list[str], side: str) -> Procedure[None]:
    """Every bout of one fight: each warrior against each enemy in contact with him. In a
    fight of several the player who outnumbers the other picks who strikes next, bout by
    bout, weighing each by its odds (RA-CC-18: «Игрок, превосходящий по численности, может
    решить, кто из его моделей и в какой последовательности будет бить»)."""
    fought: list[tuple[str, str]] = []
    # a contact made during the phase (an advance, RA-CC-19) is fought in the next one
    begun = _contacts(game, group)
    while True:
        left = [p for p in _bouts(game, group, side) if frozenset(p) in begun and p not in fought]
        if not left:
            return
        pair = left[0]
        if len(left) > 1:
            pair = yield from _next_bout(game, group, side, left, begun)
        fought.append(pair)
        a, b = game.warrior(pair[0]), game.warrior(pair[1])
        yield from _bout(game, a, b, _numbers(game, group, begun), side)


def _contacts(game: ApocalypseState, group: list[str]) -> set[frozenset[str]]:
    """The pairs in base contact in a fight now."""
    return {
        frozenset((pair.a, pair.b))
        for pair in game.contacts.pairs()
        if pair.a in group and pair.b in group
    }


def _next_bout(
    game: ApocalypseState,
    group: list[str],
    side: str,
    left: list[tuple[str, str]],
    begun: set[frozenset[str]],
) -> Procedure[tuple[str, str]]:
    """The outnumbering player's pick of the next bout (RA-CC-18; equal numbers: the
    player whose phase it is, RA-CC-03)."""
    counts = _numbers(game, group, begun)
    decider = orders_strikes(counts, side)
    more = counts.get(decider, 0) > min(counts.values(), default=0)
    menu: Menu[tuple[str, str]] = Menu()
    for a_id, b_id in left:
        a, b = game.warrior(a_id), game.warrior(b_id)
        mine, theirs = (a, b) if a.side == decider else (b, a)
        fa, fb = _fighters(game, a, b, counts, side)
        menu.offer(
            (a_id, b_id),
            msg("apocalypse.option.strike", unit=game.name(mine.id), target=game.name(theirs.id)),
            may_strike(game.contacts.engaged(a_id, b_id)),
            Forecast(
                melee,
                (fa, fb, (a.side, b.side)),
                value=_worth_to(decider == a.side),
                sides=_named(game, ("a", a), ("b", b), decider),
            ),
        )
    picked = yield from game.choose(
        menu,
        decider,
        msg(
            "apocalypse.reason.strike_order" if more else "apocalypse.reason.strike_order_even",
            side=game.side_name(decider),
        ),
        default=left[0],
        rules=("RA-CC-18",),
    )
    return picked


def _worth_to(first: bool) -> Callable[[MeleeOutcome], float]:
    """A bout's worth to the side of its first fighter (``first``), or of its second."""
    return bout_worth if first else _worth_to_b


def _worth_to_b(outcome: MeleeOutcome) -> float:
    return -bout_worth(outcome)


def _named(
    game: ApocalypseState, a: tuple[str, Warrior], b: tuple[str, Warrior], decider: str
) -> tuple[tuple[str, Message], ...]:
    """The bout's two letters and who they stand for, the deciding side's first."""
    pairs = (a, b) if a[1].side == decider else (b, a)
    return tuple((letter, game.name(w.id)) for letter, w in pairs)


def _numbers(game: ApocalypseState, group: list[str], begun: set[frozenset[str]]) -> dict[str, int]:
    """How many warriors each side has in a fight: everyone still in contact with an
    enemy he was fighting when the phase began, knocked-down men too — a fighter down is
    one of its fighters (RA-CC-18, RA-CC-17)."""
    counts: dict[str, int] = {}
    for wid in group:
        w = game.warrior(wid)
        if w.in_battle and any(frozenset((wid, o)) in begun for o in game.contacts.of(wid)):
            counts[w.side] = counts.get(w.side, 0) + 1
    return counts


def _fighters(
    game: ApocalypseState, a: Warrior, b: Warrior, counts: dict[str, int], side: str
) -> tuple[Fighter, Fighter]:
    """The two fighters of a bout, each with his side's outnumbering (RA-CC-18)."""
    mine, theirs = counts.get(a.side, 0), counts.get(b.side, 0)
    return (
        fighter(game, a, b, side, outnumbering(mine, theirs)),
        fighter(game, b, a, side, outnumbering(theirs, mine)),
    )


def _arm(game: ApocalypseState, w: Warrior, opponent: Warrior, side: str) -> Procedure[None]:
    """Before his fight begins he declares the weapons he fights with — a pistol holstered
    for a knife, one weapon in the hand a bulky gun leaves free — and keeps them until
    the fight is over (RA-CC-07)."""
    loadouts = w.loadouts()
    if len(loadouts) == 1:
        w.loadout = loadouts[0]
        return
    menu: Menu[Loadout] = Menu()
    for chosen in loadouts:
        w.loadout = chosen
        menu.offer(
            chosen,
            msg(
                "apocalypse.option.fight_with_shield"
                if chosen.shield
                else "apocalypse.option.fight_with",
                weapons=_weapon_names(game, w),
            ),
            may_fight_with(chosen, w.weapons, w.shield),
            Forecast(
                melee,
                (fighter(game, w, opponent, side), fighter(game, opponent, w, side)),
                value=bout_worth,
            ),
        )
    w.loadout = yield from game.choose(
        menu,
        w.side,
        msg("apocalypse.reason.arm", unit=game.name(w.id)),
        default=loadouts[0],
        rules=("RA-CC-07",),
    )
    yield emit(
        "apocalypse.game.arms_shield" if w.shield_in_hand else "apocalypse.game.arms",
        rules=("RA-CC-07", "RA-CC-13") if w.shield else ("RA-CC-07",),
        unit=game.name(w.id),
        weapons=_weapon_names(game, w),
    )


def _weapon_names(game: ApocalypseState, w: Warrior) -> tuple[Any, ...]:
    """The names of the weapons he fights with (fists when none)."""
    return tuple(game.name(f"weapon:{x.id}") for x in w.melee_weapons()) or (
        msg("apocalypse.fists"),
    )


def _groups(game: ApocalypseState) -> list[list[str]]:
    """The fights: warriors linked by contact, in the order the fights started."""
    groups: list[list[str]] = []
    for pair in game.contacts.pairs():
        found = [g for g in groups if pair.a in g or pair.b in g]
        merged = [x for g in found for x in g]
        for member in (pair.a, pair.b):
            if member not in merged:
                merged.append(member)
        groups = [g for g in groups if g not in found] + [merged]
    return groups


def _bouts(game: ApocalypseState, group: list[str], side: str) -> list[tuple[str, str]]:
    """Every pair still fighting in a fight (both in the battle and in contact, not
    both down), the warrior of the side whose turn it is first."""
    out = []
    for pair in game.contacts.pairs():
        if pair.a in group and pair.b in group:
            a, b = game.warrior(pair.a), game.warrior(pair.b)
            if not (a.in_battle and b.in_battle):
                continue
            if a.condition is not Condition.STANDING and b.condition is not Condition.STANDING:
                continue
            out.append((a.id, b.id) if a.side == side or b.side != side else (b.id, a.id))
    return out


def _bout(
    game: ApocalypseState, a: Warrior, b: Warrior, counts: dict[str, int], side: str
) -> Procedure[None]:
    """One bout of a fight, each side with its numbers in it (RA-CC-18)."""
    fa, fb = _fighters(game, a, b, counts, side)
    abilities = ("RA-ABSENT-15",) if a.abilities or b.abilities else ()
    yield emit(
        "apocalypse.game.bout",
        rules=("RA-CC-01", "RA-CC-03", "RA-CC-04", "RA-ABSENT-13", *abilities),
        a=game.name(a.id),
        b=game.name(b.id),
    )
    outcome: MeleeOutcome = yield Call(melee, (fa, fb, (a.side, b.side)))
    if outcome.winner is Winner.DRAW or not outcome.hits:
        return
    winner, loser = (a, b) if outcome.winner is Winner.A else (b, a)
    weapons = weapon_for_hits(tuple(x.id for x in winner.melee_weapons()), outcome.hits)
    yield emit(
        "apocalypse.game.blows",
        rules=("RA-CC-14", "RA-CC-15", "RA-CC-16"),
        unit=game.name(winner.id),
        target=game.name(loser.id),
        weapons=tuple(
            game.name(f"weapon:{x}") if x != "fists" else msg("apocalypse.fists")
            for x in dict.fromkeys(weapons)
        ),
        hits=outcome.hits,
    )
    yield from harm(game, loser, outcome.hits, by=winner, in_hand=True)
    if not loser.in_battle and winner.fit and not game.board.engaged(winner):
        yield from _advance(game, winner)


def _advance(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """All his opponents out of action: he may advance a pace (RA-CC-19)."""
    reach = advance_reach()
    board = game.board
    enemy = board.nearest(w, [e for e in board.enemies(w) if e.fit and e.sight.value != "hidden"])
    if enemy is None:
        return
    menu: Menu[bool] = Menu()
    menu.offer(False, msg("apocalypse.option.stay"), Verdict.neutral())
    close = board.gap(w, enemy) <= reach
    menu.offer(
        True,
        msg("apocalypse.option.advance_pace", target=game.name(enemy.id)),
        may_advance(len(board.engaged(w))),
        Forecast(score=0.1 if close else 0.02),
    )
    go = yield from game.choose(
        menu,
        w.side,
        game.told(w, "apocalypse.reason.advance", unit=game.name(w.id)),
        default=False,
        rules=("RA-CC-19",),
    )
    if not go:
        return
    way = board.charge_way(w, enemy, reach) if close else None
    if way is not None:  # a pace brings him into contact: the fight goes on next phase
        game.place(w, way.end)
        game.contacts.engage(w.id, enemy.id, ("RA-CC-19",))
        yield emit(
            "apocalypse.game.advances_into",
            rules=("RA-CC-19",),
            unit=game.name(w.id),
            target=game.name(enemy.id),
        )
        return
    walked = game.walk(w, enemy.base.centre, reach)
    if walked is None:
        return
    game.place(w, walked.end)
    yield emit("apocalypse.game.advances", rules=("RA-CC-19",), unit=game.name(w.id))


def _drawn_in(game: ApocalypseState, side: str) -> Procedure[None]:
    """Warriors within a pace of a fight are drawn into it, unless they hold back
    (RA-CC-02)."""
    reach = drawn_in_reach()
    board = game.board
    if not len(game.contacts):
        return  # no fight to be drawn into
    for w in game.warriors:
        if not w.fit or w.morale is not Morale.STEADY or game.contacts.of(w.id):
            continue
        if w.ground is not Ground.NONE:  # dived for cover: nothing but shooting (RA-SHOOT-05)
            continue
        fighting = [
            e
            for e in board.enemies(w)
            if e.fit
            and game.contacts.of(e.id)
            and board.gap(w, e) <= reach
            and e.sight.value != "hidden"
        ]
        if not fighting:
            continue
        menu: Menu[str] = Menu()
        ways: dict[str, Walk] = {}
        for enemy in fighting:
            # he is moved into base contact: only where a way of a pace gets him there
            way = board.charge_way(w, enemy, reach)
            if way is not None:
                ways[enemy.id] = way
            menu.offer(
                enemy.id,
                msg("apocalypse.option.join", target=game.name(enemy.id)),
                may_join(way is not None),
                Forecast(
                    melee,
                    (fighter(game, w, enemy, side, 1), fighter(game, enemy, w, side)),
                    value=bout_worth,
                ),
            )
        if not len(menu):
            continue
        first = menu.options[0]
        menu.offer("", msg("apocalypse.option.hold_back"), may_hold_back())
        picked = yield from game.choose(
            menu,
            w.side,
            game.told(w, "apocalypse.reason.drawn_in", unit=game.name(w.id)),
            default=first,
            rules=("RA-CC-02",),
        )
        if not picked:
            yield emit(
                "apocalypse.game.holds_back",
                rules=("RA-CC-02", "RA-ABSENT-08"),
                unit=game.name(w.id),
            )
            continue
        enemy = game.warrior(picked)
        if w.sight is not Sight.SEEN:  # into a fight he is seen (RA-HIDE-03)
            w.sight = Sight.SEEN
            yield from revealed_note(game, w, ("RA-HIDE-03", "RA-CC-02"))
        game.place(w, ways[picked].end)
        game.contacts.engage(w.id, enemy.id, ("RA-CC-02",))
        yield emit(
            "apocalypse.game.drawn_in",
            rules=("RA-CC-02",),
            unit=game.name(w.id),
            target=game.name(enemy.id),
        )


def _alone(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """Alone against two or more: a Spirit test or he breaks (RA-PSY-05, RA-CC-20)."""
    if not w.fit:
        return
    opponents = [e for e in game.board.engaged(w) if e.fit]
    paces = friends_reach()
    friends = [
        f
        for f in game.board.friends(w)
        if f.fit and f.morale is Morale.STEADY and game.board.gap(w, f) <= paces
    ]
    if not all_alone(len(opponents), len(friends)):
        return
    yield emit("apocalypse.game.alone", rules=("RA-PSY-05",), unit=game.name(w.id))
    held = yield Call(spirit_test, (w.spirit,))
    if held:
        return
    yield from break_away(game, w, opponents, fleeing=True)
    if w.fit:
        yield from start_fleeing(game, w, opponents[0].base.centre)


def break_away(
    game: ApocalypseState, w: Warrior, opponents: list[Warrior], fleeing: bool
) -> Procedure[None]:
    """He turns and runs: each opponent strikes him once, automatically (RA-CC-20)."""
    rules = ("RA-CC-20", "RA-PSY-05") if fleeing else ("RA-CC-20", "RA-ABSENT-08")
    yield emit("apocalypse.game.breaks", rules=rules, unit=game.name(w.id))
    for enemy in opponents:
        if not w.in_battle:
            break
        yield from harm(game, w, 1, by=enemy, in_hand=True)
    if w.fit:  # struck down, he lies where he was, still in the fight
        game.contacts.release(w.id)


__all__ = ["bout_worth", "break_away", "close_combat", "fighter"]
