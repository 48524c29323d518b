"""What docs/protocol.md promises of errors, JSON text, tokens, names, leaving and status, checked against a real
``trumps serve``.

Every error after ``hello`` reached a table carries the table's event number; text that is not JSON
(``NaN``, bytes that are not UTF-8, a fraction of thousands of digits) is ``bad_json``; a token of
any length that holds no seat is ``bad_token``; the analysis board's ``no_move`` is a code of the schema.
A name holding a control or format character is refused, one of spaces only is no name, and the limit counts
the name as stored; a seat may be left after the match is over, which changes nothing else; a table whose seats
are all taken never reads ``waiting``.
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

from rules.server.elsewhere import Elsewhere
from rules.server.protocol import HttpError

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
        "TRUMPS_MAX_TABLES_PER_CLIENT": "0",  # the tests of this module create many tables from one address
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
    validator = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/HttpError"})
    finished = (SPEC / "vectors" / "full_game_duel.jsonl").read_text()
    status, error = server.post("/api/analysis/move?level=easy", {"log": finished})
    assert (status, error["code"]) == (409, "no_move")
    status, bad_log = server.post("/api/replay", {"log": "{}"})
    assert (status, bad_log["code"]) == (400, "bad_log")
    for each in (error, bad_log, {**error, "code": "busy"}):
        HttpError.model_validate(each)  # the model the schema is made from
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


REFUSED_NAMES = [
    "Ana\nBo",  # a newline: a second line in someone else's lobby
    "\x1b[2JAna",  # ESC: a terminal escape sequence
    "Ana\x00",
    "Ana\u0085",  # NEL, a C1 control
    "Ana\u202eoB",  # RIGHT-TO-LEFT OVERRIDE: "Ana" then "Bo" backwards, and whatever follows it
    "\u2066Ana",  # an isolate
    "\u200b",  # a zero-width space: a name nobody sees
    "Ana\u2028Bo",  # LINE SEPARATOR
    "\u200dAna",  # a joiner not between two characters of a word
    "Ana \u200cBo",
    "x" * 33,
    " " + "é" * 33 + " ",  # 33 once trimmed
]
"""Names the server refuses (``bad_request``, naming the field), over both requests that carry a name."""

STORED_NAMES = {
    "  Ștefan  ": "Ștefan",  # trimmed
    "S\u0326tefănescu": "Ștefănescu",  # NFC: S and a combining comma below are the one letter Ș
    "\u3000Väinö\u00a0": "Väinö",  # ideographic and no-break spaces are spaces too
    " " * 8 + "x" * 32: "x" * 32,  # 40 as sent, 32 as stored
    "e\u0301" * 32: "é" * 32,  # 64 code points as sent, 32 letters as stored
    "Řehoř Айгүл": "Řehoř Айгүл",
    "حسین\u200cزاده": "حسین\u200cزاده",  # a Persian name needs its non-joiner
    "👩\u200d💻": "👩\u200d💻",  # an emoji sequence its joiner
    "": None,
    " \u3000 ": None,  # only spaces: no name, as if none were sent
}
"""Names as sent, and as the server stores and shows them."""


def test_names_holding_control_or_format_characters_are_refused(server: Server) -> None:
    _, created = server.post("/api/tables", {"players": 2})
    table_id = created["table"]["id"]
    before = len(server.stored_events())
    for name in REFUSED_NAMES:
        status, error = server.post("/api/tables", {"players": 2, "name": name})
        assert (status, error["code"]) == (400, "bad_request"), (name, error)
        assert error["message"].startswith("invalid request: name: "), error
        assert name.strip() not in error["message"]  # the message says which character, never echoes the name
        status, error = server.post(f"/api/tables/{table_id}/join", {"name": name})
        assert (status, error["code"]) == (400, "bad_request"), (name, error)
        assert error["message"].startswith("invalid request: name: "), error
    assert "U+202E at character 4" in server.post("/api/tables", {"name": "Ana\u202eoB"})[1]["message"]
    assert len(server.stored_events()) == before, "a refused name creates no table"
    assert server.get(f"/api/tables/{table_id}")[1]["seats"][1]["kind"] == "free", "and takes no seat"


def test_names_are_stored_trimmed_in_nfc_and_blank_ones_are_no_name(server: Server) -> None:
    sent = list(STORED_NAMES)
    for start in range(0, len(sent), 4):  # four names to a table: the creator's and three joins
        names = sent[start : start + 4]
        _, created = server.post("/api/tables", {"players": 4, "name": names[0]})
        table_id = created["table"]["id"]
        assert created["table"]["seats"][0]["name"] == STORED_NAMES[names[0]]
        for name in names[1:]:
            assert server.post(f"/api/tables/{table_id}/join", {"name": name})[0] == 200
        seats = server.get(f"/api/tables/{table_id}")[1]["seats"]
        assert [seat["name"] for seat in seats[: len(names)]] == [STORED_NAMES[name] for name in names]
        taken = [event for event in server.stored_events()[table_id] if event["type"] == "seat_taken"]
        assert [event["name"] for event in taken] == [STORED_NAMES[name] for name in names]


def test_a_name_stored_before_names_were_checked_is_shown_as_no_name() -> None:
    """What the lobby of another process builds from the events it hears (a table it does not hold)."""
    tables = Elsewhere()
    config = {"players": 2, "dealer": 0, "pass_sixes": True, "must_beat": False, "computer": {}}
    tables.heard("abc", 0, {"type": "table_created", "config": config, "created": 1.0})
    tables.heard("abc", 1, {"type": "seat_taken", "seat": 0, "name": "\x1b[2JAna", "by": "player"})
    tables.heard("abc", 2, {"type": "seat_taken", "seat": 1, "name": " Bo ", "by": "player"})
    assert [seat.name for seat in tables.infos()[0].seats] == [None, "Bo"]


async def _resigned(seats: list[Seat], match_over: bool) -> None:
    """Play the trump choices of a fresh duel, then seat 0 resigns: the hand (and a one-hand match) is over."""

    def in_play(seat: Seat) -> bool:
        view = seat.last["view"] if seat.last else None
        return bool(view and view["phase"] not in ("trump_choice", "deal"))

    async def follow(seat: Seat) -> None:
        while not in_play(seat):
            if seat.my_turn():
                await seat.play_one()
            await seat.update()

    await asyncio.gather(*(follow(seat) for seat in seats))
    await seats[0].send({"type": "resign", "last_seen": seats[0].event_no})
    while not (await seats[0].update())["hand_end"]:
        pass
    assert seats[0].last is not None and seats[0].last["score"]["match_over"] is match_over


def test_a_seat_may_be_left_after_the_match_is_over_and_nothing_else_changes(server: Server) -> None:
    _, created = server.post("/api/tables", {"players": 2, "match_hands": 1, "name": "Ana"})
    table_id = created["table"]["id"]
    _, joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bo"})
    url = f"{server.ws}/ws/tables/{table_id}"

    async def scenario() -> None:
        stayer, leaver = Seat(url, created["token"], 0), Seat(url, joined["token"], 1)
        for seat in (stayer, leaver):
            await seat.connect()
            await seat.update()
        await _resigned([stayer, leaver], match_over=True)
        over = stayer.last
        assert over is not None and over["status"] == "finished"
        status, left = await asyncio.to_thread(server.post, f"/api/tables/{table_id}/leave", {"token": leaver.token})
        assert (status, left) == (200, {"type": "left", "table_id": table_id, "seat": 1})
        update = await stayer.update()
        assert (update["event_no"], update["event"], update["by"]) == (
            over["event_no"] + 1,
            {"type": "seat_freed", "seat": 1},
            "player",
        )
        assert update["seats"][1] == {
            "seat": 1,
            "kind": "free",
            "name": None,
            "level": None,
            "connected": False,
            "left": True,
            "held_until": None,
        }
        assert update["status"] == "finished"
        assert update["score"] == over["score"] and update["hand_end"] == over["hand_end"]
        assert await leaver.close_code() == 4000
        reply, code = await _refused_hello(url, leaver.token)
        assert (reply["code"], code) == ("bad_token", 1008)
        await stayer.close()

    asyncio.run(scenario())
    status, info = server.get(f"/api/tables/{table_id}")
    assert info["status"] == "finished" and info["seats"][1]["left"] and info["seats"][0]["name"] == "Ana"
    assert server.post(f"/api/tables/{table_id}/leave", {"token": joined["token"]})[1]["code"] == "bad_token"
    status, error = server.post(f"/api/tables/{table_id}/join", {"name": "Cy"})
    assert (status, error["code"]) == (409, "match_over")  # the seat stays free for good


def test_a_table_whose_seats_are_all_taken_never_reads_waiting(server: Server) -> None:
    # Filled by its creation (the creator and a computer seat): the answer comes, as a rule, before the first hand
    # has started (hand 0), and whether or not it has, it reads playing.
    status, created = server.post("/api/tables", {"players": 2, "computer": [{"seat": 1, "level": "easy"}]})
    assert status == 200 and created["table"]["status"] == "playing", created["table"]
    # Filled by a join, while the creator watches (a spectator has no place here: this module's tables take two
    # connections, and spectators leave one for each seat): the update of that seat_taken comes before the hand.
    _, created = server.post("/api/tables", {"players": 2})
    table_id = created["table"]["id"]

    async def scenario() -> None:
        watcher = Seat(f"{server.ws}/ws/tables/{table_id}", created["token"], 0)
        await watcher.connect()
        assert (await watcher.update())["status"] == "waiting"  # seat 1 is free
        await asyncio.to_thread(server.post, f"/api/tables/{table_id}/join", {})
        filled = await watcher.update()
        assert filled["event"]["type"] == "seat_taken" and filled["view"] is None
        assert (filled["status"], filled["score"]["hand"]) == ("playing", 0)
        started = await watcher.update()
        assert (started["event"]["type"], started["by"], started["status"]) == ("hand_started", "server", "playing")
        await watcher.close()

    asyncio.run(scenario())
    for table in server.get("/api/tables")[1]["tables"]:
        assert table["status"] != "waiting" or any(seat["kind"] == "free" for seat in table["seats"]), table


def test_the_lobby_of_another_process_says_playing_once_every_seat_is_taken() -> None:
    tables = Elsewhere()
    config = {"players": 2, "dealer": 0, "pass_sixes": True, "must_beat": False, "computer": {"1": "easy"}}
    tables.heard("abc", 0, {"type": "table_created", "config": config, "created": 1.0})
    assert tables.infos()[0].status == "waiting"
    tables.heard("abc", 1, {"type": "seat_taken", "seat": 0, "name": "Ann", "by": "player"})
    assert (tables.infos()[0].status, tables.infos()[0].hand) == ("playing", 0)
    tables.heard("abc", 2, {"type": "seat_freed", "seat": 0, "by": "player"})
    assert tables.infos()[0].status == "waiting"  # left before the first hand started: it did not start
    tables.heard("abc", 3, {"type": "seat_taken", "seat": 0, "name": "Bo", "by": "player"})
    tables.heard("abc", 4, {"type": "hand_started", "hand": 1, "dealer": 0, "seed": "1", "by": "server"})
    tables.heard("abc", 5, {"type": "seat_freed", "seat": 0, "by": "player"})
    assert (tables.infos()[0].status, tables.infos()[0].hand) == ("playing", 1)  # a seat left during the match


def test_next_hand_before_the_first_hand_is_no_game(server: Server) -> None:
    """docs/protocol.md: `no_game` is "nothing to play", `hand_not_over` "the hand is still on". Before the first hand
    (a seat still free) there is no hand to be over: `next_hand` gets `no_game`, and nothing starts."""
    _, created = server.post("/api/tables", {"players": 2})
    table_id = created["table"]["id"]

    async def scenario() -> None:
        seat = Seat(f"{server.ws}/ws/tables/{table_id}", created["token"], 0)
        await seat.connect()
        await seat.update()
        refused = await first_error(seat, {"type": "next_hand", "last_seen": seat.event_no})
        assert (refused["code"], refused["event_no"]) == ("no_game", seat.event_no), refused
        assert "starts by itself" in refused["message"]
        await still_served(seat)
        await seat.close()

    asyncio.run(scenario())
    assert server.get(f"/api/tables/{table_id}")[1]["hand"] == 0


def test_the_leavers_own_connection_gets_the_seat_freed_update_before_it_closes(server: Server) -> None:
    """docs/protocol.md, *Leaving a seat*: `seat_freed` "takes the next event number and every connection gets its
    update", and the connections that held the seat are closed (4000): the leaver's page (another tab of it) hears
    the event it made, in which the seat reads free and nobody's, before its close."""
    table_id, token0, token1 = new_duel(server)
    url = f"{server.ws}/ws/tables/{table_id}"

    async def scenario() -> None:
        stayer, leaver = Seat(url, token0, 0), Seat(url, token1, 1)
        for seat in (stayer, leaver):
            await seat.connect()
            await seat.update()
        seen = leaver.event_no
        assert (await asyncio.to_thread(server.post, f"/api/tables/{table_id}/leave", {"token": token1}))[0] == 200
        for seat in (stayer, leaver):
            update = await seat.update()
            assert (update["event_no"], update["event"]) == (seen + 1, {"type": "seat_freed", "seat": 1})
            assert update["seats"][1]["kind"] == "free" and not update["seats"][1]["connected"], update["seats"]
        assert await leaver.close_code() == 4000
        await stayer.close()

    asyncio.run(scenario())
