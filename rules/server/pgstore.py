"""The PostgreSQL store: one database shared by any number of server processes.

The same tables as the SQLite store (a table's configuration, its numbered events), with
three things more that several processes need:

- **Each event number is committed once.** ``(table_id, no)`` is the primary key of
  ``events``: when two processes commit event ``n`` of a table at once, PostgreSQL lets one
  in and refuses the other (:class:`~rules.server.store.StoreConflict`); the loser re-reads
  the table and answers ``stale``. Nothing else decides, so nothing can fork a game.
- **Fan-out.** The insert and a ``NOTIFY`` are one statement, so every process listening
  hears of an event exactly when it is committed (notifications arrive in commit order),
  with the event itself in the payload when it fits. A process that lost its listening
  connection hears of nothing for a while: once it listens again it re-reads every table it
  holds, and its lobby the tables the others hold (``resync``).
- **Leads.** The server's own moves at a table (deals, computer seats, the clock, idle sleep)
  are made by one process: the one holding the table's session-level advisory lock, on a
  connection kept for that. When that process dies its connection closes, PostgreSQL
  releases the lock, and another process holding the table takes it within a second. The lead
  follows the players: a process serving a table's players whose leader serves none asks for it
  (a ``lead_wanted`` notice), the leader lets the table go, and says so (``lead_free``). The lead
  only saves work: correctness rests on the primary key above.
- **Draw offers** are stored with their table (the event they belong to, the seats that agree, the seat that
  declined), changed in a transaction that holds the table's row, and announced on the table's channel: every
  process answers the same offer, and the last agreement commits ``agree_draw`` (an event, numbered as any).
- **Presence.** Each process tells every other (on :data:`CHANNEL`) who is connected to it at each table: when
  that changes, and again every few seconds; what a process has not repeated for a while is forgotten, so a
  process that dies stops counting (see :class:`rules.server.elsewhere.Presences`).

The schema is versioned (``schema_version``); :data:`MIGRATIONS` run in order at start-up,
under an advisory lock so that processes starting together do not race, and a database made
by an older server is upgraded in place.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from rules.locale import N_, Message
from rules.server.store import (
    DrawDecision,
    DrawOffer,
    Linked,
    Notice,
    StoreConflict,
    StoredTable,
    StoreError,
    StoreUnavailable,
    Wants,
)

log = logging.getLogger("rules.server")

CHANNEL = "trumps_events"
"""Heard by every process: tables created and finished, seats taken and freed, hands started (for the lobbies)."""
TABLE_CHANNEL = "trumps_t_"
"""Followed by table id: every event of that table, heard by the processes that hold it."""
NOTIFY_LIMIT = 7000
"""Payloads above this leave the event out (PostgreSQL allows 8000 bytes); listeners then read it."""
MIGRATION_LOCK = 7_346_151_902
"""Advisory lock key held while migrating (any constant unlikely to clash)."""
WAIT = 5.0
"""Seconds a request waits for a database connection before it is refused with ``unavailable``."""

_HEAD = re.compile(r'\{"t" ?: ?"([A-Za-z0-9_-]+)", ?"n" ?: ?(\d+)[,}]')
"""The start of a notice, as ``json_build_object`` writes it (a table id and an event number)."""
_MARKS = ('"type": "seat_', '"type": "hand_started"', '"c":', '"f":', '"s":', '"w":', '"lead":', '"d":')
"""What a notice holds when more than its event number matters: the lobby entry of a table held elsewhere needs
it, or it tells of a table's lead or draw offer."""

_DRAW_COLUMNS = "draw_event, draw_agreed, draw_declined, draw_seq"
"""A table's stored draw offer (migration 4), as :func:`_draw_offer` reads it."""


def _draw_offer(row: Any) -> DrawOffer:
    return DrawOffer(int(row[0]), tuple(row[1]), row[2], int(row[3]))


WRITERS = 4
"""Group commits in flight at once per process (each on a pooled connection)."""
BATCH = 500
"""Events per group commit at most."""

_APPEND = f"""
WITH added AS (
    INSERT INTO events (table_id, no, body)
    SELECT * FROM unnest(%s::text[], %s::integer[], %s::text[])
    ON CONFLICT DO NOTHING
    RETURNING table_id, no, body
), notes AS (
    SELECT table_id, no, body::json->>'type' AS kind, CASE WHEN length(body) < {NOTIFY_LIMIT}
        THEN json_build_object('t', table_id, 'n', no, 'e', body::json)::text
        ELSE json_build_object('t', table_id, 'n', no)::text
    END AS note FROM added
)
SELECT table_id, no, pg_notify('{TABLE_CHANNEL}' || table_id, note) IS NULL,
    (CASE WHEN kind IN ('seat_taken', 'seat_freed', 'hand_started') THEN pg_notify('{CHANNEL}', note) END) IS NULL
FROM notes
"""
"""Many events in one statement, so one transaction and one flush to disk: an event number already taken is
skipped (the caller learns it lost the race), and each event added is announced if and only if it is committed:
on the table's own channel (heard by the processes that hold the table), and the seat and hand events also on
:data:`CHANNEL` (heard by every process, for its lobby)."""

