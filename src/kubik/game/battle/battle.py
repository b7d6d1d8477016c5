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
    :meth:`BattleGame.visible_to`  optional: whether one side's narrated log shows an
                                   entry (what a hidden warrior did); default: yes
    :meth:`BattleGame.prepare_terrain`  optional: a ruleset's own terrain fields read
                                   into the table's (kinds per unit type from its table)
    :meth:`BattleGame.reach`       optional: how far a unit moves and shoots from where it
                                   stands (its rule modules' numbers), for the map
    :meth:`BattleGame.unit_results` optional: how each unit ended the battle, for
                                   ``kubik sim``'s per-unit statistics; the default
                                   counts :meth:`pieces` and the kills credited

What the base gives every battle
    :attr:`table` and :attr:`tape`  the battlefield and its one memoised measuring tape
    :attr:`contacts`               the fights charges started (:mod:`.contact`): the
                                   only bases allowed to touch
    :attr:`interrupts`             out-of-turn reactions (:mod:`.interrupts`)
    :attr:`at_table`               the game referees a real table (the ``table`` option
                                   ``kubik play --table`` sets): people move the models
                                   and measure, and type what they did (``Entry``)
    :meth:`name`                   a unit's or model's name, for labels and the log
    :meth:`contact_violations`     the contact rule checked over :meth:`pieces`
    :meth:`choose`                 a decision from a :class:`~.menu.Menu`
    :meth:`credit_kill`            a ruleset says which unit took enemy models out (the
                                   one hook for kills; losses are counted from
                                   :meth:`pieces`: :meth:`unit_results`,
                                   :meth:`models_lost`)
    :meth:`cast`, :meth:`roles`    who plays each role of the rule being applied (the
                                   shooter, the target …), for people rolling at a table
    :meth:`still`, :meth:`kept`    while a menu is built nothing on the board changes:
                                   each measurement made then is kept until it is done
    :meth:`lasting`, :meth:`shape_id`  measurements of where things stand, kept for the
                                   battle: the next menu reuses those whose models
                                   have not moved (:meth:`lasting_by`: its key made
                                   only while a menu is measured)

A ruleset plugs into the game layer with :class:`BattleRuleset` (its ``turns.py``
exports ``GAME = BattleRuleset(...)``). See ``docs/adding-a-ruleset.md``.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from kubik.engine import Choose, Entry, Message, Procedure
from kubik.engine.log import LogEntry
from kubik.game.battle.bars import has_bars, without_barred
from kubik.game.battle.contact import Engagements, Violation, violations
from kubik.game.battle.interrupts import Interrupts
from kubik.game.battle.menu import Menu
from kubik.game.battle.pieces import Piece, Presence, Reaching
from kubik.game.errors import ScenarioError
from kubik.game.scenario import RU_CASES, Scenario
from kubik.game.turns import TurnLoop, unit_name
from kubik.table import Table, TableError, table_from_dict
from kubik.table.tape import Tape
from kubik.text.i18n import name_msg

OptionT = TypeVar("OptionT", bound=Hashable)
#: Who watches a battle on no side (a web spectator): :meth:`BattleGame.view` and
#: :meth:`BattleGame.visible_to` show such a viewer only what is open to every side.
SPECTATOR = "*"
T = TypeVar("T")
#: Most :meth:`BattleGame.lasting` measurements kept per battle (an engine limit, not a
#: rule: past it they are forgotten and made again).
LASTING_LIMIT = 50_000
#: What a memo answers for a key it has no answer for yet (an answer may be None).
_MISSING: Any = object()
#: The game option that says the battle referees a real table (``kubik play --table``):
#: the layer takes it out of the options, so a ruleset's own options never see it.
TABLE_OPTION = "table"


#: A ruleset's reading of one ``[[terrain]]`` entry (its index, the entry as written) into
#: the table's own fields: see :meth:`BattleGame.prepare_terrain`.
TerrainReader = Callable[[int, Mapping[str, Any]], Mapping[str, Any]]

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


def battle_table(scenario: Scenario, prepare: TerrainReader | None = None) -> Table:
    """The table of a scenario's ``[table]`` and ``[[terrain]]``, one error line naming the
    field when it is wrong. ``prepare`` turns each ``[[terrain]]`` entry into the table's
    fields first (a ruleset whose terrain table classes every feature per kind of unit
    fills ``kind`` and ``kinds`` from its own field). Tables are immutable, so every game
    of one scenario shares one, and with it the measurements its
    :class:`~kubik.table.tape.Tape` keeps."""
    if not scenario.table:
        raise ScenarioError("table: missing (required): a [table] with width and height")
    terrain = [
        dict(prepare(i, entry) if prepare is not None else entry)
        for i, entry in enumerate(scenario.terrain)
    ]
    text = json.dumps({"table": scenario.table, "terrain": terrain}, sort_keys=True)
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
        self.at_table: bool = self.options.pop(TABLE_OPTION, False) is True
        self.table: Table = battle_table(scenario, type(self).prepare_terrain)
        self.tape: Tape = Tape.of(self.table)
        self.contacts = Engagements()
        self.interrupts = Interrupts()
        self._names: dict[str, Message] = {u.id: unit_name(scenario, u.id) for u in scenario.units}
        self._units = frozenset(unit.id for unit in scenario.units)
        self._kills: dict[str, int] = {}
        self._roles: dict[str, Message] = {}
        self._still: dict[Hashable, Any] | None = None
        self._lasting: dict[Hashable, Any] = {}
        self._shapes: dict[Hashable, int] = {}
        self._shapes_made = 0  # never reused, even once old numbers are forgotten

    # -- hooks a ruleset fills --------------------------------------------------

    @classmethod
    def prepare_terrain(cls, index: int, entry: Mapping[str, Any]) -> Mapping[str, Any]:
        """Optional: ``[[terrain]]`` entry ``index`` in the table's own fields. A ruleset
        whose terrain table says how hard each kind of terrain is for each kind of unit
        reads its own field here (``terrain = "light_wood"``) and fills ``kind`` and
        ``kinds`` from that table, raising :class:`~kubik.game.errors.ScenarioError`
        naming ``terrain[index]`` when it is wrong. Default: the entry as written."""
        return entry

    @abstractmethod
    def pieces(self) -> Sequence[Piece]:
        """Every model of the battle (in play or not), in a fixed order."""

    def reach(self, unit: str) -> tuple[Reaching, ...]:
        """Optional: how far ``unit`` reaches from where it stands now — its move's
        allowance, its weapons' ranges — each from its rule module (a map draws them as
        circles round the unit). Default: nothing to draw."""
        return ()

    def view(self, side: str | None) -> dict[str, Any]:
        """What ``side`` may know of the battle, JSON-ready: ``None`` is the referee, who
        sees everything; :data:`SPECTATOR` (any id that is no side's) an onlooker, who
        sees only what is open to every side.

        The default shows every model on the table; a ruleset with hidden information
        (hidden warriors, secret bids) removes what that side may not see."""
        return {
            "turn": self.turn_number,
            "pieces": [p.to_json() for p in self.pieces() if p.presence.on_table],
            "engagements": [[e.a, e.b] for e in self.contacts.pairs()],
        }

    def reaches(self, unit: str) -> list[tuple[Message | None, float]]:
        """Optional: how far each shooting weapon of ``unit`` reaches (its name, ``None``
        for a unit's one missile weapon, and the reach, measured as the rules measure a
        shot: from the model's edge, in the table's units), farthest first, by its rule
        module's own numbers. The table page draws them around the selected unit.
        Default: none."""
        return []

    def visible_to(self, side: str | None, entry: LogEntry) -> bool:
        """Whether the narrated log shown to ``side`` (``None``: the referee, who sees
        everything; :data:`SPECTATOR`: an onlooker, who sees what every side sees)
        includes ``entry``. The default shows every entry; a ruleset with
        hidden information leaves out what that side did not see."""
        return True

    def narrated_for(self, side: str | None, log: Sequence[LogEntry]) -> tuple[LogEntry, ...]:
        """The entries of ``log`` that ``side`` may read (:meth:`visible_to`)."""
        return tuple(entry for entry in log if self.visible_to(side, entry))

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

    def models_lost(self, side: str) -> int:
        """How many of ``side``'s models the battle has lost (down, removed or fled), as
        :meth:`unit_results` counts them: the one count of losses a summary reports as
        ``models_lost`` and ``kubik sim`` adds up, so the two never disagree."""
        return sum(unit.lost for unit in self.unit_results() if unit.side == side)

    # -- shared services --------------------------------------------------------

    @contextmanager
    def still(self) -> Iterator[None]:
        """A stretch in which nothing on the board changes (a unit's menu being built:
        every option measured, none taken): :meth:`kept` measurements are made once in
        it. Nested stretches share the outer one's."""
        if self._still is not None:
            yield
            return
        self._still = {}
        try:
            yield
        finally:
            self._still = None

    @property
    def measuring(self) -> bool:
        """Inside :meth:`still`: measurements are kept (:meth:`kept`, :meth:`lasting`)."""
        return self._still is not None

    def kept(self, key: Hashable, measure: Callable[[], T]) -> T:
        """``measure()``, made once per ``key`` inside :meth:`still` (every time outside
        it): the key must name everything the measurement reads that may change."""
        memo = self._still
        if memo is None:
            return measure()
        found: T = memo.get(key, _MISSING)  # one lookup: a key's hash is not kept
        if found is _MISSING:
            found = memo[key] = measure()
        return found

    def kept_now(self, key: Hashable) -> Any:
        """The answer :meth:`kept` holds under ``key`` in this :meth:`still`, or ``None``
        (none kept, or outside it): one lookup for a question asked many times a menu,
        before any measurement is even described."""
        memo = self._still
        return memo.get(key) if memo is not None else None

    def shape_id(self, shape: Hashable) -> int:
        """A small number standing for ``shape`` (where a unit's models stand, or the whole
        board) for this battle, so :meth:`lasting` keys stay cheap to compare."""
        found = self._shapes.get(shape)
        if found is None:
            if len(self._shapes) >= LASTING_LIMIT:
                self._shapes.clear()
            found = self._shapes[shape] = self._shapes_made
            self._shapes_made += 1
        return found

    def lasting(self, key: Hashable, measure: Callable[[], T]) -> T:
        """``measure()``, made once per ``key`` for the whole battle, asked inside
        :meth:`still` (every time outside it). The key must name everything the
        measurement reads, the positions by :meth:`shape_id`: it depends on them alone,
        so a menu built after an action that moved nobody measures nothing again."""
        if self._still is None:
            return measure()
        memo = self._lasting  # (shared with :meth:`lasting_by`; afresh past LASTING_LIMIT)
        found: T = memo.get(key, _MISSING)
        if found is _MISSING:
            found = measure()
            if len(memo) >= LASTING_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def lasting_by(self, key: Callable[[], Hashable], measure: Callable[[], T]) -> T:
        """:meth:`lasting` with its key made only inside :meth:`still` (outside it the
        measurement is simply made): one call where a key is dear to make."""
        if self._still is None:
            return measure()
        made = key()
        memo = self._lasting
        found: T = memo.get(made, _MISSING)
        if found is _MISSING:  # (kept as :meth:`lasting` keeps it: past the limit, afresh)
            found = measure()
            if len(memo) >= LASTING_LIMIT:
                memo.clear()
            memo[made] = found
        return found

    @contextmanager
    def cast(self, **roles: Message) -> Iterator[None]:
        """Who plays each role of the rule applied in this stretch — the shooter, the
        target, the squad testing — by name (``shooter=self.name(unit_id)``): people
        rolling at a real table are told whose dice they roll (a rule's roll names only
        its role). Stretches nest: an inner one adds roles and hides none for good."""
        before = self._roles
        self._roles = {**before, **roles}
        try:
            yield
        finally:
            self._roles = before

    def roles(self) -> dict[str, Message]:
        """The roles of the rule being applied now, by name (:meth:`cast`)."""
        return dict(self._roles)

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

    def set_name(
        self,
        key: str,
        en: str,
        ru: str = "",
        *,
        cases: Mapping[str, str] | None = None,
        gender: str | None = None,
    ) -> Message:
        """Register the name of a unit, model or weapon (``ru`` defaults to ``en``), with
        its Russian case forms and gender when known (:func:`kubik.text.i18n.name_msg`).

        Every ``[[units]]`` entry of the scenario is registered already, with the case
        forms and gender the scenario gives; registering the same name again keeps them
        (the scenario's word wins) and adds what the call gives besides.
        """
        known = self._names.get(key)
        if known is not None and known.kwargs["ru"] == (ru or en):  # the same name: keep its data
            given = known.kwargs
            kept = {c: given[f"ru_{c}"] for c in RU_CASES if f"ru_{c}" in given}
            cases = {**(cases or {}), **kept}
            gender = given.get("ru_gender") or gender
        name = name_msg(en, ru, cases=cases, gender=gender)
        self._names[key] = name
        return name

    def name(self, key: str) -> Message:
        """The registered name of ``key`` (its id as written when it has none)."""
        return self._names.get(key) or name_msg(key)

    def contact_violations(self) -> tuple[Violation, ...]:
        """Every breach of the contact rule on the table now (none, in a correct battle)."""
        return violations(self.pieces(), self.contacts)

    def bodies(self, *, besides: Sequence[str] = ()) -> tuple[Piece, ...]:
        """The models taking up room on the table, except the units in ``besides``."""
        found: list[Piece] = []
        for piece in self.pieces():  # (a plain loop: no generator resumed per piece)
            if piece.body and piece.unit not in besides:
                found.append(piece)
        return tuple(found)

    def choose(
        self,
        menu: Menu[OptionT],
        side: str,
        reason: Message,
        default: OptionT | None = None,
        rules: tuple[str, ...] = (),
        entry: Entry | None = None,
    ) -> Procedure[OptionT]:
        """Ask ``side`` to pick from ``menu`` (a single option is taken without asking,
        unless people at a real table may type another answer: ``entry``). ``entry``:
        how a person may type the answer instead (a move's place, in any game: bots
        never type, so it changes nothing they play). Options the balance lab bars for
        ``side`` are withheld (:mod:`kubik.game.battle.bars`)."""
        if has_bars():
            menu = without_barred(menu, side)
            if default is not None and default not in menu:
                default = None
        if len(menu) == 1 and (entry is None or not self.at_table):
            return menu.options[0]
        request: Choose = menu.choose(side, reason, default, rules, entry)
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


__all__ = [
    "LOST",
    "SPECTATOR",
    "TABLE_OPTION",
    "BattleGame",
    "BattleRuleset",
    "TerrainReader",
    "UnitResult",
    "battle_table",
]
