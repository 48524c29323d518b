"""Several ``trumps serve`` processes on one real PostgreSQL database (see tests/postgres.py).

Whole matches with the seats on different processes; a race for the same event number;
SIGKILL and SIGTERM of a process mid-match; the database going away and coming back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from postgres import Cluster, drop_database, free_port, fresh_database
from schema_shapes import Shapes
from server_helpers import Seat, Server, check_no_leaks, hand_over, play_until
from websockets.exceptions import ConnectionClosed

SPEC = Path(__file__).resolve().parents[2] / "spec"
# Bots in threads: three servers with two worker processes each would crowd a small test machine.
FAST = {"TRUMPS_RATE": "1000", "TRUMPS_BURST": "1000", "TRUMPS_BOT_PROCESSES": "0"}


@pytest.fixture
def database() -> Iterator[str]:
    url = fresh_database()
    yield url
    drop_database(url)


@pytest.fixture
def servers(database: str) -> Iterator[list[Server]]:
    """Three server processes on one database (each test starts those it needs)."""
    started = [Server(database, **FAST) for _ in range(3)]
    yield started
    for server in started:
        server.stop()


def _table(server: Server, **config: Any) -> str:
    status, created = server.post("/api/tables", {"players": 2, "join": False, **config})
    assert status == 200, created
    return str(created["table"]["id"])


def _join(server: Server, table_id: str, seat: int) -> str:
    status, joined = server.post(f"/api/tables/{table_id}/join", {"seat": seat})
    assert status == 200, joined
    return str(joined["token"])


def _match_over(seat: Seat) -> bool:
    return bool(seat.last and seat.last["score"]["match_over"])


async def _play_match(seats: list[Seat]) -> None:
    """Play whole hands (the quick policy), seat 0 starting the next hand, until the match is over."""
    while not _match_over(seats[0]):
        await play_until(seats, hand_over, timeout=60)
        if _match_over(seats[0]):
            break
        for seat in seats:
            seat.last = None  # forget the hand end: the next hand's updates come
        await seats[0].send({"type": "next_hand", "last_seen": seats[0].event_no})
        await asyncio.gather(*(seat.update() for seat in seats))


def _in_play(seat: Seat) -> bool:
    view = seat.last["view"] if seat.last else None
    return bool(view and view["phase"] in ("lead", "respond", "second"))


def test_a_whole_match_with_each_seat_on_another_process(servers: list[Server]) -> None:
    """Three seats on three processes: the first hand drawn by all three agreeing at once (one agree_draw), the second
    played out; every message as spec/protocol.schema.json says; then all three ask for a rematch at once (one
    table, every seat taken, the same on every process)."""
    a, b, c = (server.start() for server in servers)
    table_id = _table(a, players=3, match_hands=2)
    deadline = time.monotonic() + 10
    while table_id not in [table["id"] for table in c.get("/api/tables")[1]["tables"]]:
        assert time.monotonic() < deadline, "the lobby of another process never showed the new table"
        time.sleep(0.05)
    tokens = [_join(server, table_id, seat) for seat, server in enumerate((a, b, c))]

    async def play() -> list[Seat]:
        seats = [
            Seat(f"{server.ws}/ws/tables/{table_id}", token, seat, rng=random.Random(seat))
            for seat, (server, token) in enumerate(zip((a, b, c), tokens, strict=True))
        ]
        for seat in seats:
            await seat.connect()
        await play_until(seats, _in_play)
        while len({seat.event_no for seat in seats}) > 1:
            await min(seats, key=lambda seat: seat.event_no).update()
        await asyncio.gather(
            *(seat.send({"type": "draw", "agree": True, "last_seen": seat.event_no}) for seat in seats)
        )
        for seat in seats:
            while not hand_over(seat):
                await seat.update()
            assert seat.last is not None and seat.last["event"] == {"type": "agree_draw"}
        await _play_match(seats)
        for seat in seats:
            await seat.close()
        return seats

    seats = asyncio.run(play())
    stored = a.stored_events()[table_id]
    shapes = Shapes(json.loads((SPEC / "protocol.schema.json").read_text()))
    for seat in seats:  # each process told its player every event, in order, exactly once
        numbers = [json.loads(text)["event_no"] for text in seat.texts if json.loads(text)["type"] == "update"]
        assert numbers == sorted(set(numbers)) and numbers[-1] == len(stored)
        assert seat.last is not None and seat.last["score"]["match_over"] and seat.last["score"]["hands_played"] == 2
        for text in seat.texts:
            shapes.read(json.loads(text), "ServerMessage")
    assert check_no_leaks(stored, 3, seats) > 0
    assert [record["type"] for record in stored].count("hand_started") == 2
    assert [record["type"] for record in stored].count("agree_draw") == 1
    with ThreadPoolExecutor(3) as pool:
        asked = list(
            pool.map(
                lambda seat: (a, b, c)[seat].post(f"/api/tables/{table_id}/rematch", {"token": tokens[seat]}), range(3)
            )
        )
    assert [status for status, _ in asked] == [200] * 3, asked
    assert sorted(answer["created"] for _, answer in asked) == [False, False, True]
    assert {answer["table"]["id"] for _, answer in asked} == {asked[0][1]["table"]["id"]}
    assert [answer["seat"] for _, answer in asked] == [0, 1, 2]
    for server in (a, b, c):
        _, rematch = server.get(f"/api/tables/{asked[0][1]['table']['id']}")
        assert rematch["status"] == "playing" and [seat["kind"] for seat in rematch["seats"]] == ["human"] * 3


def test_both_processes_get_the_same_seats_move_at_once(servers: list[Server]) -> None:
    """One seat connected to two processes sends its move on both at once: one is committed, the other is stale."""
    a, b, _ = servers
    a.start(), b.start()
    table_id = _table(a)
    token0, token1 = _join(a, table_id, 0), _join(a, table_id, 1)

    async def race() -> tuple[list[Seat], int]:
        url_a, url_b = f"{a.ws}/ws/tables/{table_id}", f"{b.ws}/ws/tables/{table_id}"
        seats = [Seat(url_a, token0, 0), Seat(url_b, token0, 0), Seat(url_a, token1, 1), Seat(url_b, token1, 1)]
        for seat in seats:
            await seat.connect()
            await seat.update()
        races = 0
        for _ in range(8):
            # Whoever is to act sends a different legal move on each process, at the same moment.
            await asyncio.sleep(0.1)  # both processes have the last event
            for seat in seats:
                await _settle(seat)
            acting = [seat for seat in seats if seat.last and seat.last["view"]["legal_moves"]]
            if not acting:  # the hand is over
                break
            first, second = acting  # the same seat, through a and through b
            moves = second.last["view"]["legal_moves"] if second.last else []
            seen = first.event_no
            await asyncio.gather(
                first.send({"type": "move", "event": moves[0], "last_seen": seen}),
                second.send({"type": "move", "event": moves[-1], "last_seen": seen}),
            )
            for seat in seats:  # every connection sees exactly one next event, the same one
                update = await seat.update()
                assert update["event_no"] == seen + 1
            winners = {json.dumps(seat.last["event"] if seat.last else None) for seat in seats}
            assert len(winners) == 1, winners
            for seat in (first, second):  # the loser's refusal may come after the winner's update
                await _settle(seat)
            stale = [e for seat in (first, second) for e in seat.errors if e["code"] == "stale"]
            races += len(moves) > 1 and bool(stale)
            for seat in seats:
                seat.errors.clear()
        for seat in seats:
            await seat.close()
        return seats, races

    seats, races = asyncio.run(race())
    stored = a.stored_events()[table_id]
    assert len(stored) == seats[0].event_no  # one event per number, nothing forked
    assert races > 0, "no move ever lost a race: the test did not test the race"


async def _settle(seat: Seat) -> None:
    """Take in every message the server sent so far (a ping's pong comes after them)."""
    await seat.send({"type": "ping"})
    while (await seat.recv())["type"] != "pong":
        pass


def _status(url: str) -> int:
    """The HTTP status of a GET (0: no answer at all)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0


def test_sigkill_mid_match_the_clients_go_on_on_another_process(servers: list[Server]) -> None:
    """Busy duels with seats on two processes and a duel against a bot; one process is SIGKILLed."""
    a, b, _ = servers
    a.start(), b.start()
    duels = []
    for _ in range(4):
        table_id = _table(a)
        duels.append((table_id, _join(a, table_id, 0), _join(b, table_id, 1)))
    bot_table = _table(a, computer=[{"seat": 1, "level": "easy"}])
    bot_token = _join(a, bot_table, 0)

    async def busy_until_killed() -> tuple[list[Seat], Seat]:
        seats = []
        for index, (table_id, token0, token1) in enumerate(duels):
            seats.append(Seat(f"{a.ws}/ws/tables/{table_id}", token0, 0, rng=random.Random(index), random_moves=True))
            seats.append(Seat(f"{b.ws}/ws/tables/{table_id}", token1, 1, rng=random.Random(-index), random_moves=True))
        human = Seat(f"{a.ws}/ws/tables/{bot_table}", bot_token, 0)
        for seat in [*seats, human]:
            await seat.connect()

        async def play(seat: Seat) -> None:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                await play_until([seat], lambda s: False, timeout=60)

        players = [asyncio.create_task(play(seat)) for seat in [*seats, human]]
        while sum(len(seat.acked) for seat in seats) < 200 or len(human.acked) < 3:
            await asyncio.sleep(0.01)
        a.kill()  # moves in flight everywhere; the bot table's lead was on a
        await asyncio.sleep(0.5)
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        return seats, human

    seats, human = asyncio.run(busy_until_killed())
    stored = b.stored_events()
    for seat in [*seats, human]:  # every acknowledged move is in the database
        table_id = seat.url.rsplit("/", 1)[1]
        for no, event in seat.acked:
            record = {key: value for key, value in stored[table_id][no - 1].items() if key not in ("by", "at")}
            assert record == {key: value for key, value in event.items() if value is not None}

    async def go_on() -> None:
        for old in [*seats, human]:  # everyone reconnects to b, saying what it saw last
            table_id = old.url.rsplit("/", 1)[1]
            seat = Seat(f"{b.ws}/ws/tables/{table_id}", old.token, old.seat, rng=random.Random(1))
            seat.event_no = old.event_no
            await seat.connect(last_seen=old.event_no)
            await seat.send({"type": "ping"})
            while (message := await seat.recv())["type"] != "pong":
                assert message["type"] == "update"
            # Nothing missed, nothing twice: exactly the events after last_seen, in order (or one resync).
            updates = [json.loads(text) for text in seat.texts if json.loads(text)["type"] == "update"]
            numbers = [update["event_no"] for update in updates]
            assert numbers == list(range(old.event_no + 1, old.event_no + 1 + len(numbers))) or (
                len(updates) == 1 and updates[0]["resync"]
            )
            old.ws, old.texts, old.url = seat.ws, [], seat.url
            if seat.last is not None:
                old.last, old.event_no = seat.last, seat.event_no
            # A move sent to the dead process just before it died was never answered: play again.
            old.moved_at, old.random_moves = -1, False
        # The bot seat carries on under b (which takes the lead within a second or so), and the duels go on.
        await play_until([*seats, human], hand_over, timeout=60)
        if not server_moved():
            # The human's own move ended its hand (before the kill, or as its first move after it), so the
            # server's next move at that table is the next hand's deal, which only b can make now.
            await human.send({"type": "next_hand", "last_seen": human.event_no})
            await human.update()
            await play_until([human], lambda seat: server_moved(), timeout=60)

    def server_moved() -> bool:
        """A move made by the server (a deal or the bot's move) is stored at the bot's table since the kill."""
        since = b.stored_events()[bot_table][len(stored[bot_table]) :]
        return any(record["by"] in ("computer", "server") for record in since)

    asyncio.run(go_on())
    assert server_moved(), "the server's moves at the bot's table went on after the process that made them died"
    after = b.stored_events()
    for table_id, _, _ in duels:
        assert len(after[table_id]) >= len(stored[table_id])


def test_sigterm_drains_and_the_page_is_told_to_reconnect(servers: list[Server]) -> None:
    a, b, _ = servers
    a.start(), b.start()
    table_id = _table(a)
    token0, token1 = _join(a, table_id, 0), _join(a, table_id, 1)

    async def play() -> None:
        seats = [Seat(f"{a.ws}/ws/tables/{table_id}", token, seat) for seat, token in enumerate((token0, token1))]
        for seat in seats:
            await seat.connect()
        while not any(seat.my_turn() for seat in seats):
            for seat in seats:
                await _settle(seat)
        mover = next(seat for seat in seats if seat.my_turn())
        move = await mover.play_one()
        a.terminate()  # with that move just sent: in flight, or not yet read
        for seat in seats:
            assert await seat.close_code() == 1012  # "service restart": reconnect
        # It exits by itself once drained (uvicorn then re-raises the SIGTERM it caught: status -15).
        assert a.proc is not None and a.proc.wait(15) in (0, -signal.SIGTERM)
        moved = [
            Seat(f"{b.ws}/ws/tables/{table_id}", seat.token, seat.seat, rng=random.Random(seat.seat)) for seat in seats
        ]
        for new, old in zip(moved, seats, strict=True):
            new.last, new.event_no = old.last, old.event_no
            await new.connect(last_seen=old.event_no)
            await _settle(new)
        # The move was committed whole before the process exited, or not at all; either way every client
        # sees it at most once, and the one that sent it learns which (an update showing it, or none).
        stored = b.stored_events()[table_id]
        shown = [
            json.loads(text)["event_no"]
            for seat in (mover, moved[mover.seat or 0])
            for text in seat.texts
            if json.loads(text)["type"] == "update" and json.loads(text)["event"] == move
        ]
        sent = {key: value for key, value in move.items() if value is not None}
        moves = [{key: value for key, value in record.items() if key not in ("by", "at")} for record in stored]
        committed = [no for no, record in enumerate(moves, 1) if record == sent]
        assert shown == committed and len(committed) <= 1
        for seat in moved:
            seat.moved_at = -1  # a move that was not committed is played again
        await play_until(moved, hand_over, timeout=60)

    asyncio.run(play())


def test_the_database_goes_away_and_comes_back() -> None:
    """Moves are refused with ``unavailable`` and /readyz is 503 while PostgreSQL is down; play resumes after."""
    cluster = Cluster(Path(tempfile.mkdtemp(prefix="trumps-pg-"))).create().start()
    server = Server(cluster.url, **FAST)
    try:
        server.start()
        table_id = _table(server)
        tokens = [_join(server, table_id, seat) for seat in (0, 1)]

        async def play() -> None:
            seats = [Seat(f"{server.ws}/ws/tables/{table_id}", t, s) for s, t in enumerate(tokens)]
            for seat in seats:
                await seat.connect()
                await seat.update()
            while not any(seat.my_turn() for seat in seats):  # the deal may come after the first update
                for seat in seats:
                    await _settle(seat)
            acting = next(seat for seat in seats if seat.my_turn())
            assert _status(f"{server.http}/readyz") == 200
            cluster.stop()
            move = await acting.play_one()
            error = await acting.recv()
            assert error["type"] == "error" and error["code"] == "unavailable", error
            assert _status(f"{server.http}/readyz") == 503
            assert _status(f"{server.http}/healthz") == 200
            cluster.start()
            deadline = time.monotonic() + 30
            while _status(f"{server.http}/readyz") != 200:
                assert time.monotonic() < deadline, "the server did not find its database again"
                await asyncio.sleep(0.2)
            await acting.send({"type": "move", "event": move, "last_seen": acting.event_no})
            update = await acting.update()
            assert update["event"] == move and update["event_no"] == acting.moved_at + 1
            await play_until(seats, hand_over, timeout=60)

        asyncio.run(play())
        stored = server.stored_events()[table_id]
        _, info = server.get(f"/api/tables/{table_id}")
        assert info["event_no"] == len(stored), "nothing half-written: the table and the database agree"
    finally:
        server.stop()
        with contextlib.suppress(subprocess.CalledProcessError):
            cluster.stop()


def test_every_request_is_answered_after_the_database_connections_are_cut(database: str) -> None:
    """After a cut (a PostgreSQL restart, a network cut) the next connection the process accepts is answered too.

    The cut closes the listening connection's socket, and the next connection accepted gets its number: a
    registration of the old socket left with the event loop kept that connection from ever being read.
    """
    server = Server(database, **FAST)
    try:
        server.start()
        assert _status(f"{server.http}/readyz") == 200
        with psycopg.connect(database, autocommit=True) as conn:  # as PostgreSQL's restart ends every session
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        # At once: the listening connection comes back after a tenth of a second, and may take the number first.
        assert [_status(f"{server.http}/healthz") for _ in range(4)] == [200] * 4
        deadline = time.monotonic() + 30
        while _status(f"{server.http}/readyz") != 200:
            assert time.monotonic() < deadline, "the server did not find its database again"
            time.sleep(0.2)
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://trumps:hunter2@127.0.0.1:9/trumps", "postgresql://trumps@127.0.0.1:9/trumps"),
        # libpq's other way to give it: a parameter of the URL
        ("postgresql://trumps@127.0.0.1:9/trumps?password=hunter2&sslmode=disable", "trumps?sslmode=disable"),
    ],
)
def test_an_unreachable_database_is_one_line_and_exit_1(url: str, shown: str) -> None:
    """Port 9: nothing listens. The line names the URL without its password."""
    command = [sys.executable, "-c", "from rules.cli import main; main()", "serve", "--db", url, "--port", "9"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and shown in lines[0], result.stderr
    assert "hunter2" not in result.stderr


def test_a_pool_over_the_connection_limit_is_one_line_and_exit_1(database: str) -> None:
    """The connection budget (docs/deploy.md): a process that cannot open its whole pool, because PostgreSQL has no
    more connections for it, says so in one line at start and exits 1 (not a traceback from the app's startup).
    The limit is a role's (superusers have none), so the server connects as a role of its own here."""
    role, password = f"trumps_test_{secrets.token_hex(4)}", secrets.token_hex(8)
    try:
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}' CONNECTION LIMIT 2")
            conn.execute(f"GRANT CREATE ON SCHEMA public TO {role}")
    except psycopg.errors.InsufficientPrivilege:
        pytest.skip("the test server's user may not create roles")
    try:
        parts = urlsplit(database)
        url = urlunsplit(parts._replace(netloc=f"{role}:{password}@{parts.hostname}:{parts.port or 5432}"))
        command = [sys.executable, "-c", "from rules.cli import main; main()", "serve", "--db", url]
        command += ["--port", str(free_port()), "--pool-size", "4"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "too many connections" in lines[0] and password not in lines[0], result.stderr
    finally:
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


def test_an_older_database_is_upgraded_in_place(database: str) -> None:
    from rules.server.pgstore import MIGRATIONS, PostgresStore, migrate

    async def upgrade() -> list[str]:
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
            assert await migrate(conn, upto=1) == 1
            await conn.execute("INSERT INTO tables VALUES ('old', 0, 'x', '{\"players\": 2}', false)")
        store = await PostgresStore.connect(database, pool_size=1)
        try:
            return [table.id for table in await store.unfinished()]
        finally:
            await store.close()

    assert asyncio.run(upgrade()) == ["old"]
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    assert row is not None and row[0] == len(MIGRATIONS)


def test_every_connection_asks_for_keepalives_so_a_lost_machines_leads_are_freed(database: str) -> None:
    """PostgreSQL ends the session of a process whose machine is lost (no FIN, no RST) only once TCP says so: by
    default after two hours, holding its leads (docs/deploy.md: its clocks go on elsewhere within seconds). So every
    connection of a process asks for keepalives on both ends (found by the audit); a URL's own settings win."""
    from rules.server.pgstore import PostgresStore

    url = f"{database}?keepalives_idle=3&options=-c%20tcp_keepalives_count%3D4%20-c%20statement_timeout%3D7000"

    async def settings(conn: psycopg.AsyncConnection[Any]) -> tuple[list[str], dict[str, str]]:
        shown = []
        for name in ("tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count", "statement_timeout"):
            row = await (await conn.execute(f"SHOW {name}")).fetchone()
            shown.append(row[0] if row else "")
        return shown, conn.info.get_parameters()

    async def run() -> None:
        store = await PostgresStore.connect(url, pool_size=1)
        try:
            assert await store.claim_lead("any")
            async with store._connection() as pooled:
                sessions = [await settings(pooled)]
            assert store._locks is not None  # the session holding the leads
            sessions.append(await settings(store._locks))
        finally:
            await store.close()
        for shown, parameters in sessions:
            assert shown == ["2", "1", "4", "7s"]  # PostgreSQL's side: a probe after 2 s of silence, then every 1 s
            assert (parameters.get("keepalives"), parameters.get("keepalives_idle")) == ("1", "3")  # the process's

    asyncio.run(run())


def test_the_clock_goes_on_when_its_process_dies(servers: list[Server]) -> None:
    """A table with a clock, a player connected to each process while a leads it: a is killed, b's clock takes
    over."""
    a, b, _ = servers
    a.start(), b.start()
    table_id = _table(a, clock=1)
    tokens = [_join(a, table_id, seat) for seat in (0, 1)]  # a deals the first hand, so a leads the table

    async def watch() -> None:
        # a keeps the lead: one of the players is connected to it (else it would hand the table over to b).
        seats = [
            Seat(f"{server.ws}/ws/tables/{table_id}", token, seat)
            for seat, (server, token) in enumerate(zip((b, a), tokens, strict=True))
        ]
        for seat in seats:
            await seat.connect()
        while (await seats[0].update())["by"] != "clock":  # nobody plays: a's clock moves for them
            pass
        a.kill()  # a second before its next clock move
        while (await seats[0].update(timeout=15))["by"] != "clock":  # b's, once it has taken the lead
            pass

    asyncio.run(watch())
    by = [record["by"] for record in b.stored_events()[table_id]]
    assert by.count("clock") >= 2


def test_a_clock_nobody_watches_goes_on_when_its_leader_dies(servers: list[Server]) -> None:
    """Nobody connected anywhere, the clock playing for both seats on a: a is killed, and b, which held nothing
    of the table, takes it up (its lead is free and it is not at rest) and its clock plays on."""
    a, b, _ = servers
    a.start(), b.start()
    table_id = _table(a, clock=1)
    for seat in (0, 1):
        _join(a, table_id, seat)  # a deals, so a leads; nobody connects
    deadline = time.monotonic() + 20
    while [record["by"] for record in a.stored_events().get(table_id, [])].count("clock") < 2:
        assert time.monotonic() < deadline, "a's clock did not play"
        time.sleep(0.2)
    a.kill()
    before = len(b.stored_events()[table_id])
    deadline = time.monotonic() + 30
    while [record["by"] for record in b.stored_events()[table_id][before:]].count("clock") < 2:
        assert time.monotonic() < deadline, "nobody took up the table whose leader died"
        time.sleep(0.2)
    # Nobody else plays: the clock's moves, and the server's deal where a hand ended meanwhile.
    assert {record["by"] for record in b.stored_events()[table_id][before:]} <= {"clock", "server"}


def test_a_process_starting_lists_the_tables_created_while_it_reads_the_lobby(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process listens for other processes' news before it reads the lobby, and applies what it heard meanwhile
    over what it read. Read first, and a table created between the read and the first LISTEN would be missing from
    its lobby (until that table's next news); applied as heard, a seat taken just after the read would be undone
    by the older read.

    Made certain by a listening connection that comes up late (by half a second) and by the other process's
    commits injected into the read itself: a table created before it (read and heard: listed once), and, after
    it, a table created and a seat taken (heard only)."""
    from rules.server.hub import Hub
    from rules.server.limits import Settings
    from rules.server.pgstore import PostgresStore
    from rules.server.protocol import CreateTable, JoinTable

    settings = Settings(db=database, bot_processes=0, pool_size=2, max_tables_per_client=0)

    async def run() -> None:
        other = Hub(settings)
        await other.start()
        ids: dict[str, str] = {}

        async def create(name: str) -> str:
            return (await other.create(CreateTable(players=2, name=name), "10.0.0.1")).table.id

        listen, read = PostgresStore._listen_forever, PostgresStore.awake

        async def listen_late(store: PostgresStore) -> None:
            await asyncio.sleep(0.5)
            await listen(store)

        async def read_while_the_other_plays(store: PostgresStore) -> Any:
            ids["before"] = await create("Ann")
            found = await read(store)
            ids["after"] = await create("Cy")
            await other.join(ids["before"], JoinTable(name="Bo"))
            await asyncio.sleep(0.3)  # heard by now, if listened to
            return found

        monkeypatch.setattr(PostgresStore, "_listen_forever", listen_late)
        monkeypatch.setattr(PostgresStore, "awake", read_while_the_other_plays)
        starting = Hub(settings)
        try:
            await starting.start()
            # At once: the look for orphans this process starts would soon take up the tables (nobody leads them).
            lobby = {info.id: [(seat.kind, seat.name) for seat in info.seats] for info in starting.lobby()}
            assert lobby == {
                ids["before"]: [("human", "Ann"), ("human", "Bo")],
                ids["after"]: [("human", "Cy"), ("free", None)],
            }
        finally:
            await starting.stop()
            await other.stop()

    asyncio.run(run())


def test_the_lobby_is_read_again_when_the_listening_connection_comes_back(database: str) -> None:
    """A process hears nothing while its listening connection is down; once it listens again it reads the lobby
    anew: a table created meanwhile is listed, a seat taken meanwhile is shown taken, and a table whose match ended
    meanwhile leaves the lobby (before, only the tables the process held read what they missed)."""
    from rules.server.hub import Hub
    from rules.server.limits import Settings
    from rules.server.pgstore import PostgresStore
    from rules.server.protocol import CreateTable, JoinTable

    settings = Settings(db=database, bot_processes=0, pool_size=2, max_tables_per_client=0)

    async def seats_listed(hub: Hub) -> dict[str, list[tuple[str, str | None]]]:
        return {info.id: [(seat.kind, seat.name) for seat in info.seats] for info in hub.lobby()}

    async def run() -> None:
        other, watching = Hub(settings), Hub(settings)
        await other.start()
        await watching.start()
        store = watching.store
        assert isinstance(store, PostgresStore)
        try:

            async def create(name: str) -> str:
                return (await other.create(CreateTable(players=2, name=name), "10.0.0.1")).table.id

            joined, ending = await create("Ann"), await create("Eve")
            deadline = time.monotonic() + 10
            while set(await seats_listed(watching)) != {joined, ending}:
                assert time.monotonic() < deadline, "the tables made before the outage were not heard of"
                await asyncio.sleep(0.05)
            # The outage: the listening connection goes (its task ends; the connection closes with it).
            assert store._listener is not None
            store._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await store._listener
            store.listening = False
            store._listens.clear()
            made = await create("Cy")
            await other.join(joined, JoinTable(name="Bo"))
            with psycopg.connect(database, autocommit=True) as conn:  # its match ended elsewhere
                conn.execute("UPDATE tables SET finished = true WHERE id = %s", (ending,))
            await asyncio.sleep(0.3)
            assert made not in await seats_listed(watching), "heard of without a listening connection"
            # Back: it listens (the same loop as after any outage), then reads the lobby again.
            store._listener = asyncio.get_running_loop().create_task(store._listen_forever())
            expected = {joined: [("human", "Ann"), ("human", "Bo")], made: [("human", "Cy"), ("free", None)]}
            deadline = time.monotonic() + 10
            while await seats_listed(watching) != expected:
                assert time.monotonic() < deadline, f"the lobby was not read again: {await seats_listed(watching)}"
                await asyncio.sleep(0.05)
        finally:
            await watching.stop()
            await other.stop()

    asyncio.run(run())
