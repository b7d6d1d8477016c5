"""An Old West battle on the battle layer: advantage, Movement, Shooting, Close combat.

Each turn (OW-ABSENT-01 default order): posses at half strength test Head for the
Hills (OW-PLK-02/04); both sides roll for advantage; then the Movement, Shooting
and Close-combat phases, each opened by heroic actions (OW-HERO-06..11). The phases
live in their own modules; this one holds the models and the steps every phase
shares (calling a rule for the posses, wounds with Fortune, Fame bookkeeping), and
fills the layer's hooks: :meth:`~OldWestGame.pieces`, :meth:`~OldWestGame.turn`,
:meth:`~OldWestGame.ending`, :meth:`~OldWestGame.winner_at_limit` and
:meth:`~OldWestGame.summary`. Being hit and not removed, a model dives for cover out
of the shooter's turn: an interrupt (:data:`~kubik.game.battle.Trigger.SHOT_AT`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, TypeVar, TypeVarTuple

from kubik.engine import AnyCall, Call, Message, Procedure, emit, msg
from kubik.game import Ending, Scenario, SideSummary, side_name
from kubik.game.battle import BattleGame, Piece, Trigger, touching
from kubik.rulesets.old_west.absent import advantage_roll, fall_from_horse, fortune
from kubik.rulesets.old_west.battle.figures import _IN_ACTION, Figure, Nerve, Stance
from kubik.rulesets.old_west.battle.sides import Labels, as_sides
from kubik.rulesets.old_west.battle.spec import BattleSpec, OptionsData, build_spec, leader_of
from kubik.rulesets.old_west.core import Side, Status
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.wounds import out_of_action

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class OldWestGame(BattleGame):
    """A whole battle between two posses; all state lives on this object."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.spec: BattleSpec = build_spec(scenario, self.options)
        a, b = scenario.side_ids
        self.sides: tuple[str, str] = (a, b)
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
                foot_diameter=min(m.base.diameter, _foot_base()),
            )
            for m in self.spec.models
        )
        self._by_id = {f.id: f for f in self.figures}
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
        from kubik.rulesets.old_west.battle.nerve import dive_for_cover

        self.interrupts.on(Trigger.SHOT_AT, "diving_for_cover", lambda m: dive_for_cover(self, m))

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

    def turn(self, number: int) -> Procedure[None]:
        """One turn: Head for the Hills, advantage, then the three phases."""
        from kubik.rulesets.old_west.battle.melee import close_combat_phase
        from kubik.rulesets.old_west.battle.moves import movement_phase
        from kubik.rulesets.old_west.battle.nerve import head_for_the_hills_tests
        from kubik.rulesets.old_west.battle.shots import shooting_phase

        for figure in self.figures:
            figure.nerve = Nerve.STEADY  # pinned for a turn, scared for a phase
            figure.moved = 0.0
            if figure.stance is Stance.CHARGED_PRONE:
                figure.stance = Stance.PRONE  # the charge was last turn's
        if number > 1:
            yield from head_for_the_hills_tests(self)
            if self.ending() is not None:
                return
        rolled = yield self.call(advantage_roll, (self.had_advantage,))
        self.advantage = rolled.advantage
        self.had_advantage = rolled.advantage
        yield emit(
            "old_west.game.advantage",
            rules=("OW-ABSENT-01",),
            side=side_name(self.scenario, self.advantage_side),
        )
        for phase in (movement_phase, shooting_phase, close_combat_phase):
            yield from phase(self)
            if self.ending() is not None:
                return

    def ending(self) -> Ending | None:
        """The objective achieved wins; a posse that fled or was wiped out loses (both: a
        draw); a posse whose last models left the table without the objective loses."""
        from kubik.rulesets.old_west.battle.objective import achieved

        a, b = self.sides
        objective = self.spec.objective
        if objective is not None and achieved(self):
            name = side_name(self.scenario, objective.side)
            return Ending(objective.side, msg("old_west.game.end.objective", side=name))
        gone_a, gone_b = not self.active(a), not self.active(b)
        if not gone_a and not gone_b:
            return None
        if gone_a and gone_b:
            return Ending(None, msg("old_west.game.end.both_gone"))
        loser, winner = (a, b) if gone_a else (b, a)
        name = side_name(self.scenario, loser)
        if any(f.status is Status.LEFT_TABLE for f in self.posse(loser)):
            return Ending(winner, msg("old_west.game.end.left", side=name))
        if self.fled[loser]:
            return Ending(winner, msg("old_west.game.end.fled", side=name))
        return Ending(winner, msg("old_west.game.end.wiped_out", side=name))

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
        """The posse's models still in action."""
        return tuple([f for f in self.figures if f.side == side and _IN_ACTION[f.status]])

    def enemies(self, figure: Figure) -> tuple[Figure, ...]:
        """Enemy models in action."""
        return self.active(self.enemy_of(figure.side))

    def engaged(self, figure: Figure) -> bool:
        """Whether the model is in a fight: a charge brought it into base contact with an
        enemy and no round has parted them yet (OW-CC-01)."""
        return bool(self.contacts.of(figure.id))

    def opponents(self, figure: Figure) -> tuple[Figure, ...]:
        """The enemies the model is in a fight with."""
        return tuple(self.figure(other) for other in self.contacts.of(figure.id))

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

    def wound(self, figure: Figure, wounds: int) -> Procedure[None]:
        """``figure`` suffers ``wounds`` wounds (outside a fight): a Hero's Fortune may save
        some first (OW-ABSENT-07 default), then :meth:`take_wounds`."""
        if wounds <= 0 or not figure.in_action:
            return
        wounds = min(wounds, figure.wounds_left)
        if figure.fortune > 0:
            saved = yield Call(fortune, (wounds, figure.fortune, figure.side))
            yield from self.pay_fortune(figure, saved.fortune_spent)
            wounds = saved.wounds
        yield from self.take_wounds(figure, wounds)

    def wound_mount(self, figure: Figure, wounds: int) -> Procedure[None]:
        """``figure``'s mount suffers ``wounds`` wounds (a shot at a rider that hit the
        horse, OW-ABSENT-04); once killed the rider falls (OW-ABSENT-06 default)."""
        mount = figure.mount
        if mount is None or wounds <= 0:
            return
        figure.mount_wounds += wounds
        name = self.name(mount_key(mount.id))
        if not out_of_action(figure.mount_wounds, mount.wounds):
            yield emit(
                "old_west.game.mount_wounded",
                rules=("OW-ABSENT-04",),
                model=self.name(figure.id),
                mount=name,
            )
            return
        figure.dismount()
        yield emit(
            "old_west.game.mount_killed",
            rules=("OW-ABSENT-04", "OW-ABSENT-06"),
            model=self.name(figure.id),
            mount=name,
        )
        fall = yield Call(fall_from_horse, (figure.profile.toughness, figure.side))
        if fall.prone:
            figure.stance = Stance.PRONE
            yield emit("old_west.game.thrown", rules=("OW-ABSENT-06",), model=self.name(figure.id))
        if fall.wounded:
            yield from self.wound(figure, 1)

    def take_wounds(self, figure: Figure, wounds: int) -> Procedure[None]:
        """``figure`` loses ``wounds`` Wounds (Fortune already spent); out of action once
        every Wound is lost (OW-CC-12): off the table, out of every fight."""
        from kubik.rulesets.old_west.battle.objective import drop_loot

        wounds = min(wounds, figure.wounds_left)
        if wounds <= 0 or not figure.in_action:
            return
        figure.wounds_taken += wounds
        if out_of_action(figure.wounds_taken, figure.profile.wounds):
            figure.status = Status.OUT_OF_ACTION
            figure.stance = Stance.STANDING
            self.contacts.release(figure.id)
            yield emit(
                "old_west.game.out_of_action", rules=("OW-CC-12",), model=self.name(figure.id)
            )
            yield from drop_loot(self, figure)
        else:
            yield emit(
                "old_west.game.wounded",
                rules=("OW-CC-12",) if figure.profile.wounds > 1 else (),
                model=self.name(figure.id),
                wounds=wounds,
                left=figure.wounds_left,
            )

    def names(self, ids: tuple[str, ...]) -> tuple[Message, ...]:
        """The names of several models, for a message."""
        return tuple(self.name(i) for i in ids)


def weapon_key(weapon_id: str) -> str:
    """The name key of a weapon (kept apart from the models' ids)."""
    return f"weapon:{weapon_id}"


def mount_key(mount_id: str) -> str:
    """The name key of a mount."""
    return f"mount:{mount_id}"


def terrain_key(feature_id: str) -> str:
    """The name key of a terrain feature."""
    return f"terrain:{feature_id}"


def _foot_base() -> float:
    from kubik.rulesets.old_west.battle.spec import foot_base_inches

    return foot_base_inches()


__all__ = ["OldWestGame", "mount_key", "terrain_key", "weapon_key"]
