"""Observations as arrays of a fixed shape: what one side may know, and the decision it faces.

Learning code wants numbers in arrays whose shape never changes; a battle gives a
per-side view (:meth:`~kubik.game.battle.BattleGame.view`, which already leaves out
what the side may not know: a hidden warrior, a secret bid) and a decision (a
:class:`~kubik.engine.Choose` with its options, labels and forecasts). An
:class:`Encoder`, made once per scenario, turns the two into four arrays, the same
way for every ruleset:

``planes``  (channels, :data:`GRID`, :data:`GRID`): the table on a grid — where the
            side's and the enemy's models stand (fighting or down), who is engaged,
            who the decision is about, and the terrain (impassable, difficult, cover,
            blocking sight, obstacles, height).
``pieces``  (models, features): one row per model of the scenario, in the battle's
            own order; a row of zeros but for ``visible = 0`` is a model the side does
            not see now (gone from the table, or hidden). Besides the shared features
            (side, place, base, fighting, down, prone, engaged) each ruleset's own
            fields in its view (wounds and Fame, suppression and morale, facing ...)
            follow, discovered from the referee's view when the encoder is made.
``globals`` (features,): the turn, the side, the decision's kind and its size.
``actions`` (maximum actions, features): one row per option of the decision (zeros
            past the last): legal, default, the kind of option, where it goes, the
            friend and the enemy it names, its numbers, its cost, and — when asked
            for — its worth by the rules' exact odds (the heuristic bot's figure).

A word (a message id, a state such as ``"pinned"``) becomes a one-hot over a few
buckets by a CRC-32 of its text: the same in every process and on every machine.
:attr:`Encoder.layout` names every column.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubik.agents.spaces import ActionSpaceError
from kubik.engine import Choose, Message
from kubik.engine.jsonify import to_json
from kubik.game import GameInputError, Scenario, get_ruleset
from kubik.game.battle import BattleGame
from kubik.game.record import canonical_json

#: Cells along each side of the table in the planes (a cell is 1/GRID of its width and
#: of its height, so every scenario has planes of one shape).
GRID = 24
#: Buckets a message id (a decision's reason, an option's label) is hashed into.
KIND_BUCKETS = 32
#: Buckets a word of a ruleset's own state field (``nerve = "pinned"``) is hashed into.
WORD_BUCKETS = 8
#: Buckets an option's numeric fields are summed into, by their names.
NUMBER_BUCKETS = 8
#: Every feature is clipped to ±LIMIT (the observation space's bounds).
LIMIT = 1e4

#: The planes, in order.
PLANES: tuple[str, ...] = (
    "own_fighting",
    "own_down",
    "enemy_fighting",
    "enemy_down",
    "engaged",
    "actor",
    "impassable",
    "difficult",
    "cover",
    "blocks_sight",
    "obstacle",
    "elevation",
)
#: The shared columns of a model's row (a ruleset's own fields follow them).
PIECE_BASE: tuple[str, ...] = (
    "visible",
    "own",
    "enemy",
    "x",
    "y",
    "diameter",
    "fighting",
    "down",
    "prone",
    "engaged",
    "actor",
)
#: Fields every view's model entry has (not a ruleset's own).
_SHARED_KEYS = frozenset({"id", "unit", "side", "x", "y", "diameter", "presence", "posture"})
#: Fields of a view's ``units`` entries that name, not describe.
_UNIT_NAMING = frozenset({"id", "side"})
#: Fields read as an angle in degrees (encoded as its sine and cosine).
_ANGLES = frozenset({"facing"})


def fresh_battle(scenario: Scenario, options: Mapping[str, Any] | None = None) -> BattleGame:
    """A new battle of ``scenario`` with its game ``options`` (the scenario's, overridden);
    agents play battles only, so another kind of game is a clear error."""
    merged = {**scenario.options, **(options or {})}
    game = get_ruleset(scenario.ruleset).new_game(scenario, merged)
    if not isinstance(game, BattleGame):
        raise GameInputError(
            f"scenario '{scenario.id}': its game is not a battle; agents play battles only"
        )
    return game


def bucket(word: str, buckets: int) -> int:
    """The bucket of ``word``: CRC-32 of its UTF-8 text, modulo ``buckets`` (stable).

    >>> bucket("old_west.game.shoot.ask", 32) == bucket("old_west.game.shoot.ask", 32)
    True
    """
    return zlib.crc32(word.encode("utf-8")) % buckets


@dataclass(frozen=True, slots=True)
class Layout:
    """What every row and column of the arrays means (names, in order)."""

    planes: tuple[str, ...]
    pieces: tuple[str, ...]
    piece_ids: tuple[str, ...]
    globals: tuple[str, ...]
    actions: tuple[str, ...]
    max_actions: int

    @property
    def shapes(self) -> dict[str, tuple[int, ...]]:
        """The shape of each array, by its name."""
        return {
            "planes": (len(self.planes), GRID, GRID),
            "pieces": (len(self.piece_ids), len(self.pieces)),
            "globals": (len(self.globals),),
            "actions": (self.max_actions, len(self.actions)),
        }


@dataclass(frozen=True, slots=True)
class _Field:
    """A ruleset's own field of a view entry, as columns: a number, an angle or a word."""

    key: str
    kind: str  # "number" | "angle" | "word"
    column: int  # its first column

    @property
    def width(self) -> int:
        return {"number": 1, "angle": 2, "word": WORD_BUCKETS}[self.kind]

    def names(self, prefix: str) -> list[str]:
        if self.kind == "number":
            return [f"{prefix}.{self.key}"]
        if self.kind == "angle":
            return [f"{prefix}.{self.key}_sin", f"{prefix}.{self.key}_cos"]
        return [f"{prefix}.{self.key}#{k}" for k in range(WORD_BUCKETS)]

    def write(self, row: NDArray[np.float32], value: Any) -> None:
        if value is None:
            return
        at = self.column
        if self.kind == "word":
            row[at + bucket(str(value), WORD_BUCKETS)] = 1.0
        elif isinstance(value, bool | int | float):
            if self.kind == "angle":
                radians = math.radians(float(value))
                row[at], row[at + 1] = math.sin(radians), math.cos(radians)
            else:
                row[at] = float(value)


def _fields(entries: Sequence[Mapping[str, Any]], skip: frozenset[str], start: int) -> list[_Field]:
    """A ruleset's own fields of view entries (sorted by name), numbers and words only."""
    kinds: dict[str, str] = {}
    for entry in entries:
        for key, value in entry.items():
            if key in skip or key in kinds or value is None:
                continue
            if key in _ANGLES and isinstance(value, int | float):
                kinds[key] = "angle"
            elif isinstance(value, bool | int | float):
                kinds[key] = "number"
            elif isinstance(value, str):
                kinds[key] = "word"
    found: list[_Field] = []
    column = start
    for key in sorted(kinds):
        made = _Field(key, kinds[key], column)
        found.append(made)
        column += made.width
    return found


def _terrain_planes(battle: BattleGame) -> NDArray[np.float32]:
    """The terrain channels of the planes: each cell takes the worst of the features it meets."""
    from shapely.geometry import box

    table = battle.table
    out = np.zeros((6, GRID, GRID), dtype=np.float32)
    cell_w, cell_h = table.width / GRID, table.height / GRID
    for row in range(GRID):
        for col in range(GRID):
            x0, y0 = col * cell_w, row * cell_h
            cell = None
            for feature in table.candidates_in(x0, y0, x0 + cell_w, y0 + cell_h):
                cell = cell if cell is not None else box(x0, y0, x0 + cell_w, y0 + cell_h)
                if not feature.shape.intersects(cell):
                    continue
                rank = feature.kind_for(None).rank
                values = (
                    1.0 if rank == 3 else 0.0,
                    float(rank) if rank < 3 else 0.0,
                    float(feature.cover.rank),
                    1.0 if feature.blocks_los else 0.0,
                    1.0 if feature.obstacle else 0.0,
                    float(feature.elevation),
                )
                for channel, value in enumerate(values):
                    out[channel, row, col] = max(out[channel, row, col], value)
    return out


class Encoder:
    """Turns a battle and a pending decision into the arrays of one side's observation.

    Made from a fresh battle of the scenario (its models, terrain and the fields its
    views carry); ``max_actions`` rows of options; ``forecasts`` fills each option's
    worth by the rules' exact odds (the heuristic bot's own figure: slower, as the odds
    of every option are worked out).
    """

    def __init__(
        self,
        scenario: Scenario,
        battle: BattleGame,
        max_actions: int,
        *,
        forecasts: bool = False,
    ) -> None:
        self.scenario = scenario
        self.max_actions = max_actions
        self.forecasts = forecasts
        self.sides: tuple[str, ...] = scenario.side_ids
        self.width = float(battle.table.width)
        self.height = float(battle.table.height)
        self.span = max(self.width, self.height)
        pieces = battle.pieces()
        self.piece_ids: tuple[str, ...] = tuple(p.id for p in pieces)
        self._row = {pid: index for index, pid in enumerate(self.piece_ids)}
        self._side_of: dict[str, str] = {u.id: u.side for u in scenario.units}
        self._members: dict[str, list[str]] = {}
        for piece in pieces:
            self._side_of.setdefault(piece.id, piece.side)
            self._side_of.setdefault(piece.unit, piece.side)
            self._members.setdefault(piece.unit, []).append(piece.id)
        for pid in self.piece_ids:
            self._members.setdefault(pid, [pid])
        self._by_name: dict[Message, str] = {}
        for key in self._side_of:
            self._by_name.setdefault(battle.name(key), key)
        referee = battle.view(None)
        self._piece_fields = _fields(referee.get("pieces", []), _SHARED_KEYS, len(PIECE_BASE))
        after = len(PIECE_BASE) + sum(f.width for f in self._piece_fields)
        self._unit_fields = _fields(referee.get("units", []), _UNIT_NAMING, after)
        piece_columns = list(PIECE_BASE)
        for field in self._piece_fields:
            piece_columns += field.names("piece")
        for field in self._unit_fields:
            piece_columns += field.names("unit")
        self._terrain = _terrain_planes(battle)
        self._globals_names = self._global_columns()
        self._action_names = self._action_columns()
        self.layout = Layout(
            PLANES,
            tuple(piece_columns),
            self.piece_ids,
            tuple(self._globals_names),
            tuple(self._action_names),
            max_actions,
        )
        self._cache: Any = None
        self._forms: tuple[Choose, list[Any]] | None = None

    # -- the columns --------------------------------------------------------------

    def _global_columns(self) -> list[str]:
        names = ["turn", "to_act", "options", "sealed", "own_fighting", "enemy_seen"]
        names += ["actor_known", "actor_x", "actor_y"]
        names += [f"side={side}" for side in self.sides]
        names += [f"reason#{k}" for k in range(KIND_BUCKETS)]
        return names

    def _action_columns(self) -> list[str]:
        names = ["legal", "default", "cost", "has_worth", "worth"]
        names += ["has_place", "x", "y"]
        names += ["has_friend", "friend_x", "friend_y", "has_enemy", "enemy_x", "enemy_y"]
        names += [f"label#{k}" for k in range(KIND_BUCKETS)]
        names += [f"number#{k}" for k in range(NUMBER_BUCKETS)]
        return names

    # -- observing ----------------------------------------------------------------

    def observe(
        self,
        battle: BattleGame,
        side: str,
        request: Choose | None,
        view: Mapping[str, Any] | None = None,
    ) -> dict[str, NDArray[np.float32]]:
        """The four arrays of ``side``'s observation; ``request`` is the decision it
        faces (``None`` when it has none now: the actions are then all zero); ``view``
        is ``battle.view(side)`` when the caller has it already."""
        if view is None:
            view = battle.view(side)
        shown = {entry["id"]: entry for entry in view.get("pieces", []) if "id" in entry}
        engaged = {one for pair in view.get("engagements", []) for one in pair}
        actor = self._actor(request, side) if request is not None else None
        actor_pieces = set(self._members.get(actor, ())) if actor is not None else set()
        planes = np.zeros((len(PLANES), GRID, GRID), dtype=np.float32)
        planes[6:] = self._terrain
        pieces = np.zeros(self.layout.shapes["pieces"], dtype=np.float32)
        units = {entry.get("id"): entry for entry in view.get("units", [])}
        for pid, entry in shown.items():
            row_index = self._row.get(pid)
            if row_index is None:
                continue
            fighting_in = pid in engaged or entry.get("unit") in engaged  # (units engage)
            self._piece_row(
                pieces[row_index], planes, entry, side, fighting_in, pid in actor_pieces
            )
            owner = units.get(pid) or units.get(entry.get("unit"))
            if owner is not None:
                for field in self._unit_fields:
                    field.write(pieces[row_index], owner.get(field.key))
        return {
            "planes": planes,
            "pieces": np.clip(pieces, -LIMIT, LIMIT),
            "globals": self._globals(view, side, request, pieces, actor, shown),
            "actions": self._actions(request, side, shown),
        }

    def mask(self, request: Choose | None) -> NDArray[np.int8]:
        """1 for every action that is an option of ``request`` (all 0 without one)."""
        out = np.zeros(self.max_actions, dtype=np.int8)
        if request is not None:
            out[: self.fits(request)] = 1
        return out

    def fits(self, request: Choose) -> int:
        """How many options ``request`` has; more than :attr:`max_actions` is an error."""
        count = len(request.options)
        if count > self.max_actions:
            raise ActionSpaceError(
                f"a decision of side '{request.side}' ({request.reason.id}) has {count} "
                f"options; the action space of {self.scenario.ruleset} holds "
                f"{self.max_actions} (pass max_actions={count} or more)"
            )
        return count

    def _piece_row(
        self,
        row: NDArray[np.float32],
        planes: NDArray[np.float32],
        entry: Mapping[str, Any],
        side: str,
        engaged: bool,
        acting: bool,
    ) -> None:
        own = entry.get("side") == side
        x, y = float(entry.get("x", 0.0)), float(entry.get("y", 0.0))
        presence = entry.get("presence")
        fighting = presence == "in_play"
        down = presence == "down"
        row[:11] = (
            1.0,
            float(own),
            float(not own),
            x / self.width,
            y / self.height,
            float(entry.get("diameter", 0.0)),
            float(fighting),
            float(down),
            float(entry.get("posture") == "prone"),
            float(engaged),
            float(acting),
        )
        for field in self._piece_fields:
            field.write(row, entry.get(field.key))
        cell_row, cell_col = self._cell(x, y)
        channel = (0 if own else 2) + (1 if down else 0)
        if fighting or down:
            planes[channel, cell_row, cell_col] += 1.0
        if engaged:
            planes[4, cell_row, cell_col] = 1.0
        if acting:
            planes[5, cell_row, cell_col] = 1.0

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        col = min(GRID - 1, max(0, int(x / self.width * GRID)))
        row = min(GRID - 1, max(0, int(y / self.height * GRID)))
        return row, col

    def _globals(
        self,
        view: Mapping[str, Any],
        side: str,
        request: Choose | None,
        pieces: NDArray[np.float32],
        actor: str | None,
        shown: Mapping[str, Mapping[str, Any]],
    ) -> NDArray[np.float32]:
        out = np.zeros(len(self._globals_names), dtype=np.float32)
        limit = self.scenario.turn_limit or 0
        turn = float(view.get("turn", 0) or 0)
        out[0] = turn / limit if limit else turn
        own_total = sum(1 for pid in self.piece_ids if self._side_of.get(pid) == side)
        enemy_total = len(self.piece_ids) - own_total
        own_fighting = float(np.sum(pieces[:, 1] * pieces[:, 6]))
        enemy_seen = float(np.sum(pieces[:, 2] * pieces[:, 6]))
        out[4] = own_fighting / own_total if own_total else 0.0
        out[5] = enemy_seen / enemy_total if enemy_total else 0.0
        place = self._place(actor, shown) if actor is not None else None
        if place is not None:
            out[6], out[7], out[8] = 1.0, place[0], place[1]
        at = 9
        if side in self.sides:
            out[at + self.sides.index(side)] = 1.0
        at += len(self.sides)
        if request is not None:
            out[1] = 1.0
            out[2] = len(request.options) / self.max_actions
            out[3] = float(request.sealed)
            out[at + bucket(request.reason.id, KIND_BUCKETS)] = 1.0
        return out

    def _actions(
        self, request: Choose | None, side: str, shown: Mapping[str, Mapping[str, Any]]
    ) -> NDArray[np.float32]:
        out = np.zeros((self.max_actions, len(self._action_names)), dtype=np.float32)
        if request is None:
            return out
        count = self.fits(request)
        worths = self._worths(request) if self.forecasts else ()
        forms = self.forms(request)
        labels_at = 14
        numbers_at = labels_at + KIND_BUCKETS
        for index in range(count):
            option = request.options[index]
            row = out[index]
            row[0] = 1.0
            row[1] = float(option == request.default)
            row[2] = float(request.cost(option))
            worth = worths[index] if worths else None
            if worth is not None:
                row[3], row[4] = 1.0, float(worth)
            form = forms[index]
            if isinstance(form, dict) and _number(form.get("x")) and _number(form.get("y")):
                row[5], row[6], row[7] = 1.0, form["x"] / self.width, form["y"] / self.height
            label = request.label(option)
            friend, enemy = self._named(form, label, side)
            for at, named in ((8, friend), (11, enemy)):
                place = self._place(named, shown) if named is not None else None
                if place is not None:
                    row[at], row[at + 1], row[at + 2] = 1.0, place[0], place[1]
            kind = label.id if label is not None else _word(form)
            row[labels_at + bucket(kind, KIND_BUCKETS)] = 1.0
            if isinstance(form, dict):
                for key, value in form.items():
                    if key not in ("x", "y") and _number(value):
                        row[numbers_at + bucket(key, NUMBER_BUCKETS)] += value / self.span
        return np.clip(out, -LIMIT, LIMIT)

    def forms(self, request: Choose) -> list[Any]:
        """The JSON forms of the decision's options (made once per decision)."""
        known = self._forms
        if known is not None and known[0] is request:
            return known[1]
        made = [to_json(option) for option in request.options]
        self._forms = (request, made)
        return made

    def _worths(self, request: Choose) -> tuple[Fraction | None, ...]:
        """Each option's worth by the rules' exact odds, as the heuristic bot weighs it."""
        if self._cache is None:
            from kubik.bots import HeuristicBot

            self._cache = HeuristicBot()
        values: tuple[Fraction | None, ...] = self._cache.values(request)
        return values

    # -- who and where ------------------------------------------------------------

    def _ids_in(self, value: Any) -> Iterator[str]:
        """The units and models a JSON form or a message names, in order."""
        if isinstance(value, str):
            if value in self._side_of:
                yield value
        elif isinstance(value, Message):
            named = self._by_name.get(value)
            if named is not None:
                yield named
            else:
                for _, inner in value.params:
                    yield from self._ids_in(inner)
        elif isinstance(value, dict):
            for key in sorted(value):
                yield from self._ids_in(value[key])
        elif isinstance(value, list | tuple):
            for item in value:
                yield from self._ids_in(item)

    def _named(self, form: Any, label: Message | None, side: str) -> tuple[str | None, str | None]:
        """The first friend and the first enemy an option names (its form, then its label)."""
        friend: str | None = None
        enemy: str | None = None
        for found in (*self._ids_in(form), *self._ids_in(label)):
            if self._side_of.get(found) == side:
                friend = friend or found
            else:
                enemy = enemy or found
        return friend, enemy

    def _actor(self, request: Choose, side: str) -> str | None:
        """The unit or model a decision is about: the first of the deciding side its
        reason names (else the first it names at all)."""
        named = list(self._ids_in(request.reason))
        own = [n for n in named if self._side_of.get(n) == side]
        first = own or named
        return first[0] if first else None

    def _place(
        self, named: str, shown: Mapping[str, Mapping[str, Any]]
    ) -> tuple[float, float] | None:
        """Where a unit (the middle of its models) or a model stands, on the table's
        scale, as far as the side sees it (``None``: nowhere it can see)."""
        xs: list[float] = []
        ys: list[float] = []
        for pid in self._members.get(named, ()):
            entry = shown.get(pid)
            if entry is not None and _number(entry.get("x")) and _number(entry.get("y")):
                xs.append(float(entry["x"]))
                ys.append(float(entry["y"]))
        if not xs:
            return None
        return sum(xs) / len(xs) / self.width, sum(ys) / len(ys) / self.height


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _word(form: Any) -> str:
    """The text an option without a label is known by (its JSON form)."""
    return canonical_json(form)


__all__ = [
    "GRID",
    "KIND_BUCKETS",
    "LIMIT",
    "NUMBER_BUCKETS",
    "PIECE_BASE",
    "PLANES",
    "WORD_BUCKETS",
    "Encoder",
    "Layout",
    "bucket",
    "fresh_battle",
]
