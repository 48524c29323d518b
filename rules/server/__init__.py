"""The online table: an ASGI app (:mod:`rules.server.app`) serving tables that play matches.

- :mod:`~rules.server.protocol`: every message, as pydantic models, and their JSON Schema
- :mod:`~rules.server.app`: the HTTP lobby, the WebSocket per table, the browser client
- :mod:`~rules.server.hub`: all tables of a server; creating, joining, leaving; the rebuild at start-up;
  idle tables put to sleep (out of memory, kept on disk) and woken on demand; connections per address
- :mod:`~rules.server.tables`: one table, its seats, its match and its connections
- :mod:`~rules.server.elsewhere`: the lobby's entries of tables other processes hold (a shared database)
- :mod:`~rules.server.store`: the SQLite event store (every event committed before it is announced)
- :mod:`~rules.server.pgstore`: the PostgreSQL store, shared by several server processes
- :mod:`~rules.server.scaling`: a benchmark, server CPU per move for 1, 2 and 3 processes
- :mod:`~rules.server.bots`: computer seats thinking in worker processes
- :mod:`~rules.server.verify`: checking a finished hand's seed, deal and log
- :mod:`~rules.server.limits`: the settings and their defaults

See ``docs/protocol.md``.
"""
