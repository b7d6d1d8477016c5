"""A game as one token may see it: the battle's per-side view, the pending request, the log.

What a side may know comes from the battle itself (:meth:`BattleGame.view`, the
per-side hook where hidden warriors are left out), and sealed decisions (secret
Fame bids) reach the log only when the session reveals them. The options of a
pending decision, with their labels and their exact odds, go only to the side that
decides: they may name what the other side cannot see. Odds are the rules' own
forecasts summarised by :func:`kubik.api.marginals` (:mod:`kubik.web.forecasts`), never a
copy, worked out in the odds process (:mod:`kubik.web.option_odds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from kubik.api.drawing import unit_markers
from kubik.api.words import option_text, roller_label, side_label, unit_labels
from kubik.engine.jsonify import to_json
from kubik.engine.log import ChoiceEntry, LogEntry
from kubik.engine.narration import entry_json
from kubik.engine.requests import Choose, Roll
from kubik.game.battle.battle import SPECTATOR, BattleGame
from kubik.game.session import GameSession
from kubik.table import Table
from kubik.text.i18n import render
from kubik.web.games import LiveGame
from kubik.web.waiting import order_key

#: The fields of a log entry a page shows (a decision's other options are left out:
#: they may name what the other side cannot see).
_LOG_FIELDS = ("type", "depth", "side", "roller", "dice", "values", "origin", "rules", "text")


def table_json(table: Table) -> dict[str, Any]:
    """The battlefield to scale: its size and every terrain feature's outline."""
    return _table_json(table)


@lru_cache(maxsize=32)
def _table_json(table: Table) -> dict[str, Any]:
    features = []
    for feature in table.features:
        shape = feature.shape
        line = not feature.is_area
        coords = shape.coords if line else shape.exterior.coords
        features.append(
            {
                "id": feature.id,
                "name": feature.name,
                "name_ru": feature.name_ru,
                "kind": feature.kind.value,
                "cover": feature.cover.value,
                "blocks_los": feature.blocks_los,
                "obstacle": feature.obstacle,
                "water": feature.water,
                "elevation": feature.elevation,
                "line": line,
                "points": [[round(x, 3), round(y, 3)] for x, y in coords],
            }
        )
    return {"width": table.width, "height": table.height, "features": features}


def battle_of(session: GameSession) -> BattleGame | None:
    """The session's battle, when its ruleset plays on the battle layer."""
    state = session.state
    return state if isinstance(state, BattleGame) else None


def visible_entries(
    entries: Sequence[LogEntry], session: GameSession, viewer: str | None = None
) -> list[int]:
    """The indices in the whole log of the entries ``viewer`` may read (a battle's
    :meth:`~kubik.game.battle.BattleGame.visible_to`), in order: ``viewer``'s own log."""
    battle = battle_of(session)
    if battle is None:
        return list(range(len(entries)))
    return [i for i, entry in enumerate(entries) if battle.visible_to(viewer, entry)]


def log_json(
    entries: Sequence[LogEntry],
    start: int,
    lang: str,
    session: GameSession,
    viewer: str | None = None,
    visible: Sequence[int] | None = None,
) -> list[Any]:
    """``viewer``'s own log (:func:`visible_entries`, or ``visible`` when known) from its
    entry ``start`` on, for a page. Entries are numbered in that log alone, so neither the
    numbers nor the length tell a side how many hidden events happened, or when."""
    names = session.side_names
    shown = visible_entries(entries, session, viewer) if visible is None else visible
    out = []
    for number, index in enumerate(shown[start:], start=start):
        entry = entries[index]
        full = entry_json(entry, lang, names)
        item = {key: full[key] for key in _LOG_FIELDS if key in full}
        item["index"] = number
        if isinstance(entry, ChoiceEntry):
            item["typed"] = entry.typed
        out.append(item)
    return out


def pending_json(game: LiveGame, side: str | None, lang: str) -> dict[str, Any] | None:
    """The request awaiting an answer: its kind, whose it is, and — for the side that
    answers — what the decision is about and its options with their labels and odds, or the
    dice to roll."""
    session = game.session
    request = session.pending
    if request is None:
        return None
    names = session.side_names
    answerer = game.answerer()
    deciding = isinstance(request, Choose) and side == request.side
    out: dict[str, Any] = {
        "kind": "roll" if isinstance(request, Roll) else "choose",
        "side": answerer,
        # what a decision is about may name what the other side cannot see: only the side
        # deciding reads it (a roll at the table is everyone's)
        "reason": render(request.reason, lang) if deciding or isinstance(request, Roll) else None,
        "yours": side is not None and answerer in (None, side),
    }
    if isinstance(request, Roll):
        out["dice"] = [d.name for d in request.dice]
        out["roller"] = request.roller
        rollers = session.roller_names
        out["roller_name"] = roller_label(request.roller, rollers, lang) if request.roller else ""
        return out
    out["side_name"] = side_label(request.side, names, lang)
    out["sealed"] = request.sealed
    if side != request.side:
        out["options"] = None
        return out
    out["options"] = [
        {
            "index": i,
            "label": option_text(request, option, lang),
            "value": to_json(option),
            "default": option == request.default,
        }
        for i, option in enumerate(request.options)
    ]
    out["entry"] = render(request.entry.hint, lang) if request.entry is not None else None
    out["order_key"] = order_key(request)  # the kind of decision a standing order names
    return out


