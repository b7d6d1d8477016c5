"""Small battle positions for tests: a scenario of a few regiments written inline, and
bots that take a given kind of order when they may (else the menu's default)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from kubik.engine import Choose, Procedure, Roll
from kubik.engine.log import ChoiceEntry, ChoiceOrigin, DiceOrigin, EventEntry, RollEntry
from kubik.engine.run import PolicyChooser, RunResult, run
from kubik.game import GameSession, parse_scenario
from kubik.rulesets.fantasy.battle.game import FantasyBattle

TROOPS = "{ m = 4, ws = 3, bs = 3, s = 3, t = 3, w = 1, i = 3, a = 1, ld = 7 }"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and not value.startswith(("{", "[")):
        return f'"{value}"'
    return str(value)


def position(
    *units: dict[str, Any],
    width: int = 48,
    height: int = 36,
    turns: int = 1,
    terrain: Sequence[dict[str, Any]] = (),
) -> str:
    """A scenario text: sides ``a`` and ``b`` (``a`` moves first), ``units`` and the
    ``[[terrain]]`` entries ``terrain``."""
    text = [
        '[scenario]\nid = "test.position"\nname = "Position"\nruleset = "fantasy"',
        f"[table]\nwidth = {width}\nheight = {height}",
        *("[[terrain]]\n" + "\n".join(f"{k} = {_value(v)}" for k, v in t.items()) for t in terrain),
        '[[sides]]\nid = "a"\nname = "A"',
        '[[sides]]\nid = "b"\nname = "B"',
    ]
    for unit in units:
        fields = {"profile": TROOPS, "name": unit["id"], **unit}
        text.append("[[units]]\n" + "\n".join(f"{k} = {_value(v)}" for k, v in fields.items()))
    text.append(f"[end]\nturn_limit = {turns}")
    return "\n\n".join(text) + "\n"


def wanting(*kinds: str) -> Any:
    """A bot that takes the first option of the first kind in ``kinds`` it is offered."""

    def bot(request: Choose) -> Hashable:
        for kind in kinds:
            for option in request.options:
                if getattr(option, "kind", None) == kind:
                    return option
        return request.default

    return bot


def play(text: str, seed: int = 1, a: Sequence[str] = (), b: Sequence[str] = ()) -> GameSession:
    """Play the position to its end with bots wanting ``a``'s and ``b``'s orders."""
    scenario = parse_scenario(text, "position.toml")
    session = GameSession(scenario, seed, controllers={"a": wanting(*a), "b": wanting(*b)})
    session.advance()
    return session


def events(session: GameSession) -> list[EventEntry]:
    return [e for e in session.log if isinstance(e, EventEntry)]


def said(session: GameSession, message: str) -> list[EventEntry]:
    """Log events of message id ``message``."""
    return [e for e in events(session) if e.event.id == message]


def rules(session: GameSession) -> Counter[str]:
    seen: Counter[str] = Counter()
    for entry in session.log:
        if isinstance(entry, EventEntry | RollEntry | ChoiceEntry):
            seen.update(entry.rules)
    return seen


class Dice:
    """Dice that show ``values`` in turn (a roll takes as many as it has dice), then
    those of a seeded generator."""

    origin = DiceOrigin.VIRTUAL

    def __init__(self, *values: int, seed: int = 1) -> None:
        self.values = list(values)
        self.rng = random.Random(seed)

    def roll(self, request: Roll) -> tuple[int, ...]:
        out = []
        for die in request.dice:
            out.append(self.values.pop(0) if self.values else self.rng.randint(1, die.faces))
        return tuple(out)


def battle(text: str) -> FantasyBattle:
    """The battle of a position, before its first turn."""
    return FantasyBattle(parse_scenario(text, "position.toml"), {})


def drive(
    procedure: Callable[..., Procedure[Any]],
    args: tuple[Any, ...],
    dice: Dice | None = None,
    wants: Sequence[str] = (),
) -> RunResult:
    """Run a battle's procedure to its end: ``dice``, and a bot wanting ``wants``."""
    return run(
        procedure,
        args,
        dice=dice or Dice(),
        chooser=PolicyChooser(wanting(*wants), ChoiceOrigin.BOT),
    )


def told(log: Sequence[Any], message: str) -> list[EventEntry]:
    """Events of message id ``message`` in a log."""
    return [e for e in log if isinstance(e, EventEntry) and e.event.id == message]
