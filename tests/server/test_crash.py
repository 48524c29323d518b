"""SIGKILL the server in the middle of busy play: every acknowledged move survives, every game goes on."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import pytest
from server_helpers import Seat, Server, hand_over, play_until
from websockets.exceptions import ConnectionClosed

TABLES = 12


def test_every_acknowledged_move_survives_a_crash(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    db = tmp_path / "crash.sqlite3"
    server = Server(db, TRUMPS_RATE="1000", TRUMPS_BURST="1000", TRUMPS_MAX_TABLES_PER_CLIENT="0").start()
    request.addfinalizer(server.stop)  # also when the test fails: no server left behind (stop is idempotent)
    tables: list[tuple[str, str, str]] = []
    for _ in range(TABLES):
        _, created = server.post("/api/tables", {"players": 2})
        _, joined = server.post(f"/api/tables/{created['table']['id']}/join", {})
        tables.append((created["table"]["id"], created["token"], joined["token"]))

    async def busy_until_killed() -> list[Seat]:
        seats = []
        for index, (table_id, token0, token1) in enumerate(tables):
            url = f"{server.ws}/ws/tables/{table_id}"
            for seat, token in ((0, token0), (1, token1)):
                seats.append(Seat(url, token, seat, rng=random.Random(index * 2 + seat), random_moves=True))
        for seat in seats:
            await seat.connect()

        async def play(seat: Seat) -> None:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                await play_until([seat], lambda s: False, timeout=60)

        players = [asyncio.create_task(play(seat)) for seat in seats]
        while sum(len(seat.acked) for seat in seats) < 600:
            await asyncio.sleep(0.01)
        server.kill()  # in the middle of play: moves are in flight on every table
        await asyncio.gather(*players)
        return seats

    seats = asyncio.run(busy_until_killed())
    acked = [(seat, no, event) for seat in seats for no, event in seat.acked]
    assert len(acked) >= 600

    server.start()  # the same database file, a new process
    stored = server.stored_events()
    for seat, no, event in acked:
        table_id = seat.url.rsplit("/", 1)[1]
        record = {key: value for key, value in stored[table_id][no - 1].items() if key not in ("by", "at")}
        sent = {key: value for key, value in event.items() if value is not None}
        assert record == sent, f"acknowledged event {no} of table {table_id} is not the stored one"

    _, lobby = server.get("/api/tables")
    event_numbers = {table["id"]: table["event_no"] for table in lobby["tables"]}
    assert event_numbers == {table_id: len(stored[table_id]) for table_id, _, _ in tables}

    async def go_on() -> list[Seat]:
        resumed = []
        for old in seats:
            seat = Seat(old.url, old.token, old.seat, rng=random.Random(old.seat))
            table_id = old.url.rsplit("/", 1)[1]
            committed = len(stored[table_id])
            assert committed >= old.event_no  # a client never saw an event that is not stored
            await seat.connect(last_seen=old.event_no)
            if committed > old.event_no:  # it missed events; after a restart the server resyncs it in full
                update = await seat.update()
                assert update["resync"] and update["event_no"] == committed
            else:  # it missed nothing: nothing is sent, and its last picture is still the table's
                await seat.send({"type": "ping"})
                assert (await seat.recv())["type"] == "pong"
                seat.last, seat.event_no = old.last, old.event_no
            resumed.append(seat)
            if seat.last and seat.last["hand_end"]:  # the crash came right after this hand ended
                over_before_restart.add(table_id)
        # Every game can go on: each table plays its hand to the end with the quick policy.
        await play_until(resumed, hand_over, timeout=60)
        for seat in resumed:
            await seat.close()
        return resumed

    over_before_restart: set[str] = set()
    resumed = asyncio.run(go_on())
    assert all(seat.last and seat.last["hand_end"] for seat in resumed)
    after = server.stored_events()
    assert len(over_before_restart) < len(tables) // 2  # the crash came in the middle of play
    for table_id, _, _ in tables:  # each game went on from where the crash left it, to the end of the hand
        if table_id not in over_before_restart:
            assert len(after[table_id]) > len(stored[table_id])
    server.stop()