def game_json(game: LiveGame, side: str | None, lang: str, since: int = 0) -> dict[str, Any]:
    """The whole game as ``side``'s token may see it (``None``: a spectator): worked out
    once per version of the game for each side (every spectator, every tab of a side and a
    stream's resync share it), the log from entry ``since`` added each time. The options'
    odds are not in it: they are worked out apart (:mod:`kubik.web.option_odds`)."""
    session = game.session
    viewer = side if side is not None else SPECTATOR  # a spectator sees what all sides see
    key = ("game", game.version, side, lang)
    if key not in game.memo:
        game.memo[key] = _game_json(game, side, viewer, lang)
    seen: dict[str, Any] = game.memo[key]
    visible_key = ("visible", game.version, viewer)
    if visible_key not in game.memo:
        game.memo[visible_key] = visible_entries(session.log, session, viewer)
    visible: list[int] = game.memo[visible_key]
    since = max(0, min(since, len(visible)))
    return {
        **seen,
        "log_start": since,
        "log_length": len(visible),  # this side's own log: hidden entries are not counted
        "log": log_json(session.log, since, lang, session, viewer, visible),
    }


def _game_json(game: LiveGame, side: str | None, viewer: str, lang: str) -> dict[str, Any]:
    """The game without its log, as ``side`` may see it."""
    session = game.session
    battle = battle_of(session)
    names = session.side_names
    pending = pending_json(game, side, lang)
    view = battle.view(viewer) if battle is not None else None
    request = session.pending
    return {
        "game": game.id,
        "scenario": session.scenario.id,
        "scenario_name": _scenario_name(session, lang),
        "ruleset": session.scenario.ruleset,
        "seq": game.seq,
        "version": game.version,
        "epoch": game.epoch,
        "you": side,
        "sides": [
            {"id": s, "name": render(names[s], lang), "human": s in game.humans}
            for s in session.scenario.side_ids
        ],
        "dice": session.dice_mode.value,
        "finished": session.finished,
        "result": session.result.to_json() if session.result else None,
        "turn": session.turn,
        "waiting_for": game.answerer() if request is not None else None,
        "pending": pending,
        "undo_asked": sorted(game.undo_asked),
        # the clock: seconds per decision, what then, and when the side waited on runs out
        "clock": None
        if game.clock is None
        else {**game.clock.to_json(), "side": game.waited[0], "deadline": game.deadline()},
        # this side may take back its last decision alone (no die rolled since)
        "take_back": side is not None and game.taker_back() == side,
        "table": table_json(battle.table) if battle is not None else None,
        "view": view,
        "roster": roster_json(session, view, lang),
        "reaches": reaches_json(battle, view, lang),
    }


def reaches_json(
    battle: BattleGame | None, view: dict[str, Any] | None, lang: str
) -> dict[str, list[dict[str, Any]]]:
    """How far each weapon of every unit this view shows reaches, by its rule module
    (:meth:`~kubik.game.battle.BattleGame.reaches`): the page draws them around the unit
    selected. ``weapon`` is ``None`` for a regiment's one missile weapon."""
    if battle is None or view is None:
        return {}
    shown = dict.fromkeys(piece["unit"] for piece in view.get("pieces", []))
    found = {}
    for unit in shown:
        reaches = battle.reaches(unit)
        if reaches:
            found[unit] = [
                {"weapon": None if name is None else render(name, lang), "reach": round(r, 2)}
                for name, r in reaches
            ]
    return found


#: A unit's fields in the scenario that say where it starts (the board shows where it is).
_PLACING = frozenset({"id", "side", "name", "name_ru", "name_ru_cases", "gender_ru"})
_PLACING |= {"position", "front", "positions", "models_at", "facing"}


def roster_json(
    session: GameSession, view: dict[str, Any] | None, lang: str
) -> dict[str, dict[str, Any]]:
    """The unit cards of the units this view shows: name, the short label the map draws,
    its state in words (markers, morale, wounds: what the terminal's map legend says), and
    the profile, weapons and gear the scenario gives them (a unit hidden from this side
    has no card either)."""
    if view is None:
        return {}
    shown = {piece["unit"] for piece in view.get("pieces", [])}
    shown |= {unit["id"] for unit in view.get("units", [])}
    cards = {}
    scenario = session.scenario
    rows = {str(row["id"]): row for row in view.get("units", ())}
    labels = unit_labels([(u.id, u.side) for u in scenario.units], scenario.side_ids)
    for spec in session.scenario.units:
        if spec.id not in shown:
            continue
        data = spec.data
        name = data.get("name_ru") if lang == "ru" and data.get("name_ru") else data.get("name")
        cards[spec.id] = {
            "name": str(name or spec.id),
            "label": labels[spec.id],
            "side": spec.side,
            "state": list(unit_markers(rows.get(spec.id, {}), scenario.ruleset, lang)),
            "profile": {k: v for k, v in data.items() if k not in _PLACING},
        }
    return cards


def _scenario_name(session: GameSession, lang: str) -> str:
    scenario = session.scenario
    return scenario.name_ru if lang == "ru" and scenario.name_ru else scenario.name


__all__ = [
    "battle_of",
    "game_json",
    "log_json",
    "pending_json",
    "reaches_json",
    "table_json",
    "visible_entries",
]
