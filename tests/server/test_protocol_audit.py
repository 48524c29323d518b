"""Promises of docs/protocol.md that a client written from the docs alone found the server breaking (an audit of
2026-12-05), each checked against a real ``trumps serve``: every HTTP error is JSON, a WebSocket's opening
included; a mistyped ``type`` is ``bad_message``.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from server_helpers import Seat, Server, first_error, new_duel, still_served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("audit") / "audit.sqlite3", TRUMPS_MAX_TABLES_PER_CLIENT="0")
    yield server.start()
    server.stop()


def _open_socket(server: Server, path: str) -> tuple[int, str, bytes]:
    """A WebSocket opening handshake for ``path``: the status, Content-Type and body of the answer."""
    host, port = server.http.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    headers = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        conn.close()


@pytest.mark.parametrize(
    "path", ["/ws/other", "/ws/tables/", "/ws/tables/a/b", "/ws", "/api/tables", "/static/js/app.js", "/healthz"]
)
def test_a_websocket_to_a_path_that_is_no_socket_is_refused_in_json(server: Server, path: str) -> None:
    """docs/protocol.md: "An HTTP error is a 4xx or 5xx status ... with {"type": "error", ...}", not_found 404 for
    no such path. The opening of a WebSocket is an HTTP request; the server answered it with a bare 403."""
    status, content_type, body = _open_socket(server, path)
    assert status == 404, (status, body)
    assert content_type.startswith("application/json")
    error = json.loads(body)
    assert error["type"] == "error" and error["code"] == "not_found", error
    assert path in error["message"]


def test_the_socket_of_a_table_still_opens(server: Server) -> None:
    status, _, _ = _open_socket(server, "/ws/tables/nothing")
    assert status == 101  # the table is looked up at hello


@pytest.mark.parametrize(
    ("kind", "said"), [(5, "a number"), (True, "a boolean"), (["move"], "an array"), ({"type": "move"}, "an object")]
)
def test_a_type_that_is_no_string_is_a_bad_message(server: Server, kind: object, said: str) -> None:
    """docs/protocol.md, Errors: ``bad_message`` is "not an object, no type, a binary frame, or a missing or
    mistyped field"; ``unknown_type`` is "a type the server does not know". ``{"type": 5}`` was unknown_type."""
    table_id, token, _ = new_duel(server)

    async def scenario() -> None:
        seat = Seat(f"{server.ws}/ws/tables/{table_id}", token, 0)
        welcome = await seat.connect()
        error = await first_error(seat, json.dumps({"type": kind}))
        assert error["code"] == "bad_message", error
        assert error["event_no"] == welcome["table"]["event_no"]
        assert error["message"] == f"the message's 'type' must be a string, not {said}"
        await still_served(seat)
        await seat.close()

    asyncio.run(scenario())


def test_before_hello_text_that_is_no_message_gets_its_own_refusal(server: Server) -> None:
    """docs/protocol.md, hello: a message of the table before ``hello`` is ``hello_first``; text that is no message
    gets ``bad_json``, ``bad_message`` or ``unknown_type`` first; a hello without ``token`` watches."""
    table_id, _, _ = new_duel(server)

    async def scenario() -> None:
        seat = Seat(f"{server.ws}/ws/tables/{table_id}", None, None)
        seat.ws = await websockets.connect(seat.url)
        told = {
            "{": "bad_json",
            '{"type": "dance"}': "unknown_type",
            '{"type": "resign"}': "bad_message",  # no last_seen
            '{"type": "move", "event": {"type": "take", "seat": 9}, "last_seen": 0}': "bad_message",
            '{"type": "resign", "last_seen": 0}': "hello_first",
            '{"type": "draw", "agree": true, "last_seen": 0}': "hello_first",
        }
        for text, code in told.items():
            error = await first_error(seat, text)
            assert (error["code"], error["event_no"]) == (code, None), (text, error)
        await seat.send({"type": "hello"})
        welcome = await seat.recv()
        assert welcome["type"] == "welcome" and welcome["seat"] is None
        await seat.close()

    asyncio.run(scenario())


