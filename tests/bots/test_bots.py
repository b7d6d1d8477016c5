"""Bots: random, default and heuristic; reproducible, legal, and the heuristic one wins."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from kubik.bots import BOT_NAMES, DefaultBot, HeuristicBot, RandomBot, UnknownBotError, bot_for
from kubik.core.errors import KubikError
from kubik.engine import OddsCache, wilson_interval
from kubik.engine.dice import D4, D6, D8
from kubik.engine.log import ChoiceEntry
from kubik.engine.requests import Choose, Forecast, Procedure, Roll
from kubik.game import Controller, GameSession, Scenario
from kubik.game.session import Bot
from tests.bots.forecast_toy import AIM, HOLD, VOLLEY

# -- hand-made rules for forecasts ------------------------------------------------


def two_dice_beat(target: int) -> Procedure[int]:
    """Count of a d6 and a d8 that beat ``target`` (reduced at the roll)."""
    beaten: int = yield Roll(
        (D6, D8), "two dice", reduce=lambda values: sum(v > target for v in values)
    )
    return beaten


def best_of_three_d4() -> Procedure[int]:
    """The highest of three d4 (unordered)."""
    values = yield Roll((D4, D4, D4), "three d4", unordered=True)
    return int(max(values))


def sum_of_d6_d4() -> Procedure[int]:
    a, b = yield Roll((D6, D4), "d6 + d4")
    return int(a + b)


def brute_expected(
    faces: tuple[int, ...], outcome: Callable[[tuple[int, ...]], int], value: Callable[[int], int]
) -> Fraction:
    """E[value(outcome(dice))] over every ordered face combination, no engine involved."""
    combos = list(product(*(range(1, f + 1) for f in faces)))
    return sum((Fraction(value(outcome(c))) for c in combos), Fraction(0)) / len(combos)


def squared(x: int) -> int:
    return x * x


def test_heuristic_bot_picks_the_best_exact_expected_value() -> None:
    request = Choose(
        ("pair", "best", "sum"),
        "steel",
        "what to do",
        forecasts=(
            Forecast(two_dice_beat, (3,), value=squared),
            Forecast(best_of_three_d4, (), value=int),
            Forecast(sum_of_d6_d4, (), value=int, score=-4.5),
        ),
    )
    expected = (
        brute_expected((6, 8), lambda c: sum(v > 3 for v in c), squared),
        brute_expected((4, 4, 4), max, int),
        brute_expected((6, 4), sum, int) - Fraction(9, 2),
    )
    assert HeuristicBot().values(request) == expected
    # (1/2 + 5/8 ... ) worked by hand too: E[k^2] of two independent hits (1/2, 5/8)
    assert expected[0] == Fraction(1, 2) + Fraction(5, 8) + 2 * Fraction(1, 2) * Fraction(5, 8)
    best = max(range(3), key=lambda i: expected[i])
    assert HeuristicBot()(request) == request.options[best] == "best"


def test_heuristic_bot_breaks_ties_by_option_order_and_values_none_at_zero() -> None:
    tie = Choose(
        ("first", "second"),
        "a",
        "tie",
        default="second",
        forecasts=(Forecast(score=1.0), Forecast(score=1.0)),
    )
    assert HeuristicBot()(tie) == "first"
    # an option without a forecast is neutral (0): better than a losing one
    mixed = Choose(
        ("lose", "wait"),
        "a",
        "mixed",
        forecasts=(Forecast(sum_of_d6_d4, (), value=lambda s: -s), None),
    )
    assert HeuristicBot().values(mixed) == (-brute_expected((6, 4), sum, int), None)
    assert HeuristicBot()(mixed) == "wait"


def test_heuristic_bot_falls_back_to_the_default_without_forecasts() -> None:
    plain = Choose(("a", "b", "c"), "x", "no foresight", default="c")
    assert HeuristicBot()(plain) == "c"
    none_given = Choose(("a", "b"), "x", "nothing", default="b", forecasts=(None, None))
    assert HeuristicBot()(none_given) == "b"


def test_heuristic_bot_memoises_in_the_cache_it_is_given() -> None:
    cache = OddsCache()
    request = Choose(("x",), "a", "r", forecasts=(Forecast(best_of_three_d4, (), value=int),))
    bot = HeuristicBot(cache)
    bot(request)
    filled = len(cache)
    assert filled > 0
    bot(request)
    assert len(cache) == filled


def test_random_bot_is_reproducible_legal_and_varies_with_the_seed() -> None:
    request = Choose(tuple(range(7)), "steel", "pick")

    def picks(seed: int, side: str = "steel") -> list[Hashable]:
        bot = RandomBot(seed, side)
        return [bot(request) for _ in range(30)]

    assert picks(5) == picks(5)
    assert picks(5) != picks(6)
    assert picks(5) != picks(5, "lianra")
    assert all(p in request.options for seed in range(20) for p in picks(seed))
    # every option gets picked: it is uniform over the legal ones, not stuck on one
    assert {p for seed in range(20) for p in picks(seed)} == set(request.options)


def test_random_bot_never_uses_the_global_generator() -> None:
    import random

    request = Choose(("a", "b", "c"), "s", "r")
    random.seed(1)
    first = RandomBot(3, "s")
    picks = [first(request) for _ in range(10)]
    random.seed(99)
    again = RandomBot(3, "s")
    assert [again(request) for _ in range(10)] == picks


def test_default_bot_and_the_registry() -> None:
    request = Choose(("a", "b"), "steel", "r", default="b")
    assert DefaultBot()(request) == "b"
    assert BOT_NAMES == ("heuristic", "fast", "random", "default")
    assert isinstance(bot_for("heuristic", 1, "steel"), HeuristicBot)
    assert isinstance(bot_for("random", 1, "steel"), RandomBot)
    assert bot_for("default", 1, "steel")(request) == "b"
    with pytest.raises(KubikError) as error:
        bot_for("clever", 1, "steel")
    assert isinstance(error.value, UnknownBotError)
    assert str(error.value) == "bot 'clever': unknown; bots: heuristic, fast, random, default"


def test_bots_play_whole_games_reproducibly(forecast_duel: Scenario) -> None:
    def game(seed: int) -> str:
        bots: dict[str, Controller] = {"steel": RandomBot(seed, "steel"), "lianra": HeuristicBot()}
        session = GameSession(forecast_duel, seed, controllers=bots)
        session.advance()
        assert session.finished
        return session.record.dumps()

    assert game(4) == game(4)
    assert len({game(seed) for seed in range(6)}) > 1


def test_the_heuristic_bot_takes_the_option_the_rules_favour(forecast_duel: Scenario) -> None:
    """Hit on 4+: volley (2 x 1/2 hits - 1/4 strain = 3/4) beats aim (1/2) and hold (0)."""
    session = GameSession(forecast_duel, 2, controllers={"steel": HeuristicBot(), "lianra": "bot"})
    session.advance()
    choices = [e for e in session.log if isinstance(e, ChoiceEntry)]
    steel = [e.answer for e in choices if e.side == "steel"]
    lianra = [e.answer for e in choices if e.side == "lianra"]
    assert steel and set(steel) == {VOLLEY}
    assert lianra and set(lianra) == {HOLD}
    assert AIM not in steel


def winner_rate(scenario: Scenario, opponent: Callable[[int, str], Bot], games: int) -> int:
    """Heuristic-bot wins over ``games`` games, sides alternating, seed = game number."""
    cache = OddsCache()
    wins = 0
    for seed in range(games):
        mine, theirs = ("steel", "lianra") if seed % 2 == 0 else ("lianra", "steel")
        bots: dict[str, Controller] = {mine: HeuristicBot(cache), theirs: opponent(seed, theirs)}
        session = GameSession(scenario, seed, controllers=bots)
        session.advance()
        assert session.result is not None
        wins += session.result.winner == mine
    return wins


def test_the_heuristic_bot_clearly_beats_the_random_bot(forecast_duel: Scenario) -> None:
    games = 200
    wins = winner_rate(forecast_duel, lambda seed, side: RandomBot(seed, side), games)
    low, _ = wilson_interval(wins, games)
    assert wins >= 0.6 * games, wins
    assert low > 0.5, (wins, low)


def test_the_heuristic_bot_crushes_the_default_bot(forecast_duel: Scenario) -> None:
    games = 60
    wins = winner_rate(forecast_duel, lambda seed, side: DefaultBot(), games)
    assert wins >= 0.8 * games, wins


def test_the_fast_bot_plays_the_heuristic_bots_game_where_no_rule_decides_inside() -> None:
    """Стальная война asks no decision inside a rule with goals: the fast bot judges every
    option by the same exact forecasts, so a game is the heuristic bot's, answer for answer."""
    from kubik.bots import FastBot
    from kubik.game import load_scenario

    scenario = load_scenario("steel_war.ruins")

    def answers(bot: type[HeuristicBot]) -> list[object]:
        cache = OddsCache()
        bots: dict[str, Controller] = {s: bot(cache, 2, s) for s in scenario.side_ids}
        session = GameSession(scenario, 2, controllers=bots)
        session.advance()
        assert session.finished
        return list(session.answers)

    assert answers(FastBot) == answers(HeuristicBot)


