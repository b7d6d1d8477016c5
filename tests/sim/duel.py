"""A toy whose win rate is known: one roll decides the game, so a sweep's answer is exact.

Red wins when a d6 shows at most red's ``edge`` (``units[r1].edge``, 0 to 6): red's
chance is ``edge / 6``. With ``units[r1].chance`` (a share, decimals allowed) red wins
when two d10 read as 1..100 show at most ``100 × chance`` (rounded); with ``units[r1].die`` (``d4``
… ``d12``) red wins on 4 or more on that die: ``(faces − 3) / faces``. Used to test what
``kubik sim --solve`` finds.
"""

from __future__ import annotations

from kubik.engine import Procedure, Roll, msg
from kubik.engine.dice import D6, D10, parse_die
from kubik.game.battle import BattleRuleset, Presence
from tests.game.skirmish import SCENARIO, SkirmishGame, _check

DUEL_ID = "toy_duel"


class DuelGame(SkirmishGame):
    """One roll: red wins on a d6 of at most its edge, else blue."""

    def turn(self, number: int) -> Procedure[None]:
        red = self.scenario.units[0].data
        if "die" in red:
            (value,) = yield Roll(parse_die(red["die"]), msg("toy.shot"), rules=("TS-SHOOT-01",))
            red_wins = value >= 4
        elif "chance" in red:
            tens, ones = yield Roll((D10, D10), msg("toy.shot"), rules=("TS-SHOOT-01",))
            red_wins = (tens - 1) * 10 + ones <= round(100 * float(red["chance"]))
        else:
            (value,) = yield Roll(D6, msg("toy.shot"), rules=("TS-SHOOT-01",))
            red_wins = value <= int(red.get("edge", 3))
        loser = "blue" if red_wins else "red"
        for fighter in self.fighters:
            if fighter.side == loser:
                fighter.presence = Presence.REMOVED


DUEL = BattleRuleset(DUEL_ID, _check, DuelGame)
DUEL_SCENARIO = SCENARIO.replace('id = "toy_skirmish.demo"', 'id = "toy_duel.demo"').replace(
    'ruleset = "toy_skirmish"', 'ruleset = "toy_duel"'
)
