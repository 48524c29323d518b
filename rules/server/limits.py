"""The server's settings and limits, with defaults a small community server can run on.

Each setting can be given as an environment variable ``TRUMPS_<NAME>`` (upper case) or
as a ``trumps serve`` option; an option wins over the environment. Each is read exactly as
``docs/protocol.md`` (*Limits and settings*) says, and anything else is refused at start:
a number is written in digits (a whole number in digits only), so a sign, spaces, ``_``,
an exponent, ``inf`` or ``0x10`` are refused rather than read as Python would read them.

>>> Settings().max_message_bytes
4096
>>> Settings.from_env({"TRUMPS_RATE": "5"}).rate, Settings.from_env({"TRUMPS_RATE": "0.5"}).rate
(5.0, 0.5)
>>> Settings.from_env({"TRUMPS_RATE": "fast"})
Traceback (most recent call last):
...
ValueError: TRUMPS_RATE: 'fast' is not a number written in digits (such as 20 or 0.5)
>>> Settings.from_env({}, options={"burst": "+5"})
Traceback (most recent call last):
...
ValueError: --burst: '+5' is not a whole number written in digits (such as 40)
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Literal
from urllib.parse import urlsplit

from rules.digits import decimal_number, whole_number
from rules.locale import N_, Message
from rules.server.store import is_postgres


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
    presence_seconds: float = 5.0
    """With a shared database: how often each process tells the others who is connected to it at each table it has
    connections to (besides at once when that changes); what a process has not told again for
    :data:`PRESENCE_LASTS` times this no longer counts (so a killed process's players read as away)."""
    rematch_hold_seconds: float = 120.0
    """How long the seats of a rematch's new table stay kept for the players of the match before (only a player's
    own rematch request takes their seat meanwhile; 0: not kept)."""
    pool_size: int = 10
    """PostgreSQL connections each process keeps for requests (it opens two more: one listening, one for leads)."""
    rules_url: str = ""
    """Where the full rules are published (an ``http://`` or ``https://`` address), linked from the lobby ("": no
    link; the server itself serves no documentation)."""

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, options: Mapping[str, str | None] | None = None
    ) -> Settings:
        """Defaults, then ``TRUMPS_*`` variables, then ``options`` (the text of each ``trumps serve`` option given,
        by setting; ``None``: not given), each text read by :func:`read`; then :meth:`check`, whose refusal names
        the variable or option the value was given as.

        >>> Settings.from_env({"TRUMPS_BURST": "0"})
        Traceback (most recent call last):
        ...
        ValueError: TRUMPS_BURST must be at least 1, not 0
        """
        environ = os.environ if environ is None else environ
        kinds = {field.name: field.type for field in fields(cls)}
        values: dict[str, object] = {}
        given: dict[str, str] = {}
        for name, kind in kinds.items():
            key = f"TRUMPS_{name.upper()}"
            if key in environ:
                values[name] = read(key, environ[key], kind)
                given[name] = key
        for name, text in (options or {}).items():
            if text is not None:
                given[name] = "--" + name.replace("_", "-")
                values[name] = read(given[name], text, kinds[name])
        settings = cls(**values)  # type: ignore[arg-type]
        settings.check(given)
        return settings

    def check(self, given: Mapping[str, str] | None = None) -> None:
        """Raise ``ValueError`` naming the first setting whose value is refused, and what is wrong with it: by the
        variable or option it was given as, if ``given`` (by setting) says, else by the setting's own name."""
        given = given or {}
        if self.sync not in ("full", "normal"):
            raise ValueError(
                Message(N_("{name}: {value!r} is not full or normal"), name=given.get("sync", "sync"), value=self.sync)
            )
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(
                    Message(
                        N_("{name}: {value} is not a finite number"),
                        name=given.get(field.name, field.name),
                        value=value,
                    )
                )
            if value < 0:
                raise ValueError(
                    Message(N_("{name}: {value} is negative"), name=given.get(field.name, field.name), value=value)
                )
            if isinstance(value, int) and value > sys.maxsize:  # a deque's length, say, could not be that long
                raise ValueError(
                    Message(N_("{name}: {value} is too large"), name=given.get(field.name, field.name), value=value)
                )
        for name, least in AT_LEAST.items():
            value = getattr(self, name)
            if value < least:
                raise ValueError(
                    Message(
                        N_("{name} must be at least {least}, not {value}"),
                        name=given.get(name, name),
                        least=least,
                        value=value,
                    )
                )
        for name in ("rate", "hello_timeout", "presence_seconds"):
            value = getattr(self, name)
            if value <= 0:
                raise ValueError(
                    Message(N_("{name} must be more than 0, not {value}"), name=given.get(name, name), value=value)
                )
        if self.hard_message_bytes < self.max_message_bytes:
            raise ValueError(
                Message(
                    N_("{name} must be at least {other} ({least}), not {value}"),
                    name=given.get("hard_message_bytes", "hard_message_bytes"),
                    other=given.get("max_message_bytes", "max_message_bytes"),
                    least=self.max_message_bytes,
                    value=self.hard_message_bytes,
                )
            )
        _check_db(self.db, given.get("db", "db"))
        proxy_entries(self.trusted_proxies, given.get("trusted_proxies", "trusted_proxies"))
        if self.rules_url:
            _check_rules_url(self.rules_url, given.get("rules_url", "rules_url"))

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


