"""Forecasts make the heuristic bot play well: it clearly beats the random bot."""

from __future__ import annotations

import dataclasses

from kubik.bots.heuristic import HeuristicBot
from kubik.bots.simple import RandomBot
from kubik.engine.log import ChoiceEntry
from kubik.engine.odds import OddsCache
from kubik.game import GameSession, load_scenario
from kubik.rulesets.old_west.battle.options import Flight, Heroic, HoldFire, MoveTo, ShootAt


def test_the_heuristic_bot_beats_the_random_bot_on_the_demo() -> None:
    demo = load_scenario("old_west.demo")
    cache = OddsCache()
    wins = 0
    games = 8
    for seed in range(games):
        smart = "law" if seed % 2 == 0 else "outlaws"
        dumb = "outlaws" if smart == "law" else "law"
        session = GameSession(
            demo, seed, controllers={smart: HeuristicBot(cache), dumb: RandomBot(seed, dumb)}
        )
        session.advance()
        assert session.result is not None
        wins += session.result.winner == smart
        for entry in session.log:
            if isinstance(entry, ChoiceEntry) and isinstance(
                entry.answer, MoveTo | ShootAt | HoldFire | Heroic | Flight
            ):
                assert entry.label is not None
                copy = dataclasses.replace(entry.answer)
                assert copy == entry.answer and hash(copy) == hash(entry.answer)
    assert wins >= 6
