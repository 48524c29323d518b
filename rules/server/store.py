"""The event store: every table and every accepted event; here its interface and the embedded SQLite one.

:class:`Store` is what the hub and the tables use. Two kinds implement it: :class:`EventStore`
below (one SQLite file, one server process: the default) and
:class:`~rules.server.pgstore.PostgresStore` (a PostgreSQL database shared by any number of
server processes). :func:`open_store` picks one by the ``db`` setting.

The rest of this docstring is about the SQLite store.

A table is its configuration plus the numbered list of its events; its whole state is
rebuilt by replaying them, so an event that is committed is never lost and an event
that is not committed never happened. Writes go through one writer thread that
commits whatever has queued up in a single transaction (group commit): with
``synchronous=FULL`` every commit is on disk before anyone is told, yet 200 busy tables
cost one ``fsync`` per batch, not one per move.

>>> import asyncio, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.sqlite3")
>>> async def demo() -> list[StoredTable]:
...     store = EventStore(path)
...     await store.create_table("abc", {"players": 2}, creator="127.0.0.1", created=1.0)
...     await store.append("abc", 1, {"type": "seat_taken", "seat": 0})
...     try:  # event 1 is there: a second one is refused, the first stays
...         await store.append("abc", 1, {"type": "seat_taken", "seat": 1})
...     except StoreConflict as conflict:
...         print(conflict)
...     await store.close()
...     return await EventStore(path).unfinished()
>>> [(t.id, t.config, t.events) for t in asyncio.run(demo())]
the event number is taken
[('abc', {'players': 2}, [{'type': 'seat_taken', 'seat': 0}])]
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.locale import N_, Message

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    creator TEXT NOT NULL,
    config TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    asleep INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    no INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_id, no)
) WITHOUT ROWID;
"""


@dataclass
class StoredTable:
    """A table as stored: its configuration and its events in order (event ``n`` at index ``n-1``)."""

    id: str
    created: float
    creator: str
    config: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    """The match is over."""
    asleep: bool = False
    """The table was put to sleep (out of memory, not rebuilt at start-up) with its match not over."""


def _prepare(db: sqlite3.Connection) -> None:
    """Create the schema, or bring a file made by an older server up to it."""
    db.executescript(_SCHEMA)
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    if "asleep" not in columns:
        db.execute("ALTER TABLE tables ADD COLUMN asleep INTEGER NOT NULL DEFAULT 0")


# SQLite's own sentences for the usual reasons a file cannot be used, as messages (`trumps serve` translates them).
_SQLITE_REASONS = {
    sqlite3.SQLITE_CANTOPEN: N_("unable to open database file"),
    sqlite3.SQLITE_NOTADB: N_("file is not a database"),
    sqlite3.SQLITE_READONLY: N_("attempt to write a readonly database"),
    sqlite3.SQLITE_CORRUPT: N_("database disk image is malformed"),
    sqlite3.SQLITE_BUSY: N_("database is locked"),
}


def database_problem(path: str) -> Message | str | None:
    """Why the store cannot open ``path`` (checked before the server starts), or ``None``.

    SQLite's usual reasons come as a :class:`~rules.locale.Message` (English as text), others as SQLite says them.
    """
    try:
        db = sqlite3.connect(path)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            _prepare(db)
        finally:
            db.close()
    except sqlite3.Error as error:
        code = getattr(error, "sqlite_errorcode", None)
        reason = _SQLITE_REASONS.get(code & 0xFF) if isinstance(code, int) else None  # the primary code
        return Message(reason) if reason is not None else str(error)
    return None


class StoreError(RuntimeError):
    """The database refused a write (the event did not happen) or a read."""


class StoreUnavailable(StoreError):
    """The database cannot be reached right now; nothing was written. Play resumes once it answers again."""


class StoreConflict(StoreError):
    """The event number is taken: another server process committed an event of this table first."""