PRESENCE_LASTS = 3
"""How many times ``presence_seconds`` what a process tells of its connections counts, unless told again."""

AT_LEAST = {
    "max_message_bytes": 256,
    "burst": 1,
    "max_tables": 1,
    "max_connections_per_table": 1,
    "send_queue": 1,
    "bot_threads": 1,
    "pool_size": 1,
}
"""The whole-number settings for which 0 would not mean "no limit" but a server that cannot work (no table, no
connection, every update dropped, no thread for the computer players, no database connection), and their least."""


def read(name: str, text: str, kind: object) -> object:
    """The value of the setting ``name`` (the variable or option it came from) written as ``text``, for a field of
    ``kind``: a whole number in ASCII digits only, any other number in digits with at most one decimal point
    (:mod:`rules.digits`), a text as it is (:meth:`Settings.check` judges it).

    >>> read("TRUMPS_BURST", "40", "int"), read("TRUMPS_RATE", "2.5", "float"), read("TRUMPS_RATE", ".5", "float")
    (40, 2.5, 0.5)
    >>> read("TRUMPS_BURST", "1_000", "int")
    Traceback (most recent call last):
    ...
    ValueError: TRUMPS_BURST: '1_000' is not a whole number written in digits (such as 40)
    """
    kind_name = kind if isinstance(kind, str) else getattr(kind, "__name__", "")
    if kind_name == "int":
        value = whole_number(name, text)
        if value > sys.maxsize:  # a deque's length, say, could not be that long
            raise ValueError(Message(N_("{name}: {value} is too large"), name=name, value=text))
        return value
    if kind_name == "float":
        return decimal_number(name, text)
    return text


def _visible(name: str, value: str, shown: str | None = None) -> None:
    """Refuse a text with a line feed, a tab or any other character that does not show (a space shows); the
    refusal quotes ``shown`` (the value without what must not be shown) if given."""
    if not value.isprintable():
        raise ValueError(
            Message(
                N_("{name}: {value!r} contains a line feed, a tab or another invisible character"),
                name=name,
                value=value if shown is None else shown,
            )
        )


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:@/]*):.*@", re.DOTALL)


def _without_password(db: str) -> str:
    """``db`` as a refusal may quote it: a URL without its password (as far as the last ``@``, to be safe), even
    one that cannot be split into its parts.

    >>> _without_password("postgresql://trumps:se:c@ret@[::1/trumps"), _without_password("trumps.sqlite3")
    ('postgresql://trumps@[::1/trumps', 'trumps.sqlite3')
    """
    return _PASSWORD.sub(r"\1@", db)


