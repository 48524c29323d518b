"""The ASGI app: the lobby over HTTP JSON, play over a WebSocket per table, the browser client.

Run it with ``trumps serve`` (uvicorn); ``create_app(Settings(...))`` builds it for tests.
For operators: ``/healthz`` (the process answers), ``/readyz`` (and its database does: 503
if not), ``/metrics`` (Prometheus), and one log line per HTTP request and per refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rules.defaults import MUST_BEAT, PASS_SIXES, PLAYERS
from rules.events import event_dict
from rules.server import analysis, metrics
from rules.server.hub import Hub
from rules.server.limits import Settings
from rules.server.protocol import (
    CreateTable,
    DrawMessage,
    ErrorMessage,
    Hello,
    HttpError,
    JoinTable,
    LeaveTable,
    Lobby,
    MoveMessage,
    NextHand,
    Ping,
    Pong,
    ProtocolError,
    RematchTable,
    ResignMessage,
    Welcome,
    describe_validation,
    loads_object,
    parse_client_message,
)
from rules.server.store import StoreError, StoreUnavailable
from rules.server.tables import Connection, Refused, Table

log = logging.getLogger("rules.server")

STATIC = Path(__file__).parent / "static"

_STATUS = {
    "not_found": 404,
    "table_full": 409,
    "seat_taken": 409,
    "seat_held": 409,
    "match_over": 409,
    "match_not_over": 409,
    "too_many_tables": 429,
    "bad_token": 403,
    "too_large": 413,
    "stale": 409,
    "internal": 500,
    "unavailable": 503,
}

UNAVAILABLE = "the database cannot be reached right now; nothing was changed, try again in a moment"

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Your trumps</title></head>
<body><h1>Your trumps</h1>
<p>The game server is running. The browser client is not installed yet;
the lobby is at <a href="/api/tables">/api/tables</a> and the protocol is described in
<code>docs/protocol.md</code>.</p></body></html>
"""


_REVALIDATE = {"Cache-Control": "no-cache"}
"""For the page and its files: a browser may keep them but must ask first (a 304 is cheap), so that
after an upgrade no page mixes old and new modules."""


class _RevalidatedFiles(StaticFiles):
    """The browser client's files, with :data:`_REVALIDATE`."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(_REVALIDATE)
        return response


def create_app(settings: Settings | None = None) -> Starlette:
    """The server app; ``settings`` default to :meth:`Settings.from_env`."""
    settings = settings if settings is not None else Settings.from_env()
    hub = Hub(settings)
    board = analysis.Analysis()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await asyncio.to_thread(board.close)  # waits for a search under way, off the event loop
            await hub.stop()

    metrics.count_tables(lambda: len(hub.tables))
    routes = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/api/config", config),
        Route("/metrics", metrics_page),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info, methods=["GET"]),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", leave_table, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", rematch_table, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", play),
        *analysis.routes(),
        Mount("/static", app=_RevalidatedFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    handlers = {404: _http_error, 405: _http_error, ClientDisconnect: _client_gone, Exception: _internal_error}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.router.redirect_slashes = False  # /api/tables/ is no path of the protocol: 404, not a redirect to another
    app.state.hub = hub
    app.state.analysis = board
    app.add_middleware(_RequestLog)
    app.add_middleware(_OnlyTableSockets)
    return app


_TABLE_SOCKET = re.compile(r"/ws/tables/[^/]+")
"""The one path a WebSocket may open (the router's ``/ws/tables/{table_id}``)."""


class _OnlyTableSockets:
    """A WebSocket opened on any other path is refused as an HTTP request for no such path is: 404 with the JSON
    error ``not_found`` (docs/protocol.md, Errors), not the bare 403 without a body that the router's default (or
    the static files' mount, which serves HTTP only) would leave to uvicorn."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or _TABLE_SOCKET.fullmatch(scope["path"]):
            await self.app(scope, receive, send)
            return
        websocket = WebSocket(scope, receive, send)
        refusal = _error("not_found", f"there is no WebSocket at {scope['path'][:80]}", 404)
        if "websocket.http.response" in scope.get("extensions", {}):
            await websocket.send_denial_response(refusal)
        else:  # a server without the denial extension can only refuse the opening (403)
            await websocket.close(1008)


class _RequestLog:
    """One log line per HTTP request: method, path, status, milliseconds, client address."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client")
            fields = {
                "method": scope["method"],
                "path": scope["path"][:200],
                "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 2),
                "client": client[0] if client else None,
            }
            log.info("%(method)s %(path)s %(status)s %(ms)sms", fields, extra={"fields": fields})


