"""A Warhammer Fantasy battle's state: its regiments on the board, what the battle
layer asks of it (its models, its end), and what every phase reads of it — a
regiment's unit strength, its General's and Battle standard's reach, its casualties.
The turn itself, in its phases, is :mod:`.game`'s."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from kubik.engine import Message, Procedure, emit, msg
from kubik.game import Ending, Scenario
from kubik.game.battle import BattleGame, Piece, Presence
from kubik.rulesets.fantasy.battle import ground
from kubik.rulesets.fantasy.battle.board import FantasyBoard
from kubik.rulesets.fantasy.battle.formation import ahead, slots
from kubik.rulesets.fantasy.battle.spec import unit_specs
from kubik.rulesets.fantasy.battle.units import Fight, State, Unit
from kubik.rulesets.fantasy.command import breath_uses_left, may_breathe
from kubik.rulesets.fantasy.leadership import Command, general_range, unit_leadership
from kubik.rulesets.fantasy.psychology import hates
from kubik.rulesets.fantasy.regiment import remove_casualties, unit_strength
from kubik.table import Base


class FantasyState(BattleGame):
    """Regiments in battle on the shared layer: their state and the board they stand on."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.units: list[Unit] = []
        self.removed: list[tuple[str, tuple[str, ...]]] = []
        #: every close combat's lasting state, by the two units' ids (melee.fight_key)
        self.fights: dict[str, Fight] = {}
        #: the units that took a Panic test in this phase (one a phase, FB-ABSENT-09)
        self.panicked: list[str] = []
        for spec in unit_specs(scenario):
            unit = Unit(
                spec, spec.models, spec.front, spec.facing, hero_alive=spec.character is not None
            )
            unit.started = spec.models
            self.units.append(unit)
            if spec.character is not None:
                en, ru = spec.character_name
                self.set_name(f"{spec.id}.hero", en, ru)
        self.board = FantasyBoard(self, self.units)

    # -- the layer's hooks ------------------------------------------------------------

    @classmethod
    def prepare_terrain(cls, index: int, entry: Mapping[str, Any]) -> Mapping[str, Any]:
        return ground.prepare(index, entry)

    def pieces(self) -> tuple[Piece, ...]:
        out: list[Piece] = []
        for unit in self.units:
            spec = unit.spec
            out.extend(
                _unit_pieces(
                    unit.id,
                    unit.side,
                    unit.front,
                    unit.facing,
                    spec.files,
                    unit.figures() if unit.on_table else 0,
                    spec.size,
                    spec.skirmish,
                    unit.state,
                    spec.models,
                    spec.character is not None,
                    unit.hero_alive,
                    unit.models,
                    math.copysign(1.0, unit.front[0]) < 0,  # (keys keep a zero's sign)
                    math.copysign(1.0, unit.front[1]) < 0,
                )
            )
        return tuple(out)

    def reaches(self, unit: str) -> list[tuple[Message | None, float]]:
        """The regiment's missile weapon and its range (from the regiment's edge)."""
        found = next((u for u in self.units if u.id == unit), None)
        missile = None if found is None else found.spec.missile
        return [] if missile is None else [(None, float(missile.range))]

    def view(self, side: str | None) -> dict[str, Any]:
        """Every model on the table, and each regiment's facing: the way its front rank
        looks (``ahead``, a unit vector on the table), for the front arc drawn."""
        shown = super().view(side)
        shown["units"] = [
            {"id": u.id, "side": u.side, "facing": u.facing, "ahead": list(ahead(u.facing))}
            for u in self.units
            if u.on_table
        ]
        return shown

    def ending(self) -> Ending | None:
        alive = [
            s for s in self.scenario.side_ids if any(u.side == s and u.fighting for u in self.units)
        ]
        if len(alive) == len(self.scenario.side_ids):
            return None
        return Ending(alive[0] if alive else None, msg("fantasy.game.routed"))

    def winner_at_limit(self) -> str | None:
        strength = {
            s: sum(self.strength(u) for u in self.units if u.side == s and u.fighting)
            for s in self.scenario.side_ids
        }
        ranked = sorted(strength.items(), key=lambda kv: -kv[1])
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            return None
        return ranked[0][0]

    # -- what the phases read ------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        return self.board.unit(unit_id)

    def strength(self, unit: Unit) -> int:
        return unit_strength(unit.spec.kind, unit.models, wounds=unit.spec.troops.w) + int(
            unit.hero_alive
        )

    def leadership(self, unit: Unit) -> int:
        """The Leadership the unit tests on: its character's when he is in it
        (:func:`~kubik.rulesets.fantasy.leadership.unit_leadership`)."""
        hero = unit.spec.character
        return unit_leadership(
            unit.spec.troops.ld, hero.ld if hero is not None and unit.hero_alive else None
        )

    def hates(self, unit: Unit, enemy: Unit) -> bool:
        """Whether ``unit`` (its troops or its character) hates ``enemy`` (FB-PSY-06)."""
        spec = unit.spec
        hero = spec.character
        rules = unit.rules() | (hero.rules if hero is not None and unit.hero_alive else frozenset())
        return hates(rules, spec.race, spec.hates, (enemy.spec.race, enemy.side, enemy.id))

    def command_for(self, unit: Unit) -> Command:
        general = next(
            (
                u
                for u in self.units
                if u.side == unit.side and u.spec.general and u.hero_alive and u.fighting
            ),
            None,
        )
        standard = next(
            (
                u
                for u in self.units
                if u.side == unit.side and u.spec.battle_standard and u.hero_alive and u.fighting
            ),
            None,
        )
        reach = Command()
        if general is not None and general.spec.character is not None:
            large = "large_target" in general.spec.character.rules | general.rules()
            distance = self.from_character(general, unit)
            if distance <= general_range(large):
                reach = replace(
                    reach,
                    general_leadership=general.spec.character.ld,
                    general_inches=distance,
                    general_large=large,
                )
        if standard is not None:
            reach = replace(reach, battle_standard_inches=self.from_character(standard, unit))
        return reach

    def from_character(self, his: Unit, unit: Unit) -> float:
        """Inches from the character of ``his`` unit (in the middle of its front rank)
        to ``unit``'s nearest model: how far his Inspiring presence or his Battle
        standard reaches (FB-CMD-01, FB-CMD-06)."""
        placed = his.bases()
        return self.board.gap_from(placed[:1], unit) if placed else math.inf

    def may_breathe_now(self, unit: Unit) -> bool:
        """Whether a breath weapon has a use left this turn (FB-SR-01: twice a game,
        once a turn, in the Shooting phase or in close combat alike)."""
        uses = breath_uses_left(unit.breaths)
        return may_breathe(uses, unit.breathed == self.turn_number).allowed

    def flyer(self, unit: Unit) -> bool:
        """Whether the unit moves through the air (FB-MOV-02, FB-MOV-03)."""
        return bool(unit.rules() & {"fly", "hover"})

    def on_table(
        self, unit: Unit, spot: tuple[float, float], facing: int | None = None
    ) -> tuple[float, float]:
        """``spot`` moved just enough that the whole formation stands on the table."""
        margin = 0.6
        placed = unit.bases(spot, facing)
        shift = []
        for axis, size in ((0, self.table.width), (1, self.table.height)):
            low = min(b.centre[axis] - b.radius for b in placed)
            high = max(b.centre[axis] + b.radius for b in placed)
            move = max(0.0, margin - low) - max(0.0, high - (size - margin))
            shift.append(move)
        return (round(spot[0] + shift[0], 1), round(spot[1] + shift[1], 1))

    # -- casualties ------------------------------------------------------------------------

    def wound(self, unit: Unit, wounds: int) -> int:
        """Casualties from ``wounds`` on the rank and file; command models go in the
        seed's order (FB-CMD-05), noted for the log in ``self.removed``."""
        per = unit.spec.troops.w
        before = unit.models
        unit.wounds += wounds
        unit.models = max(0, unit.spec.models - unit.wounds // per)
        _, gone = remove_casualties(before, unit.command(), before - unit.models)
        if gone:
            self.removed.append((unit.id, gone))
        return before - unit.models

    def casualty_notes(self) -> Procedure[None]:
        """Tell the log which command models fell (FB-CMD-05)."""
        for unit_id, gone in self.removed:
            yield emit(
                "fantasy.game.command_lost",
                rules=("FB-CMD-05",),
                unit=self.name(unit_id),
                models=tuple(msg(f"fantasy.command.{name}") for name in gone),
            )
        self.removed.clear()

    def destroy(self, unit: Unit, by: Unit | None) -> None:
        if by is not None and unit.models:
            self.credit_kill(by.id, unit.models)
        unit.state = State.DESTROYED
        unit.models = 0
        unit.hero_alive = False
        self.contacts.release(unit.id)


#: Regiments' pieces kept (an engine limit, not a rule): the layer asks for them often.
_PIECES_KEPT = 256


@lru_cache(maxsize=_PIECES_KEPT)
def _unit_pieces(
    unit_id: str,
    side: str,
    front: tuple[float, float],
    facing: int,
    files: int,
    standing: int,
    size: float,
    loose: bool,
    state: State,
    models: int,
    has_character: bool,
    hero_alive: bool,
    alive_models: int,
    _x_negative: bool,
    _y_negative: bool,
) -> tuple[Piece, ...]:
    """A regiment's pieces (its character first), once per how it stands: its models
    in their places, the dead and the fled at its front, off the table."""
    places = slots(front, facing, files, standing, size, loose)
    presence = {
        State.READY: Presence.IN_PLAY,
        State.FLEEING: Presence.IN_PLAY,
        State.DESTROYED: Presence.REMOVED,
        State.FLED: Presence.FLED,
    }[state]
    ids = ([f"{unit_id}.hero"] if has_character else []) + [f"{unit_id}.{k}" for k in range(models)]
    alive = ([hero_alive] if has_character else []) + [k < alive_models for k in range(models)]
    out: list[Piece] = []
    slot = 0
    for piece_id, living in zip(ids, alive, strict=True):
        here = presence if living else Presence.REMOVED
        if living and slot < standing:
            x, y = places[slot]
            slot += 1
        else:
            x, y = front
        out.append(Piece(piece_id, unit_id, side, Base(x, y, size, piece_id), here))
    return tuple(out)
