"""Melodies in a battle: a singer plays one of the Melodies he knows (data
``[[rainbow.melodies]]``, RA-ABSENT-01), the enemy's singer may jam it, and what it
does: hits on one enemy, a template, or a lasting ward for the singer's warband.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kubik.engine import (
    AnyForecast,
    Call,
    Emit,
    Forecast,
    Message,
    Procedure,
    Verdict,
    emit,
    msg,
)
from kubik.game.battle import Menu
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Sight, Warrior
from kubik.rulesets.apocalypse.battle.wounds import harm, revealed_note
from kubik.rulesets.apocalypse.hiding import may_target
from kubik.rulesets.apocalypse.melody import (
    Casting,
    CastOutcome,
    ErrorEffect,
    ErrorOutcome,
    Jamming,
    JamOutcome,
    Melody,
    Singer,
    Special,
    cast,
    casting_dice,
    jam,
    may_jam,
    may_sing,
    melody,
    resists,
    terrible_error,
    under_template,
)


@dataclass(frozen=True, slots=True)
class Song:
    """An option: play ``melody`` at ``target`` (empty for a ward)."""

    melody: str
    target: str = ""


def singer_situation(game: ApocalypseState, w: Warrior) -> Singer:
    """The rule's situation of a would-be singer."""
    return Singer(
        is_singer=w.singer,
        lasting_active=bool(w.lasting),
        in_combat=bool(game.board.engaged(w)),
        stupid=w.stupor.value != "sensible",
        silenced=w.silenced_turn == game.turn_number,
    )


def casting(w: Warrior, melody_id: str) -> Casting:
    """His casting attempt (2D6, Единый Порыв when he still has it)."""
    return Casting(
        melody(melody_id).difficulty,
        casting_dice(),
        0,
        False,
        w.impulse_left > 0,
    )


def song_menu(game: ApocalypseState, w: Warrior, menu: Menu[Any]) -> None:
    """Offer every Melody he knows at every target it may reach."""
    verdict = may_sing(singer_situation(game, w))
    for melody_id in w.melodies:
        record = melody(melody_id)
        worth = float(record.hits) * taste("apocalypse", "melody_hit")

        def value(o: CastOutcome, worth: float = worth) -> float:
            return worth if o.success else 0.0

        if record.kind == "ward":
            menu.offer(
                Song(melody_id),
                msg("apocalypse.option.ward", melody=game.name(f"melody:{melody_id}")),
                verdict,
                Forecast(
                    cast,
                    (casting(w, melody_id), w.side),
                    value=lambda o: taste("apocalypse", "ward") if o.success else 0.0,
                ),
            )
            continue
        for target in game.board.enemies(w):
            if not target.fit or not game.board.sees(w, target):
                continue
            if game.board.gap(w, target) > float(record.range):
                continue
            hidden = target.sight.value == "hidden"
            forecast: AnyForecast = Forecast(cast, (casting(w, melody_id), w.side), value=value)
            if record.kind == "template":
                forecast = Forecast(
                    template_song,
                    (casting(w, melody_id), w.side, *_under(game, w, target, record)),
                    value=_per_warrior(worth),
                )
            menu.offer(
                Song(melody_id, target.id),
                msg(
                    "apocalypse.option.sing",
                    melody=game.name(f"melody:{melody_id}"),
                    target=game.name(target.id),
                ),
                Verdict.combine(verdict, may_target(hidden)),
                forecast,
            )


def _per_warrior(worth: float) -> Callable[[int], float]:
    """The worth of striking ``n`` warriors (the bot's taste for one, times ``n``)."""

    def value(n: int) -> float:
        return n * worth

    return value


def _under(
    game: ApocalypseState, singer: Warrior, target: Warrior, record: Melody
) -> tuple[int, int, int, int]:
    """Who a template on ``target`` would cover: enemies fully and partly under it, then
    the singer's own warriors fully and partly (RA-MEL-07)."""
    radius = record.template
    counts = [0, 0, 0, 0]
    for victim in game.warriors:
        if not victim.in_battle:
            continue
        d = math.dist(victim.base.centre, target.base.centre)
        if d - victim.base.radius >= radius:
            continue
        fully = d + victim.base.radius <= radius
        counts[(0 if victim.side != singer.side else 2) + (0 if fully else 1)] += 1
    return counts[0], counts[1], counts[2], counts[3]


def template_song(
    casting: Casting, side: str, enemies: int, enemies_partly: int, own: int, own_partly: int
) -> Procedure[int]:
    """What a template Melody would do, for a forecast: the casting (RA-MEL-01), then
    the warriors partly under the template each on the rule's roll (RA-MEL-07); returns
    the enemies struck less the singer's own."""
    outcome: CastOutcome = yield Call(cast, (casting, side))
    if not outcome.success:
        return 0
    struck = enemies - own
    for _ in range(enemies_partly):
        struck += bool((yield Call(under_template, (False,))))
    for _ in range(own_partly):
        struck -= bool((yield Call(under_template, (False,))))
    return struck


