"""An Old West battle as a turn loop: advantage, Movement, Shooting, Close combat.

Each turn (OW-ABSENT-01 default order): posses at half strength test Head for the
Hills (OW-PLK-02/04); both sides roll for advantage; then the Movement, Shooting
and Close-combat phases, each opened by heroic actions (OW-HERO-06..11). The phases
live in their own modules; this one holds the state, the shared steps (calling a
rule for the posses, wounds with Fortune, Fame bookkeeping) and the ending.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, TypeVar, TypeVarTuple

from kubik.engine import AnyCall, Call, Procedure, emit, msg
from kubik.game import Ending, Scenario, SideSummary, TurnLoop, side_name
from kubik.rulesets.old_west.absent import advantage_roll, fall_from_horse, fortune
from kubik.rulesets.old_west.battle.objective import achieved, drop_loot
from kubik.rulesets.old_west.battle.sides import Labels, as_sides
from kubik.rulesets.old_west.battle.spec import BattleSpec, OptionsData, build_spec
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.rulesets.old_west.core import Side, Status
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.wounds import out_of_action

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class OldWestGame(TurnLoop):
    """A whole battle between two posses; all state lives on this object."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario)
        self.spec: BattleSpec = build_spec(scenario, options)
        a, b = scenario.side_ids
        self.sides: tuple[str, str] = (a, b)
        self.battle = Battle.from_spec(self.spec, self.sides)
        self.options: OptionsData = self.spec.options
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

    # -- sides ------------------------------------------------------------------

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
        return (first, self.battle.enemy_of(first))

    def call(self, procedure: Callable[[*Ts], Generator[Any, Any, T]], args: tuple[*Ts]) -> AnyCall:
        """A Call of a rule procedure that names its two sides "a" / "b" (a fight, the
        advantage roll, the order of heroic actions or fights): they become the posses."""
        return Call(as_sides, (self.labels, procedure, args))

    # -- shared steps -----------------------------------------------------------

    def pay_fame(self, figure: Figure, points: int) -> Procedure[None]:
        """Mark off the Fame a rule reports ``figure`` spent (OW-HERO-02)."""
        if points <= 0:
            return
        figure.fame = spend(figure.fame, points)
        yield emit("old_west.game.fame_spent", model=figure.name, points=points, left=figure.fame)

    def pay_fortune(self, figure: Figure, points: int) -> Procedure[None]:
        """Mark off the Fortune a rule reports ``figure`` spent (the rule narrates the
        wounds it saved)."""
        if points <= 0:
            return
        figure.fortune = max(figure.fortune - points, 0)
        yield emit(
            "old_west.game.fortune_spent", model=figure.name, points=points, left=figure.fortune
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
        if not out_of_action(figure.mount_wounds, mount.wounds):
            yield emit("old_west.game.mount_wounded", model=figure.name, mount=mount.name)
            return
        figure.dismount()
        yield emit("old_west.game.mount_killed", model=figure.name, mount=mount.name)
        fall = yield Call(fall_from_horse, (figure.profile.toughness, figure.side))
        if fall.prone:
            figure.prone = True
            yield emit("old_west.game.thrown", model=figure.name)
        if fall.wounded:
            yield from self.wound(figure, 1)

    def take_wounds(self, figure: Figure, wounds: int) -> Procedure[None]:
        """``figure`` loses ``wounds`` Wounds (Fortune already spent); out of action once
        every Wound is lost (OW-CC-12)."""
        wounds = min(wounds, figure.wounds_left)
        if wounds <= 0 or not figure.in_action:
            return
        figure.wounds_taken += wounds
        if out_of_action(figure.wounds_taken, figure.profile.wounds):
            figure.status = Status.OUT_OF_ACTION
            figure.prone = False
            yield emit("old_west.game.out_of_action", model=figure.name)
            yield from drop_loot(self, figure)
        else:
            yield emit(
                "old_west.game.wounded", model=figure.name, wounds=wounds, left=figure.wounds_left
            )

    # -- the turn ---------------------------------------------------------------

    def turn(self, number: int) -> Procedure[None]:
        """One turn: Head for the Hills, advantage, then the three phases."""
        from kubik.rulesets.old_west.battle.melee import close_combat_phase
        from kubik.rulesets.old_west.battle.morale import head_for_the_hills_tests
        from kubik.rulesets.old_west.battle.movement import movement_phase
        from kubik.rulesets.old_west.battle.shooting import shooting_phase

        for figure in self.battle.figures:
            figure.pinned = False
        if number > 1:
            yield from head_for_the_hills_tests(self)
            if self.ending() is not None:
                return
        rolled = yield self.call(advantage_roll, (self.had_advantage,))
        self.advantage = rolled.advantage
        self.had_advantage = rolled.advantage
        yield emit("old_west.game.advantage", side=side_name(self.scenario, self.advantage_side))
        for phase in (movement_phase, shooting_phase, close_combat_phase):
            yield from phase(self)
            if self.ending() is not None:
                return

    def gone(self, side: str) -> bool:
        """A posse with no model left on the table (wiped out or fled)."""
        return not self.battle.active(side)

    def ending(self) -> Ending | None:
        """The objective achieved wins; a posse that fled or was wiped out loses (both: a
        draw); a posse whose last models left the table without the objective loses."""
        a, b = self.sides
        objective = self.spec.objective
        if objective is not None and achieved(self):
            name = side_name(self.scenario, objective.side)
            return Ending(objective.side, msg("old_west.game.end.objective", side=name))
        gone_a, gone_b = self.gone(a), self.gone(b)
        if not gone_a and not gone_b:
            return None
        if gone_a and gone_b:
            return Ending(None, msg("old_west.game.end.both_gone"))
        loser = a if gone_a else b
        winner = b if gone_a else a
        name = side_name(self.scenario, loser)
        if any(f.status is Status.LEFT_TABLE for f in self.battle.posse(loser)):
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
            return self.battle.enemy_of(objective.side)
        key_a = (len(self.battle.active(a)), self.battle.fame_left(a))
        key_b = (len(self.battle.active(b)), self.battle.fame_left(b))
        if key_a == key_b:
            return None
        return a if key_a > key_b else b

    def summary(self) -> tuple[SideSummary, ...]:
        """Per posse: models left, lost, fled, wounds taken, Fame and Fortune left."""
        out: list[SideSummary] = []
        for side in self.sides:
            posse = self.battle.posse(side)
            left = len(self.battle.active(side))
            counts = (
                ("units_left", left),
                ("models_left", left),
                ("models_lost", sum(1 for f in posse if f.status is Status.OUT_OF_ACTION)),
                ("models_fled", sum(1 for f in posse if f.status is Status.FLED)),
                ("models_left_table", sum(1 for f in posse if f.status is Status.LEFT_TABLE)),
                ("wounds_taken", sum(f.wounds_taken for f in posse)),
                ("fame_left", self.battle.fame_left(side)),
                ("fortune_left", sum(f.fortune for f in posse if f.in_action)),
            )
            out.append(SideSummary(side, counts))
        return tuple(out)


__all__ = ["OldWestGame"]
