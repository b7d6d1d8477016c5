"""The heuristic bot decides inside rules with the optimal policy (Fame, OW-HERO-02/03/05).

In a battle a Fame decision reaches the bot from inside a rule procedure the game
called (through the posses' relabelling wrapper): the bot is given the position, and
solves from the outermost procedure with a goal for the deciding side.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from kubik.bots import FastBot, HeuristicBot, bot_for
from kubik.engine import Call, ChoiceOrigin, Choose, OddsCache, Procedure
from kubik.engine.log import ChoiceEntry
from kubik.engine.optimal import Optimal
from kubik.engine.requests import msg
from kubik.engine.run import TypedDice, run
from kubik.engine.stepper import Position
from kubik.rulesets.old_west.battle.sides import Labels, as_sides
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fight import Fighter, dukin_it_out
from kubik.rulesets.old_west.wounds import wound_with_fame

LABELS = Labels(
    (("a", "law"), ("b", "outlaws")),
    ((Side.A, msg("old_west.side.a")), (Side.B, msg("old_west.side.b"))),
)


class AsChooser:
    """A bot as the play driver's chooser (it is given the position)."""

    origin = ChoiceOrigin.BOT

    def __init__(self, bot: HeuristicBot) -> None:
        self.bot = bot

    def choose(self, request: Choose) -> Hashable:
        return self.bot(request)

    def choose_at(self, request: Choose, position: Position) -> Hashable:
        return self.bot.choose_at(request, position)


def game_turn(procedure: Any, args: tuple[Any, ...]) -> Procedure[Any]:
    """A stand-in for a battle: no goals of its own; it calls a rule for the posses."""
    return (yield Call(as_sides, (LABELS, procedure, args)))


def test_OW_HERO_05_the_bot_spends_fame_on_a_wound_as_the_optimal_policy_does() -> None:
    """S3 v T8 (6/4), 3 Fame, a 4 rolled: spending 2 reaches the 6 (and carries to the
    second roll: 1 + 2 = 3), leaving 1 to reach its 4. Without forecasts the bot would
    take the default (no Fame)."""
    result = run(
        game_turn,
        (wound_with_fame, (3, 8, 3, "a")),
        dice=TypedDice([4, 1]),
        chooser=AsChooser(HeuristicBot()),
    )
    choices = [e for e in result.log if isinstance(e, ChoiceEntry)]
    assert [c.side for c in choices] == ["law", "law"]
    assert [c.answer for c in choices] == [2, 1]
    assert result.outcome.wounded and result.outcome.fame_spent == 3


def test_OW_HERO_03_secret_bids_are_drawn_from_the_equilibrium() -> None:
    """Both Heroes bid in secret; each bot draws its bid from its side's mixed strategy,
    from its own seed; the second bidder's strategy does not depend on the first bid."""
    a = (Fighter(4, 1, 2),)
    b = (Fighter(4, 1, 1),)
    law = bot_for("heuristic", seed=9, side="law", cache=OddsCache())
    outlaws = bot_for("heuristic", seed=9, side="outlaws", cache=OddsCache())
    assert isinstance(law, HeuristicBot) and isinstance(outlaws, HeuristicBot)

    class BySide:
        origin = ChoiceOrigin.BOT

        def choose(self, request: Choose) -> Hashable:
            raise AssertionError("the position is given")

        def choose_at(self, request: Choose, position: Position) -> Hashable:
            bot = law if request.side == "law" else outlaws
            return bot.choose_at(request, position)

    _, node = Optimal().solution(dukin_it_out, (a, b, Side.A), OddsCache(), explain=True)
    mixes = {
        (note.side, note.reason.kwargs["rolled"], note.reason.kwargs["opponent"]): {
            option for option, p, _ in note.choice if p
        }
        for note in node.notes
    }
    for dice in ([3, 3], [5, 4], [2, 6], [4, 4]):
        result = run(
            game_turn,
            (dukin_it_out, (a, b, Side.A)),
            dice=TypedDice([*dice, 1]),
            chooser=BySide(),
        )
        bids = [e for e in result.log if isinstance(e, ChoiceEntry)]
        assert [e.side for e in bids] == ["law", "outlaws"]
        assert bids[0].answer in mixes[("a", dice[0], dice[1])]
        assert bids[1].answer in mixes[("b", dice[1], dice[0])]


