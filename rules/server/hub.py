"""The hub: every table of one server, created, joined and left here, and rebuilt at start-up."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from rules.server.bots import Bots
from rules.server.limits import Settings
from rules.server.protocol import CreateTable, Joined, JoinTable, LeaveTable, Left, TableCreated
from rules.server.store import EventStore
from rules.server.tables import Refused, Table, TableConfig, new_token, token_hash

log = logging.getLogger("rules.server")


class Hub:
    """All tables of a server, by id."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self._store: EventStore | None = None
        self._bots = Bots(settings.bot_processes, settings.bot_threads)
        self._lock = asyncio.Lock()

    @property
    def store(self) -> EventStore:
        assert self._store is not None, "the hub has not been started"
        return self._store

    async def start(self) -> None:
        """Open the store and rebuild every unfinished table from its events."""
        self._store = EventStore(self.settings.db, self.settings.sync)
        for stored in self._store.unfinished():
            table = self._new_table(
                stored.id, TableConfig.model_validate(stored.config), stored.created, stored.creator
            )
            for record in stored.events:
                table.apply(record)
            if table.match_over:
                await self._store.finish(table.id)
                continue
            self.tables[table.id] = table
            table.restart_clock()
            table.kick()
        log.info("rebuilt %d tables from %s", len(self.tables), self.settings.db)

    async def stop(self) -> None:
        for table in self.tables.values():
            table.stop()
        self._bots.close()
        if self._store is not None:
            self._store.close()

    def _new_table(self, table_id: str, config: TableConfig, created: float, creator: str) -> Table:
        return Table(
            table_id,
            config,
            store=self.store,
            settings=self.settings,
            bots=self._bots,
            created=created,
            creator=creator,
        )

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise Refused("not_found", f"there is no table {table_id[:40]!r}")
        return table

    def open_tables(self) -> list[Table]:
        """Tables whose match is not over, newest first."""
        return sorted((t for t in self.tables.values() if not t.match_over), key=lambda t: -t.created)

    async def create(self, request: CreateTable, creator: str) -> TableCreated:
        config = TableConfig.of(request)
        async with self._lock:
            live = self.open_tables()
            if len(live) >= self.settings.max_tables:
                raise Refused("too_many_tables", "the server has as many tables as it can hold; join one instead")
            limit = self.settings.max_tables_per_client
            if limit and sum(1 for table in live if table.creator == creator) >= limit:
                raise Refused("too_many_tables", f"you already have {limit} unfinished tables open")
            table_id = secrets.token_urlsafe(6)
            await self.store.create_table(table_id, config.model_dump(mode="json"), creator)
            table = self._new_table(table_id, config, created=time.time(), creator=creator)
            self.tables[table_id] = table
        seat = token = None
        if request.join:
            joined = await self.join(table_id, JoinTable(seat=request.seat, name=request.name))
            seat, token = joined.seat, joined.token
        async with table.lock:
            table.kick()
        return TableCreated(table=table.info(), seat=seat, token=token)

    async def join(self, table_id: str, request: JoinTable) -> Joined:
        table = self.table(table_id)
        async with table.lock:
            if table.match_over:
                raise Refused("match_over", "this table's match is over")
            free = [seat for seat, state in enumerate(table.seats) if state.kind == "free"]
            if request.seat is None:
                if not free:
                    raise Refused("table_full", "every seat of this table is taken; you can watch as a spectator")
                seat = free[0]
            elif request.seat >= table.config.players:
                raise Refused(
                    "bad_request", f"seat {request.seat} is not a seat of this {table.config.players}-player table"
                )
            elif request.seat not in free:
                raise Refused("seat_taken", f"seat {request.seat} is taken")
            else:
                seat = request.seat
            token = new_token()
            record = {"type": "seat_taken", "seat": seat, "name": request.name, "token_hash": token_hash(token)}
            await table.commit(record, by="player")
        return Joined(table_id=table_id, seat=seat, token=token)

    async def leave(self, table_id: str, request: LeaveTable) -> Left:
        table = self.table(table_id)
        async with table.lock:
            seat = table.seat_of_token(request.token)
            if seat is None:
                raise Refused("bad_token", "this token holds no seat at this table")
            await table.commit({"type": "seat_freed", "seat": seat}, by="player")
            for conn in list(table.connections):
                if conn.seat == seat:
                    conn.drop(4000, "you left this seat")
        return Left(table_id=table_id, seat=seat)
