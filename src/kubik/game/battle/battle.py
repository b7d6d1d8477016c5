"""The battle every ruleset plays: a shared base with a small set of documented hooks.

A ruleset's battle subclasses :class:`BattleGame` (as a python-chess variant
subclasses ``Board``) and fills the hooks; everything else is shared:

Hooks a ruleset fills
    :meth:`BattleGame.turn`        one turn, in the ruleset's own turn structure
    :meth:`BattleGame.pieces`      every model, as :class:`~.pieces.Piece` snapshots
    :meth:`BattleGame.ending`      has someone won (checked after every turn)?
    :meth:`BattleGame.winner_at_limit`, :meth:`BattleGame.summary`   optional
    :meth:`BattleGame.view`        optional: what one side may know (hidden warriors,
                                   secret bids); default: everything
    :meth:`BattleGame.unit_results` optional: how each unit ended the battle, for
                                   ``kubik sim``'s per-unit statistics; the default
                                   counts :meth:`pieces` and the kills credited

What the base gives every battle
    :attr:`table` and :attr:`tape`  the battlefield and its one memoised measuring tape
    :attr:`contacts`               the fights charges started (:mod:`.contact`): the
                                   only bases allowed to touch
    :attr:`interrupts`             out-of-turn reactions (:mod:`.interrupts`)
    :meth:`name`                   a unit's or model's name, for labels and the log
    :meth:`contact_violations`     the contact rule checked over :meth:`pieces`
    :meth:`choose`                 a decision from a :class:`~.menu.Menu`
    :meth:`credit_kill`            a ruleset says which unit took enemy models out

A ruleset plugs into the game layer with :class:`BattleRuleset` (its ``turns.py``
exports ``GAME = BattleRuleset(...)``). See ``docs/adding-a-ruleset.md``.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from kubik.engine import Choose, Message, Procedure, msg
from kubik.game.battle.contact import Engagements, Violation, violations
from kubik.game.battle.interrupts import Interrupts
from kubik.game.battle.menu import Menu
from kubik.game.battle.pieces import Piece, Presence
from kubik.game.errors import ScenarioError
from kubik.game.scenario import Scenario
from kubik.game.turns import TurnLoop
from kubik.table import Table, TableError, table_from_dict
from kubik.table.tape import Tape

OptionT = TypeVar("OptionT", bound=Hashable)

#: How a model that ended the battle out of the fight counts: lost (down, removed or
#: fled). Models carried aboard a vehicle or gone off the table on purpose (an
#: objective) are not losses.
LOST: frozenset[Presence] = frozenset({Presence.DOWN, Presence.REMOVED, Presence.FLED})


@dataclass(frozen=True, slots=True)
class UnitResult:
    """How one unit ended a battle: its models, how many it lost (down, removed or
    fled) and how many of those fled, and the enemy models it took out.

    >>> UnitResult("r1", "red", models=5, lost=2, fled=1, kills=3).routed
    True
    """

    unit: str
    side: str
    models: int
    lost: int = 0
    fled: int = 0
    kills: int = 0

    @property
    def routed(self) -> bool:
        """Whether any of its models ran off the table (the unit broke)."""
        return self.fled > 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"unit", "side", "models", "lost", "fled", "kills"}``."""
        return {
            "unit": self.unit,
            "side": self.side,
            "models": self.models,
            "lost": self.lost,
            "fled": self.fled,
            "kills": self.kills,
        }


@lru_cache(maxsize=16)
def _shared_table(text: str) -> Table:
    return table_from_dict(json.loads(text))


def battle_table(scenario: Scenario) -> Table:
    """The table of a scenario's ``[table]`` and ``[[terrain]]``, one error line naming the
    field when it is wrong. Tables are immutable, so every game of one scenario shares
    one, and with it the measurements its :class:`~kubik.table.tape.Tape` keeps."""
    if not scenario.table:
        raise ScenarioError("table: missing (required): a [table] with width and height")
    text = json.dumps({"table": scenario.table, "terrain": list(scenario.terrain)}, sort_keys=True)
    try:
        return _shared_table(text)
    except TableError as error:
        raise ScenarioError(str(error)) from None


