"""The lobby lists tables one can join or watch, the latest news first, and says when a seat's player left.

In-process (Starlette's TestClient), to set the hub's clock: a match nobody plays leaves the lobby.
"""

from __future__ import annotations

import contextlib
import time
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from rules.server import tables
from rules.server.app import create_app
from rules.server.hub import ABANDONED_SECONDS
from rules.server.limits import Settings

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


def _ids(client: TestClient) -> list[str]:
    return [table["id"] for table in client.get("/api/tables").json()["tables"]]


def test_the_lobby_lists_fresh_tables_first_and_drops_abandoned_matches(tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "lobby.sqlite3"), bot_processes=0, sync="normal", max_tables_per_client=0)
    app = create_app(settings)
    with TestClient(app) as client:
        hub = app.state.hub

        def create(**body: Any) -> dict[str, Any]:
            answer: dict[str, Any] = client.post("/api/tables", json=body).json()
            return answer

        waiting = create(name="Ann")["table"]["id"]
        played = create(name="Bo")
        played_id = played["table"]["id"]
        joined = client.post(f"/api/tables/{played_id}/join", json={"name": "Cy"}).json()
        # The freshest first: the second table has had news since the first was created.
        assert _ids(client) == [played_id, waiting]
        # Cy leaves the match under way: the lobby says the seat is free because its player left.
        client.post(f"/api/tables/{played_id}/leave", json={"token": joined["token"]})
        seats = next(t for t in client.get("/api/tables").json()["tables"] if t["id"] == played_id)["seats"]
        assert (seats[1]["kind"], seats[1]["left"]) == ("free", True)
        assert (seats[0]["kind"], seats[0]["left"]) == ("human", False)
        never_taken = client.get(f"/api/tables/{waiting}").json()["seats"][1]
        assert (never_taken["kind"], never_taken["left"]) == ("free", False)

        # Nobody connected for longer than ABANDONED_SECONDS: the match under way leaves the lobby;
        # a table still waiting for its first hand stays, and the link to the other still works.
        later = time.monotonic() + ABANDONED_SECONDS + 1
        listed = [table.id for table in hub.lobby_tables(now=later)]
        assert listed == [waiting]
        assert client.get(f"/api/tables/{played_id}").json()["status"] == "playing"


