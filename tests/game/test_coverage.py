"""``kubik coverage`` underneath: bot games, reproducible seeds, the rules each applied.

The toy ruleset of :mod:`tests.game.rules_toy` names rule IDs in its rolls, decisions
and events, and its rule module decides all but one of them; the counts are checked
against each game's JSON log (the contract's ``"rules"`` of ``play --json``), an
independent reading of the same games: a rule counts where its module decided it,
not where only the battle's own narration names it (TR-START-01).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import pytest

import kubik.api as api
from kubik.bots.registry import bot_for
from kubik.engine.log import EventEntry
from kubik.engine.requests import Choose
from kubik.game import (
    GameInputError,
    Scenario,
    ScenarioSource,
    list_scenarios,
    load_scenario,
    parse_scenario,
    play_game,
    register_ruleset,
    unregister_ruleset,
)
from kubik.game.coverage import (
    MAX_RUNS,
    Coverage,
    check_runs,
    check_seed,
    game_seeds,
    rules_named,
    run_coverage,
)
from kubik.game.rule_catalogue import RuleCatalogueError, load_rule_catalogue
from kubik.game.session import HUMAN, Controller, GameSession
from tests.game.rules_toy import GAME, SCENARIO, TOY_RULES_ID, TYPO_SCENARIO

TOY_IDS = [
    "TR-START-01",
    "TR-STANCE-01",
    "TR-SHOT-01",
    "TR-STRAIN-01",
    "TR-DMG-01",
    "TR-NEVER-01",
    "TR-SETUP-01",
]


@pytest.fixture(autouse=True)
def rules_toy() -> Iterator[None]:
    register_ruleset(GAME, replace=True)
    yield
    unregister_ruleset(TOY_RULES_ID)


@pytest.fixture
def toy() -> Scenario:
    return parse_scenario(SCENARIO, "rules_toy.toml")


def random_bots(scenario: Scenario, seed: int) -> dict[str, Controller]:
    return {side: bot_for("random", seed, side) for side in scenario.side_ids}


def toy_coverage(toy: Scenario, runs: int, seed: int) -> Coverage:
    return run_coverage([toy], runs, seed, random_bots)


def test_every_rule_counts_the_games_its_rule_module_decided_it_in(toy: Scenario) -> None:
    runs = 12
    report = toy_coverage(toy, runs, seed=5)
    seeds = game_seeds(5, runs)
    assert [game.seed for game in report.games] == list(seeds)
    # the same games read again, from the JSON log a player sees
    per_game = []
    for seed in seeds:
        log = play_game(toy, seed, controllers=random_bots(toy, seed)).to_json()["log"]
        per_game.append({rule for entry in log for rule in entry["rules"]})
    named = {rule: sum(rule in game for game in per_game) for rule in TOY_IDS}
    counts = report.counts()
    # the battle's own narration of the start names a rule no rule module decided
    assert named["TR-START-01"] == runs and counts["TR-START-01"] == 0
    assert report.named_only() == {"TR-START-01": runs}
    assert counts == {**named, "TR-START-01": 0}
    assert list(counts) == TOY_IDS  # every catalogued ID, in catalogue order
    # every game decides stances and shoots; nothing applies TR-NEVER-01
    assert counts["TR-STANCE-01"] == counts["TR-SHOT-01"] == runs
    assert counts["TR-NEVER-01"] == counts["TR-SETUP-01"] == 0
    # strain (two calls deep) and damage happen in some games, at this seed
    assert 0 < counts["TR-STRAIN-01"] < runs and 0 < counts["TR-DMG-01"] <= runs
    assert report.never() == ["TR-START-01", "TR-NEVER-01", "TR-SETUP-01"]
    assert report.missing() == ["TR-START-01", "TR-NEVER-01"]
    assert report.unknown() == {}


def test_same_seed_same_report_and_games_do_not_depend_on_how_many(toy: Scenario) -> None:
    first = toy_coverage(toy, 6, seed=11)
    assert toy_coverage(toy, 6, seed=11) == first
    assert toy_coverage(toy, 6, seed=11).to_json() == first.to_json()
    # game j's seed depends on the root seed and j only: 3 games are the first 3 of 6
    assert toy_coverage(toy, 3, seed=11).games == first.games[:3]
    assert game_seeds(11, 3) == game_seeds(11, 6)[:3]
    other = toy_coverage(toy, 6, seed=12)
    assert {g.seed for g in other.games}.isdisjoint({g.seed for g in first.games})


def test_json_has_the_contract_keys_and_points_at_games_to_replay(toy: Scenario) -> None:
    runs = 8
    data = api.coverage([toy], runs, 3, bot="random")
    assert list(data)[:4] == ["scenarios", "runs", "rules", "never"]
    assert data["scenarios"] == ["toy_rules.demo"] and data["runs"] == runs
    assert list(data["rules"]) == TOY_IDS
    assert all(isinstance(n, int) and 0 <= n <= runs for n in data["rules"].values())
    assert data["never"] == [rule for rule, n in data["rules"].items() if n == 0]
    assert data["seed"] == 3 and data["games"] == {TOY_RULES_ID: runs}
    assert data["not_in_battle"] == {"TR-SETUP-01": "Set by the scenario before the duel."}
    assert data["missing"] == ["TR-START-01", "TR-NEVER-01"] and data["unknown"] == {}
    assert data["named_only"] == {"TR-START-01": runs}
    assert data["bots"] == {"steel": "random", "lianra": "random"}
    assert data["by_scenario"] == {
        "toy_rules.demo": {rule: n for rule, n in data["rules"].items() if n}
    }
    # each example is a game that applied the rule: replaying its seed shows it
    assert set(data["examples"]) == {rule for rule, n in data["rules"].items() if n}
    for rule, example in data["examples"].items():
        assert example["scenario"] == "toy_rules.demo"
        seed = example["seed"]
        assert rule in play_game(toy, seed, controllers=random_bots(toy, seed)).applied
    calls: list[tuple[int, int]] = []
    sides = api.coverage(
        [toy], 2, 3, bot="default", sides={"lianra": "random"}, progress=lambda *c: calls.append(c)
    )["bots"]
    assert sides == {"steel": "default", "lianra": "random"}
    assert calls == [(0, 2), (1, 2), (2, 2)]


def test_ids_no_catalogue_has_are_reported_not_counted(toy: Scenario) -> None:
    typo = parse_scenario(TYPO_SCENARIO, "typo.toml")
    report = run_coverage([toy, typo], 4, 1, random_bots)
    assert report.unknown() == {"TR-TYPO-99": 4}
    assert "TR-TYPO-99" not in report.counts()
    # both scenarios are of one ruleset: its rules had 8 games to happen in
    assert report.games_per_ruleset() == {TOY_RULES_ID: 8}
    assert report.counts()["TR-SHOT-01"] == 8
    assert api.coverage([typo], 2, 1, bot="random")["unknown"] == {"TR-TYPO-99": 2}


@pytest.mark.parametrize("runs", [0, -1, MAX_RUNS + 1, True, "3", 2.0])
def test_runs_out_of_range_is_one_line_naming_the_limit(runs: object) -> None:
    with pytest.raises(GameInputError, match=rf"^runs: .*allowed: 1 to {MAX_RUNS} games"):
        check_runs(runs)


@pytest.mark.parametrize("seed", [-1, True, "7", 1.5])
def test_a_seed_is_a_whole_number_0_or_more(seed: object) -> None:
    with pytest.raises(GameInputError, match=r"^seed: .*a whole number 0 or more"):
        check_seed(seed)


def test_bad_input_is_refused_before_any_game_is_played(toy: Scenario) -> None:
    played: list[int] = []

    def counting(scenario: Scenario, seed: int) -> dict[str, Controller]:
        played.append(seed)
        return random_bots(scenario, seed)

    with pytest.raises(GameInputError, match="at least one scenario"):
        run_coverage([], 3, 1, counting)
    with pytest.raises(GameInputError, match=r"'toy_rules\.demo' is named twice"):
        run_coverage([toy, toy], 3, 1, counting)
    duel = parse_scenario(SCENARIO.replace("toy_rules", "toy_duel"), "duel.toml")
    with pytest.raises(RuleCatalogueError, match=r"ruleset 'toy_duel' ships no rule catalogue"):
        run_coverage([toy, duel], 3, 1, counting)  # toy_duel's package has no rules.toml
    with pytest.raises(GameInputError, match=r"^runs: "):
        run_coverage([toy], MAX_RUNS + 1, 1, counting)
    assert played == []
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        api.coverage([toy], 2, bot="clever")
    with pytest.raises(ValueError, match=r"sides.blue: no scenario has side 'blue'"):
        api.coverage([toy], 2, sides={"blue": "random"})
    with pytest.raises(ValueError, match=r"unknown scenario 'nowhere.demo'"):
        api.coverage(["nowhere.demo"], 2)


def test_built_in_scenarios_name_only_catalogued_ids_and_no_rule_outside_battle() -> None:
    """One bot game of every built-in scenario: a mistyped annotation fails here."""
    built_in = [i.id for i in list_scenarios() if i.source is ScenarioSource.BUILT_IN]
    assert len(built_in) >= 4  # steel_war.demo/convoy, old_west.demo/bank_job at least
    data = api.coverage(built_in, 1, 1)
    assert data["unknown"] == {}, "rule IDs named in game logs but in no catalogue"
    applied_outside = [r for r in data["not_in_battle"] if data["rules"][r]]
    assert applied_outside == [], "catalogued as not arising in battle, yet applied"
    for ruleset in data["games"]:
        assert set(load_rule_catalogue(ruleset).ids) <= set(data["rules"])
    assert {load_scenario(s).ruleset for s in built_in} == set(data["games"])


def test_a_session_records_what_its_game_applied_not_its_bots_forecasts(toy: Scenario) -> None:
    from tests.game.rules_toy.duel import damage

    def weighing(request: Choose) -> Hashable:
        damage(99)  # a bot working out what a volley would do: not the game's decision
        return "aim"

    session = play_game(toy, 3, controllers={"steel": weighing, "lianra": weighing})
    named = rules_named(session.log)
    assert session.applied == named - {"TR-START-01"}
    assert ("TR-DMG-01" in session.applied) == any(
        isinstance(e, EventEntry) and e.event.id == "toy.damage" for e in session.log
    )


def test_undo_forgets_what_the_undone_answers_applied(toy: Scenario) -> None:
    session = GameSession(toy, 2, controllers={"steel": HUMAN, "lianra": HUMAN})
    assert session.pending is not None and session.applied == {"TR-STANCE-01"}
    session.answer("volley")
    while not any(isinstance(e, EventEntry) and e.event.id == "toy.damage" for e in session.log):
        session.answer("volley" if session.pending else None)
    assert "TR-DMG-01" in session.applied
    before = session.applied
    session.undo_decision()  # back before the volley that did the first damage
    assert session.applied is not before  # rebuilt afresh from the answers left
    assert "TR-DMG-01" not in session.applied
    pending = set(session.pending.rules) if session.pending else set()
    assert session.applied == (rules_named(session.log) | pending) - {"TR-START-01"}
