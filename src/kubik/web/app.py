"""``kubik serve``: the web table's HTTP API and its pages (FastAPI, documented at ``/docs``).

The pages are plain HTML and JavaScript modules that use exactly this API: create
a game, get it as a token may see it, answer the pending request, follow it live
through server-sent events (each event carries only the new version; the page
then asks for the game again, so a dropped connection resyncs by sequence number
and no page keeps state of its own that could drift).

Every call that touches a game runs on one worker thread, one at a time, so a game never
sees two answers at once and the store's SQLite connection stays on the thread that opened
it; the event loop meanwhile keeps serving pages, event streams and the requests waiting
their turn. The odds calculator runs in a process of its own within a time limit
(:mod:`kubik.web.odds_pool`), and the games' options' odds in another
(:mod:`kubik.web.option_odds`), so no question of odds holds up a game. Every request first
passes the gate (:mod:`kubik.web.guard`): the Host header, the body's size and shape.
"""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from kubik import api
from kubik.api.question_words import question_from_words, split_variant
from kubik.core.errors import KubikError
from kubik.engine.registry import get as get_procedure
from kubik.game.session import GameSession
from kubik.table import Base
from kubik.text.i18n import catalogue
from kubik.web import option_odds as _option_odds
from kubik.web.games import LiveGame, Refusal, WebGames
from kubik.web.guard import Gate
from kubik.web.odds_pool import ODDS_SECONDS, OddsWorker
from kubik.web.option_odds import ODDS_WAIT, Ask, OptionOdds
from kubik.web.views import battle_of, game_json
from kubik.web.waiting import CLOCK_MIN

T = TypeVar("T")

STATIC = Path(str(resources.files("kubik.web") / "static"))
#: Seconds between keep-alive comments on an idle event stream.
KEEP_ALIVE = 15.0
#: Seconds between looks at the games' clocks.
CLOCK_TICK = 5.0


class Refused(BaseModel):
    """A refused request: why, and the field at fault."""

    detail: str
    field: str | None


#: How the referee refuses an answer (the body names the field).
REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"model": Refused, "description": "no token, or not a token of this game"},
    403: {"model": Refused, "description": "the pending request is not this token's side"},
    404: {"model": Refused, "description": "no such game"},
    409: {"model": Refused, "description": "seq is stale (or the game is over)"},
    422: {"model": Refused, "description": "the answer is not allowed; nothing changed"},
}


class RosterUpload(BaseModel):
    """A BattleScribe / New Recruit roster file (``.ros`` or ``.rosz``) for one side."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200, description="the file's name, e.g. posse.ros")
    data: str = Field(max_length=7_000_000, description="the file's bytes, base64")


class NewGame(BaseModel):
    """``POST /api/games``: a scenario id, a seed and who rolls the dice (or a saved record)."""

    model_config = ConfigDict(extra="forbid")

    scenario: str | None = Field(default=None, description="a scenario id, e.g. steel_war.demo")
    seed: StrictInt | None = Field(
        default=None, ge=0, lt=2**63, description="the virtual dice's seed"
    )
    dice: Literal["virtual", "typed"] = "virtual"
    bots: dict[str, str] = Field(default_factory=dict, description="side → bot (heuristic ...)")
    record: dict[str, Any] | None = Field(default=None, description="a saved game to go on with")
    clock: dict[str, Any] | None = Field(
        default=None,
        description='{"per_answer": seconds a side may take over a decision (60 to 30 days), '
        '"then": "default"}: when a side runs out, the rules\' default is taken for it',
    )
    rosters: dict[str, RosterUpload] = Field(
        default_factory=dict, description="side → a BattleScribe roster for that side"
    )


class SideSettings(BaseModel):
    """``POST /api/games/ID/settings``: this side's webhook and standing orders."""

    model_config = ConfigDict(extra="forbid")

    webhook: str | None = Field(
        default=None,
        description="called (POST, JSON) when the game waits for this side or ends; http or "
        "https, a public address only (never this computer or a private network, unless the "
        "server was started with --allow-local-webhooks), redirects not followed",
    )
    orders: dict[str, Any] | None = Field(
        default=None,
        description='kind of decision → "default" or {"at_most": N}, taken at once when such '
        "a decision of this side comes up; null drops an order",
    )