@pytest.mark.parametrize(("scenario_id", "seed"), [("fantasy.pass", 1), ("old_west.feud", 2)])
def test_a_bot_never_works_out_the_same_question_twice_in_a_game(
    scenario_id: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact odds a heuristic bot weighs (a drake's close combats in the pass, Fame and
    fights in the feud) are remembered by the situation the rule takes, as plain values:
    over a whole game no rule's odds are worked out twice for equal situations."""
    import copy

    from kubik.engine import odds
    from kubik.game import load_scenario

    worked_out: list[tuple[object, tuple[object, ...]]] = []
    asked: list[tuple[object, tuple[object, ...]]] = []  # by the bot, not inside a rule
    depth = [0]
    counted = odds.OddsDriver.counted

    def counting(self: odds.OddsDriver, procedure: Any, args: tuple[Any, ...]) -> Any:
        shared = odds._odds_args(procedure, args)
        known = (None, procedure, shared) in self.cache.calls or (
            self.policy,
            procedure,
            shared,
        ) in self.cache.calls
        if not known:
            worked_out.append((procedure, shared))
            if depth[0] == 0:
                asked.append((procedure, shared))
        depth[0] += 1
        try:
            return counted(self, procedure, args)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(odds.OddsDriver, "counted", counting)
    scenario = load_scenario(scenario_id)
    cache = OddsCache()
    bots: dict[str, Controller] = {s: HeuristicBot(cache, seed, s) for s in scenario.side_ids}
    session = GameSession(scenario, seed, controllers=bots)
    session.advance()
    assert session.finished and len(asked) > 10
    assert len(set(worked_out)) == len(worked_out)
    known = set(asked)
    for procedure, situation in asked:  # equal by value, not by identity
        assert (procedure, copy.deepcopy(situation)) in known