# --- HTTP --------------------------------------------------------------------------------------------


def _error(code: str, message: str, status: int | None = None, refusal: dict[str, Any] | None = None) -> JSONResponse:
    metrics.ERRORS.labels(code).inc()
    body = HttpError(code=code, message=message, refusal=refusal).model_dump(mode="json")  # type: ignore[arg-type]
    return JSONResponse(body, status_code=status or _STATUS.get(code, 400))


def _ok(message: BaseModel) -> JSONResponse:
    return JSONResponse(message.model_dump(mode="json"))


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        if _page_asked(request) and (STATIC / "index.html").is_file():
            # A person who followed a wrong link: the page says so in their language (js/app.js), not JSON.
            return FileResponse(STATIC / "index.html", status_code=404, headers=_REVALIDATE)
        return _error("not_found", f"there is nothing at {request.url.path[:80]}", 404)
    return _error("bad_request", f"{request.method} is not allowed on {request.url.path[:80]}", error.status_code)


def _page_asked(request: Request) -> bool:
    """A browser's GET of a page (it accepts HTML), outside the paths of the protocol and the files."""
    path = request.url.path
    outside = not path.startswith(("/api/", "/ws/", "/static/"))
    return request.method == "GET" and outside and "text/html" in request.headers.get("accept", "")


CLIENT_GONE = 499
"""The status logged for a request whose client closed the connection before its body was read (nginx's number
for it): nothing was done, nobody reads the answer, and it is no error of the server's."""


async def _client_gone(request: Request, error: Exception) -> Response:
    return Response(status_code=CLIENT_GONE)


async def _internal_error(request: Request, error: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path)
    return _error("internal", "something went wrong on the server; nothing was changed", 500)


async def healthz(request: Request) -> Response:
    """The process is alive and serving."""
    return JSONResponse({"status": "ok"})


async def config(request: Request) -> Response:
    """What the page shows that the server decides: the address of the full rules (null if none), and the rule
    options a new table has unless asked otherwise (rules/defaults.py), which the lobby's form starts from."""
    defaults = {"players": PLAYERS, "pass_sixes": PASS_SIXES, "must_beat": MUST_BEAT}
    return JSONResponse({"type": "config", "rules_url": _hub(request).settings.rules_url or None, "defaults": defaults})


async def readyz(request: Request) -> Response:
    """The process can take players: its database answers (503 while it does not)."""
    if await _hub(request).store.ready():
        return JSONResponse({"status": "ready"})
    return _error("unavailable", "the database does not answer", 503)


