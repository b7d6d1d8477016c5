"""Small Old West battles written in the tests, and a driver that plays them with typed
dice and scripted decisions (every side human, so each decision is answered here)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from kubik.engine import Choose, Roll
from kubik.game import GameSession, Scenario, parse_scenario
from kubik.rulesets.old_west.battle.game import OldWestGame
from kubik.rulesets.old_west.battle.options import (
    Flight,
    Heroic,
    HoldFire,
    MoveKind,
    MoveTo,
    ShootAt,
)

HEADER = """\
[scenario]
id = "old_west.test"
name = "Test"
ruleset = "old_west"

[table]
width = {width}
height = {height}

[[sides]]
id = "law"
name = "Law"
name_ru = "Закон"

[[sides]]
id = "gang"
name = "Gang"
name_ru = "Банда"
"""


def unit(uid: str, side: str, profile: str, x: float, y: float, *extra: str) -> str:
    """A ``[[units]]`` entry."""
    lines = [
        "[[units]]",
        f'id = "{uid}"',
        f'side = "{side}"',
        f'name = "{uid.title()}"',
        f'profile = "{profile}"',
        f"position = [{x}, {y}]",
        *extra,
    ]
    return "\n".join(lines) + "\n"


def battle(
    *units: str,
    terrain: str = "",
    options: str = "heroic_actions = false",
    turn_limit: int = 4,
    width: int = 24,
    height: int = 24,
) -> Scenario:
    """A scenario from unit entries, terrain TOML and option lines."""
    text = HEADER.format(width=width, height=height) + terrain + "\n[options]\n" + options + "\n"
    text += "\n".join(units) + f"\n[end]\nturn_limit = {turn_limit}\n"
    return parse_scenario(text, "test.toml")


FENCE = """
[[terrain]]
id = "fence"
name = "the fence"
obstacle = true
shape = "line"
cover = "light"
points = [[12.5, 4], [12.5, 20]]
"""


@dataclass
class Script:
    """Scripted answers: moves by model (kind, or (kind, target)), shots by model, heroic
    actions declared, Fame spent (in order), whether posses flee, and whether each
    Fortune point is spent (in order; by default it is)."""

    moves: dict[str, Any] = field(default_factory=dict)
    shots: dict[str, str] = field(default_factory=dict)
    heroics: set[str] = field(default_factory=set)  # "hero:action", e.g. "wyatt:yee_haw"
    fame: list[int] = field(default_factory=list)
    flee: bool = False
    fortune: list[bool] = field(default_factory=list)  # spend Fortune, in order (default yes)
    asked: list[Choose] = field(default_factory=list)

    def __call__(self, request: Choose) -> Hashable:
        self.asked.append(request)
        first = request.options[0]
        if isinstance(first, MoveTo):
            wanted = self.moves.get(first.model, MoveKind.STAY)
            kind, target = wanted if isinstance(wanted, tuple) else (wanted, "")
            return next(
                o
                for o in request.options
                if isinstance(o, MoveTo) and o.kind is kind and o.target == target
            )
        if isinstance(first, ShootAt):
            target = self.shots.get(first.model)
            for option in request.options:
                if isinstance(option, ShootAt) and option.target == target:
                    return option
            return next(o for o in request.options if isinstance(o, HoldFire))
        if isinstance(first, Heroic):
            return next(
                o
                for o in request.options
                if isinstance(o, Heroic)
                and o.declare == (f"{o.hero}:{o.action.value}" in self.heroics)
            )
        if isinstance(first, Flight):
            return Flight(self.flee)
        if isinstance(first, bool):  # spend a Fortune point?
            return self.fortune.pop(0) if self.fortune else request.default
        if isinstance(first, int):
            wanted_points = self.fame.pop(0) if self.fame else 0
            return wanted_points if wanted_points in request.options else request.default
        return request.default


def play(
    scenario: Scenario,
    dice: list[int],
    script: Callable[[Choose], Hashable] | None = None,
    options: dict[str, Any] | None = None,
    setup: Callable[[OldWestGame], None] | None = None,
) -> GameSession:
    """Play with every side human and typed dice until the dice run out or the game ends
    (``setup`` changes the battle before its first answer: a model already lying down)."""
    session = GameSession(
        scenario,
        1,
        controllers={"law": "human", "gang": "human"},
        dice="typed",
        options=options,
    )
    if setup is not None:
        setup(state_of(session))
    return drive(session, dice, script or Script())


def drive(
    session: GameSession, dice: list[int], decide: Callable[[Choose], Hashable]
) -> GameSession:
    """Answer the session's rolls from ``dice`` and its decisions with ``decide`` until the
    dice run out or the game ends (every die must be used)."""
    pending = session.advance()
    left = list(dice)
    while pending is not None:
        if isinstance(pending, Roll):
            need = len(pending.dice)
            if len(left) < need:
                break
            session.roll(left[:need])
            del left[:need]
        else:
            session.answer(decide(pending))
        pending = session.pending
    assert not left, f"dice left over: {left}"
    return session


def event_ids(session: GameSession) -> list[str]:
    """Ids of the narrated events, in order."""
    from kubik.engine.log import EventEntry

    return [e.event.id for e in session.log if isinstance(e, EventEntry)]


def state_of(session: GameSession) -> OldWestGame:
    """The battle a session plays."""
    state = session.state
    assert isinstance(state, OldWestGame)
    return state


def game_of(scenario: Scenario) -> OldWestGame:
    """A fresh battle of ``scenario``."""
    return OldWestGame(scenario, scenario.options)


def events(session: GameSession, event_id: str) -> list[Any]:
    """The narrated events with this id, in order."""
    from kubik.engine.log import EventEntry

    return [e for e in session.log if isinstance(e, EventEntry) and e.event.id == event_id]