class AnswerBody(BaseModel):
    """``POST /api/games/ID/answers``: the sequence number seen and the answer."""

    model_config = ConfigDict(extra="forbid")

    seq: StrictInt = Field(ge=0, description="answers so far, as the game was seen")
    # strict: true, "0" and 1.0 are not option 0 and 1 (a client's bug, never an answer)
    answer: StrictInt | list[StrictInt] | None = Field(
        default=None, description="the 0-based index of an option, or the dice values rolled"
    )
    text: str | None = Field(
        default=None, max_length=200, description="what was done at the table (typed)"
    )


class UndoBody(BaseModel):
    """``POST /api/games/ID/undo``: the sequence number seen, and how far back."""

    model_config = ConfigDict(extra="forbid")

    seq: StrictInt = Field(ge=0)
    to: Literal["roll", "decision"] = Field(
        default="roll",
        description="roll: to before the last roll (in a game of two people, when the other "
        "side asks too); decision: take back your own last decision, when no die was rolled "
        "since it (no consent needed)",
    )


class OddsBody(BaseModel):
    """``POST /api/odds``: a procedure, its input and a policy."""

    model_config = ConfigDict(extra="forbid")

    procedure: str
    input: dict[str, Any]
    policy: str = "default"
    explain: bool = Field(default=False, description="optimal only: every decision it takes")


#: What an answer may be, for a refusal of one of another type.
ANSWER_FORMS = (
    'give an option\'s 0-based index as a whole number (not true, "0" or 1.0), '
    "or the list of dice values rolled"
)


class VariantsBody(BaseModel):
    """``POST /api/odds/compare``: a question and its variants, each FIELD=VALUE words
    laid over it (``"weapons=hmg distance=20"``), as ``kubik odds --vs``."""

    model_config = ConfigDict(extra="forbid")

    procedure: str
    input: dict[str, Any]
    variants: list[str] = Field(min_length=1, max_length=7)
    policy: str = "default"


class SweepBody(BaseModel):
    """``POST /api/odds/sweep``: a question and one input swept over a range
    (``"distance=1..36"``, a step as ``/2``), as ``kubik odds --over``."""

    model_config = ConfigDict(extra="forbid")

    procedure: str
    input: dict[str, Any]
    over: str
    policy: str = "default"