async def metrics_page(request: Request) -> Response:
    return Response(metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")


async def index(request: Request) -> Response:
    page = STATIC / "index.html"
    if page.is_file():
        return FileResponse(page, headers=_REVALIDATE)
    return HTMLResponse(_PLACEHOLDER, headers=_REVALIDATE)


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _body(request: Request, model: type[BaseModel]) -> Any:
    """The request's JSON body as ``model``, or :class:`Refused` saying what is wrong with it."""
    limit = _hub(request).settings.max_message_bytes
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refused("too_large", f"the request body is larger than {limit} bytes")
    try:
        value = loads_object(data)
    except ProtocolError as error:
        raise Refused(error.code, str(error)) from None
    try:
        return TypeAdapter(model).validate_python(value)
    except ValidationError as error:
        raise Refused("bad_request", f"invalid request: {describe_validation(error)}") from None


async def lobby(request: Request) -> Response:
    hub = _hub(request)
    await hub.caught_up()
    return _ok(Lobby(tables=hub.lobby()))


async def table_info(request: Request) -> Response:
    try:
        return _ok(await _hub(request).info(request.path_params["table_id"]))
    except Refused as refused:
        return _error(refused.code, str(refused))
    except StoreUnavailable:
        return _error("unavailable", UNAVAILABLE, 503)


async def _answer(
    request: Request, model: type[BaseModel], act: Callable[[Any], Awaitable[BaseModel]], failed: str
) -> Response:
    """Parse the body as ``model``, ``act`` on it; a refusal or a failed write (``failed`` says what) is an error."""
    try:
        return _ok(await act(await _body(request, model)))
    except Refused as refused:
        return _error(refused.code, str(refused), refusal=refused.refusal)
    except StoreUnavailable:
        return _error("unavailable", UNAVAILABLE, 503)
    except StoreError:
        return _error("internal", f"{failed} could not be saved; try again", 503)


async def create_table(request: Request) -> Response:
    creator = request.client.host if request.client else "unknown"
    return await _answer(request, CreateTable, lambda body: _hub(request).create(body, creator), "the table")


async def join_table(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    return await _answer(request, JoinTable, lambda body: _hub(request).join(table_id, body), "the seat")


async def leave_table(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    return await _answer(request, LeaveTable, lambda body: _hub(request).leave(table_id, body), "leaving")


async def rematch_table(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    creator = request.client.host if request.client else "unknown"
    return await _answer(
        request, RematchTable, lambda body: _hub(request).rematch(table_id, body, creator), "the rematch"
    )


# --- WebSocket ---------------------------------------------------------------------------------------


class _Session:
    """One WebSocket connection: hello, then moves, under the size, rate and time limits."""

    def __init__(self, websocket: WebSocket, hub: Hub) -> None:
        self.ws = websocket
        self.hub = hub
        self.settings = hub.settings
        self.table: Table | None = None
        self.hello = False
        self.conn = Connection(None, self.settings.send_queue)
        self._tokens = float(self.settings.burst)
        self._refill = time.monotonic()
        self._over = 0

    def error(
        self, code: str, message: str, event_no: int | None = None, refusal: dict[str, Any] | None = None
    ) -> None:
        """Send an error; its ``event_no`` is the table's current one once hello reached a table (else ``event_no``)."""
        if self.table is not None:
            event_no = self.table.event_no
        _refused(code, self.ws.path_params.get("table_id"), self.conn.seat, self.ws)
        error = ErrorMessage(code=code, message=message, event_no=event_no, refusal=refusal)  # type: ignore[arg-type]
        self.conn.send(error.model_dump_json())

    async def run(self) -> None:
        writer = asyncio.get_running_loop().create_task(self._write())
        try:
            await self._read()
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("unexpected error on a connection to table %s", self.ws.path_params.get("table_id"))
            self.error("internal", "something went wrong on the server; please reconnect")
            self.conn.drop(1011, "server error")
        finally:
            self.conn.drop(1000, "")
            if self.table is not None:
                self.table.detach(self.conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=5)
            writer.cancel()

    async def _write(self) -> None:
        conn = self.conn
        try:
            while True:
                text = await conn.next_text()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the client went away; the reader notices too
            conn.closed = True
            return
        if self.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await self.ws.close(conn.close_code, conn.close_reason)

    async def _read(self) -> None:
        opened = time.monotonic()
        while not self.conn.closed:
            if self.hello:
                message = await self.ws.receive()
            else:
                left = self.settings.hello_timeout - (time.monotonic() - opened)
                try:
                    message = await asyncio.wait_for(self.ws.receive(), timeout=max(left, 0.001))
                except TimeoutError:
                    self.error("hello_timeout", f"no hello within {self.settings.hello_timeout:g} seconds")
                    self.conn.drop(1008, "no hello")
                    return
            if message["type"] == "websocket.disconnect":
                return
            if not self._within_rate():
                continue
            text = message.get("text")
            if text is None:
                self.error("bad_message", "send JSON text messages, not binary ones")
                continue
            if len(text) > self.settings.max_message_bytes or len(text.encode()) > self.settings.max_message_bytes:
                self.error("too_large", f"the message is larger than {self.settings.max_message_bytes} bytes")
                continue
            try:
                parsed = parse_client_message(text)
            except ProtocolError as error:
                self.error(error.code, str(error))
                continue
            try:
                await self._handle(parsed)
            except Refused as refused:
                self.error(refused.code, str(refused), refusal=refused.refusal)
            except StoreUnavailable:
                self.error("unavailable", UNAVAILABLE)
            except StoreError:
                self.error("internal", "the server could not save that; nothing changed, try again")

    def _within_rate(self) -> bool:
        """Whether this message is within the rate (a token of the bucket); if not, it is refused as ``rate_limited``,
        and the ``flood_close``-th such refusal, less one for each message within the rate, closes the connection.
        Only these count: any other refusal answers a message that came within the rate, so it costs the server no
        more than an accepted one."""
        now = time.monotonic()
        self._tokens = min(float(self.settings.burst), self._tokens + (now - self._refill) * self.settings.rate)
        self._refill = now
        if self._tokens >= 1:
            self._tokens -= 1
            self._over = max(0, self._over - 1)  # forgiven slowly: a flood with pauses is still a flood
            return True
        self._over += 1
        if self.settings.flood_close and self._over >= self.settings.flood_close:
            self.error("rate_limited", "too many messages: closing the connection")
            self.conn.drop(1008, "flood")
        else:
            self.error(
                "rate_limited", f"too many messages: at most {self.settings.rate:g} a second; this one was ignored"
            )
        return False

    async def _handle(self, message: Any) -> None:
        if isinstance(message, Ping):
            event_no = self.table.event_no if self.table else 0
            self.conn.send(Pong(nonce=message.nonce, event_no=event_no).model_dump_json())
            return
        if isinstance(message, Hello):
            await self._hello(message)
            return
        table = self.table
        if table is None:
            raise Refused("hello_first", "send hello first")
        seat = self.conn.seat
        if seat is None:
            raise Refused("spectator", "spectators cannot play; join a seat to play")
        async with table.lock:
            if message.last_seen > table.event_no:
                await table.refresh()  # the client saw events committed elsewhere that this process has not heard of
            try:
                await self._act(table, seat, message)
            except Refused as refused:
                # Refuse only what the committed truth refuses: behind it, the answer is "stale" (or the seat is gone).
                if refused.code == "stale":
                    raise
                seen = table.event_no
                await table.refresh()
                if table.event_no != seen:
                    raise Refused(
                        "stale",
                        f"you last saw event {message.last_seen} but the table is at event {table.event_no}; "
                        "nothing was done",
                    ) from None
                raise

    async def _act(
        self, table: Table, seat: int, message: MoveMessage | ResignMessage | DrawMessage | NextHand
    ) -> None:
        """Check and commit a move, a resignation, a draw answer or next_hand from this connection's seat
        (the table's lock held)."""
        if not table.holds_seat(self.conn):  # checked at each move: the seat may have been left or taken over
            raise Refused("bad_token", "you no longer hold this seat")
        if message.last_seen != table.event_no:
            raise Refused(
                "stale",
                f"you last saw event {message.last_seen} but the table is at event {table.event_no}; nothing was done",
            )
        if isinstance(message, MoveMessage):
            event = message.event
            if event.seat != seat:
                raise Refused("not_your_seat", f"you sit in seat {seat}, not seat {event.seat}")
            game = table.game
            if game is None or game.is_over():
                raise Refused("no_game", "no hand is being played")
            if game.to_act != seat:
                waiting = "the deal" if game.to_act is None else f"seat {game.to_act}"
                raise Refused("not_your_turn", f"it is not your turn: waiting for {waiting}")
            await table.commit(event_dict(event), by="player", event=event)
        elif isinstance(message, ResignMessage):
            await table.resign(seat)
        elif isinstance(message, DrawMessage):
            await table.answer_draw(seat, message.agree)
        else:
            if table.match_over:
                raise Refused("match_over", "the match is over")
            if table.game is None:  # no hand yet: nothing to be over
                raise Refused(
                    "no_game", "no hand has been played yet: the first starts by itself once every seat is taken"
                )
            if not table.game.is_over():
                raise Refused("hand_not_over", "the current hand is not over yet")
            await table.commit(table.new_hand_record(), by="player")

    async def _hello(self, hello: Hello) -> None:
        if self.hello:
            raise Refused("already_hello", "this connection already said hello")
        try:
            async with self.hub.locked(self.ws.path_params["table_id"]) as table:
                await table.refresh()  # a token or event just committed on another process counts here too
                await table.refresh_offer()  # and a draw offer made there
                self._welcome(table, hello)
        except Refused as refused:
            if refused.code != "not_found":
                raise
            self.error("not_found", str(refused))
            self.conn.drop(1008, "no such table")

    def _welcome(self, table: Table, hello: Hello) -> None:
        """Seat this connection at ``table`` (whose lock the caller holds), or refuse it and close."""
        seat: int | None = None
        if hello.token is not None:
            seat = table.seat_of_token(hello.token)
            if seat is None:
                self.error("bad_token", "this token holds no seat at this table", table.event_no)
                self.conn.drop(1008, "bad token")
                return
        limit = self.settings.max_connections_per_table
        full = len(table.connections) >= limit
        if seat is None:  # spectators leave a place for each seat: watchers never keep a player out of their table
            watching = sum(1 for connection in table.connections if connection.seat is None)
            full = full or watching >= limit - table.config.players
        if full:
            self.error("table_full", "this table has as many connections as it can take", table.event_no)
            self.conn.drop(1008, "too many connections")
            return
        self.conn.seat = seat
        self.conn.token_hash = table.seats[seat].token_hash if seat is not None else None
        self.table = table
        self.hello = True
        table.connections.add(self.conn)
        answer = [Welcome(table=table.info(), seat=seat).model_dump_json(), *table.catch_up(seat, hello.last_seen)]
        if table.draw_agreed:
            answer.append(table.draw_offer_text())
        self.conn.greet(answer)
        table.connections_changed()
        table.take_lead(ask=True)  # a clock or computer seats run where the players are


def _refused(code: str, table: str | None, seat: int | None, websocket: WebSocket) -> None:
    """Count and log a refusal on a WebSocket: its code, table, seat and client address."""
    metrics.ERRORS.labels(code).inc()
    client = websocket.client.host if websocket.client else None
    fields = {"code": code, "table": table, "seat": seat, "client": client}
    log.info("refused %(code)s at table %(table)s, seat %(seat)s", fields, extra={"fields": fields})


async def play(websocket: WebSocket) -> None:
    hub = _hub(websocket)
    address = websocket.client.host if websocket.client else "unknown"
    await websocket.accept()
    if not hub.admit(address):
        _refused("too_many_connections", websocket.path_params.get("table_id"), None, websocket)
        limit = hub.settings.max_connections_per_client
        refusal = ErrorMessage(
            code="too_many_connections", message=f"this address already has {limit} connections open to this server"
        )
        with contextlib.suppress(Exception):
            await websocket.send_text(refusal.model_dump_json())
            await websocket.close(1008, "too many connections from this address")
        return
    metrics.CONNECTIONS.inc()
    try:
        await _Session(websocket, hub).run()
    finally:
        metrics.CONNECTIONS.dec()
        hub.release(address)
