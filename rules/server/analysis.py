"""The analysis board's requests: a log replayed ply by ply, a position evaluated, a computer's reply, a hand's log.

Routes (registered by :func:`routes`):

* ``POST /api/replay`` ``{"log": TEXT}``: every ply of the log (the event, what the rules did on
  their own, the whole state after it, the legal moves), or one line naming its first bad line;
* ``POST /api/analysis`` ``{"log": TEXT}``: the evaluation of the position at the end of the log
  (see :mod:`rules.analysis`);
* ``POST /api/analysis/move?level=LEVEL`` ``{"log": TEXT}``: the computer's move there ("play on
  from here");
* ``GET /api/tables/{id}/hands/{hand}/log``: a finished hand's log (public once the hand is over,
  as its seed is, which the headers ``Trumps-Seed`` and ``Trumps-Seed-Hash`` give with it).

Searches run in one worker process of their own (``spawn``), never on the event loop and never
in the pool of the computer seats, so analysing a game does not slow live tables. The worker
keeps the solver's table between positions (those of one game share most of their subtrees) and
remembers its last evaluations by position; the server remembers them by log too, so stepping
back and forth costs nothing. Replaying a log (a few milliseconds) runs in a thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from rules.analysis import SOLVER_SECONDS, evaluate
from rules.events import event_dict, parse_event
from rules.game import Game
from rules.log import LogError, log_lines, read_log
from rules.players import LEVELS, make_player
from rules.players.base import choose_move
from rules.players.solver import Solver
from rules.server.bots import worker_started
from rules.server.protocol import HttpError, ProtocolError, loads_object
from rules.server.store import StoreUnavailable
from rules.server.tables import TABLE_EVENTS, TableConfig, event_part, possible_table_id
from rules.server.verify import seed_hash

log = logging.getLogger("rules.server")

MAX_LOG_BYTES = 512 * 1024
"""The largest log accepted, in bytes of UTF-8 text (a long duel's log is about 10 KB)."""

MAX_BODY_BYTES = 6 * MAX_LOG_BYTES + 1024
"""The largest body read: a log of :data:`MAX_LOG_BYTES` as a JSON string, with room for the rest of the object. A log's
lines are JSON, so each of their quotes is written ``\\"`` (two bytes), and a client may write any character as an
escape (``\\u0001``: six bytes for one): the limit the docs give is the log's, whatever escaping its body uses."""

MAX_WAITING = 16
"""Searches queued for the worker at most; past this a request is refused as busy."""

REMEMBERED = 4096
"""Evaluations remembered, in the server and in the worker."""

# --- in the worker ---------------------------------------------------------------------------------

_solver: Solver | None = None
_evaluations: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()


def _position_key(game: Game) -> tuple[Any, ...]:
    """The position at the end of ``game`` and its history: the repetitions a game has had change its evaluation,
    and so do the trumps, which a log from a position names in its position line, not in its header."""
    if game.to_act is None:
        return (game.header.model_dump_json(), game.phase, None, None)
    state = game.core_state()
    return (game.header.model_dump_json(), state.trumps, game.phase, state.key(), frozenset(state.seen.items()))


def evaluate_log(text: str) -> dict[str, Any]:
    """The evaluation of the position at the end of the log ``text`` (runs in the worker)."""
    global _solver
    game = read_log(text)
    if game.phase in ("lead", "respond", "second"):
        key = _position_key(game)
        known = _evaluations.get(key)
        if known is not None:
            _evaluations.move_to_end(key)
            return known
    if _solver is None:
        _solver = Solver(seconds=SOLVER_SECONDS, max_entries=200_000)
    result = evaluate(game, _solver).as_dict()
    if game.phase in ("lead", "respond", "second"):
        _evaluations[key] = result
        if len(_evaluations) > REMEMBERED:
            _evaluations.popitem(last=False)
    return result


def computer_move(text: str, level: str) -> dict[str, Any]:
    """The ``level`` player's move at the end of the log ``text``, seeing only its own hand (runs in the worker)."""
    game = read_log(text)
    seat = game.to_act
    assert seat is not None, "the server asks only when someone is to act"
    player = make_player(level, int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big"))
    return event_dict(choose_move(player, game.view(seat), game.position_counts()))


def replay_plies(game: Game) -> dict[str, Any]:
    """Every ply of ``game`` from its start: the event, its notifications, the state after it and the legal moves."""
    again = Game(game.header.rule_set())
    plies: list[dict[str, Any]] = [_ply(again, None, [])]
    for event in game.events:
        notifications = again.push(event)
        # The notifications as an update carries them (a game_over's loser and reason null, not left out).
        plies.append(_ply(again, event_dict(event), [note.model_dump(mode="json") for note in notifications]))
    return {"header": event_dict(game.header), "lines": log_lines(game), "plies": plies}


def _ply(game: Game, event: dict[str, Any] | None, notifications: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "event": event,
        "notifications": notifications,
        "state": game.state().model_dump(mode="json"),
        "legal": [event_dict(move) for move in game.legal_moves()],
    }


# --- in the server ---------------------------------------------------------------------------------


class Analysis:
    """The board's searches: one worker process, its queue, and the evaluations remembered by log."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._waiting = 0
        self._known: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=worker_started, initargs=(os.getpid(),)
            )
        return self._pool

    async def _search(self, function: Any, *args: Any) -> Any:
        if self._waiting >= MAX_WAITING:
            raise _Busy
        self._waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor(), function, *args)
        except BrokenProcessPool:
            log.error("the analysis worker died; starting a new one")
            pool, self._pool = self._pool, None
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            raise _Busy from None
        finally:
            self._waiting -= 1

    async def evaluation(self, text: str) -> dict[str, Any]:
        key = hashlib.sha256(text.encode()).hexdigest()
        known = self._known.get(key)
        if known is not None:
            self._known.move_to_end(key)
            return known
        result: dict[str, Any] = await self._search(evaluate_log, text)
        self._known[key] = result
        if len(self._known) > REMEMBERED:
            self._known.popitem(last=False)
        return result

    async def move(self, text: str, level: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._search(computer_move, text, level)
        return result

    def close(self) -> None:
        """Stop the worker and wait for it, as :meth:`rules.server.bots.Bots.close` does and for the same reason."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


class _Busy(Exception):
    """The worker has as many searches queued as it takes."""


def _error(code: str, message: str, status: int, line: int | None = None) -> JSONResponse:
    # Through the protocol's model, so that every code sent is one of its ErrorCode (the schema lists them).
    body = HttpError(code=code, message=message, line=line).model_dump(mode="json")  # type: ignore[arg-type]
    return JSONResponse(body, status_code=status)


async def _log_text(request: Request) -> str:
    """The ``log`` of the request's JSON body, checked to replay (raises :class:`_BadRequest`)."""
    too_large = _BadRequest("too_large", f"the log is larger than {MAX_LOG_BYTES // 1024} KB")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY_BYTES:
            raise too_large
    try:
        text = loads_object(data).get("log")
    except ProtocolError as error:
        raise _BadRequest(error.code, str(error)) from None
    if not isinstance(text, str):
        raise _BadRequest("bad_request", 'send {"log": TEXT}: the log\'s lines as one string')
    if len(text) > MAX_LOG_BYTES or len(text.encode()) > MAX_LOG_BYTES:
        raise too_large
    return text


class _BadRequest(Exception):
    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.line = line

    def response(self) -> JSONResponse:
        return _error(self.code, str(self), 413 if self.code == "too_large" else 400, self.line)


def _analysis(request: Request) -> Analysis:
    analysis: Analysis = request.app.state.analysis
    return analysis


async def _checked_game(text: str) -> Game:
    try:
        return await asyncio.to_thread(read_log, text)
    except LogError as error:
        raise _BadRequest("bad_log", str(error), error.line) from None


async def replay(request: Request) -> Response:
    try:
        game = await _checked_game(await _log_text(request))
    except _BadRequest as error:
        return error.response()
    return JSONResponse(await asyncio.to_thread(replay_plies, game))


async def analyse(request: Request) -> Response:
    try:
        text = await _log_text(request)
        await _checked_game(text)
        return JSONResponse(await _analysis(request).evaluation(text))
    except _BadRequest as error:
        return error.response()
    except _Busy:
        return _error("busy", "the analysis is busy with other games; try again in a moment", 503)


def _level(request: Request) -> str:
    """The ``level`` of the query string (``medium`` without one), or :class:`_BadRequest`: a level given twice, or
    another parameter (``?lvl=hard`` would otherwise play ``medium`` without a word), is no level either."""
    query = request.query_params
    other = next((name for name in query if name != "level"), None)
    if other is not None:
        raise _BadRequest("bad_request", f"unknown query parameter {other[:40]!r}: the only one is level")
    levels = query.getlist("level")
    if len(levels) > 1:
        raise _BadRequest("bad_request", "level is given more than once")
    level = levels[0] if levels else "medium"
    if level not in LEVELS:
        raise _BadRequest("bad_request", f"unknown level {level[:40]!r}: choose one of {', '.join(LEVELS)}")
    return level


async def play_on(request: Request) -> Response:
    try:
        level = _level(request)
        text = await _log_text(request)
        game = await _checked_game(text)
        if game.to_act is None:
            return _error("no_move", "nobody is to act at the end of this log", 409)
        return JSONResponse({"move": await _analysis(request).move(text, level)})
    except _BadRequest as error:
        return error.response()
    except _Busy:
        return _error("busy", "the computer is busy with other games; try again in a moment", 503)


async def hand_log(request: Request) -> Response:
    """A finished hand's log, rebuilt from the table's stored events."""
    table_id = request.path_params["table_id"]
    written = request.path_params["hand"]
    # ASCII digits only: int() would also read "+1", " 1", "0_1" and digits of other scripts.
    if not (written.isascii() and written.isdigit()):
        return _error("bad_request", "the hand is a number: 1 for the first hand", 400)
    hand = int(written) if len(written.lstrip("0")) <= 18 else 0  # past int()'s digit limit: no hand of any table
    try:
        stored = await request.app.state.hub.store.load(table_id) if possible_table_id(table_id) else None
    except StoreUnavailable:
        return _error("unavailable", "the database cannot be reached right now; try again in a moment", 503)
    if stored is None:
        return _error("not_found", f"there is no table {table_id[:40]!r}", 404)
    found = await asyncio.to_thread(_hand_game, TableConfig.model_validate(stored.config), stored.events, hand)
    if found is None:
        return _error("not_found", f"this table has no hand {written[:40]}", 404)
    game, seed = found
    if not game.is_over():
        return _error("hand_not_over", f"hand {hand} is not over yet: its log is public once it is", 409)
    text = "".join(line + "\n" for line in log_lines(game))
    # The seed too, as hand_end revealed it: a client that missed the hand's end can still check its deal.
    headers = {"Trumps-Seed": seed, "Trumps-Seed-Hash": seed_hash(seed)}
    return PlainTextResponse(text, media_type="application/x-ndjson", headers=headers)


def _hand_game(config: TableConfig, records: list[dict[str, Any]], hand: int) -> tuple[Game, str] | None:
    """Hand number ``hand`` of a table's stored events, replayed, with its seed (``None`` if the table has no such
    hand)."""
    game: Game | None = None
    seed = ""
    for record in records:
        kind = record["type"]
        if kind == "hand_started":
            if game is not None:
                break
            if record["hand"] == hand:
                seed = record["seed"]
                game = Game(config.rule_set(record["dealer"]), seed=int(seed))
        elif game is not None and kind not in TABLE_EVENTS:
            game.push(parse_event(event_part(record)))
    return None if game is None else (game, seed)


def routes() -> list[Route]:
    return [
        Route("/replay", replay_page),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/analysis", analyse, methods=["POST"]),
        Route("/api/analysis/move", play_on, methods=["POST"]),
        Route("/api/tables/{table_id}/hands/{hand}/log", hand_log, methods=["GET"]),
    ]


async def replay_page(request: Request) -> Response:
    return FileResponse(Path(__file__).parent / "static" / "replay.html", headers={"Cache-Control": "no-cache"})