def sing(game: ApocalypseState, w: Warrior, song: Song) -> Procedure[None]:
    """Play a Melody (RA-MEL-01..04), let the enemy try to jam it (RA-MEL-05), apply it."""
    record = melody(song.melody)
    if w.sight is Sight.HIDDEN:  # a Melody is heard: no hidden warrior plays one unseen
        w.sight = Sight.SEEN
        yield from revealed_note(game, w, ("RA-HIDE-03",))
    yield emit(
        "apocalypse.game.sings",
        rules=("RA-MEL-01",),
        unit=game.name(w.id),
        melody=game.name(f"melody:{song.melody}"),
    )
    outcome: CastOutcome = yield Call(cast, (casting(w, song.melody), w.side))
    if outcome.impulse_used:
        w.impulse_left -= 1
    if outcome.special is Special.TERRIBLE_ERROR:
        error: ErrorOutcome = yield Call(terrible_error, (0,))
        if error.effect is ErrorEffect.WOUNDED:
            yield from harm(game, w, error.wounds, by=None, save=7)
        elif error.effect is ErrorEffect.SILENCED:
            w.silenced_turn = game.turn_number + 1
        return
    if not outcome.success:
        return
    jammed = yield from _jam(
        game,
        w,
        Jamming(
            outcome.total,
            record.difficulty,
            record.lasting,
            outcome.special is Special.MONSTROUS_POWER,
        ),
    )
    if jammed:
        return
    power = record.monstrous_bonus if outcome.special is Special.MONSTROUS_POWER else 0
    hits = record.hits + power
    if record.kind == "ward":
        w.lasting = song.melody
        game.lasting_cast_turn[w.id] = game.turn_number
        yield emit(
            "apocalypse.game.ward",
            rules=("RA-MEL-08",),
            unit=game.name(w.id),
            melody=game.name(f"melody:{song.melody}"),
        )
        return
    target = game.warrior(song.target)
    if record.kind == "hits":
        yield from _strike(game, target, hits, w)
        return
    radius = record.template
    yield emit(
        "apocalypse.game.template",
        rules=("RA-MEL-07",),
        unit=game.name(target.id),
        radius=radius,
    )
    for victim in list(game.warriors):
        if not victim.in_battle:
            continue
        d = math.dist(victim.base.centre, target.base.centre)
        if d - victim.base.radius >= radius:
            continue
        fully = d + victim.base.radius <= radius
        if (yield Call(under_template, (fully,))):
            yield from _strike(game, victim, hits, w)


def _strike(game: ApocalypseState, target: Warrior, hits: int, singer: Warrior) -> Procedure[None]:
    if target.has("resistance"):  # (a hidden warrior's, told to his own side only)
        yield Emit(
            game.told(
                target,
                "apocalypse.game.resistance",
                unit=game.name(target.id),
                strength=target.resistance,
            ),
            ("RA-MEL-06", "RA-ABSENT-15"),
        )
        if (yield Call(resists, (target.resistance,))):
            return
    yield from harm(game, target, hits, by=singer if target.side != singer.side else None)


def _jam(game: ApocalypseState, singer: Warrior, jamming: Jamming) -> Procedure[bool]:
    """The other side's singer may try to jam (RA-MEL-05)."""
    jammers = [
        e
        for e in game.board.enemies(singer)
        if e.fit and e.singer and not game.board.engaged(e) and e.stupor.value == "sensible"
    ]
    if not jammers:
        return False
    jammer = jammers[0]
    menu: Menu[bool] = Menu()
    menu.offer(
        True,
        msg("apocalypse.option.jam", unit=game.name(jammer.id)),
        may_jam(jamming),
        Forecast(jam, (jamming,), value=lambda o: 1.0 if o.jammed else 0.0),
    )
    menu.offer(False, msg("apocalypse.option.no_jam"), Verdict.neutral())
    if len(menu) < 2:
        yield emit("apocalypse.jam.unjammable", rules=("RA-MEL-03",))
        return False
    picked = yield from game.choose(
        menu,
        jammer.side,
        _jam_reason(game, jammer, singer),
        default=True,
        rules=("RA-MEL-05",),
    )
    if not picked:
        return False
    if jammer.sight is not Sight.SEEN:  # a jamming is heard as a Melody is (RA-HIDE-03)
        jammer.sight = Sight.SEEN
        yield from revealed_note(game, jammer, ("RA-HIDE-03",))
    outcome: JamOutcome = yield Call(jam, (jamming,))
    return outcome.jammed


def _jam_reason(game: ApocalypseState, jammer: Warrior, singer: Warrior) -> Message:
    """What the jammer is asked: whose Melody — or, its singer hidden again while a
    lasting Melody plays on, which Melody — he may jam (kept from the enemy while the
    jammer is hidden himself)."""
    if singer.sight is Sight.HIDDEN and singer.lasting:
        return game.told(
            jammer,
            "apocalypse.reason.jam_lasting",
            unit=game.name(jammer.id),
            melody=game.name(f"melody:{singer.lasting}"),
        )
    return game.told(
        jammer, "apocalypse.reason.jam", unit=game.name(jammer.id), singer=game.name(singer.id)
    )


def jam_lasting(game: ApocalypseState, side: str) -> Procedure[None]:
    """At the start of its turn a side may try, once a round, to jam each lasting Melody
    of the enemy, against its difficulty (RA-MEL-09)."""
    for singer in game.warriors:
        if singer.side == side or not singer.lasting or singer.id in game.round_jams:
            continue
        record = melody(singer.lasting)
        jamming = Jamming(
            0,
            record.difficulty,
            lasting=True,
            monstrous_power=False,
            later_round=game.lasting_cast_turn.get(singer.id, 0) < game.turn_number,
        )
        game.round_jams.append(singer.id)
        if (yield from _jam(game, singer, jamming)):
            singer.lasting = ""
            said = game.told(
                singer,
                "apocalypse.game.lasting_ends",
                unit=game.name(singer.id),
                why=msg("apocalypse.melody.lasting_end.jammed"),
            )
            yield Emit(said, ("RA-MEL-09",))


def ward_bonus(game: ApocalypseState, w: Warrior) -> int:
    """+1 to the combat result while a singer of his warband plays a ward (our Melody)."""
    return sum(
        melody(s.lasting).hits
        for s in game.side_warriors(w.side)
        if s.lasting and s.in_battle and melody(s.lasting).kind == "ward"
    )


__all__ = ["Song", "jam_lasting", "sing", "song_menu", "ward_bonus"]
