"""A toy ruleset whose rolls, decisions and events name rule IDs, with its own
``rules.toml`` beside it — the way any ruleset ships its rule catalogue.

The toy duel of :mod:`tests.game.toy`, annotated; its rules live in the rule module
:mod:`tests.game.rules_toy.duel` and this package's game only asks them, so a rule
counts as applied when that module decided it: every stance decision applies
TR-STANCE-01 (the stances are asked), every shot TR-SHOT-01, a volley's strain
(emitted inside the volley rule procedure, two calls deep) TR-STRAIN-01 and damage
TR-DMG-01. The game's first event names TR-START-01 itself, as battle code narrating:
that rule is named in every log and applied in no game. TR-NEVER-01 is catalogued
but nothing applies it; TR-SETUP-01 is catalogued as not arising in battle. The
scenario option ``typo = true`` makes the game name TR-TYPO-99, which no catalogue
has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.engine.requests import Call, Choose, Procedure, emit, msg
from kubik.game import Scenario
from tests.game.rules_toy.duel import damage, shot, stances, volley
from tests.game.toy import SCENARIO as DUEL_SCENARIO
from tests.game.toy import DuelGame, DuelRuleset

TOY_RULES_ID = "toy_rules"


class RulesDuel(DuelGame):
    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.typo = bool(options.get("typo", False))

    def turn(self, number: int) -> Procedure[None]:
        if number == 1:
            yield emit("toy.start", rules=("TR-START-01",))
            if self.typo:
                yield emit("toy.typo", rules="TR-TYPO-99")
        for side in self.scenario.side_ids:
            enemy = next(s for s in self.scenario.side_ids if s != side)
            if not self.living(side) or not self.living(enemy):
                return
            stance = yield Choose(
                stances(), side, msg("toy.stance", turn=number), rules="TR-STANCE-01"
            )
            if stance == "aim":
                hits = int((yield Call(shot, (self.hit_on,))))
            else:
                hits = int((yield Call(volley, (self.hit_on,))))
                if hits == 0:
                    self.hp[self.living(side)[0]] -= 1
            if hits:
                target = self.living(enemy)[0]
                self.hp[target] -= damage(hits)
                yield emit("toy.damage", unit=target, hits=hits, rules="TR-DMG-01")


@dataclass(frozen=True)
class RulesDuelRuleset(DuelRuleset):
    id: str = TOY_RULES_ID

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> RulesDuel:
        return RulesDuel(scenario, options)


GAME = RulesDuelRuleset()

SCENARIO = (
    DUEL_SCENARIO.replace('id = "toy_duel.demo"', 'id = "toy_rules.demo"')
    .replace('ruleset = "toy_duel"', 'ruleset = "toy_rules"')
    .replace('name = "Duel"', 'name = "Rules duel"')
)
#: The same duel, with the option that names a rule ID no catalogue has.
TYPO_SCENARIO = SCENARIO.replace('id = "toy_rules.demo"', 'id = "toy_rules.typo"').replace(
    "hit_on = 4", "hit_on = 4\ntypo = true"
)
