"""Two server processes on one real PostgreSQL database, each deciding on the committed truth.

A token, a seat or an event committed on one process counts on the other at once (read your
writes), a seat's credentials end on every process when it is left (no stale token's move is
ever stored), the per-address table limit holds exactly against creates racing on both, and a
table's lead (its clock) follows its players. The two processes are started once for the
module (the limit's race starts two of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import http.client
import itertools
import json
import random
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest
import websockets
from postgres import drop_database, fresh_database
from server_helpers import Seat, Server, choose, play_until
from websockets.exceptions import ConnectionClosed

FAST = {
    "TRUMPS_RATE": "1000",
    "TRUMPS_BURST": "1000",
    "TRUMPS_BOT_PROCESSES": "0",
    "TRUMPS_MAX_TABLES_PER_CLIENT": "0",
    "TRUMPS_RELEASE_SECONDS": "0.5",
}


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[Server, Server]]:
    database = fresh_database()
    a, b = Server(database, **FAST), Server(database, **FAST)
    try:
        a.start(), b.start()
        yield a, b
    finally:
        a.stop(), b.stop()
        drop_database(database)


def _create(server: Server, **config: Any) -> dict[str, Any]:
    status, created = server.post("/api/tables", {"players": 2, **config})
    assert status == 200, created
    return created


def test_a_table_created_on_one_process_is_known_at_once_on_the_other(pair: tuple[Server, Server]) -> None:
    """Create on a, then at once hello with the new token on b (and look the table up on b): 200 times, no refusal."""
    a, b = pair

    async def run() -> list[dict[str, Any]]:
        refused = []
        for _ in range(200):
            created = _create(a)
            table_id = created["table"]["id"]
            async with websockets.connect(f"{b.ws}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if welcome["type"] != "welcome" or welcome["seat"] != 0:
                refused.append(welcome)
        return refused

    assert asyncio.run(run()) == []
    for _ in range(20):
        created = _create(a)
        status, info = b.get(f"/api/tables/{created['table']['id']}")
        assert status == 200 and info["event_no"] == 1 and info["seats"][0]["kind"] == "human", info


def test_a_seat_left_through_another_process_closes_its_sockets_everywhere(pair: tuple[Server, Server]) -> None:
    a, b = pair
    created = _create(a, join=False)
    table_id = created["table"]["id"]
    _, first = a.post(f"/api/tables/{table_id}/join", {"seat": 0})
    _, second = a.post(f"/api/tables/{table_id}/join", {"seat": 1})

    async def run() -> None:
        leaver = Seat(f"{b.ws}/ws/tables/{table_id}", second["token"], 1)
        stayer = Seat(f"{a.ws}/ws/tables/{table_id}", first["token"], 0)
        await leaver.connect()
        await stayer.connect()
        status, left = a.post(f"/api/tables/{table_id}/leave", {"token": second["token"]})
        assert status == 200 and left["seat"] == 1
        assert await leaver.close_code() == 4000
        assert leaver.last is not None and leaver.last["event"] == {"type": "seat_freed", "seat": 1}
        # Someone else sits down in seat 1 (through b); the old token holds nothing anywhere.
        status, newcomer = b.post(f"/api/tables/{table_id}/join", {"seat": 1})
        assert status == 200
        for server in (a, b):
            async with websockets.connect(f"{server.ws}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": second["token"]}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "bad_token"
            status, refusal = server.post(f"/api/tables/{table_id}/leave", {"token": second["token"]})
            assert status == 403 and refusal["code"] == "bad_token"
        seated = Seat(f"{a.ws}/ws/tables/{table_id}", newcomer["token"], 1)
        welcome = await seated.connect()
        assert welcome["seat"] == 1
        hand = (await seated.update())["view"]
        # The old holder heard its seat_freed (every connection gets it, docs/protocol.md), nothing of the newcomer's
        for text in leaver.texts:
            assert json.loads(text).get("event_no", 0) <= welcome["table"]["event_no"] - 1
        await seated.close()
        await stayer.close()
        assert hand is not None

    asyncio.run(run())


def _held(server: Server) -> int:
    """How many tables the process holds in memory (its /metrics)."""
    with urllib.request.urlopen(f"{server.http}/metrics", timeout=10) as response:
        text = response.read().decode()
    return int(float(next(line for line in text.splitlines() if line.startswith("trumps_tables ")).split()[1]))


def _until(check: Any, what: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_a_process_holds_only_the_tables_it_has_a_use_for(pair: tuple[Server, Server]) -> None:
    """A duel played on a alone: b does not hold it (though its lobby lists it); a lets it go once its players
    have gone; a player's hello on b takes it up there."""
    a, b = pair
    _until(lambda: _held(a) == 0 and _held(b) == 0, "the tables of the earlier tests were let go")
    created = _create(a)
    table_id = created["table"]["id"]
    _, joined = a.post(f"/api/tables/{table_id}/join", {})

    async def play() -> list[Seat]:
        seats = [
            Seat(f"{a.ws}/ws/tables/{table_id}", token, seat)
            for seat, token in enumerate((created["token"], joined["token"]))
        ]
        for seat in seats:
            await seat.connect()
        await play_until(seats, lambda seat: seat.event_no >= 10, timeout=30)
        assert _held(a) == 1 and _held(b) == 0
        for seat in seats:
            await seat.close()
        return seats

    seats = asyncio.run(play())
    listed = {table["id"]: table for table in b.get("/api/tables")[1]["tables"]}
    # b hears only its seat and hand events (not its moves): its lobby lists it as playing.
    assert listed[table_id]["status"] == "playing" and listed[table_id]["hand"] == 1
    _until(lambda: _held(a) == 0, "a let the table go once nobody was connected to it")

    async def back_on_b() -> None:
        seat = Seat(f"{b.ws}/ws/tables/{table_id}", created["token"], 0)
        seat.event_no = seats[0].event_no
        welcome = await seat.connect(last_seen=seats[0].event_no)
        assert welcome["table"]["event_no"] >= seats[0].event_no
        assert _held(b) == 1 and _held(a) == 0
        await seat.close()

    asyncio.run(back_on_b())


