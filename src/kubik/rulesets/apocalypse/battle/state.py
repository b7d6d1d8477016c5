"""The state of a battle of Дороги Апокалипсиса on the shared battle layer: its
warriors on the layer's board (:mod:`.board`), the edition, what each side may see
(:meth:`ApocalypseState.view`: hidden enemies are left out; :meth:`ApocalypseState.told`
keeps what a hidden warrior does from the enemy's log), and the terrain a warrior
stands by. The turn itself is :mod:`.game`'s; the phases' code uses this state and
asks the rule modules every question.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from shapely.geometry import Point as ShapelyPoint

from kubik.core.keeping import Kept
from kubik.engine import Message, Procedure, emit, msg
from kubik.engine.log import EventEntry, LogEntry
from kubik.game import Ending, Scenario, ScenarioError
from kubik.game.battle import BattleGame, Piece, Posture, Presence, Walk
from kubik.rulesets.apocalypse.battle.board import ApocalypseBoard
from kubik.rulesets.apocalypse.battle.warriors import (
    Condition,
    Ground,
    Morale,
    Sight,
    Turn,
    Warrior,
    Watch,
    read_warriors,
)
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.guard import post
from kubik.rulesets.apocalypse.hiding import cover_reach
from kubik.rulesets.apocalypse.melody import impulse_uses, melodies
from kubik.table import Base, Cover, Point, TableError

EDITION_OPTION = "edition"
_PRESENCE = {Condition.OUT_OF_ACTION: Presence.REMOVED, Condition.FLED: Presence.FLED}


#: Places a battle remembers what terrain stands at before it starts afresh (a limit).
_PLACES_KEPT = 4096

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ApocalypseState(BattleGame):
    """The battle's state: warriors on the board, the edition, what happened this turn
    (the turn is :class:`~kubik.rulesets.apocalypse.battle.game.ApocalypseGame`'s)."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        edition = self.options.get(EDITION_OPTION, Edition.TURN.value)
        try:
            self.edition = Edition(edition)
        except ValueError:
            raise ScenarioError(
                f"options.{EDITION_OPTION}: {edition!r}; allowed: turn, activation"
            ) from None
        self.warriors: list[Warrior] = read_warriors(scenario)
        self.board = ApocalypseBoard(self, self.warriors)
        self.sides: tuple[str, ...] = scenario.side_ids
        self.warband_size: dict[str, int] = {
            s: sum(1 for w in self.warriors if w.side == s) for s in self.sides
        }
        self.routed: str = ""
        self.fp: dict[str, int] = dict.fromkeys(self.sides, 0)
        self.round_jams: list[str] = []  # lasting Melodies jammed at this round (RA-MEL-09)
        self.lasting_cast_turn: dict[str, int] = {}
        self.turn_side = ""  # whose turn it is (turn edition; "" in the activation edition)
        # the terrain never changes in a battle: what stands where is looked up once per
        # place (menus ask it for every warrior at every activation)
        self._roof_at: Kept[Point, Any | None] = Kept(_PLACES_KEPT)
        self._cover_near: Kept[tuple[Point, float], bool] = Kept(_PLACES_KEPT)
        self._distances: Kept[tuple[str, Point], float] = Kept(_PLACES_KEPT)
        #: the nearest place next to cover by (place, base radius, move): actions' own
        self.cover_spots: Kept[tuple[Point, float, float], Point | None] = Kept(_PLACES_KEPT)
        # each warrior's last piece with what it was made of: the layer asks for every
        # piece at every move, and most have not moved or fallen since
        self._pieces: dict[str, tuple[Base, Condition, Ground, Piece]] = {}
        for warrior in self.warriors:
            # each warband faces the other's at the start (RA-PSY-12 needs a "forward")
            foes = [e.base.centre for e in self.warriors if e.side != warrior.side]
            if foes:
                fx = sum(p[0] for p in foes) / len(foes) - warrior.base.x
                fy = sum(p[1] for p in foes) / len(foes) - warrior.base.y
                warrior.facing = math.atan2(fy, fx)
            warrior.impulse_left = impulse_uses() if warrior.singer else 0
            for weapon in warrior.weapons:
                self.set_name(f"weapon:{weapon.id}", weapon.name, weapon.name_ru)
        for melody in melodies():
            self.set_name(f"melody:{melody.id}", melody.name, melody.name_ru)

    # -- the layer's hooks -----------------------------------------------------------

    def pieces(self) -> tuple[Piece, ...]:
        return tuple(self.piece(w) for w in self.warriors)

    def piece(self, w: Warrior) -> Piece:
        """The layer's view of one warrior."""
        known = self._pieces.get(w.id)
        if (
            known is not None
            and known[0] is w.base
            and known[1] is w.condition
            and known[2] is w.ground
        ):
            return known[3]
        presence = _PRESENCE.get(w.condition, Presence.IN_PLAY)
        standing = w.condition is Condition.STANDING and w.ground is not Ground.PRONE
        posture = Posture.STANDING if standing else Posture.PRONE
        piece = Piece(w.id, w.id, w.side, w.base, presence, posture)
        self._pieces[w.id] = (w.base, w.condition, w.ground, piece)
        return piece

    def view(self, side: str | None) -> dict[str, Any]:
        """What ``side`` may know: its own warriors, and the enemies it can see — a hidden
        enemy is left out (RA-HIDE-02); the referee (``None``) sees everything, with
        each warrior's hidden state."""
        shown = []
        for w in self.warriors:
            piece = self.piece(w)
            if not piece.presence.on_table:
                continue
            if side is not None and w.side != side and w.sight is Sight.HIDDEN:
                continue
            entry = piece.to_json()
            if side is None or w.side == side:
                entry["hidden"] = w.sight is Sight.HIDDEN
            entry["on_guard"] = w.watch is Watch.ON_GUARD
            entry["facing"] = round(math.degrees(w.facing)) % 360
            shown.append(entry)
        visible = {e["id"] for e in shown}
        return {
            "turn": self.turn_number,
            "edition": self.edition.value,
            "pieces": shown,
            "engagements": [
                [e.a, e.b] for e in self.contacts.pairs() if e.a in visible and e.b in visible
            ],
        }

    def reaches(self, unit: str) -> list[tuple[Message | None, float]]:
        """Each of the warrior's ranged weapons and its range in paces (RA-ABSENT-14)."""
        warrior = next((w for w in self.warriors if w.id == unit), None)
        if warrior is None:
            return []
        found = [(self.name(f"weapon:{w.id}"), float(w.range)) for w in warrior.ranged_weapons()]
        return sorted(found, key=lambda wr: -wr[1])

    def visible_to(self, side: str | None, entry: LogEntry) -> bool:
        """Whether the narrated log shows ``entry`` to ``side``: what a hidden warrior
        does, decides and rolls out of the enemy's sight (an event, a roll or a decision
        whose message says ``unseen_by``) is told to his own side and the referee only
        (an onlooker on no side is told what every side sees)."""
        if side is None:
            return True
        message = entry.event if isinstance(entry, EventEntry) else entry.reason
        unseen = message.kwargs.get("unseen_by")
        return unseen is None or (unseen != side and side in self.sides)

    def enemy_of(self, side: str) -> str:
        """The other warband."""
        return next(s for s in self.sides if s != side)

    def told(self, w: Warrior, message_id: str, *, secret: bool = False, **params: Any) -> Message:
        """A message about ``w``: kept from the enemy (``unseen_by``, :meth:`visible_to`)
        while he is hidden, or when ``secret`` (what he decides out of sight)."""
        if secret or w.sight is Sight.HIDDEN:
            params["unseen_by"] = self.enemy_of(w.side)
        return msg(message_id, **params)

    def post_msg(self, what: str) -> str:
        """The id of a message about standing guard in the edition's own word: Дозор in
        the turn edition, Караул in the activation edition (``what``: ``game.stands`` →
        ``apocalypse.game.stands.watch``)."""
        return f"apocalypse.{what}.{post(self.edition)}"

    def ending(self) -> Ending | None:
        if self.routed:
            winner = next(s for s in self.sides if s != self.routed)
            return Ending(winner, msg("apocalypse.game.routed", side=self.side_name(self.routed)))
        standing = [
            s for s in self.sides if any(w.side == s and w.in_battle for w in self.warriors)
        ]
        if len(standing) == len(self.sides):
            return None
        return Ending(standing[0] if standing else None, msg("apocalypse.game.wiped_out"))

    def winner_at_limit(self) -> str | None:
        counts = {
            s: sum(1 for w in self.warriors if w.side == s and w.in_battle) for s in self.sides
        }
        best = max(counts.values())
        leaders = [s for s, n in counts.items() if n == best]
        return leaders[0] if len(leaders) == 1 else None

    # -- who and where ---------------------------------------------------------------

    def side_name(self, side: str) -> Any:
        """A side's name for messages."""
        spec = self.scenario.side(side)
        return self.set_name(f"side:{side}", spec.name or side, spec.name_ru or "")

    def warrior(self, wid: str) -> Warrior:
        """The warrior called ``wid``."""
        for w in self.warriors:
            if w.id == wid:
                return w
        raise KeyError(wid)

    def side_warriors(self, side: str) -> list[Warrior]:
        """Warriors of ``side`` in scenario order."""
        return [w for w in self.warriors if w.side == side]

    def screened(self, enemy: Warrior, w: Warrior) -> bool:
        """Whether ``w`` is out of ``enemy``'s sight or in cover from him (the cover a
        shot at him would count): behind cover, where he may creep on hidden (RA-HIDE-04)."""
        board = self.board
        return not board.sees(enemy, w) or board.cover(enemy, w) is not Cover.NONE

    def next_to_cover(self, w: Warrior, within: float | None = None) -> bool:
        """Whether a feature giving cover is within a pace of his base (RA-HIDE-01), or
        within ``within`` paces of it."""
        reach = w.base.radius + (cover_reach() if within is None else within)
        centre = w.base.centre
        return self.for_the_battle(
            self._cover_near,
            (centre, reach),
            lambda: any(
                f.cover is not Cover.NONE and f.shape.distance(ShapelyPoint(centre)) <= reach
                for f in self.table.features
            ),
        )

    def height(self, w: Warrior) -> float:
        """The ground he stands on, in paces."""
        return self.tape.elevation(w.base.centre)

    def distance_to(self, feature: Any, point: Point) -> float:
        """Paces from ``point`` to the nearest edge of ``feature`` (0 inside it)."""
        return self.for_the_battle(
            self._distances,
            (feature.id, point),
            lambda: float(feature.shape.distance(ShapelyPoint(point))),
        )

    def roofs(self) -> list[Any]:
        """The features one climbs onto (a height of a pace or more)."""
        return [f for f in self.table.features if f.elevation >= 1.0]

    def roof_under(self, w: Warrior) -> Any | None:
        """The roof he stands on, if any."""
        point = w.base.centre
        return self.for_the_battle(
            self._roof_at,
            point,
            lambda: next((f for f in self.roofs() if f.shape.covers(ShapelyPoint(point))), None),
        )

    def for_the_battle(self, memo: Kept[K, V], key: K, measure: Callable[[], V]) -> V:
        """``measure()``, kept in ``memo`` under ``key`` for the rest of the battle: the
        terrain never changes, and menus ask the same places again at every activation
        (at most :data:`_PLACES_KEPT` places at a time)."""
        if key in memo:
            return memo[key]
        return memo.keep(key, measure())

    def leader_of(self, side: str) -> Warrior | None:
        """The warband's leader (on the table or not)."""
        return next((w for w in self.side_warriors(side) if w.leader), None)

    def out_of_action(self, side: str) -> int:
        """Warriors of ``side`` out of action (or fled off the table) (RA-PSY-02)."""
        return sum(
            1
            for w in self.side_warriors(side)
            if w.condition in (Condition.OUT_OF_ACTION, Condition.FLED)
        )

    def reset_turn(self, side: str) -> None:
        """A new turn for ``side``'s warriors."""
        for w in self.side_warriors(side):
            w.turn = Turn()
            if w.sight is Sight.FOUND:
                w.sight = Sight.SEEN

    def take_out(self, w: Warrior, condition: Condition, by: Warrior | None = None) -> None:
        """He leaves the fight: out of action or fled."""
        w.condition = condition
        w.watch = Watch.NONE
        w.sight = Sight.SEEN
        w.morale = Morale.STEADY if condition is Condition.OUT_OF_ACTION else w.morale
        self.contacts.release(w.id)
        if by is not None and condition is Condition.OUT_OF_ACTION:
            self.credit_kill(by.id)

    # -- moving -----------------------------------------------------------------------

    def walk(
        self, w: Warrior, goal: Point, allowance: float, target: Warrior | None = None
    ) -> Walk | None:
        """Where ``w`` gets walking toward ``goal`` with ``allowance`` paces (the board's
        walk: round impassable ground, never through or, unless charging ``target``,
        into a model). A goal no way leads to — a place on a roof — is walked toward
        straight, as far as the ground lets him."""
        board = self.board
        way = board.way(w, goal) or (w.base.centre, goal)
        return board.walk(w, goal, allowance, target=target, way=way)

    def on_table(self, base: Base) -> bool:
        """Whether the whole base stands on the table (where a fall lands him)."""
        try:
            self.table.check_base(base)
        except TableError:
            return False
        return True

    def place(self, w: Warrior, point: Point) -> None:
        """Stand ``w`` at ``point``."""
        w.base = w.base.moved_to(point)

    def note(self, message_id: str, rules: tuple[str, ...], **params: Any) -> Procedure[None]:
        """Narrate an event."""
        yield emit(message_id, rules=rules, **params)


__all__ = ["EDITION_OPTION", "ApocalypseState"]
