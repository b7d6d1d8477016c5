"""Small Steel War scenarios written in the tests, and helpers to drive a session."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kubik.engine import Choose, Roll
from kubik.game import HUMAN, GameSession, Scenario, parse_scenario
from kubik.rulesets.steel_war.battle.game import SteelWarGame
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


def new_game(sc: Scenario) -> SteelWarGame:
    """A fresh game object (to inspect or set its state)."""
    return GAME.new_game(sc, sc.options)


def human_session(sc: Scenario, seed: int = 0) -> GameSession:
    """Both sides human, dice typed in: every roll and decision is the test's."""
    session = GameSession(sc, seed, controllers={"steel": HUMAN, "lianra": HUMAN}, dice="typed")
    session.advance()
    return session


def pick(session: GameSession, test: Callable[[Any], bool]) -> None:
    """Answer the pending decision with the first option passing ``test``."""
    request = session.pending
    assert isinstance(request, Choose), f"expected a decision, the game waits for {request!r}"
    option = next(o for o in request.options if test(o))
    session.answer(option)


def roll(session: GameSession, *values: int) -> None:
    """Answer the pending roll."""
    assert isinstance(session.pending, Roll), f"expected a roll, got {session.pending!r}"
    session.roll(list(values))
