"""The hub: every table of one server, created, joined and left here, rebuilt at start-up, put to sleep when idle.

A table lives in memory while it is in use. Once nobody has been connected to it for
``Settings.idle_table_seconds`` and nothing can happen there until a person acts (its match
is over, or its hand is over, or it waits for a person who has gone, with no clock running),
the hub puts it to sleep: it leaves memory and the lobby, and stays whole in the database. Anyone
who asks for it by id (joining, watching, reconnecting, leaving its seat) wakes it: it is
rebuilt from its events and goes on exactly where it stopped. A sleeping table whose match is
not over is marked ``asleep`` in the database, so a restart does not load it either.

When several server processes share a PostgreSQL database, each holds a table only while it has a
use for it: a connection, a request in the last ``Settings.release_seconds``, or a computer seat or
clock whose lead it holds. It applies the events the others commit to those tables only
(:meth:`Hub._notice`) and passes them on to its own connections; of the other tables its lobby
keeps an entry (:mod:`rules.server.elsewhere`). A table let go with nothing due until a person
acts is marked at rest, so that no process takes it up; one whose leader died (its lead is free
and it is not at rest) is taken up by the first process that looks (every :data:`ORPHAN_SECONDS`). A leader
that serves none of a table's players hands the table over to a process that does when that one asks
(:meth:`Hub.hand_over`): a clock or a computer seat runs where the players are.

Presence is shared the same way: each process tells every other who is connected to it at each table (the seats its
connections hold, how many spectators watch there) when that changes, and again every ``Settings.presence_seconds``
for the tables it has connections to (:meth:`Hub._tell_presence_forever`); each counts what it was told for
:data:`~rules.server.limits.PRESENCE_LASTS` times that unless told again (:class:`~rules.server.elsewhere.Presences`),
so a process that dies stops counting then. A process that starts (or listens again after an outage) asks the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from rules.server import tables
from rules.server.bots import Bots
from rules.server.elsewhere import Elsewhere, Entry, Presences, entry_of
from rules.server.limits import PRESENCE_LASTS, Settings
from rules.server.protocol import (
    CreateTable,
    Joined,
    JoinTable,
    LeaveTable,
    Left,
    Rematched,
    RematchTable,
    TableCreated,
    TableInfo,
)
from rules.server.store import Store, StoredTable, StoreError, open_store
from rules.server.tables import (
    Refused,
    Table,
    TableConfig,
    lapse_holds,
    new_token,
    possible_table_id,
    rematch_token,
    token_hash,
)

log = logging.getLogger("rules.server")

ABANDONED_SECONDS = 300.0
"""A match under way without any connection for this long is no longer listed in the lobby (however busy its clock
and computer seats are)."""

ABANDONED_ELSEWHERE_SECONDS = 1800.0
"""The same for a table another process holds, whose moves this one does not hear: counted from its last news (its
seat and hand events), which alone tell that it is still played."""

ORPHAN_SECONDS = 5.0
"""With a shared database: how often a process looks for tables whose leader died (their bots and clocks wait)."""

SLEEPING_INFOS = 4096
"""How many sleeping tables' lobby entries the hub remembers, so that looking one up does not replay it."""


def _lobby_entry(table: Table) -> Entry:
    """The lobby entry of a table this process holds, as the processes that do not hold it keep it."""
    return Entry(table.info(), table.created, table.news_at, table.event_no)


