"""A toy whose win rate is known: one die decides the game, so a sweep's answer is exact.

Red wins when a d6 shows at most red's ``edge`` (``units[r1].edge``, 0 to 6): red's
chance is ``edge / 6``. Used to test what ``kubik sim --solve`` finds.
"""

from __future__ import annotations

from kubik.engine import Procedure, Roll, msg
from kubik.engine.dice import D6
from kubik.game.battle import BattleRuleset, Presence
from tests.game.skirmish import SCENARIO, SkirmishGame, _check

DUEL_ID = "toy_duel"


class DuelGame(SkirmishGame):
    """One roll: red wins on a d6 of at most its edge, else blue."""

    def turn(self, number: int) -> Procedure[None]:
        edge = int(self.scenario.units[0].data.get("edge", 3))
        (value,) = yield Roll(D6, msg("toy.shot"), rules=("TS-SHOOT-01",))
        loser = "blue" if value <= edge else "red"
        for fighter in self.fighters:
            if fighter.side == loser:
                fighter.presence = Presence.REMOVED


DUEL = BattleRuleset(DUEL_ID, _check, DuelGame)
DUEL_SCENARIO = SCENARIO.replace('id = "toy_skirmish.demo"', 'id = "toy_duel.demo"').replace(
    'ruleset = "toy_skirmish"', 'ruleset = "toy_duel"'
)
