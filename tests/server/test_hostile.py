"""Hostile and clumsy clients: each gets a clear error or a clean close; the table plays on unharmed."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import socket
import time
import types
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from postgres import drop_database, fresh_database
from server_helpers import Seat, Server, check_no_leaks, first_error, hand_over, new_duel, play_until, still_served
from starlette.exceptions import StarletteDeprecationWarning
from websockets.exceptions import ConnectionClosed

from rules.server import app as server_app
from rules.server.app import create_app
from rules.server.limits import Settings

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Default limits, but fast bots may play at full speed."""
    server = Server(tmp_path_factory.mktemp("hostile") / "hostile.sqlite3", TRUMPS_RATE="1000", TRUMPS_BURST="1000")
    yield server.start()
    server.stop()


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Tight limits, to be tripped on purpose."""
    env = {"TRUMPS_HELLO_TIMEOUT": "1", "TRUMPS_BURST": "10", "TRUMPS_RATE": "5", "TRUMPS_FLOOD_CLOSE": "15"}
    server = Server(tmp_path_factory.mktemp("strict") / "strict.sqlite3", **env)
    yield server.start()
    server.stop()


async def _closed(ws: Any) -> int | None:
    """Wait for the server to close the connection (reading what it still sends); the close code."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_bad_messages_get_clear_errors_and_change_nothing(server: Server) -> None:
    table_id, token0, token1 = new_duel(server)
    url = f"{server.ws}/ws/tables/{table_id}"

    async def scenario() -> list[Seat]:
        # Before hello: garbage is refused one message at a time, and hello still works afterwards.
        a = Seat(url, token0, 0, rng=random.Random(1))
        a.ws = await websockets.connect(url)
        assert (await first_error(a, "{not json"))["code"] == "bad_json"
        assert (await first_error(a, "[1, 2]"))["code"] == "bad_message"
        assert (await first_error(a, '{"type": "shout"}'))["code"] == "unknown_type"
        assert (await first_error(a, b'{"type": "ping"}'))["code"] == "bad_message"  # binary frame
        too_large = await first_error(a, json.dumps({"type": "ping", "nonce": "x" * 5000}))
        assert too_large["code"] == "too_large" and "4096" in too_large["message"]
        not_yet = await first_error(a, {"type": "move", "event": {"type": "take", "seat": 0}, "last_seen": 0})
        assert not_yet["code"] == "hello_first"
        bad_field = await first_error(
            a, {"type": "move", "event": {"type": "beat", "seat": 0, "card": "1X"}, "last_seen": 0}
        )
        assert bad_field["code"] == "bad_message" and "event.card" in bad_field["message"]
        await a.send({"type": "hello", "token": token0, "last_seen": None})
        assert (await a.recv())["type"] == "welcome"
        await a.update()
        b = Seat(url, token1, 1, rng=random.Random(2))
        await b.connect()
        await b.update()
        while not (a.my_turn() or b.my_turn()):
            await asyncio.wait_for(asyncio.gather(a.update(), b.update()), 5)
        mover, waiter = (a, b) if a.my_turn() else (b, a)
        before = mover.event_no
        move = mover.last["view"]["legal_moves"][0]

        # Another seat's event, out of turn, a stale number, an illegal move, a spectator's move.
        theirs = {**move, "seat": waiter.seat}
        not_theirs = await first_error(mover, {"type": "move", "event": theirs, "last_seen": before})
        assert not_theirs["code"] == "not_your_seat"
        out_of_turn = {"type": "move", "event": {**move, "seat": waiter.seat}, "last_seen": before}
        assert (await first_error(waiter, out_of_turn))["code"] == "not_your_turn"
        stale = await first_error(mover, {"type": "move", "event": move, "last_seen": before - 1})
        assert stale["code"] == "stale" and stale["event_no"] == before
        illegal = {"type": "lead", "seat": mover.seat, "card": "AS"} if move["type"] == "choose_trump" else None
        illegal = illegal or {"type": "choose_trump", "seat": mover.seat, "suit": "S"}
        refused = await first_error(mover, {"type": "move", "event": illegal, "last_seen": before})
        assert refused["code"] == "illegal" and f"seat {mover.seat}" in refused["message"]
        assert refused["refusal"]["seat"] == mover.seat and refused["refusal"]["message"] == refused["message"]
        assert refused["refusal"]["code"] in ("before_play", "trumps_chosen") and refused["refusal"]["clause"]
        spectator = Seat(url, None, None)
        await spectator.connect()
        await spectator.update()
        watching = await first_error(spectator, {"type": "move", "event": move, "last_seen": before})
        assert watching["code"] == "spectator"
        assert (await first_error(spectator, {"type": "hello", "token": None}))["code"] == "already_hello"

        # The same move twice: the first is played, the second is stale and changes nothing.
        await mover.send({"type": "move", "event": move, "last_seen": before})
        await mover.send({"type": "move", "event": move, "last_seen": before})
        assert (await mover.update())["event_no"] == before + 1
        while (second := await mover.recv())["type"] != "error":
            pass
        assert second["code"] == "stale"
        stored = [{k: v for k, v in record.items() if k != "at"} for record in server.stored_events()[table_id]]
        assert stored[before:][:1] == [{**move, "by": "player"}]

        # The table plays on: the hand is finished by the honest seats.
        await play_until([a, b], hand_over, timeout=60)
        for seat in (a, b, spectator):
            await seat.close()
        return [a, b, spectator]

    seats = asyncio.run(scenario())
    events = server.stored_events()[table_id]
    assert all(record["type"] != "seat_freed" for record in events)
    assert check_no_leaks(events, 2, seats) > 10


