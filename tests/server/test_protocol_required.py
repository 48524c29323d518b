"""spec/protocol.schema.json requires exactly what a real ``trumps serve`` always sends.

A client generated from the schema reads a field the schema does not require as one that may be missing.
So every field the server always sends, null or not, must be required of the server's messages and bodies,
and the server sends no field the schema does not list. A match is played over HTTP and WebSockets through
all that a table sends (every message type; seats taken and freed, a draw offered and declined, a resignation,
a draw agreed, a rematch, refusals of many kinds) and every object of every message is checked against the
definition it is read by. What a client sends keeps its defaults optional: the server accepts it without them.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from schema_shapes import Shapes
from server_helpers import Seat, Server, first_error, hand_over, play_until

SPEC = Path(__file__).resolve().parents[2] / "spec"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"TRUMPS_RATE": "1000", "TRUMPS_BURST": "1000", "TRUMPS_MAX_TABLES_PER_CLIENT": "0"}
    server = Server(tmp_path_factory.mktemp("required") / "required.sqlite3", **env)
    yield server.start()
    server.stop()


class Bodies:
    """The server's HTTP answers, each with the definition of spec/protocol.schema.json that describes it."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.bodies: list[tuple[str, Any]] = []

    def post(self, path: str, body: Any, answer: str) -> dict[str, Any]:
        status, reply = self.server.post(path, body)
        return self._note(status, reply, answer)

    def get(self, path: str, answer: str) -> dict[str, Any]:
        status, reply = self.server.get(path)
        return self._note(status, reply, answer)

    def _note(self, status: int, reply: dict[str, Any], answer: str) -> dict[str, Any]:
        self.bodies.append(("HttpError" if status >= 400 else answer, reply))
        return reply


def in_play(seat: Seat) -> bool:
    view = seat.last["view"] if seat.last else None
    return bool(view and view["phase"] in ("lead", "respond", "second"))


async def until(seat: Seat, kind: str) -> dict[str, Any]:
    while (message := await seat.recv())["type"] != kind:
        pass
    return message


async def each_until_hand_over(seats: list[Seat]) -> None:
    for seat in seats:
        while not hand_over(seat):
            await seat.update()


