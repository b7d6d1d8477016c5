"""Brawl's adapter to the game layer."""

from brawl_rules.battle import BrawlGame, check
from kubik.game.battle import BattleRuleset

GAME = BattleRuleset("brawl", check, BrawlGame)
