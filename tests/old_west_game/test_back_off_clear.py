"""OW-CC-04: a loser who backs off 1" ends out of contact with every enemy, his own
opponents too, by the table's own measure of contact. Found by a referee's check of
``old_west.demo`` seed 924 (heuristic bots): Marshal Wyatt, beaten by Ike and Ringo,
was turned aside round Ike and ended 0.016" from him, in contact by the table's
tolerance; the way back the battle chose was judged without its own opponents, where a
person's placing was judged with them."""

from __future__ import annotations

from typing import Any

import pytest

from kubik.bots.heuristic import HeuristicBot
from kubik.game.battle import touching
from kubik.game.scenario import load_scenario
from kubik.game.session import GameSession
from kubik.rulesets.old_west.battle import backing, melee


def test_OW_CC_04_every_way_back_in_a_game_ends_out_of_contact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[str, tuple[float, float], list[str]]] = []
    real = backing.way_back

    def watched(game: Any, loser: Any, opponents: Any) -> backing.WayBack:
        back = real(game, loser, opponents)
        if back.spot is not None:
            base = loser.base.moved_to(back.spot)
            near = [e.id for e in game.board.enemies(loser) if touching(base, e.base)]
            seen.append((loser.id, back.spot, near))
        return back

    monkeypatch.setattr(melee, "way_back", watched)
    scenario = load_scenario("old_west.demo")
    bots = {side: HeuristicBot() for side in scenario.side_ids}
    session = GameSession(scenario, 924, controllers=bots)
    session.advance()
    assert session.finished
    assert seen  # losers backed off in this game
    assert [s for s in seen if s[2]] == []