def test_a_decision_too_big_to_solve_within_the_budget_is_judged_by_forecasts(
    monkeypatch: Any,
) -> None:
    """OW-HERO-05 Fame on a wound: solved exactly it spends 2 then 1 (test above); with a
    budget of 3 positions the solve stops, the bot takes the request's default (no
    forecasts: no Fame) and the same decision is refused again from the cache."""
    from kubik.bots import heuristic
    from kubik.engine.expectimax import TooMuchWork

    monkeypatch.setattr(heuristic.HeuristicBot, "solve_positions", 3)
    result = run(
        game_turn,
        (wound_with_fame, (3, 8, 3, "a")),
        dice=TypedDice([4]),
        chooser=AsChooser(HeuristicBot()),
    )
    choices = [e for e in result.log if isinstance(e, ChoiceEntry)]
    assert [c.answer for c in choices] == [0]
    assert result.outcome.fame_spent == 0 and not result.outcome.wounded

    request, position = _positions_of(wound_with_fame, (3, 8, 3, "a"), [4])[0]
    cache, optimal = OddsCache(), Optimal()
    for _ in range(2):
        try:
            optimal.strategy(request, position, cache, 3)
        except TooMuchWork:
            pass
        else:
            raise AssertionError("three positions cannot solve a Fame decision")
    assert optimal.strategy(request, position, cache, 100_000) == {2: 1}


def _positions_of(procedure: Any, args: tuple[Any, ...], dice: list[int]) -> list[Any]:
    """Every decision a run asks, with its position (each answered by its default)."""
    asked: list[tuple[Choose, Position]] = []

    class Capture:
        origin = ChoiceOrigin.BOT

        def choose(self, request: Choose) -> Hashable:
            return request.default

        def choose_at(self, request: Choose, at: Position) -> Hashable:
            asked.append((request, at))
            return request.default

    run(game_turn, (procedure, args), dice=TypedDice(dice), chooser=Capture())
    return asked


def _least_budget(request: Choose, position: Position) -> int:
    """The fewest positions a solve of this decision from scratch looks at."""
    from kubik.engine.expectimax import TooMuchWork

    low, high = 0, 1
    while True:
        try:
            Optimal().strategy(request, position, OddsCache(), high)
            break
        except TooMuchWork:
            low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        try:
            Optimal().strategy(request, position, OddsCache(), middle)
            high = middle
        except TooMuchWork:
            low = middle
    return high


def test_decisions_of_one_fight_share_its_outer_solve_and_fit_the_budget_as_from_scratch() -> None:
    """OW-HERO-03 Both Heroes bid Fame in secret inside a combat round (OW-CC-01): the
    later decisions reuse the round's solve made for the first, yet at every budget each
    decision is refused or solved (to the same strategy) exactly as it is from scratch —
    also at the budgets where one position more or fewer decides it."""
    from kubik.engine.expectimax import TooMuchWork
    from kubik.rulesets.old_west.combat import Model, combat

    def strategy(
        optimal: Optimal, request: Choose, position: Position, cache: OddsCache, budget: int
    ) -> Any:
        try:
            return optimal.strategy(request, position, cache, budget)
        except TooMuchWork:
            return None

    a = (Model(4, 1, 3, 4, fame=2),)
    b = (Model(4, 1, 3, 4, fame=1),)
    asked = _positions_of(combat, (a, b, Side.A), [5, 3, 4, 4, 4, 4])
    # the two bids in the fight; the Fame on a wound inside the winners' strikes
    assert [len(position) for _, position in asked] == [3, 3, 6]
    least = {_least_budget(request, position) for request, position in asked}
    for budget in sorted(least | {n - 1 for n in least}):
        scratch = [strategy(Optimal(), r, p, OddsCache(), budget) for r, p in asked]
        cache, optimal = OddsCache(), Optimal()
        shared = [strategy(optimal, r, p, cache, budget) for r, p in asked]
        assert shared == scratch


def test_the_fast_bot_solves_inside_rules_only_within_its_smaller_budget(monkeypatch: Any) -> None:
    """OW-HERO-05 Fame on a wound (S3 v T8, 3 Fame, a 4 rolled): the heuristic bot solves it
    and spends 2; the fast bot, whose budget is below what this decision takes, judges it
    by its forecasts (none: the default, no Fame). Within its budget it spends as the
    heuristic bot does."""
    from kubik.core.limits import BOT_SOLVE_POSITIONS, FAST_BOT_SOLVE_POSITIONS

    assert FastBot.solve_positions == FAST_BOT_SOLVE_POSITIONS < BOT_SOLVE_POSITIONS
    assert bot_for("fast", 1, "law").__class__ is FastBot
    request, position = _positions_of(wound_with_fame, (3, 8, 3, "a"), [4])[0]
    needs = _least_budget(request, position)

    def spent(bot: HeuristicBot) -> list[Any]:
        result = run(
            game_turn,
            (wound_with_fame, (3, 8, 3, "a")),
            dice=TypedDice([4, 1]),
            chooser=AsChooser(bot),
        )
        return [e.answer for e in result.log if isinstance(e, ChoiceEntry)]

    monkeypatch.setattr(FastBot, "solve_positions", needs - 1)
    assert spent(HeuristicBot()) == [2, 1]
    assert spent(FastBot()) == [0]
    monkeypatch.setattr(FastBot, "solve_positions", needs)
    assert spent(FastBot()) == [2, 1]