def test_tokens_are_checked(server: Server) -> None:
    table_id, _, _ = new_duel(server)
    other_id, other_token, _ = new_duel(server)

    async def scenario() -> None:
        for token in ("not-a-token", other_token):
            ws = await websockets.connect(f"{server.ws}/ws/tables/{table_id}")
            await ws.send(json.dumps({"type": "hello", "token": token, "last_seen": None}))
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and reply["code"] == "bad_token"
            assert await _closed(ws) == 1008
        ws = await websockets.connect(f"{server.ws}/ws/tables/nosuchtable")
        await ws.send(json.dumps({"type": "hello", "token": None, "last_seen": None}))
        assert json.loads(await ws.recv())["code"] == "not_found"
        assert await _closed(ws) == 1008

    asyncio.run(scenario())
    status, error = server.post(f"/api/tables/{table_id}/leave", {"token": other_token})
    assert status == 403 and error["code"] == "bad_token"
    status, left = server.post(f"/api/tables/{other_id}/leave", {"token": other_token})
    assert status == 200 and left["seat"] == 0
    status, error = server.post(f"/api/tables/{other_id}/leave", {"token": other_token})
    assert status == 403, "a token is void once its seat is left"


def test_the_answer_to_hello_is_never_too_much_for_the_smallest_send_queue(tmp_path: Path) -> None:
    """TRUMPS_SEND_QUEUE may be 1 (docs/protocol.md: at least 1), the texts a slow reader may have waiting. The answer
    to a hello (the welcome, the resync or the exact catch-up, the presence that follows) is sent at once, before the
    client could read any of it: it must not count as a reader falling behind and close a client that reads."""
    server = Server(tmp_path / "queue.sqlite3", TRUMPS_SEND_QUEUE="1").start()
    try:
        table_id, token0, token1 = new_duel(server)
        url = f"{server.ws}/ws/tables/{table_id}"

        async def scenario() -> None:
            ana, bo = Seat(url, token0, 0), Seat(url, token1, 1)
            await ana.connect()
            assert (await ana.update())["resync"]
            await still_served(ana)
            seen = ana.event_no
            await ana.close()
            await bo.connect()
            await bo.update()
            await bo.play_one()  # the first trump choice is seat 1's
            await bo.update()
            assert server.post(f"/api/tables/{table_id}/leave", {"token": token1})[0] == 200
            await ana.connect(last_seen=seen)
            caught_up = [await ana.update(), await ana.update()]
            numbers = [(update["event_no"], update["resync"]) for update in caught_up]
            assert numbers == [(seen + 1, False), (seen + 2, False)]
            await still_served(ana)
            await ana.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_abusive_connections_are_closed_cleanly(strict: Server) -> None:
    table_id, token0, token1 = new_duel(strict)
    url = f"{strict.ws}/ws/tables/{table_id}"

    async def scenario() -> None:
        silent = await websockets.connect(url)
        flooder = await websockets.connect(url)
        huge = await websockets.connect(url)
        honest = Seat(url, token0, 0)
        await honest.connect()
        await honest.update()
        await flooder.send(json.dumps({"type": "hello", "token": token1, "last_seen": None}))
        for _ in range(60):
            await flooder.send(json.dumps({"type": "ping"}))
        await huge.send("x" * 70000)
        codes = await asyncio.gather(_closed(silent), _closed(flooder), _closed(huge))
        assert codes == [1008, 1008, 1009]
        # The honest seat is still served.
        await honest.send({"type": "ping", "nonce": 7})
        assert (await honest.recv())["type"] in ("pong", "update")
        await honest.close()

    asyncio.run(scenario())