def _create_from(server: Server, address: str) -> int:
    """POST /api/tables to ``server`` from the loopback ``address`` (any of 127/8): the HTTP status."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(address, 0))
    try:
        conn.request(
            "POST", "/api/tables", body=json.dumps({"players": 2}), headers={"Content-Type": "application/json"}
        )
        return conn.getresponse().status
    finally:
        conn.close()


def test_creates_racing_on_two_processes_never_pass_the_per_address_limit() -> None:
    """Eight creates at once from one address, half on each process, limit 3: exactly 3 tables, round after round."""
    database = fresh_database()
    a, b = (Server(database, **FAST | {"TRUMPS_MAX_TABLES_PER_CLIENT": "3"}) for _ in "ab")
    try:
        a.start(), b.start()
        for round_no in range(10):
            address = f"127.0.0.{20 + round_no}"
            start = threading.Barrier(8)

            def create(server: Server, address: str = address, start: threading.Barrier = start) -> int:
                start.wait()
                return _create_from(server, address)

            with ThreadPoolExecutor(8) as pool:
                statuses = sorted(pool.map(create, [a, b] * 4))
            assert statuses == [200] * 3 + [429] * 5, (address, statuses)
            with psycopg.connect(database) as conn:
                row = conn.execute("SELECT count(*) FROM tables WHERE creator = %s", (address,)).fetchone()
            assert row is not None and row[0] == 3, (address, row)
    finally:
        a.stop(), b.stop()
        drop_database(database)


_MOVES = ("choose_trump", "lead", "beat", "second", "take")


def _own_moves(seat: Seat) -> set[int]:
    """The event numbers of the moves ``seat`` was told were its own as they happened (resyncs left out)."""
    moves = set()
    for text in seat.texts:
        message = json.loads(text)
        event = message.get("event") if message["type"] == "update" and not message["resync"] else None
        if event and message["by"] == "player" and event.get("seat") == seat.seat and event["type"] in _MOVES:
            moves.add(message["event_no"])
    return moves


def test_a_stale_token_never_moves_while_its_seat_is_left_and_taken_over(pair: tuple[Server, Server]) -> None:
    """Seat 1's holder, connected to b, makes a move, then sends its next one again and again against the event
    numbers the leave and the join will take while its seat is left and taken by a newcomer through a: 15 rounds.
    In the stored events every move of seat 1 was made while its sender held the seat."""
    a, b = pair
    table_id = _create(a, join=False)["table"]["id"]
    _, first = a.post(f"/api/tables/{table_id}/join", {"seat": 0})
    tokens = [a.post(f"/api/tables/{table_id}/join", {"seat": 1})[1]["token"]]
    holders: list[Seat] = []

    async def to_seat_one(zero: Seat, holder: Seat) -> None:
        """Play seat 0 (and start hands) until seat 1 is to move; both seats at the same event."""
        while True:
            while holder.event_no < zero.event_no or holder.last is None:
                await holder.recv()
            while zero.event_no < holder.event_no or zero.last is None:
                await zero.recv()
            if zero.last is not None and zero.last["hand_end"] and zero.moved_at < zero.event_no:
                zero.moved_at = zero.event_no
                await zero.send({"type": "next_hand", "last_seen": zero.event_no})
            elif zero.my_turn():
                await zero.play_one()
            elif holder.my_turn():
                return
            await zero.update()

    async def run() -> None:
        zero = Seat(f"{a.ws}/ws/tables/{table_id}", first["token"], 0)
        await zero.connect()
        for _round in range(15):
            holder = Seat(f"{b.ws}/ws/tables/{table_id}", tokens[-1], 1)
            holders.append(holder)
            await holder.connect()
            await to_seat_one(zero, holder)
            await holder.play_one()  # a move of the seat's holder: kept
            await to_seat_one(zero, holder)
            assert holder.last is not None
            seen, move = holder.event_no, choose(holder.last["view"], random.Random(holder.event_no))
            taken_over = asyncio.Event()

            async def stale_moves(
                holder: Seat = holder, seen: int = seen, move: Any = move, taken_over: asyncio.Event = taken_over
            ) -> None:
                """Until the seat is taken over: the move against the event numbers of the leave and the join."""
                with contextlib.suppress(ConnectionClosed):
                    for guess in itertools.cycle((seen + 1, seen + 2)):
                        if taken_over.is_set():
                            return
                        await holder.send({"type": "move", "event": move, "last_seen": guess})
                        await asyncio.sleep(0.001)

            def take_over(token: str = holder.token or "") -> str:
                status, left = a.post(f"/api/tables/{table_id}/leave", {"token": token})
                assert status == 200, left
                status, joined = a.post(f"/api/tables/{table_id}/join", {"seat": 1})
                assert status == 200, joined
                return str(joined["token"])

            async def taking_over(taken_over: asyncio.Event = taken_over) -> str:
                try:
                    return await asyncio.to_thread(take_over)
                finally:
                    taken_over.set()

            _, token = await asyncio.gather(stale_moves(), taking_over())
            tokens.append(token)
            assert await holder.close_code() == 4000
        await zero.close()

    asyncio.run(run())
    holder_no, free = -1, True
    for no, record in enumerate(a.stored_events()[table_id], start=1):
        if record["type"] in ("seat_taken", "seat_freed") and record["seat"] == 1:
            holder_no, free = holder_no + (record["type"] == "seat_taken"), record["type"] == "seat_freed"
        elif record["type"] in _MOVES and record["seat"] == 1 and record["by"] == "player":
            assert not free, f"event {no}: seat 1 moved while the seat was free: {record}"
            assert no in _own_moves(holders[holder_no]), f"event {no} is not a move of seat 1's holder then"
    assert holder_no == len(holders)  # every take-over is in the store (the last newcomer never connected)


def test_a_clock_follows_its_players_to_their_process(pair: tuple[Server, Server]) -> None:
    """A clock table that a leads (it dealt the first hand) whose players both connect to b: a hands it over and
    holds nothing of it any more, and b's clock plays on (a no longer applies the table's moves)."""
    a, b = pair
    _until(lambda: _held(a) == 0 and _held(b) == 0, "the tables of the earlier tests were let go")
    table_id = _create(a, join=False, clock=1)["table"]["id"]
    tokens = [a.post(f"/api/tables/{table_id}/join", {"seat": seat})[1]["token"] for seat in (0, 1)]

    async def watch() -> None:
        seats = [Seat(f"{b.ws}/ws/tables/{table_id}", token, seat) for seat, token in enumerate(tokens)]
        for seat in seats:
            await seat.connect()
        await asyncio.to_thread(_until, lambda: _held(a) == 0, "a handed the table over")
        clock_moves = 0
        while clock_moves < 2:  # nobody plays: b's clock moves for them
            clock_moves += (await seats[0].update())["by"] == "clock"
        assert _held(a) == 0 and _held(b) == 1
        for seat in seats:
            await seat.close()

    asyncio.run(watch())


def test_every_process_gives_the_same_deadline(pair: tuple[Server, Server]) -> None:
    """A clock table led by a, whose second player connects to b after the move became due: b takes the table up
    then, and tells the same deadline as a (when the clock runs out, on the leader's clock), not a later one."""
    a, b = pair
    created = _create(a, clock=600)
    table_id = created["table"]["id"]
    _, joined = a.post(f"/api/tables/{table_id}/join", {})

    async def compare() -> None:
        first = Seat(f"{a.ws}/ws/tables/{table_id}", created["token"], 0)
        await first.connect()
        while first.last is None or first.last["deadline"] is None:  # the first hand started: a trump is due
            await first.update()
        second = Seat(f"{b.ws}/ws/tables/{table_id}", joined["token"], 1)
        await second.connect()
        resync = await second.update()
        assert resync["event_no"] == first.event_no
        assert resync["deadline"] == first.last["deadline"], "b counts the clock from when it took the table up"
        # Then the hand ends (both trumps, the deal, a resignation), so that no clock runs on for the next tests.
        for seat in (second, first):
            while not seat.my_turn():
                await seat.update()
            await seat.play_one()
        while first.last["view"]["phase"] not in ("lead", "respond", "second"):
            await first.update()
        await first.send({"type": "resign", "last_seen": first.event_no})
        while first.last["hand_end"] is None:
            await first.update()
        for seat in (first, second):
            await seat.close()

    asyncio.run(compare())


def test_a_leader_whose_players_left_it_hands_over_at_the_next_ask(pair: tuple[Server, Server]) -> None:
    """A clock table with a player on each process keeps its lead on a (b's ask at hello is refused); once a's player
    has gone, b asks again after a later event (at most every 5 s) and a hands the table over."""
    a, b = pair
    _until(lambda: _held(a) == 0, "a let the tables of the earlier tests go")
    table_id = _create(a, join=False, clock=1)["table"]["id"]
    tokens = [a.post(f"/api/tables/{table_id}/join", {"seat": seat})[1]["token"] for seat in (0, 1)]

    async def watch() -> None:
        on_a = Seat(f"{a.ws}/ws/tables/{table_id}", tokens[0], 0)
        on_b = Seat(f"{b.ws}/ws/tables/{table_id}", tokens[1], 1)
        await on_a.connect()
        await on_b.connect()
        while (await on_b.update())["by"] != "clock":  # a's clock: a kept the lead
            pass
        assert _held(a) == 1
        await on_a.close()
        await asyncio.to_thread(_until, lambda: _held(a) == 0, "a handed the table over", 15)
        while (await on_b.update())["by"] != "clock":  # b's clock now
            pass
        assert _held(a) == 0
        await on_b.close()

    asyncio.run(watch())


def test_every_process_orders_the_lobby_by_the_same_news(pair: tuple[Server, Server]) -> None:
    """A table made, a seat taken or left, a hand started: news, stored with its time, so every process lists the
    tables in one order, one started later too. A spectator coming and going is none, though it makes a process take
    the table up."""
    a, b = pair
    x = _create(a, name="Xi")["table"]["id"]
    y = _create(b, name="Yu")["table"]["id"]

    def orders(*servers: Server) -> list[list[str]]:
        lobbies = [server.get("/api/tables")[1]["tables"] for server in servers or (a, b)]
        return [[table["id"] for table in lobby if table["id"] in (x, y)] for lobby in lobbies]

    _until(lambda: orders() == [[y, x], [y, x]], "both lobbies listed y, the later news, first")

    async def watch() -> None:
        async with websockets.connect(f"{b.ws}/ws/tables/{x}") as ws:  # b takes x up for its spectator
            await ws.send(json.dumps({"type": "hello", "token": None, "last_seen": None}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
            assert orders() == [[y, x], [y, x]]

    asyncio.run(watch())
    time.sleep(1.5)  # b lets x go (TRUMPS_RELEASE_SECONDS) and keeps a lobby entry of it
    assert orders() == [[y, x], [y, x]]
    status, _ = b.post(f"/api/tables/{x}/join", {"name": "Zoe"})  # a seat taken, a hand started
    assert status == 200
    _until(lambda: orders() == [[x, y], [x, y]], "both lobbies listed x first")
    c = Server(a.db, **FAST)  # which lists them from the database
    try:
        c.start()
        assert orders(c) == [[x, y]]
    finally:
        c.stop()


def test_a_lobby_asked_for_right_after_a_change_elsewhere_shows_it(pair: tuple[Server, Server]) -> None:
    """Read your writes in the lobby too: a table made, a seat taken, a seat left through a, and at once b's lobby
    shows it, whether b only lists the table or holds it for a spectator (found by the audit: b answered from what it
    had heard so far, now and then a notice behind)."""
    a, b = pair

    def listed(table_id: str) -> list[str] | None:
        found = [table for table in b.get("/api/tables")[1]["tables"] if table["id"] == table_id]
        return [seat["kind"] for seat in found[0]["seats"]] if found else None

    async def run() -> list[tuple[int, str, list[str] | None]]:
        behind = []
        for round in range(40):
            created = _create(a)
            table_id = created["table"]["id"]
            async with contextlib.AsyncExitStack() as stack:
                if round % 2:  # b holds the table: the events heard of are applied by a task of their own
                    ws = await stack.enter_async_context(websockets.connect(f"{b.ws}/ws/tables/{table_id}"))
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
                if (seats := listed(table_id)) != ["human", "free"]:
                    behind.append((round, "made", seats))
                status, joined = a.post(f"/api/tables/{table_id}/join", {})
                assert status == 200, joined
                if (seats := listed(table_id)) != ["human", "human"]:
                    behind.append((round, "taken", seats))
                assert a.post(f"/api/tables/{table_id}/leave", {"token": joined["token"]})[0] == 200
                if (seats := listed(table_id)) != ["human", "free"]:
                    behind.append((round, "left", seats))
        return behind

    assert asyncio.run(run()) == []


async def _finished_duel(a: Server, b: Server, *, stay: bool = False) -> tuple[str, list[str], list[Seat]]:
    """A duel made on a whose one-hand match is over (seat 0 resigned), seat 0 played through a, seat 1 through b: its
    id, the two seats' tokens and their connections (closed, unless they ``stay``)."""
    table_id = _create(a, join=False, match_hands=1)["table"]["id"]
    tokens = [a.post(f"/api/tables/{table_id}/join", {"seat": seat})[1]["token"] for seat in (0, 1)]
    seats = [Seat(f"{server.ws}/ws/tables/{table_id}", tokens[n], n) for n, server in enumerate((a, b))]
    for seat in seats:
        await seat.connect()
    dealt = lambda seat: bool(seat.last and seat.last["view"] and seat.last["view"]["phase"] == "lead")  # noqa: E731
    await play_until(seats, dealt)
    await seats[0].send({"type": "resign", "last_seen": seats[0].event_no})
    for seat in seats:
        while not (seat.last and seat.last["score"]["match_over"]):
            await seat.update()
        if not stay:
            await seat.close()
    return table_id, tokens, seats


def test_both_players_ask_for_a_rematch_at_once_on_two_processes_and_one_table_is_made(
    pair: tuple[Server, Server],
) -> None:
    """docs/protocol.md, *A rematch*: the two players of a finished duel, one connected to each process, ask at the
    same moment, each through their own process (five rounds). Exactly one new table is made, each of them sits
    there in their old seat, and both hear the link on the old table at once."""
    a, b = pair

    async def round_of(started: float) -> None:
        table_id, tokens, seats = await _finished_duel(a, b, stay=True)
        start = threading.Barrier(2)

        def ask(server: Server, token: str) -> tuple[int, dict[str, Any]]:
            start.wait()
            return server.post(f"/api/tables/{table_id}/rematch", {"token": token})

        answers = await asyncio.gather(asyncio.to_thread(ask, a, tokens[0]), asyncio.to_thread(ask, b, tokens[1]))
        assert [status for status, _ in answers] == [200, 200], answers
        new_id = answers[0][1]["table"]["id"]
        assert answers[1][1]["table"]["id"] == new_id
        assert sorted(answer["created"] for _, answer in answers) == [False, True]
        assert [answer["seat"] for _, answer in answers] == [0, 1]
        for seat in seats:  # each process told its own connection
            while seat.last is None or seat.last["event"]["type"] != "rematch":
                await seat.update()
            assert seat.last["rematch"] == new_id and seat.last["event"]["table"] == new_id
            await seat.close()
        with psycopg.connect(str(a.db)) as conn:
            made = conn.execute("SELECT id FROM tables WHERE created >= %s", (started,)).fetchall()
            links = conn.execute(
                "SELECT count(*) FROM events WHERE table_id = %s AND body::json->>'type' = 'rematch'", (table_id,)
            ).fetchone()
        assert sorted(row[0] for row in made) == sorted([table_id, new_id]) and links == (1,)
        for server in (a, b):
            status, info = server.get(f"/api/tables/{new_id}")
            assert status == 200 and [seat["kind"] for seat in info["seats"]] == ["human", "human"], info
            assert server.get(f"/api/tables/{table_id}")[1]["rematch"] == new_id

    for _ in range(5):
        asyncio.run(round_of(time.time()))


def _seats_taken(server: Server, table_id: str) -> list[dict[str, Any]]:
    """The seat_taken events committed at a table, read from the database."""
    with psycopg.connect(str(server.db)) as conn:
        rows = conn.execute(
            "SELECT body FROM events WHERE table_id = %s AND body::json->>'type' = 'seat_taken' ORDER BY no",
            (table_id,),
        ).fetchall()
    return [json.loads(body) for (body,) in rows]


def _listed(server: Server, table_id: str) -> dict[str, Any] | None:
    return next((table for table in server.get("/api/tables")[1]["tables"] if table["id"] == table_id), None)


def test_a_seat_kept_for_a_rematch_is_refused_on_every_process_and_its_player_wins_the_race(
    pair: tuple[Server, Server],
) -> None:
    """docs/protocol.md, *A rematch*: seat 0 asks through one process, which makes the new table; the process that
    did not make it refuses a stranger seat 1 (seat_held, with or without a seat) and shows it held, in TableInfo and
    in its lobby. Then the stranger's join and seat 1's own rematch race, each on a process (four rounds, every pair
    of processes): exactly one seat_taken of seat 1 is committed, and it is the player's."""
    a, b = pair

    async def round_of(n: int) -> None:
        maker, other = (a, b) if n % 2 == 0 else (b, a)
        stranger, holder = other, (a, b)[(n // 2) % 2]
        table_id, tokens, _ = await _finished_duel(a, b)
        status, made = maker.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]})
        assert status == 200 and made["created"], made
        new_id = made["table"]["id"]
        if n == 0:
            for body in ({"seat": 1}, {}):
                status, refused = other.post(f"/api/tables/{new_id}/join", body)
                assert (status, refused["code"]) == (409, "seat_held"), refused
            assert len(_seats_taken(a, new_id)) == 1
        status, info = other.get(f"/api/tables/{new_id}")
        assert status == 200 and [seat["kind"] for seat in info["seats"]] == ["human", "free"], info
        until = info["seats"][1]["held_until"]
        assert until is not None and until > time.time() + 60, info  # the default hold: 2 minutes
        assert info["rematch_of"] == table_id, info  # where its kept seat's player asks for it, on any process
        if n == 0:
            _until(lambda: _listed(other, new_id) is not None, "the other process lists the new table")
            listed = _listed(other, new_id)
            assert listed is not None and listed["rematch_of"] == table_id
            assert [seat["held_until"] for seat in listed["seats"]] == [None, until]
        start = threading.Barrier(2)

        def post(server: Server, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            start.wait()
            return server.post(path, body)

        (joined, asked) = await asyncio.gather(
            asyncio.to_thread(post, stranger, f"/api/tables/{new_id}/join", {"seat": 1, "name": "Stranger"}),
            asyncio.to_thread(post, holder, f"/api/tables/{table_id}/rematch", {"token": tokens[1]}),
        )
        assert asked[0] == 200 and asked[1]["seat"] == 1 and asked[1]["table"]["id"] == new_id, asked
        assert joined[0] == 409 and joined[1]["code"] in ("seat_held", "seat_taken"), joined
        taken = _seats_taken(a, new_id)
        assert [record["seat"] for record in taken] == [0, 1], taken
        assert taken[1]["token_hash"] == hashlib.sha256(asked[1]["token"].encode()).hexdigest()  # the player's
        for server in (a, b):
            status, info = server.get(f"/api/tables/{new_id}")
            assert [(seat["kind"], seat["held_until"]) for seat in info["seats"]] == [("human", None)] * 2, info

    for n in range(4):
        asyncio.run(round_of(n))


def test_a_player_leaving_the_finished_table_frees_their_kept_seat_for_every_process(
    pair: tuple[Server, Server],
) -> None:
    """Seat 1 leaves the finished table through b after seat 0's rematch made the new table on a: the kept seat is
    freed there (committed, so a's join takes it at once), and b's lobby shows it open."""
    a, b = pair
    table_id, tokens, _ = asyncio.run(_finished_duel(a, b))
    new_id = a.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]})[1]["table"]["id"]
    assert b.post(f"/api/tables/{new_id}/join", {"seat": 1})[1]["code"] == "seat_held"
    status, left = b.post(f"/api/tables/{table_id}/leave", {"token": tokens[1]})
    assert status == 200 and left["seat"] == 1
    status, joined = a.post(f"/api/tables/{new_id}/join", {"seat": 1, "name": "Newcomer"})
    assert status == 200 and joined["seat"] == 1, joined
    status, refused = b.post(f"/api/tables/{table_id}/rematch", {"token": tokens[1]})
    assert (status, refused["code"]) == (403, "bad_token")


