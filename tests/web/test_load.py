"""A bounded load test on loopback: 50 games at once, two players each, every answer
accepted (the latencies are reported here and measured in ``bench/bench_web.py``)."""

from __future__ import annotations

from bench.web_load import play_load

from .browser import Server, server

__all__ = ["server"]  # a fixture, used by name below

GAMES = 50
ANSWERS = 4  # per game: Steel War's first activation (3 answers), then the other side's


def test_fifty_games_of_two_players_at_once_are_all_answered_without_an_error(
    server: Server,
) -> None:
    result = play_load(server.url, GAMES, ANSWERS)
    assert result.errors == []
    assert len(result.latencies) == GAMES * ANSWERS
    p50, p99 = 1000 * result.percentile(0.5), 1000 * result.percentile(0.99)
    answers = len(result.latencies)
    print(f"\n{GAMES} games x 2 players: {answers} answers, p50 {p50:.0f} ms, p99 {p99:.0f} ms")