def _check_db(db: str, name: str) -> None:
    """An SQLite file name (not empty, not SQLite's ``:memory:``, no space at either end), or a ``postgresql://``
    (or ``postgres://``) URL that can be split into its parts; what PostgreSQL thinks of it is checked by
    connecting (``pgstore.check``). A refusal names the setting as ``name``."""
    _visible(name, db, shown=_without_password(db))
    if db != db.strip(" "):
        raise ValueError(
            Message(N_("{name}: {value!r} begins or ends with a space"), name=name, value=_without_password(db))
        )
    if is_postgres(db):
        try:
            urlsplit(db)
        except ValueError as error:  # "Invalid IPv6 URL": an unmatched [ or ]
            raise ValueError(
                Message(N_("{name}: the postgresql:// URL cannot be read: {why}"), name=name, why=str(error))
            ) from None
        return
    if db in ("", ":memory:") or _SCHEME.match(db):
        # "" and ":memory:" are a new empty database for each connection, lost at exit; sqlite:///..., mysql://...
        raise ValueError(
            Message(
                N_("{name}: {value!r} is neither an SQLite file name nor a postgresql:// URL"),
                name=name,
                value=_without_password(db),
            )
        )


def _check_rules_url(url: str, name: str) -> None:
    _visible(name, url)
    if " " in url:
        raise ValueError(Message(N_("{name}: {value!r} contains a space (write it as %20)"), name=name, value=url))
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises for a port that is no number or out of range)
    except ValueError:
        parts = None
    if parts is None or not url.startswith(("http://", "https://")) or not parts.hostname:
        raise ValueError(Message(N_("{name}: {value!r} is not an http:// or https:// address"), name=name, value=url))


def proxy_entries(text: str, name: str = "trusted_proxies") -> list[str]:
    """The ``trusted_proxies`` setting as uvicorn's ``forwarded_allow_ips`` is to be given it: its comma-separated
    entries (spaces around each allowed), each an IPv4 or IPv6 address or network as :mod:`ipaddress` reads it,
    as uvicorn then reads it too; ``[]`` for ``""`` (believe none); ``["*"]`` for ``*`` alone (every address).

    uvicorn itself takes any other entry as a name that it compares with the connecting address as text, so
    ``localhost``, ``10.0.0.0/33`` or ``10.0.0.1/8`` (a network with host bits set) would silently match nothing,
    and ``*`` among other entries would too: all refused here, naming the setting as ``name``.

    >>> proxy_entries(" 10.0.0.5, 10.0.1.0/24 ,::1"), proxy_entries(""), proxy_entries(" * ")
    (['10.0.0.5', '10.0.1.0/24', '::1'], [], ['*'])
    >>> proxy_entries("127.0.0.1, localhost")
    Traceback (most recent call last):
    ...
    ValueError: trusted_proxies: 'localhost' is not an IP address or network
    """
    _visible(name, text)
    if not text.strip(" "):
        return []
    entries = [entry.strip(" ") for entry in text.split(",")]
    if entries == ["*"]:
        return entries
    for entry in entries:
        if entry == "*":
            raise ValueError(Message(N_("{name}: * (every address) cannot be listed with other entries"), name=name))
        try:
            if "/" in entry:
                ipaddress.ip_network(entry)
            else:
                ipaddress.ip_address(entry)
        except ValueError:
            try:
                network = ipaddress.ip_network(entry, strict=False) if "/" in entry else None
            except ValueError:
                network = None
            if network is not None:
                raise ValueError(
                    Message(
                        N_(
                            "{name}: {entry!r} is not a network (its host bits are set): write {network} "
                            "for the network, or {address} for one address"
                        ),
                        name=name,
                        entry=entry,
                        network=network,
                        address=entry.split("/")[0],
                    )
                ) from None
            raise ValueError(
                Message(N_("{name}: {entry!r} is not an IP address or network"), name=name, entry=entry)
            ) from None
    return entries