def test_every_process_ends_a_hold_at_the_time_stored_with_the_table() -> None:
    """With a hold of one second: once the time stored with the new table (made on a) has passed, b, which never held
    the table, shows the seat open in TableInfo and its lobby and lets a stranger take it; the late player is then
    refused seat_taken."""
    database = fresh_database()
    a, b = Server(database, **FAST, TRUMPS_REMATCH_HOLD_SECONDS="1"), Server(database, **FAST)
    try:
        a.start(), b.start()
        table_id, tokens, _ = asyncio.run(_finished_duel(a, b))
        made = a.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]})[1]
        new_id, until = made["table"]["id"], made["table"]["seats"][1]["held_until"]
        assert until is not None and until <= time.time() + 1
        while time.time() <= until + 0.05:  # a wait for the clock, not a limit on the server: nothing is asserted
            time.sleep(0.05)
        _until(lambda: _listed(b, new_id) is not None, "b lists the new table")
        assert [seat["held_until"] for seat in _listed(b, new_id)["seats"]] == [None, None]  # type: ignore[index]
        assert [seat["held_until"] for seat in b.get(f"/api/tables/{new_id}")[1]["seats"]] == [None, None]
        status, joined = b.post(f"/api/tables/{new_id}/join", {"seat": 1})
        assert status == 200 and joined["seat"] == 1, joined
        status, refused = a.post(f"/api/tables/{table_id}/rematch", {"token": tokens[1]})
        assert (status, refused["code"]) == (409, "seat_taken")
    finally:
        a.stop(), b.stop()
        drop_database(database)


