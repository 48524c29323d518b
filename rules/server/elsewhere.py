"""What the lobby knows of tables this process does not hold (a shared database, several processes).

A process holds a table in memory only while it has a use for it (a connection, a request, a
computer seat or clock it leads); the lobby still lists every table of the site. For the others
it keeps a lobby entry, brought up to date by the notices every process hears: a table's
creation (with its configuration), its seats taken and freed, its hands started, its sleeping and waking,
and the end of its match (its moves are heard only by the processes that hold it, so the entry's event number is
that of its last seat or hand event). Nothing is replayed. Those notices are the table's news, and
carry the time each was stored with: the lobby orders these entries as the process holding the table
orders it.

>>> tables = Elsewhere()
>>> config = {"players": 2, "dealer": 0, "pass_sixes": True, "must_beat": False, "computer": {}, "clock": None,
...           "match_hands": None}
>>> tables.heard("abc", 0, {"type": "table_created", "config": config, "created": 1.0})
>>> tables.heard("abc", 1, {"type": "seat_taken", "seat": 0, "name": "Ann", "by": "player"})
>>> [(seat.kind, seat.name) for seat in tables.infos()[0].seats]
[('human', 'Ann'), ('free', None)]

A notice heard twice changes nothing the second time (a creation does not empty the seats again, a seat taken is
taken), so the notices heard while the database was read can be applied over what it said:

>>> tables.heard("abc", 0, {"type": "table_created", "config": config, "created": 1.0})
>>> tables.heard("abc", 1, {"type": "seat_taken", "seat": 0, "name": "Ann", "by": "player"})
>>> [(seat.kind, seat.name) for seat in tables.infos()[0].seats]
[('human', 'Ann'), ('free', None)]
>>> tables.heard("abc", 0, {"type": "table_finished"})
>>> tables.infos()
[]

A table put to sleep leaves the lobby too (``table_asleep``), and comes back, with the lobby entry of the process
that woke it, when it is woken (``table_awake``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from rules.events import RuleOptions
from rules.server.protocol import SeatInfo, TableInfo, stored_name, table_status
from rules.server.tables import NEWS, hold_lasts, lapse_holds

ENTRIES = 20_000
"""Tables held elsewhere the lobby keeps entries for at most (the oldest are forgotten past it)."""


@dataclass
class Entry:
    info: TableInfo
    created: float
    news_at: float
    """The Unix time of its last news (:data:`~rules.server.tables.NEWS`) as stored, or of its creation: the lobby's
    order, and how long a match under way has gone without news (for leaving abandoned matches out)."""
    event_no: int = 0
    """Its last event heard of (kept apart from :attr:`info`, which changes only with its seats and hands)."""

    def lobby(self) -> dict[str, Any]:
        """As JSON, for the other processes (:meth:`Elsewhere.heard` reads it back from ``table_awake``)."""
        return {
            "info": self.info.model_dump(mode="json"),
            "created": self.created,
            "news_at": self.news_at,
            "event_no": self.event_no,
        }


def entry_of(table_id: str, config: dict[str, Any], created: float) -> Entry:
    """A new table's entry: its seats as its configuration leaves them (a rematch's kept for their players of the
    match before, until the time stored with it), nothing happened yet."""
    computer = {int(seat): level for seat, level in config.get("computer", {}).items()}
    holds = {int(seat): float(until) for seat, until in config.get("holds", {}).items()}
    seats = [
        SeatInfo(seat=seat, kind="computer", level=computer[seat])
        if seat in computer
        else SeatInfo(seat=seat, kind="free", held_until=holds[seat] if hold_lasts(holds.get(seat)) else None)
        for seat in range(config["players"])
    ]
    info = TableInfo(
        id=table_id,
        players=config["players"],
        rules=RuleOptions(pass_sixes=config["pass_sixes"], must_beat=config["must_beat"]),
        seats=seats,
        status=table_status((seat.kind for seat in seats), 0, match_over=False),
        hand=0,
        event_no=0,
        clock=config.get("clock"),
        match_hands=config.get("match_hands"),
    )
    return Entry(info, created, created)


class Elsewhere:
    """Lobby entries of the site's open tables this process does not hold, by id."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}

    def add(self, entry: Entry) -> None:
        if entry.info.status == "finished":
            self.entries.pop(entry.info.id, None)
            return
        self.entries[entry.info.id] = entry
        if len(self.entries) > ENTRIES:
            del self.entries[next(iter(self.entries))]

    def forget(self, table_id: str) -> None:
        self.entries.pop(table_id, None)

    def heard(self, table_id: str, no: int, record: dict[str, Any] | None) -> None:
        """Another process committed event ``no`` of a table (``record``, when the notice carried it)."""
        kind = record.get("type") if record else None
        if kind == "table_created" and record is not None:
            if table_id in self.entries:  # heard twice (at start-up: read, and heard while being read)
                return
            self.add(entry_of(table_id, record["config"], float(record.get("created", time.time()))))
            return
        if kind == "table_awake" and record is not None:  # listed again, as the process that woke it saw it
            lobby = record["lobby"]
            info = TableInfo.model_validate_json(json.dumps(lobby["info"]))
            self.add(Entry(info, float(lobby["created"]), float(lobby["news_at"]), int(lobby["event_no"])))
            return
        entry = self.entries.get(table_id)
        if entry is None:
            return
        if kind in ("table_finished", "table_asleep"):
            del self.entries[table_id]
            return
        entry.event_no = max(no, entry.event_no)
        info = entry.info
        update: dict[str, Any] = {}
        if record is not None and kind in NEWS:  # one stored by an older server has no time: no news to the order
            entry.news_at = record.get("at", entry.news_at)
        if record is not None and kind in ("seat_taken", "seat_freed"):
            seat = record["seat"]
            seats = list(info.seats)
            if kind == "seat_taken":
                seats[seat] = SeatInfo(seat=seat, kind="human", name=stored_name(record.get("name")))
            else:
                seats[seat] = SeatInfo(seat=seat, kind="free", left=True)
            update["seats"] = seats
        elif record is not None and kind == "hand_started":
            update["hand"] = int(record["hand"])
        if update:  # a move (most notices) changes only the event number
            seats, hand = update.get("seats", info.seats), update.get("hand", info.hand)
            update["status"] = table_status((seat.kind for seat in seats), hand, match_over=False)
            entry.info = info.model_copy(update=update)

    def infos(self) -> list[TableInfo]:
        return [self.info(entry) for entry in self.entries.values()]

    @staticmethod
    def info(entry: Entry) -> TableInfo:
        """The entry's lobby line, with its latest event number, without the holds whose time is up (each process
        compares the time stored with the table with its clock: no notice tells of it)."""
        if entry.info.event_no != entry.event_no:
            entry.info = entry.info.model_copy(update={"event_no": entry.event_no})
        entry.info = lapse_holds(entry.info)
        return entry.info


