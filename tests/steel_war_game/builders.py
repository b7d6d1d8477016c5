"""Small Steel War scenarios written in the tests, and helpers to drive a session."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kubik.engine import Choose, Roll, TableSession
from kubik.engine.log import EventEntry
from kubik.game import HUMAN, GameSession, Scenario, parse_scenario
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle.game import SteelWarGame
from kubik.rulesets.steel_war.battle.menu import Offered, build
from kubik.rulesets.steel_war.turns import GAME

HEADER = """\
[scenario]
id = "steel_war.test"
name = "Test"
name_ru = "Тест"
ruleset = "steel_war"

[table]
width = {width}
height = {height}

[[sides]]
id = "steel"
name = "Steel"
name_ru = "Стальные"

[[sides]]
id = "lianra"
name = "Lianra"
name_ru = "Лианра"
"""


def unit(
    uid: str,
    side: str,
    position: tuple[float, float],
    weapons: Sequence[tuple[str, int]] = (("assault_rifle", 4),),
    quality: str = "regulars",
    leadership: int = 2,
    **extra: Any,
) -> str:
    """One [[units]] entry."""
    lines = [
        "[[units]]",
        f'id = "{uid}"',
        f'side = "{side}"',
        f'quality = "{quality}"',
        f"leadership = {leadership}",
        f"position = [{position[0]}, {position[1]}]",
        "weapons = [" + ", ".join(f'{{ weapon = "{w}", count = {n} }}' for w, n in weapons) + "]",
    ]
    for key, value in extra.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {str(value).lower()}")
        elif isinstance(value, str):
            lines.append(f'{key} = "{value}"')
        elif isinstance(value, tuple | list):
            lines.append(f"{key} = [" + ", ".join(f'"{v}"' for v in value) + "]")
        elif isinstance(value, dict):
            inner = ", ".join(f'{k} = "{v}"' for k, v in value.items())
            lines.append(f"{key} = {{ {inner} }}")
        else:
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def scenario_text(
    units: Sequence[str],
    *,
    terrain: str = "",
    options: str = "",
    end: str = "turn_limit = 1",
    width: float = 24,
    height: float = 24,
) -> str:
    """The whole TOML text."""
    parts = [HEADER.format(width=width, height=height), terrain]
    if options:
        parts.append("[options]\n" + options + "\n")
    parts += list(units)
    parts.append("[end]\n" + end + "\n")
    return "\n".join(parts)


def scenario(units: Sequence[str], **kwargs: Any) -> Scenario:
    """A checked scenario."""
    return parse_scenario(scenario_text(units, **kwargs), "test.toml")


def new_game(sc: Scenario, **options: Any) -> SteelWarGame:
    """A fresh game object (to inspect or set its state)."""
    game = GAME.new_game(sc, {**sc.options, **options})
    assert isinstance(game, SteelWarGame)
    return game


def human_session(sc: Scenario, seed: int = 0, **options: Any) -> GameSession:
    """Both sides human, dice typed in: every roll and decision is the test's."""
    sides = {side: HUMAN for side in sc.side_ids}
    session = GameSession(sc, seed, controllers=sides, dice="typed", options=options)
    session.advance()
    return session


def state(session: GameSession) -> SteelWarGame:
    """The battle a session plays."""
    game = session.state
    assert isinstance(game, SteelWarGame)
    return game


def pick(session: GameSession, test: Callable[[Any], bool]) -> Any:
    """Answer the pending decision with the first option passing ``test``; returns it."""
    request = session.pending
    assert isinstance(request, Choose), f"expected a decision, the game waits for {request!r}"
    option = next(o for o in request.options if test(o))
    session.answer(option)
    return option


def roll(session: GameSession, *values: int) -> None:
    """Answer the pending roll."""
    assert isinstance(session.pending, Roll), f"expected a roll, got {session.pending!r}"
    session.roll(list(values))


def rolls(session: GameSession, *values: int) -> None:
    """Answer the pending rolls one die each."""
    for value in values:
        roll(session, value)


def events(log: Sequence[Any], message_id: str) -> list[EventEntry]:
    """The log's events with this message id."""
    return [e for e in log if isinstance(e, EventEntry) and e.event.id == message_id]


def event_ids(log: Sequence[Any]) -> list[str]:
    """Every event's message id, in order."""
    return [e.event.id for e in log if isinstance(e, EventEntry)]


def rules_in(log: Sequence[Any]) -> set[str]:
    """Every rule ID the log names."""
    return {r for e in log for r in getattr(e, "rules", ())}


def offered(game: SteelWarGame, squad: str, done: tuple[ActionType, ...] = ()) -> Offered:
    """The menu of a unit's next action."""
    return build(game, game.squad(squad), done)


def options(game: SteelWarGame, squad: str, done: tuple[ActionType, ...] = ()) -> tuple[Any, ...]:
    """The options a unit may take next."""
    return offered(game, squad, done).menu.options


def play(procedure: Callable[..., Any], args: tuple[Any, ...], *dice: int) -> TableSession:
    """Run one procedure of the battle with typed dice (all at once: it is replayed from its
    start at every supply) and its decisions' defaults."""
    session = TableSession(procedure, args)
    session.supply(list(dice))
    return session