MIGRATIONS: list[str] = [
    # 1: tables and their numbered events.
    """
    CREATE TABLE tables (
        id text PRIMARY KEY,
        created double precision NOT NULL,
        creator text NOT NULL,
        config text NOT NULL,
        finished boolean NOT NULL DEFAULT false
    );
    CREATE TABLE events (
        table_id text NOT NULL REFERENCES tables(id),
        no integer NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (table_id, no)
    );
    """,
    # 2: idle tables sleep (left out at start-up), and start-up finds the awake ones by index.
    """
    ALTER TABLE tables ADD COLUMN asleep boolean NOT NULL DEFAULT false;
    CREATE INDEX tables_awake ON tables (created) WHERE NOT finished AND NOT asleep;
    """,
    # 3: the tables-per-address limit counts one address's open tables site-wide; a table let go at rest
    # (nothing due until a person acts) needs no process to lead it, the others (their leader died) do.
    """
    CREATE INDEX tables_open_by_creator ON tables (creator) WHERE NOT finished AND NOT asleep;
    ALTER TABLE tables ADD COLUMN resting boolean NOT NULL DEFAULT false;
    ALTER TABLE tables ADD COLUMN rested_at double precision;
    CREATE INDEX tables_unled ON tables (id) WHERE NOT finished AND NOT asleep AND NOT resting;
    """,
    # 4: a table's draw offer, decided on committed data (the event it belongs to, the seats that agree, the seat
    # that declined, its version), so that every process hears and answers the same offer.
    """
    ALTER TABLE tables ADD COLUMN draw_event integer NOT NULL DEFAULT 0;
    ALTER TABLE tables ADD COLUMN draw_agreed integer[] NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN draw_declined integer;
    ALTER TABLE tables ADD COLUMN draw_seq integer NOT NULL DEFAULT 0;
    """,
]


