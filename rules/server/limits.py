"""The server's settings and limits, with defaults a small community server can run on.

Each setting can be given as an environment variable ``TRUMPS_<NAME>`` (upper case) or
as a ``trumps serve`` option; an option wins over the environment.

>>> Settings().max_message_bytes
4096
>>> Settings.from_env({"TRUMPS_RATE": "5"}).rate
5.0
>>> Settings.from_env({"TRUMPS_RATE": "fast"})
Traceback (most recent call last):
...
ValueError: TRUMPS_RATE: 'fast' is not a number
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Literal

from rules.locale import N_, Message


@dataclass(frozen=True)
class Settings:
    """Limits and knobs of one server; see ``docs/protocol.md`` for what each one protects."""

    db: str = "trumps.sqlite3"
    """The SQLite file of the event store (created if missing), or a ``postgresql://`` URL of a database that any
    number of server processes share (see docs/deploy.md)."""
    sync: Literal["full", "normal"] = "full"
    """SQLite ``synchronous`` mode. ``full``: a committed move survives a power cut, not just a crash."""
    max_message_bytes: int = 4096
    """A WebSocket message longer than this is refused with ``too_large`` (the largest legal one is ~200)."""
    hard_message_bytes: int = 65536
    """A message longer than this closes the connection (1009) before it is even read whole."""
    rate: float = 20.0
    """Messages per second a connection may send on average ..."""
    burst: int = 40
    """... and at once. Past the budget a message is refused with ``rate_limited``."""
    flood_close: int = 40
    """A connection is closed (1008) by its message refused as ``rate_limited`` that brings their count to this, each
    message within the rate (whatever its answer) taking one off the count; other refusals do not count (0: never)."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to send ``hello`` before it is closed."""
    max_tables_per_client: int = 10
    """Unfinished tables one client address may have created (0: no limit)."""
    max_tables: int = 2000
    """Unfinished tables on the server."""
    max_connections_per_table: int = 64
    """WebSocket connections (players and spectators) per table."""
    max_connections_per_client: int = 64
    """Open WebSocket connections from one client address, over all tables (0: no limit)."""
    idle_table_seconds: float = 600.0
    """A table nobody has been connected to for this long, on which nothing happens until a person acts,
    leaves memory (it stays in the database and is loaded again when asked for; 0: tables stay in memory)."""
    send_queue: int = 256
    """Updates waiting for a slow client; past this the connection is closed (1008)."""
    history: int = 64
    """Updates per table kept in memory to replay exactly to a reconnecting client (older: a full resync)."""
    bot_processes: int = 2
    """Worker processes that run computer players' searches (0: threads of the server process instead)."""
    bot_threads: int = 4
    """Threads for computer players when ``bot_processes`` is 0."""
    computer_delay: float = 0.0
    """Seconds a computer seat waits before it moves (so people can follow the game)."""
    trusted_proxies: str = "127.0.0.1"
    """Comma-separated addresses (or networks, ``10.0.0.0/8``) of the reverse proxies whose ``X-Forwarded-For``
    and ``X-Forwarded-Proto`` are believed; the client is the right-most hop not among them ("": believe none)."""
    release_seconds: float = 5.0
    """With a shared database: how long after its last request a table nobody here is connected to stays in this
    process's memory (the lobby keeps listing it; the next request reads it again)."""
    pool_size: int = 10
    """PostgreSQL connections each process keeps for requests (it opens two more: one listening, one for leads)."""
    rules_url: str = ""
    """Where the full rules are published (an ``http://`` or ``https://`` address), linked from the lobby ("": no
    link; the server itself serves no documentation)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Defaults, then ``TRUMPS_*`` variables, then ``overrides`` (those not ``None``)."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for field in fields(cls):
            key = f"TRUMPS_{field.name.upper()}"
            if key in environ:
                values[field.name] = _convert(key, environ[key], field.type)
        values.update({name: value for name, value in overrides.items() if value is not None})
        settings = cls(**values)  # type: ignore[arg-type]
        settings.check()
        return settings

    def check(self) -> None:
        """Raise ``ValueError`` naming the first setting out of range."""
        if self.sync not in ("full", "normal"):
            raise ValueError(Message(N_("sync: {value!r} is not full or normal"), value=self.sync))
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(Message(N_("{name}: {value} is not a finite number"), name=field.name, value=value))
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
                raise ValueError(Message(N_("{name}: {value} is negative"), name=field.name, value=value))
        if self.rules_url and not self.rules_url.startswith(("http://", "https://")):
            raise ValueError(
                Message(N_("rules_url: {value!r} is not an http:// or https:// address"), value=self.rules_url)
            )
        if self.pool_size < 1:
            raise ValueError(Message(N_("pool_size must be at least 1")))
        if self.rate <= 0 or self.burst < 1 or self.max_message_bytes < 256:
            raise ValueError(Message(N_("rate must be > 0, burst >= 1 and max_message_bytes >= 256")))

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _convert(key: str, text: str, kind: object) -> object:
    kind_name = kind if isinstance(kind, str) else getattr(kind, "__name__", "")
    try:
        if kind_name == "int":
            return int(text)
        if kind_name == "float":
            return float(text)
    except ValueError:
        raise ValueError(Message(N_("{name}: {text!r} is not a number"), name=key, text=text)) from None
    return text