class Hub:
    """All tables of a server, by id (those in memory), and the WebSocket connections per client address."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.clients: Counter[str] = Counter()
        """Open WebSocket connections per client address."""
        self._sleeping: OrderedDict[str, TableInfo] = OrderedDict()
        """Lobby entries of sleeping tables, most recently used last. A sleeping table cannot change
        (anything that would change it wakes it first), so an entry holds until the table wakes."""
        self._store: Store | None = None
        self._bots = Bots(settings.bot_processes, settings.bot_threads)
        self._lock = asyncio.Lock()
        self._elsewhere = Elsewhere()
        """Lobby entries of the tables other processes hold (a shared database)."""
        self._heard_while_reading: list[tuple[str, int, dict[str, Any] | None]] | None = None
        """(A shared database, while :meth:`_read_lobby` reads the lobby) the notices of tables held elsewhere heard
        meanwhile, applied over what was read once it is read."""
        self._read_again = False
        """The listening connection came back while the lobby was being read: what was read may miss the outage."""
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.origin = secrets.token_hex(6)
        """This process, as it names itself when it tells the others who is connected to it."""
        self.presences = Presences()
        """(A shared database) who is connected to the other processes, by table."""
        self._presence_changed: set[str] = set()
        """Tables whose connections here changed since the others were last told."""
        self._presence_told: dict[str, tuple[frozenset[int], int]] = {}
        """What the others were last told of this process's connections, by table (only tables with some)."""
        self._presence_wake = asyncio.Event()
        self._presence_all = False
        """The next notice tells of every table with connections here (asked for by a process that started)."""
        self._presence_task: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        assert self._store is not None, "the hub has not been started"
        return self._store

    async def start(self) -> None:
        """Open the store; alone on it, rebuild every unfinished table that is not asleep; start the housekeeping."""
        self._store = await open_store(self.settings.db, self.settings.sync, self.settings.pool_size)
        if self._store.shared:
            self._heard_while_reading = []
        self._store.subscribe(self._notice, self._resync, self._wants)
        if self._store.shared:
            await self._read_lobby()
        else:
            for stored in await self._store.unfinished():
                table = self._rebuild(stored)
                if table.match_over:
                    await self._store.finish(table.id)
                    continue
                self._bring_in(table)
            log.info("rebuilt %d tables from the database", len(self.tables))
        if self._store.shared or self.settings.idle_table_seconds > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        if self._store.shared:
            self._presence_task = asyncio.get_running_loop().create_task(self._tell_presence_forever())

    async def _read_lobby(self) -> None:
        """(A shared database) the lobby entries of the tables other processes hold, read from the database: at
        start-up, and again whenever the listening connection comes back after an outage, during which this process
        heard of nothing (a table created, a seat taken, a match ended elsewhere meanwhile).

        Listen first, then read: a table another process creates (or a seat it fills) while this one reads is
        then heard of, if the read missed it. Read first, and what is committed between the read and the first
        LISTEN would be neither read nor heard: a table missing from this process's lobby until its next news.
        What is heard during the read is kept aside and applied over what was read, in the order it was
        committed; what the read already saw comes out the same twice (:meth:`Elsewhere.heard`: a seat taken is
        taken, a creation heard of a table listed changes nothing), so nothing is lost or counted twice. An entry
        the read no longer finds (its match over, or asleep) leaves the lobby, unless this process let the table
        go during the read (its entry is newer than the read)."""
        if not await self.store.heard_from_now():
            log.error("the database does not let this process listen yet: its lobby may miss a table until it does")
        self._read_again = True
        try:
            while self._read_again:
                self._read_again = False
                listed = set(self._elsewhere.entries)
                found = await self.store.awake()
                # Held by nobody here: listed from their seat and hand events; those whose leader died are taken up
                # by the first look for orphans (at once).
                for stored, last in found:
                    if stored.id in self.tables or (stored.id in self._elsewhere.entries and stored.id not in listed):
                        continue
                    self._elsewhere.add(entry_of(stored.id, stored.config, stored.created))
                    for record in stored.events:
                        self._elsewhere.heard(stored.id, 0, record)
                    self._elsewhere.heard(stored.id, last, None)
                for table_id in listed - {stored.id for stored, _ in found}:
                    self._elsewhere.forget(table_id)
                self._hear_what_was_kept(reading=True)
        finally:  # read or not, what was heard counts (a failed read is tried again when the database is back)
            self._hear_what_was_kept(reading=False)
        log.info("the lobby lists %d tables of the database", len(self._elsewhere.entries))

    def _hear_what_was_kept(self, reading: bool) -> None:
        """Apply the notices heard during a read of the lobby; keep the next ones aside if ``reading`` goes on."""
        heard, self._heard_while_reading = self._heard_while_reading or [], [] if reading else None
        for table_id, no, note in heard:
            self._elsewhere.heard(table_id, no, note)

    async def _read_lobby_again(self) -> None:
        try:
            await self._read_lobby()
        except StoreError as error:
            log.error("could not read the lobby again: %s", error)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._presence_task is not None:
            self._presence_task.cancel()
            if self._presence_told:  # the others stop counting this process's connections at once (else in time)
                with contextlib.suppress(StoreError, TimeoutError):
                    await asyncio.wait_for(self.store.presence_gone(self.origin), 1.0)
        for task in list(self._tasks):
            task.cancel()
        for table in self.tables.values():
            table.stop()
        await asyncio.to_thread(self._bots.close)  # waits for a search under way: the commits in flight go on
        if self._store is not None:
            await self._store.close()

    # --- events committed by other processes (a shared database) -----------------------------------

    def _notice(self, table_id: str, no: int, record: dict[str, Any] | None) -> None:
        table = self.tables.get(table_id)
        kind = record.get("type") if record is not None else None
        if kind is not None and kind.startswith(("presence", "draw_offer")):
            assert record is not None
            self._heard_presence_or_offer(table, table_id, kind, record)
        elif kind == "lead_wanted":
            if table is not None:
                self._spawn(self.hand_over(table))
        elif kind == "lead_free":
            if table is not None and table.connections:
                table.take_lead(ask=False)
        elif table is None:  # not held here: only its lobby entry changes
            if self._heard_while_reading is not None:
                self._heard_while_reading.append((table_id, no, record))
            else:
                self._elsewhere.heard(table_id, no, record)
        elif no > table.event_no:
            table.absorb_soon(no, record)

    def _heard_presence_or_offer(self, table: Table | None, table_id: str, kind: str, record: dict[str, Any]) -> None:
        if kind == "draw_offer":
            if table is not None:
                table.hear_offer(record["offer"])
            return
        origin = record["origin"]
        if origin == self.origin:
            return  # this process's own notice
        if kind == "presence_asked":
            self._presence_all = True
            self._presence_wake.set()
            return
        if kind == "presence_gone":
            changed = self.presences.gone(origin)
        else:
            lasts = float(record["lasts"])
            heard = self.presences.heard(table_id, origin, record["seats"], record["spectators"], lasts)
            changed = [table_id] if heard else []
        for one in changed:
            held = self.tables.get(one)
            if held is not None:
                held.announce_presence()

    def _connections_changed(self, table: Table) -> None:
        """A table's connections here changed: the other processes are told (soon: changes close together, one
        notice)."""
        if self.store.shared:
            self._presence_changed.add(table.id)
            self._presence_wake.set()

    async def _tell_presence_forever(self) -> None:
        """(A shared database) tell the other processes who is connected here: at each change, and every
        ``presence_seconds`` for the tables with connections here; forget what they told too long ago."""
        every = self.settings.presence_seconds
        lasts = every * PRESENCE_LASTS
        refresh_at = time.monotonic() + every
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._presence_wake.wait(), max(0.0, min(refresh_at - time.monotonic(), every / 2))
                )
            self._presence_wake.clear()
            try:
                for table_id in self.presences.expire():
                    table = self.tables.get(table_id)
                    if table is not None:
                        table.announce_presence()
                everything = self._presence_all or time.monotonic() >= refresh_at
                if everything:
                    self._presence_all = False
                    refresh_at = time.monotonic() + every
                await self._tell_presence(everything, lasts)
            except StoreError as error:  # told again at the next change, or the next refresh
                log.error("could not tell the other processes who is connected here: %s", error)
                await asyncio.sleep(every / 2)
            except Exception:  # housekeeping: never let it stop for good
                log.exception("telling the other processes who is connected here failed")
                await asyncio.sleep(every / 2)

    async def _tell_presence(self, everything: bool, lasts: float) -> None:
        """One round: the tables whose connections here changed (``everything``: every table with some, too)."""
        changed, self._presence_changed = self._presence_changed, set()
        if everything:
            changed |= set(self._presence_told)
        news: dict[str, tuple[frozenset[int], int]] = {}
        for table_id in changed:
            table = self.tables.get(table_id)
            now = table.local_presence() if table is not None else (frozenset(), 0)
            if everything or now != self._presence_told.get(table_id, (frozenset(), 0)):
                news[table_id] = now
        if not news:
            return
        try:
            await self.store.tell_presence(
                self.origin,
                {table_id: (sorted(seats), watching) for table_id, (seats, watching) in news.items()},
                lasts,
            )
        except BaseException:
            self._presence_changed |= set(news)  # told at the next round
            raise
        for table_id, now in news.items():
            if now[0] or now[1]:
                self._presence_told[table_id] = now
            else:
                self._presence_told.pop(table_id, None)

    async def hand_over(self, table: Table) -> None:
        """(A shared database) another process serves this table's players and this one, its leader, serves none:
        let the table go, and its lead with it (that process takes it when it hears it is free). The clock and the
        computer seats go on there, and no process applies the table's moves without a use for them."""
        if self.tables.get(table.id) is not table or not self.store.leads(table.id) or table.connections or table.busy:
            return  # a player came here meanwhile, or a move of the lead's is under way: asked again later
        await self._let_go(table, leads=True)
        log.info("table %s: handed over to the process its players are connected to", table.id)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _wants(self, table_id: str, no: int) -> bool:
        table = self.tables.get(table_id)
        return table is not None and no > table.event_no

    def _resync(self) -> None:
        """The listening connection listens (again): what was committed while it did not is read (tables held here
        replay what they missed, the lobby is read anew)."""
        for table in self.tables.values():
            table.absorb_soon(None, None)
        if self._heard_while_reading is not None:
            self._read_again = True  # a read under way: it reads once more
        elif self.store.shared:
            self._heard_while_reading = []
            self._spawn(self._read_lobby_again())
        if self.store.shared:  # who is connected to the others: they tell (a start, or changes missed meanwhile)
            self._spawn(self._ask_presence())

    async def _ask_presence(self) -> None:
        try:
            await self.store.ask_presence(self.origin)
        except StoreError as error:  # their refreshes tell it within presence_seconds anyway
            log.error("could not ask the other processes who is connected to them: %s", error)

    def _new_table(self, table_id: str, config: TableConfig, created: float, creator: str) -> Table:
        return Table(
            table_id,
            config,
            store=self.store,
            settings=self.settings,
            bots=self._bots,
            created=created,
            creator=creator,
            presences=self.presences if self.store.shared else None,
            on_presence=self._connections_changed,
        )

    def _rebuild(self, stored: StoredTable) -> Table:
        """A table as its stored events leave it (not yet in :attr:`tables`, nothing started)."""
        table = self._new_table(stored.id, TableConfig.model_validate(stored.config), stored.created, stored.creator)
        for record in stored.events:
            table.apply(record)
        return table

    async def _rebuild_aside(self, stored: StoredTable) -> Table:
        """:meth:`_rebuild` in a worker thread: replaying a long match takes tens of milliseconds (about 6 ms
        a hand), which the event loop spends serving the other tables meanwhile."""
        return await asyncio.to_thread(self._rebuild, stored)

    def _bring_in(self, table: Table) -> None:
        self.tables[table.id] = table
        self._elsewhere.forget(table.id)
        table.restart_clock()
        table.kick()
        if self.store.shared:
            table.absorb_soon(None, None)  # committed while it was read: their notices found no table here

    # --- finding a table, waking it if it sleeps --------------------------------------------------------

    async def table(self, table_id: str, past_the_limit: bool = False) -> Table:
        """The table in memory, woken (loaded from the store) if it was asleep; :class:`Refused` if there is none.

        A table is not woken while this process holds ``max_tables`` unfinished ones, unless ``past_the_limit`` (a
        player giving up their seat: that is always possible, and the table sleeps again once idle)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.touch()
            return table
        async with self._lock:
            table = self.tables.get(table_id)  # woken by someone else meanwhile
            if table is not None:
                table.touch()
                return table
            try:
                if possible_table_id(table_id):
                    await self.store.follow(table_id)  # before it is read: no event of it goes unheard
                stored = await self._stored(table_id)
                if self.full() and not past_the_limit:
                    raise Refused(
                        "too_many_tables", "the server holds as many tables as it can right now; try again later"
                    )
                table = await self._rebuild_aside(stored)
                if not table.match_over:
                    # Awake again in the database too, so that a restart rebuilds it (ordered after the
                    # write that put it to sleep: one writer, in order), and in every process's lobby.
                    await self.store.wake(table_id, _lobby_entry(table).lobby())
            except BaseException:
                self.store.unfollow(table_id)
                raise
            self._sleeping.pop(table_id, None)
            self._bring_in(table)
            log.info("woke table %s", table_id)
            return table

    async def _stored(self, table_id: str) -> StoredTable:
        stored = await self.store.load(table_id) if possible_table_id(table_id) else None
        if stored is None:
            raise Refused("not_found", f"there is no table {table_id[:40]!r}")
        return stored

    async def info(self, table_id: str) -> TableInfo:
        """What the lobby shows of a table; a sleeping one is read from the store without waking it.

        Sleeping tables' entries are remembered, so that asking again (say, a client polling a
        long match that sleeps) does not replay the match each time.
        """
        table = self.tables.get(table_id)
        if table is not None:
            async with table.lock:
                await table.refresh()
                return table.info()
        info = self._sleeping.get(table_id)
        if info is None:
            info = (await self._rebuild_aside(await self._stored(table_id))).info()
            # Woken (and maybe put to sleep again) while it was replayed: what the hub holds now is newer.
            if table_id in self.tables:
                return self.tables[table_id].info()
            if table_id in self._sleeping:
                return lapse_holds(self._sleeping[table_id])
            self._remember_sleeping(info)
        else:
            self._sleeping.move_to_end(table_id)
        return lapse_holds(info)

    def _remember_sleeping(self, info: TableInfo) -> None:
        if self.store.shared:
            return  # another process may change the table while it sleeps here: read it each time
        self._sleeping[info.id] = info
        if len(self._sleeping) > SLEEPING_INFOS:
            self._sleeping.popitem(last=False)

    @contextlib.asynccontextmanager
    async def locked(self, table_id: str, past_the_limit: bool = False) -> AsyncIterator[Table]:
        """The table, awake, with its lock held (a table put to sleep while we waited is woken again)."""
        while True:
            table = await self.table(table_id, past_the_limit)
            async with table.lock:
                if not table.asleep:
                    yield table
                    return

    def full(self) -> bool:
        """This process holds ``max_tables`` unfinished tables: it creates and wakes no more (a finished match it still
        holds, say one being watched, takes no room: it leaves memory once nobody uses it)."""
        return len(self.open_tables()) >= self.settings.max_tables

    def open_tables(self) -> list[Table]:
        """Tables in memory whose match is not over, newest first."""
        return sorted((t for t in self.tables.values() if not t.match_over), key=lambda t: -t.created)

    async def caught_up(self) -> None:
        """(A shared store) take in what other processes committed before now: every notice of it heard, and the
        events heard of for the tables held here applied. So a lobby asked for right after a change made elsewhere
        shows it, as a process's answers about one table do (read your writes)."""
        if not self.store.shared or not await self.store.heard_so_far():
            return  # not listening (the database away): the lobby is read again once it listens
        for table in list(self.tables.values()):
            await table.apply_heard()

    def lobby(self) -> list[TableInfo]:
        """What the lobby lists (see :meth:`lobby_tables`), with the tables other processes hold, in the same order."""
        listed = [(table.news_at, table.info()) for table in self.lobby_tables()]
        now = time.time()
        for entry in list(self._elsewhere.entries.values()):
            if entry.info.hand == 0 or now - entry.news_at < ABANDONED_ELSEWHERE_SECONDS:
                listed.append((entry.news_at, self._with_presence(Elsewhere.info(entry))))
        return [info for _, info in sorted(listed, key=lambda pair: (pair[0], pair[1].id), reverse=True)]

    def _with_presence(self, info: TableInfo) -> TableInfo:
        """The lobby line of a table held elsewhere, with who is connected to the other processes (its players and
        spectators are all there)."""
        seats, watching = self.presences.seats(info.id), self.presences.spectators(info.id)
        connected = [seat.kind == "human" and seat.seat in seats for seat in info.seats]
        if watching == info.spectators and connected == [seat.connected for seat in info.seats]:
            return info
        infos = [seat.model_copy(update={"connected": up}) for seat, up in zip(info.seats, connected, strict=True)]
        return info.model_copy(update={"seats": infos, "spectators": watching})

    def lobby_tables(self, now: float | None = None) -> list[Table]:
        """What the lobby lists: tables one can join or watch, the one with the latest news first
        (:attr:`Table.news_at <rules.server.tables.Table.news_at>`: the same order on every process).

        A match under way that nobody has been connected to for :data:`ABANDONED_SECONDS` is left
        out (:attr:`Table.attended_at <rules.server.tables.Table.attended_at>`; its clock and computer
        seats may be playing on): a stranger should not walk into a half-played match that nobody plays.
        It can still be reached by its link.
        """
        now = time.monotonic() if now is None else now

        def listed(table: Table) -> bool:
            return table.hand_no == 0 or bool(table.connections) or now - table.attended_at < ABANDONED_SECONDS

        return sorted(
            (table for table in self.open_tables() if listed(table)), key=lambda t: (t.news_at, t.id), reverse=True
        )

    # --- putting idle tables to sleep ---------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        idle = self.settings.idle_table_seconds
        shared = self.store.shared
        every = min(max(idle / 4, 0.05), 30.0) if idle > 0 else 30.0
        if shared:
            every = min(every, max(self.settings.release_seconds / 4, 0.05), 1.0)
        orphans_at = rested_at = 0.0
        while True:
            try:
                if shared:
                    await self.let_go()
                    if time.monotonic() >= orphans_at:
                        orphans_at = time.monotonic() + ORPHAN_SECONDS
                        await self.adopt_orphans()
                    if idle > 0 and time.monotonic() >= rested_at:
                        # Often enough that a table held here (in use) never goes a whole idle time untouched.
                        rested_at = time.monotonic() + min(ORPHAN_SECONDS, idle / 4)
                        await self.store.sleep_rested(idle, held=set(self.tables))
                else:
                    await self.sweep()
            except Exception:  # housekeeping: never let it stop for good
                log.exception("letting idle tables go failed")
            await asyncio.sleep(every)

    async def let_go(self, now: float | None = None) -> int:
        """(A shared database) let go of the tables this process has no use for any more; how many.

        A table goes once nobody here is connected to it, no request used it for ``release_seconds`` and no
        work of it is under way, unless this process leads it and a computer move or clock is due (they stay
        with their leader). One with nothing due until a person acts is marked at rest in the database.
        """
        now = time.monotonic() if now is None else now
        hold = self.settings.release_seconds
        released = 0
        for table in list(self.tables.values()):
            # No await between these checks and taking the table out: nothing can slip in between.
            if table.connections or table.busy or now - table.used_at < hold:
                continue
            leads = self.store.leads(table.id)
            if (leads and not table.resting()) or self.tables.get(table.id) is not table:
                continue
            released += 1
            await self._let_go(table, leads=leads)
        if released:
            log.info("let %d tables go; %d in memory", released, len(self.tables))
        return released

    async def _let_go(self, table: Table, *, leads: bool) -> None:
        """(A shared database) take the table out of memory (the lobby keeps its entry) and free its lead (``leads``:
        held here); one with nothing due until a person acts is marked at rest first, so that no process takes it
        up as an orphan."""
        resting = table.resting()
        del self.tables[table.id]
        self.store.unfollow(table.id)
        table.asleep = True  # this object is out of use: a request now reads the table again
        table.stop()
        self._elsewhere.add(_lobby_entry(table))
        if resting and not table.match_over and (leads or await self.store.claim_lead(table.id)):
            try:
                await self.store.rest(table.id)
            except StoreError as error:
                log.error("table %s: could not be marked at rest: %s", table.id, error)
        await self.store.release_lead(table.id)

    async def adopt_orphans(self) -> int:
        """(A shared database) take up the tables whose leader died, so that their bots and clocks go on."""
        adopted = 0
        for table_id in await self.store.claim_orphans(set(self.tables)):
            try:
                async with self._lock:
                    if table_id in self.tables or self.full():
                        await self.store.release_lead(table_id)
                        continue
                    await self.store.follow(table_id)
                    stored = await self.store.load(table_id)
                    table = None if stored is None or stored.finished else await self._rebuild_aside(stored)
                    if table is None or table.match_over:
                        if table is not None:
                            await self.store.finish(table_id)
                        self.store.unfollow(table_id)
                        await self.store.release_lead(table_id)
                        continue
                    self._bring_in(table)
                    adopted += 1
            except StoreError as error:
                log.error("table %s: could not be taken up: %s", table_id, error)
                if table_id not in self.tables:
                    self.store.unfollow(table_id)
                await self.store.release_lead(table_id)
        if adopted:
            log.info("took up %d tables whose process had stopped", adopted)
        return adopted

    async def sweep(self, now: float | None = None) -> int:
        """Put to sleep every table idle for ``idle_table_seconds``; how many were."""
        now = time.monotonic() if now is None else now
        idle = self.settings.idle_table_seconds
        asleep = 0
        for table in list(self.tables.values()):
            # No await between these checks and taking the table out: nothing can slip in between.
            if table.connections or table.lock.locked() or not table.at_rest():
                continue
            if now - table.quiet_since < idle or self.tables.get(table.id) is not table:
                continue
            del self.tables[table.id]
            table.asleep = True
            table.stop()
            self._remember_sleeping(table.info())
            asleep += 1
            # Marked asleep in the database by one process at a time: the one that can hold its lead.
            if not table.match_over and await self.store.claim_lead(table.id):
                try:
                    await self.store.set_asleep(table.id, True)
                except StoreError:
                    log.exception("table %s: could not be marked asleep; the next start will rebuild it", table.id)
            await self.store.release_lead(table.id)
        if asleep:
            log.info("put %d idle tables to sleep; %d in memory", asleep, len(self.tables))
        return asleep

    # --- connections per client address ---------------------------------------------------------------

    def admit(self, address: str) -> bool:
        """Count a new WebSocket connection from ``address``; ``False`` (not counted) if it has too many open."""
        limit = self.settings.max_connections_per_client
        if limit and self.clients[address] >= limit:
            return False
        self.clients[address] += 1
        return True

    def release(self, address: str) -> None:
        self.clients[address] -= 1
        if self.clients[address] <= 0:
            del self.clients[address]

    # --- the lobby's requests --------------------------------------------------------------------------

    async def create(self, request: CreateTable, creator: str) -> TableCreated:
        config = TableConfig.of(request)

        async def write(table_id: str, created: float, limit: int) -> bool:
            return await self.store.create_table(table_id, config.stored(), creator, limit, created=created)

        table_id = await self._make_table(config, creator, write, "join one instead")
        seat = token = None
        if request.join:
            joined = await self.join(table_id, JoinTable(seat=request.seat, name=request.name))
            seat, token = joined.seat, joined.token
        async with self.locked(table_id) as table:
            table.kick()
            return TableCreated(table=table.info(), seat=seat, token=token)

    async def join(self, table_id: str, request: JoinTable) -> Joined:
        return await _again_if_stale(lambda: self._join(table_id, request))

    async def _join(self, table_id: str, request: JoinTable, token: str | None = None) -> Joined:
        """Take a seat with a new token, or with ``token`` (a rematch's, derived from the seat's token at the match
        before): a seat that token holds already is taken again at no cost (asked twice).

        A seat a rematch's new table keeps for its player of the match before (:meth:`Table.held_until
        <rules.server.tables.Table.held_until>`, decided on the table's committed events and the hold's end stored
        with it, so alike on every process) is taken only with ``token``: the rematch of that player, whose seat
        this is (the caller checked their token at the old table); anyone else is refused with ``seat_held``."""
        async with self.locked(table_id) as table:
            await table.refresh()
            if token is not None and request.seat is not None and table.seat_of_token(token) == request.seat:
                return Joined(table_id=table_id, seat=request.seat, token=token)
            if table.match_over:
                raise Refused("match_over", "this table's match is over")
            now = tables.hold_clock()
            free = [seat for seat, state in enumerate(table.seats) if state.kind == "free"]
            held = {seat: until for seat in free if (until := table.held_until(seat, now)) is not None}
            if request.seat is None:
                open_seats = [seat for seat in free if seat not in held]
                if not open_seats:
                    if held:
                        raise Refused("seat_held", _held_message(held, now))
                    raise Refused("table_full", "every seat of this table is taken; you can watch as a spectator")
                seat = open_seats[0]
            elif request.seat >= table.config.players:
                raise Refused(
                    "bad_request", f"seat {request.seat} is not a seat of this {table.config.players}-player table"
                )
            elif request.seat not in free:
                raise Refused("seat_taken", f"seat {request.seat} is taken")
            elif request.seat in held and token is None:
                raise Refused("seat_held", _held_message({request.seat: held[request.seat]}, now))
            else:
                seat = request.seat
            token = token or new_token()
            record = {"type": "seat_taken", "seat": seat, "name": request.name, "token_hash": token_hash(token)}
            await table.commit(record, by="player")
        return Joined(table_id=table_id, seat=seat, token=token)

    async def leave(self, table_id: str, request: LeaveTable) -> Left:
        left, rematch = await _again_if_stale(lambda: self._leave(table_id, request))
        if rematch is not None:  # a player of a finished match gives their seat at its rematch up, if it is kept
            try:
                await _again_if_stale(lambda: self._give_hold_up(rematch, left.seat))
            except (Refused, StoreError) as error:  # the seat was left here all the same: its hold lapses in time
                log.error("table %s: the hold on seat %d could not be given up: %s", rematch, left.seat, error)
        return left

    async def _leave(self, table_id: str, request: LeaveTable) -> tuple[Left, str | None]:
        """The seat left, and the table of this one's rematch if its match is over and it has one."""
        async with self.locked(table_id, past_the_limit=True) as table:
            await table.refresh()
            seat = table.seat_of_token(request.token)
            if seat is None:
                raise Refused("bad_token", "this token holds no seat at this table")
            await table.commit({"type": "seat_freed", "seat": seat}, by="player")  # which closes its sockets
            rematch = table.rematch if table.match_over else None
        return Left(table_id=table_id, seat=seat), rematch

    async def _give_hold_up(self, table_id: str, seat: int) -> None:
        """End the hold on ``seat`` of the rematch's table ``table_id``, whose player left the match before: the seat
        is freed (``seat_freed``, ``by: "player"``), open to anyone. Nothing if it is not kept (taken, or its time
        up). Like a leave, done even when this process holds as many tables as it may."""
        async with self.locked(table_id, past_the_limit=True) as table:
            await table.refresh()
            if table.held_until(seat) is not None:
                await table.commit({"type": "seat_freed", "seat": seat}, by="player")

    async def rematch(self, table_id: str, request: RematchTable, creator: str) -> Rematched:
        """The same match again at a new table, once this one's is over, with the caller (a seat's token here) in
        the same seat there. The first call makes the new table; the others (on any process) seat their callers at
        that one. A second call with one token answers as the first did (the new token is derived from the old)."""
        seat, new_id, name, made = await _again_if_stale(lambda: self._rematch_table(table_id, request, creator))
        token = rematch_token(request.token, new_id)
        await _again_if_stale(lambda: self._join(new_id, JoinTable(seat=seat, name=name), token))
        async with self.locked(new_id) as table:
            table.kick()
            return Rematched(table=table.info(), seat=seat, token=token, created=made)

    async def _rematch_table(
        self, table_id: str, request: RematchTable, creator: str
    ) -> tuple[int, str, str | None, bool]:
        """The caller's seat at the old table, the new table (made now if it was not: then ``True`` last), and the
        name to sit down with there (the one given, else the one at the old table)."""
        async with self.locked(table_id) as old:
            await old.refresh()
            seat = old.seat_of_token(request.token)
            if seat is None:
                raise Refused("bad_token", "this token holds no seat at this table")
            if not old.match_over:
                raise Refused("match_not_over", "this table's match is not over: a rematch can follow once it is")
            name = request.name if request.name is not None else old.seats[seat].name
            if old.rematch is not None:
                return seat, old.rematch, name, False
            # As the lobby makes a table: the dealer is the last seat, so seat 0 chooses a trump and leads first.
            # The seats of the people still at this table are kept for them there (the caller's too, until the
            # join below), for a while: until a time stored with the new table, so that every process decides alike.
            hold = self.settings.rematch_hold_seconds
            until = tables.hold_clock() + hold
            holds = {n: until for n, state in enumerate(old.seats) if state.kind == "human"} if hold > 0 else {}
            config = old.config.model_copy(
                update={"dealer": old.config.players - 1, "holds": holds, "rematch_of": table_id}
            )

            async def write(table_id: str, created: float, limit: int) -> bool:
                return await old.commit_rematch(seat, table_id, config, creator, limit, created)

            return seat, await self._make_table(config, creator, write, "try again later"), name, True

    async def _make_table(
        self,
        config: TableConfig,
        creator: str,
        write: Callable[[str, float, int], Awaitable[bool]],
        otherwise: str,
    ) -> str:
        """A new table's id, the table written by ``write(id, created, limit)`` (``False``: ``creator`` has ``limit``
        unfinished tables open, site-wide) and then held here; :class:`Refused` ``too_many_tables`` if this process
        holds as many as it may (``otherwise`` says what to do instead) or the creator has as many open."""
        limit = self.settings.max_tables_per_client
        async with self._lock:
            if self.full():
                raise Refused("too_many_tables", f"the server has as many tables as it can hold; {otherwise}")
            table_id = secrets.token_urlsafe(6)
            created = time.time()
            await self.store.follow(table_id)  # before anyone else knows of it (a rematch announces it at once)
            try:
                made = await write(table_id, created, limit)
            except BaseException:
                self.store.unfollow(table_id)
                raise
            if not made:
                self.store.unfollow(table_id)
                raise Refused("too_many_tables", f"you already have {limit} unfinished tables open")
            self.tables[table_id] = self._new_table(table_id, config, created=created, creator=creator)
            self._elsewhere.forget(table_id)
        return table_id


def _held_message(held: dict[int, float], now: float) -> str:
    """The refusal of a join to the seats in ``held`` (seat -> when its hold ends), kept at ``now``."""
    seats = ", ".join(str(seat) for seat in held)
    seconds = max(1, round(max(held.values()) - now))
    which = f"seat {seats} is" if len(held) == 1 else f"seats {seats} are"
    return (
        f"{which} kept for the players of the match before, who may ask for their rematch, for {seconds} more "
        "seconds at most; you can watch as a spectator"
    )


_Answer = TypeVar("_Answer")


async def _again_if_stale(attempt: Callable[[], Awaitable[_Answer]]) -> _Answer:
    """A join or a leave: when another process changed the table first, this one has caught up with it (see
    :meth:`Table.commit <rules.server.tables.Table.commit>`): decide again, on the new truth (three times at most)."""
    for _ in range(3):
        try:
            return await attempt()
        except Refused as refused:
            if refused.code != "stale":
                raise
    return await attempt()