def test_flood_errors_say_what_happened(strict: Server) -> None:
    table_id, _, _ = new_duel(strict)

    async def scenario() -> list[dict[str, Any]]:
        ws = await websockets.connect(f"{strict.ws}/ws/tables/{table_id}")
        for _ in range(40):
            await ws.send(json.dumps({"type": "ping"}))
        replies = []
        try:
            while True:
                replies.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
        except ConnectionClosed:
            return replies

    replies = asyncio.run(scenario())
    kinds = [reply.get("code", reply["type"]) for reply in replies]
    assert kinds[:10] == ["pong"] * 10
    assert "rate_limited" in kinds and "too many messages" in replies[-1]["message"]


def test_only_messages_past_the_rate_count_towards_a_flood(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TRUMPS_FLOOD_CLOSE counts the rate_limited refusals, less one for each message within the rate whatever its
    answer; 0 never closes. In-process, on a clock that moves only when told (so the bucket refills only then)."""
    clock = [1000.0]
    fake_time = types.SimpleNamespace(monotonic=lambda: clock[0], perf_counter=time.perf_counter, time=time.time)
    monkeypatch.setattr(server_app, "time", fake_time)
    ping = json.dumps({"type": "ping"})
    too_large = json.dumps({"type": "ping", "nonce": "x" * 5000})
    refused = ["{nope", "[1]", '{"type": "shout"}', too_large, json.dumps({"type": "next_hand", "last_seen": 0})]
    for flood_close in (3, 0):
        settings = Settings(
            db=str(tmp_path / "flood.sqlite3"), bot_processes=0, rate=1, burst=6, flood_close=flood_close
        )
        with TestClient(create_app(settings)) as client, client.websocket_connect("/ws/tables/any") as ws:

            def answers(*messages: str) -> list[str]:
                codes = []
                for message in messages:
                    ws.send_text(message)
                    reply = ws.receive_json()
                    codes.append(reply.get("code", reply["type"]))
                return codes

            # Within the burst: refused for every other reason, none of which counts.
            assert answers(*refused, ping) == [
                "bad_json",
                "bad_message",
                "unknown_type",
                "too_large",
                "hello_first",
                "pong",
            ]
            assert answers(ping, ping) == ["rate_limited", "rate_limited"]  # the count is 2
            clock[0] += 2  # two messages within the rate, refused as they are, take it back to 0
            assert answers("{nope", "[1]") == ["bad_json", "bad_message"]
            assert answers(ping, ping) == ["rate_limited", "rate_limited"]  # 2 again: still open
            if flood_close:
                ws.send_text(ping)  # 3: the flood
                last = ws.receive_json()
                assert (last["code"], last["message"]) == ("rate_limited", "too many messages: closing the connection")
                assert ws.receive()["code"] == 1008
            else:
                assert answers(*[ping] * 50) == ["rate_limited"] * 50
                clock[0] += 1
                assert answers(ping) == ["pong"]


def test_bad_http_requests(server: Server) -> None:
    table_id, _, _ = new_duel(server)
    cases: list[tuple[str, Any, int, str, str]] = [
        ("/api/tables", b"{nope", 400, "bad_json", "not valid JSON"),
        ("/api/tables", [1], 400, "bad_request", "JSON object"),
        ("/api/tables", {"players": 7}, 400, "bad_request", "players"),
        ("/api/tables", {"players": 2, "dealer": 3}, 400, "bad_request", "dealer 3"),
        ("/api/tables", {"computer": [{"seat": 1, "level": "godlike"}]}, 400, "bad_request", "godlike"),
        ("/api/tables", {"computer": [{"seat": 0}, {"seat": 1}]}, 400, "bad_request", "person"),
        ("/api/tables", {"name": "x" * 5000}, 413, "too_large", "larger than"),
        (f"/api/tables/{table_id}/join", {}, 409, "table_full", "taken"),
        ("/api/tables/nope/join", {}, 404, "not_found", "nope"),
        ("/api/nothing", {}, 404, "not_found", "/api/nothing"),
        ("/api/tables/nope", {}, 405, "bad_request", "POST is not allowed"),
    ]
    for path, body, status, code, words in cases:
        got_status, error = server.post(path, body)
        assert (got_status, error["type"], error["code"]) == (status, "error", code), (path, body, error)
        assert words in error["message"] and "Traceback" not in error["message"]


def test_every_post_takes_a_json_object_and_nothing_else(server: Server) -> None:
    """An empty body is no JSON object either (no endpoint reads it as {}); the Content-Type is not looked at."""
    table_id, _, _ = new_duel(server)
    paths = [
        "/api/tables",
        f"/api/tables/{table_id}/join",
        f"/api/tables/{table_id}/leave",
        "/api/replay",
        "/api/analysis",
        "/api/analysis/move?level=easy",
    ]
    empty = "the request body is empty: send a JSON object ({} for every default)"
    bodies = [(b"", empty), (b" \r\n", empty)]
    for text, kind in (
        ("null", "null"),
        ("[]", "an array"),
        ('"{}"', "a string"),
        ("3", "a number"),
        ("true", "a boolean"),
    ):
        bodies.append((text.encode(), f"the request body must be a JSON object, not {kind}"))
    for path in paths:
        for body, message in bodies:
            status, error = server.post(path, body)
            assert (status, error["code"], error["message"]) == (400, "bad_request", message), (path, body)
    assert server.get(f"/api/tables/{table_id}")[1]["event_no"] == 3, "nothing was joined or left"
    # Whatever the Content-Type says, or none: the body is read as JSON (this seat is refused by the table).
    for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/x-www-form-urlencoded"}, {}):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("POST", f"/api/tables/{table_id}/join", body=b'{"seat": 3}', headers=headers)
        response = connection.getresponse()
        refused = json.loads(response.read())
        connection.close()
        assert (response.status, refused["message"]) == (400, "seat 3 is not a seat of this 2-player table"), headers


def test_tables_per_client_are_limited(tmp_path_factory: pytest.TempPathFactory) -> None:
    server = Server(tmp_path_factory.mktemp("limit") / "limit.sqlite3", TRUMPS_MAX_TABLES_PER_CLIENT="2").start()
    try:
        assert [server.post("/api/tables", {})[0] for _ in range(3)] == [200, 200, 429]
        assert "2 unfinished tables" in server.post("/api/tables", {})[1]["message"]
    finally:
        server.stop()


def test_connections_per_address_are_limited(tmp_path_factory: pytest.TempPathFactory) -> None:
    server = Server(tmp_path_factory.mktemp("conns") / "conns.sqlite3", TRUMPS_MAX_CONNECTIONS_PER_CLIENT="3").start()
    try:
        table_id, token0, _ = new_duel(server)
        url = f"{server.ws}/ws/tables/{table_id}"

        async def scenario() -> None:
            player = Seat(url, token0, 0)
            await player.connect()
            watchers = [Seat(url, None, None) for _ in range(2)]
            for watcher in watchers:
                await watcher.connect()
            # A fourth connection from the same address is refused at once, in words, then closed.
            refused = await websockets.connect(url)
            reply = json.loads(await asyncio.wait_for(refused.recv(), 5))
            assert reply["type"] == "error" and reply["code"] == "too_many_connections" and "3" in reply["message"]
            assert await _closed(refused) == 1008
            # The others are unaffected; once one closes, a new connection is welcome.
            await player.send({"type": "ping", "nonce": 1})
            assert (await player.recv())["type"] in ("pong", "update")
            await watchers[0].close()
            for _ in range(50):  # the server counts the close once it has seen it
                again = Seat(url, None, None)
                try:
                    await again.connect()
                    break
                except AssertionError:
                    await again.close()
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("no connection was welcome after one closed")
            for seat in (player, watchers[1], again):
                await seat.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_deep_nesting_and_huge_numbers_are_ordinary_refusals(tmp_path_factory: pytest.TempPathFactory) -> None:
    """1,500 nested arrays or a 5,000-digit number: 400 over HTTP, bad_json on the WebSocket (which stays open)."""
    # Messages up to 16 kB, so that the 5,000 digits are read rather than refused as too large.
    server = Server(tmp_path_factory.mktemp("deep") / "deep.sqlite3", TRUMPS_MAX_MESSAGE_BYTES="16384").start()
    table_id, token0, _ = new_duel(server)
    hostile = [
        b"[" * 1500 + b"]" * 1500,
        b'{"players": ' + b"9" * 5000 + b"}",
        b'{"a": ' + b"[" * 1500 + b"]" * 1500 + b"}",
    ]
    for body in hostile:
        status, error = server.post("/api/tables", body)
        assert (status, error["code"]) == (400, "bad_json") and "not valid JSON" in error["message"]

    async def scenario() -> None:
        seat = Seat(f"{server.ws}/ws/tables/{table_id}", token0, 0)
        await seat.connect()
        for body in hostile:
            assert (await first_error(seat, body.decode()))["code"] == "bad_json"
        await seat.send({"type": "ping", "nonce": 7})
        while (reply := await seat.recv())["type"] != "pong":
            pass
        assert reply["nonce"] == 7  # the connection was kept
        await seat.close()

    try:
        asyncio.run(scenario())
    finally:
        log = server.stop()
    assert "Traceback" not in log and "Exception" not in log


def test_health_readiness_and_metrics(server: Server) -> None:
    assert server.get("/healthz") == (200, {"status": "ok"})
    assert server.get("/readyz") == (200, {"status": "ready"})
    new_duel(server)
    with urllib.request.urlopen(f"{server.http}/metrics", timeout=10) as response:
        text = response.read().decode()
    for name in ("trumps_connections", "trumps_tables", "trumps_events_total", "trumps_commit_seconds_bucket"):
        assert f"\n{name}" in text, name
    assert 'trumps_events_total{by="player"}' in text


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_escaping_inputs_are_refused_as_the_protocol_says(kind: str, tmp_path: Path) -> None:
    """A lone surrogate, thousands of digits, deep nesting, a NUL in a table id: each one refusal, one log line."""
    database = fresh_database() if kind == "postgres" else str(tmp_path / "escaping.sqlite3")
    server = Server(database, TRUMPS_MAX_MESSAGE_BYTES="16384")
    server.log_level = "info"
    try:
        server.start()
        table_id, token0, _ = new_duel(server)
        digits, deep = "9" * 5000, "[" * 1500 + "]" * 1500
        for path in ("/api/replay", "/api/analysis", "/api/analysis/move"):
            for body in ('{"log": ' + digits + "}", '{"log": ' + deep + "}", '{"log": "x", "n": ' + digits + "}"):
                status, error = server.post(path, body.encode())
                assert (status, error["code"]) == (400, "bad_json"), (path, body[:20], error)
            status, error = server.post(path, b"not json")
            assert (status, error["code"]) == (400, "bad_json")
        status, error = server.post("/api/tables", b'{"players": 2, "name": "\\ud800"}')
        assert (status, error["code"]) == (400, "bad_json") and "surrogate" in error["message"]
        odd = ("/api/tables/%00", "/api/tables/a%00b", "/api/tables/%00/join", "/api/tables/%00/hands/1/log")
        for path in (*odd, "/api/tables/", f"/api/tables/{table_id}/", "/replay/"):  # no redirect to another path
            status, error = server.post(path, {}) if path.endswith("join") else server.get(path)
            assert (status, error["code"]) == (404, "not_found"), (path, error)

        async def sockets() -> None:
            seat = Seat(f"{server.ws}/ws/tables/{table_id}", token0, 0)
            await seat.connect()
            refused = await first_error(seat, '{"type": "ping", "nonce": "\\ud800"}')
            assert refused["code"] == "bad_json"
            await still_served(seat)
            await seat.close()
            async with websockets.connect(f"{server.ws}/ws/tables/%00") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "not_found"
                assert await _closed(ws) == 1008

        asyncio.run(sockets())
    finally:
        log = server.stop()
        if kind == "postgres":
            drop_database(database)
    assert "Traceback" not in log and " 500 " not in log and "internal" not in log, log
    assert log.count("POST /api/replay 400") == 4 and log.count("refused bad_json") == 1


def test_a_client_that_hangs_up_mid_request_is_no_error_of_the_server(tmp_path: Path) -> None:
    """A tab closed while its POST's body was on the way: logged as nginx logs it (499), not as a failure (500, a
    traceback, one more ``internal`` error for the operators' alerts); nothing is done."""
    server = Server(tmp_path / "gone.sqlite3")
    server.log_level = "info"
    try:
        server.start()
        table_id, _, _ = new_duel(server)
        for path in ("/api/tables", f"/api/tables/{table_id}/join", "/api/analysis"):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
                head = (
                    f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                )
                conn.sendall(head.encode() + b'{"players": 2,')
            deadline = time.monotonic() + 10
            while f"POST {path} 499" not in server.output() and time.monotonic() < deadline:
                time.sleep(0.05)
        with urllib.request.urlopen(f"{server.http}/metrics", timeout=10) as response:
            metrics_text = response.read().decode()
        assert server.get("/api/tables")[1]["tables"][0]["id"] == table_id  # the only table: none was made
    finally:
        log = server.stop()
    assert 'code="internal"' not in metrics_text
    assert log.count(" 499 ") == 3 and "Traceback" not in log and " 500 " not in log, log