@dataclass
class _Told:
    """What one other process last told of its connections to one table, and until when it counts (monotonic)."""

    seats: frozenset[int]
    spectators: int
    until: float


class Presences:
    """Who is connected to the other processes of a site, by table (a shared database): the seats their connections
    hold and how many spectators watch there, as each process tells it (:meth:`~rules.server.store.Store.tell_presence`)
    when it changes and again every ``presence_seconds``. What a process told counts for as long as it said (a few
    times that period) unless told again, so the connections of a process that died stop counting then.

    >>> presences = Presences()
    >>> presences.heard("abc", "p1", [1], 2, lasts=15, now=100.0)
    True
    >>> presences.heard("abc", "p2", [0], 1, lasts=15, now=101.0)
    True
    >>> presences.heard("abc", "p2", [0], 1, lasts=15, now=102.0)  # told again: counted longer, nothing changed
    False
    >>> sorted(presences.seats("abc", now=110.0)), presences.spectators("abc", now=110.0)
    ([0, 1], 3)
    >>> presences.expire(now=116.0), sorted(presences.seats("abc", now=116.0)), presences.spectators("abc", now=116.0)
    (['abc'], [0], 1)
    >>> presences.gone("p2"), presences.seats("abc"), presences.spectators("abc")
    (['abc'], frozenset(), 0)
    """

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, _Told]] = {}

    def heard(
        self, table_id: str, origin: str, seats: list[int], spectators: int, lasts: float, now: float | None = None
    ) -> bool:
        """Process ``origin`` tells who is connected to it at the table (``[], 0``: nobody); whether what counts
        changed."""
        now = time.monotonic() if now is None else now
        before = self._counted(table_id, now)
        told = self._tables.setdefault(table_id, {})
        if seats or spectators:
            told[origin] = _Told(frozenset(seats), spectators, now + lasts)
        else:
            told.pop(origin, None)
            if not told:
                del self._tables[table_id]
        return self._counted(table_id, now) != before

    def gone(self, origin: str) -> list[str]:
        """Process ``origin`` stopped: the tables it was connected to."""
        tables = []
        for table_id, told in list(self._tables.items()):
            if told.pop(origin, None) is not None:
                tables.append(table_id)
                if not told:
                    del self._tables[table_id]
        return tables

    def expire(self, now: float | None = None) -> list[str]:
        """Forget what was told too long ago: the tables where something was."""
        now = time.monotonic() if now is None else now
        tables = []
        for table_id, told in list(self._tables.items()):
            for origin in [origin for origin, one in told.items() if one.until <= now]:
                del told[origin]
                if table_id not in tables:
                    tables.append(table_id)
            if not told:
                del self._tables[table_id]
        return tables

    def seats(self, table_id: str, now: float | None = None) -> frozenset[int]:
        """The seats a connection to another process holds at the table."""
        return self._counted(table_id, now)[0]

    def spectators(self, table_id: str, now: float | None = None) -> int:
        """How many spectators watch the table on the other processes."""
        return self._counted(table_id, now)[1]

    def _counted(self, table_id: str, now: float | None) -> tuple[frozenset[int], int]:
        told = self._tables.get(table_id)
        if not told:
            return frozenset(), 0
        now = time.monotonic() if now is None else now
        alive = [one for one in told.values() if one.until > now]
        return frozenset().union(*(one.seats for one in alive)), sum(one.spectators for one in alive)