class BattleGame(TurnLoop):
    """A battle of one ruleset on the shared layer (see the module docstring for the hooks).

    All mutable state lives on the object and is rebuilt by replaying the answers, so
    a subclass keeps only plain values in insertion order (lists and dicts, never
    sets of strings, whose order differs between processes).
    """

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario)
        self.options: dict[str, Any] = dict(options)
        self.table: Table = battle_table(scenario)
        self.tape: Tape = Tape.of(self.table)
        self.contacts = Engagements()
        self.interrupts = Interrupts()
        self._names: dict[str, Message] = {}
        self._units = frozenset(unit.id for unit in scenario.units)
        self._kills: dict[str, int] = {}

    # -- hooks a ruleset fills --------------------------------------------------

    @abstractmethod
    def pieces(self) -> Sequence[Piece]:
        """Every model of the battle (in play or not), in a fixed order."""

    def view(self, side: str | None) -> dict[str, Any]:
        """What ``side`` may know of the battle (``None``: a spectator), JSON-ready.

        The default shows every model on the table; a ruleset with hidden information
        (hidden warriors, secret bids) removes what that side may not see."""
        return {
            "turn": self.turn_number,
            "pieces": [p.to_json() for p in self.pieces() if p.presence.on_table],
            "engagements": [[e.a, e.b] for e in self.contacts.pairs()],
        }

    def unit_results(self) -> tuple[UnitResult, ...]:
        """How every unit ended the battle (``kubik sim`` gathers these per game).

        The default reads :meth:`pieces`: a unit's models are its pieces, ``lost`` those
        down, removed or fled (:data:`LOST`), ``fled`` those that ran; ``kills`` are what
        the ruleset credited with :meth:`credit_kill`. Units in scenario order, then any
        unit the pieces name that the scenario does not. A ruleset whose units break
        without leaving the table overrides this to say so."""
        tally: dict[str, list[int]] = {u.id: [0, 0, 0] for u in self.scenario.units}
        sides = {u.id: u.side for u in self.scenario.units}
        for piece in self.pieces():
            counts = tally.setdefault(piece.unit, [0, 0, 0])
            sides.setdefault(piece.unit, piece.side)
            counts[0] += 1
            counts[1] += piece.presence in LOST
            counts[2] += piece.presence is Presence.FLED
        return tuple(
            UnitResult(unit, sides[unit], models, lost, fled, self._kills.get(unit, 0))
            for unit, (models, lost, fled) in tally.items()
        )

    # -- shared services --------------------------------------------------------

    def credit_kill(self, by_unit: str, victims: int = 1) -> None:
        """Credit unit ``by_unit`` with taking ``victims`` enemy models out of the fight
        (killed, wounded out of action, routed by its charge: as the ruleset counts a
        kill). Call it where the rules take the models out; replays credit again, as
        they rebuild every other state."""
        if by_unit not in self._units:
            known = ", ".join(sorted(self._units)) or "none"
            raise ValueError(f"credit_kill: no unit '{by_unit}'; units: {known}")
        if isinstance(victims, bool) or not isinstance(victims, int) or victims < 0:
            raise ValueError(f"credit_kill: victims {victims!r}; allowed: a whole number 0 or more")
        self._kills[by_unit] = self._kills.get(by_unit, 0) + victims

    def set_name(self, key: str, en: str, ru: str = "") -> Message:
        """Register the name of a unit, model or weapon (``ru`` defaults to ``en``)."""
        name = msg("game.name", en=en, ru=ru or en)
        self._names[key] = name
        return name

    def name(self, key: str) -> Message:
        """The registered name of ``key`` (its id as written when it has none)."""
        return self._names.get(key) or msg("game.name", en=key, ru=key)

    def contact_violations(self) -> tuple[Violation, ...]:
        """Every breach of the contact rule on the table now (none, in a correct battle)."""
        return violations(self.pieces(), self.contacts)

    def bodies(self, *, besides: Sequence[str] = ()) -> tuple[Piece, ...]:
        """The models taking up room on the table, except the units in ``besides``."""
        return tuple(p for p in self.pieces() if p.body and p.unit not in besides)

    def choose(
        self,
        menu: Menu[OptionT],
        side: str,
        reason: Message,
        default: OptionT | None = None,
        rules: tuple[str, ...] = (),
    ) -> Procedure[OptionT]:
        """Ask ``side`` to pick from ``menu`` (a single option is taken without asking)."""
        if len(menu) == 1:
            return menu.options[0]
        request: Choose = menu.choose(side, reason, default, rules)
        picked: OptionT = yield request
        return picked


@dataclass(frozen=True, slots=True)
class BattleRuleset:
    """A ruleset's adapter to the game layer: checks scenarios and starts battles.

    ``check(scenario)`` raises :class:`~kubik.game.errors.ScenarioError` (one line,
    naming the field) when the ruleset cannot play it; ``start(scenario, options)``
    makes the battle.
    """

    id: str
    check: Callable[[Scenario], None]
    start: Callable[[Scenario, Mapping[str, Any]], BattleGame]

    def validate(self, scenario: Scenario) -> None:
        """Raise :class:`~kubik.game.errors.ScenarioError` if ``scenario`` cannot be played."""
        self.check(scenario)

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> BattleGame:
        """A fresh battle of ``scenario`` with ``options`` (the scenario's, overridden)."""
        return self.start(scenario, options)


__all__ = ["LOST", "BattleGame", "BattleRuleset", "UnitResult", "battle_table"]
