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

import base64
import binascii
import hashlib
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from contextlib import suppress
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
from kubik.web.saving import Checkpointer
from kubik.web.waiting import (
    CLOCK_MAX,
    CLOCK_MIN,
    CLOCK_THEN,
    Clock,
    Notifier,
    Settings,
    check_hook,
    check_order,
    order_key,
    ordered_option,
)

#: Games kept in memory at most (beyond them, unwatched ones are rebuilt from their saves).
LIVE_GAMES = 256
#: Seconds a listing of the scenarios is trusted (a user's new file shows up after it).
SCENARIOS_FRESH = 10.0
#: Seconds an event stream's ticket may be used to open a stream.
TICKET_SECONDS = 60.0
#: Tokens whose game and side are kept in memory (each is read from the store once).
TOKENS_KEPT = 100_000
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
    before the request is answered, so nothing a player was told is lost when the server
    crashes (the disk is synced in the background: :mod:`kubik.web.saving`)."""

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
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    #: answer number → the side whose open decision it was, for the decisions people took
    #: here since the game was last loaded (a sealed one is never taken back alone: the
    #: other side may have seen it revealed)
    deciders: dict[int, str] = field(default_factory=dict)
    clock: Clock | None = None  # seconds a side may take over a decision, and what then
    waited: tuple[str | None, int] = (None, -1)  # the side waited on, from which answer
    waited_since: float = field(default_factory=time.time)  # since when (wall clock)
    #: told after every change (standing orders, notifications); ``rebuilt``: an undo
    on_change: Callable[[LiveGame, bool], None] | None = None

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
        if self.on_change is not None:
            self.on_change(self, rebuilt)

    def odds_ready(self, version: int) -> None:
        """Tell the pages watching that odds they were sent without are ready (when the
        game is still at ``version``): they ask for the game again and find them."""
        if version == self.version:
            self.version += 1
            # the game itself did not change: what was worked out for it is kept, under the
            # new version (a page's game names its version)
            kept = {}
            for key, value in self.memo.items():
                if len(key) > 1 and key[1] == version:
                    if key[0] == "game":
                        value = {**value, "version": self.version}
                    kept[(key[0], self.version, *key[2:])] = value
            self.memo = kept
            for tell in tuple(self.watchers):
                tell(self.version)

    def deadline(self) -> float | None:
        """When the side waited on runs out of time (wall clock; ``None``: no clock, or
        nobody's decision is waited for)."""
        if self.clock is None or self.session.finished or self.waited[0] is None:
            return None
        return self.waited_since + self.clock.per_answer


class WebGames:
    """Every web game of one store file: create, find by token, answer, undo."""

    def __init__(
        self,
        path: Path | str | None = None,
        clock_min: float = CLOCK_MIN,
        allow_local_webhooks: bool = False,
    ) -> None:
        self.store = GameStore(path, process_safe=True)  # synced by the checkpointer
        self._db = sqlite3.connect(self.store.path, isolation_level=None, timeout=5)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._db.executescript(_TOKENS)
        self.checkpointer = Checkpointer(self.store.path)
        #: token digest → (game, side): tokens never change, so each is read once
        self._tokens: dict[str, tuple[str, str]] = {}
        self.live: OrderedDict[str, LiveGame] = OrderedDict()  # least recently used first
        self._listed: tuple[float, list[ScenarioInfo]] | None = None
        #: event stream tickets: ticket → (game, side, when it stops opening streams)
        self._tickets: dict[str, tuple[str, str | None, float]] = {}
        self.settings = Settings(self._db)
        self.notifier = Notifier(allow_local_webhooks)
        self.clock_min = clock_min
        for (clocked,) in self._db.execute(
            "SELECT game FROM web_settings WHERE key = 'clock'"
        ).fetchall():  # a game on a clock is in memory, its clock running
            with suppress(Refusal):
                self.get(str(clocked))

    def close(self) -> None:
        """Write what is waiting and close the store."""
        for game in self.live.values():
            game.keeper.flush()
        self.notifier.close()
        self._db.close()
        self.store.close()
        self.checkpointer.close()

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
        clock: Mapping[str, Any] | None = None,
        rosters: Mapping[str, tuple[str, str]] | None = None,
    ) -> dict[str, Any]:
        """A new game (or a saved record loaded as a new game): its id and tokens;
        ``rosters``: side → (file name, base64 bytes) of a BattleScribe roster."""
        timer = self._clock(clock)
        if record is not None:
            session = self._from_record(record)
        else:
            if scenario is None:
                raise Refusal(422, "scenario: missing; give a scenario id or a record", "scenario")
            chosen = self.scenario(scenario)
            for side, (file_name, encoded) in (rosters or {}).items():
                chosen = _with_roster(chosen, side, file_name, encoded)
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
        self._remember_tokens({digest: (game, side) for digest, game, side in rows})
        self.settings.set_clock(game_id, timer)
        live = LiveGame(game_id, session, keeper, clock=timer)
        self._watch(live)
        self._keep(live)
        return {"game": game_id, "sides": tokens, "spectator": spectator}

    def _clock(self, clock: Mapping[str, Any] | None) -> Clock | None:
        if clock is None:
            return None
        seconds, then = clock.get("per_answer"), clock.get("then", "default")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise Refusal(422, "clock.per_answer: give the seconds a side may take", "clock")
        if not self.clock_min <= seconds <= CLOCK_MAX:
            raise Refusal(
                422,
                f"clock.per_answer: from {self.clock_min:g} s to {CLOCK_MAX} s (30 days)",
                "clock.per_answer",
            )
        if then not in CLOCK_THEN or set(clock) - {"per_answer", "then"}:
            raise Refusal(
                422, "clock: give per_answer and then: default (the rules' default)", "clock"
            )
        return Clock(float(seconds), str(then))

    def _watch(self, game: LiveGame) -> None:
        """Start the game's clock and its standing orders and notifications."""
        game.on_change = self._changed
        game.waited = (game.answerer() if game.session.pending else None, game.seq)
        game.waited_since = time.time()
        if self._apply_orders(game):
            game.changed()

    def _changed(self, game: LiveGame, rebuilt: bool) -> None:
        """After every change: standing orders (never right after an undo: it would take
        again what was just taken back), then the clock and the notifications."""
        if not rebuilt and self._apply_orders(game):
            game.changed()  # tells the watchers again, and comes back here
            return
        who = game.answerer() if game.session.pending is not None else None
        if game.session.finished:
            if game.waited != (None, -2):
                game.waited = (None, -2)
                for side in game.humans:
                    self._notify(game, side, "finished")
            return
        if who != game.waited[0]:
            game.waited = (who, game.seq)
            game.waited_since = time.time()
            if who is not None and who in game.humans:
                self._notify(game, who, "your_turn")

    def _notify(self, game: LiveGame, side: str, event: str) -> None:
        url = self.settings.hook(game.id, side)
        if url is not None:
            body = {"event": event, "game": game.id, "side": side, "seq": game.seq}
            body["scenario"] = game.session.scenario.id
            self.notifier.send(url, body)

    def _apply_orders(self, game: LiveGame) -> int:
        """Answer every pending decision a standing order covers; how many were answered."""
        answered = 0
        session = game.session
        while isinstance(request := session.pending, Choose) and request.side in game.humans:
            order = self.settings.orders(game.id, request.side).get(order_key(request))
            option = None if order is None else ordered_option(request, order)
            if option is None:
                break
            game.decided(request)
            session.answer(option)
            session.advance()
            answered += 1
        return answered

    def expire(self, now: float | None = None) -> int:
        """Take the rules' default for every side whose clock ran out; how many were taken."""
        taken = 0
        moment = time.time() if now is None else now
        for game in list(self.live.values()):
            deadline = game.deadline()
            request = game.session.pending
            if deadline is None or moment < deadline or not isinstance(request, Choose):
                continue
            option = request.default if request.default is not None else request.options[0]
            game.decided(request)
            game.session.answer(option)
            game.session.advance()
            game.undo_asked.clear()
            game.changed()
            taken += 1
        return taken

    def odds_ready(self, game_id: str, version: int) -> None:
        """The odds a page of ``game_id`` (at ``version``) went without are ready."""
        game = self.live.get(game_id)
        if game is not None:
            game.odds_ready(version)

    def side_settings(
        self, game: LiveGame, side: str | None, change: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """This side's webhook and standing orders (changed by ``change``: ``webhook``: a
        URL or null; ``orders``: kind of decision → an order, or null to drop it)."""
        if side is None:
            raise Refusal(403, "token: a spectator has no settings", "token")
        if change:
            if "webhook" in change:
                url = change["webhook"]
                problem = "give a URL or null" if not isinstance(url, str | None) else None
                allow_local = self.notifier.allow_local
                problem = problem or (
                    check_hook(url, allow_local) if isinstance(url, str) else None
                )
                if problem:
                    raise Refusal(422, f"webhook: {problem}", "webhook")
                self.settings.set_hook(game.id, side, url)
            if "orders" in change:
                orders = self.settings.orders(game.id, side)
                for key, order in dict(change["orders"] or {}).items():
                    if order is None:
                        orders.pop(key, None)
                        continue
                    problem = check_order(order)
                    if problem:
                        raise Refusal(422, f"orders.{key}: {problem}", f"orders.{key}")
                    orders[key] = order
                self.settings.set_orders(game.id, side, orders)
                game.changed()  # an order for the decision waiting now is taken at once
        hook = self.settings.hook(game.id, side)
        return {
            "webhook": hook,
            # why the last call of the webhook failed (its address refused, no answer …)
            "webhook_problem": None if hook is None else self.notifier.problems.get(hook),
            "orders": self.settings.orders(game.id, side),
            "clock": game.clock.to_json() if game.clock else None,
        }

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
        live = LiveGame(game_id, session, keeper, clock=self.settings.clock(game_id))
        self._watch(live)
        self._keep(live)
        return live

    def _keep(self, game: LiveGame) -> None:
        """Hold ``game`` in memory; past :data:`LIVE_GAMES`, games nobody watches are let
        go, least recently used first (their saves are current: they come back on demand)."""
        self.live[game.id] = game
        for old in list(self.live.values()):
            if len(self.live) <= LIVE_GAMES:
                break
            clocked = old.clock is not None and not old.session.finished
            if old is not game and not old.watchers and not clocked and old.keeper.flush():
                del self.live[old.id]

    def side_of(self, game_id: str, token: str | None) -> tuple[LiveGame, str | None]:
        """The game and the side ``token`` plays (``None``: the spectators' token)."""
        if not token:
            raise Refusal(401, "token: missing; send 'Authorization: Bearer TOKEN'", "token")
        digest = _digest(token)
        row = self._tokens.get(digest)
        if row is None:
            found = self._db.execute(
                "SELECT game, side FROM web_tokens WHERE digest = ?", (digest,)
            ).fetchone()
            if found is not None:
                row = (str(found[0]), str(found[1]))
                self._remember_tokens({digest: row})
        if row is None or row[0] != game_id:
            self.get(game_id)  # an unknown game is a 404, a wrong token a 401
            raise Refusal(401, "token: not a token of this game", "token")
        return self.get(game_id), (str(row[1]) or None)

    def _remember_tokens(self, rows: Mapping[str, tuple[str, str]]) -> None:
        if len(self._tokens) > TOKENS_KEPT:
            self._tokens.clear()
        self._tokens.update(rows)

    def ticket(self, game_id: str, token: str | None) -> dict[str, Any]:
        """A short-lived ticket that opens ``token``'s event stream of the game: a
        browser's EventSource sends no header, and a token in a URL would stay in every
        proxy's log, where a used-up ticket is worth nothing."""
        _, side = self.side_of(game_id, token)
        now = time.monotonic()
        self._tickets = {t: held for t, held in self._tickets.items() if held[2] > now}
        ticket = secrets.token_urlsafe(18)
        self._tickets[ticket] = (game_id, side, now + TICKET_SECONDS)
        return {"ticket": ticket, "expires_in": TICKET_SECONDS}

    def by_ticket(self, game_id: str, ticket: str) -> tuple[LiveGame, str | None]:
        """The game and side a ticket opens the stream of (401: unknown or expired)."""
        held = self._tickets.get(ticket)
        if held is None or held[0] != game_id or held[2] <= time.monotonic():
            self.get(game_id)  # an unknown game is a 404
            raise Refusal(401, "ticket: unknown or expired; ask for a new one", "ticket")
        return self.get(game_id), held[1]

    # -- acting ----------------------------------------------------------------

    @staticmethod
    def _check_turn(game: LiveGame, side: str | None, seq: int) -> None:
        if side is None:
            raise Refusal(403, "token: a spectator may not answer", "token")
        _check_seq(game, seq)
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
        _check_seq(game, seq)
        if game.session.finished:
            raise Refusal(409, "seq: the game is over; a finished game is not reopened", "seq")
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
        _check_seq(game, seq)
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


def _check_seq(game: LiveGame, seq: int) -> None:
    """409 unless ``seq`` is the game's: an older one is stale (the game moved on since it
    was seen), a newer one was never seen (the game has not got there)."""
    if seq < game.seq:
        raise Refusal(409, f"seq: {seq} is stale; the game is at {game.seq}", "seq")
    if seq > game.seq:
        raise Refusal(409, f"seq: {seq} is ahead of the game; it is at {game.seq}", "seq")


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


def _with_roster(scenario: Scenario, side: str, file_name: str, encoded: str) -> Scenario:
    """``scenario`` with ``side`` played by an uploaded roster (a refusal names the field)."""
    from kubik.api.battlescribe import read_roster, with_roster

    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise Refusal(
            422, f"rosters.{side}: the file's data is not base64", f"rosters.{side}"
        ) from None
    try:
        scenario_with: Scenario = with_roster(scenario, side, read_roster(data, file_name))
    except KubikError as error:
        raise Refusal(422, f"rosters.{side}: {error.text()}", f"rosters.{side}") from None
    return scenario_with


__all__ = ["PREFIX", "LiveGame", "Refusal", "WebGames"]
