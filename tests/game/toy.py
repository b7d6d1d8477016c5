"""A toy ruleset for testing the game layer: a two-side dice duel.

Each turn every side chooses a stance: "aim" (one d6, a hit on ``hit_on`` or more:
1 damage) or "volley" (two shots as a repeated sub-procedure, each hit 1 damage,
but the shooter loses 1 hp for the strain when both miss). The first living enemy
unit takes the damage. A side with no living unit loses; at the turn limit the
side with more hp left wins, equal hp is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.engine.dice import D6
from kubik.engine.requests import Call, Choose, Procedure, Roll, emit, msg
from kubik.engine.tally import Tally
from kubik.game import Ending, Scenario, ScenarioError, SideSummary, TurnLoop

TOY_ID = "toy_duel"


def shot(hit_on: int) -> Procedure[bool]:
    """One shot: a d6 against ``hit_on``."""
    (value,) = yield Roll(D6, msg("toy.shot"), roller="shooter")
    return bool(value >= hit_on)


def count_hits(tally: Tally[bool]) -> int:
    return sum(n for hit, n in tally.items() if hit)


class DuelGame(TurnLoop):
    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario)
        self.hit_on = int(options.get("hit_on", 4))
        self.sealed = bool(options.get("sealed", False))  # both stances written in secret
        self.hp: dict[str, int] = {u.id: int(u.data["hp"]) for u in scenario.units}
        self.side_of = {u.id: u.side for u in scenario.units}

    def living(self, side: str) -> list[str]:
        return [u for u, s in self.side_of.items() if s == side and self.hp[u] > 0]

    def side_hp(self, side: str) -> int:
        return sum(max(self.hp[u], 0) for u in self.side_of if self.side_of[u] == side)

    def turn(self, number: int) -> Procedure[None]:
        written: dict[str, str] = {}
        if self.sealed:  # each side writes its stance in secret, then both are shown
            for side in self.scenario.side_ids:
                reason = msg("toy.stance", turn=number)
                written[side] = yield Choose(("aim", "volley"), side, reason, sealed=True)
            yield emit("toy.revealed", stances=tuple(written.values()))
        for side in self.scenario.side_ids:
            enemy = next(s for s in self.scenario.side_ids if s != side)
            if not self.living(side) or not self.living(enemy):
                return
            stance = written.get(side) or (
                yield Choose(("aim", "volley"), side, msg("toy.stance", turn=number))
            )
            if stance == "aim":
                hits = int((yield Call(shot, (self.hit_on,))))
            else:
                hits = int((yield Call(shot, (self.hit_on,), times=2, reduce=count_hits)))
                if hits == 0:
                    own = self.living(side)[0]
                    self.hp[own] -= 1
                    yield emit("toy.strain", unit=own)
            if hits:
                target = self.living(enemy)[0]
                self.hp[target] -= hits
                yield emit("toy.damage", unit=target, hits=hits, hp=self.hp[target])

    def ending(self) -> Ending | None:
        alive = [s for s in self.scenario.side_ids if self.living(s)]
        if len(alive) == 2:
            return None
        return Ending(alive[0] if alive else None, msg("toy.wiped_out"))

    def winner_at_limit(self) -> str | None:
        a, b = self.scenario.side_ids
        if self.side_hp(a) == self.side_hp(b):
            return None
        return a if self.side_hp(a) > self.side_hp(b) else b

    def summary(self) -> tuple[SideSummary, ...]:
        return tuple(
            SideSummary(s, (("units_left", len(self.living(s))), ("hp_left", self.side_hp(s))))
            for s in self.scenario.side_ids
        )


@dataclass(frozen=True)
class DuelRuleset:
    id: str = TOY_ID

    def validate(self, scenario: Scenario) -> None:
        for index, unit in enumerate(scenario.units):
            hp = unit.data.get("hp")
            if not isinstance(hp, int) or isinstance(hp, bool) or hp < 1:
                raise ScenarioError(f"units[{index}].hp: {hp!r}; a whole number 1 or more")
        hit_on = scenario.options.get("hit_on", 4)
        if hit_on not in range(2, 7):
            raise ScenarioError(f"options.hit_on: {hit_on!r}; allowed: 2..6")

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> DuelGame:
        return DuelGame(scenario, options)


GAME = DuelRuleset()

SCENARIO = """\
[scenario]
id = "toy_duel.demo"
name = "Duel"
name_ru = "Дуэль"
ruleset = "toy_duel"
description = "Two sides shoot it out."

[table]
width = 24
depth = 24

[[sides]]
id = "steel"
name = "Steel"
name_ru = "Сталь"

[[sides]]
id = "lianra"
name = "Lianra"
name_ru = "Лианра"

[options]
hit_on = 4

[[units]]
id = "s1"
side = "steel"
hp = 3

[[units]]
id = "s2"
side = "steel"
hp = 2

[[units]]
id = "l1"
side = "lianra"
hp = 4

[end]
turn_limit = 6
"""