def test_the_schema_requires_exactly_what_the_server_always_sends(server: Server) -> None:
    http = Bodies(server)
    created = http.post("/api/tables", {"players": 2, "name": "Ana", "clock": 600, "match_hands": 2}, "TableCreated")
    table_id = created["table"]["id"]
    url = f"{server.ws}/ws/tables/{table_id}"
    a = Seat(url, created["token"], 0, rng=random.Random(3))
    watcher = Seat(url, None, None)
    unseated = http.post("/api/tables", {"players": 3, "computer": [{"seat": 2}], "join": False}, "TableCreated")
    against = http.post("/api/tables", {"players": 2, "computer": [{"seat": 1, "level": "easy"}]}, "TableCreated")
    c = Seat(f"{server.ws}/ws/tables/{against['table']['id']}", against["token"], 0, rng=random.Random(5))

    async def match() -> None:
        for seat in (a, watcher):
            await seat.connect()
            await seat.update()
        # Before hello: a pong of event 0, an error whose event_no is null.
        stranger = await websockets.connect(url)
        await stranger.send(json.dumps({"type": "ping", "nonce": 1}))
        await stranger.send(json.dumps({"type": "next_hand", "last_seen": 0}))
        for _ in range(2):
            a.texts.append(await asyncio.wait_for(stranger.recv(), 10))
        await stranger.close()

        joined = http.post(f"/api/tables/{table_id}/join", {"name": "Bo"}, "Joined")
        b = Seat(url, joined["token"], 1, rng=random.Random(4))
        await b.connect()
        seats = [a, b]
        http.get("/api/tables", "Lobby")
        http.get(f"/api/tables/{table_id}", "TableInfo")
        http.get(f"/api/tables/{unseated['table']['id']}", "TableInfo")
        http.post(f"/api/tables/{table_id}/join", {}, "Joined")  # table_full
        http.post("/api/tables/nowhere/join", {}, "Joined")  # not_found
        http.post("/api/tables", b"[]", "TableCreated")  # bad_request
        http.post(f"/api/tables/{table_id}/leave", {"token": "x"}, "Left")  # bad_token
        http.post("/api/replay", {"log": "{}"}, "Replay")  # bad_log, with its line
        http.post(f"/api/tables/{table_id}/rematch", {"token": created["token"]}, "Rematched")  # match_not_over

        await a.send({"type": "ping", "nonce": "n"})
        await until(a, "pong")
        await a.send({"type": "ping"})
        await until(a, "pong")
        refused = await first_error(a, {"type": "resign", "last_seen": a.event_no})
        assert refused["code"] == "illegal" and refused["refusal"]["code"] == "before_play"
        for wrong in ("{nope", {"type": "move"}, {"type": "x"}, {"type": "next_hand", "last_seen": 0}):
            await first_error(a, wrong)
        await first_error(watcher, {"type": "resign", "last_seen": watcher.event_no})  # spectator

        # Hand 1: a draw offered and declined, then a resignation.
        await play_until(seats, in_play)
        await a.send({"type": "draw", "agree": True, "last_seen": a.event_no})
        for seat in seats:
            await until(seat, "draw_offered")
        await b.send({"type": "draw", "agree": False, "last_seen": b.event_no})
        for seat in seats:
            await until(seat, "draw_offered")
        await b.send({"type": "resign", "last_seen": b.event_no})
        await each_until_hand_over(seats)
        # Hand 2, the last of the match: played a while, then a draw agreed.
        started = a.event_no
        await a.send({"type": "next_hand", "last_seen": a.event_no})
        await play_until(seats, lambda seat: in_play(seat) and seat.event_no > started + 6)
        await a.send({"type": "draw", "agree": True, "last_seen": a.event_no})
        await until(b, "draw_offered")
        await b.send({"type": "draw", "agree": True, "last_seen": b.event_no})
        await each_until_hand_over(seats)
        assert a.last is not None and a.last["score"]["match_over"]

        # The rematch, asked for twice; a seat left.
        http.post(f"/api/tables/{table_id}/rematch", {"token": created["token"]}, "Rematched")
        http.post(f"/api/tables/{table_id}/rematch", {"token": joined["token"], "name": "Bo"}, "Rematched")
        for seat in seats:
            await seat.update()
        http.post(f"/api/tables/{table_id}/leave", {"token": joined["token"]}, "Left")
        await a.update()
        while watcher.event_no < a.event_no:
            await watcher.update()
        http.get("/api/tables", "Lobby")
        for seat in (*seats, watcher):
            await seat.close()

        # Against the computer, hands played to their end until one is lost by the tie check (no reason).
        await c.connect()
        await c.update()
        for _ in range(12):
            await play_until([c], hand_over)
            assert c.last is not None
            if "reason" not in c.last["hand_end"]["outcome"]:
                break
            await c.send({"type": "next_hand", "last_seen": c.event_no})
            await c.update()
        else:
            raise AssertionError("twelve hands, and none lost by the tie check")
        await c.close()
        texts.extend(text for seat in (*seats, watcher, c) for text in seat.texts)

    texts: list[str] = []
    asyncio.run(match())

    schema = json.loads((SPEC / "protocol.schema.json").read_text(encoding="utf-8"))
    shapes = Shapes(schema)
    messages = [json.loads(text) for text in texts]
    for message in messages:
        shapes.read(message, "ServerMessage")
    for definition, body in http.bodies:
        if definition != "Replay":  # the analysis board's answers are not in the schema; its errors are
            shapes.read(body, definition)
    kinds = {message["type"] for message in messages}
    assert kinds == {"welcome", "update", "presence", "draw_offered", "error", "pong"}
    events = {message["event"]["type"] for message in messages if message["type"] == "update" and message["event"]}
    assert {"seat_taken", "hand_started", "choose_trump", "deal", "lead", "resign", "agree_draw", "rematch"} <= events
    assert {"seat_freed", "beat"} <= events
    assert {"TableCreated", "Joined", "Left", "Rematched", "Lobby", "TableInfo", "HttpError"} <= set(shapes.seen)
    assert {"Update", "View", "HandEnd", "Outcome", "Score", "SeatInfo", "RuleRefusal", "GameOver"} <= set(shapes.seen)
    problems = shapes.problems()
    assert not problems, "\n".join(problems)


def test_what_a_client_sends_keeps_its_defaults_optional() -> None:
    """The server accepts a client's message or request body without the fields that have a default."""
    defs = json.loads((SPEC / "protocol.schema.json").read_text(encoding="utf-8"))["$defs"]
    accepted = {
        "Hello": ["type"],
        "Ping": ["type"],
        "MoveMessage": ["type", "event", "last_seen"],
        "CreateTable": [],
        "JoinTable": [],
        "LeaveTable": ["token"],
        "RematchTable": ["token"],
        "ComputerSeat": ["seat"],
    }
    for name, required in accepted.items():
        assert defs[name].get("required", []) == required, name
    move = defs["MoveMessage"]["properties"]["event"]
    takes = [each["then"]["$ref"] for each in move["allOf"] if each["if"]["properties"]["type"]["const"] == "take"]
    assert [defs[ref.removeprefix("#/$defs/")].get("required") for ref in takes] == [["type", "seat"]]