def test_a_hand_the_table_has_not_had_is_not_found(server: Server) -> None:
    """docs/protocol.md: the log of hand 0, or of one not started yet, is a 404 not_found; of the hand in play, 409."""
    table_id, _, _ = new_duel(server)
    deadline = time.monotonic() + 10
    while server.get(f"/api/tables/{table_id}")[1]["hand"] != 1:  # it starts right after the seat that filled it
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert server.get(f"/api/tables/{table_id}/hands/1/log")[0] == 409
    for hand in ("0", "2", "00"):
        status, error = server.get(f"/api/tables/{table_id}/hands/{hand}/log")
        assert (status, error["code"]) == (404, "not_found"), (hand, error)


def test_a_draw_against_an_old_event_number_is_stale(server: Server) -> None:
    """docs/protocol.md: a draw carries last_seen as a move does; against an old number it is stale, offer or answer."""
    table_id, token, _ = new_duel(server)

    async def scenario() -> None:
        seat = Seat(f"{server.ws}/ws/tables/{table_id}", token, 0)
        await seat.connect()
        now = (await seat.update())["event_no"]
        for agree in (True, False):
            error = await first_error(seat, {"type": "draw", "agree": agree, "last_seen": now - 1})
            assert (error["code"], error["event_no"]) == ("stale", now)
        await seat.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("join", [True, False])
def test_a_seat_that_is_no_seat_of_the_table_is_refused_whether_or_not_the_creator_joins(
    server: Server, join: bool
) -> None:
    """docs/protocol.md: bad_request for "a seat that is no seat of the table"; with ``join: false`` the server took
    ``{"players": 2, "seat": 2}`` and made the table."""
    before = len(server.get("/api/tables")[1]["tables"])
    status, error = server.post("/api/tables", {"players": 2, "seat": 2, "join": join})
    assert (status, error["code"]) == (400, "bad_request"), error
    assert error["message"] == "seat 2 is not a seat of a 2-player table"
    assert len(server.get("/api/tables")[1]["tables"]) == before  # nothing made
    status, created = server.post("/api/tables", {"players": 3, "seat": 2, "join": False})
    assert (status, created["seat"], created["token"]) == (200, None, None)  # a seat of the table: unused


def test_spectators_never_keep_a_player_out_of_their_table(tmp_path: Path) -> None:
    """TRUMPS_MAX_CONNECTIONS_PER_TABLE counts players and spectators: strangers watching filled it and the seated
    players' hello was refused (table_full). Spectators now leave a place for each seat."""
    server = Server(tmp_path / "full.sqlite3", TRUMPS_MAX_CONNECTIONS_PER_TABLE="4").start()
    try:
        table_id, token0, token1 = new_duel(server)
        url = f"{server.ws}/ws/tables/{table_id}"

        async def scenario() -> None:
            watchers = [Seat(url, None, None) for _ in range(2)]  # 4 places, 2 seats: 2 for spectators
            for watcher in watchers:
                await watcher.connect()
            third = Seat(url, None, None)
            third.ws = await websockets.connect(url)
            await third.send({"type": "hello", "token": None, "last_seen": None})
            assert (await third.recv())["code"] == "table_full"
            assert await third.close_code() == 1008
            players = [Seat(url, token0, 0), Seat(url, token1, 1)]
            for player in players:
                assert (await player.connect())["seat"] == player.seat  # their places were kept
            extra = Seat(url, token0, 0)  # a fifth connection, a player's too: the table's limit holds
            extra.ws = await websockets.connect(url)
            await extra.send({"type": "hello", "token": token0, "last_seen": None})
            assert (await extra.recv())["code"] == "table_full"
            for seat in [*watchers, *players]:
                await seat.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_unknown_fields_are_ignored_and_known_ones_keep_their_json_type(server: Server) -> None:
    """docs/protocol.md: a field the server does not know is ignored; one it knows is never read as another JSON
    type; a computer seat without level plays easy."""
    status, created = server.post("/api/tables", {"players": 3, "colour": "red", "computer": [{"seat": 2}]})
    assert status == 200 and created["table"]["seats"][2]["level"] == "easy", created
    for body in ({"players": "2"}, {"players": 2.0}, {"pass_sixes": 1}, {"join": "true"}, {"match_hands": 3.0}):
        status, error = server.post("/api/tables", body)
        assert (status, error["code"]) == (400, "bad_request"), (body, error)
