"""The server's own failures, provoked in-process (Starlette's TestClient): a broken bot, a refusing disk."""

from __future__ import annotations

import asyncio
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from rules.server import bots
from rules.server.app import create_app
from rules.server.limits import Settings
from rules.server.store import EventStore, StoreError, StoreUnavailable

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # Bots in threads, so that the broken bot patched in below is the one that plays.
    with TestClient(create_app(Settings(db=str(tmp_path / "failures.sqlite3"), bot_processes=0))) as client:
        yield client


def _updates_until(ws: Any, done: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "update" and done(message):
            return message


def _not_presence(ws: Any) -> dict[str, Any]:
    """The next message that is not news of who is connected."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] != "presence":
            return message


class _BrokenBot:
    name = "broken"

    def choose(self, view: object) -> object:
        raise RuntimeError("the search blew up")


def test_a_failing_bot_does_not_stop_its_table(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "make_player", lambda level, seed=None: _BrokenBot())
    monkeypatch.setattr(bots, "_PLAYERS", OrderedDict())
    created = client.post("/api/tables", json={"computer": [{"seat": 1, "level": "easy"}]}).json()
    with client.websocket_connect(f"/ws/tables/{created['table']['id']}") as ws:
        ws.send_json({"type": "hello", "token": created["token"], "last_seen": None})
        # Seat 1 (the bot) chooses first; it fails, so a random legal choice is played for it.
        update = _updates_until(ws, lambda m: m["event"] and m["event"]["type"] == "choose_trump")
        assert update["by"] == "computer" and update["event"]["seat"] == 1
        assert update["view"]["legal_moves"], "seat 0 is asked to choose next"


def test_a_refused_write_leaves_the_table_as_it_was(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    created = client.post("/api/tables", json={"players": 2}).json()
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={}).json()
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": joined["token"], "last_seen": None})
        update = _updates_until(ws, lambda m: m["view"] and m["view"]["legal_moves"])
        move, seen = update["view"]["legal_moves"][0], update["event_no"]

        def refuse(self: EventStore, *args: object) -> asyncio.Future[None]:
            refused: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            refused.set_exception(StoreError("the database refused the write: disk I/O error"))
            return refused

        with monkeypatch.context() as patched:
            patched.setattr(EventStore, "append", refuse)
            ws.send_json({"type": "move", "event": move, "last_seen": seen})
            error = _not_presence(ws)
        assert error["type"] == "error" and error["code"] == "internal" and "nothing changed" in error["message"]
        assert error["event_no"] == seen, "the table's current event number, as every error after hello"
        assert "disk" not in error["message"], "server internals stay in the server's log"
        ws.send_json({"type": "move", "event": move, "last_seen": seen})  # the same move, now stored
        played = _updates_until(ws, lambda m: True)
        assert played["event_no"] == seen + 1 and played["event"] == move


def test_every_request_that_reads_the_database_answers_503_while_it_cannot_be_reached(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/protocol.md: `unavailable` 503, "the database cannot be reached right now: try again", for every HTTP
    request that needs it, the analysis board's hand logs too (they read the table's events from the database)."""
    table_id = client.post("/api/tables", json={"players": 2}).json()["table"]["id"]

    async def unreachable(self: EventStore, table_id: str) -> None:
        raise StoreUnavailable("the database does not answer")

    monkeypatch.setattr(EventStore, "load", unreachable)
    for path in ("/api/tables/sleeping", f"/api/tables/{table_id}/hands/1/log"):
        answer = client.get(path)
        assert (answer.status_code, answer.json()["code"]) == (503, "unavailable"), (path, answer.text)
    answer = client.post("/api/tables/sleeping/join", json={})
    assert (answer.status_code, answer.json()["code"]) == (503, "unavailable")
