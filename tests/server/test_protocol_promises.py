"""What docs/protocol.md promises of errors, JSON text and tokens, checked against a real ``trumps serve``.

Every error after ``hello`` reached a table carries the table's event number; text that is not JSON
(``NaN``, bytes that are not UTF-8, a fraction of thousands of digits) is ``bad_json``; a token of
any length that holds no seat is ``bad_token``; the analysis board's ``no_move`` is a code of the schema.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import websockets
from server_helpers import Seat, Server, first_error, new_duel, still_served
from websockets.exceptions import ConnectionClosed

from rules.server.protocol import SERVER_ADAPTER

SPEC = Path(__file__).resolve().parents[2] / "spec"

LIMIT = 16384
"""The server's largest message here: a 5,000-digit number fits, and is refused for its digits, not its size."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A small burst (to trip the rate limit in a few messages, without closing) and few connections per table."""
    env = {
        "TRUMPS_MAX_MESSAGE_BYTES": str(LIMIT),
        "TRUMPS_BURST": "12",
        "TRUMPS_RATE": "2",
        "TRUMPS_FLOOD_CLOSE": "1000",
        "TRUMPS_MAX_CONNECTIONS_PER_TABLE": "2",
    }
    server = Server(tmp_path_factory.mktemp("promises") / "promises.sqlite3", **env)
    yield server.start()
    server.stop()


async def _refused_hello(url: str, token: str | None) -> tuple[dict[str, Any], int | None]:
    """The error answering a hello, and the close code that follows it."""
    ws = await websockets.connect(url)
    await ws.send(json.dumps({"type": "hello", "token": token, "last_seen": None}))
    reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    except ConnectionClosed as closed:
        return reply, closed.rcvd.code if closed.rcvd else None


FIVE_THOUSAND_DIGITS = "0." + "1" * 5000
NOT_JSON = ["NaN", "Infinity", "-Infinity", FIVE_THOUSAND_DIGITS, "1e400", "-1e400"]
"""Values Python's json module reads by default that are no JSON, or JSON no finite double holds (the
fraction, too long to take; 1e400, which Python reads as infinity)."""


def test_errors_after_hello_carry_the_tables_event_number(server: Server) -> None:
    table_id, token0, token1 = new_duel(server)
    url = f"{server.ws}/ws/tables/{table_id}"

    async def scenario() -> None:
        seat = Seat(url, token0, 0)
        welcome = await seat.connect()
        now = welcome["table"]["event_no"]
        assert now > 0
        await seat.update()
        binary = await first_error(seat, b'{"type": "ping"}')
        assert (binary["code"], binary["event_no"]) == ("bad_message", now)
        too_large = await first_error(seat, json.dumps({"type": "ping", "nonce": "x" * LIMIT}))
        assert (too_large["code"], too_large["event_no"]) == ("too_large", now)
        assert (await first_error(seat, "{nope"))["event_no"] == now
        for _ in range(15):  # past the burst of 12 (the hello and the messages above took 4)
            await seat.send({"type": "ping"})
        limited = await first_error(seat, {"type": "ping"})
        assert (limited["code"], limited["event_no"]) == ("rate_limited", now)

        # A hello that reached the table and was refused there: its error says the table's number too.
        reply, code = await _refused_hello(url, token1[::-1])
        assert (reply["code"], reply["event_no"], code) == ("bad_token", now, 1008)
        second = Seat(url, token1, 1)
        await second.connect()  # the table's second connection: its limit here
        reply, code = await _refused_hello(url, None)
        assert (reply["code"], reply["event_no"], code) == ("table_full", now, 1008)
        # Before hello reached a table: null.
        stranger = await websockets.connect(url)
        await stranger.send(b"binary")
        before = json.loads(await asyncio.wait_for(stranger.recv(), 10))
        assert (before["code"], before["event_no"]) == ("bad_message", None)
        await stranger.close()
        for each in (seat, second):
            await each.close()

    asyncio.run(scenario())


def test_text_that_is_not_json_is_bad_json(server: Server) -> None:
    table_id, token0, _ = new_duel(server)
    bodies = [f'{{"players": 2, "clock": {value}}}'.encode() for value in NOT_JSON]
    bodies.append(b'{"players": 2, "name": "\xed\xa0\x80"}')  # a lone surrogate's bytes: no UTF-8
    bodies.append(b'{"players": 2, "name": "\xff"}')
    for path in ("/api/tables", "/api/replay", "/api/analysis/move"):
        for body in bodies:
            status, error = server.post(path, body)
            assert (status, error["code"]) == (400, "bad_json"), (path, body[:40], error)
    # 4,300 digits are still a number: refused for what it is, not as JSON.
    status, error = server.post("/api/tables", b'{"players": 2, "clock": 0.' + b"1" * 4298 + b"}")
    assert (status, error["code"]) == (400, "bad_request")

    async def scenario() -> None:
        seat = Seat(f"{server.ws}/ws/tables/{table_id}", token0, 0)
        await seat.connect()
        for value in NOT_JSON:
            refused = await first_error(seat, f'{{"type": "ping", "nonce": {value}}}')
            assert refused["code"] == "bad_json", value
        await still_served(seat)
        await seat.close()
        # A text frame that is not UTF-8 never reaches the server's reader: the WebSocket closes (1007).
        async with websockets.connect(f"{server.ws}/ws/tables/{table_id}") as ws:
            await ws.send(b'{"type": "ping", "nonce": "\xed\xa0\x80"}', text=True)
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007

    asyncio.run(scenario())


def test_a_token_of_any_length_that_holds_no_seat_is_bad_token(server: Server) -> None:
    table_id, _, _ = new_duel(server)
    long_token = "x" * 200

    async def scenario() -> None:
        reply, code = await _refused_hello(f"{server.ws}/ws/tables/{table_id}", long_token)
        assert (reply["code"], code) == ("bad_token", 1008)

    asyncio.run(scenario())
    status, error = server.post(f"/api/tables/{table_id}/leave", {"token": long_token})
    assert (status, error["code"]) == (403, "bad_token")


def test_the_analysis_boards_errors_are_codes_of_the_schema(server: Server) -> None:
    schema = json.loads((SPEC / "protocol.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    finished = (SPEC / "vectors" / "full_game_duel.jsonl").read_text()
    status, error = server.post("/api/analysis/move?level=easy", {"log": finished})
    assert (status, error["code"]) == (409, "no_move")
    status, bad_log = server.post("/api/replay", {"log": "{}"})
    assert (status, bad_log["code"]) == (400, "bad_log")
    for each in (error, bad_log, {**error, "code": "busy"}):
        SERVER_ADAPTER.validate_python(each)  # the model the schema is made from
        validator.validate(each)  # and the schema as generated into spec/


def test_only_a_ping_may_come_before_hello(server: Server) -> None:
    table_id, _, _ = new_duel(server)

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "ping", "nonce": 7}))
            pong = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert pong == {"type": "pong", "nonce": 7, "event_no": 0}
            await ws.send(json.dumps({"type": "next_hand", "last_seen": 0}))
            refused = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert (refused["type"], refused["code"], refused["event_no"]) == ("error", "hello_first", None)

    asyncio.run(scenario())