def test_a_table_sleeps_only_once_no_process_serves_it_and_every_lobby_follows() -> None:
    """Two tables let go at rest at once; a player then connects to one of them on b. The other falls asleep
    (idle) and leaves both lobbies; the one served stays awake and listed meanwhile. Woken again on a, the
    sleeper is back in b's lobby too."""
    database = fresh_database()
    a, b = (Server(database, **FAST | {"TRUMPS_IDLE_TABLE_SECONDS": "3"}) for _ in "ab")

    def asleep(table_id: str) -> bool:
        with psycopg.connect(database) as conn:
            row = conn.execute("SELECT asleep FROM tables WHERE id = %s", (table_id,)).fetchone()
        assert row is not None
        return bool(row[0])

    def listed(server: Server, table_id: str) -> bool:
        return any(table["id"] == table_id for table in server.get("/api/tables")[1]["tables"])

    try:
        a.start(), b.start()
        served, idle = _create(a), _create(a)  # rested no later than the idle one: let go first, or with it
        _until(lambda: _held(a) == 0, "a let both tables go, at rest")

        async def while_served() -> None:
            seat = Seat(f"{b.ws}/ws/tables/{served['table']['id']}", served["token"], 0)
            await seat.connect()
            await asyncio.to_thread(_until, lambda: asleep(idle["table"]["id"]), "the idle table fell asleep")
            assert not asleep(served["table"]["id"]), "a table a player is connected to was put to sleep"
            gone = lambda: not listed(a, idle["table"]["id"]) and not listed(b, idle["table"]["id"])  # noqa: E731
            await asyncio.to_thread(_until, gone, "the idle table left both lobbies")
            assert listed(a, served["table"]["id"]) and listed(b, served["table"]["id"])
            await seat.close()

            async with websockets.connect(f"{a.ws}/ws/tables/{idle['table']['id']}") as ws:  # wakes it on a
                await ws.send(json.dumps({"type": "hello", "token": None, "last_seen": None}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
                back = lambda: listed(b, idle["table"]["id"])  # noqa: E731
                await asyncio.to_thread(_until, back, "b lists the woken table again")
            assert not asleep(idle["table"]["id"])

        asyncio.run(while_served())
    finally:
        a.stop(), b.stop()
        drop_database(database)


# --- draw offers and presence, decided and counted across processes (docs/protocol.md, *Presence*, *Resigning and
# draw offers*) -------------------------------------------------------------------------------------------------


async def _next(seat: Seat, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of type ``kind`` that ``seat`` gets (the others before it are taken in as usual)."""
    while True:
        message = await seat.receive(timeout)
        if message["type"] == kind:
            return message


def _in_play(seat: Seat) -> bool:
    """The seat's last update shows a hand being played (trumps chosen, cards dealt, nobody out yet)."""
    view = seat.last["view"] if seat.last else None
    return bool(view and view["phase"] == "lead" and not seat.last["hand_end"])  # type: ignore[index]


async def _duel_in_play(a: Server, b: Server) -> tuple[str, list[Seat]]:
    """A duel made on a, seat 0 connected to a and seat 1 to b, with a hand being played: its id and the two seats."""
    table_id = _create(a, join=False)["table"]["id"]
    tokens = [a.post(f"/api/tables/{table_id}/join", {"seat": seat})[1]["token"] for seat in (0, 1)]
    seats = [Seat(f"{server.ws}/ws/tables/{table_id}", tokens[n], n) for n, server in enumerate((a, b))]
    for seat in seats:
        await seat.connect()
    await play_until(seats, _in_play)
    await _same_event(seats)
    return table_id, seats


async def _same_event(seats: list[Seat]) -> None:
    """Wait until every seat has the updates up to the latest event any of them has."""
    latest = max(seat.event_no for seat in seats)
    for seat in seats:
        while seat.event_no < latest:
            await seat.update()


def _draws(server: Server, table_id: str) -> list[int]:
    """The event numbers of the table's agree_draw events, read from the database."""
    return [no for no, record in enumerate(server.stored_events()[table_id], start=1) if record["type"] == "agree_draw"]


def test_a_draw_offered_on_one_process_is_heard_and_agreed_on_the_other(pair: tuple[Server, Server]) -> None:
    """Seat 0 (on a) offers; seat 1 (on b) hears the offer, agrees, and the hand ends drawn: one agree_draw."""
    a, b = pair

    async def run() -> str:
        table_id, (first, second) = await _duel_in_play(a, b)
        await first.send({"type": "draw", "agree": True, "last_seen": first.event_no})
        for seat in (first, second):
            offer = await _next(seat, "draw_offered")
            assert (offer["agreed"], offer["declined"], offer["event_no"]) == ([0], None, first.event_no), offer
        await second.send({"type": "draw", "agree": True, "last_seen": second.event_no})
        for seat in (first, second):
            update = await seat.update()
            assert update["event"] == {"type": "agree_draw"} and update["hand_end"]["outcome"]["reason"] == "agreement"
            assert seat.errors == []
            await seat.close()
        return table_id

    table_id = asyncio.run(run())
    assert len(_draws(a, table_id)) == 1


def test_both_seats_agreeing_at_once_on_two_processes_commit_one_draw(pair: tuple[Server, Server]) -> None:
    """Three hands: both seats send `draw agree:true` at the same moment, each to its own process. Exactly one
    agree_draw is committed each time (the offers are decided one after the other on the stored offer), and both
    seats see the hand end drawn at the same event."""
    a, b = pair

    async def run() -> tuple[str, list[int]]:
        table_id, seats = await _duel_in_play(a, b)
        ends = []
        for hand in range(3):
            if hand:
                await seats[0].send({"type": "next_hand", "last_seen": seats[0].event_no})
                await play_until(seats, _in_play)
                await _same_event(seats)
            await asyncio.gather(
                *(seat.send({"type": "draw", "agree": True, "last_seen": seat.event_no}) for seat in seats)
            )
            drawn = []
            for seat in seats:
                while (update := await seat.update())["event"] != {"type": "agree_draw"}:
                    pass
                drawn.append(update["event_no"])
                assert update["hand_end"]["outcome"]["reason"] == "agreement"
            assert drawn[0] == drawn[1], drawn
            ends.append(drawn[0])
        for seat in seats:
            assert seat.errors == [], seat.errors
            await seat.close()
        return table_id, ends

    table_id, ends = asyncio.run(run())
    assert _draws(a, table_id) == ends


def test_a_decline_on_one_process_ends_the_offer_on_the_other(pair: tuple[Server, Server]) -> None:
    """Seat 0 (on a) offers, seat 1 (on b) declines: both hear it; a decline then on a finds no offer (decided on the
    stored one), and seat 1's agreement on b is a new offer, not an acceptance."""
    a, b = pair

    async def run() -> str:
        table_id, (first, second) = await _duel_in_play(a, b)
        await first.send({"type": "draw", "agree": True, "last_seen": first.event_no})
        await _next(second, "draw_offered")
        await second.send({"type": "draw", "agree": False, "last_seen": second.event_no})
        for seat in (first, second):
            while (offer := await _next(seat, "draw_offered"))["declined"] is None:
                pass
            assert (offer["agreed"], offer["declined"]) == ([], 1), offer
        await first.send({"type": "draw", "agree": False, "last_seen": first.event_no})
        assert (await _next(first, "error"))["code"] == "no_offer"
        await second.send({"type": "draw", "agree": True, "last_seen": second.event_no})
        for seat in (first, second):
            offer = await _next(seat, "draw_offered")
            assert (offer["agreed"], offer["declined"]) == ([1], None), offer
            await seat.close()
        return table_id

    table_id = asyncio.run(run())
    assert _draws(a, table_id) == []


def test_a_move_on_one_process_ends_the_offer_on_the_other(pair: tuple[Server, Server]) -> None:
    """Seat 0 (on a) offers; the seat to act moves; seat 1's agreement (on b) is then a new offer, which a spectator
    saying hello on a hears after its catch-up."""
    a, b = pair

    async def run() -> str:
        table_id, (first, second) = await _duel_in_play(a, b)
        await first.send({"type": "draw", "agree": True, "last_seen": first.event_no})
        for seat in (first, second):
            assert (await _next(seat, "draw_offered"))["agreed"] == [0]
        mover = first if first.my_turn() else second
        await mover.play_one()
        for seat in (first, second):
            await seat.update()
        await second.send({"type": "draw", "agree": True, "last_seen": second.event_no})
        for seat in (first, second):
            offer = await _next(seat, "draw_offered")
            assert (offer["agreed"], offer["event_no"]) == ([1], second.event_no), offer
        watcher = Seat(f"{a.ws}/ws/tables/{table_id}", None, None)
        await watcher.connect()
        assert (await watcher.update())["resync"]
        offer = await _next(watcher, "draw_offered")
        assert (offer["agreed"], offer["event_no"]) == ([1], second.event_no), offer
        for seat in (first, second, watcher):
            await seat.close()
        return table_id

    table_id = asyncio.run(run())
    assert _draws(a, table_id) == []


async def _presence_until(seat: Seat, connected: list[bool], seconds: float = 20) -> dict[str, Any]:
    """Read ``seat``'s messages until a ``presence`` shows the seats connected as ``connected``."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no presence with {connected} within {seconds} s: {seat.presences[-1:]}"
        try:
            message = await seat.presence(min(left, 10))
        except TimeoutError:
            continue
        if [info["connected"] for info in message["seats"]] == connected:
            return message


async def _seated_on_two(a: Server, b: Server) -> tuple[str, Seat, Seat]:
    """A duel made on a, seat 0 connected to a and seat 1 to b, once a tells seat 0 that both are connected."""
    table_id = _create(a, join=False)["table"]["id"]
    tokens = [a.post(f"/api/tables/{table_id}/join", {"seat": seat})[1]["token"] for seat in (0, 1)]
    first = Seat(f"{a.ws}/ws/tables/{table_id}", tokens[0], 0)
    await first.connect()
    second = Seat(f"{b.ws}/ws/tables/{table_id}", tokens[1], 1)
    await second.connect()
    await _presence_until(first, [True, True])
    return table_id, first, second


def test_a_player_connected_to_another_process_reads_as_connected(pair: tuple[Server, Server]) -> None:
    """Seat 1 connected to b shows connected to seat 0 on a (presence, and a resync there), and away once it closes."""
    a, b = pair

    async def run() -> None:
        table_id, first, second = await _seated_on_two(a, b)
        watcher = Seat(f"{a.ws}/ws/tables/{table_id}", None, None)
        welcome = await watcher.connect()
        assert [seat["connected"] for seat in welcome["table"]["seats"]] == [True, True]
        assert [seat["connected"] for seat in (await watcher.update())["seats"]] == [True, True]
        await second.close()
        await _presence_until(first, [True, False])
        await _presence_until(watcher, [True, False])
        for seat in (first, watcher):
            await seat.close()

    asyncio.run(run())


def test_the_players_of_a_killed_process_read_as_away_in_time() -> None:
    """docs/deploy.md: with TRUMPS_PRESENCE_SECONDS 0.5, seat 1 connected to b reads as away on a once b is killed
    (within 3 times that, and a half: polled here with a generous deadline)."""
    database = fresh_database()
    a, b = (Server(database, **FAST, TRUMPS_PRESENCE_SECONDS="0.5") for _ in "ab")
    try:
        a.start(), b.start()

        async def run() -> None:
            table_id, first, _ = await _seated_on_two(a, b)
            await asyncio.sleep(2)  # a few refreshes, each counted anew: still connected (no message checked here)
            b.kill()
            await _presence_until(first, [True, False])
            status, info = a.get(f"/api/tables/{table_id}")
            assert status == 200 and [seat["connected"] for seat in info["seats"]] == [True, False], info
            await first.close()

        asyncio.run(run())
    finally:
        a.stop(), b.stop()
        drop_database(database)


def test_the_lobby_counts_the_spectators_of_every_process(pair: tuple[Server, Server]) -> None:
    """Spectators watching on b, then on a too: both lobbies count them all; one gone, both count one less."""
    a, b = pair
    table_id = _create(a, join=False)["table"]["id"]

    def counted(*expected: int) -> bool:
        return [(_listed(server, table_id) or {}).get("spectators") for server in (a, b)] == list(expected)

    async def run() -> None:
        on_b = Seat(f"{b.ws}/ws/tables/{table_id}", None, None)
        await on_b.connect()
        await asyncio.to_thread(_until, lambda: counted(1, 1), "both lobbies count the spectator on b")
        on_a = Seat(f"{a.ws}/ws/tables/{table_id}", None, None)
        await on_a.connect()
        await asyncio.to_thread(_until, lambda: counted(2, 2), "both lobbies count both spectators")
        await on_b.close()
        await asyncio.to_thread(_until, lambda: counted(1, 1), "both lobbies count the spectator on a")
        await on_a.close()
        await asyncio.to_thread(_until, lambda: counted(0, 0), "nobody watches")

    asyncio.run(run())
