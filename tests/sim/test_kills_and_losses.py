"""Kills and losses come through the battle layer's one count, so a report's figures agree:
Steel War credits every enemy model a unit takes out (issue 30: every unit showed 0.00
kills), its summary's models lost is the layer's count the losses table adds up (it
showed "models lost per game 3.00" beside "models lost 2.52"), and the text report says
what each figure counts."""

from __future__ import annotations

import pytest

from kubik.game import load_scenario
from kubik.sim import InProcess, simulate_battles


def test_steel_war_units_are_credited_with_kills_and_the_losses_agree() -> None:
    scenario = load_scenario("steel_war.demo")
    result = simulate_battles(
        scenario, 3, 5, dict.fromkeys(scenario.side_ids, "heuristic"), InProcess(), store=False
    )
    report = result.to_json()
    units = report["units"]
    for side, other in (("steel", "lianra"), ("lianra", "steel")):
        kills = sum(u["kills"]["mean"] for u in units.values() if u["side"] == side)
        lost = sum(u["lost"]["mean"] for u in units.values() if u["side"] == other)
        assert 0 < kills <= lost  # (men who fled or surrendered are nobody's kills)
        losses = report["losses"][side]["mean"]
        assert report["counts"][side]["models_lost"]["mean"] == pytest.approx(losses)
        mine = sum(u["lost"]["mean"] for u in units.values() if u["side"] == side)
        assert losses == pytest.approx(mine)
    for outcome in result.outcomes:
        for side in ("steel", "lianra"):
            counts = outcome.side_counts(side)
            assert counts["models_lost"] == sum(
                u.lost for u in outcome.units or () if u.side == side
            )