Notice = Callable[[str, int, "dict[str, Any] | None"], None]
"""Called with (table id, event number, the event if it came along) when another process may have committed."""

Linked = tuple[str, int, dict[str, Any]]
"""An event of another table to commit with a new one: that table's id, the event's number, the event."""

Wants = Callable[[str, int], bool]
"""Whether event ``no`` of a table matters to this process (see :meth:`Store.subscribe`)."""


@dataclass(frozen=True)
class DrawOffer:
    """A table's draw offer as stored (a shared store): the event it belongs to (a later event of the table ends it),
    the seats that agree, the seat that declined it (then no seat agrees), and its version, one more at each change of
    the table's offer (by which a process knows whether what it hears or reads is news)."""

    event_no: int
    agreed: tuple[int, ...]
    declined: int | None
    seq: int


DrawAnswer = tuple[Collection[int], int | None, dict[str, Any] | None]
"""What a draw answer decides: the seats that agree now, the seat that declined (or ``None``), and the ``agree_draw``
event to commit (the next event of the table) once every seat agrees (then the first two are not stored)."""

DrawDecision = Callable[[DrawOffer | None], DrawAnswer]
"""Decides a draw answer on the offer stored for the table's current event (``None``: none)."""


class Store(Protocol):
    """Where tables and their events are kept (see the module docstring for the two kinds)."""

    shared: bool
    """Other server processes may write to the same database (tables then follow :meth:`subscribe`)."""

    async def unfinished(self) -> list[StoredTable]:
        """Every table whose match is not over and that is not asleep, with its events, oldest table first."""
        ...

    async def load(self, table_id: str) -> StoredTable | None:
        """One table with its events, or ``None`` if there is none."""
        ...

    async def events_after(self, table_id: str, after: int) -> list[dict[str, Any]]:
        """The events of a table numbered above ``after``, in order."""
        ...

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
        """Add a table (made at Unix time ``created``) unless ``creator`` already made ``limit`` (``0``: no limit)
        whose match is not over and that are not asleep, site-wide; whether it was added. The count and the insert
        are one step: two creates at once, on any processes, cannot both pass the limit.

        ``with_event`` (another table's id, an event number and the event) is committed in the same transaction,
        and announced as :meth:`append` announces it (a rematch: the old table's link to the new one). If that
        event number is taken, nothing is written (:class:`StoreConflict`): of two rematches of one table made at
        once, on any processes, exactly one table is created."""
        ...

    def append(self, table_id: str, no: int, body: dict[str, Any]) -> asyncio.Future[None]:
        """Queue event ``no`` of a table for commit: the future is done once it is committed (or fails with
        :class:`StoreConflict` if that number is taken). The commit happens whether or not anyone still awaits it.
        A future rather than a coroutine: awaited in a :func:`asyncio.shield`, it needs no task of its own."""
        ...

    async def finish(self, table_id: str) -> None: ...

    async def set_asleep(self, table_id: str, asleep: bool) -> None: ...

    async def wake(self, table_id: str, lobby: dict[str, Any]) -> None:
        """Mark a table awake as it is taken up. (A shared store) if it was asleep, every process hears so, with
        ``lobby``, its lobby entry (``table_awake``); one at rest rests from now on."""
        ...

    async def ready(self) -> bool:
        """The database answers."""
        ...

    def leads(self, table_id: str) -> bool:
        """This process holds the table's lead: it alone makes the server's moves there (deal, bots, clock)."""
        ...

    async def answer_draw(self, table_id: str, event_no: int, decide: DrawDecision) -> DrawOffer | None:
        """(A shared store) a draw answer at event ``event_no`` of a table, decided on committed data, in one
        transaction that holds the table's offer meanwhile (answers at once, on any processes, go one after the
        other): ``decide`` is called with the offer stored for ``event_no`` (``None``: none, or one of an earlier
        event), and what it decides is stored and announced to the processes holding the table (``draw_offer``), or
        its ``agree_draw`` event committed (then ``None`` is returned) as :meth:`append` commits one. The new offer is
        returned. :class:`StoreConflict` (nothing written) if the table has an event after ``event_no``, or when the
        ``agree_draw`` event's number is taken; whatever ``decide`` raises is raised, nothing written."""
        ...

    async def draw_offer(self, table_id: str) -> DrawOffer | None:
        """(A shared store) the table's offer as stored (``None``: there never was one)."""
        ...

    async def tell_presence(self, origin: str, tables: dict[str, tuple[list[int], int]], lasts: float) -> None:
        """(A shared store) tell every process who is connected to this one (``origin``) at each of ``tables``: the
        seats held by a connection here and how many spectators watch here (``[], 0``: nobody any more). Each process
        hears it (``presence``) and counts it for ``lasts`` seconds, unless told again."""
        ...

    async def ask_presence(self, origin: str) -> None:
        """(A shared store) ask every other process to tell who is connected to it (``presence_asked``)."""
        ...

    async def presence_gone(self, origin: str) -> None:
        """(A shared store) this process (``origin``) stops: nobody is connected to it any more (``presence_gone``)."""
        ...

    async def claim_lead(self, table_id: str) -> bool:
        """Try to take the table's lead (held until released or this process dies); whether it is held."""
        ...

    async def release_lead(self, table_id: str) -> None:
        """Let the table's lead go. (A shared store) the processes holding the table hear it (``lead_free``)."""
        ...

    async def ask_lead(self, table_id: str) -> None:
        """(A shared store) ask the process leading the table to hand its lead over (``lead_wanted``): the clock and
        the computer seats follow the players (see :meth:`rules.server.hub.Hub.hand_over`)."""
        ...

    def subscribe(self, notice: Notice, resync: Callable[[], None], wants: Wants | None = None) -> None:
        """Call ``notice`` for events other processes commit; ``resync`` when some may have been missed.

        ``wants(table_id, no)`` says whether the event itself matters (a table held here that has not
        applied it): for the others ``notice`` may be called without it (``None``), the notice unread,
        unless it is a seat or hand event (which the lobby shows).

        Besides the tables' events (numbered from 1), a notice numbered 0 tells of a new table (the record
        ``{"type": "table_created", "config": ..., "created": ...}``), of a match over (``table_finished``), of a
        table put to sleep (``table_asleep``) or woken (``{"type": "table_awake", "lobby": ...}``, its lobby entry),
        and, to the processes holding a table, that its lead is free (``lead_free``) or wanted (``lead_wanted``), or
        that its draw offer changed (``{"type": "draw_offer", "offer": DrawOffer}``). Presence (see
        :meth:`tell_presence`) comes numbered 0 to every process: ``{"type": "presence", "origin", "seats",
        "spectators", "lasts"}`` for one table, ``presence_asked`` and ``presence_gone`` (with ``origin``, table id
        ``""``).
        """
        ...

    async def heard_from_now(self) -> bool:
        """(A shared store) return once every notice committed from now on will be heard (the notices subscribed to
        with :meth:`subscribe`): True, or False if the database does not let this process listen within a few
        seconds. Read what the notices keep up to date only after it (the lobby at start-up: see
        :meth:`rules.server.hub.Hub.start`)."""
        ...

    async def heard_so_far(self) -> bool:
        """(A shared store) return once every notice committed before the call has been passed on (to
        :meth:`subscribe`'s callbacks): True, or False if the store cannot tell now (it does not listen)."""
        ...

    async def follow(self, table_id: str) -> None:
        """(A shared store) hear this table's events from other processes, from the moment this returns."""
        ...

    def unfollow(self, table_id: str) -> None:
        """(A shared store) stop hearing this table's events."""
        ...

    async def awake(self) -> list[tuple[StoredTable, int]]:
        """(A shared store) every awake unfinished table with only its seat and hand events, and its last event
        number: what the lobby lists of the tables other processes hold."""
        ...

    async def claim_orphans(self, held: set[str]) -> list[str]:
        """(A shared store) take the lead of the awake unfinished tables not in ``held`` that nobody leads and
        that are not at rest (:meth:`rest`): those whose leader died."""
        ...

    async def rest(self, table_id: str) -> None:
        """(A shared store) the table was let go with nothing due until a person acts: nobody need lead it."""
        ...

    async def sleep_rested(self, idle: float, held: Collection[str] = ()) -> None:
        """(A shared store) mark asleep the tables at rest for ``idle`` seconds (every process hears of each:
        ``table_asleep``); the tables this process holds (``held``) are in use, and rest from now on."""
        ...

    async def close(self) -> None:
        """Finish what is under way, then let go of the database."""
        ...


