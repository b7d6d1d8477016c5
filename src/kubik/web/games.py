"""The web table's games: live sessions, their secret tokens, and the referee's checks.

Every game is a :class:`~kubik.game.session.GameSession` saved in the SQLite store
as it is played (:class:`~kubik.game.store.SaveKeeper`), so the links keep working
after a restart or days later: a game not in memory is rebuilt from its save. Each
side has its own secret token and spectators share one; the store keeps only their
SHA-256 digests. The server is the authority: an answer is checked for the token's
side (403), for its sequence number (409) and by the session itself (422), in that
order, and a refused answer changes nothing.

All calls run on the server's one worker thread, one at a time, so a game never sees two
answers at once.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubik.bots.registry import BOT_NAMES, bot_for
from kubik.core.errors import KubikError
from kubik.engine.log import Answer, ChoiceAnswer, ChoiceOrigin, RollAnswer
from kubik.engine.requests import Choose, Roll
from kubik.game.errors import StoreError
from kubik.game.record import GameRecord
from kubik.game.scenario import Scenario, ScenarioInfo, list_scenarios, load_scenario
from kubik.game.session import HUMAN, Controller, DiceMode, GameSession
from kubik.game.store import GameStore, SaveKeeper
from kubik.web.forecasts import ForecastOdds

#: Games kept in memory at most (beyond them, unwatched ones are rebuilt from their saves).
LIVE_GAMES = 256
#: Seconds a listing of the scenarios is trusted (a user's new file shows up after it).
SCENARIOS_FRESH = 10.0
#: The store's name of web game ``ID``.
PREFIX = "web-"

_TOKENS = """
CREATE TABLE IF NOT EXISTS web_tokens (
    digest TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    side TEXT NOT NULL
);
"""


class Refusal(Exception):
    """A request the referee refuses: the HTTP status, the field at fault and why."""

    def __init__(self, status: int, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.field = field


class WebKeeper(SaveKeeper):
    """Keeps a web game's save current: the answers one request confirms (a person's
    answer and the dice and bot decisions it sets off) are written in one transaction
    before the request is answered, so nothing a player was told is ever lost."""

    def answered(self, index: int, answer: Answer) -> None:
        self.pending = {i: a for i, a in self.pending.items() if i < index}
        self.pending[index] = answer

    def truncated(self, length: int) -> None:
        self.pending = {i: a for i, a in self.pending.items() if i < length}
        self.cut = length if self.cut is None else min(self.cut, length)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class LiveGame:
    """A game in memory: its session, who asked for an undo, and who is watching."""

    id: str
    session: GameSession
    keeper: WebKeeper
    version: int = 0  # bumped on every change (answers and undos alike)
    epoch: int = 0  # bumped on every undo: the log may have lost entries
    undo_asked: dict[str, int] = field(default_factory=dict)  # side → seq asked at
    watchers: list[Callable[[int], None]] = field(default_factory=list)  # told each version
    odds: ForecastOdds = field(default_factory=ForecastOdds)  # the server's, shared
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    #: answer number → the side whose open decision it was, for the decisions people took
    #: here since the game was last loaded (a sealed one is never taken back alone: the
    #: other side may have seen it revealed)
    deciders: dict[int, str] = field(default_factory=dict)

    @property
    def seq(self) -> int:
        """How many answers the game has had (the contract's ``seq``)."""
        return len(self.session.answers)

    @property
    def humans(self) -> list[str]:
        """The sides people play (in scenario order)."""
        return [s for s, c in self.session.controllers.items() if c == HUMAN]

    def answerer(self) -> str | None:
        """The side that must answer the pending request (``None``: any player may,
        a roll at the table whose roller is not a side; or nothing is pending)."""
        request = self.session.pending
        if isinstance(request, Choose):
            return request.side
        if isinstance(request, Roll) and request.roller in self.session.scenario.side_ids:
            return request.roller
        return None

    def taker_back(self) -> str | None:
        """The side that may take back its last decision now, without anyone's consent:
        the last decision a person took was that side's and no die was rolled since, so
        taking it back reveals nothing random (``None``: no such decision)."""
        key = ("take_back", self.version)
        if key not in self.memo:
            self.memo[key] = self._taker_back()
        found: str | None = self.memo[key]
        return found

    def _taker_back(self) -> str | None:
        session = self.session
        if session.finished:
            return None
        for index in range(len(session.answers) - 1, -1, -1):
            answer = session.answers[index]
            if isinstance(answer, RollAnswer):
                return None  # dice rolled since: an undo to that roll needs consent
            if isinstance(answer, ChoiceAnswer) and answer.origin is ChoiceOrigin.HUMAN:
                return self.deciders.get(index)
        return None

    def decided(self, request: Choose) -> None:
        """Note that a person is answering ``request``, the next answer (before it is given)."""
        if not request.sealed:
            self.deciders[self.seq] = request.side

    def changed(self, *, rebuilt: bool = False) -> None:
        """Save what the game was told and tell every watcher it changed."""
        self.keeper.flush()
        self.version += 1
        if rebuilt:
            self.epoch += 1
        self.memo.clear()
        self.deciders = {i: side for i, side in self.deciders.items() if i < self.seq}
        for tell in tuple(self.watchers):  # a stream may end meanwhile, on the event loop
            tell(self.version)


class WebGames:
    """Every web game of one store file: create, find by token, answer, undo."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.store = GameStore(path)
        self._db = sqlite3.connect(self.store.path, isolation_level=None, timeout=5)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_TOKENS)
        self.live: OrderedDict[str, LiveGame] = OrderedDict()  # least recently used first
        self.odds = ForecastOdds()  # every game's options' odds, shared
        self._listed: tuple[float, list[ScenarioInfo]] | None = None

    def close(self) -> None:
        """Write what is waiting and close the store."""
        for game in self.live.values():
            game.keeper.flush()
        self._db.close()
        self.store.close()

    # -- creating and finding games -------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        """Every playable scenario, listed again once the last listing is
        :data:`SCENARIOS_FRESH` seconds old (listing reads and parses every file)."""
        now = time.monotonic()
        if self._listed is None or now - self._listed[0] > SCENARIOS_FRESH:
            self._listed = (now, [info for info in list_scenarios() if info.error is None])
        return self._listed[1]

    def scenario(self, name: str) -> Scenario:
        """A built-in or user scenario by id (never a path: the web names ids only)."""
        known = [info.id for info in self.scenarios()]
        if name not in known:
            raise Refusal(
                422, f"scenario: no scenario '{name}'; known: {', '.join(known)}", "scenario"
            )
        try:
            return load_scenario(name)
        except KubikError as error:
            raise Refusal(422, f"scenario: {error.text()}", "scenario") from None

    def create(
        self,
        scenario: str | None,
        seed: int | None,
        dice: str,
        bots: Mapping[str, str],
        record: Mapping[str, Any] | None = None,
        lang: str = "en",
    ) -> dict[str, Any]:
        """A new game (or a saved record loaded as a new game): its id and tokens."""
        if record is not None:
            session = self._from_record(record)
        else:
            if scenario is None:
                raise Refusal(422, "scenario: missing; give a scenario id or a record", "scenario")
            chosen = self.scenario(scenario)
            game_seed = secrets.randbits(31) if seed is None else seed
            session = GameSession(
                chosen,
                game_seed,
                controllers=self._controllers(chosen, game_seed, bots),
                dice=DiceMode(dice),
                lang=lang,
            )
        game_id = secrets.token_hex(8)
        name = PREFIX + game_id
        try:
            self.store.save(name, session.record)
            keeper = WebKeeper(self.store, name)
            session.subscribe(keeper)
            session.advance()
            keeper.flush()
        except KubikError as error:
            raise Refusal(
                422, error.text(), "record" if record is not None else "scenario"
            ) from None
        tokens = {side: secrets.token_urlsafe(18) for side in session.scenario.side_ids}
        spectator = secrets.token_urlsafe(18)
        rows = [(_digest(t), game_id, side) for side, t in tokens.items()]
        rows.append((_digest(spectator), game_id, ""))
        with self._db:
            self._db.executemany("INSERT INTO web_tokens VALUES (?, ?, ?)", rows)
        self._keep(LiveGame(game_id, session, keeper, odds=self.odds))
        return {"game": game_id, "sides": tokens, "spectator": spectator}

    def _controllers(
        self, scenario: Scenario, seed: int, bots: Mapping[str, str]
    ) -> dict[str, Controller]:
        controllers: dict[str, Controller] = {side: HUMAN for side in scenario.side_ids}
        for side, name in bots.items():
            if side not in controllers:
                sides = ", ".join(scenario.side_ids)
                raise Refusal(422, f"bots.{side}: no such side; sides: {sides}", f"bots.{side}")
            if name not in BOT_NAMES:
                allowed = ", ".join(BOT_NAMES)
                raise Refusal(422, f"bots.{side}: no bot '{name}'; bots: {allowed}", f"bots.{side}")
            controllers[side] = bot_for(name, seed, side)
        return controllers

    @staticmethod
    def _from_record(data: Mapping[str, Any]) -> GameSession:
        try:
            record = GameRecord.from_json(data)
            bots = {
                side: bot_for(kind, record.seed, side)
                for side, _ in record.controllers
                if (kind := record.bot_name(side)) in BOT_NAMES
            }
            return GameSession.from_record(record, bots)
        except KubikError as error:
            raise Refusal(422, f"record: {error.text()}", "record") from None

    def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` (rebuilt from its save if it is not in memory)."""
        live = self.live.get(game_id)
        if live is not None:
            self.live.move_to_end(game_id)
            return live
        name = PREFIX + game_id
        try:
            if not self.store.exists(name):
                raise Refusal(404, f"game: no game '{game_id}'", "game")
            record = self.store.load(name)
        except StoreError as error:
            raise Refusal(404, f"game: {error.text()}", "game") from None
        session = self._from_record(record.to_json())
        keeper = WebKeeper(self.store, name)
        session.subscribe(keeper)
        session.advance()
        keeper.flush()
        live = LiveGame(game_id, session, keeper, odds=self.odds)
        self._keep(live)
        return live

    def _keep(self, game: LiveGame) -> None:
        """Hold ``game`` in memory; past :data:`LIVE_GAMES`, games nobody watches are let
        go, least recently used first (their saves are current: they come back on demand)."""
        self.live[game.id] = game
        for old in list(self.live.values()):
            if len(self.live) <= LIVE_GAMES:
                break
            if old is not game and not old.watchers and old.keeper.flush():
                del self.live[old.id]

    def side_of(self, game_id: str, token: str | None) -> tuple[LiveGame, str | None]:
        """The game and the side ``token`` plays (``None``: the spectators' token)."""
        if not token:
            raise Refusal(401, "token: missing; send 'Authorization: Bearer TOKEN'", "token")
        row = self._db.execute(
            "SELECT game, side FROM web_tokens WHERE digest = ?", (_digest(token),)
        ).fetchone()
        if row is None or row[0] != game_id:
            self.get(game_id)  # an unknown game is a 404, a wrong token a 401
            raise Refusal(401, "token: not a token of this game", "token")
        return self.get(game_id), (str(row[1]) or None)

    # -- acting ----------------------------------------------------------------

    @staticmethod
    def _check_turn(game: LiveGame, side: str | None, seq: int) -> None:
        if side is None:
            raise Refusal(403, "token: a spectator may not answer", "token")
        if seq != game.seq:
            raise Refusal(409, f"seq: {seq} is stale; the game is at {game.seq}", "seq")
        if game.session.pending is None:
            raise Refusal(409, "seq: nothing is pending; the game is over", "seq")
        who = game.answerer()
        if who is not None and who != side:
            raise Refusal(403, f"token: the game waits for side '{who}', not '{side}'", "token")

    def answer(self, game: LiveGame, side: str | None, seq: int, answer: Any) -> None:
        """Answer the pending request for ``side``; a refused answer changes nothing."""
        self._check_turn(game, side, seq)
        session = game.session
        request = session.pending
        try:
            if isinstance(request, Roll):
                if not isinstance(answer, list) or not all(_is_int(v) for v in answer):
                    dice = ", ".join(d.name for d in request.dice)
                    raise Refusal(
                        422, f"answer: give the values rolled as a list ({dice})", "answer"
                    )
                session.roll(answer)
            elif isinstance(request, Choose):
                option = _option(request, answer)
                game.decided(request)
                session.answer(option)
            session.advance()
        except KubikError as error:
            raise Refusal(422, f"answer: {error.text(session.lang)}", "answer") from None
        game.undo_asked.clear()
        game.changed()

    def typed(self, game: LiveGame, side: str | None, seq: int, text: str) -> None:
        """Answer the pending decision by typing what was done at the table."""
        self._check_turn(game, side, seq)
        request = game.session.pending
        try:
            if isinstance(request, Choose):
                game.decided(request)
            game.session.type_answer(text)
            game.session.advance()
        except KubikError as error:
            raise Refusal(422, f"text: {error.text(game.session.lang)}", "text") from None
        game.undo_asked.clear()
        game.changed()

    def undo(self, game: LiveGame, side: str | None, seq: int) -> dict[str, Any]:
        """Ask to go back to before the last roll; done once every human side asked
        at this ``seq`` (one person alone needs nobody's consent)."""
        if side is None:
            raise Refusal(403, "token: a spectator may not undo", "token")
        if seq != game.seq:
            raise Refusal(409, f"seq: {seq} is stale; the game is at {game.seq}", "seq")
        if not game.session.answers:
            raise Refusal(422, "undo: nothing to undo", "undo")
        game.undo_asked = {s: n for s, n in game.undo_asked.items() if n == seq}
        game.undo_asked[side] = seq
        waiting = [s for s in game.humans if s not in game.undo_asked]
        if waiting:
            game.changed()
            return {"undone": 0, "waiting_for": waiting}
        try:
            dropped = game.session.undo()
            game.session.advance()
        except KubikError as error:
            raise Refusal(422, f"undo: {error.text(game.session.lang)}", "undo") from None
        game.undo_asked.clear()
        game.changed(rebuilt=True)
        return {"undone": dropped, "waiting_for": []}

    def take_back(self, game: LiveGame, side: str | None, seq: int) -> dict[str, Any]:
        """Take back ``side``'s last decision, when no die was rolled since it
        (:meth:`LiveGame.taker_back`): no consent is asked, as nothing random was revealed;
        the bots' decisions after it are taken again."""
        if side is None:
            raise Refusal(403, "token: a spectator may not undo", "token")
        if seq != game.seq:
            raise Refusal(409, f"seq: {seq} is stale; the game is at {game.seq}", "seq")
        if game.taker_back() != side:
            raise Refusal(
                422,
                "to: no decision of yours to take back alone (dice were rolled since, the last "
                "decision is the other side's or a sealed bid, or it was taken before the game "
                "was loaded); undo to the last roll with the other side's consent",
                "to",
            )
        try:
            dropped = game.session.undo_decision()
            game.session.advance()
        except KubikError as error:
            raise Refusal(422, f"to: {error.text(game.session.lang)}", "to") from None
        game.undo_asked.clear()
        game.changed(rebuilt=True)
        return {"undone": dropped, "waiting_for": []}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _option(request: Choose, answer: Any) -> Hashable:
    """The option a 0-based index names (422 naming ``answer`` otherwise)."""
    last = len(request.options) - 1
    if not _is_int(answer) or not 0 <= answer <= last:
        raise Refusal(
            422, f"answer: {answer!r} is not an option; give an index from 0 to {last}", "answer"
        )
    option: Hashable = request.options[answer]
    return option


__all__ = ["PREFIX", "LiveGame", "Refusal", "WebGames"]
