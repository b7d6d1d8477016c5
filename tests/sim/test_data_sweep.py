"""Sweeping the rulebook's numbers: ``--vary RULESET:PATH=...`` changes a ruleset's data for
the games of one cell only, and every game records the numbers it was played with."""

from __future__ import annotations

from collections.abc import Generator
from typing import cast

import pytest

from kubik import api
from kubik.core.errors import InputError
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.sim.backends import InProcess
from kubik.sim.outcome import GameOutcome, play_batch
from kubik.sim.runner import SimResult, simulate_battles
from kubik.sim.store import rows
from kubik.sim.vary import parse_parameter

RIFLE = "steel_war:weapons.assault_rifle.power"
BOTS = {"steel": "heuristic", "lianra": "heuristic"}


def _games(result: SimResult, cell: int) -> list[tuple[object, ...]]:
    return [
        (o.game, o.seed, o.winner, o.turns, o.sides, o.units)
        for o in result.outcomes
        if o.cell == cell
    ]


def test_a_data_path_names_its_ruleset_and_keys() -> None:
    parameter = parse_parameter(f"{RIFLE}=d4,d12")
    assert parameter.ruleset == "steel_war"
    assert [s.key for s in parameter.steps] == ["weapons", "assault_rifle", "power"]
    assert parameter.values == ("d4", "d12")


def test_each_cell_plays_its_own_numbers_and_none_leaks() -> None:
    packaged = weapon("assault_rifle").power
    sweep = api.sim_battles(
        "steel_war.demo", 3, 5, workers=1, vary=[f"{RIFLE}=d4,d12"], store=False
    )
    alone = api.sim_battles("steel_war.demo", 3, 5, workers=1, vary=[f"{RIFLE}=d12"], store=False)
    # the d12 cell, played after the d4 cell in the same process, is the game a process
    # that only ever knew d12 plays: nothing derived from d4 was remembered
    assert _games(sweep, 1) == _games(alone, 0)
    assert _games(sweep, 0) != _games(sweep, 1)  # the number changed the games
    # after the sweep the rulebook's own numbers are back, also for memoised rules
    assert load_ruleset_data("steel_war")["weapons"]["assault_rifle"]["power"] == "d8"
    assert weapon("assault_rifle").power == packaged


def test_the_worker_changes_numbers_for_its_batch_only() -> None:
    packaged = weapon("assault_rifle").power
    job = api.sim_battles("steel_war.demo", 1, 5, workers=1, vary=[f"{RIFLE}=d4"], store=False).job
    batch = cast(Generator[GameOutcome], play_batch(job, job.tasks(1)))
    next(batch)
    assert weapon("assault_rifle").power.faces == 4  # inside the cell's batch
    batch.close()
    assert weapon("assault_rifle").power == packaged  # and after it


def test_every_game_records_the_numbers_it_ran_with() -> None:
    result = api.sim_battles(
        "steel_war.demo", 2, 5, workers=1, vary=[f"{RIFLE}=d4,d12"], store=False
    )
    table = rows(result.job, result.outcomes)
    assert [row[RIFLE] for row in table] == ["d4", "d4", "d12", "d12"]
    assert result.report["cells"][0]["label"] == {RIFLE: "d4"}


@pytest.mark.parametrize(
    ("spec", "line"),
    [
        (
            "apocalypse:casting.max_dice=9",
            "--vary apocalypse:casting.max_dice: an engine limit (a bound on kubik's work, "
            "not a rulebook number) cannot be overridden",
        ),
        (
            "steel_war:weapons.lmg.powr=d8",
            "--vary steel_war:weapons.lmg.powr: no such setting (known here: kind, melee, "
            "name_ru, power, range, rate, special)",
        ),
        (
            "steel_war:weapons.lmg.power=8",
            "--vary steel_war:weapons.lmg.power: 8 is the wrong kind of value; "
            "this setting is text",
        ),
        (
            "old_west:fight.dice=2",
            "--vary old_west:fight.dice: the scenario plays steel_war; sweep its numbers "
            "(steel_war:PATH)",
        ),
        ("chess:pawn.moves=2", "--vary chess:pawn.moves: 'chess' is not a ruleset"),
    ],
)
def test_a_number_that_cannot_be_swept_is_one_line(spec: str, line: str) -> None:
    from kubik.cli.play import find_scenario

    scenario = find_scenario(
        "apocalypse.demo" if spec.startswith("apocalypse") else "steel_war.demo"
    )
    bots = {side: "random" for side in scenario.side_ids}
    with pytest.raises(InputError) as caught:
        simulate_battles(scenario, 1, 1, bots, InProcess(), vary=[spec], store=False)
    assert str(caught.value).startswith(line)
    assert "\n" not in str(caught.value)


def test_worker_processes_play_the_same_numbers_as_this_process() -> None:
    sweep = ["old_west:weapons.rifle.strength=3,5", "end.turn_limit=2"]
    here = api.sim_battles("old_west.demo", 2, 5, workers=1, vary=sweep, store=False)
    pool = api.sim_battles("old_west.demo", 2, 5, workers=2, vary=sweep, store=False)
    assert _games(here, 0) == _games(pool, 0) and _games(here, 1) == _games(pool, 1)
