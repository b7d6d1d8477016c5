"""A person playing one warband against bots in the terminal reads what his side may read,
as on the web table (``BattleGame.visible_to``): the enemy's hidden warriors, their hiding
and which of them acts are kept from him (RA-HIDE-01, RA-HIDE-02); the referee, and
people at a real table, see everything."""

from __future__ import annotations

import pytest

from kubik.bots.registry import bot_for
from kubik.cli.play import player_view
from kubik.engine.log import ChoiceEntry
from kubik.game import HUMAN, DiceMode, GameSession, load_scenario
from tests.bots.cli_harness import run_kubik

AMBUSH = ("play", "apocalypse.ambush", "--seed", "1", "--side", "scavengers=heuristic")


def test_RA_HIDE_02_the_terminal_shows_a_player_only_his_side_s_view(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    referee = run_kubik(capsys, monkeypatch, *AMBUSH, "--side", "raiders=heuristic")
    assert referee.code == 0
    assert "Grif the boss hides" in referee.out  # the first activation: he hides
    player = run_kubik(capsys, monkeypatch, *AMBUSH, "--side", "raiders=human", stdin="\n" * 30)
    assert player.code == 1  # the input ran out: the game waits for the player
    out = " ".join(player.out.split())
    assert "Grif the boss hides" not in out
    # while one of them is hidden, which scavenger acts is the Scavengers' to know; a
    # seen one acting is told apart
    assert "is activated" in out


def test_RA_HIDE_02_the_activations_kept_from_a_player_are_those_with_a_hidden_warrior() -> None:
    scenario = load_scenario("apocalypse.ambush")
    kinds = {"scavengers": "heuristic", "raiders": HUMAN}
    bots = {
        side: bot_for("heuristic" if side == "scavengers" else "default", 1, side) for side in kinds
    }
    session = GameSession(scenario, 1, controllers=bots)
    session.advance()
    shown = player_view(session, kinds)
    assert shown is not None
    activations = [
        e
        for e in session.log
        if isinstance(e, ChoiceEntry) and e.reason.id == "apocalypse.reason.activate"
        if e.side == "scavengers"
    ]
    secret = [e for e in activations if "unseen_by" in e.reason.kwargs]
    assert secret and len(secret) < len(activations)
    assert not [e for e in secret if shown(e)]
    assert all(shown(e) for e in activations if e not in secret)


def test_who_reads_the_whole_log() -> None:
    scenario = load_scenario("apocalypse.ambush")
    bots = {"scavengers": "heuristic", "raiders": "heuristic"}
    one = {"scavengers": "heuristic", "raiders": HUMAN}
    both = {"scavengers": HUMAN, "raiders": HUMAN}
    session = GameSession(scenario, 1)
    assert player_view(session, bots) is None and player_view(session, both) is None
    assert player_view(session, one) is not None
    table = GameSession(scenario, 1, dice=DiceMode.TYPED)
    assert player_view(table, one) is None  # at a real table everyone sees the models
