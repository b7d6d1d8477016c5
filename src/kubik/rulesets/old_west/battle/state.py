"""The state of an Old West battle: the posses, their models and the steps every phase
shares (calling a rule for the posses, paying Fame and Fortune), on the battle layer.

:class:`OldWestState` fills the layer's hooks that read the state
(:meth:`~OldWestState.pieces`, :meth:`~OldWestState.view`,
:meth:`~OldWestState.winner_at_limit`, :meth:`~OldWestState.summary`) and holds the
board (:attr:`~OldWestState.board`, the layer's board over the models); the turn
itself is :class:`~kubik.rulesets.old_west.battle.game.OldWestGame`'s, which the
phases never import: they take this state.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, TypeVar, TypeVarTuple

from kubik.engine import AnyCall, Call, Message, Procedure, emit
from kubik.game import Scenario, SideSummary, side_name
from kubik.game.battle import BattleGame, Piece, touching
from kubik.rulesets.old_west.battle.board import OldWestBoard
from kubik.rulesets.old_west.battle.figures import _IN_ACTION, Figure
from kubik.rulesets.old_west.battle.names import mount_key, terrain_key, weapon_key
from kubik.rulesets.old_west.battle.sides import Labels, as_sides
from kubik.rulesets.old_west.battle.spec import (
    BattleSpec,
    OptionsData,
    build_spec,
    foot_base_inches,
    leader_of,
)
from kubik.rulesets.old_west.core import Side, Status
from kubik.rulesets.old_west.fame import spend

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class OldWestState(BattleGame):
    """A battle between two posses: all its state lives on this object."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.spec: BattleSpec = build_spec(scenario, self.options)
        a, b = scenario.side_ids
        self.sides: tuple[str, str] = (a, b)
        foot = foot_base_inches()
        self.figures: tuple[Figure, ...] = tuple(
            Figure(
                m.id,
                m.side,
                m.profile,
                m.weapons,
                m.base,
                m.profile.fame,
                m.profile.fortune,
                mount=m.mount,
                foot_diameter=min(m.base.diameter, foot),
            )
            for m in self.spec.models
        )
        self._by_id = {f.id: f for f in self.figures}
        self.board = OldWestBoard(self, self.figures)
        self.leaders = {side: leader_of(self.spec, side) for side in self.sides}
        self.settings: OptionsData = self.spec.options
        self.labels = Labels(
            (("a", a), ("b", b)),
            ((Side.A, side_name(scenario, a)), (Side.B, side_name(scenario, b))),
        )
        self.advantage: Side = Side.A
        self.had_advantage: Side | None = None
        self.fled: dict[str, bool] = {a: False, b: False}
        objective = self.spec.objective
        self.loot_left: int = objective.loot if objective else 0
        self.loot_escaped: int = 0
        for model in self.spec.models:
            self.set_name(model.id, model.name, model.name_ru)
            for weapon in model.weapons:
                self.set_name(weapon_key(weapon.id), weapon.name_en, weapon.name_ru)
            if model.mount is not None:
                self.set_name(mount_key(model.mount.id), model.mount.name_en, model.mount.name_ru)
        for feature in self.table.features:
            self.set_name(terrain_key(feature.id), feature.name, feature.name_ru)
        for index, one in enumerate(self.figures):
            for other in self.figures[index + 1 :]:
                if one.side != other.side and touching(one.base, other.base):
                    # set up in base contact: the battle starts with them in a fight
                    self.contacts.engage(one.id, other.id, ("OW-CC-01",))

    # -- the layer's hooks ------------------------------------------------------

    def pieces(self) -> tuple[Piece, ...]:
        """Every model, as the battle layer sees it (file order)."""
        return tuple(f.piece() for f in self.figures)

    def view(self, side: str | None) -> dict[str, Any]:
        """Every model on the table and what each has left, all open at a real table:
        wounds, Fame and Fortune, nerve and stance. A secret Fame bid is applied only once
        both are written, so the Fame shown never gives a bid away."""
        shown = super().view(side)
        shown["units"] = [
            {
                "id": figure.id,
                "side": figure.side,
                "wounds": figure.wounds_taken,
                "fame": figure.fame,
                "fortune": figure.fortune,
                "nerve": figure.nerve.value,
                "stance": figure.stance.value,
            }
            for figure in self.figures
            if figure.piece().presence.on_table
        ]
        return shown

    def reaches(self, unit: str) -> list[tuple[Message | None, float]]:
        """Each of the model's shooting weapons and its range (edge to edge, inches)."""
        figure = next((f for f in self.figures if f.id == unit), None)
        if figure is None:
            return []
        return sorted(((w.name, float(w.range)) for w in figure.weapons), key=lambda wr: -wr[1])

    def winner_at_limit(self) -> str | None:
        """An objective not achieved by the turn limit loses its posse the game; otherwise
        more models in action wins, then more Fame left, else a draw."""
        a, b = self.sides
        objective = self.spec.objective
        if objective is not None:
            return self.enemy_of(objective.side)
        key_a = (len(self.active(a)), self.fame_left(a))
        key_b = (len(self.active(b)), self.fame_left(b))
        if key_a == key_b:
            return None
        return a if key_a > key_b else b

    def summary(self) -> tuple[SideSummary, ...]:
        """Per posse: models left, lost, fled, wounds taken, Fame and Fortune left."""
        out: list[SideSummary] = []
        for side in self.sides:
            posse = self.posse(side)
            left = len(self.active(side))
            counts = (
                ("units_left", left),
                ("models_left", left),
                ("models_lost", sum(1 for f in posse if f.status is Status.OUT_OF_ACTION)),
                ("models_fled", sum(1 for f in posse if f.status is Status.FLED)),
                ("models_left_table", sum(1 for f in posse if f.status is Status.LEFT_TABLE)),
                ("wounds_taken", sum(f.wounds_taken for f in posse)),
                ("fame_left", self.fame_left(side)),
                ("fortune_left", sum(f.fortune for f in posse if f.in_action)),
            )
            out.append(SideSummary(side, counts))
        return tuple(out)

    # -- the posses ---------------------------------------------------------------

    def figure(self, model_id: str) -> Figure:
        """The model with this id."""
        return self._by_id[model_id]

    def enemy_of(self, side: str) -> str:
        """The other posse."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def posse(self, side: str) -> tuple[Figure, ...]:
        """Every model of the posse (those out of play too), in file order."""
        return tuple(f for f in self.figures if f.side == side)

    def active(self, side: str) -> tuple[Figure, ...]:
        """The posse's models still in action, in file order (the order they act in)."""
        return tuple([f for f in self.figures if f.side == side and _IN_ACTION[f.status]])

    def fame_left(self, side: str) -> int:
        """Fame the posse's Heroes in action have left."""
        return sum(f.fame for f in self.active(side))

    def rule_side(self, side: str) -> Side:
        """The rule modules' name of a posse: the first scenario side is "a"."""
        return Side.A if side == self.sides[0] else Side.B

    def side_id(self, side: Side) -> str:
        """The posse a rule side stands for."""
        return self.sides[0] if side is Side.A else self.sides[1]

    @property
    def advantage_side(self) -> str:
        """The posse with advantage (преимущество) this turn."""
        return self.side_id(self.advantage)

    @property
    def side_order(self) -> tuple[str, str]:
        """The posse with advantage first (it moves and shoots first, OW-HERO-06)."""
        first = self.advantage_side
        return (first, self.enemy_of(first))

    def call(self, procedure: Callable[[*Ts], Generator[Any, Any, T]], args: tuple[*Ts]) -> AnyCall:
        """A Call of a rule procedure that names its two sides "a" / "b" (a fight, the
        advantage roll, the order of heroic actions or fights): they become the posses."""
        return Call(as_sides, (self.labels, procedure, args))

    # -- steps every phase shares ---------------------------------------------------

    def pay_fame(self, figure: Figure, points: int, rules: tuple[str, ...] = ()) -> Procedure[None]:
        """Mark off the Fame a rule reports ``figure`` spent (OW-HERO-01/02)."""
        if points <= 0:
            return
        figure.fame = spend(figure.fame, points)
        yield emit(
            "old_west.game.fame_spent",
            rules=("OW-HERO-01", "OW-HERO-02", *rules),
            model=self.name(figure.id),
            points=points,
            left=figure.fame,
        )

    def pay_fortune(self, figure: Figure, points: int) -> Procedure[None]:
        """Mark off the Fortune a rule reports ``figure`` spent (the rule narrates the
        wounds it saved, OW-ABSENT-07)."""
        if points <= 0:
            return
        figure.fortune = max(figure.fortune - points, 0)
        yield emit(
            "old_west.game.fortune_spent",
            rules=("OW-ABSENT-07", "OW-HERO-01"),
            model=self.name(figure.id),
            points=points,
            left=figure.fortune,
        )

    def names(self, ids: tuple[str, ...]) -> tuple[Message, ...]:
        """The names of several models, for a message."""
        return tuple(self.name(i) for i in ids)


__all__ = ["OldWestState"]
