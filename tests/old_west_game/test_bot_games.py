"""The rules happen in bot games (issue 9, §4): bots take heroic actions on both sides,
bid Fame in secret, spend Fame on rolls, flee of their own will, strike riders off
their horses — and every game keeps one fight per model a phase.

Each test plays the first game(s) of ``kubik coverage``'s seed sequence for a built-in
scenario (``game_seeds(1, n)``): ``kubik play SCENARIO --seed S`` replays any of them.
Where a rule needs the dice to bring it about, a test takes the first of a dozen games
in which it happens (bots or dice that change must not hide a rule that still arises).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable

from kubik.bots.heuristic import HeuristicBot
from kubik.engine import Choose
from kubik.engine.log import ChoiceEntry, EventEntry
from kubik.engine.odds import OddsCache
from kubik.game import GameSession, load_scenario
from kubik.game.coverage import game_seeds
from kubik.rulesets.old_west.battle.options import Heroic
from kubik.rulesets.old_west.fame import JustEnough


def bot_game(scenario_id: str, game: int, fame: bool = False) -> GameSession:
    """Game ``game`` of the coverage seeds, heuristic bots on both sides (``fame``: the
    bots answer the rules' own Fame offers with the ruleset's best response)."""
    scenario = load_scenario(scenario_id)
    seed = game_seeds(1, game + 1)[game]
    cache = OddsCache()

    def bot_of(side: str) -> HeuristicBot | object:
        bot = HeuristicBot(cache)
        if not fame:
            return bot

        def spends(request: Choose) -> Hashable:
            if "to_succeed" in request.reason.kwargs and not request.sealed:
                return JustEnough()(request)
            return bot(request)

        return spends

    session = GameSession(
        scenario, seed, controllers={side: bot_of(side) for side in scenario.side_ids}
    )
    session.advance()
    assert session.finished
    return session


def first_game(
    scenario_id: str, happens: Callable[[GameSession], bool], games: int = 12
) -> GameSession:
    """The first of ``games`` coverage games of the scenario in which ``happens``."""
    for game in range(games):
        session = bot_game(scenario_id, game)
        if happens(session):
            return session
    raise AssertionError(f"not in {games} games of {scenario_id}")


def ids(session: GameSession) -> Counter[str]:
    return Counter(e.event.id for e in session.log if isinstance(e, EventEntry))


def test_heroes_of_both_posses_declare_heroic_actions_and_bid_fame_in_secret() -> None:
    """The feud's first game: both posses declare in one phase (the d6 of OW-HERO-07
    decides who acts first), the posse with advantage among them, and Heroes fighting
    Heroes write sealed bids (OW-HERO-03)."""
    session = first_game(
        "old_west.feud",
        lambda s: (
            ids(s)["old_west.heroic.order"] >= 1 and ids(s)["old_west.fame.bids_revealed"] >= 1
        ),
    )
    declared = {
        e.side
        for e in session.log
        if isinstance(e, ChoiceEntry) and isinstance(e.answer, Heroic) and e.answer.declare
    }
    assert declared == {"hatfields", "mccoys"}
    sealed = [e for e in session.log if isinstance(e, ChoiceEntry) and "OW-HERO-03" in e.rules]
    assert sealed and {e.side for e in sealed} == {"hatfields", "mccoys"}


def test_heroes_spend_fame_on_their_rolls_when_it_makes_them_succeed() -> None:
    """Answering the rules' Fame offers with the best response (the heuristic bot takes
    over these in-rule decisions with issue 11's optimal policy), the Heroes of a bot game
    spend Fame on their rolls; the battle marks it off the Hero who spent it."""
    session = bot_game("old_west.feud", 0, fame=True)
    spent = [
        e
        for e in session.log
        if isinstance(e, EventEntry) and e.event.id == "old_west.game.fame_spent"
    ]
    on_rolls = [e for e in spent if {"OW-HERO-04", "OW-HERO-05"} & set(e.rules)]
    assert on_rolls and all("OW-HERO-02" in e.rules for e in on_rolls)


def _fled(session: GameSession) -> bool:
    return any(
        isinstance(e, EventEntry) and e.event.id == "old_west.head_for_the_hills.voluntary"
        for e in session.log
    )


def test_a_posse_far_outnumbered_flees_of_its_own_will() -> None:
    session = first_game("old_west.demo", _fled)
    (flight,) = [
        e
        for e in session.log
        if isinstance(e, EventEntry) and e.event.id == "old_west.head_for_the_hills.voluntary"
    ]
    assert flight.rules == ("OW-PLK-04",)
    end = session.log[-1]
    assert isinstance(end, EventEntry) and end.event.kwargs["reason"].id == "old_west.game.end.fled"


def test_riders_are_shot_or_struck_off_their_horses() -> None:
    first_game(
        "old_west.mesa",
        lambda s: ids(s)["old_west.game.mount_killed"] >= 1 and ids(s)["old_west.game.thrown"] >= 1,
    )


def test_every_model_fights_once_a_phase_but_after_time_for_whuppin() -> None:
    """In every Close-combat phase of the feud's first games, no model is in two fights —
    except those Time for Whuppin' moved on (OW-CC-01, OW-HERO-10/11)."""
    for game in (0, 1):
        session = bot_game("old_west.feud", game)
        fought: Counter[str] = Counter()
        moved: set[str] = set()
        for entry in session.log:
            if not isinstance(entry, EventEntry):
                continue
            event = entry.event
            if event.id == "old_west.game.phase":
                fought, moved = Counter(), set()
            elif event.id == "old_west.game.move_again":
                moved |= {dict(n.params)["en"] for n in event.kwargs["models"]}
            elif event.id == "old_west.game.fight":
                for name in (*event.kwargs["a"], *event.kwargs["b"]):
                    model = dict(name.params)["en"]
                    fought[model] += 1
                    assert fought[model] == 1 or model in moved, (game, model)