def test_a_match_nobody_watches_leaves_the_lobby_though_its_clock_and_computer_play_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match whose clock and computer seat play on is not idle, but only a connection keeps it listed."""
    settings = Settings(db=str(tmp_path / "unwatched.sqlite3"), bot_processes=0, sync="normal")
    app = create_app(settings)
    with TestClient(app) as client:
        hub = app.state.hub
        # The table is made, and played at first, ABANDONED_SECONDS and more ago (as the tables' clock has it).
        past = types.SimpleNamespace(
            monotonic=lambda: time.monotonic() - ABANDONED_SECONDS - 10, time=time.time, perf_counter=time.perf_counter
        )
        with monkeypatch.context() as patched:
            patched.setattr(tables, "time", past)
            body = {"name": "Ann", "computer": [{"seat": 1, "level": "easy"}], "clock": 1}
            table_id = client.post("/api/tables", json=body).json()["table"]["id"]
            table = hub.tables[table_id]
            then = table.event_no
        # Nobody ever connected; now the clock and the computer seat play on, and the table is not quiet.
        deadline = time.monotonic() + 10
        while table.event_no == then and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.event_no > then and table.hand_no == 1
        assert time.monotonic() - table.quiet_since < ABANDONED_SECONDS
        assert table_id not in _ids(client)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"  # its link still works
        # Somebody watching keeps it listed, and for ABANDONED_SECONDS after they leave.
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": None, "last_seen": None})
            assert ws.receive_json()["type"] == "welcome"
            assert table_id in _ids(client)
        while table.connections:  # the server notices the close
            time.sleep(0.01)
        assert table_id in _ids(client)
        assert table_id not in [t.id for t in hub.lobby_tables(now=time.monotonic() + ABANDONED_SECONDS + 1)]


def test_only_a_table_made_a_seat_taken_or_left_and_a_hand_started_are_news(tmp_path: Path) -> None:
    """The lobby's order: not a move, not a player or spectator coming or going, not a restart, not waking a table."""
    db = str(tmp_path / "news.sqlite3")
    settings = Settings(db=db, bot_processes=0, sync="normal", max_tables_per_client=0)
    with TestClient(create_app(settings)) as client:
        app = client.app
        ann = client.post("/api/tables", json={"name": "Ann"}).json()
        a = ann["table"]["id"]
        b = client.post("/api/tables", json={"name": "Bo"}).json()["table"]["id"]
        assert _ids(client) == [b, a]
        for token in (None, ann["token"]):  # a spectator, then Ann, come and go
            with _connected(client, a, token):
                assert _ids(client) == [b, a]
            while app.state.hub.tables[a].connections:  # the server notices the close
                time.sleep(0.01)
            assert _ids(client) == [b, a]
        cy = client.post(f"/api/tables/{a}/join", json={"name": "Cy"}).json()  # a seat taken, a hand started
        assert _ids(client) == [a, b]
        client.post(f"/api/tables/{b}/join", json={"name": "Di"})
        assert _ids(client) == [b, a]
        with _connected(client, a, cy["token"]) as (ws, update):  # Cy chooses a trump: a move
            move = update["view"]["legal_moves"][0]
            ws.send_json({"type": "move", "event": move, "last_seen": update["event_no"]})
            while (answer := ws.receive_json())["type"] != "update":  # a presence first, maybe
                assert answer["type"] == "presence", answer
            assert answer["event_no"] == update["event_no"] + 1
        assert _ids(client) == [b, a]
        client.post(f"/api/tables/{a}/leave", json={"token": cy["token"]})  # a seat left
        assert _ids(client) == [a, b]
    with TestClient(create_app(settings)) as client:  # restarted: the order is stored
        assert _ids(client) == [a, b]
    with TestClient(create_app(settings.replace(idle_table_seconds=0.1))) as client:
        hub = client.app.state.hub
        while a in hub.tables or b in hub.tables:  # both fall asleep, and leave the lobby
            time.sleep(0.02)
        with _connected(client, a, None), _connected(client, b, None):  # a spectator wakes each, b last
            assert _ids(client) == [a, b]


@contextlib.contextmanager
def _connected(client: TestClient, table_id: str, token: str | None) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A connection to the table that said hello (``token`` None: a spectator), with its first update."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "last_seen": None})
        assert ws.receive_json()["type"] == "welcome"
        update = ws.receive_json()
        assert update["type"] == "update", update
        yield ws, update


def test_the_config_gives_the_rules_address_only_when_the_server_has_one_and_the_defaults_of_a_table(
    tmp_path: Path,
) -> None:
    for rules_url, shown in (("", None), ("https://rules.example/svoi-kozyri/", "https://rules.example/svoi-kozyri/")):
        settings = Settings(db=str(tmp_path / "config.sqlite3"), bot_processes=0, rules_url=rules_url)
        with TestClient(create_app(settings)) as client:
            config = client.get("/api/config").json()
            assert config == {"type": "config", "rules_url": shown, "defaults": config["defaults"]}
            # The defaults the lobby's form starts from are those a table is made with when the request leaves
            # them out.
            made = client.post("/api/tables", json={"join": False}).json()["table"]
            assert config["defaults"] == {"players": made["players"], **made["rules"]}


def test_a_rules_address_that_is_no_web_address_is_refused() -> None:
    assert Settings.from_env({"TRUMPS_RULES_URL": "https://rules.example/"}).rules_url == "https://rules.example/"
    for wrong in ("javascript:alert(1)", "rules.example", "/rules"):
        with pytest.raises(ValueError) as refused:
            Settings.from_env({"TRUMPS_RULES_URL": wrong})
        assert str(refused.value) == f"TRUMPS_RULES_URL: {wrong!r} is not an http:// or https:// address"