def redact(url: str) -> str:
    """The URL without its password (for messages and logs).

    The hosts are kept as written: several of them (``h1:5432,h2:5433``, which libpq tries in turn), or a port
    that is no number, for libpq to refuse in its words (``urlsplit``'s ``port`` would raise).

    >>> redact("postgresql://trumps:secret@db.example:5432/trumps")
    'postgresql://trumps@db.example:5432/trumps'
    >>> redact("postgresql://trumps:secret@[::1]:5432,db.example:port/trumps")
    'postgresql://trumps@[::1]:5432,db.example:port/trumps'

    libpq also takes the password as a parameter of the URL: it goes too.

    >>> redact("postgresql://trumps@db.example/trumps?sslmode=require&password=secret")
    'postgresql://trumps@db.example/trumps?sslmode=require'
    >>> redact("postgresql://db.example/trumps?%70assword=secret")
    'postgresql://db.example/trumps'
    """
    parts = urlsplit(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    if at and ":" in userinfo:
        user = userinfo.split(":", 1)[0]
        url = urlunsplit(parts._replace(netloc=f"{user}@{hosts}" if user else hosts))
        parts = urlsplit(url)
    pairs = parts.query.split("&")
    kept = [pair for pair in pairs if unquote(pair.partition("=")[0]).strip() != "password"]
    if len(kept) < len(pairs):
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        url = url.partition("?")[0] + ("?" + "&".join(kept) if kept else "") + fragment
    return url


# PostgreSQL ends the session of a process that vanished without closing it (its machine lost, the network cut)
# only once TCP tells it so, by default after two hours of silence: until then the session keeps that process's
# leads (advisory locks) and whatever rows it had locked, and the clocks and computer seats of its tables stop.
# TCP keepalives, asked for on both ends of every connection, tell it within about 5 s: after 2 s of silence a
# probe a second, and the connection is given up after 3 unanswered. (A process whose event loop is busy still
# answers them: the kernel does.)
_KEEPALIVES = {"idle": 2, "interval": 1, "count": 3}


def _connect_kwargs(url: str) -> dict[str, Any]:
    """The parameters of every connection of a process, besides ``url``: autocommit, a 5 s connect timeout, and
    keepalives on the process's side (libpq's) and PostgreSQL's (the session's settings), unless ``url`` sets them."""
    given = conninfo_to_dict(url)
    kwargs: dict[str, Any] = {"autocommit": True, "connect_timeout": 5}
    if "keepalives" not in given:
        kwargs["keepalives"] = 1
    kwargs |= {f"keepalives_{name}": value for name, value in _KEEPALIVES.items() if f"keepalives_{name}" not in given}
    # The URL's own options come last, so a -c tcp_keepalives_... of its own wins.
    server = " ".join(f"-c tcp_keepalives_{name}={value}" for name, value in _KEEPALIVES.items())
    kwargs["options"] = f"{server} {given['options']}" if given.get("options") else server
    return kwargs


def _lock_key(table_id: str) -> int:
    return int.from_bytes(hashlib.sha256(b"trumps-lead:" + table_id.encode()).digest()[:8], "big", signed=True)


def _creator_key(creator: str) -> int:
    """The advisory lock that orders one address's creates (apart from the tables' leads by its prefix)."""
    return int.from_bytes(hashlib.sha256(b"trumps-creator:" + creator.encode()).digest()[:8], "big", signed=True)


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


_AT = r'connection to server at "(?P<host>[^"]+)"(?: \([^)]*\))?, port (?P<port>\d+) failed: '
# Why libpq or the server could not connect, as they usually say it, in our words (translated by trumps serve).
_CONNECT_REASONS = (
    (
        re.compile(_AT + "Connection refused"),
        N_("nothing answers at {host}, port {port} (is PostgreSQL running there?)"),
    ),
    (re.compile(_AT + "timeout expired"), N_("{host}, port {port}, did not answer in time")),
    (re.compile(r"failed to resolve host '(?P<host>[^']+)'"), N_("unknown host {host}")),
    (re.compile(r'could not translate host name "(?P<host>[^"]+)"'), N_("unknown host {host}")),
    (re.compile(r'database "(?P<name>[^"]+)" does not exist'), N_("the server has no database {name}")),
    (re.compile(r'role "(?P<user>[^"]+)" does not exist'), N_("the server has no user {user}")),
    (re.compile(r'password authentication failed for user "(?P<user>[^"]+)"'), N_("the password of {user} is refused")),
)


def _connect_reason(error: BaseException) -> Message | str:
    """Why a connection failed: a usual reason as a :class:`Message`, another as the driver's first line."""
    line = _one_line(error)
    for pattern, message in _CONNECT_REASONS:
        found = pattern.search(line)
        if found is not None:
            return Message(message, **found.groupdict())
    return line


async def migrate(conn: psycopg.AsyncConnection[Any], upto: int | None = None) -> int:
    """Bring the schema up to :data:`MIGRATIONS` (or to version ``upto``); the version it is at."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        row = await (await conn.execute("SELECT coalesce(max(version), 0) FROM schema_version")).fetchone()
        current = int(row[0]) if row else 0
        if current > len(MIGRATIONS):
            message = N_("the database is at schema version {version}, newer than this server's")
            raise StoreError(Message(message, version=current))
        target = len(MIGRATIONS) if upto is None else upto
        for version in range(current + 1, target + 1):
            await conn.execute(MIGRATIONS[version - 1].encode())
            await conn.execute("INSERT INTO schema_version VALUES (%s)", (version,))
            log.info("database schema upgraded to version %d", version)
        return max(current, target)


_CANNOT_USE = N_("cannot use the database {db}: {why}")


def check(url: str, pool_size: int = 1) -> StoreError | None:
    """Why the server cannot use the database at ``url`` with a pool of ``pool_size`` connections (checked before it
    starts; migrates it), or ``None``."""

    async def attempt() -> None:
        store = await PostgresStore.connect(url, pool_size=pool_size)
        await store.close()

    try:
        asyncio.run(attempt())
    except StoreError as error:
        return error
    return None


class _LastWarning(logging.Handler):
    """The last warning of a logger it is added to (which then prints nothing by itself, if it has no handler)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.message = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.message = record.getMessage()


class PostgresStore:
    """Tables and events in PostgreSQL: a pool for requests, one connection listening, one holding leads."""

    shared = True

    def __init__(self, url: str, pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]]) -> None:
        self.url = url
        self._connect = _connect_kwargs(url)
        self._pool = pool
        self._notice: Notice | None = None
        self._wants: Wants | None = None
        self._resync: Callable[[], None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self.listening = False
        """The listening connection is up: this process hears other processes' events."""
        self._listens = asyncio.Event()
        """Set while :attr:`listening` (for :meth:`heard_from_now`)."""
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._locks_guard = asyncio.Lock()
        self._leads: set[str] = set()
        self._pending: list[tuple[str, int, str, asyncio.Future[None]]] = []
        self._writers: set[asyncio.Task[None]] = set()
        self._following: set[str] = set()
        """The tables whose channels this process wants to hear."""
        self._listened: set[str] = set()
        """The tables whose channels the listening connection is listening to."""
        self._control = f"trumps_control_{secrets.token_hex(6)}"
        """A channel of this process's own: a notice on it wakes the listener to (un)listen tables' channels, or (with
        a mark) tells how far the notices have been heard (:meth:`heard_so_far`)."""
        self._synced: list[asyncio.Future[None]] = []
        self._caught_up: dict[str, asyncio.Future[None]] = {}
        """Who waits for which notice of this process's own on :attr:`_control` (see :meth:`heard_so_far`)."""

    @classmethod
    async def connect(cls, url: str, pool_size: int = 10) -> PostgresStore:
        """Connect, migrate, start listening; :class:`StoreUnavailable` (one line, no password) if it cannot."""
        try:
            async with await psycopg.AsyncConnection.connect(url, **_connect_kwargs(url)) as conn:
                await migrate(conn)
        except psycopg.Error as error:
            raise StoreUnavailable(Message(_CANNOT_USE, db=redact(url), why=_connect_reason(error))) from None
        except StoreError as error:
            why = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], Message) else str(error)
            raise StoreError(Message(_CANNOT_USE, db=redact(url), why=why)) from None
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            url,
            min_size=pool_size,  # opened at start: a busy moment does not wait for new connections
            max_size=pool_size,
            kwargs=_connect_kwargs(url),
            timeout=WAIT,
            reconnect_timeout=24 * 3600,
            open=False,
        )
        heard = _LastWarning()  # the pool says why a connection failed only in its log (and retries)
        pool_log = logging.getLogger("psycopg.pool")
        pool_log.addHandler(heard)
        try:
            await pool.open(wait=True, timeout=10)
        except PoolTimeout as timeout:  # the database answers, but not with as many connections as asked
            await pool.close()
            # "error connecting in 'pool-1': connection failed: <libpq's line>", e.g. too many clients already
            said = heard.message.split("connection failed: ", 1)[-1]
            why = _connect_reason(RuntimeError(said)) if said else _one_line(timeout)
            raise StoreUnavailable(Message(_CANNOT_USE, db=redact(url), why=why)) from None
        finally:
            pool_log.removeHandler(heard)
        return cls(url, pool)

    # --- requests ----------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _connection(self, wait: float = WAIT) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection; database failures come out as :class:`StoreError` subclasses."""
        try:
            async with self._pool.connection(timeout=wait) as conn:
                yield conn
        except errors.UniqueViolation:
            raise StoreConflict("the event number is taken") from None
        except (PoolTimeout, psycopg.OperationalError, psycopg.InterfaceError) as error:
            raise StoreUnavailable(f"the database is unavailable: {_one_line(error)}") from None
        except psycopg.Error as error:
            raise StoreError(f"the database refused: {_one_line(error)}") from None

    async def unfinished(self) -> list[StoredTable]:
        async with self._connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT id, created, creator, config FROM tables WHERE NOT finished AND NOT asleep ORDER BY created"
                )
            ).fetchall()
            tables = {row[0]: StoredTable(row[0], row[1], row[2], json.loads(row[3])) for row in rows}
            cursor = await conn.execute(
                "SELECT e.table_id, e.body FROM events e JOIN tables t ON t.id = e.table_id "
                "WHERE NOT t.finished AND NOT t.asleep ORDER BY e.table_id, e.no"
            )
            async for table_id, body in cursor:
                if table_id in tables:  # created after the first query: left for the next start
                    tables[table_id].events.append(json.loads(body))
        return list(tables.values())

    async def load(self, table_id: str) -> StoredTable | None:
        async with self._connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT id, created, creator, config, finished, asleep FROM tables WHERE id = %s", (table_id,)
                )
            ).fetchone()
            if row is None:
                return None
            bodies = await (
                await conn.execute("SELECT body FROM events WHERE table_id = %s ORDER BY no", (table_id,))
            ).fetchall()
        events = [json.loads(body) for (body,) in bodies]
        return StoredTable(row[0], row[1], row[2], json.loads(row[3]), events, row[4], row[5])

    async def events_after(self, table_id: str, after: int) -> list[dict[str, Any]]:
        async with self._connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT body FROM events WHERE table_id = %s AND no > %s ORDER BY no", (table_id, after)
                )
            ).fetchall()
        return [json.loads(body) for (body,) in rows]

    async def create_table(
        self,
        table_id: str,
        config: dict[str, Any],
        creator: str,
        limit: int = 0,
        *,
        created: float,
        with_event: Linked | None = None,
    ) -> bool:
        # Event 0 in the notice: the other processes hear of the new table (their lobbies show it).
        # With its configuration: their lobbies list it without reading it.
        note = json.dumps({"t": table_id, "n": 0, "c": config, "at": created})
        async with self._connection() as conn, conn.transaction():
            if limit:
                # Creates by one address wait for each other until commit, and the count below is a statement of
                # its own, so it sees the table the one before committed: the limit holds exactly, site-wide.
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_creator_key(creator),))
                row = await (
                    await conn.execute(
                        "SELECT count(*) FROM tables WHERE creator = %s AND NOT finished AND NOT asleep", (creator,)
                    )
                ).fetchone()
                if row is not None and row[0] >= limit:
                    return False
            if with_event is not None:
                # First the other table's event, as a group commit writes it (and announces it on commit): when its
                # number is taken (a rematch made at once elsewhere), nothing of this transaction is kept.
                other, no, body = with_event
                cursor = await conn.execute(_APPEND, ([other], [no], [json.dumps(body)]))
                if not await cursor.fetchall():
                    raise StoreConflict(f"event {no} of table {other} is taken")
            await conn.execute(
                "WITH added AS (INSERT INTO tables (id, created, creator, config) VALUES (%s, %s, %s, %s) "
                "RETURNING id) SELECT pg_notify(%s, %s) FROM added",
                (table_id, created, creator, json.dumps(config), CHANNEL, note),
            )
        return True

    def append(self, table_id: str, no: int, body: dict[str, Any]) -> asyncio.Future[None]:
        """Queue event ``no`` for the next group commit; the future is done once it is committed (and announced)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((table_id, no, json.dumps(body), done))
        if len(self._writers) < WRITERS:
            writer = loop.create_task(self._write())
            self._writers.add(writer)
            writer.add_done_callback(self._writers.discard)
        return done

    async def _write(self) -> None:
        """Commit whatever events are queued, in one statement per batch, until none are."""
        while self._pending:
            batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
            try:
                async with self._connection() as conn:
                    cursor = await conn.execute(
                        _APPEND,
                        ([job[0] for job in batch], [job[1] for job in batch], [job[2] for job in batch]),
                    )
                    added = {(row[0], row[1]) for row in await cursor.fetchall()}
            except StoreError as error:
                for *_, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for table_id, no, _, done in batch:
                if done.done():
                    continue
                if (table_id, no) in added:
                    done.set_result(None)
                else:
                    done.set_exception(StoreConflict(f"event {no} of table {table_id} is taken"))

    async def finish(self, table_id: str) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "WITH done AS (UPDATE tables SET finished = true WHERE id = %s AND NOT finished RETURNING id) "
                "SELECT pg_notify(%s, %s) FROM done",
                (table_id, CHANNEL, json.dumps({"t": table_id, "n": 0, "f": True})),
            )

    async def awake(self) -> list[tuple[StoredTable, int]]:
        """Every awake unfinished table with only its seat and hand events, and its last event number."""
        async with self._connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT id, created, creator, config, "
                    "(SELECT coalesce(max(no), 0) FROM events WHERE table_id = id) FROM tables "
                    "WHERE NOT finished AND NOT asleep ORDER BY created"
                )
            ).fetchall()
            tables = {row[0]: (StoredTable(row[0], row[1], row[2], json.loads(row[3])), int(row[4])) for row in rows}
            cursor = await conn.execute(
                "SELECT e.table_id, e.body FROM events e JOIN tables t ON t.id = e.table_id "
                "WHERE NOT t.finished AND NOT t.asleep "
                "AND e.body::json->>'type' IN ('seat_taken', 'seat_freed', 'hand_started') ORDER BY e.table_id, e.no"
            )
            async for table_id, body in cursor:
                if table_id in tables:
                    tables[table_id][0].events.append(json.loads(body))
        return list(tables.values())

    async def rest(self, table_id: str) -> None:
        """The table was let go at rest (this process led it): no process needs to lead it until a person acts."""
        async with self._connection() as conn:
            await conn.execute(
                "UPDATE tables SET resting = true, rested_at = %s WHERE id = %s", (time.time(), table_id)
            )

    async def sleep_rested(self, idle: float, held: Collection[str] = ()) -> None:
        """Mark asleep the tables at rest for ``idle`` seconds (left out at start-up and of the limits), and tell every
        process (their lobbies drop them). The tables this process holds (``held``) are in use: their rest starts
        again now, so that none is put to sleep while a process serves it."""
        now = time.time()
        async with self._connection() as conn:
            if held:
                await conn.execute(
                    "UPDATE tables SET rested_at = %s WHERE resting AND id = ANY(%s)", (now, sorted(held))
                )
            # The notice written as json.dumps writes it (json_build_object puts spaces around the colons), as the
            # listeners' marks (_MARKS) look for it.
            await conn.execute(
                "WITH slept AS (UPDATE tables SET asleep = true "
                "WHERE resting AND NOT asleep AND NOT finished AND rested_at < %s RETURNING id) "
                'SELECT pg_notify(%s, \'{"t": \' || to_json(id)::text || \', "n": 0, "s": true}\') FROM slept',
                (now - idle, CHANNEL),
            )

    async def answer_draw(self, table_id: str, event_no: int, decide: DrawDecision) -> DrawOffer | None:
        async with self._connection() as conn, conn.transaction():
            # The row first (answers at once wait here for each other), then, in a statement of its own (so with a
            # snapshot taken after the wait), the table's last event: an agreement committed meanwhile is seen.
            row = await (
                await conn.execute(
                    f"SELECT {_DRAW_COLUMNS} FROM tables WHERE id = %s FOR NO KEY UPDATE",
                    (table_id,),
                )
            ).fetchone()
            last = await (
                await conn.execute("SELECT coalesce(max(no), 0) FROM events WHERE table_id = %s", (table_id,))
            ).fetchone()
            if row is None or last is None or int(last[0]) != event_no:
                raise StoreConflict(f"table {table_id} has an event after {event_no}")
            stored = _draw_offer(row)
            agreed, declined, event = decide(stored if stored.event_no == event_no else None)
            if event is not None:  # as a group commit writes it (announced on commit); a taken number writes nothing
                cursor = await conn.execute(_APPEND, ([table_id], [event_no + 1], [json.dumps(event)]))
                if not await cursor.fetchall():
                    raise StoreConflict(f"event {event_no + 1} of table {table_id} is taken")
                return None
            offer = DrawOffer(event_no, tuple(sorted(agreed)), declined, stored.seq + 1)
            note = {"t": table_id, "n": 0, "d": {"e": event_no, "a": list(offer.agreed), "x": declined, "q": offer.seq}}
            await conn.execute(
                "UPDATE tables SET draw_event = %s, draw_agreed = %s, draw_declined = %s, draw_seq = %s WHERE id = %s",
                (event_no, list(offer.agreed), declined, offer.seq, table_id),
            )
            await conn.execute("SELECT pg_notify(%s, %s)", (TABLE_CHANNEL + table_id, json.dumps(note)))
        return offer

    async def draw_offer(self, table_id: str) -> DrawOffer | None:
        async with self._connection() as conn:
            row = await (
                await conn.execute(f"SELECT {_DRAW_COLUMNS} FROM tables WHERE id = %s", (table_id,))
            ).fetchone()
        if row is None or not row[3]:
            return None
        return _draw_offer(row)

    async def tell_presence(self, origin: str, tables: dict[str, tuple[list[int], int]], lasts: float) -> None:
        notes: list[str] = []
        listed: dict[str, Any] = {}
        size = 0
        for table_id, (seats, spectators) in tables.items():
            entry = [seats, spectators]
            more = len(json.dumps(table_id)) + len(json.dumps(entry)) + 4
            if listed and size + more > NOTIFY_LIMIT - 100:  # one notice more (a table is far below the limit)
                notes.append(json.dumps({"p": origin, "e": lasts, "l": listed}))
                listed, size = {}, 0
            listed[table_id] = entry
            size += more
        if listed:
            notes.append(json.dumps({"p": origin, "e": lasts, "l": listed}))
        if notes:
            async with self._connection() as conn:
                await conn.execute(
                    "SELECT pg_notify(%s, note) FROM unnest(%s::text[]) AS note",
                    (CHANNEL, notes),
                )

    async def ask_presence(self, origin: str) -> None:
        async with self._connection() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"pq": origin})))

    async def presence_gone(self, origin: str) -> None:
        async with self._connection() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"pg": origin})))

    async def claim_orphans(self, held: set[str]) -> list[str]:
        """Take the lead of every awake unfinished table not in ``held`` that is not at rest and that no process
        leads (its leader died); their ids. One query for the list, one for all the locks."""
        async with self._connection() as conn:
            rows = await (
                await conn.execute("SELECT id FROM tables WHERE NOT finished AND NOT asleep AND NOT resting")
            ).fetchall()
        keys = {_lock_key(row[0]): row[0] for row in rows if row[0] not in held and row[0] not in self._leads}
        if not keys:
            return []
        async with self._locks_guard:
            try:
                if self._locks is None or self._locks.closed:
                    self._leads.clear()
                    self._locks = await psycopg.AsyncConnection.connect(self.url, **self._connect)
                cursor = await self._locks.execute(
                    "SELECT key FROM unnest(%s::bigint[]) AS key WHERE pg_try_advisory_lock(key)", (list(keys),)
                )
                claimed = [keys[row[0]] for row in await cursor.fetchall()]
            except psycopg.Error:
                await self._lost_locks()
                return []
        self._leads.update(claimed)
        return claimed

    async def set_asleep(self, table_id: str, asleep: bool) -> None:
        async with self._connection() as conn:
            await conn.execute("UPDATE tables SET asleep = %s WHERE id = %s", (asleep, table_id))

    async def wake(self, table_id: str, lobby: dict[str, Any]) -> None:
        """The table is taken up: awake, its rest (if it is at rest) starting again now; if it was asleep, every
        process hears so with its lobby entry (``lobby``), and lists it again."""
        note = json.dumps({"t": table_id, "n": 0, "w": lobby})
        async with self._connection() as conn:
            await conn.execute(
                "WITH was AS (SELECT asleep FROM tables WHERE id = %s FOR UPDATE), "
                "woke AS (UPDATE tables SET asleep = false, rested_at = %s WHERE id = %s) "
                "SELECT pg_notify(%s, %s) FROM was WHERE asleep",
                (table_id, time.time(), table_id, CHANNEL, note),
            )

    async def ready(self) -> bool:
        if not self.listening:
            return False
        try:
            async with self._connection(wait=1.0) as conn:
                await conn.execute("SELECT 1")
        except StoreError:
            return False
        return True

    # --- leads -------------------------------------------------------------------------------------

    def leads(self, table_id: str) -> bool:
        return table_id in self._leads

    async def claim_lead(self, table_id: str) -> bool:
        if table_id in self._leads:
            return True
        async with self._locks_guard:
            try:
                if self._locks is None or self._locks.closed:
                    self._leads.clear()  # a new session holds no locks
                    self._locks = await psycopg.AsyncConnection.connect(self.url, **self._connect)
                cursor = await self._locks.execute("SELECT pg_try_advisory_lock(%s)", (_lock_key(table_id),))
                row = await cursor.fetchone()
            except psycopg.Error:
                await self._lost_locks()
                return False
        if row is not None and row[0]:
            self._leads.add(table_id)
            with contextlib.suppress(StoreError):  # led from now on: no longer at rest
                async with self._connection() as conn:
                    await conn.execute("UPDATE tables SET resting = false WHERE id = %s AND resting", (table_id,))
            return True
        return False

    async def release_lead(self, table_id: str) -> None:
        if table_id not in self._leads:
            return
        self._leads.discard(table_id)
        async with self._locks_guard:
            try:
                if self._locks is not None and not self._locks.closed:
                    await self._locks.execute("SELECT pg_advisory_unlock(%s)", (_lock_key(table_id),))
            except psycopg.Error:
                await self._lost_locks()
        await self._lead_notice(table_id, "free")

    async def ask_lead(self, table_id: str) -> None:
        await self._lead_notice(table_id, "wanted")

    async def _lead_notice(self, table_id: str, what: str) -> None:
        """Tell the processes holding the table that its lead is ``free`` or ``wanted`` (a lost notice only
        delays a hand-over: the lead itself is the advisory lock)."""
        note = json.dumps({"t": table_id, "n": 0, "lead": what})
        try:
            async with self._connection() as conn:
                await conn.execute("SELECT pg_notify(%s, %s)", (TABLE_CHANNEL + table_id, note))
        except StoreError as error:
            log.error("table %s: could not tell that its lead is %s: %s", table_id, what, error)

    async def _lost_locks(self) -> None:
        """The lock connection failed: its locks are gone (PostgreSQL released them with the session)."""
        self._leads.clear()
        if self._locks is not None:
            with contextlib.suppress(psycopg.Error):
                await self._locks.close()
        self._locks = None

    async def _check_locks(self) -> None:
        async with self._locks_guard:
            if self._locks is None:
                return
            try:
                await self._locks.execute("SELECT 1")
            except psycopg.Error:
                await self._lost_locks()

    # --- hearing other processes' events -----------------------------------------------------------

    def subscribe(self, notice: Notice, resync: Callable[[], None], wants: Wants | None = None) -> None:
        self._notice, self._resync, self._wants = notice, resync, wants
        if self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(self._listen_forever())

    async def _listen_forever(self) -> None:
        delay = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, **self._connect) as conn:
                    # Notices that come in with a statement's answer (a LISTEN's) are handed over by psycopg.
                    conn.add_notify_handler(lambda note: self._heard(note.channel, note.payload))
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {self._control}")
                    self._listened = set()
                    await self._sync_listens(conn)
                    if delay > 0.1:  # back after an outage: the pooled connections may be dead ones
                        await self._pool.check()
                        log.info("listening to the database again")
                    self.listening, delay = True, 0.1
                    self._listens.set()
                    # What was committed while nobody here listened: each table re-reads what it missed, the lobby too.
                    await self._check_locks()
                    if self._resync is not None:
                        self._resync()
                    while True:
                        await self._hear(conn)
                        await self._sync_listens(conn)
            except psycopg.Error as error:
                if self.listening:
                    log.error("lost the database connection that listens for events: %s", _one_line(error))
            self.listening = False
            self._listens.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def heard_from_now(self) -> bool:
        """Return once the listening connection listens (to :data:`CHANNEL` and the tables followed): every notice
        committed from then on reaches :meth:`subscribe`'s callbacks. False if it does not within :data:`WAIT`."""
        if self._listener is None:
            return False
        try:
            await asyncio.wait_for(self._listens.wait(), WAIT)
        except TimeoutError:
            return False
        return True

    async def _hear(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Pass on the notices as they come until the channels followed change; a :class:`psycopg.Error` if the
        connection fails.

        The notices are read by a callback of the event loop's, on the socket's readiness, rather than by
        ``conn.notifies()``: that wakes this task, registers the socket with the loop again and arms a timer at
        every batch, which a process pays once or more per move it commits (it hears its own notices too).
        """
        loop = asyncio.get_running_loop()
        pgconn, encoding = conn.pgconn, conn.info.encoding
        changed: asyncio.Future[None] = loop.create_future()
        socket = conn.fileno()
        reading = True

        def stop_reading() -> None:
            nonlocal reading
            if reading:
                reading = False
                loop.remove_reader(socket)

        def readable() -> None:
            try:
                pgconn.consume_input()
                while (note := pgconn.notifies()) is not None:
                    self._heard(note.relname.decode(encoding), note.extra.decode(encoding))
            except psycopg.Error as error:
                # At once, by its number: the failure has closed the socket, and the next one this process opens or
                # accepts gets the number. Left registered till this task's turn, that one's readiness would never
                # be watched (the loop believes it watched already): a request on it would go unread for ever.
                stop_reading()
                if not changed.done():
                    changed.set_exception(error)
                return
            if (self._synced or self._listened != self._following) and not changed.done():
                changed.set_result(None)

        loop.add_reader(socket, readable)
        try:
            readable()  # what came in meanwhile (the socket may not be readable again for it)
            await changed
        finally:
            stop_reading()

    def _heard(self, channel: str, payload: str) -> None:
        if channel == self._control:
            waiting = self._caught_up.pop(payload, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
            return  # else it only wakes the listener, which then listens to the channels followed
        try:
            self._deliver(payload)
        except Exception:  # one notice: the listening goes on
            log.exception("could not pass on a notice on %s", channel)

    async def _sync_listens(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Listen to the channels of the tables followed now, and no other; then tell those who wait for it."""
        wanted = set(self._following)
        for table_id in wanted - self._listened:
            await conn.execute(f'LISTEN "{TABLE_CHANNEL}{table_id}"')
        for table_id in self._listened - wanted:
            await conn.execute(f'UNLISTEN "{TABLE_CHANNEL}{table_id}"')
        self._listened = wanted
        synced, self._synced = self._synced, []
        for done in synced:
            if not done.done():
                done.set_result(None)

    async def heard_so_far(self) -> bool:
        """Return once every notice committed before the call has been passed on: a notice of this process's own,
        sent now, has come back, and the listening connection hears the notices in the order they were committed.
        False (at once) while it does not listen, or if the notice does not come back within :data:`WAIT`."""
        if not self.listening:
            return False
        mark = secrets.token_hex(8)
        waiting = self._caught_up[mark] = asyncio.get_running_loop().create_future()
        try:
            async with self._connection() as conn, conn.transaction():
                # A notice is sent at commit, and PostgreSQL writes that commit to disk: this one has nothing to keep,
                # and it comes back after every notice committed before it all the same.
                await conn.execute("SET LOCAL synchronous_commit TO off")
                await conn.execute("SELECT pg_notify(%s, %s)", (self._control, mark))
            await asyncio.wait_for(waiting, WAIT)
        except (StoreError, TimeoutError):
            return False
        finally:
            self._caught_up.pop(mark, None)
        return True

    async def follow(self, table_id: str) -> None:
        """Hear this table's events from now on: returns once the listening connection listens to its channel
        (or at once while it is down: it listens to every followed table when it is back, and resyncs them)."""
        if table_id in self._following:
            return
        self._following.add(table_id)
        if not self.listening:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._synced.append(done)
        try:
            async with self._connection() as conn:
                await conn.execute("SELECT pg_notify(%s, '')", (self._control,))
            await asyncio.wait_for(asyncio.shield(done), WAIT)
        except (StoreError, TimeoutError):
            log.error("could not listen to table %s's events yet; it will be read again on the next one", table_id)

    def unfollow(self, table_id: str) -> None:
        """Stop hearing this table's events (the listener stops listening at its next wake-up)."""
        self._following.discard(table_id)

    def _deliver(self, payload: str) -> None:
        # A process hears every event of the tables it holds, its own among them: most (its own, and those
        # already read) are passed on from the notice's head alone, unparsed.
        head = _HEAD.match(payload)
        if head is not None and self._notice is not None and self._wants is not None:
            table_id, no = head[1], int(head[2])
            if not self._wants(table_id, no) and not any(mark in payload for mark in _MARKS):
                self._notice(table_id, no, None)
                return
        try:
            note = json.loads(payload)
            if "p" in note or "pq" in note or "pg" in note:
                self._deliver_presence(note)
                return
            table_id, no, event = note["t"], int(note["n"]), note.get("e")
            if "c" in note:  # a new table
                event = {"type": "table_created", "config": note["c"], "created": float(note.get("at", 0))}
            elif note.get("f"):  # its match is over
                event = {"type": "table_finished"}
            elif note.get("s"):  # put to sleep
                event = {"type": "table_asleep"}
            elif "w" in note:  # woken: its lobby entry
                event = {"type": "table_awake", "lobby": note["w"]}
            elif note.get("lead") in ("free", "wanted"):
                event = {"type": f"lead_{note['lead']}"}
            elif "d" in note:  # its draw offer changed
                draw = note["d"]
                offer = DrawOffer(int(draw["e"]), tuple(int(seat) for seat in draw["a"]), draw["x"], int(draw["q"]))
                event = {"type": "draw_offer", "offer": offer}
        except (ValueError, KeyError, TypeError):
            log.error("ignored a malformed notice on %s", CHANNEL)
            return
        if self._notice is not None:
            self._notice(table_id, no, event)

    def _deliver_presence(self, note: dict[str, Any]) -> None:
        """Another process's connections (see :meth:`tell_presence`), its question, or its end."""
        if self._notice is None:
            return
        if "pq" in note:
            self._notice("", 0, {"type": "presence_asked", "origin": str(note["pq"])})
        elif "pg" in note:
            self._notice("", 0, {"type": "presence_gone", "origin": str(note["pg"])})
        else:
            origin, lasts = str(note["p"]), float(note["e"])
            for table_id, (seats, spectators) in note["l"].items():
                record = {
                    "type": "presence",
                    "origin": origin,
                    "seats": [int(seat) for seat in seats],
                    "spectators": int(spectators),
                    "lasts": lasts,
                }
                self._notice(table_id, 0, record)

    async def close(self) -> None:
        await asyncio.gather(*self._writers, return_exceptions=True)  # the commits in flight finish
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        async with self._locks_guard:
            if self._locks is not None:
                with contextlib.suppress(psycopg.Error):
                    await self._locks.close()
            self._leads.clear()
        await self._pool.close()