def _lang(lang: str | None, accept: str | None) -> str:
    if lang in ("en", "ru"):
        return lang
    return "ru" if (accept or "").lower().startswith("ru") else "en"


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    kind, _, token = authorization.partition(" ")
    return token.strip() if kind.lower() == "bearer" else None


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def create_app(
    store: Path | str | None = None,
    hosts: Iterable[str] | None = None,
    odds_seconds: float = ODDS_SECONDS,
    clock_min: float = CLOCK_MIN,
    clock_tick: float = CLOCK_TICK,
    odds_wait: float = ODDS_WAIT,
    allow_local_webhooks: bool = False,
) -> FastAPI:
    """The web table on the saved games of ``store`` (the default store when ``None``),
    answering requests that name one of ``hosts`` in their Host header (``None``, for a
    caller that serves it itself: any; `kubik serve` passes the names it serves),
    each odds request worked out within ``odds_seconds``; clocks allow ``clock_min``
    seconds at least and are looked at every ``clock_tick`` seconds; a page waits
    ``odds_wait`` seconds at most for its options' odds; webhooks reach only public
    addresses unless ``allow_local_webhooks``."""
    holder = _Games(store, clock_min, allow_local_webhooks)
    run = holder.run
    calculator = OddsWorker(odds_seconds)  # the odds page's questions
    forecaster = OddsWorker(odds_seconds)  # the games' options: never behind a question
    options_odds = OptionOdds(forecaster, odds_wait)
    telling: set[asyncio.Future[None]] = set()

    async def with_odds(
        found: tuple[dict[str, Any], list[Ask] | None, str, int], lang: str
    ) -> dict[str, Any]:
        """A game as a page sees it with its options' odds (worked out apart)."""
        shown, asks, game_id, version = found
        if asks is None:
            return shown

        def late() -> None:  # on the event loop, once the odds not ready in time are
            told = asyncio.ensure_future(run(lambda games: games.odds_ready(game_id, version)))
            telling.add(told)  # kept until done (a task nobody holds may be collected)
            told.add_done_callback(telling.discard)

        return await options_odds.fill(shown, asks, lang, late)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await holder.open()  # on the worker thread, where every call will run
        forecaster.start()  # it imports the rules while nobody waits
        _collect_seldom()

        async def watch_clocks() -> None:
            while True:
                await asyncio.sleep(clock_tick)
                await run(lambda games: games.expire())

        clocks = asyncio.create_task(watch_clocks())
        try:
            yield
        finally:
            clocks.cancel()
            calculator.stop()
            forecaster.stop()
            await holder.close()

    app = FastAPI(
        lifespan=lifespan,
        title="kubik",
        description="The web table of kubik: a virtual referee for tabletop wargames.",
        version="1",
    )
    app.add_middleware(Gate, hosts=hosts)

    @app.exception_handler(Refusal)
    async def refused(_: Request, error: Refusal) -> JSONResponse:
        return JSONResponse({"detail": error.detail, "field": error.field}, error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        if first.get("type") == "json_invalid":  # its place is a character's, not a field
            return JSONResponse({"detail": "body: not JSON", "field": "body"}, 422)
        field = _field(first.get("loc", ()))
        detail = f"{field}: {first.get('msg', 'not allowed')}"
        if field.startswith("answer."):  # one of the answer's forms: name the answer
            field, detail = "answer", f"answer: {ANSWER_FORMS}"
        return JSONResponse({"detail": detail, "field": field}, 422)

    @app.exception_handler(KubikError)
    async def kubik_error(request: Request, error: KubikError) -> JSONResponse:
        """One line naming the field, in the language the call asks for (``?lang=``)."""
        text = error.text()
        language = _lang(request.query_params.get("lang"), None)
        said = error.text(language)
        return JSONResponse({"detail": said, "field": text.partition(":")[0]}, 422)

    # -- pages -------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def table_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)  # no icon: and no error in the pages' consoles

    @app.get("/odds", include_in_schema=False)
    async def odds_page() -> FileResponse:
        return FileResponse(STATIC / "odds.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- reference -----------------------------------------------------------------

    @app.get("/api/scenarios", tags=["reference"])
    async def scenarios() -> list[dict[str, Any]]:
        """Every playable scenario: id, names, ruleset and sides."""
        listed = await run(lambda games: games.scenarios())
        return [
            {
                "id": info.id,
                "name": info.name,
                "name_ru": info.name_ru,
                "ruleset": info.ruleset,
                "sides": [side.id for side in info.sides],
            }
            for info in listed
        ]

    @app.get("/api/messages", tags=["reference"])
    async def messages(lang: str | None = None) -> dict[str, str]:
        """The pages' words in ``lang`` (en or ru): message id → template with {names}."""
        words = catalogue(_lang(lang, None))
        return {key: text for key, text in words.items() if key.startswith("web.")}

    @app.get("/api/procedures", tags=["odds"])
    async def procedures() -> list[dict[str, Any]]:
        """Every procedure with its input JSON schema (as ``kubik procedures --json``)."""
        return api.procedures()

    @app.post("/api/odds", tags=["odds"])
    async def odds(body: OddsBody, lang: str | None = None) -> dict[str, Any]:
        """Exact odds of a procedure (as ``kubik odds --json``); ``policy``: default,
        optimal or a ruleset's rule of thumb."""
        language = _lang(lang, None)
        return await calculator.odds(
            body.procedure, body.input, body.policy, body.explain, language
        )

    @app.post("/api/odds/compare", tags=["odds"])
    async def odds_compare(body: VariantsBody, lang: str | None = None) -> dict[str, Any]:
        """The question and its variants side by side (as ``kubik odds --vs ... --json``):
        each one's fields and each variant's difference of the means."""
        language = _lang(lang, None)
        variants = [split_variant(v) for v in body.variants]
        compared: dict[str, Any] = await calculator.ask(
            "compare", (body.procedure, body.input, variants, body.policy), language
        )
        return compared

    @app.post("/api/odds/sweep", tags=["odds"])
    async def odds_sweep(body: SweepBody, lang: str | None = None) -> dict[str, Any]:
        """The question at every value of one input (as ``kubik odds --over ... --json``)."""
        language = _lang(lang, None)
        swept: dict[str, Any] = await calculator.ask(
            "sweep", (body.procedure, body.input, body.over, body.policy), language
        )
        return swept

    @app.get("/api/odds/question", tags=["odds"])
    async def odds_question(procedure: str, words: str) -> dict[str, Any]:
        """A question asked in words (``quality=d6 weapons=lmg,smg*4``) as its input: the
        odds page reads a question shared as words in its address."""
        model = get_procedure(procedure).input_model
        return question_from_words(model, words.split())

    @app.get("/api/odds/policies", tags=["odds"])
    async def odds_policies(procedure: str) -> list[str]:
        """The policies a procedure may be played with."""
        return list(api.policies(procedure))

    # -- games ---------------------------------------------------------------------

    @app.post("/api/games", status_code=201, tags=["games"])
    async def create(
        body: NewGame, accept_language: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """A new game: one secret token per side and one for spectators."""
        language = _lang(None, accept_language)
        return await run(
            lambda games: games.create(
                body.scenario,
                body.seed,
                body.dice,
                body.bots,
                body.record,
                language,
                body.clock,
                {side: (r.name, r.data) for side, r in body.rosters.items()},
            )
        )

    @app.get("/api/games/{game_id}", tags=["games"])
    async def get_game(
        game_id: str,
        authorization: Annotated[str | None, Header()] = None,
        accept_language: Annotated[str | None, Header()] = None,
        lang: str | None = None,
        since: Annotated[int, Query(ge=0)] = 0,
        at: Annotated[int | None, Query(ge=0)] = None,
        odds: bool = True,
    ) -> dict[str, Any]:
        """The game as this token may see it: ``seq``, ``pending``, the view, the log
        (from entry ``since``). ``at=K``: a finished game as it was after K answers.
        ``odds=false``: leave out the options' odds (a client that does not show them)."""
        token, language = _token(authorization), _lang(lang, accept_language)

        def seen(games: WebGames) -> tuple[dict[str, Any], list[Ask] | None, str, int]:
            game, side = games.side_of(game_id, token)
            if at is not None:
                return game_json(_replayed(game, at), side, language, since), None, game_id, 0
            asks = _option_odds.option_forecasts(game, side) if odds else None
            return game_json(game, side, language, since), asks, game_id, game.version

        return await with_odds(await run(seen), language)

    @app.post("/api/games/{game_id}/answers", tags=["games"], responses=REFUSALS)
    async def answer(
        game_id: str,
        body: AnswerBody,
        authorization: Annotated[str | None, Header()] = None,
        accept_language: Annotated[str | None, Header()] = None,
        lang: str | None = None,
        since: Annotated[int, Query(ge=0)] = 0,
        odds: bool = True,
    ) -> dict[str, Any]:
        """Answer the pending request: an option's 0-based index, the dice rolled at the
        table, or (``text``) what was done at the table. 403: not this token's side;
        409: ``seq`` is stale; 422: the answer is not allowed (nothing changes)."""
        token, language = _token(authorization), _lang(lang, accept_language)

        def answered(games: WebGames) -> tuple[dict[str, Any], list[Ask] | None, str, int]:
            game, side = games.side_of(game_id, token)
            if body.text is not None:
                games.typed(game, side, body.seq, body.text)
            elif body.answer is None:
                missing = "answer: missing; an option's index or the dice values"
                raise Refusal(422, missing, "answer")
            else:
                games.answer(game, side, body.seq, body.answer)
            asks = _option_odds.option_forecasts(game, side) if odds else None
            return game_json(game, side, language, since), asks, game_id, game.version

        return await with_odds(await run(answered), language)

    @app.post("/api/games/{game_id}/undo", tags=["games"])
    async def undo(
        game_id: str, body: UndoBody, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """``to: roll``: ask to go back to before the last roll; in a game of two people
        it happens when the other side asks too (its consent). ``to: decision``: take back
        your last decision, allowed alone while no die was rolled since (the game's
        ``take_back`` names the side that may)."""
        token = _token(authorization)

        def undone(games: WebGames) -> dict[str, Any]:
            game, side = games.side_of(game_id, token)
            if body.to == "decision":
                return {**games.take_back(game, side, body.seq), "seq": game.seq}
            return {**games.undo(game, side, body.seq), "seq": game.seq}

        return await run(undone)

    @app.get("/api/games/{game_id}/record", tags=["games"])
    async def record(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The saved game (scenario, seed, every answer), once it is over: it holds
        every side's secrets. Load it again with ``POST /api/games {"record": ...}``."""
        token = _token(authorization)

        def saved(games: WebGames) -> dict[str, Any]:
            game, _ = games.side_of(game_id, token)
            if not game.session.finished:
                raise Refusal(403, "game: the record is given once the game is over", "game")
            return game.session.record.to_json()

        return await run(saved)

    @app.get("/api/games/{game_id}/measure", tags=["games"])
    async def measure(
        game_id: str,
        a: Annotated[str, Query(description="x,y in inches")],
        b: Annotated[str, Query(description="x,y in inches")],
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The distance between two points, whether one sees the other and the cover,
        by the battle's own measuring tape."""
        token = _token(authorization)
        start, end = _point(a, "a"), _point(b, "b")

        def measured(games: WebGames) -> dict[str, Any]:
            game, _ = games.side_of(game_id, token)
            battle = battle_of(game.session)
            if battle is None:
                raise Refusal(422, "game: this game has no table", "game")
            base_a, base_b = Base(*start, 1.0), Base(*end, 1.0)
            for name, base in (("a", base_a), ("b", base_b)):
                if not battle.table.on_table(base.centre):
                    raise Refusal(422, f"{name}: not on the table", name)
            distance = ((start[0] - end[0]) ** 2 + (start[1] - end[1]) ** 2) ** 0.5
            return {
                "distance": round(distance, 2),
                "sees": battle.tape.sees(base_a, base_b),
                "cover": battle.tape.cover(base_a, base_b).value,
            }

        return await run(measured)

    @app.get("/api/games/{game_id}/settings", tags=["waiting"])
    async def settings(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """This side's webhook and standing orders, and the game's clock."""
        token = _token(authorization)
        return await run(lambda games: games.side_settings(*games.side_of(game_id, token)))

    @app.post("/api/games/{game_id}/settings", tags=["waiting"])
    async def change_settings(
        game_id: str, body: SideSettings, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Set this side's webhook (called with ``{"event": "your_turn"|"finished", "game",
        "side", "seq", "scenario"}``) and standing orders (an order for the decision
        waiting now is taken at once). Only the fields given change."""
        token = _token(authorization)
        change = body.model_dump(exclude_unset=True)
        return await run(lambda games: games.side_settings(*games.side_of(game_id, token), change))

    @app.post("/api/games/{game_id}/tickets", tags=["games"])
    async def ticket(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """A ticket that opens this token's event stream for a minute
        (``GET …/events?ticket=``): a browser's EventSource sends no header, and a
        token in a URL would stay in proxies' logs."""
        token = _token(authorization)
        return await run(lambda games: games.ticket(game_id, token))

    @app.get("/api/games/{game_id}/events", tags=["games"])
    async def events(
        game_id: str,
        request: Request,
        ticket: str | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        """Server-sent events: ``version`` with the game's new version and ``seq`` after
        every change (the page then asks for the game again). Opened with the token
        (``Authorization: Bearer``) or a ticket from ``POST …/tickets``."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[int] = asyncio.Queue()
        token = _token(authorization)

        def tell(version: int) -> None:  # called on the worker thread
            with suppress(RuntimeError):  # the loop closed: the server is shutting down
                loop.call_soon_threadsafe(queue.put_nowait, version)

        def watch(games: WebGames) -> LiveGame:
            if ticket is not None and token is None:
                game, _ = games.by_ticket(game_id, ticket)
            else:
                game, _ = games.side_of(game_id, token)
            game.watchers.append(tell)  # on the worker: never onto a game being let go
            return game

        game = await run(watch)

        async def stream() -> AsyncIterator[str]:
            try:
                yield _event(game)
                while not await request.is_disconnected():
                    try:
                        await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    while not queue.empty():
                        queue.get_nowait()
                    yield _event(game)
            finally:
                game.watchers.remove(tell)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    return app


class _Games:
    """The server's :class:`WebGames` and the one worker thread every call on them runs
    on (SQLite connections belong to the thread that made them; one thread means one
    answer at a time)."""

    def __init__(
        self, store: Path | str | None, clock_min: float = CLOCK_MIN, local_hooks: bool = False
    ) -> None:
        self.path = store
        self.clock_min = clock_min
        self.local_hooks = local_hooks
        self._games: WebGames | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kubik-games")

    async def open(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._worker, self._open)

    def _open(self) -> None:
        self._games = WebGames(self.path, self.clock_min, self.local_hooks)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._worker, self._close)
        self._worker.shutdown()

    def _close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None

    async def run(self, work: Callable[[WebGames], T]) -> T:
        """``work(games)`` on the worker thread, while the event loop serves others."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, self._call, work)

    def _call(self, work: Callable[[WebGames], T]) -> T:
        if self._games is None:
            raise RuntimeError("the web table's games are opened when the server starts")
        return work(self._games)


#: Allocations between the garbage collector's looks at the youngest objects (Python's
#: default is 700): a game's move makes tens of thousands of short-lived objects.
GC_YOUNG = 20_000


def _collect_seldom() -> None:
    """Keep the garbage collector from stalling answers: what is loaded at the start (the
    rules, the scenarios) is frozen out of every collection, and the young objects are
    looked at seldom. With Python's defaults a full collection walked every game in
    memory, some 0.1-0.8 s during which no answer was given."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 20, 20)


def _event(game: LiveGame) -> str:
    data = json.dumps({"version": game.version, "seq": game.seq, "epoch": game.epoch})
    return f"event: version\ndata: {data}\n\n"


def _point(text: str, name: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise Refusal(422, f"{name}: give x,y in inches, e.g. 12,30.5", name) from None
    return x, y


def _replayed(game: LiveGame, at: int) -> LiveGame:
    """A finished game as it stood after ``at`` answers (for the replay's step-through)."""
    session = game.session
    if not session.finished:
        raise Refusal(403, "at: a game is replayed once it is over", "at")
    if at > game.seq:
        raise Refusal(422, f"at: {at}; the game has {game.seq} answers", "at")
    record = session.record
    past = GameSession.from_record(record.with_answers(record.answers[:at]))
    return LiveGame(game.id, past, game.keeper)


__all__ = ["create_app"]