def is_postgres(db: str) -> bool:
    """Whether the ``db`` setting names a PostgreSQL database (a URL) rather than an SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


async def open_store(db: str, sync: str = "full", pool_size: int = 10) -> Store:
    """The store the ``db`` setting names: a PostgreSQL URL, else an SQLite file."""
    if is_postgres(db):
        from rules.server.pgstore import PostgresStore

        return await PostgresStore.connect(db, pool_size=pool_size)
    return EventStore(db, sync)


WAL_RESTART_BYTES = 32 * 1024 * 1024
"""Past this size the writer truncates the write-ahead log (under steady play it never stops growing else)."""

_Write = tuple[str, tuple[Any, ...]]
_Job = tuple[list[_Write], asyncio.AbstractEventLoop, "asyncio.Future[None]"]


class EventStore:
    """An SQLite file in WAL mode, written by one thread with group commit (one server process only)."""

    shared = False

    def __init__(self, path: str, sync: str = "full") -> None:
        self.path = path
        # The connection is used by this thread for loading, then only by the writer thread.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
        # Checkpoints (copying the WAL into the database file, with its own fsync) run in a
        # thread of their own, so that a slow disk seldom holds up a commit of moves; the writer
        # only restarts the WAL once it has grown large (see _commit).
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._db.execute("PRAGMA busy_timeout=10000")
        _prepare(self._db)
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="trumps-checkpoint", daemon=True)
        self._checkpointer.start()
        self._jobs: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        # Jobs of the current event-loop iteration, handed to the writer together: one wake-up each.
        self._gathering: list[_Job] = []
        self._writer = threading.Thread(target=self._write_loop, name="trumps-store", daemon=True)
        self._writer.start()
        self.commits = 0
        self.writes = 0

    # --- reading (at start-up, before play) ------------------------------------------------------

    async def unfinished(self) -> list[StoredTable]:
        """Every table whose match is not over and that is not asleep, with its events, oldest table first."""
        return self._unfinished()

    def _unfinished(self) -> list[StoredTable]:
        rows = self._db.execute(
            "SELECT id, created, creator, config FROM tables WHERE finished = 0 AND asleep = 0 ORDER BY created"
        ).fetchall()
        tables = {row[0]: StoredTable(row[0], row[1], row[2], json.loads(row[3])) for row in rows}
        cursor = self._db.execute(
            "SELECT e.table_id, e.body FROM events e JOIN tables t ON t.id = e.table_id "
            "WHERE t.finished = 0 AND t.asleep = 0 ORDER BY e.table_id, e.no"
        )
        for table_id, body in cursor:
            tables[table_id].events.append(json.loads(body))
        return list(tables.values())

    async def events_after(self, table_id: str, after: int) -> list[dict[str, Any]]:
        stored = await self.load(table_id)
        return [] if stored is None else stored.events[after:]

    async def ready(self) -> bool:
        return True

    # One process owns the file: it leads every table.

    def leads(self, table_id: str) -> bool:
        return True

    async def claim_lead(self, table_id: str) -> bool:
        return True

    async def release_lead(self, table_id: str) -> None:
        pass

    async def ask_lead(self, table_id: str) -> None:
        pass

    def subscribe(self, notice: Notice, resync: Callable[[], None], wants: Wants | None = None) -> None:
        pass  # nobody else writes to the file

    async def heard_from_now(self) -> bool:
        return True

    async def heard_so_far(self) -> bool:
        return True

    async def follow(self, table_id: str) -> None:
        pass

    def unfollow(self, table_id: str) -> None:
        pass

    async def awake(self) -> list[tuple[StoredTable, int]]:
        return []  # this process holds every awake table

    async def claim_orphans(self, held: set[str]) -> list[str]:
        return []

    # One process: a draw offer lives in its table's memory (Table.answer_draw), and so does presence.

    async def answer_draw(self, table_id: str, event_no: int, decide: DrawDecision) -> DrawOffer | None:
        raise NotImplementedError("one process keeps its draw offers in memory")

    async def draw_offer(self, table_id: str) -> DrawOffer | None:
        return None

    async def tell_presence(self, origin: str, tables: dict[str, tuple[list[int], int]], lasts: float) -> None:
        pass

    async def ask_presence(self, origin: str) -> None:
        pass

    async def presence_gone(self, origin: str) -> None:
        pass

    async def rest(self, table_id: str) -> None:
        pass

    async def sleep_rested(self, idle: float, held: Collection[str] = ()) -> None:
        pass

    async def load(self, table_id: str) -> StoredTable | None:
        """One table with its events (any table: asleep, finished or not), or ``None`` if there is none.

        Read in a thread, on a connection of its own: the writer's connection may be inside a
        transaction, and a reader in WAL mode sees exactly what is committed.
        """
        try:
            return await asyncio.to_thread(self._load, table_id)
        except sqlite3.Error as error:
            raise StoreError(f"the database could not be read: {error}") from None

    async def _open_tables_of(self, creator: str) -> int:
        def count() -> int:
            db = sqlite3.connect(self.path, timeout=10)
            try:
                row = db.execute(
                    "SELECT count(*) FROM tables WHERE creator = ? AND finished = 0 AND asleep = 0", (creator,)
                ).fetchone()
            finally:
                db.close()
            return int(row[0])

        try:
            return await asyncio.to_thread(count)
        except sqlite3.Error as error:
            raise StoreError(f"the database could not be read: {error}") from None

    def _load(self, table_id: str) -> StoredTable | None:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            row = db.execute(
                "SELECT id, created, creator, config, finished, asleep FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                return None
            events = db.execute("SELECT body FROM events WHERE table_id = ? ORDER BY no", (table_id,)).fetchall()
        finally:
            db.close()
        bodies = [json.loads(body) for (body,) in events]
        return StoredTable(row[0], row[1], row[2], json.loads(row[3]), bodies, bool(row[4]), bool(row[5]))

    # --- writing ---------------------------------------------------------------------------------

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
        # One process writes this file, and its hub creates tables one at a time: nothing can come between the
        # count and the insert.
        if limit and await self._open_tables_of(creator) >= limit:
            return False
        writes: list[_Write] = []
        if with_event is not None:  # one job: one savepoint, so both writes or neither (a taken number)
            other, no, body = with_event
            writes.append(("INSERT INTO events (table_id, no, body) VALUES (?, ?, ?)", (other, no, json.dumps(body))))
        writes.append(
            (
                "INSERT INTO tables (id, created, creator, config) VALUES (?, ?, ?, ?)",
                (table_id, created, creator, json.dumps(config)),
            )
        )
        await self._submit(writes)
        return True

    def append(self, table_id: str, no: int, body: dict[str, Any]) -> asyncio.Future[None]:
        """Queue event ``no`` of a table for commit; the future is done once it is on disk."""
        return self._queue(
            [("INSERT INTO events (table_id, no, body) VALUES (?, ?, ?)", (table_id, no, json.dumps(body)))]
        )

    async def finish(self, table_id: str) -> None:
        """Mark a table's match over: it is not rebuilt at the next start."""
        await self._submit([("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))])

    async def set_asleep(self, table_id: str, asleep: bool) -> None:
        """Mark a table asleep (left out of the next start-up; loaded when asked for) or awake again."""
        await self._submit([("UPDATE tables SET asleep = ? WHERE id = ?", (int(asleep), table_id))])

    async def wake(self, table_id: str, lobby: dict[str, Any]) -> None:
        await self.set_asleep(table_id, False)

    async def _submit(self, writes: list[_Write]) -> None:
        await self._queue(writes)

    def _queue(self, writes: list[_Write]) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if not self._gathering:
            loop.call_soon(self._hand_over)
        self._gathering.append((writes, loop, done))
        return done

    def _hand_over(self) -> None:
        self._jobs.put(self._gathering)
        self._gathering = []

    def _write_loop(self) -> None:
        while True:
            jobs = self._jobs.get()
            if jobs is None:
                return
            batch = list(jobs)
            stop = False
            while len(batch) < 1000:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch += more
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        failures: dict[int, str] = {}
        try:
            self._db.execute("BEGIN")
            for index, (writes, _, _) in enumerate(batch):
                # A savepoint per job: one bad job (say, a duplicate event number) fails alone.
                self._db.execute("SAVEPOINT job")
                try:
                    for sql, params in writes:
                        self._db.execute(sql, params)
                    self._db.execute("RELEASE job")
                except sqlite3.Error as error:
                    self._db.execute("ROLLBACK TO job")
                    self._db.execute("RELEASE job")
                    failures[index] = _TAKEN if isinstance(error, sqlite3.IntegrityError) else str(error)
            self._db.execute("COMMIT")
            self.commits += 1
            self.writes += len(batch)
        except sqlite3.Error as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            failures = dict.fromkeys(range(len(batch)), str(error))
        else:
            self._restart_wal_if_large()
        # One wake-up of the event loop per batch, not one per job.
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], str | None]]] = {}
        for index, (_, loop, done) in enumerate(batch):
            by_loop.setdefault(loop, []).append((done, failures.get(index)))
        for loop, outcomes in by_loop.items():
            loop.call_soon_threadsafe(_settle, outcomes)

    def _restart_wal_if_large(self) -> None:
        if self.commits % 100:
            return
        try:
            if os.path.getsize(f"{self.path}-wal") > WAL_RESTART_BYTES:
                # The background checkpoints have copied nearly all of it already: this is quick.
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (OSError, sqlite3.Error):
            pass  # housekeeping only: the events are committed either way

    def _checkpoint_loop(self, every: float = 1.0) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(every):
                # PASSIVE: copies what it can without waiting for, or blocking, the writer.
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            pass  # a checkpoint is housekeeping; the next start-up checkpoints anyway
        finally:
            db.close()

    async def close(self) -> None:
        """Finish the queued writes, then close the file."""
        await asyncio.to_thread(self.close_now)

    def close_now(self) -> None:
        """:meth:`close`, from synchronous code."""
        if self._gathering:
            self._hand_over()
        self._jobs.put(None)
        self._writer.join()
        self._stop.set()
        self._checkpointer.join()
        self._db.close()


_TAKEN = "the key is taken"
"""The reason of a write refused by a uniqueness constraint (an event number, a table id, already there)."""


def _settle(outcomes: list[tuple[asyncio.Future[None], str | None]]) -> None:
    for done, reason in outcomes:
        if done.cancelled():
            continue
        if reason is None:
            done.set_result(None)
        elif reason == _TAKEN:
            done.set_exception(StoreConflict("the event number is taken"))
        else:
            done.set_exception(StoreError(f"the database refused the write: {reason}"))
