"""Per-rule impact: a side barred from a rule is refused every option whose permission
cites it (a switch where the battle layer asks the side to choose; no rule code changes),
and ``kubik sim --bar SIDE:RULE`` plays that beside the unbarred game on the same seeds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kubik import api
from kubik.bots.registry import bot_for
from kubik.core.errors import InputError
from kubik.engine import Verdict, msg
from kubik.engine.log import ChoiceEntry
from kubik.game import Scenario
from kubik.game.battle import Menu
from kubik.game.battle.bars import barred_count, set_bars, without_barred
from kubik.game.session import play_game


@pytest.fixture
def no_bars() -> Iterator[None]:
    set_bars({})
    yield
    set_bars({})


def _charges_offered(scenario: Scenario, seed: int, side: str) -> int:
    controllers = {s: bot_for("heuristic", seed, s) for s in scenario.side_ids}
    session = play_game(scenario, seed, controllers=controllers)
    return sum(
        1
        for entry in session.log
        if isinstance(entry, ChoiceEntry)
        and entry.side == side
        and any(getattr(o, "kind", "") == "charge" for o in entry.options)
    )


def test_a_barred_rule_is_never_offered_to_that_side(skirmish: Scenario, no_bars: None) -> None:
    seeds = range(1, 9)
    assert sum(_charges_offered(skirmish, s, "red") for s in seeds) > 0
    set_bars({"red": ("TS-CHARGE-01",)})
    assert sum(_charges_offered(skirmish, s, "red") for s in seeds) == 0
    assert barred_count() > 0
    assert sum(_charges_offered(skirmish, s, "blue") for s in seeds) > 0  # the enemy still may


def test_a_prefix_bars_every_rule_under_it_and_a_lone_option_stays(no_bars: None) -> None:
    menu: Menu[str] = Menu()
    menu.offer("fire", msg("x.fire"), Verdict.allow("SW-FIRE-05"))
    menu.offer("charge", msg("x.charge"), Verdict.allow("SW-CHARGE-01"))
    menu.offer("hold", msg("x.hold"), Verdict.allow())
    set_bars({"steel": ("SW-FIRE-*", "SW-CHARGE-01")})
    assert without_barred(menu, "steel").options == ("hold",)
    assert without_barred(menu, "lianra").options == ("fire", "charge", "hold")
    only: Menu[str] = Menu()
    only.offer("fire", msg("x.fire"), Verdict.allow("SW-FIRE-05"))
    assert without_barred(only, "steel").options == ("fire",)  # a side must do something


def test_kubik_sim_bar_measures_the_rule_game_by_game(skirmish: Scenario) -> None:
    # red never allowed to shoot: it loses far more often, and the paired interval says so
    result = api.sim_battles(skirmish, 12, 2, workers=1, bars=["red:TS-SHOOT-02"], store=False)
    cells = result.report["cells"]
    assert [c["label"] for c in cells] == [{"bar": "none"}, {"bar": "red:TS-SHOOT-02"}]
    paired = cells[1]["paired"]["win_rate"]["red"]
    assert paired["pairs"] == 12 and paired["interval"][1] < 0
    assert result.report["sweep"]["vary"] == ["bar"]
    barred = [o for o in result.outcomes if o.cell == 1]
    free = [o for o in result.outcomes if o.cell == 0]
    assert [o.seed for o in barred] == [o.seed for o in free]
    assert [(o.winner, o.turns, o.units) for o in barred] != [
        (o.winner, o.turns, o.units) for o in free
    ]


@pytest.mark.parametrize(
    "bar", ["red", "green:TS-CHARGE-01", "red:charge", "red:TS-CHARGE-01,red:TS-SHOOT-01"]
)
def test_a_bad_bar_is_one_line(skirmish: Scenario, bar: str) -> None:
    with pytest.raises(InputError, match=r"^--bar .*: write SIDE:RULE with a side of the scenario"):
        api.sim_battles(skirmish, 2, 2, workers=1, bars=[bar], store=False)
