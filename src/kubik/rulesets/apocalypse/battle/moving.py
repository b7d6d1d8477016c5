"""A move as the enemy sees it, pace by pace.

Every move (a walk, a run, a charge, a climb, a jump) goes through :func:`travel`: the
warrior's way is cut into stages a pace apart, from where he stands to where he stops.
Before he sets off, every enemy on guard who sees him at some stage within his weapon's
range declares whether, and at which moment, he fires — as he shows, when he is
nearest, or as he ends his move (RA-GUARD-02: «до, или после ее движения, или в любой
другой момент движения»); a charger may be shot at any moment before contact. The shot
is resolved with the target where he stands at that moment (RA-GUARD-02 default), and a
warrior it knocks down stops there. Along the way every hidden enemy that comes within
the mover's detection radius is found at once (RA-HIDE-06; in the turn edition
RA-HIDE-07), not only at the end of the move. When he has stopped (not in contact:
a charge's fight is recorded first) the layer's ``MOVED`` moment fires (the activation
edition's detection roll, RA-HIDE-05). A hidden warrior who walks stays hidden while,
at every stage, the hiding rule lets him (RA-HIDE-04, :func:`may_sneak`: behind cover
from every enemy who sees him, out of every detection radius); at the first stage where
it does not he is revealed (RA-HIDE-03), and guards may fire at him from there on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from kubik.engine import Call, Emit, Forecast, Message, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, Moment, Trigger, clear_of
from kubik.rulesets.apocalypse.arms import Weapon
from kubik.rulesets.apocalypse.battle import shots
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Sight, Warrior, Watch
from kubik.rulesets.apocalypse.battle.wounds import harm, revealed_note
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.guard import guard_ends, may_guard_fire, stage_paces
from kubik.rulesets.apocalypse.hiding import Hider, auto_detected, may_sneak
from kubik.rulesets.apocalypse.manoeuvres import falling
from kubik.rulesets.apocalypse.shooting import shoot
from kubik.table import Point


@dataclass(frozen=True, slots=True)
class GuardShot:
    """A guard's option: fire at ``target`` with ``weapon`` when he stands at ``stage``
    of his move (no target: hold fire)."""

    target: str = ""
    weapon: str = ""
    stage: int = 0


def stages(
    game: ApocalypseState, w: Warrior, path: Sequence[Point], end: Point
) -> tuple[Point, ...]:
    """Where ``w`` stands, a pace apart, from the start of ``path`` to ``end`` (on the
    0.1-pace grid, each clear of every other model; the start only when it is clear —
    not when he walks out of a fight)."""
    start = w.base.centre
    others = game.board.blocking(w)
    out: list[Point] = [start] if clear_of([w.base], others) else []
    points = [p for p in path if p]
    if len(points) < 2 or math.dist(start, end) < 1e-9:
        return (*out, end) if math.dist(start, end) >= 1e-9 or not out else (start,)
    line = LineString(points)
    length = float(line.project(ShapelyPoint(end)))
    stage = stage_paces()
    travelled = stage
    while travelled < length - 0.05:
        at = line.interpolate(travelled)
        spot = (round(float(at.x), 1), round(float(at.y), 1))
        if clear_of([w.base.moved_to(spot)], others):
            out.append(spot)
        travelled += stage
    out.append(end)
    return tuple(out)


def travel(
    game: ApocalypseState,
    w: Warrior,
    path: Sequence[Point],
    end: Point,
    *,
    target: Warrior | None = None,
    came_out: bool = False,
) -> Procedure[bool]:
    """Move ``w`` along ``path`` to ``end`` (a charge at ``target`` ends in contact),
    with guard fire and detection on the way; ``came_out``: he was hidden when he set
    off (a fleeting target, RA-GUARD-04). A hidden walker creeps while the hiding rule
    lets him (RA-HIDE-04). Returns whether he got to ``end``."""
    spots = stages(game, w, path, end)
    came_out = came_out or w.sight is Sight.HIDDEN
    home = w.base.centre
    hidden_until, why = (0, None)
    if w.sight is Sight.HIDDEN:
        hidden_until, crept = sneak(game, w, spots)
        why = None if crept.allowed else crept
    game.place(w, home)
    # while the guards decide he stands where the way is clear of everyone: its end, or
    # a charge's last stage before contact
    game.place(w, spots[-2] if target is not None and len(spots) > 1 else spots[-1])
    aims = yield from _guards_declare(game, w, spots, target, came_out, hidden_until)
    before = spots[0]
    for index, spot in enumerate(spots):
        if math.dist(before, spot) > 1e-9:
            w.facing = math.atan2(spot[1] - before[1], spot[0] - before[0])
        game.place(w, spot)
        if index == hidden_until and why is not None and w.sight is Sight.HIDDEN:
            w.sight = Sight.SEEN
            yield emit(
                "apocalypse.game.revealed",
                rules=("RA-HIDE-03", *why.rules),
                unit=game.name(w.id),
            )
        yield from _notice(game, w, before, spot)
        before = spot
        for guard, weapon in aims.get(index, ()):
            if not (guard.fit and w.fit and guard.watch is Watch.ON_GUARD):
                continue
            yield from _guard_shot(game, guard, w, weapon, target is guard, came_out)
        if not w.fit:
            if w.in_battle:
                yield from game.note(
                    "apocalypse.game.stopped", ("RA-GUARD-02",), unit=game.name(w.id)
                )
            return False
    if w.sight is Sight.HIDDEN:
        yield Emit(
            game.told(w, "apocalypse.game.creeps", unit=game.name(w.id)),
            ("RA-HIDE-04",),
        )
    if target is None:  # a charger's move ends in a fight, which the caller records
        yield from game.interrupts.fire(Moment(Trigger.MOVED, w.side, w.id, at=w.base.centre))
    return w.fit


def sneak(game: ApocalypseState, w: Warrior, spots: Sequence[Point]) -> tuple[int, Verdict]:
    """How far a hidden ``w`` creeps along ``spots`` unseen (RA-HIDE-04): the index of the
    first stage where the hiding rule no longer lets him stay hidden, with its refusal
    (``len(spots)`` and its allowing verdict: hidden all the way). Leaves him at the last
    stage he reached."""
    verdict: Verdict | None = None
    for index, spot in enumerate(spots):
        game.place(w, spot)
        screened = all(game.screened(e, w) for e in game.board.enemies(w) if e.fit)
        verdict = may_sneak(hider_here(game, w, screened))
        if not verdict.allowed:
            return index, verdict
    assert verdict is not None, "a way has at least one stage"
    return len(spots), verdict


def hider_here(game: ApocalypseState, w: Warrior, by_cover: bool) -> Hider:
    """What the hiding rule needs to know about ``w`` where he stands now (RA-HIDE-01,
    -04, -06); ``by_cover``: next to cover (to hide) or behind it (to creep on)."""
    enemy = game.board.nearest(w, [e for e in game.board.enemies(w) if e.fit])
    return Hider(
        game.edition,
        next_to_cover=by_cover and w.fallen_turn != game.turn_number,
        charged=w.turn.charged,
        ran=w.turn.ran,
        guarding=w.watch is Watch.ON_GUARD,
        banned=w.sight is Sight.FOUND,
        nearest_enemy=game.board.gap(w, enemy) if enemy else 99.0,
        nearest_enemy_mobility=enemy.mobility if enemy else 0,
        fp=game.fp[w.side],
        in_combat=bool(game.board.engaged(w)),
    )


def _guards_declare(
    game: ApocalypseState,
    mover: Warrior,
    spots: tuple[Point, ...],
    target: Warrior | None,
    came_out: bool,
    hidden_until: int = 0,
) -> Procedure[dict[int, list[tuple[Warrior, Weapon]]]]:
    """Each enemy guard who sees the mover somewhere on his way within range picks the
    moment he fires, or holds fire (RA-GUARD-02); a creeping mover cannot be fired at
    before ``hidden_until`` (RA-HIDE-04)."""
    aims: dict[int, list[tuple[Warrior, Weapon]]] = {}
    guards = [
        g
        for g in game.warriors
        if g.side != mover.side and g.watch is Watch.ON_GUARD and g.fit and g.ranged_weapons()
    ]
    if not guards or not mover.fit:
        return aims
    # a charger is shot at before he makes contact; a walker anywhere on his way
    charging = target is not None
    moments = range(len(spots) - 1) if charging and len(spots) > 1 else range(len(spots))
    home = mover.base.centre
    for guard in guards:
        weapon = max(guard.ranged_weapons(), key=lambda x: x.range)
        menu: Menu[GuardShot] = Menu()
        seen: list[int] = []
        verdicts: dict[int, Verdict] = {}
        for index in moments:
            game.place(mover, spots[index])
            verdict = _may_fire_at(game, guard, mover, weapon, index < hidden_until)
            if verdict.allowed:
                seen.append(index)
                verdicts[index] = verdict
        game.place(mover, home)
        if not seen:
            continue
        nearest = min(seen, key=lambda i: math.dist(spots[i], guard.base.centre))
        for index in dict.fromkeys((seen[0], nearest, seen[-1])):
            game.place(mover, spots[index])
            shot = shots.shot_situation(
                game, guard, mover, weapon, shots.Firing(True, target is guard, came_out)
            )
            paces = round(game.board.gap(guard, mover), 1)
            game.place(mover, home)
            menu.offer(
                GuardShot(mover.id, weapon.id, index),
                msg(
                    game.post_msg("option.fire_from_post"),
                    target=game.name(mover.id),
                    weapon=game.name(f"weapon:{weapon.id}"),
                    paces=paces,
                ),
                verdicts[index],
                Forecast(shoot, (shot,), value=shots.hit_worth),
            )
        menu.offer(GuardShot(), msg("apocalypse.option.hold_fire"), Verdict.neutral())
        picked = yield from game.choose(
            menu,
            guard.side,
            game.told(
                guard,
                game.post_msg("reason.post"),
                unit=game.name(guard.id),
                target=game.name(mover.id),
            ),
            default=GuardShot(mover.id, weapon.id, nearest),
            rules=("RA-GUARD-02",),
        )
        if picked.target:
            aims.setdefault(picked.stage, []).append((guard, weapon))
    return aims


def _may_fire_at(
    game: ApocalypseState, guard: Warrior, mover: Warrior, weapon: Weapon, hidden: bool
) -> Verdict:
    """Whether ``guard`` may fire at ``mover`` where he stands now (RA-GUARD-02)."""
    board = game.board
    in_range = board.gap(guard, mover) <= weapon.range
    return may_guard_fire(True, board.sees(guard, mover), hidden, in_range)


def _guard_shot(
    game: ApocalypseState,
    guard: Warrior,
    mover: Warrior,
    weapon: Weapon,
    charged: bool,
    came_out: bool,
) -> Procedure[None]:
    """The guard fires now, at −1 at a fleeting target and −1 when the mover charges the
    guard himself (RA-GUARD-04: «если враг таранит караульного»), and leaves guard
    (RA-GUARD-03)."""
    how = shots.Firing(True, charged, came_out)
    penalties = (shots.fleeting(mover, how), charged)
    why: Message | str = ""
    if any(penalties):
        why = msg(_WHY[penalties])
    rules = ("RA-GUARD-02", "RA-GUARD-04") if any(penalties) else ("RA-GUARD-02",)
    yield Emit(
        game.told(
            guard,
            game.post_msg("game.fires_from_post"),
            unit=game.name(guard.id),
            target=game.name(mover.id),
            paces=round(game.board.gap(guard, mover), 1),
            why=why,
        ),
        rules,
    )
    yield from shots.resolve(game, guard, mover, weapon, how)
    if guard_ends(True, False, False, False):
        guard.watch = Watch.NONE
    yield Emit(
        game.told(guard, game.post_msg("game.post_ends"), unit=game.name(guard.id)),
        ("RA-GUARD-03",),
    )


#: What the narration says of a guard's penalties (fleeting target, charged himself).
_WHY = {
    (True, False): "apocalypse.guard.why.fleeting",
    (False, True): "apocalypse.guard.why.charged",
    (True, True): "apocalypse.guard.why.both",
}


def _notice(game: ApocalypseState, mover: Warrior, start: Point, end: Point) -> Procedure[None]:
    """A hidden enemy who comes within the mover's detection radius on this stretch of
    his way is found at once (RA-HIDE-06; RA-HIDE-07 in the turn edition)."""
    if not mover.fit:
        return
    rules = ("RA-HIDE-07", "RA-HIDE-06") if game.edition is Edition.TURN else ("RA-HIDE-06",)
    for hidden in game.board.enemies(mover):
        if hidden.sight is not Sight.HIDDEN:
            continue
        reach = _closest(start, end, hidden.base.centre) - mover.base.radius - hidden.base.radius
        if auto_detected(max(0.0, reach), mover.mobility, game.edition):
            hidden.sight = Sight.FOUND
            yield from revealed_note(game, hidden, rules)


def fall(game: ApocalypseState, w: Warrior, height: float) -> Procedure[None]:
    """He falls: D3 wounds a pace, no save; no more moving or hiding (RA-MAN-06)."""
    wounds = yield Call(falling, (height,))
    w.fallen_turn = game.turn_number
    if wounds:
        yield from harm(game, w, wounds, by=None, save=7)


def _closest(a: Point, b: Point, p: Point) -> float:
    """The distance from ``p`` to the segment ``a``–``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / span))
    return math.dist((ax + t * dx, ay + t * dy), p)


__all__ = ["GuardShot", "fall", "hider_here", "sneak", "stages", "travel"]
