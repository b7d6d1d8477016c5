"""Which rules a game applied (:mod:`kubik.engine.applied`): recorded where a rule
module decides — a deciding function called, a rule procedure's own requests —
and nowhere else: not battle code naming a rule, not exact odds or Monte Carlo."""

from __future__ import annotations

from typing import Any

import pytest

from kubik.engine import Verdict, msg
from kubik.engine.applied import (
    Decided,
    Recording,
    add_ruleset_package,
    decides,
    deciding,
    is_rule_module,
    not_recording,
    record,
    recorder,
    replayed,
)
from kubik.engine.odds import OddsDriver
from kubik.engine.requests import Procedure
from kubik.engine.simulate import simulate
from kubik.engine.stepper import Stepper
from tests.engine.applied_toy import battle, rules

add_ruleset_package("tests.engine.applied_toy")


@decides("XX-RANGE-01")
def reach() -> int:
    return 12


@decides("XX-MOVE-01", cites=lambda answer: answer[1])
def allowance(march: bool) -> tuple[int, tuple[str, ...]]:
    return (8, ("XX-MARCH-01",)) if march else (4, ())


def test_a_deciding_function_records_its_rules_and_its_verdicts_only_while_recording() -> None:
    applied: set[str] = set()
    assert recorder() is None
    assert reach() == 12 and rules.may_shoot(False).rules == ("AT-SHOOT-01",)
    record("XX-NOBODY-01")  # nobody records: nothing happens
    with Recording(applied) as into:
        assert into is applied and recorder() is applied
        reach()
        assert not rules.may_shoot(False).allowed  # a refusal decides as much as a yes
        allowance(False)
    assert applied == {"XX-RANGE-01", "AT-SHOOT-01", "XX-MOVE-01"}
    with Recording(applied):
        allowance(True)
    assert "XX-MARCH-01" in applied and recorder() is None


def test_hypothetical_play_inside_a_game_records_nothing() -> None:
    applied: set[str] = set()
    with Recording(applied):
        with not_recording():
            reach()
            assert recorder() is None
        assert recorder() is applied
        OddsDriver().distribution(battle.by_call, ())
        simulate(battle.by_yield_from, (), 20, seed=1)
        rules.may_shoot(True)
    assert applied == {"AT-SHOOT-01"}


def test_a_memo_of_a_decision_tells_it_again_on_every_hit() -> None:
    memo: dict[str, Any] = {}

    def ask(key: str) -> int:
        if key not in memo:
            memo[key] = deciding(reach)
        return replayed(memo[key])

    assert ask("a") == 12  # worked out while nobody records (a bot's forecast)
    first: set[str] = set()
    with Recording(first):
        assert ask("a") == 12  # a game meeting the kept answer still records it
    assert first == {"XX-RANGE-01"}
    plain = deciding(lambda: 3)
    assert plain == 3 and replayed(plain) == 3  # nothing decided: the bare value is kept


@pytest.mark.parametrize(
    ("module", "rule"),
    [
        ("kubik.rulesets.fantasy.movement", True),
        ("kubik.rulesets.steel_war.fire", True),
        ("kubik.rulesets.fantasy", False),  # the package itself
        ("kubik.rulesets.fantasy.battle.game", False),
        ("kubik.rulesets.fantasy.turns", False),
        ("kubik.rulesets.old_west.procedures.pluck", False),
        ("kubik.rulesets.apocalypse.scenarios", False),
        ("kubik.game.battle.menu", False),
        ("kubik.engine.odds", False),
        ("tests.engine.applied_toy.rules", True),  # a ruleset registered from code
        ("tests.engine.applied_toy.battle", False),
        ("tests.engine.test_applied", False),
    ],
)
def test_rule_modules_are_a_ruleset_package_but_its_battle_turns_procedures_scenarios(
    module: str, rule: bool
) -> None:
    assert is_rule_module(module) is rule


def played(procedure: Procedure[Any], dice: list[int]) -> tuple[set[str], set[str]]:
    """Step ``procedure`` with these dice: (the rules it applied, those its log names)."""
    applied: set[str] = set()
    log: list[Any] = []
    stepper = Stepper(procedure, log, applied=applied)
    with Recording(applied):
        request = stepper.advance()
        named = set(request.rules) if request is not None else set()
        while request is not None:
            request = stepper.advance((dice.pop(0),))
            named |= set(request.rules) if request is not None else set()
    named |= {rule for entry in log for rule in entry.rules}
    return applied, named


@pytest.mark.parametrize("run", [battle.by_call, battle.by_yield_from, battle.by_wrapper])
def test_a_rule_procedures_requests_record_their_rules_however_the_battle_runs_it(
    run: Any,
) -> None:
    assert played(run(), [6]) == ({"AT-HIT-01", "AT-CRIT-01"}, {"AT-HIT-01", "AT-CRIT-01"})
    assert played(run(), [2])[0] == {"AT-HIT-01"}


def test_rules_the_battles_own_requests_name_are_not_applied() -> None:
    applied, named = played(battle.narrating(), [3])
    assert named == {"AT-SCATTER-01", "AT-NARRATED-01"}
    assert applied == {"AT-SHOOT-01"}  # only the permission the battle asked


def test_a_stepper_without_a_set_records_nothing() -> None:
    stepper = Stepper(battle.by_call())
    assert stepper.advance() is not None
    applied: set[str] = set()
    with Recording(applied):
        stepper.advance((6,))
    assert stepper.finished and applied == set()


def test_verdicts_are_values_whoever_asks() -> None:
    assert Verdict.allow("AT-SHOOT-01") is rules.may_shoot(True)  # (the allow cache)
    assert rules.may_shoot(False).reason == msg("toy.unloaded")


def test_every_game_hears_each_decision_however_often_it_was_told_to_others() -> None:
    first: set[str] = set()
    second: set[str] = set()
    for applied in (first, second, first, second):
        with Recording(applied):
            reach()
            rules.may_shoot(True)
            memo = deciding(reach)  # a memo's own set in between
            assert isinstance(memo, Decided) and memo.rules == {"XX-RANGE-01"}
    assert first == second == {"XX-RANGE-01", "AT-SHOOT-01"}
